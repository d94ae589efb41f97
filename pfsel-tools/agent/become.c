// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the third step: becoming the user, for good, and what the
 * agent then opens as the user.
 *
 * With --user the agent drops every privilege of root's -- groups, ids,
 * capabilities -- non-dumpable (no ptrace, /proc/PID/mem or core dump by
 * the user's other programs).  The kernel lets this process, and it
 * alone, go on answering on its registered socket and load the user's
 * policy.  Only then does it open what the user may name (the log) and
 * run what runs in the user's session (the desktop prompt): root opens no
 * path of the user's choosing, and the prompt, its child, can be told
 * nothing root knows.
 */
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "agent.h"

/* The program --prompt runs when it names none. */
#define PROMPT_PROGRAM "pfsel-prompt"

/* Fails with the syscall's name and errno, for drop_to(). */
static int drop_failed(const char *what)
{
	fprintf(stderr, "pfsel-agent: %s: %s\n", what, strerror(errno));
	return -1;
}

/*
 * Becomes @u for good: its groups, gid and uid (real, effective, saved),
 * then checks that none of root's can be had back and that no capability
 * is left; no new privileges on exec (the prompt), not dumpable (the user's
 * other programs can neither ptrace it nor read or write its memory
 * through /proc), no core dump.  0, or -1 with a message printed: the
 * caller must then exit, not answer.
 */
static int drop_to(const struct agent_user *u)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	const struct rlimit no_core = { 0, 0 };
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
	size_t i;

	if (initgroups(u->name, u->gid))
		return drop_failed("initgroups");
	if (setresgid(u->gid, u->gid, u->gid))
		return drop_failed("setresgid");
	if (setresuid(u->uid, u->uid, u->uid))
		return drop_failed("setresuid");
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid))
		return drop_failed("getresuid");
	if (ruid != u->uid || euid != u->uid || suid != u->uid ||
	    rgid != u->gid || egid != u->gid || sgid != u->gid) {
		errno = EPERM;
		return drop_failed("the uids and gids after setresuid");
	}
	if (u->uid != 0) {
		if (!setresuid(0, 0, 0) || !setresgid(0, 0, 0) ||
		    !setgroups(0, NULL)) {
			errno = EPERM;
			return drop_failed("root's ids could be had back");
		}
		if (syscall(SYS_capget, &hdr, caps))
			return drop_failed("capget");
		for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
			if (caps[i].effective || caps[i].permitted ||
			    caps[i].inheritable) {
				errno = EPERM;
				return drop_failed("capabilities are left");
			}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return drop_failed("prctl(PR_SET_NO_NEW_PRIVS)");
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return drop_failed("prctl(PR_SET_DUMPABLE, 0)");
	if (setrlimit(RLIMIT_CORE, &no_core))
		return drop_failed("setrlimit(RLIMIT_CORE)");
	/* ~/.pfw and the defaults are the user's world, not root's. */
	if (setenv("HOME", u->dir, 1) || setenv("USER", u->name, 1) ||
	    setenv("LOGNAME", u->name, 1))
		return drop_failed("setenv");
	if (chdir(u->dir) && chdir("/"))
		return drop_failed("chdir(/)");
	return 0;
}

/*
 * --prompt's program when it names none: pfsel-prompt beside this
 * pfsel-agent (malloc()ed), when there is one; NULL: look it up in $PATH.
 */
static char *prompt_default(void)
{
	char self[PATH_MAX], *path;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	if (asprintf(&path, "%s/%s", dirname(self), PROMPT_PROGRAM) < 0)
		return NULL;
	if (access(path, X_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/* --prompt: the desktop prompt, as the user's child: 0 or a status. */
static int start_prompt(struct agent *a)
{
	const char *program = a->opts->prompt_program;
	char *argv[2] = { (char *)program, NULL }, err[4096];
	struct agent_source *src;

	if (!program) {
		a->owned.prompt = prompt_default();
		argv[0] = a->owned.prompt ? a->owned.prompt : PROMPT_PROGRAM;
	}
	src = source_prompt_new(argv, err, sizeof(err));
	if (!src) {
		fprintf(stderr, "pfsel-agent: --prompt: %s\n", err);
		if (a->log != stderr)
			agent_log(a->log, "--prompt: %s", err);
		return AGENT_EXIT_RUNTIME;
	}
	src->log = a->log;
	a->sources[a->n_sources++] = src;
	return AGENT_EXIT_OK;
}

int agent_become_user(struct agent *a)
{
	const struct agent_options *o = a->opts;

	if (o->user && drop_to(&a->user))
		return AGENT_EXIT_RUNTIME;
	/* Opened as the user: root opens no path the user may have named. */
	if (o->log) {
		a->log = fopen(o->log, "ae");
		if (!a->log) {
			a->log = stderr;
			fprintf(stderr, "pfsel-agent: open(%s): %s\n", o->log,
				strerror(errno));
			return AGENT_EXIT_FILE;
		}
	}
	/* As the user, in the user's environment: the person's own window. */
	if (o->prompt && start_prompt(a) != AGENT_EXIT_OK)
		return AGENT_EXIT_RUNTIME;
	if (o->user && !a->confirmed.blob)
		agent_log(
			a->log,
			"no policy of uid %u was confirmed (%s/%s): 'always' loads %s only if it is the policy in force, with the rule",
			(unsigned int)a->uid, POLICY_CACHE_DIR,
			POLICY_CONFIRMED_DIR, a->pfw.pfw);
	agent_log(a->log,
		  "registered as the agent of uid %u%s%s (sources:%s%s%s%s)",
		  (unsigned int)a->uid, o->user ? ", running as " : "",
		  o->user ? a->user.name : "", o->rules ? " rules" : "",
		  o->auto_verdict >= 0 ? " auto" : "",
		  o->interactive ? " terminal" : "",
		  o->prompt ? " prompt" : "");
	return AGENT_EXIT_OK;
}
