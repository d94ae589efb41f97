// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - "always": a rule in ~/.pfw, compiled and loaded.
 *
 * The new text goes to a temporary file beside ~/.pfw (same folder, so
 * that relative includes resolve the same and the rename is atomic), pfwc
 * checks it, and only then does it replace ~/.pfw.  pfwc then compiles
 * ~/.pfw itself, so that the rule locations the kernel reports name
 * ~/.pfw and not the temporary file, and the result is loaded.
 *
 * The user's programs can write ~/.pfw too.  So the text as the agent
 * read it, before the new rule, must be no looser than the policy in
 * force, which the person approved (pfsel_compare(), exact; baseline()
 * says how the agent knows it, and loads nothing when it does not), and
 * what is loaded must be what the agent compiled from that text with the
 * rule; the agent process loads it itself, the one process of the user
 * the kernel lets load the user's policy.
 *
 * The rules go in a section of their own at the top of the file: the
 * first matching rule decides, and the question was asked by a later rule
 * (or the default), so the new rule must come before it.  Since every rule
 * above the one that asked failed to match this very request, putting the
 * new rule first changes the decision of this request only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"

extern char **environ;

/* The offset just past the line starting with @marker, or -1. */
static long find_line(const char *text, const char *marker)
{
	size_t mlen = strlen(marker);
	const char *p = text;

	while (*p) {
		if (!strncmp(p, marker, mlen) &&
		    (p[mlen] == '\n' || p[mlen] == '\0'))
			return p - text;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return -1;
}

char *pfw_insert(const char *text, const char *line)
{
	long begin = find_line(text, PFW_SECTION_BEGIN);
	long end = begin < 0 ? -1 : find_line(text + begin, PFW_SECTION_END);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	if (end >= 0) {
		end += begin;
		fprintf(f, "%.*s%s\n%s", (int)end, text, line, text + end);
	} else {
		fprintf(f,
			"# Rules pfsel-agent added for answers \"always\".  They come\n"
			"# first: the first matching rule decides.\n" PFW_SECTION_BEGIN
			"\n%s\n" PFW_SECTION_END "\n\n%s",
			line, text);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

char *pfw_default_output(const char *pfw)
{
	const char *base = strrchr(pfw, '/');
	size_t len = strlen(pfw);
	char *out;

	base = base ? base + 1 : pfw;
	/* "x.pfw" -> "x.pfsel"; ".pfw" has no stem and keeps its name. */
	if (len >= 4 && !strcmp(pfw + len - 4, ".pfw") && strlen(base) > 4)
		len -= 4;
	out = malloc(len + sizeof(".pfsel"));
	if (out)
		sprintf(out, "%.*s.pfsel", (int)len, pfw);
	return out;
}

/*
 * Runs "PFWC -o OUT SRC", with its standard error (and output) collected
 * into @err.  Returns 0 when pfwc exits 0, -EINVAL when it rejects the
 * policy (exit 1), another negative errno when it cannot run.
 */
static int run_pfwc(const char *pfwc, const char *out, const char *src,
		    char *err, size_t errlen)
{
	char *argv[] = { (char *)pfwc, "-o", (char *)out, (char *)src, NULL };
	posix_spawn_file_actions_t fa;
	size_t len = 0;
	int pipefd[2], status, rc;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe2: %s", strerror(errno));
		return -errno;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	rc = strchr(pfwc, '/') ?
		     posix_spawn(&pid, pfwc, &fa, NULL, argv, environ) :
		     posix_spawnp(&pid, pfwc, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc) {
		close(pipefd[0]);
		snprintf(err, errlen, "posix_spawn(%s): %s", pfwc,
			 strerror(rc));
		return -rc;
	}
	if (errlen)
		err[0] = '\0';
	for (;;) {
		char chunk[512];

		n = read(pipefd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (errlen && len + 1 < errlen) {
			size_t take = (size_t)n < errlen - 1 - len ?
					      (size_t)n :
					      errlen - 1 - len;
			memcpy(err + len, chunk, take);
			len += take;
			err[len] = '\0';
		}
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid(%s): %s", pfwc,
				 strerror(errno));
			return -errno;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* Keep pfwc's own words; strip the last newline. */
	if (len && err[len - 1] == '\n')
		err[len - 1] = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		return -EINVAL;
	if (!len)
		snprintf(err, errlen, "%s: %s %d", pfwc,
			 WIFEXITED(status) ? "exit status" : "killed by signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) :
					     WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : -EIO;
}

/* Reads @path whole; a missing file is the empty text. */
static int read_all(const char *path, char **text, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re"), *mem;
	int open_errno = errno;
	size_t len = 0;
	int c;

	*text = NULL;
	mem = open_memstream(text, &len);
	if (!mem) {
		if (f)
			fclose(f);
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		return -ENOMEM;
	}
	if (!f) {
		/*
		 * A missing source is not an empty policy: compiling and
		 * loading the one new rule alone would replace whatever policy
		 * the user has loaded.
		 */
		if (open_errno == ENOENT)
			snprintf(
				err, errlen,
				"open(%s): %s: the answer holds for the session only",
				path, strerror(open_errno));
		else
			snprintf(err, errlen, "open(%s): %s", path,
				 strerror(open_errno));
		fclose(mem);
		free(*text);
		*text = NULL;
		return -open_errno;
	}
	while ((c = getc(f)) != EOF)
		putc(c, mem);
	c = ferror(f) ? errno : 0;
	fclose(f);
	fclose(mem);
	if (c) {
		snprintf(err, errlen, "read(%s): %s", path, strerror(c));
		free(*text);
		*text = NULL;
		return -c;
	}
	return 0;
}

/* Reads the compiled policy @path whole: 0, or a negative errno and @err. */
static int read_blob(const char *path, void **blob, size_t *len, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	int rc;

	*blob = NULL;
	*len = 0;
	if (!f || fstat(fileno(f), &st)) {
		rc = -errno;
		snprintf(err, errlen, "open(%s): %s", path, strerror(errno));
		if (f)
			fclose(f);
		return rc;
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uintmax_t)st.st_size > PFSEL_POLICY_MAX_SIZE) {
		snprintf(err, errlen, "%s: not a compiled policy", path);
		fclose(f);
		return -EINVAL;
	}
	*blob = malloc((size_t)st.st_size);
	if (!*blob ||
	    fread(*blob, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		snprintf(err, errlen, "read(%s): %s", path,
			 *blob ? "short read" : strerror(ENOMEM));
		free(*blob);
		*blob = NULL;
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*len = (size_t)st.st_size;
	return 0;
}

/*
 * Creates a temporary file beside @c->pfw (relative includes resolve the
 * same, and a rename is atomic), @tmp, and names @tmp_out, where pfwc is
 * to write its policy.  The file's descriptor, or a negative errno and
 * @err.
 */
static int make_temp(const struct pfw_config *c, char tmp[PATH_MAX],
		     char tmp_out[PATH_MAX], char *err, size_t errlen)
{
	int fd;

	if (snprintf(tmp, PATH_MAX, "%s.pfsel-agent.XXXXXX", c->pfw) >=
		    PATH_MAX ||
	    snprintf(tmp_out, PATH_MAX, "%s.check", tmp) >= PATH_MAX) {
		snprintf(err, errlen, "%s: %s", c->pfw, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		snprintf(err, errlen, "mkostemp(%s): %s", tmp, strerror(errno));
		return fd;
	}
	/* tmp_out follows the name mkostemp chose (its last six bytes). */
	memcpy(tmp_out + strlen(tmp) - 6, tmp + strlen(tmp) - 6, 6);
	return fd;
}

/* Compiles @text, as a temporary file, into @blob: 0, or -errno and @err. */
static int compile_text(const struct pfw_config *c, const char *text,
			void **blob, size_t *len, char *err, size_t errlen)
{
	char tmp[PATH_MAX], tmp_out[PATH_MAX];
	size_t n = strlen(text);
	int fd, rc;

	fd = make_temp(c, tmp, tmp_out, err, errlen);
	if (fd < 0)
		return fd;
	if (fchmod(fd, 0600) || write(fd, text, n) != (ssize_t)n) {
		rc = -errno;
		snprintf(err, errlen, "write(%s): %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return rc;
	}
	close(fd);
	rc = run_pfwc(c->pfwc, tmp_out, tmp, err, errlen);
	unlink(tmp);
	if (!rc)
		rc = read_blob(tmp_out, blob, len, err, errlen);
	unlink(tmp_out);
	return rc;
}

/*
 * Compiles @c->pfw itself (the name its rule locations give, as loaded)
 * into @blob: 0, or -errno and @err.
 */
static int compile_source(const struct pfw_config *c, void **blob, size_t *len,
			  char *err, size_t errlen)
{
	char tmp[PATH_MAX], tmp_out[PATH_MAX];
	int fd, rc;

	fd = make_temp(c, tmp, tmp_out, err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	rc = run_pfwc(c->pfwc, tmp_out, c->pfw, err, errlen);
	if (!rc)
		rc = read_blob(tmp_out, blob, len, err, errlen);
	unlink(tmp_out);
	return rc;
}

/* Whether @blob (@len bytes) is the policy whose SHA-256 is @digest. */
static bool blob_is(const void *blob, size_t len,
		    const uint8_t digest[PFSEL_DIGEST_SIZE])
{
	uint8_t own[PFSEL_DIGEST_SIZE];

	return blob && !pfsel_policy_digest(blob, len, own) &&
	       !memcmp(own, digest, sizeof(own));
}

/*
 * What the source before the new rule is judged against: the policy in
 * force for the user, as bytes the agent holds.  The kernel lets only the
 * root side and this agent load it, so it is what the person approved:
 * at a login (pam_pfsel records what it loads as the confirmed policy),
 * with `pfsel confirm`, or by an earlier "always".  The agent knows its
 * bytes when they are @c->confirmed's (what pam_pfsel recorded, or what
 * the agent itself loaded last), or when ~/.pfw compiled now is that very
 * policy (a restarted agent: the rules its predecessor added are in
 * force and in ~/.pfw); those bytes are then what the source the agent
 * read is compared with, whatever ~/.pfw holds by then.  Identity is
 * SHA-256, which a program that writes ~/.pfw cannot match with a policy
 * of its choosing.
 *
 * Return: the baseline, or NULL with -errno in @rc and @err: nothing in
 * force and nothing confirmed, or a policy in force the agent does not
 * know (loaded at another login since it started, say).  Either way the
 * agent cannot tell what the person approved, and loads nothing.
 */
static const struct pfw_confirmed *baseline(const struct pfw_config *c,
					    int *rc, char *err, size_t errlen)
{
	struct pfw_confirmed *const known = c->confirmed;
	struct pfsel_policy_info info;
	void *now;
	size_t len;
	int ret;

	*rc = 0;
	ret = pfsel_get_policy_info(false, getuid(), &info);
	if (ret < 0) {
		snprintf(err, errlen, "the policy in force: %s",
			 pfsel_last_error());
		*rc = ret;
		return NULL;
	}
	if (ret == 1 && known && blob_is(known->blob, known->len, info.digest))
		return known;
	if (ret == 0 && known && known->blob)
		return known;
	if (ret == 1 && known && !compile_source(c, &now, &len, err, errlen)) {
		if (blob_is(now, len, info.digest)) {
			free(known->blob);
			known->blob = now;
			known->len = len;
			return known;
		}
		free(now);
	}
	snprintf(
		err, errlen,
		ret == 1 ?
			"%s is not the policy in force, and the agent does not know the one that is (a login or the administrator loaded it since the agent started): it loads nothing, the answer holds for the session; your next login loads %s if it is no looser than the policy you confirmed" :
			"no policy of yours is in force or confirmed: the agent loads nothing, the answer holds for the session; your next login loads and confirms %s",
		c->pfw, c->pfw);
	*rc = -EPERM;
	return NULL;
}

/*
 * Is @text, the source before the new rule, no looser than the policy in
 * force (baseline())?  0 when it is, -EPERM with the reason or the looser
 * rules in @err when it is not or cannot be known, another negative errno
 * when it cannot be told.
 */
static int judge_source(const struct pfw_config *c, const char *text, char *err,
			size_t errlen)
{
	const struct pfw_confirmed *base;
	char *report = NULL;
	size_t report_len = 0, len;
	FILE *mem;
	void *blob;
	int rc;

	base = baseline(c, &rc, err, errlen);
	if (!base)
		return rc;
	rc = compile_text(c, text, &blob, &len, err, errlen);
	if (rc)
		return rc;
	mem = open_memstream(&report, &report_len);
	if (!mem) {
		free(blob);
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		return -ENOMEM;
	}
	rc = pfsel_compare(base->blob, base->len, blob, len, mem, 5);
	fclose(mem);
	free(blob);
	if (rc == 1) {
		snprintf(
			err, errlen,
			"%s holds rules looser than the policy in force, which the agent does not load (the answer holds for the session; to put %s in force, confirm it as root: pfsel confirm):\n%s",
			c->pfw, c->pfw, report ? report : "");
		rc = -EPERM;
	} else if (rc < 0) {
		snprintf(err, errlen,
			 "comparing %s with the policy in force: %s", c->pfw,
			 pfsel_last_error());
	}
	free(report);
	return rc;
}

/*
 * Loads @c->out, which must be what @want (the agent's own text, compiled)
 * is, class by class: 0, or a negative errno and @err.  On success the
 * loaded policy becomes @c->confirmed's.
 */
static int load_checked(const struct pfw_config *c, const void *want,
			size_t want_len, char *err, size_t errlen)
{
	void *blob;
	size_t len;
	int rc;

	rc = read_blob(c->out, &blob, &len, err, errlen);
	if (rc)
		return rc;
	if (pfsel_compare(want, want_len, blob, len, NULL, 0) != 0 ||
	    pfsel_compare(blob, len, want, want_len, NULL, 0) != 0) {
		snprintf(
			err, errlen,
			"%s (or %s) changed while the agent compiled it: not loaded, the answer holds for the session",
			c->pfw, c->out);
		free(blob);
		return -EAGAIN;
	}
	/* By this process: the kernel's agent channel for the user. */
	rc = pfsel_load_buffer(blob, len);
	if (rc) {
		snprintf(err, errlen, "%s", pfsel_last_error());
		free(blob);
		return rc;
	}
	if (c->confirmed) {
		free(c->confirmed->blob);
		c->confirmed->blob = blob;
		c->confirmed->len = len;
	} else {
		free(blob);
	}
	return 0;
}

int pfw_add_rule(const struct pfw_config *c, const char *line, char *err,
		 size_t errlen)
{
	char tmp[PATH_MAX], tmp_out[PATH_MAX];
	char *text = NULL, *updated = NULL;
	void *want = NULL;
	size_t want_len = 0;
	struct stat st;
	mode_t mode = 0600;
	size_t len;
	int fd = -1, rc;

	rc = read_all(c->pfw, &text, err, errlen);
	if (rc)
		return rc;
	/* The rest of the source must be what the person confirmed. */
	if (c->load) {
		rc = judge_source(c, text ? text : "", err, errlen);
		if (rc) {
			free(text);
			return rc;
		}
	}
	if (!stat(c->pfw, &st))
		mode = st.st_mode & 07777;
	updated = pfw_insert(text ? text : "", line);
	free(text);
	if (!updated) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}

	fd = make_temp(c, tmp, tmp_out, err, errlen);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	len = strlen(updated);
	if (fchmod(fd, mode) || write(fd, updated, len) != (ssize_t)len ||
	    fsync(fd)) {
		rc = -errno;
		snprintf(err, errlen, "write(%s): %s", tmp, strerror(errno));
		goto out_unlink;
	}
	if (close(fd)) {
		fd = -1;
		rc = -errno;
		snprintf(err, errlen, "close(%s): %s", tmp, strerror(errno));
		goto out_unlink;
	}
	fd = -1;

	/* Is the new text a policy?  Only then does it replace the old. */
	rc = run_pfwc(c->pfwc, tmp_out, tmp, err, errlen);
	if (!rc && c->load)
		rc = read_blob(tmp_out, &want, &want_len, err, errlen);
	unlink(tmp_out);
	if (rc)
		goto out_unlink;
	if (rename(tmp, c->pfw)) {
		rc = -errno;
		snprintf(err, errlen, "rename(%s, %s): %s", tmp, c->pfw,
			 strerror(errno));
		goto out_unlink;
	}

	rc = run_pfwc(c->pfwc, c->out, c->pfw, err, errlen);
	if (rc)
		goto out;
	if (c->load)
		rc = load_checked(c, want, want_len, err, errlen);
	goto out;

out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(want);
	free(updated);
	return rc;
}
