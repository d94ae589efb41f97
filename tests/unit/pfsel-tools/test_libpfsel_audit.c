// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for libpfsel's request and audit records
 * (pfsel-tools/lib/request.c, audit.c): an audit record's text split into
 * fields, its fields decoded and checked, the request it decided picked
 * from the socket's two ends as the language names it; a question's
 * request; a request to the "check" file's and back.
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

#include <pfsel/pfsel.h>

#include "curl_question.h"

static void test_audit_string(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(0, pfsel_audit_string("\"/usr/bin/x\"", buf,
					       sizeof(buf)));
	assert_string_equal("/usr/bin/x", buf);
	assert_int_equal(0,
			 pfsel_audit_string("2F6120622F63", buf, sizeof(buf)));
	assert_string_equal("/a b/c", buf);
	assert_int_equal(0, pfsel_audit_string("?", buf, sizeof(buf)));
	assert_string_equal("", buf);
	assert_int_equal(-EBADMSG, pfsel_audit_string("2F6", buf, sizeof(buf)));
	assert_int_equal(-EBADMSG, pfsel_audit_string("ZZ", buf, sizeof(buf)));
	assert_int_equal(-EBADMSG,
			 pfsel_audit_string("2F00", buf, sizeof(buf)));
	assert_int_equal(-ENAMETOOLONG,
			 pfsel_audit_string("\"/a/long/one\"", buf, 4));
}

static void test_record_decode(void **state)
{
	struct pfsel_audit_field fields[] = {
		{ "op", "connect" },
		{ "verdict", "deny" },
		{ "permissive", "0" },
		{ "policy", "user" },
		{ "rule", "\"a.pfw\":3:1" },
		{ "family", "inet" },
		{ "protocol", "tcp" },
		{ "laddr", "0.0.0.0" },
		{ "lport", "0" },
		{ "raddr", "192.0.2.1" },
		{ "rport", "80" },
		{ "app", "\"/usr/bin/x\"" },
		{ "script", "?" },
		{ "uid", "1001" },
		{ "subj", "system_u:system_r:stack_probe_t" },
	};
	const size_t n = sizeof(fields) / sizeof(fields[0]);
	struct pfsel_audit_record *rec = malloc(sizeof(*rec));

	(void)state;
	assert_non_null(rec);
	assert_int_equal(0, pfsel_audit_record_decode(fields, n, rec));
	assert_string_equal("a.pfw:3:1", rec->rule);
	assert_false(rec->rule_default);
	assert_int_equal(80, rec->rport);
	assert_int_equal(1001, rec->uid);
	assert_string_equal("system_u:system_r:stack_probe_t", rec->subj);
	/* Without subj=, none. */
	assert_int_equal(0, pfsel_audit_record_decode(fields, n - 1, rec));
	assert_string_equal("", rec->subj);
	/* Each of these breaks it. */
	fields[4].value = "\"a.pfw\":x:1";
	assert_int_equal(-EBADMSG, pfsel_audit_record_decode(fields, n, rec));
	fields[4].value = "default";
	fields[10].value = "?"; /* a connect without its port */
	assert_int_equal(-EBADMSG, pfsel_audit_record_decode(fields, n, rec));
	fields[10].value = "70000";
	assert_int_equal(-EBADMSG, pfsel_audit_record_decode(fields, n, rec));
	fields[10].value = "80";
	fields[0].value = "shutdown";
	assert_int_equal(-EBADMSG, pfsel_audit_record_decode(fields, n, rec));
	fields[0].value = "connect";
	assert_int_equal(-EBADMSG,
			 pfsel_audit_record_decode(fields, n - 4, rec));

	/* hosts=: quoted or hex, a list of names; none when absent or ?. */
	assert_int_equal(0, pfsel_audit_record_decode(fields, n, rec));
	assert_string_equal("", rec->request.hosts);
	{
		struct pfsel_audit_field
			more[sizeof(fields) / sizeof(fields[0]) + 1];

		memcpy(more, fields, sizeof(fields));
		more[n].name = "hosts";
		more[n].value = "\"www.example.org,example.org\"";
		assert_int_equal(0,
				 pfsel_audit_record_decode(more, n + 1, rec));
		assert_string_equal("www.example.org,example.org",
				    rec->request.hosts);
		more[n].value = "612E6578616D706C65"; /* a.example */
		assert_int_equal(0,
				 pfsel_audit_record_decode(more, n + 1, rec));
		assert_string_equal("a.example", rec->request.hosts);
		more[n].value = "?";
		assert_int_equal(0,
				 pfsel_audit_record_decode(more, n + 1, rec));
		assert_string_equal("", rec->request.hosts);
		/* Not a list: "a b", "a,", a control byte. */
		more[n].value = "6120622E6578616D706C65";
		assert_int_equal(-EBADMSG,
				 pfsel_audit_record_decode(more, n + 1, rec));
		more[n].value = "\"a.example,\"";
		assert_int_equal(-EBADMSG,
				 pfsel_audit_record_decode(more, n + 1, rec));
		more[n].value = "611B2E6578616D706C65";
		assert_int_equal(-EBADMSG,
				 pfsel_audit_record_decode(more, n + 1, rec));
	}
	free(rec);
}

