/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Host names the kernel learned for addresses
 *
 * For rules by host name, each network namespace keeps a table of the
 * (address, name) pairs that trusted resolvers' DNS answers taught
 * (resolver.c), each until its TTL runs out.  The decision (decide.c), the
 * questions to agents (ask.c) and the audit records (audit.c) read it.
 * docs/kernel-interface.md, "Host names", says what the limits are.
 */

#ifndef _SECURITY_PFSEL_HOSTMAP_H
#define _SECURITY_PFSEL_HOSTMAP_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/fs.h>
#include <linux/gfp_types.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "cache_limits.h"

struct net;

/**
 * enum pfsel_hostmap_counter - What a namespace's table counts
 *
 * @PFSEL_HOSTMAP_ANSWERS: DNS answers received by trusted resolvers and
 *			   read (whatever they held)
 * @PFSEL_HOSTMAP_MALFORMED: of those, answers the parser refused
 * @PFSEL_HOSTMAP_LEARNED: pairs added to the table
 * @PFSEL_HOSTMAP_REFRESHED: pairs learned again while in the table (a new
 *			     expiry, and the newest place)
 * @PFSEL_HOSTMAP_EVICTED: pairs dropped to keep their uid within
 *			   PFSEL_HOSTMAP_UID_ENTRIES, or the table within
 *			   PFSEL_HOSTMAP_MAX_ENTRIES
 * @PFSEL_HOSTMAP_REPLACED: pairs dropped to keep a uid's names of an
 *			    address within PFSEL_HOSTS_PER_ADDR
 * @PFSEL_HOSTMAP_EXPIRED: pairs dropped because their TTL ran out
 * @PFSEL_HOSTMAP_NOMEM: pairs not learned for want of memory
 * @PFSEL_HOSTMAP_UNASKED: answers ignored because they answered no query
 *			   the resolver sent (resolver.c)
 * @PFSEL_HOSTMAP_SERVED: answers trusted resolvers sent to a local
 *			  program, and read (resolver.c)
 * @PFSEL_HOSTMAP_COUNTERS: how many counters there are
 *
 * The order is that of the lines of the securityfs file hosts_stats.
 */
enum pfsel_hostmap_counter {
	PFSEL_HOSTMAP_ANSWERS,
	PFSEL_HOSTMAP_MALFORMED,
	PFSEL_HOSTMAP_LEARNED,
	PFSEL_HOSTMAP_REFRESHED,
	PFSEL_HOSTMAP_EVICTED,
	PFSEL_HOSTMAP_REPLACED,
	PFSEL_HOSTMAP_EXPIRED,
	PFSEL_HOSTMAP_NOMEM,
	PFSEL_HOSTMAP_UNASKED,
	PFSEL_HOSTMAP_SERVED,
	PFSEL_HOSTMAP_COUNTERS
};

#define PFSEL_HOSTMAP_BUCKETS BIT(PFSEL_HOSTMAP_BUCKET_BITS)
#define PFSEL_HOSTMAP_OWNER_BUCKETS BIT(PFSEL_HOSTMAP_OWNER_BITS)

/**
 * struct pfsel_hostmap - The host names of one network namespace
 *
 * @lock: serialises writers (learning runs in softirq: taken with
 *	  spin_lock_bh()); readers walk the buckets under RCU.
 * @seed: of the hash of addresses, so that no one can choose addresses
 *	  that share a bucket.
 * @count: pairs in the table, at most PFSEL_HOSTMAP_MAX_ENTRIES.
 * @owners: how many uids hold pairs.
 * @stamp: the last learning's sequence number: a pair's own tells which
 *	   of an address's names is the newest.
 * @lru: every pair, least recently learned first.
 * @counters: enum pfsel_hostmap_counter.
 * @buckets: pairs by address; all the names of one address are in one
 *	     bucket.
 * @owner_buckets: the uids that hold pairs (struct pfsel_host_owner), by
 *		   uid; writers only.
 *
 * Each namespace has one (net_generic()); the KUnit tests make their own.
 */
struct pfsel_hostmap {
	spinlock_t lock; /* writers, with bottom halves off */
	u32 seed;
	unsigned int count;
	unsigned int owners;
	unsigned long stamp;
	struct list_head lru;
	atomic_long_t counters[PFSEL_HOSTMAP_COUNTERS];
	struct hlist_head buckets[PFSEL_HOSTMAP_BUCKETS];
	struct hlist_head owner_buckets[PFSEL_HOSTMAP_OWNER_BUCKETS];
};

/*
 * Called with a name the kernel knows for an address: @name is @len
 * characters and NUL-terminated, valid only during the call.  Returns
 * false to stop the walk.
 */
typedef bool (*pfsel_hostmap_fn)(const char *name, size_t len, void *arg);

void pfsel_hostmap_learn(struct net *net, const u8 addr[16], const char *name,
			 u32 ttl, kuid_t uid, gfp_t gfp);
int pfsel_hostmap_names(const struct net *net, const u8 addr[16], kuid_t uid,
			pfsel_hostmap_fn fn, void *arg);
bool pfsel_hostmap_known(const struct net *net, const u8 addr[16]);
size_t pfsel_hostmap_format(const struct net *net, const u8 addr[16],
			    kuid_t uid, char *buf, size_t size);
void pfsel_hostmap_count(struct net *net, enum pfsel_hostmap_counter counter);
struct pfsel_hostmap *pfsel_hostmap_of(const struct net *net);

/* The same on a table itself: what the namespace functions do. */
void pfsel_hostmap_init(struct pfsel_hostmap *map);
void pfsel_hostmap_clear(struct pfsel_hostmap *map);
void pfsel_hostmap_table_learn(struct pfsel_hostmap *map, const u8 addr[16],
			       const char *name, u32 ttl, kuid_t uid,
			       gfp_t gfp);
int pfsel_hostmap_table_names(const struct pfsel_hostmap *map,
			      const u8 addr[16], kuid_t uid,
			      pfsel_hostmap_fn fn, void *arg);
size_t pfsel_hostmap_table_format(const struct pfsel_hostmap *map,
				  const u8 addr[16], kuid_t uid, char *buf,
				  size_t size);
unsigned int pfsel_hostmap_table_held(struct pfsel_hostmap *map, kuid_t uid);
void pfsel_hostmap_show_bucket(const struct pfsel_hostmap *map,
			       unsigned int bucket, struct seq_file *m);
void pfsel_hostmap_show_stats(const struct pfsel_hostmap *map,
			      struct seq_file *m);

#if IS_ENABLED(CONFIG_SECURITY_PFSEL_KUNIT_TEST)
void pfsel_hostmap_test_age(struct pfsel_hostmap *map, unsigned int seconds);
#endif

/* securityfs: hosts and hosts_stats, of the reader's namespace. */
extern const struct file_operations pfsel_hostmap_fops;
extern const struct file_operations pfsel_hostmap_stats_fops;

#endif /* _SECURITY_PFSEL_HOSTMAP_H */
