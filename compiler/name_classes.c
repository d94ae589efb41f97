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

#include "name_classes.h"

enum { NAME_EXACT, NAME_TREE };

/*
 * One name of the policy's host elements: "NAME" (EXACT) and/or "*.NAME"
 * (TREE), the rules that wrote each, and the name class of each.
 */
struct name_ent {
	const char *name;
	uint32_t flags; /* PFSEL_NAME_* */
	struct u32vec rules[2]; /* [0] exact, [1] tree: rule indexes */
	uint32_t cls[2]; /* name class, or PFSEL_NONE */
};

/*
 * What this step needs only while it runs; what it leaves for step 3 is
 * l->name_classes.
 */
struct name_build {
	struct lower *l;
	struct name_ent *names; /* sorted by name */
	size_t n_names, cap_names;
	struct strmap map; /* name -> entry */
	struct u32vec rules; /* scratch: one class's rule list */
};

static int cmp_name_ent(const void *a, const void *b)
{
	return strcmp(((const struct name_ent *)a)->name,
		      ((const struct name_ent *)b)->name);
}

/* Gather the names of every rule's host elements, sorted. */
static int collect_names(struct name_build *b)
{
	const struct pfw_policy *pol = b->l->pol;
	struct strmap *map = &b->map;

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

				if (PFW_PUSH(b->names, b->n_names, b->cap_names,
					     ent) ||
				    strmap_put(map, host->name, len,
					       b->n_names - 1))
					return -ENOMEM;
				e = b->n_names - 1;
			}
			b->names[e].flags |= slot == NAME_TREE ?
						     PFSEL_NAME_TREE :
						     PFSEL_NAME_EXACT;
			if (u32vec_push(&b->names[e].rules[slot], r))
				return -ENOMEM;
		}
	}
	if (b->n_names)
		qsort(b->names, b->n_names, sizeof(*b->names), cmp_name_ent);
	free(map->slots);
	memset(map, 0, sizeof(*map));
	for (size_t e = 0; e < b->n_names; e++)
		if (strmap_put(map, b->names[e].name, strlen(b->names[e].name),
			       e))
			return -ENOMEM;
	return 0;
}

/*
 * The rule list of the names entry @e classifies in @slot, into b->rules:
 * its own rules and those of the tree patterns of its proper suffixes.
 */
static int class_rules(struct name_build *b, size_t e, int slot)
{
	const struct name_ent *ent = &b->names[e];
	const struct u32vec *own = &ent->rules[slot];

	b->rules.n = 0;
	for (size_t i = 0; i < own->n; i++)
		if (u32vec_push(&b->rules, own->v[i]))
			return -ENOMEM;
	for (const char *dot = strchr(ent->name, '.'); dot;
	     dot = strchr(dot + 1, '.')) {
		uint32_t s = strmap_get(&b->map, dot + 1, strlen(dot + 1));
		const struct u32vec *tree;

		if (s == PFSEL_NONE)
			continue;
		tree = &b->names[s].rules[NAME_TREE];
		for (size_t i = 0; i < tree->n; i++)
			if (u32vec_push(&b->rules, tree->v[i]))
				return -ENOMEM;
	}
	u32vec_sort_unique(&b->rules);
	return 0;
}

/* The name classes of every entry, l->name_classes; class 0 first. */
static int intern_classes(struct name_build *b)
{
	struct seqtab *classes = &b->l->name_classes;
	static const uint32_t none;

	/* Class 0: the empty list, whatever the policy. */
	if (seqtab_intern(classes, &none, 0) != 0)
		return -ENOMEM;
	for (size_t e = 0; e < b->n_names; e++) {
		for (int slot = NAME_EXACT; slot <= NAME_TREE; slot++) {
			long cls;
			int err;

			if (!b->names[e].rules[slot].n)
				continue;
			err = class_rules(b, e, slot);
			if (err)
				return err;
			cls = seqtab_intern(classes, b->rules.v, b->rules.n);
			if (cls < 0)
				return cls;
			b->names[e].cls[slot] = cls;
		}
	}
	return 0;
}

/* NAME_PATTERNS: each entry, its name in the string table, its classes. */
static int name_patterns(struct name_build *b)
{
	struct pfw_lowered *low = b->l->low;

	low->n_name_classes = b->l->name_classes.n_items;
	low->name_patterns =
		calloc(b->n_names + 1, sizeof(*low->name_patterns));
	if (!low->name_patterns)
		return -ENOMEM;
	for (size_t e = 0; e < b->n_names; e++) {
		long str = lower_intern_string(b->l, b->names[e].name);

		if (str < 0)
			return str;
		low->name_patterns[e] = (struct low_path){
			.str = str,
			.flags = b->names[e].flags,
			.exact = b->names[e].cls[NAME_EXACT],
			.child = PFSEL_NONE,
			.tree = b->names[e].cls[NAME_TREE],
		};
	}
	low->n_name_patterns = b->n_names;
	return 0;
}

int lower_name_classes(struct lower *l)
{
	struct name_build b = { .l = l };
	int err = collect_names(&b);

	if (!err)
		err = intern_classes(&b);
	if (!err)
		err = name_patterns(&b);
	for (size_t e = 0; e < b.n_names; e++) {
		free(b.names[e].rules[NAME_EXACT].v);
		free(b.names[e].rules[NAME_TREE].v);
	}
	free(b.names);
	free(b.map.slots);
	free(b.rules.v);
	return err;
}
