// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Host names the kernel learned for addresses
 *
 * One table per network namespace (netns.c: an address names a host only
 * in the namespace whose resolver was told so): pairs (address, name),
 * each with the time its answer's TTL runs out.  DNS answers are learned
 * in softirq (resolver.c), so writers take the table's lock with
 * spin_lock_bh(); decisions read the table in any context, under RCU, and
 * never wait.
 *
 * Each pair is charged to a uid: that of the program a trusted resolver
 * sent the answer to, or the resolver's own for the answers it received
 * (resolver.c).  A uid keeps at most PFSEL_HOSTS_PER_ADDR names per
 * address and PFSEL_HOSTMAP_UID_ENTRIES pairs, its own oldest going first,
 * so one uid's flood of answers displaces that uid's names and nobody
 * else's.  The same pair wanted by two uids is held (and charged) twice;
 * readers see it once.  The namespace keeps at most
 * PFSEL_HOSTMAP_MAX_ENTRIES pairs, several uids' budgets: when full, the
 * uid that holds the most gives up its least recently learned pair, so
 * another's learning takes a pair of a uid only when no uid holds more.
 * A pair whose time has run out is never reported; writers drop such pairs
 * where they meet them.
 *
 * Each pair also remembers who taught it: the trusted resolver (its
 * application and uid) that received or served the answer.  A pair is
 * learned only while its teacher is trusted, judged under the table's
 * lock, and a policy load that stops trusting a resolver drops what it
 * taught (pfsel_hostmap_forget(), for reset.c), so no name outlives the
 * trust it was learned under.
 */

#include <linux/gfp.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "app.h"
#include "hostmap.h"

/* The last pair's id (struct pfsel_host): every namespace's, one count. */
static atomic64_t pfsel_host_ids = ATOMIC64_INIT(0);

/**
 * struct pfsel_host - One name learned for one address, charged to one uid
 *
 * @node: in its address's bucket (RCU).
 * @lru: in the table's list, least recently learned first (under the lock).
 * @owned: in its owner's list, least recently learned first (likewise).
 * @rcu: frees it once no reader can see it.
 * @owner: the uid's account (under the lock; readers read @uid).
 * @expires: jiffies when the answer's TTL, clamped, runs out.
 * @stamp: the table's stamp when it was last learned: the newest name of
 *	   an address has the largest.
 * @id: the pair's identity, never another's, never reused (a 64-bit
 *	count from 1), for readers that keep what they worked out from
 *	@name (decide.c keeps its name class per CPU: classcache.c).
 * @teacher: the resolver that taught it (a reference to its application,
 *	     under the lock; readers never look at it).
 * @uid: whom it is charged to; readers put that uid's names first.
 * @addr: IPv6, IPv4 as IPv4-mapped, network order.
 * @len: length of @name.
 * @name: lower case, no final dot, as the DNS parser spelt it; NUL-terminated.
 *
 * @expires and @stamp change when the pair is learned again, and readers
 * read them without the lock: WRITE_ONCE()/READ_ONCE().
 */
struct pfsel_host {
	struct hlist_node node;
	struct list_head lru;
	struct list_head owned;
	struct rcu_head rcu;
	struct pfsel_host_owner *owner;
	unsigned long expires;
	unsigned long stamp;
	u64 id;
	struct pfsel_host_teacher teacher;
	kuid_t uid;
	u8 addr[16];
	u8 len;
	char name[];
};

static_assert(PFSEL_HOST_NAME_MAX <= U8_MAX);

/**
 * struct pfsel_host_owner - The pairs one uid holds in one table
 *
 * @node: in the table's owner_buckets (under the lock).
 * @pairs: its pairs (struct pfsel_host.owned), least recently learned first.
 * @count: how many, at most PFSEL_HOSTMAP_UID_ENTRIES.
 * @uid: the uid.
 *
 * Made with a uid's first pair, freed with its last.  Readers never see it.
 */
