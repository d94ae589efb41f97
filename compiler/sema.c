// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - semantic checks: name resolution, from the parsed AST to the
 * resolved view
 *
 * In order:
 *   1. settings: reconcile the file with --system/--uid, fill in defaults;
 *   2. definitions: one per name, none named like a built-in, no cycles;
 *      each resolved (depth first) and normalised;
 *   3. rules: names expanded, sets normalised (sorted, disjoint; members
 *      inside other members dropped with a warning), then the warnings
 *      about each resolved rule (lint.c);
 *   4. resolver statements: in the system policy only, names expanded;
 *   5. rules that can never match (lint.c), names never used.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "lint.h"
#include "sema.h"

struct sema {
	struct pfw_policy *policy;
	const struct pfw_sema_options *options;
	struct pfw_diag *diag;
	/* Definitions sorted by name, for lookup. */
	struct pfw_def **by_name;
	/* Per definition: 0 not resolved, 1 resolving, 2 resolved. */
	unsigned char *state;
	/* How many definitions are being resolved inside each other. */
	unsigned int depth;
};

/* Where expansion puts members: the arrays of a rule or a definition. */
struct member_sets {
	struct pfw_app **apps;
	size_t *n_apps;
	bool *any_addr;
	struct pfw_cidr **addrs;
	size_t *n_addrs;
	struct pfw_host **hosts;
	size_t *n_hosts;
	bool *any_port;
	struct pfw_port_range **ports;
	size_t *n_ports;
	/* Where to report about the address and port lists. */
	const struct pfw_loc *addr_owner;
	const struct pfw_loc *port_owner;
};

static const char *const def_kind_names[] = {
	[PFW_DEF_APPS] = "apps",
	[PFW_DEF_HOSTS] = "hosts",
	[PFW_DEF_PORTS] = "ports",
};

/* ---- Built-in host names ---- */

static const struct {
	const char *name;
	const char *members[4];
} builtin_hosts_text[] = {
	{ "loopback", { "127.0.0.0/8", "::1/128" } },
	{ "unspecified", { "0.0.0.0/32", "::/128" } },
	{ "private",
	  { "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7" } },
	{ "linklocal", { "169.254.0.0/16", "fe80::/10" } },
	{ "multicast", { "224.0.0.0/4", "ff00::/8" } },
};
#define N_BUILTIN_HOSTS \
	(sizeof(builtin_hosts_text) / sizeof(builtin_hosts_text[0]))

size_t pfw_builtin_hosts(const char *name, const struct pfw_cidr **cidrs)
{
	static struct pfw_cidr table[N_BUILTIN_HOSTS][4];
	static size_t counts[N_BUILTIN_HOSTS];
	static bool ready;

	if (!ready) {
		for (size_t i = 0; i < N_BUILTIN_HOSTS; i++) {
			for (size_t m = 0; m < 4; m++) {
				const char *text =
					builtin_hosts_text[i].members[m];
				bool is_ipv4;

				if (text && !pfw_parse_address(
						    text, &table[i][counts[i]],
						    &is_ipv4))
					counts[i]++;
			}
		}
		ready = true;
	}
	for (size_t i = 0; i < N_BUILTIN_HOSTS; i++) {
		if (strcmp(name, builtin_hosts_text[i].name) == 0) {
			*cidrs = table[i];
			return counts[i];
		}
	}
	return 0;
}

/* ---- Settings ---- */

static void check_settings(struct sema *s)
{
	struct pfw_settings *settings = &s->policy->settings;
	const struct pfw_sema_options *options = s->options;

	if (options->force_system) {
		if (settings->kind_loc.line && !settings->is_system)
			pfw_error(
				s->diag, &settings->kind_loc,
				"this is a user policy, but --system was given");
		settings->is_system = true;
	}
	if (options->force_uid) {
		if (settings->is_system)
			pfw_error(
				s->diag,
				settings->kind_loc.line ? &settings->kind_loc :
							  NULL,
				"--uid names the owner of a user policy, and this is the system policy");
		settings->has_uid = true;
		settings->uid = options->uid;
	}
	if (settings->is_system)
		settings->has_uid = false;
	/* The system policy is a floor: where it says nothing, it allows. */
	if (!settings->default_loc.line)
		settings->default_verdict = settings->is_system ?
						    PFW_VERDICT_ALLOW :
						    PFW_VERDICT_ASK;
}

