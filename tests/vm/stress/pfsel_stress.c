// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_stress - pfsel's hooks, caches and tables while everything around
 * them changes, on every CPU (tests/vm/stress/run boots the VM with 4).
 *
 *   pfsel_stress [-t SECONDS] [-T]
 *
 * For SECONDS (default 60), as root:
 *
 * - the users: a process each for uids 1001, 1002 and 1003, with one
 *   thread pinned to each CPU, that connect (IPv4, IPv6, io_uring, Fast
 *   Open), send, bind, listen and accept (the inbound hook, in softirq),
 *   look up host names through the resolver and connect to them; and a
 *   process of each user's that executes netprobe and, for uid 1001, a
 *   protected program;
 * - the root side: 1001's policy and the system policy replaced in turn
 *   (a <-> b), 1002's unloaded and loaded again; the mode switched
 *   (enforcing, permissive); the agents of 1001 (--auto=allow) and 1002
 *   (--auto=allow --scope=session) started, killed (SIGTERM or SIGKILL)
 *   and replaced by a newer one while they answer; answers forgotten, the
 *   AVC's threshold changed, and every statistics file, the policies and
 *   the host names read; with -T hook timing switched on and off too.
 *   (Its static key's jump is patched in the hooks while they run on the
 *   other CPUs, which QEMU 7.2's multi-threaded TCG gets wrong: a vCPU
 *   runs the patch's int3 after the patching ended and the kernel dies.
 *   tests/vm/stress/run --hook-timing runs the vCPUs on one host thread
 *   and passes -T; docs/FUZZING.md.)
 *
 * The host names: in-vm runs Debian's dnsmasq as the resolver on
 * 127.0.0.1 (no cache, so every answer passes the kernel) before the
 * zone's dnsmasq on 127.0.0.2, which answers NAME.tT.uU.stress.test with
 * 127.0.20.(16 * U + T + 1), and NAME.slow.tT.uU.stress.test with a
 * second address, for a TTL of 1 s: the kernel keeps each name the 30 s
 * of its floor.  A thread looks a new name up every round, of its second
 * address every eighth: the first address's oldest names are replaced (8
 * an address), the second's expire while the run goes on.
 *
 * What must hold, each a check in the last line ("N passed, M failed"):
 *
 * - no call fails but as its policies allow: an endpoint every policy a
 *   thread meets allows (port 7100, binds, accepts on 76xx, a name just
 *   looked up) is never refused, whatever policy or mode is in force or
 *   in change; the others are done or refused (EACCES), nothing else;
 *   the protected program always starts protected (both of 1001's
 *   policies protect it);
 * - nothing hangs: no call takes a minute (an ask waits 1 s at most);
 * - every user did every call, on every CPU;
 * - every load, mode switch and administrator's write succeeded (and with
 *   -T every switch of hook timing, and the hooks counted time);
 * - afterwards, with the first policies loaded again, enforcing, and one
 *   agent: each decision is the policies' (denied, asked and answered,
 *   a fresh name allowed, an address no name leads to refused), the
 *   protected program is protected, and no question is left pending.
 *
 * The kernel's own reports (KCSAN, lockdep, KASAN, any BUG or WARNING) are
 * read from the console by tests/vm/stress/run.
 */

#define _GNU_SOURCE
#include <getopt.h>
#include <netdb.h>
#include <pthread.h>
#include <sys/mman.h>

/*
 * An accepted connection's handshake is given 5 s (the header's default
 * is 1 s): twelve threads on four emulated CPUs under KCSAN are slow.
 */
#define PFSEL_SYN_WAIT_MS 5000
#include "../pfsel_test_util.h"

/* The users, each a process with a thread on each CPU. */
#define USERS 3
static const uid_t user_uid[USERS] = { 1001, 1002, 1003 };
#define MAX_CPUS 16

/* Ports (loopback), as the policies tests/vm/policies/stress_*.pfw say. */
#define PORT_ALLOWED 7100
#define PORT_NAMED 7101
#define PORT_DENIED 7102
#define PORT_ASKED 7103
#define PORT_SEND 7150
#define PORT_SEND_DENIED 7152
#define PORT_SYSTEM_DENIED 7201
#define PORT_SYSTEM_B_DENIED 7202
#define PORT_BIND_DENIED 7211
/* A thread's own port of each kind: BASE + 32 * user + thread. */
#define PORT_BIND_BASE 7400
#define PORT_ACCEPT_BASE 7600
#define PORT_ACCEPT_DENIED_BASE 7700
/* Root's listeners, on every address of both families. */
static const unsigned short listen_ports[] = {
	PORT_ALLOWED, PORT_NAMED,	  PORT_DENIED,
	PORT_ASKED,   PORT_SYSTEM_DENIED, PORT_SYSTEM_B_DENIED,
};

