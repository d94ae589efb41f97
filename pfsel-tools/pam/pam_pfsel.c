// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - the Linux-PAM session module of pfsel (pam_pfsel(8)).
 *
 * At a session's open: compile the user's ~/.pfw when the compiled policy
 * kept for them is missing or stale (stamp.c) -- as the user, never as
 * root (user_compile()) -- keep the result where only root writes, and
 * load it for the user's uid if it may replace the policy the person
 * confirmed (trust_judge()).  At a session's close: count it off
 * (counter.c), and at the close of the user's last session tell pfsel to
 * forget the answers the user's agent gave "for the session".  The policy
 * itself stays loaded between sessions: the user's processes that outlive
 * a session (cron jobs, services, nohup) are still governed by it.
 *
 * A uid's opens and closes are serialised by the lock on its session
 * counter, so that two logins at once compile once and load once, and a
 * close never forgets while an open is half done.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include <pfsel/pfsel.h>

#include "pam_pfsel.h"

#define PAM_PFSEL_EXPORT __attribute__((visibility("default")))

/* pam_set_data key: whether this handle's open was counted. */
#define DATA_COUNTED "pam_pfsel_counted"
static const char counted_yes = 1;
static const char counted_no = 0;

/* Everything one call works with. */
struct ctx {
	pam_handle_t *pamh;
	struct pfsel_pam_options opts;
	struct user_account acct;
	struct user_identity user;
	char blob_name[32];
	char stamp_name[32];
};

#define DEBUG(c, ...)                                                  \
	do {                                                           \
		if ((c)->opts.debug)                                   \
			pam_syslog((c)->pamh, LOG_DEBUG, __VA_ARGS__); \
	} while (0)

static void warn_unknown(void *const pamh, const char *const arg)
{
	pam_syslog(pamh, LOG_ERR, "unknown option: %s", arg);
}

/* Options, the user, their groups: PAM_SUCCESS, PAM_IGNORE for root. */
static int ctx_init(struct ctx *const c, pam_handle_t *const pamh,
		    const int argc, const char **const argv)
{
	const char *name = NULL;
	char err[PATH_MAX + 64];
	int ret;

	memset(c, 0, sizeof(*c));
	c->pamh = pamh;
	if (pfsel_pam_parse_options(&c->opts, argc, argv, warn_unknown, pamh,
				    err, sizeof(err))) {
		pam_syslog(pamh, LOG_ERR, "bad option: %s", err);
		return PAM_SERVICE_ERR;
	}
	/*
	 * Never $PFSEL_SECURITYFS: in a set-uid program (su) the environment
	 * is the caller's, and root would write policies where they say.
	 */
	if (pfsel_set_securityfs(PFSEL_SECURITYFS_DEFAULT))
		return PAM_BUF_ERR;

	ret = pam_get_user(pamh, &name, NULL);
	if (ret != PAM_SUCCESS || !name || !*name) {
		pam_syslog(pamh, LOG_ERR, "cannot tell the user: %s",
			   pam_strerror(pamh, ret));
		return PAM_USER_UNKNOWN;
	}
	ret = user_account_lookup(&c->acct, name, 0);
	if (ret == -ENOMEM)
		return PAM_BUF_ERR;
	if (ret && !c->acct.pw.pw_name) {
		pam_syslog(pamh, LOG_ERR, "no such user: %s%s%s", name,
			   ret != -ESRCH ? ": " : "",
			   ret != -ESRCH ? strerror(-ret) : "");
		return PAM_USER_UNKNOWN;
	}
	if (c->acct.pw.pw_uid == 0) {
		DEBUG(c, "root has no user policy; nothing to do");
		return PAM_IGNORE;
	}
	if (ret) {
		pam_syslog(pamh, LOG_ERR, "user %s: cannot list their groups",
			   name);
		return PAM_SESSION_ERR;
	}
	if (!c->acct.pw.pw_dir || c->acct.pw.pw_dir[0] != '/') {
		pam_syslog(pamh, LOG_ERR, "user %s: no absolute home folder",
			   name);
		return PAM_SESSION_ERR;
	}
	c->user = c->acct.user;
	snprintf(c->blob_name, sizeof(c->blob_name), "%u.pfsel",
		 (unsigned int)c->user.uid);
	snprintf(c->stamp_name, sizeof(c->stamp_name), "%u.stamp",
		 (unsigned int)c->user.uid);
	return PAM_SUCCESS;
}

