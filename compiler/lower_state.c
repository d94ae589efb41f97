// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the lowering's shared state (lower_state.h): the string table
 * every step adds names to, the address class lookup over step 1's
 * classes, and freeing what the steps leave for each other.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lower_state.h"

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

uint32_t lower_addr_class(const struct pfw_lowered *low, const uint8_t a[16])
{
	size_t lo = 0, hi = low->n_addrs;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (memcmp(low->addrs[mid], a, 16) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void lower_state_free(struct lower *l)
{
	free(l->strings.slots);
	free(l->port_class);
	free(l->global.v);
	seqtab_free(&l->apps);
	seqtab_free(&l->name_classes);
}
