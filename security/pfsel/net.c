// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Network hooks
 *
 * Every way a process reaches the network meets one of these hooks:
 * socket() meets socket_create, bind() socket_bind, connect() (including
 * io_uring's) socket_connect, listen() socket_listen, and a send that names
 * its destination (an unconnected sendto(), TCP Fast Open), a raw send of
 * a header the process wrote, socket_sendmsg.  A source route (an IPv6
 * routing header, IPv4 source-route options) would send packets past the
 * address decided: socket_setsockopt and socket_sendmsg refuse it, and
 * audit the refusal as a denial, as every refusal no rule decides.
 * An inbound connection request meets inet_conn_request, in softirq
 * context, where nothing may wait: that is where "accept" is decided, per
 * peer, for the process that created the listening socket; socket_accept
 * itself only counts, since the peer is not known yet when it runs.
 *
 * classify.c turns what a hook sees into a request; decide.c decides it.
 * Every hook counts its calls (stats.c); while a policy is loaded, it also
 * times them, which is how the benchmarks see pfsel's own share.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <linux/uio.h>
#include <net/ipv6.h>
#include <net/request_sock.h>
#include <net/sock.h>

#include "app.h"
#include "audit.h"
#include "classify.h"
#include "classify_peer.h"
#include "common.h"
#include "cred.h"
#include "decide.h"
#include "names.h"
#include "net.h"
#include "policy.h"
#include "resolver.h"
#include "setup.h"
#include "stats.h"

/*
 * Decides what a classifier made of a call: a request, something pfsel
 * does not govern, or input the kernel would refuse anyway, which is
 * refused here already with the kernel's own error.
 */
static int decide_classified(const int classified,
			     const struct pfsel_request *const request)
{
	if (classified)
		return classified < 0 ? classified : 0;
	return pfsel_decide_current(request);
}

/*
 * decide_classified() for a call whose prefix's recent allow was looked
 * for already, in @epoch, with its peer alone (classify_peer.h), and did
 * not answer: the rest of pfsel_decide_current().  The whole
 * classification gives the same key, so that entry is not looked for
 * again.
 */
static int decide_classified_fully(const int classified,
				   const struct pfsel_request *const request,
				   const u64 epoch)
{
	if (classified)
		return classified < 0 ? classified : 0;
	return pfsel_decide_current_fully(request, epoch);
}

/**
 * pfsel_refuse_unruled - Refuse what no rule can allow to a restrained user
 * @subject: who makes the call: the current task, or a socket's owner
 * @refused: what is refused, for the audit record; its @slot and
 *           @permissive are filled in here
 *
 * Source routes (LANGUAGE.md, section 7), the socket families that reach
 * IP peers through sockets of the kernel's own (section 6), MPTCP
 * subflows the kernel would open later: no rule names them, so a process
 * that an enforcing policy restrains does without them.  Under a policy
 * that restrains the user only in permissive mode (the global mode, or
 * every policy of the user's "mode permissive;"), the call goes on, and
 * its record says so.
 *
 * Return: -EACCES when an enforcing policy restrains the subject's uid,
 * else 0.  Audited whenever a policy restrains it.
 */
int pfsel_refuse_unruled(const struct pfsel_subject *const subject,
			 struct pfsel_refused *const refused)
{
	const int mode = pfsel_policy_restraint(subject->uid, &refused->slot);

	if (mode < 0)
		return 0;
	refused->permissive = mode != PFSEL_MODE_ENFORCING ||
			      !pfsel_enforcing();
	pfsel_audit_refusal(subject, refused);
	return refused->permissive ? 0 : -EACCES;
}

/* pfsel_refuse_unruled() for the calling task. */
static int refuse_current(struct pfsel_refused *const refused)
{
	const struct pfsel_subject subject = pfsel_current_subject();

	return pfsel_refuse_unruled(&subject, refused);
}

/* socket() of a family whose peers no rule can name (@family, by name). */
static int refuse_family(const char *const family)
{
	struct pfsel_refused refused = {
		.what = PFSEL_REFUSED_FAMILY,
		.op = pfsel_op_names[PFSEL_OP_CREATE],
		.family = family,
	};

	return refuse_current(&refused);
}

/* A socket option that no rule can allow, on an inet socket @sk. */
static int refuse_option(const struct sock *const sk,
			 const enum pfsel_refusal what)
{
	struct pfsel_request request;
	struct pfsel_refused refused = {
		.what = what,
		.op = "setsockopt",
		.request = &request,
	};

	if (pfsel_classify_ends(sk, &request))
		return 0;
	return refuse_current(&refused);
}

/**
 * pfsel_refuse_send - Refuse a send what no rule can allow
 * @sk: the socket sent on
 * @msg: the send
 * @what: enum pfsel_refusal: what in the send is refused
 *
 * The record names the socket's local end and the send's destination: the
 * address the send names, or the socket's peer.
 *
 * Return: as pfsel_refuse_unruled().
 */
int pfsel_refuse_send(const struct sock *const sk,
		      const struct msghdr *const msg,
		      const enum pfsel_refusal what)
{
	struct pfsel_request request;
	struct pfsel_refused refused = {
		.what = what,
		.op = "sendmsg",
	};

	if (!pfsel_classify_sendmsg(sk, msg, &request) ||
	    !pfsel_classify_ends(sk, &request))
		refused.request = &request;
	return refuse_current(&refused);
}

static int hook_socket_create(const int family, const int type,
			      const int protocol, const int kern)
{
	struct pfsel_request request;
	const char *unruled = NULL;
	int err = 0;
	u64 start;

	/* Sockets the kernel makes for itself are not a process's access. */
	if (kern)
		return 0;
	/* With no policy loaded, only count: pfsel is inert. */
	if (!pfsel_policy_any()) {
		pfsel_count_hook(PFSEL_HOOK_SOCKET_CREATE);
		return 0;
	}
	start = pfsel_hook_enter();
	err = pfsel_classify_create(family, type, protocol, &request);
	if (err == PFSEL_NOT_REQUEST)
		unruled = pfsel_classify_family_unruled(family);
	if (unruled)
		err = refuse_family(unruled);
	else
		err = decide_classified(err, &request);
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_CREATE, start);
	return err;
}

