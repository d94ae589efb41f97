// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - policy database: read and validate a binary policy
 *
 * The blob comes from an unprivileged user, so pfsel_policydb_load() trusts
 * nothing in it.  It copies the blob once and validates the copy in one pass
 * over the sections, in the order of policy/FORMAT.md: every section refers
 * only to sections before it, so when an index is read, the table it points
 * into has already been checked and its size is known.  What this file
 * establishes (every index stored in the blob in range, every table sorted)
 * is what the lookups of policydb_lookup.c rely on instead of checking.
 *
 * The same source builds in user space (pfwc --query, tests, fuzzers) through
 * compiler/kshim, so it uses only the kernel interfaces the shim provides.
 */

#include <linux/crc32c.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#include "policydb.h"

static_assert(sizeof(struct pfsel_policy_header) == 32);
static_assert(sizeof(struct pfsel_policy_section) == 16);
static_assert(sizeof(struct pfsel_policy_settings) == 32);
static_assert(sizeof(struct pfsel_policy_rule) == 16);
static_assert(sizeof(struct pfsel_policy_port) == 2);
static_assert(sizeof(struct pfsel_policy_addr) == 16);
static_assert(sizeof(struct pfsel_policy_run) == 8);
static_assert(sizeof(struct pfsel_policy_range) == 8);
static_assert(sizeof(struct pfsel_policy_slab) == 8);
static_assert(sizeof(struct pfsel_policy_cell) == 16);
static_assert(sizeof(struct pfsel_policy_protected) == 4);
static_assert(sizeof(struct pfsel_policy_pair) == 8);
static_assert(sizeof(struct pfsel_policy_exe) == 16);
static_assert(sizeof(struct pfsel_policy_path) == 24);
static_assert(sizeof(struct pfsel_policy_resolver) == 8);

/**
 * pfsel_policydb_checksum - the checksum a blob's header must hold
 * @blob: the blob
 * @len: its size, at least the size of the header
 *
 * Return: CRC32C of @blob with the header's checksum field read as zero.
 */
u32 pfsel_policydb_checksum(const void *blob, size_t len)
{
	static const u8 zero[4];
	const size_t at = offsetof(struct pfsel_policy_header, checksum);
	const u8 *p = blob;
	u32 crc;

	crc = crc32c(~0U, p, at);
	crc = crc32c(crc, zero, sizeof(zero));
	crc = crc32c(crc, p + at + 4, len - at - 4);
	return ~crc;
}

