// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - a `#!` script's identity cannot be raced (issue 13,
 * "Script identity cannot be raced"; policy/LANGUAGE.md, section 5).
 *
 * pfuser1's policies/script_race_1001.pfw allows the application
 * "this program, running the script trusted.scr" to connect to
 * 127.0.0.1:7701 and denies everything else.  Two root-owned scripts in a
 * root-owned folder, trusted.scr and evil.scr, name this program as their
 * interpreter (`#!.../script_race_test --interp`); run so, it reads the
 * script through the name the kernel passed it, as any interpreter does,
 * then connects, and exits with what it read and what it got (see
 * INTERP_*).  pfuser1 owns a folder with a symbolic link in it, and execs
 * the link while it points at trusted.scr, then repoints it at evil.scr
 * before the interpreter opens the name:
 *
 *   (a) deterministically: the child is stopped at the exec (ptrace,
 *       PTRACE_O_TRACEEXEC) while the link is repointed;
 *   (b) unassisted, as pfuser1 alone: one process flips the link while
 *       another execs it, up to 10,000 times or RACE_BUDGET_MS (60 s),
 *       whichever comes first; the log says how many ran.  Under TCG with
 *       the debug kernel a try takes from a tenth of a second to a second
 *       (fork, exec of the interpreter, its dynamic loading, a connect),
 *       so the budget, not the 10,000, ends it: tens to hundreds of
 *       tries, where (a) is the deterministic one.
 *
 * The evil script must never run with the trusted identity: 0 wins.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/sysinfo.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define SELF PFSEL_TESTS_DIR "/script_race_test"
#define SCRIPTS "/tmp/pfsel-race-scripts"
#define TRUSTED SCRIPTS "/trusted.scr"
#define EVIL SCRIPTS "/evil.scr"
#define USERDIR "/tmp/pfsel-race-user"
#define LINK USERDIR "/link"
#define LINK_TMP USERDIR "/link.new"
#define PORT 7701

#define RACE_TRIES 10000
#define RACE_BUDGET_MS 60000
#define RACE_MIN_TRIES 20

/* The interpreter's exit status: what it read, and what its connect got. */
enum {
	INTERP_TRUSTED_ALLOWED = 10,
	INTERP_TRUSTED_DENIED = 11,
	INTERP_EVIL_ALLOWED = 20, /* the attack worked */
	INTERP_EVIL_DENIED = 21,
	INTERP_OPEN_DENIED = 40, /* the interpreter's open: EACCES */
	INTERP_OPEN_FAILED = 41,
	INTERP_OTHER = 50,
};

/*
 * Run as the scripts' interpreter: argv is this program, "--interp", the
 * script's name as the kernel passed it.  Before the harness's main().
 */
__attribute__((constructor)) static void interpreter(int argc, char **argv)
{
	const struct pfsel_probe p = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET,
		.type = SOCK_STREAM,
		.addr = "127.0.0.1",
		.port = PORT,
	};
	char text[256];
	ssize_t len;
	int fd, err;
	bool evil, trusted;

	if (argc < 3 || strcmp(argv[1], "--interp") != 0)
		return;
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		_exit(errno == EACCES ? INTERP_OPEN_DENIED :
					INTERP_OPEN_FAILED);
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		_exit(INTERP_OTHER);
	text[len] = '\0';
	evil = strstr(text, "\nevil\n") != NULL;
	trusted = strstr(text, "\ntrusted\n") != NULL;
	if (evil == trusted)
		_exit(INTERP_OTHER);
	err = pfsel_probe_run(&p);
	if (err != ECONNREFUSED && err != EACCES)
		_exit(INTERP_OTHER + 1);
	if (evil)
		_exit(err == EACCES ? INTERP_EVIL_DENIED : INTERP_EVIL_ALLOWED);
	_exit(err == EACCES ? INTERP_TRUSTED_DENIED : INTERP_TRUSTED_ALLOWED);
}

