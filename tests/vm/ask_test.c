// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - asking the user's agent (docs/kernel-interface.md,
 * "Ask" and "The agent interface"): no agent, answers in every scope,
 * what a question says, timeouts, an agent that dies, another user's
 * agent, unknown ids, merged questions, a flood, a killed asker, bad
 * netlink input, and the audit records of asked decisions.
 *
 * Root loads policies/ask_*.pfw for pfuser1 (and pfuser2): TCP connects
 * to loopback ports 6001-6010 and 6100-6299 are asked, each port its own
 * question.  The agent is ask_agent.h, run in a child that registers as
 * root for the user (only the root side may) and then becomes the user,
 * as pfsel-agent --user does; the test drives it over pipes and reads
 * every question it receives.  A socket that is no agent is opened by a
 * child that became the user first.  The asking
 * side is netprobe run as the user (one request per process), or a child
 * of the test that has become the user and makes several requests, from
 * one thread or many.
 *
 * Nobody listens on the asked ports: an allowed connect fails with
 * ECONNREFUSED, a denied one with EACCES, so the two cannot be confused.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "pfsel_test_util.h"
#include "ask_agent.h"
#include "pfsel_policy.h"

#include "kselftest_harness.h"

#define PORT_ATTRS 6001 /* the question whose attributes are checked */
#define PORT_A 6002
#define PORT_B 6003
#define PORT_C 6004
#define PORT_D 6005
#define PORT_E 6006
#define PORT_F 6007
#define PORT_LOGGED 6010 /* asked, logged when allowed */
#define PORT_FLOOD 6100 /* 6100-6299: 200 different questions */
#define N_FLOOD 200

/* The policies' timeouts: ask_1001 and the others, ask_long_1001. */
#define TIMEOUT_MS 2000
#define LONG_TIMEOUT_MS 10000
/* "At once": well under any timeout, generous for a debug kernel. */
#define PROMPT_MS 1500
/* How long a question is given to reach the agent. */
#define QUESTION_MS 3000
/* How long to watch for a question that must not come. */
#define QUIET_MS 300

#define ALLOWED ECONNREFUSED /* nobody listens: allowed, then refused */
#define DENIED EACCES

#define PFSEL_MAX_PENDING 64 /* PFSEL_ASK_MAX_PENDING, security/pfsel/ask.h */

/* ---- ask_stats --------------------------------------------------------- */

struct ask_stats {
	long long questions, merged, answered, unanswered, no_agent, overflow,
		kept_hits, interrupted, agents, pending, kept;
};

static bool read_stats(struct ask_stats *s)
{
	char buf[512], *values;

	if (pfsel_read_file(PFSEL_SECURITYFS "/ask_stats", buf, sizeof(buf)) <
	    0)
		return false;
	if (strncmp(buf, "questions merged answered unanswered no_agent "
			 "overflow kept_hits interrupted agents pending kept\n",
		    strlen("questions merged answered unanswered no_agent "
			   "overflow kept_hits interrupted agents pending kept\n")))
		return false;
	values = strchr(buf, '\n') + 1;
	return sscanf(values, "%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
		      &s->questions, &s->merged, &s->answered, &s->unanswered,
		      &s->no_agent, &s->overflow, &s->kept_hits,
		      &s->interrupted, &s->agents, &s->pending,
		      &s->kept) == 11;
}

/* ---- the agent: registered by root, then run as its user ----------------- */

enum agent_op {
	AGENT_ANSWER, /* answer id with verdict and scope */
	AGENT_AUTO, /* answer every question at once with verdict, scope */
	AGENT_MANUAL, /* stop answering by itself */
	AGENT_REGISTER, /* register again, as the user it now is */
	AGENT_UNREGISTER,
	AGENT_REQUEST, /* any command with up to 3 attributes */
};

struct agent_cmd {
	enum agent_op op;
	uint64_t id;
	uint8_t verdict, scope;
	/* AGENT_REQUEST */
	uint8_t cmd;
	int flags;
	unsigned int nattrs;
	struct {
		uint16_t type, len;
		uint8_t data[8];
	} attrs[3];
};

/* What the agent reports for every question: the question, and its answer. */
struct agent_report {
	struct ask_question q;
	int answer_err; /* the ack of an automatic answer, 1 if none */
};

struct agent {
	pid_t pid;
	int cmd; /* commands to the agent */
	int result; /* one int per command: its ack */
	int questions; /* one struct agent_report per question */
	int received; /* questions read from @questions so far */
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

/* Die with the test: a lingering agent would answer the next test. */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
}

static int agent_do(struct ask_agent *a, const struct agent_cmd *c)
{
	struct ask_attr attrs[3];
	unsigned int i;

	switch (c->op) {
	case AGENT_ANSWER:
		return ask_agent_answer(a, c->id, c->verdict, c->scope);
	case AGENT_REGISTER:
		return ask_agent_register(a, getuid());
	case AGENT_UNREGISTER:
		return ask_agent_unregister(a);
	case AGENT_REQUEST:
		for (i = 0; i < c->nattrs && i < 3; i++) {
			attrs[i].type = c->attrs[i].type;
			attrs[i].len = c->attrs[i].len;
			attrs[i].data = c->attrs[i].data;
		}
		return ask_agent_request(a, c->cmd, c->flags, attrs, i);
	default:
		return 0;
	}
}

static void agent_main(uid_t uid, bool do_register, pid_t parent, int cmd,
		       int result, int questions)
{
	struct ask_agent a;
	struct agent_report r;
	struct agent_cmd c;
	bool automatic = false;
	uint8_t verdict = 0, scope = 0;
	int ret;

	/* An agent is registered by root, a stranger opens as the user. */
	if (!do_register && pfsel_become(uid))
		_exit(126);
	ret = ask_agent_open(&a);
	if (!ret && do_register)
		ret = ask_agent_register(&a, uid);
	if (!ret && do_register && pfsel_become(uid))
		_exit(126);
	/* After the uid change, which clears the parent-death signal. */
	die_with_parent(parent);
	write_all(result, &ret, sizeof(ret));
	if (ret)
		_exit(1);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = cmd, .events = POLLIN },
			{ .fd = ask_agent_fd(&a), .events = POLLIN },
		};

		/* Questions queued while an ack was awaited come first. */
		while (ask_agent_next(&a, &r.q, 0) == 0) {
			r.answer_err = 1;
			if (automatic)
				r.answer_err = ask_agent_answer(&a, r.q.id,
								verdict, scope);
			write_all(questions, &r, sizeof(r));
		}
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[0].revents) {
			if (read(cmd, &c, sizeof(c)) != sizeof(c))
				_exit(0); /* the test closed the pipe */
			if (c.op == AGENT_AUTO || c.op == AGENT_MANUAL) {
				automatic = c.op == AGENT_AUTO;
				verdict = c.verdict;
				scope = c.scope;
				ret = 0;
			} else {
				ret = agent_do(&a, &c);
			}
			write_all(result, &ret, sizeof(ret));
		}
	}
}

