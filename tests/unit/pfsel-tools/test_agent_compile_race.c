// SPDX-License-Identifier: GPL-2.0-only
/*
 * An attacker's view of pfsel-agent's "always" (pfw.c, pfw_add_rule()):
 * the program the user's policy denies runs as the user, and so may write
 * every file in the user's home folder (the temporary files beside
 * ~/.pfw, the files ~/.pfw includes) and trace any process of the user's
 * but the agent, which is not dumpable.
 *
 * The agent used to judge the text it read, then have pfwc compile its
 * text with the new rule from a temporary file by name, rename it over
 * ~/.pfw, compile ~/.pfw again and load that when it agreed: what pfwc
 * read in the second and third compiles was what the files held by then.
 * A stand-in pfwc (a shell script) played the attacker at the moment a
 * racing program of the user lands, just before the real pfwc ran on the
 * agent's temporary file:
 *
 *  - swap: rename a file of its own, the agent's text plus "allow
 *    /usr/bin/evil connect tcp;", over the temporary file's name;
 *  - include: add that rule to a file ~/.pfw includes;
 *  - output: rename a policy of its own over pfwc's output, for the
 *    agent's text and then for ~/.pfw (so that they agree).
 *
 * Each of them got /usr/bin/evil out (issue 27).  The agent now compiles
 * its own copy of the text in its own process, parsed once; the stand-in
 * is first in $PATH and never runs (the control that it would act, had
 * any compiler process been started: "raced"), and what is loaded is the
 * agent's text with its rule, exactly.  An include changed before the
 * agent reads it is part of what it judges: looser, nothing is loaded.
 *
 * tests/vm/consent_test.c runs the same attacks for real: a separate
 * process of pfuser1 against the real agent and kernel.
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
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"
#include "tmpdir.h"

static int setup(void **state)
{
	(void)state;
	return tmpdir_setup("/tmp/pfsel-agent-race.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	pfsel_set_securityfs(NULL);
	return tmpdir_teardown();
}

static const char *real_pfwc(void)
{
	static char path[512];
	const char *root = getenv("ROOT");

	snprintf(path, sizeof(path), "%s/build/bin/pfwc", root ? root : "..");
	return access(path, X_OK) ? NULL : path;
}

/* Reads @path whole into @out (malloc()ed): its length. */
static size_t slurp(const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	long len;

	assert_non_null(f);
	assert_int_equal(0, fseek(f, 0, SEEK_END));
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	*out = malloc((size_t)len + 1);
	assert_non_null(*out);
	assert_int_equal((size_t)len, fread(*out, 1, (size_t)len, f));
	fclose(f);
	return (size_t)len;
}