/* @line's record, decoded: 0 or -EBADMSG. */
static int decode_line(const char *line, struct pfsel_audit_record *rec)
{
	struct pfsel_audit_field fields[64];
	char text[4096];
	size_t n;

	snprintf(text, sizeof(text), "%s", line);
	n = pfsel_audit_fields(text, fields, 64);
	return pfsel_audit_record_decode(fields, n, rec);
}

#define HEAD "type=UNKNOWN[1430] msg=audit(1718000003.000:106): pfsel "
#define TAIL " app=\"/usr/bin/x\" script=? uid=1001 pid=7 comm=\"x\""

/* Which end is the request's: the language's, for every operation. */
static void test_record_request(void **state)
{
	struct pfsel_audit_record *rec = malloc(sizeof(*rec));
	uint8_t addr[16];

	(void)state;
	assert_non_null(rec);
	/* connect: the peer's address and port. */
	assert_int_equal(
		0,
		decode_line(HEAD "op=connect verdict=deny "
				 "permissive=0 policy=user rule=default "
				 "family=inet protocol=tcp laddr=10.0.0.2 "
				 "lport=40000 raddr=192.0.2.1 rport=443" TAIL,
			    rec));
	assert_int_equal(PFSEL_OP_CONNECT, rec->request.op);
	assert_int_equal(PFSEL_PROTO_TCP, rec->request.proto);
	assert_int_equal(PFSEL_VERDICT_DENY, rec->verdict);
	assert_int_equal(PFSEL_SLOT_USER, rec->policy);
	assert_int_equal(0, pfsel_parse_addr("192.0.2.1", addr));
	assert_memory_equal(addr, rec->request.addr, 16);
	assert_int_equal(443, rec->request.port);
	assert_string_equal("/usr/bin/x", rec->request.exe);
	assert_string_equal("", rec->request.script);
	assert_int_equal(7, rec->pid);
	/* bind and listen: the socket's own. */
	assert_int_equal(
		0,
		decode_line(HEAD "op=bind verdict=deny "
				 "permissive=0 policy=user rule=default "
				 "family=inet6 protocol=tcp laddr=2001:db8:: "
				 "lport=0 raddr=? rport=?" TAIL,
			    rec));
	assert_int_equal(0, pfsel_parse_addr("2001:db8::", addr));
	assert_memory_equal(addr, rec->request.addr, 16);
	assert_int_equal(0, rec->request.port);
	assert_int_equal(PFSEL_FAMILY_INET6, rec->request.family);
	/* accept: the peer's address, the port it was accepted on. */
	assert_int_equal(0, decode_line(HEAD
					"op=accept verdict=deny "
					"permissive=1 policy=system "
					"rule=\"s.pfw\":2:1 family=inet "
					"protocol=tcp laddr=10.0.0.1 lport=22 "
					"raddr=10.0.0.9 rport=51000" TAIL,
					rec));
	assert_int_equal(0, pfsel_parse_addr("10.0.0.9", addr));
	assert_memory_equal(addr, rec->request.addr, 16);
	assert_int_equal(22, rec->request.port);
	assert_true(rec->permissive);
	assert_int_equal(PFSEL_SLOT_SYSTEM, rec->policy);
	assert_string_equal("s.pfw:2:1", rec->rule);
	/* icmp: an address and no port; an IPv4-mapped address is IPv4. */
	assert_int_equal(
		0,
		decode_line(HEAD "op=connect verdict=allow "
				 "permissive=0 policy=user rule=default "
				 "family=inet6 protocol=icmp laddr=? "
				 "lport=? raddr=::ffff:192.0.2.7 rport=0" TAIL,
			    rec));
	assert_int_equal(0, pfsel_parse_addr("192.0.2.7", addr));
	assert_memory_equal(addr, rec->request.addr, 16);
	assert_int_equal(0, rec->request.port);
	assert_int_equal(PFSEL_VERDICT_ALLOW, rec->verdict);
	/* create: no address; a packet socket's family; unnamed app. */
	assert_int_equal(
		0, decode_line(HEAD "op=create verdict=deny "
				    "permissive=0 policy=user rule=default "
				    "family=packet protocol=packet laddr=? "
				    "lport=? raddr=? rport=? app=? uid=1001",
			       rec));
	assert_int_equal(PFSEL_FAMILY_PACKET, rec->request.family);
	assert_string_equal("", rec->request.exe);
	assert_int_equal(-1, rec->pid);
	/* A verdict of ask is what a rule says, never a record's. */
	assert_int_equal(-EBADMSG,
			 decode_line(HEAD "op=create verdict=ask "
					  "permissive=0 policy=user "
					  "rule=default family=inet "
					  "protocol=udp laddr=? lport=? "
					  "raddr=? rport=?" TAIL,
				     rec));
	/* Not a record at all. */
	assert_int_equal(-EBADMSG, decode_line("hello", rec));
	free(rec);
}

