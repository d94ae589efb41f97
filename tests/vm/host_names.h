/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - what the tests of host names (hostname_test,
 * adversary_hosts_test) share: dnsmasq, run in the foreground as a zone's
 * server or as a resolver, and pfsel's table of the names it learned from
 * the answers (the securityfs file "hosts", of the reader's network
 * namespace).  The DNS messages they make by hand are dns_message.h's.
 */
#ifndef PFSEL_HOST_NAMES_H
#define PFSEL_HOST_NAMES_H

#include "pfsel_test_util.h"

#define DNSMASQ "/usr/sbin/dnsmasq"

/* A dnsmasq to start, and how. */
struct dnsmasq {
	const char *program; /* DNSMASQ, or a copy of it */
	const char *listen; /* its --listen-address */
	const char *const *extra; /* more arguments: @n_extra of them */
	size_t n_extra;
	/*
	 * "--no-daemon", which also leaves its groups alone (in a user
	 * namespace of its own, setgroups() is refused); else (NULL)
	 * "--keep-in-foreground".
	 */
	const char *mode;
	/* A program that executes the rest of its arguments: @n_via words. */
	const char *const *via;
	size_t n_via;
	/* A descriptor of the network namespace to run in; NULL: this one. */
	const int *netns;
};

/* Start @d, its output to /dev/null: its pid, or -1. */
static inline pid_t dnsmasq_start_as(const struct dnsmasq *d)
{
	char listen_arg[64];
	const char *argv[40];
	size_t argc = 0, i;
	pid_t pid;

	snprintf(listen_arg, sizeof(listen_arg), "--listen-address=%s",
		 d->listen);
	for (i = 0; i < d->n_via && i < 8; i++)
		argv[argc++] = d->via[i];
	argv[argc++] = d->program;
	argv[argc++] = d->mode ? d->mode : "--keep-in-foreground";
	argv[argc++] = "--user=root";
	argv[argc++] = "--conf-file=/dev/null";
	argv[argc++] = "--pid-file=";
	argv[argc++] = "--bind-interfaces";
	argv[argc++] = "--no-resolv";
	argv[argc++] = "--no-hosts";
	argv[argc++] = listen_arg;
	for (i = 0; i < d->n_extra && argc < 39; i++)
		argv[argc++] = d->extra[i];
	argv[argc] = NULL;

	pid = fork();
	if (pid == 0) {
		const int null = open("/dev/null", O_RDWR);

		if (d->netns && setns(*d->netns, CLONE_NEWNET))
			_exit(126);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Start @program in the foreground on @listen with @extra: its pid, or -1. */
static inline pid_t dnsmasq_start(const char *program, const char *listen,
				  const char *const *extra, size_t n_extra)
{
	const struct dnsmasq d = {
		.program = program,
		.listen = listen,
		.extra = extra,
		.n_extra = n_extra,
	};

	return dnsmasq_start_as(&d);
}

/*
 * The table "hosts" (ADDRESS NAME SECONDS-LEFT UID lines) of this network
 * namespace, read whole into a buffer of @size bytes, malloc()ed (the
 * caller frees it): the text, or NULL.
 */
static inline char *hosts_table_read(size_t size)
{
	char path[PATH_MAX];
	char *text = malloc(size);

	if (!text ||
	    pfsel_read_file(pfsel_raw_path("hosts", path, sizeof(path)), text,
			    size) < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Whether the table of this network namespace has @name for @addr. */
static inline bool hosts_table_has(const char *addr, const char *name)
{
	char needle[300];
	char *text = hosts_table_read(1 << 20);
	bool found;

	if (!text)
		return false;
	snprintf(needle, sizeof(needle), "\n%s %s ", addr, name);
	found = strstr(text, needle) ||
		!strncmp(text, needle + 1, strlen(needle + 1));
	free(text);
	return found;
}

#endif /* PFSEL_HOST_NAMES_H */
