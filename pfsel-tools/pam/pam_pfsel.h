/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pam_pfsel - the parts of the PAM session module that do not need PAM:
 * its options, the decision whether a compiled policy is stale, the
 * per-uid session counter.  pam_pfsel.c joins them, and libuserpolicy
 * (the root-owned folders, the confirmed policy, running pfwc as the
 * user), to Linux-PAM; the unit tests (tests/unit/pfsel-tools/
 * test_pam_pfsel*.c) call them directly.
 *
 * Every function returns 0 (or a documented non-negative value) or a
 * negative errno; none logs.
 */
#ifndef PFSEL_PAM_PFSEL_H
#define PFSEL_PAM_PFSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "userpolicy.h"

/* The longest timeout= (seconds); the default is POLICY_COMPILE_TIMEOUT. */
#define PFSEL_PAM_TIMEOUT_MAX 3600

/* ---- Options ------------------------------------------------------------ */

enum pfsel_pam_on_error {
	PFSEL_PAM_ON_ERROR_KEEP, /* keep the previous policy */
	PFSEL_PAM_ON_ERROR_NONE, /* unload the user's policy */
	PFSEL_PAM_ON_ERROR_DENY, /* refuse the session */
};

enum pfsel_pam_missing {
	PFSEL_PAM_MISSING_NONE, /* no ~/.pfw: no policy for the user */
	PFSEL_PAM_MISSING_KEEP, /* no ~/.pfw: keep the previous policy */
};

/**
 * struct pfsel_pam_options - The module's arguments, parsed
 * @debug: log each step at LOG_DEBUG.
 * @always: compile at every session open, fresh or not.
 * @on_error: what a ~/.pfw that does not compile (or load) does.
 * @missing: what a missing ~/.pfw does.
 * @timeout: seconds the user's pfwc may run.
 * @pfwc: the compiler (absolute path).
 * @cache_dir: where the compiled policies are kept (absolute path).
 * @run_dir: where the session counters are kept (absolute path).
 *
 * The strings point into the argv given to the parser (or are the
 * defaults).
 */
struct pfsel_pam_options {
	bool debug;
	bool always;
	enum pfsel_pam_on_error on_error;
	enum pfsel_pam_missing missing;
	unsigned int timeout;
	const char *pfwc;
	const char *cache_dir;
	const char *run_dir;
};

/* Called for an argument the parser does not know (it is then ignored). */
typedef void (*pfsel_pam_warn_fn)(void *ctx, const char *arg);

/**
 * pfsel_pam_parse_options - Parse the module's arguments
 * @opts: filled in; defaults for what is not given.
 * @argc: @argv: the arguments, as PAM passes them.
 * @warn: called for each unknown argument, or NULL.
 * @ctx: passed to @warn.
 * @err: a message for a failure.
 * @errlen: its size.
 *
 * Return: 0, or -EINVAL for a known option with a bad value (a relative
 * path, an unknown on_error=, a timeout out of range, "debug=1"); the
 * last one given wins when an option is repeated.
 */
int pfsel_pam_parse_options(struct pfsel_pam_options *opts, int argc,
			    const char **argv, pfsel_pam_warn_fn warn,
			    void *ctx, char *err, size_t errlen);

const char *pfsel_pam_on_error_name(enum pfsel_pam_on_error value);
const char *pfsel_pam_missing_name(enum pfsel_pam_missing value);

/* ---- Staleness ---------------------------------------------------------- */

/**
 * struct pfsel_pam_stamp - What identifies one version of ~/.pfw
 *
 * Kept beside the compiled policy: the policy is fresh only while the
 * source still has every one of these values.
 */
struct pfsel_pam_stamp {
	uint64_t dev;
	uint64_t ino;
	int64_t size;
	int64_t mtime_sec;
	long mtime_nsec;
	int64_t ctime_sec;
	long ctime_nsec;
};

enum pfsel_pam_staleness {
	PFSEL_PAM_FRESH,
	PFSEL_PAM_STALE_ALWAYS, /* the "always" option */
	PFSEL_PAM_STALE_NO_BLOB, /* nothing compiled yet */
	PFSEL_PAM_STALE_NO_STAMP, /* compiled, but from what is unknown */
	PFSEL_PAM_STALE_NEWER, /* the source was modified since */
	PFSEL_PAM_STALE_OLDER, /* the source's mtime went back (restored) */
	PFSEL_PAM_STALE_REPLACED, /* another file (device, inode) */
	PFSEL_PAM_STALE_CHANGED, /* same mtime, but size or ctime differ */
};

void pfsel_pam_stamp_from_stat(struct pfsel_pam_stamp *stamp,
			       const struct stat *st);

/* "v1 DEV INO SIZE MSEC MNSEC CSEC CNSEC\n": the length, or -ENOSPC. */
int pfsel_pam_stamp_format(const struct pfsel_pam_stamp *stamp, char *buf,
			   size_t size);

/* The reverse: 0, or -EBADMSG for anything else. */
int pfsel_pam_stamp_parse(const char *text, struct pfsel_pam_stamp *stamp);

/**
 * pfsel_pam_staleness - Whether the compiled policy must be compiled again
 * @source: the source as it is now.
 * @have_blob: a compiled policy is in the cache.
 * @cached: the stamp kept with it, or NULL when there is none.
 * @always: the "always" option.
 *
 * Times are compared to the nanosecond, and for equality: an mtime that
 * went back (a file restored from a backup, `touch -d`) is a change as
 * well as one that went forward; and the ctime, which nobody can set,
 * catches an mtime put back to its old value.
 */
enum pfsel_pam_staleness
pfsel_pam_staleness(const struct pfsel_pam_stamp *source, bool have_blob,
		    const struct pfsel_pam_stamp *cached, bool always);

const char *pfsel_pam_staleness_reason(enum pfsel_pam_staleness value);

/* ---- The session counter (counter.c) ----------------------------------- */

/*
 * The counter "UID.sessions" of the run folder, opened and locked by
 * confirmed_lock(): the lock also serialises a uid's session opens and
 * closes, and `pfsel confirm`.
 */

/* The count: 0 for an empty file, -EBADMSG for anything but a number. */
int pfsel_pam_counter_read(int fd, unsigned long *count);

/**
 * pfsel_pam_counter_add - Add @delta (+1 or -1) to the counter
 * @fd: from confirmed_lock().
 * @delta: +1 at a session's open, -1 at its close.
 * @before: set to the count before.
 * @after: set to the count after.
 *
 * A count that cannot be read is taken as 0 (and rewritten).  A decrement
 * of 0 leaves 0 and is -ERANGE (a close with no open counted).
 *
 * Return: 0, -ERANGE, or the error of the write.
 */
int pfsel_pam_counter_add(int fd, int delta, unsigned long *before,
			  unsigned long *after);

#endif /* PFSEL_PAM_PFSEL_H */
