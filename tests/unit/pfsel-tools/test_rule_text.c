// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the one .pfw rule writer (pfsel-tools/userpolicy/
 * rule_text.c), here for the request of a question, the rule an "always"
 * answer becomes: its text for each width, operation and protocol, the exact-path form of names that are not plain, the
 * refusals; and that the real pfwc ($ROOT/build/bin/pfwc) reads each
 * width's rule as covering what its name says, and no more.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "userpolicy.h"
#include "curl_question.h"
#include "tmpdir.h"
#include "snap_mounts.h"

/* rule_text_format() of the request @q asks about, as the agent writes it. */
static int question_rule(const struct pfsel_question *q, unsigned int verdict,
			 unsigned int width, char *buf, size_t size)
{
	struct pfsel_request req;

	pfsel_request_from_question(q, &req);
	return rule_text_format(&req, verdict, width, NULL, 0, buf, size);
}

/* rule_width_applies() to the request @q asks about. */
static bool question_width_applies(const struct pfsel_question *q,
				   unsigned int width)
{
	struct pfsel_request req;

	pfsel_request_from_question(q, &req);
	return rule_width_applies(&req, width);
}

static struct pfsel_question *question(void)
{
	struct pfsel_question *q = malloc(sizeof(*q));

	assert_non_null(q);
	curl_question(q);
	return q;
}

/* question_rule() of @q must be @want, with its length returned. */
static void expect(const struct pfsel_question *q, unsigned int verdict,
		   unsigned int width, const char *want)
{
	char buf[1024];
	int n;

	memset(buf, 'x', sizeof(buf));
	n = question_rule(q, verdict, width, buf, sizeof(buf));
	if (n < 0)
		fail_msg("rule_text_format: %s, want '%s'", strerror(-n), want);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_widths_connect(void **state)
{
	struct pfsel_question *q = question();

	(void)state;
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow /usr/bin/curl connect tcp to 192.0.2.1 port 80;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /usr/bin/curl connect tcp to 192.0.2.1;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_PORT,
	       "allow /usr/bin/curl connect tcp to any port 80;");

	pfsel_parse_addr("2001:db8::1", q->raddr);
	q->proto = PFSEL_PROTO_UDP;
	q->rport = 53;
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_EXACT,
	       "deny /usr/bin/curl connect udp to 2001:db8::1 port 53;");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_ADDRESS,
	       "deny /usr/bin/curl connect udp to 2001:db8::1;");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_PORT,
	       "deny /usr/bin/curl connect udp to any port 53;");
	free(q);
}

/* bind and listen name their address "on", accept "from". */
static void test_widths_other_ops(void **state)
{
	struct pfsel_question *q = question();

	(void)state;
	q->op = PFSEL_OP_BIND;
	pfsel_parse_addr("0.0.0.0", q->raddr);
	q->rport = 8080;
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow /usr/bin/curl bind tcp on 0.0.0.0 port 8080;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_PORT,
	       "allow /usr/bin/curl bind tcp on any port 8080;");
	q->op = PFSEL_OP_LISTEN;
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /usr/bin/curl listen tcp on 0.0.0.0;");
	q->op = PFSEL_OP_ACCEPT;
	pfsel_parse_addr("198.51.100.7", q->raddr);
	q->rport = 22;
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_EXACT,
	       "deny /usr/bin/curl accept tcp from 198.51.100.7 port 22;");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_ADDRESS,
	       "deny /usr/bin/curl accept tcp from 198.51.100.7;");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_PORT,
	       "deny /usr/bin/curl accept tcp from any port 22;");
	free(q);
}

/*
 * The host widths: the first name a rule can write, this port; its
 * domain for a name of three labels or more.  For connect and accept,
 * in their words.
 */
static void test_widths_host(void **state)
{
	struct pfsel_question *q = question();

	(void)state;
	strcpy(q->hosts, "www.example.org,example.org");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_HOST,
	       "allow /usr/bin/curl connect tcp to host www.example.org port 80;");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_DOMAIN,
	       "deny /usr/bin/curl connect tcp to host *.example.org port 80;");
	/* The address widths are as they were. */
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow /usr/bin/curl connect tcp to 192.0.2.1 port 80;");
	assert_true(question_width_applies(q, RULE_WIDTH_HOST));
	assert_true(question_width_applies(q, RULE_WIDTH_DOMAIN));

	/* A name the language cannot write is passed over; case is folded. */
	strcpy(q->hosts, "*.weird.example,a\"b.example,CDN.Example.NET");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_HOST,
	       "allow /usr/bin/curl connect tcp to host cdn.example.net port 80;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_DOMAIN,
	       "allow /usr/bin/curl connect tcp to host *.example.net port 80;");

	/* No port: the name alone. */
	q->proto = PFSEL_PROTO_ICMP;
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_HOST,
	       "allow /usr/bin/curl connect icmp to host cdn.example.net;");
	q->proto = PFSEL_PROTO_TCP;

	q->op = PFSEL_OP_ACCEPT;
	q->rport = 22;
	strcpy(q->hosts, "client.example.org");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_HOST,
	       "deny /usr/bin/curl accept tcp from host client.example.org port 22;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_DOMAIN,
	       "allow /usr/bin/curl accept tcp from host *.example.org port 22;");
	free(q);
}