static bool all_zero(const u8 *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/*
 * One loader per section.  Each gets the section's bytes (in bounds, aligned)
 * and its entry count (already checked against the size for fixed-size
 * entries), checks every field, and records the table in @db.
 */
struct section {
	const void *p;
	u32 count;
	u32 size;
};

typedef int (*section_loader)(struct pfsel_policydb *db,
			      const struct section *sec);

static int load_settings(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_settings *s = sec->p;

	if (sec->count != 1)
		return -EINVAL;
	db->default_verdict = le32_to_cpu(s->default_verdict);
	db->default_audit = le32_to_cpu(s->default_audit);
	db->no_answer = le32_to_cpu(s->no_answer);
	db->ask_timeout_ms = le32_to_cpu(s->ask_timeout_ms);
	db->n_script_classes = le32_to_cpu(s->n_script_classes);
	db->exe_other = le32_to_cpu(s->exe_other);
	db->script_other = le32_to_cpu(s->script_other);
	db->n_name_classes = le32_to_cpu(s->n_name_classes);
	if (db->default_verdict >= PFSEL_VERDICT_COUNT ||
	    db->default_audit & ~PFSEL_AUDIT_MASK ||
	    (db->no_answer != PFSEL_VERDICT_ALLOW &&
	     db->no_answer != PFSEL_VERDICT_DENY) ||
	    db->ask_timeout_ms < PFSEL_ASK_TIMEOUT_MIN_MS ||
	    db->ask_timeout_ms > PFSEL_ASK_TIMEOUT_MAX_MS ||
	    db->script_other >= db->n_script_classes ||
	    !db->n_name_classes)
		return -EINVAL;
	/* exe_other is checked with the exe classes. */
	return 0;
}

static int load_strings(struct pfsel_policydb *db, const struct section *sec)
{
	const u8 *base = sec->p;
	u32 pos = 0, i;

	/* Each string takes at least its 4-byte length. */
	if (sec->count > sec->size / 4)
		return -EINVAL;
	db->strings = kvcalloc(sec->count ? sec->count : 1, sizeof(*db->strings),
			       GFP_KERNEL);
	if (!db->strings)
		return -ENOMEM;
	for (i = 0; i < sec->count; i++) {
		u32 len, padded;

		if (sec->size - pos < 4)
			return -EINVAL;
		len = le32_to_cpu(*(const __le32 *)(base + pos));
		pos += 4;
		if (len > PFSEL_POLICY_MAX_STRING || len > sec->size - pos)
			return -EINVAL;
		padded = ALIGN(len, 4u);
		if (padded > sec->size - pos || memchr(base + pos, 0, len) ||
		    !all_zero(base + pos + len, padded - len))
			return -EINVAL;
		db->strings[i].s = (const char *)base + pos;
		db->strings[i].len = len;
		pos += padded;
	}
	if (pos != sec->size)
		return -EINVAL;
	db->n_strings = sec->count;
	return 0;
}

static int load_rules(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_rule *r = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (r[i].verdict >= PFSEL_VERDICT_COUNT ||
		    r[i].audit & ~PFSEL_AUDIT_MASK || r[i].reserved ||
		    le32_to_cpu(r[i].file) >= db->n_strings)
			return -EINVAL;
	db->rules = r;
	db->n_rules = sec->count;
	return 0;
}

static int load_ports(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_port *port = sec->p;
	u32 i;

	if (!sec->count || port[0].start)
		return -EINVAL;
	for (i = 1; i < sec->count; i++)
		if (le16_to_cpu(port[i].start) <= le16_to_cpu(port[i - 1].start))
			return -EINVAL;
	db->ports = port;
	db->n_ports = sec->count;
	return 0;
}

static int load_addrs(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_addr *addr = sec->p;
	u32 i;

	if (!sec->count || !all_zero(addr[0].start, sizeof(addr[0].start)))
		return -EINVAL;
	for (i = 1; i < sec->count; i++)
		if (memcmp(addr[i].start, addr[i - 1].start, 16) <= 0)
			return -EINVAL;
	db->addrs = addr;
	db->n_addrs = sec->count;
	pfsel_policydb_index_addrs(db);
	return 0;
}

static int load_runs(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_run *run = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++) {
		u32 rule = le32_to_cpu(run[i].rule);

		if (le32_to_cpu(run[i].start) >= db->n_ports ||
		    (rule != PFSEL_NONE && rule >= db->n_rules))
			return -EINVAL;
	}
	db->runs = run;
	db->n_runs = sec->count;
	return 0;
}

/*
 * Check that @count ranges slice a table of @n elements into consecutive
 * pieces, in order, with no gap and no overlap; @nonempty: no piece is empty.
 */
static bool ranges_tile(const struct pfsel_policy_range *range, u32 count,
			u32 n, bool nonempty)
{
	u32 next = 0, i;

	for (i = 0; i < count; i++) {
		u32 first = le32_to_cpu(range[i].first);
		u32 len = le32_to_cpu(range[i].count);

		if (first != next || len > n - next || (nonempty && !len))
			return false;
		next += len;
	}
	return next == n;
}

static int load_rows(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_range *row = sec->p;
	u32 i, j;

	if (!ranges_tile(row, sec->count, db->n_runs, true))
		return -EINVAL;
	for (i = 0; i < sec->count; i++) {
		const struct pfsel_policy_run *run =
			db->runs + le32_to_cpu(row[i].first);
		u32 len = le32_to_cpu(row[i].count);

		if (run[0].start)
			return -EINVAL;
		for (j = 1; j < len; j++)
			if (le32_to_cpu(run[j].start) <=
			    le32_to_cpu(run[j - 1].start))
				return -EINVAL;
	}
	db->rows = row;
	db->n_rows = sec->count;
	return 0;
}

static bool row_ok(const struct pfsel_policydb *db, u32 row)
{
	return row == PFSEL_NONE || row < db->n_rows;
}

