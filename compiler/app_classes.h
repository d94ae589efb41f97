/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - lowering, step 2 (app_classes.c): application classes,
 * protection, resolvers and the path tables
 */
#ifndef PFWC_APP_CLASSES_H
#define PFWC_APP_CLASSES_H

#include "lower_state.h"

/*
 * Partition the applications by the rules (and resolver statements,
 * lower_is_resolver_id()) whose patterns they match.
 *
 * Reads: l->pol (its rules' and resolvers' applications, "protect").
 * Provides: l->apps (each application class's sorted list of rule and
 * resolver ids, "*" ones aside), l->global (the sorted ids of the plain
 * pattern "*", which every class has); low->exes, low->pairs,
 * low->n_script_classes, low->exe_other, low->script_other (the keys of
 * executables and scripts and their classes), low->protected,
 * low->resolvers, and low->exe_paths, low->script_paths with their
 * strings.
 */
int lower_app_classes(struct lower *l);

#endif /* PFWC_APP_CLASSES_H */
