/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel - a small binary policy built by hand, for the policy reader's tests
 *
 * Shared by the KUnit tests (policydb_test.c) and the user-space unit test
 * (tests/unit/test_policydb.c, through compiler/kshim), so that both check
 * the reader against FORMAT.md as written rather than against what pfwc
 * happens to emit.  Section by section, with every value spelled out:
 *
 * Rules (file "k.pfw"), default deny:
 *   #0 allow /usr/bin/curl connect, listen tcp port 443      (line 3)
 *   #1 allow /usr/bin/curl connect tcp to host www.example.org
 *   #2 deny  /usr/bin/curl connect tcp to host *.example.org
 *   #3 ask   /usr/bin/curl connect tcp to host *.org port 443
 * with #0 protecting curl.
 *
 * Port classes 0-442, 443, 444-65535; address classes ::, ::ffff:0:0,
 * ::1:0:0:0; exe classes curl (0) and other (1); application classes none
 * (0, no groups) and curl (1, groups 0 and 1).
 *
 * Name classes: 0 none, 1 "www.example.org" (rules 1, 2, 3), 2 below
 * "example.org" (2, 3), 3 below "org" (3).  Group 0's connect cell has the
 * rules #0 (by port), #1 and #3 (by name); group 1's connect cell has #2
 * only; group 1's listen cell has #0 and no name slabs.
 *
 * With @system the blob is the system policy and names curl a resolver
 * "any user"; otherwise it is uid 1000's and has no resolvers.
 */
#ifndef _SECURITY_PFSEL_POLICYDB_TEST_BLOB_H
#define _SECURITY_PFSEL_POLICYDB_TEST_BLOB_H

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "policydb.h"

#define TEST_BLOB_MAX 2048

/* Name classes of the blob, as the comment above gives them. */
enum {
	TEST_NAME_NONE,
	TEST_NAME_WWW, /* www.example.org */
	TEST_NAME_EXAMPLE, /* *.example.org */
	TEST_NAME_ORG, /* *.org */
	TEST_N_NAME_CLASSES,
};

/* Where the builder put the entries the tests corrupt. */
enum {
	TEST_RULES = 4,
	TEST_NAME_SLABS = 6,
	TEST_NAME_PATTERN_WWW = 2, /* index in NAME_PATTERNS */
	TEST_STRING_WWW = 4, /* index in STRINGS */
};

struct test_blob {
	u8 buf[TEST_BLOB_MAX];
	size_t len;
	size_t sec_offset[PFSEL_SEC_COUNT];
};

static inline void test_put32(u8 *p, u32 v)
{
	__le32 le = cpu_to_le32(v);

	memcpy(p, &le, sizeof(le));
}

static inline void test_put16(u8 *p, u16 v)
{
	__le16 le = cpu_to_le16(v);

	memcpy(p, &le, sizeof(le));
}

static inline u32 test_get32(const u8 *p)
{
	__le32 le;

	memcpy(&le, p, sizeof(le));
	return le32_to_cpu(le);
}

/* Append a section of @count entries in @size bytes from @data. */
static inline void test_add_section(struct test_blob *b, u32 id, u32 count,
				    const void *data, u32 size)
{
	u8 *ent = b->buf + sizeof(struct pfsel_policy_header) +
		  (id - PFSEL_SEC_FIRST) * sizeof(struct pfsel_policy_section);

	b->len = ALIGN(b->len, PFSEL_POLICY_ALIGN);
	test_put32(ent, id);
	test_put32(ent + 4, count);
	test_put32(ent + 8, b->len);
	test_put32(ent + 12, size);
	b->sec_offset[id - PFSEL_SEC_FIRST] = b->len;
	memcpy(b->buf + b->len, data, size);
	b->len += size;
}

/* Byte @at of section @id. */
static inline u8 *test_sec(struct test_blob *b, u32 id, size_t at)
{
	return b->buf + b->sec_offset[id - PFSEL_SEC_FIRST] + at;
}

/* Set the total size and the checksum, after any change. */
static inline void test_seal(struct test_blob *b)
{
	test_put32(b->buf + 8, b->len);
	test_put32(b->buf + 12, 0);
	test_put32(b->buf + 12, pfsel_policydb_checksum(b->buf, b->len));
}

/* Store @n values into @w, little-endian. */
static inline void test_words(u32 *w, const u32 *values, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		test_put32((u8 *)&w[i], values[i]);
}

#define TEST_WORDS(w, ...)                          \
	test_words(w, (const u32[]){ __VA_ARGS__ }, \
		   sizeof((const u32[]){ __VA_ARGS__ }) / sizeof(u32))

