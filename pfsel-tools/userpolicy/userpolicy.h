/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libuserpolicy - a user's policy, on the policy's side: what pam_pfsel,
 * the agent, the pfsel command and the desktop prompt share about the
 * policy a person writes (~/.pfw), compiles and confirms, on libpfw
 * (pfwc's front and back end) and libpfsel (the kernel):
 *
 *   compare.c    is one compiled policy no looser than another?  Exactly,
 *                with the kernel's own policy reader
 *   blob.c       whose a compiled policy is, and which (its SHA-256)
 *   store.c      the folders root keeps: opened safely, files written
 *                whole or not at all
 *   confirmed.c  the policy each person last confirmed, the note that a
 *                looser one waits, the uid's lock
 *   trust.c      the one judgement: may this policy replace the confirmed
 *                one without asking the person?
 *   account.c    the account a policy is compiled for
 *   runas.c      ~/.pfw looked at and compiled by pfwc as its user, in a
 *                child, for the root side
 *   compile.c    .pfw text compiled in this process, for the user's own
 *                agent
 *   rule_text.c  the one writer of a .pfw rule for a request
 *   app_text.c   an application's path as the language writes it: its
 *                sandbox identity ("flatpak ID", "snap NAME") or the path
 *
 * The adversary (docs/THREAT-MODEL.md) is a program running as the user:
 * it can write ~/.pfw as well as the user can.  So a policy compiled from
 * ~/.pfw takes effect without the person's password only when it is no
 * looser than the one they confirmed (trust_judge()); the root side
 * never compiles it as root (runas.c), and the agent never lets another
 * process of the user's between the text and the load (compile.c).
 *
 * Every function returns 0 (or a documented non-negative value) or a
 * negative errno; none logs.  policy_compare() also leaves a message in
 * policy_last_error().
 */
#ifndef PFSEL_USERPOLICY_H
#define PFSEL_USERPOLICY_H

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <pfsel/pfsel.h>

/* The compiler the root side runs, unless told otherwise. */
#ifndef POLICY_PFWC
#define POLICY_PFWC "/usr/bin/pfwc"
#endif
/* The user's policy, in their home. */
#define POLICY_SOURCE ".pfw"
/* Where root keeps compiled policies, and the confirmed ones below it. */
#define POLICY_CACHE_DIR "/var/lib/pfsel"
#define POLICY_CONFIRMED_DIR "confirmed"
/* Where root keeps the session counters and the notes of what waits. */
#define POLICY_RUN_DIR "/run/pfsel"
/* Seconds pfwc (and the stat of ~/.pfw) may take as the user. */
#define POLICY_COMPILE_TIMEOUT 30

/**
 * struct policy_blob - A compiled policy, as pfwc writes it
 * @blob: its bytes (malloc()ed where a function hands one out), NULL for
 *        none.
 * @len: its size.
 */
struct policy_blob {
	void *blob;
	size_t len;
};

/* ---- Comparing two policies (compare.c) -------------------------------- */

/**
 * policy_compare - Whether a compiled policy is no looser than another
 * @old_blob: @old_len: the policy in force, or the one last confirmed.
 * @new_blob: @new_len: the candidate.
 * @report: where the looser cells go, one a line, each written as the
 *          rule that would allow it (with the two decisions in a comment),
 *          and the applications no longer protected ("no longer protects
 *          APP;"); NULL for none.  An executable or script the kernel
 *          cannot name (only "*" matches it) is written "?", as the
 *          kernel's questions show it.
 * @max: report at most this many (then "..."); 0 stops at the first.
 *
 * Exact, not a heuristic: every request the kernel can ask (application,
 * the unnamed ones included, operation, protocol, address, port, host
 * names) is decided by both policies, class by class, with the kernel's
 * own reader; @new is no looser when no decision of it is less strict
 * (allow < ask unanswered-allow < ask unanswered-deny < deny; a permissive
 * policy allows everything; of two asks that end in allow, the shorter
 * timeout is looser).  @new is also looser when it leaves unprotected an
 * application that @old protects (the rule flag "protect"; compared even
 * when @old is permissive, since protection holds in permissive mode).
 * The uids in the headers are not compared.
 *
 * Return: 0 no looser, 1 looser, or a negative errno: -EINVAL, -EBADMSG,
 * -EPROTONOSUPPORT, -E2BIG (a blob is not a valid policy;
 * policy_last_error() says which), -ENOMEM.
 */
int policy_compare(const void *old_blob, size_t old_len, const void *new_blob,
		   size_t new_len, FILE *report, unsigned int max);

/**
 * policy_compare_exhaustive - policy_compare() without its shortcuts
 * @old_blob: @old_len: @new_blob: @new_len: @report: @max: as for
 *            policy_compare().
 *
 * Every address interval of every application pair and request kind is
 * decided cell by cell, port by port, with the kernel's own lookups,
 * where policy_compare() decides a set of rows once and passes over what
 * the rows of the `*` rules alone decide (compare.c says why that is
 * exact).  The same answer and the same report, many times slower: what
 * the tests hold policy_compare() to.
 *
 * Return: as policy_compare().
 */
int policy_compare_exhaustive(const void *old_blob, size_t old_len,
			      const void *new_blob, size_t new_len,
			      FILE *report, unsigned int max);

/**
 * policy_last_error - What the last failing policy_compare() of this thread
 *                     did
 *
 * Return: a message ("compare: the new policy is not a valid pfsel
 * policy: ..."), or "" after a success.
 */
const char *policy_last_error(void);

/* ---- Whose policy (blob.c) --------------------------------------------- */

/**
 * policy_blob_check - Whether a blob is a user policy for @uid
 * @blob: @len: the compiled policy.
 * @uid: whose it must be.
 * @digest: NULL, or set to its SHA-256 (as `policies` shows a loaded
 *          policy's: pfsel_policy_digest()).
 *
 * Return: 0, -EBADMSG (not a policy, sizes disagree), -EPERM (the
 * system policy, or another uid's), -EIO (no digest).
 */
int policy_blob_check(const void *blob, size_t len, uid_t uid, uint8_t *digest);

/* ---- Root's folders (store.c) ------------------------------------------ */

/**
 * store_open_dir - Open (creating it if need be) a private folder
 * @path: absolute path; only its last component is created (mode @mode).
 * @mode: for mkdir().
 *
 * The folder must be a real directory (not a symlink), owned by the
 * caller's effective uid, and writable by no one else.
 *
 * Return: a directory descriptor (O_CLOEXEC), or -ENOTDIR, -EPERM (wrong
 * owner or mode), or the error of mkdir()/open().
 */
int store_open_dir(const char *path, mode_t mode);

/*
 * The same relative to the folder @at (or AT_FDCWD), the folder's mode
 * having none of the bits @forbidden (store_open_dir(): S_IWGRP |
 * S_IWOTH); with @mode 0, nothing is created (-ENOENT when it is not
 * there).
 */
int store_open_dir_at(int at, const char *path, mode_t mode, mode_t forbidden);

/* Write @len bytes to @name in @dirfd: a temporary file, fsync, rename. */
int store_write_atomic(int dirfd, const char *name, const void *data,
		       size_t len);

/*
 * Read regular file @name of @dirfd (not through a symlink), at most @max
 * bytes (else -E2BIG): a malloc()ed buffer in @data, NUL-terminated
 * beyond @len.
 */
int store_read_at(int dirfd, const char *name, size_t max, void **data,
		  size_t *len);

/* ---- The confirmed policy (confirmed.c) -------------------------------- */

/*
 * Open (creating it, 0700) the folder "confirmed" of the cache folder:
 * a directory descriptor, or -ENOTDIR, -EPERM (not root's alone), or the
 * error of mkdirat()/openat().
 */
int confirmed_open(int cache_fd);

/*
 * The folder of confirmed policies under POLICY_CACHE_DIR, for a program
 * that only reads it (the agent, as root): as confirmed_open(), but
 * nothing is created (-ENOENT when either folder is missing).
 */
int confirmed_open_existing(void);

/*
 * The policy uid last confirmed (UID.pfsel): 0 and a malloc()ed @blob;
 * -ENOENT when there is none; -EBADMSG when it is not a policy for @uid.
 */
int confirmed_read(int conf_fd, uid_t uid, void **blob, size_t *len);

/* Record @blob as the policy @uid confirmed (atomically): 0 or -errno. */
int confirmed_write(int conf_fd, uid_t uid, const void *blob, size_t len);

/* Forget what @uid confirmed (pfsel unload as root): 0 or -errno. */
int confirmed_forget(int conf_fd, uid_t uid);

/**
 * confirmed_lock - Take @uid's lock (flock, exclusive)
 * @run_fd: the run folder (store_open_dir(POLICY_RUN_DIR)).
 * @uid: the user.
 *
 * What changes a uid's policy on record -- a login (pam_pfsel), `pfsel
 * confirm` -- does so one at a time.  The file locked is pam_pfsel's
 * session counter, "UID.sessions" (one decimal number and a newline),
 * which it counts under this lock.
 *
 * Return: the descriptor (close it to unlock), or a negative errno.
 */
int confirmed_lock(int run_fd, uid_t uid);

/*
 * Note in the run folder (UID.pending, 0644: "looser SHA256") that a
 * policy waits for confirmation: 1 when the note is new (tell the
 * person), 0 when it said so already, or a negative errno.
 */
int confirmed_pending_set(int run_fd, uid_t uid,
			  const uint8_t digest[PFSEL_DIGEST_SIZE]);

/* Remove the note: 0 (also when there was none) or a negative errno. */
int confirmed_pending_clear(int run_fd, uid_t uid);

/* Read the note (any user may): 0 and its digest, -ENOENT, -EBADMSG. */
int confirmed_pending_read(const char *run_dir, uid_t uid,
			   uint8_t digest[PFSEL_DIGEST_SIZE]);

/* ---- The judgement (trust.c) ------------------------------------------- */

/* What may happen to a policy compiled from ~/.pfw (the candidate). */
enum trust_judgement {
	TRUST_FIRST, /* nothing confirmed: load it, it is confirmed */
	TRUST_CONFIRMED_SAME, /* the confirmed policy, byte for byte */
	TRUST_IN_FORCE, /* loaded already by a trusted path: confirm */
	TRUST_NO_LOOSER, /* load it; it is the confirmed one from now */
	TRUST_LOOSER, /* keep the confirmed one in force */
	TRUST_UNCOMPARABLE, /* as looser: cannot prove it is not */
};

/**
 * struct trust_report - What a judgement shows of a looser candidate
 * @out: where the looser cells go (policy_compare()'s @report), or NULL.
 * @max: at most this many.
 * @error: set, for TRUST_UNCOMPARABLE, to policy_compare()'s negative
 *         errno (its message in policy_last_error()); 0 otherwise.
 */
struct trust_report {
	FILE *out;
	unsigned int max;
	int error;
};

/**
 * trust_judge - May a candidate policy replace the confirmed one silently?
 * @confirmed: @confirmed_len: the policy the person confirmed (or, for the
 *             agent, the one in force it knows the bytes of), or NULL for
 *             none.
 * @candidate: @candidate_len: the policy compiled from ~/.pfw (checked to
 *             be a policy for @uid).
 * @uid: the user.
 * @loaded: NULL, or the SHA-256 of the policy loaded for @uid (from
 *          `policies`): the kernel lets only the root side and the agent
 *          the root side registered load it.
 * @report: NULL, or where the looser cells go and the comparison's error.
 *
 * The one rule "no looser than the confirmed policy" (docs/THREAT-MODEL.md)
 * that pam_pfsel applies at login, the agent before it loads an "always"
 * rule, and `pfsel confirm` and `pfsel status` show.  "No looser" is
 * policy_compare(): exact.  Whatever cannot be compared (an invalid
 * confirmed policy, out of memory) waits for confirmation.
 */
enum trust_judgement trust_judge(const void *confirmed, size_t confirmed_len,
				 const void *candidate, size_t candidate_len,
				 uid_t uid, const uint8_t *loaded,
				 struct trust_report *report);

const char *trust_judgement_name(enum trust_judgement value);

/* Whether the candidate may be loaded (and not kept waiting). */
bool trust_judgement_loads(enum trust_judgement value);

/* ---- The account (account.c) ------------------------------------------- */

/**
 * struct user_identity - Whom to become
 * @uid: @gid: the user's ids.
 * @groups: @ngroups: supplementary groups (getgrouplist()).
 * @home: the home folder, where pfwc runs.
 * @name: the user name (for USER and LOGNAME).
 */
struct user_identity {
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	const char *home;
	const char *name;
};

/**
 * struct user_account - A user looked up
 * @user: whom to become; its strings and groups point into this.
 * @pw: the passwd entry.
 * @pwbuf: @pw's strings.
 * @groups: the supplementary groups (getgrouplist()).
 */
struct user_account {
	struct user_identity user;
	struct passwd pw;
	char *pwbuf;
	gid_t *groups;
};

/*
 * Look a user up by @name (or, when it is NULL, by @uid), with their
 * groups: 0; -ESRCH no such user; -E2BIG too many groups; -ENOMEM; or
 * the error of getpwnam_r()/getpwuid_r().  Free it with
 * user_account_free() in every case.
 */
int user_account_lookup(struct user_account *a, const char *name, uid_t uid);
void user_account_free(struct user_account *a);

/*
 * A user as a person types one: @text is looked up as a name first (as
 * chown and id do), then, when no one has that name and it is all
 * digits, as a uid.  Returns as user_account_lookup().
 */
int user_account_parse(struct user_account *a, const char *text);

/* ---- ~/.pfw as its user, for the root side (runas.c) ------------------- */

/**
 * user_source_stat - stat() ~/.pfw as the user, in a child process
 * @user: whom to become.
 * @timeout: seconds.
 * @st: set from the stat.
 *
 * The child drops to the user for good (and checks that it cannot get
 * root back), changes to the home folder and follows ~/.pfw as the user
 * would: a symlink to a file the user may not look at fails as it would
 * for them.
 *
 * Return: 0; -ENOENT when there is no ~/.pfw (or no home); -EPERM when
 * the child could not become the user; -ETIMEDOUT; -EINVAL when it is not
 * a regular file; the stat's error.
 */
int user_source_stat(const struct user_identity *user, unsigned int timeout,
		     struct stat *st);

/**
 * user_compile - Run pfwc as the user on ~/.pfw
 * @user: whom to become.
 * @pfwc: the compiler.
 * @timeout: seconds; then the child is killed.
 * @blob: set to the compiled policy (malloc()ed) on success.
 * @len: its length.
 * @diag: set to the first line pfwc wrote to its standard error.
 * @diaglen: size of @diag.
 *
 * Runs `pfwc --uid=UID -Wno-shadow -o - HOME/.pfw` in a child that has
 * become the user (as user_source_stat()), in the home folder, with an
 * empty environment but HOME, USER, LOGNAME and PATH; the policy comes
 * back through a pipe (-Wno-shadow: that analysis only warns, and costs
 * most of a large policy's compile).  What it wrote is the caller's to
 * check (policy_blob_check(): a policy of the user's).
 *
 * Return: 0; -EBADMSG when pfwc failed (status 1: errors in the policy;
 * others: see @diag);
 * -EPERM when the child could not become the user; -ENOEXEC when pfwc
 * could not be run; -ETIMEDOUT; -E2BIG for a policy over
 * PFSEL_POLICY_MAX_SIZE; -ENODATA for an empty one.
 */
int user_compile(const struct user_identity *user, const char *pfwc,
		 unsigned int timeout, void **blob, size_t *len, char *diag,
		 size_t diaglen);

/* ---- .pfw text in this process, for the user's agent (compile.c) ------- */

/**
 * struct compile_source - .pfw text to compile in this process
 * @name: the file the text is of (rule locations and messages name it),
 *        e.g. ~/.pfw.
 * @text: the text, NUL-terminated; it may include other files.
 * @uid: the uid of a policy whose text names none (pfwc --uid).
 * @services: NULL, or the services file whose names the text may use.
 * @program: the program the compiler's own messages name (NULL: "pfwc").
 */
struct compile_source {
	const char *name;
	const char *text;
	uid_t uid;
	const char *services;
	const char *program;
};

/**
 * compile_here - Compile .pfw text as pfwc would, in this process
 * @src: the text.
 * @with: set to the compiled policy (its @blob malloc()ed; an earlier
 *        one freed).
 * @leave_out: 0, or a line of @src->name: then @without is also set, to
 *             the same parse compiled without the rule that starts on that
 *             line (includes are read once, so the two differ in that rule
 *             alone).
 * @without: as @with, for @leave_out (NULL when @leave_out is 0).
 * @err: @errlen: the compiler's messages on failure (FILE:LINE:COL, the
 *       line, a caret), or the failing call.
 *
 * With pfwc's own front and back end (libpfw): no pfwc process to trace,
 * no file between the text and the blob, for an agent that is not
 * dumpable.
 *
 * Return: 0; -EINVAL (the text is no policy; or @leave_out is not the
 * line of exactly one rule); -E2BIG (too large for the binary format);
 * -ENOMEM.
 */
int compile_here(const struct compile_source *src, struct policy_blob *with,
		 unsigned int leave_out, struct policy_blob *without, char *err,
		 size_t errlen);

/* ---- An application's path as the language writes it (app_text.c) ---- */

/**
 * enum app_sandbox - The sandbox identity a path lies in
 * @APP_SANDBOX_NONE: none: the path is itself.
 * @APP_SANDBOX_FLATPAK: /var/lib/flatpak/app/ID/..., a system-wide
 *                       Flatpak installation's application ID.
 * @APP_SANDBOX_SNAP: /snap/NAME/..., the snap NAME.
 *
 * What the kernel names a process of a Flatpak application or a snap by:
 * the path from init's root to the file it runs,
 * /var/lib/flatpak/app/ID/ARCH/BRANCH/COMMIT/files/REST or
 * /snap/NAME/REVISION/REST (policy/LANGUAGE.md, section 5).  A user's
 * own installation (~/.local/share/flatpak) is a path like any other.
 */
enum app_sandbox {
	APP_SANDBOX_NONE,
	APP_SANDBOX_FLATPAK,
	APP_SANDBOX_SNAP,
};

/* Room for a Flatpak ID or a snap name, and the NUL. */
#define APP_SANDBOX_ID_SIZE 256

/**
 * app_sandbox_of - The sandbox identity of an executable's or script's path
 * @path: the path as the kernel names it.
 * @id: the Flatpak application ID or the snap name; "" for none.
 *
 * The one place the tools map a path to its identity: the identity whose
 * rule ("flatpak ID", "snap NAME") matches @path, with the ID checked as
 * the language checks it (libpfw, the compiler's own check).
 *
 * A snap's path is its application's only when that snap is one: its
 * revision's meta/snap.yaml (snapd's squashfs, root's, read-only) has an
 * `apps:` section and no `type:` other than `app`.  A base snap (core22,
 * bare), the snapd snap, a kernel or gadget snap, or a content snap has
 * no application: its programs (a base's bash, python3) are run by hand,
 * and "snap core22" would let out every one of them, so such a path is a
 * path (APP_SANDBOX_NONE), as is one whose metadata cannot be read here.
 *
 * Return: the kind, APP_SANDBOX_NONE for any other path.
 */
enum app_sandbox app_sandbox_of(const char *path, char id[APP_SANDBOX_ID_SIZE]);

/* Where snapd mounts each snap's revision: /snap/NAME/REVISION. */
#define APP_SNAP_MOUNTS "/snap"

/**
 * app_sandbox_set_snap_mounts - Where app_sandbox_of() reads snaps' metadata
 * @dir: a folder of NAME/REVISION/meta/snap.yaml (copied); NULL for
 *       APP_SNAP_MOUNTS.
 *
 * For a unit test's own process, which cannot make /snap: no program
 * calls it, and nothing of the environment sets it.
 */
void app_sandbox_set_snap_mounts(const char *dir);

/* "Flatpak" or "Snap", as a person reads the kind; NULL for none. */
const char *app_sandbox_label(enum app_sandbox kind);

/* "flatpak" or "snap", as the language writes the kind; NULL for none. */
const char *app_sandbox_keyword(enum app_sandbox kind);

/**
 * app_path_text - An application's path as the language writes it
 * @path: an executable's or a script's path, as the kernel names it.
 * @buf: @size: where it goes, NUL-terminated; "" on failure.
 *
 * "flatpak ID" or "snap NAME" for a path below such an application's
 * folder (app_sandbox_of()): the rule for the application, whatever its
 * architecture, branch, commit or revision and whichever of its
 * executables runs.  Else the path, bare or in the exact-path form
 * (pfsel_escape() with PFSEL_ESCAPE_QUOTE): that file only.  What `pfsel
 * log`, audit2pfw, the rules of "always" answers, the prompt and its
 * monitor show and write.
 *
 * Return: its length; -ENOSPC; -EINVAL for a NULL @path.
 */
int app_path_text(const char *path, char *buf, size_t size);

/* ---- The .pfw rule for a request (rule_text.c) ------------------------- */

/**
 * enum rule_width - How much of a request a rule covers
 * @RULE_WIDTH_EXACT: this address and this port (the default).
 * @RULE_WIDTH_ADDRESS: this address, any port.
 * @RULE_WIDTH_PORT: this port, any address.
 * @RULE_WIDTH_HOST: this host name and this port ("to host NAME port P"),
 *                   NAME the first (newest) name the kernel knows for the
 *                   address that a rule can write
 *                   (pfsel_hosts_rule_name()); only for a connect or
 *                   accept with such a name (the address of bind and
 *                   listen is the machine's own).
 * @RULE_WIDTH_DOMAIN: any name below NAME's parent, this port ("to host
 *                     *.example.org port P" for www.example.org); only
 *                     when NAME has three labels or more.
 * @RULE_WIDTH_COUNT: number of widths.
 *
 * The application (executable and script), operation and protocol are
 * always the request's.  For protocols without ports (icmp, raw) every
 * width is the address's (or the name's); for "create" there is nothing
 * to widen.  The values are the prompt's wire (promptwire/prompt_wire.h):
 * new widths go at the end.
 */
enum rule_width {
	RULE_WIDTH_EXACT,
	RULE_WIDTH_ADDRESS,
	RULE_WIDTH_PORT,
	RULE_WIDTH_HOST,
	RULE_WIDTH_DOMAIN,
	RULE_WIDTH_COUNT,
};

/* rule_text_format() flags. */
/* An unnamed application is written "*" (audit2pfw, which says so). */
#define RULE_TEXT_UNNAMED_ANY 0x1u

/**
 * struct rule_text_ports - The ports a rule names in place of the request's
 * @ports: the ports, in the order to write them.
 * @count: how many (at least 1).
 *
 * For requests that differ in their port alone (audit2pfw's rule for
 * many records): "port 80, 443".
 */
struct rule_text_ports {
	const uint16_t *ports;
	size_t count;
};

/**
 * rule_text_format - The .pfw rule that decides a request
 * @req: the request.
 * @verdict: PFSEL_ANSWER_ALLOW or PFSEL_ANSWER_DENY.
 * @width: enum rule_width.
 * @ports: NULL (the request's port), or the ports to name instead.
 * @flags: 0 or RULE_TEXT_UNNAMED_ANY.
 * @buf: @size: where it goes, NUL-terminated; "" on failure, never half a
 *       rule.
 *
 * The one writer of a rule for a request: what an "always" answer adds
 * to ~/.pfw, what the desktop prompt shows before the person chooses it
 * (for a question, and for a decision of the audit log), what `pfsel
 * audit2pfw` prints; so the same request gives the same rule everywhere.
 * For example "allow /usr/bin/curl connect tcp to 192.0.2.1 port 80;"
 * (exact), "... to 192.0.2.1;" (address), "... to any port 80;" (port),
 * "... to host www.example.org port 80;" (host), "... to host
 * *.example.org port 80;" (domain); "on" for bind and listen, "from" for
 * accept, as the language names the request's address.  The executable
 * and the script are written as app_path_text() writes them: a Flatpak
 * application's or a snap's path as its identity ("allow flatpak
 * org.mozilla.firefox connect ..."), any other so that it matches that
 * file only.
 *
 * Return: its length; -ENOSPC; -ENOENT for a host or domain width that
 * @req has no name for (rule_width_applies()); -EINVAL for a request no
 * rule can name (an unnamed application, without RULE_TEXT_UNNAMED_ANY;
 * a relative script) or an out-of-range @verdict, @width, operation or
 * protocol.
 */
int rule_text_format(const struct pfsel_request *req, unsigned int verdict,
		     unsigned int width, const struct rule_text_ports *ports,
		     unsigned int flags, char *buf, size_t size);

/*
 * Whether @width makes a rule for @req: the address widths always (but
 * for create, where all are the same), the host width when @req is a
 * connect or an accept and has a name a rule can write, the domain width
 * when that name has three labels or more.  What the prompt offers.
 */
bool rule_width_applies(const struct pfsel_request *req, unsigned int width);

/*
 * "this address and port", "this address", "this port", "this host
 * name", "its domain": for people.
 */
const char *rule_width_name(unsigned int width);

#endif /* PFSEL_USERPOLICY_H */
