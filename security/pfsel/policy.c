// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The loaded policies
 *
 * There is at most one system policy and one policy per user (by kuid).
 * Readers find them under RCU: the user policies in a small hash table on
 * the uid, which every decision the recent allows do not answer looks up
 * (an xarray lookup costs several times more), and in an xarray, which
 * keeps them in uid order for listing.  A policy is validated whole before
 * anything changes (pfsel_policy_new()); it is then published with one
 * pointer store, and the policy it replaces is freed after a grace
 * period.  Publishing and withdrawing are serialized by one mutex: they
 * are rare, and a single writer makes the generation order the publish
 * order.  Who may load, and what a change resets, is change.c's.
 */

#include <linux/err.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/xarray.h>

#include "cache_limits.h"
#include "names.h"
#include "policy.h"

DEFINE_STATIC_KEY_FALSE(pfsel_policy_loaded);

static DEFINE_MUTEX(pfsel_policy_mutex);
static struct pfsel_policy __rcu *pfsel_system_policy;
/* User policies by the value of their kuid; xarray lookups are RCU-safe. */
static DEFINE_XARRAY(pfsel_user_policies);
/* The same policies, hashed on the uid for the hooks; RCU lists. */
static struct hlist_head pfsel_user_hash[1 << PFSEL_USER_HASH_BITS];
/* Guarded by pfsel_policy_mutex. */
static u32 pfsel_generation;
static unsigned long pfsel_user_count;

static struct hlist_head *user_bucket(const kuid_t uid)
{
	return &pfsel_user_hash[hash_32(__kuid_val(uid), PFSEL_USER_HASH_BITS)];
}

/**
 * pfsel_policy_system - The system policy
 *
 * Must be called under rcu_read_lock(); the policy stays valid until the
 * matching rcu_read_unlock().
 *
 * Return: the system policy, or NULL when none is loaded.
 */
struct pfsel_policy *pfsel_policy_system(void)
{
	return rcu_dereference(pfsel_system_policy);
}

/**
 * pfsel_policy_user - The policy of a user
 *
 * @uid: the user, as a kuid.
 *
 * Must be called under rcu_read_lock(), as pfsel_policy_system().
 *
 * Return: the user's policy, or NULL when none is loaded.
 */
struct pfsel_policy *pfsel_policy_user(const kuid_t uid)
{
	struct pfsel_policy *policy;

	hlist_for_each_entry_rcu(policy, user_bucket(uid), uid_node) {
		if (uid_eq(policy->uid, uid))
			return policy;
	}
	return NULL;
}

/**
 * pfsel_policy_restraint - Tell whether and how the policies restrain a user
 *
 * @uid: the user, as a kuid.
 * @slot: receives the policy that speaks for a refusal: an enforcing one
 *        before one in permissive mode, the system policy before the
 *        user's.
 *
 * For what no rule can allow (source routes, some families): refused to
 * a process that an enforcing system policy or an enforcing policy of its
 * own user restrains, and audited, as let through, where only policies
 * compiled "mode permissive;" do.  Takes rcu_read_lock() itself.
 *
 * Return: PFSEL_MODE_ENFORCING or PFSEL_MODE_PERMISSIVE, the mode of the
 * policy in *@slot; -ENOENT when no policy restrains @uid.
 */
int pfsel_policy_restraint(const kuid_t uid,
			   enum pfsel_policy_slot *const slot)
{
	const struct pfsel_policy *policies[PFSEL_SLOT_COUNT];
	int i, mode = -ENOENT;

	rcu_read_lock();
	policies[PFSEL_SLOT_SYSTEM] = pfsel_policy_system();
	policies[PFSEL_SLOT_USER] = pfsel_policy_user(uid);
	for (i = 0; i < PFSEL_SLOT_COUNT && mode != PFSEL_MODE_ENFORCING;
	     i++) {
		if (!policies[i] || (mode >= 0 && policies[i]->permissive))
			continue;
		mode = policies[i]->permissive ? PFSEL_MODE_PERMISSIVE :
						 PFSEL_MODE_ENFORCING;
		*slot = i;
	}
	rcu_read_unlock();
	return mode;
}

static void policy_free(struct pfsel_policy *const policy)
{
	if (!policy)
		return;
	pfsel_policydb_free(policy->db);
	kfree(policy);
}

