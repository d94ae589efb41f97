/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - shared helpers: files, running as a user, probes,
 * netprobe and pfsel-agent as a test user, audit records, shell commands
 * and logins.  pfsel itself -- its securityfs files and its
 * netlink family -- the tests reach through libpfsel (<pfsel/pfsel.h>),
 * as every pfsel program does; they write raw bytes only where they play
 * an attacker or send what libpfsel never sends (pfsel_write_raw(),
 * raw_genl.h), and say so where they do.
 */

#ifndef PFSEL_TEST_UTIL_H
#define PFSEL_TEST_UTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <liburing.h>
#include <linux/if_packet.h>
#include <linux/capability.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

/*
 * Calls of one hook so far and the nanoseconds they were timed for (the
 * "hooks" file, pfsel_get_hook_stats()): false when the file or the
 * hook's line is missing.
 */
static inline bool pfsel_hook_read(const char *hook, int64_t *calls,
				   int64_t *ns)
{
	struct pfsel_hook_stat *hooks;
	bool found = false;
	size_t n, i;

	if (pfsel_get_hook_stats(&hooks, &n))
		return false;
	for (i = 0; i < n && !found; i++) {
		if (strcmp(hooks[i].name, hook) == 0) {
			*calls = (int64_t)hooks[i].calls;
			*ns = (int64_t)hooks[i].ns;
			found = true;
		}
	}
	free(hooks);
	return found;
}

/* Calls of one hook so far, or -1 when its line is missing. */
static inline int64_t pfsel_hook_calls(const char *hook)
{
	int64_t calls, ns;

	return pfsel_hook_read(hook, &calls, &ns) ? calls : -1;
}

