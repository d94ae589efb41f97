// SPDX-License-Identifier: GPL-2.0
/*
 * socket_bench - time the system calls that meet pfsel's hooks
 *
 *   socket_bench [ITERATIONS]
 *
 * For each operation, runs ITERATIONS calls and prints one line
 * "OPERATION NS_PER_CALL".  The operations touch only loopback, so the
 * time is the system call's own plus that of the LSM hooks it meets.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "socket_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	const long iterations = argc > 1 ? atol(argv[1]) : 20000;
	struct sockaddr_in peer = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t len = sizeof(peer);
	double start;
	long i;
	int sink, fd;

	if (iterations <= 0) {
		fprintf(stderr, "usage: socket_bench [ITERATIONS]\n");
		return 2;
	}

	/* A UDP peer to connect and send to. */
	sink = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sink < 0 || bind(sink, (struct sockaddr *)&peer, sizeof(peer)) ||
	    getsockname(sink, (struct sockaddr *)&peer, &len))
		die("udp peer");

	/* socket() + close(): socket_create. */
	start = now_ns();
	for (i = 0; i < iterations; i++) {
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			die("socket");
		close(fd);
	}
	printf("socket_close %.1f\n", (now_ns() - start) / iterations);

	/* connect() on one UDP socket, again and again: socket_connect. */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	start = now_ns();
	for (i = 0; i < iterations; i++)
		if (connect(fd, (struct sockaddr *)&peer, sizeof(peer)))
			die("connect");
	printf("udp_connect %.1f\n", (now_ns() - start) / iterations);
	close(fd);

	/* sendto() with an address: socket_sendmsg. */
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket");
	start = now_ns();
	for (i = 0; i < iterations; i++) {
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&peer,
			   sizeof(peer)) != 1)
			die("sendto");
		/* Drain, so that the peer's queue never fills. */
		if (recv(sink, &len, sizeof(len), 0) < 0)
			die("recv");
	}
	printf("udp_sendto_recv %.1f\n", (now_ns() - start) / iterations);
	close(fd);
	close(sink);
	return 0;
}
