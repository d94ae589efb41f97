// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - pfsel's cost on socket calls, every configuration in one boot
 *
 *   pfsel_bench [-r ROUNDS] [-n ITERATIONS] [-u UID] -p POLICY.pfsel
 *               -s SMALL.pfsel [-a ASK.pfsel [-A ASK_ITERATIONS]]
 *
 * Runs as root inside the benchmark VM (tests/bench/run).  Three loops:
 *
 *   tcp   socket + connect to a loopback listener + accept + close both
 *   udp   sendto on one unconnected UDP socket (the sink's queue is kept
 *         full, so datagrams are dropped on arrival: no recv in the loop)
 *   bind  socket + bind (TCP, port 0) + close
 *
 * under these configurations:
 *
 *   inactive  no pfsel policy loaded: pfsel's static key is off
 *   hits      POLICY (a user policy for UID, 10k rules) loaded, caches
 *             warm: 256 addresses fit in the per-CPU cache of recent
 *             allows (recent.c, 1024 requests per CPU), which answers
 *   small     SMALL (the same policy without its 10k filler rules), warm
 *   repeat    POLICY, but every iteration uses the same address (127.0.1.1)
 *   avc       POLICY, the addresses cycled over 4096 (16 in each of the
 *             256 address classes of "hits"): more than the per-CPU caches
 *             hold, so every addressed call is classified by binary search
 *             and answered by the AVC, which holds the 256 classes
 *   misses    POLICY, with the loops' addresses cycled over 2500 address
 *             classes: every addressed lookup misses the 512-entry cache
 *   evict     POLICY, avc/cache_threshold 1, the addresses of "avc": every
 *             lookup misses, and every other insert reclaims (a stress
 *             case, not a real setting)
 *   landlock  no pfsel policy; the loop's process restricts itself with a
 *             Landlock ruleset (ABI >= 4) that allows exactly its TCP ports
 *
 * Every loop runs in a child process of uid UID (default 1001), forked for
 * it; it cycles its destination (or bind) address over 256 loopback
 * addresses, each in an address class of its own (2500 for "misses", 16
 * addresses in each of the 256 for "avc").  A
 * round runs every configuration and every loop once, in an order rotated
 * from round to round.  Each measurement times the loop twice in the same
 * child: first with pfsel's hook timers off (hook_timing 0: the time per
 * iteration, and its ratio to inactive, is the whole cost), then with them
 * on, reading /sys/kernel/security/pfsel/hooks and avc/cache_stats around
 * it, for pfsel's own time per hook (the kernel's per-CPU timers, which
 * cost a little themselves) and the AVC's hits and misses.
 *
 * With -a, an ask part follows, ROUNDS rounds again: ASK (a small user
 * policy for UID that asks about every TCP connect to loopback port
 * ASK_PORT and allows TCP_PORT) is loaded, and an auto-answering agent,
 * pfsel-agent --user UID --auto allow (from PATH; /usr/bin in the VM),
 * started as root, runs as UID with its log on /dev/null.  Three measurements, in rotated order, each
 * in a child of UID that runs ASK_ITERATIONS sequential connect+accept to
 * 127.0.0.1 (one process, one question at a time: nothing to merge):
 *
 *   plain    to TCP_PORT, allowed by a rule
 *   once     to ASK_PORT, the agent answering with scope once: every
 *            connect is asked and answered
 *   process  to ASK_PORT, the agent answering with scope process: the
 *            warm-up's first connect is asked, the timed ones use the kept
 *            answer
 *
 * Around each timed loop the parent reads ask_stats, to check that every
 * connect was answered (once) or kept (process) and to count questions.
 * The agent is restarted whenever the scope changes.
 *
 * Output: one "M ..." line per measurement and "H ..." lines for its hooks
 * ("A ..." for the ask part), for the log, then the summary tables.  Exit
 * status 0, or 1 on failure.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Keep in step with tests/bench/gen-policy. */
#define TCP_PORT 40007
#define UDP_PORT 40009
#define DENIED_PORT 40008
/* The port the ask policy asks about (tests/bench/run writes the rule). */
#define ASK_PORT 40010
#define HOT_SPREAD 256
#define COLD_SPREAD 2500
/* Addresses per class in the avc configuration: 4096 in all. */
#define AVC_HOSTS 16

#define PFSEL_DIR "/sys/kernel/security/pfsel/"

/*
 * Landlock's network access rights (ABI 4, Linux 6.7), defined here since
 * the build host's headers may predate them.
 */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define BENCH_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define BENCH_LANDLOCK_RULE_NET_PORT 2
#define BENCH_LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define BENCH_LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)

struct bench_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
};

struct bench_landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
} __attribute__((packed));

enum config {
	CFG_INACTIVE,
	CFG_HITS,
	CFG_SMALL,
	CFG_REPEAT,
	CFG_AVC,
	CFG_MISSES,
	CFG_EVICT,
	CFG_LANDLOCK,
	CFG_COUNT
};
enum loop { LOOP_TCP, LOOP_UDP, LOOP_BIND, LOOP_COUNT };

