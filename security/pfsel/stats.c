// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Per-CPU statistics
 *
 * Hooks run on every socket call, execve() and open() of every process:
 * their counters are
 * per-CPU so that counting never shares a cache line between CPUs, and are
 * only summed when someone reads them.
 */

#include <linux/bug.h>
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>

#include "stats.h"

DEFINE_PER_CPU(struct pfsel_hook_stats, pfsel_hook_stats);
/* Off by default: the hooks' clock reads are for benchmarks. */
DEFINE_STATIC_KEY_FALSE(pfsel_hook_timing);

static const char *const pfsel_hook_names[PFSEL_HOOK_COUNT] = {
	[PFSEL_HOOK_SOCKET_CREATE] = "socket_create",
	[PFSEL_HOOK_SOCKET_BIND] = "socket_bind",
	[PFSEL_HOOK_SOCKET_CONNECT] = "socket_connect",
	[PFSEL_HOOK_SOCKET_LISTEN] = "socket_listen",
	[PFSEL_HOOK_SOCKET_ACCEPT] = "socket_accept",
	[PFSEL_HOOK_SOCKET_SENDMSG] = "socket_sendmsg",
	[PFSEL_HOOK_INET_CONN_REQUEST] = "inet_conn_request",
	[PFSEL_HOOK_BPRM_CREDS_FOR_EXEC] = "bprm_creds_for_exec",
	[PFSEL_HOOK_BPRM_CREDS_FROM_FILE] = "bprm_creds_from_file",
	[PFSEL_HOOK_BPRM_COMMITTING_CREDS] = "bprm_committing_creds",
	[PFSEL_HOOK_FILE_OPEN] = "file_open",
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

/**
 * pfsel_hook_ns - Time spent in a hook, summed over every possible CPU
 *
 * @hook: the hook.
 *
 * Return: nanoseconds spent in the hook's checked calls since boot.
 */
u64 pfsel_hook_ns(const enum pfsel_hook hook)
{
	u64 sum = 0;
	int cpu;

	if (WARN_ON_ONCE(hook >= PFSEL_HOOK_COUNT))
		return 0;
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(pfsel_hook_stats, cpu).ns[hook]);
	return sum;
}

/**
 * pfsel_hook_timing_enabled - Whether hooks are timed
 *
 * Return: true while hooks add their time to the counters.
 */
bool pfsel_hook_timing_enabled(void)
{
	return static_key_enabled(&pfsel_hook_timing);
}

/**
 * pfsel_set_hook_timing - Switch the hooks' timers on or off
 *
 * @on: true to time every checked call of a hook from now on.
 *
 * Switching is idempotent (the static key serializes it); the time counted
 * so far stays.  It may sleep.
 */
void pfsel_set_hook_timing(const bool on)
{
	if (on)
		static_branch_enable(&pfsel_hook_timing);
	else
		static_branch_disable(&pfsel_hook_timing);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

/* Every hook has its own name: the hooks file would be ambiguous otherwise. */
static void test_hook_names_unique(struct kunit *const test)
{
	enum pfsel_hook a, b;

	for (a = 0; a < PFSEL_HOOK_COUNT; a++) {
		KUNIT_ASSERT_NOT_NULL(test, pfsel_hook_names[a]);
		for (b = a + 1; b < PFSEL_HOOK_COUNT; b++)
			KUNIT_EXPECT_STRNEQ(test, pfsel_hook_names[a],
					    pfsel_hook_names[b]);
	}
}

/* A count made on one CPU shows in the sum over all CPUs. */
static void test_count_hook_adds_one(struct kunit *const test)
{
	u64 before, after;

	/*
	 * Other CPUs may count inbound connections meanwhile; with
	 * preemption off nothing on this CPU can, so exactly one call is
	 * ours and the sum moves by at least one.
	 */
	preempt_disable();
	before = pfsel_hook_calls(PFSEL_HOOK_SOCKET_LISTEN);
	pfsel_count_hook(PFSEL_HOOK_SOCKET_LISTEN);
	after = pfsel_hook_calls(PFSEL_HOOK_SOCKET_LISTEN);
	preempt_enable();
	KUNIT_EXPECT_LE(test, before + 1, after);
}

/* A timed call counts once and never takes time away. */
static void test_hook_exit_adds_time(struct kunit *const test)
{
	const bool was_on = pfsel_hook_timing_enabled();
	u64 calls, ns, start, calls_after, ns_after;

	pfsel_set_hook_timing(true);
	/* Nothing on this CPU can run the hook while preemption is off. */
	preempt_disable();
	calls = pfsel_hook_calls(PFSEL_HOOK_SOCKET_BIND);
	ns = pfsel_hook_ns(PFSEL_HOOK_SOCKET_BIND);
	start = pfsel_hook_enter();
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_BIND, start);
	calls_after = pfsel_hook_calls(PFSEL_HOOK_SOCKET_BIND);
	ns_after = pfsel_hook_ns(PFSEL_HOOK_SOCKET_BIND);
	preempt_enable();
	pfsel_set_hook_timing(was_on);

	KUNIT_EXPECT_NE(test, start, 0);
	KUNIT_EXPECT_LE(test, calls + 1, calls_after);
	KUNIT_EXPECT_LE(test, ns, ns_after);
}

/* With timing off, a call counts and adds no time at all. */
static void test_hook_untimed_adds_no_time(struct kunit *const test)
{
	const bool was_on = pfsel_hook_timing_enabled();
	u64 calls, ns, start, calls_after, ns_after;

	pfsel_set_hook_timing(false);
	preempt_disable();
	calls = pfsel_hook_calls(PFSEL_HOOK_SOCKET_LISTEN);
	ns = pfsel_hook_ns(PFSEL_HOOK_SOCKET_LISTEN);
	start = pfsel_hook_enter();
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_LISTEN, start);
	calls_after = pfsel_hook_calls(PFSEL_HOOK_SOCKET_LISTEN);
	ns_after = pfsel_hook_ns(PFSEL_HOOK_SOCKET_LISTEN);
	preempt_enable();
	pfsel_set_hook_timing(was_on);

	KUNIT_EXPECT_EQ(test, start, 0);
	KUNIT_EXPECT_LE(test, calls + 1, calls_after);
	/* No CPU times anything while timing is off. */
	KUNIT_EXPECT_EQ(test, ns, ns_after);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_hook_names_unique),
	KUNIT_CASE(test_count_hook_adds_one),
	KUNIT_CASE(test_hook_exit_adds_time),
	KUNIT_CASE(test_hook_untimed_adds_no_time),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_stats",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