/* Whether the comma-separated list @list holds @item. */
static inline bool pfsel_list_has(const char *list, const char *item)
{
	size_t len = strlen(item);
	const char *p = list;

	while (p && *p) {
		if (strncmp(p, item, len) == 0 &&
		    (p[len] == ',' || p[len] == '\0' || p[len] == '\n'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/*
 * Everything below is for the tests that load policies and check the
 * decisions: enforce_test, reload_test, audit_test and the netprobe
 * helper.
 */

#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

/* The test programs' directory in the VM, and the compiled policies. */
#define PFSEL_TESTS_DIR "/usr/lib/pfsel/tests"

/*
 * Where the VM's syslogd writes, whichever test starts it (the first
 * that needs it): pam_pfsel's messages, which pam_test reads.
 */
#define PFSEL_SYSLOG "/var/log/pfsel-tests.log"
#define PFSEL_POLICY_DIR PFSEL_TESTS_DIR "/policies"
#define PFSEL_NETPROBE PFSEL_TESTS_DIR "/netprobe"

/* The VM's unprivileged users. */
#define PFSEL_UID1 1001
#define PFSEL_UID2 1002

/*
 * How long a connection whose SYN is dropped is given to complete (a
 * program may set its own before it includes this header).
 */
#ifndef PFSEL_SYN_WAIT_MS
#define PFSEL_SYN_WAIT_MS 1000
#endif

/* Monotonic milliseconds. */
static inline long long pfsel_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Write a short string to a file in one write(), as `echo` would (a
 * /proc/self/uid_map, a sysctl): 0 or errno.
 */
static inline int pfsel_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/*
 * Create (or truncate) @path with mode @mode and write the @len bytes of
 * @data to it in one write(): a test's script, program or file, made
 * whole before anything runs it.  0 or -errno (-EIO for a short write).
 */
static inline int pfsel_create_bytes(const char *path, const void *data,
				     size_t len, mode_t mode)
{
	const int fd =
		open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	ssize_t written;

	if (fd < 0)
		return -errno;
	written = write(fd, data, len);
	close(fd);
	return written == (ssize_t)len ? 0 : -EIO;
}

/* pfsel_create_bytes() of the string @text. */
static inline int pfsel_create_file(const char *path, const char *text,
				    mode_t mode)
{
	return pfsel_create_bytes(path, text, strlen(text), mode);
}

/*
 * In a child that became pfuser1: take a user namespace, and @flags'
 * other namespaces (CLONE_NEW*), where it is root (uid and gid 0 are 1001
 * outside), as `unshare -Ur` does; a new mount namespace's mounts
 * propagate as they were copied (slaves of the ones they came from).  The
 * child must be dumpable again (setresuid() made it not) to write its own
 * uid_map.  0, or errno.
 */
static inline int pfsel_enter_userns_keep_propagation(int flags)
{
	if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER | flags))
		return errno;
	errno = pfsel_write_file("/proc/self/setgroups", "deny");
	if (!errno)
		errno = pfsel_write_file("/proc/self/uid_map", "0 1001 1");
	if (!errno)
		errno = pfsel_write_file("/proc/self/gid_map", "0 1001 1");
	return errno;
}

/*
 * pfsel_enter_userns_keep_propagation(), and with a mount namespace,
 * every mount made private, so that the test's mounts stay its own.  0,
 * or errno.
 */
static inline int pfsel_enter_userns(int flags)
{
	if (pfsel_enter_userns_keep_propagation(flags))
		return errno;
	if ((flags & CLONE_NEWNS) &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return errno;
	return 0;
}

/*
 * Copy @from to @to, a new file of the caller's with mode @mode (a
 * program or library the test places where an attacker would): 0 or an
 * errno.
 */
static inline int pfsel_copy_file(const char *from, const char *to,
				  mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	return close(out) || n ? EIO : 0;
}

/* Read a whole (small) file into @buf, NUL-terminated: length or -errno. */
static inline ssize_t pfsel_read_file(const char *path, char *buf, size_t size)
{
	size_t done = 0;
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (done < size - 1) {
		len = read(fd, buf + done, size - 1 - done);
		if (len < 0) {
			len = -errno;
			close(fd);
			return len;
		}
		if (len == 0)
			break;
		done += (size_t)len;
	}
	close(fd);
	buf[done] = '\0';
	return (ssize_t)done;
}

/* A whole (small) file, as pfsel_read_file() reads it, or "". */
static inline const char *pfsel_read_text(const char *path, char *buf,
					  size_t size)
{
	if (pfsel_read_file(path, buf, size) < 0)
		buf[0] = '\0';
	return buf;
}

/*
 * Create (or truncate) @path, not through a symbolic link, with @text,
 * owned by @uid (and group @uid) with mode @mode: a test user's file as
 * the user would have written it.  0 or -errno (-EIO for a short write).
 */
static inline int pfsel_put_file(const char *path, const char *text,
				 mode_t mode, uid_t uid)
{
	const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC;
	const int fd = open(path, flags, mode);
	const size_t len = strlen(text);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	else if (fchown(fd, uid, uid) || fchmod(fd, mode))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/*
 * A new, empty home folder @home (mode 0755) of test user @uid, whatever
 * was there before removed: 0 or -1.
 */
static inline int pfsel_new_home(const char *home, uid_t uid)
{
	char command[PATH_MAX + 16];

	snprintf(command, sizeof(command), "rm -rf '%s'", home);
	if (system(command) || mkdir(home, 0755) || chown(home, uid, uid))
		return -1;
	return 0;
}

/*
 * Lines of the text file @path that hold every string of the
 * NULL-terminated @needles (a log), or -1 when it cannot be opened.
 */
static inline int pfsel_count_lines(const char *path,
				    const char *const *needles)
{
	FILE *file = fopen(path, "re");
	char line[4096];
	int n = 0;
	size_t i;

	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file)) {
		for (i = 0; needles[i]; i++)
			if (!strstr(line, needles[i]))
				break;
		n += !needles[i];
	}
	fclose(file);
	return n;
}

/* Wait up to @ms for a line of @path holding every string of @needles. */
static inline bool pfsel_wait_lines(const char *path,
				    const char *const *needles, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;

	do {
		if (pfsel_count_lines(path, needles) > 0)
			return true;
		usleep(50 * 1000);
	} while (pfsel_now_ms() < deadline);
	return false;
}

/* Whether a line of the text file @path holds @needle. */
static inline bool pfsel_file_has(const char *path, const char *needle)
{
	const char *const needles[] = { needle, NULL };

	return pfsel_count_lines(path, needles) > 0;
}

/* Wait up to @ms for a line of the text file @path to hold @needle. */
static inline bool pfsel_file_wait(const char *path, const char *needle, int ms)
{
	const char *const needles[] = { needle, NULL };

	return pfsel_wait_lines(path, needles, ms);
}

/* The path of pfsel's securityfs file @name, for the raw writes below. */
static inline const char *pfsel_raw_path(const char *name, char *buf,
					 size_t size)
{
	snprintf(buf, size, "%s/%s", pfsel_securityfs(), name);
	return buf;
}

/*
 * Write @str to pfsel's securityfs file @name as it is, in one write():
 * 0 or -errno.  For what libpfsel never writes -- a malformed value, a
 * value with a newline as a shell writes it -- when a test tries the
 * kernel's parser with it; everything else goes through libpfsel.
 */
static inline int pfsel_write_raw(const char *name, const char *str)
{
	char path[PATH_MAX];
	const size_t len = strlen(str);
	ssize_t written;
	int fd, ret = 0;

	fd = open(pfsel_raw_path(name, path, sizeof(path)),
		  O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	written = write(fd, str, len);
	if (written < 0)
		ret = -errno;
	else if ((size_t)written != len)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Path of a compiled test policy, "NAME" -> ".../policies/NAME.pfsel". */
static inline const char *pfsel_policy_path(const char *name, char *buf,
					    size_t size)
{
	snprintf(buf, size, "%s/%s.pfsel", PFSEL_POLICY_DIR, name);
	return buf;
}

/*
 * Read the compiled policy @name into a malloc()ed buffer: its size, or
 * -errno.
 */
static inline ssize_t pfsel_policy_blob(const char *name, void **blob)
{
	char path[256];
	struct stat st;
	ssize_t len;
	int fd;

	fd = open(pfsel_policy_path(name, path, sizeof(path)),
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return -EINVAL;
	}
	*blob = malloc((size_t)st.st_size);
	if (!*blob) {
		close(fd);
		return -ENOMEM;
	}
	len = read(fd, *blob, (size_t)st.st_size);
	close(fd);
	if (len != st.st_size) {
		free(*blob);
		*blob = NULL;
		return -EIO;
	}
	return len;
}

/* Load the compiled test policy @name (pfsel_load_file()): 0 or -errno. */
static inline int pfsel_load(const char *name)
{
	char path[256];

	return pfsel_load_file(pfsel_policy_path(name, path, sizeof(path)));
}

/* Back to the boot's state: no policy loaded, enforcing (needs root). */
static inline void pfsel_reset(void)
{
	pfsel_unload_system();
	pfsel_unload_uid(PFSEL_UID1);
	pfsel_unload_uid(PFSEL_UID2);
	pfsel_set_enforce(true);
}

/* Whether the policy of @uid is loaded (pfsel_get_policy_info()). */
static inline bool pfsel_uid_loaded(uid_t uid)
{
	struct pfsel_policy_info info;

	return pfsel_get_policy_info(false, uid, &info) == 1;
}

/* The generation of the policy loaded for @uid, or -1 when none is. */
static inline long long pfsel_uid_generation(uid_t uid)
{
	struct pfsel_policy_info info;

	if (pfsel_get_policy_info(false, uid, &info) != 1)
		return -1;
	return (long long)info.generation;
}

/*
 * Which policy is loaded for @uid: the first 8 bytes of its SHA-256, as a
 * number the tests compare with pfsel_file_digest()'s; 0 when none is.
 */
static inline long long pfsel_uid_digest(uid_t uid)
{
	struct pfsel_policy_info info;
	long long which = 0;

	if (pfsel_get_policy_info(false, uid, &info) == 1)
		memcpy(&which, info.digest, sizeof(which));
	return which;
}

/*
 * Which policy the compiled policy file @path holds, as
 * pfsel_uid_digest() says it: 0 when it cannot be read.
 */
static inline long long pfsel_file_digest(const char *path)
{
	static char blob[PFSEL_POLICY_MAX_SIZE > (1 << 20) ?
				 1 << 20 :
				 PFSEL_POLICY_MAX_SIZE];
	uint8_t digest[PFSEL_DIGEST_SIZE];
	const ssize_t n = pfsel_read_file(path, blob, sizeof(blob));
	long long which = 0;

	if (n > 0 && !pfsel_policy_digest(blob, (size_t)n, digest))
		memcpy(&which, digest, sizeof(which));
	return which;
}

/*
 * ask_stats, as signed numbers: the tests subtract them and compare the
 * differences with small constants.  The counters and their names are
 * libpfsel's (PFSEL_ASK_STATS_FIELDS).
 */
struct ask_stats {
#define ASK_STATS_FIELD(f) long long f;
	PFSEL_ASK_STATS_FIELDS(ASK_STATS_FIELD)
#undef ASK_STATS_FIELD
};

/*
 * Read ask_stats (pfsel_get_ask_stats(), needs root): true when read;
 * false, and all zero, when not.
 */
static inline bool ask_stats_read(struct ask_stats *s)
{
	struct pfsel_ask_stats st;
	const int err = pfsel_get_ask_stats(&st);

#define ASK_STATS_COPY(f) s->f = (long long)st.f;
	PFSEL_ASK_STATS_FIELDS(ASK_STATS_COPY)
#undef ASK_STATS_COPY
	return err == 0;
}

/* One counter of ask_stats (PFSEL_ASK_STAT(agents)), or -1 when unread. */
#define PFSEL_ASK_STAT(field)                                    \
	({                                                       \
		struct ask_stats stats_;                         \
									 \
		ask_stats_read(&stats_) ? stats_.field : -1;     \
	})

/* Become @uid for good (real, effective and saved; gid too): 0 or -errno. */
static inline int pfsel_become(uid_t uid)
{
	if (getuid() == uid && geteuid() == uid)
		return 0;
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -errno;
	return 0;
}

/* Whether this process can run children as @uid. */
static inline bool pfsel_can_run_as(uid_t uid)
{
	return geteuid() == 0 || (getuid() == uid && geteuid() == uid);
}

/*
 * @pid, a child that called PTRACE_TRACEME and stopped itself (SIGSTOP)
 * before an execve(): let it run to the point where that execve() has
 * fixed the new program (PTRACE_EVENT_EXEC), stopped there, killed if
 * this process dies.  0; or -1, the child killed and reaped.
 */
static inline int pfsel_wait_stopped_at_exec(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status) &&
	    !ptrace(PTRACE_SETOPTIONS, pid, NULL,
		    (void *)(long)(PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) &&
	    !ptrace(PTRACE_CONT, pid, NULL, NULL) &&
	    waitpid(pid, &status, 0) == pid &&
	    (status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
		return 0;
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/*
 * Whether child @pid has exited, without reaping it: a later
 * pfsel_wait_status() still gets its status.
 */
static inline bool pfsel_has_exited(pid_t pid)
{
	siginfo_t info = { 0 };

	return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) ==
		       0 &&
	       info.si_pid == pid;
}

static inline int pfsel_wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/*
 * In a child just forked by @parent: die with it (SIGKILL), and leave at
 * once if it has died already, so that nothing a test started outlives
 * it.  Called after the child's change of uid, which clears the
 * parent-death signal.
 */
static inline void pfsel_die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

/*
 * Start @fn(@arg) in a child process with real, effective and saved uid
 * @uid, which dies with this process; its exit status is @fn's return
 * value (0 to 125), or 126 when it could not become @uid.  Its pid, or -1
 * when fork() failed.
 */
static inline pid_t pfsel_start_as(uid_t uid, int (*fn)(void *), void *arg)
{
	const pid_t parent = getpid();
	const pid_t pid = fork();

	if (pid == 0) {
		if (pfsel_become(uid))
			_exit(126);
		pfsel_die_with_parent(parent);
		_exit(fn(arg));
	}
	return pid;
}

/*
 * Run @fn(@arg) in a child process as pfsel_start_as() starts it: its
 * return value (0 to 125), 126 when the child could not become @uid,
 * 128 + N when signal N killed it, -1 when fork() failed.
 */
static inline int pfsel_run_as(uid_t uid, int (*fn)(void *), void *arg)
{
	const pid_t pid = pfsel_start_as(uid, fn, arg);

	return pid < 0 ? -1 : pfsel_wait_status(pid);
}

/* For pfsel_start_as(): execute the NULL-terminated argv @arg; 127 if not. */
static inline int pfsel_exec_fn(void *arg)
{
	char *const *argv = arg;

	execv(argv[0], argv);
	return 127;
}

/*
 * Execute @argv[0] with arguments @argv as @uid: its exit status, 126 when
 * it could not become @uid, 127 when the exec failed, 128 + N for a signal.
 * With @pid, the child's pid is stored there (for audit records).
 */
static inline int pfsel_exec_as(uid_t uid, char *const argv[], pid_t *pidp)
{
	const pid_t pid = pfsel_start_as(uid, pfsel_exec_fn, (void *)argv);

	if (pid < 0)
		return -1;
	if (pidp)
		*pidp = pid;
	return pfsel_wait_status(pid);
}

/*
 * The first line child @pid writes to the pipe whose read end is @fd
 * (closed here), into @line: @pid once it came; else -1, and the child
 * killed and reaped.
 */
static inline pid_t pfsel_child_line(pid_t pid, int fd, char *line, size_t size)
{
	FILE *f = fdopen(fd, "r");

	if (pid < 0 || !f || !fgets(line, (int)size, f)) {
		if (pid > 0) {
			kill(pid, SIGKILL);
			pfsel_wait_status(pid);
		}
		pid = -1;
	}
	if (f)
		fclose(f);
	else
		close(fd);
	return pid;
}

/*
 * Run @exec(@arg) in a child whose standard output is a pipe: @exec execs
 * a program, or returns the errno of the exec that failed, which comes
 * back through a pipe of its own (closed by a successful exec).  That
 * errno; or 0 once the program ran, its first output (what one read()
 * gets, at most @size - 1 bytes) in @line; -1 when no child was started.
 */
static inline int pfsel_exec_output(int (*exec)(void *), void *arg, char *line,
				    size_t size)
{
	int out[2], err[2], code = 0;
	ssize_t n;
	pid_t pid;

	line[0] = '\0';
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		code = exec(arg);
		if (write(err[1], &code, sizeof(code)) < 0)
			_exit(126);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	n = pid < 0 ? -1 : read(err[0], &code, sizeof(code));
	close(err[0]);
	if (pid > 0 && n != sizeof(code)) {
		code = 0;
		n = read(out[0], line, size - 1);
		line[n > 0 ? n : 0] = '\0';
	}
	close(out[0]);
	if (pid < 0)
		return -1;
	waitpid(pid, NULL, 0);
	return code;
}

/*
 * Send descriptor @fd over the AF_UNIX socket @sock, or, when @fd is
 * negative, the errno -@fd in its place (a child that could not make it):
 * 0 or -errno.
 */
static inline int pfsel_send_fd(int sock, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	int err = fd < 0 ? -fd : 0;
	struct iovec iov = { .iov_base = &err, .iov_len = sizeof(err) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;

	if (fd >= 0) {
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) < 0 ? -errno : 0;
}

/* What pfsel_send_fd() sent: a descriptor (close-on-exec), or -errno. */
static inline int pfsel_recv_fd(int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	int err = EPROTO, fd;
	struct iovec iov = { .iov_base = &err, .iov_len = sizeof(err) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != sizeof(err))
		return -EPROTO;
	if (err)
		return -err;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (!cmsg || cmsg->cmsg_level != SOL_SOCKET ||
	    cmsg->cmsg_type != SCM_RIGHTS)
		return -EPROTO;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/* Drop CAP_MAC_ADMIN from this process's effective and permitted sets. */
static inline int pfsel_drop_mac_admin(void)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &header, data))
		return -errno;
	data[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &=
		~CAP_TO_MASK(CAP_MAC_ADMIN);
	data[CAP_TO_INDEX(CAP_MAC_ADMIN)].permitted &=
		~CAP_TO_MASK(CAP_MAC_ADMIN);
	data[CAP_TO_INDEX(CAP_MAC_ADMIN)].inheritable &=
		~CAP_TO_MASK(CAP_MAC_ADMIN);
	if (syscall(SYS_capset, &header, data))
		return -errno;
	return 0;
}

/* ---- Network probes ---------------------------------------------------- */

union pfsel_addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage storage;
};

/*
 * Fill @addr from a numeric address (IPv4 or IPv6, an IPv4-mapped IPv6
 * address included) and a port: the address length, or 0 when @text is
 * not an address.
 */
static inline socklen_t pfsel_addr(const char *text, unsigned short port,
				   union pfsel_addr *addr)
{
	memset(addr, 0, sizeof(*addr));
	if (inet_pton(AF_INET, text, &addr->in.sin_addr) == 1) {
		addr->in.sin_family = AF_INET;
		addr->in.sin_port = htons(port);
		return sizeof(addr->in);
	}
	if (inet_pton(AF_INET6, text, &addr->in6.sin6_addr) == 1) {
		addr->in6.sin6_family = AF_INET6;
		addr->in6.sin6_port = htons(port);
		return sizeof(addr->in6);
	}
	return 0;
}

/* The loopback address of a family, as text. */
static inline const char *pfsel_loopback(int family)
{
	return family == AF_INET6 ? "::1" : "127.0.0.1";
}

/*
 * A root-owned peer for the probes: a TCP listener (with Fast Open) or a
 * bound UDP socket on @text:@port.  The descriptor, or -errno.
 */
static inline int pfsel_peer(int type, const char *text, unsigned short port)
{
	union pfsel_addr addr;
	const socklen_t len = pfsel_addr(text, port, &addr);
	const int one = 1, qlen = 16;
	int fd, err;

	if (!len)
		return -EINVAL;
	fd = socket(addr.sa.sa_family, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, &addr.sa, len))
		goto fail;
	if (type == SOCK_STREAM &&
	    (setsockopt(fd, IPPROTO_TCP, TCP_FASTOPEN, &qlen, sizeof(qlen)) ||
	     listen(fd, 64)))
		goto fail;
	return fd;
fail:
	err = -errno;
	close(fd);
	return err;
}

/*
 * A packet socket that sees every packet leaving (or entering) @ifname,
 * as IP packets, without blocking: the descriptor, or -1.
 */
static inline int pfsel_capture_open(const char *ifname)
{
	struct sockaddr_ll ll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = (int)if_nametoindex(ifname),
	};
	int fd;

	if (!ll.sll_ifindex)
		return -1;
	fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    htons(ETH_P_ALL));
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&ll, sizeof(ll))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Bring the loopback device of this process's network namespace up (a new
 * one's is down), through an AF_UNIX socket, which asks pfsel nothing:
 * 0 or errno.
 */
static inline int pfsel_loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = errno;
	close(fd);
	return err;
}

