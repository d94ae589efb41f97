// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - every way to reach the network meets a pfsel hook.
 *
 * Each test reads a hook's counter from /sys/kernel/security/pfsel/hooks,
 * makes the system call, and checks that the counter moved.  Nothing else
 * runs in the test VM, so a counter that does not move means the call did
 * not meet the hook.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "pfsel_test_util.h"

#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

union pfsel_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage storage;
};

static socklen_t loopback(const int family, const unsigned short port,
			  union pfsel_sockaddr *const addr)
{
	memset(addr, 0, sizeof(*addr));
	if (family == AF_INET) {
		addr->in.sin_family = AF_INET;
		addr->in.sin_port = htons(port);
		addr->in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return sizeof(addr->in);
	}
	addr->in6.sin6_family = AF_INET6;
	addr->in6.sin6_port = htons(port);
	addr->in6.sin6_addr = in6addr_loopback;
	return sizeof(addr->in6);
}

/* Port a bound socket got, in host order. */
static unsigned short bound_port(const int fd)
{
	union pfsel_sockaddr addr;
	socklen_t len = sizeof(addr);

	if (getsockname(fd, &addr.sa, &len))
		return 0;
	return ntohs(addr.sa.sa_family == AF_INET ? addr.in.sin_port :
						    addr.in6.sin6_port);
}

FIXTURE(inet)
{
	int listener;
	unsigned short port;
	union pfsel_sockaddr peer;
	socklen_t peer_len;
};

FIXTURE_VARIANT(inet)
{
	int family;
	int type;
};

FIXTURE_VARIANT_ADD(inet, ipv4_tcp)
{
	.family = AF_INET,
	.type = SOCK_STREAM,
};

FIXTURE_VARIANT_ADD(inet, ipv6_tcp)
{
	.family = AF_INET6,
	.type = SOCK_STREAM,
};

FIXTURE_VARIANT_ADD(inet, ipv4_udp)
{
	.family = AF_INET,
	.type = SOCK_DGRAM,
};

FIXTURE_VARIANT_ADD(inet, ipv6_udp)
{
	.family = AF_INET6,
	.type = SOCK_DGRAM,
};

/* A bound peer on loopback (listening, for TCP) for the tests to reach. */
FIXTURE_SETUP(inet)
{
	union pfsel_sockaddr addr;
	socklen_t len = loopback(variant->family, 0, &addr);
	const int qlen = 8;

	self->listener =
		socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, self->listener);
	ASSERT_EQ(0, bind(self->listener, &addr.sa, len));
	if (variant->type == SOCK_STREAM) {
		ASSERT_EQ(0, setsockopt(self->listener, IPPROTO_TCP,
					TCP_FASTOPEN, &qlen, sizeof(qlen)));
		ASSERT_EQ(0, listen(self->listener, 16));
	}
	self->port = bound_port(self->listener);
	ASSERT_NE(0, self->port);
	self->peer_len = loopback(variant->family, self->port, &self->peer);
}

FIXTURE_TEARDOWN(inet)
{
	close(self->listener);
}

TEST_F(inet, socket_meets_socket_create)
{
	const int64_t before = pfsel_hook_calls("socket_create");
	int fd;

	ASSERT_LE(0, before);
	fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, fd);
	EXPECT_LT(before, pfsel_hook_calls("socket_create"));
	close(fd);
}

TEST_F(inet, bind_meets_socket_bind)
{
	union pfsel_sockaddr addr;
	const socklen_t len = loopback(variant->family, 0, &addr);
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t before;

	ASSERT_LE(0, fd);
	before = pfsel_hook_calls("socket_bind");
	ASSERT_EQ(0, bind(fd, &addr.sa, len));
	EXPECT_LT(before, pfsel_hook_calls("socket_bind"));
	close(fd);
}

TEST_F(inet, connect_meets_socket_connect)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t before;

	ASSERT_LE(0, fd);
	before = pfsel_hook_calls("socket_connect");
	ASSERT_EQ(0, connect(fd, &self->peer.sa, self->peer_len));
	EXPECT_LT(before, pfsel_hook_calls("socket_connect"));
	close(fd);
}

