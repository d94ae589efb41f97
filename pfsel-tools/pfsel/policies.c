// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel load, pfsel unload, pfsel list: the policies in the kernel.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

/* Options of commands that take only --help (and perhaps --json). */
static int simple_options(struct pfselcmd_ctx *ctx, int argc, char **argv,
			  bool *json, void (*help)(FILE *out), bool *done)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	*done = false;
	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == 'h') {
			help(ctx->out);
			*done = true;
			return PFSELCMD_EXIT_OK;
		}
		if (opt == 'j' && json) {
			*json = true;
			continue;
		}
		*done = true;
		return pfselcmd_bad_option(ctx, opt, argv);
	}
	return PFSELCMD_EXIT_OK;
}

static void load_help(FILE *out)
{
	fputs("Usage: pfsel load FILE\n"
	      "Load a compiled policy, as pfwc wrote it.  Whose it is (the "
	      "system's or a\nuid's) is in the policy's header: compile it "
	      "with 'pfwc --system' or\n'pfwc --uid UID'.  Only root "
	      "(CAP_MAC_ADMIN) loads policies; a user's\npolicy that root "
	      "loads is recorded as the one that user confirmed\n(pam_pfsel "
	      "then loads their ~/.pfw at login only if it is no looser).\n"
	      "To put your own ~/.pfw in force: pfsel confirm.  The policy "
	      "in force\nstays until the new one is validated whole.\n\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 the file could not be read or the kernel "
	      "refused it\n(EPERM not root, EINVAL malformed, EBADMSG "
	      "checksum, EPROTONOSUPPORT\nformat version, E2BIG), 2 wrong "
	      "usage, 3 pfsel is not available.\n",
	      out);
}

int pfselcmd_load(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	void *blob = NULL;
	size_t len = 0;
	bool done;
	int ret;

	ret = simple_options(ctx, argc, argv, NULL, load_help, &done);
	if (done)
		return ret;
	if (optind == argc)
		return pfselcmd_usage(ctx, "which policy? pfsel load FILE (to "
					   "put your ~/.pfw in force: pfsel "
					   "confirm)");
	if (argc - optind > 1)
		return pfselcmd_usage(ctx, "unexpected argument '%s'",
				      argv[optind + 1]);
	if (access(argv[optind], R_OK))
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
				     "access(%s): %s", argv[optind],
				     strerror(errno));
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = pfselcmd_read_policy(argv[optind], &blob, &len);
	if (ret)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED, "%s: %s",
				     argv[optind], strerror(-ret));
	ret = len ? pfsel_load_buffer(blob, len) : -EINVAL;
	if (ret) {
		free(blob);
		if (!len)
			return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
					     "%s: empty file", argv[optind]);
		ret = pfselcmd_lib_fail(ctx, ret);
		if (ret == PFSELCMD_EXIT_FAILED)
			fprintf(ctx->err, "pfsel load: %s not loaded\n",
				argv[optind]);
		if (geteuid() != 0 &&
		    !policy_blob_check(blob, len, getuid(), NULL))
			fputs("pfsel load: only root loads policies now; to "
			      "put your ~/.pfw in force,\nrun 'pfsel "
			      "confirm' (it asks for your password)\n",
			      ctx->err);
		return ret;
	}
	/* Root loaded a user's policy: that is the one confirmed for them. */
	if (geteuid() == 0 && len >= sizeof(struct pfsel_policy_header)) {
		struct pfsel_policy_header hdr;

		memcpy(&hdr, blob, sizeof(hdr));
		if (!(le32toh(hdr.flags) & PFSEL_POLICY_F_SYSTEM) &&
		    pfselcmd_record_confirmed(ctx, le32toh(hdr.uid), blob, len))
			ret = PFSELCMD_EXIT_FAILED;
	}
	free(blob);
	return ret;
}

static void unload_help(FILE *out)
{
	fputs("Usage: pfsel unload [system|UID]\n"
	      "Unload the system policy or the policy of a uid (default: "
	      "your real uid);\nboth need CAP_MAC_ADMIN.  Root unloading a "
	      "user's policy also forgets the\npolicy that user confirmed: "
	      "their next login loads ~/.pfw as a first one.\n\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 the kernel refused (ENOENT none loaded, "
	      "EPERM), 2 wrong\nusage, 3 pfsel is not available.\n",
	      out);
}