struct pfsel_host_owner {
	struct hlist_node node;
	struct list_head pairs;
	unsigned int count;
	kuid_t uid;
};

/* The table may need several uids' budgets to fill. */
static_assert(PFSEL_HOSTMAP_UID_ENTRIES >= PFSEL_HOSTS_PER_ADDR);
static_assert(PFSEL_HOSTMAP_MAX_ENTRIES >= 2 * PFSEL_HOSTMAP_UID_ENTRIES);

static const char *const counter_names[PFSEL_HOSTMAP_COUNTERS] = {
	[PFSEL_HOSTMAP_ANSWERS] = "answers",
	[PFSEL_HOSTMAP_MALFORMED] = "malformed",
	[PFSEL_HOSTMAP_LEARNED] = "learned",
	[PFSEL_HOSTMAP_REFRESHED] = "refreshed",
	[PFSEL_HOSTMAP_EVICTED] = "evicted",
	[PFSEL_HOSTMAP_REPLACED] = "replaced",
	[PFSEL_HOSTMAP_EXPIRED] = "expired",
	[PFSEL_HOSTMAP_NOMEM] = "nomem",
	[PFSEL_HOSTMAP_UNASKED] = "unasked",
	[PFSEL_HOSTMAP_SERVED] = "served",
	[PFSEL_HOSTMAP_UNTRUSTED] = "untrusted",
	[PFSEL_HOSTMAP_UNVOUCHED] = "unvouched",
	[PFSEL_HOSTMAP_TCP] = "tcp",
	[PFSEL_HOSTMAP_TCP_LOST] = "tcp_lost",
};

static void bump(struct pfsel_hostmap *const map,
		 const enum pfsel_hostmap_counter counter)
{
	atomic_long_inc(&map->counters[counter]);
}

/**
 * pfsel_hostmap_count - Count an event of a table's learning
 * @map: the table, or NULL (nothing is counted)
 * @counter: what happened
 */
void pfsel_hostmap_count(struct pfsel_hostmap *const map,
			 const enum pfsel_hostmap_counter counter)
{
	if (map)
		bump(map, counter);
}

static struct hlist_head *bucket_of(const struct pfsel_hostmap *const map,
				    const u8 addr[16])
{
	const u32 hash = jhash(addr, 16, map->seed);
	const u32 bucket = hash_32(hash, PFSEL_HOSTMAP_BUCKET_BITS);

	/* Readers get the bucket to walk it, writers to change it. */
	return (struct hlist_head *)&map->buckets[bucket];
}

static bool expired(const struct pfsel_host *const host,
		    const unsigned long now)
{
	return !time_before(now, READ_ONCE(host->expires));
}

/* Whether stamp @a was given after stamp @b (stamps may wrap). */
static bool newer(const unsigned long a, const unsigned long b)
{
	return (long)(a - b) > 0;
}

/**
 * pfsel_hostmap_init - Make a table empty, for its first use
 * @map: the table
 */
void pfsel_hostmap_init(struct pfsel_hostmap *const map)
{
	unsigned int i;

	spin_lock_init(&map->lock);
	map->seed = get_random_u32();
	map->count = 0;
	map->owners = 0;
	map->stamp = 0;
	INIT_LIST_HEAD(&map->lru);
	for (i = 0; i < PFSEL_HOSTMAP_COUNTERS; i++)
		atomic_long_set(&map->counters[i], 0);
	for (i = 0; i < PFSEL_HOSTMAP_BUCKETS; i++)
		INIT_HLIST_HEAD(&map->buckets[i]);
	for (i = 0; i < PFSEL_HOSTMAP_OWNER_BUCKETS; i++)
		INIT_HLIST_HEAD(&map->owner_buckets[i]);
}

static struct hlist_head *owner_bucket(struct pfsel_hostmap *const map,
				       const kuid_t uid)
{
	return &map->owner_buckets[hash_32(__kuid_val(uid),
					   PFSEL_HOSTMAP_OWNER_BITS)];
}

