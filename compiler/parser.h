/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the parser: tokens to an AST, includes expanded in place
 *
 * One function per statement, each checking its own syntax.  The parser
 * records names as written (struct pfw_ref); sema resolves them.  What the
 * parser can decide from one rule alone it decides here: the narrowing of an
 * implicit operation or protocol list by the rule's own address and port
 * clauses, and the errors for contradictions written out explicitly.
 *
 * After a syntax error the parser skips to the next ';' and goes on, so one
 * run reports every independent mistake.
 */
#ifndef PFWC_PARSER_H
#define PFWC_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"

/* Deepest nesting of include statements. */
#define PFW_INCLUDE_DEPTH_MAX 16
/* Largest source file pfwc reads. */
#define PFW_SOURCE_SIZE_MAX (64u << 20)

struct pfw_parse_options {
	/* false: "include" is an error (the fuzzer must not open files). */
	bool allow_includes;
	/*
	 * pfsel-agent's rule file (rule_file.h): its rules are answers, each
	 * "allow" or "deny" with a "scope" clause or none (once); settings,
	 * "ask", "include", "log", "quiet" and "protect" are errors.  In a
	 * policy, "scope" is the error.
	 */
	bool rule_file;
};

/*
 * Parse the file at @path and everything it includes.  Syntax errors go to
 * @diag, and the returned policy then holds what could be parsed; check
 * @diag->errors.  Returns NULL, with an error reported, only when @path
 * itself cannot be read.
 */
struct pfw_policy *pfw_parse_file(const char *path,
				  const struct pfw_parse_options *options,
				  struct pfw_diag *diag);

/* The same, for @len bytes of source text named @name (copied). */
struct pfw_policy *pfw_parse_buffer(const char *name, const char *text,
				    size_t len,
				    const struct pfw_parse_options *options,
				    struct pfw_diag *diag);

/*
 * Read a whole regular file of at most PFW_SOURCE_SIZE_MAX bytes.  Returns
 * the malloc'd bytes and sets *@len, or NULL with errno set (EFBIG if too
 * large).  Shared by the driver, the services reader and includes.
 */
char *pfw_read_source(const char *path, size_t *len);

/*
 * Turn pattern text (an exact path, DIR + slash-star, DIR + slash-star-star,
 * or a lone star) into a path pattern.  Returns NULL on success, else a sentence saying what is wrong.
 * Shared with --query, which takes the same shapes on its command line.
 */
const char *pfw_parse_path_pattern(const char *text,
				   struct pfw_path_pattern *pattern);

/*
 * The same for the text of a quoted path: always PFW_PATH_EXACT, every
 * byte itself ('*' too); repeated '/' are one; it must be absolute, and
 * may not end in '/' or hold '.' or '..' components.
 */
const char *pfw_parse_exact_path(const char *text,
				 struct pfw_path_pattern *pattern);

#endif /* PFWC_PARSER_H */
