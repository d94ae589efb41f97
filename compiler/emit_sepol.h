/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - exporting a policy to SELinux: CIL text, binary policy, policy.conf
 *
 * The export is for analysis with the SELinux tools (secilc, checkpolicy,
 * seinfo, sesearch) and for the differential test, which asks libsepol's
 * sepol_compute_av() the same questions it asks pfsel's evaluator.  It is
 * not a policy to load into an SELinux kernel.
 *
 * The mapping (docs/sepol-export.md has the whole story):
 *
 *   application class  ->  domain type   pfsel_app<N>_t
 *   create's target    ->  family type   pfsel_inet_t, pfsel_inet6_t
 *   endpoint class     ->  type          pfsel_ep<N>_t
 *   protocol           ->  class         pfsel_tcp, pfsel_udp, ...
 *   operation          ->  permission    create bind connect listen accept
 *   ask verdict        ->  permission    ask_create ask_bind ...
 *   log allowed        ->  auditallow
 *   quiet denial       ->  dontaudit
 *   mode permissive    ->  typepermissive of every domain type
 *
 * An endpoint class is a set of (address class, port class) pairs that every
 * application, protocol and operation treats alike; merging them keeps the
 * export small, since SELinux has one target type where pfsel has two
 * dimensions.  CIL has no rule order, so the first-match rules are flattened:
 * every cell of the decision table becomes permissions in allow rules.
 *
 * Decisions read back from an access vector:
 *   op allowed                 -> allow
 *   ask_op allowed (op not)    -> ask
 *   neither                    -> deny
 *   auditallow of op (allow) or of ask_op (ask)  -> log allowed
 *   op not in auditdeny (deny or ask)             -> quiet denial
 */
#ifndef PFWC_EMIT_SEPOL_H
#define PFWC_EMIT_SEPOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "diag.h"

struct pfw_lowered;
struct pfsel_policydb;
struct sepol_policydb;

/* The SELinux user and role of every context in the export. */
#define PFW_SEPOL_USER "pfsel_u"
#define PFW_SEPOL_ROLE "pfsel_r"

/*
 * Largest decision table the exporter flattens (cells: application classes
 * x address classes x port classes x protocols x operations).  Beyond it the
 * CIL would be too large to be useful to anyone, and pfwc says so.
 */
#define PFW_SEPOL_MAX_CELLS (1ull << 28)

/*
 * struct pfw_sepol_export - the CIL text and how to find things in it
 * @cil:            the CIL text, NUL-terminated
 * @cil_len:        its length
 * @n_apps:         application classes (domain types pfsel_app0_t ...)
 * @n_addrs:        address classes of the lowering
 * @n_ports:        port classes of the lowering
 * @n_endpoints:    endpoint types (pfsel_ep0_t ...)
 * @endpoint_of:    [addr class * @n_ports + port class] -> endpoint type
 */
struct pfw_sepol_export {
	char *cil;
	size_t cil_len;
	uint32_t n_apps;
	uint32_t n_addrs;
	uint32_t n_ports;
	uint32_t n_endpoints;
	uint32_t *endpoint_of;
};

/*
 * The audit flags of a decision that can take effect with its verdict: log
 * allowed for allow and ask, quiet denial for deny and ask.  SELinux cannot
 * express a flag without effect (nor does one matter), so the export keeps
 * these only, and decisions are compared in this form.
 */
uint32_t pfw_sepol_effective_audit(enum pfw_verdict verdict, uint32_t audit);

/* Names in the export, shared with whoever queries it. */
const char *pfw_sepol_class_name(enum pfw_proto proto);
const char *pfw_sepol_perm_name(enum pfw_op op, bool ask);
const char *pfw_sepol_family_type(enum pfw_family family);
void pfw_sepol_app_type(char *buf, size_t size, uint32_t app_class);
void pfw_sepol_endpoint_type(char *buf, size_t size, uint32_t endpoint);

/*
 * Build the CIL export of @policy as lowered into @lowered and serialised
 * into @db (pfw_serialize(): the same policy, loaded by the kernel's
 * reader).  Decisions and the classification of requests are the reader's
 * own, so the export says what the kernel would; @lowered gives the class
 * bounds for comments.  Returns 0, or -1 with an error reported to @diag
 * (out of memory, too large, or an internal error).
 */
int pfw_sepol_export(const struct pfw_policy *policy,
		     const struct pfw_lowered *lowered,
		     const struct pfsel_policydb *db,
		     struct pfw_sepol_export *out, struct pfw_diag *diag);
void pfw_sepol_export_free(struct pfw_sepol_export *export);

/*
 * Compile CIL text with libsepol (cil_add_file, cil_compile,
 * cil_build_policydb) into a policy database.  libsepol's messages go to
 * @diag as an internal error: the export must always compile.  Returns 0 or
 * -1.  Free the result with sepol_policydb_free().
 */
int pfw_sepol_compile(const char *cil, size_t len, struct sepol_policydb **out,
		      struct pfw_diag *diag);

/*
 * Tell the person exporting @lowered what the export leaves out: today the
 * protected application classes ("protect"), which have no counterpart in
 * it (a notice, not a warning: the policy is fine, the export is partial).
 */
void pfw_sepol_note_unexported(const struct pfw_lowered *lowered,
			       struct pfw_diag *diag);

/*
 * Warn (-Whost) at each rule of @policy with host elements: SELinux has
 * nothing that a DNS answer could fill in, so the export leaves them out
 * and keeps the rule's addresses (docs/sepol-export.md).
 */
void pfw_sepol_warn_hosts(const struct pfw_policy *policy,
			  struct pfw_diag *diag);

/*
 * pfwc --emit=cil: write the CIL export of @policy to @out, after checking
 * that libsepol compiles it.  Returns 0 or -1 (reported to @diag).
 */
int pfw_emit_cil(FILE *out, const struct pfw_policy *policy,
		 const struct pfw_lowered *lowered,
		 const struct pfsel_policydb *db, struct pfw_diag *diag);

/*
 * pfwc --emit=sepolicy: write the export as a binary SELinux policy (the
 * newest version this libsepol writes), readable by seinfo and sesearch.
 * (emit_sepolicy.c)
 */
int pfw_emit_sepolicy(FILE *out, const struct pfw_policy *policy,
		      const struct pfw_lowered *lowered,
		      const struct pfsel_policydb *db, struct pfw_diag *diag);

/*
 * pfwc --emit=conf: write the export in the kernel policy language
 * (policy.conf), as libsepol's own writer does for "checkpolicy -b -F":
 * "checkpolicy -c 33 -o OUT FILE" compiles it (the differential test does,
 * and holds its decisions to pfsel's).  (emit_sepolicy.c)
 */
int pfw_emit_conf(FILE *out, const struct pfw_policy *policy,
		  const struct pfw_lowered *lowered,
		  const struct pfsel_policydb *db, struct pfw_diag *diag);

#endif /* PFWC_EMIT_SEPOL_H */
