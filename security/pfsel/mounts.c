// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Where init's mount tree reaches a file
 *
 * An application is named by a path from init's root (exec.c).  A process
 * in a mount namespace of its own may run a file that init reaches at
 * another path than the one the process used: a Flatpak runs /app/bin/APP,
 * a bind mount of /var/lib/flatpak/app/ID/ARCH/BRANCH/COMMIT/files; a snap
 * runs programs of a squashfs that init mounts at /snap/NAME/REV, at other
 * places of snap-confine's namespace.  Such a file is named here by where
 * init's own mounts of its file system reach it.
 *
 * The proof is the lookup, as for every name: a path counts only if,
 * looked up from init's root, it leads to the very dentry executed.  What
 * proposes the path may therefore be out of date without ever giving a
 * wrong name: a stale proposal fails the lookup, and the file is unnamed.
 * The proposals come from a table of init's mounts: for each, the device
 * of its file system, the folder of that file system it shows (its root:
 * "/" for the whole), and its place in init's tree.  A file below a
 * mount's root, on its device, is proposed at that place followed by the
 * rest of the file's path in its file system.
 *
 * The table is a copy: collect_mounts() copies init's tree (it copies only
 * the caller's own namespace's, so a worker thread, which lives in the
 * initial namespaces as every kernel thread does, asks for it), the table
 * is read off the copy, and the copy is dropped at once, so that no file
 * system is held mounted by pfsel.  The table is made again when init's
 * tree may have changed: pfsel's mount hooks count the changes that a task
 * privileged in the initial user namespace makes.  Only those can reach
 * init's tree: a namespace owned by another user namespace holds slaves of
 * init's mounts and propagates nothing back, so an unprivileged user's
 * mounts cost nobody a new table.  What passes no hook (an automount) and
 * a change whose hook ran before the table was copied but whose mount was
 * made after are caught by a second chance: a file that the table does
 * not name has the table copied again, at most once per
 * PFSEL_MOUNTS_RETRY_SECONDS, so a user who runs unnamed files in a loop
 * costs at most one copy of init's tree a second.
 *
 * The order of the proposals is the name's: several of init's mounts may
 * reach a file (a folder bound elsewhere, the same file system mounted
 * twice), and the name is the first proposal that proves, in this order:
 * the mount whose root is nearest the file system's root first (the
 * bind's source before the bind: a Flatpak is named under
 * /var/lib/flatpak, not at a folder an administrator bound it to), then
 * the shorter place, then the first place in byte order.
 */

#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/lsm_hooks.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "app.h"
#include "cache_limits.h"
#include "mounts.h"
#include "setup.h"

/**
 * struct init_mount - One of init's mounts, as strings
 *
 * @dev: the device of its file system (s_dev, unique among mounted file
 *       systems; one that is reused after an unmount only proposes a path
 *       that fails the proof).
 * @root_len: strlen(@root).
 * @path_len: strlen(@path).
 * @root: the folder of the file system that the mount shows, as a path
 *        from the file system's root ("/" for the whole).
 * @path: where init's tree has the mount, from init's root.
 *
 * Strings, not the mount's dentries: the table holds no reference that
 * could keep a file system alive, and compares no pointer to one it does
 * not hold.
 */
struct init_mount {
	dev_t dev;
	u32 root_len;
	u32 path_len;
	const char *root;
	const char *path;
};

/**
 * struct init_mounts - A table of init's mounts
 *
 * @usage: references: the published table's, and each reader's.
 * @rcu: frees the table once no reader can have found it.
 * @changes: the count of mount changes (init_mounts_changes) read before
 *           the tree was copied.
 * @made: when it was made (jiffies).
 * @count: the mounts in @mounts.
 * @mounts: sorted by device, then in the order of the proposals.
 */
struct init_mounts {
	refcount_t usage;
	struct rcu_head rcu;
	u64 changes;
	unsigned long made;
	u32 count;
	struct init_mount mounts[] __counted_by(count);
};

static atomic64_t init_mounts_changes = ATOMIC64_INIT(0);
static struct init_mounts __rcu *init_mounts;
/* One copy of init's tree at a time. */
static DEFINE_MUTEX(init_mounts_lock);

