// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of security/pfsel/policydb.c built for user space: a valid
 * blob round-trips, every malformed header and section is refused with its
 * exact errno and nothing leaked (the test runs under ASan), classification
 * is right at class boundaries, and IPv4 equals IPv4-mapped IPv6.
 *
 * pfwc-test-sources: tests/differential/generate.c tests/differential/reference.c
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "generate.h"
#include "policydb.h"
#include "policydb_test_blob.h"

/* ---- a small hand-written policy ---- */

static char file_name[] = "t.pfw";

static struct pfw_app app_of(enum pfw_path_kind kind, const char *path)
{
	struct pfw_app app = { .exe = { kind, path ? strdup(path) : NULL } };

	return app;
}

static void add_rule(struct pfw_policy *p, enum pfw_verdict v, uint32_t ops,
		     uint32_t protos, struct pfw_app app, const char *cidr4,
		     int prefix, int first_port, int last_port)
{
	struct pfw_rule *r;

	p->rules = realloc(p->rules, (p->n_rules + 1) * sizeof(*p->rules));
	r = &p->rules[p->n_rules];
	memset(r, 0, sizeof(*r));
	r->loc = (struct pfw_loc){ file_name, 10 + p->n_rules, 1 };
	r->index = p->n_rules++;
	r->verdict = v;
	r->ops = ops;
	r->protos = protos;
	r->families = PFW_FAMILY_ALL;
	r->apps = calloc(1, sizeof(*r->apps));
	r->apps[0] = app;
	r->n_apps = 1;
	r->shadowed_by = -1;
	r->any_addr = !cidr4;
	if (cidr4) {
		r->addrs = calloc(1, sizeof(*r->addrs));
		pfw_parse_addr(cidr4, r->addrs[0].addr);
		r->addrs[0].prefix_len = prefix;
		r->n_addrs = 1;
	}
	r->any_port = first_port < 0;
	if (first_port >= 0) {
		r->ports = calloc(1, sizeof(*r->ports));
		r->ports[0] = (struct pfw_port_range){ first_port, last_port };
		r->n_ports = 1;
	}
}

/*
 * #0 allow /usr/bin/curl connect tcp 10.0.0.0/8 port 80-443 protect
 * #1 deny  * connect tcp 10.1.0.0/16
 * #2 ask   /usr/bin/(**) connect tcp,udp any port 53 protect
 * #3 allow * create tcp
 *
 * Protected: the classes of curl and of the tree; the unnamed class not.
 */
static struct pfw_policy *small_policy(void)
{
	struct pfw_policy *p = calloc(1, sizeof(*p));

	p->files = calloc(1, sizeof(*p->files));
	p->files[0] = strdup(file_name);
	p->n_files = 1;
	p->settings.default_verdict = PFW_VERDICT_DENY;
	p->settings.default_audit = PFW_AUDIT_QUIET_DENIAL;
	p->settings.ask_timeout_ms = 1500;
	p->settings.no_answer = PFW_VERDICT_ALLOW;
	p->settings.uid = 1000;
	add_rule(p, PFW_VERDICT_ALLOW, PFW_OP_CONNECT, PFW_PROTO_TCP,
		 app_of(PFW_PATH_EXACT, "/usr/bin/curl"), "10.0.0.0", 104,
		 80, 443);
	add_rule(p, PFW_VERDICT_DENY, PFW_OP_CONNECT, PFW_PROTO_TCP,
		 app_of(PFW_PATH_ANY, NULL), "10.1.0.0", 112, -1, -1);
	add_rule(p, PFW_VERDICT_ASK, PFW_OP_CONNECT,
		 PFW_PROTO_TCP | PFW_PROTO_UDP, app_of(PFW_PATH_TREE, "/usr/bin"),
		 NULL, 0, 53, 53);
	add_rule(p, PFW_VERDICT_ALLOW, PFW_OP_CREATE, PFW_PROTO_TCP,
		 app_of(PFW_PATH_ANY, NULL), NULL, 0, -1, -1);
	p->rules[0].protect = true;
	p->rules[2].protect = true;
	return p;
}

struct blob {
	uint8_t *buf;
	size_t len;
};

static int setup_blob(void **state)
{
	struct pfw_policy *p = small_policy();
	struct blob *b = calloc(1, sizeof(*b));

	assert_int_equal(pfw_compile_pfsel(p, &b->buf, &b->len), 0);
	pfw_policy_free(p);
	*state = b;
	return 0;
}

static int teardown_blob(void **state)
{
	struct blob *b = *state;

	free(b->buf);
	free(b);
	return 0;
}

/* ---- helpers to corrupt a copy ---- */

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void fix_checksum(uint8_t *buf, size_t len)
{
	set32(buf + 12, pfsel_policydb_checksum(buf, len));
}

/* Byte offset of field @field (bytes) of entry @i of section @id. */
static uint8_t *sec_at(uint8_t *buf, uint32_t id, size_t i, size_t esize,
		       size_t field)
{
	const uint8_t *ent = buf + 32 + 16 * (id - PFSEL_SEC_FIRST);

	return buf + get32(ent + 8) + i * esize + field;
}

