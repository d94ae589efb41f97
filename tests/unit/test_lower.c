// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the lowering (compiler/lower.c): the classes it computes,
 * the application keys including scripts, and, on random policies, that the
 * compiled decision equals the first-match reference on every request.
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
#include "frontend_util.h"
#include "generate.h"
#include "lower.h"
#include "policydb.h"
#include "reference.h"

static char file_name[] = "l.pfw";

static struct pfw_policy *new_policy(void)
{
	struct pfw_policy *p = calloc(1, sizeof(*p));

	p->files = calloc(1, sizeof(*p->files));
	p->files[0] = strdup(file_name);
	p->n_files = 1;
	p->settings.default_verdict = PFW_VERDICT_ASK;
	p->settings.ask_timeout_ms = 30000;
	p->settings.no_answer = PFW_VERDICT_DENY;
	return p;
}

static struct pfw_path_pattern pat(enum pfw_path_kind kind, const char *path)
{
	return (struct pfw_path_pattern){ kind, path ? strdup(path) : NULL };
}

/* A rule for every op/proto, any address and port, of one app pattern. */
static void add_app_rule(struct pfw_policy *p, enum pfw_verdict v,
			 struct pfw_path_pattern exe, bool is_script,
			 struct pfw_path_pattern script)
{
	struct pfw_rule *r;

	p->rules = realloc(p->rules, (p->n_rules + 1) * sizeof(*p->rules));
	r = &p->rules[p->n_rules];
	memset(r, 0, sizeof(*r));
	r->loc = (struct pfw_loc){ file_name, 1 + p->n_rules, 1 };
	r->index = p->n_rules++;
	r->verdict = v;
	r->ops = PFW_OP_ALL;
	r->protos = PFW_PROTO_ALL;
	r->families = PFW_FAMILY_ALL;
	r->apps = calloc(1, sizeof(*r->apps));
	r->apps[0] = (struct pfw_app){ .exe = exe,
				       .is_script = is_script,
				       .script = script };
	r->n_apps = 1;
	r->any_addr = true;
	r->any_port = true;
	r->shadowed_by = -1;
}

static uint32_t rule_of(const struct pfsel_policydb *db, const char *exe,
			const char *script)
{
	struct pfsel_decision d;
	uint8_t a[16] = { 0 };

	assert_int_equal(pfw_policydb_request(db, exe, script, PFSEL_OP_CONNECT,
					      PFSEL_PROTO_TCP, 0, a, 80, &d),
			 0);
	return d.rule;
}

static bool protected_app(const struct pfsel_policydb *db, const char *exe,
			  const char *script)
{
	return pfsel_policydb_app_protected(
		db, pfsel_policydb_classify_app(db, exe, script));
}

static struct pfsel_policydb *compile(struct pfw_policy *p)
{
	struct pfsel_policydb *db;
	uint8_t *buf;
	size_t len;

	assert_int_equal(pfw_compile_pfsel(p, &buf, &len), 0);
	assert_int_equal(pfsel_policydb_load(buf, len, &db), 0);
	free(buf);
	return db;
}

static void test_app_keys(void **state)
{
	struct pfw_policy *p = new_policy();
	struct pfw_path_pattern none = { PFW_PATH_ANY, NULL };
	struct pfsel_policydb *db;

	(void)state;
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_EXACT, "/usr/bin/a"),
		     false, none); /* 0 */
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_CHILD, "/usr/bin"),
		     false, none); /* 1 */
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_TREE, "/usr"), false,
		     none); /* 2 */
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_EXACT, "/usr/bin/py"),
		     true, pat(PFW_PATH_TREE, "/home")); /* 3 */
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_ANY, NULL), true,
		     pat(PFW_PATH_EXACT, "/opt/s")); /* 4 */
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_CHILD, ""), false,
		     none); /* 5: "/" + "*" */
	db = compile(p);

	assert_int_equal(rule_of(db, "/usr/bin/a", NULL), 0);
	assert_int_equal(rule_of(db, "/usr/bin/b", NULL), 1);
	assert_int_equal(rule_of(db, "/usr/bin/x/y", NULL), 2);
	assert_int_equal(rule_of(db, "/usr/x", NULL), 2);
	assert_int_equal(rule_of(db, "/usr", NULL), 5);
	assert_int_equal(rule_of(db, "/bin", NULL), 5);
	assert_int_equal(rule_of(db, "/bin/sh", NULL), PFSEL_NONE);
	assert_int_equal(rule_of(db, "sh", NULL), PFSEL_NONE);
	/* Plain patterns match whether or not a script runs. */
	assert_int_equal(rule_of(db, "/usr/bin/py", "/home/u/x"), 1);
	assert_int_equal(rule_of(db, "/opt/py", "/home/u/x"), PFSEL_NONE);
	assert_int_equal(rule_of(db, "/opt/py", "/opt/s"), 4);
	assert_int_equal(rule_of(db, "/py", "/home/u/x"), 5);
	assert_int_equal(rule_of(db, "/opt/py", "/home"), PFSEL_NONE);
	assert_int_equal(rule_of(db, "/opt/py", NULL), PFSEL_NONE);
	pfsel_policydb_free(db);
	pfw_policy_free(p);
}

