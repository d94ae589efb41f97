// SPDX-License-Identifier: GPL-2.0-only
/*
 * login_bench - what a login costs: pam_pfsel's session open, as a login
 * runs it, through Linux-PAM (tests/bench/login runs it, case by case).
 *
 *   login_bench -c CONFDIR -s SERVICE -u USER -d HOME [-i UID] [-n OPENS]
 *
 * Opens and closes OPENS sessions (default 1; 0: only starts and ends one
 * PAM transaction, the cost the figures subtract) of USER with the PAM
 * service SERVICE of the folder CONFDIR (pam_start_confdir(): nothing of
 * /etc/pam.d), and prints for each open "open STATUS SECONDS CPU": the
 * seconds pam_open_session() took, and the CPU seconds it and the
 * processes it started and waited for used.
 *
 * The account: this program answers the user database itself for USER
 * (getpwnam_r(), getpwuid_r(), getgrouplist(): uid UID, or the caller's
 * own uid when it is not root; the same number as its group; HOME as its
 * home) and hands every other question to the C library.  pam_pfsel asks
 * through the process's global symbols, where this program's come first
 * (it is linked with -rdynamic), so the benchmark needs no account on the
 * machine and touches no real home.  Only the passwd lookup is stood in
 * for: the module's children (stat and pfwc as the user) are real.
 */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_appl.h>

static struct {
	const char *name;
	const char *home;
	uid_t uid;
	gid_t gid;
} bench_user;

/* Fill @pwd for the benchmark's user, its strings in @buf. */
static int fill_passwd(struct passwd *pwd, char *buf, size_t buflen,
		       struct passwd **result)
{
	const size_t name_len = strlen(bench_user.name) + 1;
	const size_t home_len = strlen(bench_user.home) + 1;
	static const char shell[] = "/bin/sh";

	*result = NULL;
	if (name_len + home_len + sizeof(shell) + 1 > buflen)
		return ERANGE;
	memcpy(buf, bench_user.name, name_len);
	memcpy(buf + name_len, bench_user.home, home_len);
	memcpy(buf + name_len + home_len, shell, sizeof(shell));
	*pwd = (struct passwd){
		.pw_name = buf,
		.pw_passwd = buf + name_len - 1, /* "" */
		.pw_uid = bench_user.uid,
		.pw_gid = bench_user.gid,
		.pw_gecos = buf + name_len - 1,
		.pw_dir = buf + name_len,
		.pw_shell = buf + name_len + home_len,
	};
	*result = pwd;
	return 0;
}

int getpwnam_r(const char *name, struct passwd *pwd, char *buf, size_t buflen,
	       struct passwd **result)
{
	int (*next)(const char *, struct passwd *, char *, size_t,
		    struct passwd **);

	if (bench_user.name && !strcmp(name, bench_user.name))
		return fill_passwd(pwd, buf, buflen, result);
	next = (__typeof__(next))dlsym(RTLD_NEXT, "getpwnam_r");
	return next ? next(name, pwd, buf, buflen, result) : ENOSYS;
}

int getpwuid_r(uid_t uid, struct passwd *pwd, char *buf, size_t buflen,
	       struct passwd **result)
{
	int (*next)(uid_t, struct passwd *, char *, size_t, struct passwd **);

	if (bench_user.name && uid == bench_user.uid)
		return fill_passwd(pwd, buf, buflen, result);
	next = (__typeof__(next))dlsym(RTLD_NEXT, "getpwuid_r");
	return next ? next(uid, pwd, buf, buflen, result) : ENOSYS;
}

int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups)
{
	int (*next)(const char *, gid_t, gid_t *, int *);

	if (bench_user.name && !strcmp(user, bench_user.name)) {
		if (*ngroups < 1) {
			*ngroups = 1;
			return -1;
		}
		groups[0] = group;
		*ngroups = 1;
		return 1;
	}
	next = (__typeof__(next))dlsym(RTLD_NEXT, "getgrouplist");
	return next ? next(user, group, groups, ngroups) : -1;
}

/* The module's messages to the person ("confirm it"): read, not shown. */
static int quiet_conv(int n, const struct pam_message **msg,
		      struct pam_response **resp, void *data)
{
	(void)msg;
	(void)data;
	*resp = calloc((size_t)n, sizeof(**resp));
	return *resp ? PAM_SUCCESS : PAM_BUF_ERR;
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* CPU seconds so far, this process's and its children's that ended. */
static double cpu_seconds(void)
{
	struct rusage self, children;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);
	return (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
			children.ru_utime.tv_sec + children.ru_stime.tv_sec) +
	       (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
			children.ru_utime.tv_usec + children.ru_stime.tv_usec) /
		       1e6;
}

static void usage(void)
{
	fprintf(stderr, "usage: login_bench -c CONFDIR -s SERVICE -u USER "
			"-d HOME [-i UID] [-n OPENS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const struct pam_conv conv = { quiet_conv, NULL };
	const char *confdir = NULL, *service = NULL;
	unsigned long opens = 1, i;
	int opt, ret, status = 0;

	bench_user.uid = 1001;
	while ((opt = getopt(argc, argv, "c:s:u:d:i:n:")) != -1) {
		switch (opt) {
		case 'c':
			confdir = optarg;
			break;
		case 's':
			service = optarg;
			break;
		case 'u':
			bench_user.name = optarg;
			break;
		case 'd':
			bench_user.home = optarg;
			break;
		case 'i':
			bench_user.uid = (uid_t)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			opens = strtoul(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	if (!confdir || !service || !bench_user.name || !bench_user.home ||
	    optind != argc)
		usage();
	/* Without root, the module can become only whom it runs as. */
	if (geteuid() != 0)
		bench_user.uid = getuid();
	bench_user.gid = (gid_t)bench_user.uid;
	if (geteuid() != 0)
		bench_user.gid = getgid();

	/* With -n 0, one start and end: what the figures leave out. */
	for (i = 0; i < (opens ? opens : 1); i++) {
		pam_handle_t *pamh = NULL;
		struct timespec start;
		double took, cpu;

		ret = pam_start_confdir(service, bench_user.name, &conv,
					confdir, &pamh);
		if (ret != PAM_SUCCESS) {
			fprintf(stderr, "login_bench: pam_start: %s\n",
				pam_strerror(pamh, ret));
			return 1;
		}
		if (!opens) {
			pam_end(pamh, PAM_SUCCESS);
			break;
		}
		cpu = cpu_seconds();
		clock_gettime(CLOCK_MONOTONIC, &start);
		ret = pam_open_session(pamh, 0);
		took = seconds_since(&start);
		cpu = cpu_seconds() - cpu;
		printf("open %s %.6f %.6f\n",
		       ret == PAM_SUCCESS ? "ok" : pam_strerror(pamh, ret),
		       took, cpu);
		if (ret != PAM_SUCCESS)
			status = 1;
		else
			pam_close_session(pamh, 0);
		pam_end(pamh, ret);
	}
	return status;
}
