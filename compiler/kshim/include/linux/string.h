/* SPDX-License-Identifier: GPL-2.0-only */
/* kshim - <linux/string.h> */
#ifndef PFSEL_KSHIM_LINUX_STRING_H
#define PFSEL_KSHIM_LINUX_STRING_H

#include <string.h>

#endif /* PFSEL_KSHIM_LINUX_STRING_H */
