// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - a packet goes where the decision said (issue 13,
 * "Decide where a packet actually goes", "Unspecified destinations").
 *
 * 1. Source routing, as pfuser1 under policies/route_1001.pfw (and as
 *    root under policies/route_system.pfw, the same as a system policy), which
 *    allows the host A (198.18.0.10, 2001:db8:1::a) and denies the host D
 *    (198.18.0.13, 2001:db8:1::d), both on the dummy interface dummy0.
 *    An IPv6 routing header (IPV6_RTHDR, type 4: segment routing, which
 *    needs no privilege and no IPV6_SEG6_* option: seg6.o is always built)
 *    whose first segment is D, or an IPv4 LSRR/SSRR option (IP_OPTIONS)
 *    naming D, then a send to A: the datagram (or the SYN) would leave for
 *    D.  Sticky (setsockopt) before the send, after connect(), and
 *    per message (cmsg).  (The kernel refuses an IPv4 source route
 *    without CAP_NET_RAW, EPERM: pfuser1's IPv4 cases pass on any kernel;
 *    root's are the real ones.)  A packet socket on dummy0 sees what leaves: the
 *    test fails when anything leaves for D.  (A per-message IPv6 routing
 *    header is refused by the kernel itself unless it is type 2 with
 *    CONFIG_IPV6_MIP6, which the test kernel lacks: those cases pass on
 *    any kernel here, and say so in their log.)
 * 2. Header-included raw sends, as root under policies/hdrincl_system.pfw
 *    (raw sends to 127.0.0.1 and ::1 only): an IP_HDRINCL header naming
 *    127.0.0.9 sent to 127.0.0.1 must not reach a socket on 127.0.0.9; an
 *    IPv6 IPPROTO_RAW header naming D sent to ::1 must not leave.
 * 3. The unspecified address, as pfuser1 under policies/unspec_1001.pfw
 *    (`deny * connect to loopback;`): a connect or a send to 0.0.0.0, ::
 *    or ::ffff:0.0.0.0 reaches loopback, and is refused with EACCES.  The
 *    control: pfuser2, whom no policy restrains, reaches the loopback
 *    listeners by the same connect and send.
 *
 * Each refusal of a source route is audited as a denial, with what was
 * refused (refused=routing-header or ip-options), the call and the
 * socket's ends; the same calls without the header leave no such record
 * (the control); in permissive mode the header goes through, and its
 * record says so.  A header-included send denied for the header's
 * destination is an ordinary denial of that destination, recorded as one.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#ifndef IPV6_RTHDR
#define IPV6_RTHDR 57
#endif
#ifndef IPV6_HDRINCL
#define IPV6_HDRINCL 36
#endif

#define IFNAME "dummy0"
#define A4 "198.18.0.10"
#define D4 "198.18.0.13"
#define A6 "2001:db8:1::a"
#define D6 "2001:db8:1::d"
#define PORT 7600

/* How long packets are given to leave, after the send. */
#define SETTLE_MS 300

/* ---- the dummy interface and a packet socket on it ---------------------- */

/* The addresses on dummy0 (they stay for the rest of the boot). */
static bool dummy_has_addresses(char *out, size_t size)
{
	if (pfsel_sh(out, size, "ip addr show dev " IFNAME) != 0)
		return false;
	return strstr(out, "198.18.0.1/24") && strstr(out, "2001:db8:1::1/64") &&
	       strstr(out, ",UP");
}

static bool dummy_ready(void)
{
	char out[4096];

	/* Each command is a second or so under TCG: only when needed. */
	if (dummy_has_addresses(out, sizeof(out)))
		return true;
	pfsel_sh(out, sizeof(out), "ip link set " IFNAME " up");
	pfsel_sh(out, sizeof(out), "ip addr add 198.18.0.1/24 dev " IFNAME);
	pfsel_sh(out, sizeof(out), "ip -6 addr add 2001:db8:1::1/64 dev " IFNAME);
	return dummy_has_addresses(out, sizeof(out));
}

struct seen {
	int to_allowed, to_denied, total;
};

/* Whether the IP packet @pkt (@len bytes) is addressed to @addr (text). */
static bool pkt_to(const uint8_t *pkt, ssize_t len, const char *addr)
{
	uint8_t want[16];

	if (len >= 20 && pkt[0] >> 4 == 4 &&
	    inet_pton(AF_INET, addr, want) == 1)
		return memcmp(pkt + 16, want, 4) == 0;
	if (len >= 40 && pkt[0] >> 4 == 6 &&
	    inet_pton(AF_INET6, addr, want) == 1)
		return memcmp(pkt + 24, want, 16) == 0;
	return false;
}

/* Throw away what the packet socket holds. */
static void capture_flush(int fd)
{
	uint8_t pkt[2048];

	while (recv(fd, pkt, sizeof(pkt), MSG_DONTWAIT) >= 0)
		;
}

/* Read the packets for @ms: how many went to @allowed and to @denied. */
static struct seen capture_read(int fd, int ms, const char *allowed,
				const char *denied)
{
	const long long deadline = pfsel_now_ms() + ms;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct seen s = { 0 };
	uint8_t pkt[2048];
	ssize_t len;

	for (;;) {
		long long left = deadline - pfsel_now_ms();

		if (poll(&pfd, 1, left > 0 ? (int)left : 0) <= 0)
			break;
		while ((len = recv(fd, pkt, sizeof(pkt), MSG_DONTWAIT)) > 0) {
			s.total++;
			if (pkt_to(pkt, len, allowed))
				s.to_allowed++;
			if (pkt_to(pkt, len, denied))
				s.to_denied++;
		}
	}
	return s;
}

/* ---- 1. source routing, as pfuser1 --------------------------------------- */

enum route_how {
	STICKY, /* setsockopt, then sendto() A (or connect() A, for TCP) */
	AFTER_CONNECT, /* connect() A, setsockopt, then send() */
	PER_MESSAGE, /* sendmsg() to A with the header as cmsg */
};

enum route_hdr {
	SRH, /* IPv6 routing header type 4, segments: A (the final), D */
	RTHDR2, /* IPv6 routing header type 2 (mobile IPv6), address D */
	LSRR, /* IPv4 loose source route: D */
	SSRR, /* IPv4 strict source route: D */
};

FIXTURE(route)
{
	int capture;
};

FIXTURE_VARIANT(route)
{
	int family, type;
	enum route_how how;
	enum route_hdr hdr;
	bool root; /* root under route_system.pfw, not pfuser1 */
	int linux_refuses; /* the errno Linux itself refuses the header with */
};

/* clang-format off */
FIXTURE_VARIANT_ADD(route, srh_udp_sticky) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = STICKY, .hdr = SRH,
};
FIXTURE_VARIANT_ADD(route, srh_tcp_sticky) {
	.family = AF_INET6, .type = SOCK_STREAM, .how = STICKY, .hdr = SRH,
};
FIXTURE_VARIANT_ADD(route, srh_udp_after_connect) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = AFTER_CONNECT,
	.hdr = SRH,
};
FIXTURE_VARIANT_ADD(route, srh_udp_cmsg) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = PER_MESSAGE, .hdr = SRH,
	.linux_refuses = EINVAL,
};
FIXTURE_VARIANT_ADD(route, rthdr2_udp_cmsg) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = PER_MESSAGE,
	.hdr = RTHDR2,
	.linux_refuses = EINVAL,
};
FIXTURE_VARIANT_ADD(route, rthdr2_udp_sticky) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = STICKY, .hdr = RTHDR2,
	.linux_refuses = EINVAL,
};
FIXTURE_VARIANT_ADD(route, lsrr_udp_sticky) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = STICKY, .hdr = LSRR,
	.linux_refuses = EPERM,
};
FIXTURE_VARIANT_ADD(route, ssrr_udp_sticky) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = STICKY, .hdr = SSRR,
	.linux_refuses = EPERM,
};
FIXTURE_VARIANT_ADD(route, lsrr_tcp_sticky) {
	.family = AF_INET, .type = SOCK_STREAM, .how = STICKY, .hdr = LSRR,
	.linux_refuses = EPERM,
};
FIXTURE_VARIANT_ADD(route, lsrr_udp_after_connect) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = AFTER_CONNECT,
	.hdr = LSRR,
	.linux_refuses = EPERM,
};
FIXTURE_VARIANT_ADD(route, lsrr_udp_cmsg) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = PER_MESSAGE, .hdr = LSRR,
	.linux_refuses = EPERM,
};
FIXTURE_VARIANT_ADD(route, ssrr_udp_cmsg) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = PER_MESSAGE, .hdr = SSRR,
	.linux_refuses = EPERM,
};
/*
 * The kernel itself refuses an IPv4 source route without CAP_NET_RAW
 * (ip_options_get()): for pfuser1 the cases above pass on any kernel.
 * Root has it; a system policy restrains root as it restrains a user.
 */
