// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Recent allows, per CPU
 *
 * A loop that sends datagrams to a few hundred peers, or connects to one
 * service again and again, asks the same questions over and over.  The
 * access vector cache answers them, but only after the request's address
 * and port have been classified in both policies and each policy's answer
 * looked up and combined: some 800 instructions (docs/BENCHMARKS.md),
 * several times what the call costs pfsel when it is answered here.  In front of it, each CPU
 * keeps the requests it allowed last without any audit record or
 * question, keyed by the request itself: a repeat is then allowed after a
 * hash and a few word comparisons.  An allow that every policy gives a
 * whole prefix alike (an IPv4 address's /24, an IPv6 address's /64, where
 * no policy draws a line and no host rule applies: decide.c) is kept as
 * the prefix's, so that the peers of one network, however many, take one
 * entry; a lookup tries the prefix's entry (inline, in the hooks), then
 * the address's own (out of line: pfsel_decide_fully()).
 *
 * The table is four-way set associative: a request hashes to a set of four
 * entries, and a new entry takes the first, pushing the others down by
 * one; the last goes.  Process context holds 1024 requests, so that a
 * working set of a few hundred peers stays in it even where several of
 * them hash to one set; inbound connections (softirq), 256 peers.  That is
 * 70 KiB per CPU.
 *
 * Only plain allows are kept: a denial, an ask or anything to audit always
 * takes the full path.  An allow that host names could change is kept
 * until the first name it looked at expires, which the lookup sees; a name
 * learned starts a new epoch (resolver.c), as does every other change to
 * the names an address has but an expiry (a load or an unload forgets
 * what a resolver no longer trusted taught; a pair is pushed out only
 * by one learned).  Every entry carries the epoch it was decided in;
 * loading or unloading a policy, and switching the global mode, start a
 * new epoch, which no entry matches.  An epoch is read before the policies
 * are, and a new one begins after a change is published, so an entry can
 * only be older than the policies it was decided with, never newer.  The
 * epoch is 64 bits wide: it never wraps round to an old entry's.
 *
 * Softirq (inbound connections) and process context have separate tables,
 * so that a softirq on top of a hook never sees half an entry.
 */

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <net/net_namespace.h>

#include "recent.h"

/*
 * A key's namespace pointer has room for the length (recent.h): its low
 * bits are clear, and every length fits in them.
 */
static_assert(__alignof__(struct net) % BIT(PFSEL_RECENT_LEN_BITS) == 0);
static_assert(BIT(PFSEL_RECENT_LEN_BITS) >= PFSEL_PREFIX_LENS);

DEFINE_PER_CPU(struct pfsel_recent_tables, pfsel_recent_tables);
/* The epoch counter; starts at 1: entries of epoch 0 are empty. */
atomic64_t pfsel_recent_epochs = ATOMIC64_INIT(1);

/**
 * pfsel_recent_invalidate - Start a new epoch
 *
 * Call it after a change to the policies (or the mode) is published.
 */
void pfsel_recent_invalidate(void)
{
	atomic64_inc_return(&pfsel_recent_epochs);
}

/**
 * pfsel_recent_remember - Keep an allowed request
 *
 * @app: id of the subject's application identity, or 0.
 * @uid: the subject's real uid.
 * @request: what it was: allowed, with nothing to audit and nothing asked.
 * @epoch: the epoch read before it was decided.
 * @expires: jiffies when the first host name its decision looked at
 *	     expires (never 0), or 0 when it looked at none.
 * @whole_prefix: the decision looked at no host name, and every policy
 *		  gave the request's whole prefix its address's class: the
 *		  entry is the prefix's, and answers for each of its
 *		  addresses (recent.h).
 *
 * The request takes the first entry of its set; the entries before the
 * one it replaces move down by one.  It replaces itself if it is there
 * already (two tasks raced to decide it on this CPU), else the last, the
 * oldest.
 */
