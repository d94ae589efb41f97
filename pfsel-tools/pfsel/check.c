// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel check: what the policies in force would decide for a request, and
 * which rule of each decides, asked of the running kernel through its
 * "check" transaction file.  Nothing is cached, asked or audited.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

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

/* The deciding rule as the kernel writes it: "FILE:LINE:COL". */
static void rule_text(const struct pfsel_check_decision *d, char *buf,
		      size_t size)
{
	snprintf(buf, size, "%s:%u:%u", d->rule_file, (unsigned int)d->rule_line,
		 (unsigned int)d->rule_col);
}

static void json_policy(FILE *out, const char *name,
			const struct pfsel_check_decision *d)
{
	char rule[sizeof(d->rule_file) + 32];

	fprintf(out, ",\"%s\":", name);
	if (!d->loaded) {
		fputs("null", out);
		return;
	}
	fputs("{\"verdict\":", out);
	pfselcmd_json_str(out, pfsel_verdict_name(d->verdict));
	fputs(",\"rule\":", out);
	rule_text(d, rule, sizeof(rule));
	pfselcmd_json_str(out, d->rule_line ? rule : NULL);
	fputc('}', out);
}

static void text_policy(FILE *out, const char *name,
			const struct pfsel_check_decision *d)
{
	char rule[sizeof(d->rule_file) + 32];

	if (!d->loaded) {
		fprintf(out, "%-8s none loaded\n", name);
	} else if (!d->rule_line) {
		fprintf(out, "%-8s %-6s by its default verdict\n", name,
			pfsel_verdict_name(d->verdict));
	} else {
		rule_text(d, rule, sizeof(rule));
		fprintf(out, "%-8s %-6s by rule %s\n", name,
			pfsel_verdict_name(d->verdict), rule);
	}
}

/* --exe or --script @path into @dst: PFSELCMD_EXIT_OK or a usage error. */
static int take_path(struct pfselcmd_ctx *ctx, const char *path, char *dst,
		     size_t size)
{
	if (!path)
		return PFSELCMD_EXIT_OK;
	if (path[0] != '/')
		return pfselcmd_usage(ctx, "'%s' is not an absolute path",
				      path);
	if (strlen(path) >= size)
		return pfselcmd_usage(ctx, "'%s' is longer than %zu bytes",
				      path, size - 1);
	strcpy(dst, path);
	return PFSELCMD_EXIT_OK;
}

/*
 * The request of the command line, from OP PROTO and ADDR [PORT] or
 * [FAMILY], and --exe and --script: PFSELCMD_EXIT_OK, or the usage error
 * (said on ctx->err).
 */
static int parse_request(struct pfselcmd_ctx *ctx, int nargs, char **args,
			 const char *exe, const char *script,
			 struct pfsel_request *req)
{
	const bool create = pfsel_op_from_name(args[0]) == PFSEL_OP_CREATE;
	const char *family = NULL;
	unsigned long port;
	int v;

