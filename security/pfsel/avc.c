// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Access vector cache
 *
 * Deciding a socket call means classifying its address and port and
 * walking the rules of two policies; the answer only changes when a policy
 * is loaded.  The AVC keeps answers in a hash table so that the next call
 * of the same kind costs one lookup.
 *
 * Lookups take no lock: they walk a bucket under RCU, so they may run in
 * any context, the inet_conn_request hook's softirq included.  Writers
 * (insert, reclaim, flush) serialize per bucket with a spinlock taken with
 * interrupts saved and disabled, so a softirq insert can never deadlock
 * against a process-context insert it interrupted on the same CPU.  A node
 * is never changed once published; it is replaced or removed, and freed
 * after a grace period.
 *
 * The cache is bounded: once it holds more nodes than its threshold, the
 * insert that went over removes a small batch, taken bucket by bucket from a
 * rotating start so that no bucket is always the victim.
 *
 * Stale decisions need no removal to be safe: every key carries the
 * generation of the policy it was decided under, and a new policy has a new
 * generation, so old nodes simply stop matching.  Flushing on each load is
 * only there to give their memory back.
 */

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/bits.h>
#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "avc.h"
#include "common.h"
#include "cache_limits.h"

/*
 * The key is hashed as 32-bit words and compared with memcmp(): both need
 * it to be a whole number of words with no padding.
 */
static_assert(sizeof(struct pfsel_avc_key) == 5 * sizeof(u32));

/**
 * struct pfsel_avc_node - One cached decision
 *
 * @list: the node's place in its bucket.
 * @rcu: to free the node once no lockless reader can still see it.
 * @key: what the decision is about.
 * @decision: the decision.
 *
 * @key and @decision never change once the node is published.
 */
struct pfsel_avc_node {
	struct hlist_node list;
	struct rcu_head rcu;
	struct pfsel_avc_key key;
	struct pfsel_avc_decision decision;
};

/* NULL until pfsel_avc_init(): then nothing is cached. */
static struct kmem_cache *pfsel_avc_node_cache __ro_after_init;

static struct hlist_head pfsel_avc_slots[PFSEL_AVC_SLOTS];
static spinlock_t pfsel_avc_locks[PFSEL_AVC_SLOTS];

/* Only changed under a bucket lock, read anywhere. */
static atomic_t pfsel_avc_active = ATOMIC_INIT(0);

/* Where the next reclaim starts looking. */
static atomic_t pfsel_avc_reclaim_hint = ATOMIC_INIT(0);

static unsigned int pfsel_avc_threshold_value = PFSEL_AVC_THRESHOLD_DEFAULT;

static DEFINE_PER_CPU(struct pfsel_avc_stats, pfsel_avc_stats);

/* Per-CPU increments are irq-safe: callable from any context. */
#define pfsel_avc_count(field) this_cpu_inc(pfsel_avc_stats.field)

/*
 * A lookup runs on every decided call the recent allows do not answer, so
 * the hash is a multiplication (hash_64()) of the key's fields folded into
 * one word, rotated apart so that small class numbers do not cancel.
 */
static u32 pfsel_avc_hash(const struct pfsel_avc_key *const key)
{
	const u64 folded =
		((u64)key->app << 32 | key->generation) ^
		rol64((u64)key->port << 32 | key->addr, 21) ^
		rol64((u64)key->by_name << 16 | (u64)key->proto << 8 | key->op,
		      42);

	return hash_64(folded, PFSEL_AVC_SLOT_BITS);
}

/*
 * Every field, @by_name too: a name class and an address class may have
 * the same number, and the decision of a name class's rules (often no
 * rule, verdict 0: allow) is not the address's decision.
 */
static bool pfsel_avc_key_equal(const struct pfsel_avc_key *const a,
				const struct pfsel_avc_key *const b)
{
	return a->addr == b->addr && a->port == b->port && a->app == b->app &&
	       a->generation == b->generation && a->op == b->op &&
	       a->proto == b->proto && a->by_name == b->by_name &&
	       a->reserved == b->reserved;
}

static void pfsel_avc_node_free_rcu(struct rcu_head *const head)
{
	kmem_cache_free(pfsel_avc_node_cache,
			container_of(head, struct pfsel_avc_node, rcu));
}

/*
 * Unlink @node from its bucket, whose lock the caller holds, and free it
 * after a grace period: lockless readers may be looking at it right now.
 */
static void pfsel_avc_node_remove(struct pfsel_avc_node *const node)
{
	hlist_del_rcu(&node->list);
	atomic_dec(&pfsel_avc_active);
	pfsel_avc_count(frees);
	call_rcu(&node->rcu, pfsel_avc_node_free_rcu);
}

