// SPDX-License-Identifier: GPL-2.0
/*
 * adv_scriptfix3_test - the third adversary review of issue 27's script
 * fix (security/pfsel/exec.c: names_file_plainly(), is_named_place(),
 * name_is_root_s(), path_is_under()): can pfuser1, a program of the user
 * in the initial user namespace, run code of its own with the identity of
 * an allowed `#!` script in a root-owned folder?
 *
 * What the fix rests on, for a task of the initial user namespace:
 *
 * - an absolute name is looked up from the process's root, which only a
 *   task with CAP_SYS_CHROOT in the initial user namespace moves, through
 *   the process's mount namespace, which only a task with CAP_SYS_ADMIN
 *   there changes (a user's mount namespaces are slaves of the ones they
 *   were copied from and propagate nothing back; the user's binfmt_misc
 *   instance is its user namespace's, not init's);
 * - the lookup, made with no symbolic link and no magic link, must reach
 *   the script's inode at the very path it was named by (is_named_place():
 *   the string of d_absolute_path(), which is built from the lookup's own
 *   mounts: a dentry of another tree, a detached mount or a spelling
 *   through /proc or /dev/fd is another place or an error);
 * - a relative name's current folder must be reached from the root
 *   through the process's own mounts (path_is_under()).
 *
 * The cases play those assumptions from the attacker's side.  Each asserts
 * that the attack FAILS (the attacker's file never runs as the script, or
 * the odd spelling gets no script identity), with a control that shows
 * the frame works:
 *
 * - spellings_of_the_name (plain and protected): "//tmp//DIR/./NAME",
 *   "./NAME" (the same place: named, allowed: the controls);
 *   "/proc/self/root/...", "/proc/thread-self/root/...",
 *   "/proc/PID/root/...", "/proc/self/cwd/NAME", "/proc/self/fd/N",
 *   "/dev/stdin", execveat() of a descriptor ("/dev/fd/N") and of a
 *   folder's descriptor ("/dev/fd/N/NAME"): each leads to the script, none
 *   gets its identity; a trailing slash does not execute.
 * - users_binfmt_misc_is_not_inits: a binfmt_misc handler of pfuser1's own
 *   user namespace for ".scr" files (its interpreter a script of the
 *   attacker's) is used in that namespace (control) and never for an exec
 *   from the initial namespaces, which runs the scripts as themselves.
 * - shared_subtree_does_not_propagate_back: in pfuser1's namespace "/" made
 *   shared (it stays a slave of init's), a tmpfs with the attacker's files
 *   mounted over the scripts' folder (control: the helper's own folder
 *   shows them); an exec from the initial namespaces reads the script.
 * - detached_tree_cwd: a clone of the scripts' folder made by open_tree()
 *   in pfuser1's namespace, sent to the attacker, fchdir() there, the
 *   bare name executed: no script identity (a mount of no namespace of the
 *   process's); and from the initial namespaces open_tree(), fsopen(),
 *   move_mount() of the helper's tree onto a folder of init's, mount()
 *   and setns(CLONE_NEWNS) through a pidfd all fail (EPERM) and change
 *   nothing: no tree of the user's can be put on the way of an absolute
 *   name; setns() of the helper's user and mount namespaces at once
 *   succeeds, and takes the whole task out of the initial user
 *   namespace: the script by its absolute name then has no identity.
 *
 * - same_string_in_users_tree (plain and protected): the helper's copy of
 *   init's tree shows the script at the very path string; the attacker
 *   fchdir()s to the helper's "/" and executes "tmp/DIR/NAME": the
 *   lookup passes names_file_plainly() and is_named_place() (the same
 *   inode, and d_absolute_path() is relative to each namespace's root, so
 *   the same string), and only path_is_under() refuses the identity; the
 *   exec stopped, the helper mounts its tmpfs over the folder, the
 *   interpreter reads the attacker's file as itself, denied.
 *
 * Result when written (wt-adv-scriptfix3, on wt-scriptfix df724ae): every
 * case passes; nothing got out.  One thing learnt: is_named_place()
 * compares strings, and a string is a place only within one mount
 * namespace; a dentry of a user's namespace can have the script's very
 * path.  Today the root (absolute names) and path_is_under() (relative
 * ones) keep the lookup in the process's own tree; a check of the
 * lookup's mount and dentry against the executed file's (path_equal()
 * with bprm->file->f_path) would not depend on them.
 *
 * Reasoned, not played here:
 * - a FUSE mount of the user's in the initial mount namespace
 *   (fusermount3, not in the VM) and its lazy unmount: it goes on a folder
 *   the user may write and has its own device, so no lookup through it
 *   reaches the script's inode; a current folder in it, once detached, is
 *   not under the root (path_is_under());
 * - automount points, udisks or fstab "user" mounts: made by root's code,
 *   at places of their own, on devices of their own;
 * - holding the exec longer (FUSE pages, userfaultfd): in the initial user
 *   namespace no one but root and the folders' owners can change where an
 *   absolute name, or a relative one from an unshared current folder
 *   under the root, leads, however long the wait;
 * - a root or current folder in another tree for a task of the initial
 *   user namespace: chroot(), setns(CLONE_NEWNS), pivot_root() need
 *   capabilities there; CLONE_FS with CLONE_NEWUSER is refused, and
 *   unshare()/setns() of a user namespace take a private copy of the
 *   fs_struct (adv_scriptfix_test no_way_into_user_mounts); pivot_root()'s
 *   chroot_fs_refs() in a user's namespace only moves roots and folders
 *   on that namespace's own mounts, which path_is_under() refuses anyway;
 * - a bare name: execve() does not search PATH; bash searches it for its
 *   script only when the open fails with ENOENT, which a name that the
 *   kernel just found in root's folder from an unshared folder does not;
 * - names read as options: "-" is refused; "+" (bash, dash) would need a
 *   folder of root's named so on the way; spaces and newlines are one
 *   argument for every interpreter;
 * - a script whose interpreter is a script: the identity's script is the
 *   file named in execve() (the outermost), whose "#!" chain is root's;
 *   a user's script with an allowed script as its interpreter is named as
 *   the user's script;
 * - names longer than PATH_MAX, "(unreachable)", deleted files:
 *   d_absolute_path() fails for a detached or escaped dentry (no
 *   identity) and prints no " (deleted)"; the lookup only finds hashed
 *   dentries.

 * The interpreter is race_interp (it opens its one argument, reads
 * "trusted" or "evil", connects to RACE_PORT and tells what it read and
 * what the connect got; with more than one argument it stops with
 * RACE_USAGE).  Policy policies/adv_scriptfix3_1001.pfw.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "pfsel_test_util.h"
#include "race_attack.h"

#include "kselftest_harness.h"

#define WORK "/tmp/pfsel-advsf3"
#define MNT WORK "/mnt"
#define BINFMT WORK "/binfmt"
#define HANDLER WORK "/evil-handler"
#define SCRIPTS "/tmp/pfsel-advsf3-scripts"
#define INTERP PFSEL_TESTS_DIR "/race_interp"

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* What the attacker (a child of pfuser1's) found, for the test to judge. */
#define MAX_RESULTS 24
struct results {
	int count;
	int status[MAX_RESULTS];
	char what[MAX_RESULTS][160];
};

