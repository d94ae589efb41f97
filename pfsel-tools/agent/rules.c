// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the rule file of --rules: parse, and match questions.
 *
 * One rule a line, seven fields separated by blanks, '#' to the end of the
 * line a comment:
 *
 *   VERDICT SCOPE APP OP PROTO ADDRESS PORT
 *   allow   once  /usr/bin/curl connect tcp 192.0.2.0/24 80,443
 *
 * VERDICT allow|deny; SCOPE once|process|session|always; APP a pattern
 * as in .pfw (a star, a path, or a folder path followed by a slash and one
 * or two stars), or EXE:SCRIPT (a pattern each) to match a
 * script's interpreter and script; a plain pattern matches the executable
 * whether or not a script runs.  OP, PROTO: names, comma-separated, or '*'.
 * ADDRESS: addresses and prefixes (192.0.2.0/24, 2001:db8::/32; IPv4 is
 * IPv4-mapped as in the kernel), comma-separated, or '*' / 'any'.  PORT:
 * numbers and LOW-HIGH ranges, comma-separated, or '*' / 'any'.  The
 * address and port matched are the request's (PFSEL_ATTR_RADDR/RPORT); a
 * create request has neither, so only '*' matches it there.  The first
 * rule that matches decides.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

struct prefix {
	uint8_t addr[16];
	unsigned int len;
};

struct port_range {
	unsigned int low, high;
};

/* One application pattern: exact, one level below DIR, or any depth. */
enum pattern_kind { PAT_ANY, PAT_EXACT, PAT_CHILD, PAT_TREE };

struct pattern {
	enum pattern_kind kind;
	char *path; /* EXACT: the path; CHILD, TREE: "DIR/" */
};

struct rule {
	unsigned int line;
	struct agent_decision d;
	struct pattern exe;
	bool has_script;
	struct pattern script;
	unsigned int ops; /* bits of enum pfsel_op; all set for '*' */
	unsigned int protos; /* bits of enum pfsel_proto */
	bool any_addr;
	struct prefix *addrs;
	size_t n_addrs;
	bool any_port;
	struct port_range *ports;
	size_t n_ports;
};

struct agent_rules {
	struct rule *rules;
	size_t n;
};

static bool pattern_match(const struct pattern *p, const char *path)
{
	size_t len;

	switch (p->kind) {
	case PAT_ANY:
		return true;
	case PAT_EXACT:
		return !strcmp(p->path, path);
	case PAT_CHILD:
		len = strlen(p->path);
		return !strncmp(p->path, path, len) && path[len] &&
		       !strchr(path + len, '/');
	case PAT_TREE:
		len = strlen(p->path);
		return !strncmp(p->path, path, len) && path[len];
	}
	return false;
}

static int parse_pattern(const char *word, struct pattern *p)
{
	size_t len = strlen(word);

	memset(p, 0, sizeof(*p));
	if (!strcmp(word, "*")) {
		p->kind = PAT_ANY;
		return 0;
	}
	if (word[0] != '/')
		return -EINVAL;
	if (len >= 3 && !strcmp(word + len - 3, "/**")) {
		p->kind = PAT_TREE;
		len -= 2;
	} else if (len >= 2 && !strcmp(word + len - 2, "/*")) {
		p->kind = PAT_CHILD;
		len -= 1;
	} else {
		p->kind = PAT_EXACT;
	}
	if (memchr(word, '*', len))
		return -EINVAL;
	p->path = strndup(word, len);
	return p->path ? 0 : -ENOMEM;
}

