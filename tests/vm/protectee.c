// SPDX-License-Identifier: GPL-2.0
/*
 * protectee - a program a policy may mark "protect" (protect_test.c)
 *
 * Prints one line, "secure=N dumpable=N preloaded=N": whether it runs in
 * secure-execution mode (AT_SECURE), whether its process is dumpable, and
 * whether preload.so ran in it (LD_PRELOAD).  With "wait" it then waits
 * until killed, as a target for the attacks in process_attacks.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *preloaded = getenv("PFSEL_PRELOADED");

	printf("secure=%lu dumpable=%d preloaded=%d\n", getauxval(AT_SECURE),
	       prctl(PR_GET_DUMPABLE), preloaded && !strcmp(preloaded, "1"));
	fflush(stdout);
	if (argc > 1 && !strcmp(argv[1], "wait"))
		for (;;)
			pause();
	return 0;
}
