// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for pfsel-agent's rule file (pfsel-tools/agent/rules.c: .pfw
 * rules with a scope, read by libpfw, and a question as the request it
 * asks about) and its decision sources (rules, auto, terminal).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "prompt_wire.h"

static struct pfsel_question *q_connect(const char *exe, const char *addr,
					unsigned int port)
{
	struct pfsel_question *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	strcpy(q->exe, exe);
	q->op = PFSEL_OP_CONNECT;
	q->proto = PFSEL_PROTO_TCP;
	assert_int_equal(pfsel_parse_addr(addr, q->raddr), 0);
	q->rport = (uint16_t)port;
	return q;
}

/* The repository's services file: the one pfwc and the agent install. */
static const char *services(void)
{
	static char path[512];
	const char *root = getenv("ROOT");

	snprintf(path, sizeof(path), "%s/policy/services", root ? root : "..");
	return path;
}

/* Reads @text as the rule file "r"; @messages gets what it says. */
static struct agent_rules *parse_saying(const char *text, char **messages)
{
	char err[256] = "";
	size_t len = 0;
	FILE *out = open_memstream(messages, &len);
	struct agent_rules *r;

	assert_non_null(out);
	r = agent_rules_parse("r", text, services(), out, err, sizeof(err));
	fclose(out);
	if (!r)
		*messages =
			strcat(realloc(*messages, len + strlen(err) + 1), err);
	return r;
}

static struct agent_rules *parse(const char *text)
{
	char *messages = NULL;
	struct agent_rules *r = parse_saying(text, &messages);

	if (!r)
		print_error("%s\n", messages);
	free(messages);
	assert_non_null(r);
	return r;
}

static void test_first_match_wins(void **state)
{
	struct agent_rules *r = parse(
		"# a comment\n"
		"\n"
		"deny /usr/bin/curl connect tcp to 192.0.2.0/24 port 80; # inline\n"
		"allow /usr/bin/* connect, bind tcp, udp to any port 1-1023\n"
		"\tscope session;\n"
		"allow * scope always;\n");
	struct pfsel_question *q = q_connect("/usr/bin/curl", "192.0.2.9", 80);
	struct agent_decision d;
	unsigned int line;

	(void)state;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_ONCE);
	assert_int_equal(line, 3);

	q->rport = 443;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	assert_int_equal(line, 4);

	q->rport = 8080;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_ALWAYS);
	assert_int_equal(line, 6);
	agent_rules_free(r);
	free(q);
}

static void test_app_patterns(void **state)
{
	struct agent_rules *r =
		parse("allow /usr/bin/python3 script /home/a/**;\n"
		      "deny /usr/lib/* scope once;\n"
		      "allow /opt/app/** scope process;\n");
	struct pfsel_question *q = q_connect("/usr/bin/python3", "::1", 1);
	struct agent_decision d;
	unsigned int line;

	(void)state;
	/* EXE script SCRIPT needs a script. */
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	strcpy(q->script, "/home/a/bin/x.py");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 1);
	strcpy(q->script, "/home/b/x.py");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);

	/* DIR/ followed by one star: one component, not deeper. */
	q->script[0] = '\0';
	strcpy(q->exe, "/usr/lib/x");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 2);
	strcpy(q->exe, "/usr/lib/x/y");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	strcpy(q->exe, "/usr/libx");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);

	/* Two stars: any depth, but not the folder itself. */
	strcpy(q->exe, "/opt/app/bin/run");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 3);
	strcpy(q->exe, "/opt/app");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	agent_rules_free(r);
	free(q);
}