/*
 * Keep the calling thread on CPU 0, whose per-CPU caches (the recent
 * allows, the class caches) a test fills and reads: 0 or errno.
 */
static inline int pfsel_on_cpu0(void)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	return sched_setaffinity(0, sizeof(cpus), &cpus) ? errno : 0;
}

/* Close every connection waiting on listener @fd: how many there were. */
static inline int pfsel_drain(int fd)
{
	int count = 0, conn;

	/* SOCK_NONBLOCK is for the new socket: accept4() itself would wait. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while ((conn = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >=
	       0) {
		close(conn);
		count++;
	}
	return count;
}

/* Whether UDP socket @fd has a datagram waiting (waits up to @ms). */
static inline bool pfsel_udp_received(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[64];
	bool got = false;

	while (poll(&pfd, 1, got ? 0 : ms) > 0) {
		if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) < 0)
			break;
		got = true;
	}
	return got;
}

/* What a probe does: one request, as pfsel sees it. */
enum pfsel_probe_op {
	PFSEL_PROBE_CREATE, /* socket() */
	PFSEL_PROBE_BIND, /* bind() */
	PFSEL_PROBE_LISTEN, /* bind() (allowed), then listen() */
	PFSEL_PROBE_ACCEPT, /* listen, then connect to itself: see below */
	PFSEL_PROBE_CONNECT, /* connect() */
	PFSEL_PROBE_SENDTO, /* unconnected sendto() */
	PFSEL_PROBE_FASTOPEN, /* sendto(MSG_FASTOPEN) */
	PFSEL_PROBE_URING_CONNECT, /* connect through io_uring */
	PFSEL_PROBE_URING_SENDMSG, /* IORING_OP_SENDMSG naming the peer */
	PFSEL_PROBE_URING_SEND, /* IORING_OP_SEND with a destination */
	PFSEL_PROBE_URING_SEND_ZC, /* IORING_OP_SEND_ZC with a destination */
	PFSEL_PROBE_COUNT
};

