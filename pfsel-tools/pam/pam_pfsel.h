/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pam_pfsel - the parts of the PAM session module that do not need PAM:
 * its options, the decision whether a compiled policy is stale, the
 * per-uid session counter, the root-owned cache, and running pfwc as the
 * user.  pam_pfsel.c joins them to Linux-PAM; the unit tests
 * (tests/unit/pfsel-tools/test_pam_pfsel*.c) call them directly.
 *
 * Every function returns 0 (or a documented non-negative value) or a
 * negative errno; none logs.
 */
#ifndef PFSEL_PAM_PFSEL_H
#define PFSEL_PAM_PFSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <pwd.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <pfsel/pfsel.h>

#ifndef PFSEL_PAM_PFWC
#define PFSEL_PAM_PFWC "/usr/bin/pfwc"
#endif
#define PFSEL_PAM_CACHE_DIR "/var/lib/pfsel"
#define PFSEL_PAM_RUN_DIR "/run/pfsel"
/* The policies people confirmed: a folder of the cache folder, root's. */
#define PFSEL_PAM_CONFIRMED "confirmed"
/* Seconds pfwc (and the stat of ~/.pfw) may take as the user. */
#define PFSEL_PAM_TIMEOUT 30
#define PFSEL_PAM_TIMEOUT_MAX 3600
/* The user's policy, in their home. */
#define PFSEL_PAM_SOURCE ".pfw"

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

/* ---- Safe folders, the cache ------------------------------------------- */

/**
 * pfsel_pam_open_dir - Open (creating it if need be) a private folder
 * @path: absolute path; only its last component is created (mode 0700
 *        or @mode).
 * @mode: for mkdir().
 *
 * The folder must be a real directory (not a symlink), owned by the
 * caller's effective uid, and writable by no one else.
 *
 * Return: a directory descriptor (O_CLOEXEC), or -ENOTDIR, -EPERM (wrong
 * owner or mode), or the error of mkdir()/open().
 */
int pfsel_pam_open_dir(const char *path, mode_t mode);

/*
 * The same relative to the folder @at (or AT_FDCWD), the folder's mode
 * having none of the bits @forbidden (pfsel_pam_open_dir(): S_IWGRP |
 * S_IWOTH).
 */
int pfsel_pam_open_dir_at(int at, const char *path, mode_t mode,
			  mode_t forbidden);

/* Write @len bytes to @name in @dirfd: a temporary file, fsync, rename. */
int pfsel_pam_write_atomic(int dirfd, const char *name, const void *data,
			   size_t len);

/*
 * Read regular file @name of @dirfd (not through a symlink), at most @max
 * bytes (else -E2BIG): a malloc()ed buffer in @data, NUL-terminated
 * beyond @len.
 */
int pfsel_pam_read_at(int dirfd, const char *name, size_t max, void **data,
		      size_t *len);

/**
 * pfsel_pam_blob_check - Whether a blob is a user policy for @uid
 * @blob: @len: the compiled policy.
 * @uid: whose it must be.
 * @digest: NULL, or set to its SHA-256 (as `policies` shows a loaded
 *          policy's: pfsel_policy_digest()).
 *
 * Return: 0, -EBADMSG (not a policy, sizes disagree), -EPERM (the
 * system policy, or another uid's), -EIO (no digest).
 */
int pfsel_pam_blob_check(const void *blob, size_t len, uid_t uid,
			 uint8_t *digest);

/* ---- The session counter ------------------------------------------------ */

/**
 * pfsel_pam_counter_open - Open and lock (flock, exclusive) uid's counter
 * @dirfd: the run folder (pfsel_pam_open_dir()).
 * @uid: the user.
 *
 * The file is "UID.sessions", one decimal number and a newline.  The
 * lock also serialises a uid's session opens and closes.
 *
 * Return: the descriptor (close it to unlock), or a negative errno.
 */
int pfsel_pam_counter_open(int dirfd, uid_t uid);

/* The count: 0 for an empty file, -EBADMSG for anything but a number. */
int pfsel_pam_counter_read(int fd, unsigned long *count);

/**
 * pfsel_pam_counter_add - Add @delta (+1 or -1) to the counter
 * @fd: from pfsel_pam_counter_open().
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

/* ---- Running as the user ----------------------------------------------- */

/**
 * struct pfsel_pam_user - Whom to become
 * @uid: @gid: the user's ids.
 * @groups: @ngroups: supplementary groups (getgrouplist()).
 * @home: the home folder, where pfwc runs.
 * @name: the user name (for USER and LOGNAME).
 */
struct pfsel_pam_user {
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	const char *home;
	const char *name;
};

/**
 * struct pfsel_pam_account - A user looked up (account.c)
 * @user: whom to become; its strings and groups point into this.
 * @pw: the passwd entry.
 * @pwbuf: @pw's strings.
 * @groups: the supplementary groups (getgrouplist()).
 */
struct pfsel_pam_account {
	struct pfsel_pam_user user;
	struct passwd pw;
	char *pwbuf;
	gid_t *groups;
};

/*
 * Look a user up by @name (or, when it is NULL, by @uid), with their
 * groups: 0; -ESRCH no such user; -E2BIG too many groups; -ENOMEM; or
 * the error of getpwnam_r()/getpwuid_r().  Free it with
 * pfsel_pam_account_free() in every case.
 */
int pfsel_pam_account_lookup(struct pfsel_pam_account *a, const char *name,
			     uid_t uid);
void pfsel_pam_account_free(struct pfsel_pam_account *a);

