// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Learning host names from trusted resolvers' DNS answers
 *
 * Rules by host name need to know which names an address has.  The kernel
 * learns them from the DNS answers that the system policy's resolvers
 * receive ("resolver APPS;", policy/LANGUAGE.md): a UDP datagram from port
 * 53 arriving at a socket whose creator's application is a resolver that
 * root's code started (exec.c: systemd, not a person's program), and whose
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
 * resolver's socket sends to port 53 (queries.c), and an answer counts
 * only when it answers one of them.  So a datagram from port 53 that
 * nobody asked for (a forged answer sent to the resolver's port by a
 * local program or from off the path, which must also guess the ID)
 * teaches nothing.  What is learned so is charged to the resolver's own
 * uid.
 *
 * The answers a resolver sends from port 53 to the programs of its
 * namespace are learned as well (learn_served()), charged to the uid of
 * the program that receives each: a caching resolver's answer from its
 * cache, which nothing upstream sent, is seen so too.  Such an answer
 * counts in the same way only when it answers a query: one that reached
 * that port-53 socket (noted by note_client_query() as it is queued) from
 * the address and port the answer goes to.  So a resolver cannot be made
 * to plant a name for a user by serving what nobody asked.
 *
 * Answers over TCP, which a resolver asks for when an answer set is too
 * large for UDP (so the busiest names), are read as they arrive too: the
 * first message of a trusted resolver's connection to port 53, put
 * together from its segments (dnsstream.c), when it answers the first
 * query the connection carried.  "DNS over TCP" below says why that is
 * exact.
 *
 * Each pair learned remembers its teacher, the resolver (hostmap.c).  A
 * policy load that stops trusting a resolver (the system policy no longer
 * names it, or its uid now has a policy of its own) drops what it taught
 * (pfsel_resolver_forget_untrusted(), from reset.c's table); and whether
 * these hooks run at all follows the system policy too
 * (pfsel_resolver_follow_policy()).
 *
 * This runs in softirq for every datagram of every UDP socket, and every
 * segment of every TCP socket: the cheap tests (a system policy that
 * names resolvers, a static key; UDP and source or destination port 53;
 * TCP and a stream being read) come first.  It never drops the datagram
 * or segment and never sleeps; what it learns is bounded by the table.
 */

#include <linux/errno.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jump_label.h>
#include <linux/lsm_hooks.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <net/inet_sock.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/udp.h>

#include "app.h"
#include "common.h"
#include "dns.h"
#include "dnsstream.h"
#include "hostmap.h"
#include "net.h"
#include "netns.h"
#include "policy.h"
#include "queries.h"
#include "recent.h"
#include "resolver.h"
#include "setup.h"

#define DNS_PORT 53
/* The largest UDP payload; dns.c reads no longer message. */
#define DNS_UDP_MAX 65535
#define DNS_FLAG_QR 0x80 /* in the third byte of the header */
/* Over TCP, a message's length goes before it, in two bytes. */
#define DNS_TCP_LENGTH_SIZE 2

DEFINE_STATIC_KEY_FALSE(pfsel_resolver_key);

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
 *
 * The pairs an answer teaches keep the socket's owner as their teacher
 * (hostmap.c), which this judges again under the table's lock and when a
 * policy changes.  Any context; never sleeps.
 */
static bool resolver_trusted(const struct pfsel_host_teacher *const owner)
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

/* The owner of a socket, as the teacher of what it learns. */
static struct pfsel_host_teacher teacher_of(const struct sock *const sk)
{
	const struct pfsel_sock_security *const owner = pfsel_sock(sk);

	return (struct pfsel_host_teacher){ .app = owner->app,
					    .uid = owner->uid };
}

static bool owner_is_resolver(const struct sock *const sk)
{
	const struct pfsel_host_teacher owner = teacher_of(sk);

	return resolver_trusted(&owner);
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

/*
 * Where an answer's pairs go: the namespace's table, the uid charged, the
 * resolver that teaches them, how to allocate; and whether the answer is
 * one the resolver serves (learn_served()), which only repeats pairs the
 * table holds.
 */
struct learn_ctx {
	struct pfsel_hostmap *hosts;
	kuid_t uid;
	struct pfsel_host_teacher teacher;
	gfp_t gfp;
	bool served;
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
	const size_t len = strlen(b->name);

	if (!b->asked || !pfsel_policydb_name_valid(b->name, len))
		return;
	if (ctx->served &&
	    !pfsel_hostmap_holds(ctx->hosts, b->addr, b->name, len)) {
		pfsel_hostmap_count(ctx->hosts, PFSEL_HOSTMAP_UNVOUCHED);
		return;
	}
	/*
	 * The recent allows keep allows that looked at host names (decide.c)
	 * while the names they saw do not expire and the table does not
	 * change what a request sees: a learning that changed it starts a
	 * new epoch.
	 */
	if (pfsel_hostmap_learn(ctx->hosts, b->addr, b->name, b->ttl, ctx->uid,
				&ctx->teacher, resolver_trusted, ctx->gfp))
		pfsel_recent_invalidate();
}

/*
 * Learns what the answer @msg of @len bytes says, which the resolver's
 * socket @sk received from port 53 of @server (over UDP or TCP), charged
 * to the resolver's own uid: when it answers a query that socket sent
 * there.  In softirq.
 */
static void learn_received(struct sock *const sk, struct pfsel_net *const pn,
			   const u8 server[16], const u8 *const msg,
			   const size_t len)
{
	struct learn_ctx ctx = {
		.hosts = &pn->hosts,
		.uid = pfsel_sock(sk)->uid,
		.teacher = teacher_of(sk),
		.gfp = GFP_ATOMIC,
	};

	pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_ANSWERS);
	if (!pfsel_queries_answered(&pn->queries, sk, server, htons(DNS_PORT),
				    false, msg, len)) {
		pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_UNASKED);
		return;
	}
	if (pfsel_dns_parse_answer(msg, len, learn_binding, &ctx) == -EINVAL)
		pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_MALFORMED);
}

