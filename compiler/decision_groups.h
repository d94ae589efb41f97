/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - lowering, step 3 (decision_groups.c): groups, cells, slabs, name
 * slabs and rows
 */
#ifndef PFWC_DECISION_GROUPS_H
#define PFWC_DECISION_GROUPS_H

#include "lower_state.h"

/*
 * Lay out, for each application class, the first matching rule of every
 * request: its groups of rules, their cells per (operation, protocol), a
 * cell's slabs by address class and name slabs by name class, and the rows
 * of runs by port class they lead to.
 *
 * Reads: l->pol (its rules), and what the steps before it provide:
 * low->addrs, low->ports, l->port_class, l->v4_lo, l->v4_hi (step 1),
 * l->apps, l->global (step 2), l->name_classes, low->n_name_classes
 * (step 2b).
 * Provides: low->apps, low->grouplist, low->groups, low->cells,
 * low->name_cells, low->slabs, low->name_slabs, low->rows, low->runs.
 */
int lower_decision_groups(struct lower *l);

#endif /* PFWC_DECISION_GROUPS_H */