/*
 * An exact path holding glob characters is stored as a plain string: the
 * kernel's reader matches it literally, and its siblings stay others.
 */
static void test_exact_glob_names(void **state)
{
	struct pfw_policy *p = new_policy();
	struct pfw_path_pattern none = { PFW_PATH_ANY, NULL };
	struct pfsel_policydb *db;

	(void)state;
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_EXACT, "/tmp/g/*"),
		     false, none); /* 0 */
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_EXACT, "/tmp/h/**"),
		     false, none); /* 1 */
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_CHILD, "/tmp/h"), false,
		     none); /* 2 */
	db = compile(p);
	assert_int_equal(rule_of(db, "/tmp/g/*", NULL), 0);
	assert_int_equal(rule_of(db, "/tmp/g/y", NULL), PFSEL_NONE);
	assert_int_equal(rule_of(db, "/tmp/g/**", NULL), PFSEL_NONE);
	assert_int_equal(rule_of(db, "/tmp/h/**", NULL), 1);
	assert_int_equal(rule_of(db, "/tmp/h/*", NULL), 2);
	assert_int_equal(rule_of(db, "/tmp/h/x", NULL), 2);
	assert_int_equal(rule_of(db, "/tmp/h/x/y", NULL), PFSEL_NONE);
	pfsel_policydb_free(db);
	pfw_policy_free(p);
}

static void test_empty_policy(void **state)
{
	struct pfw_policy *p = new_policy();
	struct pfw_lowered *low;
	struct pfsel_policydb *db;

	(void)state;
	assert_int_equal(pfw_lower(p, &low), 0);
	/* ::, the IPv4-mapped range and what follows it; all ports. */
	assert_int_equal(low->n_addrs, 3);
	assert_int_equal(low->n_ports, 1);
	assert_int_equal(low->n_exes, 1);
	assert_int_equal(low->n_apps, 1);
	assert_int_equal(low->n_groups, 0);
	assert_int_equal(low->n_protected, 0);
	pfw_lowered_free(low);
	db = compile(p);
	assert_int_equal(rule_of(db, "/bin/sh", NULL), PFSEL_NONE);
	pfsel_policydb_free(db);
	pfw_policy_free(p);
}

/* The "*" rules form one group shared by every application class. */
static void test_shared_global_group(void **state)
{
	struct pfw_policy *p = new_policy();
	struct pfw_path_pattern none = { PFW_PATH_ANY, NULL };
	struct pfw_lowered *low;

	(void)state;
	for (int i = 0; i < 50; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/bin/app%d", i);
		add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_EXACT, path),
			     false, none);
		add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_ANY, NULL),
			     false, none);
	}
	assert_int_equal(pfw_lower(p, &low), 0);
	assert_int_equal(low->n_apps, 51);
	/* One group per app, one for "*"; each app lists 1 or 2 groups. */
	assert_int_equal(low->n_groups, 51);
	assert_int_equal(low->n_grouplist, 51 + 50);
	pfw_lowered_free(low);
	pfw_policy_free(p);
}

/* Let the last rule name @exe too, as "allow A, B;" would. */
static void add_exact_app(struct pfw_policy *p, const char *exe)
{
	struct pfw_rule *r = &p->rules[p->n_rules - 1];

	r->apps = realloc(r->apps, (r->n_apps + 1) * sizeof(*r->apps));
	r->apps[r->n_apps++] =
		(struct pfw_app){ .exe = pat(PFW_PATH_EXACT, exe) };
}

/*
 * Protection splits classes that decide alike: the second rule below
 * decides nothing (the first matches everything it does), yet it makes a
 * protected and b not, so a and b must not share a class.
 */
