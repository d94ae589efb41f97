// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reference interpreter (see reference.h).
 *
 * Deliberately naive: every request walks every rule, and every dimension is
 * matched by the most literal reading of policy/LANGUAGE.md.  It does not use
 * the matching helpers of ast.c either, so that a misreading there shows up
 * as a disagreement here instead of being shared.
 */
#include <stdbool.h>
#include <string.h>

#include "reference.h"

/*
 * A directory glob (DIR/ followed by one or two stars) matches a path below
 * DIR.  The parser stores DIR "/" as "", so "DIR/" is always the prefix to
 * look for.
 */
static bool path_matches(const struct pfw_path_pattern *pattern,
			 const char *path)
{
	size_t dir_len;
	const char *rest;

	if (pattern->kind == PFW_PATH_ANY)
		return true;
	if (pattern->kind == PFW_PATH_EXACT)
		return strcmp(pattern->path, path) == 0;

	dir_len = strlen(pattern->path);
	if (strncmp(path, pattern->path, dir_len) != 0 || path[dir_len] != '/')
		return false;
	rest = path + dir_len + 1;
	if (rest[0] == '\0')
		return false;
	if (pattern->kind == PFW_PATH_CHILD)
		return strchr(rest, '/') == NULL;
	return true; /* PFW_PATH_TREE: any depth */
}

static bool app_matches(const struct pfw_app *app, const char *exe,
			const char *script)
{
	if (!path_matches(&app->exe, exe))
		return false;
	if (!app->is_script)
		return true;
	return script && path_matches(&app->script, script);
}

static bool cidr_contains(const struct pfw_cidr *cidr, const uint8_t addr[16])
{
	for (unsigned int bit = 0; bit < cidr->prefix_len; bit++) {
		unsigned int byte = bit / 8, mask = 0x80u >> (bit % 8);

		if ((cidr->addr[byte] & mask) != (addr[byte] & mask))
			return false;
	}
	return true;
}

/*
 * LANGUAGE.md, "Host names": "host NAME" matches that name; "host *.NAME"
 * any name ending in "." NAME with at least one label before it.  Names
 * are compared byte for byte (both sides are in lower case).
 */
static bool host_matches(const struct pfw_host *host, const char *name)
{
	size_t len = strlen(name), pattern_len = strlen(host->name);

	if (!host->below)
		return strcmp(name, host->name) == 0;
	if (len < pattern_len + 2)
		return false;
	return name[len - pattern_len - 1] == '.' &&
	       memcmp(name + len - pattern_len, host->name, pattern_len) == 0;
}

/*
 * The address is in the rule's prefixes, or some name the kernel knows
 * for it matches some host element of the rule.
 */
static bool address_matches(const struct pfw_rule *rule,
			    const struct pfw_request *request)
{
	if (rule->any_addr)
		return true;
	for (size_t i = 0; i < rule->n_addrs; i++)
		if (cidr_contains(&rule->addrs[i], request->addr))
			return true;
	for (size_t i = 0; i < rule->n_hosts; i++)
		for (size_t j = 0; j < request->n_names; j++)
			if (host_matches(&rule->hosts[i], request->names[j]))
				return true;
	return false;
}

/*
 * A create request has the socket's family; any other request has the
 * family of its address: IPv4 (or IPv4-mapped, the same thing here) when it
 * lies in ::ffff:0:0/96, IPv6 otherwise.
 */
static enum pfw_family request_family(const struct pfw_request *request)
{
	static const uint8_t v4_mapped_prefix[12] = { [10] = 0xff, [11] = 0xff };

	if (request->op == PFW_OP_CREATE)
		return request->family;
	if (memcmp(request->addr, v4_mapped_prefix, 12) == 0)
		return PFW_FAMILY_INET;
	return PFW_FAMILY_INET6;
}

static bool rule_matches(const struct pfw_rule *rule,
			 const struct pfw_request *request)
{
	bool found;

	if (!(rule->ops & request->op) || !(rule->protos & request->proto))
		return false;

	found = false;
	for (size_t i = 0; i < rule->n_apps && !found; i++)
		found = app_matches(&rule->apps[i], request->exe,
				    request->script);
	if (!found)
		return false;

	/* A packet socket has no inet family to match on. */
	if (request->proto != PFW_PROTO_PACKET &&
	    !(rule->families & request_family(request)))
		return false;

	if (request->op == PFW_OP_CREATE)
		return true;

	if (!address_matches(rule, request))
		return false;

	found = rule->any_port;
	for (size_t i = 0; i < rule->n_ports && !found; i++)
		found = rule->ports[i].first <= request->port &&
			request->port <= rule->ports[i].last;
	return found;
}

void ref_decide(const struct pfw_policy *policy,
		const struct pfw_request *request,
		struct ref_decision *decision)
{
	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct pfw_rule *rule = &policy->rules[i];

		if (rule_matches(rule, request)) {
			decision->verdict = rule->verdict;
			decision->audit = rule->audit;
			decision->rule = (long)i;
			return;
		}
	}
	decision->verdict = policy->settings.default_verdict;
	decision->audit = policy->settings.default_audit;
	decision->rule = -1;
}

bool ref_protected(const struct pfw_policy *policy, const char *exe,
		   const char *script)
{
	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct pfw_rule *rule = &policy->rules[i];

		if (!rule->protect)
			continue;
		for (size_t j = 0; j < rule->n_apps; j++)
			if (app_matches(&rule->apps[j], exe, script))
				return true;
	}
	return false;
}
