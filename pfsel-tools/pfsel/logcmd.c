// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel log: pfsel's decisions from the audit log, one line each: time,
 * verdict, uid, application, operation, addresses, the deciding rule, the
 * host names the kernel knew for the address (hosts=, when it knew some)
 * and the subject's security context (subj=, where an LSM gives one).
 * A refusal that no rule decided has refused= where a decision has its
 * rule, and only what its call had: a family, the socket's ends.
 * The application, script and rule file come from whoever named the file
 * (the kernel hex-encodes them in the record, libpfsel decodes them):
 * they are printed as pfsel_escape() writes them, never raw.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

static void log_help(FILE *out)
{
	fputs("Usage: pfsel log [OPTION]...\n"
	      "Print pfsel's decisions (AUDIT_PFSEL_ACCESS records) from the "
	      "audit log,\noldest first: time, verdict, uid, application, "
	      "request, the deciding\nrule, the host names the kernel knew "
	      "for the address (hosts=) and the\nsubject's context "
	      "(SELinux, AppArmor) when the record has them.\nReading the "
	      "audit daemon's logs needs root.\n\n"
	      "  -i, --input=FILE   read FILE ('-' for standard input; raw "
	      "records, as\n                     'ausearch --raw' prints "
	      "them) instead of the audit logs\n"
	      "      --uid=UID      only this user's decisions\n"
	      "      --app=PATTERN  only applications (or scripts) matching "
	      "this glob\n"
	      "      --since=TIME   only decisions since TIME: @EPOCH, N[smhd] "
	      "ago,\n                     YYYY-MM-DD[ HH:MM[:SS]], today, "
	      "recent (10 minutes)\n"
	      "      --verdict=V    deny, allow or all (default: all)\n"
	      "  -n, --last=N       only the last N decisions\n"
	      "      --json         a JSON array of objects\n"
	      "  -h, --help         show this help and exit\n\n"
	      "Exit status: 0 (also when nothing matched), 1 the log could "
	      "not be read,\n2 wrong usage.\n",
	      out);
}

struct log_state {
	struct pfselcmd_ctx *ctx;
	bool json;
	unsigned long last; /* 0: all */
	unsigned long seen;
	/* With --last, a ring of the last records. */
	struct pfsel_audit_record *ring;
	unsigned long printed;
};

/* An endpoint as text: A:P, [A6]:P, or A when the protocol has no port. */
static void endpoint(char *buf, size_t size, const char *addr, int port,
		     unsigned int proto)
{
	const bool ported = proto == PFSEL_PROTO_TCP ||
			    proto == PFSEL_PROTO_UDP;

	if (!ported || port < 0)
		snprintf(buf, size, "%s", addr);
	else if (strchr(addr, ':'))
		snprintf(buf, size, "[%s]:%d", addr, port);
	else
		snprintf(buf, size, "%s:%d", addr, port);
}

/* @text as pfsel_escape() writes it, with @flags. */
static void put_escaped(FILE *out, const char *text, unsigned int flags)
{
	char buf[PFSEL_ESCAPE_SIZE(
		sizeof(((struct pfsel_audit_record *)0)->rule))];

	pfsel_escape(text, buf, sizeof(buf), flags);
	fputs(buf, out);
}

/*
 * An executable or a script as the language writes it: a Flatpak
 * application's or a snap's as "flatpak ID", "snap NAME"
 * (app_path_text()), any other path escaped, bare or quoted.
 */
static void put_app(FILE *out, const char *path)
{
	char buf[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX)];

	if (app_path_text(path, buf, sizeof(buf)) < 0)
		put_escaped(out, path, PFSEL_ESCAPE_QUOTE);
	else
		fputs(buf, out);
}

