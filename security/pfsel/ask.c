// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Asking the user's agent
 *
 * When the decision is "ask", the calling task is held and the agent its
 * user registered over generic netlink (agent.c) is asked.  The task
 * waits, killably, for the answer or for the policy's timeout; no agent,
 * an agent that goes away, a full queue or a timeout all give the policy's
 * unanswered verdict, never a hang.
 *
 * A question stands for what the person is shown (struct pfsel_topic,
 * answers.c): identical questions in flight are merged, the agent sees
 * one, and every waiter gets its answer.  An answer for the process or the
 * session is kept by answers.c, so that the same question is not asked
 * again.
 *
 * Only the root side makes an agent (agent.c): a process with
 * CAP_MAC_ADMIN registers a socket for a uid, and may then drop to that
 * uid.  The socket answers, and the registering process may load the
 * user's policy (the agent channel, change.c); the user's other programs
 * can do neither.
 *
 * One spinlock guards the agents and their pending questions; the kept
 * answers' own is taken inside it.
 */

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>
#include <linux/wait.h>
#include <net/sock.h>
#include <uapi/linux/pfsel.h>

#include "answers.h"
#include "app.h"
#include "ask.h"
#include "common.h"
#include "hostmap.h"
#include "netlink.h"
#include "netns.h"
#include "policy.h"

/**
 * struct pfsel_agent - A registered agent
 *
 * @link: in pfsel_agents.
 * @uid: the user it answers for.
 * @portid: its netlink socket's port.
 * @cookie: that socket's cookie: a port is freed before the notice of
 *	its socket's release, and another socket may bind it meanwhile.
 * @sk: that socket, held: the release notice names only the port, and
 *	forgets only an agent whose socket is being released (SOCK_DEAD).
 * @process: the process that registered it (its thread group).
 * @pending: its questions waiting for an answer.
 * @n_pending: how many.
 */
struct pfsel_agent {
	struct list_head link;
	kuid_t uid;
	u32 portid;
	u64 cookie;
	struct sock *sk;
	struct pid *process;
	struct list_head pending;
	unsigned int n_pending;
};

/**
 * struct pfsel_question - A question in flight
 *
 * @usage: one reference per waiter, one while pending.
 * @link: in the agent's pending list, while pending.
 * @id: unique since boot.
 * @uid: whose question.
 * @topic: what it is about.
 * @tgid: the process that first asked, for a process-scoped answer.
 * @start_time: that process's start time, so that a reused tgid does not
 *              inherit the answer.
 * @portid: the agent it goes to.
 * @msg: the netlink message, until the first waiter sends it.
 * @waiters: tasks waiting.
 * @done: answered or abandoned: no longer pending.
 * @answered: the agent answered.
 * @verdict: the answer, when @answered.
 * @wait: the waiters sleep here.
 *
 * Every field but @usage, @msg and @wait is guarded by pfsel_ask_lock.
 */
struct pfsel_question {
	struct kref usage;
	struct list_head link;
	u64 id;
	kuid_t uid;
	struct pfsel_topic topic;
	pid_t tgid;
	u64 start_time;
	u32 portid;
	struct sk_buff *msg;
	unsigned int waiters;
	bool done;
	bool answered;
	u32 verdict;
	wait_queue_head_t wait;
};

static DEFINE_SPINLOCK(pfsel_ask_lock);
static LIST_HEAD(pfsel_agents);
static u64 pfsel_next_question_id;

/* Counters of the ask_stats file. */
static atomic64_t stat_questions, stat_merged, stat_answered, stat_unanswered,
	stat_no_agent, stat_overflow, stat_interrupted;

static void question_release(struct kref *const usage)
{
	struct pfsel_question *const q =
		container_of(usage, struct pfsel_question, usage);

	kfree_skb(q->msg);
	pfsel_topic_release(&q->topic);
	kfree(q);
}

static void question_put(struct pfsel_question *const q)
{
	kref_put(&q->usage, question_release);
}

static struct pfsel_agent *find_agent(const kuid_t uid)
{
	struct pfsel_agent *agent;

	lockdep_assert_held(&pfsel_ask_lock);
	list_for_each_entry(agent, &pfsel_agents, link)
		if (uid_eq(agent->uid, uid))
			return agent;
	return NULL;
}

