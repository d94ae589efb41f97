// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - KUnit tests of the request classifier (classify.c)
 *
 * The tables below are the kernel's address parsing written out case by
 * case: for each socket family and protocol, each call and each address
 * family, what the protocol would do with the address (use it, ignore it,
 * or refuse it with which errno), and so what the request must be.  Most
 * sockets are fabricated, as the classifier reads only a few fields of
 * them (and ping sockets cannot be created without a ping group range);
 * real kernel sockets check that those fields hold what the fabricated
 * ones assume.
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <net/inet_sock.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "classify.h"
#include "classify_peer.h"
#include "policydb.h"

/* A socket as the classifier sees it. */
struct test_sk {
	int family;
	int type;
	int protocol;
	bool v6only;
};

static const struct test_sk tcp4 = { AF_INET, SOCK_STREAM, IPPROTO_TCP };
static const struct test_sk mptcp4 = { AF_INET, SOCK_STREAM, IPPROTO_MPTCP };
static const struct test_sk udp4 = { AF_INET, SOCK_DGRAM, IPPROTO_UDP };
static const struct test_sk udplite4 = { AF_INET, SOCK_DGRAM,
					 IPPROTO_UDPLITE };
static const struct test_sk ping4 = { AF_INET, SOCK_DGRAM, IPPROTO_ICMP };
static const struct test_sk raw4 = { AF_INET, SOCK_RAW, IPPROTO_ICMP };
static const struct test_sk sctp4 = { AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP };
static const struct test_sk dccp4 = { AF_INET, SOCK_DCCP, IPPROTO_DCCP };
static const struct test_sk tcp6 = { AF_INET6, SOCK_STREAM, IPPROTO_TCP };
static const struct test_sk udp6 = { AF_INET6, SOCK_DGRAM, IPPROTO_UDP };
static const struct test_sk udp6only = { AF_INET6, SOCK_DGRAM, IPPROTO_UDP,
					 true };
static const struct test_sk ping6 = { AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6,
				      true };
static const struct test_sk raw6 = { AF_INET6, SOCK_RAW, IPPROTO_RAW };
static const struct test_sk sctp6 = { AF_INET6, SOCK_STREAM, IPPROTO_SCTP };
static const struct test_sk unix_sk = { AF_UNIX, SOCK_STREAM, 0 };
static const struct test_sk packet_sk = { AF_PACKET, SOCK_RAW, 0 };

static struct sock *fake_sock(struct kunit *test, const struct test_sk *t)
{
	struct inet_sock *inet = kunit_kzalloc(test, sizeof(*inet), GFP_KERNEL);
	struct sock *sk;

	KUNIT_ASSERT_NOT_NULL(test, inet);
	sk = &inet->sk;
	sk->sk_family = t->family;
	sk->sk_type = t->type;
	sk->sk_protocol = t->protocol;
	sk->sk_ipv6only = t->v6only;
	return sk;
}

/* "a.b.c.d" as ::ffff:a.b.c.d, or an IPv6 address. */
static void parse_ip(struct kunit *test, const char *s, u8 out[16])
{
	memset(out, 0, 16);
	if (strchr(s, ':')) {
		KUNIT_ASSERT_EQ(test, in6_pton(s, -1, out, -1, NULL), 1);
		return;
	}
	out[10] = 0xff;
	out[11] = 0xff;
	KUNIT_ASSERT_EQ(test, in4_pton(s, -1, out + 12, -1, NULL), 1);
}

union test_sa {
	struct sockaddr_storage ss;
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/*
 * A sockaddr_in for an IPv4 @ip, a sockaddr_in6 for an IPv6 one, with
 * whatever @sa_family the case says; returns the whole size.
 */
static int build_sa(struct kunit *test, union test_sa *sa, int sa_family,
		    const char *ip, u16 port)
{
	u8 addr[16];

	memset(sa, 0, sizeof(*sa));
	parse_ip(test, ip, addr);
	if (strchr(ip, ':')) {
		memcpy(&sa->in6.sin6_addr, addr, 16);
		sa->in6.sin6_port = htons(port);
		sa->sa.sa_family = sa_family;
		return sizeof(sa->in6);
	}
	memcpy(&sa->in.sin_addr, addr + 12, 4);
	sa->in.sin_port = htons(port);
	sa->sa.sa_family = sa_family;
	return sizeof(sa->in);
}

static void expect_request(struct kunit *test, const char *name,
			   const struct pfsel_request *req, u8 op, u8 proto,
			   const char *want, u16 want_port)
{
	u8 addr[16];

	parse_ip(test, want, addr);
	KUNIT_EXPECT_EQ_MSG(test, req->op, op, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, req->proto, proto, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, req->family,
			    !strchr(want, ':') || !strncmp(want, "::ffff:", 7) ?
			    PFSEL_FAMILY_INET : PFSEL_FAMILY_INET6, "%s", name);
	KUNIT_EXPECT_MEMEQ_MSG(test, req->addr, addr, 16, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, req->port, want_port, "%s", name);
}

/* ---- create ---- */

struct create_case {
	int family;
	int type;
	int protocol;
	int ret;
	u8 proto;
	u8 family_out;
};

static const struct create_case create_cases[] = {
	{ AF_INET, SOCK_STREAM, 0, 0, PFSEL_PROTO_TCP, PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_STREAM, IPPROTO_TCP, 0, PFSEL_PROTO_TCP,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_STREAM, IPPROTO_MPTCP, 0, PFSEL_PROTO_TCP,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_STREAM, IPPROTO_SCTP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_STREAM, IPPROTO_SMC, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, 0, 0, PFSEL_PROTO_UDP, PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, IPPROTO_UDP, 0, PFSEL_PROTO_UDP,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, IPPROTO_UDPLITE, 0, PFSEL_PROTO_UDP,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, IPPROTO_ICMP, 0, PFSEL_PROTO_ICMP,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, IPPROTO_ICMPV6, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DGRAM, IPPROTO_L2TP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_RAW, 0, 0, PFSEL_PROTO_RAW, PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_RAW, IPPROTO_ICMP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_RAW, IPPROTO_TCP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_RAW, IPPROTO_UDP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_RAW, IPPROTO_RAW, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_SEQPACKET, IPPROTO_SCTP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_DCCP, IPPROTO_DCCP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_INET, SOCK_STREAM, -1, -EINVAL },
	{ AF_INET, SOCK_STREAM, IPPROTO_MAX, -EINVAL },
	{ AF_INET6, SOCK_STREAM, 0, 0, PFSEL_PROTO_TCP, PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_STREAM, IPPROTO_TCP, 0, PFSEL_PROTO_TCP,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_STREAM, IPPROTO_MPTCP, 0, PFSEL_PROTO_TCP,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_STREAM, IPPROTO_SCTP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, 0, 0, PFSEL_PROTO_UDP, PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, IPPROTO_UDP, 0, PFSEL_PROTO_UDP,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, IPPROTO_UDPLITE, 0, PFSEL_PROTO_UDP,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6, 0, PFSEL_PROTO_ICMP,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, IPPROTO_ICMP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_RAW, 0, 0, PFSEL_PROTO_RAW, PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_RAW, IPPROTO_ICMPV6, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_RAW, IPPROTO_RAW, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_SEQPACKET, IPPROTO_SCTP, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, 256, 0, PFSEL_PROTO_RAW, PFSEL_FAMILY_INET6 },
	{ AF_INET6, SOCK_DGRAM, IPPROTO_MAX, -EINVAL },
	{ AF_PACKET, SOCK_RAW, 0, 0, PFSEL_PROTO_PACKET, PFSEL_FAMILY_NONE },
	{ AF_PACKET, SOCK_DGRAM, 0x0300, 0, PFSEL_PROTO_PACKET,
	  PFSEL_FAMILY_NONE },
	{ AF_PACKET, SOCK_PACKET, 0, 0, PFSEL_PROTO_PACKET,
	  PFSEL_FAMILY_NONE },
	{ AF_INET, SOCK_PACKET, 0, 0, PFSEL_PROTO_PACKET, PFSEL_FAMILY_NONE },
	/* Frames of the program's making on a link: packet too. */
	{ AF_XDP, SOCK_RAW, 0, 0, PFSEL_PROTO_PACKET, PFSEL_FAMILY_NONE },
	{ AF_PPPOX, SOCK_STREAM, 0, 0, PFSEL_PROTO_PACKET, PFSEL_FAMILY_NONE },
	{ AF_PPPOX, SOCK_DGRAM, 1, 0, PFSEL_PROTO_PACKET, PFSEL_FAMILY_NONE },
	/* SMC over an inet socket is an inet protocol: raw. */
	{ AF_INET, SOCK_STREAM, IPPROTO_SMC, 0, PFSEL_PROTO_RAW,
	  PFSEL_FAMILY_INET },
	{ AF_SMC, SOCK_STREAM, 0, PFSEL_NOT_REQUEST },
	{ AF_VSOCK, SOCK_STREAM, 0, PFSEL_NOT_REQUEST },
	{ AF_KCM, SOCK_DGRAM, 0, PFSEL_NOT_REQUEST },
	{ AF_UNIX, SOCK_STREAM, 0, PFSEL_NOT_REQUEST },
	{ AF_UNIX, SOCK_DGRAM, 0, PFSEL_NOT_REQUEST },
	{ AF_NETLINK, SOCK_RAW, 0, PFSEL_NOT_REQUEST },
	{ AF_UNSPEC, SOCK_STREAM, 0, PFSEL_NOT_REQUEST },
	{ AF_INET6 + 1, SOCK_STREAM, 0, PFSEL_NOT_REQUEST },
};

static void create_case_desc(const struct create_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "socket(%d, %d, %d)", c->family,
		 c->type, c->protocol);
}

