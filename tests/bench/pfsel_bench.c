// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - pfsel's cost on socket calls, every configuration in one boot
 *
 *   pfsel_bench [-r ROUNDS] [-n ITERATIONS] [-u UID] -p POLICY.pfsel
 *               -s SMALL.pfsel -H HOSTS.pfsel -R RESOLVER.pfsel
 *               -P PROTECT.pfsel [-a ASK.pfsel [-A ASK_ITERATIONS]]
 *
 * Runs as root inside the benchmark VM (tests/bench/run).  Three loops of
 * socket calls:
 *
 *   tcp   socket + connect to a loopback listener + accept + close both
 *   udp   sendto on one unconnected UDP socket (the sink's queue is kept
 *         full, so datagrams are dropped on arrival: no recv in the loop)
 *   bind  socket + bind (TCP, port 0) + close
 *
 * and three of execve(), each fork + execve + wait, ITERATIONS / 4 times:
 *
 *   exec       a static program that exits at once (EXEC_PROGRAM)
 *   script     a "#!" script whose interpreter is that program
 *   protected  a copy of the program, which protect's policy protects
 *
 * under these configurations (the exec loops under inactive, hits and
 * protect only; the socket loops under every one but protect):
 *
 *   inactive  no pfsel policy loaded: pfsel's static key is off
 *   hits      POLICY (a user policy for UID, 10k rules) loaded, caches
 *             warm: 256 addresses fit in the per-CPU cache of recent
 *             allows (recent.c, 1024 requests per CPU), which answers
 *   small     SMALL (the same policy without its 10k filler rules), warm
 *   hosts     HOSTS (POLICY and 10k rules by host name), warm: the connect
 *             and accept cells have host rules, so each such decision
 *             looks the address's learned names up (it has none) and is
 *             never kept in the cache of recent allows: the AVC answers
 *             them (create and bind, without host rules, as in hits)
 *   named     HOSTS, the addresses 127.x.y.2: each has one learned name,
 *             kK.named.bench.example, that a host rule allows (learned
 *             under RESOLVER, a system policy that names this program a
 *             resolver, from DNS answers it sends itself as root; that
 *             system policy stays loaded for named's loops: the names
 *             go with it)
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
 *   protect   PROTECT: POLICY and a rule that protects EXEC_PROTECTED
 *   inactive-named, inactive-repeat, inactive-avc, inactive-misses
 *             no pfsel policy, the socket loops over the addresses of
 *             named, repeat, avc (and evict), misses: what each address
 *             set costs without pfsel, which that configuration's second
 *             ratio is taken against
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
 *
 * This file is the driver: the options, the policies, and pfsel's
 * controls (load, unload, avc/cache_threshold, hook_timing), all through
 * libpfsel, which the benchmark reads its counters with too.  The socket
 * calls benchmark is pfsel_bench_calls.c, the ask part pfsel_bench_ask.c,
 * the statistics pfsel_bench_stats.c (pfsel_bench.h).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "pfsel_bench.h"

int rounds = 15;
long iterations = 4000;
uid_t bench_uid = 1001;
long ask_iterations;

/*
 * The policies: the 10k-rule one, the small one, the one with host rules,
 * the system policy that makes this program a resolver, the 10k-rule one
 * that protects a program, the ask part's.
 */
struct policy big, small, hosts, resolver, protect, ask_policy;
unsigned int default_threshold = PFSEL_AVC_THRESHOLD_DEFAULT;

void die(const char *fmt, ...)
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

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct sockaddr_in loopback(const int k, const int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(0x7f000001 | (uint32_t)k << 8),
	};

	return a;
}

void become_bench_uid(void)
{
	if (setgroups(0, NULL) || setresgid(bench_uid, bench_uid, bench_uid) ||
	    setresuid(bench_uid, bench_uid, bench_uid))
		die("become uid %u", (unsigned int)bench_uid);
}

/* ---- pfsel, through libpfsel --------------------------------------- */

void set_hook_timing(const bool on)
{
	const int err = pfsel_set_hook_timing(on);

	if (err) {
		errno = -err;
		die("set hook_timing to %d", on);
	}
}

void set_threshold(unsigned int t)
{
	const int err = pfsel_set_avc_threshold(t);

	if (err) {
		errno = -err;
		die("set avc/cache_threshold to %u", t);
	}
}

static const struct policy *policy_loaded;

void load_policy(const struct policy *p)
{
	int err;

	if (policy_loaded == p)
		return;
	err = pfsel_load_buffer(p->blob, p->len);
	if (err) {
		errno = -err;
		die("load %s", p->path);
	}
	policy_loaded = p;
}

void load_system_policy(const struct policy *p)
{
	const int err = pfsel_load_buffer(p->blob, p->len);

	if (err) {
		errno = -err;
		die("load %s", p->path);
	}
}

void unload_system_policy(void)
{
	const int err = pfsel_unload_system();

	if (err && err != -ENOENT) {
		errno = -err;
		die("unload the system policy");
	}
}

void unload_policy(void)
{
	const int err = pfsel_unload_uid(bench_uid);

	if (err && err != -ENOENT) {
		errno = -err;
		die("unload %u", (unsigned int)bench_uid);
	}
	policy_loaded = NULL;
}

/* ---- the driver ------------------------------------------------------ */

/* A small file (the LSM list), whole: not pfsel's. */
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
	fprintf(stderr,
		"usage: pfsel_bench [-r ROUNDS] [-n ITERATIONS] "
		"[-u UID] -p POLICY.pfsel\n"
		"                   -s SMALL.pfsel -H HOSTS.pfsel "
		"-R RESOLVER.pfsel\n"
		"                   -P PROTECT.pfsel "
		"[-a ASK.pfsel [-A ASK_ITERATIONS]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char buf[256];
	int opt, err;

	while ((opt = getopt(argc, argv, "r:n:u:p:s:H:R:P:a:A:")) != -1) {
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
		case 'H':
			hosts.path = optarg;
			break;
		case 'R':
			resolver.path = optarg;
			break;
		case 'P':
			protect.path = optarg;
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
	if (!big.path || !small.path || !hosts.path || !resolver.path ||
	    !protect.path || rounds < 1 || rounds > MAX_ROUNDS ||
	    iterations < 1 || optind != argc || ask_iterations < 0)
		usage();
	if (!ask_iterations)
		ask_iterations = iterations / 3 > 0 ? iterations / 3 : 1;
	read_policy(&big);
	read_policy(&small);
	read_policy(&hosts);
	read_policy(&resolver);
	read_policy(&protect);
	if (ask_policy.path)
		read_policy(&ask_policy);

	printf("lsm: %s\n", read_text("/sys/kernel/security/lsm", buf,
				      sizeof(buf)));
	if (!strstr(buf, "pfsel") || !strstr(buf, "landlock")) {
		fprintf(stderr, "pfsel_bench: pfsel and landlock must both "
				"be in the LSM list\n");
		return 1;
	}
	err = pfsel_get_avc_threshold(&default_threshold);
	if (err) {
		errno = -err;
		die("read avc/cache_threshold");
	}
	printf("default avc/cache_threshold: %u\n", default_threshold);

	calls_run();
	unload_policy();
	unload_system_policy();
	set_threshold(default_threshold);
	if (ask_policy.path)
		ask_run();
	calls_report();
	if (ask_policy.path)
		ask_report();
	return 0;
}
