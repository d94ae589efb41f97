// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - a user's policy holds against that user's own programs
 * (issue 12; docs/kernel-interface.md, "who may write what").
 *
 * Root loads policies/trust_1001.pfw for pfuser1: connects to loopback
 * port 6501 are denied, to 6502 asked.  Then a program running as pfuser1
 * -- a child of this test that became uid 1001, which the policy denies
 * 6501 -- plays the attacker, and tries to turn its policy off:
 *
 *   - register as 1001's agent (and as root's, and 1002's): EPERM;
 *   - have root register on a socket it opened itself: EPERM;
 *   - replace the real agent, which root registered: EPERM, and the real
 *     agent is still the one asked;
 *   - answer, from its own socket, a question the real agent holds (its
 *     id given to it): EPERM, and the real agent's answer decides;
 *   - register after the agent died: EPERM, and the question gets the
 *     unanswered verdict at once;
 *   - unload 1001's policy, forget its kept answers (a deny the agent
 *     gave for the session): EPERM, and the deny still decides; root's
 *     forget (the control) wipes it, and the request is asked again;
 *   - load a looser policy for 1001: EPERM;
 *   - attach with ptrace, open /proc/PID/mem for writing,
 *     process_vm_writev() and take a descriptor with pidfd_getfd() against
 *     a running `pfsel-agent --user 1001`: refused; against an ordinary
 *     process of 1001 (the control): works.
 *
 * After every attempt the denied connect (netprobe as pfuser1 to 6501) is
 * still denied.  The paths that must keep working: an agent registered by
 * root that dropped to 1001 answers; that agent process, and no other
 * process of 1001 (not even its own child), loads 1001's policy (the agent
 * channel, which pfsel-agent's "always" uses: agent_test).
 *
 * The agent here is libpfsel's (pfsel_agent_open() and the rest) in a
 * child that registers as root and becomes pfuser1 (not dumpable, as
 * pfsel-agent --user makes itself), driven over pipes.  The attacker
 * calls libpfsel too: what it sends is well formed, and the kernel
 * refuses it for who sends it.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "pfsel_test_util.h"
#include "process_attacks.h"
#include "raw_genl.h"

#include "kselftest_harness.h"

#define PORT_DENIED 6501
#define PORT_ASKED 6502

#define TIMEOUT_MS 5000 /* trust_1001's ask timeout */
#define PROMPT_MS 2000 /* "at once": well under the timeout */
#define QUESTION_MS 3000 /* for a question to reach the agent */
#define START_MS 5000 /* for pfsel-agent to register and drop */

#define ALLOWED ECONNREFUSED /* nobody listens on the ports */
#define DENIED EACCES

/* ---- requests as pfuser1 ------------------------------------------------- */

/* netprobe connects as pfuser1 to 127.0.0.1:@port, in the background. */
static pid_t probe_start(unsigned short port)
{
	return pfsel_netprobe_start(PFSEL_UID1, NULL, "connect", "127.0.0.1",
				    port);
}

/* Its errno, and how long it took when @elapsed is not NULL. */
static int probe(unsigned short port, long long *elapsed)
{
	const long long t0 = pfsel_now_ms();
	const int status = pfsel_netprobe_as(PFSEL_UID1, NULL, "connect",
					     "127.0.0.1", port, NULL);

	if (elapsed)
		*elapsed = pfsel_now_ms() - t0;
	return status;
}

/* The connect the policy denies: still denied? */
#define EXPECT_STILL_DENIED() EXPECT_EQ(DENIED, probe(PORT_DENIED, NULL))

/* ---- the attacker: a process of uid 1001 --------------------------------- */

/*
 * Each returns what the attempt failed with (a positive errno), 0 when it
 * succeeded, 100 and up when it could not even be tried.
 */
static int attack_register(void *arg)
{
	struct pfsel_agent *a;
	int ret;

	if (pfsel_agent_open(&a))
		return 100;
	ret = pfsel_agent_register_for(a, (uid_t)(uintptr_t)arg);
	pfsel_agent_close(a);
	return -ret;
}

