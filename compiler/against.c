// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc --against: which rules of a user policy the system policy overrides
 * (-Woverride).  The kernel applies the stricter of the two policies'
 * decisions, so a user rule is overridden where the system policy decides
 * something stricter: deny over ask over allow.
 */
#include <assert.h>
#include <stdlib.h>

#include "against.h"
#include "lexer.h"
#include "rule_relations.h"

static int strictness(enum pfw_verdict verdict)
{
	return verdict == PFW_VERDICT_DENY ? 2 :
	       verdict == PFW_VERDICT_ASK  ? 1 :
					     0;
}

static_assert(PFW_KW_DENY - PFW_KW_ALLOW == PFW_VERDICT_DENY &&
		      PFW_KW_ASK - PFW_KW_ALLOW == PFW_VERDICT_ASK,
	      "verdicts are named by their keywords");

static const char *verdict_name(enum pfw_verdict verdict)
{
	return pfw_keyword_names[PFW_KW_ALLOW + verdict];
}

void pfw_against_system(const struct pfw_policy *user,
		      const struct pfw_policy *system, struct pfw_diag *diag)
{
	unsigned long long budget = PFW_PAIR_BUDGET;
	struct rule_box *user_boxes, *system_boxes;

	if (!diag->enabled[PFW_W_OVERRIDE])
		return;
	user_boxes = pfw_rule_boxes(user);
	system_boxes = pfw_rule_boxes(system);
	for (size_t u = 0; u < user->n_rules; u++) {
		const struct pfw_rule *rule = &user->rules[u];
		bool covered = false;

		if (rule->verdict == PFW_VERDICT_DENY)
			continue; /* nothing is stricter than deny */
		for (size_t i = 0; i < system->n_rules && !covered; i++) {
			const struct pfw_rule *floor = &system->rules[i];

			if (!pfw_spend_pair(&budget, diag, "override"))
				goto out;
			if (!pfw_rules_intersect(floor, &system_boxes[i], rule,
					     &user_boxes[u]))
				continue;
			covered = pfw_rule_covers(floor, &system_boxes[i], rule,
					      &user_boxes[u]);
			if (strictness(floor->verdict) <=
			    strictness(rule->verdict))
				continue;
			pfw_warn(
				diag, PFW_W_OVERRIDE, &rule->loc,
				"the system policy says '%s' for %s requests this rule would %s",
				verdict_name(floor->verdict),
				covered ? "all" : "some",
				verdict_name(rule->verdict));
			pfw_note(diag, &floor->loc, "the system rule is here");
			covered = true; /* one report per rule is enough */
		}
		if (!covered && strictness(system->settings.default_verdict) >
					strictness(rule->verdict))
			pfw_warn(
				diag, PFW_W_OVERRIDE, &rule->loc,
				"the system policy's default '%s' applies to requests of this rule that no system rule matches",
				verdict_name(system->settings.default_verdict));
	}
out:
	free(user_boxes);
	free(system_boxes);
}
