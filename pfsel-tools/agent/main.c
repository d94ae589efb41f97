// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - answers the kernel's questions for one user
 * (pfsel-agent(1)).
 *
 * main() is the agent's four steps, in the order its security needs:
 *
 *  1. the options (options.c);
 *  2. as root (root.c): whom it answers for, the policy they confirmed,
 *     what decides its answers (the rule file, the services file: read
 *     now, and only if root alone can change them), and its registration
 *     with the kernel, which only root may do, so that a user's own
 *     programs cannot answer the questions their policy asks;
 *  3. becoming the user, for good (become.c): with --user, every
 *     privilege of root's dropped, not dumpable; only then the log, a
 *     path the user may name, is opened, and the desktop prompt started
 *     in the user's session;
 *  4. serving (serve.c): the kernel's questions to the sources, their
 *     answers to the kernel, until a signal or --count.
 *
 * A failed step ends the agent with its exit status; whatever a step set
 * up is undone on the way out (agent_free()).
 */
#include <signal.h>
#include <string.h>

#include "agent.h"

static void on_signal(int sig)
{
	(void)sig;
	agent_stopping = 1;
}

/* SIGINT and SIGTERM stop the agent; a prompt gone is no SIGPIPE. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: waits end at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct agent_options opts;
	struct agent a = { .opts = &opts };
	int status;

	agent_stopping = 0;
	status = agent_options_parse(argc, argv, &opts);
	if (status >= 0)
		return status;
	catch_signals();
	status = agent_as_root(&a);
	if (status == AGENT_EXIT_OK)
		status = agent_become_user(&a);
	if (status == AGENT_EXIT_OK)
		status = agent_serve(&a);
	agent_free(&a);
	return status;
}
