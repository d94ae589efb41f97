// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel status, pfsel enforce: what sestatus and getenforce/setenforce are
 * for SELinux.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <getopt.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

static const struct option status_options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "user", required_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void status_help(FILE *out)
{
	fputs("Usage: pfsel status [--json] [--user USER]\n"
	      "Show whether pfsel is active, the global mode, the kernel's "
	      "interface\nversion, the loaded policies and the registered "
	      "agents; where SELinux is\nenabled, its mode and your "
	      "context.  Then, for you (not root) or USER:\nthe policy in "
	      "force, whether ~/.pfw compiles to it or differs, and\n"
	      "whether ~/.pfw is looser than the policy last confirmed, so "
	      "that it waits\nfor 'pfsel confirm' (as root: the looser "
	      "cells, as rules).\n\n"
	      "      --json        one JSON object (without the user's part)\n"
	      "      --user USER   the user's part for USER (another's: root "
	      "only)\n"
	      "  -h, --help        show this help and exit\n\n"
	      "Exit status: 0, 1 a file could not be read, 2 wrong usage, "
	      "3 pfsel is\nnot available (then the status says "
	      "\"disabled\").\n",
	      out);
}

bool pfselcmd_selinux_read(const char *enforce, const char *current,
			   struct pfselcmd_selinux *se)
{
	char mode[8] = "";
	FILE *f = fopen(enforce, "re");
	size_t n;

	if (!f)
		return false;
	n = fread(mode, 1, sizeof(mode) - 1, f);
	fclose(f);
	mode[n] = '\0';
	se->enforcing = mode[0] == '1';
	se->context[0] = '\0';
	f = fopen(current, "re");
	if (f) {
		n = fread(se->context, 1, sizeof(se->context) - 1, f);
		fclose(f);
		se->context[n] = '\0';
		se->context[strcspn(se->context, "\n")] = '\0';
	}
	return true;
}

/* The policy loaded for @uid: 1 and its digest, 0 none, <0 error. */
static int in_force(uint32_t uid, uint8_t digest[PFSEL_DIGEST_SIZE])
{
	struct pfsel_policy_info info;
	int ret = pfsel_get_policy_info(false, (uid_t)uid, &info);

	if (ret == 1)
		memcpy(digest, info.digest, PFSEL_DIGEST_SIZE);
	return ret;
}

/*
 * As root: ~/.pfw against the policy @uid confirmed, judged as a login
 * judges it (trust_judge()), with the cells.
 */
static void against_confirmed(struct pfselcmd_ctx *ctx, uint32_t uid,
			      const void *blob, size_t len)
{
	struct trust_report report = { .max = 5 };
	void *confirmed = NULL;
	size_t confirmed_len = 0, cells_len = 0;
	uint8_t sum[PFSEL_DIGEST_SIZE] = { 0 };
	char hex[PFSEL_DIGEST_HEX_SIZE], *cells = NULL;
	int conf_fd, ret;

	conf_fd = pfselcmd_open_confirmed();
	ret = conf_fd >= 0 ?
		      confirmed_read(conf_fd, uid, &confirmed, &confirmed_len) :
		      conf_fd;
	if (conf_fd >= 0)
		close(conf_fd);
	if (ret) {
		fprintf(ctx->out, "%-24s%s\n", "Confirmed policy:",
			ret == -ENOENT ? "none (the next login confirms "
					 "~/.pfw)" :
					 strerror(-ret));
		return;
	}
	policy_blob_check(confirmed, confirmed_len, uid, sum);
	fprintf(ctx->out, "%-24ssha256 %s\n", "Confirmed policy:",
		pfsel_digest_hex(sum, hex));
	if (!blob) {
		free(confirmed);
		return;
	}
	report.out = open_memstream(&cells, &cells_len);
	switch (trust_judge(confirmed, confirmed_len, blob, len, uid, NULL,
			    report.out ? &report : NULL)) {
	case TRUST_CONFIRMED_SAME:
	case TRUST_NO_LOOSER:
		fprintf(ctx->out, "%-24s%s\n",
			"~/.pfw:", "no looser than the confirmed policy");
		break;
	case TRUST_LOOSER:
		if (report.out)
			fclose(report.out);
		report.out = NULL;
		fprintf(ctx->out, "%-24s%s\n%s", "~/.pfw:",
			"LOOSER than the confirmed policy: it waits for "
			"'pfsel confirm'; it allows, for example:",
			cells ? cells : "");
		break;
	default:
		fprintf(ctx->out, "%-24s%s\n", "~/.pfw:",
			"cannot be compared with the confirmed policy");
		break;
	}
	if (report.out)
		fclose(report.out);
	free(cells);
	free(confirmed);
}