/*
 * Start an agent as @uid, registered with @do_register: 0 once it is in
 * place, or the errno of its open or registration.
 */
static int agent_start(struct agent *ag, uid_t uid, bool do_register)
{
	int cmd[2], result[2], questions[2], ret = EIO;
	const pid_t parent = getpid();
	pid_t pid;

	memset(ag, 0, sizeof(*ag));
	if (pipe2(cmd, O_CLOEXEC) || pipe2(result, O_CLOEXEC) ||
	    pipe2(questions, O_CLOEXEC))
		return errno;
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

/* Run @c in the agent: the kernel's ack as a positive errno, or 0. */
static int agent_call(struct agent *ag, const struct agent_cmd *c)
{
	int ret;

	if (write(ag->cmd, c, sizeof(*c)) != sizeof(*c))
		return EPIPE;
	if (!read_within(ag->result, &ret, sizeof(ret), 5000))
		return ETIMEDOUT;
	return -ret;
}

static int agent_answer(struct agent *ag, uint64_t id, uint8_t verdict,
			uint8_t scope)
{
	const struct agent_cmd c = {
		.op = AGENT_ANSWER,
		.id = id,
		.verdict = verdict,
		.scope = scope,
	};

	return agent_call(ag, &c);
}

static int agent_simple(struct agent *ag, enum agent_op op)
{
	const struct agent_cmd c = { .op = op };

	return agent_call(ag, &c);
}

static int agent_auto(struct agent *ag, uint8_t verdict, uint8_t scope)
{
	const struct agent_cmd c = {
		.op = AGENT_AUTO,
		.verdict = verdict,
		.scope = scope,
	};

	return agent_call(ag, &c);
}

/* The next question the agent received, within @ms. */
static bool agent_question(struct agent *ag, struct agent_report *r, int ms)
{
	if (!read_within(ag->questions, r, sizeof(*r), ms))
		return false;
	ag->received++;
	return true;
}

/* Read every question that comes within @ms: how many came. */
static int agent_drain(struct agent *ag, int ms)
{
	struct agent_report r;
	int n = 0;

	while (agent_question(ag, &r, ms))
		n++;
	return n;
}

/* Kill the agent (its socket closes with it) and reap it. */
static void agent_kill(struct agent *ag)
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

struct asker {
	pid_t pid;
	long long start_ms;
};

/* Run netprobe as @uid: connect to @addr:@port, in the background. */
static struct asker probe_start(uid_t uid, const char *addr,
				unsigned short port)
{
	const pid_t parent = getpid();
	struct asker as = { .start_ms = pfsel_now_ms() };
	char port_text[8];
	char *argv[] = {
		PFSEL_NETPROBE,
		"connect",
		strchr(addr, ':') ? "inet6" : "inet",
		(char *)addr,
		port_text,
		NULL,
	};

	snprintf(port_text, sizeof(port_text), "%u", port);
	as.pid = fork();
	if (as.pid == 0) {
		if (pfsel_become(uid))
			_exit(126);
		die_with_parent(parent);
		execv(argv[0], argv);
		_exit(127);
	}
	return as;
}

/* Wait for an asker: its exit status; its run time in @elapsed_ms. */
static int asker_wait(const struct asker *as, long long *elapsed_ms)
{
	const int status = pfsel_wait_status(as->pid);

	if (elapsed_ms)
		*elapsed_ms = pfsel_now_ms() - as->start_ms;
	return status;
}

/* One netprobe connect as @uid, waited for. */
static int probe(uid_t uid, const char *addr, unsigned short port,
		 long long *elapsed_ms)
{
	const struct asker as = probe_start(uid, addr, port);

	return asker_wait(&as, elapsed_ms);
}

static int connect_once(const char *addr, unsigned short port)
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

/* When >= 0, the CPU that connects_in_one_process() runs on. */
static int pin_cpu = -1;

static void pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * A process of @uid that connects to 127.0.0.1:@port @n times in a row
 * (n <= 8): the errno of each in @results.  Its exit status.
 */
static int connects_in_one_process(uid_t uid, unsigned short port, int n,
				   int *results)
{
	int *shared = mmap(NULL, 8 * sizeof(int), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int i, status;

	if (shared == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (pfsel_become(uid))
			_exit(126);
		if (pin_cpu >= 0)
			pin(0, pin_cpu);
		for (i = 0; i < n; i++)
			shared[i] = connect_once("127.0.0.1", port);
		_exit(0);
	}
	status = pfsel_wait_status(pid);
	for (i = 0; i < n; i++)
		results[i] = shared[i];
	munmap(shared, 8 * sizeof(int));
	return status;
}

/* Many threads of one process of @uid, each making one connect. */
struct thread_result {
	pid_t tid;
	int err;
	long long elapsed_ms;
};

struct threads {
	pthread_barrier_t barrier;
	unsigned short port[N_FLOOD];
	struct thread_result result[N_FLOOD];
	int n;
	pid_t pid;
};

struct thread_arg {
	struct threads *t;
	int i;
};

static void *thread_connect(void *arg)
{
	const struct thread_arg *ta = arg;
	struct thread_result *r = &ta->t->result[ta->i];
	long long start;

	r->tid = gettid();
	pthread_barrier_wait(&ta->t->barrier);
	start = pfsel_now_ms();
	r->err = connect_once("127.0.0.1", ta->t->port[ta->i]);
	r->elapsed_ms = pfsel_now_ms() - start;
	return NULL;
}

static int threads_main(struct threads *t)
{
	pthread_t tids[N_FLOOD];
	struct thread_arg args[N_FLOOD];
	int i;

	for (i = 0; i < t->n; i++) {
		args[i] = (struct thread_arg){ .t = t, .i = i };
		if (pthread_create(&tids[i], NULL, thread_connect, &args[i]))
			return 2;
	}
	for (i = 0; i < t->n; i++)
		pthread_join(tids[i], NULL);
	return 0;
}

/* Start a process of @uid with @n threads connecting to @ports at once. */
static struct threads *threads_start(uid_t uid, int n,
				     unsigned short (*port)(int i))
{
	const pid_t parent = getpid();
	pthread_barrierattr_t attr;
	struct threads *t;
	pid_t pid;
	int i;

	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->n = n;
	for (i = 0; i < n; i++) {
		t->port[i] = port(i);
		t->result[i].err = -1;
	}
	pthread_barrierattr_init(&attr);
	pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&t->barrier, &attr, (unsigned int)n);
	/* t is shared: only the parent may store the child's pid there. */
	pid = fork();
	if (pid == 0) {
		if (pfsel_become(uid))
			_exit(126);
		die_with_parent(parent);
		_exit(threads_main(t));
	}
	t->pid = pid;
	return t;
}

/* ---- the fixture --------------------------------------------------------- */

static const char *scope_name(uint8_t scope)
{
	static const char *const names[] = { "once", "process", "session",
					     "always" };

	return scope < 4 ? names[scope] : "?";
}

FIXTURE(ask)
{
	struct agent agent[3];
};

FIXTURE_SETUP(ask)
{
	struct ask_stats s;
	int i;

	memset(self, 0, sizeof(*self));
	if (geteuid() != 0)
		SKIP(return, "loading policies for 1001 and 1002 needs root");
	pfsel_reset();
	ASSERT_TRUE(read_stats(&s))
	{
		TH_LOG("no " PFSEL_SECURITYFS "/ask_stats, or not in the format of docs/kernel-interface.md");
	}
	/* The agents of earlier tests are gone with their sockets. */
	for (i = 0; i < 50 && s.agents; i++) {
		usleep(100 * 1000);
		read_stats(&s);
	}
	ASSERT_EQ(0, s.agents);
}

/*
 * In the harness's own process, so that even a timed-out test cleans up;
 * the agents die with the test's process anyway (die_with_parent()).
 */
FIXTURE_TEARDOWN_PARENT(ask)
{
	int i;

	for (i = 0; i < 3; i++)
		if (self->agent[i].pid > 0)
			kill(self->agent[i].pid, SIGKILL);
	pfsel_reset();
}

/* 1. No agent: the unanswered verdict at once, not after the timeout. */
TEST_F(ask, no_agent_gives_the_unanswered_verdict_at_once)
{
	struct ask_stats before, after;
	long long elapsed;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_TRUE(read_stats(&before));
	EXPECT_EQ(DENIED, probe(PFSEL_UID1, "127.0.0.1", PORT_A, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(1, after.no_agent - before.no_agent);
	EXPECT_EQ(0, after.questions - before.questions);

	/* With "ask unanswered allow", the same at once allows. */
	ASSERT_EQ(0, pfsel_load("ask_allow_1001"));
	EXPECT_EQ(ALLOWED, probe(PFSEL_UID1, "127.0.0.1", PORT_A, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
}

/* 3. A question says who asks, what, and which rule asked. */
TEST_F(ask, question_carries_the_request)
{
	static const struct {
		const char *addr;
		uint8_t family;
		uint8_t raddr[16], laddr[16];
	} targets[] = {
		{ "127.0.0.1",
		  PFSEL_FAMILY_INET,
		  { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 },
		  { [10] = 0xff, [11] = 0xff } },
		{ "::1", PFSEL_FAMILY_INET6, { [15] = 1 }, { 0 } },
	};
	char command[512], path[256], answer[256], file[128];
	unsigned int line = 0, col = 0, i;
	struct agent_report r;
	struct asker as;
	FILE *query;

	ASSERT_EQ(0, pfsel_load("ask_1001"));
	/* Which rule asks, as pfwc --query says (audit_test does the same). */
	snprintf(command, sizeof(command),
		 "pfwc --query %s " PFSEL_NETPROBE " connect tcp 127.0.0.1 %u",
		 pfsel_policy_path("ask_1001", path, sizeof(path)), PORT_ATTRS);
	query = popen(command, "r");
	ASSERT_NE(NULL, query);
	ASSERT_NE(NULL, fgets(answer, sizeof(answer), query));
	pclose(query);
	ASSERT_EQ(3, sscanf(answer, "ask %127[^:]:%u:%u", file, &line, &col))
	{
		TH_LOG("pfwc --query: %s", answer);
	}
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));

	for (i = 0; i < 2; i++) {
		as = probe_start(PFSEL_UID1, targets[i].addr, PORT_ATTRS);
		ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
		TH_LOG("question %llu from %s: pid %u tgid %u uid %u exe %s comm %s op %u family %u proto %u rport %u lport %u rule %s:%u:%u timeout %u ms",
		       (unsigned long long)r.q.id, targets[i].addr, r.q.pid,
		       r.q.tgid, r.q.uid, r.q.exe, r.q.comm, r.q.op,
		       r.q.family, r.q.proto, r.q.rport, r.q.lport,
		       r.q.rule_file, r.q.rule_line, r.q.rule_col,
		       r.q.timeout_ms);
		/* Every attribute uapi/linux/pfsel.h lists, but the script. */
		EXPECT_EQ((1ULL << PFSEL_ATTR_ID) | (1ULL << PFSEL_ATTR_PID) |
				  (1ULL << PFSEL_ATTR_TGID) |
				  (1ULL << PFSEL_ATTR_UID) |
				  (1ULL << PFSEL_ATTR_EXE) |
				  (1ULL << PFSEL_ATTR_COMM) |
				  (1ULL << PFSEL_ATTR_OP) |
				  (1ULL << PFSEL_ATTR_FAMILY) |
				  (1ULL << PFSEL_ATTR_PROTO) |
				  (1ULL << PFSEL_ATTR_LADDR) |
				  (1ULL << PFSEL_ATTR_LPORT) |
				  (1ULL << PFSEL_ATTR_RADDR) |
				  (1ULL << PFSEL_ATTR_RPORT) |
				  (1ULL << PFSEL_ATTR_POLICY) |
				  (1ULL << PFSEL_ATTR_RULE_FILE) |
				  (1ULL << PFSEL_ATTR_RULE_LINE) |
				  (1ULL << PFSEL_ATTR_RULE_COL) |
				  (1ULL << PFSEL_ATTR_TIMEOUT_MS),
			  r.q.seen);
		EXPECT_NE(0ULL, (unsigned long long)r.q.id);
		EXPECT_EQ(as.pid, (pid_t)r.q.pid);
		EXPECT_EQ(as.pid, (pid_t)r.q.tgid);
		EXPECT_EQ(PFSEL_UID1, (int)r.q.uid);
		EXPECT_STREQ(PFSEL_NETPROBE, r.q.exe);
		EXPECT_STREQ("netprobe", r.q.comm);
		EXPECT_EQ(PFSEL_OP_CONNECT, r.q.op);
		EXPECT_EQ(targets[i].family, r.q.family);
		EXPECT_EQ(PFSEL_PROTO_TCP, r.q.proto);
		EXPECT_EQ(0, memcmp(targets[i].raddr, r.q.raddr, 16));
		EXPECT_EQ(PORT_ATTRS, r.q.rport);
		/* An unbound socket: the unspecified address, port 0. */
		EXPECT_EQ(0, memcmp(targets[i].laddr, r.q.laddr, 16));
		EXPECT_EQ(0, r.q.lport);
		EXPECT_EQ(1, r.q.policy); /* the user's */
		EXPECT_STREQ(file, r.q.rule_file);
		EXPECT_EQ(line, r.q.rule_line);
		EXPECT_EQ(col, r.q.rule_col);
		EXPECT_EQ(TIMEOUT_MS, (int)r.q.timeout_ms);
		EXPECT_EQ(0, agent_answer(&self->agent[0], r.q.id,
					  PFSEL_ANSWER_ALLOW,
					  PFSEL_SCOPE_ONCE));
		EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	}
}

static unsigned short port_c(int i)
{
	return PORT_C;
}

/*
 * 8. A hundred threads asking the same at once make one question; its
 * answer releases them all.  (3. The question names the thread that
 * asked first, and its process.)
 */
TEST_F_TIMEOUT(ask, identical_questions_are_merged, 60)
{
	struct ask_stats before, now, after;
	struct agent_report r;
	struct threads *t;
	int i, allowed = 0, status;
	bool thread_of_it = false;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	ASSERT_TRUE(read_stats(&before));
	t = threads_start(PFSEL_UID1, 100, port_c);
	ASSERT_NE(NULL, t);
	ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
	/* Wait until the other 99 have joined it, within the timeout. */
	for (i = 0; i < 80; i++) {
		ASSERT_TRUE(read_stats(&now));
		if (now.merged - before.merged >= 99)
			break;
		usleep(100 * 1000);
	}
	EXPECT_EQ(99, now.merged - before.merged);
	EXPECT_EQ(1, now.pending);
	EXPECT_EQ(0, agent_answer(&self->agent[0], r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	status = pfsel_wait_status(t->pid);
	EXPECT_EQ(0, status);
	for (i = 0; i < t->n; i++) {
		if (t->result[i].err == ALLOWED)
			allowed++;
		if (t->result[i].tid == (pid_t)r.q.pid)
			thread_of_it = true;
	}
	EXPECT_EQ(100, allowed);
	/* One question for all: it came from one of the threads. */
	EXPECT_EQ(0, agent_drain(&self->agent[0], QUIET_MS));
	EXPECT_EQ(1, self->agent[0].received);
	EXPECT_EQ(t->pid, (pid_t)r.q.tgid);
	EXPECT_TRUE(thread_of_it);
	EXPECT_NE(r.q.tgid, r.q.pid);
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(1, after.questions - before.questions);
	EXPECT_EQ(1, after.answered - before.answered);
	EXPECT_EQ(0, after.pending);
	munmap(t, sizeof(*t));
}

/* 4. An agent that never answers: the unanswered verdict at the timeout. */
TEST_F(ask, timeout_gives_the_unanswered_verdict)
{
	static const struct {
		const char *policy;
		int verdict;
	} cases[] = { { "ask_1001", DENIED }, { "ask_allow_1001", ALLOWED } };
	struct ask_stats before, after;
	struct agent_report r;
	long long elapsed;
	struct asker as;
	unsigned int i;

	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pfsel_load(cases[i].policy));
		ASSERT_TRUE(read_stats(&before));
		as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_B);
		ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
		EXPECT_EQ(cases[i].verdict, asker_wait(&as, &elapsed))
		{
			TH_LOG("%s", cases[i].policy);
		}
		EXPECT_LE(TIMEOUT_MS, elapsed);
		EXPECT_GT(TIMEOUT_MS + 3000, elapsed);
		TH_LOG("%s: unanswered after %lld ms", cases[i].policy,
		       elapsed);
		ASSERT_TRUE(read_stats(&after));
		EXPECT_EQ(1, after.unanswered - before.unanswered);
		EXPECT_EQ(0, after.answered - before.answered);
		EXPECT_EQ(0, after.pending);
		/* 7. Too late: the question has expired. */
		EXPECT_EQ(ENOENT, agent_answer(&self->agent[0], r.q.id,
					       PFSEL_ANSWER_ALLOW,
					       PFSEL_SCOPE_ONCE));
	}
}

/*
 * 5. An agent killed while a question waits: the asker gets the
 * unanswered verdict at once, not at the timeout; so does one whose agent
 * unregisters, or is replaced by a newer registration.
 */
TEST_F_TIMEOUT(ask, agent_gone_mid_question, 60)
{
	struct agent *ag = &self->agent[0];
	struct agent_report r;
	long long elapsed, t0;
	struct ask_stats s;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));

	/* Killed. */
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_D);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	t0 = pfsel_now_ms();
	agent_kill(ag);
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
	elapsed = pfsel_now_ms() - t0;
	EXPECT_GT(PROMPT_MS, elapsed);
	TH_LOG("agent killed: the asker returned %lld ms later", elapsed);
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(0, s.agents);
	EXPECT_EQ(0, s.pending);

	/* Unregistered. */
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_D);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	t0 = pfsel_now_ms();
	EXPECT_EQ(0, agent_simple(ag, AGENT_UNREGISTER));
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
	EXPECT_GT(PROMPT_MS, pfsel_now_ms() - t0);
	EXPECT_EQ(ENOENT, agent_simple(ag, AGENT_UNREGISTER));
	EXPECT_EQ(EPERM, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				      PFSEL_SCOPE_ONCE));

	/* Registering again needs root, which the agent no longer is. */
	EXPECT_EQ(EPERM, agent_simple(ag, AGENT_REGISTER));
	agent_kill(ag);
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));

	/* Replaced by a newer agent of the same user. */
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_D);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	t0 = pfsel_now_ms();
	ASSERT_EQ(0, agent_start(&self->agent[1], PFSEL_UID1, true));
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
	EXPECT_GT(PROMPT_MS, pfsel_now_ms() - t0);
	/* The old socket is no agent any more; the new one is asked. */
	EXPECT_EQ(EPERM, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				      PFSEL_SCOPE_ONCE));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_D);
	ASSERT_TRUE(agent_question(&self->agent[1], &r, QUESTION_MS));
	EXPECT_EQ(0, agent_answer(&self->agent[1], r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	EXPECT_EQ(0, agent_drain(ag, QUIET_MS));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(1, s.agents);
}

/*
 * 6. Another user's agent neither receives nor answers 1001's questions,
 * and an agent of 1001 that is not the registered socket cannot answer.
 */
TEST_F(ask, other_users_agent_cannot_answer)
{
	struct agent *ag1 = &self->agent[0], *ag2 = &self->agent[1],
		     *stranger = &self->agent[2];
	struct ask_stats before, after;
	struct agent_report r, r2;
	long long elapsed;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, pfsel_load("ask_1002"));

	/* Only 1002 has an agent: 1001's question has none, at once. */
	ASSERT_EQ(0, agent_start(ag2, PFSEL_UID2, true));
	ASSERT_TRUE(read_stats(&before));
	EXPECT_EQ(DENIED, probe(PFSEL_UID1, "127.0.0.1", PORT_E, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(1, after.no_agent - before.no_agent);
	EXPECT_EQ(0, agent_drain(ag2, QUIET_MS));

	/* Both have one: 1001's question goes to 1001's agent only. */
	ASSERT_EQ(0, agent_start(ag1, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_E);
	ASSERT_TRUE(agent_question(ag1, &r, QUESTION_MS));
	EXPECT_EQ(PFSEL_UID1, (int)r.q.uid);
	EXPECT_EQ(0, agent_drain(ag2, QUIET_MS));
	/* 1002's agent: registered, but no such question of its own. */
	EXPECT_EQ(ENOENT, agent_answer(ag2, r.q.id, PFSEL_ANSWER_ALLOW,
				       PFSEL_SCOPE_SESSION));
	/* A socket of 1002 that is no agent. */
	ASSERT_EQ(0, agent_start(stranger, PFSEL_UID2, false));
	EXPECT_EQ(EPERM, agent_answer(stranger, r.q.id, PFSEL_ANSWER_ALLOW,
				      PFSEL_SCOPE_SESSION));
	EXPECT_EQ(ENOENT, agent_simple(stranger, AGENT_UNREGISTER));
	agent_kill(stranger);
	/* A socket of 1001 itself that is not its registered agent. */
	ASSERT_EQ(0, agent_start(stranger, PFSEL_UID1, false));
	EXPECT_EQ(EPERM, agent_answer(stranger, r.q.id, PFSEL_ANSWER_ALLOW,
				      PFSEL_SCOPE_SESSION));
	EXPECT_EQ(ENOENT, agent_simple(stranger, AGENT_UNREGISTER));
	agent_kill(stranger);
	/* The asker still waits for its own agent, whose answer counts. */
	EXPECT_EQ(0, agent_answer(ag1, r.q.id, PFSEL_ANSWER_DENY,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(DENIED, asker_wait(&as, &elapsed));
	EXPECT_GT(LONG_TIMEOUT_MS, elapsed);

	/* And the other way round. */
	as = probe_start(PFSEL_UID2, "127.0.0.1", PORT_E);
	ASSERT_TRUE(agent_question(ag2, &r2, QUESTION_MS));
	EXPECT_EQ(PFSEL_UID2, (int)r2.q.uid);
	EXPECT_EQ(0, agent_drain(ag1, QUIET_MS));
	EXPECT_EQ(ENOENT, agent_answer(ag1, r2.q.id, PFSEL_ANSWER_DENY,
				       PFSEL_SCOPE_ONCE));
	EXPECT_EQ(0, agent_answer(ag2, r2.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
}

/* 7. Answers to ids that are unknown, already answered or expired. */
TEST_F(ask, answer_to_unknown_id_is_enoent)
{
	struct agent *ag = &self->agent[0];
	struct agent_report r;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_1001"));
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	EXPECT_EQ(ENOENT, agent_answer(ag, 0, PFSEL_ANSWER_ALLOW,
				       PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ENOENT, agent_answer(ag, UINT64_MAX, PFSEL_ANSWER_DENY,
				       PFSEL_SCOPE_ALWAYS));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_F);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	EXPECT_EQ(ENOENT, agent_answer(ag, r.q.id + 1, PFSEL_ANSWER_DENY,
				       PFSEL_SCOPE_ONCE));
	EXPECT_EQ(0, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	/* Answered already. */
	EXPECT_EQ(ENOENT, agent_answer(ag, r.q.id, PFSEL_ANSWER_DENY,
				       PFSEL_SCOPE_ONCE));
	/* The ids are unique: the next question has a new one. */
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_F);
	{
		struct agent_report r2;

		ASSERT_TRUE(agent_question(ag, &r2, QUESTION_MS));
		EXPECT_NE(r.q.id, r2.q.id);
		/* Expired: the asker has had its unanswered verdict. */
		EXPECT_EQ(DENIED, asker_wait(&as, NULL));
		EXPECT_EQ(ENOENT, agent_answer(ag, r2.q.id,
					       PFSEL_ANSWER_ALLOW,
					       PFSEL_SCOPE_ONCE));
	}
}

/*
 * 9. A flood of different questions: at most 64 wait for the agent; the
 * rest get the unanswered verdict at once and are counted as overflow.
 */
static unsigned short port_flood(int i)
{
	return (unsigned short)(PORT_FLOOD + i);
}

TEST_F_TIMEOUT(ask, flood_is_bounded, 60)
{
	struct ask_stats before, now, after;
	struct threads *t;
	int i, fast = 0, slow = 0, denied = 0, questions;
	long long max_pending = 0;

	/*
	 * The long timeout: starting 200 threads on an emulated VM takes
	 * long enough to blur "at once" against 2 s.
	 */
	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	ASSERT_TRUE(read_stats(&before));
	t = threads_start(PFSEL_UID1, N_FLOOD, port_flood);
	ASSERT_NE(NULL, t);
	while (waitpid(t->pid, NULL, WNOHANG) == 0) {
		ASSERT_TRUE(read_stats(&now));
		if (now.pending > max_pending)
			max_pending = now.pending;
		usleep(20 * 1000);
	}
	questions = agent_drain(&self->agent[0], QUIET_MS);
	ASSERT_TRUE(read_stats(&after));
	for (i = 0; i < t->n; i++) {
		if (t->result[i].err == DENIED)
			denied++;
		/* 200 threads on a slow VM: "at once" is well before it. */
		if (t->result[i].elapsed_ms < LONG_TIMEOUT_MS / 2)
			fast++;
		else if (t->result[i].elapsed_ms >= LONG_TIMEOUT_MS - 20)
			slow++;
	}
	TH_LOG("%d questions, %d at once, %d after the timeout, most pending %lld, overflow %lld",
	       questions, fast, slow, max_pending,
	       after.overflow - before.overflow);
	EXPECT_EQ(N_FLOOD, denied);
	EXPECT_GE(PFSEL_MAX_PENDING, max_pending);
	EXPECT_EQ(PFSEL_MAX_PENDING, questions);
	EXPECT_EQ(PFSEL_MAX_PENDING, after.questions - before.questions);
	EXPECT_EQ(PFSEL_MAX_PENDING, slow);
	EXPECT_EQ(N_FLOOD - PFSEL_MAX_PENDING, fast);
	EXPECT_EQ(N_FLOOD - PFSEL_MAX_PENDING,
		  after.overflow - before.overflow);
	EXPECT_EQ(0, after.pending);
	munmap(t, sizeof(*t));
}

/* 10. SIGKILL ends a wait at once. */
TEST_F_TIMEOUT(ask, sigkill_ends_the_wait, 60)
{
	struct ask_stats before, after;
	struct agent_report r;
	long long t0, elapsed;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	ASSERT_TRUE(read_stats(&before));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_A);
	ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
	/* A signal that is not fatal does not end it: SIGSTOP, SIGCONT. */
	kill(as.pid, SIGSTOP);
	kill(as.pid, SIGCONT);
	usleep(200 * 1000);
	EXPECT_EQ(0, waitpid(as.pid, NULL, WNOHANG));
	t0 = pfsel_now_ms();
	ASSERT_EQ(0, kill(as.pid, SIGKILL));
	EXPECT_EQ(128 + SIGKILL, asker_wait(&as, NULL));
	elapsed = pfsel_now_ms() - t0;
	EXPECT_GT(PROMPT_MS, elapsed);
	TH_LOG("killed: gone %lld ms later", elapsed);
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(1, after.interrupted - before.interrupted);
	EXPECT_EQ(0, after.pending);
	/* Nobody waits for it: an answer finds no question. */
	EXPECT_EQ(ENOENT, agent_answer(&self->agent[0], r.q.id,
				       PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ONCE));
}

/* ---- 11. bad input from unprivileged users ------------------------------ */

#define BAD(cond, ...)                                                      \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "  uid %u: ", getuid());            \
			fprintf(stderr, __VA_ARGS__);                       \
			fprintf(stderr, "\n");                              \
			failures++;                                         \
		}                                                           \
	} while (0)

/* A genl message by hand: header, genl header, then @payload. */
static size_t raw_msg(uint8_t *buf, size_t size, uint16_t type,
		      uint16_t flags, uint8_t cmd, uint8_t version,
		      uint16_t reserved, const void *payload, size_t plen)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)NLMSG_DATA(nlh);
	const size_t len = NLMSG_LENGTH(GENL_HDRLEN + plen);

	if (len > size)
		return 0;
	memset(buf, 0, len);
	nlh->nlmsg_len = (uint32_t)len;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = 4242;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	memcpy((uint8_t *)g + GENL_HDRLEN, payload, plen);
	return len;
}

struct garbage_arg {
	uint64_t live_id; /* a question pending for 1001 */
};

static int garbage_fn(void *arg)
{
	const struct garbage_arg *ga = arg;
	const uint64_t id = ga->live_id;
	const uint8_t allow = PFSEL_ANSWER_ALLOW, once = PFSEL_SCOPE_ONCE;
	const uint8_t two = 2, four = 4, big = 255;
	const uint32_t wide = 0, pid = 1;
	const uint16_t short_id = 1;
	uint8_t buf[1024], payload[512];
	struct ask_agent a;
	unsigned int seed = 1;
	int failures = 0, ret, i;
	size_t len, plen;

	ret = ask_agent_open(&a);
	if (ret) {
		fprintf(stderr, "  uid %u: open: %s\n", getuid(),
			strerror(-ret));
		return 100;
	}

	/* ANSWER without its attributes, or with some missing. */
	ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, NULL, 0);
	BAD(ret == -EINVAL, "ANSWER without attributes: %d", ret);
	{
		const struct ask_attr only_id[] = { { PFSEL_ATTR_ID, 8, &id } };
		const struct ask_attr no_scope[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
		};

		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, only_id, 1);
		BAD(ret == -EINVAL, "ANSWER with only an id: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, no_scope, 2);
		BAD(ret == -EINVAL, "ANSWER without a scope: %d", ret);
	}
	/* Out of range, by the family's attribute policy. */
	{
		const struct ask_attr verdict2[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &two },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct ask_attr verdict255[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &big },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct ask_attr scope4[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_SCOPE, 1, &four },
		};

		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, verdict2, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "verdict 2: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, verdict255, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "verdict 255: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, scope4, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "scope 4: %d", ret);
	}
	/* Wrong sizes, attributes the family does not take. */
	{
		const struct ask_attr wide_verdict[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 4, &wide },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct ask_attr narrow_id[] = {
			{ PFSEL_ATTR_ID, 2, &short_id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct ask_attr with_pid[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_PID, 4, &pid },
		};
		const struct ask_attr unknown[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ 200, 4, &pid },
		};

		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, wide_verdict,
					3);
		BAD(ret == -EINVAL || ret == -ERANGE, "u32 verdict: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, narrow_id, 3);
		BAD(ret == -EINVAL || ret == -ERANGE, "u16 id: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, with_pid, 3);
		BAD(ret == -EINVAL, "ANSWER with a PID attribute: %d", ret);
		ret = ask_agent_request(&a, PFSEL_CMD_ANSWER, 0, unknown, 3);
		BAD(ret == -EINVAL, "ANSWER with attribute 200: %d", ret);
	}
	/* A well-formed answer to 1001's live question, from a stranger. */
	ret = ask_agent_answer(&a, id, PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ALWAYS);
	BAD(ret == -EPERM, "forged answer to question %llu: %d",
	    (unsigned long long)id, ret);
	/* Commands the family does not have, or not from user space. */
	ret = ask_agent_request(&a, PFSEL_CMD_ASK, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "ASK from user space: %d", ret);
	ret = ask_agent_request(&a, PFSEL_CMD_UNSPEC, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "command 0: %d", ret);
	ret = ask_agent_request(&a, 99, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "command 99: %d", ret);
	ret = ask_agent_request(&a, PFSEL_CMD_REGISTER, NLM_F_DUMP, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "REGISTER as a dump: %d", ret);
	/* UNREGISTER from a socket that is no agent. */
	ret = ask_agent_unregister(&a);
	BAD(ret == -ENOENT, "UNREGISTER by a stranger: %d", ret);

	/* Truncated and malformed messages, by hand. */
	len = raw_msg(buf, sizeof(buf), (uint16_t)a.family,
		      NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_UNREGISTER, 1, 0,
		      NULL, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_HDRLEN + 2;
	ret = ask_agent_send_raw(&a, buf, NLMSG_HDRLEN + 2, 200);
	BAD(ret == -EINVAL, "genl header cut short: %d", ret);
	len = raw_msg(buf, sizeof(buf), (uint16_t)a.family,
		      NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_UNREGISTER, 1, 7,
		      NULL, 0);
	ret = ask_agent_send_raw(&a, buf, len, 200);
	BAD(ret == -EINVAL, "genl reserved field set: %d", ret);
	/* An attribute that claims more than the message holds. */
	{
		struct nlattr *nla = (struct nlattr *)payload;

		nla->nla_type = PFSEL_ATTR_ID;
		nla->nla_len = 200;
		memcpy(payload + NLA_HDRLEN, &id, 8);
		len = raw_msg(buf, sizeof(buf), (uint16_t)a.family,
			      NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_ANSWER, 1,
			      0, payload, NLA_HDRLEN + 8);
		ret = ask_agent_send_raw(&a, buf, len, 200);
		BAD(ret < 0 && ret != -ETIMEDOUT,
		    "attribute longer than the message: %d", ret);
	}
	/* A message that claims more than was sent: dropped, or refused. */
	len = raw_msg(buf, sizeof(buf), (uint16_t)a.family,
		      NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_REGISTER, 1, 0,
		      NULL, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = 512;
	ret = ask_agent_send_raw(&a, buf, len, 300);
	BAD(ret != 0, "a message longer than sent was taken: %d", ret);
	/* Shorter than a netlink header. */
	ret = ask_agent_send_raw(&a, buf, 7, 300);
	BAD(ret != 0, "7 bytes were taken: %d", ret);

	/*
	 * Random payloads to the family: any command but REGISTER (which
	 * would make this socket the agent of 1001 in place of the test's),
	 * any attributes.  Only that nothing breaks is checked.
	 */
	for (i = 0; i < 500; i++) {
		uint8_t cmd = (uint8_t)rand_r(&seed);
		size_t k;

		if (i % 2)
			cmd %= 6;
		if (cmd == PFSEL_CMD_REGISTER)
			cmd = PFSEL_CMD_ANSWER;
		plen = (size_t)rand_r(&seed) % sizeof(payload);
		for (k = 0; k < plen; k++)
			payload[k] = (uint8_t)rand_r(&seed);
		/* Often a plausible attribute header first. */
		if (plen >= 4 && rand_r(&seed) % 2) {
			struct nlattr *nla = (struct nlattr *)payload;

			nla->nla_type = (uint16_t)(rand_r(&seed) % 24);
			nla->nla_len = (uint16_t)(rand_r(&seed) % (plen + 8));
		}
		len = raw_msg(buf, sizeof(buf), (uint16_t)a.family,
			      NLM_F_REQUEST | NLM_F_ACK, cmd,
			      (uint8_t)rand_r(&seed) % 3, 0, payload, plen);
		/* Sometimes cut the datagram short of its header's length. */
		if (rand_r(&seed) % 4 == 0)
			len = (size_t)rand_r(&seed) % (len + 1);
		/* The kernel answers while sendto() runs, if at all. */
		ask_agent_send_raw(&a, buf, len, 20);
	}
	/* The socket and the family still work. */
	ret = ask_agent_unregister(&a);
	BAD(ret == -ENOENT, "UNREGISTER after the garbage: %d", ret);
	ret = ask_agent_answer(&a, id, PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ONCE);
	BAD(ret == -EPERM, "forged answer after the garbage: %d", ret);
	ask_agent_close(&a);
	return failures > 99 ? 99 : failures;
}

TEST_F_TIMEOUT(ask, bad_messages_change_nothing, 120)
{
	struct agent_cmd c = {
		.op = AGENT_REQUEST,
		.cmd = PFSEL_CMD_ANSWER,
		.nattrs = 3,
		.attrs = { { PFSEL_ATTR_ID, 8, { 0 } },
			   { PFSEL_ATTR_VERDICT, 1, { 5 } },
			   { PFSEL_ATTR_SCOPE, 1, { 0 } } },
	};
	struct agent *ag = &self->agent[0];
	struct garbage_arg ga;
	struct agent_report r;
	struct ask_stats s;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_B);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	ga.live_id = r.q.id;

	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, garbage_fn, &ga));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID2, garbage_fn, &ga));

	/* The agent's own bad answers to it change nothing either. */
	memcpy(c.attrs[0].data, &r.q.id, 8);
	EXPECT_EQ(ERANGE, agent_call(ag, &c));
	c.attrs[1].data[0] = PFSEL_ANSWER_DENY;
	c.attrs[2].data[0] = 9;
	EXPECT_EQ(ERANGE, agent_call(ag, &c));
	c.nattrs = 2;
	EXPECT_EQ(EINVAL, agent_call(ag, &c));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(1, s.agents);
	EXPECT_EQ(1, s.pending);
	/* The question is still there, and its agent's answer decides it. */
	EXPECT_EQ(0, waitpid(as.pid, NULL, WNOHANG));
	EXPECT_EQ(0, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	EXPECT_EQ(0, agent_drain(ag, QUIET_MS));
}

