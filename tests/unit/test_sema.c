// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for compiler/sema.c: names, normalisation, warnings, and the
 * comparison with a system policy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "against.h"
#include "frontend_util.h"

static void test_names_resolve_in_any_order(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;

	(void)state;
	compile_text(&c,
		     "allow web_apps connect tcp to lan port web;\n"
		     "apps web_apps = /usr/bin/firefox, more_apps;\n"
		     "apps more_apps = /opt/app/**;\n"
		     "hosts lan = 192.168.0.0/16, loopback;\n"
		     "ports web = https, 8000-8080;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 0);
	rule = &c.policy->rules[0];
	assert_int_equal(rule->n_apps, 2);
	assert_int_equal(rule->apps[1].exe.kind, PFW_PATH_TREE);
	/* 192.168/16 and loopback's 127/8 and ::1, sorted by address. */
	assert_int_equal(rule->n_addrs, 3);
	assert_int_equal(rule->addrs[0].addr[15], 1);
	assert_int_equal(rule->addrs[1].prefix_len, 96 + 8);
	assert_int_equal(rule->addrs[2].prefix_len, 96 + 16);
	assert_int_equal(rule->n_ports, 2);
	assert_int_equal(rule->ports[0].first, 443);
	assert_int_equal(rule->ports[1].first, 8000);
	compiled_free(&c);
}

static void test_name_errors(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "hosts a = b;\nhosts b = a;\n"
		     "ports p = 1;\nports p = 2;\n"
		     "hosts loopback = ::1;\n"
		     "allow * connect port nosuch;\n"
		     "allow * connect to p;\n"
		     "allow nosuch;\n",
		     NULL, false);
	assert_true(said(&c, "the definition of 'a' refers to itself"));
	assert_true(said(&c, "test.pfw:4:7: error: 'p' is already defined"));
	assert_true(
		said(&c, "test.pfw:3:7: note: the first definition is here"));
	assert_true(said(&c, "'loopback' is a built-in host name"));
	assert_true(said(
		&c,
		"no ports named 'nosuch' is defined or listed as a service"));
	assert_true(said(&c, "'p' names ports, but hosts are expected here"));
	assert_true(said(&c, "no apps named 'nosuch' is defined"));
	compiled_free(&c);
}

static void test_sets_are_normalised(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;

	(void)state;
	compile_text(&c,
		     "allow /usr/bin/x, /usr/bin/*, /usr/** connect tcp "
		     "to 10.1.0.0/16, 10.0.0.0/8, 10.0.0.0/8 "
		     "port 5-9, 1-4, 7, 20-30;\n"
		     "allow /x connect to 10.0.0.0/8, ::/0;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	rule = &c.policy->rules[0];
	assert_int_equal(rule->n_apps, 1);
	assert_int_equal(rule->apps[0].exe.kind, PFW_PATH_TREE);
	assert_int_equal(rule->n_addrs, 1);
	/* ::/0 is every address. */
	assert_true(c.policy->rules[1].any_addr);
	assert_int_equal(c.policy->rules[1].n_addrs, 0);
	/* 1-4 and 5-9 touch: one range; 7 overlaps (warned). */
	assert_int_equal(rule->n_ports, 2);
	assert_int_equal(rule->ports[0].first, 1);
	assert_int_equal(rule->ports[0].last, 9);
	assert_int_equal(rule->ports[1].first, 20);
	assert_true(
		said(&c, "'/usr/bin/x' is already covered by '/usr/bin/*'"));
	assert_true(said(&c, "'/usr/bin/*' is already covered by '/usr/**'"));
	assert_true(said(
		&c, "address 10.1.0.0/16 is already covered by 10.0.0.0/8"));
	assert_true(said(&c, "ports 1-9 and port 7 overlap in the same list"));
	compiled_free(&c);
}

static void test_service_on_two_protocols_is_one_port(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "allow * connect port dns, quic;\n", NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 0);
	assert_int_equal(c.policy->rules[0].n_ports, 2);
	compiled_free(&c);
}

