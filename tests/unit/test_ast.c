// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for compiler/ast.c: the normative matching helpers and the
 * set relations sema's analyses rest on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "frontend_util.h"

static struct pfw_path_pattern pattern(const char *text)
{
	struct pfw_path_pattern p;

	if (pfw_parse_path_pattern(text, &p))
		abort();
	return p;
}

static bool matches(const char *pattern_text, const char *path)
{
	struct pfw_path_pattern p = pattern(pattern_text);
	bool result = pfw_path_matches(&p, path);

	free(p.path);
	return result;
}

static bool relation(const char *outer_text, const char *inner_text,
		     bool contains)
{
	struct pfw_path_pattern outer = pattern(outer_text);
	struct pfw_path_pattern inner = pattern(inner_text);
	bool result = contains ? pfw_path_contains(&outer, &inner) :
				 pfw_path_intersects(&outer, &inner);

	free(outer.path);
	free(inner.path);
	return result;
}

static void test_path_matching(void **state)
{
	(void)state;
	assert_true(matches("/usr/bin/ssh", "/usr/bin/ssh"));
	assert_false(matches("/usr/bin/ssh", "/usr/bin/ssh2"));
	assert_true(matches("/usr/bin/*", "/usr/bin/ssh"));
	assert_false(matches("/usr/bin/*", "/usr/bin/x/ssh"));
	assert_false(matches("/usr/bin/*", "/usr/bin"));
	assert_false(matches("/usr/bin/*", "/usr/binx/ssh"));
	assert_true(matches("/usr/**", "/usr/bin/x/ssh"));
	assert_false(matches("/usr/**", "/usr"));
	assert_false(matches("/usr/**", "/usrx/a"));
	assert_true(matches("/**", "/a"));
	assert_true(matches("/*", "/a"));
	assert_false(matches("/*", "/a/b"));
	assert_true(matches("*", "/anything/at/all"));
	/*
	 * The kernel classifies an unnamed executable or script as "?": only
	 * "*" matches it, no absolute pattern, not even every path below "/".
	 */
	assert_true(matches("*", "?"));
	assert_false(matches("/**", "?"));
	assert_false(matches("/*", "?"));
}

static void test_path_relations(void **state)
{
	(void)state;
	assert_true(relation("/usr/**", "/usr/bin/*", true));
	assert_true(relation("/usr/**", "/usr/**", true));
	assert_true(relation("/usr/bin/*", "/usr/bin/ssh", true));
	assert_false(relation("/usr/bin/*", "/usr/**", true));
	assert_false(relation("/usr/bin/*", "/usr/bin/x/y", true));
	/* "/" and two stars: every named path, but not the unnamed "?". */
	assert_false(relation("/**", "*", true));
	assert_true(relation("/**", "/*", true));
	assert_true(relation("/**", "/usr/bin/ssh", true));
	assert_true(relation("*", "/**", true));
	assert_true(relation("/**", "*", false));
	assert_false(relation("/usr/**", "*", true));
	assert_true(relation("*", "/usr/**", true));

	assert_true(relation("/usr/bin/*", "/usr/**", false));
	assert_false(relation("/usr/bin/*", "/usr/bin/x/**", false));
	assert_true(relation("/usr/bin/x/**", "/usr/**", false));
	assert_false(relation("/usr/bin/*", "/usr/lib/*", false));
	assert_true(relation("/usr/bin/ssh", "/usr/**", false));
	assert_false(relation("/usr/bin/ssh", "/usr/lib/**", false));
	assert_true(relation("*", "/x", false));
}

static void test_cidr_helpers(void **state)
{
	struct pfw_cidr cidr;
	uint8_t addr[16], first[16], last[16];
	char text[64];
	bool is_ipv4;

	(void)state;
	assert_null(pfw_parse_address("10.0.0.0/8", &cidr, &is_ipv4));
	address_of("10.255.255.255", addr);
	assert_true(pfw_cidr_contains(&cidr, addr));
	address_of("11.0.0.0", addr);
	assert_false(pfw_cidr_contains(&cidr, addr));
	/* The mapped form is the same point. */
	address_of("::ffff:10.1.2.3", addr);
	assert_true(pfw_cidr_contains(&cidr, addr));
	pfw_cidr_bounds(&cidr, first, last);
	assert_int_equal(first[12], 10);
	assert_int_equal(last[15], 255);
	assert_string_equal(pfw_cidr_format(&cidr, text, sizeof(text)),
			    "10.0.0.0/8");
	assert_null(pfw_parse_address("::/0", &cidr, &is_ipv4));
	assert_string_equal(pfw_cidr_format(&cidr, text, sizeof(text)), "::/0");
	assert_true(pfw_cidr_contains(&cidr, addr));
}

