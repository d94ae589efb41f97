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
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

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

static struct kunit_case policydb_test_cases[] = {
	KUNIT_CASE(policydb_test_valid),
	KUNIT_CASE(policydb_test_malformed),
	KUNIT_CASE(policydb_test_name_class),
	KUNIT_CASE(policydb_test_decide_name),
	KUNIT_CASE(policydb_test_resolvers),
	KUNIT_CASE(policydb_test_malformed_names),
	{}
};

static struct kunit_suite policydb_test_suite = {
	.name = "pfsel_policydb",
	.test_cases = policydb_test_cases,
};

kunit_test_suite(policydb_test_suite);

MODULE_LICENSE("GPL");
