// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the policy reader (policydb.c)
 *
 * A small valid blob is built by hand (policydb_test_blob.h), section by
 * section, without the user-space compiler, so the kernel checks the format
 * as FORMAT.md states it.  Then the blob is broken in several ways, each of
 * which must give its errno and leave nothing behind; and its host name
 * classes and rules are looked up.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <net/ipv6.h>

#include "policydb.h"

#include "policydb_test_blob.h"

/* The blob of policydb_test_blob.h, uid 1000's. */
static void build_blob(struct test_blob *b)
{
	test_build_blob(b, false);
}

#define put32 test_put32
#define put16 test_put16
#define seal test_seal
#define sec test_sec

static struct test_blob *new_blob(struct kunit *test)
{
	struct test_blob *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	build_blob(b);
	return b;
}

static void policydb_test_valid(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;
	struct pfsel_decision d;
	struct pfsel_string file;
	u8 addr[16];
	u32 app, line, col;

	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	KUNIT_EXPECT_EQ(test, db->uid, 1000);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_ask_timeout_ms(db), 1000);

	app = pfsel_policydb_classify_app(db, "/usr/bin/curl", NULL);
	KUNIT_EXPECT_EQ(test, app, 1);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_app(db, "/bin/sh", NULL),
			0);
	KUNIT_EXPECT_TRUE(test, pfsel_policydb_app_protected(db, app));
	KUNIT_EXPECT_FALSE(test, pfsel_policydb_app_protected(db, 0));
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_port(db, 442), 0);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_port(db, 443), 1);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_port(db, 65535), 2);
	pfsel_policydb_family_addr(PFSEL_FAMILY_INET, addr);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_addr(db, addr), 1);
	pfsel_policydb_family_addr(PFSEL_FAMILY_INET6, addr);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_classify_addr(db, addr), 0);

	KUNIT_ASSERT_EQ(test, pfsel_policydb_decide(db, app, PFSEL_OP_CONNECT,
						    PFSEL_PROTO_TCP, 1, 1, &d),
			0);
	KUNIT_EXPECT_EQ(test, d.verdict, PFSEL_VERDICT_ALLOW);
	KUNIT_EXPECT_EQ(test, d.rule, 0);
	KUNIT_ASSERT_EQ(test, pfsel_policydb_rule_source(db, 0, &file, &line,
							 &col),
			0);
	KUNIT_EXPECT_EQ(test, line, 3);
	KUNIT_EXPECT_EQ(test, file.len, 5);

	pfsel_policydb_decide(db, app, PFSEL_OP_CONNECT, PFSEL_PROTO_TCP, 1, 2,
			      &d);
	KUNIT_EXPECT_EQ(test, d.verdict, PFSEL_VERDICT_DENY);
	KUNIT_EXPECT_EQ(test, d.rule, PFSEL_NONE);
	pfsel_policydb_decide(db, 0, PFSEL_OP_CONNECT, PFSEL_PROTO_TCP, 1, 1,
			      &d);
	KUNIT_EXPECT_EQ(test, d.rule, PFSEL_NONE);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_decide(db, 2, 0, 0, 0, 0, &d),
			-EINVAL);
	/* A user policy trusts no resolver. */
	KUNIT_EXPECT_EQ(test, pfsel_policydb_resolver(db, app), -ENOENT);
	pfsel_policydb_free(db);
}

static void expect_refused(struct kunit *test, struct test_blob *b, int err)
{
	struct pfsel_policydb *db = NULL;

	KUNIT_EXPECT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), err);
	KUNIT_EXPECT_NULL(test, db);
	build_blob(b);
}

