// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Requests, from what a socket hook sees
 *
 * The hooks run before the protocol parses the address it was given, so
 * this file parses it the same way, protocol by protocol: an address form
 * the protocol accepts and this file did not would reach the network
 * undecided.  Where the kernel rejects an address, the errno it would give
 * is returned instead, so that a policy never changes the error a program
 * sees for a malformed call.  Each case names the kernel function whose
 * behaviour it copies (as of Linux 6.12).
 *
 * The sockets are not locked: setsockopt(IPV6_ADDRFORM) may turn an IPv6
 * TCP or UDP socket into an IPv4 one between a hook and the protocol, so
 * sk_family is read once, and every case is checked to stay closed when
 * the family changes under it.
 */

#include <linux/errno.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "classify.h"
#include "policydb.h"

/*
 * How a protocol parses addresses.  The policy's protocols are coarser:
 * MPTCP is tcp, and raw and "other" are both raw, but raw sockets and the
 * other protocols parse differently.
 */
enum pfsel_kind {
	PFSEL_KIND_TCP,		/* TCP, MPTCP */
	PFSEL_KIND_UDP,		/* UDP, UDP-Lite */
	PFSEL_KIND_PING,	/* ICMP / ICMPv6 datagram ("ping") sockets */
	PFSEL_KIND_RAW,		/* SOCK_RAW, whatever its protocol */
	PFSEL_KIND_OTHER,	/* any other inet socket: SCTP, L2TP/IP, ... */
};

/*
 * The protocol a socket(@family, @type, @protocol) call gets, by the
 * inetsw tables of inet_create() and inet6_create(): protocol 0 picks the
 * first entry of the type (TCP for SOCK_STREAM, UDP for SOCK_DGRAM), and
 * every SOCK_RAW socket is a raw socket.  The ping entry is ICMP under
 * AF_INET and ICMPv6 under AF_INET6 only; the other pairing creates no
 * ping socket.
 */
static __always_inline enum pfsel_kind
kind_of(int family, int type, int protocol)
{
	switch (type) {
	case SOCK_STREAM:
		if (protocol == 0 || protocol == IPPROTO_TCP ||
		    protocol == IPPROTO_MPTCP)
			return PFSEL_KIND_TCP;
		break;
	case SOCK_DGRAM:
		if (protocol == 0 || protocol == IPPROTO_UDP ||
		    protocol == IPPROTO_UDPLITE)
			return PFSEL_KIND_UDP;
		if ((family == AF_INET && protocol == IPPROTO_ICMP) ||
		    (family == AF_INET6 && protocol == IPPROTO_ICMPV6))
			return PFSEL_KIND_PING;
		break;
	case SOCK_RAW:
		return PFSEL_KIND_RAW;
	}
	return PFSEL_KIND_OTHER;
}

static u8 proto_of(enum pfsel_kind kind)
{
	switch (kind) {
	case PFSEL_KIND_TCP:
		return PFSEL_PROTO_TCP;
	case PFSEL_KIND_UDP:
		return PFSEL_PROTO_UDP;
	case PFSEL_KIND_PING:
		return PFSEL_PROTO_ICMP;
	default:
		return PFSEL_PROTO_RAW;
	}
}

/* Only tcp and udp requests carry ports (LANGUAGE.md, section 8). */
static bool has_ports(u8 proto)
{
	return proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP;
}

/*
 * The protocols compare a signed length with a size; a negative length
 * never reaches them (move_addr_to_kernel() and copy_msghdr_from_user()
 * refuse it), but the comparison here must not wrap if one ever did.
 */
static bool too_short(int len, size_t need)
{
	return len < 0 || (size_t)len < need;
}

static const u8 v4mapped_prefix[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

/**
 * pfsel_addr_is_inet - Whether an address is IPv4 (IPv4-mapped IPv6)
 * @addr: 16 bytes, network order
 *
 * An IPv4 address a.b.c.d is ::ffff:a.b.c.d to the policy; audit prints
 * such an address as IPv4, from @addr + 12.
 *
 * Return: true for an address in ::ffff:0:0/96.
 */
bool pfsel_addr_is_inet(const u8 addr[16])
{
	u64 zeros;
	__be32 ffff;

	/*
	 * Every request asks this: two word loads, not a call to the byte
	 * loop of memcmp().
	 */
	memcpy(&zeros, addr, sizeof(zeros));
	memcpy(&ffff, addr + sizeof(zeros), sizeof(ffff));
	return !zeros && ffff == htonl(0x0000ffff);
}

static void set_v4(u8 addr[16], __be32 v4)
{
	memcpy(addr, v4mapped_prefix, sizeof(v4mapped_prefix));
	memcpy(addr + sizeof(v4mapped_prefix), &v4, sizeof(v4));
}

static u8 family_of(const u8 addr[16])
{
	return pfsel_addr_is_inet(addr) ? PFSEL_FAMILY_INET :
					  PFSEL_FAMILY_INET6;
}

/* The remote end named by a sockaddr_in; the caller checked the length. */
static int take_in(const struct sockaddr *address, struct pfsel_request *req)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)address;

	set_v4(req->addr, sin->sin_addr.s_addr);
	req->port = ntohs(sin->sin_port);
	return 0;
}