void pfsel_recent_remember(const u64 app, const kuid_t uid,
			   const struct pfsel_request *const request,
			   const u64 epoch, const unsigned long expires,
			   const bool whole_prefix)
{
	struct pfsel_recent key = pfsel_recent_key(app, uid, request, epoch);
	struct pfsel_recent_set *set;
	int way, i;

	if (whole_prefix)
		key = pfsel_recent_prefix_key(&key);
	set = pfsel_recent_set(get_cpu_ptr(&pfsel_recent_tables), &key);
	/* Where the request is already, or else the last entry. */
	for (way = 0; way < PFSEL_RECENT_WAYS - 1; way++)
		if (pfsel_recent_same(&set->ways[way], &key))
			break;
	/*
	 * Bounds the compiler knows, so that it copies the entries inline
	 * rather than calling memmove() for a length known only here.
	 */
	for (i = PFSEL_RECENT_WAYS - 1; i > 0; i--)
		if (i <= way)
			set->ways[i] = set->ways[i - 1];
	key.expires = expires;
	set->ways[0] = key;
	put_cpu_ptr(&pfsel_recent_tables);
}

/**
 * pfsel_recent_allowed - Tell whether a request was just allowed
 *
 * @app: id of the subject's application identity, or 0.
 * @uid: the subject's real uid.
 * @request: the request.
 * @epoch: pfsel_recent_epoch(), read before anything else.
 *
 * Return: true if this CPU allowed the same request in this epoch, by the
 * entry of its address (pfsel_recent_prefix_allowed() looks for its
 * prefix's).
 */
bool pfsel_recent_allowed(const u64 app, const kuid_t uid,
			  const struct pfsel_request *const request,
			  const u64 epoch)
{
	const struct pfsel_recent key =
		pfsel_recent_key(app, uid, request, epoch);
	const bool hit =
		pfsel_recent_held(get_cpu_ptr(&pfsel_recent_tables), &key);

	put_cpu_ptr(&pfsel_recent_tables);
	return hit;
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>
#include <linux/inet.h>

#include "reset.h"

/* Who makes a test's requests. */
struct test_subject {
	u64 app;
	kuid_t uid;
};

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
	const struct test_subject subject = {
		.app = 0x7ffffff0,
		.uid = KUIDT_INIT(4242),
	};
	struct pfsel_request request;
	bool before, after;
	u64 epoch;

	fill_request(&request, 1);
	epoch = pfsel_recent_epoch();
	/* One CPU throughout: the tables are per CPU. */
	preempt_disable();
	before =
		pfsel_recent_allowed(subject.app, subject.uid, &request, epoch);
	pfsel_recent_remember(subject.app, subject.uid, &request, epoch, 0,
			      false);
	after = pfsel_recent_allowed(subject.app, subject.uid, &request, epoch);
	preempt_enable();
	KUNIT_EXPECT_FALSE(test, before);
	KUNIT_EXPECT_TRUE(test, after);

	pfsel_recent_invalidate();
	KUNIT_EXPECT_FALSE(test, pfsel_recent_allowed(subject.app, subject.uid,
						      &request,
						      pfsel_recent_epoch()));
}

/*
 * An allow that looked at host names answers until the first of them
 * expires, and not from then on.
 */
static void test_recent_until_a_name_expires(struct kunit *const test)
{
	const struct test_subject subject = {
		.app = 0x7ffffff3,
		.uid = KUIDT_INIT(4245),
	};
	struct pfsel_request live, expired;
	const u64 epoch = pfsel_recent_epoch();
	unsigned long now;
	bool live_hit, expired_hit;

	fill_request(&live, 3);
	fill_request(&expired, 4);
	preempt_disable();
	now = jiffies;
	pfsel_recent_remember(subject.app, subject.uid, &live, epoch,
			      now + 3600 * HZ, false);
	/* A deadline of now: the name's walk would no longer give it. */
	pfsel_recent_remember(subject.app, subject.uid, &expired, epoch,
			      now ?: now - 1, false);
	live_hit = pfsel_recent_allowed(subject.app, subject.uid, &live, epoch);
	expired_hit =
		pfsel_recent_allowed(subject.app, subject.uid, &expired, epoch);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, live_hit);
	KUNIT_EXPECT_FALSE(test, expired_hit);
}

/*
 * Whether the request is allowed at once, as a hook and
 * pfsel_decide_fully() look: its prefix's entry, then its own.  Out of
 * line: each inlined call's keys would take the test's frame past the
 * kernel's bound (KASAN pads every one).
 */