static const char *const pfsel_probe_names[PFSEL_PROBE_COUNT] = {
	[PFSEL_PROBE_CREATE] = "create",
	[PFSEL_PROBE_BIND] = "bind",
	[PFSEL_PROBE_LISTEN] = "listen",
	[PFSEL_PROBE_ACCEPT] = "accept",
	[PFSEL_PROBE_CONNECT] = "connect",
	[PFSEL_PROBE_SENDTO] = "sendto",
	[PFSEL_PROBE_FASTOPEN] = "fastopen",
	[PFSEL_PROBE_URING_CONNECT] = "uring-connect",
	[PFSEL_PROBE_URING_SENDMSG] = "uring-sendmsg",
	[PFSEL_PROBE_URING_SEND] = "uring-send",
	[PFSEL_PROBE_URING_SEND_ZC] = "uring-send-zc",
};

struct pfsel_probe {
	enum pfsel_probe_op op;
	int family; /* of the socket */
	int type; /* SOCK_STREAM, SOCK_DGRAM, SOCK_RAW */
	int protocol;
	const char *addr; /* numeric; for create, unused */
	unsigned short port;
};

/*
 * The accept probe's special outcome: the connection to our own listener
 * never completed and the listener's queue stayed empty (SYN dropped).
 */
#define PFSEL_PROBE_DROPPED ETIMEDOUT