static void ctx_free(struct ctx *const c)
{
	user_account_free(&c->acct);
}

/*
 * The SHA-256 of the policy loaded for the user: 1 and @digest, 0 when
 * none is loaded, negative when `policies` cannot be read.
 */
static int loaded_digest(struct ctx *const c,
			 uint8_t digest[PFSEL_DIGEST_SIZE])
{
	struct pfsel_policy_info info;
	int ret = pfsel_get_policy_info(false, c->user.uid, &info);

	if (ret == 1)
		memcpy(digest, info.digest, PFSEL_DIGEST_SIZE);
	return ret;
}

/*
 * Load @blob for the user, unless the very same policy is loaded already:
 * a load flushes every answer the user's agent gave for their session,
 * which a second login must not do to the first.
 */
static int load_blob(struct ctx *const c, const void *const blob,
		     const size_t len, const char *const what)
{
	uint8_t digest[PFSEL_DIGEST_SIZE], current[PFSEL_DIGEST_SIZE];
	char hex[PFSEL_DIGEST_HEX_SIZE];
	int ret;

	ret = policy_blob_check(blob, len, c->user.uid, digest);
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: %s is not a policy for them",
			   (unsigned int)c->user.uid, what);
		return ret;
	}
	pfsel_digest_hex(digest, hex);
	if (loaded_digest(c, current) == 1 &&
	    !memcmp(current, digest, sizeof(digest))) {
		DEBUG(c, "uid %u: %s (sha256 %s) is loaded already",
		      (unsigned int)c->user.uid, what, hex);
		return 0;
	}
	ret = pfsel_load_buffer(blob, len);
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR, "uid %u: loading %s: %s",
			   (unsigned int)c->user.uid, what, pfsel_last_error());
		return ret;
	}
	pam_syslog(c->pamh, LOG_INFO, "uid %u: loaded %s (sha256 %s)",
		   (unsigned int)c->user.uid, what, hex);
	return 0;
}

/*
 * Keep the previous policy: what is loaded for the user stays (only the
 * root side and the user's agent can have loaded it); when nothing is,
 * the policy they last confirmed, if any.  Return: 0, or -ENOENT when
 * nothing was loaded and nothing is confirmed.
 */
static int keep_previous(struct ctx *const c, const int conf_fd)
{
	uint8_t digest[PFSEL_DIGEST_SIZE];
	char hex[PFSEL_DIGEST_HEX_SIZE];
	void *blob = NULL;
	size_t len = 0;
	int ret;

	if (loaded_digest(c, digest) == 1) {
		pam_syslog(c->pamh, LOG_NOTICE,
			   "uid %u: keeping the policy loaded (sha256 %s)",
			   (unsigned int)c->user.uid,
			   pfsel_digest_hex(digest, hex));
		return 0;
	}
	ret = conf_fd >= 0 ? confirmed_read(conf_fd, c->user.uid, &blob, &len) :
			     -ENOENT;
	if (ret == 0) {
		ret = load_blob(c, blob, len, "the policy last confirmed");
		free(blob);
		return ret;
	}
	if (ret == -ENOENT)
		pam_syslog(c->pamh, LOG_NOTICE,
			   "uid %u: no previous policy to keep; none is loaded",
			   (unsigned int)c->user.uid);
	else
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: the policy last confirmed: %s",
			   (unsigned int)c->user.uid, strerror(-ret));
	return -ENOENT;
}