/* AppArmor's "subj=LABEL (MODE)" and an enriched log's tail. */
/*
 * A refusal's record (refused=): a name the library knows, a denial, op=
 * a call, no rule, the policy that restrains or "?"; the socket's
 * family, protocol and ends only where it had one, and then its local end
 * at least; a refused family's name, a script environment's variable.
 * A decision is PFSEL_REFUSAL_COUNT.
 */
static void test_refusal_decode(void **state)
{
	static const char *const broken[] = {
		/* a refusal the library does not know */
		"op=exec verdict=deny refused=teleport permissive=0 policy=?",
		/* not a denial */
		"op=exec verdict=allow refused=traced permissive=0 policy=?",
		/* a call that is no word */
		"op=Exec verdict=deny refused=traced permissive=0 policy=?",
		"op=exec verdict=deny refused=traced permissive=0 policy=root",
		/* a family's name that is no word */
		"op=create verdict=deny refused=family permissive=0 "
		"policy=user family=RxRPC",
		/* a socket without its local end, or its protocol */
		"op=sendmsg verdict=deny refused=ip-options permissive=0 "
		"policy=user family=inet protocol=udp laddr=? lport=? "
		"raddr=192.0.2.1 rport=53",
		"op=sendmsg verdict=deny refused=ip-options permissive=0 "
		"policy=user family=inet laddr=0.0.0.0 lport=0 raddr=? "
		"rport=?",
		/* a target that is neither the system nor a uid */
		"op=load verdict=deny refused=admin permissive=0 policy=? "
		"target=root",
		/* a family of the vocabulary's for a socket's refusal */
		"op=setsockopt verdict=deny refused=ip-options permissive=0 "
		"policy=user family=rds protocol=udp laddr=0.0.0.0 lport=0 "
		"raddr=? rport=?",
	};
	struct pfsel_audit_record *rec = malloc(sizeof(*rec));
	char line[1024];
	size_t i;

	(void)state;
	assert_non_null(rec);
	assert_int_equal(0,
			 decode_line(HEAD "op=connect verdict=deny "
					  "permissive=0 policy=user "
					  "rule=default family=inet "
					  "protocol=tcp laddr=0.0.0.0 lport=0 "
					  "raddr=192.0.2.1 rport=80" TAIL,
				     rec));
	assert_int_equal(PFSEL_REFUSAL_COUNT, rec->refused);
	assert_string_equal("", rec->call);
	assert_int_equal(0,
			 decode_line(HEAD "op=setsockopt verdict=deny "
					  "refused=routing-header "
					  "permissive=0 policy=user "
					  "family=inet6 protocol=udp laddr=:: "
					  "lport=0 raddr=? rport=?" TAIL,
				     rec));
	assert_int_equal(PFSEL_REFUSED_ROUTING_HEADER, rec->refused);
	assert_string_equal("setsockopt", rec->call);
	assert_int_equal(PFSEL_OP_COUNT, rec->request.op);
	assert_int_equal(PFSEL_VERDICT_DENY, rec->verdict);
	assert_int_equal(PFSEL_SLOT_USER, rec->policy);
	assert_true(rec->has_socket);
	assert_int_equal(PFSEL_PROTO_UDP, rec->request.proto);
	assert_int_equal(PFSEL_FAMILY_INET6, rec->request.family);
	assert_true(rec->has_laddr);
	assert_false(rec->has_raddr);
	assert_int_equal(-1, rec->rport);
	assert_string_equal("", rec->rule);
	assert_string_equal("/usr/bin/x", rec->request.exe);

	/* No socket: a family's name, or nothing; the operation if any. */
	assert_int_equal(0, decode_line(HEAD "op=create verdict=deny "
					     "refused=family permissive=1 "
					     "policy=system family=rxrpc" TAIL,
					rec));
	assert_string_equal("rxrpc", rec->refused_family);
	assert_int_equal(PFSEL_OP_CREATE, rec->request.op);
	assert_false(rec->has_socket);
	assert_true(rec->permissive);
	assert_int_equal(-1, rec->lport);
	assert_int_equal(0, decode_line(HEAD "op=exec verdict=deny "
					     "refused=script-environment "
					     "permissive=0 policy=user "
					     "variable=\"BASH_ENV\"" TAIL,
					rec));
	assert_string_equal("BASH_ENV", rec->variable);
	assert_int_equal(0, decode_line(HEAD "op=open verdict=deny "
					     "refused=script-path permissive=0 "
					     "policy=?" TAIL,
					rec));
	assert_int_equal(PFSEL_SLOT_COUNT, rec->policy);
	assert_false(rec->has_target);

	/* A refused change, and what it was for. */
	assert_int_equal(0, decode_line(HEAD "op=unload verdict=deny "
					     "refused=admin permissive=0 "
					     "policy=? target=1002" TAIL,
					rec));
	assert_int_equal(PFSEL_REFUSED_ADMIN, rec->refused);
	assert_string_equal("unload", rec->call);
	assert_true(rec->has_target);
	assert_int_equal(PFSEL_SLOT_USER, rec->target_policy);
	assert_int_equal(1002, rec->target_uid);
	assert_int_equal(0, decode_line(HEAD "op=cache_threshold verdict=deny "
					     "refused=admin permissive=0 "
					     "policy=? target=system" TAIL,
					rec));
	assert_int_equal(PFSEL_SLOT_SYSTEM, rec->target_policy);

	/* Each of these breaks it. */

	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		snprintf(line, sizeof(line), HEAD "%s" TAIL, broken[i]);
		if (decode_line(line, rec) != -EBADMSG) {
			print_error("decoded: %s\n", broken[i]);
			fail();
		}
	}
	free(rec);
}