/* ---- 12. audit records of asked decisions ------------------------------- */

/* The 1430 record of process @pid that holds @more. */
static bool asked_record(pid_t pid, const char *more, char *record,
			 size_t size)
{
	char pid_field[32];
	const char *needles[] = { " pfsel ", pid_field, more, NULL };

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return pfsel_audit_find("1430", needles, record, size, 10000);
}

TEST_F_TIMEOUT(ask, audit_says_how_it_was_decided, 90)
{
	struct agent *ag = &self->agent[0];
	struct agent_report r;
	char record[4096];
	struct asker as;

	if (!pfsel_auditd_running())
		SKIP(return, "auditd is not running in the VM");
	ASSERT_EQ(0, pfsel_load("ask_1001"));

	/* No agent: unanswered. */
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_LOGGED);
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
	EXPECT_TRUE(asked_record(as.pid, " verdict=deny asked=unanswered ",
				 record, sizeof(record)))
	{
		TH_LOG("no record of pid %d with asked=unanswered", as.pid);
	}

	/* Answered: deny, and an allow that the rule logs. */
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_LOGGED);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	EXPECT_EQ(0, agent_answer(ag, r.q.id, PFSEL_ANSWER_DENY,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
	EXPECT_TRUE(asked_record(as.pid, " verdict=deny asked=answered ",
				 record, sizeof(record)))
	{
		TH_LOG("no record of pid %d with asked=answered", as.pid);
	}
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_LOGGED);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	EXPECT_EQ(0, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_SESSION));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	EXPECT_TRUE(asked_record(as.pid, " verdict=allow asked=answered ",
				 record, sizeof(record)))
	{
		TH_LOG("no record of pid %d with verdict=allow asked=answered",
		       as.pid);
	}

	/* Kept for the session: the next one is not asked. */
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_LOGGED);
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	EXPECT_EQ(0, agent_drain(ag, QUIET_MS));
	EXPECT_TRUE(asked_record(as.pid, " verdict=allow asked=kept ", record,
				 sizeof(record)))
	{
		TH_LOG("no record of pid %d with asked=kept", as.pid);
	}
	TH_LOG("%s", record);
}

