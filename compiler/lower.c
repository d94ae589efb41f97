// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering: equivalence classes per dimension and the decision
 * structure of the binary format.  docs/LOWERING.md explains the algorithm
 * and its costs; the comments here say which step is which.
 *
 *  1. Address classes: the elementary intervals between all CIDR bounds
 *     (and the bounds of ::ffff:0:0/96, so every class has one family).
 *     Port classes: the same over 0..65535.  A rule's address or port set
 *     is then a union of class *ranges*.
 *  2. Application classes: per dimension (executable, script) the "keys"
 *     a path can have -- an exact path, a file directly in a DIR/ * dir, a
 *     file whose deepest DIR/ ** dir is D, or none -- each with the set of
 *     patterns it matches; an application class is a distinct list of the
 *     rules that (exe key, script key) match, "*" rules aside.
 *     A class is protected when one of its rules (or a "*" rule) says
 *     "protect".
 *  3. Groups: a list of rules (the "*" rules form one shared group); for
 *     each (operation, protocol) a cell holding a row for the rules that
 *     match every address, and slabs of address classes, each with a row:
 *     a row maps port classes to the first rule, as runs.  Rows are shared.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"
#include "pfsel_policy.h"

/* ---- growable arrays and a hash-consing table of u32 sequences ---- */

static int grow(void *pp, size_t *cap, size_t need, size_t size)
{
	void **p = pp;
	size_t ncap = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

#define PUSH(arr, n, cap, val)                                          \
	(grow(&(arr), &(cap), (n) + 1, sizeof(*(arr))) ? -ENOMEM :       \
							 ((arr)[(n)++] = (val), 0))

struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static int u32_push(struct u32vec *vec, uint32_t x)
{
	return PUSH(vec->v, vec->n, vec->cap, x);
}

static uint64_t hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ull;

	while (len--)
		h = (h ^ *b++) * 1099511628211ull;
	return h ^ (h >> 29);
}

/* Distinct u32 sequences, each given the next id when first seen. */
struct seqtab {
	struct u32vec data;
	struct {
		size_t off;
		uint32_t len;
	} *items;
	size_t n_items, cap_items;
	uint32_t *slots; /* item id + 1, 0 = empty */
	size_t n_slots;
};

static const uint32_t *seq_get(const struct seqtab *t, uint32_t id,
			       uint32_t *len)
{
	*len = t->items[id].len;
	return t->data.v + t->items[id].off;
}

static int seq_rehash(struct seqtab *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 64;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t id = 0; id < t->n_items; id++) {
		uint32_t len;
		const uint32_t *s = seq_get(t, id, &len);
		size_t h = hash_bytes(s, len * sizeof(*s)) & (n - 1);

		while (slots[h])
			h = (h + 1) & (n - 1);
		slots[h] = id + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n;
	return 0;
}

/* Returns the id of @s (new or old), or a negative errno. */
static long seq_intern(struct seqtab *t, const uint32_t *s, uint32_t len)
{
	size_t h;

	if ((t->n_items + 1) * 2 > t->n_slots && seq_rehash(t))
		return -ENOMEM;
	h = hash_bytes(s, len * sizeof(*s)) & (t->n_slots - 1);
	for (; t->slots[h]; h = (h + 1) & (t->n_slots - 1)) {
		uint32_t olen;
		const uint32_t *o = seq_get(t, t->slots[h] - 1, &olen);

		if (olen == len && !memcmp(o, s, len * sizeof(*s)))
			return t->slots[h] - 1;
	}
	if (t->n_items >= PFSEL_NONE - 1)
		return -E2BIG;
	if (grow(&t->items, &t->cap_items, t->n_items + 1, sizeof(*t->items)) ||
	    grow(&t->data.v, &t->data.cap, t->data.n + len, sizeof(uint32_t)))
		return -ENOMEM;
	t->items[t->n_items].off = t->data.n;
	t->items[t->n_items].len = len;
	if (len)
		memcpy(t->data.v + t->data.n, s, len * sizeof(*s));
	t->data.n += len;
	t->slots[h] = ++t->n_items;
	return t->n_items - 1;
}

static void seq_free(struct seqtab *t)
{
	free(t->data.v);
	free(t->items);
	free(t->slots);
}

