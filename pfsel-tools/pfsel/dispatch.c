// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - the command table: "pfsel COMMAND [ARGS]", as iw does it.
 */
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

#ifndef PFSEL_TOOLS_VERSION
#define PFSEL_TOOLS_VERSION "unknown"
#endif

struct pfselcmd_command {
	const char *name;
	int (*run)(struct pfselcmd_ctx *ctx, int argc, char **argv);
	const char *summary;
};

static const struct pfselcmd_command commands[] = {
	{ "status", pfselcmd_status,
	  "whether pfsel is active, its mode and what is loaded" },
	{ "enforce", pfselcmd_enforce,
	  "print the global mode, or set it: 1 enforcing, 0 permissive" },
	{ "load", pfselcmd_load,
	  "load a policy, and record it as the one the person confirmed" },
	{ "confirm", pfselcmd_confirm,
	  "put your ~/.pfw in force (as root: asks for your password)" },
	{ "compare", pfselcmd_compare,
	  "whether one compiled policy is no looser than another" },
	{ "unload", pfselcmd_unload,
	  "unload the system policy or a uid's (default: yours)" },
	{ "list", pfselcmd_list, "list the loaded policies" },
	{ "check", pfselcmd_check,
	  "ask the kernel what it would decide for a request, and why" },
	{ "stats", pfselcmd_stats,
	  "cache, ask and per-hook counters and times" },
	{ "log", pfselcmd_log, "recent decisions from the audit log" },
	{ "audit2pfw", pfselcmd_audit2pfw,
	  "rules that would allow the denials in the audit log" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fputs("Usage: pfsel COMMAND [OPTION]... [ARG]...\n"
	      "Administer pfsel, the per-user, per-application firewall.\n\n"
	      "Commands:\n",
	      out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\n'pfsel COMMAND --help' describes each command.\n"
	      "  -h, --help     show this help and exit\n"
	      "  -V, --version  show the version and exit\n\n"
	      "Exit status: 0 success, 1 the operation failed, 2 wrong "
	      "usage,\n3 pfsel is not available; check --quiet: 0 allow, "
	      "10 deny, 11 ask.\n",
	      out);
}

int pfselcmd_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct pfselcmd_ctx ctx = { .out = out, .err = err, .name = "" };
	const char *name;
	size_t i;
	int ret;

	if (argc < 2) {
		usage(err);
		return PFSELCMD_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help") ||
	    !strcmp(name, "help")) {
		usage(out);
		return PFSELCMD_EXIT_OK;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		fprintf(out, "pfsel %s (ABI %d)\n", PFSEL_TOOLS_VERSION,
			PFSEL_ABI_VERSION);
		return PFSELCMD_EXIT_OK;
	}
	/*
	 * pkexec ran us as root after the person's own password: they may
	 * confirm their own policy, and do nothing else as root.
	 */
	if (pfselcmd_under_pkexec()) {
		if (strcmp(name, "confirm")) {
			fprintf(err,
				"pfsel: through pkexec, only 'pfsel confirm'\n");
			return PFSELCMD_EXIT_USAGE;
		}
		/* And on the kernel's folder, whatever the caller's setting. */
		if (pfsel_set_securityfs(PFSEL_SECURITYFS_DEFAULT))
			return PFSELCMD_EXIT_FAILED;
	}
	for (i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name))
			continue;
		ctx.name = commands[i].name;
		pfselcmd_getopt_reset();
		ret = commands[i].run(&ctx, argc - 1, argv + 1);
		if (fflush(out) && ret == PFSELCMD_EXIT_OK)
			ret = pfselcmd_fail(&ctx, PFSELCMD_EXIT_FAILED,
					    "write(standard output): %m");
		return ret;
	}
	fprintf(err, "pfsel: '%s' is not a command\n", name);
	usage(err);
	return PFSELCMD_EXIT_USAGE;
}
