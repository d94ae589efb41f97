/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Where init's mount tree reaches a file
 */

#ifndef _SECURITY_PFSEL_MOUNTS_H
#define _SECURITY_PFSEL_MOUNTS_H

#include <linux/init.h>

struct file;

int pfsel_mounts_name(const struct file *file, char **name);

__init void pfsel_add_mounts_hooks(void);

#endif /* _SECURITY_PFSEL_MOUNTS_H */
