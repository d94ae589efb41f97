// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the DNS answer parser (dns.c)
 *
 * The real answers below are what dnsmasq 2.90 sent for a test zone,
 * byte for byte.  The other messages are built here, record by record, to
 * break one rule each.  Every message is handed to the parser in a buffer
 * of exactly its length, so that KASAN reports any read past it.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dns.h"

/* clang-format off */
/* www.example.org A? -> A 192.0.2.1, TTL 300 */
static const u8 real_a[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'o', 'r',
	'g', 0, 0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 1,
};

/* www.example.org AAAA? -> AAAA 2001:db8::1, TTL 300 */
static const u8 real_aaaa[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'o', 'r',
	'g', 0, 0x00, 0x1c, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x1c, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x10,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
};

/* www.pfsel.test A? -> CNAME cdn.example.net, which has A 192.0.2.7 */
static const u8 real_cname[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
	3, 'w', 'w', 'w', 5, 'p', 'f', 's', 'e', 'l', 4, 't', 'e', 's', 't', 0,
	0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x11,
	3, 'c', 'd', 'n', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'n', 'e',
	't', 0,
	0xc0, 0x2c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 7,
};

/*
 * a.chain.test A? -> CNAME b.chain.test, CNAME c.chain.test, CNAME
 * www.example.org, which has A 192.0.2.1; each owner a pointer to the
 * name in the record before.
 */
static const u8 real_chain[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
	1, 'a', 5, 'c', 'h', 'a', 'i', 'n', 4, 't', 'e', 's', 't', 0,
	0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x0e,
	1, 'b', 5, 'c', 'h', 'a', 'i', 'n', 4, 't', 'e', 's', 't', 0,
	0xc0, 0x2a, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x0e,
	1, 'c', 5, 'c', 'h', 'a', 'i', 'n', 4, 't', 'e', 's', 't', 0,
	0xc0, 0x44, 0x00, 0x05, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x11,
	3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'o', 'r',
	'g', 0,
	0xc0, 0x5e, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 1,
};

/* multi.pfsel.test A? -> A 192.0.2.10, 192.0.2.12, 192.0.2.11 */
static const u8 real_multi[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
	5, 'm', 'u', 'l', 't', 'i', 5, 'p', 'f', 's', 'e', 'l', 4, 't', 'e',
	's', 't', 0, 0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 10,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 12,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 11,
};

/* WWW.Example.ORG A? -> A 192.0.2.1 (the question's case kept) */
static const u8 real_mixed_case[] = {
	0x12, 0x34, 0x85, 0x80, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	3, 'W', 'W', 'W', 7, 'E', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'O', 'R',
	'G', 0, 0x00, 0x01, 0x00, 0x01,
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x01, 0x2c, 0x00, 0x04,
	192, 0, 2, 1,
};

/* nope.pfsel.test A? -> NXDOMAIN */
static const u8 real_nxdomain[] = {
	0x12, 0x34, 0x81, 0x85, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	4, 'n', 'o', 'p', 'e', 5, 'p', 'f', 's', 'e', 'l', 4, 't', 'e', 's',
	't', 0, 0x00, 0x01, 0x00, 0x01,
};

/* clang-format on */

#define TYPE_A 1
#define TYPE_CNAME 5
#define TYPE_TXT 16
#define TYPE_AAAA 28
#define CLASS_IN 1
#define CLASS_CH 3
/* QR, RD, RA; opcode QUERY, RCODE NOERROR */
#define FLAGS_ANSWER 0x8180

/* A message under construction. */
struct test_msg {
	u8 buf[2048];
	size_t len;
};

/* Everything the parser reported. */
struct test_seen {
	unsigned int n;
	struct {
		char name[PFSEL_DNS_NAME_MAX + 1];
		u8 family;
		u8 addr[16];
		u32 ttl;
		bool asked;
	} b[40];
};

static void put(struct test_msg *m, const void *p, size_t n)
{
	/* The messages below are far smaller; a mistake truncates. */
	n = min(n, sizeof(m->buf) - m->len);
	memcpy(m->buf + m->len, p, n);
	m->len += n;
}

static void put8(struct test_msg *m, u8 v)
{
	put(m, &v, 1);
}

static void put16(struct test_msg *m, u16 v)
{
	put8(m, v >> 8);
	put8(m, v);
}