static void test_rule_matching(void **state)
{
	struct compiled c;
	const struct pfw_rule *rules;
	uint8_t v4[16], v6[16], none[16] = { 0 };

	(void)state;
	compile_text(&c,
		     "allow /usr/bin/* connect tcp to 10.0.0.0/8 port 443;\n"
		     "allow /py script /s/* connect udp family inet6;\n"
		     "allow * create icmp family inet;\n"
		     "allow * create packet family inet;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	rules = c.policy->rules;
	address_of("10.1.1.1", v4);
	address_of("2001:db8::1", v6);
	assert_true(pfw_rule_matches(&rules[0], "/usr/bin/curl", NULL,
				     PFW_OP_CONNECT, PFW_PROTO_TCP,
				     PFW_FAMILY_INET6, v4, 443));
	assert_false(pfw_rule_matches(&rules[0], "/usr/bin/curl", NULL,
				      PFW_OP_CONNECT, PFW_PROTO_TCP,
				      PFW_FAMILY_INET, v4, 80));
	assert_false(pfw_rule_matches(&rules[0], "/usr/bin/curl", NULL,
				      PFW_OP_BIND, PFW_PROTO_TCP,
				      PFW_FAMILY_INET, v4, 443));
	/* Script forms need the script. */
	assert_true(pfw_rule_matches(&rules[1], "/py", "/s/x", PFW_OP_CONNECT,
				     PFW_PROTO_UDP, PFW_FAMILY_INET6, v6, 1));
	assert_false(pfw_rule_matches(&rules[1], "/py", NULL, PFW_OP_CONNECT,
				      PFW_PROTO_UDP, PFW_FAMILY_INET6, v6, 1));
	/* The family of an addressed request is its address's. */
	assert_false(pfw_rule_matches(&rules[1], "/py", "/s/x", PFW_OP_CONNECT,
				      PFW_PROTO_UDP, PFW_FAMILY_INET6, v4, 1));
	/* Create matches on the socket's family. */
	assert_true(pfw_rule_matches(&rules[2], "/a", NULL, PFW_OP_CREATE,
				     PFW_PROTO_ICMP, PFW_FAMILY_INET, none, 0));
	assert_false(pfw_rule_matches(&rules[2], "/a", NULL, PFW_OP_CREATE,
				      PFW_PROTO_ICMP, PFW_FAMILY_INET6, none,
				      0));
	/* Packet sockets have no inet family. */
	assert_true(pfw_rule_matches(&rules[3], "/a", NULL, PFW_OP_CREATE,
				     PFW_PROTO_PACKET, PFW_FAMILY_INET6, none,
				     0));
	compiled_free(&c);
}

static void test_formatting(void **state)
{
	struct pfw_app app = { .is_script = true };
	char buf[128];

	(void)state;
	app.exe = pattern("/usr/bin/python3");
	app.script = pattern("/home/**");
	assert_string_equal(pfw_app_format(&app, buf, sizeof(buf)),
			    "/usr/bin/python3 script /home/**");
	free(app.exe.path);
	free(app.script.path);

	/* Paths that are not plain words: as the language quotes them. */
	app.exe =
		(struct pfw_path_pattern){ PFW_PATH_EXACT, strdup("/tmp/g/*") };
	app.script = (struct pfw_path_pattern){ PFW_PATH_CHILD,
						strdup("/My \"A\"\\\x1b\n") };
	assert_string_equal(
		pfw_app_format(&app, buf, sizeof(buf)),
		"\"/tmp/g/\\x2a\" script \"/My \\\"A\\\"\\\\\\e\\n\"/*");
	free(app.exe.path);
	free(app.script.path);
	app.is_script = false;
	app.exe = (struct pfw_path_pattern){ PFW_PATH_TREE, strdup("") };
	assert_string_equal(pfw_app_format(&app, buf, sizeof(buf)), "/**");
	free(app.exe.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_matching),
		cmocka_unit_test(test_path_relations),
		cmocka_unit_test(test_cidr_helpers),
		cmocka_unit_test(test_rule_matching),
		cmocka_unit_test(test_formatting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
