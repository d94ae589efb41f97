// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel check: what the policies in force would decide for a request, and
 * which rule of each decides, asked of the running kernel through its
 * "check" transaction file.  Nothing is cached, asked or audited.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cmd.h"

static void check_help(FILE *out)
{
	fputs("Usage: pfsel check [OPTION]... OP PROTO ADDR [PORT]\n"
	      "       pfsel check [OPTION]... create PROTO [FAMILY]\n"
	      "Ask the running kernel what it would decide for a request, "
	      "and which rule\nof the system and of the user policy "
	      "decides.  OP is bind, connect,\nlisten or accept; PROTO tcp, "
	      "udp, icmp or raw (PORT is for tcp and udp);\nADDR an IPv4 or "
	      "IPv6 address.  For create, PROTO may also be packet, and\n"
	      "FAMILY is inet or inet6 (none for packet).\n\n"
	      "      --uid=UID       whose policy (default: yours; another's "
	      "needs\n                      CAP_MAC_ADMIN)\n"
	      "      --exe=PATH      the application's executable (default: "
	      "an unnamed\n                      application)\n"
	      "      --script=PATH   the script it runs, with --exe its "
	      "interpreter\n"
	      "  -q, --quiet         print nothing; the exit status is the "
	      "verdict\n"
	      "      --json          one JSON object\n"
	      "  -h, --help          show this help and exit\n\n"
	      "Exit status: 0 (whatever the verdict), 1 the kernel refused "
	      "(EPERM,\nEINVAL), 2 wrong usage, 3 pfsel is not available.  "
	      "With --quiet: 0 allow,\n10 deny, 11 ask.\n",
	      out);
}

static void json_policy(FILE *out, const char *name,
			const struct pfselcmd_check_policy *pol)
{
	fprintf(out, ",\"%s\":", name);
	if (!pol->loaded) {
		fputs("null", out);
		return;
	}
	fputs("{\"verdict\":", out);
	pfselcmd_json_str(out, pol->verdict);
	fputs(",\"rule\":", out);
	pfselcmd_json_str(out, strcmp(pol->rule, "default") ? pol->rule : NULL);
	fputc('}', out);
}

static void text_policy(FILE *out, const char *name,
			const struct pfselcmd_check_policy *pol)
{
	if (!pol->loaded)
		fprintf(out, "%-8s none loaded\n", name);
	else if (!strcmp(pol->rule, "default"))
		fprintf(out, "%-8s %-6s by its default verdict\n", name,
			pol->verdict);
	else
		fprintf(out, "%-8s %-6s by rule %s\n", name, pol->verdict,
			pol->rule);
}

int pfselcmd_check(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		{ "uid", required_argument, NULL, 'u' },
		{ "exe", required_argument, NULL, 'e' },
		{ "script", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfselcmd_check_request req = { 0 };
	struct pfselcmd_check_answer ans;
	bool quiet = false, json = false;
	char request[8192], msg[512];
	unsigned long port;
	int opt, nargs, ret;

	while ((opt = getopt_long(argc, argv, "+:qh", options, NULL)) != -1) {
		switch (opt) {
		case 'u':
			if (!pfselcmd_parse_uid(optarg, &req.uid))
				return pfselcmd_usage(ctx, "'%s' is not a uid",
						      optarg);
			req.has_uid = true;
			break;
		case 'e':
			req.exe = optarg;
			break;
		case 's':
			req.script = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			check_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		case ':':
			return pfselcmd_usage(ctx, "'%s' needs an argument",
					      argv[optind - 1]);
		default:
			return pfselcmd_usage(ctx, "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	nargs = argc - optind;
	if (nargs < 2)
		return pfselcmd_usage(ctx, "which request? pfsel check OP "
					   "PROTO ADDR [PORT]");
	req.op = argv[optind];
	req.proto = argv[optind + 1];
	if (!strcmp(req.op, "create")) {
		if (nargs > 3)
			return pfselcmd_usage(ctx, "unexpected argument '%s'",
					      argv[optind + 3]);
		req.family = nargs == 3 ? argv[optind + 2] : NULL;
	} else {
		if (nargs < 3)
			return pfselcmd_usage(ctx, "%s needs an address",
					      req.op);
		if (nargs > 4)
			return pfselcmd_usage(ctx, "unexpected argument '%s'",
					      argv[optind + 4]);
		req.addr = argv[optind + 2];
		if (nargs == 4) {
			if (!pfselcmd_parse_ulong(argv[optind + 3], 65535,
						  &port))
				return pfselcmd_usage(ctx, "'%s' is not a port",
						      argv[optind + 3]);
			req.has_port = true;
			req.port = (unsigned int)port;
		} else if (!strcmp(req.proto, "tcp") ||
			   !strcmp(req.proto, "udp")) {
			return pfselcmd_usage(ctx, "%s %s needs a port", req.op,
					      req.proto);
		}
	}
	/* Usage errors before the kernel is asked. */
	if (pfselcmd_check_format(&req, request, sizeof(request), msg,
				  sizeof(msg)) < 0)
		return pfselcmd_usage(ctx, "%s", msg);
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = pfselcmd_check_ask(&req, &ans, msg, sizeof(msg));
	if (ret)
		return pfselcmd_fail(ctx,
				     ret == -ENOENT ?
					     PFSELCMD_EXIT_UNAVAILABLE :
					     PFSELCMD_EXIT_FAILED,
				     "%s", msg);

	if (quiet) {
		if (!strcmp(ans.verdict, "deny"))
			return PFSELCMD_EXIT_CHECK_DENY;
		if (!strcmp(ans.verdict, "ask"))
			return PFSELCMD_EXIT_CHECK_ASK;
		return PFSELCMD_EXIT_OK;
	}
	if (json) {
		fputs("{\"verdict\":", ctx->out);
		pfselcmd_json_str(ctx->out, ans.verdict);
		json_policy(ctx->out, "system", &ans.system);
		json_policy(ctx->out, "user", &ans.user);
		fputs("}\n", ctx->out);
	} else {
		fprintf(ctx->out, "%-8s %s\n", "verdict", ans.verdict);
		text_policy(ctx->out, "system", &ans.system);
		text_policy(ctx->out, "user", &ans.user);
	}
	return PFSELCMD_EXIT_OK;
}