static void test_shadowed_rule_names_the_earlier_one(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow /usr/bin/* connect tcp to 10.0.0.0/8;\n"
		     "deny /usr/bin/ssh connect tcp to 10.1.2.3 port 22;\n"
		     "deny /usr/bin/ssh connect udp to 10.1.2.3;\n"
		     "allow * create;\n"
		     "deny /x create tcp family inet;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 2);
	assert_true(said(
		&c,
		"test.pfw:2:1: warning: this rule can never match: an earlier rule matches every request it does [-Wshadow]"));
	assert_true(said(&c, "test.pfw:1:1: note: the earlier rule is here"));
	assert_true(
		said(&c, "test.pfw:5:1: warning: this rule can never match"));
	assert_int_equal(c.policy->rules[1].shadowed_by, 0);
	assert_int_equal(c.policy->rules[2].shadowed_by, -1);
	assert_int_equal(c.policy->rules[4].shadowed_by, 3);
	compiled_free(&c);
}

static void test_script_forms_and_shadowing(void **state)
{
	struct compiled c;

	(void)state;
	/* A plain pattern matches scripted processes too, not the reverse. */
	compile_text(&c,
		     "allow /usr/bin/python3 script /home/** connect;\n"
		     "allow /usr/bin/python3 connect;\n"
		     "allow /usr/bin/python3 script /home/a/x.py connect;\n",
		     NULL, false);
	assert_int_equal(c.policy->rules[1].shadowed_by, -1);
	assert_int_equal(c.policy->rules[2].shadowed_by, 0);
	compiled_free(&c);
}

/*
 * "/" with two stars matches every path the kernel can name; "*" also
 * matches the unnamed applications (an executable or a script the kernel
 * could not name from init's root, classified as "?"), so a "*" rule
 * after a rule for every named path still decides those and is not
 * shadowed (issue 27's counterexample).  The other way round, "*" covers
 * every named path.
 */
static void test_unnamed_is_not_shadowed(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow /** create;\n"
		     "deny /** connect tcp to loopback port 7022;\n"
		     "allow * create;\n"
		     "allow * connect tcp to loopback port 7022;\n"
		     "deny /usr/bin/python3 script /** connect;\n"
		     "allow /usr/bin/python3 script * connect;\n"
		     "allow * bind;\n"
		     "deny /** bind tcp;\n"
		     "allow /usr/bin/python3 script * listen;\n"
		     "deny /usr/bin/python3 script /home/** listen;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.policy->rules[2].shadowed_by, -1);
	assert_int_equal(c.policy->rules[3].shadowed_by, -1);
	assert_int_equal(c.policy->rules[5].shadowed_by, -1);
	assert_int_equal(c.policy->rules[7].shadowed_by, 6);
	assert_int_equal(c.policy->rules[9].shadowed_by, 8);
	assert_int_equal(c.warnings, 2);
	compiled_free(&c);

	/* In one list, every named path is the member "*" covers, in any order. */
	compile_text(&c, "allow /**, * connect;\n", NULL, false);
	assert_true(
		said(&c, "'/**' is already covered by '*' in the same list"));
	compiled_free(&c);
	compile_text(&c, "allow *, /** connect;\n", NULL, false);
	assert_true(
		said(&c, "'/**' is already covered by '*' in the same list"));
	compiled_free(&c);
}

static void test_werror_and_disabling(void **state)
{
	struct compiled c;
	static const char source[] = "allow *;\ndeny /x;\nports unused = 1;\n";

	(void)state;
	compile_text(&c, source, NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 2);
	assert_true(said(&c, "'unused' is defined but never used [-Wunused]"));
	compiled_free(&c);

	compile_text(&c, source, "-Werror", false);
	assert_int_equal(c.errors, 2);
	assert_true(said(
		&c,
		"error: this rule can never match: an earlier rule matches every request it does [-Werror=shadow]"));
	compiled_free(&c);

	compile_text(&c, source, "-Werror -Wno-shadow -Wno-unused", false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 0);
	assert_int_equal(c.messages_len, 0);
	compiled_free(&c);
}

