/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Random policies and random requests for the differential test.
 *
 * Everything is drawn from one seeded generator, so a seed printed on
 * failure reproduces the policy and its requests exactly.  Values are drawn
 * from small pools on purpose: rules must overlap (or first-match order
 * would never matter), and requests must land on the edges of what the
 * rules name (CIDR bounds and one past them, range ends and one past them,
 * port 0, the IPv4-mapped boundary, the wildcard addresses, a directory and
 * its first and second level below, a host name, the names one label below
 * it and the look-alikes beside it), because that is where equivalence
 * classes go wrong.
 */
#ifndef PFSEL_TESTS_GENERATE_H
#define PFSEL_TESTS_GENERATE_H

#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "reference.h"

struct gen_rng {
	uint64_t state;
};

void gen_seed(struct gen_rng *rng, uint64_t seed);
uint64_t gen_next(struct gen_rng *rng);
/* Uniform in [0, @bound), @bound > 0. */
uint32_t gen_below(struct gen_rng *rng, uint32_t bound);

/*
 * A random policy in the resolved view that sema produces, with every
 * invariant of ast.h held, of up to @max_rules rules.  Returns NULL only when
 * out of memory.  Free with pfw_policy_free().
 */
struct pfw_policy *gen_policy(struct gen_rng *rng, unsigned int max_rules);

/* Most host names a random request's address has. */
#define GEN_MAX_NAMES 3

/*
 * struct gen_request - a request and the storage its paths and names
 * point into
 */
struct gen_request {
	struct pfw_request request;
	char exe[128];
	char script[128];
	const char *names[GEN_MAX_NAMES];
	char name_text[GEN_MAX_NAMES][32];
};

/* A random request aimed at the edges of @policy's rules. */
void gen_request(struct gen_rng *rng, const struct pfw_policy *policy,
		 struct gen_request *out);

/* Print @policy in .pfw-like form, for a failure report. */
void gen_print_policy(FILE *out, const struct pfw_policy *policy);
/* Print @request on one line, for a failure report. */
void gen_print_request(FILE *out, const struct pfw_request *request);

#endif /* PFSEL_TESTS_GENERATE_H */