static void test_fields(void **state)
{
	char text[] = HEAD "op=create subj=firefox (enforce) x=1\x1d"
			   "UID=\"alice\"";
	struct pfsel_audit_field fields[8];
	size_t n;

	(void)state;
	n = pfsel_audit_fields(text, fields, 8);
	assert_int_equal(3, n);
	assert_string_equal("op", fields[0].name);
	assert_string_equal("create", fields[0].value);
	assert_string_equal("firefox (enforce)", fields[1].value);
	assert_string_equal("x", fields[2].name);
	assert_string_equal("1", fields[2].value);
}

/* A question's request: its RADDR and RPORT; "?" is unnamed. */
static void test_request_from_question(void **state)
{
	struct pfsel_question *q = calloc(1, sizeof(*q));
	struct pfsel_request *req = malloc(sizeof(*req));

	(void)state;
	assert_non_null(q);
	assert_non_null(req);
	curl_question(q);
	pfsel_request_from_question(q, req);
	assert_string_equal(q->exe, req->exe);
	assert_int_equal(q->op, req->op);
	assert_int_equal(q->proto, req->proto);
	assert_memory_equal(q->raddr, req->addr, 16);
	assert_int_equal(q->rport, req->port);
	assert_string_equal(q->hosts, req->hosts);
	strcpy(q->exe, "?");
	pfsel_request_from_question(q, req);
	assert_string_equal("", req->exe);
	/* create has no address, whatever the message carried. */
	q->op = PFSEL_OP_CREATE;
	pfsel_request_from_question(q, req);
	assert_int_equal(0, req->port);
	assert_int_equal(0, req->addr[15]);
	free(req);
	free(q);
}

