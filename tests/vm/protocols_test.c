// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the protocols Debian's kernel opens to every user
 * (issue 14, item 2, "protocols"): MPTCP, SCTP, the socket families that
 * reach IP peers through sockets of the kernel's own, vsock, AF_XDP,
 * AF_PPPOX and kTLS, each decided as policy/LANGUAGE.md says.
 *
 * pfuser1 runs under policies/protocols_1001.pfw, which allows one peer,
 * 127.0.0.1, and denies the rest; policies/protocols_open_1001.pfw (allow
 * everything, enforcing) is the control that shows an attack works where
 * a policy allows it, and that what no rule can allow stays refused to a
 * restrained user.  pfuser2 (uid 1002) and root have no policy: the
 * unrestrained controls.  Peers belong to root.
 *
 * 1. MPTCP is tcp: connect allowed and denied (EACCES); a listener of
 *    pfuser1 accepts from 127.0.0.1 and not from 127.0.0.3.
 * 2. MPTCP subflows.  Root configures the in-kernel path manager (generic
 *    netlink "mptcp_pm": limits, an endpoint 127.0.0.3 with the subflow
 *    flag) and restores it after.  (a) A join from 127.0.0.3 to a
 *    connection of pfuser1, whose policy accepts from 127.0.0.1 only, is
 *    refused: no subflow from 127.0.0.3 at the server, mptcpi_subflows 0,
 *    data still flows; under the open policy the join is taken.  So is a
 *    join through the path manager's own listener (a signal endpoint,
 *    127.0.0.4:7710) on a port the policy does not accept on, which no
 *    listener of pfuser1's sees: it is decided where the subflow joins
 *    the connection (mptcp_finish_join()).  (b) The
 *    subflow the path manager would open later for a connection of
 *    pfuser1 (restrained, under either policy) is refused; for pfuser2's
 *    (unrestrained) it is opened and joined.
 * 3. SCTP is raw, every address decided: connect, sctp_connectx(), a
 *    sendmsg() msg_name, an SCTP_DSTADDRV4 control message and
 *    SCTP_PRIMARY_ADDR to 127.0.0.2 are refused (EACCES), sctp_bindx() of
 *    a local address the policy does not let it bind too; an association
 *    from 127.0.0.3 to a listener of pfuser1 is not established.  Each
 *    with its control (the allowed address, pfuser2, the open policy).
 * 4. Families: AF_SMC, AF_RDS, AF_RXRPC and AF_TIPC are refused (EACCES)
 *    to a restrained user whatever the rules, not to an unrestrained one;
 *    AF_XDP and AF_PPPOX are packet (refused unless allowed); AF_VSOCK is
 *    not governed; the kTLS ULP attaches to an allowed TCP connection.
 *
 * What no rule decides is audited as a denial with what was refused: the
 * path manager's subflow (refused=mptcp-subflow, with the connection's
 * ends and its owner's uid) and each family (refused=family, family=
 * its name), and never for an unrestrained user (the controls); the SCTP
 * addresses are decisions, recorded as any denial is.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <linux/mptcp.h>
#include <linux/sctp.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <sys/mman.h>
#include <sys/un.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#ifndef SOL_MPTCP
#define SOL_MPTCP 284
#endif
#ifndef SOL_SCTP
#define SOL_SCTP 132
#endif

#define POLICY "protocols_1001"
#define POLICY_OPEN "protocols_open_1001"

/* The peer the policy allows, one it denies, a source it does not accept. */
#define ALLOWED "127.0.0.1"
#define DENIED "127.0.0.2"
#define STRANGER "127.0.0.3"
/* Local addresses for sctp_bindx(): denied, allowed. */
#define BIND_DENIED "127.0.0.4"
#define BIND_ALLOWED "127.0.0.5"

#define MPTCP_PORT 7701 /* root's MPTCP listener: connect allowed */
#define MPTCP_PORT_DENIED 7702 /* root's MPTCP listener: connect denied */
#define MPTCP_PORT_OWN 7703 /* pfuser1's MPTCP listener */
#define SCTP_PORT 7801 /* root's SCTP stream listener, .1 and .2 */
#define SCTP_PORT_SEQ 7802 /* root's SCTP one-to-many socket, .1 and .2 */
#define SCTP_PORT_OWN 7803 /* pfuser1's SCTP listener */
#define TLS_PORT 7901 /* root's TCP listener, for kTLS */

/* How long a connection whose first packet is dropped is given. */
#define DROP_WAIT_MS 1500
/* How long the path manager is watched for a subflow that must not come. */
#define JOIN_DENY_MS 4000
/* How long a subflow that must come is waited for. */
#define JOIN_WAIT_MS 10000

/* Exit status of a child whose setup (not the call tested) failed. */
#define SETUP_FAILED 120

/* ---- descriptors made by another user --------------------------------- */

/*
 * Run @fn(@arg) in a child that has become @uid, and take the descriptor
 * it returns (or its -errno): the socket keeps the owner that made it
 * (pfuser1 and its application), and root goes on with it here.
 */
static int fd_as(uid_t uid, int (*fn)(const void *), const void *arg)
{
	int sv[2], fd;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -EAGAIN;
	}
	if (pid == 0) {
		close(sv[0]);
		if (pfsel_send_fd(sv[1], pfsel_become(uid) ? -EPERM : fn(arg)))
			_exit(SETUP_FAILED);
		_exit(0);
	}
	close(sv[1]);
	fd = pfsel_recv_fd(sv[0]);
	close(sv[0]);
	pfsel_wait_status(pid);
	return fd;
}

/* ---- sockets ------------------------------------------------------------ */

static socklen_t inet_addr_of(const char *text, unsigned short port,
			      struct sockaddr_in *in)
{
	memset(in, 0, sizeof(*in));
	in->sin_family = AF_INET;
	in->sin_port = htons(port);
	inet_pton(AF_INET, text, &in->sin_addr);
	return sizeof(*in);
}

/* What a socket is to make: protocol, type, a source, a destination. */
struct sock_spec {
	int type; /* SOCK_STREAM or SOCK_SEQPACKET */
	int protocol; /* IPPROTO_MPTCP, IPPROTO_TCP, IPPROTO_SCTP */
	const char *src; /* bind to it first (port 0), or NULL */
	const char *dst; /* connect to it, or listen on it */
	unsigned short port;
	bool nonblock; /* connect without waiting */
};