static void free_mounts(struct init_mounts *const table)
{
	u32 i;

	for (i = 0; i < table->count; i++) {
		kfree(table->mounts[i].root);
		kfree(table->mounts[i].path);
	}
	kvfree(table);
}

static void free_mounts_rcu(struct rcu_head *const head)
{
	free_mounts(container_of(head, struct init_mounts, rcu));
}

static void put_mounts(struct init_mounts *const table)
{
	if (table && refcount_dec_and_test(&table->usage))
		call_rcu(&table->rcu, free_mounts_rcu);
}

/*
 * The order of the proposals (see the top of the file), after the device:
 * the roots of the mounts that reach one file are that file's folders, and
 * the shorter of two is the nearer the file system's root.
 */
static int compare_mounts(const void *const left, const void *const right)
{
	const struct init_mount *const a = left, *const b = right;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->root_len != b->root_len)
		return a->root_len < b->root_len ? -1 : 1;
	if (a->path_len != b->path_len)
		return a->path_len < b->path_len ? -1 : 1;
	return strcmp(a->path, b->path);
}

static int count_mount(struct vfsmount *const mnt, void *const count)
{
	(*(u32 *)count)++;
	return 0;
}

struct mounts_fill {
	struct init_mounts *table;
	u32 used;
	struct path root;
	char *buf;
};

/*
 * Adds @mnt, a mount of the copy of init's tree, to the table: the copy
 * has init's mounts at init's places, so its path in the copy is its path
 * from init's root.  A mount of a deleted folder reaches nothing by name,
 * and one too deep to write has no path: neither is added.
 */
static int add_mount(struct vfsmount *const mnt, void *const data)
{
	struct mounts_fill *const fill = data;
	const struct path where = { .mnt = mnt, .dentry = mnt->mnt_root };
	struct init_mount *m;
	char *path, *root;

	/* count_mount() counted the same copy: never full. */
	if (WARN_ON_ONCE(fill->used == fill->table->count))
		return -EOVERFLOW;
	if (d_unlinked(mnt->mnt_root))
		return 0;
	root = dentry_path_raw(mnt->mnt_root, fill->buf, PATH_MAX);
	if (IS_ERR(root))
		return 0;
	m = &fill->table->mounts[fill->used];
	m->root = kstrdup(root, GFP_KERNEL);
	if (!m->root)
		return -ENOMEM;
	path = __d_path(&where, &fill->root, fill->buf, PATH_MAX);
	if (IS_ERR_OR_NULL(path)) {
		kfree(m->root);
		m->root = NULL;
		return 0;
	}
	m->path = kstrdup(path, GFP_KERNEL);
	if (!m->path)
		return -ENOMEM;
	m->root_len = strlen(m->root);
	m->path_len = strlen(m->path);
	m->dev = mnt->mnt_sb->s_dev;
	fill->used++;
	return 0;
}

/* The mounts of @tree, the copy of init's tree, as a table; NULL on error. */
static struct init_mounts *read_mounts(struct vfsmount *const tree)
{
	struct mounts_fill fill = {
		.root = { .mnt = tree, .dentry = tree->mnt_root },
	};
	struct init_mounts *table;
	u32 count = 0;
	int err = -ENOMEM;

	iterate_mounts(count_mount, &count, tree);
	table = kvzalloc(struct_size(table, mounts, count), GFP_KERNEL);
	if (!table)
		return NULL;
	table->count = count;
	fill.table = table;
	fill.buf = __getname();
	if (fill.buf) {
		err = iterate_mounts(add_mount, &fill, tree);
		__putname(fill.buf);
	}
	if (err) {
		/* Every string set is below count: free_mounts() frees it. */
		free_mounts(table);
		return NULL;
	}
	table->count = fill.used;
	sort(table->mounts, table->count, sizeof(table->mounts[0]),
	     compare_mounts, NULL);
	return table;
}

struct mounts_work {
	struct work_struct work;
	struct init_mounts *table;
};

/*
 * In a worker thread, whose mount namespace is the initial one: init's,
 * unless init left it, and then collect_mounts() refuses and there is no
 * table (every file that its own path does not name is unnamed).
 */
