// SPDX-License-Identifier: GPL-2.0
/*
 * protect_script_ident_test - a protected script's identity through a
 * binfmt_misc handler of the attacker's own user namespace, with the
 * "O" flag (issue 27's review of names_file_plainly()).
 *
 * app.c's identify_script() checks the name the interpreter will open
 * (names_file_plainly(): no '-' first, no "..", no symbolic link, the
 * file executed) only when !bprm->have_execfd, and a binfmt_misc handler
 * with "O" sets have_execfd.  But binfmt_misc passes the interpreter the
 * name too (argv[1] is bprm->interp, the name given to execve(), with
 * the descriptor in AT_EXECFD besides), and perl, bash and the others
 * never look at AT_EXECFD: they read the name.
 *
 * So pfuser1 makes a user namespace of its own (no mount namespace: its
 * root stays init's, sees_init_root() is satisfied); a child of it makes
 * a mount namespace there, mounts binfmt_misc (the instance belongs to
 * the user namespace, not the mount namespace) and registers
 * ":x:M::#!/usr/bin/perl::/usr/bin/perl:O".  The first process, still in
 * init's mount namespace, execs "-Ia/../../pfsel-scriptenv/protected.pl"
 * from a folder of its own holding "-Ia", its program on standard input:
 * protect_script_ident_test's attack, which the '-' check now stops for
 * "#!", comes back through binfmt_misc.  The identity is perl with the
 * protected script, and perl takes the name for -I and runs standard
 * input.
 *
 * Before issue 27's last fix the attack succeeded: the listener heard
 * "evil", the attacker's program from standard input, connected under
 * perl + protected.pl's rule, because app.c's identify_script() skipped
 * names_file_plainly() for have_execfd, which does not mean the
 * interpreter is given no name.  Now the name is checked whatever the
 * handler passes, and each case below is stopped.
 * binfmt_misc_credentials_dash_name ("C", which implies "O") and
 * binfmt_misc_open_binary_cwd_switch_bash (bash, no '-' name: a symbolic
 * link to "/proc/self/cwd/protected.sh" exec'd by a non-leader thread
 * with its own fs_struct) fail the same way.  The file_open hook does
 * not catch the switch: identify_script() sets script_opened for
 * have_execfd, so nothing checks what the interpreter opens.
 *
 * Since a script is named only in the initial user namespace (exec.c,
 * name_is_root_s(): in one of the user's making the user can make the
 * name lead elsewhere), an exec through the user namespace's own
 * handler gives no script identity at all: the attack finds perl run by
 * hand.  So each case is run twice: through the attacker's handler (no
 * script, whatever the name), and through the same handler registered
 * by root in the initial namespace's binfmt_misc, where pfuser1's exec
 * is named and only the name's check stops the attack.
 *
 * Controls: root's handler, the script by its plain name, runs itself
 * (its connection is heard as "perl": the handler is in use and the
 * identity is the script's); the attacker's handler, the same plain
 * name, is perl run by hand (heard nothing); without a handler the dash
 * name gets no script identity (protect_script_ident_test).
 *
 * Policy: policies/protect_script_1001.pfw (protect_script_test's).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include "protect_script.h"

#define ATTACKER "/tmp/pfsel-ident"
#define BINFMT ATTACKER "/binfmt"

static const char script_sh[] = "#!" BASH "\n" BASH_CONNECT("3", "bash");
static const char evil_sh[] = "#!" BASH "\n" BASH_CONNECT("3", "evil");

static int prepare_files(void)
{
	if (system("rm -rf " SCRIPT_DIR " " ATTACKER) || mkdir(SCRIPT_DIR, 0755))
		return -errno;
	if (pfsel_create_file(SCRIPT_DIR "/protected.sh", script_sh, 0755) ||
	    pfsel_create_file(SCRIPT_DIR "/protected.pl", script_pl, 0755) ||
	    pfsel_create_file(SCRIPT_DIR "/plain.pl", script_pl, 0755))
		return -EIO;
	return 0;
}

/* What to execute, and whether through the user namespace's handler. */
struct ident_case {
	const char *name;
	const char *flags; /* the handler's flags: "", "O", "C"; NULL: none */
	const char *interp; /* the handler's interpreter; NULL: perl */
	bool cwd_switch; /* execve() from a thread with its own current dir */
	bool roots; /* the handler root's, in the initial namespace */
};