/* The account of @uid in @map, or NULL when it holds no pair. */
static struct pfsel_host_owner *find_owner(struct pfsel_hostmap *const map,
					   const kuid_t uid)
{
	struct pfsel_host_owner *owner;

	lockdep_assert_held(&map->lock);
	hlist_for_each_entry(owner, owner_bucket(map, uid), node) {
		if (uid_eq(owner->uid, uid))
			return owner;
	}
	return NULL;
}

/*
 * The account of @uid, made if it has none: a few dozen bytes, once per
 * uid, under the lock (so atomic).  NULL without memory.
 */
static struct pfsel_host_owner *get_owner(struct pfsel_hostmap *const map,
					  const kuid_t uid)
{
	struct pfsel_host_owner *owner = find_owner(map, uid);

	if (owner)
		return owner;
	owner = kmalloc(sizeof(*owner), GFP_ATOMIC | __GFP_NOWARN);
	if (!owner)
		return NULL;
	INIT_LIST_HEAD(&owner->pairs);
	owner->count = 0;
	owner->uid = uid;
	hlist_add_head(&owner->node, owner_bucket(map, uid));
	map->owners++;
	return owner;
}

/*
 * The uid holding the most pairs: a walk over the uids that hold any,
 * made only when the table is full.
 */
static struct pfsel_host_owner *greediest(struct pfsel_hostmap *const map)
{
	struct pfsel_host_owner *owner, *most = NULL;
	unsigned int i;

	lockdep_assert_held(&map->lock);
	for (i = 0; i < PFSEL_HOSTMAP_OWNER_BUCKETS; i++) {
		hlist_for_each_entry(owner, &map->owner_buckets[i], node) {
			if (!most || owner->count > most->count)
				most = owner;
		}
	}
	return most;
}

/* Takes @host out of the table; readers may still see it for a grace period. */
static void drop(struct pfsel_hostmap *const map, struct pfsel_host *const host,
		 const enum pfsel_hostmap_counter why)
{
	struct pfsel_host_owner *const owner = host->owner;

	lockdep_assert_held(&map->lock);
	hlist_del_rcu(&host->node);
	list_del(&host->lru);
	list_del(&host->owned);
	map->count--;
	pfsel_app_put(host->teacher.app);
	kfree_rcu(host, rcu);
	bump(map, why);
	if (!--owner->count) {
		hlist_del(&owner->node);
		map->owners--;
		kfree(owner);
	}
}

/* The least recently learned pair of @owner, which holds at least one. */
static struct pfsel_host *oldest_of(struct pfsel_host_owner *const owner)
{
	return list_first_entry(&owner->pairs, struct pfsel_host, owned);
}

/**
 * pfsel_hostmap_clear - Forget every pair of a table
 * @map: the table; it stays usable
 *
 * A namespace's table is cleared when the namespace goes.
 */
void pfsel_hostmap_clear(struct pfsel_hostmap *const map)
{
	struct pfsel_host_owner *owner;
	struct pfsel_host *host, *next;
	struct hlist_node *tmp;
	unsigned int i;

	spin_lock_bh(&map->lock);
	list_for_each_entry_safe(host, next, &map->lru, lru) {
		hlist_del_rcu(&host->node);
		list_del(&host->lru);
		pfsel_app_put(host->teacher.app);
		kfree_rcu(host, rcu);
	}
	for (i = 0; i < PFSEL_HOSTMAP_OWNER_BUCKETS; i++) {
		hlist_for_each_entry_safe(owner, tmp, &map->owner_buckets[i],
					  node) {
			hlist_del(&owner->node);
			kfree(owner);
		}
	}
	map->count = 0;
	map->owners = 0;
	spin_unlock_bh(&map->lock);
}

