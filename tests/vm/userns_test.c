// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - what user namespaces, and what they open to an
 * unprivileged user, do to an application's identity and to process
 * access (issue 14, item 2; policy/LANGUAGE.md, sections 5 and 7,
 * "Network namespaces"; docs/THREAT-MODEL.md, section 2).
 *
 * Root loads policies/userns_1001.pfw for pfuser1: netprobe, where it is
 * installed, may connect to 127.0.0.1:5711; nothing else may (every
 * program may create sockets, so that the connect is what is refused).
 * The attacker is a program of pfuser1 -- a child of this test that
 * became uid 1001 and takes a user namespace of its own, where it is
 * root, as `unshare -Ur` does -- with a denied program of its own: a copy
 * of netprobe with one byte of its ELF header's padding changed (no
 * loader reads it; binfmt_misc tells the two apart by it).  It tries to
 * make the denied program run as netprobe:
 *
 *   - bind-mount it over netprobe's path (user + mount namespace);
 *   - an overlay over netprobe's folder whose top layer holds it under
 *     netprobe's name;
 *   - a FUSE file system over that folder, served by a raw /dev/fuse
 *     server in the test itself, whose "netprobe" is the denied program;
 *   - binfmt_misc handlers of its user namespace, without flags and with
 *     "O" and "C", that run the denied program as the interpreter of
 *     netprobe: the identity is the interpreter that runs;
 *   - a network namespace of its own (`unshare -rn`): requests there are
 *     decided as anywhere, the denied program's connect to a listener on
 *     that namespace's loopback is refused, and the caps the namespace
 *     gives do not widen the policy (LANGUAGE.md, "Network namespaces").
 *
 * Each attack must fail: the denied program's connect gets EACCES.  The
 * honest path works: netprobe itself connects, also from a user, mount
 * or network namespace of the user's own.
 *
 * Process access, with Yama at Debian's setting (ptrace_scope 0, which
 * lets a process attach to any other of its user): a denied program of
 * pfuser1 attaches with PTRACE_ATTACH and PTRACE_SEIZE to a running
 * allowed application, and writes into it with process_vm_writev().
 * Refused for protectee, which the policy marks "protect";
 * protectee-plain, the same program allowed the same connection but not
 * marked, is open to all of it, as THREAT-MODEL.md says ("Not
 * defended").  From a user namespace of its own the attacker gets
 * neither (Linux's capability rules: see attack_all()).  Nor does it get
 * into protectee when it started protectee in that namespace itself,
 * where it holds CAP_SYS_PTRACE (issue 27, item 3); it gets into
 * protectee-plain.
 *
 * Needs root (the policy, the files, /dev/fuse's mode): as anyone else
 * every test is skipped.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "fuse_server.h"
#include "pfsel_test_util.h"
#include "process_attacks.h"

#include "kselftest_harness.h"

#define NETPROBE PFSEL_NETPROBE
#define TESTS_DIR PFSEL_TESTS_DIR
#define PROTECTED TESTS_DIR "/protectee"
#define PLAIN TESTS_DIR "/protectee-plain"

/* Root's folder for the attacker's files and mount points. */
#define WORK "/tmp/pfsel-userns"
#define COPY WORK "/netprobe-copy" /* the denied program */
#define EVIL WORK "/evil" /* an overlay layer: COPY as "netprobe" */
#define EMPTY WORK "/empty" /* an overlay layer with nothing in it */
#define BINFMT WORK "/binfmt" /* where binfmt_misc is mounted */

#define PORT 5711
#define PORT_TEXT "5711"

/* e_ident's last padding byte, and what COPY has there (netprobe: 0). */
#define PAD_AT 15
#define PAD_MARK 'p'

/* A child's status when it could not set its attack up (it says why). */
#define SETUP_FAILED 124

/* ---- Files ------------------------------------------------------------- */

/* Read a whole file into a malloc()ed buffer: its size, or -errno. */
static ssize_t slurp(const char *path, char **data)
{
	struct stat st;
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= PAD_AT) {
		close(fd);
		return -EINVAL;
	}
	*data = malloc((size_t)st.st_size);
	len = *data ? read(fd, *data, (size_t)st.st_size) : -1;
	close(fd);
	if (len != st.st_size) {
		free(*data);
		return -EIO;
	}
	return len;
}

/* The attacker's files, made by root in a folder only root can write. */
static int prepare_files(void)
{
	char *data;
	ssize_t len;
	int err;

	if (system("rm -rf " WORK) || mkdir(WORK, 0755) || mkdir(EVIL, 0755) ||
	    mkdir(EMPTY, 0755) || mkdir(BINFMT, 0755))
		return -errno;
	len = slurp(NETPROBE, &data);
	if (len < 0)
		return (int)len;
	if (data[PAD_AT] == PAD_MARK) {
		free(data);
		return -EINVAL;
	}
	data[PAD_AT] = PAD_MARK;
	err = pfsel_create_bytes(COPY, data, (size_t)len, 0755);
	if (!err)
		err = pfsel_create_bytes(EVIL "/netprobe", data, (size_t)len,
					 0755);
	free(data);
	return err;
}

/* Whether @path holds the denied program (1), netprobe (0), or -errno. */
static int is_copy(const char *path)
{
	char head[PAD_AT + 1];
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	len = read(fd, head, sizeof(head));
	close(fd);
	if (len != (ssize_t)sizeof(head))
		return -EIO;
	return head[PAD_AT] == PAD_MARK;
}

/* ---- The attacker ------------------------------------------------------ */

#define FAIL_SETUP(what)                                       \
	do {                                                   \
		fprintf(stderr, "userns_test: %s: %s\n", what, \
			strerror(errno));                      \
		return SETUP_FAILED;                           \
	} while (0)

/*
 * Run @exe with "OP inet 127.0.0.1 PORT" (netprobe's arguments): its
 * status, the errno of its request; 127 when the exec failed.
 */
static int run_probe(const char *exe, const char *op, const char *port)
{
	char *argv[] = { (char *)exe, (char *)op,   "inet",
			 "127.0.0.1", (char *)port, NULL };
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pfsel_wait_status(pid);
}

static int connect_allowed_port(const char *exe)
{
	return run_probe(exe, "connect", PORT_TEXT);
}

/* Run @fn as the attacker, pfuser1: its status (pfsel_run_as()). */
static int attacker(int (*fn)(void *), const void *arg)
{
	return pfsel_run_as(PFSEL_UID1, fn, (void *)arg);
}

/* ---- Honest paths and bind mounts ------------------------------------- */

/* Run @arg (an executable) plainly: the control outside any namespace. */
static int plainly(void *arg)
{
	return connect_allowed_port(arg);
}

/* Run @arg in a user and mount namespace of one's own, nothing mounted. */
static int in_own_userns(void *arg)
{
	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	return connect_allowed_port(arg);
}

/* Bind-mount the denied program over netprobe, then run netprobe's path. */
static int bind_mount_over(void *arg)
{
	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	if (mount(COPY, NETPROBE, NULL, MS_BIND, NULL))
		FAIL_SETUP("bind mount");
	if (is_copy(NETPROBE) != 1)
		FAIL_SETUP("the bind mount is not in place");
	return connect_allowed_port(NETPROBE);
}

/* ---- Overlays ---------------------------------------------------------- */

/*
 * A read-only overlay over netprobe's folder: the layer @arg (EVIL or
 * EMPTY) over the folder itself; then run netprobe's path.
 */
static int overlay_over(void *arg)
{
	const char *top = arg;
	char options[256];

	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	snprintf(options, sizeof(options), "lowerdir=%s:%s", top, TESTS_DIR);
	if (mount("overlay", TESTS_DIR, "overlay", MS_RDONLY, options))
		FAIL_SETUP("overlay mount");
	if (is_copy(NETPROBE) != (strcmp(top, EVIL) == 0))
		FAIL_SETUP("the overlay shows the wrong file");
	return connect_allowed_port(NETPROBE);
}

/* ---- FUSE -------------------------------------------------------------- */

/*
 * Mount a FUSE file system over netprobe's folder whose "netprobe" is the
 * denied program, served by a child; then run netprobe's path.
 */
static int fuse_over(void *unused)
{
	struct fuse_file file = { .name = "netprobe", .mode = 0755 };
	char *data;
	pid_t server;
	ssize_t size;
	int status;

	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	size = slurp(COPY, &data);
	if (size < 0) {
		errno = (int)-size;
		FAIL_SETUP(COPY);
	}
	file.data = data;
	file.size = (size_t)size;
	server = fuse_server_start("pfsel-test", TESTS_DIR, &file);
	if (server < 0)
		FAIL_SETUP("FUSE server");
	if (is_copy(NETPROBE) != 1) {
		fuse_server_stop(server);
		FAIL_SETUP("the FUSE file is not the denied program");
	}
	status = connect_allowed_port(NETPROBE);
	fuse_server_stop(server);
	return status;
}

/* ---- binfmt_misc ------------------------------------------------------- */

struct binfmt_case {
	const char *matched; /* the file the handler matches, executed */
	const char *interpreter; /* the handler's interpreter */
	const char *flags; /* "", "O", "C" */
};

/*
 * Mount binfmt_misc in a user and mount namespace of one's own, register
 * a handler that runs @arg's interpreter for files whose ELF header is
 * the matched file's (first 16 bytes: netprobe and the denied program
 * differ in the last), then execute the matched file.
 */
static int binfmt_handler(void *arg)
{
	const struct binfmt_case *c = arg;
	char head[PAD_AT + 1], magic[4 * sizeof(head) + 1], rule[512];
	size_t i;
	int fd;

	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	fd = open(c->matched, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, head, sizeof(head)) != (ssize_t)sizeof(head))
		FAIL_SETUP(c->matched);
	close(fd);
	for (i = 0; i < sizeof(head); i++)
		snprintf(magic + 4 * i, 5, "\\x%02x", (unsigned char)head[i]);
	if (mount("binfmt_misc", BINFMT, "binfmt_misc", 0, NULL))
		FAIL_SETUP("binfmt_misc mount");
	snprintf(rule, sizeof(rule), ":pfsel-test:M:0:%s::%s:%s", magic,
		 c->interpreter, c->flags);
	errno = pfsel_write_file(BINFMT "/register", rule);
	if (errno)
		FAIL_SETUP("binfmt_misc register");
	return connect_allowed_port(c->matched);
}

/* ---- Network namespaces ------------------------------------------------ */

/* What to do in the network namespace: netprobe's arguments, or raw. */
struct netns_case {
	const char *exe; /* NULL: create a raw ICMP socket itself */
	const char *op;
	const char *port;
};

static int netns_request(const struct netns_case *c)
{
	int fd;

	if (c->exe)
		return run_probe(c->exe, c->op, c->port);
	/* Root of its namespaces, it has CAP_NET_RAW there. */
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * @c's request as pfuser1 in a user and network namespace of its own
 * (`unshare -rn`), loopback up, where root (entering that namespace) has
 * a listener on 127.0.0.1:PORT: its status.
 */
static int in_own_netns(const struct netns_case *c)
{
	int ready[2], go[2], done[2] = { -1, -1 }, status;
	pid_t child, helper = -1;
	char byte, path[64];

	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		close(ready[0]);
		close(go[1]);
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		errno = pfsel_enter_userns(CLONE_NEWNET);
		if (!errno)
			errno = pfsel_loopback_up();
		if (errno) {
			fprintf(stderr, "userns_test: netns: %s\n",
				strerror(errno));
			_exit(SETUP_FAILED);
		}
		if (write(ready[1], "r", 1) != 1 || read(go[0], &byte, 1) != 1)
			_exit(SETUP_FAILED);
		_exit(netns_request(c));
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &byte, 1) == 1 && !pipe2(done, O_CLOEXEC))
		helper = fork();
	if (helper == 0) {
		int fd, listener;

		close(done[1]);
		snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)child);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET))
			_exit(1);
		listener = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT);
		if (listener < 0 || write(go[1], "g", 1) != 1)
			_exit(1);
		/* Listen until the parent is done. */
		if (read(done[0], &byte, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[1]);
	close(ready[0]);
	if (done[0] >= 0)
		close(done[0]);
	status = pfsel_wait_status(child);
	if (done[1] >= 0)
		close(done[1]);
	if (helper > 0)
		pfsel_wait_status(helper);
	return status;
}