static void put32(struct test_msg *m, u32 v)
{
	put16(m, v >> 16);
	put16(m, v);
}

static void set16(struct test_msg *m, size_t at, u16 v)
{
	m->buf[at] = v >> 8;
	m->buf[at + 1] = v;
}

static u16 get16(const struct test_msg *m, size_t at)
{
	return m->buf[at] << 8 | m->buf[at + 1];
}

/* Write @name ("a.b.c", "" for the root) uncompressed; its offset. */
static u16 put_name(struct test_msg *m, const char *name)
{
	u16 at = m->len;

	while (*name) {
		size_t n = strchrnul(name, '.') - name;

		put8(m, n);
		put(m, name, n);
		name += n;
		if (*name)
			name++;
	}
	put8(m, 0);
	return at;
}

static void put_ptr(struct test_msg *m, u16 to)
{
	put16(m, 0xc000 | to);
}

/* A header with @flags, @qd questions and no records; no question yet. */
static void begin(struct test_msg *m, u16 flags, u16 qd)
{
	m->len = 0;
	put16(m, 0x1234);
	put16(m, flags);
	put16(m, qd);
	put16(m, 0);
	put16(m, 0);
	put16(m, 0);
}

/* An answer's header and its question for @name, type A: its offset. */
static u16 question(struct test_msg *m, const char *name)
{
	u16 at;

	begin(m, FLAGS_ANSWER, 1);
	at = put_name(m, name);
	put16(m, TYPE_A);
	put16(m, CLASS_IN);
	return at;
}

/*
 * The fixed part of an answer record whose owner was just written, with
 * RDATA of @rdlength bytes to follow; counts the record in ANCOUNT.
 */
static void rr(struct test_msg *m, u16 type, u16 class, u32 ttl, u16 rdlength)
{
	put16(m, type);
	put16(m, class);
	put32(m, ttl);
	put16(m, rdlength);
	set16(m, 6, get16(m, 6) + 1);
}

static void add_a(struct test_msg *m, u16 owner, u32 ttl, u32 v4)
{
	put_ptr(m, owner);
	rr(m, TYPE_A, CLASS_IN, ttl, 4);
	put32(m, v4);
}

static void add_aaaa(struct test_msg *m, u16 owner, u32 ttl, const u8 addr[16])
{
	put_ptr(m, owner);
	rr(m, TYPE_AAAA, CLASS_IN, ttl, 16);
	put(m, addr, 16);
}

/* @owner CNAME @target, @target uncompressed: its offset. */
static u16 add_cname(struct test_msg *m, u16 owner, u32 ttl, const char *target)
{
	size_t rdlength_at;
	u16 at;

	put_ptr(m, owner);
	rr(m, TYPE_CNAME, CLASS_IN, ttl, 0);
	rdlength_at = m->len - 2;
	at = put_name(m, target);
	set16(m, rdlength_at, m->len - at);
	return at;
}

static void msg_from(struct test_msg *m, const u8 *bytes, size_t len)
{
	m->len = 0;
	put(m, bytes, len);
}

static void collect(const struct pfsel_dns_binding *b, void *arg)
{
	struct test_seen *seen = arg;

	if (seen->n < ARRAY_SIZE(seen->b)) {
		strscpy(seen->b[seen->n].name, b->name,
			sizeof(seen->b[seen->n].name));
		seen->b[seen->n].family = b->family;
		memcpy(seen->b[seen->n].addr, b->addr, 16);
		seen->b[seen->n].ttl = b->ttl;
		seen->b[seen->n].asked = b->asked;
	}
	seen->n++;
}

/*
 * Parse the first @len bytes of @bytes from a buffer of exactly @len bytes
 * into @seen; check that what was reported is what was returned.
 */
static int parse_bytes(struct kunit *test, const u8 *bytes, size_t len,
		       struct test_seen *seen)
{
	u8 *copy = kmalloc(max_t(size_t, len, 1), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, bytes, len);
	memset(seen, 0, sizeof(*seen));
	ret = pfsel_dns_parse_answer(copy, len, collect, seen);
	kfree(copy);
	KUNIT_EXPECT_EQ(test, seen->n, ret > 0 ? (unsigned int)ret : 0);
	return ret;
}

static int parse(struct kunit *test, const struct test_msg *m,
		 struct test_seen *seen)
{
	return parse_bytes(test, m->buf, m->len, seen);
}

