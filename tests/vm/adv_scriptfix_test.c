// SPDX-License-Identifier: GPL-2.0
/*
 * adv_scriptfix_test - the adversary review of issue 27's script fix
 * (security/pfsel/exec.c, name_is_root_s()): can pfuser1 run code of its
 * own with the identity of an allowed `#!` script in a root-owned folder?
 *
 * name_is_root_s() names a script only when the exec'ing task is of the
 * initial user namespace and, for a relative name, no other task holds
 * its fs_struct: "a task of the initial user namespace is in [a mount
 * namespace] that only a task privileged there can change".  But a
 * relative name is looked up from the current directory, and the current
 * directory is a path, which may lie in a mount namespace of the user's
 * own: fchdir() to a descriptor that a helper in the user's user and
 * mount namespace sent (SCM_RIGHTS), or chdir("/proc/HELPER/cwd"), needs
 * no privilege.  The lookup of "a/b/trusted.scr" from there crosses the
 * helper's mounts and folders, which the user changes at will, while the
 * exec'ing task is still of the initial user namespace.
 *
 * The frame: the helper (pfuser1 in a user and mount namespace of its
 * own) mounts a tmpfs, makes a/b in it and binds the scripts' root-owned
 * folder there, puts its own "evil" script at z/b/<name> and a symbolic
 * link c -> z, and sends the tmpfs's root to the attacker, a process of
 * pfuser1 in the initial namespaces.  The attacker fchdir()s there and
 * execs "a/b/trusted.scr"; after the exec, before the interpreter opens
 * the name, it exchanges a and c (renameat2(RENAME_EXCHANGE): a rename
 * in a folder of its own, no mount, no privilege), so that the same name
 * leads through the link to z/b/trusted.scr: the attacker's file, at
 * another absolute path than the one the exec saw, which
 * hook_file_open()'s watch does not compare.
 *
 * The interpreter is race_interp (script_race_test's: it opens the name
 * it was given, reads "trusted" or "evil", connects to RACE_PORT, and
 * says by its exit status what it read and what the connect got).
 * Policy policies/adv_scriptfix_1001.pfw: only race_interp running
 * trusted.scr (plain) or protected.scr (protect) may connect there.
 *
 * - plain_foreign_cwd_stopped: the child stopped at its exec (ptrace, by
 *   pfuser1, its parent) while a and c are exchanged;
 * - plain_foreign_cwd_vfork and protected_foreign_cwd_vfork: unassisted,
 *   RACE_TRIES times: the attacker vfork()s, the child execs, and the
 *   parent, which runs again once the exec has released its memory (after
 *   the identity was fixed), exchanges a and c at once (script_race_test's
 *   timing).  A protected script's execve() refuses a tracer, not this;
 * - foreign_dirfd: execveat() with a descriptor of a/b and the bare name
 *   (the interpreter gets "/dev/fd/N/trusted.scr", a magic link: no
 *   script identity);
 * - no_way_into_user_mounts: what the fix's reasoning relies on, checked
 *   from the attacker: no setns() into the helper's mount namespace, no
 *   chroot() to its root, no fs_struct shared with a task that enters a
 *   user namespace.
 *
 * Each has the control by place: the script run from its own folder by
 * its bare name is the script, allowed.
 *
 * Result when written (wt-adv-scriptfix, on wt-scriptfix 55f1b0f): the
 * attack GETS OUT, for the plain script and for the protected one.
 * Unchanged, "a/b/trusted.scr" from the helper's tmpfs is named as the
 * script (allowed): the exec'ing task is of the initial user namespace
 * and alone in its fs_struct, so name_is_root_s() holds, and the name
 * is plain (names_file_plainly(): no link, no "..").  With a and c
 * exchanged after the exec, race_interp reads the attacker's file and
 * its connect is allowed under the script's rule (RACE_EVIL_ALLOWED):
 * every time when stopped at the exec (by fchdir() to the sent
 * descriptor, or by chdir() through /proc/HELPER/root), 192 and 186 of
 * 200 unassisted vfork() tries for trusted.scr and protected.scr (the
 * rest read the script before the exchange).  The watch does not see it:
 * the attacker's file is at another absolute path than app->seen.
 * protect.c checks the root only (sees_init_root()), not the current
 * directory.  Passed: foreign_dirfd (the interpreter cannot open
 * "/dev/fd/N/trusted.scr"; no identity anyway: a magic link on the way)
 * and no_way_into_user_mounts (setns() EPERM, chroot() EPERM, the fs
 * copied by unshare(CLONE_NEWUSER)).  These tests assert the attack
 * FAILS, so four of them failed until the kernel was fixed.
 *
 * The fix (exec.c, name_is_root_s()): a relative name gives the script
 * identity only when the current directory is reached from the
 * process's root through its own mounts (path_is_under()).  From the
 * helper's tmpfs the process is race_interp run by hand: unchanged,
 * trusted.scr is denied there, and the exchange gains nothing.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pfsel_test_util.h"
#include "race_attack.h"

#include "kselftest_harness.h"

#define WORK "/tmp/pfsel-advsf"
#define MNT WORK "/mnt"
#define SCRIPTS "/tmp/pfsel-advsf-scripts"
#define INTERP PFSEL_TESTS_DIR "/race_interp"

/* The unassisted tries of each vfork() case. */
#define RACE_TRIES 200