/*
 * Copies the DNS message out of the datagram (whose data may be in pages)
 * into a buffer of exactly its size, and learns what it says.
 */
static void learn_answer(struct sock *const sk, struct sk_buff *const skb,
			 struct pfsel_net *const pn)
{
	const unsigned int at = sizeof(struct udphdr);
	unsigned int len;
	u8 server[16];
	u8 *msg;

	if (!checksum_good(skb) || skb->len <= at ||
	    skb->len - at > DNS_UDP_MAX || !source_address(skb, server))
		return;
	len = skb->len - at;
	msg = kmalloc(len, GFP_ATOMIC | __GFP_NOWARN);
	if (!msg) {
		pfsel_hostmap_count(&pn->hosts, PFSEL_HOSTMAP_NOMEM);
		return;
	}
	if (!skb_copy_bits(skb, at, msg, len))
		learn_received(sk, pn, server, msg, len);
	kfree(msg);
}

/*
 * Notes a query that a client sent to the resolver's port-53 socket @sk,
 * from port @port: the answer @sk serves to it may then be learned
 * (learn_served()).  Only what UDP will deliver: the checksum is checked.
 */
static void note_client_query(struct sock *const sk, struct sk_buff *const skb,
			      const __be16 port, struct pfsel_net *const pn)
{
	const unsigned int at = sizeof(struct udphdr);
	u8 head[PFSEL_DNS_HEADER_SIZE + PFSEL_DNS_WIRE_NAME_MAX];
	unsigned int len;
	u8 client[16];

	if (!checksum_good(skb) || skb->len <= at ||
	    !source_address(skb, client))
		return;
	len = min_t(unsigned int, skb->len - at, sizeof(head));
	if (skb_copy_bits(skb, at, head, len))
		return;
	pfsel_queries_note(&pn->queries, sk, client, port, true, head, len);
}