static void expect_v4(struct kunit *test, const struct test_seen *seen,
		      unsigned int i, const char *name, u32 v4, u32 ttl)
{
	u8 addr[16] = { [10] = 0xff, [11] = 0xff };

	addr[12] = v4 >> 24;
	addr[13] = v4 >> 16;
	addr[14] = v4 >> 8;
	addr[15] = v4;
	KUNIT_ASSERT_LT(test, i, seen->n);
	KUNIT_EXPECT_STREQ(test, seen->b[i].name, name);
	KUNIT_EXPECT_EQ(test, seen->b[i].family, PFSEL_FAMILY_INET);
	KUNIT_EXPECT_MEMEQ(test, seen->b[i].addr, addr, 16);
	KUNIT_EXPECT_EQ(test, seen->b[i].ttl, ttl);
}

static const u8 v6_doc1[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

static struct test_msg *new_msg(struct kunit *test)
{
	struct test_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	return m;
}

static struct test_seen *new_seen(struct kunit *test)
{
	struct test_seen *seen = kunit_kzalloc(test, sizeof(*seen), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, seen);
	return seen;
}

static void dns_test_real_addresses(struct kunit *test)
{
	struct test_seen *seen = new_seen(test);
	int ret;

	ret = parse_bytes(test, real_a, sizeof(real_a), seen);
	KUNIT_ASSERT_EQ(test, ret, 1);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 300);

	ret = parse_bytes(test, real_aaaa, sizeof(real_aaaa), seen);
	KUNIT_ASSERT_EQ(test, ret, 1);
	KUNIT_EXPECT_STREQ(test, seen->b[0].name, "www.example.org");
	KUNIT_EXPECT_EQ(test, seen->b[0].family, PFSEL_FAMILY_INET6);
	KUNIT_EXPECT_MEMEQ(test, seen->b[0].addr, v6_doc1, 16);
	KUNIT_EXPECT_EQ(test, seen->b[0].ttl, 300);

	ret = parse_bytes(test, real_multi, sizeof(real_multi), seen);
	KUNIT_ASSERT_EQ(test, ret, 3);
	expect_v4(test, seen, 0, "multi.pfsel.test", 0xc000020a, 300);
	expect_v4(test, seen, 1, "multi.pfsel.test", 0xc000020c, 300);
	expect_v4(test, seen, 2, "multi.pfsel.test", 0xc000020b, 300);
}

static void dns_test_real_aliases(struct kunit *test)
{
	struct test_seen *seen = new_seen(test);
	int ret;

	ret = parse_bytes(test, real_cname, sizeof(real_cname), seen);
	KUNIT_ASSERT_EQ(test, ret, 2);
	expect_v4(test, seen, 0, "www.pfsel.test", 0xc0000207, 300);
	expect_v4(test, seen, 1, "cdn.example.net", 0xc0000207, 300);

	ret = parse_bytes(test, real_chain, sizeof(real_chain), seen);
	KUNIT_ASSERT_EQ(test, ret, 4);
	expect_v4(test, seen, 0, "a.chain.test", 0xc0000201, 300);
	expect_v4(test, seen, 1, "b.chain.test", 0xc0000201, 300);
	expect_v4(test, seen, 2, "c.chain.test", 0xc0000201, 300);
	expect_v4(test, seen, 3, "www.example.org", 0xc0000201, 300);
}

/* Only the question's name is the one asked for; its aliases are not. */
static void dns_test_asked(struct kunit *test)
{
	struct test_seen *seen = new_seen(test);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, parse_bytes(test, real_a, sizeof(real_a), seen),
			1);
	KUNIT_EXPECT_TRUE(test, seen->b[0].asked);

	KUNIT_ASSERT_EQ(test,
			parse_bytes(test, real_cname, sizeof(real_cname), seen),
			2);
	KUNIT_EXPECT_STREQ(test, seen->b[0].name, "www.pfsel.test");
	KUNIT_EXPECT_TRUE(test, seen->b[0].asked);
	KUNIT_EXPECT_STREQ(test, seen->b[1].name, "cdn.example.net");
	KUNIT_EXPECT_FALSE(test, seen->b[1].asked);

	KUNIT_ASSERT_EQ(test,
			parse_bytes(test, real_chain, sizeof(real_chain), seen),
			4);
	KUNIT_EXPECT_TRUE(test, seen->b[0].asked);
	for (i = 1; i < 4; i++)
		KUNIT_EXPECT_FALSE(test, seen->b[i].asked);
}