static int attack_answer(void *arg)
{
	struct pfsel_agent *a;
	int ret, ret2;

	if (pfsel_agent_open(&a))
		return 100;
	ret = pfsel_agent_answer(a, *(const uint64_t *)arg, PFSEL_ANSWER_ALLOW,
				 PFSEL_SCOPE_SESSION);
	/* Nor can it take the agent's place by unregistering it. */
	ret2 = pfsel_agent_unregister(a);
	pfsel_agent_close(a);
	if (ret2 != -ENOENT)
		return 101;
	return -ret;
}

static int attack_unload(void *unused)
{
	return -pfsel_unload_uid(PFSEL_UID1);
}

static int attack_forget(void *unused)
{
	return -pfsel_forget_uid(PFSEL_UID1);
}

static int attack_load(void *name)
{
	return -pfsel_load(name);
}

/* ---- the agent: registered by root, then pfuser1 --------------------------- */

enum agent_op {
	AGENT_QUESTION, /* the next question's id */
	AGENT_ANSWER, /* answer id with verdict, once */
	AGENT_LOAD, /* write the policy name to load itself */
	AGENT_CHILD_LOAD, /* have a child of its own write it */
};

struct agent_cmd {
	enum agent_op op;
	uint64_t id;
	uint8_t verdict;
	uint8_t scope; /* PFSEL_SCOPE_ONCE unless set */
	char name[64];
};

struct agent_result {
	int err; /* 0 or a positive errno */
	uint64_t id;
};

struct agent {
	pid_t pid;
	int cmd, result;
};

static int load_as_self(const char *name)
{
	return -pfsel_load(name);
}

static void agent_main(pid_t parent, int cmd, int result)
{
	struct agent_result r = { 0 };
	struct pfsel_question q = { 0 };
	struct pfsel_agent *a;
	struct agent_cmd c;
	pid_t child;
	int ret;

	ret = pfsel_agent_open(&a);
	if (!ret)
		ret = pfsel_agent_register_for(a, PFSEL_UID1);
	if (!ret)
		ret = pfsel_become(PFSEL_UID1);
	/* As pfsel-agent --user: no ptrace, no /proc/PID/mem by the user. */
	prctl(PR_SET_DUMPABLE, 0);
	pfsel_die_with_parent(parent);
	r.err = -ret;
	if (write(result, &r, sizeof(r)) != sizeof(r) || ret)
		_exit(1);
	while (read(cmd, &c, sizeof(c)) == sizeof(c)) {
		memset(&r, 0, sizeof(r));
		switch (c.op) {
		case AGENT_QUESTION:
			ret = pfsel_agent_receive(a, &q, QUESTION_MS);
			r.err = ret == 1 ? 0 : ret == 0 ? ETIMEDOUT : -ret;
			r.id = q.id;
			break;
		case AGENT_ANSWER:
			r.err = -pfsel_agent_answer(a, c.id, c.verdict,
						    c.scope);
			break;
		case AGENT_LOAD:
			r.err = load_as_self(c.name);
			break;
		case AGENT_CHILD_LOAD:
			child = fork();
			if (child == 0)
				_exit(load_as_self(c.name));
			r.err = pfsel_wait_status(child);
			break;
		}
		if (write(result, &r, sizeof(r)) != sizeof(r))
			_exit(1);
	}
	_exit(0);
}

/* 0 once the agent is registered and runs as pfuser1, or its errno. */
static int agent_start(struct agent *ag)
{
	struct agent_result r = { .err = EIO };
	int cmd[2], result[2];
	const pid_t parent = getpid();

	if (pipe2(cmd, O_CLOEXEC) || pipe2(result, O_CLOEXEC))
		return errno;
	ag->pid = fork();
	if (ag->pid < 0)
		return errno;
	if (ag->pid == 0) {
		close(cmd[1]);
		close(result[0]);
		agent_main(parent, cmd[0], result[1]);
	}
	close(cmd[0]);
	close(result[1]);
	ag->cmd = cmd[1];
	ag->result = result[0];
	if (read(ag->result, &r, sizeof(r)) != sizeof(r))
		return EIO;
	return r.err;
}

