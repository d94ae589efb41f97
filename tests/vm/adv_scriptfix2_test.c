// SPDX-License-Identifier: GPL-2.0
/*
 * adv_scriptfix2_test - the second adversary review of issue 27's script
 * fix (security/pfsel/exec.c: identify_script(), names_file_plainly(),
 * name_is_root_s()): can pfuser1, from the initial namespaces, run code of
 * its own with the identity of an allowed `#!` script in a root-owned
 * folder, by an *absolute* name?
 *
 * An absolute name from a task of the initial user namespace gets the
 * script identity with no more question than names_file_plainly(): the
 * name, looked up again with no symbolic link, leads to the *inode*
 * executed (i_ino and s_dev).  The identity itself is the path of the
 * *dentry* executed (name_file(bprm->file)).  Two lookups of one name,
 * at two times, and a test on the inode only:
 *
 * - execve() opens the file (alloc_bprm(): do_open_execat()) following
 *   links: the name WORK/d/trusted.scr, with d a symbolic link to the
 *   scripts' folder, opens the script's own dentry, named as the script;
 * - the exec then copies its argument and environment strings from the
 *   caller's memory, and only after that (bprm_execve()) decides the
 *   identity.  A string in a page of a FUSE file of the user's (a raw
 *   /dev/fuse server in a user and mount namespace of pfuser1's, the
 *   file passed to the attacker and mapped) holds the exec there as long
 *   as the server does not answer the page's read: meanwhile d is
 *   exchanged (renameat2(RENAME_EXCHANGE), in a folder of pfuser1's) with
 *   a real folder of pfuser1's holding a hard link to the script;
 * - names_file_plainly() looks up WORK/d/trusted.scr: no link now, and
 *   the same inode (the hard link): the script identity is given;
 * - once the exec has fixed it (vfork() returns at exec_mmap()), the hard
 *   link is exchanged with the attacker's file in pfuser1's folder, and
 *   the interpreter opens WORK/d/trusted.scr: the attacker's file, at a
 *   path that is not the script's, which hook_file_open() does not watch.
 *
 * The hard link needs fs.protected_hardlinks 0 (the kernel's default;
 * Debian sets 1, and so does this VM, tests/vm/sysctl/debian12.conf) and
 * a folder of the user's on the script's file system (here /tmp's tmpfs;
 * on most systems /home or /var/tmp on the root file system).
 *
 * The interpreter is race_interp (it opens the name it was given, reads
 * "trusted" or "evil", connects to RACE_PORT and tells what it read and
 * what the connect got).  Policy policies/adv_scriptfix2_1001.pfw: only
 * race_interp running trusted.scr (plain) or protected.scr (protect).
 *
 * Cases (each with its control by place: the script by its own path,
 * allowed):
 * - stall_works_link_unchanged: the frame's control: the exec is held by
 *   the FUSE read and let go with d still a link: no script identity
 *   (trusted.scr read, denied);
 * - hardlink_exchanged_while_held: d exchanged for the folder with the
 *   hard link while the exec is held, nothing else: is the script named?
 * - hardlink_attack_plain, hardlink_attack_protected: the whole attack,
 *   the attacker's file exchanged in after the exec (vfork() timing);
 * - debian_sysctl_refuses_the_link: with protected_hardlinks 1, pfuser1's
 *   link() of the script fails (EPERM), so the attack cannot be set up;
 *   control: a link of a file of pfuser1's own.
 *
 * Result when written (wt-adv-scriptfix2, on wt-scriptfix 21724dc): the
 * attack GETS OUT, deterministically, for the plain script and for the
 * protected one, whenever fs.protected_hardlinks is 0.  The frame's
 * control passes (held, d left a link: no identity, trusted.scr denied);
 * hardlink_exchanged_while_held: trusted.scr read through pfuser1's
 * folder, allowed as the script; hardlink_attack_plain and
 * hardlink_attack_protected: race_interp read "evil" and its connect was
 * allowed under the script's rule (RACE_EVIL_ALLOWED), no audit, no
 * refusal (protect.c checks tracer, seccomp, shared fs, root: none is
 * there).  debian_sysctl_refuses_the_link passes: with the VM's
 * (Debian's) protected_hardlinks 1 the link() is EPERM and there is no
 * attack.  These tests assert the attack FAILS, so three fail.
 *
 * Why: names_file_plainly() compares the inode the name leads to at its
 * lookup with the file executed, not the dentry (or the path) that the
 * identity was taken from; and that lookup is a second one, made after
 * the exec's own open and after the copy of the strings, which the
 * caller's memory can hold for as long as it likes.  A hard link is the
 * same inode under a folder of the user's, whose entries the user then
 * changes before the interpreter opens the name.
 *
 * The fix (exec.c, is_named_place()): the name must lead to the very
 * place executed, the same absolute path, not only to the same inode;
 * the hard link is another place, so the process is race_interp run by
 * hand.  All five pass.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fuse_server.h"
#include "pfsel_test_util.h"
#include "race_attack.h"

#include "kselftest_harness.h"

#define WORK "/tmp/pfsel-advsf2"
#define FUSE_DIR WORK "/fuse"
#define SCRIPTS "/tmp/pfsel-advsf2-scripts"
#define INTERP PFSEL_TESTS_DIR "/race_interp"
#define HARDLINKS "/proc/sys/fs/protected_hardlinks"

/* Its own steps' statuses, in race_attack.h's room: no exec stopped here. */
#define STALL_FAILED 122
#define SWAP_FAILED 123
#define LINK_REFUSED 124

