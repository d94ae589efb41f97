/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim - the kernel's <linux/types.h> for user-space builds of kernel code
 * (security/pfsel/policydb.c).  Only what that code uses.
 */
#ifndef PFSEL_KSHIM_LINUX_TYPES_H
#define PFSEL_KSHIM_LINUX_TYPES_H

/* The UAPI half: __u8, __le32, ... from the system's linux-libc-dev. */
#include_next <linux/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

#endif /* PFSEL_KSHIM_LINUX_TYPES_H */