/* The user's part: what is in force for them, and their ~/.pfw. */
static void user_status(struct pfselcmd_ctx *ctx, uint32_t uid)
{
	struct user_account u;
	void *blob = NULL;
	size_t len = 0;
	uint8_t loaded[PFSEL_DIGEST_SIZE] = { 0 };
	uint8_t compiled[PFSEL_DIGEST_SIZE] = { 0 };
	uint8_t pending[PFSEL_DIGEST_SIZE] = { 0 };
	char hex[PFSEL_DIGEST_HEX_SIZE];
	struct stat pfw;
	bool same = false;
	int have, ret;
	FILE *quiet;

	ret = user_account_lookup(&u, NULL, (uid_t)uid);
	fprintf(ctx->out, "%-24s%s (uid %u)\n",
		"User:", ret ? "?" : u.user.name, uid);
	have = in_force(uid, loaded);
	if (have > 0)
		fprintf(ctx->out, "%-24ssha256 %s\n", "Policy in force:",
			pfsel_digest_hex(loaded, hex));
	else
		fprintf(ctx->out, "%-24s%s\n", "Policy in force:",
			have == 0 ? "none" : pfsel_last_error());
	if (ret) {
		fprintf(ctx->out, "%-24s%s\n", "~/.pfw:", strerror(-ret));
		user_account_free(&u);
		return;
	}
	/* Not root: the compile runs as the caller, with their group. */
	if (geteuid() != 0)
		u.user.gid = getgid();
	ret = user_source_stat(&u.user, POLICY_COMPILE_TIMEOUT, &pfw);
	/* The compile's own messages are not the status's. */
	quiet = fopen("/dev/null", "w");
	if (!ret && quiet) {
		struct pfselcmd_ctx silent = *ctx;

		silent.err = quiet;
		ret = pfselcmd_compile_user(&silent, &u, &blob, &len);
	} else if (!ret) {
		ret = pfselcmd_compile_user(ctx, &u, &blob, &len);
	}
	if (quiet)
		fclose(quiet);
	if (ret == -ENOENT) {
		fprintf(ctx->out, "%-24s%s\n", "~/.pfw:", "none");
	} else if (ret) {
		fprintf(ctx->out, "%-24s%s\n", "~/.pfw:",
			ret == -EBADMSG ? "does not compile (pfwc ~/.pfw "
					  "says why)" :
					  strerror(-ret));
	} else {
		policy_blob_check(blob, len, uid, compiled);
		same = have > 0 && !memcmp(loaded, compiled, sizeof(loaded));
		fprintf(ctx->out, "%-24ssha256 %s, %s\n", "~/.pfw:",
			pfsel_digest_hex(compiled, hex),
			same ? "the policy in force" :
			       "DIFFERS from the policy in force");
	}
	if (geteuid() == 0) {
		against_confirmed(ctx, uid, blob, len);
	} else if (!ret && !same &&
		   confirmed_pending_read(POLICY_RUN_DIR, uid, pending) == 0 &&
		   !memcmp(pending, compiled, sizeof(pending))) {
		fprintf(ctx->out, "%-24s%s\n", "Not in force:",
			"~/.pfw is looser than the policy you last confirmed; "
			"it waits for 'pfsel confirm'");
	} else if (!ret && !same) {
		fprintf(ctx->out, "%-24s%s\n", "Not in force:",
			"your next login loads ~/.pfw if it is no looser than "
			"the policy you last confirmed ('pfsel confirm' loads "
			"it now)");
	}
	free(blob);
	user_account_free(&u);
}

