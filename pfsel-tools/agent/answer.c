// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - an answer delivered to the kernel, and logged; for
 * "always", made a rule of ~/.pfw (pfw.c) as wide as the answer says.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent.h"

/*
 * Makes an "always" answer a rule of the user's policy, as wide as
 * @d->width.  Returns 0 when the rule was added and loaded, else a
 * negative errno; either way @text (for the prompt) says what became of
 * it in a line.
 */
static int make_permanent(struct agent *a, const struct pfsel_question *q,
			  const struct agent_decision *d, char *text,
			  size_t size)
{
	/* The executable and the script, each escaped, and the rest. */
	char rule[2 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) + 512];
	char exe[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)], err[4096];
	int rc;

	if (q->policy == 0 && d->verdict == PFSEL_ANSWER_ALLOW) {
		agent_log(
			a->log,
			"question %llu: the system policy asked; a rule of %s cannot allow more than it does, not adding one",
			(unsigned long long)q->id, a->pfw.pfw);
		snprintf(
			text, size,
			"no rule added: the system policy asked, and a rule of %s cannot allow more than it does",
			a->pfw.pfw);
		return -EPERM;
	}
	rc = pfw_answer_rule(q, d->verdict, d->width, rule, sizeof(rule));
	if (rc == -ENOENT) {
		/* A host width for an address without a name (a bad prompt). */
		agent_log(
			a->log,
			"question %llu: no rule added: the answer's width is %s, and the kernel named no host for the address that a rule can name",
			(unsigned long long)q->id, rule_width_name(d->width));
		snprintf(
			text, size,
			"no rule added: the kernel named no host for the address that a rule can name");
		return rc;
	}
	if (rc < 0) {
		pfsel_escape(q->exe, exe, sizeof(exe), 0);
		agent_log(a->log, "question %llu: no rule can name %s (%s)",
			  (unsigned long long)q->id, exe,
			  rc == -EINVAL ? "an unnamed application" :
					  strerror(-rc));
		snprintf(text, size, "no rule added: no rule can name %s (%s)",
			 exe,
			 rc == -EINVAL ? "an unnamed application" :
					 strerror(-rc));
		return rc;
	}
	rc = pfw_add_rule(&a->pfw, rule, err, sizeof(err));
	if (rc) {
		/* The compiler's messages may span lines: one log line each. */
		char *save = NULL, *line;

		agent_log(
			a->log,
			"question %llu: could not add '%s' to %s (%s); the file is unchanged unless it says otherwise:",
			(unsigned long long)q->id, rule, a->pfw.pfw,
			strerror(-rc));
		snprintf(text, size,
			 "could not add '%s' to %s (%s); see the agent's log",
			 rule, a->pfw.pfw, strerror(-rc));
		for (line = strtok_r(err, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			agent_log(a->log, "  %s", line);
		return rc;
	}
	agent_log(a->log, "question %llu: added '%s' to %s, loaded %s",
		  (unsigned long long)q->id, rule, a->pfw.pfw, a->pfw.out);
	snprintf(text, size, "added '%s' to %s", rule, a->pfw.pfw);
	return 0;
}

int agent_deliver(struct agent *a, const struct pfsel_question *q,
		  const struct agent_decision *d, const char *by, int *status,
		  char *text, size_t size)
{
	int rc;

	rc = pfsel_agent_answer(a->nl, q->id, d->verdict, d->scope);
	*status = rc;
	if (rc == -ENOENT) {
		agent_log(
			a->log,
			"question %llu: answered %s %s too late: it had expired",
			(unsigned long long)q->id,
			pfsel_answer_name(d->verdict),
			pfsel_scope_name(d->scope));
		snprintf(
			text, size,
			"too late: the question had expired, and the policy's unanswered verdict applied");
	} else if (rc == -EPERM) {
		agent_log(
			a->log,
			"question %llu: %s: this agent is no longer registered (another agent of this uid replaced it); exiting",
			(unsigned long long)q->id, pfsel_last_error());
		snprintf(text, size,
			 "not answered: this agent is no longer registered");
		return AGENT_EXIT_RUNTIME;
	} else if (rc) {
		agent_log(a->log, "question %llu: %s",
			  (unsigned long long)q->id, pfsel_last_error());
		snprintf(text, size, "not answered: %s", pfsel_last_error());
	} else {
		agent_log(a->log, "question %llu: answered %s %s (by %s)",
			  (unsigned long long)q->id,
			  pfsel_answer_name(d->verdict),
			  pfsel_scope_name(d->scope), by);
		snprintf(text, size, "answered %s %s",
			 pfsel_answer_name(d->verdict),
			 pfsel_scope_name(d->scope));
	}
	if (!rc && d->scope == PFSEL_SCOPE_ALWAYS)
		*status = make_permanent(a, q, d, text, size);
	return -1;
}

void agent_log_unanswered(struct agent *a, uint64_t id)
{
	agent_log(
		a->log,
		"question %llu: not answered (the policy's unanswered verdict applies)",
		(unsigned long long)id);
}
