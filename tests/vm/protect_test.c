// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - protected applications (issue 12; policy/LANGUAGE.md,
 * "Protected applications").
 *
 * Root loads policies/protect_1001.pfw for pfuser1: its rule for
 * /usr/lib/pfsel/tests/protectee says "protect"; protectee-plain is the
 * same program under a name no rule protects, the control.  A program of
 * pfuser1 -- a child of this test that became uid 1001 -- plays malware
 * that wants to borrow protectee's rules by running its own code in it:
 *
 *   - start it with LD_PRELOAD: the library does not load (the process
 *     runs in secure-execution mode); with LD_LIBRARY_PATH naming a
 *     folder with a libc of its own: the system's libc is mapped;
 *   - have it dump core (SIGQUIT, with fs.suid_dumpable at 2): none;
 *   - attach with ptrace, open /proc/PID/mem for writing, write with
 *     process_vm_writev(), take a descriptor with pidfd_getfd(): refused;
 *   - start it traced (PTRACE_TRACEME), under a seccomp filter, or
 *     sharing its filesystem context: the execve() fails with EPERM.
 *
 * Each attack works against protectee-plain, and against protectee when
 * no policy protects it.  Root may still debug a protected application.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "pfsel_test_util.h"
#include "process_attacks.h"

#include "kselftest_harness.h"

#define PROTECTED PFSEL_TESTS_DIR "/protectee"
#define PLAIN PFSEL_TESTS_DIR "/protectee-plain"
#define PRELOAD PFSEL_TESTS_DIR "/preload.so"
/* The attacker's folder for LD_LIBRARY_PATH, with a libc of its own. */
#define LIBDIR "/tmp/pfsel-protect-lib"
#define OWN_LIBC LIBDIR "/libc.so.6"
/* Where core dumps go while a test asks for them (core_pattern). */
#define COREDIR "/tmp/pfsel-protect-cores"

/* What protectee reports about itself. */
struct report {
	int secure, dumpable, preloaded;
};

struct start {
	const char *path;
	bool preload; /* with LD_PRELOAD=preload.so */
	const char *library_path; /* LD_LIBRARY_PATH, or NULL */
	bool core; /* with RLIMIT_CORE unlimited, SIGQUIT's default action */
	int out; /* its standard output */
};

static int exec_protectee(void *arg)
{
	const struct start *s = arg;
	const struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	char *argv[] = { (char *)s->path, "wait", NULL };

	if (dup2(s->out, STDOUT_FILENO) < 0)
		return 125;
	if (s->preload && setenv("LD_PRELOAD", PRELOAD, 1))
		return 125;
	if (s->library_path && setenv("LD_LIBRARY_PATH", s->library_path, 1))
		return 125;
	/* SIGQUIT dumps core, even where the test's shell ignores it. */
	if (s->core && (setrlimit(RLIMIT_CORE, &unlimited) ||
			signal(SIGQUIT, SIG_DFL) == SIG_ERR))
		return 125;
	execv(argv[0], argv);
	return 127;
}

static void protectee_stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		pfsel_wait_status(pid);
	}
}

/*
 * Start @s->path as pfuser1 as @s says (waiting, so that it can be
 * attacked), its line read into @r: its pid, or -1.
 */
static pid_t protectee_launch(struct start *s, struct report *r)
{
	char line[128];
	int pipefd[2];
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	s->out = pipefd[1];
	pid = pfsel_start_as(PFSEL_UID1, exec_protectee, s);
	close(pipefd[1]);
	pid = pfsel_child_line(pid, pipefd[0], line, sizeof(line));
	if (pid > 0 && sscanf(line, "secure=%d dumpable=%d preloaded=%d",
			      &r->secure, &r->dumpable, &r->preloaded) != 3) {
		protectee_stop(pid);
		pid = -1;
	}
	return pid;
}

/* Start @path as pfuser1, with LD_PRELOAD when @preload: as above. */
static pid_t protectee_start(const char *path, bool preload, struct report *r)
{
	struct start s = { .path = path, .preload = preload };

	return protectee_launch(&s, r);
}

/* Whether a mapping of process @pid is the file @path (/proc/PID/maps). */
static bool maps_file(pid_t pid, const char *path)
{
	char maps[64], line[512];
	const size_t len = strlen(path);
	bool found = false;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *name = strchr(line, '/');

		found = name && !strncmp(name, path, len) && name[len] == '\n';
	}
	fclose(f);
	return found;
}

