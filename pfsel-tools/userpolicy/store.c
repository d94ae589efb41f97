// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - the folders root keeps: pam_pfsel's cache of compiled
 * policies (UID.pfsel and UID.stamp) with the confirmed policies below it
 * (confirmed/UID.pfsel), and the run folder (UID.sessions, UID.pending).
 *
 * They are folders only root writes; every file in them is opened
 * relative to the folder's descriptor and never through a symlink, and a
 * new version is written to a temporary file and renamed over the old, so
 * that a reader sees the old file or the new, never half of one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userpolicy.h"

int store_open_dir_at(const int at, const char *const path, const mode_t mode,
		      const mode_t forbidden)
{
	struct stat st;
	int fd, err;

	if (mode && mkdirat(at, path, mode) && errno != EEXIST)
		return -errno;
	fd = openat(at, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid() || (st.st_mode & forbidden)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int store_open_dir(const char *const path, const mode_t mode)
{
	return store_open_dir_at(AT_FDCWD, path, mode, S_IWGRP | S_IWOTH);
}

static int write_all(const int fd, const void *const data, const size_t len)
{
	const char *p = data;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, p + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
	}
	return 0;
}

int store_write_atomic(const int dirfd, const char *const name,
		       const void *const data, const size_t len)
{
	char tmp[NAME_MAX + 1];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), ".%s.tmp", name) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* Only root writes the folder, and under the uid's lock. */
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, data, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

int store_read_at(const int dirfd, const char *const name, const size_t max,
		  void **const data, size_t *const len)
{
	struct stat st;
	size_t done = 0;
	ssize_t n;
	char *buf;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		err = -E2BIG;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	while (done < (size_t)st.st_size) {
		n = read(fd, buf + done, (size_t)st.st_size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	buf[done] = '\0';
	*data = buf;
	*len = done;
	err = 0;
out:
	close(fd);
	return err;
}