static noinline bool allowed(const struct test_subject *const subject,
			     const struct pfsel_request *const request,
			     const u64 epoch)
{
	return pfsel_recent_prefix_allowed(subject->app, subject->uid, request,
					   epoch) ||
	       pfsel_recent_allowed(subject->app, subject->uid, request, epoch);
}

/*
 * A prefix's entry answers every address of the prefix, in its epoch
 * only, and no address outside it; an address's own entry answers for no
 * other address of its prefix, its first included.
 */
static void test_recent_prefix(struct kunit *const test)
{
	const struct test_subject subject = {
		.app = 0x7ffffff4,
		.uid = KUIDT_INIT(4246),
	};
	struct pfsel_request request, other, outside, first, v6, v6_other,
		v6_outside;
	u64 epoch = pfsel_recent_epoch();
	bool hits[4], misses[4];
	size_t i;

	fill_request(&request, 7);
	fill_request(&other, 200);
	fill_request(&outside, 7);
	outside.addr[14] = 1;
	fill_request(&first, 0);
	/* 2001:db8:0:5::7, another address of its /64, one of the next. */
	fill_request(&v6, 0);
	v6.addr[10] = 0;
	v6.addr[11] = 0;
	v6.addr[12] = 0;
	v6.addr[0] = 0x20;
	v6.addr[1] = 0x01;
	v6.addr[2] = 0x0d;
	v6.addr[3] = 0xb8;
	v6.addr[7] = 5;
	v6.addr[15] = 7;
	v6_other = v6;
	v6_other.addr[8] = 0x80;
	v6_other.addr[15] = 9;
	v6_outside = v6;
	v6_outside.addr[7] = 6;

	preempt_disable();
	pfsel_recent_remember(subject.app, subject.uid, &request, epoch, 0,
			      true);
	pfsel_recent_remember(subject.app, subject.uid, &v6, epoch, 0, true);
	hits[0] = allowed(&subject, &other, epoch);
	hits[1] = allowed(&subject, &first, epoch);
	hits[2] = allowed(&subject, &v6_other, epoch);
	misses[0] = allowed(&subject, &outside, epoch);
	misses[1] = allowed(&subject, &v6_outside, epoch);
	/* A new epoch: no longer, for any address of the prefix. */
	pfsel_recent_invalidate();
	misses[2] = allowed(&subject, &other, pfsel_recent_epoch());
	/* An address's own entry, the prefix's first address's too. */
	epoch = pfsel_recent_epoch();
	fill_request(&request, 0);
	pfsel_recent_remember(subject.app, subject.uid, &request, epoch, 0,
			      false);
	hits[3] = allowed(&subject, &request, epoch);
	misses[3] = allowed(&subject, &other, epoch);
	preempt_enable();

	for (i = 0; i < ARRAY_SIZE(hits); i++) {
		KUNIT_EXPECT_TRUE_MSG(test, hits[i], "hit %zu", i);
		KUNIT_EXPECT_FALSE_MSG(test, misses[i], "miss %zu", i);
	}
}

/* Any field of the request or the subject makes another request. */
static void test_recent_keys_do_not_alias(struct kunit *const test)
{
	struct test_subject subject = {
		.app = 0x7ffffff1,
		.uid = KUIDT_INIT(4243),
	};
	struct pfsel_request request, changed;
	u64 epoch = pfsel_recent_epoch();
	bool hit;

	fill_request(&request, 2);
	preempt_disable();
	pfsel_recent_remember(subject.app, subject.uid, &request, epoch, 0,
			      false);

	changed = request;
	changed.port++;
	hit = allowed(&subject, &changed, epoch);
	changed = request;
	changed.op = PFSEL_OP_BIND;
	hit |= allowed(&subject, &changed, epoch);
	changed = request;
	changed.proto = PFSEL_PROTO_TCP;
	hit |= allowed(&subject, &changed, epoch);
	changed = request;
	changed.addr[15]++;
	hit |= allowed(&subject, &changed, epoch);
	/* Another namespace may know names for the address. */
	changed = request;
	changed.net = &init_net;
	hit |= allowed(&subject, &changed, epoch);
	subject.app = 0x7ffffff2;
	hit |= allowed(&subject, &request, epoch);
	subject.app = 0x7ffffff1;
	subject.uid = KUIDT_INIT(4244);
	hit |= allowed(&subject, &request, epoch);
	preempt_enable();

	KUNIT_EXPECT_FALSE(test, hit);
}

