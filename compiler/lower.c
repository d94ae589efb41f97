// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, the driver: from the resolved AST to the decision
 * structure of the binary format.  docs/LOWERING.md explains the algorithm
 * and its costs.  This file fills in the settings, the rule table and the
 * string table, runs the three steps in order and frees their state:
 *
 *  1. address and port classes              (addr_port_classes.c)
 *  2. application keys, classes, protection, resolvers (app_classes.c)
 *  2b. host name classes                    (name_classes.c)
 *  3. groups, cells, slabs, name slabs and rows (decision_groups.c)
 *
 * Their shared state is struct lower (lower_steps.h); the hash-consing
 * tables and maps they use are in containers.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lower_steps.h"

/* The index of @s in the string table, added if new. */
long lower_intern_string(struct lower *l, const char *s)
{
	struct pfw_lowered *low = l->low;
	size_t len = strlen(s);
	uint32_t idx = strmap_get(&l->strings, s, len);
	struct low_string str;

	if (idx != PFSEL_NONE)
		return idx;
	if (len > PFSEL_POLICY_MAX_STRING || low->n_strings >= PFSEL_NONE - 1)
		return -E2BIG;
	str.s = strdup(s);
	str.len = len;
	if (!str.s ||
	    PFW_PUSH(low->strings, low->n_strings, l->cap_strings, str)) {
		free(str.s);
		return -ENOMEM;
	}
	if (strmap_put(&l->strings, str.s, len, low->n_strings - 1))
		return -ENOMEM;
	return low->n_strings - 1;
}

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
		err = lower_addr_classes(&l);
	if (!err)
		err = lower_port_classes(&l);
	if (!err)
		err = lower_patterns(&l);
	if (!err)
		err = lower_apps(&l);
	if (!err)
		err = lower_protected(&l);
	if (!err)
		err = lower_path_table(&l, &l.exe, &l.low->exe_paths,
				       &l.low->n_exe_paths);
	if (!err)
		err = lower_path_table(&l, &l.script, &l.low->script_paths,
				       &l.low->n_script_paths);
	if (!err)
		err = lower_resolvers(&l);
	if (!err)
		err = lower_name_classes(&l);
	if (!err)
		err = lower_groups(&l);
	if (!err)
		err = lower_rows(&l);

	lower_names_free(&l);
	lower_dim_free(&l.exe);
	lower_dim_free(&l.script);
	for (size_t i = 0; l.plain && i < l.exe.n_ents * N_SLOTS + 1; i++)
		free(l.plain[i].v);
	free(l.plain);
	free(l.global.v);
	free(l.pairs);
	seqtab_free(&l.apps);
	seqtab_free(&l.groups);
	seqtab_free(&l.rows);
	free(l.rects);
	free(l.tmp.v);
	free(l.tmp2.v);
	free(l.base.v);
	free(l.port_class);
	free(l.strings.slots);
	if (err) {
		pfw_lowered_free(l.low);
		return err;
	}
	*out = l.low;
	return 0;
}
