/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the lowering's working state and its steps (internal to the
 * lowering; docs/LOWERING.md has the algorithm):
 *
 *   lower.c              the driver: settings, rules, strings, the steps
 *                        in order, and what they leave behind freed
 *   addr_port_classes.c  step 1: address and port classes
 *   app_classes.c        step 2: application keys and classes, protection,
 *                        resolvers, the path tables
 *   name_classes.c       step 2b: host name classes, NAME_PATTERNS
 *   decision_groups.c    step 3: groups, cells, slabs and rows
 *
 * Each step fills tables of l->low (struct pfw_lowered) and returns 0 or a
 * negative errno (-ENOMEM, or -E2BIG past what the format can index).
 */
#ifndef PFWC_LOWER_STEPS_H
#define PFWC_LOWER_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "containers.h"
#include "lower.h"
#include "pfsel_policy.h"

/* Pattern slots of a path entry; a pattern id is entry * 3 + slot. */
enum { SLOT_EXACT, SLOT_CHILD, SLOT_TREE, N_SLOTS };

/*
 * One application dimension (executables or scripts): the paths its
 * patterns name, the keys a concrete path can have (= its classes), and
 * per key the patterns that match it.
 */
struct dim {
	struct strmap map; /* path -> entry */
	struct pentry {
		const char *path;
		uint32_t flags;
		uint32_t key[N_SLOTS];
	} * ents;
	size_t n_ents, cap_ents;
	bool has_any; /* the pattern "*" is used */
	uint32_t n_keys, other_key;
	struct u32vec *key_pids; /* [n_keys] matched pattern ids */
};

#define PID_ANY PFSEL_NONE

struct rect {
	uint32_t alo, ahi, plo, phi, rule;
};

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

struct lower {
	const struct pfw_policy *pol;
	struct pfw_lowered *low;
	struct strmap strings;
	size_t cap_strings;
	struct dim exe, script;

	uint32_t *port_class; /* [65536] */

	/* Host names (name_classes.c). */
	struct name_ent *names;
	size_t n_names, cap_names;
	struct seqtab name_classes; /* rule list -> name class; 0 is empty */
	uint8_t *in_cell; /* [n_rules] scratch: the rule covers this cell */
	size_t cap_name_slabs, cap_name_cells, n_name_cells_out;
	uint32_t v4_lo, v4_hi; /* address classes of ::ffff:0:0/96 */

	struct u32vec global; /* rules with the plain pattern "*" */
	struct u32vec *plain; /* [exe pid] rules with a plain pattern */
	struct pairent {
		uint32_t exe_pid, script_pid, rule;
	} * pairs;
	size_t n_pairs, cap_pairs;

	struct seqtab apps; /* rule list -> app class */
	struct seqtab groups; /* rule list -> group */
	struct seqtab rows; /* (start, rule)... -> row */
	size_t cap_slabs, cap_cells, cap_exes, cap_pairs_out;

	/* scratch */
	struct rect *rects;
	size_t n_rects, cap_rects;
	struct u32vec tmp, tmp2, base;
};

/* lower.c: the index of @s in the string table, added if new. */
long lower_intern_string(struct lower *l, const char *s);

/* Step 1 (addr_port_classes.c). */
int lower_addr_classes(struct lower *l);
int lower_port_classes(struct lower *l);
/* The address class @a lies in (low->addrs is sorted, addrs[0] is ::). */
uint32_t lower_addr_class(const struct pfw_lowered *low, const uint8_t a[16]);

/*
 * Rule indexes from the policy's number of rules up stand for its
 * resolver statements (rules + k: statement k), so that their application
 * lists split application classes as rules do; only the application
 * partition sees them.
 */
static inline bool lower_is_resolver_id(const struct lower *l, uint32_t id)
{
	return id >= l->pol->n_rules;
}

/* Step 2 (app_classes.c). */
int lower_patterns(struct lower *l);
int lower_apps(struct lower *l);
int lower_protected(struct lower *l);
int lower_resolvers(struct lower *l);
int lower_path_table(struct lower *l, const struct dim *d,
		     struct low_path **out, size_t *n_out);
void lower_dim_free(struct dim *d);

/* Step 2b (name_classes.c). */
int lower_name_classes(struct lower *l);
void lower_names_free(struct lower *l);

/* Step 3 (decision_groups.c). */
int lower_groups(struct lower *l);
int lower_rows(struct lower *l);

#endif /* PFWC_LOWER_STEPS_H */