FIXTURE_VARIANT_ADD(route, root_lsrr_udp_sticky) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = STICKY, .hdr = LSRR,
	.root = true,
};
FIXTURE_VARIANT_ADD(route, root_ssrr_udp_sticky) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = STICKY, .hdr = SSRR,
	.root = true,
};
FIXTURE_VARIANT_ADD(route, root_lsrr_tcp_sticky) {
	.family = AF_INET, .type = SOCK_STREAM, .how = STICKY, .hdr = LSRR,
	.root = true,
};
FIXTURE_VARIANT_ADD(route, root_lsrr_udp_after_connect) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = AFTER_CONNECT,
	.hdr = LSRR, .root = true,
};
FIXTURE_VARIANT_ADD(route, root_lsrr_udp_cmsg) {
	.family = AF_INET, .type = SOCK_DGRAM, .how = PER_MESSAGE, .hdr = LSRR,
	.root = true,
};
FIXTURE_VARIANT_ADD(route, root_srh_udp_sticky) {
	.family = AF_INET6, .type = SOCK_DGRAM, .how = STICKY, .hdr = SRH,
	.root = true,
};
/* clang-format on */

FIXTURE_SETUP(route)
{
	self->capture = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and the interface need root");
	pfsel_reset();
	ASSERT_TRUE(dummy_ready())
	{
		TH_LOG("could not bring up " IFNAME " with 198.18.0.1/24 and 2001:db8:1::1/64");
	}
	ASSERT_EQ(0, pfsel_load(variant->root ? "route_system" : "route_1001"));
	self->capture = pfsel_capture_open(IFNAME);
	ASSERT_LE(0, self->capture);
}

