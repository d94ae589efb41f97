// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - names of the interface's values, addresses and questions as
 * text.  Names are those of the policy language (policy/LANGUAGE.md).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The tables of <linux/pfsel_names.h>, each entry's value checked: the
 * library spells no name itself.
 */
static const char *const op_names[] = {
#define PFSEL_OP(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_OP
};

static const char *const proto_names[] = {
#define PFSEL_PROTO(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_PROTO
};

static const char *const family_names[] = {
#define PFSEL_FAMILY(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_FAMILY
};

static const char *const answer_names[] = {
#define PFSEL_ANSWER(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_ANSWER
};

static const char *const scope_names[] = {
#define PFSEL_SCOPE(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_SCOPE
};

static const char *const policy_names[] = {
#define PFSEL_SLOT(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_SLOT
};

static const char *const mode_names[] = {
#define PFSEL_MODE(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_MODE
};

static const char *const verdict_names[] = {
#define PFSEL_VERDICT(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_VERDICT
};

static const char *const refusal_names[] = {
#define PFSEL_REFUSAL(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include <linux/pfsel_names.h>
#undef PFSEL_REFUSAL
};

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
	/* A packet socket has no family: it is named as its protocol. */
	if (family == PFSEL_FAMILY_PACKET)
		return proto_names[PFSEL_PROTO_PACKET];
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

PFSEL_EXPORT const char *pfsel_mode_name(const unsigned int mode)
{
	return name_of(mode_names, ARRAY_SIZE(mode_names), mode);
}

PFSEL_EXPORT int pfsel_mode_from_name(const char *const name)
{
	return value_of(mode_names, ARRAY_SIZE(mode_names), name);
}

PFSEL_EXPORT const char *pfsel_verdict_name(const unsigned int verdict)
{
	return name_of(verdict_names, ARRAY_SIZE(verdict_names), verdict);
}

PFSEL_EXPORT const char *pfsel_refusal_name(const unsigned int refusal)
{
	return name_of(refusal_names, ARRAY_SIZE(refusal_names), refusal);
}

PFSEL_EXPORT int pfsel_refusal_from_name(const char *const name)
{
	return value_of(refusal_names, ARRAY_SIZE(refusal_names), name);
}

PFSEL_EXPORT int pfsel_op_from_name(const char *const name)
{
	return value_of(op_names, ARRAY_SIZE(op_names), name);
}

PFSEL_EXPORT int pfsel_proto_from_name(const char *const name)
{
	return value_of(proto_names, ARRAY_SIZE(proto_names), name);
}

PFSEL_EXPORT int pfsel_family_from_name(const char *const name)
{
	if (name && !strcmp(name, proto_names[PFSEL_PROTO_PACKET]))
		return PFSEL_FAMILY_PACKET;
	return value_of(family_names, ARRAY_SIZE(family_names), name);
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

/*
 * Length of the UTF-8 sequence at @s that may be shown as it is: a valid,
 * shortest-form sequence of 2 to 4 bytes for a code point that is neither
 * a C1 control (U+0080-U+009F: U+009B is a CSI to some terminals) nor a
 * character that changes how the text around it is shown (bidirectional
 * overrides and isolates, zero-width and line/paragraph separators,
 * U+FEFF).  0 for anything else.
 */
static size_t utf8_shown(const unsigned char *s)
{
	uint32_t c;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0; /* overlong, surrogate, out of range */
	if (c <= 0x9f || c == 0x061c || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069) ||
	    c == 0xfeff)
		return 0;
	return n;
}

/* A byte of a plain path word: written bare in a .pfw file and a prompt. */
static bool plain_byte(const unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("/._-+@~%:", c));
}

