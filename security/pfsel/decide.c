// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Deciding a request
 *
 * A request is decided by the system policy and by the policy of the
 * subject's real uid; the stricter verdict wins: deny over ask over allow
 * (policy/LANGUAGE.md, section 2).  Each policy's decision comes from the
 * access vector cache, or from the policy database on a miss.  An ask is
 * answered by the policy's unanswered verdict until the agent upcall
 * exists.  A denial is let through, and audited as such, in permissive mode:
 * globally, or for a policy compiled "mode permissive;".
 */

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "audit.h"
#include "avc.h"
#include "common.h"
#include "cred.h"
#include "decide.h"
#include "policy.h"

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
 * pfsel_set_enforcing - Switch the global mode, and audit the switch
 *
 * @enforcing: true to enforce denials, false for permissive mode.
 */
void pfsel_set_enforcing(const bool enforcing)
{
	bool old;

	spin_lock(&pfsel_mode_lock);
	old = pfsel_enforcing_mode;
	WRITE_ONCE(pfsel_enforcing_mode, enforcing);
	spin_unlock(&pfsel_mode_lock);
	pfsel_audit_mode(enforcing, old);
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

/* A policy's decision on one request, with its verdict in force. */
struct pfsel_outcome {
	const struct pfsel_policy *policy;
	struct pfsel_avc_decision decision;
	u32 verdict;
};

static void decide_one(const struct pfsel_policy *const policy,
		       const struct pfsel_subject *const subject,
		       const struct pfsel_request *const request,
		       struct pfsel_outcome *const out)
{
	const struct pfsel_policydb *const db = policy->db;
	struct pfsel_avc_key key = {
		.generation = policy->generation,
		.app = pfsel_app_class(subject->app, policy),
		.addr = pfsel_policydb_classify_addr(db, request->addr),
		.port = pfsel_policydb_classify_port(db, request->port),
		.op = request->op,
		.proto = request->proto,
	};
	struct pfsel_decision res;

	out->policy = policy;
	if (!pfsel_avc_lookup(&key, &out->decision)) {
		if (pfsel_policydb_decide(db, key.app, key.op, key.proto,
					  key.addr, key.port, &res)) {
			/*
			 * A validated policy answers every request it can be
			 * asked; should it not, fail closed.
			 */
			res.verdict = PFSEL_VERDICT_DENY;
			res.audit = 0;
			res.rule = PFSEL_NONE;
		}
		out->decision.verdict = res.verdict;
		out->decision.audit = res.audit;
		out->decision.rule = res.rule;
		pfsel_avc_insert(&key, &out->decision);
	}

	out->verdict = out->decision.verdict;
	if (out->verdict == PFSEL_VERDICT_ASK)
		out->verdict = pfsel_policydb_no_answer(db);
}

static bool wants_audit(const struct pfsel_outcome *const outcome)
{
	if (outcome->verdict == PFSEL_VERDICT_ALLOW)
		return outcome->decision.audit & PFSEL_AUDIT_LOG_ALLOWED;
	return !(outcome->decision.audit & PFSEL_AUDIT_QUIET_DENIAL);
}

/**
 * pfsel_decide - Decide a request
 *
 * @subject: who makes it.
 * @request: what it is.
 *
 * Callable in process context and in softirq: nothing here sleeps.
 *
 * Return: 0 to allow, -EACCES to deny.
 */
int pfsel_decide(const struct pfsel_subject *const subject,
		 const struct pfsel_request *const request)
{
	const struct pfsel_policy *policies[PFSEL_SLOT_COUNT];
	struct pfsel_outcome outcome, decider = {};
	bool enforced = false;
	int slot;

	if (!pfsel_policy_any())
		return 0;

	rcu_read_lock();
	policies[PFSEL_SLOT_SYSTEM] = pfsel_policy_system();
	policies[PFSEL_SLOT_USER] = pfsel_policy_user(subject->uid);
	for (slot = 0; slot < PFSEL_SLOT_COUNT; slot++) {
		if (!policies[slot])
			continue;
		decide_one(policies[slot], subject, request, &outcome);
		/*
		 * Permissive mode relaxes only the policy it is set for: an
		 * enforcing system policy still holds under a permissive user
		 * policy, and the reverse.
		 */
		if (outcome.verdict != PFSEL_VERDICT_ALLOW && pfsel_enforcing() &&
		    !outcome.policy->permissive)
			enforced = true;
		/*
		 * The stricter policy speaks for the decision in the audit
		 * log; between equals, the one that asks for a record, so
		 * that no requested record is lost.
		 */
		if (!decider.policy ||
		    strictness(outcome.verdict) > strictness(decider.verdict) ||
		    (outcome.verdict == decider.verdict &&
		     !wants_audit(&decider) && wants_audit(&outcome)))
			decider = outcome;
	}

	if (decider.policy && wants_audit(&decider))
		pfsel_audit_decision(subject, request, decider.policy,
				     &decider.decision, decider.verdict,
				     decider.verdict != PFSEL_VERDICT_ALLOW &&
					     !enforced);
	rcu_read_unlock();
	return enforced ? -EACCES : 0;
}

/**
 * pfsel_decide_current - Decide a request of the current task
 *
 * @request: what it is.
 *
 * Return: 0 to allow, -EACCES to deny.
 */
int pfsel_decide_current(const struct pfsel_request *const request)
{
	const struct cred *const cred = current_cred();
	const struct pfsel_subject subject = {
		.app = pfsel_cred(cred)->app,
		.uid = cred->uid,
		.task = true,
	};

	return pfsel_decide(&subject, request);
}
