// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the last step: serving.
 *
 * One poll() waits for the kernel, for the sources that answer later (the
 * terminal, the desktop prompt) and for the nearest question's deadline.
 * A question from the kernel is logged and handed to the sources in turn
 * (post()): the first that decides answers it at once; the first that
 * takes it keeps it, many may be waiting, and the agent goes on taking
 * questions -- a person reading one never stops the agent hearing the
 * kernel.  A source's answer is delivered when its descriptor is readable
 * (collect()); a question whose time runs out is taken back from its
 * source (withdraw()): the kernel has given it the policy's unanswered
 * verdict.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "prompt_wire.h"

volatile sig_atomic_t agent_stopping;

/**
 * struct agent_pending - A question a source answers later
 * @id: the kernel's id.
 * @deadline: CLOCK_MONOTONIC ms after which an answer is useless.
 * @src: the source that has it.
 * @q: a copy (malloc()ed), for the log and the "always" rule.
 */
struct agent_pending {
	uint64_t id;
	long long deadline;
	struct agent_source *src;
	struct pfsel_question *q;
};

/* Keeps @q, handed to @src, until it is answered or its time is up. */
static int add_pending(struct agent *a, const struct pfsel_question *q,
		       long long deadline, struct agent_source *src)
{
	struct agent_pending *grown;
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
	a->pending[a->n_pending++] = (struct agent_pending){
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
 * Hands @q to the sources in turn, until one decides it (then it is
 * answered) or takes it (then it waits).  Returns an exit status to stop
 * with, or -1.
 */
static int handle(struct agent *a, const struct pfsel_question *q)
{
	char text[2 * PFSEL_QUESTION_PATH_MAX +
		  PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_SECCTX_MAX) +
		  PFSEL_ESCAPE_SIZE(PFSEL_HOSTS_TEXT_MAX) + 512];
	long long deadline = agent_now_ms() + q->timeout_ms;
	struct agent_decision d;
	struct agent_source *src;
	bool later;
	size_t i;
	int rc, status;

	pfsel_question_format(q, text, sizeof(text));
	agent_log(a->log, "question %llu: %s", (unsigned long long)q->id, text);
	for (i = 0; i < a->n_sources && !agent_stopping; i++) {
		src = a->sources[i];
		memset(&d, 0, sizeof(d));
		/* Kept before a source that answers later has it. */
		later = src->collect != NULL;
		rc = later ? add_pending(a, q, deadline, src) : 0;
		if (!rc) {
			rc = src->post(src, q, deadline, &d);
			if (later && rc != AGENT_TAKEN)
				drop_pending(a, a->n_pending - 1);
		}
		if (rc == AGENT_DECIDED)
			return agent_deliver(a, q, &d, src->name, &status, text,
					     sizeof(text));
		if (rc == AGENT_TAKEN) {
			agent_log(a->log, "question %llu: asked the %s",
				  (unsigned long long)q->id, src->name);
			return -1;
		}
		if (rc < 0)
			agent_log(a->log, "question %llu: source %s failed: %s",
				  (unsigned long long)q->id, src->name,
				  strerror(-rc));
	}
	agent_log_unanswered(a, q->id);
	return -1;
}

/*
 * What source @src has ready: answers delivered, questions it gave back
 * forgotten.  Returns an exit status to stop with, or -1.
 */
static int collect(struct agent *a, struct agent_source *src)
{
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
				agent_log_unanswered(a, a->pending[k].id);
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
		if (rc == AGENT_RELEASED) {
			agent_log_unanswered(a, id);
			drop_pending(a, k);
			continue;
		}
		ret = agent_deliver(a, a->pending[k].q, &d, src->name, &status,
				    text, sizeof(text));
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
		agent_log_unanswered(a, a->pending[k].id);
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
 * Takes questions, and answers from the sources that answer later, until
 * a signal, @count questions (and their answers), or an error: the exit
 * status.
 */
static int serve(struct agent *a, struct pfsel_question *q, unsigned long count,
		 unsigned long *seen)
{
	struct pollfd pfd[1 + AGENT_MAX_SOURCES];
	struct agent_source *at[1 + AGENT_MAX_SOURCES];
	nfds_t n, first;
	size_t i;
	int rc, timeout, fd;
	bool taking;

	for (;;) {
		taking = !count || *seen < count;
		if (agent_stopping || (!taking && !a->n_pending))
			return AGENT_EXIT_OK;
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
			if (!a->sources[i]->fd)
				continue;
			/* None while it has nothing to say (the prompt: no child). */
			fd = a->sources[i]->fd(a->sources[i]);
			if (fd < 0)
				continue;
			at[n] = a->sources[i];
			pfd[n++] =
				(struct pollfd){ .fd = fd, .events = POLLIN };
		}
		rc = poll(pfd, n, timeout);
		if (rc < 0 && errno != EINTR) {
			agent_log(a->log, "poll: %s", strerror(errno));
			return AGENT_EXIT_RUNTIME;
		}
		if (agent_stopping)
			return AGENT_EXIT_OK;

		/* Every question libpfsel has, without waiting. */
		while (taking && !agent_stopping) {
			rc = pfsel_agent_receive(a->nl, q, 0);
			if (rc == 0 || rc == -EINTR)
				break;
			if (rc == -ENOBUFS) {
				agent_log(a->log, "%s", pfsel_last_error());
				continue;
			}
			if (rc < 0) {
				agent_log(a->log, "%s", pfsel_last_error());
				return AGENT_EXIT_RUNTIME;
			}
			(*seen)++;
			rc = handle(a, q);
			if (rc >= 0)
				return rc;
			taking = !count || *seen < count;
		}
		for (i = first; i < n && !agent_stopping; i++) {
			if (!pfd[i].revents && pfd[i].fd >= 0)
				continue;
			rc = collect(a, at[i]);
			if (rc >= 0)
				return rc;
		}
		expire(a);
	}
}

int agent_serve(struct agent *a)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	unsigned long seen = 0;
	int status;

	if (!q)
		return AGENT_EXIT_RUNTIME;
	status = serve(a, q, a->opts->count, &seen);
	if (status == AGENT_EXIT_OK)
		agent_log(a->log, "stopping after %lu question%s", seen,
			  seen == 1 ? "" : "s");
	free(q);
	return status;
}

void agent_free(struct agent *a)
{
	size_t i;

	/* The kernel gives what is still pending its unanswered verdict. */
	while (a->n_pending) {
		struct agent_pending *p = &a->pending[a->n_pending - 1];

		if (p->src->withdraw)
			p->src->withdraw(p->src, p->id,
					 PROMPT_WITHDRAW_STOPPING);
		agent_log_unanswered(a, p->id);
		drop_pending(a, a->n_pending - 1);
	}
	free(a->pending);
	pfsel_agent_close(a->nl); /* closing unregisters */
	for (i = 0; i < a->n_sources; i++)
		if (a->sources[i])
			a->sources[i]->destroy(a->sources[i]);
	if (a->log && a->log != stderr)
		fclose(a->log);
	free(a->owned.pfw);
	free(a->owned.policy);
	free(a->owned.rules);
	free(a->owned.services);
	free(a->owned.prompt);
	free(a->confirmed.blob);
	free(a->user.name);
	free(a->user.dir);
}
