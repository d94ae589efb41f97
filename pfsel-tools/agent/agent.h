/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - the pieces of the agent, and the seam between them.
 *
 * main() runs four steps, in an order that is part of the agent's
 * security (pfsel-agent(1)):
 *
 *   options.c   the command line (agent_options_parse())
 *   root.c      what it does as root (agent_as_root()): whom it answers
 *               for, what decides its answers (read as root: the user's
 *               programs must not choose them), registering with the
 *               kernel, which only root may
 *   become.c    becoming the user for good (agent_become_user()), and
 *               then what it opens as the user: the log, the desktop
 *               prompt
 *   serve.c     serving (agent_serve()): questions from the kernel,
 *               answers from the sources, until a signal or --count
 *
 * with answer.c delivering an answer to the kernel and making an
 * "always" answer a rule of ~/.pfw (pfw.c).
 *
 * A question goes through a chain of decision sources, in order: the first
 * that decides answers it; when none does, the question is left unanswered
 * and the kernel applies the policy's unanswered verdict.  A source is a
 * struct of function pointers, so that a desktop prompt (a D-Bus
 * notification, say) is one more implementation of it, beside these:
 *
 *   rules     a rule file (--rules), first match wins    (source_rules.c)
 *   auto      one fixed answer (--auto), for tests        (source_auto.c)
 *   terminal  a prompt on the terminal (the default)      (source_terminal.c)
 *   prompt    the desktop prompt, pfsel-prompt, a child   (source_prompt.c)
 *
 * Every source is asynchronous: it is handed a question (post()) and
 * decides at once (rules, auto) or answers later, when its descriptor is
 * readable (collect(): the terminal, the prompt), so that a person taking
 * their time never stops the agent hearing the kernel; questions queue
 * while the agent goes on receiving them, and a question whose time runs
 * out is taken back (withdraw()).
 */
#ifndef PFSEL_AGENT_H
#define PFSEL_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <pfsel/pfsel.h>

#include "pfw.h"

/*
 * An answer: PFSEL_ANSWER_* and PFSEL_SCOPE_*; for scope always, how wide
 * the rule it becomes is (enum rule_width, userpolicy.h; 0, the
 * exact address and port, unless a source says otherwise).
 */
struct agent_decision {
	unsigned int verdict;
	unsigned int scope;
	unsigned int width;
};

/* What a source's post() did with a question. */
enum agent_post {
	AGENT_TAKEN, /* it answers later, through collect() */
	AGENT_DECIDED, /* decided at once: the answer is in @d */
	AGENT_PASSED, /* not this source's: the next source is asked */
};

/* What a source's collect() has: 0 nothing now, or one of these. */
enum agent_collect {
	AGENT_ANSWER = 1, /* an answer to question @id, in @d */
	AGENT_RELEASED, /* question @id given back: it can no longer ask it */
};

/**
 * struct agent_source - A source of decisions
 * @name: for the log ("rules", "terminal", ...).
 * @post: hand it @q: enum agent_post (AGENT_DECIDED with @d filled in),
 *        or a negative errno (logged; the next source is tried).
 *        @deadline_ms is the CLOCK_MONOTONIC time, in ms, after which an
 *        answer is useless.  It never waits for a person.
 * @fd: the descriptor that is readable when collect() has something, -1
 *      when there is none now; NULL for a source that decides at once.
 * @collect: what the source has ready: enum agent_collect with @id (and
 *           @d for an answer), 0 when there is nothing now, a negative
 *           errno when the source is gone (its questions are then left
 *           unanswered).
 * @withdraw: the question @id is no longer the source's to answer
 *            (enum prompt_withdraw_reason, prompt_wire.h).
 * @result: what became of an answer the source gave: @status 0 or a
 *          negative errno, @text a line for the person (the rule added,
 *          or why none was).  May be NULL.
 * @log: where a source that answers later logs what it drops (a
 *       malformed message, an answer to a question it was not given);
 *       standard error unless its creator sets another (NULL: nowhere).
 * @destroy: free the source.
 * @priv: the implementation's state.
 */