static void copy_init_mounts(struct work_struct *const work)
{
	struct mounts_work *const w =
		container_of(work, struct mounts_work, work);
	struct vfsmount *tree;
	struct path root;

	if (!pfsel_init_root(&root))
		return;
	tree = collect_mounts(&root);
	path_put(&root);
	if (IS_ERR(tree))
		return;
	w->table = read_mounts(tree);
	drop_collected_mounts(tree);
}

/*
 * A new table of init's mounts, with one reference; empty when the tree
 * could not be read (it is made again as a stale one is); NULL without
 * memory.
 */
static struct init_mounts *make_mounts(void)
{
	/* Read first: a change during the copy makes the next exec copy. */
	const u64 changes = atomic64_read(&init_mounts_changes);
	struct mounts_work w = {};

	INIT_WORK_ONSTACK(&w.work, copy_init_mounts);
	queue_work(system_unbound_wq, &w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	if (!w.table)
		w.table = kzalloc(sizeof(*w.table), GFP_KERNEL);
	if (!w.table)
		return NULL;
	refcount_set(&w.table->usage, 1);
	w.table->changes = changes;
	w.table->made = jiffies;
	return w.table;
}

/*
 * Whether @table is as new as it needs to be: no mount change counted
 * since it was made; and, for the second chance of a file it did not
 * name, made less than PFSEL_MOUNTS_RETRY_SECONDS ago.
 */
static bool mounts_fresh(const struct init_mounts *const table,
			 const bool after_miss)
{
	if (table->changes != (u64)atomic64_read(&init_mounts_changes))
		return false;
	return !after_miss ||
	       time_before(jiffies,
			   table->made + PFSEL_MOUNTS_RETRY_SECONDS * HZ);
}

/* The table, made again unless fresh; with a reference; NULL if none. */
static struct init_mounts *get_mounts(const bool after_miss)
{
	struct init_mounts *table, *made;

	rcu_read_lock();
	table = rcu_dereference(init_mounts);
	if (table && !refcount_inc_not_zero(&table->usage))
		table = NULL;
	rcu_read_unlock();
	if (table && mounts_fresh(table, after_miss))
		return table;
	put_mounts(table);

