// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - looking at and compiling ~/.pfw as the user, never as
 * root: for the root side (pam_pfsel at login, `pfsel confirm`, `pfsel
 * status`), which runs pfwc; the user's own agent compiles in its own
 * process (compile.c).
 *
 * The root side runs as root, but ~/.pfw is the user's: it may be a
 * symlink to a file only root can read, or include /etc/shadow.  So
 * whatever touches it runs in a child that has first become the user for
 * good -- supplementary groups, gid and uid, real, effective and saved --
 * and has checked that root cannot be had back; then it does what the
 * user could do, and nothing more: a file they may not read fails to
 * compile, as it would for them, and nothing of it reaches the policy.
 *
 * Between fork() and exec() the child calls only async-signal-safe
 * functions: the process that loaded the PAM module may have threads.  The
 * group list, argv and environment are built before the fork.  A child
 * reports where it failed through a close-on-exec pipe (nothing arrives
 * when the exec succeeds); pfwc's policy comes back through another pipe,
 * its diagnostics through a third.  SIGCHLD is set to its default while
 * the child runs, so that an application's handler does not reap it, and
 * the child runs in a process group of its own, killed whole at the time
 * limit.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/pfsel_policy.h>

#include "userpolicy.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* Where a child failed, as it reports it. */
enum child_stage {
	STAGE_DONE, /* the stat child: the result follows */
	STAGE_USER, /* could not become the user */
	STAGE_HOME, /* chdir() to the home */
	STAGE_FDS, /* setting up its descriptors */
	STAGE_EXEC, /* execve() of pfwc */
};

struct child_report {
	int stage;
	int err;
	struct stat st;
};

/* The most of pfwc's standard error kept, for the first line. */
#define DIAG_KEEP 4096

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Become @u for good, and check it: 0, or -1 with errno set.  Without
 * root, only "becoming" whom one already is succeeds (the unit tests).
 */
static int become(const struct user_identity *const u)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;

	if (geteuid() == 0) {
		if (setgroups((size_t)u->ngroups, u->groups) ||
		    setresgid(u->gid, u->gid, u->gid) ||
		    setresuid(u->uid, u->uid, u->uid))
			return -1;
	}
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid))
		return -1;
	if (ruid != u->uid || euid != u->uid || suid != u->uid ||
	    rgid != u->gid || egid != u->gid || sgid != u->gid) {
		errno = EPERM;
		return -1;
	}
	/* Nothing of root may be left: no uid 0, no capability to change ids. */
	if (u->uid != 0 &&
	    (setuid(0) != -1 || seteuid(0) != -1 || setgroups(0, NULL) != -1 ||
	     (u->gid != 0 && setgid(0) != -1))) {
		errno = EPERM;
		return -1;
	}
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

static void report(const int fd, const int stage, const int err,
		   const struct stat *const st)
{
	struct child_report r;
	ssize_t n;

	memset(&r, 0, sizeof(r));
	r.stage = stage;
	r.err = err;
	if (st)
		r.st = *st;
	do
		n = write(fd, &r, sizeof(r));
	while (n < 0 && errno == EINTR);
}

/* The child's first steps: signals, process group, the user, the home. */
static void child_start(const struct user_identity *const u,
			const int report_fd)
{
	struct sigaction dfl;
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	setpgid(0, 0);
	if (become(u)) {
		report(report_fd, STAGE_USER, errno, NULL);
		_exit(125);
	}
	if (chdir(u->home)) {
		report(report_fd, STAGE_HOME, errno, NULL);
		_exit(125);
	}
}