KUNIT_ARRAY_PARAM(create, create_cases, create_case_desc);

/* Each socket(), with and without SOCK_NONBLOCK | SOCK_CLOEXEC. */
static void classify_test_create(struct kunit *test)
{
	const struct create_case *c = test->param_value;
	static const int flags[] = { 0, SOCK_NONBLOCK, SOCK_CLOEXEC,
				     SOCK_NONBLOCK | SOCK_CLOEXEC };
	struct pfsel_request req;
	u8 addr[16] = {};
	int i;

	if (c->family_out != PFSEL_FAMILY_NONE)
		pfsel_policydb_family_addr(c->family_out, addr);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		memset(&req, 0x5a, sizeof(req));
		KUNIT_EXPECT_EQ(test,
				pfsel_classify_create(c->family,
						      c->type | flags[i],
						      c->protocol, &req),
				c->ret);
		if (c->ret)
			continue;
		KUNIT_EXPECT_EQ(test, req.op, PFSEL_OP_CREATE);
		KUNIT_EXPECT_EQ(test, req.proto, c->proto);
		KUNIT_EXPECT_EQ(test, req.family, c->family_out);
		KUNIT_EXPECT_MEMEQ(test, req.addr, addr, 16);
		KUNIT_EXPECT_EQ(test, req.port, 0);
		KUNIT_EXPECT_EQ(test, req.lport, 0);
	}
}

/* ---- bind, connect, send ---- */

enum test_call { BIND, CONNECT, SEND };

struct addr_case {
	const char *name;
	enum test_call call;
	const struct test_sk *sk;
	int sa_family;		/* the family field of the address */
	const char *ip;		/* its address; its layout: in or in6 */
	u16 port;
	int len;		/* 0: the whole sockaddr_in or sockaddr_in6 */
	unsigned int flags;	/* msg_flags of a send */
	int ret;
	const char *want;	/* the request's address, if a request */
	u16 want_port;
};

#define NR PFSEL_NOT_REQUEST
#define FO MSG_FASTOPEN

