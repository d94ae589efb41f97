// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - securityfs files of the access vector cache
 *
 * avc/cache_stats (0444) - a header line naming the counters, then one
 *	line of their totals over every CPU.
 * avc/cache_threshold (0644) - the number of decisions the cache keeps
 *	before it reclaims; writing a number from 1 to 65536 changes it.
 *
 * Changing the threshold trades kernel memory for speed on the whole
 * system, so it takes CAP_MAC_ADMIN in the initial user namespace
 * (pfsel_may_admin(); a refusal is audited).  It is judged on the
 * credentials of whoever opened the file: otherwise an unprivileged
 * process could open it and hand the descriptor to a privileged one (a
 * set-uid program's standard output, say) to write to.
 */

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>

#include "admin.h"
#include "avc.h"
#include "common.h"

static int cache_stats_show(struct seq_file *const m, void *const v)
{
	struct pfsel_avc_stats sum;

	pfsel_avc_stats_sum(&sum);
	seq_puts(m, "lookups hits misses allocations reclaims frees\n");
	seq_printf(m, "%llu %llu %llu %llu %llu %llu\n", sum.lookups, sum.hits,
		   sum.misses, sum.allocations, sum.reclaims, sum.frees);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(cache_stats);

static ssize_t cache_threshold_read(struct file *const file,
				    char __user *const buf, const size_t count,
				    loff_t *const ppos)
{
	char tmp[16];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "%u\n", pfsel_avc_threshold());
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static ssize_t cache_threshold_write(struct file *const file,
				     const char __user *const buf,
				     const size_t count, loff_t *const ppos)
{
	/* "65536\n" and a NUL, with room for a few leading zeros. */
	char tmp[16];
	unsigned int threshold;

	if (!pfsel_may_admin(file->f_cred))
		return pfsel_admin_refuse("cache_threshold", PFSEL_SLOT_COUNT,
					  GLOBAL_ROOT_UID);

	/*
	 * One write carries the whole number: a number split over writes, or
	 * one too long for the buffer, would be parsed from a part of it.
	 */
	if (*ppos != 0 || count == 0 || count >= sizeof(tmp))
		return -EINVAL;
	if (copy_from_user(tmp, buf, count))
		return -EFAULT;
	tmp[count] = '\0';

	/* kstrtouint() accepts one trailing newline and nothing else. */
	if (kstrtouint(tmp, 10, &threshold))
		return -EINVAL;
	if (pfsel_avc_set_threshold(threshold))
		return -EINVAL;
	return count;
}

static const struct file_operations cache_threshold_fops = {
	.read = cache_threshold_read,
	.write = cache_threshold_write,
	.llseek = generic_file_llseek,
};

/**
 * pfsel_avc_securityfs_init - Create the AVC's securityfs files
 *
 * @parent: pfsel's securityfs directory.
 *
 * Creates @parent/avc/cache_stats and @parent/avc/cache_threshold.  On
 * failure nothing is left behind; the caller decides what to do with the
 * rest of its directory.
 *
 * Return: 0 or a negative errno.
 */
int __init pfsel_avc_securityfs_init(struct dentry *const parent)
{
	struct dentry *dir, *file;
	int err;

	dir = securityfs_create_dir("avc", parent);
	if (IS_ERR(dir))
		return PTR_ERR(dir);

	file = securityfs_create_file("cache_stats", 0444, dir, NULL,
				      &cache_stats_fops);
	if (IS_ERR(file))
		goto err_remove;

	file = securityfs_create_file("cache_threshold", 0644, dir, NULL,
				      &cache_threshold_fops);
	if (IS_ERR(file))
		goto err_remove;

	return 0;

err_remove:
	err = PTR_ERR(file);
	securityfs_recursive_remove(dir);
	return err;
}
