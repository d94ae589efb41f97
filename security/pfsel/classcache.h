/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Address, port, name and application classes, cached per CPU
 */

#ifndef _SECURITY_PFSEL_CLASSCACHE_H
#define _SECURITY_PFSEL_CLASSCACHE_H

#include <linux/types.h>

#include "policy.h"

/**
 * enum pfsel_prefix_len - The prefix an address is cached under, by length
 *
 * @PFSEL_PREFIX_LEN_128: the address alone.
 * @PFSEL_PREFIX_LEN_120: an IPv4 address's /24 (::ffff:a.b.c.0/120).
 * @PFSEL_PREFIX_LEN_64: an IPv6 address's /64.
 * @PFSEL_PREFIX_LENS: how many lengths there are.
 *
 * An address's prefix is the network of its peers, which a policy seldom
 * divides: an IPv4 address's /24, an IPv6 address's /64.  But the
 * unspecified addresses, which socket()'s request and a bind() to any
 * address carry, are each their own prefix: a policy gives 0.0.0.0 a
 * class of its own (a connect to it reaches the local host), and ::/64
 * holds the whole of IPv4 (::ffff:0:0/96), which every policy with an
 * IPv4 rule divides; so are the rest of ::/64 (::1, the IPv4-compatible).
 * The class cache (classcache.c) and the recent allows (recent.h) keep
 * one entry for a whole prefix when they may; this is the one definition
 * of it they share.
 *
 * A prefix is its first address *and* its length: 0.0.0.0 alone and
 * 0.0.0.0/24 (the prefix of 0.0.0.1 to 0.0.0.255) start at the same
 * address, so a key of the first address alone would let the entry of
 * either answer for the other's addresses.  Each cache's key therefore
 * holds the length too, and compares it.  The values are small: the
 * recent allows keep the length in the low bits of a pointer.
 */
enum pfsel_prefix_len {
	PFSEL_PREFIX_LEN_128,
	PFSEL_PREFIX_LEN_120,
	PFSEL_PREFIX_LEN_64,
	PFSEL_PREFIX_LENS
};

/**
 * pfsel_addr_prefix_len - The length of an address's prefix
 *
 * @high: the address's first eight bytes, as pfsel_policydb_addr_word()
 *	  reads them.
 * @low: its last eight, read so.
 *
 * Return: the length (enum pfsel_prefix_len).
 */
static __always_inline enum pfsel_prefix_len
pfsel_addr_prefix_len(const u64 high, const u64 low)
{
	if (high)
		return PFSEL_PREFIX_LEN_64;
	if (low >> 32 == 0xffff && (u32)low)
		return PFSEL_PREFIX_LEN_120;
	return PFSEL_PREFIX_LEN_128;
}

/**
 * pfsel_prefix_len_mask - The bits of an address's last eight bytes that a
 *			   prefix of a length keeps
 *
 * @len: the length.
 *
 * Every prefix of @len keeps the address's first eight bytes (no length is
 * shorter than 64) and these bits of the last eight: one mask per length,
 * so that a prefix's first address and length say which addresses it
 * holds.
 *
 * Return: the mask; low & mask is the prefix's first address's low word,
 * low | ~mask its last's.
 */
static __always_inline u64 pfsel_prefix_len_mask(const enum pfsel_prefix_len len)
{
	switch (len) {
	case PFSEL_PREFIX_LEN_64:
		return 0;
	case PFSEL_PREFIX_LEN_120:
		return ~(u64)0xff;
	default:
		return ~(u64)0;
	}
}

u32 pfsel_classcache_addr(const struct pfsel_policy *policy, const u8 addr[16],
			  bool *whole_prefix);
u32 pfsel_classcache_port(const struct pfsel_policy *policy, u16 port);
u32 pfsel_classcache_name(const struct pfsel_policy *policy, u64 id,
			  const char *name, size_t len);
u32 pfsel_classcache_app(const struct pfsel_policy *policy, const char *exe,
			 const char *script);

#endif /* _SECURITY_PFSEL_CLASSCACHE_H */
