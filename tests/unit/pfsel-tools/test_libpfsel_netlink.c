// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for libpfsel's netlink messages (pfsel-tools/lib/agent.c):
 * PFSEL_CMD_ASK messages built here with libnl, as the kernel would send
 * them, go through pfsel_question_parse(); PFSEL_CMD_ANSWER messages from
 * pfsel_answer_build() are parsed back.  No kernel needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <pfsel/pfsel.h>

#define FAMILY 0x20

static const uint8_t v4_addr[16] = { 0, 0, 0,	 0,    0,   0, 0, 0,
				     0, 0, 0xff, 0xff, 192, 0, 2, 1 };
static const uint8_t v4_any[16] = { 0, 0, 0,	0,    0, 0, 0, 0,
				    0, 0, 0xff, 0xff, 0, 0, 0, 0 };

static struct nl_msg *ask_header(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_non_null(
		genlmsg_put(msg, 0, 0, FAMILY, 0, 0, cmd, PFSEL_GENL_VERSION));
	return msg;
}

/* A question as the kernel sends it; @skip leaves one attribute out. */
static struct nl_msg *full_ask(int skip)
{
	struct nl_msg *msg = ask_header(PFSEL_CMD_ASK);

#define PUT(attr, call)                            \
	do {                                       \
		if (skip != (attr))                \
			assert_int_equal(call, 0); \
	} while (0)
	PUT(PFSEL_ATTR_ID, nla_put_u64(msg, PFSEL_ATTR_ID, 0x123456789aULL));
	PUT(PFSEL_ATTR_PID, nla_put_u32(msg, PFSEL_ATTR_PID, 813));
	PUT(PFSEL_ATTR_TGID, nla_put_u32(msg, PFSEL_ATTR_TGID, 812));
	PUT(PFSEL_ATTR_UID, nla_put_u32(msg, PFSEL_ATTR_UID, 1001));
	PUT(PFSEL_ATTR_EXE,
	    nla_put_string(msg, PFSEL_ATTR_EXE, "/usr/bin/python3"));
	PUT(PFSEL_ATTR_SCRIPT,
	    nla_put_string(msg, PFSEL_ATTR_SCRIPT, "/home/a/x.py"));
	PUT(PFSEL_ATTR_COMM, nla_put_string(msg, PFSEL_ATTR_COMM, "x.py"));
	PUT(PFSEL_ATTR_OP, nla_put_u8(msg, PFSEL_ATTR_OP, PFSEL_OP_CONNECT));
	PUT(PFSEL_ATTR_FAMILY,
	    nla_put_u8(msg, PFSEL_ATTR_FAMILY, PFSEL_FAMILY_INET));
	PUT(PFSEL_ATTR_PROTO,
	    nla_put_u8(msg, PFSEL_ATTR_PROTO, PFSEL_PROTO_TCP));
	PUT(PFSEL_ATTR_LADDR, nla_put(msg, PFSEL_ATTR_LADDR, 16, v4_any));
	PUT(PFSEL_ATTR_LPORT, nla_put_u16(msg, PFSEL_ATTR_LPORT, 0));
	PUT(PFSEL_ATTR_RADDR, nla_put(msg, PFSEL_ATTR_RADDR, 16, v4_addr));
	PUT(PFSEL_ATTR_RPORT, nla_put_u16(msg, PFSEL_ATTR_RPORT, 443));
	PUT(PFSEL_ATTR_POLICY, nla_put_u8(msg, PFSEL_ATTR_POLICY, 1));
	PUT(PFSEL_ATTR_RULE_FILE,
	    nla_put_string(msg, PFSEL_ATTR_RULE_FILE, "/home/a/.pfw"));
	PUT(PFSEL_ATTR_RULE_LINE, nla_put_u32(msg, PFSEL_ATTR_RULE_LINE, 12));
	PUT(PFSEL_ATTR_RULE_COL, nla_put_u32(msg, PFSEL_ATTR_RULE_COL, 1));
	PUT(PFSEL_ATTR_TIMEOUT_MS,
	    nla_put_u32(msg, PFSEL_ATTR_TIMEOUT_MS, 30000));
	PUT(PFSEL_ATTR_SECCTX,
	    nla_put_string(msg, PFSEL_ATTR_SECCTX,
			   "unconfined_u:unconfined_r:unconfined_t:s0"));
	PUT(PFSEL_ATTR_UNANSWERED,
	    nla_put_u8(msg, PFSEL_ATTR_UNANSWERED, PFSEL_ANSWER_DENY));
#undef PUT
	return msg;
}