/* The same for a sockaddr_in6: at least SIN6_LEN_RFC2133 bytes. */
static int take_in6(const struct sockaddr *address, struct pfsel_request *req)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)address;

	memcpy(req->addr, &sin6->sin6_addr, sizeof(req->addr));
	req->port = ntohs(sin6->sin6_port);
	return 0;
}

/* A sockaddr_in of the family AF_INET, as __ip4_datagram_connect() wants. */
static int want_in(const struct sockaddr *address, int addrlen,
		   struct pfsel_request *req)
{
	if (too_short(addrlen, sizeof(struct sockaddr_in)))
		return -EINVAL;
	if (address->sa_family != AF_INET)
		return -EAFNOSUPPORT;
	return take_in(address, req);
}

/*
 * Protocols without a case of their own (SCTP, L2TP/IP, SMC over inet,
 * and whatever is added later) parse addresses their own way.  Rather
 * than copy each, accept every form that some inet protocol accepts, and
 * decide the address it names: then none escapes, and one the protocol
 * refuses costs at worst a needless decision.  An AF_UNSPEC address is
 * read as the socket's own family, as raw and L2TP/IP sockets read a
 * family of 0, and as __inet_bind() reads AF_UNSPEC; a caller to whom
 * AF_UNSPEC means "no address" handles it first.
 */
static int parse_other(int family, const struct sockaddr *address,
		       int addrlen, struct pfsel_request *req)
{
	sa_family_t sa_family;

	if (too_short(addrlen, offsetofend(struct sockaddr, sa_family)))
		return -EINVAL;
	sa_family = address->sa_family;
	if (sa_family == AF_UNSPEC)
		sa_family = family;
	switch (sa_family) {
	case AF_INET:
		if (too_short(addrlen, sizeof(struct sockaddr_in)))
			return -EINVAL;
		return take_in(address, req);
	case AF_INET6:
		if (too_short(addrlen, SIN6_LEN_RFC2133))
			return -EINVAL;
		return take_in6(address, req);
	}
	return -EAFNOSUPPORT;
}

/*
 * The local end a socket has now, for audit: inet_rcv_saddr for IPv4;
 * sk_v6_rcv_saddr for IPv6, where inet_rcv_saddr holds LOOPBACK4_IPV6 for
 * a non-mapped address (__inet6_bind()).  inet_num is the bound port of
 * TCP and UDP; raw sockets keep their protocol there, ping sockets their
 * identifier, so those give no port.  Nothing is locked: a concurrent
 * bind() may be seen half done, which audit can live with.
 */
static void local_end(const struct sock *sk, int family, u8 proto,
		      u8 laddr[16], u16 *lport)
{
	if (family == AF_INET)
		set_v4(laddr, READ_ONCE(sk->sk_rcv_saddr));
#if IS_ENABLED(CONFIG_IPV6)
	else
		memcpy(laddr, &sk->sk_v6_rcv_saddr, 16);
#endif
	*lport = has_ports(proto) ? READ_ONCE(inet_sk(sk)->inet_num) : 0;
}

/*
 * A connect or send to the unspecified address reaches the local host:
 * ip_route_output_key_hash_rcu() routes IPv4 0.0.0.0 to 127.0.0.1 over
 * the loopback device, and IPv6 (__ip6_datagram_connect(),
 * tcp_v6_connect(), udpv6_sendmsg(), rawv6_sendmsg()) reads :: as ::1, and
 * ::ffff:0.0.0.0 as IPv4's 0.0.0.0.  The request is the address reached,
 * so that "to loopback" means every way there (LANGUAGE.md, section 8).
 */
static void reached_addr(u8 addr[16])
{
	__be64 high, low;

	/*
	 * Every connect and addressed send asks this: two word loads, not
	 * memcmp()'s byte loop.  Both unspecified addresses lie in ::/96.
	 */
	memcpy(&high, addr, sizeof(high));
	if (high)
		return;
	memcpy(&low, addr + sizeof(high), sizeof(low));
	if (!low)
		addr[15] = 1;
	else if (low == cpu_to_be64(0x0000ffff00000000ULL))
		set_v4(addr, htonl(INADDR_LOOPBACK));
}

/*
 * Request fields common to every addressed operation; 0 once filled.
 * Inline in each classifier, as it was before the header-included send
 * became its sixth caller: a call here cost the hit path of every
 * addressed hook some 15 instructions (make bench).
 */
static __always_inline int finish(const struct sock *sk, int family, u8 op,
				  u8 proto, struct pfsel_request *req)
{
	if (op == PFSEL_OP_CONNECT)
		reached_addr(req->addr);
	req->op = op;
	req->proto = proto;
	req->family = family_of(req->addr);
	req->net = sock_net(sk);
	if (!has_ports(proto))
		req->port = 0;
	local_end(sk, family, proto, req->laddr, &req->lport);
	return 0;
}

/*
 * The socket's family and how its protocol parses addresses; false for a
 * socket that is not inet (AF_PACKET included: after create, packet
 * sockets carry no IP address and are not requests).  sk_family is
 * read once, as IPV6_ADDRFORM may change it concurrently.
 */
