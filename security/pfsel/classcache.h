/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Address, port and name classes, cached per CPU
 */

#ifndef _SECURITY_PFSEL_CLASSCACHE_H
#define _SECURITY_PFSEL_CLASSCACHE_H

#include <linux/types.h>

#include "policy.h"

/**
 * pfsel_addr_prefix_mask - The bits of an address's last eight bytes that
 *			    its prefix keeps
 *
 * @high: the address's first eight bytes, as pfsel_policydb_addr_word()
 *	  reads them.
 * @low: its last eight, read so.
 *
 * An address's prefix is the network of its peers, which a policy seldom
 * divides: an IPv4-mapped address's /24, another IPv6 address's /64.
 * But the unspecified addresses, which socket()'s request and a bind()
 * to any address carry, are each their own prefix: a policy gives
 * 0.0.0.0 a class of its own (a connect to it reaches the local host),
 * and ::/64 holds the whole of IPv4 (::ffff:0:0/96), which every policy
 * with an IPv4 rule divides; so are the rest of ::/64 (::1, the
 * IPv4-compatible).  The class cache (classcache.c) and the recent allows
 * (recent.h) keep one entry for a whole prefix when they may; this is the
 * one definition of it they share.
 *
 * Return: the mask; @low & mask is the prefix's first address's low word,
 * @low | ~mask its last's.
 */
static inline u64 pfsel_addr_prefix_mask(const u64 high, const u64 low)
{
	if (high)
		return 0;
	if (low >> 32 == 0xffff && (u32)low)
		return ~(u64)0xff;
	return ~(u64)0;
}

u32 pfsel_classcache_addr(const struct pfsel_policy *policy, const u8 addr[16],
			  bool *whole_prefix);
u32 pfsel_classcache_port(const struct pfsel_policy *policy, u16 port);
u32 pfsel_classcache_name(const struct pfsel_policy *policy, u64 id,
			  const char *name, size_t len);

#endif /* _SECURITY_PFSEL_CLASSCACHE_H */
