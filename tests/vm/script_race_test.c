// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - a `#!` script's identity cannot be raced (issue 13,
 * "Script identity cannot be raced"; policy/LANGUAGE.md, section 5).
 *
 * pfuser1's policies/script_race_1001.pfw allows the application
 * "race_interp running the script trusted.scr" to connect to
 * 127.0.0.1:RACE_PORT and denies everything else.  Two root-owned scripts
 * in a root-owned folder, trusted.scr and evil.scr, name race_interp as
 * their interpreter; it reads the script through the name the kernel
 * passed it, as any interpreter does, then connects, and exits with what
 * it read and what it got (race_interp.h).  pfuser1 owns a folder with a
 * symbolic link in it, and execs the link while it points at trusted.scr,
 * then repoints it at evil.scr before the interpreter opens the name:
 *
 *   (a) deterministically: the child is stopped at the exec (ptrace,
 *       PTRACE_O_TRACEEXEC) while the link is repointed;
 *   (b) unassisted, as pfuser1 alone, RACE_TRIES (10,000) times:
 *       - half timed by vfork(): the parent of a vfork()ed child runs
 *         again when the child's exec has released its memory, which the
 *         kernel does after it has fixed the new program's credentials
 *         (and pfsel its identity) and before the interpreter has run an
 *         instruction; the parent repoints the link right then.  Every
 *         try aims at the window, and the log says how many hit it (the
 *         interpreter read evil.scr): nearly all;
 *       - half against a flipper, a process that repoints the link back
 *         and forth without pause, and so also inside the exec's own
 *         lookups.  The log says during how many tries the link moved.
 *
 * The evil script must never run with the trusted identity: 0 wins.
 *
 * A try is an exec of the link, so its cost is an exec's: race_interp is
 * a static nolibc program (no loader, no libc start-up), and its connect
 * is refused by the closed port or denied by pfsel, with nothing left
 * behind.  In the emulated (TCG) debug kernel a try takes 20 to 35 ms
 * (against the flipper a little more), so the 10,000 take 4 to 6
 * minutes; with the test program itself as the
 * interpreter (dynamically linked, 188 KB and its libraries) a try took
 * 200 to 600 ms, and only a few hundred fit in a minute.  The log says
 * how many tries ran and at what rate; fewer than RACE_TRIES within
 * RACE_BUDGET_MS fails.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>

#include "pfsel_test_util.h"
#include "race_interp.h"

#include "kselftest_harness.h"

#define INTERP PFSEL_TESTS_DIR "/race_interp"
#define SCRIPTS "/tmp/pfsel-race-scripts"
#define TRUSTED SCRIPTS "/trusted.scr"
#define EVIL SCRIPTS "/evil.scr"
#define USERDIR "/tmp/pfsel-race-user"
#define LINK USERDIR "/link"
#define SPARE USERDIR "/spare"

/* The tries of (b), half timed by vfork(), half against a flipper. */
#define RACE_TRIES 10000
/* For all of them: about 4 minutes in the debug VM; 15 on a loaded host. */
#define RACE_BUDGET_MS (900 * 1000)
/* The flipper's priority (flipper()). */
#define FLIPPER_NICE 5

static const char *outcome(int status)
{
	const char *const said = race_interp_outcome(status);

	if (said)
		return said;
	switch (status) {
	case 126:
		return "could not become the user";
	case 127:
		return "the exec failed";
	default:
		return "something else";
	}
}

/*
 * Make the link point where the spare points, and the spare where the
 * link did, in one step: a rename that exchanges the two names.  It
 * allocates nothing, which matters to a flipper that does it tens of
 * thousands of times in a kernel that checks every allocation (a new
 * symbolic link renamed over the old one costs an inode and a dentry).
 */
static int swap_links(void)
{
	if (renameat2(AT_FDCWD, LINK, AT_FDCWD, SPARE, RENAME_EXCHANGE))
		return -errno;
	return 0;
}

/* Exec @path as pfuser1 and wait: the interpreter's exit status. */
static int run_as_user(const char *path)
{
	char *argv[] = { (char *)path, NULL };

	return pfsel_exec_as(PFSEL_UID1, argv, NULL);
}

