// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - is one compiled policy no looser than another?  Exactly.
 *
 * The root side (pam_pfsel, `pfsel load`, `pfsel compare`) lets a new
 * user policy replace the one the person confirmed only when the new one
 * is no looser: for every request the kernel can ask, its verdict is at
 * least as strict.  The set of requests is infinite, but a policy decides
 * by equivalence classes (policy/FORMAT.md), so the comparison is finite:
 *
 *  - addresses and ports: the two policies' class bounds, merged, cut the
 *    address and port spaces into common intervals; every address (port)
 *    of an interval is in one class of each policy, so one representative
 *    per interval decides for all of it;
 *  - applications: an executable (or script) path is classified by which
 *    path entries equal it, hold it as a child, or hold it in their tree.
 *    With S the entry strings of both policies (and the root, ""), let d
 *    be the deepest directory of S that is an ancestor of a path p: p is
 *    classified as d itself (p in S), as a fresh child of d, or as a fresh
 *    grandchild of d, "fresh" being a name no entry uses.  So the paths S,
 *    d/F and d/F/F (d in S and "") meet every combination of classes that
 *    any path meets, in both policies at once; the scripts likewise, and
 *    "no script".  Every (exe, script) combination of those gives a pair
 *    (old class, new class); the pairs are all the pairs that exist.
 *
 * Both policies are read and asked with the kernel's own reader
 * (security/pfsel/policydb.c, built for user space through compiler/kshim),
 * so there is one reader of the format.
 *
 * Strictness of one decision, from loosest: allow; ask whose unanswered
 * verdict is allow; ask whose unanswered verdict is deny; deny.  A
 * permissive policy lets every call through: all its decisions count as
 * allow.  Between two asks that both end in allow when unanswered, a
 * shorter timeout is looser (the agent has less time to say no).  Audit
 * flags do not change what is allowed and are not compared.
 *
 * Protection ("protect": the process runs in secure-execution mode and is
 * not dumpable) is of the application, not of a request, and holds in
 * permissive mode too: the new policy is looser when some pair of classes
 * has the old class protected and the new one not.  Adding protection is
 * tighter.
 *
 * A few requests enumerated here cannot happen (a create is asked only at
 * its family's address; an icmp or raw request only with port 0, a packet
 * one only at create): they are left out.  Any request the enumeration
 * includes that cannot happen could only make a policy look looser, never
 * hide a looser one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policydb.h"

#include "internal.h"

/* Longest path a representative may have: the format's limit, and room. */
#define CMP_PATH_MAX (2 * 4096 + 64)

/* One representative path and how to describe it. */
enum rep_kind {
	REP_EXACT, /* the entry string itself */
	REP_CHILD, /* a file directly in it that no entry names */
	REP_DEEP, /* a file deeper in it that no entry names */
	REP_NONE, /* no script */
};

struct rep {
	char *path; /* NULL for REP_NONE */
	const char *base; /* the entry string (for the description) */
	enum rep_kind kind;
};

struct reps {
	struct rep *v;
	size_t n, cap;
	char **owned; /* NUL-terminated copies of the entry strings */
	size_t n_owned;
};

/* One pair of application classes, and the first (exe, script) giving it. */
struct app_pair {
	u32 old_app, new_app;
	u32 exe, script; /* indexes into the representatives */
};

struct cmp {
	const struct pfsel_policydb *old, *new;
	struct reps exes, scripts;
	struct app_pair *pairs;
	size_t n_pairs;
	/* The cells of the old (0) and the new (1) application. */
	const struct pfsel_policy_cell **cells[2];
	/* Where decisions can change, for the request kind at hand. */
	u8 (*addrs)[16];
	u32 n_addrs;
	size_t addrs_cap;
	u16 *ports;
	u32 n_ports;
	size_t ports_cap;
	FILE *report;
	unsigned int max, found;
};

static int reps_add(struct reps *r, char *path, const char *base,
		    enum rep_kind kind)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		struct rep *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = (struct rep){ .path = path, .base = base, .kind = kind };
	return 0;
}

static void reps_free(struct reps *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].path);
	for (i = 0; i < r->n_owned; i++)
		free(r->owned[i]);
	free(r->v);
	free(r->owned);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entry strings of one path table, appended to @out as C strings. */
