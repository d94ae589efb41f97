// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - the calls benchmark: pfsel's cost on TCP connect+accept,
 * UDP sendto and TCP bind, under each configuration (inactive, hits,
 * small, hosts, named, repeat, avc, misses, evict, landlock: see
 * pfsel_bench.c), each also against a run with no policy over its own
 * addresses (the inactive-* configurations); and on fork + execve + wait
 * of a static program, of a "#!" script and of a protected program, under
 * inactive, hits and protect.  Each measurement forks a child of bench_uid that times its
 * loop twice, with pfsel's hook timers off and on; the parent reads the
 * hooks' counters and the AVC's statistics (libpfsel) around the second.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "pfsel_bench.h"

#define COLD_SPREAD 2500
/* Addresses per class in the avc configuration: 4096 in all. */
#define AVC_HOSTS 16

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
	CFG_HOSTS,
	CFG_NAMED,
	CFG_REPEAT,
	CFG_AVC,
	CFG_MISSES,
	CFG_EVICT,
	CFG_LANDLOCK,
	CFG_PROTECT,
	CFG_INACTIVE_NAMED,
	CFG_INACTIVE_REPEAT,
	CFG_INACTIVE_AVC,
	CFG_INACTIVE_MISSES,
	CFG_COUNT
};
enum loop {
	LOOP_TCP,
	LOOP_UDP,
	LOOP_BIND,
	LOOP_EXEC,
	LOOP_SCRIPT,
	LOOP_PROTECTED,
	LOOP_COUNT
};

static const char *const config_names[CFG_COUNT] = {
	"inactive",	  "hits",	     "small",	     "hosts",
	"named",	  "repeat",	     "avc",	     "misses",
	"evict",	  "landlock",	     "protect",	     "inactive-named",
	"inactive-repeat", "inactive-avc",   "inactive-misses",
};

/*
 * The addresses a configuration's socket loops cycle over (spread()): what
 * the network stack costs for them, with or without pfsel, differs from
 * set to set (cycling the 4096 addresses of avc costs some 120
 * instructions more per sendto() than the 256 of inactive, with no policy
 * at all).
 */
enum addresses {
	ADDRS_HOT,	/* 127.x.y.1, HOT_SPREAD of them */
	ADDRS_NAMED,	/* 127.x.y.NAMED_HOST, HOT_SPREAD of them */
	ADDRS_ONE,	/* 127.0.1.1 alone */
	ADDRS_AVC,	/* 127.x.y.z, AVC_HOSTS in each of HOT_SPREAD /24s */
	ADDRS_COLD,	/* 127.x.y.1, COLD_SPREAD of them */
};

static const enum addresses config_addresses[CFG_COUNT] = {
	[CFG_NAMED] = ADDRS_NAMED,	     [CFG_INACTIVE_NAMED] = ADDRS_NAMED,
	[CFG_REPEAT] = ADDRS_ONE,	     [CFG_INACTIVE_REPEAT] = ADDRS_ONE,
	[CFG_AVC] = ADDRS_AVC,		     [CFG_EVICT] = ADDRS_AVC,
	[CFG_INACTIVE_AVC] = ADDRS_AVC,	     [CFG_MISSES] = ADDRS_COLD,
	[CFG_INACTIVE_MISSES] = ADDRS_COLD,
};

/* Whether @c loads no pfsel policy: inactive, over some set of addresses. */
static bool is_inactive(const enum config c)
{
	return c == CFG_INACTIVE || c >= CFG_INACTIVE_NAMED;
}

/*
 * The configuration a socket loop of @c is compared with in the ratio
 * that the targets are read against: no policy, over the same addresses,
 * in the same round.  The address set's own cost is then not counted as
 * pfsel's (docs/BENCHMARKS.md).
 */
static enum config baseline_of(const enum config c)
{
	enum config b;

	for (b = CFG_INACTIVE; b < CFG_COUNT; b++)
		if (is_inactive(b) && config_addresses[b] == config_addresses[c])
			return b;
	return CFG_INACTIVE;
}
static const char *const loop_names[LOOP_COUNT] = {
	"tcp", "udp", "bind", "exec", "script", "protected",
};
static const char *const loop_titles[LOOP_COUNT] = {
	"TCP connect+accept (socket, connect, accept, close x2)",
	"UDP sendto, unconnected",
	"TCP socket+bind(port 0)+close",
	"fork + execve of a static program + wait",
	"fork + execve of a \"#!\" script (its interpreter the same program) "
	"+ wait",
	"fork + execve of a program that protect's policy protects + wait",
};
/* What each exec loop runs. */
static const char *const exec_paths[LOOP_COUNT] = {
	[LOOP_EXEC] = EXEC_PROGRAM,
	[LOOP_SCRIPT] = EXEC_SCRIPT,
	[LOOP_PROTECTED] = EXEC_PROTECTED,
};

