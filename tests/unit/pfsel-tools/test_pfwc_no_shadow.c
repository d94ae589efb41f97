// SPDX-License-Identifier: GPL-2.0-only
/*
 * The root side compiles ~/.pfw with `pfwc -Wno-shadow` (runas.c, issue 30
 * item 5) and claims the same policy as without it.  An adversary's read
 * of that claim: the shadow analysis (compiler/lint.c) only sets
 * rule->shadowed_by, which nothing that lowers or emits reads, and warns;
 * a .pfw cannot turn -Werror on (only the command line does), and without
 * -Werror a warning changes no exit status.  So no ~/.pfw compiles to
 * another policy, or fails, on one side and not the other.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pfwc_compile.h"

/* pfwc @opts on the file @src: its output into *@out, its exit status. */
static int pfwc_with(const char *src, const char *opts, struct blob *out)
{
	char cmd[PATH_MAX + 256];
	size_t cap = 0, got;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' --uid 1001 %s -o - %s 2>/dev/null",
		 pfwc, opts, src);
	*out = (struct blob){ NULL, 0 };
	p = popen(cmd, "r");
	assert_non_null(p);
	for (;;) {
		if (out->len == cap) {
			cap = cap ? 2 * cap : 65536;
			out->data = realloc(out->data, cap);
			assert_non_null(out->data);
		}
		got = fread(out->data + out->len, 1, cap - out->len, p);
		if (!got)
			break;
		out->len += got;
	}
	return pclose(p);
}

/*
 * runas.c compiles ~/.pfw with -Wno-shadow and claims the same policy: the
 * shadow analysis only warns (rule->shadowed_by is read by nothing that
 * lowers or emits), a file cannot turn -Werror on, and without -Werror a
 * warning changes no exit status.  Rules that shadow each other, a
 * shadowed rule that protects, shadowed name and script rules: the same
 * bytes and status with and without it.  The control: with -Werror on the
 * command line (which the root side never passes) the analysis does
 * decide the status (with every other warning off), so the policies do
 * have shadowed rules.
 */
static void test_no_shadow_same_policy(void **state)
{
	static const char *const texts[] = {
		"default deny;\nallow * connect tcp;\n"
		"deny /opt/a connect tcp port 22;\n"
		"allow /opt/a connect tcp to 10.0.0.0/8;\n",
		"default allow;\ndeny /usr/bin/** create;\n"
		"deny /usr/bin/python3 create tcp protect;\n"
		"allow /usr/bin/python3 script /tmp/* create udp;\n",
		"default ask;\nallow * connect tcp to host *.example;\n"
		"deny * connect tcp to host a.example port 80;\n"
		"deny /opt/a connect tcp to host x.a.example;\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char src[] = "/tmp/pfsel-unit-adv-XXXXXX";
		struct blob with, without, strict, relaxed;
		int fd = mkstemp(src);
		FILE *f;

		/* One file: the blob names its source. */
		assert_true(fd >= 0);
		f = fdopen(fd, "w");
		assert_non_null(f);
		fputs(texts[i], f);
		fclose(f);
		assert_int_equal(pfwc_with(src, "", &with), 0);
		assert_int_equal(pfwc_with(src, "-Wno-shadow", &without), 0);
		assert_int_equal(with.len, without.len);
		assert_memory_equal(with.data, without.data, with.len);
		assert_int_not_equal(pfwc_with(src,
					       "-Werror -Wno-host "
					       "-Wno-protect -Wno-overlap "
					       "-Wno-unused",
					       &strict),
				     0);
		assert_int_equal(pfwc_with(src,
					   "-Werror -Wno-shadow -Wno-host "
					   "-Wno-protect -Wno-overlap "
					   "-Wno-unused",
					   &relaxed),
				 0);
		unlink(src);
		free(with.data);
		free(without.data);
		free(strict.data);
		free(relaxed.data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_shadow_same_policy),
	};

	return cmocka_run_group_tests(tests, find_pfwc, NULL);
}
