// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_compare() held to brute force (issue 27): random pairs of
 * policies, compiled by the real pfwc, and random requests over every
 * class a request can fall in, each decided in both policies through the
 * kernel's own reader (security/pfsel/policydb_lookup.c, built through
 * compiler/kshim) exactly as the kernel decides it: the application
 * classified from (exe, script) as app.c passes them, the unnamed
 * executable and script as PFSEL_UNNAMED_PATH; create at its family's
 * address (packet at none); icmp, raw and create at port 0; tcp and udp at
 * any port, 0 included; 0 to 2 host names folded in as decide.c does.
 *
 * The property: when some request is decided more loosely by the new
 * policy than by the old one (or its application loses "protect"),
 * policy_compare() says "looser".  Equivalently, "no looser" is never said
 * of a pair where a request got looser.  The generator writes rules for
 * "*" and for every named path ("/" and two stars), for interpreters with
 * and without scripts, so that the unnamed application, a named
 * interpreter running an unnamed script and the interpreter run by hand
 * each get rules of their own, and the new policy is often the old one
 * with one change, so that "no looser" comes up and gets tested.
 *
 * Both ways, policy_compare() is also held to policy_compare_exhaustive(),
 * which decides every address interval of every application pair cell by
 * cell, with no shortcut (compare.c: sets of rows decided once, the `*`
 * rules' cells compared alone): the same answer, and the same report.
 *
 * Seeded and deterministic: PFSEL_COMPARE_SEED (default below) and
 * PFSEL_COMPARE_PAIRS (pairs, default 150: a few seconds) choose the run;
 * a failure prints both policies, the request and the seed of its pair.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "policydb.h"
#include "userpolicy.h"

#include "pfwc_compile.h"

#define DEFAULT_SEED 27
#define DEFAULT_PAIRS 150
#define REQUESTS_PER_PAIR 2000
#define MAX_RULES 8

struct rng {
	uint64_t s;
};

/* splitmix64: small, and the same sequence everywhere. */
static uint64_t next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return (uint32_t)(next(r) % n);
}

static bool chance(struct rng *r, uint32_t percent)
{
	return below(r, 100) < percent;
}

#define PICK(r, a) ((a)[below((r), sizeof(a) / sizeof((a)[0]))])

/* ---- Policies ----------------------------------------------------------- */

/*
 * Executable and script patterns: "*" (every application, the unnamed
 * ones too) beside "/" and two stars (every named one), each twice as
 * likely as the rest; an interpreter, and globs and files that the
 * requests' paths fall in and out of.
 */
static const char *const exe_patterns[] = {
	"*",
	"*",
	"/**",
	"/**",
	"/*",
	"/usr/bin/*",
	"/usr/bin/**",
	"/usr/bin/python3",
	"/usr/bin/curl",
	"/home/u/**",
	"/home/u/bin/*",
	"flatpak org.a.B",
	"flatpak org.a.B.Locale",
	"/var/lib/flatpak/app/**",
	"snap fx",
};
static const char *const script_patterns[] = {
	"*",	  "*",		"/**", "/**", "/home/u/**", "/home/u/s.py",
	"/tmp/*", "/usr/bin/*", "flatpak org.a.B",
};
/*
 * Rules that decide every named application, or every named script of an
 * interpreter: after one, only the unnamed ones are left to the rules
 * below and the default.
 */
static const char *const catch_named[] = {
	"/**",
	"/** connect",
	"/** create",
	"/usr/bin/python3 script /**",
	"/** script /**",
};
static const char *const addresses[] = {
	"loopback",	  "10.0.0.0/8", "10.1.0.0/16", "::1",
	"2001:db8::/32",  "any",	"0.0.0.0/1",   "host a.example",
	"host *.example", "8.8.8.8",	"::/1",	       "host b.example",
};
/*
 * An adversary's shape (issue 30 item 5, the shortcuts): many applications
 * with rules of their own and few or no `*` rules, so that the group most
 * applications list is not the `*` rules' and differs between the
 * policies; one rule for several request kinds (sets of rows that come
 * again in other kinds and pairs); host names under nested patterns, in
 * `*` rules and in applications' own; interpreters whose scripts have
 * rules in one policy only.
 */
