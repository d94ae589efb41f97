// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the access vector cache (avc.c)
 *
 * Every test starts from an empty cache at the default threshold and leaves
 * the cache empty, whatever order the tests run in.  The tests run at boot
 * before any policy is loaded, so nobody else is using the cache and the
 * counters move only because of us.
 */

#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/timer.h>

#include "avc.h"

/* Keys of another policy generation than any real one is likely to have. */
#define TEST_GENERATION 0xa5c0ffeeU

static struct pfsel_avc_key test_key(const u32 n)
{
	return (struct pfsel_avc_key){
		.generation = TEST_GENERATION,
		.app = n,
		.addr = n * 3,
		.port = n * 7,
		.op = n & 0xff,
		.proto = 6,
	};
}

static struct pfsel_avc_decision test_decision(const u32 n)
{
	return (struct pfsel_avc_decision){
		.verdict = n + 1,
		.audit = n + 2,
		.rule = n + 3,
	};
}

static void expect_decision(struct kunit *const test,
			    const struct pfsel_avc_key *const key,
			    const struct pfsel_avc_decision *const want)
{
	struct pfsel_avc_decision got = {};

	KUNIT_ASSERT_TRUE(test, pfsel_avc_lookup(key, &got));
	KUNIT_EXPECT_EQ(test, got.verdict, want->verdict);
	KUNIT_EXPECT_EQ(test, got.audit, want->audit);
	KUNIT_EXPECT_EQ(test, got.rule, want->rule);
}

static void expect_miss(struct kunit *const test,
			const struct pfsel_avc_key *const key)
{
	struct pfsel_avc_decision got = {};

	KUNIT_EXPECT_FALSE(test, pfsel_avc_lookup(key, &got));
}

static int avc_test_init(struct kunit *const test)
{
	/* Without pfsel enabled at boot, nothing is ever cached. */
	if (!pfsel_avc_ready())
		kunit_skip(test, "pfsel is not enabled: the AVC caches nothing");
	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(PFSEL_AVC_THRESHOLD_DEFAULT),
			0);
	pfsel_avc_flush();
	KUNIT_ASSERT_EQ(test, pfsel_avc_nodes(), 0);
	return 0;
}

static void avc_test_exit(struct kunit *const test)
{
	pfsel_avc_set_threshold(PFSEL_AVC_THRESHOLD_DEFAULT);
	pfsel_avc_flush();
}

/* A key misses, leaving the output alone, until it is inserted. */
static void avc_test_miss_then_hit(struct kunit *const test)
{
	const struct pfsel_avc_key key = test_key(1);
	const struct pfsel_avc_decision d = test_decision(10);
	struct pfsel_avc_decision out = { .verdict = 77, .audit = 78,
					  .rule = 79 };

	KUNIT_EXPECT_FALSE(test, pfsel_avc_lookup(&key, &out));
	KUNIT_EXPECT_EQ(test, out.verdict, 77);
	KUNIT_EXPECT_EQ(test, out.audit, 78);
	KUNIT_EXPECT_EQ(test, out.rule, 79);

	pfsel_avc_insert(&key, &d);
	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 1);
	expect_decision(test, &key, &d);
}

/* Keys that differ in any one field are different keys. */
static void avc_test_fields_do_not_alias(struct kunit *const test)
{
	const struct pfsel_avc_key base = test_key(5);
	const struct pfsel_avc_decision d0 = test_decision(0);
	struct pfsel_avc_key variant[7];
	struct pfsel_avc_decision d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(variant); i++)
		variant[i] = base;
	variant[0].generation++;
	variant[1].app++;
	variant[2].addr++;
	variant[3].port++;
	variant[4].op++;
	variant[5].proto++;
	/* A name class numbered as the address class: another key. */
	variant[6].by_name = 1;

	pfsel_avc_insert(&base, &d0);
	for (i = 0; i < ARRAY_SIZE(variant); i++)
		expect_miss(test, &variant[i]);

	for (i = 0; i < ARRAY_SIZE(variant); i++) {
		d = test_decision(100 * (i + 1));
		pfsel_avc_insert(&variant[i], &d);
	}
	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 1 + ARRAY_SIZE(variant));

	expect_decision(test, &base, &d0);
	for (i = 0; i < ARRAY_SIZE(variant); i++) {
		d = test_decision(100 * (i + 1));
		expect_decision(test, &variant[i], &d);
	}
}

