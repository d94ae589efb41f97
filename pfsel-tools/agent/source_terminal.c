// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "terminal" decision source: show the question, read
 * the answer from a line of input.
 *
 *   allow|deny|a|d [once|process|session|always|o|p|s|a]
 *
 * The scope defaults to once.  One question is on the terminal at a time;
 * those that come meanwhile wait their turn, and each is shown with the
 * time it has left.  The source never waits: the agent hands it a question
 * (post()) and goes on hearing the kernel, and reads the answer when the
 * input is readable (collect()).  Nothing is answered when the question's
 * time runs out (the agent takes it back: withdraw()), on end of input
 * (and then no later question is asked either), or when the agent stops:
 * the kernel applies the policy's unanswered verdict.  The descriptor is
 * read with read(), not stdio, and only when poll() says it holds
 * something, so that a terminal in blocking mode cannot stop the agent
 * either.
 *
 * Everything in the question that its asker chose (executable, script,
 * comm, rule file) and its security context (under SELinux or AppArmor)
 * are shown as pfsel_question_format() escapes them: a name holding
 * terminal escape sequences cannot erase or rewrite the question.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "prompt_wire.h"

/* A question posted to the terminal, waiting to be shown or answered. */
struct asked {
	uint64_t id;
	long long deadline_ms;
	char *text; /* pfsel_question_format(), malloc()ed */
};

struct terminal {
	int in;
	FILE *out;
	bool eof;
	char buf[512];
	size_t len;
	/* The questions in the order they came: the first is shown. */
	struct asked *asked;
	size_t n_asked, cap_asked;
};

static const char choices[] = "allow|deny [once|process|session|always]";

/* The first question, on the terminal, with the time it has left. */
static void show(struct terminal *t)
{
	const struct asked *a = &t->asked[0];

	fprintf(t->out, "\npfsel: %s\n", a->text);
	fprintf(t->out, "answer within %llds: %s (default once): ",
		(a->deadline_ms - agent_now_ms() + 999) / 1000, choices);
	fflush(t->out);
}

/*
 * Forgets question @i; with @next, the next one waiting is shown when @i
 * was on the terminal.
 */
static void forget(struct terminal *t, size_t i, bool next)
{
	free(t->asked[i].text);
	memmove(&t->asked[i], &t->asked[i + 1],
		(t->n_asked - i - 1) * sizeof(*t->asked));
	t->n_asked--;
	if (next && i == 0 && t->n_asked && !t->eof)
		show(t);
}

/*
 * Takes one line from the buffer into @line.  Returns 1 for a line, 0 when
 * the buffer holds no complete one.
 */
static int take_line(struct terminal *t, char *line, size_t size)
{
	char *nl = memchr(t->buf, '\n', t->len);
	size_t n;

	if (!nl) {
		if (t->len < sizeof(t->buf))
			return 0;
		nl = t->buf + t->len - 1; /* an over-long line: cut it */
	}
	n = (size_t)(nl - t->buf);
	snprintf(line, size, "%.*s", (int)n, t->buf);
	memmove(t->buf, nl + 1, t->len - n - 1);
	t->len -= n + 1;
	return 1;
}

/* Parses an answer line; 1 with @d, 0 for an empty line, -EINVAL. */
static int parse_answer(char *line, struct agent_decision *d)
{
	char *save = NULL, *verdict, *scope, *extra;
	int v, s = PFSEL_SCOPE_ONCE;

	verdict = strtok_r(line, " \t\r", &save);
	if (!verdict)
		return 0;
	scope = strtok_r(NULL, " \t\r", &save);
	extra = strtok_r(NULL, " \t\r", &save);
	v = pfsel_answer_from_name(verdict);
	if (scope)
		s = pfsel_scope_from_name(scope);
	if (v < 0 || s < 0 || extra)
		return -EINVAL;
	d->verdict = (unsigned int)v;
	d->scope = (unsigned int)s;
	return 1;
}

