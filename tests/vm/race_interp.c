// SPDX-License-Identifier: GPL-2.0
/*
 * race_interp - the `#!` interpreter of script_race_test's scripts
 *
 *   race_interp SCRIPT
 *
 * Does what an interpreter does, and only that: opens SCRIPT by the name
 * the kernel passed, reads it, and acts on what it read; here the action
 * is a TCP connect() to 127.0.0.1:RACE_PORT, which pfsel allows only to the
 * application "race_interp running trusted.scr"
 * (policies/script_race_1001.pfw).  With no listener there, an allowed
 * connect is refused by the port (ECONNREFUSED, one SYN and one RST on
 * loopback, nothing left behind) and a denied one fails with EACCES.  The
 * exit status says which script it read and which of the two it got
 * (race_interp.h).
 *
 * The race test execs it 10,000 times, in an emulated debug kernel where an
 * exec is the cost that counts.  So it is built statically with nolibc
 * (the kernel tree's tools/include/nolibc): no dynamic loader, no C library
 * start-up, one page of code.  (In the debug VM it runs 54 times a second,
 * the same program on static glibc 30.)  nolibc has no socket calls and no
 * <sys/socket.h>: those are made here from the system call numbers and the
 * kernel's constants.
 */
#include <linux/in.h>
#include <nolibc.h>
#include <stdbool.h>

#include "race_interp.h"

#ifndef AF_INET
#define AF_INET 2 /* include/linux/socket.h */
#endif
#ifndef SOCK_STREAM
#define SOCK_STREAM 1 /* include/linux/net.h (not MIPS) */
#endif

/* The line after the "#!" line: what the test wrote in each script. */
static bool read_trusted(const char *text, bool *trusted)
{
	const char *line = strchr(text, '\n');

	if (!line)
		return false;
	line++;
	*trusted = !strcmp(line, "trusted\n");
	return *trusted || !strcmp(line, "evil\n");
}

/*
 * connect() to 127.0.0.1:RACE_PORT from a new TCP socket: what it got
 * (0 or -errno), or RACE_SOCKET_FAILED with no socket.
 */
static long connect_loopback(void)
{
	static const unsigned char port[2] = { RACE_PORT >> 8,
					       RACE_PORT & 255 };
	static const unsigned char addr[4] = { 127, 0, 0, 1 };
	struct sockaddr_in sin;
	long fd;

	fd = my_syscall3(__NR_socket, AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return RACE_SOCKET_FAILED;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	memcpy(&sin.sin_port, port, sizeof(port));
	memcpy(&sin.sin_addr, addr, sizeof(addr));
	return my_syscall3(__NR_connect, fd, &sin, sizeof(sin));
}

int main(int argc, char **argv)
{
	char text[128];
	bool trusted;
	long len, err;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: race_interp SCRIPT (the #! interpreter "
				"of script_race_test's scripts)\n");
		return RACE_USAGE;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return errno == EACCES ? RACE_OPEN_DENIED : RACE_OPEN_FAILED;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return RACE_NOT_A_SCRIPT;
	text[len] = '\0';
	if (!read_trusted(text, &trusted))
		return RACE_NOT_A_SCRIPT;

	err = connect_loopback();
	if (err == RACE_SOCKET_FAILED)
		return RACE_SOCKET_FAILED;
	if (err == -ECONNREFUSED)
		return trusted ? RACE_TRUSTED_ALLOWED : RACE_EVIL_ALLOWED;
	if (err == -EACCES)
		return trusted ? RACE_TRUSTED_DENIED : RACE_EVIL_DENIED;
	return RACE_CONNECT_OTHER;
}
