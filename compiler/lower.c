// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, the driver: from the resolved AST to the decision
 * structure of the binary format.  docs/LOWERING.md explains the algorithm
 * and its costs.  This file fills in the settings and the rule table, runs
 * the steps in order on their shared state (struct lower, lower_state.h)
 * and frees it:
 *
 *  1. address and port classes              (addr_port_classes.h)
 *  2. application keys, classes, protection, resolvers (app_classes.h)
 *  2b. host name classes                    (name_classes.h)
 *  3. groups, cells, slabs, name slabs and rows (decision_groups.h)
 *
 * Only this file calls the steps, and a step calls none of the others:
 * what one leaves for the next is in struct lower.
 */
#include <errno.h>
#include <stdlib.h>

#include "addr_port_classes.h"
#include "app_classes.h"
#include "decision_groups.h"
#include "lower.h"
#include "lower_state.h"
#include "name_classes.h"

static int lower_rules(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	struct pfw_lowered *low = l->low;

	if (pol->n_rules >= PFSEL_NONE)
		return -E2BIG;
	low->rules = calloc(pol->n_rules + 1, sizeof(*low->rules));
	if (!low->rules)
		return -ENOMEM;
	for (size_t r = 0; r < pol->n_rules; r++) {
		const struct pfw_rule *rule = &pol->rules[r];
		long file = lower_intern_string(
			l, rule->loc.file ? rule->loc.file : "");

		if (file < 0)
			return file;
		low->rules[r] = (struct low_rule){ rule->verdict, rule->audit,
						   file, rule->loc.line,
						   rule->loc.col };
	}
	low->n_rules = pol->n_rules;
	return 0;
}

void pfw_lowered_free(struct pfw_lowered *low)
{
	if (!low)
		return;
	for (size_t i = 0; i < low->n_strings; i++)
		free(low->strings[i].s);
	free(low->strings);
	free(low->rules);
	free(low->ports);
	free(low->addrs);
	free(low->runs);
	free(low->rows);
	free(low->slabs);
	free(low->cells);
	free(low->groups);
	free(low->grouplist);
	free(low->apps);
	free(low->pairs);
	free(low->exes);
	free(low->exe_paths);
	free(low->script_paths);
	free(low->protected);
	free(low->name_slabs);
	free(low->name_cells);
	free(low->name_patterns);
	free(low->resolvers);
	free(low);
}

int pfw_lower(const struct pfw_policy *policy, struct pfw_lowered **out)
{
	const struct pfw_settings *set = &policy->settings;
	struct lower l = { .pol = policy };
	int err;

	l.low = calloc(1, sizeof(*l.low));
	if (!l.low)
		return -ENOMEM;
	l.low->flags = set->is_system ? PFSEL_POLICY_F_SYSTEM : 0;
	if (set->permissive)
		l.low->flags |= PFSEL_POLICY_F_PERMISSIVE;
	l.low->uid = set->is_system ? 0 : set->uid;
	l.low->default_verdict = set->default_verdict;
	l.low->default_audit = set->default_audit;
	l.low->no_answer = set->no_answer;
	l.low->ask_timeout_ms = set->ask_timeout_ms;

	err = lower_rules(&l);
	if (!err)
		err = lower_addr_port_classes(&l);
	if (!err)
		err = lower_app_classes(&l);
	if (!err)
		err = lower_name_classes(&l);
	if (!err)
		err = lower_decision_groups(&l);
	lower_state_free(&l);
	if (err) {
		pfw_lowered_free(l.low);
		return err;
	}
	*out = l.low;
	return 0;
}