static const struct addr_case addr_cases[] = {
	/* bind, IPv4: inet_bind_sk(), __inet_bind(), ping, raw_bind(). */
	{ "tcp4 bind", BIND, &tcp4, AF_INET, "10.0.0.1", 80, 0, 0, 0,
	  "10.0.0.1", 80 },
	{ "tcp4 bind port 0", BIND, &tcp4, AF_INET, "0.0.0.0", 0, 0, 0, 0,
	  "0.0.0.0", 0 },
	{ "tcp4 bind unspec any", BIND, &tcp4, AF_UNSPEC, "0.0.0.0", 80, 0, 0,
	  0, "0.0.0.0", 80 },
	{ "tcp4 bind unspec addr", BIND, &tcp4, AF_UNSPEC, "10.0.0.1", 80, 0,
	  0, -EAFNOSUPPORT },
	{ "tcp4 bind inet6", BIND, &tcp4, AF_INET6, "2001:db8::1", 80, 0, 0,
	  -EAFNOSUPPORT },
	{ "tcp4 bind short", BIND, &tcp4, AF_INET, "10.0.0.1", 80, 15, 0,
	  -EINVAL },
	{ "tcp4 bind family only", BIND, &tcp4, AF_INET, "10.0.0.1", 80, 2, 0,
	  -EINVAL },
	{ "mptcp4 bind", BIND, &mptcp4, AF_INET, "10.0.0.1", 80, 0, 0, 0,
	  "10.0.0.1", 80 },
	{ "udp4 bind", BIND, &udp4, AF_INET, "127.0.0.1", 53, 0, 0, 0,
	  "127.0.0.1", 53 },
	{ "udp4 bind unix", BIND, &udp4, AF_UNIX, "127.0.0.1", 53, 0, 0,
	  -EAFNOSUPPORT },
	{ "ping4 bind", BIND, &ping4, AF_INET, "10.1.1.1", 7, 0, 0, 0,
	  "10.1.1.1", 0 },
	{ "ping4 bind unspec any", BIND, &ping4, AF_UNSPEC, "0.0.0.0", 7, 0, 0,
	  0, "0.0.0.0", 0 },
	{ "ping4 bind unspec addr", BIND, &ping4, AF_UNSPEC, "10.1.1.1", 7, 0,
	  0, -EAFNOSUPPORT },
	{ "raw4 bind", BIND, &raw4, AF_INET, "10.2.3.4", 0, 0, 0, 0,
	  "10.2.3.4", 0 },
	{ "raw4 bind any family", BIND, &raw4, AF_INET6, "10.2.3.4", 9, 0, 0,
	  0, "10.2.3.4", 0 },
	{ "raw4 bind unspec", BIND, &raw4, AF_UNSPEC, "10.2.3.4", 0, 0, 0, 0,
	  "10.2.3.4", 0 },
	{ "raw4 bind short", BIND, &raw4, AF_INET, "10.2.3.4", 0, 15, 0,
	  -EINVAL },
	{ "sctp4 bind inet6", BIND, &sctp4, AF_INET6, "2001:db8::5", 9, 0, 0,
	  0, "2001:db8::5", 0 },
	{ "sctp4 bind unspec", BIND, &sctp4, AF_UNSPEC, "10.0.0.5", 9, 0, 0, 0,
	  "10.0.0.5", 0 },
	{ "sctp4 bind unix", BIND, &sctp4, AF_UNIX, "10.0.0.5", 9, 0, 0,
	  -EAFNOSUPPORT },
	{ "sctp4 bind short", BIND, &sctp4, AF_INET, "10.0.0.5", 9, 1, 0,
	  -EINVAL },
	/* bind, IPv6: inet6_bind_sk(), rawv6_bind(), ping. */
	{ "tcp6 bind", BIND, &tcp6, AF_INET6, "2001:db8::1", 443, 0, 0, 0,
	  "2001:db8::1", 443 },
	{ "tcp6 bind any", BIND, &tcp6, AF_INET6, "::", 0, 0, 0, 0, "::", 0 },
	{ "tcp6 bind mapped", BIND, &tcp6, AF_INET6, "::ffff:10.0.0.1", 80, 0,
	  0, 0, "10.0.0.1", 80 },
	{ "tcp6 bind rfc2133", BIND, &tcp6, AF_INET6, "2001:db8::1", 80, 24, 0,
	  0, "2001:db8::1", 80 },
	{ "tcp6 bind short", BIND, &tcp6, AF_INET6, "2001:db8::1", 80, 23, 0,
	  -EINVAL },
	{ "tcp6 bind inet", BIND, &tcp6, AF_INET, "10.0.0.1", 80, 0, 0,
	  -EINVAL },
	{ "tcp6 bind inet long", BIND, &tcp6, AF_INET, "::ffff:10.0.0.1", 80,
	  0, 0, -EAFNOSUPPORT },
	{ "tcp6 bind unspec", BIND, &tcp6, AF_UNSPEC, "::", 80, 0, 0,
	  -EAFNOSUPPORT },
	{ "udp6 bind", BIND, &udp6, AF_INET6, "fe80::1", 5353, 0, 0, 0,
	  "fe80::1", 5353 },
	{ "raw6 bind", BIND, &raw6, AF_INET6, "2001:db8::2", 0, 0, 0, 0,
	  "2001:db8::2", 0 },
	{ "raw6 bind inet", BIND, &raw6, AF_INET, "2001:db8::2", 0, 0, 0,
	  -EINVAL },
	{ "raw6 bind mapped", BIND, &raw6, AF_INET6, "::ffff:10.0.0.1", 0, 0,
	  0, -EADDRNOTAVAIL },
	{ "ping6 bind", BIND, &ping6, AF_INET6, "2001:db8::3", 0, 0, 0, 0,
	  "2001:db8::3", 0 },
	{ "ping6 bind rfc2133", BIND, &ping6, AF_INET6, "2001:db8::3", 0, 24,
	  0, -EINVAL },
	{ "ping6 bind inet", BIND, &ping6, AF_INET, "::", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "sctp6 bind inet", BIND, &sctp6, AF_INET, "10.0.0.6", 9, 0, 0, 0,
	  "10.0.0.6", 0 },
	{ "sctp6 bind unspec", BIND, &sctp6, AF_UNSPEC, "2001:db8::6", 9, 0, 0,
	  0, "2001:db8::6", 0 },
	{ "sctp6 bind unspec short", BIND, &sctp6, AF_UNSPEC, "10.0.0.6", 9, 0,
	  0, -EINVAL },
	/* connect, IPv4: inet_{stream,dgram}_connect(), *_v4_connect(). */
	{ "tcp4 connect", CONNECT, &tcp4, AF_INET, "93.184.216.34", 443, 0, 0,
	  0, "93.184.216.34", 443 },
	{ "tcp4 connect port 0", CONNECT, &tcp4, AF_INET, "10.0.0.1", 0, 0, 0,
	  0, "10.0.0.1", 0 },
	{ "tcp4 connect unspec", CONNECT, &tcp4, AF_UNSPEC, "10.0.0.1", 80, 0,
	  0, NR },
	{ "tcp4 connect unspec 2", CONNECT, &tcp4, AF_UNSPEC, "10.0.0.1", 80,
	  2, 0, NR },
	{ "tcp4 connect 1 byte", CONNECT, &tcp4, AF_UNSPEC, "10.0.0.1", 80, 1,
	  0, -EINVAL },
	{ "tcp4 connect short", CONNECT, &tcp4, AF_INET, "10.0.0.1", 80, 15, 0,
	  -EINVAL },
	{ "tcp4 connect inet6", CONNECT, &tcp4, AF_INET6, "2001:db8::1", 80, 0,
	  0, -EAFNOSUPPORT },
	{ "udp4 connect", CONNECT, &udp4, AF_INET, "192.0.2.1", 53, 0, 0, 0,
	  "192.0.2.1", 53 },
	{ "udp4 connect unspec", CONNECT, &udp4, AF_UNSPEC, "192.0.2.1", 53, 0,
	  0, NR },
	{ "udplite4 connect", CONNECT, &udplite4, AF_INET, "192.0.2.1", 53, 0,
	  0, 0, "192.0.2.1", 53 },
	{ "raw4 connect", CONNECT, &raw4, AF_INET, "192.0.2.2", 7, 0, 0, 0,
	  "192.0.2.2", 0 },
	{ "raw4 connect unspec", CONNECT, &raw4, AF_UNSPEC, "192.0.2.2", 7, 0,
	  0, NR },
	{ "ping4 connect", CONNECT, &ping4, AF_INET, "192.0.2.3", 7, 0, 0, 0,
	  "192.0.2.3", 0 },
	{ "ping4 connect inet6", CONNECT, &ping4, AF_INET6, "2001:db8::1", 7,
	  0, 0, -EAFNOSUPPORT },
	{ "sctp4 connect unspec", CONNECT, &sctp4, AF_UNSPEC, "10.0.0.1", 9, 0,
	  0, NR },
	{ "sctp4 connect inet6", CONNECT, &sctp4, AF_INET6, "2001:db8::9", 9,
	  0, 0, 0, "2001:db8::9", 0 },
	/* connect, IPv6: tcp_v6_connect(), __ip6_datagram_connect(). */
	{ "tcp6 connect", CONNECT, &tcp6, AF_INET6, "2001:db8::1", 80, 0, 0, 0,
	  "2001:db8::1", 80 },
	{ "tcp6 connect mapped", CONNECT, &tcp6, AF_INET6, "::ffff:192.0.2.1",
	  80, 0, 0, 0, "192.0.2.1", 80 },
	/* The unspecified address reaches loopback, and is judged so. */
	{ "tcp6 connect any", CONNECT, &tcp6, AF_INET6, "::", 80, 0, 0, 0,
	  "::1", 80 },
	{ "tcp6 connect mapped any", CONNECT, &tcp6, AF_INET6,
	  "::ffff:0.0.0.0", 80, 0, 0, 0, "127.0.0.1", 80 },
	{ "tcp4 connect any", CONNECT, &tcp4, AF_INET, "0.0.0.0", 80, 0, 0, 0,
	  "127.0.0.1", 80 },
	{ "udp4 send any", SEND, &udp4, AF_INET, "0.0.0.0", 53, 0, 0, 0,
	  "127.0.0.1", 53 },
	{ "tcp4 connect 0.0.0.1", CONNECT, &tcp4, AF_INET, "0.0.0.1", 80, 0, 0,
	  0, "0.0.0.1", 80 },
	{ "tcp6 connect inet", CONNECT, &tcp6, AF_INET, "192.0.2.1", 80, 0, 0,
	  -EINVAL },
	{ "tcp6 connect inet long", CONNECT, &tcp6, AF_INET, "2001:db8::1", 80,
	  0, 0, -EAFNOSUPPORT },
	{ "tcp6 connect unspec", CONNECT, &tcp6, AF_UNSPEC, "::", 80, 0, 0,
	  NR },
	{ "tcp6 connect short", CONNECT, &tcp6, AF_INET6, "2001:db8::1", 80,
	  23, 0, -EINVAL },
	{ "udp6 connect", CONNECT, &udp6, AF_INET6, "2001:db8::53", 53, 0, 0,
	  0, "2001:db8::53", 53 },
	{ "udp6 connect inet", CONNECT, &udp6, AF_INET, "192.0.2.53", 53, 0, 0,
	  0, "192.0.2.53", 53 },
	{ "udp6 connect inet short", CONNECT, &udp6, AF_INET, "192.0.2.53", 53,
	  15, 0, -EINVAL },
	{ "udp6only connect inet", CONNECT, &udp6only, AF_INET, "192.0.2.53",
	  53, 0, 0, -EAFNOSUPPORT },
	{ "udp6only connect mapped", CONNECT, &udp6only, AF_INET6,
	  "::ffff:192.0.2.53", 53, 0, 0, -ENETUNREACH },
	{ "ping6 connect mapped", CONNECT, &ping6, AF_INET6, "::ffff:192.0.2.1",
	  0, 0, 0, -ENETUNREACH },
	{ "raw6 connect mapped", CONNECT, &raw6, AF_INET6, "::ffff:192.0.2.1",
	  0, 0, 0, 0, "192.0.2.1", 0 },
	{ "udp6 connect short", CONNECT, &udp6, AF_INET6, "2001:db8::53", 53,
	  23, 0, -EINVAL },
	{ "udp6 connect unix", CONNECT, &udp6, AF_UNIX, "2001:db8::53", 53, 0,
	  0, -EAFNOSUPPORT },
	{ "udp6 connect unspec", CONNECT, &udp6, AF_UNSPEC, "2001:db8::53", 53,
	  0, 0, NR },
	{ "raw6 connect inet", CONNECT, &raw6, AF_INET, "192.0.2.1", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "raw6 connect short", CONNECT, &raw6, AF_INET6, "2001:db8::1", 0, 23,
	  0, -EINVAL },
	{ "raw6 connect", CONNECT, &raw6, AF_INET6, "2001:db8::1", 58, 0, 0, 0,
	  "2001:db8::1", 0 },
	{ "ping6 connect", CONNECT, &ping6, AF_INET6, "2001:db8::1", 0, 0, 0,
	  0, "2001:db8::1", 0 },
	{ "ping6 connect inet", CONNECT, &ping6, AF_INET, "192.0.2.1", 0, 0, 0,
	  -EAFNOSUPPORT },
	/* send, IPv4: udp_sendmsg(), raw_sendmsg(), ping_v4_sendmsg(). */
	{ "udp4 send", SEND, &udp4, AF_INET, "8.8.8.8", 53, 0, 0, 0, "8.8.8.8",
	  53 },
	{ "udp4 send unspec", SEND, &udp4, AF_UNSPEC, "8.8.4.4", 53, 0, 0, 0,
	  "8.8.4.4", 53 },
	{ "udp4 send port 0", SEND, &udp4, AF_INET, "8.8.8.8", 0, 0, 0, 0,
	  "8.8.8.8", 0 },
	{ "udp4 send inet6", SEND, &udp4, AF_INET6, "2001:db8::1", 53, 0, 0,
	  -EAFNOSUPPORT },
	{ "udp4 send short", SEND, &udp4, AF_INET, "8.8.8.8", 53, 15, 0,
	  -EINVAL },
	{ "udp4 send 1 byte", SEND, &udp4, AF_INET, "8.8.8.8", 53, 1, 0,
	  -EINVAL },
	{ "raw4 send", SEND, &raw4, AF_INET, "192.0.2.9", 0, 0, 0, 0,
	  "192.0.2.9", 0 },
	{ "raw4 send family 0", SEND, &raw4, AF_UNSPEC, "192.0.2.9", 0, 0, 0,
	  0, "192.0.2.9", 0 },
	{ "raw4 send inet6", SEND, &raw4, AF_INET6, "192.0.2.9", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "raw4 send short", SEND, &raw4, AF_INET, "192.0.2.9", 0, 15, 0,
	  -EINVAL },
	{ "ping4 send", SEND, &ping4, AF_INET, "192.0.2.8", 0, 0, 0, 0,
	  "192.0.2.8", 0 },
	{ "ping4 send unspec", SEND, &ping4, AF_UNSPEC, "192.0.2.8", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "tcp4 send", SEND, &tcp4, AF_INET, "192.0.2.7", 80, 0, 0, NR },
	{ "tcp4 send garbage", SEND, &tcp4, AF_UNIX, "192.0.2.7", 80, 1, 0,
	  NR },
	{ "tcp4 fastopen", SEND, &tcp4, AF_INET, "192.0.2.7", 80, 0, FO, 0,
	  "192.0.2.7", 80 },
	{ "tcp4 fastopen unspec", SEND, &tcp4, AF_UNSPEC, "192.0.2.7", 80, 0,
	  FO, NR },
	{ "tcp4 fastopen short", SEND, &tcp4, AF_INET, "192.0.2.7", 80, 15, FO,
	  -EINVAL },
	{ "mptcp4 send", SEND, &mptcp4, AF_INET, "192.0.2.7", 80, 0, 0, NR },
	{ "mptcp4 fastopen", SEND, &mptcp4, AF_INET, "192.0.2.7", 80, 0, FO, 0,
	  "192.0.2.7", 80 },
	{ "sctp4 send", SEND, &sctp4, AF_INET, "192.0.2.6", 9, 0, 0, 0,
	  "192.0.2.6", 0 },
	{ "sctp4 send unspec", SEND, &sctp4, AF_UNSPEC, "192.0.2.6", 9, 0, 0,
	  0, "192.0.2.6", 0 },
	/* send, IPv6: udpv6_sendmsg(), rawv6_sendmsg(), ping_v6_sendmsg(). */
	{ "udp6 send", SEND, &udp6, AF_INET6, "2001:db8::53", 53, 0, 0, 0,
	  "2001:db8::53", 53 },
	{ "udp6 send rfc2133", SEND, &udp6, AF_INET6, "2001:db8::53", 53, 24,
	  0, 0, "2001:db8::53", 53 },
	{ "udp6 send short", SEND, &udp6, AF_INET6, "2001:db8::53", 53, 23, 0,
	  -EINVAL },
	{ "udp6 send mapped", SEND, &udp6, AF_INET6, "::ffff:192.0.2.53", 53,
	  0, 0, 0, "192.0.2.53", 53 },
	{ "udp6only send mapped", SEND, &udp6only, AF_INET6,
	  "::ffff:192.0.2.53", 53, 0, 0, -ENETUNREACH },
	{ "udp6 send inet", SEND, &udp6, AF_INET, "192.0.2.53", 53, 0, 0, 0,
	  "192.0.2.53", 53 },
	{ "udp6 send inet short", SEND, &udp6, AF_INET, "192.0.2.53", 53, 15,
	  0, -EINVAL },
	{ "udp6only send inet", SEND, &udp6only, AF_INET, "192.0.2.53", 53, 0,
	  0, -ENETUNREACH },
	{ "udp6 send unspec", SEND, &udp6, AF_UNSPEC, "::", 0, 0, 0, NR },
	{ "udp6 send unspec family only", SEND, &udp6, AF_UNSPEC, "10.0.0.1",
	  53, 2, 0, NR },
	{ "udp6 send unspec as inet", SEND, &udp6, AF_UNSPEC, "10.9.9.9", 53,
	  0, 0, 0, "10.9.9.9", 53 },
	{ "udp6 send unix", SEND, &udp6, AF_UNIX, "2001:db8::53", 53, 0, 0,
	  -EINVAL },
	{ "udp6 send 1 byte", SEND, &udp6, AF_INET6, "2001:db8::53", 53, 1, 0,
	  -EINVAL },
	{ "raw6 send", SEND, &raw6, AF_INET6, "2001:db8::9", 0, 0, 0, 0,
	  "2001:db8::9", 0 },
	{ "raw6 send family 0", SEND, &raw6, AF_UNSPEC, "2001:db8::9", 0, 0, 0,
	  0, "2001:db8::9", 0 },
	{ "raw6 send inet", SEND, &raw6, AF_INET, "2001:db8::9", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "raw6 send short", SEND, &raw6, AF_INET6, "2001:db8::9", 0, 23, 0,
	  -EINVAL },
	{ "ping6 send", SEND, &ping6, AF_INET6, "2001:db8::8", 0, 0, 0, 0,
	  "2001:db8::8", 0 },
	{ "ping6 send rfc2133", SEND, &ping6, AF_INET6, "2001:db8::8", 0, 24,
	  0, -EINVAL },
	{ "ping6 send unspec", SEND, &ping6, AF_UNSPEC, "2001:db8::8", 0, 0, 0,
	  -EAFNOSUPPORT },
	{ "tcp6 send", SEND, &tcp6, AF_INET6, "2001:db8::7", 80, 0, 0, NR },
	{ "tcp6 fastopen", SEND, &tcp6, AF_INET6, "2001:db8::7", 80, 0, FO, 0,
	  "2001:db8::7", 80 },
	{ "tcp6 fastopen inet", SEND, &tcp6, AF_INET, "192.0.2.7", 80, 0, FO,
	  -EINVAL },
	{ "sctp6 send inet", SEND, &sctp6, AF_INET, "192.0.2.6", 9, 0, 0, 0,
	  "192.0.2.6", 0 },
	/* Sockets pfsel does not govern. */
	{ "unix bind", BIND, &unix_sk, AF_INET, "10.0.0.1", 80, 0, 0, NR },
	{ "unix connect", CONNECT, &unix_sk, AF_INET, "10.0.0.1", 80, 0, 0,
	  NR },
	{ "unix send", SEND, &unix_sk, AF_INET, "10.0.0.1", 80, 0, 0, NR },
	{ "packet bind", BIND, &packet_sk, AF_PACKET, "10.0.0.1", 0, 0, 0,
	  NR },
	{ "packet send", SEND, &packet_sk, AF_PACKET, "10.0.0.1", 0, 0, 0,
	  NR },
};

