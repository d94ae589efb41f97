// SPDX-License-Identifier: GPL-2.0
/*
 * protect_script_dash_test - a protected script started by a name that
 * its interpreter reads as a switch (the setuid scripts' "-i" attack).
 *
 * For a "#!" script the kernel passes the name given to execve() to the
 * interpreter as an argument, after the "#!" line's.  app.c gives the
 * script identity when that name, looked up from the current directory,
 * crosses no symbolic link and leads to the file executed; ".." is
 * allowed.  So a program of the user makes a folder of its own named
 * "-Ia" and execs "-Ia/../../pfsel-scriptenv/protected.pl": the name
 * leads to the protected script, the identity is perl running it
 * (protected, allowed to connect), and perl reads "-Ia/../..." as its -I
 * switch (a folder added to @INC), finds no program name after it, and
 * reads its program from standard input, which is the attacker's.
 *
 * It got in before issue 27's fix; now a name that starts with '-' (or
 * goes up) gives no script identity: perl runs as itself, and the
 * attacker's program on its standard input connects to nothing
 * (`perl_reads_stdin`).  Controls: the attacker's program given to perl by hand, the
 * same way (`perl -Ia`, program on standard input), is refused its
 * connection; the protected script started by its plain name runs itself.
 * Not tried here (the VM has neither): python3 ("-Xa/../...", an option
 * it accepts whatever its value, then a program on standard input) and
 * ruby ("-Ia/../...") read the name the same way.  bash and dash do not:
 * a '/' in a switch word is an invalid option and they exit.
 *
 * Policy: policies/protect_script_1001.pfw (protect_script_test's).
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "protect_script.h"

#define ATTACKER "/tmp/pfsel-dash"

static int prepare_files(void)
{
	if (system("rm -rf " SCRIPT_DIR " " ATTACKER) || mkdir(SCRIPT_DIR, 0755))
		return -errno;
	if (pfsel_create_file(SCRIPT_DIR "/protected.pl", script_pl, 0755) ||
	    pfsel_create_file(SCRIPT_DIR "/plain.pl", script_pl, 0755))
		return -EIO;
	return 0;
}

/*
 * As pfuser1, in a folder of its own with a folder "-Ia" in it: execve()
 * @arg (argv[0] the same), the attacker's program on standard input.
 * The exit status, or the execve()'s errno.
 */
static int exec_with_program_on_stdin(void *arg)
{
	char *argv[] = { arg, NULL, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/home/pfuser1", NULL };
	int in[2], null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid_t pid;

	if (protect_script_dash_folder(ATTACKER, in) || null < 0)
		return SETUP_FAILED;
	/* By hand: perl itself, with the same switch. */
	if (!strcmp(arg, PERL))
		argv[1] = "-Ia";
	pid = fork();
	if (pid == 0) {
		dup2(in[0], STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		execve(argv[0], argv, envp);
		_exit(errno == EPERM ? 200 : 127);
	}
	close(in[0]);
	return pfsel_wait_status(pid);
}

FIXTURE(script_dash)
{
	int listener;
};

FIXTURE_SETUP(script_dash)
{
	static const char *const interpreters[] = { PERL, NULL };

	protect_script_setup(_metadata, interpreters, prepare_files,
			     &self->listener);
}

FIXTURE_TEARDOWN(script_dash)
{
	protect_script_teardown(self->listener,
				"rm -rf " SCRIPT_DIR " " ATTACKER);
}

#define RUN(what, said)                                                    \
	({                                                                 \
		int status_ = pfsel_run_as(PFSEL_UID1,                     \
					   exec_with_program_on_stdin,     \
					   (void *)(what));                \
		protect_script_heard(self->listener, said, sizeof(said)); \
		TH_LOG("%s: status %d, heard \"%s\"", what, status_, said); \
		status_;                                                   \
	})

TEST_F_TIMEOUT(script_dash, perl_reads_stdin, 120)
{
	char said[256];

	/* Control: the attacker's program, by hand, connects to nothing. */
	RUN(PERL, said);
	EXPECT_EQ(NULL, strstr(said, "evil"));

	/* Control: the protected script by its name runs itself. */
	RUN(SCRIPT_DIR "/protected.pl", said);
	EXPECT_STREQ("perl", said);

	/* The attack: the same script, by a name perl takes for -I. */
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

TEST_HARNESS_MAIN