	mutex_lock(&init_mounts_lock);
	table = rcu_dereference_protected(init_mounts,
					  lockdep_is_held(&init_mounts_lock));
	/* Made again while this task waited for the lock? */
	if (!table || !mounts_fresh(table, after_miss)) {
		made = make_mounts();
		if (made) {
			rcu_assign_pointer(init_mounts, made);
			put_mounts(table);
			table = made;
		}
	}
	if (table)
		refcount_inc(&table->usage);
	mutex_unlock(&init_mounts_lock);
	return table;
}

/*
 * The rest of @path, a path in a file system, below the folder @root of
 * @root_len bytes, from the "/" that follows it ("" for @root itself); or
 * NULL when @path is not below @root.
 */
static const char *below_root(const char *const path, const char *const root,
			      const u32 root_len)
{
	if (root_len == 1) /* "/", the whole file system. */
		return path;
	if (strncmp(path, root, root_len))
		return NULL;
	if (path[root_len] != '/' && path[root_len])
		return NULL;
	return path + root_len;
}

/* @place followed by @rest, in @buf of PATH_MAX bytes; false if too long. */
static bool join_path(char *const buf, const char *place,
		      const char *const rest)
{
	if (!strcmp(place, "/") && *rest)
		place = "";
	return snprintf(buf, PATH_MAX, "%s%s", place, rest) < PATH_MAX;
}

/* The first of @table's mounts of the device @dev. */
static u32 first_of_device(const struct init_mounts *const table,
			   const dev_t dev)
{
	u32 low = 0, high = table->count;

	while (low < high) {
		const u32 mid = low + (high - low) / 2;

		if (table->mounts[mid].dev < dev)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

/*
 * The proof: @name, looked up from init's root @root, leads to @dentry
 * itself, crossing no symbolic link (the table's places and a file's path
 * in its file system hold none, so a link on the way is a change since).
 */
static bool reaches(const struct path *const root, const char *const name,
		    const struct dentry *const dentry)
{
	struct path found;
	bool same;

	if (vfs_path_lookup(root->dentry, root->mnt, name,
			    LOOKUP_NO_SYMLINKS | LOOKUP_NO_MAGICLINKS, &found))
		return false;
	same = found.dentry == dentry;
	path_put(&found);
	return same;
}

/*
 * Sets *@name to the first of @table's proposals for @dentry (whose path
 * in its file system is @in_fs) that proves, or leaves it NULL.  @buf is
 * PATH_MAX bytes to write the proposals in.
 */
static int name_through(const struct init_mounts *const table,
			const struct dentry *const dentry,
			const char *const in_fs, const struct path *const root,
			char *const buf, char **const name)
{
	const dev_t dev = dentry->d_sb->s_dev;
	const char *rest;
	u32 i;

	for (i = first_of_device(table, dev);
	     i < table->count && table->mounts[i].dev == dev; i++) {
		const struct init_mount *const m = &table->mounts[i];

		rest = below_root(in_fs, m->root, m->root_len);
		if (!rest || !join_path(buf, m->path, rest))
			continue;
		if (reaches(root, buf, dentry)) {
			*name = kstrdup(buf, GFP_KERNEL_ACCOUNT);
			return *name ? 0 : -ENOMEM;
		}
	}
	return 0;
}

/**
 * pfsel_mounts_name - The name init's mounts give a file
 *
 * @file: the file executed.
 * @name: set to the name, which the caller kfree()s, or to NULL when none
 *        of init's mounts reaches @file by a path that leads to it.
 *
 * For a file whose own path does not name it from init's root (exec.c):
 * it costs a search of the table, and a lookup from init's root for each
 * mount that may reach the file; the first time after a mount change, or
 * when no mount reaches the file, a copy of init's tree (see the top of
 * the file).
 *
 * Return: 0, or -ENOMEM.
 */
int pfsel_mounts_name(const struct file *const file, char **const name)
{
	const struct dentry *const dentry = file->f_path.dentry;
	struct init_mounts *table;
	char *in_fs, *proposal, *path;
	struct path root;
	int err = 0;

	*name = NULL;
	if (d_unlinked(dentry))
		return 0;
	in_fs = __getname();
	proposal = __getname();
	if (!in_fs || !proposal) {
		err = -ENOMEM;
		goto out;
	}
	path = dentry_path_raw(dentry, in_fs, PATH_MAX);
	if (IS_ERR(path) || !pfsel_init_root(&root))
		goto out;

	table = get_mounts(false);
	if (table)
		err = name_through(table, dentry, path, &root, proposal, name);
	if (!err && !*name && table && !mounts_fresh(table, true)) {
		put_mounts(table);
		table = get_mounts(true);
		if (table)
			err = name_through(table, dentry, path, &root, proposal,
					   name);
	}
	put_mounts(table);
	path_put(&root);
out:
	if (proposal)
		__putname(proposal);
	if (in_fs)
		__putname(in_fs);
	return err;
}

/*
 * A change of a mount tree, before it is made.  Counted when the task is
 * privileged in the initial user namespace, the only tasks whose changes
 * can reach init's tree (see the top of the file).
 */
static void count_change(void)
{
	if (has_capability_noaudit(current, CAP_SYS_ADMIN))
		atomic64_inc(&init_mounts_changes);
}

static int hook_sb_mount(const char *const dev_name,
			 const struct path *const path, const char *const type,
			 const unsigned long flags, void *const data)
{
	count_change();
	return 0;
}

static int hook_sb_umount(struct vfsmount *const mnt, const int flags)
{
	count_change();
	return 0;
}

static int hook_sb_pivotroot(const struct path *const old_path,
			     const struct path *const new_path)
{
	count_change();
	return 0;
}

static int hook_move_mount(const struct path *const from_path,
			   const struct path *const to_path)
{
	count_change();
	return 0;
}

static struct security_hook_list pfsel_mounts_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(sb_mount, hook_sb_mount),
	LSM_HOOK_INIT(sb_umount, hook_sb_umount),
	LSM_HOOK_INIT(sb_pivotroot, hook_sb_pivotroot),
	LSM_HOOK_INIT(move_mount, hook_move_mount),
};

__init void pfsel_add_mounts_hooks(void)
{
	security_add_hooks(pfsel_mounts_hooks, ARRAY_SIZE(pfsel_mounts_hooks),
			   &pfsel_lsmid);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

static void test_below_root(struct kunit *const test)
{
	/* The whole file system: the path itself. */
	KUNIT_EXPECT_STREQ(test, "/var/lib/x",
			   below_root("/var/lib/x", "/", 1));
	/* A folder's bind: the rest from the "/" after the folder. */
	KUNIT_EXPECT_STREQ(test, "/bin/x",
			   below_root("/files/bin/x", "/files", 6));
	/* The bind of the file itself. */
	KUNIT_EXPECT_STREQ(test, "", below_root("/files/x", "/files/x", 8));
	/* A folder whose name only begins the same is not above. */
	KUNIT_EXPECT_NULL(test, below_root("/filesx/bin/x", "/files", 6));
	KUNIT_EXPECT_NULL(test, below_root("/other/bin/x", "/files", 6));
	KUNIT_EXPECT_NULL(test, below_root("/fil", "/files", 6));
}

static void test_join_path(struct kunit *const test)
{
	char *const buf = kunit_kmalloc(test, PATH_MAX, GFP_KERNEL);
	char *const long_name = kunit_kmalloc(test, PATH_MAX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, long_name);
	KUNIT_EXPECT_TRUE(test, join_path(buf, "/", "/var/lib/x"));
	KUNIT_EXPECT_STREQ(test, "/var/lib/x", buf);
	KUNIT_EXPECT_TRUE(test, join_path(buf, "/snap/s/1", "/bin/x"));
	KUNIT_EXPECT_STREQ(test, "/snap/s/1/bin/x", buf);
	KUNIT_EXPECT_TRUE(test, join_path(buf, "/usr/bin/x", ""));
	KUNIT_EXPECT_STREQ(test, "/usr/bin/x", buf);
	KUNIT_EXPECT_TRUE(test, join_path(buf, "/", ""));
	KUNIT_EXPECT_STREQ(test, "/", buf);
	/* A proposal longer than a path may be is none. */
	memset(long_name, 'a', PATH_MAX - 1);
	long_name[0] = '/';
	long_name[PATH_MAX - 1] = '\0';
	KUNIT_EXPECT_FALSE(test, join_path(buf, "/x", long_name));
	KUNIT_EXPECT_TRUE(test, join_path(buf, "/", long_name));
}

#define TEST_MOUNT(d, r, p)                                         \
	{                                                           \
		.dev = (d), .root = (r), .root_len = sizeof(r) - 1, \
		.path = (p), .path_len = sizeof(p) - 1,             \
	}

/*
 * The order of the proposals: by device; the source of a bind before the
 * bind; the shorter place, then byte order.
 */
static void test_proposal_order(struct kunit *const test)
{
	static const struct init_mount mounts[] = {
		TEST_MOUNT(9, "/", "/mnt"),
		TEST_MOUNT(8, "/lib/flatpak/app/org.test.App/files", "/opt/a"),
		TEST_MOUNT(8, "/", "/var"),
		TEST_MOUNT(7, "/", "/"),
		TEST_MOUNT(8, "/", "/srv/var"),
		TEST_MOUNT(8, "/", "/srv/vaq"),
		TEST_MOUNT(8, "/lib", "/l"),
	};
	static const char *const order[] = {
		"/", "/var", "/srv/vaq", "/srv/var", "/l", "/opt/a", "/mnt",
	};
	const size_t count = ARRAY_SIZE(mounts);
	struct init_mounts *table;
	size_t i;

	table = kunit_kzalloc(test, struct_size(table, mounts, count),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, table);
	table->count = count;
	memcpy(table->mounts, mounts, sizeof(mounts));
	sort(table->mounts, count, sizeof(mounts[0]), compare_mounts, NULL);
	for (i = 0; i < count; i++)
		KUNIT_EXPECT_STREQ(test, order[i], table->mounts[i].path);

	KUNIT_EXPECT_EQ(test, 0U, first_of_device(table, 7));
	KUNIT_EXPECT_EQ(test, 1U, first_of_device(table, 8));
	KUNIT_EXPECT_EQ(test, 6U, first_of_device(table, 9));
	/* A device with no mount: past its would-be place. */
	KUNIT_EXPECT_EQ(test, 0U, first_of_device(table, 1));
	KUNIT_EXPECT_EQ(test, 7U, first_of_device(table, 10));
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_below_root),
	KUNIT_CASE(test_join_path),
	KUNIT_CASE(test_proposal_order),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_mounts",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
