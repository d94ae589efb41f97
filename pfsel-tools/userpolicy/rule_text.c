// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - the one writer of a .pfw rule for a request
 * (rule_text_format()).
 *
 * The agent adds it to ~/.pfw for an "always" answer; the desktop prompt
 * shows it before the person picks "always", and offers it for a decision
 * of the audit log ("Make this a rule"); `pfsel audit2pfw` prints it for
 * the denials of the audit log.  One function writes it for all of them,
 * from one shape of a request (struct pfsel_request), so that what the
 * person is shown is what is written, and the same audit record gives the
 * same rule everywhere.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userpolicy.h"

const char *rule_width_name(const unsigned int width)
{
	switch (width) {
	case RULE_WIDTH_EXACT:
		return "this address and port";
	case RULE_WIDTH_ADDRESS:
		return "this address";
	case RULE_WIDTH_PORT:
		return "this port";
	case RULE_WIDTH_HOST:
		return "this host name";
	case RULE_WIDTH_DOMAIN:
		return "its domain";
	default:
		return "?";
	}
}

/*
 * The name a host width writes after "host", into @pattern: the first
 * name of @req a rule can write (pfsel_hosts_rule_name()) for
 * RULE_WIDTH_HOST; for RULE_WIDTH_DOMAIN, "*." and that name without its
 * first label.  0, or -ENOENT when @req has no such name or is not a
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
static int host_pattern(const struct pfsel_request *req,
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
	if (req->op != PFSEL_OP_CONNECT && req->op != PFSEL_OP_ACCEPT)
		return -ENOENT;
	n = pfsel_hosts_rule_name(req->hosts, name, sizeof(name));
	if (n < 0)
		return -ENOENT;
	if (width == RULE_WIDTH_HOST) {
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

bool rule_width_applies(const struct pfsel_request *req,
			const unsigned int width)
{
	char pattern[PFSEL_HOST_NAME_MAX + 2];

	if (width == RULE_WIDTH_HOST || width == RULE_WIDTH_DOMAIN)
		return host_pattern(req, width, pattern, sizeof(pattern)) == 0;
	return width < RULE_WIDTH_COUNT;
}

/*
 * The address (and port) clause of @req's rule, as wide as @width, into
 * @where (@size: where_size()): "" for a packet socket's create, " family
 * inet" for another create, else " to ADDR port P", " to ADDR", " to any
 * port P", " to host NAME port P" or " to host *.PARENT port P" (hosts:
 * connect and accept only; the word is "on" for bind and listen, "from"
 * for accept, as the request's address is named in the language), with
 * @ports, when given, in place of P.  0, or -ENOENT for a host width
 * without a name.
 */
static int format_where(const struct pfsel_request *req,
			const unsigned int width,
			const struct rule_text_ports *ports, char *where,
			const size_t size)
{
	const bool has_port = req->proto == PFSEL_PROTO_TCP ||
			      req->proto == PFSEL_PROTO_UDP;
	const char *dir = req->op == PFSEL_OP_CONNECT ? "to" :
			  req->op == PFSEL_OP_ACCEPT  ? "from" :
							"on";
	/* "host " and a pattern, or an address. */
	char addr[sizeof("host *") + PFSEL_HOST_NAME_MAX + PFSEL_ADDR_STRLEN];
	char pattern[PFSEL_HOST_NAME_MAX + 2];
	size_t i, len;

	where[0] = '\0';
	if (req->op == PFSEL_OP_CREATE) {
		/* No address, no port: nothing to widen. */
		if (width == RULE_WIDTH_HOST || width == RULE_WIDTH_DOMAIN)
			return -ENOENT;
		if (req->proto != PFSEL_PROTO_PACKET)
			snprintf(where, size, " family %s",
				 pfsel_family_name(req->family));
		return 0;
	}
	if (width == RULE_WIDTH_HOST || width == RULE_WIDTH_DOMAIN) {
		if (host_pattern(req, width, pattern, sizeof(pattern)))
			return -ENOENT;
		snprintf(addr, sizeof(addr), "host %s", pattern);
	} else {
		pfsel_format_addr(req->addr, addr, sizeof(addr));
	}
	/* icmp and raw have no port: every width is the address's. */
	if (!has_port || width == RULE_WIDTH_ADDRESS) {
		snprintf(where, size, " %s %s", dir, addr);
		return 0;
	}
	snprintf(where, size, " %s %s port ", dir,
		 width == RULE_WIDTH_PORT ? "any" : addr);
	for (i = 0; i < (ports ? ports->count : 1); i++) {
		len = strlen(where);
		snprintf(where + len, size - len, "%s%u", i ? ", " : "",
			 ports ? ports->ports[i] : req->port);
	}
	return 0;
}

/* Room for format_where(): the words, the address or name, each port. */
static size_t where_size(const struct rule_text_ports *ports)
{
	return sizeof(" from host * any port ") + PFSEL_HOST_NAME_MAX +
	       PFSEL_ADDR_STRLEN +
	       sizeof(", 65535") * (ports ? ports->count : 1);
}

int rule_text_format(const struct pfsel_request *req,
		     const unsigned int verdict, const unsigned int width,
		     const struct rule_text_ports *ports,
		     const unsigned int flags, char *buf, const size_t size)
{
	char exe[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)],
		script[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)];
	const bool unnamed = req->exe[0] != '/';
	char *where;
	int n;

	if (size)
		buf[0] = '\0';
	if ((unnamed && (req->exe[0] || !(flags & RULE_TEXT_UNNAMED_ANY))) ||
	    (req->script[0] && req->script[0] != '/'))
		return -EINVAL; /* an unnamed application: no rule names it */
	if (verdict > PFSEL_ANSWER_DENY || width >= RULE_WIDTH_COUNT ||
	    req->op >= PFSEL_OP_COUNT || req->proto >= PFSEL_PROTO_COUNT ||
	    (ports && !ports->count) || (flags & ~RULE_TEXT_UNNAMED_ANY))
		return -EINVAL;
	/*
	 * A Flatpak application's or a snap's path is the application
	 * ("flatpak ID"), any of its executables in any of its versions;
	 * any other path the exact-path form whenever it is not plain: a
	 * quoted path is that file only, so an executable named "*" (or
	 * "**", or with any byte the language would read otherwise) gets a
	 * rule that lets out that file and no sibling.  An unnamed one is
	 * "*" (only "*" matches it), where the caller says so.
	 */
	if (unnamed)
		strcpy(exe, "*");
	else if (app_path_text(req->exe, exe, sizeof(exe)) < 0)
		return -EINVAL;
	script[0] = '\0';
	if (req->script[0] &&
	    app_path_text(req->script, script, sizeof(script)) < 0)
		return -EINVAL;
	where = malloc(where_size(ports));
	if (!where)
		return -ENOMEM;
	n = format_where(req, width, ports, where, where_size(ports));
	if (!n)
		n = snprintf(buf, size, "%s %s%s%s %s %s%s;",
			     pfsel_answer_name(verdict), exe,
			     script[0] ? " script " : "", script,
			     pfsel_op_name(req->op),
			     pfsel_proto_name(req->proto), where);
	free(where);
	if (n < 0)
		return n;
	if ((size_t)n >= size) {
		if (size)
			buf[0] = '\0'; /* never half a rule */
		return -ENOSPC;
	}
	return n;
}