int pfselcmd_status(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	const char *user = NULL;
	uint32_t uid = 0;
	struct pfsel_ask_stats ask;
	struct pfsel_status st;
	struct pfselcmd_selinux se;
	bool json = false, have_ask, have_selinux;
	int opt, err;

	while ((opt = getopt_long(argc, argv, "h", status_options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'u':
			user = optarg;
			break;
		case 'h':
			status_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		default:
			return pfselcmd_bad_option(ctx, opt, argv);
		}
	}
	if (optind < argc)
		return pfselcmd_extra_argument(ctx, argv);
	if (user && pfselcmd_parse_user(user, &uid))
		return pfselcmd_usage(ctx, "no such user: '%s'", user);
	if (user && geteuid() != 0 && uid != getuid())
		return pfselcmd_usage(ctx, "another user's status is for root");

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
	have_ask = pfsel_get_ask_stats(&ask) == 0;
	/*
	 * SELinux beside pfsel: its mode and the caller's context, the
	 * kernel's (not beside a test's folder).
	 */
	have_selinux = pfselcmd_real_securityfs() &&
		       pfselcmd_selinux_read(PFSELCMD_SELINUX_ENFORCE,
					     PFSELCMD_SELF_CONTEXT, &se);

	if (json) {
		fprintf(ctx->out,
			"{\"enabled\":true,\"mode\":\"%s\",\"abi_version\":%u,"
			"\"system_policy\":%s,\"user_policies\":%lu,"
			"\"generation\":%u",
			pfsel_mode_name(st.enforcing ? PFSEL_MODE_ENFORCING :
						       PFSEL_MODE_PERMISSIVE),
			st.version, st.system_loaded ? "true" : "false",
			st.users, st.generation);
		if (have_ask)
			fprintf(ctx->out, ",\"agents\":%llu",
				(unsigned long long)ask.agents);
		if (have_selinux) {
			fprintf(ctx->out,
				",\"selinux\":{\"mode\":\"%s\","
				"\"context\":",
				se.enforcing ? "enforcing" : "permissive");
			pfselcmd_json_str(ctx->out,
					  se.context[0] ? se.context : NULL);
			fputc('}', ctx->out);
		}
		fputs("}\n", ctx->out);
		return PFSELCMD_EXIT_OK;
	}
	fprintf(ctx->out, "%-24s%s\n", "pfsel status:", "enabled");
	fprintf(ctx->out, "%-24s%s\n",
		"securityfs folder:", pfsel_securityfs());
	fprintf(ctx->out, "%-24s%s\n", "Current mode:",
		pfsel_mode_name(st.enforcing ? PFSEL_MODE_ENFORCING :
					       PFSEL_MODE_PERMISSIVE));
	fprintf(ctx->out, "%-24s%u%s\n", "Kernel ABI version:", st.version,
		st.version > PFSEL_ABI_VERSION ? " (newer than this pfsel)" :
						 "");
	fprintf(ctx->out, "%-24s%s\n",
		"System policy:", st.system_loaded ? "loaded" : "none");
	fprintf(ctx->out, "%-24s%lu\n", "User policies:", st.users);
	fprintf(ctx->out, "%-24s%u\n", "Policy generation:", st.generation);
	if (have_ask)
		fprintf(ctx->out, "%-24s%llu\n",
			"Agents registered:", (unsigned long long)ask.agents);
	if (have_selinux) {
		fprintf(ctx->out, "%-24s%s\n", "SELinux mode:",
			se.enforcing ? "enforcing" : "permissive");
		fprintf(ctx->out, "%-24s%s\n",
			"SELinux context:", se.context[0] ? se.context : "?");
	}
	/* The caller's own part, against the kernel (not a test's folder). */
	if (user || (geteuid() != 0 && pfselcmd_real_securityfs()))
		user_status(ctx, user ? uid : (uint32_t)getuid());
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
		return pfselcmd_bad_option(ctx, opt, argv);
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
		fprintf(ctx->out, "%s\n",
			pfsel_mode_name(ret ? PFSEL_MODE_ENFORCING :
					      PFSEL_MODE_PERMISSIVE));
		return PFSELCMD_EXIT_OK;
	}
	arg = argv[optind];
	/* As setenforce(8): 1, 0, or a mode's name in any case. */
	if (!strcmp(arg, "1") ||
	    !strcasecmp(arg, pfsel_mode_name(PFSEL_MODE_ENFORCING)))
		enforcing = true;
	else if (!strcmp(arg, "0") ||
		 !strcasecmp(arg, pfsel_mode_name(PFSEL_MODE_PERMISSIVE)))
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
