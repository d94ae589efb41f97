// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - the policy the person last confirmed.
 *
 * The adversary of a per-application firewall is a program running as the
 * user: it can write ~/.pfw as well as the user can.  So a new ~/.pfw
 * takes effect at login only when it is no looser than the policy the
 * person last confirmed (trust_judge(), trust.c); a looser one waits for
 * the person to confirm it (`pfsel confirm`, as root, through sudo or
 * polkit), and meanwhile the confirmed policy stays in force.  The
 * confirmed policies are kept where only root writes or reads:
 * CACHE_DIR/confirmed/UID.pfsel, the folder 0700.  What waits for
 * confirmation is noted in RUN_DIR/UID.pending (its digest only, readable
 * by all: `pfsel status` shows it to the user), so that the person is
 * told once, not at every login.
 *
 * What changes a uid's record -- a login, `pfsel confirm` -- does so under
 * the uid's lock (confirmed_lock()).  Shared by pam_pfsel, the pfsel
 * command (`pfsel confirm`, `pfsel load` and `pfsel unload` as root,
 * `pfsel status`) and the agent, which reads what the person confirmed,
 * as root, before it becomes the user; nothing here needs PAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/pfsel_policy.h>

#include "userpolicy.h"

int confirmed_open(const int cache_fd)
{
	/* Root's alone: the policies a person confirmed are theirs to see. */
	return store_open_dir_at(cache_fd, POLICY_CONFIRMED_DIR, 0700, 077);
}

int confirmed_open_existing(void)
{
	const int cache_fd = store_open_dir_at(AT_FDCWD, POLICY_CACHE_DIR, 0,
					       S_IWGRP | S_IWOTH);
	int fd;

	if (cache_fd < 0)
		return cache_fd;
	fd = store_open_dir_at(cache_fd, POLICY_CONFIRMED_DIR, 0, 077);
	close(cache_fd);
	return fd;
}

int confirmed_read(const int conf_fd, const uid_t uid, void **const blob,
		   size_t *const len)
{
	char name[32];
	void *data = NULL;
	size_t n = 0;
	int ret;

	snprintf(name, sizeof(name), "%u.pfsel", (unsigned int)uid);
	ret = store_read_at(conf_fd, name, PFSEL_POLICY_MAX_SIZE, &data, &n);
	if (ret)
		return ret;
	ret = policy_blob_check(data, n, uid, NULL);
	if (ret) {
		free(data);
		return -EBADMSG;
	}
	*blob = data;
	*len = n;
	return 0;
}

int confirmed_write(const int conf_fd, const uid_t uid, const void *const blob,
		    const size_t len)
{
	char name[32];

	if (policy_blob_check(blob, len, uid, NULL))
		return -EBADMSG;
	snprintf(name, sizeof(name), "%u.pfsel", (unsigned int)uid);
	return store_write_atomic(conf_fd, name, blob, len);
}

/* Remove @uid's file UID.@suffix of @dirfd; one that is not there is fine. */
static int remove_uid_file(const int dirfd, const uid_t uid,
			   const char *const suffix)
{
	char name[32];

	snprintf(name, sizeof(name), "%u.%s", (unsigned int)uid, suffix);
	if (unlinkat(dirfd, name, 0) && errno != ENOENT)
		return -errno;
	return 0;
}

int confirmed_forget(const int conf_fd, const uid_t uid)
{
	return remove_uid_file(conf_fd, uid, "pfsel");
}

int confirmed_lock(const int run_fd, const uid_t uid)
{
	char name[32];
	struct stat st;
	int fd, err;

	snprintf(name, sizeof(name), "%u.sessions", (unsigned int)uid);
	fd = openat(run_fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
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

int confirmed_pending_set(const int run_fd, const uid_t uid,
			  const uint8_t digest[PFSEL_DIGEST_SIZE])
{
	char name[32], text[96], hex[PFSEL_DIGEST_HEX_SIZE], *old = NULL;
	size_t len = 0;
	int n, ret, same = 0;

	snprintf(name, sizeof(name), "%u.pending", (unsigned int)uid);
	n = snprintf(text, sizeof(text), "looser %s\n",
		     pfsel_digest_hex(digest, hex));
	if (store_read_at(run_fd, name, sizeof(text), (void **)&old, &len) == 0)
		same = len == (size_t)n && !memcmp(old, text, len);
	free(old);
	if (same)
		return 0;
	ret = store_write_atomic(run_fd, name, text, (size_t)n);
	if (ret)
		return ret;
	/* The user reads it (pfsel status): a digest, nothing more. */
	if (fchmodat(run_fd, name, 0644, 0))
		return -errno;
	return 1;
}

int confirmed_pending_clear(const int run_fd, const uid_t uid)
{
	return remove_uid_file(run_fd, uid, "pending");
}

int confirmed_pending_read(const char *const run_dir, const uid_t uid,
			   uint8_t digest[PFSEL_DIGEST_SIZE])
{
	char path[4200], text[96], hex[PFSEL_DIGEST_HEX_SIZE];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u.pending", run_dir,
		 (unsigned int)uid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if (sscanf(text, "looser %64[0-9a-f]", hex) != 1 ||
	    pfsel_digest_parse(hex, digest))
		return -EBADMSG;
	return 0;
}
