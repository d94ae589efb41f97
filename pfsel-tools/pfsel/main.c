// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - administer the pfsel LSM: status, mode, policies, checks,
 * statistics, decisions from the audit log and audit2pfw.  See pfsel(8).
 */
#include <stdio.h>

#include "cmd.h"

int main(int argc, char **argv)
{
	return pfselcmd_main(argc, argv, stdout, stderr);
}