FIXTURE(advsf)
{
	int unused;
};

FIXTURE_SETUP(advsf)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " WORK " " SCRIPTS " && mkdir -m 755 -p "
			    MNT " " SCRIPTS));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/trusted.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/protected.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_load("adv_scriptfix_1001"));
}

FIXTURE_TEARDOWN(advsf)
{
	if (geteuid() == 0) {
		pfsel_reset();
		system("rm -rf " WORK " " SCRIPTS);
	}
}

/* ---- The helper: pfuser1's own user and mount namespace ---------------- */

static int helper_setup(void)
{
	if (pfsel_enter_userns(CLONE_NEWNS))
		return -1;
	if (mount("tmpfs", MNT, "tmpfs", 0, "mode=0755") ||
	    mkdir(MNT "/a", 0755) || mkdir(MNT "/a/b", 0755) ||
	    mkdir(MNT "/z", 0755) || mkdir(MNT "/z/b", 0755) ||
	    mount(SCRIPTS, MNT "/a/b", NULL, MS_BIND, NULL) ||
	    symlink("z", MNT "/c"))
		return -1;
	if (pfsel_create_file(MNT "/z/b/trusted.scr", "#!" INTERP "\nevil\n",
			      0755) ||
	    pfsel_create_file(MNT "/z/b/protected.scr",
			      "#!" INTERP "\nevil\n", 0755))
		return -1;
	return open(MNT, O_RDONLY | O_DIRECTORY);
}

/* Sends the tmpfs's root, then holds the namespace until @sock closes. */
static int helper_main(void *unused, int sock)
{
	int fd = helper_setup();

	if (fd < 0)
		return race_helper_failed(sock, "adv_scriptfix helper",
					  errno ? errno : EIO);
	if (pfsel_send_fd(sock, fd))
		return ATTACK_SETUP_FAILED;
	race_helper_hold(sock);
	return 0;
}

struct frame {
	struct race_helper helper;
	int root; /* the tmpfs's root, in the helper's namespace */
};

static int open_frame(struct frame *f)
{
	f->root = race_helper_start(&f->helper, helper_main, NULL);
	return f->root < 0 ? -1 : 0;
}

static void close_frame(struct frame *f)
{
	if (f->root >= 0)
		close(f->root);
	race_helper_stop(&f->helper);
}

/* a <-> c: the name a/b/... leads to the bound folder, or to z/b/... */
static int exchange(const struct frame *f)
{
	return renameat2(f->root, "a", f->root, "c", RENAME_EXCHANGE);
}

/* exchange(), for race_run_stopped(). */
static int exchange_stopped(void *frame)
{
	return exchange(frame);
}

/* ---- The attacker: pfuser1 in the initial namespaces ------------------- */

enum where {
	BY_PLACE,	/* the control: cwd the scripts' folder, bare name */
	FOREIGN_CWD,	/* cwd the helper's tmpfs, "a/b/NAME" */
	FOREIGN_DIRFD,	/* execveat(a/b's descriptor, NAME) */
	PROC_CWD,	/* chdir("/proc/HELPER/root" MNT): no descriptor passed */
};

struct attack {
	const char *script; /* "trusted.scr" or "protected.scr" */
	enum where where;
	bool swap;	/* a and c exchanged after the exec */
	int tries;	/* 0: once, stopped at the exec; else vfork() tries */
};

static char name_buf[PATH_MAX];
static char *exec_argv[2];
static int exec_dirfd = -1;

static int exec_attack(void *unused)
{
	if (exec_dirfd >= 0)
		syscall(SYS_execveat, exec_dirfd, exec_argv[0], exec_argv,
			environ, 0);
	else
		execv(exec_argv[0], exec_argv);
	return ATTACK_EXEC_FAILED;
}

static int run_stopped(const struct frame *f, bool swap)
{
	const int result = race_run_stopped(
		exec_attack, NULL, swap ? exchange_stopped : NULL, (void *)f);

	/* Once the script ran: a and c back as they were. */
	if (swap && result < ATTACK_SETUP_FAILED && exchange(f))
		return ATTACK_CHANGE_FAILED;
	return result;
}

