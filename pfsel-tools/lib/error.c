// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - the per-thread message behind pfsel_last_error().
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char last_error[512];

PFSEL_EXPORT const char *pfsel_last_error(void)
{
	return last_error;
}

int pfsel_fail(const int err, const char *const fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

void pfsel_clear_error(void)
{
	last_error[0] = '\0';
}
