// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - write the binary pfsel policy (policy/FORMAT.md) from the lowered
 * form, byte by byte in little-endian, whatever the host.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "policydb.h"

struct writer {
	uint8_t *buf;
	size_t pos;
};

static void put8(struct writer *w, uint8_t v)
{
	w->buf[w->pos++] = v;
}

static void put16(struct writer *w, uint16_t v)
{
	put8(w, v & 0xff);
	put8(w, v >> 8);
}

static void put32(struct writer *w, uint32_t v)
{
	put16(w, v & 0xffff);
	put16(w, v >> 16);
}

static void put_range(struct writer *w, const struct low_range *r)
{
	put32(w, r->first);
	put32(w, r->count);
}

static void put_path(struct writer *w, const struct low_path *p)
{
	put32(w, p->str);
	put32(w, p->flags);
	put32(w, p->exact);
	put32(w, p->child);
	put32(w, p->tree);
	put32(w, 0);
}

/* A new section needs its size and its writer below. */
_Static_assert(PFSEL_SEC_LAST == PFSEL_SEC_RESOLVERS,
	       "section_sizes() and write_section() know every section");

/* Entry counts and byte sizes of the sections, in section order. */
static void section_sizes(const struct pfw_lowered *low,
			  size_t count[PFSEL_SEC_COUNT],
			  size_t size[PFSEL_SEC_COUNT])
{
	size_t strings = 0;

	for (size_t i = 0; i < low->n_strings; i++)
		strings += 4 + ((low->strings[i].len + 3) & ~(size_t)3);

#define SEC(id, n, bytes)                             \
	do {                                          \
		count[(id)-PFSEL_SEC_FIRST] = (n);    \
		size[(id)-PFSEL_SEC_FIRST] = (bytes); \
	} while (0)
	SEC(PFSEL_SEC_SETTINGS, 1, sizeof(struct pfsel_policy_settings));
	SEC(PFSEL_SEC_STRINGS, low->n_strings, strings);
	SEC(PFSEL_SEC_RULES, low->n_rules, low->n_rules * 16);
	SEC(PFSEL_SEC_PORTS, low->n_ports, low->n_ports * 2);
	SEC(PFSEL_SEC_ADDRS, low->n_addrs, low->n_addrs * 16);
	SEC(PFSEL_SEC_RUNS, low->n_runs, low->n_runs * 8);
	SEC(PFSEL_SEC_ROWS, low->n_rows, low->n_rows * 8);
	SEC(PFSEL_SEC_SLABS, low->n_slabs, low->n_slabs * 8);
	SEC(PFSEL_SEC_CELLS, low->n_cells, low->n_cells * 16);
	SEC(PFSEL_SEC_GROUPS, low->n_groups, low->n_groups * 8);
	SEC(PFSEL_SEC_GROUPLIST, low->n_grouplist, low->n_grouplist * 4);
	SEC(PFSEL_SEC_APPS, low->n_apps, low->n_apps * 8);
	SEC(PFSEL_SEC_PAIRS, low->n_pairs, low->n_pairs * 8);
	SEC(PFSEL_SEC_EXES, low->n_exes, low->n_exes * 16);
	SEC(PFSEL_SEC_EXE_PATHS, low->n_exe_paths, low->n_exe_paths * 24);
	SEC(PFSEL_SEC_SCRIPT_PATHS, low->n_script_paths,
	    low->n_script_paths * 24);
	SEC(PFSEL_SEC_PROTECTED, low->n_protected, low->n_protected * 4);
	SEC(PFSEL_SEC_NAME_SLABS, low->n_name_slabs, low->n_name_slabs * 8);
	/* One per cell, even when every slice is empty. */
	SEC(PFSEL_SEC_NAME_CELLS, low->n_cells, low->n_cells * 8);
	SEC(PFSEL_SEC_NAME_PATTERNS, low->n_name_patterns,
	    low->n_name_patterns * 24);
	SEC(PFSEL_SEC_RESOLVERS, low->n_resolvers, low->n_resolvers * 8);
#undef SEC
}