static const char *const config_names[CFG_COUNT] = {
	"inactive", "hits",   "small", "repeat",
	"avc",	    "misses", "evict", "landlock",
};
static const char *const loop_names[LOOP_COUNT] = { "tcp", "udp", "bind" };
static const char *const loop_titles[LOOP_COUNT] = {
	"TCP connect+accept (socket, connect, accept, close x2)",
	"UDP sendto, unconnected",
	"TCP socket+bind(port 0)+close",
};

#define MAX_HOOKS 16
#define MAX_ROUNDS 200

struct snapshot {
	int n_hooks;
	char names[MAX_HOOKS][32];
	unsigned long long calls[MAX_HOOKS], ns[MAX_HOOKS];
	unsigned long long lookups, hits, misses;
};

struct measurement {
	double ns;		/* per iteration, wall clock, hooks untimed */
	double timed_ns;	/* per iteration, wall clock, hooks timed */
	double pfsel_ns;	/* per iteration, inside pfsel's hooks */
	double hook_ns[MAX_HOOKS]; /* per call of each hook, -1 if none */
	unsigned long long hook_calls[MAX_HOOKS];
	unsigned long long lookups, hits, misses;
};

static struct measurement results[CFG_COUNT][LOOP_COUNT][MAX_ROUNDS];
static char hook_names[MAX_HOOKS][32];
static int n_hook_names;

static long iterations = 4000;

/*
 * Iterations of each loop, in multiples of ITERATIONS: the cheaper loops
 * run longer, so that each timed loop lasts about as long.
 */
static const long loop_scale[LOOP_COUNT] = { 1, 20, 5 };

static long loop_iterations(const enum loop l)
{
	return iterations * loop_scale[l];
}
static int rounds = 15;
static uid_t bench_uid = 1001;
/* The policies: the 10k-rule one and the small one. */
struct policy {
	const char *path;
	void *blob;
	size_t len;
};

static struct policy big, small;
static unsigned int default_threshold = 512;

static void die(const char *fmt, ...)
{
	const int err = errno;
	va_list ap;

	fprintf(stderr, "pfsel_bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static struct sockaddr_in loopback(const int k, const int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(0x7f000001 | (uint32_t)k << 8),
	};

	return a;
}

/*
 * The i-th iteration's address: 127.x.y.z where x.y is the 16-bit number
 * K = 1..HOT_SPREAD, or 1..COLD_SPREAD in the misses configuration.  The
 * policy puts each such /24 in an address class of its own.  z is 1, or
 * in the avc configuration 1..AVC_HOSTS, changing once every K has come.
 */
static int addr_spread = HOT_SPREAD;
static int addr_hosts = 1;

static struct sockaddr_in spread(const long i, const int port)
{
	struct sockaddr_in a = loopback((int)(i % addr_spread) + 1, port);

	a.sin_addr.s_addr = htonl(ntohl(a.sin_addr.s_addr) +
				  (uint32_t)(i / addr_spread % addr_hosts));
	return a;
}

/* ---- securityfs ---------------------------------------------------- */

static char *read_text(const char *path, char *buf, size_t size)
{
	ssize_t n;
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		die("open %s", path);
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	if (n < 0)
		die("read %s", path);
	buf[len] = '\0';
	close(fd);
	return buf;
}

