// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Credential hooks
 *
 * A credential carries a reference to the application identity of the
 * program it was created for.  Copies of a credential share the identity.
 */

#include <linux/cred.h>
#include <linux/kref.h>
#include <linux/lsm_hooks.h>
#include <linux/slab.h>

#include "common.h"
#include "cred.h"
#include "setup.h"

static void pfsel_app_release(struct kref *const usage)
{
	struct pfsel_app *const app =
		container_of(usage, struct pfsel_app, usage);

	kfree(app->exe);
	kfree(app->script);
	kfree(app);
}

/**
 * pfsel_app_put - Release a reference to an application identity
 *
 * @app: identity, or NULL.
 */
void pfsel_app_put(struct pfsel_app *const app)
{
	if (app)
		kref_put(&app->usage, pfsel_app_release);
}

static struct pfsel_app *pfsel_app_get(struct pfsel_app *const app)
{
	if (app)
		kref_get(&app->usage);
	return app;
}

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
