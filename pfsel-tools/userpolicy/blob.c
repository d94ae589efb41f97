// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - whose a compiled policy is: its header read as the
 * format says (policy/FORMAT.md), little-endian, without trusting the
 * blob to be one; and which policy it is, by its SHA-256.
 */
#include <errno.h>
#include <stddef.h>

#include <linux/pfsel_policy.h>

#include "userpolicy.h"

static uint32_t le32(const void *const p)
{
	const unsigned char *const b = p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

int policy_blob_check(const void *const blob, const size_t len, const uid_t uid,
		      uint8_t *const digest)
{
	const unsigned char *const p = blob;
	const size_t hdr = sizeof(struct pfsel_policy_header);

	if (len < hdr ||
	    le32(p + offsetof(struct pfsel_policy_header, magic)) !=
		    PFSEL_POLICY_MAGIC ||
	    le32(p + offsetof(struct pfsel_policy_header, total_size)) != len)
		return -EBADMSG;
	if (le32(p + offsetof(struct pfsel_policy_header, flags)) &
		    PFSEL_POLICY_F_SYSTEM ||
	    le32(p + offsetof(struct pfsel_policy_header, uid)) != uid)
		return -EPERM;
	if (digest && pfsel_policy_digest(blob, len, digest))
		return -EIO;
	return 0;
}
