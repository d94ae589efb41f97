// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Recent allows, per CPU
 *
 * A loop that sends datagrams to one peer, or connects to one service
 * again and again, asks the same question each time.  The access vector
 * cache answers it, but only after the request's address and port have been
 * classified in both policies, two binary searches each.  In front of it,
 * each CPU keeps up to 128 requests that were allowed without any audit
 * record or question, keyed by the request itself: a repeat is then
 * allowed after a few word comparisons.
 *
 * The table is two-way set associative: a request hashes to a set of two
 * entries, and a new entry takes the first, pushing the older one to the
 * second.  A loop's few requests (socket(), then connect() to one peer)
 * may hash to the same set, and would evict each other on every iteration
 * if a set held one entry only.
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
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "app.h"
#include "recent.h"

#define PFSEL_RECENT_SET_BITS 6

/**
 * struct pfsel_recent - A request that was allowed
 *
 * @words: the request as five words, compared and hashed as such:
 * @epoch: the epoch it was decided in; 0 for an empty entry.
 * @app: id of the application identity (0 for none).
 * @uid: the subject's real uid.
 * @port: the request's port.
 * @op: its operation.
 * @proto: its protocol.
 * @addr: its address.
 */
struct pfsel_recent {
	union {
		u64 words[5];
		struct {
			u64 epoch;
			u64 app;
			u32 uid;
			u16 port;
			u8 op;
			u8 proto;
			u8 addr[16];
		};
	};
};

/* Per context (process, softirq), sets of two ways, the newer first. */
struct pfsel_recent_table {
	struct pfsel_recent sets[2][1 << PFSEL_RECENT_SET_BITS][2];
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

static bool same(const struct pfsel_recent *const a,
		 const struct pfsel_recent *const b)
{
	/* The address words first: they differ most often. */
	return a->words[4] == b->words[4] && a->words[3] == b->words[3] &&
	       a->words[2] == b->words[2] && a->words[1] == b->words[1] &&
	       a->words[0] == b->words[0];
}

static struct pfsel_recent *set(struct pfsel_recent_table *const table,
				const struct pfsel_recent *const key)
{
	/*
	 * Every field but the epoch, the same for every entry of an epoch.
	 * A rotation keeps the words' low bits from cancelling each other;
	 * hash_64()'s multiplication then mixes them into the top bits.
	 */
	const u64 folded = key->words[1] ^ rol64(key->words[2], 13) ^
			   rol64(key->words[3], 29) ^ rol64(key->words[4], 43);

	return table->sets[!!in_serving_softirq()]
			  [hash_64(folded, PFSEL_RECENT_SET_BITS)];
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
	const struct pfsel_recent *entries;
	struct pfsel_recent key;
	bool hit;

	fill(&key, subject, request, epoch);
	entries = set(get_cpu_ptr(&pfsel_recent_tables), &key);
	hit = same(&entries[0], &key) || same(&entries[1], &key);
	put_cpu_ptr(&pfsel_recent_tables);
	return hit;
}

/**
 * pfsel_recent_remember - Keep an allowed request
 *
 * @subject: who made it.
 * @request: what it was: allowed, with nothing to audit and nothing asked.
 * @epoch: the epoch read before it was decided.
 *
 * The request takes the first entry of its set; the entry that was there
 * moves to the second, and the second's goes.
 */
void pfsel_recent_remember(const struct pfsel_subject *const subject,
			   const struct pfsel_request *const request,
			   const u64 epoch)
{
	struct pfsel_recent key, *entries;

	fill(&key, subject, request, epoch);
	entries = set(get_cpu_ptr(&pfsel_recent_tables), &key);
	/* Remembered twice (two tasks racing here on one CPU): keep one. */
	if (!same(&entries[0], &key))
		entries[1] = entries[0];
	entries[0] = key;
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

/* A request that hashes to @entries' set, with another port than @request. */
static void colliding_request(struct kunit *const test,
			      const struct pfsel_subject *const subject,
			      const struct pfsel_request *const request,
			      struct pfsel_request *const other)
{
	struct pfsel_recent_table *const table = this_cpu_ptr(&pfsel_recent_tables);
	struct pfsel_recent key, candidate;
	unsigned int tries;

	fill(&key, subject, request, 1);
	*other = *request;
	for (tries = 0; tries < 65536; tries++) {
		other->port++;
		fill(&candidate, subject, other, 1);
		if (set(table, &candidate) == set(table, &key))
			return;
	}
	KUNIT_FAIL(test, "no port hashes to the same set");
}

/*
 * Two requests of one set are kept together; a third pushes out the
 * oldest: a loop alternating two colliding requests stays cached.
 */
static void test_recent_set_keeps_two(struct kunit *const test)
{
	struct pfsel_app app = { .id = 0x7ffffff3 };
	const struct pfsel_subject subject = {
		.app = &app,
		.uid = KUIDT_INIT(4245),
		.task = true,
	};
	struct pfsel_request first, second, third;
	bool first_kept, second_kept, first_after, second_after, third_after;
	u64 epoch;

	fill_request(&first, 3);
	preempt_disable();
	epoch = pfsel_recent_epoch();
	colliding_request(test, &subject, &first, &second);
	colliding_request(test, &subject, &second, &third);
	pfsel_recent_remember(&subject, &first, epoch);
	pfsel_recent_remember(&subject, &second, epoch);
	first_kept = pfsel_recent_allowed(&subject, &first, epoch);
	second_kept = pfsel_recent_allowed(&subject, &second, epoch);
	pfsel_recent_remember(&subject, &third, epoch);
	first_after = pfsel_recent_allowed(&subject, &first, epoch);
	second_after = pfsel_recent_allowed(&subject, &second, epoch);
	third_after = pfsel_recent_allowed(&subject, &third, epoch);
	preempt_enable();

	KUNIT_EXPECT_TRUE(test, first_kept);
	KUNIT_EXPECT_TRUE(test, second_kept);
	KUNIT_EXPECT_FALSE(test, first_after);
	KUNIT_EXPECT_TRUE(test, second_after);
	KUNIT_EXPECT_TRUE(test, third_after);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_recent_remember_then_allowed),
	KUNIT_CASE(test_recent_keys_do_not_alias),
	KUNIT_CASE(test_recent_set_keeps_two),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_recent",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