static int collect(const struct pfsel_policydb *db,
		   const struct pfsel_policy_path *paths, u32 n, char **out,
		   size_t *count)
{
	u32 i;

	for (i = 0; i < n; i++) {
		const struct pfsel_string *s =
			&db->strings[le32_to_cpu(paths[i].str)];
		char *copy = malloc(s->len + 1);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, s->s, s->len);
		copy[s->len] = '\0';
		out[(*count)++] = copy;
	}
	return 0;
}

/*
 * The representatives of one kind of path (executables or scripts) for
 * the entries @a (@na of them, of the old policy) and @b (the new one's).
 */
static int reps_build(struct reps *r, const struct pfsel_policydb *old,
		      const struct pfsel_policy_path *a, u32 na,
		      const struct pfsel_policydb *new,
		      const struct pfsel_policy_path *b, u32 nb, bool scripts)
{
	char fresh[64];
	size_t i, j, n = 0, run = 0, longest = 0;
	int err;

	r->owned = calloc((size_t)na + nb + 1, sizeof(*r->owned));
	if (!r->owned)
		return -ENOMEM;
	r->owned[n++] = strdup(""); /* the root directory */
	if (!r->owned[0])
		return -ENOMEM;
	err = collect(old, a, na, r->owned, &n);
	if (!err)
		err = collect(new, b, nb, r->owned, &n);
	r->n_owned = n;
	if (err)
		return err;
	qsort(r->owned, n, sizeof(*r->owned), str_cmp);

	/*
	 * A fresh name: a run of \x01 longer than any in the entries, so
	 * that neither d/F nor anything below it is an entry.
	 */
	for (i = 0; i < n; i++) {
		for (j = 0; r->owned[i][j]; j++) {
			run = r->owned[i][j] == '\x01' ? run + 1 : 0;
			if (run > longest)
				longest = run;
		}
		run = 0;
	}
	if (longest + 2 > sizeof(fresh))
		return pfsel_fail(-E2BIG,
				  "compare: a path entry holds %zu "
				  "bytes 0x01 in a row",
				  longest);
	memset(fresh, '\x01', longest + 1);
	fresh[longest + 1] = '\0';

	if (scripts) {
		err = reps_add(r, NULL, NULL, REP_NONE);
		if (err)
			return err;
	}
	for (i = 0; i < n; i++) {
		const char *base = r->owned[i];
		char *p;

		if (i && !strcmp(base, r->owned[i - 1]))
			continue; /* in both policies */
		if (*base) {
			p = strdup(base);
			if (!p || reps_add(r, p, base, REP_EXACT)) {
				free(p);
				return -ENOMEM;
			}
		}
		if (asprintf(&p, "%s/%s", base, fresh) < 0)
			return -ENOMEM;
		if (reps_add(r, p, base, REP_CHILD)) {
			free(p);
			return -ENOMEM;
		}
		if (asprintf(&p, "%s/%s/%s", base, fresh, fresh) < 0)
			return -ENOMEM;
		if (reps_add(r, p, base, REP_DEEP)) {
			free(p);
			return -ENOMEM;
		}
	}
	return 0;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct app_pair *x = a, *y = b;

	if (x->old_app != y->old_app)
		return x->old_app < y->old_app ? -1 : 1;
	if (x->new_app != y->new_app)
		return x->new_app < y->new_app ? -1 : 1;
	/* The first representative found describes the pair. */
	if (x->exe != y->exe)
		return x->exe < y->exe ? -1 : 1;
	return x->script < y->script ? -1 : (x->script > y->script);
}

