// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for compiler/parser.c: statements, the narrowing of implicit
 * lists, syntax errors and recovery, includes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend_util.h"

static void test_settings(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "policy user 1000;\n"
		     "default deny log;\n"
		     "ask timeout 1500ms;\n"
		     "ask unanswered allow;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_false(c.policy->settings.is_system);
	assert_true(c.policy->settings.has_uid);
	assert_int_equal(c.policy->settings.uid, 1000);
	assert_int_equal(c.policy->settings.default_verdict, PFW_VERDICT_DENY);
	assert_int_equal(c.policy->settings.default_audit,
			 PFW_AUDIT_LOG_ALLOWED);
	assert_int_equal(c.policy->settings.ask_timeout_ms, 1500);
	assert_int_equal(c.policy->settings.no_answer, PFW_VERDICT_ALLOW);
	compiled_free(&c);
}

static void test_setting_defaults(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "", NULL, false);
	assert_int_equal(c.policy->settings.default_verdict, PFW_VERDICT_ASK);
	assert_int_equal(c.policy->settings.ask_timeout_ms,
			 PFW_ASK_TIMEOUT_DEFAULT_MS);
	assert_int_equal(c.policy->settings.no_answer, PFW_VERDICT_DENY);
	compiled_free(&c);
	compile_text(&c, "", NULL, true);
	assert_true(c.policy->settings.is_system);
	assert_int_equal(c.policy->settings.default_verdict, PFW_VERDICT_ALLOW);
	compiled_free(&c);
}

static void test_setting_errors(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "default deny;\ndefault allow;\n"
		     "ask timeout 30;\n"
		     "ask timeout 601s;\n"
		     "ask unanswered ask;\n"
		     "policy user 4294967295;\n",
		     NULL, false);
	assert_int_equal(c.errors, 5);
	assert_true(said(
		&c, "test.pfw:2:1: error: the default verdict is already set"));
	assert_true(said(&c, "test.pfw:1:1: note: it was set here"));
	assert_true(said(&c, "expected a unit, 's' or 'ms', but found ';'"));
	assert_true(said(&c, "the ask timeout must be from 1ms to 600s"));
	assert_true(said(&c, "cannot be asked again"));
	assert_true(said(&c, "uid 4294967295 is out of range"));
	compiled_free(&c);
}

static void test_mode(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "", NULL, false);
	assert_int_equal(c.errors, 0);
	assert_false(c.policy->settings.permissive);
	assert_int_equal(c.policy->settings.mode_loc.line, 0);
	compiled_free(&c);
	compile_text(&c, "default deny;\nmode permissive;\n", NULL, false);
	assert_int_equal(c.errors, 0);
	assert_true(c.policy->settings.permissive);
	assert_int_equal(c.policy->settings.mode_loc.line, 2);
	assert_int_equal(c.policy->settings.mode_loc.col, 1);
	compiled_free(&c);
	compile_text(&c, "mode enforcing;\n", NULL, false);
	assert_int_equal(c.errors, 0);
	assert_false(c.policy->settings.permissive);
	assert_int_equal(c.policy->settings.mode_loc.line, 1);
	compiled_free(&c);
	/* The system policy may be permissive too. */
	compile_text(&c, "mode permissive;\n", NULL, true);
	assert_int_equal(c.errors, 0);
	assert_true(c.policy->settings.is_system);
	assert_true(c.policy->settings.permissive);
	compiled_free(&c);
}