int pfselcmd_unload(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	const char *target;
	uint32_t uid = (uint32_t)getuid();
	bool done, system = false;
	int ret;

	ret = simple_options(ctx, argc, argv, NULL, unload_help, &done);
	if (done)
		return ret;
	if (argc - optind > 1)
		return pfselcmd_usage(ctx, "unexpected argument '%s'",
				      argv[optind + 1]);
	if (optind < argc) {
		target = argv[optind];
		if (!strcmp(target, "system"))
			system = true;
		else if (!pfselcmd_parse_uid(target, &uid))
			return pfselcmd_usage(
				ctx, "'%s' is neither 'system' nor a uid",
				target);
	}
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = system ? pfsel_unload_system() : pfsel_unload_uid(uid);
	/* Root unloads: the next login starts afresh, nothing confirmed. */
	if (!system && (ret == 0 || ret == -ENOENT) && geteuid() == 0 &&
	    pfselcmd_record_confirmed(ctx, uid, NULL, 0))
		return PFSELCMD_EXIT_FAILED;
	if (ret == -ENOENT && pfselcmd_available(ctx, true)) {
		if (system)
			return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
					     "no system policy is loaded "
					     "(ENOENT)");
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
				     "no policy is loaded for uid %u (ENOENT)",
				     uid);
	}
	if (ret)
		return pfselcmd_lib_fail(ctx, ret);
	return PFSELCMD_EXIT_OK;
}

static void list_help(FILE *out)
{
	fputs("Usage: pfsel list [--json]\n"
	      "List the loaded policies: the system policy first, then "
	      "users by uid,\nwith the generation of their load, size, "
	      "number of rules, mode and\nSHA-256 digest.\n\n"
	      "      --json   a JSON array of objects\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 the file could not be read, 2 wrong usage, "
	      "3 pfsel is\nnot available.\n",
	      out);
}

int pfselcmd_list(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	struct pfsel_policy_info *list = NULL;
	size_t count = 0, i;
	bool json = false, done;
	char target[16], hex[PFSEL_DIGEST_HEX_SIZE];
	int ret;

	ret = simple_options(ctx, argc, argv, &json, list_help, &done);
	if (done)
		return ret;
	if (optind < argc)
		return pfselcmd_extra_argument(ctx, argv);
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = pfsel_policies(&list, &count);
	if (ret)
		return pfselcmd_lib_fail(ctx, ret);
	if (json) {
		fputc('[', ctx->out);
		for (i = 0; i < count; i++) {
			fprintf(ctx->out, "%s{\"policy\":", i ? "," : "");
			if (list[i].system)
				fputs("\"system\",\"uid\":null", ctx->out);
			else
				fprintf(ctx->out, "\"user\",\"uid\":%u",
					list[i].uid);
			fprintf(ctx->out,
				",\"generation\":%u,\"size\":%u,\"rules\":%u,"
				"\"sha256\":\"%s\",\"mode\":\"%s\"}",
				list[i].generation, list[i].size, list[i].rules,
				pfsel_digest_hex(list[i].digest, hex),
				pfsel_mode_name(list[i].permissive ?
							PFSEL_MODE_PERMISSIVE :
							PFSEL_MODE_ENFORCING));
		}
		fputs("]\n", ctx->out);
	} else if (!count) {
		fputs("no policy is loaded\n", ctx->out);
	} else {
		fprintf(ctx->out, "%-10s %10s %8s %6s %-10s %s\n", "POLICY",
			"GENERATION", "SIZE", "RULES", "MODE", "SHA256");
		for (i = 0; i < count; i++) {
			if (list[i].system)
				snprintf(target, sizeof(target), "system");
			else
				snprintf(target, sizeof(target), "%u",
					 list[i].uid);
			fprintf(ctx->out, "%-10s %10u %8u %6u %-10s %s\n",
				target, list[i].generation, list[i].size,
				list[i].rules,
				pfsel_mode_name(list[i].permissive ?
							PFSEL_MODE_PERMISSIVE :
							PFSEL_MODE_ENFORCING),
				pfsel_digest_hex(list[i].digest, hex));
		}
	}
	free(list);
	return PFSELCMD_EXIT_OK;
}
