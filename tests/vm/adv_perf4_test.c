// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the adversary read of wt-perf4's shortcuts: the peer
 * of a TCP or UDP connect() and of a UDP send read straight from the
 * sockaddr and looked up in the recent allows before the call is
 * classified whole (classify_peer.h, net.c), the IPv4-only class search
 * (policydb_lookup.c), and the application classes kept per CPU by the
 * executable's and script's paths and the policy's generation
 * (classcache.c).
 *
 * Each sequence runs on CPU 0 and first makes the recent allow (or the
 * application class) the attack then tries to borrow: every field of the
 * call that the fast key takes from the sockaddr, or leaves out, is
 * changed in turn (port, protocol, address, the family field, the
 * socket's family, IPV6_V6ONLY, the length, sin6_flowinfo and
 * sin6_scope_id, a connected socket's send naming another peer,
 * sendmmsg(), io_uring, a network namespace of the caller's own), and
 * the policy in force must still deny what it denies.  An allowed call
 * of the same shape stands beside each denied one as its control.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define PERF4_PORT 6001
#define PROTECTED PFSEL_TESTS_DIR "/protectee"
#define PLAIN PFSEL_TESTS_DIR "/protectee-plain"

/* Any result but pfsel's EACCES: the call got past pfsel. */
#define PASS (-2)
#define DENY EACCES

/* How a call is made. */
enum how {
	U4,		/* AF_INET UDP sendto(), a sockaddr_in */
	U4_CONNECT,	/* AF_INET UDP connect() */
	T4,		/* AF_INET TCP connect() */
	LITE4,		/* AF_INET UDP-Lite sendto() */
	U6,		/* AF_INET6 UDP sendto(), a sockaddr_in6 */
	U6_CONNECT,	/* AF_INET6 UDP connect() */
	U6_ONLY,	/* U6 on an IPV6_V6ONLY socket */
	U6_FLOW,	/* U6, with sin6_flowinfo and sin6_scope_id set */
	U6_SIN,		/* AF_INET6 UDP sendto() of a sockaddr_in */
	U4_UNSPEC,	/* AF_INET UDP sendto(), family field AF_UNSPEC */
	U6_UNSPEC,	/* AF_INET6 UDP sendto() of a 16-byte AF_UNSPEC */
	U4_SHORT,	/* AF_INET UDP sendto(), 15 bytes of a sockaddr_in */
	U4_CONNECTED,	/* connected to 127.0.60.1, sendto() naming @addr */
	U4_MMSG,	/* sendmmsg(): 127.0.60.1, then @addr */
	U4_URING,	/* io_uring sendmsg() naming @addr */
};

struct perf4_call {
	enum how how;
	const char *addr;
	int port;
	int expect; /* PASS, or the errno */
};

struct perf4_calls {
	const struct perf4_call *calls;
	size_t n;
	bool netns; /* in a user and network namespace of the caller's */
};

static bool six(const enum how how)
{
	return how == U6 || how == U6_CONNECT || how == U6_ONLY ||
	       how == U6_FLOW || how == U6_SIN || how == U6_UNSPEC;
}

/* sendmmsg() of one datagram to 127.0.60.1, one to @sa: 0 or EACCES. */
static int send_mmsg(const int fd, const struct sockaddr_in *const sa)
{
	struct sockaddr_in first = {
		.sin_family = AF_INET,
		.sin_port = htons(PERF4_PORT),
		.sin_addr.s_addr = htonl(0x7f003c01),
	};
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct mmsghdr m[2] = {
		{ .msg_hdr = { .msg_name = &first,
			       .msg_namelen = sizeof(first),
			       .msg_iov = &iov,
			       .msg_iovlen = 1 } },
		{ .msg_hdr = { .msg_name = (void *)sa,
			       .msg_namelen = sizeof(*sa),
			       .msg_iov = &iov,
			       .msg_iovlen = 1 } },
	};
	const int sent = sendmmsg(fd, m, 2, 0);

	if (sent == 2)
		return 0;
	/* The first went, the second was refused: its error is lost. */
	if (sent == 1)
		return EACCES;
	return sent < 0 ? errno : -1;
}

/* io_uring sendmsg() naming @sa: 0 or the errno of its completion. */
static int send_uring(const int fd, const struct sockaddr_in *const sa)
{
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = {
		.msg_name = (void *)sa,
		.msg_namelen = sizeof(*sa),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int res;

	if (io_uring_queue_init(4, &ring, 0))
		return -1;
	sqe = io_uring_get_sqe(&ring);
	if (!sqe) {
		io_uring_queue_exit(&ring);
		return -1;
	}
	io_uring_prep_sendmsg(sqe, fd, &msg, 0);
	if (io_uring_submit(&ring) != 1 || io_uring_wait_cqe(&ring, &cqe)) {
		io_uring_queue_exit(&ring);
		return -1;
	}
	res = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return res < 0 ? -res : 0;
}

/* One call on a new socket: 0 or its errno; -1 when a step around failed. */
static int one_call(const struct perf4_call *const c)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(c->port),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(c->port),
	};
	const struct sockaddr_in allowed = {
		.sin_family = AF_INET,
		.sin_port = htons(PERF4_PORT),
		.sin_addr.s_addr = htonl(0x7f003c01),
	};
	const struct sockaddr *sa = (struct sockaddr *)&sin;
	socklen_t len = sizeof(sin);
	const bool v6 = six(c->how);
	const bool v6addr = c->how == U6 || c->how == U6_CONNECT ||
			    c->how == U6_ONLY || c->how == U6_FLOW;
	const int one = 1;
	int fd, type = SOCK_DGRAM, proto = 0, err;

	if (v6addr) {
		if (inet_pton(AF_INET6, c->addr, &sin6.sin6_addr) != 1)
			return -1;
		sa = (struct sockaddr *)&sin6;
		len = sizeof(sin6);
	} else if (inet_pton(AF_INET, c->addr, &sin.sin_addr) != 1) {
		return -1;
	}
	if (c->how == U6_FLOW) {
		sin6.sin6_flowinfo = htonl(0x000abcde);
		sin6.sin6_scope_id = 1;
	}
	if (c->how == U4_UNSPEC || c->how == U6_UNSPEC)
		sin.sin_family = AF_UNSPEC;
	if (c->how == U4_SHORT)
		len = sizeof(sin) - 1;
	if (c->how == T4)
		type = SOCK_STREAM;
	if (c->how == LITE4)
		proto = IPPROTO_UDPLITE;
	fd = socket(v6 ? AF_INET6 : AF_INET, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return -1;
	if (c->how == U6_ONLY &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) {
		close(fd);
		return -1;
	}
	switch (c->how) {
	case U4_CONNECT:
	case U6_CONNECT:
	case T4:
		err = connect(fd, sa, len) ? errno : 0;
		break;
	case U4_CONNECTED:
		if (connect(fd, (const struct sockaddr *)&allowed,
			    sizeof(allowed)) ||
		    send(fd, "x", 1, 0) != 1) {
			close(fd);
			return -1;
		}
		err = sendto(fd, "x", 1, 0, sa, len) < 0 ? errno : 0;
		break;
	case U4_MMSG:
		err = send_mmsg(fd, &sin);
		break;
	case U4_URING:
		err = send_uring(fd, &sin);
		break;
	default:
		err = sendto(fd, "x", 1, 0, sa, len) < 0 ? errno : 0;
		break;
	}
	close(fd);
	return err;
}

/* A user and network namespace of the caller's own, its loopback up. */
static int own_netns(void)
{
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET) || pfsel_loopback_up())
		return -1;
	return 0;
}