/*
 * The agent whose socket is @portid's with @cookie.  The port alone is not
 * the socket: netlink frees a port before the notice of its socket's
 * release (pfsel_ask_socket_gone()), and any socket may bind the port in
 * between, so an answer from that port could otherwise pass for the dying
 * agent's.  Socket cookies are never reused.
 */
static struct pfsel_agent *find_agent_socket(const u32 portid, const u64 cookie)
{
	struct pfsel_agent *agent;

	lockdep_assert_held(&pfsel_ask_lock);
	list_for_each_entry(agent, &pfsel_agents, link)
		if (agent->portid == portid && agent->cookie == cookie)
			return agent;
	return NULL;
}

/*
 * The agent at @portid whose socket is being released: netlink orphans a
 * socket (SOCK_DEAD) before its release notice, which names only the port.
 * A live agent that bound the port since is not the one released: another
 * user's socket, closed on that port, must not forget it.
 */
static struct pfsel_agent *find_released_agent(const u32 portid)
{
	struct pfsel_agent *agent;

	lockdep_assert_held(&pfsel_ask_lock);
	list_for_each_entry(agent, &pfsel_agents, link)
		if (agent->portid == portid && sock_flag(agent->sk, SOCK_DEAD))
			return agent;
	return NULL;
}

/*
 * Takes @q off its agent's pending list; the caller then wakes its waiters
 * and drops the list's reference.
 */
static void unlink_question(struct pfsel_agent *const agent,
			    struct pfsel_question *const q)
{
	lockdep_assert_held(&pfsel_ask_lock);
	q->done = true;
	list_del_init(&q->link);
	agent->n_pending--;
}

/*
 * The length of the security context @data (@len bytes, maybe with a
 * trailing NUL) as a question carries it, or 0 when it carries none: an
 * empty context, or one of PFSEL_SECCTX_MAX bytes or more (a context cut
 * short would name another).
 */
static u32 secctx_shown_len(const char *const data, const u32 len)
{
	const u32 n = strnlen(data, len);

	return n < PFSEL_SECCTX_MAX ? n : 0;
}

/*
 * Sets @info's security context to the current task's, as the LSMs name
 * it (an SELinux context, an AppArmor label), when one is shown; *@data
 * is then what the caller releases with security_release_secctx(), with
 * *@len.  Atomic: the LSMs convert with GFP_ATOMIC.
 */
static void get_secctx(struct pfsel_ask_info *const info, char **const data,
		       u32 *const len)
{
	u32 secid;

	*data = NULL;
	security_current_getsecid_subj(&secid);
	if (security_secid_to_secctx(secid, data, len) || !*data) {
		*data = NULL;
		return;
	}
	info->secctx_len = secctx_shown_len(*data, *len);
	if (info->secctx_len)
		info->secctx = *data;
}

/**
 * pfsel_ask_prepare - Put a question to the subject's agent
 *
 * @subject: the asking task (process context).
 * @request: what it asks.
 * @policy: the policy whose rule asked; the caller holds rcu_read_lock().
 * @key: the question, as the AVC knows it.
 * @rule: the rule that asked, or PFSEL_NONE for the default.
 *
 * Joins an identical question in flight, or makes a new one, which
 * carries the asking task's security context (get_secctx()).  Nothing
 * sleeps here: the caller is in an RCU read section.
 *
 * Return: the question, to pass to pfsel_ask_wait(); NULL when there is
 * no agent, the agent has too many questions pending, or memory is short:
 * the unanswered verdict then applies at once.
 */
