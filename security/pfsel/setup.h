/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Security framework setup
 */

#ifndef _SECURITY_PFSEL_SETUP_H
#define _SECURITY_PFSEL_SETUP_H

#include <linux/init.h>
#include <linux/lsm_hooks.h>

extern bool pfsel_initialized;

extern struct lsm_blob_sizes pfsel_blob_sizes;
extern const struct lsm_id pfsel_lsmid;

#endif /* _SECURITY_PFSEL_SETUP_H */
