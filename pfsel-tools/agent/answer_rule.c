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
#include <string.h>

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
	case ANSWER_RULE_HOST:
		return "this host name";
	case ANSWER_RULE_DOMAIN:
		return "its domain";
	default:
		return "?";
	}
}

/*
 * The name a host width writes after "host", into @pattern: the first
 * name of @q a rule can write (pfsel_hosts_rule_name()) for
 * ANSWER_RULE_HOST; for ANSWER_RULE_DOMAIN, "*." and that name without
 * its first label.  0, or -ENOENT when @q has no such name or is not a
 * connect or an accept.
 *
 * The domain width is offered only for a name of three labels or more
 * (www.example.org gives *.example.org): the parent of a two-label name
 * is a top-level domain, and "*.org" would let the application reach
 * every name under it.  Three labels do not make the parent one
 * organisation's everywhere ("www.example.co.uk" gives *.example.co.uk,
 * but "shop.co.uk" gives *.co.uk): telling that needs the Public Suffix
 * List, which pfsel does not carry; the prompt shows the very rule before
 * the person chooses it.
 */
static int host_pattern(const struct pfsel_question *q,
			const unsigned int width, char *pattern,
			const size_t size)
{
	char name[PFSEL_HOST_NAME_MAX + 1];
	const char *parent, *second;
	int n;

	/*
	 * Names are for peers: create has no address, and the address of a
	 * bind or listen is the machine's own, which no DNS answer the
	 * application asked for names (pfwc warns about such rules).
	 */
	if (q->op != PFSEL_OP_CONNECT && q->op != PFSEL_OP_ACCEPT)
		return -ENOENT;
	n = pfsel_hosts_rule_name(q->hosts, name, sizeof(name));
	if (n < 0)
		return -ENOENT;
	if (width == ANSWER_RULE_HOST) {
		snprintf(pattern, size, "%s", name);
		return 0;
	}
	parent = strchr(name, '.');
	second = parent ? strchr(parent + 1, '.') : NULL;
	if (!second)
		return -ENOENT; /* fewer than three labels */
	snprintf(pattern, size, "*%s", parent);
	return 0;
}

bool answer_rule_width_applies(const struct pfsel_question *q,
			       const unsigned int width)
{
	char pattern[PFSEL_HOST_NAME_MAX + 2];

	if (width == ANSWER_RULE_HOST || width == ANSWER_RULE_DOMAIN)
		return host_pattern(q, width, pattern, sizeof(pattern)) == 0;
	return width < ANSWER_RULE_WIDTH_COUNT;
}

/*
 * The address (and port) clause of @q's rule, as wide as @width, into
 * @where: "" for a packet socket's create, " family inet" for another
 * create, else " to ADDR port P", " to ADDR", " to any port P", " to host
 * NAME port P" or " to host *.PARENT port P" (hosts: connect and accept
 * only; the word is "on" for bind
 * and listen, "from" for accept, as the request's address is named in
 * the language).  0, or -ENOENT for a host width without a name.
 */
static int format_where(const struct pfsel_question *q,
			const unsigned int width, char *where,
			const size_t size)
{
	const bool has_port = q->proto == PFSEL_PROTO_TCP ||
			      q->proto == PFSEL_PROTO_UDP;
	const char *dir = q->op == PFSEL_OP_CONNECT ? "to" :
			  q->op == PFSEL_OP_ACCEPT  ? "from" :
						      "on";
	/* "host " and a pattern, or an address. */
	char addr[sizeof("host *") + PFSEL_HOST_NAME_MAX + PFSEL_ADDR_STRLEN];
	char pattern[PFSEL_HOST_NAME_MAX + 2];

	where[0] = '\0';
	if (q->op == PFSEL_OP_CREATE) {
		/* No address, no port: nothing to widen. */
		if (width == ANSWER_RULE_HOST || width == ANSWER_RULE_DOMAIN)
			return -ENOENT;
		if (q->proto != PFSEL_PROTO_PACKET)
			snprintf(where, size, " family %s",
				 pfsel_family_name(q->family));
		return 0;
	}
	if (width == ANSWER_RULE_HOST || width == ANSWER_RULE_DOMAIN) {
		if (host_pattern(q, width, pattern, sizeof(pattern)))
			return -ENOENT;
		snprintf(addr, sizeof(addr), "host %s", pattern);
	} else {
		pfsel_format_addr(q->raddr, addr, sizeof(addr));
	}
	/* icmp and raw have no port: every width is the address's. */
	if (!has_port || width == ANSWER_RULE_ADDRESS)
		snprintf(where, size, " %s %s", dir, addr);
	else if (width == ANSWER_RULE_PORT)
		snprintf(where, size, " %s any port %u", dir, q->rport);
	else
		snprintf(where, size, " %s %s port %u", dir, addr, q->rport);
	return 0;
}

int answer_rule_format(const struct pfsel_question *q,
		       const unsigned int verdict, const unsigned int width,
		       char *buf, const size_t size)
{
	char exe[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)],
		script[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)];
	char where[PFSEL_HOST_NAME_MAX + PFSEL_ADDR_STRLEN + 48];
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
	if (format_where(q, width, where, sizeof(where)))
		return -ENOENT;
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