struct pfsel_question *pfsel_ask_prepare(const struct pfsel_subject *subject,
					 const struct pfsel_request *request,
					 const struct pfsel_policy *policy,
					 const struct pfsel_avc_key *key,
					 const u32 rule)
{
	struct pfsel_ask_info info = {
		.pid = task_pid_nr(current),
		.tgid = task_tgid_nr(current),
		.uid = from_kuid(&init_user_ns, subject->uid),
		.request = request,
		.policy = policy->slot,
		.timeout_ms = pfsel_policydb_ask_timeout_ms(policy->db),
		.unanswered = pfsel_policydb_no_answer(policy->db) ==
					      PFSEL_VERDICT_ALLOW ?
				      PFSEL_ANSWER_ALLOW :
				      PFSEL_ANSWER_DENY,
	};
	const struct pfsel_hostmap *const names = pfsel_net_hosts(request->net);
	struct pfsel_question *q, *fresh, *ret = NULL;
	struct pfsel_agent *agent;
	char comm[TASK_COMM_LEN];
	char *hosts = NULL;
	char *secdata;
	u32 seclen;

	get_task_comm(comm, current);
	get_secctx(&info, &secdata, &seclen);
	info.comm = comm;
	if (subject->app) {
		info.exe = subject->app->exe;
		info.script = subject->app->script;
	}
	if (rule != PFSEL_NONE)
		pfsel_policydb_rule_source(policy->db, rule, &info.rule_file,
					   &info.rule_line, &info.rule_col);

	/* The names that made the address match, or that the person knows. */
	if (pfsel_hostmap_known(names, request->addr)) {
		hosts = kmalloc(PFSEL_HOSTS_TEXT_MAX, GFP_ATOMIC | __GFP_NOWARN);
		if (hosts)
			pfsel_hostmap_format(names, request->addr, subject->uid,
					     hosts, PFSEL_HOSTS_TEXT_MAX);
		info.hosts = hosts;
	}

	fresh = kzalloc(sizeof(*fresh), GFP_ATOMIC | __GFP_NOWARN);
	if (!fresh)
		goto out;
	kref_init(&fresh->usage);
	INIT_LIST_HEAD(&fresh->link);
	init_waitqueue_head(&fresh->wait);
	fresh->uid = subject->uid;
	pfsel_topic_init(&fresh->topic, subject, request, key);
	fresh->tgid = current->group_leader->pid;
	fresh->start_time = current->group_leader->start_time;

	spin_lock(&pfsel_ask_lock);
	agent = find_agent(subject->uid);
	if (!agent) {
		spin_unlock(&pfsel_ask_lock);
		atomic64_inc(&stat_no_agent);
		goto drop;
	}
	list_for_each_entry(q, &agent->pending, link) {
		if (pfsel_topic_is(&q->topic, subject->app, request, key)) {
			q->waiters++;
			kref_get(&q->usage);
			spin_unlock(&pfsel_ask_lock);
			atomic64_inc(&stat_merged);
			ret = q;
			goto drop;
		}
	}
	if (agent->n_pending >= PFSEL_ASK_MAX_PENDING) {
		spin_unlock(&pfsel_ask_lock);
		atomic64_inc(&stat_overflow);
		goto drop;
	}
	info.id = ++pfsel_next_question_id;
	fresh->msg = pfsel_netlink_ask_msg(&info, GFP_ATOMIC | __GFP_NOWARN);
	if (!fresh->msg) {
		spin_unlock(&pfsel_ask_lock);
		goto drop;
	}
	fresh->id = info.id;
	fresh->portid = agent->portid;
	fresh->waiters = 1;
	/* One reference for the pending list, one for this waiter. */
	kref_get(&fresh->usage);
	list_add_tail(&fresh->link, &agent->pending);
	agent->n_pending++;
	spin_unlock(&pfsel_ask_lock);
	atomic64_inc(&stat_questions);
	ret = fresh;
	goto out;

drop:
	question_put(fresh);
out:
	kfree(hosts);
	if (secdata)
		security_release_secctx(secdata, seclen);
	return ret;
}

/* Abandons @q if it is still pending: its waiters get the default. */
static void abandon(struct pfsel_question *const q)
{
	struct pfsel_agent *agent;
	bool unlinked = false;

	spin_lock(&pfsel_ask_lock);
	agent = find_agent(q->uid);
	if (!q->done && agent) {
		unlink_question(agent, q);
		unlinked = true;
	}
	spin_unlock(&pfsel_ask_lock);
	if (unlinked) {
		wake_up_all(&q->wait);
		question_put(q);
	}
}

/**
 * pfsel_ask_wait - Wait for the answer to a question
 *
 * @q: what pfsel_ask_prepare() returned; consumed.
 * @timeout_ms: how long to wait at most.
 * @no_answer: the verdict when no answer comes.
 * @verdict: set to the answer or to @no_answer.
 *
 * Sleeps, killably: a fatal signal ends the wait at once.
 *
 * Return: 1 when the agent answered, 0 when it did not, -EINTR when a
 * fatal signal ended the wait.
 */
