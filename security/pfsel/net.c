// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Network hooks
 *
 * Every way a process reaches the network meets one of these hooks:
 * socket() meets socket_create, bind() socket_bind, connect() (including
 * io_uring's) socket_connect, listen() socket_listen, accept()
 * socket_accept, and a send that names its destination (an unconnected
 * sendto(), TCP Fast Open) socket_sendmsg.  An inbound connection request
 * meets inet_conn_request, in softirq context, where nothing may wait.
 *
 * Every hook allows for now; each counts the calls it checks.
 */

#include <linux/lsm_hooks.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/request_sock.h>
#include <net/sock.h>

#include "common.h"
#include "net.h"
#include "setup.h"
#include "stats.h"

static int hook_socket_create(const int family, const int type,
			      const int protocol, const int kern)
{
	/* Sockets the kernel makes for itself are not a process's access. */
	if (kern)
		return 0;
	pfsel_count_hook(PFSEL_HOOK_SOCKET_CREATE);
	return 0;
}

static int hook_socket_bind(struct socket *const sock,
			    struct sockaddr *const address, const int addrlen)
{
	pfsel_count_hook(PFSEL_HOOK_SOCKET_BIND);
	return 0;
}

static int hook_socket_connect(struct socket *const sock,
			       struct sockaddr *const address,
			       const int addrlen)
{
	pfsel_count_hook(PFSEL_HOOK_SOCKET_CONNECT);
	return 0;
}

static int hook_socket_listen(struct socket *const sock, const int backlog)
{
	pfsel_count_hook(PFSEL_HOOK_SOCKET_LISTEN);
	return 0;
}

static int hook_socket_accept(struct socket *const sock,
			      struct socket *const newsock)
{
	pfsel_count_hook(PFSEL_HOOK_SOCKET_ACCEPT);
	return 0;
}

static int hook_socket_sendmsg(struct socket *const sock,
			       struct msghdr *const msg, const int size)
{
	/*
	 * Only a send that names its destination reaches a peer that
	 * connect() did not already check.
	 */
	if (!msg->msg_name || !msg->msg_namelen)
		return 0;
	pfsel_count_hook(PFSEL_HOOK_SOCKET_SENDMSG);
	return 0;
}

static int hook_inet_conn_request(const struct sock *const sk,
				  struct sk_buff *const skb,
				  struct request_sock *const req)
{
	pfsel_count_hook(PFSEL_HOOK_INET_CONN_REQUEST);
	return 0;
}

static struct security_hook_list pfsel_net_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(socket_create, hook_socket_create),
	LSM_HOOK_INIT(socket_bind, hook_socket_bind),
	LSM_HOOK_INIT(socket_connect, hook_socket_connect),
	LSM_HOOK_INIT(socket_listen, hook_socket_listen),
	LSM_HOOK_INIT(socket_accept, hook_socket_accept),
	LSM_HOOK_INIT(socket_sendmsg, hook_socket_sendmsg),
	LSM_HOOK_INIT(inet_conn_request, hook_inet_conn_request),
};

__init void pfsel_add_net_hooks(void)
{
	security_add_hooks(pfsel_net_hooks, ARRAY_SIZE(pfsel_net_hooks),
			   &pfsel_lsmid);
}