/*
 * For pfsel_run_as(): on CPU 0, the calls of @arg (struct perf4_calls).
 * 0 when each gave what it must, 1 + its index for the first that did
 * not, 120 and up when a step around them failed.
 */
static int calls_fn(void *arg)
{
	const struct perf4_calls *const calls = arg;
	size_t i;
	int err;

	if (pfsel_on_cpu0())
		return 120;
	if (calls->netns && own_netns())
		return 122;
	for (i = 0; i < calls->n; i++) {
		const struct perf4_call *const c = &calls->calls[i];

		err = one_call(c);
		if (err < 0)
			return 121;
		if (c->expect == PASS ? err == EACCES : err != c->expect) {
			fprintf(stderr, "call %zu (how %d, %s port %d): %d\n",
				i, c->how, c->addr, c->port, err);
			return 1 + (int)i;
		}
	}
	return 0;
}

#define RUN_CALLS(array, in_netns)                                         \
	({                                                                 \
		struct perf4_calls _c = { .calls = (array),                \
					  .n = ARRAY_SIZE(array),          \
					  .netns = (in_netns) };           \
		pfsel_run_as(PFSEL_UID1, calls_fn, &_c);                   \
	})

FIXTURE(perf4)
{
	bool root;
};

FIXTURE_SETUP(perf4)
{
	self->root = geteuid() == 0;
	if (self->root)
		pfsel_reset();
}