/* ---- Definitions ---- */

static int compare_def_names(const void *a, const void *b)
{
	const struct pfw_def *x = *(struct pfw_def *const *)a;
	const struct pfw_def *y = *(struct pfw_def *const *)b;
	int by_name = strcmp(x->name, y->name);

	/* Equal names: the earlier definition first, to be the one kept. */
	return by_name ? by_name : (x < y ? -1 : x > y);
}

static int compare_name_to_def(const void *key, const void *element)
{
	return strcmp(key, (*(struct pfw_def *const *)element)->name);
}

static struct pfw_def *find_def(const struct sema *s, const char *name)
{
	struct pfw_def **found;

	if (!s->policy->n_defs)
		return NULL;
	found = bsearch(name, s->by_name, s->policy->n_defs,
			sizeof(*s->by_name), compare_name_to_def);
	if (!found)
		return NULL;
	/* With duplicates, bsearch may land on any: take the first. */
	while (found > s->by_name && strcmp(found[-1]->name, name) == 0)
		found--;
	return *found;
}

static void index_definitions(struct sema *s)
{
	struct pfw_policy *policy = s->policy;
	const struct pfw_cidr *unused;

	s->by_name = pfw_xrealloc(NULL, policy->n_defs * sizeof(*s->by_name));
	s->state = pfw_xrealloc(NULL, policy->n_defs);
	memset(s->state, 0, policy->n_defs);
	for (size_t i = 0; i < policy->n_defs; i++)
		s->by_name[i] = &policy->defs[i];
	if (policy->n_defs)
		qsort(s->by_name, policy->n_defs, sizeof(*s->by_name),
		      compare_def_names);
	for (size_t i = 0; i < policy->n_defs; i++) {
		struct pfw_def *def = s->by_name[i];

		if (i > 0 && strcmp(s->by_name[i - 1]->name, def->name) == 0) {
			pfw_error(s->diag, &def->loc, "'%s' is already defined",
				  def->name);
			pfw_note(s->diag, &find_def(s, def->name)->loc,
				 "the first definition is here");
		} else if (pfw_builtin_hosts(def->name, &unused)) {
			pfw_error(
				s->diag, &def->loc,
				"'%s' is a built-in host name and cannot be redefined",
				def->name);
		}
	}
}

/* ---- Expansion of names ---- */

static void copy_path(struct pfw_path_pattern *to,
		      const struct pfw_path_pattern *from)
{
	to->kind = from->kind;
	to->path = from->path ? pfw_xstrdup(from->path) : NULL;
}

static void add_apps(const struct member_sets *sets, const struct pfw_app *apps,
		     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pfw_app *app = pfw_push((void **)sets->apps,
					       sets->n_apps, sizeof(*app));

		copy_path(&app->exe, &apps[i].exe);
		app->is_script = apps[i].is_script;
		copy_path(&app->script, &apps[i].script);
		app->loc = apps[i].loc;
	}
}

static void add_addrs(const struct member_sets *sets,
		      const struct pfw_cidr *addrs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(struct pfw_cidr *)pfw_push((void **)sets->addrs,
					     sets->n_addrs,
					     sizeof(*addrs)) = addrs[i];
}

static void add_hosts(const struct member_sets *sets,
		      const struct pfw_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pfw_host *host = pfw_push((void **)sets->hosts,
						 sets->n_hosts, sizeof(*host));

		*host = hosts[i];
		host->name = pfw_xstrdup(hosts[i].name);
	}
}