static int hook_socket_post_create(struct socket *const sock, const int family,
				   const int type, const int protocol,
				   const int kern)
{
	const struct cred *const cred = current_cred();
	struct pfsel_sock_security *ss;

	if (kern || !sock->sk)
		return 0;
	ss = pfsel_sock(sock->sk);
	ss->app = pfsel_app_get(pfsel_cred(cred)->app);
	ss->uid = cred->uid;
	ss->governed = true;
	return 0;
}

static void hook_sk_clone_security(const struct sock *const sk,
				   struct sock *const newsk)
{
	const struct pfsel_sock_security *const old = pfsel_sock(sk);
	struct pfsel_sock_security *const new = pfsel_sock(newsk);

	/* SCTP's peeloff clones onto a socket that already has an owner. */
	pfsel_app_put(new->app);
	new->app = pfsel_app_get(old->app);
	new->uid = old->uid;
	new->governed = old->governed;
}

static void hook_sk_free_security(struct sock *const sk)
{
	pfsel_app_put(pfsel_sock(sk)->app);
	pfsel_resolver_sock_free(sk);
}

static int hook_socket_bind(struct socket *const sock,
			    struct sockaddr *const address, const int addrlen)
{
	struct pfsel_request request;
	int err = 0;
	u64 start;

	/* With no policy loaded, only count: pfsel is inert. */
	if (!pfsel_policy_any()) {
		pfsel_count_hook(PFSEL_HOOK_SOCKET_BIND);
		return 0;
	}
	start = pfsel_hook_enter();
	err = decide_classified(pfsel_classify_bind(sock->sk, address, addrlen,
						    &request),
				&request);
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_BIND, start);
	return err;
}

