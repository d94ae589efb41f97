// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libuserpolicy - is one compiled policy no looser than another?  Exactly.
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
 *  - applications: the kernel classifies a process by the two strings
 *    app.c hands pfsel_policydb_classify_app(), and nothing else.  The
 *    executable is the file's path as init's mount tree reaches it (an
 *    absolute path of a file: it begins with '/' and does not end with
 *    one), or PFSEL_UNNAMED_PATH ("?") when it has none (memfd and
 *    fexecve, a mount of the user's own, a task that executed nothing).
 *    The script is NULL when none runs (no interpreter, one run by hand,
 *    or a name that did not lead to the file), an absolute path, or "?"
 *    for a script the kernel ran but cannot name.  Any of these
 *    executables goes with any of these scripts (a named interpreter
 *    with an unnamed script, an unnamed one with a named script, ...).
 *    Each string is classified alone by its path table (FORMAT.md
 *    "Classifying a path"), and the application class is a function of
 *    the two classes.  So representatives that meet, for each table, every
 *    class it gives any string the kernel can pass, both policies at
 *    once, give in their product every pair (old class, new class) that
 *    any process has:
 *    - "?" is asked as the very string the kernel passes, so its class is
 *      the kernel's whatever the entries hold.  (pfwc writes absolute
 *      entries only, so it is the "other" class, which only "*" reaches
 *      and every "/" with two stars misses; a blob is not trusted to be
 *      pfwc's.)  NULL, for the script, likewise;
 *    - an absolute path p: with S the entry strings of both policies
 *      (and the root, ""), let d be the deepest string of S that is a
 *      directory above p (p begins with d followed by '/').  The
 *      classification looks at p itself (equal to an entry?), at p's
 *      parent (a child entry?) and at the directories above p (tree
 *      entries, deepest first).  If p is in S, the representative p is
 *      the same string.  Else the directories strictly between d and p
 *      are in no entry, so p is classified as d/F if p is directly in d,
 *      and as d/F/F otherwise, F being a name no entry uses.  So the
 *      paths S, d/F and d/F/F (d in S and "") meet every class of every
 *      absolute path.
 *    Every (exe, script) of those gives a pair (old class, new class);
 *    the pairs are all the pairs that exist;
 *  - requests (security/pfsel/classify.c): an operation and a protocol,
 *    then an address and a port.  A create is asked at its family's
 *    address (pfsel_policydb_family_addr()) and port 0: an inet protocol
 *    at each family's, packet at "::" (a packet socket has no family,
 *    PFSEL_FAMILY_PACKET).  The other operations are never asked of a
 *    packet socket (pfsel_classify_sock()); they are asked at any address
 *    (one space: IPv4 is ::ffff:0:0/96), tcp and udp at any port, 0
 *    included, icmp and raw at port 0.  So creates are compared at every
 *    family of their protocol, the rest at every address and port
 *    interval (above), both families and port 0 among them;
 *  - host names (FORMAT.md "Host names"): a connect, accept, bind or
 *    listen request also has the set S of names the kernel knows for its
 *    address (0 to PFSEL_HOSTS_PER_ADDR), and its decision in a policy is
 *    the rule with the smallest index among the address's and each name's
 *    (none: the default).  A name is classified by the entry equal to it,
 *    else by its deepest "*." suffix.  With P the name entry strings of
 *    both policies, let p be the deepest proper suffix of a name n (n not
 *    in P) that is in P: n has the same suffixes in P as F.p, F a label
 *    such that F.p is not in P, so both policies classify n as F.p.  So
 *    the names P and F.p (p in P) meet every pair (old class, new class)
 *    that any name meets; a name with no suffix in P matches no rule of
 *    either, like no name.  For any S, the old decision comes from one
 *    member x (or the address) and the new one from one member y: the set
 *    {x, y} gives the same two decisions, and any two names can share an
 *    address.  So the sets of 0, 1 and 2 names of those classes are every
 *    case there is.  A name's rules depend on the port, not the address:
 *    the ports also break where the rows of the cells' name slabs do.
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
 * So the enumeration is total: every request the kernel can decide falls
 * in a cell compared here.  A cell compared that cannot happen (an absolute
 * representative the entries of a hand-made blob invent, say) could only
 * make a policy look looser, never hide a looser one.  The property test
 * tests/unit/pfsel-tools/test_compare_property.c holds this function to
 * brute force over random policies and requests of every class.
 *
 * Deciding each cell of that enumeration with the kernel's lookups takes
 * seconds for a policy of 10,000 rules (some 200 application pairs, a
 * few thousand address intervals each), and a login waits for it (issue
 * 30).  So policy_compare() takes shortcuts, none of which changes an
 * answer or a line of a report: it only passes over intervals where
 * nothing is looser.  policy_compare_exhaustive() takes none, and the
 * tests hold the two to the same answers and reports.
 *
 *  - The address intervals of a request kind are swept in one order of
 *    both policies' class bounds (ranks_build()): an interval ends where a
 *    slab of one of the kind's cells starts, the bounds the enumeration
 *    always had, and each cell's slab there is a cursor's, not a search.
 *  - Sets of rows.  In an address interval, each policy's decision at a
 *    port is the smallest rule that its rows give the port's class, the
 *    rows being each cell's wild row and the row of its slab holding the
 *    address (FORMAT.md, "Requests"; pfsel_policydb_decide()).  So what
 *    the interval compares, at every port, is a function of the two sets
 *    of rows (and of whether the protocol has ports): the rules' verdicts,
 *    the defaults, the modes and the timeouts are the policies' own.  Each
 *    set is decided once (rows_sweep(), rowset_get()); wherever the same
 *    two sets come again, in any application pair and request kind, the
 *    interval is no looser as the first one was.  The host names decide
 *    by the address's rules and the names of the kind's cells, so they
 *    are checked once per set of rows for each kind's names.  A set found
 *    looser sends its intervals to the cell-by-cell enumeration, which
 *    finds, counts and reports each looser cell as it always has.
 *  - The base cells.  An application's decision is the smallest rule over
 *    its groups, and the lowering gives every application one group in
 *    common, the `*` rules' (docs/LOWERING.md): here the base group, the
 *    one that most applications list (any other choice would be as
 *    exact, and slower).  Where a pair's other cells give no row (no wild
 *    row, no slab's row at the address), its rows are the base cells'
 *    alone.  The base cells of each request kind are compared alone once
 *    (base_check()), at every address interval, port and host name; when
 *    no row of theirs is looser anywhere, a pair's sweep goes from one
 *    bound of its other cells to the next over where those give no row.
 *    There, only host names can be left to check: not when the other
 *    cells have no name slabs (each name then gets no row from them, and
 *    names_prepare() groups, orders and decides the names exactly as for
 *    the base cells alone, whose names were found no looser), else at the
 *    base check's decisions (quiet_names()).
 *  - An executable whose class has no script pairs in either policy gets
 *    the same pair of classes with every script (app_pairs()).
 *    named_cell() passes over at once, as it always did interval of
 *    names by interval, ports where no name's rule comes before the
 *    address's, and address rules whose every interval it checked.
 *
 * The work counted against CMP_NAME_STEPS_MAX is only what is not passed
 * over, so the comparison gives up (and calls the policy looser) less
 * often than when it decided every cell.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policydb.h"

#include "userpolicy.h"

static _Thread_local char last_error[512];

const char *policy_last_error(void)
{
	return last_error;
}