static size_t sec_end(const uint8_t *buf, uint32_t id)
{
	const uint8_t *ent = buf + 32 + 16 * (id - PFSEL_SEC_FIRST);

	return get32(ent + 8) + get32(ent + 12);
}

static uint32_t sec_count(const uint8_t *buf, uint32_t id)
{
	return get32(buf + 32 + 16 * (id - PFSEL_SEC_FIRST) + 4);
}

static int load_copy(const uint8_t *buf, size_t len)
{
	struct pfsel_policydb *db = (void *)0x1;
	int err = pfsel_policydb_load(buf, len, &db);

	if (!err)
		pfsel_policydb_free(db);
	else
		assert_ptr_equal(db, (void *)0x1); /* untouched on error */
	return err;
}

/* Apply @mutate to a copy, fix the checksum, expect @err. */
#define EXPECT_MUTATION(b, err, ...)                                    \
	do {                                                            \
		uint8_t *c = malloc((b)->len);                          \
		memcpy(c, (b)->buf, (b)->len);                          \
		__VA_ARGS__;                                            \
		fix_checksum(c, (b)->len);                              \
		assert_int_equal(load_copy(c, (b)->len), (err));        \
		free(c);                                                \
	} while (0)

/* ---- tests ---- */

static void test_round_trip(void **state)
{
	struct blob *b = *state;
	struct pfsel_policydb *db;
	struct pfsel_decision d;
	struct pfsel_string file;
	uint8_t a[16];
	uint32_t line, col;

	assert_int_equal(pfsel_policydb_load(b->buf, b->len, &db), 0);
	assert_int_equal(pfsel_policydb_default_verdict(db), PFSEL_VERDICT_DENY);
	assert_int_equal(pfsel_policydb_no_answer(db), PFSEL_VERDICT_ALLOW);
	assert_int_equal(pfsel_policydb_ask_timeout_ms(db), 1500);
	assert_int_equal(db->uid, 1000);
	assert_int_equal(db->n_rules, 4);

	pfw_parse_addr("10.1.2.3", a);
	pfw_policydb_request(db, "/usr/bin/curl", NULL, PFSEL_OP_CONNECT,
			     PFSEL_PROTO_TCP, 0, a, 443, &d);
	assert_int_equal(d.rule, 0);
	assert_int_equal(d.verdict, PFSEL_VERDICT_ALLOW);
	assert_int_equal(pfsel_policydb_rule_source(db, d.rule, &file, &line,
						    &col), 0);
	assert_int_equal(file.len, strlen(file_name));
	assert_memory_equal(file.s, file_name, file.len);
	assert_int_equal(line, 10);

	pfw_policydb_request(db, "/usr/bin/curl", NULL, PFSEL_OP_CONNECT,
			     PFSEL_PROTO_TCP, 0, a, 444, &d);
	assert_int_equal(d.rule, 1);
	assert_int_equal(d.verdict, PFSEL_VERDICT_DENY);

	pfw_parse_addr("192.0.2.1", a);
	pfw_policydb_request(db, "/usr/bin/sub/dig", NULL, PFSEL_OP_CONNECT,
			     PFSEL_PROTO_UDP, 0, a, 53, &d);
	assert_int_equal(d.rule, 2);
	assert_int_equal(d.verdict, PFSEL_VERDICT_ASK);
	pfw_policydb_request(db, "/usr/sbin/dig", NULL, PFSEL_OP_CONNECT,
			     PFSEL_PROTO_UDP, 0, a, 53, &d);
	assert_int_equal(d.rule, PFSEL_NONE);
	assert_int_equal(d.verdict, PFSEL_VERDICT_DENY);
	assert_int_equal(d.audit, PFSEL_AUDIT_QUIET_DENIAL);
	assert_int_equal(pfsel_policydb_rule_source(db, d.rule, &file, &line,
						    &col), -ENOENT);

	pfw_policydb_request(db, "/x", NULL, PFSEL_OP_CREATE, PFSEL_PROTO_TCP,
			     PFSEL_FAMILY_INET6, a, 0, &d);
	assert_int_equal(d.rule, 3);

	/* Out-of-range arguments. */
	assert_int_equal(pfsel_policydb_decide(db, db->n_apps, 0, 0, 0, 0, &d),
			 -EINVAL);
	assert_int_equal(pfsel_policydb_decide(db, 0, PFSEL_OP_COUNT, 0, 0, 0,
					       &d), -EINVAL);
	assert_int_equal(pfsel_policydb_decide(db, 0, 0, PFSEL_PROTO_COUNT, 0,
					       0, &d), -EINVAL);
	assert_int_equal(pfsel_policydb_decide(db, 0, 0, 0, db->n_addrs, 0,
					       &d), -EINVAL);
	assert_int_equal(pfsel_policydb_decide(db, 0, 0, 0, 0, db->n_ports,
					       &d), -EINVAL);
	pfsel_policydb_free(db);
	pfsel_policydb_free(NULL);
}

