/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the lowering's shared state: struct lower, which the driver
 * (lower.c) hands to each step in turn, and the few calls every step may
 * make on it (lower_state.c).  docs/LOWERING.md has the algorithm.
 *
 * The steps call down to this file and never to each other or to the
 * driver: what one step leaves for a later one is a member of struct lower
 * (below, under the step that fills it) or a table of l->low; what a step
 * needs only while it runs stays in its own file.  Each step's header says
 * what it reads and what it provides:
 *
 *   addr_port_classes.h  step 1: address and port classes
 *   app_classes.h        step 2: application classes, protection,
 *                        resolvers, the path tables
 *   name_classes.h       step 2b: host name classes, NAME_PATTERNS
 *   decision_groups.h    step 3: groups, cells, slabs and rows
 *
 * Every step returns 0 or a negative errno (-ENOMEM, or -E2BIG past what
 * the format can index); on an error the driver frees all the same.
 */
#ifndef PFWC_LOWER_STATE_H
#define PFWC_LOWER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "containers.h"
#include "lowered.h"
#include "pfsel_policy.h"

/*
 * struct lower - what the lowering's steps share
 *
 * @pol and @low are the driver's: the policy lowered, and the tables being
 * filled (its settings and rule table by the driver, before step 1).
 */
struct lower {
	const struct pfw_policy *pol;
	struct pfw_lowered *low;

	/* The string table, low->strings (lower_intern_string()). */
	struct strmap strings;
	size_t cap_strings;

	/* Left by step 1 (addr_port_classes.h), besides low->addrs, ports. */
	uint32_t *port_class; /* [65536]: the port class of each port */
	uint32_t v4_lo, v4_hi; /* address classes of ::ffff:0:0/96 */

	/* Left by step 2 (app_classes.h). */
	struct u32vec global; /* ids of the plain pattern "*" (no script) */
	struct seqtab apps; /* rule list -> application class */

	/* Left by step 2b (name_classes.h). */
	struct seqtab name_classes; /* rule list -> name class; 0 is empty */
};

/* The index of @s in the string table, added if new; or -E2BIG, -ENOMEM. */
long lower_intern_string(struct lower *l, const char *s);

/* The address class @a lies in (after step 1: low->addrs[0] is ::). */
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

/* Free what the steps left in @l (not @l->low, which the driver hands on). */
void lower_state_free(struct lower *l);

#endif /* PFWC_LOWER_STATE_H */