/* Whether the user has confirmed a policy. */
static bool have_confirmed(struct ctx *const c, const int conf_fd)
{
	char name[32];
	struct stat st;

	snprintf(name, sizeof(name), "%u.pfsel", (unsigned int)c->user.uid);
	return conf_fd >= 0 &&
	       fstatat(conf_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void unload_user(struct ctx *const c, const char *const why)
{
	const int ret = pfsel_unload_uid(c->user.uid);

	if (ret == 0)
		pam_syslog(c->pamh, LOG_NOTICE, "uid %u: policy unloaded (%s)",
			   (unsigned int)c->user.uid, why);
	else if (ret == -ENOENT)
		DEBUG(c, "uid %u: no policy loaded (%s)",
		      (unsigned int)c->user.uid, why);
	else
		pam_syslog(c->pamh, LOG_ERR, "uid %u: unloading: %s",
			   (unsigned int)c->user.uid, pfsel_last_error());
}

/*
 * ~/.pfw did not compile or load: what on_error= says.  on_error=none
 * unloads only a policy nobody confirmed: a program of the user's that
 * breaks ~/.pfw does not thereby turn the confirmed policy off.
 */
static int failed(struct ctx *const c, const int conf_fd)
{
	switch (c->opts.on_error) {
	case PFSEL_PAM_ON_ERROR_KEEP:
		keep_previous(c, conf_fd);
		return PAM_SUCCESS;
	case PFSEL_PAM_ON_ERROR_NONE:
		if (have_confirmed(c, conf_fd))
			keep_previous(c, conf_fd);
		else
			unload_user(c, "on_error=none");
		return PAM_SUCCESS;
	case PFSEL_PAM_ON_ERROR_DENY:
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: refusing the session (on_error=deny)",
			   (unsigned int)c->user.uid);
		return PAM_SESSION_ERR;
	}
	return PAM_SESSION_ERR;
}

/* Compile ~/.pfw, keep the result with its stamp: 0 and @blob, or -errno. */
static int compile_to_cache(struct ctx *const c, const int cache_fd,
			    const struct pfsel_pam_stamp *const source,
			    void **const out, size_t *const out_len)
{
	char diag[512], stamp[128];
	void *blob = NULL;
	size_t len = 0;
	int ret, n;

	ret = user_compile(&c->user, c->opts.pfwc, c->opts.timeout, &blob, &len,
			   diag, sizeof(diag));
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: %s/%s does not compile: %s",
			   (unsigned int)c->user.uid, c->user.home,
			   POLICY_SOURCE, diag[0] ? diag : strerror(-ret));
		return ret;
	}
	ret = policy_blob_check(blob, len, c->user.uid, NULL);
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: %s did not write a policy for uid %u",
			   (unsigned int)c->user.uid, c->opts.pfwc,
			   (unsigned int)c->user.uid);
		free(blob);
		return ret;
	}
	/* The policy first, then its stamp: a crash between is "stale". */
	n = pfsel_pam_stamp_format(source, stamp, sizeof(stamp));
	ret = store_write_atomic(cache_fd, c->blob_name, blob, len);
	if (!ret && n > 0)
		ret = store_write_atomic(cache_fd, c->stamp_name, stamp,
					 (size_t)n);
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR, "uid %u: keeping %s in %s: %s",
			   (unsigned int)c->user.uid, c->blob_name,
			   c->opts.cache_dir, strerror(-ret));
		unlinkat(cache_fd, c->stamp_name, 0);
	}
	DEBUG(c, "uid %u: compiled %s/%s (%zu bytes)",
	      (unsigned int)c->user.uid, c->user.home, POLICY_SOURCE, len);
	*out = blob;
	*out_len = len;
	return 0;
}

/* The compiled policy kept: 0 and @blob, or -errno. */
static int read_cached(struct ctx *const c, const int cache_fd,
		       void **const blob, size_t *const len)
{
	int ret = store_read_at(cache_fd, c->blob_name, PFSEL_POLICY_MAX_SIZE,
				blob, len);

	if (!ret && policy_blob_check(*blob, *len, c->user.uid, NULL)) {
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: the compiled policy kept is not theirs",
			   (unsigned int)c->user.uid);
		free(*blob);
		*blob = NULL;
		return -EBADMSG;
	}
	return ret;
}

