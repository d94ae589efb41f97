// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Protected applications
 *
 * A rule may mark its applications "protect" (policy/LANGUAGE.md).  The
 * rules allowed to firefox are worth nothing against malware of the same
 * user that can make firefox run its code: attach with ptrace, write
 * through /proc/PID/mem or process_vm_writev(), take a descriptor with
 * pidfd_getfd(), or start firefox with LD_PRELOAD.  A setuid program has
 * the same problem against its caller, and the kernel's answer for it is
 * reused here: the process of a protected application is not dumpable
 * (every one of those paths checks ptrace access, which a non-dumpable
 * process grants only to CAP_SYS_PTRACE), and it runs in secure-execution
 * mode (AT_SECURE: the loader ignores LD_PRELOAD and LD_LIBRARY_PATH).
 *
 * What a caller holds over the process across execve() is refused as a
 * whole, because it would be used at once: a tracer (unless it may trace
 * anything), a seccomp filter (its supervisor could answer the new
 * program's open() of a library with a descriptor of its own choosing),
 * a filesystem context shared with another process.  Such an execve()
 * fails with EPERM, before the point of no return.
 *
 * Protection follows the process, not the user namespace it was started
 * in.  A non-dumpable process still lets in whoever holds CAP_SYS_PTRACE
 * in its mm's user namespace (__ptrace_may_access()), and that is the
 * namespace that ran execve(): any program of the user can make one of
 * its own, be root there, and start the protected application in it.  So
 * the new mm of a protected application belongs to the initial user
 * namespace, as fs/exec.c's would_dump() makes an unreadable executable's
 * belong to an ancestor: only CAP_SYS_PTRACE over the whole system gets
 * in, wherever the application was started (Flatpak and other sandboxes
 * run programs in user namespaces of their own, so refusing would not do).
 */

#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/fs_struct.h>
#include <linux/path.h>
#include <linux/personality.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/seccomp.h>
#include <linux/security.h>
#include <linux/user_namespace.h>

#include "app.h"
#include "audit.h"
#include "exec.h"
#include "policy.h"
#include "policydb.h"
#include "protect.h"
#include "scriptenv.h"

/*
 * Whether @policy, if any, marks the class of @app protected.  A policy
 * with no protected class (most have none) answers no for every class, so
 * it needs no class: classifying costs a binary search for the path and
 * one for each folder above it, at every execve(), while the class is
 * only needed by the first decision the process asks for, which computes
 * it then (pfsel_app_class(): a function of the policy and the identity's
 * paths alone, cached per policy generation).
 */
static bool policy_protects(const struct pfsel_policy *const policy,
			    struct pfsel_app *const app)
{
	return policy && policy->db->n_protected &&
	       pfsel_policydb_app_protected(policy->db,
					    pfsel_app_class(app, policy));
}

/*
 * Which policy marks @app protected: the system policy, or @uid's; and
 * PFSEL_SLOT_COUNT when neither does.
 */
static enum pfsel_policy_slot protecting_policy(struct pfsel_app *const app,
						const kuid_t uid)
{
	enum pfsel_policy_slot slot = PFSEL_SLOT_COUNT;

	if (!pfsel_policy_any())
		return slot;
	rcu_read_lock();
	if (policy_protects(pfsel_policy_system(), app))
		slot = PFSEL_SLOT_SYSTEM;
	else if (policy_protects(pfsel_policy_user(uid), app))
		slot = PFSEL_SLOT_USER;
	rcu_read_unlock();
	return slot;
}

/* Whether a seccomp filter, installed before this execve(), stays on. */
static bool under_seccomp_filter(void)
{
#ifdef CONFIG_SECCOMP_FILTER
	return READ_ONCE(current->seccomp.mode) == SECCOMP_MODE_FILTER;
#else
	return false;
#endif
}

/*
 * Whether the calling process finds files where init does: its root is
 * init's root directory, on init's root mount.  The loader of the new
 * program, the libraries and the files it opens by name in secure-
 * execution mode too (/etc/ld.so.preload, /etc/ld.so.cache) are looked
 * up from the process's root, in its mount namespace, while only the
 * executable is checked against init's tree.  A program of the user can
 * make either its own: a mount namespace (in a user namespace of its own)
 * with its own /etc/ld.so.preload, or a chroot there with an execveat()
 * of the protected file opened before.  No mount namespace but init's
 * holds init's root mount, and a chroot moves the root: so this one test
 * rules out both, and the files are root's.
 */
static bool sees_init_root(void)
{
	struct path root, init_root;
	bool same;

	if (!pfsel_init_root(&init_root))
		return false;
	get_fs_root(current->fs, &root);
	same = path_equal(&root, &init_root);
	path_put(&root);
	path_put(&init_root);
	return same;
}

/*
 * The new mm is not anyone's yet (exec_mmap() installs it after the
 * point of no return), so nothing else reads the field; if the execve()
 * fails before then, the mm is dropped with whichever namespace it holds.
 * would_dump(), later, only moves the owner towards the initial namespace.
 */
static void mm_owned_by_init_ns(struct linux_binprm *const bprm)
{
	struct user_namespace *const old = bprm->mm->user_ns;

	if (old == &init_user_ns)
		return;
	bprm->mm->user_ns = get_user_ns(&init_user_ns);
	put_user_ns(old);
}

/*
 * What the caller holds over the new process that would survive the
 * execve() of a protected application (@variable: the variable of a
 * script's environment that its interpreter would run code from):
 * PFSEL_NOT_REFUSED when nothing; otherwise a negative errno when the
 * environment cannot be checked at all.
 */
static int exec_refusal(struct linux_binprm *const bprm,
			const struct pfsel_app *const app,
			const char **const variable)
{
	int err;

	if (pfsel_exec_shares_fs(bprm))
		return PFSEL_REFUSED_SHARED_FS;
	if (under_seccomp_filter())
		return PFSEL_REFUSED_SECCOMP;
	if (bprm->unsafe & LSM_UNSAFE_PTRACE &&
	    !ptracer_capable(current, &init_user_ns))
		return PFSEL_REFUSED_TRACED;
	if (!sees_init_root())
		return PFSEL_REFUSED_PRIVATE_ROOT;
	if (app->has_script) {
		err = pfsel_scriptenv_check(bprm, variable);
		if (err == -EPERM)
			return PFSEL_REFUSED_SCRIPT_ENVIRONMENT;
		if (err)
			return err;
	}
	return PFSEL_NOT_REFUSED;
}

/**
 * pfsel_protect_exec - Protect the process of a protected application
 *
 * @bprm: the execve() under way.
 * @app: the application identity its credentials carry, or NULL.
 *
 * Called from the bprm_creds_from_file hook once the identity is final
 * (exec.c).  Marks the identity protected, asks for secure-execution mode
 * and gives the new mm to the initial user namespace; the process is made
 * non-dumpable when the credentials are committed
 * (pfsel_protect_commit()).  A refusal is audited as a denial, naming
 * the application and what was refused.
 *
 * Return: 0, or -EPERM when the caller holds something over the process
 * that would survive the execve() (a tracer without CAP_SYS_PTRACE, a
 * seccomp filter, a shared filesystem context), when the process's root
 * is not init's (a mount namespace or chroot, where the loader's files
 * can be another's: sees_init_root()), or, for a script, when
 * its environment would make the interpreter run code it names
 * (scriptenv.c); another errno when that environment cannot be read.
 */
int pfsel_protect_exec(struct linux_binprm *const bprm,
		       struct pfsel_app *const app)
{
	const struct pfsel_subject subject = {
		.app = app,
		.uid = bprm->cred->uid,
		.task = true,
	};
	struct pfsel_refused refused = { .op = "exec" };
	int what;

	if (!app)
		return 0;
	refused.slot = protecting_policy(app, bprm->cred->uid);
	if (refused.slot == PFSEL_SLOT_COUNT)
		return 0;
	what = exec_refusal(bprm, app, &refused.variable);
	if (what < 0)
		return what;
	if (what != PFSEL_NOT_REFUSED) {
		refused.what = what;
		pfsel_audit_refusal(&subject, &refused);
		return -EPERM;
	}
	mm_owned_by_init_ns(bprm);
	app->protected = true;
	bprm->secureexec = 1;
	/* As for a setuid program: no inherited ADDR_NO_RANDOMIZE and such. */
	bprm->per_clear |= PER_CLEAR_ON_SETID;
	return 0;
}

/**
 * pfsel_protect_commit - Make a protected process non-dumpable
 *
 * @app: the application identity the new credentials carry, or NULL.
 *
 * Called as execve() commits the credentials (exec.c): the new mm's
 * dumpability was just set from them, to SUID_DUMP_USER for a process of
 * the same uid, whatever pfsel_protect_exec() decided; a protected
 * process gets SUID_DUMP_DISABLE whatever fs.suid_dumpable says.
 */
void pfsel_protect_commit(const struct pfsel_app *const app)
{
	if (app && app->protected)
		set_dumpable(current->mm, SUID_DUMP_DISABLE);
}