static void test_classify_boundaries(void **state)
{
	struct blob *b = *state;
	struct pfsel_policydb *db;
	uint8_t a[16], m[16];

	assert_int_equal(pfsel_policydb_load(b->buf, b->len, &db), 0);
	/* Ports 53, 80-443: classes start at 0, 53, 54, 80, 444. */
	assert_int_equal(db->n_ports, 5);
	assert_int_equal(pfsel_policydb_classify_port(db, 0), 0);
	assert_int_equal(pfsel_policydb_classify_port(db, 52), 0);
	assert_int_equal(pfsel_policydb_classify_port(db, 53), 1);
	assert_int_equal(pfsel_policydb_classify_port(db, 54), 2);
	assert_int_equal(pfsel_policydb_classify_port(db, 79), 2);
	assert_int_equal(pfsel_policydb_classify_port(db, 80), 3);
	assert_int_equal(pfsel_policydb_classify_port(db, 443), 3);
	assert_int_equal(pfsel_policydb_classify_port(db, 444), 4);
	assert_int_equal(pfsel_policydb_classify_port(db, 65535), 4);

	/* Addresses: ::, ::ffff:0.0.0.0, 10/8, 10.1/16, 10.2.0.0, 11/8 .. */
	pfw_parse_addr("::", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 0);
	pfw_parse_addr("::fffe:ffff:ffff", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 0);
	pfw_parse_addr("0.0.0.0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 1);
	pfw_parse_addr("9.255.255.255", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 1);
	pfw_parse_addr("10.0.0.0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 2);
	pfw_parse_addr("10.0.255.255", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 2);
	pfw_parse_addr("10.1.0.0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 3);
	pfw_parse_addr("10.1.255.255", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 3);
	pfw_parse_addr("10.2.0.0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 4);
	pfw_parse_addr("11.0.0.0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 5);
	pfw_parse_addr("255.255.255.255", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 5);
	pfw_parse_addr("::1:0:0:0", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 6);
	pfw_parse_addr("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 6);
	assert_int_equal(db->n_addrs, 7);

	/* IPv4 and IPv4-mapped IPv6 are the same point. */
	pfw_parse_addr("10.1.2.3", a);
	pfw_parse_addr("::ffff:10.1.2.3", m);
	assert_memory_equal(a, m, 16);
	assert_int_equal(pfsel_policydb_classify_addr(db, a),
			 pfsel_policydb_classify_addr(db, m));
	/* The families of create: INET in the mapped range, INET6 not. */
	pfsel_policydb_family_addr(PFSEL_FAMILY_INET, a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 1);
	pfsel_policydb_family_addr(PFSEL_FAMILY_INET6, a);
	assert_int_equal(pfsel_policydb_classify_addr(db, a), 0);
	pfsel_policydb_free(db);
}

static void test_classify_apps(void **state)
{
	struct blob *b = *state;
	struct pfsel_policydb *db;
	uint32_t curl, tree, other;

	assert_int_equal(pfsel_policydb_load(b->buf, b->len, &db), 0);
	curl = pfsel_policydb_classify_app(db, "/usr/bin/curl", NULL);
	tree = pfsel_policydb_classify_app(db, "/usr/bin/wget", NULL);
	other = pfsel_policydb_classify_app(db, "/bin/sh", NULL);
	assert_int_not_equal(curl, tree);
	assert_int_not_equal(tree, other);
	assert_int_equal(pfsel_policydb_classify_app(db, "/usr/bin/a/b/c",
						     NULL), tree);
	/* DIR/ ** needs something below DIR. */
	assert_int_equal(pfsel_policydb_classify_app(db, "/usr/bin", NULL),
			 other);
	assert_int_equal(pfsel_policydb_classify_app(db, "/usr/bin/", NULL),
			 other);
	assert_int_equal(pfsel_policydb_classify_app(db, "/usr/bin//", NULL),
			 tree);
	assert_int_equal(pfsel_policydb_classify_app(db, "", NULL), other);
	assert_int_equal(pfsel_policydb_classify_app(db, "curl", NULL), other);
	/* A script changes nothing when no pattern names one. */
	assert_int_equal(pfsel_policydb_classify_app(db, "/usr/bin/curl",
						     "/tmp/x.sh"), curl);
	pfsel_policydb_free(db);
}

static void test_protected_lookup(void **state)
{
	struct blob *b = *state;
	struct pfsel_policydb *db;
	uint32_t curl, tree, other;

	assert_int_equal(pfsel_policydb_load(b->buf, b->len, &db), 0);
	curl = pfsel_policydb_classify_app(db, "/usr/bin/curl", NULL);
	tree = pfsel_policydb_classify_app(db, "/usr/bin/wget", NULL);
	other = pfsel_policydb_classify_app(db, "/bin/sh", NULL);
	assert_int_equal(db->n_apps, 3);
	assert_int_equal(db->n_protected, 2);
	assert_true(pfsel_policydb_app_protected(db, curl));
	assert_true(pfsel_policydb_app_protected(db, tree));
	assert_false(pfsel_policydb_app_protected(db, other));
	/* Not a class at all: not protected. */
	assert_false(pfsel_policydb_app_protected(db, db->n_apps));
	assert_false(pfsel_policydb_app_protected(db, PFSEL_NONE));
	pfsel_policydb_free(db);
}

/* Nothing protected: an empty section, and no class is. */
static void test_nothing_protected(void **state)
{
	struct pfw_policy *p = small_policy();
	struct pfsel_policydb *db;
	struct blob b;

	(void)state;
	p->rules[0].protect = false;
	p->rules[2].protect = false;
	assert_int_equal(pfw_compile_pfsel(p, &b.buf, &b.len), 0);
	assert_int_equal(sec_count(b.buf, PFSEL_SEC_PROTECTED), 0);
	assert_int_equal(pfsel_policydb_load(b.buf, b.len, &db), 0);
	for (uint32_t app = 0; app < db->n_apps; app++)
		assert_false(pfsel_policydb_app_protected(db, app));
	pfsel_policydb_free(db);
	free(b.buf);
	pfw_policy_free(p);
}

/* What flipping bit 4 of byte @i of the small policy's blob gives. */
static int expected_flip_error(size_t i)
{
	if (i >= 4 && i < 8)
		return -EPROTONOSUPPORT; /* version */
	if (i < 12 || (i >= 16 && i < 20) || (i >= 24 && i < 32))
		return -EINVAL; /* magic, size, flags, nsections, reserved */
	return -EBADMSG; /* the checksum, the uid, or the body */
}

static void test_header_errors(void **state)
{
	struct blob *b = *state;
	struct pfsel_policydb *db = NULL;

	assert_int_equal(load_copy(b->buf, 0), -EINVAL);
	assert_int_equal(load_copy(b->buf, 31), -EINVAL);
	/* Larger than the format allows: refused before it is read. */
	assert_int_equal(pfsel_policydb_load(b->buf,
					     (size_t)PFSEL_POLICY_MAX_SIZE + 1,
					     &db),
			 -E2BIG);
	assert_null(db);
	EXPECT_MUTATION(b, -EINVAL, c[0] ^= 1);
	/* Version 1 had no PROTECTED section: refused, not misread. */
	EXPECT_MUTATION(b, -EPROTONOSUPPORT, set32(c + 4, 1));
	/* Version 2 had no host names: refused, not misread. */
	EXPECT_MUTATION(b, -EPROTONOSUPPORT, set32(c + 4, 2));
	EXPECT_MUTATION(b, -EPROTONOSUPPORT, set32(c + 4, 4));
	EXPECT_MUTATION(b, -EPROTONOSUPPORT, set32(c + 4, 0));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 8, b->len + 8));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 16, 4)); /* an unknown flag */
	EXPECT_MUTATION(b, -EINVAL, set32(c + 16, 0x80000000u));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 16, PFSEL_POLICY_F_MASK + 1));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 16, 1)); /* system, uid 1000 */
	EXPECT_MUTATION(b, -EINVAL, set32(c + 24, PFSEL_SEC_COUNT - 1));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 24, PFSEL_SEC_COUNT + 1));
	EXPECT_MUTATION(b, -EINVAL, set32(c + 28, 1));
	/* The checksum: any flipped bit anywhere. */
	{
		uint8_t *c = malloc(b->len);

		for (size_t i = 0; i < b->len; i += 7) {
			memcpy(c, b->buf, b->len);
			c[i] ^= 0x10;
			assert_int_equal(load_copy(c, b->len),
					 expected_flip_error(i));
		}
		free(c);
	}
	/* A system policy with uid 0 is fine. */
	EXPECT_MUTATION(b, 0, set32(c + 16, 1); set32(c + 20, 0));
	/* Permissive is a known flag, for a user or the system policy. */
	EXPECT_MUTATION(b, 0, set32(c + 16, PFSEL_POLICY_F_PERMISSIVE));
	EXPECT_MUTATION(b, 0,
			set32(c + 16,
			      PFSEL_POLICY_F_SYSTEM | PFSEL_POLICY_F_PERMISSIVE);
			set32(c + 20, 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(c + 16,
			      PFSEL_POLICY_F_SYSTEM | PFSEL_POLICY_F_PERMISSIVE));
}