int pfsel_ask_wait(struct pfsel_question *const q, const u32 timeout_ms,
		   const u32 no_answer, u32 *const verdict)
{
	struct pfsel_agent *agent;
	struct sk_buff *msg;
	bool unlinked = false, answered;
	long left;

	msg = xchg(&q->msg, NULL);
	if (msg && pfsel_netlink_send(msg, q->portid))
		abandon(q);

	left = wait_event_killable_timeout(q->wait, READ_ONCE(q->done),
					   msecs_to_jiffies(timeout_ms));

	spin_lock(&pfsel_ask_lock);
	q->waiters--;
	answered = q->answered;
	*verdict = answered ? q->verdict : no_answer;
	if (!q->done && !q->waiters) {
		/* Nobody waits any more: a late answer finds no question. */
		agent = find_agent(q->uid);
		if (agent) {
			unlink_question(agent, q);
			unlinked = true;
		}
	}
	if (!q->answered)
		atomic64_inc(&stat_unanswered);
	spin_unlock(&pfsel_ask_lock);

	if (unlinked)
		question_put(q);
	question_put(q);
	if (left < 0) {
		atomic64_inc(&stat_interrupted);
		return -EINTR;
	}
	return answered;
}

/**
 * pfsel_ask_answer - An agent's answer
 *
 * @portid: the netlink socket it came from.
 * @cookie: that socket's cookie.
 * @id: the question.
 * @verdict: PFSEL_ANSWER_ALLOW or PFSEL_ANSWER_DENY.
 * @scope: enum pfsel_scope.
 *
 * The socket speaks for the uid it was registered for, whoever holds it
 * now: the registering process usually dropped to that uid since.
 *
 * Return: 0; -EPERM if the socket is no registered agent; -ENOENT if it
 * has no such question pending.
 */
int pfsel_ask_answer(const u32 portid, const u64 cookie, const u64 id,
		     const u32 verdict, const u32 scope)
{
	struct pfsel_question *q, *found = NULL;
	struct pfsel_answer *answer = NULL;
	struct pfsel_agent *agent;

	/* Allocated first: the answer is kept before any waiter wakes. */
	if (scope != PFSEL_SCOPE_ONCE) {
		answer = pfsel_answer_alloc();
		if (!answer)
			return -ENOMEM;
	}

	spin_lock(&pfsel_ask_lock);
	agent = find_agent_socket(portid, cookie);
	if (!agent) {
		spin_unlock(&pfsel_ask_lock);
		pfsel_answer_free(answer);
		return -EPERM;
	}
	list_for_each_entry(q, &agent->pending, link) {
		if (q->id == id) {
			found = q;
			break;
		}
	}
	if (!found) {
		spin_unlock(&pfsel_ask_lock);
		pfsel_answer_free(answer);
		return -ENOENT;
	}
	found->answered = true;
	found->verdict = verdict == PFSEL_ANSWER_ALLOW ? PFSEL_VERDICT_ALLOW :
							 PFSEL_VERDICT_DENY;
	unlink_question(agent, found);
	if (answer && scope == PFSEL_SCOPE_PROCESS)
		pfsel_answers_keep(answer, found->uid, &found->topic,
				   found->verdict, found->tgid,
				   found->start_time);
	else if (answer)
		pfsel_answers_keep(answer, found->uid, &found->topic,
				   found->verdict, 0, 0);
	spin_unlock(&pfsel_ask_lock);

	atomic64_inc(&stat_answered);
	wake_up_all(&found->wait);
	question_put(found);
	return 0;
}

/* Abandons every question of @agent and frees it; called unlocked. */
static void retire_agent(struct pfsel_agent *const agent)
{
	struct pfsel_question *q, *next;
	LIST_HEAD(abandoned);

	spin_lock(&pfsel_ask_lock);
	list_for_each_entry_safe(q, next, &agent->pending, link) {
		unlink_question(agent, q);
		list_add(&q->link, &abandoned);
	}
	spin_unlock(&pfsel_ask_lock);

	list_for_each_entry_safe(q, next, &abandoned, link) {
		list_del_init(&q->link);
		wake_up_all(&q->wait);
		question_put(q);
	}
	put_pid(agent->process);
	sock_put(agent->sk);
	kfree(agent);
}

/**
 * pfsel_ask_register - Make a netlink socket the agent of a uid
 *
 * @uid: the user it answers for.
 * @portid: its socket.
 * @cookie: that socket's cookie.
 * @sk: that socket (a reference is taken).
 * @process: the registering process; it may load @uid's policy.
 *
 * The caller checked that the sender may (netlink.c: the root side only).
 * A newer registration replaces an older one; the older one's questions
 * get the unanswered verdict, and the answers it gave for the session are
 * forgotten.  A socket is the agent of one uid at most: registering it
 * for another moves it.
 *
 * Return: 0 or -ENOMEM.
 */
