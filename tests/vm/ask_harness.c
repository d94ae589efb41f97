// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the harness of the ask suites (ask_harness.h): the agent
 * child and the asking side.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>

#include <netlink/msg.h>

#include "pfsel_test_util.h"
#include "raw_genl.h"
#include "ask_harness.h"

/* ---- the agent child ----------------------------------------------------- */

/* Questions an AGENT_REQUEST may read before its ack; more are lost. */
#define HELD_MAX 8

struct agent_state {
	struct pfsel_agent *a;
	int questions; /* where the reports go */
	bool automatic;
	uint8_t verdict, scope;
	int family; /* for AGENT_REQUEST; 0 until resolved */
	struct pfsel_question held[HELD_MAX];
	unsigned int nheld;
};

static void write_all(int fd, const void *buf, size_t len)
{
	if (write(fd, buf, len) != (ssize_t)len)
		_exit(120);
}

/* Read exactly @len bytes within @ms: true, or false on timeout or EOF. */
static bool read_within(int fd, void *buf, size_t len, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t done = 0;
	ssize_t got;

	while (done < len) {
		long long left = deadline - pfsel_now_ms();

		if (poll(&pfd, 1, left > 0 ? (int)left : 0) <= 0)
			return false;
		got = read(fd, (char *)buf + done, len - done);
		if (got <= 0)
			return false;
		done += (size_t)got;
	}
	return true;
}

/* Report @q to the test, answered first when the agent is automatic. */
static void report(struct agent_state *st, const struct pfsel_question *q)
{
	struct agent_report r;

	r.q = *q;
	r.answer_err = 1;
	if (st->automatic)
		r.answer_err = pfsel_agent_answer(st->a, q->id, st->verdict,
						  st->scope);
	write_all(st->questions, &r, sizeof(r));
}

/*
 * A question read off the agent's socket while an AGENT_REQUEST waits for
 * its ack: kept, and reported once the request is done (an automatic
 * answer now would read its own ack in the middle of that wait).
 */
static void hold(const struct nlmsghdr *nlh, void *arg)
{
	struct agent_state *st = arg;
	struct nl_msg *msg;

	if (st->nheld == HELD_MAX)
		return;
	msg = nlmsg_convert((struct nlmsghdr *)nlh);
	if (!msg)
		return;
	if (pfsel_question_parse(msg, &st->held[st->nheld]) == 0)
		st->nheld++;
	nlmsg_free(msg);
}

/*
 * AGENT_REQUEST: what a misbehaving agent sends, from the registered
 * socket itself.  Raw (raw_genl.h): libpfsel never sends such requests.
 */
static int agent_request(struct agent_state *st, const struct agent_cmd *c)
{
	struct raw_attr attrs[3];
	unsigned int i;
	int ret;

	if (!st->family)
		st->family = raw_genl_family();
	if (st->family < 0)
		return st->family;
	for (i = 0; i < c->nattrs && i < 3; i++) {
		attrs[i].type = c->attrs[i].type;
		attrs[i].len = c->attrs[i].len;
		attrs[i].data = c->attrs[i].data;
	}
	ret = raw_genl_request(pfsel_agent_fd(st->a), st->family, c->cmd,
			       c->flags, attrs, i, hold, st);
	for (i = 0; i < st->nheld; i++)
		report(st, &st->held[i]);
	st->nheld = 0;
	return ret;
}

static int agent_do(struct agent_state *st, const struct agent_cmd *c)
{
	switch (c->op) {
	case AGENT_ANSWER:
		return pfsel_agent_answer(st->a, c->id, c->verdict, c->scope);
	case AGENT_REGISTER:
		return pfsel_agent_register(st->a);
	case AGENT_UNREGISTER:
		return pfsel_agent_unregister(st->a);
	case AGENT_REQUEST:
		return agent_request(st, c);
	default:
		return 0;
	}
}

static void agent_main(uid_t uid, bool do_register, pid_t parent, int cmd,
		       int result, int questions)
{
	struct agent_state st = { .questions = questions };
	struct pfsel_question q;
	struct agent_cmd c;
	int ret;

	/* An agent is registered by root, a stranger opens as the user. */
	if (!do_register && pfsel_become(uid))
		_exit(126);
	ret = pfsel_agent_open(&st.a);
	if (!ret && do_register)
		ret = pfsel_agent_register_for(st.a, uid);
	if (!ret && do_register && pfsel_become(uid))
		_exit(126);
	/* After the uid change, which clears the parent-death signal. */
	pfsel_die_with_parent(parent);
	write_all(result, &ret, sizeof(ret));
	if (ret)
		_exit(1);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = cmd, .events = POLLIN },
			{ .fd = pfsel_agent_fd(st.a), .events = POLLIN },
		};

		/* Questions queued while an ack was awaited come first. */
		while (pfsel_agent_receive(st.a, &q, 0) == 1)
			report(&st, &q);
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[0].revents) {
			if (read(cmd, &c, sizeof(c)) != sizeof(c))
				_exit(0); /* the test closed the pipe */
			if (c.op == AGENT_AUTO || c.op == AGENT_MANUAL) {
				st.automatic = c.op == AGENT_AUTO;
				st.verdict = c.verdict;
				st.scope = c.scope;
				ret = 0;
			} else {
				ret = agent_do(&st, &c);
			}
			write_all(result, &ret, sizeof(ret));
		}
	}
}