/* A string table entry: length, bytes, zero padding to 4. */
static inline size_t test_string(u8 *p, const char *s)
{
	size_t len = strlen(s);

	test_put32(p, len);
	memcpy(p + 4, s, len);
	return 4 + ALIGN(len, 4u);
}

static inline void test_build_blob(struct test_blob *b, bool system)
{
	static const char *const strings[] = {
		"k.pfw", "/usr/bin/curl", "example.org", "org",
		"www.example.org",
	};
	const u32 none = PFSEL_NONE;
	u32 w[32];
	u8 bytes[128];
	size_t at, i;

	memset(b, 0, sizeof(*b));
	test_put32(b->buf, PFSEL_POLICY_MAGIC);
	test_put32(b->buf + 4, PFSEL_POLICY_VERSION);
	test_put32(b->buf + 16, system ? PFSEL_POLICY_F_SYSTEM : 0);
	test_put32(b->buf + 20, system ? 0 : 1000);
	test_put32(b->buf + 24, PFSEL_SEC_COUNT);
	b->len = sizeof(struct pfsel_policy_header) +
		 PFSEL_SEC_COUNT * sizeof(struct pfsel_policy_section);

	/* deny, no audit, no answer deny, 1000 ms, 1 script class, other 1/0 */
	memset(w, 0, sizeof(w));
	TEST_WORDS(w, PFSEL_VERDICT_DENY, 0, PFSEL_VERDICT_DENY, 1000, 1, 1, 0,
		   TEST_N_NAME_CLASSES);
	test_add_section(b, PFSEL_SEC_SETTINGS, 1, w, 32);

	memset(bytes, 0, sizeof(bytes));
	for (i = 0, at = 0; i < ARRAY_SIZE(strings); i++)
		at += test_string(bytes + at, strings[i]);
	test_add_section(b, PFSEL_SEC_STRINGS, ARRAY_SIZE(strings), bytes, at);

	memset(bytes, 0, sizeof(bytes));
	for (i = 0; i < TEST_RULES; i++) {
		static const u8 verdict[TEST_RULES] = {
			PFSEL_VERDICT_ALLOW, PFSEL_VERDICT_ALLOW,
			PFSEL_VERDICT_DENY, PFSEL_VERDICT_ASK
		};

		bytes[16 * i] = verdict[i];
		test_put32(bytes + 16 * i + 8, 3 + i); /* line */
		test_put32(bytes + 16 * i + 12, 1); /* column */
	}
	test_add_section(b, PFSEL_SEC_RULES, TEST_RULES, bytes,
			 16 * TEST_RULES);

	test_put16(bytes, 0);
	test_put16(bytes + 2, 443);
	test_put16(bytes + 4, 444);
	test_add_section(b, PFSEL_SEC_PORTS, 3, bytes, 6);

	memset(bytes, 0, sizeof(bytes));
	bytes[16 + 10] = 0xff;
	bytes[16 + 11] = 0xff;
	bytes[32 + 9] = 0x01;
	test_add_section(b, PFSEL_SEC_ADDRS, 3, bytes, 48);

	/*
	 * Runs (port class, rule) and the rows slicing them:
	 * row 0 = #0 at 443; row 1 = #1; row 2 = #2; row 3 = #3 at 443.
	 */
	TEST_WORDS(w, 0, none, 1, 0, 2, none, /* row 0 */
		   0, 1, /* row 1 */
		   0, 2, /* row 2 */
		   0, none, 1, 3, 2, none); /* row 3 */
	test_add_section(b, PFSEL_SEC_RUNS, 8, w, 64);
	TEST_WORDS(w, 0, 3, 3, 1, 4, 1, 5, 3);
	test_add_section(b, PFSEL_SEC_ROWS, 4, w, 32);
	test_add_section(b, PFSEL_SEC_SLABS, 0, w, 0);

	/* Cells: group 0 connect; group 1 connect, listen.  No addr slabs. */
	memset(bytes, 0, sizeof(bytes));
	bytes[0] = PFSEL_OP_CONNECT;
	test_put32(bytes + 4, 0);
	bytes[16] = PFSEL_OP_CONNECT;
	test_put32(bytes + 16 + 4, none);
	bytes[32] = PFSEL_OP_LISTEN;
	test_put32(bytes + 32 + 4, 0);
	test_add_section(b, PFSEL_SEC_CELLS, 3, bytes, 48);
	TEST_WORDS(w, 0, 1, 1, 2);
	test_add_section(b, PFSEL_SEC_GROUPS, 2, w, 16);
	TEST_WORDS(w, 0, 1);
	test_add_section(b, PFSEL_SEC_GROUPLIST, 2, w, 8);
	TEST_WORDS(w, 0, 0, 0, 2);
	test_add_section(b, PFSEL_SEC_APPS, 2, w, 16);
	test_add_section(b, PFSEL_SEC_PAIRS, 0, w, 0);

	memset(w, 0, sizeof(w));
	TEST_WORDS(w, 1);
	test_add_section(b, PFSEL_SEC_EXES, 2, w, 32);

	TEST_WORDS(w, 1, PFSEL_PATH_EXACT, 0, none, none, 0);
	test_add_section(b, PFSEL_SEC_EXE_PATHS, 1, w, 24);
	test_add_section(b, PFSEL_SEC_SCRIPT_PATHS, 0, w, 0);
	TEST_WORDS(w, 1);
	test_add_section(b, PFSEL_SEC_PROTECTED, 1, w, 4);

	/*
	 * Name slabs (start class, row): the connect cell of group 0 gives
	 * www row 1 (#1), the others row 3 (#3); that of group 1 gives www
	 * and *.example.org row 2 (#2), *.org nothing.
	 */
	TEST_WORDS(w, 0, none, TEST_NAME_WWW, 1, TEST_NAME_EXAMPLE, 3, /* c0 */
		   0, none, TEST_NAME_WWW, 2, TEST_NAME_ORG, none); /* c1 */
	test_add_section(b, PFSEL_SEC_NAME_SLABS, TEST_NAME_SLABS, w,
			 8 * TEST_NAME_SLABS);
	TEST_WORDS(w, 0, 3, 3, 3, 6, 0);
	test_add_section(b, PFSEL_SEC_NAME_CELLS, 3, w, 24);
	TEST_WORDS(w, 2, PFSEL_NAME_TREE, none, none, TEST_NAME_EXAMPLE, 0,
		   3, PFSEL_NAME_TREE, none, none, TEST_NAME_ORG, 0,
		   TEST_STRING_WWW, PFSEL_NAME_EXACT, TEST_NAME_WWW, none, none,
		   0);
	test_add_section(b, PFSEL_SEC_NAME_PATTERNS, 3, w, 72);
	TEST_WORDS(w, 1, PFSEL_RESOLVER_ANY_USER);
	test_add_section(b, PFSEL_SEC_RESOLVERS, system ? 1 : 0, w,
			 system ? 8 : 0);
	b->len = ALIGN(b->len, PFSEL_POLICY_ALIGN);
	test_seal(b);
}

