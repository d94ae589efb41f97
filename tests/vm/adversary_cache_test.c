// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the third adversary read of the decision caches
 * (security/pfsel/recent.h, classcache.c, decide.c): the recent allows of
 * a whole /24 and the address classes cached by prefix must never answer
 * a request the policies in force deny, whichever policy divides the
 * prefix (system or user), whoever asks (another uid on the same CPU),
 * whatever else of the call differs (port, protocol, operation), and
 * whichever family's socket names the address (IPv4-mapped IPv6 or
 * IPv4); and 0.0.0.0, a network of one in the system policy only.
 * Every sequence runs on CPU 0, whose tables the first request fills.
 *
 * The last case is a denial of service across users: whether another
 * user, by making and leaving network namespaces (each of whose exits
 * starts a new epoch for every CPU and every user), takes a user's
 * recent allows away.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define CACHE_PORT 5001
#define UNSPEC_PORT 5012

/* One call and the errno it must give (0 for success). */
struct cache_call {
	enum { SEND4, SEND6, TCP4, BIND4, BIND6, CONNECT4 } how;
	const char *addr;
	int port;
	int err;
};

struct cache_calls {
	const struct cache_call *calls;
	size_t n;
};

/* One call of a new socket: 0 or its errno; -1 when a step around failed. */
static int one_call(const struct cache_call *const c)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(c->port),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(c->port),
	};
	const bool six = c->how == SEND6 || c->how == BIND6;
	const struct sockaddr *sa = six ? (struct sockaddr *)&sin6 :
					  (struct sockaddr *)&sin;
	const socklen_t len = six ? sizeof(sin6) : sizeof(sin);
	const int one = 1;
	int fd, err;

	if (six ? inet_pton(AF_INET6, c->addr, &sin6.sin6_addr) != 1 :
		  inet_pton(AF_INET, c->addr, &sin.sin_addr) != 1)
		return -1;
	fd = socket(six ? AF_INET6 : AF_INET,
		    (c->how == TCP4 ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC,
		    0);
	if (fd < 0)
		return -1;
	switch (c->how) {
	case SEND4:
	case SEND6:
		err = sendto(fd, "x", 1, 0, sa, len) < 0 ? errno : 0;
		break;
	case TCP4:
	case CONNECT4:
		err = connect(fd, sa, len) ? errno : 0;
		/* Nothing listens: the connect itself was let through. */
		if (err == ECONNREFUSED)
			err = 0;
		break;
	default:
		if (six ? setsockopt(fd, SOL_IPV6, IPV6_FREEBIND, &one,
				     sizeof(one)) :
			  setsockopt(fd, SOL_IP, IP_FREEBIND, &one,
				     sizeof(one))) {
			close(fd);
			return -1;
		}
		err = bind(fd, sa, len) ? errno : 0;
		break;
	}
	close(fd);
	return err;
}

/*
 * For pfsel_run_as(): on CPU 0, the calls of @arg (struct cache_calls).
 * 0 when each gave what it must, 1 + its index for the first that did
 * not, 120 and up when a step around them failed.
 */
static int calls_fn(void *arg)
{
	const struct cache_calls *const calls = arg;
	size_t i;
	int err;

	if (pfsel_on_cpu0())
		return 120;
	for (i = 0; i < calls->n; i++) {
		err = one_call(&calls->calls[i]);
		if (err < 0)
			return 121;
		if (err != calls->calls[i].err) {
			fprintf(stderr, "call %zu (%s port %d): %d, not %d\n",
				i, calls->calls[i].addr, calls->calls[i].port,
				err, calls->calls[i].err);
			return 1 + (int)i;
		}
	}
	return 0;
}

#define RUN_CALLS(uid, array)                                              \
	({                                                                 \
		struct cache_calls _c = { .calls = (array),                \
					  .n = ARRAY_SIZE(array) };        \
		pfsel_run_as((uid), calls_fn, &_c);                        \
	})

FIXTURE(cache)
{
	bool root;
};

FIXTURE_SETUP(cache)
{
	self->root = geteuid() == 0;
	if (self->root)
		pfsel_reset();
}

FIXTURE_TEARDOWN_PARENT(cache)
{
	if (geteuid() == 0)
		pfsel_reset();
}

/* The three policies of the read. */
static int load_all(void)
{
	return pfsel_load("adv_cache_system") ?: pfsel_load("adv_cache_1001") ?:
	       pfsel_load("adv_cache_1002");
}

