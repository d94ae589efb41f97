/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc --against: comparing a user policy with the system policy (against.c)
 */
#ifndef PFWC_AGAINST_H
#define PFWC_AGAINST_H

#include "ast.h"
#include "diag.h"

/*
 * Warn (-Woverride) about each rule of the resolved user policy @user that
 * the resolved system policy @system overrides for some of its requests:
 * where the system policy decides something stricter (deny over ask over
 * allow), since the kernel applies the stricter of the two.  Bounded by
 * PFW_PAIR_BUDGET comparisons.
 */
void pfw_against_system(const struct pfw_policy *user,
			const struct pfw_policy *system, struct pfw_diag *diag);

#endif /* PFWC_AGAINST_H */
