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
#include <poll.h>
#include <sys/wait.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define DIR "/tmp/pfsel-scriptenv"
#define ATTACKER "/tmp/pfsel-dash"
#define PERL "/usr/bin/perl"

#define PORT 7720
#define PORT_TEXT "7720"

#define PERL_CONNECT(word)                                                 \
	"socket(S, 2, 1, 6) or die \"socket: $!\";\n"                      \
	"connect(S, pack(\"S n C4 x8\", 2, " PORT_TEXT ", 127, 0, 0, 1))" \
	" or die \"connect: $!\";\n"                                       \
	"print S \"" word "\\n\";\nclose(S);\n"

static const char script_pl[] = "#!" PERL "\n" PERL_CONNECT("perl");
static const char evil_pl[] = PERL_CONNECT("evil");

#define SETUP_FAILED 124

static int write_text(const char *path, const char *text, mode_t mode)
{
	const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			    mode);
	const size_t len = strlen(text);
	ssize_t written;

	if (fd < 0)
		return -errno;
	written = write(fd, text, len);
	close(fd);
	return written == (ssize_t)len ? 0 : -EIO;
}

static int prepare_files(void)
{
	if (system("rm -rf " DIR " " ATTACKER) || mkdir(DIR, 0755))
		return -errno;
	if (write_text(DIR "/protected.pl", script_pl, 0755) ||
	    write_text(DIR "/plain.pl", script_pl, 0755))
		return -EIO;
	return 0;
}

static void heard(int listener, char *out, size_t size)
{
	char word[64];
	ssize_t len;
	int fd;

	out[0] = '\0';
	while ((fd = accept4(listener, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 2000);
		len = read(fd, word, sizeof(word) - 1);
		close(fd);
		word[len > 0 ? len : 0] = '\0';
		word[strcspn(word, "\n")] = '\0';
		if (out[0])
			strncat(out, " ", size - strlen(out) - 1);
		strncat(out, word[0] ? word : "(nothing)",
			size - strlen(out) - 1);
	}
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

	if (mkdir(ATTACKER, 0755) && errno != EEXIST)
		return SETUP_FAILED;
	if ((mkdir(ATTACKER "/-Ia", 0755) && errno != EEXIST) ||
	    chdir(ATTACKER) || pipe(in) || null < 0)
		return SETUP_FAILED;
	if (write(in[1], evil_pl, strlen(evil_pl)) != (ssize_t)strlen(evil_pl))
		return SETUP_FAILED;
	close(in[1]);
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
	self->listener = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and the files need root");
	if (access(PERL, X_OK))
		SKIP(return, "no perl in this VM");
	pfsel_reset();
	ASSERT_EQ(0, prepare_files());
	ASSERT_EQ(0, pfsel_load("protect_script_1001"));
	self->listener = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT);
	ASSERT_LE(0, self->listener);
	ASSERT_EQ(0, fcntl(self->listener, F_SETFL, O_NONBLOCK));
}

FIXTURE_TEARDOWN(script_dash)
{
	if (geteuid() != 0)
		return;
	if (self->listener >= 0)
		close(self->listener);
	pfsel_reset();
	system("rm -rf " DIR " " ATTACKER);
}

#define RUN(what, said)                                                    \
	({                                                                 \
		int status_ = pfsel_run_as(PFSEL_UID1,                     \
					   exec_with_program_on_stdin,     \
					   (void *)(what));                \
		heard(self->listener, said, sizeof(said));                 \
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
	RUN(DIR "/protected.pl", said);
	EXPECT_STREQ("perl", said);

	/* The attack: the same script, by a name perl takes for -I. */
	RUN("-Ia/../../pfsel-scriptenv/protected.pl", said);
	EXPECT_EQ(NULL, strstr(said, "evil"));
}

TEST_HARNESS_MAIN
