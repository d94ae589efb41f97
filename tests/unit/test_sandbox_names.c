// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for compiler/sandbox_names.c and its place in the language:
 * "flatpak ID" and "snap NAME" accepted as Flatpak and snapd accept them,
 * every rejected form with its message and place, the pattern each
 * stands for, the way back from a path, and the warnings that compare
 * patterns (-Wshadow, -Woverlap) on them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "frontend_util.h"
#include "sandbox_names.h"

/* Each form is an application, in rules, definitions and scripts. */
static void test_accepted_forms(void **state)
{
	struct compiled c;
	const struct pfw_rule *rule;
	char text[128];

	(void)state;
	compile_text(
		&c,
		"apps browsers = flatpak org.mozilla.firefox, snap chromium;\n"
		"allow browsers connect tcp port https;\n"
		"allow flatpak com.github.tchx84.Flatseal, flatpak org.x._y-Z,"
		" snap 0ad, snap k8s-tool_work2 connect tcp;\n"
		"allow /usr/bin/python3 script flatpak org.example.Tool;\n",
		NULL, false);
	assert_int_equal(c.errors, 0);
	rule = &c.policy->rules[0];
	assert_int_equal(rule->n_apps, 2);
	assert_int_equal(rule->apps[0].exe.kind, PFW_PATH_TREE);
	assert_string_equal(rule->apps[0].exe.path,
			    "/var/lib/flatpak/app/org.mozilla.firefox");
	assert_string_equal(rule->apps[1].exe.path, "/snap/chromium");
	assert_string_equal(pfw_app_format(&rule->apps[0], text, sizeof(text)),
			    "flatpak org.mozilla.firefox");
	rule = &c.policy->rules[1];
	assert_int_equal(rule->n_apps, 4);
	assert_string_equal(rule->apps[1].exe.path,
			    "/var/lib/flatpak/app/org.x._y-Z");
	assert_string_equal(rule->apps[3].exe.path, "/snap/k8s-tool_work2");
	rule = &c.policy->rules[2];
	assert_true(rule->apps[0].is_script);
	assert_string_equal(pfw_app_format(&rule->apps[0], text, sizeof(text)),
			    "/usr/bin/python3 script flatpak org.example.Tool");
	compiled_free(&c);
}