/* A request that hashes to @request's set, with a higher port. */
static void colliding_request(struct kunit *const test,
			      const struct test_subject *const subject,
			      const struct pfsel_request *const request,
			      struct pfsel_request *const other)
{
	struct pfsel_recent_tables *const tables =
		this_cpu_ptr(&pfsel_recent_tables);
	const struct pfsel_recent key =
		pfsel_recent_key(subject->app, subject->uid, request, 1);
	struct pfsel_recent candidate;
	unsigned int tries;

	*other = *request;
	for (tries = 0; tries < 65536; tries++) {
		other->port++;
		candidate =
			pfsel_recent_key(subject->app, subject->uid, other, 1);
		if (pfsel_recent_set(tables, &candidate) ==
		    pfsel_recent_set(tables, &key))
			return;
	}
	KUNIT_FAIL(test, "no port hashes to the same set");
}

#define PFSEL_RECENT_TEST_REQUESTS (PFSEL_RECENT_WAYS + 1)

/*
 * Requests 0..PFSEL_RECENT_WAYS, all hashing to one set, of which this CPU
 * remembers the first PFSEL_RECENT_WAYS, in order.
 */
static void fill_set(struct kunit *const test,
		     const struct test_subject *const subject,
		     struct pfsel_request *const requests, const u64 epoch)
{
	int i;

	fill_request(&requests[0], 3);
	for (i = 1; i < PFSEL_RECENT_TEST_REQUESTS; i++)
		colliding_request(test, subject, &requests[i - 1],
				  &requests[i]);
	for (i = 0; i < PFSEL_RECENT_WAYS; i++)
		pfsel_recent_remember(subject->app, subject->uid, &requests[i],
				      epoch, 0, false);
}

/* Which of @requests this CPU has kept, one bit each. */
static unsigned int kept(const struct test_subject *const subject,
			 const struct pfsel_request *const requests,
			 const u64 epoch)
{
	unsigned int bits = 0;
	int i;

	for (i = 0; i < PFSEL_RECENT_TEST_REQUESTS; i++)
		if (pfsel_recent_allowed(subject->app, subject->uid,
					 &requests[i], epoch))
			bits |= 1U << i;
	return bits;
}

/*
 * A set keeps as many requests as it has ways; one more pushes out the
 * oldest: a loop cycling over four colliding requests stays cached.
 */
static void test_recent_set_keeps_four(struct kunit *const test)
{
	const struct test_subject subject = {
		.app = 0x7ffffff3,
		.uid = KUIDT_INIT(4245),
	};
	struct pfsel_request requests[PFSEL_RECENT_TEST_REQUESTS];
	unsigned int before, after;
	u64 epoch;

	preempt_disable();
	epoch = pfsel_recent_epoch();
	fill_set(test, &subject, requests, epoch);
	before = kept(&subject, requests, epoch);
	pfsel_recent_remember(subject.app, subject.uid,
			      &requests[PFSEL_RECENT_WAYS], epoch, 0, false);
	after = kept(&subject, requests, epoch);
	preempt_enable();

	/* All four of one set, not the fifth; then the fifth, not the first. */
	KUNIT_EXPECT_EQ(test, before, 0xfU);
	KUNIT_EXPECT_EQ(test, after, 0x1eU);
}

/*
 * A request remembered again moves to the front instead of taking a
 * second entry, so it does not push out the others.
 */
static void test_recent_remember_again_keeps_others(struct kunit *const test)
{
	const struct test_subject subject = {
		.app = 0x7ffffff4,
		.uid = KUIDT_INIT(4246),
	};
	struct pfsel_request requests[PFSEL_RECENT_TEST_REQUESTS];
	unsigned int after;
	u64 epoch;

	preempt_disable();
	epoch = pfsel_recent_epoch();
	fill_set(test, &subject, requests, epoch);
	/* The oldest again: now the newest, so the second is the oldest. */
	pfsel_recent_remember(subject.app, subject.uid, &requests[0], epoch, 0,
			      false);
	pfsel_recent_remember(subject.app, subject.uid, &requests[0], epoch, 0,
			      false);
	pfsel_recent_remember(subject.app, subject.uid,
			      &requests[PFSEL_RECENT_WAYS], epoch, 0, false);
	after = kept(&subject, requests, epoch);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, after, 0x1dU);
}

