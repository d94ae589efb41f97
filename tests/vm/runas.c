// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID CMD [ARG...] - run CMD as UID (with GID = UID, no
 * supplementary groups), for the VM tests' unprivileged users.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID CMD [ARG...]\n");
		return 2;
	}
	errno = 0;
	id = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || id > 0xfffffffeUL) {
		fprintf(stderr, "runas: '%s' is not a uid\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setresgid(id, id, id) ||
	    setresuid(id, id, id)) {
		fprintf(stderr, "runas: cannot become uid %lu: %s\n", id,
			strerror(errno));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: execvp(%s): %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