/* Writes @len bytes in one write(); returns 0 or the errno. */
static int write_once(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		die("open %s", path);
	n = write(fd, data, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	close(fd);
	return err;
}

static void take_snapshot(struct snapshot *s)
{
	char buf[4096], *line, *save;
	int n;

	memset(s, 0, sizeof(*s));
	read_text(PFSEL_DIR "hooks", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line && s->n_hooks < MAX_HOOKS;
	     line = strtok_r(NULL, "\n", &save)) {
		n = sscanf(line, "%31s %llu %llu", s->names[s->n_hooks],
			   &s->calls[s->n_hooks], &s->ns[s->n_hooks]);
		if (n < 2)
			continue;
		if (n == 2)
			s->ns[s->n_hooks] = 0;
		s->n_hooks++;
	}
	read_text(PFSEL_DIR "avc/cache_stats", buf, sizeof(buf));
	line = strchr(buf, '\n');
	if (!line || sscanf(line + 1, "%llu %llu %llu", &s->lookups, &s->hits,
			    &s->misses) != 3)
		die("parse " PFSEL_DIR "avc/cache_stats");
}

static void set_hook_timing(const bool on)
{
	int err = write_once(PFSEL_DIR "hook_timing", on ? "1" : "0", 1);

	if (err) {
		errno = err;
		die("set hook_timing to %d", on);
	}
}

static void set_threshold(unsigned int t)
{
	char text[16];
	int err;

	snprintf(text, sizeof(text), "%u\n", t);
	err = write_once(PFSEL_DIR "avc/cache_threshold", text, strlen(text));
	if (err) {
		errno = err;
		die("set avc/cache_threshold to %u", t);
	}
}

static const struct policy *policy_loaded;

static void load_policy(const struct policy *p)
{
	int err;

	if (policy_loaded == p)
		return;
	err = write_once(PFSEL_DIR "load", p->blob, p->len);
	if (err) {
		errno = err;
		die("load %s", p->path);
	}
	policy_loaded = p;
}

static void unload_policy(void)
{
	char uid[16];
	int err;

	snprintf(uid, sizeof(uid), "%u", (unsigned int)bench_uid);
	err = write_once(PFSEL_DIR "unload", uid, strlen(uid));
	if (err && err != ENOENT) {
		errno = err;
		die("unload %s", uid);
	}
	policy_loaded = NULL;
}

static void setup_config(const enum config c)
{
	switch (c) {
	case CFG_INACTIVE:
	case CFG_LANDLOCK:
		unload_policy();
		set_threshold(default_threshold);
		break;
	case CFG_HITS:
	case CFG_REPEAT:
	case CFG_AVC:
	case CFG_MISSES:
		load_policy(&big);
		set_threshold(default_threshold);
		break;
	case CFG_SMALL:
		load_policy(&small);
		set_threshold(default_threshold);
		break;
	case CFG_EVICT:
		load_policy(&big);
		set_threshold(1);
		break;
	default:
		break;
	}
}

/* ---- the child: one timed loop ------------------------------------- */

static void landlock_restrict(void)
{
	const struct bench_landlock_ruleset_attr attr = {
		.handled_access_net = BENCH_LANDLOCK_ACCESS_NET_BIND_TCP |
				      BENCH_LANDLOCK_ACCESS_NET_CONNECT_TCP,
	};
	const struct bench_landlock_net_port_attr rules[] = {
		{ BENCH_LANDLOCK_ACCESS_NET_BIND_TCP |
			  BENCH_LANDLOCK_ACCESS_NET_CONNECT_TCP, TCP_PORT },
		{ BENCH_LANDLOCK_ACCESS_NET_BIND_TCP, 0 },
	};
	long abi;
	size_t i;
	int fd;

	abi = syscall(__NR_landlock_create_ruleset, NULL, 0,
		      BENCH_LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 4) {
		if (abi >= 0)
			errno = EOPNOTSUPP;
		die("Landlock ABI %ld, network rules need 4", abi);
	}
	fd = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (fd < 0)
		die("landlock_create_ruleset");
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (syscall(__NR_landlock_add_rule, fd,
			    BENCH_LANDLOCK_RULE_NET_PORT, &rules[i], 0))
			die("landlock_add_rule");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("PR_SET_NO_NEW_PRIVS");
	if (syscall(__NR_landlock_restrict_self, fd, 0))
		die("landlock_restrict_self");
	close(fd);
}

/*
 * A connect to a port nobody allows must fail with EACCES when pfsel's
 * policy or Landlock is in force, and reach the (closed) port otherwise.
 */
static void check_denial(const enum config c)
{
	const struct sockaddr_in a = loopback(1, DENIED_PORT);
	const int expect = c == CFG_INACTIVE ? ECONNREFUSED : EACCES;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket");
	if (!connect(fd, (const struct sockaddr *)&a, sizeof(a)))
		errno = 0;
	if (errno != expect) {
		fprintf(stderr,
			"pfsel_bench: %s: connect to a port no rule allows "
			"gave \"%s\", expected \"%s\"\n",
			config_names[c], strerror(errno), strerror(expect));
		exit(1);
	}
	close(fd);
}

static int listener_fd, sink_fd, udp_fd;

static void loop_setup(const enum loop l)
{
	const struct sockaddr_in any_tcp = {
		.sin_family = AF_INET, .sin_port = htons(TCP_PORT),
	};
	const struct sockaddr_in any_udp = {
		.sin_family = AF_INET, .sin_port = htons(UDP_PORT),
	};
	const int one = 1, tiny = 1;

	if (l == LOOP_TCP) {
		listener_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (listener_fd < 0 ||
		    setsockopt(listener_fd, SOL_SOCKET, SO_REUSEADDR, &one,
			       sizeof(one)) ||
		    bind(listener_fd, (const struct sockaddr *)&any_tcp,
			 sizeof(any_tcp)) ||
		    listen(listener_fd, 128))
			die("tcp listener");
	} else if (l == LOOP_UDP) {
		sink_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		udp_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		/* The smallest queue the kernel allows: full after a few. */
		if (sink_fd < 0 || udp_fd < 0 ||
		    setsockopt(sink_fd, SOL_SOCKET, SO_RCVBUF, &tiny,
			       sizeof(tiny)) ||
		    bind(sink_fd, (const struct sockaddr *)&any_udp,
			 sizeof(any_udp)))
			die("udp sink");
	}
}

static void run_loop(const enum loop l, const long n)
{
	const struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	struct sockaddr_in a;
	long i;
	int c, s;

	for (i = 0; i < n; i++) {
		switch (l) {
		case LOOP_TCP:
			a = spread(i, TCP_PORT);
			c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (c < 0)
				die("socket");
			/* Reset on close: no TIME_WAIT, no port exhaustion. */
			if (setsockopt(c, SOL_SOCKET, SO_LINGER, &rst,
				       sizeof(rst)))
				die("SO_LINGER");
			if (connect(c, (const struct sockaddr *)&a, sizeof(a)))
				die("connect");
			s = accept4(listener_fd, NULL, NULL, SOCK_CLOEXEC);
			if (s < 0)
				die("accept");
			close(c);
			close(s);
			break;
		case LOOP_UDP:
			a = spread(i, UDP_PORT);
			if (sendto(udp_fd, "x", 1, 0,
				   (const struct sockaddr *)&a, sizeof(a)) != 1)
				die("sendto");
			break;
		case LOOP_BIND:
			a = spread(i, 0);
			s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (s < 0)
				die("socket");
			if (bind(s, (const struct sockaddr *)&a, sizeof(a)))
				die("bind");
			close(s);
			break;
		default:
			break;
		}
	}
}

/*
 * In a child of uid bench_uid: set up, warm up, tell the parent, wait for
 * its go, run the timed loop, send back the nanoseconds per iteration.
 */
static void child(const enum config c, const enum loop l, int to_parent,
		  int from_parent)
{
	double start, ns;
	char go;

	if (setgroups(0, NULL) || setresgid(bench_uid, bench_uid, bench_uid) ||
	    setresuid(bench_uid, bench_uid, bench_uid))
		die("become uid %u", (unsigned int)bench_uid);
	if (c == CFG_LANDLOCK)
		landlock_restrict();
	check_denial(c);
	if (c == CFG_MISSES)
		addr_spread = COLD_SPREAD;
	else if (c == CFG_REPEAT)
		addr_spread = 1;
	else if (c == CFG_AVC || c == CFG_EVICT)
		addr_hosts = AVC_HOSTS;
	loop_setup(l);
	/* Warm caches (the AVC's too) with every address of the hot cycle. */
	run_loop(l, HOT_SPREAD * 4);
	/* Twice: untimed hooks, then timed ones. */
	for (int pass = 0; pass < 2; pass++) {
		if (write(to_parent, "r", 1) != 1 ||
		    read(from_parent, &go, 1) != 1)
			die("pipe");
		start = now_ns();
		run_loop(l, loop_iterations(l));
		ns = (now_ns() - start) / (double)loop_iterations(l);
		if (write(to_parent, &ns, sizeof(ns)) != sizeof(ns))
			die("pipe");
	}
	_exit(0);
}

static void measure(const int round, const enum config c, const enum loop l)
{
	struct measurement *m = &results[c][l][round];
	struct snapshot before, after;
	int up[2], down[2], status, h;
	double total = 0;
	pid_t pid;
	char ready;

	if (pipe2(up, O_CLOEXEC) || pipe2(down, O_CLOEXEC))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		child(c, l, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	/* The cost: hooks untimed. */
	set_hook_timing(false);
	if (read(up[0], &ready, 1) != 1 || write(down[1], "g", 1) != 1 ||
	    read(up[0], &m->ns, sizeof(m->ns)) != sizeof(m->ns))
		goto failed;
	/* pfsel's own share: hooks timed. */
	set_hook_timing(true);
	if (read(up[0], &ready, 1) != 1)
		goto failed;
	take_snapshot(&before);
	if (write(down[1], "g", 1) != 1 ||
	    read(up[0], &m->timed_ns, sizeof(m->timed_ns)) !=
		    sizeof(m->timed_ns))
		goto failed;
	take_snapshot(&after);
	set_hook_timing(false);
	close(up[0]);
	close(down[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		goto failed;

	if (!n_hook_names) {
		n_hook_names = after.n_hooks;
		memcpy(hook_names, after.names, sizeof(hook_names));
	}
	for (h = 0; h < after.n_hooks && h < n_hook_names; h++) {
		const unsigned long long calls = after.calls[h] - before.calls[h];
		const unsigned long long ns = after.ns[h] - before.ns[h];

		m->hook_calls[h] = calls;
		m->hook_ns[h] = calls ? (double)ns / (double)calls : -1;
		total += (double)ns;
		if (calls)
			printf("H %d %s %s %s calls %llu ns/call %.1f\n", round,
			       config_names[c], loop_names[l], after.names[h],
			       calls, m->hook_ns[h]);
	}
	m->pfsel_ns = total / (double)loop_iterations(l);
	m->lookups = after.lookups - before.lookups;
	m->hits = after.hits - before.hits;
	m->misses = after.misses - before.misses;
	printf("M %d %s %s ns/iter %.1f timed_ns/iter %.1f pfsel_ns/iter %.1f "
	       "avc_lookups %llu hits %llu misses %llu\n",
	       round, config_names[c], loop_names[l], m->ns, m->timed_ns,
	       m->pfsel_ns, m->lookups, m->hits, m->misses);
	return;
failed:
	fprintf(stderr, "pfsel_bench: round %d, %s, %s: the loop failed\n",
		round, config_names[c], loop_names[l]);
	exit(1);
}

/* ---- statistics ---------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct spread_stats {
	double median, q1, q3, min, max;
};

/* Quartiles by linear interpolation between order statistics. */
static double quantile(const double *sorted, int n, double q)
{
	const double pos = q * (n - 1);
	const int lo = (int)pos;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

static struct spread_stats summarize(double *v, int n)
{
	struct spread_stats s = { 0 };

	if (n <= 0)
		return s;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.median = quantile(v, n, 0.5);
	s.q1 = quantile(v, n, 0.25);
	s.q3 = quantile(v, n, 0.75);
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

static void print_summary(void)
{
	double v[MAX_ROUNDS];
	enum config c;
	enum loop l;
	int r, h;

	printf("\n== pfsel_bench: %d rounds; iterations per loop: tcp %ld, "
	       "udp %ld, bind %ld; uid %u ==\n",
	       rounds, loop_iterations(LOOP_TCP), loop_iterations(LOOP_UDP),
	       loop_iterations(LOOP_BIND), (unsigned int)bench_uid);
	printf("ns/iter and ratio: hooks untimed; the ratio is the "
	       "configuration's time over the\nsame round's inactive time; "
	       "median [IQR] (min-max).  pfsel ns and share: a second\nrun "
	       "with the hooks timed (kernel per-CPU timers): time inside "
	       "pfsel's hooks per\niteration, and its share of that run's "
	       "iteration.\n");
	for (l = 0; l < LOOP_COUNT; l++) {
		printf("\n%s\n", loop_titles[l]);
		printf("  %-9s %10s %23s %26s %11s %7s %8s\n", "config",
		       "ns/iter", "[IQR] (min-max)", "ratio [IQR] (min-max)",
		       "pfsel ns", "share", "AVC hit");
		for (c = 0; c < CFG_COUNT; c++) {
			struct spread_stats t, ratio, own, share;
			unsigned long long lookups = 0, hits = 0;
			char buf[64], hit[16];

			for (r = 0; r < rounds; r++)
				v[r] = results[c][l][r].ns;
			t = summarize(v, rounds);
			for (r = 0; r < rounds; r++)
				v[r] = results[c][l][r].ns /
				       results[CFG_INACTIVE][l][r].ns;
			ratio = summarize(v, rounds);
			for (r = 0; r < rounds; r++)
				v[r] = results[c][l][r].pfsel_ns;
			own = summarize(v, rounds);
			for (r = 0; r < rounds; r++)
				v[r] = results[c][l][r].pfsel_ns /
				       results[c][l][r].timed_ns * 100;
			share = summarize(v, rounds);
			for (r = 0; r < rounds; r++) {
				lookups += results[c][l][r].lookups;
				hits += results[c][l][r].hits;
			}
			if (lookups)
				snprintf(hit, sizeof(hit), "%.1f%%",
					 100.0 * (double)hits / (double)lookups);
			else
				snprintf(hit, sizeof(hit), "-");
			snprintf(buf, sizeof(buf), "[%.0f-%.0f] (%.0f-%.0f)",
				 t.q1, t.q3, t.min, t.max);
			printf("  %-9s %10.0f %23s", config_names[c], t.median,
			       buf);
			snprintf(buf, sizeof(buf), "%.3f [%.3f-%.3f] (%.2f-%.2f)",
				 ratio.median, ratio.q1, ratio.q3, ratio.min,
				 ratio.max);
			printf(" %26s %11.1f %6.2f%% %8s%s\n", buf, own.median,
			       share.median, hit,
			       c == CFG_LANDLOCK && l == LOOP_UDP ?
				       "  (Landlock has no UDP rule: control only)" :
				       "");
		}
	}

	printf("\npfsel's own time per hook call, ns: median over rounds "
	       "[IQR]; calls per iteration\n");
	for (l = 0; l < LOOP_COUNT; l++) {
		for (h = 0; h < n_hook_names; h++) {
			if (!results[CFG_HITS][l][0].hook_calls[h] &&
			    !results[CFG_INACTIVE][l][0].hook_calls[h])
				continue;
			printf("  %-5s %-18s %5.2f/iter", loop_names[l],
			       hook_names[h],
			       (double)results[CFG_HITS][l][0].hook_calls[h] /
				       (double)loop_iterations(l));
			for (c = 0; c < CFG_COUNT; c++) {
				struct spread_stats s;
				int n = 0;

				for (r = 0; r < rounds; r++)
					if (results[c][l][r].hook_ns[h] >= 0)
						v[n++] = results[c][l][r].hook_ns[h];
				s = summarize(v, n);
				printf("  %s %6.0f [%.0f-%.0f]", config_names[c],
				       s.median, s.q1, s.q3);
			}
			printf("\n");
		}
	}
}

/* ---- the ask part ---------------------------------------------------- */

enum ask_config { ASK_PLAIN, ASK_ONCE, ASK_PROCESS, ASK_COUNT };

static const char *const ask_names[ASK_COUNT] = { "plain", "once", "process" };
/* pfsel-agent's --scope for each; "" for none. */
static const char *const ask_scopes[ASK_COUNT] = { "", "once", "process" };

/* ask_stats, the columns this benchmark reads. */
struct ask_stats {
	long long questions, merged, answered, unanswered, no_agent, kept_hits;
	long long agents;
};

struct ask_measurement {
	double ns;	/* per iteration, wall clock */
	double seconds;	/* the timed loop's wall time */
	struct ask_stats delta;
};

static struct ask_measurement ask_results[ASK_COUNT][MAX_ROUNDS];
static struct policy ask_policy;
static long ask_iterations;
static pid_t agent_pid;
static int agent_config = -1;

/* Reads ask_stats by its header's names, whatever their order. */
static void read_ask_stats(struct ask_stats *st)
{
	static const struct {
		const char *name;
		size_t offset;
	} cols[] = {
		{ "questions", offsetof(struct ask_stats, questions) },
		{ "merged", offsetof(struct ask_stats, merged) },
		{ "answered", offsetof(struct ask_stats, answered) },
		{ "unanswered", offsetof(struct ask_stats, unanswered) },
		{ "no_agent", offsetof(struct ask_stats, no_agent) },
		{ "kept_hits", offsetof(struct ask_stats, kept_hits) },
		{ "agents", offsetof(struct ask_stats, agents) },
	};
	char buf[1024], *head, *vals, *hsave, *vsave, *name, *val;
	size_t i, found = 0;

	memset(st, 0, sizeof(*st));
	read_text(PFSEL_DIR "ask_stats", buf, sizeof(buf));
	head = buf;
	vals = strchr(buf, '\n');
	if (!vals)
		goto bad;
	*vals++ = '\0';
	for (name = strtok_r(head, " \t", &hsave),
	    val = strtok_r(vals, " \t\n", &vsave);
	     name && val; name = strtok_r(NULL, " \t", &hsave),
	    val = strtok_r(NULL, " \t\n", &vsave))
		for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++)
			if (!strcmp(name, cols[i].name)) {
				*(long long *)((char *)st + cols[i].offset) =
					atoll(val);
				found++;
			}
	if (found == sizeof(cols) / sizeof(cols[0]))
		return;
bad:
	errno = EBADMSG;
	die("parse " PFSEL_DIR "ask_stats");
}

static void wait_for_agents(const long long want)
{
	struct ask_stats st;
	int i;

	for (i = 0; i < 2000; i++) {
		read_ask_stats(&st);
		if (st.agents == want)
			return;
		usleep(5000);
	}
	errno = ETIMEDOUT;
	die("wait for %lld registered agent(s), %lld are", want, st.agents);
}

static void stop_agent(void)
{
	int status;

	if (!agent_pid)
		return;
	if (kill(agent_pid, SIGTERM) ||
	    waitpid(agent_pid, &status, 0) != agent_pid)
		die("stop pfsel-agent");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "pfsel_bench: pfsel-agent ended with status "
				"0x%x\n", status);
		exit(1);
	}
	agent_pid = 0;
	agent_config = -1;
	wait_for_agents(0);
}

/*
 * An auto-answering pfsel-agent of uid bench_uid answering with the scope
 * of @c; returns once it is registered.
 */
static void start_agent(const enum ask_config c)
{
	if (agent_config == (int)c)
		return;
	stop_agent();
	fflush(stdout);
	agent_pid = fork();
	if (agent_pid < 0)
		die("fork");
	if (agent_pid == 0) {
		char user[16];

		/*
		 * Started as root, as only root may register an agent: it
		 * registers for bench_uid and then runs as bench_uid.  --pfw:
		 * only 'always' answers would write to it.
		 */
		snprintf(user, sizeof(user), "%u", (unsigned int)bench_uid);
		execlp("pfsel-agent", "pfsel-agent", "--user", user, "--auto",
		       "allow", "--scope", ask_scopes[c], "--log", "/dev/null",
		       "--pfw", "/tmp/pfsel-bench-agent.pfw", (char *)NULL);
		die("exec pfsel-agent");
	}
	agent_config = (int)c;
	wait_for_agents(1);
}

/* @n sequential TCP connect+accept to 127.0.0.1:@port, on @listener. */
static void ask_loop(const int listener, const int port, const long n)
{
	const struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	const struct sockaddr_in a = loopback(0, port);
	long i;
	int c, s;

	for (i = 0; i < n; i++) {
		c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c < 0)
			die("socket");
		if (setsockopt(c, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst)))
			die("SO_LINGER");
		if (connect(c, (const struct sockaddr *)&a, sizeof(a)))
			die("connect to port %d", port);
		s = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (s < 0)
			die("accept");
		close(c);
		close(s);
	}
}

/* In a child of uid bench_uid: as child(), for the ask part. */
static void ask_child(const enum ask_config c, int to_parent, int from_parent)
{
	const int port = c == ASK_PLAIN ? TCP_PORT : ASK_PORT;
	const struct sockaddr_in any = {
		.sin_family = AF_INET, .sin_port = htons(port),
	};
	const int one = 1;
	double start, ns;
	int listener;
	char go;

	if (setgroups(0, NULL) || setresgid(bench_uid, bench_uid, bench_uid) ||
	    setresuid(bench_uid, bench_uid, bench_uid))
		die("become uid %u", (unsigned int)bench_uid);
	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0 ||
	    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(listener, (const struct sockaddr *)&any, sizeof(any)) ||
	    listen(listener, 128))
		die("tcp listener on port %d", port);
	/* A few untimed round trips: caches warm, the agent paged in. */
	ask_loop(listener, port, 16);
	if (write(to_parent, "r", 1) != 1 || read(from_parent, &go, 1) != 1)
		die("pipe");
	start = now_ns();
	ask_loop(listener, port, ask_iterations);
	ns = now_ns() - start;
	if (write(to_parent, &ns, sizeof(ns)) != sizeof(ns))
		die("pipe");
	_exit(0);
}