/* ---- 2. answers and their scopes ----------------------------------------- */

FIXTURE(scope)
{
	struct agent agent;
};

/*
 * Each answer is tested against a policy whose unanswered verdict is the
 * other one, so that a lost answer shows.
 */
FIXTURE_VARIANT(scope)
{
	uint8_t answer;
	int verdict; /* what the answer gives */
	int unanswered; /* what no answer gives */
	const char *policy;
};

FIXTURE_VARIANT_ADD(scope, allow)
{
	.answer = PFSEL_ANSWER_ALLOW,
	.verdict = ALLOWED,
	.unanswered = DENIED,
	.policy = "ask_1001",
};

FIXTURE_VARIANT_ADD(scope, deny)
{
	.answer = PFSEL_ANSWER_DENY,
	.verdict = DENIED,
	.unanswered = ALLOWED,
	.policy = "ask_allow_1001",
};

FIXTURE_SETUP(scope)
{
	memset(self, 0, sizeof(*self));
	if (geteuid() != 0)
		SKIP(return, "loading policies for 1001 needs root");
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load(variant->policy));
	ASSERT_EQ(0, agent_start(&self->agent, PFSEL_UID1, true));
}

FIXTURE_TEARDOWN_PARENT(scope)
{
	if (self->agent.pid > 0)
		kill(self->agent.pid, SIGKILL);
	pfsel_reset();
}

