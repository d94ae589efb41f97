// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for pfsel-agent's event loop with the desktop prompt
 * (pfsel-tools/agent/main.c, built as the function pfsel_agent_main()),
 * with the kernel's side of libpfsel replaced (ld --wrap, see
 * pfsel-tools/Makefile) by a queue of questions and a record of answers,
 * and fake_prompt as the prompt: many questions pending at once, each
 * answer passed on once with the log line the VM tests match, answers to
 * questions the prompt was not given never passed on, questions taken back
 * at their deadline, a prompt that dies, and the option errors.
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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "agent.h"
#include "curl_question.h"
#include "tmpdir.h"

int pfsel_agent_main(int argc, char **argv);

/* ---------------------------------------------------------------------- */
/* The kernel, as libpfsel shows it                                        */
/* ---------------------------------------------------------------------- */

#define MAX_QUESTIONS 8

static struct pfsel_question queue[MAX_QUESTIONS];
static size_t queued, taken;
static struct {
	uint64_t id;
	unsigned int verdict, scope;
} answers[4 * MAX_QUESTIONS];
static size_t n_answers;
static int never[2]; /* a pipe nothing is written to: the netlink fd */
/* Written a byte at each answer, when a test reads it. */
static int answered[2] = { -1, -1 };
static int fake_handle;

int __wrap_pfsel_agent_open(struct pfsel_agent **out);
int __wrap_pfsel_agent_open(struct pfsel_agent **out)
{
	*out = (struct pfsel_agent *)&fake_handle;
	return 0;
}

int __wrap_pfsel_agent_register_for(struct pfsel_agent *agent, uid_t uid);
int __wrap_pfsel_agent_register_for(struct pfsel_agent *agent, uid_t uid)
{
	(void)agent;
	(void)uid;
	return 0;
}

void __wrap_pfsel_agent_close(struct pfsel_agent *agent);
void __wrap_pfsel_agent_close(struct pfsel_agent *agent)
{
	(void)agent;
}

int __wrap_pfsel_agent_fd(const struct pfsel_agent *agent);
int __wrap_pfsel_agent_fd(const struct pfsel_agent *agent)
{
	(void)agent;
	return never[0];
}

size_t __wrap_pfsel_agent_pending(const struct pfsel_agent *agent);
size_t __wrap_pfsel_agent_pending(const struct pfsel_agent *agent)
{
	(void)agent;
	return queued - taken;
}

int __wrap_pfsel_agent_receive(struct pfsel_agent *agent,
			       struct pfsel_question *q, int timeout_ms);
int __wrap_pfsel_agent_receive(struct pfsel_agent *agent,
			       struct pfsel_question *q, int timeout_ms)
{
	(void)agent;
	/* The loop waits in its own poll(), never in libpfsel. */
	assert_int_equal(timeout_ms, 0);
	if (taken == queued)
		return 0;
	*q = queue[taken++];
	return 1;
}

int __wrap_pfsel_agent_answer(struct pfsel_agent *agent, uint64_t id,
			      unsigned int verdict, unsigned int scope);
int __wrap_pfsel_agent_answer(struct pfsel_agent *agent, uint64_t id,
			      unsigned int verdict, unsigned int scope)
{
	(void)agent;
	assert_true(n_answers < sizeof(answers) / sizeof(answers[0]));
	answers[n_answers].id = id;
	answers[n_answers].verdict = verdict;
	answers[n_answers].scope = scope;
	n_answers++;
	/* Tell the person at the terminal (test_terminal_never_blocks). */
	if (answered[1] >= 0)
		assert_int_equal(write(answered[1], "a", 1), 1);
	return 0;
}

/* Queues a question @id that waits @timeout_ms. */
static void ask(uint64_t id, uint32_t timeout_ms)
{
	struct pfsel_question *q = &queue[queued++];

	curl_question(q);
	q->id = id;
	q->pid = q->tgid = 4242;
	strcpy(q->comm, "curl");
	q->timeout_ms = timeout_ms;
	q->present = PFSEL_Q_HAS(PFSEL_ATTR_ID);
}

/* ---------------------------------------------------------------------- */
/* Running the agent                                                       */
/* ---------------------------------------------------------------------- */

static char fake[PATH_MAX];

static int setup(void **state)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	if (n <= 0 || pipe(never))
		return -1;
	self[n] = '\0';
	snprintf(fake, sizeof(fake), "%s/fake_prompt", dirname(self));
	queued = taken = n_answers = 0;
	/* A display of its own: the prompt starts with the agent. */
	setenv("DISPLAY", ":pfsel-test", 1);
	return tmpdir_setup("/tmp/pfsel-agent-loop.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	close(never[0]);
	close(never[1]);
	return tmpdir_teardown();
}

/*
 * Runs the agent with --prompt=PROGRAM (a script that runs fake_prompt
 * with @mode: --prompt takes a program, not its arguments) and @extra
 * options: its exit status.
 */
