// SPDX-License-Identifier: GPL-2.0
/*
 * protect_script_cwd_test - an attacker moves the current directory under
 * a protected script started by a relative name.
 *
 * The kernel hands the interpreter the script's *name*; app.c gives the
 * script identity when that name, looked up from the current directory
 * at exec time, leads to the file executed, and until the interpreter has
 * opened it refuses an open of another file *at the script's absolute
 * path*.  But a relative name is looked up again by the interpreter from
 * its current directory then, which lives in the fs_struct: whoever
 * shares it may have moved it (fchdir(), no privilege, no namespace), and
 * the interpreter then opens a file at another absolute path, which
 * hook_file_open() lets through.
 *
 *  - sibling_process_moves_cwd: another process sharing the fs_struct
 *    (clone(CLONE_FS)) moves the directory the moment the exec committed
 *    (its close-on-exec pipe closes).  A relative name whose directory
 *    another task can move gives no script identity (exec.c,
 *    name_is_root_s()): the protected script and the plain one, started
 *    so, are the interpreter run by hand, whose connect is refused,
 *    whichever file it read.  Before, the protected script's execve()
 *    failed with EPERM (LSM_UNSAFE_SHARE), and the plain one ran the
 *    attacker's file with the script's rules ("evil" reached the
 *    listener).  Control: the plain script by the same name from a child
 *    that shares nothing runs as itself.
 *  - thread_moves_cwd: a thread of the exec'ing process flips the shared
 *    directory between the script's folder and the attacker's, so that
 *    the check at exec sees the former and the interpreter the latter
 *    (de_thread() kills the thread only after the check).  It got in
 *    before issue 27's fix; now a protected application's execve()
 *    fails with EPERM while another thread holds the fs_struct.
 *  - dotdot_through_own_folder: no sharing at all.  The name may hold
 *    "..": "/tmp/pfsel-dotdot/x/../../pfsel-scriptenv/protected.sh" leads
 *    to the script through a folder of the user's, x, with no symbolic
 *    link; once the exec committed, another process of the user swaps x
 *    for a symbolic link to a deeper folder of its own, and the same name
 *    now leads to the user's file, at another absolute path, which
 *    hook_file_open() lets the interpreter open.  It got in every time
 *    before issue 27's fix; now a name that goes up gives no script
 *    identity: the interpreter runs as itself, without the script's
 *    rules (protected or not).
 *
 * Policy: policies/protect_script_1001.pfw (protect_script_test's).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "protect_script.h"

#define EVIL_DIR "/tmp/pfsel-cwd-evil"

static const char script_sh[] = "#!" BASH "\n" BASH_CONNECT("3", "script");
/* The attacker's files, at the scripts' names in a folder of its own. */
/* It exits 42 only when it connected, as the script it is taken for. */
static const char evil_sh[] =
	"#!" BASH "\nexec 3<>/dev/tcp/127.0.0.1/" SCRIPT_PORT_TEXT
	" && echo evil >&3 && exit 42\nexit 3\n";
#define EVIL_STATUS 42

/* Tries per run: refused whatever the timing now (see thread_moves_cwd). */
#define TRIES 20

static int prepare_files(void)
{
	if (system("rm -rf " SCRIPT_DIR " " EVIL_DIR) ||
	    mkdir(SCRIPT_DIR, 0755) || mkdir(EVIL_DIR, 0755))
		return -errno;
	if (pfsel_create_file(SCRIPT_DIR "/protected.sh", script_sh, 0755) ||
	    pfsel_create_file(SCRIPT_DIR "/plain.sh", script_sh, 0755) ||
	    pfsel_create_file(EVIL_DIR "/protected.sh", evil_sh, 0755) ||
	    pfsel_create_file(EVIL_DIR "/plain.sh", evil_sh, 0755))
		return -EIO;
	return 0;
}

/* ---- A sibling process sharing the fs_struct -------------------------- */

static char sibling_stack[256 * 1024] __attribute__((aligned(16)));
static const char *sibling_name;
static bool sibling_shares_fs = true;
static int sibling_pipe[2];

static int sibling_exec(void *unused)
{
	char *argv[] = { (char *)sibling_name, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null >= 0)
		dup2(null, STDOUT_FILENO);
	close(sibling_pipe[0]);
	if (chdir(SCRIPT_DIR))
		_exit(SETUP_FAILED);
	execve(sibling_name, argv, envp);
	_exit(errno);
}