/* ---- Process access ---------------------------------------------------- */

/*
 * Start @path, waiting, as pfuser1 (@become) or as this process is: its
 * pid (its line in @line), or -1.
 */
static pid_t start_waiting(const char *path, char *line, size_t size,
			   bool become)
{
	char *argv[] = { (char *)path, "wait", NULL };
	int out[2];
	pid_t pid;

	if (pipe2(out, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		if ((become && pfsel_become(PFSEL_UID1)) ||
		    dup2(out[1], STDOUT_FILENO) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	return pfsel_child_line(pid, out[0], line, size);
}

/* Start @path as pfuser1, waiting: its pid (its line in @line), or -1. */
static pid_t target_start(const char *path, char *line, size_t size)
{
	return start_waiting(path, line, size, true);
}

static void target_stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		pfsel_wait_status(pid);
	}
}

/* ptrace(PTRACE_SEIZE) the pid in @arg (the tracer's exit detaches). */
static int attack_seize(void *arg)
{
	if (ptrace(PTRACE_SEIZE, (pid_t)(intptr_t)arg, NULL, NULL))
		return errno;
	return 0;
}

/* An attack made from a user namespace of the attacker's own. */
struct from_userns {
	int (*attack)(void *);
	void *arg;
};

static int attack_from_userns(void *arg)
{
	const struct from_userns *a = arg;

	if (pfsel_enter_userns(0))
		FAIL_SETUP("user namespace");
	return a->attack(a->arg);
}

/*
 * The other way round: the attacker starts the application itself in a
 * user namespace of its own, where it is root (no mount namespace, so the
 * application is the same, with the same rules), and attacks it from
 * there.  The mm of a process belongs to the user namespace that ran its
 * execve(), and Linux lets CAP_SYS_PTRACE over that namespace past a
 * process that is not dumpable; pfsel gives a protected application's mm
 * to the initial namespace.
 */
enum ns_attack { NS_PTRACE, NS_SEIZE, NS_MEM, NS_VM_WRITEV, NS_ATTACKS };

static const char *const ns_attack_names[] = {
	[NS_PTRACE] = "PTRACE_ATTACH",
	[NS_SEIZE] = "PTRACE_SEIZE",
	[NS_MEM] = "/proc/PID/mem",
	[NS_VM_WRITEV] = "process_vm_writev()",
};

struct started_in_userns {
	const char *path;
	const char *line; /* what it must say of itself */
	enum ns_attack attack;
};

/* As pfuser1: the attack's errno, 0 when it got in. */
static int attack_started_in_userns(void *arg)
{
	const struct started_in_userns *a = arg;
	struct attack_vm vm;
	char line[128];
	pid_t pid;
	int ret;

	if (pfsel_enter_userns(0))
		FAIL_SETUP("user namespace");
	pid = start_waiting(a->path, line, sizeof(line), false);
	if (pid < 0)
		FAIL_SETUP("start in the user namespace");
	if (strcmp(line, a->line)) {
		fprintf(stderr, "userns_test: %s says %s", a->path, line);
		target_stop(pid);
		return SETUP_FAILED;
	}
	switch (a->attack) {
	case NS_PTRACE:
		ret = attack_ptrace((void *)(intptr_t)pid);
		break;
	case NS_SEIZE:
		ret = attack_seize((void *)(intptr_t)pid);
		break;
	case NS_MEM:
		ret = attack_mem((void *)(intptr_t)pid);
		break;
	default:
		/*
		 * The stack as the attacker reads it from /proc/PID/maps: a
		 * process it may not read, it may not write either, and
		 * process_vm_writev() fails before it looks at the address.
		 */
		vm.pid = pid;
		vm.addr = stack_of(pid) ?: 4096;
		ret = attack_vm_writev(&vm);
		break;
	}
	target_stop(pid);
	return ret;
}

/*
 * Each attack on @pid by pfuser1: @expected.  And from a user namespace
 * of pfuser1's own, where it holds every capability: EPERM, whatever
 * the target, since the capability module lets a process of one user
 * namespace trace one of another only with CAP_SYS_PTRACE over the
 * target's (cap_ptrace_access_check()).
 */
static void attack_all(struct __test_metadata *const _metadata, pid_t pid,
		       int expected)
{
	struct attack_vm vm = { .pid = pid, .addr = stack_of(pid) };
	int (*const attacks[])(void *) = { attack_ptrace, attack_seize,
					   attack_vm_writev };
	void *const args[] = { (void *)(intptr_t)pid, (void *)(intptr_t)pid,
			       &vm };
	struct from_userns from;
	size_t i;

	ASSERT_NE(0UL, vm.addr);
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		TH_LOG("attack %zu on %d", i, (int)pid);
		EXPECT_EQ(expected, attacker(attacks[i], args[i]));
		from.attack = attacks[i];
		from.arg = args[i];
		EXPECT_EQ(EPERM, attacker(attack_from_userns, &from));
	}
}

