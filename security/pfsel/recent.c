// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Recent allows, per CPU
 *
 * A loop that sends datagrams to one peer, or connects to one service
 * again and again, asks the same question each time.  The access vector
 * cache answers it, but only after the request's address and port have been
 * classified in both policies, two binary searches each.  In front of it,
 * each CPU keeps up to 64 requests that were allowed without any audit
 * record or question, keyed by the request itself: a repeat is then
 * allowed after one short comparison.
 *
 * Only plain allows are kept: a denial, an ask or anything to audit always
 * takes the full path.  Every entry carries the epoch it was decided in;
 * loading or unloading a policy, and switching the global mode, start a
 * new epoch, which no entry matches.  An epoch is read before the policies
 * are, and a new one begins after a change is published, so an entry can
 * only be older than the policies it was decided with, never newer.
 *
 * Softirq (inbound connections) and process context have separate tables,
 * so that a softirq on top of a hook never sees half an entry.
 */

#include <linux/atomic.h>
#include <linux/jhash.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "app.h"
#include "recent.h"

#define PFSEL_RECENT_BITS 6

/**
 * struct pfsel_recent - A request that was allowed
 *
 * @epoch: the epoch it was decided in; 0 for an empty entry.
 * @app: id of the application identity (0 for none).
 * @uid: the subject's real uid.
 * @port: the request's port.
 * @op: its operation.
 * @proto: its protocol.
 * @addr: its address.
 */
struct pfsel_recent {
	u64 epoch;
	u64 app;
	u32 uid;
	u16 port;
	u8 op;
	u8 proto;
	u8 addr[16];
};

struct pfsel_recent_table {
	struct pfsel_recent entries[2][1 << PFSEL_RECENT_BITS];
};

static DEFINE_PER_CPU(struct pfsel_recent_table, pfsel_recent_tables);
/* Starts at 1: entries of epoch 0 are empty. */
static atomic64_t pfsel_epoch = ATOMIC64_INIT(1);

/**
 * pfsel_recent_epoch - The current epoch
 *
 * Read it before looking at the policies.
 *
 * Return: the epoch.
 */
u64 pfsel_recent_epoch(void)
{
	return atomic64_read_acquire(&pfsel_epoch);
}

/**
 * pfsel_recent_invalidate - Start a new epoch
 *
 * Call it after a change to the policies (or the mode) is published.
 */
void pfsel_recent_invalidate(void)
{
	atomic64_inc_return(&pfsel_epoch);
}

static void fill(struct pfsel_recent *const entry,
		 const struct pfsel_subject *const subject,
		 const struct pfsel_request *const request, const u64 epoch)
{
	entry->epoch = epoch;
	entry->app = subject->app ? subject->app->id : 0;
	entry->uid = __kuid_val(subject->uid);
	entry->port = request->port;
	entry->op = request->op;
	entry->proto = request->proto;
	memcpy(entry->addr, request->addr, sizeof(entry->addr));
}

static struct pfsel_recent *slot(struct pfsel_recent_table *const table,
				 const struct pfsel_recent *const key)
{
	/* Every field but the epoch: the same for every entry of an epoch. */
	const u32 h =
		jhash2((const u32 *)&key->app,
		       (sizeof(*key) - offsetof(struct pfsel_recent, app)) /
			       sizeof(u32),
		       0);

	return &table->entries[!!in_serving_softirq()]
			      [h & ((1 << PFSEL_RECENT_BITS) - 1)];
}

/**
 * pfsel_recent_allowed - Tell whether a request was just allowed
 *
 * @subject: who makes it.
 * @request: what it is.
 * @epoch: pfsel_recent_epoch(), read before anything else.
 *
 * Return: true if this CPU allowed the same request in this epoch.
 */