static void test_audit_flags_without_effect(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "deny /a log;\nallow /b quiet;\nask /c log quiet;\n",
		     NULL, false);
	assert_int_equal(c.warnings, 2);
	assert_true(said(
		&c,
		"test.pfw:1:1: warning: 'log' has no effect on a deny rule"));
	assert_true(said(
		&c,
		"test.pfw:2:1: warning: 'quiet' has no effect on an allow rule"));
	compiled_free(&c);
}

/* -Wprotect: a rule for every program protects every program. */
static void test_protect_for_every_program(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "apps all = /usr/bin/ssh, *;\n"
		     "allow * connect tcp port 443 protect;\n"
		     "deny /** protect;\n"
		     "allow all protect;\n"
		     "allow * script /home/u/x.py protect;\n"
		     "allow /usr/bin/firefox, /usr/lib/** protect;\n",
		     "-Wno-overlap -Wno-shadow", false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 3);
	assert_true(said(
		&c,
		"test.pfw:2:30: warning: 'protect' on a rule for '*' protects every program: each runs in secure-execution mode and none can be debugged by its user [-Wprotect]"));
	assert_true(said(
		&c, "test.pfw:3:10: warning: 'protect' on a rule for '/**'"));
	/* Through a name: the note says where the '*' is. */
	assert_true(said(
		&c, "test.pfw:4:11: warning: 'protect' on a rule for '*'"));
	assert_true(said(&c, "test.pfw:1:26: note: '*' is here"));
	/* Scripts of any interpreter, or some programs: no warning. */
	assert_false(said(&c, "test.pfw:5:"));
	assert_false(said(&c, "test.pfw:6:"));
	compiled_free(&c);

	compile_text(&c, "allow * protect;\n", "-Wno-protect", false);
	assert_int_equal(c.warnings, 0);
	assert_true(c.policy->rules[0].protect);
	compiled_free(&c);
	compile_text(&c, "allow * protect;\n", "-Werror", false);
	assert_int_equal(c.errors, 1);
	assert_true(said(&c, "[-Werror=protect]"));
	compiled_free(&c);
}

/* A rule that never decides still protects: the shadow warning says so. */
static void test_shadowed_protect_rule(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow /usr/bin/a, /usr/bin/b;\n"
		     "allow /usr/bin/a protect;\n"
		     "deny /usr/bin/b connect;\n",
		     NULL, false);
	assert_int_equal(c.warnings, 2);
	assert_true(
		said(&c, "test.pfw:2:1: warning: this rule can never match"));
	assert_true(said(
		&c,
		"test.pfw:2:18: note: its 'protect' still applies: the applications it names are protected"));
	assert_true(
		said(&c, "test.pfw:3:1: warning: this rule can never match"));
	assert_false(said(&c, "test.pfw:3:1: note: its 'protect'"));
	compiled_free(&c);
}

static void test_kind_and_uid_options(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "policy user 5;\n", NULL, true);
	assert_true(said(&c, "this is a user policy, but --system was given"));
	compiled_free(&c);
}

static void test_against_system_policy(void **state)
{
	struct compiled user, system;

	(void)state;
	compile_text(&system,
		     "allow /usr/sbin/* bind tcp port 1-1023;\n"
		     "deny * bind tcp, udp port 1-1023;\n"
		     "deny * connect to 169.254.169.254;\n"
		     "ask * connect tcp port 25;\n",
		     NULL, true);
	compile_text(&user,
		     "allow /usr/sbin/nginx bind tcp port 80;\n"
		     "allow /home/u/srv bind tcp port 80;\n"
		     "allow * connect tcp to 10.0.0.0/8 port 443;\n"
		     "deny * connect udp;\n"
		     "allow * connect tcp;\n",
		     NULL, false);
	assert_int_equal(system.errors + user.errors, 0);
	pfw_against_system(user.policy, system.policy, &user.diag);
	fflush(user.out);
	/* nginx is allowed by the earlier system rule: no report. */
	assert_false(said(&user, "test.pfw:1:1: warning"));
	assert_true(said(
		&user,
		"test.pfw:2:1: warning: the system policy says 'deny' for all requests this rule would allow [-Woverride]"));
	assert_true(said(
		&user,
		"test.pfw:5:1: warning: the system policy says 'deny' for some requests this rule would allow"));
	assert_true(
		said(&user, "system.pfw:3:1: note: the system rule is here"));
	/* deny is as strict as it gets; 10/8:443 meets no stricter rule. */
	assert_false(said(&user, "test.pfw:4:1: warning"));
	assert_false(said(&user, "test.pfw:3:1: warning"));
	compiled_free(&user);
	compiled_free(&system);
}