static void test_addresses_and_ports(void **state)
{
	struct agent_rules *r = parse(
		"allow * connect tcp to ::ffff:10.0.0.0/104, 2001:db8::/32\n"
		"\tport 22, 80-90;\n");
	struct pfsel_question *q = q_connect("/bin/x", "10.9.9.9", 22);
	struct agent_decision d;

	(void)state;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	q->rport = 85;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	q->rport = 91;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 0);
	q->rport = 80;
	pfsel_parse_addr("2001:db8:ffff::1", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	pfsel_parse_addr("2001:db9::1", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 0);
	pfsel_parse_addr("11.0.0.1", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 0);
	/* Operation and protocol must be listed. */
	pfsel_parse_addr("10.0.0.1", q->raddr);
	q->proto = PFSEL_PROTO_UDP;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 0);
	q->proto = PFSEL_PROTO_TCP;
	q->op = PFSEL_OP_BIND;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 0);
	agent_rules_free(r);

	/* IPv4 prefixes are IPv4-mapped; a create has no address. */
	r = parse("allow * to 10.0.0.0/8;\n"
		  "allow * create scope process;\n");
	q->op = PFSEL_OP_CONNECT;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_ONCE);
	q->op = PFSEL_OP_CREATE;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	agent_rules_free(r);
	free(q);
}

/* Names, services, families, protocols without ports: .pfw's own. */
static void test_pfw_language(void **state)
{
	struct agent_rules *r = parse(
		"apps curl = /usr/bin/curl;\n"
		"hosts docs = 192.0.2.0/24, 2001:db8::/32;\n"
		"allow curl connect tcp to docs port http, https scope session;\n"
		"deny * connect family inet6 scope process;\n"
		"allow * create tcp family inet;\n"
		"deny * create packet scope always;\n"
		"allow * icmp;\n");
	struct pfsel_question *q = q_connect("/usr/bin/curl", "192.0.2.1", 443);
	struct agent_decision d;
	unsigned int line;

	(void)state;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 3);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	/* Port 22 is not http or https: to IPv6, the family rule. */
	q->rport = 22;
	pfsel_parse_addr("2001:db8::1", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 4);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	pfsel_parse_addr("192.0.2.1", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	/* create: the socket's family; a packet socket has none. */
	q->op = PFSEL_OP_CREATE;
	q->family = PFSEL_FAMILY_INET6;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	q->family = PFSEL_FAMILY_INET;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 5);
	q->proto = PFSEL_PROTO_PACKET;
	q->family = PFSEL_FAMILY_PACKET;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 6);
	assert_int_equal(d.scope, PFSEL_SCOPE_ALWAYS);
	/* icmp carries port 0; a rule without a port clause matches it. */
	q->op = PFSEL_OP_CONNECT;
	q->proto = PFSEL_PROTO_ICMP;
	q->rport = 0;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 7);
	/* A question out of range matches nothing. */
	q->op = PFSEL_OP_COUNT;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	agent_rules_free(r);
	free(q);
}

/*
 * "host" elements match the names the kernel knows for the address
 * (PFSEL_ATTR_HOSTS), as in a policy: a name, a domain's names (not the
 * domain itself), beside addresses; a question without names matches
 * only the addresses.  The first rule that matches, by address or by any
 * name, decides.
 */
static void test_host_names(void **state)
{
	struct agent_rules *r = parse(
		"hosts mozilla = host *.mozilla.org, host mozilla.org;\n"
		"deny * connect tcp to host ads.example.org scope session;\n"
		"allow /usr/bin/firefox connect tcp to mozilla port https;\n"
		"allow * connect tcp to host *.example.org, 10.0.0.0/8 port 443;\n"
		"allow * accept tcp from host client.example.net;\n");
	struct pfsel_question *q =
		q_connect("/usr/bin/firefox", "192.0.2.1", 443);
	struct agent_decision d;
	unsigned int line;

	(void)state;
	/* No names: the address alone, which no rule lists. */
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	strcpy(q->hosts, "www.mozilla.org");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 3);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	strcpy(q->hosts, "mozilla.org");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 3);
	/* Any name of the address: the second matches line 4. */
	strcpy(q->hosts, "cdn.example.net,www.example.org");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 4);
	/* *.example.org is not example.org itself. */
	strcpy(q->hosts, "example.org");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	/* The first rule that matches any name decides: line 2 before 3. */
	strcpy(q->hosts, "www.mozilla.org,ADS.example.org");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 2);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	/* The address still counts beside the names. */
	strcpy(q->hosts, "www.example.com");
	pfsel_parse_addr("10.1.2.3", q->raddr);
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 4);
	q->rport = 80;
	assert_int_equal(agent_rules_match(r, q, &d, &line), 0);
	/* accept: the peer's names. */
	q->op = PFSEL_OP_ACCEPT;
	strcpy(q->hosts, "client.example.net");
	assert_int_equal(agent_rules_match(r, q, &d, &line), 1);
	assert_int_equal(line, 5);
	agent_rules_free(r);
	free(q);
}