static struct agent_result agent_call(struct agent *ag,
				      const struct agent_cmd *c)
{
	struct agent_result r = { .err = EIO };

	if (write(ag->cmd, c, sizeof(*c)) != sizeof(*c) ||
	    read(ag->result, &r, sizeof(r)) != sizeof(r))
		r.err = EIO;
	return r;
}

static void agent_kill(struct agent *ag)
{
	if (ag->pid <= 0)
		return;
	kill(ag->pid, SIGKILL);
	pfsel_wait_status(ag->pid);
	close(ag->cmd);
	close(ag->result);
	ag->pid = 0;
}

/* ---- the fixture ------------------------------------------------------------ */

FIXTURE(trust)
{
	struct agent agent;
	struct pfsel_agent_process real_agent;
	pid_t control; /* agent_memory_is_protected's ordinary process */
};

FIXTURE_SETUP(trust)
{
	memset(self, 0, sizeof(*self));
	self->real_agent.input = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and registering need root");
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("trust_1001"));
	ASSERT_EQ(DENIED, probe(PORT_DENIED, NULL));
	ASSERT_EQ(ALLOWED, probe(6503, NULL)); /* the rest is allowed */
}

FIXTURE_TEARDOWN(trust)
{
	if (geteuid() != 0)
		return;
	agent_kill(&self->agent);
	pfsel_stop_agent(&self->real_agent, SIGKILL);
	if (self->control > 0) {
		kill(self->control, SIGKILL);
		pfsel_wait_status(self->control);
	}
	pfsel_reset();
}

/* Registering: the user cannot, for itself or anyone. */
TEST_F(trust, user_cannot_register)
{
	long long elapsed;

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)0));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID2));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
	/* No agent: the asked connect gets the unanswered verdict at once. */
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
}

/* pfuser1's side of a socket it lends: opens it, and sends it over @arg. */
static int lend_socket(void *arg)
{
	const int sock = (int)(intptr_t)arg;
	struct raw_genl r;
	const int err = raw_genl_open(&r);

	if (pfsel_send_fd(sock, err ? err : r.fd))
		return 100;
	raw_genl_close(&r);
	return 0;
}

/*
 * Root's REGISTER of pfuser1's agent on @fd, raw, sent to the kernel's
 * address (sendto()) or, @written, with write(): 0 or a negative errno.
 */
static int register_on(int fd, bool written)
{
	const uint32_t uid = PFSEL_UID1;
	const struct raw_attr attr = { PFSEL_ATTR_UID, sizeof(uid), &uid };
	const int family = raw_genl_family();

	if (family < 0)
		return family;
	if (written)
		return raw_genl_request_written(fd, family, PFSEL_CMD_REGISTER,
						0, &attr, 1);
	return raw_genl_request(fd, family, PFSEL_CMD_REGISTER, 0, &attr, 1,
				NULL, NULL);
}

/*
 * A socket pfuser1 opened, handed to root (a program root runs that
 * takes a descriptor from the user, or writes to one, its output): root's
 * REGISTER on it, written or sent to the kernel's address, is refused,
 * for the socket's opener lacks CAP_MAC_ADMIN; had it been taken,
 * pfuser1, which holds the same socket, would read and answer its own
 * questions on it.  The control: the same REGISTERs by root on a socket
 * root opened itself.
 */
TEST_F(trust, user_cannot_lend_a_socket_to_register)
{
	struct raw_genl own;
	int pair[2], lent;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, lend_socket,
				  (void *)(intptr_t)pair[1]));
	lent = pfsel_recv_fd(pair[0]);
	close(pair[0]);
	close(pair[1]);
	ASSERT_LE(0, lent)
	{
		TH_LOG("pfuser1's socket did not arrive: %s", strerror(-lent));
	}
	EXPECT_EQ(-EPERM, register_on(lent, true));
	EXPECT_EQ(-EPERM, register_on(lent, false));
	close(lent);
	EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
	EXPECT_STILL_DENIED();

	ASSERT_EQ(0, raw_genl_open(&own));
	EXPECT_EQ(0, register_on(own.fd, true));
	EXPECT_EQ(0, register_on(own.fd, false));
	EXPECT_EQ(1, PFSEL_ASK_STAT(agents));
	raw_genl_close(&own);
	EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
}

