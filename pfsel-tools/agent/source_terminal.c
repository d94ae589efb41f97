// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "terminal" decision source: show the question, read
 * the answer from a line of input.
 *
 *   allow|deny|a|d [once|process|session|always|o|p|s|a]
 *
 * The scope defaults to once.  Nothing is answered when the question's
 * time runs out, on end of input (and then no later question is asked
 * either), or when a signal interrupts the wait: the kernel applies the
 * policy's unanswered verdict.  The descriptor is read with poll() and
 * read(), not stdio, so that the wait can end at the question's deadline.
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

struct terminal {
	int in;
	FILE *out;
	bool eof;
	char buf[512];
	size_t len;
};

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

static int terminal_decide(struct agent_source *const src,
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
	char *text, line[512];
	struct pollfd pfd = { .fd = t->in, .events = POLLIN };
	long long left;
	ssize_t n;
	int ret;

	if (t->eof)
		return 0;
	text = malloc(TEXT_SIZE);
	if (!text)
		return -ENOMEM;
	pfsel_question_format(q, text, TEXT_SIZE);
	fprintf(t->out, "\npfsel: %s\n", text);
	free(text);
	fprintf(t->out,
		"answer within %llds: allow|deny [once|process|session|always] (default once): ",
		(deadline_ms - agent_now_ms() + 999) / 1000);
	fflush(t->out);
	for (;;) {
		while (take_line(t, line, sizeof(line))) {
			ret = parse_answer(line, d);
			if (ret == 1)
				return 1;
			fprintf(t->out,
				"%sallow|deny [once|process|session|always]: ",
				ret ? "not an answer; " : "");
			fflush(t->out);
		}
		left = deadline_ms - agent_now_ms();
		if (left <= 0) {
			fprintf(t->out, "\n(timed out: not answered)\n");
			return 0;
		}
		ret = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (ret < 0) {
			fprintf(t->out, "\n(interrupted: not answered)\n");
			return errno == EINTR ? 0 : -errno;
		}
		if (ret == 0)
			continue;
		n = read(t->in, t->buf + t->len, sizeof(t->buf) - t->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			if (t->len) { /* a last line without newline */
				t->buf[t->len] = '\n';
				t->len++;
				continue;
			}
			t->eof = true;
			fprintf(t->out, "\n(end of input: not answered)\n");
			return 0;
		}
		t->len += (size_t)n;
	}
}

static void terminal_destroy(struct agent_source *const src)
{
	free(src->priv);
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
	src->decide = terminal_decide;
	src->destroy = terminal_destroy;
	src->priv = t;
	return src;
}