static struct results *shared;

static void note(const char *what, int status)
{
	if (shared->count >= MAX_RESULTS)
		return;
	snprintf(shared->what[shared->count], sizeof(shared->what[0]), "%s",
		 what);
	shared->status[shared->count++] = status;
}

FIXTURE(advsf3)
{
	int unused;
};

FIXTURE_SETUP(advsf3)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " WORK " " SCRIPTS
			    " && mkdir -m 755 -p " MNT " " BINFMT " " SCRIPTS));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/trusted.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/protected.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_create_file(HANDLER, "#!" INTERP "\nevil\n", 0755));
	ASSERT_EQ(0, pfsel_load("adv_scriptfix3_1001"));
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	memset(shared, 0, sizeof(*shared));
}

FIXTURE_TEARDOWN(advsf3)
{
	if (geteuid() == 0) {
		pfsel_reset();
		system("rm -rf " WORK " " SCRIPTS);
	}
	if (shared && shared != MAP_FAILED)
		munmap(shared, sizeof(*shared));
	shared = NULL;
}

static void log_results(struct __test_metadata *_metadata)
{
	int i;

	for (i = 0; i < shared->count; i++)
		TH_LOG("%s: %s (%d)", shared->what[i],
		       race_attack_outcome(shared->status[i]),
		       shared->status[i]);
}

