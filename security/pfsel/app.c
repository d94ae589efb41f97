// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Application identity
 *
 * A process's application is fixed at execve() (exec.c): the executable
 * and, when the kernel ran a script through its interpreter, the script
 * (policy/LANGUAGE.md, section 5), each by the path that names it in
 * init's mount tree (its own, or one that init's mounts reach it by:
 * mounts.c), or unnamed.  The identity is shared, by reference,
 * by the process's credentials (cred.c) and the sockets it creates
 * (net.c); what it is in a policy, its application class, is cached in
 * it per policy slot.
 */

#include <linux/fs_struct.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "app.h"
#include "classcache.h"
#include "policydb.h"

/*
 * Patterns are absolute paths: this relative one matches none of them, so
 * an unnamed executable or script falls in the policy's "other" class.
 * The same string as pfsel_compare()'s, through policydb.h.
 */
static const char pfsel_unnamed[] = PFSEL_UNNAMED_PATH;

static void pfsel_app_release(struct kref *const usage)
{
	struct pfsel_app *const app =
		container_of(usage, struct pfsel_app, usage);

	kfree(app->exe);
	kfree(app->script);
	kfree(app->seen);
	kfree(app);
}

/**
 * pfsel_app_get - Take a reference to an application identity
 *
 * @app: identity, or NULL.
 *
 * Return: @app.
 */
struct pfsel_app *pfsel_app_get(struct pfsel_app *const app)
{
	if (app)
		kref_get(&app->usage);
	return app;
}

/**
 * pfsel_app_put - Release a reference to an application identity
 *
 * @app: identity, or NULL.
 *
 * Safe in any context: the last reference may go from a socket freed in
 * softirq.
 */
void pfsel_app_put(struct pfsel_app *const app)
{
	if (app)
		kref_put(&app->usage, pfsel_app_release);
}

/**
 * pfsel_app_class - The application class of an identity in a policy
 *
 * @app: identity, or NULL for a task that has not executed anything.
 * @policy: the policy; the caller holds rcu_read_lock().
 *
 * Classifying a path costs a few binary searches, so the answer is cached
 * in @app per policy slot and recomputed only when a policy of a new
 * generation is in force.  Racing writers store the same value.  Each
 * execve() makes an identity of its own: so the class is also kept per
 * CPU by the paths (classcache.c), for the next start of the same program.
 *
 * Return: an application class of @policy.
 */
u32 pfsel_app_class(struct pfsel_app *const app,
		    const struct pfsel_policy *const policy)
{
	const char *exe, *script;
	u64 cached;
	u32 class;

	if (!app)
		return pfsel_policydb_classify_app(policy->db, pfsel_unnamed,
						   NULL);

	cached = atomic64_read(&app->classes[policy->slot]);
	if (upper_32_bits(cached) == policy->generation)
		return lower_32_bits(cached);

	exe = app->exe ?: pfsel_unnamed;
	script = app->has_script ? app->script ?: pfsel_unnamed : NULL;
	class = pfsel_classcache_app(policy, exe, script);
	atomic64_set(&app->classes[policy->slot],
		     (u64)policy->generation << 32 | class);
	return class;
}

/**
 * pfsel_init_root - The root directory of the init process
 *
 * @root: set to it, with a reference (path_put() it), when there is one.
 *
 * Applications are named as init's mount tree reaches their files; and a
 * protected application runs only where the files its loader opens by
 * name are the ones init sees (protect.c).
 *
 * Return: true when @root was set.
 */
bool pfsel_init_root(struct path *const root)
{
	struct task_struct *init;

	*root = (struct path){};
	rcu_read_lock();
	init = READ_ONCE(init_pid_ns.child_reaper);
	if (init)
		get_task_struct(init);
	rcu_read_unlock();
	if (!init)
		return false;

	task_lock(init);
	if (init->fs)
		get_fs_root(init->fs, root);
	task_unlock(init);
	put_task_struct(init);
	return root->mnt;
}

/**
 * pfsel_app_alloc - A new application identity, unnamed as yet
 *
 * Return: the identity, with one reference; NULL without memory.
 */
struct pfsel_app *pfsel_app_alloc(void)
{
	static atomic64_t last_id = ATOMIC64_INIT(0);
	struct pfsel_app *app;

	app = kzalloc(sizeof(*app), GFP_KERNEL_ACCOUNT);
	if (app) {
		kref_init(&app->usage);
		app->id = atomic64_inc_return(&last_id);
		/* No script: nothing for an interpreter to open. */
		app->script_opened = true;
	}
	return app;
}
