// SPDX-License-Identifier: GPL-2.0-only
/*
 * libpfw - pfsel-agent's rule file: parsed and resolved as pfwc parses and
 * resolves a policy, the rule file's grammar being the parser's own
 * (rule_file.h).
 */
#include "parser.h"
#include "rule_file.h"
#include "sema.h"

struct pfw_policy *pfw_rule_file_parse(const char *name, const char *text,
				       size_t len,
				       const struct pfw_services *services,
				       struct pfw_diag *diag)
{
	static const struct pfw_parse_options parse_opts = {
		.rule_file = true,
	};
	const struct pfw_sema_options sema_opts = { .services = services };
	unsigned int errors_before = diag->errors;
	struct pfw_policy *rules =
		pfw_parse_buffer(name, text, len, &parse_opts, diag);

	if (diag->errors == errors_before)
		pfw_sema(rules, &sema_opts, diag);
	if (diag->errors != errors_before) {
		pfw_policy_free(rules);
		return NULL;
	}
	return rules;
}
