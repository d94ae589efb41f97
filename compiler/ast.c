// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - freeing the AST, and the normative matching helpers on it
 *
 * The helpers here define what a rule matches; the reference interpreter,
 * sema's overlap analysis and the tests all lean on them, so a change of
 * semantics has one place to happen (and policy/LANGUAGE.md to follow).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "sandbox_names.h"

static void free_apps(struct pfw_app *apps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(apps[i].exe.path);
		free(apps[i].script.path);
	}
	free(apps);
}

static void free_refs(struct pfw_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(refs[i].name);
	free(refs);
}

static void free_hosts(struct pfw_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(hosts[i].name);
	free(hosts);
}

void pfw_rule_fini(struct pfw_rule *rule)
{
	free_apps(rule->apps, rule->n_apps);
	free(rule->addrs);
	free_hosts(rule->hosts, rule->n_hosts);
	free(rule->ports);
	free_refs(rule->app_refs, rule->n_app_refs);
	free_refs(rule->addr_refs, rule->n_addr_refs);
	free_refs(rule->port_refs, rule->n_port_refs);
}

void pfw_policy_free(struct pfw_policy *policy)
{
	if (!policy)
		return;
	for (size_t i = 0; i < policy->n_rules; i++)
		pfw_rule_fini(&policy->rules[i]);
	free(policy->rules);
	for (size_t i = 0; i < policy->n_defs; i++) {
		struct pfw_def *def = &policy->defs[i];

		free(def->name);
		free_apps(def->apps, def->n_apps);
		free(def->addrs);
		free_hosts(def->hosts, def->n_hosts);
		free(def->ports);
		free_refs(def->refs, def->n_refs);
	}
	free(policy->defs);
	for (size_t i = 0; i < policy->n_resolvers; i++) {
		free_apps(policy->resolvers[i].apps,
			  policy->resolvers[i].n_apps);
		free_refs(policy->resolvers[i].app_refs,
			  policy->resolvers[i].n_app_refs);
	}
	free(policy->resolvers);
	for (size_t i = 0; i < policy->n_files; i++)
		free(policy->files[i]);
	free(policy->files);
	free(policy);
}

/*
 * True if @path lies strictly below directory @dir ("" is the root), at any
 * depth.
 */
static bool path_is_below(const char *path, const char *dir)
{
	size_t dir_len = strlen(dir);

	return strncmp(path, dir, dir_len) == 0 && path[dir_len] == '/' &&
	       path[dir_len + 1] != '\0';
}

/* True if @path is directly inside directory @dir (one component below). */
static bool path_is_child(const char *path, const char *dir)
{
	return path_is_below(path, dir) && !strchr(path + strlen(dir) + 1, '/');
}

bool pfw_path_matches(const struct pfw_path_pattern *pattern, const char *path)
{
	switch (pattern->kind) {
	case PFW_PATH_ANY:
		return true;
	case PFW_PATH_EXACT:
		return strcmp(pattern->path, path) == 0;
	case PFW_PATH_CHILD:
		return path_is_child(path, pattern->path);
	case PFW_PATH_TREE:
		return path_is_below(path, pattern->path);
	}
	return false;
}

/*
 * "/" followed by "**" matches every path the kernel can name, but not an
 * unnamed executable or script (LANGUAGE.md, section 5): only "*" matches
 * those.  So "/" followed by "**" is contained in "*" and does not contain
 * it, and a rule for "*" after one for every named path still decides the
 * unnamed applications.
 */
bool pfw_path_contains(const struct pfw_path_pattern *outer,
		       const struct pfw_path_pattern *inner)
{
	if (outer->kind == PFW_PATH_ANY)
		return true;
	if (inner->kind == PFW_PATH_ANY)
		return false;
	switch (outer->kind) {
	case PFW_PATH_EXACT:
		return inner->kind == PFW_PATH_EXACT &&
		       strcmp(outer->path, inner->path) == 0;
	case PFW_PATH_CHILD:
		if (inner->kind == PFW_PATH_EXACT)
			return path_is_child(inner->path, outer->path);
		return inner->kind == PFW_PATH_CHILD &&
		       strcmp(outer->path, inner->path) == 0;
	case PFW_PATH_TREE:
		if (inner->kind == PFW_PATH_EXACT)
			return path_is_below(inner->path, outer->path);
		return strcmp(outer->path, inner->path) == 0 ||
		       path_is_below(inner->path, outer->path);
	case PFW_PATH_ANY:
		break;
	}
	return true;
}