/* A listener on @s->dst:@s->port: the descriptor, or -errno. */
static int make_listener(const void *arg)
{
	const struct sock_spec *s = arg;
	struct sockaddr_in in;
	const int one = 1;
	int fd, err;

	fd = socket(AF_INET, s->type | SOCK_CLOEXEC, s->protocol);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&in,
		 inet_addr_of(s->dst, s->port, &in)) ||
	    listen(fd, 16)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * A client connected (or, nonblocking, connecting) from @s->src to
 * @s->dst:@s->port: the descriptor, or -errno of the connect().
 */
static int make_client(const void *arg)
{
	const struct sock_spec *s = arg;
	struct sockaddr_in in;
	int fd, err;

	fd = socket(AF_INET,
		    s->type | SOCK_CLOEXEC | (s->nonblock ? SOCK_NONBLOCK : 0),
		    s->protocol);
	if (fd < 0)
		return -errno;
	if (s->src &&
	    bind(fd, (struct sockaddr *)&in, inet_addr_of(s->src, 0, &in))) {
		close(fd);
		return -ENOTRECOVERABLE;
	}
	if (connect(fd, (struct sockaddr *)&in,
		    inet_addr_of(s->dst, s->port, &in)) &&
	    !(s->nonblock && errno == EINPROGRESS)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* Whether the connecting @fd connects within @ms. */
static bool connected_within(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = -1;

	if (poll(&pfd, 1, ms) != 1)
		return false;
	return getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 &&
	       err == 0;
}

/* The next connection of @listener, waiting up to @ms: fd or -errno. */
static int accept_within(int listener, int ms)
{
	struct pollfd pfd = { .fd = listener, .events = POLLIN };
	int fd;

	if (poll(&pfd, 1, ms) != 1)
		return -EAGAIN;
	fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

/* Read @n bytes from @fd within @ms. */
static bool recv_within(int fd, size_t n, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[256];
	ssize_t len;

	while (n > 0) {
		long long left = deadline - pfsel_now_ms();

		if (left <= 0 || poll(&pfd, 1, (int)left) != 1)
			return false;
		len = recv(fd, buf, n < sizeof(buf) ? n : sizeof(buf),
			   MSG_DONTWAIT);
		if (len <= 0)
			return false;
		n -= (size_t)len;
	}
	return true;
}

/*
 * A peer that connects from @src to pfuser1's listener @listener (on
 * @dst:@port): whether the connection was established and accepted,
 * checked within DROP_WAIT_MS.  A refused accept drops the SYN (or the
 * SCTP INIT): neither the peer nor the listener sees a connection.
 */
static bool accepted_from(struct __test_metadata *_metadata, int listener,
			  int type, int protocol, const char *src,
			  unsigned short port)
{
	const struct sock_spec s = {
		.type = type,
		.protocol = protocol,
		.src = src,
		.dst = ALLOWED,
		.port = port,
		.nonblock = true,
	};
	int client = make_client(&s), conn;
	bool connected;

	if (client < 0) {
		TH_LOG("the peer from %s could not connect: %s", src,
		       strerror(-client));
		return false;
	}
	connected = connected_within(client, DROP_WAIT_MS);
	conn = accept_within(listener, connected ? 1000 : 0);
	TH_LOG("from %s: the peer %s, the listener %s", src,
	       connected ? "connected" : "did not connect",
	       conn >= 0 ? "accepted" : "had nothing to accept");
	if (conn >= 0)
		close(conn);
	close(client);
	return connected && conn >= 0;
}

/*
 * pfuser1's @protocol listener on ALLOWED:@port (@name, for the log)
 * accepts from the allowed peer and not from STRANGER; the control: under
 * the open policy it accepts from STRANGER too.
 */
static void expect_accepts_from_allowed_only(struct __test_metadata *_metadata,
					     int protocol, unsigned short port,
					     const char *name)
{
	const struct sock_spec s = { .type = SOCK_STREAM,
				     .protocol = protocol,
				     .dst = ALLOWED,
				     .port = port };
	int listener;

	listener = fd_as(PFSEL_UID1, make_listener, &s);
	ASSERT_LE(0, listener)
	{
		TH_LOG("pfuser1's %s listener: %s", name, strerror(-listener));
	}
	EXPECT_TRUE(accepted_from(_metadata, listener, SOCK_STREAM, protocol,
				  ALLOWED, port));
	EXPECT_FALSE(accepted_from(_metadata, listener, SOCK_STREAM, protocol,
				   STRANGER, port));
	close(listener);

	/* The control: the open policy accepts from there. */
	ASSERT_EQ(0, pfsel_load(POLICY_OPEN));
	listener = fd_as(PFSEL_UID1, make_listener, &s);
	ASSERT_LE(0, listener);
	EXPECT_TRUE(accepted_from(_metadata, listener, SOCK_STREAM, protocol,
				  STRANGER, port));
	close(listener);
}

/* ---- MPTCP: the path manager, subflows ----------------------------------- */

/* What a request to the path manager carries. */
struct pm_args {
	uint32_t rcv_add_addrs, subflows; /* SET_LIMITS */
	const char *addr; /* ADD_ADDR: an endpoint, */
	uint32_t flags; /* MPTCP_PM_ADDR_FLAG_SUBFLOW or _SIGNAL, */
	uint16_t port; /* and, for a signal endpoint, a port to listen on */
};

/*
 * One request to the in-kernel path manager (generic netlink family
 * "mptcp_pm"): SET_LIMITS, ADD_ADDR, FLUSH_ADDRS.  0, or a libnl error
 * (negative).
 */
static int pm_request(uint8_t cmd, const struct pm_args *a)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = NULL;
	struct nlattr *nest;
	struct in_addr in;
	int family, err;

	if (!sk)
		return -NLE_NOMEM;
	err = genl_connect(sk);
	if (err)
		goto out;
	family = genl_ctrl_resolve(sk, MPTCP_PM_NAME);
	if (family < 0) {
		err = family;
		goto out;
	}
	msg = nlmsg_alloc();
	err = -NLE_NOMEM;
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, 0,
				 cmd, MPTCP_PM_VER))
		goto out;
	err = -NLE_MSGSIZE;
	switch (cmd) {
	case MPTCP_PM_CMD_SET_LIMITS:
		if (!a ||
		    nla_put_u32(msg, MPTCP_PM_ATTR_RCV_ADD_ADDRS,
				a->rcv_add_addrs) ||
		    nla_put_u32(msg, MPTCP_PM_ATTR_SUBFLOWS, a->subflows))
			goto out;
		break;
	case MPTCP_PM_CMD_ADD_ADDR:
		if (!a)
			goto out;
		inet_pton(AF_INET, a->addr, &in);
		nest = nla_nest_start(msg, MPTCP_PM_ATTR_ADDR | NLA_F_NESTED);
		if (!nest ||
		    nla_put_u16(msg, MPTCP_PM_ADDR_ATTR_FAMILY, AF_INET) ||
		    nla_put(msg, MPTCP_PM_ADDR_ATTR_ADDR4, sizeof(in), &in) ||
		    nla_put_u32(msg, MPTCP_PM_ADDR_ATTR_FLAGS, a->flags) ||
		    (a->port &&
		     nla_put_u16(msg, MPTCP_PM_ADDR_ATTR_PORT, a->port)))
			goto out;
		nla_nest_end(msg, nest);
		break;
	default:
		break;
	}
	/* nl_send_sync() frees the message, and waits for the ack. */
	err = nl_send_sync(sk, msg);
	msg = NULL;
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return err;
}

