/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim - <linux/errno.h>: the UAPI errno values, as in the kernel. */
#ifndef PFSEL_KSHIM_LINUX_ERRNO_H
#define PFSEL_KSHIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif /* PFSEL_KSHIM_LINUX_ERRNO_H */
