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

#include "decision_groups.h"

/* A rule's piece of a cell: address classes x port classes. */
struct rect {
	uint32_t alo, ahi, plo, phi, rule;
};

/*
 * What this step needs only while it runs: the lists interned as groups
 * and rows, the capacities of the tables it grows, and scratch.
 */
struct group_build {
	struct lower *l;
	struct seqtab groups; /* rule list -> group */
	struct seqtab rows; /* (start, rule)... -> row */
	size_t cap_slabs, cap_cells, cap_name_slabs, cap_name_cells;
	size_t n_name_cells_out; /* low->name_cells so far (one a cell) */
	uint8_t *in_cell; /* [n_rules]: the rule covers this cell */
	struct rect *rects; /* a cell's rules, as address x port rectangles */
	size_t n_rects, cap_rects;
	struct u32vec points, runs; /* first_match_row()'s */
};

struct seg {
	uint32_t lo, hi, rule;
};

/*
 * First match in one dimension: @segs in priority order over [0, @n);
 * append the runs (start, rule) to g->runs, covering [0, @n), NONE where no
 * segment lies, adjacent equal runs merged.  Then intern them as a row.
 */
static long first_match_row(struct group_build *g, const struct seg *segs,
			    size_t nsegs, uint32_t n)
{
	struct u32vec *pts = &g->points;
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
	g->runs.n = 0;
	for (size_t k = 0; k < m; k++)
		if ((!k || owner[k] != owner[k - 1]) &&
		    (u32vec_push(&g->runs, pts->v[k]) ||
		     u32vec_push(&g->runs, owner[k])))
			goto out;
	row = seqtab_intern(&g->rows, g->runs.v, g->runs.n);
out:
	free(owner);
	free(next);
	return row;
}

