// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - reading pfsel's decisions back from the audit log: every
 * AUDIT_PFSEL_ACCESS (1430) record, through libauparse, from the audit
 * daemon's logs, a file or standard input; decoded as security/pfsel/
 * audit.c writes them (docs/kernel-interface.md, "Audit").
 */
#include <auparse.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

#define AUDIT_PFSEL_ACCESS 1430

static int hexval(int c)
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
static int decode_n(const char *value, size_t len, char *out, size_t size)
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
		int hi = hexval((unsigned char)value[2 * i]);
		int lo = hexval((unsigned char)value[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EBADMSG;
		out[i] = (char)(hi << 4 | lo);
		if (!out[i])
			return -EBADMSG;
	}
	out[n] = '\0';
	return 0;
}

int pfselcmd_audit_string(const char *value, char *out, size_t size)
{
	if (!strcmp(value, "?") || !strcmp(value, "(null)")) {
		if (!size)
			return -ENAMETOOLONG;
		out[0] = '\0';
		return 0;
	}
	return decode_n(value, strlen(value), out, size);
}

static const char *field(const struct pfselcmd_field *fields, size_t count,
			 const char *name)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!strcmp(fields[i].name, name))
			return fields[i].value;
	return NULL;
}

static bool copy_word(const char *value, char *out, size_t size,
		      const char *const *allowed)
{
	if (!value || strlen(value) >= size)
		return false;
	for (; allowed && *allowed; allowed++)
		if (!strcmp(value, *allowed))
			break;
	if (allowed && !*allowed)
		return false;
	strcpy(out, value);
	return true;
}

/* "laddr=A lport=P": @has false for "?", the address checked. */
static bool decode_endpoint(const char *addr, const char *port, bool *has,
			    char *out, size_t size, int *portp)
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
		if (!pfselcmd_parse_ulong(port, 65535, &p))
			return false;
		*portp = (int)p;
	}
	return true;
}

/* rule="FILE":LINE:COL, rule=HEX:LINE:COL or rule=default. */
static bool decode_rule(const char *value, struct pfselcmd_record *rec)
{
	const char *col, *line;
	unsigned long n;
	char file[4096];
	size_t flen;

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
	if (line == value || !pfselcmd_parse_ulong(col + 1, UINT32_MAX, &n))
		return false;
	flen = (size_t)(line - value);
	if (decode_n(value, flen, file, sizeof(file)))
		return false;
	snprintf(rec->rule, sizeof(rec->rule), "%s%.*s", file,
		 (int)(strlen(line)), line);
	/* LINE must be a number too. */
	{
		char num[16];
		size_t nlen = (size_t)(col - line - 1);

		if (!nlen || nlen >= sizeof(num))
			return false;
		memcpy(num, line + 1, nlen);
		num[nlen] = '\0';
		if (!pfselcmd_parse_ulong(num, UINT32_MAX, &n))
			return false;
	}
	rec->rule_default = false;
	return true;
}

int pfselcmd_record_decode(const struct pfselcmd_field *fields, size_t count,
			   struct pfselcmd_record *rec)
{
	/* The words a record may have, from the library's names. */
	const char *const ops[] = {
		pfsel_op_name(PFSEL_OP_CREATE), pfsel_op_name(PFSEL_OP_BIND),
		pfsel_op_name(PFSEL_OP_CONNECT), pfsel_op_name(PFSEL_OP_LISTEN),
		pfsel_op_name(PFSEL_OP_ACCEPT), NULL
	};
	const char *const verdicts[] = {
		pfsel_verdict_name(PFSEL_VERDICT_ALLOW),
		pfsel_verdict_name(PFSEL_VERDICT_DENY), NULL
	};
	const char *const policies[] = {
		pfsel_policy_name(PFSEL_SLOT_SYSTEM),
		pfsel_policy_name(PFSEL_SLOT_USER), NULL
	};
	const char *const families[] = {
		pfsel_family_name(PFSEL_FAMILY_INET),
		pfsel_family_name(PFSEL_FAMILY_INET6),
		pfsel_family_name(PFSEL_FAMILY_PACKET), NULL
	};
	const char *const protos[] = {
		pfsel_proto_name(PFSEL_PROTO_TCP),
		pfsel_proto_name(PFSEL_PROTO_UDP),
		pfsel_proto_name(PFSEL_PROTO_ICMP),
		pfsel_proto_name(PFSEL_PROTO_RAW),
		pfsel_proto_name(PFSEL_PROTO_PACKET), NULL
	};
	const char *v;
	int op;
	unsigned long n;