/**
 * pfsel_policy_get - Keep a policy beyond the RCU read section
 *
 * @policy: a policy found under rcu_read_lock().
 *
 * Return: true if the reference was taken; false if the policy is already
 * on its way out (then it must not be used after rcu_read_unlock()).
 */
bool pfsel_policy_get(struct pfsel_policy *const policy)
{
	return refcount_inc_not_zero(&policy->usage);
}

/**
 * pfsel_policy_put - Release a reference taken with pfsel_policy_get()
 *
 * @policy: the policy.
 */
void pfsel_policy_put(struct pfsel_policy *const policy)
{
	if (refcount_dec_and_test(&policy->usage))
		policy_free(policy);
}

static void policy_free_rcu(struct rcu_head *const head)
{
	pfsel_policy_put(container_of(head, struct pfsel_policy, rcu));
}

/*
 * Stores @policy in its slot and returns the policy it replaces.  Called
 * with pfsel_policy_mutex held; on error nothing changed.
 */
static struct pfsel_policy *store(struct pfsel_policy *const policy)
{
	struct pfsel_policy *old;

	if (policy->slot == PFSEL_SLOT_SYSTEM)
		return rcu_replace_pointer(pfsel_system_policy, policy,
					   lockdep_is_held(&pfsel_policy_mutex));

	/* The xarray may fail to allocate: store there first. */
	old = xa_store(&pfsel_user_policies, __kuid_val(policy->uid), policy,
		       GFP_KERNEL);
	if (xa_is_err(old))
		return ERR_PTR(xa_err(old));
	if (old) {
		/* Readers see the old policy or the new one, never neither. */
		hlist_replace_rcu(&old->uid_node, &policy->uid_node);
	} else {
		hlist_add_head_rcu(&policy->uid_node, user_bucket(policy->uid));
		pfsel_user_count++;
	}
	return old;
}

/**
 * pfsel_policy_new - Validate a compiled policy, not yet in force
 *
 * @blob: the policy as pfwc wrote it, from kvmalloc(); consumed.
 * @len: its size in bytes.
 *
 * The target (the system or a uid) is named by the policy's own header:
 * the caller checks its right to it on the policy returned, a copy no one
 * can change any more.
 *
 * Return: the policy, holding one reference (pfsel_policy_put() frees
 * it); an ERR_PTR() of pfsel_policydb_adopt()'s error for a malformed
 * blob, of -EINVAL for a uid that is none, or of -ENOMEM.
 */
struct pfsel_policy *pfsel_policy_new(void *const blob, const size_t len)
{
	struct pfsel_policy *policy;
	struct pfsel_policydb *db;
	int err;

	err = pfsel_policydb_adopt(blob, len, &db);
	if (err)
		return ERR_PTR(err);

	policy = kzalloc(sizeof(*policy), GFP_KERNEL_ACCOUNT);
	if (!policy) {
		pfsel_policydb_free(db);
		return ERR_PTR(-ENOMEM);
	}
	policy->db = db;
	refcount_set(&policy->usage, 1);
	policy->size = len;
	/*
	 * User space tells policies apart by this digest (pam_pfsel: "is
	 * the ~/.pfw it compiled the one in force?"), so it must be a
	 * digest nobody can match with a policy of their choosing; CRC32C
	 * is linear and can be.
	 */
	sha256(db->blob, len, policy->digest);
	policy->permissive = db->flags & PFSEL_POLICY_F_PERMISSIVE;
	if (db->flags & PFSEL_POLICY_F_SYSTEM) {
		policy->slot = PFSEL_SLOT_SYSTEM;
		policy->uid = GLOBAL_ROOT_UID;
	} else {
		policy->slot = PFSEL_SLOT_USER;
		policy->uid = make_kuid(&init_user_ns, db->uid);
		if (!uid_valid(policy->uid)) {
			policy_free(policy);
			return ERR_PTR(-EINVAL);
		}
	}
	return policy;
}

/**
 * pfsel_policy_publish - Put a policy in force
 *
 * @policy: from pfsel_policy_new(); its reference is now the published
 *          policy's.  It gets the next generation.
 *
 * Return: the policy it replaces, with the reference that was the
 * published one's (for pfsel_policy_retire()), or NULL; an ERR_PTR() of
 * -ENOMEM when nothing changed.
 */
