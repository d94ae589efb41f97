// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Credential hooks
 *
 * A credential carries a reference to the application identity of the
 * program it was created for (app.c).  Copies of a credential share the
 * identity.
 *
 * It also remembers whether the task has been root since it last executed
 * a program: a credential prepared from root's (a root daemon's child
 * that drops to a service account with setresuid(), say) keeps that, so
 * that the program it executes next is known to be root's choice
 * (app.c, resolver.c).  Every credential of a task is prepared from the
 * one before, so the mark reaches each of them; exec clears it.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>

#include "app.h"
#include "common.h"
#include "cred.h"
#include "setup.h"

/*
 * @old is the task's own credential: for a session keyring that a child
 * gives its parent (keyctl's KEYCTL_SESSION_TO_PARENT), the parent's, so
 * nothing of the child's passes to the parent.
 */
static void hook_cred_transfer(struct cred *const new,
			       const struct cred *const old)
{
	pfsel_cred(new)->app = pfsel_app_get(pfsel_cred(old)->app);
	pfsel_cred(new)->was_root = pfsel_cred_root_since_exec(old);
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