static const char *outcome(int status)
{
	switch (status) {
	case INTERP_TRUSTED_ALLOWED:
		return "trusted script, allowed";
	case INTERP_TRUSTED_DENIED:
		return "trusted script, denied";
	case INTERP_EVIL_ALLOWED:
		return "EVIL SCRIPT, ALLOWED (as the trusted one)";
	case INTERP_EVIL_DENIED:
		return "evil script, denied";
	case INTERP_OPEN_DENIED:
		return "the interpreter's open of the name: EACCES";
	case INTERP_OPEN_FAILED:
		return "the interpreter's open of the name failed";
	case 126:
		return "could not become the user";
	case 127:
		return "the exec failed";
	default:
		return "something else";
	}
}

/* Point the link at @target, atomically (rename over it). */
static int point_link(const char *target)
{
	unlink(LINK_TMP);
	if (symlink(target, LINK_TMP) || rename(LINK_TMP, LINK))
		return -errno;
	return 0;
}

/* Exec @path as pfuser1 and wait: the interpreter's exit status. */
static int run_as_user(const char *path)
{
	char *argv[] = { (char *)path, NULL };

	return pfsel_exec_as(PFSEL_UID1, argv, NULL);
}

FIXTURE(race) {};

FIXTURE_SETUP(race)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " SCRIPTS " " USERDIR " && mkdir -m 755 "
			    SCRIPTS " " USERDIR " && chown 1001:1001 " USERDIR
			    " && printf '#!" SELF " --interp\\ntrusted\\n' >"
			    TRUSTED " && printf '#!" SELF
			    " --interp\\nevil\\n' >" EVIL " && chmod 755 "
			    TRUSTED " " EVIL));
	ASSERT_EQ(0, point_link(TRUSTED));
	ASSERT_EQ(0, pfsel_load("script_race_1001"));
}

FIXTURE_TEARDOWN(race)
{
	if (geteuid() == 0) {
		pfsel_reset();
		system("rm -rf " SCRIPTS " " USERDIR);
	}
}

/* What each script gets when nobody races: the policy works. */
TEST_F(race, baseline)
{
	long long t0 = pfsel_now_ms();
	int status;

	EXPECT_EQ(INTERP_TRUSTED_ALLOWED, run_as_user(TRUSTED));
	TH_LOG("one run of a script, unraced: %lld ms", pfsel_now_ms() - t0);
	EXPECT_EQ(INTERP_EVIL_DENIED, run_as_user(EVIL));
	/* Through the link, unraced: whatever the kernel decides for a
	 * name with a link in it, the evil script is not the result.
	 */
	status = run_as_user(LINK);
	TH_LOG("the link to trusted.scr, unraced: %s", outcome(status));
	EXPECT_NE(INTERP_EVIL_ALLOWED, status);
}

/*
 * (a) The child is stopped right after its exec of the link (the
 * interpreter is loaded, nothing of it has run), the link is repointed at
 * evil.scr, and the child goes on.
 */
TEST_F(race, repointed_while_stopped_at_exec)
{
	int status, result;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *argv[] = { LINK, NULL };

		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(125);
		raise(SIGSTOP);
		execv(LINK, argv);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, NULL,
			    (void *)(long)(PTRACE_O_TRACEEXEC |
					   PTRACE_O_EXITKILL)));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ(SIGTRAP | (PTRACE_EVENT_EXEC << 8), status >> 8)
	{
		TH_LOG("not stopped at the exec: status %#x", status);
		kill(pid, SIGKILL);
	}

	/* The exec named trusted.scr; the interpreter will open evil.scr. */
	ASSERT_EQ(0, point_link(EVIL));
	ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	result = pfsel_wait_status(pid);
	TH_LOG("exec'd the link to trusted.scr, repointed at evil.scr: %s",
	       outcome(result));
	EXPECT_NE(INTERP_EVIL_ALLOWED, result)
	{
		TH_LOG("the evil script ran with trusted.scr's identity");
	}
	/* Nothing else went wrong either. */
	EXPECT_TRUE(result == INTERP_EVIL_DENIED ||
		    result == INTERP_OPEN_DENIED ||
		    result == INTERP_TRUSTED_DENIED ||
		    result == INTERP_TRUSTED_ALLOWED)
	{
		TH_LOG("status %d", result);
	}
}

