// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - the "check" transaction file (docs/kernel-interface.md, "The
 * check file"): a request written as "KEY VALUE" lines, the kernel's
 * decision read back on the same open file.
 *
 * The request is checked here as the kernel would check it, so that a
 * caller gets a message saying what is wrong instead of a bare EINVAL;
 * the answer is parsed strictly, as every securityfs file is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static bool absolute_path(const char *const path)
{
	return path[0] == '/' && !strchr(path, '\n');
}

PFSEL_EXPORT int
pfsel_check_request_format(const struct pfsel_check_request *const req,
			   char *const buf, const size_t size)
{
	const bool create = req->op == PFSEL_OP_CREATE;
	const bool ported = req->proto == PFSEL_PROTO_TCP ||
			    req->proto == PFSEL_PROTO_UDP;
	char addr[PFSEL_ADDR_STRLEN];
	size_t len = 0;
	int n;

	if (req->op >= PFSEL_OP_COUNT)
		return pfsel_fail(-EINVAL, "pfsel_check: %u is not an operation",
				  req->op);
	if (req->proto >= PFSEL_PROTO_COUNT)
		return pfsel_fail(-EINVAL, "pfsel_check: %u is not a protocol",
				  req->proto);
	if ((req->exe && !absolute_path(req->exe)) ||
	    (req->script && !absolute_path(req->script)))
		return pfsel_fail(-EINVAL, "'%s' is not an absolute path",
				  req->exe && !absolute_path(req->exe) ?
					  req->exe :
					  req->script);
	if (req->script && !req->exe)
		return pfsel_fail(-EINVAL,
				  "a script needs its interpreter (exe)");
	if (create && req->family != PFSEL_FAMILY_INET &&
	    req->family != PFSEL_FAMILY_INET6 &&
	    (req->proto != PFSEL_PROTO_PACKET ||
	     req->family != PFSEL_FAMILY_PACKET))
		return pfsel_fail(-EINVAL,
				  "pfsel_check: create %s needs the family "
				  "inet or inet6",
				  pfsel_proto_name(req->proto));
	if (!create && req->proto == PFSEL_PROTO_PACKET)
		return pfsel_fail(-EINVAL,
				  "packet sockets are decided at create only");

#define ADD(...)                                                         \
	do {                                                             \
		const size_t room = size > len ? size - len : 0;         \
		n = snprintf(room ? buf + len : NULL, room, __VA_ARGS__); \
		if (n < 0 || (size_t)n >= room)                          \
			return pfsel_fail(-ENOSPC,                       \
					  "pfsel_check: the request is " \
					  "longer than %zu bytes",       \
					  size);                         \
		len += (size_t)n;                                        \
	} while (0)

	if (req->has_uid)
		ADD("uid %u\n", (unsigned int)req->uid);
	if (req->exe)
		ADD("exe %s\n", req->exe);
	if (req->script)
		ADD("script %s\n", req->script);
	ADD("op %s\nproto %s\n", pfsel_op_name(req->op),
	    pfsel_proto_name(req->proto));
	if (create) {
		if (req->family != PFSEL_FAMILY_PACKET)
			ADD("family %s\n", pfsel_family_name(req->family));
	} else {
		pfsel_format_addr(req->addr, addr, sizeof(addr));
		ADD("addr %s\n", addr);
		if (ported)
			ADD("port %u\n", (unsigned int)req->port);
	}
#undef ADD
	pfsel_clear_error();
	return (int)len;
}

static int verdict_of(const char *const word)
{
	unsigned int v;

	for (v = 0; v < PFSEL_VERDICT_COUNT; v++)
		if (!strcmp(word, pfsel_verdict_name(v)))
			return (int)v;
	return -EINVAL;
}

