/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libpfw - pfsel-agent's rule file (pfsel-agent --rules), read by pfwc's
 * own front end
 *
 * A rule file is .pfw rules that are answers: "allow" or "deny", each with
 * a scope (LANGUAGE.md, "Rule files"):
 *
 *	apps curl = /usr/bin/curl;
 *	allow curl connect tcp to 192.0.2.0/24 port http, https scope session;
 *	deny * connect to any;                  # once
 *
 * It is parsed (pfw_parse_options.rule_file) and its names resolved as a
 * policy's are; then the first rule that matches a question answers it,
 * with the rule's verdict (PFW_VERDICT_ALLOW or _DENY, which are
 * PFSEL_ANSWER_ALLOW and _DENY) and scope (pfw_rule.scope), as
 * pfw_first_match() finds it.  This header is what a program outside
 * compiler/ (the agent) includes.
 */
#ifndef PFWC_RULE_FILE_H
#define PFWC_RULE_FILE_H

#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "services.h"

/*
 * Parse and resolve the rule file @text (@len bytes) named @name, with the
 * service names of @services (NULL: none).  Errors and warnings go to
 * @diag, as pfwc reports them (file:line:col, the line, a caret).  Returns
 * the rules (free with pfw_policy_free()), or NULL when there was an error.
 */
struct pfw_policy *pfw_rule_file_parse(const char *name, const char *text,
				       size_t len,
				       const struct pfw_services *services,
				       struct pfw_diag *diag);

#endif /* PFWC_RULE_FILE_H */
