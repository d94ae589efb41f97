/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - applications by sandbox identity, as the language writes them
 * (policy/LANGUAGE.md, "Flatpak and Snap applications"): "flatpak ID" and
 * "snap NAME", the check of ID and NAME (as Flatpak and snapd check
 * them), the directory each stands for, and the way back, from a path to
 * the identity it lies in.
 *
 * The kernel names a process of a system-wide Flatpak installation by the
 * path from init's root that reaches its executable,
 * /var/lib/flatpak/app/ID/ARCH/BRANCH/COMMIT/files/REST, and a snap's by
 * /snap/NAME/REVISION/REST.  "flatpak ID" is the pattern of every file
 * below /var/lib/flatpak/app/ID/ (a PFW_PATH_TREE), "snap NAME" of every
 * file below /snap/NAME/: an identity is a tree pattern like any other,
 * so matching, the rule relations, the lowering and the comparison of
 * policies treat it as they treat "DIR/ **", exactly.
 */
#ifndef PFWC_SANDBOX_NAMES_H
#define PFWC_SANDBOX_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"

/* The kinds of sandbox identity; NONE: a path outside them. */
enum pfw_sandbox {
	PFW_SANDBOX_NONE = 0,
	PFW_SANDBOX_FLATPAK,
	PFW_SANDBOX_SNAP,
};

/* Where root's installations put each kind's applications, one a folder. */
#define PFW_FLATPAK_APP_DIR "/var/lib/flatpak/app"
#define PFW_SNAP_DIR "/snap"

/* Longest ID Flatpak takes (flatpak_is_valid_name()). */
#define PFW_FLATPAK_ID_MAX 255
/*
 * Longest snap instance name snapd takes: a name of 2 to 40 characters,
 * and "_" and an instance key of 1 to 10 (naming.ValidateInstance()).
 */
#define PFW_SNAP_NAME_MAX 40
#define PFW_SNAP_INSTANCE_MAX (PFW_SNAP_NAME_MAX + 1 + 10)
/* Room for any identity, and its NUL. */
#define PFW_SANDBOX_ID_SIZE (PFW_FLATPAK_ID_MAX + 1)

/* The keyword of @kind ("flatpak", "snap"), or NULL for NONE. */
const char *pfw_sandbox_keyword(enum pfw_sandbox kind);

/* "Flatpak", "Snap": the kind as a person reads it, or NULL for NONE. */
const char *pfw_sandbox_label(enum pfw_sandbox kind);

/*
 * Check @id as written after the keyword of @kind.  Returns NULL when it
 * is one, else a sentence saying why not (in @buf, @size bytes, or
 * static), with *@bad the byte offset in @id the caret belongs at.
 */
const char *pfw_sandbox_check(enum pfw_sandbox kind, const char *id,
			      size_t *bad, char *buf, size_t size);

/*
 * The pattern "flatpak ID" or "snap NAME" stands for, into @pattern: a
 * PFW_PATH_TREE over the identity's folder (malloc'd path).  @id must
 * have passed pfw_sandbox_check().
 */
void pfw_sandbox_pattern(enum pfw_sandbox kind, const char *id,
			 struct pfw_path_pattern *pattern);

/*
 * The identity whose pattern @pattern is, or NONE: a tree pattern whose
 * folder is a kind's folder and a valid identity, which *@id then points
 * at (inside @pattern's path).
 */
enum pfw_sandbox pfw_sandbox_of_pattern(const struct pfw_path_pattern *pattern,
					const char **id);

/*
 * The way back: the identity whose pattern matches the path @path (a
 * file below /var/lib/flatpak/app/ID/ or /snap/NAME/ for a valid ID or
 * NAME), with its ID or NAME into @id (@size bytes, at least
 * PFW_SANDBOX_ID_SIZE); NONE, and @id "", for any other path.
 */
enum pfw_sandbox pfw_sandbox_of_path(const char *path, char *id, size_t size);

#endif /* PFWC_SANDBOX_NAMES_H */
