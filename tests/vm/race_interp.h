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

/* What a status of race_interp's says; 0 (no text) for any other number. */
static inline const char *race_interp_outcome(int status)
{
	switch (status) {
	case RACE_TRUSTED_ALLOWED:
		return "trusted script, allowed (named as the script)";
	case RACE_TRUSTED_DENIED:
		return "trusted script, denied (no script identity)";
	case RACE_EVIL_ALLOWED:
		return "EVIL SCRIPT, ALLOWED (as the trusted one)";
	case RACE_EVIL_DENIED:
		return "evil script, denied";
	case RACE_OPEN_DENIED:
		return "the interpreter's open of the name: EACCES (script-path)";
	case RACE_OPEN_FAILED:
		return "the interpreter's open of the name failed";
	case RACE_NOT_A_SCRIPT:
		return "the interpreter read neither script";
	case RACE_SOCKET_FAILED:
		return "the interpreter's socket() failed";
	case RACE_CONNECT_OTHER:
		return "the connect() got neither ECONNREFUSED nor EACCES";
	case RACE_USAGE:
		return "the interpreter's arguments were not one script name";
	}
	return 0;
}

#endif
