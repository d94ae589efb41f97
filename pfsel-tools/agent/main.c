// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - answers the kernel's questions for one user.
 *
 * Read the options, build the chain of decision sources, open the
 * netlink handle and register, then take questions as they come: log
 * each, ask the sources that decide at once in turn, answer (or not), log
 * the outcome, and for "always" make the answer a rule of ~/.pfw.  With
 * the desktop prompt (--prompt), a question none of them decides is handed
 * to it and stays pending -- many may -- while the agent goes on taking
 * questions; one poll() waits for the kernel, the prompt's answers and the
 * nearest question's deadline, at which the question is taken back from
 * the prompt.  See pfsel-agent(1).
 *
 * Only the root side registers an agent (CAP_MAC_ADMIN): a user's own
 * programs must not answer the questions their policy asks.  With --user,
 * root starts the agent, which reads what decides its answers (the rule
 * file) as root, registers for the user, and then becomes the user for
 * good, non-dumpable (no ptrace, /proc/PID/mem or core dump by the user's
 * other programs).  The kernel lets this process, and it alone, go on
 * answering on its socket and load the user's policy.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <linux/capability.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"
#include "prompt_wire.h"
#include "userpolicy.h"

/* Exit statuses (pfsel-agent(1)). */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1, /* the socket failed, or another agent took over */
	EXIT_USAGE = 2,
	EXIT_FILE = 3, /* a rule file or the log could not be read/opened */
	EXIT_NO_KERNEL = 4, /* no "pfsel" generic netlink family */
	EXIT_PERM = 5, /* not root: the kernel refused to register */
};

#define MAX_SOURCES 4

/* The program --prompt runs when it names none. */
#define PROMPT_PROGRAM "pfsel-prompt"

/**
 * struct pending - A question handed to an asynchronous source
 * @id: the kernel's id.
 * @deadline: CLOCK_MONOTONIC ms after which an answer is useless.
 * @src: the source that has it.
 * @q: a copy (malloc()ed), for the log and the "always" rule.
 */
struct pending {
	uint64_t id;
	long long deadline;
	struct agent_source *src;
	struct pfsel_question *q;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pfsel-agent --user=USER [OPTION]...\n"
		"Answer pfsel's questions for USER: a policy rule said 'ask'.\n"
		"\n"
		"  -u, --user=USER      the user (name or uid) to answer for.  Start as\n"
		"                       root (sudo, or the unit pfsel-agent@USER): the\n"
		"                       agent registers, then runs as USER for good.\n"
		"                       Without it, the agent answers for the uid it\n"
		"                       runs as, which must be root's.\n"
		"\n"
		"Decision sources, tried in this order; the first that decides answers:\n"
		"  -r, --rules=FILE     answer by the first matching rule of FILE, .pfw\n"
		"                       rules with a scope (with --user: a file only\n"
		"                       root can change)\n"
		"  -a, --auto=VERDICT   answer every question allow or deny\n"
		"  -s, --scope=SCOPE    scope of the --auto answer: once (default),\n"
		"                       process, session or always\n"
		"  -i, --interactive    prompt on the terminal (the default when none of\n"
		"                       --rules, --auto and --prompt is given)\n"
		"      --prompt[=PROGRAM]  ask on the desktop: run PROGRAM (default:\n"
		"                       pfsel-prompt beside pfsel-agent, else in $PATH)\n"
		"                       as USER, the agent's child, with --agent-fd=N;\n"
		"                       it answers over that private socket pair only.\n"
		"                       Questions wait in its window while the agent\n"
		"                       takes more; one whose time runs out is taken\n"
		"                       back.  Its display: $DISPLAY or\n"
		"                       $WAYLAND_DISPLAY, else the user's graphical\n"
		"                       session's, from logind.  Not with --interactive.\n"
		"A question no source decides is not answered: the policy's unanswered\n"
		"verdict applies when its time-out runs out.\n"
		"\n"
		"Answers with scope 'always' become rules:\n"
		"      --pfw=FILE       the policy source to add them to (default ~/.pfw,\n"
		"                       in USER's home with --user)\n"
		"      --policy=FILE    where to write the compiled policy it loads\n"
		"                       (default: what pfwc writes for FILE,\n"
		"                       ~/.pfw.pfsel); the agent compiles it itself\n"
		"\n"
		"  -l, --log=FILE       append the log to FILE (default: standard error)\n"
		"  -n, --count=N        exit after N questions\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"Exit status: 0 stopped by SIGINT/SIGTERM or --count, 1 the netlink\n"
		"socket failed, another agent replaced this one, or the --prompt\n"
		"program could not be started, 2 wrong usage, 3 a\n"
		"file could not be read or opened (or a rule file others than root can\n"
		"change), 4 the kernel has no pfsel netlink family (pfsel inactive, or\n"
		"without ask), 5 not started as root.\n");
}