	memset(rec, 0, sizeof(*rec));
	rec->pid = -1;
	if (!copy_word(field(fields, count, "op"), rec->op, sizeof(rec->op),
		       ops) ||
	    !copy_word(field(fields, count, "verdict"), rec->verdict,
		       sizeof(rec->verdict), verdicts) ||
	    !copy_word(field(fields, count, "policy"), rec->policy,
		       sizeof(rec->policy), policies) ||
	    !copy_word(field(fields, count, "family"), rec->family,
		       sizeof(rec->family), families) ||
	    !copy_word(field(fields, count, "protocol"), rec->proto,
		       sizeof(rec->proto), protos))
		return -EBADMSG;
	v = field(fields, count, "asked");
	if (v && !copy_word(v, rec->asked, sizeof(rec->asked), NULL))
		return -EBADMSG;
	v = field(fields, count, "permissive");
	if (!v || (strcmp(v, "0") && strcmp(v, "1")))
		return -EBADMSG;
	rec->permissive = v[0] == '1';
	v = field(fields, count, "rule");
	if (!v || !decode_rule(v, rec))
		return -EBADMSG;
	if (!decode_endpoint(field(fields, count, "laddr"),
			     field(fields, count, "lport"), &rec->has_laddr,
			     rec->laddr, sizeof(rec->laddr), &rec->lport) ||
	    !decode_endpoint(field(fields, count, "raddr"),
			     field(fields, count, "rport"), &rec->has_raddr,
			     rec->raddr, sizeof(rec->raddr), &rec->rport))
		return -EBADMSG;
	/* What each operation carries (docs/kernel-interface.md). */
	op = pfsel_op_from_name(rec->op);
	if (op == PFSEL_OP_CREATE ? rec->has_laddr || rec->has_raddr :
	    op == PFSEL_OP_BIND || op == PFSEL_OP_LISTEN ?
					!rec->has_laddr || rec->lport < 0 :
	    op == PFSEL_OP_ACCEPT ? !rec->has_raddr || rec->lport < 0 :
				    !rec->has_raddr || rec->rport < 0)
		return -EBADMSG;
	v = field(fields, count, "app");
	if (!v || pfselcmd_audit_string(v, rec->app, sizeof(rec->app)))
		return -EBADMSG;
	v = field(fields, count, "script");
	if (v && pfselcmd_audit_string(v, rec->script, sizeof(rec->script)))
		return -EBADMSG;
	v = field(fields, count, "uid");
	if (v && pfselcmd_parse_uid(v, &rec->uid))
		rec->has_uid = true;
	v = field(fields, count, "pid");
	if (v && pfselcmd_parse_ulong(v, 4194304UL, &n))
		rec->pid = (long)n;
	v = field(fields, count, "comm");
	if (v && pfselcmd_audit_string(v, rec->comm, sizeof(rec->comm)))
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
	if (v && (pfselcmd_audit_string(v, rec->hosts, sizeof(rec->hosts)) ||
		  (rec->hosts[0] && pfsel_hosts_check(rec->hosts))))
		return -EBADMSG;
	return 0;
}

