// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - the one judgement: may a policy compiled from ~/.pfw
 * replace the one the person confirmed, without asking them?
 *
 * The adversary of a per-application firewall is a program running as
 * the user (docs/THREAT-MODEL.md): it can write ~/.pfw, and so choose
 * what it compiles to, but it cannot type the person's password.  So a
 * candidate loads unasked only when it is the confirmed policy, or is in
 * force already through a path only the root side controls, or is no
 * looser than the confirmed policy (policy_compare(): exact).  pam_pfsel
 * applies it at login, the agent before it loads an "always" rule, and
 * `pfsel confirm` and `pfsel status` show it to the person; nothing else
 * decides it.
 */
#include <string.h>

#include "userpolicy.h"

enum trust_judgement trust_judge(const void *const confirmed,
				 const size_t confirmed_len,
				 const void *const candidate,
				 const size_t candidate_len, const uid_t uid,
				 const uint8_t *const loaded,
				 struct trust_report *const report)
{
	uint8_t digest[PFSEL_DIGEST_SIZE];
	int ret;

	if (report)
		report->error = 0;
	if (!confirmed)
		return TRUST_FIRST;
	if (confirmed_len == candidate_len &&
	    !memcmp(confirmed, candidate, candidate_len))
		return TRUST_CONFIRMED_SAME;
	/*
	 * In force already: loaded by the root side or by the agent the
	 * root side registered (an "always" answer at its prompt), the only
	 * ones the kernel lets load a user's policy.  Told by SHA-256: the
	 * user's programs write ~/.pfw and so choose what it compiles to,
	 * which a checksum could be made to match.
	 */
	if (loaded &&
	    !policy_blob_check(candidate, candidate_len, uid, digest) &&
	    !memcmp(loaded, digest, sizeof(digest)))
		return TRUST_IN_FORCE;
	ret = policy_compare(confirmed, confirmed_len, candidate, candidate_len,
			     report ? report->out : NULL,
			     report ? report->max : 0);
	if (ret == 0)
		return TRUST_NO_LOOSER;
	if (ret == 1)
		return TRUST_LOOSER;
	if (report)
		report->error = ret;
	return TRUST_UNCOMPARABLE;
}

const char *trust_judgement_name(const enum trust_judgement value)
{
	switch (value) {
	case TRUST_FIRST:
		return "nothing confirmed yet: it is confirmed now";
	case TRUST_CONFIRMED_SAME:
		return "the confirmed policy itself";
	case TRUST_IN_FORCE:
		return "in force already (loaded by the root side or the "
		       "agent): confirmed now";
	case TRUST_NO_LOOSER:
		return "no looser than the confirmed policy";
	case TRUST_LOOSER:
		return "looser than the confirmed policy: it waits for "
		       "confirmation";
	case TRUST_UNCOMPARABLE:
		return "cannot be compared with the confirmed policy: it waits "
		       "for confirmation";
	}
	return "?";
}

bool trust_judgement_loads(const enum trust_judgement value)
{
	return value != TRUST_LOOSER && value != TRUST_UNCOMPARABLE;
}