/*
 * As pfuser1: a child sharing this process's fs_struct execs @arg (a
 * script's bare name) from the scripts' folder; the moment its exec
 * commits (the close-on-exec pipe reads EOF), this process moves the
 * shared directory to the attacker's folder.  The child's status: 0 when
 * it ran, EPERM when the exec was refused.
 */
static int sibling_moves_cwd(void *arg)
{
	char c;
	pid_t pid;

	sibling_name = arg;
	if (pipe2(sibling_pipe, O_CLOEXEC))
		return SETUP_FAILED;
	pid = clone(sibling_exec, sibling_stack + sizeof(sibling_stack),
		    (sibling_shares_fs ? CLONE_FS : 0) | SIGCHLD, NULL);
	if (pid < 0)
		return SETUP_FAILED;
	close(sibling_pipe[1]);
	if (read(sibling_pipe[0], &c, 1) != 0)
		return SETUP_FAILED;
	if (chdir(EVIL_DIR))
		return SETUP_FAILED;
	return pfsel_wait_status(pid);
}

/* ---- A thread of the exec'ing process -------------------------------- */

static int real_dir = -1, evil_dir = -1;

static void *flipper(void *unused)
{
	for (;;) {
		if (fchdir(evil_dir) || fchdir(real_dir))
			_exit(SETUP_FAILED);
	}
	return NULL;
}

/*
 * As pfuser1: up to TRIES children, each with a thread flipping the
 * shared directory while the main thread execs @arg by its bare name.
 * Nothing but 0 on success; the listener tells who got through.
 */