bool pfselcmd_parse_since(const char *text, time_t now, time_t *since)
{
	struct tm tm;
	unsigned long n;
	char *end;
	const char *rest;

	if (!strcmp(text, "recent")) {
		*since = now - 600;
		return true;
	}
	if (!strcmp(text, "today") || !strcmp(text, "now")) {
		if (!strcmp(text, "now")) {
			*since = now;
			return true;
		}
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		*since = mktime(&tm);
		return *since != (time_t)-1;
	}
	if (text[0] == '@') {
		if (!pfselcmd_parse_ulong(text + 1, (unsigned long)INT64_MAX,
					  &n))
			return false;
		*since = (time_t)n;
		return true;
	}
	if (isdigit((unsigned char)text[0])) {
		errno = 0;
		n = strtoul(text, &end, 10);
		if (!errno && end != text && end[0] && !end[1] &&
		    strchr("smhd", end[0])) {
			unsigned long unit = end[0] == 's' ? 1 :
					     end[0] == 'm' ? 60 :
					     end[0] == 'h' ? 3600 :
							     86400;

			if (n > (unsigned long)now / unit)
				return false;
			*since = now - (time_t)(n * unit);
			return true;
		}
	}
	memset(&tm, 0, sizeof(tm));
	rest = strptime(text, "%Y-%m-%d", &tm);
	if (!rest)
		return false;
	if (*rest == ' ' || *rest == 'T') {
		const char *t = strptime(rest + 1, "%H:%M:%S", &tm);

		if (!t || *t)
			t = strptime(rest + 1, "%H:%M", &tm);
		if (!t || *t)
			return false;
	} else if (*rest) {
		return false;
	}
	tm.tm_isdst = -1;
	*since = mktime(&tm);
	return *since != (time_t)-1;
}

int pfselcmd_log_option(struct pfselcmd_ctx *ctx, int opt, char **argv,
			struct pfselcmd_log_source *src)
{
	const char *arg = optarg;

	switch (opt) {
	case 'i':
		src->input = arg;
		return 0;
	case 'u':
		if (!pfselcmd_parse_uid(arg, &src->uid))
			return pfselcmd_usage(ctx, "'%s' is not a uid", arg);
		src->has_uid = true;
		return 0;
	case 'a':
		src->app = arg;
		return 0;
	case 's':
		if (!pfselcmd_parse_since(arg, time(NULL), &src->since))
			return pfselcmd_usage(
				ctx,
				"'%s' is not a time (@EPOCH, 10m, 2h, 1d, "
				"YYYY-MM-DD[ HH:MM[:SS]], today, recent)",
				arg);
		src->has_since = true;
		return 0;
	case 'v':
		src->want_allow = !strcmp(arg, "allow") || !strcmp(arg, "all");
		src->want_deny = !strcmp(arg, "deny") || !strcmp(arg, "all");
		if (!src->want_allow && !src->want_deny)
			return pfselcmd_usage(
				ctx, "'%s' is not deny, allow or all", arg);
		return 0;
	}
	return pfselcmd_bad_option(ctx, opt, argv);
}

static bool wanted(const struct pfselcmd_log_source *src,
		   const struct pfselcmd_record *rec)
{
	if (src->has_since && rec->sec < src->since)
		return false;
	if (src->has_uid && (!rec->has_uid || rec->uid != src->uid))
		return false;
	if (!strcmp(rec->verdict, pfsel_verdict_name(PFSEL_VERDICT_ALLOW)) ?
		    !src->want_allow :
		    !src->want_deny)
		return false;
	if (src->app) {
		char with_script[8200];

		snprintf(with_script, sizeof(with_script), "%s script %s",
			 rec->app, rec->script);
		if (fnmatch(src->app, rec->app, 0) &&
		    (!rec->script[0] || (fnmatch(src->app, rec->script, 0) &&
					 fnmatch(src->app, with_script, 0))))
			return false;
	}
	return true;
}