/* Letters are folded in what is reported and in what is compared. */
static void dns_test_case_folded(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	int ret;

	ret = parse_bytes(test, real_mixed_case, sizeof(real_mixed_case), seen);
	KUNIT_ASSERT_EQ(test, ret, 1);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 300);

	/* Owners written out, each in its own case. */
	question(m, "WwW.Example.org");
	put_name(m, "www.EXAMPLE.ORG");
	rr(m, TYPE_CNAME, CLASS_IN, 60, 17);
	put_name(m, "CDN.example.NET");
	put_name(m, "cdn.Example.net");
	rr(m, TYPE_A, CLASS_IN, 60, 4);
	put32(m, 0xc0000202);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 2);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000202, 60);
	expect_v4(test, seen, 1, "cdn.example.net", 0xc0000202, 60);
}

/*
 * A chain of @links aliases n0.example -> n1.example -> ..., the last of
 * which has an address; link i has TTL @ttl[i], the address 500.
 */
static void build_chain(struct test_msg *m, unsigned int links, const u32 *ttl)
{
	char name[24];
	unsigned int i;
	u16 at;

	at = question(m, "n0.example");
	for (i = 0; i < links; i++) {
		snprintf(name, sizeof(name), "n%u.example", i + 1);
		at = add_cname(m, at, ttl[i], name);
	}
	add_a(m, at, 500, 0xc0000201);
}

static void dns_test_chain_lengths(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u32 ttl[PFSEL_DNS_MAX_LINKS + 1];
	unsigned int links, i, k;
	char name[24];

	/* Up and down, so that each name has its own smallest TTL. */
	for (i = 0; i < ARRAY_SIZE(ttl); i++)
		ttl[i] = i % 2 ? 100 + i : 1000 + i;

	for (links = 0; links <= PFSEL_DNS_MAX_LINKS; links++) {
		build_chain(m, links, ttl);
		KUNIT_ASSERT_EQ_MSG(test, parse(test, m, seen), links + 1,
				    "%u links", links);
		for (i = 0; i <= links; i++) {
			u32 want = 500;

			for (k = i; k < links; k++)
				want = min(want, ttl[k]);
			snprintf(name, sizeof(name), "n%u.example", i);
			expect_v4(test, seen, i, name, 0xc0000201, want);
		}
	}

	/* One link too many: the owner of the address is off the chain. */
	build_chain(m, PFSEL_DNS_MAX_LINKS + 1, ttl);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
}

static void dns_test_cname_loop(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 a, b, c;

	/* a -> b -> a: the chain is a, b. */
	a = question(m, "a.example");
	b = add_cname(m, a, 60, "b.example");
	add_cname(m, b, 60, "a.example");
	add_a(m, b, 60, 0xc0000202);
	add_a(m, a, 60, 0xc0000201);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 3);
	expect_v4(test, seen, 0, "a.example", 0xc0000202, 60);
	expect_v4(test, seen, 1, "a.example", 0xc0000201, 60);
	expect_v4(test, seen, 2, "b.example", 0xc0000202, 60);

	/* a -> a */
	a = question(m, "a.example");
	add_cname(m, a, 60, "A.example");
	add_a(m, a, 60, 0xc0000201);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 1);
	expect_v4(test, seen, 0, "a.example", 0xc0000201, 60);

	/* Two aliases for one name: the first is followed. */
	a = question(m, "a.example");
	b = add_cname(m, a, 60, "b.example");
	c = add_cname(m, a, 60, "c.example");
	add_a(m, c, 60, 0xc0000203);
	add_a(m, b, 60, 0xc0000202);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 2);
	expect_v4(test, seen, 0, "a.example", 0xc0000202, 60);
	expect_v4(test, seen, 1, "b.example", 0xc0000202, 60);
}

static void dns_test_ttl(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 a, b;

	/* RFC 2181: a TTL with its top bit set is 0, wherever it is. */
	a = question(m, "a.example");
	b = add_cname(m, a, 0x80000005, "b.example");
	add_a(m, b, 0x7fffffff, 0xc0000201);
	add_a(m, a, 0xffffffff, 0xc0000202);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 3);
	expect_v4(test, seen, 0, "a.example", 0xc0000201, 0);
	expect_v4(test, seen, 1, "a.example", 0xc0000202, 0);
	expect_v4(test, seen, 2, "b.example", 0xc0000201, 0x7fffffff);
}

