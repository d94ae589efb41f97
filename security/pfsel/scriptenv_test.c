// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the protected script's environment (scriptenv.c)
 *
 * The table's names and families, and the walk over an execve()'s
 * strings, fed whole and a byte at a time (the kernel reads them a page
 * at a time, and a name may straddle two pages).
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "scriptenv.h"

static const char *refused(const char *const name)
{
	return pfsel_scriptenv_refused(name, strlen(name));
}

/* Every name fits what the walk keeps, and is refused. */
static void scriptenv_test_table(struct kunit *test)
{
	size_t i;

	for (i = 0; i < pfsel_scriptenv_count; i++) {
		const char *const name = pfsel_scriptenv_vars[i].name;

		KUNIT_EXPECT_LE(test, strlen(name),
				(size_t)PFSEL_SCRIPTENV_NAME);
		KUNIT_EXPECT_PTR_EQ(test, refused(name), name);
	}
}

static void scriptenv_test_names(struct kunit *test)
{
	static const char long_func[] =
		"BASH_FUNC_a_function_with_a_name_longer_than_what_is_kept%%";

	KUNIT_EXPECT_STREQ(test, refused("BASH_ENV"), "BASH_ENV");
	KUNIT_EXPECT_STREQ(test, refused("BASH_FUNC_ls%%"), "BASH_FUNC_");
	KUNIT_EXPECT_STREQ(test, refused(long_func), "BASH_FUNC_");
	KUNIT_EXPECT_STREQ(test, refused("LUA_INIT_5_4"), "LUA_INIT");
	KUNIT_EXPECT_STREQ(test, refused("LUA_PATH_5_3"), "LUA_PATH");
	KUNIT_EXPECT_STREQ(test, refused("PYTHONPATH"), "PYTHONPATH");
	KUNIT_EXPECT_STREQ(test, refused("PERL5OPT"), "PERL5OPT");
	/* Exact names: no more, no less, and case counts. */
	KUNIT_EXPECT_NULL(test, refused("BASH_ENVX"));
	KUNIT_EXPECT_NULL(test, refused("BASH_EN"));
	KUNIT_EXPECT_NULL(test, refused("XBASH_ENV"));
	KUNIT_EXPECT_NULL(test, refused("bash_env"));
	KUNIT_EXPECT_NULL(test, refused("PYTHONPATHS"));
	KUNIT_EXPECT_NULL(test, refused("PYTHONDONTWRITEBYTECODE"));
	KUNIT_EXPECT_NULL(test, refused("PATH"));
	KUNIT_EXPECT_NULL(test, refused("HOME"));
	KUNIT_EXPECT_NULL(test, refused("LD_PRELOAD"));
	KUNIT_EXPECT_NULL(test, refused("BASH_FUNC"));
	KUNIT_EXPECT_NULL(test, refused(""));
	/* A long name is compared on its whole length. */
	KUNIT_EXPECT_NULL(test, pfsel_scriptenv_refused("PYTHONPATH", 40));
}

/*
 * The strings of an execve() as the kernel lays them out: @argc
 * arguments, then the environment.  Fed @step bytes at a time.
 */
static const char *scan(const char *const strings, const size_t size,
			const unsigned long argc, const unsigned long envc,
			const size_t step)
{
	struct pfsel_env_scan s = { .skip = argc, .left = envc };
	const char *found = NULL;
	size_t at;

	for (at = 0; at < size && !found && s.left; at += step)
		found = pfsel_scriptenv_scan(&s, strings + at,
					     min(step, size - at));
	return found;
}

static const char args_only[] = "/bin/bash\0BASH_ENV=x\0/s\0HOME=/h\0PATH=/bin";
static const char bash_env[] = "/bin/bash\0/s\0HOME=/h\0BASH_ENV=/tmp/evil.rc\0PATH=/bin";
static const char no_var[] = "/bin/sh\0/s\0X=BASH_ENV=1\0BASH_ENV\0PS4X=y";
static const char func[] = "/bin/sh\0/s\0X=BASH_ENV=1\0BASH_ENV\0BASH_FUNC_ls%%=() { :; }";
static const char past_envc[] = "/bin/sh\0/s\0A=1\0PS4=$(x)";
static const char empty[] = "\0\0=\0\0ENV=";

static void scriptenv_test_scan(struct kunit *test)
{
	size_t step;

	for (step = 1; step <= 64; step *= 4) {
		/* Arguments are not the environment. */
		KUNIT_EXPECT_NULL(test, scan(args_only, sizeof(args_only), 3, 2,
					     step));
		KUNIT_EXPECT_STREQ(test,
				   scan(bash_env, sizeof(bash_env), 2, 3, step),
				   "BASH_ENV");
		/* A value holding a name; a string without '='. */
		KUNIT_EXPECT_NULL(test, scan(no_var, sizeof(no_var), 2, 3, step));
		KUNIT_EXPECT_STREQ(test, scan(func, sizeof(func), 2, 3, step),
				   "BASH_FUNC_");
		/* Past envc, nothing is read. */
		KUNIT_EXPECT_NULL(test, scan(past_envc, sizeof(past_envc), 2, 1,
					     step));
		/* Empty strings, an empty name, an empty value. */
		KUNIT_EXPECT_STREQ(test, scan(empty, sizeof(empty), 2, 3, step),
				   "ENV");
	}
}

static struct kunit_case scriptenv_test_cases[] = {
	KUNIT_CASE(scriptenv_test_table),
	KUNIT_CASE(scriptenv_test_names),
	KUNIT_CASE(scriptenv_test_scan),
	{}
};

static struct kunit_suite scriptenv_test_suite = {
	.name = "pfsel_scriptenv",
	.test_cases = scriptenv_test_cases,
};

kunit_test_suite(scriptenv_test_suite);

MODULE_LICENSE("GPL");