/* The subflows of MPTCP socket @fd: how many, their addresses. */
struct subflows {
	int count; /* -errno when they could not be read */
	struct mptcp_subflow_addrs addrs[8];
};

static void subflows_read(int fd, struct subflows *out)
{
	struct {
		struct mptcp_subflow_data d;
		struct mptcp_subflow_addrs a[8];
	} buf;
	socklen_t len = sizeof(buf);
	unsigned int n;

	memset(&buf, 0, sizeof(buf));
	buf.d.size_subflow_data = sizeof(buf.d);
	buf.d.size_user = sizeof(buf.a[0]);
	memset(out, 0, sizeof(*out));
	if (getsockopt(fd, SOL_MPTCP, MPTCP_SUBFLOW_ADDRS, &buf, &len)) {
		out->count = -errno;
		return;
	}
	n = buf.d.num_subflows < 8 ? buf.d.num_subflows : 8;
	out->count = (int)buf.d.num_subflows;
	memcpy(out->addrs, buf.a, n * sizeof(buf.a[0]));
}

/* Which subflows to count: by their local or remote address and port. */
struct sf_match {
	bool local; /* look at the local end (else the remote) */
	const char *addr;
	unsigned short port; /* 0: any */
};

/* How many subflows of @fd match @m. */
static int subflows_with(int fd, const struct sf_match *m)
{
	struct subflows sf;
	struct in_addr want;
	int i, count = 0;

	subflows_read(fd, &sf);
	if (sf.count < 0)
		return sf.count;
	inet_pton(AF_INET, m->addr, &want);
	for (i = 0; i < sf.count && i < 8; i++) {
		const struct sockaddr_in *in = m->local ?
						       &sf.addrs[i].sin_local :
						       &sf.addrs[i].sin_remote;

		if (in->sin_family == AF_INET &&
		    in->sin_addr.s_addr == want.s_addr &&
		    (!m->port || ntohs(in->sin_port) == m->port))
			count++;
	}
	return count;
}

/* The addresses of @fd's subflows, as text, for the log. */
static const char *subflows_text(int fd, char *buf, size_t size)
{
	struct subflows sf;
	size_t used = 0;
	int i;

	subflows_read(fd, &sf);
	if (sf.count < 0) {
		snprintf(buf, size, "(%s)", strerror(-sf.count));
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < sf.count && i < 8 && used < size; i++) {
		char l[INET_ADDRSTRLEN] = "?", r[INET_ADDRSTRLEN] = "?";

		inet_ntop(AF_INET, &sf.addrs[i].sin_local.sin_addr, l,
			  sizeof(l));
		inet_ntop(AF_INET, &sf.addrs[i].sin_remote.sin_addr, r,
			  sizeof(r));
		used += (size_t)snprintf(
			buf + used, size - used, "%s%s:%u->%s:%u",
			i ? ", " : "", l, ntohs(sf.addrs[i].sin_local.sin_port),
			r, ntohs(sf.addrs[i].sin_remote.sin_port));
	}
	return buf;
}

/* mptcpi_subflows of @fd (MPTCP_INFO): the subflows added, or -errno. */
static int mptcp_info_subflows(int fd, bool *fallback)
{
	struct mptcp_info info;
	socklen_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (getsockopt(fd, SOL_MPTCP, MPTCP_INFO, &info, &len))
		return -errno;
	if (fallback)
		*fallback = info.mptcpi_flags & MPTCP_INFO_FLAG_FALLBACK;
	return info.mptcpi_subflows;
}

/* A counter of /proc/net/netstat's MPTcpExt lines, or -1. */
static long long mptcp_mib(const char *name)
{
	char buf[16384], *names, *values, *n, *v, *sn, *sv;
	long long value = -1;

	if (pfsel_read_file("/proc/net/netstat", buf, sizeof(buf)) <= 0)
		return -1;
	names = strstr(buf, "MPTcpExt:");
	if (!names)
		return -1;
	values = strstr(names + 1, "MPTcpExt:");
	if (!values)
		return -1;
	names[strcspn(names, "\n")] = '\0';
	values[strcspn(values, "\n")] = '\0';
	n = strtok_r(names, " ", &sn);
	v = strtok_r(values, " ", &sv);
	while (n && v) {
		if (strcmp(n, name) == 0) {
			value = strtoll(v, NULL, 10);
			break;
		}
		n = strtok_r(NULL, " ", &sn);
		v = strtok_r(NULL, " ", &sv);
	}
	return value;
}

/* Send a little data each way between @a and @b: whether it arrived. */
static bool ping_pong(int a, int b)
{
	return send(a, "ping", 4, MSG_NOSIGNAL) == 4 &&
	       recv_within(b, 4, 2000) &&
	       send(b, "pong", 4, MSG_NOSIGNAL) == 4 && recv_within(a, 4, 2000);
}

/* The subflows a path manager's endpoint adds: as the client, the server see them. */
struct sf_watch {
	struct sf_match client, server;
};

/* Subflow endpoint 127.0.0.3: from it at the client, to it at the server. */
static const struct sf_watch from_stranger = {
	.client = { .local = true, .addr = STRANGER },
	.server = { .local = false, .addr = STRANGER },
};

/*
 * Keep data flowing between @client and @server for up to @ms, and watch
 * for the subflows @m describes at each end.  Stops early once
 * @until_seen sees one at both ends.  The most seen at each end.
 */
struct watch {
	int client_max, server_max; /* subflows matched */
	bool flowed; /* every exchange went through */
};

static struct watch watch_subflows(int client, int server,
				   const struct sf_watch *m, int ms,
				   bool until_seen)
{
	const long long deadline = pfsel_now_ms() + ms;
	struct watch w = { .flowed = true };
	int c, s;

	do {
		if (!ping_pong(client, server))
			w.flowed = false;
		c = subflows_with(client, &m->client);
		s = subflows_with(server, &m->server);
		if (c > w.client_max)
			w.client_max = c;
		if (s > w.server_max)
			w.server_max = s;
		if (until_seen && w.client_max > 0 && w.server_max > 0 &&
		    mptcp_info_subflows(client, NULL) > 0 &&
		    mptcp_info_subflows(server, NULL) > 0)
			break;
		usleep(100 * 1000);
	} while (pfsel_now_ms() < deadline);
	return w;
}