/* The rule: FILE:LINE:COL, FILE escaped (the rest is digits). */
static void put_rule(FILE *out, const char *rule)
{
	const char *col = strrchr(rule, ':'), *line = col;
	char file[sizeof(((struct pfsel_audit_record *)0)->rule)];

	while (line && line > rule && *--line != ':')
		;
	if (!line || line == rule) {
		put_escaped(out, rule, PFSEL_ESCAPE_QUOTE);
		return;
	}
	snprintf(file, sizeof(file), "%.*s", (int)(line - rule), rule);
	put_escaped(out, file, PFSEL_ESCAPE_QUOTE);
	put_escaped(out, line, 0);
}

/*
 * " hosts=NAME,NAME": each name as pfsel_escape() writes a path (bare when
 * plain, else quoted): the DNS server chose them.
 */
static void put_hosts(FILE *out, const char *hosts)
{
	char name[PFSEL_HOST_NAME_MAX + 1];
	const char *at, *end;
	size_t len;

	fputs(" hosts=", out);
	for (at = hosts; *at; at = *end ? end + 1 : end) {
		end = strchrnul(at, ',');
		len = (size_t)(end - at);
		snprintf(name, sizeof(name), "%.*s", (int)len, at);
		if (at != hosts)
			fputc(',', out);
		put_escaped(out, name, PFSEL_ESCAPE_QUOTE);
	}
}

/*
 * The addresses of a request of operation @op: " on A" (bind, listen),
 * " from A to B" (accept; a connect's from a bound socket), " to B", or a
 * create's family.
 */
static void put_ends(FILE *out, const struct pfsel_audit_record *rec,
		     unsigned int op)
{
	const struct pfsel_request *req = &rec->request;
	char a[80], b[80];

	if (op == PFSEL_OP_CREATE) {
		if (req->family != PFSEL_FAMILY_PACKET)
			fprintf(out, " %s", pfsel_family_name(req->family));
	} else if (op == PFSEL_OP_BIND || op == PFSEL_OP_LISTEN) {
		endpoint(a, sizeof(a), rec->laddr, rec->lport, req->proto);
		fprintf(out, " on %s", a);
	} else if (op == PFSEL_OP_ACCEPT) {
		endpoint(a, sizeof(a), rec->laddr, rec->lport, req->proto);
		fprintf(out, " from %s to %s", rec->raddr, a);
	} else {
		endpoint(b, sizeof(b), rec->raddr, rec->rport, req->proto);
		/* An unbound socket's local end says nothing. */
		if (rec->has_laddr && rec->lport > 0) {
			endpoint(a, sizeof(a), rec->laddr, rec->lport,
				 req->proto);
			fprintf(out, " from %s", a);
		}
		fprintf(out, " to %s", b);
	}
}

/*
 * A refusal: the call and what it had (a family, or the socket's
 * protocol and ends: its peer, or its local end once bound), the policy
 * that restrains the user if one does, and refused= in place of a rule.
 */
static void put_refusal(FILE *out, const struct pfsel_audit_record *rec)
{
	char a[80];

	fprintf(out, " %s", rec->call);
	if (rec->refused_family[0])
		fprintf(out, " %s", rec->refused_family);
	if (rec->has_socket)
		fprintf(out, " %s", pfsel_proto_name(rec->request.proto));
	if (rec->has_raddr) {
		put_ends(out, rec, PFSEL_OP_CONNECT);
	} else if (rec->has_laddr && rec->lport > 0) {
		endpoint(a, sizeof(a), rec->laddr, rec->lport,
			 rec->request.proto);
		fprintf(out, " on %s", a);
	}
	if (rec->policy != PFSEL_SLOT_COUNT)
		fprintf(out, " %s", pfsel_policy_name(rec->policy));
	fprintf(out, " refused=%s", pfsel_refusal_name(rec->refused));
	if (rec->variable[0]) {
		fputs(" variable=", out);
		put_escaped(out, rec->variable, PFSEL_ESCAPE_QUOTE);
	}
	if (rec->has_target && rec->target_policy == PFSEL_SLOT_USER)
		fprintf(out, " target=%u", rec->target_uid);
	else if (rec->has_target)
		fprintf(out, " target=%s",
			pfsel_policy_name(rec->target_policy));
}

