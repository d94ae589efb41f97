// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, step 1: address and port classes
 *
 * Address classes are the elementary intervals between all CIDR bounds
 * (and the bounds of ::ffff:0:0/96, so every class has one family); port
 * classes the same over 0..65535.  A rule's address or port set is then a
 * union of class *ranges*.  docs/LOWERING.md, section 1.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "addr_port_classes.h"

static int cmp_addr(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* a + 1 in 128 bits; false if it wraps. */
static bool addr_inc(uint8_t a[16])
{
	for (int i = 15; i >= 0; i--)
		if (++a[i])
			return true;
	return false;
}

static int add_bound(struct pfw_lowered *low, size_t *cap, const uint8_t *a)
{
	if (pfw_grow(&low->addrs, cap, low->n_addrs + 1, 16))
		return -ENOMEM;
	memcpy(low->addrs[low->n_addrs++], a, 16);
	return 0;
}

/* Add the bounds of [first, last] to the address boundaries. */
static int add_interval(struct pfw_lowered *low, size_t *cap,
			const uint8_t first[16], const uint8_t last[16])
{
	uint8_t next[16];

	memcpy(next, last, 16);
	if (add_bound(low, cap, first))
		return -ENOMEM;
	return addr_inc(next) ? add_bound(low, cap, next) : 0;
}

static const uint8_t v4_first[16] = { [10] = 0xff, [11] = 0xff };
static const uint8_t v4_last[16] = { [10] = 0xff, [11] = 0xff, [12] = 0xff,
				     [13] = 0xff, [14] = 0xff, [15] = 0xff };

static int addr_classes(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	static const uint8_t zero[16];
	size_t cap = 0, n = 0;

	if (add_bound(low, &cap, zero) ||
	    add_interval(low, &cap, v4_first, v4_last))
		return -ENOMEM;
	for (size_t r = 0; r < l->pol->n_rules; r++) {
		const struct pfw_rule *rule = &l->pol->rules[r];

		for (size_t i = 0; !rule->any_addr && i < rule->n_addrs; i++) {
			uint8_t first[16], last[16];

			pfw_cidr_bounds(&rule->addrs[i], first, last);
			if (add_interval(low, &cap, first, last))
				return -ENOMEM;
		}
	}
	qsort(low->addrs, low->n_addrs, 16, cmp_addr);
	for (size_t i = 0; i < low->n_addrs; i++)
		if (!n || memcmp(low->addrs[n - 1], low->addrs[i], 16))
			memmove(low->addrs[n++], low->addrs[i], 16);
	low->n_addrs = n;
	if (n >= PFSEL_NONE)
		return -E2BIG;
	l->v4_lo = lower_addr_class(low, v4_first);
	l->v4_hi = lower_addr_class(low, v4_last);
	return 0;
}

static int port_classes(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	bool *starts = calloc(65536, sizeof(*starts));

	if (!starts)
		return -ENOMEM;
	starts[0] = true;
	for (size_t r = 0; r < l->pol->n_rules; r++) {
		const struct pfw_rule *rule = &l->pol->rules[r];

		for (size_t i = 0; !rule->any_port && i < rule->n_ports; i++) {
			starts[rule->ports[i].first] = true;
			if (rule->ports[i].last < 65535)
				starts[rule->ports[i].last + 1] = true;
		}
	}
	l->port_class = malloc(65536 * sizeof(*l->port_class));
	low->ports = malloc(65536 * sizeof(*low->ports));
	if (!l->port_class || !low->ports) {
		free(starts);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < 65536; p++) {
		if (starts[p])
			low->ports[low->n_ports++] = p;
		l->port_class[p] = low->n_ports - 1;
	}
	free(starts);
	return 0;
}

int lower_addr_port_classes(struct lower *l)
{
	int err = addr_classes(l);

	return err ? err : port_classes(l);
}
