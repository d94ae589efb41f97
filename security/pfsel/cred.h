/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Credential hooks
 */

#ifndef _SECURITY_PFSEL_CRED_H
#define _SECURITY_PFSEL_CRED_H

#include <linux/cred.h>
#include <linux/init.h>
#include <linux/kref.h>

#include "setup.h"

/**
 * struct pfsel_app - Application identity of a process
 *
 * @usage: references from credentials.
 * @exe: path of the executable that was run.
 * @script: path of the script, when @exe is the interpreter of a script
 *          that was executed directly; NULL otherwise.
 *
 * The identity is fixed at exec and shared, read-only, by every credential
 * derived from it: a process cannot change what it was started as.  Policy
 * decisions map it to the application class of the policy in force.
 */
struct pfsel_app {
	struct kref usage;
	const char *exe;
	const char *script;
};

/**
 * struct pfsel_cred_security - pfsel's part of a credential
 *
 * @app: application identity, or NULL for tasks that have not executed a
 *       program since boot (kernel threads, the initial task).
 */
struct pfsel_cred_security {
	struct pfsel_app *app;
};

static inline struct pfsel_cred_security *pfsel_cred(const struct cred *cred)
{
	return cred->security + pfsel_blob_sizes.lbs_cred;
}

void pfsel_app_put(struct pfsel_app *app);

__init void pfsel_add_cred_hooks(void);

#endif /* _SECURITY_PFSEL_CRED_H */
