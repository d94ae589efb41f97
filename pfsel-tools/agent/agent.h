/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - the pieces of the agent, and the seam between them.
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
 * The first three decide at once (decide()).  The desktop prompt is
 * asynchronous: it is handed a question (post()) and answers later, when
 * its descriptor is readable (collect()), so that questions can queue in
 * one window while the agent goes on receiving them; a question whose time
 * runs out is taken back (withdraw()).
 */
#ifndef PFSEL_AGENT_H
#define PFSEL_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pfsel/pfsel.h>

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

/**
 * struct agent_source - A source of decisions
 * @name: for the log ("rules", "terminal", ...).
 * @decide: decide @q.  Returns 1 with @d filled in, 0 to pass the question
 *          on to the next source, or a negative errno (logged; the next
 *          source is tried).  @deadline_ms is the CLOCK_MONOTONIC time, in
 *          ms, after which an answer is useless.
 *          NULL for an asynchronous source.
 * @post: an asynchronous source (NULL for the others): take @q, to be
 *        answered later.  0, or a negative errno (logged; the question is
 *        then not answered by it).
 * @fd: the descriptor that is readable when collect() has something.
 * @collect: one answer the source has ready: 1 with @id and @d, 0 when
 *           there is none now, a negative errno when the source is gone
 *           (its questions are then left unanswered).
 * @withdraw: the question @id is no longer the source's to answer
 *            (enum prompt_withdraw_reason, prompt_wire.h).
 * @result: what became of an answer the source gave: @status 0 or a
 *          negative errno, @text a line for the person (the rule added,
 *          or why none was).  May be NULL.
 * @log: where an asynchronous source logs what it drops (a malformed
 *       message, an answer to a question it was not given); standard
 *       error unless its creator sets another (NULL: nowhere).
 * @destroy: free the source.
 * @priv: the implementation's state.
 */
struct agent_source {
	const char *name;
	int (*decide)(struct agent_source *src, const struct pfsel_question *q,
		      long long deadline_ms, struct agent_decision *d);
	int (*post)(struct agent_source *src, const struct pfsel_question *q,
		    long long deadline_ms);
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

/* source_terminal.c: prompt on @out, read answers from the descriptor @in. */
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

#endif /* PFSEL_AGENT_H */
