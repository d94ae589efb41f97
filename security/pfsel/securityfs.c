// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - securityfs interface
 *
 * /sys/kernel/security/pfsel/ holds:
 *   status - "version: N" (PFSEL_ABI_VERSION) and "mode: NAME"
 *   hooks  - one "NAME CALLS" line per hook, summed over CPUs
 *
 * Every file is world-readable and writable by nobody: nothing here is
 * secret, and nothing here may be changed yet.
 */

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <uapi/linux/pfsel.h>

#include "common.h"
#include "setup.h"
#include "stats.h"

static int status_show(struct seq_file *const m, void *const v)
{
	seq_printf(m, "version: %d\n", PFSEL_ABI_VERSION);
	seq_puts(m, "mode: enforcing\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(status);

static int hooks_show(struct seq_file *const m, void *const v)
{
	enum pfsel_hook hook;

	for (hook = 0; hook < PFSEL_HOOK_COUNT; hook++)
		seq_printf(m, "%s %llu\n", pfsel_hook_name(hook),
			   pfsel_hook_calls(hook));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hooks);

static int __init pfsel_securityfs_init(void)
{
	struct dentry *dir, *file;

	if (!pfsel_initialized)
		return 0;

	dir = securityfs_create_dir(PFSEL_NAME, NULL);
	if (IS_ERR(dir))
		goto err;

	file = securityfs_create_file("status", 0444, dir, NULL,
				      &status_fops);
	if (IS_ERR(file))
		goto err_remove;

	file = securityfs_create_file("hooks", 0444, dir, NULL, &hooks_fops);
	if (IS_ERR(file))
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
