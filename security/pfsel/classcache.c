// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Address, port, name and application classes, cached per CPU
 *
 * The access vector cache is keyed by classes, so even a request it
 * answers first has its address and port classified: a binary search
 * each, over thousands of classes in a large policy (some 300
 * instructions for an address among 17,572), and each host name the
 * kernel learned for the address matched against the policy's host
 * patterns (some 1,200 among 10,002).  As SELinux keeps the labels of
 * recently seen nodes and ports (netnode.c, netport.c), each CPU keeps
 * here the classes it worked out last.
 *
 * An entry is keyed by the generation of the policy it was classified in:
 * generations are never reused, so an entry of a policy that was replaced
 * can never match again, and nothing needs flushing.  A class never
 * changes within a generation, so a hit is exact.
 *
 * An address's entry covers its whole prefix (an IPv4 address's /24, an
 * IPv6 address's /64: pfsel_addr_prefix_len()) when one class covers that
 * prefix, as it does wherever a policy draws no line inside it: then the
 * peers of one network, however many, take one entry.  Otherwise it holds
 * the address alone.  Addresses are in sets of two ways, newest first.
 *
 * Why a hit is exact.  An entry is keyed by the policy's generation, the
 * address's first eight bytes, and the block of addresses it stands for:
 * the block's first address's last eight bytes and the block's length,
 * either the prefix's (made for an address of the prefix, when its class
 * covers the prefix) or 128 (made for the address alone).  A lookup of an
 * address accepts an entry only if that key is the key of the address's
 * own prefix or of the address alone: the same length, so the same mask
 * (pfsel_prefix_len_mask()), and the same first address; that is, an
 * entry made for exactly that prefix or exactly that address, which holds
 * the address.  An entry of a prefix was made only when its class covers
 * every address of the prefix (covers_prefix()), and classes never change
 * within a generation: the class is the address's.  What a lookup says of
 * the prefix (@whole_prefix) is whether the entry was made for it.  The
 * length is not hashed: the set is only where an entry is kept, and an
 * address's two keys choose the same set, its prefix's.
 *
 * A name's entry is keyed by the identity of the learned pair it came
 * with (hostmap.h), which names one name for ever; whether the name is
 * still known (its TTL) is the name walk's to say, at every call.
 *
 * An application's entry is keyed by the paths its class is a function
 * of, the executable's and the script's (or none), compared whole, byte
 * for byte: each execve() makes an identity of its own (exec.c), whose
 * class app.c keeps only for that process, and a program started again
 * and again (by a shell, a build, a service) would otherwise have its
 * paths searched among the policy's at every start, some 1,500
 * instructions (make bench, "protect", where execve() asks for the class).
 * Only process context uses these: the class of a listener's application
 * asked in softirq is computed there, as before.
 *
 * Ports and names are direct-mapped.  Softirq (inbound connections) and
 * process context have tables of their own, so that a softirq on top of a
 * hook never sees half an entry.
 */

#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/stringhash.h>

#include "classcache.h"
#include "cache_limits.h"
#include "policydb.h"

/**
 * struct pfsel_addr_class - An address, or its prefix, and its class
 *
 * @high: the first 8 bytes of the address, as a big-endian number.
 * @low: the last 8 bytes of the first address of the block @len says,
 *	 as a number too.
 * @generation: the policy's generation; 0 for an empty entry.
 * @class: the address class.
 * @len: the block the entry stands for (enum pfsel_prefix_len): the
 *	 address's prefix, whose every address the class covers, or
 *	 PFSEL_PREFIX_LEN_128, the address alone.
 */
struct pfsel_addr_class {
	u64 high;
	u64 low;
	u32 generation;
	u32 class;
	u32 len;
};

/* PFSEL_CLASSCACHE_ADDR_WAYS entries, the newest first. */
struct pfsel_addr_set {
	struct pfsel_addr_class ways[PFSEL_CLASSCACHE_ADDR_WAYS];
};

/**
 * struct pfsel_port_class - A port and its class in one policy
 *
 * @generation: the policy's generation; 0 for an empty entry.
 * @port: the port.
 * @class: the port class.
 */
struct pfsel_port_class {
	u32 generation;
	u32 port;
	u32 class;
};

/**
 * struct pfsel_name_class - A learned name's class in one policy
 *
 * @id: the identity of the pair the name came with; ids start at 1.
 * @generation: the policy's generation; 0 for an empty entry.
 * @class: the name class.
 */
struct pfsel_name_class {
	u64 id;
	u32 generation;
	u32 class;
};

/**
 * struct pfsel_app_class - An application's paths and their class in one
 *			    policy
 *
 * @generation: the policy's generation; 0 for an empty entry.
 * @class: the application class.
 * @exe_len: the length of the executable's path, the first of @paths.
 * @script_len: 0 for no script; else the length of the script's path, the
 *		second of @paths, plus one.
 * @paths: the executable's path and its NUL, then the script's and its
 *	   NUL when there is a script.
 */
struct pfsel_app_class {
	u32 generation;
	u32 class;
	u32 exe_len;
	u32 script_len;
	char paths[PFSEL_CLASSCACHE_APP_PATH_BYTES];
};

struct pfsel_classcache {
	struct pfsel_addr_set task_addrs[1 << PFSEL_CLASSCACHE_ADDR_TASK_BITS];
	struct pfsel_addr_set
		softirq_addrs[1 << PFSEL_CLASSCACHE_ADDR_SOFTIRQ_BITS];
	struct pfsel_port_class ports[2][1 << PFSEL_CLASSCACHE_PORT_BITS];
	struct pfsel_name_class names[2][1 << PFSEL_CLASSCACHE_NAME_BITS];
	struct pfsel_app_class apps[1 << PFSEL_CLASSCACHE_APP_BITS];
};

static DEFINE_PER_CPU(struct pfsel_classcache, pfsel_classcaches);

/* Whether @addr (two words) is below class @class's start in @db. */
static bool below_class(const struct pfsel_policydb *const db, const u32 class,
			const u64 high, const u64 low)
{
	const u8 *const start = db->addrs[class].start;
	const u64 start_high = pfsel_policydb_addr_word(start);

	return high < start_high || (high == start_high &&
				     low < pfsel_policydb_addr_word(start + 8));
}