/*
 * The user's policy allows 127.0.50.0/24 whole, the system policy divides
 * it at 127.0.50.200: an allow of 127.0.50.1 (and .2) must not be kept
 * for the /24.  Control: the allowed addresses around it.
 */
TEST_F(cache, system_division_of_a_users_whole_prefix_holds)
{
	static const struct cache_call calls[] = {
		{ SEND4, "127.0.50.1", CACHE_PORT, 0 },
		{ SEND4, "127.0.50.2", CACHE_PORT, 0 },
		{ SEND4, "127.0.50.200", CACHE_PORT, EACCES },
		{ SEND4, "127.0.50.3", CACHE_PORT, 0 },
		{ SEND6, "::ffff:127.0.50.200", CACHE_PORT, EACCES },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, calls));
}

/*
 * The reverse: the system policy leaves 127.0.51.0/24 whole, the user's
 * divides it at 127.0.51.200.
 */
TEST_F(cache, user_division_under_a_whole_system_prefix_holds)
{
	static const struct cache_call calls[] = {
		{ SEND4, "127.0.51.1", CACHE_PORT, 0 },
		{ SEND4, "127.0.51.200", CACHE_PORT, EACCES },
		{ SEND4, "127.0.51.201", CACHE_PORT, 0 },
		{ SEND4, "127.0.51.200", CACHE_PORT, EACCES },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, calls));
}

/*
 * pfuser1's recent allow of 127.0.52.0/24 on CPU 0 must not answer for
 * pfuser2, whose policy denies that /24, on the same CPU, nor the other
 * way round for 127.0.60.0/24.  Controls: each user's own allowed /24.
 */
TEST_F(cache, another_users_prefix_allow_does_not_answer)
{
	static const struct cache_call first[] = {
		{ SEND4, "127.0.52.1", CACHE_PORT, 0 },
		{ SEND4, "127.0.52.2", CACHE_PORT, 0 },
	};
	static const struct cache_call second[] = {
		{ SEND4, "127.0.52.7", CACHE_PORT, EACCES },
		{ SEND6, "::ffff:127.0.52.8", CACHE_PORT, EACCES },
		{ SEND4, "127.0.60.1", CACHE_PORT, 0 },
		{ SEND4, "127.0.60.2", CACHE_PORT, 0 },
	};
	static const struct cache_call third[] = {
		{ SEND4, "127.0.60.9", CACHE_PORT, EACCES },
		{ SEND4, "127.0.52.9", CACHE_PORT, 0 },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, first));
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID2, second));
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, third));
}

/*
 * A recent allow of a UDP send to 127.0.53.1 port 5001, kept for the /24,
 * must answer no other port, protocol or operation there.  Control: a
 * UDP connect() (the same operation as the send) to another address of
 * it, and the send again.
 */
TEST_F(cache, prefix_allow_answers_no_other_call)
{
	static const struct cache_call calls[] = {
		{ SEND4, "127.0.53.1", CACHE_PORT, 0 },
		{ SEND4, "127.0.53.9", CACHE_PORT + 1, EACCES },
		{ TCP4, "127.0.53.9", CACHE_PORT, EACCES },
		{ BIND4, "127.0.53.9", CACHE_PORT, EACCES },
		{ SEND4, "127.0.53.9", 0, EACCES },
		{ CONNECT4, "127.0.53.9", CACHE_PORT, 0 },
		{ SEND4, "127.0.53.10", CACHE_PORT, 0 },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, calls));
}

/*
 * IPv4-mapped IPv6 and IPv4 name one address: an AF_INET6 socket's allow
 * of ::ffff:127.0.54.1, kept for its /24 (the user's policy divides it at
 * .200), answers neither family's send to 127.0.54.200.  Control: the
 * other family's send to another allowed address.
 */
TEST_F(cache, mapped_and_ipv4_share_the_prefix_exactly)
{
	static const struct cache_call calls[] = {
		{ SEND6, "::ffff:127.0.54.1", CACHE_PORT, 0 },
		{ SEND6, "::ffff:127.0.54.200", CACHE_PORT, EACCES },
		{ SEND4, "127.0.54.200", CACHE_PORT, EACCES },
		{ SEND4, "127.0.54.2", CACHE_PORT, 0 },
		{ SEND6, "::ffff:127.0.54.200", CACHE_PORT, EACCES },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, calls));
}

/*
 * 0.0.0.0 is a network of one in the system policy, which denies binds
 * to it on port 5012; the user's policy allows 0.0.0.0/24 there.  After
 * binds to 0.0.0.7 and 0.0.0.1 (allowed), and an AF_INET socket() (whose
 * request carries 0.0.0.0), a bind to 0.0.0.0, of either family's
 * socket, stays denied.  Control: the binds in the /24.
 */