/*
 * An answer with the question's address owned through @hops pointers: a
 * TXT record (not read) holds a ladder of pointers back to the question.
 */
static void build_hops(struct test_msg *m, unsigned int hops)
{
	u16 q = question(m, "www.example.org"), prev = q;
	unsigned int i;

	put_ptr(m, q);
	rr(m, TYPE_TXT, CLASS_IN, 60, 2 * (hops - 1));
	for (i = 0; i + 1 < hops; i++) {
		u16 at = m->len;

		put_ptr(m, prev);
		prev = at;
	}
	add_a(m, prev, 60, 0xc0000201);
}

static void dns_test_compression_loops(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 q, first;

	/* The question's name is a pointer to itself. */
	begin(m, FLAGS_ANSWER, 1);
	put_ptr(m, 12);
	put16(m, TYPE_A);
	put16(m, CLASS_IN);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* A name that points back to its own start: a.a.a.a... */
	begin(m, FLAGS_ANSWER, 1);
	put8(m, 1);
	put8(m, 'a');
	put_ptr(m, 12);
	put16(m, TYPE_A);
	put16(m, CLASS_IN);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* An owner that points to a later offset. */
	q = question(m, "www.example.org");
	put_ptr(m, m->len + 16);
	rr(m, TYPE_A, CLASS_IN, 60, 4);
	put32(m, 0xc0000201);
	add_a(m, q, 60, 0xc0000202);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* Two owners pointing at each other. */
	q = question(m, "www.example.org");
	first = m->len;
	put_ptr(m, first + 16);
	rr(m, TYPE_A, CLASS_IN, 60, 4);
	put32(m, 0xc0000201);
	add_a(m, first, 60, 0xc0000202);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* A pointer into the header. */
	question(m, "www.example.org");
	add_a(m, 4, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* 16 pointers in a name are followed; 17 are not. */
	build_hops(m, 16);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 1);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 60);
	build_hops(m, 17);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
}

/* Every proper prefix of a sound answer is refused, and read in bounds. */
static void dns_test_truncated(struct kunit *test)
{
	static const struct {
		const u8 *bytes;
		size_t len;
	} answers[] = {
		{ real_a, sizeof(real_a) },
		{ real_aaaa, sizeof(real_aaaa) },
		{ real_cname, sizeof(real_cname) },
		{ real_chain, sizeof(real_chain) },
		{ real_multi, sizeof(real_multi) },
	};
	struct test_seen *seen = new_seen(test);
	unsigned int i;
	size_t len;
	int ret;

	for (i = 0; i < ARRAY_SIZE(answers); i++) {
		for (len = 0; len < answers[i].len; len++) {
			ret = parse_bytes(test, answers[i].bytes, len, seen);
			KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
					    "answer %u cut at %zu", i, len);
			KUNIT_EXPECT_EQ(test, seen->n, 0);
		}
		ret = parse_bytes(test, answers[i].bytes, len, seen);
		KUNIT_EXPECT_GT(test, ret, 0);
	}
}

static void dns_test_counts(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);

	/* More answers claimed than the bytes hold. */
	msg_from(m, real_a, sizeof(real_a));
	set16(m, 6, 2);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
	set16(m, 6, 0xffff);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
	/* Fewer: the rest is not the answer section, and not read. */
	set16(m, 6, 0);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);

	/* Exactly one question. */
	msg_from(m, real_a, sizeof(real_a));
	set16(m, 4, 0);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
	set16(m, 4, 2);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* A short header. */
	KUNIT_EXPECT_EQ(test, parse_bytes(test, real_a, 11, seen), -EINVAL);
}