/* Splits "FILE:LINE:COL" (FILE may hold colons) into @d. */
static bool parse_rule(char *const rule, struct pfsel_check_decision *const d)
{
	char *col = strrchr(rule, ':'), *line;
	uint64_t l, c;

	if (!col)
		return false;
	*col++ = '\0';
	line = strrchr(rule, ':');
	if (!line)
		return false;
	*line++ = '\0';
	if (!pfsel_parse_u64(line, 10, UINT32_MAX, &l) || l == 0 ||
	    !pfsel_parse_u64(col, 10, UINT32_MAX, &c) || !rule[0] ||
	    strlen(rule) >= sizeof(d->rule_file))
		return false;
	strcpy(d->rule_file, rule);
	d->rule_line = (uint32_t)l;
	d->rule_col = (uint32_t)c;
	return true;
}

/* "none", "VERDICT default" or "VERDICT FILE:LINE:COL". */
static const char *parse_decision(char *const text,
				  struct pfsel_check_decision *const d)
{
	char *rule;
	int v;

	if (!strcmp(text, "none"))
		return NULL;
	rule = strchr(text, ' ');
	if (!rule)
		return "expected 'none' or a verdict and a rule";
	*rule++ = '\0';
	v = verdict_of(text);
	if (v < 0)
		return "bad verdict";
	d->loaded = true;
	d->verdict = (unsigned int)v;
	if (!strcmp(rule, "default"))
		return NULL;
	return parse_rule(rule, d) ? NULL : "bad rule (FILE:LINE:COL)";
}

static int parse_answer(char *const text, struct pfsel_check_answer *const ans)
{
	enum { VERDICT = 1, SYSTEM = 2, USER = 4 };
	char *cursor = text, *line, *value;
	unsigned int lineno = 0, seen = 0, bit;
	const char *why;
	int v;

	while ((line = pfsel_next_line(&cursor))) {
		lineno++;
		value = strchr(line, ' ');
		if (!value)
			return pfsel_malformed("check", lineno,
					       "expected 'key value'");
		*value++ = '\0';
		if (!strcmp(line, "verdict"))
			bit = VERDICT;
		else if (!strcmp(line, pfsel_policy_name(PFSEL_SLOT_SYSTEM)))
			bit = SYSTEM;
		else if (!strcmp(line, pfsel_policy_name(PFSEL_SLOT_USER)))
			bit = USER;
		else
			continue; /* a newer kernel's line */
		if (seen & bit)
			return pfsel_malformed("check", lineno, "a line twice");
		seen |= bit;
		if (bit == VERDICT) {
			v = verdict_of(value);
			if (v < 0)
				return pfsel_malformed("check", lineno,
						       "bad verdict");
			ans->verdict = (unsigned int)v;
			continue;
		}
		why = parse_decision(value, bit == SYSTEM ? &ans->system :
							    &ans->user);
		if (why)
			return pfsel_malformed("check", lineno, why);
	}
	if (seen != (VERDICT | SYSTEM | USER))
		return pfsel_malformed("check", lineno + 1,
				       !(seen & VERDICT) ? "no verdict line" :
				       !(seen & SYSTEM)	 ? "no system line" :
							   "no user line");
	return 0;
}

PFSEL_EXPORT int pfsel_check_answer_parse(const char *const text,
					  struct pfsel_check_answer *const ans)
{
	char *copy;
	int err;

	memset(ans, 0, sizeof(*ans));
	copy = strdup(text);
	if (!copy)
		return pfsel_fail(-ENOMEM, "strdup: %s", strerror(ENOMEM));
	err = parse_answer(copy, ans);
	free(copy);
	if (err)
		memset(ans, 0, sizeof(*ans));
	else
		pfsel_clear_error();
	return err;
}

PFSEL_EXPORT int pfsel_check(const struct pfsel_check_request *const req,
			     struct pfsel_check_answer *const ans)
{
	char *request, *answer;
	size_t size;
	int len, err;

	memset(ans, 0, sizeof(*ans));
	size = 256 + (req->exe ? strlen(req->exe) : 0) +
	       (req->script ? strlen(req->script) : 0);
	request = malloc(size);
	if (!request)
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	len = pfsel_check_request_format(req, request, size);
	if (len < 0) {
		free(request);
		return len;
	}
	err = pfsel_sfs_transact("check", request, (size_t)len, &answer);
	free(request);
	if (err)
		return err;
	err = pfsel_check_answer_parse(answer, ans);
	free(answer);
	return err;
}
