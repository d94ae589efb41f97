/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - semantic checks: from the parsed AST to the resolved view
 *
 * pfw_sema() resolves names (definitions, built-in host names, services),
 * normalises every rule's sets to the invariants documented in ast.h, fills
 * in the settings' defaults, and warns about repeated or nested list
 * members and unused names; then it runs the warnings about resolved rules
 * (lint.h).  against.h compares a user policy with the system policy.
 */
#ifndef PFWC_SEMA_H
#define PFWC_SEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"
#include "services.h"

/* Deepest chain of definitions that use definitions. */
#define PFW_NAME_DEPTH_MAX 64

struct pfw_sema_options {
	const struct pfw_services *services; /* may be NULL: no services */
	bool force_system; /* --system */
	bool force_uid; /* --uid given */
	uint32_t uid; /* its value */
};

/*
 * Check and resolve @policy in place.  Returns true if no error was
 * reported (warnings made errors by -Werror count as errors).
 */
bool pfw_sema(struct pfw_policy *policy, const struct pfw_sema_options *options,
	      struct pfw_diag *diag);

/*
 * Built-in host names ("loopback", "private", ...): the members of @name, or
 * 0 if it is not one.  *@cidrs points at a static array.
 */
size_t pfw_builtin_hosts(const char *name, const struct pfw_cidr **cidrs);

#endif /* PFWC_SEMA_H */