/* ---- strings: a map from bytes to an index ---- */

struct strmap {
	struct {
		const char *s;
		size_t len;
		uint32_t val;
	} *slots; /* s == NULL: empty */
	size_t n_slots, n;
};

static int strmap_put(struct strmap *m, const char *s, size_t len,
		      uint32_t val);

static uint32_t strmap_get(const struct strmap *m, const char *s, size_t len)
{
	if (!m->n_slots)
		return PFSEL_NONE;
	for (size_t h = hash_bytes(s, len) & (m->n_slots - 1); m->slots[h].s;
	     h = (h + 1) & (m->n_slots - 1))
		if (m->slots[h].len == len && !memcmp(m->slots[h].s, s, len))
			return m->slots[h].val;
	return PFSEL_NONE;
}

static int strmap_put(struct strmap *m, const char *s, size_t len,
		      uint32_t val)
{
	size_t h;

	if ((m->n + 1) * 2 > m->n_slots) {
		struct strmap bigger = { .n_slots = m->n_slots ? m->n_slots * 2 :
								 64 };

		bigger.slots = calloc(bigger.n_slots, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		for (size_t i = 0; i < m->n_slots; i++)
			if (m->slots[i].s)
				strmap_put(&bigger, m->slots[i].s,
					   m->slots[i].len, m->slots[i].val);
		free(m->slots);
		*m = bigger;
	}
	for (h = hash_bytes(s, len) & (m->n_slots - 1); m->slots[h].s;
	     h = (h + 1) & (m->n_slots - 1))
		;
	m->slots[h].s = s;
	m->slots[h].len = len;
	m->slots[h].val = val;
	m->n++;
	return 0;
}

/* ---- the lowering state ---- */

/* Pattern slots of a path entry; a pattern id is entry * 3 + slot. */
enum { SLOT_EXACT, SLOT_CHILD, SLOT_TREE, N_SLOTS };
static const uint32_t slot_flag[N_SLOTS] = { PFSEL_PATH_EXACT,
					     PFSEL_PATH_CHILD,
					     PFSEL_PATH_TREE };

/*
 * One application dimension (executables or scripts): the paths its
 * patterns name, the keys a concrete path can have (= its classes), and
 * per key the patterns that match it.
 */
struct dim {
	struct strmap map; /* path -> entry */
	struct pentry {
		const char *path;
		uint32_t flags;
		uint32_t key[N_SLOTS];
	} *ents;
	size_t n_ents, cap_ents;
	bool has_any; /* the pattern "*" is used */
	uint32_t n_keys, other_key;
	struct u32vec *key_pids; /* [n_keys] matched pattern ids */
};

#define PID_ANY PFSEL_NONE

struct rect {
	uint32_t alo, ahi, plo, phi, rule;
};

struct lower {
	const struct pfw_policy *pol;
	struct pfw_lowered *low;
	struct strmap strings;
	size_t cap_strings;
	struct dim exe, script;

	uint32_t *port_class; /* [65536] */
	uint32_t v4_lo, v4_hi; /* address classes of ::ffff:0:0/96 */

	struct u32vec global; /* rules with the plain pattern "*" */
	struct u32vec *plain; /* [exe pid] rules with a plain pattern */
	struct pairent {
		uint32_t exe_pid, script_pid, rule;
	} *pairs;
	size_t n_pairs, cap_pairs;

	struct seqtab apps; /* rule list -> app class */
	struct seqtab groups; /* rule list -> group */
	struct seqtab rows; /* (start, rule)... -> row */
	size_t cap_slabs, cap_cells, cap_exes, cap_pairs_out;

	/* scratch */
	struct rect *rects;
	size_t n_rects, cap_rects;
	struct u32vec tmp, tmp2, base;
};

static long intern_string(struct lower *l, const char *s)
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
	if (!str.s || PUSH(low->strings, low->n_strings, l->cap_strings, str)) {
		free(str.s);
		return -ENOMEM;
	}
	if (strmap_put(&l->strings, str.s, len, low->n_strings - 1))
		return -ENOMEM;
	return low->n_strings - 1;
}

/* ---- step 1: address and port classes ---- */

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

static uint32_t addr_class(const struct pfw_lowered *low, const uint8_t a[16])
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