struct agent {
	struct pfsel_agent *nl;
	struct agent_source *sources[MAX_SOURCES];
	size_t n_sources;
	struct pending *pending;
	size_t n_pending, cap_pending;
	struct pfw_config pfw;
	FILE *log;
};

/* The user of --user, copied out of getpwnam()'s static buffer. */
struct agent_user {
	uid_t uid;
	gid_t gid;
	char *name;
	char *dir;
};

/* @arg as a user name, else as a uid: 0, or -1 with a message printed. */
static int lookup_user(const char *arg, struct agent_user *u)
{
	struct passwd *pw;
	unsigned long n;
	char *end;

	errno = 0;
	pw = getpwnam(arg);
	if (!pw && arg[0] >= '0' && arg[0] <= '9') {
		errno = 0;
		n = strtoul(arg, &end, 10);
		if (!*end && !errno && n < (uid_t)-1)
			pw = getpwuid((uid_t)n);
	}
	if (!pw) {
		fprintf(stderr,
			"pfsel-agent: --user: no user '%s' in the user database%s%s\n",
			arg, errno ? ": " : "", errno ? strerror(errno) : "");
		return -1;
	}
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->name = strdup(pw->pw_name);
	u->dir = strdup(pw->pw_dir && *pw->pw_dir ? pw->pw_dir : "/");
	if (!u->name || !u->dir) {
		fprintf(stderr, "pfsel-agent: %s\n", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/*
 * The policy @uid last confirmed, as pam_pfsel and "pfsel confirm" keep
 * it (root's alone), into @c: 0, 0 with no blob when there is none, or -1
 * with a message printed.  Read as root, before the drop.
 */
static int read_confirmed(uid_t uid, struct policy_blob *c)
{
	int fd, ret;

	fd = confirmed_open_existing();
	if (fd == -ENOENT)
		return 0;
	ret = fd < 0 ? fd : confirmed_read(fd, uid, &c->blob, &c->len);
	if (fd >= 0)
		close(fd);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		fprintf(stderr, "pfsel-agent: %s/%s/%u.pfsel: %s\n",
			POLICY_CACHE_DIR, POLICY_CONFIRMED_DIR,
			(unsigned int)uid,
			ret == -EBADMSG ? "not a policy of the user's" :
			ret == -EPERM	? "not a folder only root can change" :
					  strerror(-ret));
		c->blob = NULL;
		return -1;
	}
	return 0;
}

/* Fails with the syscall's name and errno, for drop_to(). */
static int drop_failed(const char *what)
{
	fprintf(stderr, "pfsel-agent: %s: %s\n", what, strerror(errno));
	return -1;
}

/*
 * Becomes @u for good: its groups, gid and uid (real, effective, saved),
 * then checks that none of root's can be had back and that no capability
 * is left; no new privileges on exec (the prompt), not dumpable (the user's
 * other programs can neither ptrace it nor read or write its memory
 * through /proc), no core dump.  0, or -1 with a message printed: the
 * caller must then exit, not answer.
 */
static int drop_to(const struct agent_user *u)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	const struct rlimit no_core = { 0, 0 };
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	size_t i;

	if (initgroups(u->name, u->gid))
		return drop_failed("initgroups");
	if (setresgid(u->gid, u->gid, u->gid))
		return drop_failed("setresgid");
	if (setresuid(u->uid, u->uid, u->uid))
		return drop_failed("setresuid");
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid))
		return drop_failed("getresuid");
	if (ruid != u->uid || euid != u->uid || suid != u->uid ||
	    rgid != u->gid || egid != u->gid || sgid != u->gid) {
		errno = EPERM;
		return drop_failed("the uids and gids after setresuid");
	}
	if (u->uid != 0) {
		if (!setresuid(0, 0, 0) || !setresgid(0, 0, 0) ||
		    !setgroups(0, NULL)) {
			errno = EPERM;
			return drop_failed("root's ids could be had back");
		}
		if (syscall(SYS_capget, &hdr, caps))
			return drop_failed("capget");
		for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
			if (caps[i].effective || caps[i].permitted ||
			    caps[i].inheritable) {
				errno = EPERM;
				return drop_failed("capabilities are left");
			}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return drop_failed("prctl(PR_SET_NO_NEW_PRIVS)");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return drop_failed("prctl(PR_SET_DUMPABLE, 0)");
	if (setrlimit(RLIMIT_CORE, &no_core))
		return drop_failed("setrlimit(RLIMIT_CORE)");
	/* ~/.pfw and the defaults are the user's world, not root's. */
	if (setenv("HOME", u->dir, 1) || setenv("USER", u->name, 1) ||
	    setenv("LOGNAME", u->name, 1))
		return drop_failed("setenv");
	if (chdir(u->dir) && chdir("/"))
		return drop_failed("chdir(/)");
	return 0;
}

