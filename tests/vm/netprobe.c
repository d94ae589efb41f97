// SPDX-License-Identifier: GPL-2.0
/*
 * netprobe [SCRIPT] OP FAMILY ADDR PORT - make one network request and
 * exit with its errno (0 when it succeeded).
 *
 * An executable of its own, so that the VM tests can check that pfsel
 * judges a different application differently from the test program, and
 * a #! interpreter: run through a script whose first line names netprobe,
 * it gets the script's path first (a leading argument starting with '/'),
 * and pfsel sees the application "netprobe script SCRIPT".
 *
 * OP is create, bind, listen, accept, connect, sendto, fastopen,
 * uring-connect, uring-sendmsg, uring-send or uring-send-zc (see
 * pfsel_test_util.h); FAMILY inet or inet6 (the socket's); the socket is
 * TCP but for the sends that name their peer (sendto and io_uring's),
 * which are UDP.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

int main(int argc, char **argv)
{
	struct pfsel_probe probe = { .type = SOCK_STREAM };
	unsigned long port;
	char *end;
	int i;

	if (argc > 1 && argv[1][0] == '/') {
		argc--;
		argv++;
	}
	if (argc != 5) {
		fprintf(stderr,
			"usage: netprobe [SCRIPT] OP inet|inet6 ADDR PORT\n");
		return 125;
	}
	for (i = 0; i < PFSEL_PROBE_COUNT; i++)
		if (strcmp(argv[1], pfsel_probe_names[i]) == 0)
			break;
	if (i == PFSEL_PROBE_COUNT) {
		fprintf(stderr, "netprobe: unknown operation '%s'\n", argv[1]);
		return 125;
	}
	probe.op = (enum pfsel_probe_op)i;
	if (probe.op == PFSEL_PROBE_SENDTO ||
	    probe.op == PFSEL_PROBE_URING_SENDMSG ||
	    probe.op == PFSEL_PROBE_URING_SEND ||
	    probe.op == PFSEL_PROBE_URING_SEND_ZC)
		probe.type = SOCK_DGRAM;
	probe.family = strcmp(argv[2], "inet6") == 0 ? AF_INET6 : AF_INET;
	probe.addr = argv[3];
	errno = 0;
	port = strtoul(argv[4], &end, 10);
	if (errno || *end || port > 65535) {
		fprintf(stderr, "netprobe: '%s' is not a port\n", argv[4]);
		return 125;
	}
	probe.port = (unsigned short)port;
	return pfsel_probe_run(&probe);
}