/*
 * Whether @class, the class of an address of the prefix [high:lo,
 * high:hi], is the class of every address of it.  The class of an address
 * is the last class starting at or below it.  If @class starts at or below
 * lo and the next class (if any) starts above hi, then for every address x
 * of the prefix @class starts at or below lo <= x, and every later class
 * starts above hi >= x: the last class starting at or below x is @class.
 */
static bool covers_prefix(const struct pfsel_policydb *const db,
			  const u32 class, const u64 high, const u64 lo,
			  const u64 hi)
{
	if (below_class(db, class, high, lo))
		return false;
	return class + 1 >= db->n_addrs || below_class(db, class + 1, high, hi);
}

/*
 * Whether @e is an entry of the address @high:@low in @generation: one made
 * for exactly its prefix, of length @len and first address @first, or for
 * exactly the address alone.
 */
static bool addr_entry_holds(const struct pfsel_addr_class *const e,
			     const u32 generation, const u64 high,
			     const u64 low, const enum pfsel_prefix_len len,
			     const u64 first)
{
	if (e->generation != generation || e->high != high)
		return false;
	if (e->len == len)
		return e->low == first;
	return e->len == PFSEL_PREFIX_LEN_128 && e->low == low;
}

/**
 * pfsel_classcache_addr - The address class of an address in a policy
 *
 * @policy: the policy; the caller holds rcu_read_lock() or a reference.
 * @addr: 16 bytes, network order; IPv4 as ::ffff:a.b.c.d.
 * @whole_prefix: set to whether the class is the class of every address
 *		  of @addr's prefix (pfsel_addr_prefix_len()) in @policy.
 *
 * Return: what pfsel_policydb_classify_addr() returns for @policy's
 * database, from this CPU's cache when it holds it.
 */
u32 pfsel_classcache_addr(const struct pfsel_policy *const policy,
			  const u8 addr[16], bool *const whole_prefix)
{
	const u64 high = pfsel_policydb_addr_word(addr);
	const u64 low = pfsel_policydb_addr_word(addr + 8);
	const enum pfsel_prefix_len len = pfsel_addr_prefix_len(high, low);
	const u64 mask = pfsel_prefix_len_mask(len);
	const u64 first = low & mask;
	const struct pfsel_policydb *const db = policy->db;
	struct pfsel_classcache *const cache = get_cpu_ptr(&pfsel_classcaches);
	const u64 folded = high ^ rol64(first, 32) ^ policy->generation;
	struct pfsel_addr_class *ways, fresh;
	struct pfsel_addr_set *set;
	unsigned int way;

	if (in_serving_softirq())
		set = cache->softirq_addrs +
		      hash_64(folded, PFSEL_CLASSCACHE_ADDR_SOFTIRQ_BITS);
	else
		set = cache->task_addrs +
		      hash_64(folded, PFSEL_CLASSCACHE_ADDR_TASK_BITS);
	ways = set->ways;
	for (way = 0; way < PFSEL_CLASSCACHE_ADDR_WAYS; way++) {
		if (addr_entry_holds(&ways[way], policy->generation, high, low,
				     len, first)) {
			fresh = ways[way];
			goto out;
		}
	}
	fresh.class = pfsel_policydb_classify_addr(db, addr);
	fresh.high = high;
	fresh.generation = policy->generation;
	if (covers_prefix(db, fresh.class, high, first, low | ~mask)) {
		fresh.len = len;
		fresh.low = first;
	} else {
		fresh.len = PFSEL_PREFIX_LEN_128;
		fresh.low = low;
	}
	for (way = PFSEL_CLASSCACHE_ADDR_WAYS - 1; way > 0; way--)
		ways[way] = ways[way - 1];
	ways[0] = fresh;
out:
	put_cpu_ptr(&pfsel_classcaches);
	/* The entry was made for the prefix: its class covers the prefix. */
	*whole_prefix = fresh.len == len;
	return fresh.class;
}

/**
 * pfsel_classcache_port - The port class of a port in a policy
 *
 * @policy: the policy; the caller holds rcu_read_lock() or a reference.
 * @port: the port, in host order.
 *
 * Return: what pfsel_policydb_classify_port() returns for @policy's
 * database, from this CPU's cache when it holds it.
 */
u32 pfsel_classcache_port(const struct pfsel_policy *const policy,
			  const u16 port)
{
	struct pfsel_port_class *entry;
	u32 class;

	entry = &get_cpu_ptr(&pfsel_classcaches)
			 ->ports[!!in_serving_softirq()]
				[hash_32(port ^ policy->generation << 16,
					 PFSEL_CLASSCACHE_PORT_BITS)];
	if (entry->generation == policy->generation && entry->port == port) {
		class = entry->class;
	} else {
		class = pfsel_policydb_classify_port(policy->db, port);
		entry->port = port;
		entry->generation = policy->generation;
		entry->class = class;
	}
	put_cpu_ptr(&pfsel_classcaches);
	return class;
}

/**
 * pfsel_classcache_name - The name class of a learned host name in a policy
 *
 * @policy: the policy; the caller holds rcu_read_lock() or a reference.
 * @id: the identity of the pair the name came with (pfsel_hostmap_fn),
 *	which no other name ever has.
 * @name: the name, @len characters.
 * @len: its length.
 *
 * The slot is the id's low bits (spread by the generation): the names
 * learned one after the other, as a program's lookups are, take slots of
 * their own.
 *
 * Return: what pfsel_policydb_name_class() returns for @policy's database
 * and @name, from this CPU's cache when it holds it.
 */
u32 pfsel_classcache_name(const struct pfsel_policy *const policy, const u64 id,
			  const char *const name, const size_t len)
{
	struct pfsel_name_class *entry;
	u32 class;

	entry = &get_cpu_ptr(&pfsel_classcaches)
			 ->names[!!in_serving_softirq()]
				[((u32)id ^ hash_32(policy->generation,
						    PFSEL_CLASSCACHE_NAME_BITS)) &
				 (BIT(PFSEL_CLASSCACHE_NAME_BITS) - 1)];
	if (entry->generation == policy->generation && entry->id == id) {
		class = entry->class;
	} else {
		class = pfsel_policydb_name_class(policy->db, name, len);
		entry->id = id;
		entry->generation = policy->generation;
		entry->class = class;
	}
	put_cpu_ptr(&pfsel_classcaches);
	return class;
}