static int thread_moves_cwd(void *arg)
{
	int i;

	real_dir = open(SCRIPT_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	evil_dir = open(EVIL_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (real_dir < 0 || evil_dir < 0)
		return SETUP_FAILED;
	for (i = 0; i < TRIES; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char *argv[] = { arg, NULL };
			char *envp[] = { "PATH=/usr/bin:/bin", NULL };
			int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
			pthread_t t;

			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
			if (fchdir(real_dir) ||
			    pthread_create(&t, NULL, flipper, NULL))
				_exit(SETUP_FAILED);
			execve(arg, argv, envp);
			_exit(errno);
		}
		if (pid < 0)
			return SETUP_FAILED;
		if (pfsel_wait_status(pid) == EVIL_STATUS) {
			fprintf(stderr, "protect_script_cwd_test: %s: won "
				"at try %d\n", (char *)arg, i + 1);
			return 0;
		}
	}
	fprintf(stderr, "protect_script_cwd_test: %s: %d tries, no win\n",
		(char *)arg, TRIES);
	return 0;
}

/* ---- The tests --------------------------------------------------------- */

FIXTURE(script_cwd)
{
	int listener;
};

FIXTURE_SETUP(script_cwd)
{
	static const char *const interpreters[] = { BASH, NULL };

	protect_script_setup(_metadata, interpreters, prepare_files,
			     &self->listener);
}

FIXTURE_TEARDOWN(script_cwd)
{
	protect_script_teardown(self->listener, "rm -rf " SCRIPT_DIR " " EVIL_DIR
				" /tmp/pfsel-dotdot");
}

/* The attacker's file run as what it is: its connect is refused. */
static int evil_by_hand(void *unused)
{
	char *argv[] = { EVIL_DIR "/plain.sh", NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	pid_t pid = fork();

	if (pid == 0) {
		execve(argv[0], argv, envp);
		_exit(127);
	}
	return pfsel_wait_status(pid);
}

TEST_F_TIMEOUT(script_cwd, sibling_process_moves_cwd, 120)
{
	char said[256];
	int status;

	/* Control: the attacker's file by hand connects to nothing. */
	pfsel_run_as(PFSEL_UID1, evil_by_hand, NULL);
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("by hand: heard \"%s\"", said);
	EXPECT_EQ(NULL, strstr(said, "evil"));

	/*
	 * No script identity, so nothing to protect: bash by hand, whose
	 * connect is refused, whichever file it read (before, EPERM).
	 */
	status = pfsel_run_as(PFSEL_UID1, sibling_moves_cwd, "protected.sh");
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("protected.sh: status %d, heard \"%s\"", status, said);
	EXPECT_NE(EVIL_STATUS, status);
	EXPECT_STREQ("", said);

	/* The plain script, moved under the same way, is not borrowed. */
	status = pfsel_run_as(PFSEL_UID1, sibling_moves_cwd, "plain.sh");
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("plain.sh: status %d, heard \"%s\"", status, said);
	EXPECT_NE(EVIL_STATUS, status);
	EXPECT_STREQ("", said);

	/* Control: from a child that shares nothing, the script runs. */
	sibling_shares_fs = false;
	status = pfsel_run_as(PFSEL_UID1, sibling_moves_cwd, "plain.sh");
	sibling_shares_fs = true;
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("plain.sh, nothing shared: status %d, heard \"%s\"", status,
	       said);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(said, "script"));
}

/*
 * Refused: a protected application starts only when no other thread
 * holds the filesystem context (protect.c, sees_init_root()); the
 * control is sibling_process_moves_cwd's plain.sh.
 */
TEST_F_TIMEOUT(script_cwd, thread_moves_cwd, 900)
{
	char said[4096];
	int status;

	status = pfsel_run_as(PFSEL_UID1, thread_moves_cwd, "protected.sh");
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("protected.sh, %d tries: status %d, heard \"%s\"", TRIES,
	       status, said);
	EXPECT_EQ(0, status);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

/* ---- A ".." through a folder of the user's --------------------------- */

#define OWN "/tmp/pfsel-dotdot"

/*
 * As pfuser1: exec the script @arg (its file name in SCRIPT_DIR) by the name
 * OWN/x/../../pfsel-scriptenv/@arg, which crosses no symbolic link and
 * leads to the script; the moment the exec committed, swap OWN/x for a
 * symbolic link to OWN/deep/a (renameat2()'s exchange), so that the same
 * name now leads to OWN/pfsel-scriptenv/@arg, the attacker's file.  No
 * namespace, no shared fs_struct: any process of the user may rename its
 * own folders.  The child's exit status.
 */
static int dotdot_swap(void *arg)
{
	char name[256], evil[256], *argv[] = { name, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	int p[2];
	pid_t pid;
	char c;

	snprintf(name, sizeof(name), OWN "/x/../../pfsel-scriptenv/%s",
		 (char *)arg);
	snprintf(evil, sizeof(evil), OWN "/pfsel-scriptenv/%s", (char *)arg);
	if (system("rm -rf " OWN " && mkdir -p " OWN "/x " OWN "/deep/a "
		   OWN "/pfsel-scriptenv && ln -s " OWN "/deep/a " OWN
		   "/x.link") ||
	    pfsel_create_file(evil, evil_sh, 0755) || pipe2(p, O_CLOEXEC))
		return SETUP_FAILED;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		close(p[0]);
		execve(name, argv, envp);
		_exit(errno);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 0)
		return SETUP_FAILED;
	if (syscall(SYS_renameat2, AT_FDCWD, OWN "/x.link", AT_FDCWD,
		    OWN "/x", RENAME_EXCHANGE))
		return SETUP_FAILED;
	return pfsel_wait_status(pid);
}

/*
 * A name that goes up ("..") gives no script identity (app.c,
 * names_file_plainly()): the interpreter runs as itself, without the
 * script's rules.  The swap still happens (the control: the attacker's
 * file runs, exit 3, its connection refused), for plain.sh as for
 * protected.sh, and nothing reaches the listener over the connection
 * only the script may make.  Before the fix, both were borrowed.
 */
TEST_F_TIMEOUT(script_cwd, dotdot_through_own_folder, 120)
{
	char said[256];
	int status;

	status = pfsel_run_as(PFSEL_UID1, dotdot_swap, "plain.sh");
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("plain.sh: status %d, heard \"%s\"", status, said);
	EXPECT_EQ(3, status);
	EXPECT_EQ(NULL, strstr(said, "evil"));

	status = pfsel_run_as(PFSEL_UID1, dotdot_swap, "protected.sh");
	protect_script_heard(self->listener, said, sizeof(said));
	TH_LOG("protected.sh: status %d, heard \"%s\"", status, said);
	EXPECT_NE(EVIL_STATUS, status);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

TEST_HARNESS_MAIN