/* The file of this process's libc mapping, into @path: true when found. */
static bool own_libc(char *path, size_t size)
{
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *name = strchr(line, '/');

		if (name && strstr(name, "/libc.so.6\n")) {
			snprintf(path, size, "%.*s", (int)strcspn(name, "\n"),
				 name);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* How an execve() of @path ended for a child set up by @how. */
enum how { TRACED, SECCOMP, SHARED_FS };

static int exec_plainly(void *arg)
{
	char *argv[] = { arg, NULL };
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		return 125;
	execv(argv[0], argv);
	return errno;
}

/* Under an allow-all seccomp filter, as a sandbox or malware sets one. */
static int exec_under_seccomp(void *arg)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 124;
	return exec_plainly(arg);
}

static int exec_in_clone(void *arg)
{
	_exit(exec_plainly(arg));
}

/* In a child sharing this process's filesystem context (CLONE_FS). */
static int exec_sharing_fs(void *arg)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	pid_t pid;

	pid = clone(exec_in_clone, stack + sizeof(stack), CLONE_FS | SIGCHLD,
		    arg);
	if (pid < 0)
		return 124;
	return pfsel_wait_status(pid);
}

/*
 * Traced from the start: a child of pfuser1 asks its parent (this
 * process, as pfuser1 or root) to trace it.  0 when the execve() succeeded
 * (the tracee stopped at it), else its errno.
 */
