// SPDX-License-Identifier: GPL-2.0
/*
 * preload.so - what an attacker would put in LD_PRELOAD: here it only
 * marks the process it got into (protectee reports PFSEL_PRELOADED).
 */
#include <stdlib.h>

__attribute__((constructor)) static void preloaded(void)
{
	setenv("PFSEL_PRELOADED", "1", 1);
}
