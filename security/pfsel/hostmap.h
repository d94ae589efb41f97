/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Host names the kernel learned for addresses
 *
 * For rules by host name, each network namespace keeps a table (netns.c)
 * of the (address, name) pairs that trusted resolvers' DNS answers taught
 * (resolver.c), each until its TTL runs out or the resolver is no longer
 * trusted.  The decision (decide.c), the questions to agents (ask.c), the
 * audit records (audit.c) and the check file (check.c) read it.
 * docs/kernel-interface.md, "Host names", says what the limits are.
 */

#ifndef _SECURITY_PFSEL_HOSTMAP_H
#define _SECURITY_PFSEL_HOSTMAP_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/gfp_types.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "cache_limits.h"

struct pfsel_app;

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
 * @PFSEL_HOSTMAP_UNTRUSTED: pairs dropped, or not learned, because a
 *			     policy load stopped trusting the resolver that
 *			     taught them
 * @PFSEL_HOSTMAP_UNVOUCHED: pairs of served answers not learned because
 *			     the table held no such pair (resolver.c)
 * @PFSEL_HOSTMAP_TCP: of the answers, those read from a TCP stream: its
 *		       first message, put together from its segments
 *		       (resolver.c, dnsstream.c)
 * @PFSEL_HOSTMAP_TCP_LOST: TCP streams whose first message was given up:
 *			    a gap between segments, urgent data, a length
 *			    shorter than a DNS header, its time ran out, or
 *			    no memory within the bound
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
	PFSEL_HOSTMAP_UNTRUSTED,
	PFSEL_HOSTMAP_UNVOUCHED,
	PFSEL_HOSTMAP_TCP,
	PFSEL_HOSTMAP_TCP_LOST,
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
 * Each namespace has one (struct pfsel_net); the KUnit tests make their
 * own.
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

/**
 * struct pfsel_host_teacher - Who taught a pair
 * @app: the application of the trusted resolver's socket that received
 *	 or served the answer
 * @uid: the real uid of the process that made that socket
 *
 * Whether the resolver is trusted depends on both (resolver.c), and on
 * the policies in force.
 */
struct pfsel_host_teacher {
	struct pfsel_app *app;
	kuid_t uid;
};

/*
 * Says whether a teacher is trusted by the policies in force.  Called
 * under the table's lock, with bottom halves off: must not sleep.
 */
typedef bool (*pfsel_hostmap_trust_fn)(const struct pfsel_host_teacher *t);

/**
 * struct pfsel_hostmap_name - A name known for an address, as a walk gives it
 * @name: NUL-terminated, valid only during the call
 * @len: its length
 * @id: the pair's identity, which no other pair, in any namespace, ever
 *	has (a pair learned again keeps it, with its name): what a reader
 *	works out from @name alone it may keep under @id
 * @expires: jiffies when its TTL runs out, as the walk read it: from then
 *	     on no walk gives it (unless it is learned again first)
 */
struct pfsel_hostmap_name {
	const char *name;
	size_t len;
	u64 id;
	unsigned long expires;
};

/*
 * Called with each name the kernel knows for an address.  Returns false
 * to stop the walk.
 */
typedef bool (*pfsel_hostmap_fn)(const struct pfsel_hostmap_name *name,
				 void *arg);

void pfsel_hostmap_init(struct pfsel_hostmap *map);
void pfsel_hostmap_clear(struct pfsel_hostmap *map);
bool pfsel_hostmap_learn(struct pfsel_hostmap *map, const u8 addr[16],
			 const char *name, u32 ttl, kuid_t uid,
			 const struct pfsel_host_teacher *teacher,
			 pfsel_hostmap_trust_fn trusted, gfp_t gfp);
unsigned int pfsel_hostmap_forget(struct pfsel_hostmap *map, kuid_t uid,
				  pfsel_hostmap_trust_fn trusted);
void pfsel_hostmap_count(struct pfsel_hostmap *map,
			 enum pfsel_hostmap_counter counter);
int pfsel_hostmap_names(const struct pfsel_hostmap *map, const u8 addr[16],
			kuid_t uid, pfsel_hostmap_fn fn, void *arg);
bool pfsel_hostmap_known(const struct pfsel_hostmap *map, const u8 addr[16]);
bool pfsel_hostmap_holds(const struct pfsel_hostmap *map, const u8 addr[16],
			 const char *name, size_t len);
size_t pfsel_hostmap_format(const struct pfsel_hostmap *map,
			    const u8 addr[16], kuid_t uid, char *buf,
			    size_t size);
unsigned int pfsel_hostmap_held(struct pfsel_hostmap *map, kuid_t uid);
void pfsel_hostmap_show_bucket(const struct pfsel_hostmap *map,
			       unsigned int bucket, struct seq_file *m);
void pfsel_hostmap_show_stats(const struct pfsel_hostmap *map,
			      struct seq_file *m);

#if IS_ENABLED(CONFIG_SECURITY_PFSEL_KUNIT_TEST)
void pfsel_hostmap_test_age(struct pfsel_hostmap *map, unsigned int seconds);
#endif

#endif /* _SECURITY_PFSEL_HOSTMAP_H */
