// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Answers kept for a process or a session
 *
 * An agent's answer for the process or the session (ask.c) is kept here,
 * so that the same question is not asked again; "always" is kept like
 * "session", and made permanent by the agent in the user's policy.  An
 * answer stands for what the person was shown: the same uid, the same
 * application (executable and script, by name; an unnamed one only for
 * the execution it came from), operation, protocol, and the exact address
 * and port, under the same policy.  The policy's classes are coarser (with
 * "default ask;" every unnamed application, address and port share one),
 * so matching by the AVC key alone would let one application ride on
 * another's answer.  Questions in flight are told apart the same way
 * (struct pfsel_topic).
 *
 * Each user keeps at most PFSEL_ASK_MAX_ANSWERS_PER_UID answers, the
 * oldest of that user's making room, so no user evicts another's.  A
 * policy load forgets the answers it makes stale (a user's, or everyone's
 * for the system policy: reset.c); the end of a user's last session, or a
 * new agent, forgets that user's session answers.
 *
 * Writers take one spinlock, which ask.c may hold its own lock around;
 * kept answers are looked up under RCU, from any context (an inbound
 * connection, in softirq, may use a session answer).
 */

#include <linux/atomic.h>
#include <linux/jhash.h>
#include <linux/list.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <uapi/linux/pfsel.h>

#include "answers.h"
#include "cache_limits.h"

/**
 * struct pfsel_answer - An answer kept for a process or a session
 *
 * @node: in its pfsel_answers bucket.
 * @order: in pfsel_answer_order, oldest first.
 * @rcu: frees it after a grace period.
 * @uid: whose answer.
 * @tgid: the process it holds for, or 0 for the whole session.
 * @start_time: that process's start time, so that a reused tgid does not
 *              inherit the answer.
 * @topic: the question it answers.
 * @verdict: the answer: PFSEL_VERDICT_ALLOW or PFSEL_VERDICT_DENY.
 */
struct pfsel_answer {
	struct hlist_node node;
	struct list_head order;
	struct rcu_head rcu;
	kuid_t uid;
	pid_t tgid;
	u64 start_time;
	struct pfsel_topic topic;
	u32 verdict;
};

static DEFINE_SPINLOCK(pfsel_answers_lock);
static struct hlist_head pfsel_answers[1 << PFSEL_ANSWER_BITS];
/* Every kept answer, oldest first; guarded by pfsel_answers_lock. */
static LIST_HEAD(pfsel_answer_order);
static unsigned int pfsel_answer_count;
/* Questions a kept answer answered: the ask_stats file's kept_hits. */
static atomic64_t stat_kept_hits;

/**
 * pfsel_topic_init - Say what a question is about
 *
 * @topic: set; holds a reference to the application until
 *         pfsel_topic_release().
 * @subject: who asks.
 * @request: what it asks.
 * @key: the AVC key of the policy that asks.
 */
void pfsel_topic_init(struct pfsel_topic *const topic,
		      const struct pfsel_subject *const subject,
		      const struct pfsel_request *const request,
		      const struct pfsel_avc_key *const key)
{
	topic->key = *key;
	topic->app = pfsel_app_get(subject->app);
	topic->family = request->family;
	topic->port = request->port;
	memcpy(topic->addr, request->addr, sizeof(topic->addr));
}

/**
 * pfsel_topic_release - Drop what pfsel_topic_init() took
 *
 * @topic: the topic.
 */
void pfsel_topic_release(struct pfsel_topic *const topic)
{
	pfsel_app_put(topic->app);
}

/*
 * The same application: the same execution, or two named alike.  An
 * unnamed application is only ever itself: the person was shown "?".
 */
static bool same_app(const struct pfsel_app *const a,
		     const struct pfsel_app *const b)
{
	if (a == b)
		return a;
	if (!a || !b || !a->exe || !b->exe || strcmp(a->exe, b->exe) ||
	    a->has_script != b->has_script)
		return false;
	if (!a->has_script)
		return true;
	return a->script && b->script && !strcmp(a->script, b->script);
}