static void policydb_test_malformed(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;

	KUNIT_EXPECT_EQ(test, pfsel_policydb_load(b->buf, 16, &db), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			pfsel_policydb_load(b->buf, PFSEL_POLICY_MAX_SIZE + 1,
					    &db),
			-E2BIG);

	b->buf[0] ^= 1;
	seal(b);
	expect_refused(test, b, -EINVAL);
	put32(b->buf + 4, PFSEL_POLICY_VERSION + 1);
	seal(b);
	expect_refused(test, b, -EPROTONOSUPPORT);
	b->buf[b->len - 1] ^= 1;
	expect_refused(test, b, -EBADMSG);
	put32(b->buf + 16, 1); /* system policy with a uid */
	seal(b);
	expect_refused(test, b, -EINVAL);
	b->len -= 8; /* truncated */
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* A section out of order. */
	put32(b->buf + 32, PFSEL_SEC_STRINGS);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* A string with a NUL in it. */
	*sec(b, PFSEL_SEC_STRINGS, 6) = 0;
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* A run naming a rule that does not exist. */
	put32(sec(b, PFSEL_SEC_RUNS, 12), TEST_RULES);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* Port classes out of order. */
	put16(sec(b, PFSEL_SEC_PORTS, 4), 443);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* An application class listing a group that does not exist. */
	put32(sec(b, PFSEL_SEC_GROUPLIST, 4), 2);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* Unknown path flags. */
	put32(sec(b, PFSEL_SEC_EXE_PATHS, 4), 8);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* The settings: an ask that nobody answers cannot ask again. */
	put32(sec(b, PFSEL_SEC_SETTINGS, 8), PFSEL_VERDICT_ASK);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* Protecting an application class that does not exist. */
	put32(sec(b, PFSEL_SEC_PROTECTED, 0), 2);
	seal(b);
	expect_refused(test, b, -EINVAL);
}

/* Host names: exact, tree, none, and what is not a name at all. */
static void policydb_test_name_class(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;
	char *long_name;
	size_t i;

	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	KUNIT_EXPECT_TRUE(test, pfsel_policydb_has_names(db));
	for (i = 0; i < ARRAY_SIZE(test_name_classes); i++) {
		const char *name = test_name_classes[i].name;

		KUNIT_EXPECT_EQ_MSG(test,
				    pfsel_policydb_name_class(db, name,
							      strlen(name)),
				    test_name_classes[i].class, "name \"%s\"",
				    name);
	}
	/* Only @len bytes count, and a NUL inside is not a name. */
	KUNIT_EXPECT_EQ(test,
			pfsel_policydb_name_class(db, "www.example.org.x", 15),
			TEST_NAME_WWW);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_name_class(db, "a\0.org", 6),
			TEST_NAME_NONE);
	/* 253 characters is a name; 254 is not. */
	long_name = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, long_name);
	memset(long_name, 'a', 300);
	for (i = 60; i < 250; i += 61)
		long_name[i] = '.';
	memcpy(long_name + 249, ".org", 4);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_name_class(db, long_name, 253),
			TEST_NAME_ORG);
	long_name[249] = 'a';
	memcpy(long_name + 250, ".org", 4);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_name_class(db, long_name, 254),
			TEST_NAME_NONE);
	pfsel_policydb_free(db);
}

/* The smallest rule over the application's groups decides, per name class. */
static void policydb_test_decide_name(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;
	struct pfsel_decision d;
	u32 rule;
	size_t i;

	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	for (i = 0; i < ARRAY_SIZE(test_name_rules); i++) {
		int err;

		rule = 0xdead;
		err = pfsel_policydb_decide_name(db, test_name_rules[i].app,
						 test_name_rules[i].op,
						 PFSEL_PROTO_TCP,
						 test_name_rules[i].class,
						 test_name_rules[i].port_class, &rule);
		KUNIT_EXPECT_EQ(test, err, 0);
		KUNIT_EXPECT_EQ_MSG(test, rule, test_name_rules[i].rule,
				    "case %zu", i);
	}
	/* Out of range: refused, the answer untouched. */
	rule = 7;
	KUNIT_EXPECT_EQ(test,
			pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
						   PFSEL_PROTO_TCP,
						   TEST_N_NAME_CLASSES, 0,
						   &rule),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			pfsel_policydb_decide_name(db, 2, PFSEL_OP_CONNECT,
						   PFSEL_PROTO_TCP, 1, 0, &rule),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
						   PFSEL_PROTO_TCP, 1, 3, &rule),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rule, 7);

	/* names: set where a cell of the application has name slabs. */
	pfsel_policydb_decide(db, 1, PFSEL_OP_CONNECT, PFSEL_PROTO_TCP, 0, 0,
			      &d);
	KUNIT_EXPECT_TRUE(test, d.names);
	KUNIT_EXPECT_EQ(test, d.rule, PFSEL_NONE);
	pfsel_policydb_decide(db, 1, PFSEL_OP_LISTEN, PFSEL_PROTO_TCP, 0, 1,
			      &d);
	KUNIT_EXPECT_FALSE(test, d.names);
	KUNIT_EXPECT_EQ(test, d.rule, 0);
	pfsel_policydb_decide(db, 1, PFSEL_OP_CONNECT, PFSEL_PROTO_UDP, 0, 1,
			      &d);
	KUNIT_EXPECT_FALSE(test, d.names);
	pfsel_policydb_decide(db, 0, PFSEL_OP_CONNECT, PFSEL_PROTO_TCP, 0, 1,
			      &d);
	KUNIT_EXPECT_FALSE(test, d.names);
	pfsel_policydb_free(db);
}

