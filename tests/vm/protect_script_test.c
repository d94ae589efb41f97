// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the environment of a protected script (issue 27, item
 * 4; security/pfsel/scriptenv.c; policy/LANGUAGE.md, "Protected
 * applications"; docs/THREAT-MODEL.md, section 2).
 *
 * Root loads policies/protect_script_1001.pfw for pfuser1: bash running
 * /tmp/pfsel-scriptenv/protected.sh, and perl running protected.pl, may
 * connect to 127.0.0.1:7720 and are protected; plain.sh and plain.pl, the
 * same scripts under other names, may connect the same and are not
 * protected; bash and perl run by hand may not connect at all.  Each
 * script connects to the test's listener and says who it is ("script",
 * "perl").
 *
 * A program of pfuser1 -- a child of this test that became uid 1001 --
 * starts a script with an environment that makes its interpreter run the
 * attacker's code first: BASH_ENV (a file bash sources), an exported
 * function BASH_FUNC_echo%% (run in place of the builtin the script
 * calls), PERL5OPT=-Mevil with PERL5LIB (a module perl loads).  That code
 * connects, or writes into the script's connection, and says "evil".
 *
 *   - protected script, attacker's environment: the execve() fails with
 *     EPERM, nothing connects;
 *   - protected script, an ordinary environment (a value that holds a
 *     refused name included): it runs and connects (control);
 *   - plain script, attacker's environment: "evil" reaches the listener,
 *     over a connection only the script may make (control: the attack is
 *     real, and gets the script's rules);
 *   - the attacker's code run by hand: its connect is refused (control:
 *     the rule is what it borrows).
 *
 * Needs root (the policy, the files) and bash and perl in the VM: as
 * anyone else, or without them, every test is skipped.
 */

#define _GNU_SOURCE

#include "protect_script.h"

#define PROT_SH SCRIPT_DIR "/protected.sh"
#define PLAIN_SH SCRIPT_DIR "/plain.sh"
#define PROT_PL SCRIPT_DIR "/protected.pl"
#define PLAIN_PL SCRIPT_DIR "/plain.pl"
#define EVIL_RC SCRIPT_DIR "/evil.rc"
#define EVIL_LIB SCRIPT_DIR "/lib"

/* The script says, too, what of the loader's variables it was left. */
static const char script_sh[] =
	"#!" BASH "\n"
	BASH_CONNECT("3", "script${PFSEL_PRELOADED:+ preloaded}${GCONV_PATH:+ gconv}");
static const char evil_rc[] = BASH_CONNECT("4", "evil");
static const char evil_pm[] = "package evil;\n" PERL_CONNECT("evil") "1;\n";

/* Writes "evil" instead of what the script says, in its own connection. */
#define EVIL_ECHO "BASH_FUNC_echo%%=() {  builtin echo evil >&3\n}"

/* The scripts and the attacker's files, root's, in a folder of root's. */
static int prepare_files(void)
{
	if (system("rm -rf " SCRIPT_DIR) || mkdir(SCRIPT_DIR, 0755) ||
	    mkdir(EVIL_LIB, 0755))
		return -errno;
	if (pfsel_create_file(PROT_SH, script_sh, 0755) ||
	    pfsel_create_file(PLAIN_SH, script_sh, 0755) ||
	    pfsel_create_file(PROT_PL, script_pl, 0755) ||
	    pfsel_create_file(PLAIN_PL, script_pl, 0755) ||
	    pfsel_create_file(EVIL_RC, evil_rc, 0644) ||
	    pfsel_create_file(EVIL_LIB "/evil.pm", evil_pm, 0644))
		return -EIO;
	return 0;
}

/* What a child runs, and with which environment besides PATH and HOME. */
struct run {
	char *const *argv;
	const char *env[4];
};

/* As pfuser1: execve() the program; the errno when that fails. */
static int exec_with_env(void *arg)
{
	const struct run *r = arg;
	char *envp[8] = { "PATH=/usr/bin:/bin", "HOME=/home/pfuser1" };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	size_t i, n = 2;

	for (i = 0; i < 4 && r->env[i]; i++)
		envp[n++] = (char *)r->env[i];
	envp[n] = NULL;
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		return SETUP_FAILED;
	execve(r->argv[0], r->argv, envp);
	return errno;
}

FIXTURE(script_env)
{
	int listener;
};

FIXTURE_SETUP(script_env)
{
	static const char *const interpreters[] = { BASH, PERL, NULL };

	protect_script_setup(_metadata, interpreters, prepare_files,
			     &self->listener);
}

FIXTURE_TEARDOWN(script_env)
{
	protect_script_teardown(self->listener, "rm -rf " SCRIPT_DIR);
}

/* Run @r as pfuser1: its status; what it said to the listener in @said. */
#define RUN(r, said)                                                      \
	({                                                                \
		int status_ = pfsel_run_as(PFSEL_UID1, exec_with_env, &(r)); \
		protect_script_heard(self->listener, said, sizeof(said)); \
		TH_LOG("%s: status %d, heard \"%s\"", (r).argv[0], status_, \
		       said);                                             \
		status_;                                                  \
	})

