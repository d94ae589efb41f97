// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - the ask part (-a): a policy that asks about every TCP
 * connect to 127.0.0.1:ASK_PORT, an auto-answering pfsel-agent of
 * bench_uid, and sequential connect+accept timed plain, asked and
 * answered once, and answered from a kept (process) answer (see
 * pfsel_bench.c).  ask_stats (libpfsel) around each timed loop checks
 * that it did what it should.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "pfsel_bench.h"

enum ask_config { ASK_PLAIN, ASK_ONCE, ASK_PROCESS, ASK_COUNT };

static const char *const ask_names[ASK_COUNT] = { "plain", "once", "process" };
/* pfsel-agent's --scope for each; "" for none. */
static const char *const ask_scopes[ASK_COUNT] = { "", "once", "process" };

/* ask_stats, the columns this benchmark reads. */
struct ask_stats {
	long long questions, merged, answered, unanswered, no_agent, kept_hits;
	long long agents;
};

struct ask_measurement {
	double ns;	/* per iteration, wall clock */
	double seconds;	/* the timed loop's wall time */
	struct ask_stats delta;
};

static struct ask_measurement ask_results[ASK_COUNT][MAX_ROUNDS];
static pid_t agent_pid;
static int agent_config = -1;

/* Reads the columns of ask_stats this benchmark reads (libpfsel). */
static void read_ask_stats(struct ask_stats *st)
{
	struct pfsel_ask_stats all;
	const int err = pfsel_get_ask_stats(&all);

	if (err) {
		errno = -err;
		die("parse ask_stats");
	}
	st->questions = (long long)all.questions;
	st->merged = (long long)all.merged;
	st->answered = (long long)all.answered;
	st->unanswered = (long long)all.unanswered;
	st->no_agent = (long long)all.no_agent;
	st->kept_hits = (long long)all.kept_hits;
	st->agents = (long long)all.agents;
}

static void wait_for_agents(const long long want)
{
	struct ask_stats st;
	int i;

	for (i = 0; i < 2000; i++) {
		read_ask_stats(&st);
		if (st.agents == want)
			return;
		usleep(5000);
	}
	errno = ETIMEDOUT;
	die("wait for %lld registered agent(s), %lld are", want, st.agents);
}

static void stop_agent(void)
{
	int status;

	if (!agent_pid)
		return;
	if (kill(agent_pid, SIGTERM) ||
	    waitpid(agent_pid, &status, 0) != agent_pid)
		die("stop pfsel-agent");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "pfsel_bench: pfsel-agent ended with status "
				"0x%x\n", status);
		exit(1);
	}
	agent_pid = 0;
	agent_config = -1;
	wait_for_agents(0);
}

/*
 * An auto-answering pfsel-agent of uid bench_uid answering with the scope
 * of @c; returns once it is registered.
 */
static void start_agent(const enum ask_config c)
{
	if (agent_config == (int)c)
		return;
	stop_agent();
	fflush(stdout);
	agent_pid = fork();
	if (agent_pid < 0)
		die("fork");
	if (agent_pid == 0) {
		char user[16];

		/*
		 * Started as root, as only root may register an agent: it
		 * registers for bench_uid and then runs as bench_uid.  --pfw:
		 * only 'always' answers would write to it.
		 */
		snprintf(user, sizeof(user), "%u", (unsigned int)bench_uid);
		execlp("pfsel-agent", "pfsel-agent", "--user", user, "--auto",
		       "allow", "--scope", ask_scopes[c], "--log", "/dev/null",
		       "--pfw", "/tmp/pfsel-bench-agent.pfw", (char *)NULL);
		die("exec pfsel-agent");
	}
	agent_config = (int)c;
	wait_for_agents(1);
}

/* @n sequential TCP connect+accept to 127.0.0.1:@port, on @listener. */
static void ask_loop(const int listener, const int port, const long n)
{
	const struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	const struct sockaddr_in a = loopback(0, port);
	long i;
	int c, s;

	for (i = 0; i < n; i++) {
		c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c < 0)
			die("socket");
		if (setsockopt(c, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst)))
			die("SO_LINGER");
		if (connect(c, (const struct sockaddr *)&a, sizeof(a)))
			die("connect to port %d", port);
		s = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (s < 0)
			die("accept");
		close(c);
		close(s);
	}
}