/* Inserting a cached key replaces its decision and adds no node. */
static void avc_test_replace(struct kunit *const test)
{
	const struct pfsel_avc_key key = test_key(2);
	const struct pfsel_avc_decision d1 = test_decision(1);
	const struct pfsel_avc_decision d2 = test_decision(2);
	struct pfsel_avc_stats before, after;

	pfsel_avc_insert(&key, &d1);
	expect_decision(test, &key, &d1);

	pfsel_avc_stats_sum(&before);
	pfsel_avc_insert(&key, &d2);
	pfsel_avc_stats_sum(&after);

	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 1);
	expect_decision(test, &key, &d2);
	/* The replaced node was freed. */
	KUNIT_EXPECT_EQ(test, after.frees - before.frees, 1);
	KUNIT_EXPECT_EQ(test, after.allocations - before.allocations, 1);
}

/* A flush removes every node, and nothing is found afterwards. */
static void avc_test_flush_empties(struct kunit *const test)
{
	const u32 n = 200;
	struct pfsel_avc_stats before, after;
	struct pfsel_avc_key key;
	struct pfsel_avc_decision d;
	u32 i;

	for (i = 0; i < n; i++) {
		key = test_key(i);
		d = test_decision(i);
		pfsel_avc_insert(&key, &d);
	}
	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), n);

	pfsel_avc_stats_sum(&before);
	pfsel_avc_flush();
	pfsel_avc_stats_sum(&after);

	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 0);
	KUNIT_EXPECT_EQ(test, after.frees - before.frees, n);
	for (i = 0; i < n; i++) {
		key = test_key(i);
		expect_miss(test, &key);
	}
}

/*
 * However many keys are inserted, the cache stays within its threshold
 * plus one reclaim batch, and every node that left was counted.
 */
static void avc_test_threshold_bound(struct kunit *const test)
{
	const unsigned int threshold = 64, n = 2000;
	struct pfsel_avc_stats before, after;
	struct pfsel_avc_key key;
	struct pfsel_avc_decision d;
	u64 allocated, reclaimed;
	u32 i;

	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(threshold), 0);
	KUNIT_EXPECT_EQ(test, pfsel_avc_threshold(), threshold);

	pfsel_avc_stats_sum(&before);
	for (i = 0; i < n; i++) {
		key = test_key(i);
		d = test_decision(i);
		pfsel_avc_insert(&key, &d);
		KUNIT_ASSERT_LE(test, pfsel_avc_nodes(),
				threshold + PFSEL_AVC_RECLAIM_BATCH);
	}
	pfsel_avc_stats_sum(&after);

	allocated = after.allocations - before.allocations;
	reclaimed = after.reclaims - before.reclaims;
	/* GFP_NOWAIT may fail; whatever was allocated is here or reclaimed. */
	KUNIT_EXPECT_GT(test, allocated, threshold);
	KUNIT_EXPECT_GT(test, reclaimed, 0);
	KUNIT_EXPECT_EQ(test, allocated, pfsel_avc_nodes() + reclaimed);
	KUNIT_EXPECT_EQ(test, after.frees - before.frees, reclaimed);
}

/* Lowering the threshold shrinks the cache at once. */
static void avc_test_threshold_lowered(struct kunit *const test)
{
	struct pfsel_avc_key key;
	struct pfsel_avc_decision d;
	u32 i;

	for (i = 0; i < 300; i++) {
		key = test_key(i);
		d = test_decision(i);
		pfsel_avc_insert(&key, &d);
	}
	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 300);

	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(10), 0);
	KUNIT_EXPECT_LE(test, pfsel_avc_nodes(), 10);

	/* One node is the smallest cache there is. */
	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(1), 0);
	KUNIT_EXPECT_LE(test, pfsel_avc_nodes(), 1);
	key = test_key(1000);
	d = test_decision(1000);
	pfsel_avc_insert(&key, &d);
	KUNIT_EXPECT_LE(test, pfsel_avc_nodes(), 1);
}

