// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel compare OLD NEW: is the compiled policy NEW no looser than OLD?
 * The comparison itself is libuserpolicy's policy_compare()
 * (userpolicy/compare.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

static void compare_help(FILE *out)
{
	fputs("Usage: pfsel compare [--max N] [--quiet] OLD NEW\n"
	      "Say whether the compiled policy NEW is no looser than OLD: "
	      "whether, for\nevery request (application, operation, "
	      "protocol, address, port, and the\nhost names known for the "
	      "address), NEW decides at least as strictly "
	      "(deny > ask > allow; an ask whose\nunanswered verdict is "
	      "allow is looser than one whose is deny; permissive\nis looser "
	      "than enforcing).  Exact: class by class, with the kernel's "
	      "reader.\nWhen NEW is looser, print the first cells where it "
	      "is, as rules.\n\n"
	      "      --max N   print at most N looser cells (default 10)\n"
	      "  -q, --quiet   print nothing; the exit status says\n"
	      "  -h, --help    show this help and exit\n\n"
	      "Exit status: 0 no looser, 1 looser, 2 wrong usage or a file "
	      "that is not a\ncompiled policy.\n",
	      out);
}

/* Read a whole compiled policy: 0, or a negative errno. */
int pfselcmd_read_policy(const char *path, void **blob, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t n = 0, cap = 0, got;
	int err = 0;

	if (!f)
		return -errno;
	for (;;) {
		if (n == cap) {
			char *bigger;

			if (cap > PFSEL_POLICY_MAX_SIZE) {
				err = -E2BIG;
				break;
			}
			cap = cap ? 2 * cap : 65536;
			bigger = realloc(data, cap + 1);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			data = bigger;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
		if (!got) {
			if (ferror(f))
				err = -EIO;
			break;
		}
	}
	fclose(f);
	if (!err && n > PFSEL_POLICY_MAX_SIZE)
		err = -E2BIG;
	if (err) {
		free(data);
		return err;
	}
	*blob = data;
	*len = n;
	return 0;
}

int pfselcmd_compare(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		{ "max", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long max = 10;
	void *old = NULL, *new = NULL;
	size_t old_len = 0, new_len = 0;
	bool quiet = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+qh", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (!pfselcmd_parse_ulong(optarg, 100000, &max))
				return pfselcmd_usage(
					ctx,
					"--max takes 0 to 100000, not '%s'",
					optarg);
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			compare_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		default:
			return pfselcmd_bad_option(ctx, opt, argv);
		}
	}
	if (argc - optind != 2)
		return pfselcmd_usage(ctx, "compare takes two policies: OLD "
					   "NEW");
	ret = pfselcmd_read_policy(argv[optind], &old, &old_len);
	if (ret)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_USAGE, "%s: %s",
				     argv[optind], strerror(-ret));
	ret = pfselcmd_read_policy(argv[optind + 1], &new, &new_len);
	if (ret) {
		free(old);
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_USAGE, "%s: %s",
				     argv[optind + 1], strerror(-ret));
	}
	ret = policy_compare(old, old_len, new, new_len,
			     quiet ? NULL : ctx->out,
			     quiet ? 0 : (unsigned)max);
	free(old);
	free(new);
	if (ret < 0)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_USAGE, "%s",
				     policy_last_error());
	if (!ret) {
		if (!quiet)
			fprintf(ctx->out,
				"no looser: %s decides every "
				"request at least as strictly as "
				"%s\n",
				argv[optind + 1], argv[optind]);
		return PFSELCMD_EXIT_OK;
	}
	if (!quiet)
		fprintf(ctx->err,
			"pfsel compare: %s is looser than %s (the "
			"cells above)\n",
			argv[optind + 1], argv[optind]);
	return PFSELCMD_EXIT_FAILED;
}