static int exec_traced(void *arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 124;
	if (pid == 0) {
		if (pfsel_become(PFSEL_UID1) ||
		    ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(124);
		_exit(exec_plainly(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return 124;
	if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP) {
		kill(pid, SIGKILL);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		waitpid(pid, NULL, 0);
		return 0;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 124;
}

static int exec_as_user(enum how how, const char *path)
{
	static int (*const fns[])(void *) = {
		[TRACED] = exec_traced,
		[SECCOMP] = exec_under_seccomp,
		[SHARED_FS] = exec_sharing_fs,
	};

	return pfsel_run_as(PFSEL_UID1, fns[how], (void *)path);
}

FIXTURE(protect)
{
	pid_t pids[2];
};

FIXTURE_SETUP(protect)
{
	memset(self, 0, sizeof(*self));
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("protect_1001"));
}

FIXTURE_TEARDOWN(protect)
{
	if (geteuid() != 0)
		return;
	protectee_stop(self->pids[0]);
	protectee_stop(self->pids[1]);
	pfsel_reset();
}

/*
 * The protected application runs in secure-execution mode, not dumpable;
 * LD_PRELOAD does not get into it.  The same program under another name
 * is an ordinary process, and the library gets in.
 */
TEST_F(protect, runs_secure_and_ignores_preload)
{
	struct report r;

	self->pids[0] = protectee_start(PROTECTED, true, &r);
	ASSERT_LT(0, self->pids[0]);
	EXPECT_EQ(1, r.secure);
	EXPECT_EQ(0, r.dumpable);
	EXPECT_EQ(0, r.preloaded);

	self->pids[1] = protectee_start(PLAIN, true, &r);
	ASSERT_LT(0, self->pids[1]);
	EXPECT_EQ(0, r.secure);
	EXPECT_EQ(1, r.dumpable);
	EXPECT_EQ(1, r.preloaded);
}

/*
 * LD_LIBRARY_PATH names a folder with a libc of the attacker's (here a
 * copy of the system's, at another path): the protected application maps
 * the system's libc, and not the copy; the same program under another
 * name maps the copy (the control: the loader honours the variable).
 */
TEST_F(protect, ignores_library_path)
{
	char libc[PATH_MAX];
	struct start s = { .library_path = LIBDIR };
	struct report r;

	ASSERT_TRUE(own_libc(libc, sizeof(libc)));
	ASSERT_EQ(0, system("rm -rf " LIBDIR " && mkdir -m 755 " LIBDIR));
	ASSERT_EQ(0, pfsel_copy_file(libc, OWN_LIBC, 0755));

	s.path = PROTECTED;
	self->pids[0] = protectee_launch(&s, &r);
	ASSERT_LT(0, self->pids[0]);
	EXPECT_EQ(1, r.secure);
	EXPECT_FALSE(maps_file(self->pids[0], OWN_LIBC));
	EXPECT_TRUE(maps_file(self->pids[0], libc))
	{
		TH_LOG("the protected application maps no %s", libc);
	}

	s.path = PLAIN;
	self->pids[1] = protectee_launch(&s, &r);
	ASSERT_LT(0, self->pids[1]);
	EXPECT_EQ(0, r.secure);
	EXPECT_TRUE(maps_file(self->pids[1], OWN_LIBC));
	EXPECT_FALSE(maps_file(self->pids[1], libc));
	system("rm -rf " LIBDIR);
}

/*
 * Start @path as pfuser1, allowed to dump core, and make it (SIGQUIT):
 * whether the kernel says it dumped core (WCOREDUMP), and the size of
 * its core file in COREDIR (-1: none).
 */
static void dump_core(struct __test_metadata *const _metadata,
		      const char *path, bool *dumped, long long *size)
{
	struct start s = { .path = path, .core = true };
	char core[PATH_MAX];
	struct report r;
	struct stat st;
	int status = 0;
	const pid_t pid = protectee_launch(&s, &r);
	const long long t0 = pfsel_now_ms();

	*dumped = false;
	*size = -1;
	ASSERT_LT(0, pid);
	kill(pid, SIGQUIT);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	*dumped = WIFSIGNALED(status) && WCOREDUMP(status);
	snprintf(core, sizeof(core), COREDIR "/core.%d", (int)pid);
	if (!stat(core, &st))
		*size = (long long)st.st_size;
	TH_LOG("%s: %s, core file %lld bytes, in %lld ms", path,
	       *dumped ? "dumped core" : "no core dump", *size,
	       pfsel_now_ms() - t0);
}

/*
 * A protected application leaves no core dump, even with fs.suid_dumpable
 * at 2 (which dumps other processes that are not dumpable, readable by
 * root): its memory would be in the file.  The control: the same program
 * under another name dumps core there.
 */
TEST_F_TIMEOUT(protect, leaves_no_core_dump, 120)
{
	char pattern[256], suid[16];
	long long size;
	bool dumped;

	ASSERT_LT(0, pfsel_read_file("/proc/sys/kernel/core_pattern", pattern,
				     sizeof(pattern)));
	ASSERT_LT(0, pfsel_read_file("/proc/sys/fs/suid_dumpable", suid,
				     sizeof(suid)));
	ASSERT_EQ(0, system("rm -rf " COREDIR " && mkdir -m 1777 " COREDIR));
	ASSERT_EQ(0, pfsel_write_file("/proc/sys/kernel/core_pattern",
				      COREDIR "/core.%p"));
	ASSERT_EQ(0, pfsel_write_file("/proc/sys/fs/suid_dumpable", "2"));

	dump_core(_metadata, PROTECTED, &dumped, &size);
	EXPECT_FALSE(dumped);
	EXPECT_EQ(-1, size);
	dump_core(_metadata, PLAIN, &dumped, &size);
	EXPECT_TRUE(dumped);
	EXPECT_LT(0, size);

	/* fs.suid_dumpable first: 2 wants an absolute core_pattern. */
	pfsel_write_file("/proc/sys/fs/suid_dumpable", suid);
	pfsel_write_file("/proc/sys/kernel/core_pattern", pattern);
	system("rm -rf " COREDIR);
}

/* The attacks on a running process: refused for the protected one. */
TEST_F(protect, memory_and_descriptors_are_protected)
{
	struct attack_vm vm;
	struct report r;
	pid_t prot, plain;

	prot = self->pids[0] = protectee_start(PROTECTED, false, &r);
	plain = self->pids[1] = protectee_start(PLAIN, false, &r);
	ASSERT_LT(0, prot);
	ASSERT_LT(0, plain);

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_ptrace,
				      (void *)(intptr_t)prot));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_ptrace,
				  (void *)(intptr_t)plain));
	EXPECT_EQ(EACCES, pfsel_run_as(PFSEL_UID1, attack_mem,
				       (void *)(intptr_t)prot));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_mem,
				  (void *)(intptr_t)plain));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_getfd,
				      (void *)(intptr_t)prot));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_getfd,
				  (void *)(intptr_t)plain));

	vm.pid = plain;
	vm.addr = stack_of(plain);
	ASSERT_NE(0UL, vm.addr);
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_vm_writev, &vm));
	vm.pid = prot;
	vm.addr = stack_of(prot);
	ASSERT_NE(0UL, vm.addr);
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_vm_writev, &vm));
}

/*
 * What a caller holds over a process across execve() -- a tracer, a
 * seccomp filter (whose supervisor could hand the program a library of
 * its choosing), a shared filesystem context -- makes the execve() of a
 * protected application fail; the control starts.
 */
TEST_F(protect, exec_under_control_is_refused)
{
	EXPECT_EQ(EPERM, exec_as_user(TRACED, PROTECTED));
	EXPECT_EQ(0, exec_as_user(TRACED, PLAIN));
	EXPECT_EQ(EPERM, exec_as_user(SECCOMP, PROTECTED));
	EXPECT_EQ(0, exec_as_user(SECCOMP, PLAIN));
	EXPECT_EQ(EPERM, exec_as_user(SHARED_FS, PROTECTED));
	EXPECT_EQ(0, exec_as_user(SHARED_FS, PLAIN));
	/* Run plainly, it starts. */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, exec_plainly, PROTECTED));
}