/* The first PFSEL_DNS_MAX_RECORDS address and alias records count. */
static void dns_test_record_limit(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	unsigned int i;
	u16 q, other;

	q = question(m, "www.example.org");
	for (i = 0; i < PFSEL_DNS_MAX_RECORDS + 8; i++)
		add_a(m, q, 60, 0xc0000200 + i);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), PFSEL_DNS_MAX_RECORDS);
	for (i = 0; i < PFSEL_DNS_MAX_RECORDS; i++)
		expect_v4(test, seen, i, "www.example.org", 0xc0000200 + i, 60);

	/* Records past the table must still fit. */
	set16(m, 6, get16(m, 6) + 1);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* The table full of other names: the question's address is past it. */
	q = question(m, "www.example.org");
	other = put_name(m, "other.example");
	rr(m, TYPE_A, CLASS_IN, 60, 4);
	put32(m, 0xc0000263);
	for (i = 1; i < PFSEL_DNS_MAX_RECORDS; i++)
		add_a(m, other, 60, 0xc0000263);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
}

static void dns_test_rdlength(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 q;

	/* A with 3 and 5 bytes, AAAA with 4, for the question's name. */
	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_A, CLASS_IN, 60, 3);
	put(m, "\xc0\x00\x02", 3);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_A, CLASS_IN, 60, 5);
	put(m, "\xc0\x00\x02\x01\x00", 5);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_AAAA, CLASS_IN, 60, 4);
	put32(m, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* A broken record of another name breaks the message too. */
	q = question(m, "www.example.org");
	add_a(m, q, 60, 0xc0000201);
	put_name(m, "other.example");
	rr(m, TYPE_A, CLASS_IN, 60, 5);
	put(m, "\xc0\x00\x02\x01\x00", 5);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* RDATA past the end of the message. */
	msg_from(m, real_a, sizeof(real_a));
	set16(m, m->len - 6, 5);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* CNAME RDATA with a byte after the name. */
	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_CNAME, CLASS_IN, 60, 6);
	put(m, "\003cdn\000\000", 6);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/*
	 * CNAME RDATA that ends inside its name: "\x03cdn", whose name
	 * goes on with the pointer that starts the next record.
	 */
	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_CNAME, CLASS_IN, 60, 4);
	put(m, "\003cdn", 4);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
}

static void dns_test_unrelated_names(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 q;

	/* An address for another name, alone and beside the answer. */
	q = question(m, "www.example.org");
	put_name(m, "evil.example.net");
	rr(m, TYPE_A, CLASS_IN, 60, 4);
	put32(m, 0xc0000266);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 1);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 60);

	/* Another name aliased to the question's does not learn. */
	q = question(m, "www.example.org");
	put_name(m, "other.example");
	rr(m, TYPE_CNAME, CLASS_IN, 60, 2);
	put_ptr(m, q);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 1);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 60);

	/* Glue in the additional section is not an answer. */
	q = question(m, "www.example.org");
	add_a(m, q, 60, 0xc0000201);
	set16(m, 6, 0);
	set16(m, 10, 1);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);

	/* An address of another class. */
	q = question(m, "www.example.org");
	put_ptr(m, q);
	rr(m, TYPE_A, CLASS_CH, 60, 5);
	put(m, "\xc0\x00\x02\x01\x00", 5);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
}

static void dns_test_not_answers(struct kunit *test)
{
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 q;

	KUNIT_EXPECT_EQ(test,
			parse_bytes(test, real_nxdomain, sizeof(real_nxdomain),
				    seen),
			-ENODATA);

	/* The flags of a query, STATUS, NXDOMAIN, SERVFAIL, truncated. */
	msg_from(m, real_a, sizeof(real_a));
	set16(m, 2, 0x0100);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	set16(m, 2, FLAGS_ANSWER | 2 << 11);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	set16(m, 2, FLAGS_ANSWER | 3);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	set16(m, 2, FLAGS_ANSWER | 2);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	set16(m, 2, FLAGS_ANSWER | 0x0200);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	/* The other flags (AA, AD, CD) do not matter. */
	set16(m, 2, FLAGS_ANSWER | 0x0430);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), 1);

	/* A question of class CH, and one for the root. */
	msg_from(m, real_a, sizeof(real_a));
	set16(m, 31, CLASS_CH);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
	q = question(m, "");
	add_a(m, q, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -ENODATA);
}