/*
 * struct test_mutation - one way to break the host name part of the blob
 * @id: the section
 * @at: byte offset in it of the 32-bit field to overwrite
 * @value: the value written there
 * @what: the rule of FORMAT.md it breaks
 *
 * Each, applied alone to a fresh (user policy) blob and sealed, must make
 * the reader fail with -EINVAL.
 */
struct test_mutation {
	u32 id;
	u32 at;
	u32 value;
	const char *what;
};

static const struct test_mutation test_name_mutations[] = {
	{ PFSEL_SEC_SETTINGS, 28, 0, "no name class" },
	{ PFSEL_SEC_SETTINGS, 28, TEST_NAME_ORG, "classes in use missing" },
	{ PFSEL_SEC_NAME_SLABS, 8 + 4, 4, "name slab row out of range" },
	{ PFSEL_SEC_NAME_SLABS, 4, 0, "class 0 with a row" },
	{ PFSEL_SEC_NAME_SLABS, 0, 1, "slice not starting at class 0" },
	{ PFSEL_SEC_NAME_SLABS, 16, TEST_NAME_WWW, "starts not increasing" },
	{ PFSEL_SEC_NAME_CELLS, 8, 4, "slices with a gap" },
	{ PFSEL_SEC_NAME_CELLS, 12, 2, "slices not tiling" },
	{ PFSEL_SEC_NAME_CELLS, 20, 1, "slice past the end" },
	{ PFSEL_SEC_NAME_PATTERNS, 4, 0, "pattern without flags" },
	{ PFSEL_SEC_NAME_PATTERNS, 4, PFSEL_PATH_CHILD, "child pattern" },
	{ PFSEL_SEC_NAME_PATTERNS, 16, TEST_N_NAME_CLASSES,
	  "tree class out of range" },
	{ PFSEL_SEC_NAME_PATTERNS, 16, PFSEL_NONE, "tree flag, no class" },
	{ PFSEL_SEC_NAME_PATTERNS, 8, 0, "exact class without the flag" },
	{ PFSEL_SEC_NAME_PATTERNS, 12, 0, "child class" },
	{ PFSEL_SEC_NAME_PATTERNS, 20, 1, "reserved" },
	{ PFSEL_SEC_NAME_PATTERNS, 0, 3, "patterns not sorted" },
	{ PFSEL_SEC_NAME_PATTERNS, 0, 1, "a path, not a name" },
	{ PFSEL_SEC_NAME_PATTERNS, 0, 5, "string out of range" },
	{ PFSEL_SEC_NAME_PATTERNS, 48 + 8, TEST_N_NAME_CLASSES,
	  "exact class out of range" },
};

