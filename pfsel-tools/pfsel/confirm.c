// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel confirm: the person puts their ~/.pfw in force, as root.
 *
 * A program running as the user can write ~/.pfw; it cannot type the
 * person's password.  So a ~/.pfw that allows more than the policy the
 * person last confirmed takes effect only through here: root (sudo, or
 * pkexec with polkit's action org.pfsel.load, which asks for the person's
 * own password) compiles ~/.pfw as the user -- exactly as pam_pfsel does
 * (libuserpolicy's user_compile()) -- shows how it differs from the
 * confirmed policy (trust_judge(), as a login judges it), loads it and
 * records it as confirmed (confirmed_write()).  Run as the user, the
 * command runs itself again through pkexec and waits for it.
 *
 * Under pkexec, the person is identified by PKEXEC_UID, which pkexec sets
 * and a caller cannot: they confirm their own policy and nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

#ifndef PFSEL_PKEXEC
#define PFSEL_PKEXEC "/usr/bin/pkexec"
#endif
#ifndef PFSEL_PKTTYAGENT
#define PFSEL_PKTTYAGENT "/usr/bin/pkttyagent"
#endif

/* Looser cells shown before confirming. */
#define SHOW_CELLS 10

static void confirm_help(FILE *out)
{
	fputs("Usage: pfsel confirm [--user USER]\n"
	      "Put ~/.pfw in force and record it as the policy the person "
	      "confirmed.\nAt login, pam_pfsel loads ~/.pfw only when it is "
	      "no looser than the\npolicy last confirmed; a looser one waits "
	      "for this command.  It compiles\n~/.pfw as the user, shows "
	      "where it allows more than the confirmed policy,\nloads it and "
	      "records it as confirmed.  When ~/.pfw is not what the last "
	      "login noted\nas waiting (it changed since), it says so and "
	      "asks on the terminal first;\nwith no terminal it refuses.  "
	      "It runs as root: run as a user, it\n"
	      "starts itself again through pkexec, which asks for your "
	      "password (or use\n'sudo pfsel confirm').\n\n"
	      "      --user USER  whose ~/.pfw (root only; default: the user "
	      "who ran\n                   sudo or pkexec)\n"
	      "  -h, --help       show this help and exit\n\n"
	      "Exit status: 0 loaded and confirmed, 1 it failed (does not "
	      "compile, the\nkernel refused it, not root and no pkexec, "
	      "polkit did not authorize it:\na wrong password, no agent or "
	      "terminal to ask on), 2 wrong usage, 3 pfsel\nis not "
	      "available.\n",
	      out);
}

/*
 * The person was told at login that the policy ~/.pfw compiled to then
 * waits (the pending note: its SHA-256).  A program of theirs can write
 * ~/.pfw between that and this command, so what is confirmed must be
 * what waited; when it is not, the person says so on the terminal, after
 * the looser cells were shown.  With no note, a ~/.pfw that is @looser
 * than the confirmed policy is asked about the same way: a program of
 * theirs can remove the note (a session it opens that loads the confirmed
 * policy ends it) or write ~/.pfw with no login between.  True when it
 * may go on.
 */
static bool still_what_waits(struct pfselcmd_ctx *ctx, uint32_t uid,
			     const uint8_t digest[PFSEL_DIGEST_SIZE],
			     bool looser)
{
	uint8_t pending[PFSEL_DIGEST_SIZE];
	char hex[PFSEL_DIGEST_HEX_SIZE], answer[16];

	if (confirmed_pending_read(POLICY_RUN_DIR, (uid_t)uid, pending)) {
		if (!looser)
			return true;
		fprintf(ctx->out,
			"No login noted a looser ~/.pfw as waiting for "
			"confirmation: a program of yours may\nhave written "
			"it.  ");
	} else if (!memcmp(pending, digest, sizeof(pending))) {
		return true;
	} else {
		fprintf(ctx->out,
			"~/.pfw is not the policy your login said waits for "
			"confirmation (sha256 %s):\nit changed since.  ",
			pfsel_digest_hex(pending, hex));
	}
	if (!isatty(STDIN_FILENO)) {
		fprintf(ctx->err,
			"pfsel confirm: ~/.pfw is not what a login noted as "
			"waiting; not loaded.\nLook at it ('pfsel status' as "
			"root shows what it allows more), then log in again or "
			"run 'pfsel confirm' on a terminal.\n");
		return false;
	}
	fprintf(ctx->out, "Put it in force anyway? [y/N] ");
	fflush(ctx->out);
	if (!fgets(answer, sizeof(answer), stdin) ||
	    (answer[0] != 'y' && answer[0] != 'Y')) {
		fprintf(ctx->err, "pfsel confirm: not loaded\n");
		return false;
	}
	return true;
}

/*
 * Whether the policy compiled from ~/.pfw could have replaced the
 * confirmed one without the person (trust_judge(), as a login judges it):
 * where it allows more, on ctx->out.  True when it allows more.
 */
static bool show_judgement(struct pfselcmd_ctx *ctx,
			   const struct user_account *u, const void *confirmed,
			   size_t confirmed_len, const void *blob, size_t len)
{
	struct trust_report report = { .max = SHOW_CELLS };
	char *cells = NULL;
	size_t cells_len = 0;
	bool looser = false;

	report.out = open_memstream(&cells, &cells_len);
	switch (trust_judge(confirmed, confirmed_len, blob, len, u->user.uid,
			    NULL, report.out ? &report : NULL)) {
	case TRUST_LOOSER:
		looser = true;
		if (report.out)
			fclose(report.out);
		report.out = NULL;
		fprintf(ctx->out,
			"%s/%s allows more than the policy confirmed before, "
			"for example:\n%s",
			u->user.home, POLICY_SOURCE, cells ? cells : "");
		break;
	case TRUST_CONFIRMED_SAME:
	case TRUST_NO_LOOSER:
		fprintf(ctx->out,
			"%s/%s is no looser than the policy confirmed "
			"before.\n",
			u->user.home, POLICY_SOURCE);
		break;
	default:
		break;
	}
	if (report.out)
		fclose(report.out);
	free(cells);
	return looser;
}

/* The uid behind sudo or pkexec, from its variable: true and *uid. */
static bool caller_uid(const char *name, uint32_t *uid)
{
	const char *value = getenv(name);

	return value && pfselcmd_parse_uid(value, uid) && *uid != 0;
}

int pfselcmd_caller(uint32_t *uid)
{
	/* pkexec's first: it is set by pkexec itself, after the password. */
	if (geteuid() != 0) {
		*uid = (uint32_t)getuid();
		return 0;
	}
	if (caller_uid("PKEXEC_UID", uid) || caller_uid("SUDO_UID", uid))
		return 0;
	return -ENOENT;
}

bool pfselcmd_under_pkexec(void)
{
	uint32_t uid;

	return geteuid() == 0 && caller_uid("PKEXEC_UID", &uid);
}

int pfselcmd_parse_user(const char *text, uint32_t *uid)
{
	struct user_account a;
	int ret = user_account_parse(&a, text);

	if (!ret)
		*uid = (uint32_t)a.pw.pw_uid;
	user_account_free(&a);
	return ret;
}

const char *pfselcmd_pfwc(void)
{
	static char path[PATH_MAX + 8];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	/* The pfwc installed beside this pfsel (build/bin, /usr/bin). */
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/pfwc", self);
			if (!access(path, X_OK))
				return path;
		}
	}
	return POLICY_PFWC;
}

