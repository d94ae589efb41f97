/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - What a DNS answer says about names and addresses
 *
 * For rules by host name, pfsel learns which names an address has from the
 * DNS answers that trusted resolvers receive.  This is the parser of those
 * answers: it reads one DNS message and reports, through a callback, each
 * address the answer gives the question's name or one of its aliases.  It
 * is pure (no locks, no allocation, no sleeping, nothing kept between
 * calls), so the receive path can call it in softirq; what to do with a
 * binding (the per-namespace table, TTL clamping) is the caller's.
 *
 * The same source builds in user space (the fuzzer) through compiler/kshim.
 */

#ifndef _SECURITY_PFSEL_DNS_H
#define _SECURITY_PFSEL_DNS_H

#include <linux/types.h>

#include "uapi/pfsel_policy.h"

/* Longest name reported: the presentation form, without the final dot. */
#define PFSEL_DNS_NAME_MAX 253

/* Most aliases followed from the question's name (CNAME links). */
#define PFSEL_DNS_MAX_LINKS 8

/* Most address and alias records of one answer considered. */
#define PFSEL_DNS_MAX_RECORDS 32

/**
 * struct pfsel_dns_binding - One address the answer gives one name
 * @name: lower case, no final dot, NUL-terminated, 1 to PFSEL_DNS_NAME_MAX
 *	  characters, each printable ASCII other than space; valid only
 *	  during the callback
 * @family: PFSEL_FAMILY_INET for an A record, and for an AAAA record
 *	    holding an IPv4-mapped address (the policy's view of it);
 *	    PFSEL_FAMILY_INET6 otherwise
 * @addr: network order; IPv4 as IPv4-mapped IPv6, as in struct
 *	  pfsel_request
 * @ttl: seconds, the smallest TTL of the records that led from @name to
 *	 @addr; not clamped
 * @asked: @name is the question's name (the name the program asked for),
 *	   not one of its aliases
 */
struct pfsel_dns_binding {
	const char *name;
	u8 family;
	u8 addr[16];
	u32 ttl;
	bool asked;
};

typedef void (*pfsel_dns_fn)(const struct pfsel_dns_binding *b, void *arg);

int pfsel_dns_parse_answer(const u8 *msg, size_t len, pfsel_dns_fn fn,
			   void *arg);

#endif /* _SECURITY_PFSEL_DNS_H */
