// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-probe ADDR PORT - the program of tests/packaging/flatpak's
 * application org.pfsel.Probe: one TCP connect() to ADDR (IPv4 or IPv6)
 * and PORT, then exit 0 when it succeeded, else the connect's errno
 * (EACCES: pfsel refused it), after one line saying which.
 *
 * The same file runs as /app/bin/pfsel-probe of the system-wide
 * installation, of a user's own installation claiming the same ID, as a
 * copy in the home folder and bound over /app by the user: pfsel tells
 * them apart by the file each one is, not by this program.
 *
 * Built on the host for the guest (Debian 13), dynamically linked, so that
 * in the sandbox it loads the runtime's C library, as an application does:
 * it uses nothing newer than Debian 12's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_storage peer = { 0 };
	struct sockaddr_in *in4 = (struct sockaddr_in *)&peer;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&peer;
	socklen_t len;
	unsigned long port;
	char *end;
	int fd, err = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: pfsel-probe ADDR PORT\n");
		return 125;
	}
	errno = 0;
	port = strtoul(argv[2], &end, 10);
	if (errno || *end || end == argv[2] || port == 0 || port > 65535) {
		fprintf(stderr, "pfsel-probe: not a port: %s\n", argv[2]);
		return 125;
	}
	if (inet_pton(AF_INET, argv[1], &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		len = sizeof(*in4);
	} else if (inet_pton(AF_INET6, argv[1], &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		len = sizeof(*in6);
	} else {
		fprintf(stderr, "pfsel-probe: not an address: %s\n", argv[1]);
		return 125;
	}
	fd = socket(peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&peer, len) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err)
		printf("pfsel-probe: %s port %lu: %s\n", argv[1], port,
		       strerror(err));
	else
		printf("pfsel-probe: %s port %lu: connected\n", argv[1], port);
	return err;
}