/*
 * Where the host widths make no rule: no name known, only names the
 * language cannot write, create (no address), bind and listen (the
 * machine's own address); and no domain width for a
 * two-label name (its parent is a top-level domain: "*.org").
 */
static void test_widths_host_refused(void **state)
{
	struct pfsel_question *q = question();
	char buf[512];
	unsigned int w;

	(void)state;
	for (w = RULE_WIDTH_HOST; w <= RULE_WIDTH_DOMAIN; w++) {
		q->hosts[0] = '\0';
		assert_false(question_width_applies(q, w));
		assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, w, buf,
					       sizeof(buf)),
				 -ENOENT);
		assert_string_equal(buf, "");
		strcpy(q->hosts, "*.example.org,-bad.example");
		assert_false(question_width_applies(q, w));
		assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, w, buf,
					       sizeof(buf)),
				 -ENOENT);
		/* No address, or the machine's own. */
		strcpy(q->hosts, "www.example.org");
		for (q->op = PFSEL_OP_CREATE; q->op <= PFSEL_OP_LISTEN;
		     q->op++) {
			if (q->op == PFSEL_OP_CONNECT)
				continue;
			assert_false(question_width_applies(q, w));
			assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, w,
						       buf, sizeof(buf)),
					 -ENOENT);
		}
		q->op = PFSEL_OP_CONNECT;
	}
	strcpy(q->hosts, "example.org,www.example.org");
	assert_true(question_width_applies(q, RULE_WIDTH_HOST));
	assert_false(question_width_applies(q, RULE_WIDTH_DOMAIN));
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_DOMAIN,
				       buf, sizeof(buf)),
			 -ENOENT);
	/* The address widths always apply. */
	q->hosts[0] = '\0';
	for (w = RULE_WIDTH_EXACT; w <= RULE_WIDTH_PORT; w++)
		assert_true(question_width_applies(q, w));
	assert_false(question_width_applies(q, RULE_WIDTH_COUNT));
	free(q);
}

/* No port (icmp, raw): every width is the address's; create: none. */
static void test_widths_without_port(void **state)
{
	struct pfsel_question *q = question();
	unsigned int w;

	(void)state;
	/* The address widths (the host widths need a name: above). */
	for (w = 0; w <= RULE_WIDTH_PORT; w++) {
		q->op = PFSEL_OP_CONNECT;
		q->proto = PFSEL_PROTO_ICMP;
		expect(q, PFSEL_ANSWER_ALLOW, w,
		       "allow /usr/bin/curl connect icmp to 192.0.2.1;");
		q->proto = PFSEL_PROTO_RAW;
		expect(q, PFSEL_ANSWER_DENY, w,
		       "deny /usr/bin/curl connect raw to 192.0.2.1;");
		q->op = PFSEL_OP_CREATE;
		q->proto = PFSEL_PROTO_TCP;
		q->family = PFSEL_FAMILY_INET6;
		expect(q, PFSEL_ANSWER_ALLOW, w,
		       "allow /usr/bin/curl create tcp family inet6;");
		q->proto = PFSEL_PROTO_PACKET;
		q->family = PFSEL_FAMILY_PACKET;
		expect(q, PFSEL_ANSWER_DENY, w,
		       "deny /usr/bin/curl create packet;");
		q->family = PFSEL_FAMILY_INET;
	}
	free(q);
}