PFSEL_EXPORT int pfsel_escape(const char *const text, char *const buf,
			      const size_t size, const unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)text;
	const bool quote_flag = flags & PFSEL_ESCAPE_QUOTE;
	const bool controls = flags & PFSEL_ESCAPE_CONTROLS;
	bool quote = false, cut = false;
	size_t len = 0, out = 0, i, n;
	char esc[8];

	if ((flags & ~(PFSEL_ESCAPE_QUOTE | PFSEL_ESCAPE_CONTROLS)) ||
	    (quote_flag && controls) || !text || (size && !buf))
		return -EINVAL;
	if (quote_flag) {
		quote = !s[0];
		for (i = 0; s[i] && !quote; i++)
			quote = !plain_byte(s[i]);
	}
	/* Appends @n bytes whole or not at all, and then nothing more. */
#define PUT(p, n)                                    \
	do {                                         \
		if (!cut && out + (n) < size) {      \
			memcpy(buf + out, (p), (n)); \
			out += (n);                  \
		} else {                             \
			cut = true;                  \
		}                                    \
		len += (n);                          \
		if (len > INT_MAX)                   \
			return -EOVERFLOW;           \
	} while (0)
	if (quote)
		PUT("\"", 1);
	while (*s) {
		n = *s >= 0x80 ? utf8_shown(s) : 0;
		if (n) {
			PUT(s, n);
			s += n;
			continue;
		}
		if (*s == '\\' && !controls)
			PUT("\\\\", 2);
		else if (*s == '"' && quote)
			PUT("\\\"", 2);
		else if (*s == '*' && quote)
			PUT("\\x2a", 4); /* no quoted word looks like a glob */
		else if (*s == 0x1b)
			PUT("\\e", 2);
		else if (*s == '\n')
			PUT("\\n", 2);
		else if (*s == '\t')
			PUT("\\t", 2);
		else if (*s == '\r')
			PUT("\\r", 2);
		else if (*s < 0x20 || *s >= 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", *s);
			PUT(esc, 4);
		} else {
			PUT(s, 1);
		}
		s++;
	}
	if (quote)
		PUT("\"", 1);
#undef PUT
	if (size)
		buf[out] = '\0';
	return (int)len;
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

/* @prefix, then @text as pfsel_escape(PFSEL_ESCAPE_QUOTE) writes it. */
static void put_escaped(struct out *const o, const char *const prefix,
			const char *const text)
{
	char esc[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)];

	put(o, "%s", prefix);
	if (!strcmp(text, "?")) { /* unnamed, not a name */
		put(o, "?");
		return;
	}
	if (pfsel_escape(text, esc, sizeof(esc), PFSEL_ESCAPE_QUOTE) >=
	    (int)sizeof(esc))
		o->cut = true; /* cannot happen for a question's strings */
	put(o, "%s", esc);
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

/*
 * The request's endpoint, and the names the kernel knows for it: the
 * first (newest) name, then the endpoint in parentheses with the other
 * names ("www.example.org (93.184.216.34:443, also example.org)"); the
 * endpoint alone when it knows none.  Each name is escaped like the other
 * strings: the DNS server chose it.
 */