/* Replacing the agent root registered: refused; it is still asked. */
TEST_F(trust, user_cannot_replace_agent)
{
	struct agent_cmd c = { .op = AGENT_QUESTION };
	struct agent_result r;
	pid_t asker;

	ASSERT_EQ(0, agent_start(&self->agent));
	EXPECT_EQ(1, PFSEL_ASK_STAT(agents));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(1, PFSEL_ASK_STAT(agents));

	/* The agent root registered (now pfuser1) is asked, and answers. */
	asker = probe_start(PORT_ASKED);
	ASSERT_LT(0, asker);
	r = agent_call(&self->agent, &c);
	ASSERT_EQ(0, r.err);
	c.op = AGENT_ANSWER;
	c.id = r.id;
	c.verdict = PFSEL_ANSWER_ALLOW;
	EXPECT_EQ(0, agent_call(&self->agent, &c).err);
	EXPECT_EQ(ALLOWED, pfsel_wait_status(asker));
	EXPECT_STILL_DENIED();
}

/* Answering its own question from its own socket: refused. */
TEST_F(trust, user_cannot_answer)
{
	struct agent_cmd c = { .op = AGENT_QUESTION };
	struct agent_result r;
	long long t0;
	pid_t asker;

	ASSERT_EQ(0, agent_start(&self->agent));
	asker = probe_start(PORT_ASKED);
	ASSERT_LT(0, asker);
	r = agent_call(&self->agent, &c);
	ASSERT_EQ(0, r.err);
	/* Given the very id, which it would otherwise have to guess. */
	t0 = pfsel_now_ms();
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_answer, &r.id));
	/* Still waiting for the agent, whose answer decides. */
	EXPECT_EQ(0, waitpid(asker, NULL, WNOHANG));
	c.op = AGENT_ANSWER;
	c.id = r.id;
	c.verdict = PFSEL_ANSWER_DENY;
	EXPECT_EQ(0, agent_call(&self->agent, &c).err);
	EXPECT_EQ(DENIED, pfsel_wait_status(asker));
	EXPECT_GT(TIMEOUT_MS, pfsel_now_ms() - t0);
	EXPECT_STILL_DENIED();
}

/* The agent died: the user cannot take its place. */
TEST_F(trust, user_cannot_register_after_agent_died)
{
	long long elapsed;

	ASSERT_EQ(0, agent_start(&self->agent));
	agent_kill(&self->agent);
	EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	EXPECT_STILL_DENIED();
}

/*
 * The agent is its socket's portid (ask.c), and the portid is free again
 * before the agent is forgotten: netlink_release() unhashes the socket
 * first, then, some code later (genl_release() and its rwsem among it),
 * sends the NETLINK_URELEASE notice on which agent.c forgets the agent.
 * pfuser1 can kill its agent (it runs as pfuser1), make it SCHED_IDLE and
 * pin it to the CPU it runs on itself (both allowed for a process of the
 * same uid, dumpable or not), so that the dying agent only runs while the
 * attacker sleeps a microsecond between two tries to bind() a socket of
 * its own to the agent's portid.  Bound while the agent is still
 * registered, the socket is the agent: its ANSWER is taken.  The portid
 * is no secret: /proc/net/netlink lists every socket's, and libnl's is
 * the process id in its low 22 bits.
 */
#define PORTID_RACE_ROUNDS 40
#define PORTID_RACE_MS 5000 /* for one dying agent to free its portid */

struct portid_race {
	pid_t agent;
	uint64_t id; /* given, as in user_cannot_answer */
};

