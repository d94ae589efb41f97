/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The DNS queries a namespace's resolvers await
 */

#ifndef _SECURITY_PFSEL_QUERIES_H
#define _SECURITY_PFSEL_QUERIES_H

#include <linux/bits.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "cache_limits.h"

struct sock;

#define PFSEL_RESOLVER_QUERIES BIT(PFSEL_RESOLVER_QUERY_BITS)

/* The header of a DNS message, and the longest name in wire form. */
#define PFSEL_DNS_HEADER_SIZE 12
#define PFSEL_DNS_WIRE_NAME_MAX 255

/**
 * struct pfsel_dns_query - A query awaiting its answer
 * @sock: sock_gen_cookie() of the resolver's socket that sent it, or that
 *	  received it; 0 for a free slot
 * @sent: jiffies when it was sent or received
 * @peer: the address it was sent to (the server), or came from (the
 *	  client); IPv4 as IPv4-mapped IPv6
 * @name_hash: of the question's name, in lower case, keyed per namespace
 * @id: the message ID
 * @port: the peer's port: 53 for a query sent, the client's for one
 *	  received
 * @served: received from a client, to be answered by @sock (served);
 *	    else sent by @sock, to be answered to it
 */
struct pfsel_dns_query {
	u64 sock;
	unsigned long sent;
	u8 peer[16];
	u64 name_hash;
	u16 id;
	__be16 port;
	bool served;
};

/**
 * struct pfsel_dns_queries - The queries of one network namespace
 * @lock: noted in process context, matched in softirq: spin_lock_bh()
 * @key: of the names' hash: no one can make two names collide on purpose
 * @next: the slot the next query takes (the oldest)
 * @query: the last PFSEL_RESOLVER_QUERIES queries
 */
struct pfsel_dns_queries {
	spinlock_t lock; /* see above */
	siphash_key_t key;
	unsigned int next;
	struct pfsel_dns_query query[PFSEL_RESOLVER_QUERIES];
};

void pfsel_queries_init(struct pfsel_dns_queries *queries);
bool pfsel_queries_note(struct pfsel_dns_queries *queries, struct sock *sk,
			const u8 peer[16], __be16 port, bool served,
			const u8 *msg, size_t len);
bool pfsel_queries_answered(struct pfsel_dns_queries *queries,
			    struct sock *sk, const u8 peer[16], __be16 port,
			    bool served, const u8 *msg, size_t len);

#endif /* _SECURITY_PFSEL_QUERIES_H */