/*
 * Pairs that ran out are dropped where a writer meets them: in the bucket
 * it learns into, and here, at the old end of the list, a couple per
 * learning, so that a quiet address's names do not linger until the table
 * fills.
 */
#define PFSEL_HOSTMAP_REAP 2

static void reap_oldest(struct pfsel_hostmap *const map,
			const unsigned long now)
{
	struct pfsel_host *host;
	unsigned int i;

	for (i = 0; i < PFSEL_HOSTMAP_REAP; i++) {
		host = list_first_entry_or_null(&map->lru, struct pfsel_host,
						lru);
		if (!host || !expired(host, now))
			return;
		drop(map, host, PFSEL_HOSTMAP_EXPIRED);
	}
}

/*
 * Makes room for a new pair of @uid in @map: the uid's oldest name of the
 * address when it has PFSEL_HOSTS_PER_ADDR (@oldest, of @names), a couple
 * of expired pairs, the uid's least recently learned pair when it has its
 * budget, and when the table is full the least recently learned pair of
 * the uid holding the most.  Then the account to charge: NULL without
 * memory.
 */
static struct pfsel_host_owner *make_room(struct pfsel_hostmap *const map,
					  const kuid_t uid,
					  struct pfsel_host *const oldest,
					  const unsigned int names,
					  const unsigned long now)
{
	struct pfsel_host_owner *owner;

	if (names >= PFSEL_HOSTS_PER_ADDR)
		drop(map, oldest, PFSEL_HOSTMAP_REPLACED);
	reap_oldest(map, now);
	owner = find_owner(map, uid);
	if (owner && owner->count >= PFSEL_HOSTMAP_UID_ENTRIES)
		drop(map, oldest_of(owner), PFSEL_HOSTMAP_EVICTED);
	else if (map->count >= PFSEL_HOSTMAP_MAX_ENTRIES)
		drop(map, oldest_of(greediest(map)), PFSEL_HOSTMAP_EVICTED);
	/* The drops may have freed @uid's account: look again. */
	return get_owner(map, uid);
}

/* Sets who taught @host, with a reference to its application. */
static void set_teacher(struct pfsel_host *const host,
			const struct pfsel_host_teacher *const teacher)
{
	struct pfsel_app *const old = host->teacher.app;

	host->teacher.app = pfsel_app_get(teacher->app);
	host->teacher.uid = teacher->uid;
	pfsel_app_put(old);
}

/**
 * pfsel_hostmap_learn - Learn that an address has a name, for a uid
 * @map: the table, or NULL (nothing is learned)
 * @addr: IPv6, IPv4 as IPv4-mapped, network order
 * @name: lower case, no final dot, NUL-terminated (as the DNS parser
 *	  reports it); one of more than PFSEL_HOST_NAME_MAX characters, or
 *	  none, is ignored
 * @ttl: the answer's TTL in seconds; clamped to [PFSEL_HOSTMAP_TTL_MIN,
 *	 PFSEL_HOSTMAP_TTL_MAX]
 * @uid: whom the pair is charged to: the program the answer was for
 * @teacher: the resolver whose answer it is
 * @trusted: says whether @teacher is trusted now; asked under the
 *	     table's lock, so that a load that stops trusting it either comes
 *	     first and the pair is not learned, or its pfsel_hostmap_forget()
 *	     finds the pair
 * @gfp: how to allocate: GFP_KERNEL_ACCOUNT where the caller may sleep
 *	 (the pair is then allocated before the lock is taken, and charged
 *	 to the caller's memory cgroup), GFP_ATOMIC in softirq
 *
 * A pair @uid already holds gets the new expiry and teacher, and becomes
 * the newest.  A new pair may push out @uid's oldest name of the address
 * (at most PFSEL_HOSTS_PER_ADDR per uid and address), then @uid's least
 * recently learned pair (at most PFSEL_HOSTMAP_UID_ENTRIES per uid), or
 * when the table is full (PFSEL_HOSTMAP_MAX_ENTRIES) that of the uid
 * holding the most.  Without memory the pair is not learned.
 *
 * Context: any; may sleep only if @gfp allows it.
 *
 * Return: true when the table changed what a request may see: a pair
 * added, a pair learned again (its expiry moved, perhaps sooner, and it
 * is the newest of its address now, which moves which of the address's
 * names a request sees), or pairs pushed out to make room, even when the
 * new one then fails.  False when nothing a request sees changed (an
 * untrusted teacher; only expired pairs dropped, which no request sees).
 */