/* "mode permissive;" reaches the header, and only the header. */
static void test_permissive_flag(void **state)
{
	struct pfw_policy *p = small_policy();
	struct pfsel_policydb *db;
	struct blob enforcing, permissive;

	(void)state;
	assert_int_equal(pfw_compile_pfsel(p, &enforcing.buf, &enforcing.len),
			 0);
	p->settings.permissive = true;
	assert_int_equal(
		pfw_compile_pfsel(p, &permissive.buf, &permissive.len), 0);
	assert_int_equal(get32(enforcing.buf + 16), 0);
	assert_int_equal(get32(permissive.buf + 16), PFSEL_POLICY_F_PERMISSIVE);
	assert_int_equal(enforcing.len, permissive.len);
	/* Apart from the flags and the checksum, the blobs are the same. */
	assert_memory_equal(enforcing.buf, permissive.buf, 12);
	assert_memory_equal(enforcing.buf + 20, permissive.buf + 20,
			    enforcing.len - 20);
	assert_int_equal(pfsel_policydb_load(permissive.buf, permissive.len,
					     &db),
			 0);
	assert_int_equal(db->flags, PFSEL_POLICY_F_PERMISSIVE);
	assert_int_equal(db->uid, 1000);
	pfsel_policydb_free(db);
	p->settings.is_system = true;
	free(permissive.buf);
	assert_int_equal(
		pfw_compile_pfsel(p, &permissive.buf, &permissive.len), 0);
	assert_int_equal(pfsel_policydb_load(permissive.buf, permissive.len,
					     &db),
			 0);
	assert_int_equal(db->flags,
			 PFSEL_POLICY_F_SYSTEM | PFSEL_POLICY_F_PERMISSIVE);
	assert_int_equal(db->uid, 0);
	pfsel_policydb_free(db);
	free(enforcing.buf);
	free(permissive.buf);
	pfw_policy_free(p);
}