FIXTURE(race){};

FIXTURE_SETUP(race)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " SCRIPTS " " USERDIR
			    " && mkdir -m 755 " SCRIPTS " " USERDIR
			    " && chown 1001:1001 " USERDIR
			    " && printf '#!" INTERP "\\ntrusted\\n' >" TRUSTED
			    " && printf '#!" INTERP "\\nevil\\n' >" EVIL
			    " && chmod 755 " TRUSTED " " EVIL));
	/* The link points at trusted.scr, the spare at evil.scr. */
	ASSERT_EQ(0, symlink(TRUSTED, LINK));
	ASSERT_EQ(0, symlink(EVIL, SPARE));
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

	EXPECT_EQ(RACE_TRUSTED_ALLOWED, run_as_user(TRUSTED));
	TH_LOG("one run of a script, unraced: %lld ms", pfsel_now_ms() - t0);
	EXPECT_EQ(RACE_EVIL_DENIED, run_as_user(EVIL));
	/*
	 * Through the link, unraced: the name crosses a link, so the process
	 * is the interpreter run by hand (LANGUAGE.md, section 5): it reads
	 * trusted.scr and is denied.  This, not a race, is the defence the
	 * races below meet; a run without it would take another kernel.
	 */
	status = run_as_user(LINK);
	TH_LOG("the link to trusted.scr, unraced: %s", outcome(status));
	EXPECT_EQ(RACE_TRUSTED_DENIED, status);
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
	ASSERT_EQ(0, swap_links());
	ASSERT_EQ(0, ptrace(PTRACE_DETACH, pid, NULL, NULL));
	result = pfsel_wait_status(pid);
	TH_LOG("exec'd the link to trusted.scr, repointed at evil.scr: %s",
	       outcome(result));
	EXPECT_NE(RACE_EVIL_ALLOWED, result)
	{
		TH_LOG("the evil script ran with trusted.scr's identity");
	}
	/* Nothing else went wrong either: the interpreter read evil.scr. */
	EXPECT_TRUE(result == RACE_EVIL_DENIED || result == RACE_OPEN_DENIED)
	{
		TH_LOG("status %d", result);
	}
}

/*
 * (c) Not a link but a mount.  pfuser1 execs trusted.scr by its plain
 * name in a user and mount namespace of its own and, while the child is
 * stopped at the exec, bind-mounts evil.scr over that name in their
 * namespace (or a tmpfs over a folder on the way with a link in it, which
 * no watch of the script's path can see: adv_fpname_test).  There the
 * name is the user's to make lead elsewhere, so the process is the
 * interpreter run by hand from the start: trusted.scr itself is denied
 * there, and evil.scr mounted over it gains nothing.  Control: the same
 * steps outside any namespace run trusted.scr as itself, allowed.
 *
 * In a mount namespace only root can change (one a service runs in,
 * made by root in the initial user namespace), the script is named; if
 * root mounts another file over the name while the interpreter has not
 * opened it, that open is refused (EACCES) and audited: the watch of
 * exec.c's hook_file_open().
 */
enum mount_frame {
	NO_NAMESPACE,	/* pfuser1 as it is: the control */
	OWN_NAMESPACE,	/* pfuser1's own user and mount namespace */
	ROOTS_NAMESPACE, /* a mount namespace root made; pfuser1 execs in it */
};

/*
 * Forks the exec'ing child (pfuser1), stops it at its exec of
 * trusted.scr, bind-mounts evil.scr over that name when @mount_over (as
 * pfuser1 in its own namespace, or as root in root's), lets it go on;
 * exits with the child's status (as the interpreter left it), or 120 +
 * a step that failed.
 */
