// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the "rules" decision source: a rule file (--rules), read
 * once at start, with the services file its service names come from; the
 * syntax is .pfw's (rules.c, pfsel-agent(1)).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent.h"
#include "services.h"

static int rules_post(struct agent_source *const src,
		      const struct pfsel_question *const q,
		      const long long deadline_ms,
		      struct agent_decision *const d)
{
	(void)deadline_ms;
	return agent_rules_match(src->priv, q, d, NULL) ? AGENT_DECIDED :
							  AGENT_PASSED;
}

static void rules_destroy(struct agent_source *const src)
{
	agent_rules_free(src->priv);
	free(src);
}

/* Reads a whole text file; NULL and @err on failure. */
static char *read_text(const char *const path, char *const err,
		       const size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (!f) {
		snprintf(err, errlen, "open(%s): %s", path, strerror(errno));
		return NULL;
	}
	mem = open_memstream(&text, &len);
	if (!mem) {
		snprintf(err, errlen, "open_memstream: %s", strerror(errno));
		fclose(f);
		return NULL;
	}
	while ((c = getc(f)) != EOF)
		putc(c, mem);
	if (ferror(f)) {
		snprintf(err, errlen, "read(%s): %s", path, strerror(errno));
		fclose(f);
		fclose(mem);
		free(text);
		return NULL;
	}
	fclose(f);
	fclose(mem);
	return text;
}

/*
 * Is @st something only root can change?  Owned by root, and writable by
 * no group or other user; a folder that others may write is still safe
 * when sticky (/tmp): nobody else can rename or remove root's entries.
 */
static bool root_only(const struct stat *const st, const bool dir)
{
	if (st->st_uid != 0)
		return false;
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return true;
	return dir && (st->st_mode & S_ISVTX);
}

char *source_rules_trusted_path(const char *const path, char *const err,
				const size_t errlen)
{
	char *real = realpath(path, NULL), *slash, *copy = NULL;
	struct stat st;

	if (!real) {
		snprintf(err, errlen, "realpath(%s): %s", path,
			 strerror(errno));
		return NULL;
	}
	copy = strdup(real);
	if (!copy) {
		snprintf(err, errlen, "strdup: %s", strerror(ENOMEM));
		goto fail;
	}
	if (stat(real, &st)) {
		snprintf(err, errlen, "stat(%s): %s", real, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || !root_only(&st, false)) {
		snprintf(
			err, errlen,
			"%s: %s: it decides this agent's answers, so only root may be able to change it (owner uid %u, mode %04o; want owner root and no group or other write: chown root: and chmod go-w)",
			path,
			S_ISREG(st.st_mode) ? "refused" : "not a regular file",
			(unsigned int)st.st_uid,
			(unsigned int)(st.st_mode & 07777));
		goto fail;
	}
	/* Each folder above it: whoever may rename entries there could have
	 * put another file in its place. */
	while ((slash = strrchr(real, '/'))) {
		slash[slash == real ? 1 : 0] = '\0';
		if (stat(real, &st)) {
			snprintf(err, errlen, "stat(%s): %s", real,
				 strerror(errno));
			goto fail;
		}
		if (!root_only(&st, true)) {
			snprintf(
				err, errlen,
				"%s: refused: its folder %s may be changed by others than root (owner uid %u, mode %04o), who could replace the file",
				path, real, (unsigned int)st.st_uid,
				(unsigned int)(st.st_mode & 07777));
			goto fail;
		}
		if (!strcmp(real, "/"))
			break;
	}
	free(real);
	return copy;
fail:
	free(real);
	free(copy);
	return NULL;
}

char *source_rules_services(const bool trusted, char *const err,
			    const size_t errlen)
{
	char buf[PATH_MAX];
	const char *path = pfw_services_default_path(buf, sizeof(buf));
	char *copy;

	err[0] = '\0';
	/* pfwc's way: a missing vocabulary leaves service names unknown. */
	if (access(path, F_OK))
		return NULL;
	if (trusted)
		return source_rules_trusted_path(path, err, errlen);
	copy = strdup(path);
	if (!copy)
		snprintf(err, errlen, "strdup: %s", strerror(ENOMEM));
	return copy;
}

struct agent_source *source_rules_new(const char *const path,
				      const char *const services,
				      FILE *const messages, char *const err,
				      const size_t errlen)
{
	struct agent_source *src;
	struct agent_rules *rules;
	char *text = read_text(path, err, errlen);

	if (!text)
		return NULL;
	rules = agent_rules_parse(path, text, services, messages, err, errlen);
	free(text);
	if (!rules)
		return NULL;
	src = calloc(1, sizeof(*src));
	if (!src) {
		snprintf(err, errlen, "calloc: %s", strerror(ENOMEM));
		agent_rules_free(rules);
		return NULL;
	}
	src->name = "rules";
	src->post = rules_post;
	src->destroy = rules_destroy;
	src->priv = rules;
	return src;
}
