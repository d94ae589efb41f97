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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sandbox_names.h"
#include "userpolicy.h"

_Static_assert(APP_SANDBOX_ID_SIZE >= PFW_SANDBOX_ID_SIZE,
	       "an identity fits app_sandbox_of()'s buffer");
_Static_assert((int)APP_SANDBOX_FLATPAK == (int)PFW_SANDBOX_FLATPAK &&
		       (int)APP_SANDBOX_SNAP == (int)PFW_SANDBOX_SNAP,
	       "the kinds are the language's");

/*
 * Whether @yaml, a snap's meta/snap.yaml, declares an application snap:
 * a top-level `apps:` section and no top-level `type:` but `app` (snapd's
 * default).  Top-level keys start their line; snapd writes them so.
 */
static bool snap_yaml_is_application(FILE *yaml)
{
	char line[512];
	bool apps = false, app_type = true;

	while (fgets(line, sizeof(line), yaml)) {
		if (!strncmp(line, "apps:", 5)) {
			apps = true;
		} else if (!strncmp(line, "type:", 5)) {
			const char *v = line + 5;
			size_t n;

			v += strspn(v, " \t\"'");
			n = strcspn(v, " \t\"'#\r\n");
			app_type = n == 3 && !strncmp(v, "app", 3);
		}
		/* The rest of a line longer than the buffer starts no key. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), yaml))
			;
	}
	return apps && app_type;
}

/* Whether the snap revision @path lies in, under @snaps, is an application. */
static bool snap_is_application(const char *snaps, const char *path)
{
	const char *name = path + strlen(APP_SNAP_MOUNTS "/");
	const char *rev = strchr(name, '/');
	const char *rest = rev ? strchr(rev + 1, '/') : NULL;
	char meta[PATH_MAX];
	bool application;
	FILE *yaml;
	int n;

	if (!rest || (rest - rev == 2 && rev[1] == '.') ||
	    (rest - rev == 3 && rev[1] == '.' && rev[2] == '.'))
		return false;
	n = snprintf(meta, sizeof(meta), "%s/%.*s/meta/snap.yaml", snaps,
		     (int)(rest - name), name);
	if (n < 0 || (size_t)n >= sizeof(meta))
		return false;
	yaml = fopen(meta, "re");
	if (!yaml)
		return false;
	application = snap_yaml_is_application(yaml);
	fclose(yaml);
	return application;
}

static char snap_mounts[PATH_MAX] = APP_SNAP_MOUNTS;

void app_sandbox_set_snap_mounts(const char *dir)
{
	snprintf(snap_mounts, sizeof(snap_mounts), "%s",
		 dir ? dir : APP_SNAP_MOUNTS);
}

enum app_sandbox app_sandbox_of(const char *path, char id[APP_SANDBOX_ID_SIZE])
{
	const enum app_sandbox kind = (enum app_sandbox)pfw_sandbox_of_path(
		path, id, APP_SANDBOX_ID_SIZE);

	if (kind == APP_SANDBOX_SNAP &&
	    !snap_is_application(snap_mounts, path)) {
		id[0] = '\0';
		return APP_SANDBOX_NONE;
	}
	return kind;
}

const char *app_sandbox_label(const enum app_sandbox kind)
{
	return pfw_sandbox_label((enum pfw_sandbox)kind);
}

const char *app_sandbox_keyword(const enum app_sandbox kind)
{
	return pfw_sandbox_keyword((enum pfw_sandbox)kind);
}

int app_path_text(const char *path, char *buf, const size_t size)
{
	char id[APP_SANDBOX_ID_SIZE];
	const enum app_sandbox kind = app_sandbox_of(path, id);
	int n;

	if (kind != APP_SANDBOX_NONE)
		n = snprintf(buf, size, "%s %s", app_sandbox_keyword(kind), id);
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
