// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - reading the named-service vocabulary, and where it is
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lexer.h"
#include "parser.h"
#include "services.h"

/* The longest line field we look at; longer ones are errors. */
#define FIELD_MAX 64

static bool is_service_name(const char *word)
{
	if (!((word[0] >= 'a' && word[0] <= 'z') ||
	      (word[0] >= 'A' && word[0] <= 'Z') || word[0] == '_'))
		return false;
	for (const char *c = word; *c; c++) {
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			return false;
	}
	for (int kw = 1; kw < PFW_KW_COUNT; kw++)
		if (strcmp(word, pfw_keyword_names[kw]) == 0)
			return false;
	return true;
}

/* Split one line into at most @max fields; returns how many. */
static size_t split_fields(const char *line, size_t len,
			   char fields[][FIELD_MAX + 1], uint32_t *cols,
			   size_t max, bool *too_long)
{
	size_t n = 0, pos = 0;

	*too_long = false;
	while (pos < len && n < max) {
		size_t start;

		while (pos < len && (line[pos] == ' ' || line[pos] == '\t' ||
				     line[pos] == '\r'))
			pos++;
		if (pos >= len || line[pos] == '#')
			break;
		start = pos;
		while (pos < len && line[pos] != ' ' && line[pos] != '\t' &&
		       line[pos] != '\r' && line[pos] != '#')
			pos++;
		if (pos - start > FIELD_MAX) {
			*too_long = true;
			return n;
		}
		memcpy(fields[n], line + start, pos - start);
		fields[n][pos - start] = '\0';
		cols[n] = (uint32_t)start + 1;
		n++;
	}
	return n;
}

static void add_entry(struct pfw_services *services, const char *name,
		      uint16_t port, uint32_t proto, const struct pfw_loc *loc)
{
	struct pfw_service *entry = pfw_push((void **)&services->entries,
					     &services->n_entries,
					     sizeof(*entry));

	entry->name = pfw_xstrdup(name);
	entry->port = port;
	entry->protos = proto;
	entry->loc = *loc;
}

/* Parse "PORT/PROTO"; returns 0 for a protocol pfsel does not know. */
static uint32_t parse_port_proto(const char *field, uint16_t *port, bool *bad)
{
	char *end;
	unsigned long number;

	*bad = true;
	if (field[0] < '0' || field[0] > '9')
		return 0;
	number = strtoul(field, &end, 10);
	if (*end != '/' || number > 65535 || end - field > 5)
		return 0;
	*bad = false;
	*port = (uint16_t)number;
	if (strcmp(end + 1, "tcp") == 0)
		return PFW_PROTO_TCP;
	if (strcmp(end + 1, "udp") == 0)
		return PFW_PROTO_UDP;
	return 0; /* sctp, ddp...: not ours, skipped quietly */
}

static int compare_entries(const void *a, const void *b)
{
	const struct pfw_service *x = a, *y = b;
	int by_name = strcmp(x->name, y->name);

	if (by_name)
		return by_name;
	return (x->loc.line > y->loc.line) - (x->loc.line < y->loc.line);
}

struct pfw_services *pfw_services_parse(const char *name, const char *text,
					size_t len, struct pfw_diag *diag)
{
	struct pfw_services *services = pfw_xrealloc(NULL, sizeof(*services));
	size_t pos = 0;
	uint32_t line_no = 0;

	memset(services, 0, sizeof(*services));
	services->file = pfw_xstrdup(name);
	while (pos < len) {
		const char *line = text + pos;
		const char *newline = memchr(line, '\n', len - pos);
		size_t line_len = newline ? (size_t)(newline - line) :
					    len - pos;
		char fields[8][FIELD_MAX + 1];
		uint32_t cols[8];
		struct pfw_loc loc = { services->file, ++line_no, 1 };
		bool too_long, bad_port;
		uint32_t proto;
		uint16_t port;
		size_t n;

		pos += line_len + 1;
		n = split_fields(line, line_len, fields, cols, 8, &too_long);
		if (too_long) {
			pfw_error(diag, &loc,
				  "a field is longer than %d characters",
				  FIELD_MAX);
			continue;
		}
		if (n == 0)
			continue;
		if (n < 2) {
			pfw_error(diag, &loc,
				  "expected 'NAME PORT/PROTOCOL [ALIAS...]'");
			continue;
		}
		loc.col = cols[1];
		proto = parse_port_proto(fields[1], &port, &bad_port);
		if (bad_port) {
			pfw_error(diag, &loc,
				  "expected PORT/PROTOCOL, such as 22/tcp");
			continue;
		}
		if (!proto)
			continue;
		for (size_t i = 0; i < n; i++) {
			if (i == 1)
				continue;
			loc.col = cols[i];
			if (!is_service_name(fields[i])) {
				pfw_error(
					diag, &loc,
					"'%s' cannot be a service name; a name starts with a letter and is not a keyword",
					fields[i]);
				continue;
			}
			add_entry(services, fields[i], port, proto, &loc);
		}
	}
	if (services->n_entries)
		qsort(services->entries, services->n_entries,
		      sizeof(*services->entries), compare_entries);
	return services;
}

struct pfw_services *pfw_services_load(const char *path, struct pfw_diag *diag)
{
	struct pfw_services *services;
	size_t len;
	char *text = pfw_read_source(path, &len);

	if (!text) {
		pfw_error(diag, NULL, "cannot read services file '%s': %s",
			  path, strerror(errno));
		return NULL;
	}
	services = pfw_services_parse(path, text, len, diag);
	pfw_diag_adopt_source(diag, services->file, text, len);
	return services;
}

void pfw_services_free(struct pfw_services *services)
{
	if (!services)
		return;
	for (size_t i = 0; i < services->n_entries; i++)
		free(services->entries[i].name);
	free(services->entries);
	free(services->file);
	free(services);
}

size_t pfw_services_find(const struct pfw_services *services, const char *name,
			 const struct pfw_service **first)
{
	size_t low = 0, high, count = 0;

	*first = NULL;
	if (!services || !services->n_entries)
		return 0;
	high = services->n_entries;

	/* Lower bound of @name in the sorted entries. */
	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (strcmp(services->entries[mid].name, name) < 0)
			low = mid + 1;
		else
			high = mid;
	}
	*first = services->entries + low;
	while (low + count < services->n_entries &&
	       strcmp(services->entries[low + count].name, name) == 0)
		count++;
	return count;
}

const char *pfw_services_default_path(char *buf, size_t size)
{
	const char *env = getenv("PFWC_SERVICES");
	ssize_t len;
	char *slash;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", buf, size - 1);
	if (len > 0 && (size_t)len < size - sizeof(PFWC_SERVICES_RELATIVE)) {
		buf[len] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash, PFWC_SERVICES_RELATIVE);
			if (access(buf, F_OK) == 0)
				return buf;
		}
	}
	return PFWC_SERVICES_PATH;
}