bool pfw_path_intersects(const struct pfw_path_pattern *a,
			 const struct pfw_path_pattern *b)
{
	/* Order the pair by kind so each combination is written once. */
	if (a->kind > b->kind) {
		const struct pfw_path_pattern *swap = a;

		a = b;
		b = swap;
	}
	if (a->kind == PFW_PATH_ANY)
		return true;
	if (a->kind == PFW_PATH_EXACT)
		return pfw_path_matches(b, a->path);
	if (strcmp(a->path, b->path) == 0)
		return true;
	if (a->kind == PFW_PATH_CHILD && b->kind == PFW_PATH_CHILD)
		return false;
	/* At least one is a tree: they meet if one directory holds the other. */
	if (a->kind == PFW_PATH_CHILD)
		return path_is_below(a->path, b->path);
	return path_is_below(a->path, b->path) ||
	       path_is_below(b->path, a->path);
}

bool pfw_app_matches(const struct pfw_app *app, const char *exe,
		     const char *script)
{
	if (!pfw_path_matches(&app->exe, exe))
		return false;
	if (!app->is_script)
		return true;
	return script && pfw_path_matches(&app->script, script);
}

bool pfw_app_contains(const struct pfw_app *outer, const struct pfw_app *inner)
{
	if (!pfw_path_contains(&outer->exe, &inner->exe))
		return false;
	if (!outer->is_script)
		return true;
	/* A plain pattern also matches processes that run no script. */
	return inner->is_script &&
	       pfw_path_contains(&outer->script, &inner->script);
}

bool pfw_app_intersects(const struct pfw_app *a, const struct pfw_app *b)
{
	if (!pfw_path_intersects(&a->exe, &b->exe))
		return false;
	if (!a->is_script || !b->is_script)
		return true;
	return pfw_path_intersects(&a->script, &b->script);
}

void pfw_cidr_bounds(const struct pfw_cidr *cidr, uint8_t first[16],
		     uint8_t last[16])
{
	for (unsigned int byte = 0; byte < 16; byte++) {
		unsigned int bits_left = cidr->prefix_len > byte * 8 ?
						 cidr->prefix_len - byte * 8 :
						 0;
		uint8_t mask = bits_left >= 8 ?
				       0xff :
				       (uint8_t)(0xff << (8 - bits_left));

		first[byte] = cidr->addr[byte] & mask;
		last[byte] = cidr->addr[byte] | (uint8_t)~mask;
	}
}

bool pfw_cidr_contains(const struct pfw_cidr *cidr, const uint8_t addr[16])
{
	uint8_t first[16], last[16];

	pfw_cidr_bounds(cidr, first, last);
	return memcmp(addr, first, 16) >= 0 && memcmp(addr, last, 16) <= 0;
}

static const uint8_t ipv4_mapped_prefix[12] = { 0, 0, 0, 0, 0,	  0,
						0, 0, 0, 0, 0xff, 0xff };

static enum pfw_family address_family(const uint8_t addr[16])
{
	return memcmp(addr, ipv4_mapped_prefix, 12) == 0 ? PFW_FAMILY_INET :
							   PFW_FAMILY_INET6;
}

/* True if @name ends in "." @suffix with at least one character before. */
static bool name_is_below(const char *name, const char *suffix)
{
	size_t len = strlen(name), slen = strlen(suffix);

	return len > slen + 1 && name[len - slen - 1] == '.' &&
	       strcmp(name + len - slen, suffix) == 0;
}

bool pfw_host_matches(const struct pfw_host *host, const char *name)
{
	return host->below ? name_is_below(name, host->name) :
			     strcmp(name, host->name) == 0;
}

