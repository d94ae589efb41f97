/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The check file
 */

#ifndef _SECURITY_PFSEL_CHECK_H
#define _SECURITY_PFSEL_CHECK_H

#include <linux/fs.h>

extern const struct file_operations pfsel_check_fops;

#endif /* _SECURITY_PFSEL_CHECK_H */