static int run_agent(const char *mode, const char *extra1, const char *extra2)
{
	char script[PATH_MAX + 256], prompt_opt[300], log_opt[300],
		pfw_opt[300];
	char *argv[8];
	int argc = 0;

	snprintf(script, sizeof(script),
		 "#!/bin/sh\nexec '%s' '%s' %s \"$@\"\n", fake, in("record"),
		 mode);
	put("prompt.sh", script, 0700);
	snprintf(prompt_opt, sizeof(prompt_opt), "--prompt=%s",
		 in("prompt.sh"));
	snprintf(log_opt, sizeof(log_opt), "--log=%s", in("log"));
	snprintf(pfw_opt, sizeof(pfw_opt), "--pfw=%s", in("x.pfw"));
	argv[argc++] = "pfsel-agent";
	argv[argc++] = prompt_opt;
	argv[argc++] = log_opt;
	argv[argc++] = pfw_opt;
	if (extra1)
		argv[argc++] = (char *)extra1;
	if (extra2)
		argv[argc++] = (char *)extra2;
	argv[argc] = NULL;
	optind = 0; /* getopt starts afresh */
	return pfsel_agent_main(argc, argv);
}

/* How many lines of @name contain @text. */
static int count_lines(const char *name, const char *text)
{
	FILE *f = fopen(in(name), "r");
	char line[4096];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, text))
			n++;
	fclose(f);
	return n;
}

/*
 * Three questions at once: all three go to the prompt before any answer
 * comes back, each answer is passed on once, logged as the other
 * sources' answers are.
 */
static void test_answers(void **state)
{
	size_t i;

	(void)state;
	ask(1, 5000);
	ask(2, 5000);
	ask(3, 5000);
	assert_int_equal(
		run_agent("answer allow session exact", "--count=3", NULL), 0);
	assert_int_equal(n_answers, 3);
	for (i = 0; i < n_answers; i++) {
		assert_true(answers[i].id >= 1 && answers[i].id <= 3);
		assert_int_equal(answers[i].verdict, PFSEL_ANSWER_ALLOW);
		assert_int_equal(answers[i].scope, PFSEL_SCOPE_SESSION);
	}
	assert_int_equal(count_lines("log", ": asked the prompt"), 3);
	assert_int_equal(
		count_lines("log", ": answered allow session (by prompt)"), 3);
	assert_int_equal(count_lines("log", "sources: prompt)"), 1);
	assert_int_equal(count_lines("log", "stopping after 3 questions"), 1);
	assert_int_equal(count_lines("log", "not answered"), 0);
	/* The prompt heard what became of each answer, then the end. */
	assert_int_equal(count_lines("record", "result "), 3);
	assert_int_equal(count_lines("record", " 0 answered allow session"), 3);
	assert_int_equal(count_lines("record", "eof"), 1);
}