/* ---- Executing ---------------------------------------------------------- */

/*
 * Run @name (argv[0] too) in a child: through execveat(@dirfd, @flags)
 * when @dirfd is not AT_FDCWD or @flags are given, else execv(); with
 * standard input from @stdin_fd when it is not negative.  Its status.
 */
static int exec_status(int dirfd, const char *name, int flags, int stdin_fd)
{
	char *argv[] = { (char *)(name[0] ? name : "script"), NULL };
	pid_t pid = fork();

	if (pid < 0)
		return ATTACK_FRAME_FAILED;
	if (pid == 0) {
		if (stdin_fd >= 0 && dup2(stdin_fd, 0) < 0)
			_exit(ATTACK_FRAME_FAILED);
		if (dirfd != AT_FDCWD || flags)
			syscall(SYS_execveat, dirfd, name, argv, environ,
				flags);
		else
			execv(name, argv);
		_exit(ATTACK_EXEC_FAILED);
	}
	return pfsel_wait_status(pid);
}

static int exec_name(const char *name)
{
	return exec_status(AT_FDCWD, name, 0, -1);
}

/* ---- The helper: pfuser1's own user and mount namespace ---------------- */

enum helper_kind {
	HELPER_BINFMT, /* a binfmt_misc handler for ".scr" files */
	HELPER_SHARED, /* "/" shared, a tmpfs over the scripts' folder */
	HELPER_TREE, /* open_tree(OPEN_TREE_CLONE) of the scripts' folder */
	HELPER_ROOT, /* its "/"; on 'm', a tmpfs over the scripts' folder */
};

/* In the helper's namespace: the attacker's files over the scripts'. */
static int overmount_scripts(void)
{
	if (mount("tmpfs", SCRIPTS, "tmpfs", 0, "mode=0755"))
		return -errno;
	if (pfsel_create_file(SCRIPTS "/trusted.scr", "#!" INTERP "\nevil\n",
			      0755) ||
	    pfsel_create_file(SCRIPTS "/protected.scr", "#!" INTERP "\nevil\n",
			      0755))
		return -EIO;
	return 0;
}

