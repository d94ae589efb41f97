// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel status, pfsel enforce: what sestatus and getenforce/setenforce are
 * for SELinux.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

static const struct option status_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void status_help(FILE *out)
{
	fputs("Usage: pfsel status [--json]\n"
	      "Show whether pfsel is active, the global mode, the kernel's "
	      "interface\nversion, the loaded policies and the registered "
	      "agents.\n\n"
	      "      --json   one JSON object\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 a file could not be read, 2 wrong usage, "
	      "3 pfsel is\nnot available (then the status says "
	      "\"disabled\").\n",
	      out);
}

int pfselcmd_status(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	struct pfselcmd_ask_stats ask;
	struct pfsel_status st;
	bool json = false, have_ask;
	int64_t agents = -1;
	char msg[512];
	int opt, err;

	while ((opt = getopt_long(argc, argv, "h", status_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			status_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		default:
			return pfselcmd_usage(ctx, "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pfselcmd_usage(ctx, "unexpected argument '%s'",
				      argv[optind]);

	if (!pfselcmd_available(ctx, true)) {
		if (json)
			fputs("{\"enabled\":false}\n", ctx->out);
		else
			fprintf(ctx->out, "%-24s%s\n",
				"pfsel status:", "disabled");
		return PFSELCMD_EXIT_UNAVAILABLE;
	}
	err = pfsel_get_status(&st);
	if (err)
		return pfselcmd_lib_fail(ctx, err);
	/* Kernels before the ask upcall have no ask_stats: no agents line. */
	have_ask = pfselcmd_read_ask_stats(&ask, msg, sizeof(msg)) == 0;
	if (have_ask)
		agents = pfselcmd_ask_stat(&ask, "agents");

	if (json) {
		fprintf(ctx->out,
			"{\"enabled\":true,\"mode\":\"%s\",\"abi_version\":%u,"
			"\"system_policy\":%s,\"user_policies\":%lu,"
			"\"generation\":%u",
			st.enforcing ? "enforcing" : "permissive", st.version,
			st.system_loaded ? "true" : "false", st.users,
			st.generation);
		if (agents >= 0)
			fprintf(ctx->out, ",\"agents\":%lld",
				(long long)agents);
		fputs("}\n", ctx->out);
		return PFSELCMD_EXIT_OK;
	}
	fprintf(ctx->out, "%-24s%s\n", "pfsel status:", "enabled");
	fprintf(ctx->out, "%-24s%s\n",
		"securityfs folder:", pfsel_securityfs());
	fprintf(ctx->out, "%-24s%s\n",
		"Current mode:", st.enforcing ? "enforcing" : "permissive");
	fprintf(ctx->out, "%-24s%u%s\n", "Kernel ABI version:", st.version,
		st.version > PFSEL_ABI_VERSION ? " (newer than this pfsel)" :
						 "");
	fprintf(ctx->out, "%-24s%s\n",
		"System policy:", st.system_loaded ? "loaded" : "none");
	fprintf(ctx->out, "%-24s%lu\n", "User policies:", st.users);
	fprintf(ctx->out, "%-24s%u\n", "Policy generation:", st.generation);
	if (agents >= 0)
		fprintf(ctx->out, "%-24s%lld\n",
			"Agents registered:", (long long)agents);
	return PFSELCMD_EXIT_OK;
}

static void enforce_help(FILE *out)
{
	fputs("Usage: pfsel enforce [1|0|enforcing|permissive]\n"
	      "Without an argument, print the global mode (enforcing or "
	      "permissive).\nWith one, switch it (needs CAP_MAC_ADMIN): in "
	      "permissive mode every\ndenial is audited with permissive=1 "
	      "and let through.\n\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 the kernel refused (EACCES, EPERM), 2 wrong "
	      "usage,\n3 pfsel is not available.\n",
	      out);
}

int pfselcmd_enforce(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *arg;
	bool enforcing;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == 'h') {
			enforce_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		}
		return pfselcmd_usage(ctx, "unknown option '%s'",
				      argv[optind - 1]);
	}
	if (argc - optind > 1)
		return pfselcmd_usage(ctx, "unexpected argument '%s'",
				      argv[optind + 1]);
	if (optind == argc) {
		if (!pfselcmd_available(ctx, false))
			return PFSELCMD_EXIT_UNAVAILABLE;
		ret = pfsel_get_enforce();
		if (ret < 0)
			return pfselcmd_lib_fail(ctx, ret);
		fprintf(ctx->out, "%s\n", ret ? "enforcing" : "permissive");
		return PFSELCMD_EXIT_OK;
	}
	arg = argv[optind];
	if (!strcmp(arg, "1") || !strcasecmp(arg, "enforcing"))
		enforcing = true;
	else if (!strcmp(arg, "0") || !strcasecmp(arg, "permissive"))
		enforcing = false;
	else
		return pfselcmd_usage(ctx,
				      "'%s' is not a mode (1, 0, enforcing, "
				      "permissive)",
				      arg);
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = pfsel_set_enforce(enforcing);
	if (ret < 0)
		return pfselcmd_lib_fail(ctx, ret);
	return PFSELCMD_EXIT_OK;
}