static void add_port(const struct member_sets *sets, uint16_t first,
		     uint16_t last)
{
	struct pfw_port_range *range =
		pfw_push((void **)sets->ports, sets->n_ports, sizeof(*range));

	range->first = first;
	range->last = last;
}

static void resolve_def(struct sema *s, struct pfw_def *def);

/* Edit distance of two short names, capped: enough to catch typos. */
static size_t edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	size_t la = strlen(a), lb = strlen(b), row[MAX + 1];

	if (la > MAX || lb > MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diagonal = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t above = row[j];
			size_t best = diagonal + (a[i - 1] != b[j - 1]);

			if (above + 1 < best)
				best = above + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
		}
	}
	return row[lb];
}

/* Keep @candidate as the suggestion if it is the closest so far. */
static void consider(const char *name, const char *candidate, const char **best,
		     size_t *best_distance)
{
	size_t distance = edit_distance(name, candidate);

	/* Close enough to be a typo, not just another short name. */
	if (distance < *best_distance && distance <= 2 &&
	    distance * 3 <= strlen(name))
		*best = candidate, *best_distance = distance;
}

/* "no hosts named 'lna' is defined or built in; did you mean 'lan'?" */
static void report_unknown_name(struct sema *s, enum pfw_def_kind kind,
				const struct pfw_ref *ref)
{
	const char *best = NULL;
	size_t best_distance = SIZE_MAX;
	char suggestion[96] = "";

	for (size_t i = 0; i < s->policy->n_defs; i++)
		if (s->policy->defs[i].kind == kind)
			consider(ref->name, s->policy->defs[i].name, &best,
				 &best_distance);
	for (size_t i = 0; kind == PFW_DEF_HOSTS && i < N_BUILTIN_HOSTS; i++)
		consider(ref->name, builtin_hosts_text[i].name, &best,
			 &best_distance);
	for (size_t i = 0; kind == PFW_DEF_PORTS && s->options->services &&
			   i < s->options->services->n_entries;
	     i++)
		consider(ref->name, s->options->services->entries[i].name,
			 &best, &best_distance);
	if (best)
		snprintf(suggestion, sizeof(suggestion),
			 "; did you mean '%.64s'?", best);

	if (kind == PFW_DEF_PORTS && !s->options->services)
		pfw_error(
			s->diag, &ref->loc,
			"'%s' is not defined, and no services file was read%s",
			ref->name, suggestion);
	else
		pfw_error(s->diag, &ref->loc, "no %s named '%s' is defined%s%s",
			  def_kind_names[kind], ref->name,
			  kind == PFW_DEF_PORTS ? " or listed as a service" :
			  kind == PFW_DEF_HOSTS ? " or built in" :
						  "",
			  suggestion);
}

/* Expand one name of kind @kind into @sets; false (reported) if unknown. */
static bool expand_ref(struct sema *s, enum pfw_def_kind kind,
		       const struct pfw_ref *ref,
		       const struct member_sets *sets)
{
	struct pfw_def *def = find_def(s, ref->name);
	const struct pfw_service *service;
	const struct pfw_cidr *builtin;
	size_t n;

	if (def) {
		if (def->kind != kind) {
			pfw_error(s->diag, &ref->loc,
				  "'%s' names %s, but %s are expected here",
				  ref->name, def_kind_names[def->kind],
				  def_kind_names[kind]);
			pfw_note(s->diag, &def->loc, "'%s' is defined here",
				 ref->name);
			return false;
		}
		def->used = true;
		resolve_def(s, def);
		/* In a cycle it is still being resolved: nothing to copy, and
		 * copying a list into itself would grow it under the copy. */
		if (s->state[def - s->policy->defs] != 2)
			return false;
		add_apps(sets, def->apps, def->n_apps);
		add_addrs(sets, def->addrs, def->n_addrs);
		if (sets->hosts)
			add_hosts(sets, def->hosts, def->n_hosts);
		for (size_t i = 0; i < def->n_ports; i++)
			add_port(sets, def->ports[i].first, def->ports[i].last);
		if (def->any_addr)
			*sets->any_addr = true;
		if (def->any_port)
			*sets->any_port = true;
		return true;
	}
	if (kind == PFW_DEF_HOSTS &&
	    (n = pfw_builtin_hosts(ref->name, &builtin))) {
		add_addrs(sets, builtin, n);
		return true;
	}
	if (kind == PFW_DEF_PORTS &&
	    (n = pfw_services_find(s->options->services, ref->name,
				   &service))) {
		for (size_t i = 0; i < n; i++) {
			bool seen = false;

			/* A service listed for tcp and udp is one port. */
			for (size_t j = 0; j < i && !seen; j++)
				seen = service[j].port == service[i].port;
			if (!seen)
				add_port(sets, service[i].port,
					 service[i].port);
		}
		return true;
	}
	report_unknown_name(s, kind, ref);
	return false;
}

