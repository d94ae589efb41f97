// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel: when the compiled policy is stale, and the stamp kept beside
 * it (pfsel-tools/pam/stamp.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pam_pfsel.h"

static const struct pfsel_pam_stamp base = {
	.dev = 2049,
	.ino = 131075,
	.size = 120,
	.mtime_sec = 1700000000,
	.mtime_nsec = 500000000,
	.ctime_sec = 1700000001,
	.ctime_nsec = 250,
};

static void test_fresh(void **state)
{
	struct pfsel_pam_stamp now = base;

	(void)state;
	assert_int_equal(PFSEL_PAM_FRESH,
			 pfsel_pam_staleness(&now, true, &base, false));
}

static void test_always(void **state)
{
	(void)state;
	assert_int_equal(PFSEL_PAM_STALE_ALWAYS,
			 pfsel_pam_staleness(&base, true, &base, true));
}

static void test_no_blob_no_stamp(void **state)
{
	(void)state;
	assert_int_equal(PFSEL_PAM_STALE_NO_BLOB,
			 pfsel_pam_staleness(&base, false, &base, false));
	assert_int_equal(PFSEL_PAM_STALE_NO_BLOB,
			 pfsel_pam_staleness(&base, false, NULL, false));
	assert_int_equal(PFSEL_PAM_STALE_NO_STAMP,
			 pfsel_pam_staleness(&base, true, NULL, false));
}

/* Newer by a second, or by a nanosecond only (two edits in one second). */
static void test_newer(void **state)
{
	struct pfsel_pam_stamp now = base;

	(void)state;
	now.mtime_sec++;
	assert_int_equal(PFSEL_PAM_STALE_NEWER,
			 pfsel_pam_staleness(&now, true, &base, false));
	now = base;
	now.mtime_nsec++;
	assert_int_equal(PFSEL_PAM_STALE_NEWER,
			 pfsel_pam_staleness(&now, true, &base, false));
	/* A later second wins over a smaller nanosecond part. */
	now = base;
	now.mtime_sec++;
	now.mtime_nsec = 0;
	assert_int_equal(PFSEL_PAM_STALE_NEWER,
			 pfsel_pam_staleness(&now, true, &base, false));
}

/* A source restored from a backup: older than what was compiled. */
static void test_older_is_stale_too(void **state)
{
	struct pfsel_pam_stamp now = base;

	(void)state;
	now.mtime_sec -= 86400;
	assert_int_equal(PFSEL_PAM_STALE_OLDER,
			 pfsel_pam_staleness(&now, true, &base, false));
	now = base;
	now.mtime_nsec--;
	assert_int_equal(PFSEL_PAM_STALE_OLDER,
			 pfsel_pam_staleness(&now, true, &base, false));
}

/* The mtime put back by hand: the ctime still tells. */
static void test_mtime_put_back(void **state)
{
	struct pfsel_pam_stamp now = base;

	(void)state;
	now.ctime_sec += 10;
	assert_int_equal(PFSEL_PAM_STALE_CHANGED,
			 pfsel_pam_staleness(&now, true, &base, false));
	now = base;
	now.size = 121;
	assert_int_equal(PFSEL_PAM_STALE_CHANGED,
			 pfsel_pam_staleness(&now, true, &base, false));
}

/* Another file: a new inode (editor's rename), or a re-pointed symlink. */
static void test_replaced(void **state)
{
	struct pfsel_pam_stamp now = base;

	(void)state;
	now.ino++;
	assert_int_equal(PFSEL_PAM_STALE_REPLACED,
			 pfsel_pam_staleness(&now, true, &base, false));
	now = base;
	now.dev++;
	assert_int_equal(PFSEL_PAM_STALE_REPLACED,
			 pfsel_pam_staleness(&now, true, &base, false));
}

static void test_reasons(void **state)
{
	int v;

	(void)state;
	for (v = PFSEL_PAM_FRESH; v <= PFSEL_PAM_STALE_CHANGED; v++)
		assert_string_not_equal("?", pfsel_pam_staleness_reason(v));
	assert_string_equal("?", pfsel_pam_staleness_reason(99));
}

static void test_format_parse_round_trip(void **state)
{
	struct pfsel_pam_stamp back;
	char buf[128];
	int n;

	(void)state;
	n = pfsel_pam_stamp_format(&base, buf, sizeof(buf));
	assert_true(n > 0);
	assert_string_equal(
		"v1 2049 131075 120 1700000000 500000000 1700000001 250\n",
		buf);
	assert_int_equal(0, pfsel_pam_stamp_parse(buf, &back));
	assert_memory_equal(&base, &back, sizeof(base));
	assert_int_equal(PFSEL_PAM_FRESH,
			 pfsel_pam_staleness(&base, true, &back, false));
	/* Without its newline too. */
	buf[n - 1] = '\0';
	assert_int_equal(0, pfsel_pam_stamp_parse(buf, &back));
	assert_int_equal(-ENOSPC, pfsel_pam_stamp_format(&base, buf, 10));
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"",
		"v2 1 2 3 4 5 6 7\n",
		"v1 1 2 3 4 5 6\n",
		"v1 1 2 3 4 5 6 7 8\n",
		"v1 1 2 3 4 1000000000 6 7\n",
		"v1 1 2 3 4 5 6 -1\n",
		"v1 1 2 -3 4 5 6 7\n",
		"v1 1 2 3 4 5 6 7\ngarbage",
		"garbage",
	};
	struct pfsel_pam_stamp s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (pfsel_pam_stamp_parse(bad[i], &s) != -EBADMSG)
			fail_msg("accepted: \"%s\"", bad[i]);
}