/* Read up to @len bytes from @fd until end of file or the deadline. */
static ssize_t read_report(const int fd, struct child_report *const r,
			   const long long deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t done = 0;
	ssize_t n;
	long long left;

	while (done < sizeof(*r)) {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			continue;
		n = read(fd, (char *)r + done, sizeof(*r) - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int reap(const pid_t pid, const bool kill_first)
{
	int status;

	if (kill_first) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return status;
}

static int stage_error(const struct child_report *const r)
{
	switch (r->stage) {
	case STAGE_USER:
		return -EPERM;
	case STAGE_HOME:
		return r->err == ENOENT || r->err == ENOTDIR ?
			       -ENOENT :
			       -(r->err ? r->err : EIO);
	case STAGE_EXEC:
		return -ENOEXEC;
	default:
		return -(r->err ? r->err : EIO);
	}
}

int user_source_stat(const struct user_identity *const u,
		     const unsigned int timeout, struct stat *const out)
{
	struct sigaction dfl, old;
	struct child_report r;
	int fds[2], ret;
	ssize_t n;
	pid_t pid;
	struct stat st;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &old);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		sigaction(SIGCHLD, &old, NULL);
		return ret;
	}
	if (pid == 0) {
		close(fds[0]);
		child_start(u, fds[1]);
		if (stat(POLICY_SOURCE, &st))
			report(fds[1], STAGE_DONE, errno, NULL);
		else
			report(fds[1], STAGE_DONE, 0, &st);
		_exit(0);
	}
	close(fds[1]);
	memset(&r, 0, sizeof(r));
	n = read_report(fds[0], &r, now_ms() + 1000LL * timeout);
	close(fds[0]);
	reap(pid, n != (ssize_t)sizeof(r));
	sigaction(SIGCHLD, &old, NULL);
	if (n < 0)
		return (int)n;
	if (n != (ssize_t)sizeof(r))
		return -EIO;
	if (r.stage != STAGE_DONE)
		return stage_error(&r);
	if (r.err)
		return r.err == ENOTDIR ? -ENOENT : -r.err;
	if (!S_ISREG(r.st.st_mode))
		return -EINVAL;
	*out = r.st;
	return 0;
}

/* Everything the compile child needs, built before the fork. */
struct compile_args {
	char *argv[7];
	char *envp[6];
	char uid_opt[32];
	char source[PATH_MAX];
	char env_home[PATH_MAX + 8];
	char env_user[300];
	char env_logname[300];
};

static int compile_args_init(struct compile_args *const a,
			     const struct user_identity *const u,
			     const char *const pfwc)
{
	const size_t hlen = strlen(u->home);
	const char *const sep = hlen && u->home[hlen - 1] == '/' ? "" : "/";

	snprintf(a->uid_opt, sizeof(a->uid_opt), "--uid=%u",
		 (unsigned int)u->uid);
	if (snprintf(a->source, sizeof(a->source), "%s%s%s", u->home, sep,
		     POLICY_SOURCE) >= (int)sizeof(a->source) ||
	    snprintf(a->env_home, sizeof(a->env_home), "HOME=%s", u->home) >=
		    (int)sizeof(a->env_home) ||
	    snprintf(a->env_user, sizeof(a->env_user), "USER=%s", u->name) >=
		    (int)sizeof(a->env_user) ||
	    snprintf(a->env_logname, sizeof(a->env_logname), "LOGNAME=%s",
		     u->name) >= (int)sizeof(a->env_logname))
		return -ENAMETOOLONG;
	a->argv[0] = (char *)pfwc;
	a->argv[1] = a->uid_opt;
	/*
	 * -Wshadow compares the rules pairwise (up to PFW_PAIR_BUDGET
	 * comparisons: seven eighths of what a 10,000-rule ~/.pfw costs to
	 * compile) only to warn, and the root side shows no warning: the
	 * policy is the same without it.
	 */
	a->argv[2] = "-Wno-shadow";
	a->argv[3] = "-o";
	a->argv[4] = "-";
	a->argv[5] = a->source;
	a->argv[6] = NULL;
	a->envp[0] = a->env_home;
	a->envp[1] = a->env_user;
	a->envp[2] = a->env_logname;
	a->envp[3] = "PATH=/usr/bin:/bin";
	a->envp[4] = "LC_ALL=C";
	a->envp[5] = NULL;
	return 0;
}

static void compile_child(const struct user_identity *const u,
			  const char *const pfwc,
			  const struct compile_args *const a, const int out_fd,
			  const int err_fd, const int report_fd)
{
	int null_fd;

	child_start(u, report_fd);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0) {
		report(report_fd, STAGE_FDS, errno, NULL);
		_exit(125);
	}
	/* Nothing of the application's but 0, 1 and 2 goes to pfwc. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execve(pfwc, a->argv, a->envp);
	report(report_fd, STAGE_EXEC, errno, NULL);
	_exit(127);
}

/* A growing buffer for pfwc's output. */
struct sink {
	char *data;
	size_t len;
	size_t cap;
	size_t max; /* keep at most this much; more sets @over */
	bool over;
	bool open;
};

static int sink_read(const int fd, struct sink *const s)
{
	char buf[65536];
	size_t keep;
	ssize_t n;
	char *p;

	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0) {
		s->open = false;
		return 0;
	}
	keep = (size_t)n;
	if (s->len + keep > s->max) {
		s->over = true;
		keep = s->max - s->len;
	}
	if (s->len + keep + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;

		while (cap < s->len + keep + 1)
			cap *= 2;
		p = realloc(s->data, cap);
		if (!p)
			return -ENOMEM;
		s->data = p;
		s->cap = cap;
	}
	memcpy(s->data + s->len, buf, keep);
	s->len += keep;
	s->data[s->len] = '\0';
	return 0;
}

