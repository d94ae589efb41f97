// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the containers of the lowering: growable arrays, vectors of u32,
 * a hash-consing table of u32 sequences (equal sequences get one id, ids in
 * the order first seen) and a map from byte strings to an index.
 *
 * Nothing here knows about policies; lower.c and its steps build on these.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "containers.h"
#include "pfsel_policy.h"

int pfw_grow(void *pp, size_t *cap, size_t need, size_t size)
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


int u32vec_push(struct u32vec *vec, uint32_t x)
{
	return PFW_PUSH(vec->v, vec->n, vec->cap, x);
}

uint64_t pfw_hash_bytes(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 1469598103934665603ull;

	while (len--)
		h = (h ^ *b++) * 1099511628211ull;
	return h ^ (h >> 29);
}


const uint32_t *seqtab_get(const struct seqtab *t, uint32_t id,
			       uint32_t *len)
{
	*len = t->items[id].len;
	return t->data.v + t->items[id].off;
}

static int seqtab_rehash(struct seqtab *t)
{
	size_t n = t->n_slots ? t->n_slots * 2 : 64;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t id = 0; id < t->n_items; id++) {
		uint32_t len;
		const uint32_t *s = seqtab_get(t, id, &len);
		size_t h = pfw_hash_bytes(s, len * sizeof(*s)) & (n - 1);

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
long seqtab_intern(struct seqtab *t, const uint32_t *s, uint32_t len)
{
	size_t h;

	if ((t->n_items + 1) * 2 > t->n_slots && seqtab_rehash(t))
		return -ENOMEM;
	h = pfw_hash_bytes(s, len * sizeof(*s)) & (t->n_slots - 1);
	for (; t->slots[h]; h = (h + 1) & (t->n_slots - 1)) {
		uint32_t olen;
		const uint32_t *o = seqtab_get(t, t->slots[h] - 1, &olen);

		if (olen == len && !memcmp(o, s, len * sizeof(*s)))
			return t->slots[h] - 1;
	}
	if (t->n_items >= PFSEL_NONE - 1)
		return -E2BIG;
	if (pfw_grow(&t->items, &t->cap_items, t->n_items + 1, sizeof(*t->items)) ||
	    pfw_grow(&t->data.v, &t->data.cap, t->data.n + len, sizeof(uint32_t)))
		return -ENOMEM;
	t->items[t->n_items].off = t->data.n;
	t->items[t->n_items].len = len;
	if (len)
		memcpy(t->data.v + t->data.n, s, len * sizeof(*s));
	t->data.n += len;
	t->slots[h] = ++t->n_items;
	return t->n_items - 1;
}

void seqtab_free(struct seqtab *t)
{
	free(t->data.v);
	free(t->items);
	free(t->slots);
}


uint32_t strmap_get(const struct strmap *m, const char *s, size_t len)
{
	if (!m->n_slots)
		return PFSEL_NONE;
	for (size_t h = pfw_hash_bytes(s, len) & (m->n_slots - 1); m->slots[h].s;
	     h = (h + 1) & (m->n_slots - 1))
		if (m->slots[h].len == len && !memcmp(m->slots[h].s, s, len))
			return m->slots[h].val;
	return PFSEL_NONE;
}

int strmap_put(struct strmap *m, const char *s, size_t len,
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
	for (h = pfw_hash_bytes(s, len) & (m->n_slots - 1); m->slots[h].s;
	     h = (h + 1) & (m->n_slots - 1))
		;
	m->slots[h].s = s;
	m->slots[h].len = len;
	m->slots[h].val = val;
	m->n++;
	return 0;
}

int u32_compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

void u32vec_sort_unique(struct u32vec *v)
{
	size_t n = 0;

	if (v->n)
		qsort(v->v, v->n, sizeof(*v->v), u32_compare);
	for (size_t i = 0; i < v->n; i++)
		if (!n || v->v[n - 1] != v->v[i])
			v->v[n++] = v->v[i];
	v->n = n;
}

