// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the policy reader (policydb.c)
 *
 * A small valid blob is built here by hand, section by section, without the
 * user-space compiler, so the kernel checks the format as FORMAT.md states
 * it.  Then the blob is broken in several ways, each of which must give its
 * errno and leave nothing behind.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "policydb.h"

#define TEST_BLOB_MAX 1024

/*
 * The policy: rule 0 "allow /usr/bin/curl connect tcp any port 443
 * protect", default deny.  Port classes 0-442, 443, 444-65535; address classes ::,
 * ::ffff:0:0, ::1:0:0:0; exe classes: curl (0), other (1); application
 * classes: none (0), curl (1), protected.
 */
struct test_blob {
	u8 buf[TEST_BLOB_MAX];
	size_t len;
	size_t sec_offset[PFSEL_SEC_COUNT];
};

static void put32(u8 *p, u32 v)
{
	__le32 le = cpu_to_le32(v);

	memcpy(p, &le, sizeof(le));
}

static void put16(u8 *p, u16 v)
{
	__le16 le = cpu_to_le16(v);

	memcpy(p, &le, sizeof(le));
}

/* Append a section of @count entries in @size bytes from @data. */
static void add_section(struct test_blob *b, u32 id, u32 count,
			const void *data, u32 size)
{
	u8 *ent = b->buf + sizeof(struct pfsel_policy_header) +
		  (id - PFSEL_SEC_FIRST) * sizeof(struct pfsel_policy_section);

	b->len = ALIGN(b->len, PFSEL_POLICY_ALIGN);
	put32(ent, id);
	put32(ent + 4, count);
	put32(ent + 8, b->len);
	put32(ent + 12, size);
	b->sec_offset[id - PFSEL_SEC_FIRST] = b->len;
	memcpy(b->buf + b->len, data, size);
	b->len += size;
}

static void seal(struct test_blob *b)
{
	put32(b->buf + 8, b->len);
	put32(b->buf + 12, 0);
	put32(b->buf + 12, pfsel_policydb_checksum(b->buf, b->len));
}

static void build_blob(struct test_blob *b)
{
	u32 w[32];
	u8 bytes[64];

	memset(b, 0, sizeof(*b));
	put32(b->buf, PFSEL_POLICY_MAGIC);
	put32(b->buf + 4, PFSEL_POLICY_VERSION);
	put32(b->buf + 20, 1000);
	put32(b->buf + 24, PFSEL_SEC_COUNT);
	b->len = sizeof(struct pfsel_policy_header) +
		 PFSEL_SEC_COUNT * sizeof(struct pfsel_policy_section);

	/* deny, no audit, no answer deny, 1000 ms, 1 script class, other 1/0 */
	memset(bytes, 0, sizeof(bytes));
	put32(bytes, PFSEL_VERDICT_DENY);
	put32(bytes + 8, PFSEL_VERDICT_DENY);
	put32(bytes + 12, 1000);
	put32(bytes + 16, 1);
	put32(bytes + 20, 1);
	add_section(b, PFSEL_SEC_SETTINGS, 1, bytes, 32);

	memset(bytes, 0, sizeof(bytes));
	put32(bytes, 5);
	memcpy(bytes + 4, "k.pfw", 5);
	put32(bytes + 12, 13);
	memcpy(bytes + 16, "/usr/bin/curl", 13);
	add_section(b, PFSEL_SEC_STRINGS, 2, bytes, 32);

	memset(bytes, 0, sizeof(bytes));
	bytes[0] = PFSEL_VERDICT_ALLOW;
	put32(bytes + 8, 3);
	put32(bytes + 12, 1);
	add_section(b, PFSEL_SEC_RULES, 1, bytes, 16);

	put16(bytes, 0);
	put16(bytes + 2, 443);
	put16(bytes + 4, 444);
	add_section(b, PFSEL_SEC_PORTS, 3, bytes, 6);

	memset(bytes, 0, sizeof(bytes));
	bytes[16 + 10] = 0xff;
	bytes[16 + 11] = 0xff;
	bytes[32 + 9] = 0x01;
	add_section(b, PFSEL_SEC_ADDRS, 3, bytes, 48);

	/* One row: port class 0 none, 1 rule 0, 2 none. */
	put32((u8 *)&w[0], 0);
	put32((u8 *)&w[1], PFSEL_NONE);
	put32((u8 *)&w[2], 1);
	put32((u8 *)&w[3], 0);
	put32((u8 *)&w[4], 2);
	put32((u8 *)&w[5], PFSEL_NONE);
	add_section(b, PFSEL_SEC_RUNS, 3, w, 24);
	put32((u8 *)&w[0], 0);
	put32((u8 *)&w[1], 3);
	add_section(b, PFSEL_SEC_ROWS, 1, w, 8);
	add_section(b, PFSEL_SEC_SLABS, 0, w, 0);

	memset(bytes, 0, sizeof(bytes));
	bytes[0] = PFSEL_OP_CONNECT;
	bytes[1] = PFSEL_PROTO_TCP;
	add_section(b, PFSEL_SEC_CELLS, 1, bytes, 16);
	put32((u8 *)&w[0], 0);
	put32((u8 *)&w[1], 1);
	add_section(b, PFSEL_SEC_GROUPS, 1, w, 8);
	put32((u8 *)&w[0], 0);
	add_section(b, PFSEL_SEC_GROUPLIST, 1, w, 4);
	put32((u8 *)&w[0], 0);
	put32((u8 *)&w[1], 0);
	put32((u8 *)&w[2], 0);
	put32((u8 *)&w[3], 1);
	add_section(b, PFSEL_SEC_APPS, 2, w, 16);
	add_section(b, PFSEL_SEC_PAIRS, 0, w, 0);

	memset(w, 0, sizeof(w));
	put32((u8 *)&w[0], 1);
	add_section(b, PFSEL_SEC_EXES, 2, w, 32);

	put32((u8 *)&w[0], 1);
	put32((u8 *)&w[1], PFSEL_PATH_EXACT);
	put32((u8 *)&w[2], 0);
	put32((u8 *)&w[3], PFSEL_NONE);
	put32((u8 *)&w[4], PFSEL_NONE);
	put32((u8 *)&w[5], 0);
	add_section(b, PFSEL_SEC_EXE_PATHS, 1, w, 24);
	add_section(b, PFSEL_SEC_SCRIPT_PATHS, 0, w, 0);
	put32((u8 *)&w[0], 1);
	add_section(b, PFSEL_SEC_PROTECTED, 1, w, 4);
	b->len = ALIGN(b->len, PFSEL_POLICY_ALIGN);
	seal(b);
}

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
	pfsel_policydb_free(db);
}

/* Offset of byte @at of section @id. */
static u8 *sec(struct test_blob *b, u32 id, size_t at)
{
	return b->buf + b->sec_offset[id - PFSEL_SEC_FIRST] + at;
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
	put32(sec(b, PFSEL_SEC_RUNS, 12), 1);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* Port classes out of order. */
	put16(sec(b, PFSEL_SEC_PORTS, 4), 443);
	seal(b);
	expect_refused(test, b, -EINVAL);
	/* An application class listing a group that does not exist. */
	put32(sec(b, PFSEL_SEC_GROUPLIST, 0), 1);
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

static struct kunit_case policydb_test_cases[] = {
	KUNIT_CASE(policydb_test_valid),
	KUNIT_CASE(policydb_test_malformed),
	{}
};

static struct kunit_suite policydb_test_suite = {
	.name = "pfsel_policydb",
	.test_cases = policydb_test_cases,
};

kunit_test_suite(policydb_test_suite);

MODULE_LICENSE("GPL");