static void test_section_table_errors(void **state)
{
	struct blob *b = *state;
	for (uint32_t id = PFSEL_SEC_FIRST; id <= PFSEL_SEC_LAST; id++) {
		size_t e = 32 + 16 * (id - PFSEL_SEC_FIRST);

		/* Wrong id, out of order, unknown. */
		EXPECT_MUTATION(b, -EINVAL, set32(c + e, id + 1));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e, 0));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e, 99));
		/* Misaligned, overlapping, gapped, out of bounds. */
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 8, get32(c + e + 8) + 4));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 8, get32(c + e + 8) - 8));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 8, get32(c + e + 8) + 8));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 8, 0xfffffff8));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 12, 0xffffffff));
		/* A count that does not match the size. */
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 4, get32(c + e + 4) + 1));
		EXPECT_MUTATION(b, -EINVAL, set32(c + e + 4, 0x80000000u));
	}
	/* Nonzero padding between sections (10 bytes of ports, then 6). */
	EXPECT_MUTATION(b, -EINVAL, c[sec_end(c, PFSEL_SEC_PORTS)] = 1);
	EXPECT_MUTATION(b, -EINVAL, c[sec_end(c, PFSEL_SEC_PORTS) + 5] = 1);
}

static void test_truncation(void **state)
{
	struct blob *b = *state;

	/* Every shorter blob is refused (with its header size adjusted). */
	for (size_t len = 32; len < b->len; len++) {
		uint8_t *c = malloc(len);

		memcpy(c, b->buf, len);
		set32(c + 8, len);
		fix_checksum(c, len);
		assert_int_equal(load_copy(c, len), -EINVAL);
		free(c);
	}
}