static const char *const adv_exe_patterns[] = {
	"*",	      "/opt/a",	 "/opt/b",	     "/opt/c",
	"/opt/*",     "/opt/**", "/usr/bin/python3", "/usr/bin/*",
	"/usr/**",    "/**",	 "/opt/a, /opt/b",   "/opt/b, /opt/c, /opt/a",
	"/home/u/**",
};
static const char *const adv_script_patterns[] = {
	"*", "/**", "/home/u/**", "/home/u/s.py", "/tmp/*", "/opt/*",
};
static const char *const adv_catch_named[] = {
	"/opt/a, /opt/b, /opt/c",
	"/opt/** connect",
	"/usr/bin/python3 script /tmp/*",
	"* connect tcp to host *.a.example",
	"/opt/a connect tcp to host *.b.a.example",
};
static const char *const adv_addresses[] = {
	"loopback",
	"10.0.0.0/8",
	"10.1.0.0/16",
	"::1",
	"host a.example",
	"host *.a.example",
	"host b.a.example",
	"host *.b.a.example",
	"host x.b.a.example",
	"host *.example",
	"any",
	"0.0.0.0/1",
	"10.1.2.3",
	"host c.example",
};
static const char *const adv_exes[] = {
	PFSEL_UNNAMED_PATH,
	"/usr/bin/python3",
	"/usr/bin/curl",
	"/opt/a",
	"/opt/b",
	"/opt/c",
	"/opt/d",
	"/opt/x/y",
	"/usr/x/y",
	"/home/u/c/d/e",
	"/a",
};
static const char *const adv_scripts[] = {
	NULL,	  PFSEL_UNNAMED_PATH, "/home/u/s.py", "/home/u/d/e.py",
	"/tmp/q", "/opt/a",	      "/srv/x",
};
static const char *const adv_request_names[] = {
	"a.example",	   "x.a.example", "b.a.example", "x.b.a.example",
	"y.x.b.a.example", "c.example",	  "example",	 "evil.test",
};

static const char *const ports[] = {
	"0",	  "22",		"7022", "7443", "80-443",
	"1-1023", "1024-65535", "any",	"0-21",
};
static const char *const verdicts[] = { "allow", "deny", "ask" };
static const char *const ops_addressed[] = { "bind", "connect", "listen",
					     "accept" };
static const char *const protos_create[] = { "tcp", "udp", "icmp", "raw",
					     "packet" };

/* Append to a growing string. */
struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		assert_true(n >= 0);
		if (t->len + (size_t)n < t->cap)
			break;
		t->cap = 2 * (t->cap + (size_t)n + 64);
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	t->len += (size_t)n;
}

/* A list of words to pick from. */
struct words {
	const char *const *v;
	size_t n;
};

#define WORDS(a)                                \
	{                                       \
		(a), sizeof(a) / sizeof((a)[0]) \
	}
#define PICK_WORD(r, w) ((w).v[below((r), (uint32_t)(w).n)])

/*
 * What the generator writes and asks: the patterns of rules, and the
 * executables, scripts and names of requests; with @ask_settings, a
 * mutation may change the ask settings alone.
 */
struct shape {
	struct words exe_patterns, script_patterns, catch_named, addresses;
	struct words exes, scripts, request_names;
	bool ask_settings;
};

/* The shape the test at hand generates (below: the_shape, adv_shape). */
static const struct shape *shape;

static void put_app(struct rng *r, struct text *t)
{
	put(t, "%s", PICK_WORD(r, shape->exe_patterns));
	if (chance(r, 35))
		put(t, " script %s", PICK_WORD(r, shape->script_patterns));
}

