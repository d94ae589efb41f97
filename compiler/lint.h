/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - warnings about resolved rules (lint.c); sema runs them once the
 * names are resolved.  The rest of sema's warnings (repeated or nested list
 * members, unused names) come from resolution itself.
 */
#ifndef PFWC_LINT_H
#define PFWC_LINT_H

#include "ast.h"
#include "diag.h"

/* -Waudit and -Wprotect about one resolved rule. */
void pfw_lint_rule(const struct pfw_rule *rule, struct pfw_diag *diag);

/*
 * -Wshadow: warn about each rule that an earlier rule covers, and set its
 * shadowed_by.  Quadratic, bounded by PFW_PAIR_BUDGET; skipped when the
 * warning is off.
 */
void pfw_lint_shadowed(struct pfw_policy *policy, struct pfw_diag *diag);

#endif /* PFWC_LINT_H */
