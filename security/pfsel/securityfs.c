// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - securityfs interface
 *
 * /sys/kernel/security/pfsel/ holds (docs/kernel-interface.md):
 *   status   - ABI version, global mode, what is loaded
 *   enforce  - the global mode: 1 enforcing, 0 permissive
 *   load     - write a compiled policy, in one write()
 *   unload   - write "system" or a uid
 *   forget   - write a uid: forget its session answers (logout)
 *   policies - one line per loaded policy
 *   hooks    - one "NAME CALLS NANOSECONDS" line per hook
 *   hook_timing - 1 while the hooks time themselves, else 0
 *   ask_stats - questions to agents, and what became of them
 *   check    - what the policies in force would decide (check.c)
 *   hosts    - the host names learned in the reader's network namespace
 *   hosts_stats - how that namespace's host names were learned (netns.c)
 *   avc/     - the access vector cache (securityfs_avc.c)
 *
 * Rights are those of whoever opened a file (file->f_cred), not of whoever
 * writes to it, so that a descriptor handed to a less privileged process
 * does not lend it more than its opener had, and the reverse.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <uapi/linux/pfsel.h>
#include <uapi/linux/pfsel_policy.h>

#include "admin.h"
#include "answers.h"
#include "ask.h"
#include "avc.h"
#include "change.h"
#include "check.h"
#include "common.h"
#include "decide.h"
#include "names.h"
#include "netns.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"

