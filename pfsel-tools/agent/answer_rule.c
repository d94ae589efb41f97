// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the rule an "always" answer becomes (answer_rule.h).
 *
 * One function writes it for both the agent, which adds it to ~/.pfw,
 * and the desktop prompt, which shows it before the person picks
 * "always": what the person is shown is what is written.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "answer_rule.h"

const char *answer_rule_width_name(const unsigned int width)
{
	switch (width) {
	case ANSWER_RULE_EXACT:
		return "this address and port";
	case ANSWER_RULE_ADDRESS:
		return "this address";
	case ANSWER_RULE_PORT:
		return "this port";
	default:
		return "?";
	}
}

/*
 * The address (and port) clause of @q's rule, as wide as @width, into
 * @where: "" for a packet socket's create, " family inet" for another
 * create, else " to ADDR port P", " to ADDR" or " to any port P" (the
 * word is "on" for bind and listen, "from" for accept, as the request's
 * address is named in the language).
 */
static void format_where(const struct pfsel_question *q,
			 const unsigned int width, char *where,
			 const size_t size)
{
	const bool has_port = q->proto == PFSEL_PROTO_TCP ||
			      q->proto == PFSEL_PROTO_UDP;
	const char *dir = q->op == PFSEL_OP_CONNECT ? "to" :
			  q->op == PFSEL_OP_ACCEPT  ? "from" :
						      "on";
	char addr[PFSEL_ADDR_STRLEN];

	where[0] = '\0';
	if (q->op == PFSEL_OP_CREATE) {
		/* No address, no port: nothing to widen. */
		if (q->proto != PFSEL_PROTO_PACKET)
			snprintf(where, size, " family %s",
				 pfsel_family_name(q->family));
		return;
	}
	pfsel_format_addr(q->raddr, addr, sizeof(addr));
	/* icmp and raw have no port: every width is the address's. */
	if (!has_port || width == ANSWER_RULE_ADDRESS)
		snprintf(where, size, " %s %s", dir, addr);
	else if (width == ANSWER_RULE_PORT)
		snprintf(where, size, " %s any port %u", dir, q->rport);
	else
		snprintf(where, size, " %s %s port %u", dir, addr, q->rport);
}

int answer_rule_format(const struct pfsel_question *q,
		       const unsigned int verdict, const unsigned int width,
		       char *buf, const size_t size)
{
	char exe[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)],
		script[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)];
	char where[PFSEL_ADDR_STRLEN + 32];
	int n;

	if (size)
		buf[0] = '\0';
	if (q->exe[0] != '/' || (q->script[0] && q->script[0] != '/'))
		return -EINVAL; /* an unnamed application: no rule names it */
	if (verdict > PFSEL_ANSWER_DENY || width >= ANSWER_RULE_WIDTH_COUNT ||
	    q->op >= PFSEL_OP_COUNT || q->proto >= PFSEL_PROTO_COUNT)
		return -EINVAL;
	/*
	 * The exact-path form whenever a path is not plain: a quoted path
	 * is that file only, so an executable named "*" (or "**", or with
	 * any byte the language would read otherwise) gets a rule that lets
	 * out that file and no sibling.
	 */
	if (pfsel_escape(q->exe, exe, sizeof(exe), PFSEL_ESCAPE_QUOTE) < 0)
		return -EINVAL;
	script[0] = '\0';
	if (q->script[0] && pfsel_escape(q->script, script, sizeof(script),
					 PFSEL_ESCAPE_QUOTE) < 0)
		return -EINVAL;
	format_where(q, width, where, sizeof(where));
	n = snprintf(buf, size, "%s %s%s%s %s %s%s;",
		     pfsel_answer_name(verdict), exe,
		     script[0] ? " script " : "", script, pfsel_op_name(q->op),
		     pfsel_proto_name(q->proto), where);
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0'; /* never half a rule */
		return -ENOSPC;
	}
	return n;
}
