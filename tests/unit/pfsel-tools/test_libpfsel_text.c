// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for libpfsel's names and text (pfsel-tools/lib/text.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pfsel/pfsel.h>

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(pfsel_op_name(PFSEL_OP_CONNECT), "connect");
	assert_string_equal(pfsel_op_name(PFSEL_OP_ACCEPT), "accept");
	assert_string_equal(pfsel_op_name(99), "?");
	assert_string_equal(pfsel_proto_name(PFSEL_PROTO_PACKET), "packet");
	assert_string_equal(pfsel_family_name(PFSEL_FAMILY_INET6), "inet6");
	assert_string_equal(pfsel_family_name(PFSEL_FAMILY_PACKET), "packet");
	assert_string_equal(pfsel_family_name(7), "?");
	assert_string_equal(pfsel_answer_name(PFSEL_ANSWER_DENY), "deny");
	assert_string_equal(pfsel_scope_name(PFSEL_SCOPE_ALWAYS), "always");
	assert_string_equal(pfsel_policy_name(0), "system");
	assert_string_equal(pfsel_policy_name(1), "user");
	assert_string_equal(pfsel_mode_name(PFSEL_MODE_ENFORCING), "enforcing");
	assert_string_equal(pfsel_mode_name(PFSEL_MODE_PERMISSIVE),
			    "permissive");
	assert_string_equal(pfsel_mode_name(2), "?");
	assert_string_equal(pfsel_verdict_name(PFSEL_VERDICT_ASK), "ask");
	assert_string_equal(pfsel_verdict_name(PFSEL_VERDICT_DENY), "deny");
	assert_string_equal(pfsel_verdict_name(PFSEL_VERDICT_COUNT), "?");
	assert_string_equal(pfsel_refusal_name(PFSEL_REFUSED_ROUTING_HEADER),
			    "routing-header");
	assert_string_equal(pfsel_refusal_name(PFSEL_REFUSED_SCRIPT_PATH),
			    "script-path");
	assert_string_equal(pfsel_refusal_name(PFSEL_REFUSAL_COUNT), "?");
	assert_int_equal(pfsel_refusal_from_name("mptcp-subflow"),
			 PFSEL_REFUSED_MPTCP_SUBFLOW);
	assert_int_equal(pfsel_refusal_from_name("family"),
			 PFSEL_REFUSED_FAMILY);
	assert_int_equal(pfsel_refusal_from_name("routing_header"), -EINVAL);

	assert_int_equal(pfsel_op_from_name("listen"), PFSEL_OP_LISTEN);
	assert_int_equal(pfsel_op_from_name("Listen"), -EINVAL);
	assert_int_equal(pfsel_proto_from_name("icmp"), PFSEL_PROTO_ICMP);
	assert_int_equal(pfsel_proto_from_name(NULL), -EINVAL);
	assert_int_equal(pfsel_family_from_name("inet6"), PFSEL_FAMILY_INET6);
	assert_int_equal(pfsel_family_from_name("packet"), PFSEL_FAMILY_PACKET);
	assert_int_equal(pfsel_family_from_name("ipx"), -EINVAL);
	assert_int_equal(pfsel_answer_from_name("a"), PFSEL_ANSWER_ALLOW);
	assert_int_equal(pfsel_answer_from_name("deny"), PFSEL_ANSWER_DENY);
	assert_int_equal(pfsel_answer_from_name("ask"), -EINVAL);
	assert_int_equal(pfsel_scope_from_name("p"), PFSEL_SCOPE_PROCESS);
	assert_int_equal(pfsel_scope_from_name("session"), PFSEL_SCOPE_SESSION);
	assert_int_equal(pfsel_scope_from_name("a"), PFSEL_SCOPE_ALWAYS);
	assert_int_equal(pfsel_scope_from_name("x"), -EINVAL);
	assert_int_equal(pfsel_mode_from_name("permissive"),
			 PFSEL_MODE_PERMISSIVE);
	assert_int_equal(pfsel_mode_from_name("enforce"), -EINVAL);
}