static void ask_measure(const int round, const enum ask_config c)
{
	struct ask_measurement *m = &ask_results[c][round];
	struct ask_stats before, after;
	int up[2], down[2], status;
	double total;
	pid_t pid;
	char ready;

	if (c != ASK_PLAIN)
		start_agent(c);
	if (pipe2(up, O_CLOEXEC) || pipe2(down, O_CLOEXEC))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		ask_child(c, up[1], down[0]);
	}
	close(up[1]);
	close(down[0]);
	if (read(up[0], &ready, 1) != 1)
		goto failed;
	read_ask_stats(&before);
	if (write(down[1], "g", 1) != 1 ||
	    read(up[0], &total, sizeof(total)) != sizeof(total))
		goto failed;
	read_ask_stats(&after);
	close(up[0]);
	close(down[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		goto failed;

	m->seconds = total / 1e9;
	m->ns = total / (double)ask_iterations;
	m->delta.questions = after.questions - before.questions;
	m->delta.merged = after.merged - before.merged;
	m->delta.answered = after.answered - before.answered;
	m->delta.unanswered = after.unanswered - before.unanswered;
	m->delta.no_agent = after.no_agent - before.no_agent;
	m->delta.kept_hits = after.kept_hits - before.kept_hits;
	printf("A %d %s ns/iter %.1f seconds %.3f questions %lld merged %lld "
	       "answered %lld unanswered %lld no_agent %lld kept_hits %lld\n",
	       round, ask_names[c], m->ns, m->seconds, m->delta.questions,
	       m->delta.merged, m->delta.answered, m->delta.unanswered,
	       m->delta.no_agent, m->delta.kept_hits);
	/* Every timed connect asked and answered, or answered from the kept. */
	if ((c == ASK_ONCE && (m->delta.answered != ask_iterations ||
			       m->delta.questions != ask_iterations)) ||
	    (c == ASK_PROCESS && (m->delta.questions ||
				  m->delta.kept_hits != ask_iterations)) ||
	    (c == ASK_PLAIN && m->delta.questions) || m->delta.merged ||
	    m->delta.unanswered || m->delta.no_agent) {
		fprintf(stderr, "pfsel_bench: round %d, ask %s: ask_stats do "
				"not show what the loop should have done\n",
			round, ask_names[c]);
		exit(1);
	}
	return;
failed:
	fprintf(stderr, "pfsel_bench: round %d, ask %s: the loop failed\n",
		round, ask_names[c]);
	exit(1);
}

static void print_ask_summary(void)
{
	double v[MAX_ROUNDS], q[MAX_ROUNDS];
	struct spread_stats t, ratio, qps, qps_stats;
	long long answered = 0;
	double seconds = 0;
	char buf[64];
	int c, r;

	printf("\n== ask: %d rounds of %ld sequential TCP connect+accept to "
	       "127.0.0.1, one process;\nagent: pfsel-agent --auto allow "
	       "--log /dev/null, uid %u ==\n",
	       rounds, ask_iterations, (unsigned int)bench_uid);
	printf("ratio: per round, over the same round's plain time; median "
	       "[IQR] (min-max)\n");
	printf("  %-8s %10s %25s %26s %10s\n", "config", "ns/iter",
	       "[IQR] (min-max)", "ratio [IQR] (min-max)", "asked/iter");
	for (c = 0; c < ASK_COUNT; c++) {
		long long asked = 0;

		for (r = 0; r < rounds; r++) {
			v[r] = ask_results[c][r].ns;
			asked += ask_results[c][r].delta.questions;
		}
		t = summarize(v, rounds);
		for (r = 0; r < rounds; r++)
			v[r] = ask_results[c][r].ns /
			       ask_results[ASK_PLAIN][r].ns;
		ratio = summarize(v, rounds);
		snprintf(buf, sizeof(buf), "[%.0f-%.0f] (%.0f-%.0f)", t.q1,
			 t.q3, t.min, t.max);
		printf("  %-8s %10.0f %25s", ask_names[c], t.median, buf);
		snprintf(buf, sizeof(buf), "%.3f [%.3f-%.3f] (%.2f-%.2f)",
			 ratio.median, ratio.q1, ratio.q3, ratio.min,
			 ratio.max);
		printf(" %26s %10.3f\n", buf,
		       (double)asked /
			       ((double)rounds * (double)ask_iterations));
	}
	/*
	 * Questions per second: from the loop (iterations over its wall time,
	 * each iteration one question) and from ask_stats (answered over the
	 * same wall time), per round, then over the whole ask part.
	 */
	for (r = 0; r < rounds; r++) {
		const struct ask_measurement *m = &ask_results[ASK_ONCE][r];

		v[r] = (double)ask_iterations / m->seconds;
		q[r] = (double)m->delta.answered / m->seconds;
		answered += m->delta.answered;
		seconds += m->seconds;
	}
	qps = summarize(v, rounds);
	qps_stats = summarize(q, rounds);
	printf("questions per second (scope once): loop %.0f [%.0f-%.0f] "
	       "(%.0f-%.0f); ask_stats answered %.0f [%.0f-%.0f]; in all "
	       "%lld answered in %.2f s = %.0f/s\n",
	       qps.median, qps.q1, qps.q3, qps.min, qps.max, qps_stats.median,
	       qps_stats.q1, qps_stats.q3, answered, seconds,
	       (double)answered / seconds);
	for (r = 0; r < rounds; r++)
		v[r] = ask_results[ASK_ONCE][r].ns -
		       ask_results[ASK_PLAIN][r].ns;
	t = summarize(v, rounds);
	printf("an asked connect's extra time over plain: %.0f ns "
	       "[%.0f-%.0f]\n",
	       t.median, t.q1, t.q3);
}

static void run_ask_part(void)
{
	double start = now_ns();
	char buf[1024];
	int r, i;

	/* The ask part starts from no agent of its own uid. */
	wait_for_agents(0);
	load_policy(&ask_policy);
	set_threshold(default_threshold);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < ASK_COUNT; i++)
			ask_measure(r, (enum ask_config)((i + r) % ASK_COUNT));
		fprintf(stderr,
			"pfsel_bench: ask round %d of %d done, %.0f s\n",
			r + 1, rounds, (now_ns() - start) / 1e9);
	}
	stop_agent();
	unload_policy();
	printf("ask_stats at the end:\n%s",
	       read_text(PFSEL_DIR "ask_stats", buf, sizeof(buf)));
}

