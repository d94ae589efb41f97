// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the agent's desktop-prompt source
 * (pfsel-tools/agent/source_prompt.c), with a stand-in prompt program
 * (fake_prompt, built beside this test) run as the real one is: a child
 * with its end of a socket pair as --agent-fd=3.  Questions are posted
 * and answered, answers to questions it was not given are dropped, a
 * withdrawn question's late answer too, a malformed message is skipped,
 * the child keeps no descriptor of the agent's, and a dead child is seen.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "prompt_wire.h"
#include "userpolicy.h"
#include "curl_question.h"
#include "tmpdir.h"

/* How long to wait for the child to say something, in ms. */
#define WAIT_MS 10000

static char fake[PATH_MAX];
static char *log_text;
static size_t log_len;

static int setup(void **state)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	if (n <= 0)
		return -1;
	self[n] = '\0';
	/* Built by pfsel-tools/Makefile beside this test. */
	snprintf(fake, sizeof(fake), "%s/fake_prompt", dirname(self));
	if (access(fake, X_OK)) {
		fprintf(stderr, "%s: %s\n", fake, strerror(errno));
		return -1;
	}
	/* A display of its own: the prompt starts with the source. */
	setenv("DISPLAY", ":pfsel-test", 1);
	unsetenv("WAYLAND_DISPLAY");
	return tmpdir_setup("/tmp/pfsel-source-prompt.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_teardown();
}

/* The source, running fake_prompt with @mode and its arguments. */
static struct agent_source *start(const char *mode, const char *a1,
				  const char *a2, const char *a3, FILE **log)
{
	char *argv[] = { fake,	     (char *)in("record"), (char *)mode,
			 (char *)a1, (char *)a2,	   (char *)a3,
			 NULL };
	struct agent_source *src;
	char err[512];

	src = source_prompt_new(argv, err, sizeof(err));
	if (!src)
		fail_msg("source_prompt_new: %s", err);
	assert_string_equal(src->name, "prompt");
	assert_non_null(src->collect); /* it answers later */
	assert_non_null(src->post);
	*log = open_memstream(&log_text, &log_len);
	assert_non_null(*log);
	src->log = *log;
	return src;
}

static struct pfsel_question *question(uint64_t id)
{
	struct pfsel_question *q = malloc(sizeof(*q));

	assert_non_null(q);
	curl_question(q);
	q->id = id;
	q->timeout_ms = 5000;
	return q;
}

/*
 * Waits for the source's descriptor, then collects: what collect()
 * returned, or 0 when nothing came within @ms.
 */
static int wait_collect(struct agent_source *src, int ms, uint64_t *id,
			struct agent_decision *d)
{
	long long end = agent_now_ms() + ms;
	struct pollfd pfd;
	int rc;

	for (;;) {
		pfd.fd = src->fd(src);
		pfd.events = POLLIN;
		if (pfd.fd >= 0 &&
		    poll(&pfd, 1, (int)(end - agent_now_ms())) <= 0)
			return 0;
		rc = src->collect(src, id, d);
		if (rc || agent_now_ms() >= end)
			return rc;
	}
}

/* The record fake_prompt kept, whole. */
static char *record(void)
{
	FILE *f = fopen(in("record"), "r");
	static char text[8192];
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void finish(struct agent_source *src, FILE *log)
{
	src->destroy(src);
	fclose(log);
}

static void test_post_collect(void **state)
{
	struct pfsel_question *q = question(7);
	struct agent_decision d = { 9, 9, 9 };
	struct agent_source *src;
	unsigned int ms;
	uint64_t id = 0;
	FILE *log;
	char *rec;

	(void)state;
	src = start("answer", "allow", "session", "exact", &log);
	assert_true(src->fd(src) >= 0);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	assert_int_equal(wait_collect(src, WAIT_MS, &id, &d), 1);
	assert_true(id == 7);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	assert_int_equal(d.width, RULE_WIDTH_EXACT);
	/* One answer, and nothing more. */
	assert_int_equal(src->collect(src, &id, &d), 0);
	src->result(src, 7, 0, "answered allow session");
	finish(src, log);

	rec = record();
	/* The question with the time left; what became of the answer; the
	 * agent's end closing. */
	assert_non_null(strstr(rec, "\nask 7 "));
	assert_int_equal(sscanf(strstr(rec, "\nask 7 "),
				"\nask 7 %u /usr/bin/curl\n", &ms),
			 1);
	assert_true(ms > 0 && ms <= 5000);
	assert_non_null(strstr(rec, "\nresult 7 0 answered allow session\n"));
	assert_non_null(strstr(rec, "\neof\n"));
	/* It exited on the end closing, with status 0, and was reaped. */
	assert_non_null(strstr(log_text, "exited with status 0"));
	free(log_text);
	free(q);
}

/* Many questions at once; "always" answers carry their width. */
static void test_many_and_width(void **state)
{
	struct agent_decision d;
	struct agent_source *src;
	struct pfsel_question *q;
	uint64_t id, seen = 0;
	FILE *log;
	int i;

	(void)state;
	src = start("answer", "deny", "always", "port", &log);
	for (i = 1; i <= 5; i++) {
		q = question((uint64_t)i);
		assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d),
				 0);
		free(q);
	}
	for (i = 1; i <= 5; i++) {
		assert_int_equal(wait_collect(src, WAIT_MS, &id, &d), 1);
		assert_true(id >= 1 && id <= 5);
		assert_false(seen & (UINT64_C(1) << id));
		seen |= UINT64_C(1) << id;
		assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
		assert_int_equal(d.scope, PFSEL_SCOPE_ALWAYS);
		assert_int_equal(d.width, RULE_WIDTH_PORT);
	}
	finish(src, log);
	free(log_text);
}