int pfsel_ask_register(const kuid_t uid, const u32 portid, const u64 cookie,
		       struct sock *const sk, struct pid *const process)
{
	struct pfsel_agent *agent, *old, *moved;

	agent = kzalloc(sizeof(*agent), GFP_KERNEL_ACCOUNT);
	if (!agent)
		return -ENOMEM;
	agent->uid = uid;
	agent->portid = portid;
	agent->cookie = cookie;
	sock_hold(sk);
	agent->sk = sk;
	agent->process = get_pid(process);
	INIT_LIST_HEAD(&agent->pending);

	spin_lock(&pfsel_ask_lock);
	old = find_agent(uid);
	if (old) {
		/* The session answers were the old agent's. */
		list_del(&old->link);
		pfsel_answers_forget(uid);
	}
	moved = find_agent_socket(portid, cookie);
	if (moved) {
		list_del(&moved->link);
		pfsel_answers_forget(moved->uid);
	}
	list_add(&agent->link, &pfsel_agents);
	spin_unlock(&pfsel_ask_lock);

	if (old)
		retire_agent(old);
	if (moved)
		retire_agent(moved);
	return 0;
}

/**
 * pfsel_ask_unregister - Stop being an agent
 *
 * @portid: the agent's socket.
 * @cookie: that socket's cookie.
 *
 * The user's session answers are forgotten with the agent.
 *
 * Return: 0, or -ENOENT if that socket is no agent.
 */
int pfsel_ask_unregister(const u32 portid, const u64 cookie)
{
	struct pfsel_agent *agent;

	spin_lock(&pfsel_ask_lock);
	agent = find_agent_socket(portid, cookie);
	if (!agent) {
		spin_unlock(&pfsel_ask_lock);
		return -ENOENT;
	}
	list_del(&agent->link);
	pfsel_answers_forget(agent->uid);
	spin_unlock(&pfsel_ask_lock);

	retire_agent(agent);
	return 0;
}

/**
 * pfsel_ask_is_agent_process - Tell whether the current process is an agent
 *
 * @uid: the user.
 *
 * The process that registered @uid's agent is the agent channel: it may
 * load @uid's policy (the person answered "always" at its prompt).
 *
 * Return: true if the current task belongs to that process.
 */
bool pfsel_ask_is_agent_process(const kuid_t uid)
{
	struct pfsel_agent *agent;
	bool is = false;

	spin_lock(&pfsel_ask_lock);
	agent = find_agent(uid);
	if (agent && agent->process == task_tgid(current))
		is = true;
	spin_unlock(&pfsel_ask_lock);
	return is;
}

/**
 * pfsel_ask_socket_gone - A netlink socket was released
 *
 * @portid: the socket.
 *
 * If it was an agent, its user has none any more.
 */
void pfsel_ask_socket_gone(const u32 portid)
{
	struct pfsel_agent *found;

	spin_lock(&pfsel_ask_lock);
	found = find_released_agent(portid);
	if (found) {
		list_del(&found->link);
		pfsel_answers_forget(found->uid);
	}
	spin_unlock(&pfsel_ask_lock);

	if (found)
		retire_agent(found);
}

/**
 * pfsel_ask_show_stats - The ask_stats file
 *
 * @m: where to write: a header line and one line of totals.
 */