/*
 * Whether @entry holds exactly the paths @exe (@exe_len long) and @script
 * (@script_len as the entry counts it) of the policy of @generation.
 */
static bool app_entry_holds(const struct pfsel_app_class *const entry,
			    const u32 generation, const char *const exe,
			    const u32 exe_len, const char *const script,
			    const u32 script_len)
{
	return entry->generation == generation && entry->exe_len == exe_len &&
	       entry->script_len == script_len &&
	       !memcmp(entry->paths, exe, exe_len) &&
	       (!script_len ||
		!memcmp(entry->paths + exe_len + 1, script, script_len - 1));
}

/**
 * pfsel_classcache_app - The application class of an identity's paths in a
 *			  policy
 *
 * @policy: the policy; the caller holds rcu_read_lock() or a reference.
 * @exe: the executable's path (PFSEL_UNNAMED_PATH for an unnamed one).
 * @script: the script's path (the same for an unnamed one), or NULL when
 *	    the kernel ran no script.
 *
 * Why a hit is exact: an entry answers only the generation it was made in
 * (never reused: one policy's database) and exactly the paths it holds,
 * compared with their lengths, so a path that is a prefix of another's,
 * or a script moved into the executable's place, is another key; and no
 * script is told from any script by the length 0, which a script's
 * length plus one never is.  The class is pfsel_policydb_classify_app()
 * of that database and those paths, which reads nothing else.  The
 * entry's slot is the paths' hash, which only says where a key is kept.
 *
 * Return: what pfsel_policydb_classify_app() returns for @policy's
 * database, @exe and @script, from this CPU's cache when it holds it.
 */
