/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - lowering, step 2b (name_classes.c): host name classes and
 * NAME_PATTERNS
 */
#ifndef PFWC_NAME_CLASSES_H
#define PFWC_NAME_CLASSES_H

#include "lower_state.h"

/*
 * Partition the host names the kernel may learn by the rules whose host
 * elements they match.
 *
 * Reads: l->pol (its rules' host elements).
 * Provides: l->name_classes (each name class's sorted list of rule
 * indexes; class 0, the empty list, is every name no element matches),
 * low->n_name_classes, and low->name_patterns with their strings.
 */
int lower_name_classes(struct lower *l);

#endif /* PFWC_NAME_CLASSES_H */