/*
 * Byte offset, in the STRINGS section, of "www.example.org"'s first byte:
 * after "k.pfw" (4 + 8), "/usr/bin/curl" (4 + 16), "example.org" (4 + 12),
 * "org" (4 + 4) and its own length.
 */
#define TEST_WWW_AT (12 + 20 + 16 + 8 + 4)

/*
 * Changes of one byte of "www.example.org" that keep the patterns sorted:
 * the reader must refuse all but the last, which leaves a valid name.
 */
static const struct {
	u8 at;
	char c;
	bool valid;
} test_name_bytes[] = {
	{ 4, 'E', false }, /* upper case */
	{ 14, '.', false }, /* a final dot */
	{ 14, '-', false }, /* a label ending in '-' */
	{ 4, '-', false }, /* a label starting with '-' */
	{ 4, '.', false }, /* an empty label */
	{ 4, '/', false }, /* not a name character */
	{ 4, ' ', false },
	{ 4, '_', true }, /* '_' is: "_dmarc.example.org" */
};

/* Names and the class the blob gives each (pfsel_policydb_name_class()). */
static const struct {
	const char *name;
	u32 class;
} test_name_classes[] = {
	{ "www.example.org", TEST_NAME_WWW },
	/* Below www: *.example.org is the deepest tree that holds it. */
	{ "a.www.example.org", TEST_NAME_EXAMPLE },
	{ "mail.example.org", TEST_NAME_EXAMPLE },
	{ "_dmarc.example.org", TEST_NAME_EXAMPLE },
	/* *.example.org is strictly below: the name itself is *.org's. */
	{ "example.org", TEST_NAME_ORG },
	{ "x.org", TEST_NAME_ORG },
	{ "a.b.c.org", TEST_NAME_ORG },
	{ "wwwexample.org", TEST_NAME_ORG },
	{ "www.example.org.uk", TEST_NAME_NONE },
	{ "org", TEST_NAME_NONE },
	{ "xorg", TEST_NAME_NONE },
	{ "example.com", TEST_NAME_NONE },
	/* Not valid names: class 0, whatever pattern they resemble. */
	{ "WWW.example.org", TEST_NAME_NONE },
	{ "www.example.org.", TEST_NAME_NONE },
	{ "a..example.org", TEST_NAME_NONE },
	{ ".example.org", TEST_NAME_NONE },
	{ "-a.example.org", TEST_NAME_NONE },
	{ "a-.example.org", TEST_NAME_NONE },
	{ "a b.example.org", TEST_NAME_NONE },
	{ "a/b.example.org", TEST_NAME_NONE },
	{ "\xc3\xa9.org", TEST_NAME_NONE },
	{ "", TEST_NAME_NONE },
};

/*
 * Requests by name class and the first rule pfsel_policydb_decide_name()
 * must find: the smallest over the groups of the application.
 */
static const struct {
	u32 app;
	u32 op;
	u32 class;
	u32 port_class;
	u32 rule;
} test_name_rules[] = {
	/* www: #1 in group 0, #2 in group 1: the first wins at any port. */
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_WWW, 0, 1 },
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_WWW, 1, 1 },
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_WWW, 2, 1 },
	/* *.example.org: #2 (group 1) before #3 (group 0, port 443 only). */
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_EXAMPLE, 0, 2 },
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_EXAMPLE, 1, 2 },
	/* *.org: #3 at 443, nothing elsewhere. */
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_ORG, 1, 3 },
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_ORG, 0, PFSEL_NONE },
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_ORG, 2, PFSEL_NONE },
	/* No name; a cell without names; no cell; no groups. */
	{ 1, PFSEL_OP_CONNECT, TEST_NAME_NONE, 1, PFSEL_NONE },
	{ 1, PFSEL_OP_LISTEN, TEST_NAME_WWW, 1, PFSEL_NONE },
	{ 1, PFSEL_OP_BIND, TEST_NAME_WWW, 1, PFSEL_NONE },
	{ 0, PFSEL_OP_CONNECT, TEST_NAME_WWW, 1, PFSEL_NONE },
};

#endif /* _SECURITY_PFSEL_POLICYDB_TEST_BLOB_H */