FIXTURE_TEARDOWN_PARENT(perf4)
{
	if (geteuid() == 0)
		pfsel_reset();
}

/*
 * The allowed peer's recent allow is made first (the first call); every
 * later call differs from it in one thing the fast key reads or leaves
 * to the whole classifier, and is denied unless that thing keeps it in
 * the policy's allow.
 */
TEST_F(perf4, fast_key_answers_no_other_udp_call)
{
	static const struct perf4_call calls[] = {
		{ U4, "127.0.60.1", PERF4_PORT, PASS },
		/* Control: another address of the allowed /24. */
		{ U4, "127.0.60.2", PERF4_PORT, PASS },
		{ U4, "127.0.60.1", PERF4_PORT + 1, DENY },
		{ U4, "127.0.61.1", PERF4_PORT, DENY },
		{ U4_CONNECT, "127.0.60.1", PERF4_PORT, PASS },
		{ U4_CONNECT, "127.0.61.1", PERF4_PORT, DENY },
		/* Not the fast path's protocol: UDP-Lite is udp to a policy. */
		{ LITE4, "127.0.60.1", PERF4_PORT, PASS },
		{ LITE4, "127.0.61.1", PERF4_PORT, DENY },
		/* The family field AF_UNSPEC: udp_sendmsg() reads AF_INET. */
		{ U4_UNSPEC, "127.0.60.1", PERF4_PORT, PASS },
		{ U4_UNSPEC, "127.0.61.1", PERF4_PORT, DENY },
		/* Too short: the kernel's EINVAL, fast path or not. */
		{ U4_SHORT, "127.0.60.1", PERF4_PORT, EINVAL },
		{ U4_SHORT, "127.0.61.1", PERF4_PORT, EINVAL },
		/* A connected socket whose send names another peer. */
		{ U4_CONNECTED, "127.0.60.3", PERF4_PORT, PASS },
		{ U4_CONNECTED, "127.0.61.1", PERF4_PORT, DENY },
		{ U4_CONNECTED, "127.0.60.1", PERF4_PORT + 1, DENY },
		{ U4_MMSG, "127.0.60.4", PERF4_PORT, PASS },
		{ U4_MMSG, "127.0.61.1", PERF4_PORT, DENY },
		{ U4_URING, "127.0.60.5", PERF4_PORT, PASS },
		{ U4_URING, "127.0.61.1", PERF4_PORT, DENY },
		/* Again after all of them: the allow still answers. */
		{ U4, "127.0.60.1", PERF4_PORT, PASS },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(0, RUN_CALLS(calls, false));
}

/* A TCP connect() to the peer UDP may reach: another protocol. */
TEST_F(perf4, udp_allow_does_not_answer_tcp_connect)
{
	static const struct perf4_call calls[] = {
		{ U4_CONNECT, "127.0.60.1", PERF4_PORT, PASS },
		{ U4, "127.0.60.1", PERF4_PORT, PASS },
		{ T4, "127.0.60.1", PERF4_PORT, DENY },
		{ T4, "127.0.60.1", PERF4_PORT, DENY },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(0, RUN_CALLS(calls, false));
}

/*
 * IPv6 sockets: the IPv4-mapped forms (which the fast path leaves to the
 * whole classifier), a sockaddr_in on an IPv6 socket, an AF_UNSPEC one,
 * IPV6_V6ONLY (the kernel's ENETUNREACH), and sin6_flowinfo and
 * sin6_scope_id, which neither key reads.  2001:db8:60::/64 has no route
 * in the VM: an allowed send fails after pfsel, with ENETUNREACH.
 */
TEST_F(perf4, fast_key_answers_no_other_ipv6_call)
{
	static const struct perf4_call calls[] = {
		{ U4, "127.0.60.1", PERF4_PORT, PASS },
		{ U6, "::ffff:127.0.60.1", PERF4_PORT, PASS },
		{ U6, "::ffff:127.0.61.1", PERF4_PORT, DENY },
		{ U6_CONNECT, "::ffff:127.0.61.1", PERF4_PORT, DENY },
		{ U6_ONLY, "::ffff:127.0.60.1", PERF4_PORT, ENETUNREACH },
		{ U6_SIN, "127.0.60.1", PERF4_PORT, PASS },
		{ U6_SIN, "127.0.61.1", PERF4_PORT, DENY },
		{ U6_UNSPEC, "127.0.61.1", PERF4_PORT, DENY },
		{ U6, "2001:db8:60::1", PERF4_PORT, PASS },
		{ U6, "2001:db8:60::2", PERF4_PORT, PASS },
		{ U6, "2001:db8:60::1", PERF4_PORT + 1, DENY },
		{ U6, "2001:db8:61::1", PERF4_PORT, DENY },
		{ U6_FLOW, "2001:db8:60::1", PERF4_PORT, PASS },
		{ U6_FLOW, "2001:db8:61::1", PERF4_PORT, DENY },
		{ U6_ONLY, "2001:db8:61::1", PERF4_PORT, DENY },
		{ U6_CONNECT, "2001:db8:61::1", PERF4_PORT, DENY },
		/* ::/64: not the fast path's; the policy allows none of it. */
		{ U6, "::1", PERF4_PORT, DENY },
		{ U6, "::127.0.60.1", PERF4_PORT, DENY },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(0, RUN_CALLS(calls, false));
}

/*
 * The same calls from a network namespace of the caller's own: the
 * user's policy follows it there, and the allows made in either
 * namespace answer nothing the policy denies.
 */
TEST_F(perf4, own_network_namespace_gets_no_wider_allow)
{
	static const struct perf4_call calls[] = {
		{ U4, "127.0.60.1", PERF4_PORT, PASS },
		{ U4, "127.0.60.1", PERF4_PORT + 1, DENY },
		{ U4, "127.0.61.1", PERF4_PORT, DENY },
		{ T4, "127.0.60.1", PERF4_PORT, DENY },
		{ U6, "::ffff:127.0.61.1", PERF4_PORT, DENY },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	/* The allow made in the initial namespace first, on CPU 0. */
	EXPECT_EQ(0, RUN_CALLS(calls, false));
	EXPECT_EQ(0, RUN_CALLS(calls, true));
}

/*
 * As pfuser1 on CPU 0: run @arg (a path) and read its "secure=N" line:
 * N (0 or 1), or 100 and up when a step failed.
 */
static int secure_fn(void *arg)
{
	const char *const path = arg;
	char line[128];
	int pipefd[2], secure, dumpable, preloaded;
	pid_t pid;
	FILE *f;

	if (pfsel_on_cpu0() || pipe2(pipefd, O_CLOEXEC))
		return 100;
	pid = fork();
	if (pid < 0)
		return 101;
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };

		if (dup2(pipefd[1], STDOUT_FILENO) < 0)
			_exit(125);
		execv(path, argv);
		_exit(127);
	}
	close(pipefd[1]);
	f = fdopen(pipefd[0], "r");
	if (!f || !fgets(line, sizeof(line), f) ||
	    sscanf(line, "secure=%d dumpable=%d preloaded=%d", &secure,
		   &dumpable, &preloaded) != 3) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 102;
	}
	fclose(f);
	waitpid(pid, NULL, 0);
	/* Protected: secure-execution mode, and not dumpable. */
	if (secure != !dumpable)
		return 103;
	return secure;
}

static int secure_run(const char *const path)
{
	return pfsel_run_as(PFSEL_UID1, secure_fn, (void *)path);
}

/*
 * protectee's path is a prefix of protectee-plain's: the per-CPU
 * application class of either, made on CPU 0 just before, must not answer
 * for the other, in either order and again and again.
 */
TEST_F(perf4, prefix_paths_keep_their_own_app_class)
{
	int i;

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(1, secure_run(PROTECTED));
		EXPECT_EQ(0, secure_run(PLAIN));
	}
	EXPECT_EQ(0, secure_run(PLAIN));
	EXPECT_EQ(1, secure_run(PROTECTED));
}

