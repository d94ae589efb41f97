// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Per-CPU statistics
 *
 * Hooks run on every socket call of every process: their counters are
 * per-CPU so that counting never shares a cache line between CPUs, and are
 * only summed when someone reads them.
 */

#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>

#include "stats.h"

DEFINE_PER_CPU(struct pfsel_hook_stats, pfsel_hook_stats);

static const char *const pfsel_hook_names[PFSEL_HOOK_COUNT] = {
	[PFSEL_HOOK_SOCKET_CREATE] = "socket_create",
	[PFSEL_HOOK_SOCKET_BIND] = "socket_bind",
	[PFSEL_HOOK_SOCKET_CONNECT] = "socket_connect",
	[PFSEL_HOOK_SOCKET_LISTEN] = "socket_listen",
	[PFSEL_HOOK_SOCKET_ACCEPT] = "socket_accept",
	[PFSEL_HOOK_SOCKET_SENDMSG] = "socket_sendmsg",
	[PFSEL_HOOK_INET_CONN_REQUEST] = "inet_conn_request",
};

/**
 * pfsel_hook_name - Name of a hook, as the LSM framework calls it
 *
 * @hook: the hook.
 *
 * Return: a static string.
 */
const char *pfsel_hook_name(const enum pfsel_hook hook)
{
	if (WARN_ON_ONCE(hook >= PFSEL_HOOK_COUNT))
		return "unknown";
	return pfsel_hook_names[hook];
}

/**
 * pfsel_hook_calls - Sum of a hook's calls over every possible CPU
 *
 * @hook: the hook.
 *
 * The sum is not a snapshot: counters on other CPUs may move while it is
 * taken.  Readers only need each counter to be monotonic.
 *
 * Return: the number of checked calls since boot.
 */
u64 pfsel_hook_calls(const enum pfsel_hook hook)
{
	u64 sum = 0;
	int cpu;

	if (WARN_ON_ONCE(hook >= PFSEL_HOOK_COUNT))
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(pfsel_hook_stats, cpu).calls[hook]);
	return sum;
}
