/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel - the policy database: reader and evaluator of the binary format
 *
 * Two sources, policydb.c (read and validate) and policydb_lookup.c
 * (classify and decide), for the kernel and for user space (pfwc --query,
 * tests, fuzzers), the latter through compiler/kshim.  The format is in
 * policy/FORMAT.md and uapi/pfsel_policy.h.
 */
#ifndef _SECURITY_PFSEL_POLICYDB_H
#define _SECURITY_PFSEL_POLICYDB_H

#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "uapi/pfsel_policy.h"

/**
 * struct pfsel_string - a string of the string table, not NUL-terminated
 * @s: first byte, inside the policy's copy of the blob
 * @len: length in bytes
 */
struct pfsel_string {
	const char *s;
	u32 len;
};

/**
 * struct pfsel_policydb - a validated policy, ready for lookups
 * @blob: the policy's own copy of the blob; the pointers below point into it
 * @size: size of @blob
 * @flags: header flags (PFSEL_POLICY_F_*)
 * @uid: target uid (0 for the system policy)
 * @default_verdict: verdict when no rule matches
 * @default_audit: audit flags of the default decision
 * @no_answer: verdict when an ask goes unanswered
 * @ask_timeout_ms: how long an ask may wait
 * @n_script_classes: number of script classes
 * @exe_other: exe class of an unnamed executable
 * @script_other: script class of an unnamed script
 * @n_name_classes: number of host name classes (class 0: names no "host"
 *		    pattern matches)
 * @strings: @n_strings strings
 * @n_strings: number of strings
 * @rules: @n_rules rules (verdict, audit flags, source location)
 * @n_rules: number of rules
 * @ports: first port of each of the @n_ports port classes
 * @n_ports: number of port classes
 * @addrs: first address of each of the @n_addrs address classes
 * @n_addrs: number of address classes
 * @v4_first: the first address class starting in ::ffff:0:0/96 (IPv4), or
 *	      the first after it if none does (pfsel_policydb_index_addrs())
 * @v4_end: the first address class after @v4_first starting above it
 * @runs: @n_runs runs of port classes, sliced into rows by @rows
 * @n_runs: number of runs
 * @rows: @n_rows slices of @runs
 * @n_rows: number of rows
 * @slabs: @n_slabs runs of address classes, sliced into cells by @cells
 * @n_slabs: number of slabs
 * @cells: @n_cells (operation, protocol) tables, sliced into groups
 * @n_cells: number of cells
 * @groups: @n_groups rule groups, each a slice of @cells
 * @n_groups: number of groups
 * @grouplist: @n_grouplist group indexes, sliced into applications
 * @n_grouplist: number of group indexes
 * @apps: @n_apps application classes, each a slice of @grouplist
 * @n_apps: number of application classes
 * @pairs: @n_pairs (script class, application class) pairs
 * @n_pairs: number of pairs
 * @exes: @n_exes exe classes
 * @n_exes: number of exe classes
 * @exe_paths: @n_exe_paths path entries for executables, sorted
 * @n_exe_paths: number of executable path entries
 * @script_paths: @n_script_paths path entries for scripts, sorted
 * @n_script_paths: number of script path entries
 * @protected: @n_protected protected application classes, increasing
 * @n_protected: number of protected application classes
 * @name_slabs: @n_name_slabs runs of name classes, sliced by @name_cells
 * @n_name_slabs: number of name slabs
 * @name_cells: one slice of @name_slabs per cell (@n_cells of them)
 * @name_patterns: @n_name_patterns host name patterns, sorted by string
 * @n_name_patterns: number of host name patterns
 * @resolvers: @n_resolvers resolver application classes, increasing
 * @n_resolvers: number of resolver entries (0 in a user policy)
 *
 * Immutable once loaded: lookups need no locking.
 */
struct pfsel_policydb {
	void *blob;
	size_t size;
	u32 flags;
	u32 uid;
	u32 default_verdict;
	u32 default_audit;
	u32 no_answer;
	u32 ask_timeout_ms;
	u32 n_script_classes;
	u32 exe_other;
	u32 script_other;
	u32 n_name_classes;

