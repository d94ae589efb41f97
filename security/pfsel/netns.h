/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - What pfsel keeps per network namespace
 */

#ifndef _SECURITY_PFSEL_NETNS_H
#define _SECURITY_PFSEL_NETNS_H

#include <linux/fs.h>

#include "hostmap.h"
#include "queries.h"

struct net;

/**
 * struct pfsel_net - pfsel's part of a network namespace
 * @hosts: the host names its trusted resolvers taught (hostmap.c)
 * @queries: the DNS queries they await (queries.c)
 *
 * An address names a host only in the namespace whose resolver was told
 * so, and a query is answered in the namespace it was sent from.
 */
struct pfsel_net {
	struct pfsel_hostmap hosts;
	struct pfsel_dns_queries queries;
};

struct pfsel_net *pfsel_net(const struct net *net);

/**
 * pfsel_net_hosts - The host names of a network namespace
 * @net: the namespace, or NULL
 *
 * Return: its table, or NULL (as pfsel_net()), which the table's readers
 * take for a table without names.
 */
static inline struct pfsel_hostmap *pfsel_net_hosts(const struct net *net)
{
	struct pfsel_net *const pn = pfsel_net(net);

	return pn ? &pn->hosts : NULL;
}

/* securityfs: hosts and hosts_stats, of the opener's namespace. */
extern const struct file_operations pfsel_net_hosts_fops;
extern const struct file_operations pfsel_net_hosts_stats_fops;

#endif /* _SECURITY_PFSEL_NETNS_H */