bool pfw_host_contains(const struct pfw_host *outer,
		       const struct pfw_host *inner)
{
	if (!outer->below)
		return !inner->below && strcmp(outer->name, inner->name) == 0;
	/* "*.a" holds "b.a", "*.b.a" and "*.a"; not "a". */
	if (inner->below && strcmp(outer->name, inner->name) == 0)
		return true;
	return name_is_below(inner->name, outer->name);
}

char *pfw_host_format(const struct pfw_host *host, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", host->below ? "*." : "", host->name);
	return buf;
}

/* The address dimension: in the prefixes, or a known name matches a host. */
static bool address_matches(const struct pfw_rule *rule, const uint8_t addr[16],
			    const char *const *names, size_t n_names)
{
	if (rule->any_addr)
		return true;
	for (size_t i = 0; i < rule->n_addrs; i++)
		if (pfw_cidr_contains(&rule->addrs[i], addr))
			return true;
	for (size_t n = 0; n < n_names; n++)
		for (size_t i = 0; i < rule->n_hosts; i++)
			if (pfw_host_matches(&rule->hosts[i], names[n]))
				return true;
	return false;
}

bool pfw_rule_matches(const struct pfw_rule *rule, const char *exe,
		      const char *script, enum pfw_op op, enum pfw_proto proto,
		      enum pfw_family family, const uint8_t addr[16],
		      uint16_t port)
{
	return pfw_rule_matches_names(rule, exe, script, op, proto, family,
				      addr, port, NULL, 0);
}

bool pfw_rule_matches_names(const struct pfw_rule *rule, const char *exe,
			    const char *script, enum pfw_op op,
			    enum pfw_proto proto, enum pfw_family family,
			    const uint8_t addr[16], uint16_t port,
			    const char *const *names, size_t n_names)
{
	bool app_found = false;

	if (!(rule->ops & op) || !(rule->protos & proto))
		return false;
	if (proto != PFW_PROTO_PACKET) {
		if (op != PFW_OP_CREATE)
			family = address_family(addr);
		if (!(rule->families & family))
			return false;
	}
	for (size_t i = 0; i < rule->n_apps && !app_found; i++)
		app_found = pfw_app_matches(&rule->apps[i], exe, script);
	if (!app_found)
		return false;
	if (op == PFW_OP_CREATE)
		return true;
	if (!address_matches(rule, addr, names, n_names))
		return false;
	if (rule->any_port)
		return true;
	for (size_t i = 0; i < rule->n_ports; i++)
		if (port >= rule->ports[i].first && port <= rule->ports[i].last)
			return true;
	return false;
}

const struct pfw_rule *pfw_first_match(const struct pfw_policy *policy,
				       const struct pfw_request *request)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		if (pfw_rule_matches_names(&policy->rules[i], request->exe,
					   request->script, request->op,
					   request->proto, request->family,
					   request->addr, request->port,
					   request->names, request->n_names))
			return &policy->rules[i];
	return NULL;
}

void *pfw_xrealloc(void *ptr, size_t size)
{
	void *grown = realloc(ptr, size ? size : 1);

	if (!grown) {
		fputs("pfwc: out of memory\n", stderr);
		exit(3);
	}
	return grown;
}

char *pfw_xstrdup(const char *text)
{
	size_t len = strlen(text) + 1;

	return memcpy(pfw_xrealloc(NULL, len), text, len);
}

void *pfw_push(void **array, size_t *count, size_t elem_size)
{
	size_t n = *count;
	char *element;

	/* Grow at 0 and at every power of two: capacity needs no field. */
	if (n == 0 || (n & (n - 1)) == 0) {
		size_t capacity = n ? n * 2 : 1;

		if (capacity > SIZE_MAX / elem_size) {
			fputs("pfwc: out of memory\n", stderr);
			exit(3);
		}
		*array = pfw_xrealloc(*array, capacity * elem_size);
	}
	element = (char *)*array + n * elem_size;
	memset(element, 0, elem_size);
	*count = n + 1;
	return element;
}

