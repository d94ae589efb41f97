// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the second step: what the agent does as root.
 *
 * Only the root side registers an agent (CAP_MAC_ADMIN): a user's own
 * programs must not answer the questions their policy asks.  With --user,
 * root starts the agent, which here, before anything of the user's can
 * reach it, looks the user up, reads the policy they last confirmed
 * (pam_pfsel's record, root's alone), reads what decides its answers --
 * the rule file and the services file, each only if root alone can
 * change it -- and registers for the user.  Then it becomes the user
 * (become.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

/* @arg as a user name, else as a uid: 0, or -1 with a message printed. */
static int lookup_user(const char *arg, struct agent_user *u)
{
	struct user_account a;
	int ret = user_account_parse(&a, arg);

	if (ret) {
		fprintf(stderr,
			"pfsel-agent: --user: no user '%s' in the user database%s%s\n",
			arg, ret != -ESRCH ? ": " : "",
			ret != -ESRCH ? strerror(-ret) : "");
		user_account_free(&a);
		return -1;
	}
	u->uid = a.pw.pw_uid;
	u->gid = a.pw.pw_gid;
	u->name = strdup(a.pw.pw_name);
	u->dir = strdup(a.pw.pw_dir && *a.pw.pw_dir ? a.pw.pw_dir : "/");
	user_account_free(&a);
	if (!u->name || !u->dir) {
		fprintf(stderr, "pfsel-agent: %s\n", strerror(ENOMEM));
		return -1;
	}
	return 0;
}

/*
 * The policy @uid last confirmed, as pam_pfsel and "pfsel confirm" keep
 * it (root's alone), into @c: 0, 0 with no blob when there is none, or -1
 * with a message printed.  Read as root, before the drop.
 */
static int read_confirmed(uid_t uid, struct policy_blob *c)
{
	int fd, ret;

	fd = confirmed_open_existing();
	if (fd == -ENOENT)
		return 0;
	ret = fd < 0 ? fd : confirmed_read(fd, uid, &c->blob, &c->len);
	if (fd >= 0)
		close(fd);
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		fprintf(stderr, "pfsel-agent: %s/%s/%u.pfsel: %s\n",
			POLICY_CACHE_DIR, POLICY_CONFIRMED_DIR,
			(unsigned int)uid,
			ret == -EBADMSG ? "not a policy of the user's" :
			ret == -EPERM	? "not a folder only root can change" :
					  strerror(-ret));
		c->blob = NULL;
		return -1;
	}
	return 0;
}

/* --pfw and --policy, or their defaults: 0, or an exit status. */
static int pfw_paths(struct agent *a)
{
	const char *pfw = a->opts->pfw, *out = a->opts->policy;

	if (!pfw) {
		const char *home = a->opts->user ? a->user.dir : getenv("HOME");

		if (!home || !*home) {
			fprintf(stderr,
				"pfsel-agent: $HOME is not set: give --pfw\n");
			return AGENT_EXIT_USAGE;
		}
		a->owned.pfw = malloc(strlen(home) + sizeof("/.pfw"));
		if (!a->owned.pfw)
			return AGENT_EXIT_RUNTIME;
		sprintf(a->owned.pfw, "%s/.pfw", home);
		pfw = a->owned.pfw;
	}
	if (!out) {
		a->owned.policy = pfw_default_output(pfw);
		if (!a->owned.policy)
			return AGENT_EXIT_RUNTIME;
		out = a->owned.policy;
	}
	a->pfw.pfw = pfw;
	a->pfw.out = out;
	a->pfw.load = true;
	a->pfw.confirmed = &a->confirmed;
	return AGENT_EXIT_OK;
}

/*
 * The sources that decide at once, in the order they are asked: the rule
 * file (read now: as root, and only if the user cannot change it), --auto,
 * the terminal.  The desktop prompt comes after them, started as the user
 * (become.c).  0, or an exit status.
 */
