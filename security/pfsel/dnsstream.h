/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The first DNS message of a TCP stream, reassembled
 */

#ifndef _SECURITY_PFSEL_DNSSTREAM_H
#define _SECURITY_PFSEL_DNSSTREAM_H

#include <linux/gfp_types.h>
#include <linux/spinlock.h>
#include <linux/timer_types.h>
#include <linux/types.h>

struct sk_buff;

/**
 * enum pfsel_dns_stream_state - Where a stream's reassembly is
 * @PFSEL_DNS_STREAM_UNSTARTED: the sequence number of the stream's first
 *				byte is not known yet (the connection is
 *				not established): nothing is taken
 * @PFSEL_DNS_STREAM_READING: segments are taken, in order
 * @PFSEL_DNS_STREAM_ENDED: nothing more is taken: the message was handed
 *			    out whole, or the reassembly was given up
 */
enum pfsel_dns_stream_state {
	PFSEL_DNS_STREAM_UNSTARTED,
	PFSEL_DNS_STREAM_READING,
	PFSEL_DNS_STREAM_ENDED,
};

/**
 * struct pfsel_dns_stream - The first DNS message of a TCP stream
 * @lock: the segments of one connection reach the receive hook on any
 *	  CPU, outside the socket's lock; taken with bottom halves off
 * @state: enum pfsel_dns_stream_state; written under @lock, read without
 *	   it only as a hint
 * @start: the sequence number of the stream's first byte (the high byte
 *	   of the message's length)
 * @taken: how many bytes of the stream, from @start on, are taken: the
 *	   2 bytes of the length, then the message's
 * @len: the message's length, as far as its 2 bytes are taken
 * @msg: the message, @len bytes, allocated once @len is known
 * @until: jiffies from which nothing is taken: the query the message
 *	   would answer is no longer awaited, and the buffer is given back
 * @expiry: armed with the buffer, for @until: gives the buffer back when
 *	    no segment comes to end the stream
 * @server: the address the stream comes from (the server its query went
 *	    to), IPv4 as IPv4-mapped IPv6: for the caller, not read here
 *
 * One per socket whose stream the caller reads (resolver.c), made with
 * pfsel_dns_stream_new() and freed with the socket.
 */
struct pfsel_dns_stream {
	spinlock_t lock; /* see above */
	u8 state;
	u32 start;
	u32 taken;
	u16 len;
	u8 *msg;
	unsigned long until;
	struct timer_list expiry;
	u8 server[16];
};

/**
 * enum pfsel_dns_stream_step - What a segment did to a stream
 * @PFSEL_DNS_STREAM_MORE: the message is not whole yet (the segment was
 *			   taken, or held nothing new, or came before the
 *			   start was known)
 * @PFSEL_DNS_STREAM_WHOLE: the segment completed the message, which is
 *			    handed out
 * @PFSEL_DNS_STREAM_LOST: the reassembly was given up now: a gap before
 *			   the segment, a length shorter than a DNS header,
 *			   the time ran out, or no memory within the bound
 * @PFSEL_DNS_STREAM_OVER: the reassembly had ended before
 */
enum pfsel_dns_stream_step {
	PFSEL_DNS_STREAM_MORE,
	PFSEL_DNS_STREAM_WHOLE,
	PFSEL_DNS_STREAM_LOST,
	PFSEL_DNS_STREAM_OVER,
};

struct pfsel_dns_stream *pfsel_dns_stream_new(unsigned long until, gfp_t gfp);
void pfsel_dns_stream_free(struct pfsel_dns_stream *stream);
void pfsel_dns_stream_begin(struct pfsel_dns_stream *stream, u32 start);
enum pfsel_dns_stream_step
pfsel_dns_stream_take(struct pfsel_dns_stream *stream, u32 seq,
		      const struct sk_buff *skb, unsigned int offset,
		      unsigned int len, u8 **msg, u16 *msg_len);
bool pfsel_dns_stream_lose(struct pfsel_dns_stream *stream);
void pfsel_dns_stream_free_msg(u8 *msg, u16 len);

/**
 * pfsel_dns_stream_reading - Tell whether a stream may still take segments
 * @stream: the stream
 *
 * A hint, read without the lock, so that a stream whose message was
 * handed out costs its later segments nothing.
 *
 * Return: true while the stream is being read.
 */
static inline bool
pfsel_dns_stream_reading(const struct pfsel_dns_stream *stream)
{
	return READ_ONCE(stream->state) == PFSEL_DNS_STREAM_READING;
}

#endif /* _SECURITY_PFSEL_DNSSTREAM_H */