/* One rule, as text: every clause combination the language allows. */
static void put_rule(struct rng *r, struct text *t)
{
	uint32_t i, n;

	put(t, "%s ", PICK(r, verdicts));
	put_app(r, t);
	if (chance(r, 20)) {
		put(t, ", ");
		put_app(r, t);
	}
	switch (below(r, 4)) {
	case 0: /* create, by protocol and family */
		put(t, " create");
		if (chance(r, 60)) {
			bool packet = false;

			n = 1 + below(r, 2);
			for (i = 0; i < n; i++) {
				const char *p = PICK(r, protos_create);

				packet |= !strcmp(p, "packet");
				put(t, "%s%s", i ? ", " : " ", p);
			}
			if (!packet && chance(r, 40))
				put(t, " family %s",
				    chance(r, 50) ? "inet" : "inet6");
		}
		break;
	case 1: /* addressed, with or without ports */
	case 2: {
		bool ported = chance(r, 70);

		n = 1 + below(r, 2);
		for (i = 0; i < n; i++)
			put(t, "%s%s", i ? ", " : " ", PICK(r, ops_addressed));
		if (ported)
			put(t, " %s",
			    chance(r, 50) ? "tcp" :
			    chance(r, 50) ? "udp" :
					    "tcp, udp");
		else if (chance(r, 60))
			put(t, " %s", chance(r, 50) ? "icmp" : "raw, tcp");
		if (chance(r, 80)) {
			n = 1 + below(r, 2);
			for (i = 0; i < n; i++)
				put(t, "%s%s", i ? ", " : " to ",
				    PICK_WORD(r, shape->addresses));
		}
		if (ported && chance(r, 80))
			put(t, " port %s", PICK(r, ports));
		break;
	}
	default: /* every request of the application */
		break;
	}
	if (chance(r, 8))
		put(t, " protect");
	put(t, ";\n");
}

struct policy {
	char *settings;
	char *rules[2 * MAX_RULES + 4];
	uint32_t n;
};

static char *rule_text(struct rng *r)
{
	struct text t = { 0 };

	put_rule(r, &t);
	return t.s;
}

static void random_policy(struct rng *r, struct policy *p)
{
	struct text t = { 0 };
	uint32_t i;

	put(&t, "default %s;\n", PICK(r, verdicts));
	if (chance(r, 20))
		put(&t, "ask unanswered allow;\n");
	if (chance(r, 20))
		put(&t, "ask timeout %u s;\n", 1 + below(r, 3) * 10);
	if (chance(r, 4))
		put(&t, "mode permissive;\n");
	p->settings = t.s;
	p->n = 1 + below(r, MAX_RULES);
	for (i = 0; i < p->n; i++)
		p->rules[i] = rule_text(r);
	if (chance(r, 40)) {
		t = (struct text){ 0 };
		put(&t, "%s %s;\n", PICK(r, verdicts),
		    PICK_WORD(r, shape->catch_named));
		i = below(r, p->n + 1);
		memmove(&p->rules[i + 1], &p->rules[i],
			(p->n - i) * sizeof(p->rules[0]));
		p->rules[i] = t.s;
		p->n++;
	}
}

static void policy_free(struct policy *p)
{
	uint32_t i;

	free(p->settings);
	for (i = 0; i < p->n; i++)
		free(p->rules[i]);
}