/* Every error, as pfwc reports it: FILE:LINE:COL, the line, a caret. */
static void test_syntax_errors(void **state)
{
	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{ "allow * connect tcp\n",
		  "r:1:20: error: expected ';' after the rule\n"
		  "allow * connect tcp\n"
		  "                   ^\n" },
		{ "\nmaybe * connect;\n",
		  "r:2:1: error: expected a statement, but found 'maybe'\n"
		  "maybe * connect;\n"
		  "^\n" },
		{ "allow * scope forever;\n",
		  "r:1:15: error: expected a scope: 'once', 'process', 'session' or 'always', but found 'forever'\n"
		  "allow * scope forever;\n"
		  "              ^\n" },
		{ "ask * connect;\n",
		  "r:1:1: error: 'ask' is for a policy, not a rule file: a rule file is the agent's answer, and its rules say 'allow' or 'deny'\n"
		  "ask * connect;\n"
		  "^\n" },
		{ "default deny;\n",
		  "r:1:1: error: 'default' is for a policy" },
		{ "allow * log;\n", "r:1:9: error: 'log' is for a policy" },
		{ "allow curl;\n",
		  "r:1:7: error: no apps named 'curl' is defined" },
		{ "allow /usr/*/bin;\n",
		  "r:1:7: error: '*' may only be a whole last component" },
		{ "allow * send;\n",
		  "r:1:9: error: expected an operation, a protocol, 'family', 'to', 'from', 'on', 'port', 'scope' or ';', but found 'send'" },
		{ "allow * sctp;\n", "r:1:9: error: expected an operation" },
		{ "allow * to 10.0.0.0/33;\n", "r:1:12: error: " },
		{ "allow * to example.org;\n",
		  "r:1:12: error: a host name follows 'host': write 'host example.org'" },
		{ "allow * to host *example.org;\n", "r:1:17: error: " },
		{ "allow * to example;\n",
		  "r:1:12: error: no hosts named 'example' is defined or built in" },
		{ "allow * port 70000;\n",
		  "r:1:14: error: port 70000 is out of range" },
		{ "allow * port 90-80;\n",
		  "r:1:14: error: port range 90-80 is empty" },
		{ "allow * port htps;\n",
		  "r:1:14: error: no ports named 'htps' is defined or listed as a service; did you mean 'https'?" },
		{ "include \"/etc/passwd\";\n",
		  "r:1:1: error: 'include' is for a policy" },
	};
	char *messages, err[256];
	size_t i, len;
	FILE *out;
	bool ok;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		messages = NULL;
		out = open_memstream(&messages, &len);
		assert_non_null(out);
		err[0] = '\0';
		ok = !agent_rules_parse("r", bad[i].text, services(), out, err,
					sizeof(err));
		fclose(out);
		ok = ok && strstr(messages, bad[i].message) &&
		     !strcmp(err, "r: not read: 1 error");
		if (!ok)
			print_error("'%s': expected '%s', got:\n%s%s\n",
				    bad[i].text, bad[i].message, messages, err);
		free(messages);
		assert_true(ok);
	}
}

/* Every independent error is reported; warnings do not stop the file. */
static void test_messages(void **state)
{
	char *messages = NULL;
	struct agent_rules *r;

	(void)state;
	r = parse_saying("ask *;\nallow * scope forever;\n", &messages);
	assert_null(r);
	assert_non_null(strstr(messages, "r:1:1: error: 'ask'"));
	assert_non_null(strstr(messages, "r:2:15: error: expected a scope"));
	free(messages);

	messages = NULL;
	r = parse_saying("allow *;\ndeny /usr/bin/curl;\n", &messages);
	assert_non_null(r);
	assert_non_null(strstr(messages, "r:2:1: warning: "));
	assert_non_null(strstr(messages, "[-Wshadow]"));
	free(messages);
	agent_rules_free(r);
}