/* Address class ranges of @rule for protocol index @proto, into @out. */
static int rule_addr_ranges(const struct group_build *g,
			    const struct pfw_rule *rule, uint32_t proto,
			    struct seg *out, size_t *n)
{
	const struct lower *l = g->l;
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

static int add_rects(struct group_build *g, const struct pfw_rule *rule,
		     uint32_t op, uint32_t proto)
{
	const struct lower *l = g->l;
	bool any_port = rule->any_port || op == PFSEL_OP_CREATE;
	size_t na, np = any_port ? 1 : rule->n_ports;
	struct seg *addr = malloc((rule->n_addrs * 2 + 3) * sizeof(*addr));
	int err = -ENOMEM;

	if (!addr || rule_addr_ranges(g, rule, proto, addr, &na))
		goto out;
	for (size_t a = 0; a < na; a++)
		for (size_t p = 0; p < np; p++) {
			struct rect r = { addr[a].lo, addr[a].hi, 0,
					  l->low->n_ports - 1, rule->index };

			if (!any_port) {
				r.plo = l->port_class[rule->ports[p].first];
				r.phi = l->port_class[rule->ports[p].last];
			}
			if (PFW_PUSH(g->rects, g->n_rects, g->cap_rects, r))
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

static int push_slab(struct group_build *g, struct low_cell *cell,
		     uint32_t start, uint32_t row)
{
	const struct lower *l = g->l;
	struct pfw_lowered *low = l->low;
	struct low_slab slab = { start, row };

	if (cell->slab_count && low->slabs[low->n_slabs - 1].row == row)
		return 0;
	if (PFW_PUSH(low->slabs, low->n_slabs, g->cap_slabs, slab))
		return -ENOMEM;
	cell->slab_count++;
	return 0;
}

/* The port class ranges of @rule in a cell of operation @op, into @out. */
static size_t rule_port_segs(const struct group_build *g,
			     const struct pfw_rule *rule, uint32_t op,
			     struct seg *out)
{
	const struct lower *l = g->l;
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
 * The name slabs of a cell whose rules are marked in g->in_cell: for each
 * name class, in order, the row of the marked rules of that class (each
 * with its ports); a slab where the row changes, from (0, none).  None at
 * all when no marked rule has a host element.  @cell->name_count says.
 */
static int build_name_slabs(struct group_build *g, uint32_t op,
			    struct low_range *range)
{
	const struct lower *l = g->l;
	struct pfw_lowered *low = l->low;
	struct low_slab slab = { 0, PFSEL_NONE };
	struct seg *segs = NULL;
	size_t n_segs, cap_segs = 0;
	uint32_t last = PFSEL_NONE;
	int err = -ENOMEM;

	range->first = low->n_name_slabs;
	range->count = 0;
	if (PFW_PUSH(low->name_slabs, low->n_name_slabs, g->cap_name_slabs,
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

			if (!g->in_cell[rules[i]])
				continue;
			if (pfw_grow(&segs, &cap_segs, n_segs + need,
				     sizeof(*segs)))
				goto out;
			n_segs += rule_port_segs(g, rule, op, segs + n_segs);
		}
		if (n_segs) {
			row = first_match_row(g, segs, n_segs, low->n_ports);
			if (row < 0) {
				err = row;
				goto out;
			}
		}
		if ((uint32_t)row == last)
			continue;
		slab = (struct low_slab){ c, (uint32_t)row };
		if (PFW_PUSH(low->name_slabs, low->n_name_slabs,
			     g->cap_name_slabs, slab))
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
 * The cell for the rects in g->rects (in rule order): the row of those that
 * cover every address class, and slabs over the others, swept by address:
 * at every cut (a start, or one past an end) the active rects give a row.
 * With @hosts (a rule of the cell has host elements), its name slabs too.
 */
static int build_cell(struct group_build *g, uint32_t op, uint32_t proto,
		      bool hosts)
{
	const struct lower *l = g->l;
	struct low_range names = { l->low->n_name_slabs, 0 };
	struct pfw_lowered *low = l->low;
	uint32_t last = low->n_addrs - 1, nr = g->n_rects;
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
		const struct rect *r = &g->rects[i];

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
		row = first_match_row(g, segs, n_active, low->n_ports);
		if (row < 0)
			goto out;
		cell.wild_row = row;
	}
	qsort_r(starts, n_starts, sizeof(*starts), cmp_rect_alo, g->rects);
	qsort(cuts, n_cuts, sizeof(*cuts), u32_compare);
	n_active = 0;
	row = 0;
	if (n_cuts && cuts[0])
		row = push_slab(g, &cell, 0, PFSEL_NONE);
	for (size_t c = 0; !row && c < n_cuts; c++) {
		size_t keep = 0;

		if (c && cuts[c] == cuts[c - 1])
			continue;
		for (size_t i = 0; i < n_active; i++)
			if (g->rects[active[i]].ahi >= cuts[c])
				active[keep++] = active[i];
		n_active = keep;
		while (si < n_starts && g->rects[starts[si]].alo == cuts[c])
			active[n_active++] = starts[si++];
		/* Rect index order is rule order. */
		qsort(active, n_active, sizeof(*active), u32_compare);
		for (size_t i = 0; i < n_active; i++) {
			const struct rect *r = &g->rects[active[i]];

			segs[i] = (struct seg){ r->plo, r->phi, r->rule };
		}
		row = n_active ?
			      first_match_row(g, segs, n_active, low->n_ports) :
			      PFSEL_NONE;
		if (row >= 0)
			row = push_slab(g, &cell, cuts[c], row);
	}
	if (!row && hosts)
		row = build_name_slabs(g, op, &names);
	if (!row &&
	    (cell.wild_row != PFSEL_NONE || cell.slab_count || names.count)) {
		row = PFW_PUSH(low->cells, low->n_cells, g->cap_cells, cell);
		if (!row)
			row = PFW_PUSH(low->name_cells, g->n_name_cells_out,
				       g->cap_name_cells, names);
	}
out:
	free(segs);
	free(starts);
	free(active);
	free(cuts);
	return row < 0 ? row : 0;
}

static int build_group(struct group_build *g, const uint32_t *rules, uint32_t n)
{
	const struct lower *l = g->l;
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

			g->n_rects = 0;
			for (uint32_t i = 0; i < n; i++) {
				const struct pfw_rule *rule =
					&l->pol->rules[rules[i]];

				if (!(rule->ops & op_bit[op]) ||
				    !(rule->protos & proto_bit[proto]))
					continue;
				err = add_rects(g, rule, op, proto);
				if (err)
					return err;
				g->in_cell[rules[i]] = 1;
				hosts |= rule->n_hosts != 0;
			}
			if (g->n_rects || hosts)
				err = build_cell(g, op, proto, hosts);
			for (uint32_t i = 0; i < n; i++)
				g->in_cell[rules[i]] = 0;
			if (err)
				return err;
		}
	range.count = l->low->n_cells - range.first;
	l->low->groups[l->low->n_groups++] = range;
	return 0;
}

static int build_groups(struct group_build *g)
{
	const struct lower *l = g->l;
	struct pfw_lowered *low = l->low;
	long global = -1;
	size_t cap = 0, n_global = 0;

	/*
	 * The "*" rules: one group, first, shared by every application.
	 * Lists are sorted, so resolver ids (lower_is_resolver_id()) are
	 * their tail, which no group holds.
	 */
	while (n_global < l->global.n &&
	       !lower_is_resolver_id(g->l, l->global.v[n_global]))
		n_global++;
	if (n_global) {
		global = seqtab_intern(&g->groups, l->global.v, n_global);
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

		while (len && lower_is_resolver_id(g->l, rules[len - 1]))
			len--;
		if (global >= 0)
			ids[n++] = global;
		if (len) {
			long group = seqtab_intern(&g->groups, rules, len);

			if (group < 0)
				return group;
			if (!n || ids[0] != (uint32_t)group)
				ids[n++] = group;
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
	low->groups = calloc(g->groups.n_items + 1, sizeof(*low->groups));
	if (!low->groups)
		return -ENOMEM;
	for (uint32_t group = 0; group < g->groups.n_items; group++) {
		uint32_t len;
		const uint32_t *rules = seqtab_get(&g->groups, group, &len);
		int err = build_group(g, rules, len);

		if (err)
			return err;
	}
	return 0;
}

/* ROWS and RUNS: every row interned while the cells were built. */
static int rows_and_runs(struct group_build *g)
{
	const struct lower *l = g->l;
	struct pfw_lowered *low = l->low;

	low->rows = calloc(g->rows.n_items + 1, sizeof(*low->rows));
	low->runs = malloc((g->rows.data.n / 2 + 1) * sizeof(*low->runs));
	if (!low->rows || !low->runs)
		return -ENOMEM;
	for (uint32_t r = 0; r < g->rows.n_items; r++) {
		uint32_t len;
		const uint32_t *s = seqtab_get(&g->rows, r, &len);

		low->rows[r] = (struct low_range){ low->n_runs, len / 2 };
		for (uint32_t i = 0; i < len; i += 2)
			low->runs[low->n_runs++] =
				(struct low_run){ s[i], s[i + 1] };
	}
	low->n_rows = g->rows.n_items;
	return 0;
}

int lower_decision_groups(struct lower *l)
{
	struct group_build g = { .l = l };
	int err = -ENOMEM;

	g.in_cell = calloc(l->pol->n_rules + 1, sizeof(*g.in_cell));
	if (g.in_cell)
		err = build_groups(&g);
	if (!err)
		err = rows_and_runs(&g);
	seqtab_free(&g.groups);
	seqtab_free(&g.rows);
	free(g.in_cell);
	free(g.rects);
	free(g.points.v);
	free(g.runs.v);
	return err;
}