/* Answers to questions it was not given, or twice: never passed on. */
static void test_unknown_never_passed_on(void **state)
{
	(void)state;
	ask(1, 5000);
	ask(2, 5000);
	assert_int_equal(run_agent("unknown", "--count=2", NULL), 0);
	assert_int_equal(n_answers, 2);
	assert_int_equal(answers[0].verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(answers[0].scope, PFSEL_SCOPE_PROCESS);
	assert_int_equal(answers[1].verdict, PFSEL_ANSWER_DENY);
	assert_true(answers[0].id + answers[1].id == 3);
	assert_int_equal(
		count_lines("log", ": answered deny process (by prompt)"), 2);
	assert_true(
		count_lines("log", "question 1001: an answer from the prompt") +
			count_lines(
				"log",
				"question 1002: an answer from the prompt") >=
		1);
}

/*
 * Nobody answers: at each question's deadline it is taken back, logged
 * not answered, and the prompt's late answer is dropped.
 */
static void test_deadline(void **state)
{
	long long t0 = agent_now_ms();

	(void)state;
	ask(1, 300);
	ask(2, 600);
	assert_int_equal(run_agent("late", "--count=2", NULL), 0);
	assert_true(agent_now_ms() - t0 >= 600);
	assert_int_equal(n_answers, 0);
	assert_int_equal(
		count_lines(
			"log",
			": not answered (the policy's unanswered verdict applies)"),
		2);
	assert_int_equal(count_lines("record", "withdraw 1 0"), 1);
	assert_int_equal(count_lines("record", "withdraw 2 0"), 1);
}

/* The prompt dies: its questions go unanswered, the agent goes on. */
static void test_prompt_dies(void **state)
{
	(void)state;
	ask(1, 5000);
	ask(2, 5000);
	ask(3, 5000);
	assert_int_equal(run_agent("die", "--count=3", NULL), 0);
	assert_int_equal(n_answers, 0);
	assert_int_equal(count_lines("log", "source prompt failed"), 1);
	assert_int_equal(count_lines("log", "exited with status 7"), 1);
	assert_int_equal(count_lines("log", ": not answered"), 3);
}

/* --rules/--auto before the prompt still decide first. */
static void test_auto_first(void **state)
{
	(void)state;
	ask(1, 5000);
	assert_int_equal(run_agent("answer allow once exact", "--auto=deny",
				   "--count=1"),
			 0);
	assert_int_equal(n_answers, 1);
	assert_int_equal(answers[0].verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(count_lines("log", ": answered deny once (by auto)"),
			 1);
	assert_int_equal(count_lines("log", "asked the prompt"), 0);
	assert_int_equal(count_lines("log", "sources: auto prompt)"), 1);
}

/*
 * The person at the terminal, as a thread: waits until the agent has
 * answered the kernel once (the question the rule file decides, asked
 * after the one on the terminal), then answers the terminal's question.
 */
static void *person(void *arg)
{
	const int input = *(const int *)arg;
	char c;

	if (read(answered[0], &c, 1) == 1 && write(input, "allow\n", 6) != 6)
		c = 0; /* the agent then sees no answer: the test says so */
	close(input);
	return NULL;
}

/*
 * A question at the terminal does not stop the agent hearing the kernel:
 * while question 1 waits for the person, question 2 comes and the rule
 * file answers it; only then does the person answer question 1 (before,
 * the terminal held the agent until question 1's time ran out, and 2
 * waited behind it).
 */
static void test_terminal_never_blocks(void **state)
{
	char rules_opt[300], log_opt[300], pfw_opt[300];
	char *argv[] = { "pfsel-agent", "--interactive", rules_opt, log_opt,
			 pfw_opt, "--count=2", NULL };
	int input[2], saved_in, saved_err, err_fd;
	pthread_t thread;

	(void)state;
	put("rules", "allow /usr/bin/curl connect tcp to 192.0.2.2 port 80;\n",
	    0600);
	snprintf(rules_opt, sizeof(rules_opt), "--rules=%s", in("rules"));
	snprintf(log_opt, sizeof(log_opt), "--log=%s", in("log"));
	snprintf(pfw_opt, sizeof(pfw_opt), "--pfw=%s", in("x.pfw"));
	ask(1, 5000);
	ask(2, 5000);
	pfsel_parse_addr("192.0.2.2", queue[1].raddr);

	/* The terminal: standard input a pipe, standard error a file. */
	assert_int_equal(pipe(input), 0);
	assert_int_equal(pipe(answered), 0);
	saved_in = dup(STDIN_FILENO);
	saved_err = dup(STDERR_FILENO);
	err_fd = open(in("terminal"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(saved_in >= 0 && saved_err >= 0 && err_fd >= 0);
	assert_int_equal(dup2(input[0], STDIN_FILENO), STDIN_FILENO);
	assert_int_equal(dup2(err_fd, STDERR_FILENO), STDERR_FILENO);
	close(input[0]);
	close(err_fd);
	assert_int_equal(pthread_create(&thread, NULL, person, &input[1]), 0);

	optind = 0;
	assert_int_equal(pfsel_agent_main(6, argv), 0);

	assert_int_equal(pthread_join(thread, NULL), 0);
	dup2(saved_in, STDIN_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_in);
	close(saved_err);
	close(answered[0]);
	close(answered[1]);
	answered[0] = answered[1] = -1;

	/* Question 2 answered first, by the rules; then 1, by the person. */
	assert_int_equal(n_answers, 2);
	assert_int_equal(answers[0].id, 2);
	assert_int_equal(answers[1].id, 1);
	assert_int_equal(answers[1].verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(answers[1].scope, PFSEL_SCOPE_ONCE);
	assert_int_equal(count_lines("log", "question 1: asked the terminal"),
			 1);
	assert_int_equal(
		count_lines("log",
			    "question 2: answered allow once (by rules)"),
		1);
	assert_int_equal(
		count_lines("log",
			    "question 1: answered allow once (by terminal)"),
		1);
	assert_int_equal(count_lines("log", "not answered"), 0);
	assert_int_equal(count_lines("terminal", "answer within "), 1);
}

static void test_usage(void **state)
{
	char *both[] = { "pfsel-agent", "--prompt", "--interactive", NULL };
	char *empty[] = { "pfsel-agent", "--prompt=", NULL };
	char *missing[] = { "pfsel-agent", "--prompt=/nonexistent/prompt",
			    (char *)"--pfw=/nonexistent/x.pfw", NULL };

	(void)state;
	optind = 0;
	assert_int_equal(pfsel_agent_main(3, both), 2);
	optind = 0;
	assert_int_equal(pfsel_agent_main(2, empty), 2);
	optind = 0;
	assert_int_equal(pfsel_agent_main(3, missing), 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_answers),    T(test_unknown_never_passed_on),
		T(test_deadline),   T(test_prompt_dies),
		T(test_auto_first), T(test_terminal_never_blocks),
		T(test_usage),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
