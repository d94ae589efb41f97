// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - an AUDIT_PFSEL_ACCESS record decoded, as security/pfsel/
 * audit.c writes it (docs/kernel-interface.md, "Audit"): its text split
 * into NAME=VALUE fields, each checked, and the request it decided picked
 * from the socket's two ends, once, for every reader (pfsel log,
 * audit2pfw, the desktop prompt's monitor); or what a refusal that no
 * rule decided refused (refused=), and on what.  Reading the audit
 * daemon's logs is auditlog.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int hexval(const int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Decode @len bytes of an untrusted string ("..." or HEX) into @out. */
static int decode_n(const char *const value, const size_t len, char *const out,
		    const size_t size)
{
	size_t i, n;

	if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
		if (len - 2 >= size)
			return -ENAMETOOLONG;
		memcpy(out, value + 1, len - 2);
		out[len - 2] = '\0';
		return 0;
	}
	if (len == 0 || len % 2)
		return -EBADMSG;
	n = len / 2;
	if (n >= size)
		return -ENAMETOOLONG;
	for (i = 0; i < n; i++) {
		const int hi = hexval((unsigned char)value[2 * i]);
		const int lo = hexval((unsigned char)value[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EBADMSG;
		out[i] = (char)(hi << 4 | lo);
		if (!out[i])
			return -EBADMSG;
	}
	out[n] = '\0';
	return 0;
}

PFSEL_EXPORT int pfsel_audit_string(const char *const value, char *const out,
				    const size_t size)
{
	if (!strcmp(value, "?") || !strcmp(value, "(null)")) {
		if (!size)
			return -ENAMETOOLONG;
		out[0] = '\0';
		return 0;
	}
	return decode_n(value, strlen(value), out, size);
}

static const char *field(const struct pfsel_audit_field *const fields,
			 const size_t count, const char *const name)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!strcmp(fields[i].name, name))
			return fields[i].value;
	return NULL;
}

/*
 * @value as one of the names of a vocabulary (@name_of, values 0 to
 * @count - 1, and @extra when not -1): true and *@out.
 */
static bool vocabulary_word(const char *const value,
			    const char *(*name_of)(unsigned int),
			    const unsigned int count, const int extra,
			    unsigned int *const out)
{
	unsigned int v;

	if (!value)
		return false;
	for (v = 0; v < count; v++) {
		if (!strcmp(value, name_of(v))) {
			*out = v;
			return true;
		}
	}
	if (extra >= 0 && !strcmp(value, name_of((unsigned int)extra))) {
		*out = (unsigned int)extra;
		return true;
	}
	return false;
}

static bool parse_ulong(const char *const text, const uint64_t max,
			unsigned long *const value)
{
	uint64_t v;

	if (!text || !pfsel_parse_u64(text, 10, max, &v))
		return false;
	*value = (unsigned long)v;
	return true;
}

/* "laddr=A lport=P": @has false for "?", the address checked. */
static bool decode_endpoint(const char *const addr, const char *const port,
			    bool *const has, char *const out, const size_t size,
			    int *const portp)
{
	uint8_t bytes[16];
	unsigned long p;

	*has = false;
	*portp = -1;
	if (!addr)
		return false;
	if (strcmp(addr, "?")) {
		if (strlen(addr) >= size || pfsel_parse_addr(addr, bytes))
			return false;
		strcpy(out, addr);
		*has = true;
	}
	if (!port)
		return false;
	if (strcmp(port, "?")) {
		if (!parse_ulong(port, 65535, &p))
			return false;
		*portp = (int)p;
	}
	return true;
}

/* rule="FILE":LINE:COL, rule=HEX:LINE:COL or rule=default. */
static bool decode_rule(const char *const value,
			struct pfsel_audit_record *const rec)
{
	const char *col, *line;
	unsigned long n;
	char file[4096], num[16];
	size_t flen, nlen;

