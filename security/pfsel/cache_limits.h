/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Limits: the sizes of the kernel's own caches and tables
 *
 * One header, as Landlock's limits.h; not named limits.h, which the
 * user-space builds of policydb.c (-I security/pfsel) would take for the C
 * library's <limits.h>.  Bounds that user space sees
 * too (the ask timeout, the questions and answers a uid may have, the AVC's
 * threshold, the longest policy string) are in uapi/pfsel_names.h, which
 * this header includes.
 */

#ifndef _SECURITY_PFSEL_CACHE_LIMITS_H
#define _SECURITY_PFSEL_CACHE_LIMITS_H

#include <linux/bits.h>

#include "uapi/pfsel_names.h"

/* Access vector cache (avc.c): 512 buckets, each with its own lock. */
#define PFSEL_AVC_SLOT_BITS 9
#define PFSEL_AVC_SLOTS BIT(PFSEL_AVC_SLOT_BITS)
/*
 * How many nodes one over-threshold insert reclaims at most: the cache may
 * exceed its threshold by about this much while inserts race each other.
 */
#define PFSEL_AVC_RECLAIM_BATCH 16

/*
 * Recent allows (recent.h), per CPU: sets of PFSEL_RECENT_WAYS entries,
 * 256 sets for process context and 64 for softirq (inbound connections).
 */
#define PFSEL_RECENT_WAYS 4
#define PFSEL_RECENT_TASK_SET_BITS 8
#define PFSEL_RECENT_SOFTIRQ_SET_BITS 6

/*
 * Address, port and name classes (classcache.c), per CPU and per context
 * (process, softirq).  Addresses (or their prefixes, a /24 or a /64): 256
 * sets of two ways for process context, 64 for softirq (20 KiB); ports:
 * 128 direct-mapped entries each (3 KiB); learned names: 256 each (8 KiB).
 */
#define PFSEL_CLASSCACHE_ADDR_WAYS 2
#define PFSEL_CLASSCACHE_ADDR_TASK_BITS 8
#define PFSEL_CLASSCACHE_ADDR_SOFTIRQ_BITS 6
#define PFSEL_CLASSCACHE_PORT_BITS 7
#define PFSEL_CLASSCACHE_NAME_BITS 8

/*
 * Application classes (classcache.c), per CPU, process context only: 32
 * direct-mapped entries of 128 bytes (4 KiB), each holding the paths of
 * an identity whose executable's and script's paths, each with its NUL,
 * fit in PFSEL_CLASSCACHE_APP_PATH_BYTES together; a longer identity is
 * classified at each first decision of its process.
 */
#define PFSEL_CLASSCACHE_APP_BITS 5
#define PFSEL_CLASSCACHE_APP_PATH_BYTES 112

/* Buckets of the user policies' hash table (policy.c), by uid: 64. */
#define PFSEL_USER_HASH_BITS 6

/*
 * Buckets of the kept answers' hash table (ask.c): 64.  How many answers
 * and questions a uid may have is PFSEL_ASK_MAX_ANSWERS_PER_UID and
 * PFSEL_ASK_MAX_PENDING.
 */
#define PFSEL_ANSWER_BITS 6

/*
 * Host names learned from DNS answers (hostmap.c), per network namespace:
 * each pair (address, name) is charged to a uid (the program's that a
 * resolver's answer was sent to, or the resolver's own for what it
 * received), which keeps at most PFSEL_HOSTMAP_UID_ENTRIES pairs and
 * PFSEL_HOSTS_PER_ADDR (uapi) names per address, its own least recently
 * learned going first.  The namespace keeps at most
 * PFSEL_HOSTMAP_MAX_ENTRIES pairs: when full, the uid holding the most
 * gives one up.  A hash of 512 buckets by address; the uids that hold
 * pairs, in 16 buckets by uid.  A pair lives as long as its answer's TTL
 * says, but no less than PFSEL_HOSTMAP_TTL_MIN seconds (a program connects
 * a moment after its answer, even one with TTL 0) and no more than
 * PFSEL_HOSTMAP_TTL_MAX (a day: an answer cannot name an address for
 * ever).
 */
#define PFSEL_HOSTMAP_MAX_ENTRIES 8192
#define PFSEL_HOSTMAP_UID_ENTRIES 2048
#define PFSEL_HOSTMAP_BUCKET_BITS 9
#define PFSEL_HOSTMAP_OWNER_BITS 4
#define PFSEL_HOSTMAP_TTL_MIN 30
#define PFSEL_HOSTMAP_TTL_MAX 86400

/*
 * DNS queries the resolvers sent (resolver.c), per network namespace: the
 * last 256, each awaited for 10 seconds; an answer is learned only if it
 * answers one of them.
 */
#define PFSEL_RESOLVER_QUERY_BITS 8
#define PFSEL_RESOLVER_QUERY_WAIT 10

/*
 * DNS answers over TCP (dnsstream.c): the first message of a trusted
 * resolver's stream is put together in a buffer of its length (at most
 * 65535 bytes), allocated in softirq.  The buffers that exist at once,
 * over every socket of every namespace, hold at most 1 MiB: 16 answers of
 * the largest length, hundreds of the few KiB a large answer set takes.
 * A buffer lives while its answer is incomplete, no longer than the query
 * is awaited (a timer gives it back then, if no segment ended it).
 */
#define PFSEL_DNS_STREAM_BYTES BIT(20)

/*
 * Init's mounts (mounts.c): a file that the table of init's mounts does
 * not name has the table made again, if it is at least a second old; a
 * user who runs such files in a loop costs one copy of init's tree a
 * second.
 */
#define PFSEL_MOUNTS_RETRY_SECONDS 1

#endif /* _SECURITY_PFSEL_CACHE_LIMITS_H */
