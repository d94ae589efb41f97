/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - lowering: from the resolved AST to the decision structure of the
 * binary format (policy/FORMAT.md; the algorithm is in docs/LOWERING.md),
 * a struct pfw_lowered (lowered.h)
 */
#ifndef PFWC_LOWER_H
#define PFWC_LOWER_H

#include "ast.h"
#include "lowered.h"

/*
 * Lower a policy that passed sema.  Returns 0 and *@out, or -ENOMEM, or
 * -E2BIG when a table would exceed what the format can index.
 */
int pfw_lower(const struct pfw_policy *policy, struct pfw_lowered **out);

/* Free what pfw_lower() made; NULL is a no-op. */
void pfw_lowered_free(struct pfw_lowered *low);

#endif /* PFWC_LOWER_H */
