/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Per-CPU statistics
 */

#ifndef _SECURITY_PFSEL_STATS_H
#define _SECURITY_PFSEL_STATS_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/types.h>

/**
 * enum pfsel_hook - The hooks that pfsel counts
 *
 * The order is the order of the lines of /sys/kernel/security/pfsel/hooks.
 * The socket hooks decide; the exec and open hooks give a process its
 * application and watch a script's open (exec.c), and are counted for
 * what every execve() and open() pays.
 */
enum pfsel_hook {
	PFSEL_HOOK_SOCKET_CREATE,
	PFSEL_HOOK_SOCKET_BIND,
	PFSEL_HOOK_SOCKET_CONNECT,
	PFSEL_HOOK_SOCKET_LISTEN,
	PFSEL_HOOK_SOCKET_ACCEPT,
	PFSEL_HOOK_SOCKET_SENDMSG,
	PFSEL_HOOK_INET_CONN_REQUEST,
	PFSEL_HOOK_BPRM_CREDS_FOR_EXEC,
	PFSEL_HOOK_BPRM_CREDS_FROM_FILE,
	PFSEL_HOOK_BPRM_COMMITTING_CREDS,
	PFSEL_HOOK_FILE_OPEN,
	PFSEL_HOOK_COUNT
};

/**
 * struct pfsel_hook_stats - Calls of each hook, and time spent, on one CPU
 *
 * @calls: how many times each hook ran on this CPU and was checked.
 * @ns: nanoseconds spent in those calls, by local_clock().
 */
struct pfsel_hook_stats {
	u64 calls[PFSEL_HOOK_COUNT];
	u64 ns[PFSEL_HOOK_COUNT];
};

DECLARE_PER_CPU(struct pfsel_hook_stats, pfsel_hook_stats);
DECLARE_STATIC_KEY_FALSE(pfsel_hook_timing);

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

/**
 * pfsel_hook_enter - Start timing a checked call of a hook
 *
 * Hooks are timed only while timing is on (pfsel_set_hook_timing()): two
 * clock reads per call are a cost of their own.
 *
 * Return: the start time, for pfsel_hook_exit(); 0 when timing is off.
 */
static inline u64 pfsel_hook_enter(void)
{
	if (static_branch_unlikely(&pfsel_hook_timing))
		return local_clock();
	return 0;
}

/**
 * pfsel_hook_exit - Count one checked call of a hook and the time it took
 *
 * @hook: the hook.
 * @start: what pfsel_hook_enter() returned.
 *
 * The time is what the benchmarks report as pfsel's own share of a call.
 * A task may migrate between enter and exit: local_clock() is then only
 * approximately monotonic across CPUs, which is good enough for sums.  A
 * call during which timing was switched on (@start is 0) counts no time.
 */
static inline void pfsel_hook_exit(const enum pfsel_hook hook, const u64 start)
{
	this_cpu_inc(pfsel_hook_stats.calls[hook]);
	if (static_branch_unlikely(&pfsel_hook_timing) && start)
		this_cpu_add(pfsel_hook_stats.ns[hook], local_clock() - start);
}

u64 pfsel_hook_calls(enum pfsel_hook hook);
u64 pfsel_hook_ns(enum pfsel_hook hook);
const char *pfsel_hook_name(enum pfsel_hook hook);
bool pfsel_hook_timing_enabled(void);
void pfsel_set_hook_timing(bool on);

#endif /* _SECURITY_PFSEL_STATS_H */
