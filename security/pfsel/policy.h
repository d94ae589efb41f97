/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The loaded policies
 */

#ifndef _SECURITY_PFSEL_POLICY_H
#define _SECURITY_PFSEL_POLICY_H

#include <linux/jump_label.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include <crypto/sha2.h>

#include <uapi/linux/pfsel.h>

#include "policydb.h"

/**
 * struct pfsel_policy - A loaded policy
 *
 * @db: the validated policy database.
 * @slot: system or user policy.
 * @uid: the user it governs (GLOBAL_ROOT_UID for the system policy).
 * @generation: unique among every policy loaded since boot; decisions
 *              cached for this policy are keyed by it.
 * @permissive: the policy was compiled with "mode permissive;".
 * @size: size of the blob it was loaded from.
 * @digest: the blob's SHA-256: what says which policy this is (the header's
 *          CRC32C only detects corruption, and anyone can forge one).
 * @usage: one reference while published (dropped a grace period after it
 *         is replaced), one per holder outside RCU (a caller waiting for
 *         its agent's answer, the load that audits it).
 * @uid_node: a user policy's place in the hash table the hooks look it up
 *            in, by uid.
 * @rcu: drops the published reference once no lookup can still see it.
 *
 * Immutable once published: readers under RCU need no lock.
 */
struct pfsel_policy {
	struct pfsel_policydb *db;
	enum pfsel_policy_slot slot;
	kuid_t uid;
	u32 generation;
	bool permissive;
	u32 size;
	u8 digest[SHA256_DIGEST_SIZE];
	refcount_t usage;
	struct hlist_node uid_node;
	struct rcu_head rcu;
};

DECLARE_STATIC_KEY_FALSE(pfsel_policy_loaded);

/**
 * pfsel_policy_any - Tell whether any policy is loaded
 *
 * Until a first policy is loaded pfsel is inert: the hooks then cost one
 * patched-out branch.
 *
 * Return: true when at least one policy may be loaded.
 */
static inline bool pfsel_policy_any(void)
{
	return static_branch_unlikely(&pfsel_policy_loaded);
}

struct pfsel_policy *pfsel_policy_system(void);
struct pfsel_policy *pfsel_policy_user(kuid_t uid);

int pfsel_policy_restraint(kuid_t uid, enum pfsel_policy_slot *slot);
bool pfsel_policy_get(struct pfsel_policy *policy);
void pfsel_policy_put(struct pfsel_policy *policy);

struct pfsel_policy *pfsel_policy_new(void *blob, size_t len);
struct pfsel_policy *pfsel_policy_publish(struct pfsel_policy *policy);
struct pfsel_policy *pfsel_policy_withdraw(enum pfsel_policy_slot slot,
					   kuid_t uid);
void pfsel_policy_retire(struct pfsel_policy *old);

void pfsel_policy_show(struct seq_file *m);
void pfsel_policy_counts(bool *system, unsigned long *users,
			 u32 *generation);

#endif /* _SECURITY_PFSEL_POLICY_H */
