// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The first DNS message of a TCP stream, reassembled
 *
 * Over TCP a DNS message goes as two bytes of length, then the message
 * (RFC 1035 section 4.2.2, RFC 7766), in segments that the network may
 * split, repeat or reorder.  resolver.c reads a trusted resolver's answer
 * from the segments as they reach the socket's receive hook, before TCP
 * has put them in order; this file puts the stream's first message
 * together from them.
 *
 * In order only: from the sequence number where the stream starts, each
 * segment gives the bytes that follow those already taken, and only the
 * first copy of a byte counts, as TCP itself keeps the first copy of the
 * bytes it has.  A segment that starts past the next byte wanted leaves a
 * gap: TCP would hold it out of order, and the bytes it waits for may
 * never pass here again (TCP does not ask again for what it holds), so
 * the reassembly is given up and nothing is learned, which fails safe.
 * What follows the first message is not read.
 *
 * Memory: the message's buffer is allocated when its length is known, in
 * softirq (GFP_ATOMIC), of exactly that length (at most 65535 bytes); it
 * is handed to the caller when whole, and given back as soon as the
 * reassembly is given up, its time runs out, or the stream is freed.  The
 * buffers that exist at once, over every stream of every namespace, hold
 * at most PFSEL_DNS_STREAM_BYTES bytes: beyond that a stream is given up,
 * never waited for.  A server that sends a length and then nothing sends
 * no segment that would find its stream out of time: a timer, armed with
 * the buffer, gives it back at the stream's time, so that stalled streams
 * keep no other stream from its buffer for longer than their time (and
 * the timer wheel's rounding, at most an eighth of it), however long
 * their sockets live.
 */

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/minmax.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>

#include "cache_limits.h"
#include "dnsstream.h"
#include "queries.h"

/* The message's length, in the two bytes before it. */
#define DNS_TCP_LENGTH_SIZE 2

/* The bytes of every message buffer that exists. */
static atomic_long_t pfsel_dns_stream_buffered = ATOMIC_LONG_INIT(0);

/* A buffer for a message of @len bytes, within the bound; or NULL. */
static u8 *buffer_alloc(const u16 len)
{
	u8 *buf;

	if (atomic_long_add_return(len, &pfsel_dns_stream_buffered) >
	    PFSEL_DNS_STREAM_BYTES)
		goto refused;
	buf = kmalloc(len, GFP_ATOMIC | __GFP_NOWARN);
	if (buf)
		return buf;
refused:
	atomic_long_sub(len, &pfsel_dns_stream_buffered);
	return NULL;
}

/**
 * pfsel_dns_stream_free_msg - Give back a message handed out whole
 * @msg: the message, from pfsel_dns_stream_take()
 * @len: its length, as handed out with it
 *
 * Context: any.
 */
void pfsel_dns_stream_free_msg(u8 *const msg, const u16 len)
{
	kfree(msg);
	atomic_long_sub(len, &pfsel_dns_stream_buffered);
}

/* Gives the stream's buffer back, when it has one. */
static void give_back(struct pfsel_dns_stream *const stream)
{
	lockdep_assert_held(&stream->lock);
	if (stream->msg) {
		pfsel_dns_stream_free_msg(stream->msg, stream->len);
		stream->msg = NULL;
	}
}

/*
 * A stream's time ran out while it held its buffer.  The buffer goes back
 * now; the stream stays as it is, and the next segment, if one comes,
 * finds it out of time and ends it (take_bytes() would take nothing into
 * a buffer given back anyway).
 */
static void stream_expired(struct timer_list *const timer)
{
	struct pfsel_dns_stream *const stream =
		from_timer(stream, timer, expiry);

	spin_lock_bh(&stream->lock);
	give_back(stream);
	spin_unlock_bh(&stream->lock);
}

/**
 * pfsel_dns_stream_new - Make a stream whose first message is to be read
 * @until: jiffies from which nothing is taken any more
 * @gfp: how to allocate it
 *
 * It takes nothing until pfsel_dns_stream_begin() gives it its start.
 * Its @server is the caller's to fill.
 *
 * Return: the stream, or NULL without memory.
 */
struct pfsel_dns_stream *pfsel_dns_stream_new(const unsigned long until,
					      const gfp_t gfp)
{
	struct pfsel_dns_stream *const stream = kzalloc(sizeof(*stream), gfp);

	if (!stream)
		return NULL;
	spin_lock_init(&stream->lock);
	stream->state = PFSEL_DNS_STREAM_UNSTARTED;
	stream->until = until;
	timer_setup(&stream->expiry, stream_expired, 0);
	return stream;
}

/**
 * pfsel_dns_stream_free - Free a stream, and its buffer if it has one
 * @stream: the stream, or NULL
 *
 * Context: process or softirq, not holding the stream's lock (this waits
 * for its timer's callback, when it runs); nothing else uses the stream
 * any more (its socket is being freed).
 */
void pfsel_dns_stream_free(struct pfsel_dns_stream *const stream)
{
	if (!stream)
		return;
	timer_shutdown_sync(&stream->expiry);
	if (stream->msg)
		pfsel_dns_stream_free_msg(stream->msg, stream->len);
	kfree(stream);
}

/* Nothing more is taken; the buffer goes back at once. */
static void end(struct pfsel_dns_stream *const stream)
{
	give_back(stream);
	WRITE_ONCE(stream->state, PFSEL_DNS_STREAM_ENDED);
}

/**
 * pfsel_dns_stream_begin - Give a stream the sequence number it starts at
 * @stream: the stream
 * @start: the sequence number of its first byte
 *
 * A stream begins once: a second beginning is another connection of the
 * same socket, whose stream is not the one the stream was made for, and
 * ends the reassembly.
 *
 * Context: any; takes the stream's lock with bottom halves off.
 */
void pfsel_dns_stream_begin(struct pfsel_dns_stream *const stream,
			    const u32 start)
{
	spin_lock_bh(&stream->lock);
	if (stream->state == PFSEL_DNS_STREAM_UNSTARTED) {
		stream->start = start;
		WRITE_ONCE(stream->state, PFSEL_DNS_STREAM_READING);
	} else {
		end(stream);
	}
	spin_unlock_bh(&stream->lock);
}

/**
 * pfsel_dns_stream_lose - Give up a stream's reassembly
 * @stream: the stream
 *
 * For a segment the caller sees that the program may read otherwise than
 * its bytes say (urgent data).
 *
 * Context: any; takes the stream's lock with bottom halves off.
 *
 * Return: true when the stream had not ended yet.
 */
bool pfsel_dns_stream_lose(struct pfsel_dns_stream *const stream)
{
	bool was;

	spin_lock_bh(&stream->lock);
	was = stream->state != PFSEL_DNS_STREAM_ENDED;
	end(stream);
	spin_unlock_bh(&stream->lock);
	return was;
}

/*
 * Takes @len bytes at @offset of @skb, the next ones of the stream: the
 * length's, then the message's.  Returns false when the reassembly must
 * be given up; sets *@whole once the message is.
 */
static bool take_bytes(struct pfsel_dns_stream *const stream,
		       const struct sk_buff *const skb, unsigned int offset,
		       unsigned int len, bool *const whole)
{
	unsigned int chunk;
	u8 byte;

	while (len) {
		if (stream->taken < DNS_TCP_LENGTH_SIZE) {
			if (skb_copy_bits(skb, offset, &byte, 1))
				return false;
			stream->len = stream->len << 8 | byte;
			stream->taken++;
			offset++;
			len--;
			if (stream->taken < DNS_TCP_LENGTH_SIZE)
				continue;
			/* Not even a header: no answer. */
			if (stream->len < PFSEL_DNS_HEADER_SIZE)
				return false;
			stream->msg = buffer_alloc(stream->len);
			if (!stream->msg)
				return false;
			/* Before @until: this take checked the time. */
			mod_timer(&stream->expiry, stream->until);
			continue;
		}
		/* Its time ran out, and stream_expired() gave it back. */
		if (!stream->msg)
			return false;
		chunk = min_t(unsigned int, len,
			      DNS_TCP_LENGTH_SIZE + stream->len -
				      stream->taken);
		if (skb_copy_bits(skb, offset,
				  stream->msg + stream->taken -
					  DNS_TCP_LENGTH_SIZE,
				  chunk))
			return false;
		stream->taken += chunk;
		offset += chunk;
		len -= chunk;
		/* The bytes after the message are another's: not read. */
		if (stream->taken == DNS_TCP_LENGTH_SIZE + stream->len) {
			*whole = true;
			return true;
		}
	}
	return true;
}

/**
 * pfsel_dns_stream_take - Take a segment's bytes into a stream's message
 * @stream: the stream
 * @seq: the sequence number of the segment's first byte of data
 * @skb: the segment
 * @offset: where its data starts in @skb
 * @len: how many bytes of data it has
 * @msg: set to the message, when this segment makes it whole; the caller
 *	 gives it back with pfsel_dns_stream_free_msg()
 * @msg_len: set to the message's length then
 *
 * Sequence numbers compare as TCP's do, modulo 2^32: a segment that
 * starts at or before the next byte wanted gives the bytes after those
 * taken (none, for a repeat), one that starts after it ends the
 * reassembly.  The time (@until of pfsel_dns_stream_new()) is checked
 * first: a segment that comes too late ends the reassembly too.
 *
 * Context: any, softirq included; takes the stream's lock with bottom
 * halves off; allocates with GFP_ATOMIC.
 *
 * Return: enum pfsel_dns_stream_step.
 */
enum pfsel_dns_stream_step
pfsel_dns_stream_take(struct pfsel_dns_stream *const stream, const u32 seq,
		      const struct sk_buff *const skb, unsigned int offset,
		      unsigned int len, u8 **const msg, u16 *const msg_len)
{
	enum pfsel_dns_stream_step step = PFSEL_DNS_STREAM_MORE;
	bool whole = false;
	u32 behind;

	spin_lock_bh(&stream->lock);
	if (stream->state == PFSEL_DNS_STREAM_UNSTARTED)
		goto out;
	if (stream->state == PFSEL_DNS_STREAM_ENDED) {
		step = PFSEL_DNS_STREAM_OVER;
		goto out;
	}
	if (time_after_eq(jiffies, stream->until))
		goto lost;
	/* How far before the next byte wanted the segment starts. */
	behind = stream->start + stream->taken - seq;
	if ((s32)behind < 0)
		goto lost;
	if (behind >= len)
		goto out;
	if (!take_bytes(stream, skb, offset + behind, len - behind, &whole))
		goto lost;
	if (whole) {
		*msg = stream->msg;
		*msg_len = stream->len;
		stream->msg = NULL;
		WRITE_ONCE(stream->state, PFSEL_DNS_STREAM_ENDED);
		step = PFSEL_DNS_STREAM_WHOLE;
	}
	goto out;
lost:
	end(stream);
	step = PFSEL_DNS_STREAM_LOST;
out:
	spin_unlock_bh(&stream->lock);
	return step;
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>
#include <linux/delay.h>

/*
 * The stream of the tests: the length (34), then a message of 34 bytes,
 * byte i being i + 1; then a second message, which is never read.
 */
#define TEST_MSG_LEN 34
#define TEST_STREAM_LEN (DNS_TCP_LENGTH_SIZE + TEST_MSG_LEN)

static void fill_stream(u8 *const stream, const size_t size)
{
	size_t i;

	stream[0] = 0;
	stream[1] = TEST_MSG_LEN;
	for (i = DNS_TCP_LENGTH_SIZE; i < size; i++)
		stream[i] = i - DNS_TCP_LENGTH_SIZE + 1;
}

/* A stream that takes segments from sequence number @start on. */
static struct pfsel_dns_stream *begun(struct kunit *const test, const u32 start)
{
	struct pfsel_dns_stream *const stream =
		pfsel_dns_stream_new(jiffies + 60 * HZ, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, stream);
	pfsel_dns_stream_begin(stream, start);
	return stream;
}

/*
 * A segment of @len bytes of @data, at sequence number @seq, after 20
 * bytes of header (as the receive hook has it): its step.  A whole
 * message is checked against @want (TEST_MSG_LEN bytes) and given back.
 */
static enum pfsel_dns_stream_step feed(struct kunit *const test,
				       struct pfsel_dns_stream *const stream,
				       const u32 seq, const u8 *const data,
				       const unsigned int len,
				       const u8 *const want)
{
	const unsigned int header = 20;
	struct sk_buff *const skb = alloc_skb(header + len, GFP_KERNEL);
	enum pfsel_dns_stream_step step;
	u16 msg_len = 0;
	u8 *msg = NULL;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put_zero(skb, header);
	skb_put_data(skb, data, len);
	step = pfsel_dns_stream_take(stream, seq, skb, header, len, &msg,
				     &msg_len);
	kfree_skb(skb);
	if (step == PFSEL_DNS_STREAM_WHOLE) {
		KUNIT_EXPECT_EQ(test, TEST_MSG_LEN, msg_len);
		if (want && msg_len == TEST_MSG_LEN)
			KUNIT_EXPECT_MEMEQ(test, want, msg, TEST_MSG_LEN);
		pfsel_dns_stream_free_msg(msg, msg_len);
	} else {
		KUNIT_EXPECT_NULL(test, msg);
	}
	return step;
}

/* Three segments in order: the message is whole at the third. */
static void test_stream_in_order(struct kunit *const test)
{
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	struct pfsel_dns_stream *const stream = begun(test, 1000);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 1000, data, 10, NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 1010, data + 10, 10, NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 1020, data + 20,
			     TEST_STREAM_LEN - 20, data + 2));
	KUNIT_EXPECT_FALSE(test, pfsel_dns_stream_reading(stream));
	pfsel_dns_stream_free(stream);
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
}

