// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in for pfsel-prompt, for test_source_prompt: run by
 * source_prompt_new() as the real one is, it speaks the agent's protocol
 * (prompt_wire.h) on the descriptor of --agent-fd=N and answers as its
 * mode says, so that the agent's side can be tested without a display.
 *
 *   fake_prompt RECORD MODE [ARG...] --agent-fd=N
 *
 * RECORD: a file it appends one line to for each message it receives
 * ("ask ID MS_LEFT EXE", "withdraw ID REASON", "result ID STATUS TEXT",
 * "eof" when the agent closes its end), for the test to read.
 * MODE:
 *   answer VERDICT SCOPE WIDTH  answer every question so
 *   unknown   answer a question it was not given, then the one it was,
 *             twice
 *   late      answer nothing, but a question as soon as it is withdrawn
 *   die       exit with status 7 at the first question
 *   garbage   send a malformed datagram and a message that is not an
 *             answer, then answer allow once
 *   fds       answer allow once when its descriptors are exactly 0 (on
 *             /dev/null), 1, 2 and N (a socket), else deny once
 * Exit status: 0 at the end of the conversation, 2 wrong usage, 7 "die".
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prompt_wire.h"
#include "userpolicy.h"

static FILE *record;

/* Are the open descriptors exactly 0 (/dev/null), 1, 2 and @fd (socket)? */
static int fds_as_expected(const int fd)
{
	struct stat st, null;
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n, bad = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n = atoi(e->d_name);
		if (n == dirfd(d) || n == fileno(record))
			continue;
		fprintf(record, "fd %d\n", n);
		if (n != 0 && n != 1 && n != 2 && n != fd)
			bad = 1;
	}
	closedir(d);
	if (fstat(0, &st) || stat("/dev/null", &null) ||
	    st.st_rdev != null.st_rdev)
		bad = 1;
	if (fstat(fd, &st) || !S_ISSOCK(st.st_mode))
		bad = 1;
	return !bad;
}

static int parse_answer(char **argv, unsigned int *verdict, unsigned int *scope,
			unsigned int *width)
{
	static const char *const widths[] = { "exact", "address", "port" };
	int v = pfsel_answer_from_name(argv[0]);
	int s = pfsel_scope_from_name(argv[1]);
	unsigned int w;

	for (w = 0; w < RULE_WIDTH_COUNT; w++)
		if (!strcmp(argv[2], widths[w]))
			break;
	if (v < 0 || s < 0 || w == RULE_WIDTH_COUNT)
		return -1;
	*verdict = (unsigned int)v;
	*scope = (unsigned int)s;
	*width = w;
	return 0;
}

int main(int argc, char **argv)
{
	static const char garbage[] = "not a netlink message";
	struct pfsel_question *q = malloc(sizeof(*q));
	unsigned int verdict = 0, scope = 0, width = 0;
	struct prompt_message m;
	const char *mode;
	int fd, rc;

	if (argc < 4 || strncmp(argv[argc - 1], "--agent-fd=", 11) || !q) {
		fprintf(stderr,
			"usage: fake_prompt RECORD MODE [ARG...] --agent-fd=N\n");
		return 2;
	}
	fd = atoi(argv[argc - 1] + 11);
	record = fopen(argv[1], "a");
	if (!record)
		return 2;
	setvbuf(record, NULL, _IOLBF, 0);
	/* Where the agent said the window goes. */
	fprintf(record, "display %s\n",
		getenv("DISPLAY") ? getenv("DISPLAY") : "(unset)");
	mode = argv[2];
	if (!strcmp(mode, "answer") &&
	    (argc != 7 || parse_answer(argv + 3, &verdict, &scope, &width)))
		return 2;

	for (;;) {
		m.q = q;
		rc = prompt_wire_receive(fd, &m);
		if (rc == 0) {
			fprintf(record, "eof\n");
			break;
		}
		if (rc < 0) {
			fprintf(record, "error %d\n", rc);
			break;
		}
		switch (m.type) {
		case PROMPT_MSG_ASK:
			fprintf(record, "ask %llu %u %s\n",
				(unsigned long long)m.id, m.ms_left, q->exe);
			break;
		case PROMPT_MSG_WITHDRAW:
			fprintf(record, "withdraw %llu %u\n",
				(unsigned long long)m.id, m.reason);
			if (!strcmp(mode, "late"))
				prompt_wire_send_answer(fd, m.id,
							PFSEL_ANSWER_ALLOW,
							PFSEL_SCOPE_ONCE, 0);
			continue;
		case PROMPT_MSG_RESULT:
			fprintf(record, "result %llu %d %s\n",
				(unsigned long long)m.id, m.status, m.text);
			continue;
		default:
			fprintf(record, "type %u\n", m.type);
			continue;
		}
		/* An ASK. */
		if (!strcmp(mode, "answer")) {
			prompt_wire_send_answer(fd, m.id, verdict, scope,
						width);
		} else if (!strcmp(mode, "unknown")) {
			prompt_wire_send_answer(fd, m.id + 1000,
						PFSEL_ANSWER_ALLOW,
						PFSEL_SCOPE_ONCE, 0);
			prompt_wire_send_answer(fd, m.id, PFSEL_ANSWER_DENY,
						PFSEL_SCOPE_PROCESS, 0);
			prompt_wire_send_answer(fd, m.id, PFSEL_ANSWER_ALLOW,
						PFSEL_SCOPE_ALWAYS, 0);
		} else if (!strcmp(mode, "die")) {
			fclose(record);
			free(q);
			_exit(7);
		} else if (!strcmp(mode, "garbage")) {
			send(fd, garbage, sizeof(garbage), MSG_NOSIGNAL);
			prompt_wire_send_withdraw(fd, m.id,
						  PROMPT_WITHDRAW_EXPIRED);
			prompt_wire_send_answer(fd, m.id, PFSEL_ANSWER_ALLOW,
						PFSEL_SCOPE_ONCE, 0);
		} else if (!strcmp(mode, "fds")) {
			prompt_wire_send_answer(fd, m.id,
						fds_as_expected(fd) ?
							PFSEL_ANSWER_ALLOW :
							PFSEL_ANSWER_DENY,
						PFSEL_SCOPE_ONCE, 0);
		}
	}
	fclose(record);
	free(q);
	return 0;
}