/* The rules source, from a file. */
static void test_source_rules(void **state)
{
	char path[] = "/tmp/pfsel-agent-rules.XXXXXX", err[256];
	const char text[] = "deny * connect tcp to ::1 port 1 scope session;\n";
	struct pfsel_question *q = q_connect("/bin/x", "::1", 1);
	struct agent_decision d;
	struct agent_source *s;
	FILE *null = fopen("/dev/null", "w");
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	s = source_rules_new(path, NULL, null, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->post(s, q, 0, &d), AGENT_DECIDED);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	q->rport = 2;
	assert_int_equal(s->post(s, q, 0, &d), AGENT_PASSED);
	s->destroy(s);
	/* Without services, a service name is an error. */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "allow * port ssh;\n", 18), 18);
	close(fd);
	assert_null(source_rules_new(path, NULL, null, err, sizeof(err)));
	assert_non_null(strstr(err, ": not read: 1 error"));
	unlink(path);
	assert_null(source_rules_new(path, NULL, null, err, sizeof(err)));
	assert_non_null(strstr(err, "open("));
	fclose(null);
	free(q);
}

static void test_source_auto(void **state)
{
	struct agent_source *s =
		source_auto_new(PFSEL_ANSWER_DENY, PFSEL_SCOPE_PROCESS);
	struct pfsel_question *q = q_connect("/bin/x", "::1", 1);
	struct agent_decision d;

	(void)state;
	assert_int_equal(s->post(s, q, 0, &d), AGENT_DECIDED);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	s->destroy(s);
	free(q);
}

/*
 * The terminal source, fed through a pipe, as the agent's loop drives it:
 * the question posted, the answer collected when the input is readable,
 * the question taken back at its deadline.  1 with @d for an answer, 0
 * for none.
 */
static int terminal(const char *input, long long timeout_ms,
		    struct agent_decision *d)
{
	struct pfsel_question *q = q_connect("/bin/x", "::1", 1);
	FILE *out = fopen("/dev/null", "w");
	const long long deadline =
		agent_now_ms() + (timeout_ms < 0 ? 5000 : timeout_ms);
	struct agent_source *s;
	struct pollfd pfd;
	uint64_t id;
	int fds[2], rc;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], input, strlen(input)),
			 (ssize_t)strlen(input));
	if (timeout_ms < 0)
		close(fds[1]);
	s = source_terminal_new(fds[0], out);
	assert_int_equal(s->post(s, q, deadline, d), AGENT_TAKEN);
	for (rc = 0; !rc;) {
		pfd = (struct pollfd){ .fd = s->fd(s), .events = POLLIN };
		if (agent_now_ms() >= deadline ||
		    poll(&pfd, 1, (int)(deadline - agent_now_ms())) == 0) {
			s->withdraw(s, q->id, PROMPT_WITHDRAW_EXPIRED);
			break;
		}
		rc = s->collect(s, &id, d);
	}
	if (rc == AGENT_ANSWER)
		assert_int_equal(id, q->id);
	s->destroy(s);
	close(fds[0]);
	if (timeout_ms >= 0)
		close(fds[1]);
	fclose(out);
	free(q);
	return rc == AGENT_ANSWER;
}

static void test_source_terminal(void **state)
{
	struct agent_decision d;

	(void)state;
	assert_int_equal(terminal("allow\n", 5000, &d), 1);
	assert_int_equal(d.verdict, PFSEL_ANSWER_ALLOW);
	assert_int_equal(d.scope, PFSEL_SCOPE_ONCE);
	assert_int_equal(terminal("\nwhat\nd a\n", 5000, &d), 1);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_ALWAYS);
	assert_int_equal(terminal("deny session", -1, &d), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_SESSION);
	/* End of input, or time out: no answer. */
	assert_int_equal(terminal("", -1, &d), 0);
	assert_int_equal(terminal("allo", 100, &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_match_wins),
		cmocka_unit_test(test_app_patterns),
		cmocka_unit_test(test_addresses_and_ports),
		cmocka_unit_test(test_pfw_language),
		cmocka_unit_test(test_host_names),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_source_rules),
		cmocka_unit_test(test_source_auto),
		cmocka_unit_test(test_source_terminal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
