/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A temporary folder for a unit test's files, shared by the tests that
 * write files of their own (a ~/.pfw, a rule file, a stand-in securityfs):
 * made by tmpdir_setup(), removed with everything in it by
 * tmpdir_teardown().  Include after <cmocka.h>.
 */
#ifndef PFSEL_TESTS_TMPDIR_H
#define PFSEL_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char dir[64];

/* @template: "/tmp/NAME.XXXXXX".  0, or -1 (for a cmocka setup). */
static inline int tmpdir_setup(const char *template)
{
	snprintf(dir, sizeof(dir), "%s", template);
	return mkdtemp(dir) ? 0 : -1;
}

static inline int tmpdir_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The path of @name in the folder (one of four static buffers in turn). */
static inline const char *in(const char *name)
{
	static char paths[4][256];
	static int next;
	char *p = paths[next++ % 4];

	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	return p;
}

/* Writes @text to @name with @mode. */
static inline void put(const char *name, const char *text, mode_t mode)
{
	FILE *f = fopen(in(name), "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(in(name), mode), 0);
}

/* The whole of @name, or NULL when it is missing (a static buffer). */
static inline const char *get(const char *name)
{
	static char buf[65536];
	FILE *f = fopen(in(name), "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

#endif /* PFSEL_TESTS_TMPDIR_H */
