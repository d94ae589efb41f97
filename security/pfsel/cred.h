/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Credential hooks
 */

#ifndef _SECURITY_PFSEL_CRED_H
#define _SECURITY_PFSEL_CRED_H

#include <linux/cred.h>
#include <linux/init.h>

#include "app.h"
#include "setup.h"

/**
 * struct pfsel_cred_security - pfsel's part of a credential
 *
 * @app: application identity (app.c, set at execve() by exec.c), or NULL
 *       for tasks that have not executed a program since boot (kernel
 *       threads, the initial task).
 * @was_root: a credential of this task since it last executed a program,
 *            before this one, was root's (pfsel_cred_root()): copied into
 *            every credential derived from this one, cleared at execve().
 */
struct pfsel_cred_security {
	struct pfsel_app *app;
	bool was_root;
};

static inline struct pfsel_cred_security *pfsel_cred(const struct cred *cred)
{
	return cred->security + pfsel_blob_sizes.lbs_cred;
}

/**
 * pfsel_cred_root - Whether a credential is root's
 * @cred: the credential
 *
 * Root is the real and the effective uid 0 of the initial user namespace:
 * not the root of a user namespace (its uid 0 maps to the uid of whoever
 * made it), and not a set-user-ID-root program's borrowed effective uid,
 * which runs for whoever executed it until it makes itself root in full
 * (setuid(0), as sudo does once the rules allow).
 *
 * Return: true for root's credential.
 */
static inline bool pfsel_cred_root(const struct cred *const cred)
{
	return uid_eq(cred->uid, GLOBAL_ROOT_UID) &&
	       uid_eq(cred->euid, GLOBAL_ROOT_UID);
}

/**
 * pfsel_cred_root_since_exec - Whether a task has been root since its exec
 * @cred: the task's credential
 *
 * Return: true when @cred, or one it was derived from since the task last
 * executed a program, is root's.
 */
static inline bool pfsel_cred_root_since_exec(const struct cred *const cred)
{
	return pfsel_cred(cred)->was_root || pfsel_cred_root(cred);
}

/**
 * pfsel_current_subject - The calling task, as who makes a request
 *
 * Its application and real uid, from its credential; a task, whose
 * record names it.
 *
 * Return: the subject.
 */
static inline struct pfsel_subject pfsel_current_subject(void)
{
	const struct cred *const cred = current_cred();

	return (struct pfsel_subject){
		.app = pfsel_cred(cred)->app,
		.uid = cred->uid,
		.task = true,
	};
}

__init void pfsel_add_cred_hooks(void);

#endif /* _SECURITY_PFSEL_CRED_H */