static void addr_case_desc(const struct addr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(addr, addr_cases, addr_case_desc);

static void classify_test_addressed(struct kunit *test)
{
	const struct addr_case *c = test->param_value;
	struct sock *sk = fake_sock(test, c->sk);
	struct pfsel_request req;
	union test_sa sa;
	struct msghdr msg = {};
	u8 proto = PFSEL_PROTO_COUNT;
	int len, ret;

	len = build_sa(test, &sa, c->sa_family, c->ip, c->port);
	if (c->len)
		len = c->len;
	memset(&req, 0x5a, sizeof(req));
	switch (c->call) {
	case BIND:
		ret = pfsel_classify_bind(sk, &sa.sa, len, &req);
		break;
	case CONNECT:
		ret = pfsel_classify_connect(sk, &sa.sa, len, &req);
		break;
	default:
		msg.msg_name = &sa;
		msg.msg_namelen = len;
		msg.msg_flags = c->flags;
		ret = pfsel_classify_sendmsg(sk, &msg, &req);
		break;
	}
	KUNIT_ASSERT_EQ_MSG(test, ret, c->ret, "%s", c->name);
	if (ret)
		return;
	KUNIT_ASSERT_EQ(test, pfsel_classify_sock(sk, &proto), 0);
	expect_request(test, c->name, &req,
		       c->call == BIND ? PFSEL_OP_BIND : PFSEL_OP_CONNECT,
		       proto, c->want, c->want_port);
	/* An unbound fabricated socket: no local end yet. */
	KUNIT_EXPECT_EQ(test, req.lport, 0);
}

/*
 * One call through pfsel_classify_peer() and through the whole classifier
 * it stands in for: when the peer classifier takes the call, the whole one
 * must make a request of it (0) with the same operation, protocol,
 * address, port and namespace, the fields of a recent allow's key.
 * Returns whether the peer classifier took it.
 */
static bool peer_as_whole(struct kunit *test, const char *name,
			  struct sock *sk, enum test_call call,
			  union test_sa *sa, int len, unsigned int flags)
{
	struct pfsel_request peer, whole;
	struct msghdr msg = {
		.msg_name = sa,
		.msg_namelen = len,
		.msg_flags = flags,
	};
	int ret;

	memset(&peer, 0x5a, sizeof(peer));
	if (!pfsel_classify_peer(sk, &sa->sa, len, call == SEND, &peer))
		return false;
	if (call == SEND)
		ret = pfsel_classify_sendmsg(sk, &msg, &whole);
	else
		ret = pfsel_classify_connect(sk, &sa->sa, len, &whole);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", name);
	if (ret)
		return true;
	KUNIT_EXPECT_EQ_MSG(test, peer.op, whole.op, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, peer.proto, whole.proto, "%s", name);
	KUNIT_EXPECT_MEMEQ_MSG(test, peer.addr, whole.addr, 16, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, peer.port, whole.port, "%s", name);
	KUNIT_EXPECT_PTR_EQ_MSG(test, peer.net, whole.net, "%s", name);
	return true;
}

/*
 * peer_as_whole() for @call on @sk over every address, family field and
 * length of a list that crosses each edge pfsel_classify_peer() draws.
 */
static void peer_crossed(struct kunit *test, struct sock *sk,
			 enum test_call call, unsigned int flags)
{
	static const char *const ips[] = {
		"0.0.0.0", "127.0.0.1", "10.0.0.1", "255.255.255.255", "::",
		"::1", "::ffff:0.0.0.0", "::ffff:10.0.0.1", "::0.0.0.1",
		"::1:0:0:0", "0:0:0:1::", "2001:db8::1", "fe80::1",
	};
	static const int sa_families[] = { AF_INET, AF_INET6, AF_UNSPEC,
					   AF_UNIX };
	static const int lens[] = { -1, 0, 1, 2, 15, 16, 23, 24, 27, 28,
				    sizeof(struct sockaddr_storage) };
	union test_sa sa;
	char name[96];
	int i, f, l;

	for (i = 0; i < ARRAY_SIZE(ips); i++)
		for (f = 0; f < ARRAY_SIZE(sa_families); f++)
			for (l = 0; l < ARRAY_SIZE(lens); l++) {
				snprintf(name, sizeof(name),
					 "%d/%d/%d/%d call %d flags %x %s family %d len %d",
					 sk->sk_family, sk->sk_type,
					 sk->sk_protocol, sk->sk_ipv6only,
					 call, flags, ips[i], sa_families[f],
					 lens[l]);
				build_sa(test, &sa, sa_families[f], ips[i],
					 4242);
				peer_as_whole(test, name, sk, call, &sa,
					      lens[l], flags);
			}
}

/*
 * pfsel_classify_peer() (classify_peer.h), which the connect and send
 * hooks look a recent allow up with before classifying a call whole:
 * every case of the table above, then every socket, call, address, family
 * field and length crossed, agrees with the whole classifier wherever it
 * takes a call; and it takes the plain calls it is for, and none of the
 * others (0.0.0.0, ::/64, another family, too short, not TCP or UDP).
 */
static void classify_test_peer(struct kunit *test)
{
	static const struct test_sk *const socks[] = {
		&tcp4, &mptcp4, &udp4, &udplite4, &ping4, &raw4, &sctp4,
		&tcp6, &udp6, &udp6only, &ping6, &raw6, &sctp6, &unix_sk,
		&packet_sk,
	};
	static const struct {
		const struct test_sk *sk;
		enum test_call call;
		int sa_family;
		const char *ip;
		bool taken;
	} plain[] = {
		{ &udp4, SEND, AF_INET, "10.0.0.1", true },
		{ &udp4, CONNECT, AF_INET, "10.0.0.1", true },
		{ &tcp4, CONNECT, AF_INET, "127.0.0.1", true },
		{ &udp6, SEND, AF_INET6, "2001:db8::1", true },
		{ &tcp6, CONNECT, AF_INET6, "fe80::1", true },
		{ &udp6only, SEND, AF_INET6, "0:0:0:1::", true },
		{ &udp6, SEND, AF_INET6, "::1:0:0:0", false },
		{ &tcp4, SEND, AF_INET, "10.0.0.1", false },
		{ &udp4, SEND, AF_INET, "0.0.0.0", false },
		{ &udp4, SEND, AF_UNSPEC, "10.0.0.1", false },
		{ &udp6, SEND, AF_INET, "10.0.0.1", false },
		{ &udp6, SEND, AF_INET6, "::ffff:10.0.0.1", false },
		{ &udp6, SEND, AF_INET6, "::1", false },
		{ &udp6, SEND, AF_INET6, "::0.0.0.1", false },
		{ &udplite4, SEND, AF_INET, "10.0.0.1", false },
		{ &mptcp4, CONNECT, AF_INET, "10.0.0.1", false },
		{ &ping4, SEND, AF_INET, "10.0.0.1", false },
		{ &raw6, SEND, AF_INET6, "2001:db8::1", false },
	};
	static const enum test_call calls[] = { CONNECT, SEND };
	unsigned int taken = 0;
	union test_sa sa;
	char name[96];
	int i, j, full;

	for (i = 0; i < ARRAY_SIZE(addr_cases); i++) {
		const struct addr_case *c = &addr_cases[i];
		struct sock *sk = fake_sock(test, c->sk);

		if (c->call == BIND)
			continue;
		sock_net_set(sk, &init_net);
		full = build_sa(test, &sa, c->sa_family, c->ip, c->port);
		taken += peer_as_whole(test, c->name, sk, c->call, &sa,
				       c->len ?: full, c->flags);
	}
	KUNIT_EXPECT_GT(test, taken, 0);

	for (i = 0; i < ARRAY_SIZE(socks); i++) {
		struct sock *sk = fake_sock(test, socks[i]);

		sock_net_set(sk, &init_net);
		for (j = 0; j < ARRAY_SIZE(calls); j++) {
			peer_crossed(test, sk, calls[j], 0);
			peer_crossed(test, sk, calls[j], MSG_FASTOPEN);
		}
	}

	for (i = 0; i < ARRAY_SIZE(plain); i++) {
		struct sock *sk = fake_sock(test, plain[i].sk);

		sock_net_set(sk, &init_net);
		full = build_sa(test, &sa, plain[i].sa_family, plain[i].ip,
				53);
		snprintf(name, sizeof(name), "plain %d: %s", i, plain[i].ip);
		KUNIT_EXPECT_EQ_MSG(test,
				    peer_as_whole(test, name, sk,
						  plain[i].call, &sa, full, 0),
				    plain[i].taken, "%s", name);
	}
}

/* A send without an address, or with a 0-byte one, names no new peer. */
static void classify_test_send_no_address(struct kunit *test)
{
	static const struct test_sk *const socks[] = {
		&udp4, &raw4, &ping4, &tcp4, &udp6, &raw6, &ping6, &sctp6
	};
	struct pfsel_request req;
	union test_sa sa;
	struct msghdr msg = {};
	int i;

	build_sa(test, &sa, AF_INET, "192.0.2.1", 53);
	for (i = 0; i < ARRAY_SIZE(socks); i++) {
		struct sock *sk = fake_sock(test, socks[i]);

		msg.msg_name = NULL;
		msg.msg_namelen = 0;
		msg.msg_flags = MSG_FASTOPEN;
		KUNIT_EXPECT_EQ(test, pfsel_classify_sendmsg(sk, &msg, &req),
				PFSEL_NOT_REQUEST);
		msg.msg_name = &sa;
		KUNIT_EXPECT_EQ(test, pfsel_classify_sendmsg(sk, &msg, &req),
				PFSEL_NOT_REQUEST);
	}
}

/*
 * Which sends connect: TCP and MPTCP only with MSG_FASTOPEN, every other
 * inet protocol always (an SCTP stream socket too), no other socket.
 */
static void classify_test_send_connects(struct kunit *test)
{
	static const struct {
		const struct test_sk *sk;
		unsigned int flags;
		bool connects;
	} cases[] = {
		{ &tcp4, 0, false },
		{ &tcp4, MSG_FASTOPEN, true },
		{ &tcp4, MSG_DONTWAIT | MSG_MORE, false },
		{ &mptcp4, 0, false },
		{ &mptcp4, MSG_FASTOPEN, true },
		{ &tcp6, 0, false },
		{ &tcp6, MSG_FASTOPEN, true },
		{ &udp4, 0, true },
		{ &udp6, MSG_MORE, true },
		{ &ping4, 0, true },
		{ &raw6, 0, true },
		{ &sctp6, 0, true },
		{ &unix_sk, MSG_FASTOPEN, false },
		{ &packet_sk, 0, false },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sock *sk = fake_sock(test, cases[i].sk);

		KUNIT_EXPECT_EQ_MSG(test,
				    pfsel_classify_send_connects(sk,
								 cases[i].flags),
				    cases[i].connects, "case %d", i);
	}
}

/* The local end of a bound socket goes with its requests, for audit. */
static void classify_test_local_end(struct kunit *test)
{
	struct sock *sk = fake_sock(test, &udp4);
	struct pfsel_request req;
	union test_sa sa;
	u8 want[16];
	int len;

	inet_sk(sk)->inet_num = 5000;
	sk->sk_rcv_saddr = htonl(0x0a000002);
	len = build_sa(test, &sa, AF_INET, "192.0.2.1", 53);
	KUNIT_ASSERT_EQ(test, pfsel_classify_connect(sk, &sa.sa, len, &req), 0);
	parse_ip(test, "10.0.0.2", want);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, want, 16);
	KUNIT_EXPECT_EQ(test, req.lport, 5000);

	/* A raw socket keeps its protocol in inet_num: not a port. */
	sk = fake_sock(test, &raw4);
	inet_sk(sk)->inet_num = IPPROTO_ICMP;
	KUNIT_ASSERT_EQ(test, pfsel_classify_connect(sk, &sa.sa, len, &req), 0);
	KUNIT_EXPECT_EQ(test, req.lport, 0);

	sk = fake_sock(test, &udp6);
	inet_sk(sk)->inet_num = 5001;
	parse_ip(test, "2001:db8::2", want);
	memcpy(&sk->sk_v6_rcv_saddr, want, 16);
	/* What __inet6_bind() leaves there for a non-mapped address. */
	sk->sk_rcv_saddr = htonl(0x7f000006);
	KUNIT_ASSERT_EQ(test, pfsel_classify_connect(sk, &sa.sa, len, &req), 0);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, want, 16);
	KUNIT_EXPECT_EQ(test, req.lport, 5001);
	KUNIT_EXPECT_EQ(test, req.family, PFSEL_FAMILY_INET);
}

