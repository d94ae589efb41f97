/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - the attacker's side of the script races that the
 * adversary reviews of the script fix play (adv_scriptfix_test,
 * adv_scriptfix2_test, adv_scriptfix3_test, adv_fpname_test), beside
 * race_interp's statuses (race_interp.h): the statuses of the attacker's
 * own steps and what each says; an exec stopped where it has fixed the
 * new program while the attacker changes what the script's name leads
 * to; and the helper, a process of pfuser1's in a user and mount
 * namespace of its own, which sends the attacker a descriptor and holds
 * its namespace while the attacker uses it.
 */
#ifndef PFSEL_RACE_ATTACK_H
#define PFSEL_RACE_ATTACK_H

#include "pfsel_test_util.h"
#include "race_interp.h"

/*
 * The statuses of the attacker's own steps: above race_interp's (10 to
 * 53), below a signal's (128 + N), so that a result below
 * ATTACK_SETUP_FAILED says the attack was made.  122 to 125 are
 * race_run_stopped()'s; a test that stops no exec may give them meanings
 * of its own.  126 is pfsel_run_as()'s: the attacker did not become the
 * user.
 */
enum race_attack_status {
	ATTACK_SETUP_FAILED = 120, /* the helper's namespace, mounts, files */
	ATTACK_FRAME_FAILED = 121, /* the attacker's own: a fork, a file */
	ATTACK_NOT_STOPPED = 122, /* the child did not stop at its exec */
	ATTACK_CHANGE_FAILED = 123, /* the change made while it was stopped */
	ATTACK_DETACH_FAILED = 124,
	ATTACK_NOT_TRACED = 125, /* the child's PTRACE_TRACEME failed */
	ATTACK_EXEC_FAILED = 127,
};

/* What a status of race_interp's or of the attacker's says. */
static inline const char *race_attack_outcome(int status)
{
	const char *const said = race_interp_outcome(status);

	if (said)
		return said;
	switch (status) {
	case ATTACK_SETUP_FAILED:
		return "helper's setup failed";
	case ATTACK_FRAME_FAILED:
		return "frame failed";
	case ATTACK_NOT_STOPPED:
		return "not stopped at exec";
	case ATTACK_CHANGE_FAILED:
		return "the change while stopped failed";
	case ATTACK_DETACH_FAILED:
		return "the detach failed";
	case ATTACK_NOT_TRACED:
		return "the child could not be traced";
	case 126:
		return "could not become the user";
	case ATTACK_EXEC_FAILED:
		return "the exec failed";
	default:
		return "other";
	}
}

/*
 * Run @exec(@exec_arg), which execs a program (the child exits with what
 * it returns), in a child traced by this process and stopped where the
 * exec has fixed the new program (pfsel_wait_stopped_at_exec()); make
 * @change(@change_arg) there, when given (nonzero: it failed), then let the child go
 * and wait for it.  Its status; or ATTACK_FRAME_FAILED (no child),
 * ATTACK_NOT_STOPPED, ATTACK_CHANGE_FAILED (the child killed) or
 * ATTACK_DETACH_FAILED.
 */
static inline int race_run_stopped(int (*exec)(void *), void *exec_arg,
				   int (*change)(void *), void *change_arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return ATTACK_FRAME_FAILED;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(ATTACK_NOT_TRACED);
		raise(SIGSTOP);
		_exit(exec(exec_arg));
	}
	if (pfsel_wait_stopped_at_exec(pid))
		return ATTACK_NOT_STOPPED;
	if (change && change(change_arg)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return ATTACK_CHANGE_FAILED;
	}
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL))
		return ATTACK_DETACH_FAILED;
	return pfsel_wait_status(pid);
}

/* The attacker's helper, and its end of the socket between them. */
struct race_helper {
	pid_t pid;
	int sock;
};

/*
 * Fork the helper, which dies with this process and exits with
 * @run(@arg, its end of the socket), and take the descriptor it sends
 * first (pfsel_send_fd()): that descriptor, or -errno (what the helper
 * sent in its place, or a failure here).  race_helper_stop() ends it,
 * whatever this returned.
 */
static inline int race_helper_start(struct race_helper *helper,
				    int (*run)(void *arg, int sock), void *arg)
{
	const pid_t parent = getpid();
	int sv[2];

	helper->pid = -1;
	helper->sock = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	helper->pid = fork();
	if (helper->pid < 0) {
		const int err = errno;

		close(sv[0]);
		close(sv[1]);
		return -err;
	}
	if (helper->pid == 0) {
		close(sv[0]);
		pfsel_die_with_parent(parent);
		_exit(run(arg, sv[1]));
	}
	close(sv[1]);
	helper->sock = sv[0];
	return pfsel_recv_fd(helper->sock);
}

/* Close the socket, which tells the helper to end, and wait for it. */
static inline void race_helper_stop(struct race_helper *helper)
{
	if (helper->sock >= 0)
		close(helper->sock);
	if (helper->pid > 0)
		pfsel_wait_status(helper->pid);
}

/*
 * In the helper, whose setup failed with @err: say so, and send @err in
 * the descriptor's place.  ATTACK_SETUP_FAILED, its exit status.
 */
static inline int race_helper_failed(int sock, const char *who, int err)
{
	fprintf(stderr, "# %s: %s\n", who, strerror(err));
	pfsel_send_fd(sock, -err);
	return ATTACK_SETUP_FAILED;
}

/* In the helper: hold on, its namespace with it, until @sock closes. */
static inline void race_helper_hold(int sock)
{
	char c;

	while (read(sock, &c, 1) > 0)
		;
}

#endif /* PFSEL_RACE_ATTACK_H */