FIXTURE_TEARDOWN(route)
{
	if (self->capture >= 0)
		close(self->capture);
	if (geteuid() == 0)
		pfsel_reset();
}

/* The header's bytes for @hdr: its length. */
static size_t route_header(enum route_hdr hdr, uint8_t *buf)
{
	switch (hdr) {
	case SRH:
		/* nexthdr, hdrlen (8-byte units), type, segments left,
		 * first segment, flags, tag; segments[0] is the final
		 * destination (the kernel writes the address sent to),
		 * segments[segments left] the one the packet goes to.
		 */
		memset(buf, 0, 40);
		buf[1] = 4;
		buf[2] = 4;
		buf[3] = 1;
		buf[4] = 1;
		inet_pton(AF_INET6, A6, buf + 8);
		inet_pton(AF_INET6, D6, buf + 24);
		return 40;
	case RTHDR2:
		memset(buf, 0, 24);
		buf[1] = 2;
		buf[2] = 2;
		buf[3] = 1;
		inet_pton(AF_INET6, D6, buf + 8);
		return 24;
	case LSRR:
	case SSRR:
		buf[0] = IPOPT_NOP;
		buf[1] = hdr == LSRR ? IPOPT_LSRR : IPOPT_SSRR;
		buf[2] = 7;
		buf[3] = 4;
		inet_pton(AF_INET, D4, buf + 4);
		return 8;
	}
	return 0;
}

struct route_result {
	int opt_err; /* the setsockopt's errno (0: accepted; -1: none) */
	int send_err; /* the send's (or TCP connect's) */
};

struct route_arg {
	const FIXTURE_VARIANT(route) *v;
	struct route_result *r;
	bool plain; /* the same calls without the header: the control */
};

static int set_header(int fd, int family, const uint8_t *hdr, size_t len)
{
	if (family == AF_INET6)
		return setsockopt(fd, IPPROTO_IPV6, IPV6_RTHDR, hdr,
				  (socklen_t)len) ?
			       errno :
			       0;
	return setsockopt(fd, IPPROTO_IP, IP_OPTIONS, hdr, (socklen_t)len) ?
		       errno :
		       0;
}