/* The generic netlink portid of libnl's socket in @pid, or 0. */
static uint32_t netlink_portid_of(pid_t pid)
{
	FILE *f = fopen("/proc/net/netlink", "re");
	uint32_t portid = 0, p;
	char line[256];
	int eth;

	if (!f)
		return 0;
	while (!portid && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %d %u", &eth, &p) == 2 &&
		    eth == NETLINK_GENERIC && (p & 0x3fffff) == (uint32_t)pid)
			portid = p;
	fclose(f);
	return portid;
}

/*
 * pfuser1's side: 0 when its ANSWER on the dead agent's portid was taken,
 * the errno it was refused with, 100 and up when it could not be tried.
 */
static int attack_answer_on_dead_agents_port(void *arg)
{
	const struct portid_race *race = arg;
	const uint8_t verdict = PFSEL_ANSWER_ALLOW, scope = PFSEL_SCOPE_ONCE;
	const struct raw_attr attrs[] = {
		{ PFSEL_ATTR_ID, sizeof(race->id), &race->id },
		{ PFSEL_ATTR_VERDICT, sizeof(verdict), &verdict },
		{ PFSEL_ATTR_SCOPE, sizeof(scope), &scope },
	};
	const struct sched_param idle = { 0 };
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	const struct timespec nap = { .tv_nsec = 1000 };
	long long deadline;
	struct raw_genl r;
	cpu_set_t cpu0;

	addr.nl_pid = netlink_portid_of(race->agent);
	if (!addr.nl_pid)
		return 100;
	if (raw_genl_open(&r))
		return 101;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) ||
	    sched_setaffinity(race->agent, sizeof(cpu0), &cpu0) ||
	    sched_setscheduler(race->agent, SCHED_IDLE, &idle) ||
	    prctl(PR_SET_TIMERSLACK, 1UL))
		return 102;
	if (kill(race->agent, SIGKILL))
		return 103;
	deadline = pfsel_now_ms() + PORTID_RACE_MS;
	while (bind(r.fd, (struct sockaddr *)&addr, sizeof(addr))) {
		if (errno != EADDRINUSE || pfsel_now_ms() > deadline)
			return 104;
		nanosleep(&nap, NULL); /* the agent runs a little */
	}
	return -raw_genl_request(r.fd, r.family, PFSEL_CMD_ANSWER, 0, attrs,
				 ARRAY_SIZE(attrs), NULL, NULL);
}

/*
 * Round after round, pfuser1 asks (the asked port), and races its dying
 * agent for its portid with the question's id: no ANSWER of its own is
 * ever taken, and the asker gets the unanswered verdict.  The control, in
 * each round: the attacker did bind the agent's portid (its ANSWER was
 * refused, not untried), so the only thing between it and the question is
 * that the agent was already forgotten.
 */
TEST_F(trust, user_cannot_answer_on_a_dead_agents_port)
{
	int round, taken = 0, refused = 0;

	for (round = 0; round < PORTID_RACE_ROUNDS && !taken; round++) {
		struct agent_cmd c = { .op = AGENT_QUESTION };
		struct portid_race race;
		struct agent_result r;
		pid_t asker;
		int ret;

		ASSERT_EQ(0, agent_start(&self->agent));
		asker = probe_start(PORT_ASKED);
		ASSERT_LT(0, asker);
		r = agent_call(&self->agent, &c);
		ASSERT_EQ(0, r.err);
		race.agent = self->agent.pid;
		race.id = r.id;
		ret = pfsel_run_as(PFSEL_UID1,
				   attack_answer_on_dead_agents_port, &race);
		ASSERT_GT(100, ret)
		{
			TH_LOG("round %d: the race could not be run (%d)",
			       round, ret);
		}
		agent_kill(&self->agent);
		if (!ret) {
			taken++;
			TH_LOG("round %d: the ANSWER on the dead agent's portid was taken",
			       round);
			EXPECT_EQ(DENIED, pfsel_wait_status(asker));
		} else {
			EXPECT_EQ(EPERM, ret);
			refused++;
			EXPECT_EQ(DENIED, pfsel_wait_status(asker));
		}
		EXPECT_EQ(0, PFSEL_ASK_STAT(agents));
	}
	TH_LOG("%d rounds: %d answers taken, %d refused on the bound portid",
	       round, taken, refused);
	EXPECT_EQ(0, taken);
	EXPECT_LT(0, refused);
	EXPECT_STILL_DENIED();
}