/*
 * DNS over TCP.  A resolver asks over TCP when its server truncated the
 * answer over UDP (a large answer set: the busiest names), or when a
 * client asked it over TCP.  The answer is read as a UDP one is, from a
 * trusted resolver's socket, as it arrives: from the segments, as they
 * reach the receive hook (tcp_filter() calls it), so the name is known
 * before the resolver can read the answer and pass it on.  A stream is no
 * datagram, and that hook runs before TCP has judged the segment, outside
 * the socket's lock, on any CPU; what is read is narrowed to what is
 * exact:
 *
 * - The first query and the first answer of a connection to port 53, no
 *   other.  note_stream_query() notes the query (as a UDP one) only when
 *   it is the first send of the socket's connection, to port 53, with its
 *   length in the same send, and the connection has received nothing:
 *   then where the answer starts is known, and recorded, under the
 *   socket's lock, so that no segment moves it meanwhile.  It is the
 *   sequence number after the server's SYN (rcv_nxt, before any data):
 *   read then for an established connection, or, when the connection is
 *   not established yet (TCP Fast Open, as dnsmasq sends; a connect() in
 *   progress), set by hook_inet_conn_established() when the server's
 *   SYN-ACK establishes it, under the socket's lock too.  Data before the
 *   query, answers after the first, and the queries of a connection a
 *   resolver keeps for several teach nothing.
 *
 * - A segment is taken only as TCP would take it, as far as can be judged
 *   before TCP does: from the server's address and port 53, its checksum
 *   verified (as UDP's path does), no SYN or RST, an acknowledgment that
 *   tcp_ack() accepts, and bytes from exactly the next sequence number of
 *   the stream on, in order (dnsstream.c, which has a lock of its own);
 *   a gap (segments out of order, or one that raced the stream's start)
 *   ends the reassembly: nothing is learned then, which fails safe.
 *   TCP may still drop a segment taken here (outside its window, PAWS, a
 *   full receive buffer, a socket filter): it had the exact sequence
 *   number the stream's next byte has, so an honest server sends those
 *   bytes again, the same; and a forger had to guess that number, all 32
 *   bits of it, where TCP takes any in its window, so what the kernel
 *   learns is no easier to forge than what the resolver reads.
 *
 * - Urgent data: none, ever, on the connection.  TCP takes an urgent
 *   pointer from any segment it accepts with URG set (one without data,
 *   the server's SYN-ACK), and a program that does not read urgent data
 *   in line never reads the byte it points at: what it reads is then not
 *   the bytes the segments carry.  So the receive hook marks the socket
 *   (tcp_unfollowed) at every segment with URG set and a right checksum,
 *   whether TCP then takes it or not, and gives its stream up; and a
 *   stream is given up when the mark is set or TCP holds an urgent
 *   pointer (urg_data) when it starts (note_stream_query(), under the
 *   socket's lock) and at every segment taken.  That is exact: TCP sets
 *   urg_data only from a segment with URG set, and only after tcp_filter()
 *   ran this hook on it.  A segment whose hook ran before the stream
 *   existed marked the socket, and full barriers between the mark and the
 *   load of the stream, and between the stream's publication and the load
 *   of the mark, make one side see the other, however late TCP takes the
 *   segment.  A pointer TCP took while no hook ran (before a system policy
 *   named resolvers) is in urg_data when the stream starts, which the
 *   program clears only by reading past its byte (a stream that received
 *   nothing has not), and TCP ignores a pointer below rcv_nxt, so that
 *   urg_data then says exactly whether a mark is pending.  A segment with
 *   URG set that TCP refuses (an acknowledgment it does not accept) gives
 *   up the answer too, which fails safe: the hook's judgement of the
 *   acknowledgment reads what may move before TCP judges it.  What this
 *   does not order is two segments of the connection whose hooks run at
 *   the same moment on two CPUs: a mark whose hook runs while the last
 *   segment of the answer is taken (looked for again once it is whole),
 *   and that TCP then takes first.  Linux steers a connection's segments
 *   to one CPU (RSS, RPS and RFS keep a flow's segments in order), so
 *   that a server does not choose that.
 *
 * - Data on a SYN: none.  With TCP Fast Open the server's SYN-ACK may
 *   carry data, which tcp_rcv_fastopen_synack() queues for the program
 *   after tcp_finish_connect() began the stream at the byte after the
 *   SYN; the stream takes no SYN, so it would read a later segment of
 *   other bytes from that same byte, which TCP drops as a repeat.  So a
 *   SYN that carries data, with a right checksum, marks the socket as
 *   urgent data does (the same barriers, the same mark), and its stream
 *   is given up.  (A SYN-ACK's data without Fast Open is not queued: TCP
 *   acknowledges the SYN alone, and the server sends the bytes again.)
 *
 * - Whole, the message must answer the query noted, as a UDP answer must
 *   (on that socket, from that server, with its ID and name, within 10 s,
 *   once), and it teaches through the same parser, for the resolver's
 *   uid.
 *
 * A program of the user can neither send from port 53 (root's) nor write
 * into another socket's TCP stream (a raw socket needs CAP_NET_RAW); a
 * server of its own on another port, or a client that connects to the
 * resolver's port 53, makes no stream that is read.  The buffer of a
 * stream being read is allocated in softirq, within a bound over all
 * streams (dnsstream.c), and given back as soon as the stream is whole,
 * given up, or out of time (a timer's, when no segment comes); the stream
 * itself goes with the socket.
 */

