/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpfsel - what the library's files share, and nothing else sees.
 */
#ifndef PFSEL_LIB_INTERNAL_H
#define PFSEL_LIB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pfsel/pfsel.h>

#define PFSEL_EXPORT __attribute__((visibility("default")))

/*
 * Records the message pfsel_last_error() returns (printf-style) and
 * returns @err (a negative errno), for "return pfsel_fail(...)".
 */
int pfsel_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Clears the message: a call that succeeds leaves "" behind. */
void pfsel_clear_error(void);

/*
 * Reads the securityfs file @name (relative to pfsel_securityfs()) into a
 * malloc()ed, NUL-terminated buffer.  Fails on a NUL inside it (-EBADMSG).
 */
int pfsel_sfs_read(const char *name, char **text);

/* Writes @len bytes to securityfs file @name in one write() at offset 0. */
int pfsel_sfs_write(const char *name, const void *buf, size_t len);

/*
 * Writes @len bytes of @request to the transaction file @name in one
 * write(), then reads the answer from offset 0 of the same open file
 * (at most a page, as the kernel's transaction files hold) into a
 * malloc()ed, NUL-terminated buffer.
 */
int pfsel_sfs_transact(const char *name, const void *request, size_t len,
		       char **answer);

/*
 * Strict unsigned parse of a whole word: decimal digits only (or 0x and hex
 * digits when @base is 16), no sign, no blanks, no overflow of @max.
 */
bool pfsel_parse_u64(const char *s, int base, uint64_t max, uint64_t *out);

/*
 * -EBADMSG, with "SECURITYFS/@name line @lineno: @why" as the message: text
 * from the kernel not of the documented form.
 */
int pfsel_malformed(const char *name, unsigned int lineno, const char *why);

/* Next line of @*cursor (NUL-terminated in place), NULL at the end. */
char *pfsel_next_line(char **cursor);

#endif /* PFSEL_LIB_INTERNAL_H */
