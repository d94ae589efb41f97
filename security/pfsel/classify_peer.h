/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The peer of a connect() or an addressed send, read inline
 *
 * A program's connect() or sendto() to a peer it reached a moment ago is
 * answered by a recent allow (recent.h), whose key holds of the request
 * only its operation, protocol, address, port and network namespace.
 * Classifying the call whole (classify.c) also clears the request, works
 * out its family and reads the socket's local end for an audit record
 * that a recent allow never writes: half of what such a call costs pfsel.
 * So the hooks read those five fields here first, for the commonest
 * calls only, look the prefix's recent allow up with them, and classify
 * the call whole only when it does not answer.
 */

#ifndef _SECURITY_PFSEL_CLASSIFY_PEER_H
#define _SECURITY_PFSEL_CLASSIFY_PEER_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "classify.h"

/**
 * pfsel_classify_peer - The peer of a connect() or an addressed send, at
 *			 once, where it is plain
 *
 * @sk: the socket.
 * @address: the address given to connect() or the send, in kernel memory.
 * @addrlen: its length.
 * @send: a send (socket_sendmsg) rather than a connect().
 * @req: receives @op, @proto, @port, @addr and @net, and nothing else.
 *
 * Only these calls, and each field exactly as pfsel_classify_connect()
 * and pfsel_classify_sendmsg() set it for them (which the KUnit cases of
 * classify_test.c compare, field by field, over every family, protocol,
 * length and address edge):
 *
 *  - the socket is inet (sk_family, read once as those read it, AF_INET
 *    or AF_INET6), a UDP socket (SOCK_DGRAM, IPPROTO_UDP), or for a
 *    connect() a TCP one (SOCK_STREAM, IPPROTO_TCP): kind_of() makes
 *    them PFSEL_KIND_UDP and PFSEL_KIND_TCP, proto_of() udp and tcp;
 *  - the address is of the socket's own family and long enough for it
 *    (a sockaddr_in; SIN6_LEN_RFC2133 bytes of a sockaddr_in6): the
 *    parsers of both (parse_connect(), want_in(), parse_connect6(),
 *    parse_send4(), parse_send6()) then take it as it is, with take_in()
 *    or take_in6(), and return 0;
 *  - the address is not in ::/64 for IPv6, nor 0.0.0.0 for IPv4: so
 *    reached_addr() leaves it as it is (it changes only ::, ::ffff:0.0.0.0
 *    and 0.0.0.0), and an IPv6 address is not IPv4-mapped, which an
 *    IPv6-only socket would refuse (ipv6_only_sock()).
 *
 * finish() then sets the operation connect (a send to an address is a
 * connect request), the protocol, the socket's namespace, and keeps the
 * port (tcp and udp have ports).  Every other call returns false, and is
 * classified whole.
 *
 * Return: true when @req's five fields are the request's; false when the
 * call is to be classified whole.
 */
static __always_inline bool
pfsel_classify_peer(const struct sock *const sk,
		    const struct sockaddr *const address, const int addrlen,
		    const bool send, struct pfsel_request *const req)
{
	const int family = READ_ONCE(sk->sk_family);
	u64 high;
	u8 proto;

	if (sk->sk_type == SOCK_DGRAM && sk->sk_protocol == IPPROTO_UDP)
		proto = PFSEL_PROTO_UDP;
	else if (!send && sk->sk_type == SOCK_STREAM &&
		 sk->sk_protocol == IPPROTO_TCP)
		proto = PFSEL_PROTO_TCP;
	else
		return false;
	if (family == AF_INET) {
		const struct sockaddr_in *const sin = (const void *)address;

		if (addrlen < (int)sizeof(*sin) ||
		    sin->sin_family != AF_INET || !sin->sin_addr.s_addr)
			return false;
		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr,
				       (struct in6_addr *)req->addr);
		req->port = ntohs(sin->sin_port);
	} else if (family == AF_INET6) {
		const struct sockaddr_in6 *const sin6 = (const void *)address;

		if (addrlen < SIN6_LEN_RFC2133 ||
		    sin6->sin6_family != AF_INET6)
			return false;
		memcpy(&high, &sin6->sin6_addr, sizeof(high));
		if (!high)
			return false;
		memcpy(req->addr, &sin6->sin6_addr, sizeof(req->addr));
		req->port = ntohs(sin6->sin6_port);
	} else {
		return false;
	}
	req->op = PFSEL_OP_CONNECT;
	req->proto = proto;
	req->net = sock_net(sk);
	return true;
}

#endif /* _SECURITY_PFSEL_CLASSIFY_PEER_H */
