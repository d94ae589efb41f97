// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - "always": a rule in ~/.pfw, compiled and loaded.
 *
 * The agent reads ~/.pfw once, adds the rule to its own copy of the text,
 * and compiles that copy in this process with pfwc's own front and back
 * end (libpfw), under the name ~/.pfw (the rule locations the kernel
 * reports name it); only then does the text replace ~/.pfw, through a
 * temporary file beside it (an atomic rename), and the compiled policy is
 * loaded from memory.
 *
 * The user's programs can write ~/.pfw and the files it includes too, and
 * trace any process of the user's but this one (the agent is not
 * dumpable).  So nothing between the text and the load passes through
 * their hands: no pfwc process to trace, no file to swap.  And what is
 * loaded must be no looser than the policy in force, which the person
 * approved, but for the new rule: the text is parsed once, includes and
 * all, and compiled twice, with the rule and without it; the policy
 * without it must be no looser than the policy in force (trust_judge(),
 * libuserpolicy's one judgement, exact; baseline() says how the agent
 * knows it, and loads nothing when it does not).  The two differ in the one rule, which
 * decides only the requests it matches and that no earlier rule decides,
 * so the policy loaded is looser than the one in force at most where the
 * person's answer says so.  The agent process loads it itself, the one
 * process of the user the kernel lets load the user's policy.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "pfw.h"

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

/* The number of lines before @end in @text (@end's line is that plus 1). */
static unsigned int lines_before(const char *text, const char *end)
{
	unsigned int n = 0;

	for (; text < end; text++)
		n += *text == '\n';
	return n;
}

