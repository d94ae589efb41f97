/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - host names as the language writes them (policy/LANGUAGE.md,
 * "Host names"): their check, with the place of the first problem for a
 * caret, and their normal (lower-case) form.
 */
#ifndef PFWC_HOST_NAMES_H
#define PFWC_HOST_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"

/* Longest label of a host name, in characters. */
#define PFW_HOST_LABEL_MAX 63

/*
 * Check the host pattern @text as written after "host" ("example.org",
 * "*.Example.ORG", "xn--bcher-kva.example") and turn it into @host (name
 * lower-cased, "*." taken off into @host->below; the name is malloc'd).
 * Returns NULL on success, else a sentence saying what is wrong, with
 * *@bad the byte offset in @text the caret belongs at; @host is then
 * untouched.  The sentence is in @buf (@size bytes) or static.
 */
const char *pfw_host_parse(const char *text, struct pfw_host *host, size_t *bad,
			   char *buf, size_t size);

/*
 * The IDNA ASCII form ("xn--" labels, RFC 3492 Punycode) of @text, a name
 * in UTF-8, into @buf: ASCII labels are lower-cased as they are, others
 * encoded from their code points as written (no Unicode case mapping or
 * normalisation, so it is the IDNA form when the name is already in lower
 * case and NFC).  False if @text is not UTF-8 or the result does not fit.
 */
bool pfw_host_to_ascii(const char *text, char *buf, size_t size);

#endif /* PFWC_HOST_NAMES_H */