/* The run folder, for the notes of what waits for confirmation. */
static int open_run_dir(struct ctx *const c)
{
	const int fd = store_open_dir(c->opts.run_dir, 0755);

	if (fd < 0)
		pam_syslog(c->pamh, LOG_ERR, "%s: %s (it must be root's)",
			   c->opts.run_dir, strerror(-fd));
	return fd;
}

/* Tell the person, once per policy, that ~/.pfw waits for them. */
static void tell_once(struct ctx *const c,
		      const uint8_t digest[PFSEL_DIGEST_SIZE],
		      const enum trust_judgement why)
{
	const int run_fd = open_run_dir(c);
	int ret;

	if (run_fd < 0)
		return;
	ret = confirmed_pending_set(run_fd, c->user.uid, digest);
	close(run_fd);
	if (ret < 0) {
		pam_syslog(c->pamh, LOG_ERR, "%s/%u.pending: %s",
			   c->opts.run_dir, (unsigned int)c->user.uid,
			   strerror(-ret));
		return;
	}
	if (ret == 0)
		return;
	pam_info(c->pamh,
		 "pfsel: your ~/.pfw %s the firewall policy you last "
		 "confirmed, so that one stays in force.\n"
		 "pfsel: to put ~/.pfw in force, confirm it: pfsel confirm "
		 "(it asks for your password); 'pfsel status' shows the "
		 "difference.",
		 why == TRUST_LOOSER ? "allows more than" :
				       "cannot be compared with");
}

static void pending_clear(struct ctx *const c)
{
	const int run_fd = open_run_dir(c);

	if (run_fd < 0)
		return;
	confirmed_pending_clear(run_fd, c->user.uid);
	close(run_fd);
}

/*
 * Load the policy compiled from ~/.pfw if it is no looser than the one
 * the person last confirmed (or nothing is confirmed yet); else keep the
 * confirmed one in force and tell them once.  0, or -errno (on_error=).
 */
static int judge_and_load(struct ctx *const c, const int conf_fd,
			  const void *const blob, const size_t len)
{
	enum trust_judgement judgement;
	void *confirmed = NULL;
	size_t confirmed_len = 0;
	uint8_t loaded[PFSEL_DIGEST_SIZE], digest[PFSEL_DIGEST_SIZE] = { 0 };
	char hex[PFSEL_DIGEST_HEX_SIZE];
	int ret;

	ret = confirmed_read(conf_fd, c->user.uid, &confirmed, &confirmed_len);
	if (ret && ret != -ENOENT)
		pam_syslog(c->pamh, LOG_ERR,
			   "uid %u: the policy last confirmed: %s",
			   (unsigned int)c->user.uid, strerror(-ret));
	if (ret == -EBADMSG) {
		/* Unreadable as a policy: nothing to compare with, keep. */
		judgement = TRUST_UNCOMPARABLE;
	} else {
		judgement = trust_judge(
			confirmed, confirmed_len, blob, len, c->user.uid,
			loaded_digest(c, loaded) == 1 ? loaded : NULL, NULL);
	}
	policy_blob_check(blob, len, c->user.uid, digest);
	pfsel_digest_hex(digest, hex);
	DEBUG(c, "uid %u: ~/.pfw (sha256 %s): %s", (unsigned int)c->user.uid,
	      hex, trust_judgement_name(judgement));

	if (!trust_judgement_loads(judgement)) {
		pam_syslog(c->pamh, LOG_NOTICE,
			   "uid %u: ~/.pfw (sha256 %s) is %s",
			   (unsigned int)c->user.uid, hex,
			   trust_judgement_name(judgement));
		free(confirmed);
		if (keep_previous(c, conf_fd) && ret == -EBADMSG)
			return -EBADMSG;
		tell_once(c, digest, judgement);
		return 0;
	}
	free(confirmed);
	ret = load_blob(c, blob, len, "the policy compiled from ~/.pfw");
	if (ret)
		return ret;
	if (judgement != TRUST_CONFIRMED_SAME) {
		/*
		 * The person has just authenticated: this is what they use.
		 * A policy no looser than the confirmed one replaces it on
		 * record too: a program of the user that later puts the
		 * older, looser text back must not undo the person's own
		 * tightening without their password.
		 */
		ret = confirmed_write(conf_fd, c->user.uid, blob, len);
		if (ret)
			pam_syslog(c->pamh, LOG_ERR,
				   "uid %u: recording the confirmed policy: %s",
				   (unsigned int)c->user.uid, strerror(-ret));
		else
			pam_syslog(
				c->pamh, LOG_INFO,
				"uid %u: policy sha256 %s recorded as confirmed",
				(unsigned int)c->user.uid, hex);
	}
	pending_clear(c);
	return 0;
}