/*
 * The families whose peers are reached over sockets of the kernel's own
 * are refused by family, and named so in the refusal's record; every
 * other family is classified or not governed.
 */
static void classify_test_family_unruled(struct kunit *test)
{
	static const struct {
		int family;
		const char *name;
	} unruled[] = {
		{ AF_SMC, "smc" },
		{ AF_RDS, "rds" },
		{ AF_RXRPC, "rxrpc" },
		{ AF_TIPC, "tipc" },
	};
	static const int ruled[] = { AF_UNIX, AF_INET, AF_INET6, AF_PACKET,
				     AF_NETLINK, AF_VSOCK, AF_KCM, AF_XDP,
				     AF_PPPOX, AF_UNSPEC };
	int i;

	for (i = 0; i < ARRAY_SIZE(unruled); i++)
		KUNIT_EXPECT_STREQ(test,
				   pfsel_classify_family_unruled(unruled[i].family),
				   unruled[i].name);
	for (i = 0; i < ARRAY_SIZE(ruled); i++)
		KUNIT_EXPECT_NULL(test,
				  pfsel_classify_family_unruled(ruled[i]));
}

/*
 * The options that set a source route, each named as what it is refused
 * for; the options beside them route nothing.
 */
static void classify_test_route_option(struct kunit *test)
{
	static const struct {
		int level, optname;
		enum pfsel_refusal want;
	} cases[] = {
		{ SOL_IPV6, IPV6_RTHDR, PFSEL_REFUSED_ROUTING_HEADER },
		{ SOL_IPV6, IPV6_2292RTHDR, PFSEL_REFUSED_ROUTING_HEADER },
		{ SOL_IPV6, IPV6_2292PKTOPTIONS, PFSEL_REFUSED_ROUTING_HEADER },
		{ SOL_IP, IP_OPTIONS, PFSEL_REFUSED_IP_OPTIONS },
		{ SOL_IPV6, IPV6_RTHDRDSTOPTS, PFSEL_NOT_REFUSED },
		{ SOL_IPV6, IPV6_DSTOPTS, PFSEL_NOT_REFUSED },
		{ SOL_IP, IP_TTL, PFSEL_NOT_REFUSED },
		{ SOL_IP, IP_RETOPTS, PFSEL_NOT_REFUSED },
		/* IP_OPTIONS and IPV6_RTHDR are other options elsewhere. */
		{ SOL_SOCKET, IP_OPTIONS, PFSEL_NOT_REFUSED },
		{ SOL_TCP, IPV6_RTHDR, PFSEL_NOT_REFUSED },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pfsel_classify_route_option(cases[i].level,
								cases[i].optname),
				    cases[i].want, "case %d", i);
}