/*
 * One process connects @n times, then netprobe (another process) once;
 * the agent answers every question at once with @scope.  Checks every
 * verdict, and returns how many questions the agent received.
 */
static int ask_round(struct __test_metadata *const _metadata,
		     const FIXTURE_VARIANT(scope) *const variant,
		     struct agent *ag, unsigned short port, int n)
{
	struct agent_report r;
	int results[8], i, got = 0;

	ASSERT_EQ(0, connects_in_one_process(PFSEL_UID1, port, n, results));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(variant->verdict, results[i])
		{
			TH_LOG("connect %d of one process", i + 1);
		}
	}
	EXPECT_EQ(variant->verdict, probe(PFSEL_UID1, "127.0.0.1", port, NULL))
	{
		TH_LOG("netprobe, after the process");
	}
	while (agent_question(ag, &r, QUIET_MS)) {
		EXPECT_EQ(0, r.answer_err);
		got++;
	}
	return got;
}

TEST_F(scope, once_is_asked_every_time)
{
	ASSERT_EQ(0, agent_auto(&self->agent, variant->answer,
				PFSEL_SCOPE_ONCE));
	EXPECT_EQ(3, ask_round(_metadata, variant, &self->agent, PORT_A, 2));
	EXPECT_EQ(3, ask_round(_metadata, variant, &self->agent, PORT_A, 2));
}

