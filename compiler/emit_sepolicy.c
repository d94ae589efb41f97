// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the compiled SELinux exports (pfwc --emit=sepolicy, --emit=conf)
 *
 * The CIL export, compiled by libsepol, then written in the kernel policy
 * format, for the tools that read that (seinfo, sesearch, apol), or in the
 * kernel policy language (policy.conf), which checkpolicy compiles and an
 * SELinux person reads and edits.  All the thinking is in emit_cil.c; this
 * is the last step of secilc, and libsepol's own writer of policy.conf
 * (what "checkpolicy -b -F" writes), so both say what the CIL says.
 */
#include <errno.h>
#include <string.h>

#include <sepol/kernel_to_conf.h>
#include <sepol/policydb.h>
#include <sepol/policydb/policydb.h>

#include "emit_sepol.h"

static int write_policydb(FILE *out, struct sepol_policydb *compiled,
			  struct pfw_diag *diag)
{
	struct sepol_policy_file *file;
	int rc;

	if (sepol_policy_file_create(&file)) {
		pfw_error(diag, NULL, "out of memory exporting to SELinux");
		return -1;
	}
	sepol_policy_file_set_fp(file, out);
	rc = sepol_policydb_write(compiled, file);
	sepol_policy_file_free(file);
	if (rc || fflush(out) != 0) {
		pfw_error(diag, NULL, "cannot write the SELinux policy: %s",
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* The export of @policy, compiled by libsepol; NULL when reported. */
static struct sepol_policydb *compile_export(const struct pfw_policy *policy,
					     const struct pfw_lowered *lowered,
					     const struct pfsel_policydb *db,
					     struct pfw_diag *diag)
{
	struct pfw_sepol_export export;
	struct sepol_policydb *compiled;
	int rc;

	pfw_sepol_note_unexported(lowered, diag);
	pfw_sepol_warn_hosts(policy, diag);
	if (pfw_sepol_export(policy, lowered, db, &export, diag))
		return NULL;
	rc = pfw_sepol_compile(export.cil, export.cil_len, &compiled, diag);
	pfw_sepol_export_free(&export);
	return rc ? NULL : compiled;
}

/* libsepol's writer of policy.conf, in write_policydb()'s shape. */
static int write_conf(FILE *out, struct sepol_policydb *compiled,
		      struct pfw_diag *diag)
{
	errno = 0;
	if (sepol_kernel_policydb_to_conf(out, &compiled->p) ||
	    fflush(out) != 0) {
		pfw_error(diag, NULL, "cannot write the SELinux policy.conf: %s",
			  errno ? strerror(errno) :
				  "libsepol could not express the policy");
		return -1;
	}
	return 0;
}

/* The export of @policy, compiled by libsepol, written by @write. */
static int emit_compiled(FILE *out, const struct pfw_policy *policy,
			 const struct pfw_lowered *lowered,
			 const struct pfsel_policydb *db, struct pfw_diag *diag,
			 int (*write)(FILE *, struct sepol_policydb *,
				      struct pfw_diag *))
{
	struct sepol_policydb *compiled;
	int rc;

	compiled = compile_export(policy, lowered, db, diag);
	if (!compiled)
		return -1;
	rc = write(out, compiled, diag);
	sepol_policydb_free(compiled);
	return rc;
}

int pfw_emit_sepolicy(FILE *out, const struct pfw_policy *policy,
		      const struct pfw_lowered *lowered,
		      const struct pfsel_policydb *db, struct pfw_diag *diag)
{
	return emit_compiled(out, policy, lowered, db, diag, write_policydb);
}

int pfw_emit_conf(FILE *out, const struct pfw_policy *policy,
		  const struct pfw_lowered *lowered,
		  const struct pfsel_policydb *db, struct pfw_diag *diag)
{
	return emit_compiled(out, policy, lowered, db, diag, write_conf);
}
