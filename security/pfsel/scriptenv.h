/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The environment of a protected script
 */

#ifndef _SECURITY_PFSEL_SCRIPTENV_H
#define _SECURITY_PFSEL_SCRIPTENV_H

#include <linux/binfmts.h>
#include <linux/types.h>

/*
 * How much of a variable's name is kept while its string is read: more
 * than the longest name of the table, and every prefix of it fits.
 */
#define PFSEL_SCRIPTENV_NAME 32

/**
 * struct pfsel_scriptenv_var - A variable that makes an interpreter run
 *                              code it names
 *
 * @name: the variable's name, or the start of the names of a family.
 * @prefix: every variable whose name starts with @name.
 */
struct pfsel_scriptenv_var {
	const char *name;
	bool prefix;
};

/* The table (scriptenv.c), for the KUnit cases. */
extern const struct pfsel_scriptenv_var pfsel_scriptenv_vars[];
extern const size_t pfsel_scriptenv_count;

/**
 * struct pfsel_env_scan - Where a walk over the strings of an execve() is
 *
 * @skip: argument strings still to pass.
 * @left: environment strings still to read.
 * @name: the start of the current string's name.
 * @len: the length of that name so far, kept in @name or not.
 * @in_value: past the current string's '='.
 */
struct pfsel_env_scan {
	unsigned long skip;
	unsigned long left;
	char name[PFSEL_SCRIPTENV_NAME];
	size_t len;
	bool in_value;
};

const char *pfsel_scriptenv_refused(const char *name, size_t len);
const char *pfsel_scriptenv_scan(struct pfsel_env_scan *s, const char *p,
				 size_t n);
int pfsel_scriptenv_check(struct linux_binprm *bprm, const char **found);

#endif /* _SECURITY_PFSEL_SCRIPTENV_H */