/* Pages of the stalling file: one fresh page (one FUSE read) per try. */
#define STALL_PAGES 64
#define PAGE 4096

static const char *outcome(int status)
{
	switch (status) {
	case STALL_FAILED:
		return "the exec was not held";
	case SWAP_FAILED:
		return "an exchange failed";
	case LINK_REFUSED:
		return "link() of the script refused";
	default:
		return race_attack_outcome(status);
	}
}

FIXTURE(advsf2)
{
	mode_t fuse_mode;
	char hardlinks[16];
};

FIXTURE_SETUP(advsf2)
{
	struct stat st;
	FILE *f;

	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " WORK " " SCRIPTS " && mkdir -m 755 -p "
			    FUSE_DIR " " SCRIPTS " && chown -R 1001:1001 "
			    WORK));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/trusted.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_create_file(SCRIPTS "/protected.scr",
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, stat("/dev/fuse", &st));
	self->fuse_mode = st.st_mode & 07777;
	ASSERT_EQ(0, chmod("/dev/fuse", 0666));
	f = fopen(HARDLINKS, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(self->hardlinks, sizeof(self->hardlinks), f));
	fclose(f);
	ASSERT_EQ(0, pfsel_load("adv_scriptfix2_1001"));
}

FIXTURE_TEARDOWN(advsf2)
{
	if (geteuid() == 0) {
		pfsel_reset();
		pfsel_write_file(HARDLINKS, self->hardlinks);
		chmod("/dev/fuse", self->fuse_mode);
		system("rm -rf " WORK " " SCRIPTS);
	}
}

/* ---- The stall: a FUSE file of pfuser1's whose reads wait for "go" ----- */

/* The pipes between the attacker and the FUSE server. */
static int note_pipe[2] = { -1, -1 }; /* server -> attacker: a read came */
static int go_pipe[2] = { -1, -1 };   /* attacker -> server: answer it */

/*
 * A read of "stall": each page reads as an environment string, once the
 * attacker said go.
 */
static ssize_t stall_read(const struct fuse_file *file, uint64_t offset,
			  size_t len, const void **reply)
{
	static char page[FUSE_SERVER_MAX_WRITE] = "PFSEL_STALL=1";
	char c = 'r';

	/* Tell the attacker, and hold the reader until go. */
	if (write(note_pipe[1], &c, 1) != 1 || read(go_pipe[0], &c, 1) != 1)
		return -1;
	*reply = page;
	return (ssize_t)(len < sizeof(page) ? len : sizeof(page));
}

/* One file, "stall"; no read-ahead: one read (one stall) a page. */
static const struct fuse_file stall_file = {
	.name = "stall",
	.mode = 0644,
	.size = STALL_PAGES * PAGE,
	.read = stall_read,
	.no_readahead = true,
};

/*
 * The helper, pfuser1 in a user and mount namespace of its own: mounts
 * the FUSE file system on FUSE_DIR, serves it from a child, and sends
 * the attacker "stall" opened; holds the namespace until @sock closes.
 */
static int helper_main(void *unused, int sock)
{
	pid_t server;
	int file;

	if (pfsel_enter_userns(CLONE_NEWNS))
		goto fail;
	server = fuse_server_start("pfsel-advsf2", FUSE_DIR, &stall_file);
	if (server < 0)
		goto fail;
	file = open(FUSE_DIR "/stall", O_RDONLY | O_CLOEXEC);
	if (file < 0 || pfsel_send_fd(sock, file))
		goto fail;
	race_helper_hold(sock);
	fuse_server_stop(server);
	return 0;
fail:
	return race_helper_failed(sock, "adv_scriptfix2 helper",
				  errno ? errno : EIO);
}