/* Bring the user's policy up to date: a PAM status. */
static int update_policy(struct ctx *const c)
{
	struct pfsel_pam_stamp source, cached;
	enum pfsel_pam_staleness stale;
	void *text = NULL, *blob = NULL;
	size_t len = 0;
	struct stat st, pfw;
	bool have_blob, have_stamp = false;
	int cache_fd, conf_fd, ret;

	cache_fd = store_open_dir(c->opts.cache_dir, 0700);
	if (cache_fd < 0) {
		pam_syslog(c->pamh, LOG_ERR, "%s: %s (it must be root's, 0700)",
			   c->opts.cache_dir, strerror(-cache_fd));
		return failed(c, -1);
	}
	conf_fd = confirmed_open(cache_fd);
	if (conf_fd < 0) {
		pam_syslog(c->pamh, LOG_ERR,
			   "%s/%s: %s (it must be root's, 0700)",
			   c->opts.cache_dir, POLICY_CONFIRMED_DIR,
			   strerror(-conf_fd));
		close(cache_fd);
		return failed(c, -1);
	}

	ret = user_source_stat(&c->user, c->opts.timeout, &pfw);
	if (!ret)
		pfsel_pam_stamp_from_stat(&source, &pfw);
	if (ret == -ENOENT) {
		if (c->opts.missing == PFSEL_PAM_MISSING_KEEP ||
		    have_confirmed(c, conf_fd)) {
			/* A deleted ~/.pfw does not unload what was confirmed. */
			DEBUG(c,
			      "uid %u: no ~/.pfw: keeping the previous policy",
			      (unsigned int)c->user.uid);
			keep_previous(c, conf_fd);
		} else {
			unlinkat(cache_fd, c->stamp_name, 0);
			unlinkat(cache_fd, c->blob_name, 0);
			unload_user(c, "no ~/.pfw");
		}
		close(conf_fd);
		close(cache_fd);
		return PAM_SUCCESS;
	}
	if (ret) {
		pam_syslog(c->pamh, LOG_ERR, "uid %u: %s/%s: %s",
			   (unsigned int)c->user.uid, c->user.home,
			   POLICY_SOURCE,
			   ret == -EPERM ? "could not become the user" :
					   strerror(-ret));
		ret = failed(c, conf_fd);
		close(conf_fd);
		close(cache_fd);
		return ret;
	}

	have_blob = fstatat(cache_fd, c->blob_name, &st, AT_SYMLINK_NOFOLLOW) ==
			    0 &&
		    S_ISREG(st.st_mode);
	if (store_read_at(cache_fd, c->stamp_name, 256, &text, &len) == 0)
		have_stamp = pfsel_pam_stamp_parse(text, &cached) == 0;
	free(text);
	stale = pfsel_pam_staleness(&source, have_blob,
				    have_stamp ? &cached : NULL,
				    c->opts.always);
	DEBUG(c, "uid %u: %s", (unsigned int)c->user.uid,
	      pfsel_pam_staleness_reason(stale));

	if (stale == PFSEL_PAM_FRESH)
		ret = read_cached(c, cache_fd, &blob, &len);
	else
		ret = compile_to_cache(c, cache_fd, &source, &blob, &len);
	if (!ret)
		ret = judge_and_load(c, conf_fd, blob, len);
	free(blob);
	ret = ret ? failed(c, conf_fd) : PAM_SUCCESS;
	close(conf_fd);
	close(cache_fd);
	return ret;
}