/**
 * pfsel_topic_is - Tell whether a question is about this request
 *
 * @topic: what the question is about.
 * @app: the asking application.
 * @request: what it asks.
 * @key: the AVC key of the policy that asks.
 *
 * Any context.
 *
 * Return: true for the same policy generation and classes, application,
 * family, address and port.
 */
bool pfsel_topic_is(const struct pfsel_topic *const topic,
		    const struct pfsel_app *const app,
		    const struct pfsel_request *const request,
		    const struct pfsel_avc_key *const key)
{
	return !memcmp(&topic->key, key, sizeof(*key)) &&
	       topic->family == request->family &&
	       topic->port == request->port &&
	       !memcmp(topic->addr, request->addr, sizeof(topic->addr)) &&
	       same_app(topic->app, app);
}

/* The AVC key is enough to spread answers: the rest is compared. */
static u32 answer_hash(const kuid_t uid, const struct pfsel_avc_key *const key)
{
	return jhash2((const u32 *)key, sizeof(*key) / sizeof(u32),
		      __kuid_val(uid)) >>
	       (32 - PFSEL_ANSWER_BITS);
}

/**
 * pfsel_answer_alloc - Make room for an answer before it is known
 *
 * The answer is kept under the caller's lock, before any waiter wakes;
 * so it is allocated first, where the caller may sleep.
 *
 * Return: an answer for pfsel_answers_keep() or pfsel_answer_free(), or
 * NULL without memory.
 */
struct pfsel_answer *pfsel_answer_alloc(void)
{
	return kzalloc(sizeof(struct pfsel_answer), GFP_KERNEL);
}

/**
 * pfsel_answer_free - Free an answer that was not kept
 *
 * @answer: from pfsel_answer_alloc(), or NULL.
 */
void pfsel_answer_free(struct pfsel_answer *const answer)
{
	kfree(answer);
}

/* Readers may still compare the application's names until now. */
static void answer_free_rcu(struct rcu_head *const head)
{
	struct pfsel_answer *const answer =
		container_of(head, struct pfsel_answer, rcu);

	pfsel_topic_release(&answer->topic);
	kfree(answer);
}

static void drop_answer(struct pfsel_answer *const answer)
{
	lockdep_assert_held(&pfsel_answers_lock);
	hlist_del_rcu(&answer->node);
	list_del(&answer->order);
	pfsel_answer_count--;
	call_rcu(&answer->rcu, answer_free_rcu);
}

/*
 * Drops the answers of @uid (only those kept for the session, with
 * @sessions_only), or every answer when @uid is invalid.
 */
static void drop_answers(const kuid_t uid, const bool sessions_only)
{
	struct pfsel_answer *answer, *next;

	spin_lock(&pfsel_answers_lock);
	list_for_each_entry_safe(answer, next, &pfsel_answer_order, order)
		if (!uid_valid(uid) ||
		    (uid_eq(answer->uid, uid) &&
		     (!sessions_only || !answer->tgid)))
			drop_answer(answer);
	spin_unlock(&pfsel_answers_lock);
}

static bool same_answer(const struct pfsel_answer *const a,
			const struct pfsel_answer *const b)
{
	const struct pfsel_topic *const t = &b->topic;

	return uid_eq(a->uid, b->uid) && a->tgid == b->tgid &&
	       a->start_time == b->start_time &&
	       !memcmp(&a->topic.key, &t->key, sizeof(t->key)) &&
	       a->topic.family == t->family && a->topic.port == t->port &&
	       !memcmp(a->topic.addr, t->addr, sizeof(t->addr)) &&
	       same_app(a->topic.app, t->app);
}

/*
 * Makes room for one more answer of @uid: past its share, its own oldest
 * answer goes, never another user's.
 */
static void make_room(const kuid_t uid)
{
	struct pfsel_answer *answer, *oldest = NULL;
	unsigned int count = 0;

	lockdep_assert_held(&pfsel_answers_lock);
	list_for_each_entry(answer, &pfsel_answer_order, order) {
		if (!uid_eq(answer->uid, uid))
			continue;
		if (!oldest)
			oldest = answer;
		count++;
	}
	if (count >= PFSEL_ASK_MAX_ANSWERS_PER_UID)
		drop_answer(oldest);
}