static void test_content_errors(void **state)
{
	struct blob *b = *state;
	/* Settings. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 0), 3));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 4), 4));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 8), 2));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 12), 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 12), 600001));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 16), 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 20), 999));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 24), 999));
	/* n_name_classes: class 0 always exists. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 28), 0));
	EXPECT_MUTATION(b, 0, set32(sec_at(c, PFSEL_SEC_SETTINGS, 0, 32, 28), 2));

	/* Strings: too long, a NUL inside, nonzero padding. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_STRINGS, 0, 0, 0), 4097));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_STRINGS, 0, 0, 0), 0x7ffffff0));
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_STRINGS, 0, 0, 5) = 0);
	/* "t.pfw": 5 bytes, 3 of padding */
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_STRINGS, 0, 0, 9) = 1);

	/* Rules: verdict, audit, reserved, file index. */
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_RULES, 1, 16, 0) = 3);
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_RULES, 1, 16, 1) = 4);
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_RULES, 1, 16, 2) = 1);
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_RULES, 1, 16, 4),
			      sec_count(c, PFSEL_SEC_STRINGS)));

	/* Ports and addresses: start at zero, strictly sorted. */
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_PORTS, 0, 2, 0) = 1);
	EXPECT_MUTATION(b, -EINVAL,
			memcpy(sec_at(c, PFSEL_SEC_PORTS, 2, 2, 0),
			       sec_at(c, PFSEL_SEC_PORTS, 1, 2, 0), 2));
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_ADDRS, 0, 16, 15) = 1);
	EXPECT_MUTATION(b, -EINVAL,
			memcpy(sec_at(c, PFSEL_SEC_ADDRS, 3, 16, 0),
			       sec_at(c, PFSEL_SEC_ADDRS, 2, 16, 0), 16));

	/* Runs: port class and rule in range. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_RUNS, 0, 8, 0),
			      sec_count(c, PFSEL_SEC_PORTS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_RUNS, 0, 8, 4),
			      sec_count(c, PFSEL_SEC_RULES)));
	/* Rows: tile the runs, each starting at port class 0. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_ROWS, 0, 8, 0), 1));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_ROWS, 0, 8, 4), 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_ROWS, 0, 8, 4), 0xffffffff));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_RUNS, 0, 8, 0), 1));
	/* Slabs: row in range; cells: op, proto, reserved, rows, tiling. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SLABS, 0, 8, 4),
			      sec_count(c, PFSEL_SEC_ROWS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_SLABS, 0, 8, 0),
			      sec_count(c, PFSEL_SEC_ADDRS)));
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_CELLS, 0, 16, 0) = 5);
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_CELLS, 0, 16, 1) = 5);
	EXPECT_MUTATION(b, -EINVAL, *sec_at(c, PFSEL_SEC_CELLS, 0, 16, 2) = 1);
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_CELLS, 0, 16, 4),
			      sec_count(c, PFSEL_SEC_ROWS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_CELLS, 0, 16, 8), 1));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_CELLS, 0, 16, 12), 0xfffffff0));
	/* Groups: tile the cells; grouplist: in range; apps: tile, sorted. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_GROUPS, 0, 8, 4), 0xffff));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_GROUPLIST, 0, 4, 0),
			      sec_count(c, PFSEL_SEC_GROUPS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_APPS, 0, 8, 0), 1));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_APPS, 0, 8, 4), 0xffff));
	/* Exes: app in range, reserved, pair tiling. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXES, 0, 16, 0),
			      sec_count(c, PFSEL_SEC_APPS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXES, 0, 16, 12), 1));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXES, 0, 16, 8), 1));
	/* Paths: string, flags, classes with and without flags, order. */
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 0),
			      sec_count(c, PFSEL_SEC_STRINGS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 4), 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 4), 8));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 8), 0));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 20), 1));
	EXPECT_MUTATION(b, -EINVAL,
			memcpy(sec_at(c, PFSEL_SEC_EXE_PATHS, 1, 24, 0),
			       sec_at(c, PFSEL_SEC_EXE_PATHS, 0, 24, 0), 4));

	/* Protected: each an app class, strictly increasing. */
	assert_int_equal(sec_count(b->buf, PFSEL_SEC_PROTECTED), 2);
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_PROTECTED, 1, 4, 0),
			      sec_count(c, PFSEL_SEC_APPS)));
	EXPECT_MUTATION(b, -EINVAL,
			set32(sec_at(c, PFSEL_SEC_PROTECTED, 0, 4, 0),
			      PFSEL_NONE));
	EXPECT_MUTATION(b, -EINVAL,
			memcpy(sec_at(c, PFSEL_SEC_PROTECTED, 1, 4, 0),
			       sec_at(c, PFSEL_SEC_PROTECTED, 0, 4, 0), 4));
	EXPECT_MUTATION(b, -EINVAL, {
		uint8_t *first = sec_at(c, PFSEL_SEC_PROTECTED, 0, 4, 0);
		uint32_t lo = get32(first);

		set32(first, get32(first + 4));
		set32(first + 4, lo);
	});
	/* The last class is a class. */
	EXPECT_MUTATION(b, 0,
			set32(sec_at(c, PFSEL_SEC_PROTECTED, 1, 4, 0),
			      sec_count(c, PFSEL_SEC_APPS) - 1));
}

/* Random single-byte corruptions of valid random policies: no crash. */
static void test_random_corruption(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct gen_rng rng;
		struct pfw_policy *p;
		uint8_t *buf;
		size_t len;

		gen_seed(&rng, seed);
		p = gen_policy(&rng, 20);
		assert_int_equal(pfw_compile_pfsel(p, &buf, &len), 0);
		for (int i = 0; i < 200; i++) {
			size_t at = 32 + gen_below(&rng, len - 32);
			uint8_t old = buf[at];
			struct pfsel_policydb *db;

			buf[at] ^= 1 + gen_below(&rng, 255);
			fix_checksum(buf, len);
			if (!pfsel_policydb_load(buf, len, &db)) {
				struct pfsel_decision d;
				uint8_t a[16] = { 0 };

				pfw_policydb_request(db, "/usr/bin/x", "/a",
						     i % 5, i % 5, 0, a, i, &d);
				pfsel_policydb_free(db);
			}
			buf[at] = old;
		}
		free(buf);
		pfw_policy_free(p);
	}
}

/* ---- host names, on the hand-built blob of policydb_test_blob.h ---- */

static struct pfsel_policydb *load_hand_built(struct test_blob *b, bool system)
{
	struct pfsel_policydb *db = NULL;

	test_build_blob(b, system);
	assert_int_equal(pfsel_policydb_load(b->buf, b->len, &db), 0);
	return db;
}