int pfselcmd_compile_user(struct pfselcmd_ctx *ctx,
			  const struct user_account *u, void **blob,
			  size_t *len)
{
	char diag[512] = "";
	int ret;

	ret = user_compile(&u->user, pfselcmd_pfwc(), POLICY_COMPILE_TIMEOUT,
			   blob, len, diag, sizeof(diag));
	if (ret == -EBADMSG)
		return pfselcmd_fail(ctx, -EBADMSG,
				     "%s/%s does not compile: %s", u->user.home,
				     POLICY_SOURCE,
				     diag[0] ? diag : "pfwc failed");
	if (ret)
		return pfselcmd_fail(ctx, ret, "compiling %s/%s as %s: %s%s%s",
				     u->user.home, POLICY_SOURCE, u->user.name,
				     strerror(-ret), diag[0] ? ": " : "", diag);
	if (policy_blob_check(*blob, *len, u->user.uid, NULL)) {
		free(*blob);
		return pfselcmd_fail(ctx, -EBADMSG,
				     "pfwc did not write a policy for uid %u",
				     (unsigned int)u->user.uid);
	}
	return 0;
}

bool pfselcmd_real_securityfs(void)
{
	return !strcmp(pfsel_securityfs(), PFSEL_SECURITYFS_DEFAULT);
}

int pfselcmd_open_confirmed(void)
{
	int cache_fd = store_open_dir(POLICY_CACHE_DIR, 0700), fd;

	if (cache_fd < 0)
		return cache_fd;
	fd = confirmed_open(cache_fd);
	close(cache_fd);
	return fd;
}