static int add_bound(struct pfw_lowered *low, size_t *cap, const uint8_t *a)
{
	if (grow(&low->addrs, cap, low->n_addrs + 1, 16))
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

static int build_addr_classes(struct lower *l)
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
	l->v4_lo = addr_class(low, v4_first);
	l->v4_hi = addr_class(low, v4_last);
	return 0;
}

static int build_port_classes(struct lower *l)
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

/* ---- step 2: application keys and classes ---- */

static int dim_add(struct dim *d, const struct pfw_path_pattern *pat,
		   uint32_t *pid)
{
	uint32_t slot, e;

	if (pat->kind == PFW_PATH_ANY) {
		d->has_any = true;
		*pid = PID_ANY;
		return 0;
	}
	slot = pat->kind == PFW_PATH_EXACT ? SLOT_EXACT :
	       pat->kind == PFW_PATH_CHILD ? SLOT_CHILD :
					     SLOT_TREE;
	e = strmap_get(&d->map, pat->path, strlen(pat->path));
	if (e == PFSEL_NONE) {
		struct pentry ent = { .path = pat->path };

		if (PUSH(d->ents, d->n_ents, d->cap_ents, ent) ||
		    strmap_put(&d->map, pat->path, strlen(pat->path),
			       d->n_ents - 1))
			return -ENOMEM;
		e = d->n_ents - 1;
	}
	d->ents[e].flags |= slot_flag[slot];
	*pid = e * N_SLOTS + slot;
	return 0;
}

/* Pattern id of the (@slot) pattern of directory @s[0..len), or NONE. */
static uint32_t dim_pid(const struct dim *d, const char *s, size_t len,
			uint32_t slot)
{
	uint32_t e = strmap_get(&d->map, s, len);

	if (e == PFSEL_NONE || !(d->ents[e].flags & slot_flag[slot]))
		return PFSEL_NONE;
	return e * N_SLOTS + slot;
}

/*
 * Add the tree patterns of every directory D that a path starting with
 * @s[0..len) followed by something lies below because of a '/' inside @s
 * (D = @s[0..j) for each '/' at j < len).
 */