static void print_text(FILE *out, const struct pfsel_audit_record *rec)
{
	const struct pfsel_request *req = &rec->request;
	char when[32];
	struct tm tm;
	time_t sec = rec->sec;

	localtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "%s %-5s", when, pfsel_verdict_name(rec->verdict));
	if (rec->has_uid)
		fprintf(out, " uid=%u", rec->uid);
	fputc(' ', out);
	if (req->exe[0])
		put_app(out, req->exe);
	else
		fputs("(unnamed)", out);
	if (req->script[0]) {
		fputs(" script ", out);
		put_app(out, req->script);
	}
	if (rec->refused != PFSEL_REFUSAL_COUNT) {
		put_refusal(out, rec);
	} else {
		fprintf(out, " %s %s", pfsel_op_name(req->op),
			pfsel_proto_name(req->proto));
		put_ends(out, rec, req->op);
		fprintf(out, " %s ", pfsel_policy_name(rec->policy));
		if (rec->rule_default)
			fputs("default", out);
		else
			put_rule(out, rec->rule);
	}
	if (rec->asked[0])
		fprintf(out, " asked=%s", rec->asked);
	if (rec->permissive)
		fputs(" permissive", out);
	if (rec->pid >= 0)
		fprintf(out, " pid=%ld", rec->pid);
	if (req->hosts[0])
		put_hosts(out, req->hosts);
	if (rec->subj[0]) {
		fputs(" subj=", out);
		put_escaped(out, rec->subj, PFSEL_ESCAPE_QUOTE);
	}
	fputc('\n', out);
}

/* The host names as a JSON array of strings, newest first; null for none. */
static void put_json_hosts(FILE *out, const char *hosts)
{
	char name[PFSEL_HOST_NAME_MAX + 1];
	const char *at, *end;

	if (!hosts[0]) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (at = hosts; *at; at = *end ? end + 1 : end) {
		end = strchrnul(at, ',');
		snprintf(name, sizeof(name), "%.*s", (int)(end - at), at);
		if (at != hosts)
			fputc(',', out);
		pfselcmd_json_str(out, name);
	}
	fputc(']', out);
}

static void print_json(FILE *out, const struct pfsel_audit_record *rec,
		       bool first)
{
	const struct pfsel_request *req = &rec->request;
	const bool refusal = rec->refused != PFSEL_REFUSAL_COUNT;
	const bool socket = !refusal || rec->has_socket;
	const char *family = NULL;

	/* A refusal made on no socket has none; a refused family its name. */
	if (socket)
		family = pfsel_family_name(req->family);
	else if (rec->refused_family[0])
		family = rec->refused_family;

	fprintf(out, "%s{\"time\":%lld.%03u,\"serial\":%lu,\"verdict\":",
		first ? "" : ",\n", (long long)rec->sec, rec->msec,
		rec->serial);
	pfselcmd_json_str(out, pfsel_verdict_name(rec->verdict));
	fputs(",\"asked\":", out);
	pfselcmd_json_str(out, rec->asked[0] ? rec->asked : NULL);
	fprintf(out, ",\"permissive\":%s,\"policy\":",
		rec->permissive ? "true" : "false");
	pfselcmd_json_str(out, rec->policy == PFSEL_SLOT_COUNT ?
				       NULL :
				       pfsel_policy_name(rec->policy));
	fputs(",\"rule\":", out);
	pfselcmd_json_str(out, rec->rule_default || refusal ? NULL : rec->rule);
	/* A refusal's own keys; a decision's object is as it always was. */
	if (refusal) {
		fputs(",\"refused\":", out);
		pfselcmd_json_str(out, pfsel_refusal_name(rec->refused));
		fputs(",\"variable\":", out);
		pfselcmd_json_str(out, rec->variable[0] ? rec->variable : NULL);
		fputs(",\"target\":", out);
		pfselcmd_json_str(
			out, rec->has_target ?
				     pfsel_policy_name(rec->target_policy) :
				     NULL);
		fputs(",\"target_uid\":", out);
		pfselcmd_json_int(out,
				  rec->has_target &&
					  rec->target_policy == PFSEL_SLOT_USER,
				  rec->target_uid);
	}
	fputs(",\"uid\":", out);
	pfselcmd_json_int(out, rec->has_uid, rec->uid);
	fputs(",\"pid\":", out);
	pfselcmd_json_int(out, rec->pid >= 0, rec->pid);
	fputs(",\"app\":", out);
	pfselcmd_json_str(out, req->exe[0] ? req->exe : NULL);
	fputs(",\"script\":", out);
	pfselcmd_json_str(out, req->script[0] ? req->script : NULL);
	fputs(",\"op\":", out);
	pfselcmd_json_str(out, refusal ? rec->call : pfsel_op_name(req->op));
	fputs(",\"protocol\":", out);
	pfselcmd_json_str(out, socket ? pfsel_proto_name(req->proto) : NULL);
	fputs(",\"family\":", out);
	pfselcmd_json_str(out, family);
	fputs(",\"laddr\":", out);
	pfselcmd_json_str(out, rec->has_laddr ? rec->laddr : NULL);
	fputs(",\"lport\":", out);
	pfselcmd_json_int(out, rec->lport >= 0, rec->lport);
	fputs(",\"raddr\":", out);
	pfselcmd_json_str(out, rec->has_raddr ? rec->raddr : NULL);
	fputs(",\"rport\":", out);
	pfselcmd_json_int(out, rec->rport >= 0, rec->rport);
	fputs(",\"hosts\":", out);
	put_json_hosts(out, req->hosts);
	fputs(",\"subj\":", out);
	pfselcmd_json_str(out, rec->subj[0] ? rec->subj : NULL);
	fputc('}', out);
}