/*
 * Answers to a question it was not given, and to one it has answered
 * already: logged and dropped, never handed on.
 */
static void test_unknown_and_twice(void **state)
{
	struct pfsel_question *q = question(7);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id = 0;
	FILE *log;

	(void)state;
	src = start("unknown", NULL, NULL, NULL, &log);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	assert_int_equal(wait_collect(src, WAIT_MS, &id, &d), 1);
	/* Not 1007, the one it was not given: 7, its first answer. */
	assert_true(id == 7);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	/* Its second answer to 7 is dropped too. */
	assert_int_equal(wait_collect(src, 500, &id, &d), 0);
	fflush(log);
	assert_non_null(strstr(
		log_text,
		"question 1007: an answer from the prompt to a question it was not given"));
	assert_non_null(strstr(
		log_text,
		"question 7: an answer from the prompt to a question it was not given"));
	finish(src, log);
	free(log_text);
	free(q);
}

/* A question taken back: the prompt hears why, its late answer is dropped. */
static void test_withdraw(void **state)
{
	struct pfsel_question *q = question(11);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id;
	FILE *log;

	(void)state;
	src = start("late", NULL, NULL, NULL, &log);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	src->withdraw(src, 11, PROMPT_WITHDRAW_EXPIRED);
	assert_int_equal(wait_collect(src, 1000, &id, &d), 0);
	fflush(log);
	assert_non_null(strstr(
		log_text,
		"question 11: an answer from the prompt to a question it was not given"));
	/* Withdrawing what it does not have sends nothing. */
	src->withdraw(src, 12, PROMPT_WITHDRAW_EXPIRED);
	finish(src, log);
	assert_non_null(strstr(record(), "withdraw 11 0\n"));
	assert_null(strstr(record(), "withdraw 12"));
	free(log_text);
	free(q);
}

/* A malformed datagram and a message that is not an answer: skipped. */
static void test_garbage(void **state)
{
	struct pfsel_question *q = question(3);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id = 0;
	FILE *log;

	(void)state;
	src = start("garbage", NULL, NULL, NULL, &log);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	assert_int_equal(wait_collect(src, WAIT_MS, &id, &d), 1);
	assert_true(id == 3);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(d.scope, PFSEL_SCOPE_ONCE);
	fflush(log);
	assert_non_null(
		strstr(log_text, "prompt: a malformed message, dropped"));
	assert_non_null(strstr(log_text, "where only answers come, dropped"));
	finish(src, log);
	free(log_text);
	free(q);
}

/*
 * The child has its end at 3 and standard input on /dev/null, and no other
 * descriptor of the agent's: not even one opened without close-on-exec.
 */
static void test_child_descriptors(void **state)
{
	struct pfsel_question *q = question(5);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id = 0;
	FILE *log;
	int leak = open("/dev/null", O_RDONLY); /* no O_CLOEXEC */

	(void)state;
	assert_true(leak > 2);
	src = start("fds", NULL, NULL, NULL, &log);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	assert_int_equal(wait_collect(src, WAIT_MS, &id, &d), 1);
	finish(src, log);
	close(leak);
	if (d.verdict != PFSEL_ANSWER_ALLOW)
		fail_msg("the child's descriptors were not 0-3:\n%s", record());
	/* The agent's own display, passed on as it is. */
	assert_non_null(strstr(record(), "display :pfsel-test\n"));
	assert_non_null(strstr(record(), "fd 3\n"));
	free(log_text);
	free(q);
}

/*
 * The child dies: collect() says so once; the next question starts a new
 * one, but not within RESTART_MS (2 s) of the last start.
 */
