// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the first step: the command line (pfsel-agent(1)), read
 * into struct agent_options; nothing is opened or looked up here.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: pfsel-agent --user=USER [OPTION]...\n"
		"Answer pfsel's questions for USER: a policy rule said 'ask'.\n"
		"\n"
		"  -u, --user=USER      the user (name or uid) to answer for.  Start as\n"
		"                       root (sudo, or the unit pfsel-agent@USER): the\n"
		"                       agent registers, then runs as USER for good.\n"
		"                       Without it, the agent answers for the uid it\n"
		"                       runs as, which must be root's.\n"
		"\n"
		"Decision sources, tried in this order; the first that decides answers:\n"
		"  -r, --rules=FILE     answer by the first matching rule of FILE, .pfw\n"
		"                       rules with a scope (with --user: a file only\n"
		"                       root can change)\n"
		"  -a, --auto=VERDICT   answer every question allow or deny\n"
		"  -s, --scope=SCOPE    scope of the --auto answer: once (default),\n"
		"                       process, session or always\n"
		"  -i, --interactive    prompt on the terminal (the default when none of\n"
		"                       --rules, --auto and --prompt is given)\n"
		"      --prompt[=PROGRAM]  ask on the desktop: run PROGRAM (default:\n"
		"                       pfsel-prompt beside pfsel-agent, else in $PATH)\n"
		"                       as USER, the agent's child, with --agent-fd=N;\n"
		"                       it answers over that private socket pair only.\n"
		"                       Questions wait in its window while the agent\n"
		"                       takes more; one whose time runs out is taken\n"
		"                       back.  Its display: $DISPLAY or\n"
		"                       $WAYLAND_DISPLAY, else the user's graphical\n"
		"                       session's, from logind.  Not with --interactive.\n"
		"A question no source decides is not answered: the policy's unanswered\n"
		"verdict applies when its time-out runs out.\n"
		"\n"
		"Answers with scope 'always' become rules:\n"
		"      --pfw=FILE       the policy source to add them to (default ~/.pfw,\n"
		"                       in USER's home with --user)\n"
		"      --policy=FILE    where to write the compiled policy it loads\n"
		"                       (default: what pfwc writes for FILE,\n"
		"                       ~/.pfw.pfsel); the agent compiles it itself\n"
		"\n"
		"  -l, --log=FILE       append the log to FILE (default: standard error)\n"
		"  -n, --count=N        exit after N questions\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"Exit status: 0 stopped by SIGINT/SIGTERM or --count, 1 the netlink\n"
		"socket failed, another agent replaced this one, or the --prompt\n"
		"program could not be started, 2 wrong usage, 3 a\n"
		"file could not be read or opened (or a rule file others than root can\n"
		"change), 4 the kernel has no pfsel netlink family (pfsel inactive, or\n"
		"without ask), 5 not started as root.\n");
}

int agent_options_parse(int argc, char **argv, struct agent_options *o)
{
	static const struct option options[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "rules", required_argument, NULL, 'r' },
		{ "auto", required_argument, NULL, 'a' },
		{ "scope", required_argument, NULL, 's' },
		{ "interactive", no_argument, NULL, 'i' },
		{ "prompt", optional_argument, NULL, 'p' },
		{ "pfw", required_argument, NULL, 'P' },
		{ "policy", required_argument, NULL, 'O' },
		{ "log", required_argument, NULL, 'l' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, scope;
	char *end;

	*o = (struct agent_options){ .auto_verdict = -1,
				     .auto_scope = PFSEL_SCOPE_ONCE };
	while ((opt = getopt_long(argc, argv, "u:r:a:s:il:n:hV", options,
				  NULL)) != -1) {
		switch (opt) {
		case 'u':
			o->user = optarg;
			break;
		case 'r':
			o->rules = optarg;
			break;
		case 'a':
			o->auto_verdict = pfsel_answer_from_name(optarg);
			if (o->auto_verdict < 0 || strlen(optarg) == 1) {
				fprintf(stderr,
					"pfsel-agent: --auto: '%s' is not allow or deny\n",
					optarg);
				return AGENT_EXIT_USAGE;
			}
			break;
		case 's':
			scope = pfsel_scope_from_name(optarg);
			if (scope < 0 || strlen(optarg) == 1) {
				fprintf(stderr,
					"pfsel-agent: --scope: '%s' is not once, process, session or always\n",
					optarg);
				return AGENT_EXIT_USAGE;
			}
			o->auto_scope = (unsigned int)scope;
			break;
		case 'i':
			o->interactive = true;
			break;
		case 'p':
			o->prompt = true;
			o->prompt_program = optarg;
			if (optarg && !*optarg) {
				fprintf(stderr,
					"pfsel-agent: --prompt=: an empty program name\n");
				return AGENT_EXIT_USAGE;
			}
			break;
		case 'P':
			o->pfw = optarg;
			break;
		case 'O':
			o->policy = optarg;
			break;
		case 'l':
			o->log = optarg;
			break;
		case 'n':
			errno = 0;
			o->count = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || o->count == 0 ||
			    optarg[0] == '-') {
				fprintf(stderr,
					"pfsel-agent: --count: '%s' is not a positive number\n",
					optarg);
				return AGENT_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return AGENT_EXIT_OK;
		case 'V':
			printf("pfsel-agent %s\n", PFSEL_TOOLS_VERSION);
			return AGENT_EXIT_OK;
		default:
			usage(stderr);
			return AGENT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pfsel-agent: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return AGENT_EXIT_USAGE;
	}
	if (o->interactive && o->prompt) {
		fprintf(stderr,
			"pfsel-agent: --interactive and --prompt: choose one: the terminal or the desktop prompt\n");
		usage(stderr);
		return AGENT_EXIT_USAGE;
	}
	if (!o->rules && o->auto_verdict < 0 && !o->prompt)
		o->interactive = true;
	return -1;
}