static int load_slabs(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_slab *slab = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(slab[i].start) >= db->n_addrs ||
		    !row_ok(db, le32_to_cpu(slab[i].row)))
			return -EINVAL;
	db->slabs = slab;
	db->n_slabs = sec->count;
	return 0;
}

static int load_cells(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_cell *cell = sec->p;
	u32 next = 0, i, j;

	for (i = 0; i < sec->count; i++) {
		const struct pfsel_policy_slab *slab;
		u32 first = le32_to_cpu(cell[i].slab_first);
		u32 len = le32_to_cpu(cell[i].slab_count);

		if (cell[i].op >= PFSEL_OP_COUNT ||
		    cell[i].proto >= PFSEL_PROTO_COUNT || cell[i].reserved ||
		    !row_ok(db, le32_to_cpu(cell[i].wild_row)) ||
		    first != next || len > db->n_slabs - next)
			return -EINVAL;
		next += len;
		if (!len)
			continue;
		slab = db->slabs + first;
		if (slab[0].start)
			return -EINVAL;
		for (j = 1; j < len; j++)
			if (le32_to_cpu(slab[j].start) <=
			    le32_to_cpu(slab[j - 1].start))
				return -EINVAL;
	}
	if (next != db->n_slabs)
		return -EINVAL;
	db->cells = cell;
	db->n_cells = sec->count;
	return 0;
}

static int load_groups(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_range *group = sec->p;
	u32 i, j;

	if (!ranges_tile(group, sec->count, db->n_cells, false))
		return -EINVAL;
	for (i = 0; i < sec->count; i++) {
		const struct pfsel_policy_cell *cell =
			db->cells + le32_to_cpu(group[i].first);
		u32 len = le32_to_cpu(group[i].count);

		for (j = 1; j < len; j++)
			if (pfsel_policydb_cell_key(&cell[j]) <=
			    pfsel_policydb_cell_key(&cell[j - 1]))
				return -EINVAL;
	}
	db->groups = group;
	db->n_groups = sec->count;
	return 0;
}

static int load_grouplist(struct pfsel_policydb *db, const struct section *sec)
{
	const __le32 *id = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(id[i]) >= db->n_groups)
			return -EINVAL;
	db->grouplist = id;
	db->n_grouplist = sec->count;
	return 0;
}

static int load_apps(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_range *app = sec->p;
	u32 i, j;

	if (!ranges_tile(app, sec->count, db->n_grouplist, false))
		return -EINVAL;
	for (i = 0; i < sec->count; i++) {
		const __le32 *id = db->grouplist + le32_to_cpu(app[i].first);
		u32 len = le32_to_cpu(app[i].count);

		for (j = 1; j < len; j++)
			if (le32_to_cpu(id[j]) <= le32_to_cpu(id[j - 1]))
				return -EINVAL;
	}
	db->apps = app;
	db->n_apps = sec->count;
	return 0;
}

static int load_pairs(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_pair *pair = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(pair[i].script_class) >= db->n_script_classes ||
		    le32_to_cpu(pair[i].app) >= db->n_apps)
			return -EINVAL;
	db->pairs = pair;
	db->n_pairs = sec->count;
	return 0;
}

static int load_exes(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_exe *exe = sec->p;
	u32 next = 0, i, j;

	if (db->exe_other >= sec->count)
		return -EINVAL;
	for (i = 0; i < sec->count; i++) {
		const struct pfsel_policy_pair *pair;
		u32 first = le32_to_cpu(exe[i].pair_first);
		u32 len = le32_to_cpu(exe[i].pair_count);

		if (le32_to_cpu(exe[i].app) >= db->n_apps || exe[i].reserved ||
		    first != next || len > db->n_pairs - next)
			return -EINVAL;
		next += len;
		pair = db->pairs + first;
		for (j = 1; j < len; j++)
			if (le32_to_cpu(pair[j].script_class) <=
			    le32_to_cpu(pair[j - 1].script_class))
				return -EINVAL;
	}
	if (next != db->n_pairs)
		return -EINVAL;
	db->exes = exe;
	db->n_exes = sec->count;
	return 0;
}

/* A class field must be in range when its flag is set, and none otherwise. */
static bool path_class_ok(u32 flags, u32 flag, __le32 field, u32 n)
{
	u32 class = le32_to_cpu(field);

	return (flags & flag) ? class < n : class == PFSEL_NONE;
}

