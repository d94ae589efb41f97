// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - What execve() makes a process's application
 *
 * A process's application (app.c) is fixed at execve(): the executable
 * and, when the kernel ran a script through its "#!" interpreter, the
 * script (policy/LANGUAGE.md, section 5).  Rules name applications by path, so
 * the identity is a path, and a path can lie: a user namespace lets an
 * unprivileged user bind-mount any file over /usr/bin/firefox in a mount
 * namespace of their own.  A path therefore only counts if it names the
 * same file when looked up from the root of the init process, that is, as
 * the administrator who wrote the policy sees the system.  A file that a
 * mount namespace shows at a path init does not know (a Flatpak's /app)
 * is named by where init's own mounts reach it (mounts.c), with the same
 * proof.  Otherwise the application is unnamed, and only rules for "*"
 * match it.
 *
 * A script is worse: the kernel runs the interpreter and hands it the
 * script's *name*, which the interpreter opens later.  Whoever controls a
 * symbolic link on the way, or a mount namespace, can make that name
 * another file by then, and the other script would run as the one the
 * kernel named.  So the script identity is given only when the name holds
 * no symbolic link, names the very file executed, and no one but root and
 * the owners of its folders can make it lead elsewhere (name_is_root_s():
 * not in a user namespace of the user's making); else the process is the
 * interpreter run by hand, without the script.  Until the interpreter has
 * opened that file, an open of another file by the script's path fails.
 * A handler that passes the file itself (binfmt_misc's "O" and "C" flags)
 * leaves nothing to race.
 *
 * Once the identity is final, the policies in force say whether it is
 * protected (protect.c).
 */

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/lsm_hooks.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "app.h"
#include "audit.h"
#include "common.h"
#include "cred.h"
#include "exec.h"
#include "mounts.h"
#include "protect.h"
#include "setup.h"
#include "stats.h"

/* What init finds at a path: the file executed, another, or nothing. */
enum init_finds {
	INIT_FINDS_FILE,
	INIT_FINDS_OTHER,
	INIT_FINDS_NOTHING,
};

/* What @name, looked up from init's root, leads to. */
static enum init_finds init_finds(const char *const name,
				  const struct file *const file)
{
	enum init_finds finds = INIT_FINDS_NOTHING;
	struct path root, found;

	if (!pfsel_init_root(&root))
		return INIT_FINDS_NOTHING;

	if (!vfs_path_lookup(root.dentry, root.mnt, name, 0, &found)) {
		finds = d_backing_inode(found.dentry) == file_inode(file) ?
				INIT_FINDS_FILE :
				INIT_FINDS_OTHER;
		path_put(&found);
	}
	path_put(&root);
	return finds;
}

/*
 * Sets *@name to the path of @file from init's root, or to NULL when it
 * cannot be named; and, when @seen is not NULL and the name is not the
 * process's own path of @file, *@seen to that path (else NULL).
 *
 * The process's own path comes first, and is the name when init finds
 * this very file there: every ordinary program is named so, for the cost
 * of one lookup, as it always was.  When init finds another file there,
 * the process runs in a mount namespace that shows something else at a
 * path init knows (a mount over a path a policy may name): unnamed, as it
 * always was.  Only when init finds nothing there (a Flatpak's /app, a
 * path of a mount namespace's own root) or the path cannot be written (a
 * detached mount) is the file named by where init's mounts reach it
 * (mounts.c), and unnamed if none does.  Deleted files, files too deep to
 * write and files that init reaches under no name are unnamed.
 */
static int name_file(const struct file *const file, char **const name,
		     char **const seen)
{
	enum init_finds finds = INIT_FINDS_NOTHING;
	char *buf, *path;
	int err;

	*name = NULL;
	if (seen)
		*seen = NULL;
	buf = __getname();
	if (!buf)
		return -ENOMEM;
	path = d_absolute_path(&file->f_path, buf, PATH_MAX);
	if (!IS_ERR(path))
		finds = init_finds(path, file);
	if (finds == INIT_FINDS_FILE) {
		*name = kstrdup(path, GFP_KERNEL_ACCOUNT);
		err = *name ? 0 : -ENOMEM;
	} else if (finds == INIT_FINDS_OTHER) {
		err = 0;
	} else {
		err = pfsel_mounts_name(file, name);
		if (!err && *name && seen && !IS_ERR(path)) {
			*seen = kstrdup(path, GFP_KERNEL_ACCOUNT);
			if (!*seen) {
				kfree(*name);
				*name = NULL;
				err = -ENOMEM;
			}
		}
	}
	__putname(buf);
	return err;
}

/*
 * Whether @name goes up a folder ("..").  The interpreter opens the
 * script's name after exec: a ".." makes the file it leads to depend on
 * a folder above it on the way, which may be the user's to swap (for a
 * symbolic link, say) once the name was checked; a name that only goes
 * down leads to the file through its own parents.
 */
static bool goes_up(const char *name)
{
	while (*name) {
		if (name[0] == '.' && name[1] == '.' &&
		    (name[2] == '/' || !name[2]))
			return true;
		name = strchrnul(name, '/');
		while (*name == '/')
			name++;
	}
	return false;
}

/*
 * Whether @path is the place the exec named @named at: the path the
 * process's namespace showed (pfsel_app.seen when init names it
 * elsewhere), else its name.  The identity is a path, not an inode: a
 * hard link of the script in a folder of the user's is the same inode at
 * another place (and the user may swap folders on the way to it while
 * execve() is held, say on a page of a FUSE file of the user's holding
 * an argument: adv_scriptfix2_test).  In the process's mount namespace
 * (the initial user namespace's, name_is_root_s()) another dentry at
 * the same place means root replaced it, or its folder's owner did.  An
 * unnamed file has no place to compare: any file of its inode will do.
 */
static bool is_named_place(const struct path *const path,
			   const struct pfsel_app *const named)
{
	const char *const place = named->seen ?: named->exe;
	char *buf, *at;
	bool same;

	if (!place)
		return true;
	buf = __getname();
	if (!buf)
		return false;
	at = d_absolute_path(path, buf, PATH_MAX);
	same = !IS_ERR(at) && !strcmp(at, place);
	__putname(buf);
	return same;
}

/*
 * Tells whether @name, as the interpreter will look it up (from the
 * current directory and root), crosses no symbolic link, goes up no
 * folder, reads as no option (an interpreter takes "-I..." or "-x" for
 * one of its switches, and then runs other code: the old attack on
 * set-user-ID scripts), and is the file executed, at the place executed.
 */
static bool names_file_plainly(const char *const name,
			       const struct pfsel_app *const named)
{
	const struct inode *inode;
	struct path path;
	bool same;

	if (name[0] == '-' || goes_up(name))
		return false;
	if (kern_path(name, LOOKUP_NO_SYMLINKS | LOOKUP_NO_MAGICLINKS, &path))
		return false;
	inode = d_backing_inode(path.dentry);
	same = inode && inode->i_ino == named->ino &&
	       inode->i_sb->s_dev == named->dev && is_named_place(&path, named);
	path_put(&path);
	return same;
}

/**
 * pfsel_exec_shares_fs - Whether another task holds the exec'ing filesystem context
 *
 * @bprm: the execve() under way, in the calling task.
 *
 * check_unsafe_exec() counts only other processes sharing the fs_struct
 * (LSM_UNSAFE_SHARE); a thread of the caller holds it too until
 * de_thread(), which comes after the checks.  Either can chroot() or
 * chdir() between a check and the new program's first lookups.
 *
 * Return: true when some other task holds the caller's fs_struct.
 */
bool pfsel_exec_shares_fs(const struct linux_binprm *const bprm)
{
	struct fs_struct *const fs = current->fs;
	bool shared;

	if (bprm->unsafe & LSM_UNSAFE_SHARE)
		return true;
	spin_lock(&fs->lock);
	shared = fs->users != 1;
	spin_unlock(&fs->lock);
	return shared;
}

/*
 * Whether no one but root and the owners of its folders can make the
 * script's name lead elsewhere between execve() and the interpreter's
 * open of it.  The name was found plain (names_file_plainly()): no link,
 * no "..", from the process's root and current directory.  What it
 * leads to then depends on:
 *
 * - the mounts of the process's mount namespace.  A task of the initial
 *   user namespace is in one that only a task privileged there can
 *   change: one of a user's making is owned by a user namespace of the
 *   user's (and a task that enters that user namespace leaves the
 *   initial one; joining such a mount namespace from the initial user
 *   namespace needs CAP_SYS_ADMIN in it), and a user's mount namespaces
 *   are slaves of the ones they were copied from, so that nothing mounted
 *   there propagates back.  A user's FUSE mounts (fusermount3) go on
 *   folders the user may write, the next point's;
 * - the entries of the folders on the way, which their owners change: a
 *   folder on a script's way that the user's programs may write makes
 *   the script theirs to replace anyway (docs/THREAT-MODEL.md, "Not
 *   defended");
 * - the process's root and current directory: in the initial user
 *   namespace only root may chroot(), and the current directory, read
 *   by a relative name, is moved by another task holding the fs_struct
 *   (a clone(CLONE_FS) sibling, a thread until de_thread());
 * - for a relative name, the mounts and folders below the current
 *   directory, which need not be the process's own: fchdir() to a
 *   descriptor a task in a mount namespace of the user's sent, or chdir()
 *   through /proc/PID/cwd of such a task, puts it in a tree the user
 *   mounts and renames at will (adv_scriptfix_test).  path_is_under()
 *   says whether it is reached from the process's root through the
 *   process's own mounts; a mount of another namespace (or one detached
 *   by open_tree()) has a chain of parents that never meets them.
 *
 * In a user namespace other than the initial one (a sandbox's bwrap,
 * unshare, a rootless container) any of the process's own tasks may
 * mount over a folder on the way, or rename one of a tmpfs of its own,
 * and put a symbolic link there: the interpreter would open the user's
 * file under the script's name at another path, which hook_file_open()
 * cannot tell from any other open.  So there, and for a relative name
 * whose directory another task can move, the process is the interpreter
 * run by hand, without the script.
 */
static bool name_is_root_s(const struct linux_binprm *const bprm)
{
	struct path root, pwd;
	bool own;

	if (bprm->cred->user_ns != &init_user_ns)
		return false;
	if (bprm->filename[0] == '/')
		return true;
	if (pfsel_exec_shares_fs(bprm))
		return false;
	get_fs_root(current->fs, &root);
	get_fs_pwd(current->fs, &pwd);
	own = path_is_under(&pwd, &root);
	path_put(&pwd);
	path_put(&root);
	return own;
}

static void set_cred_app(const struct cred *const cred,
			 struct pfsel_app *const app)
{
	struct pfsel_cred_security *const cs = pfsel_cred(cred);

	pfsel_app_put(cs->app);
	cs->app = app;
}

/*
 * The file named in execve(): the executable, unless a binary handler
 * turns out to run it through an interpreter.  Whether root's code runs
 * it is the caller's to say, as it is now: the new program starts afresh,
 * root only if its credentials are root's (a set-user-ID-root program is
 * not, until it makes itself root in full).
 *
 * Named now, whether or not a policy is loaded, though most processes
 * never ask for a decision: the name is what init's lookup finds now,
 * with these credentials, and a lookup made later can find otherwise (a
 * rename over the file, a chmod of a folder on the way, another LSM's
 * policy reload).  The kernel's counts of renames and mounts could only
 * say that it may, nothing counts the others, and either way the name
 * the file had at exec would be lost (docs/kernel-interface.md, "Why at
 * exec, policy or none").
 */
static int identify_file(struct linux_binprm *const bprm)
{
	struct pfsel_app *app;
	char *exe, *seen;
	int err;

	err = name_file(bprm->file, &exe, &seen);
	if (err)
		return err;
	app = pfsel_app_alloc();
	if (!app) {
		kfree(exe);
		kfree(seen);
		return -ENOMEM;
	}
	app->exe = exe;
	app->seen = seen;
	app->ino = file_inode(bprm->file)->i_ino;
	app->dev = file_inode(bprm->file)->i_sb->s_dev;
	app->root_started = pfsel_cred_root_since_exec(current_cred());
	set_cred_app(bprm->cred, app);
	pfsel_cred(bprm->cred)->was_root = false;
	return 0;
}

/*
 * The file the new program runs from.  A handler that ran the named file
 * through an interpreter ("#!", binfmt_misc) changed bprm->interp: then
 * the interpreter is the executable and the named file the script.  With
 * binfmt_misc's credential flag ("C") the file that the credentials come
 * from is the named file, but what runs is still the interpreter,
 * bprm->file.
 */
static int identify_script(struct linux_binprm *const bprm)
{
	struct pfsel_app *const first = pfsel_cred(bprm->cred)->app;
	struct pfsel_app *app;
	char *exe, *script = NULL, *seen = NULL;
	bool has_script = true;
	int err;

	if (bprm->interp == bprm->filename || !first)
		return 0;

	err = name_file(bprm->file, &exe, NULL);
	if (err)
		return err;
	/*
	 * The interpreter is handed the name: it must lead to the file
	 * executed, and nowhere else.  binfmt_misc's "O" and "C" flags pass
	 * an open descriptor of the file too (have_execfd), but still the
	 * name as an argument, which perl or bash open (and read as their
	 * options) without looking at the descriptor.
	 */
	if (!names_file_plainly(bprm->filename, first) ||
	    !name_is_root_s(bprm))
		has_script = false;
	if (first->exe && has_script) {
		script = kstrdup(first->exe, GFP_KERNEL_ACCOUNT);
		/* The interpreter opens the name it was given, not init's. */
		if (script && first->seen)
			seen = kstrdup(first->seen, GFP_KERNEL_ACCOUNT);
		if (!script || (first->seen && !seen)) {
			kfree(exe);
			kfree(script);
			return -ENOMEM;
		}
	}
	app = pfsel_app_alloc();
	if (!app) {
		kfree(exe);
		kfree(script);
		kfree(seen);
		return -ENOMEM;
	}
	app->exe = exe;
	app->script = script;
	app->seen = seen;
	app->has_script = has_script;
	app->ino = first->ino;
	app->dev = first->dev;
	app->root_started = first->root_started;
	/* Until the interpreter opened the file by its name, it is watched. */
	app->script_opened = !script;
	set_cred_app(bprm->cred, app);
	return 0;
}

static int hook_bprm_creds_for_exec(struct linux_binprm *const bprm)
{
	const u64 start = pfsel_hook_enter();
	const int err = identify_file(bprm);

	pfsel_hook_exit(PFSEL_HOOK_BPRM_CREDS_FOR_EXEC, start);
	return err;
}

/*
 * The identity is final once the handler found what runs: only then can
 * a policy say whether the application is protected.
 */
static int hook_bprm_creds_from_file(struct linux_binprm *const bprm,
				     const struct file *const file)
{
	const u64 start = pfsel_hook_enter();
	int err = identify_script(bprm);

	if (!err)
		err = pfsel_protect_exec(bprm, pfsel_cred(bprm->cred)->app);
	pfsel_hook_exit(PFSEL_HOOK_BPRM_CREDS_FROM_FILE, start);
	return err;
}

/* An open refused for the script's sake: audited, though no policy made it. */
static int refuse_script_path(void)
{
	const struct pfsel_subject subject = pfsel_current_subject();
	const struct pfsel_refused refused = {
		.what = PFSEL_REFUSED_SCRIPT_PATH,
		.op = "open",
		.slot = PFSEL_SLOT_COUNT,
	};

	pfsel_audit_refusal(&subject, &refused);
	return -EACCES;
}

/*
 * The interpreter opens its script by name.  The first open that finds
 * the file executed settles it; an open before that of another file at
 * the script's path means the name was made to lead elsewhere since exec
 * (a mount over it in the process's own mount namespace): refused, or the
 * other file would run as the script.  The path compared is the one the
 * process's namespace showed at exec (@seen when init names the script
 * otherwise), as the opened file's path is.  The refusal's record names
 * the script (init's name): every script identity is watched so.
 */
static int check_script_open(struct file *const file)
{
	struct pfsel_app *const app = pfsel_cred(current_cred())->app;
	const struct inode *const inode = file_inode(file);
	char *buf, *path;
	bool refused;

	if (likely(!app || READ_ONCE(app->script_opened)))
		return 0;
	if (!S_ISREG(inode->i_mode))
		return 0;
	if (inode->i_ino == app->ino && inode->i_sb->s_dev == app->dev) {
		WRITE_ONCE(app->script_opened, true);
		return 0;
	}
	buf = __getname();
	if (!buf)
		return -ENOMEM;
	path = d_absolute_path(&file->f_path, buf, PATH_MAX);
	refused = !IS_ERR(path) && !strcmp(path, app->seen ?: app->script);
	__putname(buf);
	return refused ? refuse_script_path() : 0;
}

static int hook_file_open(struct file *const file)
{
	const u64 start = pfsel_hook_enter();
	const int err = check_script_open(file);

	pfsel_hook_exit(PFSEL_HOOK_FILE_OPEN, start);
	return err;
}

/*
 * Before the new credentials are installed and while execve() still
 * excludes tracers: a protected process is made non-dumpable.
 */
static void hook_bprm_committing_creds(const struct linux_binprm *const bprm)
{
	const u64 start = pfsel_hook_enter();

	pfsel_protect_commit(pfsel_cred(bprm->cred)->app);
	pfsel_hook_exit(PFSEL_HOOK_BPRM_COMMITTING_CREDS, start);
}

static struct security_hook_list pfsel_exec_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(bprm_creds_for_exec, hook_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_creds_from_file, hook_bprm_creds_from_file),
	LSM_HOOK_INIT(bprm_committing_creds, hook_bprm_committing_creds),
	LSM_HOOK_INIT(file_open, hook_file_open),
};

__init void pfsel_add_exec_hooks(void)
{
	security_add_hooks(pfsel_exec_hooks, ARRAY_SIZE(pfsel_exec_hooks),
			   &pfsel_lsmid);
}