struct agent_source {
	const char *name;
	int (*post)(struct agent_source *src, const struct pfsel_question *q,
		    long long deadline_ms, struct agent_decision *d);
	int (*fd)(struct agent_source *src);
	int (*collect)(struct agent_source *src, uint64_t *id,
		       struct agent_decision *d);
	void (*withdraw)(struct agent_source *src, uint64_t id,
			 unsigned int reason);
	void (*result)(struct agent_source *src, uint64_t id, int status,
		       const char *text);
	FILE *log;
	void (*destroy)(struct agent_source *src);
	void *priv;
};

/* source_auto.c: always @verdict with @scope. */
struct agent_source *source_auto_new(unsigned int verdict, unsigned int scope);

/*
 * source_terminal.c: ask on @out, one question at a time (the others
 * wait their turn), and read answers from the descriptor @in as it
 * becomes readable.
 */
struct agent_source *source_terminal_new(int in, FILE *out);

/*
 * source_prompt.c: the desktop prompt: runs @program (argv[0] a path, or a
 * name looked up in $PATH) with the extra argument "--agent-fd=N", N its
 * end of a private socket pair, as the agent's child, with the agent's
 * uid and environment.  NULL with the failing call and errno in @err.
 */
struct agent_source *source_prompt_new(char *const program[], char *err,
				       size_t errlen);

/*
 * source_rules.c: the rule file @path, its service names from the
 * services file @services (NULL: none).  Its errors and warnings go to
 * @messages as pfwc writes them ("FILE:LINE:COL: error: ...", the line, a
 * caret).  On an error returns NULL with "FILE: not read: N errors" in
 * @err (or the failing syscall and errno).
 */
struct agent_source *source_rules_new(const char *path, const char *services,
				      FILE *messages, char *err, size_t errlen);

/*
 * source_rules.c: the services file a rule file's service names come
 * from, found as pfwc finds it ($PFWC_SERVICES, ../share/pfsel/services
 * beside the agent, /usr/share/pfsel/services), malloc()ed; NULL with @err
 * empty when there is none.  With @trusted (--user), only if it is a file
 * only root can change, as source_rules_trusted_path() says of the rule
 * file, else NULL with the reason in @err: what a service name means
 * decides answers too.
 */
char *source_rules_services(bool trusted, char *err, size_t errlen);

/*
 * source_rules.c: @path without symbolic links (malloc()ed) when it is a
 * regular file that, with every folder above it, only root can change, as
 * sudo wants of sudoers; else NULL with the reason, naming the file, in
 * @err.  An agent that answers for a user reads its rule file, by that
 * path, as root before it drops to the user: the user's programs must not
 * decide its answers.
 */
char *source_rules_trusted_path(const char *path, char *err, size_t errlen);

/* rules.c: the rule-file matcher, on its own for tests. */
struct agent_rules;
/*
 * Parses @text (named @file in messages), with the services file
 * @services (NULL: none); errors and warnings go to @messages.  NULL, and
 * "FILE: not read: N errors" in @err, on an error.
 */
struct agent_rules *agent_rules_parse(const char *file, const char *text,
				      const char *services, FILE *messages,
				      char *err, size_t errlen);
/* 1 and @d when a rule matches @q (its line in @line), 0 when none does. */
int agent_rules_match(const struct agent_rules *rules,
		      const struct pfsel_question *q, struct agent_decision *d,
		      unsigned int *line);
void agent_rules_free(struct agent_rules *rules);

/* Monotonic clock in milliseconds. */
long long agent_now_ms(void);

