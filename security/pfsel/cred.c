// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Credential hooks
 *
 * A credential carries a reference to the application identity of the
 * program it was created for (app.c).  Copies of a credential share the
 * identity.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>

#include "app.h"
#include "common.h"
#include "cred.h"
#include "setup.h"

static void hook_cred_transfer(struct cred *const new,
			       const struct cred *const old)
{
	pfsel_cred(new)->app = pfsel_app_get(pfsel_cred(old)->app);
}

static int hook_cred_prepare(struct cred *const new,
			     const struct cred *const old, const gfp_t gfp)
{
	hook_cred_transfer(new, old);
	return 0;
}

static void hook_cred_free(struct cred *const cred)
{
	pfsel_app_put(pfsel_cred(cred)->app);
}

static struct security_hook_list pfsel_cred_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, hook_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, hook_cred_transfer),
	LSM_HOOK_INIT(cred_free, hook_cred_free),
};

__init void pfsel_add_cred_hooks(void)
{
	security_add_hooks(pfsel_cred_hooks, ARRAY_SIZE(pfsel_cred_hooks),
			   &pfsel_lsmid);
}