/* ---- The tests --------------------------------------------------------- */

FIXTURE(userns)
{
	int peer;
	mode_t fuse_mode;
	bool fuse_changed;
	pid_t targets[2];
};

FIXTURE_SETUP(userns)
{
	struct stat st;

	self->peer = -1;
	self->fuse_changed = false;
	self->targets[0] = self->targets[1] = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and the files need root");
	pfsel_reset();
	ASSERT_EQ(0, prepare_files());
	/* As Debian's udev makes it: any user may mount a FUSE file system. */
	if (stat("/dev/fuse", &st) == 0) {
		self->fuse_mode = st.st_mode & 07777;
		self->fuse_changed = true;
		ASSERT_EQ(0, chmod("/dev/fuse", 0666));
	}
	ASSERT_EQ(0, pfsel_load("userns_1001"));
	self->peer = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT);
	ASSERT_LE(0, self->peer);
}

FIXTURE_TEARDOWN(userns)
{
	if (geteuid() != 0)
		return;
	target_stop(self->targets[0]);
	target_stop(self->targets[1]);
	if (self->peer >= 0)
		close(self->peer);
	if (self->fuse_changed)
		chmod("/dev/fuse", self->fuse_mode);
	pfsel_reset();
	system("rm -rf " WORK);
}

/*
 * The policy as written: netprobe connects, the denied program (which
 * runs: it gets EACCES, not 127) does not; netprobe still connects from a
 * user and mount namespace of the user's own.
 */