/* ---- (b) unassisted ------------------------------------------------------ */

struct tally {
	int stop;
	int tries;
	int count[256];
};

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= get_nprocs())
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* pfuser1's flipper: points the link at each script in turn, until told. */
static void flipper(struct tally *t)
{
	unsigned long n = 0;

	pin(0);
	while (!__atomic_load_n(&t->stop, __ATOMIC_RELAXED))
		point_link(n++ & 1 ? EVIL : TRUSTED);
	_exit(0);
}

/* pfuser1's runner: execs the link until the tries or the time run out. */
static void runner(struct tally *t, long long deadline)
{
	char *argv[] = { LINK, NULL };
	int status;
	pid_t pid;

	pin(1);
	while (t->tries < RACE_TRIES && pfsel_now_ms() < deadline) {
		/* vfork(): a fork of a debug kernel under TCG costs more. */
		pid = vfork();
		if (pid < 0)
			continue;
		if (pid == 0) {
			execv(LINK, argv);
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		status = WIFEXITED(status) ? WEXITSTATUS(status) :
					     128 + WTERMSIG(status);
		t->count[status & 255]++;
		t->tries++;
	}
	_exit(0);
}

TEST_F_TIMEOUT(race, unassisted_race_never_wins, 300)
{
	static const int shown[] = {
		INTERP_TRUSTED_ALLOWED, INTERP_TRUSTED_DENIED,
		INTERP_EVIL_ALLOWED,	INTERP_EVIL_DENIED,
		INTERP_OPEN_DENIED,	INTERP_OPEN_FAILED,
		127,
	};
	struct tally *t;
	long long start, elapsed;
	pid_t flip, run;
	unsigned int i;
	int other;

	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, t);
	memset(t, 0, sizeof(*t));
	start = pfsel_now_ms();
	flip = fork();
	ASSERT_LE(0, flip);
	if (flip == 0) {
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		flipper(t);
	}
	run = fork();
	ASSERT_LE(0, run);
	if (run == 0) {
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		runner(t, start + RACE_BUDGET_MS);
	}
	EXPECT_EQ(0, pfsel_wait_status(run));
	__atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
	EXPECT_EQ(0, pfsel_wait_status(flip));
	elapsed = pfsel_now_ms() - start;

	TH_LOG("%d tries in %lld ms (%.1f per second; %s)", t->tries, elapsed,
	       t->tries * 1000.0 / (double)(elapsed ? elapsed : 1),
	       t->tries < RACE_TRIES ? "the time budget ended it" :
				       "all of them");
	other = t->tries;
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		TH_LOG("  %5d  %s", t->count[shown[i]], outcome(shown[i]));
		other -= t->count[shown[i]];
	}
	TH_LOG("  %5d  something else", other);
	EXPECT_EQ(0, t->count[INTERP_EVIL_ALLOWED])
	{
		TH_LOG("the evil script won the race %d times in %d",
		       t->count[INTERP_EVIL_ALLOWED], t->tries);
	}
	/* Under TCG on a loaded host a try can take a second. */
	EXPECT_LE(RACE_MIN_TRIES, t->tries);
	/* Both scripts were actually run: the race was a race. */
	EXPECT_LT(0, t->count[INTERP_EVIL_DENIED] +
			     t->count[INTERP_EVIL_ALLOWED] +
			     t->count[INTERP_OPEN_DENIED]);
	EXPECT_EQ(0, other);
	munmap(t, sizeof(*t));
}

TEST_HARNESS_MAIN
