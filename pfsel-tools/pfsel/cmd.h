/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel - the administration command of the pfsel LSM: internal interface
 * between its subcommands (one file each, in the manner of iw), and what
 * the unit tests call.
 *
 * Every subcommand writes its results to ctx->out and its errors to
 * ctx->err, so that the tests can run them on memory streams; the exit
 * codes are those of pfsel(8).
 */
#ifndef PFSELCMD_CMD_H
#define PFSELCMD_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <pfsel/pfsel.h>

#include "userpolicy.h"

/* Exit codes, documented in pfsel(8). */
enum {
	PFSELCMD_EXIT_OK = 0,
	PFSELCMD_EXIT_FAILED = 1, /* the operation failed (errno shown) */
	PFSELCMD_EXIT_USAGE = 2, /* wrong usage */
	PFSELCMD_EXIT_UNAVAILABLE = 3, /* no pfsel securityfs folder */
	PFSELCMD_EXIT_CHECK_DENY = 10, /* check --quiet: deny */
	PFSELCMD_EXIT_CHECK_ASK = 11, /* check --quiet: ask */
};

/* What a subcommand runs with. */
struct pfselcmd_ctx {
	FILE *out;
	FILE *err;
	const char *name; /* "status", "audit2pfw", ... for messages */
};

/**
 * pfselcmd_main - The whole command, as main() runs it
 * @argc: @argv: the command line (argv[0] is the program).
 * @out: standard output.
 * @err: standard error.
 *
 * Return: the exit code.
 */
int pfselcmd_main(int argc, char **argv, FILE *out, FILE *err);