	if (create) {
		if (nargs > 3)
			return pfselcmd_usage(ctx, "unexpected argument '%s'",
					      args[3]);
		family = nargs == 3 ? args[2] : NULL;
	} else {
		if (nargs < 3)
			return pfselcmd_usage(ctx, "%s needs an address",
					      args[0]);
		if (nargs > 4)
			return pfselcmd_usage(ctx, "unexpected argument '%s'",
					      args[4]);
		if (nargs == 4) {
			if (!pfselcmd_parse_ulong(args[3], 65535, &port))
				return pfselcmd_usage(ctx, "'%s' is not a port",
						      args[3]);
			req->port = (uint16_t)port;
		} else if (pfsel_proto_from_name(args[1]) == PFSEL_PROTO_TCP ||
			   pfsel_proto_from_name(args[1]) == PFSEL_PROTO_UDP) {
			return pfselcmd_usage(ctx, "%s %s needs a port", args[0],
					      args[1]);
		}
	}
	v = pfsel_op_from_name(args[0]);
	if (v < 0)
		return pfselcmd_usage(ctx,
				      "'%s' is not an operation (create, bind, "
				      "connect, listen, accept)",
				      args[0]);
	req->op = (unsigned int)v;
	v = pfsel_proto_from_name(args[1]);
	if (v < 0)
		return pfselcmd_usage(ctx,
				      "'%s' is not a protocol (tcp, udp, icmp, "
				      "raw, packet)",
				      args[1]);
	req->proto = (unsigned int)v;
	v = take_path(ctx, exe, req->exe, sizeof(req->exe));
	if (v == PFSELCMD_EXIT_OK)
		v = take_path(ctx, script, req->script, sizeof(req->script));
	if (v != PFSELCMD_EXIT_OK)
		return v;
	if (script && !exe)
		return pfselcmd_usage(ctx, "a script needs its interpreter "
					   "(--exe)");
	if (create) {
		v = family ? pfsel_family_from_name(family) : -EINVAL;
		if (v == PFSEL_FAMILY_PACKET)
			v = -EINVAL;
		if (v < 0 && (family || req->proto != PFSEL_PROTO_PACKET))
			return pfselcmd_usage(ctx,
					      "'%s' is not a family (inet, "
					      "inet6)",
					      family ? family : "");
		req->family = v < 0 ? PFSEL_FAMILY_PACKET : (unsigned int)v;
	} else if (req->proto != PFSEL_PROTO_PACKET &&
		   pfsel_parse_addr(args[2], req->addr)) {
		return pfselcmd_usage(ctx,
				      "'%s' is not an IPv4 or IPv6 address",
				      args[2]);
	}
	return PFSELCMD_EXIT_OK;
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
	struct pfsel_check_request check;
	struct pfsel_check_answer *ans;
	struct pfsel_request *req;
	const char *exe = NULL, *script = NULL;
	bool quiet = false, json = false, has_uid = false;
	char request[8192];
	uint32_t uid = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+:qh", options, NULL)) != -1) {
		switch (opt) {
		case 'u':
			if (!pfselcmd_parse_uid(optarg, &uid))
				return pfselcmd_usage(ctx, "'%s' is not a uid",
						      optarg);
			has_uid = true;
			break;
		case 'e':
			exe = optarg;
			break;
		case 's':
			script = optarg;
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
		default:
			return pfselcmd_bad_option(ctx, opt, argv);
		}
	}
	if (argc - optind < 2)
		return pfselcmd_usage(ctx, "which request? pfsel check OP "
					   "PROTO ADDR [PORT]");
	req = calloc(1, sizeof(*req));
	ans = malloc(sizeof(*ans));
	if (!req || !ans) {
		free(req);
		free(ans);
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED, "%s",
				     strerror(ENOMEM));
	}
	ret = parse_request(ctx, argc - optind, argv + optind, exe, script,
			    req);
	pfsel_request_to_check(req, &check);
	check.has_uid = has_uid;
	check.uid = uid;
	/* Usage errors before the kernel is asked. */
	if (ret == PFSELCMD_EXIT_OK &&
	    pfsel_check_request_format(&check, request, sizeof(request)) < 0)
		ret = pfselcmd_usage(ctx, "%s", pfsel_last_error());
	if (ret == PFSELCMD_EXIT_OK && !pfselcmd_available(ctx, false))
		ret = PFSELCMD_EXIT_UNAVAILABLE;
	if (ret != PFSELCMD_EXIT_OK) {
		free(req);
		free(ans);
		return ret;
	}
	ret = pfsel_check(&check, ans);
	free(req);
	if (ret) {
		free(ans);
		return pfselcmd_fail(ctx,
				     ret == -ENOENT ?
					     PFSELCMD_EXIT_UNAVAILABLE :
					     PFSELCMD_EXIT_FAILED,
				     "%s", pfsel_last_error());
	}

	if (quiet) {
		ret = ans->verdict == PFSEL_VERDICT_DENY ?
			      PFSELCMD_EXIT_CHECK_DENY :
		      ans->verdict == PFSEL_VERDICT_ASK ?
			      PFSELCMD_EXIT_CHECK_ASK :
			      PFSELCMD_EXIT_OK;
	} else if (json) {
		fputs("{\"verdict\":", ctx->out);
		pfselcmd_json_str(ctx->out, pfsel_verdict_name(ans->verdict));
		json_policy(ctx->out, "system", &ans->system);
		json_policy(ctx->out, "user", &ans->user);
		fputs("}\n", ctx->out);
	} else {
		fprintf(ctx->out, "%-8s %s\n", "verdict",
			pfsel_verdict_name(ans->verdict));
		text_policy(ctx->out, "system", &ans->system);
		text_policy(ctx->out, "user", &ans->user);
	}
	free(ans);
	return ret;
}
