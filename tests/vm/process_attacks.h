/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - what a program of the user tries against another
 * process of the same user to run its own code there: each attack is a
 * function for pfsel_run_as(), returning 0 when it got in, else the errno
 * that refused it.  The agent (trust_test) and protected applications
 * (protect_test) must refuse them all; an ordinary process of the user,
 * the control, refuses none.
 */
#ifndef PFSEL_PROCESS_ATTACKS_H
#define PFSEL_PROCESS_ATTACKS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* ptrace(PTRACE_ATTACH) to the pid in @arg, detaching again. */
static inline int attack_ptrace(void *arg)
{
	const pid_t pid = (pid_t)(intptr_t)arg;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return errno;
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

/* Open /proc/PID/mem of the pid in @arg for writing. */
static inline int attack_mem(void *arg)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)(intptr_t)arg);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Take the pid in @arg's standard input with pidfd_getfd(). */
static inline int attack_getfd(void *arg)
{
	const pid_t pid = (pid_t)(intptr_t)arg;
	int pidfd, fd;

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return errno;
	fd = syscall(SYS_pidfd_getfd, pidfd, STDIN_FILENO, 0);
	if (fd < 0) {
		const int err = errno;

		close(pidfd);
		return err;
	}
	close(fd);
	close(pidfd);
	return 0;
}

/* The lowest address of @pid's stack, from /proc/PID/maps (as root). */
static inline unsigned long stack_of(pid_t pid)
{
	char path[64], line[512];
	unsigned long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]"))
			start = strtoul(line, NULL, 16);
	fclose(f);
	return start;
}

struct attack_vm {
	pid_t pid;
	unsigned long addr; /* the target's stack: 8 bytes written back */
};

/* process_vm_writev() into the process and address in @arg. */
static inline int attack_vm_writev(void *arg)
{
	const struct attack_vm *v = arg;
	uint64_t word = 0;
	struct iovec local = { &word, sizeof(word) };
	struct iovec remote = { (void *)v->addr, sizeof(word) };

	/* Write back what is there: the target is not harmed when it works. */
	if (process_vm_readv(v->pid, &local, 1, &remote, 1, 0) < 0 &&
	    errno != EPERM)
		return errno;
	if (process_vm_writev(v->pid, &local, 1, &remote, 1, 0) !=
	    (ssize_t)sizeof(word))
		return errno;
	return 0;
}

#endif /* PFSEL_PROCESS_ATTACKS_H */