	struct pfsel_string *strings;
	u32 n_strings;
	const struct pfsel_policy_rule *rules;
	u32 n_rules;
	const struct pfsel_policy_port *ports;
	u32 n_ports;
	const struct pfsel_policy_addr *addrs;
	u32 n_addrs;
	u32 v4_first;
	u32 v4_end;
	const struct pfsel_policy_run *runs;
	u32 n_runs;
	const struct pfsel_policy_range *rows;
	u32 n_rows;
	const struct pfsel_policy_slab *slabs;
	u32 n_slabs;
	const struct pfsel_policy_cell *cells;
	u32 n_cells;
	const struct pfsel_policy_range *groups;
	u32 n_groups;
	const __le32 *grouplist;
	u32 n_grouplist;
	const struct pfsel_policy_range *apps;
	u32 n_apps;
	const struct pfsel_policy_pair *pairs;
	u32 n_pairs;
	const struct pfsel_policy_exe *exes;
	u32 n_exes;
	const struct pfsel_policy_path *exe_paths;
	u32 n_exe_paths;
	const struct pfsel_policy_path *script_paths;
	u32 n_script_paths;
	const struct pfsel_policy_protected *protected;
	u32 n_protected;
	const struct pfsel_policy_slab *name_slabs;
	u32 n_name_slabs;
	const struct pfsel_policy_range *name_cells;
	const struct pfsel_policy_path *name_patterns;
	u32 n_name_patterns;
	const struct pfsel_policy_resolver *resolvers;
	u32 n_resolvers;
};

/**
 * struct pfsel_decision - the answer to one request
 * @verdict: enum pfsel_verdict
 * @audit: PFSEL_AUDIT_* flags
 * @rule: index of the deciding rule, or PFSEL_NONE for the default
 * @names: some group of the application has, for the request's operation
 *	   and protocol, a cell with name slabs: the host names known for
 *	   the address can change the decision, so the caller must also ask
 *	   pfsel_policydb_decide_name() for each of their name classes (and
 *	   must not cache the result as if it depended on the address alone)
 */
struct pfsel_decision {
	u32 verdict;
	u32 audit;
	u32 rule;
	bool names;
};

/*
 * Orders both files keep: the reader checks tables against them, the
 * lookups search tables by them.
 */

/* Order of strings: bytewise, a proper prefix first. */
static inline int pfsel_policydb_str_cmp(const char *a, u32 alen,
					 const char *b, u32 blen)
{
	int c = memcmp(a, b, min(alen, blen));

	if (c)
		return c;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return 0;
}

/* Order of a group's cells: by operation, then protocol. */
static inline u32 pfsel_policydb_cell_key(const struct pfsel_policy_cell *cell)
{
	return cell->op * PFSEL_PROTO_COUNT + cell->proto;
}

int pfsel_policydb_load(const void *blob, size_t len,
			struct pfsel_policydb **out);
int pfsel_policydb_adopt(void *blob, size_t len, struct pfsel_policydb **out);
void pfsel_policydb_free(struct pfsel_policydb *db);

u32 pfsel_policydb_checksum(const void *blob, size_t len);

/*
 * The path an unnamed executable or script is classified by (app.c): a
 * process whose file init's mount tree does not reach, or a task that has
 * executed nothing.  Patterns are absolute paths, so pfwc writes no entry
 * that equals it or holds it: it falls in the "other" class, which only
 * "*" rules reach.  pfsel_compare() asks with this very string.
 */
#define PFSEL_UNNAMED_PATH "?"

u32 pfsel_policydb_classify_app(const struct pfsel_policydb *db,
				const char *exe, const char *script);
/**
 * pfsel_policydb_addr_word - Eight bytes of an address as a number
 * @bytes: the first or the last 8 of an address's 16, in any alignment
 *
 * Addresses (network order) order as the pair of these words, high first:
 * the class search and the class caches compare them so.
 *
 * Return: the bytes as a big-endian number.
 */
static inline u64 pfsel_policydb_addr_word(const u8 *bytes)
{
	__be64 word;

	memcpy(&word, bytes, sizeof(word));
	return be64_to_cpu(word);
}

bool pfsel_policydb_app_protected(const struct pfsel_policydb *db,
				  u32 app_class);
u32 pfsel_policydb_classify_addr(const struct pfsel_policydb *db,
				 const u8 addr[16]);