bool pfsel_recent_allowed(const struct pfsel_subject *const subject,
			  const struct pfsel_request *const request,
			  const u64 epoch)
{
	struct pfsel_recent key;
	bool hit;

	fill(&key, subject, request, epoch);
	hit = !memcmp(slot(get_cpu_ptr(&pfsel_recent_tables), &key), &key,
		      sizeof(key));
	put_cpu_ptr(&pfsel_recent_tables);
	return hit;
}

/**
 * pfsel_recent_remember - Keep an allowed request
 *
 * @subject: who made it.
 * @request: what it was: allowed, with nothing to audit and nothing asked.
 * @epoch: the epoch read before it was decided.
 */
void pfsel_recent_remember(const struct pfsel_subject *const subject,
			   const struct pfsel_request *const request,
			   const u64 epoch)
{
	struct pfsel_recent key;

	fill(&key, subject, request, epoch);
	*slot(get_cpu_ptr(&pfsel_recent_tables), &key) = key;
	put_cpu_ptr(&pfsel_recent_tables);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

static void fill_request(struct pfsel_request *const request, const u8 last)
{
	memset(request, 0, sizeof(*request));
	request->op = PFSEL_OP_CONNECT;
	request->proto = PFSEL_PROTO_UDP;
	request->port = 5001;
	request->addr[10] = 0xff;
	request->addr[11] = 0xff;
	request->addr[12] = 127;
	request->addr[15] = last;
}

/* A remembered request is allowed again, in its epoch only. */
static void test_recent_remember_then_allowed(struct kunit *const test)
{
	struct pfsel_app app = { .id = 0x7ffffff0 };
	const struct pfsel_subject subject = {
		.app = &app,
		.uid = KUIDT_INIT(4242),
		.task = true,
	};
	struct pfsel_request request;
	bool before, after;
	u64 epoch;

	fill_request(&request, 1);
	epoch = pfsel_recent_epoch();
	/* One CPU throughout: the tables are per CPU. */
	preempt_disable();
	before = pfsel_recent_allowed(&subject, &request, epoch);
	pfsel_recent_remember(&subject, &request, epoch);
	after = pfsel_recent_allowed(&subject, &request, epoch);
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, before);
	KUNIT_EXPECT_TRUE(test, after);

	pfsel_recent_invalidate();
	KUNIT_EXPECT_FALSE(test, pfsel_recent_allowed(&subject, &request,
						      pfsel_recent_epoch()));
}

/* Any field of the request or the subject makes another request. */
static void test_recent_keys_do_not_alias(struct kunit *const test)
{
	struct pfsel_app app = { .id = 0x7ffffff1 }, other = { .id = 0x7ffffff2 };
	struct pfsel_subject subject = {
		.app = &app,
		.uid = KUIDT_INIT(4243),
		.task = true,
	};
	struct pfsel_request request, changed;
	u64 epoch = pfsel_recent_epoch();
	bool hit;

	fill_request(&request, 2);
	preempt_disable();
	pfsel_recent_remember(&subject, &request, epoch);

	changed = request;
	changed.port++;
	hit = pfsel_recent_allowed(&subject, &changed, epoch);
	changed = request;
	changed.op = PFSEL_OP_BIND;
	hit |= pfsel_recent_allowed(&subject, &changed, epoch);
	changed = request;
	changed.proto = PFSEL_PROTO_TCP;
	hit |= pfsel_recent_allowed(&subject, &changed, epoch);
	changed = request;
	changed.addr[15]++;
	hit |= pfsel_recent_allowed(&subject, &changed, epoch);
	subject.app = &other;
	hit |= pfsel_recent_allowed(&subject, &request, epoch);
	subject.app = &app;
	subject.uid = KUIDT_INIT(4244);
	hit |= pfsel_recent_allowed(&subject, &request, epoch);
	preempt_enable();

	KUNIT_EXPECT_FALSE(test, hit);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_recent_remember_then_allowed),
	KUNIT_CASE(test_recent_keys_do_not_alias),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_recent",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
