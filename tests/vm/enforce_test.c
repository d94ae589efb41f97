// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the decisions: every operation, every verdict, both
 * families, two users with different policies, per-application rules,
 * scripts, IPv4-mapped IPv6 addresses and the system policy.
 *
 * Root loads policies/enforce_1001.pfw for pfuser1 and its mirror image
 * policies/enforce_1002.pfw for pfuser2 and runs each request in a child
 * that has become one of them (the policy is chosen by the real uid).  A
 * port that one user's policy allows, the other's denies; an asked port
 * gives each policy's "ask unanswered" verdict (deny for 1001, allow for
 * 1002).  So every check fails if the decision is not taken, or taken
 * with the wrong user's policy.  Peers (listeners, UDP sockets) belong to
 * root, who has no policy of its own.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* Which user a port of the mirrored policies allows. */
enum mirror {
	ALLOWED_1001 = 1, /* allowed to 1001, denied to 1002 */
	ALLOWED_1002 = 2, /* denied to 1001, allowed to 1002 */
	ASKED = 3, /* asked: unanswered deny (1001), allow (1002) */
};

static const char *mirror_name(const enum mirror which)
{
	switch (which) {
	case ALLOWED_1001:
		return "allowed to 1001";
	case ALLOWED_1002:
		return "allowed to 1002";
	case ASKED:
		return "asked";
	}
	return "?";
}

static bool mirror_allows(const uid_t uid, const enum mirror which)
{
	return uid == PFSEL_UID1 ? which == ALLOWED_1001 :
				   which != ALLOWED_1001;
}

/* Ports of the peers root sets up: connect (5001-5003), 5004-5008. */
#define PEER_FIRST 5001
#define PEER_LAST 5008

FIXTURE(enforce)
{
	int tcp[PEER_LAST - PEER_FIRST + 1];
	int udp[PEER_LAST - PEER_FIRST + 1];
	int mapped[2]; /* IPv4 listeners on 5004 and 5005 for inet6 */
};

FIXTURE_VARIANT(enforce)
{
	int family;
	uid_t uid;
};

FIXTURE_VARIANT_ADD(enforce, ipv4_uid1001)
{
	.family = AF_INET,
	.uid = PFSEL_UID1,
};

FIXTURE_VARIANT_ADD(enforce, ipv6_uid1001)
{
	.family = AF_INET6,
	.uid = PFSEL_UID1,
};

FIXTURE_VARIANT_ADD(enforce, ipv4_uid1002)
{
	.family = AF_INET,
	.uid = PFSEL_UID2,
};

FIXTURE_VARIANT_ADD(enforce, ipv6_uid1002)
{
	.family = AF_INET6,
	.uid = PFSEL_UID2,
};

FIXTURE_SETUP(enforce)
{
	const char *lo = pfsel_loopback(variant->family);
	int i;

	if (geteuid() != 0)
		SKIP(return, "loading policies for 1001 and 1002 needs root");
	pfsel_reset();
	/* Unprivileged ping sockets, for the create tests. */
	ASSERT_EQ(0, system("echo '0 2147483647' "
			    ">/proc/sys/net/ipv4/ping_group_range"));
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	ASSERT_EQ(0, pfsel_load("enforce_1002"));
	for (i = 0; i <= PEER_LAST - PEER_FIRST; i++) {
		self->tcp[i] = pfsel_peer(SOCK_STREAM, lo, PEER_FIRST + i);
		ASSERT_LE(0, self->tcp[i]);
		self->udp[i] = pfsel_peer(SOCK_DGRAM, lo, PEER_FIRST + i);
		ASSERT_LE(0, self->udp[i]);
	}
	self->mapped[0] = self->mapped[1] = -1;
	if (variant->family == AF_INET6) {
		self->mapped[0] = pfsel_peer(SOCK_STREAM, "127.0.0.1", 5004);
		ASSERT_LE(0, self->mapped[0]);
		self->mapped[1] = pfsel_peer(SOCK_STREAM, "127.0.0.1", 5005);
		ASSERT_LE(0, self->mapped[1]);
	}
}

/* In the harness's own process, so that even a timed-out test cleans up. */
FIXTURE_TEARDOWN_PARENT(enforce)
{
	pfsel_reset();
}

/*
 * Make the request @op on the mirrored ports BASE + 1..3 as the variant's
 * user, and check each verdict: 0 when allowed, @denied when denied.
 */
