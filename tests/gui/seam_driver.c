// SPDX-License-Identifier: GPL-2.0-only
/*
 * seam_driver - the agent's side of the desktop prompt, for the GUI tests.
 *
 *   seam_driver PROGRAM [ARG...]
 *
 * Starts PROGRAM (build/bin/pfsel-prompt) through the agent's own
 * source_prompt_new(), as pfsel-agent --prompt does, and then stands where
 * the agent's main loop stands: it hands the source questions (post()),
 * reads its answers (collect()), and takes back a question whose time ran
 * out (withdraw(), PROMPT_WITHDRAW_EXPIRED), leaving it to the kernel's
 * unanswered verdict.  The questions are made up by the test, which speaks
 * to the driver in lines on stdin and stdout:
 *
 *   in:  ask ID TIMEOUT_MS NAME=VALUE...  a question; NAMEs: exe script
 *                                comm pid tgid uid op family proto laddr
 *                                lport raddr rport policy rule_file
 *                                rule_line rule_col secctx unanswered
 *                                hosts ("a.example,b.example").
 *                                VALUEs are %-encoded (%XX for any byte).
 *        withdraw ID REASON     expired, answered or stopping
 *        result ID STATUS TEXT  what became of an answer (STATUS an errno
 *                               number, 0 for success; TEXT %-encoded)
 *        quit                   destroy the source (the prompt is told
 *                               to stop) and exit 0
 *   out: ready                  the prompt runs
 *        posted ID              post() took the question
 *        answer ID VERDICT SCOPE WIDTH   from collect(): allow/deny,
 *                               once/process/session/always,
 *                               exact/address/port/host/domain ("-"
 *                               unless always);
 *                               the prompt is then told, as the agent
 *                               tells it, "answered VERDICT SCOPE"
 *                               (result(), status 0)
 *        late ID                the answer came after the deadline
 *        unanswered ID          the deadline passed unanswered (withdrawn)
 *        gone ERRNO             collect() said the source is gone
 *        error TEXT             a command could not be done
 *
 * Exit status: 0 after "quit" or the end of stdin, 1 when the source
 * cannot be made, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "agent.h"
#include "prompt_wire.h"
#include "userpolicy.h"

#define MAX_PENDING 64

/* A question handed to the source and not yet answered or expired. */
struct pending {
	uint64_t id;
	long long deadline_ms;
};

static struct pending pending[MAX_PENDING];
static size_t n_pending;

static const char *const width_names[RULE_WIDTH_COUNT] = {
	[RULE_WIDTH_EXACT] = "exact",	[RULE_WIDTH_ADDRESS] = "address",
	[RULE_WIDTH_PORT] = "port",	[RULE_WIDTH_HOST] = "host",
	[RULE_WIDTH_DOMAIN] = "domain",
};

