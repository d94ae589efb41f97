// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Deciding a request
 *
 * A request is decided by the system policy and by the policy of the
 * subject's real uid; the stricter verdict wins: deny over ask over allow
 * (policy/LANGUAGE.md, section 2).  Each policy's decision comes from the
 * access vector cache, or from the policy database on a miss.  An ask goes
 * to the user's agent (ask.c).  A denial is let through, and audited as
 * such, in permissive mode: globally, or when every policy that denied was
 * compiled "mode permissive;".
 */

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "answers.h"
#include "ask.h"
#include "audit.h"
#include "avc.h"
#include "classcache.h"
#include "common.h"
#include "cred.h"
#include "decide.h"
#include "hostmap.h"
#include "netns.h"
#include "policy.h"
#include "recent.h"

static bool pfsel_enforcing_mode __read_mostly = true;
static DEFINE_SPINLOCK(pfsel_mode_lock);

/**
 * pfsel_enforcing - The global mode
 *
 * Return: true when denials are enforced, false in permissive mode.
 */
bool pfsel_enforcing(void)
{
	return READ_ONCE(pfsel_enforcing_mode);
}

/**
 * pfsel_swap_enforcing - Set the global mode
 *
 * @enforcing: true to enforce denials, false for permissive mode.
 *
 * What a switch resets and audits is change.c's (pfsel_set_enforcing()).
 *
 * Return: the mode before.
 */
bool pfsel_swap_enforcing(const bool enforcing)
{
	bool old;

	spin_lock(&pfsel_mode_lock);
	old = pfsel_enforcing_mode;
	WRITE_ONCE(pfsel_enforcing_mode, enforcing);
	spin_unlock(&pfsel_mode_lock);
	return old;
}

/* deny > ask > allow */
static unsigned int strictness(const u32 verdict)
{
	switch (verdict) {
	case PFSEL_VERDICT_ALLOW:
		return 0;
	case PFSEL_VERDICT_ASK:
		return 1;
	default:
		return 2;
	}
}

/*
 * A policy's decision on one request; @named: the address had host names
 * that the decision looked at, and @expires (jiffies) is when the first
 * of them expires: the decision holds until then, or until a name is
 * learned; @whole_prefix: the address's class is its whole prefix's
 * (classcache.c).
 */
struct pfsel_outcome {
	struct pfsel_policy *policy;
	struct pfsel_avc_key key;
	struct pfsel_avc_decision decision;
	bool permissive;
	bool named;
	bool whole_prefix;
	unsigned long expires;
};

/*
 * What a policy that cannot answer decides: a validated policy answers
 * every request it can be asked; should it not, fail closed.
 */
static const struct pfsel_avc_decision pfsel_decision_failed = {
	.verdict = PFSEL_VERDICT_DENY,
	.rule = PFSEL_NONE,
};

/*
 * The decision of the rules for host names of one name class (@key, by
 * name): the smallest rule the class's name slabs give, PFSEL_NONE for
 * none.  False if the policy could not say, which a validated policy
 * never does.
 */
static bool decide_name_class(const struct pfsel_policydb *const db,
			      const struct pfsel_avc_key *const key,
			      struct pfsel_avc_decision *const out)
{
	u32 rule;

	if (pfsel_avc_lookup(key, out))
		return true;
	if (pfsel_policydb_decide_name(db, key->app, key->op, key->proto,
				       key->addr, key->port, &rule))
		return false;
	*out = (struct pfsel_avc_decision){ .rule = rule };
	if (rule != PFSEL_NONE) {
		out->verdict = db->rules[rule].verdict;
		out->audit = db->rules[rule].audit;
	}
	pfsel_avc_insert(key, out);
	return true;
}

/* The walk over an address's host names (pfsel_hostmap_names()). */
struct pfsel_name_walk {
	const struct pfsel_policy *policy;
	const struct pfsel_policydb *db;
	struct pfsel_outcome *out;
	struct pfsel_avc_key by_address;
};

/* Notes that @out looked at a name that expires at @expires. */
static void looked_at(struct pfsel_outcome *const out,
		      const unsigned long expires)
{
	if (!out->named || time_before(expires, out->expires))
		out->expires = expires;
	out->named = true;
}

/*
 * One known name of the address: the rules for its name class decide
 * instead when one of them comes before the rule deciding so far, as the
 * first matching rule wins over every name and the address alike.
 */
