// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program of the user against the agent's "always" (pfw.c,
 * pfw_add_rule()) and the rule writer (rule_text_format()), as an
 * attacker's reviewer tried them.  Each test asserts that the attack
 * fails; each has its control.
 *
 *   test_self_include_same_name: ~/.pfw, as the agent reads it, includes
 *     ".pfw" -- itself, under the very name the agent gives its buffer,
 *     which pfw_parse_buffer() puts in no include frame -- and the file
 *     included is swapped for the attacker's (the agent reads ~/.pfw from
 *     a FIFO the attacker renames a regular file over before it ends the
 *     text), whose "allow *" rule sits on the line the new rule gets:
 *     the agent must not leave out the attacker's rule in place of its
 *     own.  Control: the same answer on the same confirmed text, no
 *     include, is added and loaded.
 *   test_rule_writer_injection: executables and scripts named with
 *     quotes, newlines, ';', '#', '*', backslashes, U+2028 and bytes that
 *     are not UTF-8: the rule an "always" writes is one rule, on one line,
 *     and adds nothing but itself.  Control: a plain path, the same way.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"
#include "tmpdir.h"

static int setup(void **state)
{
	(void)state;
	return tmpdir_setup("/tmp/pfsel-adv-user.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	pfsel_set_securityfs(NULL);
	return tmpdir_teardown();
}

static const char confirmed_pfw[] = "policy user;\n"
				    "default deny;\n"
				    "allow /usr/bin/curl connect tcp;\n";

/* @text compiled here, as the agent compiles it, into @out. */
static void compile(const char *text, struct policy_blob *out)
{
	const struct compile_source src = {
		.name = "confirmed.pfw",
		.text = text,
		.uid = getuid(),
	};
	char err[1024];

	assert_int_equal(compile_here(&src, out, 0, NULL, err, sizeof(err)),
			 0);
}

/* The fake kernel's `policies`: @blob in force for the test's uid. */
static void set_in_force(const void *blob, size_t len)
{
	uint8_t d[PFSEL_DIGEST_SIZE];
	char line[256], hex[PFSEL_DIGEST_HEX_SIZE];

	assert_int_equal(0, pfsel_policy_digest(blob, len, d));
	snprintf(line, sizeof(line),
		 "%u generation=1 size=%zu rules=1 sha256=%s mode=enforcing\n",
		 (unsigned int)getuid(), len, pfsel_digest_hex(d, hex));
	put("sfs/policies", line, 0644);
}

/* What the fake kernel was given to load: malloc()ed, or NULL for none. */
static void *loaded(size_t *len)
{
	struct stat st;
	FILE *f = fopen(in("sfs/load"), "r");
	char *blob = NULL;

	assert_non_null(f);
	assert_int_equal(0, fstat(fileno(f), &st));
	*len = (size_t)st.st_size;
	if (st.st_size > 0) {
		blob = malloc(*len);
		assert_non_null(blob);
		assert_int_equal(*len, fread(blob, 1, *len, f));
	}
	fclose(f);
	return blob;
}

/* The attacker's text, included as ".pfw": "allow *" on line 6. */
static const char attackers_include[] = "\n\n\n\n\nallow * connect tcp;\n";
/* ~/.pfw as the agent reads it: the new rule goes on line 6. */
static const char self_including[] = "policy user;\n"
				     "default deny;\n"
				     "allow /usr/bin/curl connect tcp;\n"
				     "include \".pfw\";\n"
				     "# BEGIN pfsel-agent\n"
				     "# END pfsel-agent\n";

/*
 * As the attacker: serve @text to the first reader of the FIFO ~/.pfw,
 * and before ending it rename ~/.attacker (a regular file) over ~/.pfw.
 */
static pid_t serve_then_swap(const char *text)
{
	const pid_t pid = fork();
	int fd;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	fd = open(in(".pfw"), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(1);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		_exit(2);
	if (rename(in(".attacker"), in(".pfw")))
		_exit(3);
	close(fd);
	_exit(0);
}

static void test_self_include_same_name(void **state)
{
	struct policy_blob confirmed = { 0 };
	struct pfw_config c = { .load = true, .confirmed = &confirmed };
	char err[4096], sfs[128];
	const char *rule = "deny /usr/bin/wget connect tcp;";
	void *blob;
	size_t len;
	pid_t pid;
	int status, rc;

	(void)state;
	snprintf(sfs, sizeof(sfs), "%s/sfs", dir);
	assert_int_equal(mkdir(sfs, 0755), 0);
	assert_int_equal(pfsel_set_securityfs(sfs), 0);
	put("sfs/load", "", 0644);
	compile(confirmed_pfw, &confirmed);
	set_in_force(confirmed.blob, confirmed.len);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));

	/* Control: the confirmed text, the same answer: added and loaded. */
	put(".pfw", confirmed_pfw, 0644);
	assert_int_equal(pfw_add_rule(&c, rule, err, sizeof(err)), 0);
	blob = loaded(&len);
	assert_non_null(blob);
	free(blob);
	compile(confirmed_pfw, &confirmed);
	set_in_force(confirmed.blob, confirmed.len);
	put("sfs/load", "", 0644);

	/* The attack: the include is the attacker's file by the same name. */
	assert_int_equal(unlink(in(".pfw")), 0);
	assert_int_equal(mkfifo(in(".pfw"), 0644), 0);
	put(".attacker", attackers_include, 0644);
	pid = serve_then_swap(self_including);
	rc = pfw_add_rule(&c, rule, err, sizeof(err));
	print_message("pfw_add_rule: %d: %s\n", rc, err);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Refused, or what is loaded is no looser than what was confirmed. */
	blob = loaded(&len);
	if (blob) {
		assert_int_equal(policy_compare(confirmed.blob, confirmed.len,
						blob, len, NULL, 0),
				 0);
		free(blob);
	} else {
		assert_int_not_equal(rc, 0);
	}

	/* Its rule on another line: left out is the new rule, judged looser. */
	put("sfs/load", "", 0644);
	assert_int_equal(unlink(in(".pfw")), 0);
	assert_int_equal(mkfifo(in(".pfw"), 0644), 0);
	put(".attacker", "allow * connect tcp;\n", 0644);
	pid = serve_then_swap(self_including);
	rc = pfw_add_rule(&c, rule, err, sizeof(err));
	print_message("pfw_add_rule: %d: %s\n", rc, err);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	blob = loaded(&len);
	if (blob) {
		assert_int_equal(policy_compare(confirmed.blob, confirmed.len,
						blob, len, NULL, 0),
				 0);
		free(blob);
	} else {
		assert_int_not_equal(rc, 0);
	}

	free(confirmed.blob);
	free((char *)c.pfw);
	free((char *)c.out);
}