/* The subcommands: argv[0] is the subcommand's name. */
int pfselcmd_status(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_enforce(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_load(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_unload(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_list(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_check(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_stats(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_log(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_audit2pfw(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_compare(struct pfselcmd_ctx *ctx, int argc, char **argv);
int pfselcmd_confirm(struct pfselcmd_ctx *ctx, int argc, char **argv);

/* A whole compiled policy, malloc()ed: 0 or a negative errno (compare.c). */
int pfselcmd_read_policy(const char *path, void **blob, size_t *len);

/* ---- Shared helpers (util.c) ------------------------------------------ */

/* "pfsel NAME: MESSAGE" on ctx->err; returns @code. */
int pfselcmd_fail(struct pfselcmd_ctx *ctx, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A usage error: the message, then "Try 'pfsel NAME --help'."; returns 2. */
int pfselcmd_usage(struct pfselcmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The usage error for what getopt_long() returned: ':' an option without
 * its argument, anything else an unknown option.  Returns 2.
 */
int pfselcmd_bad_option(struct pfselcmd_ctx *ctx, int opt, char **argv);

/* The usage error for argv[optind], an argument too many.  Returns 2. */
int pfselcmd_extra_argument(struct pfselcmd_ctx *ctx, char **argv);

/*
 * Whether pfsel's securityfs folder exists; if not, says so on ctx->err
 * (with the errno of stat()) unless @quiet.
 */
bool pfselcmd_available(struct pfselcmd_ctx *ctx, bool quiet);

/* The exit code for a failed libpfsel call: 3 if the folder is gone. */
int pfselcmd_lib_fail(struct pfselcmd_ctx *ctx, int err);

/* A decimal uid (0 to 4294967294): true and *uid when @text is one. */
bool pfselcmd_parse_uid(const char *text, uint32_t *uid);

/* A decimal number from 0 to @max. */
bool pfselcmd_parse_ulong(const char *text, unsigned long max,
			  unsigned long *value);

/* Reset getopt for a new parse (the tests run many commands). */
void pfselcmd_getopt_reset(void);

/* ---- Users and their confirmed policies (confirm.c) ------------------- */

/* A user name or uid: 0 and *@uid, or -ESRCH. */
int pfselcmd_parse_user(const char *text, uint32_t *uid);

/*
 * Whose policy the caller means: their real uid; as root, the uid behind
 * pkexec (PKEXEC_UID) or sudo (SUDO_UID).  0, or -ENOENT for plain root.
 */
int pfselcmd_caller(uint32_t *uid);

/* Root through pkexec for a user: only that user's "confirm" is allowed. */
bool pfselcmd_under_pkexec(void);

/* The pfwc beside this pfsel, else POLICY_PFWC. */
const char *pfselcmd_pfwc(void);

/*
 * Compile the user's ~/.pfw as the user: 0 and a malloc()ed policy for
 * their uid, or a negative errno (said on ctx->err).
 */
int pfselcmd_compile_user(struct pfselcmd_ctx *ctx,
			  const struct user_account *u, void **blob,
			  size_t *len);

/* The folder of confirmed policies (root's): a descriptor or -errno. */
int pfselcmd_open_confirmed(void);

/* Whether the securityfs folder is the kernel's (not a test's). */
bool pfselcmd_real_securityfs(void);

/*
 * As root, against the kernel's securityfs only: record @blob as the
 * policy @uid confirmed (NULL: forget it) and clear the note that one
 * waits.  0, or a negative errno (said on ctx->err).
 */
int pfselcmd_record_confirmed(struct pfselcmd_ctx *ctx, uint32_t uid,
			      const void *blob, size_t len);

/* ---- SELinux beside pfsel (status.c) ---------------------------------- */

/* Where pfsel status reads SELinux's mode and the caller's context. */
#define PFSELCMD_SELINUX_ENFORCE "/sys/fs/selinux/enforce"
#define PFSELCMD_SELF_CONTEXT "/proc/self/attr/current"

/* SELinux's part of the status, as pfselcmd_selinux_read() finds it. */
struct pfselcmd_selinux {
	bool enforcing;
	char context[256]; /* the caller's; "" when it cannot be read */
};

/*
 * Read SELinux's mode from @enforce (selinuxfs's "enforce": 1 or 0) and
 * the caller's context from @current (/proc/self/attr/current, its
 * trailing NUL and newline dropped).  Return: true when SELinux is
 * enabled (selinuxfs holds @enforce); false, and @se untouched, when not.
 */
bool pfselcmd_selinux_read(const char *enforce, const char *current,
			   struct pfselcmd_selinux *se);

/* ---- JSON output (json.c) --------------------------------------------- */

/* A JSON string, quoted and escaped; NULL is written as null. */
void pfselcmd_json_str(FILE *out, const char *s);
/* A JSON number, @v; null when it is not @known. */
void pfselcmd_json_int(FILE *out, bool known, long long v);

/* ---- The audit log (auditlog.c) --------------------------------------- */

/*
 * pfsel_audit_read() (libpfsel: the records of @src, decoded, to @fn),
 * with its error said on ctx->err.  Return: as pfsel_audit_read().
 */
int pfselcmd_read_records(struct pfselcmd_ctx *ctx,
			  const struct pfsel_audit_filter *src,
			  pfsel_audit_record_fn fn, void *arg,
			  unsigned long *bad);

/* Say on ctx->err that @bad records could not be read, if any. */
void pfselcmd_report_bad_records(struct pfselcmd_ctx *ctx, unsigned long bad);

/*
 * --since: "@EPOCH", "N[smhd]" (ago), "YYYY-MM-DD[ HH:MM[:SS]]" or
 * "YYYY-MM-DDTHH:MM[:SS]" (local time), "today", "recent" (10 minutes
 * ago).  @now is the current time.  Return: true when understood.
 */
bool pfselcmd_parse_since(const char *text, time_t now, time_t *since);

/*
 * Shared options of log and audit2pfw: -i, --uid, --app, --since,
 * --verdict (PFSELCMD_LOG_OPTIONS in their option tables), with optarg;
 * any other @opt is a usage error (pfselcmd_bad_option()).  Returns 0, or
 * the exit code of the usage error.
 */
#define PFSELCMD_LOG_OPTIONS                                \
	{ "input", required_argument, NULL, 'i' },          \
		{ "uid", required_argument, NULL, 'u' },    \
		{ "app", required_argument, NULL, 'a' },    \
		{ "since", required_argument, NULL, 's' },  \
		{ "verdict", required_argument, NULL, 'v' }
int pfselcmd_log_option(struct pfselcmd_ctx *ctx, int opt, char **argv,
			struct pfsel_audit_filter *src);

#endif /* PFSELCMD_CMD_H */