static void check_mirror(struct __test_metadata *const _metadata,
			 const FIXTURE_VARIANT(enforce) *const variant,
			 const enum pfsel_probe_op op, const int type,
			 const int base, const int denied)
{
	struct pfsel_probe probe = {
		.op = op,
		.family = variant->family,
		.type = type,
		.addr = pfsel_loopback(variant->family),
	};
	enum mirror which;

	for (which = ALLOWED_1001; which <= ASKED; which++) {
		const bool allowed = mirror_allows(variant->uid, which);

		probe.port = base + which;
		EXPECT_EQ(allowed ? 0 : denied,
			  pfsel_probe_as(variant->uid, &probe))
		{
			TH_LOG("%s %s port %u (%s) as %u: expected %s",
			       pfsel_probe_names[op],
			       type == SOCK_STREAM ? "tcp" : "udp", probe.port,
			       mirror_name(which), variant->uid,
			       allowed ? "success" : strerror(denied));
		}
	}
}

TEST_F(enforce, create)
{
	const int icmp = variant->family == AF_INET6 ? IPPROTO_ICMPV6 :
						       IPPROTO_ICMP;
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CREATE,
		.family = variant->family,
		.type = SOCK_DGRAM,
		.protocol = icmp,
	};
	/* 1001 may create IPv4 ping sockets, 1002 IPv6 ones. */
	const bool allowed = (variant->uid == PFSEL_UID1) ==
			     (variant->family == AF_INET);
	int result;

	EXPECT_EQ(allowed ? 0 : EACCES, pfsel_probe_as(variant->uid, &probe));

	/*
	 * Raw sockets are asked.  Unanswered, 1001's policy denies (EACCES);
	 * 1002's allows, and then the capability check refuses the
	 * unprivileged user (EPERM).
	 */
	probe.type = SOCK_RAW;
	probe.protocol = icmp;
	result = pfsel_probe_as(variant->uid, &probe);
	EXPECT_EQ(variant->uid == PFSEL_UID1 ? EACCES : EPERM, result);

	/* TCP and UDP sockets are allowed to both. */
	probe.type = SOCK_STREAM;
	probe.protocol = 0;
	EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
	probe.type = SOCK_DGRAM;
	EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
}

TEST_F(enforce, bind)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_BIND, SOCK_STREAM, 5100,
		     EACCES);
	check_mirror(_metadata, variant, PFSEL_PROBE_BIND, SOCK_DGRAM, 5100,
		     EACCES);
}

TEST_F(enforce, listen)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_LISTEN, SOCK_STREAM, 5200,
		     EACCES);
}

/* A denied inbound connection is dropped: the client never connects. */
TEST_F(enforce, accept)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_ACCEPT, SOCK_STREAM, 5300,
		     PFSEL_PROBE_DROPPED);
}

TEST_F(enforce, connect_tcp)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_CONNECT, SOCK_STREAM, 5000,
		     EACCES);
}

TEST_F(enforce, connect_udp)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_CONNECT, SOCK_DGRAM, 5000,
		     EACCES);
}

/*
 * A send @op that names its peer (UDP, unconnected) is a connect request
 * to it, on the mirrored ports: a denied one fails with EACCES and sends
 * nothing; an allowed one arrives (the control).
 */
static void check_sends(struct __test_metadata *const _metadata,
			FIXTURE_DATA(enforce) *const self,
			const FIXTURE_VARIANT(enforce) *const variant,
			const enum pfsel_probe_op op)
{
	enum mirror which;

	check_mirror(_metadata, variant, op, SOCK_DGRAM, 5000, EACCES);
	for (which = ALLOWED_1001; which <= ASKED; which++) {
		EXPECT_EQ(mirror_allows(variant->uid, which),
			  pfsel_udp_received(
				  self->udp[5000 + which - PEER_FIRST], 100))
		{
			TH_LOG("%s: datagram to port %d (%s)",
			       pfsel_probe_names[op], 5000 + which,
			       mirror_name(which));
		}
	}
}

TEST_F(enforce, sendto_udp)
{
	check_sends(_metadata, self, variant, PFSEL_PROBE_SENDTO);
}

/* TCP Fast Open connects in sendto(), without connect(). */
TEST_F(enforce, fastopen_sendto)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_FASTOPEN, SOCK_STREAM,
		     5000, EACCES);
}