/*
 * Load, replace, unload and load again: each policy's generation is its
 * own, so protectee's class kept from a policy that did not protect it
 * never answers for one that does (nor the other way round).
 */
TEST_F(perf4, app_class_follows_every_load_and_unload)
{
	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(1, secure_run(PROTECTED));
	EXPECT_EQ(1, secure_run(PROTECTED));
	ASSERT_EQ(0, pfsel_load("adv_perf4_noprotect_1001"));
	EXPECT_EQ(0, secure_run(PROTECTED));
	EXPECT_EQ(0, secure_run(PROTECTED));
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(1, secure_run(PROTECTED));
	pfsel_unload_uid(PFSEL_UID1);
	EXPECT_EQ(0, secure_run(PROTECTED));
	ASSERT_EQ(0, pfsel_load("adv_perf4_noprotect_1001"));
	EXPECT_EQ(0, secure_run(PROTECTED));
	pfsel_unload_uid(PFSEL_UID1);
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	EXPECT_EQ(1, secure_run(PROTECTED));
	EXPECT_EQ(0, secure_run(PLAIN));
}

/*
 * Loads racing the lookups: while a root process loads the protecting
 * policy over and over (each load a new generation, and a new epoch for
 * the recent allows), pfuser1 starts protectee and protectee-plain on
 * CPU 0, and sends to an allowed and a denied peer.  Every policy in
 * force protects protectee and denies 127.0.61.1: no start of it is
 * unprotected, no start of protectee-plain protected, no denied send
 * let through.
 */