static void put_named_endpoint(struct out *const o,
			       const struct pfsel_question *const q,
			       const uint16_t port, const bool has_port)
{
	char name[PFSEL_HOST_NAME_MAX + 1];
	const char *at, *end;
	size_t len, n = 0;

	if (!q->hosts[0]) {
		put_endpoint(o, q->raddr, port, has_port);
		return;
	}
	for (at = q->hosts; *at; at = *end ? end + 1 : end, n++) {
		end = strchrnul(at, ',');
		len = (size_t)(end - at);
		if (len >= sizeof(name))
			len = sizeof(name) - 1; /* not from the kernel */
		memcpy(name, at, len);
		name[len] = '\0';
		if (n == 0) {
			put_escaped(o, "", name);
			put(o, " (");
			put_endpoint(o, q->raddr, port, has_port);
		} else {
			put_escaped(o, n == 1 ? ", also " : ", ", name);
		}
	}
	put(o, ")");
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
	put_escaped(&o, "", q->exe[0] ? q->exe : "?");
	if (q->script[0])
		put_escaped(&o, " script ", q->script);
	put_escaped(&o, " (", q->comm[0] ? q->comm : "?");
	put(&o, ", pid %u", q->tgid);
	if (q->secctx[0])
		put_escaped(&o, ", context ", q->secctx);
	put(&o, ") %s %s", pfsel_op_name(q->op), pfsel_proto_name(q->proto));
	switch (q->op) {
	case PFSEL_OP_CREATE:
		if (q->family != PFSEL_FAMILY_PACKET)
			put(&o, " family %s", pfsel_family_name(q->family));
		break;
	case PFSEL_OP_CONNECT:
		put(&o, " to ");
		put_named_endpoint(&o, q, q->rport, has_port);
		break;
	case PFSEL_OP_ACCEPT:
		put(&o, " from ");
		put_named_endpoint(&o, q, 0, false);
		put(&o, " on port %u", q->rport);
		break;
	default: /* bind, listen: the local endpoint asked for */
		put(&o, " on ");
		put_named_endpoint(&o, q, q->rport, has_port);
		break;
	}
	put(&o, ", %s policy", pfsel_policy_name(q->policy));
	if (q->rule_line) {
		put_escaped(&o, " rule ", q->rule_file[0] ? q->rule_file : "?");
		put(&o, ":%u:%u", q->rule_line, q->rule_col);
	} else
		put(&o, " default");
	put(&o, ", timeout %u.%us", q->timeout_ms / 1000,
	    q->timeout_ms % 1000 / 100);
	if (q->present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED))
		put(&o, ", then %s", pfsel_answer_name(q->unanswered));
	return o.cut ? -ENOSPC : (int)o.len;
}

PFSEL_EXPORT int pfsel_hosts_check(const char *const hosts)
{
	size_t len = 0, names = 0, name_len = 0;
	const char *p;

	if (!hosts || !hosts[0])
		return -EINVAL;
	for (p = hosts; *p; p++, len++) {
		if (len + 1 >= PFSEL_HOSTS_TEXT_MAX)
			return -ENAMETOOLONG;
		if (*p == ',') {
			/* ",a", "a,,b" and "a," have an empty name. */
			if (!name_len)
				return -EINVAL;
			name_len = 0;
			continue;
		}
		/* Printable ASCII but the blank: names are words in logs. */
		if (*p <= ' ' || *p > '~')
			return -EINVAL;
		if (!name_len && ++names > PFSEL_HOSTS_PER_ADDR)
			return -EINVAL;
		if (++name_len > PFSEL_HOST_NAME_MAX)
			return -ENAMETOOLONG;
	}
	return name_len ? 0 : -EINVAL;
}

/*
 * Whether the policy language writes @name (@len bytes) as "host NAME"
 * and reads it back as this name (policy/LANGUAGE.md, "Host names"):
 * labels of 1 to 63 letters, digits, '-' and '_', neither starting nor
 * ending with '-', at most PFSEL_HOST_NAME_MAX characters.  No '*' (a
 * pattern there), no final dot.
 */
static bool rule_writable_name(const char *const name, const size_t len)
{
	size_t i, label = 0;
	char c;

	if (!len || len > PFSEL_HOST_NAME_MAX)
		return false;
	for (i = 0; i <= len; i++) {
		c = i < len ? name[i] : '.';
		if (c == '.') {
			if (!label || label > 63 || name[i - 1] == '-')
				return false;
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' ||
		      (c == '-' && label)))
			return false;
		label++;
	}
	return true;
}

PFSEL_EXPORT int pfsel_hosts_rule_name(const char *const hosts, char *const buf,
				       const size_t size)
{
	const char *at, *end;
	size_t len, i;

	if (size)
		buf[0] = '\0';
	for (at = hosts; at && *at; at = *end ? end + 1 : end) {
		end = strchrnul(at, ',');
		len = (size_t)(end - at);
		if (!rule_writable_name(at, len))
			continue;
		if (len >= size)
			return -ENOSPC;
		/* The kernel sends names in lower case, as pfwc keeps them. */
		for (i = 0; i < len; i++)
			buf[i] = (char)(at[i] >= 'A' && at[i] <= 'Z' ?
						at[i] - 'A' + 'a' :
						at[i]);
		buf[len] = '\0';
		return (int)len;
	}
	return -ENOENT;
}
