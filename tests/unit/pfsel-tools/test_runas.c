// SPDX-License-Identifier: GPL-2.0-only
/*
 * The root side's stat and compile of ~/.pfw as the user
 * (pfsel-tools/userpolicy/runas.c), with stand-in pfwc scripts.  As root the child also becomes another
 * user (65534) and the script reports who it is; as anyone else it
 * "becomes" the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "userpolicy.h"

#define NOBODY 65534

struct fixture {
	char home[64];
	char pfwc[96];
	gid_t groups[1];
	struct user_identity user;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->home, sizeof(f->home), "/tmp/pam_pfsel_runas.XXXXXX");
	if (!mkdtemp(f->home) || chmod(f->home, 0755))
		return -1;
	snprintf(f->pfwc, sizeof(f->pfwc), "%s/pfwc", f->home);
	f->groups[0] = getgid();
	f->user = (struct user_identity){
		.uid = getuid(),
		.gid = getgid(),
		.groups = f->groups,
		.ngroups = 1,
		.home = f->home,
		.name = "tester",
	};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->home);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *file = fopen(path, "w");

	assert_non_null(file);
	fputs(text, file);
	fclose(file);
	assert_int_equal(0, chmod(path, mode));
}

static void fake_pfwc(struct fixture *f, const char *body)
{
	char text[2048];

	snprintf(text, sizeof(text), "#!/bin/sh\n%s\n", body);
	write_file(f->pfwc, text, 0755);
}

static int compile(struct fixture *f, unsigned int timeout, char **out,
		   size_t *len, char *diag)
{
	void *blob = NULL;
	int ret;

	ret = user_compile(&f->user, f->pfwc, timeout, &blob, len, diag, 256);
	*out = blob;
	return ret;
}

/* pfwc's arguments, folder and environment. */
static void test_arguments_and_environment(void **state)
{
	struct fixture *f = *state;
	char expect[512], diag[256], *out = NULL;
	size_t len = 0;

	fake_pfwc(f, "echo \"$*\"; pwd; env | grep -v '^PWD=' | sort");
	setenv("PFWC_SERVICES", "/etc/shadow", 1);
	setenv("LD_PRELOAD", "/tmp/evil.so", 1);
	assert_int_equal(0, compile(f, 5, &out, &len, diag));
	unsetenv("LD_PRELOAD");
	unsetenv("PFWC_SERVICES");
	snprintf(expect, sizeof(expect),
		 "--uid=%u -Wno-shadow -o - %s/.pfw\n%s\nHOME=%s\nLC_ALL=C\n"
		 "LOGNAME=tester\n"
		 "PATH=/usr/bin:/bin\nUSER=tester\n",
		 (unsigned int)getuid(), f->home, f->home, f->home);
	assert_string_equal(expect, out);
	assert_int_equal(strlen(expect), len);
	free(out);
}

/* The policy comes back byte for byte, binary and large. */
static void test_binary_output(void **state)
{
	struct fixture *f = *state;
	char diag[256], *out = NULL;
	size_t len = 0, i;

	fake_pfwc(f, "head -c 300000 /dev/zero | tr '\\0' '\\001'; "
		     "printf '\\000\\377'");
	assert_int_equal(0, compile(f, 5, &out, &len, diag));
	assert_int_equal(300002, len);
	for (i = 0; i < 300000; i++)
		if (out[i] != 1)
			fail_msg("byte %zu is %d", i, out[i]);
	assert_int_equal(0, out[300000]);
	assert_int_equal(0xff, (unsigned char)out[300001]);
	free(out);
}