static void test_dead_child(void **state)
{
	struct pfsel_question *q = question(1);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id;
	FILE *log;
	int rc;

	(void)state;
	src = start("die", NULL, NULL, NULL, &log);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	rc = wait_collect(src, WAIT_MS, &id, &d);
	assert_true(rc == -EPIPE || rc == -ECONNRESET);
	assert_int_equal(src->fd(src), -1);
	q->id = 2;
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), -EAGAIN);
	assert_int_equal(src->collect(src, &id, &d), 0);
	src->withdraw(src, 1, PROMPT_WITHDRAW_STOPPING); /* no crash */
	src->result(src, 1, 0, "x");
	fflush(log);
	assert_non_null(strstr(log_text, "exited with status 7"));
	/* Later, a new child, which dies the same way. */
	usleep(2100 * 1000);
	assert_int_equal(src->post(src, q, agent_now_ms() + 5000, &d), 0);
	assert_int_not_equal(src->fd(src), -1);
	rc = wait_collect(src, WAIT_MS, &id, &d);
	assert_true(rc == -EPIPE || rc == -ECONNRESET);
	fflush(log);
	assert_non_null(strstr(strstr(log_text, "exited with status 7") + 1,
			       "exited with status 7"));
	finish(src, log);
	free(log_text);
	free(q);
}

/*
 * A child that does not go when its end closes is sent SIGTERM, and if it
 * ignores that, SIGKILL; either way it is reaped, and soon.
 */
static void destroy_kills(const char *script, const char *how, long long max_ms)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, "sh", NULL };
	struct agent_source *src;
	char err[512];
	FILE *log;
	long long t0;

	src = source_prompt_new(argv, err, sizeof(err));
	if (!src)
		fail_msg("source_prompt_new: %s", err);
	log = open_memstream(&log_text, &log_len);
	assert_non_null(log);
	src->log = log;
	usleep(200 * 1000); /* the shell's trap set, the exec done */
	t0 = agent_now_ms();
	src->destroy(src);
	assert_true(agent_now_ms() - t0 < max_ms);
	fclose(log);
	if (!strstr(log_text, how))
		fail_msg("want '%s' in the log: %s", how, log_text);
	/* No child left. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	free(log_text);
}

static void test_destroy_terminates(void **state)
{
	(void)state;
	destroy_kills("exec sleep 30", "was killed by signal 15", 2000);
}

static void test_destroy_kills(void **state)
{
	(void)state;
	destroy_kills("trap '' TERM; exec sleep 30", "was killed by signal 9",
		      4000);
}

static void test_cannot_start(void **state)
{
	char *argv[] = { "/nonexistent/pfsel-prompt", NULL };
	char *empty[] = { NULL };
	char err[512];

	(void)state;
	assert_null(source_prompt_new(argv, err, sizeof(err)));
	assert_string_equal(
		err,
		"execvpe(/nonexistent/pfsel-prompt): No such file or directory");
	assert_null(source_prompt_new(empty, err, sizeof(err)));
	/* The failed child was reaped. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);

	/* Without a display, the program is looked for all the same. */
	unsetenv("DISPLAY");
	assert_null(source_prompt_new(argv, err, sizeof(err)));
	assert_string_equal(
		err, "/nonexistent/pfsel-prompt: No such file or directory");
}

/*
 * An agent without a display of its own (the system service) takes the
 * session's from logind, at a question: where the user has no graphical
 * session (here: this test's uid has none), nothing is started, the
 * question is refused (it goes unanswered), and the log says why.
 */
static void test_no_session(void **state)
{
	struct pfsel_question *q = question(1);
	struct agent_decision d;
	struct agent_source *src;
	uint64_t id;
	FILE *log;

	(void)state;
	unsetenv("DISPLAY");
	src = start("answer allow once exact", NULL, NULL, NULL, &log);
	assert_int_equal(src->fd(src), -1); /* not started */
	assert_int_equal(access(in("record"), F_OK), -1);
	assert_true(src->post(src, q, agent_now_ms() + 5000, &d) < 0);
	assert_int_equal(src->fd(src), -1);
	assert_int_equal(src->collect(src, &id, &d), 0);
	fflush(log);
	assert_non_null(strstr(log_text, "prompt: not started: "));
	assert_int_equal(access(in("record"), F_OK), -1);
	finish(src, log);
	free(log_text);
	free(q);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_post_collect),	   T(test_many_and_width),
		T(test_unknown_and_twice), T(test_withdraw),
		T(test_garbage),	   T(test_child_descriptors),
		T(test_dead_child),	   T(test_destroy_terminates),
		T(test_destroy_kills),	   T(test_cannot_start),
		T(test_no_session),
	};
#undef T

	/* As in the agent: a prompt that went away is an error, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