/* A descriptor for the attacker, or -errno; for HELPER_BINFMT, @control. */
static int helper_setup(enum helper_kind kind, int *control)
{
	char rule[256];
	int fd;

	switch (kind) {
	case HELPER_BINFMT:
		if (pfsel_enter_userns(CLONE_NEWNS) ||
		    mount("binfmt_misc", BINFMT, "binfmt_misc", 0, NULL))
			return -errno;
		snprintf(rule, sizeof(rule),
			 ":pfsel-advsf3:E::scr::%s:", HANDLER);
		errno = pfsel_write_file(BINFMT "/register", rule);
		if (errno)
			return -errno;
		/* The control: here the handler runs (two arguments). */
		*control = exec_name(SCRIPTS "/trusted.scr");
		return open("/", O_RDONLY | O_DIRECTORY);
	case HELPER_SHARED:
		errno = pfsel_enter_userns_keep_propagation(CLONE_NEWNS);
		if (errno)
			return -errno;
		if (mount(NULL, "/", NULL, MS_REC | MS_SHARED, NULL) ||
		    mount(NULL, "/tmp", NULL, MS_REC | MS_SHARED, NULL))
			return -errno;
		fd = overmount_scripts();
		return fd ? fd : open(SCRIPTS, O_RDONLY | O_DIRECTORY);
	case HELPER_TREE:
		if (pfsel_enter_userns(CLONE_NEWNS))
			return -errno;
		fd = syscall(SYS_open_tree, AT_FDCWD, SCRIPTS,
			     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
		return fd < 0 ? -errno : fd;
	case HELPER_ROOT:
		if (pfsel_enter_userns(CLONE_NEWNS))
			return -errno;
		return open("/", O_RDONLY | O_DIRECTORY);
	}
	return -EINVAL;
}

/* Sends its descriptor and its control, then holds on until @sock closes. */
static int helper_main(void *arg, int sock)
{
	const enum helper_kind kind = (enum helper_kind)(long)arg;
	int control = 0, fd = helper_setup(kind, &control);
	char c;

	if (fd < 0)
		return race_helper_failed(sock, "adv_scriptfix3 helper", -fd);
	if (pfsel_send_fd(sock, fd) ||
	    write(sock, &control, sizeof(control)) != sizeof(control))
		return ATTACK_SETUP_FAILED;
	while (read(sock, &c, 1) > 0) {
		/* 'm': mount over the scripts' folder, answer the result. */
		control = c == 'm' ? overmount_scripts() : -EINVAL;
		if (write(sock, &control, sizeof(control)) != sizeof(control))
			return ATTACK_SETUP_FAILED;
	}
	return 0;
}

struct frame {
	struct race_helper helper;
	int fd; /* what the helper sent */
	int control; /* the helper's own result */
};

/* Asks the helper to mount its tmpfs over the scripts' folder: 0 or -errno. */
static int helper_overmount(void *frame)
{
	const struct frame *const f = frame;
	int result;

	if (write(f->helper.sock, "m", 1) != 1 ||
	    read(f->helper.sock, &result, sizeof(result)) != sizeof(result))
		return -EIO;
	return result;
}

static int open_frame(struct frame *f, enum helper_kind kind)
{
	f->fd = race_helper_start(&f->helper, helper_main, (void *)(long)kind);
	if (f->fd < 0 || read(f->helper.sock, &f->control,
			      sizeof(f->control)) != sizeof(f->control))
		return -1;
	return 0;
}

static void close_frame(struct frame *f)
{
	if (f->fd >= 0)
		close(f->fd);
	race_helper_stop(&f->helper);
}

/* ---- The attacks: pfuser1 in the initial namespaces -------------------- */

/* Each spelling of @arg's script ("trusted.scr" or "protected.scr"). */
static int spellings(void *arg)
{
	const char *const script = arg;
	char name[PATH_MAX], what[160];
	int fd, dirfd;

	if (chdir(SCRIPTS))
		return ATTACK_FRAME_FAILED;
	note("control: the bare name from its folder", exec_name(script));
	snprintf(name, sizeof(name), "%s/%s", SCRIPTS, script);
	note("control: the absolute name", exec_name(name));
	snprintf(name, sizeof(name), "//tmp//pfsel-advsf3-scripts/./%s",
		 script);
	note("//tmp//DIR/./NAME (the same place)", exec_name(name));
	snprintf(name, sizeof(name), "./%s", script);
	note("./NAME (the same place)", exec_name(name));
	snprintf(name, sizeof(name), "/proc/self/root%s/%s", SCRIPTS, script);
	note("/proc/self/root/DIR/NAME", exec_name(name));
	snprintf(name, sizeof(name), "/proc/thread-self/root%s/%s", SCRIPTS,
		 script);
	note("/proc/thread-self/root/DIR/NAME", exec_name(name));
	snprintf(name, sizeof(name), "/proc/%d/root%s/%s", getpid(), SCRIPTS,
		 script);
	note("/proc/PID/root/DIR/NAME", exec_name(name));
	snprintf(name, sizeof(name), "/proc/self/cwd/%s", script);
	note("/proc/self/cwd/NAME", exec_name(name));

	fd = open(script, O_RDONLY);
	dirfd = open(SCRIPTS, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || dirfd < 0)
		return ATTACK_FRAME_FAILED;
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	note("/proc/self/fd/N", exec_name(name));
	note("/dev/stdin (the script on standard input)",
	     exec_status(AT_FDCWD, "/dev/stdin", 0, fd));
	note("execveat(script's descriptor, \"\", AT_EMPTY_PATH)",
	     exec_status(fd, "", AT_EMPTY_PATH, -1));
	snprintf(what, sizeof(what), "execveat(folder's descriptor, \"%s\")",
		 script);
	note(what, exec_status(dirfd, script, 0, -1));
	snprintf(name, sizeof(name), "%s/%s/", SCRIPTS, script);
	note("DIR/NAME/ (a trailing slash)", exec_name(name));
	close(fd);
	close(dirfd);
	return 0;
}

static void check_spellings(struct __test_metadata *_metadata,
			    const char *script)
{
	int i, result = pfsel_run_as(PFSEL_UID1, spellings, (void *)script);
	bool bad;

	log_results(_metadata);
	ASSERT_EQ(0, result);
	ASSERT_EQ(13, shared->count);
	/* The controls and the same place by other spellings: named. */
	for (i = 0; i < 4; i++)
		EXPECT_EQ(RACE_TRUSTED_ALLOWED, shared->status[i]);
	/*
	 * Through /proc or /dev/fd: the script, but no script identity; or
	 * no exec at all (another process's /proc/PID/root, which a process
	 * that changed its uid may not read; no /dev/stdin in the VM).
	 */
	for (i = 4; i < 12; i++) {
		bad = shared->status[i] != RACE_TRUSTED_DENIED &&
		      shared->status[i] != RACE_OPEN_FAILED &&
		      shared->status[i] != ATTACK_EXEC_FAILED;
		if (bad)
			TH_LOG("unexpected: %s", shared->what[i]);
		EXPECT_FALSE(bad);
	}
	EXPECT_EQ(ATTACK_EXEC_FAILED, shared->status[12]);
}

TEST_F_TIMEOUT(advsf3, spellings_of_the_name_plain, 240)
{
	check_spellings(_metadata, "trusted.scr");
}

TEST_F_TIMEOUT(advsf3, spellings_of_the_name_protected, 240)
{
	check_spellings(_metadata, "protected.scr");
}

/* Both scripts from the initial namespaces while a helper holds @kind. */
static int with_helper(void *arg)
{
	const enum helper_kind kind = (enum helper_kind)(long)arg;
	struct frame f;
	char text[64] = "";
	int fd, result = 0;
	ssize_t len;

	if (open_frame(&f, kind)) {
		close_frame(&f);
		return ATTACK_FRAME_FAILED;
	}
	if (kind == HELPER_BINFMT) {
		note("control: the helper's own exec of trusted.scr",
		     f.control);
	} else if (kind == HELPER_SHARED) {
		fd = openat(f.fd, "trusted.scr", O_RDONLY);
		len = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
		if (len > 0)
			text[len] = '\0';
		if (fd >= 0)
			close(fd);
		/* The control: the helper's folder shows its own file. */
		note("control: the helper's trusted.scr holds \"evil\" "
		     "(0: yes)",
		     strstr(text, "evil") ? 0 : ATTACK_FRAME_FAILED);
	}
	note("attacker: " SCRIPTS "/trusted.scr",
	     exec_name(SCRIPTS "/trusted.scr"));
	note("attacker: " SCRIPTS "/protected.scr",
	     exec_name(SCRIPTS "/protected.scr"));
	if (chdir(SCRIPTS))
		result = ATTACK_FRAME_FAILED;
	note("attacker: trusted.scr from the folder", exec_name("trusted.scr"));
	close_frame(&f);
	return result;
}

TEST_F_TIMEOUT(advsf3, users_binfmt_misc_is_not_inits, 240)
{
	int i, result = pfsel_run_as(PFSEL_UID1, with_helper,
				     (void *)(long)HELPER_BINFMT);

	log_results(_metadata);
	ASSERT_EQ(0, result);
	ASSERT_EQ(4, shared->count);
	/* Control: in the helper's namespace, its handler ran. */
	ASSERT_EQ(RACE_USAGE, shared->status[0]);
	for (i = 1; i < 4; i++) {
		if (shared->status[i] != RACE_TRUSTED_ALLOWED)
			TH_LOG("%s: not the script as itself", shared->what[i]);
		EXPECT_EQ(RACE_TRUSTED_ALLOWED, shared->status[i]);
	}
}

TEST_F_TIMEOUT(advsf3, shared_subtree_does_not_propagate_back, 240)
{
	int i, result = pfsel_run_as(PFSEL_UID1, with_helper,
				     (void *)(long)HELPER_SHARED);

	log_results(_metadata);
	ASSERT_EQ(0, result);
	ASSERT_EQ(4, shared->count);
	ASSERT_EQ(0, shared->status[0]);
	for (i = 1; i < 4; i++) {
		EXPECT_NE(RACE_EVIL_ALLOWED, shared->status[i]);
		EXPECT_EQ(RACE_TRUSTED_ALLOWED, shared->status[i]);
	}
}

/* The detached clone as the current folder; mounts into init's tree. */
static int detached_tree(void *unused)
{
	struct frame f;
	int fd, pidfd, result = 0;

	if (chdir(SCRIPTS))
		return ATTACK_FRAME_FAILED;
	note("control: trusted.scr from its folder", exec_name("trusted.scr"));
	note("control: protected.scr from its folder",
	     exec_name("protected.scr"));
	if (open_frame(&f, HELPER_TREE)) {
		close_frame(&f);
		return ATTACK_FRAME_FAILED;
	}
	if (fchdir(f.fd))
		return ATTACK_FRAME_FAILED;
	note("cwd the helper's detached clone: trusted.scr",
	     exec_name("trusted.scr"));
	note("cwd the helper's detached clone: protected.scr",
	     exec_name("protected.scr"));

	/* From the initial namespaces: no tree of one's own in init's. */
	fd = syscall(SYS_open_tree, AT_FDCWD, SCRIPTS, OPEN_TREE_CLONE);
	note("open_tree(OPEN_TREE_CLONE) in init's namespace (errno)",
	     fd < 0 ? errno : 0);
	fd = syscall(SYS_fsopen, "tmpfs", 0);
	note("fsopen(\"tmpfs\") in init's namespace (errno)",
	     fd < 0 ? errno : 0);
	result = syscall(SYS_move_mount, f.fd, "", AT_FDCWD, MNT,
			 MOVE_MOUNT_F_EMPTY_PATH);
	note("move_mount(helper's clone, " MNT ") (errno)",
	     result < 0 ? errno : 0);
	result = mount("tmpfs", MNT, "tmpfs", 0, NULL);
	note("mount(tmpfs, " MNT ") (errno)", result < 0 ? errno : 0);
	pidfd = syscall(SYS_pidfd_open, f.helper.pid, 0);
	result = pidfd < 0 ? -1 : setns(pidfd, CLONE_NEWNS);
	note("setns(pidfd of the helper, CLONE_NEWNS) (errno)",
	     result < 0 ? errno : 0);
	/* The refused calls changed nothing: the absolute name is named. */
	note("after the refusals: " SCRIPTS "/trusted.scr",
	     exec_name(SCRIPTS "/trusted.scr"));
	/*
	 * Both at once is allowed (a user namespace of one's own uid): the
	 * whole task leaves the initial user namespace, and with it any
	 * script identity.
	 */
	result = pidfd < 0 ? -1 : setns(pidfd, CLONE_NEWNS | CLONE_NEWUSER);
	note("setns(pidfd of the helper, CLONE_NEWNS|CLONE_NEWUSER) (errno)",
	     result < 0 ? errno : 0);
	note("after joining both: " SCRIPTS "/trusted.scr",
	     exec_name(SCRIPTS "/trusted.scr"));
	close_frame(&f);
	return 0;
}

TEST_F_TIMEOUT(advsf3, detached_tree_cwd, 240)
{
	int i, result = pfsel_run_as(PFSEL_UID1, detached_tree, NULL);

	log_results(_metadata);
	ASSERT_EQ(0, result);
	ASSERT_EQ(12, shared->count);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, shared->status[0]);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, shared->status[1]);
	EXPECT_EQ(RACE_TRUSTED_DENIED, shared->status[2]);
	EXPECT_EQ(RACE_TRUSTED_DENIED, shared->status[3]);
	/* Each refused: EPERM. */
	for (i = 4; i < 9; i++) {
		if (shared->status[i] != EPERM)
			TH_LOG("not EPERM: %s", shared->what[i]);
		EXPECT_EQ(EPERM, shared->status[i]);
	}
	EXPECT_EQ(RACE_TRUSTED_ALLOWED, shared->status[9]);
	/* Joined the helper's namespaces: the script's identity is gone. */
	EXPECT_EQ(0, shared->status[10]);
	EXPECT_EQ(RACE_TRUSTED_DENIED, shared->status[11]);
}