/* ---- Normalisation ---- */

/* Marks a pattern to drop; what covers it also covers what it covered. */
#define DROPPED ((enum pfw_path_kind) - 1)

/* Drop application patterns inside other patterns of the same list. */
static void normalise_apps(struct sema *s, struct pfw_app *apps, size_t *n)
{
	size_t kept = 0;

	for (size_t i = 0; i < *n; i++) {
		const struct pfw_app *covering = NULL;

		for (size_t j = 0; j < *n && !covering; j++) {
			if (j == i || apps[j].exe.kind == DROPPED)
				continue;
			/* Of two equal patterns the first is kept. */
			if (pfw_app_contains(&apps[j], &apps[i]) &&
			    (j < i || !pfw_app_contains(&apps[i], &apps[j])))
				covering = &apps[j];
		}
		if (covering) {
			char inner[256], outer[256];

			pfw_warn(
				s->diag, PFW_W_OVERLAP, &apps[i].loc,
				"'%s' is already covered by '%s' in the same list",
				pfw_app_format(&apps[i], inner, sizeof(inner)),
				pfw_app_format(covering, outer, sizeof(outer)));
			if (covering->loc.line)
				pfw_note(s->diag, &covering->loc,
					 "'%s' is here", outer);
		}
		if (covering)
			apps[i].exe.kind = DROPPED;
	}
	for (size_t i = 0; i < *n; i++) {
		if (apps[i].exe.kind == DROPPED) {
			free(apps[i].exe.path);
			free(apps[i].script.path);
			continue;
		}
		apps[kept++] = apps[i];
	}
	*n = kept;
}

static int compare_cidrs(const void *a, const void *b)
{
	const struct pfw_cidr *x = a, *y = b;
	int by_addr = memcmp(x->addr, y->addr, 16);

	if (by_addr)
		return by_addr;
	return (x->prefix_len > y->prefix_len) -
	       (x->prefix_len < y->prefix_len);
}

/*
 * Sort prefixes and drop those inside another.  Prefixes either nest or are
 * disjoint, and sorting puts each container right before what it contains.
 */
static void normalise_addrs(struct sema *s, struct pfw_cidr *addrs, size_t *n,
			    const struct pfw_loc *owner)
{
	size_t kept = 0;

	if (*n == 0)
		return;
	qsort(addrs, *n, sizeof(*addrs), compare_cidrs);
	for (size_t i = 0; i < *n; i++) {
		if (kept &&
		    pfw_cidr_contains(&addrs[kept - 1], addrs[i].addr)) {
			char inner[64], outer[64];

			pfw_warn(
				s->diag, PFW_W_OVERLAP, owner,
				"address %s is already covered by %s in the same list",
				pfw_cidr_format(&addrs[i], inner,
						sizeof(inner)),
				pfw_cidr_format(&addrs[kept - 1], outer,
						sizeof(outer)));
			continue;
		}
		addrs[kept++] = addrs[i];
	}
	*n = kept;
}

