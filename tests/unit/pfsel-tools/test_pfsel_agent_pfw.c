// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for pfsel-agent's "always" (pfsel-tools/agent/pfw.c): the
 * rule's place in ~/.pfw (its text: test_rule_text.c), and the
 * compile in the agent's own process, checked with the real pfwc
 * ($ROOT/build/bin/pfwc, when it is there), then the write.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"
#include "userpolicy.h"
#include "curl_question.h"
#include "tmpdir.h"

static int setup(void **state)
{
	(void)state;
	return tmpdir_setup("/tmp/pfsel-agent-test.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_teardown();
}

/* Files in the folder: no temporary file may be left behind. */
static int count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static struct pfsel_question *question(void)
{
	struct pfsel_question *q = malloc(sizeof(*q));

	assert_non_null(q);
	curl_question(q);
	return q;
}

static void test_insert(void **state)
{
	char *t, *u;

	(void)state;
	t = pfw_insert("default ask;\n", "allow /a;");
	assert_non_null(strstr(t,
			       PFW_SECTION_BEGIN "\nallow /a;\n" PFW_SECTION_END
						 "\n\ndefault ask;\n"));
	assert_true(strstr(t, PFW_SECTION_BEGIN) < strstr(t, "default ask;"));
	u = pfw_insert(t, "deny /b;");
	assert_non_null(
		strstr(u, "allow /a;\ndeny /b;\n" PFW_SECTION_END "\n"));
	/* Exactly one section. */
	assert_null(
		strstr(strstr(u, PFW_SECTION_BEGIN) + 1, PFW_SECTION_BEGIN));
	free(t);
	free(u);

	t = pfw_insert("", "allow /a;");
	assert_non_null(strstr(t, PFW_SECTION_BEGIN
			       "\nallow /a;\n" PFW_SECTION_END "\n"));
	free(t);
}

static void test_default_output(void **state)
{
	char *s;

	(void)state;
	s = pfw_default_output("/home/a/.pfw");
	assert_string_equal(s, "/home/a/.pfw.pfsel");
	free(s);
	s = pfw_default_output("/home/a/alice.pfw");
	assert_string_equal(s, "/home/a/alice.pfsel");
	free(s);
	s = pfw_default_output("policy");
	assert_string_equal(s, "policy.pfsel");
	free(s);
}

static const char *real_pfwc(void)
{
	static char path[512];
	const char *root = getenv("ROOT");

	snprintf(path, sizeof(path), "%s/build/bin/pfwc", root ? root : "..");
	return access(path, X_OK) ? NULL : path;
}

static void test_add_rule_accepts(void **state)
{
	struct pfw_config c = { .load = false };
	const char *pfwc = real_pfwc();
	char err[1024], cmd[1024];

	(void)state;
	put("my.pfw", "default ask;\n", 0640);
	c.pfw = strdup(in("my.pfw"));
	c.out = strdup(in("my.pfsel"));
	assert_int_equal(pfw_add_rule(&c, "allow /a;", err, sizeof(err)), 0);
	assert_non_null(strstr(get("my.pfw"), "allow /a;"));
	assert_non_null(strstr(get("my.pfw"), "default ask;"));
	/* The agent compiled it itself: a policy pfwc can read. */
	if (pfwc) {
		snprintf(cmd, sizeof(cmd), "'%s' --dump '%s' >/dev/null", pfwc,
			 c.out);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(count_files(), 2);

	/* The mode of the file is kept. */
	{
		struct stat st;

		assert_int_equal(stat(in("my.pfw"), &st), 0);
		assert_int_equal(st.st_mode & 0777, 0640);
	}

	/*
	 * A missing source file is refused, and not created: a policy of the
	 * one rule would replace the user's.
	 */
	unlink(in("my.pfw"));
	assert_int_equal(pfw_add_rule(&c, "deny /b;", err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "session only"));
	assert_int_equal(access(in("my.pfw"), F_OK), -1);
	free((char *)c.pfw);
	free((char *)c.out);
}

static void test_add_rule_rejects(void **state)
{
	struct pfw_config c = { .load = false };
	char err[1024];
	char before[256];

	(void)state;
	put("my.pfw", "default ask;\n", 0600);
	strcpy(before, get("my.pfw"));
	c.pfw = strdup(in("my.pfw"));
	c.out = strdup(in("my.pfsel"));
	assert_int_equal(pfw_add_rule(&c, "allow /usr/bin/x conect;", err,
				      sizeof(err)),
			 -EINVAL);
	/* The compiler's own words, at the place in the file itself. */
	assert_non_null(strstr(err, "error"));
	assert_non_null(strstr(err, "my.pfw:"));
	assert_null(strstr(err, "pfsel-agent."));
	assert_string_equal(get("my.pfw"), before);
	assert_null(get("my.pfsel"));
	assert_int_equal(count_files(), 1);
	free((char *)c.pfw);
	free((char *)c.out);
}

static void test_add_rule_real_pfwc(void **state)
{
	struct pfw_config c = { .load = false };
	struct pfsel_question *q = question();
	char err[2048], rule[512], cmd[1024], before[512];
	const char *pfwc = real_pfwc();
	FILE *p;

	(void)state;
	if (!pfwc) {
		free(q);
		skip();
	}
	put(".pfw", "# mine\ndefault deny;\nask * connect tcp;\n", 0600);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));
	assert_true(pfw_answer_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
				    rule, sizeof(rule)) > 0);
	if (pfw_add_rule(&c, rule, err, sizeof(err)))
		fail_msg("pfw_add_rule: %s", err);

	/* The new rule decides the question; the asking rule the rest. */
	snprintf(cmd, sizeof(cmd),
		 "'%s' --query '%s' /usr/bin/curl connect tcp 192.0.2.1 80; "
		 "'%s' --query '%s' /usr/bin/curl connect tcp 192.0.2.1 81",
		 pfwc, c.out, pfwc, c.out);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(err, sizeof(err), p));
	assert_true(!strncmp(err, "allow ", 6));
	/* Rule locations name the file itself, not a temporary one. */
	assert_non_null(strstr(err, ".pfw:"));
	assert_null(strstr(err, "pfsel-agent."));
	assert_non_null(fgets(err, sizeof(err), p));
	assert_true(!strncmp(err, "ask ", 4));
	pclose(p);

	/*
	 * Byte for byte what pfwc makes of ~/.pfw: the next login, which
	 * compiles it with pfwc, finds the very policy in force (its SHA-256)
	 * and loads nothing.
	 */
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s' && cmp -s '%s' '%s'",
		 pfwc, in("by-pfwc.pfsel"), c.pfw, in("by-pfwc.pfsel"), c.out);
	assert_int_equal(system(cmd), 0);
	unlink(in("by-pfwc.pfsel"));

	/* A rule the compiler rejects leaves the file as it was. */
	strcpy(before, get(".pfw"));
	assert_int_equal(pfw_add_rule(&c, "allow /usr/bin/x conect;", err,
				      sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "error"));
	assert_string_equal(get(".pfw"), before);
	assert_int_equal(count_files(), 2);
	free((char *)c.pfw);
	free((char *)c.out);
	free(q);
}