static void test_protected_classes(void **state)
{
	struct pfw_policy *p = new_policy();
	struct pfw_path_pattern none = { PFW_PATH_ANY, NULL };
	struct pfsel_policydb *db;
	struct pfw_lowered *low;
	uint32_t first, last;

	(void)state;
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_EXACT, "/usr/bin/a"),
		     false, none); /* 0: allow a, b */
	add_exact_app(p, "/usr/bin/b");
	add_app_rule(p, PFW_VERDICT_ALLOW, pat(PFW_PATH_EXACT, "/usr/bin/a"),
		     false, none); /* 1: allow a protect */
	p->rules[1].protect = true;
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_EXACT, "/usr/bin/py"),
		     true, pat(PFW_PATH_TREE, "/home")); /* 2 */
	p->rules[2].protect = true;
	db = compile(p);
	assert_int_equal(rule_of(db, "/usr/bin/a", NULL), 0);
	assert_int_equal(rule_of(db, "/usr/bin/b", NULL), 0);
	assert_int_not_equal(
		pfsel_policydb_classify_app(db, "/usr/bin/a", NULL),
		pfsel_policydb_classify_app(db, "/usr/bin/b", NULL));
	assert_true(protected_app(db, "/usr/bin/a", NULL));
	assert_true(protected_app(db, "/usr/bin/a", "/home/u/x.py"));
	assert_false(protected_app(db, "/usr/bin/b", NULL));
	assert_false(protected_app(db, "/usr/bin/c", NULL));
	/* A script rule protects the pair only, whatever it decides. */
	assert_true(protected_app(db, "/usr/bin/py", "/home/u/x.py"));
	assert_false(protected_app(db, "/usr/bin/py", "/tmp/x.py"));
	assert_false(protected_app(db, "/usr/bin/py", NULL));
	pfsel_policydb_free(db);

	/* The lowered list: sorted, one entry per protected class. */
	assert_int_equal(pfw_lower(p, &low), 0);
	assert_int_equal(low->n_protected, 2);
	first = low->protected[0];
	last = low->protected[1];
	assert_true(first < last);
	assert_true(last < low->n_apps);
	pfw_lowered_free(low);

	/* A "*" rule with protect protects every class, the unnamed too. */
	add_app_rule(p, PFW_VERDICT_DENY, pat(PFW_PATH_ANY, NULL), false,
		     none); /* 3 */
	p->rules[3].protect = true;
	assert_int_equal(pfw_lower(p, &low), 0);
	assert_int_equal(low->n_protected, low->n_apps);
	pfw_lowered_free(low);
	db = compile(p);
	assert_true(protected_app(db, "/usr/bin/b", NULL));
	assert_true(protected_app(db, "/bin/sh", NULL));
	assert_true(protected_app(db, "sh", NULL));
	pfsel_policydb_free(db);
	pfw_policy_free(p);
}

static uint32_t bit_index(uint32_t bit)
{
	return __builtin_ctz(bit);
}

/* Random policies: the compiled decision equals the reference's. */
static void test_random_equivalence(void **state)
{
	unsigned long checked = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct gen_rng rng;
		struct pfw_policy *p;
		struct pfsel_policydb *db;

		gen_seed(&rng, seed * 7919);
		p = gen_policy(&rng, seed % 3 ? 12 : 60);
		db = compile(p);
		for (int q = 0; q < 300; q++) {
			struct gen_request gr;
			struct ref_decision want;
			struct pfsel_decision got;
			const struct pfw_request *r = &gr.request;

			gen_request(&rng, p, &gr);
			ref_decide(p, r, &want);
			assert_int_equal(
				pfw_policydb_request_names(
					db, r->exe, r->script, bit_index(r->op),
					bit_index(r->proto),
					bit_index(r->family), r->addr, r->port,
					r->names, r->n_names, &got),
				0);
			if ((got.rule == PFSEL_NONE ? -1L : (long)got.rule) !=
				    want.rule ||
			    got.verdict != (uint32_t)want.verdict ||
			    got.audit != want.audit ||
			    protected_app(db, r->exe, r->script) !=
				    ref_protected(p, r->exe, r->script)) {
				gen_print_policy(stderr, p);
				gen_print_request(stderr, r);
				fail_msg("seed %lu: rule %ld wanted, %d got",
					 (unsigned long)seed, want.rule,
					 (int)got.rule);
			}
			checked++;
		}
		pfsel_policydb_free(db);
		pfw_policy_free(p);
	}
	assert_true(checked == 300 * 300);
}

/* The rule the compiled policy gives a connect with host names. */
static long named_rule(const struct pfsel_policydb *db, const char *exe,
		       uint16_t port, const char *const *names, size_t n)
{
	static const uint8_t addr[16] = {
		[10] = 0xff, [11] = 0xff, 192, 0, 2, 1
	};
	struct pfsel_decision d;

	assert_int_equal(
		pfw_policydb_request_names(db, exe, NULL, PFSEL_OP_CONNECT,
					   PFSEL_PROTO_TCP, PFSEL_FAMILY_INET,
					   addr, port, names, n, &d),
		0);
	return d.rule == PFSEL_NONE ? -1L : (long)d.rule;
}

/*
 * Name classes: "*.example.org" and "www.example.org" make three (none,
 * below example.org, www.example.org itself, which both match); the name
 * slabs give each its first rule, ports included; a policy without host
 * elements has one class and no name slabs.
 */