	if (!strcmp(value, "default")) {
		rec->rule_default = true;
		strcpy(rec->rule, "default");
		return true;
	}
	col = strrchr(value, ':');
	if (!col || col == value)
		return false;
	for (line = col - 1; line > value && *line != ':'; line--)
		;
	if (line == value || !parse_ulong(col + 1, UINT32_MAX, &n))
		return false;
	flen = (size_t)(line - value);
	if (decode_n(value, flen, file, sizeof(file)))
		return false;
	snprintf(rec->rule, sizeof(rec->rule), "%s%.*s", file,
		 (int)(strlen(line)), line);
	/* LINE must be a number too. */
	nlen = (size_t)(col - line - 1);
	if (!nlen || nlen >= sizeof(num))
		return false;
	memcpy(num, line + 1, nlen);
	num[nlen] = '\0';
	if (!parse_ulong(num, UINT32_MAX, &n))
		return false;
	rec->rule_default = false;
	return true;
}

/*
 * What each operation carries (docs/kernel-interface.md), and the request's
 * address and port picked from the two ends (LANGUAGE.md, section 1).
 */
static bool pick_request(struct pfsel_audit_record *const rec)
{
	struct pfsel_request *const req = &rec->request;
	const bool ported = req->proto == PFSEL_PROTO_TCP ||
			    req->proto == PFSEL_PROTO_UDP;
	const char *addr;
	int port;

	switch (req->op) {
	case PFSEL_OP_CREATE:
		return !rec->has_laddr && !rec->has_raddr;
	case PFSEL_OP_BIND:
	case PFSEL_OP_LISTEN:
		if (!rec->has_laddr || rec->lport < 0)
			return false;
		addr = rec->laddr;
		port = rec->lport;
		break;
	case PFSEL_OP_ACCEPT:
		if (!rec->has_raddr || rec->lport < 0)
			return false;
		addr = rec->raddr;
		port = rec->lport;
		break;
	default:
		if (!rec->has_raddr || rec->rport < 0)
			return false;
		addr = rec->raddr;
		port = rec->rport;
		break;
	}
	/* icmp, raw: the kernel writes a port, the request has none. */
	req->port = ported ? (uint16_t)port : 0;
	return !pfsel_parse_addr(addr, req->addr);
}

/* permissive=0 or 1. */
static bool decode_permissive(const char *const value,
			      struct pfsel_audit_record *const rec)
{
	if (!value || (strcmp(value, "0") && strcmp(value, "1")))
		return false;
	rec->permissive = value[0] == '1';
	return true;
}

/* A decision's request, verdict, policy and rule. */
static bool decode_decision(const struct pfsel_audit_field *const fields,
			    const size_t count,
			    struct pfsel_audit_record *const rec)
{
	struct pfsel_request *const req = &rec->request;
	unsigned int verdict;
	const char *v;

	/* A record's verdict is allow or deny; ask is what the rule said. */
	if (!vocabulary_word(field(fields, count, "op"), pfsel_op_name,
			     PFSEL_OP_COUNT, -1, &req->op) ||
	    !vocabulary_word(field(fields, count, "verdict"),
			     pfsel_verdict_name, PFSEL_VERDICT_COUNT, -1,
			     &verdict) ||
	    verdict == PFSEL_VERDICT_ASK ||
	    !vocabulary_word(field(fields, count, "policy"), pfsel_policy_name,
			     PFSEL_SLOT_COUNT, -1, &rec->policy) ||
	    !vocabulary_word(field(fields, count, "family"), pfsel_family_name,
			     PFSEL_FAMILY_COUNT, PFSEL_FAMILY_PACKET,
			     &req->family) ||
	    !vocabulary_word(field(fields, count, "protocol"), pfsel_proto_name,
			     PFSEL_PROTO_COUNT, -1, &req->proto))
		return false;
	rec->verdict = verdict;
	v = field(fields, count, "asked");
	if (v) {
		if (strlen(v) >= sizeof(rec->asked))
			return false;
		strcpy(rec->asked, v);
	}
	v = field(fields, count, "rule");
	return decode_permissive(field(fields, count, "permissive"), rec) &&
	       v && decode_rule(v, rec) &&
	       decode_endpoint(field(fields, count, "laddr"),
			       field(fields, count, "lport"), &rec->has_laddr,
			       rec->laddr, sizeof(rec->laddr), &rec->lport) &&
	       decode_endpoint(field(fields, count, "raddr"),
			       field(fields, count, "rport"), &rec->has_raddr,
			       rec->raddr, sizeof(rec->raddr), &rec->rport) &&
	       pick_request(rec);
}

