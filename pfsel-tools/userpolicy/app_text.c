// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - an application's path as a person reads it and as the
 * language writes it: a path below a system-wide Flatpak installation's
 * or a snap's folder is that application, "flatpak ID" or "snap NAME"
 * (app_sandbox_of(), app_path_text()).
 *
 * The one place the tools map a path to its sandbox identity: `pfsel
 * log`, audit2pfw, the rule an "always" answer writes (rule_text.c), the
 * prompt's question and its monitor call it.  It asks the language's own
 * definition (libpfw, compiler/sandbox_names.h), so the identity shown
 * for a path is the one whose rule matches that path, and no other.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sandbox_names.h"
#include "userpolicy.h"

_Static_assert(APP_SANDBOX_ID_SIZE >= PFW_SANDBOX_ID_SIZE,
	       "an identity fits app_sandbox_of()'s buffer");
_Static_assert((int)APP_SANDBOX_FLATPAK == (int)PFW_SANDBOX_FLATPAK &&
		       (int)APP_SANDBOX_SNAP == (int)PFW_SANDBOX_SNAP,
	       "the kinds are the language's");

enum app_sandbox app_sandbox_of(const char *path, char id[APP_SANDBOX_ID_SIZE])
{
	return (enum app_sandbox)pfw_sandbox_of_path(path, id,
						     APP_SANDBOX_ID_SIZE);
}

const char *app_sandbox_label(const enum app_sandbox kind)
{
	return pfw_sandbox_label((enum pfw_sandbox)kind);
}

int app_path_text(const char *path, char *buf, const size_t size)
{
	char id[APP_SANDBOX_ID_SIZE];
	const enum app_sandbox kind = app_sandbox_of(path, id);
	int n;

	if (kind != APP_SANDBOX_NONE)
		n = snprintf(buf, size, "%s %s",
			     pfw_sandbox_keyword((enum pfw_sandbox)kind), id);
	else
		n = pfsel_escape(path, buf, size, PFSEL_ESCAPE_QUOTE);
	if (n < 0)
		return n;
	if ((size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -ENOSPC;
	}
	return n;
}
