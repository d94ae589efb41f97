// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel stats: the access vector cache's counters, the ask counters and
 * the calls and time of each hook.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

static void stats_help(FILE *out)
{
	fputs("Usage: pfsel stats [--json]\n"
	      "Show the access vector cache's counters and threshold, the "
	      "ask counters\n(questions to agents, answers, merges) and, per "
	      "hook, the calls checked\nsince boot and the time spent in "
	      "them.\n\n"
	      "      --json   one JSON object\n"
	      "  -h, --help   show this help and exit\n\n"
	      "Exit status: 0, 1 a file could not be read, 2 wrong usage, "
	      "3 pfsel is\nnot available.\n",
	      out);
}

/* The ask counters, named as the kernel names them, in its order. */
static void ask_json(FILE *out, const struct pfsel_ask_stats *ask)
{
	const char *sep = "{";

#define ASK_JSON(f)                                                  \
	fprintf(out, "%s\"" #f "\":%llu", sep, (unsigned long long)ask->f); \
	sep = ",";
	PFSEL_ASK_STATS_FIELDS(ASK_JSON)
#undef ASK_JSON
	fputc('}', out);
}

static void ask_text(FILE *out, const struct pfsel_ask_stats *ask)
{
#define ASK_TEXT(f) \
	fprintf(out, "  %-12s %llu\n", #f, (unsigned long long)ask->f);
	PFSEL_ASK_STATS_FIELDS(ASK_TEXT)
#undef ASK_TEXT
}

int pfselcmd_stats(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfsel_hook_stat *hooks = NULL;
	struct pfsel_ask_stats ask;
	struct pfsel_avc_stats avc;
	unsigned int threshold = 0;
	bool json = false, have_threshold, have_ask;
	size_t nhooks = 0, i;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		if (opt == 'j') {
			json = true;
			continue;
		}
		if (opt == 'h') {
			stats_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		}
		return pfselcmd_bad_option(ctx, opt, argv);
	}
	if (optind < argc)
		return pfselcmd_extra_argument(ctx, argv);
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;

	ret = pfsel_get_avc_stats(&avc);
	if (ret)
		return pfselcmd_lib_fail(ctx, ret);
	have_threshold = pfsel_get_avc_threshold(&threshold) == 0;
	ret = pfsel_get_hook_stats(&hooks, &nhooks);
	if (ret)
		return pfselcmd_lib_fail(ctx, ret);
	/* Kernels before the ask upcall have no ask_stats. */
	have_ask = pfsel_get_ask_stats(&ask) == 0;

	if (json) {
		fprintf(ctx->out,
			"{\"avc\":{\"lookups\":%llu,\"hits\":%llu,"
			"\"misses\":%llu,\"allocations\":%llu,"
			"\"reclaims\":%llu,\"frees\":%llu",
			(unsigned long long)avc.lookups,
			(unsigned long long)avc.hits,
			(unsigned long long)avc.misses,
			(unsigned long long)avc.allocations,
			(unsigned long long)avc.reclaims,
			(unsigned long long)avc.frees);
		if (have_threshold)
			fprintf(ctx->out, ",\"threshold\":%u", threshold);
		fputs("},\"ask\":", ctx->out);
		if (have_ask)
			ask_json(ctx->out, &ask);
		else
			fputs("null", ctx->out);
		fputs(",\"hooks\":[", ctx->out);
		for (i = 0; i < nhooks; i++) {
			fprintf(ctx->out, "%s{\"name\":", i ? "," : "");
			pfselcmd_json_str(ctx->out, hooks[i].name);
			fprintf(ctx->out, ",\"calls\":%llu,\"ns\":%llu}",
				(unsigned long long)hooks[i].calls,
				(unsigned long long)hooks[i].ns);
		}
		fputs("]}\n", ctx->out);
		free(hooks);
		return PFSELCMD_EXIT_OK;
	}

	fputs("Access vector cache:\n", ctx->out);
	fprintf(ctx->out, "  %-12s %llu\n", "lookups",
		(unsigned long long)avc.lookups);
	fprintf(ctx->out, "  %-12s %llu", "hits", (unsigned long long)avc.hits);
	if (avc.lookups)
		fprintf(ctx->out, " (%.1f%%)",
			100.0 * (double)avc.hits / (double)avc.lookups);
	fputc('\n', ctx->out);
	fprintf(ctx->out, "  %-12s %llu\n", "misses",
		(unsigned long long)avc.misses);
	fprintf(ctx->out, "  %-12s %llu\n", "allocations",
		(unsigned long long)avc.allocations);
	fprintf(ctx->out, "  %-12s %llu\n", "reclaims",
		(unsigned long long)avc.reclaims);
	fprintf(ctx->out, "  %-12s %llu\n", "frees",
		(unsigned long long)avc.frees);
	if (have_threshold)
		fprintf(ctx->out, "  %-12s %u\n", "threshold", threshold);
	if (have_ask) {
		fputs("Ask:\n", ctx->out);
		ask_text(ctx->out, &ask);
	}
	fprintf(ctx->out, "Hooks:\n  %-20s %12s %16s %10s\n", "HOOK", "CALLS",
		"TIME (ns)", "ns/CALL");
	for (i = 0; i < nhooks; i++) {
		fprintf(ctx->out, "  %-20s %12llu %16llu", hooks[i].name,
			(unsigned long long)hooks[i].calls,
			(unsigned long long)hooks[i].ns);
		if (hooks[i].calls)
			fprintf(ctx->out, " %10llu\n",
				(unsigned long long)(hooks[i].ns /
						     hooks[i].calls));
		else
			fprintf(ctx->out, " %10s\n", "-");
	}
	free(hooks);
	return PFSELCMD_EXIT_OK;
}
