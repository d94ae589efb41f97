// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - what an answer covers (issue 13, "Answers bind to what
 * the person saw"; docs/kernel-interface.md, "Ask").
 *
 * Two applications, copies of netprobe at two paths ("legit" and "evil"),
 * and two addresses, under pfuser1's policies/scope_1001.pfw: `default
 * ask;` and no rule naming an application, an address or a port, so that
 * every connect of every application falls in one class of each.  The
 * kernel must still keep an answer, and merge a question in flight, only
 * for the same application, operation, protocol and exact endpoint:
 *
 *   - an `allow session` answer for legit -> 127.0.0.1:7501 does not let
 *     evil -> 127.0.0.99:7502 through without a question, nor legit to
 *     another port or address, nor evil to the same endpoint;
 *   - evil connecting while legit's question is pending gets a question
 *     of its own (it is not merged into legit's);
 *   - pfuser2 answering 1,100 session questions does not evict pfuser1's
 *     kept answer; pfuser1's own 257th answer (the control) evicts
 *     pfuser1's oldest, and that one only;
 *   - pfuser1 cannot read ask_stats (which shows when a question is
 *     pending).
 *
 * The agent is the test process itself (root), a libpfsel agent
 * registered for the uid with pfsel_agent_register_for()
 * (PFSEL_ATTR_UID).  A kernel from before root-only registration refuses
 * that attribute (EINVAL); the test then registers the old way, raw (no
 * libpfsel call sends it), with its real uid set to the user's around
 * each call, so that the attacks are shown on that kernel too.
 *
 * Nobody listens on the asked ports: an allowed connect fails with
 * ECONNREFUSED, a denied one with EACCES.  Needs root: as anyone else
 * every test is skipped.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"
#include "raw_genl.h"

#include "kselftest_harness.h"

#define SCOPE_DIR "/tmp/pfsel-scope"
#define LEGIT SCOPE_DIR "/legit"
#define EVIL SCOPE_DIR "/evil"

#define ALLOWED ECONNREFUSED
#define DENIED EACCES

/* How long a question is given to reach the agent. */
#define QUESTION_MS 3000
/* How long to watch for a question that must not come. */
#define QUIET_MS 500

/* The flood: pfuser2 asks about 127.0.0.1:8000-9099, one class each. */
#define FLOOD_PORT 8000
#define N_FLOOD 1100
#define FLOOD_THREADS 16
/* pfuser1's own answers: one, then these 255 (ports 7600-7854), then one. */
#define OWN_PORT 7600
#define N_OWN (PFSEL_ASK_MAX_ANSWERS_PER_UID - 1)

/* ---- the agent: this process, registered for a uid ---------------------- */

struct agent {
	struct pfsel_agent *a;
	uid_t uid;
	bool old_abi; /* registered as the uid itself: a kernel before 13 */
};

/*
 * Under the old interface the kernel takes the agent's uid from the
 * sender's real uid: be the user for the call, and root again after.
 */
static void agent_enter(const struct agent *ag)
{
	if (ag->old_abi && setresuid(ag->uid, 0, 0))
		_exit(121);
}

static void agent_leave(const struct agent *ag)
{
	if (ag->old_abi && setresuid(0, 0, 0))
		_exit(121);
}

/* Open a socket and register it for @uid: 0 or a positive errno. */
static int agent_start(struct agent *ag, uid_t uid)
{
	int ret, family;

	memset(ag, 0, sizeof(*ag));
	ag->uid = uid;
	ret = pfsel_agent_open(&ag->a);
	if (ret)
		return -ret;
	ret = pfsel_agent_register_for(ag->a, uid);
	if (ret == -EINVAL) {
		/* A kernel that knows no PFSEL_ATTR_UID in REGISTER. */
		ag->old_abi = true;
		family = raw_genl_family();
		if (family < 0)
			return -family;
		agent_enter(ag);
		ret = raw_genl_request(pfsel_agent_fd(ag->a), family,
				       PFSEL_CMD_REGISTER, 0, NULL, 0, NULL,
				       NULL);
		agent_leave(ag);
		if (!ret)
			fprintf(stderr,
				"# agent for %u registered the old way (the kernel refuses PFSEL_ATTR_UID)\n",
				uid);
	}
	return -ret;
}

static void agent_stop(struct agent *ag)
{
	pfsel_agent_close(ag->a);
	ag->a = NULL;
}

static int agent_answer(struct agent *ag, uint64_t id, uint8_t verdict,
			uint8_t scope)
{
	int ret;

	agent_enter(ag);
	ret = pfsel_agent_answer(ag->a, id, verdict, scope);
	agent_leave(ag);
	return -ret;
}

/* The next question, within @ms: true when one came. */
static bool agent_question(struct agent *ag, struct pfsel_question *q, int ms)
{
	return pfsel_agent_receive(ag->a, q, ms) == 1;
}

/* ---- the asking side ---------------------------------------------------- */

struct asker {
	pid_t pid;
	long long start_ms;
};

/* Run @exe (a netprobe) as @uid: connect to @addr:@port, in the background. */
static struct asker ask_start(uid_t uid, const char *exe, const char *addr,
			      unsigned short port)
{
	struct asker as = { .start_ms = pfsel_now_ms() };

	as.pid = pfsel_netprobe_start(uid, exe, "connect", addr, port);
	return as;
}

static int ask_wait(const struct asker *as, long long *elapsed_ms)
{
	const int status = pfsel_wait_status(as->pid);

	if (elapsed_ms)
		*elapsed_ms = pfsel_now_ms() - as->start_ms;
	return status;
}

/*
 * Wait for the question of @exe -> @addr:@port while its asker runs: true
 * when it came.  A question that is not it fails the test's expectations
 * in the caller, through @other.
 */
static bool question_for(struct agent *ag, const struct asker *as,
			 const char *exe, unsigned short port,
			 struct pfsel_question *q, int *other)
{
	const long long deadline = pfsel_now_ms() + QUESTION_MS;

	while (pfsel_now_ms() < deadline) {
		if (agent_question(ag, q, 100)) {
			if (strcmp(q->exe, exe) == 0 && q->rport == port)
				return true;
			(*other)++;
			continue;
		}
		/* Finished without a question: a kept answer decided. */
		if (as && pfsel_has_exited(as->pid))
			return agent_question(ag, q, 0) &&
			       strcmp(q->exe, exe) == 0 && q->rport == port;
	}
	return false;
}

/*
 * One request that must be asked: @exe -> @addr:@port as pfuser1.  The
 * agent denies it once.  True when it was asked (and then denied); when
 * it was not, @result holds what the request got without a question.
 */
static bool must_be_asked(struct __test_metadata *_metadata, struct agent *ag,
			  const char *exe, const char *addr,
			  unsigned short port, int *result)
{
	struct pfsel_question q;
	struct asker as = ask_start(PFSEL_UID1, exe, addr, port);
	int other = 0;
	bool asked = question_for(ag, &as, exe, port, &q, &other);

	EXPECT_EQ(0, other);
	if (asked)
		EXPECT_EQ(0, agent_answer(ag, q.id, PFSEL_ANSWER_DENY,
					  PFSEL_SCOPE_ONCE));
	*result = ask_wait(&as, NULL);
	return asked;
}

/*
 * legit -> 127.0.0.1:@port as pfuser1, asked, and allowed for the session
 * by @ag: true once it was asked and allowed.
 */
static bool allowed_for_session(struct agent *ag, unsigned short port,
				int *other)
{
	struct pfsel_question q;
	struct asker as = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", port);
	bool asked = question_for(ag, &as, LEGIT, port, &q, other);

	if (asked)
		asked = agent_answer(ag, q.id, PFSEL_ANSWER_ALLOW,
				     PFSEL_SCOPE_SESSION) == 0;
	return ask_wait(&as, NULL) == ALLOWED && asked;
}

/*
 * legit -> 127.0.0.1:@port as pfuser1, again: true when a kept answer
 * allowed it, with no question (one that comes is denied once).
 */
static bool kept_allows(struct agent *ag, unsigned short port, int *other)
{
	struct pfsel_question q;
	struct asker as = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", port);
	const bool asked = question_for(ag, &as, LEGIT, port, &q, other);

	if (asked)
		agent_answer(ag, q.id, PFSEL_ANSWER_DENY, PFSEL_SCOPE_ONCE);
	return ask_wait(&as, NULL) == ALLOWED && !asked;
}

static const char *err_name(int err)
{
	return err == ALLOWED ? "allowed (ECONNREFUSED)" :
	       err == DENIED  ? "denied (EACCES)" :
				strerror(err);
}

/* ---- the fixture --------------------------------------------------------- */

FIXTURE(scope)
{
	struct agent agent[2];
};

FIXTURE_SETUP(scope)
{
	memset(self, 0, sizeof(*self));
	if (geteuid() != 0)
		SKIP(return, "loading 1001's and 1002's policies needs root");
	pfsel_reset();
	pfsel_forget_uid(PFSEL_UID1);
	pfsel_forget_uid(PFSEL_UID2);
	ASSERT_EQ(0, system("mkdir -p " SCOPE_DIR " && cp " PFSEL_NETPROBE " " LEGIT
			    " && cp " PFSEL_NETPROBE " " EVIL " && chmod 755 " LEGIT
			    " " EVIL));
	ASSERT_EQ(0, pfsel_load("scope_1001"));
}

FIXTURE_TEARDOWN(scope)
{
	agent_stop(&self->agent[0]);
	agent_stop(&self->agent[1]);
	if (geteuid() == 0) {
		pfsel_forget_uid(PFSEL_UID1);
		pfsel_forget_uid(PFSEL_UID2);
		pfsel_reset();
	}
}

/*
 * The person allowed legit -> 127.0.0.1:7501 for the session: that, and
 * nothing else, goes through without a question.
 */
TEST_F_TIMEOUT(scope, session_answer_covers_what_was_asked_only, 120)
{
	static const struct {
		const char *exe, *addr;
		unsigned short port;
		const char *what;
	} others[] = {
		{ EVIL, "127.0.0.99", 7502, "evil -> 127.0.0.99:7502" },
		{ EVIL, "127.0.0.1", 7501, "evil -> the same 127.0.0.1:7501" },
		{ LEGIT, "127.0.0.1", 7502, "legit -> another port" },
		{ LEGIT, "127.0.0.99", 7501, "legit -> another address" },
	};
	struct agent *ag = &self->agent[0];
	struct pfsel_question q;
	struct asker as;
	long long elapsed;
	unsigned int i;
	int other = 0, result;

	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1));
	as = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", 7501);
	ASSERT_TRUE(question_for(ag, &as, LEGIT, 7501, &q, &other));
	EXPECT_EQ(0, agent_answer(ag, q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_SESSION));
	EXPECT_EQ(ALLOWED, ask_wait(&as, NULL));

	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		const bool asked = must_be_asked(_metadata, ag, others[i].exe,
						 others[i].addr,
						 others[i].port, &result);

		EXPECT_TRUE(asked)
		{
			TH_LOG("%s was not asked about: %s on legit's kept answer",
			       others[i].what, err_name(result));
		}
		if (asked)
			EXPECT_EQ(DENIED, result);
	}

	/* The kept answer itself still holds: no question, allowed. */
	as = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", 7501);
	EXPECT_EQ(ALLOWED, ask_wait(&as, &elapsed));
	EXPECT_FALSE(agent_question(ag, &q, QUIET_MS))
	{
		TH_LOG("asked again about %s -> port %u", q.exe, q.rport);
	}
	EXPECT_EQ(0, other);
}

/*
 * While legit's question waits for the person, evil's request (to the
 * same endpoint, or to another) and legit's to another port each get a
 * question of their own; answering legit's releases legit alone.  A
 * second legit request to the same endpoint still joins legit's.
 */
TEST_F_TIMEOUT(scope, pending_question_takes_in_no_other_request, 120)
{
	static const struct {
		const char *exe, *addr;
		unsigned short port;
		const char *what;
	} others[] = {
		{ EVIL, "127.0.0.1", 7511, "evil -> legit's 127.0.0.1:7511" },
		{ EVIL, "127.0.0.99", 7512, "evil -> 127.0.0.99:7512" },
		{ LEGIT, "127.0.0.1", 7512, "legit -> another port" },
	};
	enum { N = sizeof(others) / sizeof(others[0]) };
	struct agent *ag = &self->agent[0];
	struct pfsel_question q, theirs;
	struct asker legit, twin, as[N];
	unsigned int i;
	int other = 0, result;
	bool asked[N];

	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1));
	legit = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", 7511);
	ASSERT_TRUE(question_for(ag, &legit, LEGIT, 7511, &q, &other));

	/* Each of the others, while legit's question is pending. */
	for (i = 0; i < N; i++) {
		as[i] = ask_start(PFSEL_UID1, others[i].exe, others[i].addr,
				  others[i].port);
		asked[i] = question_for(ag, &as[i], others[i].exe,
					others[i].port, &theirs, &other);
		if (asked[i])
			EXPECT_EQ(0, agent_answer(ag, theirs.id,
						  PFSEL_ANSWER_DENY,
						  PFSEL_SCOPE_ONCE));
	}
	/* The same request from another process of legit: merged. */
	twin = ask_start(PFSEL_UID1, LEGIT, "127.0.0.1", 7511);
	usleep(QUIET_MS * 1000);

	EXPECT_EQ(0, agent_answer(ag, q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, ask_wait(&legit, NULL));
	for (i = 0; i < N; i++) {
		result = ask_wait(&as[i], NULL);
		EXPECT_TRUE(asked[i])
		{
			TH_LOG("%s was merged into legit's question: %s on the answer legit got",
			       others[i].what, err_name(result));
		}
		EXPECT_EQ(DENIED, result)
		{
			TH_LOG("%s", others[i].what);
		}
	}
	/* The twin was merged (or asked again; then it is denied here). */
	if (agent_question(ag, &theirs, 0))
		agent_answer(ag, theirs.id, PFSEL_ANSWER_DENY,
			     PFSEL_SCOPE_ONCE);
	result = ask_wait(&twin, NULL);
	TH_LOG("a second legit request to the same endpoint: %s",
	       err_name(result));
	EXPECT_EQ(0, other);
}

/* ---- one user's answers and another's ----------------------------------- */

/* A flood of connects to 127.0.0.1, ports @first to @first + @count - 1. */
struct flood {
	int first, count;
	int next; /* the next port index to take (atomic) */
	int allowed, denied, other;
};

static void *flood_thread(void *arg)
{
	struct flood *f = arg;
	int i, err;

	while ((i = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED)) <
	       f->count) {
		const struct pfsel_probe p = {
			.op = PFSEL_PROBE_CONNECT,
			.family = AF_INET,
			.type = SOCK_STREAM,
			.addr = "127.0.0.1",
			.port = (unsigned short)(f->first + i),
		};

		err = pfsel_probe_run(&p);
		__atomic_fetch_add(err == ALLOWED ? &f->allowed :
				   err == DENIED  ? &f->denied :
						    &f->other,
				   1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* The flooding process: FLOOD_THREADS threads; exits 0. */
static int flood_main(void *arg)
{
	struct flood *f = arg;
	pthread_t tids[FLOOD_THREADS];
	int i;

	for (i = 0; i < FLOOD_THREADS; i++)
		if (pthread_create(&tids[i], NULL, flood_thread, f))
			return 2;
	for (i = 0; i < FLOOD_THREADS; i++)
		pthread_join(tids[i], NULL);
	return 0;
}

/*
 * @uid connects to 127.0.0.1 ports @first to @first + @count - 1 from
 * FLOOD_THREADS threads of one process (this test program), and @ag
 * allows every question of @uid for the session.  How many it answered,
 * or -1 when the flood could not run; @f holds what the connects got, and
 * @other counts the questions of another uid.
 */
static int answer_flood(struct agent *ag, uid_t uid, int first, int count,
			struct flood *f, int *other)
{
	struct pfsel_question q;
	int answered = 0, status = 0;
	pid_t pid;

	memset(f, 0, sizeof(*f));
	f->first = first;
	f->count = count;
	pid = pfsel_start_as(uid, flood_main, f);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (!agent_question(ag, &q, 200))
			continue;
		if (q.uid != uid) {
			(*other)++;
			continue;
		}
		if (agent_answer(ag, q.id, PFSEL_ANSWER_ALLOW,
				 PFSEL_SCOPE_SESSION) == 0)
			answered++;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? answered : -1;
}

/* A flood's state, shared with the flooding process. */
static struct flood *flood_new(void)
{
	struct flood *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return f == MAP_FAILED ? NULL : f;
}

/*
 * pfuser1 allowed legit -> 127.0.0.1:7521 for the session; then pfuser2
 * has 1,100 different questions answered for the session.  pfuser1's
 * answer is still there: no question.
 */
TEST_F_TIMEOUT(scope, another_users_answers_do_not_evict_ours, 300)
{
	struct agent *ag1 = &self->agent[0], *ag2 = &self->agent[1];
	struct flood *f;
	long long t0;
	int other = 0, answered;

	ASSERT_EQ(0, pfsel_load("scope_flood_1002"));
	ASSERT_EQ(0, agent_start(ag1, PFSEL_UID1));
	ASSERT_EQ(0, agent_start(ag2, PFSEL_UID2));
	ASSERT_TRUE(allowed_for_session(ag1, 7521, &other));

	/* pfuser2's flood, each question allowed for the session. */
	f = flood_new();
	ASSERT_NE(NULL, f);
	t0 = pfsel_now_ms();
	answered = answer_flood(ag2, PFSEL_UID2, FLOOD_PORT, N_FLOOD, f,
				&other);
	TH_LOG("pfuser2: %d session answers in %lld ms (%d allowed, %d denied, %d other)",
	       answered, pfsel_now_ms() - t0, f->allowed, f->denied,
	       f->other);
	EXPECT_EQ(N_FLOOD, f->allowed);
	EXPECT_LE(N_FLOOD, answered);
	munmap(f, sizeof(*f));

	/* pfuser1's kept answer: no question, allowed. */
	EXPECT_TRUE(kept_allows(ag1, 7521, &other))
	{
		TH_LOG("pfuser1's kept answer is gone: asked again after pfuser2's flood");
	}
	EXPECT_EQ(0, other);
}

/*
 * The control of the test above: what a flood of a user's own does.
 * pfuser1 allows legit -> 127.0.0.1:7531 for the session (its oldest
 * answer), then 255 more ports, all kept: 256, the bound, and the oldest
 * still decides with no question.  The 257th answer (legit -> 7532) makes
 * room: the oldest is asked about again, and the 255 and the newest are
 * still kept (a second round of the same connects gets no question).
 */
TEST_F_TIMEOUT(scope, own_answers_past_the_bound_evict_own_oldest, 300)
{
	struct agent *ag = &self->agent[0];
	struct flood *f;
	long long before;
	int other = 0, result;

	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1));
	before = PFSEL_ASK_STAT(kept);
	ASSERT_TRUE(allowed_for_session(ag, 7531, &other));

	f = flood_new();
	ASSERT_NE(NULL, f);
	EXPECT_EQ(N_OWN, answer_flood(ag, PFSEL_UID1, OWN_PORT, N_OWN, f,
				      &other));
	EXPECT_EQ(N_OWN, f->allowed);
	EXPECT_EQ(before + PFSEL_ASK_MAX_ANSWERS_PER_UID, PFSEL_ASK_STAT(kept));

	/* 256 kept: the oldest is one of them. */
	EXPECT_TRUE(kept_allows(ag, 7531, &other));

	/* The 257th. */
	ASSERT_TRUE(allowed_for_session(ag, 7532, &other));
	EXPECT_EQ(before + PFSEL_ASK_MAX_ANSWERS_PER_UID, PFSEL_ASK_STAT(kept));

	/* The oldest went: asked again (and denied, once). */
	EXPECT_TRUE(must_be_asked(_metadata, ag, LEGIT, "127.0.0.1", 7531,
				  &result))
	{
		TH_LOG("legit -> 7531 was not asked about again: %s",
		       err_name(result));
	}
	EXPECT_EQ(DENIED, result);

	/* The rest stayed: no question for any of them. */
	EXPECT_TRUE(kept_allows(ag, 7532, &other));
	EXPECT_EQ(0, answer_flood(ag, PFSEL_UID1, OWN_PORT, N_OWN, f, &other));
	EXPECT_EQ(N_OWN, f->allowed);
	EXPECT_EQ(0, other);
	munmap(f, sizeof(*f));
}

/* Who else has a question pending is none of pfuser1's business. */
static int read_ask_stats(void *arg)
{
	struct pfsel_ask_stats stats;

	return -pfsel_get_ask_stats(&stats);
}

TEST_F(scope, ask_stats_is_not_for_users)
{
	const int err = pfsel_run_as(PFSEL_UID1, read_ask_stats, NULL);

	EXPECT_TRUE(err == EPERM || err == EACCES)
	{
		TH_LOG("pfuser1 reading ask_stats: %s",
		       err ? strerror(err) : "read it");
	}
	/* Root still reads it. */
	EXPECT_EQ(0, read_ask_stats(NULL));
}

TEST_HARNESS_MAIN