/*
 * Check a path table (EXE_PATHS, SCRIPT_PATHS or NAME_PATTERNS): string
 * indexes in range, @mask allows the flags, the class of each flag set in
 * range and the others none, strings strictly increasing; for NAME_PATTERNS
 * (@names) every string is a valid host name.
 */
static int check_paths(const struct pfsel_policydb *db,
		       const struct pfsel_policy_path *path, u32 count,
		       u32 mask, u32 n_classes, bool names)
{
	const struct pfsel_string *prev = NULL;
	u32 i;

	for (i = 0; i < count; i++) {
		const struct pfsel_string *str;
		u32 flags = le32_to_cpu(path[i].flags);
		u32 idx = le32_to_cpu(path[i].str);

		if (idx >= db->n_strings || !flags || flags & ~mask ||
		    path[i].reserved ||
		    !path_class_ok(flags, PFSEL_PATH_EXACT, path[i].exact,
				   n_classes) ||
		    !path_class_ok(flags, PFSEL_PATH_CHILD, path[i].child,
				   n_classes) ||
		    !path_class_ok(flags, PFSEL_PATH_TREE, path[i].tree,
				   n_classes))
			return -EINVAL;
		str = &db->strings[idx];
		if (prev && pfsel_policydb_str_cmp(prev->s, prev->len, str->s, str->len) >= 0)
			return -EINVAL;
		if (names && !pfsel_policydb_name_valid(str->s, str->len))
			return -EINVAL;
		prev = str;
	}
	return 0;
}

static int load_exe_paths(struct pfsel_policydb *db, const struct section *sec)
{
	int err = check_paths(db, sec->p, sec->count, PFSEL_PATH_MASK,
			      db->n_exes, false);

	if (err)
		return err;
	db->exe_paths = sec->p;
	db->n_exe_paths = sec->count;
	return 0;
}

static int load_script_paths(struct pfsel_policydb *db, const struct section *sec)
{
	int err = check_paths(db, sec->p, sec->count, PFSEL_PATH_MASK,
			      db->n_script_classes, false);

	if (err)
		return err;
	db->script_paths = sec->p;
	db->n_script_paths = sec->count;
	return 0;
}

static int load_protected(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_protected *prot = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(prot[i].app) >= db->n_apps ||
		    (i && le32_to_cpu(prot[i].app) <= le32_to_cpu(prot[i - 1].app)))
			return -EINVAL;
	db->protected = prot;
	db->n_protected = sec->count;
	return 0;
}

static int load_name_slabs(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_slab *slab = sec->p;
	u32 i;

	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(slab[i].start) >= db->n_name_classes ||
		    !row_ok(db, le32_to_cpu(slab[i].row)))
			return -EINVAL;
	db->name_slabs = slab;
	db->n_name_slabs = sec->count;
	return 0;
}

/*
 * One slice of NAME_SLABS per cell, tiling it.  A cell with host rules has
 * a slice starting at name class 0 with no row (the class of the names no
 * pattern matches: no host element names them), starts strictly
 * increasing: what
 * pfsel_policydb_name_slab_row() searches.
 */
static int load_name_cells(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_range *range = sec->p;
	u32 i, j;

	if (sec->count != db->n_cells ||
	    !ranges_tile(range, sec->count, db->n_name_slabs, false))
		return -EINVAL;
	for (i = 0; i < sec->count; i++) {
		const struct pfsel_policy_slab *slab =
			db->name_slabs + le32_to_cpu(range[i].first);
		u32 len = le32_to_cpu(range[i].count);

		if (!len)
			continue;
		if (slab[0].start || le32_to_cpu(slab[0].row) != PFSEL_NONE)
			return -EINVAL;
		for (j = 1; j < len; j++)
			if (le32_to_cpu(slab[j].start) <=
			    le32_to_cpu(slab[j - 1].start))
				return -EINVAL;
	}
	db->name_cells = range;
	return 0;
}

static int load_name_patterns(struct pfsel_policydb *db,
			      const struct section *sec)
{
	int err = check_paths(db, sec->p, sec->count, PFSEL_NAME_MASK,
			      db->n_name_classes, true);

	if (err)
		return err;
	db->name_patterns = sec->p;
	db->n_name_patterns = sec->count;
	return 0;
}