/*
 * A connect(): a TCP or UDP peer is looked for in the recent allows first
 * by itself (classify_peer.h), the call classified whole only when its
 * prefix's allow is not there.
 */
static __always_inline int decide_connect(const struct sock *const sk,
					  const struct sockaddr *const address,
					  const int addrlen,
					  struct pfsel_request *const request)
{
	u64 epoch;

	if (!pfsel_classify_peer(sk, address, addrlen, false, request))
		return decide_classified(pfsel_classify_connect(sk, address,
								addrlen,
								request),
					 request);
	if (pfsel_current_allowed_at_once(request, &epoch))
		return 0;
	return decide_classified_fully(pfsel_classify_connect(sk, address,
							      addrlen, request),
				       request, epoch);
}

static int hook_socket_connect(struct socket *const sock,
			       struct sockaddr *const address,
			       const int addrlen)
{
	/* Read only once a classifier has filled what it reads. */
	struct pfsel_request request __uninitialized;
	int err = 0;
	u64 start;

	/* With no policy loaded, only count: pfsel is inert. */
	if (!pfsel_policy_any()) {
		pfsel_count_hook(PFSEL_HOOK_SOCKET_CONNECT);
		return 0;
	}
	start = pfsel_hook_enter();
	err = decide_connect(sock->sk, address, addrlen, &request);
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_CONNECT, start);
	return err;
}

static int hook_socket_listen(struct socket *const sock, const int backlog)
{
	struct pfsel_request request;
	int err = 0;
	u64 start;

	/* With no policy loaded, only count: pfsel is inert. */
	if (!pfsel_policy_any()) {
		pfsel_count_hook(PFSEL_HOOK_SOCKET_LISTEN);
		return 0;
	}
	start = pfsel_hook_enter();
	err = decide_classified(pfsel_classify_listen(sock->sk, &request),
				&request);
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_LISTEN, start);
	return err;
}

static int hook_socket_accept(struct socket *const sock,
			      struct socket *const newsock)
{
	pfsel_count_hook(PFSEL_HOOK_SOCKET_ACCEPT);
	return 0;
}

/*
 * A raw socket that sends its own IP header: the packet goes where that
 * header says, whatever address the send names.  The header is read from
 * the message here, before the protocol copies it.
 */
static int decide_hdrincl(struct socket *const sock, struct msghdr *const msg)
{
	const size_t len = pfsel_classify_hdrincl_len(sock->sk);
	struct pfsel_request request;
	struct iov_iter iter;
	u8 hdr[sizeof(struct ipv6hdr)];
	size_t got;

	if (!len)
		return 0;
	iter = msg->msg_iter;
	got = copy_from_iter(hdr, len, &iter);
	return decide_classified(pfsel_classify_hdrincl(sock->sk, hdr, got,
							&request),
				 &request);
}

/* A send's destination: a UDP peer first by itself, as decide_connect()'s. */
static __always_inline int decide_send(const struct sock *const sk,
				       const struct msghdr *const msg,
				       struct pfsel_request *const request)
{
	u64 epoch;

	if (!pfsel_classify_peer(sk, msg->msg_name, msg->msg_namelen, true,
				 request))
		return decide_classified(pfsel_classify_sendmsg(sk, msg,
								request),
					 request);
	if (pfsel_current_allowed_at_once(request, &epoch))
		return 0;
	return decide_classified_fully(pfsel_classify_sendmsg(sk, msg, request),
				       request, epoch);
}

static int hook_socket_sendmsg(struct socket *const sock,
			       struct msghdr *const msg, const int size)
{
	/*
	 * Read only once pfsel_classify_sendmsg() has cleared and filled it:
	 * the compiler's clearing of every stack variable would clear it
	 * twice on every addressed send.
	 */
	struct pfsel_request request __uninitialized;
	int err = 0;
	u64 start;

