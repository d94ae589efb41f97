// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Address and port classes, cached per CPU
 *
 * The access vector cache is keyed by classes, so even a request it
 * answers first has its address and port classified: a binary search
 * each, over thousands of classes in a large policy.  As SELinux keeps the
 * labels of recently seen nodes and ports (netnode.c, netport.c), each CPU
 * keeps here the classes of the addresses and ports it classified last.
 *
 * An entry is keyed by the generation of the policy it was classified in:
 * generations are never reused, so an entry of a policy that was replaced
 * can never match again, and nothing needs flushing.  A class never
 * changes within a generation, so a hit is always exact.
 *
 * The tables are direct-mapped.  Softirq (inbound connections) and process
 * context have tables of their own, so that a softirq on top of a hook
 * never sees half an entry.
 */

#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "classcache.h"
#include "cache_limits.h"
#include "policydb.h"

/**
 * struct pfsel_addr_class - An address and its class in one policy
 *
 * @high: the first 8 bytes of the address, as a big-endian number.
 * @low: the last 8.
 * @generation: the policy's generation; 0 for an empty entry.
 * @class: the address class.
 */
struct pfsel_addr_class {
	u64 high;
	u64 low;
	u32 generation;
	u32 class;
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

struct pfsel_classcache {
	struct pfsel_addr_class addrs[2][1 << PFSEL_CLASSCACHE_ADDR_BITS];
	struct pfsel_port_class ports[2][1 << PFSEL_CLASSCACHE_PORT_BITS];
};

static DEFINE_PER_CPU(struct pfsel_classcache, pfsel_classcaches);

/**
 * pfsel_classcache_addr - The address class of an address in a policy
 *
 * @policy: the policy; the caller holds rcu_read_lock() or a reference.
 * @addr: 16 bytes, network order; IPv4 as ::ffff:a.b.c.d.
 *
 * Return: what pfsel_policydb_classify_addr() returns for @policy's
 * database, from this CPU's cache when it holds it.
 */
u32 pfsel_classcache_addr(const struct pfsel_policy *const policy,
			  const u8 addr[16])
{
	const u64 high = pfsel_policydb_addr_word(addr);
	const u64 low = pfsel_policydb_addr_word(addr + 8);
	struct pfsel_addr_class *entry;
	u32 class;

	entry = &get_cpu_ptr(&pfsel_classcaches)
			 ->addrs[!!in_serving_softirq()]
				[hash_64(high ^ rol64(low, 32) ^
					 policy->generation,
					 PFSEL_CLASSCACHE_ADDR_BITS)];
	if (entry->generation == policy->generation && entry->low == low &&
	    entry->high == high) {
		class = entry->class;
	} else {
		class = pfsel_policydb_classify_addr(policy->db, addr);
		entry->high = high;
		entry->low = low;
		entry->generation = policy->generation;
		entry->class = class;
	}
	put_cpu_ptr(&pfsel_classcaches);
	return class;
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

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

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
	db->ports = ports;
	db->n_ports = TEST_PORT_CLASSES;
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
		/* Every address twice: once filling, once hitting. */
		want = pfsel_policydb_classify_addr(&db[p], addr);
		got = pfsel_classcache_addr(&policy[p], addr);
		mismatches += got != want;
		got = pfsel_classcache_addr(&policy[p], addr);
		mismatches += got != want;

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
		mismatches += pfsel_classcache_addr(&policy[!p], addr) != want;
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

	preempt_disable();
	first = pfsel_classcache_addr(&policy, addr);
	/*
	 * Were the table searched again, the changed table would give
	 * class 0 now; the cached class is still 1.
	 */
	addrs[1].start[12] = 193;
	second = pfsel_classcache_addr(&policy, addr);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, first, 1);
	KUNIT_EXPECT_EQ(test, second, 1);
	/* Another generation is another policy: searched afresh. */
	policy.generation++;
	KUNIT_EXPECT_EQ(test, pfsel_classcache_addr(&policy, addr), 0);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_classcache_matches_search),
	KUNIT_CASE(test_classcache_hit_skips_search),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_classcache",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