/* A path byte that a bare path word may hold and a reader sees as is. */
static bool plain_path_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("/._-+@~%:", c));
}

const char *pfw_escape_byte(unsigned char c, char buf[5])
{
	if (c == '"' || c == '\\')
		snprintf(buf, 5, "\\%c", c);
	else if (c == '\n' || c == '\t' || c == '\r' || c == 0x1b)
		snprintf(buf, 5, "\\%c",
			 c == '\n' ? 'n' :
			 c == '\t' ? 't' :
			 c == '\r' ? 'r' :
				     'e');
	else if (c < 0x20 || c >= 0x7f)
		snprintf(buf, 5, "\\x%02x", c);
	else
		snprintf(buf, 5, "%c", c);
	return buf;
}

/*
 * @path as the language writes it: bare when plain, else quoted with the
 * lexer's escapes (LANGUAGE.md, "Exact paths"); bytes outside printable
 * ASCII, and '*', as \xNN (a quoted word never looks like a glob).  A
 * quoted text is always an exact path (or the DIR of
 * a glob that follows it).
 */
static void put_path_word(char *buf, size_t size, const char *path)
{
	size_t len = 0;
	bool plain = path[0] == '/';
	char esc[5];

	for (const char *p = path; *p && plain; p++)
		plain = plain_path_byte((unsigned char)*p);
	if (plain) {
		snprintf(buf, size, "%s", path);
		return;
	}
#define PUT(str)                                                           \
	do {                                                               \
		len += (size_t)snprintf(buf + (len < size ? len : size),   \
					len < size ? size - len : 0, "%s", \
					(str));                            \
	} while (0)
	PUT("\"");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		PUT(*p == '*' ? "\\x2a" : pfw_escape_byte(*p, esc));
	PUT("\"");
#undef PUT
}

char *pfw_path_format(const struct pfw_path_pattern *pattern, char *buf,
		      size_t size)
{
	static const char *const suffix[] = {
		[PFW_PATH_EXACT] = "",
		[PFW_PATH_CHILD] = "/*",
		[PFW_PATH_TREE] = "/**",
	};
	enum pfw_sandbox sandbox;
	const char *id;
	size_t used;

	if (!size)
		return buf;
	if (pattern->kind == PFW_PATH_ANY) {
		snprintf(buf, size, "*");
		return buf;
	}
	/* The same set of paths, as a person knows it. */
	sandbox = pfw_sandbox_of_pattern(pattern, &id);
	if (sandbox != PFW_SANDBOX_NONE) {
		snprintf(buf, size, "%s %s", pfw_sandbox_keyword(sandbox), id);
		return buf;
	}
	if (pattern->kind != PFW_PATH_EXACT && !pattern->path[0]) {
		/* The root directory: "/" + "*", "/" + "**". */
		snprintf(buf, size, "%s", suffix[pattern->kind]);
		return buf;
	}
	put_path_word(buf, size, pattern->path);
	used = strlen(buf);
	snprintf(buf + used, size - used, "%s", suffix[pattern->kind]);
	return buf;
}

char *pfw_app_format(const struct pfw_app *app, char *buf, size_t size)
{
	size_t used;

	pfw_path_format(&app->exe, buf, size);
	used = strlen(buf);
	if (app->is_script && used + 8 < size) {
		memcpy(buf + used, " script ", 9);
		pfw_path_format(&app->script, buf + used + 8, size - used - 8);
	}
	return buf;
}

char *pfw_cidr_format(const struct pfw_cidr *cidr, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (cidr->prefix_len >= 96 &&
	    address_family(cidr->addr) == PFW_FAMILY_INET) {
		inet_ntop(AF_INET, &cidr->addr[12], text, sizeof(text));
		snprintf(buf, size, "%s/%u", text, cidr->prefix_len - 96u);
	} else {
		inet_ntop(AF_INET6, cidr->addr, text, sizeof(text));
		snprintf(buf, size, "%s/%u", text, cidr->prefix_len);
	}
	return buf;
}