#define ROOT_BINFMT "/tmp/pfsel-ident-root"

/*
 * As root: the handler of @c (magic "#!" and its interpreter, its flags)
 * in the initial user namespace's binfmt_misc, mounted at ROOT_BINFMT;
 * with @on false, removed and unmounted.  0, or -1.
 */
static int roots_handler(const struct ident_case *const c, bool on)
{
	const char *const interp = c->interp ? c->interp : PERL;
	char magic[64], rule[512], hex[4 * sizeof(magic) + 1];
	size_t i;

	if (!on) {
		int err = pfsel_write_file(ROOT_BINFMT "/pfsel-ident", "-1");

		return umount(ROOT_BINFMT) || err ? -1 : 0;
	}
	snprintf(magic, sizeof(magic), "#!%s", interp);
	for (i = 0; magic[i]; i++)
		snprintf(hex + 4 * i, 5, "\\x%02x", (unsigned char)magic[i]);
	snprintf(rule, sizeof(rule), ":pfsel-ident:M::%s::%s:%s", hex, interp,
		 c->flags);
	if ((mkdir(ROOT_BINFMT, 0700) && errno != EEXIST) ||
	    mount("binfmt_misc", ROOT_BINFMT, "binfmt_misc", 0, NULL))
		return -1;
	if (pfsel_write_file(ROOT_BINFMT "/register", rule)) {
		umount(ROOT_BINFMT);
		return -1;
	}
	return 0;
}


/*
 * The thread trick: "/proc/self/cwd" is the thread group leader's
 * current directory.  A second thread unshares its filesystem context
 * (CLONE_FS), goes to a folder of its own holding an evil
 * "protected.sh", and execs a symbolic link to
 * "/proc/self/cwd/protected.sh" while the leader's current directory is
 * the protected script's folder: the exec finds the protected script.
 * After the exec the thread is the leader, and the same name leads to its
 * own current directory's file: the evil one, which the interpreter opens.
 * The exec'ing thread's fs_struct has one user (sees_init_root() passes).
 */
static int switch_go[2], switch_ready[2];

static void *switch_thread(void *arg)
{
	char *const *argv = arg;
	char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/home/pfuser1", NULL };
	char byte;

	if (unshare(CLONE_FS) || chdir(ATTACKER "/evil") ||
	    write(switch_ready[1], "r", 1) != 1 ||
	    read(switch_go[0], &byte, 1) != 1)
		_exit(SETUP_FAILED);
	execve(argv[0], argv, envp);
	_exit(errno == EPERM ? 200 : 127);
}

static void exec_switching_cwd(char **argv)
{
	pthread_t t;
	char byte;

	if (pipe(switch_go) || pipe(switch_ready) ||
	    pthread_create(&t, NULL, switch_thread, argv) ||
	    read(switch_ready[0], &byte, 1) != 1 || chdir(SCRIPT_DIR) ||
	    write(switch_go[1], "g", 1) != 1)
		_exit(SETUP_FAILED);
	pthread_join(t, NULL);
	_exit(SETUP_FAILED);
}

/*
 * In a user namespace made before (this process's): a mount namespace
 * of its own, binfmt_misc mounted there, a handler running perl with "O"
 * for files that start "#!/usr/bin/perl".  Tells @ready, then waits to
 * be killed (the instance lives as long as the mount).
 */
static void handler_keeper(int ready, const char *flags, const char *interp)
{
	char magic[64], rule[512], hex[4 * sizeof(magic) + 1];
	size_t i;

	snprintf(magic, sizeof(magic), "#!%s", interp);
	for (i = 0; magic[i]; i++)
		snprintf(hex + 4 * i, 5, "\\x%02x", (unsigned char)magic[i]);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("binfmt_misc", BINFMT, "binfmt_misc", 0, NULL))
		_exit(1);
	snprintf(rule, sizeof(rule), ":pfsel-ident:M::%s::%s:%s", hex,
		 interp, flags);
	if (pfsel_write_file(BINFMT "/register", rule))
		_exit(2);
	if (write(ready, "r", 1) != 1)
		_exit(3);
	for (;;)
		pause();
}

