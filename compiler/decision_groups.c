// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, step 3: groups, cells, slabs and rows
 *
 * A group is a list of rules (the "*" rules form one shared group); for
 * each (operation, protocol) a cell holds a row for the rules that match
 * every address, and slabs of address classes, each with a row: a row maps
 * port classes to the first rule, as runs.  Rows are shared.
 * docs/LOWERING.md, section 3.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lower_steps.h"

struct seg {
	uint32_t lo, hi, rule;
};

/*
 * First match in one dimension: @segs in priority order over [0, @n);
 * append the runs (start, rule) to l->tmp2, covering [0, @n), NONE where no
 * segment lies, adjacent equal runs merged.  Then intern them as a row.
 */
static long first_match_row(struct lower *l, const struct seg *segs,
			    size_t nsegs, uint32_t n)
{
	struct u32vec *pts = &l->tmp;
	uint32_t *owner = NULL, *next = NULL;
	size_t m;
	long row = -ENOMEM;

	pts->n = 0;
	if (u32vec_push(pts, 0))
		return -ENOMEM;
	for (size_t i = 0; i < nsegs; i++)
		if (u32vec_push(pts, segs[i].lo) ||
		    (segs[i].hi + 1 < n && u32vec_push(pts, segs[i].hi + 1)))
			return -ENOMEM;
	u32vec_sort_unique(pts);
	m = pts->n;
	owner = malloc(m * sizeof(*owner));
	next = malloc((m + 1) * sizeof(*next));
	if (!owner || !next)
		goto out;
	for (size_t k = 0; k < m; k++) {
		owner[k] = PFSEL_NONE;
		next[k] = k;
	}
	next[m] = m;
	for (size_t i = 0; i < nsegs; i++) {
		uint32_t *at = bsearch(&segs[i].lo, pts->v, m, sizeof(uint32_t),
				       u32_compare);
		size_t a = at - pts->v, b = m, k;

		if (segs[i].hi + 1 < n)
			b = (uint32_t *)bsearch(&(uint32_t){ segs[i].hi + 1 },
						pts->v, m, sizeof(uint32_t),
						u32_compare) -
			    pts->v;
		/* Paint the unpainted pieces of [a, b), skipping painted runs. */
		for (k = a; k < b;) {
			size_t root = k;

			while (next[root] != root)
				root = next[root];
			while (next[k] != root) {
				size_t up = next[k];

				next[k] = root;
				k = up;
			}
			k = root;
			if (k >= b)
				break;
			owner[k] = segs[i].rule;
			next[k] = k + 1;
		}
	}
	l->tmp2.n = 0;
	for (size_t k = 0; k < m; k++)
		if ((!k || owner[k] != owner[k - 1]) &&
		    (u32vec_push(&l->tmp2, pts->v[k]) ||
		     u32vec_push(&l->tmp2, owner[k])))
			goto out;
	row = seqtab_intern(&l->rows, l->tmp2.v, l->tmp2.n);
out:
	free(owner);
	free(next);
	return row;
}

/* Address class ranges of @rule for protocol index @proto, into @out. */
static int rule_addr_ranges(const struct lower *l, const struct pfw_rule *rule,
			    uint32_t proto, struct seg *out, size_t *n)
{
	const struct pfw_lowered *low = l->low;
	uint32_t last = low->n_addrs - 1;
	struct seg base[2];
	size_t nb = 0;

	*n = 0;
	if (proto == PFSEL_PROTO_PACKET || rule->families == PFW_FAMILY_ALL) {
		base[nb++] = (struct seg){ 0, last, 0 };
	} else {
		if (rule->families & PFW_FAMILY_INET)
			base[nb++] = (struct seg){ l->v4_lo, l->v4_hi, 0 };
		if (rule->families & PFW_FAMILY_INET6) {
			base[nb++] = (struct seg){ 0, l->v4_lo - 1, 0 };
			base[nb++] = (struct seg){ l->v4_hi + 1, last, 0 };
		}
	}
	/* Packet requests ignore addresses; sema keeps them "any". */
	if (rule->any_addr || proto == PFSEL_PROTO_PACKET) {
		memcpy(out, base, nb * sizeof(*base));
		*n = nb;
		return 0;
	}
	for (size_t i = 0; i < rule->n_addrs; i++) {
		uint8_t first[16], lastb[16];
		uint32_t lo, hi;

		pfw_cidr_bounds(&rule->addrs[i], first, lastb);
		lo = lower_addr_class(low, first);
		hi = lower_addr_class(low, lastb);
		/* Families split classes, so a class lies in one family. */
		for (size_t b = 0; b < nb; b++) {
			uint32_t x = lo > base[b].lo ? lo : base[b].lo;
			uint32_t y = hi < base[b].hi ? hi : base[b].hi;

			if (x <= y)
				out[(*n)++] = (struct seg){ x, y, 0 };
		}
	}
	return 0;
}