#define MAX_HOOKS 16

struct snapshot {
	int n_hooks;
	char names[MAX_HOOKS][PFSEL_HOOK_NAME_MAX];
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
static char hook_names[MAX_HOOKS][PFSEL_HOOK_NAME_MAX];
static int n_hook_names;

/*
 * Iterations of each loop, in quarters of ITERATIONS: the cheaper loops
 * run longer, so that each timed loop lasts about as long; an exec costs
 * about five connects.
 */
static const long loop_quarters[LOOP_COUNT] = { 4, 80, 20, 1, 1, 1 };

static long loop_iterations(const enum loop l)
{
	const long n = iterations * loop_quarters[l] / 4;

	return n > 0 ? n : 1;
}

static bool is_exec_loop(const enum loop l)
{
	return exec_paths[l];
}

/*
 * The socket loops run in every configuration but protect, which is about
 * execve(); the exec loops in inactive, hits (a policy without protect)
 * and protect (the same with a rule that protects EXEC_PROTECTED), whose
 * addresses are inactive's.
 */
static bool loop_runs_in(const enum loop l, const enum config c)
{
	if (is_exec_loop(l))
		return c == CFG_INACTIVE || c == CFG_HITS || c == CFG_PROTECT;
	return c != CFG_PROTECT;
}

/*
 * The i-th iteration's address: 127.x.y.z where x.y is the 16-bit number
 * K = 1..HOT_SPREAD, or 1..COLD_SPREAD (ADDRS_COLD).  The policy puts each
 * such /24 in an address class of its own.  z is 1, or 1..AVC_HOSTS
 * (ADDRS_AVC), changing once every K has come, or NAMED_HOST (ADDRS_NAMED:
 * the only addresses the kernel has names for; a name, once learned,
 * stays for the whole run).
 */
static int addr_spread = HOT_SPREAD;
static int addr_hosts = 1;
static int addr_first_host = 1;

static void use_addresses(const enum addresses set)
{
	switch (set) {
	case ADDRS_COLD:
		addr_spread = COLD_SPREAD;
		break;
	case ADDRS_ONE:
		addr_spread = 1;
		break;
	case ADDRS_AVC:
		addr_hosts = AVC_HOSTS;
		break;
	case ADDRS_NAMED:
		addr_first_host = NAMED_HOST;
		break;
	default:
		break;
	}
}

static struct sockaddr_in spread(const long i, const int port)
{
	struct sockaddr_in a = loopback((int)(i % addr_spread) + 1, port);

