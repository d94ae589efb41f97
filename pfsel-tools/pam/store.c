// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - the folders root keeps: the cache of compiled policies
 * (UID.pfsel and UID.stamp) and the session counters (UID.sessions).
 *
 * Both are folders only root writes; every file in them is opened
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
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/pfsel_policy.h>

#include "pam_pfsel.h"

int pfsel_pam_open_dir_at(const int at, const char *const path,
			  const mode_t mode, const mode_t forbidden)
{
	struct stat st;
	int fd, err;

	if (mkdirat(at, path, mode) && errno != EEXIST)
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

int pfsel_pam_open_dir(const char *const path, const mode_t mode)
{
	return pfsel_pam_open_dir_at(AT_FDCWD, path, mode, S_IWGRP | S_IWOTH);
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

int pfsel_pam_write_atomic(const int dirfd, const char *const name,
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

int pfsel_pam_read_at(const int dirfd, const char *const name, const size_t max,
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

static uint32_t le32(const void *const p)
{
	const unsigned char *const b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

int pfsel_pam_blob_check(const void *const blob, const size_t len,
			 const uid_t uid, uint8_t *const digest)
{
	const unsigned char *const p = blob;
	const size_t hdr = sizeof(struct pfsel_policy_header);

	if (len < hdr ||
	    le32(p + offsetof(struct pfsel_policy_header, magic)) !=
		    PFSEL_POLICY_MAGIC ||
	    le32(p + offsetof(struct pfsel_policy_header, total_size)) != len)
		return -EBADMSG;
	if (le32(p + offsetof(struct pfsel_policy_header, flags)) &
		    PFSEL_POLICY_F_SYSTEM ||
	    le32(p + offsetof(struct pfsel_policy_header, uid)) != uid)
		return -EPERM;
	if (digest && pfsel_policy_digest(blob, len, digest))
		return -EIO;
	return 0;
}

int pfsel_pam_counter_open(const int dirfd, const uid_t uid)
{
	char name[32];
	struct stat st;
	int fd, err;

	snprintf(name, sizeof(name), "%u.sessions", (unsigned int)uid);
	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			err = -errno;
			close(fd);
			return err;
		}
	}
	return fd;
}

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
