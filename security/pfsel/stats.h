/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Per-CPU statistics
 */

#ifndef _SECURITY_PFSEL_STATS_H
#define _SECURITY_PFSEL_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * enum pfsel_hook - The hooks that pfsel counts
 *
 * The order is the order of the lines of /sys/kernel/security/pfsel/hooks.
 */
enum pfsel_hook {
	PFSEL_HOOK_SOCKET_CREATE,
	PFSEL_HOOK_SOCKET_BIND,
	PFSEL_HOOK_SOCKET_CONNECT,
	PFSEL_HOOK_SOCKET_LISTEN,
	PFSEL_HOOK_SOCKET_ACCEPT,
	PFSEL_HOOK_SOCKET_SENDMSG,
	PFSEL_HOOK_INET_CONN_REQUEST,
	PFSEL_HOOK_COUNT
};

/**
 * struct pfsel_hook_stats - Calls of each hook, on one CPU
 *
 * @calls: how many times each hook ran on this CPU and was checked.
 */
struct pfsel_hook_stats {
	u64 calls[PFSEL_HOOK_COUNT];
};

DECLARE_PER_CPU(struct pfsel_hook_stats, pfsel_hook_stats);

/**
 * pfsel_count_hook - Count one checked call of a hook
 *
 * @hook: the hook.
 *
 * Safe in any context, softirq included: a per-CPU increment needs no lock.
 */
static inline void pfsel_count_hook(const enum pfsel_hook hook)
{
	this_cpu_inc(pfsel_hook_stats.calls[hook]);
}

u64 pfsel_hook_calls(enum pfsel_hook hook);
const char *pfsel_hook_name(enum pfsel_hook hook);

#endif /* _SECURITY_PFSEL_STATS_H */