/*
 * The fields of the current record of @au, as NAME=VALUE pairs, split
 * from its text in @buf.  Not from auparse's own field parser: it drops
 * a trailing ':' from a value, and so turns laddr=:: into laddr=:.  The
 * kernel writes no blank inside a value (audit_log_untrustedstring()
 * hex-encodes such strings) but AppArmor's subj=, so blanks separate the
 * fields.
 */
#define MAX_FIELDS 64
#define RECORD_TEXT_MAX 65536

static size_t record_fields(auparse_state_t *au, char *buf, size_t size,
			    struct pfselcmd_field *fields)
{
	const char *text = auparse_get_record_text(au);
	char *p, *word, *eq, *save;
	size_t count = 0;

	if (!text || strlen(text) >= size)
		return 0;
	strcpy(buf, text);
	/* Skip "type=... msg=audit(SEC.MS:SERIAL): ". */
	p = strstr(buf, "msg=audit(");
	if (p)
		p = strstr(p, "): ");
	if (!p)
		return 0;
	p += 3;
	/* An enriched log (log_format=ENRICHED) adds fields after 0x1d. */
	p[strcspn(p, "\x1d\n")] = '\0';
	for (word = strtok_r(p, " ", &save); word && count < MAX_FIELDS;
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

int pfselcmd_read_records(struct pfselcmd_ctx *ctx,
			  const struct pfselcmd_log_source *src,
			  pfselcmd_record_fn fn, void *arg, unsigned long *bad)
{
	struct pfselcmd_field fields[MAX_FIELDS];
	struct pfselcmd_record *rec;
	char *text;
	const char *what;
	auparse_state_t *au;
	const au_event_t *ev;
	size_t count;
	int ret = 0, more, err;

	*bad = 0;
	errno = 0;
	if (!src->input) {
		what = "the audit logs";
		au = auparse_init(AUSOURCE_LOGS, NULL);
	} else if (!strcmp(src->input, "-")) {
		what = "standard input";
		au = auparse_init(AUSOURCE_FILE_POINTER, stdin);
	} else {
		what = src->input;
		au = auparse_init(AUSOURCE_FILE, src->input);
	}
	if (!au) {
		err = errno ? errno : EIO;
		pfselcmd_fail(ctx, 0, "auparse_init(%s): %s", what,
			      strerror(err));
		return -err;
	}
	rec = malloc(sizeof(*rec));
	text = malloc(RECORD_TEXT_MAX);
	if (!rec || !text) {
		free(rec);
		free(text);
		auparse_destroy(au);
		pfselcmd_fail(ctx, 0, "malloc: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	errno = 0;
	while ((more = auparse_next_event(au)) > 0) {
		do {
			if (auparse_get_type(au) != AUDIT_PFSEL_ACCESS)
				continue;
			count = record_fields(au, text, RECORD_TEXT_MAX,
					      fields);
			if (pfselcmd_record_decode(fields, count, rec)) {
				++*bad;
				continue;
			}
			ev = auparse_get_timestamp(au);
			if (ev) {
				rec->sec = ev->sec;
				rec->msec = ev->milli;
				rec->serial = ev->serial;
			}
			if (!wanted(src, rec))
				continue;
			ret = fn(rec, arg);
			if (ret)
				goto out;
		} while (auparse_next_record(au) > 0);
		errno = 0;
	}
	if (more < 0) {
		err = errno ? errno : EIO;
		pfselcmd_fail(ctx, 0, "reading %s: %s%s", what, strerror(err),
			      !src->input && err == EACCES ?
				      " (the audit logs need root)" :
				      "");
		ret = -err;
	}
out:
	free(rec);
	free(text);
	auparse_destroy(au);
	return ret;
}

void pfselcmd_report_bad_records(struct pfselcmd_ctx *ctx,
				 const unsigned long bad)
{
	if (bad)
		pfselcmd_fail(ctx, 0,
			      "%lu pfsel record%s could not be read and "
			      "%s skipped",
			      bad, bad == 1 ? "" : "s",
			      bad == 1 ? "was" : "were");
}
