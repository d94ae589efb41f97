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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"

extern char **environ;

/* Writes @path as a .pfw word: quoted when it holds anything odd. */
static int put_path(char *buf, size_t size, const char *path)
{
	const char *p;
	size_t len = 0;
	bool quote = false;

	for (p = path; *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr(";,#\"=\\", *p))
			quote = true;
	if (!quote)
		return snprintf(buf, size, "%s", path);
#define PUT(c)                          \
	do {                            \
		if (len + 1 < size)     \
			buf[len] = (c); \
		len++;                  \
	} while (0)
	PUT('"');
	for (p = path; *p; p++) {
		if (*p == '"' || *p == '\\')
			PUT('\\');
		PUT(*p);
	}
	PUT('"');
#undef PUT
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return (int)len;
}

int pfw_rule_for(const struct pfsel_question *q, unsigned int verdict,
		 char *buf, size_t size)
{
	char exe[2 * PFSEL_QUESTION_PATH_MAX + 2],
		script[2 * PFSEL_QUESTION_PATH_MAX + 2];
	char addr[PFSEL_ADDR_STRLEN];
	char where[PFSEL_ADDR_STRLEN + 32] = "";
	bool has_port = q->proto == PFSEL_PROTO_TCP ||
			q->proto == PFSEL_PROTO_UDP;
	int n;

	if (q->exe[0] != '/' || (q->script[0] && q->script[0] != '/'))
		return -EINVAL; /* an unnamed application: no rule names it */
	if (verdict > PFSEL_ANSWER_DENY || q->op >= PFSEL_OP_COUNT ||
	    q->proto >= PFSEL_PROTO_COUNT)
		return -EINVAL;
	put_path(exe, sizeof(exe), q->exe);
	script[0] = '\0';
	if (q->script[0])
		put_path(script, sizeof(script), q->script);

	if (q->op == PFSEL_OP_CREATE) {
		if (q->proto != PFSEL_PROTO_PACKET)
			snprintf(where, sizeof(where), " family %s",
				 pfsel_family_name(q->family));
	} else {
		pfsel_format_addr(q->raddr, addr, sizeof(addr));
		if (has_port)
			snprintf(where, sizeof(where), " %s %s port %u",
				 q->op == PFSEL_OP_CONNECT ? "to" :
				 q->op == PFSEL_OP_ACCEPT  ? "from" :
							     "on",
				 addr, q->rport);
		else
			snprintf(where, sizeof(where), " %s %s",
				 q->op == PFSEL_OP_CONNECT ? "to" : "on", addr);
	}
	n = snprintf(buf, size, "%s %s%s%s %s %s%s;",
		     pfsel_answer_name(verdict), exe,
		     script[0] ? " script " : "", script, pfsel_op_name(q->op),
		     pfsel_proto_name(q->proto), where);
	if (n < 0 || (size_t)n >= size)
		return -ENOSPC;
	return n;
}

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
			snprintf(err, errlen,
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

int pfw_add_rule(const struct pfw_config *c, const char *line, char *err,
		 size_t errlen)
{
	char tmp[PATH_MAX], tmp_out[PATH_MAX];
	char *text = NULL, *updated = NULL;
	struct stat st;
	mode_t mode = 0600;
	size_t len;
	int fd = -1, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.pfsel-agent.XXXXXX", c->pfw) >=
		    (int)sizeof(tmp) ||
	    snprintf(tmp_out, sizeof(tmp_out), "%s.check", tmp) >=
		    (int)sizeof(tmp_out)) {
		snprintf(err, errlen, "%s: %s", c->pfw, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	rc = read_all(c->pfw, &text, err, errlen);
	if (rc)
		return rc;
	if (!stat(c->pfw, &st))
		mode = st.st_mode & 07777;
	updated = pfw_insert(text ? text : "", line);
	free(text);
	if (!updated) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "mkostemp(%s): %s", tmp, strerror(errno));
		goto out;
	}
	/* tmp_out follows the name mkostemp chose (its last six bytes). */
	memcpy(tmp_out + strlen(tmp) - 6, tmp + strlen(tmp) - 6, 6);
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
	if (c->load) {
		rc = pfsel_load_file(c->out);
		if (rc)
			snprintf(err, errlen, "%s", pfsel_last_error());
	}
	goto out;

out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(updated);
	return rc;
}