static void test_self_reference_through_a_duplicate(void **state)
{
	struct compiled c;

	(void)state;
	/* Found by the fuzzer: the second "h" names the first, which names
	 * itself; expanding a list into itself must not happen. */
	compile_text(&c,
		     "hosts h = ::1, h;\nhosts h = 10.0.0.0/8, h;\n"
		     "allow * connect to h;\n",
		     NULL, false);
	assert_true(said(&c, "the definition of 'h' refers to itself"));
	assert_true(said(&c, "'h' is already defined"));
	compiled_free(&c);
}

static void test_name_chains_are_bounded(void **state)
{
	char source[8192] = "";
	struct compiled c;
	size_t used = 0;

	(void)state;
	/* p0 = p1, p1 = p2, ...: resolution recurses, so it has a limit. */
	for (int i = 0; i < PFW_NAME_DEPTH_MAX + 5; i++)
		used += (size_t)snprintf(source + used, sizeof(source) - used,
					 "ports p%d = p%d;\n", i, i + 1);
	snprintf(source + used, sizeof(source) - used,
		 "ports p%d = 1;\nallow * connect port p0;\n",
		 PFW_NAME_DEPTH_MAX + 5);
	compile_text(&c, source, NULL, false);
	assert_int_equal(c.errors, 1);
	assert_true(
		said(&c, "names are defined through more than 64 other names"));
	compiled_free(&c);
}

static void test_builtin_hosts(void **state)
{
	const struct pfw_cidr *cidrs;

	(void)state;
	assert_int_equal(pfw_builtin_hosts("private", &cidrs), 4);
	assert_int_equal(pfw_builtin_hosts("loopback", &cidrs), 2);
	assert_int_equal(pfw_builtin_hosts("unspecified", &cidrs), 2);
	assert_int_equal(cidrs[0].prefix_len, 128);
	assert_int_equal(pfw_builtin_hosts("nosuch", &cidrs), 0);
}

/* The checks that need the resolved rule or the policy's kind. */
static void test_host_semantics(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "deny * connect family inet to host z.example;\n"
		     "resolver /usr/sbin/dnsmasq;\n",
		     NULL, false);
	assert_true(said(
		&c,
		"test.pfw:1:36: error: a rule with host names cannot say 'family'"));
	assert_true(said(
		&c,
		"test.pfw:2:1: error: 'resolver' is for the system policy"));
	compiled_free(&c);

	/* The system policy may; "any" swallows host elements. */
	compile_text(&c,
		     "apps dns = /usr/sbin/dnsmasq;\n"
		     "resolver dns, /usr/lib/systemd/systemd-resolved;\n"
		     "resolver * any user;\n"
		     "allow * connect to host a.example, any;\n",
		     NULL, true);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.policy->n_resolvers, 2);
	assert_int_equal(c.policy->resolvers[0].n_apps, 2);
	assert_false(c.policy->resolvers[0].any_user);
	assert_true(c.policy->resolvers[1].any_user);
	assert_true(c.policy->rules[0].any_addr);
	assert_int_equal(c.policy->rules[0].n_hosts, 0);
	compiled_free(&c);
}