TEST_F(inet, io_uring_connect_meets_socket_connect)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int64_t before;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, 0));
	sqe = io_uring_get_sqe(&ring);
	ASSERT_NE(NULL, sqe);
	io_uring_prep_connect(sqe, fd, &self->peer.sa, self->peer_len);
	before = pfsel_hook_calls("socket_connect");
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
	EXPECT_EQ(0, cqe->res);
	io_uring_cqe_seen(&ring, cqe);
	EXPECT_LT(before, pfsel_hook_calls("socket_connect"));
	io_uring_queue_exit(&ring);
	close(fd);
}

TEST_F(inet, addressed_send_meets_socket_sendmsg)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t before;

	if (variant->type != SOCK_DGRAM)
		SKIP(close(fd); return, "TCP: see tcp_fast_open_*");
	ASSERT_LE(0, fd);
	before = pfsel_hook_calls("socket_sendmsg");
	ASSERT_EQ(4, sendto(fd, "ping", 4, 0, &self->peer.sa,
			    self->peer_len));
	EXPECT_LT(before, pfsel_hook_calls("socket_sendmsg"));
	close(fd);
}

TEST_F(inet, send_without_address_skips_socket_sendmsg)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t before;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, connect(fd, &self->peer.sa, self->peer_len));
	/* connect() was the check; plain sends on the socket are not. */
	before = pfsel_hook_calls("socket_sendmsg");
	ASSERT_EQ(4, send(fd, "ping", 4, 0));
	EXPECT_EQ(before, pfsel_hook_calls("socket_sendmsg"));
	close(fd);
}

TEST_F(inet, listen_meets_socket_listen)
{
	union pfsel_sockaddr addr;
	const socklen_t len = loopback(variant->family, 0, &addr);
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t before;

	if (variant->type != SOCK_STREAM)
		SKIP(close(fd); return, "datagram sockets do not listen");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind(fd, &addr.sa, len));
	before = pfsel_hook_calls("socket_listen");
	ASSERT_EQ(0, listen(fd, 1));
	EXPECT_LT(before, pfsel_hook_calls("socket_listen"));
	close(fd);
}

TEST_F(inet, inbound_connection_meets_inet_conn_request_and_accept)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t requests, accepts;
	int accepted;

	if (variant->type != SOCK_STREAM)
		SKIP(close(fd); return, "datagram sockets do not accept");
	ASSERT_LE(0, fd);
	requests = pfsel_hook_calls("inet_conn_request");
	ASSERT_EQ(0, connect(fd, &self->peer.sa, self->peer_len));
	/* The SYN was handled in softirq before connect() returned. */
	EXPECT_LT(requests, pfsel_hook_calls("inet_conn_request"));

	accepts = pfsel_hook_calls("socket_accept");
	accepted = accept4(self->listener, NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, accepted);
	EXPECT_LT(accepts, pfsel_hook_calls("socket_accept"));
	close(accepted);
	close(fd);
}

TEST_F(inet, tcp_fast_open_sendto_meets_socket_sendmsg)
{
	const int fd = socket(variant->family, variant->type | SOCK_CLOEXEC, 0);
	int64_t sends;

	if (variant->type != SOCK_STREAM)
		SKIP(close(fd); return, "TCP only");
	ASSERT_LE(0, fd);
	/*
	 * A Fast Open sendto() connects without calling connect(): the
	 * destination is checked in socket_sendmsg.
	 */
	sends = pfsel_hook_calls("socket_sendmsg");
	ASSERT_EQ(4, sendto(fd, "ping", 4, MSG_FASTOPEN, &self->peer.sa,
			    self->peer_len))
	{
		TH_LOG("sendto(MSG_FASTOPEN): %s", strerror(errno));
	}
	EXPECT_LT(sends, pfsel_hook_calls("socket_sendmsg"));
	close(fd);
}

TEST_HARNESS_MAIN