/* Names that are not plain: the exact-path form, that file only. */
static void test_exact_paths(void **state)
{
	struct pfsel_question *q = question();

	(void)state;
	strcpy(q->exe, "/usr/bin/python3");
	strcpy(q->script, "/home/a/my \"tool\".py");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow /usr/bin/python3 script \"/home/a/my \\\"tool\\\".py\" connect tcp to 192.0.2.1 port 80;");
	q->script[0] = '\0';
	strcpy(q->exe, "/tmp/globdir/*");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow \"/tmp/globdir/\\x2a\" connect tcp to 192.0.2.1 port 80;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow \"/tmp/globdir/\\x2a\" connect tcp to 192.0.2.1;");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_PORT,
	       "allow \"/tmp/globdir/\\x2a\" connect tcp to any port 80;");
	strcpy(q->exe, "/tmp/g/**");
	strcpy(q->script, "/tmp/a?[b] c\x1b[2K\n");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_PORT,
	       "deny \"/tmp/g/\\x2a\\x2a\" script \"/tmp/a?[b] c\\e[2K\\n\" connect tcp to any port 80;");
	free(q);
}

/*
 * A Flatpak application's or a snap's executable is the application:
 * "flatpak ID", "snap NAME", as executable and as script; a user's own
 * Flatpak installation, a runtime and an ID Flatpak would refuse are
 * paths.
 */
static void test_sandbox_identities(void **state)
{
	struct pfsel_question *q = question();

	(void)state;
	strcpy(q->exe, "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/"
		       "stable/4a1f/files/lib/firefox/firefox");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT,
	       "allow flatpak org.mozilla.firefox connect tcp to 192.0.2.1 port 80;");
	snap_mounts_add("firefox/4173", SNAP_YAML_APPLICATION);
	strcpy(q->exe, "/snap/firefox/4173/usr/lib/firefox/firefox");
	expect(q, PFSEL_ANSWER_DENY, RULE_WIDTH_PORT,
	       "deny snap firefox connect tcp to any port 80;");
	strcpy(q->exe, "/usr/bin/python3");
	strcpy(q->script, "/var/lib/flatpak/app/org.example.Tool/x86_64/"
			  "master/9/files/bin/tool.py");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /usr/bin/python3 script flatpak org.example.Tool connect tcp to 192.0.2.1;");
	q->script[0] = '\0';
	strcpy(q->exe, "/home/a/.local/share/flatpak/app/org.mozilla.firefox/"
		       "x86_64/stable/1/files/bin/firefox");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /home/a/.local/share/flatpak/app/org.mozilla.firefox/x86_64/stable/1/files/bin/firefox connect tcp to 192.0.2.1;");
	strcpy(q->exe, "/var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/"
		       "1/files/bin/sh");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /var/lib/flatpak/runtime/org.gnome.Platform/x86_64/46/1/files/bin/sh connect tcp to 192.0.2.1;");
	strcpy(q->exe, "/var/lib/flatpak/app/org.mozilla/x86_64/stable/1/x");
	expect(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_ADDRESS,
	       "allow /var/lib/flatpak/app/org.mozilla/x86_64/stable/1/x connect tcp to 192.0.2.1;");
	free(q);
}

static void test_refused(void **state)
{
	struct pfsel_question *q = question();
	char buf[512];

	(void)state;
	strcpy(q->exe, "?");
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, 0, buf,
				       sizeof(buf)),
			 -EINVAL);
	strcpy(q->exe, "/usr/bin/curl");
	strcpy(q->script, "relative.py");
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, 0, buf,
				       sizeof(buf)),
			 -EINVAL);
	q->script[0] = '\0';
	assert_int_equal(question_rule(q, 2, 0, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_COUNT,
				       buf, sizeof(buf)),
			 -EINVAL);
	q->op = PFSEL_OP_COUNT;
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, 0, buf,
				       sizeof(buf)),
			 -EINVAL);
	q->op = PFSEL_OP_CONNECT;
	/* Too small: an error and no half rule, never a shorter rule. */
	assert_int_equal(question_rule(q, PFSEL_ANSWER_ALLOW, 0, buf, 20),
			 -ENOSPC);
	assert_string_equal(buf, "");
	free(q);
}

static void test_width_names(void **state)
{
	(void)state;
	assert_string_equal(rule_width_name(RULE_WIDTH_EXACT),
			    "this address and port");
	assert_string_equal(rule_width_name(RULE_WIDTH_ADDRESS),
			    "this address");
	assert_string_equal(rule_width_name(RULE_WIDTH_PORT), "this port");
	assert_string_equal(rule_width_name(RULE_WIDTH_HOST), "this host name");
	assert_string_equal(rule_width_name(RULE_WIDTH_DOMAIN), "its domain");
	assert_string_equal(rule_width_name(RULE_WIDTH_COUNT), "?");
}

static const char *real_pfwc(void)
{
	static char path[512];
	const char *root = getenv("ROOT");

	snprintf(path, sizeof(path), "%s/build/bin/pfwc", root ? root : "..");
	return access(path, X_OK) ? NULL : path;
}

