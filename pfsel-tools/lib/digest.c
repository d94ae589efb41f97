// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - which policy is this?  The SHA-256 of its bytes.
 *
 * The root side decides on a policy's identity: pam_pfsel records a
 * ~/.pfw as confirmed when it compiles to the very policy in force, and
 * the agent trusts the policy in force as the person's.  A program of the
 * user chooses what ~/.pfw compiles to, so the identity must be one it
 * cannot match with a policy of its choosing: the blob header's CRC32C
 * is linear (64 free bits in a path solve for any value) and only tells
 * corruption.  The kernel shows each loaded policy's SHA-256 in
 * `policies`; this is the same digest of a blob in hand.  OpenSSL's
 * libcrypto computes it, as the kernel's crypto library does there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "internal.h"

PFSEL_EXPORT int pfsel_policy_digest(const void *const blob, const size_t len,
				     uint8_t digest[PFSEL_DIGEST_SIZE])
{
	unsigned int n = 0;

	if (!EVP_Digest(blob, len, digest, &n, EVP_sha256(), NULL) ||
	    n != PFSEL_DIGEST_SIZE) {
		memset(digest, 0, PFSEL_DIGEST_SIZE);
		return pfsel_fail(-EIO, "SHA-256 of a policy: libcrypto failed");
	}
	return 0;
}

PFSEL_EXPORT const char *pfsel_digest_hex(const uint8_t digest[PFSEL_DIGEST_SIZE],
					  char hex[PFSEL_DIGEST_HEX_SIZE])
{
	size_t i;

	for (i = 0; i < PFSEL_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	return hex;
}

PFSEL_EXPORT int pfsel_digest_parse(const char *const hex,
				    uint8_t digest[PFSEL_DIGEST_SIZE])
{
	size_t i;

	if (strlen(hex) != 2 * PFSEL_DIGEST_SIZE)
		return -EINVAL;
	for (i = 0; i < 2 * PFSEL_DIGEST_SIZE; i++) {
		const char c = hex[i];
		unsigned int v;

		if (c >= '0' && c <= '9')
			v = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (unsigned int)(c - 'a' + 10);
		else
			return -EINVAL;
		if (i % 2)
			digest[i / 2] = (uint8_t)(digest[i / 2] << 4 | v);
		else
			digest[i / 2] = (uint8_t)v;
	}
	return 0;
}