/* Only the system policy says whose DNS answers the kernel believes. */
static int load_resolvers(struct pfsel_policydb *db, const struct section *sec)
{
	const struct pfsel_policy_resolver *res = sec->p;
	u32 i;

	if (sec->count && !(db->flags & PFSEL_POLICY_F_SYSTEM))
		return -EINVAL;
	for (i = 0; i < sec->count; i++)
		if (le32_to_cpu(res[i].app) >= db->n_apps ||
		    le32_to_cpu(res[i].flags) & ~PFSEL_RESOLVER_MASK ||
		    (i && le32_to_cpu(res[i].app) <= le32_to_cpu(res[i - 1].app)))
			return -EINVAL;
	db->resolvers = res;
	db->n_resolvers = sec->count;
	return 0;
}

/**
 * struct section_type - how to load one section
 * @entry_size: size of one entry, or 0 for variable-size entries
 * @load: the section's loader
 */
struct section_type {
	u32 entry_size;
	section_loader load;
};

/* Indexed by section id - PFSEL_SEC_FIRST: the order sections must come in. */
static const struct section_type section_types[PFSEL_SEC_COUNT] = {
	{ sizeof(struct pfsel_policy_settings), load_settings },
	{ 0, load_strings },
	{ sizeof(struct pfsel_policy_rule), load_rules },
	{ sizeof(struct pfsel_policy_port), load_ports },
	{ sizeof(struct pfsel_policy_addr), load_addrs },
	{ sizeof(struct pfsel_policy_run), load_runs },
	{ sizeof(struct pfsel_policy_range), load_rows },
	{ sizeof(struct pfsel_policy_slab), load_slabs },
	{ sizeof(struct pfsel_policy_cell), load_cells },
	{ sizeof(struct pfsel_policy_range), load_groups },
	{ sizeof(__le32), load_grouplist },
	{ sizeof(struct pfsel_policy_range), load_apps },
	{ sizeof(struct pfsel_policy_pair), load_pairs },
	{ sizeof(struct pfsel_policy_exe), load_exes },
	{ sizeof(struct pfsel_policy_path), load_exe_paths },
	{ sizeof(struct pfsel_policy_path), load_script_paths },
	{ sizeof(struct pfsel_policy_protected), load_protected },
	{ sizeof(struct pfsel_policy_slab), load_name_slabs },
	{ sizeof(struct pfsel_policy_range), load_name_cells },
	{ sizeof(struct pfsel_policy_path), load_name_patterns },
	{ sizeof(struct pfsel_policy_resolver), load_resolvers },
};

static int check_header(const u8 *blob, size_t len)
{
	const struct pfsel_policy_header *hdr = (const void *)blob;
	u32 flags;

	if (len < sizeof(*hdr))
		return -EINVAL;
	if (len > PFSEL_POLICY_MAX_SIZE)
		return -E2BIG;
	if (le32_to_cpu(hdr->magic) != PFSEL_POLICY_MAGIC)
		return -EINVAL;
	if (le32_to_cpu(hdr->version) != PFSEL_POLICY_VERSION)
		return -EPROTONOSUPPORT;
	flags = le32_to_cpu(hdr->flags);
	if (le32_to_cpu(hdr->total_size) != len || hdr->reserved ||
	    flags & ~PFSEL_POLICY_F_MASK ||
	    ((flags & PFSEL_POLICY_F_SYSTEM) && hdr->uid) ||
	    le32_to_cpu(hdr->nsections) != PFSEL_SEC_COUNT ||
	    len < sizeof(*hdr) +
			  PFSEL_SEC_COUNT * sizeof(struct pfsel_policy_section))
		return -EINVAL;
	if (le32_to_cpu(hdr->checksum) != pfsel_policydb_checksum(blob, len))
		return -EBADMSG;
	return 0;
}