/* As pfuser1: the attack the variant describes. */
static int route_attack(void *arg)
{
	const struct route_arg *ra = arg;
	const FIXTURE_VARIANT(route) *v = ra->v;
	struct route_result *r = ra->r;
	union pfsel_addr to;
	const socklen_t tolen =
		pfsel_addr(v->family == AF_INET6 ? A6 : A4, PORT, &to);
	union {
		char buf[CMSG_SPACE(64)];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = "routed", .iov_len = 6 };
	struct msghdr msg = {
		.msg_name = &to,
		.msg_namelen = tolen,
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	struct cmsghdr *cmsg;
	uint8_t hdr[64];
	const size_t len = route_header(v->hdr, hdr);
	int fd;

	r->opt_err = -1;
	r->send_err = -1;
	fd = socket(v->family, v->type | SOCK_CLOEXEC |
				       (v->type == SOCK_STREAM ? SOCK_NONBLOCK :
								 0),
		    0);
	if (fd < 0)
		return 2;
	switch (v->how) {
	case STICKY:
		if (!ra->plain)
			r->opt_err = set_header(fd, v->family, hdr, len);
		if (v->type == SOCK_STREAM)
			r->send_err = connect(fd, &to.sa, tolen) ? errno : 0;
		else
			r->send_err = sendmsg(fd, &msg, 0) < 0 ? errno : 0;
		break;
	case AFTER_CONNECT:
		if (connect(fd, &to.sa, tolen))
			return 3;
		if (!ra->plain)
			r->opt_err = set_header(fd, v->family, hdr, len);
		r->send_err = send(fd, "routed", 6, 0) < 0 ? errno : 0;
		break;
	case PER_MESSAGE:
		if (ra->plain) {
			r->send_err = sendmsg(fd, &msg, 0) < 0 ? errno : 0;
			break;
		}
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(len);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = v->family == AF_INET6 ? IPPROTO_IPV6 :
							   IPPROTO_IP;
		cmsg->cmsg_type = v->family == AF_INET6 ? IPV6_RTHDR :
							  IP_RETOPTS;
		cmsg->cmsg_len = CMSG_LEN(len);
		memcpy(CMSG_DATA(cmsg), hdr, len);
		r->send_err = sendmsg(fd, &msg, 0) < 0 ? errno : 0;
		break;
	}
	/* A SYN in flight: give it the time to leave before the close. */
	if (v->type == SOCK_STREAM)
		usleep(SETTLE_MS * 1000);
	close(fd);
	return 0;
}

static const char *errstr(int err)
{
	return err == -1 ? "not tried" : err == 0 ? "accepted" : strerror(err);
}

/* The baseline: A is reached, D is refused; the packet socket sees A. */
TEST_F(route, baseline)
{
	const bool v6 = variant->family == AF_INET6;
	struct pfsel_probe p = {
		.op = PFSEL_PROBE_SENDTO,
		.family = variant->family,
		.type = SOCK_DGRAM,
		.addr = v6 ? A6 : A4,
		.port = PORT,
	};
	const uid_t uid = variant->root ? 0 : PFSEL_UID1;
	struct seen s;

	capture_flush(self->capture);
	EXPECT_EQ(0, pfsel_probe_as(uid, &p));
	p.addr = v6 ? D6 : D4;
	EXPECT_EQ(EACCES, pfsel_probe_as(uid, &p));
	s = capture_read(self->capture, SETTLE_MS, v6 ? A6 : A4,
			 v6 ? D6 : D4);
	EXPECT_LE(1, s.to_allowed);
	EXPECT_EQ(0, s.to_denied);
}

/* Where an attacker child leaves its calls' results: NULL when unmapped. */
static struct route_result *route_result_new(void)
{
	struct route_result *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return r == MAP_FAILED ? NULL : r;
}

/* Run the variant's attack (or, @plain, its calls without the header). */
static int route_run(const FIXTURE_VARIANT(route) *v, bool plain,
		     struct route_result *r)
{
	struct route_arg ra = { .v = v, .r = r, .plain = plain };

	return pfsel_run_as(v->root ? 0 : PFSEL_UID1, route_attack, &ra);
}

/*
 * Run the variant's attack with pfsel @enforcing or permissive, and watch
 * what leaves on the dummy interface: the packets to A and to D (logged);
 * the calls' results in @r, the attacker's exit status in @status.
 */
static struct seen route_watch(struct __test_metadata *const _metadata,
			       int capture, const FIXTURE_VARIANT(route) *v,
			       bool enforcing, struct route_result *r,
			       int *status)
{
	const bool v6 = v->family == AF_INET6;
	struct seen s;

	capture_flush(capture);
	if (!enforcing)
		EXPECT_EQ(0, pfsel_set_enforce(false));
	*status = route_run(v, false, r);
	if (!enforcing)
		EXPECT_EQ(0, pfsel_set_enforce(true));
	s = capture_read(capture, SETTLE_MS, v6 ? A6 : A4, v6 ? D6 : D4);
	TH_LOG("%sheader %s; send %s; packets: %d to %s, %d to %s (the denied host), %d in all",
	       enforcing ? "" : "permissive: ", errstr(r->opt_err),
	       errstr(r->send_err), s.to_allowed, v6 ? A6 : A4, s.to_denied,
	       v6 ? D6 : D4, s.total);
	return s;
}

/* With the routing header or option naming D: nothing leaves for D. */
TEST_F(route, nothing_leaves_for_the_denied_hop)
{
	const bool v6 = variant->family == AF_INET6;
	struct route_result *r;
	struct seen s;
	int status;

	r = route_result_new();
	ASSERT_NE(NULL, r);
	s = route_watch(_metadata, self->capture, variant, true, r, &status);
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, s.to_denied)
	{
		TH_LOG("the packet left for the host the policy denies");
	}
	/* Refused by pfsel: EACCES, where the kernel took the header. */
	if (r->opt_err == EACCES || r->send_err == EACCES)
		EXPECT_EQ(0, s.to_denied);
	if (variant->how == PER_MESSAGE && v6 && r->send_err == EINVAL)
		TH_LOG("the kernel itself refuses this per-message routing header (EINVAL): no CONFIG_IPV6_MIP6, or not type 2");
	if (!v6 && !variant->root && r->opt_err == EPERM)
		TH_LOG("the kernel itself refuses an IPv4 source route without CAP_NET_RAW (EPERM)");
	if (variant->hdr == RTHDR2 && r->opt_err == EINVAL)
		TH_LOG("the kernel itself refuses a type 2 routing header (EINVAL): no CONFIG_IPV6_MIP6");
	munmap(r, sizeof(*r));
}

