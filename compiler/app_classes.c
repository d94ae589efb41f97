// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - lowering, step 2: application classes
 *
 * Per dimension (executable, script) the "keys" a path can have -- an exact
 * path, a file directly in a DIR/ * dir, a file whose deepest DIR/ ** dir
 * is D, or none -- each with the set of patterns it matches; an application
 * class is a distinct list of the rules that (exe key, script key) match,
 * "*" rules aside.  A class is protected when one of its rules (or a "*"
 * rule) says "protect".  Resolver statements take part as rules would
 * (lower_is_resolver_id()), so a class is a resolver or not as a whole.
 * Also the path tables (EXE_PATHS, SCRIPT_PATHS) that lead a path to its
 * key.  docs/LOWERING.md, section 2.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "app_classes.h"

/* Pattern slots of a path entry; a pattern id is entry * 3 + slot. */
enum { SLOT_EXACT, SLOT_CHILD, SLOT_TREE, N_SLOTS };

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
	} * ents;
	size_t n_ents, cap_ents;
	bool has_any; /* the pattern "*" is used */
	uint32_t n_keys, other_key;
	struct u32vec *key_pids; /* [n_keys] matched pattern ids */
};

#define PID_ANY PFSEL_NONE

/*
 * What this step needs only while it runs: the two dimensions, the rules
 * filed under their patterns, and scratch lists.  What it leaves for the
 * later steps is in struct lower (l->global, l->apps).
 */
struct app_build {
	struct lower *l;
	struct dim exe, script;
	struct u32vec *plain; /* [exe pid] rules with a plain pattern */
	struct pairent {
		uint32_t exe_pid, script_pid, rule;
	} * pairs;
	size_t n_pairs, cap_pairs;
	size_t cap_pairs_out; /* of low->pairs */
	/* Scratch: the rule list of a class, the key's plain rules, its pairs. */
	struct u32vec list, base, key_pairs;
};

static const uint32_t slot_flag[N_SLOTS] = { PFSEL_PATH_EXACT, PFSEL_PATH_CHILD,
					     PFSEL_PATH_TREE };

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

		if (PFW_PUSH(d->ents, d->n_ents, d->cap_ents, ent) ||
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
		if (pid != PFSEL_NONE && u32vec_push(out, pid))
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

		if (u32vec_push(out, e * N_SLOTS + SLOT_EXACT))
			return -ENOMEM;
		if (slash && slash[1]) {
			pid = dim_pid(d, s, slash - s, SLOT_CHILD);
			if (pid != PFSEL_NONE && u32vec_push(out, pid))
				return -ENOMEM;
		}
		/* Only the '/'s followed by something count. */
		return add_tree_chain(d, out, s,
				      slash && !slash[1] ? len - 1 : len);
	}
	if (slot == SLOT_CHILD && u32vec_push(out, e * N_SLOTS + SLOT_CHILD))
		return -ENOMEM;
	pid = dim_pid(d, s, len, SLOT_TREE);
	if (pid != PFSEL_NONE && u32vec_push(out, pid))
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
		if (d->has_any && u32vec_push(&d->key_pids[k], PID_ANY))
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