TEST_F_TIMEOUT(userns, allowed_path_works, 120)
{
	EXPECT_EQ(0, attacker(plainly, NETPROBE));
	EXPECT_EQ(EACCES, attacker(plainly, COPY));
	EXPECT_EQ(0, attacker(in_own_userns, NETPROBE));
	EXPECT_EQ(EACCES, attacker(in_own_userns, COPY));
}

/*
 * `unshare -Urm` and a bind mount of the denied program over netprobe:
 * the path no longer names, from init's root, the file executed, so the
 * program is unnamed (LANGUAGE.md, section 5).
 */
TEST_F_TIMEOUT(userns, bind_mount_over_allowed_path, 120)
{
	EXPECT_EQ(EACCES, attacker(bind_mount_over, NULL));
}

/*
 * An overlay over netprobe's folder with the denied program on top under
 * netprobe's name: unnamed.  A file seen through an overlay is the
 * overlay's, never the file init sees at that path, so even netprobe
 * itself, shown unchanged through one, is unnamed: fail-closed.
 */
TEST_F_TIMEOUT(userns, overlay_over_allowed_dir, 120)
{
	EXPECT_EQ(EACCES, attacker(overlay_over, EVIL));
	EXPECT_EQ(EACCES, attacker(overlay_over, EMPTY));
}