/**
 * pfsel_pam_source_stat - stat() ~/.pfw as the user, in a child process
 * @user: whom to become.
 * @timeout: seconds.
 * @stamp: set from the stat.
 *
 * The child drops to the user for good (and checks that it cannot get
 * root back), changes to the home folder and follows ~/.pfw as the user
 * would: a symlink to a file the user may not look at fails as it would
 * for them.
 *
 * Return: 0; -ENOENT when there is no ~/.pfw (or no home); -EPERM when
 * the child could not become the user; -ETIMEDOUT; the stat's error.
 */
int pfsel_pam_source_stat(const struct pfsel_pam_user *user,
			  unsigned int timeout, struct pfsel_pam_stamp *stamp);

/**
 * pfsel_pam_compile - Run pfwc as the user on ~/.pfw
 * @user: whom to become.
 * @pfwc: the compiler.
 * @timeout: seconds; then the child is killed.
 * @blob: set to the compiled policy (malloc()ed) on success.
 * @len: its length.
 * @diag: set to the first line pfwc wrote to its standard error.
 * @diaglen: size of @diag.
 *
 * Runs `pfwc --uid=UID -o - HOME/.pfw` in a child that has become the
 * user (as pfsel_pam_source_stat()), in the home folder, with an empty
 * environment but HOME, USER, LOGNAME and PATH; the policy comes back
 * through a pipe.
 *
 * Return: 0; -EBADMSG when pfwc failed (status 1: errors in the policy;
 * others: see @diag); -EPERM when the child could not become the user;
 * -ENOEXEC when pfwc could not be run; -ETIMEDOUT; -E2BIG for a policy
 * over PFSEL_POLICY_MAX_SIZE; -ENODATA for an empty one.
 */
int pfsel_pam_compile(const struct pfsel_pam_user *user, const char *pfwc,
		      unsigned int timeout, void **blob, size_t *len,
		      char *diag, size_t diaglen);

/* ---- The confirmed policy (confirm.c) ---------------------------------- */

/*
 * Open (creating it, 0700) the folder "confirmed" of the cache folder:
 * a directory descriptor, or -ENOTDIR, -EPERM (not root's alone), or the
 * error of mkdirat()/openat().
 */
int pfsel_pam_open_confirmed(int cache_fd);

/*
 * The policy uid last confirmed (UID.pfsel): 0 and a malloc()ed @blob;
 * -ENOENT when there is none; -EBADMSG when it is not a policy for @uid.
 */
int pfsel_pam_read_confirmed(int conf_fd, uid_t uid, void **blob, size_t *len);

/* Record @blob as the policy @uid confirmed (atomically): 0 or -errno. */
int pfsel_pam_write_confirmed(int conf_fd, uid_t uid, const void *blob,
			      size_t len);

/* Forget what @uid confirmed (pfsel unload as root): 0 or -errno. */
int pfsel_pam_forget_confirmed(int conf_fd, uid_t uid);

/* What may happen to a policy compiled from ~/.pfw (the candidate). */
enum pfsel_pam_judgement {
	PFSEL_PAM_FIRST, /* nothing confirmed: load it, it is confirmed */
	PFSEL_PAM_CONFIRMED_SAME, /* the confirmed policy, byte for byte */
	PFSEL_PAM_IN_FORCE, /* loaded already by a trusted path: confirm */
	PFSEL_PAM_NO_LOOSER, /* load it; it is the confirmed one from now */
	PFSEL_PAM_LOOSER, /* keep the confirmed one in force */
	PFSEL_PAM_UNCOMPARABLE, /* as looser: cannot prove it is not */
};

/**
 * pfsel_pam_judge - Whether a candidate policy may be loaded unconfirmed
 * @confirmed: @confirmed_len: the confirmed policy, or NULL for none.
 * @candidate: @candidate_len: the policy compiled from ~/.pfw (checked to
 *             be a policy for @uid).
 * @uid: the user.
 * @loaded: NULL, or the SHA-256 of the policy loaded for @uid (from
 *          `policies`): the kernel lets only the root side and the agent
 *          the root side registered load it.
 *
 * "No looser" is pfsel_compare(): exact.  Whatever cannot be compared
 * (an invalid confirmed policy, out of memory) waits for confirmation.
 */
enum pfsel_pam_judgement
pfsel_pam_judge(const void *confirmed, size_t confirmed_len,
		const void *candidate, size_t candidate_len, uid_t uid,
		const uint8_t *loaded);

const char *pfsel_pam_judgement_name(enum pfsel_pam_judgement value);

/* Whether the candidate is loaded (and not kept waiting). */
bool pfsel_pam_judgement_loads(enum pfsel_pam_judgement value);

/*
 * Note in the run folder (UID.pending, 0644: "looser SHA256") that a
 * policy waits for confirmation: 1 when the note is new (tell the
 * person), 0 when it said so already, or a negative errno.
 */
int pfsel_pam_pending_set(int run_fd, uid_t uid,
			  const uint8_t digest[PFSEL_DIGEST_SIZE]);

/* Remove the note: 0 (also when there was none) or a negative errno. */
int pfsel_pam_pending_clear(int run_fd, uid_t uid);

/* Read the note (any user may): 0 and its digest, -ENOENT, -EBADMSG. */
int pfsel_pam_pending_read(const char *run_dir, uid_t uid,
			   uint8_t digest[PFSEL_DIGEST_SIZE]);

#endif /* PFSEL_PAM_PFSEL_H */
