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
#include "policy.h"
#include "policydb.h"
#include "protect.h"
#include "scriptenv.h"

/* Whether @policy, if any, marks the class of @app protected. */
static bool policy_protects(const struct pfsel_policy *const policy,
			    struct pfsel_app *const app)
{
	return policy &&
	       pfsel_policydb_app_protected(policy->db,
					    pfsel_app_class(app, policy));
}

/* Whether the system policy or @uid's marks @app protected. */
static bool is_protected(struct pfsel_app *const app, const kuid_t uid)
{
	bool protected;

	if (!pfsel_policy_any())
		return false;
	rcu_read_lock();
	protected = policy_protects(pfsel_policy_system(), app) ||
		    policy_protects(pfsel_policy_user(uid), app);
	rcu_read_unlock();
	return protected;
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
	struct fs_struct *const fs = current->fs;
	struct path root, init_root;
	bool alone, same;

	/*
	 * The root checked must be the root the loader finds, and the
	 * current directory the one the interpreter opens its script from:
	 * no other thread may hold the filesystem context, for it could
	 * chroot() or chdir() between this check and de_thread(), which
	 * check_unsafe_exec() does not count as sharing.
	 */
	spin_lock(&fs->lock);
	alone = fs->users == 1;
	spin_unlock(&fs->lock);
	if (!alone)
		return false;
	if (!pfsel_init_root(&init_root))
		return false;
	get_fs_root(fs, &root);
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
 * (pfsel_protect_commit()).
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
	if (!app || !is_protected(app, bprm->cred->uid))
		return 0;
	if (bprm->unsafe & LSM_UNSAFE_SHARE || under_seccomp_filter())
		return -EPERM;
	if (bprm->unsafe & LSM_UNSAFE_PTRACE &&
	    !ptracer_capable(current, &init_user_ns))
		return -EPERM;
	if (!sees_init_root())
		return -EPERM;
	if (app->has_script) {
		int err = pfsel_scriptenv_check(bprm);

		if (err)
			return err;
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