/* The new policy: mostly the old one with a change or two. */
static void mutate(struct rng *r, const struct policy *old, struct policy *p)
{
	uint32_t i, k, changes = 1 + below(r, 2);

	if (chance(r, 15)) {
		random_policy(r, p);
		return;
	}
	p->settings = strdup(old->settings);
	assert_non_null(p->settings);
	p->n = old->n;
	for (i = 0; i < old->n; i++) {
		p->rules[i] = strdup(old->rules[i]);
		assert_non_null(p->rules[i]);
	}
	while (changes--) {
		switch (below(r, 5)) {
		case 0: /* a rule inserted (first, often: it decides) */
		case 1:
			if (p->n == sizeof(p->rules) / sizeof(p->rules[0]))
				break;
			k = chance(r, 50) ? 0 : below(r, p->n + 1);
			memmove(&p->rules[k + 1], &p->rules[k],
				(p->n - k) * sizeof(p->rules[0]));
			p->rules[k] = rule_text(r);
			p->n++;
			break;
		case 2: /* a rule dropped */
			if (p->n < 2)
				break;
			k = below(r, p->n);
			free(p->rules[k]);
			memmove(&p->rules[k], &p->rules[k + 1],
				(p->n - k - 1) * sizeof(p->rules[0]));
			p->n--;
			break;
		case 3: /* two rules swapped */
			if (p->n < 2) {
				break;
			} else {
				char *swap;

				k = below(r, p->n - 1);
				swap = p->rules[k];
				p->rules[k] = p->rules[k + 1];
				p->rules[k + 1] = swap;
			}
			break;
		default: /* the default verdict */
			free(p->settings);
			{
				struct text t = { 0 };

				put(&t, "default %s;\n", PICK(r, verdicts));
				/* The ask settings, changed alone. */
				if (shape->ask_settings && chance(r, 50))
					put(&t, "ask unanswered allow;\n");
				if (shape->ask_settings && chance(r, 50))
					put(&t, "ask timeout %u ms;\n",
					    1 + below(r, 3) * 10);
				p->settings = t.s;
			}
			break;
		}
	}
}

static char *policy_text(const struct policy *p)
{
	struct text t = { 0 };
	uint32_t i;

	put(&t, "%s", p->settings);
	for (i = 0; i < p->n; i++)
		put(&t, "%s", p->rules[i]);
	return t.s;
}

/* ---- Requests ----------------------------------------------------------- */

/*
 * Executables and scripts as the kernel names them (app.c): the unnamed
 * one, an interpreter, files in and out of the patterns' folders at each
 * depth.  A NULL script is a process that runs none (the interpreter run
 * by hand, or no interpreter).
 */
static const char *const exes[] = {
	PFSEL_UNNAMED_PATH,
	"/usr/bin/python3",
	"/usr/bin/curl",
	"/usr/bin/x/y",
	"/home/u/bin/a",
	"/home/u/c/d/e",
	"/opt/q",
	"/a",
	/* In and beside the sandbox identities' folders ("flatpak ID"). */
	"/var/lib/flatpak/app/org.a.B/x86_64/stable/c0/files/bin/b",
	"/var/lib/flatpak/app/org.a.B.Locale/x86_64/stable/c1/files/x",
	"/var/lib/flatpak/app/org.c.D/x86_64/stable/c2/files/bin/d",
	"/home/u/.local/share/flatpak/app/org.a.B/x86_64/stable/c0/files/bin/b",
	"/snap/fx/12/usr/bin/fx",
	"/snap/fxy/3/usr/bin/fx",
};
static const char *const scripts[] = {
	NULL,
	PFSEL_UNNAMED_PATH,
	"/home/u/s.py",
	"/home/u/d/e.py",
	"/tmp/q",
	"/usr/bin/python3",
	"/srv/x",
	"/var/lib/flatpak/app/org.a.B/x86_64/stable/c0/files/bin/b.py",
	"/var/lib/flatpak/app/org.a.B.Locale/x86_64/stable/c1/files/x.py",
};
static const char *const request_addrs[] = {
	"::ffff:127.0.0.1",
	"::ffff:127.255.0.9",
	"::ffff:10.1.2.3",
	"::ffff:10.0.0.0",
	"::ffff:10.255.255.255",
	"::ffff:11.0.0.0",
	"::ffff:0.0.0.0",
	"::ffff:255.255.255.255",
	"::ffff:8.8.8.8",
	"::ffff:128.0.0.0",
	"::1",
	"::",
	"::2",
	"2001:db8::5",
	"2001:db9::",
	"8000::",
	"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
};
static const uint16_t request_ports[] = {
	0, 1, 21, 22, 23, 79, 80, 443, 444, 1023, 1024, 7022, 7443, 65535,
};
static const char *const request_names[] = {
	"a.example", "b.example", "x.a.example", "example", "evil.test",
};