/*
 * Whether the program may read @sk's stream otherwise than its segments
 * say: a segment marked urgent data or carried data on a SYN, or TCP holds
 * an urgent pointer.  See "Urgent data" and "Data on a SYN" above.
 */
static bool stream_unfollowed(const struct sock *const sk)
{
	return READ_ONCE(pfsel_sock(sk)->tcp_unfollowed) ||
	       READ_ONCE(tcp_sk(sk)->urg_data);
}

/* Gives up @sk's @stream, counted once as lost. */
static void lose_stream(struct sock *const sk,
			struct pfsel_dns_stream *const stream)
{
	struct pfsel_net *const pn = pfsel_net(sock_net(sk));

	if (pfsel_dns_stream_lose(stream) && pn)
		pfsel_hostmap_count(&pn->hosts, PFSEL_HOSTMAP_TCP_LOST);
}

/*
 * Whether TCP would accept the acknowledgment @th carries, by tcp_ack()'s
 * rule (RFC 5961's bound below SND.UNA): every segment of an established
 * connection has one.  Read outside the socket's lock: the answer comes
 * after the query it acknowledges was sent, long after these moved.
 */
static bool ack_acceptable(const struct sock *const sk,
			   const struct tcphdr *const th)
{
	const struct tcp_sock *const tp = tcp_sk(sk);
	const u32 ack = ntohl(th->ack_seq);
	u64 window, acked;

	/* TCP writes it under the socket's lock, and reads it unmarked. */
	window = data_race(tp->max_window);
	/* Likewise: an old acknowledgment is of bytes acknowledged before. */
	acked = data_race(tp->bytes_acked);
	return th->ack && !after(ack, READ_ONCE(tp->snd_nxt)) &&
	       !before(ack, READ_ONCE(tp->snd_una) - (u32)min(window, acked));
}

/* A stream's whole answer: learned as any received answer is. */
static void learn_stream_answer(struct sock *const sk,
				const struct pfsel_dns_stream *const stream,
				const u8 *const msg, const u16 len)
{
	struct pfsel_net *const pn = pfsel_net(sock_net(sk));

	if (!pn || !owner_is_resolver(sk))
		return;
	pfsel_hostmap_count(&pn->hosts, PFSEL_HOSTMAP_TCP);
	learn_received(sk, pn, stream->server, msg, len);
}

/*
 * A segment that arrives at a TCP socket whose first answer is being read
 * (@stream): its data is taken if TCP would take it, and the answer is
 * learned once whole.
 */
static void read_stream_segment(struct sock *const sk,
				struct sk_buff *const skb,
				struct pfsel_dns_stream *const stream)
{
	struct pfsel_net *const pn = pfsel_net(sock_net(sk));
	const struct tcphdr *th;
	unsigned int doff;
	u8 server[16];
	u16 len;
	u8 *msg;

