// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The loaded policies
 *
 * There is at most one system policy and one policy per user (by kuid).
 * Readers find them under RCU: the user policies in a small hash table on
 * the uid, which every decision the recent allows do not answer looks up
 * (an xarray lookup costs several times more), and in an xarray, which
 * keeps them in uid order for listing.  A load validates the new policy whole
 * before anything changes; it is then published with one pointer store, the
 * access vector cache is flushed, and the policy it replaces is freed after
 * a grace period.  Loads and unloads are serialized by one mutex: they are
 * rare, and a single writer makes the generation order the publish order.
 */

#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rculist.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/xarray.h>

#include "ask.h"
#include "common.h"
#include "cache_limits.h"
#include "names.h"
#include "policy.h"
#include "reset.h"

DEFINE_STATIC_KEY_FALSE(pfsel_policy_loaded);
DEFINE_STATIC_KEY_FALSE(pfsel_resolvers_named);

/*
 * The learning hooks (resolver.c) run on every datagram sent or queued;
 * only a system policy that names resolvers gives them anything to do.
 * Called with the policy mutex held, after the system policy changed.
 */
static void note_resolvers(const struct pfsel_policy *const system)
{
	if (system && system->db->n_resolvers)
		static_branch_enable(&pfsel_resolvers_named);
	else
		static_branch_disable(&pfsel_resolvers_named);
}

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
 * pfsel_policy_restrains - Tell whether a policy in force restrains a user
 *
 * @uid: the user, as a kuid.
 *
 * For what no rule can allow yet (source routes): refused for a process
 * that an enforcing system policy or an enforcing policy of its own user
 * restrains.  Takes rcu_read_lock() itself.
 *
 * Return: true if such a policy is loaded.
 */
bool pfsel_policy_restrains(const kuid_t uid)
{
	const struct pfsel_policy *system, *user;
	bool restrains;

	rcu_read_lock();
	system = pfsel_policy_system();
	user = pfsel_policy_user(uid);
	restrains = (system && !system->permissive) ||
		    (user && !user->permissive);
	rcu_read_unlock();
	return restrains;
}

/**
 * pfsel_policy_may_admin - Tell whether credentials may administer pfsel
 *
 * @cred: credentials of whoever opened the control file.
 *
 * Loading the system policy or another user's policy, and switching the
 * global mode, need CAP_MAC_ADMIN in the initial user namespace: a user
 * namespace's root must not loosen what the host imposes.
 *
 * Return: true if allowed.
 */
bool pfsel_policy_may_admin(const struct cred *const cred)
{
	return security_capable(cred, &init_user_ns, CAP_MAC_ADMIN,
				CAP_OPT_NONE) == 0;
}

/**
 * pfsel_policy_may_load - Tell whether a policy may be loaded for a target
 *
 * @opener: credentials of whoever opened the load file.
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 *
 * The adversary is a program running as the user whose policy restrains
 * it, so the user's own uid is no right: the root side loads (pam_pfsel,
 * the administrator), and so does the user's agent process, which the root
 * side registered and at whose prompt the person answers.
 *
 * Return: true if allowed.
 */
bool pfsel_policy_may_load(const struct cred *const opener,
			   const enum pfsel_policy_slot slot, const kuid_t uid)
{
	if (pfsel_policy_may_admin(opener))
		return true;
	return slot == PFSEL_SLOT_USER && uid_eq(opener->uid, uid) &&
	       uid_eq(current_uid(), uid) && pfsel_ask_is_agent_process(uid);
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

static void audit_policy_change(const char *const what,
				const enum pfsel_policy_slot slot,
				const kuid_t uid, const u32 generation)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_POLICY_LOAD);
	if (!ab)
		return;
	audit_log_format(ab, "auid=%u ses=%u lsm=%s op=%s",
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current), PFSEL_NAME, what);
	if (slot == PFSEL_SLOT_SYSTEM)
		audit_log_format(ab, " policy=system");
	else
		audit_log_format(ab, " policy=user target=%u",
				 from_kuid(&init_user_ns, uid));
	audit_log_format(ab, " generation=%u res=1", generation);
	audit_log_end(ab);
}

