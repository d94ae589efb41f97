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

void pfsel_audit_decision(const struct pfsel_subject *subject,
			  const struct pfsel_request *request,
			  const struct pfsel_policy *policy,
			  const struct pfsel_avc_decision *decision,
			  u32 verdict, bool permissive, const char *asked);
void pfsel_audit_mode(bool enforcing, bool old_enforcing);
void pfsel_audit_policy_change(const char *what, enum pfsel_policy_slot slot,
			       kuid_t uid, u32 generation);

#endif /* _SECURITY_PFSEL_AUDIT_H */