static void test_parse_full(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(-1);
	int a;

	(void)state;
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_true(q->id == 0x123456789aULL);
	assert_int_equal(q->pid, 813);
	assert_int_equal(q->tgid, 812);
	assert_int_equal(q->uid, 1001);
	assert_string_equal(q->exe, "/usr/bin/python3");
	assert_string_equal(q->script, "/home/a/x.py");
	assert_string_equal(q->comm, "x.py");
	assert_int_equal(q->op, PFSEL_OP_CONNECT);
	assert_int_equal(q->family, PFSEL_FAMILY_INET);
	assert_int_equal(q->proto, PFSEL_PROTO_TCP);
	assert_memory_equal(q->laddr, v4_any, 16);
	assert_int_equal(q->lport, 0);
	assert_memory_equal(q->raddr, v4_addr, 16);
	assert_int_equal(q->rport, 443);
	assert_int_equal(q->policy, 1);
	assert_string_equal(q->rule_file, "/home/a/.pfw");
	assert_int_equal(q->rule_line, 12);
	assert_int_equal(q->rule_col, 1);
	assert_int_equal(q->timeout_ms, 30000);
	for (a = PFSEL_ATTR_ID; a <= PFSEL_ATTR_TIMEOUT_MS; a++)
		assert_true(q->present & PFSEL_Q_HAS(a));
	assert_string_equal(q->secctx,
			    "unconfined_u:unconfined_r:unconfined_t:s0");
	assert_true(q->present & PFSEL_Q_HAS(PFSEL_ATTR_SECCTX));
	assert_int_equal(q->unanswered, PFSEL_ANSWER_DENY);
	assert_true(q->present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED));
	nlmsg_free(msg);
	free(q);
}

/*
 * What no answer gets: allow or deny, said by kernels since it was added
 * (older ones do not: not present); anything else is refused.
 */
static void test_parse_unanswered(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg;

	(void)state;
	msg = full_ask(PFSEL_ATTR_UNANSWERED);
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_false(q->present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED));
	assert_int_equal(nla_put_u8(msg, PFSEL_ATTR_UNANSWERED,
				    PFSEL_ANSWER_ALLOW),
			 0);
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_int_equal(q->unanswered, PFSEL_ANSWER_ALLOW);
	nlmsg_free(msg);

	msg = full_ask(PFSEL_ATTR_UNANSWERED);
	assert_int_equal(nla_put_u8(msg, PFSEL_ATTR_UNANSWERED, 7), 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);
	free(q);
}

/* A kernel without a major LSM, or an older one, sends no context. */
static void test_parse_secctx_absent(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(PFSEL_ATTR_SECCTX);

	(void)state;
	memset(q, 'z', sizeof(*q));
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_string_equal(q->secctx, "");
	assert_false(q->present & PFSEL_Q_HAS(PFSEL_ATTR_SECCTX));
	assert_string_equal(q->comm, "x.py");
	nlmsg_free(msg);
	free(q);
}

