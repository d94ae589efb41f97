/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpfsel - what the library's files share, and nothing else sees.
 */
#ifndef PFSEL_LIB_INTERNAL_H
#define PFSEL_LIB_INTERNAL_H

#include <stddef.h>

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

#endif /* PFSEL_LIB_INTERNAL_H */