/*
 * The control of the test above: the same attack with pfsel permissive
 * (deciding, not refusing).  Where Linux takes the header, the packet
 * leaves for the denied host: what pfsel's refusal stops.  Where Linux
 * itself refuses it (an IPv4 source route without CAP_NET_RAW, an IPv6
 * routing header it does not take), that refusal is what the call gets,
 * and nothing leaves for that host with or without pfsel.
 */
TEST_F(route, leaves_for_the_denied_hop_when_permissive)
{
	struct route_result *r;
	struct seen s;
	int status;

	r = route_result_new();
	ASSERT_NE(NULL, r);
	s = route_watch(_metadata, self->capture, variant, false, r, &status);
	EXPECT_EQ(0, status);
	if (variant->linux_refuses) {
		EXPECT_TRUE(r->opt_err == variant->linux_refuses ||
			    r->send_err == variant->linux_refuses)
		{
			TH_LOG("Linux took the header (expected %s)",
			       strerror(variant->linux_refuses));
		}
		EXPECT_EQ(0, s.to_denied);
	} else {
		EXPECT_TRUE(r->opt_err == 0 || r->opt_err == -1);
		EXPECT_TRUE(r->send_err == 0 || r->send_err == EINPROGRESS);
		EXPECT_LE(1, s.to_denied)
		{
			TH_LOG("nothing left for the denied host even without pfsel's refusal");
		}
	}
	munmap(r, sizeof(*r));
}

/*
 * The refusal has its record: a denial, refused= what the header is, by
 * the call that carried it, on the socket's ends (the peer, where the
 * socket has one or the send names it).  The same calls without the
 * header make none; in permissive mode the header goes through pfsel,
 * and its record says so.
 */
