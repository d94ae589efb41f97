/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim - <linux/crc32c.h>: the kernel's crc32c() (lib/libcrc32c.c) for
 * user space.  As the kernel's, it carries @crc on over @length bytes,
 * neither inverting it first nor after: a whole CRC32C is
 * ~crc32c(~0, p, len).  Four bits at a time, from a table of sixteen.
 *
 * It needs only the UAPI types (__u32), which the shim's <linux/types.h>
 * and the system's both give, so that a user-space program that checks or
 * forges a policy's checksum (the VM tests) can include it beside the
 * system's UAPI headers.
 */
#ifndef PFSEL_KSHIM_LINUX_CRC32C_H
#define PFSEL_KSHIM_LINUX_CRC32C_H

#include <linux/types.h>

static inline __u32 crc32c(__u32 crc, const void *address,
			   unsigned int length)
{
	/* Castagnoli's polynomial (0x82f63b78, reflected) times 0..15. */
	static const __u32 nibble[16] = {
		0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
		0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
		0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
		0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
	};
	const __u8 *p = address;

	while (length--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return crc;
}

#endif /* PFSEL_KSHIM_LINUX_CRC32C_H */
