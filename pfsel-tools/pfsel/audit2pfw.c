// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel audit2pfw: from pfsel's denials in the audit log to .pfw rules
 * that would allow them, as audit2allow does for SELinux.
 *
 * Each record is one request (policy/LANGUAGE.md, section 1); the rule
 * that allows it names the application, the operation, the protocol and,
 * but for create, the request's address (to for connect, on for bind and
 * listen, from for accept) and, for tcp and udp, its port; create names
 * the family instead (none for packet).  Requests that differ only in
 * their port share one rule with a port list.  Rules are grouped by
 * application, in the order their first record came, each group under a
 * comment saying what was denied and by what: a rule appended to a policy
 * takes effect only where no earlier rule decided (first match wins).
 *
 * A connect or accept record with host names (hosts=, what the kernel had
 * learned from DNS answers for the address) gets a rule for the first
 * (newest) name that a rule can write, "to host www.example.org port 443", instead of the
 * address, which the name's owner may change tomorrow; --addresses keeps
 * the addresses.
 *
 * A refusal that no rule decided (refused=: a source route, a family
 * whose peers no rule can name, the start of a protected application
 * under a tracer) gets no rule, since none would allow it: its group's
 * comment says what was refused and why no rule allows it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

/*
 * One rule: the request of its first record, how wide it is written, and
 * the ports of every record that differs from it in its port alone.
 */
struct a2p_rule {
	struct pfsel_request *req;
	unsigned int width; /* exact, or the host's name */
	char *key; /* its text without its port: what records share */
	uint16_t *ports; /* tcp and udp, sorted at the end */
	size_t nports;
	unsigned long records;
};

/*
 * The records of one application: its executable and script as the
 * language writes them (app_path_text()), so that every executable of a
 * Flatpak application or a snap, in every version, is one group.
 */
struct a2p_group {
	char *app; /* "" unnamed */
	char *script; /* "" none */
	uint32_t *uids;
	size_t nuids;
	char **reasons; /* distinct "denied by ..." lines */
	size_t nreasons;
	unsigned long denied, allowed, permissive, refused;
	bool host_rules; /* some rule names a host */
	struct a2p_rule *rules;
	size_t nrules;
};

struct a2p_state {
	struct pfselcmd_ctx *ctx;
	const char *policy; /* NULL: both */
	bool permissive_only;
	bool addresses; /* --addresses: never "host NAME" */
	struct a2p_group *groups;
	size_t ngroups;
	unsigned long records;
	int error;
};

/* Append *@value (of @size bytes) to *@array of *@count elements. */
static bool append(void **array, size_t *count, size_t size, const void *value)
{
	size_t cap = 0;
	void *grown;

	/* Capacity 4, then doubled whenever it is full. */
	if (*count == 0)
		cap = 4;
	else if (*count >= 4 && !(*count & (*count - 1)))
		cap = *count * 2;
	if (cap) {
		grown = realloc(*array, cap * size);
		if (!grown)
			return false;
		*array = grown;
	}
	memcpy((char *)*array + *count * size, value, size);
	++*count;
	return true;
}

#define APPEND(array, count, value) \
	append((void **)&(array), &(count), sizeof(*(array)), &(value))

/* @path as the language writes it, malloc()ed ("" stays ""), or NULL. */
static char *app_text_dup(const char *path)
{
	const size_t size = PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX);
	char *text = malloc(size);

	if (text && !path[0])
		text[0] = '\0';
	else if (text && app_path_text(path, text, size) < 0)
		text[0] = '\0';
	return text;
}

static struct a2p_group *find_group(struct a2p_state *st,
				    const struct pfsel_audit_record *rec)
{
	struct a2p_group group = { 0 };
	const struct pfsel_request *req = &rec->request;
	size_t i;

	group.app = app_text_dup(req->exe);
	group.script = app_text_dup(req->script);
	if (!group.app || !group.script)
		goto fail;
	for (i = 0; i < st->ngroups; i++)
		if (!strcmp(st->groups[i].app, group.app) &&
		    !strcmp(st->groups[i].script, group.script)) {
			free(group.app);
			free(group.script);
			return &st->groups[i];
		}
	if (APPEND(st->groups, st->ngroups, group))
		return &st->groups[st->ngroups - 1];
fail:
	free(group.app);
	free(group.script);
	return NULL;
}

