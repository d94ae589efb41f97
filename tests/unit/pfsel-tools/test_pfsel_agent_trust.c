// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for what keeps pfsel-agent's answers out of the user's
 * reach: a rule file only root can change (source_rules.c,
 * source_rules_trusted_path()), and the services file its service names
 * come from too (source_rules_services()), and "always" loading ~/.pfw only when the
 * rest of it is no looser than the policy the person last confirmed, and
 * only what the agent compiled (pfw.c, with the real pfwc and a stand-in
 * securityfs folder).  The ownership checks need root: skipped otherwise.
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
	return tmpdir_setup("/tmp/pfsel-agent-trust.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	pfsel_set_securityfs(NULL);
	return tmpdir_teardown();
}

static void test_rules_owner(void **state)
{
	char err[1024], *real;

	(void)state;
	if (geteuid() != 0)
		skip();
	put("agent.rules", "allow * scope session;\n", 0644);
	assert_int_equal(chmod(dir, 0755), 0);
	real = source_rules_trusted_path(in("agent.rules"), err, sizeof(err));
	assert_non_null(real);
	assert_string_equal(real, in("agent.rules"));
	free(real);

	/* Writable by others, or the user's: refused, naming the file. */
	assert_int_equal(chmod(in("agent.rules"), 0666), 0);
	assert_null(
		source_rules_trusted_path(in("agent.rules"), err, sizeof(err)));
	assert_non_null(strstr(err, "agent.rules: refused"));
	assert_int_equal(chmod(in("agent.rules"), 0644), 0);
	assert_int_equal(chown(in("agent.rules"), 1001, 1001), 0);
	assert_null(
		source_rules_trusted_path(in("agent.rules"), err, sizeof(err)));
	assert_non_null(strstr(err, "owner uid 1001"));
	assert_int_equal(chown(in("agent.rules"), 0, 0), 0);

	/* A folder others may write (not sticky): they could swap it. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_null(
		source_rules_trusted_path(in("agent.rules"), err, sizeof(err)));
	assert_non_null(strstr(err, "its folder"));
	/* Sticky, as /tmp: root's entries stay root's. */
	assert_int_equal(chmod(dir, 01777), 0);
	real = source_rules_trusted_path(in("agent.rules"), err, sizeof(err));
	assert_non_null(real);
	free(real);
	assert_int_equal(chmod(dir, 0700), 0);

	/* Through a link: the file it names is judged, and its path kept. */
	{
		char target[512];

		snprintf(target, sizeof(target), "%s", in("agent.rules"));
		assert_int_equal(symlink(target, in("link")), 0);
		real = source_rules_trusted_path(in("link"), err, sizeof(err));
		assert_non_null(real);
		assert_string_equal(real, target);
		free(real);
	}
	assert_null(source_rules_trusted_path(in("missing"), err, sizeof(err)));
	assert_non_null(strstr(err, "realpath("));
}

/* The services file, found as pfwc finds it: root's too, with --user. */
static void test_services_owner(void **state)
{
	char err[1024], *path;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(chmod(dir, 0755), 0);
	put("services", "http 80/tcp\n", 0644);
	assert_int_equal(setenv("PFWC_SERVICES", in("services"), 1), 0);
	path = source_rules_services(true, err, sizeof(err));
	assert_non_null(path);
	assert_string_equal(path, in("services"));
	free(path);

	/* The user's: refused with --user, naming it; read without. */
	assert_int_equal(chown(in("services"), 1001, 1001), 0);
	assert_null(source_rules_services(true, err, sizeof(err)));
	assert_non_null(strstr(err, "services: refused"));
	path = source_rules_services(false, err, sizeof(err));
	assert_non_null(path);
	free(path);

	/* None there: no service names, and no error. */
	assert_int_equal(setenv("PFWC_SERVICES", in("missing"), 1), 0);
	assert_null(source_rules_services(true, err, sizeof(err)));
	assert_string_equal(err, "");
	assert_int_equal(unsetenv("PFWC_SERVICES"), 0);
	assert_int_equal(chmod(dir, 0700), 0);
}

static const char *real_pfwc(void)
{
	static char pfwc[512];
	const char *root = getenv("ROOT");

	snprintf(pfwc, sizeof(pfwc), "%s/build/bin/pfwc", root ? root : "..");
	return access(pfwc, X_OK) ? NULL : pfwc;
}

