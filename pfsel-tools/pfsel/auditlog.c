// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - the options of the subcommands that read pfsel's decisions back
 * from the audit log (log, audit2pfw), and their messages; the reading and
 * decoding are libpfsel's (pfsel_audit_read()).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

bool pfselcmd_parse_since(const char *text, time_t now, time_t *since)
{
	struct tm tm;
	unsigned long n;
	char *end;
	const char *rest;

	if (!strcmp(text, "recent")) {
		*since = now - 600;
		return true;
	}
	if (!strcmp(text, "today") || !strcmp(text, "now")) {
		if (!strcmp(text, "now")) {
			*since = now;
			return true;
		}
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		*since = mktime(&tm);
		return *since != (time_t)-1;
	}
	if (text[0] == '@') {
		if (!pfselcmd_parse_ulong(text + 1, (unsigned long)INT64_MAX,
					  &n))
			return false;
		*since = (time_t)n;
		return true;
	}
	if (isdigit((unsigned char)text[0])) {
		errno = 0;
		n = strtoul(text, &end, 10);
		if (!errno && end != text && end[0] && !end[1] &&
		    strchr("smhd", end[0])) {
			unsigned long unit = end[0] == 's' ? 1 :
					     end[0] == 'm' ? 60 :
					     end[0] == 'h' ? 3600 :
							     86400;

			if (n > (unsigned long)now / unit)
				return false;
			*since = now - (time_t)(n * unit);
			return true;
		}
	}
	memset(&tm, 0, sizeof(tm));
	rest = strptime(text, "%Y-%m-%d", &tm);
	if (!rest)
		return false;
	if (*rest == ' ' || *rest == 'T') {
		const char *t = strptime(rest + 1, "%H:%M:%S", &tm);

		if (!t || *t)
			t = strptime(rest + 1, "%H:%M", &tm);
		if (!t || *t)
			return false;
	} else if (*rest) {
		return false;
	}
	tm.tm_isdst = -1;
	*since = mktime(&tm);
	return *since != (time_t)-1;
}

int pfselcmd_log_option(struct pfselcmd_ctx *ctx, int opt, char **argv,
			struct pfsel_audit_filter *src)
{
	const char *arg = optarg;

	switch (opt) {
	case 'i':
		src->input = arg;
		return 0;
	case 'u':
		if (!pfselcmd_parse_uid(arg, &src->uid))
			return pfselcmd_usage(ctx, "'%s' is not a uid", arg);
		src->has_uid = true;
		return 0;
	case 'a':
		src->app = arg;
		return 0;
	case 's':
		if (!pfselcmd_parse_since(arg, time(NULL), &src->since))
			return pfselcmd_usage(
				ctx,
				"'%s' is not a time (@EPOCH, 10m, 2h, 1d, "
				"YYYY-MM-DD[ HH:MM[:SS]], today, recent)",
				arg);
		src->has_since = true;
		return 0;
	case 'v':
		src->want_allow = !strcmp(arg, "allow") || !strcmp(arg, "all");
		src->want_deny = !strcmp(arg, "deny") || !strcmp(arg, "all");
		if (!src->want_allow && !src->want_deny)
			return pfselcmd_usage(
				ctx, "'%s' is not deny, allow or all", arg);
		return 0;
	}
	return pfselcmd_bad_option(ctx, opt, argv);
}

int pfselcmd_read_records(struct pfselcmd_ctx *ctx,
			  const struct pfsel_audit_filter *src,
			  pfsel_audit_record_fn fn, void *arg,
			  unsigned long *bad)
{
	const int ret = pfsel_audit_read(src, fn, arg, bad);

	if (ret < 0 && pfsel_last_error()[0])
		pfselcmd_fail(ctx, 0, "%s", pfsel_last_error());
	return ret;
}

void pfselcmd_report_bad_records(struct pfselcmd_ctx *ctx,
				 const unsigned long bad)
{
	if (bad)
		pfselcmd_fail(ctx, 0,
			      "%lu pfsel record%s could not be read and "
			      "%s skipped",
			      bad, bad == 1 ? "" : "s",
			      bad == 1 ? "was" : "were");
}