/* Compiles @name (in the folder) with the real pfwc: the blob's length. */
static size_t compile(const char *pfwc, const char *name, char **blob)
{
	char cmd[2048], out[512];

	snprintf(out, sizeof(out), "%s.pfsel", in(name));
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s'", pfwc, out, in(name));
	assert_int_equal(system(cmd), 0);
	return slurp(out, blob);
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

/*
 * The stand-in pfwc: "pfwc -o OUT SRC".  When SRC is one of the agent's
 * temporary files and its text is not ~/.pfw's (so: the agent's text with
 * its new rule, about to be compiled as "want"), it plays the attacker
 * once, as the file "attack" says (none, swap, include), then runs the
 * real pfwc.
 */
static void put_stand_in(const char *pfwc)
{
	char script[8192];

	snprintf(script, sizeof(script),
		 "#!/bin/sh\n"
		 "D='%s'\n"
		 "src=\"$3\"\n"
		 "case \"$src\" in\n"
		 "*.pfsel-agent.*)\n"
		 "  if ! cmp -s \"$src\" \"$D/.pfw\" && [ ! -e \"$D/raced\" ]; then\n"
		 "    : > \"$D/raced\"\n"
		 "    case \"$(cat \"$D/attack\")\" in\n"
		 "    swap)\n"
		 "      sed '/^# BEGIN pfsel-agent$/a allow /usr/bin/evil connect tcp;' \\\n"
		 "        \"$src\" > \"$D/evil\" && mv \"$D/evil\" \"$src\" ;;\n"
		 "    include)\n"
		 "      echo 'allow /usr/bin/evil connect tcp;' >> \"$D/extra.pfw\" ;;\n"
		 "    output)\n"
		 "      sed '/^# BEGIN pfsel-agent$/a allow /usr/bin/evil connect tcp;' \\\n"
		 "        \"$src\" > \"$D/evil.pfw\" &&\n"
		 "      '%s' -o \"$D/evil.pfsel\" \"$D/evil.pfw\" &&\n"
		 "      '%s' \"$@\" && cp \"$D/evil.pfsel\" \"$D/evil.out\" &&\n"
		 "      mv \"$D/evil.out\" \"$2\"\n"
		 "      exit $? ;;\n"
		 "    esac\n"
		 "  fi ;;\n"
		 "\"$D/.pfw\")\n"
		 "  if [ -e \"$D/evil.pfsel\" ]; then\n"
		 "    '%s' \"$@\" && cp \"$D/evil.pfsel\" \"$D/evil.out\" &&\n"
		 "    mv \"$D/evil.out\" \"$2\"\n"
		 "    exit $?\n"
		 "  fi ;;\n"
		 "esac\n"
		 "exec '%s' \"$@\"\n",
		 dir, pfwc, pfwc, pfwc, pfwc);
	put("pfwc", script, 0755);
}

/*
 * The scene: ~/.pfw (with "include" when @include) is the policy the
 * person confirmed and the one in force; the agent, which knows it, is
 * told "always" for wget; the stand-in pfwc plays @attack.  Returns what
 * the fake kernel was given to load (malloc()ed, *@len; NULL when
 * nothing) and, in *@legit, the legitimate outcome: the agent's text with
 * the rule (the new ~/.pfw when there was no attack), compiled.
 */
static char *scene(const char *attack, bool include, size_t *len,
		   char **legit, size_t *legit_len)
{
	const char *pfwc = real_pfwc();
	struct policy_blob confirmed = { 0 };
	struct pfw_config c = { .load = true, .confirmed = &confirmed };
	char err[4096], sfs[128], *loaded = NULL;
	struct stat st;
	int rc;

	snprintf(sfs, sizeof(sfs), "%s/sfs", dir);
	assert_int_equal(mkdir(sfs, 0755), 0);
	assert_int_equal(pfsel_set_securityfs(sfs), 0);
	put("sfs/load", "", 0644);
	put("attack", attack, 0644);
	put_stand_in(pfwc);
	{
		/* Any compiler the agent would start by name is the attacker's. */
		char path[4096];

		snprintf(path, sizeof(path), "%s:%s", dir,
			 getenv("PATH") ? getenv("PATH") : "/usr/bin");
		setenv("PATH", path, 1);
	}
	if (include) {
		put("extra.pfw", "allow /usr/bin/curl connect tcp;\n", 0644);
		put(".pfw",
		    "policy user;\ndefault deny;\ninclude \"extra.pfw\";\n",
		    0644);
	} else {
		put(".pfw",
		    "policy user;\ndefault deny;\n"
		    "allow /usr/bin/curl connect tcp;\n",
		    0644);
	}
	/* What pam_pfsel recorded and loaded at login. */
	confirmed.len = compile(pfwc, ".pfw", (char **)&confirmed.blob);
	set_in_force(confirmed.blob, confirmed.len);

	if (!strcmp(attack, "include-before"))
		put("extra.pfw",
		    "allow /usr/bin/curl connect tcp;\n"
		    "allow /usr/bin/evil connect tcp;\n",
		    0644);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));
	rc = pfw_add_rule(&c, "allow /usr/bin/wget connect tcp;", err,
			  sizeof(err));
	print_message("pfw_add_rule: %d %s\n", rc, rc ? err : "");

	/* The legitimate outcome: the confirmed text with the agent's rule. */
	{
		char *text = strdup(get(".pfw"));
		char *own;

		assert_non_null(text);
		own = pfw_insert(include ? "policy user;\ndefault deny;\n"
					   "include \"legit-extra.pfw\";\n" :
					   "policy user;\ndefault deny;\n"
					   "allow /usr/bin/curl connect tcp;\n",
				 "allow /usr/bin/wget connect tcp;");
		assert_non_null(own);
		put("legit-extra.pfw", "allow /usr/bin/curl connect tcp;\n",
		    0644);
		put("legit.pfw", own, 0644);
		*legit_len = compile(pfwc, "legit.pfw", legit);
		print_message("~/.pfw after the answer:\n%s", text);
		free(own);
		free(text);
	}

	assert_int_equal(stat(in("sfs/load"), &st), 0);
	*len = (size_t)st.st_size;
	if (*len)
		slurp(in("sfs/load"), &loaded);
	free(confirmed.blob);
	free((char *)c.pfw);
	free((char *)c.out);
	return loaded;
}

