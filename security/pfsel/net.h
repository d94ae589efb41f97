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
#include "setup.h"

/**
 * struct pfsel_sock_security - pfsel's part of a socket
 *
 * @app: application identity of the process that created the socket.
 * @uid: real uid of that process.
 * @governed: a process created the socket; sockets the kernel makes for
 *            itself (and their children) are not governed.
 *
 * An inbound connection is decided in softirq, where no process is at
 * hand: the listening socket says whose it is.
 */
struct pfsel_sock_security {
	struct pfsel_app *app;
	kuid_t uid;
	bool governed;
};

static inline struct pfsel_sock_security *pfsel_sock(const struct sock *sk)
{
	return sk->sk_security + pfsel_blob_sizes.lbs_sock;
}

__init void pfsel_add_net_hooks(void);

#endif /* _SECURITY_PFSEL_NET_H */
