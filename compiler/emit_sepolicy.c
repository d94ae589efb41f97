// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the binary SELinux policy export (pfwc --emit=sepolicy)
 *
 * The CIL export, compiled by libsepol and written in the kernel policy
 * format, for the tools that read that (seinfo, sesearch, apol).  All the
 * thinking is in emit_cil.c; this is the last step of secilc.
 */
#include <errno.h>
#include <string.h>

#include <sepol/policydb.h>

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

int pfw_emit_sepolicy(FILE *out, const struct pfw_policy *policy,
		      const struct pfw_lowered *lowered,
		      const struct pfsel_policydb *db, struct pfw_diag *diag)
{
	struct pfw_sepol_export export;
	struct sepol_policydb *compiled;
	int rc;

	pfw_sepol_note_unexported(lowered, diag);
	pfw_sepol_warn_hosts(policy, diag);
	if (pfw_sepol_export(policy, lowered, db, &export, diag))
		return -1;
	rc = pfw_sepol_compile(export.cil, export.cil_len, &compiled, diag);
	pfw_sepol_export_free(&export);
	if (rc)
		return -1;
	rc = write_policydb(out, compiled, diag);
	sepol_policydb_free(compiled);
	return rc;
}