bool pfsel_hostmap_learn(struct pfsel_hostmap *const map, const u8 addr[16],
			 const char *const name, const u32 ttl,
			 const kuid_t uid,
			 const struct pfsel_host_teacher *const teacher,
			 const pfsel_hostmap_trust_fn trusted, const gfp_t gfp)
{
	const size_t len = strnlen(name, PFSEL_HOST_NAME_MAX + 1);
	const u32 life =
		clamp_t(u32, ttl, PFSEL_HOSTMAP_TTL_MIN, PFSEL_HOSTMAP_TTL_MAX);
	struct pfsel_host *host, *oldest = NULL, *fresh = NULL;
	struct pfsel_host_owner *owner;
	struct hlist_head *bucket;
	struct hlist_node *next;
	unsigned long now, expires;
	unsigned int names = 0;
	bool changed = false;
	size_t size;

	if (!map || !len || len > PFSEL_HOST_NAME_MAX)
		return false;
	bucket = bucket_of(map, addr);
	size = struct_size(host, name, len + 1);
	if (gfpflags_allow_blocking(gfp))
		fresh = kmalloc(size, gfp | __GFP_NOWARN);

	spin_lock_bh(&map->lock);
	if (!trusted(teacher)) {
		bump(map, PFSEL_HOSTMAP_UNTRUSTED);
		goto out;
	}
	now = jiffies;
	expires = now + life * HZ;
	hlist_for_each_entry_safe(host, next, bucket, node) {
		if (expired(host, now)) {
			drop(map, host, PFSEL_HOSTMAP_EXPIRED);
			continue;
		}
		if (memcmp(host->addr, addr, 16) || !uid_eq(host->uid, uid))
			continue;
		if (host->len == len && !memcmp(host->name, name, len)) {
			WRITE_ONCE(host->expires, expires);
			WRITE_ONCE(host->stamp, ++map->stamp);
			set_teacher(host, teacher);
			list_move_tail(&host->lru, &map->lru);
			list_move_tail(&host->owned, &host->owner->pairs);
			bump(map, PFSEL_HOSTMAP_REFRESHED);
			changed = true;
			goto out;
		}
		names++;
		if (!oldest || newer(oldest->stamp, host->stamp))
			oldest = host;
	}

	if (!fresh && !gfpflags_allow_blocking(gfp))
		fresh = kmalloc(size, gfp | __GFP_NOWARN);
	if (fresh) {
		/* Making room may push pairs out, whatever follows. */
		changed = true;
		owner = make_room(map, uid, oldest, names, now);
	} else {
		owner = NULL;
	}
	if (!owner) {
		bump(map, PFSEL_HOSTMAP_NOMEM);
		goto out;
	}
	host = fresh;
	fresh = NULL;
	host->owner = owner;
	host->uid = uid;
	host->teacher.app = NULL;
	set_teacher(host, teacher);
	host->expires = expires;
	host->stamp = ++map->stamp;
	host->id = atomic64_inc_return(&pfsel_host_ids);
	memcpy(host->addr, addr, 16);
	host->len = len;
	memcpy(host->name, name, len);
	host->name[len] = '\0';
	list_add_tail(&host->lru, &map->lru);
	list_add_tail(&host->owned, &owner->pairs);
	owner->count++;
	hlist_add_head_rcu(&host->node, bucket);
	map->count++;
	bump(map, PFSEL_HOSTMAP_LEARNED);
out:
	spin_unlock_bh(&map->lock);
	kfree(fresh);
	return changed;
}