static int add_tree_chain(const struct dim *d, struct u32vec *out,
			  const char *s, size_t len)
{
	for (size_t j = 0; j < len; j++) {
		uint32_t pid;

		if (s[j] != '/')
			continue;
		pid = dim_pid(d, s, j, SLOT_TREE);
		if (pid != PFSEL_NONE && u32_push(out, pid))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The patterns matched by a path of key (@e, @slot): for an exact path, the
 * path; for a child key, "DIR/x" with x new; for a tree key, "D/x/y".  See
 * docs/LOWERING.md for why these are all the keys there are.
 */
static int key_matches(const struct dim *d, uint32_t e, uint32_t slot,
		       struct u32vec *out)
{
	const char *s = d->ents[e].path;
	size_t len = strlen(s);
	uint32_t pid;

	if (slot == SLOT_EXACT) {
		const char *slash = strrchr(s, '/');

		if (u32_push(out, e * N_SLOTS + SLOT_EXACT))
			return -ENOMEM;
		if (slash && slash[1]) {
			pid = dim_pid(d, s, slash - s, SLOT_CHILD);
			if (pid != PFSEL_NONE && u32_push(out, pid))
				return -ENOMEM;
		}
		/* Only the '/'s followed by something count. */
		return add_tree_chain(d, out, s,
				      slash && !slash[1] ? len - 1 : len);
	}
	if (slot == SLOT_CHILD && u32_push(out, e * N_SLOTS + SLOT_CHILD))
		return -ENOMEM;
	pid = dim_pid(d, s, len, SLOT_TREE);
	if (pid != PFSEL_NONE && u32_push(out, pid))
		return -ENOMEM;
	return add_tree_chain(d, out, s, len);
}

static int dim_build_keys(struct dim *d)
{
	uint32_t k = 0;

	for (size_t e = 0; e < d->n_ents; e++)
		for (uint32_t slot = 0; slot < N_SLOTS; slot++)
			d->ents[e].key[slot] =
				d->ents[e].flags & slot_flag[slot] ? k++ :
								     PFSEL_NONE;
	d->other_key = k++;
	d->n_keys = k;
	d->key_pids = calloc(k, sizeof(*d->key_pids));
	if (!d->key_pids)
		return -ENOMEM;
	for (size_t e = 0; e < d->n_ents; e++)
		for (uint32_t slot = 0; slot < N_SLOTS; slot++) {
			uint32_t key = d->ents[e].key[slot];

			if (key != PFSEL_NONE &&
			    key_matches(d, e, slot, &d->key_pids[key]))
				return -ENOMEM;
		}
	for (k = 0; k < d->n_keys; k++)
		if (d->has_any && u32_push(&d->key_pids[k], PID_ANY))
			return -ENOMEM;
	return 0;
}

static void dim_free(struct dim *d)
{
	for (uint32_t k = 0; k < d->n_keys; k++)
		free(d->key_pids[k].v);
	free(d->key_pids);
	free(d->ents);
	free(d->map.slots);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static void sort_unique(struct u32vec *v)
{
	size_t n = 0;

	if (v->n)
		qsort(v->v, v->n, sizeof(*v->v), cmp_u32);
	for (size_t i = 0; i < v->n; i++)
		if (!n || v->v[n - 1] != v->v[i])
			v->v[n++] = v->v[i];
	v->n = n;
}

static int cmp_path(const void *a, const void *b)
{
	const struct pentry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/* Name every pattern in its dimension, then sort the path entries. */
static int name_patterns(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	uint32_t pid;

	for (size_t r = 0; r < pol->n_rules; r++) {
		const struct pfw_rule *rule = &pol->rules[r];

		for (size_t a = 0; a < rule->n_apps; a++) {
			const struct pfw_app *app = &rule->apps[a];

			if (dim_add(&l->exe, &app->exe, &pid) ||
			    (app->is_script &&
			     dim_add(&l->script, &app->script, &pid)))
				return -ENOMEM;
		}
	}
	/* Sorted entries: the order of the path tables in the blob. */
	for (struct dim *d = &l->exe; d; d = d == &l->exe ? &l->script : NULL) {
		if (d->n_ents)
			qsort(d->ents, d->n_ents, sizeof(*d->ents),
			      cmp_path);
		free(d->map.slots);
		memset(&d->map, 0, sizeof(d->map));
		for (size_t e = 0; e < d->n_ents; e++)
			if (strmap_put(&d->map, d->ents[e].path,
				       strlen(d->ents[e].path), e))
				return -ENOMEM;
	}
	return 0;
}

/*
 * File each rule under its patterns: the "*" rules, per exe pattern the
 * rules of its plain patterns, and the (interpreter, script) pairs.
 */
static int collect_patterns(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	int err = name_patterns(l);

	if (err)
		return err;
	l->plain = calloc(l->exe.n_ents * N_SLOTS + 1, sizeof(*l->plain));
	if (!l->plain)
		return -ENOMEM;
	for (size_t r = 0; r < pol->n_rules; r++) {
		const struct pfw_rule *rule = &pol->rules[r];

		for (size_t a = 0; a < rule->n_apps; a++) {
			const struct pfw_app *app = &rule->apps[a];
			struct pairent p = { 0, 0, r };

			/* Already named: these cannot fail. */
			dim_add(&l->exe, &app->exe, &p.exe_pid);
			if (app->is_script) {
				dim_add(&l->script, &app->script,
					&p.script_pid);
				err = PUSH(l->pairs, l->n_pairs, l->cap_pairs,
					   p);
			} else {
				err = u32_push(p.exe_pid == PID_ANY ?
						       &l->global :
						       &l->plain[p.exe_pid],
					       r);
			}
			if (err)
				return err;
		}
	}
	sort_unique(&l->global);
	return 0;
}

static bool has_pid(const struct u32vec *pids, uint32_t pid)
{
	for (size_t i = 0; i < pids->n; i++)
		if (pids->v[i] == pid)
			return true;
	return false;
}

/* App class of the rule list in l->tmp (sorted, unique). */
static long intern_app(struct lower *l)
{
	return seq_intern(&l->apps, l->tmp.v, l->tmp.n);
}

static int build_apps(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	const struct dim *ex = &l->exe, *sc = &l->script;

	if (dim_build_keys(&l->exe) || dim_build_keys(&l->script))
		return -ENOMEM;
	low->exes = calloc(ex->n_keys, sizeof(*low->exes));
	if (!low->exes)
		return -ENOMEM;
	low->n_exes = ex->n_keys;
	for (uint32_t e = 0; e < ex->n_keys; e++) {
		const struct u32vec *mp = &ex->key_pids[e];
		size_t base_n;
		long base;

		/* Plain rules of the key: those of every pattern it matches. */
		l->tmp.n = 0;
		for (size_t i = 0; i < mp->n; i++) {
			const struct u32vec *rules;

			if (mp->v[i] == PID_ANY)
				continue;
			rules = &l->plain[mp->v[i]];
			for (size_t j = 0; j < rules->n; j++)
				if (u32_push(&l->tmp, rules->v[j]))
					return -ENOMEM;
		}
		sort_unique(&l->tmp);
		base = intern_app(l);
		if (base < 0)
			return base;
		low->exes[e].app = base;
		low->exes[e].pair_first = low->n_pairs;
		base_n = l->tmp.n;
		l->base.n = 0;
		for (size_t i = 0; i < base_n; i++)
			if (u32_push(&l->base, l->tmp.v[i]))
				return -ENOMEM;
		/* The pairs whose interpreter pattern this key matches. */
		l->tmp2.n = 0;
		for (uint32_t i = 0; i < l->n_pairs; i++)
			if (has_pid(mp, l->pairs[i].exe_pid) &&
			    u32_push(&l->tmp2, i))
				return -ENOMEM;
		for (uint32_t s = 0; l->tmp2.n && s < sc->n_keys; s++) {
			struct low_pair pair = { s, 0 };
			long app;

			/* Sorting below reorders tmp: rebuild the base part. */
			l->tmp.n = 0;
			for (size_t i = 0; i < base_n; i++)
				if (u32_push(&l->tmp, l->base.v[i]))
					return -ENOMEM;
			for (size_t i = 0; i < l->tmp2.n; i++) {
				const struct pairent *p =
					&l->pairs[l->tmp2.v[i]];

				if (has_pid(&sc->key_pids[s], p->script_pid) &&
				    u32_push(&l->tmp, p->rule))
					return -ENOMEM;
			}
			if (l->tmp.n == base_n)
				continue;
			sort_unique(&l->tmp);
			app = intern_app(l);
			if (app < 0)
				return app;
			if (app == base)
				continue;
			pair.app = app;
			if (PUSH(low->pairs, low->n_pairs, l->cap_pairs_out, pair))
				return -ENOMEM;
		}
		low->exes[e].pair_count = low->n_pairs - low->exes[e].pair_first;
	}
	low->n_script_classes = sc->n_keys;
	low->exe_other = ex->other_key;
	low->script_other = sc->other_key;
	return 0;
}

/*
 * The protected application classes.  A class is the list of every rule
 * that names its applications, not merely of the rules that decide for
 * them, so two applications whose protection differs never share one:
 * in "allow A, B; allow A protect;" the second rule decides nothing, yet
 * A's list holds it and B's does not.  Protection is then a property of
 * the list, and of the "*" rules, which every application has.
 */
static int build_protected(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	struct pfw_lowered *low = l->low;
	bool every = false;

	for (size_t i = 0; i < l->global.n; i++)
		every |= pol->rules[l->global.v[i]].protect;
	low->protected = calloc(l->apps.n_items + 1, sizeof(*low->protected));
	if (!low->protected)
		return -ENOMEM;
	for (uint32_t a = 0; a < l->apps.n_items; a++) {
		uint32_t len;
		const uint32_t *rules = seq_get(&l->apps, a, &len);
		bool protect = every;

		for (uint32_t i = 0; i < len && !protect; i++)
			protect = pol->rules[rules[i]].protect;
		if (protect)
			low->protected[low->n_protected++] = a;
	}
	return 0;
}

static int build_path_table(struct lower *l, const struct dim *d,
			    struct low_path **out, size_t *n_out)
{
	*out = calloc(d->n_ents ? d->n_ents : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t e = 0; e < d->n_ents; e++) {
		struct low_path *p = &(*out)[e];
		long str = intern_string(l, d->ents[e].path);

		if (str < 0)
			return str;
		p->str = str;
		p->flags = d->ents[e].flags;
		p->exact = d->ents[e].key[SLOT_EXACT];
		p->child = d->ents[e].key[SLOT_CHILD];
		p->tree = d->ents[e].key[SLOT_TREE];
	}
	*n_out = d->n_ents;
	return 0;
}

/* ---- step 3: groups, cells, slabs and rows ---- */

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
	if (u32_push(pts, 0))
		return -ENOMEM;
	for (size_t i = 0; i < nsegs; i++)
		if (u32_push(pts, segs[i].lo) ||
		    (segs[i].hi + 1 < n && u32_push(pts, segs[i].hi + 1)))
			return -ENOMEM;
	sort_unique(pts);
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
				       cmp_u32);
		size_t a = at - pts->v, b = m, k;

		if (segs[i].hi + 1 < n)
			b = (uint32_t *)bsearch(&(uint32_t){ segs[i].hi + 1 },
						pts->v, m, sizeof(uint32_t),
						cmp_u32) -
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
		    (u32_push(&l->tmp2, pts->v[k]) ||
		     u32_push(&l->tmp2, owner[k])))
			goto out;
	row = seq_intern(&l->rows, l->tmp2.v, l->tmp2.n);
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
		lo = addr_class(low, first);
		hi = addr_class(low, lastb);
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

static int add_rects(struct lower *l, const struct pfw_rule *rule,
		     uint32_t op, uint32_t proto)
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
			if (PUSH(l->rects, l->n_rects, l->cap_rects, r))
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
	if (PUSH(low->slabs, low->n_slabs, l->cap_slabs, slab))
		return -ENOMEM;
	cell->slab_count++;
	return 0;
}

/*
 * The cell for the rects in l->rects (in rule order): the row of those that
 * cover every address class, and slabs over the others, swept by address:
 * at every cut (a start, or one past an end) the active rects give a row.
 */
static int build_cell(struct lower *l, uint32_t op, uint32_t proto)
{
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
			segs[n_active++] = (struct seg){ r->plo, r->phi,
							 r->rule };
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
	qsort(cuts, n_cuts, sizeof(*cuts), cmp_u32);
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
		qsort(active, n_active, sizeof(*active), cmp_u32);
		for (size_t i = 0; i < n_active; i++) {
			const struct rect *r = &l->rects[active[i]];

			segs[i] = (struct seg){ r->plo, r->phi, r->rule };
		}
		row = n_active ? first_match_row(l, segs, n_active,
						 low->n_ports) :
				 PFSEL_NONE;
		if (row >= 0)
			row = push_slab(l, &cell, cuts[c], row);
	}
	if (!row && (cell.wild_row != PFSEL_NONE || cell.slab_count))
		row = PUSH(low->cells, low->n_cells, l->cap_cells, cell);
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
			}
			if (!l->n_rects)
				continue;
			err = build_cell(l, op, proto);
			if (err)
				return err;
		}
	range.count = l->low->n_cells - range.first;
	l->low->groups[l->low->n_groups++] = range;
	return 0;
}