static void test_addresses(void **state)
{
	uint8_t a[16];
	char buf[PFSEL_ADDR_STRLEN];

	(void)state;
	assert_int_equal(pfsel_parse_addr("192.0.2.1", a), 0);
	assert_int_equal(a[10], 0xff);
	assert_int_equal(a[15], 1);
	assert_int_equal(pfsel_format_addr(a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "192.0.2.1");

	/* Written as IPv4-mapped IPv6, shown as IPv4. */
	assert_int_equal(pfsel_parse_addr("::ffff:10.1.2.3", a), 0);
	assert_int_equal(pfsel_format_addr(a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "10.1.2.3");

	assert_int_equal(pfsel_parse_addr("2001:db8::1", a), 0);
	assert_int_equal(pfsel_format_addr(a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2001:db8::1");
	assert_int_equal(pfsel_parse_addr("::", a), 0);
	assert_int_equal(pfsel_format_addr(a, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "::");

	assert_int_equal(pfsel_format_addr(a, buf, 2), -ENOSPC);
	assert_int_equal(pfsel_parse_addr("192.0.2", a), -EINVAL);
	assert_int_equal(pfsel_parse_addr("example.org", a), -EINVAL);
}

static struct pfsel_question *question(void)
{
	struct pfsel_question *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	q->id = 5;
	q->tgid = 812;
	strcpy(q->exe, "/usr/bin/curl");
	strcpy(q->comm, "curl");
	q->op = PFSEL_OP_CONNECT;
	q->proto = PFSEL_PROTO_TCP;
	pfsel_parse_addr("192.0.2.1", q->raddr);
	q->rport = 80;
	q->policy = 1;
	strcpy(q->rule_file, "/home/alice/.pfw");
	q->rule_line = 3;
	q->rule_col = 1;
	q->timeout_ms = 30000;
	return q;
}

static void test_format_connect(void **state)
{
	struct pfsel_question *q = question();
	char buf[512];
	int n;

	(void)state;
	n = pfsel_question_format(q, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"/usr/bin/curl (curl, pid 812) connect tcp to 192.0.2.1:80, "
		"user policy rule /home/alice/.pfw:3:1, timeout 30.0s");
	assert_int_equal(n, strlen(buf));

	pfsel_parse_addr("2001:db8::5", q->raddr);
	q->family = PFSEL_FAMILY_INET6;
	q->rule_line = 0;
	q->policy = 0;
	q->timeout_ms = 1500;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_string_equal(
		buf,
		"/usr/bin/curl (curl, pid 812) connect tcp to [2001:db8::5]:80, "
		"system policy default, timeout 1.5s");

	/* What no answer gets, when the kernel says. */
	q->unanswered = PFSEL_ANSWER_DENY;
	q->present |= PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED);
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "default, timeout 1.5s, then deny"));
	q->unanswered = PFSEL_ANSWER_ALLOW;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "timeout 1.5s, then allow"));
	q->present &= ~PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED);

	q->proto = PFSEL_PROTO_ICMP;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "connect icmp to 2001:db8::5,"));
	free(q);
}

static void test_format_other_ops(void **state)
{
	struct pfsel_question *q = question();
	char buf[512];

	(void)state;
	strcpy(q->exe, "/usr/bin/python3");
	strcpy(q->script, "/home/a/x.py");
	q->op = PFSEL_OP_CREATE;
	q->proto = PFSEL_PROTO_UDP;
	q->family = PFSEL_FAMILY_INET6;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_true(!strncmp(
		buf,
		"/usr/bin/python3 script /home/a/x.py (curl, pid 812) create udp family inet6,",
		strlen("/usr/bin/python3 script /home/a/x.py (curl, pid 812) create udp family inet6,")));

	q->proto = PFSEL_PROTO_PACKET;
	q->family = PFSEL_FAMILY_PACKET;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "create packet, user"));

	q->op = PFSEL_OP_BIND;
	q->proto = PFSEL_PROTO_TCP;
	pfsel_parse_addr("0.0.0.0", q->raddr);
	q->rport = 8080;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "bind tcp on 0.0.0.0:8080,"));

	q->op = PFSEL_OP_ACCEPT;
	pfsel_parse_addr("198.51.100.7", q->raddr);
	q->rport = 22;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(
		strstr(buf, "accept tcp from 198.51.100.7 on port 22,"));
	free(q);
}

/*
 * The host names the kernel knows for the address: the first before the
 * endpoint, the others after it; each escaped (the DNS server chose it).
 */