u32 pfsel_classcache_app(const struct pfsel_policy *const policy,
			 const char *const exe, const char *const script)
{
	const u64 exe_hashlen = hashlen_string(NULL, exe);
	const u64 script_hashlen = script ? hashlen_string(NULL, script) : 0;
	const u32 exe_len = hashlen_len(exe_hashlen);
	const u32 script_len = script ? hashlen_len(script_hashlen) + 1 : 0;
	struct pfsel_app_class *entry;
	u32 class;

	/* Softirq has no table: it may come on top of a task's lookup. */
	if (in_serving_softirq() ||
	    exe_len + 1 + script_len > PFSEL_CLASSCACHE_APP_PATH_BYTES)
		return pfsel_policydb_classify_app(policy->db, exe, script);
	entry = &get_cpu_ptr(&pfsel_classcaches)
			 ->apps[hash_32(hashlen_hash(exe_hashlen) ^
					hashlen_hash(script_hashlen) ^
					policy->generation,
					PFSEL_CLASSCACHE_APP_BITS)];
	if (app_entry_holds(entry, policy->generation, exe, exe_len, script,
			    script_len)) {
		class = entry->class;
	} else {
		class = pfsel_policydb_classify_app(policy->db, exe, script);
		memcpy(entry->paths, exe, exe_len + 1);
		if (script)
			memcpy(entry->paths + exe_len + 1, script, script_len);
		entry->exe_len = exe_len;
		entry->script_len = script_len;
		entry->generation = policy->generation;
		entry->class = class;
	}
	put_cpu_ptr(&pfsel_classcaches);
	return class;
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>
#include <linux/inet.h>

#include "policydb_test_blob.h"

#include "uapi/pfsel_policy.h"

#define TEST_ADDR_CLASSES 300
#define TEST_PORT_CLASSES 200

/*
 * Class tables of two made-up policies: class starts spread over IPv4 and
 * IPv6 and over the ports, different in each.
 */
static void fill_db(struct pfsel_policydb *const db,
		    struct pfsel_policy_addr *const addrs,
		    struct pfsel_policy_port *const ports, const u32 stride)
{
	u32 i;

	memset(addrs, 0, sizeof(*addrs) * TEST_ADDR_CLASSES);
	for (i = 1; i < TEST_ADDR_CLASSES; i++) {
		if (i < TEST_ADDR_CLASSES / 2) {
			/* ::ffff:10.x.y.0 */
			addrs[i].start[10] = 0xff;
			addrs[i].start[11] = 0xff;
			addrs[i].start[12] = 10;
			addrs[i].start[13] = (u8)(i * stride >> 8);
			addrs[i].start[14] = (u8)(i * stride);
		} else {
			/* 2001:db8:x:y:: */
			addrs[i].start[0] = 0x20;
			addrs[i].start[1] = 0x01;
			addrs[i].start[2] = 0x0d;
			addrs[i].start[3] = 0xb8;
			addrs[i].start[4] = (u8)(i * stride >> 8);
			addrs[i].start[5] = (u8)(i * stride);
		}
	}
	ports[0].start = cpu_to_le16(0);
	for (i = 1; i < TEST_PORT_CLASSES; i++)
		ports[i].start = cpu_to_le16((u16)(i * stride * 3));
	db->addrs = addrs;
	db->n_addrs = TEST_ADDR_CLASSES;
	pfsel_policydb_index_addrs(db);
	db->ports = ports;
	db->n_ports = TEST_PORT_CLASSES;
}

/* An address's class, whether or not it covers the prefix. */
static u32 addr_class(const struct pfsel_policy *const policy,
		      const u8 addr[16])
{
	bool whole_prefix;

	return pfsel_classcache_addr(policy, addr, &whole_prefix);
}

/*
 * Whether @addr's whole prefix is of class @class in @db, by the search:
 * classes are intervals, so its first and last addresses say.
 */
static bool search_covers_prefix(const struct pfsel_policydb *const db,
				 const u8 addr[16], const u32 class)
{
	const u64 high = pfsel_policydb_addr_word(addr);
	const u64 low = pfsel_policydb_addr_word(addr + 8);
	const u64 mask =
		pfsel_prefix_len_mask(pfsel_addr_prefix_len(high, low));
	__be64 word;
	u8 end[16];

	memcpy(end, addr, 8);
	word = cpu_to_be64(low & mask);
	memcpy(end + 8, &word, 8);
	if (pfsel_policydb_classify_addr(db, end) != class)
		return false;
	word = cpu_to_be64(low | ~mask);
	memcpy(end + 8, &word, 8);
	return pfsel_policydb_classify_addr(db, end) == class;
}

/*
 * Whatever was looked up before, in whichever policy, the cache gives
 * what the policy's own search gives: thousands of lookups over two
 * policies whose addresses and ports collide in the tables.
 */
static void test_classcache_matches_search(struct kunit *const test)
{
	struct pfsel_policy_addr *addrs[2];
	struct pfsel_policy_port *ports[2];
	struct pfsel_policydb db[2] = {};
	struct pfsel_policy policy[2] = {};
	u32 want, got, i, p, mismatches = 0;
	bool whole, got_whole;
	u8 addr[16];
	u16 port;

	for (p = 0; p < 2; p++) {
		addrs[p] = kunit_kcalloc(test, TEST_ADDR_CLASSES,
					 sizeof(*addrs[p]), GFP_KERNEL);
		ports[p] = kunit_kcalloc(test, TEST_PORT_CLASSES,
					 sizeof(*ports[p]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, addrs[p]);
		KUNIT_ASSERT_NOT_NULL(test, ports[p]);
		fill_db(&db[p], addrs[p], ports[p], p + 1);
		policy[p].db = &db[p];
		/* Far above what this boot has loaded: never a real one. */
		policy[p].generation = 0xfffffff0 + p;
	}

	for (i = 0; i < 4000; i++) {
		p = i % 3 == 0;
		memset(addr, 0, sizeof(addr));
		if (i % 2) {
			addr[10] = 0xff;
			addr[11] = 0xff;
			addr[12] = 10;
			addr[13] = (u8)(i * 7 >> 8);
			addr[14] = (u8)(i * 7);
			addr[15] = (u8)i;
		} else {
			addr[0] = 0x20;
			addr[1] = 0x01;
			addr[2] = 0x0d;
			addr[3] = 0xb8;
			addr[4] = (u8)(i * 5 >> 8);
			addr[5] = (u8)(i * 5);
			addr[15] = (u8)i;
		}
		/*
		 * Every address twice: once filling, once hitting; whether
		 * its class covers its prefix, as the search says, both
		 * times.
		 */
		want = pfsel_policydb_classify_addr(&db[p], addr);
		whole = search_covers_prefix(&db[p], addr, want);
		got = pfsel_classcache_addr(&policy[p], addr, &got_whole);
		mismatches += got != want || got_whole != whole;
		got = pfsel_classcache_addr(&policy[p], addr, &got_whole);
		mismatches += got != want || got_whole != whole;

		port = (u16)(i * 13);
		want = pfsel_policydb_classify_port(&db[p], port);
		got = pfsel_classcache_port(&policy[p], port);
		mismatches += got != want;
		got = pfsel_classcache_port(&policy[p], port);
		mismatches += got != want;
		/* The same address and port in the other policy. */
		want = pfsel_policydb_classify_port(&db[!p], port);
		mismatches += pfsel_classcache_port(&policy[!p], port) != want;
		want = pfsel_policydb_classify_addr(&db[!p], addr);
		mismatches += addr_class(&policy[!p], addr) != want;
	}
	KUNIT_EXPECT_EQ(test, mismatches, 0);
}

/* A second lookup of the same address does not search again. */
static void test_classcache_hit_skips_search(struct kunit *const test)
{
	struct pfsel_policy_addr addrs[2] = {};
	struct pfsel_policy_port ports[2] = {};
	struct pfsel_policydb db = {
		.addrs = addrs,
		.n_addrs = 2,
		.ports = ports,
		.n_ports = 2,
	};
	struct pfsel_policy policy = { .db = &db, .generation = 0xffffffe0 };
	const u8 addr[16] = { [10] = 0xff, [11] = 0xff, [12] = 192, [15] = 1 };
	u32 first, second;

	addrs[1].start[10] = 0xff;
	addrs[1].start[11] = 0xff;
	addrs[1].start[12] = 192;
	ports[1].start = cpu_to_le16(1024);
	pfsel_policydb_index_addrs(&db);

	preempt_disable();
	first = addr_class(&policy, addr);
	/*
	 * Were the table searched again, the changed table would give
	 * class 0 now; the cached class is still 1.
	 */
	addrs[1].start[12] = 193;
	second = addr_class(&policy, addr);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, first, 1);
	KUNIT_EXPECT_EQ(test, second, 1);
	/* Another generation is another policy: searched afresh. */
	policy.generation++;
	KUNIT_EXPECT_EQ(test, addr_class(&policy, addr), 0);
}

/* ::ffff:192.0.2.@last */
static void test_v4(u8 addr[16], const u8 last)
{
	memset(addr, 0, 16);
	addr[10] = 0xff;
	addr[11] = 0xff;
	addr[12] = 192;
	addr[14] = 2;
	addr[15] = last;
}

/*
 * A /24 that one class covers is one entry: a second address of it is
 * not searched.  A /24 that a class boundary splits keeps each address's
 * own class, however the lookups alternate.
 */
static void test_classcache_prefix(struct kunit *const test)
{
	struct pfsel_policy_addr addrs[3] = {};
	struct pfsel_policy_port ports[1] = {};
	struct pfsel_policydb db = {
		.addrs = addrs,
		.n_addrs = 3,
		.ports = ports,
		.n_ports = 1,
	};
	struct pfsel_policy policy = { .db = &db, .generation = 0xffffffd0 };
	u32 i, got[4], mismatches = 0;
	bool whole[2];
	u8 addr[16];

	/* Class 1 from 192.0.2.0, class 2 from 192.0.3.0. */
	test_v4(addrs[1].start, 0);
	test_v4(addrs[2].start, 0);
	addrs[2].start[14] = 3;
	pfsel_policydb_index_addrs(&db);

	preempt_disable();
	test_v4(addr, 1);
	got[0] = pfsel_classcache_addr(&policy, addr, &whole[0]);
	/* Were 192.0.2.200 searched, it would be of class 0 now. */
	addrs[1].start[12] = 193;
	test_v4(addr, 200);
	got[1] = pfsel_classcache_addr(&policy, addr, &whole[1]);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, got[0], 1);
	KUNIT_EXPECT_EQ(test, got[1], 1);
	KUNIT_EXPECT_TRUE(test, whole[0]);
	KUNIT_EXPECT_TRUE(test, whole[1]);
	/*
	 * The unspecified addresses are their own prefixes, of class 0:
	 * ::, whose /64 holds the whole of IPv4, which the classes divide,
	 * and 0.0.0.0, which policies give a class of its own.
	 */
	memset(addr, 0, sizeof(addr));
	KUNIT_EXPECT_EQ(test, pfsel_classcache_addr(&policy, addr, &whole[0]),
			0);
	test_v4(addr, 0);
	addr[12] = 0;
	addr[14] = 0;
	KUNIT_EXPECT_EQ(test, pfsel_classcache_addr(&policy, addr, &whole[1]),
			0);
	KUNIT_EXPECT_TRUE(test, whole[0]);
	KUNIT_EXPECT_TRUE(test, whole[1]);

	/* Another policy: class 2 from 192.0.2.128, inside the /24. */
	addrs[1].start[12] = 192;
	addrs[2].start[14] = 2;
	addrs[2].start[15] = 128;
	policy.generation++;
	for (i = 0; i < 64; i++) {
		test_v4(addr, (u8)(i % 2 ? 127 + i % 3 : i));
		mismatches += pfsel_classcache_addr(&policy, addr, &whole[0]) !=
			      pfsel_policydb_classify_addr(&db, addr);
		/* Neither class is the whole /24's. */
		mismatches += whole[0];
	}
	KUNIT_EXPECT_EQ(test, mismatches, 0);
	test_v4(addr, 127);
	KUNIT_EXPECT_EQ(test, addr_class(&policy, addr), 1);
	test_v4(addr, 128);
	KUNIT_EXPECT_EQ(test, addr_class(&policy, addr), 2);
	/* Past the boundary, to the /24's end. */
	test_v4(addr, 255);
	KUNIT_EXPECT_EQ(test, addr_class(&policy, addr), 2);
}