static void test_mode_errors(void **state)
{
	struct compiled c;

	(void)state;
	/* At most once, even with the same value. */
	compile_text(&c,
		     "mode permissive;\n"
		     "allow * create tcp;\n"
		     "mode permissive;\n"
		     "mode enforcing;\n",
		     NULL, false);
	assert_int_equal(c.errors, 2);
	assert_true(said(&c, "test.pfw:3:1: error: the mode is already set"));
	assert_true(said(&c, "test.pfw:4:1: error: the mode is already set"));
	assert_true(said(&c, "test.pfw:1:1: note: it was set here"));
	/* The first one stands. */
	assert_true(c.policy->settings.permissive);
	compiled_free(&c);
	/* A mode that did not parse is not set. */
	compile_text(&c, "mode ask;\nmode;\n", NULL, false);
	assert_int_equal(c.errors, 2);
	assert_true(said(&c, "test.pfw:1:6: error: expected 'permissive' or "
			     "'enforcing', but found 'ask'"));
	assert_true(said(&c, "test.pfw:2:5: error: expected 'permissive' or "
			     "'enforcing', but found ';'"));
	assert_false(c.policy->settings.permissive);
	compiled_free(&c);
	compile_text(&c, "mode enforcing\nallow * create udp;\n", NULL, false);
	assert_int_equal(c.errors, 1);
	assert_true(said(&c, "expected ';' after the mode"));
	compiled_free(&c);
	/* The words are keywords: not names. */
	compile_text(&c,
		     "apps mode = /usr/bin/x;\n"
		     "hosts permissive = 10.0.0.1;\n"
		     "ports enforcing = 80;\n",
		     NULL, false);
	assert_int_equal(c.errors, 3);
	assert_true(said(&c, "'mode' is a keyword and cannot be a name"));
	assert_true(said(&c, "'permissive' is a keyword and cannot be a name"));
	assert_true(said(&c, "'enforcing' is a keyword and cannot be a name"));
	compiled_free(&c);
}

static void test_rule_with_every_clause(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;

	(void)state;
	compile_text(&c,
		     "ask /usr/bin/a, /opt/* connect, accept tcp family inet6 "
		     "to 2001:db8::/32 port 80, 8000-8080 log quiet;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.policy->n_rules, 1);
	rule = &c.policy->rules[0];
	assert_int_equal(rule->verdict, PFW_VERDICT_ASK);
	assert_int_equal(rule->n_apps, 2);
	assert_int_equal(rule->apps[1].exe.kind, PFW_PATH_CHILD);
	assert_string_equal(rule->apps[1].exe.path, "/opt");
	assert_int_equal(rule->ops, PFW_OP_CONNECT | PFW_OP_ACCEPT);
	assert_int_equal(rule->protos, PFW_PROTO_TCP);
	assert_int_equal(rule->families, PFW_FAMILY_INET6);
	assert_false(rule->any_addr);
	assert_int_equal(rule->n_addrs, 1);
	assert_int_equal(rule->n_ports, 2);
	assert_int_equal(rule->ports[1].first, 8000);
	assert_int_equal(rule->ports[1].last, 8080);
	assert_int_equal(rule->audit,
			 PFW_AUDIT_LOG_ALLOWED | PFW_AUDIT_QUIET_DENIAL);
	assert_int_equal(rule->loc.line, 1);
	assert_int_equal(rule->loc.col, 1);
	compiled_free(&c);
}

/*
 * "protect" is a flag among the clauses, anywhere among them, once; it
 * changes none of the sets the rule decides for.
 */
static void test_protect_flag(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;

	(void)state;
	compile_text(&c,
		     "apps browsers = /usr/bin/firefox, /usr/lib/chromium/*;\n"
		     "allow /usr/lib/firefox/firefox connect tcp port 80, 443 "
		     "protect;\n"
		     "allow browsers protect connect log;\n"
		     "deny /usr/bin/nc;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_int_equal(c.policy->n_rules, 3);
	rule = &c.policy->rules[0];
	assert_true(rule->protect);
	assert_int_equal(rule->protect_loc.line, 2);
	assert_int_equal(rule->protect_loc.col, 57);
	assert_int_equal(rule->ops, PFW_OP_CONNECT);
	assert_int_equal(rule->protos, PFW_PROTO_TCP);
	assert_int_equal(rule->audit, 0);
	rule = &c.policy->rules[1];
	assert_true(rule->protect);
	assert_int_equal(rule->n_apps, 2);
	assert_int_equal(rule->ops, PFW_OP_CONNECT);
	assert_int_equal(rule->audit, PFW_AUDIT_LOG_ALLOWED);
	assert_false(c.policy->rules[2].protect);
	assert_int_equal(c.policy->rules[2].protect_loc.line, 0);
	compiled_free(&c);

	compile_text(&c,
		     "allow /a protect connect protect;\n"
		     "default deny protect;\n"
		     "apps protect = /b;\n",
		     NULL, false);
	assert_int_equal(c.errors, 3);
	assert_true(said(&c, "test.pfw:1:26: error: 'protect' is given twice\n"
			     "allow /a protect connect protect;\n"
			     "                         ^\n"));
	assert_true(said(&c, "test.pfw:2:14: error: expected"));
	assert_true(said(&c, "test.pfw:3:6: error:"));
	compiled_free(&c);
}

static void test_implicit_lists_are_narrowed(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow /a;\n"
		     "allow /b to 10.0.0.0/8;\n"
		     "allow /c port 22;\n"
		     "allow /d connect;\n",
		     "-Wno-shadow", false);
	assert_int_equal(c.errors, 0);
	/* Nothing said: everything, packet included (for create). */
	assert_int_equal(c.policy->rules[0].ops, PFW_OP_ALL);
	assert_int_equal(c.policy->rules[0].protos, PFW_PROTO_ALL);
	assert_true(c.policy->rules[0].any_addr);
	assert_true(c.policy->rules[0].any_port);
	/* An address: not create, and no packet sockets. */
	assert_int_equal(c.policy->rules[1].ops, PFW_OP_ADDRESSED);
	assert_int_equal(c.policy->rules[1].protos,
			 PFW_PROTO_ALL & ~PFW_PROTO_PACKET);
	/* A port: only tcp and udp have ports. */
	assert_int_equal(c.policy->rules[2].ops, PFW_OP_ADDRESSED);
	assert_int_equal(c.policy->rules[2].protos, PFW_PROTO_PORTED);
	/* No create: packet sockets never reach the rule. */
	assert_int_equal(c.policy->rules[3].protos,
			 PFW_PROTO_ALL & ~PFW_PROTO_PACKET);
	compiled_free(&c);
}

static void test_explicit_contradictions(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow * create to 10.0.0.0/8;\n"
		     "allow * connect icmp port 7;\n"
		     "allow * create packet to ::1;\n"
		     "allow * connect packet;\n",
		     NULL, false);
	assert_int_equal(c.errors, 4);
	assert_int_equal(c.policy->n_rules, 0);
	assert_true(said(
		&c, "test.pfw:1:9: error: 'create' has no address or port"));
	assert_true(
		said(&c, "test.pfw:2:22: error: only tcp and udp have ports"));
	assert_true(said(&c, "packet sockets have no IP address"));
	compiled_free(&c);
}