/*
 * A word of lower-case letters and '_' that fits @size: a call
 * ("hook_timing"), a family.
 */
static bool copy_name(const char *const value, char *const out,
		      const size_t size)
{
	size_t i;

	if (!value || !value[0] || strlen(value) >= size)
		return false;
	for (i = 0; value[i]; i++)
		if ((value[i] < 'a' || value[i] > 'z') && value[i] != '_')
			return false;
	strcpy(out, value);
	return true;
}

/*
 * A refusal that no rule decided (@refused, its refused=): a denial whose
 * op= is the call refused, by the policy that restrains the user or
 * protects the application ("?" for none), without a rule, and with only
 * the fields its call has: a refused family's name, or the socket's
 * family, protocol and ends (its local end at least); a script
 * environment's variable; what a refused change was for.
 */
static bool decode_refusal(const struct pfsel_audit_field *const fields,
			   const size_t count, const char *const refused,
			   struct pfsel_audit_record *const rec)
{
	struct pfsel_request *const req = &rec->request;
	const int what = pfsel_refusal_from_name(refused);
	unsigned long n;
	const char *v;
	int op;

	if (what < 0 || !copy_name(field(fields, count, "op"), rec->call,
				   sizeof(rec->call)))
		return false;
	rec->refused = (unsigned int)what;
	op = pfsel_op_from_name(rec->call);
	req->op = op < 0 ? PFSEL_OP_COUNT : (unsigned int)op;
	v = field(fields, count, "verdict");
	if (!v || strcmp(v, pfsel_verdict_name(PFSEL_VERDICT_DENY)) ||
	    !decode_permissive(field(fields, count, "permissive"), rec))
		return false;
	rec->verdict = PFSEL_VERDICT_DENY;
	rec->policy = PFSEL_SLOT_COUNT;
	v = field(fields, count, "policy");
	if (!v || (strcmp(v, "?") &&
		   !vocabulary_word(v, pfsel_policy_name, PFSEL_SLOT_COUNT, -1,
				    &rec->policy)))
		return false;
	rec->lport = rec->rport = -1;
	v = field(fields, count, "family");
	if (what == PFSEL_REFUSED_FAMILY)
		return copy_name(v, rec->refused_family,
				 sizeof(rec->refused_family));
	/* The socket's: its family, protocol and ends, all or none. */
	if (v) {
		rec->has_socket = true;
		if (!vocabulary_word(v, pfsel_family_name, PFSEL_FAMILY_COUNT,
				     -1, &req->family) ||
		    !vocabulary_word(field(fields, count, "protocol"),
				     pfsel_proto_name, PFSEL_PROTO_COUNT, -1,
				     &req->proto) ||
		    !decode_endpoint(field(fields, count, "laddr"),
				     field(fields, count, "lport"),
				     &rec->has_laddr, rec->laddr,
				     sizeof(rec->laddr), &rec->lport) ||
		    !decode_endpoint(field(fields, count, "raddr"),
				     field(fields, count, "rport"),
				     &rec->has_raddr, rec->raddr,
				     sizeof(rec->raddr), &rec->rport) ||
		    !rec->has_laddr)
			return false;
	}
	v = field(fields, count, "variable");
	if (v && pfsel_audit_string(v, rec->variable, sizeof(rec->variable)))
		return false;
	/* What a refused change was for: target=system or a uid. */
	v = field(fields, count, "target");
	if (!v)
		return true;
	rec->has_target = true;
	if (!strcmp(v, pfsel_policy_name(PFSEL_SLOT_SYSTEM))) {
		rec->target_policy = PFSEL_SLOT_SYSTEM;
		return true;
	}
	rec->target_policy = PFSEL_SLOT_USER;
	if (!parse_ulong(v, 4294967294UL, &n))
		return false;
	rec->target_uid = (uint32_t)n;
	return true;
}