/* Compiles @text with the real pfwc into @c (the confirmed policy). */
static void confirm(const char *pfwc, const char *text, struct policy_blob *c)
{
	char cmd[2048];
	FILE *f;
	long len;

	put("confirmed.pfw", text, 0644);
	snprintf(cmd, sizeof(cmd), "'%s' -o '%s/confirmed.pfsel' '%s'", pfwc,
		 dir, in("confirmed.pfw"));
	assert_int_equal(system(cmd), 0);
	f = fopen(in("confirmed.pfsel"), "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	free(c->blob);
	c->blob = malloc((size_t)len);
	assert_non_null(c->blob);
	assert_int_equal(fread(c->blob, 1, (size_t)len, f), (size_t)len);
	c->len = (size_t)len;
	fclose(f);
}

static const char confirmed_pfw[] = "policy user;\n"
				    "default deny;\n"
				    "allow /usr/bin/curl connect tcp;\n";

/*
 * The fake kernel's `policies`: @blob (@len bytes) in force for the uid
 * running the test, or nothing in force when @blob is NULL.
 */
static void set_in_force(const void *blob, size_t len)
{
	uint8_t d[PFSEL_DIGEST_SIZE];
	char line[256], hex[PFSEL_DIGEST_HEX_SIZE];

	if (!blob) {
		put("sfs/policies", "", 0644);
		return;
	}
	assert_int_equal(0, pfsel_policy_digest(blob, len, d));
	snprintf(line, sizeof(line),
		 "%u generation=1 size=%zu rules=1 sha256=%s mode=enforcing\n",
		 (unsigned int)getuid(), len, pfsel_digest_hex(d, hex));
	put("sfs/policies", line, 0644);
}

/* What the fake kernel was given to load is now in force. */
static void loaded_is_in_force(void)
{
	struct stat st;
	FILE *f = fopen(in("sfs/load"), "r");
	char *blob;

	assert_non_null(f);
	assert_int_equal(0, fstat(fileno(f), &st));
	assert_true(st.st_size > 0);
	blob = malloc((size_t)st.st_size);
	assert_non_null(blob);
	assert_int_equal((size_t)st.st_size,
			 fread(blob, 1, (size_t)st.st_size, f));
	fclose(f);
	set_in_force(blob, (size_t)st.st_size);
	free(blob);
}

static void test_always_no_looser(void **state)
{
	const char *pfwc = real_pfwc();
	struct policy_blob confirmed = { 0 }, forgotten = { 0 };
	struct pfw_config c = { .load = true, .confirmed = &confirmed };
	char err[4096], sfs[128], *before;

	(void)state;
	if (!pfwc)
		skip();
	snprintf(sfs, sizeof(sfs), "%s/sfs", dir);
	assert_int_equal(mkdir(sfs, 0755), 0);
	assert_int_equal(pfsel_set_securityfs(sfs), 0);
	put("sfs/load", "", 0644);
	confirm(pfwc, confirmed_pfw, &confirmed);
	/* pam_pfsel loaded and recorded it at login. */
	set_in_force(confirmed.blob, confirmed.len);
	c.pfw = strdup(in(".pfw"));
	c.out = strdup(in(".pfw.pfsel"));

	/* The user's programs let everything out: looser, refused. */
	put(".pfw", "policy user;\ndefault allow;\n", 0644);
	before = strdup(get(".pfw"));
	assert_int_equal(pfw_add_rule(&c, "allow /usr/bin/wget connect tcp;",
				      err, sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "looser than the policy in force"));
	assert_string_equal(get(".pfw"), before);
	assert_string_equal(get("sfs/load"), "");
	free(before);

	/* As confirmed, and tighter: the rule is added and loaded. */
	put(".pfw",
	    "policy user;\ndefault deny;\n"
	    "allow /usr/bin/curl connect tcp to 192.0.2.1;\n",
	    0644);
	assert_int_equal(pfw_add_rule(&c, "allow /usr/bin/wget connect tcp;",
				      err, sizeof(err)),
			 0);
	assert_non_null(
		strstr(get(".pfw"), "allow /usr/bin/wget connect tcp;"));
	/* What was loaded is now the reference: the new rule is in it. */
	{
		struct stat st;

		assert_int_equal(stat(in("sfs/load"), &st), 0);
		assert_true(st.st_size > 0);
		assert_int_equal((size_t)st.st_size, confirmed.len);
	}
	loaded_is_in_force();
	/* Another answer on top: the source is what was loaded, plus one. */
	assert_int_equal(pfw_add_rule(&c, "deny /usr/bin/nc connect tcp;", err,
				      sizeof(err)),
			 0);
	loaded_is_in_force();

	/*
	 * A restarted agent knows only what pam_pfsel recorded at login, and
	 * the rules its predecessor added are in force: ~/.pfw compiles to
	 * the very policy in force, so it is the baseline, and loads.
	 */
	c.confirmed = &forgotten;
	assert_int_equal(pfw_add_rule(&c, "deny /usr/bin/ftp connect tcp;",
				      err, sizeof(err)),
			 0);
	loaded_is_in_force();

	/*
	 * Restarted, after a program of the user rewrote ~/.pfw: it is not
	 * the policy in force, and the agent does not know the one that is.
	 * Nothing is written or loaded (before issue 27 it was loaded as
	 * it was).
	 */
	free(forgotten.blob);
	forgotten.blob = NULL;
	forgotten.len = 0;
	put(".pfw", "policy user;\ndefault allow;\n", 0644);
	put("sfs/load", "", 0644);
	assert_int_equal(pfw_add_rule(&c, "deny /usr/bin/nc connect tcp;", err,
				      sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "is not the policy in force"));
	assert_string_equal(get(".pfw"), "policy user;\ndefault allow;\n");
	assert_string_equal(get("sfs/load"), "");

	/* Nothing in force, nothing confirmed: nothing loaded either. */
	set_in_force(NULL, 0);
	assert_int_equal(pfw_add_rule(&c, "deny /usr/bin/nc connect tcp;", err,
				      sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "no policy of yours is in force"));
	assert_string_equal(get("sfs/load"), "");

	/* Nothing in force, the confirmed policy known: compared with it. */
	c.confirmed = &confirmed;
	assert_int_equal(pfw_add_rule(&c, "deny /usr/bin/nc connect tcp;", err,
				      sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, "looser than the policy in force"));
	free(confirmed.blob);
	free(forgotten.blob);
	free((char *)c.pfw);
	free((char *)c.out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_services_owner, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rules_owner, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_always_no_looser, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