/*
 * The next completion of @ring: its result, or a negative errno; a
 * zero-copy send's notification (IORING_CQE_F_MORE: the kernel is done
 * with the buffer) is waited for too, so that the buffer may go.
 */
static inline int pfsel_uring_result(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	bool more;
	int ret = io_uring_wait_cqe(ring, &cqe);

	if (ret)
		return ret;
	ret = cqe->res;
	more = cqe->flags & IORING_CQE_F_MORE;
	io_uring_cqe_seen(ring, cqe);
	if (more && !io_uring_wait_cqe(ring, &cqe))
		io_uring_cqe_seen(ring, cqe);
	return ret;
}

/*
 * The request @op (one of the PFSEL_PROBE_URING_*) through io_uring, on
 * @fd to @addr: io_uring's own paths to the socket calls, each reading
 * the address itself.  0 when it succeeded, else its errno.
 */
static inline int pfsel_probe_uring(int fd, enum pfsel_probe_op op,
				    const union pfsel_addr *addr, socklen_t len)
{
	static char ping[] = "ping";
	struct iovec iov = { .iov_base = ping, .iov_len = 4 };
	struct msghdr msg = {
		.msg_name = (void *)addr,
		.msg_namelen = len,
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int ret;

	ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return -ret;
	sqe = io_uring_get_sqe(&ring);
	if (!sqe) {
		io_uring_queue_exit(&ring);
		return ENOMEM;
	}
	switch (op) {
	case PFSEL_PROBE_URING_CONNECT:
		io_uring_prep_connect(sqe, fd, &addr->sa, len);
		break;
	case PFSEL_PROBE_URING_SENDMSG:
		io_uring_prep_sendmsg(sqe, fd, &msg, 0);
		break;
	case PFSEL_PROBE_URING_SEND:
		io_uring_prep_send(sqe, fd, ping, 4, 0);
		io_uring_prep_send_set_addr(sqe, &addr->sa, len);
		break;
	case PFSEL_PROBE_URING_SEND_ZC:
		io_uring_prep_send_zc(sqe, fd, ping, 4, 0, 0);
		io_uring_prep_send_set_addr(sqe, &addr->sa, len);
		break;
	default:
		io_uring_queue_exit(&ring);
		return EINVAL;
	}
	ret = io_uring_submit(&ring);
	if (ret == 1)
		ret = pfsel_uring_result(&ring);
	else
		ret = ret < 0 ? ret : -EIO;
	io_uring_queue_exit(&ring);
	return ret < 0 ? -ret : 0;
}

/* The accept probe: 0 when accepted, PFSEL_PROBE_DROPPED, or an errno. */
static inline int pfsel_probe_accept(int listener, const union pfsel_addr *addr,
				     socklen_t len)
{
	struct pollfd pfd;
	int client, conn, err = 0, ret;
	socklen_t errlen = sizeof(err);

	/* SOCK_NONBLOCK is for the new socket: accept4() itself would wait. */
	if (listen(listener, 4) ||
	    fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK))
		return errno;
	client = socket(addr->sa.sa_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (client < 0)
		return errno;
	if (connect(client, &addr->sa, len) && errno != EINPROGRESS) {
		ret = errno;
		close(client);
		/* Report a failing client distinctly from a dropped SYN. */
		return ret == EACCES ? EPERM : ret;
	}
	pfd.fd = client;
	pfd.events = POLLOUT;
	ret = poll(&pfd, 1, PFSEL_SYN_WAIT_MS);
	if (ret > 0 &&
	    getsockopt(client, SOL_SOCKET, SO_ERROR, &err, &errlen) == 0 &&
	    err == 0) {
		conn = accept4(listener, NULL, NULL,
			       SOCK_NONBLOCK | SOCK_CLOEXEC);
		ret = conn >= 0 ? 0 : errno;
		if (conn >= 0)
			close(conn);
	} else if (ret == 0) {
		/* Not connected: the queue must be empty too. */
		conn = accept4(listener, NULL, NULL,
			       SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (conn >= 0) {
			close(conn);
			ret = EPROTO;
		} else {
			ret = errno == EAGAIN ? PFSEL_PROBE_DROPPED : errno;
		}
	} else {
		ret = err ? err : EPROTO;
	}
	close(client);
	return ret;
}

/*
 * Make the request @probe describes: 0 when it succeeded, else the errno
 * of the call that pfsel decides (the setup calls before it are expected
 * to be allowed; their failure is reported as ENOTRECOVERABLE).
 */
static inline int pfsel_probe_run(const struct pfsel_probe *probe)
{
	union pfsel_addr addr;
	socklen_t len = 0;
	const int one = 1;
	int fd, ret = 0;

	if (probe->op != PFSEL_PROBE_CREATE) {
		len = pfsel_addr(probe->addr, probe->port, &addr);
		if (!len)
			return EINVAL;
	}
	fd = socket(probe->family, probe->type | SOCK_CLOEXEC, probe->protocol);
	if (fd < 0)
		return probe->op == PFSEL_PROBE_CREATE ? errno :
							 ENOTRECOVERABLE;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));

	switch (probe->op) {
	case PFSEL_PROBE_CREATE:
		break;
	case PFSEL_PROBE_BIND:
		ret = bind(fd, &addr.sa, len) ? errno : 0;
		break;
	case PFSEL_PROBE_LISTEN:
		if (bind(fd, &addr.sa, len))
			ret = ENOTRECOVERABLE;
		else
			ret = listen(fd, 4) ? errno : 0;
		break;
	case PFSEL_PROBE_ACCEPT:
		if (bind(fd, &addr.sa, len))
			ret = ENOTRECOVERABLE;
		else
			ret = pfsel_probe_accept(fd, &addr, len);
		break;
	case PFSEL_PROBE_CONNECT:
		ret = connect(fd, &addr.sa, len) ? errno : 0;
		break;
	case PFSEL_PROBE_SENDTO:
		ret = sendto(fd, "ping", 4, 0, &addr.sa, len) == 4 ? 0 : errno;
		break;
	case PFSEL_PROBE_FASTOPEN:
		ret = sendto(fd, "ping", 4, MSG_FASTOPEN, &addr.sa, len) == 4 ?
			      0 :
			      errno;
		break;
	case PFSEL_PROBE_URING_CONNECT:
	case PFSEL_PROBE_URING_SENDMSG:
	case PFSEL_PROBE_URING_SEND:
	case PFSEL_PROBE_URING_SEND_ZC:
		ret = pfsel_probe_uring(fd, probe->op, &addr, len);
		break;
	default:
		ret = EINVAL;
	}
	close(fd);
	return ret;
}

