// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random policies and requests for the differential test (see generate.h).
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel_policy.h>

#include "backend.h"
#include "generate.h"
#include "sandbox_names.h"

/* splitmix64: tiny, fast, and good enough to scatter test cases. */
void gen_seed(struct gen_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t gen_next(struct gen_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t gen_below(struct gen_rng *rng, uint32_t bound)
{
	return (uint32_t)(gen_next(rng) % bound);
}

static int chance(struct gen_rng *rng, unsigned int percent)
{
	return gen_below(rng, 100) < percent;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PICK(rng, a) ((a)[gen_below(rng, ARRAY_SIZE(a))])

/*
 * The path universe.  Directories nest (/usr, /usr/bin, /usr/bin/sub) so
 * that child and tree globs of different levels overlap, and /usr/binx and
 * /opt/apps share a string prefix with a directory without being below it.
 * "" is the root directory, as the parser stores it.  /var/lib/flatpak/app
 * and /snap hold the folders of sandbox identities ("flatpak ID", "snap
 * NAME": sandbox_names.h), among paths of the same identity, of another
 * whose name begins with its name, of a runtime and of a user's
 * installation.
 */
static const char *const pattern_dirs[] = {
	"",	    "/usr",	   "/usr/bin", "/usr/bin/sub",
	"/opt/app", "/var/lib/flatpak/app", "/snap",
};

static const char *const concrete_paths[] = {
	"/a",
	"/usr",
	"/usr/a",
	"/usr/bin",
	"/usr/bin/a",
	"/usr/bin/python3",
	"/usr/bin/sub",
	"/usr/bin/sub/a",
	"/usr/bin/sub/deeper/a",
	"/usr/binx/a",
	"/opt/app",
	"/opt/app/a",
	"/opt/app/x/y",
	"/opt/apps/a",
	"/home/u/a",
	"/var/lib/flatpak/app/org.a.B",
	"/var/lib/flatpak/app/org.a.B/x86_64/stable/c0/files/bin/b",
	"/var/lib/flatpak/app/org.a.B.Locale/x86_64/stable/c1/files/a",
	"/var/lib/flatpak/runtime/org.a.B/x86_64/stable/c2/files/bin/sh",
	"/home/u/.local/share/flatpak/app/org.a.B/x86_64/stable/c0/files/bin/b",
	"/snap/fx",
	"/snap/fx/12/usr/bin/fx",
	"/snap/fx_2/3/usr/bin/fx",
	"/snap/fxy/1/a",
};

/* Sandbox identities, two of them the beginning of another's name. */
static const struct {
	enum pfw_sandbox kind;
	const char *id;
} sandbox_ids[] = {
	{ PFW_SANDBOX_FLATPAK, "org.a.B" },
	{ PFW_SANDBOX_FLATPAK, "org.a.B.Locale" },
	{ PFW_SANDBOX_SNAP, "fx" },
	{ PFW_SANDBOX_SNAP, "fx_2" },
};

/*
 * The kernel's name for an unnamed executable or script (PFSEL_UNNAMED_PATH
 * of security/pfsel/policydb.h, which this file does not include).
 */
static const char unnamed_path[] = "?";

/* IPv4 prefixes, written as IPv4 and stored IPv4-mapped. */
static const struct {
	const char *addr;
	uint8_t len;
} v4_prefixes[] = {
	{ "0.0.0.0", 0 },	   { "0.0.0.0", 32 },  { "10.0.0.0", 8 },
	{ "10.1.0.0", 16 },	   { "10.1.2.0", 24 }, { "10.1.2.128", 25 },
	{ "10.1.2.3", 32 },	   { "127.0.0.0", 8 }, { "192.168.1.0", 24 },
	{ "255.255.255.255", 32 }, { "128.0.0.0", 1 },
};

static const struct {
	const char *addr;
	uint8_t len;
} v6_prefixes[] = {
	{ "::", 0 },
	{ "::", 128 },
	{ "::1", 128 },
	{ "::", 96 },
	{ "::ffff:0:0", 96 },
	{ "2001:db8::", 32 },
	{ "2001:db8:1::", 48 },
	{ "2001:db8::1", 128 },
	{ "fe80::", 10 },
	{ "8000::", 1 },
};

/* Addresses worth asking about whatever the rules say. */
static const char *const edge_addresses[] = {
	"::", /* the IPv6 wildcard */
	"::ffff:0.0.0.0", /* the IPv4 wildcard, mapped */
	"::ffff:255.255.255.255",
	"::1",
	"::ffff:127.0.0.1",
	"::127.0.0.1", /* IPv4-compatible: an IPv6 address */
	"::fffe:ffff:ffff", /* just below ::ffff:0:0/96 */
	"::1:0:0:0", /* just above it */
	"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	"2001:db8::1",
};

/*
 * Host names.  A small alphabet so that patterns and names collide: "x"
 * with a name and a wildcard below it, one more level (c.a.x) under a.x,
 * and names that look alike without matching ("ax" is not below "x").
 */
static const char *const host_pattern_names[] = {
	"x", "a.x", "b.x", "c.a.x",
};

static const char *const request_names[] = {
	"x", "a.x", "b.x", "c.a.x", "d.c.a.x", "b.a.x", "ax", "y", "a.y",
};

/* Most host elements of a random rule. */
#define GEN_MAX_HOSTS 3

static const uint16_t port_pool[] = {
	0, 1, 22, 79, 80, 81, 443, 1023, 1024, 1025, 8080, 65534, 65535,
};

static void parse_addr(const char *text, uint8_t out[16])
{
	struct in_addr v4;

	if (inet_pton(AF_INET6, text, out) == 1)
		return;
	if (inet_pton(AF_INET, text, &v4) != 1)
		abort(); /* a typo in the tables above */
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, &v4, 4);
}

static void mask_host_bits(struct pfw_cidr *cidr)
{
	for (unsigned int bit = cidr->prefix_len; bit < 128; bit++)
		cidr->addr[bit / 8] &= (uint8_t) ~(0x80u >> (bit % 8));
}

static void random_cidr(struct gen_rng *rng, struct pfw_cidr *cidr)
{
	unsigned int pick = gen_below(rng, 10);

	if (pick < 5) {
		unsigned int i = gen_below(rng, ARRAY_SIZE(v4_prefixes));

		parse_addr(v4_prefixes[i].addr, cidr->addr);
		cidr->prefix_len = 96 + v4_prefixes[i].len;
	} else if (pick < 8) {
		unsigned int i = gen_below(rng, ARRAY_SIZE(v6_prefixes));

		parse_addr(v6_prefixes[i].addr, cidr->addr);
		cidr->prefix_len = v6_prefixes[i].len;
	} else {
		/* An edge address under an arbitrary prefix length. */
		parse_addr(PICK(rng, edge_addresses), cidr->addr);
		cidr->prefix_len = (uint8_t)gen_below(rng, 129);
	}
	mask_host_bits(cidr);
}

static int cidr_compare(const void *a, const void *b)
{
	const struct pfw_cidr *x = a, *y = b;
	int by_addr = memcmp(x->addr, y->addr, 16);

	return by_addr ? by_addr : (int)x->prefix_len - (int)y->prefix_len;
}

static int cidr_inside(const struct pfw_cidr *inner,
		       const struct pfw_cidr *outer)
{
	return inner->prefix_len >= outer->prefix_len &&
	       pfw_cidr_contains(outer, inner->addr);
}

/*
 * Sema's form: sorted, pairwise disjoint.  Two prefixes are nested or
 * disjoint, so dropping every prefix inside another leaves them disjoint.
 */
static size_t normalise_cidrs(struct pfw_cidr *cidrs, size_t n)
{
	size_t kept = 0;

	qsort(cidrs, n, sizeof(*cidrs), cidr_compare);
	for (size_t i = 0; i < n; i++) {
		int inside = 0;

		for (size_t j = 0; j < n && !inside; j++)
			inside = j != i && cidr_inside(&cidrs[i], &cidrs[j]) &&
				 (cidrs[i].prefix_len != cidrs[j].prefix_len ||
				  j < i);
		if (!inside)
			cidrs[kept++] = cidrs[i];
	}
	return kept;
}

static int range_compare(const void *a, const void *b)
{
	const struct pfw_port_range *x = a, *y = b;

	return (int)x->first - (int)y->first;
}

/* Sema's form: sorted, disjoint and not adjacent. */
static size_t normalise_ranges(struct pfw_port_range *ranges, size_t n)
{
	size_t kept = 0;

	qsort(ranges, n, sizeof(*ranges), range_compare);
	for (size_t i = 0; i < n; i++) {
		struct pfw_port_range *last = kept ? &ranges[kept - 1] : NULL;

		if (last &&
		    (uint32_t)ranges[i].first <= (uint32_t)last->last + 1) {
			if (ranges[i].last > last->last)
				last->last = ranges[i].last;
		} else {
			ranges[kept++] = ranges[i];
		}
	}
	return kept;
}

static int random_path_pattern(struct gen_rng *rng,
			       struct pfw_path_pattern *pattern)
{
	switch (gen_below(rng, 5)) {
	case 0:
		pattern->kind = PFW_PATH_ANY;
		pattern->path = NULL;
		return 0;
	case 4: {
		const unsigned int i = gen_below(rng, ARRAY_SIZE(sandbox_ids));

		/* "flatpak ID", "snap NAME", as the parser makes them. */
		pfw_sandbox_pattern(sandbox_ids[i].kind, sandbox_ids[i].id,
				    pattern);
		break;
	}
	case 1:
		pattern->kind = PFW_PATH_EXACT;
		pattern->path = strdup(PICK(rng, concrete_paths));
		break;
	case 2:
		pattern->kind = PFW_PATH_CHILD;
		pattern->path = strdup(PICK(rng, pattern_dirs));
		break;
	default:
		pattern->kind = PFW_PATH_TREE;
		pattern->path = strdup(PICK(rng, pattern_dirs));
		break;
	}
	return pattern->path ? 0 : -1;
}

static void free_app(struct pfw_app *app)
{
	free(app->exe.path);
	free(app->script.path);
}

static int random_apps(struct gen_rng *rng, struct pfw_rule *rule)
{
	size_t wanted = 1 + gen_below(rng, 3);

	rule->apps = calloc(wanted, sizeof(*rule->apps));
	if (!rule->apps)
		return -1;
	for (size_t i = 0; i < wanted; i++) {
		struct pfw_app app = { .loc = rule->loc };
		int contained = 0;

		/* Mostly "*" alone, so that address and port rules interact. */
		if (i == 0 && chance(rng, 30)) {
			app.exe.kind = PFW_PATH_ANY;
		} else {
			if (random_path_pattern(rng, &app.exe))
				return -1;
			app.is_script = chance(rng, 25);
			if (app.is_script &&
			    random_path_pattern(rng, &app.script)) {
				free_app(&app);
				return -1;
			}
		}
		/* Sema drops a pattern contained in another of the rule. */
		for (size_t j = 0; j < rule->n_apps && !contained; j++)
			contained = pfw_app_contains(&rule->apps[j], &app);
		if (contained) {
			free_app(&app);
			continue;
		}
		for (size_t j = 0; j < rule->n_apps;) {
			if (pfw_app_contains(&app, &rule->apps[j])) {
				free_app(&rule->apps[j]);
				memmove(&rule->apps[j], &rule->apps[j + 1],
					(rule->n_apps - j - 1) *
						sizeof(*rule->apps));
				rule->n_apps--;
			} else {
				j++;
			}
		}
		rule->apps[rule->n_apps++] = app;
	}
	return 0;
}

static int random_addrs(struct gen_rng *rng, struct pfw_rule *rule)
{
	size_t wanted = 1 + gen_below(rng, 3);

	rule->addrs = calloc(wanted, sizeof(*rule->addrs));
	if (!rule->addrs)
		return -1;
	for (size_t i = 0; i < wanted; i++)
		random_cidr(rng, &rule->addrs[i]);
	rule->n_addrs = normalise_cidrs(rule->addrs, wanted);
	return 0;
}

static int host_compare(const void *a, const void *b)
{
	const struct pfw_host *x = a, *y = b;

	if (x->below != y->below)
		return x->below ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * Sema's form of a rule's host elements: sorted by (below, name), none
 * inside another (of two equal ones, the first stays).  @n is at most
 * GEN_MAX_HOSTS.
 */
static size_t normalise_hosts(struct pfw_host *hosts, size_t n)
{
	bool inside[GEN_MAX_HOSTS] = { false };
	size_t kept = 0;

	qsort(hosts, n, sizeof(*hosts), host_compare);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && !inside[i]; j++)
			inside[i] = j != i &&
				    pfw_host_contains(&hosts[j], &hosts[i]) &&
				    (!pfw_host_contains(&hosts[i], &hosts[j]) ||
				     j < i);
	for (size_t i = 0; i < n; i++) {
		if (inside[i])
			free(hosts[i].name);
		else
			hosts[kept++] = hosts[i];
	}
	return kept;
}

/* "host NAME" or "host *.NAME" elements, 1 to GEN_MAX_HOSTS of them. */
static int random_hosts(struct gen_rng *rng, struct pfw_rule *rule)
{
	size_t wanted = 1 + gen_below(rng, GEN_MAX_HOSTS);

	rule->hosts = calloc(wanted, sizeof(*rule->hosts));
	if (!rule->hosts)
		return -1;
	for (size_t i = 0; i < wanted; i++) {
		struct pfw_host *host = &rule->hosts[rule->n_hosts];

		host->name = strdup(PICK(rng, host_pattern_names));
		if (!host->name)
			return -1;
		host->below = chance(rng, 50);
		host->loc = rule->loc;
		rule->n_hosts++;
	}
	rule->n_hosts = normalise_hosts(rule->hosts, rule->n_hosts);
	return 0;
}

static int random_ports(struct gen_rng *rng, struct pfw_rule *rule)
{
	size_t wanted = 1 + gen_below(rng, 3);

	rule->ports = calloc(wanted, sizeof(*rule->ports));
	if (!rule->ports)
		return -1;
	for (size_t i = 0; i < wanted; i++) {
		uint16_t a = PICK(rng, port_pool), b = PICK(rng, port_pool);

		if (chance(rng, 40))
			b = a;
		rule->ports[i].first = a < b ? a : b;
		rule->ports[i].last = a < b ? b : a;
	}
	rule->n_ports = normalise_ranges(rule->ports, wanted);
	return 0;
}

static uint32_t random_subset(struct gen_rng *rng, uint32_t all)
{
	uint32_t set;

	do
		set = (uint32_t)gen_next(rng) & all;
	while (!set);
	return set;
}

static int random_rule(struct gen_rng *rng, struct pfw_policy *policy,
		       uint32_t index)
{
	struct pfw_rule *rule = &policy->rules[index];

	rule->loc = (struct pfw_loc){ policy->files[0], index + 1, 1 };
	rule->index = index;
	rule->shadowed_by = -1;
	rule->verdict = (enum pfw_verdict)gen_below(rng, 3);
	rule->audit = gen_below(rng, 4);

	/* Mostly one kind of operation, sometimes any mix. */
	switch (gen_below(rng, 4)) {
	case 0:
		rule->ops = PFW_OP_CREATE;
		break;
	case 1:
		rule->ops = random_subset(rng, PFW_OP_ALL);
		break;
	default:
		rule->ops = random_subset(rng, PFW_OP_ADDRESSED);
		break;
	}
	rule->protos = random_subset(rng, PFW_PROTO_ALL);
	rule->families = chance(rng, 70) ? PFW_FAMILY_ALL :
					   random_subset(rng, PFW_FAMILY_ALL);

	if (random_apps(rng, rule))
		return -1;
	/*
	 * Now and then "protect", seldom on a rule for every program (it
	 * protects them all, and then there is nothing left to tell apart).
	 */
	for (size_t i = 0; i < rule->n_apps; i++)
		if (rule->apps[i].exe.kind == PFW_PATH_ANY &&
		    !rule->apps[i].is_script)
			rule->protect = true;
	rule->protect = chance(rng, rule->protect ? 3 : 20);

	/* Create requests have neither address nor port (ast.h invariants). */
	rule->any_addr = (rule->ops & PFW_OP_CREATE) || chance(rng, 35);
	if (!rule->any_addr) {
		/*
		 * Host elements (never with create, and for both families:
		 * ast.h), alone or mixed with prefixes.
		 */
		bool hosts = chance(rng, 35), addrs = !hosts || chance(rng, 50);

		if (addrs && random_addrs(rng, rule))
			return -1;
		if (hosts) {
			if (random_hosts(rng, rule))
				return -1;
			rule->families = PFW_FAMILY_ALL;
		}
		rule->protos &= ~(uint32_t)PFW_PROTO_PACKET;
		if (!rule->protos)
			rule->protos = PFW_PROTO_TCP;
	}
	rule->any_port = (rule->ops & PFW_OP_CREATE) || chance(rng, 40);
	if (!rule->any_port) {
		if (random_ports(rng, rule))
			return -1;
		rule->protos &= PFW_PROTO_PORTED;
		if (!rule->protos)
			rule->protos = chance(rng, 50) ? PFW_PROTO_TCP :
							 PFW_PROTO_UDP;
	}
	return 0;
}

struct pfw_policy *gen_policy(struct gen_rng *rng, unsigned int max_rules)
{
	struct pfw_policy *policy = calloc(1, sizeof(*policy));
	size_t n_rules = 1 + gen_below(rng, max_rules);

	if (!policy)
		return NULL;
	policy->files = calloc(1, sizeof(*policy->files));
	if (!policy->files)
		goto fail;
	policy->files[0] = strdup("random.pfw");
	if (!policy->files[0])
		goto fail;
	policy->n_files = 1;

	policy->settings.default_verdict = (enum pfw_verdict)gen_below(rng, 3);
	policy->settings.default_audit = gen_below(rng, 4);
	policy->settings.ask_timeout_ms = PFW_ASK_TIMEOUT_DEFAULT_MS;
	policy->settings.no_answer = PFW_VERDICT_DENY;
	policy->settings.has_uid = true;
	policy->settings.uid = 1000;

	policy->rules = calloc(n_rules, sizeof(*policy->rules));
	if (!policy->rules)
		goto fail;
	for (size_t i = 0; i < n_rules; i++) {
		policy->n_rules = i + 1; /* so that a failure frees this one */
		if (random_rule(rng, policy, (uint32_t)i))
			goto fail;
	}
	return policy;
fail:
	pfw_policy_free(policy);
	return NULL;
}

static const struct pfw_rule *random_rule_of(struct gen_rng *rng,
					     const struct pfw_policy *policy)
{
	return &policy->rules[gen_below(rng, (uint32_t)policy->n_rules)];
}

/* 128-bit address arithmetic, for "one past the end" of a prefix. */
static void addr_step(uint8_t addr[16], int delta)
{
	for (int i = 15; i >= 0; i--) {
		unsigned int old = addr[i];

		addr[i] = (uint8_t)(old + delta);
		if ((delta > 0 && old != 0xff) || (delta < 0 && old != 0))
			return;
	}
}

static void random_request_addr(struct gen_rng *rng,
				const struct pfw_policy *policy,
				uint8_t addr[16])
{
	const struct pfw_rule *rule = random_rule_of(rng, policy);
	uint8_t first[16], last[16];
	const struct pfw_cidr *cidr;

	/* A rule of host elements only has no prefix to aim at. */
	if (rule->any_addr || !rule->n_addrs || chance(rng, 25)) {
		parse_addr(PICK(rng, edge_addresses), addr);
		return;
	}
	cidr = &rule->addrs[gen_below(rng, (uint32_t)rule->n_addrs)];
	pfw_cidr_bounds(cidr, first, last);
	switch (gen_below(rng, 5)) {
	case 0:
		memcpy(addr, first, 16);
		break;
	case 1:
		memcpy(addr, last, 16);
		break;
	case 2:
		memcpy(addr, first, 16);
		addr_step(addr, -1);
		break;
	case 3:
		memcpy(addr, last, 16);
		addr_step(addr, +1);
		break;
	default:
		/* Somewhere inside. */
		memcpy(addr, first, 16);
		for (unsigned int bit = cidr->prefix_len; bit < 128; bit++)
			if (chance(rng, 50))
				addr[bit / 8] |= (uint8_t)(0x80u >> (bit % 8));
		break;
	}
}

static uint16_t random_request_port(struct gen_rng *rng,
				    const struct pfw_policy *policy)
{
	const struct pfw_rule *rule = random_rule_of(rng, policy);
	const struct pfw_port_range *range;

	if (rule->any_port || chance(rng, 20))
		return chance(rng, 50) ? PICK(rng, port_pool) :
					 (uint16_t)gen_below(rng, 65536);
	range = &rule->ports[gen_below(rng, (uint32_t)rule->n_ports)];
	switch (gen_below(rng, 4)) {
	case 0:
		return range->first;
	case 1:
		return range->last;
	case 2:
		return (uint16_t)(range->first - 1); /* 0 - 1 wraps to 65535 */
	default:
		return (uint16_t)(range->last + 1);
	}
}

/* A path that @pattern matches (one level below a CHILD or TREE dir, or two). */
static void path_in(struct gen_rng *rng, const struct pfw_path_pattern *pattern,
		    char *out, size_t size)
{
	switch (pattern->kind) {
	case PFW_PATH_EXACT:
		snprintf(out, size, "%s", pattern->path);
		break;
	case PFW_PATH_CHILD:
		snprintf(out, size, "%s/a", pattern->path);
		break;
	case PFW_PATH_TREE:
		snprintf(out, size, "%s/%s", pattern->path,
			 chance(rng, 50) ? "a" : "x/y");
		break;
	default:
		snprintf(out, size, "%s", PICK(rng, concrete_paths));
		break;
	}
}

/* One bit of a non-empty @set, at random. */
static uint32_t random_member(struct gen_rng *rng, uint32_t set)
{
	uint32_t bit;

	do
		bit = 1u << gen_below(rng, 32);
	while (!(set & bit));
	return bit;
}

/*
 * The application, operation and protocol of a request: from the pools, or
 * (more often) made to match one rule's, so that rules decide a good share
 * of requests and the order among overlapping rules gets tested.
 */
static void random_request_subject(struct gen_rng *rng,
				   const struct pfw_rule *rule,
				   struct gen_request *out)
{
	struct pfw_request *request = &out->request;
	const struct pfw_app *app =
		&rule->apps[gen_below(rng, (uint32_t)rule->n_apps)];

	if (chance(rng, 40)) {
		snprintf(out->exe, sizeof(out->exe), "%s",
			 PICK(rng, concrete_paths));
		if (chance(rng, 40)) {
			snprintf(out->script, sizeof(out->script), "%s",
				 PICK(rng, concrete_paths));
			request->script = out->script;
		}
		request->op = (enum pfw_op)(1u << gen_below(rng, 5));
		request->proto = (enum pfw_proto)(1u << gen_below(rng, 5));
		return;
	}
	path_in(rng, &app->exe, out->exe, sizeof(out->exe));
	if (app->is_script || chance(rng, 25)) {
		path_in(rng, &app->script, out->script, sizeof(out->script));
		request->script = out->script;
	}
	/*
	 * Now and then the executable or the script is one the kernel could
	 * not name (security/pfsel/app.c): only "*" matches it, and every
	 * glob below "/" misses it.
	 */
	if (chance(rng, 10))
		snprintf(out->exe, sizeof(out->exe), "%s", unnamed_path);
	if (chance(rng, 10)) {
		snprintf(out->script, sizeof(out->script), "%s", unnamed_path);
		request->script = out->script;
	}
	request->op = (enum pfw_op)random_member(rng, rule->ops);
	request->proto = (enum pfw_proto)random_member(rng, rule->protos);
}

/*
 * 0 to GEN_MAX_NAMES distinct names the kernel might know for the
 * address: mostly from the pool, now and then one a rule's host element
 * names (or a name one label below it), so that host rules decide.
 */
static void random_request_names(struct gen_rng *rng,
				 const struct pfw_policy *policy,
				 const struct pfw_rule *subject,
				 struct gen_request *out)
{
	size_t wanted = gen_below(rng, GEN_MAX_NAMES + 1);

	for (size_t i = 0; i < wanted; i++) {
		const struct pfw_rule *rule =
			chance(rng, 50) ? subject : random_rule_of(rng, policy);
		char *name = out->name_text[out->request.n_names];
		bool seen = false;

		if (rule->n_hosts && chance(rng, 70)) {
			const struct pfw_host *host =
				&rule->hosts[gen_below(rng, (uint32_t)rule->n_hosts)];

			snprintf(name, sizeof(out->name_text[0]), "%s%s",
				 chance(rng, 50) ? "e." : "", host->name);
		} else {
			snprintf(name, sizeof(out->name_text[0]), "%s",
				 PICK(rng, request_names));
		}
		for (size_t j = 0; j < out->request.n_names && !seen; j++)
			seen = strcmp(out->names[j], name) == 0;
		if (seen)
			continue;
		out->names[out->request.n_names++] = name;
	}
	out->request.names = out->names;
}

void gen_request(struct gen_rng *rng, const struct pfw_policy *policy,
		 struct gen_request *out)
{
	struct pfw_request *request = &out->request;

	const struct pfw_rule *subject = random_rule_of(rng, policy);

	memset(out, 0, sizeof(*out));
	request->exe = out->exe;
	/* Often a rule with host elements, so that names get to decide. */
	for (int tries = 0; tries < 3 && !subject->n_hosts; tries++)
		subject = random_rule_of(rng, policy);
	random_request_subject(rng, subject, out);
	request->family = chance(rng, 50) ? PFW_FAMILY_INET : PFW_FAMILY_INET6;
	if (request->op == PFW_OP_CREATE)
		return;
	random_request_addr(rng, policy, request->addr);
	if (request->proto & PFW_PROTO_PORTED)
		request->port = random_request_port(rng, policy);
	random_request_names(rng, policy, subject, out);
}

/*
 * The compiler's names of the format's values (backend.h, from
 * uapi/pfsel_names.h): bit i of an AST set is value i.
 */
static void print_bits(FILE *out, uint32_t set,
		       const char *(*name)(uint32_t value), size_t n_names)
{
	const char *sep = "";

	for (size_t i = 0; i < n_names; i++) {
		if (set & (1u << i)) {
			fprintf(out, "%s%s", sep, name(i));
			sep = ",";
		}
	}
}

static void print_path_pattern(FILE *out, const struct pfw_path_pattern *p)
{
	static const char *const suffix[] = { "*", "", "/*", "/**" };

	fprintf(out, "%s%s", p->path ? p->path : "", suffix[p->kind]);
}

static void print_addr(FILE *out, const uint8_t addr[16])
{
	char text[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, addr, text, sizeof(text));
	fputs(text, out);
}

static void print_audit(FILE *out, uint32_t audit)
{
	if (audit & PFW_AUDIT_LOG_ALLOWED)
		fputs(" log", out);
	if (audit & PFW_AUDIT_QUIET_DENIAL)
		fputs(" quiet", out);
}

void gen_print_policy(FILE *out, const struct pfw_policy *policy)
{
	fprintf(out, "default %s",
		pfw_verdict_name(policy->settings.default_verdict));
	print_audit(out, policy->settings.default_audit);
	fputs(";\n", out);
	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct pfw_rule *rule = &policy->rules[i];

		fprintf(out, "%zu: %s", i, pfw_verdict_name(rule->verdict));
		print_audit(out, rule->audit);
		if (rule->protect)
			fputs(" protect", out);
		fputs(" app ", out);
		for (size_t j = 0; j < rule->n_apps; j++) {
			fputs(j ? "," : "", out);
			print_path_pattern(out, &rule->apps[j].exe);
			if (rule->apps[j].is_script) {
				fputs(" script ", out);
				print_path_pattern(out, &rule->apps[j].script);
			}
		}
		fputs(" op ", out);
		print_bits(out, rule->ops, pfw_op_name, PFSEL_OP_COUNT);
		fputs(" proto ", out);
		print_bits(out, rule->protos, pfw_proto_name,
			   PFSEL_PROTO_COUNT);
		fprintf(out, " family %s%s", rule->families & 1 ? "4" : "",
			rule->families & 2 ? "6" : "");
		fputs(" to ", out);
		if (rule->any_addr)
			fputs("any", out);
		for (size_t j = 0; j < rule->n_addrs; j++) {
			fputs(j ? "," : "", out);
			print_addr(out, rule->addrs[j].addr);
			fprintf(out, "/%u", rule->addrs[j].prefix_len);
		}
		for (size_t j = 0; j < rule->n_hosts; j++)
			fprintf(out, "%shost %s%s", j || rule->n_addrs ? "," : "",
				rule->hosts[j].below ? "*." : "",
				rule->hosts[j].name);
		fputs(" port ", out);
		if (rule->any_port)
			fputs("any", out);
		for (size_t j = 0; j < rule->n_ports; j++)
			fprintf(out, "%s%u-%u", j ? "," : "",
				rule->ports[j].first, rule->ports[j].last);
		fputs(";\n", out);
	}
}

void gen_print_request(FILE *out, const struct pfw_request *request)
{
	fprintf(out, "exe %s script %s op ", request->exe,
		request->script ? request->script : "-");
	print_bits(out, request->op, pfw_op_name, PFSEL_OP_COUNT);
	fputs(" proto ", out);
	print_bits(out, request->proto, pfw_proto_name, PFSEL_PROTO_COUNT);
	if (request->op == PFW_OP_CREATE) {
		fprintf(out, " family %s\n",
			request->family == PFW_FAMILY_INET ? "inet" : "inet6");
		return;
	}
	fputs(" addr ", out);
	print_addr(out, request->addr);
	fprintf(out, " port %u", request->port);
	if (request->n_names)
		fputs(" names ", out);
	for (size_t i = 0; i < request->n_names; i++)
		fprintf(out, "%s%s", i ? "," : "", request->names[i]);
	fputc('\n', out);
}