int pfselcmd_record_confirmed(struct pfselcmd_ctx *ctx, uint32_t uid,
			      const void *blob, size_t len)
{
	int conf_fd, run_fd, ret;

	/* Only for the kernel's policies: not for a test's folder. */
	if (!pfselcmd_real_securityfs())
		return 0;
	conf_fd = pfselcmd_open_confirmed();
	if (conf_fd < 0)
		return pfselcmd_fail(ctx, conf_fd, "%s/%s: %s",
				     POLICY_CACHE_DIR, POLICY_CONFIRMED_DIR,
				     strerror(-conf_fd));
	ret = blob ? confirmed_write(conf_fd, uid, blob, len) :
		     confirmed_forget(conf_fd, uid);
	close(conf_fd);
	if (ret)
		return pfselcmd_fail(ctx, ret, "%s/%s/%u.pfsel: %s",
				     POLICY_CACHE_DIR, POLICY_CONFIRMED_DIR,
				     uid, strerror(-ret));
	run_fd = store_open_dir(POLICY_RUN_DIR, 0755);
	if (run_fd >= 0) {
		confirmed_pending_clear(run_fd, uid);
		close(run_fd);
	}
	return 0;
}

/*
 * The terminal's agent: pkttyagent, run as the user and registered for this
 * process, which is the subject pkexec asks polkit about (its parent), as a
 * fallback, so that an agent the session has (a desktop's dialog) comes
 * first.  Not pkexec's own text agent: before polkit 124 (Debian 12 has
 * 122) it registers as root, and polkit refuses the right password from it
 * ("No session for cookie").  Its pid once it is registered (it closes
 * --notify-fd then), or -1: no terminal, no pkttyagent, or it failed.
 */
static pid_t start_tty_agent(void)
{
	char pid_arg[24], fd_arg[24], c;
	int notify[2], fd, status;
	pid_t pid;

	if (access(PFSEL_PKTTYAGENT, X_OK))
		return -1;
	fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	close(fd);
	if (pipe2(notify, O_CLOEXEC))
		return -1;
	snprintf(pid_arg, sizeof(pid_arg), "%d", (int)getpid());
	snprintf(fd_arg, sizeof(fd_arg), "%d", notify[1]);
	pid = fork();
	if (pid == 0) {
		fcntl(notify[1], F_SETFD, 0);
		execl(PFSEL_PKTTYAGENT, "pkttyagent", "--process", pid_arg,
		      "--fallback", "--notify-fd", fd_arg, (char *)NULL);
		_exit(127);
	}
	close(notify[1]);
	if (pid > 0) {
		while (read(notify[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	close(notify[0]);
	if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid)
		return -1;
	return pid > 0 ? pid : -1;
}

/*
 * Not root: run ourselves again through pkexec, which asks for the
 * password (through the session's agent, or the terminal's: above), and
 * wait for it.  pkexec's own refusals (126: the person dismissed the
 * question; 127: not authorized -- a wrong password, or no agent and no
 * terminal to ask on) become ours: a message that nothing changed, and
 * exit status 1.  pfsel's statuses under pkexec (0 to 3) pass through.
 */
static int through_pkexec(struct pfselcmd_ctx *ctx)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old_int, old_quit;
	char self[PATH_MAX];
	pid_t pid, agent;
	int status;
	ssize_t n;

	if (access(PFSEL_PKEXEC, X_OK))
		return pfselcmd_fail(
			ctx, PFSELCMD_EXIT_FAILED,
			"only root puts a policy in force; confirm yours with "
			"'sudo pfsel confirm' (%s is not installed: with it, "
			"'pfsel confirm' asks for your password)",
			PFSEL_PKEXEC);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
				     "readlink(/proc/self/exe): %m");
	self[n] = '\0';
	fflush(ctx->out);
	fflush(ctx->err);
	agent = start_tty_agent();
	/* A ^C at the password prompt ends pkexec; we say what it meant. */
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGQUIT, &ignore, &old_quit);
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		/* Without a terminal, pkexec's own agent has none either. */
		if (agent > 0 ||
		    open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC) < 0)
			execl(PFSEL_PKEXEC, "pkexec",
			      "--disable-internal-agent", self, "confirm",
			      (char *)NULL);
		else
			execl(PFSEL_PKEXEC, "pkexec", self, "confirm",
			      (char *)NULL);
		fprintf(ctx->err, "pfsel confirm: execl(%s): %m\n",
			PFSEL_PKEXEC);
		_exit(127);
	}
	status = -1;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (agent > 0) {
		kill(agent, SIGTERM);
		while (waitpid(agent, NULL, 0) < 0 && errno == EINTR)
			;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (pid < 0)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED, "fork: %m");
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) <= 3)
		return WEXITSTATUS(status);
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 126)
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
				     "not confirmed: the authentication was "
				     "dismissed; nothing changed");
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return pfselcmd_fail(
			ctx, PFSELCMD_EXIT_FAILED,
			"not confirmed: polkit did not authorize it (a wrong "
			"password, or no authentication agent and no terminal "
			"to ask on: run it in a terminal, or 'sudo pfsel "
			"confirm'); nothing changed");
	if (status != -1 && WIFSIGNALED(status))
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
				     "not confirmed: %s ended by signal %d",
				     PFSEL_PKEXEC, WTERMSIG(status));
	return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
			     "not confirmed: %s exited with status %d",
			     PFSEL_PKEXEC,
			     status == -1 ? -1 : WEXITSTATUS(status));
}