struct frame {
	struct race_helper helper;
	char *stall; /* the mapped "stall" file */
	int next_page;
};

static int open_frame(struct frame *f)
{
	int file;

	if (pipe2(note_pipe, O_CLOEXEC) || pipe2(go_pipe, O_CLOEXEC))
		return -1;
	file = race_helper_start(&f->helper, helper_main, NULL);
	if (file < 0)
		return -1;
	f->stall = mmap(NULL, STALL_PAGES * PAGE, PROT_READ, MAP_SHARED, file,
			0);
	close(file);
	if (f->stall == MAP_FAILED)
		return -1;
	/* One page a fault: no read-around of the pages of the next tries. */
	madvise(f->stall, STALL_PAGES * PAGE, MADV_RANDOM);
	return 0;
}

static void close_frame(struct frame *f)
{
	race_helper_stop(&f->helper);
}

/* ---- The attacker: pfuser1 in the initial namespaces ------------------- */

enum step {
	NONE,		/* the exec held and let go: d stays a link */
	EXCHANGE_DIR,	/* while held: d <-> r (the folder with the link) */
	ATTACK,		/* and after the exec: trusted <-> evil in there */
};

struct attack {
	const char *script;	/* "trusted.scr" or "protected.scr" */
	enum step step;
	bool by_place;		/* the control: SCRIPTS/script, no stall */
};

/* The thread that answers the held exec: @arg says whether d moves. */
static int dir_exchange_failed;

static void *holder(void *arg)
{
	const bool exchange = (long)arg;
	char c;

	if (read(note_pipe[0], &c, 1) != 1) {
		dir_exchange_failed = 1;
		return NULL;
	}
	if (exchange && renameat2(AT_FDCWD, WORK "/d", AT_FDCWD, WORK "/r",
				  RENAME_EXCHANGE))
		dir_exchange_failed = 1;
	c = 'g';
	if (write(go_pipe[1], &c, 1) != 1)
		dir_exchange_failed = 1;
	return NULL;
}

static char name_buf[PATH_MAX], file_buf[PATH_MAX], evil_buf[PATH_MAX];
static char *exec_argv[2];
static char *exec_envp[2];

static int attacker(void *arg)
{
	const struct attack *const a = arg;
	struct frame f = { 0 };
	pthread_t thread;
	bool swap_failed;
	int result;
	pid_t pid;

	snprintf(file_buf, sizeof(file_buf), WORK "/d/%s", a->script);
	snprintf(evil_buf, sizeof(evil_buf), WORK "/d/evil");
	if (a->by_place) {
		snprintf(name_buf, sizeof(name_buf), SCRIPTS "/%s", a->script);
		exec_argv[0] = name_buf;
		exec_argv[1] = NULL;
		pid = fork();
		if (pid == 0) {
			execv(name_buf, exec_argv);
			_exit(ATTACK_EXEC_FAILED);
		}
		return pfsel_wait_status(pid);
	}
	/* r: a folder of pfuser1's with a hard link to the script. */
	snprintf(name_buf, sizeof(name_buf), SCRIPTS "/%s", a->script);
	if (mkdir(WORK "/r", 0755))
		return ATTACK_FRAME_FAILED;
	if (link(name_buf, WORK "/r/x")) {
		if (errno == EPERM)
			return LINK_REFUSED;
		return ATTACK_FRAME_FAILED;
	}
	snprintf(name_buf, sizeof(name_buf), WORK "/r/%s", a->script);
	if (rename(WORK "/r/x", name_buf) ||
	    pfsel_create_file(WORK "/r/evil", "#!" INTERP "\nevil\n", 0755) ||
	    symlink(SCRIPTS, WORK "/d"))
		return ATTACK_FRAME_FAILED;
	if (open_frame(&f))
		return ATTACK_FRAME_FAILED;

	/* The name executed: through d, a link to the scripts' folder. */
	exec_argv[0] = file_buf;
	exec_argv[1] = NULL;
	exec_envp[0] = f.stall + PAGE * f.next_page++;
	exec_envp[1] = NULL;
	dir_exchange_failed = 0;
	if (pthread_create(&thread, NULL, holder,
			   (void *)(long)(a->step != NONE)))
		return ATTACK_FRAME_FAILED;
	pid = vfork();
	if (pid < 0)
		return ATTACK_FRAME_FAILED;
	if (pid == 0) {
		execve(file_buf, exec_argv, exec_envp);
		_exit(ATTACK_EXEC_FAILED);
	}
	/* The exec fixed the identity: the attacker's file in its place. */
	swap_failed = a->step == ATTACK &&
		      renameat2(AT_FDCWD, file_buf, AT_FDCWD, evil_buf,
				RENAME_EXCHANGE);
	result = pfsel_wait_status(pid);
	if (swap_failed)
		result = SWAP_FAILED;
	pthread_join(thread, NULL);
	if (dir_exchange_failed)
		result = STALL_FAILED;
	close_frame(&f);
	return result;
}

