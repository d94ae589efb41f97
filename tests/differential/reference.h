/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reference interpreter: the first-match semantics of a .pfw policy,
 * written as plainly as possible so that it can be trusted by reading it.
 *
 * It knows nothing of equivalence classes, decision tables or the binary
 * format; it walks the resolved rules of the AST in order.  The differential
 * test holds the pfsel evaluator and the libsepol export to its answers.
 */
#ifndef PFSEL_TESTS_REFERENCE_H
#define PFSEL_TESTS_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

/*
 * A request is compiler/ast.h's struct pfw_request, which pfsel-agent's
 * rule file is matched with too (pfw_first_match()): one access as the
 * kernel presents it.  The matching below is this file's own.
 */

/*
 * struct ref_decision - what the policy says about a request
 * @verdict: the deciding rule's verdict, or the default verdict
 * @audit:   the audit flags of that rule or of the default
 * @rule:    index of the deciding rule, or -1 for the default
 */
struct ref_decision {
	enum pfw_verdict verdict;
	uint32_t audit;
	long rule;
};

void ref_decide(const struct pfw_policy *policy,
		const struct pfw_request *request,
		struct ref_decision *decision);

/*
 * Whether @policy protects the application (@exe, @script or NULL): some
 * rule that says "protect" names it, whatever that rule decides.
 */
bool ref_protected(const struct pfw_policy *policy, const char *exe,
		   const char *script);

#endif /* PFSEL_TESTS_REFERENCE_H */