static int compare_hosts(const void *a, const void *b)
{
	const struct pfw_host *x = a, *y = b;
	int by_name = strcmp(x->name, y->name);

	/* Equal names: "NAME" before "*.NAME"; then source order. */
	if (by_name)
		return by_name;
	if (x->below != y->below)
		return x->below ? 1 : -1;
	if (x->loc.line != y->loc.line)
		return x->loc.line < y->loc.line ? -1 : 1;
	return (x->loc.col > y->loc.col) - (x->loc.col < y->loc.col);
}

/* The "*.SUFFIX" element of sorted @hosts[0..n) with that suffix, or NULL. */
static const struct pfw_host *find_below(const struct pfw_host *hosts, size_t n,
					 const char *suffix)
{
	struct pfw_host key = { .name = (char *)suffix, .below = true };
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(hosts[mid].name, suffix);

		if (!c && hosts[mid].below == key.below)
			return &hosts[mid];
		if (c < 0 || (!c && !hosts[mid].below))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Sort host elements and drop those another covers: a repeated one, or
 * one below a "*." element of the list ("www.example.org" next to
 * "*.example.org").  Each name has few labels, so this is n log n.
 */
static void normalise_hosts(struct sema *s, struct pfw_host *hosts, size_t *n)
{
	size_t kept = 0;
	bool *drop;

	if (*n == 0)
		return;
	qsort(hosts, *n, sizeof(*hosts), compare_hosts);
	drop = pfw_xrealloc(NULL, *n * sizeof(*drop));
	for (size_t i = 0; i < *n; i++) {
		const struct pfw_host *covering = NULL;
		char inner[PFSEL_HOST_NAME_MAX + 3],
			outer[PFSEL_HOST_NAME_MAX + 3];

		if (i > 0 && hosts[i - 1].below == hosts[i].below &&
		    strcmp(hosts[i - 1].name, hosts[i].name) == 0)
			covering = &hosts[i - 1];
		for (const char *dot = strchr(hosts[i].name, '.');
		     dot && !covering; dot = strchr(dot + 1, '.'))
			covering = find_below(hosts, *n, dot + 1);
		drop[i] = covering != NULL;
		if (!covering)
			continue;
		pfw_warn(
			s->diag, PFW_W_OVERLAP, &hosts[i].loc,
			"'host %s' is already covered by 'host %s' in the same list",
			pfw_host_format(&hosts[i], inner, sizeof(inner)),
			pfw_host_format(covering, outer, sizeof(outer)));
		if (covering->loc.line)
			pfw_note(s->diag, &covering->loc, "'host %s' is here",
				 outer);
	}
	for (size_t i = 0; i < *n; i++) {
		if (drop[i])
			free(hosts[i].name);
		else
			hosts[kept++] = hosts[i];
	}
	free(drop);
	*n = kept;
}

static int compare_ranges(const void *a, const void *b)
{
	const struct pfw_port_range *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->last > y->last) - (x->last < y->last);
}

static char *format_ports(const struct pfw_port_range *range, char *buf,
			  size_t size)
{
	if (range->first == range->last)
		snprintf(buf, size, "port %u", range->first);
	else
		snprintf(buf, size, "ports %u-%u", range->first, range->last);
	return buf;
}

/* Sort ranges, merge the overlapping (with a warning) and the adjacent. */
static void normalise_ports(struct sema *s, struct pfw_port_range *ports,
			    size_t *n, const struct pfw_loc *owner)
{
	size_t kept = 0;

	if (*n == 0)
		return;
	qsort(ports, *n, sizeof(*ports), compare_ranges);
	for (size_t i = 0; i < *n; i++) {
		struct pfw_port_range *last = kept ? &ports[kept - 1] : NULL;

		if (last && ports[i].first <= last->last) {
			char inner[32], outer[32];

			pfw_warn(s->diag, PFW_W_OVERLAP, owner,
				 "%s and %s overlap in the same list",
				 format_ports(last, outer, sizeof(outer)),
				 format_ports(&ports[i], inner, sizeof(inner)));
		}
		if (last &&
		    (uint32_t)ports[i].first <= (uint32_t)last->last + 1) {
			if (ports[i].last > last->last)
				last->last = ports[i].last;
			continue;
		}
		ports[kept++] = ports[i];
	}
	*n = kept;
}