/* ---- 1. MPTCP is tcp ------------------------------------------------------ */

FIXTURE(mptcp)
{
	int peer, peer_denied;
};

FIXTURE_SETUP(mptcp)
{
	const struct sock_spec allowed = { .type = SOCK_STREAM,
					   .protocol = IPPROTO_MPTCP,
					   .dst = ALLOWED,
					   .port = MPTCP_PORT };
	const struct sock_spec denied = { .type = SOCK_STREAM,
					  .protocol = IPPROTO_MPTCP,
					  .dst = ALLOWED,
					  .port = MPTCP_PORT_DENIED };

	self->peer = self->peer_denied = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	self->peer = make_listener(&allowed);
	ASSERT_LE(0, self->peer)
	{
		TH_LOG("no MPTCP listener: %s", strerror(-self->peer));
	}
	self->peer_denied = make_listener(&denied);
	ASSERT_LE(0, self->peer_denied);
	ASSERT_EQ(0, pfsel_load(POLICY));
}

FIXTURE_TEARDOWN(mptcp)
{
	if (self->peer >= 0)
		close(self->peer);
	if (self->peer_denied >= 0)
		close(self->peer_denied);
	if (geteuid() == 0)
		pfsel_reset();
}

TEST_F(mptcp, connect_is_tcp)
{
	struct sock_spec s = { .type = SOCK_STREAM,
			       .protocol = IPPROTO_MPTCP,
			       .dst = ALLOWED,
			       .port = MPTCP_PORT };
	bool fallback = true;
	int fd, subflows;

	/* Allowed: connected, and an MPTCP connection (no fallback). */
	fd = fd_as(PFSEL_UID1, make_client, &s);
	ASSERT_LE(0, fd)
	{
		TH_LOG("MPTCP connect to the allowed port: %s", strerror(-fd));
	}
	subflows = mptcp_info_subflows(fd, &fallback);
	EXPECT_LE(0, subflows);
	EXPECT_FALSE(fallback);
	close(fd);
	EXPECT_EQ(1, pfsel_drain(self->peer));

	/* Denied: EACCES, and nothing reaches the listener. */
	s.port = MPTCP_PORT_DENIED;
	fd = fd_as(PFSEL_UID1, make_client, &s);
	EXPECT_EQ(-EACCES, fd);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(0, pfsel_drain(self->peer_denied));

	/* The control: pfuser2, with no policy, connects there. */
	fd = fd_as(PFSEL_UID2, make_client, &s);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(1, pfsel_drain(self->peer_denied));
}

TEST_F(mptcp, listener_accepts_from_allowed_peer_only)
{
	expect_accepts_from_allowed_only(_metadata, IPPROTO_MPTCP,
					 MPTCP_PORT_OWN, "MPTCP");
}

/* ---- 2. MPTCP subflows ----------------------------------------------------- */

FIXTURE(join)
{
	int peer;
	bool pm_set;
	long long join_err0;
};

FIXTURE_SETUP(join)
{
	const struct sock_spec s = { .type = SOCK_STREAM,
				     .protocol = IPPROTO_MPTCP,
				     .dst = ALLOWED,
				     .port = MPTCP_PORT };
	const struct pm_args limits = { .rcv_add_addrs = 4, .subflows = 4 };
	int err;

	self->peer = -1;
	self->pm_set = false;
	if (geteuid() != 0)
		SKIP(return, "the path manager and 1001's policy need root");
	pfsel_reset();
	/*
	 * Up to 4 subflows and 4 announced addresses per connection: both
	 * ends of a connection of this network namespace use its endpoints
	 * (each test adds its own), and both ends count.
	 */
	self->pm_set = true;
	ASSERT_EQ(0, pm_request(MPTCP_PM_CMD_FLUSH_ADDRS, NULL));
	err = pm_request(MPTCP_PM_CMD_SET_LIMITS, &limits);
	ASSERT_EQ(0, err)
	{
		TH_LOG("mptcp_pm SET_LIMITS: %s", nl_geterror(err));
	}
	self->peer = make_listener(&s);
	ASSERT_LE(0, self->peer);
	self->join_err0 = mptcp_mib("MPJoinSynTxCreatSkErr");
}

FIXTURE_TEARDOWN(join)
{
	/* The kernel's defaults: no endpoint, 0 addresses, 2 subflows. */
	const struct pm_args limits = { .rcv_add_addrs = 0, .subflows = 2 };

	if (self->peer >= 0)
		close(self->peer);
	if (geteuid() != 0)
		return;
	if (self->pm_set) {
		pm_request(MPTCP_PM_CMD_FLUSH_ADDRS, NULL);
		pm_request(MPTCP_PM_CMD_SET_LIMITS, &limits);
	}
	pfsel_reset();
}

/* Add the endpoint @addr, @flags, @port to the path manager. */
static void pm_endpoint(struct __test_metadata *_metadata, const char *addr,
			uint32_t flags, uint16_t port)
{
	const struct pm_args a = { .addr = addr, .flags = flags, .port = port };
	const int err = pm_request(MPTCP_PM_CMD_ADD_ADDR, &a);

	ASSERT_EQ(0, err)
	{
		TH_LOG("mptcp_pm ADD_ADDR %s flags %u port %u: %s", addr, flags,
		       port, nl_geterror(err));
	}
}

/*
 * A signal endpoint: the path manager listens on 127.0.0.4:@port (a
 * listener of the kernel's, which no user owns) and announces it to the
 * peer, which joins there: the subflow reaches the connection of pfuser1
 * without reaching pfuser1's listener.  A port per test: the subflows a
 * test closes keep theirs in TIME_WAIT, and the path manager's listener
 * does not reuse it.
 */
#define SIGNAL_ADDR "127.0.0.4"
#define SIGNAL_PORT_REFUSED 7710
#define SIGNAL_PORT_CONTROL 7711

/* At the client, a subflow to the endpoint; at the server, from it. */
static struct sf_watch to_signal(unsigned short port)
{
	const struct sf_watch m = {
		.client = { .local = false, .addr = SIGNAL_ADDR, .port = port },
		.server = { .local = true, .addr = SIGNAL_ADDR, .port = port },
	};

	return m;
}