static void write_section(struct writer *w, const struct pfw_lowered *low,
			  uint32_t id)
{
	size_t i;

	switch (id) {
	case PFSEL_SEC_SETTINGS:
		put32(w, low->default_verdict);
		put32(w, low->default_audit);
		put32(w, low->no_answer);
		put32(w, low->ask_timeout_ms);
		put32(w, low->n_script_classes);
		put32(w, low->exe_other);
		put32(w, low->script_other);
		put32(w, low->n_name_classes);
		break;
	case PFSEL_SEC_STRINGS:
		for (i = 0; i < low->n_strings; i++) {
			put32(w, low->strings[i].len);
			memcpy(w->buf + w->pos, low->strings[i].s,
			       low->strings[i].len);
			/* The buffer is zeroed: padding is skipped over. */
			w->pos += (low->strings[i].len + 3) & ~(size_t)3;
		}
		break;
	case PFSEL_SEC_RULES:
		for (i = 0; i < low->n_rules; i++) {
			put8(w, low->rules[i].verdict);
			put8(w, low->rules[i].audit);
			put16(w, 0);
			put32(w, low->rules[i].file);
			put32(w, low->rules[i].line);
			put32(w, low->rules[i].col);
		}
		break;
	case PFSEL_SEC_PORTS:
		for (i = 0; i < low->n_ports; i++)
			put16(w, low->ports[i]);
		break;
	case PFSEL_SEC_ADDRS:
		memcpy(w->buf + w->pos, low->addrs, low->n_addrs * 16);
		w->pos += low->n_addrs * 16;
		break;
	case PFSEL_SEC_RUNS:
		for (i = 0; i < low->n_runs; i++) {
			put32(w, low->runs[i].start);
			put32(w, low->runs[i].rule);
		}
		break;
	case PFSEL_SEC_ROWS:
		for (i = 0; i < low->n_rows; i++)
			put_range(w, &low->rows[i]);
		break;
	case PFSEL_SEC_SLABS:
		for (i = 0; i < low->n_slabs; i++) {
			put32(w, low->slabs[i].start);
			put32(w, low->slabs[i].row);
		}
		break;
	case PFSEL_SEC_CELLS:
		for (i = 0; i < low->n_cells; i++) {
			put8(w, low->cells[i].op);
			put8(w, low->cells[i].proto);
			put16(w, 0);
			put32(w, low->cells[i].wild_row);
			put32(w, low->cells[i].slab_first);
			put32(w, low->cells[i].slab_count);
		}
		break;
	case PFSEL_SEC_GROUPS:
		for (i = 0; i < low->n_groups; i++)
			put_range(w, &low->groups[i]);
		break;
	case PFSEL_SEC_GROUPLIST:
		for (i = 0; i < low->n_grouplist; i++)
			put32(w, low->grouplist[i]);
		break;
	case PFSEL_SEC_APPS:
		for (i = 0; i < low->n_apps; i++)
			put_range(w, &low->apps[i]);
		break;
	case PFSEL_SEC_PAIRS:
		for (i = 0; i < low->n_pairs; i++) {
			put32(w, low->pairs[i].script_class);
			put32(w, low->pairs[i].app);
		}
		break;
	case PFSEL_SEC_EXES:
		for (i = 0; i < low->n_exes; i++) {
			put32(w, low->exes[i].app);
			put32(w, low->exes[i].pair_first);
			put32(w, low->exes[i].pair_count);
			put32(w, 0);
		}
		break;
	case PFSEL_SEC_EXE_PATHS:
		for (i = 0; i < low->n_exe_paths; i++)
			put_path(w, &low->exe_paths[i]);
		break;
	case PFSEL_SEC_SCRIPT_PATHS:
		for (i = 0; i < low->n_script_paths; i++)
			put_path(w, &low->script_paths[i]);
		break;
	case PFSEL_SEC_PROTECTED:
		for (i = 0; i < low->n_protected; i++)
			put32(w, low->protected[i]);
		break;
	case PFSEL_SEC_NAME_SLABS:
		for (i = 0; i < low->n_name_slabs; i++) {
			put32(w, low->name_slabs[i].start);
			put32(w, low->name_slabs[i].row);
		}
		break;
	case PFSEL_SEC_NAME_CELLS:
		for (i = 0; i < low->n_cells; i++)
			put_range(w, &low->name_cells[i]);
		break;
	case PFSEL_SEC_NAME_PATTERNS:
		for (i = 0; i < low->n_name_patterns; i++)
			put_path(w, &low->name_patterns[i]);
		break;
	case PFSEL_SEC_RESOLVERS:
		for (i = 0; i < low->n_resolvers; i++) {
			put32(w, low->resolvers[i].app);
			put32(w, low->resolvers[i].flags);
		}
		break;
	}
}