/*
 * A working set of 256 destinations, as a program sending to as many peers
 * on one port has (and as the benchmark's "hits"), is kept whole: the
 * hash spreads consecutive addresses over the sets rather than piling
 * five of them into one.
 */
static void test_recent_keeps_working_set(struct kunit *const test)
{
	struct test_subject subject = { .uid = KUIDT_INIT(1001) };
	struct pfsel_request request;
	unsigned int missing = 0;
	u64 epoch;
	int i, app;

	fill_request(&request, 1);
	for (app = 1; app <= 3; app++) {
		subject.app = app;
		preempt_disable();
		pfsel_recent_invalidate();
		epoch = pfsel_recent_epoch();
		for (i = 1; i <= 256; i++) {
			request.addr[13] = i >> 8;
			request.addr[14] = i & 0xff;
			pfsel_recent_remember(subject.app, subject.uid,
					      &request, epoch, 0, false);
		}
		for (i = 1; i <= 256; i++) {
			request.addr[13] = i >> 8;
			request.addr[14] = i & 0xff;
			if (!pfsel_recent_allowed(subject.app, subject.uid,
						  &request, epoch))
				missing++;
		}
		preempt_enable();
	}
	KUNIT_EXPECT_EQ(test, missing, 0U);
}

/*
 * Adversary read of the recent allows of a prefix: 0.0.0.0 is a network
 * of one (pfsel_addr_prefix_len()), so its prefix entry was keyed by
 * ::ffff:0.0.0.0 marked a prefix's, and that was also the key of the
 * prefix entry of 0.0.0.0/24, which every 0.0.0.x looks for inline (the
 * keys hold the prefix's length now: recent.h).  An
 * allow of a bind to 0.0.0.0 (the policy's "unspecified", a class of its
 * own) must answer for 0.0.0.0 alone, never for 0.0.0.200 of the same
 * port, call and subject, which the policy may deny.  Control: the entry
 * answers for 0.0.0.0 itself.
 */
static void test_recent_unspecified_is_not_its_slash24(struct kunit *const test)
{
	const struct test_subject subject = {
		.app = 0x7ffffff5,
		.uid = KUIDT_INIT(4247),
	};
	struct pfsel_request zero, other;
	bool own, leaked;
	u64 epoch;

	fill_request(&zero, 0);
	zero.op = PFSEL_OP_BIND;
	zero.addr[12] = 0;
	other = zero;
	other.addr[15] = 200;
	preempt_disable();
	pfsel_recent_invalidate();
	epoch = pfsel_recent_epoch();
	/*
	 * As decide_uncached() remembers it: a network of one is covered
	 * by any class, so the allow is kept as its prefix's.
	 */
	pfsel_recent_remember(subject.app, subject.uid, &zero, epoch, 0, true);
	own = allowed(&subject, &zero, epoch);
	leaked = allowed(&subject, &other, epoch);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, own);
	KUNIT_EXPECT_FALSE_MSG(test, leaked,
			       "0.0.0.0's allow answers for 0.0.0.200");
}

/*
 * Adversary read: a prefix's entry answers, for another address of the
 * prefix, only the same subject, call and namespace; and :: (its own
 * prefix, as every address of ::/64 but IPv4's) answers neither ::1,
 * ::ffff:0.0.0.0 nor another address of ::/64.  Control: the entry
 * answers for the other address as it is.
 */