	if (!pn || !pfsel_dns_stream_reading(stream))
		return;
	if (stream_unfollowed(sk)) {
		lose_stream(sk, stream);
		return;
	}
	switch (READ_ONCE(sk->sk_state)) {
	case TCP_ESTABLISHED:
	case TCP_FIN_WAIT1:
	case TCP_FIN_WAIT2:
		break;
	default:
		return;
	}
	th = tcp_hdr(skb);
	doff = th->doff * 4;
	if (th->syn || th->rst || th->source != htons(DNS_PORT) ||
	    !source_address(skb, server) ||
	    memcmp(server, stream->server, sizeof(server)) ||
	    !ack_acceptable(sk, th) || tcp_checksum_complete(skb))
		return;
	if (skb->len <= doff)
		return;
	switch (pfsel_dns_stream_take(stream, ntohl(th->seq), skb, doff,
				      skb->len - doff, &msg, &len)) {
	case PFSEL_DNS_STREAM_WHOLE:
		/* A mark that came while the segment was taken. */
		if (stream_unfollowed(sk))
			pfsel_hostmap_count(&pn->hosts, PFSEL_HOSTMAP_TCP_LOST);
		else
			learn_stream_answer(sk, stream, msg, len);
		pfsel_dns_stream_free_msg(msg, len);
		break;
	case PFSEL_DNS_STREAM_LOST:
		pfsel_hostmap_count(&pn->hosts, PFSEL_HOSTMAP_TCP_LOST);
		break;
	default:
		break;
	}
}

/*
 * A segment that arrives at a TCP socket: marks the socket when it marks
 * urgent data, and is read when the socket's stream is.
 */
static void read_tcp_segment(struct sock *const sk, struct sk_buff *const skb)
{
	struct pfsel_sock_security *const owner = pfsel_sock(sk);
	struct pfsel_dns_stream *stream;
	const struct tcphdr *th;

	/* tcp_v4_rcv() and tcp_v6_rcv() have the TCP header at skb->data. */
	if (sk->sk_type != SOCK_STREAM || skb_transport_offset(skb) != 0)
		return;
	th = tcp_hdr(skb);
	if ((th->urg || (th->syn && skb->len > th->doff * 4)) &&
	    !tcp_checksum_complete(skb)) {
		WRITE_ONCE(owner->tcp_unfollowed, true);
		/* The mark before the stream's load: see "Urgent data". */
		smp_mb();
	}
	/* Pairs with the release in note_stream_query(). */
	stream = smp_load_acquire(&owner->dns_stream);
	if (stream)
		read_stream_segment(sk, skb, stream);
}

static int hook_socket_sock_rcv_skb(struct sock *const sk,
				    struct sk_buff *const skb)
{
	const struct pfsel_sock_security *const owner = pfsel_sock(sk);
	const struct udphdr *uh;
	struct udphdr uh_buf;
	struct pfsel_net *pn;

	/* Until the system policy names a resolver, there is nothing to do. */
	if (!pfsel_resolvers_named() || !owner->governed)
		return 0;
	if (sk->sk_protocol == IPPROTO_TCP) {
		read_tcp_segment(sk, skb);
		return 0;
	}
	if (sk->sk_protocol != IPPROTO_UDP || sk->sk_type != SOCK_DGRAM ||
	    (sk->sk_family != AF_INET && sk->sk_family != AF_INET6) ||
	    !skb_transport_header_was_set(skb))
		return 0;
	uh = skb_header_pointer(skb, skb_transport_offset(skb), sizeof(uh_buf),
				&uh_buf);
	if (!uh || (uh->source != htons(DNS_PORT) &&
		    uh->dest != htons(DNS_PORT)) ||
	    !owner_is_resolver(sk))
		return 0;
	pn = pfsel_net(sock_net(sk));
	if (!pn)
		return 0;
	if (uh->source == htons(DNS_PORT))
		learn_answer(sk, skb, pn);
	if (uh->dest == htons(DNS_PORT))
		note_client_query(sk, skb, uh->source, pn);
	return 0;
}

/* The address and port a send names, when it names an IP one. */
static bool named_dest(const struct msghdr *const msg, u8 addr[16],
		       __be16 *const port)
{
	const struct sockaddr *const sa = msg->msg_name;

	if (sa->sa_family == AF_INET &&
	    msg->msg_namelen >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *const sin = msg->msg_name;

		*port = sin->sin_port;
		set_v4mapped(addr, sin->sin_addr.s_addr);
		return true;
	}
	if (sa->sa_family == AF_INET6 && msg->msg_namelen >= SIN6_LEN_RFC2133) {
		const struct sockaddr_in6 *const sin6 = msg->msg_name;

		*port = sin6->sin6_port;
		memcpy(addr, &sin6->sin6_addr, 16);
		return true;
	}
	return false;
}

