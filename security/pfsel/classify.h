/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Requests, from what a socket hook sees
 *
 * A hook hands over the socket, the address and the lengths it was given;
 * these functions say whether that is a request pfsel decides (LANGUAGE.md,
 * section 1), and if so fill in its operation, protocol, family, address
 * and port.  They parse addresses exactly as the protocol that will parse
 * them after the hook does, so that nothing the kernel accepts goes
 * undecided.  They are pure: no policy, no locks, no sleeping, safe in
 * softirq.
 *
 * Every function returns
 *  - 0: a request; decide it,
 *  - PFSEL_NOT_REQUEST (positive): nothing pfsel governs (a socket of
 *    another family, a packet socket after create, a connect() that
 *    dissolves an association, a send that names no new peer); allow it,
 *  - a negative errno: input the kernel would itself reject, with the
 *    errno it would give; the hook returns it (fails closed).
 *
 * So a hook reads:
 *
 *	err = pfsel_classify_connect(sock->sk, address, addrlen, &req);
 *	if (err)
 *		return err < 0 ? err : 0;
 *	return decide(&req);
 */

#ifndef _SECURITY_PFSEL_CLASSIFY_H
#define _SECURITY_PFSEL_CLASSIFY_H

#include <linux/types.h>
#include <uapi/linux/pfsel.h>

#include "uapi/pfsel_policy.h"

struct msghdr;
struct net;
struct sk_buff;
struct sock;
struct sockaddr;

/* Not a request: let the call through undecided.  Never an errno. */
#define PFSEL_NOT_REQUEST 1

/* Not refused: a value of no enum pfsel_refusal entry. */
#define PFSEL_NOT_REFUSED PFSEL_REFUSAL_COUNT

/* Family of a packet socket's create request: packet sockets have none. */
#define PFSEL_FAMILY_NONE PFSEL_FAMILY_PACKET

/**
 * struct pfsel_request - What a hook asks the policy about
 * @op: enum pfsel_op
 * @proto: enum pfsel_proto
 * @family: enum pfsel_family; of the socket for create, of @addr
 *	    otherwise (inet for ::ffff:0:0/96); PFSEL_FAMILY_NONE for a
 *	    packet socket
 * @port: host order; 0 for create and for icmp, raw and packet
 * @lport: the local port, host order, where known (for audit), else 0;
 *	   0 for icmp, raw and packet
 * @addr: IPv6, IPv4 as IPv4-mapped, network order; for create the
 *	  family's representative address (pfsel_policydb_family_addr()),
 *	  all zero for a packet socket
 * @laddr: the local address where known (for audit), else all zero
 * @net: the network namespace @addr is in (the socket's), in which the
 *	 kernel may know names for it (hostmap.h); NULL for create
 */
struct pfsel_request {
	u8 op;
	u8 proto;
	u8 family;
	u16 port;
	u16 lport;
	u8 addr[16];
	u8 laddr[16];
	const struct net *net;
};

int pfsel_classify_create(int family, int type, int protocol,
			  struct pfsel_request *req);
int pfsel_classify_sock(const struct sock *sk, u8 *proto);
int pfsel_classify_bind(const struct sock *sk,
			const struct sockaddr *address, int addrlen,
			struct pfsel_request *req);
int pfsel_classify_connect(const struct sock *sk,
			   const struct sockaddr *address, int addrlen,
			   struct pfsel_request *req);
bool pfsel_classify_send_connects(const struct sock *sk,
				  unsigned int msg_flags);
int pfsel_classify_sendmsg(const struct sock *sk, const struct msghdr *msg,
			   struct pfsel_request *req);
size_t pfsel_classify_hdrincl_len(const struct sock *sk);
int pfsel_classify_hdrincl(const struct sock *sk, const u8 *hdr, size_t len,
			   struct pfsel_request *req);
enum pfsel_refusal pfsel_classify_route_option(int level, int optname);
enum pfsel_refusal pfsel_classify_route_cmsg(const struct msghdr *msg);
int pfsel_classify_ends(const struct sock *sk, struct pfsel_request *req);
int pfsel_classify_listen(const struct sock *sk, struct pfsel_request *req);
int pfsel_classify_conn_request(const struct sock *listener,
				const struct sk_buff *skb,
				struct pfsel_request *req);
int pfsel_classify_joined_subflow(const struct sock *ssk,
				  struct pfsel_request *req);
const char *pfsel_classify_family_unruled(int family);
bool pfsel_addr_is_inet(const u8 addr[16]);

#endif /* _SECURITY_PFSEL_CLASSIFY_H */
