// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Learning host names from trusted resolvers' DNS answers
 *
 * Rules by host name need to know which names an address has.  The kernel
 * learns them from the DNS answers that the system policy's resolvers
 * receive ("resolver APPS;", policy/LANGUAGE.md): a UDP datagram from port
 * 53 arriving at a socket whose creator's application is a resolver that
 * root's code started (app.c: systemd, not a person's program), and whose
 * real uid has no policy of its own (a system account such as
 * systemd-resolve's), unless the statement says "any user".  The answer is
 * read when it is queued to the socket (socket_sock_rcv_skb), so the
 * table (hostmap.c) already has the name when the program, and whoever it
 * answers, reads the answer and connects.
 *
 * Only the name that was asked (the question's name) is learned, with each
 * address its CNAME chain reaches: the server vouches for nothing else.
 * And only an answer to a query the resolver sent is: net.c's
 * socket_sendmsg hook has pfsel_resolver_note_send() note each query a
 * resolver's socket sends to port 53 (its ID, the server, the
 * question's name), and an answer counts only when it arrives on that
 * socket, from that server, with that ID and question, within
 * PFSEL_RESOLVER_QUERY_WAIT seconds; each query is answered once.  So a
 * datagram from port 53 that nobody asked for (a forged answer sent to the
 * resolver's port by a local program or from off the path, which must
 * also guess the ID) teaches nothing.  What is learned so is charged to
 * the resolver's own uid.
 *
 * The answers a resolver sends from port 53 to the programs of its
 * namespace are learned as well (learn_served()), charged to the uid of
 * the program that receives each: a caching resolver's answer from its
 * cache, which nothing upstream sent, is seen so too.  Such an answer
 * counts in the same way only when it answers a query: one that reached
 * that port-53 socket (noted by note_client_query() as it is queued) from
 * the address and port the answer goes to, with its ID and question,
 * within PFSEL_RESOLVER_QUERY_WAIT seconds, once.  So a resolver cannot
 * be made to plant a name for a user by serving what nobody asked.
 *
 * This runs in softirq for every datagram of every UDP socket: the cheap
 * tests (a system policy that names resolvers, a static key; UDP; source
 * or destination port 53) come first.  It
 * never drops the datagram and never sleeps; what it learns is bounded by
 * the table.
 */

#include <linux/bits.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jiffies.h>
#include <linux/lsm_hooks.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/sock_diag.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <net/inet_sock.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <net/netns/generic.h>
#include <net/sock.h>
#include <net/tcp_states.h>
#include <net/udp.h>

#include "app.h"
#include "common.h"
#include "dns.h"
#include "hostmap.h"
#include "net.h"
#include "policy.h"
#include "resolver.h"
#include "setup.h"

#define DNS_PORT 53
/* The largest UDP payload; dns.c reads no longer message. */
#define DNS_UDP_MAX 65535
#define DNS_HEADER_SIZE 12
/* A name in wire form: at most 255 bytes, its final zero included. */
#define DNS_WIRE_NAME_MAX 255
#define DNS_FLAG_QR 0x80 /* in the third byte of the header */
#define DNS_OPCODE_MASK 0x78 /* likewise; QUERY is 0 */

#define PFSEL_RESOLVER_QUERIES BIT(PFSEL_RESOLVER_QUERY_BITS)

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

static unsigned int queries_net_id __read_mostly;
/* Set once every namespace, init_net included, has its queries. */
static bool queries_ready;

static struct pfsel_dns_queries *queries_of(const struct net *const net)
{
	/* Pairs with the release in pfsel_resolver_register(). */
	if (!smp_load_acquire(&queries_ready))
		return NULL;
	return net_generic(net, queries_net_id);
}

/*
 * Whether the socket's owner is a trusted resolver: its application, in
 * the system policy, is named by a "resolver" statement, and unless the
 * statement said "any user", the program was started by root's code
 * (pfsel_app->root_started) and its uid has no user policy.  A person's
 * own program could otherwise teach names that widen the person's rules:
 * the first condition holds whether or not the person's policy is loaded
 * yet (before the first login since boot, a lingering user service or a
 * cron job of the person's runs with none), the second when root's code
 * ran the resolver as the person.
 */
static bool owner_is_resolver(const struct pfsel_sock_security *const owner)
{
	const struct pfsel_policy *system;
	bool trusted = false;
	int flags;

	rcu_read_lock();
	system = pfsel_policy_system();
	if (!system || !system->db->n_resolvers)
		goto out;
	flags = pfsel_policydb_resolver(system->db,
					pfsel_app_class(owner->app, system));
	if (flags < 0)
		goto out;
	trusted = (flags & PFSEL_RESOLVER_ANY_USER) ||
		  (owner->app && owner->app->root_started &&
		   !pfsel_policy_user(owner->uid));
out:
	rcu_read_unlock();
	return trusted;
}

/*
 * The UDP checksum, verified here if the stack has not already done so:
 * a corrupted (or forged and mangled) datagram that UDP would drop when
 * the program reads it must teach nothing.  This is what UDP itself does
 * before a socket filter runs, at the same place; the verdict is kept in
 * the skb, so the work is not done twice.  UDP has the UDP header at
 * skb->data here; any other layout is not one this understands.
 */
static bool checksum_good(struct sk_buff *const skb)
{
	if (skb_transport_offset(skb) != 0)
		return false;
	return !udp_lib_checksum_complete(skb);
}

/*
 * Reads the header and question's name of a DNS message of @len bytes: its
 * ID, and the hash of its name.  @query: the message must be a standard
 * query (else an answer).  The name must be written out, in at most
 * DNS_WIRE_NAME_MAX bytes (a compression pointer is refused: a question
 * has nothing before it to point to).  Returns false when it is not so.
 */
static bool read_question(const struct pfsel_dns_queries *const queries,
			  const u8 *const msg, const size_t len,
			  const bool query, u16 *const id, u64 *const hash)
{
	u8 name[DNS_WIRE_NAME_MAX];
	size_t pos = DNS_HEADER_SIZE, n = 0;
	u8 label;

	if (len < DNS_HEADER_SIZE || msg[2] & DNS_OPCODE_MASK ||
	    !!(msg[2] & DNS_FLAG_QR) == query || msg[4] != 0 || msg[5] != 1)
		return false;
	do {
		if (pos >= len)
			return false;
		label = msg[pos];
		if (label & 0xc0 || pos + 1 + label > len ||
		    n + 1 + label > DNS_WIRE_NAME_MAX)
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

/* ::ffff:@v4, as the policy and the host names table write IPv4. */
static void set_v4mapped(u8 addr[16], const __be32 v4)
{
	memset(addr, 0, 10);
	addr[10] = 0xff;
	addr[11] = 0xff;
	memcpy(addr + 12, &v4, 4);
}

/* The server a datagram came from, as an IPv4-mapped or IPv6 address. */
static bool source_address(const struct sk_buff *const skb, u8 addr[16])
{
	if (skb->protocol == htons(ETH_P_IP)) {
		set_v4mapped(addr, ip_hdr(skb)->saddr);
		return true;
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		memcpy(addr, &ipv6_hdr(skb)->saddr, 16);
		return true;
	}
	return false;
}

/* Notes a query of @sk's to or from @peer:@port (see pfsel_dns_query). */
static void note(struct pfsel_dns_queries *const queries, struct sock *const sk,
		 const u8 peer[16], const __be16 port, const bool served,
		 const u16 id, const u64 hash)
{
	const u64 cookie = sock_gen_cookie(sk);
	struct pfsel_dns_query *q;

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
}

/*
 * Whether the answer @msg of @len bytes, between @sk and @peer:@port,
 * answers a query noted for them (@served: one @sk received; else one it
 * sent); if so, that query is answered and is no longer awaited.
 */
static bool answers_query(struct sock *const sk, const u8 peer[16],
			  const __be16 port, const bool served,
			  const u8 *const msg, const size_t len)
{
	struct pfsel_dns_queries *const queries = queries_of(sock_net(sk));
	const unsigned long now = jiffies;
	struct pfsel_dns_query *q;
	bool found = false;
	u64 hash;
	u16 id;
	u64 cookie;
	unsigned int i;

	if (!queries || !read_question(queries, msg, len, false, &id, &hash))
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

/* Where an answer's pairs go: the namespace, the uid charged, how. */
struct learn_ctx {
	struct net *net;
	kuid_t uid;
	gfp_t gfp;
};

static void learn_binding(const struct pfsel_dns_binding *const b,
			  void *const arg)
{
	const struct learn_ctx *const ctx = arg;

	/*
	 * The server answers for the name it was asked, not its aliases.
	 * Only a name a rule can name is kept: any other matches nothing,
	 * and in the list of names a question or an audit record carries,
	 * a ',' or '"' of the answer's making would read as something else.
	 */
	if (b->asked && pfsel_policydb_name_valid(b->name, strlen(b->name)))
		pfsel_hostmap_learn(ctx->net, b->addr, b->name, b->ttl,
				    ctx->uid, ctx->gfp);
}

/*
 * Copies the DNS message out of the datagram (whose data may be in pages)
 * into a buffer of exactly its size, and learns what it says, charged to
 * the resolver's own uid.
 */
static void learn_answer(struct sock *const sk, struct sk_buff *const skb)
{
	const unsigned int at = sizeof(struct udphdr);
	struct net *const net = sock_net(sk);
	struct learn_ctx ctx = {
		.net = net,
		.uid = pfsel_sock(sk)->uid,
		.gfp = GFP_ATOMIC,
	};
	unsigned int len;
	u8 server[16];
	u8 *msg;
	int ret;

	if (!checksum_good(skb) || skb->len <= at ||
	    skb->len - at > DNS_UDP_MAX || !source_address(skb, server))
		return;
	len = skb->len - at;
	msg = kmalloc(len, GFP_ATOMIC | __GFP_NOWARN);
	if (!msg) {
		pfsel_hostmap_count(net, PFSEL_HOSTMAP_NOMEM);
		return;
	}
	if (skb_copy_bits(skb, at, msg, len))
		goto out;
	pfsel_hostmap_count(net, PFSEL_HOSTMAP_ANSWERS);
	if (!answers_query(sk, server, htons(DNS_PORT), false, msg, len)) {
		pfsel_hostmap_count(net, PFSEL_HOSTMAP_UNASKED);
		goto out;
	}
	ret = pfsel_dns_parse_answer(msg, len, learn_binding, &ctx);
	if (ret == -EINVAL)
		pfsel_hostmap_count(net, PFSEL_HOSTMAP_MALFORMED);
out:
	kfree(msg);
}

/*
 * Notes a query that a client sent to the resolver's port-53 socket @sk,
 * from port @port: the answer @sk serves to it may then be learned
 * (learn_served()).  Only what UDP will deliver: the checksum is checked.
 */
static void note_client_query(struct sock *const sk, struct sk_buff *const skb,
			      const __be16 port)
{
	struct pfsel_dns_queries *const queries = queries_of(sock_net(sk));
	const unsigned int at = sizeof(struct udphdr);
	u8 head[DNS_HEADER_SIZE + DNS_WIRE_NAME_MAX];
	unsigned int len;
	u8 client[16];
	u64 hash;
	u16 id;

	if (!queries || !checksum_good(skb) || skb->len <= at ||
	    !source_address(skb, client))
		return;
	len = min_t(unsigned int, skb->len - at, sizeof(head));
	if (skb_copy_bits(skb, at, head, len) ||
	    !read_question(queries, head, len, true, &id, &hash))
		return;
	note(queries, sk, client, port, true, id, hash);
}

static int hook_socket_sock_rcv_skb(struct sock *const sk,
				    struct sk_buff *const skb)
{
	const struct pfsel_sock_security *const owner = pfsel_sock(sk);
	const struct udphdr *uh;
	struct udphdr uh_buf;

	/* Until the system policy names a resolver, there is nothing to do. */
	if (!pfsel_policy_resolvers() || !owner->governed)
		return 0;
	if (sk->sk_protocol != IPPROTO_UDP || sk->sk_type != SOCK_DGRAM ||
	    (sk->sk_family != AF_INET && sk->sk_family != AF_INET6) ||
	    !skb_transport_header_was_set(skb))
		return 0;
	uh = skb_header_pointer(skb, skb_transport_offset(skb), sizeof(uh_buf),
				&uh_buf);
	if (!uh || (uh->source != htons(DNS_PORT) &&
		    uh->dest != htons(DNS_PORT)) ||
	    !owner_is_resolver(owner))
		return 0;
	if (uh->source == htons(DNS_PORT))
		learn_answer(sk, skb);
	if (uh->dest == htons(DNS_PORT))
		note_client_query(sk, skb, uh->source);
	return 0;
}

/*
 * Where a send goes: the address and port it names, or the connected
 * peer's.
 */
static bool send_dest(const struct sock *const sk,
		      const struct msghdr *const msg, u8 addr[16],
		      __be16 *const port)
{
	const struct sockaddr *const sa = msg->msg_name;

	if (sa && msg->msg_namelen) {
		if (sa->sa_family == AF_INET &&
		    msg->msg_namelen >= sizeof(struct sockaddr_in)) {
			const struct sockaddr_in *const sin = msg->msg_name;

			*port = sin->sin_port;
			set_v4mapped(addr, sin->sin_addr.s_addr);
			return true;
		}
		if (sa->sa_family == AF_INET6 &&
		    msg->msg_namelen >= SIN6_LEN_RFC2133) {
			const struct sockaddr_in6 *const sin6 = msg->msg_name;

			*port = sin6->sin6_port;
			memcpy(addr, &sin6->sin6_addr, 16);
			return true;
		}
		return false;
	}
	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED)
		return false;
	*port = READ_ONCE(inet_sk(sk)->inet_dport);
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(addr, &sk->sk_v6_daddr, 16);
		return true;
	}
#endif
	set_v4mapped(addr, READ_ONCE(sk->sk_daddr));
	return true;
}

/* The server a send goes to, when it goes to port 53. */
static bool query_server(const struct sock *const sk,
			 const struct msghdr *const msg, u8 server[16])
{
	__be16 port;

	return send_dest(sk, msg, server, &port) && port == htons(DNS_PORT);
}

/*
 * Notes a query a resolver's socket sends: read from a copy of the
 * message's iterator, so the send itself still has every byte.
 */
static void note_query(struct sock *const sk, const struct msghdr *const msg,
		       const u8 server[16])
{
	struct pfsel_dns_queries *const queries = queries_of(sock_net(sk));
	u8 head[DNS_HEADER_SIZE + DNS_WIRE_NAME_MAX];
	struct iov_iter iter;
	size_t len;
	u64 hash;
	u16 id;

	if (!queries)
		return;
	iter = msg->msg_iter;
	len = copy_from_iter(head, min(iov_iter_count(&iter), sizeof(head)),
			     &iter);
	if (!read_question(queries, head, len, true, &id, &hash))
		return;
	note(queries, sk, server, htons(DNS_PORT), false, id, hash);
}

/*
 * Answers a resolver serves.  A caching resolver answers a program from its
 * cache without asking anyone, so nothing arrives to learn from; and what
 * was learned from its upstream answer may have been pushed out since by
 * other users' names.  So the answer a resolver's socket sends from port
 * 53 to a program of this namespace is learned too, as it is sent, and
 * charged to the uid of the socket that will receive it: the name that
 * program is shown stays known for as long as the resolver may serve it,
 * within that uid's own budget (hostmap.c), whoever else asks.  Only an
 * answer to a query that program's socket sent to the resolver's (noted
 * by note_client_query()) counts, once, as for the resolver's own queries.
 */

static bool addr_any(const u8 addr[16])
{
	return ipv6_addr_any((const struct in6_addr *)addr) ||
	       (ipv6_addr_v4mapped((const struct in6_addr *)addr) &&
		!memchr_inv(addr + 12, 0, 4));
}

/*
 * The address a send from @sk goes from: the one it is bound to, else
 * that of its IP_PKTINFO or IPV6_PKTINFO control message (how a resolver
 * bound to every address answers from the one it was asked at), else
 * @daddr itself, the kernel's choice for a local destination.
 */
static void send_source(const struct sock *const sk,
			const struct msghdr *const msg, const u8 daddr[16],
			u8 saddr[16])
{
	struct msghdr *const m = (struct msghdr *)msg;
	struct cmsghdr *cmsg;

#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6)
		memcpy(saddr, &sk->sk_v6_rcv_saddr, 16);
	else
#endif
		set_v4mapped(saddr, READ_ONCE(inet_sk(sk)->inet_rcv_saddr));
	if (addr_any(saddr) && !msg->msg_control_is_user) {
		for_each_cmsghdr(cmsg, m) {
			if (!CMSG_OK(m, cmsg))
				break;
			if (cmsg->cmsg_level == SOL_IP &&
			    cmsg->cmsg_type == IP_PKTINFO &&
			    cmsg->cmsg_len ==
				    CMSG_LEN(sizeof(struct in_pktinfo))) {
				const struct in_pktinfo *const info =
					CMSG_DATA(cmsg);

				set_v4mapped(saddr, info->ipi_spec_dst.s_addr);
			} else if (cmsg->cmsg_level == SOL_IPV6 &&
				   cmsg->cmsg_type == IPV6_PKTINFO &&
				   cmsg->cmsg_len ==
					   CMSG_LEN(sizeof(struct in6_pktinfo))) {
				const struct in6_pktinfo *const info =
					CMSG_DATA(cmsg);

				memcpy(saddr, &info->ipi6_addr, 16);
			}
		}
	}
	if (addr_any(saddr))
		memcpy(saddr, daddr, 16);
}

/*
 * The uid of the socket of @net that a datagram from @saddr port 53 to
 * @daddr:@dport is delivered to, found as UDP finds it, when @daddr is an
 * address of @net's own.  False when it goes elsewhere (another machine,
 * another namespace), or to no socket a process made.
 */
static bool receiver_uid(struct net *const net, const u8 saddr[16],
			 const u8 daddr[16], const __be16 dport,
			 kuid_t *const uid)
{
	const struct in6_addr *const s6 = (const struct in6_addr *)saddr;
	const struct in6_addr *const d6 = (const struct in6_addr *)daddr;
	struct sock *rsk = NULL;
	bool found = false;

	rcu_read_lock();
	if (ipv6_addr_v4mapped(d6)) {
		if (ipv6_addr_v4mapped(s6) &&
		    inet_addr_type(net, d6->s6_addr32[3]) == RTN_LOCAL)
			rsk = __udp4_lib_lookup(net, s6->s6_addr32[3],
						htons(DNS_PORT),
						d6->s6_addr32[3], dport, 0, 0,
						net->ipv4.udp_table, NULL);
	}
#if IS_BUILTIN(CONFIG_IPV6)
	else if (ipv6_chk_addr(net, d6, NULL, 0)) {
		rsk = __udp6_lib_lookup(net, s6, htons(DNS_PORT), d6, dport, 0,
					0, net->ipv4.udp_table, NULL);
	}
#endif
	/* UDP sockets are freed after a grace period: the blob is there. */
	if (!IS_ERR_OR_NULL(rsk) && pfsel_sock(rsk)->governed) {
		*uid = pfsel_sock(rsk)->uid;
		found = true;
	}
	rcu_read_unlock();
	return found;
}

/*
 * Learns the answer a resolver's socket @sk sends from port 53, when it
 * goes to a socket of this namespace: read from a copy of the message's
 * iterator, in process context, so the pairs are charged to the sender's
 * memory cgroup (GFP_KERNEL_ACCOUNT) and to the receiver's uid.
 */
static void learn_served(struct sock *const sk, const struct msghdr *const msg)
{
	const size_t len = iov_iter_count(&msg->msg_iter);
	struct learn_ctx ctx = {
		.net = sock_net(sk),
		.gfp = GFP_KERNEL_ACCOUNT,
	};
	u8 saddr[16], daddr[16];
	struct iov_iter iter;
	__be16 dport;
	u8 *answer;

	if (len <= DNS_HEADER_SIZE || len > DNS_UDP_MAX ||
	    !send_dest(sk, msg, daddr, &dport))
		return;
	send_source(sk, msg, daddr, saddr);
	if (!receiver_uid(ctx.net, saddr, daddr, dport, &ctx.uid))
		return;
	answer = kmalloc(len, GFP_KERNEL | __GFP_NOWARN);
	if (!answer) {
		pfsel_hostmap_count(ctx.net, PFSEL_HOSTMAP_NOMEM);
		return;
	}
	iter = msg->msg_iter;
	if (copy_from_iter(answer, len, &iter) != len ||
	    !(answer[2] & DNS_FLAG_QR))
		goto out;
	pfsel_hostmap_count(ctx.net, PFSEL_HOSTMAP_SERVED);
	if (!answers_query(sk, daddr, dport, true, answer, len)) {
		pfsel_hostmap_count(ctx.net, PFSEL_HOSTMAP_UNASKED);
		goto out;
	}
	if (pfsel_dns_parse_answer(answer, len, learn_binding, &ctx) ==
	    -EINVAL)
		pfsel_hostmap_count(ctx.net, PFSEL_HOSTMAP_MALFORMED);
out:
	kfree(answer);
}

/**
 * pfsel_resolver_note_send - Note a resolver's query, if this send is one
 * @sock: the sending socket
 * @msg: the message, not yet copied: its data is read through a copy of
 *	 its iterator
 *
 * An answer a resolver's socket sends from port 53 to a program of this
 * machine, to a query that program sent it, is learned, for that
 * program's uid.
 *
 * net.c's socket_sendmsg hook calls it for every send while the system
 * policy names resolvers (pfsel_policy_resolvers()): one hook for all that
 * a send means to pfsel.
 */
void pfsel_resolver_note_send(struct socket *const sock,
			      struct msghdr *const msg)
{
	struct sock *const sk = sock->sk;
	u8 server[16];

	if (!sk || !pfsel_sock(sk)->governed)
		return;
	if (sk->sk_protocol != IPPROTO_UDP || sk->sk_type != SOCK_DGRAM ||
	    (sk->sk_family != AF_INET && sk->sk_family != AF_INET6))
		return;
	if (query_server(sk, msg, server)) {
		if (owner_is_resolver(pfsel_sock(sk)))
			note_query(sk, msg, server);
	} else if (READ_ONCE(inet_sk(sk)->inet_sport) == htons(DNS_PORT) &&
		   owner_is_resolver(pfsel_sock(sk))) {
		learn_served(sk, msg);
	}
}

static struct security_hook_list pfsel_resolver_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(socket_sock_rcv_skb, hook_socket_sock_rcv_skb),
};

__init void pfsel_add_resolver_hooks(void)
{
	security_add_hooks(pfsel_resolver_hooks,
			   ARRAY_SIZE(pfsel_resolver_hooks), &pfsel_lsmid);
}

static int __net_init queries_net_init(struct net *const net)
{
	struct pfsel_dns_queries *const queries =
		net_generic(net, queries_net_id);

	spin_lock_init(&queries->lock);
	get_random_bytes(&queries->key, sizeof(queries->key));
	return 0;
}

static struct pernet_operations queries_net_ops = {
	.init = queries_net_init,
	.id = &queries_net_id,
	.size = sizeof(struct pfsel_dns_queries),
};

/*
 * As the host name tables (hostmap.c): the namespaces start after the
 * LSMs; until this has run, no query is noted and no answer is learned.
 */
static int __init pfsel_resolver_register(void)
{
	int err;

	if (!pfsel_initialized)
		return 0;
	err = register_pernet_subsys(&queries_net_ops);
	if (err) {
		pr_err("Failed to make the DNS query tables: %d.\n", err);
		return err;
	}
	/* Whoever sees it set sees init_net's queries made. */
	smp_store_release(&queries_ready, true);
	return 0;
}
subsys_initcall(pfsel_resolver_register);