static bool has_ports(unsigned int proto)
{
	return proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP;
}

/*
 * The rule of @req as wide as @width, as the agent writes an "always"
 * answer's and the prompt's monitor a decision's (rule_text_format()),
 * with @ports in place of its port (NULL: its own); an unnamed
 * application is "*".  malloc()ed, or NULL with -errno in @err.
 */
static char *rule_of(const struct pfsel_request *req, unsigned int width,
		     const struct rule_text_ports *ports, int *err)
{
	const size_t size = 2 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) +
			    PFSEL_HOST_NAME_MAX + 512 +
			    8 * (ports ? ports->count : 1);
	char *text = malloc(size);
	int n;

	if (!text) {
		*err = -ENOMEM;
		return NULL;
	}
	n = rule_text_format(req, PFSEL_ANSWER_ALLOW, width, ports,
			     RULE_TEXT_UNNAMED_ANY, text, size);
	if (n < 0) {
		free(text);
		*err = n;
		return NULL;
	}
	return text;
}

static int add_rule(struct a2p_group *group,
		    const struct pfsel_audit_record *rec, const bool addresses)
{
	struct a2p_rule rule = { 0 };
	struct pfsel_request *key_req;
	const uint16_t port = rec->request.port;
	int err = 0;
	size_t i, j;

	/*
	 * The kernel names the hosts of the request's peer: the rule names
	 * the newest that a rule can write, unless --addresses.
	 */
	rule.width = !addresses && rule_width_applies(&rec->request,
						      RULE_WIDTH_HOST) ?
			     RULE_WIDTH_HOST :
			     RULE_WIDTH_EXACT;
	/* Records whose rules differ in the port alone share one rule. */
	key_req = malloc(sizeof(*key_req));
	if (!key_req)
		return -ENOMEM;
	*key_req = rec->request;
	key_req->port = 0;
	rule.key = rule_of(key_req, rule.width, NULL, &err);
	free(key_req);
	if (!rule.key)
		return err;
	for (i = 0; i < group->nrules; i++) {
		struct a2p_rule *r = &group->rules[i];

		if (strcmp(r->key, rule.key))
			continue;
		free(rule.key);
		r->records++;
		if (!has_ports(rec->request.proto))
			return 0;
		for (j = 0; j < r->nports; j++)
			if (r->ports[j] == port)
				return 0;
		return APPEND(r->ports, r->nports, port) ? 0 : -ENOMEM;
	}
	rule.records = 1;
	rule.req = malloc(sizeof(*rule.req));
	if (rule.req)
		*rule.req = rec->request;
	if (!rule.req ||
	    (has_ports(rec->request.proto) &&
	     rec->request.op != PFSEL_OP_CREATE &&
	     !APPEND(rule.ports, rule.nports, port)) ||
	    !APPEND(group->rules, group->nrules, rule)) {
		free(rule.req);
		free(rule.key);
		free(rule.ports);
		return -ENOMEM;
	}
	if (rule.width == RULE_WIDTH_HOST)
		group->host_rules = true;
	return 0;
}