static bool decide_one_name(const struct pfsel_hostmap_name *const name,
			    void *const arg)
{
	struct pfsel_name_walk *const walk = arg;
	struct pfsel_avc_decision decision;
	struct pfsel_avc_key key = walk->by_address;

	/*
	 * Even a name no pattern matches counts: the walk gives at most
	 * PFSEL_HOSTS_PER_ADDR names, and its going may let another in.
	 */
	looked_at(walk->out, name->expires);
	key.addr = pfsel_classcache_name(walk->policy, name->id, name->name,
					 name->len);
	if (!key.addr)
		return true;	/* no host pattern matches this name */
	key.by_name = 1;
	if (!decide_name_class(walk->db, &key, &decision)) {
		walk->out->decision = pfsel_decision_failed;
		return false;
	}
	if (decision.rule < walk->out->decision.rule) {
		walk->out->decision = decision;
		walk->out->key = key;
	}
	return true;
}

static void decide_one(struct pfsel_policy *const policy,
		       const struct pfsel_subject *const subject,
		       const struct pfsel_request *const request,
		       struct pfsel_outcome *const out)
{
	const struct pfsel_policydb *const db = policy->db;
	struct pfsel_decision res;

	out->policy = policy;
	out->permissive = policy->permissive;
	out->named = false;
	out->expires = 0;
	out->key = (struct pfsel_avc_key){
		.generation = policy->generation,
		.app = pfsel_app_class(subject->app, policy),
		.addr = pfsel_classcache_addr(policy, request->addr,
					      &out->whole_prefix),
		.port = pfsel_classcache_port(policy, request->port),
		.op = request->op,
		.proto = request->proto,
	};
	if (!pfsel_avc_lookup(&out->key, &out->decision)) {
		if (pfsel_policydb_decide(db, out->key.app, out->key.op,
					  out->key.proto, out->key.addr,
					  out->key.port, &res)) {
			out->decision = pfsel_decision_failed;
		} else {
			out->decision.verdict = res.verdict;
			out->decision.audit = res.audit;
			out->decision.rule = res.rule;
			out->decision.names = res.names;
		}
		pfsel_avc_insert(&out->key, &out->decision);
	}

	/*
	 * Host rules: every name the kernel learned for the address may
	 * hold an earlier rule.  The decision by address keeps @names, so
	 * that the caller knows not to remember it as a plain allow.
	 */
	if (out->decision.names && request->net) {
		struct pfsel_name_walk walk = {
			.policy = policy,
			.db = db,
			.out = out,
			.by_address = out->key,
		};

		pfsel_hostmap_names(pfsel_net_hosts(request->net),
				    request->addr, subject->uid,
				    decide_one_name, &walk);
		out->decision.names = 1;
	}
}

static bool wants_audit(const u32 verdict, const u32 audit)
{
	if (verdict == PFSEL_VERDICT_ALLOW)
		return audit & PFSEL_AUDIT_LOG_ALLOWED;
	return !(audit & PFSEL_AUDIT_QUIET_DENIAL);
}

/* Whether @a should speak for the decision rather than @b. */
static bool speaks_before(const struct pfsel_outcome *const a,
			  const struct pfsel_outcome *const b)
{
	const u32 va = a->decision.verdict, vb = b->decision.verdict;

	/*
	 * The stricter policy decides; between equals, the one that asks
	 * for a record, so that no requested record is lost.
	 */
	if (strictness(va) != strictness(vb))
		return strictness(va) > strictness(vb);
	return wants_audit(va, a->decision.audit) &&
	       !wants_audit(vb, b->decision.audit);
}

/*
 * What an unanswered question comes to (@no_answer) and how long it waits
 * (@timeout_ms): the strictest terms among the enforcing policies that ask
 * (unanswered deny over allow; between two that allow, the longer wait).
 * The decider speaks for the question, its rule and its record; but its
 * terms apply to every policy's ask (apply()), so a user policy that asks
 * too, and speaks first (a system "ask ... quiet"), must not bring its own
 * looser terms to the system's ask, nor a permissive one any: else a user
 * policy made stricter (allow to ask) could make the decision looser, and
 * pfsel_compare(), which judges a user policy alone, would be wrong.
 */
