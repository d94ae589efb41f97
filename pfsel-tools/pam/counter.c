// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - the per-uid session counter, RUN_DIR/UID.sessions: one
 * decimal number and a newline, read and written under the uid's lock
 * (confirmed_lock(), which opens it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pam_pfsel.h"

int pfsel_pam_counter_read(const int fd, unsigned long *const count)
{
	char buf[32], *end;
	unsigned long n;
	ssize_t len;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	if (len == 0) {
		*count = 0;
		return 0;
	}
	if (buf[0] < '0' || buf[0] > '9')
		return -EBADMSG;
	errno = 0;
	n = strtoul(buf, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -EBADMSG;
	*count = n;
	return 0;
}

int pfsel_pam_counter_add(const int fd, const int delta,
			  unsigned long *const before,
			  unsigned long *const after)
{
	unsigned long count = 0, next;
	char buf[32];
	int len, ret = 0;

	if (pfsel_pam_counter_read(fd, &count))
		count = 0;
	if (delta < 0 && count == 0) {
		next = 0;
		ret = -ERANGE;
	} else {
		next = delta < 0 ? count - 1 : count + 1;
	}
	len = snprintf(buf, sizeof(buf), "%lu\n", next);
	if (ftruncate(fd, 0))
		return -errno;
	if (pwrite(fd, buf, (size_t)len, 0) != len)
		return -EIO;
	*before = count;
	*after = next;
	return ret;
}