TEST_F_TIMEOUT(route, refusal_is_audited, PFSEL_AUDIT_TEST_TIMEOUT)
{
	const bool v6 = variant->family == AF_INET6;
	const bool cmsg = variant->how == PER_MESSAGE;
	char uid[32], peer[64], family[32];
	const char *const needles[] = {
		" pfsel ",
		variant->hdr == SRH || variant->hdr == RTHDR2 ?
			" refused=routing-header " :
			" refused=ip-options ",
		uid,
		NULL,
	};
	const char *const fields[] = {
		cmsg ? " op=sendmsg " : " op=setsockopt ",
		" verdict=deny ",
		needles[1],
		" permissive=0 ",
		variant->root ? " policy=system " : " policy=user ",
		family,
		variant->type == SOCK_STREAM ? " protocol=tcp " :
					       " protocol=udp ",
		peer,
		uid,
		NULL,
	};
	const char *const let_through[] = { needles[1], " permissive=1 ", uid,
					    NULL };
	struct route_result *r;
	int before;

	r = route_result_new();
	ASSERT_NE(NULL, r);
	snprintf(uid, sizeof(uid), " uid=%u ", variant->root ? 0 : PFSEL_UID1);
	snprintf(family, sizeof(family), " family=%s ", v6 ? "inet6" : "inet");
	/* A sticky header set before connect(): the socket has no peer. */
	if (variant->how == STICKY)
		snprintf(peer, sizeof(peer), " raddr=? rport=? ");
	else
		snprintf(peer, sizeof(peer), " raddr=%s rport=%d ",
			 v6 ? A6 : A4, PORT);

	before = pfsel_audit_records(needles, NULL, 0);
	ASSERT_LE(0, before);
	EXPECT_EQ(0, route_run(variant, false, r));
	EXPECT_TRUE(r->opt_err == EACCES || r->send_err == EACCES)
	{
		TH_LOG("header %s; send %s", errstr(r->opt_err),
		       errstr(r->send_err));
	}
	PFSEL_EXPECT_RECORD(before, needles, fields);

	/* The control: the same calls, no header, no record. */
	before = pfsel_audit_records(needles, NULL, 0);
	EXPECT_EQ(0, route_run(variant, true, r));
	EXPECT_TRUE(r->send_err == 0 || r->send_err == EINPROGRESS)
	{
		TH_LOG("without the header: send %s", errstr(r->send_err));
	}
	EXPECT_EQ(before, pfsel_audit_records(needles, NULL, 0));

	/* Permissive: pfsel lets the header through, and records it. */
	ASSERT_EQ(0, pfsel_set_enforce(false));
	EXPECT_EQ(0, route_run(variant, false, r));
	ASSERT_EQ(0, pfsel_set_enforce(true));
	EXPECT_TRUE(r->opt_err != EACCES && r->send_err != EACCES)
	{
		TH_LOG("permissive: header %s; send %s", errstr(r->opt_err),
		       errstr(r->send_err));
	}
	PFSEL_EXPECT_RECORD(before, needles, let_through);
	munmap(r, sizeof(*r));
}

/* ---- 2. header-included raw sends, as root under a system policy --------- */

FIXTURE(hdrincl)
{
	int rx_allowed, rx_denied, capture_lo;
};

FIXTURE_SETUP(hdrincl)
{
	self->rx_allowed = self->rx_denied = self->capture_lo = -1;
	if (geteuid() != 0)
		SKIP(return, "raw sockets and the system policy need root");
	pfsel_reset();
	ASSERT_TRUE(dummy_ready());
	self->rx_allowed = pfsel_peer(SOCK_DGRAM, "127.0.0.1", 7609);
	ASSERT_LE(0, self->rx_allowed);
	self->rx_denied = pfsel_peer(SOCK_DGRAM, "127.0.0.9", 7609);
	ASSERT_LE(0, self->rx_denied);
	self->capture_lo = pfsel_capture_open("lo");
	ASSERT_LE(0, self->capture_lo);
	ASSERT_EQ(0, pfsel_load("hdrincl_system"));
}

FIXTURE_TEARDOWN(hdrincl)
{
	if (self->rx_allowed >= 0)
		close(self->rx_allowed);
	if (self->rx_denied >= 0)
		close(self->rx_denied);
	if (self->capture_lo >= 0)
		close(self->capture_lo);
	if (geteuid() == 0)
		pfsel_reset();
}

/* An IPv4 header and UDP header to @dst:7609, then "hdrincl": length. */
static size_t ipv4_udp(uint8_t *buf, const char *dst)
{
	struct iphdr *ip = (struct iphdr *)buf;
	struct udphdr *udp = (struct udphdr *)(buf + sizeof(*ip));
	const size_t len = sizeof(*ip) + sizeof(*udp) + 7;

	memset(buf, 0, len);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)len);
	inet_pton(AF_INET, "127.0.0.1", &ip->saddr);
	inet_pton(AF_INET, dst, &ip->daddr);
	udp->source = htons(7608);
	udp->dest = htons(7609);
	udp->len = htons((uint16_t)(sizeof(*udp) + 7));
	memcpy(buf + sizeof(*ip) + sizeof(*udp), "hdrincl", 7);
	return len;
}

/* Send @header_dst's packet to @to through a raw socket: 0 or errno. */
static int raw_send(int protocol, const char *header_dst, const char *to)
{
	uint8_t pkt[64];
	const size_t len = ipv4_udp(pkt, header_dst);
	union pfsel_addr addr;
	const socklen_t alen = pfsel_addr(to, 0, &addr);
	const int one = 1;
	int fd, err;

	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (fd < 0)
		return ENOTRECOVERABLE;
	if (protocol != IPPROTO_RAW &&
	    setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one, sizeof(one))) {
		close(fd);
		return ENOTRECOVERABLE;
	}
	err = sendto(fd, pkt, len, 0, &addr.sa, alen) < 0 ? errno : 0;
	close(fd);
	return err;
}

