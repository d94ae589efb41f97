/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Recent allows, per CPU
 */

#ifndef _SECURITY_PFSEL_RECENT_H
#define _SECURITY_PFSEL_RECENT_H

#include <linux/types.h>

#include "classify.h"
#include "decide.h"

u64 pfsel_recent_epoch(void);
void pfsel_recent_invalidate(void);
bool pfsel_recent_allowed(const struct pfsel_subject *subject,
			  const struct pfsel_request *request, u64 epoch);
void pfsel_recent_remember(const struct pfsel_subject *subject,
			   const struct pfsel_request *request, u64 epoch);

#endif /* _SECURITY_PFSEL_RECENT_H */