static int cmp_path(const void *a, const void *b)
{
	const struct pentry *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/*
 * The application patterns of rule (or resolver id) @r, in @n_apps; the
 * resolver statements come after the rules.
 */
static const struct pfw_app *id_apps(const struct pfw_policy *pol, size_t r,
				     size_t *n_apps)
{
	if (r < pol->n_rules) {
		*n_apps = pol->rules[r].n_apps;
		return pol->rules[r].apps;
	}
	*n_apps = pol->resolvers[r - pol->n_rules].n_apps;
	return pol->resolvers[r - pol->n_rules].apps;
}

/* Name every pattern in its dimension, then sort the path entries. */
static int name_patterns(struct app_build *b)
{
	const struct pfw_policy *pol = b->l->pol;
	uint32_t pid;

	for (size_t r = 0; r < pol->n_rules + pol->n_resolvers; r++) {
		size_t n_apps;
		const struct pfw_app *apps = id_apps(pol, r, &n_apps);

		for (size_t a = 0; a < n_apps; a++) {
			const struct pfw_app *app = &apps[a];

			if (dim_add(&b->exe, &app->exe, &pid) ||
			    (app->is_script &&
			     dim_add(&b->script, &app->script, &pid)))
				return -ENOMEM;
		}
	}
	/* Sorted entries: the order of the path tables in the blob. */
	for (struct dim *d = &b->exe; d; d = d == &b->exe ? &b->script : NULL) {
		if (d->n_ents)
			qsort(d->ents, d->n_ents, sizeof(*d->ents), cmp_path);
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
static int file_rules(struct app_build *b)
{
	struct lower *l = b->l;
	const struct pfw_policy *pol = l->pol;
	int err = name_patterns(b);

	if (err)
		return err;
	b->plain = calloc(b->exe.n_ents * N_SLOTS + 1, sizeof(*b->plain));
	if (!b->plain)
		return -ENOMEM;
	if (pol->n_rules + pol->n_resolvers >= PFSEL_NONE)
		return -E2BIG;
	for (size_t r = 0; r < pol->n_rules + pol->n_resolvers; r++) {
		size_t n_apps;
		const struct pfw_app *apps = id_apps(pol, r, &n_apps);

		for (size_t a = 0; a < n_apps; a++) {
			const struct pfw_app *app = &apps[a];
			struct pairent p = { 0, 0, r };

			/* Already named: these cannot fail. */
			dim_add(&b->exe, &app->exe, &p.exe_pid);
			if (app->is_script) {
				dim_add(&b->script, &app->script,
					&p.script_pid);
				err = PFW_PUSH(b->pairs, b->n_pairs,
					       b->cap_pairs, p);
			} else {
				err = u32vec_push(p.exe_pid == PID_ANY ?
							  &l->global :
							  &b->plain[p.exe_pid],
						  r);
			}
			if (err)
				return err;
		}
	}
	u32vec_sort_unique(&l->global);
	return 0;
}

static bool has_pid(const struct u32vec *pids, uint32_t pid)
{
	for (size_t i = 0; i < pids->n; i++)
		if (pids->v[i] == pid)
			return true;
	return false;
}

/* App class of the rule list in b->list (sorted, unique). */
static long intern_app(struct app_build *b)
{
	return seqtab_intern(&b->l->apps, b->list.v, b->list.n);
}

static int build_app_classes(struct app_build *b)
{
	struct pfw_lowered *low = b->l->low;
	const struct dim *ex = &b->exe, *sc = &b->script;

	if (dim_build_keys(&b->exe) || dim_build_keys(&b->script))
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
		b->list.n = 0;
		for (size_t i = 0; i < mp->n; i++) {
			const struct u32vec *rules;

			if (mp->v[i] == PID_ANY)
				continue;
			rules = &b->plain[mp->v[i]];
			for (size_t j = 0; j < rules->n; j++)
				if (u32vec_push(&b->list, rules->v[j]))
					return -ENOMEM;
		}
		u32vec_sort_unique(&b->list);
		base = intern_app(b);
		if (base < 0)
			return base;
		low->exes[e].app = base;
		low->exes[e].pair_first = low->n_pairs;
		base_n = b->list.n;
		b->base.n = 0;
		for (size_t i = 0; i < base_n; i++)
			if (u32vec_push(&b->base, b->list.v[i]))
				return -ENOMEM;
		/* The pairs whose interpreter pattern this key matches. */
		b->key_pairs.n = 0;
		for (uint32_t i = 0; i < b->n_pairs; i++)
			if (has_pid(mp, b->pairs[i].exe_pid) &&
			    u32vec_push(&b->key_pairs, i))
				return -ENOMEM;
		for (uint32_t s = 0; b->key_pairs.n && s < sc->n_keys; s++) {
			struct low_pair pair = { s, 0 };
			long app;

			/* Sorting below reorders the list: rebuild the base part. */
			b->list.n = 0;
			for (size_t i = 0; i < base_n; i++)
				if (u32vec_push(&b->list, b->base.v[i]))
					return -ENOMEM;
			for (size_t i = 0; i < b->key_pairs.n; i++) {
				const struct pairent *p =
					&b->pairs[b->key_pairs.v[i]];

				if (has_pid(&sc->key_pids[s], p->script_pid) &&
				    u32vec_push(&b->list, p->rule))
					return -ENOMEM;
			}
			if (b->list.n == base_n)
				continue;
			u32vec_sort_unique(&b->list);
			app = intern_app(b);
			if (app < 0)
				return app;
			if (app == base)
				continue;
			pair.app = app;
			if (PFW_PUSH(low->pairs, low->n_pairs, b->cap_pairs_out,
				     pair))
				return -ENOMEM;
		}
		low->exes[e].pair_count =
			low->n_pairs - low->exes[e].pair_first;
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
static int protected_classes(struct lower *l)
{
	const struct pfw_policy *pol = l->pol;
	struct pfw_lowered *low = l->low;
	bool every = false;

	for (size_t i = 0; i < l->global.n; i++)
		every |= !lower_is_resolver_id(l, l->global.v[i]) &&
			 pol->rules[l->global.v[i]].protect;
	low->protected = calloc(l->apps.n_items + 1, sizeof(*low->protected));
	if (!low->protected)
		return -ENOMEM;
	for (uint32_t a = 0; a < l->apps.n_items; a++) {
		uint32_t len;
		const uint32_t *rules = seqtab_get(&l->apps, a, &len);
		bool protect = every;

		for (uint32_t i = 0; i < len && !protect; i++)
			protect = !lower_is_resolver_id(l, rules[i]) &&
				  pol->rules[rules[i]].protect;
		if (protect)
			low->protected[low->n_protected++] = a;
	}
	return 0;
}

/* The flags resolver id @id gives the applications it names. */
static uint32_t resolver_flags(const struct lower *l, uint32_t id)
{
	return l->pol->resolvers[id - l->pol->n_rules].any_user ?
		       PFSEL_RESOLVER_ANY_USER :
		       0;
}

/*
 * The resolver application classes (RESOLVERS): those whose list, or the
 * "*" list every class has, holds a resolver statement; "any user" if one
 * of those statements says so (it learns more, and more is what any one
 * of them asked for).
 */
static int resolver_classes(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	bool every = false;
	uint32_t every_flags = 0;

	for (size_t i = 0; i < l->global.n; i++)
		if (lower_is_resolver_id(l, l->global.v[i])) {
			every = true;
			every_flags |= resolver_flags(l, l->global.v[i]);
		}
	low->resolvers = calloc(l->apps.n_items + 1, sizeof(*low->resolvers));
	if (!low->resolvers)
		return -ENOMEM;
	for (uint32_t a = 0; a < l->apps.n_items; a++) {
		uint32_t len;
		const uint32_t *ids = seqtab_get(&l->apps, a, &len);
		bool resolver = every;
		uint32_t flags = every_flags;

		for (uint32_t i = 0; i < len; i++)
			if (lower_is_resolver_id(l, ids[i])) {
				resolver = true;
				flags |= resolver_flags(l, ids[i]);
			}
		if (resolver)
			low->resolvers[low->n_resolvers++] =
				(struct low_resolver){ a, flags };
	}
	return 0;
}

/* The path table (EXE_PATHS or SCRIPT_PATHS) of dimension @d, its strings. */
static int path_table(struct lower *l, const struct dim *d,
		      struct low_path **out, size_t *n_out)
{
	*out = calloc(d->n_ents ? d->n_ents : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t e = 0; e < d->n_ents; e++) {
		struct low_path *p = &(*out)[e];
		long str = lower_intern_string(l, d->ents[e].path);

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

static void app_build_free(struct app_build *b)
{
	for (size_t i = 0; b->plain && i < b->exe.n_ents * N_SLOTS + 1; i++)
		free(b->plain[i].v);
	free(b->plain);
	free(b->pairs);
	dim_free(&b->exe);
	dim_free(&b->script);
	free(b->list.v);
	free(b->key_pairs.v);
	free(b->base.v);
}

int lower_app_classes(struct lower *l)
{
	struct pfw_lowered *low = l->low;
	struct app_build b = { .l = l };
	int err = file_rules(&b);

	if (!err)
		err = build_app_classes(&b);
	if (!err)
		err = protected_classes(l);
	if (!err)
		err = path_table(l, &b.exe, &low->exe_paths, &low->n_exe_paths);
	if (!err)
		err = path_table(l, &b.script, &low->script_paths,
				 &low->n_script_paths);
	if (!err)
		err = resolver_classes(l);
	app_build_free(&b);
	return err;
}
