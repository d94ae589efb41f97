// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "prompt" decision source: the desktop prompt,
 * pfsel-prompt, run as the agent's child.
 *
 * The two speak over a SOCK_SEQPACKET socketpair() (prompt_wire.h): no
 * name in the file system, no listening socket, nothing another program
 * could connect to.  The child gets its end as descriptor 3, told by
 * "--agent-fd=3", and no other descriptor of the agent's but standard
 * output and error (the kernel's netlink socket, the log, ~/.pfw stay
 * here).  The agent's end is non-blocking: a prompt that stops reading
 * cannot stall the agent, which keeps answering the kernel.
 *
 * The prompt is trusted to answer only what it was asked: an answer to a
 * question it was not given, or given and already answered or withdrawn,
 * is logged and dropped, never passed on to the kernel.  If the child
 * dies, collect() says so (-EPIPE) once, its questions go unanswered, and
 * the next question starts a new one (not sooner than RESTART_MS after
 * the last start, so that a prompt that cannot start is not run in a
 * loop).
 *
 * Where the window goes: the display in the agent's environment, when it
 * has one (an agent started by hand, from a terminal of the session).  An
 * agent without one (the system service pfsel-agent@USER) takes the
 * display of the user's graphical session from logind, at the first
 * question that finds such a session (session_display.c); until then, and
 * while the user has none (logged out, at a text console), questions are
 * not shown and get the policy's unanswered verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "prompt_wire.h"
#include "session_display.h"
#include "userpolicy.h"

/* The descriptor the child finds its end of the socket pair at. */
#define PROMPT_FD 3
/* Answers taken in one collect() call: a flood cannot hold the agent. */
#define COLLECT_BURST 64
/* How long destroy() waits for the child to exit on its own, in ms. */
#define EXIT_MS 500
/* How long it then waits after SIGTERM, before SIGKILL, in ms. */
#define REAP_MS 2000
/* The least time between two starts of the prompt, in ms. */
#define RESTART_MS 2000

struct prompt {
	int fd; /* the agent's end, -1 when there is no child */
	pid_t pid; /* the child, 0 once reaped */
	char *name; /* the program, for the log */
	char **argv; /* its arguments (copies), then --agent-fd=N */
	size_t argc; /* how many are copies */
	char fd_arg[sizeof("--agent-fd=") + 12];
	bool from_session; /* the display comes from logind */
	long long started; /* agent_now_ms() of the last start, 0: never */
	/* The questions it was given and has not answered. */
	uint64_t *ids;
	size_t n_ids, cap_ids;
};

/* ---------------------------------------------------------------------- */
/* The questions given                                                     */
/* ---------------------------------------------------------------------- */

static ssize_t find_id(const struct prompt *p, const uint64_t id)
{
	size_t i;

	for (i = 0; i < p->n_ids; i++)
		if (p->ids[i] == id)
			return (ssize_t)i;
	return -1;
}

static int add_id(struct prompt *p, const uint64_t id)
{
	uint64_t *grown;

	if (find_id(p, id) >= 0)
		return 0;
	if (p->n_ids == p->cap_ids) {
		grown = realloc(p->ids, (p->cap_ids ? p->cap_ids * 2 : 8) *
						sizeof(*p->ids));
		if (!grown)
			return -ENOMEM;
		p->ids = grown;
		p->cap_ids = p->cap_ids ? p->cap_ids * 2 : 8;
	}
	p->ids[p->n_ids++] = id;
	return 0;
}

/* Takes @id off the list: true when it was on it. */
static bool take_id(struct prompt *p, const uint64_t id)
{
	ssize_t i = find_id(p, id);

	if (i < 0)
		return false;
	p->ids[i] = p->ids[--p->n_ids];
	return true;
}

/* ---------------------------------------------------------------------- */
/* The child                                                               */
/* ---------------------------------------------------------------------- */

/* What the child reports through its error pipe when it cannot exec. */
struct child_failure {
	int call; /* index in child_calls[] */
	int err; /* errno */
};

static const char *const child_calls[] = {
	"fcntl(F_DUPFD_CLOEXEC)",
	"dup2",
	"open(/dev/null)",
	"execvpe",
};

/*
 * In the child, between fork() and exec: the socket's end at PROMPT_FD,
 * the error pipe at PROMPT_FD + 1 (closed by the exec), standard input
 * from /dev/null (the agent's terminal is not the prompt's to read), no
 * other descriptor, default signal handling.  Never returns.
 */
