/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Recent allows, per CPU
 *
 * The lookup is the whole of pfsel's work on a call it has allowed
 * recently, so it is inline here (with the table's layout), for the hooks
 * to compile into themselves; recent.c keeps the rest.
 */

#ifndef _SECURITY_PFSEL_RECENT_H
#define _SECURITY_PFSEL_RECENT_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "classify.h"
#include "classcache.h"
#include "cache_limits.h"

/**
 * struct pfsel_recent - A request that was allowed, as seven words
 *
 * @epoch: the epoch it was decided in; 0 for an empty entry.
 * @app: id of the application identity (0 for none).
 * @call: the subject's real uid (bits 0-31), the request's port (32-47),
 *        operation (48-55) and protocol (56-63).
 * @addr_high: the first eight bytes of its address, in memory order.
 * @addr_low: the last eight.
 * @net: the request's network namespace, whose host names the decision
 *	 may have looked for (decide.c keeps such an allow when the address
 *	 had none there).  A namespace that goes starts a new epoch
 *	 (netns.c), as every learning does (resolver.c), so that another
 *	 made at its address is never answered for by its allows.  Its two
 *	 lowest bits (PFSEL_RECENT_LEN_BITS), never set in a pointer to a
 *	 namespace, hold the length of the block of addresses the entry
 *	 stands for (enum pfsel_prefix_len).
 * @expires: jiffies when the first host name the decision looked at
 *	     expires, from when the entry no longer answers; 0 for none.
 *
 * The words are compared as such: building a key takes a few instructions
 * and stays in registers.
 *
 * An entry stands for one address (PFSEL_PREFIX_LEN_128), or for its
 * whole prefix (an IPv4 address's /24, an IPv6 address's /64:
 * pfsel_addr_prefix_len()), its address then the prefix's first and the
 * prefix's length in @net: an allow that depended on no host name, in
 * policies that each give the whole prefix the address's class
 * (decide.c).  Every address of the prefix has the same classes in them,
 * so the same decisions: the allow is the answer of each.
 *
 * Why a hit is exact: a lookup builds the key of the request's prefix
 * (pfsel_recent_prefix_allowed()) or of its address alone
 * (pfsel_recent_allowed()), and an entry answers only a key equal to its
 * own, word for word.  The same length is the same mask
 * (pfsel_prefix_len_mask()), so the same length and first address are
 * the same block of addresses: an entry answers only for exactly the
 * prefix or exactly the address it was made for, which holds the
 * request's address.  So an address's own entry, which may have looked at
 * its names, never answers for its prefix, though its address may be the
 * prefix's first; and the entry of an address that is a prefix of its own
 * (0.0.0.0) never answers for the /24 that starts there (0.0.0.1 to
 * 0.0.0.255), nor the other way round.  The length is not hashed: a set
 * is only where a key is kept, and equal keys choose the same set.
 */
struct pfsel_recent {
	u64 epoch;
	u64 app;
	u64 call;
	u64 addr_high;
	u64 addr_low;
	u64 net;
	u64 expires;
};

/*
 * The bits of struct pfsel_recent's @net that hold the length, clear in a
 * pointer to a namespace (recent.c checks its alignment).
 */
#define PFSEL_RECENT_LEN_BITS 2

/* PFSEL_RECENT_WAYS entries, the newest first. */
struct pfsel_recent_set {
	struct pfsel_recent ways[PFSEL_RECENT_WAYS];
};

/* A CPU's entries, per context. */
struct pfsel_recent_tables {
	struct pfsel_recent_set task[1 << PFSEL_RECENT_TASK_SET_BITS];
	struct pfsel_recent_set softirq[1 << PFSEL_RECENT_SOFTIRQ_SET_BITS];
};

DECLARE_PER_CPU(struct pfsel_recent_tables, pfsel_recent_tables);
extern atomic64_t pfsel_recent_epochs;

void pfsel_recent_invalidate(void);
void pfsel_recent_remember(u64 app, kuid_t uid,
			   const struct pfsel_request *request, u64 epoch,
			   unsigned long expires, bool whole_prefix);

/**
 * pfsel_recent_epoch - The current epoch
 *
 * Read it before looking at the policies.
 *
 * Return: the epoch.
 */
static inline u64 pfsel_recent_epoch(void)
{
	return atomic64_read_acquire(&pfsel_recent_epochs);
}

/**
 * pfsel_recent_key - The entry a request would have
 *
 * @app: id of the subject's application identity, or 0.
 * @uid: the subject's real uid.
 * @request: the request.
 * @epoch: the epoch.
 *
 * Return: the entry.
 */
static __always_inline struct pfsel_recent
pfsel_recent_key(const u64 app, const kuid_t uid,
		 const struct pfsel_request *const request, const u64 epoch)
{
	struct pfsel_recent key = {
		.epoch = epoch,
		.app = app,
		.call = (u64)__kuid_val(uid) | (u64)request->port << 32 |
			(u64)request->op << 48 | (u64)request->proto << 56,
		.net = (u64)(unsigned long)request->net | PFSEL_PREFIX_LEN_128,
	};

	memcpy(&key.addr_high, request->addr, sizeof(key.addr_high));
	memcpy(&key.addr_low, request->addr + 8, sizeof(key.addr_low));
	return key;
}

/**
 * pfsel_recent_prefix_key - The entry a request's whole prefix would have
 *
 * @key: the request's own entry (pfsel_recent_key()): its length,
 *	 PFSEL_PREFIX_LEN_128, is 0, so @net's low bits are clear.
 *
 * Return: @key with the prefix's first address and length; @key itself
 * when the address is a prefix of its own.
 */
static __always_inline struct pfsel_recent
pfsel_recent_prefix_key(const struct pfsel_recent *const key)
{
	/* The words are in memory order, the mask a big-endian number's. */
	const u64 high = be64_to_cpu((__force __be64)key->addr_high);
	const u64 low = be64_to_cpu((__force __be64)key->addr_low);
	const enum pfsel_prefix_len len = pfsel_addr_prefix_len(high, low);
	struct pfsel_recent prefix = *key;

	prefix.addr_low &= (__force u64)cpu_to_be64(pfsel_prefix_len_mask(len));
	BUILD_BUG_ON(PFSEL_PREFIX_LEN_128 != 0);
	prefix.net |= len;
	return prefix;
}

/**
 * pfsel_recent_set - The set of a key in a CPU's tables
 *
 * @tables: the CPU's tables.
 * @key: the key.
 *
 * Return: the set, in the table of the current context.
 */
static __always_inline struct pfsel_recent_set *
pfsel_recent_set(struct pfsel_recent_tables *const tables,
		 const struct pfsel_recent *const key)
{
	/*
	 * Every word but the epoch, the same for every entry of an epoch.
	 * The rotation puts the port, operation and protocol over the
	 * IPv4-mapped prefix's constant half of the low address word, and
	 * the uid over its varying half; hash_64()'s multiplication then
	 * mixes every bit into the top bits, which choose the set.
	 */
	const u64 folded = key->app ^ rol64(key->call, 32) ^ key->addr_high ^
			   key->addr_low;

	if (in_serving_softirq())
		return &tables->softirq[hash_64(folded,
						PFSEL_RECENT_SOFTIRQ_SET_BITS)];
	return &tables->task[hash_64(folded, PFSEL_RECENT_TASK_SET_BITS)];
}

/**
 * pfsel_recent_same - Tell whether two entries are of the same request
 *
 * @entry: an entry of a table.
 * @key: a key.
 *
 * Return: true if they are.
 */
static __always_inline bool
pfsel_recent_same(const struct pfsel_recent *const entry,
		  const struct pfsel_recent *const key)
{
	/* The low address word first: it differs most often. */
	return entry->addr_low == key->addr_low &&
	       entry->addr_high == key->addr_high && entry->call == key->call &&
	       entry->app == key->app && entry->net == key->net &&
	       entry->epoch == key->epoch;
}

/**
 * pfsel_recent_answers - Tell whether an entry of the request still answers
 *
 * @entry: an entry of a table.
 * @key: the request's key.
 *
 * Return: true if @entry is of the request, and no host name its
 * decision looked at has expired.
 */
static __always_inline bool
pfsel_recent_answers(const struct pfsel_recent *const entry,
		     const struct pfsel_recent *const key)
{
	return pfsel_recent_same(entry, key) &&
	       (!entry->expires ||
		time_before(jiffies, (unsigned long)entry->expires));
}

/**
 * pfsel_recent_held - Tell whether a CPU's tables answer a key
 *
 * @tables: the CPU's tables.
 * @key: the key.
 *
 * Return: true if the set of @key holds an entry that answers it.
 */
static __always_inline bool
pfsel_recent_held(struct pfsel_recent_tables *const tables,
		  const struct pfsel_recent *const key)
{
	const struct pfsel_recent *const ways =
		pfsel_recent_set(tables, key)->ways;

	BUILD_BUG_ON(PFSEL_RECENT_WAYS != 4);
	return pfsel_recent_answers(&ways[0], key) ||
	       pfsel_recent_answers(&ways[1], key) ||
	       pfsel_recent_answers(&ways[2], key) ||
	       pfsel_recent_answers(&ways[3], key);
}

/**
 * pfsel_recent_prefix_allowed - Tell whether a request's prefix was just
 *				 allowed
 *
 * @app: id of the subject's application identity, or 0.
 * @uid: the subject's real uid.
 * @request: the request.
 * @epoch: pfsel_recent_epoch(), read before anything else.
 *
 * The entry of the request's prefix: where a policy draws no line inside a
 * network and no host rule applies, the only kind its allows have.  Inline
 * in every hook; the address's own entry is pfsel_recent_allowed()'s, out
 * of line, so that the hooks keep no second key in their registers.
 *
 * Return: true if this CPU allowed a request of the same prefix, for the
 * whole prefix, in this epoch.
 */
static __always_inline bool
pfsel_recent_prefix_allowed(const u64 app, const kuid_t uid,
			    const struct pfsel_request *const request,
			    const u64 epoch)
{
	const struct pfsel_recent key =
		pfsel_recent_key(app, uid, request, epoch);
	const struct pfsel_recent prefix = pfsel_recent_prefix_key(&key);
	const bool hit =
		pfsel_recent_held(get_cpu_ptr(&pfsel_recent_tables), &prefix);

	put_cpu_ptr(&pfsel_recent_tables);
	return hit;
}

bool pfsel_recent_allowed(u64 app, kuid_t uid,
			  const struct pfsel_request *request, u64 epoch);

#endif /* _SECURITY_PFSEL_RECENT_H */
