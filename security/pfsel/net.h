/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Network hooks
 */

#ifndef _SECURITY_PFSEL_NET_H
#define _SECURITY_PFSEL_NET_H

#include <linux/init.h>

#if IS_ENABLED(CONFIG_INET)
__init void pfsel_add_net_hooks(void);
#else
static inline void pfsel_add_net_hooks(void)
{
}
#endif

#endif /* _SECURITY_PFSEL_NET_H */
