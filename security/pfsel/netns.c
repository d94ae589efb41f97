// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - What pfsel keeps per network namespace
 *
 * Each network namespace has a table of the host names its trusted
 * resolvers taught (hostmap.c) and the DNS queries they await
 * (queries.c), made with the namespace and gone with it: one
 * registration, one struct pfsel_net.  Learning (resolver.c) and lookups
 * (decide.c, ask.c, audit.c, check.c) find them through pfsel_net().
 */

#include <linux/init.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "admin.h"
#include "common.h"
#include "netns.h"
#include "recent.h"
#include "setup.h"

static unsigned int pfsel_net_id __read_mostly;
/* Set once every namespace, init_net included, has its part. */
static bool pfsel_net_ready;

/**
 * pfsel_net - pfsel's part of a network namespace
 * @net: the namespace, or NULL
 *
 * Context: any; the caller holds a reference to @net, or is under
 * rcu_read_lock() with @net on the list of namespaces.
 *
 * Return: its part; NULL for no namespace, or before the parts exist
 * (early boot, or pfsel not enabled).
 */
struct pfsel_net *pfsel_net(const struct net *const net)
{
	/* Pairs with the release in pfsel_net_register(). */
	if (!net || !smp_load_acquire(&pfsel_net_ready))
		return NULL;
	return net_generic(net, pfsel_net_id);
}

/*
 * securityfs: hosts lists the pairs of the reader's namespace, one bucket
 * per position of the seq_file, so that a full table (some hundreds of
 * kilobytes of text) is read piece by piece; hosts_stats has its counters.
 * The namespace is the opener's, held until the file is closed.
 */

static void *hosts_start(struct seq_file *const m, loff_t *const pos)
	__acquires(RCU)
{
	rcu_read_lock();
	return *pos < PFSEL_HOSTMAP_BUCKETS ? pos : NULL;
}

static void *hosts_next(struct seq_file *const m, void *const v,
			loff_t *const pos)
{
	++*pos;
	return *pos < PFSEL_HOSTMAP_BUCKETS ? pos : NULL;
}

static void hosts_stop(struct seq_file *const m, void *const v) __releases(RCU)
{
	rcu_read_unlock();
}

static int hosts_show(struct seq_file *const m, void *const v)
{
	const struct pfsel_hostmap *const map = pfsel_net_hosts(m->private);

	if (map)
		pfsel_hostmap_show_bucket(map, *(loff_t *)v, m);
	return 0;
}

static const struct seq_operations hosts_seq_ops = {
	.start = hosts_start,
	.next = hosts_next,
	.stop = hosts_stop,
	.show = hosts_show,
};

/*
 * Which names a namespace's programs looked up is the administrator's to
 * read, as pending questions are (ask_stats).
 */
static int hosts_open(struct inode *const inode, struct file *const file)
{
	int err;

	if (!pfsel_may_admin(file->f_cred))
		return -EPERM;
	err = seq_open(file, &hosts_seq_ops);
	if (err)
		return err;
	((struct seq_file *)file->private_data)->private =
		get_net(current->nsproxy->net_ns);
	return 0;
}

static int hosts_release(struct inode *const inode, struct file *const file)
{
	put_net(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

const struct file_operations pfsel_net_hosts_fops = {
	.open = hosts_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = hosts_release,
};

static int hosts_stats_show(struct seq_file *const m, void *const v)
{
	const struct pfsel_hostmap *const map = pfsel_net_hosts(m->private);

	if (map)
		pfsel_hostmap_show_stats(map, m);
	return 0;
}

static int hosts_stats_open(struct inode *const inode, struct file *const file)
{
	struct net *const net = get_net(current->nsproxy->net_ns);
	int err = single_open(file, hosts_stats_show, net);

	if (err)
		put_net(net);
	return err;
}

static int hosts_stats_release(struct inode *const inode,
			       struct file *const file)
{
	put_net(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

const struct file_operations pfsel_net_hosts_stats_fops = {
	.open = hosts_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = hosts_stats_release,
};

static int __net_init pfsel_net_init(struct net *const net)
{
	struct pfsel_net *const pn = net_generic(net, pfsel_net_id);

	pfsel_hostmap_init(&pn->hosts);
	pfsel_queries_init(&pn->queries);
	return 0;
}

/*
 * No socket of the namespace is left to learn or to decide.  The recent
 * allows are keyed by the namespace's address, which a namespace made
 * later may be given: its names gone, they start a new epoch, so that no
 * allow that looked at them answers for the next one there.
 */
static void __net_exit pfsel_net_exit(struct net *const net)
{
	struct pfsel_net *const pn = net_generic(net, pfsel_net_id);

	pfsel_hostmap_clear(&pn->hosts);
	pfsel_recent_invalidate();
}

static struct pernet_operations pfsel_net_ops = {
	.init = pfsel_net_init,
	.exit = pfsel_net_exit,
	.id = &pfsel_net_id,
	.size = sizeof(struct pfsel_net),
};

/*
 * Not from pfsel_init(): the LSMs start before the network namespaces do
 * (net_ns_init()).  Until this has run, learning and lookups find no part
 * and do nothing.
 */
static int __init pfsel_net_register(void)
{
	int err;

	if (!pfsel_initialized)
		return 0;
	err = register_pernet_subsys(&pfsel_net_ops);
	if (err) {
		pr_err("Failed to make the network namespaces' parts: %d.\n",
		       err);
		return err;
	}
	/* Whoever sees it set sees init_net's part made. */
	smp_store_release(&pfsel_net_ready, true);
	return 0;
}
subsys_initcall(pfsel_net_register);
