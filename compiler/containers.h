/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the containers of the lowering (containers.c): growable arrays,
 * vectors of u32, a hash-consing table of u32 sequences, a string map.
 * Errors are negative errno values.
 */
#ifndef PFWC_CONTAINERS_H
#define PFWC_CONTAINERS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Make room in the array *@pp (of *@cap elements of @size bytes) for @need
 * elements, doubling.  Returns 0 or -ENOMEM (the array is untouched).
 */
int pfw_grow(void *pp, size_t *cap, size_t need, size_t size);

/* Append @val to @arr of @n elements and capacity @cap: 0 or -ENOMEM. */
#define PFW_PUSH(arr, n, cap, val)                                          \
	(pfw_grow(&(arr), &(cap), (n) + 1, sizeof(*(arr))) ? -ENOMEM :       \
							 ((arr)[(n)++] = (val), 0))

/* FNV-1a over @len bytes, with a final mix. */
uint64_t pfw_hash_bytes(const void *p, size_t len);

struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

int u32vec_push(struct u32vec *vec, uint32_t x);
/* qsort() comparison of two uint32_t. */
int u32_compare(const void *a, const void *b);
/* Sort @v and drop repeated values. */
void u32vec_sort_unique(struct u32vec *v);

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

/* The sequence of id @id, and its length in *@len. */
const uint32_t *seqtab_get(const struct seqtab *t, uint32_t id, uint32_t *len);
/*
 * The id of @s (new or old), or a negative errno: -E2BIG past the format's
 * index range (PFSEL_NONE), -ENOMEM.
 */
long seqtab_intern(struct seqtab *t, const uint32_t *s, uint32_t len);
void seqtab_free(struct seqtab *t);

/* A map from bytes to an index; the bytes are the caller's, not copied. */
struct strmap {
	struct {
		const char *s;
		size_t len;
		uint32_t val;
	} *slots; /* s == NULL: empty */
	size_t n_slots, n;
};

/* The index of @s[0..@len), or PFSEL_NONE. */
uint32_t strmap_get(const struct strmap *m, const char *s, size_t len);
/* Map @s[0..@len) to @val (a new entry: @s must not be in @m). */
int strmap_put(struct strmap *m, const char *s, size_t len, uint32_t val);

#endif /* PFWC_CONTAINERS_H */