/* The length's two bytes in two segments, and the message in a third. */
static void test_stream_split_length(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream = begun(test, 7);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 7, data, 1, NULL));
	KUNIT_EXPECT_NULL(test, stream->msg);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 8, data + 1, 1, NULL));
	KUNIT_EXPECT_NOT_NULL(test, stream->msg);
	KUNIT_EXPECT_EQ(test, TEST_MSG_LEN, stream->len);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 9, data + 2, TEST_MSG_LEN,
			     data + 2));
	pfsel_dns_stream_free(stream);
}

/*
 * Repeats: a segment that overlaps bytes taken gives only the bytes after
 * them, and the first copy of a byte stays (what it repeats with other
 * bytes is not read); a segment wholly taken before, or wholly before
 * the stream's start, changes nothing.
 */
static void test_stream_overlap_and_repeats(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream = begun(test, 100);
	u8 data[TEST_STREAM_LEN], other[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	memset(other, 0xee, sizeof(other));
	memcpy(other + 10, data + 10, 10);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 100, data, 10, NULL));
	/* Bytes 5..9 again, but other ones, and 10..19 new. */
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 105, other + 5, 15, NULL));
	KUNIT_EXPECT_EQ(test, 20U, stream->taken);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 100, other, 20, NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 100 - 50, other, 30, NULL));
	KUNIT_EXPECT_EQ(test, 20U, stream->taken);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 118, data + 18, TEST_STREAM_LEN - 18,
			     data + 2));
	pfsel_dns_stream_free(stream);
}