/* pfwc --query of @c->out for @exe connect tcp 192.0.2.1 80: @verdict. */
static void expect_query(const struct pfw_config *c, const char *exe,
			 const char *verdict)
{
	char cmd[1024], out[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "'%s' --query '%s' '%s' connect tcp 192.0.2.1 80",
		 real_pfwc(), c->out, exe);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	pclose(p);
	if (strncmp(out, verdict, strlen(verdict)) ||
	    out[strlen(verdict)] != ' ')
		fail_msg("%s: got '%s', want %s", exe, out, verdict);
}

/*
 * "always" for a file literally named '*': the rule pfwc compiles lets
 * that file out, and not a sibling nobody was asked about (issue 13).
 */
static void test_add_rule_glob_name(void **state)
{
	struct pfw_config c = { .load = false };
	struct pfsel_question *q = question();
	char err[2048], rule[512];

	(void)state;
	if (!real_pfwc()) {
		free(q);
		skip();
	}
	put(".pfw", "default deny;\nask * connect tcp;\n", 0600);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));
	strcpy(q->exe, "/tmp/globdir/*");
	assert_true(pfw_answer_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
				    rule, sizeof(rule)) > 0);
	if (pfw_add_rule(&c, rule, err, sizeof(err)))
		fail_msg("pfw_add_rule: %s", err);
	expect_query(&c, "/tmp/globdir/*", "allow");
	expect_query(&c, "/tmp/globdir/y", "ask");
	expect_query(&c, "/tmp/globdir/**", "ask");
	free((char *)c.pfw);
	free((char *)c.out);
	free(q);
}

/*
 * "always" for this host name: the rule the agent adds names the host,
 * and the policy pfwc compiles from it allows the name at any address,
 * and not the address without it.
 */
static void test_add_rule_host(void **state)
{
	struct pfw_config c = { .load = false };
	struct pfsel_question *q = question();
	char err[2048], rule[512], cmd[1024];
	FILE *p;

	(void)state;
	if (!real_pfwc()) {
		free(q);
		skip();
	}
	put(".pfw", "default deny;\nask * connect tcp;\n", 0600);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));
	strcpy(q->hosts, "www.example.org,example.org");
	assert_true(pfw_answer_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_HOST,
				    rule, sizeof(rule)) > 0);
	assert_string_equal(
		rule,
		"allow /usr/bin/curl connect tcp to host www.example.org port 80;");
	if (pfw_add_rule(&c, rule, err, sizeof(err)))
		fail_msg("pfw_add_rule: %s", err);
	assert_non_null(strstr(get(".pfw"), rule));
	snprintf(cmd, sizeof(cmd),
		 "'%s' --query --host www.example.org '%s' /usr/bin/curl "
		 "connect tcp 203.0.113.9 80; "
		 "'%s' --query '%s' /usr/bin/curl connect tcp 192.0.2.1 80",
		 real_pfwc(), c.out, real_pfwc(), c.out);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(err, sizeof(err), p));
	assert_true(!strncmp(err, "allow ", 6));
	assert_non_null(fgets(err, sizeof(err), p));
	assert_true(!strncmp(err, "ask ", 4));
	pclose(p);
	free((char *)c.pfw);
	free((char *)c.out);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert),
		cmocka_unit_test(test_default_output),
		cmocka_unit_test_setup_teardown(test_add_rule_accepts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_rule_rejects,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_rule_glob_name, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_add_rule_host, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_add_rule_real_pfwc, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