static int add_rects(struct lower *l, const struct pfw_rule *rule, uint32_t op,
		     uint32_t proto)
{
	bool any_port = rule->any_port || op == PFSEL_OP_CREATE;
	size_t na, np = any_port ? 1 : rule->n_ports;
	struct seg *addr = malloc((rule->n_addrs * 2 + 3) * sizeof(*addr));
	int err = -ENOMEM;

	if (!addr || rule_addr_ranges(l, rule, proto, addr, &na))
		goto out;
	for (size_t a = 0; a < na; a++)
		for (size_t p = 0; p < np; p++) {
			struct rect r = { addr[a].lo, addr[a].hi, 0,
					  l->low->n_ports - 1, rule->index };

			if (!any_port) {
				r.plo = l->port_class[rule->ports[p].first];
				r.phi = l->port_class[rule->ports[p].last];
			}
			if (PFW_PUSH(l->rects, l->n_rects, l->cap_rects, r))
				goto out;
		}
	err = 0;
out:
	free(addr);
	return err;
}

static int cmp_rect_alo(const void *a, const void *b, void *ctx)
{
	const struct rect *r = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (r[x].alo != r[y].alo)
		return r[x].alo < r[y].alo ? -1 : 1;
	return (x > y) - (x < y);
}

static int push_slab(struct lower *l, struct low_cell *cell, uint32_t start,
		     uint32_t row)
{
	struct pfw_lowered *low = l->low;
	struct low_slab slab = { start, row };

	if (cell->slab_count && low->slabs[low->n_slabs - 1].row == row)
		return 0;
	if (PFW_PUSH(low->slabs, low->n_slabs, l->cap_slabs, slab))
		return -ENOMEM;
	cell->slab_count++;
	return 0;
}

/* The port class ranges of @rule in a cell of operation @op, into @out. */
static size_t rule_port_segs(const struct lower *l, const struct pfw_rule *rule,
			     uint32_t op, struct seg *out)
{
	if (rule->any_port || op == PFSEL_OP_CREATE) {
		out[0] = (struct seg){ 0, l->low->n_ports - 1, rule->index };
		return 1;
	}
	for (size_t p = 0; p < rule->n_ports; p++)
		out[p] = (struct seg){ l->port_class[rule->ports[p].first],
				       l->port_class[rule->ports[p].last],
				       rule->index };
	return rule->n_ports;
}

/*
 * The name slabs of a cell whose rules are marked in l->in_cell: for each
 * name class, in order, the row of the marked rules of that class (each
 * with its ports); a slab where the row changes, from (0, none).  None at
 * all when no marked rule has a host element.  @cell->name_count says.
 */
static int build_name_slabs(struct lower *l, uint32_t op,
			    struct low_range *range)
{
	struct pfw_lowered *low = l->low;
	struct low_slab slab = { 0, PFSEL_NONE };
	struct seg *segs = NULL;
	size_t n_segs, cap_segs = 0;
	uint32_t last = PFSEL_NONE;
	int err = -ENOMEM;

	range->first = low->n_name_slabs;
	range->count = 0;
	if (PFW_PUSH(low->name_slabs, low->n_name_slabs, l->cap_name_slabs,
		     slab))
		return -ENOMEM;
	range->count = 1;
	for (uint32_t c = 1; c < low->n_name_classes; c++) {
		uint32_t len;
		const uint32_t *rules = seqtab_get(&l->name_classes, c, &len);
		long row = PFSEL_NONE;

		n_segs = 0;
		for (uint32_t i = 0; i < len; i++) {
			const struct pfw_rule *rule = &l->pol->rules[rules[i]];
			size_t need = rule->n_ports + 1;

			if (!l->in_cell[rules[i]])
				continue;
			if (pfw_grow(&segs, &cap_segs, n_segs + need,
				     sizeof(*segs)))
				goto out;
			n_segs += rule_port_segs(l, rule, op, segs + n_segs);
		}
		if (n_segs) {
			row = first_match_row(l, segs, n_segs, low->n_ports);
			if (row < 0) {
				err = row;
				goto out;
			}
		}
		if ((uint32_t)row == last)
			continue;
		slab = (struct low_slab){ c, (uint32_t)row };
		if (PFW_PUSH(low->name_slabs, low->n_name_slabs,
			     l->cap_name_slabs, slab))
			goto out;
		range->count++;
		last = (uint32_t)row;
	}
	/* Only (0, none): no host rule here, an empty slice. */
	if (range->count == 1) {
		low->n_name_slabs--;
		range->count = 0;
	}
	err = 0;
out:
	free(segs);
	return err;
}

