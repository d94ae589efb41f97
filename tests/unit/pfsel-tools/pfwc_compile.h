/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests that need real compiled policies: find the pfwc of the build
 * ($BUILD/bin/pfwc, else build/bin/pfwc beside build/tests/pfsel-tools/)
 * and compile a .pfw text with it.  Included by one test file each.
 */
#ifndef PFSEL_TEST_PFWC_COMPILE_H
#define PFSEL_TEST_PFWC_COMPILE_H

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct blob {
	char *data;
	size_t len;
};

static char pfwc[PATH_MAX];

/* A cmocka group setup: 0 when pfwc's path is known. */
static int find_pfwc(void **state)
{
	const char *build = getenv("BUILD");
	char self[PATH_MAX];
	ssize_t n;

	(void)state;
	if (build && *build) {
		snprintf(pfwc, sizeof(pfwc), "%s/bin/pfwc", build);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(pfwc, sizeof(pfwc), "%s/../../bin/pfwc", dirname(self));
	return 0;
}

/*
 * Compile @text, written to @src (a mkstemp() template when it ends in
 * XXXXXX, else that very path: the blob names its source, so blobs meant
 * to differ in @text alone come from one name), for @uid, with @quiet
 * pfwc's warnings unshown (policies a test generates by the hundred);
 * fails the test when pfwc does.
 */
static struct blob compile_at(char *src, const char *text, unsigned int uid,
			      bool quiet)
{
	const size_t n = strlen(src);
	char cmd[PATH_MAX + 128];
	struct blob b = { NULL, 0 };
	size_t cap = 0, got;
	FILE *f, *p;
	int fd;

	if (n >= 6 && !strcmp(src + n - 6, "XXXXXX"))
		fd = mkstemp(src);
	else
		fd = open(src, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' --uid %u -o - %s%s", pfwc, uid, src,
		 quiet ? " 2>/dev/null" : "");
	p = popen(cmd, "r");
	assert_non_null(p);
	for (;;) {
		if (b.len == cap) {
			cap = cap ? 2 * cap : 65536;
			b.data = realloc(b.data, cap);
			assert_non_null(b.data);
		}
		got = fread(b.data + b.len, 1, cap - b.len, p);
		if (!got)
			break;
		b.len += got;
	}
	if (pclose(p) != 0)
		fail_msg("pfwc failed on:\n%s", text);
	unlink(src);
	assert_true(b.len > 0);
	return b;
}

/* As compile_for(), with @quiet as compile_at() has it. */
static inline struct blob compile_quietly(const char *text, unsigned int uid,
					  bool quiet)
{
	char src[] = "/tmp/pfsel-unit-pfw-XXXXXX";

	return compile_at(src, text, uid, quiet);
}

/* Compile @text for @uid; fails the test when pfwc does. */
static inline struct blob compile_for(const char *text, unsigned int uid)
{
	return compile_quietly(text, uid, false);
}

#endif /* PFSEL_TEST_PFWC_COMPILE_H */