static int sources(struct agent *a)
{
	const struct agent_options *o = a->opts;
	const char *rules = o->rules;
	char err[4096];
	size_t i;

	if (rules && o->user) {
		a->owned.rules =
			source_rules_trusted_path(rules, err, sizeof(err));
		if (!a->owned.rules) {
			fprintf(stderr, "pfsel-agent: %s\n", err);
			return AGENT_EXIT_FILE;
		}
		rules = a->owned.rules;
	}
	/*
	 * The vocabulary of service names, of the rule file and of ~/.pfw as
	 * the agent compiles it: root's too, for an agent of a user.
	 */
	a->owned.services =
		source_rules_services(o->user != NULL, err, sizeof(err));
	if (!a->owned.services && err[0]) {
		fprintf(stderr, "pfsel-agent: %s\n", err);
		return AGENT_EXIT_FILE;
	}
	a->pfw.services = a->owned.services;
	if (rules) {
		a->sources[a->n_sources] = source_rules_new(
			rules, a->owned.services, stderr, err, sizeof(err));
		if (!a->sources[a->n_sources]) {
			fprintf(stderr, "pfsel-agent: %s\n", err);
			return AGENT_EXIT_FILE;
		}
		a->n_sources++;
	}
	if (o->auto_verdict >= 0)
		a->sources[a->n_sources++] = source_auto_new(
			(unsigned int)o->auto_verdict, o->auto_scope);
	if (o->interactive)
		a->sources[a->n_sources++] =
			source_terminal_new(STDIN_FILENO, stderr);
	for (i = 0; i < a->n_sources; i++) {
		if (!a->sources[i]) {
			fprintf(stderr, "pfsel-agent: %s\n", strerror(ENOMEM));
			return AGENT_EXIT_RUNTIME;
		}
	}
	return AGENT_EXIT_OK;
}

/* The netlink family, and this socket the agent of @a->uid: 0 or a status. */
static int agent_register(struct agent *a)
{
	int rc;

	rc = pfsel_agent_open(&a->nl);
	if (rc) {
		fprintf(stderr, "pfsel-agent: %s\n", pfsel_last_error());
		return rc == -ENOENT ? AGENT_EXIT_NO_KERNEL :
				       AGENT_EXIT_RUNTIME;
	}
	rc = pfsel_agent_register_for(a->nl, a->uid);
	if (rc == -EPERM) {
		fprintf(stderr,
			"pfsel-agent: %s\n"
			"pfsel-agent: the kernel lets only root register an agent, so that the user's own programs cannot answer their questions: start it as root for the user, with sudo pfsel-agent --user USER, or systemctl start pfsel-agent@USER (pfsel-agent(1))\n",
			pfsel_last_error());
		return AGENT_EXIT_PERM;
	}
	if (rc) {
		fprintf(stderr, "pfsel-agent: %s\n", pfsel_last_error());
		return AGENT_EXIT_RUNTIME;
	}
	return AGENT_EXIT_OK;
}

int agent_as_root(struct agent *a)
{
	const char *user = a->opts->user;
	int status;

	a->log = stderr;
	if (user) {
		if (geteuid() != 0) {
			fprintf(stderr,
				"pfsel-agent: --user %s: start the agent as root (sudo pfsel-agent --user %s, or systemctl start pfsel-agent@%s): it registers for the user, then runs as the user\n",
				user, user, user);
			return AGENT_EXIT_PERM;
		}
		if (lookup_user(user, &a->user))
			return AGENT_EXIT_USAGE;
	}
	a->uid = user ? a->user.uid : getuid();
	status = pfw_paths(a);
	if (status != AGENT_EXIT_OK)
		return status;
	if (user && read_confirmed(a->user.uid, &a->confirmed))
		return AGENT_EXIT_FILE;
	status = sources(a);
	if (status != AGENT_EXIT_OK)
		return status;
	return agent_register(a);
}
