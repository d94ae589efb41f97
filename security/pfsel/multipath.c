// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Protocols with more than one path: MPTCP and SCTP
 *
 * A TCP or UDP socket talks to the one peer that connect(), accept() or
 * an addressed send decided.  MPTCP and SCTP do not: an MPTCP connection
 * carries its data over subflows that the kernel adds later, to other
 * addresses, and that peers join from other addresses; an SCTP
 * association has a list of addresses at each end, which sctp_bindx(),
 * sctp_connectx(), options, control messages and the peer itself extend.
 * The socket hooks of net.c see none of that, so these hooks decide each
 * address (LANGUAGE.md, section 6):
 *
 *  - an MPTCP subflow that a peer joins is an accept, by the owner of the
 *    connection it joins, from the peer's address, whichever listener the
 *    join came through;
 *  - an MPTCP subflow that the kernel would open later (the path manager,
 *    to an address the peer announced or an endpoint) is refused to a
 *    restrained owner: its destination is set after any hook has run, so
 *    no rule can be checked against it;
 *  - every address of sctp_bindx() is a bind and of sctp_connectx(), of
 *    SCTP_PRIMARY_ADDR and of a send's SCTP_DSTADDRV4/V6 (which the
 *    socket_sendmsg hook hands here) a connect; the local address
 *    SCTP_SET_PEER_PRIMARY_ADDR offers the peer is a bind;
 *    an address the peer adds or makes primary (ASCONF) is a connect by
 *    the owner; each association a peer opens to a listening socket is an
 *    accept by the owner, from the peer's address.
 *
 * What is still not decided: the addresses a peer lists in its INIT or
 * INIT ACK (docs/THREAT-MODEL.md).
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>
#include <linux/socket.h>
#include <linux/sctp.h>
#include <net/inet_sock.h>
#include <net/sctp/structs.h>
#include <net/sock.h>
#include <net/tcp_states.h>

#include "app.h"
#include "audit.h"
#include "classify.h"
#include "decide.h"
#include "names.h"
#include "net.h"
#include "policy.h"
#include "setup.h"

/*
 * A new MPTCP subflow of the connection @sk.  mptcp_subflow_create_socket()
 * calls this for every subflow the kernel opens, and mptcp_finish_join()
 * (pfsel-integration.patch) for every subflow a peer joins.  Either way
 * the subflow is a socket of the kernel's that carries the connection's
 * data, so it belongs to the connection's owner first.
 */
static int hook_mptcp_add_subflow(struct sock *const sk, struct sock *const ssk)
{
	const struct pfsel_sock_security *const owner = pfsel_sock(sk);
	struct pfsel_sock_security *const sub = pfsel_sock(ssk);
	struct pfsel_request request;
	struct pfsel_refused refused = {
		.what = PFSEL_REFUSED_MPTCP_SUBFLOW,
		.op = pfsel_op_names[PFSEL_OP_CONNECT],
	};
	struct pfsel_subject subject;

	pfsel_app_put(sub->app);
	sub->app = pfsel_app_get(owner->app);
	sub->uid = owner->uid;
	sub->governed = owner->governed;

	if (!owner->governed || !pfsel_policy_any())
		return 0;
	/* Joined by a peer: its SYN is in, the peer known. */
	if (inet_sk_state_load(ssk) != TCP_CLOSE) {
		if (pfsel_classify_joined_subflow(ssk, &request))
			return 0;
		return pfsel_decide_sock_owner(owner, &request);
	}
	/*
	 * The first subflow is made before the connection connects or
	 * listens, and connect() and listen() decide for it; a subflow of a
	 * connection that is under way is the path manager's.  Its record
	 * names the connection's ends: the subflow has none yet.  It is the
	 * owner's, whichever task (a worker, a path manager daemon) runs.
	 */
	if (inet_sk_state_load(sk) == TCP_CLOSE)
		return 0;
	subject = (struct pfsel_subject){
		.app = owner->app,
		.uid = owner->uid,
		.task = false,
	};
	if (!pfsel_classify_ends(sk, &request))
		refused.request = &request;
	return pfsel_refuse_unruled(&subject, &refused);
}

/*
 * The size of the next address in a packed SCTP address list, as
 * sctp_bind_connect()'s callers walk it (sctp_setsockopt_bindx() and the
 * rest check each family and length before the hook), or 0 when what is
 * left holds none.
 */
static int sctp_next_addr_len(const struct sockaddr *addr, int left)
{
	int len;

	if (left < (int)offsetofend(struct sockaddr, sa_family))
		return 0;
	switch (addr->sa_family) {
	case AF_INET:
		len = sizeof(struct sockaddr_in);
		break;
	case AF_INET6:
		len = sizeof(struct sockaddr_in6);
		break;
	default:
		return 0;
	}
	return len <= left ? len : 0;
}