static __always_inline bool inet_kind(const struct sock *sk, int *family,
				      enum pfsel_kind *kind)
{
	int f = READ_ONCE(sk->sk_family);

	if (f != AF_INET && f != AF_INET6)
		return false;
	*family = f;
	*kind = kind_of(f, sk->sk_type, sk->sk_protocol);
	return true;
}

/**
 * pfsel_classify_create - The request of a socket() call
 * @family: the socket family
 * @type: the socket type; SOCK_NONBLOCK and SOCK_CLOEXEC are ignored
 * @protocol: the protocol
 * @req: receives the create request
 *
 * By LANGUAGE.md, section 6: tcp is SOCK_STREAM with protocol 0, TCP or
 * MPTCP; udp is SOCK_DGRAM with 0, UDP or UDP-Lite; icmp is SOCK_DGRAM
 * with ICMP (AF_INET) or ICMPv6 (AF_INET6); raw is SOCK_RAW and every
 * other inet socket; packet is AF_PACKET of any type, and the families
 * that also put frames of the process's making on a link: AF_XDP and
 * AF_PPPOX (PPPoE frames to any station of the LAN, PPTP's GRE).
 *
 * Return: 0 for an inet or packet socket; PFSEL_NOT_REQUEST for another
 * family; -EINVAL for a protocol number that inet_create() and
 * inet6_create() refuse.
 */
int pfsel_classify_create(int family, int type, int protocol,
			  struct pfsel_request *req)
{
	*req = (struct pfsel_request){};
	req->op = PFSEL_OP_CREATE;
	/* __sys_socket() masks the flags off; a caller may not have. */
	type &= SOCK_TYPE_MASK;

	/*
	 * __sock_create() turns (AF_INET, SOCK_PACKET) into AF_PACKET before
	 * the hook; it is taken as what it becomes should a caller not.
	 */
	if (family == AF_PACKET || family == AF_XDP || family == AF_PPPOX ||
	    (family == AF_INET && type == SOCK_PACKET)) {
		req->proto = PFSEL_PROTO_PACKET;
		req->family = PFSEL_FAMILY_NONE;
		return 0;
	}
	if (family != AF_INET && family != AF_INET6)
		return PFSEL_NOT_REQUEST;
	if (protocol < 0 || protocol >= IPPROTO_MAX)
		return -EINVAL;
	req->proto = proto_of(kind_of(family, type, protocol));
	req->family = family == AF_INET ? PFSEL_FAMILY_INET :
					  PFSEL_FAMILY_INET6;
	pfsel_policydb_family_addr(req->family, req->addr);
	return 0;
}

/**
 * pfsel_classify_family_unruled - Whether a family reaches IP peers unseen
 * @family: the socket family
 *
 * SMC, RDS, RxRPC and TIPC talk to their peers over TCP or UDP sockets
 * that the kernel opens for them, to addresses that no hook sees as an
 * inet request, and the language has no words for them (LANGUAGE.md,
 * section 6).  Debian builds them as modules that socket() loads for any
 * user.
 *
 * Return: for such a family, its name (the AF_ name in lower case, as the
 * audit record of its refusal gives it); NULL for any other.
 */
const char *pfsel_classify_family_unruled(int family)
{
	switch (family) {
	case AF_SMC:
		return "smc";
	case AF_RDS:
		return "rds";
	case AF_RXRPC:
		return "rxrpc";
	case AF_TIPC:
		return "tipc";
	}
	return NULL;
}

/**
 * pfsel_classify_sock - The protocol of an existing socket
 * @sk: the socket
 * @proto: receives its enum pfsel_proto
 *
 * The same mapping as pfsel_classify_create(), from sk_family, sk_type and
 * sk_protocol (where inet_create() stored the protocol that a protocol of
 * 0 chose).
 *
 * Return: 0 for an inet socket; PFSEL_NOT_REQUEST for any other, packet
 * sockets included.
 */
int pfsel_classify_sock(const struct sock *sk, u8 *proto)
{
	enum pfsel_kind kind;
	int family;

	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	*proto = proto_of(kind);
	return 0;
}

/*
 * bind() on an IPv4 socket.  raw_bind() wants 16 bytes and never looks at
 * the family: whatever it says, sin_addr is bound.  inet_bind_sk() (TCP,
 * UDP, MPTCP's subflow) and ping_check_bind_addr() want 16 bytes, then
 * AF_INET, or AF_UNSPEC with INADDR_ANY ("compatibility games" of
 * __inet_bind()), which binds 0.0.0.0.
 */
static int parse_bind4(enum pfsel_kind kind, const struct sockaddr *address,
		       int addrlen, struct pfsel_request *req)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)address;

	if (kind == PFSEL_KIND_OTHER)
		return parse_other(AF_INET, address, addrlen, req);
	if (too_short(addrlen, sizeof(struct sockaddr_in)))
		return -EINVAL;
	if (kind == PFSEL_KIND_RAW || sin->sin_family == AF_INET ||
	    (sin->sin_family == AF_UNSPEC &&
	     sin->sin_addr.s_addr == htonl(INADDR_ANY)))
		return take_in(address, req);
	return -EAFNOSUPPORT;
}