static void test_recent_prefix_keys_do_not_alias(struct kunit *const test)
{
	struct test_subject subject = {
		.app = 0x7ffffff6,
		.uid = KUIDT_INIT(4248),
	};
	struct pfsel_request request, other, changed, any6;
	u64 epoch;
	bool control, hit;

	fill_request(&request, 7);
	other = request;
	other.addr[15] = 250;
	memset(&any6, 0, sizeof(any6));
	any6.op = PFSEL_OP_BIND;
	any6.proto = PFSEL_PROTO_UDP;
	any6.port = 5001;
	preempt_disable();
	pfsel_recent_invalidate();
	epoch = pfsel_recent_epoch();
	pfsel_recent_remember(subject.app, subject.uid, &request, epoch, 0,
			      true);
	pfsel_recent_remember(subject.app, subject.uid, &any6, epoch, 0, true);
	control = allowed(&subject, &other, epoch);
	changed = other;
	changed.port++;
	hit = allowed(&subject, &changed, epoch);
	changed = other;
	changed.op = PFSEL_OP_BIND;
	hit |= allowed(&subject, &changed, epoch);
	changed = other;
	changed.proto = PFSEL_PROTO_TCP;
	hit |= allowed(&subject, &changed, epoch);
	changed = other;
	changed.net = &init_net;
	hit |= allowed(&subject, &changed, epoch);
	subject.app++;
	hit |= allowed(&subject, &other, epoch);
	subject.app--;
	subject.uid = KUIDT_INIT(4249);
	hit |= allowed(&subject, &other, epoch);
	subject.uid = KUIDT_INIT(4248);
	changed = any6;
	changed.addr[15] = 1;
	hit |= allowed(&subject, &changed, epoch);
	changed.addr[15] = 5;
	changed.addr[8] = 0x80;
	hit |= allowed(&subject, &changed, epoch);
	changed = any6;
	changed.addr[10] = 0xff;
	changed.addr[11] = 0xff;
	hit |= allowed(&subject, &changed, epoch);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, control);
	KUNIT_EXPECT_FALSE(test, hit);
}

/* A bind to UDP port 5001 of @text, an IPv6 address or ::ffff:a.b.c.d. */
static void fill_bind(struct kunit *const test,
		      struct pfsel_request *const request,
		      const char *const text)
{
	fill_request(request, 0);
	request->op = PFSEL_OP_BIND;
	KUNIT_ASSERT_TRUE_MSG(test, in6_pton(text, -1, request->addr, -1, NULL),
			      "%s", text);
}

/*
 * An allow kept, for its address alone or for its whole prefix, a request
 * made after it, and whether the allow answers that request.
 */
struct kept_and_asked {
	const char *kept;
	bool whole_prefix;
	const char *asked;
	bool answers;
};

/*
 * Each row in an epoch of its own: the allow of a bind to @kept, kept as
 * decide_uncached() keeps it, must answer the bind to @asked, looked for
 * as a hook looks, or not, as the row says.
 */
static void expect_answers(struct kunit *const test,
			   const struct kept_and_asked *const rows,
			   const size_t n)
{
	const struct test_subject subject = {
		.app = 0x7ffffff7,
		.uid = KUIDT_INIT(4250),
	};
	struct pfsel_request kept, asked;
	u64 epoch;
	size_t i;
	bool hit;

	for (i = 0; i < n; i++) {
		fill_bind(test, &kept, rows[i].kept);
		fill_bind(test, &asked, rows[i].asked);
		preempt_disable();
		pfsel_recent_invalidate();
		epoch = pfsel_recent_epoch();
		pfsel_recent_remember(subject.app, subject.uid, &kept, epoch, 0,
				      rows[i].whole_prefix);
		hit = allowed(&subject, &asked, epoch);
		preempt_enable();
		KUNIT_EXPECT_EQ_MSG(test, hit, rows[i].answers,
				    "%s kept%s, %s asked", rows[i].kept,
				    rows[i].whole_prefix ? " for its prefix" :
							   "",
				    rows[i].asked);
	}
}

/*
 * The reverse of test_recent_unspecified_is_not_its_slash24, and the
 * unspecified addresses against each other: 0.0.0.0/24's allow answers
 * for its addresses but not for 0.0.0.0 (::ffff:0.0.0.0), a prefix of its
 * own; neither 0.0.0.0's nor ::'s answers for the other.
 */
static void test_recent_slash24_is_not_unspecified(struct kunit *const test)
{
	static const struct kept_and_asked rows[] = {
		{ "::ffff:0.0.0.200", true, "::ffff:0.0.0.7", true },
		{ "::ffff:0.0.0.200", true, "::ffff:0.0.0.0", false },
		{ "::ffff:0.0.0.200", true, "::", false },
		{ "::ffff:0.0.0.0", true, "::ffff:0.0.0.0", true },
		{ "::ffff:0.0.0.0", true, "::", false },
		{ "::ffff:0.0.0.0", false, "::ffff:0.0.0.9", false },
		{ "::", true, "::", true },
		{ "::", true, "::ffff:0.0.0.0", false },
		{ "::", true, "::0.0.0.1", false },
	};

	expect_answers(test, rows, ARRAY_SIZE(rows));
}