/* The context is a string like the others: NUL-terminated, cut to fit. */
static void test_parse_secctx_bad(void **state)
{
	static const char unterminated[6] = { 'k', 'e', 'r', 'n', 'e', 'l' };
	struct pfsel_question *q = malloc(sizeof(*q));
	char big[PFSEL_QUESTION_SECCTX_MAX + 40];
	struct nl_msg *msg;

	(void)state;
	msg = full_ask(PFSEL_ATTR_SECCTX);
	assert_int_equal(nla_put(msg, PFSEL_ATTR_SECCTX, sizeof(unterminated),
				 unterminated),
			 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);

	memset(big, 'c', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	msg = full_ask(PFSEL_ATTR_SECCTX);
	assert_int_equal(nla_put_string(msg, PFSEL_ATTR_SECCTX, big), 0);
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_int_equal(strlen(q->secctx), PFSEL_QUESTION_SECCTX_MAX - 1);
	nlmsg_free(msg);
	free(q);
}

static void test_parse_optional_missing(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(PFSEL_ATTR_SCRIPT);

	(void)state;
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_string_equal(q->script, "");
	assert_false(q->present & PFSEL_Q_HAS(PFSEL_ATTR_SCRIPT));
	nlmsg_free(msg);
	free(q);
}

static void test_parse_no_id(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(PFSEL_ATTR_ID);

	(void)state;
	assert_int_equal(pfsel_question_parse(msg, q), -EBADMSG);
	assert_non_null(strstr(pfsel_last_error(), "id"));
	nlmsg_free(msg);
	free(q);
}

static void test_parse_wrong_command(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = ask_header(PFSEL_CMD_ANSWER);

	(void)state;
	assert_int_equal(nla_put_u64(msg, PFSEL_ATTR_ID, 1), 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);
	free(q);
}

static void test_parse_wrong_sizes(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	static const char unterminated[4] = { 'a', 'b', 'c', 'd' };
	struct nl_msg *msg;

	(void)state;
	/* A u32 where a u64 belongs. */
	msg = full_ask(PFSEL_ATTR_ID);
	assert_int_equal(nla_put_u32(msg, PFSEL_ATTR_ID, 1), 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);
	/* A 4-byte address. */
	msg = full_ask(PFSEL_ATTR_RADDR);
	assert_int_equal(nla_put(msg, PFSEL_ATTR_RADDR, 4, v4_addr + 12), 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);
	/* A string without its NUL. */
	msg = full_ask(PFSEL_ATTR_EXE);
	assert_int_equal(nla_put(msg, PFSEL_ATTR_EXE, 4, unterminated), 0);
	assert_int_equal(pfsel_question_parse(msg, q), -EPROTO);
	nlmsg_free(msg);
	free(q);
}

static void test_parse_long_string_is_cut(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = nlmsg_alloc_size(16384);
	char *big = malloc(6000);

	(void)state;
	memset(big, 'x', 5999);
	big[0] = '/';
	big[5999] = '\0';
	assert_non_null(genlmsg_put(msg, 0, 0, FAMILY, 0, 0, PFSEL_CMD_ASK,
				    PFSEL_GENL_VERSION));
	assert_int_equal(nla_put_u64(msg, PFSEL_ATTR_ID, 7), 0);
	assert_int_equal(nla_put_string(msg, PFSEL_ATTR_EXE, big), 0);
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_int_equal(strlen(q->exe), PFSEL_QUESTION_PATH_MAX - 1);
	nlmsg_free(msg);
	free(big);
	free(q);
}

/* full_ask() with PFSEL_ATTR_HOSTS of @len bytes at @hosts (NUL included). */
static int parse_hosts(const char *hosts, int len, struct pfsel_question *q)
{
	struct nl_msg *msg = full_ask(-1);
	int ret;

	assert_int_equal(nla_put(msg, PFSEL_ATTR_HOSTS, len, hosts), 0);
	ret = pfsel_question_parse(msg, q);
	nlmsg_free(msg);
	return ret;
}

/* @count names of @each characters ("aaa...a.example" alike), joined. */
static char *names(size_t count, size_t each)
{
	char *text = malloc(count * (each + 1) + 1), *p = text;
	size_t i;

	assert_non_null(text);
	for (i = 0; i < count; i++) {
		memset(p, 'a' + (int)i % 26, each);
		memcpy(p + each - 4, ".org", 4);
		p += each;
		*p++ = ',';
	}
	p[count ? -1 : 0] = '\0';
	return text;
}

/*
 * The host names the kernel knows for the address: absent (none known),
 * one, several, and the largest list the kernel can send (8 names of 253
 * characters, PFSEL_HOSTS_TEXT_MAX with the NUL), copied whole.
 */
static void test_parse_hosts(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(-1);
	char *big = names(PFSEL_HOSTS_PER_ADDR, PFSEL_HOST_NAME_MAX);

	(void)state;
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	assert_string_equal(q->hosts, "");
	assert_false(q->present & PFSEL_Q_HAS(PFSEL_ATTR_HOSTS));
	nlmsg_free(msg);

	assert_int_equal(parse_hosts("www.example.org", 16, q), 0);
	assert_string_equal(q->hosts, "www.example.org");
	assert_true(q->present & PFSEL_Q_HAS(PFSEL_ATTR_HOSTS));
	assert_int_equal(parse_hosts("cdn.example.net,www.example.org", 32, q),
			 0);
	assert_string_equal(q->hosts, "cdn.example.net,www.example.org");

	assert_int_equal(strlen(big) + 1, PFSEL_HOSTS_TEXT_MAX);
	assert_int_equal(parse_hosts(big, (int)strlen(big) + 1, q), 0);
	assert_string_equal(q->hosts, big);
	free(big);
	free(q);
}

/*
 * A list that is not one rejects the whole question, as a string without
 * its NUL does: never cut (half a name is another name), nothing a name
 * cannot hold, no empty names, no more names than the kernel keeps.
 */
static void test_parse_hosts_bad(void **state)
{
	static const char unterminated[4] = { 'a', '.', 'b', 'c' };
	static const char *const bad[] = {
		"",
		",www.example.org",
		"www.example.org,",
		"a.example,,b.example",
		"www.example .org",
		"www.exa\tmple.org",
		"www.\x1b[31mexample.org",
		"www.exampl\xc3\xa9.org",
		"www.example.org\x7f",
	};
	struct pfsel_question *q = malloc(sizeof(*q));
	char *too_long = names(PFSEL_HOSTS_PER_ADDR, PFSEL_HOST_NAME_MAX + 1);
	char *too_many = names(PFSEL_HOSTS_PER_ADDR + 1, 12);
	char *long_name = names(1, PFSEL_HOST_NAME_MAX + 1);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse_hosts(bad[i], (int)strlen(bad[i]) + 1, q) != -EPROTO)
			fail_msg("hosts \"%s\" accepted", bad[i]);
		assert_non_null(strstr(pfsel_last_error(), "host names"));
	}
	/* Longer than PFSEL_HOSTS_TEXT_MAX: refused, not cut. */
	assert_int_equal(parse_hosts(too_long, (int)strlen(too_long) + 1, q),
			 -EPROTO);
	assert_non_null(strstr(pfsel_last_error(), "more than 2032"));
	assert_int_equal(parse_hosts(too_many, (int)strlen(too_many) + 1, q),
			 -EPROTO);
	assert_int_equal(parse_hosts(long_name, (int)strlen(long_name) + 1, q),
			 -EPROTO);
	assert_int_equal(parse_hosts(unterminated, 4, q), -EPROTO);
	free(too_long);
	free(too_many);
	free(long_name);
	free(q);
}