static void emit(struct log_state *st, const struct pfsel_audit_record *rec)
{
	if (st->json)
		print_json(st->ctx->out, rec, st->printed == 0);
	else
		print_text(st->ctx->out, rec);
	st->printed++;
}

static int on_record(const struct pfsel_audit_record *rec, void *arg)
{
	struct log_state *st = arg;

	if (st->last)
		st->ring[st->seen % st->last] = *rec;
	else
		emit(st, rec);
	st->seen++;
	return 0;
}

int pfselcmd_log(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		PFSELCMD_LOG_OPTIONS,
		{ "last", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfsel_audit_filter src = { .want_allow = true,
					  .want_deny = true,
					  .want_refusals = true };
	struct log_state st = { .ctx = ctx };
	unsigned long bad, i, start;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+:i:n:h", options, NULL)) !=
	       -1) {
		switch (opt) {
		case 'n':
			if (!pfselcmd_parse_ulong(optarg, 10000, &st.last) ||
			    !st.last)
				return pfselcmd_usage(
					ctx, "'%s' is not a count (1 to 10000)",
					optarg);
			break;
		case 'j':
			st.json = true;
			break;
		case 'h':
			log_help(ctx->out);
			return PFSELCMD_EXIT_OK;
		default:
			ret = pfselcmd_log_option(ctx, opt, argv, &src);
			if (ret)
				return ret;
			break;
		}
	}
	if (optind < argc)
		return pfselcmd_extra_argument(ctx, argv);
	if (st.last) {
		st.ring = calloc(st.last, sizeof(*st.ring));
		if (!st.ring)
			return pfselcmd_fail(ctx, PFSELCMD_EXIT_FAILED,
					     "calloc: out of memory");
	}
	if (st.json)
		fputc('[', ctx->out);
	ret = pfselcmd_read_records(ctx, &src, on_record, &st, &bad);
	if (st.last) {
		start = st.seen > st.last ? st.seen - st.last : 0;
		for (i = start; i < st.seen; i++)
			emit(&st, &st.ring[i % st.last]);
		free(st.ring);
	}
	if (st.json)
		fputs("]\n", ctx->out);
	pfselcmd_report_bad_records(ctx, bad);
	return ret < 0 ? PFSELCMD_EXIT_FAILED : PFSELCMD_EXIT_OK;
}