/*
 * bind() on an IPv6 socket: AF_INET6 only.  inet6_bind_sk() (TCP, UDP)
 * wants SIN6_LEN_RFC2133 bytes and gives -EAFNOSUPPORT for another family;
 * rawv6_bind() gives -EINVAL for another family, and -EADDRNOTAVAIL for an
 * IPv4-mapped address; ping_check_bind_addr() wants a whole sockaddr_in6.
 * An IPv4-mapped address binds the IPv4 address (__inet6_bind()): a
 * request of family inet.
 */
static int parse_bind6(enum pfsel_kind kind, const struct sockaddr *address,
		       int addrlen, struct pfsel_request *req)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)address;

	switch (kind) {
	case PFSEL_KIND_OTHER:
		return parse_other(AF_INET6, address, addrlen, req);
	case PFSEL_KIND_RAW:
		if (too_short(addrlen, SIN6_LEN_RFC2133) ||
		    sin6->sin6_family != AF_INET6)
			return -EINVAL;
		if (ipv6_addr_v4mapped(&sin6->sin6_addr))
			return -EADDRNOTAVAIL;
		break;
	case PFSEL_KIND_PING:
		if (too_short(addrlen, sizeof(struct sockaddr_in6)))
			return -EINVAL;
		if (sin6->sin6_family != AF_INET6)
			return -EAFNOSUPPORT;
		break;
	default:
		if (too_short(addrlen, SIN6_LEN_RFC2133))
			return -EINVAL;
		if (sin6->sin6_family != AF_INET6)
			return -EAFNOSUPPORT;
		break;
	}
	return take_in6(address, req);
}

/**
 * pfsel_classify_bind - The request of a bind() call
 * @sk: the socket
 * @address: the address given to bind(), in kernel memory
 * @addrlen: its length
 * @req: receives the bind request: the local address and port asked for
 *
 * Port 0 ("kernel, choose") is a request with port 0 (LANGUAGE.md,
 * section 8).
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a socket that is not
 * inet; or the errno the protocol's bind would give for @address.
 */
int pfsel_classify_bind(const struct sock *sk,
			const struct sockaddr *address, int addrlen,
			struct pfsel_request *req)
{
	enum pfsel_kind kind;
	int family, err;

	*req = (struct pfsel_request){};
	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	/*
	 * Should IPV6_ADDRFORM turn the socket IPv4 meanwhile, its bind
	 * would take AF_INET and AF_UNSPEC: parse_bind6() refuses both.
	 */
	if (family == AF_INET)
		err = parse_bind4(kind, address, addrlen, req);
	else
		err = parse_bind6(kind, address, addrlen, req);
	if (err)
		return err;
	return finish(sk, family, PFSEL_OP_BIND, proto_of(kind), req);
}

/*
 * The destination of a connect() on an IPv6 socket.  TCP's
 * tcp_v6_connect() wants SIN6_LEN_RFC2133 bytes and AF_INET6; raw and ping
 * sockets, by ip6_datagram_connect_v6_only(), want AF_INET6 first and the
 * length next.  UDP's __ip6_datagram_connect() takes AF_INET too, as
 * __ip4_datagram_connect() takes it, unless the socket is IPv6-only.  An
 * IPv4-mapped destination is reached over IPv4 (family inet), which an
 * IPv6-only socket refuses with -ENETUNREACH (tcp_v6_connect(),
 * __ip6_datagram_connect()).
 */
static int parse_connect6(const struct sock *sk, enum pfsel_kind kind,
			  const struct sockaddr *address, int addrlen,
			  struct pfsel_request *req)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)address;

	switch (kind) {
	case PFSEL_KIND_UDP:
		if (address->sa_family == AF_INET) {
			if (ipv6_only_sock(sk))
				return -EAFNOSUPPORT;
			return want_in(address, addrlen, req);
		}
		fallthrough;
	case PFSEL_KIND_TCP:
		if (too_short(addrlen, SIN6_LEN_RFC2133))
			return -EINVAL;
		if (address->sa_family != AF_INET6)
			return -EAFNOSUPPORT;
		break;
	default:
		if (address->sa_family != AF_INET6)
			return -EAFNOSUPPORT;
		if (too_short(addrlen, SIN6_LEN_RFC2133))
			return -EINVAL;
		break;
	}
	if (ipv6_addr_v4mapped(&sin6->sin6_addr) && ipv6_only_sock(sk))
		return -ENETUNREACH;
	return take_in6(address, req);
}

/*
 * connect(), and a TCP Fast Open send, which tcp_sendmsg_fastopen() makes
 * a connect through __inet_stream_connect().  Both inet_stream_connect()
 * and inet_dgram_connect() want the family field, then take AF_UNSPEC to
 * dissolve the association: no peer is reached, so it is no request
 * (sctp_inet_connect() refuses it outright).  An IPv4 socket then wants a
 * sockaddr_in of AF_INET: tcp_v4_connect() and __ip4_datagram_connect()
 * (UDP, raw, ping) alike.
 *
 * IPV6_ADDRFORM turning the socket IPv4 meanwhile: only AF_INET reaches
 * the network then, which an IPv6 socket decides here (UDP) or refuses.
 */