static u32 name_class(const struct pfsel_policy *const policy, const u64 id,
		      const char *const name)
{
	return pfsel_classcache_name(policy, id, name, strlen(name));
}

/*
 * A learned name's class is kept under its pair's id and the policy's
 * generation: the same pair again is not matched again, another pair (the
 * same name learned anew) and another policy (a load) are.
 */
static void test_classcache_names(struct kunit *const test)
{
	static const char zone[] = "example.org";
	struct pfsel_string strings[1] = {
		{ .s = zone, .len = sizeof(zone) - 1 },
	};
	struct pfsel_policy_path patterns[1] = {};
	struct pfsel_policydb db = {
		.strings = strings,
		.n_strings = 1,
		.name_patterns = patterns,
		.n_name_patterns = 1,
		.n_name_classes = 4,
	};
	struct pfsel_policy policy = { .db = &db, .generation = 0xffffffc0 };
	/* Far above what this boot has learned: never a real pair. */
	const u64 id = 0xfffffffffff00000ULL;

	patterns[0].flags = cpu_to_le32(PFSEL_NAME_EXACT | PFSEL_NAME_TREE);
	patterns[0].exact = cpu_to_le32(1);
	patterns[0].tree = cpu_to_le32(2);

	preempt_disable();
	KUNIT_EXPECT_EQ(test, name_class(&policy, id, "example.org"), 1);
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 1, "a.example.org"), 2);
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 2, "example.net"), 0);
	/* Were it matched again, the changed pattern would give 3. */
	patterns[0].tree = cpu_to_le32(3);
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 1, "a.example.org"), 2);
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 3, "a.example.org"), 3);
	preempt_enable();
	/* Another generation is another policy: matched afresh. */
	policy.generation++;
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 1, "a.example.org"), 3);
	KUNIT_EXPECT_EQ(test, name_class(&policy, id + 2, "example.net"), 0);
}

/*
 * Adversary read of the prefixes: 0.0.0.0 is a network of one, so its
 * entry holds ::ffff:0.0.0.0 marked whole; a lookup of 0.0.0.200 masks
 * its address to its /24's first, ::ffff:0.0.0.0, and compares it with
 * that entry.  0.0.0.200 must keep its own class (2 here: 0.0.0.0 is
 * class 1, as "unspecified" is in a policy), not 0.0.0.0's.  Control: in
 * a fresh generation, 0.0.0.200 looked up first is of class 2.
 */
static void
test_classcache_unspecified_is_not_its_slash24(struct kunit *const test)
{
	struct pfsel_policy_addr addrs[4] = {};
	struct pfsel_policy_port ports[1] = {};
	struct pfsel_policydb db = {
		.addrs = addrs,
		.n_addrs = 4,
		.ports = ports,
		.n_ports = 1,
	};
	struct pfsel_policy policy = { .db = &db, .generation = 0xffffffb0 };
	u8 zero[16] = { [10] = 0xff, [11] = 0xff };
	u8 other[16] = { [10] = 0xff, [11] = 0xff, [15] = 200 };
	u32 control, got_zero, got_other;
	bool whole_zero, whole_other;

	/* Class 1: 0.0.0.0; class 2 from 0.0.0.1; class 3 from 0.0.1.0. */
	memcpy(addrs[1].start, zero, 16);
	memcpy(addrs[2].start, zero, 16);
	addrs[2].start[15] = 1;
	memcpy(addrs[3].start, zero, 16);
	addrs[3].start[14] = 1;
	pfsel_policydb_index_addrs(&db);

	preempt_disable();
	control = addr_class(&policy, other);
	policy.generation++;
	got_zero = pfsel_classcache_addr(&policy, zero, &whole_zero);
	got_other = pfsel_classcache_addr(&policy, other, &whole_other);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, control, 2);
	KUNIT_EXPECT_EQ(test, got_zero, 1);
	KUNIT_EXPECT_TRUE(test, whole_zero);
	KUNIT_EXPECT_EQ_MSG(test, got_other, 2,
			    "0.0.0.200 given 0.0.0.0's class");
	KUNIT_EXPECT_FALSE(test, whole_other);
}