/*
 * (a) Passive: root connects from 127.0.0.1 to pfuser1's listener, and
 * root's path manager then joins the connection as @m says.  Under
 * @policy the join is @refused, or taken.
 */
static void passive_join(struct __test_metadata *_metadata, const char *policy,
			 const struct sf_watch *m, bool refused)
{
	const struct sock_spec ls = { .type = SOCK_STREAM,
				      .protocol = IPPROTO_MPTCP,
				      .dst = ALLOWED,
				      .port = MPTCP_PORT_OWN };
	const struct sock_spec cs = { .type = SOCK_STREAM,
				      .protocol = IPPROTO_MPTCP,
				      .dst = ALLOWED,
				      .port = MPTCP_PORT_OWN };
	int listener, client, server, info;
	char text[512];
	struct watch w;

	ASSERT_EQ(0, pfsel_load(policy));
	listener = fd_as(PFSEL_UID1, make_listener, &ls);
	ASSERT_LE(0, listener);
	client = make_client(&cs);
	ASSERT_LE(0, client);
	server = accept_within(listener, 2000);
	ASSERT_LE(0, server);

	w = watch_subflows(client, server, m,
			   refused ? JOIN_DENY_MS : JOIN_WAIT_MS, !refused);
	info = mptcp_info_subflows(server, NULL);
	TH_LOG("%s: server subflows [%s], mptcpi_subflows %d; client subflows [%s], mptcpi_subflows %d; data %s",
	       policy, subflows_text(server, text, 256), info,
	       subflows_text(client, text + 256, 256),
	       mptcp_info_subflows(client, NULL),
	       w.flowed ? "flowed" : "stopped");
	if (refused) {
		EXPECT_EQ(0, w.server_max)
		{
			TH_LOG("a subflow joined pfuser1's connection against its policy");
		}
		EXPECT_EQ(0, info);
		EXPECT_TRUE(w.flowed);
		EXPECT_TRUE(ping_pong(client, server));
	} else {
		/* The attack works where a policy allows it. */
		EXPECT_LE(1, w.client_max);
		EXPECT_LE(1, w.server_max);
		EXPECT_LE(1, info);
		EXPECT_TRUE(w.flowed);
	}
	close(client);
	close(server);
	/* Open until now: a join's SYN reaches the listener first. */
	close(listener);
}

/* From 127.0.0.3, which pfuser1's policy does not accept from. */
TEST_F_TIMEOUT(join, passive_join_from_denied_peer_refused, 60)
{
	pm_endpoint(_metadata, STRANGER, MPTCP_PM_ADDR_FLAG_SUBFLOW, 0);
	passive_join(_metadata, POLICY, &from_stranger, true);
}

TEST_F_TIMEOUT(join, passive_join_control_open_policy, 60)
{
	pm_endpoint(_metadata, STRANGER, MPTCP_PM_ADDR_FLAG_SUBFLOW, 0);
	passive_join(_metadata, POLICY_OPEN, &from_stranger, false);
}

/*
 * From 127.0.0.1 through the kernel's listener on port 7710, which
 * pfuser1's policy does not accept on (it accepts on 7703): decided where
 * the subflow joins the connection (mptcp_finish_join()), not by a
 * listener of pfuser1's.
 */
TEST_F_TIMEOUT(join, passive_join_through_kernel_listener_refused, 60)
{
	const struct sf_watch m = to_signal(SIGNAL_PORT_REFUSED);

	pm_endpoint(_metadata, SIGNAL_ADDR, MPTCP_PM_ADDR_FLAG_SIGNAL,
		    SIGNAL_PORT_REFUSED);
	passive_join(_metadata, POLICY, &m, true);
}

TEST_F_TIMEOUT(join, passive_join_through_kernel_listener_control, 60)
{
	const struct sf_watch m = to_signal(SIGNAL_PORT_CONTROL);

	pm_endpoint(_metadata, SIGNAL_ADDR, MPTCP_PM_ADDR_FLAG_SIGNAL,
		    SIGNAL_PORT_CONTROL);
	passive_join(_metadata, POLICY_OPEN, &m, false);
}

/*
 * The records of subflows refused to @uid's connection @client: its
 * local port names it (the subflow has no ends yet, and the path
 * manager's worker no task of the owner's).  pfsel_audit_records().
 */
static int subflow_records(struct __test_metadata *_metadata, int client,
			   uid_t uid, char *last, size_t size)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	char lport[32], uid_field[32];
	const char *const needles[] = { " refused=mptcp-subflow ", " op=connect ",
					lport, uid_field, NULL };
	int n;

	EXPECT_EQ(0, getsockname(client, (struct sockaddr *)&local, &len));
	snprintf(lport, sizeof(lport), " lport=%u ",
		 ntohs(((struct sockaddr_in *)&local)->sin_port));
	snprintf(uid_field, sizeof(uid_field), " uid=%u", uid);
	n = pfsel_audit_records(needles, last, size);
	EXPECT_LE(0, n);
	return n;
}

/*
 * (b) Active: @uid connects to root's listener @listener; the path
 * manager then opens a subflow of that connection from 127.0.0.3.
 */
static void active_subflow(struct __test_metadata *_metadata, int listener,
			   uid_t uid, const char *policy, bool refused,
			   long long join_err0)
{
	const struct sock_spec cs = { .type = SOCK_STREAM,
				      .protocol = IPPROTO_MPTCP,
				      .dst = ALLOWED,
				      .port = MPTCP_PORT };
	int client, server, info, before;
	char text[512], record[4096] = "";
	long long join_err;
	struct watch w;

	pm_endpoint(_metadata, STRANGER, MPTCP_PM_ADDR_FLAG_SUBFLOW, 0);
	if (policy)
		ASSERT_EQ(0, pfsel_load(policy));
	client = fd_as(uid, make_client, &cs);
	ASSERT_LE(0, client)
	{
		TH_LOG("uid %u's MPTCP connect: %s", uid, strerror(-client));
	}
	server = accept_within(listener, 2000);
	ASSERT_LE(0, server);

	before = subflow_records(_metadata, client, uid, NULL, 0);
	w = watch_subflows(client, server, &from_stranger,
			   refused ? JOIN_DENY_MS : JOIN_WAIT_MS, !refused);
	info = mptcp_info_subflows(client, NULL);
	join_err = mptcp_mib("MPJoinSynTxCreatSkErr");
	TH_LOG("uid %u, %s: client subflows [%s], mptcpi_subflows %d; server subflows [%s]; data %s; MPJoinSynTxCreatSkErr +%lld",
	       uid, policy ? policy : "no policy",
	       subflows_text(client, text, 256), info,
	       subflows_text(server, text + 256, 256),
	       w.flowed ? "flowed" : "stopped", join_err - join_err0);
	if (refused) {
		EXPECT_EQ(0, w.client_max)
		{
			TH_LOG("the kernel opened a subflow from %s for a restrained user",
			       STRANGER);
		}
		EXPECT_EQ(0, w.server_max);
		EXPECT_EQ(0, info);
		EXPECT_TRUE(w.flowed);
		EXPECT_TRUE(ping_pong(client, server));
		/* Each refused subflow (the path manager may retry) says so. */
		EXPECT_LT(before, subflow_records(_metadata, client, uid,
						  record, sizeof(record)));
		TH_LOG("%s", record);
		EXPECT_NE(NULL, strstr(record, " verdict=deny "));
		EXPECT_NE(NULL, strstr(record, " permissive=0 policy=user "));
		EXPECT_NE(NULL, strstr(record, " raddr=" ALLOWED " rport=7701 "));
	} else {
		EXPECT_LE(1, w.client_max);
		EXPECT_LE(1, w.server_max);
		EXPECT_LE(1, info);
		EXPECT_TRUE(w.flowed);
		/* The control: the subflow opened, nothing recorded. */
		EXPECT_EQ(before, subflow_records(_metadata, client, uid, NULL,
						  0));
	}
	close(client);
	close(server);
}

