/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim - <linux/export.h>: nothing is exported from a user-space build. */
#ifndef PFSEL_KSHIM_LINUX_EXPORT_H
#define PFSEL_KSHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_IF_KUNIT(sym)

#endif /* PFSEL_KSHIM_LINUX_EXPORT_H */