/* The peer a socket is connected (or connecting) to. */
static void sock_peer(const struct sock *const sk, u8 addr[16],
		      __be16 *const port)
{
	*port = READ_ONCE(inet_sk(sk)->inet_dport);
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(addr, &sk->sk_v6_daddr, 16);
		return;
	}
#endif
	set_v4mapped(addr, READ_ONCE(sk->sk_daddr));
}

/*
 * Where a send goes: the address and port it names, or the connected
 * peer's.
 */
static bool send_dest(const struct sock *const sk,
		      const struct msghdr *const msg, u8 addr[16],
		      __be16 *const port)
{
	if (msg->msg_name && msg->msg_namelen)
		return named_dest(msg, addr, port);
	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED)
		return false;
	sock_peer(sk, addr, port);
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
	struct pfsel_net *const pn = pfsel_net(sock_net(sk));
	u8 head[PFSEL_DNS_HEADER_SIZE + PFSEL_DNS_WIRE_NAME_MAX];
	struct iov_iter iter;
	size_t len;

	if (!pn)
		return;
	iter = msg->msg_iter;
	len = copy_from_iter(head, min(iov_iter_count(&iter), sizeof(head)),
			     &iter);
	pfsel_queries_note(&pn->queries, sk, server, htons(DNS_PORT), false,
			   head, len);
}

/*
 * The server of the connection a resolver's TCP socket @sk sends @msg on,
 * as its first send: the peer it is connected or connecting to, or, on a
 * socket not connected yet, the one a TCP Fast Open send names.  Under
 * the socket's lock.
 */
static bool stream_server(const struct sock *const sk,
			  const struct msghdr *const msg, u8 server[16])
{
	__be16 port;

	switch (sk->sk_state) {
	case TCP_ESTABLISHED:
	case TCP_SYN_SENT:
		sock_peer(sk, server, &port);
		break;
	case TCP_CLOSE:
		if (!(msg->msg_flags & MSG_FASTOPEN) || !msg->msg_name ||
		    !msg->msg_namelen || !named_dest(msg, server, &port))
			return false;
		break;
	default:
		return false;
	}
	return port == htons(DNS_PORT);
}

/*
 * Whether an established connection has neither sent nor received a byte
 * yet: nothing queued or acknowledged, nothing transmitted, nothing
 * received in order or out of it.  Under the socket's lock.
 */
static bool stream_untouched(const struct sock *const sk)
{
	const struct tcp_sock *const tp = tcp_sk(sk);

	return tp->write_seq == tp->snd_una && !tp->bytes_sent &&
	       !tp->bytes_received && RB_EMPTY_ROOT(&tp->out_of_order_queue);
}

/*
 * Notes the query a resolver's TCP socket sends first on its connection
 * to port 53 (its length, then the query, in @msg), and makes the stream
 * whose first message is to be read as its answer: see "DNS over TCP"
 * above.  One stream per socket, made once; read from a copy of the
 * message's iterator.
 */
