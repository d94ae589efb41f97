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
 * It won 5 times in 12-14 tries before the fix; now a protected
 * application's execve() fails with EPERM while another thread holds the
 * fs_struct (protect.c, sees_init_root()): `thread_chroot_race` asserts
 * no protected start with the user's library in it, and prints how many
 * tries won.
 * The control, `thread_chroot_race_control`, runs the same steps against
 * protectee-plain, which is not protected: the library gets in.
 *
 * `proc_mem_opened_before_exec`, DEFENDED: a /proc/PID/mem descriptor
 * opened while the child was still the user's program reads and writes
 * nothing of the protected program it then executes, and no new one
 * opens (the control: against protectee-plain a new one opens).
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

/*
 * Tries per run.  Before the fix the race won about one try in three; now
 * every try is refused whatever the timing (another thread holds the
 * fs_struct), so a few dozen show it, in a fraction of the time (the
 * suite runs in two boots).
 */
#define TRIES 40

/* ---- Files ------------------------------------------------------------- */

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
		err = pfsel_copy_file(files[i], to, 0755);
		if (err)
			return err;
	}
	err = pfsel_copy_file(PRELOAD, EVIL "/preload.so", 0755);
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

/* The program of one try, opened before (@arg: its descriptor). */
static int exec_with_flipper(void *arg)
{
	char *argv[] = { "protectee", NULL }, *envp[] = { NULL };
	pthread_t t;

	if (pthread_create(&t, NULL, flipper, NULL))
		_exit(SETUP_FAILED);
	syscall(SYS_execveat, *(int *)arg, "", argv, envp, AT_EMPTY_PATH);
	return errno;
}

/*
 * One try, in a child: start the flipper, then execveat() the program
 * (opened before, so that its lookup does not depend on the root).
 */
static enum outcome one_try(int exe)
{
	char line[128];
	const int code =
		pfsel_exec_output(exec_with_flipper, &exe, line, sizeof(line));

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
	if (real_root < 0 || evil_root < 0 || pfsel_enter_userns(0))
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

/* ---- /proc/PID/mem opened before the exec ------------------------------ */

/*
 * As pfuser1 (dumpable, as a user's program is): a child that waits,
 * then execs @arg with "wait".  This process opens /proc/CHILD/mem while
 * the child is still its own program, lets it exec, and when it has
 * started (its first line) reads and writes through that descriptor at
 * the start of each of the new program's mappings it can find, and
 * through a descriptor opened now.  Returns a bit set: 1 when the old
 * descriptor read or wrote anything, 2 when a new one could be opened.
 */
static int mem_opened_before_exec(void *arg)
{
	char *argv[] = { arg, "wait", NULL }, *envp[] = { NULL };
	char path[64], line[128], maps[4096];
	int go[2], out[2], old_fd, new_fd, result = 0, maps_fd;
	unsigned long addr = 0x400000;
	ssize_t n;
	pid_t pid;
	char c = 0;

	if (prctl(PR_SET_DUMPABLE, 1) || pipe2(go, O_CLOEXEC) ||
	    pipe2(out, O_CLOEXEC))
		return SETUP_FAILED;
	pid = fork();
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(SETUP_FAILED);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	close(out[1]);
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	old_fd = open(path, O_RDWR | O_CLOEXEC);
	if (old_fd < 0 || write(go[1], &c, 1) != 1)
		return SETUP_FAILED;
	n = read(out[0], line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	fprintf(stderr, "protect_root_race_test: %s says %s", (char *)arg,
		line);
	/* Where the new program is mapped, when that can be read (PLAIN). */
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (maps_fd >= 0) {
		n = read(maps_fd, maps, sizeof(maps) - 1);
		maps[n > 0 ? n : 0] = '\0';
		sscanf(maps, "%lx-", &addr);
		close(maps_fd);
	}
	if (pread(old_fd, &c, 1, (off_t)addr) > 0 ||
	    pwrite(old_fd, &c, 1, (off_t)addr) > 0)
		result |= 1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	new_fd = open(path, O_RDWR | O_CLOEXEC);
	if (new_fd >= 0) {
		result |= 2;
		close(new_fd);
	}
	close(old_fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return result;
}

/*
 * A descriptor of /proc/PID/mem opened while the child was still the
 * user's program holds the mm it had then: after the exec of the
 * protected application it reads and writes nothing, and no new one
 * opens.  The control: against the plain program, the old descriptor is
 * as dead (the kernel's doing), but a new one opens.
 */
TEST_F_TIMEOUT(root_race, proc_mem_opened_before_exec, 120)
{
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, mem_opened_before_exec,
				  PROTECTED));
	EXPECT_EQ(2, pfsel_run_as(PFSEL_UID1, mem_opened_before_exec, PLAIN));
}

TEST_HARNESS_MAIN