/*
 * The release notice of a netlink socket names only its port.  pfuser1
 * binds a socket to a port, then closes it slowly (SCHED_IDLE, on the CPU
 * root's loop keeps busy); root binds a socket to the port the moment it
 * is free and registers it as the agent of uid 1002, while pfuser1's
 * close() may not have sent its notice yet.  That notice must not forget
 * 1002's agent: only the agent whose own socket is being released goes.
 */
#define RELEASE_RACE_ROUNDS 40

struct release_race {
	uint32_t port;
	int ready[2]; /* the closer bound the port */
	int go[2]; /* root is ready to take it */
};

static int close_slowly_on_port(void *arg)
{
	const struct release_race *race = arg;
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK,
				    .nl_pid = race->port };
	const struct sched_param idle = { 0 };
	cpu_set_t cpu0;
	char c = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return 100;
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0) ||
	    sched_setscheduler(0, SCHED_IDLE, &idle))
		return 101;
	if (write(race->ready[1], &c, 1) != 1 || read(race->go[0], &c, 1) != 1)
		return 102;
	close(fd);
	return 0;
}

TEST_F(trust, a_users_closed_socket_does_not_forget_anothers_agent)
{
	const uint32_t uid = PFSEL_UID2;
	const struct raw_attr attr = { PFSEL_ATTR_UID, sizeof(uid), &uid };
	const struct timespec nap = { .tv_nsec = 1000 };
	int round, kept = 0, while_closing = 0;
	cpu_set_t all, cpu0;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(all), &all));
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	for (round = 0; round < RELEASE_RACE_ROUNDS; round++) {
		struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
		long long deadline;
		struct raw_genl r;
		bool closing;
		pid_t closer;
		int ret;

		struct release_race race = {
			.port = 0x7f000000u | (uint32_t)round,
		};
		char c = 1;

		addr.nl_pid = race.port;
		ASSERT_EQ(0, raw_genl_open(&r));
		ASSERT_EQ(0, pipe2(race.ready, O_CLOEXEC));
		ASSERT_EQ(0, pipe2(race.go, O_CLOEXEC));
		closer =
			pfsel_start_as(PFSEL_UID1, close_slowly_on_port, &race);
		ASSERT_LT(0, closer);
		ASSERT_EQ(1, read(race.ready[0], &c, 1));
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpu0), &cpu0));
		ASSERT_EQ(1, write(race.go[1], &c, 1));
		deadline = pfsel_now_ms() + 5000;
		while (bind(r.fd, (struct sockaddr *)&addr, sizeof(addr))) {
			ASSERT_EQ(EADDRINUSE, errno);
			ASSERT_GT(deadline, pfsel_now_ms())
			{
				TH_LOG("round %d: port %#x still bound after 5 s",
				       round, race.port);
			}
			nanosleep(&nap, NULL); /* the closer runs a little */
		}
		ret = raw_genl_request(r.fd, r.family, PFSEL_CMD_REGISTER, 0,
				       &attr, 1, NULL, NULL);
		closing = !pfsel_has_exited(closer);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
		ASSERT_EQ(0, ret)
		{
			TH_LOG("round %d: root's REGISTER failed", round);
		}
		if (closing)
			while_closing++;
		ASSERT_EQ(0, pfsel_wait_status(closer))
		{
			TH_LOG("round %d: the closer could not bind, or wait",
			       round);
		}
		/*
		 * The closer's notice, whenever it came, has come.  Root's
		 * socket is still 1002's agent if it can stop being one (a
		 * socket that is no agent gets ENOENT): a question about this
		 * socket alone, which no other test's agent can answer for.
		 */
		ret = raw_genl_request(r.fd, r.family, PFSEL_CMD_UNREGISTER, 0,
				       NULL, 0, NULL, NULL);
		if (!ret)
			kept++;
		else
			TH_LOG("round %d: 1002's agent was forgotten (%s)%s",
			       round, strerror(-ret),
			       closing ?
				       " (registered while the closer closed)" :
				       "");
		raw_genl_close(&r);
		close(race.ready[0]);
		close(race.ready[1]);
		close(race.go[0]);
		close(race.go[1]);
	}
	TH_LOG("%d rounds: 1002's agent kept in %d, registered while pfuser1's socket was closing in %d",
	       round, kept, while_closing);
	EXPECT_EQ(RELEASE_RACE_ROUNDS, kept);
	/* The control: the race was run, not lost before it began. */
	EXPECT_LT(0, while_closing);
}