/* A real file: stamp, touch (newer), touch back (older / changed). */
static void test_real_file(void **state)
{
	char path[] = "/tmp/pam_pfsel_stale.XXXXXX";
	struct pfsel_pam_stamp first, now;
	struct timespec times[2];
	struct stat st;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(5, write(fd, "x y;\n", 5));
	times[0].tv_sec = times[1].tv_sec = 1600000000;
	times[0].tv_nsec = times[1].tv_nsec = 0;
	assert_int_equal(0, futimens(fd, times));
	assert_int_equal(0, fstat(fd, &st));
	pfsel_pam_stamp_from_stat(&first, &st);
	assert_int_equal(1600000000, first.mtime_sec);

	assert_int_equal(0, fstat(fd, &st));
	pfsel_pam_stamp_from_stat(&now, &st);
	assert_int_equal(PFSEL_PAM_FRESH,
			 pfsel_pam_staleness(&now, true, &first, false));

	times[0].tv_sec = times[1].tv_sec = 1600000001;
	assert_int_equal(0, futimens(fd, times));
	assert_int_equal(0, fstat(fd, &st));
	pfsel_pam_stamp_from_stat(&now, &st);
	assert_int_equal(PFSEL_PAM_STALE_NEWER,
			 pfsel_pam_staleness(&now, true, &first, false));

	/* Back to the very same mtime: only the ctime moved. */
	times[0].tv_sec = times[1].tv_sec = 1600000000;
	usleep(20000);
	assert_int_equal(0, futimens(fd, times));
	assert_int_equal(0, fstat(fd, &st));
	pfsel_pam_stamp_from_stat(&now, &st);
	assert_int_equal(PFSEL_PAM_STALE_CHANGED,
			 pfsel_pam_staleness(&now, true, &first, false));
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_always),
		cmocka_unit_test(test_no_blob_no_stamp),
		cmocka_unit_test(test_newer),
		cmocka_unit_test(test_older_is_stale_too),
		cmocka_unit_test(test_mtime_put_back),
		cmocka_unit_test(test_replaced),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_format_parse_round_trip),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_real_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