TEST_F(hdrincl, header_decides_not_the_sendto_address)
{
	static const int protocols[] = { IPPROTO_RAW, IPPROTO_UDP };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		const int proto = protocols[i];
		int err;

		/* The baseline: 127.0.0.1 allowed and reached; .9 denied. */
		EXPECT_EQ(0, raw_send(proto, "127.0.0.1", "127.0.0.1"));
		EXPECT_TRUE(pfsel_udp_received(self->rx_allowed, SETTLE_MS));
		EXPECT_EQ(EACCES, raw_send(proto, "127.0.0.9", "127.0.0.9"));

		/* The header names 127.0.0.9; sendto() says 127.0.0.1. */
		err = raw_send(proto, "127.0.0.9", "127.0.0.1");
		TH_LOG("protocol %d: header to 127.0.0.9, sendto 127.0.0.1: %s",
		       proto, err ? strerror(err) : "sent");
		EXPECT_EQ(EACCES, err);
		EXPECT_FALSE(pfsel_udp_received(self->rx_denied, SETTLE_MS))
		{
			TH_LOG("protocol %d: delivered to 127.0.0.9", proto);
		}
		pfsel_udp_received(self->rx_allowed, 0);
	}
}

/*
 * The denial for the header's destination is recorded as one: a connect of
 * the raw protocol to the header's address, not the address sendto()
 * named.  The allowed send leaves no record.
 */
TEST_F_TIMEOUT(hdrincl, header_destination_is_audited, PFSEL_AUDIT_TEST_TIMEOUT)
{
	char pid[32];
	const char *const denied[] = { " pfsel ", pid, " raddr=127.0.0.9 ",
				       NULL };
	const char *const allowed[] = { " pfsel ", pid, " raddr=127.0.0.1 ",
					NULL };
	const char *const fields[] = {
		" op=connect ",	     " verdict=deny ",	   " permissive=0 ",
		" policy=system ",   " family=inet ",	   " protocol=raw ",
		" raddr=127.0.0.9 ", " rport=0 ",	   pid,
		NULL,
	};
	int before;

	snprintf(pid, sizeof(pid), " pid=%d ", (int)getpid());
	before = pfsel_audit_records(denied, NULL, 0);
	ASSERT_LE(0, before);
	EXPECT_EQ(EACCES, raw_send(IPPROTO_RAW, "127.0.0.9", "127.0.0.1"));
	PFSEL_EXPECT_RECORD(before, denied, fields);

	before = pfsel_audit_records(allowed, NULL, 0);
	EXPECT_EQ(0, raw_send(IPPROTO_RAW, "127.0.0.1", "127.0.0.1"));
	EXPECT_EQ(before, pfsel_audit_records(allowed, NULL, 0));
}