static int status_show(struct seq_file *const m, void *const v)
{
	unsigned long users;
	u32 generation;
	bool system;

	pfsel_policy_counts(&system, &users, &generation);
	seq_printf(m, "version: %d\n", PFSEL_ABI_VERSION);
	seq_printf(m, "mode: %s\n",
		   pfsel_mode_names[pfsel_enforcing() ? PFSEL_MODE_ENFORCING :
							PFSEL_MODE_PERMISSIVE]);
	seq_printf(m, "system: %s\n", system ? "loaded" : "none");
	seq_printf(m, "users: %lu\n", users);
	seq_printf(m, "generation: %u\n", generation);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static int hooks_show(struct seq_file *const m, void *const v)
{
	enum pfsel_hook hook;

	for (hook = 0; hook < PFSEL_HOOK_COUNT; hook++)
		seq_printf(m, "%s %llu %llu\n", pfsel_hook_name(hook),
			   pfsel_hook_calls(hook), pfsel_hook_ns(hook));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hooks);

static int ask_stats_show(struct seq_file *const m, void *const v)
{
	pfsel_ask_show_stats(m);
	return 0;
}

/*
 * Pending questions tell a program when another's question is on the
 * person's screen: the administrator's to read, no one else's.
 */
static int ask_stats_open(struct inode *const inode, struct file *const file)
{
	if (!pfsel_may_admin(file->f_cred))
		return -EPERM;
	return single_open(file, ask_stats_show, inode->i_private);
}

static const struct file_operations ask_stats_fops = {
	.open = ask_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int policies_show(struct seq_file *const m, void *const v)
{
	pfsel_policy_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(policies);

/*
 * Copies a short text write (a number or a word) into @buf, NUL-terminated,
 * without its trailing newline.
 */
static int read_word(const char __user *const ubuf, const size_t count,
		     loff_t *const ppos, char *const buf, const size_t size)
{
	if (*ppos != 0 || count == 0 || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[count - 1] = '\0';
	return 0;
}

/*
 * Files that switch something on or off (enforce, hook_timing) read "1\n"
 * or "0\n" and take "1" or "0" from an administrator.
 */
static ssize_t switch_read(char __user *const ubuf, const size_t count,
			   loff_t *const ppos, const bool on)
{
	char buf[4];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", on);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static int switch_write(const struct file *const file,
			const char __user *const ubuf, const size_t count,
			loff_t *const ppos, bool *const on)
{
	char buf[8];
	int err;

	/* The change is the file's name: "enforce", "hook_timing". */
	if (!pfsel_may_admin(file->f_cred))
		return pfsel_admin_refuse(file->f_path.dentry->d_name.name,
					  PFSEL_SLOT_COUNT, GLOBAL_ROOT_UID);
	err = read_word(ubuf, count, ppos, buf, sizeof(buf));
	if (err)
		return err;
	if (strcmp(buf, "0") && strcmp(buf, "1"))
		return -EINVAL;
	*on = buf[0] == '1';
	return 0;
}

static ssize_t enforce_read(struct file *const file, char __user *const ubuf,
			    const size_t count, loff_t *const ppos)
{
	return switch_read(ubuf, count, ppos, pfsel_enforcing());
}

static ssize_t enforce_write(struct file *const file,
			     const char __user *const ubuf, const size_t count,
			     loff_t *const ppos)
{
	bool on;
	int err = switch_write(file, ubuf, count, ppos, &on);

	if (err)
		return err;
	pfsel_set_enforcing(on);
	return count;
}

static const struct file_operations enforce_fops = {
	.read = enforce_read,
	.write = enforce_write,
	.llseek = generic_file_llseek,
};

static ssize_t hook_timing_read(struct file *const file,
				char __user *const ubuf, const size_t count,
				loff_t *const ppos)
{
	return switch_read(ubuf, count, ppos, pfsel_hook_timing_enabled());
}

/* Timing costs every hooked call two clock reads: an administrator's call. */
static ssize_t hook_timing_write(struct file *const file,
				 const char __user *const ubuf,
				 const size_t count, loff_t *const ppos)
{
	bool on;
	int err = switch_write(file, ubuf, count, ppos, &on);

	if (err)
		return err;
	pfsel_set_hook_timing(on);
	return count;
}

static const struct file_operations hook_timing_fops = {
	.read = hook_timing_read,
	.write = hook_timing_write,
	.llseek = generic_file_llseek,
};

/* One load at a time: at most one policy's copy in memory from writers. */
static DEFINE_MUTEX(pfsel_load_mutex);

/*
 * Reads the header a load names its target in, and checks the opener's
 * right to that target before anything larger is copied: a user who may
 * not load makes the kernel allocate nothing.  An administrator's
 * malformed blob gets the policy reader's own error.  The copy that counts is
 * checked again once it can no longer change (pfsel_policy_load()).
 */
static int check_load_header(const struct file *const file,
			     const char __user *const ubuf, const size_t count)
{
	struct pfsel_policy_header hdr;
	enum pfsel_policy_slot slot = PFSEL_SLOT_USER;
	kuid_t uid;

	if (count < sizeof(hdr))
		return -EINVAL;
	if (copy_from_user(&hdr, ubuf, sizeof(hdr)))
		return -EFAULT;
	/*
	 * Whatever else is wrong with the header, the policy reader says,
	 * once the writer is known to have the right.
	 */
	uid = make_kuid(&init_user_ns, le32_to_cpu(hdr.uid));
	if (le32_to_cpu(hdr.flags) & PFSEL_POLICY_F_SYSTEM) {
		slot = PFSEL_SLOT_SYSTEM;
		uid = GLOBAL_ROOT_UID;
	}
	if (!uid_valid(uid))
		return pfsel_may_admin(file->f_cred) ?
			       0 :
			       pfsel_admin_refuse("load", PFSEL_SLOT_COUNT, uid);
	return pfsel_policy_may_load(file->f_cred, slot, uid) ?
		       0 :
		       pfsel_admin_refuse("load", slot, uid);
}

static ssize_t load_write(struct file *const file,
			  const char __user *const ubuf, const size_t count,
			  loff_t *const ppos)
{
	void *blob;
	int err;

	/* A policy is validated whole: it must come in one piece. */
	if (*ppos != 0 || count == 0)
		return -EINVAL;
	if (count > PFSEL_POLICY_MAX_SIZE)
		return -E2BIG;
	err = check_load_header(file, ubuf, count);
	if (err)
		return err;

	if (mutex_lock_killable(&pfsel_load_mutex))
		return -EINTR;
	/*
	 * Charged to the writer; the policy database keeps this one copy.
	 * A blob the writer's memory cgroup (or the machine) has no room
	 * for is refused with ENOMEM: neither the OOM killer nor a warning
	 * pays for it.
	 */
	blob = kvmalloc(count,
			GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!blob) {
		err = -ENOMEM;
	} else if (copy_from_user(blob, ubuf, count)) {
		kvfree(blob);
		err = -EFAULT;
	} else {
		err = pfsel_policy_load(file->f_cred, blob, count);
	}
	mutex_unlock(&pfsel_load_mutex);
	return err ?: count;
}

static const struct file_operations load_fops = {
	.write = load_write,
	.llseek = noop_llseek,
};

/* A uid of the initial user namespace, written in decimal. */
static int parse_uid(const char *const word, kuid_t *const uid)
{
	u32 value;

	if (kstrtou32(word, 10, &value))
		return -EINVAL;
	*uid = make_kuid(&init_user_ns, value);
	return uid_valid(*uid) ? 0 : -EINVAL;
}

static ssize_t unload_write(struct file *const file,
			    const char __user *const ubuf, const size_t count,
			    loff_t *const ppos)
{
	enum pfsel_policy_slot slot = PFSEL_SLOT_SYSTEM;
	kuid_t uid = GLOBAL_ROOT_UID;
	char buf[16];
	int err;

	err = read_word(ubuf, count, ppos, buf, sizeof(buf));
	if (err)
		return err;
	if (strcmp(buf, pfsel_slot_names[PFSEL_SLOT_SYSTEM])) {
		slot = PFSEL_SLOT_USER;
		err = parse_uid(buf, &uid);
		if (err)
			return err;
	}
	err = pfsel_policy_unload(file->f_cred, slot, uid);
	return err ?: count;
}

static const struct file_operations unload_fops = {
	.write = unload_write,
	.llseek = noop_llseek,
};

/* The end of a user's last session: its session answers go. */
static ssize_t forget_write(struct file *const file,
			    const char __user *const ubuf, const size_t count,
			    loff_t *const ppos)
{
	char buf[16];
	kuid_t uid;
	int err;

	err = read_word(ubuf, count, ppos, buf, sizeof(buf));
	if (!err)
		err = parse_uid(buf, &uid);
	if (err)
		return err;
	/* A user's program must not wipe the answers that restrain it. */
	if (!pfsel_may_admin(file->f_cred))
		return pfsel_admin_refuse("forget", PFSEL_SLOT_USER, uid);
	pfsel_answers_forget(uid);
	return count;
}

static const struct file_operations forget_fops = {
	.write = forget_write,
	.llseek = noop_llseek,
};

static int __init pfsel_securityfs_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "status", 0444, &status_fops },
		{ "enforce", 0644, &enforce_fops },
		/*
		 * Anyone may try, and gets EPERM: the opener's rights are
		 * checked per write (the agent channel loads as its user).
		 */
		{ "load", 0666, &load_fops },
		{ "unload", 0666, &unload_fops },
		{ "forget", 0666, &forget_fops },
		{ "policies", 0444, &policies_fops },
		{ "hooks", 0444, &hooks_fops },
		{ "hook_timing", 0644, &hook_timing_fops },
		{ "ask_stats", 0444, &ask_stats_fops },
		/* A question about one's own policy is anyone's to ask. */
		{ "check", 0666, &pfsel_check_fops },
		{ "hosts", 0400, &pfsel_net_hosts_fops },
		{ "hosts_stats", 0444, &pfsel_net_hosts_stats_fops },
	};
	struct dentry *dir, *file;
	size_t i;

	if (!pfsel_initialized)
		return 0;

	dir = securityfs_create_dir(PFSEL_NAME, NULL);
	if (IS_ERR(dir))
		goto err;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		file = securityfs_create_file(files[i].name, files[i].mode, dir,
					      NULL, files[i].fops);
		if (IS_ERR(file))
			goto err_remove;
	}
	if (pfsel_avc_securityfs_init(dir))
		goto err_remove;

	return 0;

err_remove:
	securityfs_recursive_remove(dir);
err:
	pr_err("Failed to create the securityfs interface.\n");
	return 0;
}

/* securityfs itself is ready at core_initcall. */
fs_initcall(pfsel_securityfs_init);
