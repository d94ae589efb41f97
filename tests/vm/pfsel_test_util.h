/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - shared helpers
 */

#ifndef PFSEL_TEST_UTIL_H
#define PFSEL_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PFSEL_SECURITYFS "/sys/kernel/security/pfsel"

/*
 * Calls of one hook so far, from /sys/kernel/security/pfsel/hooks, or -1
 * when the file or the hook's line is missing.
 */
static inline int64_t pfsel_hook_calls(const char *hook)
{
	char name[64];
	unsigned long long calls;
	int64_t found = -1;
	FILE *file = fopen(PFSEL_SECURITYFS "/hooks", "re");

	if (!file)
		return -1;
	while (fscanf(file, "%63s %llu", name, &calls) == 2) {
		if (strcmp(name, hook) == 0) {
			found = (int64_t)calls;
			break;
		}
	}
	fclose(file);
	return found;
}

/* Whether the comma-separated list @list holds @item. */
static inline bool pfsel_list_has(const char *list, const char *item)
{
	size_t len = strlen(item);
	const char *p = list;

	while (p && *p) {
		if (strncmp(p, item, len) == 0 &&
		    (p[len] == ',' || p[len] == '\0' || p[len] == '\n'))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

#endif /* PFSEL_TEST_UTIL_H */
