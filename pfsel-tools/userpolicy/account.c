// SPDX-License-Identifier: GPL-2.0-only
/*
 * libuserpolicy - the account a policy is compiled for: the user's passwd
 * entry and groups, as the runas.c child needs them.  Looked up by the PAM
 * module (by name), the pfsel command (by uid) and, as a person types it
 * (a name, else a uid), by pfsel-agent --user and pfsel's --user.
 */
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "userpolicy.h"

int user_account_lookup(struct user_account *const a, const char *const name,
			const uid_t uid)
{
	struct passwd *found = NULL;
	long bufsize = sysconf(_SC_GETPW_R_SIZE_MAX);
	int ngroups = 32, ret;

	memset(a, 0, sizeof(*a));
	if (bufsize < 16384)
		bufsize = 16384;
	for (;;) {
		a->pwbuf = malloc((size_t)bufsize);
		if (!a->pwbuf)
			return -ENOMEM;
		ret = name ? getpwnam_r(name, &a->pw, a->pwbuf, (size_t)bufsize,
					&found) :
			     getpwuid_r(uid, &a->pw, a->pwbuf, (size_t)bufsize,
					&found);
		if (ret != ERANGE || bufsize > (1L << 20))
			break;
		free(a->pwbuf);
		a->pwbuf = NULL;
		bufsize *= 2;
	}
	if (!found)
		return ret ? -ret : -ESRCH;
	for (;;) {
		int n = ngroups;

		a->groups = malloc(sizeof(gid_t) * (size_t)n);
		if (!a->groups)
			return -ENOMEM;
		if (getgrouplist(a->pw.pw_name, a->pw.pw_gid, a->groups, &n) >=
		    0) {
			ngroups = n;
			break;
		}
		free(a->groups);
		a->groups = NULL;
		if (n <= ngroups || n > 65536)
			return -E2BIG;
		ngroups = n;
	}
	a->user = (struct user_identity){
		.uid = a->pw.pw_uid,
		.gid = a->pw.pw_gid,
		.groups = a->groups,
		.ngroups = ngroups,
		.home = a->pw.pw_dir,
		.name = a->pw.pw_name,
	};
	return 0;
}

void user_account_free(struct user_account *const a)
{
	free(a->groups);
	free(a->pwbuf);
	a->groups = NULL;
	a->pwbuf = NULL;
}

/* All digits, and a uid the kernel could have: (uid_t)-1 is no one's. */
static bool uid_text(const char *const text, uid_t *const uid)
{
	unsigned long long v;
	char *end;

	if (!*text || strspn(text, "0123456789") != strlen(text))
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || v >= (uid_t)-1)
		return false;
	*uid = (uid_t)v;
	return true;
}

int user_account_parse(struct user_account *const a, const char *const text)
{
	uid_t uid;
	int ret = user_account_lookup(a, text, 0);

	if (ret != -ESRCH || !uid_text(text, &uid))
		return ret;
	user_account_free(a);
	return user_account_lookup(a, NULL, uid);
}