/*
 * bash sources $BASH_ENV before a script: refused for the protected
 * script; the plain one runs the attacker's file, which connects with
 * the script's rules before the script does.
 */
TEST_F(script_env, bash_env)
{
	char *prot[] = { PROT_SH, NULL }, *plain[] = { PLAIN_SH, NULL };
	char *by_hand[] = { BASH, EVIL_RC, NULL };
	struct run r = { prot, { "BASH_ENV=" EVIL_RC } };
	char said[256];

	EXPECT_EQ(EPERM, RUN(r, said));
	EXPECT_STREQ("", said);
	/* The control: an ordinary environment, which names BASH_ENV. */
	r = (struct run){ prot, { "X=BASH_ENV=" EVIL_RC, "PS4X=1" } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("script", said);
	/* The attack is real, and gets the script's rules. */
	r = (struct run){ plain, { "BASH_ENV=" EVIL_RC } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("evil script", said);
	r = (struct run){ by_hand, { NULL } };
	EXPECT_NE(0, RUN(r, said));
	EXPECT_STREQ("", said);
}

/*
 * An exported function takes the place of the builtin the script calls:
 * refused for the protected script; in the plain one it speaks in the
 * script's own connection.
 */
TEST_F(script_env, bash_exported_function)
{
	char *prot[] = { PROT_SH, NULL }, *plain[] = { PLAIN_SH, NULL };
	struct run r = { prot, { EVIL_ECHO } };
	char said[256];

	EXPECT_EQ(EPERM, RUN(r, said));
	EXPECT_STREQ("", said);
	r = (struct run){ plain, { EVIL_ECHO } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("evil", said);
}

/*
 * perl loads the module PERL5OPT names from PERL5LIB before the script:
 * refused for the protected script, with either variable alone too; the
 * plain script runs the module, which connects first.
 */
TEST_F(script_env, perl5opt)
{
	char *prot[] = { PROT_PL, NULL }, *plain[] = { PLAIN_PL, NULL };
	struct run r = { prot, { "PERL5OPT=-Mevil", "PERL5LIB=" EVIL_LIB } };
	char said[256];

	EXPECT_EQ(EPERM, RUN(r, said));
	EXPECT_STREQ("", said);
	r = (struct run){ prot, { "PERL5LIB=" EVIL_LIB } };
	EXPECT_EQ(EPERM, RUN(r, said));
	r = (struct run){ prot, { "PERL5OPT=-w" } };
	EXPECT_EQ(EPERM, RUN(r, said));
	r = (struct run){ prot, { NULL } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("perl", said);
	r = (struct run){ plain, { "PERL5OPT=-Mevil", "PERL5LIB=" EVIL_LIB } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("evil perl", said);
}

/*
 * The refusal has its record: an exec, refused=script-environment, the
 * variable of the kernel's table the environment held, the interpreter
 * and the script it would have been.  The protected script started with
 * an ordinary environment makes none (the control).
 */
TEST_F_TIMEOUT(script_env, refusal_is_audited, PFSEL_AUDIT_TEST_TIMEOUT)
{
	char *prot[] = { PROT_SH, NULL };
	struct run r = { prot, { "BASH_ENV=" EVIL_RC } };
	char said[256];
	const char *const needles[] = { " refused=script-environment ",
					" script=\"" PROT_SH "\" ", NULL };
	const char *const fields[] = {
		" op=exec ",
		" verdict=deny ",
		" refused=script-environment ",
		" permissive=0 ",
		" policy=user ",
		" variable=\"BASH_ENV\" ",
		" script=\"" PROT_SH "\" ",
		" uid=1001 ",
		NULL,
	};
	int before;

	before = pfsel_audit_records(needles, NULL, 0);
	ASSERT_LE(0, before);
	EXPECT_EQ(EPERM, RUN(r, said));
	PFSEL_EXPECT_RECORD(before, needles, fields);

	r = (struct run){ prot, { "X=BASH_ENV=" EVIL_RC } };
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_EQ(before + 1, pfsel_audit_records(needles, NULL, 0));
}

/*
 * The loader's variables need no entry: in secure-execution mode glibc's
 * loader removes them (its unsecure-envvars.h) before bash starts, and
 * the protected script runs without them; the plain script keeps them,
 * and the library gets in.
 */
TEST_F(script_env, loader_variables_are_the_loaders)
{
	char *prot[] = { PROT_SH, NULL }, *plain[] = { PLAIN_SH, NULL };
	struct run r = { prot, { "LD_PRELOAD=" PFSEL_TESTS_DIR "/preload.so",
				 "GCONV_PATH=" SCRIPT_DIR } };
	char said[256];

	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("script", said);
	r.argv = plain;
	EXPECT_EQ(0, RUN(r, said));
	EXPECT_STREQ("script preloaded gconv", said);
}

TEST_HARNESS_MAIN