/* In a child of uid bench_uid: as child(), for the ask part. */
static void ask_child(const enum ask_config c, int to_parent, int from_parent)
{
	const int port = c == ASK_PLAIN ? TCP_PORT : ASK_PORT;
	const struct sockaddr_in any = {
		.sin_family = AF_INET, .sin_port = htons(port),
	};
	const int one = 1;
	double start, ns;
	int listener;
	char go;

	become_bench_uid();
	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0 ||
	    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(listener, (const struct sockaddr *)&any, sizeof(any)) ||
	    listen(listener, 128))
		die("tcp listener on port %d", port);
	/* A few untimed round trips: caches warm, the agent paged in. */
	ask_loop(listener, port, 16);
	if (write(to_parent, "r", 1) != 1 || read(from_parent, &go, 1) != 1)
		die("pipe");
	start = now_ns();
	ask_loop(listener, port, ask_iterations);
	ns = now_ns() - start;
	if (write(to_parent, &ns, sizeof(ns)) != sizeof(ns))
		die("pipe");
	_exit(0);
}

static void ask_measure(const int round, const enum ask_config c)
{
	struct ask_measurement *m = &ask_results[c][round];
	struct ask_stats before, after;
	int up[2], down[2], status;
	double total;
	pid_t pid;
	char ready;

	if (c != ASK_PLAIN)
		start_agent(c);
	if (pipe2(up, O_CLOEXEC) || pipe2(down, O_CLOEXEC))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		ask_child(c, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	if (read(up[0], &ready, 1) != 1)
		goto failed;
	read_ask_stats(&before);
	if (write(down[1], "g", 1) != 1 ||
	    read(up[0], &total, sizeof(total)) != sizeof(total))
		goto failed;
	read_ask_stats(&after);
	close(up[0]);
	close(down[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		goto failed;

	m->seconds = total / 1e9;
	m->ns = total / (double)ask_iterations;
	m->delta.questions = after.questions - before.questions;
	m->delta.merged = after.merged - before.merged;
	m->delta.answered = after.answered - before.answered;
	m->delta.unanswered = after.unanswered - before.unanswered;
	m->delta.no_agent = after.no_agent - before.no_agent;
	m->delta.kept_hits = after.kept_hits - before.kept_hits;
	printf("A %d %s ns/iter %.1f seconds %.3f questions %lld merged %lld "
	       "answered %lld unanswered %lld no_agent %lld kept_hits %lld\n",
	       round, ask_names[c], m->ns, m->seconds, m->delta.questions,
	       m->delta.merged, m->delta.answered, m->delta.unanswered,
	       m->delta.no_agent, m->delta.kept_hits);
	/* Every timed connect asked and answered, or answered from the kept. */
	if ((c == ASK_ONCE && (m->delta.answered != ask_iterations ||
			       m->delta.questions != ask_iterations)) ||
	    (c == ASK_PROCESS && (m->delta.questions ||
				  m->delta.kept_hits != ask_iterations)) ||
	    (c == ASK_PLAIN && m->delta.questions) || m->delta.merged ||
	    m->delta.unanswered || m->delta.no_agent) {
		fprintf(stderr, "pfsel_bench: round %d, ask %s: ask_stats do "
				"not show what the loop should have done\n",
			round, ask_names[c]);
		exit(1);
	}
	return;
failed:
	fprintf(stderr, "pfsel_bench: round %d, ask %s: the loop failed\n",
		round, ask_names[c]);
	exit(1);
}

void ask_report(void)
{
	double v[MAX_ROUNDS], q[MAX_ROUNDS];
	struct spread_stats t, ratio, qps, qps_stats;
	long long answered = 0;
	double seconds = 0;
	char buf[64];
	int c, r;

	printf("\n== ask: %d rounds of %ld sequential TCP connect+accept to "
	       "127.0.0.1, one process;\nagent: pfsel-agent --auto allow "
	       "--log /dev/null, uid %u ==\n",
	       rounds, ask_iterations, (unsigned int)bench_uid);
	printf("ratio: per round, over the same round's plain time; median "
	       "[IQR] (min-max)\n");
	printf("  %-8s %10s %25s %26s %10s\n", "config", "ns/iter",
	       "[IQR] (min-max)", "ratio [IQR] (min-max)", "asked/iter");
	for (c = 0; c < ASK_COUNT; c++) {
		long long asked = 0;

		for (r = 0; r < rounds; r++) {
			v[r] = ask_results[c][r].ns;
			asked += ask_results[c][r].delta.questions;
		}
		t = summarize(v, rounds);
		for (r = 0; r < rounds; r++)
			v[r] = ask_results[c][r].ns /
			       ask_results[ASK_PLAIN][r].ns;
		ratio = summarize(v, rounds);
		snprintf(buf, sizeof(buf), "[%.0f-%.0f] (%.0f-%.0f)", t.q1,
			 t.q3, t.min, t.max);
		printf("  %-8s %10.0f %25s", ask_names[c], t.median, buf);
		snprintf(buf, sizeof(buf), "%.3f [%.3f-%.3f] (%.2f-%.2f)",
			 ratio.median, ratio.q1, ratio.q3, ratio.min,
			 ratio.max);
		printf(" %26s %10.3f\n", buf,
		       (double)asked /
			       ((double)rounds * (double)ask_iterations));
	}
	/*
	 * Questions per second: from the loop (iterations over its wall time,
	 * each iteration one question) and from ask_stats (answered over the
	 * same wall time), per round, then over the whole ask part.
	 */
	for (r = 0; r < rounds; r++) {
		const struct ask_measurement *m = &ask_results[ASK_ONCE][r];

		v[r] = (double)ask_iterations / m->seconds;
		q[r] = (double)m->delta.answered / m->seconds;
		answered += m->delta.answered;
		seconds += m->seconds;
	}
	qps = summarize(v, rounds);
	qps_stats = summarize(q, rounds);
	printf("questions per second (scope once): loop %.0f [%.0f-%.0f] "
	       "(%.0f-%.0f); ask_stats answered %.0f [%.0f-%.0f]; in all "
	       "%lld answered in %.2f s = %.0f/s\n",
	       qps.median, qps.q1, qps.q3, qps.min, qps.max, qps_stats.median,
	       qps_stats.q1, qps_stats.q3, answered, seconds,
	       (double)answered / seconds);
	for (r = 0; r < rounds; r++)
		v[r] = ask_results[ASK_ONCE][r].ns -
		       ask_results[ASK_PLAIN][r].ns;
	t = summarize(v, rounds);
	printf("an asked connect's extra time over plain: %.0f ns "
	       "[%.0f-%.0f]\n",
	       t.median, t.q1, t.q3);
}

/* ask_stats as the file shows them: a line of names, a line of values. */
static void print_ask_stats(void)
{
	struct pfsel_ask_stats st;
	const int err = pfsel_get_ask_stats(&st);
	const char *sep = "";

	if (err) {
		errno = -err;
		die("read ask_stats");
	}
#define ASK_NAME(f)                      \
	do {                             \
		printf("%s%s", sep, #f); \
		sep = " ";               \
	} while (0);
	PFSEL_ASK_STATS_FIELDS(ASK_NAME)
#undef ASK_NAME
	printf("\n");
	sep = "";
#define ASK_VALUE(f)                                             \
	do {                                                     \
		printf("%s%llu", sep, (unsigned long long)st.f); \
		sep = " ";                                       \
	} while (0);
	PFSEL_ASK_STATS_FIELDS(ASK_VALUE)
#undef ASK_VALUE
	printf("\n");
}

void ask_run(void)
{
	double start = now_ns();
	int r, i;

	/* The ask part starts from no agent of its own uid. */
	wait_for_agents(0);
	load_policy(&ask_policy);
	set_threshold(default_threshold);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < ASK_COUNT; i++)
			ask_measure(r, (enum ask_config)((i + r) % ASK_COUNT));
		fprintf(stderr,
			"pfsel_bench: ask round %d of %d done, %.0f s\n",
			r + 1, rounds, (now_ns() - start) / 1e9);
	}
	stop_agent();
	unload_policy();
	printf("ask_stats at the end:\n");
	print_ask_stats();
}
