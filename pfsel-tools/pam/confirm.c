// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - the policy the person last confirmed, and what may replace
 * it without asking them.
 *
 * The adversary of a per-application firewall is a program running as the
 * user: it can write ~/.pfw as well as the user can.  So a new ~/.pfw
 * takes effect at login only when it is no looser than the policy the
 * person last confirmed (pfsel_compare(): exact, class by class); a
 * looser one waits for the person to confirm it (`pfsel load`, as root,
 * through sudo or polkit), and meanwhile the confirmed policy stays in
 * force.  The confirmed policies are kept where only root writes or
 * reads: CACHE_DIR/confirmed/UID.pfsel, the folder 0700.  What waits for
 * confirmation is noted in RUN_DIR/UID.pending (its digest only,
 * readable by all: `pfsel status` shows it to the user), so that the
 * person is told once, not at every login.
 *
 * Shared by pam_pfsel.c and the pfsel command (`pfsel load` as root,
 * `pfsel status`); nothing here needs PAM.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "pam_pfsel.h"

int pfsel_pam_open_confirmed(const int cache_fd)
{
	/* Root's alone: the policies a person confirmed are theirs to see. */
	return pfsel_pam_open_dir_at(cache_fd, PFSEL_PAM_CONFIRMED, 0700, 077);
}

int pfsel_pam_read_confirmed(const int conf_fd, const uid_t uid,
			     void **const blob, size_t *const len)
{
	char name[32];
	void *data = NULL;
	size_t n = 0;
	int ret;

	snprintf(name, sizeof(name), "%u.pfsel", (unsigned int)uid);
	ret = pfsel_pam_read_at(conf_fd, name, PFSEL_POLICY_MAX_SIZE, &data,
				&n);
	if (ret)
		return ret;
	ret = pfsel_pam_blob_check(data, n, uid, NULL);
	if (ret) {
		free(data);
		return -EBADMSG;
	}
	*blob = data;
	*len = n;
	return 0;
}

int pfsel_pam_write_confirmed(const int conf_fd, const uid_t uid,
			      const void *const blob, const size_t len)
{
	char name[32];

	if (pfsel_pam_blob_check(blob, len, uid, NULL))
		return -EBADMSG;
	snprintf(name, sizeof(name), "%u.pfsel", (unsigned int)uid);
	return pfsel_pam_write_atomic(conf_fd, name, blob, len);
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

int pfsel_pam_forget_confirmed(const int conf_fd, const uid_t uid)
{
	return remove_uid_file(conf_fd, uid, "pfsel");
}

enum pfsel_pam_judgement
pfsel_pam_judge(const void *const confirmed, const size_t confirmed_len,
		const void *const candidate, const size_t candidate_len,
		const uid_t uid, const uint8_t *const loaded)
{
	uint8_t digest[PFSEL_DIGEST_SIZE];
	int ret;

	if (!confirmed)
		return PFSEL_PAM_FIRST;
	if (confirmed_len == candidate_len &&
	    !memcmp(confirmed, candidate, candidate_len))
		return PFSEL_PAM_CONFIRMED_SAME;
	/*
	 * In force already: loaded by the root side or by the agent the
	 * root side registered (an "always" answer at its prompt), the only
	 * ones the kernel lets load a user's policy.  Told by SHA-256: the
	 * user's programs write ~/.pfw and so choose what it compiles to,
	 * which a checksum could be made to match.
	 */
	if (loaded &&
	    !pfsel_pam_blob_check(candidate, candidate_len, uid, digest) &&
	    !memcmp(loaded, digest, sizeof(digest)))
		return PFSEL_PAM_IN_FORCE;
	ret = pfsel_compare(confirmed, confirmed_len, candidate, candidate_len,
			    NULL, 0);
	if (ret == 0)
		return PFSEL_PAM_NO_LOOSER;
	return ret == 1 ? PFSEL_PAM_LOOSER : PFSEL_PAM_UNCOMPARABLE;
}

const char *pfsel_pam_judgement_name(const enum pfsel_pam_judgement value)
{
	switch (value) {
	case PFSEL_PAM_FIRST:
		return "nothing confirmed yet: it is confirmed now";
	case PFSEL_PAM_CONFIRMED_SAME:
		return "the confirmed policy itself";
	case PFSEL_PAM_IN_FORCE:
		return "in force already (loaded by the root side or the "
		       "agent): confirmed now";
	case PFSEL_PAM_NO_LOOSER:
		return "no looser than the confirmed policy";
	case PFSEL_PAM_LOOSER:
		return "looser than the confirmed policy: it waits for "
		       "confirmation";
	case PFSEL_PAM_UNCOMPARABLE:
		return "cannot be compared with the confirmed policy: it waits "
		       "for confirmation";
	}
	return "?";
}

bool pfsel_pam_judgement_loads(const enum pfsel_pam_judgement value)
{
	return value != PFSEL_PAM_LOOSER && value != PFSEL_PAM_UNCOMPARABLE;
}

int pfsel_pam_pending_set(const int run_fd, const uid_t uid,
			  const uint8_t digest[PFSEL_DIGEST_SIZE])
{
	char name[32], text[96], hex[PFSEL_DIGEST_HEX_SIZE], *old = NULL;
	size_t len = 0;
	int n, ret, same = 0;

	snprintf(name, sizeof(name), "%u.pending", (unsigned int)uid);
	n = snprintf(text, sizeof(text), "looser %s\n",
		     pfsel_digest_hex(digest, hex));
	if (pfsel_pam_read_at(run_fd, name, sizeof(text), (void **)&old,
			      &len) == 0)
		same = len == (size_t)n && !memcmp(old, text, len);
	free(old);
	if (same)
		return 0;
	ret = pfsel_pam_write_atomic(run_fd, name, text, (size_t)n);
	if (ret)
		return ret;
	/* The user reads it (pfsel status): a digest, nothing more. */
	if (fchmodat(run_fd, name, 0644, 0))
		return -errno;
	return 1;
}

int pfsel_pam_pending_clear(const int run_fd, const uid_t uid)
{
	return remove_uid_file(run_fd, uid, "pending");
}

int pfsel_pam_pending_read(const char *const run_dir, const uid_t uid,
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
