// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - is the compiled policy older than ~/.pfw?
 *
 * "Older" is decided from a stamp of the source kept beside the compiled
 * policy (UID.stamp in the cache folder), taken before the compile: its
 * device and inode, size, mtime and ctime, to the nanosecond.  The policy
 * is fresh only while the source has the same stamp.  Comparing mtimes
 * for equality rather than order catches a source whose mtime went back
 * (restored from a backup, `touch -d`), and comparing the ctime, which no
 * one can set, catches an mtime put back to its old value; comparing the
 * inode catches ~/.pfw replaced by another file or re-pointed symlink.
 * Taking the stamp before the compile means an edit made while pfwc runs
 * leaves a stamp that no longer matches: the next session compiles again.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pam_pfsel.h"

void pfsel_pam_stamp_from_stat(struct pfsel_pam_stamp *const stamp,
			       const struct stat *const st)
{
	*stamp = (struct pfsel_pam_stamp){
		.dev = (uint64_t)st->st_dev,
		.ino = (uint64_t)st->st_ino,
		.size = (int64_t)st->st_size,
		.mtime_sec = (int64_t)st->st_mtim.tv_sec,
		.mtime_nsec = st->st_mtim.tv_nsec,
		.ctime_sec = (int64_t)st->st_ctim.tv_sec,
		.ctime_nsec = st->st_ctim.tv_nsec,
	};
}

int pfsel_pam_stamp_format(const struct pfsel_pam_stamp *const s,
			   char *const buf, const size_t size)
{
	const int n = snprintf(buf, size,
			       "v1 %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64
			       " %ld %" PRId64 " %ld\n",
			       s->dev, s->ino, s->size, s->mtime_sec,
			       s->mtime_nsec, s->ctime_sec, s->ctime_nsec);

	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}

static bool nsec_ok(const long nsec)
{
	return nsec >= 0 && nsec < 1000000000L;
}

int pfsel_pam_stamp_parse(const char *const text,
			  struct pfsel_pam_stamp *const stamp)
{
	struct pfsel_pam_stamp s;
	int end = -1;

	if (sscanf(text,
		   "v1 %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64
		   " %ld %" SCNd64 " %ld%n",
		   &s.dev, &s.ino, &s.size, &s.mtime_sec, &s.mtime_nsec,
		   &s.ctime_sec, &s.ctime_nsec, &end) != 7 ||
	    end < 0)
		return -EBADMSG;
	if (strcmp(text + end, "\n") && strcmp(text + end, ""))
		return -EBADMSG;
	if (s.size < 0 || !nsec_ok(s.mtime_nsec) || !nsec_ok(s.ctime_nsec))
		return -EBADMSG;
	*stamp = s;
	return 0;
}

/* -1, 0 or 1 as time @a is before, equal to or after time @b. */
static int time_cmp(const int64_t a_sec, const long a_nsec, const int64_t b_sec,
		    const long b_nsec)
{
	if (a_sec != b_sec)
		return a_sec < b_sec ? -1 : 1;
	if (a_nsec != b_nsec)
		return a_nsec < b_nsec ? -1 : 1;
	return 0;
}

enum pfsel_pam_staleness pfsel_pam_staleness(
	const struct pfsel_pam_stamp *const source, const bool have_blob,
	const struct pfsel_pam_stamp *const cached, const bool always)
{
	int cmp;

	if (always)
		return PFSEL_PAM_STALE_ALWAYS;
	if (!have_blob)
		return PFSEL_PAM_STALE_NO_BLOB;
	if (!cached)
		return PFSEL_PAM_STALE_NO_STAMP;
	if (source->dev != cached->dev || source->ino != cached->ino)
		return PFSEL_PAM_STALE_REPLACED;
	cmp = time_cmp(source->mtime_sec, source->mtime_nsec, cached->mtime_sec,
		       cached->mtime_nsec);
	if (cmp > 0)
		return PFSEL_PAM_STALE_NEWER;
	if (cmp < 0)
		return PFSEL_PAM_STALE_OLDER;
	if (source->size != cached->size ||
	    time_cmp(source->ctime_sec, source->ctime_nsec, cached->ctime_sec,
		     cached->ctime_nsec))
		return PFSEL_PAM_STALE_CHANGED;
	return PFSEL_PAM_FRESH;
}

const char *pfsel_pam_staleness_reason(const enum pfsel_pam_staleness value)
{
	switch (value) {
	case PFSEL_PAM_FRESH:
		return "the compiled policy is up to date";
	case PFSEL_PAM_STALE_ALWAYS:
		return "compiling at every session (always)";
	case PFSEL_PAM_STALE_NO_BLOB:
		return "no compiled policy yet";
	case PFSEL_PAM_STALE_NO_STAMP:
		return "no record of the source the policy was compiled from";
	case PFSEL_PAM_STALE_NEWER:
		return "the source was modified since it was compiled";
	case PFSEL_PAM_STALE_OLDER:
		return "the source's modification time went back";
	case PFSEL_PAM_STALE_REPLACED:
		return "the source is another file than the one compiled";
	case PFSEL_PAM_STALE_CHANGED:
		return "the source changed (size or change time)";
	}
	return "?";
}