/*
 * The cell for the rects in l->rects (in rule order): the row of those that
 * cover every address class, and slabs over the others, swept by address:
 * at every cut (a start, or one past an end) the active rects give a row.
 * With @hosts (a rule of the cell has host elements), its name slabs too.
 */
static int build_cell(struct lower *l, uint32_t op, uint32_t proto, bool hosts)
{
	struct low_range names = { l->low->n_name_slabs, 0 };
	struct pfw_lowered *low = l->low;
	uint32_t last = low->n_addrs - 1, nr = l->n_rects;
	struct low_cell cell = { op, proto, PFSEL_NONE, low->n_slabs, 0 };
	uint32_t *starts, *active, *cuts;
	struct seg *segs;
	size_t n_active = 0, n_cuts = 0, n_starts = 0, si = 0;
	long row = -ENOMEM;

	segs = malloc((nr + 1) * sizeof(*segs));
	starts = malloc((nr + 1) * sizeof(*starts));
	active = malloc((nr + 1) * sizeof(*active));
	cuts = malloc((2 * nr + 1) * sizeof(*cuts));
	if (!segs || !starts || !active || !cuts)
		goto out;
	for (uint32_t i = 0; i < nr; i++) {
		const struct rect *r = &l->rects[i];

		if (r->alo == 0 && r->ahi == last) {
			segs[n_active++] =
				(struct seg){ r->plo, r->phi, r->rule };
			continue;
		}
		starts[n_starts++] = i;
		cuts[n_cuts++] = r->alo;
		if (r->ahi < last)
			cuts[n_cuts++] = r->ahi + 1;
	}
	if (n_active) {
		row = first_match_row(l, segs, n_active, low->n_ports);
		if (row < 0)
			goto out;
		cell.wild_row = row;
	}
	qsort_r(starts, n_starts, sizeof(*starts), cmp_rect_alo, l->rects);
	qsort(cuts, n_cuts, sizeof(*cuts), u32_compare);
	n_active = 0;
	row = 0;
	if (n_cuts && cuts[0])
		row = push_slab(l, &cell, 0, PFSEL_NONE);
	for (size_t c = 0; !row && c < n_cuts; c++) {
		size_t keep = 0;

		if (c && cuts[c] == cuts[c - 1])
			continue;
		for (size_t i = 0; i < n_active; i++)
			if (l->rects[active[i]].ahi >= cuts[c])
				active[keep++] = active[i];
		n_active = keep;
		while (si < n_starts && l->rects[starts[si]].alo == cuts[c])
			active[n_active++] = starts[si++];
		/* Rect index order is rule order. */
		qsort(active, n_active, sizeof(*active), u32_compare);
		for (size_t i = 0; i < n_active; i++) {
			const struct rect *r = &l->rects[active[i]];

			segs[i] = (struct seg){ r->plo, r->phi, r->rule };
		}
		row = n_active ?
			      first_match_row(l, segs, n_active, low->n_ports) :
			      PFSEL_NONE;
		if (row >= 0)
			row = push_slab(l, &cell, cuts[c], row);
	}
	if (!row && hosts)
		row = build_name_slabs(l, op, &names);
	if (!row &&
	    (cell.wild_row != PFSEL_NONE || cell.slab_count || names.count)) {
		row = PFW_PUSH(low->cells, low->n_cells, l->cap_cells, cell);
		if (!row)
			row = PFW_PUSH(low->name_cells, l->n_name_cells_out,
				       l->cap_name_cells, names);
	}
out:
	free(segs);
	free(starts);
	free(active);
	free(cuts);
	return row < 0 ? row : 0;
}

