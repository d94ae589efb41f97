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
 *   - replace the real agent, which root registered: EPERM, and the real
 *     agent is still the one asked;
 *   - answer, from its own socket, a question the real agent holds (its
 *     id given to it): EPERM, and the real agent's answer decides;
 *   - register after the agent died: EPERM, and the question gets the
 *     unanswered verdict at once;
 *   - unload 1001's policy, forget its kept answers: EPERM;
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
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "pfsel_test_util.h"
#include "process_attacks.h"

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

/* Agents registered now, from ask_stats, or -1. */
static long long agents(void)
{
	struct ask_stats s;

	return ask_stats_read(&s) ? s.agents : -1;
}

/* Questions answered since boot, from ask_stats, or -1. */
static long long answered(void)
{
	struct ask_stats s;

	return ask_stats_read(&s) ? s.answered : -1;
}

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
						    PFSEL_SCOPE_ONCE);
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
	EXPECT_EQ(0, agents());
	/* No agent: the asked connect gets the unanswered verdict at once. */
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
}

/* Replacing the agent root registered: refused; it is still asked. */
TEST_F(trust, user_cannot_replace_agent)
{
	struct agent_cmd c = { .op = AGENT_QUESTION };
	struct agent_result r;
	pid_t asker;

	ASSERT_EQ(0, agent_start(&self->agent));
	EXPECT_EQ(1, agents());
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(1, agents());

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
	EXPECT_EQ(0, agents());
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_register,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_EQ(0, agents());
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	EXPECT_STILL_DENIED();
}

/* Unloading the policy, forgetting the agent's answers: refused. */
TEST_F(trust, user_cannot_unload_or_forget)
{
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_unload, NULL));
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	EXPECT_STILL_DENIED();
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, attack_forget, NULL));
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
	EXPECT_EQ(1, agents());
	before = answered();
	EXPECT_EQ(DENIED, probe(PORT_ASKED, &elapsed));
	EXPECT_EQ(before + 1, answered());
	EXPECT_GT(TIMEOUT_MS, elapsed);
}

TEST_HARNESS_MAIN