static void test_syntax_errors_recover(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow firefox connect, tcp;\n"
		     "allow * connect tcp;\n"
		     "deny * connect port 70000;\n"
		     "allow * connect port 9-3;\n"
		     "frobnicate;\n"
		     "allow * connect tcp tcp;\n"
		     "allow relative/path;\n"
		     "allow /a/*/b;\n"
		     "allow /a/../b;\n"
		     "allow /a/;\n"
		     "allow * connect tcp",
		     NULL, false);
	assert_int_equal(c.policy->n_rules, 1);
	assert_true(said(
		&c,
		"test.pfw:1:24: error: expected an operation, but found 'tcp'"));
	assert_true(said(&c, "allow firefox connect, tcp;\n"
			     "                       ^\n"));
	assert_true(said(&c, "port 70000 is out of range"));
	assert_true(said(&c, "port range 9-3 is empty"));
	assert_true(said(
		&c,
		"test.pfw:5:1: error: expected a statement, but found 'frobnicate'"));
	assert_true(said(&c, "the rule already has a list of protocols"));
	assert_true(said(&c, "'*' may only be a whole last component"));
	assert_true(said(&c, "may not contain '.' or '..'"));
	assert_true(said(&c, "names a file, not a directory"));
	assert_true(said(&c, "but found end of file"));
	compiled_free(&c);
}

static void test_path_patterns(void **state)
{
	struct pfw_path_pattern p;

	(void)state;
	assert_null(pfw_parse_path_pattern("//usr//bin/x", &p));
	assert_int_equal(p.kind, PFW_PATH_EXACT);
	assert_string_equal(p.path, "/usr/bin/x");
	free(p.path);
	assert_null(pfw_parse_path_pattern("/**", &p));
	assert_int_equal(p.kind, PFW_PATH_TREE);
	assert_string_equal(p.path, "");
	free(p.path);
	assert_null(pfw_parse_path_pattern("*", &p));
	assert_int_equal(p.kind, PFW_PATH_ANY);
	assert_non_null(pfw_parse_path_pattern("/a/***", &p));
	assert_non_null(pfw_parse_path_pattern("/a/x*", &p));
	assert_non_null(pfw_parse_path_pattern("/", &p));
	assert_non_null(pfw_parse_path_pattern("a", &p));
}