/* test_compare_property's own shape, and the adversary's. */
static const struct shape the_shape = {
	.exe_patterns = WORDS(exe_patterns),
	.script_patterns = WORDS(script_patterns),
	.catch_named = WORDS(catch_named),
	.addresses = WORDS(addresses),
	.exes = WORDS(exes),
	.scripts = WORDS(scripts),
	.request_names = WORDS(request_names),
};
static const struct shape adv_shape = {
	.exe_patterns = WORDS(adv_exe_patterns),
	.script_patterns = WORDS(adv_script_patterns),
	.catch_named = WORDS(adv_catch_named),
	.addresses = WORDS(adv_addresses),
	.exes = WORDS(adv_exes),
	.scripts = WORDS(adv_scripts),
	.request_names = WORDS(adv_request_names),
	.ask_settings = true,
};

struct request {
	const char *exe, *script;
	u32 op, proto, family;
	u8 addr[16];
	u16 port;
	const char *names[2];
	u32 n_names;
};

static void random_request(struct rng *r, struct request *q)
{
	memset(q, 0, sizeof(*q));
	q->exe = PICK_WORD(r, shape->exes);
	q->script = chance(r, 50) ? NULL : PICK_WORD(r, shape->scripts);
	q->op = below(r, PFSEL_OP_COUNT);
	q->proto = below(r, PFSEL_PROTO_COUNT);
	if (q->op == PFSEL_OP_CREATE) {
		/* classify.c: a family's address; a packet socket has none. */
		q->family = q->proto == PFSEL_PROTO_PACKET ?
				    PFSEL_FAMILY_PACKET :
				    below(r, PFSEL_FAMILY_COUNT);
		pfsel_policydb_family_addr(q->family, q->addr);
		return;
	}
	/* Only a create is asked of a packet socket. */
	while (q->proto == PFSEL_PROTO_PACKET)
		q->proto = below(r, PFSEL_PROTO_COUNT);
	if (chance(r, 10)) {
		uint64_t a = next(r), b = next(r);

		memcpy(q->addr, &a, 8);
		memcpy(q->addr + 8, &b, 8);
	} else {
		assert_int_equal(inet_pton(AF_INET6, PICK(r, request_addrs),
					   q->addr),
				 1);
	}
	if (q->proto == PFSEL_PROTO_TCP || q->proto == PFSEL_PROTO_UDP)
		q->port = chance(r, 10) ? (u16)below(r, 65536) :
					  PICK(r, request_ports);
	q->n_names = below(r, 3);
	q->names[0] = PICK_WORD(r, shape->request_names);
	q->names[1] = PICK_WORD(r, shape->request_names);
	if (q->n_names == 2 && !strcmp(q->names[0], q->names[1]))
		q->n_names = 1;
}

/* ---- Brute force -------------------------------------------------------- */

/* How strict a decision is, from 0 (allow) to 3 (deny): see compare.c. */
static int strictness(const struct pfsel_policydb *db, u32 verdict)
{
	if (db->flags & PFSEL_POLICY_F_PERMISSIVE)
		return 0;
	if (verdict == PFSEL_VERDICT_ALLOW)
		return 0;
	if (verdict == PFSEL_VERDICT_ASK)
		return db->no_answer == PFSEL_VERDICT_ALLOW ? 1 : 2;
	return 3;
}

/* The kernel's decision of @q in @db, as decide.c makes it. */
static int decide(const struct pfsel_policydb *db, const struct request *q,
		  u32 *app, struct pfsel_decision *d)
{
	const u32 port_class = pfsel_policydb_classify_port(db, q->port);
	u32 i;

	*app = pfsel_policydb_classify_app(db, q->exe, q->script);
	assert_int_equal(
		pfsel_policydb_decide(db, *app, q->op, q->proto,
				      pfsel_policydb_classify_addr(db, q->addr),
				      port_class, d),
		0);
	for (i = 0; i < q->n_names; i++)
		assert_int_equal(pfsel_policydb_decide_also_by_name(
					 db, *app, q->op, q->proto, port_class,
					 q->names[i], strlen(q->names[i]), d),
				 0);
	return strictness(db, d->verdict);
}

