// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - policy database: lookups on a validated policy
 *
 * Classify an application, an address and a port, and decide a request's
 * verdict from the classes.  Every database here was built by policydb.c,
 * which checked every index stored in the blob and the order of every
 * table, so these functions read the copy directly, with no further checks
 * than the ones on their own arguments.
 *
 * The same source builds in user space (pfwc --query, tests, fuzzers) through
 * compiler/kshim, so it uses only the kernel interfaces the shim provides.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "policydb.h"

/*
 * Index of the entry of @paths (sorted, @n of them) whose string is the
 * first @len bytes of @s, or PFSEL_NONE.
 */
static u32 path_find(const struct pfsel_policydb *db,
		     const struct pfsel_policy_path *paths, u32 n,
		     const char *s, u32 len)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		const struct pfsel_string *str =
			&db->strings[le32_to_cpu(paths[mid].str)];
		int c = pfsel_policydb_str_cmp(str->s, str->len, s, len);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return PFSEL_NONE;
}

/*
 * The class a path table gives @s (see FORMAT.md, "Classifying a path"):
 * the exact entry; else the child entry of the directory holding it; else
 * the tree entry of its deepest directory that has one; else @other.  A
 * directory D holds @s at position i when @s[i] is the '/' right after D and
 * something follows it, the same test as the language's "DIR/ *" and
 * "DIR/ **" matching.
 */
static u32 classify_path(const struct pfsel_policydb *db,
			 const struct pfsel_policy_path *paths, u32 n,
			 const char *s, u32 other)
{
	size_t slen = strlen(s);
	u32 len, i, idx;
	bool last = true;

	if (slen >= U32_MAX)
		return other;
	len = slen;
	idx = path_find(db, paths, n, s, len);
	if (idx != PFSEL_NONE &&
	    le32_to_cpu(paths[idx].flags) & PFSEL_PATH_EXACT)
		return le32_to_cpu(paths[idx].exact);
	for (i = len; i-- > 0;) {
		u32 flags;

		if (s[i] != '/')
			continue;
		if (i + 1 == len) {
			/* A trailing '/' holds nothing: no child match. */
			last = false;
			continue;
		}
		idx = path_find(db, paths, n, s, i);
		flags = idx == PFSEL_NONE ? 0 : le32_to_cpu(paths[idx].flags);
		if (last && (flags & PFSEL_PATH_CHILD))
			return le32_to_cpu(paths[idx].child);
		last = false;
		if (flags & PFSEL_PATH_TREE)
			return le32_to_cpu(paths[idx].tree);
	}
	return other;
}

/**
 * pfsel_policydb_classify_app - the application class of a process
 * @db: the policy
 * @exe: path of the executable (the interpreter, for a script)
 * @script: path of the script, or NULL when the process runs none
 *
 * Computed once at exec; the answer is valid until the policy is replaced.
 *
 * Return: an application class of @db.
 */
u32 pfsel_policydb_classify_app(const struct pfsel_policydb *db,
				const char *exe, const char *script)
{
	const struct pfsel_policy_exe *e;
	const struct pfsel_policy_pair *pair;
	u32 script_class, lo, hi;

	e = &db->exes[classify_path(db, db->exe_paths, db->n_exe_paths, exe,
				    db->exe_other)];
	if (!script)
		return le32_to_cpu(e->app);
	script_class = classify_path(db, db->script_paths, db->n_script_paths,
				     script, db->script_other);
	pair = db->pairs + le32_to_cpu(e->pair_first);
	lo = 0;
	hi = le32_to_cpu(e->pair_count);
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 c = le32_to_cpu(pair[mid].script_class);

		if (c == script_class)
			return le32_to_cpu(pair[mid].app);
		if (c < script_class)
			lo = mid + 1;
		else
			hi = mid;
	}
	return le32_to_cpu(e->app);
}

/**
 * pfsel_policydb_app_protected - whether a rule marks an application protected
 * @db: the policy
 * @app_class: an application class of @db
 *
 * Return: true when @app_class is in the PROTECTED section.
 */
