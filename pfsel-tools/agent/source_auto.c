// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "auto" decision source: one fixed answer to every
 * question (--auto), for tests and benchmarks.
 */
#include <stdlib.h>

#include "agent.h"

static int auto_post(struct agent_source *const src,
		     const struct pfsel_question *const q,
		     const long long deadline_ms,
		     struct agent_decision *const d)
{
	(void)q;
	(void)deadline_ms;
	*d = *(const struct agent_decision *)src->priv;
	return AGENT_DECIDED;
}

static void auto_destroy(struct agent_source *const src)
{
	free(src->priv);
	free(src);
}

struct agent_source *source_auto_new(const unsigned int verdict,
				     const unsigned int scope)
{
	struct agent_source *src = calloc(1, sizeof(*src));
	struct agent_decision *d = calloc(1, sizeof(*d));

	if (!src || !d) {
		free(src);
		free(d);
		return NULL;
	}
	d->verdict = verdict;
	d->scope = scope;
	src->name = "auto";
	src->post = auto_post;
	src->destroy = auto_destroy;
	src->priv = d;
	return src;
}