static const struct perf4_call racing_calls[] = {
	{ U4, "127.0.60.1", PERF4_PORT, PASS },
	{ U4, "127.0.61.1", PERF4_PORT, DENY },
	{ U4_CONNECT, "127.0.60.1", PERF4_PORT, PASS },
	{ T4, "127.0.60.1", PERF4_PORT, DENY },
};

TEST_F_TIMEOUT(perf4, loads_racing_lookups_never_loosen, 240)
{
	int wrong = 0, i;
	long long first;
	pid_t loader;

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_perf4_1001"));
	first = pfsel_uid_generation(PFSEL_UID1);
	loader = fork();
	ASSERT_LE(0, loader);
	if (loader == 0) {
		pfsel_die_with_parent(getppid());
		/* A load a millisecond, to leave the starts CPU time. */
		for (;;) {
			if (pfsel_load("adv_perf4_1001"))
				_exit(1);
			usleep(1000);
		}
	}
	for (i = 0; i < 20; i++) {
		wrong += secure_run(PROTECTED) != 1;
		wrong += secure_run(PLAIN) != 0;
		wrong += RUN_CALLS(racing_calls, false) != 0;
	}
	kill(loader, SIGKILL);
	waitpid(loader, NULL, 0);
	EXPECT_EQ(0, wrong);
	/* Control: the loads did race the starts. */
	EXPECT_LT(first + 20, pfsel_uid_generation(PFSEL_UID1));
}

TEST_HARNESS_MAIN
