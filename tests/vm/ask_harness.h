/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - the harness of the ask suites (docs/kernel-interface.md,
 * "Ask" and "The agent interface"): an agent in a child process, and the
 * asking side.  ask_harness.c; the suites are ask_test.c (questions and
 * answers), ask_scope_test.c (what an answer's scope keeps) and
 * ask_bad_input_test.c (bad netlink input).
 *
 * Root loads policies/ask_*.pfw for pfuser1 (and pfuser2): TCP connects
 * to loopback ports 6001-6010 and 6100-6299 are asked, each port its own
 * question.  The agent is libpfsel's, run in a child that registers as
 * root for the user (only the root side may) and then becomes the user,
 * as pfsel-agent --user does; the test drives it over pipes and reads
 * every question it receives.  A socket that is no agent is opened by a
 * child that became the user first.  The asking side is netprobe run as
 * the user (one request per process), or a child of the test that has
 * become the user and makes several requests, from one thread or many.
 *
 * Nobody listens on the asked ports: an allowed connect fails with
 * ECONNREFUSED, a denied one with EACCES, so the two cannot be confused.
 */

#ifndef PFSEL_ASK_HARNESS_H
#define PFSEL_ASK_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <pfsel/pfsel.h>

/* The ports the policies ask about (policies/ask_1001.pfw). */
#define PORT_ATTRS 6001 /* the question whose attributes are checked */
#define PORT_A 6002
#define PORT_B 6003
#define PORT_C 6004
#define PORT_D 6005
#define PORT_E 6006
#define PORT_F 6007
#define PORT_LOGGED 6010 /* asked, logged when allowed */
#define PORT_FLOOD 6100 /* 6100-6299: 200 different questions */
#define N_FLOOD 200

/* The policies' timeouts: ask_1001 and the others, ask_long_1001. */
#define TIMEOUT_MS 2000
#define LONG_TIMEOUT_MS 10000
/* "At once": well under any timeout, generous for a debug kernel. */
#define PROMPT_MS 1500
/* How long a question is given to reach the agent. */
#define QUESTION_MS 3000
/* How long to watch for a question that must not come. */
#define QUIET_MS 300

#define ALLOWED ECONNREFUSED /* nobody listens: allowed, then refused */
#define DENIED EACCES

/* ---- the agent: registered by root, then run as its user ----------------- */

enum agent_op {
	AGENT_ANSWER, /* answer id with verdict and scope */
	AGENT_AUTO, /* answer every question at once with verdict, scope */
	AGENT_MANUAL, /* stop answering by itself */
	AGENT_REGISTER, /* register again, as the user it now is */
	AGENT_UNREGISTER,
	AGENT_REQUEST, /* any command with up to 3 attributes, raw */
};

struct agent_cmd {
	enum agent_op op;
	uint64_t id;
	uint8_t verdict, scope;
	/* AGENT_REQUEST */
	uint8_t cmd;
	int flags;
	unsigned int nattrs;
	struct {
		uint16_t type, len;
		uint8_t data[8];
	} attrs[3];
};

/* What the agent reports for every question: the question, and its answer. */
struct agent_report {
	struct pfsel_question q;
	int answer_err; /* the ack of an automatic answer, 1 if none */
};

struct agent {
	pid_t pid;
	int cmd; /* commands to the agent */
	int result; /* one int per command: its ack */
	int questions; /* one struct agent_report per question */
	int received; /* questions read from @questions so far */
};

/*
 * Start an agent as @uid, registered with @do_register: 0 once it is in
 * place, or the errno of its open or registration.
 */
int agent_start(struct agent *ag, uid_t uid, bool do_register);

/* Run @c in the agent: the kernel's ack as a positive errno, or 0. */
int agent_call(struct agent *ag, const struct agent_cmd *c);
int agent_answer(struct agent *ag, uint64_t id, uint8_t verdict, uint8_t scope);
int agent_simple(struct agent *ag, enum agent_op op);
int agent_auto(struct agent *ag, uint8_t verdict, uint8_t scope);

/* The next question the agent received, within @ms. */
bool agent_question(struct agent *ag, struct agent_report *r, int ms);

/* Read every question that comes within @ms: how many came. */
int agent_drain(struct agent *ag, int ms);

/* Kill the agent (its socket closes with it) and reap it. */
void agent_kill(struct agent *ag);

/* ---- the asking side ---------------------------------------------------- */

struct asker {
	pid_t pid;
	long long start_ms;
};

/* Run netprobe as @uid: connect to @addr:@port, in the background. */
struct asker probe_start(uid_t uid, const char *addr, unsigned short port);

/* Wait for an asker: its exit status; its run time in @elapsed_ms. */
int asker_wait(const struct asker *as, long long *elapsed_ms);

/* One netprobe connect as @uid, waited for. */
int probe(uid_t uid, const char *addr, unsigned short port,
	  long long *elapsed_ms);

/* One TCP connect from this process: 0 or the errno. */
int connect_once(const char *addr, unsigned short port);

/* Run process @pid (0: this one) on CPU @cpu only. */
void pin(pid_t pid, int cpu);

/* ---- the fixtures' setup and teardown ------------------------------------ */

/*
 * Back to the boot's state (pfsel_reset()), and wait up to 5 s for the
 * agents of earlier tests to go (with their sockets): false when
 * ask_stats cannot be read; the agents still registered in @agents.
 */
bool ask_begin(long long *agents);

/* Kill the @n agents of a test (SIGKILL, not reaped) and pfsel_reset(). */
void ask_end(struct agent *agents, int n);

#endif /* PFSEL_ASK_HARNESS_H */