static void mount_attacker(enum mount_frame frame, bool mount_over)
{
	pid_t pid;

	if (frame == ROOTS_NAMESPACE &&
	    (unshare(CLONE_NEWNS) ||
	     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)))
		_exit(120);
	if (frame != ROOTS_NAMESPACE && pfsel_become(PFSEL_UID1))
		_exit(126);
	if (frame == OWN_NAMESPACE && pfsel_enter_userns(CLONE_NEWNS))
		_exit(120);
	pid = fork();
	if (pid < 0)
		_exit(121);
	if (pid == 0) {
		char *argv[] = { TRUSTED, NULL };

		if (frame == ROOTS_NAMESPACE && pfsel_become(PFSEL_UID1))
			_exit(126);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(125);
		raise(SIGSTOP);
		execv(TRUSTED, argv);
		_exit(127);
	}
	if (pfsel_wait_stopped_at_exec(pid))
		_exit(122);
	if (mount_over && mount(EVIL, TRUSTED, NULL, MS_BIND, NULL))
		_exit(123);
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
		_exit(124);
	_exit(pfsel_wait_status(pid));
}

static int run_mount_attacker(enum mount_frame frame, bool mount_over)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		mount_attacker(frame, mount_over);
	return pfsel_wait_status(pid);
}

TEST_F_TIMEOUT(race, mounted_over_while_stopped_at_exec,
	       PFSEL_AUDIT_TEST_TIMEOUT)
{
	int result;

	/* The control: the same steps, outside any namespace, no mount. */
	result = run_mount_attacker(NO_NAMESPACE, false);
	TH_LOG("exec'd trusted.scr, no namespace: %s (%d)", outcome(result),
	       result);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, result);

	/* In a namespace of its own, the name is the user's: no script. */
	result = run_mount_attacker(OWN_NAMESPACE, false);
	TH_LOG("exec'd trusted.scr in a namespace of its own: %s (%d)",
	       outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);

	result = run_mount_attacker(OWN_NAMESPACE, true);
	TH_LOG("exec'd trusted.scr there, evil.scr mounted over it: %s (%d)",
	       outcome(result), result);
	EXPECT_EQ(RACE_EVIL_DENIED, result);
}

TEST_F_TIMEOUT(race, root_mounts_over_while_stopped_at_exec,
	       PFSEL_AUDIT_TEST_TIMEOUT)
{
	/* The refused open's record: the script's identity, what happened. */
	const char *const needles[] = { " op=open ", " refused=script-path ",
					" app=\"" INTERP "\" ",
					" script=\"" TRUSTED "\" ", NULL };
	const char *const fields[] = { " verdict=deny refused=script-path "
				       "permissive=0 policy=? ",
				       " uid=1001 ", NULL };
	int result, before;

	before = pfsel_audit_records(needles, NULL, 0);
	ASSERT_LE(0, before);
	/* Control: root's namespace, nothing mounted: the script, allowed. */
	result = run_mount_attacker(ROOTS_NAMESPACE, false);
	TH_LOG("exec'd trusted.scr in root's namespace: %s (%d)",
	       outcome(result), result);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, result);
	EXPECT_EQ(before, pfsel_audit_records(needles, NULL, 0));

	result = run_mount_attacker(ROOTS_NAMESPACE, true);
	TH_LOG("exec'd trusted.scr there, root mounted evil.scr over it: "
	       "%s (%d)", outcome(result), result);
	EXPECT_EQ(RACE_OPEN_DENIED, result);
	PFSEL_EXPECT_RECORD(before, needles, fields);
}

/* ---- (b) unassisted ------------------------------------------------------ */

/* One way of racing: how many tries, and the interpreter's statuses. */
struct race_tally {
	int tries;
	int moved; /* tries during which the flipper moved the link */
	int count[256];
};

struct race_shared {
	long long deadline;
	unsigned long flips; /* by the flipper, so far */
	int stop_flipper;
	struct race_tally timed, flipped;
};

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu >= get_nprocs())
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void count_status(struct race_tally *t, int status)
{
	status = WIFEXITED(status) ? WEXITSTATUS(status) :
				     128 + WTERMSIG(status);
	t->count[status & 255]++;
	t->tries++;
}