static void exec_child(char *const argv[], char *const envp[], const int sock,
		       const int errpipe)
{
	struct child_failure f = { 0, 0 };
	sigset_t none;
	int s, e, null, sig;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL); /* SIGPIPE is ignored in the agent */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* Out of the way of the numbers they go to, then into place. */
	s = fcntl(sock, F_DUPFD_CLOEXEC, PROMPT_FD + 2);
	e = fcntl(errpipe, F_DUPFD_CLOEXEC, PROMPT_FD + 2);
	if (s < 0 || e < 0)
		goto fail_early;
	f.call = 1;
	/* dup2() clears close-on-exec: the one descriptor the child keeps. */
	if (dup2(s, PROMPT_FD) < 0 || dup3(e, PROMPT_FD + 1, O_CLOEXEC) < 0)
		goto fail_early;
	e = PROMPT_FD + 1;
	f.call = 2;
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0)
		goto fail;
	/* Every other descriptor of the agent's: the netlink socket, the
	 * log, files it had open. */
	if (close_range(PROMPT_FD + 2, ~0U, 0)) {
		long max = sysconf(_SC_OPEN_MAX);
		int fd;

		for (fd = PROMPT_FD + 2; fd < (max > 0 ? max : 65536); fd++)
			close(fd);
	}
	f.call = 3;
	execvpe(argv[0], argv, envp);
fail:
	f.err = errno;
	if (write(e, &f, sizeof(f)) < 0) {
		/* Nobody to tell: the parent sees the pipe close. */
	}
	_exit(127);
fail_early:
	f.err = errno;
	if (write(errpipe, &f, sizeof(f)) < 0) {
		/* As above. */
	}
	_exit(127);
}

/*
 * Waits up to @ms for the child to exit (-1: for ever) and logs how it
 * ended.  true when it was reaped.
 */
static bool reap(struct agent_source *src, const long long ms)
{
	struct prompt *p = src->priv;
	const struct timespec step = { 0, 10 * 1000 * 1000 };
	long long waited = 0;
	int status;
	pid_t r;

	if (!p->pid)
		return true;
	for (;;) {
		r = waitpid(p->pid, &status, ms < 0 ? 0 : WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 0)
			break;
		if (waited >= ms)
			return false;
		nanosleep(&step, NULL);
		waited += 10;
	}
	if (r == p->pid && WIFEXITED(status))
		agent_log(src->log, "prompt: %s (pid %d) exited with status %d",
			  p->name, (int)p->pid, WEXITSTATUS(status));
	else if (r == p->pid && WIFSIGNALED(status))
		agent_log(src->log,
			  "prompt: %s (pid %d) was killed by signal %d",
			  p->name, (int)p->pid, WTERMSIG(status));
	p->pid = 0;
	return true;
}

