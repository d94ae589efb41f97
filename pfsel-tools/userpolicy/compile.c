// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - .pfw text compiled in this process, with pfwc's own
 * front and back end (libpfw), as pfwc would compile it: for the user's
 * own agent, which makes an "always" answer a rule of ~/.pfw and loads
 * it.
 *
 * The user's programs can write ~/.pfw and the files it includes, and
 * trace any process of the user's but the agent (which is not dumpable).
 * So nothing between the text and the blob passes through their hands:
 * no pfwc process to trace, no file to swap.  The root side, which must
 * never read the user's files as root, runs pfwc as the user instead
 * (runas.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "diag.h"
#include "parser.h"
#include "sema.h"
#include "services.h"

#include "userpolicy.h"

/* Leaves out of @policy the rule that starts on line @line of @file. */
static int leave_out_rule(struct pfw_policy *policy, const char *file,
			  unsigned int line)
{
	size_t i, at = policy->n_rules;

	for (i = 0; i < policy->n_rules; i++) {
		const struct pfw_loc *loc = &policy->rules[i].loc;

		if (loc->file && !strcmp(loc->file, file) &&
		    loc->line == line) {
			if (at != policy->n_rules)
				return -EINVAL;
			at = i;
		}
	}
	if (at == policy->n_rules)
		return -EINVAL;
	pfw_rule_fini(&policy->rules[at]);
	memmove(&policy->rules[at], &policy->rules[at + 1],
		(policy->n_rules - at - 1) * sizeof(policy->rules[0]));
	/* A rule's index is its place: the format's rule numbers. */
	for (i = at; i + 1 < policy->n_rules; i++)
		policy->rules[i].index = (uint32_t)i;
	policy->n_rules--;
	return 0;
}

/* Moves @buf (@len bytes, malloc()ed) into @out. */
static void keep(struct policy_blob *out, uint8_t *buf, size_t len)
{
	free(out->blob);
	out->blob = buf;
	out->len = len;
}

int compile_here(const struct compile_source *src, struct policy_blob *with,
		 unsigned int leave_out, struct policy_blob *without, char *err,
		 size_t errlen)
{
	static const struct pfw_parse_options parse_opts = {
		.allow_includes = true,
	};
	struct pfw_sema_options sema_opts = { 0 };
	struct pfw_services *services = NULL;
	struct pfw_policy *policy = NULL;
	struct pfw_diag diag;
	char *messages = NULL;
	size_t messages_len = 0, len;
	uint8_t *buf;
	FILE *mem;
	int rc = -EINVAL;

	mem = open_memstream(&messages, &messages_len);
	if (!mem) {
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		return -ENOMEM;
	}
	pfw_diag_init(&diag, mem);
	if (src->program)
		diag.program = src->program;
	if (src->services) {
		services = pfw_services_load(src->services, &diag);
		if (!services || diag.errors)
			goto out;
		sema_opts.services = services;
	}
	policy = pfw_parse_buffer(src->name, src->text, strlen(src->text),
				  &parse_opts, &diag);
	if (!policy || diag.errors || !pfw_sema(policy, &sema_opts, &diag) ||
	    diag.errors)
		goto out;
	if (!policy->settings.is_system && !policy->settings.has_uid) {
		policy->settings.has_uid = true;
		policy->settings.uid = (uint32_t)src->uid;
	}
	rc = pfw_compile_pfsel(policy, &buf, &len);
	if (rc)
		goto out;
	keep(with, buf, len);
	if (leave_out) {
		rc = leave_out_rule(policy, src->name, leave_out);
		if (rc) {
			fprintf(mem,
				"%s:%u: the new rule is not a rule there\n",
				src->name, leave_out);
			goto out;
		}
		rc = pfw_compile_pfsel(policy, &buf, &len);
		if (rc)
			goto out;
		keep(without, buf, len);
	}
out:
	if (rc == -E2BIG)
		fprintf(mem,
			"%s: the policy is too large for the binary format\n",
			src->name);
	else if (rc == -ENOMEM)
		fprintf(mem, "%s: %s\n", src->name, strerror(ENOMEM));
	pfw_policy_free(policy);
	pfw_services_free(services);
	pfw_diag_fini(&diag);
	fclose(mem);
	if (rc) {
		/* Keep the compiler's own words; strip the last newline. */
		if (messages_len && messages[messages_len - 1] == '\n')
			messages[messages_len - 1] = '\0';
		snprintf(err, errlen, "%s", messages ? messages : "");
	}
	free(messages);
	return rc;
}