/* The policies the run starts with, and the checks after it. */
static const char *const first_policies[] = {
	"stress_system",
	"stress_1001",
	"stress_1002",
	"stress_1003",
};

/* A call taking this long is a hang: an ask waits 1 s, a SYN 5 s. */
#define STALL_MS 60000
/* How long the users' processes are given to stop after the run. */
#define STOP_MS 120000

/* The outcome of a host-name lookup that got no address. */
#define LOOKUP_FAILED (-1)

/* What a user's thread does, each round or every few rounds. */
enum stress_op {
	OP_CONNECT,
	OP_CONNECT6,
	OP_CONNECT_DENIED,
	OP_CONNECT_ASKED,
	OP_CONNECT_SYSTEM_DENIED,
	OP_SEND,
	OP_SEND_DENIED,
	OP_FASTOPEN,
	OP_URING_CONNECT,
	OP_BIND,
	OP_BIND_DENIED,
	OP_ACCEPT,
	OP_ACCEPT_DENIED,
	OP_NAME,
	OP_EXEC,
	OP_EXEC_PROTECTED,
	OP_COUNT
};

/*
 * @every: the rounds it runs in (every Nth), for the calls that may wait
 * (an ask for its time-out, a dropped SYN for PFSEL_SYN_WAIT_MS, an exec);
 * @allowed: allowed by every policy and in every mode a thread meets,
 * so never refused; @first_user: only uid 1001's; @execs: made by each
 * user's process that executes programs, not by its threads (a fork() in
 * a process whose threads hold sockets holds them open until the exec: a
 * listener a thread closed would go on listening, and the thread's next
 * bind of its port fail).
 */
struct op_desc {
	const char *name;
	unsigned int every;
	bool allowed, first_user, execs;
};

static const struct op_desc ops[OP_COUNT] = {
	[OP_CONNECT] = { "connect", 1, true, false, false },
	[OP_CONNECT6] = { "connect-ipv6", 1, true, false, false },
	[OP_CONNECT_DENIED] = { "connect-denied", 1, false, false, false },
	[OP_CONNECT_ASKED] = { "connect-asked", 4, false, false, false },
	[OP_CONNECT_SYSTEM_DENIED] = { "connect-system", 1, false, false,
				       false },
	[OP_SEND] = { "send", 1, true, false, false },
	[OP_SEND_DENIED] = { "send-denied", 1, false, false, false },
	[OP_FASTOPEN] = { "fastopen", 1, true, false, false },
	[OP_URING_CONNECT] = { "uring-connect", 1, true, false, false },
	[OP_BIND] = { "bind", 1, true, false, false },
	[OP_BIND_DENIED] = { "bind-denied", 1, false, false, false },
	[OP_ACCEPT] = { "accept", 1, true, false, false },
	[OP_ACCEPT_DENIED] = { "accept-denied", 8, false, false, false },
	[OP_NAME] = { "name", 1, true, false, false },
	[OP_EXEC] = { "exec", 1, true, false, true },
	[OP_EXEC_PROTECTED] = { "exec-protected", 1, true, true, true },
};

/* One thread's outcomes of one call. */
struct op_count {
	unsigned long calls, done, refused, other, unexpected;
	int unexpected_err; /* the first unexpected outcome */
	long long max_ms;
};

/*
 * One user's thread, or (after the threads, the last) its process that
 * executes programs, in memory shared with the root process.
 */
struct worker {
	struct op_count op[OP_COUNT];
	unsigned long on_cpu[MAX_CPUS]; /* calls made on each CPU */
	long long busy_since; /* when the call under way began, or 0 */
	int busy_op;
};

struct shared {
	int stop;
	struct worker worker[USERS][MAX_CPUS + 1];
};

static struct shared *shared;
static int cpus;
/* Root's listeners accept until the checks after the run are done. */
static int listening = 1;

/* ---- A user's calls ------------------------------------------------- */

static unsigned short thread_port(unsigned short base, int user, int thread)
{
	return (unsigned short)(base + 32 * user + thread);
}

/*
 * Look a new name of the thread's up (the C library, the resolver) and
 * connect to its address: as a probe.  Every eighth a name of the
 * thread's second address, which gets a new name only that often: the
 * first address's names are replaced (8 an address) long before they
 * expire, the second's live out their 30 s.
 */