/* IPv6: an IPPROTO_RAW header naming D, sent to ::1. */
TEST_F(hdrincl, ipv6_header_decides_not_the_sendto_address)
{
	uint8_t pkt[48] = { 0 };
	union pfsel_addr to;
	const socklen_t tolen = pfsel_addr("::1", 0, &to);
	struct seen s;
	int fd, err;

	fd = socket(AF_INET6, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	ASSERT_LE(0, fd);
	/* version 6, payload 8 bytes, next header 59 (none), hop limit 64 */
	pkt[0] = 0x60;
	pkt[5] = 8;
	pkt[6] = 59;
	pkt[7] = 64;
	inet_pton(AF_INET6, "::1", pkt + 8);
	inet_pton(AF_INET6, D6, pkt + 24);
	memcpy(pkt + 40, "hdrincl", 8);
	capture_flush(self->capture_lo);
	err = sendto(fd, pkt, sizeof(pkt), 0, &to.sa, tolen) < 0 ? errno : 0;
	s = capture_read(self->capture_lo, SETTLE_MS, "::1", D6);
	TH_LOG("header to %s, sendto ::1: %s; %d packets to %s on lo", D6,
	       err ? strerror(err) : "sent", s.to_denied, D6);
	EXPECT_EQ(EACCES, err);
	EXPECT_EQ(0, s.to_denied);
	/* And straight to D: refused. */
	pfsel_addr(D6, 0, &to);
	EXPECT_EQ(-1, sendto(fd, pkt, sizeof(pkt), 0, &to.sa, tolen));
	EXPECT_EQ(EACCES, errno);
	close(fd);
}

/* ---- 3. the unspecified address is loopback ------------------------------ */

FIXTURE(unspecified)
{
	int tcp4, tcp6, udp4, udp6;
};

FIXTURE_SETUP(unspecified)
{
	self->tcp4 = self->tcp6 = self->udp4 = self->udp6 = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy needs root");
	pfsel_reset();
	self->tcp4 = pfsel_peer(SOCK_STREAM, "127.0.0.1", 7620);
	self->tcp6 = pfsel_peer(SOCK_STREAM, "::1", 7620);
	self->udp4 = pfsel_peer(SOCK_DGRAM, "127.0.0.1", 7620);
	self->udp6 = pfsel_peer(SOCK_DGRAM, "::1", 7620);
	ASSERT_LE(0, self->tcp4);
	ASSERT_LE(0, self->tcp6);
	ASSERT_LE(0, self->udp4);
	ASSERT_LE(0, self->udp6);
	ASSERT_EQ(0, pfsel_load("unspec_1001"));
}

FIXTURE_TEARDOWN(unspecified)
{
	if (self->tcp4 >= 0)
		close(self->tcp4);
	if (self->tcp6 >= 0)
		close(self->tcp6);
	if (self->udp4 >= 0)
		close(self->udp4);
	if (self->udp6 >= 0)
		close(self->udp6);
	if (geteuid() == 0)
		pfsel_reset();
}

TEST_F(unspecified, connect_and_send_to_unspecified_is_loopback)
{
	static const struct {
		int family;
		const char *addr;
	} targets[] = {
		{ AF_INET, "0.0.0.0" },
		{ AF_INET6, "::" },
		{ AF_INET6, "::ffff:0.0.0.0" },
		/* The policy's own address, for comparison. */
		{ AF_INET, "127.0.0.1" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		struct pfsel_probe p = {
			.op = PFSEL_PROBE_CONNECT,
			.family = targets[i].family,
			.type = SOCK_STREAM,
			.addr = targets[i].addr,
			.port = 7620,
		};
		int err = pfsel_probe_as(PFSEL_UID1, &p);
		int reached = pfsel_drain(self->tcp4) + pfsel_drain(self->tcp6);

		EXPECT_EQ(EACCES, err)
		{
			TH_LOG("connect to %s: %s, %d connections reached the loopback listeners",
			       targets[i].addr, err ? strerror(err) : "connected",
			       reached);
		}
		EXPECT_EQ(0, reached);

		p.op = PFSEL_PROBE_SENDTO;
		p.type = SOCK_DGRAM;
		err = pfsel_probe_as(PFSEL_UID1, &p);
		reached = pfsel_udp_received(self->udp4, SETTLE_MS) +
			  pfsel_udp_received(self->udp6, 0);
		EXPECT_EQ(EACCES, err)
		{
			TH_LOG("sendto %s: %s, %d loopback receivers got it",
			       targets[i].addr, err ? strerror(err) : "sent",
			       reached);
		}
		EXPECT_EQ(0, reached);

		/*
		 * The control: pfuser2, whom no policy restrains, reaches
		 * the loopback listeners by the same connect and send.
		 */
		p.op = PFSEL_PROBE_CONNECT;
		p.type = SOCK_STREAM;
		err = pfsel_probe_as(PFSEL_UID2, &p);
		reached = pfsel_drain(self->tcp4) + pfsel_drain(self->tcp6);
		EXPECT_EQ(0, err)
		{
			TH_LOG("control: pfuser2's connect to %s: %s",
			       targets[i].addr, strerror(err));
		}
		EXPECT_EQ(1, reached)
		{
			TH_LOG("control: pfuser2's connect to %s: %d connections reached the loopback listeners",
			       targets[i].addr, reached);
		}
		p.op = PFSEL_PROBE_SENDTO;
		p.type = SOCK_DGRAM;
		err = pfsel_probe_as(PFSEL_UID2, &p);
		reached = pfsel_udp_received(self->udp4, SETTLE_MS) +
			  pfsel_udp_received(self->udp6, 0);
		EXPECT_EQ(0, err)
		{
			TH_LOG("control: pfuser2's sendto %s: %s",
			       targets[i].addr, strerror(err));
		}
		EXPECT_EQ(1, reached)
		{
			TH_LOG("control: pfuser2's sendto %s: %d loopback receivers got it",
			       targets[i].addr, reached);
		}
	}
}

TEST_HARNESS_MAIN