/* Every pair of application classes some (exe, script) falls in. */
static int app_pairs(struct cmp *c)
{
	size_t ne = c->exes.n, ns = c->scripts.n, i, j, n = 0;

	if (ns && ne > SIZE_MAX / sizeof(*c->pairs) / ns)
		return -ENOMEM;
	c->pairs = malloc(ne * ns * sizeof(*c->pairs));
	if (!c->pairs)
		return -ENOMEM;
	for (i = 0; i < ne; i++) {
		for (j = 0; j < ns; j++) {
			const char *exe = c->exes.v[i].path;
			const char *script = c->scripts.v[j].path;

			c->pairs[n++] = (struct app_pair){
				.old_app = pfsel_policydb_classify_app(
					c->old, exe, script),
				.new_app = pfsel_policydb_classify_app(
					c->new, exe, script),
				.exe = (u32)i,
				.script = (u32)j,
			};
		}
	}
	qsort(c->pairs, n, sizeof(*c->pairs), pair_cmp);
	for (i = 0, j = 0; i < n; i++)
		if (!j || c->pairs[i].old_app != c->pairs[j - 1].old_app ||
		    c->pairs[i].new_app != c->pairs[j - 1].new_app)
			c->pairs[j++] = c->pairs[i];
	c->n_pairs = j;
	return 0;
}

/* ---- Where a decision can change --------------------------------------- */

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	bigger = realloc(*v, n * size);
	if (!bigger)
		return -ENOMEM;
	*v = bigger;
	*cap = n;
	return 0;
}

/*
 * The cells of @app's groups for the request kind @key (at most one per
 * group), as the kernel's decision finds them: into c->cells[@side].
 */
static u32 app_cells(struct cmp *c, int side, const struct pfsel_policydb *db,
		     u32 app, u32 key)
{
	const __le32 *group = db->grouplist + le32_to_cpu(db->apps[app].first);
	u32 n = le32_to_cpu(db->apps[app].count), i, found = 0;

	for (i = 0; i < n; i++) {
		const struct pfsel_policy_cell *cell =
			pfsel_policydb_group_cell(db, le32_to_cpu(group[i]),
						  key);

		if (cell)
			c->cells[side][found++] = cell;
	}
	return found;
}

static int addr_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

static int port_cmp(const void *a, const void *b)
{
	u32 x = *(const u16 *)a, y = *(const u16 *)b;

	return x < y ? -1 : x > y;
}

/* Sort @n elements of @size bytes and keep one of each: how many are left. */
static u32 sort_unique(void *v, size_t n, size_t size,
		       int (*cmp)(const void *, const void *))
{
	char *p = v;
	size_t i, j;

	qsort(v, n, size, cmp);
	for (i = 0, j = 0; i < n; i++)
		if (!j || cmp(p + i * size, p + (j - 1) * size))
			memmove(p + j++ * size, p + i * size, size);
	return (u32)j;
}

/*
 * The addresses where a decision for @key can change: where a slab of one
 * of the cells begins (a class bound of its policy), and "::".  Within an
 * interval between two of them every cell of both policies picks the same
 * slab, so both decisions are the same for all its addresses.
 */
static int addr_breaks(struct cmp *c, u32 n_old, u32 n_new)
{
	const struct pfsel_policydb *dbs[2] = { c->old, c->new };
	u32 counts[2] = { n_old, n_new };
	size_t n = 0, i, j;
	int side;

	for (side = 0; side < 2; side++) {
		const struct pfsel_policydb *db = dbs[side];

		for (i = 0; i < counts[side]; i++) {
			const struct pfsel_policy_cell *cell =
				c->cells[side][i];
			const struct pfsel_policy_slab *slab =
				db->slabs + le32_to_cpu(cell->slab_first);
			u32 len = le32_to_cpu(cell->slab_count);

			if (grow((void **)&c->addrs, &c->addrs_cap, n + len + 1,
				 16))
				return -ENOMEM;
			for (j = 0; j < len; j++)
				memcpy(c->addrs[n++],
				       db->addrs[le32_to_cpu(slab[j].start)]
					       .start,
				       16);
		}
	}
	if (grow((void **)&c->addrs, &c->addrs_cap, n + 1, 16))
		return -ENOMEM;
	memset(c->addrs[n++], 0, 16);
	c->n_addrs = sort_unique(c->addrs, n, 16, addr_cmp);
	return 0;
}

/* The first port of each run of @row, appended to c->ports. */
static int row_breaks(struct cmp *c, const struct pfsel_policydb *db, u32 row,
		      size_t *n)
{
	const struct pfsel_policy_run *run;
	u32 len, i;

	if (row == PFSEL_NONE)
		return 0;
	run = db->runs + le32_to_cpu(db->rows[row].first);
	len = le32_to_cpu(db->rows[row].count);
	if (grow((void **)&c->ports, &c->ports_cap, *n + len, sizeof(u16)))
		return -ENOMEM;
	for (i = 0; i < len; i++)
		c->ports[(*n)++] =
			le16_to_cpu(db->ports[le32_to_cpu(run[i].start)].start);
	return 0;
}