bool pfsel_policydb_app_protected(const struct pfsel_policydb *db,
				  u32 app_class)
{
	u32 lo = 0, hi = db->n_protected;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 c = le32_to_cpu(db->protected[mid].app);

		if (c == app_class)
			return true;
		if (c < app_class)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Whether the class starting at @start starts at or below the address
 * @high:@low: addresses compare as two big-endian words, not byte by byte.
 */
static bool starts_at_or_below(const u8 *start, u64 high, u64 low)
{
	const u64 start_high = pfsel_policydb_addr_word(start);

	return start_high < high ||
	       (start_high == high && pfsel_policydb_addr_word(start + 8) <= low);
}

/* The last four bytes of a class's start, as a number. */
static u32 v4_start(const struct pfsel_policy_addr *addr)
{
	return (u32)pfsel_policydb_addr_word(addr->start + 8);
}

/**
 * pfsel_policydb_classify_addr - the address class of an address
 * @db: the policy
 * @addr: 16 bytes, network order; IPv4 as ::ffff:a.b.c.d
 *
 * This runs on every request the caches do not answer.  Each step halves
 * the classes that may hold the answer, [base, base + n), keeping its
 * first (a class starting at or below @addr: addrs[0] is :: at first);
 * a step is a load, a comparison and a conditional move.  An IPv4
 * address compares with the classes that start in ::ffff:0:0/96 only,
 * [v4_first, v4_end) (pfsel_policydb_index_addrs()): their first twelve
 * bytes are @addr's, so their last four decide, as a 32-bit number; every
 * class before them starts below @addr, every class after them above it,
 * so the answer is among them or v4_first - 1, where the search starts.
 *
 * Return: the index of the last class starting at or below @addr.
 */
u32 pfsel_policydb_classify_addr(const struct pfsel_policydb *db,
				 const u8 addr[16])
{
	const u64 high = pfsel_policydb_addr_word(addr);
	const u64 low = pfsel_policydb_addr_word(addr + 8);
	const struct pfsel_policy_addr *base;
	u32 n, half;

	if (!high && low >> 32 == 0xffff) {
		const u32 v4 = (u32)low;

		base = db->addrs + db->v4_first - 1;
		for (n = db->v4_end - db->v4_first + 1; n > 1; n -= half) {
			half = n / 2;
			if (v4_start(&base[half]) <= v4)
				base += half;
		}
		return base - db->addrs;
	}
	base = db->addrs;
	for (n = db->n_addrs; n > 1; n -= half) {
		half = n / 2;
		if (starts_at_or_below(base[half].start, high, low))
			base += half;
	}
	return base - db->addrs;
}

/**
 * pfsel_policydb_index_addrs - find the IPv4 classes of a policy's addresses
 * @db: a policy whose @addrs and @n_addrs are set: @n_addrs classes, the
 *	first starting at ::, their starts increasing
 *
 * Sets @v4_first and @v4_end to the classes starting in ::ffff:0:0/96,
 * which pfsel_policydb_classify_addr() searches for an IPv4 address.  The
 * reader calls it; so does a test that builds a database by hand.
 */
void pfsel_policydb_index_addrs(struct pfsel_policydb *db)
{
	static const u8 v4_lowest[16] = { [10] = 0xff, [11] = 0xff };
	static const u8 v4_highest[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 0xff,
		[13] = 0xff, [14] = 0xff, [15] = 0xff,
	};
	const struct pfsel_policy_addr *addr = db->addrs;
	const struct pfsel_policy_addr *const end = addr + db->n_addrs;

	while (addr < end && memcmp(addr->start, v4_lowest, 16) < 0)
		addr++;
	db->v4_first = addr - db->addrs;
	while (addr < end && memcmp(addr->start, v4_highest, 16) <= 0)
		addr++;
	db->v4_end = addr - db->addrs;
}

/**
 * pfsel_policydb_classify_port - the port class of a port
 * @db: the policy
 * @port: the port, in host order (0 for protocols without ports)
 *
 * The same halving as pfsel_policydb_classify_addr()'s.
 *
 * Return: the index of the last class starting at or below @port.
 */
u32 pfsel_policydb_classify_port(const struct pfsel_policydb *db, u16 port)
{
	const struct pfsel_policy_port *base = db->ports;
	u32 n, half;

	for (n = db->n_ports; n > 1; n -= half) {
		half = n / 2;
		if (le16_to_cpu(base[half].start) <= port)
			base += half;
	}
	return base - db->ports;
}

/**
 * pfsel_policydb_family_addr - the address a create request is classified by
 * @family: enum pfsel_family
 * @addr: receives ::ffff:0.0.0.0 for INET, :: otherwise
 */
void pfsel_policydb_family_addr(u32 family, u8 addr[16])
{
	memset(addr, 0, 16);
	if (family == PFSEL_FAMILY_INET) {
		addr[10] = 0xff;
		addr[11] = 0xff;
	}
}

/**
 * pfsel_policydb_row_rule - the rule a row gives a port class
 * @db: the policy
 * @row: a row of @db, or PFSEL_NONE
 * @port_class: a port class of @db
 *
 * Return: the rule of the row's last run starting at or below
 * @port_class; PFSEL_NONE for no row, or a run without a rule.
 */
u32 pfsel_policydb_row_rule(const struct pfsel_policydb *db, u32 row,
			    u32 port_class)
{
	const struct pfsel_policy_run *run;
	u32 n, half;

	if (row == PFSEL_NONE)
		return PFSEL_NONE;
	run = db->runs + le32_to_cpu(db->rows[row].first);
	for (n = le32_to_cpu(db->rows[row].count); n > 1; n -= half) {
		half = n / 2;
		if (le32_to_cpu(run[half].start) <= port_class)
			run += half;
	}
	return le32_to_cpu(run->rule);
}

/*
 * The first rule of @group matching the request by its address, or
 * PFSEL_NONE; sets *@names when the group's cell for the request has name
 * slabs (a host name could match a rule of it).
 */
static u32 group_rule(const struct pfsel_policydb *db, u32 group, u32 key,
		      u32 addr_class, u32 port_class, bool *names)
{
	const struct pfsel_policy_cell *cell;
	u32 best, rule, row;

	cell = pfsel_policydb_group_cell(db, group, key);
	if (!cell)
		return PFSEL_NONE;
	if (db->name_cells[cell - db->cells].count)
		*names = true;
	best = pfsel_policydb_row_rule(db, le32_to_cpu(cell->wild_row),
				       port_class);
	/* No slabs: PFSEL_NONE, which pfsel_policydb_row_rule() gives back. */
	row = pfsel_policydb_slab_row(db, cell, addr_class);
	rule = pfsel_policydb_row_rule(db, row, port_class);
	/* PFSEL_NONE is the largest u32: min() picks any real rule. */
	return min(best, rule);
}

/**
 * pfsel_policydb_decide - the decision for one request, by classes
 * @db: the policy
 * @app_class: from pfsel_policydb_classify_app()
 * @op: enum pfsel_op
 * @proto: enum pfsel_proto
 * @addr_class: from pfsel_policydb_classify_addr(); for create, of
 *	pfsel_policydb_family_addr()
 * @port_class: from pfsel_policydb_classify_port(); for create, of port 0
 * @res: receives the verdict, audit flags and deciding rule
 *
 * The first rule, in policy order, that matches decides; the lowering has
 * spread each rule over the groups, cells and rows that it matches, so this
 * is the smallest rule index found in the application's groups.  Rules
 * naming hosts are not considered here: @res->names says whether any may
 * apply, and then pfsel_policydb_decide_name() gives their part.
 *
 * Return: 0, or -EINVAL if an argument is out of range.
 */
int pfsel_policydb_decide(const struct pfsel_policydb *db, u32 app_class,
			  u32 op, u32 proto, u32 addr_class, u32 port_class,
			  struct pfsel_decision *res)
{
	const __le32 *group;
	u32 best = PFSEL_NONE, key, n, i;
	bool names = false;

	if (app_class >= db->n_apps || op >= PFSEL_OP_COUNT ||
	    proto >= PFSEL_PROTO_COUNT || addr_class >= db->n_addrs ||
	    port_class >= db->n_ports)
		return -EINVAL;
	key = op * PFSEL_PROTO_COUNT + proto;
	group = db->grouplist + le32_to_cpu(db->apps[app_class].first);
	n = le32_to_cpu(db->apps[app_class].count);
	for (i = 0; i < n; i++)
		best = min(best, group_rule(db, le32_to_cpu(group[i]), key,
					    addr_class, port_class, &names));
	res->rule = best;
	res->names = names;
	if (best == PFSEL_NONE) {
		res->verdict = db->default_verdict;
		res->audit = db->default_audit;
	} else {
		res->verdict = db->rules[best].verdict;
		res->audit = db->rules[best].audit;
	}
	return 0;
}

/*
 * Host names.  The kernel-doc of the exported functions is in policydb.h.
 */

static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_';
}