static const char *const reason_names[] = {
	[PROMPT_WITHDRAW_EXPIRED] = "expired",
	[PROMPT_WITHDRAW_ANSWERED] = "answered",
	[PROMPT_WITHDRAW_STOPPING] = "stopping",
};

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes %XX in place; false on a malformed escape or a %00. */
static bool percent_decode(char *s)
{
	char *out = s;

	while (*s) {
		if (*s == '%') {
			int hi = hex_digit(s[1]),
			    lo = hi < 0 ? -1 : hex_digit(s[2]);

			if (lo < 0 || (hi | lo) == 0)
				return false;
			*out++ = (char)(hi << 4 | lo);
			s += 3;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
	return true;
}

static bool parse_u32(const char *s, uint32_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *end || n > UINT32_MAX || *s == '-')
		return false;
	*v = (uint32_t)n;
	return true;
}

static bool copy_string(char *dst, size_t size, const char *src)
{
	if (strlen(src) >= size)
		return false;
	memcpy(dst, src, strlen(src) + 1);
	return true;
}

/* One NAME=VALUE of an "ask" line into @q; false when it is not one. */
static bool set_field(struct pfsel_question *q, char *field)
{
	char *value = strchr(field, '=');
	uint32_t n = 0;
	int v;

	if (!value)
		return false;
	*value++ = '\0';
	if (!percent_decode(value))
		return false;
#define STR(name, attr)                                              \
	if (!strcmp(field, #name)) {                                 \
		q->present |= PFSEL_Q_HAS(attr);                     \
		return copy_string(q->name, sizeof(q->name), value); \
	}
#define NUM(name, attr, max)                            \
	if (!strcmp(field, #name)) {                    \
		if (!parse_u32(value, &n) || n > (max)) \
			return false;                   \
		q->name = n;                            \
		q->present |= PFSEL_Q_HAS(attr);        \
		return true;                            \
	}
#define NAMED(name, attr, from_name)             \
	if (!strcmp(field, #name)) {             \
		v = from_name(value);            \
		if (v < 0)                       \
			return false;            \
		q->name = (uint8_t)v;            \
		q->present |= PFSEL_Q_HAS(attr); \
		return true;                     \
	}
#define ADDR(name, attr)                                      \
	if (!strcmp(field, #name)) {                          \
		q->present |= PFSEL_Q_HAS(attr);              \
		return pfsel_parse_addr(value, q->name) == 0; \
	}
	STR(exe, PFSEL_ATTR_EXE)
	STR(script, PFSEL_ATTR_SCRIPT)
	STR(comm, PFSEL_ATTR_COMM)
	STR(rule_file, PFSEL_ATTR_RULE_FILE)
	STR(secctx, PFSEL_ATTR_SECCTX)
	STR(hosts, PFSEL_ATTR_HOSTS)
	NUM(pid, PFSEL_ATTR_PID, UINT32_MAX)
	NUM(tgid, PFSEL_ATTR_TGID, UINT32_MAX)
	NUM(uid, PFSEL_ATTR_UID, UINT32_MAX)
	NUM(lport, PFSEL_ATTR_LPORT, UINT16_MAX)
	NUM(rport, PFSEL_ATTR_RPORT, UINT16_MAX)
	NUM(policy, PFSEL_ATTR_POLICY, 1)
	NUM(rule_line, PFSEL_ATTR_RULE_LINE, UINT32_MAX)
	NUM(rule_col, PFSEL_ATTR_RULE_COL, UINT32_MAX)
	NAMED(op, PFSEL_ATTR_OP, pfsel_op_from_name)
	NAMED(family, PFSEL_ATTR_FAMILY, pfsel_family_from_name)
	NAMED(proto, PFSEL_ATTR_PROTO, pfsel_proto_from_name)
	NAMED(unanswered, PFSEL_ATTR_UNANSWERED, pfsel_answer_from_name)
	ADDR(laddr, PFSEL_ATTR_LADDR)
	ADDR(raddr, PFSEL_ATTR_RADDR)
#undef STR
#undef NUM
#undef NAMED
#undef ADDR
	return false;
}

static struct pending *find_pending(uint64_t id)
{
	size_t i;

	for (i = 0; i < n_pending; i++)
		if (pending[i].id == id)
			return &pending[i];
	return NULL;
}

static void forget_pending(struct pending *p)
{
	*p = pending[--n_pending];
}

static bool parse_id(const char *s, uint64_t *id)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*id = strtoull(s, &end, 10);
	return !errno && !*end;
}

static void cmd_ask(struct agent_source *src, struct pfsel_question *q,
		    char *args)
{
	char *save = NULL, *id_s, *timeout_s, *field;
	struct agent_decision d;
	uint64_t id;
	uint32_t timeout_ms;
	long long deadline;
	int rc;

	id_s = strtok_r(args, " ", &save);
	timeout_s = strtok_r(NULL, " ", &save);
	if (!parse_id(id_s, &id) || !timeout_s ||
	    !parse_u32(timeout_s, &timeout_ms)) {
		printf("error ask: expected ID TIMEOUT_MS NAME=VALUE...\n");
		return;
	}
	if (find_pending(id) || n_pending == MAX_PENDING) {
		printf("error ask %" PRIu64 ": already pending, or too many\n",
		       id);
		return;
	}
	memset(q, 0, sizeof(*q));
	q->id = id;
	q->timeout_ms = timeout_ms;
	q->present = PFSEL_Q_HAS(PFSEL_ATTR_ID) |
		     PFSEL_Q_HAS(PFSEL_ATTR_TIMEOUT_MS);
	while ((field = strtok_r(NULL, " ", &save))) {
		char shown[128];

		snprintf(shown, sizeof(shown), "%s", field);
		if (!set_field(q, field)) {
			printf("error ask %" PRIu64 ": bad field '%s'\n", id,
			       shown);
			return;
		}
	}
	/* As the agent does: the deadline counts from the question's arrival. */
	deadline = agent_now_ms() + timeout_ms;
	rc = src->post(src, q, deadline, &d);
	if (rc != AGENT_TAKEN) {
		printf("error post %" PRIu64 ": %s\n", id,
		       strerror(rc < 0 ? -rc : EINVAL));
		return;
	}
	pending[n_pending].id = id;
	pending[n_pending].deadline_ms = deadline;
	n_pending++;
	printf("posted %" PRIu64 "\n", id);
}

static void cmd_withdraw(struct agent_source *src, char *args)
{
	char *save = NULL, *id_s, *reason_s;
	struct pending *p;
	unsigned int reason;
	uint64_t id;

	id_s = strtok_r(args, " ", &save);
	reason_s = strtok_r(NULL, " ", &save);
	if (!parse_id(id_s, &id) || !reason_s) {
		printf("error withdraw: expected ID REASON\n");
		return;
	}
	for (reason = 0; reason < sizeof(reason_names) / sizeof(*reason_names);
	     reason++)
		if (!strcmp(reason_s, reason_names[reason]))
			break;
	if (reason == sizeof(reason_names) / sizeof(*reason_names)) {
		printf("error withdraw: unknown reason '%s'\n", reason_s);
		return;
	}
	src->withdraw(src, id, reason);
	p = find_pending(id);
	if (p)
		forget_pending(p);
	printf("withdrawn %" PRIu64 "\n", id);
}

static void cmd_result(struct agent_source *src, char *args)
{
	char *save = NULL, *id_s, *status_s, *text;
	uint32_t status;
	uint64_t id;

	id_s = strtok_r(args, " ", &save);
	status_s = strtok_r(NULL, " ", &save);
	text = strtok_r(NULL, "", &save);
	if (!parse_id(id_s, &id) || !status_s ||
	    !parse_u32(status_s, &status) || status > 4095 ||
	    (text && !percent_decode(text))) {
		printf("error result: expected ID ERRNO TEXT\n");
		return;
	}
	if (!src->result) {
		printf("error result: the source takes no results\n");
		return;
	}
	src->result(src, id, -(int)status, text ? text : "");
	printf("resulted %" PRIu64 "\n", id);
}

/* Everything the source has ready; false when it is gone. */
static bool collect_all(struct agent_source *src)
{
	struct agent_decision d;
	struct pending *p;
	uint64_t id;
	int rc;

	for (;;) {
		memset(&d, 0, sizeof(d));
		rc = src->collect(src, &id, &d);
		if (rc < 0) {
			printf("gone %d\n", -rc);
			return false;
		}
		if (rc == 0)
			return true;
		p = find_pending(id);
		if (!p) {
			printf("late %" PRIu64 "\n", id);
			continue;
		}
		forget_pending(p);
		printf("answer %" PRIu64 " %s %s %s\n", id,
		       pfsel_answer_name(d.verdict), pfsel_scope_name(d.scope),
		       d.scope != PFSEL_SCOPE_ALWAYS ? "-" :
		       d.width < RULE_WIDTH_COUNT    ? width_names[d.width] :
						       "?");
		/* As the agent: the prompt hears what became of its answer. */
		if (src->result) {
			char text[64];

			snprintf(text, sizeof(text), "answered %s %s",
				 pfsel_answer_name(d.verdict),
				 pfsel_scope_name(d.scope));
			src->result(src, id, 0, text);
		}
	}
}

/* Withdraws the questions whose time ran out; the ms to the next one. */
static int expire(struct agent_source *src)
{
	long long now = agent_now_ms(), next = -1;
	size_t i = 0;

	while (i < n_pending) {
		if (pending[i].deadline_ms <= now) {
			uint64_t id = pending[i].id;

			src->withdraw(src, id, PROMPT_WITHDRAW_EXPIRED);
			forget_pending(&pending[i]);
			printf("unanswered %" PRIu64 "\n", id);
			continue;
		}
		if (next < 0 || pending[i].deadline_ms - now < next)
			next = pending[i].deadline_ms - now;
		i++;
	}
	return next < 0 ? -1 : next > INT_MAX ? INT_MAX : (int)next;
}

/*
 * Reads what standard input has (poll() said it is readable) and handles
 * each whole line.  Read with read(), not stdio, so that poll() sees every
 * line not yet handled.  false at the end of input or on "quit".
 */
static bool read_commands(struct agent_source *src, struct pfsel_question *q)
{
	static char buf[65536];
	static size_t len;
	char *start, *nl;
	ssize_t n;

	do
		n = read(STDIN_FILENO, buf + len, sizeof(buf) - 1 - len);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return false;
	len += (size_t)n;
	start = buf;
	while ((nl = memchr(start, '\n', len - (size_t)(start - buf)))) {
		*nl = '\0';
		if (!strncmp(start, "ask ", 4))
			cmd_ask(src, q, start + 4);
		else if (!strncmp(start, "withdraw ", 9))
			cmd_withdraw(src, start + 9);
		else if (!strncmp(start, "result ", 7))
			cmd_result(src, start + 7);
		else if (!strcmp(start, "quit"))
			return false;
		else if (*start)
			printf("error unknown command '%s'\n", start);
		start = nl + 1;
	}
	len -= (size_t)(start - buf);
	memmove(buf, start, len);
	if (len == sizeof(buf) - 1) {
		printf("error a line longer than %zu bytes, dropped\n", len);
		len = 0;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct agent_source *src;
	struct pfsel_question *q;
	bool source_up = true;
	char err[512];
	int status = 0;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: seam_driver PROGRAM [ARG...]\n"
			"Runs PROGRAM as pfsel-agent's desktop prompt and feeds it the questions\n"
			"read from stdin (see the comment at the top of seam_driver.c).\n");
		return argc < 2 ? 2 : 0;
	}
	/* As the agent: a dead prompt is an EPIPE, not a dead agent. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	q = malloc(sizeof(*q));
	if (!q) {
		fprintf(stderr, "seam_driver: out of memory\n");
		return 1;
	}
	err[0] = '\0';
	src = source_prompt_new(argv + 1, err, sizeof(err));
	if (!src) {
		fprintf(stderr, "seam_driver: source_prompt_new(%s): %s\n",
			argv[1], err);
		free(q);
		return 1;
	}
	printf("ready\n");
	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = source_up ? src->fd(src) : -1,
			  .events = POLLIN },
		};
		int timeout = expire(src);

		if (poll(fds, 2, timeout) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "seam_driver: poll: %s\n",
				strerror(errno));
			status = 1;
			break;
		}
		if (source_up && fds[1].revents)
			source_up = collect_all(src);
		if (fds[0].revents && !read_commands(src, q))
			break;
	}
	src->destroy(src);
	free(q);
	return status;
}