/* pfw_insert(), and the line (from 1) @line is on in the result. */
static char *insert(const char *text, const char *line, unsigned int *lineno)
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
		*lineno = lines_before(text, text + end) + 1;
		fprintf(f, "%.*s%s\n%s", (int)end, text, line, text + end);
	} else {
		*lineno = 4;
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

char *pfw_insert(const char *text, const char *line)
{
	unsigned int lineno;

	return insert(text, line, &lineno);
}

int pfw_answer_rule(const struct pfsel_question *q, unsigned int verdict,
		    unsigned int width, char *buf, size_t size)
{
	struct pfsel_request req;

	pfsel_request_from_question(q, &req);
	return rule_text_format(&req, verdict, width, NULL, 0, buf, size);
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

/*
 * Replaces @path with @len bytes of @data, mode @mode, through a temporary
 * file in the same folder (an atomic rename): 0, or -errno and @err.
 */
static int write_atomic(const char *path, const void *data, size_t len,
			mode_t mode, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	int fd, rc = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.pfsel-agent.XXXXXX", path) >=
	    (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "mkostemp(%s): %s", tmp, strerror(errno));
		return rc;
	}
	if (fchmod(fd, mode) || write(fd, data, len) != (ssize_t)len ||
	    fsync(fd)) {
		rc = -errno;
		snprintf(err, errlen, "write(%s): %s", tmp, strerror(errno));
	}
	if (close(fd) && !rc) {
		rc = -errno;
		snprintf(err, errlen, "close(%s): %s", tmp, strerror(errno));
	}
	if (!rc && rename(tmp, path)) {
		rc = -errno;
		snprintf(err, errlen, "rename(%s, %s): %s", tmp, path,
			 strerror(errno));
	}
	if (rc)
		unlink(tmp);
	return rc;
}

/* Moves @buf (@len bytes, malloc()ed) into @out. */
static void keep(struct policy_blob *out, void *buf, size_t len)
{
	free(out->blob);
	out->blob = buf;
	out->len = len;
}

/*
 * Compiles @text, named @c->pfw, in this process (compile_here()), as
 * pfwc would compile ~/.pfw for the caller's uid, into @with; with
 * @line, also without the rule that starts on that line, into @without.
 */
static int compile_text(const struct pfw_config *c, const char *text,
			unsigned int line, struct policy_blob *with,
			struct policy_blob *without, char *err, size_t errlen)
{
	const struct compile_source src = {
		.name = c->pfw,
		.text = text,
		.uid = getuid(),
		.services = c->services,
		.program = "pfsel-agent",
	};

	return compile_here(&src, with, line, without, err, errlen);
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
 * the agent itself loaded last), or when @text, the source as the agent
 * read it, compiles to that very policy (a restarted agent: the rules its
 * predecessor added are in force and in ~/.pfw).  Identity is SHA-256,
 * which a program that writes ~/.pfw cannot match with a policy of its
 * choosing, so those bytes are the policy in force however they were
 * made.
 *
 * Return: the baseline, or NULL with -errno in @rc and @err: nothing in
 * force and nothing confirmed, or a policy in force the agent does not
 * know (loaded at another login since it started, say).  Either way the
 * agent cannot tell what the person approved, and loads nothing.
 */
static const struct policy_blob *baseline(const struct pfw_config *c,
					  const char *text, int *rc, char *err,
					  size_t errlen)
{
	struct policy_blob *const known = c->confirmed;
	struct policy_blob now = { 0 };
	struct pfsel_policy_info info;
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
	if (ret == 1 && known &&
	    !compile_text(c, text, 0, &now, NULL, err, errlen)) {
		if (blob_is(now.blob, now.len, info.digest)) {
			keep(known, now.blob, now.len);
			return known;
		}
		free(now.blob);
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
 * May @without, the source compiled without the new rule, be loaded with
 * the rule: is it no looser than the policy in force (baseline(), of
 * @text as read), as trust_judge() judges a login's?  0 when it may,
 * -EPERM with the reason or the looser rules in @err when it is not or
 * cannot be known, another negative errno when it cannot be told.
 */
static int judge(const struct pfw_config *c, const char *text,
		 const struct policy_blob *without, char *err, size_t errlen)
{
	const struct policy_blob *base;
	struct trust_report report = { .max = 5 };
	char *cells = NULL;
	size_t cells_len = 0;
	int rc;

	base = baseline(c, text, &rc, err, errlen);
	if (!base)
		return rc;
	report.out = open_memstream(&cells, &cells_len);
	if (!report.out) {
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		return -ENOMEM;
	}
	switch (trust_judge(base->blob, base->len, without->blob, without->len,
			    getuid(), NULL, &report)) {
	case TRUST_CONFIRMED_SAME:
	case TRUST_NO_LOOSER:
		rc = 0;
		break;
	case TRUST_LOOSER:
		fclose(report.out);
		report.out = NULL;
		snprintf(
			err, errlen,
			"%s holds rules looser than the policy in force, which the agent does not load (the answer holds for the session; to put %s in force, confirm it as root: pfsel confirm):\n%s",
			c->pfw, c->pfw, cells ? cells : "");
		rc = -EPERM;
		break;
	default:
		snprintf(err, errlen,
			 "comparing %s with the policy in force: %s", c->pfw,
			 policy_last_error());
		rc = report.error ? report.error : -EINVAL;
		break;
	}
	if (report.out)
		fclose(report.out);
	free(cells);
	return rc;
}

int pfw_add_rule(const struct pfw_config *c, const char *line, char *err,
		 size_t errlen)
{
	struct policy_blob with = { 0 }, without = { 0 };
	char *text = NULL, *updated = NULL;
	unsigned int lineno = 0;
	struct stat st;
	mode_t mode = 0600;
	int rc;

	rc = read_all(c->pfw, &text, err, errlen);
	if (rc)
		return rc;
	if (!stat(c->pfw, &st))
		mode = st.st_mode & 07777;
	updated = insert(text, line, &lineno);
	if (!updated) {
		free(text);
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	/* Is the new text a policy?  Only then does it replace the old. */
	rc = compile_text(c, updated, c->load ? lineno : 0, &with,
			  c->load ? &without : NULL, err, errlen);
	if (!rc && c->load)
		rc = judge(c, text, &without, err, errlen);
	if (!rc)
		rc = write_atomic(c->pfw, updated, strlen(updated), mode, err,
				  errlen);
	/* What is loaded, for the person to see (pfwc -o writes it so). */
	if (!rc && c->out)
		rc = write_atomic(c->out, with.blob, with.len, 0644, err,
				  errlen);
	if (!rc && c->load) {
		/* By this process: the kernel's agent channel for the user. */
		rc = pfsel_load_buffer(with.blob, with.len);
		if (rc)
			snprintf(err, errlen, "%s", pfsel_last_error());
		else if (c->confirmed) {
			keep(c->confirmed, with.blob, with.len);
			with.blob = NULL;
		}
	}
	free(with.blob);
	free(without.blob);
	free(updated);
	free(text);
	return rc;
}