/**
 * pfsel_answers_keep - Keep an agent's answer
 *
 * @answer: from pfsel_answer_alloc(); consumed.
 * @uid: whose answer.
 * @topic: the question it answers; the answer takes its own reference
 *         to the application.
 * @verdict: PFSEL_VERDICT_ALLOW or PFSEL_VERDICT_DENY.
 * @tgid: the process it holds for, or 0 for the whole session.
 * @start_time: that process's start time; 0 for the session.
 *
 * An answer to the same question, already kept, takes the new verdict.
 * Never sleeps.
 */
void pfsel_answers_keep(struct pfsel_answer *const answer, const kuid_t uid,
			const struct pfsel_topic *const topic,
			const u32 verdict, const pid_t tgid,
			const u64 start_time)
{
	struct hlist_head *const head = &pfsel_answers[answer_hash(uid,
								   &topic->key)];
	struct pfsel_answer *kept;

	answer->uid = uid;
	answer->topic = *topic;
	answer->verdict = verdict;
	answer->tgid = tgid;
	answer->start_time = start_time;

	spin_lock(&pfsel_answers_lock);
	hlist_for_each_entry(kept, head, node) {
		if (same_answer(kept, answer)) {
			kept->verdict = verdict;
			spin_unlock(&pfsel_answers_lock);
			kfree(answer);
			return;
		}
	}
	pfsel_app_get(answer->topic.app);
	make_room(uid);
	hlist_add_head_rcu(&answer->node, head);
	list_add_tail(&answer->order, &pfsel_answer_order);
	pfsel_answer_count++;
	spin_unlock(&pfsel_answers_lock);
}

/**
 * pfsel_answers_find - Find an answer kept for this question
 *
 * @subject: who asks; a task's own process answers count only for it.
 * @request: what it asks.
 * @key: the AVC key of the policy that asks.
 * @verdict: set to the kept answer.
 *
 * Any context.
 *
 * Return: true if an answer was kept.
 */
bool pfsel_answers_find(const struct pfsel_subject *const subject,
			const struct pfsel_request *const request,
			const struct pfsel_avc_key *const key,
			u32 *const verdict)
{
	const struct task_struct *const leader = current->group_leader;
	struct pfsel_answer *answer;
	bool found = false;

	rcu_read_lock();
	hlist_for_each_entry_rcu(answer,
				 &pfsel_answers[answer_hash(subject->uid, key)],
				 node) {
		if (!uid_eq(answer->uid, subject->uid) ||
		    !pfsel_topic_is(&answer->topic, subject->app, request, key))
			continue;
		if (answer->tgid &&
		    (!subject->task || answer->tgid != leader->pid ||
		     answer->start_time != leader->start_time))
			continue;
		*verdict = answer->verdict;
		found = true;
		break;
	}
	rcu_read_unlock();
	if (found)
		atomic64_inc(&stat_kept_hits);
	return found;
}

/**
 * pfsel_answers_forget - Forget the session answers of a user
 *
 * @uid: the user, whose last session ended or whose agent changed.
 *
 * Answers kept for a process stay until that process's policy changes.
 * Never sleeps.
 */
void pfsel_answers_forget(const kuid_t uid)
{
	drop_answers(uid, true);
}

/**
 * pfsel_answers_flush - Forget the answers a policy load makes stale
 *
 * @uid: the user whose policy changed, or INVALID_UID when the system
 *       policy did: then every answer goes.
 *
 * Answers are kept for the classes of the policy that asked; another
 * user's policy has nothing to do with them.  Never sleeps.
 */
void pfsel_answers_flush(const kuid_t uid)
{
	drop_answers(uid, false);
}

/**
 * pfsel_answers_stats - What the kept answers did, for ask_stats
 *
 * @hits: set to how many questions a kept answer answered.
 * @kept: set to how many answers are kept.
 */
