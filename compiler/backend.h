/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the pfsel back end: binary policy writer, --query and --dump
 *
 * The driver (pfwc.c) calls these; docs/notes-format.md says how.  Errors
 * are negative errno values; the exit codes of pfw_query() and pfw_dump()
 * are PFW_EXIT_* below (the same meaning as the driver's).
 */
#ifndef PFWC_BACKEND_H
#define PFWC_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "lower.h"

/* Exit codes of pfw_query() and pfw_dump(). */
#define PFW_EXIT_OK 0
#define PFW_EXIT_USAGE 2 /* bad arguments */
#define PFW_EXIT_INPUT 3 /* the policy file cannot be read or is invalid */

/*
 * Serialise a lowered policy.  Returns 0 and a malloc'd *@buf of *@len
 * bytes, or -ENOMEM, or -E2BIG if it exceeds PFSEL_POLICY_MAX_SIZE.
 */
int pfw_emit_pfsel(const struct pfw_lowered *low, uint8_t **buf, size_t *len);

struct pfsel_policydb;
struct pfsel_decision;

/*
 * struct pfw_serialized - a lowered policy as the kernel will see it
 * @blob: the binary policy, malloc'd
 * @len:  its size
 * @db:   @blob loaded by the kernel's own reader (security/pfsel/policydb.c):
 *        what --emit=pfsel writes has passed it, and the SELinux export
 *        takes its decisions and classification from it
 */
struct pfw_serialized {
	uint8_t *blob;
	size_t len;
	struct pfsel_policydb *db;
};

/*
 * Serialise @low once and load the result with the kernel's reader.
 * Returns 0, or -ENOMEM, -E2BIG (as pfw_emit_pfsel()), or -EPROTO if the
 * reader rejects what was written; on failure *@out holds nothing.
 */
int pfw_serialize(const struct pfw_lowered *low, struct pfw_serialized *out);

/* Free what pfw_serialize() made; a zeroed one is a no-op. */
void pfw_serialized_free(struct pfw_serialized *s);

/*
 * Lower and serialise in one call (for tests): a malloc'd binary policy
 * that the kernel's reader accepts, or a negative errno as above.
 */
int pfw_compile_pfsel(const struct pfw_policy *policy, uint8_t **buf,
		      size_t *len);

/*
 * pfwc --query POLICY APP OP PROTO ADDR PORT: @argv holds those six words.
 * APP is EXE or EXE:SCRIPT; OP create|bind|connect|listen|accept; PROTO
 * tcp|udp|icmp|raw|packet; ADDR an IPv4 or IPv6 address (for create, the
 * family: inet, inet6, or an address of the family); PORT 0..65535.
 * Prints "VERDICT FILE:LINE:COL" (or "VERDICT default") and the audit
 * flags on @out.  Returns PFW_EXIT_*.
 */
int pfw_query(const char *const argv[6], FILE *out, FILE *err);

/*
 * The same for a request whose address the kernel knows the host names
 * @names (@n_names of them, as written: checked and lower-cased here) for:
 * the smallest rule over the address's decision and each name's
 * (pfsel_policydb_decide_name()) decides, as in the kernel.
 */
int pfw_query_names(const char *const argv[6], const char *const *names,
		    size_t n_names, FILE *out, FILE *err);

/* pfwc --dump POLICY: print a compiled policy readably.  PFW_EXIT_*. */
int pfw_dump(const char *path, FILE *out, FILE *err);

/*
 * Decide one request the way the kernel does: classify the application
 * (@script NULL: none), and for every operation but create the address
 * (16 bytes, IPv4 mapped) and port; a create request is classified by the
 * representative address of @family (enum pfsel_family) and port 0.  @op
 * and @proto are enum pfsel_op / pfsel_proto indexes.  Returns 0 or -EINVAL.
 * This is the evaluator side of the differential test.
 */
int pfw_policydb_request(const struct pfsel_policydb *db, const char *exe,
			 const char *script, uint32_t op, uint32_t proto,
			 uint32_t family, const uint8_t addr[16], uint16_t port,
			 struct pfsel_decision *res);

/*
 * pfw_policydb_request() for an address whose known host names are
 * @names (@n_names, lower case, as the kernel reports them): the smallest
 * rule over the address's decision and each name's class's
 * (pfsel_policydb_decide_name()) decides, as decide.c does.  Ignored for
 * create.  Returns 0 or -EINVAL.
 */
int pfw_policydb_request_names(const struct pfsel_policydb *db, const char *exe,
			       const char *script, uint32_t op, uint32_t proto,
			       uint32_t family, const uint8_t addr[16],
			       uint16_t port, const char *const *names,
			       size_t n_names, struct pfsel_decision *res);

/*
 * Read and load a compiled policy; on failure print why on @err and return
 * NULL.  Free with pfsel_policydb_free().
 */
struct pfsel_policydb *pfw_load_policy(const char *path, FILE *err);

/* Names of the format's enums ("?" when out of range). */
const char *pfw_op_name(uint32_t op);
const char *pfw_proto_name(uint32_t proto);
const char *pfw_verdict_name(uint32_t verdict);

/* Parse an IPv4 (stored IPv4-mapped) or IPv6 address; false if neither. */
bool pfw_parse_addr(const char *s, uint8_t addr[16]);

/*
 * Read a whole file (for --query and --dump).  Returns 0 and a malloc'd
 * buffer, or a negative errno.
 */
int pfw_read_file(const char *path, uint8_t **buf, size_t *len);

#endif /* PFWC_BACKEND_H */
