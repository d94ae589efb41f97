/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Address, port and name classes, cached per CPU
 */

#ifndef _SECURITY_PFSEL_CLASSCACHE_H
#define _SECURITY_PFSEL_CLASSCACHE_H

#include <linux/types.h>

#include "policy.h"

u32 pfsel_classcache_addr(const struct pfsel_policy *policy,
			  const u8 addr[16]);
u32 pfsel_classcache_port(const struct pfsel_policy *policy, u16 port);
u32 pfsel_classcache_name(const struct pfsel_policy *policy, u64 id,
			  const char *name, size_t len);

#endif /* _SECURITY_PFSEL_CLASSCACHE_H */
