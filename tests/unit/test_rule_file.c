// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for pfsel-agent's rule file as libpfw reads it
 * (compiler/rule_file.c, the parser's rule-file grammar) and for
 * pfw_first_match() (ast.c): rules that are answers, with a scope; what a
 * rule file may not say, each an error with its place and a caret; and
 * "scope" in a policy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "frontend_util.h"
#include "pfsel.h"
#include "rule_file.h"

struct read_rules {
	struct pfw_policy *rules;
	struct pfw_diag diag;
	struct pfw_services *services;
	char *messages;
	size_t messages_len;
	FILE *out;
};

/* Reads @text as the rule file "r.rules", with the tests' services. */
static void read_rules(struct read_rules *r, const char *text)
{
	memset(r, 0, sizeof(*r));
	r->out = open_memstream(&r->messages, &r->messages_len);
	pfw_diag_init(&r->diag, r->out);
	r->services = pfw_services_parse("test.services", test_services_text,
					 strlen(test_services_text), &r->diag);
	r->rules = pfw_rule_file_parse("r.rules", text, strlen(text),
				       r->services, &r->diag);
	fflush(r->out);
}

static void read_rules_free(struct read_rules *r)
{
	fclose(r->out);
	free(r->messages);
	pfw_policy_free(r->rules);
	pfw_services_free(r->services);
	pfw_diag_fini(&r->diag);
}

static struct pfw_request connect_to(const char *exe, const char *addr,
				     uint16_t port)
{
	struct pfw_request request = {
		.exe = exe,
		.op = PFW_OP_CONNECT,
		.proto = PFW_PROTO_TCP,
		.port = port,
	};

	address_of(addr, request.addr);
	return request;
}

/* The line of the rule that answers @request, 0 when none does. */
static unsigned int answer_line(const struct read_rules *r,
				const struct pfw_request *request)
{
	const struct pfw_rule *rule = pfw_first_match(r->rules, request);

	return rule ? rule->loc.line : 0;
}

static void test_answers_and_scopes(void **state)
{
	struct read_rules r;
	struct pfw_request q = connect_to("/usr/bin/curl", "192.0.2.9", 80);

	(void)state;
	read_rules(&r,
		   "# answers\n"
		   "deny /usr/bin/curl connect tcp to 192.0.2.0/24 port 80;\n"
		   "allow /usr/bin/* connect, bind tcp, udp port 1-1023\n"
		   "      scope session;\n"
		   "allow * scope always;\n"
		   "deny * scope once;\n");
	assert_non_null(r.rules);
	assert_int_equal(r.diag.errors, 0);
	assert_int_equal(r.rules->n_rules, 4);
	assert_int_equal(r.rules->rules[0].verdict, PFW_VERDICT_DENY);
	assert_int_equal(r.rules->rules[0].scope, PFSEL_SCOPE_ONCE);
	assert_int_equal(r.rules->rules[1].scope, PFSEL_SCOPE_SESSION);
	assert_int_equal(r.rules->rules[2].scope, PFSEL_SCOPE_ALWAYS);
	assert_int_equal(r.rules->rules[3].scope, PFSEL_SCOPE_ONCE);
	/* The first match answers. */
	assert_int_equal(answer_line(&r, &q), 2);
	q.port = 443;
	assert_int_equal(answer_line(&r, &q), 3);
	q.port = 8080;
	assert_int_equal(answer_line(&r, &q), 5);
	/* The last rule can never answer: -Wshadow says so, as pfwc does. */
	assert_int_equal(r.diag.warnings, 1);
	assert_non_null(strstr(r.messages, "r.rules:6:1: warning: "));
	read_rules_free(&r);
}

static void test_names_and_requests(void **state)
{
	struct read_rules r;
	struct pfw_request q = connect_to("/usr/bin/python3", "10.1.2.3", 443);

	(void)state;
	read_rules(&r,
		   "apps sync = /usr/bin/python3 script /home/a/bin/**;\n"
		   "hosts lan = private;\n"
		   "allow sync connect tcp to lan port https scope process;\n"
		   "allow * create tcp family inet6;\n"
		   "allow * create packet;\n");
	assert_non_null(r.rules);
	/* The script form needs the script. */
	assert_int_equal(answer_line(&r, &q), 0);
	q.script = "/home/a/bin/sync.py";
	assert_int_equal(answer_line(&r, &q), 3);
	assert_int_equal(pfw_first_match(r.rules, &q)->scope,
			 PFSEL_SCOPE_PROCESS);
	/* Ports of the named service only, addresses of the name only. */
	q.port = 80;
	assert_int_equal(answer_line(&r, &q), 0);
	q.port = 443;
	address_of("192.0.2.1", q.addr);
	assert_int_equal(answer_line(&r, &q), 0);
	/* create: the socket's family, no address; packet has no family. */
	q = (struct pfw_request){ .exe = "/bin/x",
				  .op = PFW_OP_CREATE,
				  .proto = PFW_PROTO_TCP,
				  .family = PFW_FAMILY_INET6 };
	assert_int_equal(answer_line(&r, &q), 4);
	q.family = PFW_FAMILY_INET;
	assert_int_equal(answer_line(&r, &q), 0);
	q.proto = PFW_PROTO_PACKET;
	q.family = 0;
	assert_int_equal(answer_line(&r, &q), 5);
	read_rules_free(&r);
}

/* @text fails to read, and the messages hold @message. */
static void bad(const char *text, const char *message)
{
	struct read_rules r;
	bool ok;

	read_rules(&r, text);
	ok = !r.rules && strstr(r.messages, message);
	if (!ok)
		print_error("'%s': expected '%s', got:\n%s", text, message,
			    r.messages);
	read_rules_free(&r);
	assert_true(ok);
}

static void test_not_in_a_rule_file(void **state)
{
	(void)state;
	/* The file is the answer. */
	bad("allow * port 1;\nask * connect;\n",
	    "r.rules:2:1: error: 'ask' is for a policy, not a rule file: a rule file is the agent's answer, and its rules say 'allow' or 'deny'\n"
	    "ask * connect;\n"
	    "^\n");
	bad("ask timeout 3s;\n",
	    "r.rules:1:1: error: 'ask timeout' is for a policy, not a rule file");
	bad("ask unanswered deny;\n",
	    "r.rules:1:1: error: 'ask unanswered' is for a policy");
	bad("default deny;\n",
	    "r.rules:1:1: error: 'default' is for a policy, not a rule file: a rule file holds rules and definitions, no settings\n");
	bad("policy user;\n", "r.rules:1:1: error: 'policy' is for a policy");
	bad("mode permissive;\n", "r.rules:1:1: error: 'mode' is for a policy");
	bad("include \"other.rules\";\n",
	    "r.rules:1:1: error: 'include' is for a policy, not a rule file: the agent reads its rule file alone");
	bad("allow * connect log;\n",
	    "r.rules:1:17: error: 'log' is for a policy, not a rule file: a rule there is an answer, and the policy's rule that asked says what is audited\n"
	    "allow * connect log;\n"
	    "                ^\n");
	bad("deny * quiet;\n", "r.rules:1:8: error: 'quiet' is for a policy");
	bad("allow /usr/bin/ssh protect;\n",
	    "r.rules:1:20: error: 'protect' is for a policy, not a rule file: a rule there is an answer, which protects no application");
}

static void test_scope_errors(void **state)
{
	struct compiled c;

	(void)state;
	bad("allow * connect tcp scope forever;\n",
	    "r.rules:1:27: error: expected a scope: 'once', 'process', 'session' or 'always', but found 'forever'\n"
	    "allow * connect tcp scope forever;\n"
	    "                          ^\n");
	bad("allow * scope;\n", "r.rules:1:14: error: expected a scope");
	bad("allow * scope once connect scope session;\n",
	    "r.rules:1:28: error: the rule already has a scope\n");
	bad("allow * connect tcp to 10.0.0.1 port 22 forever;\n",
	    "r.rules:1:41: error: expected an operation, a protocol, 'family', 'to', 'from', 'on', 'port', 'scope' or ';', but found 'forever'");
	/* Every error is reported, one a statement, as pfwc does. */
	bad("allow * scope forever;\ndeny * log;\nask *;\n",
	    "r.rules:3:1: error: 'ask' is for a policy");
	/* Unknown names, as in a policy. */
	bad("allow * port htps;\n",
	    "r.rules:1:14: error: no ports named 'htps' is defined or listed as a service; did you mean 'https'?");

	/* In a policy, "scope" is the error; and it is a keyword now. */
	compile_text(&c, "allow * connect scope session;\n", NULL, false);
	assert_int_equal(c.errors, 1);
	assert_true(said(
		&c,
		"test.pfw:1:17: error: 'scope' is for pfsel-agent's rule file, not a policy: it says how long the agent's answer holds\n"));
	compiled_free(&c);
	compile_text(&c, "apps scope = /bin/x;\n", NULL, false);
	assert_true(said(&c, "'scope' is a keyword and cannot be a name"));
	compiled_free(&c);
	/* The scopes are no keywords: names elsewhere. */
	compile_text(&c, "apps session = /bin/x;\nallow session;\n", NULL,
		     false);
	assert_int_equal(c.errors, 0);
	compiled_free(&c);
}

/* A message without a place names the program that reads. */
static void test_program_name(void **state)
{
	struct pfw_diag diag;
	char *messages = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&messages, &len);

	(void)state;
	pfw_diag_init(&diag, out);
	diag.program = "pfsel-agent";
	assert_null(pfw_services_load("/nonexistent/services", &diag));
	fflush(out);
	assert_non_null(strstr(
		messages,
		"pfsel-agent: error: cannot read services file '/nonexistent/services': "));
	fclose(out);
	free(messages);
	pfw_diag_fini(&diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers_and_scopes),
		cmocka_unit_test(test_names_and_requests),
		cmocka_unit_test(test_not_in_a_rule_file),
		cmocka_unit_test(test_scope_errors),
		cmocka_unit_test(test_program_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