/* A quoted path is exact: every byte itself, '*' too. */
static void test_exact_paths(void **state)
{
	struct pfw_path_pattern p;
	struct compiled c;
	const struct pfw_app *a;

	(void)state;
	assert_null(pfw_parse_exact_path("//tmp//globdir/*", &p));
	assert_int_equal(p.kind, PFW_PATH_EXACT);
	assert_string_equal(p.path, "/tmp/globdir/*");
	free(p.path);
	assert_null(pfw_parse_exact_path("/a/**", &p));
	assert_int_equal(p.kind, PFW_PATH_EXACT);
	assert_string_equal(p.path, "/a/**");
	free(p.path);
	assert_non_null(pfw_parse_exact_path("*", &p));
	assert_non_null(pfw_parse_exact_path("/a/", &p));
	assert_non_null(pfw_parse_exact_path("/a/../b", &p));

	compile_text(
		&c,
		"allow \"/tmp/globdir/\\x2a\", \"/opt/My App\"/*, \"/x\"/**,\n"
		"      \"/tmp/x\\e[2K\" script \"/s/**\", /usr/bin/*;\n"
		"deny \"/\"/*;\n",
		NULL, false);
	assert_int_equal(c.errors, 0);
	/* A last '*' or '**' written as such was a glob once: -Wexact. */
	assert_int_equal(c.warnings, 1);
	assert_true(said(&c, "test.pfw:2:28: warning: a quoted path is exact: "
			     "this names the file '**' itself"));
	assert_int_equal(c.policy->rules[0].n_apps, 5);
	a = c.policy->rules[0].apps;
	assert_int_equal(a[0].exe.kind, PFW_PATH_EXACT);
	assert_string_equal(a[0].exe.path, "/tmp/globdir/*");
	assert_int_equal(a[1].exe.kind, PFW_PATH_CHILD);
	assert_string_equal(a[1].exe.path, "/opt/My App");
	assert_int_equal(a[2].exe.kind, PFW_PATH_TREE);
	assert_string_equal(a[2].exe.path, "/x");
	assert_int_equal(a[3].exe.kind, PFW_PATH_EXACT);
	assert_string_equal(a[3].exe.path, "/tmp/x\x1b[2K");
	assert_true(a[3].is_script);
	assert_int_equal(a[3].script.kind, PFW_PATH_EXACT);
	assert_string_equal(a[3].script.path, "/s/**");
	assert_int_equal(a[4].exe.kind, PFW_PATH_CHILD);
	a = c.policy->rules[1].apps;
	assert_int_equal(a[0].exe.kind, PFW_PATH_CHILD);
	assert_string_equal(a[0].exe.path, "");
	compiled_free(&c);
}

static void test_bad_exact_paths(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow \"tmp/a\";\n"
		     "allow \"/tmp/a/\";\n"
		     "allow \"/opt/x\"/bin;\n"
		     "allow \"/opt/x\" /*;\n"
		     "allow \"/a\\q\";\n",
		     NULL, false);
	assert_true(said(&c, "test.pfw:1:7: error: an exact path is absolute"));
	assert_true(said(&c, "test.pfw:2:7: error: an exact path names a file, "
			     "not a directory; write '\"DIR\"/*'"));
	assert_true(said(&c, "test.pfw:3:15: error: only '/*' or '/**' may "
			     "follow a quoted directory directly"));
	/* With a blank between, '/' + '*' is another word. */
	assert_true(said(&c, "test.pfw:4:16: error: expected an operation"));
	assert_true(said(&c, "test.pfw:5:10: error: unknown escape"));
	compiled_free(&c);
}

/* Write @text to @dir/@name. */
static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct pfw_policy *parse_path(const char *path, struct pfw_diag *diag,
				     char **messages, size_t *len, FILE **out)
{
	static const struct pfw_parse_options opts = { .allow_includes = true };

	*out = open_memstream(messages, len);
	pfw_diag_init(diag, *out);
	return pfw_parse_file(path, &opts, diag);
}

/* Remove a test's temporary directory. */
static void remove_tree(const char *dir)
{
	char command[600];

	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	assert_int_equal(system(command), 0);
}

