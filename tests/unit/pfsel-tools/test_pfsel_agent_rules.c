// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for pfsel-agent's rule file (pfsel-tools/agent/rules.c) and
 * its decision sources (auto, terminal).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"

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

static struct agent_rules *parse(const char *text)
{
	char err[256];
	struct agent_rules *r = agent_rules_parse("r", text, err, sizeof(err));

	if (!r)
		fail_msg("parse: %s", err);
	return r;
}

static void test_first_match_wins(void **state)
{
	struct agent_rules *r = parse(
		"# a comment\n"
		"\n"
		"deny once /usr/bin/curl connect tcp 192.0.2.0/24 80   # inline\n"
		"allow session /usr/bin/* connect,bind tcp,udp any 1-1023\n"
		"allow always * * * * *\n");
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
	assert_int_equal(line, 5);
	agent_rules_free(r);
	free(q);
}

static void test_app_patterns(void **state)
{
	struct agent_rules *r =
		parse("allow once /usr/bin/python3:/home/a/** * * * *\n"
		      "deny once /usr/lib/* * * * *\n"
		      "allow process /opt/app/** * * * *\n");
	struct pfsel_question *q = q_connect("/usr/bin/python3", "::1", 1);
	struct agent_decision d;
	unsigned int line;

	(void)state;
	/* EXE:SCRIPT needs a script. */
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
		"allow once * connect tcp ::ffff:10.0.0.0/104,2001:db8::/32 22,80-90\n");
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
	r = parse(
		"allow once * * * 10.0.0.0/8 *\nallow process * create * * *\n");
	q->op = PFSEL_OP_CONNECT;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_ONCE);
	q->op = PFSEL_OP_CREATE;
	assert_int_equal(agent_rules_match(r, q, &d, NULL), 1);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	agent_rules_free(r);
	free(q);
}

static void test_syntax_errors(void **state)
{
	static const struct {
		const char *text;
		const char *message;
	} bad[] = {
		{ "allow once * * *\n", "r:1: expected 7 fields" },
		{ "\nmaybe once * * * * *\n", "r:2: bad verdict" },
		{ "a once * * * * *\n", "r:1: bad verdict" },
		{ "allow forever * * * * *\n", "r:1: bad scope" },
		{ "allow once curl * * * *\n", "r:1: bad application" },
		{ "allow once /usr/*/bin * * * *\n", "r:1: bad application" },
		{ "allow once * send * * *\n", "r:1: bad operation" },
		{ "allow once * * sctp * *\n", "r:1: bad protocol" },
		{ "allow once * * * 10.0.0.0/33 *\n", "r:1: bad address" },
		{ "allow once * * * example.org *\n", "r:1: bad address" },
		{ "allow once * * * * 70000\n", "r:1: bad port" },
		{ "allow once * * * * 90-80\n", "r:1: bad port" },
		{ "allow once * * * * http\n", "r:1: bad port" },
		{ "allow once * * * * 1 2\n", "r:1: expected 7 fields" },
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_null(
			agent_rules_parse("r", bad[i].text, err, sizeof(err)));
		if (strncmp(err, bad[i].message, strlen(bad[i].message)))
			fail_msg("'%s': got '%s'", bad[i].text, err);
	}
}

static void test_source_auto(void **state)
{
	struct agent_source *s =
		source_auto_new(PFSEL_ANSWER_DENY, PFSEL_SCOPE_PROCESS);
	struct pfsel_question *q = q_connect("/bin/x", "::1", 1);
	struct agent_decision d;

	(void)state;
	assert_int_equal(s->decide(s, q, 0, &d), 1);
	assert_int_equal(d.verdict, PFSEL_ANSWER_DENY);
	assert_int_equal(d.scope, PFSEL_SCOPE_PROCESS);
	s->destroy(s);
	free(q);
}

/* The terminal source, fed through a pipe. */
static int terminal(const char *input, long long timeout_ms,
		    struct agent_decision *d)
{
	struct pfsel_question *q = q_connect("/bin/x", "::1", 1);
	FILE *out = fopen("/dev/null", "w");
	struct agent_source *s;
	int fds[2], rc;

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], input, strlen(input)),
			 (ssize_t)strlen(input));
	if (timeout_ms < 0)
		close(fds[1]);
	s = source_terminal_new(fds[0], out);
	rc = s->decide(
		s, q, agent_now_ms() + (timeout_ms < 0 ? 5000 : timeout_ms), d);
	s->destroy(s);
	close(fds[0]);
	if (timeout_ms >= 0)
		close(fds[1]);
	fclose(out);
	free(q);
	return rc;
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
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_source_auto),
		cmocka_unit_test(test_source_terminal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