bool pfsel_policydb_name_valid(const char *name, size_t len)
{
	size_t label = 0, i;

	if (!len || len > PFSEL_HOST_NAME_MAX)
		return false;
	for (i = 0; i < len; i++) {
		if (name[i] == '.') {
			/* Empty label ("a..b", ".a") or one ending in '-'. */
			if (!label || name[i - 1] == '-')
				return false;
			label = 0;
			continue;
		}
		if (!name_char_ok(name[i]) || (!label && name[i] == '-') ||
		    ++label > 63)
			return false;
	}
	/* A final dot leaves an empty last label. */
	return label && name[len - 1] != '-';
}

u32 pfsel_policydb_name_class(const struct pfsel_policydb *db,
			      const char *name, size_t len)
{
	const struct pfsel_policy_path *pat = db->name_patterns;
	const u32 n = db->n_name_patterns;
	u32 idx, j;

	/* Valid names are short: the u32 lengths below cannot overflow. */
	if (!n || !pfsel_policydb_name_valid(name, len))
		return 0;
	idx = path_find(db, pat, n, name, len);
	if (idx != PFSEL_NONE && le32_to_cpu(pat[idx].flags) & PFSEL_NAME_EXACT)
		return le32_to_cpu(pat[idx].exact);
	/*
	 * "*.S" matches names strictly below S; the longest such S, the
	 * suffix after the first dot, is the most specific, and the
	 * compiler gave its class every wider pattern's rules too.
	 */
	for (j = 0; j < len; j++) {
		if (name[j] != '.')
			continue;
		idx = path_find(db, pat, n, name + j + 1, len - j - 1);
		if (idx != PFSEL_NONE &&
		    le32_to_cpu(pat[idx].flags) & PFSEL_NAME_TREE)
			return le32_to_cpu(pat[idx].tree);
	}
	return 0;
}

