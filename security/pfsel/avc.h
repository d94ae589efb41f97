/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Access vector cache
 *
 * The AVC keeps decisions that were already made, so that a hook asks the
 * policy only once per (policy generation, application class, address
 * class, port class, operation, protocol).  It knows nothing of the policy:
 * keys and decisions are opaque numbers chosen by the caller.
 */

#ifndef _SECURITY_PFSEL_AVC_H
#define _SECURITY_PFSEL_AVC_H

#include <linux/init.h>
#include <linux/types.h>

#include "cache_limits.h"

struct dentry;

/**
 * struct pfsel_avc_key - What a cached decision was made about
 *
 * All fields are set by the caller; @reserved must be zero.  The whole
 * structure is compared and hashed, so it has no padding.
 */
struct pfsel_avc_key {
	u32 generation;	/* of the policy the decision was made under */
	u32 app;	/* application class */
	u32 addr;	/* address class; the name class when @by_name */
	u32 port;	/* port class */
	u8 op;
	u8 proto;
	u8 by_name;	/* the decision of the rules for one host name class */
	u8 reserved;
};

/**
 * struct pfsel_avc_decision - A cached decision, opaque to the AVC
 *
 * @verdict: what the policy said.
 * @audit: whether and how to audit it.
 * @rule: the rule that decided, for audit records; PFSEL_NONE for the
 *	  default (and, by name, for no rule: the address's decision stands).
 * @names: by address, whether host names can change the decision (the
 *	   policy has host rules for this application, operation and
 *	   protocol).
 */
struct pfsel_avc_decision {
	u32 verdict;
	u32 audit;
	u32 rule;
	u32 names;
};

/**
 * struct pfsel_avc_stats - AVC counters, on one CPU or summed
 *
 * @lookups: calls of pfsel_avc_lookup().
 * @hits: lookups that found a decision.
 * @misses: lookups that found none.
 * @allocations: nodes allocated by pfsel_avc_insert().
 * @reclaims: nodes removed to keep the cache within its threshold.
 * @frees: nodes removed for any reason (replaced, reclaimed, flushed) and
 *	handed to RCU to be freed.
 */
struct pfsel_avc_stats {
	u64 lookups;
	u64 hits;
	u64 misses;
	u64 allocations;
	u64 reclaims;
	u64 frees;
};

bool pfsel_avc_lookup(const struct pfsel_avc_key *key,
		      struct pfsel_avc_decision *out);
void pfsel_avc_insert(const struct pfsel_avc_key *key,
		      const struct pfsel_avc_decision *d);
void pfsel_avc_flush(void);
void __init pfsel_avc_init(void);
int __init pfsel_avc_securityfs_init(struct dentry *parent);

bool pfsel_avc_ready(void);
unsigned int pfsel_avc_nodes(void);
unsigned int pfsel_avc_threshold(void);
int pfsel_avc_set_threshold(unsigned int threshold);
void pfsel_avc_stats_sum(struct pfsel_avc_stats *sum);

#endif /* _SECURITY_PFSEL_AVC_H */
