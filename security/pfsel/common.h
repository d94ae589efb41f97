/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Common definitions
 */

#ifndef _SECURITY_PFSEL_COMMON_H
#define _SECURITY_PFSEL_COMMON_H

#define PFSEL_NAME "pfsel"

#ifdef pr_fmt
#undef pr_fmt
#endif

#define pr_fmt(fmt) PFSEL_NAME ": " fmt

#endif /* _SECURITY_PFSEL_COMMON_H */