struct pfsel_policy *pfsel_policy_publish(struct pfsel_policy *const policy)
{
	struct pfsel_policy *old;

	mutex_lock(&pfsel_policy_mutex);
	policy->generation = pfsel_generation + 1;
	old = store(policy);
	if (!IS_ERR(old)) {
		pfsel_generation = policy->generation;
		static_branch_enable(&pfsel_policy_loaded);
	}
	mutex_unlock(&pfsel_policy_mutex);
	return old;
}

/**
 * pfsel_policy_withdraw - Take a policy out of force
 *
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 *
 * Return: the policy withdrawn, with the reference that was the published
 * one's (for pfsel_policy_retire()), or NULL if none was loaded.
 */
struct pfsel_policy *pfsel_policy_withdraw(const enum pfsel_policy_slot slot,
					   const kuid_t uid)
{
	struct pfsel_policy *old;

	mutex_lock(&pfsel_policy_mutex);
	if (slot == PFSEL_SLOT_SYSTEM) {
		old = rcu_replace_pointer(pfsel_system_policy, NULL,
					  lockdep_is_held(&pfsel_policy_mutex));
	} else {
		old = xa_erase(&pfsel_user_policies, __kuid_val(uid));
		if (old) {
			hlist_del_rcu(&old->uid_node);
			pfsel_user_count--;
		}
	}
	/*
	 * With nothing loaded pfsel is inert again.  A hook that still saw
	 * the key on finds no policy and allows, as it would now.
	 */
	if (old && !rcu_access_pointer(pfsel_system_policy) &&
	    !pfsel_user_count)
		static_branch_disable(&pfsel_policy_loaded);
	mutex_unlock(&pfsel_policy_mutex);
	return old;
}

/**
 * pfsel_policy_retire - Free a replaced or withdrawn policy
 *
 * @old: what pfsel_policy_publish() or pfsel_policy_withdraw() returned,
 *       or NULL.
 *
 * Lookups under RCU may still see it: it goes after a grace period, and
 * only once every holder of a reference let it go.
 */
void pfsel_policy_retire(struct pfsel_policy *const old)
{
	if (old)
		call_rcu(&old->rcu, policy_free_rcu);
}

static void show_one(struct seq_file *const m,
		     const struct pfsel_policy *const policy)
{
	if (policy->slot == PFSEL_SLOT_SYSTEM)
		seq_puts(m, pfsel_slot_names[PFSEL_SLOT_SYSTEM]);
	else
		seq_printf(m, "%u", from_kuid(&init_user_ns, policy->uid));
	seq_printf(m, " generation=%u size=%u rules=%u sha256=%*phN mode=%s\n",
		   policy->generation, policy->size, policy->db->n_rules,
		   SHA256_DIGEST_SIZE, policy->digest,
		   pfsel_mode_names[policy->permissive ? PFSEL_MODE_PERMISSIVE :
							 PFSEL_MODE_ENFORCING]);
}

/**
 * pfsel_policy_show - List the loaded policies, one line each
 *
 * @m: where to write: the system policy first, then users by uid.
 */
void pfsel_policy_show(struct seq_file *const m)
{
	struct pfsel_policy *policy;
	unsigned long index;

	mutex_lock(&pfsel_policy_mutex);
	policy = rcu_dereference_protected(pfsel_system_policy,
					   lockdep_is_held(&pfsel_policy_mutex));
	if (policy)
		show_one(m, policy);
	xa_for_each(&pfsel_user_policies, index, policy)
		show_one(m, policy);
	mutex_unlock(&pfsel_policy_mutex);
}

/**
 * pfsel_policy_counts - What is loaded, for the status file
 *
 * @system: set to whether a system policy is loaded.
 * @users: set to the number of user policies.
 * @generation: set to the generation of the newest load.
 */
void pfsel_policy_counts(bool *const system, unsigned long *const users,
			 u32 *const generation)
{
	mutex_lock(&pfsel_policy_mutex);
	*system = rcu_access_pointer(pfsel_system_policy);
	*users = pfsel_user_count;
	*generation = pfsel_generation;
	mutex_unlock(&pfsel_policy_mutex);
}