static __always_inline int
parse_connect(const struct sock *sk, int family, enum pfsel_kind kind,
	      const struct sockaddr *address, int addrlen,
	      struct pfsel_request *req)
{
	if (too_short(addrlen, offsetofend(struct sockaddr, sa_family)))
		return -EINVAL;
	if (address->sa_family == AF_UNSPEC)
		return PFSEL_NOT_REQUEST;
	if (kind == PFSEL_KIND_OTHER)
		return parse_other(family, address, addrlen, req);
	if (family == AF_INET)
		return want_in(address, addrlen, req);
	return parse_connect6(sk, kind, address, addrlen, req);
}

/**
 * pfsel_classify_connect - The request of a connect() call
 * @sk: the socket
 * @address: the address given to connect(), in kernel memory
 * @addrlen: its length
 * @req: receives the connect request: the remote address and port
 *
 * Connecting to 0.0.0.0, :: or ::ffff:0.0.0.0 reaches the local host:
 * the request carries the loopback address it reaches.
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a socket that is not
 * inet, or for AF_UNSPEC, which dissolves an association; or the errno
 * the protocol's connect would give for @address.
 */
int pfsel_classify_connect(const struct sock *sk,
			   const struct sockaddr *address, int addrlen,
			   struct pfsel_request *req)
{
	enum pfsel_kind kind;
	int family, err;

	*req = (struct pfsel_request){};
	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	err = parse_connect(sk, family, kind, address, addrlen, req);
	if (err)
		return err;
	return finish(sk, family, PFSEL_OP_CONNECT, proto_of(kind), req);
}

/**
 * pfsel_classify_send_connects - Whether a send's address reaches a peer
 * @sk: the socket
 * @msg_flags: the flags of the send (msghdr.msg_flags)
 *
 * TCP and MPTCP ignore the address of a send (tcp_sendmsg_locked(),
 * mptcp_sendmsg()) except in a Fast Open send (MSG_FASTOPEN), which
 * connects to it.  The send after a connect() with TCP_FASTOPEN_CONNECT
 * opens the connection connect() asked for, and the address given to it
 * is ignored (__inet_stream_connect() finds the socket connecting).
 * Every other protocol sends to the address it is given.
 *
 * Return: true when a send with an address on @sk is a connect request.
 */
bool pfsel_classify_send_connects(const struct sock *sk,
				  unsigned int msg_flags)
{
	enum pfsel_kind kind;
	int family;

	if (!inet_kind(sk, &family, &kind))
		return false;
	return kind != PFSEL_KIND_TCP || (msg_flags & MSG_FASTOPEN);
}

/*
 * The destination of a send on an IPv4 socket.  udp_sendmsg() wants 16
 * bytes and takes AF_UNSPEC as AF_INET; raw_sendmsg() takes a family of 0
 * as AF_INET; ping_v4_sendmsg() wants AF_INET.  A UDP destination port of
 * 0 is a request with port 0: udp_sendmsg() then refuses it, except on a
 * corked socket, where the address is ignored.
 */
static int parse_send4(enum pfsel_kind kind, const struct sockaddr *address,
		       int addrlen, struct pfsel_request *req)
{
	if (too_short(addrlen, sizeof(struct sockaddr_in)))
		return -EINVAL;
	if (address->sa_family != AF_INET &&
	    (kind == PFSEL_KIND_PING || address->sa_family != AF_UNSPEC))
		return -EAFNOSUPPORT;
	return take_in(address, req);
}

/*
 * The destination of a send on an IPv6 socket.
 *
 * udpv6_sendmsg() wants the family field; AF_INET6 wants SIN6_LEN_RFC2133
 * bytes, and an IPv4-mapped destination goes to udp_sendmsg(), or fails
 * with -ENETUNREACH on an IPv6-only socket; AF_INET goes to udp_sendmsg()
 * as it is (the same -ENETUNREACH first); AF_UNSPEC means no address, the
 * connected peer; any other family is -EINVAL.  But IPV6_ADDRFORM may turn
 * the socket IPv4 before udpv6_sendmsg() runs, and udp_sendmsg() reads
 * AF_UNSPEC as an IPv4 address: so an AF_UNSPEC address that would reach
 * a peer as IPv4 (16 bytes, a port other than 0, which udp_sendmsg()
 * refuses) is decided as that IPv4 address.
 *
 * rawv6_sendmsg() takes a family of 0 as AF_INET6; ping_v6_sendmsg()
 * wants a whole sockaddr_in6.
 */