TEST_F_TIMEOUT(join, active_subflow_refused_to_restrained_owner, 60)
{
	active_subflow(_metadata, self->peer, PFSEL_UID1, POLICY, true,
		       self->join_err0);
}

/* Whatever the rules: the open policy restrains its user too. */
TEST_F_TIMEOUT(join, active_subflow_refused_under_open_policy, 60)
{
	active_subflow(_metadata, self->peer, PFSEL_UID1, POLICY_OPEN, true,
		       self->join_err0);
}

/* The control: pfuser2, whom no policy restrains, gets the subflow. */
TEST_F_TIMEOUT(join, active_subflow_control_unrestrained, 60)
{
	active_subflow(_metadata, self->peer, PFSEL_UID2, NULL, false,
		       self->join_err0);
}

/* ---- 3. SCTP: every address ---------------------------------------------- */

enum sctp_op {
	SCTP_OP_CONNECT, /* connect() to @a */
	SCTP_OP_CONNECTX, /* sctp_connectx() to @a and, if any, @b */
	SCTP_OP_SENDTO, /* one-to-many: sendmsg() with msg_name @a */
	SCTP_OP_DSTADDR, /* one-to-many: msg_name ALLOWED, SCTP_DSTADDRV4 @a */
	SCTP_OP_PRIMARY, /* connected to ALLOWED: SCTP_PRIMARY_ADDR @a */
	SCTP_OP_BINDX, /* bound to ALLOWED: sctp_bindx() adds @a */
};

struct sctp_case {
	enum sctp_op op;
	const char *a, *b;
};

/* The SCTP request @arg describes: 0, or the errno of the call tested. */
static int sctp_attack(void *arg)
{
	const struct sctp_case *c = arg;
	const bool seq = c->op == SCTP_OP_SENDTO || c->op == SCTP_OP_DSTADDR;
	union {
		char buf[CMSG_SPACE(sizeof(struct in_addr))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = "sctp", .iov_len = 4 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct sockaddr_in to[2];
	struct sctp_prim prim;
	struct cmsghdr *cmsg;
	int fd, err = 0;

	fd = socket(AF_INET,
		    (seq ? SOCK_SEQPACKET : SOCK_STREAM) | SOCK_CLOEXEC,
		    IPPROTO_SCTP);
	if (fd < 0)
		return SETUP_FAILED;
	switch (c->op) {
	case SCTP_OP_CONNECT:
		err = connect(fd, (struct sockaddr *)to,
			      inet_addr_of(c->a, SCTP_PORT, to)) ?
			      errno :
			      0;
		break;
	case SCTP_OP_CONNECTX:
		inet_addr_of(c->a, SCTP_PORT, &to[0]);
		inet_addr_of(c->b ? c->b : c->a, SCTP_PORT, &to[1]);
		err = setsockopt(fd, SOL_SCTP, SCTP_SOCKOPT_CONNECTX, to,
				 (socklen_t)((c->b ? 2 : 1) * sizeof(to[0]))) <
				      0 ?
			      errno :
			      0;
		break;
	case SCTP_OP_SENDTO:
		msg.msg_name = to;
		msg.msg_namelen = inet_addr_of(c->a, SCTP_PORT_SEQ, to);
		err = sendmsg(fd, &msg, 0) < 0 ? errno : 0;
		break;
	case SCTP_OP_DSTADDR:
		msg.msg_name = to;
		msg.msg_namelen = inet_addr_of(ALLOWED, SCTP_PORT_SEQ, to);
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = IPPROTO_SCTP;
		cmsg->cmsg_type = SCTP_DSTADDRV4;
		cmsg->cmsg_len = CMSG_LEN(sizeof(struct in_addr));
		inet_pton(AF_INET, c->a, CMSG_DATA(cmsg));
		err = sendmsg(fd, &msg, 0) < 0 ? errno : 0;
		break;
	case SCTP_OP_PRIMARY:
		if (connect(fd, (struct sockaddr *)to,
			    inet_addr_of(ALLOWED, SCTP_PORT, to))) {
			err = SETUP_FAILED;
			break;
		}
		memset(&prim, 0, sizeof(prim));
		inet_addr_of(c->a, SCTP_PORT, &to[1]);
		memcpy(&prim.ssp_addr, &to[1], sizeof(to[1]));
		err = setsockopt(fd, SOL_SCTP, SCTP_PRIMARY_ADDR, &prim,
				 sizeof(prim)) ?
			      errno :
			      0;
		break;
	case SCTP_OP_BINDX:
		if (bind(fd, (struct sockaddr *)to,
			 inet_addr_of(ALLOWED, 0, to))) {
			err = SETUP_FAILED;
			break;
		}
		inet_addr_of(c->a, 0, &to[1]);
		err = setsockopt(fd, SOL_SCTP, SCTP_SOCKOPT_BINDX_ADD, &to[1],
				 sizeof(to[1])) ?
			      errno :
			      0;
		break;
	}
	close(fd);
	return err;
}

static int sctp_as(uid_t uid, enum sctp_op op, const char *a, const char *b)
{
	struct sctp_case c = { op, a, b };

	return pfsel_run_as(uid, sctp_attack, &c);
}

static const char *status_text(int status)
{
	return status == 0	      ? "done" :
	       status == SETUP_FAILED ? "setup failed" :
					strerror(status);
}

/* Expect @op as @uid to end as @want (0 or an errno); log it either way. */
#define EXPECT_SCTP(want, uid, op, a, b)                                     \
	do {                                                                 \
		int status_ = sctp_as(uid, op, a, b);                        \
		TH_LOG("uid %u, %s %s%s%s: %s", uid, #op, a, b ? " + " : "", \
		       b ? (const char *)b : "", status_text(status_));      \
		EXPECT_EQ(want, status_);                                    \
	} while (0)

/*
 * Root's peers, each bound to 127.0.0.1 and 127.0.0.2 (sctp_bindx()): a
 * one-to-one listener and a one-to-many socket.  An association with
 * either lists both addresses in its INIT ACK.
 */
static int sctp_peer(int type, unsigned short port)
{
	const struct sock_spec s = { .type = type,
				     .protocol = IPPROTO_SCTP,
				     .dst = ALLOWED,
				     .port = port };
	struct sockaddr_in second;
	int fd = make_listener(&s);

	if (fd < 0)
		return fd;
	inet_addr_of(DENIED, port, &second);
	if (setsockopt(fd, SOL_SCTP, SCTP_SOCKOPT_BINDX_ADD, &second,
		       sizeof(second))) {
		close(fd);
		return -ENOTRECOVERABLE;
	}
	return fd;
}

FIXTURE(sctp)
{
	int stream, seq;
};

FIXTURE_SETUP(sctp)
{
	self->stream = self->seq = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	self->stream = sctp_peer(SOCK_STREAM, SCTP_PORT);
	ASSERT_LE(0, self->stream)
	{
		TH_LOG("no SCTP listener: %s", strerror(-self->stream));
	}
	self->seq = sctp_peer(SOCK_SEQPACKET, SCTP_PORT_SEQ);
	ASSERT_LE(0, self->seq);
	ASSERT_EQ(0, pfsel_load(POLICY));
}

FIXTURE_TEARDOWN(sctp)
{
	if (self->stream >= 0)
		close(self->stream);
	if (self->seq >= 0)
		close(self->seq);
	if (geteuid() == 0)
		pfsel_reset();
}

TEST_F(sctp, connect)
{
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_CONNECT, ALLOWED, NULL);
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_CONNECT, DENIED, NULL);
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_CONNECT, DENIED, NULL);
}