static void test_parse_unknown_attribute_skipped(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct nl_msg *msg = full_ask(-1);

	(void)state;
	assert_int_equal(nla_put_u32(msg, PFSEL_ATTR_MAX + 5, 9), 0);
	assert_int_equal(pfsel_question_parse(msg, q), 0);
	nlmsg_free(msg);
	free(q);
}

static void test_answer_build(void **state)
{
	struct nlattr *tb[PFSEL_ATTR_MAX + 1];
	struct nl_msg *msg = nlmsg_alloc();
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	(void)state;
	assert_int_equal(pfsel_answer_build(msg, FAMILY, 42, PFSEL_ANSWER_DENY,
					    PFSEL_SCOPE_SESSION),
			 0);
	nlh = nlmsg_hdr(msg);
	assert_int_equal(nlh->nlmsg_type, FAMILY);
	assert_true(nlh->nlmsg_flags & NLM_F_ACK);
	g = nlmsg_data(nlh);
	assert_int_equal(g->cmd, PFSEL_CMD_ANSWER);
	assert_int_equal(g->version, PFSEL_GENL_VERSION);
	assert_int_equal(genlmsg_parse(nlh, 0, tb, PFSEL_ATTR_MAX, NULL), 0);
	assert_non_null(tb[PFSEL_ATTR_ID]);
	assert_int_equal(nla_get_u64(tb[PFSEL_ATTR_ID]), 42);
	assert_int_equal(nla_len(tb[PFSEL_ATTR_VERDICT]), 1);
	assert_int_equal(nla_get_u8(tb[PFSEL_ATTR_VERDICT]), PFSEL_ANSWER_DENY);
	assert_int_equal(nla_get_u8(tb[PFSEL_ATTR_SCOPE]), PFSEL_SCOPE_SESSION);
	nlmsg_free(msg);
}

static void test_answer_build_range(void **state)
{
	struct nl_msg *msg = nlmsg_alloc();

	(void)state;
	assert_int_equal(pfsel_answer_build(msg, FAMILY, 1, 2, 0), -EINVAL);
	assert_int_equal(pfsel_answer_build(msg, FAMILY, 1, 0, 4), -EINVAL);
	nlmsg_free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_full),
		cmocka_unit_test(test_parse_optional_missing),
		cmocka_unit_test(test_parse_secctx_absent),
		cmocka_unit_test(test_parse_unanswered),
		cmocka_unit_test(test_parse_hosts),
		cmocka_unit_test(test_parse_hosts_bad),
		cmocka_unit_test(test_parse_secctx_bad),
		cmocka_unit_test(test_parse_no_id),
		cmocka_unit_test(test_parse_wrong_command),
		cmocka_unit_test(test_parse_wrong_sizes),
		cmocka_unit_test(test_parse_long_string_is_cut),
		cmocka_unit_test(test_parse_unknown_attribute_skipped),
		cmocka_unit_test(test_answer_build),
		cmocka_unit_test(test_answer_build_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