static void test_name_class(void **state)
{
	struct test_blob *b = malloc(sizeof(*b));
	struct pfsel_policydb *db = load_hand_built(b, false);
	char long_name[300];

	(void)state;
	assert_int_equal(db->n_name_classes, TEST_N_NAME_CLASSES);
	assert_true(pfsel_policydb_has_names(db));
	for (size_t i = 0; i < ARRAY_SIZE(test_name_classes); i++) {
		const char *name = test_name_classes[i].name;
		uint32_t class = pfsel_policydb_name_class(db, name,
							   strlen(name));

		if (class != test_name_classes[i].class)
			fail_msg("\"%s\": class %u, not %u", name, class,
				 test_name_classes[i].class);
	}
	/* Only @len bytes count: a name need not end in a NUL. */
	assert_int_equal(pfsel_policydb_name_class(db, "www.example.org.x", 15),
			 TEST_NAME_WWW);
	assert_int_equal(pfsel_policydb_name_class(db, "www.example.org", 14),
			 TEST_NAME_NONE);
	assert_int_equal(pfsel_policydb_name_class(db, "a\0.org", 6),
			 TEST_NAME_NONE);
	/* 253 characters, four labels of 60, is a name; 254 is not. */
	memset(long_name, 'a', sizeof(long_name));
	for (size_t i = 60; i < 250; i += 61)
		long_name[i] = '.';
	memcpy(long_name + 249, ".org", 4);
	assert_true(pfsel_policydb_name_valid(long_name, 253));
	assert_int_equal(pfsel_policydb_name_class(db, long_name, 253),
			 TEST_NAME_ORG);
	long_name[249] = 'a';
	memcpy(long_name + 250, ".org", 4);
	assert_false(pfsel_policydb_name_valid(long_name, 254));
	assert_int_equal(pfsel_policydb_name_class(db, long_name, 254),
			 TEST_NAME_NONE);
	/* A label of 63 is fine, 64 is not. */
	memset(long_name, 'b', 64);
	memcpy(long_name + 63, ".org", 4);
	assert_int_equal(pfsel_policydb_name_class(db, long_name, 67),
			 TEST_NAME_ORG);
	long_name[63] = 'b';
	memcpy(long_name + 64, ".org", 4);
	assert_int_equal(pfsel_policydb_name_class(db, long_name, 68),
			 TEST_NAME_NONE);
	pfsel_policydb_free(db);
	free(b);
}

static void test_decide_name(void **state)
{
	struct test_blob *b = malloc(sizeof(*b));
	struct pfsel_policydb *db = load_hand_built(b, false);
	struct pfsel_decision d;
	uint32_t rule;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(test_name_rules); i++) {
		rule = 0xdead;
		assert_int_equal(pfsel_policydb_decide_name(
					 db, test_name_rules[i].app,
					 test_name_rules[i].op, PFSEL_PROTO_TCP,
					 test_name_rules[i].class,
					 test_name_rules[i].port_class, &rule),
				 0);
		if (rule != test_name_rules[i].rule)
			fail_msg("case %zu: rule %u, not %u", i, rule,
				 test_name_rules[i].rule);
	}
	rule = 7;
	assert_int_equal(pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
						    PFSEL_PROTO_TCP,
						    TEST_N_NAME_CLASSES, 0,
						    &rule),
			 -EINVAL);
	assert_int_equal(pfsel_policydb_decide_name(db, db->n_apps,
						    PFSEL_OP_CONNECT,
						    PFSEL_PROTO_TCP, 1, 0, &rule),
			 -EINVAL);
	assert_int_equal(pfsel_policydb_decide_name(db, 1, PFSEL_OP_COUNT,
						    PFSEL_PROTO_TCP, 1, 0, &rule),
			 -EINVAL);
	assert_int_equal(pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
						    PFSEL_PROTO_COUNT, 1, 0,
						    &rule),
			 -EINVAL);
	assert_int_equal(pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
						    PFSEL_PROTO_TCP, 1,
						    db->n_ports, &rule),
			 -EINVAL);
	assert_int_equal(rule, 7);

	/* names: only where a cell of the application has name slabs. */
	assert_int_equal(pfsel_policydb_decide(db, 1, PFSEL_OP_CONNECT,
					       PFSEL_PROTO_TCP, 0, 1, &d),
			 0);
	assert_true(d.names);
	assert_int_equal(d.rule, 0);
	assert_int_equal(pfsel_policydb_decide(db, 1, PFSEL_OP_LISTEN,
					       PFSEL_PROTO_TCP, 0, 1, &d),
			 0);
	assert_false(d.names);
	assert_int_equal(d.rule, 0);
	assert_int_equal(pfsel_policydb_decide(db, 1, PFSEL_OP_CONNECT,
					       PFSEL_PROTO_UDP, 0, 1, &d),
			 0);
	assert_false(d.names);
	assert_int_equal(pfsel_policydb_decide(db, 0, PFSEL_OP_CONNECT,
					       PFSEL_PROTO_TCP, 0, 1, &d),
			 0);
	assert_false(d.names);
	pfsel_policydb_free(db);
	free(b);
}

