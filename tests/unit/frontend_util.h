/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the front-end unit tests: compile a policy from a string and
 * capture what pfwc would print.
 */
#ifndef PFSEL_TESTS_FRONTEND_UTIL_H
#define PFSEL_TESTS_FRONTEND_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "lexer.h"
#include "parser.h"
#include "sema.h"
#include "services.h"

struct compiled {
	struct pfw_policy *policy;
	struct pfw_diag diag;
	struct pfw_services *services;
	char *messages; /* everything printed, NUL-terminated */
	size_t messages_len;
	FILE *out;
	unsigned int errors;
	unsigned int warnings;
};

static const char test_services_text[] = "ssh 22/tcp\n"
					 "domain 53/tcp dns\n"
					 "domain 53/udp dns\n"
					 "https 443/tcp\n"
					 "https 443/udp quic\n";

/*
 * Parse @source (as "test.pfw", or "system.pfw" with @system) and, when it parsed cleanly, run sema.
 * @options: -W options separated by spaces, or NULL.  @system: --system.
 */
static inline void compile_text(struct compiled *c, const char *source,
				const char *options, bool system)
{
	static const struct pfw_parse_options parse_opts = { 0 };
	struct pfw_sema_options sema_opts = { .force_system = system };

	memset(c, 0, sizeof(*c));
	c->out = open_memstream(&c->messages, &c->messages_len);
	pfw_diag_init(&c->diag, c->out);
	if (options) {
		char *copy = strdup(options), *save = NULL;

		for (char *opt = strtok_r(copy, " ", &save); opt;
		     opt = strtok_r(NULL, " ", &save))
			pfw_diag_option(&c->diag, opt);
		free(copy);
	}
	c->services = pfw_services_parse("test.services", test_services_text,
					 strlen(test_services_text), &c->diag);
	sema_opts.services = c->services;
	c->policy = pfw_parse_buffer(system ? "system.pfw" : "test.pfw", source,
				     strlen(source), &parse_opts, &c->diag);
	if (!c->diag.errors)
		pfw_sema(c->policy, &sema_opts, &c->diag);
	fflush(c->out);
	c->errors = c->diag.errors;
	c->warnings = c->diag.warnings;
}

static inline void compiled_free(struct compiled *c)
{
	fclose(c->out);
	free(c->messages);
	pfw_policy_free(c->policy);
	pfw_services_free(c->services);
	pfw_diag_fini(&c->diag);
}

/* True if the messages contain @needle. */
static inline bool said(const struct compiled *c, const char *needle)
{
	return c->messages && strstr(c->messages, needle);
}

/* An address in the one address space, from text. */
/* A source and the error message compiling it must give. */
struct source_error {
	const char *source;
	const char *message;
};

/* Each of @n sources fails to compile, with its message among the errors. */
static inline void expect_source_errors(const struct source_error *cases,
					size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct compiled c;

		compile_text(&c, cases[i].source, NULL, false);
		if (!said(&c, cases[i].message))
			fail_msg("%s: got %s", cases[i].source,
				 c.messages ? c.messages : "nothing");
		assert_true(c.errors > 0);
		compiled_free(&c);
	}
}

static inline void address_of(const char *text, uint8_t addr[16])
{
	struct pfw_cidr cidr;
	bool is_ipv4;

	if (pfw_parse_address(text, &cidr, &is_ipv4))
		abort();
	memcpy(addr, cidr.addr, 16);
}

#endif /* PFSEL_TESTS_FRONTEND_UTIL_H */
