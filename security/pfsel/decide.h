/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Deciding a request
 */

#ifndef _SECURITY_PFSEL_DECIDE_H
#define _SECURITY_PFSEL_DECIDE_H

#include <linux/cred.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "app.h"
#include "classify.h"
#include "cred.h"
#include "policy.h"
#include "recent.h"

int pfsel_decide_fully(const struct pfsel_subject *subject,
		       const struct pfsel_request *request, u64 epoch);
int pfsel_decide_current_fully(const struct pfsel_request *request, u64 epoch);

bool pfsel_enforcing(void);
bool pfsel_swap_enforcing(bool enforcing);

/*
 * The inline part of a decision: true if the request may go at once, as
 * no policy is loaded or this CPU allowed its whole prefix plainly in the
 * current epoch (recent.h); otherwise *@epoch is what pfsel_decide_fully()
 * needs, which looks for the address's own entry first.
 */
static __always_inline bool
pfsel_allowed_at_once(const struct pfsel_app *const app, const kuid_t uid,
		      const struct pfsel_request *const request,
		      u64 *const epoch)
{
	if (!pfsel_policy_any())
		return true;
	*epoch = pfsel_recent_epoch();
	return pfsel_recent_prefix_allowed(pfsel_app_id(app), uid, request,
					   *epoch);
}

/**
 * pfsel_decide - Decide a request
 *
 * @subject: who makes it.
 * @request: what it is.
 *
 * A request this CPU allowed plainly in the current epoch is allowed
 * again at once; the lookup of its prefix's entry is inline, since it is
 * all that most decided calls cost.  Everything else is
 * pfsel_decide_fully()'s.
 *
 * When the decision is "ask", a task (@subject->task) waits for its
 * agent's answer (ask.c); an inbound connection, decided in softirq, can
 * only use an answer kept for the session, and otherwise gets the
 * unanswered verdict.  Nothing else here sleeps.
 *
 * Return: 0 to allow, -EACCES to deny, -EINTR if a fatal signal ended the
 * wait for an answer.
 */
static __always_inline int pfsel_decide(const struct pfsel_subject *subject,
					const struct pfsel_request *request)
{
	u64 epoch;

	if (pfsel_allowed_at_once(subject->app, subject->uid, request, &epoch))
		return 0;
	return pfsel_decide_fully(subject, request, epoch);
}

/**
 * pfsel_current_allowed_at_once - pfsel_allowed_at_once() for the current
 *				   task
 *
 * @request: what it asks; only the fields of its recent allow's key
 *	     (pfsel_recent_key()) are read.
 * @epoch: set as pfsel_allowed_at_once() sets it.
 *
 * Return: as pfsel_allowed_at_once().
 */
static __always_inline bool
pfsel_current_allowed_at_once(const struct pfsel_request *const request,
			      u64 *const epoch)
{
	const struct cred *const cred = current_cred();

	return pfsel_allowed_at_once(pfsel_cred(cred)->app, cred->uid, request,
				     epoch);
}

/**
 * pfsel_decide_current - Decide a request of the current task
 *
 * @request: what it is.
 *
 * The subject is only built for pfsel_decide_fully(), out of line.
 *
 * Return: as pfsel_decide().
 */
static __always_inline int
pfsel_decide_current(const struct pfsel_request *request)
{
	u64 epoch;

	if (pfsel_current_allowed_at_once(request, &epoch))
		return 0;
	return pfsel_decide_current_fully(request, epoch);
}

#endif /* _SECURITY_PFSEL_DECIDE_H */
