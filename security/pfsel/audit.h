/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Audit records of decisions and changes
 */

#ifndef _SECURITY_PFSEL_AUDIT_H
#define _SECURITY_PFSEL_AUDIT_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include <uapi/linux/pfsel.h>

#include "app.h"
#include "avc.h"
#include "classify.h"
#include "policy.h"

/**
 * struct pfsel_refused - A refusal that no rule decided, for its record
 *
 * @what: enum pfsel_refusal.
 * @op: the call refused: the operation of the request it stands for
 *      ("create", "connect"), or the call itself where it makes none
 *      ("setsockopt", "sendmsg", "exec", "open").
 * @request: the socket's family, protocol and ends (pfsel_classify_ends(),
 *           or the request of the send), or NULL for a call on no inet
 *           socket.
 * @family: for PFSEL_REFUSED_FAMILY, the family's name
 *          (pfsel_classify_family_unruled()); else NULL.
 * @variable: for PFSEL_REFUSED_SCRIPT_ENVIRONMENT, the variable of
 *            scriptenv.c's table ("BASH_FUNC_" stands for the names it
 *            starts); NULL when the environment could not be read.
 * @slot: the policy that restrains the user or protects the application;
 *        PFSEL_SLOT_COUNT when no policy is what refuses.
 * @permissive: a refusal that was let through (permissive mode).
 * @has_target: for PFSEL_REFUSED_ADMIN, the change was for a policy (a
 *              user's also for a user's answers or agent):
 * @target_slot: @target_uid: that policy.
 */
struct pfsel_refused {
	enum pfsel_refusal what;
	const char *op;
	const struct pfsel_request *request;
	const char *family;
	const char *variable;
	enum pfsel_policy_slot slot;
	bool permissive;
	bool has_target;
	enum pfsel_policy_slot target_slot;
	kuid_t target_uid;
};

void pfsel_audit_decision(const struct pfsel_subject *subject,
			  const struct pfsel_request *request,
			  const struct pfsel_policy *policy,
			  const struct pfsel_avc_decision *decision,
			  u32 verdict, bool permissive, const char *asked);
void pfsel_audit_refusal(const struct pfsel_subject *subject,
			 const struct pfsel_refused *refused);
void pfsel_audit_mode(bool enforcing, bool old_enforcing);
void pfsel_audit_policy_change(const char *what, enum pfsel_policy_slot slot,
			       kuid_t uid, u32 generation);

#endif /* _SECURITY_PFSEL_AUDIT_H */
