/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Credential hooks
 */

#ifndef _SECURITY_PFSEL_CRED_H
#define _SECURITY_PFSEL_CRED_H

#include <linux/cred.h>
#include <linux/init.h>

#include "app.h"
#include "setup.h"

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

__init void pfsel_add_cred_hooks(void);

#endif /* _SECURITY_PFSEL_CRED_H */