/* A label's bytes: in the question, refused; in a record, ignored. */
static void dns_test_labels(struct kunit *test)
{
	static const char *const odd[] = { "a.b", "a b", "a\x7f", "a\x01",
					   "a\xc3\xa9" };
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	char name[PFSEL_DNS_NAME_MAX + 2];
	unsigned int i;
	u16 q, owner;

	for (i = 0; i < ARRAY_SIZE(odd); i++) {
		begin(m, FLAGS_ANSWER, 1);
		put8(m, strlen(odd[i]));
		put(m, odd[i], strlen(odd[i]));
		put_name(m, "example");
		put16(m, TYPE_A);
		put16(m, CLASS_IN);
		add_a(m, 12, 60, 0xc0000201);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, m, seen), -EINVAL,
				    "label %u", i);

		/* As the owner of an address, or an alias's name. */
		q = question(m, "www.example.org");
		owner = m->len;
		put8(m, strlen(odd[i]));
		put(m, odd[i], strlen(odd[i]));
		put_ptr(m, q);
		rr(m, TYPE_A, CLASS_IN, 60, 4);
		put32(m, 0xc0000266);
		add_a(m, q, 60, 0xc0000201);
		KUNIT_ASSERT_EQ_MSG(test, parse(test, m, seen), 1, "label %u",
				    i);
		expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 60);

		q = question(m, "www.example.org");
		put_ptr(m, q);
		rr(m, TYPE_CNAME, CLASS_IN, 60, 1 + strlen(odd[i]) + 2);
		owner = m->len;
		put8(m, strlen(odd[i]));
		put(m, odd[i], strlen(odd[i]));
		put_ptr(m, q);
		add_a(m, owner, 60, 0xc0000266);
		KUNIT_EXPECT_EQ_MSG(test, parse(test, m, seen), -ENODATA,
				    "label %u", i);
	}

	/* Label kinds 01 and 10 (RFC 6891 retired them). */
	msg_from(m, real_a, sizeof(real_a));
	m->buf[12] = 0x40;
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
	m->buf[12] = 0x80;
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);

	/* 253 characters (63.63.63.61), and 254. */
	memset(name, 'x', sizeof(name));
	name[63] = '.';
	name[127] = '.';
	name[191] = '.';
	name[PFSEL_DNS_NAME_MAX] = '\0';
	q = question(m, name);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 1);
	expect_v4(test, seen, 0, name, 0xc0000201, 60);
	name[PFSEL_DNS_NAME_MAX] = 'x';
	name[PFSEL_DNS_NAME_MAX + 1] = '\0';
	q = question(m, name);
	add_a(m, q, 60, 0xc0000201);
	KUNIT_EXPECT_EQ(test, parse(test, m, seen), -EINVAL);
}

static void dns_test_mapped_aaaa(struct kunit *test)
{
	static const u8 mapped[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 };
	struct test_msg *m = new_msg(test);
	struct test_seen *seen = new_seen(test);
	u16 q;

	/* The policy sees ::ffff:192.0.2.1 as 192.0.2.1, so does this. */
	q = question(m, "www.example.org");
	add_aaaa(m, q, 60, mapped);
	add_aaaa(m, q, 60, v6_doc1);
	KUNIT_ASSERT_EQ(test, parse(test, m, seen), 2);
	expect_v4(test, seen, 0, "www.example.org", 0xc0000201, 60);
	KUNIT_EXPECT_EQ(test, seen->b[1].family, PFSEL_FAMILY_INET6);
	KUNIT_EXPECT_MEMEQ(test, seen->b[1].addr, v6_doc1, 16);
}

static struct kunit_case dns_test_cases[] = {
	KUNIT_CASE(dns_test_real_addresses),
	KUNIT_CASE(dns_test_real_aliases),
	KUNIT_CASE(dns_test_asked),
	KUNIT_CASE(dns_test_case_folded),
	KUNIT_CASE(dns_test_chain_lengths),
	KUNIT_CASE(dns_test_cname_loop),
	KUNIT_CASE(dns_test_ttl),
	KUNIT_CASE(dns_test_compression_loops),
	KUNIT_CASE(dns_test_truncated),
	KUNIT_CASE(dns_test_counts),
	KUNIT_CASE(dns_test_record_limit),
	KUNIT_CASE(dns_test_rdlength),
	KUNIT_CASE(dns_test_unrelated_names),
	KUNIT_CASE(dns_test_not_answers),
	KUNIT_CASE(dns_test_labels),
	KUNIT_CASE(dns_test_mapped_aaaa),
	{}
};

static struct kunit_suite dns_test_suite = {
	.name = "pfsel_dns",
	.test_cases = dns_test_cases,
};

kunit_test_suite(dns_test_suite);

MODULE_LICENSE("GPL");