/* A control message of @len bytes of data at @at: the space it takes. */
static size_t put_cmsg_at(u8 *const at, const int level, const int type,
			  const size_t len)
{
	struct cmsghdr *const cmsg = (struct cmsghdr *)at;

	cmsg->cmsg_level = level;
	cmsg->cmsg_type = type;
	cmsg->cmsg_len = CMSG_LEN(len);
	memset(CMSG_DATA(cmsg), 0, len);
	return CMSG_SPACE(len);
}

/*
 * A send's control messages: the first that routes names the refusal;
 * control messages left in user memory cannot be read, and are refused
 * for that.
 */
static void classify_test_route_cmsg(struct kunit *test)
{
	static const struct {
		int n;
		struct {
			int level, type;
		} cmsgs[2];
		enum pfsel_refusal want;
	} cases[] = {
		{ 1, { { SOL_IPV6, IPV6_RTHDR } }, PFSEL_REFUSED_ROUTING_HEADER },
		{ 1, { { SOL_IPV6, IPV6_2292RTHDR } },
		  PFSEL_REFUSED_ROUTING_HEADER },
		{ 1, { { SOL_IP, IP_RETOPTS } }, PFSEL_REFUSED_IP_OPTIONS },
		{ 2, { { SOL_IP, IP_TTL }, { SOL_IP, IP_RETOPTS } },
		  PFSEL_REFUSED_IP_OPTIONS },
		{ 2, { { SOL_IPV6, IPV6_HOPLIMIT }, { SOL_IPV6, IPV6_RTHDR } },
		  PFSEL_REFUSED_ROUTING_HEADER },
		{ 2, { { SOL_IP, IP_TTL }, { SOL_IPV6, IPV6_TCLASS } },
		  PFSEL_NOT_REFUSED },
		{ 1, { { SOL_SOCKET, SCM_RIGHTS } }, PFSEL_NOT_REFUSED },
		/* As a socket option only: a control message sets nothing. */
		{ 1, { { SOL_IP, IP_OPTIONS } }, PFSEL_NOT_REFUSED },
	};
	struct msghdr msg = {};
	u8 *buf;
	size_t len;
	int i, j;

	buf = kunit_kzalloc(test, 2 * CMSG_SPACE(16), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		len = 0;
		for (j = 0; j < cases[i].n; j++)
			len += put_cmsg_at(buf + len, cases[i].cmsgs[j].level,
					   cases[i].cmsgs[j].type, 16);
		msg.msg_control = buf;
		msg.msg_controllen = len;
		msg.msg_control_is_user = false;
		KUNIT_EXPECT_EQ_MSG(test, pfsel_classify_route_cmsg(&msg),
				    cases[i].want, "case %d", i);
		msg.msg_control_is_user = true;
		KUNIT_EXPECT_EQ_MSG(test, pfsel_classify_route_cmsg(&msg),
				    PFSEL_REFUSED_UNREAD_CONTROL, "case %d", i);
	}
	msg.msg_controllen = 0;
	KUNIT_EXPECT_EQ(test, pfsel_classify_route_cmsg(&msg),
			PFSEL_NOT_REFUSED);
}

/*
 * A refusal's record names the socket's ends: its peer when it has one, a
 * connect; otherwise its local end, a bind.
 */
static void classify_test_ends(struct kunit *test)
{
	struct pfsel_request req;
	struct sock *sk;
	u8 want[16];

	sk = fake_sock(test, &udp4);
	inet_sk(sk)->inet_num = 5000;
	sk->sk_rcv_saddr = htonl(0x0a000002);
	KUNIT_ASSERT_EQ(test, pfsel_classify_ends(sk, &req), 0);
	expect_request(test, "udp4 unconnected", &req, PFSEL_OP_BIND,
		       PFSEL_PROTO_UDP, "10.0.0.2", 5000);
	sk->sk_daddr = htonl(0xc0000201);
	sk->sk_dport = htons(53);
	KUNIT_ASSERT_EQ(test, pfsel_classify_ends(sk, &req), 0);
	expect_request(test, "udp4 connected", &req, PFSEL_OP_CONNECT,
		       PFSEL_PROTO_UDP, "192.0.2.1", 53);
	parse_ip(test, "10.0.0.2", want);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, want, 16);
	KUNIT_EXPECT_EQ(test, req.lport, 5000);

	/* A raw socket's peer has no port. */
	sk = fake_sock(test, &raw4);
	inet_sk(sk)->inet_num = IPPROTO_ICMP;
	sk->sk_daddr = htonl(0xc0000201);
	KUNIT_ASSERT_EQ(test, pfsel_classify_ends(sk, &req), 0);
	expect_request(test, "raw4 connected", &req, PFSEL_OP_CONNECT,
		       PFSEL_PROTO_RAW, "192.0.2.1", 0);

	/* An IPv6 socket's IPv4-mapped peer is an inet one. */
	sk = fake_sock(test, &tcp6);
	parse_ip(test, "192.0.2.1", want);
	memcpy(&sk->sk_v6_daddr, want, 16);
	sk->sk_dport = htons(443);
	KUNIT_ASSERT_EQ(test, pfsel_classify_ends(sk, &req), 0);
	expect_request(test, "tcp6 mapped peer", &req, PFSEL_OP_CONNECT,
		       PFSEL_PROTO_TCP, "192.0.2.1", 443);
	sk = fake_sock(test, &udp6);
	KUNIT_ASSERT_EQ(test, pfsel_classify_ends(sk, &req), 0);
	expect_request(test, "udp6 unbound", &req, PFSEL_OP_BIND,
		       PFSEL_PROTO_UDP, "::", 0);

	KUNIT_EXPECT_EQ(test, pfsel_classify_ends(fake_sock(test, &unix_sk),
						  &req),
			PFSEL_NOT_REQUEST);
}