/*
 * Makes an "always" answer a rule of the user's policy, as wide as
 * @d->width.  Returns 0 when the rule was added and loaded, else a
 * negative errno; either way @text (for the prompt) says what became of
 * it in a line.
 */
static int make_permanent(struct agent *a, const struct pfsel_question *q,
			  const struct agent_decision *d, char *text,
			  size_t size)
{
	/* The executable and the script, each escaped, and the rest. */
	char rule[2 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) + 512];
	char exe[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)], err[4096];
	int rc;

	if (q->policy == 0 && d->verdict == PFSEL_ANSWER_ALLOW) {
		agent_log(
			a->log,
			"question %llu: the system policy asked; a rule of %s cannot allow more than it does, not adding one",
			(unsigned long long)q->id, a->pfw.pfw);
		snprintf(
			text, size,
			"no rule added: the system policy asked, and a rule of %s cannot allow more than it does",
			a->pfw.pfw);
		return -EPERM;
	}
	rc = pfw_answer_rule(q, d->verdict, d->width, rule, sizeof(rule));
	if (rc == -ENOENT) {
		/* A host width for an address without a name (a bad prompt). */
		agent_log(
			a->log,
			"question %llu: no rule added: the answer's width is %s, and the kernel named no host for the address that a rule can name",
			(unsigned long long)q->id, rule_width_name(d->width));
		snprintf(
			text, size,
			"no rule added: the kernel named no host for the address that a rule can name");
		return rc;
	}
	if (rc < 0) {
		pfsel_escape(q->exe, exe, sizeof(exe), 0);
		agent_log(a->log, "question %llu: no rule can name %s (%s)",
			  (unsigned long long)q->id, exe,
			  rc == -EINVAL ? "an unnamed application" :
					  strerror(-rc));
		snprintf(text, size, "no rule added: no rule can name %s (%s)",
			 exe,
			 rc == -EINVAL ? "an unnamed application" :
					 strerror(-rc));
		return rc;
	}
	rc = pfw_add_rule(&a->pfw, rule, err, sizeof(err));
	if (rc) {
		/* The compiler's messages may span lines: one log line each. */
		char *save = NULL, *line;

		agent_log(
			a->log,
			"question %llu: could not add '%s' to %s (%s); the file is unchanged unless it says otherwise:",
			(unsigned long long)q->id, rule, a->pfw.pfw,
			strerror(-rc));
		snprintf(text, size,
			 "could not add '%s' to %s (%s); see the agent's log",
			 rule, a->pfw.pfw, strerror(-rc));
		for (line = strtok_r(err, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			agent_log(a->log, "  %s", line);
		return rc;
	}
	agent_log(a->log, "question %llu: added '%s' to %s, loaded %s",
		  (unsigned long long)q->id, rule, a->pfw.pfw, a->pfw.out);
	snprintf(text, size, "added '%s' to %s", rule, a->pfw.pfw);
	return 0;
}

/*
 * Answers @q as @d says, source @by, and logs it; for "always", makes it
 * a rule.  @status and @text get what became of it, for a source that
 * wants to tell the person.  Returns an exit status to stop with, or -1.
 */
static int deliver(struct agent *a, const struct pfsel_question *q,
		   const struct agent_decision *d, const char *by, int *status,
		   char *text, size_t size)
{
	int rc;

	rc = pfsel_agent_answer(a->nl, q->id, d->verdict, d->scope);
	*status = rc;
	if (rc == -ENOENT) {
		agent_log(
			a->log,
			"question %llu: answered %s %s too late: it had expired",
			(unsigned long long)q->id,
			pfsel_answer_name(d->verdict),
			pfsel_scope_name(d->scope));
		snprintf(
			text, size,
			"too late: the question had expired, and the policy's unanswered verdict applied");
	} else if (rc == -EPERM) {
		agent_log(
			a->log,
			"question %llu: %s: this agent is no longer registered (another agent of this uid replaced it); exiting",
			(unsigned long long)q->id, pfsel_last_error());
		snprintf(text, size,
			 "not answered: this agent is no longer registered");
		return EXIT_RUNTIME;
	} else if (rc) {
		agent_log(a->log, "question %llu: %s",
			  (unsigned long long)q->id, pfsel_last_error());
		snprintf(text, size, "not answered: %s", pfsel_last_error());
	} else {
		agent_log(a->log, "question %llu: answered %s %s (by %s)",
			  (unsigned long long)q->id,
			  pfsel_answer_name(d->verdict),
			  pfsel_scope_name(d->scope), by);
		snprintf(text, size, "answered %s %s",
			 pfsel_answer_name(d->verdict),
			 pfsel_scope_name(d->scope));
	}
	if (!rc && d->scope == PFSEL_SCOPE_ALWAYS)
		*status = make_permanent(a, q, d, text, size);
	return -1;
}

static void log_unanswered(struct agent *a, uint64_t id)
{
	agent_log(
		a->log,
		"question %llu: not answered (the policy's unanswered verdict applies)",
		(unsigned long long)id);
}

/* Keeps @q, handed to @src, until it is answered or its time is up. */
static int add_pending(struct agent *a, const struct pfsel_question *q,
		       long long deadline, struct agent_source *src)
{
	struct pending *grown;
	struct pfsel_question *copy = malloc(sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	if (a->n_pending == a->cap_pending) {
		size_t cap = a->cap_pending ? 2 * a->cap_pending : 8;

		grown = realloc(a->pending, cap * sizeof(*grown));
		if (!grown) {
			free(copy);
			return -ENOMEM;
		}
		a->pending = grown;
		a->cap_pending = cap;
	}
	*copy = *q;
	a->pending[a->n_pending++] = (struct pending){
		.id = q->id, .deadline = deadline, .src = src, .q = copy
	};
	return 0;
}

/* Forgets pending question @i (order is not kept). */
static void drop_pending(struct agent *a, size_t i)
{
	free(a->pending[i].q);
	a->pending[i] = a->pending[--a->n_pending];
}

/*
 * Hands @q to the first asynchronous source still there: true when one
 * took it.
 */
static bool post(struct agent *a, const struct pfsel_question *q,
		 long long deadline)
{
	struct agent_source *src;
	size_t i;
	int rc;

	for (i = 0; i < a->n_sources && !stop; i++) {
		src = a->sources[i];
		if (!src->post)
			continue;
		rc = add_pending(a, q, deadline, src);
		if (!rc) {
			rc = src->post(src, q, deadline);
			if (rc)
				drop_pending(a, a->n_pending - 1);
		}
		if (!rc) {
			agent_log(a->log, "question %llu: asked the %s",
				  (unsigned long long)q->id, src->name);
			return true;
		}
		agent_log(a->log, "question %llu: source %s failed: %s",
			  (unsigned long long)q->id, src->name, strerror(-rc));
	}
	return false;
}

/*
 * --prompt's program when it names none: pfsel-prompt beside this
 * pfsel-agent (malloc()ed), when there is one; NULL: look it up in $PATH.
 */
static char *prompt_default(void)
{
	char self[PATH_MAX], *path;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	if (asprintf(&path, "%s/%s", dirname(self), PROMPT_PROGRAM) < 0)
		return NULL;
	if (access(path, X_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* Handles one question; returns an exit status to stop with, or -1. */
static int handle(struct agent *a, const struct pfsel_question *q)
{
	char text[2 * PFSEL_QUESTION_PATH_MAX +
		  PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_SECCTX_MAX) +
		  PFSEL_ESCAPE_SIZE(PFSEL_HOSTS_TEXT_MAX) + 512];
	long long deadline = agent_now_ms() + q->timeout_ms;
	struct agent_decision d = { 0 };
	const char *by = NULL;
	size_t i;
	int rc, status;

	pfsel_question_format(q, text, sizeof(text));
	agent_log(a->log, "question %llu: %s", (unsigned long long)q->id, text);
	for (i = 0; i < a->n_sources && !by && !stop; i++) {
		if (!a->sources[i]->decide)
			continue;
		rc = a->sources[i]->decide(a->sources[i], q, deadline, &d);
		if (rc < 0)
			agent_log(a->log, "question %llu: source %s failed: %s",
				  (unsigned long long)q->id,
				  a->sources[i]->name, strerror(-rc));
		else if (rc == 1)
			by = a->sources[i]->name;
	}
	if (!by) {
		if (!stop && post(a, q, deadline))
			return -1;
		log_unanswered(a, q->id);
		return -1;
	}
	return deliver(a, q, &d, by, &status, text, sizeof(text));
}

/*
 * The answers asynchronous source @i has ready; returns an exit status to
 * stop with, or -1.
 */
static int collect(struct agent *a, size_t i)
{
	struct agent_source *src = a->sources[i];
	char text[2 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) + 1024];
	struct agent_decision d;
	uint64_t id;
	size_t k;
	int rc, status, ret;

	for (;;) {
		memset(&d, 0, sizeof(d));
		rc = src->collect(src, &id, &d);
		if (rc == 0)
			return -1;
		if (rc < 0) {
			agent_log(
				a->log,
				"source %s failed: %s; the questions it had are not answered",
				src->name, strerror(-rc));
			for (k = a->n_pending; k-- > 0;) {
				if (a->pending[k].src != src)
					continue;
				log_unanswered(a, a->pending[k].id);
				drop_pending(a, k);
			}
			return -1;
		}
		for (k = 0; k < a->n_pending; k++)
			if (a->pending[k].src == src && a->pending[k].id == id)
				break;
		if (k == a->n_pending) {
			/* Taken back, or never given: the kernel never sees it. */
			agent_log(
				a->log,
				"question %llu: an answer from the %s to a question that is not its to answer; ignored",
				(unsigned long long)id, src->name);
			continue;
		}
		ret = deliver(a, a->pending[k].q, &d, src->name, &status, text,
			      sizeof(text));
		drop_pending(a, k);
		if (src->result)
			src->result(src, id, status, text);
		if (ret >= 0)
			return ret;
	}
}

/* Takes back the questions whose time ran out: the kernel decided them. */
static void expire(struct agent *a)
{
	long long now = agent_now_ms();
	size_t k;

	for (k = a->n_pending; k-- > 0;) {
		if (a->pending[k].deadline > now)
			continue;
		if (a->pending[k].src->withdraw)
			a->pending[k].src->withdraw(a->pending[k].src,
						    a->pending[k].id,
						    PROMPT_WITHDRAW_EXPIRED);
		log_unanswered(a, a->pending[k].id);
		drop_pending(a, k);
	}
}

/* ms until the nearest pending deadline, -1 with none pending. */
static int next_timeout(const struct agent *a)
{
	long long now = agent_now_ms(), first = -1, left;
	size_t k;

	for (k = 0; k < a->n_pending; k++)
		if (first < 0 || a->pending[k].deadline < first)
			first = a->pending[k].deadline;
	if (first < 0)
		return -1;
	left = first - now;
	return left < 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
}

/*
 * Takes questions, and answers from the asynchronous sources, until a
 * signal, --count questions (and their answers), or an error: returns the
 * exit status.
 */
static int serve(struct agent *a, struct pfsel_question *q, unsigned long count,
		 unsigned long *seen)
{
	struct pollfd pfd[1 + MAX_SOURCES];
	size_t at[1 + MAX_SOURCES];
	nfds_t n, first;
	size_t i;
	int rc, timeout, fd;
	bool taking;

	for (;;) {
		taking = !count || *seen < count;
		if (stop || (!taking && !a->n_pending))
			return EXIT_OK;
		n = 0;
		timeout = next_timeout(a);
		if (taking) {
			pfd[n++] = (struct pollfd){ .fd = pfsel_agent_fd(a->nl),
						    .events = POLLIN };
			/* Questions that came while an answer was sent. */
			if (pfsel_agent_pending(a->nl))
				timeout = 0;
		}
		first = n; /* the sources' descriptors from here on */
		for (i = 0; i < a->n_sources; i++) {
			if (!a->sources[i]->collect)
				continue;
			/* None while it has no child: the next post starts one. */
			fd = a->sources[i]->fd(a->sources[i]);
			if (fd < 0)
				continue;
			at[n] = i;
			pfd[n++] =
				(struct pollfd){ .fd = fd, .events = POLLIN };
		}
		rc = poll(pfd, n, timeout);
		if (rc < 0 && errno != EINTR) {
			agent_log(a->log, "poll: %s", strerror(errno));
			return EXIT_RUNTIME;
		}
		if (stop)
			return EXIT_OK;

		/* Every question libpfsel has, without waiting. */
		while (taking && !stop) {
			rc = pfsel_agent_receive(a->nl, q, 0);
			if (rc == 0 || rc == -EINTR)
				break;
			if (rc == -ENOBUFS) {
				agent_log(a->log, "%s", pfsel_last_error());
				continue;
			}
			if (rc < 0) {
				agent_log(a->log, "%s", pfsel_last_error());
				return EXIT_RUNTIME;
			}
			(*seen)++;
			rc = handle(a, q);
			if (rc >= 0)
				return rc;
			taking = !count || *seen < count;
		}
		for (i = first; i < n && !stop; i++) {
			if (!pfd[i].revents && pfd[i].fd >= 0)
				continue;
			rc = collect(a, at[i]);
			if (rc >= 0)
				return rc;
		}
		expire(a);
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "rules", required_argument, NULL, 'r' },
		{ "auto", required_argument, NULL, 'a' },
		{ "scope", required_argument, NULL, 's' },
		{ "interactive", no_argument, NULL, 'i' },
		{ "prompt", optional_argument, NULL, 'p' },
		{ "pfw", required_argument, NULL, 'P' },
		{ "policy", required_argument, NULL, 'O' },
		{ "log", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rules_path = NULL, *log_path = NULL, *pfw_path = NULL;
	const char *out_path = NULL, *user_arg = NULL;
	struct agent_user user = { 0 };
	struct policy_blob confirmed = { 0 };
	char *rules_real = NULL, *services = NULL;
	uid_t agent_uid;
	int auto_verdict = -1, auto_scope = PFSEL_SCOPE_ONCE;
	bool interactive = false, prompt = false;
	const char *prompt_arg = NULL;
	char *prompt_path = NULL;
	unsigned long count = 0, seen = 0;
	struct agent a = { .pfw = { .load = true } };
	char *default_pfw = NULL, *default_out = NULL, err[4096];
	struct pfsel_question *q = NULL;
	struct sigaction sa;
	int opt, rc, status = EXIT_OK;
	size_t i;
	char *end;

	while ((opt = getopt_long(argc, argv, "u:r:a:s:il:n:hV", options,
				  NULL)) != -1) {
		switch (opt) {
		case 'u':
			user_arg = optarg;
			break;
		case 'r':
			rules_path = optarg;
			break;
		case 'a':
			auto_verdict = pfsel_answer_from_name(optarg);
			if (auto_verdict < 0 || strlen(optarg) == 1) {
				fprintf(stderr,
					"pfsel-agent: --auto: '%s' is not allow or deny\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 's':
			auto_scope = pfsel_scope_from_name(optarg);
			if (auto_scope < 0 || strlen(optarg) == 1) {
				fprintf(stderr,
					"pfsel-agent: --scope: '%s' is not once, process, session or always\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'i':
			interactive = true;
			break;
		case 'p':
			prompt = true;
			prompt_arg = optarg;
			if (prompt_arg && !*prompt_arg) {
				fprintf(stderr,
					"pfsel-agent: --prompt=: an empty program name\n");
				return EXIT_USAGE;
			}
			break;
		case 'P':
			pfw_path = optarg;
			break;
		case 'O':
			out_path = optarg;
			break;
		case 'l':
			log_path = optarg;
			break;
		case 'n':
			errno = 0;
			count = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || count == 0 ||
			    optarg[0] == '-') {
				fprintf(stderr,
					"pfsel-agent: --count: '%s' is not a positive number\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("pfsel-agent %s\n", PFSEL_TOOLS_VERSION);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pfsel-agent: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (interactive && prompt) {
		fprintf(stderr,
			"pfsel-agent: --interactive and --prompt: choose one: the terminal or the desktop prompt\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!rules_path && auto_verdict < 0 && !prompt)
		interactive = true;

	if (user_arg) {
		if (geteuid() != 0) {
			fprintf(stderr,
				"pfsel-agent: --user %s: start the agent as root (sudo pfsel-agent --user %s, or systemctl start pfsel-agent@%s): it registers for the user, then runs as the user\n",
				user_arg, user_arg, user_arg);
			return EXIT_PERM;
		}
		if (lookup_user(user_arg, &user)) {
			status = EXIT_USAGE;
			goto out;
		}
	}
	agent_uid = user_arg ? user.uid : getuid();

	if (!pfw_path) {
		const char *home = user_arg ? user.dir : getenv("HOME");

		if (!home || !*home) {
			fprintf(stderr,
				"pfsel-agent: $HOME is not set: give --pfw\n");
			return EXIT_USAGE;
		}
		default_pfw = malloc(strlen(home) + sizeof("/.pfw"));
		if (!default_pfw)
			return EXIT_RUNTIME;
		sprintf(default_pfw, "%s/.pfw", home);
		pfw_path = default_pfw;
	}
	if (!out_path) {
		default_out = pfw_default_output(pfw_path);
		if (!default_out)
			return EXIT_RUNTIME;
		out_path = default_out;
	}
	a.pfw.pfw = pfw_path;
	a.pfw.out = out_path;
	a.pfw.confirmed = &confirmed;
	if (user_arg && read_confirmed(user.uid, &confirmed)) {
		status = EXIT_FILE;
		goto out;
	}

	a.log = stderr;
	if (rules_path && user_arg) {
		/* Read as root, and only if the user cannot change it. */
		rules_real =
			source_rules_trusted_path(rules_path, err, sizeof(err));
		if (!rules_real) {
			fprintf(stderr, "pfsel-agent: %s\n", err);
			status = EXIT_FILE;
			goto out;
		}
		rules_path = rules_real;
	}
	/*
	 * The vocabulary of service names, of the rule file and of ~/.pfw as
	 * the agent compiles it: root's too, for an agent of a user.
	 */
	services = source_rules_services(user_arg != NULL, err, sizeof(err));
	if (!services && err[0]) {
		fprintf(stderr, "pfsel-agent: %s\n", err);
		status = EXIT_FILE;
		goto out;
	}
	a.pfw.services = services;
	if (rules_path) {
		a.sources[a.n_sources] = source_rules_new(
			rules_path, services, stderr, err, sizeof(err));
		if (!a.sources[a.n_sources]) {
			fprintf(stderr, "pfsel-agent: %s\n", err);
			status = EXIT_FILE;
			goto out;
		}
		a.n_sources++;
	}
	if (auto_verdict >= 0)
		a.sources[a.n_sources++] = source_auto_new(
			(unsigned int)auto_verdict, (unsigned int)auto_scope);
	if (interactive)
		a.sources[a.n_sources++] =
			source_terminal_new(STDIN_FILENO, stderr);
	for (i = 0; i < a.n_sources; i++) {
		if (!a.sources[i]) {
			fprintf(stderr, "pfsel-agent: %s\n", strerror(ENOMEM));
			status = EXIT_RUNTIME;
			goto out;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits end at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	rc = pfsel_agent_open(&a.nl);
	if (rc) {
		fprintf(stderr, "pfsel-agent: %s\n", pfsel_last_error());
		status = rc == -ENOENT ? EXIT_NO_KERNEL : EXIT_RUNTIME;
		goto out;
	}
	rc = pfsel_agent_register_for(a.nl, agent_uid);
	if (rc == -EPERM) {
		fprintf(stderr,
			"pfsel-agent: %s\n"
			"pfsel-agent: the kernel lets only root register an agent, so that the user's own programs cannot answer their questions: start it as root for the user, with sudo pfsel-agent --user USER, or systemctl start pfsel-agent@USER (pfsel-agent(1))\n",
			pfsel_last_error());
		status = EXIT_PERM;
		goto out;
	}
	if (rc) {
		fprintf(stderr, "pfsel-agent: %s\n", pfsel_last_error());
		status = EXIT_RUNTIME;
		goto out;
	}
	if (user_arg && drop_to(&user)) {
		status = EXIT_RUNTIME;
		goto out;
	}
	/* Opened as the user: root opens no path the user may have named. */
	if (log_path) {
		a.log = fopen(log_path, "ae");
		if (!a.log) {
			fprintf(stderr, "pfsel-agent: open(%s): %s\n", log_path,
				strerror(errno));
			status = EXIT_FILE;
			goto out;
		}
	}
	if (prompt) {
		/* As the user, in the user's environment: the person's own
		 * window, and a child that can be told nothing root knows. */
		char *program[2] = { (char *)prompt_arg, NULL };

		if (!prompt_arg) {
			prompt_path = prompt_default();
			program[0] = prompt_path ? prompt_path : PROMPT_PROGRAM;
		}
		a.sources[a.n_sources] =
			source_prompt_new(program, err, sizeof(err));
		if (!a.sources[a.n_sources]) {
			fprintf(stderr, "pfsel-agent: --prompt: %s\n", err);
			if (a.log != stderr)
				agent_log(a.log, "--prompt: %s", err);
			status = EXIT_RUNTIME;
			goto out;
		}
		a.sources[a.n_sources++]->log = a.log;
	}
	if (user_arg && !confirmed.blob)
		agent_log(
			a.log,
			"no policy of uid %u was confirmed (%s/%s): 'always' loads %s only if it is the policy in force, with the rule",
			(unsigned int)agent_uid, POLICY_CACHE_DIR,
			POLICY_CONFIRMED_DIR, a.pfw.pfw);
	agent_log(a.log,
		  "registered as the agent of uid %u%s%s (sources:%s%s%s%s)",
		  (unsigned int)agent_uid, user_arg ? ", running as " : "",
		  user_arg ? user.name : "", rules_path ? " rules" : "",
		  auto_verdict >= 0 ? " auto" : "",
		  interactive ? " terminal" : "", prompt ? " prompt" : "");

	q = malloc(sizeof(*q));
	if (!q) {
		status = EXIT_RUNTIME;
		goto out;
	}
	status = serve(&a, q, count, &seen);
	if (status == EXIT_OK)
		agent_log(a.log, "stopping after %lu question%s", seen,
			  seen == 1 ? "" : "s");

out:
	/* The kernel gives what is still pending its unanswered verdict. */
	while (a.n_pending) {
		struct pending *p = &a.pending[a.n_pending - 1];

		if (p->src->withdraw)
			p->src->withdraw(p->src, p->id,
					 PROMPT_WITHDRAW_STOPPING);
		log_unanswered(&a, p->id);
		drop_pending(&a, a.n_pending - 1);
	}
	free(a.pending);
	free(q);
	free(prompt_path);
	pfsel_agent_close(a.nl); /* closing unregisters */
	for (i = 0; i < a.n_sources; i++)
		if (a.sources[i])
			a.sources[i]->destroy(a.sources[i]);
	if (a.log && a.log != stderr)
		fclose(a.log);
	free(default_pfw);
	free(default_out);
	free(rules_real);
	free(services);
	free(confirmed.blob);
	free(user.name);
	free(user.dir);
	return status;
}