/* RACE_EVIL_ALLOWED when any try got out, else the last try's status. */
static int run_vfork(const struct frame *f, int tries, bool swap)
{
	int i, result = 0, wins = 0, evil = 0, trusted = 0, other = 0;
	pid_t pid;

	for (i = 0; i < tries; i++) {
		pid = vfork();
		if (pid < 0)
			return ATTACK_FRAME_FAILED;
		if (pid == 0)
			_exit(exec_attack(NULL));
		/* The child's exec has fixed its identity: exchange now. */
		if (swap && exchange(f))
			return ATTACK_CHANGE_FAILED;
		result = pfsel_wait_status(pid);
		if (swap && exchange(f))
			return ATTACK_CHANGE_FAILED;
		if (result == RACE_EVIL_ALLOWED)
			wins++;
		else if (result == RACE_EVIL_DENIED ||
			 result == RACE_OPEN_DENIED)
			evil++;
		else if (result == RACE_TRUSTED_ALLOWED ||
			 result == RACE_TRUSTED_DENIED)
			trusted++;
		else
			other++;
	}
	fprintf(stderr,
		"# %s: %d tries: %d EVIL ALLOWED, %d evil refused or denied, "
		"%d read the script, %d other (last %d: %s)\n",
		exec_argv[0], tries, wins, evil, trusted, other, result,
		race_attack_outcome(result));
	return wins ? RACE_EVIL_ALLOWED : result;
}

static int attacker(void *arg)
{
	const struct attack *const a = arg;
	struct frame f = { .root = -1 };
	int result;

	exec_dirfd = -1;
	if (a->where == BY_PLACE) {
		if (chdir(SCRIPTS))
			return ATTACK_FRAME_FAILED;
		snprintf(name_buf, sizeof(name_buf), "%s", a->script);
	} else {
		if (open_frame(&f)) {
			close_frame(&f);
			return ATTACK_FRAME_FAILED;
		}
		if (a->where == PROC_CWD) {
			char path[PATH_MAX];

			snprintf(path, sizeof(path), "/proc/%d/root" MNT,
				 f.helper.pid);
			if (chdir(path))
				return ATTACK_FRAME_FAILED;
			snprintf(name_buf, sizeof(name_buf), "a/b/%s",
				 a->script);
		} else if (a->where == FOREIGN_CWD) {
			/* No privilege: a descriptor of one's own. */
			if (fchdir(f.root))
				return ATTACK_FRAME_FAILED;
			snprintf(name_buf, sizeof(name_buf), "a/b/%s",
				 a->script);
		} else {
			exec_dirfd = openat(f.root, "a/b",
					    O_RDONLY | O_DIRECTORY);
			if (exec_dirfd < 0)
				return ATTACK_FRAME_FAILED;
			snprintf(name_buf, sizeof(name_buf), "%s", a->script);
		}
	}
	exec_argv[0] = name_buf;
	exec_argv[1] = NULL;
	if (a->tries)
		result = run_vfork(&f, a->tries, a->swap);
	else
		result = run_stopped(&f, a->swap);
	if (a->where != BY_PLACE)
		close_frame(&f);
	return result;
}

static int run_attack(const char *script, enum where where, bool swap,
		      int tries)
{
	struct attack a = { script, where, swap, tries };

	return pfsel_run_as(PFSEL_UID1, attacker, &a);
}

static void control_by_place(struct __test_metadata *_metadata,
			     const char *script)
{
	int result = run_attack(script, BY_PLACE, false, 1);

	TH_LOG("control, %s by its bare name from its folder: %s (%d)", script,
	       race_attack_outcome(result), result);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, result);
}

/*
 * The exec stopped (ptrace by pfuser1, its parent), a and c exchanged in
 * the helper's tmpfs, the child let go: the interpreter opens
 * "a/b/trusted.scr", which now leads to the attacker's z/b/trusted.scr.
 */
TEST_F_TIMEOUT(advsf, plain_foreign_cwd_stopped, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	result = run_attack("trusted.scr", FOREIGN_CWD, false, 0);
	TH_LOG("a/b/trusted.scr from the helper's tmpfs, unchanged: %s (%d)",
	       race_attack_outcome(result), result);
	/* No script identity from another namespace's tree (before: allowed). */
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);
	result = run_attack("trusted.scr", FOREIGN_CWD, true, 0);
	TH_LOG("attack, a and c exchanged after the exec: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with trusted.scr's identity");
	}
	EXPECT_TRUE(result == RACE_EVIL_DENIED || result == RACE_OPEN_DENIED);
}

/* The same unassisted: vfork() times the exchange. */
TEST_F_TIMEOUT(advsf, plain_foreign_cwd_vfork, 600)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	result = run_attack("trusted.scr", FOREIGN_CWD, true, RACE_TRIES);
	TH_LOG("attack, %d vfork()-timed tries: %s (%d)", RACE_TRIES,
	       race_attack_outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with trusted.scr's identity");
	}
	EXPECT_GT(ATTACK_SETUP_FAILED, result);
}