/* Whether the new policy is looser for @q: its decision or protection. */
static bool request_looser(const struct pfsel_policydb *old,
			   const struct pfsel_policydb *new,
			   const struct request *q)
{
	struct pfsel_decision was, now;
	u32 old_app, new_app;
	int a = decide(old, q, &old_app, &was);
	int b = decide(new, q, &new_app, &now);

	if (pfsel_policydb_app_protected(old, old_app) &&
	    !pfsel_policydb_app_protected(new, new_app))
		return true;
	if (b != a)
		return b < a;
	return a == 1 && new->ask_timeout_ms < old->ask_timeout_ms;
}

static void put_request(struct text *t, const struct request *q)
{
	char addr[INET6_ADDRSTRLEN];
	u32 i;

	inet_ntop(AF_INET6, q->addr, addr, sizeof(addr));
	put(t, "exe %s script %s op %s proto %s addr %s port %u", q->exe,
	    q->script ? q->script : "(none)", pfsel_op_name(q->op),
	    pfsel_proto_name(q->proto), addr, q->port);
	for (i = 0; i < q->n_names; i++)
		put(t, " name %s", q->names[i]);
}

/*
 * policy_compare() held to policy_compare_exhaustive(), which decides
 * every address interval of every application pair cell by cell: the same
 * answer (@said, without a report), and the same report of up to 50
 * cells.  NULL, or what differs.
 */
static char *differs_from_exhaustive(const struct blob *bo,
				     const struct blob *bn, int said)
{
	char *fast = NULL, *slow = NULL, *msg = NULL;
	size_t fast_len = 0, slow_len = 0;
	FILE *f = open_memstream(&fast, &fast_len);
	FILE *g = open_memstream(&slow, &slow_len);
	int ref, rf, rs;

	assert_non_null(f);
	assert_non_null(g);
	ref = policy_compare_exhaustive(bo->data, bo->len, bn->data, bn->len,
					NULL, 0);
	rf = policy_compare(bo->data, bo->len, bn->data, bn->len, f, 50);
	rs = policy_compare_exhaustive(bo->data, bo->len, bn->data, bn->len, g,
				       50);
	fclose(f);
	fclose(g);
	if (said != ref || rf != rs || strcmp(fast, slow))
		assert_true(
			asprintf(&msg,
				 "policy_compare() says %d (%d with a "
				 "report:\n%s), with no shortcut %d (%d:\n%s)",
				 said, rf, fast, ref, rs, slow) > 0);
	free(fast);
	free(slow);
	return msg;
}

static unsigned long env_number(const char *name, unsigned long fallback)
{
	const char *s = getenv(name);

	return s && *s ? strtoul(s, NULL, 0) : fallback;
}

static bool is_unnamed(const char *path)
{
	return path && !strcmp(path, PFSEL_UNNAMED_PATH);
}

/*
 * One pair (seed @seed, number @pair): NULL when policy_compare() holds,
 * else what went wrong.  *@said: what it said; *@saw, *@unnamed: a looser
 * request found, one of an unnamed executable or script.
 */
