/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Learning host names from trusted resolvers' DNS answers
 */

#ifndef _SECURITY_PFSEL_RESOLVER_H
#define _SECURITY_PFSEL_RESOLVER_H

#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/uidgid.h>

struct msghdr;
struct sock;
struct socket;

DECLARE_STATIC_KEY_FALSE(pfsel_resolver_key);

/**
 * pfsel_resolvers_named - Tell whether the system policy names resolvers
 *
 * Until one does, the hooks that learn host names cost one patched-out
 * branch on every datagram (pfsel_resolver_follow_policy()).
 *
 * Return: true when the system policy may name resolvers.
 */
static inline bool pfsel_resolvers_named(void)
{
	return static_branch_unlikely(&pfsel_resolver_key);
}

void pfsel_resolver_note_send(struct socket *sock, struct msghdr *msg);
void pfsel_resolver_sock_free(struct sock *sk);
void pfsel_resolver_follow_policy(void);
void pfsel_resolver_forget_untrusted(kuid_t uid);
__init void pfsel_add_resolver_hooks(void);

#endif /* _SECURITY_PFSEL_RESOLVER_H */