void pfsel_answers_stats(s64 *const hits, unsigned int *const kept)
{
	*hits = atomic64_read(&stat_kept_hits);
	spin_lock(&pfsel_answers_lock);
	*kept = pfsel_answer_count;
	spin_unlock(&pfsel_answers_lock);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

static struct pfsel_app *test_app(struct kunit *const test,
				  const char *const exe,
				  const char *const script)
{
	struct pfsel_app *app = kunit_kzalloc(test, sizeof(*app), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, app);
	kref_init(&app->usage);
	/* The test holds a reference for good: release never runs. */
	kref_get(&app->usage);
	app->exe = exe;
	app->script = script;
	app->has_script = !!script;
	return app;
}

static void test_answers_same_app(struct kunit *const test)
{
	struct pfsel_app *const legit = test_app(test, "/add/legit", NULL);
	struct pfsel_app *const legit2 = test_app(test, "/add/legit", NULL);
	struct pfsel_app *const evil = test_app(test, "/add/evil", NULL);
	struct pfsel_app *const unnamed = test_app(test, NULL, NULL);
	struct pfsel_app *const unnamed2 = test_app(test, NULL, NULL);
	struct pfsel_app *const sh_a = test_app(test, "/bin/sh", "/a.sh");
	struct pfsel_app *const sh_b = test_app(test, "/bin/sh", "/b.sh");
	struct pfsel_app *const sh_a2 = test_app(test, "/bin/sh", "/a.sh");
	struct pfsel_app *const sh = test_app(test, "/bin/sh", NULL);

	KUNIT_EXPECT_TRUE(test, same_app(legit, legit));
	KUNIT_EXPECT_TRUE(test, same_app(legit, legit2));
	KUNIT_EXPECT_FALSE(test, same_app(legit, evil));
	/* An unnamed application is only the execution it came from. */
	KUNIT_EXPECT_TRUE(test, same_app(unnamed, unnamed));
	KUNIT_EXPECT_FALSE(test, same_app(unnamed, unnamed2));
	KUNIT_EXPECT_FALSE(test, same_app(unnamed, legit));
	KUNIT_EXPECT_FALSE(test, same_app(NULL, NULL));
	KUNIT_EXPECT_FALSE(test, same_app(NULL, legit));
	/* The script is part of the application. */
	KUNIT_EXPECT_TRUE(test, same_app(sh_a, sh_a2));
	KUNIT_EXPECT_FALSE(test, same_app(sh_a, sh_b));
	KUNIT_EXPECT_FALSE(test, same_app(sh_a, sh));
}

static void test_answers_same_topic(struct kunit *const test)
{
	struct pfsel_app *const legit = test_app(test, "/add/legit", NULL);
	struct pfsel_app *const evil = test_app(test, "/add/evil", NULL);
	const struct pfsel_avc_key key = { .generation = 7, .op = 2 };
	struct pfsel_request request = {
		.op = 2,
		.family = PFSEL_FAMILY_INET,
		.port = 7501,
		.addr = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 1 },
	};
	const struct pfsel_subject subject = { .app = legit };
	struct pfsel_request other = request;
	struct pfsel_avc_key other_key = key;
	struct pfsel_topic topic;

	pfsel_topic_init(&topic, &subject, &request, &key);
	KUNIT_EXPECT_TRUE(test, pfsel_topic_is(&topic, legit, &request, &key));
	/* Same classes, another application: a question of its own. */
	KUNIT_EXPECT_FALSE(test, pfsel_topic_is(&topic, evil, &request, &key));
	/* Same classes, another address or port. */
	other.addr[15] = 99;
	KUNIT_EXPECT_FALSE(test, pfsel_topic_is(&topic, legit, &other, &key));
	other = request;
	other.port = 7502;
	KUNIT_EXPECT_FALSE(test, pfsel_topic_is(&topic, legit, &other, &key));
	/* Another policy generation. */
	other_key.generation = 8;
	KUNIT_EXPECT_FALSE(test, pfsel_topic_is(&topic, legit, &request,
						&other_key));
	pfsel_topic_release(&topic);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_answers_same_app),
	KUNIT_CASE(test_answers_same_topic),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_answers",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