int agent_start(struct agent *ag, uid_t uid, bool do_register)
{
	int cmd[2], result[2], questions[2], ret = EIO;
	const pid_t parent = getpid();
	pid_t pid;

	memset(ag, 0, sizeof(*ag));
	if (pipe2(cmd, O_CLOEXEC) || pipe2(result, O_CLOEXEC) ||
	    pipe2(questions, O_CLOEXEC))
		return errno;
	/*
	 * Room for every question a uid may have pending, unread: the agent
	 * goes on reading its socket while the test does something else.
	 */
	fcntl(questions[1], F_SETPIPE_SZ,
	      (PFSEL_ASK_MAX_PENDING + 8) * (int)sizeof(struct agent_report));
	/*
	 * @ag may be in the fixture's shared memory: only the parent may
	 * store the child's pid there.
	 */
	pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		close(cmd[1]);
		close(result[0]);
		close(questions[0]);
		agent_main(uid, do_register, parent, cmd[0], result[1],
			   questions[1]);
		_exit(0);
	}
	close(cmd[0]);
	close(result[1]);
	close(questions[1]);
	ag->pid = pid;
	ag->cmd = cmd[1];
	ag->result = result[0];
	ag->questions = questions[0];
	if (!read_within(ag->result, &ret, sizeof(ret), 5000))
		return ETIMEDOUT;
	return -ret;
}

int agent_call(struct agent *ag, const struct agent_cmd *c)
{
	int ret;

	if (write(ag->cmd, c, sizeof(*c)) != sizeof(*c))
		return EPIPE;
	if (!read_within(ag->result, &ret, sizeof(ret), 5000))
		return ETIMEDOUT;
	return -ret;
}

int agent_answer(struct agent *ag, uint64_t id, uint8_t verdict, uint8_t scope)
{
	const struct agent_cmd c = {
		.op = AGENT_ANSWER,
		.id = id,
		.verdict = verdict,
		.scope = scope,
	};

	return agent_call(ag, &c);
}

int agent_simple(struct agent *ag, enum agent_op op)
{
	const struct agent_cmd c = { .op = op };

	return agent_call(ag, &c);
}

int agent_auto(struct agent *ag, uint8_t verdict, uint8_t scope)
{
	const struct agent_cmd c = {
		.op = AGENT_AUTO,
		.verdict = verdict,
		.scope = scope,
	};

	return agent_call(ag, &c);
}

bool agent_question(struct agent *ag, struct agent_report *r, int ms)
{
	if (!read_within(ag->questions, r, sizeof(*r), ms))
		return false;
	ag->received++;
	return true;
}

int agent_drain(struct agent *ag, int ms)
{
	struct agent_report r;
	int n = 0;

	while (agent_question(ag, &r, ms))
		n++;
	return n;
}

void agent_kill(struct agent *ag)
{
	if (ag->pid <= 0)
		return;
	kill(ag->pid, SIGKILL);
	pfsel_wait_status(ag->pid);
	close(ag->cmd);
	close(ag->result);
	close(ag->questions);
	ag->pid = 0;
}

/* ---- the asking side ---------------------------------------------------- */

struct asker probe_start(uid_t uid, const char *addr, unsigned short port)
{
	struct asker as = { .start_ms = pfsel_now_ms() };

	as.pid = pfsel_netprobe_start(uid, NULL, "connect", addr, port);
	return as;
}

int asker_wait(const struct asker *as, long long *elapsed_ms)
{
	const int status = pfsel_wait_status(as->pid);

	if (elapsed_ms)
		*elapsed_ms = pfsel_now_ms() - as->start_ms;
	return status;
}

int probe(uid_t uid, const char *addr, unsigned short port,
	  long long *elapsed_ms)
{
	const struct asker as = probe_start(uid, addr, port);

	return asker_wait(&as, elapsed_ms);
}

int connect_once(const char *addr, unsigned short port)
{
	const struct pfsel_probe p = {
		.op = PFSEL_PROBE_CONNECT,
		.family = strchr(addr, ':') ? AF_INET6 : AF_INET,
		.type = SOCK_STREAM,
		.addr = addr,
		.port = port,
	};

	return pfsel_probe_run(&p);
}

void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

/* ---- the fixtures' setup and teardown ------------------------------------ */

bool ask_begin(long long *agents)
{
	struct ask_stats s;
	int i;

	pfsel_reset();
	if (!ask_stats_read(&s))
		return false;
	/* The agents of earlier tests are gone with their sockets. */
	for (i = 0; i < 50 && s.agents; i++) {
		usleep(100 * 1000);
		ask_stats_read(&s);
	}
	*agents = s.agents;
	return true;
}

void ask_end(struct agent *agents, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (agents[i].pid > 0)
			kill(agents[i].pid, SIGKILL);
	pfsel_reset();
}
