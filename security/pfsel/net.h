/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Network hooks
 */

#ifndef _SECURITY_PFSEL_NET_H
#define _SECURITY_PFSEL_NET_H

#include <linux/init.h>
#include <linux/uidgid.h>
#include <net/sock.h>

#include "app.h"
#include "audit.h"
#include "decide.h"
#include "setup.h"

struct pfsel_dns_stream;

/**
 * struct pfsel_sock_security - pfsel's part of a socket
 *
 * @app: application identity of the process that created the socket.
 * @uid: real uid of that process.
 * @governed: a process created the socket; sockets the kernel makes for
 *            itself (and their children) are not governed.
 * @dns_stream: for a trusted resolver's TCP socket that sent its first
 *              query to port 53, the answer being read from its stream
 *              (resolver.c); NULL for every other socket.  Set once,
 *              under the socket's lock, and freed with the socket.
 * @tcp_unfollowed: a segment whose bytes the socket's stream cannot follow
 *                  reached this TCP socket while resolvers were named (one
 *                  that marks urgent data, or a SYN with data): its stream
 *                  is not read (resolver.c, "Urgent data", "Data on a
 *                  SYN").  Set once, in softirq.
 *
 * An inbound connection is decided in softirq, where no process is at
 * hand: the listening socket says whose it is.
 */
struct pfsel_sock_security {
	struct pfsel_app *app;
	kuid_t uid;
	bool governed;
	struct pfsel_dns_stream *dns_stream;
	bool tcp_unfollowed;
};

static inline struct pfsel_sock_security *pfsel_sock(const struct sock *sk)
{
	return sk->sk_security + pfsel_blob_sizes.lbs_sock;
}

int pfsel_refuse_unruled(const struct pfsel_subject *subject,
			 struct pfsel_refused *refused);
int pfsel_refuse_send(const struct sock *sk, const struct msghdr *msg,
		      enum pfsel_refusal what);

/**
 * pfsel_decide_sock_owner - Decide a request for the owner of a socket
 * @owner: pfsel's part of the socket whose creator the request is for
 *         (pfsel_sock())
 * @request: the request
 *
 * Where no process is at hand (an inbound connection in softirq, a
 * subflow joining a connection), the socket says whose the access is.
 * Inline, and given the socket's blob the caller already found: the
 * accept of every inbound TCP connection comes here.
 *
 * Return: as pfsel_decide(); 0 for a socket the kernel made for itself.
 */
static inline int
pfsel_decide_sock_owner(const struct pfsel_sock_security *owner,
			const struct pfsel_request *request)
{
	const struct pfsel_subject subject = {
		.app = owner->app,
		.uid = owner->uid,
		.task = false,
	};

	if (!owner->governed)
		return 0;
	return pfsel_decide(&subject, request);
}

__init void pfsel_add_net_hooks(void);
int pfsel_decide_sctp_dstaddrs(const struct sock *sk, const struct msghdr *msg);
__init void pfsel_add_multipath_hooks(void);

#endif /* _SECURITY_PFSEL_NET_H */
