/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - making an "always" answer permanent: a rule in ~/.pfw,
 * compiled in the agent's own process (libpfw, pfwc's front and back end)
 * and loaded.
 */
#ifndef PFSEL_AGENT_PFW_H
#define PFSEL_AGENT_PFW_H

#include <stdbool.h>
#include <stddef.h>

#include <pfsel/pfsel.h>

#include "userpolicy.h"

#define PFW_SECTION_BEGIN "# BEGIN pfsel-agent"
#define PFW_SECTION_END "# END pfsel-agent"

/**
 * struct pfw_config - Where the policy is and how to compile it
 * @pfw: the source, e.g. ~/.pfw.
 * @out: NULL, or where the compiled policy the agent loads is also
 *       written (for the person to look at; it is loaded from memory).
 * @services: NULL, or the services file whose names the policy may use
 *            (as pfwc finds it: source_rules_services()).
 * @load: load the compiled policy (false in tests).
 * @confirmed: NULL, or a policy the person approved (what pam_pfsel
 *             recorded as the user's confirmed policy when the agent
 *             started, then what the agent itself loaded last): when it
 *             is the policy in force, the rest of @pfw must be no looser
 *             than it for an "always" rule to be loaded with it; replaced
 *             by what is loaded.
 */
struct pfw_config {
	const char *pfw;
	const char *out;
	const char *services;
	bool load;
	struct policy_blob *confirmed;
};

/*
 * The rule an "always" answer @verdict to @q becomes, as wide as @width
 * (enum rule_width): rule_text_format() of the request @q asks about, the
 * rule `pfsel audit2pfw` and the desktop prompt write for it too.  Its
 * length, or rule_text_format()'s error.
 */
int pfw_answer_rule(const struct pfsel_question *q, unsigned int verdict,
		    unsigned int width, char *buf, size_t size);

/*
 * @text with @line (a whole line, without newline) added at the end of the
 * agent's section, which is created at the top when missing: rules are
 * decided first match first, and the added rule must come before the rule
 * that asked.  Returns a malloc()ed string, or NULL when out of memory.
 */
char *pfw_insert(const char *text, const char *line);

/*
 * The pfwc default output for @pfw: FILE.pfw -> FILE.pfsel, other names
 * (.pfw itself) -> NAME.pfsel.  malloc()ed.
 */
char *pfw_default_output(const char *pfw);

/*
 * Adds @line to the agent's copy of @c->pfw's text, compiles it in this
 * process, and only then replaces @c->pfw with it (through a temporary
 * file in the same folder), writes the compiled policy to @c->out and,
 * if @c->load, loads it from memory.  On failure the source is as it was
 * and @err holds the reason (the compiler's own messages, or the syscall
 * and errno).  Returns 0 or a negative errno (-EINVAL: the text is no
 * policy).
 *
 * The user's programs can write @c->pfw as well as the user can, so with
 * @c->load: the text compiled without @line (one parse, includes read
 * once) must be no looser than the policy in force for the caller's uid
 * (trust_judge(): exact), which the agent must know the bytes of:
 * @c->confirmed's when its SHA-256 is the one `policies` shows, or the
 * text's own compiled form when that is the policy in force (with nothing
 * in force, @c->confirmed's); else nothing is written or loaded (-EPERM,
 * the reason or the looser rules in @err).  It is loaded by this process,
 * the agent the kernel lets load the user's policy.
 */
int pfw_add_rule(const struct pfw_config *c, const char *line, char *err,
		 size_t errlen);

#endif /* PFSEL_AGENT_PFW_H */