/*
 * Each refused start has its record: an exec, refused= what the caller
 * held over the new process, the protected application, the policy that
 * protects it.  The same starts of protectee-plain, which nothing
 * protects, make none (the control).
 */
TEST_F_TIMEOUT(protect, exec_refusals_are_audited, PFSEL_AUDIT_TEST_TIMEOUT)
{
	static const struct {
		enum how how;
		const char *refused;
	} cases[] = {
		{ TRACED, " refused=traced " },
		{ SECCOMP, " refused=seccomp " },
		{ SHARED_FS, " refused=shared-fs " },
	};
	const char *const plain[] = { " op=exec ", " app=\"" PLAIN "\" ",
				      NULL };
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const needles[] = { " op=exec ", cases[i].refused,
						" app=\"" PROTECTED "\" ",
						NULL };
		const char *const fields[] = {
			" op=exec ",	     " verdict=deny ",
			cases[i].refused,    " permissive=0 ",
			" policy=user ",     " app=\"" PROTECTED "\" ",
			" script=? ",	     " uid=1001 ",
			NULL,
		};
		int before;

		before = pfsel_audit_records(needles, NULL, 0);
		ASSERT_LE(0, before);
		EXPECT_EQ(EPERM, exec_as_user(cases[i].how, PROTECTED));
		PFSEL_EXPECT_RECORD(before, needles, fields);

		before = pfsel_audit_records(plain, NULL, 0);
		EXPECT_EQ(0, exec_as_user(cases[i].how, PLAIN));
		EXPECT_EQ(before, pfsel_audit_records(plain, NULL, 0));
	}
}

/*
 * Root attaches to a process of pfuser1 before it starts @path (a child
 * stopped ahead of its execve()), as `sudo gdb -p PID` or `sudo strace -p
 * PID` would: 0 when the execve() succeeded under root's eye, else its
 * errno.  (A tracee that asked for its tracer with PTRACE_TRACEME records
 * its own credentials as the tracer's: that is pfuser1 tracing, not root.)
 */
static int exec_attached_by_root(const char *path)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 124;
	if (pid == 0) {
		if (pfsel_become(PFSEL_UID1) || raise(SIGSTOP))
			_exit(124);
		_exit(exec_plainly((void *)path));
	}
	if (waitpid(pid, &status, WUNTRACED) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SEIZE, pid, NULL, (void *)PTRACE_O_TRACEEXEC) ||
	    kill(pid, SIGCONT)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 124;
	}
	while (waitpid(pid, &status, __WALL) == pid) {
		if (!WIFSTOPPED(status))
			return WIFEXITED(status) ? WEXITSTATUS(status) : 124;
		if (status >> 8 == (SIGTRAP | PTRACE_EVENT_EXEC << 8)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, __WALL);
			return 0;
		}
		/* A signal (SIGCONT) or group stop: let it go on. */
		ptrace(PTRACE_CONT, pid, NULL,
		       (void *)(intptr_t)(WSTOPSIG(status) == SIGCONT ?
						  SIGCONT : 0));
	}
	return 124;
}

/*
 * The person may still debug it as root (CAP_SYS_PTRACE): attach to it
 * running, and to the process about to start it.
 */
TEST_F(protect, root_may_debug)
{
	struct report r;

	self->pids[0] = protectee_start(PROTECTED, false, &r);
	ASSERT_LT(0, self->pids[0]);
	EXPECT_EQ(0, attack_ptrace((void *)(intptr_t)self->pids[0]));
	EXPECT_EQ(0, exec_attached_by_root(PROTECTED));
	/* The same, with pfuser1 as the tracer: refused (above). */
	EXPECT_EQ(EPERM, exec_as_user(TRACED, PROTECTED));
}

/*
 * The protection is the policy's: with the policy unloaded, the same
 * program is an ordinary process again at its next start.
 */
TEST_F(protect, protection_comes_from_the_policy)
{
	struct report r;

	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	self->pids[0] = protectee_start(PROTECTED, true, &r);
	ASSERT_LT(0, self->pids[0]);
	EXPECT_EQ(0, r.secure);
	EXPECT_EQ(1, r.dumpable);
	EXPECT_EQ(1, r.preloaded);
	EXPECT_EQ(0, exec_as_user(TRACED, PROTECTED));
}

TEST_HARNESS_MAIN
