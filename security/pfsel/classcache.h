/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Address and port classes, cached per CPU
 */

#ifndef _SECURITY_PFSEL_CLASSCACHE_H
#define _SECURITY_PFSEL_CLASSCACHE_H

#include <linux/types.h>

#include "policy.h"

u32 pfsel_classcache_addr(const struct pfsel_policy *policy,
			  const u8 addr[16]);
u32 pfsel_classcache_port(const struct pfsel_policy *policy, u16 port);

#endif /* _SECURITY_PFSEL_CLASSCACHE_H */