/* Errors in the policy: -EBADMSG and pfwc's first line. */
static void test_errors(void **state)
{
	struct fixture *f = *state;
	char diag[256], *out = NULL;
	size_t len = 0;

	fake_pfwc(f, "echo 'half a policy'; "
		     "echo '/home/x/.pfw:3:1: error: unknown word' >&2; "
		     "echo '    alow * connect;' >&2; exit 1");
	assert_int_equal(-EBADMSG, compile(f, 5, &out, &len, diag));
	assert_null(out);
	assert_string_equal("/home/x/.pfw:3:1: error: unknown word", diag);

	fake_pfwc(f, "exit 3");
	assert_int_equal(-EBADMSG, compile(f, 5, &out, &len, diag));
	assert_string_equal("pfwc exited with status 3", diag);

	fake_pfwc(f, "kill -9 $$");
	assert_int_equal(-EBADMSG, compile(f, 5, &out, &len, diag));
	assert_string_equal("pfwc was killed by signal 9", diag);

	fake_pfwc(f, "exit 0");
	assert_int_equal(-ENODATA, compile(f, 5, &out, &len, diag));
}

static void test_no_pfwc(void **state)
{
	struct fixture *f = *state;
	char diag[256], *out = NULL;
	size_t len = 0;

	assert_int_equal(-ENOEXEC, compile(f, 5, &out, &len, diag));
	assert_non_null(strstr(diag, "No such file"));
}

/* A pfwc that hangs (with a child of its own) is killed at the limit. */
static void test_timeout(void **state)
{
	struct fixture *f = *state;
	char diag[256], *out = NULL;
	size_t len = 0;
	time_t start = time(NULL);

	fake_pfwc(f, "sleep 30 & sleep 30");
	assert_int_equal(-ETIMEDOUT, compile(f, 1, &out, &len, diag));
	assert_true(time(NULL) - start < 5);
	assert_string_equal("pfwc ran for more than 1 s", diag);
}

/* The application's descriptors do not reach pfwc. */
static void test_no_descriptor_leaks(void **state)
{
	struct fixture *f = *state;
	char diag[256], *out = NULL;
	size_t len = 0;
	int fd = open("/dev/null", O_RDONLY); /* not close-on-exec */

	assert_true(fd >= 0);
	assert_int_equal(37, dup2(fd, 37));
	fake_pfwc(f, "for n in 3 4 5 6 7 8 9 37; do "
		     "[ -e /proc/self/fd/$n ] && echo leak $n; done; echo ok");
	assert_int_equal(0, compile(f, 5, &out, &len, diag));
	assert_string_equal("ok\n", out);
	free(out);
	close(37);
	close(fd);
}

static void test_source_stat(void **state)
{
	struct fixture *f = *state;
	struct stat pfw;
	char path[128];
	struct stat st;

	assert_int_equal(-ENOENT, user_source_stat(&f->user, 5, &pfw));
	snprintf(path, sizeof(path), "%s/.pfw", f->home);
	write_file(path, "default allow;\n", 0644);
	assert_int_equal(0, user_source_stat(&f->user, 5, &pfw));
	assert_int_equal(0, stat(path, &st));
	assert_int_equal(st.st_ino, pfw.st_ino);
	assert_int_equal(15, pfw.st_size);
	assert_int_equal(st.st_mtim.tv_nsec, pfw.st_mtim.tv_nsec);

	/* A dangling symlink is no ~/.pfw; a folder is not one either. */
	unlink(path);
	assert_int_equal(0, symlink("/nonexistent/x.pfw", path));
	assert_int_equal(-ENOENT, user_source_stat(&f->user, 5, &pfw));
	unlink(path);
	assert_int_equal(0, mkdir(path, 0755));
	assert_int_equal(-EINVAL, user_source_stat(&f->user, 5, &pfw));
	rmdir(path);

	/* No home at all. */
	f->user.home = "/nonexistent-home";
	assert_int_equal(-ENOENT, user_source_stat(&f->user, 5, &pfw));
	f->user.home = f->home;
}

/* Without root, one cannot "become" someone else. */
static void test_cannot_become_another(void **state)
{
	struct fixture *f = *state;
	struct stat pfw;
	char diag[256], *out = NULL;
	size_t len = 0;

	if (geteuid() == 0)
		skip();
	f->user.uid = getuid() + 1;
	assert_int_equal(-EPERM, user_source_stat(&f->user, 5, &pfw));
	fake_pfwc(f, "echo ran");
	assert_int_equal(-EPERM, compile(f, 5, &out, &len, diag));
	assert_null(out);
}