static void policydb_test_resolvers(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;

	test_build_blob(b, true);
	KUNIT_ASSERT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), 0);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_resolver(db, 1),
			PFSEL_RESOLVER_ANY_USER);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_resolver(db, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_resolver(db, 2), -ENOENT);
	pfsel_policydb_free(db);
	db = NULL;

	/* Unknown flags; an application class that does not exist. */
	put32(sec(b, PFSEL_SEC_RESOLVERS, 4), PFSEL_RESOLVER_MASK + 1);
	seal(b);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), -EINVAL);
	test_build_blob(b, true);
	put32(sec(b, PFSEL_SEC_RESOLVERS, 0), 2);
	seal(b);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), -EINVAL);
	/* The same resolvers in a user policy. */
	test_build_blob(b, true);
	put32(b->buf + 16, 0);
	put32(b->buf + 20, 1000);
	seal(b);
	KUNIT_EXPECT_EQ(test, pfsel_policydb_load(b->buf, b->len, &db), -EINVAL);
	KUNIT_EXPECT_NULL(test, db);
}

/* Each rule of FORMAT.md's sections 18-21, broken once. */
static void policydb_test_malformed_names(struct kunit *test)
{
	struct test_blob *b = new_blob(test);
	struct pfsel_policydb *db = NULL;
	u8 *www;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(test_name_mutations); i++) {
		const struct test_mutation *m = &test_name_mutations[i];

		put32(sec(b, m->id, m->at), m->value);
		seal(b);
		KUNIT_EXPECT_EQ_MSG(test,
				    pfsel_policydb_load(b->buf, b->len, &db),
				    -EINVAL, "%s", m->what);
		KUNIT_EXPECT_NULL(test, db);
		build_blob(b);
	}

	www = sec(b, PFSEL_SEC_STRINGS, TEST_WWW_AT);
	KUNIT_ASSERT_EQ(test, memcmp(www, "www.example.org", 15), 0);
	for (i = 0; i < ARRAY_SIZE(test_name_bytes); i++) {
		int err;

		www[test_name_bytes[i].at] = test_name_bytes[i].c;
		seal(b);
		err = pfsel_policydb_load(b->buf, b->len, &db);
		KUNIT_EXPECT_EQ_MSG(test, err,
				    test_name_bytes[i].valid ? 0 : -EINVAL,
				    "'%c' at %u", test_name_bytes[i].c,
				    test_name_bytes[i].at);
		if (!err)
			pfsel_policydb_free(db);
		db = NULL;
		build_blob(b);
	}
}

/*
 * The searches of the classes: pfsel_policydb_classify_addr() halves the
 * classes, an IPv4 address among the IPv4 ones only, and
 * pfsel_policydb_classify_port() the ports.  Each answer must be what the
 * definition says, the last class starting at or below the address or
 * port, found here by looking at every class in turn.
 */

#define TEST_SEARCH_CLASSES 160

/* The definition: the last class starting at or below @addr. */
static u32 addr_class_by_scan(const struct pfsel_policydb *db,
			      const u8 addr[16])
{
	u32 i, class = 0;

	for (i = 0; i < db->n_addrs; i++)
		if (memcmp(db->addrs[i].start, addr, 16) <= 0)
			class = i;
	return class;
}

static u32 port_class_by_scan(const struct pfsel_policydb *db, u16 port)
{
	u32 i, class = 0;

	for (i = 0; i < db->n_ports; i++)
		if (le16_to_cpu(db->ports[i].start) <= port)
			class = i;
	return class;
}

/* @addr plus @step (1 or -1), as a 128-bit number, wrapping. */
static void addr_step(u8 addr[16], const int step)
{
	int i;

	for (i = 15; i >= 0; i--) {
		addr[i] += step;
		if (addr[i] != (step > 0 ? 0 : 0xff))
			return;
	}
}

