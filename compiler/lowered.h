/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the lowered policy: the decision structure of the binary format
 * (policy/FORMAT.md), what the lowering (lower.h) makes and the emitters
 * read
 *
 * struct pfw_lowered mirrors the sections of the format one to one, in host
 * byte order; emit_pfsel.c only serialises it.  Indexes and class numbers
 * here are the ones written to the blob.  The lowering's steps fill it, so
 * it stands below them and below their driver.
 */
#ifndef PFWC_LOWERED_H
#define PFWC_LOWERED_H

#include <stddef.h>
#include <stdint.h>

/* [first, first + count) of a later table (rows, groups, apps). */
struct low_range {
	uint32_t first;
	uint32_t count;
};

struct low_rule {
	uint8_t verdict;
	uint8_t audit;
	uint32_t file; /* string index */
	uint32_t line;
	uint32_t col;
};

struct low_run {
	uint32_t start; /* port class */
	uint32_t rule; /* or PFSEL_NONE */
};

struct low_slab {
	uint32_t start; /* address class */
	uint32_t row; /* or PFSEL_NONE */
};

struct low_cell {
	uint8_t op; /* enum pfsel_op */
	uint8_t proto; /* enum pfsel_proto */
	uint32_t wild_row; /* or PFSEL_NONE */
	uint32_t slab_first;
	uint32_t slab_count;
};

struct low_pair {
	uint32_t script_class;
	uint32_t app;
};

struct low_exe {
	uint32_t app;
	uint32_t pair_first;
	uint32_t pair_count;
};

struct low_path {
	uint32_t str; /* string index */
	uint32_t flags; /* PFSEL_PATH_* */
	uint32_t exact, child, tree; /* class, or PFSEL_NONE */
};

struct low_resolver {
	uint32_t app; /* application class */
	uint32_t flags; /* PFSEL_RESOLVER_* */
};

struct low_string {
	char *s; /* owned, NUL-terminated */
	uint32_t len;
};

/*
 * struct pfw_lowered - a policy in the shape of the binary format
 *
 * Each array has its n_ count; the meaning of every table is the section of
 * the same name in policy/FORMAT.md.
 */
struct pfw_lowered {
	uint32_t flags; /* PFSEL_POLICY_F_* */
	uint32_t uid;
	uint32_t default_verdict, default_audit, no_answer, ask_timeout_ms;
	uint32_t n_script_classes, exe_other, script_other;

	struct low_string *strings;
	size_t n_strings;
	struct low_rule *rules;
	size_t n_rules;
	uint16_t *ports;
	size_t n_ports;
	uint8_t (*addrs)[16];
	size_t n_addrs;
	struct low_run *runs;
	size_t n_runs;
	struct low_range *rows;
	size_t n_rows;
	struct low_slab *slabs;
	size_t n_slabs;
	struct low_cell *cells;
	size_t n_cells;
	struct low_range *groups;
	size_t n_groups;
	uint32_t *grouplist;
	size_t n_grouplist;
	struct low_range *apps;
	size_t n_apps;
	struct low_pair *pairs;
	size_t n_pairs;
	struct low_exe *exes;
	size_t n_exes;
	struct low_path *exe_paths;
	size_t n_exe_paths;
	struct low_path *script_paths;
	size_t n_script_paths;
	uint32_t *protected; /* protected app classes, increasing */
	size_t n_protected;

	uint32_t n_name_classes; /* >= 1; class 0: names no pattern matches */
	struct low_slab *name_slabs; /* start is a name class */
	size_t n_name_slabs;
	struct low_range *name_cells; /* [n_cells]: each cell's name slabs */
	struct low_path *name_patterns; /* child is always PFSEL_NONE */
	size_t n_name_patterns;
	struct low_resolver *resolvers; /* by increasing app class */
	size_t n_resolvers;
};

#endif /* PFWC_LOWERED_H */