/* @text, an IPv6 address or ::ffff:a.b.c.d, as 16 bytes. */
static void parse_addr(struct kunit *const test, const char *const text,
		       u8 addr[16])
{
	KUNIT_ASSERT_TRUE_MSG(test, in6_pton(text, -1, addr, -1, NULL), "%s",
			      text);
}

/* A policy of address classes only, made by make_classes(). */
struct test_classes {
	struct pfsel_policy_addr *addrs;
	struct pfsel_policy_port port;
	struct pfsel_policydb db;
	struct pfsel_policy policy;
};

/* Classes starting at @starts (ascending, the first ::), in @generation. */
static void make_classes(struct kunit *const test,
			 struct test_classes *const classes,
			 const char *const *const starts, const size_t n,
			 const u32 generation)
{
	size_t i;

	memset(classes, 0, sizeof(*classes));
	classes->addrs =
		kunit_kcalloc(test, n, sizeof(*classes->addrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, classes->addrs);
	for (i = 0; i < n; i++)
		parse_addr(test, starts[i], classes->addrs[i].start);
	classes->db.addrs = classes->addrs;
	classes->db.n_addrs = n;
	pfsel_policydb_index_addrs(&classes->db);
	classes->db.ports = &classes->port;
	classes->db.n_ports = 1;
	classes->policy.db = &classes->db;
	classes->policy.generation = generation;
}

/*
 * Looks up each of @texts twice (filling, then hitting), in their order
 * and then in the reverse order, on one CPU, the entries of each address
 * kept for the next: whatever entry a lookup finds, its class and whether
 * the class covers the prefix must be what the search says.  Counts the
 * answers that are not, and reports the first.
 */
static unsigned int wrong_lookups(struct kunit *const test,
				  const struct test_classes *const classes,
				  const char *const *const texts,
				  const size_t n)
{
	const char *first_wrong = NULL;
	unsigned int wrong = 0;
	const u8 *addr;
	u8 *addrs;
	u32 want, got;
	bool whole;
	size_t i, k;
	int pass;

	/* Parsed beforehand: a failed assertion must not be atomic. */
	addrs = kunit_kcalloc(test, n, 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, addrs);
	for (i = 0; i < n; i++)
		parse_addr(test, texts[i], addrs + 16 * i);
	preempt_disable();
	for (k = 0; k < 4 * n; k++) {
		/* Forward twice, then backward twice. */
		i = k < 2 * n ? k / 2 : n - 1 - (k - 2 * n) / 2;
		addr = addrs + 16 * i;
		want = pfsel_policydb_classify_addr(&classes->db, addr);
		for (pass = 0; pass < 2; pass++) {
			got = pfsel_classcache_addr(&classes->policy, addr,
						    &whole);
			if (got == want &&
			    whole == search_covers_prefix(&classes->db, addr,
							  want))
				continue;
			if (!wrong++)
				first_wrong = texts[i];
		}
	}
	preempt_enable();
	if (wrong)
		kunit_info(test, "first wrong: %s\n", first_wrong);
	return wrong;
}

/*
 * In a policy of classes starting at @starts, in @generation, every
 * lookup of @addrs (wrong_lookups()) answers as the search does.
 */
static void expect_lookups_as_searched(struct kunit *const test,
				       const char *const *const starts,
				       const size_t n_starts,
				       const char *const *const addrs,
				       const size_t n_addrs,
				       const u32 generation)
{
	struct test_classes classes;

	make_classes(test, &classes, starts, n_starts, generation);
	KUNIT_EXPECT_EQ(test, wrong_lookups(test, &classes, addrs, n_addrs), 0);
}

/*
 * :: is a prefix of its own, as is every address of ::/64 but IPv4's, and
 * 0.0.0.0 (::ffff:0.0.0.0) another: none of their entries answers for
 * another of them, nor for 0.0.0.0/24 (0.0.0.1 and 0.0.0.200), nor
 * theirs for them.  Each is of a class of its own here, so an entry that
 * answered for another address would give the wrong class.
 */
static void test_classcache_unspecified_prefixes(struct kunit *const test)
{
	static const char *const starts[] = {
		"::",
		"::1",
		"::2",
		"::ffff:0.0.0.0",
		"::ffff:0.0.0.1",
		"::ffff:0.0.0.200",
		"::ffff:0.0.0.201",
		"::ffff:0.0.1.0",
		"2001:db8::",
	};
	static const char *const addrs[] = {
		"::",
		"::1",
		"::2",
		"::3",
		"::0.0.0.200",
		"::ffff:0.0.0.0",
		"::ffff:0.0.0.1",
		"::ffff:0.0.0.200",
		"::ffff:0.0.0.255",
		"::ffff:0.0.1.0",
	};

	expect_lookups_as_searched(test, starts, ARRAY_SIZE(starts), addrs,
				   ARRAY_SIZE(addrs), 0xffffffa0);
}

/*
 * The reverse of test_classcache_unspecified_is_not_its_slash24: where
 * one class covers 0.0.0.0/24, the entry of that /24 answers for its
 * addresses but not for 0.0.0.0, a prefix of its own.  Were the table
 * searched again after the change below, 0.0.0.0 and 0.0.0.7 would both
 * be of class 0; the /24's entry still says 1.
 */
static void test_classcache_slash24_is_not_unspecified(struct kunit *const test)
{
	static const char *const starts[] = {
		"::",
		"::ffff:0.0.0.0",
		"::ffff:0.0.1.0",
	};
	struct test_classes classes;
	u32 filled, in_prefix, unspecified;
	bool whole_filled, whole_in_prefix, whole_unspecified;
	u8 addr[3][16];

	make_classes(test, &classes, starts, ARRAY_SIZE(starts), 0xffffffa8);
	parse_addr(test, "::ffff:0.0.0.200", addr[0]);
	parse_addr(test, "::ffff:0.0.0.7", addr[1]);
	parse_addr(test, "::ffff:0.0.0.0", addr[2]);
	preempt_disable();
	filled = pfsel_classcache_addr(&classes.policy, addr[0], &whole_filled);
	/* Class 1 now starts at 0.0.0.8. */
	classes.addrs[1].start[15] = 8;
	in_prefix = pfsel_classcache_addr(&classes.policy, addr[1],
					  &whole_in_prefix);
	unspecified = pfsel_classcache_addr(&classes.policy, addr[2],
					    &whole_unspecified);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, filled, 1);
	KUNIT_EXPECT_TRUE(test, whole_filled);
	/* Control: the /24's entry answers for another of its addresses. */
	KUNIT_EXPECT_EQ(test, in_prefix, 1);
	KUNIT_EXPECT_TRUE(test, whole_in_prefix);
	KUNIT_EXPECT_EQ_MSG(test, unspecified, 0,
			    "0.0.0.0 given 0.0.0.0/24's class");
	KUNIT_EXPECT_TRUE(test, whole_unspecified);
}

