/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Snaps for a unit test: a snap revision's meta/snap.yaml written under
 * the test's folder (tmpdir.h), where app_sandbox_of() then reads snaps'
 * metadata (app_sandbox_set_snap_mounts()).  Include after tmpdir.h.
 */
#ifndef PFSEL_TESTS_SNAP_MOUNTS_H
#define PFSEL_TESTS_SNAP_MOUNTS_H

#include <stdio.h>
#include <stdlib.h>

#include "userpolicy.h"

/* An application snap's metadata: an apps: section, no type. */
#define SNAP_YAML_APPLICATION "name: x\napps:\n  x:\n    command: bin/x\n"
/* A base snap's: type base, no apps. */
#define SNAP_YAML_BASE "name: x\ntype: base\n"

/* @yaml as NAME/REVISION (@name_rev) of the test's snaps folder. */
static inline void snap_mounts_add(const char *name_rev, const char *yaml)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p '%s/snaps/%s/meta'", dir,
		 name_rev);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/snaps/%s/meta/snap.yaml", dir,
		 name_rev);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(yaml, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/snaps", dir);
	app_sandbox_set_snap_mounts(path);
}

#endif /* PFSEL_TESTS_SNAP_MOUNTS_H */