static void note_stream_query(struct sock *const sk,
			      const struct msghdr *const msg)
{
	struct pfsel_sock_security *const ss = pfsel_sock(sk);
	struct pfsel_net *const pn = pfsel_net(sock_net(sk));
	u8 head[DNS_TCP_LENGTH_SIZE + PFSEL_DNS_HEADER_SIZE +
		PFSEL_DNS_WIRE_NAME_MAX];
	struct pfsel_dns_stream *stream;
	struct iov_iter iter;
	size_t got, len;

	if (!pn)
		return;
	iter = msg->msg_iter;
	got = copy_from_iter(head, min(iov_iter_count(&iter), sizeof(head)),
			     &iter);
	if (got <= DNS_TCP_LENGTH_SIZE)
		return;
	len = min_t(size_t, head[0] << 8 | head[1], got - DNS_TCP_LENGTH_SIZE);
	stream = pfsel_dns_stream_new(jiffies + PFSEL_RESOLVER_QUERY_WAIT * HZ,
				      GFP_KERNEL_ACCOUNT);
	if (!stream)
		return;
	lock_sock(sk);
	if (ss->dns_stream || !stream_server(sk, msg, stream->server) ||
	    (sk->sk_state == TCP_ESTABLISHED && !stream_untouched(sk)) ||
	    !pfsel_queries_note(&pn->queries, sk, stream->server,
				htons(DNS_PORT), false,
				head + DNS_TCP_LENGTH_SIZE, len)) {
		release_sock(sk);
		pfsel_dns_stream_free(stream);
		return;
	}
	if (sk->sk_state == TCP_ESTABLISHED)
		pfsel_dns_stream_begin(stream, tcp_sk(sk)->rcv_nxt);
	/* Pairs with the acquires of the receive and establishing hooks. */
	smp_store_release(&ss->dns_stream, stream);
	/* The stream before the mark's load: see "Urgent data". */
	smp_mb();
	if (stream_unfollowed(sk))
		lose_stream(sk, stream);
	release_sock(sk);
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
 *
 * And a served answer only repeats: each of its pairs is learned only
 * when the table holds that pair already (for any uid, with time left).
 * What a resolver serves may come from anywhere it asked: an upstream on
 * a port other than 53 (a local service a zone is sent to, whose port a
 * program of the user can take), or the alias target an attacker's own
 * server put beside its answer, which the resolver caches and later
 * serves for its own question.  A pair enters the table only from an
 * answer a trusted resolver received from port 53 to the question it
 * asked, so by induction every pair learned here is one such an answer
 * taught.  The price: a name the table no longer holds for anyone (its
 * TTL ran out, or a flood pushed out every copy) is not learned from the
 * resolver's cache until the resolver asks its upstream again.
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
	struct net *const net = sock_net(sk);
	struct pfsel_net *const pn = pfsel_net(net);
	struct learn_ctx ctx = {
		.teacher = teacher_of(sk),
		.gfp = GFP_KERNEL_ACCOUNT,
		.served = true,
	};
	u8 saddr[16], daddr[16];
	struct iov_iter iter;
	__be16 dport;
	u8 *answer;

	if (!pn || len <= PFSEL_DNS_HEADER_SIZE || len > DNS_UDP_MAX ||
	    !send_dest(sk, msg, daddr, &dport))
		return;
	ctx.hosts = &pn->hosts;
	send_source(sk, msg, daddr, saddr);
	if (!receiver_uid(net, saddr, daddr, dport, &ctx.uid))
		return;
	answer = kmalloc(len, GFP_KERNEL | __GFP_NOWARN);
	if (!answer) {
		pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_NOMEM);
		return;
	}
	iter = msg->msg_iter;
	if (copy_from_iter(answer, len, &iter) != len ||
	    !(answer[2] & DNS_FLAG_QR))
		goto out;
	pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_SERVED);
	if (!pfsel_queries_answered(&pn->queries, sk, daddr, dport, true,
				    answer, len)) {
		pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_UNASKED);
		goto out;
	}
	if (pfsel_dns_parse_answer(answer, len, learn_binding, &ctx) ==
	    -EINVAL)
		pfsel_hostmap_count(ctx.hosts, PFSEL_HOSTMAP_MALFORMED);
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
 * program's uid.  A resolver's TCP socket that sends its first query to
 * port 53 gets its stream read (note_stream_query()).
 *
 * net.c's socket_sendmsg hook calls it for every send while the system
 * policy names resolvers (pfsel_resolvers_named()): one hook for all that
 * a send means to pfsel.
 */
void pfsel_resolver_note_send(struct socket *const sock,
			      struct msghdr *const msg)
{
	struct sock *const sk = sock->sk;
	u8 server[16];