int pfw_emit_pfsel(const struct pfw_lowered *low, uint8_t **buf, size_t *len)
{
	size_t count[PFSEL_SEC_COUNT], size[PFSEL_SEC_COUNT];
	size_t offset[PFSEL_SEC_COUNT], end, total;
	struct writer w;

	section_sizes(low, count, size);
	end = sizeof(struct pfsel_policy_header) +
	      PFSEL_SEC_COUNT * sizeof(struct pfsel_policy_section);
	for (size_t i = 0; i < PFSEL_SEC_COUNT; i++) {
		if (count[i] >= PFSEL_NONE || size[i] > PFSEL_POLICY_MAX_SIZE)
			return -E2BIG;
		offset[i] = (end + PFSEL_POLICY_ALIGN - 1) &
			    ~(size_t)(PFSEL_POLICY_ALIGN - 1);
		end = offset[i] + size[i];
	}
	total = (end + PFSEL_POLICY_ALIGN - 1) &
		~(size_t)(PFSEL_POLICY_ALIGN - 1);
	if (total > PFSEL_POLICY_MAX_SIZE)
		return -E2BIG;
	w.buf = calloc(1, total);
	if (!w.buf)
		return -ENOMEM;
	w.pos = 0;
	put32(&w, PFSEL_POLICY_MAGIC);
	put32(&w, PFSEL_POLICY_VERSION);
	put32(&w, total);
	put32(&w, 0); /* checksum, below */
	put32(&w, low->flags);
	put32(&w, low->uid);
	put32(&w, PFSEL_SEC_COUNT);
	put32(&w, 0);
	for (size_t i = 0; i < PFSEL_SEC_COUNT; i++) {
		put32(&w, PFSEL_SEC_FIRST + i);
		put32(&w, count[i]);
		put32(&w, offset[i]);
		put32(&w, size[i]);
	}
	for (size_t i = 0; i < PFSEL_SEC_COUNT; i++) {
		w.pos = offset[i];
		write_section(&w, low, PFSEL_SEC_FIRST + i);
	}
	w.pos = offsetof(struct pfsel_policy_header, checksum);
	put32(&w, pfsel_policydb_checksum(w.buf, total));
	*buf = w.buf;
	*len = total;
	return 0;
}

int pfw_serialize(const struct pfw_lowered *low, struct pfw_serialized *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = pfw_emit_pfsel(low, &out->blob, &out->len);
	if (err)
		return err;
	/* The kernel's own reader must accept what we wrote. */
	if (pfsel_policydb_load(out->blob, out->len, &out->db)) {
		pfw_serialized_free(out);
		return -EPROTO;
	}
	return 0;
}

void pfw_serialized_free(struct pfw_serialized *s)
{
	free(s->blob);
	pfsel_policydb_free(s->db);
	memset(s, 0, sizeof(*s));
}

int pfw_compile_pfsel(const struct pfw_policy *policy, uint8_t **buf,
		      size_t *len)
{
	struct pfw_serialized s;
	struct pfw_lowered *low;
	int err = pfw_lower(policy, &low);

	if (err)
		return err;
	err = pfw_serialize(low, &s);
	pfw_lowered_free(low);
	if (err)
		return err;
	*buf = s.blob;
	*len = s.len;
	s.blob = NULL;
	pfw_serialized_free(&s);
	return 0;
}
