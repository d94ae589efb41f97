// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "rules" decision source: a rule file (--rules), read
 * once at start; the syntax is in rules.c and pfsel-agent(1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static int rules_decide(struct agent_source *const src,
			const struct pfsel_question *const q,
			const long long deadline_ms,
			struct agent_decision *const d)
{
	(void)deadline_ms;
	return agent_rules_match(src->priv, q, d, NULL);
}

static void rules_destroy(struct agent_source *const src)
{
	agent_rules_free(src->priv);
	free(src);
}

/* Reads a whole text file; NULL and @err on failure. */
static char *read_text(const char *const path, char *const err,
		       const size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (!f) {
		snprintf(err, errlen, "open(%s): %s", path, strerror(errno));
		return NULL;
	}
	mem = open_memstream(&text, &len);
	if (!mem) {
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		fclose(f);
		return NULL;
	}
	while ((c = getc(f)) != EOF)
		putc(c, mem);
	if (ferror(f)) {
		snprintf(err, errlen, "read(%s): %s", path, strerror(errno));
		fclose(f);
		fclose(mem);
		free(text);
		return NULL;
	}
	fclose(f);
	fclose(mem);
	return text;
}

struct agent_source *source_rules_new(const char *const path, char *const err,
				      const size_t errlen)
{
	struct agent_source *src;
	struct agent_rules *rules;
	char *text = read_text(path, err, errlen);

	if (!text)
		return NULL;
	rules = agent_rules_parse(path, text, err, errlen);
	free(text);
	if (!rules)
		return NULL;
	src = calloc(1, sizeof(*src));
	if (!src) {
		snprintf(err, errlen, "calloc: %s", strerror(ENOMEM));
		agent_rules_free(rules);
		return NULL;
	}
	src->name = "rules";
	src->decide = rules_decide;
	src->destroy = rules_destroy;
	src->priv = rules;
	return src;
}