/*
 * Ask about PORT_ASKED as pfuser1, and have the agent answer @verdict for
 * @scope: what the asker got, or -1 when no question reached the agent.
 */
static int ask_answered(struct agent *ag, uint8_t verdict, uint8_t scope)
{
	struct agent_cmd c = { .op = AGENT_QUESTION };
	const pid_t asker = probe_start(PORT_ASKED);
	struct agent_result r;

	if (asker < 0)
		return -1;
	r = agent_call(ag, &c);
	if (r.err) {
		kill(asker, SIGKILL);
		pfsel_wait_status(asker);
		return -1;
	}
	c.op = AGENT_ANSWER;
	c.id = r.id;
	c.verdict = verdict;
	c.scope = scope;
	if (agent_call(ag, &c).err) {
		kill(asker, SIGKILL);
		pfsel_wait_status(asker);
		return -1;
	}
	return pfsel_wait_status(asker);
}

/*
 * Unloading the policy, forgetting the agent's answers: refused.  The
 * answer forget would wipe is a deny the agent gave for the session: it
 * still decides after pfuser1's write, with no question.  The control:
 * root's write wipes it (what pfuser1's would have done), and the same
 * request is asked again, and the agent's new answer decides.
 */
TEST_F(trust, user_cannot_unload_or_forget)
{
	long long hits, others;

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_unload, NULL));
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	EXPECT_STILL_DENIED();

	/* The load forgot pfuser1's answers: those kept are other users'. */
	others = PFSEL_ASK_STAT(kept);
	ASSERT_EQ(0, agent_start(&self->agent));
	ASSERT_EQ(DENIED, ask_answered(&self->agent, PFSEL_ANSWER_DENY,
				       PFSEL_SCOPE_SESSION));
	EXPECT_EQ(others + 1, PFSEL_ASK_STAT(kept));
	hits = PFSEL_ASK_STAT(kept_hits);
	EXPECT_EQ(DENIED, probe(PORT_ASKED, NULL));
	EXPECT_EQ(hits + 1, PFSEL_ASK_STAT(kept_hits));

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_forget, NULL));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(others + 1, PFSEL_ASK_STAT(kept));
	EXPECT_EQ(DENIED, probe(PORT_ASKED, NULL));
	EXPECT_EQ(hits + 2, PFSEL_ASK_STAT(kept_hits));

	/* The control: root's forget wipes the deny; the agent is asked. */
	EXPECT_EQ(0, pfsel_forget_uid(PFSEL_UID1));
	EXPECT_EQ(others, PFSEL_ASK_STAT(kept));
	EXPECT_EQ(ALLOWED, ask_answered(&self->agent, PFSEL_ANSWER_ALLOW,
					PFSEL_SCOPE_ONCE));
	EXPECT_EQ(hits + 2, PFSEL_ASK_STAT(kept_hits));
	EXPECT_STILL_DENIED();
}

/* Loading a looser policy for itself: refused. */
TEST_F(trust, user_cannot_load_looser)
{
	EXPECT_EQ(EPERM,
		  pfsel_run_as(PFSEL_UID1, attack_load, "trust_loose_1001"));
	EXPECT_STILL_DENIED();
}