/* Out-of-range thresholds are refused and change nothing. */
static void avc_test_threshold_range(struct kunit *const test)
{
	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(100), 0);
	KUNIT_EXPECT_EQ(test, pfsel_avc_set_threshold(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pfsel_avc_set_threshold(PFSEL_AVC_THRESHOLD_MAX + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pfsel_avc_threshold(), 100);
	KUNIT_EXPECT_EQ(test, pfsel_avc_set_threshold(PFSEL_AVC_THRESHOLD_MAX),
			0);
	KUNIT_EXPECT_EQ(test, pfsel_avc_threshold(), PFSEL_AVC_THRESHOLD_MAX);
}

/* Every lookup is a hit or a miss, and is counted as exactly one. */
static void avc_test_stats_add_up(struct kunit *const test)
{
	struct pfsel_avc_stats before, after;
	struct pfsel_avc_key key;
	struct pfsel_avc_decision d;
	u32 i;

	for (i = 0; i < 10; i++) {
		key = test_key(i);
		d = test_decision(i);
		pfsel_avc_insert(&key, &d);
	}

	pfsel_avc_stats_sum(&before);
	for (i = 0; i < 25; i++) {
		key = test_key(i);
		pfsel_avc_lookup(&key, &d);
	}
	pfsel_avc_stats_sum(&after);

	KUNIT_EXPECT_EQ(test, after.lookups - before.lookups, 25);
	KUNIT_EXPECT_EQ(test, after.hits - before.hits, 10);
	KUNIT_EXPECT_EQ(test, after.misses - before.misses, 15);
	KUNIT_EXPECT_EQ(test, after.hits + after.misses, after.lookups);
}

/*
 * Lookups and inserts with bottom halves or interrupts disabled.  KUnit's
 * checks may allocate, so they are made once the section is over.
 */
static void avc_test_atomic_context(struct kunit *const test)
{
	const struct pfsel_avc_key k1 = test_key(1), k2 = test_key(2);
	const struct pfsel_avc_decision d1 = test_decision(1);
	const struct pfsel_avc_decision d2 = test_decision(2);
	struct pfsel_avc_decision got_bh = {}, got_irq = {};
	unsigned long flags;
	bool hit_bh, hit_irq;

	local_bh_disable();
	pfsel_avc_insert(&k1, &d1);
	hit_bh = pfsel_avc_lookup(&k1, &got_bh);
	local_bh_enable();

	local_irq_save(flags);
	pfsel_avc_insert(&k2, &d2);
	hit_irq = pfsel_avc_lookup(&k1, &got_irq);
	local_irq_restore(flags);

	KUNIT_EXPECT_TRUE(test, hit_bh);
	KUNIT_EXPECT_EQ(test, got_bh.verdict, d1.verdict);
	KUNIT_EXPECT_TRUE(test, hit_irq);
	KUNIT_EXPECT_EQ(test, got_irq.rule, d1.rule);
	expect_decision(test, &k2, &d2);
}

struct avc_test_timer {
	struct timer_list timer;
	struct completion done;
	bool in_softirq;
	bool hit;
	struct pfsel_avc_decision got;
};

static void avc_test_timer_fn(struct timer_list *const t)
{
	struct avc_test_timer *const ctx = from_timer(ctx, t, timer);
	const struct pfsel_avc_key k1 = test_key(1), k2 = test_key(2);
	const struct pfsel_avc_decision d2 = test_decision(2);

	ctx->in_softirq = in_serving_softirq();
	ctx->hit = pfsel_avc_lookup(&k1, &ctx->got);
	pfsel_avc_insert(&k2, &d2);
	complete(&ctx->done);
}

/* A timer runs in softirq, as the inet_conn_request hook does. */
static void avc_test_softirq(struct kunit *const test)
{
	const struct pfsel_avc_key k1 = test_key(1), k2 = test_key(2);
	const struct pfsel_avc_decision d1 = test_decision(1);
	const struct pfsel_avc_decision d2 = test_decision(2);
	struct avc_test_timer *ctx;
	unsigned long left;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	init_completion(&ctx->done);
	timer_setup(&ctx->timer, avc_test_timer_fn, 0);

	pfsel_avc_insert(&k1, &d1);
	mod_timer(&ctx->timer, jiffies + 1);
	left = wait_for_completion_timeout(&ctx->done, 10 * HZ);
	timer_delete_sync(&ctx->timer);
	KUNIT_ASSERT_NE(test, left, 0);

	KUNIT_EXPECT_TRUE(test, ctx->in_softirq);
	KUNIT_ASSERT_TRUE(test, ctx->hit);
	KUNIT_EXPECT_EQ(test, ctx->got.verdict, d1.verdict);
	KUNIT_EXPECT_EQ(test, ctx->got.rule, d1.rule);
	expect_decision(test, &k2, &d2);
}

/*
 * Writers on every CPU, a softirq and repeated flushes all at once, at a
 * threshold low enough that reclaim runs all the time.  KASAN and lockdep
 * watch the memory and the locks; the test checks the bound afterwards.
 */
#define STRESS_KEYS 1024
#define STRESS_ROUNDS 4000

struct avc_test_stress {
	struct timer_list timer;
	bool stop;
	unsigned int softirq_runs;
};

static void avc_test_stress_insert(const u32 n)
{
	const struct pfsel_avc_key key = test_key(n % STRESS_KEYS);
	const struct pfsel_avc_decision d = test_decision(n);
	struct pfsel_avc_decision got;

	if (!pfsel_avc_lookup(&key, &got))
		pfsel_avc_insert(&key, &d);
}

static int avc_test_stress_thread(void *const data)
{
	u32 seed = (uintptr_t)data, i;

	for (i = 0; i < STRESS_ROUNDS && !kthread_should_stop(); i++) {
		avc_test_stress_insert(seed + i * 7);
		if (!(i % 64))
			cond_resched();
	}
	/* kthread_stop() expects to find us; wait for it. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void avc_test_stress_timer_fn(struct timer_list *const t)
{
	struct avc_test_stress *const ctx = from_timer(ctx, t, timer);
	u32 i;

	for (i = 0; i < 16; i++)
		avc_test_stress_insert(ctx->softirq_runs * 16 + i);
	ctx->softirq_runs++;
	if (!READ_ONCE(ctx->stop))
		mod_timer(&ctx->timer, jiffies + 1);
}

static void avc_test_concurrent(struct kunit *const test)
{
	const unsigned int threshold = 32;
	struct task_struct *threads[2];
	struct avc_test_stress *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_EQ(test, pfsel_avc_set_threshold(threshold), 0);

	timer_setup(&ctx->timer, avc_test_stress_timer_fn, 0);
	mod_timer(&ctx->timer, jiffies + 1);
	for (i = 0; i < ARRAY_SIZE(threads); i++) {
		threads[i] = kthread_run(avc_test_stress_thread,
					 (void *)(uintptr_t)(i * 100003),
					 "pfsel_avc_test/%u", i);
		if (IS_ERR(threads[i]))
			threads[i] = NULL;
	}
	for (i = 0; i < 50; i++) {
		avc_test_stress_insert(i);
		pfsel_avc_flush();
		schedule_timeout_uninterruptible(1);
	}
	for (i = 0; i < ARRAY_SIZE(threads); i++)
		if (threads[i])
			kthread_stop(threads[i]);
	WRITE_ONCE(ctx->stop, true);
	timer_delete_sync(&ctx->timer);

	KUNIT_EXPECT_NOT_NULL(test, threads[0]);
	KUNIT_EXPECT_GT(test, ctx->softirq_runs, 0);
	/* Each racing writer may overshoot by one node before it reclaims. */
	KUNIT_EXPECT_LE(test, pfsel_avc_nodes(),
			threshold + PFSEL_AVC_RECLAIM_BATCH + num_online_cpus());
	pfsel_avc_flush();
	KUNIT_EXPECT_EQ(test, pfsel_avc_nodes(), 0);
}

static struct kunit_case avc_test_cases[] = {
	KUNIT_CASE(avc_test_miss_then_hit),
	KUNIT_CASE(avc_test_fields_do_not_alias),
	KUNIT_CASE(avc_test_replace),
	KUNIT_CASE(avc_test_flush_empties),
	KUNIT_CASE(avc_test_threshold_bound),
	KUNIT_CASE(avc_test_threshold_lowered),
	KUNIT_CASE(avc_test_threshold_range),
	KUNIT_CASE(avc_test_stats_add_up),
	KUNIT_CASE(avc_test_atomic_context),
	KUNIT_CASE(avc_test_softirq),
	KUNIT_CASE(avc_test_concurrent),
	{}
};

static struct kunit_suite avc_test_suite = {
	.name = "pfsel_avc",
	.init = avc_test_init,
	.exit = avc_test_exit,
	.test_cases = avc_test_cases,
};

kunit_test_suite(avc_test_suite);