static int parse_send6(const struct sock *sk, enum pfsel_kind kind,
		       const struct sockaddr *address, int addrlen,
		       struct pfsel_request *req)
{
	const struct sockaddr_in *sin = (const struct sockaddr_in *)address;
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)address;

	switch (kind) {
	case PFSEL_KIND_UDP:
		if (too_short(addrlen, offsetofend(struct sockaddr, sa_family)))
			return -EINVAL;
		switch (address->sa_family) {
		case AF_INET6:
			if (too_short(addrlen, SIN6_LEN_RFC2133))
				return -EINVAL;
			if (ipv6_addr_v4mapped(&sin6->sin6_addr) &&
			    ipv6_only_sock(sk))
				return -ENETUNREACH;
			return take_in6(address, req);
		case AF_INET:
			if (ipv6_only_sock(sk))
				return -ENETUNREACH;
			return want_in(address, addrlen, req);
		case AF_UNSPEC:
			if (too_short(addrlen, sizeof(struct sockaddr_in)) ||
			    !sin->sin_port)
				return PFSEL_NOT_REQUEST;
			return take_in(address, req);
		}
		return -EINVAL;
	case PFSEL_KIND_RAW:
		if (too_short(addrlen, SIN6_LEN_RFC2133))
			return -EINVAL;
		if (address->sa_family != AF_UNSPEC &&
		    address->sa_family != AF_INET6)
			return -EAFNOSUPPORT;
		return take_in6(address, req);
	default:	/* PFSEL_KIND_PING */
		if (too_short(addrlen, sizeof(struct sockaddr_in6)))
			return -EINVAL;
		if (address->sa_family != AF_INET6)
			return -EAFNOSUPPORT;
		return take_in6(address, req);
	}
}

/**
 * pfsel_classify_sendmsg - The request of a send that names a destination
 * @sk: the socket
 * @msg: the message, as the socket_sendmsg hook sees it (msg_name in
 *	 kernel memory, msg_flags set)
 * @req: receives the connect request: the destination address and port;
 *	 cleared first, whatever the return
 *
 * A send with no address goes to the connected peer, which connect()
 * decided.  So does one with an address of length 0: raw_sendmsg() reads
 * that as no address, and the other protocols refuse it.  TCP and MPTCP
 * look at the address only in a Fast Open send, parsed as connect()
 * parses it (see pfsel_classify_send_connects()).  Other sends are parsed
 * as their protocol's sendmsg parses them; a corked UDP socket ignores the
 * address of a send that appends to the pending datagram, which is
 * decided here all the same.
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a socket that is not
 * inet or a send that names no new peer; or the errno the protocol's
 * sendmsg would give for the address.
 */
int pfsel_classify_sendmsg(const struct sock *sk, const struct msghdr *msg,
			   struct pfsel_request *req)
{
	const struct sockaddr *address = msg->msg_name;
	int addrlen = msg->msg_namelen;
	enum pfsel_kind kind;
	int family, err;

	*req = (struct pfsel_request){};
	if (!address || addrlen <= 0)
		return PFSEL_NOT_REQUEST;
	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	switch (kind) {
	case PFSEL_KIND_TCP:
		if (!(msg->msg_flags & MSG_FASTOPEN))
			return PFSEL_NOT_REQUEST;
		/*
		 * tcp_sendmsg_fastopen() refuses AF_UNSPEC with -EOPNOTSUPP
		 * itself: no peer either way.
		 */
		err = parse_connect(sk, family, kind, address, addrlen,
				    req);
		break;
	case PFSEL_KIND_OTHER:
		err = parse_other(family, address, addrlen, req);
		break;
	default:
		if (family == AF_INET)
			err = parse_send4(kind, address, addrlen, req);
		else
			err = parse_send6(sk, kind, address, addrlen, req);
		break;
	}
	if (err)
		return err;
	return finish(sk, family, PFSEL_OP_CONNECT, proto_of(kind), req);
}

/**
 * pfsel_classify_hdrincl_len - How much of a raw send is its own IP header
 * @sk: the socket
 *
 * A raw socket with IP_HDRINCL (every IPPROTO_RAW socket has it) or
 * IPV6_HDRINCL sends the header the process wrote: raw_send_hdrinc() and
 * rawv6_send_hdrinc() route by the address given, but the packet goes to
 * the destination in that header.  The hook reads this many bytes of the
 * message and hands them to pfsel_classify_hdrincl().
 *
 * Return: the size of the IPv4 or IPv6 header, or 0 when the socket does
 * not send its own header.
 */
size_t pfsel_classify_hdrincl_len(const struct sock *sk)
{
	int family = READ_ONCE(sk->sk_family);

	if ((family != AF_INET && family != AF_INET6) ||
	    sk->sk_type != SOCK_RAW || !inet_test_bit(HDRINCL, sk))
		return 0;
	return family == AF_INET ? sizeof(struct iphdr) :
				   sizeof(struct ipv6hdr);
}

/**
 * pfsel_classify_hdrincl - The request of a header-included raw send
 * @sk: the socket
 * @hdr: the first pfsel_classify_hdrincl_len() bytes of the message
 * @len: how many of them the message has
 * @req: receives the connect request: the header's destination
 *
 * Return: 0 for a request; -EINVAL when the message is shorter than the
 * header, which names no destination to decide (fails closed).
 */
int pfsel_classify_hdrincl(const struct sock *sk, const u8 *hdr, size_t len,
			   struct pfsel_request *req)
{
	int family = READ_ONCE(sk->sk_family);