/*
 * What must hold: nothing loaded, or what is loaded is no looser than the
 * legitimate outcome (the looser cells are printed).  Frees both.
 */
static void assert_no_looser_than_legit(char *loaded, size_t len, char *legit,
					size_t legit_len)
{
	int rc = 0;

	if (!loaded)
		print_message("nothing loaded\n");
	else
		rc = policy_compare(legit, legit_len, loaded, len, stdout, 5);
	if (rc)
		print_message("the agent loaded a policy looser than its own "
			      "text with its rule (above)\n");
	free(loaded);
	free(legit);
	assert_int_equal(0, rc);
}

/* Control: no attack; the agent loads exactly its own text, compiled. */
static void test_always_no_attack(void **state)
{
	char *loaded, *legit;
	size_t len, legit_len;

	(void)state;
	if (!real_pfwc())
		skip();
	loaded = scene("none", false, &len, &legit, &legit_len);
	assert_non_null(loaded);
	assert_int_equal(0, policy_compare(legit, legit_len, loaded, len, NULL,
					   0));
	assert_int_equal(0, policy_compare(loaded, len, legit, legit_len, NULL,
					   0));
	free(loaded);
	free(legit);
}

/* Control with an include: the same, the include unchanged. */
static void test_always_include_no_attack(void **state)
{
	char *loaded, *legit;
	size_t len, legit_len;

	(void)state;
	if (!real_pfwc())
		skip();
	loaded = scene("none", true, &len, &legit, &legit_len);
	assert_non_null(loaded);
	assert_int_equal(0, policy_compare(legit, legit_len, loaded, len, NULL,
					   0));
	assert_int_equal(0, policy_compare(loaded, len, legit, legit_len, NULL,
					   0));
	free(loaded);
	free(legit);
}

/*
 * The attacker waits, as pfwc's stand-in, to rename its own file over
 * the agent's temporary file: no compiler process runs, and what is
 * loaded is exactly the agent's text with its rule.  (It got
 * /usr/bin/evil out when the agent compiled by file name.)
 */
static void test_always_temp_swap(void **state)
{
	char *loaded, *legit;
	size_t len, legit_len;

	(void)state;
	if (!real_pfwc())
		skip();
	loaded = scene("swap", false, &len, &legit, &legit_len);
	assert_null(get("raced"));
	assert_non_null(loaded);
	assert_no_looser_than_legit(loaded, len, legit, legit_len);
}

/*
 * The attacker changes an included file: before the agent reads it, the
 * change is part of what the agent judges, looser than the policy in
 * force, and nothing is loaded; there is no later compile to change it
 * for (the stand-in never runs).
 */
static void test_always_include_swap(void **state)
{
	char *loaded, *legit;
	size_t len, legit_len;

	(void)state;
	if (!real_pfwc())
		skip();
	loaded = scene("include-before", true, &len, &legit, &legit_len);
	assert_null(get("raced"));
	assert_null(loaded);
	free(legit);
}

/*
 * The attacker waits to replace pfwc's output with a policy of its own:
 * there is no output to replace; the agent loads from memory.
 */
static void test_always_output_swap(void **state)
{
	char *loaded, *legit;
	size_t len, legit_len;

	(void)state;
	if (!real_pfwc())
		skip();
	loaded = scene("output", false, &len, &legit, &legit_len);
	assert_null(get("raced"));
	assert_non_null(loaded);
	assert_no_looser_than_legit(loaded, len, legit, legit_len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_always_no_attack, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_always_include_no_attack,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_always_temp_swap, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_always_include_swap,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_always_output_swap,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
