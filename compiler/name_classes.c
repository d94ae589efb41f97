// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, step 2b: host name classes and NAME_PATTERNS
 *
 * The kernel classifies a learned name n by the NAME_PATTERNS table
 * (policy/FORMAT.md, "Name classification"): the entry equal to n with an
 * exact class, else the entry equal to the longest proper suffix of n
 * after a '.' with a tree class, else class 0.  So the names one entry
 * classifies are: for EXACT, the name itself; for TREE, the names below it
 * that no exact entry and no longer tree entry takes.  The patterns such a
 * name matches are then fixed: the entry's own, and the tree patterns of
 * the entry's proper suffixes ("*.example.org" and "*.org" for
 * "www.example.org").  A name class is a distinct list of the rules with a
 * host element among those patterns; class 0, the empty list, is that of
 * every name no element matches.  docs/LOWERING.md, section 2b.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lower_steps.h"

enum { NAME_EXACT, NAME_TREE };

static int cmp_name_ent(const void *a, const void *b)
{
	return strcmp(((const struct name_ent *)a)->name,
		      ((const struct name_ent *)b)->name);
}

/* Gather the names of every rule's host elements, sorted. */
static int collect_names(struct lower *l, struct strmap *map)
{
	const struct pfw_policy *pol = l->pol;

	for (size_t r = 0; r < pol->n_rules; r++) {
		const struct pfw_rule *rule = &pol->rules[r];

		for (size_t h = 0; h < rule->n_hosts; h++) {
			const struct pfw_host *host = &rule->hosts[h];
			size_t len = strlen(host->name);
			uint32_t e = strmap_get(map, host->name, len);
			int slot = host->below ? NAME_TREE : NAME_EXACT;

			if (e == PFSEL_NONE) {
				struct name_ent ent = {
					.name = host->name,
					.cls = { PFSEL_NONE, PFSEL_NONE },
				};

				if (PFW_PUSH(l->names, l->n_names, l->cap_names,
					     ent) ||
				    strmap_put(map, host->name, len,
					       l->n_names - 1))
					return -ENOMEM;
				e = l->n_names - 1;
			}
			l->names[e].flags |= slot == NAME_TREE ?
						     PFSEL_NAME_TREE :
						     PFSEL_NAME_EXACT;
			if (u32vec_push(&l->names[e].rules[slot], r))
				return -ENOMEM;
		}
	}
	if (l->n_names)
		qsort(l->names, l->n_names, sizeof(*l->names), cmp_name_ent);
	free(map->slots);
	memset(map, 0, sizeof(*map));
	for (size_t e = 0; e < l->n_names; e++)
		if (strmap_put(map, l->names[e].name, strlen(l->names[e].name),
			       e))
			return -ENOMEM;
	return 0;
}

/*
 * The rule list of the names entry @e classifies in @slot, into l->tmp:
 * its own rules and those of the tree patterns of its proper suffixes.
 */
static int class_rules(struct lower *l, const struct strmap *map, size_t e,
		       int slot)
{
	const struct name_ent *ent = &l->names[e];
	const struct u32vec *own = &ent->rules[slot];

	l->tmp.n = 0;
	for (size_t i = 0; i < own->n; i++)
		if (u32vec_push(&l->tmp, own->v[i]))
			return -ENOMEM;
	for (const char *dot = strchr(ent->name, '.'); dot;
	     dot = strchr(dot + 1, '.')) {
		uint32_t s = strmap_get(map, dot + 1, strlen(dot + 1));
		const struct u32vec *tree;

		if (s == PFSEL_NONE)
			continue;
		tree = &l->names[s].rules[NAME_TREE];
		for (size_t i = 0; i < tree->n; i++)
			if (u32vec_push(&l->tmp, tree->v[i]))
				return -ENOMEM;
	}
	u32vec_sort_unique(&l->tmp);
	return 0;
}

int lower_name_classes(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	static const uint32_t none;
	struct strmap map = { 0 };
	int err = collect_names(l, &map);

	/* Class 0: the empty list, whatever the policy. */
	if (!err && seqtab_intern(&l->name_classes, &none, 0) != 0)
		err = -ENOMEM;
	for (size_t e = 0; !err && e < l->n_names; e++) {
		for (int slot = NAME_EXACT; slot <= NAME_TREE; slot++) {
			long cls;

			if (!l->names[e].rules[slot].n)
				continue;
			err = class_rules(l, &map, e, slot);
			if (err)
				break;
			cls = seqtab_intern(&l->name_classes, l->tmp.v,
					    l->tmp.n);
			if (cls < 0) {
				err = cls;
				break;
			}
			l->names[e].cls[slot] = cls;
		}
	}
	free(map.slots);
	if (err)
		return err;
	low->n_name_classes = l->name_classes.n_items;
	low->name_patterns =
		calloc(l->n_names + 1, sizeof(*low->name_patterns));
	l->in_cell = calloc(l->pol->n_rules + 1, sizeof(*l->in_cell));
	if (!low->name_patterns || !l->in_cell)
		return -ENOMEM;
	for (size_t e = 0; e < l->n_names; e++) {
		long str = lower_intern_string(l, l->names[e].name);

		if (str < 0)
			return str;
		low->name_patterns[e] = (struct low_path){
			.str = str,
			.flags = l->names[e].flags,
			.exact = l->names[e].cls[NAME_EXACT],
			.child = PFSEL_NONE,
			.tree = l->names[e].cls[NAME_TREE],
		};
	}
	low->n_name_patterns = l->n_names;
	return 0;
}

void lower_names_free(struct lower *l)
{
	for (size_t e = 0; e < l->n_names; e++) {
		free(l->names[e].rules[NAME_EXACT].v);
		free(l->names[e].rules[NAME_TREE].v);
	}
	free(l->names);
	seqtab_free(&l->name_classes);
	free(l->in_cell);
}