	if (!sk || !pfsel_sock(sk)->governed ||
	    (sk->sk_family != AF_INET && sk->sk_family != AF_INET6))
		return;
	if (sk->sk_protocol == IPPROTO_TCP && sk->sk_type == SOCK_STREAM) {
		/*
		 * What may be a first query to port 53 (note_stream_query()
		 * looks again, under the socket's lock).
		 */
		if (!READ_ONCE(pfsel_sock(sk)->dns_stream) &&
		    (READ_ONCE(inet_sk(sk)->inet_dport) == htons(DNS_PORT) ||
		     msg->msg_flags & MSG_FASTOPEN) &&
		    owner_is_resolver(sk))
			note_stream_query(sk, msg);
		return;
	}
	if (sk->sk_protocol != IPPROTO_UDP || sk->sk_type != SOCK_DGRAM)
		return;
	if (query_server(sk, msg, server)) {
		if (owner_is_resolver(sk))
			note_query(sk, msg, server);
	} else if (READ_ONCE(inet_sk(sk)->inet_sport) == htons(DNS_PORT) &&
		   owner_is_resolver(sk)) {
		learn_served(sk, msg);
	}
}

/*
 * A connection is established: a stream whose first query was sent before
 * (TCP Fast Open, or during the connect()) starts at the sequence number
 * after the server's SYN.  tcp_finish_connect() calls it with the socket
 * locked, before any data of the connection is taken in.
 */
static void hook_inet_conn_established(struct sock *const sk,
				       struct sk_buff *const skb)
{
	struct pfsel_dns_stream *stream;

	/* Pairs with the release in note_stream_query(). */
	stream = smp_load_acquire(&pfsel_sock(sk)->dns_stream);
	if (stream)
		pfsel_dns_stream_begin(stream, tcp_sk(sk)->rcv_nxt);
}

/**
 * pfsel_resolver_sock_free - Free the DNS stream a socket was reading
 * @sk: the socket, being freed
 *
 * net.c's sk_free_security hook calls it: one hook for pfsel's part of a
 * socket.  Nothing reads the stream any more then: no segment reaches a
 * socket that is freed.
 */
void pfsel_resolver_sock_free(struct sock *const sk)
{
	pfsel_dns_stream_free(pfsel_sock(sk)->dns_stream);
}

static struct security_hook_list pfsel_resolver_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(socket_sock_rcv_skb, hook_socket_sock_rcv_skb),
	LSM_HOOK_INIT(inet_conn_established, hook_inet_conn_established),
};

__init void pfsel_add_resolver_hooks(void)
{
	security_add_hooks(pfsel_resolver_hooks,
			   ARRAY_SIZE(pfsel_resolver_hooks), &pfsel_lsmid);
}

static DEFINE_MUTEX(pfsel_resolver_follow_mutex);

/**
 * pfsel_resolver_follow_policy - Run the learning hooks only when needed
 *
 * They run on every datagram sent or queued; only a system policy that
 * names resolvers gives them anything to do.  Called after the system
 * policy changed (reset.c).  Concurrent callers each read the policy in
 * force under one mutex, so the last to run sets what the newest policy
 * asks.
 *
 * Context: process; sleeps.
 */
void pfsel_resolver_follow_policy(void)
{
	const struct pfsel_policy *system;
	bool named;

	mutex_lock(&pfsel_resolver_follow_mutex);
	rcu_read_lock();
	system = pfsel_policy_system();
	named = system && system->db->n_resolvers;
	rcu_read_unlock();
	if (named)
		static_branch_enable(&pfsel_resolver_key);
	else
		static_branch_disable(&pfsel_resolver_key);
	mutex_unlock(&pfsel_resolver_follow_mutex);
}

/**
 * pfsel_resolver_forget_untrusted - Forget what untrusted resolvers taught
 * @uid: the user whose policy changed: the resolvers run as that uid are
 *	 judged again (a policy of its own makes a uid's programs the
 *	 user's); INVALID_UID when the system policy changed: every
 *	 resolver is
 *
 * Every namespace drops the host names taught by a resolver the policies
 * now in force do not trust (resolver_trusted()); what a resolver they
 * still trust taught stays.  Called once the change is published
 * (reset.c).
 *
 * Context: any; does not sleep.
 */
void pfsel_resolver_forget_untrusted(const kuid_t uid)
{
	struct net *net;

	rcu_read_lock();
	for_each_net_rcu(net) {
		struct pfsel_hostmap *const hosts = pfsel_net_hosts(net);

		if (hosts)
			pfsel_hostmap_forget(hosts, uid, resolver_trusted);
	}
	rcu_read_unlock();
}