/*
 * Publishes @policy in its slot and returns the policy it replaces.  Called
 * with pfsel_policy_mutex held; on error nothing changed.
 */
static struct pfsel_policy *publish(struct pfsel_policy *const policy)
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
 * pfsel_policy_load - Validate a compiled policy and put it in force
 *
 * @opener: credentials of whoever opened the load file.
 * @blob: the policy as pfwc wrote it, from kvmalloc(); consumed.
 * @len: its size in bytes.
 *
 * The target (the system or a uid) is named by the policy's own header.
 * The caller checked the opener's right to the target the header it read
 * names; it is checked again here, on the validated copy, which no one
 * can change any more.
 *
 * Return: 0 on success; -EPERM if @opener may not load for that target;
 * an error of pfsel_policydb_adopt() for a malformed blob; -ENOMEM.  On
 * any error the policies in force are unchanged.
 */
int pfsel_policy_load(const struct cred *const opener, void *const blob,
		      const size_t len)
{
	struct pfsel_policy *policy, *old;
	struct pfsel_policydb *db;
	int err;

	err = pfsel_policydb_adopt(blob, len, &db);
	if (err)
		return err;

	policy = kzalloc(sizeof(*policy), GFP_KERNEL_ACCOUNT);
	if (!policy) {
		pfsel_policydb_free(db);
		return -ENOMEM;
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
			err = -EINVAL;
			goto err_free;
		}
	}

	if (!pfsel_policy_may_load(opener, policy->slot, policy->uid)) {
		err = -EPERM;
		goto err_free;
	}

	mutex_lock(&pfsel_policy_mutex);
	policy->generation = pfsel_generation + 1;
	old = publish(policy);
	if (IS_ERR(old)) {
		mutex_unlock(&pfsel_policy_mutex);
		err = PTR_ERR(old);
		goto err_free;
	}
	pfsel_generation = policy->generation;
	static_branch_enable(&pfsel_policy_loaded);
	if (policy->slot == PFSEL_SLOT_SYSTEM)
		note_resolvers(policy);
	/* Every cache of decisions forgets what the old policy decided. */
	pfsel_reset_caches(&(struct pfsel_change){
		.kind = PFSEL_CHANGE_POLICY,
		.slot = policy->slot,
		.uid = policy->uid,
	});
	mutex_unlock(&pfsel_policy_mutex);

	audit_policy_change("load", policy->slot, policy->uid,
			    policy->generation);
	if (old)
		call_rcu(&old->rcu, policy_free_rcu);
	return 0;

err_free:
	policy_free(policy);
	return err;
}

/**
 * pfsel_policy_unload - Remove a policy
 *
 * @opener: credentials of whoever opened the unload file.
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 *
 * Only the root side unloads, a user's policy as well: a program of the
 * user must not be able to take away what restrains it.
 *
 * Return: 0 on success, -EPERM if @opener may not, -ENOENT if no such
 * policy is loaded.
 */
int pfsel_policy_unload(const struct cred *const opener,
			const enum pfsel_policy_slot slot, const kuid_t uid)
{
	struct pfsel_policy *old;

	if (!pfsel_policy_may_admin(opener))
		return -EPERM;

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
	if (!old) {
		mutex_unlock(&pfsel_policy_mutex);
		return -ENOENT;
	}
	/*
	 * With nothing loaded pfsel is inert again.  A hook that still saw
	 * the key on finds no policy and allows, as it would now.
	 */
	if (!rcu_access_pointer(pfsel_system_policy) && !pfsel_user_count)
		static_branch_disable(&pfsel_policy_loaded);
	if (slot == PFSEL_SLOT_SYSTEM)
		note_resolvers(NULL);
	pfsel_reset_caches(&(struct pfsel_change){
		.kind = PFSEL_CHANGE_POLICY,
		.slot = slot,
		.uid = uid,
	});
	mutex_unlock(&pfsel_policy_mutex);

	audit_policy_change("unload", slot, uid, old->generation);
	call_rcu(&old->rcu, policy_free_rcu);
	return 0;
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
