/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pfsel LSM - User space API
 *
 * pfsel is a per-user, per-application network firewall.  Its control
 * interface lives in securityfs, under /sys/kernel/security/pfsel/.
 */

#ifndef _UAPI_LINUX_PFSEL_H
#define _UAPI_LINUX_PFSEL_H

/**
 * PFSEL_ABI_VERSION - Version of the pfsel user space interface
 *
 * Reported on the "version" line of /sys/kernel/security/pfsel/status.
 * It grows by one whenever a file, a line format or a message of this
 * interface changes in a way that user space can observe.
 */
#define PFSEL_ABI_VERSION 1

/**
 * enum pfsel_mode - Enforcement mode
 *
 * @PFSEL_MODE_PERMISSIVE: decisions are computed, counted and audited, but
 *                         every access is allowed.
 * @PFSEL_MODE_ENFORCING: denials are returned to the caller.
 *
 * The mode is printed by name on the "mode" line of the status file.
 */
enum pfsel_mode {
	PFSEL_MODE_PERMISSIVE = 0,
	PFSEL_MODE_ENFORCING = 1,
};

#endif /* _UAPI_LINUX_PFSEL_H */