/*
 * A segment after a gap ends the reassembly, and gives its buffer back:
 * the bytes of the gap that come later are not taken.
 */
static void test_stream_out_of_order(struct kunit *const test)
{
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	struct pfsel_dns_stream *const stream = begun(test, 0);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 0, data, 10, NULL));
	KUNIT_EXPECT_LT(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_LOST,
			feed(test, stream, 20, data + 20, TEST_STREAM_LEN - 20,
			     NULL));
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 10, data + 10, 10, NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 0, data, TEST_STREAM_LEN, NULL));
	pfsel_dns_stream_free(stream);
}

/*
 * A first message and the start of a second in one segment: the first is
 * whole, with none of the second's bytes; the second is never read.
 */
static void test_stream_second_message(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream = begun(test, 5000);
	u8 data[2 * TEST_STREAM_LEN];

	fill_stream(data, TEST_STREAM_LEN);
	fill_stream(data + TEST_STREAM_LEN, TEST_STREAM_LEN);
	/* The second message's bytes differ from the first's. */
	data[TEST_STREAM_LEN + 2] = 0xaa;
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 5000, data, TEST_STREAM_LEN + 5,
			     data + 2));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 5000 + TEST_STREAM_LEN + 5,
			     data + TEST_STREAM_LEN + 5, TEST_STREAM_LEN - 5,
			     NULL));
	pfsel_dns_stream_free(stream);
}