/*
 * A protected script: a tracer is refused, vfork() is not; nor is a
 * current directory in another mount namespace (protect.c checks the
 * root only).
 */
TEST_F_TIMEOUT(advsf, protected_foreign_cwd_vfork, 600)
{
	int result;

	control_by_place(_metadata, "protected.scr");
	result = run_attack("protected.scr", FOREIGN_CWD, false, 1);
	TH_LOG("a/b/protected.scr from the helper's tmpfs, unchanged: %s (%d)",
	       race_attack_outcome(result), result);
	result = run_attack("protected.scr", FOREIGN_CWD, true, RACE_TRIES);
	TH_LOG("attack, %d vfork()-timed tries: %s (%d)", RACE_TRIES,
	       race_attack_outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with protected.scr's identity");
	}
	EXPECT_GT(ATTACK_SETUP_FAILED, result);
}

/*
 * No descriptor passed: the attacker's chdir() through the helper's
 * /proc/PID/root (its own process: ptrace access by uid).
 */
TEST_F_TIMEOUT(advsf, plain_proc_root_cwd_stopped, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	result = run_attack("trusted.scr", PROC_CWD, true, 0);
	TH_LOG("attack, cwd /proc/HELPER/root" MNT ", a and c exchanged: "
	       "%s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with trusted.scr's identity");
	}
	EXPECT_TRUE(result == RACE_EVIL_DENIED || result == RACE_OPEN_DENIED);
}

/* execveat() with a descriptor of the helper's a/b: "/dev/fd/N/NAME". */
TEST_F_TIMEOUT(advsf, foreign_dirfd, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	result = run_attack("trusted.scr", FOREIGN_DIRFD, false, 0);
	TH_LOG("execveat(a/b's descriptor, \"trusted.scr\"): %s (%d)",
	       race_attack_outcome(result), result);
	/* No identity, or the interpreter cannot open the name at all. */
	EXPECT_TRUE(result == RACE_TRUSTED_DENIED ||
		    result == RACE_OPEN_FAILED);
}

/* ---- What the fix relies on, from the attacker's side ------------------ */

/* In a CLONE_FS child: take a user namespace, then move the directory. */
static int unshare_user_fn(void *unused)
{
	if (unshare(CLONE_NEWUSER))
		return errno;
	return chdir("/") ? errno : 0;
}

static char fs_stack[64 * 1024] __attribute__((aligned(16)));

static int join_attempts(void *unused)
{
	struct frame f = { .root = -1 };
	char path[PATH_MAX];
	int fd, err, status;
	pid_t pid;

	if (open_frame(&f)) {
		close_frame(&f);
		return ATTACK_FRAME_FAILED;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", f.helper.pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ATTACK_FRAME_FAILED;
	err = setns(fd, CLONE_NEWNS) ? errno : 0;
	close(fd);
	if (err != EPERM) {
		fprintf(stderr, "# setns(helper's mnt): %d\n", err);
		return 1;
	}
	snprintf(path, sizeof(path), "/proc/%d/root", f.helper.pid);
	err = chroot(path) ? errno : 0;
	if (err != EPERM) {
		fprintf(stderr, "# chroot(helper's root): %d\n", err);
		return 2;
	}
	/*
	 * A child sharing the fs_struct that takes a user namespace gets a
	 * copy of it (unshare_fs()): its chdir() moves this process's
	 * directory no more.
	 */
	if (chdir(SCRIPTS))
		return ATTACK_FRAME_FAILED;
	pid = clone(unshare_user_fn, fs_stack + sizeof(fs_stack),
		    CLONE_FS | SIGCHLD, NULL);
	if (pid < 0)
		return ATTACK_FRAME_FAILED;
	status = pfsel_wait_status(pid);
	if (status || !getcwd(path, sizeof(path)) || strcmp(path, SCRIPTS)) {
		fprintf(stderr, "# CLONE_FS child's unshare(user): %d, "
			"cwd now %s\n", status, path);
		return 3;
	}
	pid = syscall(SYS_clone, CLONE_FS | CLONE_NEWUSER | SIGCHLD, NULL);
	if (pid == 0)
		_exit(0);
	if (pid > 0) {
		pfsel_wait_status(pid);
		return 4;
	}
	close_frame(&f);
	return 0;
}

TEST_F_TIMEOUT(advsf, no_way_into_user_mounts, 120)
{
	int result = pfsel_run_as(PFSEL_UID1, join_attempts, NULL);

	TH_LOG("setns/chroot into the helper's namespace, CLONE_FS across "
	       "user namespaces: %d (0: all refused)", result);
	EXPECT_EQ(0, result);
}

TEST_HARNESS_MAIN