/**
 * pfsel_hostmap_forget - Drop what resolvers no longer trusted taught
 * @map: the table
 * @uid: the uid of the teachers to judge again (a user whose policy
 *	 changed), or INVALID_UID for every teacher (the system policy
 *	 changed)
 * @trusted: says whether a teacher is still trusted, under the lock
 *
 * Context: any; does not sleep (nor may @trusted).
 *
 * Return: how many pairs were dropped.
 */
unsigned int pfsel_hostmap_forget(struct pfsel_hostmap *const map,
				  const kuid_t uid,
				  const pfsel_hostmap_trust_fn trusted)
{
	struct pfsel_host *host, *next;
	unsigned int dropped = 0;

	spin_lock_bh(&map->lock);
	list_for_each_entry_safe(host, next, &map->lru, lru) {
		if (uid_valid(uid) && !uid_eq(host->teacher.uid, uid))
			continue;
		if (trusted(&host->teacher))
			continue;
		drop(map, host, PFSEL_HOSTMAP_UNTRUSTED);
		dropped++;
	}
	spin_unlock_bh(&map->lock);
	return dropped;
}

/**
 * pfsel_hostmap_held - How many pairs a uid holds in a table
 * @map: the table
 * @uid: the uid
 *
 * Return: at most PFSEL_HOSTMAP_UID_ENTRIES, expired pairs included.
 */
unsigned int pfsel_hostmap_held(struct pfsel_hostmap *const map,
				const kuid_t uid)
{
	const struct pfsel_host_owner *owner;
	unsigned int held;

	spin_lock_bh(&map->lock);
	owner = find_owner(map, uid);
	held = owner ? owner->count : 0;
	spin_unlock_bh(&map->lock);
	return held;
}

/* Whether @a should be reported before @b to a reader of @uid. */
static bool reported_before(const struct pfsel_host *const a,
			    const struct pfsel_host *const b, const kuid_t uid)
{
	const bool a_own = uid_eq(a->uid, uid), b_own = uid_eq(b->uid, uid);

	if (a_own != b_own)
		return a_own;
	return newer(READ_ONCE(a->stamp), READ_ONCE(b->stamp));
}

static bool same_name(const struct pfsel_host *const a,
		      const struct pfsel_host *const b)
{
	return a->len == b->len && !memcmp(a->name, b->name, a->len);
}

/*
 * The live names of one address, each once, for a reader of @uid: that
 * uid's own first, then the others', newest first within each; at most
 * PFSEL_HOSTS_PER_ADDR.  Under rcu_read_lock().
 */
static unsigned int collect(const struct pfsel_hostmap *const map,
			    const u8 addr[16], const kuid_t uid,
			    const struct pfsel_host **const found)
{
	const unsigned long now = jiffies;
	const struct pfsel_host *host;
	unsigned int n = 0, i;

	hlist_for_each_entry_rcu(host, bucket_of(map, addr), node) {
		if (memcmp(host->addr, addr, 16) || expired(host, now))
			continue;
		/* Another uid's copy of a name: the better placed stays. */
		for (i = 0; i < n && !same_name(found[i], host); i++)
			;
		if (i < n) {
			if (!reported_before(host, found[i], uid))
				continue;
			memmove(&found[i], &found[i + 1],
				(n - i - 1) * sizeof(*found));
			n--;
		}
		/* Insertion into the sorted few. */
		for (i = n; i > 0 && reported_before(host, found[i - 1], uid);
		     i--) {
			if (i < PFSEL_HOSTS_PER_ADDR)
				found[i] = found[i - 1];
		}
		if (i < PFSEL_HOSTS_PER_ADDR)
			found[i] = host;
		if (n < PFSEL_HOSTS_PER_ADDR)
			n++;
	}
	return n;
}