int pfsel_policydb_decide_name(const struct pfsel_policydb *db, u32 app_class,
			       u32 op, u32 proto, u32 name_class,
			       u32 port_class, u32 *rule)
{
	const __le32 *group;
	u32 best = PFSEL_NONE, key, n, i, row;

	if (app_class >= db->n_apps || op >= PFSEL_OP_COUNT ||
	    proto >= PFSEL_PROTO_COUNT || name_class >= db->n_name_classes ||
	    port_class >= db->n_ports)
		return -EINVAL;
	key = op * PFSEL_PROTO_COUNT + proto;
	group = db->grouplist + le32_to_cpu(db->apps[app_class].first);
	n = le32_to_cpu(db->apps[app_class].count);
	/* Class 0's slab has no row (checked by the reader): no rule. */
	for (i = 0; name_class && i < n; i++) {
		const struct pfsel_policy_cell *cell =
			pfsel_policydb_group_cell(db, le32_to_cpu(group[i]),
						  key);

		if (!cell)
			continue;
		row = pfsel_policydb_name_slab_row(db, cell, name_class);
		best = min(best, pfsel_policydb_row_rule(db, row, port_class));
	}
	*rule = best;
	return 0;
}

int pfsel_policydb_decide_also_by_name(const struct pfsel_policydb *db,
				       u32 app_class, u32 op, u32 proto,
				       u32 port_class, const char *name,
				       size_t len, struct pfsel_decision *res)
{
	const u32 name_class = pfsel_policydb_name_class(db, name, len);
	u32 rule;
	int err;

	if (!name_class)
		return 0;
	err = pfsel_policydb_decide_name(db, app_class, op, proto, name_class,
					 port_class, &rule);
	if (err || rule >= res->rule)
		return err;
	res->rule = rule;
	res->verdict = db->rules[rule].verdict;
	res->audit = db->rules[rule].audit;
	return 0;
}

bool pfsel_policydb_has_names(const struct pfsel_policydb *db)
{
	return db->n_name_classes > 1;
}

int pfsel_policydb_resolver(const struct pfsel_policydb *db, u32 app_class)
{
	u32 lo = 0, hi = db->n_resolvers;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		u32 c = le32_to_cpu(db->resolvers[mid].app);

		if (c == app_class)
			return le32_to_cpu(db->resolvers[mid].flags);
		if (c < app_class)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

/**
 * pfsel_policydb_default_verdict - verdict when no rule matches
 * @db: the policy
 *
 * Return: enum pfsel_verdict.
 */
u32 pfsel_policydb_default_verdict(const struct pfsel_policydb *db)
{
	return db->default_verdict;
}

/**
 * pfsel_policydb_no_answer - verdict when an ask goes unanswered
 * @db: the policy
 *
 * Return: PFSEL_VERDICT_ALLOW or PFSEL_VERDICT_DENY.
 */
u32 pfsel_policydb_no_answer(const struct pfsel_policydb *db)
{
	return db->no_answer;
}

/**
 * pfsel_policydb_ask_timeout_ms - how long an ask may wait
 * @db: the policy
 *
 * Return: milliseconds, PFSEL_ASK_TIMEOUT_MIN_MS..PFSEL_ASK_TIMEOUT_MAX_MS.
 */
u32 pfsel_policydb_ask_timeout_ms(const struct pfsel_policydb *db)
{
	return db->ask_timeout_ms;
}

/**
 * pfsel_policydb_rule_source - where a rule was written
 * @db: the policy
 * @rule: rule index, as in struct pfsel_decision
 * @file: receives the source file name (not NUL-terminated)
 * @line: receives the line
 * @col: receives the column
 *
 * Return: 0, or -ENOENT if @rule is not a rule of @db (e.g. PFSEL_NONE).
 */
int pfsel_policydb_rule_source(const struct pfsel_policydb *db, u32 rule,
			       struct pfsel_string *file, u32 *line, u32 *col)
{
	const struct pfsel_policy_rule *r;

	if (rule >= db->n_rules)
		return -ENOENT;
	r = &db->rules[rule];
	*file = db->strings[le32_to_cpu(r->file)];
	*line = le32_to_cpu(r->line);
	*col = le32_to_cpu(r->col);
	return 0;
}