/* The first line of @text (or @fallback when empty), into @diag. */
static void first_line(const char *const text, const char *const fallback,
		       char *const diag, const size_t diaglen)
{
	const char *src = text && *text ? text : fallback;
	const size_t len = strcspn(src, "\n");

	if (diaglen)
		snprintf(diag, diaglen, "%.*s", (int)len, src);
}

int user_compile(const struct user_identity *const u, const char *const pfwc,
		 const unsigned int timeout, void **const blob,
		 size_t *const len, char *const diag, const size_t diaglen)
{
	struct sink out = { .max = PFSEL_POLICY_MAX_SIZE, .open = true };
	struct sink err = { .max = DIAG_KEEP, .open = true };
	struct compile_args *args;
	struct sigaction dfl, old;
	struct child_report r;
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, rep_p[2] = { -1, -1 };
	const long long deadline = now_ms() + 1000LL * timeout;
	bool timed_out = false;
	char fallback[64];
	ssize_t rn;
	int ret, status;
	pid_t pid;

	if (diaglen)
		diag[0] = '\0';
	args = calloc(1, sizeof(*args));
	if (!args)
		return -ENOMEM;
	ret = compile_args_init(args, u, pfwc);
	if (ret) {
		free(args);
		return ret;
	}
	if (pipe2(out_p, O_CLOEXEC) || pipe2(err_p, O_CLOEXEC) ||
	    pipe2(rep_p, O_CLOEXEC)) {
		ret = -errno;
		goto close_pipes;
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGCHLD, &dfl, &old);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		sigaction(SIGCHLD, &old, NULL);
		goto close_pipes;
	}
	if (pid == 0) {
		close(out_p[0]);
		close(err_p[0]);
		close(rep_p[0]);
		compile_child(u, pfwc, args, out_p[1], err_p[1], rep_p[1]);
	}
	close(out_p[1]);
	close(err_p[1]);
	close(rep_p[1]);
	out_p[1] = err_p[1] = rep_p[1] = -1;

	/* The policy and the diagnostics, until both end or time is up. */
	while ((out.open || err.open) && !out.over) {
		struct pollfd pfd[2] = {
			{ .fd = out.open ? out_p[0] : -1, .events = POLLIN },
			{ .fd = err.open ? err_p[0] : -1, .events = POLLIN },
		};
		long long left = deadline - now_ms();
		int n;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		n = poll(pfd, 2, left > INT_MAX ? INT_MAX : (int)left);
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (n <= 0)
			continue;
		if (pfd[0].revents && (ret = sink_read(out_p[0], &out)))
			break;
		if (pfd[1].revents && (ret = sink_read(err_p[0], &err)))
			break;
	}
	/* The report: nothing (exec succeeded), or where it failed. */
	memset(&r, 0, sizeof(r));
	rn = (out.open || err.open) ? 0 : read_report(rep_p[0], &r, deadline);
	status = reap(pid, out.open || err.open || out.over || ret);
	sigaction(SIGCHLD, &old, NULL);

	if (ret)
		goto close_pipes;
	if (timed_out || rn == -ETIMEDOUT) {
		ret = -ETIMEDOUT;
		snprintf(diag, diaglen, "pfwc ran for more than %u s", timeout);
		goto close_pipes;
	}
	if (out.over) {
		ret = -E2BIG;
		snprintf(diag, diaglen, "the compiled policy is over %u bytes",
			 PFSEL_POLICY_MAX_SIZE);
		goto close_pipes;
	}
	if (rn == (ssize_t)sizeof(r)) {
		ret = stage_error(&r);
		snprintf(diag, diaglen, "%s: %s",
			 r.stage == STAGE_USER ? "could not become the user" :
			 r.stage == STAGE_HOME ? "chdir to the home" :
			 r.stage == STAGE_EXEC ? pfwc :
						 "setting up pfwc",
			 strerror(r.err));
		goto close_pipes;
	}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (status != -1 && WIFSIGNALED(status))
			snprintf(fallback, sizeof(fallback),
				 "pfwc was killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(fallback, sizeof(fallback),
				 "pfwc exited with status %d",
				 status == -1 ? -1 : WEXITSTATUS(status));
		first_line(err.data, fallback, diag, diaglen);
		ret = -EBADMSG;
		goto close_pipes;
	}
	if (out.len == 0) {
		ret = -ENODATA;
		snprintf(diag, diaglen, "pfwc wrote nothing");
		goto close_pipes;
	}
	*blob = out.data;
	*len = out.len;
	out.data = NULL;
	ret = 0;

close_pipes:
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0)
			close(out_p[i]);
		if (err_p[i] >= 0)
			close(err_p[i]);
		if (rep_p[i] >= 0)
			close(rep_p[i]);
	}
	free(out.data);
	free(err.data);
	free(args);
	return ret;
}
