/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What race_interp, the scripts' interpreter of script_race_test, tells
 * by its exit status: the script it read and what its connect() got.
 * Both programs include this; race_interp is built with nolibc, so this
 * header includes nothing.
 */
#ifndef PFSEL_RACE_INTERP_H
#define PFSEL_RACE_INTERP_H

/* Where the trusted script may connect (policies/script_race_1001.pfw). */
#define RACE_PORT 7701

enum race_interp_status {
	RACE_TRUSTED_ALLOWED = 10,
	RACE_TRUSTED_DENIED = 11,
	RACE_EVIL_ALLOWED = 20, /* the attack worked */
	RACE_EVIL_DENIED = 21,
	RACE_OPEN_DENIED = 40, /* pfsel refused the open of the name */
	RACE_OPEN_FAILED = 41,
	RACE_NOT_A_SCRIPT = 50, /* neither script's text */
	RACE_SOCKET_FAILED = 51,
	RACE_CONNECT_OTHER = 52, /* neither refused by the port nor by pfsel */
	RACE_USAGE = 53,
};

#endif