TEST_F(enforce, io_uring_connect)
{
	check_mirror(_metadata, variant, PFSEL_PROBE_URING_CONNECT, SOCK_STREAM,
		     5000, EACCES);
}

/*
 * io_uring's sends, each its own path to the socket (io_sendmsg(),
 * io_send() and io_send_zc() read the destination themselves): decided
 * as sendto() is.
 */
TEST_F(enforce, io_uring_sendmsg_udp)
{
	check_sends(_metadata, self, variant, PFSEL_PROBE_URING_SENDMSG);
}

TEST_F(enforce, io_uring_send_udp)
{
	check_sends(_metadata, self, variant, PFSEL_PROBE_URING_SEND);
}

TEST_F(enforce, io_uring_send_zc_udp)
{
	check_sends(_metadata, self, variant, PFSEL_PROBE_URING_SEND_ZC);
}

/* A UDP socket connected to one port sends, through io_uring, to another. */
struct connected_send {
	int family;
	unsigned short connected, named;
};

/* As the variant's user: IORING_OP_SEND naming @named; its errno. */
static int send_from_connected(void *arg)
{
	const struct connected_send *cs = arg;
	const char *const lo = pfsel_loopback(cs->family);
	union pfsel_addr to, named;
	const socklen_t tolen = pfsel_addr(lo, cs->connected, &to);
	const socklen_t namedlen = pfsel_addr(lo, cs->named, &named);
	const int fd = socket(cs->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int err;

	if (fd < 0 || connect(fd, &to.sa, tolen))
		return ENOTRECOVERABLE;
	err = pfsel_probe_uring(fd, PFSEL_PROBE_URING_SEND, &named, namedlen);
	close(fd);
	return err;
}

/*
 * The connect() decided one peer; a send that names another is decided
 * for that one: refused, and nothing arrives there.  The control: the
 * same socket's send naming the peer it is connected to arrives.
 */
TEST_F(enforce, io_uring_send_from_connected_udp)
{
	const enum mirror allowed = variant->uid == PFSEL_UID1 ? ALLOWED_1001 :
								 ALLOWED_1002;
	const enum mirror denied = variant->uid == PFSEL_UID1 ? ALLOWED_1002 :
								ALLOWED_1001;
	struct connected_send cs = {
		.family = variant->family,
		.connected = 5000 + allowed,
		.named = 5000 + denied,
	};

	EXPECT_EQ(EACCES, pfsel_run_as(variant->uid, send_from_connected, &cs));
	EXPECT_FALSE(pfsel_udp_received(self->udp[5000 + denied - PEER_FIRST],
					100));
	cs.named = cs.connected;
	EXPECT_EQ(0, pfsel_run_as(variant->uid, send_from_connected, &cs));
	EXPECT_TRUE(pfsel_udp_received(self->udp[5000 + allowed - PEER_FIRST],
				       100));
}

/*
 * An IPv6 socket reaching ::ffff:127.0.0.1 is judged by the IPv4 rules:
 * the policies allow 5004 to IPv4 addresses only and 5005 to IPv6 ones.
 */
TEST_F(enforce, ipv4_mapped_is_ipv4)
{
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET6,
		.type = SOCK_STREAM,
	};

	if (variant->family != AF_INET6)
		SKIP(return, "IPv6 sockets only");
	probe.addr = "::ffff:127.0.0.1";
	probe.port = 5004;
	EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
	probe.port = 5005;
	EXPECT_EQ(EACCES, pfsel_probe_as(variant->uid, &probe));
	probe.type = SOCK_DGRAM;
	probe.op = PFSEL_PROBE_SENDTO;
	EXPECT_EQ(EACCES, pfsel_probe_as(variant->uid, &probe));

	/* The same ports over IPv6 proper: the other way round. */
	probe.type = SOCK_STREAM;
	probe.op = PFSEL_PROBE_CONNECT;
	probe.addr = "::1";
	probe.port = 5004;
	EXPECT_EQ(EACCES, pfsel_probe_as(variant->uid, &probe));
	probe.port = 5005;
	EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
}

/* Run netprobe (or a script for it) as the variant's user: its errno. */
static int netprobe_as(const FIXTURE_VARIANT(enforce) *const variant,
		       const char *const program, const unsigned short port)
{
	return pfsel_netprobe_as(variant->uid, program, "connect",
				 pfsel_loopback(variant->family), port, NULL);
}