/*
 * A subflow a peer joined: an accept from the peer's address on the local
 * port, whatever family the subflow socket has.
 */
static void classify_test_joined_subflow(struct kunit *test)
{
	struct sock *sk = fake_sock(test, &tcp4);
	struct pfsel_request req;
	u8 want[16];

	inet_sk(sk)->inet_num = 8080;
	sk->sk_daddr = htonl(0xc0000207);
	sk->sk_rcv_saddr = htonl(0x0a000002);
	KUNIT_ASSERT_EQ(test, pfsel_classify_joined_subflow(sk, &req), 0);
	KUNIT_EXPECT_EQ(test, req.op, PFSEL_OP_ACCEPT);
	KUNIT_EXPECT_EQ(test, req.proto, PFSEL_PROTO_TCP);
	KUNIT_EXPECT_EQ(test, req.family, PFSEL_FAMILY_INET);
	KUNIT_EXPECT_EQ(test, req.port, 8080);
	KUNIT_EXPECT_EQ(test, req.lport, 8080);
	parse_ip(test, "192.0.2.7", want);
	KUNIT_EXPECT_MEMEQ(test, req.addr, want, 16);
	parse_ip(test, "10.0.0.2", want);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, want, 16);

	sk = fake_sock(test, &tcp6);
	inet_sk(sk)->inet_num = 443;
	parse_ip(test, "2001:db8::9", want);
	memcpy(&sk->sk_v6_daddr, want, 16);
	KUNIT_ASSERT_EQ(test, pfsel_classify_joined_subflow(sk, &req), 0);
	KUNIT_EXPECT_MEMEQ(test, req.addr, want, 16);
	KUNIT_EXPECT_EQ(test, req.family, PFSEL_FAMILY_INET6);
	KUNIT_EXPECT_EQ(test, req.port, 443);

	/* An IPv4 peer of an IPv6 subflow is an IPv4 request. */
	parse_ip(test, "192.0.2.8", want);
	memcpy(&sk->sk_v6_daddr, want, 16);
	KUNIT_ASSERT_EQ(test, pfsel_classify_joined_subflow(sk, &req), 0);
	KUNIT_EXPECT_EQ(test, req.family, PFSEL_FAMILY_INET);

	KUNIT_EXPECT_EQ(test,
			pfsel_classify_joined_subflow(fake_sock(test, &unix_sk),
						      &req),
			PFSEL_NOT_REQUEST);
}

/* ---- listen ---- */

struct listen_case {
	const char *name;
	const struct test_sk *sk;
	const char *bound;	/* NULL: unbound */
	u16 port;
	int ret;
	const char *want;
	u16 want_port;
};

static const struct listen_case listen_cases[] = {
	{ "tcp4 bound", &tcp4, "10.0.0.1", 8080, 0, "10.0.0.1", 8080 },
	{ "tcp4 any", &tcp4, "0.0.0.0", 8080, 0, "0.0.0.0", 8080 },
	{ "tcp4 unbound", &tcp4, NULL, 0, 0, "0.0.0.0", 0 },
	{ "mptcp4 bound", &mptcp4, "10.0.0.1", 80, 0, "10.0.0.1", 80 },
	{ "tcp6 bound", &tcp6, "2001:db8::1", 443, 0, "2001:db8::1", 443 },
	{ "tcp6 any", &tcp6, "::", 80, 0, "::", 80 },
	{ "tcp6 mapped", &tcp6, "::ffff:127.0.0.1", 80, 0, "127.0.0.1", 80 },
	{ "tcp6 unbound", &tcp6, NULL, 0, 0, "::", 0 },
	{ "sctp4 bound", &sctp4, "10.0.0.1", 9, 0, "10.0.0.1", 0 },
	{ "sctp6 unbound", &sctp6, NULL, 0, 0, "::", 0 },
	{ "udp4", &udp4, "10.0.0.1", 53, -EOPNOTSUPP },
	{ "udp6", &udp6, NULL, 0, -EOPNOTSUPP },
	{ "ping4", &ping4, NULL, 0, -EOPNOTSUPP },
	{ "raw4", &raw4, NULL, 0, -EOPNOTSUPP },
	{ "raw6", &raw6, NULL, 0, -EOPNOTSUPP },
	{ "unix", &unix_sk, NULL, 0, PFSEL_NOT_REQUEST },
	{ "packet", &packet_sk, NULL, 0, PFSEL_NOT_REQUEST },
};

static void listen_case_desc(const struct listen_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(listen, listen_cases, listen_case_desc);

/* A socket bound as __inet_bind() or __inet6_bind() leaves it. */
static void bind_fake(struct kunit *test, struct sock *sk, const char *ip,
		      u16 port)
{
	u8 addr[16];

	parse_ip(test, ip, addr);
	inet_sk(sk)->inet_num = port;
	if (sk->sk_family == AF_INET) {
		memcpy(&sk->sk_rcv_saddr, addr + 12, 4);
		return;
	}
	memcpy(&sk->sk_v6_rcv_saddr, addr, 16);
	if (pfsel_addr_is_inet(addr))
		memcpy(&sk->sk_rcv_saddr, addr + 12, 4);
	else
		sk->sk_rcv_saddr = htonl(0x7f000006);
}

static void classify_test_listen(struct kunit *test)
{
	const struct listen_case *c = test->param_value;
	struct sock *sk = fake_sock(test, c->sk);
	struct pfsel_request req;
	u8 proto;

	if (c->bound)
		bind_fake(test, sk, c->bound, c->port);
	KUNIT_ASSERT_EQ(test, pfsel_classify_listen(sk, &req), c->ret);
	if (c->ret)
		return;
	KUNIT_ASSERT_EQ(test, pfsel_classify_sock(sk, &proto), 0);
	expect_request(test, c->name, &req, PFSEL_OP_LISTEN, proto, c->want,
		       c->want_port);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, req.addr, 16);
}

/* ---- inbound connection requests ---- */

KUNIT_DEFINE_ACTION_WRAPPER(kfree_skb_action, kfree_skb, struct sk_buff *);

/* A SYN from @src:@sport to @dst:@dport, as tcp_v{4,6}_rcv() pass it. */
static struct sk_buff *make_syn(struct kunit *test, const char *src,
				const char *dst, u16 sport, u16 dport)
{
	bool v6 = strchr(src, ':');
	size_t nh = v6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	struct sk_buff *skb = alloc_skb(nh + sizeof(struct tcphdr),
					GFP_KERNEL);
	struct tcphdr *th;
	u8 s[16], d[16];

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kfree_skb_action,
							skb), 0);
	parse_ip(test, src, s);
	parse_ip(test, dst, d);
	skb_reset_network_header(skb);
	if (v6) {
		struct ipv6hdr *ip6h = skb_put_zero(skb, sizeof(*ip6h));

		ip6h->version = 6;
		ip6h->nexthdr = IPPROTO_TCP;
		ip6h->payload_len = htons(sizeof(*th));
		ip6h->hop_limit = 64;
		memcpy(&ip6h->saddr, s, 16);
		memcpy(&ip6h->daddr, d, 16);
		skb->protocol = htons(ETH_P_IPV6);
	} else {
		struct iphdr *iph = skb_put_zero(skb, sizeof(*iph));

		iph->version = 4;
		iph->ihl = 5;
		iph->protocol = IPPROTO_TCP;
		iph->ttl = 64;
		iph->tot_len = htons(nh + sizeof(*th));
		memcpy(&iph->saddr, s + 12, 4);
		memcpy(&iph->daddr, d + 12, 4);
		skb->protocol = htons(ETH_P_IP);
	}
	skb_set_transport_header(skb, nh);
	th = skb_put_zero(skb, sizeof(*th));
	th->source = htons(sport);
	th->dest = htons(dport);
	th->doff = sizeof(*th) / 4;
	th->syn = 1;
	return skb;
}