/* pfwc --query @policy for @app connect tcp @addr @port starts with @want. */
static void query(const char *pfwc, const char *policy, const char *app,
		  const char *addr, unsigned int port, const char *want)
{
	char cmd[1024], out[512] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' --query '%s' '%s' connect tcp %s %u",
		 pfwc, policy, app, addr, port);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	pclose(p);
	if (strncmp(out, want, strlen(want)) || out[strlen(want)] != ' ')
		fail_msg("%s %s %u: got '%s', want %s", app, addr, port, out,
			 want);
}

/*
 * Each width's rule, compiled by the real pfwc before the rule that
 * asked: it covers this address and port, this address, or this port,
 * as its name says, and nothing else.
 */
static void test_pfwc_reads_each_width(void **state)
{
	static const char *const app = "/tmp/globdir/*";
	const char *pfwc = real_pfwc();
	char rule[1024], text[2048], cmd[1024];
	struct pfsel_question *q;
	unsigned int w;

	(void)state;
	if (!pfwc)
		skip();
	q = question();
	strcpy(q->exe, app);
	/* The address widths: the host widths need a name (below). */
	for (w = 0; w <= RULE_WIDTH_PORT; w++) {
		assert_true(question_rule(q, PFSEL_ANSWER_ALLOW, w, rule,
					  sizeof(rule)) > 0);
		snprintf(text, sizeof(text),
			 "%s\ndefault deny;\nask * connect tcp;\n", rule);
		put("w.pfw", text, 0600);
		snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s'", pfwc,
			 in("w.pfsel"), in("w.pfw"));
		if (system(cmd))
			fail_msg("pfwc rejected '%s'", rule);
		query(pfwc, in("w.pfsel"), app, "192.0.2.1", 80, "allow");
		query(pfwc, in("w.pfsel"), app, "192.0.2.1", 81,
		      w == RULE_WIDTH_ADDRESS ? "allow" : "ask");
		query(pfwc, in("w.pfsel"), app, "192.0.2.2", 80,
		      w == RULE_WIDTH_PORT ? "allow" : "ask");
		query(pfwc, in("w.pfsel"), app, "192.0.2.2", 81, "ask");
		/* The exact path: not a sibling. */
		query(pfwc, in("w.pfsel"), "/tmp/globdir/y", "192.0.2.1", 80,
		      "ask");
	}
	/*
	 * A Flatpak application's rule covers its every executable, in
	 * every version, and nothing of another application, a runtime or
	 * a user's installation.
	 */
	strcpy(q->exe, "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/"
		       "stable/4a1f/files/lib/firefox/firefox");
	assert_true(question_rule(q, PFSEL_ANSWER_ALLOW, RULE_WIDTH_EXACT, rule,
				  sizeof(rule)) > 0);
	snprintf(text, sizeof(text), "%s\ndefault deny;\nask * connect tcp;\n",
		 rule);
	put("f.pfw", text, 0600);
	snprintf(cmd, sizeof(cmd), "'%s' -Werror -o '%s' '%s'", pfwc,
		 in("f.pfsel"), in("f.pfw"));
	if (system(cmd))
		fail_msg("pfwc rejected '%s'", rule);
	query(pfwc, in("f.pfsel"), q->exe, "192.0.2.1", 80, "allow");
	query(pfwc, in("f.pfsel"),
	      "/var/lib/flatpak/app/org.mozilla.firefox/aarch64/esr/77/files/"
	      "bin/glxtest",
	      "192.0.2.1", 80, "allow");
	query(pfwc, in("f.pfsel"),
	      "/var/lib/flatpak/app/org.mozilla.firefox.Locale/x86_64/stable/"
	      "1/files/x",
	      "192.0.2.1", 80, "ask");
	query(pfwc, in("f.pfsel"),
	      "/var/lib/flatpak/runtime/org.mozilla.firefox/x86_64/stable/1/"
	      "files/x",
	      "192.0.2.1", 80, "ask");
	query(pfwc, in("f.pfsel"),
	      "/home/a/.local/share/flatpak/app/org.mozilla.firefox/x86_64/"
	      "stable/4a1f/files/lib/firefox/firefox",
	      "192.0.2.1", 80, "ask");
	strcpy(q->exe, app);
	/* IPv6, and bind's "on": pfwc takes them too. */
	pfsel_parse_addr("2001:db8::1", q->raddr);
	for (w = 0; w <= RULE_WIDTH_PORT; w++) {
		q->op = w == RULE_WIDTH_PORT ? PFSEL_OP_BIND : PFSEL_OP_CONNECT;
		assert_true(question_rule(q, PFSEL_ANSWER_DENY, w, rule,
					  sizeof(rule)) > 0);
		put("v6.pfw", rule, 0600);
		snprintf(cmd, sizeof(cmd), "'%s' -o '%s' '%s'", pfwc,
			 in("v6.pfsel"), in("v6.pfw"));
		if (system(cmd))
			fail_msg("pfwc rejected '%s'", rule);
	}
	free(q);
}