/* "any" swallows the list; a full list is "any". */
static void normalise_sets(struct sema *s, const struct member_sets *sets)
{
	normalise_apps(s, *sets->apps, sets->n_apps);
	if (*sets->any_addr) {
		free(*sets->addrs);
		*sets->addrs = NULL;
		*sets->n_addrs = 0;
	} else {
		normalise_addrs(s, *sets->addrs, sets->n_addrs,
				sets->addr_owner);
		if (*sets->n_addrs == 1 && (*sets->addrs)[0].prefix_len == 0)
			*sets->any_addr = true;
	}
	if (*sets->any_port) {
		free(*sets->ports);
		*sets->ports = NULL;
		*sets->n_ports = 0;
	} else {
		normalise_ports(s, *sets->ports, sets->n_ports,
				sets->port_owner);
	}
	if (*sets->any_addr && *sets->n_addrs) {
		free(*sets->addrs);
		*sets->addrs = NULL;
		*sets->n_addrs = 0;
	}
	/* Every address matches "any", whatever it is named. */
	if (*sets->any_addr) {
		for (size_t i = 0; i < *sets->n_hosts; i++)
			free((*sets->hosts)[i].name);
		free(*sets->hosts);
		*sets->hosts = NULL;
		*sets->n_hosts = 0;
	} else {
		normalise_hosts(s, *sets->hosts, sets->n_hosts);
	}
}

static struct member_sets def_sets(struct pfw_def *def)
{
	return (struct member_sets){
		.apps = &def->apps,
		.n_apps = &def->n_apps,
		.any_addr = &def->any_addr,
		.addrs = &def->addrs,
		.n_addrs = &def->n_addrs,
		.hosts = &def->hosts,
		.n_hosts = &def->n_hosts,
		.any_port = &def->any_port,
		.ports = &def->ports,
		.n_ports = &def->n_ports,
		.addr_owner = &def->loc,
		.port_owner = &def->loc,
	};
}

static struct member_sets rule_sets(struct pfw_rule *rule)
{
	return (struct member_sets){
		.apps = &rule->apps,
		.n_apps = &rule->n_apps,
		.any_addr = &rule->any_addr,
		.addrs = &rule->addrs,
		.n_addrs = &rule->n_addrs,
		.hosts = &rule->hosts,
		.n_hosts = &rule->n_hosts,
		.any_port = &rule->any_port,
		.ports = &rule->ports,
		.n_ports = &rule->n_ports,
		.addr_owner = rule->addr_loc.line ? &rule->addr_loc :
						    &rule->loc,
		.port_owner = rule->port_loc.line ? &rule->port_loc :
						    &rule->loc,
	};
}

static void resolve_def(struct sema *s, struct pfw_def *def)
{
	size_t index = (size_t)(def - s->policy->defs);
	struct member_sets sets = def_sets(def);

	if (s->state[index] == 2)
		return;
	if (s->state[index] == 1) {
		pfw_error(s->diag, &def->loc,
			  "the definition of '%s' refers to itself", def->name);
		return;
	}
	/* Resolution recurses; a long chain of names must not blow the stack. */
	if (s->depth >= PFW_NAME_DEPTH_MAX) {
		pfw_error(s->diag, &def->loc,
			  "names are defined through more than %d other names",
			  PFW_NAME_DEPTH_MAX);
		s->state[index] = 2;
		return;
	}
	s->state[index] = 1;
	s->depth++;
	for (size_t i = 0; i < def->n_refs; i++)
		expand_ref(s, def->kind, &def->refs[i], &sets);
	s->depth--;
	normalise_sets(s, &sets);
	s->state[index] = 2;
}