struct conn_case {
	const char *name;
	const struct test_sk *listener;
	const char *src;
	const char *dst;
	int ret;
	u8 proto;
	u16 want_port;
};

static const struct conn_case conn_cases[] = {
	{ "tcp4 listener, ipv4", &tcp4, "198.51.100.7", "10.0.0.1", 0,
	  PFSEL_PROTO_TCP, 443 },
	{ "tcp6 listener, ipv4", &tcp6, "198.51.100.7", "10.0.0.1", 0,
	  PFSEL_PROTO_TCP, 443 },
	{ "tcp6 listener, ipv6", &tcp6, "2001:db8::7", "2001:db8::1", 0,
	  PFSEL_PROTO_TCP, 443 },
	{ "tcp6 listener, ipv6 mapped source", &tcp6, "::ffff:198.51.100.7",
	  "2001:db8::1", 0, PFSEL_PROTO_TCP, 443 },
	{ "mptcp4 listener", &mptcp4, "198.51.100.7", "10.0.0.1", 0,
	  PFSEL_PROTO_TCP, 443 },
	{ "dccp4 listener", &dccp4, "198.51.100.7", "10.0.0.1", 0,
	  PFSEL_PROTO_RAW, 0 },
	{ "unix listener", &unix_sk, "198.51.100.7", "10.0.0.1",
	  PFSEL_NOT_REQUEST },
};

static void conn_case_desc(const struct conn_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(conn, conn_cases, conn_case_desc);

static void classify_test_conn_request(struct kunit *test)
{
	const struct conn_case *c = test->param_value;
	struct sock *sk = fake_sock(test, c->listener);
	struct sk_buff *skb = make_syn(test, c->src, c->dst, 40000, 443);
	struct pfsel_request req;
	u8 laddr[16];

	/* The listener's own port, which a redirected SYN need not carry. */
	inet_sk(sk)->inet_num = 8443;
	KUNIT_ASSERT_EQ(test, pfsel_classify_conn_request(sk, skb, &req),
			c->ret);
	if (c->ret)
		return;
	expect_request(test, c->name, &req, PFSEL_OP_ACCEPT, c->proto, c->src,
		       c->want_port);
	parse_ip(test, c->dst, laddr);
	KUNIT_EXPECT_MEMEQ(test, req.laddr, laddr, 16);
	KUNIT_EXPECT_EQ(test, req.lport, c->want_port);
}

/* A packet that is neither IPv4 nor IPv6 is refused, not misread. */
static void classify_test_conn_request_other(struct kunit *test)
{
	struct sock *sk = fake_sock(test, &tcp4);
	struct sk_buff *skb = make_syn(test, "198.51.100.7", "10.0.0.1", 1, 2);
	struct pfsel_request req;

	skb->protocol = htons(ETH_P_ARP);
	KUNIT_EXPECT_EQ(test, pfsel_classify_conn_request(sk, skb, &req),
			-EPROTONOSUPPORT);
}

/* ---- real sockets ---- */

KUNIT_DEFINE_ACTION_WRAPPER(sock_release_action, sock_release,
			    struct socket *);

/* NULL when this kernel cannot create such a socket. */
static struct socket *real_sock(struct kunit *test, int family, int type,
				int protocol)
{
	struct socket *sock;

	if (sock_create_kern(&init_net, family, type, protocol, &sock))
		return NULL;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							sock_release_action,
							sock), 0);
	return sock;
}

/*
 * The fields that a real socket() leaves give the protocol that create
 * gave: protocol 0 among them, which inet_create() resolves.
 */
static void classify_test_real_sockets(struct kunit *test)
{
	static const struct {
		int family, type, protocol;
	} socks[] = {
		{ AF_INET, SOCK_STREAM, 0 },
		{ AF_INET, SOCK_STREAM, IPPROTO_TCP },
		{ AF_INET, SOCK_DGRAM, 0 },
		{ AF_INET, SOCK_DGRAM, IPPROTO_UDP },
		{ AF_INET, SOCK_RAW, IPPROTO_ICMP },
		{ AF_INET, SOCK_RAW, IPPROTO_RAW },
		{ AF_INET6, SOCK_STREAM, 0 },
		{ AF_INET6, SOCK_DGRAM, 0 },
		{ AF_INET6, SOCK_RAW, IPPROTO_ICMPV6 },
	};
	struct pfsel_request req;
	int i;

	for (i = 0; i < ARRAY_SIZE(socks); i++) {
		struct socket *sock = real_sock(test, socks[i].family,
						socks[i].type,
						socks[i].protocol);
		u8 proto = PFSEL_PROTO_COUNT;

		KUNIT_ASSERT_NOT_NULL(test, sock);
		KUNIT_ASSERT_EQ(test, pfsel_classify_create(socks[i].family,
							    socks[i].type,
							    socks[i].protocol,
							    &req), 0);
		KUNIT_EXPECT_EQ(test, pfsel_classify_sock(sock->sk, &proto), 0);
		KUNIT_EXPECT_EQ_MSG(test, proto, req.proto, "socket(%d, %d, %d)",
				    socks[i].family, socks[i].type,
				    socks[i].protocol);
	}
}

/* listen() on real sockets bound by the kernel's own bind. */
static void classify_test_real_listen(struct kunit *test)
{
	static const char *const binds[] = { "0.0.0.0", "::",
					     "::ffff:0.0.0.0" };
	struct pfsel_request req;
	union test_sa sa;
	int i;

	for (i = 0; i < ARRAY_SIZE(binds); i++) {
		int family = strchr(binds[i], ':') ? AF_INET6 : AF_INET;
		struct socket *sock = real_sock(test, family, SOCK_STREAM, 0);
		int len = build_sa(test, &sa, family, binds[i], 0);
		u16 port;

		KUNIT_ASSERT_NOT_NULL(test, sock);
		KUNIT_ASSERT_EQ(test, kernel_bind(sock, &sa.sa, len), 0);
		port = inet_sk(sock->sk)->inet_num;
		KUNIT_EXPECT_NE(test, port, 0);
		KUNIT_ASSERT_EQ(test, pfsel_classify_listen(sock->sk, &req), 0);
		expect_request(test, binds[i], &req, PFSEL_OP_LISTEN,
			       PFSEL_PROTO_TCP, binds[i], port);
	}
}

/* A real UDPv6 socket takes an IPv4 destination, unless IPv6-only. */
static void classify_test_real_udp6(struct kunit *test)
{
	struct socket *sock = real_sock(test, AF_INET6, SOCK_DGRAM, 0);
	struct pfsel_request req;
	union test_sa sa;
	int len;

	KUNIT_ASSERT_NOT_NULL(test, sock);
	len = build_sa(test, &sa, AF_INET, "192.0.2.1", 53);
	KUNIT_ASSERT_EQ(test, pfsel_classify_connect(sock->sk, &sa.sa, len,
						     &req), 0);
	expect_request(test, "udp6 inet", &req, PFSEL_OP_CONNECT,
		       PFSEL_PROTO_UDP, "192.0.2.1", 53);
	sock->sk->sk_ipv6only = 1;
	KUNIT_EXPECT_EQ(test, pfsel_classify_connect(sock->sk, &sa.sa, len,
						     &req), -EAFNOSUPPORT);
}

static struct kunit_case classify_test_cases[] = {
	KUNIT_CASE_PARAM(classify_test_create, create_gen_params),
	KUNIT_CASE_PARAM(classify_test_addressed, addr_gen_params),
	KUNIT_CASE(classify_test_peer),
	KUNIT_CASE(classify_test_send_no_address),
	KUNIT_CASE(classify_test_send_connects),
	KUNIT_CASE(classify_test_local_end),
	KUNIT_CASE(classify_test_family_unruled),
	KUNIT_CASE(classify_test_route_option),
	KUNIT_CASE(classify_test_route_cmsg),
	KUNIT_CASE(classify_test_ends),
	KUNIT_CASE(classify_test_joined_subflow),
	KUNIT_CASE_PARAM(classify_test_listen, listen_gen_params),
	KUNIT_CASE_PARAM(classify_test_conn_request, conn_gen_params),
	KUNIT_CASE(classify_test_conn_request_other),
	KUNIT_CASE(classify_test_real_sockets),
	KUNIT_CASE(classify_test_real_listen),
	KUNIT_CASE(classify_test_real_udp6),
	{}
};

static struct kunit_suite classify_test_suite = {
	.name = "pfsel_classify",
	.test_cases = classify_test_cases,
};

kunit_test_suite(classify_test_suite);

MODULE_LICENSE("GPL");