	a.sin_addr.s_addr =
		htonl(ntohl(a.sin_addr.s_addr) - 1 + (uint32_t)addr_first_host +
		      (uint32_t)(i / addr_spread % addr_hosts));
	return a;
}

/* ---- pfsel's counters ----------------------------------------------- */

static void take_snapshot(struct snapshot *s)
{
	struct pfsel_avc_stats avc;
	struct pfsel_hook_stat *hooks;
	size_t n, i;
	int err;

	memset(s, 0, sizeof(*s));
	err = pfsel_get_hook_stats(&hooks, &n);
	if (err) {
		errno = -err;
		die("read hooks");
	}
	for (i = 0; i < n && s->n_hooks < MAX_HOOKS; i++) {
		memcpy(s->names[s->n_hooks], hooks[i].name,
		       sizeof(s->names[0]));
		s->calls[s->n_hooks] = hooks[i].calls;
		s->ns[s->n_hooks] = hooks[i].ns;
		s->n_hooks++;
	}
	free(hooks);
	err = pfsel_get_avc_stats(&avc);
	if (err) {
		errno = -err;
		die("parse avc/cache_stats");
	}
	s->lookups = avc.lookups;
	s->hits = avc.hits;
	s->misses = avc.misses;
}

static void setup_config(const enum config c)
{
	/*
	 * Only "named" runs under the system policy that names the benchmark
	 * a resolver: the names it taught go when that policy does
	 * (security/pfsel/reset.c), so it stays for named's loops.
	 */
	if (c != CFG_NAMED)
		unload_system_policy();
	switch (c) {
	case CFG_INACTIVE:
	case CFG_INACTIVE_NAMED:
	case CFG_INACTIVE_REPEAT:
	case CFG_INACTIVE_AVC:
	case CFG_INACTIVE_MISSES:
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
	case CFG_HOSTS:
		load_policy(&hosts);
		set_threshold(default_threshold);
		break;
	case CFG_NAMED:
		/*
		 * Again each round: the table keeps the newest 4096 pairs.
		 * The resolver's system policy stays loaded.
		 */
		names_learn(&resolver);
		load_policy(&hosts);
		set_threshold(default_threshold);
		break;
	case CFG_EVICT:
		load_policy(&big);
		set_threshold(1);
		break;
	case CFG_PROTECT:
		load_policy(&protect);
		set_threshold(default_threshold);
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
	const int expect = is_inactive(c) ? ECONNREFUSED : EACCES;
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

/*
 * The protected program refuses to start when its caller shares its
 * filesystem context with another process (security/pfsel/protect.c):
 * so a child made by clone(CLONE_FS) must fail to execute it, with EPERM,
 * in protect only.  A raw clone() without CLONE_VM is a fork() that
 * shares the fs_struct; the child calls nothing but execve() and _exit().
 */
static void check_protection(const enum config c)
{
	const int expect = c == CFG_PROTECT ? EPERM : 0;
	char *const argv[] = { EXEC_PROTECTED, NULL };
	char *const envp[] = { NULL };
	int status;
	pid_t pid;

	pid = (pid_t)syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);
	if (pid < 0)
		die("clone");
	if (pid == 0) {
		execve(EXEC_PROTECTED, argv, envp);
		_exit(errno == EPERM ? 3 : 4);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		die("wait");
	if (WEXITSTATUS(status) != (expect ? 3 : 0)) {
		fprintf(stderr,
			"pfsel_bench: %s: %s with a shared filesystem context "
			"gave status %d, expected %s\n",
			config_names[c], EXEC_PROTECTED, WEXITSTATUS(status),
			expect ? "a refusal (EPERM)" : "a start");
		exit(1);
	}
}

/* One iteration of an exec loop: fork, execve @path, wait; it must exit 0. */
static void spawn(const char *const path)
{
	char *const argv[] = { (char *)path, NULL };
	char *const envp[] = { NULL };
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		execve(path, argv, envp);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("%s did not run", path);
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
		case LOOP_EXEC:
		case LOOP_SCRIPT:
		case LOOP_PROTECTED:
			spawn(exec_paths[l]);
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

	become_bench_uid();
	if (c == CFG_LANDLOCK)
		landlock_restrict();
	check_denial(c);
	if (is_exec_loop(l))
		check_protection(c);
	use_addresses(config_addresses[c]);
	loop_setup(l);
	/*
	 * Warm caches (the AVC's too) with every address of the hot cycle;
	 * an exec loop's caches (the page cache, the dentries, the
	 * policy's classes) are warm after a few.
	 */
	run_loop(l, is_exec_loop(l) ? 16 : HOT_SPREAD * 4);
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

/* ---- the summary --------------------------------------------------- */

/*
 * Over the rounds, @c's time per iteration of loop @l over @base's in the
 * same round.
 */
static struct spread_stats ratio_to(const enum config c, const enum config base,
				    const enum loop l)
{
	double v[MAX_ROUNDS];
	int r;

	for (r = 0; r < rounds; r++)
		v[r] = results[c][l][r].ns / results[base][l][r].ns;
	return summarize(v, rounds);
}

void calls_report(void)
{
	double v[MAX_ROUNDS];
	enum config c;
	enum loop l;
	int r, h;

	printf("\n== pfsel_bench: %d rounds; iterations per loop: tcp %ld, "
	       "udp %ld, bind %ld, exec loops %ld; uid %u ==\n",
	       rounds, loop_iterations(LOOP_TCP), loop_iterations(LOOP_UDP),
	       loop_iterations(LOOP_BIND), loop_iterations(LOOP_EXEC),
	       (unsigned int)bench_uid);
	printf("ns/iter and ratios: hooks untimed; median [IQR] (min-max) "
	       "over the rounds of the\nconfiguration's time over the same "
	       "round's inactive time (\"vs inactive\"),\nand over the same "
	       "round's time with no policy over the configuration's own\n"
	       "addresses (\"vs same addresses\": inactive-named, "
	       "inactive-repeat, inactive-avc,\ninactive-misses; inactive's "
	       "own for the others).  The second is pfsel's cost,\nwhich the "
	       "targets are read against: the first also counts what cycling "
	       "over more\naddresses costs the network stack with no policy "
	       "at all.  pfsel ns and share:\na second run with the hooks "
	       "timed (kernel per-CPU timers): time inside pfsel's\nhooks per "
	       "iteration, and its share of that run's iteration.\n");
	for (l = 0; l < LOOP_COUNT; l++) {
		printf("\n%s\n", loop_titles[l]);
		printf("  %-15s %10s %23s %19s %26s %11s %7s %8s\n", "config",
		       "ns/iter", "[IQR] (min-max)", "vs inactive",
		       "vs same addresses", "pfsel ns", "share", "AVC hit");
		for (c = 0; c < CFG_COUNT; c++) {
			struct spread_stats t, ratio, own_ratio, own, share;
			unsigned long long lookups = 0, hits = 0;
			char buf[64], hit[16];

			if (!loop_runs_in(l, c))
				continue;

			for (r = 0; r < rounds; r++)
				v[r] = results[c][l][r].ns;
			t = summarize(v, rounds);
			ratio = ratio_to(c, CFG_INACTIVE, l);
			own_ratio = ratio_to(c, baseline_of(c), l);
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
			printf("  %-15s %10.0f %23s", config_names[c],
			       t.median, buf);
			snprintf(buf, sizeof(buf), "%.3f [%.3f-%.3f]",
				 ratio.median, ratio.q1, ratio.q3);
			printf(" %19s", buf);
			snprintf(buf, sizeof(buf), "%.3f [%.3f-%.3f] (%.2f-%.2f)",
				 own_ratio.median, own_ratio.q1, own_ratio.q3,
				 own_ratio.min, own_ratio.max);
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
			/*
			 * Fewer than one call in ten iterations is not the
			 * loop's: the parent's own opens of pfsel's files
			 * around the timed run (file_open).
			 */
			if (results[CFG_HITS][l][0].hook_calls[h] * 10 <
				    (unsigned long long)loop_iterations(l) &&
			    results[CFG_INACTIVE][l][0].hook_calls[h] * 10 <
				    (unsigned long long)loop_iterations(l))
				continue;
			printf("  %-5s %-18s %5.2f/iter", loop_names[l],
			       hook_names[h],
			       (double)results[CFG_HITS][l][0].hook_calls[h] /
				       (double)loop_iterations(l));
			for (c = 0; c < CFG_COUNT; c++) {
				struct spread_stats s;
				int n = 0;

				if (!loop_runs_in(l, c))
					continue;

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

/*
 * Round @r's measurements of the exec loops (@exec_loops) or of the
 * socket loops, in every configuration they run in, in an order rotated
 * from round to round.  The exec loops are measured together, after the
 * socket loops: what an exec costs drifts over a boot's first minutes
 * (from 920,000 instructions an iteration to 977,000 over rounds 0 and 1,
 * in every configuration alike, also after 6,000 execs run beforehand),
 * and the configurations a round compares must be measured close together.
 */
static void run_part(const int r, const bool exec_loops)
{
	int i, j;

	for (i = 0; i < CFG_COUNT; i++) {
		const enum config c = (enum config)((i + r) % CFG_COUNT);
		bool set_up = false;

		for (j = 0; j < LOOP_COUNT; j++) {
			const enum loop l = (enum loop)((j + r) % LOOP_COUNT);

			if (is_exec_loop(l) != exec_loops || !loop_runs_in(l, c))
				continue;
			if (!set_up)
				setup_config(c);
			set_up = true;
			measure(r, c, l);
		}
	}
}

void calls_run(void)
{
	const double start = now_ns();
	int r;

	for (r = 0; r < rounds; r++) {
		run_part(r, false);
		run_part(r, true);
		fprintf(stderr, "pfsel_bench: round %d of %d done, %.0f s\n",
			r + 1, rounds, (now_ns() - start) / 1e9);
	}
}