/*
 * The agent channel: the agent process, registered by root and now
 * pfuser1, loads 1001's policy; no other process of 1001 does, not even
 * a child of the agent.
 */
TEST_F(trust, only_the_agent_process_loads)
{
	struct agent_cmd c = { .op = AGENT_CHILD_LOAD,
			       .name = "trust_loose_1001" };

	ASSERT_EQ(0, agent_start(&self->agent));
	EXPECT_EQ(EPERM, agent_call(&self->agent, &c).err);
	EXPECT_EQ(EPERM,
		  pfsel_run_as(PFSEL_UID1, attack_load, "trust_loose_1001"));
	EXPECT_STILL_DENIED();
	c.op = AGENT_LOAD;
	EXPECT_EQ(0, agent_call(&self->agent, &c).err);
	EXPECT_EQ(ALLOWED, probe(PORT_DENIED, NULL));
	snprintf(c.name, sizeof(c.name), "trust_1001");
	EXPECT_EQ(0, agent_call(&self->agent, &c).err);
	EXPECT_STILL_DENIED();
}

/*
 * Start pfsel-agent --user=1001 --auto=deny as root: true once it runs as
 * 1001.
 */
static bool real_agent_start(struct pfsel_agent_process *agent)
{
	const char *const options[] = { "--auto=deny", NULL };

	return pfsel_start_agent(agent, PFSEL_UID1, options, NULL, NULL, false,
				 START_MS);
}

/*
 * The agent's memory: pfuser1's programs can neither ptrace pfsel-agent
 * --user 1001, nor open its /proc/PID/mem for writing, nor take its
 * descriptors with pidfd_getfd(), nor write into it with
 * process_vm_writev(); an ordinary process of pfuser1 they can (the
 * control: what makes the refusals mean something).  The agent still
 * answers afterwards.
 */
TEST_F(trust, agent_memory_is_protected)
{
	char *sleeper[] = { "/bin/sleep", "60", NULL };
	struct attack_vm vm;
	long long elapsed, before;
	pid_t agent, control;

	ASSERT_EQ(0, access(PFSEL_AGENT, X_OK));
	ASSERT_TRUE(real_agent_start(&self->real_agent));
	agent = self->real_agent.pid;
	/* The control: a program of pfuser1, as any other. */
	control = pfsel_start_as(PFSEL_UID1, pfsel_exec_fn, sleeper);
	ASSERT_LE(0, control);
	self->control = control;
	usleep(200 * 1000); /* exec'd */

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_ptrace,
				      (void *)(intptr_t)agent));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_ptrace,
				  (void *)(intptr_t)control));
	EXPECT_STILL_DENIED();

	EXPECT_EQ(EACCES, pfsel_run_as(PFSEL_UID1, attack_mem,
				       (void *)(intptr_t)agent));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_mem,
				  (void *)(intptr_t)control));
	EXPECT_STILL_DENIED();

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_getfd,
				      (void *)(intptr_t)agent));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_getfd,
				  (void *)(intptr_t)control));
	EXPECT_STILL_DENIED();

	vm.pid = control;
	vm.addr = stack_of(control);
	ASSERT_NE(0UL, vm.addr);
	/*
	 * The control: it works against an ordinary process (ENOSYS would
	 * mean a test kernel without CONFIG_CROSS_MEMORY_ATTACH, which
	 * Debian's has and kernel/config/base.config asks for).
	 */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, attack_vm_writev, &vm));
	vm.pid = agent;
	vm.addr = stack_of(agent);
	ASSERT_NE(0UL, vm.addr);
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_vm_writev, &vm));
	EXPECT_STILL_DENIED();

	/* The agent is alive, registered, and answers (deny, at once). */
	EXPECT_EQ(0, waitpid(agent, NULL, WNOHANG));
	EXPECT_EQ(1, PFSEL_ASK_STAT(agents));
	before = PFSEL_ASK_STAT(answered);
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_EQ(before + 1, PFSEL_ASK_STAT(answered));
	EXPECT_GT(TIMEOUT_MS, elapsed);
}

TEST_HARNESS_MAIN