static void test_resolvers(void **state)
{
	struct test_blob *b = malloc(sizeof(*b));
	struct pfsel_policydb *db = load_hand_built(b, true);

	(void)state;
	assert_int_equal(pfsel_policydb_resolver(db, 1),
			 PFSEL_RESOLVER_ANY_USER);
	assert_int_equal(pfsel_policydb_resolver(db, 0), -ENOENT);
	assert_int_equal(pfsel_policydb_resolver(db, db->n_apps), -ENOENT);
	assert_int_equal(pfsel_policydb_resolver(db, PFSEL_NONE), -ENOENT);
	pfsel_policydb_free(db);
	db = load_hand_built(b, false);
	assert_int_equal(db->n_resolvers, 0);
	assert_int_equal(pfsel_policydb_resolver(db, 1), -ENOENT);
	pfsel_policydb_free(db);

	/* Unknown flags; no such application; not increasing. */
	test_build_blob(b, true);
	test_put32(test_sec(b, PFSEL_SEC_RESOLVERS, 4), PFSEL_RESOLVER_MASK + 1);
	test_seal(b);
	assert_int_equal(load_copy(b->buf, b->len), -EINVAL);
	test_build_blob(b, true);
	test_put32(test_sec(b, PFSEL_SEC_RESOLVERS, 0), 2);
	test_seal(b);
	assert_int_equal(load_copy(b->buf, b->len), -EINVAL);
	/* The system's resolvers in a user policy's blob. */
	test_build_blob(b, true);
	test_put32(b->buf + 16, 0);
	test_put32(b->buf + 20, 1000);
	test_seal(b);
	assert_int_equal(load_copy(b->buf, b->len), -EINVAL);
	free(b);
}

/* Every rule of sections 18-21, broken once: -EINVAL, nothing kept. */
static void test_name_sections_malformed(void **state)
{
	struct test_blob *b = malloc(sizeof(*b));

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(test_name_mutations); i++) {
		const struct test_mutation *m = &test_name_mutations[i];
		int err;

		test_build_blob(b, false);
		test_put32(test_sec(b, m->id, m->at), m->value);
		test_seal(b);
		err = load_copy(b->buf, b->len);
		if (err != -EINVAL)
			fail_msg("%s: %d, not -EINVAL", m->what, err);
	}
	for (size_t i = 0; i < ARRAY_SIZE(test_name_bytes); i++) {
		uint8_t *www;
		int err;

		test_build_blob(b, false);
		www = test_sec(b, PFSEL_SEC_STRINGS, TEST_WWW_AT);
		assert_memory_equal(www, "www.example.org", 15);
		www[test_name_bytes[i].at] = test_name_bytes[i].c;
		test_seal(b);
		err = load_copy(b->buf, b->len);
		if (err != (test_name_bytes[i].valid ? 0 : -EINVAL))
			fail_msg("'%c' at %u: %d", test_name_bytes[i].c,
				 test_name_bytes[i].at, err);
	}
	/* Every shorter blob, and every byte flipped: no crash, no leak. */
	for (size_t len = 32; len < b->len; len++) {
		test_build_blob(b, false);
		set32(b->buf + 8, len);
		fix_checksum(b->buf, len);
		assert_int_equal(load_copy(b->buf, len), -EINVAL);
	}
	test_build_blob(b, false);
	for (size_t at = 32; at < b->len; at++) {
		struct pfsel_policydb *db;

		b->buf[at] ^= 0x41;
		test_seal(b);
		if (!pfsel_policydb_load(b->buf, b->len, &db)) {
			uint32_t rule;

			for (uint32_t c = 0; c < db->n_name_classes; c++)
				pfsel_policydb_decide_name(db, 1, PFSEL_OP_CONNECT,
							   PFSEL_PROTO_TCP, c, 1,
							   &rule);
			pfsel_policydb_name_class(db, "a.www.example.org", 17);
			pfsel_policydb_free(db);
		}
		b->buf[at] ^= 0x41;
	}
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup_blob,
						teardown_blob),
		cmocka_unit_test_setup_teardown(test_classify_boundaries,
						setup_blob, teardown_blob),
		cmocka_unit_test_setup_teardown(test_classify_apps, setup_blob,
						teardown_blob),
		cmocka_unit_test_setup_teardown(test_protected_lookup,
						setup_blob, teardown_blob),
		cmocka_unit_test(test_nothing_protected),
		cmocka_unit_test_setup_teardown(test_header_errors, setup_blob,
						teardown_blob),
		cmocka_unit_test_setup_teardown(test_section_table_errors,
						setup_blob, teardown_blob),
		cmocka_unit_test_setup_teardown(test_truncation, setup_blob,
						teardown_blob),
		cmocka_unit_test_setup_teardown(test_content_errors, setup_blob,
						teardown_blob),
		cmocka_unit_test(test_random_corruption),
		cmocka_unit_test(test_permissive_flag),
		cmocka_unit_test(test_name_class),
		cmocka_unit_test(test_decide_name),
		cmocka_unit_test(test_resolvers),
		cmocka_unit_test(test_name_sections_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