/* A comma list of names into a bit set; '*' is every name. */
static int parse_names(char *word, int (*from_name)(const char *),
		       const unsigned int count, unsigned int *bits)
{
	char *save = NULL, *item;
	int v;

	if (!strcmp(word, "*") || !strcmp(word, "any")) {
		*bits = (1u << count) - 1;
		return 0;
	}
	*bits = 0;
	for (item = strtok_r(word, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		v = from_name(item);
		if (v < 0)
			return -EINVAL;
		*bits |= 1u << v;
	}
	return *bits ? 0 : -EINVAL;
}

static int parse_prefix(char *item, struct prefix *p)
{
	char *slash = strchr(item, '/');
	unsigned long len;
	char *end;
	bool v4;

	if (slash)
		*slash = '\0';
	if (pfsel_parse_addr(item, p->addr))
		return -EINVAL;
	v4 = strchr(item, ':') == NULL;
	p->len = 128;
	if (slash) {
		errno = 0;
		len = strtoul(slash + 1, &end, 10);
		if (errno || *end || !slash[1] || len > (v4 ? 32u : 128u))
			return -EINVAL;
		p->len = (unsigned int)len + (v4 ? 96 : 0);
	}
	return 0;
}

static bool prefix_match(const struct prefix *p, const uint8_t a[16])
{
	unsigned int full = p->len / 8, rest = p->len % 8;
	uint8_t mask;

	if (memcmp(p->addr, a, full))
		return false;
	if (!rest)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return (p->addr[full] & mask) == (a[full] & mask);
}

static int parse_addrs(char *word, struct rule *r)
{
	char *save = NULL, *item;
	struct prefix *grown;

	if (!strcmp(word, "*") || !strcmp(word, "any")) {
		r->any_addr = true;
		return 0;
	}
	for (item = strtok_r(word, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		grown = realloc(r->addrs, (r->n_addrs + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->addrs = grown;
		if (parse_prefix(item, &r->addrs[r->n_addrs]))
			return -EINVAL;
		r->n_addrs++;
	}
	return r->n_addrs ? 0 : -EINVAL;
}

static bool parse_port(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 65535)
		return false;
	*out = (unsigned int)v;
	return true;
}

static int parse_ports(char *word, struct rule *r)
{
	char *save = NULL, *item, *dash;
	struct port_range *grown, *pr;

	if (!strcmp(word, "*") || !strcmp(word, "any")) {
		r->any_port = true;
		return 0;
	}
	for (item = strtok_r(word, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		grown = realloc(r->ports, (r->n_ports + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->ports = grown;
		pr = &r->ports[r->n_ports];
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (!parse_port(item, &pr->low))
			return -EINVAL;
		pr->high = pr->low;
		if (dash &&
		    (!parse_port(dash + 1, &pr->high) || pr->high < pr->low))
			return -EINVAL;
		r->n_ports++;
	}
	return r->n_ports ? 0 : -EINVAL;
}

static void rule_fini(struct rule *r)
{
	free(r->exe.path);
	free(r->script.path);
	free(r->addrs);
	free(r->ports);
}

static int parse_app(char *word, struct rule *r)
{
	char *colon = strchr(word, ':');
	int err;

	if (colon) {
		*colon = '\0';
		r->has_script = true;
		err = parse_pattern(colon + 1, &r->script);
		if (err)
			return err;
	}
	return parse_pattern(word, &r->exe);
}

/* Parses one line's words into @r; @what is set to the failing field. */
static int parse_rule(char **w, struct rule *r, const char **what)
{
	int v;

	*what = "verdict (allow or deny)";
	v = pfsel_answer_from_name(w[0]);
	if (v < 0 || strlen(w[0]) == 1)
		return -EINVAL;
	r->d.verdict = (unsigned int)v;
	*what = "scope (once, process, session or always)";
	v = pfsel_scope_from_name(w[1]);
	if (v < 0 || strlen(w[1]) == 1)
		return -EINVAL;
	r->d.scope = (unsigned int)v;
	*what = "application (*, /PATH, DIR/*, DIR/** or EXE:SCRIPT)";
	if (parse_app(w[2], r))
		return -EINVAL;
	*what = "operation";
	if (parse_names(w[3], pfsel_op_from_name, PFSEL_OP_COUNT, &r->ops))
		return -EINVAL;
	*what = "protocol";
	if (parse_names(w[4], pfsel_proto_from_name, PFSEL_PROTO_COUNT,
			&r->protos))
		return -EINVAL;
	*what = "address";
	if (parse_addrs(w[5], r))
		return -EINVAL;
	*what = "port";
	if (parse_ports(w[6], r))
		return -EINVAL;
	return 0;
}

struct agent_rules *agent_rules_parse(const char *file, const char *text,
				      char *err, size_t errlen)
{
	struct agent_rules *rules = calloc(1, sizeof(*rules));
	char *copy = strdup(text), *cursor, *line, *nl, *hash, *save, *w[8];
	const char *what = "";
	unsigned int lineno = 0;
	struct rule *grown;
	size_t n;

	if (!rules || !copy) {
		snprintf(err, errlen, "%s: %s", file, strerror(ENOMEM));
		goto fail;
	}
	for (cursor = copy; *cursor;
	     cursor = nl ? nl + 1 : cursor + strlen(cursor)) {
		line = cursor;
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		n = 0;
		save = NULL;
		for (char *t = strtok_r(line, " \t\r", &save); t;
		     t = strtok_r(NULL, " \t\r", &save))
			w[n < 8 ? n++ : 7] = t;
		if (n == 0)
			continue;
		if (n != 7) {
			snprintf(
				err, errlen,
				"%s:%u: expected 7 fields: VERDICT SCOPE APP OP PROTO ADDRESS PORT",
				file, lineno);
			goto fail;
		}
		grown = realloc(rules->rules, (rules->n + 1) * sizeof(*grown));
		if (!grown) {
			snprintf(err, errlen, "%s: %s", file, strerror(ENOMEM));
			goto fail;
		}
		rules->rules = grown;
		memset(&grown[rules->n], 0, sizeof(*grown));
		grown[rules->n].line = lineno;
		if (parse_rule(w, &grown[rules->n], &what)) {
			rule_fini(&grown[rules->n]);
			snprintf(err, errlen, "%s:%u: bad %s", file, lineno,
				 what);
			goto fail;
		}
		rules->n++;
	}
	free(copy);
	return rules;

fail:
	free(copy);
	agent_rules_free(rules);
	return NULL;
}

static bool rule_match(const struct rule *r, const struct pfsel_question *q)
{
	size_t i;
	bool ok;

	if (!pattern_match(&r->exe, q->exe))
		return false;
	if (r->has_script &&
	    (!q->script[0] || !pattern_match(&r->script, q->script)))
		return false;
	if (q->op >= PFSEL_OP_COUNT || !(r->ops & (1u << q->op)))
		return false;
	if (q->proto >= PFSEL_PROTO_COUNT || !(r->protos & (1u << q->proto)))
		return false;
	if (q->op == PFSEL_OP_CREATE)
		return r->any_addr && r->any_port;
	if (!r->any_addr) {
		for (ok = false, i = 0; !ok && i < r->n_addrs; i++)
			ok = prefix_match(&r->addrs[i], q->raddr);
		if (!ok)
			return false;
	}
	if (!r->any_port) {
		for (ok = false, i = 0; !ok && i < r->n_ports; i++)
			ok = q->rport >= r->ports[i].low &&
			     q->rport <= r->ports[i].high;
		if (!ok)
			return false;
	}
	return true;
}

int agent_rules_match(const struct agent_rules *rules,
		      const struct pfsel_question *q, struct agent_decision *d,
		      unsigned int *line)
{
	size_t i;

	for (i = 0; i < rules->n; i++) {
		if (rule_match(&rules->rules[i], q)) {
			*d = rules->rules[i].d;
			if (line)
				*line = rules->rules[i].line;
			return 1;
		}
	}
	return 0;
}

void agent_rules_free(struct agent_rules *rules)
{
	size_t i;

	if (!rules)
		return;
	for (i = 0; i < rules->n; i++)
		rule_fini(&rules->rules[i]);
	free(rules->rules);
	free(rules);
}