/*
 * The same path string in two places: the helper's copy of init's tree
 * shows the very script at the very string (a copy of its mount), so the
 * lookup from a current folder there passes names_file_plainly() and
 * is_named_place() alike, which compare the inode and the string of
 * d_absolute_path(), relative to each namespace's own root.  What refuses
 * the identity is path_is_under().  The exec stopped (ptrace by the
 * attacker, its parent), the helper mounts its tmpfs over the scripts'
 * folder, the child let go: the interpreter opens the relative name, now
 * the attacker's file, at the script's path string.
 */
static int stopped_exec(const struct frame *f, const char *name, bool overmount)
{
	char *argv[] = { (char *)name, NULL };

	return race_run_stopped(pfsel_exec_fn, argv,
				overmount ? helper_overmount : NULL, (void *)f);
}

static int same_string(void *arg)
{
	const char *const script = arg;
	char name[PATH_MAX];
	struct frame f;
	int result;

	if (chdir(SCRIPTS))
		return ATTACK_FRAME_FAILED;
	note("control: the bare name from its folder", exec_name(script));
	if (open_frame(&f, HELPER_ROOT) || fchdir(f.fd)) {
		close_frame(&f);
		return ATTACK_FRAME_FAILED;
	}
	snprintf(name, sizeof(name), "%s/%s", SCRIPTS + 1, script);
	note("from the helper's \"/\", DIR/NAME unchanged (stopped)",
	     stopped_exec(&f, name, false));
	result = stopped_exec(&f, name, true);
	note("attack: the helper mounts over DIR while the exec is stopped",
	     result);
	close_frame(&f);
	return 0;
}

static void check_same_string(struct __test_metadata *_metadata,
			      const char *script)
{
	int result = pfsel_run_as(PFSEL_UID1, same_string, (void *)script);

	log_results(_metadata);
	ASSERT_EQ(0, result);
	ASSERT_EQ(3, shared->count);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, shared->status[0]);
	EXPECT_EQ(RACE_TRUSTED_DENIED, shared->status[1]);
	EXPECT_NE(RACE_EVIL_ALLOWED, shared->status[2]);
	EXPECT_TRUE(shared->status[2] == RACE_EVIL_DENIED ||
		    shared->status[2] == RACE_OPEN_DENIED);
}

TEST_F_TIMEOUT(advsf3, same_string_in_users_tree_plain, 240)
{
	check_same_string(_metadata, "trusted.scr");
}

TEST_F_TIMEOUT(advsf3, same_string_in_users_tree_protected, 240)
{
	check_same_string(_metadata, "protected.scr");
}

TEST_HARNESS_MAIN