static int run_attack(const char *script, enum step step, bool by_place)
{
	struct attack a = { script, step, by_place };

	system("rm -rf " WORK "/r " WORK "/d");
	return pfsel_run_as(PFSEL_UID1, attacker, &a);
}

static void control_by_place(struct __test_metadata *_metadata,
			     const char *script)
{
	int result = run_attack(script, NONE, true);

	TH_LOG("control, %s by its own path: %s (%d)", script,
	       outcome(result), result);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, result);
}

static void set_hardlinks(struct __test_metadata *_metadata, const char *v)
{
	ASSERT_EQ(0, pfsel_write_file(HARDLINKS, v));
}

/*
 * The frame: the exec held by the FUSE read and let go with d still a
 * link to the scripts' folder: the name crosses a link, no script.
 */
TEST_F_TIMEOUT(advsf2, stall_works_link_unchanged, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	set_hardlinks(_metadata, "0");
	result = run_attack("trusted.scr", NONE, false);
	TH_LOG("held exec, d left a link: %s (%d)", outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);
}

/*
 * d exchanged for the folder of pfuser1's with the hard link while the
 * exec is held, nothing else: the interpreter reads the script through
 * the user's folder.  Named as the script, the user's folder on the way
 * of the name the interpreter opens?
 */
TEST_F_TIMEOUT(advsf2, hardlink_exchanged_while_held, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	set_hardlinks(_metadata, "0");
	result = run_attack("trusted.scr", EXCHANGE_DIR, false);
	TH_LOG("held exec, d made pfuser1's folder with a hard link: %s (%d)",
	       outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result)
	{
		TH_LOG("a name through pfuser1's own folder got the script "
		       "identity");
	}
}

/* The whole attack, plain script. */
TEST_F_TIMEOUT(advsf2, hardlink_attack_plain, 240)
{
	int result;

	control_by_place(_metadata, "trusted.scr");
	set_hardlinks(_metadata, "0");
	result = run_attack("trusted.scr", ATTACK, false);
	TH_LOG("attack: %s (%d)", outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with trusted.scr's identity");
	}
	EXPECT_GT(ATTACK_SETUP_FAILED, result);
}

/* The same against the protected script (no tracer: vfork() timing). */
TEST_F_TIMEOUT(advsf2, hardlink_attack_protected, 240)
{
	int result;

	control_by_place(_metadata, "protected.scr");
	set_hardlinks(_metadata, "0");
	result = run_attack("protected.scr", ATTACK, false);
	TH_LOG("attack: %s (%d)", outcome(result), result);
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the attacker's file ran with protected.scr's identity");
	}
	EXPECT_GT(ATTACK_SETUP_FAILED, result);
}

/* Debian's (and this VM's) sysctl: pfuser1 may not link root's script. */
static int link_attempts(void *unused)
{
	if (link(SCRIPTS "/trusted.scr", WORK "/t") == 0 || errno != EPERM)
		return 1;
	if (pfsel_create_file(WORK "/own", "own\n", 0644) ||
	    link(WORK "/own", WORK "/own2"))
		return 2;
	return 0;
}

TEST_F_TIMEOUT(advsf2, debian_sysctl_refuses_the_link, 120)
{
	int result;

	set_hardlinks(_metadata, "1");
	result = run_attack("trusted.scr", ATTACK, false);
	TH_LOG("the attack under protected_hardlinks 1: %s (%d)",
	       outcome(result), result);
	EXPECT_EQ(LINK_REFUSED, result);
	/* Control: a link of pfuser1's own file is made. */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, link_attempts, NULL));
}

TEST_HARNESS_MAIN
