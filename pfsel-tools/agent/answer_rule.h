/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - the rule an "always" answer becomes, as text: what the
 * agent adds to ~/.pfw, and what the desktop prompt shows before the
 * person chooses it (both call answer_rule_format(), so that what is shown
 * is what is written).
 */
#ifndef PFSEL_AGENT_ANSWER_RULE_H
#define PFSEL_AGENT_ANSWER_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include <pfsel/pfsel.h>

/**
 * enum answer_rule_width - How much of the question an "always" rule covers
 * @ANSWER_RULE_EXACT: this address and this port (the default).
 * @ANSWER_RULE_ADDRESS: this address, any port.
 * @ANSWER_RULE_PORT: this port, any address.
 * @ANSWER_RULE_HOST: this host name and this port ("to host NAME port P"),
 *                    NAME the first (newest) name the kernel knows for the
 *                    address that a rule can write (pfsel_hosts_rule_name());
 *                    only for a connect or accept question with such a
 *                    name (the address of bind and listen is the
 *                    machine's own).
 * @ANSWER_RULE_DOMAIN: any name below NAME's parent, this port ("to host
 *                      *.example.org port P" for www.example.org); only
 *                      when NAME has three labels or more.
 * @ANSWER_RULE_WIDTH_COUNT: number of widths.
 *
 * The application (executable and script), operation and protocol are
 * always the question's.  For protocols without ports (icmp, raw) every
 * width is the address's (or the name's); for "create" there is nothing
 * to widen.  The values are the prompt's wire (prompt_wire.h): new widths
 * go at the end.
 */
enum answer_rule_width {
	ANSWER_RULE_EXACT,
	ANSWER_RULE_ADDRESS,
	ANSWER_RULE_PORT,
	ANSWER_RULE_HOST,
	ANSWER_RULE_DOMAIN,
	ANSWER_RULE_WIDTH_COUNT,
};

/*
 * The rule that answers @q with @verdict for good, as wide as @width, e.g.
 * "allow /usr/bin/curl connect tcp to 192.0.2.1 port 80;" (exact),
 * "... to 192.0.2.1;" (address), "... to any port 80;" (port),
 * "... to host www.example.org port 80;" (host), "... to host
 * *.example.org port 80;" (domain).  Paths are written so that they match
 * that file only.  Returns its length, -ENOSPC, -ENOENT for a host or
 * domain width that @q has no name for (answer_rule_width_applies()), or
 * -EINVAL for a question no rule can name (an unnamed application) or an
 * out-of-range @verdict or @width.
 */
int answer_rule_format(const struct pfsel_question *q, unsigned int verdict,
		       unsigned int width, char *buf, size_t size);

/*
 * Whether @width makes a rule for @q: the address widths always (but
 * for create, where all are the same), the host width when @q is a
 * connect or an accept and has a name a rule can write, the domain width
 * when that name has three labels or more.  What the prompt offers.
 */
bool answer_rule_width_applies(const struct pfsel_question *q,
			       unsigned int width);

/*
 * "this address and port", "this address", "this port", "this host
 * name", "its domain": for people.
 */
const char *answer_rule_width_name(unsigned int width);

#endif /* PFSEL_AGENT_ANSWER_RULE_H */