/* A FUSE file system over netprobe's folder serving the denied program. */
TEST_F_TIMEOUT(userns, fuse_file_at_allowed_path, 120)
{
	EXPECT_EQ(EACCES, attacker(fuse_over, NULL));
}

/*
 * binfmt_misc handlers of the attacker's user namespace.  Executing
 * netprobe runs the denied program as its interpreter, with the file
 * named (no flag), with the file passed open ("O"), and with the
 * credentials computed from netprobe ("C"): the identity is the
 * interpreter that runs, and it is refused.  The other way round,
 * executing the denied program runs netprobe, whose code runs and whose
 * rules apply: allowed, as for any "#!" script of an allowed interpreter.
 */
TEST_F_TIMEOUT(userns, binfmt_misc_identity_is_the_interpreter, 180)
{
	static const char *const flags[] = { "", "O", "C" };
	struct binfmt_case c;
	size_t i;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		TH_LOG("binfmt_misc flags '%s'", flags[i]);
		c = (struct binfmt_case){ NETPROBE, COPY, flags[i] };
		EXPECT_EQ(EACCES, attacker(binfmt_handler, &c));
		c = (struct binfmt_case){ COPY, NETPROBE, flags[i] };
		EXPECT_EQ(0, attacker(binfmt_handler, &c));
	}
}

/*
 * `unshare -rn`: in a network namespace of its own, a request is decided
 * as anywhere (LANGUAGE.md, "Network namespaces"): netprobe reaches the
 * listener on that namespace's loopback; the denied program neither
 * connects to it nor binds a listener of its own there; and CAP_NET_RAW,
 * which the namespace gives, does not get a raw socket past the policy.
 */