/*
 * 127.0.0.0/8 ("loopback") with a rule for 127.0.0.1 alone divides
 * 127.0.0.0/24, so its allows are the addresses' own: 127.0.0.1's answers
 * for neither 127.0.0.0 (the /24's first address) nor 127.0.0.2, nor
 * theirs for it; 127.0.1.0/24's, one class's, answers for its addresses
 * only; ::1's (a prefix of its own) for no IPv4 loopback address.
 */
static void test_recent_loopback_divided(struct kunit *const test)
{
	static const struct kept_and_asked rows[] = {
		{ "::ffff:127.0.0.1", false, "::ffff:127.0.0.1", true },
		{ "::ffff:127.0.0.1", false, "::ffff:127.0.0.0", false },
		{ "::ffff:127.0.0.1", false, "::ffff:127.0.0.2", false },
		{ "::ffff:127.0.0.0", false, "::ffff:127.0.0.0", true },
		{ "::ffff:127.0.0.0", false, "::ffff:127.0.0.1", false },
		{ "::ffff:127.0.0.2", false, "::ffff:127.0.0.1", false },
		{ "::ffff:127.0.1.1", true, "::ffff:127.0.1.0", true },
		{ "::ffff:127.0.1.1", true, "::ffff:127.0.1.255", true },
		{ "::ffff:127.0.1.1", true, "::ffff:127.0.0.1", false },
		{ "::ffff:127.0.1.1", true, "::ffff:127.0.2.1", false },
		{ "::1", true, "::1", true },
		{ "::1", true, "::ffff:127.0.0.1", false },
		{ "::1", true, "::ffff:0.0.0.1", false },
	};

	expect_answers(test, rows, ARRAY_SIZE(rows));
}

/*
 * Prefixes a policy divides exactly at an address (192.0.2.0/24 at
 * 192.0.2.128; 198.51.100.0/24 at its first and last addresses;
 * 2001:db8::/64 at its first): the allow of the address where a class
 * starts is its own and answers for no other address, the /24's first
 * and last included, nor another's for it; an undivided prefix's answers
 * for each of its addresses.
 */
static void test_recent_divided_at_the_address(struct kunit *const test)
{
	static const struct kept_and_asked rows[] = {
		{ "::ffff:192.0.2.128", false, "::ffff:192.0.2.128", true },
		{ "::ffff:192.0.2.128", false, "::ffff:192.0.2.129", false },
		{ "::ffff:192.0.2.128", false, "::ffff:192.0.2.0", false },
		{ "::ffff:192.0.2.0", false, "::ffff:192.0.2.0", true },
		{ "::ffff:192.0.2.0", false, "::ffff:192.0.2.1", false },
		{ "::ffff:192.0.2.127", false, "::ffff:192.0.2.128", false },
		{ "::ffff:198.51.100.0", false, "::ffff:198.51.100.1", false },
		{ "::ffff:198.51.100.255", false, "::ffff:198.51.100.0",
		  false },
		{ "::ffff:198.51.100.254", false, "::ffff:198.51.100.255",
		  false },
		{ "::ffff:192.0.3.9", true, "::ffff:192.0.3.0", true },
		{ "::ffff:192.0.3.9", true, "::ffff:192.0.2.128", false },
		{ "2001:db8::", false, "2001:db8::1", false },
		{ "2001:db8::5", true, "2001:db8::", true },
		{ "2001:db8::5", true, "2001:db8::ffff:ffff:ffff:ffff", true },
		{ "2001:db8::5", true, "2001:db8:0:1::", false },
	};

	expect_answers(test, rows, ARRAY_SIZE(rows));
}

