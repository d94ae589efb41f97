// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program of the user against the way back from a path to its sandbox
 * identity (libuserpolicy's app_sandbox_of(), app_path_text()) and the
 * rule an "always" answer writes with it (rule_text_format()), as an
 * attacker's reviewer tried them.  Each test asserts that the attack
 * fails, the rule written compiled by the real pfwc and asked with
 * `pfwc --query`; each has its control (the request asked about is
 * decided by the rule written for it).
 *
 *   test_rule_covers_no_other_file: paths that map to an identity they do
 *     not belong to, or that look like one: ".." after an ID (the rule is
 *     the ID's, and the file ".." reaches is not let out by it), a
 *     user's own installation, an ID that begins another (org.a.bc and
 *     org.a.b), a snap's parallel installation, Flatpak's exported
 *     launchers and runtimes, an upper-case snap name, a 255- and a
 *     256-character ID, IDs carrying rule text (';', '#', a newline,
 *     '*'), the identity as a script under a runtime's interpreter.  For
 *     each, the rule written lets out the path asked about (the control)
 *     and none of the attacker's paths listed with it.
 *   test_identity_text_is_one_word: every identity app_sandbox_of()
 *     returns for a hostile path is a word the language reads back as
 *     that identity (pfw's check), never rule text.
 *   test_base_snap_is_named_an_application: a base snap's interpreter
 *     (/snap/core22/REV/usr/bin/python3, which any program of the user
 *     can run from the host) was named "snap core22" as if it were an
 *     application, and "always" for it wrote "allow snap core22 ...",
 *     which let out every interpreter of the base (bash, perl) in every
 *     revision.  Fixed: a snap is an application only when its
 *     revision's meta/snap.yaml says so (test_snap_kinds_by_their_metadata).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "userpolicy.h"
#include "curl_question.h"
#include "pfwc_compile.h"
#include "tmpdir.h"
#include "snap_mounts.h"

/*
 * Which snaps are applications: their revision's meta/snap.yaml (snapd's
 * squashfs) has an apps: section and no type but app.  A base (core22),
 * the snapd snap, a content snap (no apps), one with no readable
 * metadata, and a revision of "." or ".." are paths.
 */
static void test_snap_kinds_by_their_metadata(void **state)
{
	static const struct {
		const char *name_rev, *yaml;
		enum app_sandbox kind;
	} snaps[] = {
		{ "firefox/4000",
		  "name: firefox\nversion: '1'\napps:\n  firefox:\n    command: firefox\n",
		  APP_SANDBOX_SNAP },
		{ "hello/29",
		  "name: hello\ntype: app\napps:\n  hello:\n    command: bin/hello\n",
		  APP_SANDBOX_SNAP },
		{ "core22/1380",
		  "name: core22\ntype: base\nversion: '20240111'\n",
		  APP_SANDBOX_NONE },
		{ "core20/2000",
		  "name: core20\ntype: \"base\"\napps:\n  x:\n    command: x\n",
		  APP_SANDBOX_NONE },
		{ "snapd/21000",
		  "name: snapd\ntype: snapd\napps:\n  snapd:\n    command: x\n",
		  APP_SANDBOX_NONE },
		{ "gnome-42-2204/176",
		  "name: gnome-42-2204\nslots:\n  gnome-42-2204:\n    interface: content\n",
		  APP_SANDBOX_NONE },
		{ "pc-kernel/1500", "name: pc-kernel\ntype: kernel\n",
		  APP_SANDBOX_NONE },
		/* An apps: key indented under another is no top-level section. */
		{ "nested/1",
		  "name: nested\nplugs:\n  apps:\n    interface: x\n",
		  APP_SANDBOX_NONE },
	};
	char id[APP_SANDBOX_ID_SIZE], path[512];

	(void)state;
	for (size_t i = 0; i < sizeof(snaps) / sizeof(snaps[0]); i++) {
		snap_mounts_add(snaps[i].name_rev, snaps[i].yaml);
		snprintf(path, sizeof(path), "/snap/%s/usr/bin/x",
			 snaps[i].name_rev);
		if (app_sandbox_of(path, id) != snaps[i].kind)
			fail_msg("%s: kind %d, expected %d", path,
				 (int)app_sandbox_of(path, id),
				 (int)snaps[i].kind);
		if (snaps[i].kind == APP_SANDBOX_NONE)
			assert_string_equal(id, "");
	}
	/* Control: an application snap gives its name. */
	assert_int_equal(
		app_sandbox_of("/snap/firefox/4000/usr/lib/firefox/firefox",
			       id),
		APP_SANDBOX_SNAP);
	assert_string_equal(id, "firefox");
	/* No metadata for that revision, or none readable: a path. */
	assert_int_equal(app_sandbox_of("/snap/firefox/4001/usr/bin/firefox",
					id),
			 APP_SANDBOX_NONE);
	/* "." and ".." are no revision (the kernel never names them so). */
	snap_mounts_add("firefox", SNAP_YAML_APPLICATION);
	snap_mounts_add("", SNAP_YAML_APPLICATION);
	assert_int_equal(app_sandbox_of("/snap/firefox/../firefox/4000/x", id),
			 APP_SANDBOX_NONE);
	assert_int_equal(app_sandbox_of("/snap/firefox/./x", id),
			 APP_SANDBOX_NONE);
}

static int setup(void **state)
{
	if (find_pfwc(state))
		return -1;
	return tmpdir_setup("/tmp/pfsel-adv-fplang.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_teardown();
}

/* The rule "always" (allow, this address and port) writes for @exe, @script. */
static void always_rule(const char *exe, const char *script, char *buf,
			size_t size)
{
	struct pfsel_question q;
	struct pfsel_request req;
	int n;

	curl_question(&q);
	snprintf(q.exe, sizeof(q.exe), "%s", exe);
	snprintf(q.script, sizeof(q.script), "%s", script ? script : "");
	pfsel_request_from_question(&q, &req);
	n = rule_text_format(&req, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT, NULL,
			     0, buf, size);
	if (n < 0)
		fail_msg("rule_text_format(%s): %s", exe, strerror(-n));
	/* One rule, on one line. */
	assert_null(strchr(buf, '\n'));
}

/* @rule in a policy of its own, compiled by pfwc into @blob. */
static void compile_rule(const char *rule, const char *blob)
{
	static char text[4096], cmd[2 * PATH_MAX + 4096 + 64];
	FILE *f;

	snprintf(text, sizeof(text), "policy user;\ndefault deny;\n%s\n", rule);
	f = fopen(in("r.pfw"), "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' --uid 1001 -o '%s' '%s'", pfwc, blob,
		 in("r.pfw"));
	if (system(cmd))
		fail_msg("pfwc rejected the rule an answer wrote:\n%s", rule);
}

/*
 * pfwc --query's verdict ("allow", "deny") for @exe (and @script) under
 * @blob, connecting to the question's address and port.
 */
static char *verdict(const char *blob, const char *exe, const char *script)
{
	static char out[512];
	static char cmd[3 * PATH_MAX + 4096], app[2 * PATH_MAX + 2];
	FILE *p;

	snprintf(app, sizeof(app), "%s%s%s", exe, script ? ":" : "",
		 script ? script : "");
	snprintf(cmd, sizeof(cmd),
		 "'%s' --query '%s' '%s' connect tcp 192.0.2.1 80 2>&1", pfwc,
		 blob, app);
	p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	pclose(p);
	out[strcspn(out, " \n")] = '\0';
	return out;
}

struct attempt {
	const char *exe, *script;
	/* What the rule is written as (a substring), for the report. */
	const char *rule_has;
	/* The attacker's files the rule must not let out (exe, script). */
	const char *others[4][2];
};

static const char long_id[] =
	"org.a."
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

static void test_rule_covers_no_other_file(void **state)
{
	char long_path[512], longer_path[512], longer_sibling[512];
	const struct attempt attempts[] = {
		/* ".." after a valid ID: the ID's rule, not the file. */
		{ "/var/lib/flatpak/app/org.a.b/../../../../home/u/evil",
		  NULL,
		  "flatpak org.a.b",
		  { { "/home/u/evil" }, { "/home/u/bin/evil" } } },
		/*
		 * A snap's ".." is no revision: a path (which pfwc refuses,
		 * and the kernel never names; test_snap_kinds_by_their_metadata).
		 */
		/* A user's own installation is that file only. */
		{ "/home/u/.local/share/flatpak/app/org.mozilla.firefox/"
		  "x86_64/stable/1/files/bin/firefox",
		  NULL,
		  "/home/u/.local/share/flatpak/app/org.mozilla.firefox/",
		  { { "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/"
		      "stable/1/files/bin/firefox" },
		    { "/home/u/.local/share/flatpak/app/org.mozilla.firefox/"
		      "x86_64/stable/1/files/bin/evil" } } },
		/* An ID that begins another. */
		{ "/var/lib/flatpak/app/org.a.bc/x86_64/stable/1/files/bin/x",
		  NULL,
		  "flatpak org.a.bc",
		  { { "/var/lib/flatpak/app/org.a.b/x86_64/stable/1/files/x" },
		    { "/var/lib/flatpak/app/org.a.bc.Locale/x86_64/stable/1/x" },
		    { "/var/lib/flatpak/app/org.a.bcd/x86_64/stable/1/x" } } },
		/* A snap and its parallel installation. */
		{ "/snap/firefox_work/12/usr/lib/firefox/firefox",
		  NULL,
		  "snap firefox_work",
		  { { "/snap/firefox/12/usr/lib/firefox/firefox" },
		    { "/snap/firefox_worky/12/x" } } },
		{ "/snap/firefox/12/usr/lib/firefox/firefox",
		  NULL,
		  "snap firefox",
		  { { "/snap/firefox_work/12/usr/lib/firefox/firefox" },
		    { "/snap/firefoxy/12/x" },
		    { "/snapx/firefox/12/x" } } },
		/* Flatpak's launchers and runtimes are files, not the app. */
		{ "/var/lib/flatpak/exports/bin/org.a.b",
		  NULL,
		  "/var/lib/flatpak/exports/bin/org.a.b",
		  { { "/var/lib/flatpak/app/org.a.b/x86_64/stable/1/files/x" },
		    { "/var/lib/flatpak/exports/bin/org.a.c" } } },
		{ "/var/lib/flatpak/runtime/org.a.b/x86_64/1/c/files/bin/sh",
		  NULL,
		  "/var/lib/flatpak/runtime/",
		  { { "/var/lib/flatpak/app/org.a.b/x86_64/stable/1/files/x" },
		    { "/var/lib/flatpak/runtime/org.a.b/x86_64/1/c/files/"
		      "bin/bash" } } },
		/* A name snapd refuses is a path. */
		{ "/snap/Firefox/1/x",
		  NULL,
		  "/snap/Firefox/1/x",
		  { { "/snap/Firefox/2/x" }, { "/snap/firefox/1/x" } } },
		/* Rule text in the ID's place: quoted, that file only. */
		{ "/var/lib/flatpak/app/org.a.b;allow * connect;#/x",
		  NULL,
		  "\"",
		  { { "/home/u/evil" },
		    { "/var/lib/flatpak/app/org.a.b/x" } } },
		{ "/var/lib/flatpak/app/org.a.b\nallow * connect;/x",
		  NULL,
		  "\"",
		  { { "/home/u/evil" },
		    { "/var/lib/flatpak/app/org.a.b/x" } } },
		{ "/var/lib/flatpak/app/*/x",
		  NULL,
		  "\"",
		  { { "/var/lib/flatpak/app/org.a.b/x" },
		    { "/var/lib/flatpak/app/y/x" } } },
		{ "/snap/a b/1/x",
		  NULL,
		  "\"",
		  { { "/snap/a/1/x" }, { "/snap/b/1/x" } } },
		/* The identity as a script, a runtime's interpreter. */
		{ "/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/1/"
		  "files/bin/python3",
		  "/var/lib/flatpak/app/org.example.Tool/x86_64/master/9/"
		  "files/bin/tool.py",
		  "script flatpak org.example.Tool",
		  { { "/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/"
		      "1/files/bin/python3",
		      "/home/u/evil.py" },
		    { "/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/"
		      "1/files/bin/python3" },
		    { "/home/u/python3", "/var/lib/flatpak/app/"
					 "org.example.Tool/x86_64/master/9/"
					 "files/bin/tool.py" } } },
		/* The longest ID, and one past it. */
		{ long_path, NULL, "flatpak org.a.bbb", { { longer_sibling } } },
		{ longer_path,
		  NULL,
		  "allow /var/lib/flatpak/app/org.a.bbb",
		  { { longer_sibling } } },
	};
	char rule[4096];

	(void)state;
	snap_mounts_add("firefox/12", SNAP_YAML_APPLICATION);
	snap_mounts_add("firefox_work/12", SNAP_YAML_APPLICATION);
	assert_int_equal(strlen(long_id), 255);
	snprintf(long_path, sizeof(long_path),
		 "/var/lib/flatpak/app/%s/x86_64/stable/1/files/x", long_id);
	snprintf(longer_path, sizeof(longer_path),
		 "/var/lib/flatpak/app/%sb/x86_64/stable/1/files/x", long_id);
	snprintf(longer_sibling, sizeof(longer_sibling),
		 "/var/lib/flatpak/app/%sb/x86_64/stable/1/files/y", long_id);
	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++) {
		const struct attempt *a = &attempts[i];

		always_rule(a->exe, a->script, rule, sizeof(rule));
		if (!strstr(rule, a->rule_has))
			fail_msg("the rule for %s is '%s', not with '%s'",
				 a->exe, rule, a->rule_has);
		compile_rule(rule, in("r.pfsel"));
		/* Control: the request asked about is let out. */
		if (strcmp(verdict(in("r.pfsel"), a->exe, a->script), "allow"))
			fail_msg("control: '%s' does not let out %s: %s", rule,
				 a->exe,
				 verdict(in("r.pfsel"), a->exe, a->script));
		for (size_t j = 0; j < 4 && a->others[j][0]; j++) {
			const char *v = verdict(in("r.pfsel"), a->others[j][0],
						a->others[j][1]);

			if (strcmp(v, "deny"))
				fail_msg("'%s' (asked for %s) lets out %s%s%s: "
					 "%s",
					 rule, a->exe, a->others[j][0],
					 a->others[j][1] ? " script " : "",
					 a->others[j][1] ? a->others[j][1] : "",
					 v);
		}
	}
}

/*
 * Whatever identity the way back finds in a hostile path is a word pfw
 * reads back as that very identity: "flatpak ID" compiled is the tree of
 * the ID's folder, and app_path_text() of a file in it gives it again.
 */
static void test_identity_text_is_one_word(void **state)
{
	static const char *const paths[] = {
		"/var/lib/flatpak/app/org.a.b-c/x",
		"/var/lib/flatpak/app/_o._a._b/x",
		"/var/lib/flatpak/app/O.A.B/x",
		"/var/lib/flatpak/app/org.a.b--c/x",
		"/var/lib/flatpak/app/org.a.b-/x",
		"/var/lib/flatpak/app/org.a-b.c/x",
		"/var/lib/flatpak/app/org.1a.b/x",
		"/var/lib/flatpak/app/org..b/x",
		"/var/lib/flatpak/app/org.a.b./x",
		"/var/lib/flatpak/app/.org.a.b/x",
		"/var/lib/flatpak/app/org.a/x",
		"/var/lib/flatpak/app/org.a.b\xc3\xa9/x",
		"/var/lib/flatpak/app/org.a.b /x",
		"/var/lib/flatpak/app/org.a.b=c/x",
		"/var/lib/flatpak/app/org.a.b,c/x",
		"/var/lib/flatpak/app/org.a.b#c/x",
		"/var/lib/flatpak/app/org.a.b\"c/x",
		"/var/lib/flatpak/app/org.a.b\\c/x",
		"/snap/a-b_0123456789/1/x",
		"/snap/a-b_01234567890/1/x",
		"/snap/a--b/1/x",
		"/snap/-ab/1/x",
		"/snap/12/1/x",
		"/snap/ab_/1/x",
		"/snap/ab_X/1/x",
		"/snap/a/1/x",
		"/snap/0ad/1/x",
		"/snap/bin/firefox",
	};
	char id[APP_SANDBOX_ID_SIZE], text[1024], rule[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const enum app_sandbox kind = app_sandbox_of(paths[i], id);
		char sibling[1024];

		assert_true(app_path_text(paths[i], text, sizeof(text)) > 0);
		if (kind == APP_SANDBOX_NONE) {
			/* A path: quoted or plain, that file only. */
			assert_string_equal(id, "");
			assert_true(text[0] == '/' || text[0] == '"');
		} else {
			/* The word is the ID, of the ID's bytes only. */
			for (const char *c = id; *c; c++)
				assert_non_null(
					strchr("abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					       "0123456789._-",
					       *c));
		}
		always_rule(paths[i], NULL, rule, sizeof(rule));
		compile_rule(rule, in("w.pfsel"));
		/* Control: the file asked about. */
		if (strcmp(verdict(in("w.pfsel"), paths[i], NULL), "allow"))
			fail_msg("control: '%s' does not let out %s", rule,
				 paths[i]);
		/*
		 * No file outside the identity's folder, nor in a folder
		 * beside it (its name and "y"); for a path, none beside it.
		 */
		if (kind == APP_SANDBOX_FLATPAK)
			snprintf(sibling, sizeof(sibling),
				 "/var/lib/flatpak/app/%sy/x", id);
		else if (kind == APP_SANDBOX_SNAP)
			snprintf(sibling, sizeof(sibling), "/snap/%sy/x", id);
		else {
			snprintf(sibling, sizeof(sibling), "%s", paths[i]);
			*strrchr(sibling, '/') = '\0';
			strcat(sibling, "y/x");
		}
		if (strcmp(verdict(in("w.pfsel"), "/home/u/evil", NULL),
			   "deny") ||
		    strcmp(verdict(in("w.pfsel"), sibling, NULL), "deny"))
			fail_msg("'%s' (asked for %s) lets out another file",
				 rule, paths[i]);
	}
}

/*
 * The reviewer's finding, fixed: a base snap is no application, yet its
 * interpreter was named as one, and the rule "always" wrote for it let
 * out the base's every interpreter.  The interpreter of a base snap,
 * answered "always", lets out no other program of the base (the base's
 * revisions here as snapd mounts them: test_snap_kinds_by_their_metadata
 * shows every kind).
 */
static void test_base_snap_is_named_an_application(void **state)
{
	static const char python[] = "/snap/core22/1380/usr/bin/python3";
	static const char *const others[] = {
		"/snap/core22/1380/usr/bin/bash",
		"/snap/core22/1380/usr/bin/perl",
		"/snap/core22/1122/usr/bin/python3.10",
	};
	char rule[4096], id[APP_SANDBOX_ID_SIZE];
	const char *got = NULL;

	(void)state;
	snap_mounts_add("core22/1380", SNAP_YAML_BASE);
	snap_mounts_add("core22/1122", SNAP_YAML_BASE);
	always_rule(python, NULL, rule, sizeof(rule));
	compile_rule(rule, in("b.pfsel"));
	/* Control: the interpreter asked about is let out. */
	assert_string_equal(verdict(in("b.pfsel"), python, NULL), "allow");
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (!strcmp(verdict(in("b.pfsel"), others[i], NULL), "allow"))
			got = others[i];
	if (!got)
		return;
	fail_msg("%s run by the user is named '%s (%s)', and 'always' writes "
		 "'%s', which lets out %s",
		 python, app_sandbox_of(python, id) ? id : "-",
		 app_sandbox_label(app_sandbox_of(python, id)), rule, got);
	fail_msg("a base snap's interpreter, answered 'always', lets out %s",
		 got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_covers_no_other_file),
		cmocka_unit_test(test_identity_text_is_one_word),
		cmocka_unit_test(test_base_snap_is_named_an_application),
		cmocka_unit_test(test_snap_kinds_by_their_metadata),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
