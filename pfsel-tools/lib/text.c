// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - names of the interface's values, addresses and questions as
 * text.  Names are those of the policy language (policy/LANGUAGE.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const op_names[] = {
	[PFSEL_OP_CREATE] = "create",	[PFSEL_OP_BIND] = "bind",
	[PFSEL_OP_CONNECT] = "connect", [PFSEL_OP_LISTEN] = "listen",
	[PFSEL_OP_ACCEPT] = "accept",
};

static const char *const proto_names[] = {
	[PFSEL_PROTO_TCP] = "tcp",	 [PFSEL_PROTO_UDP] = "udp",
	[PFSEL_PROTO_ICMP] = "icmp",	 [PFSEL_PROTO_RAW] = "raw",
	[PFSEL_PROTO_PACKET] = "packet",
};

static const char *const family_names[] = {
	[PFSEL_FAMILY_INET] = "inet",
	[PFSEL_FAMILY_INET6] = "inet6",
};

static const char *const answer_names[] = {
	[PFSEL_ANSWER_ALLOW] = "allow",
	[PFSEL_ANSWER_DENY] = "deny",
};

static const char *const scope_names[] = {
	[PFSEL_SCOPE_ONCE] = "once",
	[PFSEL_SCOPE_PROCESS] = "process",
	[PFSEL_SCOPE_SESSION] = "session",
	[PFSEL_SCOPE_ALWAYS] = "always",
};

static const char *const policy_names[] = { "system", "user" };

static const char *name_of(const char *const *names, const size_t n,
			   const unsigned int v)
{
	return v < n && names[v] ? names[v] : "?";
}

static int value_of(const char *const *names, const size_t n,
		    const char *const name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -EINVAL;
}

PFSEL_EXPORT const char *pfsel_op_name(const unsigned int op)
{
	return name_of(op_names, ARRAY_SIZE(op_names), op);
}

PFSEL_EXPORT const char *pfsel_proto_name(const unsigned int proto)
{
	return name_of(proto_names, ARRAY_SIZE(proto_names), proto);
}

PFSEL_EXPORT const char *pfsel_family_name(const unsigned int family)
{
	if (family == PFSEL_FAMILY_PACKET)
		return "packet";
	return name_of(family_names, ARRAY_SIZE(family_names), family);
}

PFSEL_EXPORT const char *pfsel_answer_name(const unsigned int verdict)
{
	return name_of(answer_names, ARRAY_SIZE(answer_names), verdict);
}

PFSEL_EXPORT const char *pfsel_scope_name(const unsigned int scope)
{
	return name_of(scope_names, ARRAY_SIZE(scope_names), scope);
}

PFSEL_EXPORT const char *pfsel_policy_name(const unsigned int policy)
{
	return name_of(policy_names, ARRAY_SIZE(policy_names), policy);
}

PFSEL_EXPORT int pfsel_op_from_name(const char *const name)
{
	return value_of(op_names, ARRAY_SIZE(op_names), name);
}

PFSEL_EXPORT int pfsel_proto_from_name(const char *const name)
{
	return value_of(proto_names, ARRAY_SIZE(proto_names), name);
}

PFSEL_EXPORT int pfsel_answer_from_name(const char *const name)
{
	if (name && !strcmp(name, "a"))
		return PFSEL_ANSWER_ALLOW;
	if (name && !strcmp(name, "d"))
		return PFSEL_ANSWER_DENY;
	return value_of(answer_names, ARRAY_SIZE(answer_names), name);
}

PFSEL_EXPORT int pfsel_scope_from_name(const char *const name)
{
	size_t i;

	if (name && name[0] && !name[1])
		for (i = 0; i < ARRAY_SIZE(scope_names); i++)
			if (scope_names[i][0] == name[0])
				return (int)i;
	return value_of(scope_names, ARRAY_SIZE(scope_names), name);
}

static bool is_v4_mapped(const uint8_t a[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0,    0,
					    0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(a, prefix, sizeof(prefix));
}

PFSEL_EXPORT int pfsel_format_addr(const uint8_t addr[16], char *const buf,
				   const size_t size)
{
	char tmp[INET6_ADDRSTRLEN];

	if (is_v4_mapped(addr))
		inet_ntop(AF_INET, addr + 12, tmp, sizeof(tmp));
	else
		inet_ntop(AF_INET6, addr, tmp, sizeof(tmp));
	if (strlen(tmp) >= size) {
		if (size)
			buf[0] = '\0';
		return -ENOSPC;
	}
	strcpy(buf, tmp);
	return 0;
}

PFSEL_EXPORT int pfsel_parse_addr(const char *const text, uint8_t addr[16])
{
	uint8_t v4[4];

	if (inet_pton(AF_INET, text, v4) == 1) {
		memset(addr, 0, 10);
		addr[10] = 0xff;
		addr[11] = 0xff;
		memcpy(addr + 12, v4, 4);
		return 0;
	}
	if (inet_pton(AF_INET6, text, addr) == 1)
		return 0;
	return -EINVAL;
}

/* snprintf() into a buffer, remembering whether anything was cut. */
struct out {
	char *buf;
	size_t size;
	size_t len;
	bool cut;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *const o,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->cut)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->cut = true;
		o->len = o->size - 1;
		return;
	}
	o->len += (size_t)n;
}

static void put_endpoint(struct out *const o, const uint8_t addr[16],
			 const uint16_t port, const bool has_port)
{
	char text[PFSEL_ADDR_STRLEN];
	bool v6 = !is_v4_mapped(addr);

	pfsel_format_addr(addr, text, sizeof(text));
	if (!has_port)
		put(o, "%s", text);
	else if (v6)
		put(o, "[%s]:%u", text, port);
	else
		put(o, "%s:%u", text, port);
}

PFSEL_EXPORT int pfsel_question_format(const struct pfsel_question *const q,
				       char *const buf, const size_t size)
{
	struct out o = { buf, size, 0, false };
	bool has_port = q->proto == PFSEL_PROTO_TCP ||
			q->proto == PFSEL_PROTO_UDP;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	put(&o, "%s", q->exe[0] ? q->exe : "?");
	if (q->script[0])
		put(&o, " script %s", q->script);
	put(&o, " (%s, pid %u) %s %s", q->comm[0] ? q->comm : "?", q->tgid,
	    pfsel_op_name(q->op), pfsel_proto_name(q->proto));
	switch (q->op) {
	case PFSEL_OP_CREATE:
		if (q->family != PFSEL_FAMILY_PACKET)
			put(&o, " family %s", pfsel_family_name(q->family));
		break;
	case PFSEL_OP_CONNECT:
		put(&o, " to ");
		put_endpoint(&o, q->raddr, q->rport, has_port);
		break;
	case PFSEL_OP_ACCEPT:
		put(&o, " from ");
		put_endpoint(&o, q->raddr, 0, false);
		put(&o, " on port %u", q->rport);
		break;
	default: /* bind, listen: the local endpoint asked for */
		put(&o, " on ");
		put_endpoint(&o, q->raddr, q->rport, has_port);
		break;
	}
	put(&o, ", %s policy", pfsel_policy_name(q->policy));
	if (q->rule_line)
		put(&o, " rule %s:%u:%u", q->rule_file[0] ? q->rule_file : "?",
		    q->rule_line, q->rule_col);
	else
		put(&o, " default");
	put(&o, ", timeout %u.%us", q->timeout_ms / 1000,
	    q->timeout_ms % 1000 / 100);
	return o.cut ? -ENOSPC : (int)o.len;
}