/**
 * pfsel_hostmap_names - Report the names known for an address
 * @map: the table, or NULL (no names)
 * @addr: IPv6, IPv4 as IPv4-mapped, network order
 * @uid: whose request it is: that uid's names come first, so that no
 *	 other uid's names of the address can crowd them out
 * @fn: called for each name whose TTL has not run out, once, @uid's
 *	first, newest first, under rcu_read_lock(); returns false to stop
 * @arg: passed to @fn
 *
 * Context: any; does not sleep (nor may @fn).
 *
 * Return: how many names were reported (the one @fn stopped at included).
 */
int pfsel_hostmap_names(const struct pfsel_hostmap *const map,
			const u8 addr[16], const kuid_t uid,
			const pfsel_hostmap_fn fn, void *const arg)
{
	const struct pfsel_host *found[PFSEL_HOSTS_PER_ADDR];
	unsigned int n, i;

	if (!map)
		return 0;
	rcu_read_lock();
	n = collect(map, addr, uid, found);
	for (i = 0; i < n;) {
		const struct pfsel_host *const host = found[i++];
		const struct pfsel_hostmap_name name = {
			.name = host->name,
			.len = host->len,
			.id = host->id,
			.expires = READ_ONCE(host->expires),
		};

		if (!fn(&name, arg))
			break;
	}
	rcu_read_unlock();
	return i;
}

struct format_state {
	char *buf;
	size_t size;
	size_t len;
};

/* Appends one name, after a ',', if it fits whole with the final NUL. */
static bool format_one(const struct pfsel_hostmap_name *const name,
		       void *const arg)
{
	struct format_state *const st = arg;
	const size_t sep = st->len ? 1 : 0;

	if (st->len + sep + name->len >= st->size)
		return false;
	if (sep)
		st->buf[st->len++] = ',';
	memcpy(st->buf + st->len, name->name, name->len);
	st->len += name->len;
	st->buf[st->len] = '\0';
	return true;
}

/**
 * pfsel_hostmap_format - The names known for an address, as text
 * @map: the table, or NULL (no names)
 * @addr: IPv6, IPv4 as IPv4-mapped, network order
 * @uid: whose request it is (pfsel_hostmap_names())
 * @buf: receives "a.example,b.example" (@uid's first, newest first),
 *	 NUL-terminated; names that do not fit whole are left out
 * @size: size of @buf; PFSEL_HOSTS_TEXT_MAX holds every name
 *
 * Return: the length of the text, 0 (and "") when no name is known.
 */
size_t pfsel_hostmap_format(const struct pfsel_hostmap *const map,
			    const u8 addr[16], const kuid_t uid, char *const buf,
			    const size_t size)
{
	struct format_state st = { .buf = buf, .size = size };

	if (!size)
		return 0;
	buf[0] = '\0';
	pfsel_hostmap_names(map, addr, uid, format_one, &st);
	return st.len;
}

static bool stop_at_first(const struct pfsel_hostmap_name *const name,
			  void *const arg)
{
	return false;
}

/**
 * pfsel_hostmap_known - Tell whether any name is known for an address
 * @map: the table, or NULL (no names)
 * @addr: IPv6, IPv4 as IPv4-mapped, network order
 *
 * For those that would allocate to format the names: most addresses have
 * none.
 *
 * Return: true if at least one name is known.
 */
bool pfsel_hostmap_known(const struct pfsel_hostmap *const map,
			 const u8 addr[16])
{
	return pfsel_hostmap_names(map, addr, INVALID_UID, stop_at_first,
				   NULL) > 0;
}

/**
 * pfsel_hostmap_holds - Tell whether a name of an address is known
 * @map: the table, or NULL (nothing is)
 * @addr: IPv6, IPv4 as IPv4-mapped, network order
 * @name: the name, lower case, as learned
 * @len: its length
 *
 * Whatever uid holds the pair: for resolver.c, which learns an answer a
 * resolver serves only when it repeats a pair the table holds.
 *
 * Context: any; does not sleep.
 *
 * Return: true if some uid's pair of @addr and @name has time left.
 */