/* log.c: one timestamped line to @log. */
void agent_log(FILE *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- The steps (options.c, root.c, become.c, serve.c) ------------------ */

/* Exit statuses (pfsel-agent(1)). */
enum {
	AGENT_EXIT_OK = 0,
	AGENT_EXIT_RUNTIME = 1, /* the socket failed, another agent took over */
	AGENT_EXIT_USAGE = 2,
	AGENT_EXIT_FILE = 3, /* a file to read or the log could not be */
	AGENT_EXIT_NO_KERNEL = 4, /* no "pfsel" generic netlink family */
	AGENT_EXIT_PERM = 5, /* not root: the kernel refused to register */
};

/* The sources one agent can have: rules, auto, terminal or prompt. */
#define AGENT_MAX_SOURCES 4

/**
 * struct agent_options - The command line (pfsel-agent(1))
 * @user: --user, the user to answer for, or NULL (root's own agent).
 * @rules: --rules, a rule file, or NULL.
 * @auto_verdict: --auto, PFSEL_ANSWER_*, or -1.
 * @auto_scope: --scope of the --auto answer.
 * @interactive: --interactive (also when no other source is given).
 * @prompt: --prompt.
 * @prompt_program: --prompt=PROGRAM, or NULL for pfsel-prompt.
 * @pfw: --pfw, or NULL for ~/.pfw.
 * @policy: --policy, or NULL for what pfwc writes for @pfw.
 * @log: --log, or NULL for standard error.
 * @count: --count, or 0 for no end.
 */
struct agent_options {
	const char *user;
	const char *rules;
	int auto_verdict;
	unsigned int auto_scope;
	bool interactive;
	bool prompt;
	const char *prompt_program;
	const char *pfw;
	const char *policy;
	const char *log;
	unsigned long count;
};

/*
 * options.c: @argv into @o: -1 to go on, else the exit status to stop with
 * (--help, --version, a usage error, said on standard error).
 */
int agent_options_parse(int argc, char **argv, struct agent_options *o);

/* The user of --user, copied out of the user database. */
struct agent_user {
	uid_t uid;
	gid_t gid;
	char *name;
	char *dir;
};

struct agent_pending;

/**
 * struct agent - One agent: what its steps set up, and serving uses
 * @opts: the command line.
 * @user: the user of --user (all zero without it).
 * @uid: whose questions it answers: --user's, else the caller's.
 * @nl: the netlink handle, registered for @uid.
 * @sources: @n_sources: the decision sources, in the order they are asked.
 * @pfw: "always": where its rules go, and how they are compiled.
 * @confirmed: the policy the person last confirmed (pam_pfsel's record),
 *             then what the agent loaded last (@pfw.confirmed).
 * @log: where the log goes: standard error, or --log's file.
 * @owned: strings the steps made (freed by agent_free()).
 * @pending: @n_pending: @cap_pending: the questions a source answers
 *           later (serve.c).
 */
struct agent {
	const struct agent_options *opts;
	struct agent_user user;
	uid_t uid;
	struct pfsel_agent *nl;
	struct agent_source *sources[AGENT_MAX_SOURCES];
	size_t n_sources;
	struct pfw_config pfw;
	struct policy_blob confirmed;
	FILE *log;
	struct {
		char *pfw, *policy, *rules, *services, *prompt;
	} owned;
	struct agent_pending *pending;
	size_t n_pending, cap_pending;
};

/*
 * root.c: what the agent does as root, before anything of the user's can
 * reach it: the user (--user, which needs root), the policy they last
 * confirmed, the rule file and services file that decide its answers
 * (read now, and only if root's alone), the sources that decide at once,
 * the registration for @a->uid.  The exit status: AGENT_EXIT_OK to go on.
 */
int agent_as_root(struct agent *a);

/*
 * become.c: the agent becomes the user for good (with --user), and only
 * then opens what the user may name or run: the log, the desktop prompt.
 * The exit status: AGENT_EXIT_OK to go on.
 */
int agent_become_user(struct agent *a);

/* Set by SIGINT and SIGTERM: the agent stops (serve.c). */
extern volatile sig_atomic_t agent_stopping;

/*
 * serve.c: questions from the kernel, answers from the sources, until a
 * signal, --count questions (and their answers), or an error: the exit
 * status.
 */
int agent_serve(struct agent *a);

/*
 * serve.c: takes back every question a source still has (the kernel gives
 * it the policy's unanswered verdict), and frees everything @a holds:
 * unregistered (closing the handle), sources destroyed, log closed.
 */
void agent_free(struct agent *a);

/* ---- Answers (answer.c) ------------------------------------------------ */

/*
 * Answers @q as @d says, source @by, and logs it; for "always", makes it a
 * rule of ~/.pfw.  @status and @text get what became of it, for a source
 * that wants to tell the person.  Returns an exit status to stop with, or
 * -1.
 */
int agent_deliver(struct agent *a, const struct pfsel_question *q,
		  const struct agent_decision *d, const char *by, int *status,
		  char *text, size_t size);

/* Logs that question @id is not answered: the policy's verdict applies. */
void agent_log_unanswered(struct agent *a, uint64_t id);

#endif /* PFSEL_AGENT_H */
