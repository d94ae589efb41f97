// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - relations between resolved rules, exact on the resolved view:
 * whether one rule matches every request another does (covers), whether
 * two match a request in common (intersect).  The shadow warning
 * (lint.c) and the --against comparison (against.c) ask these.
 */
#include <stdlib.h>

#include "rule_relations.h"

/*
 * Every host element of @inner inside one of @outer: a name matches no
 * prefix, so only host elements (or "any") cover host elements.
 */
static bool hosts_contain(const struct pfw_rule *outer,
			  const struct pfw_rule *inner)
{
	for (size_t i = 0; i < inner->n_hosts; i++) {
		bool found = false;

		for (size_t o = 0; o < outer->n_hosts && !found; o++)
			found = pfw_host_contains(&outer->hosts[o],
						  &inner->hosts[i]);
		if (!found)
			return false;
	}
	return true;
}

static bool addrs_contain(const struct pfw_rule *outer,
			  const struct pfw_rule *inner)
{
	if (outer->any_addr)
		return true;
	if (inner->any_addr || !hosts_contain(outer, inner))
		return false;
	for (size_t i = 0; i < inner->n_addrs; i++) {
		bool found = false;

		for (size_t o = 0; o < outer->n_addrs && !found; o++)
			found = outer->addrs[o].prefix_len <=
					inner->addrs[i].prefix_len &&
				pfw_cidr_contains(&outer->addrs[o],
						  inner->addrs[i].addr);
		if (!found)
			return false;
	}
	return true;
}

static bool addrs_intersect(const struct pfw_rule *a, const struct pfw_rule *b)
{
	/* Any address may have a name that a host element matches. */
	if (a->any_addr || b->any_addr || a->n_hosts || b->n_hosts)
		return true;
	for (size_t i = 0; i < a->n_addrs; i++)
		for (size_t j = 0; j < b->n_addrs; j++)
			if (pfw_cidr_contains(&a->addrs[i], b->addrs[j].addr) ||
			    pfw_cidr_contains(&b->addrs[j], a->addrs[i].addr))
				return true;
	return false;
}

static bool ports_contain(const struct pfw_rule *outer,
			  const struct pfw_rule *inner)
{
	if (outer->any_port)
		return true;
	if (inner->any_port)
		return false;
	for (size_t i = 0; i < inner->n_ports; i++) {
		bool found = false;

		for (size_t o = 0; o < outer->n_ports && !found; o++)
			found = outer->ports[o].first <=
					inner->ports[i].first &&
				outer->ports[o].last >= inner->ports[i].last;
		if (!found)
			return false;
	}
	return true;
}

static bool ports_intersect(const struct pfw_rule *a, const struct pfw_rule *b)
{
	if (a->any_port || b->any_port)
		return true;
	for (size_t i = 0; i < a->n_ports; i++)
		for (size_t j = 0; j < b->n_ports; j++)
			if (a->ports[i].first <= b->ports[j].last &&
			    b->ports[j].first <= a->ports[i].last)
				return true;
	return false;
}

static bool apps_contain(const struct pfw_rule *outer,
			 const struct pfw_rule *inner)
{
	for (size_t i = 0; i < inner->n_apps; i++) {
		bool found = false;

		for (size_t o = 0; o < outer->n_apps && !found; o++)
			found = pfw_app_contains(&outer->apps[o],
						 &inner->apps[i]);
		if (!found)
			return false;
	}
	return true;
}

static bool apps_intersect(const struct pfw_rule *a, const struct pfw_rule *b)
{
	for (size_t i = 0; i < a->n_apps; i++)
		for (size_t j = 0; j < b->n_apps; j++)
			if (pfw_app_intersects(&a->apps[i], &b->apps[j]))
				return true;
	return false;
}

static unsigned __int128 address_value(const uint8_t addr[16])
{
	unsigned __int128 value = 0;

	for (int i = 0; i < 16; i++)
		value = value << 8 | addr[i];
	return value;
}