/* The user's counter, locked; or a negative errno (logged). */
static int counter_lock(struct ctx *const c)
{
	int dir_fd, fd;

	dir_fd = store_open_dir(c->opts.run_dir, 0755);
	if (dir_fd < 0) {
		pam_syslog(c->pamh, LOG_ERR, "%s: %s (it must be root's)",
			   c->opts.run_dir, strerror(-dir_fd));
		return dir_fd;
	}
	fd = confirmed_lock(dir_fd, c->user.uid);
	close(dir_fd);
	if (fd < 0)
		pam_syslog(c->pamh, LOG_ERR, "%s/%u.sessions: %s",
			   c->opts.run_dir, (unsigned int)c->user.uid,
			   strerror(-fd));
	return fd;
}

PAM_PFSEL_EXPORT int pam_sm_open_session(pam_handle_t *pamh, int flags,
					 int argc, const char **argv)
{
	unsigned long before, after;
	struct ctx c;
	int ret, lock;

	(void)flags;
	ret = ctx_init(&c, pamh, argc, argv);
	if (ret != PAM_SUCCESS) {
		ctx_free(&c);
		return ret;
	}
	lock = counter_lock(&c);
	ret = update_policy(&c);
	if (ret == PAM_SUCCESS && lock >= 0 &&
	    pfsel_pam_counter_add(lock, +1, &before, &after) == 0) {
		DEBUG(&c, "uid %u: %lu session(s) open",
		      (unsigned int)c.user.uid, after);
		pam_set_data(pamh, DATA_COUNTED, (void *)&counted_yes, NULL);
	} else {
		pam_set_data(pamh, DATA_COUNTED, (void *)&counted_no, NULL);
	}
	if (lock >= 0)
		close(lock);
	ctx_free(&c);
	return ret;
}

/* Write the uid to "forget": the user's session answers end. */
static void forget(struct ctx *const c)
{
	int err = pfsel_forget_uid(c->user.uid);

	if (err == -ENOENT)
		DEBUG(c, "%s/forget: no such file (pfsel without forget)",
		      pfsel_securityfs());
	else if (err)
		pam_syslog(c->pamh, LOG_ERR, "%s", pfsel_last_error());
	else
		pam_syslog(
			c->pamh, LOG_INFO,
			"uid %u: last session closed; session answers forgotten",
			(unsigned int)c->user.uid);
}

PAM_PFSEL_EXPORT int pam_sm_close_session(pam_handle_t *pamh, int flags,
					  int argc, const char **argv)
{
	unsigned long before = 0, after = 0;
	const void *counted = NULL;
	struct ctx c;
	int ret, lock;

	(void)flags;
	ret = ctx_init(&c, pamh, argc, argv);
	if (ret != PAM_SUCCESS) {
		ctx_free(&c);
		return ret == PAM_IGNORE ? PAM_IGNORE : PAM_SUCCESS;
	}
	/* An open this module refused (or did not count) is not counted off. */
	if (pam_get_data(pamh, DATA_COUNTED, &counted) == PAM_SUCCESS &&
	    counted == &counted_no) {
		DEBUG(&c, "uid %u: this session was not counted",
		      (unsigned int)c.user.uid);
		ctx_free(&c);
		return PAM_IGNORE;
	}
	lock = counter_lock(&c);
	if (lock >= 0) {
		ret = pfsel_pam_counter_add(lock, -1, &before, &after);
		if (ret == -ERANGE)
			pam_syslog(
				pamh, LOG_NOTICE,
				"uid %u: a session closes, but none was counted open",
				(unsigned int)c.user.uid);
		else if (ret)
			pam_syslog(pamh, LOG_ERR, "uid %u: session counter: %s",
				   (unsigned int)c.user.uid, strerror(-ret));
		else
			DEBUG(&c, "uid %u: %lu session(s) open",
			      (unsigned int)c.user.uid, after);
		/* The policy stays loaded: see pam_pfsel(8), NOTES. */
		if (!ret && before == 1 && after == 0)
			forget(&c);
		close(lock);
	}
	ctx_free(&c);
	return PAM_SUCCESS;
}