static int addr_order(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* ::ffff:@v4 */
static void v4_addr(u8 addr[16], const u32 v4)
{
	struct in6_addr mapped;

	ipv6_addr_set_v4mapped(htonl(v4), &mapped);
	memcpy(addr, &mapped, 16);
}

/*
 * A table of class starts: ::, @fixed (@n_fixed of them), and @n_random
 * more, IPv4 with @v4_percent percent chance and otherwise any IPv6
 * address, sorted, each once.
 */
static void make_addr_classes(struct pfsel_policydb *db,
			      struct pfsel_policy_addr *addrs,
			      const u8 (*fixed)[16], const u32 n_fixed,
			      const u32 n_random, const u32 v4_percent,
			      struct rnd_state *rnd)
{
	u32 i, n = 1;

	memset(addrs, 0, sizeof(*addrs) * (1 + n_fixed + n_random));
	for (i = 0; i < n_fixed; i++)
		memcpy(addrs[n++].start, fixed[i], 16);
	for (i = 0; i < n_random; i++, n++) {
		if (prandom_u32_state(rnd) % 100 < v4_percent)
			v4_addr(addrs[n].start, prandom_u32_state(rnd));
		else
			prandom_bytes_state(rnd, addrs[n].start, 16);
	}
	sort(addrs, n, sizeof(*addrs), addr_order, NULL);
	/* Each start once; :: stays first. */
	db->n_addrs = 1;
	for (i = 1; i < n; i++)
		if (memcmp(addrs[i].start, addrs[db->n_addrs - 1].start, 16))
			addrs[db->n_addrs++] = addrs[i];
	db->addrs = addrs;
	pfsel_policydb_index_addrs(db);
}

/* Whether the search gives @addr the class the scan gives; counts not. */
static u32 wrong_addr_class(struct kunit *test,
			    const struct pfsel_policydb *db, const u8 addr[16])
{
	const u32 want = addr_class_by_scan(db, addr);
	const u32 got = pfsel_policydb_classify_addr(db, addr);

	if (got == want)
		return 0;
	KUNIT_FAIL(test, "%pI6c: class %u, the scan says %u", addr, got, want);
	return 1;
}

/*
 * The edges (::, the first and last IPv4 address, all ones), the first,
 * second and last address of every class, and random IPv4, IPv4-mapped
 * and IPv6 addresses.
 */
static u32 wrong_addr_classes(struct kunit *test,
			      const struct pfsel_policydb *db,
			      struct rnd_state *rnd)
{
	u8 addr[16];
	u32 i, wrong = 0;

	memset(addr, 0, 16);
	wrong += wrong_addr_class(test, db, addr);
	v4_addr(addr, 0);
	wrong += wrong_addr_class(test, db, addr);
	v4_addr(addr, U32_MAX);
	wrong += wrong_addr_class(test, db, addr);
	memset(addr, 0xff, 16);
	wrong += wrong_addr_class(test, db, addr);
	for (i = 0; i < db->n_addrs; i++) {
		memcpy(addr, db->addrs[i].start, 16);
		wrong += wrong_addr_class(test, db, addr);
		addr_step(addr, 1);
		wrong += wrong_addr_class(test, db, addr);
		memcpy(addr, db->addrs[i].start, 16);
		addr_step(addr, -1);
		wrong += wrong_addr_class(test, db, addr);
	}
	for (i = 0; i < 4 * TEST_SEARCH_CLASSES; i++) {
		v4_addr(addr, prandom_u32_state(rnd));
		wrong += wrong_addr_class(test, db, addr);
		prandom_bytes_state(rnd, addr, 16);
		wrong += wrong_addr_class(test, db, addr);
	}
	return wrong;
}

static void policydb_test_classify_addr_search(struct kunit *test)
{
	/* Class starts on the edges of IPv4's /96 and right beside them. */
	static const u8 edges[][16] = {
		{ [10] = 0xff, [11] = 0xff },
		{ [10] = 0xff, [11] = 0xff, [15] = 1 },
		{ [10] = 0xff, [11] = 0xff, 0xff, 0xff, 0xff, 0xff },
		{ [10] = 0xff, [11] = 0xff, 0xff, 0xff, 0xff, 0xfe },
		{ [9] = 1 },
		{ [11] = 0x01 },
		{ [10] = 0xff, [11] = 0xfe, 0xff, 0xff, 0xff, 0xff },
		{ [15] = 1 },
	};
	/* One IPv4 class, 10.0.0.0, and IPv6 only. */
	static const u8 ten[][16] = { { [10] = 0xff, [11] = 0xff, 10 } };
	static const u8 v6[][16] = { { 0x20, 0x01, 0x0d, 0xb8 } };
	struct pfsel_policy_addr *addrs;
	struct pfsel_policydb db = {};
	struct rnd_state rnd;
	u32 wrong = 0, v4_percent;

	addrs = kunit_kcalloc(test, 1 + ARRAY_SIZE(edges) + TEST_SEARCH_CLASSES,
			      sizeof(*addrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, addrs);
	prandom_seed_state(&rnd, 30);

	/* Mostly IPv4, half and half, mostly IPv6; the edges or not. */
	for (v4_percent = 0; v4_percent <= 100; v4_percent += 25) {
		make_addr_classes(&db, addrs, edges, ARRAY_SIZE(edges),
				  TEST_SEARCH_CLASSES, v4_percent, &rnd);
		wrong += wrong_addr_classes(test, &db, &rnd);
		make_addr_classes(&db, addrs, NULL, 0, TEST_SEARCH_CLASSES,
				  v4_percent, &rnd);
		wrong += wrong_addr_classes(test, &db, &rnd);
	}
	/* Only ::; one IPv4 class; no IPv4 class. */
	make_addr_classes(&db, addrs, NULL, 0, 0, 0, &rnd);
	KUNIT_EXPECT_EQ(test, db.v4_first, db.v4_end);
	wrong += wrong_addr_classes(test, &db, &rnd);
	make_addr_classes(&db, addrs, ten, 1, 0, 0, &rnd);
	KUNIT_EXPECT_EQ(test, db.v4_first, 1);
	KUNIT_EXPECT_EQ(test, db.v4_end, 2);
	wrong += wrong_addr_classes(test, &db, &rnd);
	make_addr_classes(&db, addrs, v6, 1, 0, 0, &rnd);
	KUNIT_EXPECT_EQ(test, db.v4_first, db.v4_end);
	wrong += wrong_addr_classes(test, &db, &rnd);
	KUNIT_EXPECT_EQ(test, wrong, 0);
}

static int port_order(const void *a, const void *b)
{
	const struct pfsel_policy_port *pa = a, *pb = b;

	return (int)le16_to_cpu(pa->start) - (int)le16_to_cpu(pb->start);
}

static void policydb_test_classify_port_search(struct kunit *test)
{
	struct pfsel_policy_port *ports;
	struct pfsel_policydb db = {};
	struct rnd_state rnd;
	u32 n, i, round, wrong = 0;
	u16 port;

	ports = kunit_kcalloc(test, TEST_SEARCH_CLASSES + 1, sizeof(*ports),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ports);
	prandom_seed_state(&rnd, 30);
	db.ports = ports;
	/* 1, 2, 3 classes, then more, 65535 among the starts or not. */
	for (round = 0; round < 12; round++) {
		n = round < 3 ? round : TEST_SEARCH_CLASSES;
		ports[0].start = cpu_to_le16(0);
		for (i = 1; i <= n; i++) {
			port = round % 2 && i == n ? 65535 :
						     prandom_u32_state(&rnd);
			ports[i].start = cpu_to_le16(port);
		}
		sort(ports, n + 1, sizeof(*ports), port_order, NULL);
		db.n_ports = 1;
		for (i = 1; i <= n; i++)
			if (ports[i].start != ports[db.n_ports - 1].start)
				ports[db.n_ports++] = ports[i];
		for (i = 0; i < 3 * db.n_ports + 256; i++) {
			if (i < 3 * db.n_ports)
				port = le16_to_cpu(ports[i / 3].start) +
				       (int)(i % 3) - 1;
			else if (i < 3 * db.n_ports + 2)
				port = i % 2 ? 65535 : 0;
			else
				port = prandom_u32_state(&rnd);
			if (pfsel_policydb_classify_port(&db, port) ==
			    port_class_by_scan(&db, port))
				continue;
			KUNIT_FAIL(test, "port %u: class %u, the scan says %u",
				   port, pfsel_policydb_classify_port(&db, port),
				   port_class_by_scan(&db, port));
			wrong++;
		}
	}
	KUNIT_EXPECT_EQ(test, wrong, 0);
}

/*
 * Adversary read of wt-perf4 (the IPv4-only search): hand-made tables
 * whose classes sit at the very edges of IPv4-mapped space, where
 * [v4_first, v4_end) and the start v4_first - 1 must still give the
 * definition's answer: no IPv4 class at all, an IPv6 class starting just
 * below ::ffff:0:0 (::fffe:ffff:ffff) that covers the whole of IPv4, one
 * starting above it in ::/64 (::fffe:ffff:ffff:ffff), a class at
 * ::ffff:0.0.0.0 alone, one at ::ffff:255.255.255.255 alone, one
 * starting at ::1:0:0:0 right after IPv4, every class IPv4 (no IPv6 class
 * after it), a table of :: alone.  Each table is probed at IPv4's first
 * and last addresses, their neighbours, and the IPv6 addresses on either
 * side of ::ffff:0:0/96.
 */
static void policydb_test_classify_addr_v4_edges(struct kunit *test)
{
	static const char *const tables[][8] = {
		{ "::" },
		{ "::", "::ffff:0.0.0.0" },
		{ "::", "::ffff:255.255.255.255" },
		{ "::", "::fffe:ffff:ffff" },
		{ "::", "::fffe:ffff:ffff", "::1:0:0:0" },
		{ "::", "::fffe:ffff:ffff", "::fffe:ffff:ffff:ffff" },
		{ "::", "::1:0:0:0" },
		{ "::", "::ffff:0.0.0.0", "::ffff:0.0.0.1",
		  "::ffff:255.255.255.254", "::ffff:255.255.255.255",
		  "::1:0:0:0", "2001:db8::" },
		{ "::", "::ffff:0.0.0.1", "::ffff:128.0.0.0",
		  "::ffff:255.255.255.255" },
		{ "::", "::1", "::ffff:0.0.0.0", "::ffff:10.0.0.0",
		  "::ffff:10.0.1.0", "ffff::" },
		{ "::", "::fffe:0:0", "::ffff:127.0.0.1", "::1:0:0:1" },
	};
	static const char *const probes[] = {
		"::ffff:0.0.0.0", "::ffff:0.0.0.1", "::ffff:0.0.0.2",
		"::ffff:10.0.0.255", "::ffff:10.0.1.0", "::ffff:127.0.0.0",
		"::ffff:127.0.0.1", "::ffff:127.255.255.255",
		"::ffff:128.0.0.0", "::ffff:255.255.255.254",
		"::ffff:255.255.255.255", "::", "::1", "::fffe:ffff:ffff",
		"::fffe:ffff:ffff:ffff",
		"::fffe:0:0", "::ffff:0:0", "::1:0:0:0", "::1:0:0:1",
		"::0.0.0.1", "2001:db8::", "ffff::",
		"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	};
	struct pfsel_policy_addr addrs[8];
	struct pfsel_policydb db;
	u32 t, i, p, got, want, wrong = 0;
	u8 addr[16];

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		memset(&db, 0, sizeof(db));
		memset(addrs, 0, sizeof(addrs));
		for (i = 0; i < ARRAY_SIZE(tables[t]) && tables[t][i]; i++)
			KUNIT_ASSERT_EQ(test,
					in6_pton(tables[t][i], -1,
						 addrs[i].start, -1, NULL),
					1);
		/* A table the reader would take: starts increasing. */
		for (p = 1; p < i; p++)
			KUNIT_ASSERT_LT(test,
					memcmp(addrs[p - 1].start,
					       addrs[p].start, 16),
					0);
		db.addrs = addrs;
		db.n_addrs = i;
		pfsel_policydb_index_addrs(&db);
		KUNIT_EXPECT_GE(test, db.v4_first, 1);
		KUNIT_EXPECT_LE(test, db.v4_first, db.v4_end);
		KUNIT_EXPECT_LE(test, db.v4_end, db.n_addrs);
		for (p = 0; p < ARRAY_SIZE(probes); p++) {
			KUNIT_ASSERT_EQ(test,
					in6_pton(probes[p], -1, addr, -1, NULL),
					1);
			got = pfsel_policydb_classify_addr(&db, addr);
			want = addr_class_by_scan(&db, addr);
			if (got != want) {
				wrong++;
				kunit_info(test, "table %u, %s: %u, not %u",
					   t, probes[p], got, want);
			}
		}
	}
	KUNIT_EXPECT_EQ(test, wrong, 0);
}

static struct kunit_case policydb_test_cases[] = {
	KUNIT_CASE(policydb_test_valid),
	KUNIT_CASE(policydb_test_malformed),
	KUNIT_CASE(policydb_test_name_class),
	KUNIT_CASE(policydb_test_decide_name),
	KUNIT_CASE(policydb_test_resolvers),
	KUNIT_CASE(policydb_test_malformed_names),
	KUNIT_CASE(policydb_test_classify_addr_search),
	KUNIT_CASE(policydb_test_classify_addr_v4_edges),
	KUNIT_CASE(policydb_test_classify_port_search),
	{}
};

static struct kunit_suite policydb_test_suite = {
	.name = "pfsel_policydb",
	.test_cases = policydb_test_cases,
};

kunit_test_suite(policydb_test_suite);

MODULE_LICENSE("GPL");