TEST_F(scope, process_is_asked_once_per_process)
{
	struct ask_stats before, after;

	ASSERT_EQ(0, agent_auto(&self->agent, variant->answer,
				PFSEL_SCOPE_PROCESS));
	ASSERT_TRUE(read_stats(&before));
	/* The process asks once for 3 connects; netprobe asks again. */
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_B, 3));
	/* A new process asks again. */
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_B, 3));
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(4, after.kept_hits - before.kept_hits);
	EXPECT_EQ(4, after.kept - before.kept);
	/* A policy load forgets them. */
	ASSERT_EQ(0, pfsel_load(variant->policy));
	ASSERT_TRUE(read_stats(&after));
	EXPECT_EQ(0, after.kept);
}

/*
 * A session (or "always") answer holds for every process of the user that
 * runs the application that was asked, until the agent unregisters, its
 * socket closes, or a policy is loaded.  A round asks twice: the process
 * (this test program) and netprobe are two applications.
 */
static void session_round(struct __test_metadata *const _metadata,
			  const FIXTURE_VARIANT(scope) *const variant,
			  struct agent *ag, uint8_t scope)
{
	struct ask_stats s;
	long long elapsed;

	ASSERT_EQ(0, agent_auto(ag, variant->answer, scope));
	/* Asked once per application, then kept for each. */
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));
	EXPECT_EQ(0, ask_round(_metadata, variant, ag, PORT_C, 2));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(2, s.kept);

	/* Unregistered: forgotten; with no agent, the unanswered verdict. */
	EXPECT_EQ(0, agent_simple(ag, AGENT_UNREGISTER));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(0, s.kept);
	EXPECT_EQ(variant->unanswered,
		  probe(PFSEL_UID1, "127.0.0.1", PORT_C, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	/* Only root registers again: a new agent. */
	EXPECT_EQ(EPERM, agent_simple(ag, AGENT_REGISTER));
	agent_kill(ag);
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	ASSERT_EQ(0, agent_auto(ag, variant->answer, scope));
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));

	/* A policy load forgets it. */
	ASSERT_EQ(0, pfsel_load(variant->policy));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(0, s.kept);
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));

	/* The agent's socket closing forgets it; a new agent is asked. */
	agent_kill(ag);
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(0, s.agents);
	EXPECT_EQ(0, s.kept);
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	ASSERT_EQ(0, agent_auto(ag, variant->answer, scope));
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));
	EXPECT_EQ(0, ask_round(_metadata, variant, ag, PORT_C, 1));
	TH_LOG("scope %s: kept until unregister, load, close", scope_name(scope));
}