/* As root: the child is the user, for good, and sees what they see. */
static void test_root_becomes_the_user(void **state)
{
	struct fixture *f = *state;
	struct stat pfw;
	char diag[256], path[128], secret_dir[96], *out = NULL;
	size_t len = 0;

	if (geteuid() != 0)
		skip();
	f->user.uid = NOBODY;
	f->user.gid = NOBODY;
	f->groups[0] = NOBODY;
	fake_pfwc(
		f,
		"id -u; id -g; id -G; "
		"grep -E '^(Uid|Gid|CapEff|CapPrm|NoNewPrivs)' /proc/self/status "
		"| tr -s '\\t ' ' '; "
		"cat /proc/1/environ >/dev/null 2>&1 && echo read-init; exit 0");
	assert_int_equal(0, compile(f, 5, &out, &len, diag));
	assert_string_equal("65534\n65534\n65534\n"
			    "Uid: 65534 65534 65534 65534\n"
			    "Gid: 65534 65534 65534 65534\n"
			    "CapPrm: 0000000000000000\n"
			    "CapEff: 0000000000000000\n"
			    "NoNewPrivs: 1\n",
			    out);
	free(out);

	/* ~/.pfw a symlink to a file only root can read. */
	snprintf(secret_dir, sizeof(secret_dir), "%s/secret", f->home);
	assert_int_equal(0, mkdir(secret_dir, 0700));
	snprintf(path, sizeof(path), "%s/secret/shadow.pfw", f->home);
	write_file(path, "default deny;\n", 0600);
	snprintf(path, sizeof(path), "%s/.pfw", f->home);
	assert_int_equal(0, symlink("secret/shadow.pfw", path));
	assert_int_equal(-EACCES, user_source_stat(&f->user, 5, &pfw));
	/* Readable folder, unreadable file: stat works, reading does not. */
	assert_int_equal(0, chmod(secret_dir, 0755));
	assert_int_equal(0, user_source_stat(&f->user, 5, &pfw));
	fake_pfwc(f, "cat \"$5\" || exit 1");
	assert_int_equal(-EBADMSG, compile(f, 5, &out, &len, diag));
	assert_null(out);
	assert_non_null(strstr(diag, "Permission denied"));
}

/* A user as a person types one: a name, else a uid; nothing else. */
static void test_account_parse(void **state)
{
	static const char *const nobody_at_all[] = {
		"no-such-user-pfsel",
		"4294967295",
		"99999999999",
		"12a",
		"-1",
		"",
	};
	struct user_account a;
	size_t i;

	(void)state;
	assert_int_equal(0, user_account_parse(&a, "root"));
	assert_int_equal(0, a.pw.pw_uid);
	user_account_free(&a);
	/* No one is called "0": the uid. */
	assert_int_equal(0, user_account_parse(&a, "0"));
	assert_string_equal("root", a.pw.pw_name);
	user_account_free(&a);
	assert_int_equal(0, user_account_parse(&a, "65534"));
	assert_int_equal(NOBODY, a.pw.pw_uid);
	assert_int_equal(NOBODY, a.user.uid);
	user_account_free(&a);
	for (i = 0; i < sizeof(nobody_at_all) / sizeof(*nobody_at_all); i++) {
		assert_int_equal(-ESRCH,
				 user_account_parse(&a, nobody_at_all[i]));
		user_account_free(&a);
	}
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_arguments_and_environment),
		T(test_binary_output),
		T(test_errors),
		T(test_no_pfwc),
		T(test_timeout),
		T(test_no_descriptor_leaks),
		T(test_source_stat),
		T(test_cannot_become_another),
		T(test_root_becomes_the_user),
		cmocka_unit_test(test_account_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