/*
 * The ports where a decision for @key at address @addr can change: where
 * a run of a row that the cells give this address begins, and 0.
 */
static int port_breaks(struct cmp *c, u32 n_old, u32 n_new, const u8 *addr)
{
	const struct pfsel_policydb *dbs[2] = { c->old, c->new };
	u32 counts[2] = { n_old, n_new };
	size_t n = 0, i;
	int side;

	for (side = 0; side < 2; side++) {
		const struct pfsel_policydb *db = dbs[side];
		u32 addr_class = pfsel_policydb_classify_addr(db, addr);

		for (i = 0; i < counts[side]; i++) {
			const struct pfsel_policy_cell *cell =
				c->cells[side][i];
			u32 row = pfsel_policydb_slab_row(db, cell, addr_class);

			if (row_breaks(c, db, le32_to_cpu(cell->wild_row),
				       &n) ||
			    row_breaks(c, db, row, &n))
				return -ENOMEM;
		}
	}
	if (grow((void **)&c->ports, &c->ports_cap, n + 1, sizeof(u16)))
		return -ENOMEM;
	c->ports[n++] = 0;
	c->n_ports = sort_unique(c->ports, n, sizeof(u16), port_cmp);
	return 0;
}

/* How strict a decision is: 0 allow .. 3 deny (see the top). */
static int strictness(const struct pfsel_policydb *db, u32 verdict)
{
	if (db->flags & PFSEL_POLICY_F_PERMISSIVE)
		return 0;
	switch (verdict) {
	case PFSEL_VERDICT_ALLOW:
		return 0;
	case PFSEL_VERDICT_ASK:
		return db->no_answer == PFSEL_VERDICT_ALLOW ? 1 : 2;
	default:
		return 3;
	}
}

static bool looser(const struct cmp *c, const struct pfsel_decision *was,
		   const struct pfsel_decision *now)
{
	int a = strictness(c->old, was->verdict);
	int b = strictness(c->new, now->verdict);

	if (b != a)
		return b < a;
	return a == 1 && c->new->ask_timeout_ms < c->old->ask_timeout_ms;
}

/* ---- Describing a cell as a rule -------------------------------------- */