static int build_groups(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	long global = -1;
	size_t cap = 0;

	/* The "*" rules: one group, first, shared by every application. */
	if (l->global.n) {
		global = seq_intern(&l->groups, l->global.v, l->global.n);
		if (global < 0)
			return global;
	}
	low->apps = calloc(l->apps.n_items, sizeof(*low->apps));
	if (!low->apps)
		return -ENOMEM;
	low->n_apps = l->apps.n_items;
	for (uint32_t a = 0; a < l->apps.n_items; a++) {
		uint32_t len;
		const uint32_t *rules = seq_get(&l->apps, a, &len);
		uint32_t ids[2], n = 0;

		if (global >= 0)
			ids[n++] = global;
		if (len) {
			long g = seq_intern(&l->groups, rules, len);

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
			if (PUSH(low->grouplist, low->n_grouplist, cap, ids[i]))
				return -ENOMEM;
	}
	low->groups = calloc(l->groups.n_items + 1, sizeof(*low->groups));
	if (!low->groups)
		return -ENOMEM;
	for (uint32_t g = 0; g < l->groups.n_items; g++) {
		uint32_t len;
		const uint32_t *rules = seq_get(&l->groups, g, &len);
		int err = build_group(l, rules, len);

		if (err)
			return err;
	}
	return 0;
}

static int build_rows(struct lower *l)
{
	struct pfw_lowered *low = l->low;

	low->rows = calloc(l->rows.n_items + 1, sizeof(*low->rows));
	low->runs = malloc((l->rows.data.n / 2 + 1) * sizeof(*low->runs));
	if (!low->rows || !low->runs)
		return -ENOMEM;
	for (uint32_t r = 0; r < l->rows.n_items; r++) {
		uint32_t len;
		const uint32_t *s = seq_get(&l->rows, r, &len);

		low->rows[r] = (struct low_range){ low->n_runs, len / 2 };
		for (uint32_t i = 0; i < len; i += 2)
			low->runs[low->n_runs++] =
				(struct low_run){ s[i], s[i + 1] };
	}
	low->n_rows = l->rows.n_items;
	return 0;
}

static int build_rules(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	struct pfw_lowered *low = l->low;

	if (pol->n_rules >= PFSEL_NONE)
		return -E2BIG;
	low->rules = calloc(pol->n_rules + 1, sizeof(*low->rules));
	if (!low->rules)
		return -ENOMEM;
	for (size_t r = 0; r < pol->n_rules; r++) {
		const struct pfw_rule *rule = &pol->rules[r];
		long file = intern_string(l, rule->loc.file ? rule->loc.file :
							      "");

		if (file < 0)
			return file;
		low->rules[r] = (struct low_rule){ rule->verdict, rule->audit,
						   file, rule->loc.line,
						   rule->loc.col };
	}
	low->n_rules = pol->n_rules;
	return 0;
}

void pfw_lowered_free(struct pfw_lowered *low)
{
	if (!low)
		return;
	for (size_t i = 0; i < low->n_strings; i++)
		free(low->strings[i].s);
	free(low->strings);
	free(low->rules);
	free(low->ports);
	free(low->addrs);
	free(low->runs);
	free(low->rows);
	free(low->slabs);
	free(low->cells);
	free(low->groups);
	free(low->grouplist);
	free(low->apps);
	free(low->pairs);
	free(low->exes);
	free(low->exe_paths);
	free(low->script_paths);
	free(low->protected);
	free(low);
}

int pfw_lower(const struct pfw_policy *policy, struct pfw_lowered **out)
{
	const struct pfw_settings *set = &policy->settings;
	struct lower l = { .pol = policy };
	int err;

	l.low = calloc(1, sizeof(*l.low));
	if (!l.low)
		return -ENOMEM;
	l.low->flags = set->is_system ? PFSEL_POLICY_F_SYSTEM : 0;
	if (set->permissive)
		l.low->flags |= PFSEL_POLICY_F_PERMISSIVE;
	l.low->uid = set->is_system ? 0 : set->uid;
	l.low->default_verdict = set->default_verdict;
	l.low->default_audit = set->default_audit;
	l.low->no_answer = set->no_answer;
	l.low->ask_timeout_ms = set->ask_timeout_ms;

	err = build_rules(&l);
	if (!err)
		err = build_addr_classes(&l);
	if (!err)
		err = build_port_classes(&l);
	if (!err)
		err = collect_patterns(&l);
	if (!err)
		err = build_apps(&l);
	if (!err)
		err = build_protected(&l);
	if (!err)
		err = build_path_table(&l, &l.exe, &l.low->exe_paths,
				       &l.low->n_exe_paths);
	if (!err)
		err = build_path_table(&l, &l.script, &l.low->script_paths,
				       &l.low->n_script_paths);
	if (!err)
		err = build_groups(&l);
	if (!err)
		err = build_rows(&l);

	dim_free(&l.exe);
	dim_free(&l.script);
	for (size_t i = 0; l.plain && i < l.exe.n_ents * N_SLOTS + 1; i++)
		free(l.plain[i].v);
	free(l.plain);
	free(l.global.v);
	free(l.pairs);
	seq_free(&l.apps);
	seq_free(&l.groups);
	seq_free(&l.rows);
	free(l.rects);
	free(l.tmp.v);
	free(l.tmp2.v);
	free(l.base.v);
	free(l.port_class);
	free(l.strings.slots);
	if (err) {
		pfw_lowered_free(l.low);
		return err;
	}
	*out = l.low;
	return 0;
}
