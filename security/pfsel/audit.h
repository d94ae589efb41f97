/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Audit records of decisions
 */

#ifndef _SECURITY_PFSEL_AUDIT_H
#define _SECURITY_PFSEL_AUDIT_H

#include <linux/types.h>

#include "avc.h"
#include "classify.h"
#include "decide.h"
#include "policy.h"

void pfsel_audit_decision(const struct pfsel_subject *subject,
			  const struct pfsel_request *request,
			  const struct pfsel_policy *policy,
			  const struct pfsel_avc_decision *decision,
			  u32 verdict, bool permissive, const char *asked);
void pfsel_audit_mode(bool enforcing, bool old_enforcing);

#endif /* _SECURITY_PFSEL_AUDIT_H */
