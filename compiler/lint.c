// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - warnings about resolved rules: audit flags without effect,
 * 'protect' for every program, host elements that are too wide or can
 * hardly match, rules that deny or ask by name (which hold only for the
 * names the kernel learned), and rules that can never match.
 *
 * The shadow analysis is the simple, exact-per-pair one: a rule can never
 * match if one earlier rule contains it in every dimension.  (A rule covered
 * only by several earlier rules together is not reported.)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lint.h"
#include "rule_relations.h"

static void check_audit_flags(const struct pfw_rule *rule,
			      struct pfw_diag *diag)
{
	if (rule->verdict == PFW_VERDICT_DENY &&
	    (rule->audit & PFW_AUDIT_LOG_ALLOWED))
		pfw_warn(
			diag, PFW_W_AUDIT, &rule->loc,
			"'log' has no effect on a deny rule: it logs allowed requests, and this rule allows none");
	if (rule->verdict == PFW_VERDICT_ALLOW &&
	    (rule->audit & PFW_AUDIT_QUIET_DENIAL))
		pfw_warn(
			diag, PFW_W_AUDIT, &rule->loc,
			"'quiet' has no effect on an allow rule: it silences denials, and this rule denies nothing");
}

/*
 * A pattern every executable matches: "*", or "/" followed by two stars
 * (every path is below the root).
 */
static bool matches_every_program(const struct pfw_app *app)
{
	return !app->is_script &&
	       (app->exe.kind == PFW_PATH_ANY ||
		(app->exe.kind == PFW_PATH_TREE && !app->exe.path[0]));
}

/*
 * Protecting every program puts each one in secure-execution mode (the
 * loader ignores LD_LIBRARY_PATH and the like) and makes each one
 * undebuggable by the user: almost certainly not what was meant.
 */
static void check_protect(const struct pfw_rule *rule, struct pfw_diag *diag)
{
	char text[16];

	if (!rule->protect)
		return;
	for (size_t i = 0; i < rule->n_apps; i++) {
		const struct pfw_app *app = &rule->apps[i];

		if (!matches_every_program(app))
			continue;
		pfw_warn(
			diag, PFW_W_PROTECT, &rule->protect_loc,
			"'protect' on a rule for '%s' protects every program: each runs in secure-execution mode and none can be debugged by its user",
			pfw_app_format(app, text, sizeof(text)));
		/* Through a name, the pattern is written elsewhere. */
		if (app->loc.file != rule->loc.file ||
		    app->loc.line != rule->loc.line)
			pfw_note(diag, &app->loc, "'%s' is here", text);
		return;
	}
}

/*
 * Host elements: "*.com" names every name of a top-level domain, almost
 * surely more than meant; and in a rule for bind and listen only, a host
 * element matches a local address that some DNS answer named, which is
 * rarely what the rule's author had in mind (names are for the peers a
 * program connects to or accepts from).
 *
 * And a rule that denies or asks by name holds only where the kernel
 * learned the name: a program can always reach an address by the address,
 * from a name it resolved some other way or never resolved, and the
 * kernel cannot know which name that address would have had.  No
 * definition of the language can make such a rule exact, so the warning
 * says what confines: a default deny, and allows by name.
 */
static void check_hosts(const struct pfw_rule *rule, struct pfw_diag *diag)
{
	char text[PFSEL_HOST_NAME_MAX + 3];

	if (!rule->n_hosts)
		return;
	for (size_t i = 0; i < rule->n_hosts; i++)
		if (rule->hosts[i].below && !strchr(rule->hosts[i].name, '.'))
			pfw_warn(
				diag, PFW_W_HOST, &rule->hosts[i].loc,
				"'host %s' matches every name in the top-level domain '%s'",
				pfw_host_format(&rule->hosts[i], text,
						sizeof(text)),
				rule->hosts[i].name);
	if (!(rule->ops & ~(uint32_t)(PFW_OP_BIND | PFW_OP_LISTEN)))
		pfw_warn(
			diag, PFW_W_HOST, &rule->hosts[0].loc,
			"host names in a rule for 'bind' and 'listen' only match a local address that a DNS answer named; they are meant for the peers of 'connect' and 'accept'");
	if (rule->verdict == PFW_VERDICT_DENY)
		pfw_warn(
			diag, PFW_W_HOST, &rule->loc,
			"'deny' by host name holds only for addresses whose name the kernel learned from a resolver's answer: a program that connects by address, or after the name expired, is not denied by this rule; to confine a program, deny by default and allow the names it may reach");
	else if (rule->verdict == PFW_VERDICT_ASK)
		pfw_warn(
			diag, PFW_W_HOST, &rule->loc,
			"'ask' by host name holds only for addresses whose name the kernel learned from a resolver's answer: a program that connects by address, or after the name expired, is not asked about by this rule; to confine a program, deny by default and allow the names it may reach");
}

void pfw_lint_rule(const struct pfw_rule *rule, struct pfw_diag *diag)
{
	check_audit_flags(rule, diag);
	check_protect(rule, diag);
	check_hosts(rule, diag);
}

/*
 * Operations, protocols and families in 12 bits: a rule can only cover
 * another if its signature has every bit of the other's needs.  A dense
 * array of these keeps the quadratic scan in cache.
 */
static uint16_t signature(const struct pfw_rule *rule)
{
	return (uint16_t)(rule->ops | rule->protos << 5 | rule->families << 10);
}

/* The bits an earlier rule must have to cover @rule (packet: no family). */
static uint16_t needs(const struct pfw_rule *rule)
{
	uint16_t bits = (uint16_t)(rule->ops | rule->protos << 5);

	if (rule->protos & ~PFW_PROTO_PACKET)
		bits |= (uint16_t)(rule->families << 10);
	return bits;
}

void pfw_lint_shadowed(struct pfw_policy *policy, struct pfw_diag *diag)
{
	unsigned long long budget = PFW_PAIR_BUDGET;
	struct rule_box *boxes;
	uint16_t *signatures;

	/* Quadratic: not worth it when nobody will see the result. */
	if (!diag->enabled[PFW_W_SHADOW])
		return;
	boxes = pfw_rule_boxes(policy);
	signatures = pfw_xrealloc(NULL, policy->n_rules * sizeof(*signatures));
	for (size_t i = 0; i < policy->n_rules; i++)
		signatures[i] = signature(&policy->rules[i]);
	for (size_t j = 1; j < policy->n_rules; j++) {
		struct pfw_rule *rule = &policy->rules[j];
		uint16_t need = needs(rule);

		for (size_t i = 0; i < j; i++) {
			if (!pfw_spend_pair(&budget, diag, "shadowing"))
				goto out;
			if ((need & ~signatures[i]) ||
			    !pfw_rule_covers(&policy->rules[i], &boxes[i], rule,
					     &boxes[j]))
				continue;
			rule->shadowed_by = (long)i;
			pfw_warn(
				diag, PFW_W_SHADOW, &rule->loc,
				"this rule can never match: an earlier rule matches every request it does");
			pfw_note(diag, &policy->rules[i].loc,
				 "the earlier rule is here");
			/* Protection is of the application, not the request. */
			if (rule->protect)
				pfw_note(
					diag, &rule->protect_loc,
					"its 'protect' still applies: the applications it names are protected");
			break;
		}
	}
out:
	free(signatures);
	free(boxes);
}
