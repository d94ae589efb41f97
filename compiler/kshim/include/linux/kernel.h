/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim - <linux/kernel.h>: byte order, alignment, min/max and friends,
 * for a little- or big-endian user-space host.
 */
#ifndef PFSEL_KSHIM_LINUX_KERNEL_H
#define PFSEL_KSHIM_LINUX_KERNEL_H

#include <endian.h>
#include <linux/types.h>

#define le16_to_cpu(x) ((u16)le16toh(x))
#define le32_to_cpu(x) ((u32)le32toh(x))
#define le64_to_cpu(x) ((u64)le64toh(x))
#define cpu_to_le16(x) ((__le16)htole16(x))
#define cpu_to_le32(x) ((__le32)htole32(x))
#define cpu_to_le64(x) ((__le64)htole64(x))
#define be64_to_cpu(x) ((u64)be64toh(x))

#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define U32_MAX ((u32)~0u)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif /* PFSEL_KSHIM_LINUX_KERNEL_H */
