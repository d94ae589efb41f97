/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Application identity
 */

#ifndef _SECURITY_PFSEL_APP_H
#define _SECURITY_PFSEL_APP_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "policy.h"

struct path;

/**
 * struct pfsel_app - Application identity of a process
 *
 * @usage: references from credentials and sockets.
 * @id: unique since boot, never 0: tells identities apart where a pointer
 *      could be reused (recent.c).
 * @exe: path of the executable that was run (the interpreter, for a
 *       script), or NULL if it cannot be named (see exec.c).
 * @script: path of the script, or NULL if there is none or it cannot be
 *          named.
 * @has_script: the kernel ran a script through an interpreter.
 * @seen: the path of the file named in execve() (the script, for a
 *        script) in the mount namespace that ran it, when init names it
 *        otherwise (through its mounts, mounts.c), or NULL: the name an
 *        interpreter opens, and the one watched until it has (exec.c).
 * @ino: inode number of the file named in execve() (the script, for a
 *       script), to recognise it when the interpreter opens it.
 * @dev: its device.
 * @script_opened: the interpreter opened @script and found that very file
 *                 (exec.c); until then an open of another file by that
 *                 name fails.
 * @protected: a policy in force at exec marked the application "protect"
 *             (protect.c): the process was made non-dumpable and ran in
 *             secure-execution mode.
 * @root_started: the process that executed the program had been root
 *                since its own last exec (pfsel_cred_root_since_exec()):
 *                root's code chose to run it (a service that systemd
 *                starts, as its own account or as root), not a person's
 *                program, which never is root.  A resolver's answers
 *                teach names only then (resolver.c).
 * @classes: per policy slot, the application class last computed, with
 *           the generation of the policy it was computed for in the upper
 *           32 bits.
 *
 * The identity is fixed at exec and shared, read-only but for @classes, by
 * every credential derived from it: a process cannot change what it was
 * started as.
 */
struct pfsel_app {
	struct kref usage;
	u64 id;
	const char *exe;
	const char *script;
	const char *seen;
	bool has_script;
	unsigned long ino;
	dev_t dev;
	bool script_opened;
	bool protected;
	bool root_started;
	atomic64_t classes[PFSEL_SLOT_COUNT];
};

/**
 * pfsel_app_id - The id of an application identity
 *
 * @app: the identity, or NULL.
 *
 * Return: its id; 0 for none.
 */
static inline u64 pfsel_app_id(const struct pfsel_app *const app)
{
	return app ? app->id : 0;
}

/**
 * struct pfsel_subject - Who makes a request
 *
 * @app: the application identity, or NULL.
 * @uid: the real uid, which chooses the user policy.
 * @task: the request is made by the current task, in process context (a
 *        syscall); false for an inbound connection, decided in softirq for
 *        the process that created the listening socket.
 */
struct pfsel_subject {
	struct pfsel_app *app;
	kuid_t uid;
	bool task;
};

struct pfsel_app *pfsel_app_alloc(void);
struct pfsel_app *pfsel_app_get(struct pfsel_app *app);
void pfsel_app_put(struct pfsel_app *app);
bool pfsel_init_root(struct path *root);
u32 pfsel_app_class(struct pfsel_app *app, const struct pfsel_policy *policy);

#endif /* _SECURITY_PFSEL_APP_H */
