/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - diagnostics
 *
 * Every phase reports through here, so all messages look alike:
 *
 *	file:line:col: error: one sentence
 *	<the source line>
 *	        ^
 *
 * Warnings carry their option name ("[-Wshadow]"); with -Werror they are
 * printed and counted as errors.  A note ("file:line:col: note: ...") adds a
 * second location to the diagnostic just before it, and is dropped along
 * with it when that warning is disabled.
 */
#ifndef PFWC_DIAG_H
#define PFWC_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ast.h"

/* The warnings, each with an -W option of the name in pfw_warning_names. */
enum pfw_warning {
	PFW_W_SHADOW, /* a rule that can never match */
	PFW_W_OVERLAP, /* a list member repeated or inside another member */
	PFW_W_UNUSED, /* a defined name nobody uses */
	PFW_W_OVERRIDE, /* a user rule the system policy overrides */
	PFW_W_AUDIT, /* log/quiet on a rule where it has no effect */
	PFW_W_EXACT, /* a quoted path ending in '*' or '**': that file only */
	PFW_W_PROTECT, /* 'protect' on a rule for every program */
	PFW_W_HOST, /* a host element too wide or that can hardly match; */
	/* a deny or ask by name (it holds only for names the kernel learned) */
	PFW_W_COUNT
};

/* Stop reporting (and parsing) after this many errors. */
#define PFW_DIAG_MAX_ERRORS 50

struct pfw_diag_source {
	char *name;
	char *text;
	size_t len;
	/* Offsets of line starts, built on first use, so that quoting stays
	 * cheap however many warnings a large policy gets. */
	size_t *line_starts;
	size_t n_lines;
};

struct pfw_diag {
	FILE *out;
	/* Names a message without a place ("pfwc: error: ..."): "pfwc"
	 * unless the program using the front end says otherwise. */
	const char *program;
	unsigned int errors;
	unsigned int warnings;
	bool werror;
	bool enabled[PFW_W_COUNT];
	/* Whether the last error/warning was printed, for its notes. */
	bool last_printed;
	struct pfw_diag_source *sources;
	size_t n_sources;
};

/* Start with the default warnings on (all but none: every one is useful). */
void pfw_diag_init(struct pfw_diag *diag, FILE *out);
/* Free the sources the diag adopted. */
void pfw_diag_fini(struct pfw_diag *diag);

/*
 * Hand a loaded source file to the diag so it can quote lines from it.  The
 * diag takes ownership of @text (malloc'd, @len bytes, need not end in NUL)
 * and frees it in pfw_diag_fini(); the lexer may keep reading it until then.
 */
void pfw_diag_adopt_source(struct pfw_diag *diag, const char *name, char *text,
			   size_t len);

/*
 * Apply one -W option: "-Wall", "-Werror", "-Wno-error", "-WNAME",
 * "-Wno-NAME".  Returns false if the option is unknown.
 */
bool pfw_diag_option(struct pfw_diag *diag, const char *option);

/* The option names, indexed by enum pfw_warning ("shadow", ...). */
extern const char *const pfw_warning_names[PFW_W_COUNT];

/*
 * Report an error at @loc (NULL: no location; the message is about the
 * program's own work, and names it).
 */
void pfw_error(struct pfw_diag *diag, const struct pfw_loc *loc,
	       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Report warning @which at @loc, if enabled. */
void pfw_warn(struct pfw_diag *diag, enum pfw_warning which,
	      const struct pfw_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Add a note to the last error or warning (dropped if that was not shown). */
void pfw_note(struct pfw_diag *diag, const struct pfw_loc *loc, const char *fmt,
	      ...) __attribute__((format(printf, 3, 4)));

/*
 * Say something about the program's own work that is neither error nor
 * warning ("pfwc: note: ..."); it counts as nothing, so -Werror ignores it.
 */
void pfw_notice(struct pfw_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* True once so many errors were reported that going on is pointless. */
bool pfw_diag_gave_up(const struct pfw_diag *diag);

#endif /* PFWC_DIAG_H */