static void resolve_rule(struct sema *s, struct pfw_rule *rule)
{
	struct member_sets sets = rule_sets(rule);

	for (size_t i = 0; i < rule->n_app_refs; i++)
		expand_ref(s, PFW_DEF_APPS, &rule->app_refs[i], &sets);
	for (size_t i = 0; i < rule->n_addr_refs; i++)
		expand_ref(s, PFW_DEF_HOSTS, &rule->addr_refs[i], &sets);
	for (size_t i = 0; i < rule->n_port_refs; i++)
		expand_ref(s, PFW_DEF_PORTS, &rule->port_refs[i], &sets);
	normalise_sets(s, &sets);
	/*
	 * A name's row in the compiled policy is one for both families (the
	 * kernel keys it by name class, not by address), so it cannot honour
	 * a family: say so rather than match more than was written.
	 */
	if (rule->n_hosts && rule->families != PFW_FAMILY_ALL) {
		pfw_error(
			s->diag, &rule->hosts[0].loc,
			"a rule with host names cannot say 'family': a name matches whatever the family of its addresses; give the addresses instead, or drop 'family'");
	}
}

/*
 * "resolver APPS [any user];": the system policy's to say, since it
 * decides which answers every user's host rules rely on.
 */
static void resolve_resolver(struct sema *s, struct pfw_resolver *resolver)
{
	bool any = false;
	struct pfw_cidr *no_addrs = NULL;
	size_t n_no_addrs = 0, n_no_ports = 0;
	struct pfw_port_range *no_ports = NULL;
	struct member_sets sets = {
		.apps = &resolver->apps,
		.n_apps = &resolver->n_apps,
		.any_addr = &any,
		.addrs = &no_addrs,
		.n_addrs = &n_no_addrs,
		.any_port = &any,
		.ports = &no_ports,
		.n_ports = &n_no_ports,
		.addr_owner = &resolver->loc,
		.port_owner = &resolver->loc,
	};

	if (!s->policy->settings.is_system) {
		pfw_error(
			s->diag, &resolver->loc,
			"'resolver' is for the system policy: which programs' DNS answers the kernel learns host names from is the administrator's to say");
		return;
	}
	for (size_t i = 0; i < resolver->n_app_refs; i++)
		expand_ref(s, PFW_DEF_APPS, &resolver->app_refs[i], &sets);
	normalise_apps(s, resolver->apps, &resolver->n_apps);
}

static void check_unused(struct sema *s)
{
	for (size_t i = 0; i < s->policy->n_defs; i++) {
		const struct pfw_def *def = &s->policy->defs[i];

		if (!def->used && find_def(s, def->name) == def)
			pfw_warn(s->diag, PFW_W_UNUSED, &def->loc,
				 "'%s' is defined but never used", def->name);
	}
}

bool pfw_sema(struct pfw_policy *policy, const struct pfw_sema_options *options,
	      struct pfw_diag *diag)
{
	struct sema s = {
		.policy = policy,
		.options = options,
		.diag = diag,
	};
	unsigned int errors_before = diag->errors;

	check_settings(&s);
	index_definitions(&s);
	for (size_t i = 0; i < policy->n_defs; i++)
		resolve_def(&s, &policy->defs[i]);
	for (size_t i = 0; i < policy->n_rules; i++) {
		policy->rules[i].index = (uint32_t)i;
		resolve_rule(&s, &policy->rules[i]);
		pfw_lint_rule(&policy->rules[i], diag);
	}
	for (size_t i = 0; i < policy->n_resolvers; i++)
		resolve_resolver(&s, &policy->resolvers[i]);
	if (diag->errors == errors_before)
		pfw_lint_shadowed(policy, diag);
	check_unused(&s);
	free(s.by_name);
	free(s.state);
	return diag->errors == errors_before;
}