/*
 * 127.0.0.0/8, which policies name ("loopback"), with a rule for
 * 127.0.0.1 alone: 127.0.0.0/24 is divided at 127.0.0.1 and 127.0.0.2,
 * so 127.0.0.0 (the /24's first address), 127.0.0.1 and the rest each
 * have entries of their own; 127.0.1.0/24 is one class's.
 */
static void test_classcache_loopback_divided(struct kunit *const test)
{
	static const char *const starts[] = {
		"::",
		"::ffff:127.0.0.0",
		"::ffff:127.0.0.1",
		"::ffff:127.0.0.2",
		"::ffff:128.0.0.0",
	};
	static const char *const addrs[] = {
		"::ffff:127.0.0.1",   "::ffff:127.0.0.0",
		"::ffff:127.0.0.2",   "::ffff:127.0.0.255",
		"::ffff:127.0.1.1",   "::ffff:127.0.1.0",
		"::ffff:127.0.1.255", "::ffff:127.255.255.255",
		"::ffff:128.0.0.1",   "::1",
	};

	expect_lookups_as_searched(test, starts, ARRAY_SIZE(starts), addrs,
				   ARRAY_SIZE(addrs), 0xffffff90);
}

/*
 * /24s a policy divides exactly at an address: 192.0.2.0/24 at
 * 192.0.2.128 (a class starts at the /24's first address and another in
 * its middle), 198.51.100.0/24 at its first and its last address, each a
 * class alone.  The address where a class starts answers for no other,
 * and no other for it; 192.0.3.0/24, inside one class, is one entry.
 */
static void test_classcache_divided_at_the_address(struct kunit *const test)
{
	static const char *const starts[] = {
		"::",
		"::ffff:192.0.2.0",
		"::ffff:192.0.2.128",
		"::ffff:198.51.100.0",
		"::ffff:198.51.100.1",
		"::ffff:198.51.100.255",
		"::ffff:198.51.101.0",
	};
	static const char *const addrs[] = {
		"::ffff:192.0.2.128",	 "::ffff:192.0.2.127",
		"::ffff:192.0.2.0",	 "::ffff:192.0.2.255",
		"::ffff:192.0.3.0",	 "::ffff:192.0.3.9",
		"::ffff:198.51.100.0",	 "::ffff:198.51.100.1",
		"::ffff:198.51.100.200", "::ffff:198.51.100.255",
		"::ffff:198.51.101.9",
	};

	expect_lookups_as_searched(test, starts, ARRAY_SIZE(starts), addrs,
				   ARRAY_SIZE(addrs), 0xffffff98);
}

/* This CPU's entry of @generation, if one holds it; the caller is pinned. */
static struct pfsel_app_class *app_entry_of(const u32 generation)
{
	struct pfsel_classcache *const cache = this_cpu_ptr(&pfsel_classcaches);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cache->apps); i++)
		if (cache->apps[i].generation == generation)
			return &cache->apps[i];
	return NULL;
}

/*
 * Application classes: looked up twice (a miss, then from the cache),
 * every identity of a list whose paths cross each edge of the key (a
 * path a prefix of another's, the script's presence, the script in the
 * executable's place, an unnamed file, paths too long to keep) has the
 * class that pfsel_policydb_classify_app() gives; an entry answers its
 * very paths (a class written into it comes back) and nothing else, and
 * no other generation: a load or an unload, which give every policy a
 * new generation, is all the reset these need.  (A mode switch changes
 * no class.)
 */
static void test_classcache_apps(struct kunit *const test)
{
	static const char *const exes[] = {
		"/usr/bin/curl", "/usr/bin/cur", "/usr/bin/curlx", "/bin/sh",
		PFSEL_UNNAMED_PATH, "/x",
	};
	static const char *const scripts[] = {
		NULL, "/usr/bin/curl", "/x", PFSEL_UNNAMED_PATH, "",
	};
	struct test_blob *const b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	char *const long_path = kunit_kzalloc(test, 200, GFP_KERNEL);
	struct pfsel_policydb *db = NULL;
	struct pfsel_policy policy = { .generation = 0xfffffff0 };
	struct pfsel_app_class *entry;
	u32 got[2], want, planted, other_generation, prefix, with_script;
	size_t i, j;
	int pass;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, long_path);
	test_build_blob(b, false);
	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	policy.db = db;
	memset(long_path, 'a', 199);
	long_path[0] = '/';

	for (i = 0; i < ARRAY_SIZE(exes); i++) {
		for (j = 0; j < ARRAY_SIZE(scripts); j++) {
			want = pfsel_policydb_classify_app(db, exes[i],
							   scripts[j]);
			for (pass = 0; pass < 2; pass++) {
				preempt_disable();
				got[pass] = pfsel_classcache_app(&policy,
								 exes[i],
								 scripts[j]);
				preempt_enable();
			}
			KUNIT_EXPECT_EQ_MSG(test, got[0], want, "%s %s",
					    exes[i], scripts[j] ?: "-");
			KUNIT_EXPECT_EQ_MSG(test, got[1], want, "%s %s",
					    exes[i], scripts[j] ?: "-");
		}
		KUNIT_EXPECT_EQ(test,
				pfsel_classcache_app(&policy, long_path,
						     exes[i]),
				pfsel_policydb_classify_app(db, long_path,
							    exes[i]));
	}
	KUNIT_EXPECT_EQ(test,
			pfsel_classcache_app(&policy, "/usr/bin/curl", NULL),
			1);

	/* A class planted in curl's entry answers curl alone. */
	policy.generation++;
	preempt_disable();
	pfsel_classcache_app(&policy, "/usr/bin/curl", NULL);
	entry = app_entry_of(policy.generation);
	if (entry)
		entry->class = 0x5a5a;
	planted = pfsel_classcache_app(&policy, "/usr/bin/curl", NULL);
	prefix = pfsel_classcache_app(&policy, "/usr/bin/cur", NULL);
	with_script = pfsel_classcache_app(&policy, "/usr/bin/curl", "/x");
	policy.generation++;
	other_generation = pfsel_classcache_app(&policy, "/usr/bin/curl", NULL);
	preempt_enable();
	KUNIT_ASSERT_NOT_NULL(test, entry);
	KUNIT_EXPECT_EQ(test, planted, 0x5a5a);
	KUNIT_EXPECT_EQ(test, prefix,
			pfsel_policydb_classify_app(db, "/usr/bin/cur", NULL));
	KUNIT_EXPECT_EQ(test, with_script,
			pfsel_policydb_classify_app(db, "/usr/bin/curl", "/x"));
	KUNIT_EXPECT_EQ(test, other_generation, 1);
	pfsel_policydb_free(db);
}