static int name_connect(int user, int thread, unsigned long round)
{
	const struct addrinfo hints = { .ai_family = AF_INET,
					.ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	char name[96];
	int fd, ret;

	snprintf(name, sizeof(name), "n%lu.%st%d.u%d.stress.test", round,
		 round % 8 == 7 ? "slow." : "", thread, user);
	if (getaddrinfo(name, "7101", &hints, &res))
		return LOOKUP_FAILED;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = errno;
	} else {
		ret = connect(fd, res->ai_addr, res->ai_addrlen) ? errno : 0;
		close(fd);
	}
	freeaddrinfo(res);
	return ret;
}

/*
 * The protected program: 0 when it ran protected (secure-execution mode),
 * EPERM when it ran unprotected, else the exec's error.
 */
static int exec_protected(void)
{
	static const char *const argv[] = { PFSEL_TESTS_DIR "/protectee",
					    NULL };
	char line[128];
	const int err = pfsel_exec_output(pfsel_exec_fn, (void *)argv, line,
					  sizeof(line));

	if (err)
		return err < 0 ? ENOEXEC : err;
	return strncmp(line, "secure=1 ", 9) ? EPERM : 0;
}

static int run_op(enum stress_op op, int user, int thread, unsigned long round)
{
	struct pfsel_probe probe = { .op = PFSEL_PROBE_CONNECT,
				     .family = AF_INET,
				     .type = SOCK_STREAM,
				     .addr = "127.0.0.1",
				     .port = PORT_ALLOWED };

	switch (op) {
	case OP_CONNECT:
		break;
	case OP_CONNECT6:
		probe.family = AF_INET6;
		probe.addr = "::1";
		break;
	case OP_CONNECT_DENIED:
		probe.port = PORT_DENIED;
		break;
	case OP_CONNECT_ASKED:
		probe.port = PORT_ASKED;
		break;
	case OP_CONNECT_SYSTEM_DENIED:
		probe.port = round % 2 ? PORT_SYSTEM_DENIED :
					 PORT_SYSTEM_B_DENIED;
		break;
	case OP_SEND:
	case OP_SEND_DENIED:
		probe.op = PFSEL_PROBE_SENDTO;
		probe.type = SOCK_DGRAM;
		probe.port = op == OP_SEND ? PORT_SEND : PORT_SEND_DENIED;
		break;
	case OP_FASTOPEN:
		probe.op = PFSEL_PROBE_FASTOPEN;
		break;
	case OP_URING_CONNECT:
		probe.op = PFSEL_PROBE_URING_CONNECT;
		break;
	case OP_BIND:
	case OP_BIND_DENIED:
		probe.op = PFSEL_PROBE_BIND;
		probe.type = SOCK_DGRAM;
		probe.port = op == OP_BIND ?
				     thread_port(PORT_BIND_BASE, user, thread) :
				     PORT_BIND_DENIED;
		break;
	case OP_ACCEPT:
		probe.op = PFSEL_PROBE_ACCEPT;
		probe.port = thread_port(PORT_ACCEPT_BASE, user, thread);
		break;
	case OP_ACCEPT_DENIED:
		probe.op = PFSEL_PROBE_ACCEPT;
		probe.port = thread_port(PORT_ACCEPT_DENIED_BASE, user, thread);
		break;
	case OP_NAME:
		return name_connect(user, thread, round);
	case OP_EXEC:
		return pfsel_netprobe_as(user_uid[user], NULL, "connect",
					 "127.0.0.1", PORT_ALLOWED, NULL);
	case OP_EXEC_PROTECTED:
		return exec_protected();
	default:
		return EINVAL;
	}
	return pfsel_probe_run(&probe);
}

/*
 * Count @ret, the outcome of @op: done (0), refused (EACCES, where a
 * policy may refuse), another outcome the call may have (a denied bind
 * meeting another thread's, a denied SYN dropped, a lookup that got no
 * answer in time), or unexpected.
 */
static void count_outcome(struct op_count *count, enum stress_op op, int ret)
{
	bool other;

	switch (op) {
	case OP_BIND_DENIED:
		other = ret == EADDRINUSE;
		break;
	case OP_ACCEPT_DENIED:
		other = ret == PFSEL_PROBE_DROPPED;
		break;
	case OP_NAME:
		other = ret == LOOKUP_FAILED;
		break;
	default:
		other = false;
	}
	count->calls++;
	if (ret == 0) {
		count->done++;
	} else if (ret == EACCES && !ops[op].allowed) {
		count->refused++;
	} else if (other) {
		count->other++;
	} else {
		if (!count->unexpected++)
			count->unexpected_err = ret;
		if (ret == EACCES)
			count->refused++;
	}
}