/* @text among the group's comment lines, once. */
static int keep_reason(struct a2p_group *group, const char *text)
{
	char *copy;
	size_t i;

	for (i = 0; i < group->nreasons; i++)
		if (!strcmp(group->reasons[i], text))
			return 0;
	copy = strdup(text);
	if (!copy || !APPEND(group->reasons, group->nreasons, copy)) {
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

static int add_reason(struct a2p_group *group,
		      const struct pfsel_audit_record *rec)
{
	const char *policy = pfsel_policy_name(rec->policy);
	char text[4400], asked[32] = "";

	if (rec->asked[0])
		snprintf(asked, sizeof(asked), " (asked: %s)", rec->asked);
	if (rec->verdict == PFSEL_VERDICT_ALLOW)
		snprintf(text, sizeof(text),
			 "allowed by the %s policy's %s%s%s", policy,
			 rec->rule_default ? "default verdict" : "rule ",
			 rec->rule_default ? "" : rec->rule, asked);
	else if (rec->rule_default)
		snprintf(text, sizeof(text),
			 "denied by the %s policy's default verdict%s", policy,
			 asked);
	else
		snprintf(text, sizeof(text),
			 "denied by rule %s of the %s policy%s: put these "
			 "rules before it",
			 rec->rule, policy, asked);
	return keep_reason(group, text);
}

/*
 * Why no rule allows what @rec refused (its refused=), for the group's
 * comment: a rule audit2pfw wrote would not do what it says.
 */
static void refusal_reason(const struct pfsel_audit_record *rec, char *text,
			   size_t size)
{
	const char *what = NULL, *why = NULL;

	switch (rec->refused) {
	case PFSEL_REFUSED_FAMILY:
		snprintf(text, size,
			 "refused socket() of family %s: its peers are "
			 "reached through sockets of the kernel's own, which "
			 "no rule can name (LANGUAGE.md, section 6)",
			 rec->refused_family);
		return;
	case PFSEL_REFUSED_ROUTING_HEADER:
		what = "an IPv6 routing header";
		why = "a source route sends packets past the address a rule "
		      "decided; no rule allows one (LANGUAGE.md, section 7)";
		break;
	case PFSEL_REFUSED_IP_OPTIONS:
		what = "IPv4 options";
		why = "they may hold a source route, which sends packets past "
		      "the address a rule decided; no rule allows one "
		      "(LANGUAGE.md, section 7)";
		break;
	case PFSEL_REFUSED_UNREAD_CONTROL:
		what = "a send";
		why = "its control messages could not be read, so what they "
		      "route or add was not known; no rule allows that";
		break;
	case PFSEL_REFUSED_MPTCP_SUBFLOW:
		what = "an MPTCP subflow the kernel's path manager would open";
		why = "its destination is chosen after any rule could be "
		      "checked; no rule allows it (LANGUAGE.md, section 6)";
		break;
	case PFSEL_REFUSED_TRACED:
		what = "starting a protected application under a tracer";
		break;
	case PFSEL_REFUSED_SECCOMP:
		what = "starting a protected application under a seccomp "
		       "filter";
		break;
	case PFSEL_REFUSED_SHARED_FS:
		what = "starting a protected application that shares its "
		       "filesystem context";
		break;
	case PFSEL_REFUSED_PRIVATE_ROOT:
		what = "starting a protected application from a root "
		       "directory other than init's";
		break;
	case PFSEL_REFUSED_SCRIPT_ENVIRONMENT:
		snprintf(text, size,
			 "refused starting a protected script with %s in its "
			 "environment, which makes its interpreter run other "
			 "code: start it without (LANGUAGE.md, \"Protected "
			 "applications\")",
			 rec->variable[0] ? rec->variable :
					    "an environment it could not read");
		return;
	case PFSEL_REFUSED_SCRIPT_PATH:
		what = "an open of another file at the script's path, before "
		       "the script's own";
		why = "the name was made to lead elsewhere after the script "
		      "was started (LANGUAGE.md, section 5)";
		break;
	case PFSEL_REFUSED_ADMIN:
		snprintf(text, size,
			 "refused %s: only the administrator (CAP_MAC_ADMIN) "
			 "changes what is in force, and for a user's policy "
			 "the agent root started for that user; no rule "
			 "allows it (docs/kernel-interface.md, \"Who may do "
			 "what\")",
			 rec->call);
		return;
	}
	if (!what) {
		snprintf(text, size, "refused %s: no rule allows it",
			 pfsel_refusal_name(rec->refused));
		return;
	}
	/* The refusals of a protected application's start. */
	if (!why)
		why = "a protected application starts only on its own, which "
		      "no rule changes (LANGUAGE.md, \"Protected "
		      "applications\")";
	snprintf(text, size, "refused %s: %s", what, why);
}

static int on_record(const struct pfsel_audit_record *rec, void *arg)
{
	struct a2p_state *st = arg;
	struct a2p_group *group;
	size_t i;
	int ret;

	if (st->policy && strcmp(pfsel_policy_name(rec->policy), st->policy))
		return 0;
	if (st->permissive_only && !rec->permissive)
		return 0;
	group = find_group(st, rec);
	if (!group)
		return st->error = -ENOMEM;
	st->records++;
	if (rec->refused != PFSEL_REFUSAL_COUNT)
		group->refused++;
	else if (rec->verdict == PFSEL_VERDICT_ALLOW)
		group->allowed++;
	else
		group->denied++;
	if (rec->permissive)
		group->permissive++;
	if (rec->has_uid) {
		for (i = 0; i < group->nuids; i++)
			if (group->uids[i] == rec->uid)
				break;
		if (i == group->nuids &&
		    !APPEND(group->uids, group->nuids, rec->uid))
			return st->error = -ENOMEM;
	}
	/* A refusal: said once per group, and no rule. */
	if (rec->refused != PFSEL_REFUSAL_COUNT) {
		char text[1024];

		refusal_reason(rec, text, sizeof(text));
		return keep_reason(group, text) ? st->error = -ENOMEM : 0;
	}
	if (add_reason(group, rec))
		return st->error = -ENOMEM;
	ret = add_rule(group, rec, st->addresses);
	if (ret)
		return st->error = ret;
	return 0;
}

/*
 * A path as the language writes it (pfsel_escape() with
 * PFSEL_ESCAPE_QUOTE): bare when it is a plain path word, else as an exact
 * path in double quotes with its odd bytes escaped (LANGUAGE.md, section
 * 5), so that a file named "*" gets a rule for that file only.  In a
 * comment (@flags 0) escaped the same way, without quotes: a control
 * character would end the comment or act on the reader's terminal.
 */
static void write_text(FILE *out, const char *text, unsigned int flags)
{
	char buf[PFSEL_ESCAPE_SIZE(4400)];

	pfsel_escape(text, buf, sizeof(buf), flags);
	fputs(buf, out);
}

static void comment_text(FILE *out, const char *text)
{
	write_text(out, text, 0);
}

static int cmp_port(const void *a, const void *b)
{
	const uint16_t x = *(const uint16_t *)a;
	const uint16_t y = *(const uint16_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The group's application, and its script if it runs one, as the
 * language writes them (already escaped).
 */
static void write_app(FILE *out, const struct a2p_group *g, const char *unnamed)
{
	fputs(g->app[0] ? g->app : unnamed, out);
	if (g->script[0])
		fprintf(out, " script %s", g->script);
}

static int print_group(FILE *out, const struct a2p_group *g)
{
	struct a2p_rule *r;
	size_t i;

	fputs("# ", out);
	write_app(out, g, "an unnamed application");
	if (g->nuids) {
		fprintf(out, " (uid%s ", g->nuids > 1 ? "s" : "");
		for (i = 0; i < g->nuids; i++)
			fprintf(out, "%s%u", i ? ", " : "", g->uids[i]);
		fputc(')', out);
	}
	fputs(":", out);
	if (g->denied)
		fprintf(out, " %lu denied", g->denied);
	if (g->allowed)
		fprintf(out, "%s %lu allowed", g->denied ? "," : "",
			g->allowed);
	if (g->refused)
		fprintf(out, "%s %lu refused",
			g->denied || g->allowed ? "," : "", g->refused);
	if (g->permissive)
		fprintf(out, " (%lu in permissive mode)", g->permissive);
	fputc('\n', out);
	for (i = 0; i < g->nreasons; i++) {
		fputs("#   ", out);
		comment_text(out, g->reasons[i]);
		fputc('\n', out);
	}
	if (!g->app[0])
		fputs("#   an unnamed application (run from a deleted file or "
		      "through a private\n#   mount) is matched by '*' "
		      "only\n",
		      out);
	if (g->host_rules)
		fputs("#   a host rule matches the addresses the kernel learns "
		      "for the name from\n#   DNS answers (--addresses: the "
		      "addresses the records name)\n",
		      out);
	for (i = 0; i < g->nrules; i++) {
		const struct rule_text_ports ports = {
			.ports = g->rules[i].ports,
			.count = g->rules[i].nports,
		};
		char *text;
		int err;

		r = &g->rules[i];
		if (r->nports)
			qsort(r->ports, r->nports, sizeof(*r->ports), cmp_port);
		text = rule_of(r->req, r->width, r->nports ? &ports : NULL,
			       &err);
		if (!text)
			return err;
		fprintf(out, "%s\n", text);
		free(text);
	}
	fputc('\n', out);
	return 0;
}

static void free_state(struct a2p_state *st)
{
	size_t i, j;

	for (i = 0; i < st->ngroups; i++) {
		struct a2p_group *g = &st->groups[i];

		for (j = 0; j < g->nrules; j++) {
			free(g->rules[j].req);
			free(g->rules[j].key);
			free(g->rules[j].ports);
		}
		for (j = 0; j < g->nreasons; j++)
			free(g->reasons[j]);
		free(g->rules);
		free(g->reasons);
		free(g->uids);
		free(g->app);
		free(g->script);
	}
	free(st->groups);
}

static void audit2pfw_help(FILE *out)
{
	fputs("Usage: pfsel audit2pfw [OPTION]...\n"
	      "Read pfsel's denials (AUDIT_PFSEL_ACCESS records) from the "
	      "audit log and\nprint .pfw rules that would allow them, "
	      "grouped by application, each\ngroup under a comment, without "
	      "repeats; requests that differ only in\ntheir port share a "
	      "rule.  Append them to a policy (a rule takes effect\nonly "
	      "where no earlier rule decided), compile it with pfwc and "
	      "load it.\nReading the audit daemon's logs needs root.\n\n"
	      "  -i, --input=FILE   read FILE ('-' for standard input; raw "
	      "records, as\n                     'ausearch --raw' prints "
	      "them) instead of the audit logs\n"
	      "      --uid=UID      only this user's records\n"
	      "      --app=PATTERN  only applications (or scripts) matching "
	      "this glob\n"
	      "      --since=TIME   only records since TIME: @EPOCH, N[smhd] "
	      "ago,\n                     YYYY-MM-DD[ HH:MM[:SS]], today, "
	      "recent (10 minutes)\n"
	      "      --verdict=V    deny (default), allow (e.g. answers "
	      "given when asked,\n                     or rules marked log) "
	      "or all\n"
	      "  -p, --permissive   only denials let through in permissive "
	      "mode\n"
	      "      --policy=P     only decisions of the user or the system "
	      "policy\n"
	      "      --addresses    rules name the records' addresses, even "
	      "where a record\n                     names the host (hosts=; "
	      "by default: to host NAME)\n"
	      "  -h, --help         show this help and exit\n\n"
	      "Exit status: 0 (also when nothing matched), 1 the log could "
	      "not be read,\n2 wrong usage.\n",
	      out);
}

int pfselcmd_audit2pfw(struct pfselcmd_ctx *ctx, int argc, char **argv)
{
	static const struct option options[] = {
		PFSELCMD_LOG_OPTIONS,
		{ "permissive", no_argument, NULL, 'p' },
		{ "policy", required_argument, NULL, 'P' },
		{ "addresses", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pfsel_audit_filter src = { .want_deny = true,
					  .want_refusals = true };
	struct a2p_state st = { .ctx = ctx };
	unsigned long bad;
	size_t i;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+:i:ph", options, NULL)) != -1) {
		switch (opt) {
		case 'p':
			st.permissive_only = true;
			break;
		case 'A':
			st.addresses = true;
			break;
		case 'P':
			if (strcmp(optarg, "user") && strcmp(optarg, "system"))
				return pfselcmd_usage(
					ctx, "'%s' is not user or system",
					optarg);
			st.policy = optarg;
			break;
		case 'h':
			audit2pfw_help(ctx->out);
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

	ret = pfselcmd_read_records(ctx, &src, on_record, &st, &bad);
	if (st.error) {
		pfselcmd_fail(ctx, 0, "%s", strerror(-st.error));
		ret = st.error;
	}
	for (i = 0; !ret && i < st.ngroups; i++) {
		ret = print_group(ctx->out, &st.groups[i]);
		if (ret)
			pfselcmd_fail(ctx, 0, "%s", strerror(-ret));
	}
	if (!ret) {
		if (!st.records)
			pfselcmd_fail(ctx, 0, "no matching pfsel records");
	}
	pfselcmd_report_bad_records(ctx, bad);
	free_state(&st);
	return ret ? PFSELCMD_EXIT_FAILED : PFSELCMD_EXIT_OK;
}