/* For pfsel_run_as(): run the probe given as @arg. */
static inline int pfsel_probe_fn(void *arg)
{
	return pfsel_probe_run(arg);
}

/* Run @probe in a child as @uid: as pfsel_run_as(). */
static inline int pfsel_probe_as(uid_t uid, const struct pfsel_probe *probe)
{
	return pfsel_run_as(uid, pfsel_probe_fn, (void *)probe);
}

/* ---- A test user's netprobe and agent ---------------------------------- */

/*
 * Start `@exe OP FAMILY ADDR PORT` as @uid in the background: @exe is
 * netprobe (NULL), a copy of it, or a script it runs; the family is
 * @addr's ("inet6" when it holds a ':').  It dies with this process.  Its
 * pid, or -1; its exit status is the request's errno (0: done), as
 * pfsel_exec_as() gives it.
 */
static inline pid_t pfsel_netprobe_start(uid_t uid, const char *exe,
					 const char *op, const char *addr,
					 unsigned short port)
{
	char port_text[8];
	const char *const argv[] = {
		exe ? exe : PFSEL_NETPROBE,
		op,
		strchr(addr, ':') ? "inet6" : "inet",
		addr,
		port_text,
		NULL,
	};

	snprintf(port_text, sizeof(port_text), "%u", port);
	return pfsel_start_as(uid, pfsel_exec_fn, (void *)argv);
}

/*
 * Run netprobe as pfsel_netprobe_start() and wait for it: the request's
 * errno (0: done), as pfsel_exec_as() otherwise.  With @pidp, its pid
 * there (for audit records).
 */
static inline int pfsel_netprobe_as(uid_t uid, const char *exe, const char *op,
				    const char *addr, unsigned short port,
				    pid_t *pidp)
{
	const pid_t pid = pfsel_netprobe_start(uid, exe, op, addr, port);

	if (pid < 0)
		return -1;
	if (pidp)
		*pidp = pid;
	return pfsel_wait_status(pid);
}