	*req = (struct pfsel_request){};
	if (family == AF_INET) {
		const struct iphdr *iph = (const struct iphdr *)hdr;

		if (len < sizeof(*iph))
			return -EINVAL;
		set_v4(req->addr, iph->daddr);
	} else {
		const struct ipv6hdr *ip6h = (const struct ipv6hdr *)hdr;

		if (len < sizeof(*ip6h))
			return -EINVAL;
		memcpy(req->addr, &ip6h->daddr, sizeof(req->addr));
	}
	return finish(sk, family, PFSEL_OP_CONNECT, PFSEL_PROTO_RAW, req);
}

/**
 * pfsel_classify_route_option - Whether a socket option routes packets
 * @level: the option's level
 * @optname: the option
 *
 * An IPv6 routing header (IPV6_RTHDR, its RFC 2292 form, and the RFC 2292
 * IPV6_PKTOPTIONS that may carry one) sends the packet to its first hop
 * first, and a type 4 (segment routing) header needs no privilege; IPv4
 * options (IP_OPTIONS) may hold a loose or strict source route.  Either
 * sends a packet somewhere other than the address a connect or send
 * names (LANGUAGE.md, section 7).
 *
 * Return: PFSEL_REFUSED_ROUTING_HEADER or PFSEL_REFUSED_IP_OPTIONS for an
 * option that may set a source route, PFSEL_NOT_REFUSED for any other.
 */
enum pfsel_refusal pfsel_classify_route_option(int level, int optname)
{
	if (level == SOL_IP && optname == IP_OPTIONS)
		return PFSEL_REFUSED_IP_OPTIONS;
	if (level == SOL_IPV6 &&
	    (optname == IPV6_RTHDR || optname == IPV6_2292RTHDR ||
	     optname == IPV6_2292PKTOPTIONS))
		return PFSEL_REFUSED_ROUTING_HEADER;
	return PFSEL_NOT_REFUSED;
}

/**
 * pfsel_classify_route_cmsg - Whether a send's control messages route it
 * @msg: the message, as the socket_sendmsg hook sees it
 *
 * The per-message forms of pfsel_classify_route_option(): IPV6_RTHDR and
 * IPV6_2292RTHDR, and IP_RETOPTS (IPv4 options).  ____sys_sendmsg() copies
 * the control messages into the kernel before the hook; should a caller
 * ever pass them in user memory, they cannot be read here, and count as
 * routing (fails closed).
 *
 * Return: PFSEL_REFUSED_ROUTING_HEADER or PFSEL_REFUSED_IP_OPTIONS for the
 * first control message that may set a source route,
 * PFSEL_REFUSED_UNREAD_CONTROL for control messages in user memory,
 * PFSEL_NOT_REFUSED otherwise.
 */
enum pfsel_refusal pfsel_classify_route_cmsg(const struct msghdr *msg)
{
	struct msghdr m = *msg;
	struct cmsghdr *cmsg;

	if (!msg->msg_controllen)
		return PFSEL_NOT_REFUSED;
	if (msg->msg_control_is_user)
		return PFSEL_REFUSED_UNREAD_CONTROL;
	for_each_cmsghdr(cmsg, &m) {
		if (!CMSG_OK(&m, cmsg))
			break;
		if (cmsg->cmsg_level == SOL_IPV6 &&
		    (cmsg->cmsg_type == IPV6_RTHDR ||
		     cmsg->cmsg_type == IPV6_2292RTHDR))
			return PFSEL_REFUSED_ROUTING_HEADER;
		if (cmsg->cmsg_level == SOL_IP && cmsg->cmsg_type == IP_RETOPTS)
			return PFSEL_REFUSED_IP_OPTIONS;
	}
	return PFSEL_NOT_REFUSED;
}

/*
 * The peer a socket has, into @addr: the address connect() gave it, or its
 * connection's; false when it has none (all zero).
 */
static bool peer_end(const struct sock *sk, int family, u8 addr[16])
{
	if (family == AF_INET) {
		const __be32 daddr = READ_ONCE(sk->sk_daddr);

		set_v4(addr, daddr);
		return daddr != 0;
	}
#if IS_ENABLED(CONFIG_IPV6)
	memcpy(addr, &sk->sk_v6_daddr, 16);
	return !ipv6_addr_any(&sk->sk_v6_daddr);
#else
	return false;
#endif
}

/**
 * pfsel_classify_ends - A socket's ends, for the record of a refusal
 * @sk: the socket
 * @req: receives the socket's protocol and local end; and, when it has a
 *	 peer (connect(), or a connection under way), a connect request to
 *	 that peer, else a bind request of its local end
 *
 * A refusal that no rule decides is no request, but its audit record
 * names the socket it was made on as a decision's record does.  Nothing
 * is locked: a concurrent connect() may be seen half done, which audit
 * can live with.
 *
 * Return: 0; PFSEL_NOT_REQUEST for a socket that is not inet.
 */
int pfsel_classify_ends(const struct sock *sk, struct pfsel_request *req)
{
	enum pfsel_kind kind;
	int family;

	*req = (struct pfsel_request){};
	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	req->proto = proto_of(kind);
	req->net = sock_net(sk);
	local_end(sk, family, req->proto, req->laddr, &req->lport);
	if (peer_end(sk, family, req->addr)) {
		req->op = PFSEL_OP_CONNECT;
		if (has_ports(req->proto))
			req->port = ntohs(READ_ONCE(sk->sk_dport));
	} else {
		req->op = PFSEL_OP_BIND;
		memcpy(req->addr, req->laddr, sizeof(req->addr));
		req->port = req->lport;
	}
	req->family = family_of(req->addr);
	return 0;
}