/* The prompt went away: close our end, so that no more is sent. */
static void gone(struct agent_source *src)
{
	struct prompt *p = src->priv;

	if (p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
	p->n_ids = 0;
	reap(src, 200);
}

/* ---------------------------------------------------------------------- */
/* The source                                                              */
/* ---------------------------------------------------------------------- */

static int start(struct agent_source *src, char *err, size_t errlen);

static int prompt_post(struct agent_source *src, const struct pfsel_question *q,
		       const long long deadline_ms, struct agent_decision *d)
{
	struct prompt *p = src->priv;
	long long left = deadline_ms - agent_now_ms();
	char err[512];
	int rc;

	if (p->fd < 0) {
		if (p->started && agent_now_ms() - p->started < RESTART_MS)
			return -EAGAIN;
		rc = start(src, err, sizeof(err));
		if (rc) {
			agent_log(src->log, "prompt: not started: %s", err);
			return rc;
		}
	}
	if (left < 0)
		left = 0;
	if (left > UINT32_MAX)
		left = UINT32_MAX;
	rc = add_id(p, q->id);
	if (rc)
		return rc;
	rc = prompt_wire_send_ask(p->fd, q, (uint32_t)left);
	if (rc) {
		take_id(p, q->id);
		if (rc == -EPIPE || rc == -ECONNRESET)
			gone(src);
		return rc;
	}
	(void)d;
	return AGENT_TAKEN;
}

static int prompt_fd(struct agent_source *src)
{
	return ((struct prompt *)src->priv)->fd;
}

static int prompt_collect(struct agent_source *src, uint64_t *id,
			  struct agent_decision *d)
{
	struct prompt *p = src->priv;
	struct prompt_message m;
	int i, rc;

	if (p->fd < 0)
		return 0; /* its end was said, once; the next question starts one */
	for (i = 0; i < COLLECT_BURST; i++) {
		m.q = NULL; /* the prompt asks no questions */
		rc = prompt_wire_receive(p->fd, &m);
		if (rc == -EAGAIN)
			return 0;
		if (rc == 0 || rc == -ECONNRESET) {
			gone(src);
			return rc ? rc : -EPIPE;
		}
		if (rc == -EBADMSG) {
			agent_log(src->log,
				  "prompt: a malformed message, dropped");
			continue;
		}
		if (rc < 0)
			return rc;
		if (m.type != PROMPT_MSG_ANSWER) {
			agent_log(
				src->log,
				"prompt: a message of type %#x where only answers come, dropped",
				m.type);
			continue;
		}
		if (!take_id(p, m.id)) {
			agent_log(
				src->log,
				"question %llu: an answer from the prompt to a question it was not given, or given and already answered or taken back; ignored",
				(unsigned long long)m.id);
			continue;
		}
		*id = m.id;
		d->verdict = m.verdict;
		d->scope = m.scope;
		d->width = m.scope == PFSEL_SCOPE_ALWAYS ? m.width :
							   RULE_WIDTH_EXACT;
		return AGENT_ANSWER;
	}
	return 0; /* more later: the descriptor is still readable */
}

static void prompt_withdraw(struct agent_source *src, const uint64_t id,
			    const unsigned int reason)
{
	struct prompt *p = src->priv;
	int rc;

	if (!take_id(p, id) || p->fd < 0)
		return;
	rc = prompt_wire_send_withdraw(p->fd, id, reason);
	if (rc == -EPIPE || rc == -ECONNRESET)
		gone(src);
	else if (rc)
		agent_log(
			src->log,
			"question %llu: telling the prompt it was taken back: %s",
			(unsigned long long)id, strerror(-rc));
}

static void prompt_result(struct agent_source *src, const uint64_t id,
			  const int status, const char *text)
{
	struct prompt *p = src->priv;
	int rc;

	if (p->fd < 0)
		return;
	rc = prompt_wire_send_result(p->fd, id, status > 0 ? -status : status,
				     text);
	if (rc == -EPIPE || rc == -ECONNRESET)
		gone(src);
	else if (rc)
		agent_log(
			src->log,
			"question %llu: telling the prompt what became of its answer: %s",
			(unsigned long long)id, strerror(-rc));
}

/*
 * Closes the socket (the prompt sees its end close and exits), then, if
 * it has not, SIGTERM, a short wait, and SIGKILL: the agent does not stop
 * with its child left behind.
 */
static void prompt_destroy(struct agent_source *src)
{
	struct prompt *p = src->priv;

	if (p->fd >= 0)
		close(p->fd);
	if (p->pid && !reap(src, EXIT_MS)) {
		kill(p->pid, SIGTERM);
		if (!reap(src, REAP_MS)) {
			kill(p->pid, SIGKILL);
			reap(src, -1);
		}
	}
	free(p->ids);
	while (p->argc)
		free(p->argv[--p->argc]);
	free(p->argv);
	free(p->name);
	free(p);
	free(src);
}

/*
 * The environment the prompt runs in: the agent's as it is (@sd NULL), or
 * with the display of the user's graphical session from logind in place
 * of whatever the agent's said of displays (malloc()ed array, its strings
 * borrowed from environ and @sd).
 */
static char **child_env(const struct session_display *sd)
{
	static const char *const replaced[] = {
		"DISPLAY=",	    "WAYLAND_DISPLAY=",
		"XDG_RUNTIME_DIR=", "DBUS_SESSION_BUS_ADDRESS=",
		"XAUTHORITY=",
	};
	size_t n = 0, m = 0, i, k;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + sizeof(sd->env) / sizeof(sd->env[0]) + 1,
		     sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++) {
		for (k = 0; sd && k < sizeof(replaced) / sizeof(replaced[0]);
		     k++)
			if (!strncmp(environ[i], replaced[k],
				     strlen(replaced[k])))
				break;
		if (!sd || k == sizeof(replaced) / sizeof(replaced[0]))
			env[m++] = environ[i];
	}
	for (i = 0; sd && sd->env[i]; i++)
		env[m++] = sd->env[i];
	env[m] = NULL;
	return env;
}

/*
 * Starts the child: 0, or a negative errno with the failing call in @err
 * (-ENXIO: the user has no graphical session to show it in).
 */