static int load_sections(struct pfsel_policydb *db, const u8 *blob, u32 len)
{
	const struct pfsel_policy_section *sec =
		(const void *)(blob + sizeof(struct pfsel_policy_header));
	struct section section;
	u32 end = sizeof(struct pfsel_policy_header) +
		  PFSEL_SEC_COUNT * sizeof(*sec);
	u32 i;
	int err;

	for (i = 0; i < PFSEL_SEC_COUNT; i++) {
		const struct section_type *type = &section_types[i];
		u32 offset = le32_to_cpu(sec[i].offset);
		u32 size = le32_to_cpu(sec[i].size);
		u32 count = le32_to_cpu(sec[i].count);

		/* In order, each at the next aligned offset, in bounds. */
		if (le32_to_cpu(sec[i].id) != PFSEL_SEC_FIRST + i ||
		    offset != ALIGN(end, PFSEL_POLICY_ALIGN) || offset > len ||
		    size > len - offset || !all_zero(blob + end, offset - end))
			return -EINVAL;
		if (type->entry_size &&
		    (u64)count * type->entry_size != (u64)size)
			return -EINVAL;
		section.p = blob + offset;
		section.count = count;
		section.size = size;
		err = type->load(db, &section);
		if (err)
			return err;
		end = offset + size;
	}
	if (ALIGN(end, PFSEL_POLICY_ALIGN) != len ||
	    !all_zero(blob + end, len - end))
		return -EINVAL;
	return 0;
}

/**
 * pfsel_policydb_free - free a policy database
 * @db: the database, or NULL
 */
void pfsel_policydb_free(struct pfsel_policydb *db)
{
	if (!db)
		return;
	kvfree(db->strings);
	kvfree(db->blob);
	kfree(db);
}

/**
 * pfsel_policydb_adopt - validate a binary policy in place and build its database
 * @blob: the policy as written by pfwc, in memory from kvmalloc() that
 *        nobody else can write; the database owns it from now on, on
 *        success and on error alike
 * @len: size of @blob in bytes
 * @out: receives the new database on success
 *
 * The securityfs loader copies a blob from user space once, into memory
 * charged to the writer, and hands that copy here: a 64 MiB policy costs
 * 64 MiB, not twice that.
 *
 * Return: as pfsel_policydb_load(); on error @blob is freed.
 */
int pfsel_policydb_adopt(void *blob, size_t len, struct pfsel_policydb **out)
{
	struct pfsel_policydb *db;
	int err;

	if (len < sizeof(struct pfsel_policy_header)) {
		kvfree(blob);
		return -EINVAL;
	}
	if (len > PFSEL_POLICY_MAX_SIZE) {
		kvfree(blob);
		return -E2BIG;
	}
	db = kzalloc(sizeof(*db), GFP_KERNEL_ACCOUNT);
	if (!db) {
		kvfree(blob);
		return -ENOMEM;
	}
	db->blob = blob;
	db->size = len;
	err = check_header(db->blob, len);
	if (!err) {
		const struct pfsel_policy_header *hdr = db->blob;

		/* RESOLVERS depends on whether this is the system policy. */
		db->flags = le32_to_cpu(hdr->flags);
		db->uid = le32_to_cpu(hdr->uid);
		err = load_sections(db, db->blob, len);
	}
	if (err) {
		pfsel_policydb_free(db);
		return err;
	}
	*out = db;
	return 0;
}

/**
 * pfsel_policydb_load - validate a binary policy and build its database
 * @blob: the policy as written by pfwc; not used after the call returns
 * @len: size of @blob in bytes
 * @out: receives the new database on success
 *
 * Validates everything before anything is used, on a private copy so that
 * the caller's buffer may change under us without harm.
 *
 * Return: 0 and *@out set; or, with nothing allocated and *@out untouched,
 * -EINVAL for a malformed blob, -E2BIG for one larger than
 * PFSEL_POLICY_MAX_SIZE, -EPROTONOSUPPORT for another format version,
 * -EBADMSG for a checksum mismatch, -ENOMEM when out of memory.
 */
int pfsel_policydb_load(const void *blob, size_t len,
			struct pfsel_policydb **out)
{
	void *copy;

	if (len < sizeof(struct pfsel_policy_header))
		return -EINVAL;
	if (len > PFSEL_POLICY_MAX_SIZE)
		return -E2BIG;
	copy = kvmalloc(len, GFP_KERNEL_ACCOUNT);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, blob, len);
	return pfsel_policydb_adopt(copy, len, out);
}