static void test_format_hosts(void **state)
{
	struct pfsel_question *q = question();
	char buf[1024];
	int n;

	(void)state;
	strcpy(q->hosts, "www.example.org");
	q->present |= PFSEL_Q_HAS(PFSEL_ATTR_HOSTS);
	n = pfsel_question_format(q, buf, sizeof(buf));
	assert_string_equal(buf,
			    "/usr/bin/curl (curl, pid 812) connect tcp to "
			    "www.example.org (192.0.2.1:80), user policy rule "
			    "/home/alice/.pfw:3:1, timeout 30.0s");
	assert_int_equal(n, strlen(buf));

	strcpy(q->hosts, "www.example.org,example.org,example.net");
	pfsel_parse_addr("2001:db8::5", q->raddr);
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, " connect tcp to www.example.org "
				    "([2001:db8::5]:80, also example.org, "
				    "example.net), user policy"));

	/* A name that is not plain is quoted, its control bytes escaped. */
	strcpy(q->hosts, "ev\"il\\.example,x\x1b]0;.example");
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf,
			       "to \"ev\\\"il\\\\.example\" "
			       "([2001:db8::5]:80, also \"x\\e]0;.example\")"));

	q->op = PFSEL_OP_ACCEPT;
	pfsel_parse_addr("198.51.100.7", q->raddr);
	q->rport = 22;
	strcpy(q->hosts, "client.example.org");
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, "accept tcp from client.example.org "
				    "(198.51.100.7) on port 22,"));

	q->op = PFSEL_OP_BIND;
	q->rport = 8080;
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(
		buf, "bind tcp on client.example.org (198.51.100.7:8080),"));
	free(q);
}

/* pfsel_hosts_check(): a list of names as the kernel sends them. */
static void test_hosts_check(void **state)
{
	char text[PFSEL_HOSTS_TEXT_MAX + 8];
	size_t i;

	(void)state;
	assert_int_equal(pfsel_hosts_check("example.org"), 0);
	assert_int_equal(pfsel_hosts_check("a,b,c"), 0);
	/* Printable: the language need not be able to write it. */
	assert_int_equal(pfsel_hosts_check("*.example,a\"b,_x"), 0);
	assert_int_equal(pfsel_hosts_check(""), -EINVAL);
	assert_int_equal(pfsel_hosts_check(NULL), -EINVAL);
	assert_int_equal(pfsel_hosts_check(","), -EINVAL);
	assert_int_equal(pfsel_hosts_check("a,"), -EINVAL);
	assert_int_equal(pfsel_hosts_check(",a"), -EINVAL);
	assert_int_equal(pfsel_hosts_check("a,,b"), -EINVAL);
	assert_int_equal(pfsel_hosts_check("a b"), -EINVAL);
	assert_int_equal(pfsel_hosts_check("a\nb"), -EINVAL);
	assert_int_equal(pfsel_hosts_check("\xe4.example"), -EINVAL);
	assert_int_equal(pfsel_hosts_check("a,b,c,d,e,f,g,h"), 0);
	assert_int_equal(pfsel_hosts_check("a,b,c,d,e,f,g,h,i"), -EINVAL);
	/* A name of PFSEL_HOST_NAME_MAX characters, and one more. */
	memset(text, 'a', PFSEL_HOST_NAME_MAX);
	text[PFSEL_HOST_NAME_MAX] = '\0';
	assert_int_equal(pfsel_hosts_check(text), 0);
	strcat(text, "a");
	assert_int_equal(pfsel_hosts_check(text), -ENAMETOOLONG);
	/* 8 such names fill PFSEL_HOSTS_TEXT_MAX with the NUL. */
	for (i = 0; i < PFSEL_HOSTS_PER_ADDR; i++) {
		memset(text + i * (PFSEL_HOST_NAME_MAX + 1), 'b',
		       PFSEL_HOST_NAME_MAX);
		text[i * (PFSEL_HOST_NAME_MAX + 1) + PFSEL_HOST_NAME_MAX] = ',';
	}
	text[PFSEL_HOSTS_TEXT_MAX - 1] = '\0';
	assert_int_equal(pfsel_hosts_check(text), 0);
}

