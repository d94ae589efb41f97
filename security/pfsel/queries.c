// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The DNS queries a namespace's resolvers await
 *
 * A DNS answer teaches names only when it answers a query (resolver.c):
 * one that a trusted resolver's socket sent to a server's port 53 (a
 * datagram, or the first query of a TCP connection), or one
 * that a program sent to that socket, for the answer the resolver serves
 * it.  Each namespace notes its last PFSEL_RESOLVER_QUERIES queries here:
 * the socket, the peer, the message ID and a keyed hash of the question's
 * name.  An answer counts when it comes on that socket, between the same
 * two ends, with that ID and question, within PFSEL_RESOLVER_QUERY_WAIT
 * seconds; each query is answered once.  So a datagram from port 53 that
 * nobody asked for (forged by a local program, or from off the path,
 * which must also guess the ID) teaches nothing.
 */

#include <linux/ctype.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/sock_diag.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/sock.h>

#include "queries.h"

#define DNS_FLAG_QR 0x80 /* in the third byte of the header */
#define DNS_OPCODE_MASK 0x78 /* likewise; QUERY is 0 */

/**
 * pfsel_queries_init - Make a namespace's queries empty, with a new key
 * @queries: the namespace's queries
 */
void pfsel_queries_init(struct pfsel_dns_queries *const queries)
{
	spin_lock_init(&queries->lock);
	get_random_bytes(&queries->key, sizeof(queries->key));
}

/*
 * Reads the header and question's name of a DNS message of @len bytes: its
 * ID, and the hash of its name.  @query: the message must be a standard
 * query (else an answer).  The name must be written out, in at most
 * PFSEL_DNS_WIRE_NAME_MAX bytes (a compression pointer is refused: a
 * question has nothing before it to point to).  Returns false when it is
 * not so.
 */
static bool read_question(const struct pfsel_dns_queries *const queries,
			  const u8 *const msg, const size_t len,
			  const bool query, u16 *const id, u64 *const hash)
{
	u8 name[PFSEL_DNS_WIRE_NAME_MAX];
	size_t pos = PFSEL_DNS_HEADER_SIZE, n = 0;
	u8 label;

	if (len < PFSEL_DNS_HEADER_SIZE || msg[2] & DNS_OPCODE_MASK ||
	    !!(msg[2] & DNS_FLAG_QR) == query || msg[4] != 0 || msg[5] != 1)
		return false;
	do {
		if (pos >= len)
			return false;
		label = msg[pos];
		if (label & 0xc0 || pos + 1 + label > len ||
		    n + 1 + label > PFSEL_DNS_WIRE_NAME_MAX)
			return false;
		name[n++] = label;
		memcpy(name + n, msg + pos + 1, label);
		n += label;
		pos += 1 + label;
	} while (label);
	/* Servers echo the question as sent, case and all; compare folded. */
	for (pos = 0; pos < n; pos++)
		name[pos] = tolower(name[pos]);
	*id = (u16)(msg[0] << 8 | msg[1]);
	*hash = siphash(name, n, &queries->key);
	return true;
}

/**
 * pfsel_queries_note - Note a query, if @msg is one
 * @queries: the namespace's queries
 * @sk: the resolver's socket that sends it (@served false) or receives it
 * @peer: the server it goes to, or the client it comes from; IPv4 as
 *	  IPv4-mapped IPv6
 * @port: the server's port (53), or the client's
 * @served: the resolver received it, and will serve the answer
 * @msg: the message, or its start: the header and the question
 * @len: its length
 *
 * The oldest query noted makes room.
 *
 * Return: true when @msg was a query, and is noted.
 */
bool pfsel_queries_note(struct pfsel_dns_queries *const queries,
			struct sock *const sk, const u8 peer[16],
			const __be16 port, const bool served,
			const u8 *const msg, const size_t len)
{
	struct pfsel_dns_query *q;
	u64 cookie, hash;
	u16 id;

	if (!read_question(queries, msg, len, true, &id, &hash))
		return false;
	cookie = sock_gen_cookie(sk);
	spin_lock_bh(&queries->lock);
	q = &queries->query[queries->next];
	queries->next = (queries->next + 1) % PFSEL_RESOLVER_QUERIES;
	q->sock = cookie;
	q->sent = jiffies;
	memcpy(q->peer, peer, 16);
	q->port = port;
	q->served = served;
	q->name_hash = hash;
	q->id = id;
	spin_unlock_bh(&queries->lock);
	return true;
}

/**
 * pfsel_queries_answered - Match an answer to the query it answers
 * @queries: the namespace's queries
 * @sk: the resolver's socket the answer arrives at (@served false) or is
 *	sent from
 * @peer: the server it comes from, or the client it goes to
 * @port: the server's port (53), or the client's
 * @served: the resolver serves it
 * @msg: the answer
 * @len: its length
 *
 * A query that is answered is no longer awaited.
 *
 * Return: true when @msg answers a query noted for these two ends.
 */
bool pfsel_queries_answered(struct pfsel_dns_queries *const queries,
			    struct sock *const sk, const u8 peer[16],
			    const __be16 port, const bool served,
			    const u8 *const msg, const size_t len)
{
	const unsigned long now = jiffies;
	struct pfsel_dns_query *q;
	bool found = false;
	u64 cookie, hash;
	unsigned int i;
	u16 id;

	if (!read_question(queries, msg, len, false, &id, &hash))
		return false;
	cookie = sock_gen_cookie(sk);
	spin_lock_bh(&queries->lock);
	for (i = 0; i < PFSEL_RESOLVER_QUERIES; i++) {
		q = &queries->query[i];
		if (q->sock != cookie || q->id != id || q->name_hash != hash ||
		    q->served != served || q->port != port ||
		    memcmp(q->peer, peer, 16) ||
		    time_after_eq(now,
				  q->sent + PFSEL_RESOLVER_QUERY_WAIT * HZ))
			continue;
		q->sock = 0;
		found = true;
		break;
	}
	spin_unlock_bh(&queries->lock);
	return found;
}
