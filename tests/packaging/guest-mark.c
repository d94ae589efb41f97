// SPDX-License-Identifier: GPL-2.0-only
/*
 * guest-mark.so - the attacker's library of tests/packaging/debian-image: a
 * program of the user puts it in LD_PRELOAD wherever it can set an
 * environment, to see whether pfsel-agent or its prompt loads it.
 *
 * A process that loads it leaves a mark and nothing else: an empty file
 * "LIBRARY:COMM:PID" in the folder "marks" beside the library, LIBRARY
 * being the library's own file name, so that each copy of it (one for
 * each place the variable was put) names where the process got it from.
 * The guest (debian-guest) reads the marks as root.
 *
 * Built on the host for the guest, whose C library is Debian 12's or 13's:
 * it uses nothing newer than Debian 12's.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The name of the calling process (/proc/self/comm) into @comm. */
static void read_comm(char *comm, size_t size)
{
	ssize_t n = -1;
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, comm, size - 1);
		close(fd);
	}
	if (n <= 0) {
		snprintf(comm, size, "?");
		return;
	}
	if (comm[n - 1] == '\n')
		n--;
	comm[n] = '\0';
}

static void leave_mark(void) __attribute__((constructor));

static void leave_mark(void)
{
	char dir[PATH_MAX], mark[PATH_MAX], comm[32];
	const char *slash;
	Dl_info self;
	size_t len;
	int fd;

	/* Where this copy of the library is: its marks are beside it. */
	if (!dladdr((void *)leave_mark, &self) || !self.dli_fname)
		return;
	slash = strrchr(self.dli_fname, '/');
	if (!slash)
		return;
	len = (size_t)(slash - self.dli_fname);
	if (len >= sizeof(dir))
		return;
	memcpy(dir, self.dli_fname, len);
	dir[len] = '\0';
	read_comm(comm, sizeof(comm));
	if (snprintf(mark, sizeof(mark), "%s/marks/%s:%s:%d", dir, slash + 1,
		     comm, (int)getpid()) >= (int)sizeof(mark))
		return;
	fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}
