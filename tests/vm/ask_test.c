// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - asking the user's agent (docs/kernel-interface.md,
 * "Ask" and "The agent interface"): no agent, what a question says,
 * timeouts, an agent that dies, another user's agent, unknown ids, merged
 * questions, a flood, a killed asker, and the audit records of asked
 * decisions.  The harness -- the agent child, the askers -- is
 * ask_harness.h; answers in every scope are ask_scope_test.c, bad netlink
 * input ask_bad_input_test.c.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"
#include "ask_fixture.h"

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

static int threads_main(void *arg)
{
	struct threads *t = arg;
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
	pid = pfsel_start_as(uid, threads_main, t);
	t->pid = pid;
	return t;
}

/* ---- the tests (the fixture: ask_fixture.h) ----------------------------- */

/* 1. No agent: the unanswered verdict at once, not after the timeout. */
TEST_F(ask, no_agent_gives_the_unanswered_verdict_at_once)
{
	struct ask_stats before, after;
	long long elapsed;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_TRUE(ask_stats_read(&before));
	EXPECT_EQ(DENIED, probe(PFSEL_UID1, "127.0.0.1", PORT_A, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	ASSERT_TRUE(ask_stats_read(&after));
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
		/*
		 * Every attribute uapi/linux/pfsel.h lists, but the script
		 * and the security context (question_carries_the_context).
		 */
		EXPECT_EQ(PFSEL_Q_HAS(PFSEL_ATTR_ID) |
				  PFSEL_Q_HAS(PFSEL_ATTR_PID) |
				  PFSEL_Q_HAS(PFSEL_ATTR_TGID) |
				  PFSEL_Q_HAS(PFSEL_ATTR_UID) |
				  PFSEL_Q_HAS(PFSEL_ATTR_EXE) |
				  PFSEL_Q_HAS(PFSEL_ATTR_COMM) |
				  PFSEL_Q_HAS(PFSEL_ATTR_OP) |
				  PFSEL_Q_HAS(PFSEL_ATTR_FAMILY) |
				  PFSEL_Q_HAS(PFSEL_ATTR_PROTO) |
				  PFSEL_Q_HAS(PFSEL_ATTR_LADDR) |
				  PFSEL_Q_HAS(PFSEL_ATTR_LPORT) |
				  PFSEL_Q_HAS(PFSEL_ATTR_RADDR) |
				  PFSEL_Q_HAS(PFSEL_ATTR_RPORT) |
				  PFSEL_Q_HAS(PFSEL_ATTR_POLICY) |
				  PFSEL_Q_HAS(PFSEL_ATTR_RULE_FILE) |
				  PFSEL_Q_HAS(PFSEL_ATTR_RULE_LINE) |
				  PFSEL_Q_HAS(PFSEL_ATTR_RULE_COL) |
				  PFSEL_Q_HAS(PFSEL_ATTR_TIMEOUT_MS) |
				  PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED),
			  r.q.present & ~PFSEL_Q_HAS(PFSEL_ATTR_SECCTX));
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
		/* ask_1001 says "ask unanswered deny;". */
		EXPECT_EQ(PFSEL_ANSWER_DENY, r.q.unanswered);
		EXPECT_EQ(0, agent_answer(&self->agent[0], r.q.id,
					  PFSEL_ANSWER_ALLOW,
					  PFSEL_SCOPE_ONCE));
		EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	}
}

/*
 * The question says what no answer gets, so that the agent can tell the
 * person: ask_allow_1001 is ask_1001 with "ask unanswered allow;".
 */