TEST_F_TIMEOUT(userns, own_network_namespace, 120)
{
	static const struct netns_case allowed = { NETPROBE, "connect",
						   PORT_TEXT },
				       denied = { COPY, "connect", PORT_TEXT },
				       listen_own = { COPY, "bind", "5712" },
				       raw = { NULL, NULL, NULL };

	EXPECT_EQ(0, in_own_netns(&allowed));
	EXPECT_EQ(EACCES, in_own_netns(&denied));
	EXPECT_EQ(EACCES, in_own_netns(&listen_own));
	EXPECT_EQ(EACCES, in_own_netns(&raw));
}

/*
 * Yama at Debian's ptrace_scope 0, and a running allowed application of
 * pfuser1.  Protected: PTRACE_ATTACH, PTRACE_SEIZE and process_vm_writev()
 * by a denied program of pfuser1 are refused.  Not protected: each works,
 * as the threat model says ("Not defended").  From a user namespace of
 * the attacker's own, Linux refuses each against either.
 */
TEST_F_TIMEOUT(userns, process_access_with_yama, 180)
{
	char scope[16], line[128];

	ASSERT_LT(0, pfsel_read_file("/proc/sys/kernel/yama/ptrace_scope",
				     scope, sizeof(scope)));
	ASSERT_STREQ("0\n", scope);

	self->targets[0] = target_start(PROTECTED, line, sizeof(line));
	ASSERT_LT(0, self->targets[0]);
	EXPECT_STREQ("secure=1 dumpable=0 preloaded=0\n", line);
	self->targets[1] = target_start(PLAIN, line, sizeof(line));
	ASSERT_LT(0, self->targets[1]);
	EXPECT_STREQ("secure=0 dumpable=1 preloaded=0\n", line);

	attack_all(_metadata, self->targets[0], EPERM);
	attack_all(_metadata, self->targets[1], 0);
}

/*
 * Protection follows the process (issue 27, item 3): pfuser1 makes a
 * user namespace of its own, maps itself to 0 there, starts protectee in
 * it -- protected, secure-execution mode and not dumpable, as anywhere --
 * and, root of that namespace, attaches with PTRACE_ATTACH and
 * PTRACE_SEIZE, opens /proc/PID/mem for writing and writes with
 * process_vm_writev(): each is refused.  The control: protectee-plain,
 * started and attacked the same way, lets each in.  (Before pfsel gave
 * the mm to the initial namespace, each got into protectee too.)
 */
TEST_F_TIMEOUT(userns, protected_started_in_own_userns, 180)
{
	static const int refused[] = {
		[NS_PTRACE] = EPERM,
		[NS_SEIZE] = EPERM,
		[NS_MEM] = EACCES,
		[NS_VM_WRITEV] = EPERM,
	};
	struct started_in_userns a;
	int i;

	for (i = 0; i < NS_ATTACKS; i++) {
		TH_LOG("%s from the user namespace that started it",
		       ns_attack_names[i]);
		a = (struct started_in_userns){
			PROTECTED, "secure=1 dumpable=0 preloaded=0\n", i
		};
		EXPECT_EQ(refused[i], attacker(attack_started_in_userns, &a));
		a = (struct started_in_userns){
			PLAIN, "secure=0 dumpable=1 preloaded=0\n", i
		};
		EXPECT_EQ(0, attacker(attack_started_in_userns, &a));
	}
}

/* ---- The loader's files, of one's own -------------------------------- */

#define PRELOAD TESTS_DIR "/preload.so"

/* What starting a protectee said of itself (the exit status's meaning). */
enum { RAN_PRELOADED = 0, RAN_CLEAN = 1 };

static int exec_plainly(void *arg)
{
	char *argv[] = { arg, NULL };

	execv(argv[0], argv);
	return errno;
}

/*
 * Run @path (a protectee) with no argument: its first line into @line, or
 * the errno of its execve().
 */
static int run_and_read(const char *path, char *line, size_t size)
{
	return pfsel_exec_output(exec_plainly, (void *)path, line, size);
}

/*
 * As pfuser1, in a user and mount namespace of its own: a tmpfs over
 * /etc whose ld.so.preload names preload.so, then @arg (a protectee)
 * started there.  RAN_PRELOADED when the library ran in it, RAN_CLEAN
 * when it ran without it, or the execve()'s errno.
 */