/* Records the message policy_last_error() returns, and returns @err. */
static int fail(const int err, const char *const fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const int err, const char *const fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

/* Longest path a representative may have: the format's limit, and room. */
#define CMP_PATH_MAX (2 * 4096 + 64)

/* One representative path and how to describe it. */
enum rep_kind {
	REP_EXACT, /* the entry string itself */
	REP_CHILD, /* a file directly in it that no entry names */
	REP_DEEP, /* a file deeper in it that no entry names */
	REP_NONE, /* no script */
	REP_UNNAMED, /* a file the kernel cannot name: PFSEL_UNNAMED_PATH */
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

/*
 * A host name standing for the names one pair (old class, new class) has:
 * a name entry itself, or F.p for the names whose deepest entry suffix is p.
 */
struct name_rep {
	char *name;
	const char *below; /* NULL: @name itself; else p, "*.p" in reports */
	u32 old_class, new_class;
};

/* What names of one behaviour decide at one port: (old rule, new rule). */
struct name_tuple {
	u32 old_rule, new_rule;
	u32 rep; /* the name_rep that shows it */
};

/* For one (old rule, new rule) of the address: the port intervals checked. */
struct memo_slot {
	u32 old_rule, new_rule;
	u32 *next; /* NULL: free slot; else as c->nm->t_next */
};

/*
 * What host names decide for the cells of one request kind
 * (names_prepare()), @on when some cell has name slabs: the ports where
 * some name's rules change (@nb, from 0), and at each of those intervals k
 * the distinct (old rule, new rule) that names give, @tuples[@t_off[k] ..
 * @t_off[k + 1]), by old rule decreasing; their smallest rules, those over
 * ranges of intervals (@rmq_old, @rmq_new: level j the smallest of 2^j
 * intervals from each), and over all of them (@min_old, @min_new); and the
 * first interval >= k holding any.
 */
struct names {
	bool on;
	u16 *nb;
	u32 n_nb;
	u32 *t_off, *t_min_old, *t_min_new, *t_next;
	struct name_tuple *tuples;
	u32 *rmq_old, *rmq_new;
	u32 min_old, min_new;
};

/* One pair of application classes, and the first (exe, script) giving it. */
struct app_pair {
	u32 old_app, new_app;
	u32 exe, script; /* indexes into the representatives */
};

/* A cell's slab at the sweep's address (see sweep()). */
struct slab_cursor {
	const struct pfsel_policy_slab *slab;
	const u32 *rank; /* c->rank of the cell's policy */
	u32 n, i;
};

/* The decisions of a set of rows from @port up to the next piece's. */
struct port_piece {
	u32 port;
	u32 old_rule, new_rule;
};

/* What is known of one set of rows (see rowset_get()). */
enum rowset_state { ROWSET_NEW, ROWSET_NO_LOOSER, ROWSET_LOOSER };

struct rowset {
	u32 key; /* its key in c->keys; ROWSET_FREE for a free slot */
	u32 hash;
	u32 state; /* enum rowset_state */
	u32 names_stamp; /* the c->names_stamp its names were checked with */
};

#define ROWSET_FREE U32_MAX

/* Ports where the address's rules are (@old_rule, @new_rule), merged. */
struct rule_ports {
	u32 old_rule, new_rule;
	u32 lo, hi;
};

/*
 * What base_check() found of the base cells of one request kind, alone:
 * @rows 0 not asked yet, 1 no looser by the address's rules anywhere, 2
 * looser somewhere (or unknown); @names_looser, whether some host names
 * are looser (or it is unknown), with the base cells' @names (@names_ok
 * unless they were too much work); and each of their address intervals,
 * from rank @at[i] to @at[i + 1] (@at[@n] is RANK_END), with its
 * decisions @pieces[@first[i] .. @first[i + 1]), and the same decisions
 * by rules, @spans of them (base_spans()).
 */
struct base_kind {
	signed char rows;
	bool names_looser, names_ok;
	struct names names;
	u32 n;
	u32 *at, *first;
	struct port_piece *pieces;
	size_t at_cap, first_cap, pieces_cap;
	struct rule_ports *spans;
	u32 n_spans;
};

/*
 * One request kind (operation, protocol) of an application pair; or, with
 * @pair NULL, of the base cells alone (base_check(): compared for the
 * shortcut, never reported).
 */
struct kind {
	const struct app_pair *pair;
	u32 op, proto;
	bool ports; /* tcp and udp: every port; the others: port 0 */
	const struct pfsel_policy_cell *const *cells[2];
	u32 n[2];
	u32 base[2]; /* the base group's cell in @cells, or PFSEL_NONE */
	/*
	 * Where no cell but the base ones gives a row (the others have no
	 * wild row), the rows are @base_kind's, no looser: pass over, and
	 * with @quiet_names, check the host names at its decisions.
	 */
	bool skip_quiet, quiet_names;
	const struct base_kind *base_kind;
};

struct cmp {
	const struct pfsel_policydb *old, *new;
	struct reps exes, scripts;
	struct app_pair *pairs;
	size_t n_pairs;
	/*
	 * The first addresses of both policies' classes, merged, and the
	 * place of each class's among them (ranks_build()).
	 */
	u8 (*bounds)[16];
	u32 n_bounds;
	u32 *rank[2];
	/*
	 * The group most applications of each policy list (the lowering's
	 * group of the `*` rules), and what the base check found for each
	 * request kind and whether each side has a base cell.
	 */
	u32 base_group[2];
	struct base_kind base_kinds[PFSEL_OP_COUNT][PFSEL_PROTO_COUNT][2][2];
	/* In base_check(): where it keeps what it finds. */
	struct base_kind *probing;
	/* The cells of the old (0) and the new (1) application. */
	const struct pfsel_policy_cell **cells[2];
	u32 base_at[2]; /* the base group's among them, or PFSEL_NONE */
	struct slab_cursor *cursors[2];
	/* The sets of rows compared, their keys, and the scratch of one. */
	struct rowset *rowsets;
	u32 rowsets_cap, n_rowsets;
	u32 *keys;
	size_t keys_cap, keys_used;
	u32 *key, *run_at;
	struct port_piece *pieces;
	size_t pieces_cap;
	u32 n_pieces;
	/* Where decisions can change, for the address at hand. */
	u16 *ports;
	u32 n_ports;
	size_t ports_cap;
	FILE *report;
	unsigned int max, found;
	/* policy_compare_exhaustive(): no shortcut. */
	bool exhaustive;

	/* Host names: the entry strings of both policies, sorted, unique. */
	char **patterns;
	size_t n_patterns;
	/* One representative of each pair of name classes but (0, 0). */
	struct name_rep *names;
	u32 n_names;
	/*
	 * What names decide for the request kind at hand: @nm, either
	 * @pair_names or a base check's (see addressed()).
	 */
	const struct names *nm;
	struct names pair_names;
	/* The intervals checked, by the address's (old rule, new rule). */
	struct memo_slot *memo;
	u32 memo_cap, memo_used;
	/* The last (old rule, new rule) with every interval checked. */
	u32 done_old, done_new;
	bool done;
	/* Changes with each choice of @nm: names checked under it. */
	u32 names_stamp;
	/* Tuples visited: the work the names cost, bounded. */
	unsigned long long steps;
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
	char fresh[64], *p;
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
		return fail(-E2BIG,
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
	/*
	 * The unnamed file, by the kernel's own string whatever the entries
	 * hold.  Last, so that a report names a path when one shares its
	 * classes.
	 */
	p = strdup(PFSEL_UNNAMED_PATH);
	if (!p || reps_add(r, p, NULL, REP_UNNAMED)) {
		free(p);
		return -ENOMEM;
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

/* Whether exe class @e of @db (PFSEL_NONE: none) has script pairs. */
static bool exe_has_pairs(const struct pfsel_policydb *db, u32 e)
{
	return e != PFSEL_NONE && le32_to_cpu(db->exes[e].pair_count);
}

/*
 * Whether the exe class of @path in @db may have script pairs: the "other"
 * class has some, or an entry whose class with pairs @path could get
 * (FORMAT.md, "Classifying a path") is @path itself (EXACT) or one of its
 * folders (CHILD, TREE: a folder of @path at any depth, which is more
 * than the classification asks).  When not, every script gives @path the
 * application it has without one: pfsel_policydb_classify_app() finds no
 * pair.
 */
static bool exe_may_have_pairs(const struct pfsel_policydb *db,
			       const char *path)
{
	const size_t len = strlen(path);
	u32 i;

	if (exe_has_pairs(db, db->exe_other))
		return true;
	for (i = 0; i < db->n_exe_paths; i++) {
		const struct pfsel_policy_path *x = &db->exe_paths[i];
		const struct pfsel_string *str =
			&db->strings[le32_to_cpu(x->str)];
		const u32 flags = le32_to_cpu(x->flags);
		const bool exact = flags & PFSEL_PATH_EXACT &&
				   exe_has_pairs(db, le32_to_cpu(x->exact));
		const bool below = (flags & PFSEL_PATH_CHILD &&
				    exe_has_pairs(db, le32_to_cpu(x->child))) ||
				   (flags & PFSEL_PATH_TREE &&
				    exe_has_pairs(db, le32_to_cpu(x->tree)));

		if (!exact && !below)
			continue;
		if (len < str->len || memcmp(path, str->s, str->len))
			continue;
		if ((exact && len == str->len) ||
		    (below && len > str->len + 1 && path[str->len] == '/'))
			return true;
	}
	return false;
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
		const char *exe = c->exes.v[i].path;

		/*
		 * Neither class has a pair: every script gives the pair
		 * without one, and the first script, none (scripts.v[0]),
		 * describes it.
		 */
		if (!exe_may_have_pairs(c->old, exe) &&
		    !exe_may_have_pairs(c->new, exe) && !c->exhaustive) {
			c->pairs[n++] = (struct app_pair){
				.old_app = pfsel_policydb_classify_app(
					c->old, exe, NULL),
				.new_app = pfsel_policydb_classify_app(
					c->new, exe, NULL),
				.exe = (u32)i,
			};
			continue;
		}
		for (j = 0; j < ns; j++) {
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
 * group), as the kernel's decision finds them: into c->cells[@side], and
 * which of them is the base group's into c->base_at[@side].
 */
static u32 app_cells(struct cmp *c, int side, const struct pfsel_policydb *db,
		     u32 app, u32 key)
{
	const __le32 *group = db->grouplist + le32_to_cpu(db->apps[app].first);
	u32 n = le32_to_cpu(db->apps[app].count), i, found = 0;

	c->base_at[side] = PFSEL_NONE;
	for (i = 0; i < n; i++) {
		const u32 g = le32_to_cpu(group[i]);
		const struct pfsel_policy_cell *cell =
			pfsel_policydb_group_cell(db, g, key);

		if (!cell)
			continue;
		if (g == c->base_group[side])
			c->base_at[side] = found;
		c->cells[side][found++] = cell;
	}
	return found;
}

/* The group the most applications of @db list, or PFSEL_NONE. */
static int base_group(const struct pfsel_policydb *db, u32 *group)
{
	u32 *count = calloc((size_t)db->n_groups + 1, sizeof(*count));
	u32 i, best = PFSEL_NONE;

	if (!count)
		return -ENOMEM;
	for (i = 0; i < db->n_grouplist; i++)
		count[le32_to_cpu(db->grouplist[i])]++;
	for (i = 0; i < db->n_groups; i++)
		if (count[i] && (best == PFSEL_NONE || count[i] > count[best]))
			best = i;
	free(count);
	*group = best;
	return 0;
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

/* ---- Addresses: both policies' in one order ---------------------------- */

/* Past the last address, or port: where a sweep ends. */
#define RANK_END U32_MAX

/*
 * c->bounds: the first addresses of both policies' classes, merged, each
 * once; c->rank[side][class]: the place of a class's first address among
 * them.  A slab's start as a rank orders with the other policy's slabs as
 * their addresses do, so the sweep compares numbers and classifies
 * nothing.  Both tables start at "::" (FORMAT.md), so rank 0 is "::".
 */
static int ranks_build(struct cmp *c)
{
	const struct pfsel_policy_addr *a = c->old->addrs, *b = c->new->addrs;
	const size_t na = c->old->n_addrs, nb = c->new->n_addrs;
	u32 i = 0, j = 0, n = 0;

	c->bounds = malloc((na + nb) * 16);
	c->rank[0] = malloc((na + 1) * sizeof(u32));
	c->rank[1] = malloc((nb + 1) * sizeof(u32));
	if (!c->bounds || !c->rank[0] || !c->rank[1])
		return -ENOMEM;
	while (i < na || j < nb) {
		const int order = i == na ? 1 :
				  j == nb ? -1 :
					    memcmp(a[i].start, b[j].start, 16);

		memcpy(c->bounds[n], order <= 0 ? a[i].start : b[j].start, 16);
		if (order <= 0)
			c->rank[0][i++] = n;
		if (order >= 0)
			c->rank[1][j++] = n;
		n++;
	}
	c->n_bounds = n;
	return 0;
}

static void cursor_init(struct cmp *c, struct slab_cursor *k, int side,
			const struct pfsel_policy_cell *cell)
{
	const struct pfsel_policydb *db = side ? c->new : c->old;

	k->slab = db->slabs + le32_to_cpu(cell->slab_first);
	k->n = le32_to_cpu(cell->slab_count);
	k->rank = c->rank[side];
	k->i = 0;
}

/* The row of the cursor's slab; PFSEL_NONE for a cell without slabs. */
static u32 cursor_row(const struct slab_cursor *k)
{
	return k->n ? le32_to_cpu(k->slab[k->i].row) : PFSEL_NONE;
}

/* Where the next slab starts, as a rank; RANK_END after the last. */
static u32 cursor_next(const struct slab_cursor *k)
{
	return k->i + 1 < k->n ? k->rank[le32_to_cpu(k->slab[k->i + 1].start)] :
				 RANK_END;
}

/*
 * Move on to the slab holding the address of rank @at: the last slab
 * starting at or below it (a cell's first slab starts at class 0, "::"),
 * as pfsel_policydb_slab_row() finds it for the address's class.
 */
static void cursor_seek(struct slab_cursor *k, u32 at)
{
	u32 lo = k->i, hi = k->n;

	if (cursor_next(k) > at)
		return;
	while (hi - lo > 1) {
		const u32 mid = lo + (hi - lo) / 2;

		if (k->rank[le32_to_cpu(k->slab[mid].start)] <= at)
			lo = mid;
		else
			hi = mid;
	}
	k->i = lo;
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
 * The ports where a decision of @k at address @addr can change: where a
 * run of a row that the cells give this address begins, and 0.
 */
static int port_breaks(struct cmp *c, const struct kind *k, const u8 *addr)
{
	const struct pfsel_policydb *dbs[2] = { c->old, c->new };
	size_t n = 0, i;
	int side;

	for (side = 0; side < 2; side++) {
		const struct pfsel_policydb *db = dbs[side];
		u32 addr_class = pfsel_policydb_classify_addr(db, addr);

		for (i = 0; i < k->n[side]; i++) {
			const struct pfsel_policy_cell *cell =
				k->cells[side][i];
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

/* ---- Host names: the classes -------------------------------------------- */

/*
 * Past these the comparison stops and calls the new policy looser, so that
 * the person confirms it, rather than run for minutes: the distinct name
 * behaviours in one request kind of one application pair, the (old rule,
 * new rule) pairs kept for it, and the tuples visited in all.
 */
#define CMP_NAME_SIGS_MAX (1u << 16)
#define CMP_NAME_TUPLES_MAX (1u << 22)
#define CMP_NAME_STEPS_MAX (1ull << 31)
/* Memory the checked-interval memo may hold, in u32, before it restarts. */
#define CMP_MEMO_MAX (1u << 24)

/* Stop: too much to compare exactly, so the person must confirm. */
static int give_up(struct cmp *c, const char *why)
{
	/* The base check only cannot tell: the sweep then skips less. */
	if (c->probing)
		return 1;
	if (c->report && c->max)
		fprintf(c->report,
			"too many host names to compare (%s): confirm it\n",
			why);
	c->found = c->max + 1;
	return 1;
}

/* The characters of a fresh label F: what a name may hold, but '-'. */
static const char label_chars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
#define LABEL_BASE (sizeof(label_chars) - 1)
#define LABEL_TRIES                             \
	(LABEL_BASE + LABEL_BASE * LABEL_BASE + \
	 LABEL_BASE * LABEL_BASE * LABEL_BASE)

/* The @t-th label of 1 to 3 characters, shortest first, into @out. */
static void label_of(size_t t, char out[4])
{
	size_t len = 1, span = LABEL_BASE, i;

	while (t >= span) {
		t -= span;
		span *= LABEL_BASE;
		len++;
	}
	for (i = len; i-- > 0; t /= LABEL_BASE)
		out[i] = label_chars[t % LABEL_BASE];
	out[len] = '\0';
}

static bool is_pattern(const struct cmp *c, const char *name)
{
	return bsearch(&name, c->patterns, c->n_patterns, sizeof(char *),
		       str_cmp) != NULL;
}

static int rep_cmp(const void *a, const void *b)
{
	const struct name_rep *x = a, *y = b;

	if (x->old_class != y->old_class)
		return x->old_class < y->old_class ? -1 : 1;
	if (x->new_class != y->new_class)
		return x->new_class < y->new_class ? -1 : 1;
	/* The first representative describes the pair: an entry, if any. */
	if (!x->below != !y->below)
		return x->below ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * c->names: the names P and F.p (see the top), one for each pair of name
 * classes they meet but (0, 0).  F is the shortest label in label_chars
 * such that F.p is not an entry; when F.p is longer than a name may be,
 * so is every name below p that is not an entry, and there is none to
 * stand for.  0, 1 (gave up), or a negative errno.
 */
static int names_build(struct cmp *c)
{
	const struct pfsel_policydb *old = c->old, *new = c->new;
	size_t n = 0, i, j, t;
	char label[4];
	int err;

	c->patterns =
		calloc((size_t)old->n_name_patterns + new->n_name_patterns + 1,
		       sizeof(*c->patterns));
	if (!c->patterns)
		return -ENOMEM;
	err = collect(old, old->name_patterns, old->n_name_patterns,
		      c->patterns, &n);
	if (!err)
		err = collect(new, new->name_patterns, new->n_name_patterns,
			      c->patterns, &n);
	c->n_patterns = n;
	if (err)
		return err;
	qsort(c->patterns, n, sizeof(*c->patterns), str_cmp);
	for (i = 0, j = 0; i < n; i++) {
		if (j && !strcmp(c->patterns[i], c->patterns[j - 1]))
			free(c->patterns[i]);
		else
			c->patterns[j++] = c->patterns[i];
	}
	c->n_patterns = n = j;
	if (!n)
		return 0;

	c->names = calloc(2 * n, sizeof(*c->names));
	if (!c->names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const char *p = c->patterns[i];
		char *name = strdup(p);

		if (!name)
			return -ENOMEM;
		c->names[c->n_names++] = (struct name_rep){ .name = name };
		for (t = 0; t < LABEL_TRIES; t++) {
			label_of(t, label);
			if (asprintf(&name, "%s.%s", label, p) < 0)
				return -ENOMEM;
			if (!is_pattern(c, name))
				break;
			free(name);
		}
		if (t == LABEL_TRIES)
			return give_up(c, "no fresh label below a name");
		if (strlen(name) > PFSEL_HOST_NAME_MAX) {
			free(name);
			continue;
		}
		c->names[c->n_names++] =
			(struct name_rep){ .name = name, .below = p };
	}
	for (i = 0; i < c->n_names; i++) {
		struct name_rep *r = &c->names[i];

		r->old_class = pfsel_policydb_name_class(old, r->name,
							 strlen(r->name));
		r->new_class = pfsel_policydb_name_class(new, r->name,
							 strlen(r->name));
	}
	qsort(c->names, c->n_names, sizeof(*c->names), rep_cmp);
	for (i = 0, j = 0; i < c->n_names; i++) {
		struct name_rep *r = &c->names[i];

		/* Class 0 in both: no rule matches it, as with no name. */
		if ((!r->old_class && !r->new_class) ||
		    (j && r->old_class == c->names[j - 1].old_class &&
		     r->new_class == c->names[j - 1].new_class))
			free(r->name);
		else
			c->names[j++] = *r;
	}
	c->n_names = (u32)j;
	return 0;
}

/* ---- Host names: what they decide, port by port ------------------------ */

/* The rows (old cells, then new) of the names of one behaviour. */
struct sigs {
	u32 *rows;
	u32 stride;
};

static int sig_cmp(const void *a, const void *b, void *arg)
{
	const struct sigs *s = arg;
	const u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	const u32 *x = s->rows + (size_t)ia * s->stride;
	const u32 *y = s->rows + (size_t)ib * s->stride;
	u32 i;

	for (i = 0; i < s->stride; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	/* The first representative describes the behaviour. */
	return ia < ib ? -1 : ia > ib;
}

struct name_event {
	u16 port;
	u32 sig;
};

static int event_cmp(const void *a, const void *b)
{
	const struct name_event *x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

static int tuple_cmp(const void *a, const void *b)
{
	const struct name_tuple *x = a, *y = b;

	/* Old rule decreasing: the pair search walks from the weakest. */
	if (x->old_rule != y->old_rule)
		return x->old_rule > y->old_rule ? -1 : 1;
	if (x->new_rule != y->new_rule)
		return x->new_rule < y->new_rule ? -1 : 1;
	return x->rep < y->rep ? -1 : x->rep > y->rep;
}

static void names_free(struct names *nm)
{
	free(nm->nb);
	free(nm->t_off);
	free(nm->t_min_old);
	free(nm->t_min_new);
	free(nm->t_next);
	free(nm->tuples);
	free(nm->rmq_old);
	free(nm->rmq_new);
	*nm = (struct names){ 0 };
}

/* Forget the intervals checked: another kind's names, another pair. */
static void memo_reset(struct cmp *c)
{
	u32 i;

	for (i = 0; i < c->memo_cap; i++)
		free(c->memo[i].next);
	free(c->memo);
	c->memo = NULL;
	c->memo_cap = c->memo_used = 0;
	c->done = false;
}

/*
 * Check the names of @nm from now on: no interval checked yet, and no set
 * of rows whose names were (interval()'s names_stamp).
 */
static void names_use(struct cmp *c, const struct names *nm)
{
	c->nm = nm;
	memo_reset(c);
	c->names_stamp++;
}

/* floor(log2(@n)), @n > 0. */
static u32 log2_floor(u32 n)
{
	return 31 - (u32)__builtin_clz(n);
}

/* @nm's range minima, from its t_min_old and t_min_new. */
static int range_min_build(struct names *nm)
{
	const u32 n = nm->n_nb, levels = log2_floor(n) + 1;
	u32 j, k;

	nm->rmq_old = malloc((size_t)levels * n * sizeof(u32));
	nm->rmq_new = malloc((size_t)levels * n * sizeof(u32));
	if (!nm->rmq_old || !nm->rmq_new)
		return -ENOMEM;
	memcpy(nm->rmq_old, nm->t_min_old, n * sizeof(u32));
	memcpy(nm->rmq_new, nm->t_min_new, n * sizeof(u32));
	for (j = 1; j < levels; j++) {
		const u32 *po = nm->rmq_old + (size_t)(j - 1) * n;
		const u32 *pn = nm->rmq_new + (size_t)(j - 1) * n;
		u32 *o = nm->rmq_old + (size_t)j * n;
		u32 *w = nm->rmq_new + (size_t)j * n;

		for (k = 0; k + (1u << j) <= n; k++) {
			o[k] = min(po[k], po[k + (1u << (j - 1))]);
			w[k] = min(pn[k], pn[k + (1u << (j - 1))]);
		}
	}
	return 0;
}

/* The smallest of @t (@nm's rmq_old or rmq_new) over intervals @a..@b. */
static u32 range_min(const struct names *nm, const u32 *t, u32 a, u32 b)
{
	const u32 j = log2_floor(b - a + 1);
	const u32 *level = t + (size_t)j * nm->n_nb;

	return min(level[a], level[b + 1 - (1u << j)]);
}

/*
 * Prepare the names for the request kind whose cells are @cells, into
 * @nm (emptied first):
 * group the names by the rows their classes get in every cell (names with
 * the same rows decide alike at every port), then sweep the ports from 0,
 * recomputing a group's rules where a run of one of its rows begins, and
 * keep at each interval the distinct (old rule, new rule) pairs.
 * 0, 1 (gave up), or a negative errno.
 */
static int names_prepare(struct cmp *c, struct names *nm,
			 const struct pfsel_policy_cell *const *const cells[2],
			 const u32 counts[2])
{
	const struct pfsel_policydb *dbs[2] = { c->old, c->new };
	const u32 n_old = counts[0];
	struct sigs s = { .stride = counts[0] + counts[1] };
	struct name_event *ev = NULL;
	u32 *order = NULL, *rep = NULL, *cur = NULL, *active = NULL;
	u32 *pos = NULL;
	size_t n_ev = 0, e, n_tuples = 0, cap_tuples = 0;
	u32 i, k, x, n_sigs = 0, n_active = 0;
	bool any = false;
	int side, ret = -ENOMEM;

	names_free(nm);
	for (side = 0; side < 2 && c->n_names; side++)
		for (i = 0; i < counts[side]; i++)
			if (dbs[side]
				    ->name_cells[cells[side][i] -
						 dbs[side]->cells]
				    .count)
				any = true;
	if (!any)
		return 0;

	s.rows = malloc((size_t)c->n_names * s.stride * sizeof(u32));
	order = malloc((size_t)c->n_names * sizeof(u32));
	if (!s.rows || !order)
		goto out;
	for (x = 0; x < c->n_names; x++) {
		u32 *row = s.rows + (size_t)x * s.stride;
		bool some = false;

		for (side = 0; side < 2; side++) {
			u32 class = side ? c->names[x].new_class :
					   c->names[x].old_class;

			for (i = 0; i < counts[side]; i++) {
				*row = pfsel_policydb_name_slab_row(
					dbs[side], cells[side][i], class);
				some |= *row++ != PFSEL_NONE;
			}
		}
		/* No row in any cell: no rule, as with no name. */
		if (some)
			order[n_sigs++] = x;
	}
	qsort_r(order, n_sigs, sizeof(*order), sig_cmp, &s);
	for (i = 0, k = 0; i < n_sigs; i++)
		if (!k || memcmp(s.rows + (size_t)order[i] * s.stride,
				 s.rows + (size_t)order[k - 1] * s.stride,
				 s.stride * sizeof(u32)))
			order[k++] = order[i];
	n_sigs = k;
	if (n_sigs > CMP_NAME_SIGS_MAX) {
		ret = give_up(c, "too many kinds of names in one cell");
		goto out;
	}
	/* rep[sig] = its name; its rows stay at s.rows[order[sig]]. */
	rep = order;

	/* Where a run of one of a behaviour's rows begins. */
	for (i = 0; i < n_sigs; i++) {
		const u32 *row = s.rows + (size_t)rep[i] * s.stride;

		for (x = 0; x < s.stride; x++)
			if (row[x] != PFSEL_NONE)
				n_ev += le32_to_cpu(
					dbs[x >= n_old]->rows[row[x]].count);
	}
	ev = malloc((n_ev + 1) * sizeof(*ev));
	nm->nb = malloc((n_ev + 1) * sizeof(*nm->nb));
	if (!ev || !nm->nb)
		goto out;
	for (i = 0, e = 0; i < n_sigs; i++) {
		const u32 *row = s.rows + (size_t)rep[i] * s.stride;

		for (x = 0; x < s.stride; x++) {
			const struct pfsel_policydb *db = dbs[x >= n_old];
			const struct pfsel_policy_run *run;
			u32 r, len;

			if (row[x] == PFSEL_NONE)
				continue;
			run = db->runs + le32_to_cpu(db->rows[row[x]].first);
			len = le32_to_cpu(db->rows[row[x]].count);
			for (r = 0; r < len; r++)
				ev[e++] = (struct name_event){
					.port = le16_to_cpu(
						db->ports[le32_to_cpu(
								  run[r].start)]
							.start),
					.sig = i,
				};
		}
	}
	qsort(ev, n_ev, sizeof(*ev), event_cmp);
	nm->nb[0] = 0;
	for (e = 0, k = 1; e < n_ev; e++)
		if (ev[e].port && ev[e].port != nm->nb[k - 1])
			nm->nb[k++] = ev[e].port;
	nm->n_nb = k;

	nm->t_off = malloc(((size_t)nm->n_nb + 1) * sizeof(u32));
	nm->t_min_old = malloc((size_t)nm->n_nb * sizeof(u32));
	nm->t_min_new = malloc((size_t)nm->n_nb * sizeof(u32));
	nm->t_next = malloc(((size_t)nm->n_nb + 1) * sizeof(u32));
	cur = malloc(2 * (size_t)n_sigs * sizeof(u32));
	active = malloc((size_t)n_sigs * sizeof(u32));
	pos = malloc((size_t)n_sigs * sizeof(u32));
	if (!nm->t_off || !nm->t_min_old || !nm->t_min_new || !nm->t_next ||
	    !cur || !active || !pos)
		goto out;
	for (i = 0; i < n_sigs; i++)
		pos[i] = PFSEL_NONE;

	nm->t_off[0] = 0;
	for (k = 0, e = 0; k < nm->n_nb; k++) {
		const u16 port = nm->nb[k];
		const u32 pc[2] = { pfsel_policydb_classify_port(c->old, port),
				    pfsel_policydb_classify_port(c->new,
								 port) };
		u32 first = (u32)n_tuples, sig;

		/* At 0 every behaviour starts; later, those whose runs do. */
		for (sig = 0;
		     k ? e < n_ev && ev[e].port == port : sig < n_sigs;) {
			const u32 *row;
			u32 now_sig = k ? ev[e++].sig : sig++;

			row = s.rows + (size_t)rep[now_sig] * s.stride;
			cur[2 * now_sig] = cur[2 * now_sig + 1] = PFSEL_NONE;
			for (x = 0; x < s.stride; x++) {
				const int sd = x >= n_old;
				u32 *r = &cur[2 * now_sig + sd];

				*r = min(*r, pfsel_policydb_row_rule(
						     dbs[sd], row[x], pc[sd]));
			}
			if ((cur[2 * now_sig] != PFSEL_NONE ||
			     cur[2 * now_sig + 1] != PFSEL_NONE) ==
			    (pos[now_sig] != PFSEL_NONE))
				continue;
			if (pos[now_sig] == PFSEL_NONE) {
				pos[now_sig] = n_active;
				active[n_active++] = now_sig;
			} else {
				u32 last = active[--n_active];

				active[pos[now_sig]] = last;
				pos[last] = pos[now_sig];
				pos[now_sig] = PFSEL_NONE;
			}
		}
		if (k == 0)
			while (e < n_ev && ev[e].port == 0)
				e++;

		c->steps += n_active;
		if (c->steps > CMP_NAME_STEPS_MAX) {
			ret = give_up(c, "too much work");
			goto out;
		}
		if (grow((void **)&nm->tuples, &cap_tuples, n_tuples + n_active,
			 sizeof(*nm->tuples)))
			goto out;
		for (i = 0; i < n_active; i++)
			nm->tuples[n_tuples++] = (struct name_tuple){
				.old_rule = cur[2 * active[i]],
				.new_rule = cur[2 * active[i] + 1],
				.rep = rep[active[i]],
			};
		if (n_tuples > first)
			qsort(nm->tuples + first, n_tuples - first,
			      sizeof(*nm->tuples), tuple_cmp);
		nm->t_min_old[k] = nm->t_min_new[k] = PFSEL_NONE;
		for (i = first, x = first; i < n_tuples; i++) {
			const struct name_tuple *t = &nm->tuples[i];

			if (x > first &&
			    t->old_rule == nm->tuples[x - 1].old_rule &&
			    t->new_rule == nm->tuples[x - 1].new_rule)
				continue;
			nm->t_min_old[k] = min(nm->t_min_old[k], t->old_rule);
			nm->t_min_new[k] = min(nm->t_min_new[k], t->new_rule);
			nm->tuples[x++] = *t;
		}
		n_tuples = x;
		if (n_tuples > CMP_NAME_TUPLES_MAX) {
			ret = give_up(c, "too many rules by host name");
			goto out;
		}
		nm->t_off[k + 1] = (u32)n_tuples;
	}
	/* The next interval with tuples: the unchecked ones, to begin. */
	nm->t_next[nm->n_nb] = nm->n_nb;
	for (k = nm->n_nb; k-- > 0;)
		nm->t_next[k] =
			nm->t_off[k + 1] > nm->t_off[k] ? k : nm->t_next[k + 1];
	if (range_min_build(nm))
		goto out;
	nm->min_old = range_min(nm, nm->rmq_old, 0, nm->n_nb - 1);
	nm->min_new = range_min(nm, nm->rmq_new, 0, nm->n_nb - 1);
	nm->on = true;
	ret = 0;
out:
	if (ret < 0)
		fail(ret, "compare: out of memory");
	free(s.rows);
	free(order);
	free(ev);
	free(cur);
	free(active);
	free(pos);
	return ret;
}

/* ---- Host names: the check ---------------------------------------------- */

/* The decision rule @rule (PFSEL_NONE: the default) gives in @db. */
static void rule_decision(const struct pfsel_policydb *db, u32 rule,
			  struct pfsel_decision *d)
{
	d->rule = rule;
	if (rule == PFSEL_NONE) {
		d->verdict = db->default_verdict;
		d->audit = db->default_audit;
	} else {
		d->verdict = db->rules[rule].verdict;
		d->audit = db->rules[rule].audit;
	}
}

static int rule_strictness(const struct pfsel_policydb *db, u32 rule)
{
	struct pfsel_decision d;

	rule_decision(db, rule, &d);
	return strictness(db, d.verdict);
}

/* Is new strictness @b looser than old strictness @a?  As looser(). */
static bool looser_by(const struct cmp *c, int a, int b)
{
	if (b != a)
		return b < a;
	return a == 1 && c->new->ask_timeout_ms < c->old->ask_timeout_ms;
}

/*
 * Whether some set of at most two names makes interval @k looser, with
 * the address deciding (@ao, @an): then *@x and *@y are their tuples
 * (equal for one name).  A name's effective rules are the smaller of its
 * own and the address's.  One name: each tuple alone.  Two: x decides the
 * old policy (y's old rule is not smaller) and y the new one (its new
 * rule is smaller); walking the tuples from the largest old rule, keep
 * for each strictness the smallest new rule of those seen, so that for
 * each x one look at the four tells whether some y loosens it: linear in
 * the tuples, not in their pairs.
 */
static bool name_check(const struct cmp *c, u32 ao, u32 an, u32 k, u32 *x,
		       u32 *y)
{
	const u32 first = c->nm->t_off[k], end = c->nm->t_off[k + 1];
	u32 best[4], arg[4], i, g, b;

	for (i = first; i < end; i++) {
		const struct name_tuple *t = &c->nm->tuples[i];

		if (looser_by(c, rule_strictness(c->old, min(ao, t->old_rule)),
			      rule_strictness(c->new, min(an, t->new_rule)))) {
			*x = *y = i;
			return true;
		}
	}
	for (b = 0; b < 4; b++)
		best[b] = arg[b] = PFSEL_NONE;
	for (i = first; i < end; i = g) {
		const u32 o = min(ao, c->nm->tuples[i].old_rule);
		u32 j;

		/* The tuples with this same effective old rule, all in. */
		for (g = i; g < end && min(ao, c->nm->tuples[g].old_rule) == o;
		     g++) {
			const u32 n = min(an, c->nm->tuples[g].new_rule);

			b = (u32)rule_strictness(c->new, n);
			if (n < best[b]) {
				best[b] = n;
				arg[b] = g;
			}
		}
		for (j = i; j < g; j++) {
			const u32 n = min(an, c->nm->tuples[j].new_rule);
			const int a = rule_strictness(c->old, o);

			for (b = 0; b < 4; b++) {
				if (best[b] < n && looser_by(c, a, (int)b)) {
					*x = j;
					*y = arg[b];
					return true;
				}
			}
		}
	}
	return false;
}

/* The checked-interval list of (@ao, @an): c->nm->t_next's copy; NULL: none. */
static u32 *memo_get(struct cmp *c, u32 ao, u32 an)
{
	u32 h, i;

	if ((unsigned long long)(c->memo_used + 1) * (c->nm->n_nb + 1) >
		    CMP_MEMO_MAX ||
	    2 * (c->memo_used + 1) > c->memo_cap) {
		/* Full: forget (cheap to redo) and make room. */
		u32 cap = c->memo_cap ? c->memo_cap : 64;
		struct memo_slot *bigger;

		c->done = false;
		for (i = 0; i < c->memo_cap; i++)
			free(c->memo[i].next);
		if ((unsigned long long)(c->memo_used + 1) *
			    (c->nm->n_nb + 1) <=
		    CMP_MEMO_MAX)
			cap *= 2;
		bigger = calloc(cap, sizeof(*bigger));
		free(c->memo);
		c->memo = bigger;
		c->memo_cap = bigger ? cap : 0;
		c->memo_used = 0;
		if (!bigger)
			return NULL;
	}
	h = (ao * 0x9e3779b1u ^ an * 0x85ebca77u) & (c->memo_cap - 1);
	for (i = h; c->memo[i].next; i = (i + 1) & (c->memo_cap - 1))
		if (c->memo[i].old_rule == ao && c->memo[i].new_rule == an)
			return c->memo[i].next;
	c->memo[i].next = malloc(((size_t)c->nm->n_nb + 1) * sizeof(u32));
	if (!c->memo[i].next)
		return NULL;
	memcpy(c->memo[i].next, c->nm->t_next,
	       ((size_t)c->nm->n_nb + 1) * sizeof(u32));
	c->memo[i].old_rule = ao;
	c->memo[i].new_rule = an;
	c->memo_used++;
	return c->memo[i].next;
}

/* The first unchecked interval with tuples at or after @k. */
static u32 memo_find(u32 *next, u32 k)
{
	u32 root = k, up;

	while (next[root] != root)
		root = next[root];
	for (; k != root; k = up) {
		up = next[k];
		next[k] = root;
	}
	return root;
}

/* The interval of c->nm->nb holding @port. */
static u32 nb_index(const struct cmp *c, u32 port)
{
	u32 lo = 0, hi = c->nm->n_nb;

	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (c->nm->nb[mid] <= port)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
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
	case REP_UNNAMED:
		/* As pfwc --query takes it and the prompt shows it. */
		fputs(PFSEL_UNNAMED_PATH, f);
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

/* A name of a report: the entry, or "*.p" for the names F.p stands for. */
static void put_name(FILE *f, const struct name_rep *r)
{
	if (r->below)
		fprintf(f, "*.%s", r->below);
	else
		fputs(r->name, f);
}

/*
 * Report a looser cell: "VERDICT APP OP PROTO ... ;  # now ...", with
 * "with host names N1, N2" when the address has those names (@names,
 * @n_names of them).  Its addresses: from c->bounds[@at] up to
 * c->bounds[@end] (not included; @end RANK_END: to the last).
 */
static void report(struct cmp *c, const struct app_pair *pair, u32 op,
		   u32 proto, u32 family, u32 at, u32 end, u32 plo, u32 phi,
		   const struct name_rep *const *names, u32 n_names,
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
		if (family != PFSEL_FAMILY_PACKET)
			fprintf(f, " family %s", pfsel_family_name(family));
	} else {
		u128 lo = addr_num(c->bounds[at]);
		u128 hi = end != RANK_END ? addr_num(c->bounds[end]) - 1 :
					    ~(u128)0;
		u32 i;

		fputs(" to ", f);
		put_addrs(f, lo, hi);
		if (proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP) {
			if (plo == phi)
				fprintf(f, " port %u", plo);
			else if (plo != 0 || phi != 65535)
				fprintf(f, " port %u-%u", plo, phi);
		}
		for (i = 0; i < n_names; i++) {
			fputs(i		  ? ", " :
			      n_names > 1 ? " with host names " :
					    " with host name ",
			      f);
			put_name(f, names[i]);
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

/*
 * The decision of @db for @app at @addr and @port when the address has
 * the names @names (@n_names of them), as the kernel makes it: the
 * address's rule, each name's, the smallest.  A report's decisions come
 * from here, through the kernel's own lookups.
 */
static int decide_named(const struct pfsel_policydb *db, u32 app, u32 op,
			u32 proto, const u8 addr[16], u16 port,
			const struct name_rep *const *names, u32 n_names,
			struct pfsel_decision *d)
{
	const u32 port_class = pfsel_policydb_classify_port(db, port);
	u32 i;

	if (pfsel_policydb_decide(db, app, op, proto,
				  pfsel_policydb_classify_addr(db, addr),
				  port_class, d))
		return fail(-EINVAL, "compare: a lookup failed");
	for (i = 0; i < n_names; i++) {
		const char *name = names[i]->name;

		if (pfsel_policydb_decide_also_by_name(db, app, op, proto,
						       port_class, name,
						       strlen(name), d))
			return fail(-EINVAL, "compare: a lookup failed");
	}
	return 0;
}

/* Count a looser request; 1 when enough are found to stop. */
static int found(struct cmp *c, const struct app_pair *pair, u32 op, u32 proto,
		 u32 family, u32 at, u32 end, u32 plo, u32 phi,
		 const struct name_rep *const *names, u32 n_names,
		 const struct pfsel_decision *was,
		 const struct pfsel_decision *now)
{
	if (c->found++ < c->max)
		report(c, pair, op, proto, family, at, end, plo, phi, names,
		       n_names, was, now);
	else if (c->report && c->max)
		fputs("...\n", c->report);
	return c->found > c->max ? 1 : 0;
}

/*
 * The request at the addresses from c->bounds[@at] up to c->bounds[@end]
 * and ports [@plo, @phi], without names: its decisions into *@was and
 * *@now.  0 no looser so far, 1 stop (found enough), or a negative errno.
 */
static int cell(struct cmp *c, const struct app_pair *pair, u32 op, u32 proto,
		u32 family, u32 at, u32 end, u32 plo, u32 phi,
		struct pfsel_decision *was, struct pfsel_decision *now)
{
	u8 addr[16];

	if (op == PFSEL_OP_CREATE)
		pfsel_policydb_family_addr(family, addr);
	else
		memcpy(addr, c->bounds[at], 16);
	if (decide_named(c->old, pair->old_app, op, proto, addr, (u16)plo, NULL,
			 0, was) ||
	    decide_named(c->new, pair->new_app, op, proto, addr, (u16)plo, NULL,
			 0, now))
		return -EINVAL;
	if (!looser(c, was, now))
		return 0;
	return found(c, pair, op, proto, family, at, end, plo, phi, NULL, 0,
		     was, now);
}

/*
 * The same request with one or two names, the address deciding @ao in the
 * old policy and @an in the new one: for each interval of c->nm->nb that
 * [@plo, @phi] meets and that has names deciding something, unless already
 * checked with the same address rules (the result would be the same),
 * whether some names make it looser.  Returns as cell(); for the base
 * check (@k->pair NULL), 1 as soon as some names are looser.
 */
static int named_cell(struct cmp *c, const struct kind *k, u32 at, u32 end,
		      u32 plo, u32 phi, u32 ao, u32 an)
{
	u32 *next, i, khi, x, y, n_names;
	int ret;

	/* Every interval checked already: the loop below would find none. */
	if (c->done && ao == c->done_old && an == c->done_new && !c->exhaustive)
		return 0;
	khi = nb_index(c, phi);
	/*
	 * No name's rule comes before the address's in any interval the
	 * ports meet: the loop below would pass over each of them.
	 */
	i = nb_index(c, plo);
	if (!c->exhaustive && ao <= range_min(c->nm, c->nm->rmq_old, i, khi) &&
	    an <= range_min(c->nm, c->nm->rmq_new, i, khi))
		return 0;
	next = memo_get(c, ao, an);
	if (!next)
		return fail(-ENOMEM, "compare: out of memory");
	for (i = memo_find(next, i); i <= khi && i < c->nm->n_nb;
	     i = memo_find(next, i + 1)) {
		const struct name_rep *names[2];
		struct pfsel_decision was, now;
		u32 lo = max(plo, (u32)c->nm->nb[i]);
		u32 hi = i + 1 < c->nm->n_nb ? min(phi, c->nm->nb[i + 1] - 1u) :
					       phi;

		next[i] = i + 1;
		/* No name's rule comes before the address's: no change. */
		if (ao <= c->nm->t_min_old[i] && an <= c->nm->t_min_new[i])
			continue;
		c->steps += c->nm->t_off[i + 1] - c->nm->t_off[i];
		if (c->steps > CMP_NAME_STEPS_MAX)
			return give_up(c, "too much work");
		if (!name_check(c, ao, an, i, &x, &y))
			continue;
		if (!k->pair)
			return 1;
		names[0] = &c->names[c->nm->tuples[x].rep];
		names[1] = &c->names[c->nm->tuples[y].rep];
		n_names = x == y ? 1 : 2;
		if (decide_named(c->old, k->pair->old_app, k->op, k->proto,
				 c->bounds[at], (u16)lo, names, n_names,
				 &was) ||
		    decide_named(c->new, k->pair->new_app, k->op, k->proto,
				 c->bounds[at], (u16)lo, names, n_names, &now))
			return -EINVAL;
		if (!looser(c, &was, &now))
			return fail(-EINVAL,
				    "compare: host name decisions "
				    "disagree with the kernel's lookup");
		ret = found(c, k->pair, k->op, k->proto, 0, at, end, lo, hi,
			    names, n_names, &was, &now);
		if (ret)
			return ret;
	}
	if (memo_find(next, 0) >= c->nm->n_nb) {
		c->done = true;
		c->done_old = ao;
		c->done_new = an;
	}
	return 0;
}

/*
 * The create requests of @proto: classify.c asks them at their family's
 * address (pfsel_policydb_family_addr()), every inet family for an inet
 * protocol; a packet socket has none and is asked at "::", as
 * PFSEL_FAMILY_PACKET's address is.  Returns as cell().
 */
static int create_cells(struct cmp *c, const struct app_pair *pair, u32 proto)
{
	struct pfsel_decision was, now;
	u32 family;
	int ret;

	if (proto == PFSEL_PROTO_PACKET)
		return cell(c, pair, PFSEL_OP_CREATE, proto,
			    PFSEL_FAMILY_PACKET, 0, 0, 0, 0, &was, &now);
	for (family = 0; family < PFSEL_FAMILY_COUNT; family++) {
		ret = cell(c, pair, PFSEL_OP_CREATE, proto, family, 0, 0, 0, 0,
			   &was, &now);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- Sets of rows ------------------------------------------------------ */

/*
 * Past this many sets the table starts again empty (what it knew is
 * cheap to learn again): the memory the shortcut may hold, bounded.
 */
#define CMP_ROWSETS_MAX (1u << 20)

static u32 rows_hash(const u32 *key, u32 len)
{
	u32 h = 0x811c9dc5u, i;

	for (i = 0; i < len; i++) {
		h = (h ^ key[i]) * 0x9e3779b1u;
		h ^= h >> 15;
	}
	return h;
}

static void rowsets_free(struct cmp *c)
{
	free(c->rowsets);
	free(c->keys);
	c->rowsets = NULL;
	c->keys = NULL;
	c->rowsets_cap = c->n_rowsets = 0;
	c->keys_cap = c->keys_used = 0;
}

/* Room for one set more: the table twice as large, or empty again. */
static int rowsets_make_room(struct cmp *c)
{
	u32 cap = c->rowsets_cap ? 2 * c->rowsets_cap : 1024, i, j;
	struct rowset *bigger;

	if (2 * (c->n_rowsets + 1) <= c->rowsets_cap)
		return 0;
	if (c->n_rowsets >= CMP_ROWSETS_MAX)
		rowsets_free(c);
	if (!c->rowsets_cap)
		cap = 1024;
	bigger = malloc(cap * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	for (i = 0; i < cap; i++)
		bigger[i].key = ROWSET_FREE;
	for (i = 0; i < c->rowsets_cap; i++) {
		if (c->rowsets[i].key == ROWSET_FREE)
			continue;
		for (j = c->rowsets[i].hash & (cap - 1);
		     bigger[j].key != ROWSET_FREE; j = (j + 1) & (cap - 1))
			;
		bigger[j] = c->rowsets[i];
	}
	free(c->rowsets);
	c->rowsets = bigger;
	c->rowsets_cap = cap;
	return 0;
}

/*
 * The set of rows @key (@len words: whether ports count, how many rows of
 * the old policy, how many of the new, then the rows of each, increasing):
 * its slot in c->rowsets, added as ROWSET_NEW when it is not there.  0
 * and *@slot, or -ENOMEM.
 */
static int rowset_get(struct cmp *c, const u32 *key, u32 len, u32 *slot)
{
	const u32 h = rows_hash(key, len);
	u32 i;

	if (rowsets_make_room(c) || grow((void **)&c->keys, &c->keys_cap,
					 c->keys_used + len, sizeof(u32)))
		return -ENOMEM;
	for (i = h & (c->rowsets_cap - 1); c->rowsets[i].key != ROWSET_FREE;
	     i = (i + 1) & (c->rowsets_cap - 1)) {
		const u32 *other = c->keys + c->rowsets[i].key;

		if (c->rowsets[i].hash == h && other[1] == key[1] &&
		    other[2] == key[2] &&
		    !memcmp(other, key, len * sizeof(u32))) {
			*slot = i;
			return 0;
		}
	}
	memcpy(c->keys + c->keys_used, key, len * sizeof(u32));
	c->rowsets[i] = (struct rowset){
		.key = (u32)c->keys_used,
		.hash = h,
		.state = ROWSET_NEW,
	};
	c->keys_used += len;
	c->n_rowsets++;
	*slot = i;
	return 0;
}

/* Sort @n rows, each kept once: how many are left. */
static u32 rows_sort(u32 *v, u32 n)
{
	u32 i, j;

	for (i = 1; i < n; i++) {
		const u32 x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (i = 0, j = 0; i < n; i++)
		if (!j || v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

/* The first port of a run of @db. */
static u32 run_port(const struct pfsel_policydb *db,
		    const struct pfsel_policy_run *run)
{
	return le16_to_cpu(db->ports[le32_to_cpu(run->start)].start);
}

/*
 * The decisions of the set of rows @key (as rowset_get()'s) at every port
 * where one of its rows changes, into c->pieces: at a port, each policy's
 * rule is the smallest its rows give the port's class, as
 * pfsel_policydb_decide() takes the smallest over the application's cells
 * of their wild rows and of the rows of their slabs at the address (no
 * row: PFSEL_NONE, the default).  A port of a piece is where a run of one
 * of the rows starts (port 0 included), so the rows give every port up to
 * the next piece's the same rules.  1 when some piece is looser, 0 when
 * none is, or -ENOMEM.
 */
static int rows_sweep(struct cmp *c, const u32 *key)
{
	const bool ports = key[0];
	const u32 n_old = key[1], n = key[1] + key[2], *rows = key + 3;
	u32 port = 0, j;
	int looser = 0;

	c->n_pieces = 0;
	for (j = 0; j < n; j++)
		c->run_at[j] = 0;
	for (;;) {
		u32 rule[2] = { PFSEL_NONE, PFSEL_NONE }, next = 65536;

		for (j = 0; j < n; j++) {
			const int side = j >= n_old;
			const struct pfsel_policydb *db = side ? c->new :
								 c->old;
			const struct pfsel_policy_range *row =
				&db->rows[rows[j]];
			const struct pfsel_policy_run *run =
				db->runs + le32_to_cpu(row->first);
			const u32 at = c->run_at[j];

			rule[side] = min(rule[side], le32_to_cpu(run[at].rule));
			/* Protocols without ports are asked at port 0 only. */
			if (ports && at + 1 < le32_to_cpu(row->count))
				next = min(next, run_port(db, &run[at + 1]));
		}
		if (grow((void **)&c->pieces, &c->pieces_cap, c->n_pieces + 1,
			 sizeof(*c->pieces)))
			return -ENOMEM;
		c->pieces[c->n_pieces++] = (struct port_piece){
			.port = port,
			.old_rule = rule[0],
			.new_rule = rule[1],
		};
		if (looser_by(c, rule_strictness(c->old, rule[0]),
			      rule_strictness(c->new, rule[1])))
			looser = 1;
		if (next > 65535)
			return looser;
		port = next;
		for (j = 0; j < n; j++) {
			const struct pfsel_policydb *db = j < n_old ? c->old :
								      c->new;
			const struct pfsel_policy_range *row =
				&db->rows[rows[j]];
			const struct pfsel_policy_run *run =
				db->runs + le32_to_cpu(row->first);
			u32 *at = &c->run_at[j];

			while (*at + 1 < le32_to_cpu(row->count) &&
			       run_port(db, &run[*at + 1]) <= port)
				(*at)++;
		}
	}
}

/* ---- The sweep of one request kind -------------------------------------- */

/*
 * The address interval from rank @at up to @end decided cell by cell, port
 * by port, with the kernel's own lookups: for rows that are looser
 * somewhere, so that each looser cell is found, counted and reported as
 * the enumeration always has.  Returns as cell().
 */
static int interval_by_cell(struct cmp *c, const struct kind *k, u32 at,
			    u32 end)
{
	const unsigned int before = c->found;
	struct pfsel_decision was, now;
	u32 pi;
	int ret;

	if (!k->ports) {
		c->ports[0] = 0;
		c->n_ports = 1;
	} else if (port_breaks(c, k, c->bounds[at])) {
		return -ENOMEM;
	}
	for (pi = 0; pi < c->n_ports; pi++) {
		const u32 plo = c->ports[pi];
		const u32 phi = !k->ports	    ? 0 :
				pi + 1 < c->n_ports ? c->ports[pi + 1] - 1u :
						      65535;

		ret = cell(c, k->pair, k->op, k->proto, 0, at, end, plo, phi,
			   &was, &now);
		if (!ret && c->nm->on)
			ret = named_cell(c, k, at, end, plo, phi, was.rule,
					 now.rule);
		if (ret)
			return ret;
	}
	if (c->found == before && !c->exhaustive)
		return fail(-EINVAL, "compare: the rows' decisions disagree "
				     "with the kernel's lookup");
	return 0;
}

/* Keep the decisions of the base check's interval from rank @at. */
static int base_keep(struct cmp *c, u32 at)
{
	struct base_kind *b = c->probing;

	if (grow((void **)&b->at, &b->at_cap, b->n + 2, sizeof(u32)) ||
	    grow((void **)&b->first, &b->first_cap, b->n + 2, sizeof(u32)) ||
	    grow((void **)&b->pieces, &b->pieces_cap,
		 (b->n ? b->first[b->n] : 0) + c->n_pieces, sizeof(*b->pieces)))
		return fail(-ENOMEM, "compare: out of memory");
	if (!b->n)
		b->first[0] = 0;
	b->at[b->n] = at;
	memcpy(b->pieces + b->first[b->n], c->pieces,
	       c->n_pieces * sizeof(*c->pieces));
	b->first[b->n + 1] = b->first[b->n] + c->n_pieces;
	b->n++;
	b->at[b->n] = RANK_END;
	return 0;
}

/* The last port of piece @p of @n: to the next piece's, or the last. */
static u32 piece_end(const struct kind *k, const struct port_piece *pieces,
		     u32 p, u32 n)
{
	return p + 1 < n ? pieces[p + 1].port - 1 : k->ports ? 65535 : 0;
}

/*
 * The address interval from rank @at up to @end of @k, its cells' slabs at
 * the cursors: decided by its set of rows once for all the intervals, of
 * any pair and kind, that have the same set (rows_sweep()), and its host
 * names once per set of rows for the kind's names.  Returns as cell(); for
 * the base check, 1 when the rows are looser (host names found looser
 * are noted in c->probing).
 */
static int interval(struct cmp *c, const struct kind *k, u32 at, u32 end)
{
	u32 *key = c->key, len = 3, slot, side, i, p;
	struct rowset *set;
	int ret;

	if (c->exhaustive)
		return interval_by_cell(c, k, at, end);
	key[0] = k->ports;
	for (side = 0; side < 2; side++) {
		const u32 first = len;

		for (i = 0; i < k->n[side]; i++) {
			const u32 wild =
				le32_to_cpu(k->cells[side][i]->wild_row);
			const u32 row = cursor_row(&c->cursors[side][i]);

			if (wild != PFSEL_NONE)
				key[len++] = wild;
			if (row != PFSEL_NONE)
				key[len++] = row;
		}
		key[1 + side] = rows_sort(key + first, len - first);
		len = first + key[1 + side];
	}
	ret = rowset_get(c, key, len, &slot);
	if (ret)
		return ret;
	set = &c->rowsets[slot];
	if (set->state == ROWSET_NO_LOOSER && !c->probing &&
	    (!c->nm->on || set->names_stamp == c->names_stamp))
		return 0;
	/* The decisions again: the base check keeps them, names need them. */
	if (set->state != ROWSET_LOOSER) {
		ret = rows_sweep(c, key);
		if (ret < 0)
			return fail(ret, "compare: out of memory");
		set->state = ret ? ROWSET_LOOSER : ROWSET_NO_LOOSER;
	}
	if (set->state == ROWSET_LOOSER)
		return k->pair ? interval_by_cell(c, k, at, end) : 1;
	if (c->probing) {
		ret = base_keep(c, at);
		if (ret || c->probing->names_looser)
			return ret;
	}
	for (p = 0; c->nm->on && p < c->n_pieces; p++) {
		const struct port_piece *piece = &c->pieces[p];

		ret = named_cell(c, k, at, end, piece->port,
				 piece_end(k, c->pieces, p, c->n_pieces),
				 piece->old_rule, piece->new_rule);
		if (ret == 1 && c->probing) {
			c->probing->names_looser = true;
			return 0;
		}
		if (ret)
			return ret;
	}
	c->rowsets[slot].names_stamp = c->names_stamp;
	return 0;
}

static int rule_ports_cmp(const void *a, const void *b)
{
	const struct rule_ports *x = a, *y = b;

	if (x->old_rule != y->old_rule)
		return x->old_rule < y->old_rule ? -1 : 1;
	if (x->new_rule != y->new_rule)
		return x->new_rule < y->new_rule ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The base check's decisions by the address's rules: for each (old rule,
 * new rule), the ports where some interval has them, merged.  0 or
 * -ENOMEM.
 */
static int base_spans(struct base_kind *b, const struct kind *k)
{
	const u32 total = b->n ? b->first[b->n] : 0;
	u32 i, p, n = 0;

	b->spans = malloc(((size_t)total + 1) * sizeof(*b->spans));
	if (!b->spans)
		return -ENOMEM;
	for (i = 0; i < b->n; i++) {
		const struct port_piece *pieces = b->pieces + b->first[i];
		const u32 count = b->first[i + 1] - b->first[i];

		for (p = 0; p < count; p++)
			b->spans[n++] = (struct rule_ports){
				.old_rule = pieces[p].old_rule,
				.new_rule = pieces[p].new_rule,
				.lo = pieces[p].port,
				.hi = piece_end(k, pieces, p, count),
			};
	}
	qsort(b->spans, n, sizeof(*b->spans), rule_ports_cmp);
	for (i = 0, p = 0; i < n; i++) {
		struct rule_ports *last = p ? &b->spans[p - 1] : NULL;

		if (last && last->old_rule == b->spans[i].old_rule &&
		    last->new_rule == b->spans[i].new_rule &&
		    b->spans[i].lo <= last->hi + 1)
			last->hi = max(last->hi, b->spans[i].hi);
		else
			b->spans[p++] = b->spans[i];
	}
	b->n_spans = p;
	return 0;
}

/*
 * Whether some names are looser in the ports [@plo, @phi] where the
 * address decides (@ao, @an): named_cell()'s check, with nothing noted or
 * reported.  1 when some are (or it was too much work: then c->found says
 * so), 0 when none are.
 */
static int names_looser_at(struct cmp *c, u32 ao, u32 an, u32 plo, u32 phi)
{
	const struct names *nm = c->nm;
	const u32 khi = nb_index(c, phi);
	u32 i = nb_index(c, plo), x, y;

	if (ao <= range_min(nm, nm->rmq_old, i, khi) &&
	    an <= range_min(nm, nm->rmq_new, i, khi))
		return 0;
	for (; i <= khi; i++) {
		if (ao <= nm->t_min_old[i] && an <= nm->t_min_new[i])
			continue;
		c->steps += nm->t_off[i + 1] - nm->t_off[i];
		if (c->steps > CMP_NAME_STEPS_MAX)
			return give_up(c, "too much work");
		if (name_check(c, ao, an, i, &x, &y))
			return 1;
	}
	return 0;
}

/*
 * The host names of @k from rank @from up to @to, where no cell but the
 * base ones gives a row: at the base check's decisions there.  A piece
 * whose address rules come before every name's rule is passed over, as
 * named_cell() would pass over each of its intervals.  Over the whole
 * address space, the names are first checked once for each of the base
 * check's (old rule, new rule) over the union of its ports (named_cell()
 * checks each interval of names its ports meet: the union meets the same
 * ones); only when some are looser are the intervals walked, to report
 * them as the enumeration always has.  Returns as cell().
 */
static int quiet_names(struct cmp *c, const struct kind *k, u32 from, u32 to)
{
	const struct base_kind *b = k->base_kind;
	u32 lo = 0, hi = b->n, i, p;
	int ret;

	if (from == 0 && to == RANK_END) {
		for (i = 0; i < b->n_spans; i++) {
			const struct rule_ports *s = &b->spans[i];

			if (s->old_rule <= c->nm->min_old &&
			    s->new_rule <= c->nm->min_new)
				continue;
			ret = names_looser_at(c, s->old_rule, s->new_rule,
					      s->lo, s->hi);
			if (ret)
				break;
		}
		if (i == b->n_spans)
			return 0;
		if (c->found > c->max)
			return 1; /* gave up */
	}
	while (hi - lo > 1) {
		const u32 mid = lo + (hi - lo) / 2;

		if (b->at[mid] <= from)
			lo = mid;
		else
			hi = mid;
	}
	for (i = lo; i < b->n && b->at[i] < to; i++) {
		const struct port_piece *pieces = b->pieces + b->first[i];
		const u32 n = b->first[i + 1] - b->first[i];

		for (p = 0; p < n; p++) {
			if (pieces[p].old_rule <= c->nm->min_old &&
			    pieces[p].new_rule <= c->nm->min_new)
				continue;
			ret = named_cell(c, k, max(b->at[i], from),
					 min(b->at[i + 1], to), pieces[p].port,
					 piece_end(k, pieces, p, n),
					 pieces[p].old_rule,
					 pieces[p].new_rule);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Whether no cell of @k but the base ones gives a row at the cursors (their
 * wild rows are none: see addressed()); *@next: where the next of their
 * slabs starts.
 */
static bool others_quiet(const struct cmp *c, const struct kind *k, u32 *next)
{
	u32 side, i;

	*next = RANK_END;
	for (side = 0; side < 2; side++) {
		for (i = 0; i < k->n[side]; i++) {
			const struct slab_cursor *cur = &c->cursors[side][i];

			if (i == k->base[side])
				continue;
			if (cursor_row(cur) != PFSEL_NONE)
				return false;
			*next = min(*next, cursor_next(cur));
		}
	}
	return true;
}

/* Where the next slab of any cell of @k starts. */
static u32 cursors_next(const struct cmp *c, const struct kind *k)
{
	u32 side, i, next = RANK_END;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->n[side]; i++)
			next = min(next, cursor_next(&c->cursors[side][i]));
	return next;
}

/*
 * Every address interval of @k, from "::" up: an interval ends where a slab
 * of one of its cells starts (a class bound of that cell's policy), so
 * within one every cell of both policies has one slab, and one row.  With
 * @k->skip_quiet, the intervals where no cell but the base cells gives a
 * row go from one of the other cells' bounds to the next at once: their
 * rows are the base cells' alone, which the base check found no looser
 * anywhere; only their host names may be left (quiet_names()).  Returns
 * as interval().
 */
static int sweep(struct cmp *c, const struct kind *k)
{
	u32 side, i, at = 0, next;
	int ret;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->n[side]; i++)
			cursor_init(c, &c->cursors[side][i], (int)side,
				    k->cells[side][i]);
	for (;;) {
		if (k->skip_quiet && others_quiet(c, k, &next)) {
			ret = k->quiet_names ? quiet_names(c, k, at, next) : 0;
		} else {
			next = cursors_next(c, k);
			ret = interval(c, k, at, next);
		}
		if (ret)
			return ret;
		if (next == RANK_END)
			return 0;
		at = next;
		for (side = 0; side < 2; side++)
			for (i = 0; i < k->n[side]; i++)
				cursor_seek(&c->cursors[side][i], at);
	}
}

/*
 * The base cells of @k's kind compared alone, at every address, port and
 * host name, once per request kind and per side that has one: into
 * *@out.  0 or a negative errno.
 */
static int base_check(struct cmp *c, const struct kind *k,
		      const struct base_kind **out)
{
	const struct pfsel_policy_cell *base[2] = { NULL, NULL };
	const unsigned long long steps = c->steps;
	struct kind b = {
		.op = k->op,
		.proto = k->proto,
		.ports = k->ports,
		.cells = { &base[0], &base[1] },
		.base = { PFSEL_NONE, PFSEL_NONE },
	};
	struct base_kind *rec;
	int side, ret;

	for (side = 0; side < 2; side++) {
		if (k->base[side] != PFSEL_NONE)
			base[side] = k->cells[side][k->base[side]];
		b.n[side] = base[side] != NULL;
	}
	rec = &c->base_kinds[k->op][k->proto][b.n[0]][b.n[1]];
	*out = rec;
	if (rec->rows)
		return 0;
	/* Its work is not the enumeration's: CMP_NAME_STEPS_MAX is that. */
	c->probing = rec;
	ret = names_prepare(c, &rec->names, b.cells, b.n);
	names_use(c, &rec->names);
	rec->names_ok = !ret;
	if (ret == 1)
		rec->names_looser = true; /* too much to tell */
	if (ret >= 0)
		ret = sweep(c, &b);
	c->probing = NULL;
	c->steps = steps;
	if (ret < 0)
		return ret;
	rec->rows = ret ? 2 : 1;
	if (!ret && base_spans(rec, k))
		return fail(-ENOMEM, "compare: out of memory");
	return 0;
}

/*
 * The requests of one kind (@op, @proto) of @pair at every address and
 * port.  Where the pair's cells but the base ones have no wild row and
 * the base cells alone are no looser by the address's rules anywhere
 * (base_check()), only the intervals where those other cells give a row
 * are compared, and elsewhere the host names if they can decide there.
 * Returns as cell().
 */
static int addressed(struct cmp *c, const struct app_pair *pair, u32 op,
		     u32 proto)
{
	const u32 key = op * PFSEL_PROTO_COUNT + proto;
	struct kind k = {
		.pair = pair,
		.op = op,
		.proto = proto,
		.ports = proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP,
		.cells = { c->cells[0], c->cells[1] },
	};
	bool others = false, no_wild = true, no_names = true;
	int side, ret;
	u32 i;

	k.n[0] = app_cells(c, 0, c->old, pair->old_app, key);
	k.n[1] = app_cells(c, 1, c->new, pair->new_app, key);
	for (side = 0; side < 2; side++) {
		const struct pfsel_policydb *db = side ? c->new : c->old;

		k.base[side] = c->base_at[side];
		for (i = 0; i < k.n[side]; i++) {
			const struct pfsel_policy_cell *cell = k.cells[side][i];

			if (i == k.base[side])
				continue;
			others = true;
			if (le32_to_cpu(cell->wild_row) != PFSEL_NONE)
				no_wild = false;
			if (db->name_cells[cell - db->cells].count)
				no_names = false;
		}
	}
	if (c->exhaustive) {
		ret = names_prepare(c, &c->pair_names, k.cells, k.n);
		names_use(c, &c->pair_names);
		return ret ? ret : sweep(c, &k);
	}
	ret = base_check(c, &k, &k.base_kind);
	if (ret)
		return ret;
	k.skip_quiet = no_wild && k.base_kind->rows == 1;
	/* The base cells alone decide, and are no looser. */
	if (k.skip_quiet && !others && !k.base_kind->names_looser)
		return 0;
	/*
	 * Cells without name slabs give every name no row: in
	 * names_prepare() a column of PFSEL_NONE for each, which changes
	 * neither how the names are grouped, nor their order, nor the rules
	 * they get.  So when the other cells have none, the names decide as
	 * they do for the base cells alone, which base_check() prepared.
	 */
	if (no_names && k.base_kind->names_ok) {
		names_use(c, &k.base_kind->names);
	} else {
		ret = names_prepare(c, &c->pair_names, k.cells, k.n);
		names_use(c, &c->pair_names);
		if (ret)
			return ret;
	}
	/*
	 * Where the other cells give no row, the names are left to check
	 * unless they are the base cells' names and were no looser there.
	 */
	k.quiet_names = k.skip_quiet && c->nm->on &&
			!(no_names && !k.base_kind->names_looser);
	return sweep(c, &k);
}

static int enumerate(struct cmp *c)
{
	size_t i;
	u32 op, proto;
	int ret;

	for (i = 0; i < c->n_pairs; i++) {
		const struct app_pair *pair = &c->pairs[i];

		for (op = 0; op < PFSEL_OP_COUNT; op++) {
			for (proto = 0; proto < PFSEL_PROTO_COUNT; proto++) {
				if (op == PFSEL_OP_CREATE)
					ret = create_cells(c, pair, proto);
				else if (proto == PFSEL_PROTO_PACKET)
					ret = 0; /* asked of no packet socket */
				else
					ret = addressed(c, pair, op, proto);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

static void base_kinds_free(struct cmp *c)
{
	struct base_kind *b = &c->base_kinds[0][0][0][0];
	const size_t n = sizeof(c->base_kinds) / sizeof(*b);
	size_t i;

	for (i = 0; i < n; i++) {
		free(b[i].at);
		free(b[i].first);
		free(b[i].pieces);
		free(b[i].spans);
		names_free(&b[i].names);
	}
}

static int load(const void *blob, size_t len, const char *what,
		struct pfsel_policydb **db)
{
	int err = pfsel_policydb_load(blob, len, db);

	if (err)
		return fail(err,
			    "compare: the %s policy is not a valid "
			    "pfsel policy: %s",
			    what, strerror(-err));
	return 0;
}

static int compare(const void *old_blob, size_t old_len, const void *new_blob,
		   size_t new_len, FILE *report, unsigned int max,
		   bool exhaustive)
{
	struct pfsel_policydb *old = NULL, *new = NULL;
	struct cmp c = {
		.report = report,
		.max = max,
		.exhaustive = exhaustive,
		.nm = &c.pair_names,
	};
	size_t i;
	int err;

	last_error[0] = '\0';
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
	if (!err)
		err = ranks_build(&c);
	if (!err)
		err = base_group(old, &c.base_group[0]);
	if (!err)
		err = base_group(new, &c.base_group[1]);
	if (!err) {
		/* A set of rows: a wild row and a slab's row per cell. */
		const size_t rows = 2 * ((size_t)old->n_groups + new->n_groups);

		c.cells[0] = calloc(old->n_groups + 1, sizeof(*c.cells[0]));
		c.cells[1] = calloc(new->n_groups + 1, sizeof(*c.cells[1]));
		c.cursors[0] = calloc(old->n_groups + 1, sizeof(*c.cursors[0]));
		c.cursors[1] = calloc(new->n_groups + 1, sizeof(*c.cursors[1]));
		c.key = malloc((rows + 3) * sizeof(*c.key));
		c.run_at = malloc((rows + 1) * sizeof(*c.run_at));
		if (!c.cells[0] || !c.cells[1] || !c.cursors[0] ||
		    !c.cursors[1] || !c.key || !c.run_at ||
		    grow((void **)&c.ports, &c.ports_cap, 1, sizeof(u16)))
			err = -ENOMEM;
	}
	if (err == -ENOMEM)
		fail(err, "compare: out of memory");
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
		err = names_build(&c);
		if (!err)
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
	free(c.cursors[0]);
	free(c.cursors[1]);
	free(c.key);
	free(c.run_at);
	free(c.pieces);
	rowsets_free(&c);
	free(c.bounds);
	free(c.rank[0]);
	free(c.rank[1]);
	base_kinds_free(&c);
	free(c.ports);
	names_free(&c.pair_names);
	memo_reset(&c);
	for (i = 0; i < c.n_patterns; i++)
		free(c.patterns[i]);
	free(c.patterns);
	for (i = 0; i < c.n_names; i++)
		free(c.names[i].name);
	free(c.names);
	pfsel_policydb_free(old);
	pfsel_policydb_free(new);
	return err;
}

int policy_compare(const void *old_blob, size_t old_len, const void *new_blob,
		   size_t new_len, FILE *report, unsigned int max)
{
	return compare(old_blob, old_len, new_blob, new_len, report, max,
		       false);
}

int policy_compare_exhaustive(const void *old_blob, size_t old_len,
			      const void *new_blob, size_t new_len,
			      FILE *report, unsigned int max)
{
	return compare(old_blob, old_len, new_blob, new_len, report, max, true);
}