static char *one_pair(unsigned long seed, unsigned long pair, int *said,
		      bool *saw, bool *unnamed)
{
	struct rng r = { .s = seed * 0x100000001b3ull + pair };
	struct policy po = { 0 }, pn = { 0 };
	struct pfsel_policydb *old = NULL, *new = NULL;
	struct text msg = { 0 };
	char *old_text, *new_text, *differs;
	struct blob bo, bn;
	int i;

	random_policy(&r, &po);
	mutate(&r, &po, &pn);
	old_text = policy_text(&po);
	new_text = policy_text(&pn);
	bo = compile_quietly(old_text, 1001, true);
	bn = compile_quietly(new_text, 1001, true);
	*said = policy_compare(bo.data, bo.len, bn.data, bn.len, NULL, 0);
	*saw = *unnamed = false;
	differs = differs_from_exhaustive(&bo, &bn, *said);
	if (differs) {
		put(&msg,
		    "PFSEL_COMPARE_SEED=%lu, pair %lu: %s\nold:\n%snew:\n%s",
		    seed, pair, differs, old_text, new_text);
		free(differs);
		*said = -1; /* reported: no brute force */
	}
	assert_int_equal(pfsel_policydb_load(bo.data, bo.len, &old), 0);
	assert_int_equal(pfsel_policydb_load(bn.data, bn.len, &new), 0);
	for (i = 0; i < REQUESTS_PER_PAIR && *said >= 0; i++) {
		struct request q;

		random_request(&r, &q);
		if (!request_looser(old, new, &q))
			continue;
		*saw = true;
		*unnamed = is_unnamed(q.exe) || is_unnamed(q.script);
		if (*said != 1) {
			put(&msg,
			    "PFSEL_COMPARE_SEED=%lu, pair %lu: "
			    "policy_compare() says %d (no looser), but\n  ",
			    seed, pair, *said);
			put_request(&msg, &q);
			put(&msg,
			    "\nis looser in the new policy.\nold:\n%s"
			    "new:\n%s",
			    old_text, new_text);
		}
		break;
	}
	if (*said < 0 && !msg.s)
		put(&msg, "policy_compare() failed: %s\nold:\n%snew:\n%s",
		    policy_last_error(), old_text, new_text);
	pfsel_policydb_free(old);
	pfsel_policydb_free(new);
	free(bo.data);
	free(bn.data);
	free(old_text);
	free(new_text);
	policy_free(&po);
	policy_free(&pn);
	return msg.s;
}

/* Pairs of @of's shape, as the environment chooses (top of the file). */
static void shape_matches_brute_force(const struct shape *of)
{
	const unsigned long seed =
		env_number("PFSEL_COMPARE_SEED", DEFAULT_SEED);
	const unsigned long pairs =
		env_number("PFSEL_COMPARE_PAIRS", DEFAULT_PAIRS);
	unsigned long pair, said_looser = 0, saw_looser = 0, unnamed = 0;

	shape = of;
	for (pair = 0; pair < pairs; pair++) {
		bool saw, by_unnamed;
		int said;
		char *wrong = one_pair(seed, pair, &said, &saw, &by_unnamed);

		if (wrong) {
			print_error("%s", wrong);
			free(wrong);
			fail();
		}
		said_looser += said == 1;
		saw_looser += saw;
		unnamed += by_unnamed;
	}
	print_message("%lu pairs: %lu said looser; brute force found a looser "
		      "request in %lu (%lu first for an unnamed executable or "
		      "script)\n",
		      pairs, said_looser, saw_looser, unnamed);
	/* The run tested something: both answers came up. */
	assert_true(said_looser > 0 && said_looser < pairs);
}

static void test_compare_matches_brute_force(void **state)
{
	(void)state;
	shape_matches_brute_force(&the_shape);
}

/*
 * The adversary's shape (adv_shape): what the shortcuts assume of the `*`
 * rules, of sets of rows and of scripts, tested where it is least true.
 */
static void test_adversary_shape_matches_brute_force(void **state)
{
	(void)state;
	shape_matches_brute_force(&adv_shape);
}

/* ---- The shortcuts at scale --------------------------------------------- */

/* The edits of scaled_policy(), and whether each makes it looser. */
static const struct {
	const char *what;
	int looser;
} edits[] = {
	{ "none", 0 },
	{ "a port taken out of an application's allow", 0 },
	{ "a port added to an application's allow", 1 },
	{ "an allow for every application, first", 1 },
	{ "a deny for every application, first", 0 },
	{ "an allow by host name for every application, first", 1 },
	{ "a deny of an application's own, first", 0 },
	{ "an application's deny by address taken out (ask by default)", 1 },
	{ "a deny by host name for every application taken out", 1 },
};