static int start_under_own_etc(void *arg)
{
	char line[128];
	int err;

	if (pfsel_enter_userns(CLONE_NEWNS))
		FAIL_SETUP("user and mount namespace");
	if (mount("pfsel-etc", "/etc", "tmpfs", 0, NULL) ||
	    close(open("/etc/ld.so.preload", O_WRONLY | O_CREAT | O_CLOEXEC,
		       0644)) ||
	    pfsel_write_file("/etc/ld.so.preload", PRELOAD "\n"))
		FAIL_SETUP("an /etc of one's own");
	err = run_and_read(arg, line, sizeof(line));
	if (err)
		return err;
	fprintf(stderr, "userns_test: %s says %s", (char *)arg, line);
	return strstr(line, "preloaded=1") ? RAN_PRELOADED : RAN_CLEAN;
}

/*
 * The files the loader opens by name are found from the process's root,
 * in its mount namespace: a program of the user mounts an /etc of its own
 * with an ld.so.preload naming its library, and starts the protected
 * application there (its executable is the file init finds at that path,
 * so its identity holds).  The execve() fails with EPERM: a protected
 * application starts only where the process's root is init's.  The
 * control: the same program not protected runs there with the library
 * in it (as it did in the protected one before the fix, reporting
 * "secure=1 dumpable=0 preloaded=1").
 */
TEST_F_TIMEOUT(userns, protected_under_loader_files_of_ones_own, 120)
{
	const char *const refused[] = { " op=exec ", " refused=private-root ",
					" app=\"" PROTECTED "\" ", NULL };
	const char *const plain[] = { " op=exec ", " app=\"" PLAIN "\" ",
				      NULL };
	/* The record's uid is the initial user namespace's. */
	const char *const fields[] = { " verdict=deny refused=private-root "
				       "permissive=0 policy=user ",
				       " uid=1001 ", NULL };
	int before = pfsel_audit_records(refused, NULL, 0);
	int plain_before = pfsel_audit_records(plain, NULL, 0);

	EXPECT_EQ(EPERM, attacker(start_under_own_etc, PROTECTED));
	EXPECT_EQ(RAN_PRELOADED, attacker(start_under_own_etc, PLAIN));
	EXPECT_LE(0, before);
	PFSEL_EXPECT_RECORD(before, refused, fields);
	EXPECT_EQ(plain_before, pfsel_audit_records(plain, NULL, 0));
}

/*
 * The same through a root of one's own: the protected file opened first,
 * then, in a user namespace of one's own (which allows chroot()), a
 * folder of the user's made the root, with copies of the loader and the C
 * library (the user's, then: any code), and execveat() of the descriptor
 * there.  EPERM when protected; the control, the plain program, runs
 * there (exit 0: the user's loader and library ran as the program).
 */
static int exec_fd_in_own_root(void *arg)
{
	static const char dir[] = "/tmp/userns_test-root";
	static const char *const files[] = {
		"/lib64/ld-linux-x86-64.so.2",
		"/lib/x86_64-linux-gnu/libc.so.6",
	};
	char *argv[] = { "protectee", NULL }, *envp[] = { NULL };
	char to[256];
	int fd = open(arg, O_PATH | O_CLOEXEC), status;
	size_t i;
	pid_t pid;

	if (fd < 0)
		FAIL_SETUP("open the program");
	if (system("mkdir -p /tmp/userns_test-root/lib64 "
		   "/tmp/userns_test-root/lib/x86_64-linux-gnu"))
		FAIL_SETUP("a folder of one's own");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(to, sizeof(to), "%s%s", dir, files[i]);
		if (pfsel_copy_file(files[i], to, 0755))
			FAIL_SETUP("copy the loader and libc");
	}
	if (pfsel_enter_userns(0) || chroot(dir) || chdir("/"))
		FAIL_SETUP("chroot in a user namespace of one's own");
	pid = fork();
	if (pid == 0) {
		syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		_exit(errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		FAIL_SETUP("run it");
	return WEXITSTATUS(status);
}

TEST_F_TIMEOUT(userns, protected_in_a_root_of_ones_own, 120)
{
	EXPECT_EQ(EPERM, attacker(exec_fd_in_own_root, PROTECTED));
	EXPECT_EQ(0, attacker(exec_fd_in_own_root, PLAIN));
}
TEST_HARNESS_MAIN
