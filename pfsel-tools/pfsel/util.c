// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - helpers shared by the subcommands: messages, exit codes for
 * libpfsel's errors, numbers.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

int pfselcmd_fail(struct pfselcmd_ctx *ctx, int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(ctx->err, "pfsel %s: ", ctx->name);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->err);
	return code;
}

int pfselcmd_usage(struct pfselcmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(ctx->err, "pfsel %s: ", ctx->name);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fprintf(ctx->err, "\nTry 'pfsel %s --help'.\n", ctx->name);
	return PFSELCMD_EXIT_USAGE;
}

int pfselcmd_bad_option(struct pfselcmd_ctx *ctx, int opt, char **argv)
{
	if (opt == ':')
		return pfselcmd_usage(ctx, "'%s' needs an argument",
				      argv[optind - 1]);
	return pfselcmd_usage(ctx, "unknown option '%s'", argv[optind - 1]);
}

int pfselcmd_extra_argument(struct pfselcmd_ctx *ctx, char **argv)
{
	return pfselcmd_usage(ctx, "unexpected argument '%s'", argv[optind]);
}

bool pfselcmd_available(struct pfselcmd_ctx *ctx, bool quiet)
{
	struct stat st;
	const char *dir = pfsel_securityfs();

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	if (!quiet)
		pfselcmd_fail(ctx, 0,
			      "pfsel is not available: stat(%s): %s (is the "
			      "kernel built with pfsel, in the lsm= list, "
			      "and securityfs mounted?)",
			      dir, errno ? strerror(errno) : "not a directory");
	return false;
}

int pfselcmd_lib_fail(struct pfselcmd_ctx *ctx, int err)
{
	const char *msg = pfsel_last_error();

	if (!msg || !*msg)
		msg = strerror(-err);
	pfselcmd_fail(ctx, 0, "%s", msg);
	if ((err == -ENOENT || err == -ENOTDIR) &&
	    !pfselcmd_available(ctx, true))
		return PFSELCMD_EXIT_UNAVAILABLE;
	return PFSELCMD_EXIT_FAILED;
}

bool pfselcmd_parse_ulong(const char *text, unsigned long max,
			  unsigned long *value)
{
	unsigned long long v;
	char *end;

	if (!text || *text < '0' || *text > '9')
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end || v > max)
		return false;
	*value = (unsigned long)v;
	return true;
}

bool pfselcmd_parse_uid(const char *text, uint32_t *uid)
{
	unsigned long v;

	if (!pfselcmd_parse_ulong(text, 4294967294UL, &v))
		return false;
	*uid = (uint32_t)v;
	return true;
}

void pfselcmd_getopt_reset(void)
{
	/* glibc: 0 starts a new scan and re-reads its settings. */
	optind = 0;
	opterr = 0;
}