/*
 * Lengths: one shorter than a DNS header ends the reassembly; one longer
 * than what comes is never whole, and its buffer goes with the stream.
 */
static void test_stream_lengths(struct kunit *const test)
{
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	struct pfsel_dns_stream *stream = begun(test, 0);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	data[1] = PFSEL_DNS_HEADER_SIZE - 1;
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_LOST,
			feed(test, stream, 0, data, sizeof(data), NULL));
	pfsel_dns_stream_free(stream);

	stream = begun(test, 0);
	data[0] = 0xff;
	data[1] = 0xff;
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 0, data, sizeof(data), NULL));
	KUNIT_EXPECT_EQ(test, buffered + 0xffff,
			atomic_long_read(&pfsel_dns_stream_buffered));
	pfsel_dns_stream_free(stream);
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
}

/*
 * The bound: the buffers of messages of the largest length that fit in
 * PFSEL_DNS_STREAM_BYTES exist at once; the next stream is given up, and
 * gets a buffer once another is given back.
 */
static void test_stream_memory_bound(struct kunit *const test)
{
	enum { FIT = PFSEL_DNS_STREAM_BYTES / 0xffff };
	const u8 longest[2] = { 0xff, 0xff };
	struct pfsel_dns_stream *streams[FIT + 1];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, 0L, atomic_long_read(&pfsel_dns_stream_buffered));
	for (i = 0; i <= FIT; i++) {
		streams[i] = begun(test, 0);
		KUNIT_EXPECT_EQ(test,
				i < FIT ? PFSEL_DNS_STREAM_MORE :
					  PFSEL_DNS_STREAM_LOST,
				feed(test, streams[i], 0, longest, 2, NULL));
	}
	pfsel_dns_stream_free(streams[0]);
	streams[0] = begun(test, 0);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, streams[0], 0, longest, 2, NULL));
	for (i = 0; i <= FIT; i++)
		pfsel_dns_stream_free(streams[i]);
	KUNIT_EXPECT_EQ(test, 0L, atomic_long_read(&pfsel_dns_stream_buffered));
}