TEST_F(cache, network_of_one_in_the_system_policy_only)
{
	static const struct cache_call calls[] = {
		{ BIND4, "0.0.0.7", UNSPEC_PORT, 0 },
		{ BIND4, "0.0.0.1", UNSPEC_PORT, 0 },
		{ BIND4, "0.0.0.0", UNSPEC_PORT, EACCES },
		{ BIND6, "::ffff:0.0.0.0", UNSPEC_PORT, EACCES },
		{ BIND4, "0.0.0.255", UNSPEC_PORT, 0 },
		{ BIND4, "0.0.0.0", UNSPEC_PORT, EACCES },
	};

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	EXPECT_EQ(0, RUN_CALLS(PFSEL_UID1, calls));
}

/* ---- Denial of service across users ---------------------------------- */

#define DOS_SENDS 50

/*
 * For pfsel_run_as(): pfuser2's DOS_SENDS sends to 127.0.60.1 to .50
 * port 5001 on CPU 0, 20 ms apart.  0, or 1 + the index of a send that
 * failed, 120 and up when a step around them failed.
 */
static int victim_fn(void *unused)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(CACHE_PORT),
	};
	int fd, i;

	if (pfsel_on_cpu0())
		return 120;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 121;
	for (i = 0; i < DOS_SENDS; i++) {
		sin.sin_addr.s_addr = htonl(0x7f003c01 + i);
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&sin,
			   sizeof(sin)) < 0)
			return 1 + i;
		usleep(20 * 1000);
	}
	close(fd);
	return 0;
}

/*
 * For pfsel_start_as(): pfuser1 makes network namespaces of its own and
 * leaves them, one child each, until @arg (an int in shared memory) is
 * set.  The number made, at most 125; 126 + when none could be made.
 */
static int churn_fn(void *arg)
{
	volatile int *const stop = arg;
	int made = 0, status = 0;
	pid_t pid;

	while (!*stop) {
		pid = fork();
		if (pid < 0)
			return 122;
		if (!pid)
			_exit(pfsel_enter_userns(CLONE_NEWNET));
		status = pfsel_wait_status(pid);
		if (status == 0 && made < 125)
			made++;
	}
	if (!made)
		fprintf(stderr, "# churn: last status %d\n", status);
	return made;
}

/* The AVC lookups pfuser2's victim_fn() took, with pfuser1 churning or not. */
static int victim_lookups(bool churn, unsigned long long *lookups)
{
	struct pfsel_avc_stats before, after;
	int *stop, status = 0, err;
	pid_t churner = -1;

	stop = mmap(NULL, sizeof(*stop), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stop == MAP_FAILED)
		return -1;
	*stop = 0;
	if (churn) {
		churner = pfsel_start_as(PFSEL_UID1, churn_fn, stop);
		if (churner < 0)
			return -1;
		/* Let it get going: netns cleanup is a work item. */
		usleep(300 * 1000);
	}
	if (pfsel_get_avc_stats(&before))
		return -1;
	err = pfsel_run_as(PFSEL_UID2, victim_fn, NULL);
	if (pfsel_get_avc_stats(&after))
		return -1;
	*stop = 1;
	if (churner > 0)
		status = pfsel_wait_status(churner);
	munmap(stop, sizeof(*stop));
	*lookups = after.lookups - before.lookups;
	fprintf(stderr,
		"# churn %d (namespaces made: %d): %llu AVC lookups for %d sends\n",
		churn, status, *lookups, DOS_SENDS);
	return err;
}

/*
 * Another user makes and leaves network namespaces, which any user may:
 * each exit starts a new epoch of the recent allows, on every CPU and
 * for every user, so pfuser2's allow of 127.0.60.0/24 would stop
 * answering, and each of its sends go through the class cache and the
 * AVC again.  The attack fails when pfuser2's sends still need the AVC
 * for fewer than half of them, as they do alone (the control).
 */
TEST_F(cache, another_users_namespaces_do_not_flush_our_recent_allows)
{
	unsigned long long alone, churned;

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, load_all());
	ASSERT_EQ(0, victim_lookups(false, &alone));
	EXPECT_GT((unsigned long long)DOS_SENDS / 2, alone);
	ASSERT_EQ(0, victim_lookups(true, &churned));
	EXPECT_GT((unsigned long long)DOS_SENDS / 2, churned);
}

TEST_HARNESS_MAIN