/* A path as the language writes it: quoted when it must be. */
static void put_path(FILE *f, const char *p, const char *glob)
{
	bool plain = *p || *glob;
	const char *s;

	for (s = p; *s; s++)
		if (*s <= ' ' || *s == '"' || *s == '\\' || *s == ';' ||
		    *s == ',' || *s == '#' || *s == '=' || *s == 0x7f)
			plain = false;
	if (plain) {
		fprintf(f, "%s%s", p, glob);
		return;
	}
	fputc('"', f);
	for (s = p; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fprintf(f, "%s\"", glob);
}

static void put_rep(FILE *f, const struct rep *r)
{
	switch (r->kind) {
	case REP_EXACT:
		put_path(f, r->base, "");
		break;
	case REP_CHILD:
		put_path(f, r->base, "/*");
		break;
	case REP_DEEP:
		put_path(f, r->base, "/**");
		break;
	case REP_NONE:
		break;
	}
}

typedef unsigned __int128 u128;

static u128 addr_num(const u8 a[16])
{
	u128 v = 0;
	int i;

	for (i = 0; i < 16; i++)
		v = v << 8 | a[i];
	return v;
}

static void num_addr(u128 v, u8 a[16])
{
	int i;

	for (i = 15; i >= 0; i--) {
		a[i] = (u8)v;
		v >>= 8;
	}
}

static const u8 v4_prefix[12] = { [10] = 0xff, [11] = 0xff };

static bool is_v4(u128 v)
{
	u8 a[16];

	num_addr(v, a);
	return !memcmp(a, v4_prefix, 12);
}

/* @lo/@len, IPv4 if it is one (and not @v6). */
static void put_prefix_as(FILE *f, u128 lo, int len, bool v6)
{
	char text[INET6_ADDRSTRLEN];
	u8 a[16];

	num_addr(lo, a);
	if (!v6 && !memcmp(a, v4_prefix, 12) && len >= 96) {
		inet_ntop(AF_INET, a + 12, text, sizeof(text));
		len -= 96;
		if (len == 32)
			fputs(text, f);
		else
			fprintf(f, "%s/%d", text, len);
		return;
	}
	inet_ntop(AF_INET6, a, text, sizeof(text));
	if (len == 128)
		fputs(text, f);
	else
		fprintf(f, "%s/%d", text, len);
}

static void put_prefix(FILE *f, u128 lo, int len)
{
	put_prefix_as(f, lo, len, false);
}

/* The largest prefix (its length) that starts at @p and ends by @hi. */
static int block_at(u128 p, u128 hi)
{
	int k = 0;

	while (k < 127) {
		const u128 mask = ((u128)1 << (k + 1)) - 1;

		if ((p & mask) || p + mask > hi || p + mask < p)
			break;
		k++;
	}
	return 128 - k;
}

/* [lo, hi] as prefixes, if a few do; else "LO (to HI)". */
static void put_addrs(FILE *f, u128 lo, u128 hi)
{
	int count = 0, pass, len;
	u128 p, end;

	if (lo == 0 && hi == ~(u128)0) {
		fputs("any", f);
		return;
	}
	for (pass = 0; pass < 2; pass++) {
		for (p = lo, count = 0;; p = end + 1) {
			len = block_at(p, hi);
			end = p + (((u128)1 << (128 - len)) - 1);
			if (pass) {
				fputs(count ? ", " : "", f);
				put_prefix(f, p, len);
			}
			count++;
			if (end >= hi)
				break;
		}
		if (!pass && count > 4) {
			/* A range: both ends in one notation. */
			const bool v6 = is_v4(lo) != is_v4(hi);

			put_prefix_as(f, lo, 128, v6);
			fputs(" (to ", f);
			put_prefix_as(f, hi, 128, v6);
			fputs(")", f);
			return;
		}
	}
}

static void put_decision(FILE *f, const struct pfsel_policydb *db,
			 const struct pfsel_decision *d)
{
	struct pfsel_string file;
	u32 line, col;

	if (d->verdict == PFSEL_VERDICT_ASK)
		fprintf(f, "ask (unanswered %s, %u ms)",
			pfsel_verdict_name(db->no_answer == PFSEL_VERDICT_ALLOW ?
						   PFSEL_VERDICT_ALLOW :
						   PFSEL_VERDICT_DENY),
			db->ask_timeout_ms);
	else
		fputs(pfsel_verdict_name(d->verdict == PFSEL_VERDICT_ALLOW ?
						 PFSEL_VERDICT_ALLOW :
						 PFSEL_VERDICT_DENY),
		      f);
	if (db->flags & PFSEL_POLICY_F_PERMISSIVE)
		fputs(" in permissive mode", f);
	if (!pfsel_policydb_rule_source(db, d->rule, &file, &line, &col))
		fprintf(f, " by %.*s:%u:%u", (int)file.len, file.s, line, col);
	else
		fputs(" by default", f);
}

/* Report a looser cell: "VERDICT APP OP PROTO ... ;  # was ..." */
static void report(struct cmp *c, const struct app_pair *pair, u32 op,
		   u32 proto, int family, u32 ai, u32 pi,
		   const struct pfsel_decision *was,
		   const struct pfsel_decision *now)
{
	FILE *f = c->report;
	const struct rep *script = &c->scripts.v[pair->script];
	u32 verdict = now->verdict;

	if (!f)
		return;
	if (c->new->flags & PFSEL_POLICY_F_PERMISSIVE)
		verdict = PFSEL_VERDICT_ALLOW;
	fprintf(f, "%s ",
		pfsel_verdict_name(verdict == PFSEL_VERDICT_ASK  ? PFSEL_VERDICT_ASK :
				   verdict == PFSEL_VERDICT_DENY ? PFSEL_VERDICT_DENY :
								   PFSEL_VERDICT_ALLOW));
	put_rep(f, &c->exes.v[pair->exe]);
	if (script->kind != REP_NONE) {
		fputs(" script ", f);
		put_rep(f, script);
	}
	fprintf(f, " %s %s", pfsel_op_name(op), pfsel_proto_name(proto));
	if (op == PFSEL_OP_CREATE) {
		if (proto != PFSEL_PROTO_PACKET)
			fprintf(f, " family %s",
				pfsel_family_name(family ? PFSEL_FAMILY_INET6 :
							   PFSEL_FAMILY_INET));
	} else {
		u128 lo = addr_num(c->addrs[ai]);
		u128 hi = ai + 1 < c->n_addrs ? addr_num(c->addrs[ai + 1]) - 1 :
						~(u128)0;
		u32 plo = c->ports[pi];
		u32 phi = pi + 1 < c->n_ports ? c->ports[pi + 1] - 1u : 65535;

		fputs(" to ", f);
		put_addrs(f, lo, hi);
		if (proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP) {
			if (plo == phi)
				fprintf(f, " port %u", plo);
			else if (plo != 0 || phi != 65535)
				fprintf(f, " port %u-%u", plo, phi);
		}
	}
	fputs(";  # now ", f);
	put_decision(f, c->new, now);
	fputs("; confirmed: ", f);
	put_decision(f, c->old, was);
	fputc('\n', f);
}

/* ---- Protection -------------------------------------------------------- */

/* Report an application the new policy leaves unprotected. */
static void report_unprotected(struct cmp *c, const struct app_pair *pair)
{
	FILE *f = c->report;
	const struct rep *script = &c->scripts.v[pair->script];

	if (!f)
		return;
	fputs("no longer protects ", f);
	put_rep(f, &c->exes.v[pair->exe]);
	if (script->kind != REP_NONE) {
		fputs(" script ", f);
		put_rep(f, script);
	}
	fputs(";  # now not protected; confirmed: protected\n", f);
}

/*
 * 0 when the new policy protects every application the old one does, 1
 * to stop (found enough).  The pairs are every pair of classes an
 * application can fall in, so this is exact.
 */
static int protection(struct cmp *c)
{
	size_t i;

	for (i = 0; i < c->n_pairs; i++) {
		const struct app_pair *pair = &c->pairs[i];

		if (!pfsel_policydb_app_protected(c->old, pair->old_app) ||
		    pfsel_policydb_app_protected(c->new, pair->new_app))
			continue;
		if (c->found++ < c->max)
			report_unprotected(c, pair);
		else if (c->report && c->max)
			fputs("...\n", c->report);
		if (c->found > c->max)
			return 1;
	}
	return 0;
}

/* ---- The enumeration --------------------------------------------------- */

/* 0 no looser so far, 1 stop (found enough), or a negative errno. */
static int cell(struct cmp *c, const struct app_pair *pair, u32 op, u32 proto,
		int family, u32 ai, u32 pi)
{
	struct pfsel_decision was, now;
	u8 addr[16];
	u16 port;

	if (op == PFSEL_OP_CREATE) {
		pfsel_policydb_family_addr(
			family ? PFSEL_FAMILY_INET6 : PFSEL_FAMILY_INET, addr);
		port = 0;
	} else {
		memcpy(addr, c->addrs[ai], 16);
		port = c->ports[pi];
	}
	if (pfsel_policydb_decide(c->old, pair->old_app, op, proto,
				  pfsel_policydb_classify_addr(c->old, addr),
				  pfsel_policydb_classify_port(c->old, port),
				  &was) ||
	    pfsel_policydb_decide(c->new, pair->new_app, op, proto,
				  pfsel_policydb_classify_addr(c->new, addr),
				  pfsel_policydb_classify_port(c->new, port),
				  &now))
		return pfsel_fail(-EINVAL, "compare: a lookup failed");
	if (!looser(c, &was, &now))
		return 0;
	if (c->found++ < c->max)
		report(c, pair, op, proto, family, ai, pi, &was, &now);
	else if (c->report && c->max)
		fputs("...\n", c->report);
	return c->found > c->max ? 1 : 0;
}

static int enumerate(struct cmp *c)
{
	size_t i;
	u32 op, proto, ai, pi, n_old, n_new;
	int ret;

	for (i = 0; i < c->n_pairs; i++) {
		const struct app_pair *pair = &c->pairs[i];

		for (op = 0; op < PFSEL_OP_COUNT; op++) {
			for (proto = 0; proto < PFSEL_PROTO_COUNT; proto++) {
				const u32 key = op * PFSEL_PROTO_COUNT + proto;
				bool ports = proto == PFSEL_PROTO_TCP ||
					     proto == PFSEL_PROTO_UDP;

				if (op == PFSEL_OP_CREATE) {
					ret = cell(c, pair, op, proto, 0, 0, 0);
					if (!ret)
						ret = cell(c, pair, op, proto,
							   1, 0, 0);
					if (ret)
						return ret;
					continue;
				}
				if (proto == PFSEL_PROTO_PACKET)
					continue;
				n_old = app_cells(c, 0, c->old, pair->old_app,
						  key);
				n_new = app_cells(c, 1, c->new, pair->new_app,
						  key);
				if (addr_breaks(c, n_old, n_new))
					return -ENOMEM;
				for (ai = 0; ai < c->n_addrs; ai++) {
					if (!ports) {
						c->ports[0] = 0;
						c->n_ports = 1;
					} else if (port_breaks(c, n_old, n_new,
							       c->addrs[ai])) {
						return -ENOMEM;
					}
					for (pi = 0; pi < c->n_ports; pi++) {
						ret = cell(c, pair, op, proto,
							   0, ai, pi);
						if (ret)
							return ret;
					}
				}
			}
		}
	}
	return 0;
}

static int load(const void *blob, size_t len, const char *what,
		struct pfsel_policydb **db)
{
	int err = pfsel_policydb_load(blob, len, db);

	if (err)
		return pfsel_fail(err,
				  "compare: the %s policy is not a valid "
				  "pfsel policy: %s",
				  what, strerror(-err));
	return 0;
}

PFSEL_EXPORT int pfsel_compare(const void *old_blob, size_t old_len,
			       const void *new_blob, size_t new_len,
			       FILE *report, unsigned int max)
{
	struct pfsel_policydb *old = NULL, *new = NULL;
	struct cmp c = { .report = report, .max = max };
	int err;

	pfsel_clear_error();
	err = load(old_blob, old_len, "old", &old);
	if (!err)
		err = load(new_blob, new_len, "new", &new);
	if (err)
		goto out;
	c.old = old;
	c.new = new;
	err = reps_build(&c.exes, old, old->exe_paths, old->n_exe_paths, new,
			 new->exe_paths, new->n_exe_paths, false);
	if (!err)
		err = reps_build(&c.scripts, old, old->script_paths,
				 old->n_script_paths, new, new->script_paths,
				 new->n_script_paths, true);
	if (!err)
		err = app_pairs(&c);
	if (!err) {
		c.cells[0] = calloc(old->n_groups + 1, sizeof(*c.cells[0]));
		c.cells[1] = calloc(new->n_groups + 1, sizeof(*c.cells[1]));
		if (!c.cells[0] || !c.cells[1] ||
		    grow((void **)&c.ports, &c.ports_cap, 1, sizeof(u16)))
			err = -ENOMEM;
	}
	if (err == -ENOMEM)
		pfsel_fail(err, "compare: out of memory");
	if (!err)
		err = protection(&c);
	/*
	 * Permissive lets every request through: no decision is looser than
	 * its.  (Protection holds in permissive mode, so it was compared.)
	 */
	if (!err && !(old->flags & PFSEL_POLICY_F_PERMISSIVE)) {
		if (report && max && (new->flags &PFSEL_POLICY_F_PERMISSIVE))
			fputs("# mode permissive (the confirmed policy "
			      "enforces)\n",
			      report);
		err = enumerate(&c);
	}
	if (err >= 0)
		err = c.found ? 1 : 0;
out:
	reps_free(&c.exes);
	reps_free(&c.scripts);
	free(c.pairs);
	free(c.cells[0]);
	free(c.cells[1]);
	free(c.addrs);
	free(c.ports);
	pfsel_policydb_free(old);
	pfsel_policydb_free(new);
	return err;
}