TEST_F(ask, question_says_what_no_answer_gets)
{
	struct agent_report r;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_allow_1001"));
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_ATTRS);
	ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
	EXPECT_NE(0U, r.q.present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED));
	EXPECT_EQ(PFSEL_ANSWER_ALLOW, r.q.unanswered);
	EXPECT_EQ(0, agent_answer(&self->agent[0], r.q.id, PFSEL_ANSWER_DENY,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(DENIED, asker_wait(&as, NULL));
}

/*
 * The security context of process @pid as /proc/PID/attr/current shows
 * it, without SELinux's trailing NUL or AppArmor's newline: false when
 * there is none (no major LSM).
 */
static bool proc_context(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/attr/current", (int)pid);
	n = pfsel_read_file(path, buf, size);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		buf[--n] = '\0';
	return n > 0;
}

/*
 * AppArmor's /proc view of a confined task adds its mode: "PROFILE
 * (enforce)"; the question carries the label alone.
 */
static bool same_context(const char *proc, const char *secctx)
{
	const size_t len = strlen(secctx);

	if (!strcmp(proc, secctx))
		return true;
	return len && !strncmp(proc, secctx, len) &&
	       !strncmp(proc + len, " (", 2) && proc[strlen(proc) - 1] == ')';
}

/*
 * 3. Under SELinux or AppArmor a question carries the asker's security
 * context, the one /proc/PID/attr/current of the asker reads ("kernel"
 * under SELinux without a policy, "unconfined" under AppArmor), and the
 * agent's line shows it; with neither, it carries none.
 */
TEST_F(ask, question_carries_the_context)
{
	char context[512], text[2048], shown[600];
	struct agent_report r;
	struct asker as;
	bool has;

	ASSERT_EQ(0, pfsel_load("ask_1001"));
	ASSERT_EQ(0, agent_start(&self->agent[0], PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_ATTRS);
	ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
	ASSERT_EQ(as.pid, (pid_t)r.q.tgid);
	/* The asker waits for the answer: its context is still there. */
	has = proc_context(as.pid, context, sizeof(context));
	TH_LOG("asker %d: /proc context \"%s\", question's \"%s\"", as.pid,
	       has ? context : "(none)", r.q.secctx);
	if (has) {
		EXPECT_NE(0U, r.q.present & PFSEL_Q_HAS(PFSEL_ATTR_SECCTX));
		EXPECT_TRUE(same_context(context, r.q.secctx));
	} else {
		EXPECT_EQ(0U, r.q.present & PFSEL_Q_HAS(PFSEL_ATTR_SECCTX));
		EXPECT_STREQ("", r.q.secctx);
	}
	/* The line the agent prompts and logs. */
	EXPECT_LT(0, pfsel_question_format(&r.q, text, sizeof(text)));
	snprintf(shown, sizeof(shown), "(netprobe, pid %d, context %s) ",
		 as.pid, r.q.secctx);
	if (has && !strpbrk(r.q.secctx, " ,\"\\")) {
		EXPECT_NE(NULL, strstr(text, shown))
		{
			TH_LOG("agent's line: %s", text);
		}
	}
	if (!has) {
		EXPECT_EQ(NULL, strstr(text, ", context "));
	}
	EXPECT_EQ(0, agent_answer(&self->agent[0], r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
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
	ASSERT_TRUE(ask_stats_read(&before));
	t = threads_start(PFSEL_UID1, 100, port_c);
	ASSERT_NE(NULL, t);
	ASSERT_TRUE(agent_question(&self->agent[0], &r, QUESTION_MS));
	/* Wait until the other 99 have joined it, within the timeout. */
	for (i = 0; i < 80; i++) {
		ASSERT_TRUE(ask_stats_read(&now));
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
	ASSERT_TRUE(ask_stats_read(&after));
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
		ASSERT_TRUE(ask_stats_read(&before));
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
		ASSERT_TRUE(ask_stats_read(&after));
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
	ASSERT_TRUE(ask_stats_read(&s));
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
	ASSERT_TRUE(ask_stats_read(&s));
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
	ASSERT_TRUE(ask_stats_read(&before));
	EXPECT_EQ(DENIED, probe(PFSEL_UID1, "127.0.0.1", PORT_E, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
	ASSERT_TRUE(ask_stats_read(&after));
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
 * 9. A flood of different questions: at most PFSEL_ASK_MAX_PENDING (64)
 * wait for the agent; the rest get the unanswered verdict at once and are
 * counted as overflow.
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
	ASSERT_TRUE(ask_stats_read(&before));
	t = threads_start(PFSEL_UID1, N_FLOOD, port_flood);
	ASSERT_NE(NULL, t);
	while (waitpid(t->pid, NULL, WNOHANG) == 0) {
		ASSERT_TRUE(ask_stats_read(&now));
		if (now.pending > max_pending)
			max_pending = now.pending;
		usleep(20 * 1000);
	}
	questions = agent_drain(&self->agent[0], QUIET_MS);
	ASSERT_TRUE(ask_stats_read(&after));
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
	EXPECT_GE(PFSEL_ASK_MAX_PENDING, max_pending);
	EXPECT_EQ(PFSEL_ASK_MAX_PENDING, questions);
	EXPECT_EQ(PFSEL_ASK_MAX_PENDING, after.questions - before.questions);
	EXPECT_EQ(PFSEL_ASK_MAX_PENDING, slow);
	EXPECT_EQ(N_FLOOD - PFSEL_ASK_MAX_PENDING, fast);
	EXPECT_EQ(N_FLOOD - PFSEL_ASK_MAX_PENDING,
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
	ASSERT_TRUE(ask_stats_read(&before));
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
	ASSERT_TRUE(ask_stats_read(&after));
	EXPECT_EQ(1, after.interrupted - before.interrupted);
	EXPECT_EQ(0, after.pending);
	/* Nobody waits for it: an answer finds no question. */
	EXPECT_EQ(ENOENT, agent_answer(&self->agent[0], r.q.id,
				       PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ONCE));
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

TEST_HARNESS_MAIN