	/* A resolver's DNS query, whose answer may teach host names. */
	if (pfsel_resolvers_named())
		pfsel_resolver_note_send(sock, msg);
	/*
	 * Only a send that names its destination, routes itself, or writes
	 * its own IP header reaches a peer that connect() did not already
	 * check.  (Unix sockets pass descriptors in control messages, and
	 * route nothing.)
	 */
	if ((!msg->msg_name || !msg->msg_namelen) && sock->type != SOCK_RAW &&
	    (!msg->msg_controllen || sock->ops->family == PF_UNIX))
		return 0;
	/* With no policy loaded, only count: pfsel is inert. */
	if (!pfsel_policy_any()) {
		pfsel_count_hook(PFSEL_HOOK_SOCKET_SENDMSG);
		return 0;
	}
	start = pfsel_hook_enter();
	if (msg->msg_controllen) {
		const enum pfsel_refusal route = pfsel_classify_route_cmsg(msg);

		if (route != PFSEL_NOT_REFUSED)
			err = pfsel_refuse_send(sock->sk, msg, route);
	}
	if (!err && msg->msg_name && msg->msg_namelen)
		err = decide_send(sock->sk, msg, &request);
	if (!err && msg->msg_controllen)
		err = pfsel_decide_sctp_dstaddrs(sock->sk, msg);
	if (!err && sock->type == SOCK_RAW)
		err = decide_hdrincl(sock, msg);
	pfsel_hook_exit(PFSEL_HOOK_SOCKET_SENDMSG, start);
	return err;
}

/*
 * An option that sets a source route, on any socket, by a process a
 * policy restrains.  Checked when it is set, since every later packet of
 * the socket (a connected TCP socket's too) follows it.
 */
static int hook_socket_setsockopt(struct socket *const sock, const int level,
				  const int optname)
{
	enum pfsel_refusal route;

	if (!pfsel_policy_any() || !sock->sk)
		return 0;
	route = pfsel_classify_route_option(level, optname);
	return route == PFSEL_NOT_REFUSED ? 0 : refuse_option(sock->sk, route);
}

static int hook_inet_conn_request(const struct sock *const sk,
				  struct sk_buff *const skb,
				  struct request_sock *const req)
{
	const struct pfsel_sock_security *const ss = pfsel_sock(sk);
	struct pfsel_request request;
	int err = 0;
	u64 start;

	if (!pfsel_policy_any() || !ss->governed) {
		pfsel_count_hook(PFSEL_HOOK_INET_CONN_REQUEST);
		return 0;
	}
	start = pfsel_hook_enter();
	if (!pfsel_classify_conn_request(sk, skb, &request))
		err = pfsel_decide_sock_owner(ss, &request);
	pfsel_hook_exit(PFSEL_HOOK_INET_CONN_REQUEST, start);
	return err;
}

static struct security_hook_list pfsel_net_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(socket_create, hook_socket_create),
	LSM_HOOK_INIT(socket_post_create, hook_socket_post_create),
	LSM_HOOK_INIT(sk_clone_security, hook_sk_clone_security),
	LSM_HOOK_INIT(sk_free_security, hook_sk_free_security),
	LSM_HOOK_INIT(socket_bind, hook_socket_bind),
	LSM_HOOK_INIT(socket_connect, hook_socket_connect),
	LSM_HOOK_INIT(socket_listen, hook_socket_listen),
	LSM_HOOK_INIT(socket_accept, hook_socket_accept),
	LSM_HOOK_INIT(socket_sendmsg, hook_socket_sendmsg),
	LSM_HOOK_INIT(socket_setsockopt, hook_socket_setsockopt),
	LSM_HOOK_INIT(inet_conn_request, hook_inet_conn_request),
};

__init void pfsel_add_net_hooks(void)
{
	security_add_hooks(pfsel_net_hooks, ARRAY_SIZE(pfsel_net_hooks),
			   &pfsel_lsmid);
}