void pfsel_ask_show_stats(struct seq_file *const m)
{
	unsigned int agents = 0, pending = 0, kept;
	struct pfsel_agent *agent;
	s64 kept_hits;

	spin_lock(&pfsel_ask_lock);
	list_for_each_entry(agent, &pfsel_agents, link) {
		agents++;
		pending += agent->n_pending;
	}
	spin_unlock(&pfsel_ask_lock);
	pfsel_answers_stats(&kept_hits, &kept);

	seq_puts(m, "questions merged answered unanswered no_agent overflow kept_hits interrupted agents pending kept\n");
	seq_printf(m, "%lld %lld %lld %lld %lld %lld %lld %lld %u %u %u\n",
		   atomic64_read(&stat_questions), atomic64_read(&stat_merged),
		   atomic64_read(&stat_answered),
		   atomic64_read(&stat_unanswered),
		   atomic64_read(&stat_no_agent),
		   atomic64_read(&stat_overflow), kept_hits,
		   atomic64_read(&stat_interrupted), agents, pending, kept);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>
#include <net/genetlink.h>
#include <net/netlink.h>

static void test_ask_secctx_len(struct kunit *const test)
{
	char big[PFSEL_SECCTX_MAX + 1];

	/* SELinux counts the NUL, AppArmor does not. */
	KUNIT_EXPECT_EQ(test, 6U, secctx_shown_len("kernel", 7));
	KUNIT_EXPECT_EQ(test, 10U, secctx_shown_len("unconfined", 10));
	KUNIT_EXPECT_EQ(test, 0U, secctx_shown_len("", 1));
	/* The longest shown; one byte more is not cut, but left out. */
	memset(big, 'a', sizeof(big));
	KUNIT_EXPECT_EQ(test, PFSEL_SECCTX_MAX - 1U,
			secctx_shown_len(big, PFSEL_SECCTX_MAX - 1));
	KUNIT_EXPECT_EQ(test, 0U, secctx_shown_len(big, PFSEL_SECCTX_MAX));
	KUNIT_EXPECT_EQ(test, 0U, secctx_shown_len(big, sizeof(big)));
}

/* The context as the LSMs give it, from an RCU read section. */
static void test_ask_secctx_atomic(struct kunit *const test)
{
	struct pfsel_ask_info info = {};
	char *data;
	u32 len;

	rcu_read_lock();
	get_secctx(&info, &data, &len);
	rcu_read_unlock();
	if (!data) {
		KUNIT_EXPECT_NULL(test, info.secctx);
		return;
	}
	if (info.secctx) {
		KUNIT_EXPECT_PTR_EQ(test, (const char *)data, info.secctx);
		KUNIT_EXPECT_EQ(test, (size_t)info.secctx_len,
				strnlen(data, len));
		KUNIT_EXPECT_GT(test, info.secctx_len, 0U);
		KUNIT_EXPECT_LT(test, info.secctx_len, (u32)PFSEL_SECCTX_MAX);
	}
	security_release_secctx(data, len);
}

/* The message carries the context, NUL-terminated, when there is one. */
static void test_ask_msg_secctx(struct kunit *const test)
{
	static const char shown[] = "system_u:system_r:unconfined_t:s0";
	const struct pfsel_request request = {
		.op = 2,
		.family = PFSEL_FAMILY_INET,
		.port = 80,
	};
	struct pfsel_ask_info info = {
		.id = 1,
		.comm = "curl",
		.request = &request,
		/* Not NUL-terminated where it comes from. */
		.secctx = "system_u:system_r:unconfined_t:s0:c1",
		.secctx_len = sizeof(shown) - 1,
	};
	const struct nlattr *attr;
	struct sk_buff *skb;

	skb = pfsel_netlink_ask_msg(&info, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	attr = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN, PFSEL_ATTR_SECCTX);
	KUNIT_EXPECT_NOT_NULL(test, attr);
	if (attr) {
		KUNIT_EXPECT_EQ(test, (int)sizeof(shown), nla_len(attr));
		KUNIT_EXPECT_MEMEQ(test, nla_data(attr), shown, sizeof(shown));
	}
	kfree_skb(skb);

	info.secctx = NULL;
	skb = pfsel_netlink_ask_msg(&info, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_NULL(test, nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
						PFSEL_ATTR_SECCTX));
	kfree_skb(skb);
}

/* Every question says what no answer gets. */
static void test_ask_msg_unanswered(struct kunit *const test)
{
	const struct pfsel_request request = { .family = PFSEL_FAMILY_INET };
	struct pfsel_ask_info info = {
		.id = 1,
		.comm = "curl",
		.request = &request,
	};
	const struct nlattr *attr;
	struct sk_buff *skb;
	u8 verdict;

	for (verdict = PFSEL_ANSWER_ALLOW; verdict <= PFSEL_ANSWER_DENY;
	     verdict++) {
		info.unanswered = verdict;
		skb = pfsel_netlink_ask_msg(&info, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		attr = nlmsg_find_attr(nlmsg_hdr(skb), GENL_HDRLEN,
				       PFSEL_ATTR_UNANSWERED);
		KUNIT_EXPECT_NOT_NULL(test, attr);
		if (attr)
			KUNIT_EXPECT_EQ(test, verdict, nla_get_u8(attr));
		kfree_skb(skb);
	}
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_ask_secctx_len),
	KUNIT_CASE(test_ask_secctx_atomic),
	KUNIT_CASE(test_ask_msg_secctx),
	KUNIT_CASE(test_ask_msg_unanswered),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_ask",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