/*
 * Adversary read of wt-perf4's application classes: a class planted in
 * the entry of one identity's paths (in a generation of this test's own)
 * is given back for exactly those paths, and for none of their
 * neighbours: the executable alone when the entry had a script, an empty
 * script, the paths split elsewhere between executable and script
 * ("/a/b" + "c" against "/a" + "/bc"), the script moved into the
 * executable's place, a path one byte longer or shorter, the unnamed
 * file.  Paths at the size limit (PFSEL_CLASSCACHE_APP_PATH_BYTES with
 * their NULs, and one byte over) have the search's class, twice.
 */
static void test_classcache_app_neighbours(struct kunit *const test)
{
	static const struct {
		const char *exe, *script;
	} keys[] = {
		{ "/usr/bin/python3", "/home/u/x.py" },
		{ "/usr/bin/python3", NULL },
		{ "/a/b", "c" },
		{ "/a", "/bc" },
		{ "/usr/bin/curl", NULL },
		{ "/usr/bin/curl", "" },
		{ "/usr/bin/curl", PFSEL_UNNAMED_PATH },
		{ PFSEL_UNNAMED_PATH, NULL },
		{ PFSEL_UNNAMED_PATH, PFSEL_UNNAMED_PATH },
		{ "/home/u/x.py", "/usr/bin/python3" },
		{ "/usr/bin/python", "/home/u/x.py" },
		{ "/usr/bin/python3", "/home/u/x.p" },
		{ "/usr/bin/python3", "/home/u/x.pyc" },
	};
	struct test_blob *const b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	char *const exe = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *const script = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct pfsel_policydb *db = NULL;
	struct pfsel_policy policy = { .generation = 0xffffff40 };
	struct pfsel_app_class *entry;
	u32 wrong = 0, got, want, pass;
	size_t i, j, e, s;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, exe);
	KUNIT_ASSERT_NOT_NULL(test, script);
	test_build_blob(b, false);
	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	policy.db = db;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		policy.generation++;
		preempt_disable();
		pfsel_classcache_app(&policy, keys[i].exe, keys[i].script);
		entry = app_entry_of(policy.generation);
		if (entry)
			entry->class = 0x5a5a;
		got = pfsel_classcache_app(&policy, keys[i].exe,
					   keys[i].script);
		preempt_enable();
		KUNIT_ASSERT_NOT_NULL(test, entry);
		KUNIT_EXPECT_EQ(test, got, 0x5a5a);
		for (j = 0; j < ARRAY_SIZE(keys); j++) {
			if (j == i)
				continue;
			preempt_disable();
			got = pfsel_classcache_app(&policy, keys[j].exe,
						   keys[j].script);
			preempt_enable();
			if (got == 0x5a5a) {
				wrong++;
				kunit_info(test, "%s %s answered as %s %s",
					   keys[j].exe, keys[j].script ?: "-",
					   keys[i].exe, keys[i].script ?: "-");
			}
		}
	}

	/*
	 * At the size limit and one byte over: an executable of @e bytes
	 * alone, and with a script of the length that makes both with their
	 * NULs one byte short of PFSEL_CLASSCACHE_APP_PATH_BYTES, exactly
	 * that, and one byte over.
	 */
	for (e = 100; e <= PFSEL_CLASSCACHE_APP_PATH_BYTES + 1; e++) {
		memset(exe, 'e', e);
		exe[0] = '/';
		exe[e] = '\0';
		for (s = 0; s < 4; s++) {
			const long len = (long)PFSEL_CLASSCACHE_APP_PATH_BYTES -
					 (long)e - 2 + (long)s - 2;
			const char *const sc = s ? script : NULL;

			if (s && len < 1)
				continue;
			if (s) {
				memset(script, 's', len);
				script[0] = '/';
				script[len] = '\0';
			}
			want = pfsel_policydb_classify_app(db, exe, sc);
			for (pass = 0; pass < 2; pass++) {
				preempt_disable();
				got = pfsel_classcache_app(&policy, exe, sc);
				preempt_enable();
				wrong += got != want;
			}
		}
	}
	KUNIT_EXPECT_EQ(test, wrong, 0);
	pfsel_policydb_free(db);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_classcache_matches_search),
	KUNIT_CASE(test_classcache_hit_skips_search),
	KUNIT_CASE(test_classcache_prefix),
	KUNIT_CASE(test_classcache_names),
	KUNIT_CASE(test_classcache_apps),
	KUNIT_CASE(test_classcache_app_neighbours),
	KUNIT_CASE(test_classcache_unspecified_is_not_its_slash24),
	KUNIT_CASE(test_classcache_unspecified_prefixes),
	KUNIT_CASE(test_classcache_slash24_is_not_unspecified),
	KUNIT_CASE(test_classcache_loopback_divided),
	KUNIT_CASE(test_classcache_divided_at_the_address),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_classcache",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