/**
 * pfsel_classify_listen - The request of a listen() call
 * @sk: the socket
 * @req: receives the listen request: the bound local address and port
 *
 * An unbound socket listens on the wildcard address with port 0: the hook
 * runs before inet_listen() picks an ephemeral port.  An IPv6 socket bound
 * to an IPv4-mapped address listens on that IPv4 address (family inet).
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a socket that is not
 * inet; -EOPNOTSUPP for a datagram or raw socket, whose listen is
 * sock_no_listen().
 */
int pfsel_classify_listen(const struct sock *sk, struct pfsel_request *req)
{
	enum pfsel_kind kind;
	int family;
	u8 proto;

	*req = (struct pfsel_request){};
	if (!inet_kind(sk, &family, &kind))
		return PFSEL_NOT_REQUEST;
	if (sk->sk_type == SOCK_DGRAM || sk->sk_type == SOCK_RAW)
		return -EOPNOTSUPP;
	proto = proto_of(kind);
	req->op = PFSEL_OP_LISTEN;
	req->net = sock_net(sk);
	req->proto = proto;
	local_end(sk, family, proto, req->laddr, &req->lport);
	memcpy(req->addr, req->laddr, sizeof(req->addr));
	req->port = req->lport;
	req->family = family_of(req->addr);
	return 0;
}

/**
 * pfsel_classify_conn_request - The request of an inbound connection
 * @listener: the listening socket
 * @skb: the connection request (a SYN, or a SYN cookie's ACK), with its
 *	 network and transport headers set
 * @req: receives the accept request: the peer's address and the local
 *	 port the request arrived on
 *
 * An IPv6 listener also receives IPv4 requests: tcp_v6_conn_request() and
 * dccp_v6_conn_request() pass them on by skb->protocol, so the packet's
 * own protocol decides how its addresses are read, not the listener's
 * family.  The destination port is read from the transport header, which
 * TCP and DCCP (the callers of the inet_conn_request hook) begin with the
 * same two ports; it is the port the request arrived on, which may differ
 * from the listener's when a redirection (TPROXY, socket lookup) chose it.
 * Softirq context: nothing here sleeps.
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a listener that is not
 * inet; -EPROTONOSUPPORT for a packet that is neither IPv4 nor IPv6.
 */
int pfsel_classify_conn_request(const struct sock *listener,
				const struct sk_buff *skb,
				struct pfsel_request *req)
{
	const struct tcphdr *th;
	enum pfsel_kind kind;
	int family;
	u8 proto;

	*req = (struct pfsel_request){};
	if (!inet_kind(listener, &family, &kind))
		return PFSEL_NOT_REQUEST;
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		set_v4(req->addr, ip_hdr(skb)->saddr);
		set_v4(req->laddr, ip_hdr(skb)->daddr);
		break;
	case htons(ETH_P_IPV6):
		memcpy(req->addr, &ipv6_hdr(skb)->saddr, sizeof(req->addr));
		memcpy(req->laddr, &ipv6_hdr(skb)->daddr, sizeof(req->laddr));
		break;
	default:
		return -EPROTONOSUPPORT;
	}
	th = tcp_hdr(skb);
	proto = proto_of(kind);
	req->op = PFSEL_OP_ACCEPT;
	req->proto = proto;
	req->family = family_of(req->addr);
	req->net = sock_net(listener);
	if (has_ports(proto)) {
		req->port = ntohs(th->dest);
		req->lport = req->port;
	}
	return 0;
}

/**
 * pfsel_classify_joined_subflow - The request of a subflow joining a connection
 * @ssk: the TCP subflow a peer opened with an MPTCP MP_JOIN
 * @req: receives the accept request: the peer's address, the local port
 *
 * The subflow came in through whatever listener the join's SYN reached, but
 * it carries the data of the connection that its token names: it is an
 * accept by that connection's owner, from the peer that joined, as an
 * inbound connection request is (pfsel_classify_conn_request()).
 *
 * Return: 0 for a request; PFSEL_NOT_REQUEST for a socket that is not inet.
 */
int pfsel_classify_joined_subflow(const struct sock *ssk,
				  struct pfsel_request *req)
{
	int family = READ_ONCE(ssk->sk_family);

	*req = (struct pfsel_request){};
	if (family == AF_INET)
		set_v4(req->addr, ssk->sk_daddr);
#if IS_ENABLED(CONFIG_IPV6)
	else if (family == AF_INET6)
		memcpy(req->addr, &ssk->sk_v6_daddr, sizeof(req->addr));
#endif
	else
		return PFSEL_NOT_REQUEST;
	req->op = PFSEL_OP_ACCEPT;
	req->proto = PFSEL_PROTO_TCP;
	req->family = family_of(req->addr);
	req->net = sock_net(ssk);
	local_end(ssk, family, req->proto, req->laddr, &req->lport);
	req->port = req->lport;
	return 0;
}