/*
 * Before its start is known a stream takes nothing; once begun it takes
 * from its start; a second beginning (another connection) ends it.
 */
static void test_stream_begins_once(struct kunit *const test)
{
	struct pfsel_dns_stream *stream =
		pfsel_dns_stream_new(jiffies + 60 * HZ, GFP_KERNEL);
	u8 data[TEST_STREAM_LEN];

	KUNIT_ASSERT_NOT_NULL(test, stream);
	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_FALSE(test, pfsel_dns_stream_reading(stream));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 300, data, sizeof(data), NULL));
	KUNIT_EXPECT_EQ(test, 0U, stream->taken);
	pfsel_dns_stream_begin(stream, 300);
	KUNIT_EXPECT_TRUE(test, pfsel_dns_stream_reading(stream));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 300, data, 10, NULL));
	pfsel_dns_stream_begin(stream, 9000);
	KUNIT_EXPECT_FALSE(test, pfsel_dns_stream_reading(stream));
	KUNIT_EXPECT_NULL(test, stream->msg);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 310, data + 10, TEST_STREAM_LEN - 10,
			     NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 9000, data, sizeof(data), NULL));
	pfsel_dns_stream_free(stream);
}

/* Sequence numbers wrap around 2^32 within a message. */
static void test_stream_sequence_wraps(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream = begun(test, 0xfffffff0U);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 0xfffffff0U, data, 20, NULL));
	/* Past 0, a repeat of the last 4 bytes before it. */
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 0, data + 16, TEST_STREAM_LEN - 16,
			     data + 2));
	pfsel_dns_stream_free(stream);
}