bool pfsel_hostmap_holds(const struct pfsel_hostmap *const map,
			 const u8 addr[16], const char *const name,
			 const size_t len)
{
	const unsigned long now = jiffies;
	const struct pfsel_host *host;
	bool held = false;

	if (!map)
		return false;
	rcu_read_lock();
	hlist_for_each_entry_rcu(host, bucket_of(map, addr), node) {
		if (!memcmp(host->addr, addr, 16) && !expired(host, now) &&
		    host->len == len && !memcmp(host->name, name, len)) {
			held = true;
			break;
		}
	}
	rcu_read_unlock();
	return held;
}

static bool is_v4_mapped(const u8 addr[16])
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(addr, prefix, sizeof(prefix));
}

/**
 * pfsel_hostmap_show_bucket - List the live pairs of one bucket
 * @map: the table
 * @bucket: below PFSEL_HOSTMAP_BUCKETS
 * @m: receives one line per pair, "ADDRESS NAME SECONDS-LEFT UID" (the
 *     uid it is charged to, in the initial user namespace)
 *
 * Context: under rcu_read_lock().
 */
void pfsel_hostmap_show_bucket(const struct pfsel_hostmap *const map,
			       const unsigned int bucket,
			       struct seq_file *const m)
{
	const unsigned long now = jiffies;
	const struct pfsel_host *host;

	hlist_for_each_entry_rcu(host, &map->buckets[bucket], node) {
		const unsigned long expires = READ_ONCE(host->expires);

		if (!time_before(now, expires))
			continue;
		if (is_v4_mapped(host->addr))
			seq_printf(m, "%pI4", host->addr + 12);
		else
			seq_printf(m, "%pI6c", host->addr);
		seq_printf(m, " %s %lu %u\n", host->name,
			   DIV_ROUND_UP(expires - now, HZ),
			   from_kuid_munged(&init_user_ns, host->uid));
	}
}

/**
 * pfsel_hostmap_show_stats - The counters of a table
 * @map: the table
 * @m: receives a line of names and a line of numbers: the pairs in the
 *     table, its bound, the uids holding pairs, the bound of each, and
 *     each enum pfsel_hostmap_counter
 */
void pfsel_hostmap_show_stats(const struct pfsel_hostmap *const map,
			      struct seq_file *const m)
{
	unsigned int i;

	seq_puts(m, "entries max_entries uids max_uid_entries");
	for (i = 0; i < PFSEL_HOSTMAP_COUNTERS; i++)
		seq_printf(m, " %s", counter_names[i]);
	seq_printf(m, "\n%u %u %u %u", READ_ONCE(map->count),
		   PFSEL_HOSTMAP_MAX_ENTRIES, READ_ONCE(map->owners),
		   PFSEL_HOSTMAP_UID_ENTRIES);
	for (i = 0; i < PFSEL_HOSTMAP_COUNTERS; i++)
		seq_printf(m, " %ld", atomic_long_read(&map->counters[i]));
	seq_putc(m, '\n');
}

#if IS_ENABLED(CONFIG_SECURITY_PFSEL_KUNIT_TEST)
/**
 * pfsel_hostmap_test_age - Make every pair of a table older (KUnit only)
 * @map: the table
 * @seconds: how much sooner each pair runs out
 */
void pfsel_hostmap_test_age(struct pfsel_hostmap *const map,
			    const unsigned int seconds)
{
	struct pfsel_host *host;

	spin_lock_bh(&map->lock);
	list_for_each_entry(host, &map->lru, lru)
		WRITE_ONCE(host->expires, host->expires - seconds * HZ);
	spin_unlock_bh(&map->lock);
}
#endif