/*
 * The rule "always" writes for @exe (and @script), compiled after a
 * deny-all head: one rule on line 3, and without it the head alone.
 */
static void one_rule_only(const char *exe, const char *script)
{
	static const char head[] = "policy user;\ndefault deny;\n";
	struct pfsel_request req = {
		.op = PFSEL_OP_CONNECT,
		.proto = PFSEL_PROTO_TCP,
		.port = 443,
	};
	struct policy_blob with = { 0 }, without = { 0 }, base = { 0 };
	char rule[20000], text[21000], err[4096];
	struct compile_source src = {
		.name = "adv.pfw",
		.text = text,
		.uid = getuid(),
	};
	int n;

	snprintf(req.exe, sizeof(req.exe), "%s", exe);
	snprintf(req.script, sizeof(req.script), "%s", script ? script : "");
	n = rule_text_format(&req, PFSEL_ANSWER_ALLOW, RULE_WIDTH_PORT, NULL,
			     0, rule, sizeof(rule));
	assert_true(n > 0);
	assert_null(strchr(rule, '\n'));
	print_message("rule: %s\n", rule);
	snprintf(text, sizeof(text), "%s%s\n", head, rule);
	assert_int_equal(compile_here(&src, &with, 3, &without, err,
				      sizeof(err)),
			 0);
	compile(head, &base);
	assert_int_equal(without.len, base.len);
	assert_memory_equal(without.blob, base.blob, base.len);
	/* And the rule lets out something: it is not swallowed. */
	assert_int_equal(policy_compare(base.blob, base.len, with.blob,
					with.len, NULL, 0),
			 1);
	free(with.blob);
	free(without.blob);
	free(base.blob);
}

static void test_rule_writer_injection(void **state)
{
	(void)state;
	/* Control: a plain path. */
	one_rule_only("/usr/bin/curl", NULL);
	one_rule_only("/tmp/a\";\nallow * connect tcp;#", NULL);
	one_rule_only("/tmp/a\\\";allow * connect tcp;", NULL);
	one_rule_only("/tmp/a;allow * connect tcp;", NULL);
	one_rule_only("/tmp/a#\nallow * connect tcp;", NULL);
	one_rule_only("/tmp/*", NULL);
	one_rule_only("/tmp/**", NULL);
	one_rule_only("/tmp/a\\", NULL);
	one_rule_only("/tmp/a\r\nallow * connect tcp;", NULL);
	one_rule_only("/tmp/a\xe2\x80\xa8" "allow * connect tcp;", NULL);
	one_rule_only("/tmp/a\xff\xfe\x80", NULL);
	one_rule_only("/tmp/a,*", NULL);
	one_rule_only("/tmp/a=b", NULL);
	one_rule_only("/usr/bin/python3",
		      "/tmp/s\";\nallow * connect tcp;#");
	one_rule_only("/usr/bin/python3", "/tmp/s script /tmp/t");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_self_include_same_name,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_rule_writer_injection,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
