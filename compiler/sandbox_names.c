// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - applications by sandbox identity: "flatpak ID" and "snap NAME"
 * (sandbox_names.h), their check, their pattern, and the way back.
 *
 * The checks are Flatpak's and snapd's own rules, so that every ID
 * "flatpak install" takes, and no other, is one here: Flatpak's
 * flatpak_is_valid_name() (reverse DNS: at least three elements separated
 * by '.', each of letters, digits and '_', not starting with a digit,
 * '-' in the last element only, at most 255 characters) and snapd's
 * naming.ValidateInstance() (2 to 40 of lower-case letters, digits and
 * '-', at least one letter, no '-' first, last or twice in a row; and
 * for a parallel installation "_" and a key of 1 to 10 lower-case letters
 * and digits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_names.h"

static const struct {
	const char *keyword, *label, *dir;
} kinds[] = {
	[PFW_SANDBOX_FLATPAK] = { "flatpak", "Flatpak", PFW_FLATPAK_APP_DIR },
	[PFW_SANDBOX_SNAP] = { "snap", "Snap", PFW_SNAP_DIR },
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const char *pfw_sandbox_keyword(const enum pfw_sandbox kind)
{
	return kind > PFW_SANDBOX_NONE && kind < N_KINDS ? kinds[kind].keyword :
							   NULL;
}

const char *pfw_sandbox_label(const enum pfw_sandbox kind)
{
	return kind > PFW_SANDBOX_NONE && kind < N_KINDS ? kinds[kind].label :
							   NULL;
}

static bool is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}

static bool is_letter(int c)
{
	return is_lower(c) || (c >= 'A' && c <= 'Z');
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* "'c'" for a printable byte, else "byte 0xNN", into @buf. */
static const char *describe_byte(int c, char *buf, size_t size)
{
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", (unsigned int)c);
	return buf;
}

static const char *check_flatpak(const char *id, size_t *bad, char *buf,
				 size_t size)
{
	const size_t len = strlen(id);
	const char *last_dot = strrchr(id, '.');
	const size_t last_from = last_dot ? (size_t)(last_dot - id) + 1 : 0;
	unsigned int dots = 0;
	char what[16];

	if (len > PFW_FLATPAK_ID_MAX) {
		*bad = PFW_FLATPAK_ID_MAX;
		return "a Flatpak application ID is at most 255 characters";
	}
	for (size_t i = 0; i < len; i++) {
		const int c = (unsigned char)id[i];
		const bool first = i == 0 || id[i - 1] == '.';

		*bad = i;
		if (c == '.') {
			if (first)
				return "an element of a Flatpak application ID is not empty: no '.' first or two in a row";
			if (i + 1 == len)
				return "a Flatpak application ID does not end with '.'";
			dots++;
			continue;
		}
		if (c == '-' && i < last_from)
			return "only the last element of a Flatpak application ID may hold '-'";
		if (first && is_digit(c))
			return "an element of a Flatpak application ID does not start with a digit";
		if (!is_letter(c) && !is_digit(c) && c != '_' && c != '-') {
			snprintf(
				buf, size,
				"%s is not in a Flatpak application ID: it holds letters, digits, '_', and '-' in its last element",
				describe_byte(c, what, sizeof(what)));
			return buf;
		}
	}
	if (dots < 2) {
		*bad = 0;
		return "a Flatpak application ID is a reverse DNS name of three elements or more, such as 'org.mozilla.firefox'";
	}
	return NULL;
}

/* snapd's name check on @name[0..len), for snap names and their part. */
static const char *check_snap_name(const char *name, size_t len, size_t *bad,
				   char *buf, size_t size)
{
	bool letter = false;
	char what[16];

	if (len < 2 || len > PFW_SNAP_NAME_MAX) {
		*bad = len > PFW_SNAP_NAME_MAX ? PFW_SNAP_NAME_MAX : 0;
		return "a snap name is 2 to 40 characters";
	}
	for (size_t i = 0; i < len; i++) {
		const int c = (unsigned char)name[i];

		*bad = i;
		if (c == '-') {
			if (i == 0 || i + 1 == len)
				return "a snap name does not start or end with '-'";
			if (name[i - 1] == '-')
				return "a snap name does not hold '--'";
			continue;
		}
		if (!is_lower(c) && !is_digit(c)) {
			snprintf(
				buf, size,
				"%s is not in a snap name: it holds lower-case letters, digits and '-'",
				describe_byte(c, what, sizeof(what)));
			return buf;
		}
		letter |= is_lower(c);
	}
	if (!letter) {
		*bad = 0;
		return "a snap name holds at least one letter";
	}
	return NULL;
}

static const char *check_snap(const char *id, size_t *bad, char *buf,
			      size_t size)
{
	const char *under = strchr(id, '_');
	const size_t name_len = under ? (size_t)(under - id) : strlen(id);
	const char *problem = check_snap_name(id, name_len, bad, buf, size);
	size_t key_len;

	if (problem || !under)
		return problem;
	/* A parallel installation: NAME_KEY (snap install NAME_KEY). */
	key_len = strlen(under + 1);
	for (size_t i = 0; i < key_len; i++) {
		const int c = (unsigned char)under[1 + i];

		if (!is_lower(c) && !is_digit(c)) {
			*bad = name_len + 1 + i;
			return "a snap's instance key (after '_') holds lower-case letters and digits";
		}
	}
	if (key_len < 1 || key_len > 10) {
		*bad = name_len + (key_len ? 11 : 0);
		return "a snap's instance key (after '_') is 1 to 10 characters";
	}
	return NULL;
}

const char *pfw_sandbox_check(const enum pfw_sandbox kind, const char *id,
			      size_t *bad, char *buf, const size_t size)
{
	*bad = 0;
	switch (kind) {
	case PFW_SANDBOX_FLATPAK:
		return check_flatpak(id, bad, buf, size);
	case PFW_SANDBOX_SNAP:
		return check_snap(id, bad, buf, size);
	default:
		return "not a kind of sandbox";
	}
}

void pfw_sandbox_pattern(const enum pfw_sandbox kind, const char *id,
			 struct pfw_path_pattern *pattern)
{
	const size_t len = strlen(kinds[kind].dir) + 1 + strlen(id) + 1;

	pattern->kind = PFW_PATH_TREE;
	pattern->path = pfw_xrealloc(NULL, len);
	snprintf(pattern->path, len, "%s/%s", kinds[kind].dir, id);
}

/*
 * The kind whose folder @path begins with, followed by '/', with *@id
 * pointing after that '/'; NONE otherwise.
 */
static enum pfw_sandbox kind_of(const char *path, const char **id)
{
	for (size_t k = PFW_SANDBOX_NONE + 1; k < N_KINDS; k++) {
		const size_t n = strlen(kinds[k].dir);

		if (!strncmp(path, kinds[k].dir, n) && path[n] == '/') {
			*id = path + n + 1;
			return (enum pfw_sandbox)k;
		}
	}
	return PFW_SANDBOX_NONE;
}

static bool valid(const enum pfw_sandbox kind, const char *id)
{
	char buf[160];
	size_t bad;

	return !pfw_sandbox_check(kind, id, &bad, buf, sizeof(buf));
}

enum pfw_sandbox pfw_sandbox_of_pattern(const struct pfw_path_pattern *pattern,
					const char **id)
{
	enum pfw_sandbox kind;

	if (pattern->kind != PFW_PATH_TREE)
		return PFW_SANDBOX_NONE;
	kind = kind_of(pattern->path, id);
	if (kind == PFW_SANDBOX_NONE || strchr(*id, '/') || !valid(kind, *id))
		return PFW_SANDBOX_NONE;
	return kind;
}

enum pfw_sandbox pfw_sandbox_of_path(const char *path, char *id,
				     const size_t size)
{
	const char *start, *end;
	enum pfw_sandbox kind = kind_of(path, &start);

	if (size)
		id[0] = '\0';
	if (kind == PFW_SANDBOX_NONE)
		return kind;
	/* Below the identity's folder: '/' and something after it. */
	end = strchr(start, '/');
	if (!end || !end[1] || (size_t)(end - start) >= size)
		return PFW_SANDBOX_NONE;
	memcpy(id, start, (size_t)(end - start));
	id[end - start] = '\0';
	if (!valid(kind, id)) {
		id[0] = '\0';
		return PFW_SANDBOX_NONE;
	}
	return kind;
}