/* Who: the application, the task's ids, its context; the host names. */
static bool decode_subject(const struct pfsel_audit_field *const fields,
			   const size_t count,
			   struct pfsel_audit_record *const rec)
{
	struct pfsel_request *const req = &rec->request;
	const char *v;
	unsigned long n;

	v = field(fields, count, "app");
	if (!v || pfsel_audit_string(v, req->exe, sizeof(req->exe)))
		return false;
	v = field(fields, count, "script");
	if (v && pfsel_audit_string(v, req->script, sizeof(req->script)))
		return false;
	v = field(fields, count, "uid");
	if (parse_ulong(v, 4294967294UL, &n)) {
		rec->uid = (uint32_t)n;
		rec->has_uid = true;
	}
	v = field(fields, count, "pid");
	if (parse_ulong(v, 4194304UL, &n))
		rec->pid = (long)n;
	v = field(fields, count, "comm");
	if (v && pfsel_audit_string(v, rec->comm, sizeof(rec->comm)))
		rec->comm[0] = '\0';
	/* The LSM's context, as it wrote it (neither quoted nor encoded). */
	v = field(fields, count, "subj");
	if (v && strlen(v) < sizeof(rec->subj))
		strcpy(rec->subj, v);
	/*
	 * An untrusted string, as app= is; a list that is not one makes the
	 * record unreadable rather than a rule for a name nobody saw.
	 */
	v = field(fields, count, "hosts");
	return !v || (!pfsel_audit_string(v, req->hosts, sizeof(req->hosts)) &&
		      (!req->hosts[0] || !pfsel_hosts_check(req->hosts)));
}

PFSEL_EXPORT int
pfsel_audit_record_decode(const struct pfsel_audit_field *const fields,
			  const size_t count,
			  struct pfsel_audit_record *const rec)
{
	const char *const refused = field(fields, count, "refused");

	memset(rec, 0, sizeof(*rec));
	rec->pid = -1;
	rec->refused = PFSEL_REFUSAL_COUNT;
	if (refused ? !decode_refusal(fields, count, refused, rec) :
		      !decode_decision(fields, count, rec))
		return -EBADMSG;
	return decode_subject(fields, count, rec) ? 0 : -EBADMSG;
}

PFSEL_EXPORT size_t pfsel_audit_fields(char *const text,
				       struct pfsel_audit_field *const fields,
				       const size_t max)
{
	char *p, *word, *eq, *save;
	size_t count = 0;

	/* Skip "type=... msg=audit(SEC.MS:SERIAL): ". */
	p = strstr(text, "msg=audit(");
	if (p)
		p = strstr(p, "): ");
	if (!p)
		return 0;
	p += 3;
	/* An enriched log (log_format=ENRICHED) adds fields after 0x1d. */
	p[strcspn(p, "\x1d\n")] = '\0';
	for (word = strtok_r(p, " ", &save); word && count < max;
	     word = strtok_r(NULL, " ", &save)) {
		eq = strchr(word, '=');
		/*
		 * AppArmor's subj= is a label and its mode, "NAME (enforce)":
		 * the one blank the kernel writes in a value; put it back.
		 */
		if (!eq && word[0] == '(' && count &&
		    !strcmp(fields[count - 1].name, "subj") &&
		    fields[count - 1].value + strlen(fields[count - 1].value) ==
			    word - 1) {
			word[-1] = ' ';
			continue;
		}
		if (!eq)
			continue; /* "pfsel", the record's first word */
		*eq = '\0';
		fields[count].name = word;
		fields[count].value = eq + 1;
		count++;
	}
	return count;
}