/* Every address of an SCTP option is a bind or a connect by its caller. */
static int hook_sctp_bind_connect(struct sock *const sk, const int optname,
				  struct sockaddr *const address,
				  const int addrlen)
{
	struct pfsel_request request;
	bool peer = false, bind = false;
	int offset = 0, len, err;

	if (!pfsel_policy_any())
		return 0;
	switch (optname) {
	case SCTP_SOCKOPT_BINDX_ADD:
	case SCTP_SET_PEER_PRIMARY_ADDR:
		bind = true;
		break;
	case SCTP_SOCKOPT_CONNECTX:
	case SCTP_PRIMARY_ADDR:
	case SCTP_SENDMSG_CONNECT:
		break;
	case SCTP_PARAM_ADD_IP:
	case SCTP_PARAM_SET_PRIMARY:
		/* The peer's ASCONF, in softirq: for the socket's owner. */
		peer = true;
		break;
	default:
		return 0;
	}

	while (offset < addrlen) {
		struct sockaddr *const addr = (void *)address + offset;

		len = sctp_next_addr_len(addr, addrlen - offset);
		if (!len)
			return -EINVAL;
		if (bind)
			err = pfsel_classify_bind(sk, addr, len, &request);
		else
			err = pfsel_classify_connect(sk, addr, len, &request);
		if (err < 0)
			return err;
		if (!err) {
			if (peer)
				err = pfsel_decide_sock_owner(pfsel_sock(sk),
							      &request);
			else
				err = pfsel_decide_current(&request);
			if (err)
				return err;
		}
		offset += len;
	}
	return 0;
}

/**
 * pfsel_decide_sctp_dstaddrs - Decide the peers a send's control messages add
 * @sk: the socket sent on
 * @msg: the send, its control messages in kernel memory
 *
 * A send that opens an SCTP association adds every SCTP_DSTADDRV4 and
 * SCTP_DSTADDRV6 address of its control messages to the new association
 * (sctp_sendmsg_new_asoc()), with no hook of its own: each is a connect by
 * the sender.  Control messages a caller left in user memory cannot be
 * read here, and fail closed, as source routes do.
 *
 * Return: 0 when every address is allowed or @sk is not SCTP; otherwise
 * the first refusal.
 */
int pfsel_decide_sctp_dstaddrs(const struct sock *sk, const struct msghdr *msg)
{
	union {
		struct sockaddr sa;
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} addr;
	struct pfsel_request request;
	struct msghdr m = *msg;
	struct cmsghdr *cmsg;
	int len, err;

	if (!msg->msg_controllen || READ_ONCE(sk->sk_protocol) != IPPROTO_SCTP)
		return 0;
	if (msg->msg_control_is_user)
		return pfsel_refuse_send(sk, msg, PFSEL_REFUSED_UNREAD_CONTROL);
	for_each_cmsghdr(cmsg, &m) {
		if (!CMSG_OK(&m, cmsg))
			break;
		if (cmsg->cmsg_level != IPPROTO_SCTP)
			continue;
		memset(&addr, 0, sizeof(addr));
		/* sctp_msghdr_parse() refuses any other length. */
		if (cmsg->cmsg_type == SCTP_DSTADDRV4 &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(struct in_addr))) {
			addr.v4.sin_family = AF_INET;
			memcpy(&addr.v4.sin_addr, CMSG_DATA(cmsg),
			       sizeof(struct in_addr));
			len = sizeof(addr.v4);
		} else if (cmsg->cmsg_type == SCTP_DSTADDRV6 &&
			   cmsg->cmsg_len == CMSG_LEN(sizeof(struct in6_addr))) {
			addr.v6.sin6_family = AF_INET6;
			memcpy(&addr.v6.sin6_addr, CMSG_DATA(cmsg),
			       sizeof(struct in6_addr));
			len = sizeof(addr.v6);
		} else {
			continue;
		}
		err = pfsel_classify_connect(sk, &addr.sa, len, &request);
		if (err < 0)
			return err;
		if (!err) {
			err = pfsel_decide_current(&request);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * A peer opens an association with a listening SCTP socket: an accept,
 * per peer, as an inbound TCP connection is.
 */
static int hook_sctp_assoc_request(struct sctp_association *const asoc,
				   struct sk_buff *const skb)
{
	struct sock *const sk = asoc->base.sk;
	struct pfsel_request request;

	if (!pfsel_policy_any())
		return 0;
	if (pfsel_classify_conn_request(sk, skb, &request))
		return 0;
	return pfsel_decide_sock_owner(pfsel_sock(sk), &request);
}

static struct security_hook_list pfsel_multipath_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(mptcp_add_subflow, hook_mptcp_add_subflow),
	LSM_HOOK_INIT(sctp_bind_connect, hook_sctp_bind_connect),
	LSM_HOOK_INIT(sctp_assoc_request, hook_sctp_assoc_request),
};

__init void pfsel_add_multipath_hooks(void)
{
	security_add_hooks(pfsel_multipath_hooks,
			   ARRAY_SIZE(pfsel_multipath_hooks), &pfsel_lsmid);
}