void pfsel_policydb_index_addrs(struct pfsel_policydb *db);
u32 pfsel_policydb_classify_port(const struct pfsel_policydb *db, u16 port);
void pfsel_policydb_family_addr(u32 family, u8 addr[16]);

int pfsel_policydb_decide(const struct pfsel_policydb *db, u32 app_class,
			  u32 op, u32 proto, u32 addr_class, u32 port_class,
			  struct pfsel_decision *res);

/*
 * Two searches of pfsel_policydb_decide(), for a caller that walks a
 * policy's groups itself (libpfsel's pfsel_compare()).
 */

/**
 * pfsel_policydb_group_cell - a group's cell for one kind of request
 * @db: the policy
 * @group: a group index of @db
 * @key: the request's operation and protocol, as pfsel_policydb_cell_key()
 *
 * Return: the cell, or NULL when the group has none for @key.
 */
static inline const struct pfsel_policy_cell *
pfsel_policydb_group_cell(const struct pfsel_policydb *db, u32 group, u32 key)
{
	const struct pfsel_policy_cell *cell =
		db->cells + le32_to_cpu(db->groups[group].first);
	u32 lo = 0, hi = le32_to_cpu(db->groups[group].count);

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 k = pfsel_policydb_cell_key(&cell[mid]);

		if (k == key)
			return &cell[mid];
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

u32 pfsel_policydb_row_rule(const struct pfsel_policydb *db, u32 row,
			    u32 port_class);

/**
 * pfsel_policydb_slab_row - the row a cell's slabs give an address class
 * @db: the policy
 * @cell: a cell of @db
 * @addr_class: an address class of @db
 *
 * Return: the row of the last slab starting at or below @addr_class, or
 * PFSEL_NONE when the cell has no slabs (only its wildcard row decides).
 */
static inline u32 pfsel_policydb_slab_row(const struct pfsel_policydb *db,
					  const struct pfsel_policy_cell *cell,
					  u32 addr_class)
{
	const struct pfsel_policy_slab *slab;
	u32 n = le32_to_cpu(cell->slab_count), half;

	if (!n)
		return PFSEL_NONE;
	/* Halving, as pfsel_policydb_classify_addr() does. */
	slab = db->slabs + le32_to_cpu(cell->slab_first);
	for (; n > 1; n -= half) {
		half = n / 2;
		if (le32_to_cpu(slab[half].start) <= addr_class)
			slab += half;
	}
	return le32_to_cpu(slab->row);
}

/*
 * Host names (FORMAT.md, "Host names"; policy/LANGUAGE.md, "Host names").
 * A request whose pfsel_decision.names is set may be decided by a rule
 * naming a host: its caller classifies each name known for the address
 * with pfsel_policydb_name_class(), asks pfsel_policydb_decide_name() for
 * each class other than 0, and keeps the smallest rule index among those
 * and pfsel_policydb_decide()'s rule (first match wins).
 */

/**
 * pfsel_policydb_name_valid - whether a name is a host name as policies say it
 * @name: the name, not necessarily NUL-terminated; any bytes
 * @len: its length
 *
 * Valid: 1..PFSEL_HOST_NAME_MAX characters, dot-separated labels of 1..63
 * lower-case letters, digits, '-' and '_', no label starting or ending with
 * '-', no final dot.  The reader requires this of every NAME_PATTERNS
 * string.
 *
 * Return: true when valid.
 */
bool pfsel_policydb_name_valid(const char *name, size_t len);

/**
 * pfsel_policydb_name_class - the name class of a host name
 * @db: the policy
 * @name: the name (lower case, no final dot, as dns.c reports it); not
 *	  necessarily NUL-terminated; any bytes
 * @len: its length
 *
 * The entry of NAME_PATTERNS equal to @name with an exact class; else, for
 * each '.' from the first to the last, the entry equal to what follows it
 * with a tree class ("*.SUFFIX"); else 0.  A name that is not valid (see
 * pfsel_policydb_name_valid(), e.g. one with upper-case letters) is of
 * class 0.  Allocates nothing, sleeps never: callable in any context.
 *
 * Return: a name class of @db, 0 when no host pattern matches @name.
 */
u32 pfsel_policydb_name_class(const struct pfsel_policydb *db,
			      const char *name, size_t len);

/**
 * pfsel_policydb_decide_name - the first rule that matches by a host name
 * @db: the policy
 * @app_class: from pfsel_policydb_classify_app()
 * @op: enum pfsel_op
 * @proto: enum pfsel_proto
 * @name_class: from pfsel_policydb_name_class()
 * @port_class: from pfsel_policydb_classify_port()
 * @rule: receives the smallest rule index, over the application's groups,
 *	  of the row that each group's cell for (@op, @proto) gives
 *	  @name_class through its name slabs, at @port_class; PFSEL_NONE when
 *	  there is none (always for name class 0)
 *
 * Return: 0, or -EINVAL if an argument is out of range (*@rule untouched).
 */
int pfsel_policydb_decide_name(const struct pfsel_policydb *db, u32 app_class,
			       u32 op, u32 proto, u32 name_class,
			       u32 port_class, u32 *rule);

/**
 * pfsel_policydb_decide_also_by_name - fold one host name into a decision
 * @db: the policy
 * @app_class: as for pfsel_policydb_decide()
 * @op: enum pfsel_op
 * @proto: enum pfsel_proto
 * @port_class: as for pfsel_policydb_decide()
 * @name: a name known for the request's address (any bytes)
 * @len: its length
 * @res: the decision so far: pfsel_policydb_decide()'s, then each earlier
 *	 name's; replaced by the rule of @name's class when that rule comes
 *	 first, as first match wins over the address and every name
 *
 * For deciders with no cache of their own (decide.c keeps the decisions
 * of name classes in the AVC instead).
 *
 * Return: 0, or -EINVAL if an argument is out of range.
 */
int pfsel_policydb_decide_also_by_name(const struct pfsel_policydb *db,
				       u32 app_class, u32 op, u32 proto,
				       u32 port_class, const char *name,
				       size_t len, struct pfsel_decision *res);

/**
 * pfsel_policydb_has_names - whether a policy has any host rule
 * @db: the policy
 *
 * Return: true when it has more than the one name class 0; false means no
 * decision of @db can depend on host names.
 */
bool pfsel_policydb_has_names(const struct pfsel_policydb *db);

/**
 * pfsel_policydb_resolver - whether an application is a trusted resolver
 * @db: the policy (only the system policy has resolvers)
 * @app_class: an application class of @db
 *
 * Return: the PFSEL_RESOLVER_* flags of @app_class's RESOLVERS entry (0 for
 * "resolver APPS;", PFSEL_RESOLVER_ANY_USER for "resolver APPS any user;"),
 * or -ENOENT when @app_class is not a resolver (or is out of range).
 */
int pfsel_policydb_resolver(const struct pfsel_policydb *db, u32 app_class);

/**
 * pfsel_policydb_name_slab_row - the row a cell's name slabs give a name class
 * @db: the policy
 * @cell: a cell of @db
 * @name_class: a name class of @db
 *
 * Return: the row of the last name slab starting at or below @name_class,
 * or PFSEL_NONE when the cell has no name slabs (no host rules).
 */
static inline u32
pfsel_policydb_name_slab_row(const struct pfsel_policydb *db,
			     const struct pfsel_policy_cell *cell,
			     u32 name_class)
{
	const struct pfsel_policy_range *range =
		&db->name_cells[cell - db->cells];
	const struct pfsel_policy_slab *slab;
	u32 n = le32_to_cpu(range->count), half;

	if (!n)
		return PFSEL_NONE;
	slab = db->name_slabs + le32_to_cpu(range->first);
	for (; n > 1; n -= half) {
		half = n / 2;
		if (le32_to_cpu(slab[half].start) <= name_class)
			slab += half;
	}
	return le32_to_cpu(slab->row);
}

u32 pfsel_policydb_default_verdict(const struct pfsel_policydb *db);
u32 pfsel_policydb_no_answer(const struct pfsel_policydb *db);
u32 pfsel_policydb_ask_timeout_ms(const struct pfsel_policydb *db);
int pfsel_policydb_rule_source(const struct pfsel_policydb *db, u32 rule,
			       struct pfsel_string *file, u32 *line, u32 *col);

#endif /* _SECURITY_PFSEL_POLICYDB_H */