TEST_F(sctp, connectx_every_address)
{
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_CONNECTX, ALLOWED, DENIED);
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_CONNECTX, DENIED, ALLOWED);
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_CONNECTX, ALLOWED, NULL);
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_CONNECTX, ALLOWED, DENIED);
}

TEST_F(sctp, sendmsg_to_second_address)
{
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_SENDTO, DENIED, NULL);
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_SENDTO, ALLOWED, NULL);
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_SENDTO, DENIED, NULL);
}

TEST_F(sctp, sendmsg_dstaddr_cmsg)
{
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_DSTADDR, DENIED, NULL);
	/*
	 * The control: pfuser2 adds the address.  (Naming 127.0.0.1 twice,
	 * in msg_name and the control message, is refused by SCTP itself:
	 * EADDRNOTAVAIL, so pfuser1 has no control of its own here.)
	 */
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_DSTADDR, DENIED, NULL);
}

TEST_F(sctp, primary_addr)
{
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_PRIMARY, DENIED, NULL);
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_PRIMARY, ALLOWED, NULL);
	/* 127.0.0.2 is a peer address (the INIT ACK listed it). */
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_PRIMARY, DENIED, NULL);
}

TEST_F(sctp, bindx_every_address)
{
	EXPECT_SCTP(EACCES, PFSEL_UID1, SCTP_OP_BINDX, BIND_DENIED, NULL);
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_BINDX, BIND_ALLOWED, NULL);
	EXPECT_SCTP(0, PFSEL_UID2, SCTP_OP_BINDX, BIND_DENIED, NULL);
}

/*
 * An SCTP address refused is a decision, recorded as any denial is: a
 * connect of the raw protocol to that address, whichever way it was
 * given (sctp_connectx(), a send's SCTP_DSTADDRV4, SCTP_PRIMARY_ADDR).
 * The allowed address leaves no record.
 */
TEST_F_TIMEOUT(sctp, refused_address_is_recorded, PFSEL_AUDIT_TEST_TIMEOUT)
{
	static const enum sctp_op ops[] = { SCTP_OP_CONNECTX, SCTP_OP_DSTADDR,
					    SCTP_OP_PRIMARY };
	char ppid[32];
	const char *const denied[] = { " op=connect ", " raddr=" DENIED " ",
				       ppid, NULL };
	const char *const allowed[] = { " op=connect ", " raddr=" ALLOWED " ",
					ppid, NULL };
	const char *const fields[] = { " verdict=deny ", " policy=user ",
				       " family=inet ", " protocol=raw ",
				       " raddr=" DENIED " ", " uid=1001 ",
				       NULL };
	unsigned int i;
	int before;

	snprintf(ppid, sizeof(ppid), " ppid=%d ", (int)getpid());
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		before = pfsel_audit_records(denied, NULL, 0);
		ASSERT_LE(0, before);
		EXPECT_SCTP(EACCES, PFSEL_UID1, ops[i], DENIED, NULL);
		PFSEL_EXPECT_RECORD(before, denied, fields);
	}
	before = pfsel_audit_records(allowed, NULL, 0);
	EXPECT_SCTP(0, PFSEL_UID1, SCTP_OP_CONNECTX, ALLOWED, NULL);
	EXPECT_EQ(before, pfsel_audit_records(allowed, NULL, 0));
}

TEST_F(sctp, listener_accepts_from_allowed_peer_only)
{
	expect_accepts_from_allowed_only(_metadata, IPPROTO_SCTP, SCTP_PORT_OWN,
					 "SCTP");
}

/* ---- 4. socket families, kTLS -------------------------------------------- */

struct family_case {
	const char *name;
	int family, type, protocol;
};

