// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - answers and their scopes (docs/kernel-interface.md,
 * "Ask"): an answer "once" is asked every time, "process" once per
 * process, "session" and "always" once per application until the agent
 * unregisters, its socket closes, it is replaced or a policy is loaded;
 * a kept answer is one user's; it is kept before the asker wakes.  The
 * harness -- the agent child, the askers -- is ask_harness.h.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <sys/mman.h>

#include "pfsel_test_util.h"
#include "ask_harness.h"

#include "kselftest_harness.h"

/* When >= 0, the CPU that connects_in_one_process() runs on. */
static int pin_cpu = -1;

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
	ask_end(&self->agent, 1);
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
	ASSERT_TRUE(ask_stats_read(&before));
	/* The process asks once for 3 connects; netprobe asks again. */
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_B, 3));
	/* A new process asks again. */
	EXPECT_EQ(2, ask_round(_metadata, variant, &self->agent, PORT_B, 3));
	ASSERT_TRUE(ask_stats_read(&after));
	EXPECT_EQ(4, after.kept_hits - before.kept_hits);
	EXPECT_EQ(4, after.kept - before.kept);
	/* A policy load forgets them. */
	ASSERT_EQ(0, pfsel_load(variant->policy));
	ASSERT_TRUE(ask_stats_read(&after));
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
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(2, s.kept);

	/* Unregistered: forgotten; with no agent, the unanswered verdict. */
	EXPECT_EQ(0, agent_simple(ag, AGENT_UNREGISTER));
	ASSERT_TRUE(ask_stats_read(&s));
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
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(0, s.kept);
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));

	/* The agent's socket closing forgets it; a new agent is asked. */
	agent_kill(ag);
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(0, s.agents);
	EXPECT_EQ(0, s.kept);
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	ASSERT_EQ(0, agent_auto(ag, variant->answer, scope));
	EXPECT_EQ(2, ask_round(_metadata, variant, ag, PORT_C, 2));
	EXPECT_EQ(0, ask_round(_metadata, variant, ag, PORT_C, 1));
	TH_LOG("scope %s: kept until unregister, load, close",
	       pfsel_scope_name(scope));
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
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(2, s.kept);
	ASSERT_EQ(0, agent_start(&newer, PFSEL_UID1, true));
	ASSERT_EQ(0, agent_auto(&newer, variant->answer, PFSEL_SCOPE_ONCE));
	agent_kill(&self->agent);
	ASSERT_TRUE(ask_stats_read(&s));
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
		ask_stats_read(&s);
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