/* What a user's thread (or exec process) does: @slot its worker, and port. */
struct thread_arg {
	int user, slot, cpu;
	bool execs;
};

static void *user_thread(void *argp)
{
	const struct thread_arg *arg = argp;
	struct worker *w = &shared->worker[arg->user][arg->slot];
	unsigned long round;
	cpu_set_t set;
	long long start, took;
	int op, ret, cpu;

	CPU_ZERO(&set);
	CPU_SET(arg->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	for (round = 0; !__atomic_load_n(&shared->stop, __ATOMIC_RELAXED);
	     round++) {
		for (op = 0; op < OP_COUNT; op++) {
			if (round % ops[op].every ||
			    (ops[op].first_user && arg->user) ||
			    ops[op].execs != arg->execs)
				continue;
			start = pfsel_now_ms();
			cpu = sched_getcpu();
			w->busy_op = op;
			__atomic_store_n(&w->busy_since, start,
					 __ATOMIC_RELEASE);
			ret = run_op(op, arg->user, arg->slot, round);
			__atomic_store_n(&w->busy_since, 0, __ATOMIC_RELEASE);
			took = pfsel_now_ms() - start;
			count_outcome(&w->op[op], op, ret);
			if (took > w->op[op].max_ms)
				w->op[op].max_ms = took;
			if (cpu >= 0 && cpu < MAX_CPUS)
				w->on_cpu[cpu]++;
		}
	}
	return NULL;
}

/*
 * A user's process: one thread a CPU, and a process of its own that
 * executes programs (forked first, so that it holds none of the threads'
 * sockets), until the run stops.
 */
static int user_process(void *argp)
{
	const int user = *(const int *)argp;
	const pid_t parent = getpid();
	struct thread_arg args[MAX_CPUS + 1];
	pthread_t threads[MAX_CPUS];
	int i, started = 0;
	pid_t execs;

	args[cpus] = (struct thread_arg){
		.user = user, .slot = cpus, .cpu = user % cpus, .execs = true
	};
	execs = fork();
	if (execs == 0) {
		pfsel_die_with_parent(parent);
		user_thread(&args[cpus]);
		_exit(0);
	}
	for (i = 0; i < cpus; i++) {
		args[i] = (struct thread_arg){ .user = user,
					       .slot = i,
					       .cpu = i };
		if (pthread_create(&threads[i], NULL, user_thread, &args[i]))
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	return started == cpus && execs > 0 && !pfsel_wait_status(execs) ? 0 :
									   1;
}

/* ---- The root side -------------------------------------------------- */

/* What one of root's threads did: how often, and how often it failed. */
struct churn {
	const char *what;
	unsigned long done, failed;
	int first_err;
	void *(*fn)(void *);
};

static void churn_result(struct churn *c, int err)
{
	c->done++;
	if (err && !c->failed++)
		c->first_err = err;
}

static bool stopping(void)
{
	return __atomic_load_n(&shared->stop, __ATOMIC_RELAXED);
}

/* Sleep a random time of up to @ms milliseconds. */
static void nap(unsigned int *seed, unsigned int ms)
{
	usleep(1000 * (rand_r(seed) % (ms + 1)));
}

/*
 * Replace 1001's policy and the system's (a <-> b) in turn; unload 1002's
 * and load it again.  Every load must succeed, every unload find its
 * policy.
 */
static void *policy_churn(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 1;
	unsigned long round;

	for (round = 0; !stopping(); round++) {
		churn_result(c, pfsel_load(round % 2 ? "stress_b_1001" :
						       "stress_1001"));
		if (round % 3 == 0)
			churn_result(c,
				     pfsel_load(round % 2 ? "stress_system_b" :
							    "stress_system"));
		if (round % 4 == 1)
			churn_result(c, pfsel_unload_uid(user_uid[1]));
		else if (round % 4 == 2)
			churn_result(c, pfsel_load("stress_1002"));
		nap(&seed, 60);
	}
	if (round % 4 == 2) /* unloaded last */
		churn_result(c, pfsel_load("stress_1002"));
	return NULL;
}

/* Switch between enforcing and permissive; end enforcing. */
static void *mode_churn(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 2;
	bool enforcing = true;

	while (!stopping()) {
		enforcing = !enforcing;
		churn_result(c, pfsel_set_enforce(enforcing));
		nap(&seed, enforcing ? 300 : 100);
	}
	churn_result(c, pfsel_set_enforce(true));
	return NULL;
}

/* Start pfsel-agent for @uid as root does, answering by itself: its pid. */
static pid_t agent_start(uid_t uid)
{
	char user[32];
	const char *const argv[] = { PFSEL_AGENT, user, "--auto=allow",
				     uid == user_uid[0] ? "--scope=once" :
							  "--scope=session",
				     NULL };
	const pid_t parent = getpid();
	pid_t pid;
	int null;

	snprintf(user, sizeof(user), "--user=%u", (unsigned int)uid);
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
		    dup2(null, STDOUT_FILENO) < 0 ||
		    dup2(null, STDERR_FILENO) < 0)
			_exit(125);
		pfsel_die_with_parent(parent);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/*
 * The agents of 1001 and 1002: each started, answering for a while,
 * killed with SIGTERM or SIGKILL; now and then a newer one started while
 * the older still runs (it takes over; the older exits).
 */
static void *agent_churn(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 3;
	unsigned long round;
	pid_t agent[2] = { 0, 0 }, older;
	int i;

	for (round = 0; !stopping(); round++) {
		i = round % 2;
		older = 0;
		if (agent[i] > 0 && round % 5 == 0) {
			older = agent[i];
		} else if (agent[i] > 0) {
			kill(agent[i], round % 3 ? SIGTERM : SIGKILL);
			waitpid(agent[i], NULL, 0);
		}
		agent[i] = agent_start(user_uid[i]);
		churn_result(c, agent[i] > 0 ? 0 : errno);
		if (older > 0) {
			/* Replaced: it exits by itself, or is made to. */
			nap(&seed, 500);
			kill(older, SIGKILL);
			waitpid(older, NULL, 0);
		}
		nap(&seed, 800);
	}
	for (i = 0; i < 2; i++) {
		if (agent[i] > 0) {
			kill(agent[i], SIGKILL);
			waitpid(agent[i], NULL, 0);
		}
	}
	return NULL;
}

/* Read pfsel's securityfs file @name to its end: 0 or -errno. */
static int read_whole(const char *name)
{
	char path[PATH_MAX], buf[8192];
	int fd = open(pfsel_raw_path(name, path, sizeof(path)),
		      O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	return n < 0 ? -EIO : 0;
}

/* One of the administrator's writes or reads, chosen by @which. */
static int admin_once(unsigned int which, unsigned int *seed)
{
	struct pfsel_policy_info *policies;
	struct pfsel_hook_stat *hooks;
	struct pfsel_avc_stats avc;
	struct pfsel_ask_stats ask;
	struct pfsel_status status;
	size_t n;
	int err;

	switch (which % 8) {
	case 0:
		return pfsel_forget_uid(user_uid[rand_r(seed) % 2]);
	case 1:
		return pfsel_set_avc_threshold(1 + rand_r(seed) % 1024);
	case 2:
		return pfsel_get_avc_stats(&avc);
	case 3:
		err = pfsel_get_hook_stats(&hooks, &n);
		if (!err)
			free(hooks);
		return err;
	case 4:
		err = pfsel_policies(&policies, &n);
		if (!err)
			free(policies);
		return err;
	case 5:
		return pfsel_get_ask_stats(&ask) ?: pfsel_get_status(&status);
	case 6:
		return read_whole("hosts");
	default:
		return read_whole("hosts_stats");
	}
}

/*
 * Switch hook timing on and off (-T): its static key's jump is patched in
 * every hook while the users' threads run them.  Ends off, as at boot.
 */
static void *timing_churn(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 5;
	bool on = false;

	while (!stopping()) {
		on = !on;
		churn_result(c, pfsel_set_hook_timing(on));
		nap(&seed, 50);
	}
	churn_result(c, pfsel_set_hook_timing(false));
	return NULL;
}

/* Nanoseconds the hooks counted, summed over every hook; 0 on error. */
static uint64_t hooks_ns(void)
{
	struct pfsel_hook_stat *hooks;
	uint64_t ns = 0;
	size_t n, i;

	if (pfsel_get_hook_stats(&hooks, &n))
		return 0;
	for (i = 0; i < n; i++)
		ns += hooks[i].ns;
	free(hooks);
	return ns;
}

static void *admin_churn(void *arg)
{
	struct churn *c = arg;
	unsigned int seed = 4, which;

	for (which = 0; !stopping(); which++) {
		churn_result(c, admin_once(which, &seed));
		nap(&seed, 40);
	}
	return NULL;
}

/* ---- Checks --------------------------------------------------------- */

static int passed, failed;

__attribute__((format(printf, 2, 3))) static void check(bool ok,
							const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* Whether @op is one that user @user's worker @slot makes. */
static bool makes(enum stress_op op, int user, int slot)
{
	return !(ops[op].first_user && user) && ops[op].execs == (slot == cpus);
}

/* Each user's calls, summed over its threads, each a check. */
static void check_calls(void)
{
	struct op_count sum;
	unsigned long on_cpu[MAX_CPUS] = { 0 };
	int user, thread, op, cpu;
	bool every_thread;

	for (user = 0; user < USERS; user++) {
		for (op = 0; op < OP_COUNT; op++) {
			if (ops[op].first_user && user)
				continue;
			memset(&sum, 0, sizeof(sum));
			every_thread = true;
			for (thread = 0; thread <= cpus; thread++) {
				const struct op_count *c =
					&shared->worker[user][thread].op[op];

				if (!makes(op, user, thread))
					continue;
				every_thread &= c->calls > 0;
				sum.calls += c->calls;
				sum.done += c->done;
				sum.refused += c->refused;
				sum.other += c->other;
				if (c->unexpected && !sum.unexpected)
					sum.unexpected_err = c->unexpected_err;
				sum.unexpected += c->unexpected;
				if (c->max_ms > sum.max_ms)
					sum.max_ms = c->max_ms;
			}
			check(every_thread && !sum.unexpected &&
				      (!ops[op].allowed || sum.done > 0),
			      "uid %u %s: %lu calls (%s), %lu done, %lu refused, %lu other, %lu unexpected (first: %d), longest %lld ms",
			      (unsigned int)user_uid[user], ops[op].name,
			      sum.calls,
			      every_thread ? "every thread" :
					     "NOT every thread",
			      sum.done, sum.refused, sum.other, sum.unexpected,
			      sum.unexpected_err, sum.max_ms);
		}
		for (thread = 0; thread <= cpus; thread++)
			for (cpu = 0; cpu < MAX_CPUS; cpu++)
				on_cpu[cpu] +=
					shared->worker[user][thread].on_cpu[cpu];
	}
	for (cpu = 0; cpu < cpus; cpu++)
		check(on_cpu[cpu] > 0, "calls on CPU %d: %lu", cpu,
		      on_cpu[cpu]);
}

/* The longest call under way now, in @op; 0 when none is. */
static long long longest_busy(int *op)
{
	const long long now = pfsel_now_ms();
	long long since, longest = 0;
	int user, thread;

	for (user = 0; user < USERS; user++) {
		for (thread = 0; thread <= cpus; thread++) {
			const struct worker *w = &shared->worker[user][thread];

			since = __atomic_load_n(&w->busy_since,
						__ATOMIC_ACQUIRE);
			if (since && now - since > longest) {
				longest = now - since;
				*op = w->busy_op;
			}
		}
	}
	return longest;
}

/*
 * Wait for the users' processes, watching for a call that hangs, until
 * the run's end and then for STOP_MS more: whether they all stopped.
 */
static bool run_users(pid_t *pids, long long end)
{
	long long longest = 0, busy;
	int left = USERS, i, op = 0, stalled_op = 0;

	while (left) {
		for (i = 0; i < USERS; i++) {
			if (pids[i] > 0 &&
			    waitpid(pids[i], NULL, WNOHANG) > 0) {
				left--;
				pids[i] = 0;
			}
		}
		busy = longest_busy(&op);
		if (busy > longest) {
			longest = busy;
			stalled_op = op;
		}
		if (pfsel_now_ms() >= end)
			__atomic_store_n(&shared->stop, 1, __ATOMIC_RELAXED);
		if (pfsel_now_ms() >= end + STOP_MS)
			break;
		usleep(200 * 1000);
	}
	check(longest < STALL_MS,
	      "no call hung: the longest seen under way took %lld ms (%s)",
	      longest, ops[stalled_op].name);
	for (i = 0; i < USERS; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
	return left == 0;
}

/* A probe of @uid's, as the checks after the run make it. */
static void expect_probe(uid_t uid, enum pfsel_probe_op op, int type,
			 unsigned short port, int want, const char *what)
{
	const struct pfsel_probe probe = { .op = op,
					   .family = AF_INET,
					   .type = type,
					   .addr = "127.0.0.1",
					   .port = port };
	const int got = pfsel_probe_as(uid, &probe);

	check(got == want, "after: uid %u %s %u (%s): %d, expected %d",
	      (unsigned int)uid, pfsel_probe_names[op], port, what, got, want);
}

static int name_fn(void *arg)
{
	return name_connect(0, 0, *(unsigned long *)arg);
}

static int protected_fn(void *arg)
{
	return exec_protected();
}

/* A host-name counter of hosts_stats ("learned", "expired"), or -1. */
static long long hosts_counter(const char *name)
{
	char path[PATH_MAX], text[1024], *line2, *field, *value, *save1, *save2;
	long long found = -1;

	if (pfsel_read_file(pfsel_raw_path("hosts_stats", path, sizeof(path)),
			    text, sizeof(text)) <= 0)
		return -1;
	line2 = strchr(text, '\n');
	if (!line2)
		return -1;
	*line2++ = '\0';
	field = strtok_r(text, " ", &save1);
	value = strtok_r(line2, " \n", &save2);
	while (field && value && found < 0) {
		if (!strcmp(field, name))
			found = atoll(value);
		field = strtok_r(NULL, " ", &save1);
		value = strtok_r(NULL, " \n", &save2);
	}
	return found;
}

/* Load the first policies: 0, or the first load's error. */
static int load_first_policies(void)
{
	size_t i;
	int err = 0;

	for (i = 0;
	     i < sizeof(first_policies) / sizeof(first_policies[0]) && !err;
	     i++)
		err = pfsel_load(first_policies[i]);
	return err;
}

/* The first policies, enforcing, one agent: each decision as they say. */
static void check_after(unsigned int seconds)
{
	struct pfsel_agent_process agent;
	const char *const agent_options[] = { "--auto=allow", NULL };
	unsigned long fresh = 1000000000UL;
	long long learned = hosts_counter("learned"),
		  expired = hosts_counter("expired");
	struct ask_stats stats;
	bool read;
	int err;

	check(learned > 0, "host names learned during the run: %lld", learned);
	/* Names learned in the first seconds run out after 30 s. */
	if (seconds >= 45)
		check(expired > 0, "host names expired during the run: %lld",
		      expired);

	err = load_first_policies() ?: pfsel_set_enforce(true);
	check(!err, "after: the first policies loaded again, enforcing: %d",
	      err);
	check(pfsel_start_agent(&agent, user_uid[0], agent_options, NULL, NULL,
				false, 20000),
	      "after: uid 1001's agent registers");

	expect_probe(1001, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_ALLOWED, 0,
		     "allowed");
	expect_probe(1001, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_DENIED,
		     EACCES, "denied");
	expect_probe(1001, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_ASKED, 0,
		     "asked, the agent allows");
	expect_probe(1001, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_SYSTEM_DENIED,
		     EACCES, "the system policy denies");
	expect_probe(1001, PFSEL_PROBE_SENDTO, SOCK_DGRAM, PORT_SEND_DENIED,
		     EACCES, "denied");
	expect_probe(1001, PFSEL_PROBE_ACCEPT, SOCK_STREAM,
		     thread_port(PORT_ACCEPT_DENIED_BASE, 0, 0),
		     PFSEL_PROBE_DROPPED, "denied: the SYN dropped");
	expect_probe(1002, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_DENIED,
		     EACCES, "denied");
	expect_probe(1003, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_ASKED, EACCES,
		     "asked, no agent: unanswered, denied");
	expect_probe(1001, PFSEL_PROBE_CONNECT, SOCK_STREAM, PORT_NAMED, EACCES,
		     "an address no name leads to");
	err = pfsel_run_as(user_uid[0], name_fn, &fresh);
	check(err == 0, "after: uid 1001 connects to a name just looked up: %d",
	      err);
	err = pfsel_run_as(user_uid[0], protected_fn, NULL);
	check(err == 0,
	      "after: uid 1001's protected program runs protected: %d", err);

	pfsel_stop_agent(&agent, SIGTERM);
	read = ask_stats_read(&stats);
	check(read && stats.pending == 0,
	      "after: no question pending (%lld), %lld asked, %lld answered, %lld unanswered, %lld without an agent",
	      stats.pending, stats.questions, stats.answered, stats.unanswered,
	      stats.no_agent);
}

/* ---- The run -------------------------------------------------------- */

/* Root's listeners: TCP on every port users connect to, UDP on 7150. */
static bool start_listeners(int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fds[i] = i < n - 1 ? pfsel_peer(SOCK_STREAM,
						"::", listen_ports[i]) :
				     pfsel_peer(SOCK_DGRAM, "::", PORT_SEND);
		if (fds[i] < 0)
			return false;
	}
	return true;
}

/* Accept and close connections on root's listeners until the end. */
static void *listener_thread(void *arg)
{
	const int *fds = arg;
	const size_t n = sizeof(listen_ports) / sizeof(listen_ports[0]);
	struct pollfd pfd[sizeof(listen_ports) / sizeof(listen_ports[0]) + 1];
	size_t i;

	for (i = 0; i <= n; i++)
		pfd[i] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
	while (__atomic_load_n(&listening, __ATOMIC_RELAXED)) {
		if (poll(pfd, n + 1, 200) <= 0)
			continue;
		for (i = 0; i < n; i++)
			if (pfd[i].revents & POLLIN)
				pfsel_drain(fds[i]);
		if (pfd[n].revents & POLLIN)
			pfsel_udp_received(fds[n], 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct churn churn[] = {
		{ "policy loads and unloads", 0, 0, 0, policy_churn },
		{ "mode switches", 0, 0, 0, mode_churn },
		{ "agents started", 0, 0, 0, agent_churn },
		{ "administrator's writes and reads", 0, 0, 0, admin_churn },
		{ "hook timing switches", 0, 0, 0, timing_churn },
	};
	/* The last, hook timing, only with -T. */
	size_t n_churn = sizeof(churn) / sizeof(churn[0]) - 1;
	const size_t n_listen = sizeof(listen_ports) / sizeof(listen_ports[0]);
	int listeners[sizeof(listen_ports) / sizeof(listen_ports[0]) + 1];
	pthread_t churn_threads[sizeof(churn) / sizeof(churn[0])], listener;
	unsigned int seconds = 60, threshold = PFSEL_AVC_THRESHOLD_DEFAULT;
	uint64_t ns_before;
	int users[USERS], i, opt, err;
	pid_t pids[USERS];
	long long end;
	bool stopped;
	size_t c;

	while ((opt = getopt(argc, argv, "t:T")) != -1) {
		if (opt == 'T') {
			n_churn = sizeof(churn) / sizeof(churn[0]);
			continue;
		}
		if (opt != 't' || atoi(optarg) <= 0) {
			fprintf(stderr,
				"usage: pfsel_stress [-t SECONDS] [-T]\n");
			return 2;
		}
		seconds = (unsigned int)atoi(optarg);
	}
	cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > MAX_CPUS)
		cpus = MAX_CPUS;
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED || geteuid() != 0) {
		fprintf(stderr, "pfsel_stress: needs root and memory\n");
		return 2;
	}
	printf("pfsel_stress: %u s, %d CPUs, %d users of %d threads\n", seconds,
	       cpus, USERS, cpus);

	check(start_listeners(listeners, n_listen + 1),
	      "root's listeners on ports 7100-7103, 7201, 7202, 7150");
	err = load_first_policies();
	check(!err, "the policies loaded: %d", err);
	pfsel_get_avc_threshold(&threshold);
	pthread_create(&listener, NULL, listener_thread, listeners);

	ns_before = hooks_ns();
	end = pfsel_now_ms() + 1000LL * seconds;
	for (i = 0; i < USERS; i++) {
		users[i] = i;
		pids[i] = pfsel_start_as(user_uid[i], user_process, &users[i]);
	}
	for (c = 0; c < n_churn; c++)
		pthread_create(&churn_threads[c], NULL, churn[c].fn, &churn[c]);
	stopped = run_users(pids, end);
	__atomic_store_n(&shared->stop, 1, __ATOMIC_RELAXED);
	for (c = 0; c < n_churn; c++)
		pthread_join(churn_threads[c], NULL);
	pfsel_set_avc_threshold(threshold);

	check(stopped, "the users' processes stopped at the end");
	check_calls();
	for (c = 0; c < n_churn; c++)
		check(churn[c].done > 0 && !churn[c].failed,
		      "root: %s: %lu, %lu failed (first: %d)", churn[c].what,
		      churn[c].done, churn[c].failed, churn[c].first_err);
	if (n_churn == sizeof(churn) / sizeof(churn[0]))
		check(hooks_ns() > ns_before,
		      "the hooks counted time while timing was on");
	check_after(seconds);
	__atomic_store_n(&listening, 0, __ATOMIC_RELAXED);
	pthread_join(listener, NULL);

	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