static int build_group(struct lower *l, const uint32_t *rules, uint32_t n)
{
	static const uint32_t op_bit[PFSEL_OP_COUNT] = {
		PFW_OP_CREATE, PFW_OP_BIND, PFW_OP_CONNECT, PFW_OP_LISTEN,
		PFW_OP_ACCEPT
	};
	static const uint32_t proto_bit[PFSEL_PROTO_COUNT] = {
		PFW_PROTO_TCP, PFW_PROTO_UDP, PFW_PROTO_ICMP, PFW_PROTO_RAW,
		PFW_PROTO_PACKET
	};
	struct low_range range = { l->low->n_cells, 0 };
	int err;

	for (uint32_t op = 0; op < PFSEL_OP_COUNT; op++)
		for (uint32_t proto = 0; proto < PFSEL_PROTO_COUNT; proto++) {
			bool hosts = false;

			l->n_rects = 0;
			for (uint32_t i = 0; i < n; i++) {
				const struct pfw_rule *rule =
					&l->pol->rules[rules[i]];

				if (!(rule->ops & op_bit[op]) ||
				    !(rule->protos & proto_bit[proto]))
					continue;
				err = add_rects(l, rule, op, proto);
				if (err)
					return err;
				l->in_cell[rules[i]] = 1;
				hosts |= rule->n_hosts != 0;
			}
			if (l->n_rects || hosts)
				err = build_cell(l, op, proto, hosts);
			for (uint32_t i = 0; i < n; i++)
				l->in_cell[rules[i]] = 0;
			if (err)
				return err;
		}
	range.count = l->low->n_cells - range.first;
	l->low->groups[l->low->n_groups++] = range;
	return 0;
}

int lower_groups(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	long global = -1;
	size_t cap = 0, n_global = 0;

	/*
	 * The "*" rules: one group, first, shared by every application.
	 * Lists are sorted, so resolver ids (lower_is_resolver_id()) are
	 * their tail, which no group holds.
	 */
	while (n_global < l->global.n &&
	       !lower_is_resolver_id(l, l->global.v[n_global]))
		n_global++;
	if (n_global) {
		global = seqtab_intern(&l->groups, l->global.v, n_global);
		if (global < 0)
			return global;
	}
	low->apps = calloc(l->apps.n_items, sizeof(*low->apps));
	if (!low->apps)
		return -ENOMEM;
	low->n_apps = l->apps.n_items;
	for (uint32_t a = 0; a < l->apps.n_items; a++) {
		uint32_t len;
		const uint32_t *rules = seqtab_get(&l->apps, a, &len);
		uint32_t ids[2], n = 0;

		while (len && lower_is_resolver_id(l, rules[len - 1]))
			len--;
		if (global >= 0)
			ids[n++] = global;
		if (len) {
			long g = seqtab_intern(&l->groups, rules, len);

			if (g < 0)
				return g;
			if (!n || ids[0] != (uint32_t)g)
				ids[n++] = g;
		}
		if (n == 2 && ids[0] > ids[1]) {
			uint32_t t = ids[0];

			ids[0] = ids[1];
			ids[1] = t;
		}
		low->apps[a] = (struct low_range){ low->n_grouplist, n };
		for (uint32_t i = 0; i < n; i++)
			if (PFW_PUSH(low->grouplist, low->n_grouplist, cap,
				     ids[i]))
				return -ENOMEM;
	}
	low->groups = calloc(l->groups.n_items + 1, sizeof(*low->groups));
	if (!low->groups)
		return -ENOMEM;
	for (uint32_t g = 0; g < l->groups.n_items; g++) {
		uint32_t len;
		const uint32_t *rules = seqtab_get(&l->groups, g, &len);
		int err = build_group(l, rules, len);

		if (err)
			return err;
	}
	return 0;
}

int lower_rows(struct lower *l)
{
	struct pfw_lowered *low = l->low;

	low->rows = calloc(l->rows.n_items + 1, sizeof(*low->rows));
	low->runs = malloc((l->rows.data.n / 2 + 1) * sizeof(*low->runs));
	if (!low->rows || !low->runs)
		return -ENOMEM;
	for (uint32_t r = 0; r < l->rows.n_items; r++) {
		uint32_t len;
		const uint32_t *s = seqtab_get(&l->rows, r, &len);

		low->rows[r] = (struct low_range){ low->n_runs, len / 2 };
		for (uint32_t i = 0; i < len; i += 2)
			low->runs[low->n_runs++] =
				(struct low_run){ s[i], s[i + 1] };
	}
	low->n_rows = l->rows.n_items;
	return 0;
}