/* Repeated and covered host elements, too wide ones, pointless ones. */
static void test_host_warnings(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(
		&c,
		"allow * connect to host www.example.org, host *.example.org, host *.Example.org;\n"
		"deny * connect to host *.com;\n"
		"allow * bind, listen to host x.example;\n",
		NULL, false);
	assert_int_equal(c.errors, 0);
	assert_true(said(
		&c,
		"test.pfw:1:25: warning: 'host www.example.org' is already covered by 'host *.example.org' in the same list [-Woverlap]"));
	assert_true(said(
		&c,
		"test.pfw:1:67: warning: 'host *.example.org' is already covered by 'host *.example.org' in the same list [-Woverlap]"));
	assert_int_equal(c.policy->rules[0].n_hosts, 1);
	assert_true(said(
		&c,
		"test.pfw:2:24: warning: 'host *.com' matches every name in the top-level domain 'com' [-Whost]"));
	assert_true(said(
		&c,
		"test.pfw:3:30: warning: host names in a rule for 'bind' and 'listen' only"));
	compiled_free(&c);
}

/*
 * A deny or an ask by name holds only for the names the kernel learned: a
 * warning at the rule, on by default (-Whost); not for an allow by name,
 * nor a deny by address.
 */
static void test_host_deny_is_advice(void **state)
{
	static const char source[] =
		"default deny;\n"
		"hosts bad = host bad.example;\n"
		"allow * connect tcp to host www.example.org port 443;\n"
		"deny * connect to host evil.example;\n"
		"deny * connect to 192.0.2.0/24;\n"
		"ask /usr/bin/curl connect tcp to bad, 10.0.0.0/8 port 80;\n";
	struct compiled c;

	(void)state;
	compile_text(&c, source, NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.warnings, 2);
	assert_true(said(
		&c,
		"test.pfw:4:1: warning: 'deny' by host name holds only for addresses whose name the kernel learned from a resolver's answer: a program that connects by address, or after the name expired, is not denied by this rule; to confine a program, deny by default and allow the names it may reach [-Whost]"));
	assert_true(said(
		&c,
		"test.pfw:6:1: warning: 'ask' by host name holds only for addresses whose name the kernel learned"));
	compiled_free(&c);

	compile_text(&c, source, "-Wno-host", false);
	assert_int_equal(c.warnings, 0);
	assert_int_equal(c.messages_len, 0);
	compiled_free(&c);
	compile_text(&c, source, "-Werror", false);
	assert_int_equal(c.errors, 2);
	assert_true(said(&c, "test.pfw:4:1: error: 'deny' by host name"));
	assert_true(said(&c, "[-Werror=host]"));
	compiled_free(&c);
}

/*
 * Shadowing knows names: a host rule is not covered by an address rule,
 * and "*.example.org" covers "www.example.org".
 */
static void test_host_shadowing(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow * connect to 10.0.0.0/8;\n"
		     "deny * connect to host a.example;\n"
		     "allow * connect to host *.example.org;\n"
		     "deny * connect to host www.example.org;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_false(
		said(&c, "test.pfw:2:1: warning: this rule can never match"));
	assert_true(
		said(&c, "test.pfw:4:1: warning: this rule can never match"));
	compiled_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_semantics),
		cmocka_unit_test(test_host_warnings),
		cmocka_unit_test(test_host_deny_is_advice),
		cmocka_unit_test(test_host_shadowing),
		cmocka_unit_test(test_names_resolve_in_any_order),
		cmocka_unit_test(test_name_errors),
		cmocka_unit_test(test_sets_are_normalised),
		cmocka_unit_test(test_service_on_two_protocols_is_one_port),
		cmocka_unit_test(test_shadowed_rule_names_the_earlier_one),
		cmocka_unit_test(test_script_forms_and_shadowing),
		cmocka_unit_test(test_unnamed_is_not_shadowed),
		cmocka_unit_test(test_werror_and_disabling),
		cmocka_unit_test(test_audit_flags_without_effect),
		cmocka_unit_test(test_protect_for_every_program),
		cmocka_unit_test(test_shadowed_protect_rule),
		cmocka_unit_test(test_kind_and_uid_options),
		cmocka_unit_test(test_against_system_policy),
		cmocka_unit_test(test_self_reference_through_a_duplicate),
		cmocka_unit_test(test_name_chains_are_bounded),
		cmocka_unit_test(test_builtin_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