static void ask_terms(const struct pfsel_outcome *const outcomes, const int n,
		      const struct pfsel_outcome *const decider,
		      u32 *const no_answer, u32 *const timeout_ms)
{
	bool any = false;
	u32 na, ms;
	int i;

	*no_answer = pfsel_policydb_no_answer(decider->policy->db);
	*timeout_ms = pfsel_policydb_ask_timeout_ms(decider->policy->db);
	for (i = 0; i < n; i++) {
		if (outcomes[i].decision.verdict != PFSEL_VERDICT_ASK ||
		    outcomes[i].permissive)
			continue;
		na = pfsel_policydb_no_answer(outcomes[i].policy->db);
		ms = pfsel_policydb_ask_timeout_ms(outcomes[i].policy->db);
		if (!any || (na != PFSEL_VERDICT_ALLOW &&
			     *no_answer == PFSEL_VERDICT_ALLOW)) {
			*no_answer = na;
			*timeout_ms = ms;
		} else if (na == PFSEL_VERDICT_ALLOW &&
			   *no_answer == PFSEL_VERDICT_ALLOW && ms > *timeout_ms) {
			*timeout_ms = ms;
		}
		any = true;
	}
}

/*
 * Until when a plain allow holds: the first expiry among the names the
 * policies looked at; 0 when they looked at none.
 */
static unsigned long first_expiry(const struct pfsel_outcome *const outcomes,
				  const int n)
{
	unsigned long expires = 0;
	bool any = false;
	int i;

	for (i = 0; i < n; i++) {
		if (!outcomes[i].named ||
		    (any && !time_before(outcomes[i].expires, expires)))
			continue;
		expires = outcomes[i].expires;
		any = true;
	}
	/* 0 says "none": a deadline of 0 is taken a jiffy early. */
	return any && !expires ? expires - 1 : expires;
}

/*
 * Whether a plain allow is the decision of every address of the request's
 * prefix: each policy gave the whole prefix the address's class, so the
 * same key, and no host rule could apply (a name is an address's own).
 * The same classes, application, port, call and policies make the same
 * decisions, with nothing to audit or ask: the same plain allow.
 */
static bool allows_whole_prefix(const struct pfsel_outcome *const outcomes,
				const int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!outcomes[i].whole_prefix || outcomes[i].decision.names)
			return false;
	return true;
}

/* What became of an ask, for the audit record. */
enum pfsel_asked {
	PFSEL_ASKED_NOT,
	PFSEL_ASKED_ANSWERED,
	PFSEL_ASKED_KEPT,
	PFSEL_ASKED_UNANSWERED,
};

/*
 * Applies the decision once any ask is answered (@answer): a denial holds
 * unless every policy that denied is in permissive mode.  The decider's
 * policy must stay valid (RCU or a reference); the others are not looked
 * at.
 */
static int apply(const struct pfsel_subject *const subject,
		 const struct pfsel_request *const request,
		 const struct pfsel_outcome *const outcomes, const int n,
		 const struct pfsel_outcome *const decider, const u32 answer,
		 const enum pfsel_asked asked, bool *const plain)
{
	static const char *const asked_names[] = {
		[PFSEL_ASKED_NOT] = NULL,
		[PFSEL_ASKED_ANSWERED] = "answered",
		[PFSEL_ASKED_KEPT] = "kept",
		[PFSEL_ASKED_UNANSWERED] = "unanswered",
	};
	bool enforced = false;
	u32 verdict;
	int i;

	/*
	 * A plain allow: every policy allows, nothing to ask or audit.  What
	 * host names could change stays right until a name is learned or
	 * learned again anywhere, or a namespace goes, each of which starts
	 * a new epoch (resolver.c, netns.c), or one that the decision looked
	 * at expires: the recent allows keep it until then.
	 */
	*plain = true;
	for (i = 0; i < n; i++) {
		verdict = outcomes[i].decision.verdict;
		if (verdict != PFSEL_VERDICT_ALLOW)
			*plain = false;
		if (verdict == PFSEL_VERDICT_ASK)
			verdict = answer;
		if (verdict != PFSEL_VERDICT_ALLOW && pfsel_enforcing() &&
		    !outcomes[i].permissive)
			enforced = true;
	}

	verdict = decider->decision.verdict;
	if (verdict == PFSEL_VERDICT_ASK)
		verdict = answer;
	if (wants_audit(verdict, decider->decision.audit)) {
		*plain = false;
		pfsel_audit_decision(subject, request, decider->policy,
				     &decider->decision, verdict,
				     verdict != PFSEL_VERDICT_ALLOW && !enforced,
				     asked_names[asked]);
	}
	return enforced ? -EACCES : 0;
}