#define PFSEL_AGENT "/usr/bin/pfsel-agent"

/* A pfsel-agent a test started (pfsel_start_agent()). */
struct pfsel_agent_process {
	pid_t pid; /* 0 when none runs */
	int input; /* the write end of its standard input, or -1 */
};

/*
 * Start pfsel-agent for @uid as root starts it -- `pfsel-agent --user=UID
 * [--log=LOG] OPTIONS...`, from "/" with root's HOME and a plain PATH --
 * so that it registers, then becomes @uid.  @options is NULL-terminated
 * (at most 8), or NULL.  Its standard input is a pipe the test writes to
 * (@agent->input) when @terminal, else /dev/null; its standard error
 * (where the terminal's prompt goes) is appended to @err, made @uid's, or
 * goes to /dev/null.  It dies with this process.
 *
 * Waits up to @ms until it runs as @uid (every uid), one more agent is
 * registered than before, and, with @log, the log has one more line that
 * it registered: true then.  Else it is killed: false.
 */
static inline bool pfsel_start_agent(struct pfsel_agent_process *agent,
				     uid_t uid, const char *const *options,
				     const char *log, const char *err,
				     bool terminal, int ms)
{
	char user[32], log_option[PATH_MAX + 8], registered[64], path[64],
		status[2048], uid_line[64];
	const char *needles[] = { registered, NULL };
	const char *argv[12];
	const pid_t parent = getpid();
	struct ask_stats before, now;
	int in[2] = { -1, -1 }, logged = 0, fd, i = 0, j;
	long long deadline;

	snprintf(user, sizeof(user), "--user=%u", (unsigned int)uid);
	snprintf(log_option, sizeof(log_option), "--log=%s", log ? log : "");
	snprintf(registered, sizeof(registered),
		 "registered as the agent of uid %u", (unsigned int)uid);
	argv[i++] = PFSEL_AGENT;
	argv[i++] = user;
	if (log)
		argv[i++] = log_option;
	for (j = 0; options && options[j] && j < 8; j++)
		argv[i++] = options[j];
	argv[i] = NULL;

	agent->pid = 0;
	agent->input = -1;
	ask_stats_read(&before);
	if (log)
		logged = pfsel_count_lines(log, needles);
	/* A log that is not there yet (-1) has no line that it registered. */
	if (logged < 0)
		logged = 0;
	if (terminal && pipe2(in, O_CLOEXEC))
		return false;
	agent->pid = fork();
	if (agent->pid == 0) {
		fd = terminal ? in[0] : open("/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			_exit(125);
		fd = err ? open(err, O_WRONLY | O_CREAT | O_APPEND, 0644) :
			   open("/dev/null", O_WRONLY);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    (err && fchown(fd, uid, uid)))
			_exit(125);
		/* Root's: the agent becomes @uid itself, which clears it. */
		pfsel_die_with_parent(parent);
		if (chdir("/") || setenv("HOME", "/root", 1) ||
		    setenv("PATH", "/usr/bin:/bin", 1))
			_exit(125);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (terminal) {
		close(in[0]);
		if (agent->pid > 0)
			agent->input = in[1];
		else
			close(in[1]);
	}
	if (agent->pid < 0) {
		agent->pid = 0;
		return false;
	}

	snprintf(path, sizeof(path), "/proc/%d/status", (int)agent->pid);
	snprintf(uid_line, sizeof(uid_line), "\nUid:\t%u\t%u\t%u\t%u\n",
		 (unsigned int)uid, (unsigned int)uid, (unsigned int)uid,
		 (unsigned int)uid);
	deadline = pfsel_now_ms() + ms;
	while (waitpid(agent->pid, NULL, WNOHANG) == 0) {
		if (ask_stats_read(&now) && now.agents > before.agents &&
		    pfsel_read_file(path, status, sizeof(status)) > 0 &&
		    strstr(status, uid_line) &&
		    (!log || pfsel_count_lines(log, needles) > logged))
			return true;
		if (pfsel_now_ms() >= deadline) {
			kill(agent->pid, SIGKILL);
			waitpid(agent->pid, NULL, 0);
			break;
		}
		usleep(20 * 1000);
	}
	agent->pid = 0;
	if (agent->input >= 0)
		close(agent->input);
	agent->input = -1;
	return false;
}

/*
 * Stop the agent pfsel_start_agent() started with signal @sig and reap
 * it: its exit status (as pfsel_wait_status()), or -1 when none ran.
 */
static inline int pfsel_stop_agent(struct pfsel_agent_process *agent, int sig)
{
	int status;

	if (agent->pid <= 0)
		return -1;
	kill(agent->pid, sig);
	status = pfsel_wait_status(agent->pid);
	agent->pid = 0;
	if (agent->input >= 0)
		close(agent->input);
	agent->input = -1;
	return status;
}

/* ---- Audit ------------------------------------------------------------- */

#define PFSEL_AUDIT_TYPE 1430 /* AUDIT_PFSEL_ACCESS */

/* Whether auditd is running and the kernel's audit is enabled. */
static inline bool pfsel_auditd_running(void)
{
	return system("pidof auditd >/dev/null 2>&1") == 0;
}

/* Whether @line holds every string of the NULL-terminated @needles. */
static inline bool pfsel_line_has_all(const char *line,
				      const char *const *needles)
{
	size_t i;

	for (i = 0; needles[i]; i++)
		if (!strstr(line, needles[i]))
			return false;
	return true;
}

/*
 * Wait up to @ms for an audit record of @type (a name or number, as
 * `ausearch -m` takes it; pfsel's decisions are "1430") that holds every
 * string of the NULL-terminated @needles; copy it to @out.
 */
static inline bool pfsel_audit_find(const char *type,
				    const char *const *needles, char *out,
				    size_t size, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;
	char line[4096], command[128];

	snprintf(command, sizeof(command),
		 "ausearch --input-logs -m %s --raw 2>/dev/null", type);
	do {
		FILE *search = popen(command, "r");

		if (!search)
			return false;
		while (fgets(line, sizeof(line), search)) {
			if (pfsel_line_has_all(line, needles)) {
				snprintf(out, size, "%s", line);
				out[strcspn(out, "\n")] = '\0';
				pclose(search);
				return true;
			}
		}
		pclose(search);
		usleep(200 * 1000);
	} while (pfsel_now_ms() < deadline);
	return false;
}

/*
 * The time-out, in seconds, of a test that reads the audit log after its
 * calls (pfsel_audit_records()): each reading waits for auditd to write a
 * marker (ausearch over the log, a process or two each time), and the
 * refused-load corpus makes hundreds of records.  Such a test took 29 s
 * of the harness's default 30 on a quiet machine, and timed out on CI's
 * loaded one (stop 34).
 */
#define PFSEL_AUDIT_TEST_TIMEOUT 300

/*
 * Wait until auditd has written every record the kernel queued before
 * this call: a message of this process's own (auditctl -m), queued after
 * them, is in the log.  So a record that is not there now never will be.
 */
static inline bool pfsel_audit_settle(void)
{
	static unsigned int serial;
	char marker[64], command[128], record[4096];
	const char *const needles[] = { marker, NULL };

	snprintf(marker, sizeof(marker), "pfsel-test-mark-%d-%u", (int)getpid(),
		 ++serial);
	snprintf(command, sizeof(command), "auditctl -m %s >/dev/null 2>&1",
		 marker);
	if (system(command) != 0)
		return false;
	return pfsel_audit_find("USER", needles, record, sizeof(record),
				10000);
}

/*
 * pfsel's records (1430) that hold every string of the NULL-terminated
 * @needles, once auditd has written what the kernel queued
 * (pfsel_audit_settle()): how many, and the last of them in @last (when
 * not NULL); -1 when auditd did not answer.  Counted before and after a
 * call, they tell whether the call made one.
 */
static inline int pfsel_audit_records(const char *const *needles, char *last,
				      size_t size)
{
	char line[4096];
	FILE *search;
	int count = 0;

	if (!pfsel_audit_settle())
		return -1;
	search = popen("ausearch --input-logs -m 1430 --raw 2>/dev/null", "r");
	if (!search)
		return -1;
	while (fgets(line, sizeof(line), search)) {
		if (!pfsel_line_has_all(line, needles))
			continue;
		count++;
		if (last) {
			snprintf(last, size, "%s", line);
			last[strcspn(last, "\n")] = '\0';
		}
	}
	pclose(search);
	return count;
}

/*
 * In a test (kselftest_harness.h): pfsel's records that hold every string
 * of @needles are one more than @before (pfsel_audit_records() before the
 * call tested), and the newest, which is logged, holds every string of
 * the NULL-terminated @fields in that order (pfsel_record_lacks()).
 */
#define PFSEL_EXPECT_RECORD(before, needles, fields)                          \
	do {                                                                  \
		char record_[4096] = "";                                      \
		const char *missing_;                                         \
									      \
		EXPECT_EQ((before) + 1, pfsel_audit_records(needles, record_, \
							    sizeof(record_))); \
		TH_LOG("%s", record_);                                        \
		missing_ = pfsel_record_lacks(record_, fields);               \
		EXPECT_EQ(NULL, missing_)                                     \
		{                                                             \
			TH_LOG("'%s' missing (or out of order)", missing_);   \
		}                                                             \
	} while (0)

/*
 * The first of the NULL-terminated @fields that @record does not hold
 * after the ones before it; NULL when it holds them all, in that order.
 */
static inline const char *pfsel_record_lacks(const char *record,
					     const char *const *fields)
{
	const char *at = record, *found;
	size_t i;

	for (i = 0; fields[i]; i++) {
		found = strstr(at, fields[i]);
		if (!found)
			return fields[i];
		at = found + 1;
	}
	return NULL;
}

/*
 * Run a shell command line: its exit status (or -1), its standard output
 * and error together in @out.
 */
__attribute__((format(printf, 3, 4))) static inline int
pfsel_sh(char *out, size_t size, const char *fmt, ...)
{
	char command[2048];
	size_t len = 0, n;
	va_list ap;
	FILE *p;
	int status;

	va_start(ap, fmt);
	vsnprintf(command, sizeof(command), fmt, ap);
	va_end(ap);
	strncat(command, " 2>&1", sizeof(command) - strlen(command) - 1);
	p = popen(command, "r");
	if (!p)
		return -1;
	while (len < size - 1 &&
	       (n = fread(out + len, 1, size - 1 - len, p)) > 0)
		len += n;
	out[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * A login and logout of @user through the PAM service @service
 * (`pamtester -v SERVICE USER open_session close_session`): pamtester's
 * exit status (or -1), its output in @out.
 */
static inline int pfsel_pam_session(const char *service, const char *user,
				    char *out, size_t size)
{
	return pfsel_sh(out, size,
			"pamtester -v %s %s open_session close_session",
			service, user);
}

/*
 * As pam_pfsel does at a login: test user @uid compiles their ~/.pfw in
 * @home (pfwc, into .pfw.pfsel beside it), and root loads it.  The exit
 * status of the two, their output in @out.
 */
static inline int pfsel_load_home_pfw(const char *home, uid_t uid, char *out,
				      size_t size)
{
	return pfsel_sh(
		out, size,
		"cd '%s' && %s/runas %u pfwc -o .pfw.pfsel .pfw && pfsel load .pfw.pfsel",
		home, PFSEL_TESTS_DIR, (unsigned int)uid);
}

#endif /* PFSEL_TEST_UTIL_H */
