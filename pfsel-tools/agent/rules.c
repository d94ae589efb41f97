// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the rule file of --rules: read, and match questions.
 *
 * The rule file is in the .pfw language (policy/LANGUAGE.md, "Rule
 * files"), read by pfwc's own front end, libpfw (compiler/rule_file.h):
 * rules that are answers, "allow" or "deny", each with a scope (once
 * unless its "scope" clause says), and definitions:
 *
 *   apps curl = /usr/bin/curl;
 *   allow curl connect tcp to 192.0.2.0/24 port 80, 443 scope session;
 *   deny /usr/bin/python3 script /home/alice/bin/sync.py scope always;
 *
 * A question is matched as the request it asks about
 * (pfsel_request_from_question()): the executable and the script, the
 * operation, the protocol, the family (for create), and the request's
 * address and port, and the host names the kernel knows for the address,
 * which "host" elements match as in a policy.  The first rule that
 * matches decides.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "rule_file.h"

/* A question's numbers are bits of the AST's sets, and its answers are
 * the rules' verdicts. */
static_assert(PFW_OP_CREATE == 1u << PFSEL_OP_CREATE &&
		      PFW_OP_ACCEPT == 1u << PFSEL_OP_ACCEPT &&
		      PFW_OP_ALL == (1u << PFSEL_OP_COUNT) - 1,
	      "operations");
static_assert(PFW_PROTO_TCP == 1u << PFSEL_PROTO_TCP &&
		      PFW_PROTO_PACKET == 1u << PFSEL_PROTO_PACKET &&
		      PFW_PROTO_ALL == (1u << PFSEL_PROTO_COUNT) - 1,
	      "protocols");
static_assert(PFW_FAMILY_INET == 1u << PFSEL_FAMILY_INET &&
		      PFW_FAMILY_INET6 == 1u << PFSEL_FAMILY_INET6,
	      "families");
static_assert((int)PFW_VERDICT_ALLOW == (int)PFSEL_ANSWER_ALLOW &&
		      (int)PFW_VERDICT_DENY == (int)PFSEL_ANSWER_DENY,
	      "answers");

struct agent_rules {
	struct pfw_policy *rules;
};

struct agent_rules *agent_rules_parse(const char *file, const char *text,
				      const char *services, FILE *messages,
				      char *err, size_t errlen)
{
	struct agent_rules *rules = calloc(1, sizeof(*rules));
	struct pfw_services *names = NULL;
	struct pfw_diag diag;

	if (!rules) {
		snprintf(err, errlen, "%s: %s", file, strerror(ENOMEM));
		return NULL;
	}
	pfw_diag_init(&diag, messages);
	diag.program = "pfsel-agent";
	if (services)
		names = pfw_services_load(services, &diag);
	if (!diag.errors)
		rules->rules = pfw_rule_file_parse(file, text, strlen(text),
						   names, &diag);
	if (!rules->rules) {
		snprintf(err, errlen, "%s: not read: %u error%s", file,
			 diag.errors, diag.errors == 1 ? "" : "s");
		free(rules);
		rules = NULL;
	}
	pfw_services_free(names);
	pfw_diag_fini(&diag);
	return rules;
}

/*
 * The host names of a request, as libpfw takes them: each name of
 * req->hosts in lower case (the kernel sends them so; pfwc keeps rules
 * so).
 */
struct request_names {
	char text[PFSEL_HOSTS_TEXT_MAX];
	const char *names[PFSEL_HOSTS_PER_ADDR];
	size_t count;
};

static void split_names(const char *hosts, struct request_names *n)
{
	char *p, *save = NULL;

	snprintf(n->text, sizeof(n->text), "%s", hosts);
	for (p = n->text; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	n->count = 0;
	for (p = strtok_r(n->text, ",", &save);
	     p && n->count < PFSEL_HOSTS_PER_ADDR;
	     p = strtok_r(NULL, ",", &save))
		n->names[n->count++] = p;
}

/*
 * @req as libpfw's request, its host names from @names; false for one no
 * rule can match.
 */
static bool pfw_request_of(const struct pfsel_request *req,
			   struct request_names *names,
			   struct pfw_request *request)
{
	if (req->op >= PFSEL_OP_COUNT || req->proto >= PFSEL_PROTO_COUNT)
		return false;
	split_names(req->hosts, names);
	*request = (struct pfw_request){
		/* The kernel's name of an unnamed application: only "*". */
		.exe = req->exe[0] ? req->exe : "?",
		.script = req->script[0] ? req->script : NULL,
		.op = (enum pfw_op)(1u << req->op),
		.proto = (enum pfw_proto)(1u << req->proto),
		/* A packet socket's (PFSEL_FAMILY_PACKET): none. */
		.family = req->family < PFSEL_FAMILY_COUNT ?
				  (enum pfw_family)(1u << req->family) :
				  0,
		.port = req->port,
		/* A "host" rule matches the names the kernel knows. */
		.names = names->names,
		.n_names = names->count,
	};
	memcpy(request->addr, req->addr, sizeof(request->addr));
	return true;
}

int agent_rules_match(const struct agent_rules *rules,
		      const struct pfsel_question *q, struct agent_decision *d,
		      unsigned int *line)
{
	const struct pfw_rule *rule;
	struct request_names names;
	struct pfw_request request;
	struct pfsel_request req;

	pfsel_request_from_question(q, &req);
	if (!pfw_request_of(&req, &names, &request))
		return 0;
	rule = pfw_first_match(rules->rules, &request);
	if (!rule)
		return 0;
	d->verdict = rule->verdict;
	d->scope = rule->scope;
	if (line)
		*line = rule->loc.line;
	return 1;
}

void agent_rules_free(struct agent_rules *rules)
{
	if (!rules)
		return;
	pfw_policy_free(rules->rules);
	free(rules);
}