static void test_name_classes(void **state)
{
	struct compiled c;
	struct pfw_lowered *low;
	struct pfsel_policydb *db;
	static const char *const www[] = { "www.example.org" };
	static const char *const a[] = { "a.example.org" };
	static const char *const deep[] = { "x.www.example.org" };
	static const char *const bare[] = { "example.org" };
	static const char *const both[] = { "other.test", "www.example.org" };

	(void)state;
	compile_text(&c,
		     "allow /a connect to host *.example.org;\n"
		     "deny /a connect to host www.example.org;\n"
		     "deny * connect tcp to host *.example.org port 22;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(pfw_lower(c.policy, &low), 0);
	assert_int_equal(low->n_name_classes, 3);
	assert_int_equal(low->n_name_patterns, 2);
	/* Sorted: "example.org" (tree) before "www.example.org" (exact). */
	assert_int_equal(low->name_patterns[0].flags, PFSEL_NAME_TREE);
	assert_int_equal(low->name_patterns[0].exact, PFSEL_NONE);
	assert_int_equal(low->name_patterns[1].flags, PFSEL_NAME_EXACT);
	assert_int_not_equal(low->name_patterns[0].tree,
			     low->name_patterns[1].exact);
	assert_int_not_equal(low->name_patterns[0].tree, 0);
	assert_int_not_equal(low->name_patterns[1].exact, 0);
	/* Every slice of NAME_SLABS starts at class 0 with no row. */
	for (size_t i = 0; i < low->n_cells; i++)
		if (low->name_cells[i].count) {
			assert_int_equal(
				low->name_slabs[low->name_cells[i].first].start,
				0);
			assert_int_equal(
				low->name_slabs[low->name_cells[i].first].row,
				PFSEL_NONE);
		}
	pfw_lowered_free(low);
	db = compile(c.policy);
	assert_true(pfsel_policydb_has_names(db));
	assert_int_equal(named_rule(db, "/a", 443, NULL, 0), -1);
	assert_int_equal(named_rule(db, "/a", 443, www, 1), 0);
	assert_int_equal(named_rule(db, "/a", 443, a, 1), 0);
	assert_int_equal(named_rule(db, "/a", 443, deep, 1), 0);
	assert_int_equal(named_rule(db, "/a", 443, bare, 1), -1);
	assert_int_equal(named_rule(db, "/b", 443, www, 1), -1);
	assert_int_equal(named_rule(db, "/b", 22, www, 1), 2);
	assert_int_equal(named_rule(db, "/a", 22, both, 2), 0);
	pfsel_policydb_free(db);
	compiled_free(&c);

	compile_text(&c, "allow * connect to 10.0.0.0/8;\n", NULL, false);
	assert_int_equal(pfw_lower(c.policy, &low), 0);
	assert_int_equal(low->n_name_classes, 1);
	assert_int_equal(low->n_name_slabs, 0);
	assert_int_equal(low->n_name_patterns, 0);
	assert_int_equal(low->n_resolvers, 0);
	pfw_lowered_free(low);
	compiled_free(&c);
}

/*
 * Resolver statements split application classes as rules do: the
 * resolver, the "any user" one and the rest are three classes although
 * no rule names them apart.
 */
static void test_resolver_classes(void **state)
{
	struct compiled c;
	struct pfsel_policydb *db;
	uint32_t dnsmasq, dig, other;

	(void)state;
	compile_text(&c,
		     "resolver /usr/sbin/dnsmasq;\n"
		     "resolver /usr/bin/dig any user;\n"
		     "allow * connect;\n",
		     NULL, true);
	assert_int_equal(c.errors, 0);
	db = compile(c.policy);
	dnsmasq = pfsel_policydb_classify_app(db, "/usr/sbin/dnsmasq", NULL);
	dig = pfsel_policydb_classify_app(db, "/usr/bin/dig", NULL);
	other = pfsel_policydb_classify_app(db, "/usr/bin/curl", NULL);
	assert_int_equal(pfsel_policydb_resolver(db, dnsmasq), 0);
	assert_int_equal(pfsel_policydb_resolver(db, dig),
			 PFSEL_RESOLVER_ANY_USER);
	assert_int_equal(pfsel_policydb_resolver(db, other), -ENOENT);
	/* The "allow *" rule still decides for all three. */
	assert_int_equal(rule_of(db, "/usr/sbin/dnsmasq", NULL), 0);
	pfsel_policydb_free(db);
	compiled_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_app_keys),
		cmocka_unit_test(test_exact_glob_names),
		cmocka_unit_test(test_empty_policy),
		cmocka_unit_test(test_shared_global_group),
		cmocka_unit_test(test_protected_classes),
		cmocka_unit_test(test_name_classes),
		cmocka_unit_test(test_resolver_classes),
		cmocka_unit_test(test_random_equivalence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