/* Parsing @path reports exactly one error, which contains @needle. */
static void expect_one_error(const char *path, const char *needle)
{
	struct pfw_policy *policy;
	struct pfw_diag diag;
	char *messages = NULL;
	size_t len;
	FILE *out;

	policy = parse_path(path, &diag, &messages, &len, &out);
	fflush(out);
	assert_int_equal(diag.errors, 1);
	assert_non_null(strstr(messages, needle));
	pfw_policy_free(policy);
	pfw_diag_fini(&diag);
	fclose(out);
	free(messages);
}

static void test_includes(void **state)
{
	char dir[] = "/tmp/pfwc-test-XXXXXX", path[600], *messages = NULL;
	struct pfw_policy *policy;
	struct pfw_diag diag;
	size_t len;
	FILE *out;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(mkdir(strcat(strcpy(path, dir), "/sub"), 0700), 0);
	write_file(dir, "main.pfw",
		   "allow /first;\ninclude \"sub/inner.pfw\";\nallow /last;\n");
	write_file(dir, "sub/inner.pfw", "allow /inner;\n");
	snprintf(path, sizeof(path), "%s/main.pfw", dir);
	policy = parse_path(path, &diag, &messages, &len, &out);
	assert_int_equal(diag.errors, 0);
	assert_int_equal(policy->n_rules, 3);
	/* Expanded in place, with the included file's own locations. */
	assert_string_equal(policy->rules[1].apps[0].exe.path, "/inner");
	assert_non_null(strstr(policy->rules[1].loc.file, "sub/inner.pfw"));
	assert_string_equal(policy->rules[2].apps[0].exe.path, "/last");
	pfw_policy_free(policy);
	pfw_diag_fini(&diag);
	fclose(out);
	free(messages);

	/* A cycle is an error, not a hang. */
	write_file(dir, "sub/inner.pfw", "include \"../main.pfw\";\n");
	expect_one_error(path, "includes itself (an include cycle)");

	/* A missing file is reported where it is included. */
	write_file(dir, "sub/inner.pfw", "include \"nothere.pfw\";\n");
	expect_one_error(path, "inner.pfw:1:1: error: cannot read");

	/* So is an unreadable main file, with no policy at all. */
	snprintf(path, sizeof(path), "%s/none.pfw", dir);
	policy = parse_path(path, &diag, &messages, &len, &out);
	assert_null(policy);
	assert_int_equal(diag.errors, 1);
	pfw_diag_fini(&diag);
	fclose(out);
	free(messages);
	remove_tree(dir);
}

static void test_include_depth_limit(void **state)
{
	char dir[] = "/tmp/pfwc-test-XXXXXX", name[32], text[64], path[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < PFW_INCLUDE_DEPTH_MAX + 2; i++) {
		snprintf(name, sizeof(name), "f%d.pfw", i);
		snprintf(text, sizeof(text), "include \"f%d.pfw\";\n", i + 1);
		write_file(dir, name, text);
	}
	snprintf(path, sizeof(path), "%s/f0.pfw", dir);
	expect_one_error(path, "nested more than 16 deep");
	remove_tree(dir);
}

static void test_includes_can_be_disabled(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c, "include \"x.pfw\";\n", NULL, false);
	assert_int_equal(c.errors, 1);
	assert_true(said(&c, "include is not allowed here"));
	compiled_free(&c);
}

/* "host" elements: lower-cased, "*." kept apart, in rules and definitions. */
static void test_host_elements(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;

	(void)state;
	compile_text(
		&c,
		"hosts h = host A.Example, 10.0.0.0/8;\n"
		"allow * connect to host *.Example.ORG, h, host 1password.com;\n",
		NULL, false);
	assert_int_equal(c.errors, 0);
	rule = &c.policy->rules[0];
	assert_int_equal(rule->n_addrs, 1);
	assert_int_equal(rule->n_hosts, 3);
	/* Sorted by name: 1password.com, a.example, example.org. */
	assert_string_equal(rule->hosts[0].name, "1password.com");
	assert_false(rule->hosts[0].below);
	assert_string_equal(rule->hosts[1].name, "a.example");
	assert_string_equal(rule->hosts[2].name, "example.org");
	assert_true(rule->hosts[2].below);
	/* An address clause: no create, no packet. */
	assert_false(rule->ops & PFW_OP_CREATE);
	assert_false(rule->protos & PFW_PROTO_PACKET);
	compiled_free(&c);
}