/* A segment after the stream's time ends it, even one that completes it. */
static void test_stream_out_of_time(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream =
		pfsel_dns_stream_new(jiffies, GFP_KERNEL);
	u8 data[TEST_STREAM_LEN];

	KUNIT_ASSERT_NOT_NULL(test, stream);
	fill_stream(data, sizeof(data));
	pfsel_dns_stream_begin(stream, 0);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_LOST,
			feed(test, stream, 0, data, sizeof(data), NULL));
	pfsel_dns_stream_free(stream);
}

/*
 * A stream that stalls after its length gives its buffer back at its time,
 * with no segment; the segment that comes later finds it out of time and
 * ends it (lost, as a late segment always was).
 */
static void test_stream_timer_gives_buffer_back(struct kunit *const test)
{
	enum { WAIT_MS = 100 };
	const unsigned long until = jiffies + msecs_to_jiffies(WAIT_MS);
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	struct pfsel_dns_stream *const stream =
		pfsel_dns_stream_new(until, GFP_KERNEL);
	u8 data[TEST_STREAM_LEN];

	KUNIT_ASSERT_NOT_NULL(test, stream);
	fill_stream(data, sizeof(data));
	pfsel_dns_stream_begin(stream, 0);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 0, data, 10, NULL));
	KUNIT_EXPECT_EQ(test, buffered + TEST_MSG_LEN,
			atomic_long_read(&pfsel_dns_stream_buffered));
	msleep(2 * WAIT_MS);
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
	KUNIT_EXPECT_NULL(test, stream->msg);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_LOST,
			feed(test, stream, 10, data + 10, TEST_STREAM_LEN - 10,
			     NULL));
	pfsel_dns_stream_free(stream);
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
}

/* pfsel_dns_stream_lose(): once, and the buffer goes back. */
static void test_stream_lose(struct kunit *const test)
{
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	struct pfsel_dns_stream *const stream = begun(test, 0);
	u8 data[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 0, data, 10, NULL));
	KUNIT_EXPECT_TRUE(test, pfsel_dns_stream_lose(stream));
	KUNIT_EXPECT_EQ(test, buffered,
			atomic_long_read(&pfsel_dns_stream_buffered));
	KUNIT_EXPECT_FALSE(test, pfsel_dns_stream_lose(stream));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_OVER,
			feed(test, stream, 10, data + 10, TEST_STREAM_LEN - 10,
			     NULL));
	pfsel_dns_stream_free(stream);
}

/*
 * Adversary read: bytes that overlap the length's two bytes with other
 * ones.  The first segment gives the length's high byte; a repeat from
 * the stream's start gives other bytes for it, and the low byte: the
 * first copy of the high byte stays, as TCP keeps it, and the message is
 * read at the length the resolver reads.
 */
static void test_stream_length_overlap(struct kunit *const test)
{
	struct pfsel_dns_stream *const stream = begun(test, 40);
	u8 data[TEST_STREAM_LEN], other[TEST_STREAM_LEN];

	fill_stream(data, sizeof(data));
	memcpy(other, data, sizeof(other));
	other[0] = 0xff;
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 40, data, 1, NULL));
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
			feed(test, stream, 40, other, 12, NULL));
	KUNIT_EXPECT_EQ(test, TEST_MSG_LEN, stream->len);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, stream, 52, data + 12, TEST_STREAM_LEN - 12,
			     data + 2));
	pfsel_dns_stream_free(stream);
}

