// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel: the option parser (pfsel-tools/pam/options.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pam_pfsel.h"

struct warned {
	int count;
	char last[64];
};

static void record_warning(void *ctx, const char *arg)
{
	struct warned *w = ctx;

	w->count++;
	snprintf(w->last, sizeof(w->last), "%s", arg);
}

static int parse(struct pfsel_pam_options *opts, struct warned *w, char *err,
		 int argc, const char **argv)
{
	memset(w, 0, sizeof(*w));
	return pfsel_pam_parse_options(opts, argc, argv, record_warning, w, err,
				       256);
}

static void test_defaults(void **state)
{
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(0, parse(&o, &w, err, 0, NULL));
	assert_false(o.debug);
	assert_false(o.always);
	assert_int_equal(PFSEL_PAM_ON_ERROR_KEEP, o.on_error);
	assert_int_equal(PFSEL_PAM_MISSING_NONE, o.missing);
	assert_int_equal(POLICY_COMPILE_TIMEOUT, o.timeout);
	assert_string_equal(POLICY_PFWC, o.pfwc);
	assert_string_equal("/var/lib/pfsel", o.cache_dir);
	assert_string_equal("/run/pfsel", o.run_dir);
	assert_int_equal(0, w.count);
	assert_string_equal("", err);
}

static void test_every_option(void **state)
{
	const char *argv[] = { "debug",		 "always",    "on_error=deny",
			       "missing=keep",	 "timeout=7", "pfwc=/opt/pfwc",
			       "cache_dir=/c/d", "run_dir=/r" };
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(0, parse(&o, &w, err, 8, argv));
	assert_true(o.debug);
	assert_true(o.always);
	assert_int_equal(PFSEL_PAM_ON_ERROR_DENY, o.on_error);
	assert_int_equal(PFSEL_PAM_MISSING_KEEP, o.missing);
	assert_int_equal(7, o.timeout);
	assert_string_equal("/opt/pfwc", o.pfwc);
	assert_string_equal("/c/d", o.cache_dir);
	assert_string_equal("/r", o.run_dir);
	assert_int_equal(0, w.count);
}

static void test_on_error_values(void **state)
{
	static const struct {
		const char *arg;
		int value;
	} cases[] = {
		{ "on_error=keep", PFSEL_PAM_ON_ERROR_KEEP },
		{ "on_error=none", PFSEL_PAM_ON_ERROR_NONE },
		{ "on_error=deny", PFSEL_PAM_ON_ERROR_DENY },
	};
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[] = { cases[i].arg };

		assert_int_equal(0, parse(&o, &w, err, 1, argv));
		assert_int_equal(cases[i].value, o.on_error);
		assert_string_equal(cases[i].arg + strlen("on_error="),
				    pfsel_pam_on_error_name(o.on_error));
	}
	assert_string_equal("none",
			    pfsel_pam_missing_name(PFSEL_PAM_MISSING_NONE));
	assert_string_equal("keep",
			    pfsel_pam_missing_name(PFSEL_PAM_MISSING_KEEP));
}

/* The last of a repeated option wins. */
static void test_last_wins(void **state)
{
	const char *argv[] = { "on_error=deny", "on_error=none", "timeout=5",
			       "timeout=9" };
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(0, parse(&o, &w, err, 4, argv));
	assert_int_equal(PFSEL_PAM_ON_ERROR_NONE, o.on_error);
	assert_int_equal(9, o.timeout);
}

static void test_unknown_is_reported_and_ignored(void **state)
{
	const char *argv[] = { "debug", "use_first_pass", "colour=blue",
			       "averyveryveryveryverylongoptionname=1" };
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(0, parse(&o, &w, err, 4, argv));
	assert_true(o.debug);
	assert_int_equal(3, w.count);
	assert_string_equal("averyveryveryveryverylongoptionname=1", w.last);
}

static void test_bad_values(void **state)
{
	static const char *const bad[] = {
		"on_error=dney", "on_error=",	  "on_error",
		"missing=deny",	 "missing",	  "timeout=0",
		"timeout=3601",	 "timeout=-1",	  "timeout=5s",
		"timeout=",	 "timeout= 5",	  "pfwc=pfwc",
		"pfwc=",	 "cache_dir=var", "run_dir=./run",
		"debug=1",	 "always=yes",	  "pfwc",
	};
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[] = { "debug", bad[i] };

		err[0] = '\0';
		if (parse(&o, &w, err, 2, argv) != -EINVAL)
			fail_msg("%s: accepted", bad[i]);
		if (!err[0])
			fail_msg("%s: no message", bad[i]);
	}
}

static void test_messages(void **state)
{
	const char *argv[] = { "on_error=dney" };
	const char *argv2[] = { "pfwc=bin/pfwc" };
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(-EINVAL, parse(&o, &w, err, 1, argv));
	assert_string_equal("on_error=dney: not keep, none or deny", err);
	assert_int_equal(-EINVAL, parse(&o, &w, err, 1, argv2));
	assert_string_equal("pfwc=bin/pfwc: not an absolute path", err);
}

static void test_limits(void **state)
{
	const char *argv[] = { "timeout=1" };
	const char *argv2[] = { "timeout=3600" };
	struct pfsel_pam_options o;
	struct warned w;
	char err[256];

	(void)state;
	assert_int_equal(0, parse(&o, &w, err, 1, argv));
	assert_int_equal(1, o.timeout);
	assert_int_equal(0, parse(&o, &w, err, 1, argv2));
	assert_int_equal(3600, o.timeout);
}

/* A NULL argument (some PAM stacks) and no warn callback. */
static void test_null_args(void **state)
{
	const char *argv[] = { NULL, "whatever", "debug" };
	struct pfsel_pam_options o;
	char err[16];

	(void)state;
	assert_int_equal(0, pfsel_pam_parse_options(&o, 3, argv, NULL, NULL,
						    err, sizeof(err)));
	assert_true(o.debug);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_on_error_values),
		cmocka_unit_test(test_last_wins),
		cmocka_unit_test(test_unknown_is_reported_and_ignored),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_null_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
