/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - relations between resolved rules (rule_relations.c): cover and
 * intersect, and the budget that bounds the quadratic analyses using them.
 */
#ifndef PFWC_RULE_RELATIONS_H
#define PFWC_RULE_RELATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

/*
 * Largest number of rule pairs the shadow and override analyses compare;
 * beyond it they stop with a note instead of taking minutes.
 */
#define PFW_PAIR_BUDGET 50000000ull

/*
 * What the pair analyses look at first: one interval per dimension that
 * holds all of a rule's addresses (and ports).  Comparing intervals rejects
 * most pairs in a few instructions; only the survivors walk the lists.
 */
struct rule_box {
	unsigned __int128 addr_first, addr_last;
	uint32_t ops, protos;
	uint16_t port_first, port_last;
	uint8_t families;
	bool any_addr, any_port;
	bool hosts; /* the rule has host elements: the address box is all */
};

/* One box per rule of @policy, malloc'd (pfw_xrealloc: never NULL). */
struct rule_box *pfw_rule_boxes(const struct pfw_policy *policy);

/* True if every request @inner matches, @outer matches too. */
bool pfw_rule_covers(const struct pfw_rule *outer,
		     const struct rule_box *outer_box,
		     const struct pfw_rule *inner,
		     const struct rule_box *inner_box);

/* True if some request matches both rules. */
bool pfw_rules_intersect(const struct pfw_rule *a, const struct rule_box *a_box,
			 const struct pfw_rule *b,
			 const struct rule_box *b_box);

/*
 * Count one comparison of @analysis against *@budget (start it at
 * PFW_PAIR_BUDGET); false once it is spent, with a note the first time.
 */
bool pfw_spend_pair(unsigned long long *budget, struct pfw_diag *diag,
		    const char *analysis);

#endif /* PFWC_RULE_RELATIONS_H */