/*
 * Adversary read: the bound past the streams' time.  Streams whose server
 * sent the largest length and then nothing fill PFSEL_DNS_STREAM_BYTES;
 * their time runs out while their sockets stay open (the resolver waits
 * longer), and no segment comes to end them.  THREAT-MODEL section 5 says
 * a buffer lives at most the query's wait: then a new stream must get its
 * buffer.  Their time is 200 ms from before the first is made, so that
 * every one takes its length in time (a tick between a stream's making
 * and its length gave a time of one jiffy up), and is slept past twice.
 */
static void test_stream_bound_outlives_time(struct kunit *const test)
{
	enum { FIT = PFSEL_DNS_STREAM_BYTES / 0xffff, WAIT_MS = 200 };
	const unsigned long until = jiffies + msecs_to_jiffies(WAIT_MS);
	const u8 longest[2] = { 0xff, 0xff };
	struct pfsel_dns_stream *streams[FIT + 1];
	u8 data[TEST_STREAM_LEN];
	unsigned int i;

	fill_stream(data, sizeof(data));
	KUNIT_ASSERT_EQ(test, 0L, atomic_long_read(&pfsel_dns_stream_buffered));
	for (i = 0; i < FIT; i++) {
		streams[i] = pfsel_dns_stream_new(until, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, streams[i]);
		pfsel_dns_stream_begin(streams[i], 0);
		KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_MORE,
				feed(test, streams[i], 0, longest, 2, NULL));
	}
	/* Past every stream's time, and its timer's rounding. */
	msleep(2 * WAIT_MS);
	streams[FIT] = begun(test, 0);
	KUNIT_EXPECT_EQ(test, PFSEL_DNS_STREAM_WHOLE,
			feed(test, streams[FIT], 0, data, TEST_STREAM_LEN,
			     data + 2));
	for (i = 0; i <= FIT; i++)
		pfsel_dns_stream_free(streams[i]);
	KUNIT_EXPECT_EQ(test, 0L, atomic_long_read(&pfsel_dns_stream_buffered));
}

/*
 * Adversary read, the second: a socket freed while its stream's timer
 * runs.  A server that sends the length and then resets the connection
 * has the resolver close it just as the stream's time runs out: the
 * stream is freed while stream_expired() may run on another CPU, or is
 * about to.  Each stream of many, freed at a moment that moves across its
 * expiry, must give its buffer back once, neither twice nor never.
 */
static void test_stream_free_races_timer(struct kunit *const test)
{
	enum { ROUNDS = 200 };
	const long buffered = atomic_long_read(&pfsel_dns_stream_buffered);
	const u8 longest[2] = { 0xff, 0xff };
	struct pfsel_dns_stream *stream;
	unsigned int i;

	for (i = 0; i < ROUNDS; i++) {
		stream = pfsel_dns_stream_new(jiffies + 1 + i % 2, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, stream);
		pfsel_dns_stream_begin(stream, 0);
		feed(test, stream, 0, longest, 2, NULL);
		/* From before its expiry to after it, 50 us a round. */
		udelay(50 * (i % 60));
		pfsel_dns_stream_free(stream);
		KUNIT_EXPECT_EQ(test, buffered,
				atomic_long_read(&pfsel_dns_stream_buffered));
	}
}

static struct kunit_case test_cases[] = {
	KUNIT_CASE(test_stream_in_order),
	KUNIT_CASE(test_stream_split_length),
	KUNIT_CASE(test_stream_overlap_and_repeats),
	KUNIT_CASE(test_stream_out_of_order),
	KUNIT_CASE(test_stream_second_message),
	KUNIT_CASE(test_stream_lengths),
	KUNIT_CASE(test_stream_memory_bound),
	KUNIT_CASE(test_stream_begins_once),
	KUNIT_CASE(test_stream_sequence_wraps),
	KUNIT_CASE(test_stream_out_of_time),
	KUNIT_CASE(test_stream_timer_gives_buffer_back),
	KUNIT_CASE(test_stream_lose),
	KUNIT_CASE(test_stream_length_overlap),
	KUNIT_CASE(test_stream_bound_outlives_time),
	KUNIT_CASE(test_stream_free_races_timer),
	{}
};

static struct kunit_suite test_suite = {
	.name = "pfsel_dnsstream",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