/* socket() of the family @arg names: 0, or its errno. */
static int family_create(void *arg)
{
	const struct family_case *f = arg;
	int fd = socket(f->family, f->type | SOCK_CLOEXEC, f->protocol);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The families that reach IP peers through the kernel's own sockets. */
static const struct family_case unruled[] = {
	{ "AF_SMC", AF_SMC, SOCK_STREAM, 0 },
	{ "AF_RDS", AF_RDS, SOCK_SEQPACKET, 0 },
	{ "AF_RXRPC", AF_RXRPC, SOCK_DGRAM, PF_INET },
	{ "AF_TIPC", AF_TIPC, SOCK_RDM, 0 },
};

/* The families that put frames of the process's making on a link. */
static const struct family_case packet[] = {
	{ "AF_XDP", AF_XDP, SOCK_RAW, 0 },
	{ "AF_PPPOX", AF_PPPOX, SOCK_STREAM, 0 /* PX_PROTO_OE */ },
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

FIXTURE(families)
{
	int tls_peer;
};

FIXTURE_SETUP(families)
{
	self->tls_peer = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	self->tls_peer = pfsel_peer(SOCK_STREAM, ALLOWED, TLS_PORT);
	ASSERT_LE(0, self->tls_peer);
	ASSERT_EQ(0, pfsel_load(POLICY));
}

FIXTURE_TEARDOWN(families)
{
	if (self->tls_peer >= 0)
		close(self->tls_peer);
	if (geteuid() == 0)
		pfsel_reset();
}

static int family_as(uid_t uid, const struct family_case *f)
{
	return pfsel_run_as(uid, family_create, (void *)f);
}

TEST_F(families, unruled_families_refused_whatever_the_rules)
{
	unsigned int i;
	int status;

	for (i = 0; i < N_ELEMS(unruled); i++) {
		const struct family_case *f = &unruled[i];

		status = family_as(PFSEL_UID1, f);
		TH_LOG("%s, uid 1001 under %s: %s", f->name, POLICY,
		       status_text(status));
		EXPECT_EQ(EACCES, status);
		/* Unrestrained: the kernel's own answer (no such family). */
		status = family_as(PFSEL_UID2, f);
		TH_LOG("%s, uid 1002 (no policy): %s", f->name,
		       status_text(status));
		EXPECT_NE(EACCES, status);
		EXPECT_NE(SETUP_FAILED, status);
	}
	ASSERT_EQ(0, pfsel_load(POLICY_OPEN));
	for (i = 0; i < N_ELEMS(unruled); i++) {
		status = family_as(PFSEL_UID1, &unruled[i]);
		TH_LOG("%s, uid 1001 under %s: %s", unruled[i].name,
		       POLICY_OPEN, status_text(status));
		EXPECT_EQ(EACCES, status);
	}
}

/*
 * Each refused family has its record: a create, refused=family and the
 * family's name, for the user the policy restrains.  An unrestrained
 * user's socket() makes none (the control); in permissive mode the
 * socket() goes on to the kernel, and the record says it was let through.
 */
TEST_F_TIMEOUT(families, unruled_family_refusal_is_audited,
	       PFSEL_AUDIT_TEST_TIMEOUT)
{
	unsigned int i, j;

	for (i = 0; i < N_ELEMS(unruled); i++) {
		const struct family_case *f = &unruled[i];
		char lower[8], name[32], ppid[32];
		const char *const needles[] = { " refused=family ", name,
						ppid, NULL };
		const char *const fields[] = {
			" op=create ",	   " verdict=deny ",
			" refused=family ", " permissive=0 ",
			" policy=user ",   name,
			" app=",	   " uid=1001 ",
			NULL,
		};
		const char *const let_through[] = { " permissive=1 ", name,
						     " uid=1001 ", NULL };
		int before, status;

		/* " family=smc ": the AF_ name in lower case. */
		for (j = 0; f->name[3 + j] && j < sizeof(lower) - 1; j++)
			lower[j] = (char)tolower((unsigned char)f->name[3 + j]);
		lower[j] = '\0';
		snprintf(name, sizeof(name), " family=%s ", lower);
		snprintf(ppid, sizeof(ppid), " ppid=%d ", (int)getpid());

		before = pfsel_audit_records(needles, NULL, 0);
		ASSERT_LE(0, before);
		EXPECT_EQ(EACCES, family_as(PFSEL_UID1, f));
		PFSEL_EXPECT_RECORD(before, needles, fields);

		before = pfsel_audit_records(needles, NULL, 0);
		status = family_as(PFSEL_UID2, f);
		EXPECT_NE(EACCES, status);
		EXPECT_EQ(before, pfsel_audit_records(needles, NULL, 0))
		{
			TH_LOG("%s, uid 1002 (no policy): recorded", f->name);
		}

		ASSERT_EQ(0, pfsel_set_enforce(false));
		status = family_as(PFSEL_UID1, f);
		ASSERT_EQ(0, pfsel_set_enforce(true));
		EXPECT_NE(EACCES, status);
		PFSEL_EXPECT_RECORD(before, needles, let_through);
	}
}

TEST_F(families, xdp_and_pppox_are_packet)
{
	unsigned int i;
	int status;

	for (i = 0; i < N_ELEMS(packet); i++) {
		const struct family_case *f = &packet[i];

		status = family_as(PFSEL_UID1, f);
		TH_LOG("%s, uid 1001 under %s (no packet): %s", f->name, POLICY,
		       status_text(status));
		EXPECT_EQ(EACCES, status);
		status = family_as(PFSEL_UID2, f);
		TH_LOG("%s, uid 1002 (no policy): %s", f->name,
		       status_text(status));
		EXPECT_NE(EACCES, status);
	}
	/* The control: a policy that allows packet lets them be made. */
	ASSERT_EQ(0, pfsel_load(POLICY_OPEN));
	for (i = 0; i < N_ELEMS(packet); i++) {
		status = family_as(PFSEL_UID1, &packet[i]);
		TH_LOG("%s, uid 1001 under %s: %s", packet[i].name, POLICY_OPEN,
		       status_text(status));
		EXPECT_NE(EACCES, status);
	}
}

TEST_F(families, vsock_is_not_governed)
{
	const struct family_case vsock = { "AF_VSOCK", AF_VSOCK, SOCK_STREAM,
					   0 };

	EXPECT_EQ(0, family_as(PFSEL_UID1, &vsock));
}

/* As pfuser1: connect to root's TCP listener, then attach the TLS ULP. */
static int ktls_attach(void *arg)
{
	struct sockaddr_in in;
	int fd, err;

	(void)arg;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	if (fd < 0)
		return SETUP_FAILED;
	if (connect(fd, (struct sockaddr *)&in,
		    inet_addr_of(ALLOWED, TLS_PORT, &in))) {
		close(fd);
		return SETUP_FAILED;
	}
	err = setsockopt(fd, SOL_TCP, TCP_ULP, "tls", sizeof("tls")) ? errno :
								       0;
	close(fd);
	return err;
}

TEST_F(families, ktls_on_allowed_tcp)
{
	int status = pfsel_run_as(PFSEL_UID1, ktls_attach, NULL);

	TH_LOG("TCP_ULP \"tls\" on pfuser1's allowed connection: %s",
	       status_text(status));
	EXPECT_EQ(0, status);
}

TEST_HARNESS_MAIN