/* pfsel_hosts_rule_name(): the first name "host NAME" can write. */
static void test_hosts_rule_name(void **state)
{
	char name[PFSEL_HOST_NAME_MAX + 1], label[80];
	char big[PFSEL_HOST_NAME_MAX + 16];

	(void)state;
	assert_int_equal(pfsel_hosts_rule_name("www.example.org,example.org",
					       name, sizeof(name)),
			 15);
	assert_string_equal(name, "www.example.org");
	/* Skipped: a pattern, a quote, a label starting or ending with '-',
	 * an empty label, a final dot. */
	assert_int_equal(
		pfsel_hosts_rule_name("*.example.org,a\"b.example,"
				      "-a.example,a-.example,a..b,"
				      "a.example.,xn--bcher-kva.Example",
				      name, sizeof(name)),
		21);
	assert_string_equal(name, "xn--bcher-kva.example");
	assert_int_equal(pfsel_hosts_rule_name("_dmarc.mail-1.example", name,
					       sizeof(name)),
			 21);
	assert_int_equal(pfsel_hosts_rule_name("*.example", name, sizeof(name)),
			 -ENOENT);
	assert_string_equal(name, "");
	assert_int_equal(pfsel_hosts_rule_name("", name, sizeof(name)),
			 -ENOENT);
	assert_int_equal(pfsel_hosts_rule_name("www.example.org", name, 8),
			 -ENOSPC);
	/* A label of 63 characters, and one of 64. */
	memset(label, 'x', 63);
	strcpy(label + 63, ".example");
	assert_int_equal(pfsel_hosts_rule_name(label, name, sizeof(name)), 71);
	memset(label, 'x', 64);
	strcpy(label + 64, ".example");
	assert_int_equal(pfsel_hosts_rule_name(label, name, sizeof(name)),
			 -ENOENT);
	/* 253 characters in all, and 254. */
	memset(big, 'a', PFSEL_HOST_NAME_MAX);
	big[PFSEL_HOST_NAME_MAX] = '\0';
	for (int i = 50; i < (int)PFSEL_HOST_NAME_MAX; i += 51)
		big[i] = '.';
	assert_int_equal(pfsel_hosts_rule_name(big, name, sizeof(name)),
			 (int)PFSEL_HOST_NAME_MAX);
	strcat(big, "a");
	assert_int_equal(pfsel_hosts_rule_name(big, name, sizeof(name)),
			 -ENOENT);
}

static void test_format_too_small(void **state)
{
	struct pfsel_question *q = question();
	char buf[20];

	(void)state;
	assert_int_equal(pfsel_question_format(q, buf, sizeof(buf)), -ENOSPC);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	assert_int_equal(pfsel_question_format(q, buf, 0), -ENOSPC);
	free(q);
}

/* pfsel_escape(@in, flags) must write @want, and return its length. */
static void expect_escape(const char *in, unsigned int flags, const char *want)
{
	char buf[256];

	assert_int_equal(pfsel_escape(in, buf, sizeof(buf), flags),
			 (int)strlen(want));
	assert_string_equal(buf, want);
}

static void test_escape(void **state)
{
	char buf[16];

	(void)state;
	/* The attack of issue 13: what a terminal would act on is shown. */
	expect_escape("/tmp/x\x1b[2K\x1b[Gpfsel: /usr/bin/firefox", 0,
		      "/tmp/x\\e[2K\\e[Gpfsel: /usr/bin/firefox");
	expect_escape("a\\b\n\t\r\x07\x7f\"", 0, "a\\\\b\\n\\t\\r\\x07\\x7f\"");
	/* Valid UTF-8 stays; invalid, overlong, surrogates and C1 do not. */
	expect_escape("/home/z\xc3\xbc"
		      "rich/\xe2\x82\xac",
		      0,
		      "/home/z\xc3\xbc"
		      "rich/\xe2\x82\xac");
	expect_escape("\xff\xc3(\xc0\xaf\xed\xa0\x80", 0,
		      "\\xff\\xc3(\\xc0\\xaf\\xed\\xa0\\x80");
	expect_escape("x\xc2\x9b"
		      "2J",
		      0, "x\\xc2\\x9b2J"); /* C1 CSI */
	/* Bidirectional override, zero width space, line separator. */
	expect_escape("a\xe2\x80\xae"
		      "b\xe2\x80\x8b\xe2\x80\xa8",
		      0,
		      "a\\xe2\\x80\\xae"
		      "b\\xe2\\x80\\x8b\\xe2\\x80\\xa8");
	expect_escape("\xf0\x9f\x99\x82", 0, "\xf0\x9f\x99\x82");
	expect_escape("\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80");

	/* QUOTE: plain words bare, everything else the exact-path form. */
	expect_escape("/usr/bin/curl", PFSEL_ESCAPE_QUOTE, "/usr/bin/curl");
	expect_escape("/opt/a-b_c.d+e@f~g%h:i", PFSEL_ESCAPE_QUOTE,
		      "/opt/a-b_c.d+e@f~g%h:i");
	expect_escape("/tmp/globdir/*", PFSEL_ESCAPE_QUOTE,
		      "\"/tmp/globdir/\\x2a\"");
	expect_escape("/tmp/a?[b]", PFSEL_ESCAPE_QUOTE, "\"/tmp/a?[b]\"");
	expect_escape("/a b/\"q\"\\", PFSEL_ESCAPE_QUOTE,
		      "\"/a b/\\\"q\\\"\\\\\"");
	expect_escape("/tmp/x\x1b[2K", PFSEL_ESCAPE_QUOTE, "\"/tmp/x\\e[2K\"");
	expect_escape("", PFSEL_ESCAPE_QUOTE, "\"\"");
	expect_escape("curl", PFSEL_ESCAPE_QUOTE, "curl");

	/* CONTROLS: backslashes and quotes left, control bytes not. */
	expect_escape("a \\e \"b\"\x1b[m\n", PFSEL_ESCAPE_CONTROLS,
		      "a \\e \"b\"\\e[m\\n");

	/* Like snprintf(): the whole length, whole escapes only, NUL. */
	memset(buf, 'z', sizeof(buf));
	assert_int_equal(pfsel_escape("\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", buf,
				      7, 0),
			 16);
	assert_string_equal(buf, "\\e\\e\\e");
	assert_int_equal(pfsel_escape("\x01", buf, 4, 0), 4);
	assert_string_equal(buf, "");
	assert_int_equal(pfsel_escape("abc", NULL, 0, 0), 3);
	assert_int_equal(pfsel_escape("abc", buf, sizeof(buf), 0x80), -EINVAL);
	assert_int_equal(pfsel_escape("abc", buf, sizeof(buf),
				      PFSEL_ESCAPE_QUOTE |
					      PFSEL_ESCAPE_CONTROLS),
			 -EINVAL);
	assert_int_equal(pfsel_escape(NULL, buf, sizeof(buf), 0), -EINVAL);
}