static void read_policy(struct policy *p)
{
	struct stat st;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || fstat(fd, &st))
		die("open %s", p->path);
	p->len = (size_t)st.st_size;
	p->blob = malloc(p->len);
	if (!p->blob)
		die("malloc");
	n = read(fd, p->blob, p->len);
	if (n < 0 || (size_t)n != p->len)
		die("read %s", p->path);
	close(fd);
	printf("policy: %s, %zu bytes\n", p->path, p->len);
}

static void usage(void)
{
	fprintf(stderr, "usage: pfsel_bench [-r ROUNDS] [-n ITERATIONS] "
			"[-u UID] -p POLICY.pfsel\n"
			"                   -s SMALL.pfsel [-a ASK.pfsel "
			"[-A ASK_ITERATIONS]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char buf[256];
	double start;
	int opt, r, i, j;

	while ((opt = getopt(argc, argv, "r:n:u:p:s:a:A:")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'n':
			iterations = atol(optarg);
			break;
		case 'u':
			bench_uid = (uid_t)atol(optarg);
			break;
		case 'p':
			big.path = optarg;
			break;
		case 's':
			small.path = optarg;
			break;
		case 'a':
			ask_policy.path = optarg;
			break;
		case 'A':
			ask_iterations = atol(optarg);
			break;
		default:
			usage();
		}
	}
	if (!big.path || !small.path || rounds < 1 || rounds > MAX_ROUNDS ||
	    iterations < 1 || optind != argc || ask_iterations < 0)
		usage();
	if (!ask_iterations)
		ask_iterations = iterations / 3 > 0 ? iterations / 3 : 1;
	read_policy(&big);
	read_policy(&small);
	if (ask_policy.path)
		read_policy(&ask_policy);

	printf("lsm: %s\n", read_text("/sys/kernel/security/lsm", buf,
				      sizeof(buf)));
	if (!strstr(buf, "pfsel") || !strstr(buf, "landlock")) {
		fprintf(stderr, "pfsel_bench: pfsel and landlock must both "
				"be in the LSM list\n");
		return 1;
	}
	default_threshold = (unsigned int)atoi(
		read_text(PFSEL_DIR "avc/cache_threshold", buf, sizeof(buf)));
	printf("default avc/cache_threshold: %u\n", default_threshold);

	start = now_ns();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < CFG_COUNT; i++) {
			const enum config c = (enum config)((i + r) % CFG_COUNT);

			setup_config(c);
			for (j = 0; j < LOOP_COUNT; j++)
				measure(r, c, (enum loop)((j + r) % LOOP_COUNT));
		}
		fprintf(stderr, "pfsel_bench: round %d of %d done, %.0f s\n",
			r + 1, rounds, (now_ns() - start) / 1e9);
	}
	unload_policy();
	set_threshold(default_threshold);
	if (ask_policy.path)
		run_ask_part();
	print_summary();
	if (ask_policy.path)
		print_ask_summary();
	return 0;
}