/*
 * As pfuser1, in a folder of its own with a folder "-Ia" in it: with
 * @arg's handler, in a user namespace of its own whose binfmt_misc
 * handler runs perl with "O"; then execve() @arg's name (argv[0] the
 * same), the attacker's program on standard input.  The exit status, or
 * 200 for EPERM, SETUP_FAILED when the namespace or handler failed.
 */
static int exec_with_program_on_stdin(void *arg)
{
	const struct ident_case *const c = arg;
	char *argv[] = { (char *)c->name, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/home/pfuser1", NULL };
	int in[2], ready[2], null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid_t pid, keeper = -1;
	char byte;
	int status;

	if (protect_script_dash_folder(ATTACKER, in) ||
	    (mkdir(BINFMT, 0755) && errno != EEXIST) || pipe(ready) ||
	    null < 0)
		return SETUP_FAILED;
	if (c->cwd_switch &&
	    ((mkdir(ATTACKER "/evil", 0755) && errno != EEXIST) ||
	     pfsel_create_file(ATTACKER "/evil/protected.sh", evil_sh, 0755) ||
	     (symlink("/proc/self/cwd/protected.sh", ATTACKER "/lnk") &&
	      errno != EEXIST)))
		return SETUP_FAILED;
	if (c->flags && !c->roots) {
		/* A user namespace only: the root stays init's. */
		if (pfsel_enter_userns(0))
			return SETUP_FAILED;
		keeper = fork();
		if (keeper == 0) {
			close(ready[0]);
			handler_keeper(ready[1], c->flags, c->interp ? c->interp : PERL);
		}
		close(ready[1]);
		if (keeper < 0 || read(ready[0], &byte, 1) != 1) {
			if (keeper > 0) {
				kill(keeper, SIGKILL);
				waitpid(keeper, NULL, 0);
			}
			return SETUP_FAILED;
		}
	}
	pid = fork();
	if (pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (c->cwd_switch)
			exec_switching_cwd(argv);
		execve(argv[0], argv, envp);
		_exit(errno == EPERM ? 200 : 127);
	}
	close(in[0]);
	status = pfsel_wait_status(pid);
	if (keeper > 0) {
		kill(keeper, SIGKILL);
		waitpid(keeper, NULL, 0);
	}
	return status;
}

FIXTURE(script_ident)
{
	int listener;
};

FIXTURE_SETUP(script_ident)
{
	static const char *const interpreters[] = { PERL, NULL };

	protect_script_setup(_metadata, interpreters, prepare_files,
			     &self->listener);
}

FIXTURE_TEARDOWN(script_ident)
{
	protect_script_teardown(self->listener,
				"rm -rf " SCRIPT_DIR " " ATTACKER);
}

/*
 * Runs @c as pfuser1 (exec_with_program_on_stdin()), with root's handler
 * in place for the time of it when c->roots; what the listener heard in
 * @said.  The status, or SETUP_FAILED when root's handler failed.
 */
static int run_case(struct __test_metadata *_metadata, int listener,
		    const struct ident_case *c, char *said, size_t size)
{
	int status = SETUP_FAILED;

	said[0] = '\0';
	if (c->roots && roots_handler(c, true)) {
		TH_LOG("root's handler could not be registered: %s",
		       strerror(errno));
		return status;
	}
	status = pfsel_run_as(PFSEL_UID1, exec_with_program_on_stdin,
			      (void *)c);
	if (c->roots && roots_handler(c, false))
		TH_LOG("root's handler could not be removed: %s",
		       strerror(errno));
	protect_script_heard(listener, said, size);
	TH_LOG("%s%s (binfmt_misc flags %s, %s): status %d, heard \"%s\"",
	       c->name, c->cwd_switch ? ", thread with its own cwd" : "",
	       c->flags ? c->flags : "-, none",
	       !c->flags ? "no handler" :
	       c->roots  ? "root's handler" : "the attacker's handler",
	       status, said);
	return status;
}

#define RUN_CASE(name_, flags_, interp_, cwd_, roots_, said)             \
	({                                                                 \
		const struct ident_case c_ = { name_, flags_, interp_, cwd_, \
					       roots_ };                   \
		run_case(_metadata, self->listener, &c_, said, sizeof(said)); \
	})
/* perl; ROOTS: root's handler (true) or the attacker's (false). */
#define RUN(name_, flags_, roots_, said) \
	RUN_CASE(name_, flags_, NULL, false, roots_, said)
#define ROOTS true
#define ATTACKERS false

/*
 * The attacker's handler, whatever the name: no script identity in a
 * user namespace of the user's making.  Control: root's handler, the
 * script by its plain name, runs itself ("perl").
 */
static void attackers_handler_names_no_script(struct __test_metadata *_metadata,
					      int listener, const char *flags)
{
	const struct ident_case roots = { SCRIPT_DIR "/protected.pl", flags,
					  NULL, false, ROOTS };
	const struct ident_case own = { SCRIPT_DIR "/protected.pl", flags,
					NULL, false, ATTACKERS };
	char said[256];

	ASSERT_EQ(0, run_case(_metadata, listener, &roots, said, sizeof(said)));
	EXPECT_STREQ("perl", said);
	run_case(_metadata, listener, &own, said, sizeof(said));
	EXPECT_STREQ("", said);
}

/*
 * Stopped (it succeeded before the fix: "evil" heard).  The
 * "-Ia/../..." name through a binfmt_misc "O" handler: the attacker's
 * program must not run with the protected script's identity (its
 * connection is not heard), through root's handler (the name's check)
 * or the attacker's own (no script in its namespace, nor a check needed).
 */
TEST_F_TIMEOUT(script_ident, binfmt_misc_open_binary_dash_name, 240)
{
	char said[256];

	/* Control: the dash name without the handler: no script identity. */
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", NULL, ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));

	attackers_handler_names_no_script(_metadata, self->listener, "O");

	/* The attack, both ways. */
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "O", ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "O", ATTACKERS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

/*
 * A handler without flags: perl is given the name only, which
 * names_file_plainly() checks: the '-' name gets no script identity.
 * Defended (the control of the "O" case).
 */
TEST_F_TIMEOUT(script_ident, binfmt_misc_no_flag_dash_name, 240)
{
	char said[256];

	attackers_handler_names_no_script(_metadata, self->listener, "");
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "", ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "", ATTACKERS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

/*
 * Stopped, as with "O" (it succeeded before the fix): "C" implies "O"
 * (have_execfd), and the credentials come from the script.
 */
TEST_F_TIMEOUT(script_ident, binfmt_misc_credentials_dash_name, 240)
{
	char said[256];

	attackers_handler_names_no_script(_metadata, self->listener, "C");
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "C", ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", "C", ATTACKERS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

/* bash, from a thread with its own current directory. */
#define RUN_SH(name_, flags_, roots_, said) \
	RUN_CASE(name_, flags_, BASH, true, roots_, said)

/*
 * Stopped (it succeeded before the fix, with "O"): bash, deterministically,
 * without any '-' name: the thread trick above through a symbolic link,
 * which names_file_plainly() would refuse but "O" skips.
 * Controls: with no handler ("#!"), the link gets no script identity and
 * the evil file's connection is refused; with the handler, the protected
 * script by its plain name (same thread trick) runs itself ("bash").
 */
TEST_F_TIMEOUT(script_ident, binfmt_misc_open_binary_cwd_switch_bash, 240)
{
	char said[256];

	if (access(BASH, X_OK))
		SKIP(return, "no bash in this VM");
	RUN_SH(ATTACKER "/lnk", NULL, ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
	ASSERT_EQ(0, RUN_SH(SCRIPT_DIR "/protected.sh", "O", ROOTS, said));
	EXPECT_STREQ("bash", said);
	RUN_SH(ATTACKER "/lnk", "O", ROOTS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
	RUN_SH(ATTACKER "/lnk", "O", ATTACKERS, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

/*
 * Spellings of the same "-Ia/../..." name, without a handler: each must
 * give perl no script identity (or not read as a switch), so the
 * attacker's program on standard input connects to nothing.
 */
TEST_F_TIMEOUT(script_ident, dash_name_spellings, 180)
{
	static const char *const names[] = {
		"-Ia//../../pfsel-scriptenv/protected.pl",
		"-Ia/.//../../pfsel-scriptenv/protected.pl",
		"-Ia/./../..//pfsel-scriptenv/./protected.pl",
		"./-Ia/../../pfsel-scriptenv/protected.pl",
		".//-Ia//..//..//pfsel-scriptenv//protected.pl",
	};
	char said[256];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		RUN(names[i], NULL, ROOTS, said);
		EXPECT_EQ(NULL, strstr(said, "evil"));
	}
}

TEST_HARNESS_MAIN
