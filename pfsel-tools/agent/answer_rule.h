/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - the rule an "always" answer becomes, as text: what the
 * agent adds to ~/.pfw, and what the desktop prompt shows before the
 * person chooses it (both call answer_rule_format(), so that what is shown
 * is what is written).
 */
#ifndef PFSEL_AGENT_ANSWER_RULE_H
#define PFSEL_AGENT_ANSWER_RULE_H

#include <stddef.h>

#include <pfsel/pfsel.h>

/**
 * enum answer_rule_width - How much of the question an "always" rule covers
 * @ANSWER_RULE_EXACT: this address and this port (the default).
 * @ANSWER_RULE_ADDRESS: this address, any port.
 * @ANSWER_RULE_PORT: this port, any address.
 * @ANSWER_RULE_WIDTH_COUNT: number of widths.
 *
 * The application (executable and script), operation and protocol are
 * always the question's.  For protocols without ports (icmp, raw) every
 * width is the address's; for "create" there is nothing to widen.
 */
enum answer_rule_width {
	ANSWER_RULE_EXACT,
	ANSWER_RULE_ADDRESS,
	ANSWER_RULE_PORT,
	ANSWER_RULE_WIDTH_COUNT,
};

/*
 * The rule that answers @q with @verdict for good, as wide as @width, e.g.
 * "allow /usr/bin/curl connect tcp to 192.0.2.1 port 80;" (exact),
 * "... to 192.0.2.1;" (address), "... to any port 80;" (port).  Paths are
 * written so that they match that file only.  Returns its length,
 * -ENOSPC, or -EINVAL for a question no rule can name (an unnamed
 * application) or an out-of-range @verdict or @width.
 */
int answer_rule_format(const struct pfsel_question *q, unsigned int verdict,
		       unsigned int width, char *buf, size_t size);

/* "this address and port", "this address", "this port": for people. */
const char *answer_rule_width_name(unsigned int width);

#endif /* PFSEL_AGENT_ANSWER_RULE_H */
