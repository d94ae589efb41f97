/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Learning host names from trusted resolvers' DNS answers
 */

#ifndef _SECURITY_PFSEL_RESOLVER_H
#define _SECURITY_PFSEL_RESOLVER_H

#include <linux/init.h>

struct msghdr;
struct socket;

void pfsel_resolver_note_send(struct socket *sock, struct msghdr *msg);
__init void pfsel_add_resolver_hooks(void);

#endif /* _SECURITY_PFSEL_RESOLVER_H */