struct rule_box *pfw_rule_boxes(const struct pfw_policy *policy)
{
	struct rule_box *boxes =
		pfw_xrealloc(NULL, policy->n_rules * sizeof(*boxes));

	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct pfw_rule *rule = &policy->rules[i];
		struct rule_box *box = &boxes[i];
		uint8_t first[16], last[16];

		box->addr_first = 0;
		box->addr_last = ~(unsigned __int128)0;
		box->port_first = 0;
		box->port_last = 65535;
		box->ops = rule->ops;
		box->protos = rule->protos;
		box->families = (uint8_t)rule->families;
		box->any_addr = rule->any_addr;
		box->any_port = rule->any_port;
		box->hosts = rule->n_hosts != 0;
		/* With host names any address may match: the box is all. */
		if (!rule->any_addr && !rule->n_hosts) {
			/* Sorted and disjoint: the ends bound them all. */
			pfw_cidr_bounds(&rule->addrs[0], first, last);
			box->addr_first = address_value(first);
			pfw_cidr_bounds(&rule->addrs[rule->n_addrs - 1], first,
					last);
			box->addr_last = address_value(last);
		}
		if (!rule->any_port) {
			box->port_first = rule->ports[0].first;
			box->port_last = rule->ports[rule->n_ports - 1].last;
		}
	}
	return boxes;
}

bool pfw_rule_covers(const struct pfw_rule *outer,
		     const struct rule_box *outer_box,
		     const struct pfw_rule *inner,
		     const struct rule_box *inner_box)
{
	bool addressed = inner_box->ops & PFW_OP_ADDRESSED;
	bool ported = addressed && (inner_box->protos & PFW_PROTO_PORTED);

	/* Boxes only, so the common rejection never touches the rules. */
	if ((inner_box->ops & ~outer_box->ops) ||
	    (inner_box->protos & ~outer_box->protos))
		return false;
	/* Packet requests have no family; the others need theirs covered. */
	if ((inner_box->protos & ~PFW_PROTO_PACKET) &&
	    (inner_box->families & ~outer_box->families))
		return false;
	if (addressed && !outer_box->any_addr && !inner_box->hosts &&
	    (inner_box->any_addr ||
	     outer_box->addr_first > inner_box->addr_first ||
	     outer_box->addr_last < inner_box->addr_last))
		return false;
	if (ported && !outer_box->any_port &&
	    (inner_box->any_port ||
	     outer_box->port_first > inner_box->port_first ||
	     outer_box->port_last < inner_box->port_last))
		return false;
	if (addressed && !addrs_contain(outer, inner))
		return false;
	if (ported && !ports_contain(outer, inner))
		return false;
	return apps_contain(outer, inner);
}

bool pfw_rules_intersect(const struct pfw_rule *a, const struct rule_box *a_box,
			 const struct pfw_rule *b, const struct rule_box *b_box)
{
	uint32_t ops = a->ops & b->ops, protos = a->protos & b->protos;

	if (!ops || !protos)
		return false;
	if (!(protos & PFW_PROTO_PACKET) && !(a->families & b->families))
		return false;
	/*
	 * Create requests carry no address or port (and a rule with create
	 * has "any" there, see ast.h), so endpoints matter only for the rest.
	 */
	if (!(ops & PFW_OP_CREATE) &&
	    (a_box->addr_first > b_box->addr_last ||
	     b_box->addr_first > a_box->addr_last ||
	     a_box->port_first > b_box->port_last ||
	     b_box->port_first > a_box->port_last || !addrs_intersect(a, b) ||
	     !ports_intersect(a, b)))
		return false;
	return apps_intersect(a, b);
}

bool pfw_spend_pair(unsigned long long *budget, struct pfw_diag *diag,
		    const char *analysis)
{
	if (*budget == 0)
		return false;
	if (--*budget == 0)
		pfw_notice(
			diag,
			"the policy is too large for a complete %s analysis; it checked the first %llu rule pairs",
			analysis, PFW_PAIR_BUDGET);
	return *budget > 0;
}
