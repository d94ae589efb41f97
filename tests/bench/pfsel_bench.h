/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel_bench - what its files share.  pfsel_bench.c is the driver (the
 * options, the policies, pfsel's controls through libpfsel), and each
 * benchmark a file of its own: pfsel_bench_calls.c (pfsel's cost on socket
 * calls, every configuration, and on fork + execve + wait),
 * pfsel_bench_names.c (the names of the
 * named configuration, taught to the kernel as a resolver would),
 * pfsel_bench_ask.c (asking an agent); the statistics are
 * pfsel_bench_stats.c.
 */

#ifndef PFSEL_BENCH_H
#define PFSEL_BENCH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Keep in step with tests/bench/gen-policy. */
#define TCP_PORT 40007
#define UDP_PORT 40009
#define DENIED_PORT 40008
/* The port the ask policy asks about (tests/bench/run writes the rule). */
#define ASK_PORT 40010

#define MAX_ROUNDS 200

/*
 * The "named" configuration's addresses: 127.x.y.NAMED_HOST, each with the
 * name kK.named.bench.example (K = x.y) that the host rules of
 * tests/bench/gen-policy allow.
 */
#define NAMED_HOST 2
#define NAMED_DOMAIN "named.bench.example"
/* Their TTL: the longest the kernel keeps, so no name expires in a run. */
#define NAMED_TTL 86400
/* How many addresses the loops cycle over (but for avc and misses). */
#define HOT_SPREAD 256

/*
 * The exec loops' programs (tests/bench/run puts them in /add): a static
 * program that exits at once, a "#!" script that it interprets, and a copy
 * of the program that the protect configuration's policy marks "protect".
 */
#define EXEC_PROGRAM "/add/exec_target"
#define EXEC_SCRIPT "/add/exec_script"
#define EXEC_PROTECTED "/add/exec_protected"

/* The options: -r, -n, -u, -A. */
extern int rounds;
extern long iterations;
extern uid_t bench_uid;
extern long ask_iterations;

/* A compiled policy, read whole: -p, -s, -H, -R, -P, -a. */
struct policy {
	const char *path;
	void *blob;
	size_t len;
};

extern struct policy big, small, hosts, resolver, protect, ask_policy;
/* avc/cache_threshold as the boot left it. */
extern unsigned int default_threshold;

/* ---- pfsel_bench.c ------------------------------------------------- */

/* "pfsel_bench: MESSAGE: strerror(errno)", and exit 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
double now_ns(void);
/* 127.x.y.1 with x.y the 16-bit number @k, port @port. */
struct sockaddr_in loopback(int k, int port);
/* Become bench_uid for good: the loops run as the user. */
void become_bench_uid(void);

/* pfsel, through libpfsel: each dies on failure. */
void load_policy(const struct policy *p);
void unload_policy(void);
void load_system_policy(const struct policy *p);
void unload_system_policy(void);
void set_threshold(unsigned int t);
void set_hook_timing(bool on);

/* ---- pfsel_bench_stats.c ------------------------------------------- */

struct spread_stats {
	double median, q1, q3, min, max;
};

/* Median, quartiles and range of @v (sorted in place). */
struct spread_stats summarize(double *v, int n);

/* ---- pfsel_bench_calls.c ------------------------------------------- */

/*
 * ROUNDS rounds of every configuration and loop (the socket calls', the
 * exec loops'); then the summary.
 */
void calls_run(void);
void calls_report(void);

/* ---- pfsel_bench_names.c ------------------------------------------- */

/*
 * Teach the kernel the names of the named configuration (NAMED_HOST
 * above), under the system policy @resolver_policy, which names this
 * program a resolver and is unloaded again; then check that the table of
 * learned names has them all.  Runs as root, in the parent.
 */
void names_learn(const struct policy *resolver_policy);

/* ---- pfsel_bench_ask.c --------------------------------------------- */

/* ROUNDS rounds of the ask measurements (-a); then their summary. */
void ask_run(void);
void ask_report(void);

#endif /* PFSEL_BENCH_H */
