// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Security framework setup
 *
 * Registers pfsel with the LSM framework.  Each part of the module adds its
 * own hooks from the file that implements them.
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>
#include <uapi/linux/lsm.h>

#include "avc.h"
#include "common.h"
#include "cred.h"
#include "exec.h"
#include "mounts.h"
#include "net.h"
#include "resolver.h"
#include "setup.h"

/*
 * Set once every hook is in place; securityfs is only populated when pfsel
 * was actually enabled at boot (CONFIG_LSM or lsm=).
 */
bool pfsel_initialized __ro_after_init;

const struct lsm_id pfsel_lsmid = {
	.name = PFSEL_NAME,
	.id = LSM_ID_PFSEL,
};

struct lsm_blob_sizes pfsel_blob_sizes __ro_after_init = {
	.lbs_cred = sizeof(struct pfsel_cred_security),
	.lbs_sock = sizeof(struct pfsel_sock_security),
};

static int __init pfsel_init(void)
{
	pfsel_avc_init();
	pfsel_add_cred_hooks();
	pfsel_add_exec_hooks();
	pfsel_add_mounts_hooks();
	pfsel_add_net_hooks();
	pfsel_add_multipath_hooks();
	pfsel_add_resolver_hooks();
	pfsel_initialized = true;
	pr_info("Up and running.\n");
	return 0;
}

DEFINE_LSM(pfsel) = {
	.name = PFSEL_NAME,
	.init = pfsel_init,
	.blobs = &pfsel_blob_sizes,
};