/* Each syntax error about host names, with its place. */
static void test_host_syntax_errors(void **state)
{
	static const struct source_error cases[] = {
		{ "allow * connect to github.com;\n",
		  "test.pfw:1:20: error: a host name follows 'host': write 'host github.com'" },
		{ "allow * connect to host a..b;\n",
		  "test.pfw:1:27: error: a host name has no empty labels" },
		{ "allow * connect to host example.org.;\n",
		  "test.pfw:1:36: error: a host name has no final '.'" },
		{ "allow * connect to host -a.b;\n",
		  "test.pfw:1:25: error: a label of a host name does not start or end with '-'" },
		{ "allow * connect to host a-.b;\n",
		  "test.pfw:1:26: error: a label of a host name does not start or end with '-'" },
		{ "allow * connect to host b\xc3\xbc"
		  "cher.example;\n",
		  "test.pfw:1:26: error: host names are written in ASCII: for an international name write its IDNA form, 'xn--bcher-kva.example'" },
		{ "allow * connect to host *x.com;\n",
		  "test.pfw:1:25: error: '*' may only be the whole first label" },
		{ "allow * connect to host a.*.com;\n",
		  "test.pfw:1:27: error: '*' may only be the whole first label" },
		{ "allow * connect to host *;\n",
		  "test.pfw:1:25: error: 'host *' would be every name" },
		{ "allow * connect to host 10.0.0.1;\n",
		  "test.pfw:1:25: error: an address is written as it is, without 'host'" },
		{ "allow * connect to host port 80;\n",
		  "test.pfw:1:25: error: expected a host name such as 'example.org' or '*.example.org', but found 'port'" },
		{ "allow * connect to host a.bad!name;\n",
		  "test.pfw:1:30: error: unexpected character '!'" },
		{ "allow * connect to host a.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\n",
		  "test.pfw:1:27: error: a label of a host name is at most 63 characters long" },
		{ "policy system;resolver /usr/sbin/dnsmasq any;\n",
		  "test.pfw:1:45: error: expected 'user' after 'any', but found ';'" },
		{ "resolver /usr/sbin/dnsmasq tcp;\n",
		  "test.pfw:1:28: error: expected ',', 'any user' or ';', but found 'tcp'" },
	};

	(void)state;
	expect_source_errors(cases, sizeof(cases) / sizeof(cases[0]));
}

/* A name of 254 characters is one too many; 253 is fine. */
static void test_host_name_length(void **state)
{
	char source[400], name[260];
	struct compiled c;

	(void)state;
	/* 4 labels of 62 with their dots, and a last label of 1 or 2. */
	for (int tail = 1; tail <= 2; tail++) {
		size_t n = 0;

		for (int label = 0; label < 4; label++) {
			memset(name + n, 'a', 62);
			n += 62;
			name[n++] = '.';
		}
		memset(name + n, 'b', (size_t)tail);
		n += (size_t)tail;
		name[n] = '\0';
		snprintf(source, sizeof(source),
			 "allow * connect to host %s;\n", name);
		compile_text(&c, source, NULL, false);
		if (n <= PFSEL_HOST_NAME_MAX)
			assert_int_equal(c.errors, 0);
		else
			assert_true(said(
				&c,
				"a host name is at most 253 characters long, and this one has 254"));
		compiled_free(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_elements),
		cmocka_unit_test(test_host_syntax_errors),
		cmocka_unit_test(test_host_name_length),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_setting_defaults),
		cmocka_unit_test(test_setting_errors),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_mode_errors),
		cmocka_unit_test(test_rule_with_every_clause),
		cmocka_unit_test(test_protect_flag),
		cmocka_unit_test(test_implicit_lists_are_narrowed),
		cmocka_unit_test(test_explicit_contradictions),
		cmocka_unit_test(test_syntax_errors_recover),
		cmocka_unit_test(test_path_patterns),
		cmocka_unit_test(test_exact_paths),
		cmocka_unit_test(test_bad_exact_paths),
		cmocka_unit_test(test_includes),
		cmocka_unit_test(test_include_depth_limit),
		cmocka_unit_test(test_includes_can_be_disabled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