static int terminal_post(struct agent_source *const src,
			 const struct pfsel_question *const q,
			 const long long deadline_ms,
			 struct agent_decision *const d)
{
	/*
	 * Three escaped paths (exe, script, rule file), context, host
	 * names, rest.
	 */
	enum {
		TEXT_SIZE = 3 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) +
			    PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_SECCTX_MAX) +
			    PFSEL_ESCAPE_SIZE(PFSEL_HOSTS_TEXT_MAX) + 512
	};
	struct terminal *t = src->priv;
	struct asked *grown;
	char *text;

	(void)d;
	if (t->eof)
		return AGENT_PASSED;
	if (t->n_asked == t->cap_asked) {
		size_t cap = t->cap_asked ? 2 * t->cap_asked : 4;

		grown = realloc(t->asked, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		t->asked = grown;
		t->cap_asked = cap;
	}
	text = malloc(TEXT_SIZE);
	if (!text)
		return -ENOMEM;
	pfsel_question_format(q, text, TEXT_SIZE);
	t->asked[t->n_asked++] = (struct asked){
		.id = q->id,
		.deadline_ms = deadline_ms,
		.text = text,
	};
	if (t->n_asked == 1)
		show(t);
	return AGENT_TAKEN;
}

static int terminal_fd(struct agent_source *const src)
{
	const struct terminal *t = src->priv;

	/* Input waits in the descriptor until a question is asked. */
	return t->n_asked && !t->eof ? t->in : -1;
}

/*
 * The answer to the question on the terminal, if a whole line of the
 * input holds one: 1 with @d; 0, having said what it wants, when the
 * lines buffered are not answers.
 */
static int take_answer(struct terminal *t, struct agent_decision *d)
{
	char line[512];
	int ret;

	while (take_line(t, line, sizeof(line))) {
		ret = parse_answer(line, d);
		if (ret == 1)
			return 1;
		fprintf(t->out, "%s%s: ", ret ? "not an answer; " : "",
			choices);
		fflush(t->out);
	}
	return 0;
}

static int terminal_collect(struct agent_source *const src, uint64_t *const id,
			    struct agent_decision *const d)
{
	struct terminal *t = src->priv;
	struct pollfd pfd = { .fd = t->in, .events = POLLIN };
	ssize_t n;

	if (!t->n_asked)
		return 0;
	for (;;) {
		if (t->eof) {
			/* End of input: its questions go unanswered. */
			*id = t->asked[0].id;
			forget(t, 0, false);
			return AGENT_RELEASED;
		}
		/* Lines typed ahead answer the questions in turn. */
		if (take_answer(t, d)) {
			d->width = 0;
			*id = t->asked[0].id;
			forget(t, 0, true);
			return AGENT_ANSWER;
		}
		/* One read, and only of what is there: never wait. */
		if (poll(&pfd, 1, 0) <= 0)
			return 0;
		n = read(t->in, t->buf + t->len, sizeof(t->buf) - t->len);
		if (n < 0)
			return errno == EINTR || errno == EAGAIN ? 0 : -errno;
		if (n > 0) {
			t->len += (size_t)n;
		} else if (t->len) {
			/* A last line without its newline. */
			t->buf[t->len++] = '\n';
		} else {
			t->eof = true;
			fprintf(t->out, "\n(end of input: not answered)\n");
			fflush(t->out);
		}
	}
}

static void terminal_withdraw(struct agent_source *const src, const uint64_t id,
			      const unsigned int reason)
{
	struct terminal *t = src->priv;
	size_t i;

	for (i = 0; i < t->n_asked && t->asked[i].id != id; i++)
		;
	if (i == t->n_asked)
		return;
	/* Only the question on the terminal was shown: say what became of it. */
	if (i == 0 && !t->eof) {
		fprintf(t->out, "\n(%s: not answered)\n",
			reason == PROMPT_WITHDRAW_EXPIRED ?
				"timed out" :
			reason == PROMPT_WITHDRAW_STOPPING ?
				"interrupted" :
				"answered elsewhere");
		fflush(t->out);
	}
	/* A stopping agent asks nothing more. */
	forget(t, i, reason != PROMPT_WITHDRAW_STOPPING);
}

static void terminal_destroy(struct agent_source *const src)
{
	struct terminal *t = src->priv;

	while (t->n_asked)
		free(t->asked[--t->n_asked].text);
	free(t->asked);
	free(t);
	free(src);
}

struct agent_source *source_terminal_new(const int in, FILE *const out)
{
	struct agent_source *src = calloc(1, sizeof(*src));
	struct terminal *t = calloc(1, sizeof(*t));

	if (!src || !t) {
		free(src);
		free(t);
		return NULL;
	}
	t->in = in;
	t->out = out;
	src->name = "terminal";
	src->post = terminal_post;
	src->fd = terminal_fd;
	src->collect = terminal_collect;
	src->withdraw = terminal_withdraw;
	src->destroy = terminal_destroy;
	src->priv = t;
	return src;
}