/*
 * Remove up to @want nodes, visiting each bucket at most once.  A bucket
 * whose lock is busy is skipped rather than waited for: its writer is
 * probably inserting, and any other bucket will do as well.
 *
 * Return: the number of nodes removed.
 */
static unsigned int pfsel_avc_reclaim(const unsigned int want)
{
	struct pfsel_avc_node *node;
	struct hlist_node *next;
	unsigned int done = 0, tried;
	unsigned long flags;
	u32 slot;

	for (tried = 0; tried < PFSEL_AVC_SLOTS && done < want; tried++) {
		slot = (u32)atomic_inc_return(&pfsel_avc_reclaim_hint) &
		       (PFSEL_AVC_SLOTS - 1);
		/* A small cache is mostly empty buckets: skip them unlocked. */
		if (hlist_empty(&pfsel_avc_slots[slot]))
			continue;
		if (!spin_trylock_irqsave(&pfsel_avc_locks[slot], flags))
			continue;
		hlist_for_each_entry_safe(node, next, &pfsel_avc_slots[slot],
					  list) {
			pfsel_avc_node_remove(node);
			if (++done >= want)
				break;
		}
		spin_unlock_irqrestore(&pfsel_avc_locks[slot], flags);
	}
	this_cpu_add(pfsel_avc_stats.reclaims, done);
	return done;
}

/**
 * pfsel_avc_lookup - Find a cached decision
 *
 * @key: what to look for; @key->reserved must be zero.
 * @out: where to copy the decision when there is one.
 *
 * Lock-free: callable in any context, softirq included, inside or outside
 * rcu_read_lock().
 *
 * Return: true if a decision was found and copied to @out, false otherwise
 * (@out is then left untouched).
 */
bool pfsel_avc_lookup(const struct pfsel_avc_key *const key,
		      struct pfsel_avc_decision *const out)
{
	const struct pfsel_avc_node *node;
	bool found = false;

	pfsel_avc_count(lookups);
	if (WARN_ON_ONCE(key->reserved)) {
		pfsel_avc_count(misses);
		return false;
	}

	rcu_read_lock();
	hlist_for_each_entry_rcu(node, &pfsel_avc_slots[pfsel_avc_hash(key)],
				 list) {
		if (pfsel_avc_key_equal(&node->key, key)) {
			*out = node->decision;
			found = true;
			break;
		}
	}
	rcu_read_unlock();

	if (found)
		pfsel_avc_count(hits);
	else
		pfsel_avc_count(misses);
	return found;
}

/**
 * pfsel_avc_insert - Cache a decision
 *
 * @key: what the decision is about; @key->reserved must be zero.
 * @d: the decision.
 *
 * If @key is already cached, its decision is replaced by @d: the caller
 * has just asked the policy, so its answer is the newest.  A key is never
 * cached twice.
 *
 * Callable in any context, softirq included: it never sleeps.  If no
 * memory is at hand the decision is simply not cached, and the next call
 * of the same kind asks the policy again.
 */
void pfsel_avc_insert(const struct pfsel_avc_key *const key,
		      const struct pfsel_avc_decision *const d)
{
	struct pfsel_avc_node *node, *old;
	struct hlist_head *head;
	unsigned long flags;
	unsigned int active = 0;
	bool over = false;
	u32 slot;

	if (WARN_ON_ONCE(key->reserved) || !pfsel_avc_node_cache)
		return;

	node = kmem_cache_alloc(pfsel_avc_node_cache,
				GFP_NOWAIT | __GFP_NOWARN);
	if (!node)
		return;
	pfsel_avc_count(allocations);
	node->key = *key;
	node->decision = *d;

	slot = pfsel_avc_hash(key);
	head = &pfsel_avc_slots[slot];
	spin_lock_irqsave(&pfsel_avc_locks[slot], flags);
	hlist_for_each_entry(old, head, list) {
		if (pfsel_avc_key_equal(&old->key, key)) {
			/* Readers see either the old node or the new one. */
			hlist_replace_rcu(&old->list, &node->list);
			pfsel_avc_count(frees);
			call_rcu(&old->rcu, pfsel_avc_node_free_rcu);
			goto unlock;
		}
	}
	hlist_add_head_rcu(&node->list, head);
	active = atomic_inc_return(&pfsel_avc_active);
	over = active > READ_ONCE(pfsel_avc_threshold_value);
unlock:
	spin_unlock_irqrestore(&pfsel_avc_locks[slot], flags);

	/* Outside our bucket's lock: reclaim may pick that bucket too. */
	if (over)
		pfsel_avc_reclaim(min_t(unsigned int, active,
					PFSEL_AVC_RECLAIM_BATCH));
}

