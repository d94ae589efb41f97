// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the .pfw front end: lexer, parser and sema on
 * arbitrary bytes.  Any crash, leak, sanitizer report or hang is a bug: pfwc
 * must answer every input with diagnostics.
 *
 * The input is also used as the services file when it starts with "#svc\n"
 * up to the first "\n#end\n", so the services reader is fuzzed too.
 * Includes are off: a fuzzer must not open files.  Inputs whose size is 2
 * or 3 modulo 4 are read as pfsel-agent's rule file (rule_file.h), and
 * the resolved rules are asked who answers one request.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "against.h"
#include "diag.h"
#include "parser.h"
#include "sema.h"
#include "services.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct pfw_parse_options parse_opts[2] = {
		{ 0 },
		{ .rule_file = true },
	};
	static const struct pfw_request request = {
		.exe = "/usr/bin/x",
		.op = PFW_OP_CONNECT,
		.proto = PFW_PROTO_TCP,
		.addr = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 },
		.port = 80,
	};
	const struct pfw_rule *answer;
	static FILE *sink;
	const char *text = (const char *)data;
	struct pfw_services *services = NULL;
	struct pfw_sema_options sema_opts = { 0 };
	struct pfw_policy *policy;
	struct pfw_diag diag;

	if (!sink)
		sink = fopen("/dev/null", "w");
	pfw_diag_init(&diag, sink);
	pfw_diag_option(&diag, "-Wall");
	if (size >= 5 && memcmp(text, "#svc\n", 5) == 0) {
		const char *end = memmem(text, size, "\n#end\n", 6);
		size_t svc_len = end ? (size_t)(end - text) : size;

		services = pfw_services_parse("fuzz.services", text, svc_len,
					      &diag);
		if (end) {
			text = end + 6;
			size -= svc_len + 6;
		} else {
			size = 0;
		}
	}
	sema_opts.services = services;
	/* Odd sizes compile as the system policy, to reach both defaults. */
	sema_opts.force_system = size & 1;
	policy = pfw_parse_buffer("fuzz.pfw", text, size,
				  &parse_opts[(size >> 1) & 1], &diag);
	if (policy && !diag.errors)
		pfw_sema(policy, &sema_opts, &diag);
	if (policy && !diag.errors) {
		/* The resolved view must meet the invariants ast.h promises. */
		for (size_t i = 0; i < policy->n_rules; i++) {
			const struct pfw_rule *rule = &policy->rules[i];

			if (!rule->ops || !rule->protos || !rule->families ||
			    !rule->n_apps)
				__builtin_trap();
			if ((rule->ops & PFW_OP_CREATE) &&
			    !(rule->any_addr && rule->any_port))
				__builtin_trap();
			if (!rule->any_port &&
			    (rule->protos & ~PFW_PROTO_PORTED))
				__builtin_trap();
			for (size_t p = 1; p < rule->n_ports; p++)
				if (rule->ports[p].first <=
				    rule->ports[p - 1].last + 1u)
					__builtin_trap();
			for (size_t a = 1; a < rule->n_addrs; a++)
				if (memcmp(rule->addrs[a - 1].addr,
					   rule->addrs[a].addr, 16) >= 0)
					__builtin_trap();
		}
		answer = pfw_first_match(policy, &request);
		/* A scope is a rule file's, and one of the four. */
		if (answer && (answer->scope > 3 ||
			       (answer->scope && !((size >> 1) & 1))))
			__builtin_trap();
		pfw_against_system(policy, policy, &diag);
	}
	pfw_policy_free(policy);
	pfw_services_free(services);
	pfw_diag_fini(&diag);
	return 0;
}