/* Wait for @pid, a child that cannot be stopped: its raw status. */
static int reap(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/*
 * pfuser1, timed by vfork(): exec the link to trusted.scr and repoint it
 * at evil.scr as soon as vfork() returns, that is, once the kernel has
 * committed to the exec (and pfsel has fixed the identity) and before the
 * interpreter runs.  With two CPUs the child runs on the other one, so
 * that the rename and the interpreter's start-up really run at once; with
 * one, the woken parent preempts the child.
 */
static void race_timed(struct race_shared *s, int tries)
{
	char *argv[] = { LINK, NULL };
	bool two_cpus = get_nprocs() > 1;
	cpu_set_t child_cpu;
	pid_t pid;

	pin(0);
	CPU_ZERO(&child_cpu);
	CPU_SET(1, &child_cpu);
	while (s->timed.tries < tries && pfsel_now_ms() < s->deadline) {
		pid = vfork();
		if (pid < 0)
			_exit(3);
		if (pid == 0) {
			if (two_cpus)
				sched_setaffinity(0, sizeof(child_cpu),
						  &child_cpu);
			execv(LINK, argv);
			_exit(127);
		}
		/* The link to evil.scr, and back once the try is over. */
		if (swap_links())
			_exit(4);
		count_status(&s->timed, reap(pid));
		if (swap_links())
			_exit(4);
	}
	_exit(0);
}

/*
 * pfuser1's flipper: points the link at each script in turn, until told.
 * On the test VM's two CPUs it has CPU 0 and the tries CPU 1: the link
 * moved 119,309 times in 5,000 tries, during 9 tries in 10.  On one CPU a
 * flipper at the runner's priority takes half of it; at nice 5 it takes a
 * quarter, and the link still moved during three tries in four (25,487
 * moves; at nice 10, fewer than one in two): the most raced tries a
 * second.
 */
static void flipper(struct race_shared *s, int unused)
{
	pin(0);
	setpriority(PRIO_PROCESS, 0, FLIPPER_NICE);
	while (!__atomic_load_n(&s->stop_flipper, __ATOMIC_RELAXED)) {
		swap_links();
		__atomic_fetch_add(&s->flips, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

/*
 * pfuser1, against the flipper: exec the link, whatever it points at, and
 * count the tries during which the flipper moved it.
 */
static void race_flipped(struct race_shared *s, int tries)
{
	char *argv[] = { LINK, NULL };
	unsigned long flips;
	pid_t pid;

	pin(1);
	while (s->flipped.tries < tries && pfsel_now_ms() < s->deadline) {
		flips = __atomic_load_n(&s->flips, __ATOMIC_RELAXED);
		pid = vfork();
		if (pid < 0)
			_exit(3);
		if (pid == 0) {
			execv(LINK, argv);
			_exit(127);
		}
		count_status(&s->flipped, reap(pid));
		if (__atomic_load_n(&s->flips, __ATOMIC_RELAXED) != flips)
			s->flipped.moved++;
	}
	_exit(0);
}

/* Run @fn(@s, @tries) in a child as pfuser1: the child's pid. */
static pid_t start_as_user(void (*fn)(struct race_shared *, int),
			   struct race_shared *s, int tries)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(s, tries);
	}
	return pid;
}

/* The race's four outcomes, and pfsel's refusal of the interpreter's open. */
static bool expected_outcome(int status)
{
	return status == RACE_TRUSTED_ALLOWED ||
	       status == RACE_TRUSTED_DENIED || status == RACE_EVIL_ALLOWED ||
	       status == RACE_EVIL_DENIED || status == RACE_OPEN_DENIED;
}

/* Log one way's tally: the number of tries with an unexpected outcome. */
static int log_tally(struct __test_metadata *const _metadata, const char *how,
		     const struct race_tally *t, long long ms)
{
	int status, unexpected = 0;

	TH_LOG("%s: %d tries in %lld ms (%.1f a second)", how, t->tries, ms,
	       t->tries * 1000.0 / (double)(ms > 0 ? ms : 1));
	for (status = 0; status < 256; status++) {
		if (expected_outcome(status)) {
			TH_LOG("  %5d  %s", t->count[status], outcome(status));
		} else if (t->count[status]) {
			TH_LOG("  %5d  %s (status %d)", t->count[status],
			       outcome(status), status);
			unexpected += t->count[status];
		}
	}
	return unexpected;
}

/* The tries in which the interpreter read evil.scr (or was refused it). */
static int read_evil(const struct race_tally *t)
{
	return t->count[RACE_EVIL_ALLOWED] + t->count[RACE_EVIL_DENIED] +
	       t->count[RACE_OPEN_DENIED];
}

TEST_F_TIMEOUT(race, unassisted_race_never_wins, RACE_BUDGET_MS / 1000 + 120)
{
	const int timed_tries = RACE_TRIES / 2;
	const int flipped_tries = RACE_TRIES - timed_tries;
	long long start, timed_ms, flipped_ms;
	struct race_shared *s;
	pid_t flip, run;
	int tries;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, s);
	memset(s, 0, sizeof(*s));
	start = pfsel_now_ms();
	s->deadline = start + RACE_BUDGET_MS;

	run = start_as_user(race_timed, s, timed_tries);
	ASSERT_LE(0, run);
	EXPECT_EQ(0, pfsel_wait_status(run));
	timed_ms = pfsel_now_ms() - start;

	flip = start_as_user(flipper, s, 0);
	ASSERT_LE(0, flip);
	run = start_as_user(race_flipped, s, flipped_tries);
	ASSERT_LE(0, run);
	EXPECT_EQ(0, pfsel_wait_status(run));
	__atomic_store_n(&s->stop_flipper, 1, __ATOMIC_RELAXED);
	EXPECT_EQ(0, pfsel_wait_status(flip));
	flipped_ms = pfsel_now_ms() - start - timed_ms;

	EXPECT_EQ(0, log_tally(_metadata, "timed by vfork()", &s->timed,
			       timed_ms));
	EXPECT_EQ(0, log_tally(_metadata, "against a flipper", &s->flipped,
			       flipped_ms));
	tries = s->timed.tries + s->flipped.tries;
	TH_LOG("%d tries of %d in %lld ms (%.1f a second)%s", tries, RACE_TRIES,
	       timed_ms + flipped_ms,
	       tries * 1000.0 / (double)(timed_ms + flipped_ms + 1),
	       tries < RACE_TRIES ? ": the time budget ended it" : "");

	EXPECT_EQ(0, s->timed.count[RACE_EVIL_ALLOWED] +
			     s->flipped.count[RACE_EVIL_ALLOWED])
	{
		TH_LOG("the evil script won the race %d times in %d",
		       s->timed.count[RACE_EVIL_ALLOWED] +
			       s->flipped.count[RACE_EVIL_ALLOWED],
		       tries);
	}
	EXPECT_EQ(RACE_TRIES, tries)
	{
		TH_LOG("only %d tries in the budget of %d s: at this rate "
		       "%d need %lld s",
		       tries, RACE_BUDGET_MS / 1000, RACE_TRIES,
		       (timed_ms + flipped_ms) * RACE_TRIES /
			       (1000LL * (tries ? tries : 1)));
	}
	/*
	 * The race was a race: timed, the interpreter read evil.scr where
	 * the kernel had executed trusted.scr, in most tries; against the
	 * flipper, the link moved during tries, and each script was read.
	 */
	TH_LOG("timed: the interpreter read evil.scr after the exec of "
	       "trusted.scr in %d of %d tries",
	       read_evil(&s->timed), s->timed.tries);
	TH_LOG("against the flipper: the link moved during %d of %d tries "
	       "(%lu moves)",
	       s->flipped.moved, s->flipped.tries, s->flips);
	EXPECT_LT(s->timed.tries / 2, read_evil(&s->timed));
	EXPECT_LT(s->flipped.tries / 4, s->flipped.moved);
	EXPECT_LT(0, read_evil(&s->flipped));
	EXPECT_LT(0, s->flipped.tries - read_evil(&s->flipped));
	munmap(s, sizeof(*s));
}

TEST_HARNESS_MAIN