static int start(struct agent_source *src, char *err, size_t errlen)
{
	struct prompt *p = src->priv;
	struct session_display sd;
	struct child_failure f;
	int sv[2] = { -1, -1 }, errpipe[2] = { -1, -1 }, rc, i;
	char **envp = NULL;
	ssize_t n;
	pid_t pid;

	if (p->from_session) {
		rc = session_display_find(getuid(), &sd, err, errlen);
		if (rc)
			return rc;
	}
	envp = child_env(p->from_session ? &sd : NULL);
	if (!envp) {
		snprintf(err, errlen, "calloc: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		rc = -errno;
		snprintf(err, errlen, "socketpair(AF_UNIX, SOCK_SEQPACKET): %s",
			 strerror(errno));
		goto fail;
	}
	if (pipe2(errpipe, O_CLOEXEC)) {
		rc = -errno;
		snprintf(err, errlen, "pipe2: %s", strerror(errno));
		goto fail;
	}
	p->started = agent_now_ms();
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0)
		exec_child(p->argv, envp, sv[1], errpipe[1]);
	close(sv[1]);
	close(errpipe[1]);
	sv[1] = errpipe[1] = -1;
	p->pid = pid;

	/* Nothing to read: the exec succeeded (the pipe closed with it). */
	do
		n = read(errpipe[0], &f, sizeof(f));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(f)) {
		if (f.call < 0 || f.call > 3)
			f.call = 3;
		if (f.call == 3)
			snprintf(err, errlen, "execvpe(%s): %s", p->name,
				 strerror(f.err));
		else
			snprintf(err, errlen, "%s, in the child for %s: %s",
				 child_calls[f.call], p->name, strerror(f.err));
		rc = f.err ? -f.err : -EIO;
		goto fail_child;
	}
	if (fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK)) {
		rc = -errno;
		snprintf(err, errlen, "fcntl(O_NONBLOCK): %s", strerror(errno));
		goto fail_child;
	}
	close(errpipe[0]);
	p->fd = sv[0];
	free(envp);
	if (p->from_session)
		agent_log(
			src->log,
			"prompt: %s (pid %d) started on session %s's display (%s, from logind)",
			p->name, (int)pid, sd.session, sd.type);
	return 0;

fail_child:
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
fail:
	for (i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (errpipe[i] >= 0)
			close(errpipe[i]);
	}
	free(envp);
	return rc;
}

/*
 * Whether @name runs: a path that is executable, or a name found so in
 * $PATH, as execvpe() would look.  0, or -errno with the reason in @err.
 */
static int runnable(const char *name, char *err, size_t errlen)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[4096];

	if (strchr(name, '/')) {
		if (!access(name, X_OK))
			return 0;
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		return -errno;
	}
	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = end) {
		end = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p), p,
			 name);
		if (!access(full, X_OK))
			return 0;
		if (*end)
			end++;
	}
	snprintf(err, errlen, "%s: not found in $PATH", name);
	return -ENOENT;
}

struct agent_source *source_prompt_new(char *const program[], char *err,
				       size_t errlen)
{
	struct agent_source *src = NULL;
	struct prompt *p = NULL;
	size_t argc = 0, i;

	if (!program || !program[0]) {
		snprintf(err, errlen, "no prompt program");
		return NULL;
	}
	while (program[argc])
		argc++;
	src = calloc(1, sizeof(*src));
	p = calloc(1, sizeof(*p));
	if (!src || !p || !(p->argv = calloc(argc + 2, sizeof(*p->argv))) ||
	    !(p->name = strdup(program[0]))) {
		snprintf(err, errlen, "calloc: %s", strerror(ENOMEM));
		goto fail;
	}
	snprintf(p->fd_arg, sizeof(p->fd_arg), "--agent-fd=%d", PROMPT_FD);
	/* Copies: a prompt that dies is started again, later. */
	for (i = 0; i < argc; i++) {
		p->argv[i] = strdup(program[i]);
		if (!p->argv[i]) {
			snprintf(err, errlen, "strdup: %s", strerror(ENOMEM));
			goto fail;
		}
		p->argc = i + 1;
	}
	p->argv[argc] = p->fd_arg;
	p->fd = -1;
	/* No display of its own: the session's, from logind. */
	p->from_session = !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY");
	src->name = "prompt";
	src->post = prompt_post;
	src->fd = prompt_fd;
	src->collect = prompt_collect;
	src->withdraw = prompt_withdraw;
	src->result = prompt_result;
	src->log = stderr;
	src->destroy = prompt_destroy;
	src->priv = p;
	/*
	 * With a display given, start now, so that a wrong program is an
	 * error at once; from logind, at the first question that finds a
	 * graphical session.
	 */
	if (p->from_session ? runnable(p->name, err, errlen) :
			      start(src, err, errlen))
		goto fail;
	return src;

fail:
	if (p) {
		for (i = 0; p->argv && i < p->argc; i++)
			free(p->argv[i]);
		free(p->argv);
		free(p->name);
	}
	free(p);
	free(src);
	return NULL;
}