/* To the "check" file's request and back: the same request. */
static void test_request_check(void **state)
{
	struct pfsel_request *req = calloc(1, sizeof(*req));
	struct pfsel_request *back = malloc(sizeof(*back));
	struct pfsel_check_request check;
	char *longer;

	(void)state;
	assert_non_null(req);
	assert_non_null(back);
	strcpy(req->exe, "/usr/bin/python3");
	strcpy(req->script, "/home/a/x.py");
	req->op = PFSEL_OP_CONNECT;
	req->proto = PFSEL_PROTO_UDP;
	req->family = PFSEL_FAMILY_INET;
	assert_int_equal(0, pfsel_parse_addr("198.51.100.53", req->addr));
	req->port = 53;
	pfsel_request_to_check(req, &check);
	assert_false(check.has_uid);
	assert_string_equal("/usr/bin/python3", check.exe);
	assert_string_equal("/home/a/x.py", check.script);
	assert_int_equal(53, check.port);
	assert_int_equal(0, pfsel_request_from_check(&check, back));
	assert_memory_equal(req, back, sizeof(*req));
	/* An unnamed application is no exe at all. */
	req->exe[0] = req->script[0] = '\0';
	pfsel_request_to_check(req, &check);
	assert_null(check.exe);
	assert_null(check.script);
	/* A path longer than a request holds. */
	longer = malloc(PFSEL_QUESTION_PATH_MAX + 2);
	assert_non_null(longer);
	memset(longer, 'a', PFSEL_QUESTION_PATH_MAX + 1);
	longer[0] = '/';
	longer[PFSEL_QUESTION_PATH_MAX + 1] = '\0';
	check.exe = longer;
	assert_int_equal(-ENAMETOOLONG, pfsel_request_from_check(&check, back));
	free(longer);
	free(back);
	free(req);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_audit_string),
		cmocka_unit_test(test_record_decode),
		cmocka_unit_test(test_record_request),
		cmocka_unit_test(test_refusal_decode),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_request_from_question),
		cmocka_unit_test(test_request_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