/*
 * The hooks look a connect's or a send's prefix up with a request of
 * which pfsel_classify_peer() filled only the key's fields (classify_peer.h);
 * whatever the rest holds, its key is the whole request's.  So it is
 * answered by exactly the entries the whole request is, and stops being
 * answered as they do: by the reset of a load or an unload of a policy
 * (the same call, pfsel_reset_caches()), of a mode switch, and at the
 * expiry of a name its decision looked at.  An answer of the agent's is
 * never kept (decide.c keeps plain allows only), so its end has nothing
 * here to invalidate.
 */
static void test_recent_peer_key_and_resets(struct kunit *const test)
{
	static const struct pfsel_change changes[] = {
		{ .kind = PFSEL_CHANGE_POLICY, .slot = PFSEL_SLOT_USER,
		  .uid = KUIDT_INIT(4251) },
		{ .kind = PFSEL_CHANGE_POLICY, .slot = PFSEL_SLOT_SYSTEM,
		  .uid = INVALID_UID },
		{ .kind = PFSEL_CHANGE_MODE, .uid = INVALID_UID },
	};
	const struct test_subject subject = {
		.app = 0x7ffffff8,
		.uid = KUIDT_INIT(4251),
	};
	struct pfsel_request whole, peer;
	struct pfsel_recent a, b;
	bool before[ARRAY_SIZE(changes)], after[ARRAY_SIZE(changes)];
	bool named, expired;
	unsigned long now;
	u64 epoch;
	size_t i;

	fill_request(&whole, 9);
	whole.family = PFSEL_FAMILY_INET;
	whole.lport = 33000;
	whole.laddr[15] = 1;
	whole.net = &init_net;
	memset(&peer, 0x5a, sizeof(peer));
	peer.op = whole.op;
	peer.proto = whole.proto;
	peer.port = whole.port;
	memcpy(peer.addr, whole.addr, sizeof(peer.addr));
	peer.net = whole.net;
	a = pfsel_recent_key(subject.app, subject.uid, &whole, 1);
	b = pfsel_recent_key(subject.app, subject.uid, &peer, 1);
	KUNIT_EXPECT_MEMEQ(test, &a, &b, sizeof(a));

	for (i = 0; i < ARRAY_SIZE(changes); i++) {
		epoch = pfsel_recent_epoch();
		preempt_disable();
		pfsel_recent_remember(subject.app, subject.uid, &whole, epoch,
				      0, true);
		before[i] = pfsel_recent_prefix_allowed(subject.app,
							subject.uid, &peer,
							epoch);
		preempt_enable();
		pfsel_reset_caches(&changes[i]);
		preempt_disable();
		after[i] = pfsel_recent_prefix_allowed(subject.app, subject.uid,
						       &peer,
						       pfsel_recent_epoch());
		preempt_enable();
		KUNIT_EXPECT_TRUE_MSG(test, before[i], "change %zu", i);
		KUNIT_EXPECT_FALSE_MSG(test, after[i], "change %zu", i);
	}

	/* An allow that looked at a name: until the name expires. */
	preempt_disable();
	epoch = pfsel_recent_epoch();
	now = jiffies;
	pfsel_recent_remember(subject.app, subject.uid, &whole, epoch,
			      now + 3600 * HZ, false);
	named = pfsel_recent_allowed(subject.app, subject.uid, &peer, epoch);
	pfsel_recent_remember(subject.app, subject.uid, &whole, epoch,
			      now ?: now - 1, false);
	expired = pfsel_recent_allowed(subject.app, subject.uid, &peer, epoch);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, named);
	KUNIT_EXPECT_FALSE(test, expired);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_recent_remember_then_allowed),
	KUNIT_CASE(test_recent_keys_do_not_alias),
	KUNIT_CASE(test_recent_until_a_name_expires),
	KUNIT_CASE(test_recent_prefix),
	KUNIT_CASE(test_recent_set_keeps_four),
	KUNIT_CASE(test_recent_remember_again_keeps_others),
	KUNIT_CASE(test_recent_keeps_working_set),
	KUNIT_CASE(test_recent_unspecified_is_not_its_slash24),
	KUNIT_CASE(test_recent_prefix_keys_do_not_alias),
	KUNIT_CASE(test_recent_slash24_is_not_unspecified),
	KUNIT_CASE(test_recent_loopback_divided),
	KUNIT_CASE(test_recent_divided_at_the_address),
	KUNIT_CASE(test_recent_peer_key_and_resets),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_recent",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