/*
 * pfwc --query @policy with the host names @hosts ("" none) for @app
 * @op tcp @addr @port: the verdict word @want.
 */
static void query_hosts(const char *pfwc, const char *policy, const char *app,
			const char *op, const char *hosts, const char *addr,
			unsigned int port, const char *want)
{
	char cmd[1024], args[256] = "", out[512] = "", *save = NULL, *name;
	char list[128];
	FILE *p;

	snprintf(list, sizeof(list), "%s", hosts);
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save))
		snprintf(args + strlen(args), sizeof(args) - strlen(args),
			 " --host '%s'", name);
	snprintf(cmd, sizeof(cmd), "'%s' --query%s '%s' '%s' %s tcp %s %u",
		 pfwc, args, policy, app, op, addr, port);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	pclose(p);
	if (strncmp(out, want, strlen(want)) || out[strlen(want)] != ' ')
		fail_msg("%s %s [%s] %s %u: got '%s', want %s", app, op, hosts,
			 addr, port, out, want);
}

/*
 * The host widths' rules, compiled by the real pfwc (-Werror) before the
 * rule that asked: "host" covers that name and port, whatever the
 * address; "domain" any name below the parent, not the parent itself;
 * neither covers an address with no name, another port, another name.
 */
static void test_pfwc_reads_host_widths(void **state)
{
	static const char *const app = "/tmp/globdir/*";
	const char *pfwc = real_pfwc();
	char rule[1024], text[2048], cmd[1024];
	struct pfsel_question *q;
	unsigned int w;
	int op;

	(void)state;
	if (!pfwc)
		skip();
	q = question();
	strcpy(q->exe, app);
	strcpy(q->hosts, "www.example.org,example.org");
	for (op = PFSEL_OP_CONNECT; op <= PFSEL_OP_ACCEPT;
	     op += PFSEL_OP_ACCEPT - PFSEL_OP_CONNECT) {
		const char *opname = pfsel_op_name((unsigned int)op);

		q->op = (uint8_t)op;
		for (w = RULE_WIDTH_HOST; w <= RULE_WIDTH_DOMAIN; w++) {
			const char *sibling = w == RULE_WIDTH_DOMAIN ? "allow" :
								       "ask";

			assert_true(question_rule(q, PFSEL_ANSWER_ALLOW, w,
						  rule, sizeof(rule)) > 0);
			snprintf(text, sizeof(text),
				 "%s\ndefault deny;\nask * %s tcp;\n", rule,
				 opname);
			put("h.pfw", text, 0600);
			snprintf(cmd, sizeof(cmd), "'%s' -Werror -o '%s' '%s'",
				 pfwc, in("h.pfsel"), in("h.pfw"));
			if (system(cmd))
				fail_msg("pfwc rejected '%s'", rule);
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "www.example.org", "192.0.2.1", 80,
				    "allow");
			/* The name moved: the rule follows it. */
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "www.example.org", "198.51.100.1", 80,
				    "allow");
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "www.example.org", "192.0.2.1", 81, "ask");
			query_hosts(pfwc, in("h.pfsel"), app, opname, "",
				    "192.0.2.1", 80, "ask");
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "mail.example.org", "192.0.2.1", 80,
				    sibling);
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "example.org", "192.0.2.1", 80, "ask");
			query_hosts(pfwc, in("h.pfsel"), app, opname,
				    "www.example.net", "192.0.2.1", 80, "ask");
			/* The exact path: not a sibling. */
			query_hosts(pfwc, in("h.pfsel"), "/tmp/globdir/y",
				    opname, "www.example.org", "192.0.2.1", 80,
				    "ask");
		}
	}
	free(q);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_setup("/tmp/pfsel-answer-rule.XXXXXX");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths_connect),
		cmocka_unit_test(test_widths_other_ops),
		cmocka_unit_test(test_widths_host),
		cmocka_unit_test(test_widths_host_refused),
		cmocka_unit_test(test_widths_without_port),
		cmocka_unit_test(test_exact_paths),
		cmocka_unit_test_setup_teardown(test_sandbox_identities, setup,
						teardown),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_width_names),
		cmocka_unit_test_setup_teardown(test_pfwc_reads_each_width,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_pfwc_reads_host_widths,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