/* Nothing a question's asker chose reaches the line raw. */
static void test_format_escapes(void **state)
{
	struct pfsel_question *q = question();
	char buf[1024];

	(void)state;
	strcpy(q->exe, "/tmp/x\x1b[2K\x1b[Gpfsel: /usr/bin/firefox");
	strcpy(q->script, "/tmp/s\ncript");
	strcpy(q->comm, "Web Content");
	strcpy(q->rule_file, "/tmp/r\x1b]0;t\x07");
	assert_true(pfsel_question_format(q, buf, sizeof(buf)) > 0);
	assert_string_equal(
		buf,
		"\"/tmp/x\\e[2K\\e[Gpfsel: /usr/bin/firefox\" script "
		"\"/tmp/s\\ncript\" (\"Web Content\", pid 812) connect tcp "
		"to 192.0.2.1:80, user policy rule \"/tmp/r\\e]0;t\\x07\""
		":3:1, timeout 30.0s");
	/* An unnamed application is "?", not a name. */
	strcpy(q->exe, "?");
	q->script[0] = '\0';
	pfsel_question_format(q, buf, sizeof(buf));
	assert_true(!strncmp(buf, "? (", 3));
	free(q);
}

/* The asker's security context, when the kernel sent one. */
static void test_format_secctx(void **state)
{
	struct pfsel_question *q = question();
	char buf[1024];
	int n;

	(void)state;
	strcpy(q->secctx, "system_u:system_r:unconfined_t:s0");
	n = pfsel_question_format(q, buf, sizeof(buf));
	assert_string_equal(
		buf, "/usr/bin/curl (curl, pid 812, context "
		     "system_u:system_r:unconfined_t:s0) connect tcp to "
		     "192.0.2.1:80, user policy rule /home/alice/.pfw:3:1, "
		     "timeout 30.0s");
	assert_int_equal(n, strlen(buf));
	/* AppArmor's label. */
	strcpy(q->secctx, "unconfined");
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, " (curl, pid 812, context unconfined) "));
	/* An MLS range with a comma, a label with a space: quoted. */
	strcpy(q->secctx, "u:r:t:s0-s0:c0,c1");
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, ", context \"u:r:t:s0-s0:c0,c1\") "));
	/* What reaches the line is escaped like every kernel string. */
	strcpy(q->secctx, "x\x1b[2K\npfsel: /usr/bin/firefox");
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(
		buf, ", context \"x\\e[2K\\npfsel: /usr/bin/firefox\") "));
	assert_null(strchr(buf, '\x1b'));
	assert_null(strchr(buf, '\n'));
	/* None: as before. */
	q->secctx[0] = '\0';
	pfsel_question_format(q, buf, sizeof(buf));
	assert_non_null(strstr(buf, " (curl, pid 812) connect"));
	assert_null(strstr(buf, "context"));
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_format_connect),
		cmocka_unit_test(test_format_other_ops),
		cmocka_unit_test(test_format_hosts),
		cmocka_unit_test(test_hosts_check),
		cmocka_unit_test(test_hosts_rule_name),
		cmocka_unit_test(test_format_too_small),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_format_escapes),
		cmocka_unit_test(test_format_secctx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