TEST_F(scope, session_is_asked_once_per_session)
{
	session_round(_metadata, variant, &self->agent, PFSEL_SCOPE_SESSION);
}

TEST_F(scope, always_is_kept_like_session)
{
	session_round(_metadata, variant, &self->agent, PFSEL_SCOPE_ALWAYS);
}

/*
 * A newer agent replaces the older: the session answers the older gave
 * end with it, as they would had it unregistered or closed its socket.
 */
TEST_F(scope, session_ends_with_a_replaced_agent)
{
	struct agent newer;
	struct ask_stats s;

	ASSERT_EQ(0, agent_auto(&self->agent, variant->answer,
				PFSEL_SCOPE_SESSION));
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_F, 1));
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(2, s.kept);
	ASSERT_EQ(0, agent_start(&newer, PFSEL_UID1, true));
	ASSERT_EQ(0, agent_auto(&newer, variant->answer, PFSEL_SCOPE_ONCE));
	agent_kill(&self->agent);
	ASSERT_TRUE(read_stats(&s));
	EXPECT_EQ(1, s.agents);
	EXPECT_EQ(0, s.kept);
	/* The newer agent is asked. */
	EXPECT_EQ(2, ask_round(_metadata, variant, &newer, PORT_F, 1));
	agent_kill(&newer);
}