/* Every rejected form, its message and the character it points at. */
static void test_rejected_forms(void **state)
{
	static const struct source_error cases[] = {
		{ "allow flatpak org.mozilla;\n",
		  "test.pfw:1:15: error: a Flatpak application ID is a reverse DNS name of three elements or more" },
		{ "allow flatpak org..mozilla.firefox;\n",
		  "test.pfw:1:19: error: an element of a Flatpak application ID is not empty" },
		{ "allow flatpak .org.mozilla.firefox;\n",
		  "test.pfw:1:15: error: an element of a Flatpak application ID is not empty" },
		{ "allow flatpak org.mozilla.firefox.;\n",
		  "test.pfw:1:34: error: a Flatpak application ID does not end with '.'" },
		{ "allow flatpak org.mo-zilla.firefox;\n",
		  "test.pfw:1:21: error: only the last element of a Flatpak application ID may hold '-'" },
		{ "allow flatpak org.9mozilla.firefox;\n",
		  "test.pfw:1:19: error: an element of a Flatpak application ID does not start with a digit" },
		{ "allow flatpak org.mozilla.fire/fox;\n",
		  "test.pfw:1:31: error: '/' is not in a Flatpak application ID" },
		{ "allow flatpak org.mozilla.fire*;\n",
		  "test.pfw:1:31: error: '*' is not in a Flatpak application ID" },
		{ "allow flatpak org.mozilla.f\xc3\xbc;\n",
		  "test.pfw:1:28: error: byte 0xc3 is not in a Flatpak application ID" },
		{ "allow flatpak;\n",
		  "test.pfw:1:14: error: expected a Flatpak application ID such as 'org.mozilla.firefox', but found ';'" },
		{ "allow flatpak \"org.mozilla.firefox\";\n",
		  "test.pfw:1:15: error: expected a Flatpak application ID" },
		{ "allow snap Firefox;\n",
		  "test.pfw:1:12: error: 'F' is not in a snap name" },
		{ "allow snap x;\n",
		  "test.pfw:1:12: error: a snap name is 2 to 40 characters" },
		{ "allow snap aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\n",
		  "test.pfw:1:52: error: a snap name is 2 to 40 characters" },
		{ "allow snap -fox;\n",
		  "test.pfw:1:12: error: a snap name does not start or end with '-'" },
		{ "allow snap fox-;\n",
		  "test.pfw:1:15: error: a snap name does not start or end with '-'" },
		{ "allow snap fi--fox;\n",
		  "test.pfw:1:15: error: a snap name does not hold '--'" },
		{ "allow snap 2048;\n",
		  "test.pfw:1:12: error: a snap name holds at least one letter" },
		{ "allow snap fox.org;\n",
		  "test.pfw:1:15: error: '.' is not in a snap name" },
		{ "allow snap fox_;\n",
		  "test.pfw:1:15: error: a snap's instance key (after '_') is 1 to 10 characters" },
		{ "allow snap fox_Work;\n",
		  "test.pfw:1:16: error: a snap's instance key (after '_') holds lower-case letters and digits" },
		{ "allow snap fox_abcdefghijk;\n",
		  "test.pfw:1:26: error: a snap's instance key (after '_') is 1 to 10 characters" },
		{ "allow snap;\n",
		  "test.pfw:1:11: error: expected a snap name such as 'firefox', but found ';'" },
		{ "apps flatpak = /usr/bin/a;\n",
		  "test.pfw:1:6: error: 'flatpak' is a keyword and cannot be a name" },
		{ "allow /usr/bin/a script snap;\n",
		  "test.pfw:1:29: error: expected a snap name" },
	};

	(void)state;
	expect_source_errors(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Flatpak's limit, 255 characters, is the ID's whole length. */
static void test_flatpak_id_length(void **state)
{
	char source[400], id[300];
	struct compiled c;

	(void)state;
	for (size_t len = 255; len <= 256; len++) {
		memcpy(id, "org.example.", 12);
		memset(id + 12, 'a', len - 12);
		id[len] = '\0';
		snprintf(source, sizeof(source), "allow flatpak %s;\n", id);
		compile_text(&c, source, NULL, false);
		if (len == 255)
			assert_int_equal(c.errors, 0);
		else
			assert_true(said(
				&c,
				"test.pfw:1:270: error: a Flatpak application ID is at most 255 characters"));
		compiled_free(&c);
	}
}

/* The pattern each stands for, what it matches, and what it never does. */
static void test_matches(void **state)
{
	static const struct {
		const char *path;
		bool firefox, snap;
	} cases[] = {
		{ "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/stable/0a1b/files/lib/firefox/firefox",
		  true, false },
		{ "/var/lib/flatpak/app/org.mozilla.firefox/aarch64/beta/ff00/files/bin/x",
		  true, false },
		/* Another ID that begins with this one's. */
		{ "/var/lib/flatpak/app/org.mozilla.firefox.Locale/x86_64/stable/1/files/x",
		  false, false },
		/* A runtime, a user's installation, the exported wrapper. */
		{ "/var/lib/flatpak/runtime/org.mozilla.firefox/x86_64/stable/1/files/x",
		  false, false },
		{ "/home/u/.local/share/flatpak/app/org.mozilla.firefox/x86_64/stable/1/files/bin/firefox",
		  false, false },
		{ "/var/lib/flatpak/exports/bin/org.mozilla.firefox", false,
		  false },
		{ "/var/lib/flatpak/app/org.mozilla.firefox", false, false },
		{ "/snap/firefox/4173/usr/lib/firefox/firefox", false, true },
		{ "/snap/firefox_work/12/usr/lib/firefox/firefox", false,
		  false },
		{ "/snap/firefoxy/1/x", false, false },
		{ "/var/snap/firefox/common/x", false, false },
		{ "/snap/firefox", false, false },
	};
	struct pfw_path_pattern firefox, snap;

	(void)state;
	pfw_sandbox_pattern(PFW_SANDBOX_FLATPAK, "org.mozilla.firefox",
			    &firefox);
	pfw_sandbox_pattern(PFW_SANDBOX_SNAP, "firefox", &snap);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (pfw_path_matches(&firefox, cases[i].path) !=
			    cases[i].firefox ||
		    pfw_path_matches(&snap, cases[i].path) != cases[i].snap)
			fail_msg("%s", cases[i].path);
	}
	free(firefox.path);
	free(snap.path);
}

/*
 * The way back: a path gets the identity whose pattern matches it, and
 * only then; a tree pattern over an identity's folder is that identity.
 */
static void test_way_back(void **state)
{
	static const struct {
		const char *path;
		enum pfw_sandbox kind;
		const char *id;
	} cases[] = {
		{ "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/stable/0a1b/files/lib/firefox/firefox",
		  PFW_SANDBOX_FLATPAK, "org.mozilla.firefox" },
		{ "/snap/firefox/4173/usr/lib/firefox/firefox",
		  PFW_SANDBOX_SNAP, "firefox" },
		{ "/snap/fox_work/1/bin/fox", PFW_SANDBOX_SNAP, "fox_work" },
		{ "/var/lib/flatpak/app/org.mozilla/x86_64/stable/1/files/x",
		  PFW_SANDBOX_NONE, "" },
		{ "/var/lib/flatpak/app/org.mozilla.firefox", PFW_SANDBOX_NONE,
		  "" },
		{ "/var/lib/flatpak/app/org.mozilla.firefox/", PFW_SANDBOX_NONE,
		  "" },
		{ "/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/1/files/bin/sh",
		  PFW_SANDBOX_NONE, "" },
		{ "/snap/Firefox/1/x", PFW_SANDBOX_NONE, "" },
		{ "/snapshots/firefox/1/x", PFW_SANDBOX_NONE, "" },
		{ "/usr/bin/firefox", PFW_SANDBOX_NONE, "" },
		{ "?", PFW_SANDBOX_NONE, "" },
	};
	char id[PFW_SANDBOX_ID_SIZE];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum pfw_sandbox kind =
			pfw_sandbox_of_path(cases[i].path, id, sizeof(id));

		if (kind != cases[i].kind || strcmp(id, cases[i].id))
			fail_msg("%s: %d %s", cases[i].path, kind, id);
		if (kind != PFW_SANDBOX_NONE) {
			struct pfw_path_pattern p;
			const char *back;

			/* Its identity's pattern matches the path. */
			pfw_sandbox_pattern(kind, id, &p);
			assert_true(pfw_path_matches(&p, cases[i].path));
			assert_int_equal(pfw_sandbox_of_pattern(&p, &back),
					 kind);
			assert_string_equal(back, id);
			free(p.path);
		}
	}
	/* A tree below an identity's folder, or a child glob, is no identity. */
	{
		struct pfw_path_pattern deeper = {
			PFW_PATH_TREE, "/var/lib/flatpak/app/org.a.b/x86_64"
		};
		struct pfw_path_pattern child = { PFW_PATH_CHILD,
						  "/snap/firefox" };
		const char *back;

		assert_int_equal(pfw_sandbox_of_pattern(&deeper, &back),
				 PFW_SANDBOX_NONE);
		assert_int_equal(pfw_sandbox_of_pattern(&child, &back),
				 PFW_SANDBOX_NONE);
	}
}

/* -Wshadow and -Woverlap see the identities as the folders they are. */
static void test_warnings(void **state)
{
	struct compiled c;

	(void)state;
	compile_text(&c,
		     "allow /var/lib/flatpak/app/** connect tcp;\n"
		     "deny flatpak org.mozilla.firefox connect tcp port 443;\n"
		     "allow snap firefox, /snap/** connect udp;\n"
		     "allow flatpak org.a.b, flatpak org.a.b.c;\n",
		     NULL, false);
	assert_int_equal(c.errors, 0);
	assert_true(said(
		&c,
		"test.pfw:2:1: warning: this rule can never match: an earlier rule matches every request it does [-Wshadow]"));
	assert_true(said(
		&c,
		"test.pfw:3:7: warning: 'snap firefox' is already covered by '/snap/**' in the same list [-Woverlap]"));
	/* Two IDs, one the other's prefix: two folders, no overlap. */
	assert_false(said(&c, "'flatpak org.a.b"));
	assert_int_equal(c.warnings, 2);
	compiled_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_forms),
		cmocka_unit_test(test_rejected_forms),
		cmocka_unit_test(test_flatpak_id_length),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_way_back),
		cmocka_unit_test(test_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