/*
 * The application is the executable (and the script): 5006 is for
 * enforce_test, 5007 for netprobe run directly, 5008 for netprobe running
 * probe-script.  A shell script that execs netprobe is netprobe again.
 */
TEST_F(enforce, per_application)
{
	static const struct {
		const char *program; /* NULL: this test program */
		unsigned short allowed;
	} apps[] = {
		{ NULL, 5006 },
		{ PFSEL_NETPROBE, 5007 },
		{ PFSEL_TESTS_DIR "/probe-script", 5008 },
		{ PFSEL_TESTS_DIR "/probe-exec-script", 5007 },
	};
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = variant->family,
		.type = SOCK_STREAM,
		.addr = pfsel_loopback(variant->family),
	};
	unsigned short port;
	size_t i;

	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++) {
		for (port = 5006; port <= 5008; port++) {
			int result;

			if (apps[i].program) {
				result = netprobe_as(variant, apps[i].program,
						     port);
			} else {
				probe.port = port;
				result = pfsel_probe_as(variant->uid, &probe);
			}
			EXPECT_EQ(port == apps[i].allowed ? 0 : EACCES, result)
			{
				TH_LOG("%s connecting to port %u",
				       apps[i].program ?: "enforce_test", port);
			}
		}
	}
}

/*
 * The system policy is a floor: it denies 5001, which enforce_1001.pfw
 * allows, and leaves 5002 to the users.  It binds root too.
 */
TEST_F(enforce, system_policy_stricter_wins)
{
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = variant->family,
		.type = SOCK_STREAM,
		.addr = pfsel_loopback(variant->family),
		.port = 5001,
	};
	struct pfsel_policy_info info;

	/* Before: the user's policy alone. */
	EXPECT_EQ(variant->uid == PFSEL_UID1 ? 0 : EACCES,
		  pfsel_probe_as(variant->uid, &probe));
	EXPECT_EQ(0, pfsel_probe_as(0, &probe));

	ASSERT_EQ(0, pfsel_load("system_floor"));
	ASSERT_EQ(1, pfsel_get_policy_info(true, 0, &info));
	EXPECT_EQ(EACCES, pfsel_probe_as(variant->uid, &probe));
	EXPECT_EQ(EACCES, pfsel_probe_as(0, &probe));
	probe.port = 5002;
	EXPECT_EQ(variant->uid == PFSEL_UID2 ? 0 : EACCES,
		  pfsel_probe_as(variant->uid, &probe));
	EXPECT_EQ(0, pfsel_probe_as(0, &probe));

	/* Unloaded: the user's policy alone again. */
	ASSERT_EQ(0, pfsel_unload_system());
	probe.port = 5001;
	EXPECT_EQ(variant->uid == PFSEL_UID1 ? 0 : EACCES,
		  pfsel_probe_as(variant->uid, &probe));
	EXPECT_EQ(0, pfsel_probe_as(0, &probe));
}

/* With no policy loaded pfsel is inert: everything is allowed. */
TEST_F(enforce, no_policy_allows_everything)
{
	struct pfsel_probe probe = {
		.family = variant->family,
		.type = SOCK_STREAM,
		.addr = pfsel_loopback(variant->family),
	};
	enum mirror which;

	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID2));
	EXPECT_EQ(-ENOENT, pfsel_unload_system());

	for (which = ALLOWED_1001; which <= ASKED; which++) {
		probe.op = PFSEL_PROBE_CONNECT;
		probe.port = 5000 + which;
		EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
		probe.op = PFSEL_PROBE_BIND;
		probe.port = 5100 + which;
		EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
		probe.op = PFSEL_PROBE_ACCEPT;
		probe.port = 5300 + which;
		EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
	}
	probe.op = PFSEL_PROBE_CREATE;
	probe.type = SOCK_DGRAM;
	probe.protocol = variant->family == AF_INET6 ? IPPROTO_ICMPV6 :
						       IPPROTO_ICMP;
	EXPECT_EQ(0, pfsel_probe_as(variant->uid, &probe));
	EXPECT_EQ(0, netprobe_as(variant, PFSEL_NETPROBE, 5008));
}

TEST_HARNESS_MAIN
