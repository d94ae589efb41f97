// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of pam_pfsel's confirmed policy (pfsel-tools/pam/confirm.c):
 * what a login may load unconfirmed (pfsel_pam_judge()), the store of
 * confirmed policies and its folder's checks, and the note that a policy
 * waits for confirmation (told once).  Policies are compiled by the real
 * pfwc ($BUILD/bin/pfwc) for the uid running the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pam_pfsel.h"

#include "pfwc_compile.h"

static char dir[64];

static int dir_setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pam-confirm-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int dir_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static struct blob compile(const char *text)
{
	return compile_for(text, (unsigned int)getuid());
}

static uint32_t checksum(const struct blob *b)
{
	uint32_t sum = 0;

	assert_int_equal(0,
			 pfsel_pam_blob_check(b->data, b->len, getuid(), &sum));
	return sum;
}

#define A "default allow;\ndeny * connect to loopback port 5601;\n"
#define TIGHTER "default allow;\ndeny * connect to loopback port 5601-5602;\n"
#define LOOSER "default allow;\ndeny * connect to loopback port 5602;\n"

static void test_judge(void **state)
{
	struct blob a = compile(A), t = compile(TIGHTER), l = compile(LOOSER);
	const uid_t uid = getuid();
	char junk[64] = "junk";

	(void)state;
	assert_int_equal(PFSEL_PAM_FIRST,
			 pfsel_pam_judge(NULL, 0, a.data, a.len, uid, false,
					 0));
	assert_int_equal(PFSEL_PAM_CONFIRMED_SAME,
			 pfsel_pam_judge(a.data, a.len, a.data, a.len, uid,
					 false, 0));
	assert_int_equal(PFSEL_PAM_NO_LOOSER,
			 pfsel_pam_judge(a.data, a.len, t.data, t.len, uid,
					 false, 0));
	assert_int_equal(PFSEL_PAM_LOOSER,
			 pfsel_pam_judge(a.data, a.len, l.data, l.len, uid,
					 true, checksum(&a)));
	/* In force already (the agent, or root): confirmed by that. */
	assert_int_equal(PFSEL_PAM_IN_FORCE,
			 pfsel_pam_judge(a.data, a.len, l.data, l.len, uid,
					 true, checksum(&l)));
	/* A confirmed policy that is no policy: cannot prove no looser. */
	assert_int_equal(PFSEL_PAM_UNCOMPARABLE,
			 pfsel_pam_judge(junk, sizeof(junk), l.data, l.len, uid,
					 false, 0));
	assert_false(pfsel_pam_judgement_loads(PFSEL_PAM_LOOSER));
	assert_false(pfsel_pam_judgement_loads(PFSEL_PAM_UNCOMPARABLE));
	assert_true(pfsel_pam_judgement_loads(PFSEL_PAM_NO_LOOSER));
	assert_true(pfsel_pam_judgement_loads(PFSEL_PAM_FIRST));
	assert_non_null(
		strstr(pfsel_pam_judgement_name(PFSEL_PAM_LOOSER), "looser"));
	free(a.data);
	free(t.data);
	free(l.data);
}

/* The store: a folder of the caller's alone; policies for the uid only. */
static void test_store(void **state)
{
	struct blob a = compile(A);
	void *back = NULL;
	size_t len = 0;
	char path[128];
	int cache, conf;

	(void)state;
	cache = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(cache >= 0);
	conf = pfsel_pam_open_confirmed(cache);
	assert_true(conf >= 0);
	assert_int_equal(-ENOENT,
			 pfsel_pam_read_confirmed(conf, getuid(), &back, &len));
	assert_int_equal(0, pfsel_pam_write_confirmed(conf, getuid(), a.data,
						      a.len));
	assert_int_equal(0,
			 pfsel_pam_read_confirmed(conf, getuid(), &back, &len));
	assert_int_equal(a.len, len);
	assert_memory_equal(a.data, back, len);
	free(back);
	/* Another uid's policy is not recorded for this one. */
	assert_int_equal(-EBADMSG, pfsel_pam_write_confirmed(conf, getuid() + 1,
							     a.data, a.len));
	assert_int_equal(0, pfsel_pam_forget_confirmed(conf, getuid()));
	assert_int_equal(0, pfsel_pam_forget_confirmed(conf, getuid()));
	assert_int_equal(-ENOENT,
			 pfsel_pam_read_confirmed(conf, getuid(), &back, &len));
	close(conf);

	/* A folder others may read is refused. */
	snprintf(path, sizeof(path), "%s/%s", dir, PFSEL_PAM_CONFIRMED);
	assert_int_equal(0, chmod(path, 0755));
	assert_int_equal(-EPERM, pfsel_pam_open_confirmed(cache));
	assert_int_equal(0, chmod(path, 0700));
	/* So is a symlink in its place. */
	assert_int_equal(0, rmdir(path));
	assert_int_equal(0, symlink("/tmp", path));
	assert_int_equal(-ENOTDIR, pfsel_pam_open_confirmed(cache));
	close(cache);
	free(a.data);
}

/* The note: told once per policy; readable; cleared. */
static void test_pending(void **state)
{
	uint32_t sum = 0;
	struct stat st;
	char path[128];
	int run;

	(void)state;
	run = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(run >= 0);
	assert_int_equal(-ENOENT, pfsel_pam_pending_read(dir, getuid(), &sum));
	assert_int_equal(1, pfsel_pam_pending_set(run, getuid(), 0x1234abcd));
	assert_int_equal(0, pfsel_pam_pending_set(run, getuid(), 0x1234abcd));
	assert_int_equal(0, pfsel_pam_pending_read(dir, getuid(), &sum));
	assert_int_equal(0x1234abcd, sum);
	snprintf(path, sizeof(path), "%s/%u.pending", dir,
		 (unsigned int)getuid());
	assert_int_equal(0, stat(path, &st));
	assert_int_equal(0644, st.st_mode & 07777);
	/* Another policy waiting: told again. */
	assert_int_equal(1, pfsel_pam_pending_set(run, getuid(), 0x99));
	assert_int_equal(0, pfsel_pam_pending_clear(run, getuid()));
	assert_int_equal(0, pfsel_pam_pending_clear(run, getuid()));
	assert_int_equal(-ENOENT, pfsel_pam_pending_read(dir, getuid(), &sum));
	close(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test_setup_teardown(test_store, dir_setup,
						dir_teardown),
		cmocka_unit_test_setup_teardown(test_pending, dir_setup,
						dir_teardown),
	};

	return cmocka_run_group_tests(tests, find_pfwc, NULL);
}