/*
 * A policy of the benchmark's shape (tests/bench/gen-policy), smaller:
 * `*` rules over blocks of addresses and by host name (the base cells,
 * which every application has), applications with rules of their own
 * over other blocks and by host name, an interpreter with scripts; and
 * edit @edit (edits[]).  Most of such a pair is what policy_compare()
 * passes over.
 */
static char *scaled_policy(size_t edit)
{
	struct text t = { 0 };
	int i;

	put(&t, "default ask;\nask unanswered deny;\n");
	if (edit == 3)
		put(&t, "allow * connect tcp to 10.16.0.0/16 port 5;\n");
	if (edit == 4)
		put(&t, "deny * connect tcp to 10.200.0.0/16;\n");
	if (edit == 5)
		put(&t, "allow * connect tcp to host h3.example port 80;\n");
	if (edit == 6)
		put(&t, "deny /opt/app5 connect udp to 172.16.5.0/24;\n");
	for (i = 0; i < 160; i++) {
		const int port = 100 + 7 * i;

		switch (i % 8) {
		case 0:
			put(&t,
			    "deny * connect tcp, udp to 10.%d.0.0/16 port %d;\n",
			    i, port);
			break;
		case 1:
			put(&t,
			    "allow /opt/app%d connect tcp to 172.16.%d.0/24 "
			    "port %d-%d;\n",
			    i % 12, i, port, port + 5);
			break;
		case 2:
			put(&t,
			    "deny * bind udp, tcp on 192.168.%d.1 port %d;\n",
			    i, port);
			break;
		case 3:
			if (edit == 7 && i == 19)
				break;
			put(&t,
			    "deny /opt/app%d connect, bind, accept tcp, udp to "
			    "127.%d.0.0/24 port %d;\n",
			    i % 12, i, port);
			break;
		case 4:
			if (edit == 8 && i == 12)
				break;
			put(&t,
			    "deny * connect tcp to host h%d.example port %d;\n",
			    i % 7, port);
			break;
		case 5:
			put(&t,
			    "allow /usr/lib/x%d/** connect, accept udp to "
			    "198.18.0.%d port %d, %d;\n",
			    i % 6, i, port, port + 1);
			break;
		case 6:
			put(&t,
			    "allow /opt/app%d connect tcp to host *.z%d.example;\n",
			    i % 12, i);
			break;
		default:
			put(&t,
			    "deny /usr/bin/python3 script /opt/s%d.py connect udp "
			    "to 203.0.%d.0/24 port %d;\n",
			    i % 5, i, port);
			break;
		}
	}
	put(&t, "allow /opt/app1 connect tcp, udp to loopback port 40007%s;\n",
	    edit == 1 ? "" :
	    edit == 2 ? ", 40009, 40011" :
			", 40009");
	put(&t, "allow /opt/app1 accept tcp from loopback port 40007;\n");
	return t.s;
}

/*
 * Pairs of that shape, each edit against the policy unedited: the answer
 * the edit calls for, and policy_compare_exhaustive()'s answer and report.
 */
static void test_shortcuts_at_scale(void **state)
{
	char *old_text = scaled_policy(0);
	struct blob bo = compile_quietly(old_text, 1001, true);
	size_t e;

	(void)state;
	for (e = 0; e < sizeof(edits) / sizeof(edits[0]); e++) {
		char *new_text = scaled_policy(e);
		struct blob bn = compile_quietly(new_text, 1001, true);
		int said = policy_compare(bo.data, bo.len, bn.data, bn.len,
					  NULL, 0);
		char *differs = differs_from_exhaustive(&bo, &bn, said);

		if (differs || said != edits[e].looser)
			fail_msg(
				"%s: policy_compare() says %d, %d expected%s%s",
				edits[e].what, said, edits[e].looser,
				differs ? "; " : "", differs ? differs : "");
		free(bn.data);
		free(new_text);
	}
	free(bo.data);
	free(old_text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_matches_brute_force),
		cmocka_unit_test(test_adversary_shape_matches_brute_force),
		cmocka_unit_test(test_shortcuts_at_scale),
	};

	return cmocka_run_group_tests(tests, find_pfwc, NULL);
}