/**
 * pfsel_avc_flush - Remove every cached decision
 *
 * Called on every policy load and unload.  It never sleeps, so it may be
 * called under the caller's own locks.  An insert that races with the
 * flush may leave a decision of the old policy behind; that node cannot
 * match any lookup under the new generation and is reclaimed in time.
 */
void pfsel_avc_flush(void)
{
	struct pfsel_avc_node *node;
	struct hlist_node *next;
	unsigned long flags;
	u32 slot;

	if (!pfsel_avc_node_cache)
		return;

	for (slot = 0; slot < PFSEL_AVC_SLOTS; slot++) {
		spin_lock_irqsave(&pfsel_avc_locks[slot], flags);
		hlist_for_each_entry_safe(node, next, &pfsel_avc_slots[slot],
					  list)
			pfsel_avc_node_remove(node);
		spin_unlock_irqrestore(&pfsel_avc_locks[slot], flags);
	}
}

/**
 * pfsel_avc_ready - Whether the AVC caches anything
 *
 * The AVC only caches once pfsel_avc_init() ran, i.e. when pfsel was
 * enabled at boot.  Until then every lookup misses and inserts do nothing.
 *
 * Return: true once the AVC is initialized.
 */
bool pfsel_avc_ready(void)
{
	return pfsel_avc_node_cache;
}

/**
 * pfsel_avc_nodes - How many decisions are cached now
 *
 * Return: the number of nodes in the cache; it may change at once.
 */
unsigned int pfsel_avc_nodes(void)
{
	const int active = atomic_read(&pfsel_avc_active);

	return active > 0 ? active : 0;
}

/**
 * pfsel_avc_threshold - The number of nodes beyond which inserts reclaim
 *
 * Return: the threshold, from %PFSEL_AVC_THRESHOLD_MIN to
 * %PFSEL_AVC_THRESHOLD_MAX.
 */
unsigned int pfsel_avc_threshold(void)
{
	return READ_ONCE(pfsel_avc_threshold_value);
}

/**
 * pfsel_avc_set_threshold - Change the number of nodes the cache keeps
 *
 * @threshold: the new threshold.
 *
 * When the cache holds more than @threshold nodes, the excess is reclaimed
 * now rather than one batch per insert, so a lowered threshold holds at
 * once.  Never sleeps.
 *
 * Return: 0, or -EINVAL if @threshold is out of range; nothing changes then.
 */
int pfsel_avc_set_threshold(const unsigned int threshold)
{
	unsigned int active;

	if (threshold < PFSEL_AVC_THRESHOLD_MIN ||
	    threshold > PFSEL_AVC_THRESHOLD_MAX)
		return -EINVAL;
	WRITE_ONCE(pfsel_avc_threshold_value, threshold);
	active = pfsel_avc_nodes();
	if (active > threshold)
		pfsel_avc_reclaim(active - threshold);
	return 0;
}

/**
 * pfsel_avc_stats_sum - Sum the AVC counters over every possible CPU
 *
 * @sum: where to store the sums.
 *
 * The sum is not a snapshot: other CPUs may count meanwhile, so the
 * identity hits + misses == lookups only holds while nobody looks up.
 */
void pfsel_avc_stats_sum(struct pfsel_avc_stats *const sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct pfsel_avc_stats *const s =
			per_cpu_ptr(&pfsel_avc_stats, cpu);

		sum->lookups += READ_ONCE(s->lookups);
		sum->hits += READ_ONCE(s->hits);
		sum->misses += READ_ONCE(s->misses);
		sum->allocations += READ_ONCE(s->allocations);
		sum->reclaims += READ_ONCE(s->reclaims);
		sum->frees += READ_ONCE(s->frees);
	}
}

/**
 * pfsel_avc_init - Set up the AVC
 *
 * Called from pfsel's LSM init, before any hook can run.  The node cache is
 * created last: its presence is what tells everyone else the buckets are
 * ready.
 */
void __init pfsel_avc_init(void)
{
	u32 slot;

	for (slot = 0; slot < PFSEL_AVC_SLOTS; slot++) {
		INIT_HLIST_HEAD(&pfsel_avc_slots[slot]);
		spin_lock_init(&pfsel_avc_locks[slot]);
	}
	pfsel_avc_node_cache = KMEM_CACHE(pfsel_avc_node, SLAB_PANIC);
}