/*
 * A kept answer is one user's: another user is still asked.  (Any load
 * forgets every kept answer, so 1002's policy is loaded first.)
 */
TEST_F(scope, kept_answer_is_per_user)
{
	struct agent ag2;
	struct agent_report r;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_1002"));
	ASSERT_EQ(0, agent_auto(&self->agent, variant->answer,
				PFSEL_SCOPE_SESSION));
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_D, 1));
	ASSERT_EQ(0, agent_start(&ag2, PFSEL_UID2, true));
	as = probe_start(PFSEL_UID2, "127.0.0.1", PORT_D);
	EXPECT_TRUE(agent_question(&ag2, &r, QUESTION_MS));
	EXPECT_EQ(PFSEL_UID2, (int)r.q.uid);
	EXPECT_EQ(0, agent_answer(&ag2, r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	agent_kill(&ag2);
}

/*
 * The answer is kept before the asker wakes: a process that connects
 * again at once is not asked again.  The agent and the asker run on two
 * CPUs, so that the woken asker runs on while the agent's answer is still
 * being handled; repeated, since such a window shows only sometimes.
 */
TEST_F_TIMEOUT(scope, kept_before_the_asker_wakes, 120)
{
	int round, results[8], i, questions, twice = 0;
	struct ask_stats s;

	ASSERT_EQ(0, agent_auto(&self->agent, variant->answer,
				PFSEL_SCOPE_PROCESS));
	pin(self->agent.pid, 0);
	pin_cpu = 1;
	for (round = 0; round < 100; round++) {
		/* A load forgets the answers of the round before. */
		ASSERT_EQ(0, pfsel_load(variant->policy));
		ASSERT_EQ(0, connects_in_one_process(PFSEL_UID1, PORT_E, 4,
						     results));
		for (i = 0; i < 4; i++)
			EXPECT_EQ(variant->verdict, results[i]);
		questions = agent_drain(&self->agent, 100);
		read_stats(&s);
		if (s.kept != 1)
			TH_LOG("round %d: %lld answers kept", round, s.kept);
		if (questions != 1) {
			TH_LOG("round %d: %d questions for 4 connects of one process",
			       round, questions);
			twice++;
		}
	}
	EXPECT_EQ(0, twice);
}

TEST_HARNESS_MAIN