/*
 * The policies, the AVC, asking: a request the recent allows do not
 * answer.  Out of line, so that a call answered by them neither sets up
 * nor clears (the kernel zeroes stack variables) this function's large
 * frame.
 */
static noinline int decide_uncached(const struct pfsel_subject *const subject,
				    const struct pfsel_request *const request,
				    const u64 epoch)
{
	/*
	 * decide_one() sets every field of the outcomes it makes, the only
	 * ones read: not cleared first, as the kernel would clear them.
	 */
	struct pfsel_outcome outcomes[PFSEL_SLOT_COUNT] __uninitialized;
	struct pfsel_outcome *decider = NULL;
	struct pfsel_policy *policies[PFSEL_SLOT_COUNT];
	enum pfsel_asked asked = PFSEL_ASKED_NOT;
	struct pfsel_question *question = NULL;
	u32 answer = PFSEL_VERDICT_DENY, no_answer = 0, timeout_ms = 0;
	int slot, n = 0, err;
	bool plain;

	rcu_read_lock();
	policies[PFSEL_SLOT_SYSTEM] = pfsel_policy_system();
	policies[PFSEL_SLOT_USER] = pfsel_policy_user(subject->uid);
	for (slot = 0; slot < PFSEL_SLOT_COUNT; slot++) {
		if (!policies[slot])
			continue;
		decide_one(policies[slot], subject, request, &outcomes[n]);
		if (!decider || speaks_before(&outcomes[n], decider))
			decider = &outcomes[n];
		n++;
	}
	if (!decider) {
		rcu_read_unlock();
		return 0;
	}

	if (decider->decision.verdict == PFSEL_VERDICT_ASK) {
		ask_terms(outcomes, n, decider, &no_answer, &timeout_ms);
		answer = no_answer;
		asked = PFSEL_ASKED_UNANSWERED;
		if (pfsel_answers_find(subject, request, &decider->key,
				       &answer)) {
			asked = PFSEL_ASKED_KEPT;
		} else if (subject->task && pfsel_policy_get(decider->policy)) {
			question = pfsel_ask_prepare(subject, request,
						     decider->policy,
						     &decider->key,
						     decider->decision.rule);
			/* Under RCU the published reference remains. */
			if (!question)
				pfsel_policy_put(decider->policy);
		}
	}
	if (!question) {
		err = apply(subject, request, outcomes, n, decider, answer,
			    asked, &plain);
		rcu_read_unlock();
		if (plain)
			pfsel_recent_remember(pfsel_app_id(subject->app),
					      subject->uid, request, epoch,
					      first_expiry(outcomes, n),
					      allows_whole_prefix(outcomes, n));
		return err;
	}
	rcu_read_unlock();

	/* Only the decider's policy is still valid, by its reference. */
	err = pfsel_ask_wait(question, timeout_ms, no_answer, &answer);
	if (err >= 0) {
		asked = err ? PFSEL_ASKED_ANSWERED : PFSEL_ASKED_UNANSWERED;
		err = apply(subject, request, outcomes, n, decider, answer,
			    asked, &plain);
	}
	pfsel_policy_put(decider->policy);
	return err;
}

/**
 * pfsel_decide_fully - Decide a request its prefix's recent allow does not
 *			answer
 *
 * @subject: who makes it.
 * @request: what it is.
 * @epoch: pfsel_recent_epoch(), read before anything else.
 *
 * The address's own recent allow (an allow that host names could change,
 * or in a prefix a policy divides), then the policies, the AVC, asking:
 * see pfsel_decide(), which calls this.
 *
 * Return: as pfsel_decide().
 */
int pfsel_decide_fully(const struct pfsel_subject *const subject,
		       const struct pfsel_request *const request,
		       const u64 epoch)
{
	if (pfsel_recent_allowed(pfsel_app_id(subject->app), subject->uid,
				 request, epoch))
		return 0;
	return decide_uncached(subject, request, epoch);
}

/**
 * pfsel_decide_current_fully - pfsel_decide_fully() for the current task
 *
 * @request: what it asks.
 * @epoch: pfsel_recent_epoch(), read before anything else.
 *
 * Return: as pfsel_decide().
 */
int pfsel_decide_current_fully(const struct pfsel_request *const request,
			       const u64 epoch)
{
	const struct pfsel_subject subject = pfsel_current_subject();

	return pfsel_decide_fully(&subject, request, epoch);
}