int pfselcmd_confirm(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		{ "user", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct user_account u;
	const char *user = NULL;
	void *blob = NULL, *confirmed = NULL;
	size_t len = 0, confirmed_len = 0;
	uint8_t digest[PFSEL_DIGEST_SIZE] = { 0 };
	char hex[PFSEL_DIGEST_HEX_SIZE];
	uint32_t uid = 0;
	int opt, ret, lock = -1, run_fd, conf_fd;
	bool looser = true;

	while ((opt = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
		switch (opt) {
		case 'u':
			user = optarg;
			break;
		case 'h':
			confirm_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		default:
			return pfselcmd_bad_option(ctx, opt, argv);
		}
	}
	if (optind < argc)
		return pfselcmd_extra_argument(ctx, argv);
	if (geteuid() != 0) {
		if (user)
			return pfselcmd_usage(ctx, "--user is for root");
		return through_pkexec(ctx);
	}
	if (user) {
		if (pfselcmd_parse_user(user, &uid))
			return pfselcmd_usage(ctx, "no such user: '%s'", user);
		if (pfselcmd_under_pkexec()) {
			uint32_t own;

			pfselcmd_caller(&own);
			if (own != uid)
				return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
						     "through pkexec, you "
						     "confirm your own policy "
						     "only");
		}
	} else if (pfselcmd_caller(&uid)) {
		return pfselcmd_usage(ctx, "whose policy? As root: pfsel "
					   "confirm --user USER");
	}
	if (uid == 0)
		return pfselcmd_usage(ctx, "root has no user policy");
	if (!pfselcmd_available(ctx, false))
		return PFSELCMD_EXIT_UNAVAILABLE;
	ret = user_account_lookup(&u, NULL, (uid_t)uid);
	if (ret) {
		user_account_free(&u);
		return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED, "uid %u: %s",
				     uid, strerror(-ret));
	}

	/* One at a time with pam_pfsel: its lock on the session counter. */
	run_fd = store_open_dir(POLICY_RUN_DIR, 0755);
	if (run_fd >= 0) {
		lock = confirmed_lock(run_fd, uid);
		close(run_fd);
	}

	ret = pfselcmd_compile_user(ctx, &u, &blob, &len);
	if (ret) {
		ret = PFSELCMD_EXIT_FAILED;
		goto out;
	}
	policy_blob_check(blob, len, uid, digest);

	/* What the person confirms: where it allows more. */
	/* No confirmed policy: anything is looser than nothing confirmed. */
	conf_fd = pfselcmd_open_confirmed();
	if (conf_fd >= 0 &&
	    confirmed_read(conf_fd, uid, &confirmed, &confirmed_len) == 0)
		looser = show_judgement(ctx, &u, confirmed, confirmed_len, blob,
					len);
	if (conf_fd >= 0)
		close(conf_fd);
	free(confirmed);
	if (!still_what_waits(ctx, uid, digest, looser)) {
		ret = PFSELCMD_EXIT_FAILED;
		goto out;
	}

	ret = pfsel_load_buffer(blob, len);
	if (ret) {
		ret = pfselcmd_lib_fail(ctx, ret);
		fprintf(ctx->err, "pfsel confirm: %s/%s not loaded\n",
			u.user.home, POLICY_SOURCE);
		goto out;
	}
	ret = pfselcmd_record_confirmed(ctx, uid, blob, len) ?
		      PFSELCMD_EXIT_FAILED :
		      PFSELCMD_EXIT_OK;
	if (!ret)
		fprintf(ctx->out,
			"uid %u: %s/%s (sha256 %s) loaded and confirmed\n", uid,
			u.user.home, POLICY_SOURCE,
			pfsel_digest_hex(digest, hex));
out:
	if (lock >= 0)
		close(lock);
	free(blob);
	user_account_free(&u);
	return ret;
}
