// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the agent <-> prompt messages
 * (pfsel-tools/promptwire/prompt_wire.c), over a real SOCK_SEQPACKET socket
 * pair: every message there and back, a question with every field at its
 * longest and with control bytes, and datagrams that are not messages --
 * cut short, too long, of an unknown type, without an id, with a wrong
 * length, an unknown or repeated attribute, a string too long or without
 * its NUL -- each refused with -EBADMSG and leaving the caller's message
 * as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "prompt_wire.h"
#include "userpolicy.h"

/* The socket pair: [0] the agent's end, [1] the prompt's. */
static int sv[2];

static int setup(void **state)
{
	(void)state;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	/* Non-blocking: a message that did not come is -EAGAIN, no hang. */
	return fcntl(sv[1], F_SETFL, O_NONBLOCK) ||
	       fcntl(sv[0], F_SETFL, O_NONBLOCK);
}

static int teardown(void **state)
{
	(void)state;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

/* Every attribute a question can carry, as the kernel would send it. */
static const uint32_t all_present =
	PFSEL_Q_HAS(PFSEL_ATTR_ID) | PFSEL_Q_HAS(PFSEL_ATTR_PID) |
	PFSEL_Q_HAS(PFSEL_ATTR_TGID) | PFSEL_Q_HAS(PFSEL_ATTR_UID) |
	PFSEL_Q_HAS(PFSEL_ATTR_EXE) | PFSEL_Q_HAS(PFSEL_ATTR_SCRIPT) |
	PFSEL_Q_HAS(PFSEL_ATTR_COMM) | PFSEL_Q_HAS(PFSEL_ATTR_OP) |
	PFSEL_Q_HAS(PFSEL_ATTR_FAMILY) | PFSEL_Q_HAS(PFSEL_ATTR_PROTO) |
	PFSEL_Q_HAS(PFSEL_ATTR_LADDR) | PFSEL_Q_HAS(PFSEL_ATTR_LPORT) |
	PFSEL_Q_HAS(PFSEL_ATTR_RADDR) | PFSEL_Q_HAS(PFSEL_ATTR_RPORT) |
	PFSEL_Q_HAS(PFSEL_ATTR_POLICY) | PFSEL_Q_HAS(PFSEL_ATTR_RULE_FILE) |
	PFSEL_Q_HAS(PFSEL_ATTR_RULE_LINE) | PFSEL_Q_HAS(PFSEL_ATTR_RULE_COL) |
	PFSEL_Q_HAS(PFSEL_ATTR_TIMEOUT_MS) | PFSEL_Q_HAS(PFSEL_ATTR_SECCTX) |
	PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED) | PFSEL_Q_HAS(PFSEL_ATTR_HOSTS);

/* @len - 1 bytes of @c, then its NUL. */
static void fill(char *field, size_t len, char c)
{
	memset(field, c, len - 1);
	field[len - 1] = '\0';
}

/*
 * @count names of PFSEL_HOST_NAME_MAX characters ("hhh...h.example"),
 * joined by ',': with PFSEL_HOSTS_PER_ADDR, the longest list the kernel
 * sends (PFSEL_HOSTS_TEXT_MAX with its NUL).
 */
static void host_list(char *out, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		memset(out, 'h', PFSEL_HOST_NAME_MAX);
		memcpy(out + PFSEL_HOST_NAME_MAX - 8, ".example", 8);
		out += PFSEL_HOST_NAME_MAX;
		*out++ = ',';
	}
	out[-1] = '\0';
}

/* A question with every field set, each string as long as it can be. */
static struct pfsel_question *full_question(void)
{
	struct pfsel_question *q = calloc(1, sizeof(*q));

	assert_non_null(q);
	q->id = UINT64_C(0x0123456789abcdef);
	q->pid = 4242;
	q->tgid = 4240;
	q->uid = 1000;
	fill(q->exe, sizeof(q->exe), 'e');
	q->exe[0] = '/';
	/* Control bytes and an escape sequence go as they are. */
	memcpy(q->exe + 1, "bin/\x1b[2K\n\t\x7f\xff", 12);
	fill(q->script, sizeof(q->script), 's');
	q->script[0] = '/';
	fill(q->comm, sizeof(q->comm), 'c');
	q->op = PFSEL_OP_ACCEPT;
	q->family = PFSEL_FAMILY_INET6;
	q->proto = PFSEL_PROTO_UDP;
	pfsel_parse_addr("2001:db8::2", q->laddr);
	q->lport = 65535;
	pfsel_parse_addr("2001:db8::1", q->raddr);
	q->rport = 443;
	q->policy = 1;
	fill(q->rule_file, sizeof(q->rule_file), 'r');
	q->rule_line = 0xfffffffe;
	q->rule_col = 7;
	q->timeout_ms = 30000;
	fill(q->secctx, sizeof(q->secctx), 'x');
	q->unanswered = PFSEL_ANSWER_DENY;
	host_list(q->hosts, PFSEL_HOSTS_PER_ADDR);
	q->present = all_present;
	return q;
}

/* A message whose every byte is @c, with @q as its question's storage. */
static void poison(struct prompt_message *m, struct pfsel_question *q, int c)
{
	memset(m, c, sizeof(*m));
	memset(q, c, sizeof(*q));
	m->q = q;
}

/* prompt_wire_receive() on @fd must refuse the next datagram, whole. */
static void expect_refused(int fd)
{
	struct pfsel_question *q = malloc(sizeof(*q)),
			      *copy = malloc(sizeof(*q));
	struct prompt_message m, before;

	assert_non_null(q);
	assert_non_null(copy);
	poison(&m, q, 0xa5);
	before = m;
	memcpy(copy, q, sizeof(*q));
	assert_int_equal(prompt_wire_receive(fd, &m), -EBADMSG);
	/* Nothing half filled in. */
	assert_memory_equal(&m, &before, sizeof(m));
	assert_memory_equal(q, copy, sizeof(*q));
	/* And nothing is left of it: the next read finds no message. */
	assert_int_equal(prompt_wire_receive(fd, &m), -EAGAIN);
	free(q);
	free(copy);
}

static void test_ask_round_trip(void **state)
{
	struct pfsel_question *q = full_question(), *r = malloc(sizeof(*r));
	struct prompt_message m;

	(void)state;
	assert_non_null(r);
	/* About 14 KiB of strings: well under PROMPT_WIRE_MAX. */
	assert_int_equal(strlen(q->hosts) + 1, PFSEL_HOSTS_TEXT_MAX);
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 29500), 0);
	memset(&m, 0, sizeof(m));
	m.q = r;
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_int_equal(m.type, PROMPT_MSG_ASK);
	assert_ptr_equal(m.q, r);
	assert_true(m.id == q->id);
	assert_int_equal(m.ms_left, 29500);
	/* Field for field, and which attributes came. */
	assert_memory_equal(r, q, sizeof(*q));
	free(q);
	free(r);
}

/*
 * A question made up (a test's, the GUI tests' driver): what is set
 * arrives, and says so in @present; what is not set is not sent.
 */
static void test_ask_made_up(void **state)
{
	struct pfsel_question *q = calloc(1, sizeof(*q)),
			      *r = malloc(sizeof(*r));
	struct prompt_message m = { .q = r };

	(void)state;
	assert_non_null(q);
	assert_non_null(r);
	q->id = 9;
	strcpy(q->exe, "/usr/bin/curl");
	q->op = PFSEL_OP_CONNECT;
	q->rport = 80;
	q->unanswered = PFSEL_ANSWER_ALLOW; /* 0, and not said: not sent */
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 0), 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_string_equal(r->exe, "/usr/bin/curl");
	assert_int_equal(r->rport, 80);
	assert_int_equal(r->present, PFSEL_Q_HAS(PFSEL_ATTR_ID) |
					     PFSEL_Q_HAS(PFSEL_ATTR_EXE) |
					     PFSEL_Q_HAS(PFSEL_ATTR_OP) |
					     PFSEL_Q_HAS(PFSEL_ATTR_RPORT));

	/* unanswered allow, said: sent. */
	q->present = PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED);
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 0), 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_true(r->present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED));
	assert_int_equal(r->unanswered, PFSEL_ANSWER_ALLOW);

	/* Host names, when there are some: sent, and said. */
	q->present = 0;
	strcpy(q->hosts, "www.example.org,example.org");
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 0), 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_true(r->present & PFSEL_Q_HAS(PFSEL_ATTR_HOSTS));
	assert_string_equal(r->hosts, "www.example.org,example.org");
	q->hosts[0] = '\0';

	/* Refused before sending: no unanswered verdict 2, no string
	 * without its NUL. */
	q->unanswered = 2;
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 0), -EINVAL);
	q->unanswered = 0;
	memset(q->comm, 'c', sizeof(q->comm));
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 0), -EINVAL);
	assert_int_equal(prompt_wire_receive(sv[1], &m), -EAGAIN);
	free(q);
	free(r);
}

static void test_other_round_trips(void **state)
{
	struct prompt_message m;
	unsigned int v, s, w;

	(void)state;
	assert_int_equal(prompt_wire_send_withdraw(sv[0], 17,
						   PROMPT_WITHDRAW_ANSWERED),
			 0);
	memset(&m, 0xff, sizeof(m));
	m.q = NULL;
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_int_equal(m.type, PROMPT_MSG_WITHDRAW);
	assert_true(m.id == 17);
	assert_int_equal(m.reason, PROMPT_WITHDRAW_ANSWERED);
	assert_string_equal(m.text, "");
	assert_null(m.q);

	assert_int_equal(prompt_wire_send_result(
				 sv[0], UINT64_MAX, -EPERM,
				 "no rule added: the system policy asked"),
			 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_int_equal(m.type, PROMPT_MSG_RESULT);
	assert_true(m.id == UINT64_MAX);
	assert_int_equal(m.status, -EPERM);
	assert_string_equal(m.text, "no rule added: the system policy asked");
	assert_int_equal(prompt_wire_send_result(sv[0], 3, 0, NULL), 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	assert_int_equal(m.status, 0);
	assert_string_equal(m.text, "");

	/* Every answer, the other way. */
	for (v = 0; v <= PFSEL_ANSWER_DENY; v++)
		for (s = 0; s <= PFSEL_SCOPE_ALWAYS; s++)
			for (w = 0; w < RULE_WIDTH_COUNT; w++) {
				assert_int_equal(
					prompt_wire_send_answer(sv[1], 100 + w,
								v, s, w),
					0);
				memset(&m, 0xff, sizeof(m));
				m.q = NULL;
				assert_int_equal(prompt_wire_receive(sv[0], &m),
						 1);
				assert_int_equal(m.type, PROMPT_MSG_ANSWER);
				assert_true(m.id == 100 + w);
				assert_int_equal(m.verdict, v);
				assert_int_equal(m.scope, s);
				/* The width goes with "always" only. */
				assert_int_equal(m.width,
						 s == PFSEL_SCOPE_ALWAYS ? w :
									   0);
			}
	/* Out of range: refused before sending. */
	assert_int_equal(prompt_wire_send_answer(sv[1], 1, 2, 0, 0), -EINVAL);
	assert_int_equal(prompt_wire_send_answer(sv[1], 1, 0, 4, 0), -EINVAL);
	assert_int_equal(prompt_wire_send_answer(sv[1], 1, 0, 3,
						 RULE_WIDTH_COUNT),
			 -EINVAL);
	assert_int_equal(prompt_wire_send_withdraw(sv[0], 1, 3), -EINVAL);
	assert_int_equal(prompt_wire_send_result(sv[0], 1, 1, "x"), -EINVAL);
	assert_int_equal(prompt_wire_receive(sv[0], &m), -EAGAIN);
	assert_int_equal(prompt_wire_receive(sv[1], &m), -EAGAIN);
}

/* A line longer than the receiver keeps is cut at a character, and says so. */
static void test_result_text_cut(void **state)
{
	char text[3000], *p;
	struct prompt_message m = { 0 };
	size_t i, len;

	(void)state;
	for (i = 0, p = text; i < 1400; i++, p += 2)
		memcpy(p, "\xc3\xa9", 2); /* U+00E9, two bytes */
	*p = '\0';
	assert_int_equal(prompt_wire_send_result(sv[0], 5, 0, text), 0);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	len = strlen(m.text);
	assert_true(len < sizeof(m.text));
	assert_string_equal(m.text + len - 3, "...");
	/* Whole characters before the dots. */
	assert_int_equal((len - 3) % 2, 0);
	assert_memory_equal(m.text, text, len - 3);
}

/* The agent's end takes no questions: an ASK there is refused. */
static void test_ask_where_none_is_taken(void **state)
{
	struct pfsel_question *q = full_question();
	struct prompt_message m, before;

	(void)state;
	assert_int_equal(prompt_wire_send_ask(sv[1], q, 1), 0);
	memset(&m, 0x5a, sizeof(m));
	m.q = NULL;
	before = m;
	assert_int_equal(prompt_wire_receive(sv[0], &m), -EBADMSG);
	assert_memory_equal(&m, &before, sizeof(m));
	free(q);
}

static void test_closed_and_empty(void **state)
{
	struct prompt_message m = { 0 };

	(void)state;
	assert_int_equal(prompt_wire_receive(sv[1], &m), -EAGAIN);
	close(sv[0]);
	assert_int_equal(prompt_wire_receive(sv[1], &m), 0);
	assert_int_equal(prompt_wire_send_answer(sv[1], 1, 0, 0, 0), -EPIPE);
	sv[0] = open("/dev/null", O_RDONLY); /* for teardown */
}

/* ---------------------------------------------------------------------- */
/* Malformed datagrams, made by hand                                       */
/* ---------------------------------------------------------------------- */

static struct nl_msg *hand_message(int type)
{
	struct nl_msg *msg = nlmsg_alloc_size(2 * PROMPT_WIRE_MAX);

	assert_non_null(msg);
	assert_non_null(nlmsg_put(msg, 0, 0, type, 0, 0));
	return msg;
}

/* Sends @msg (freed) as it is, or its first @len bytes (0: all). */
static void send_raw(struct nl_msg *msg, size_t len)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (!len)
		len = nlh->nlmsg_len;
	assert_int_equal(send(sv[0], nlh, len, 0), (ssize_t)len);
	nlmsg_free(msg);
}

/* An ANSWER with @id, @verdict, @scope as attributes, more to be added. */
static struct nl_msg *answer(void)
{
	struct nl_msg *msg = hand_message(PROMPT_MSG_ANSWER);

	assert_int_equal(nla_put_u64(msg, PROMPT_ATTR_ID, 1), 0);
	assert_int_equal(nla_put_u8(msg, PROMPT_ATTR_VERDICT, 0), 0);
	assert_int_equal(nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0), 0);
	return msg;
}

/* An ASK whose question has an id and what the caller puts after. */
static struct nl_msg *ask(struct nlattr **nest)
{
	struct nl_msg *msg = hand_message(PROMPT_MSG_ASK);

	assert_int_equal(nla_put_u32(msg, PROMPT_ATTR_MS_LEFT, 1000), 0);
	*nest = nla_nest_start(msg, PROMPT_ATTR_QUESTION);
	assert_non_null(*nest);
	assert_int_equal(nla_put_u64(msg, PFSEL_ATTR_ID, 1), 0);
	return msg;
}

static void test_hand_made_well_formed(void **state)
{
	struct pfsel_question *q = malloc(sizeof(*q));
	struct prompt_message m = { .q = q };
	struct nlattr *nest;
	struct nl_msg *msg;

	(void)state;
	/* The helpers below make messages that are right as they are. */
	send_raw(answer(), 0);
	m.q = NULL;
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	msg = ask(&nest);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	m.q = q;
	assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
	free(q);
}

static void test_malformed_framing(void **state)
{
	struct pfsel_question *q = full_question();
	char big[PROMPT_WIRE_MAX + 100];
	struct nl_msg *msg;

	(void)state;
	/* Shorter than a header. */
	assert_int_equal(send(sv[0], "abc", 3, 0), 3);
	expect_refused(sv[1]);
	/* Cut short: the header says more than came. */
	msg = answer();
	send_raw(msg, nlmsg_hdr(msg)->nlmsg_len - 4);
	expect_refused(sv[1]);
	/* A header that says less than came. */
	msg = answer();
	nlmsg_hdr(msg)->nlmsg_len -= 4;
	send_raw(msg, nlmsg_hdr(msg)->nlmsg_len + 4);
	expect_refused(sv[1]);
	/* Longer than PROMPT_WIRE_MAX: refused, not read cut short. */
	memset(big, 0, sizeof(big));
	((struct nlmsghdr *)big)->nlmsg_len = sizeof(big);
	((struct nlmsghdr *)big)->nlmsg_type = PROMPT_MSG_ANSWER;
	assert_int_equal(send(sv[0], big, sizeof(big), 0),
			 (ssize_t)sizeof(big));
	expect_refused(sv[1]);
	/* Unknown types, around the known ones. */
	send_raw(hand_message(PROMPT_MSG_ASK - 1), 0);
	expect_refused(sv[1]);
	send_raw(hand_message(PROMPT_MSG_ANSWER + 1), 0);
	expect_refused(sv[1]);
	send_raw(hand_message(NLMSG_ERROR), 0);
	expect_refused(sv[1]);
	/* Bytes after the last attribute. */
	msg = answer();
	assert_non_null(nlmsg_reserve(msg, 2, 1));
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* After all that, a message is still read as one. */
	assert_int_equal(prompt_wire_send_ask(sv[0], q, 5), 0);
	{
		struct pfsel_question *r = malloc(sizeof(*r));
		struct prompt_message m = { .q = r };

		assert_int_equal(prompt_wire_receive(sv[1], &m), 1);
		assert_memory_equal(r, q, sizeof(*q));
		free(r);
	}
	free(q);
}

static void test_malformed_attributes(void **state)
{
	struct nl_msg *msg;

	(void)state;
	/* No id. */
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u8(msg, PROMPT_ATTR_VERDICT, 0);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* No verdict; a WITHDRAW without its reason; a RESULT without
	 * its status. */
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_WITHDRAW);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_RESULT);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* An id of 4 bytes. */
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u32(msg, PROMPT_ATTR_ID, 1);
	nla_put_u8(msg, PROMPT_ATTR_VERDICT, 0);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* A verdict of 2 bytes; out of range values. */
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u16(msg, PROMPT_ATTR_VERDICT, 0);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u8(msg, PROMPT_ATTR_VERDICT, 2);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_ANSWER);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u8(msg, PROMPT_ATTR_VERDICT, 0);
	nla_put_u8(msg, PROMPT_ATTR_SCOPE, 4);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = answer();
	nla_put_u8(msg, PROMPT_ATTR_WIDTH, RULE_WIDTH_COUNT);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_WITHDRAW);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u8(msg, PROMPT_ATTR_REASON, 3);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_RESULT);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u32(msg, PROMPT_ATTR_STATUS, 5);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* An unknown attribute; one that is not this message's; one twice. */
	msg = answer();
	nla_put_u8(msg, PROMPT_ATTR_MAX + 1, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = answer();
	nla_put_u32(msg, PROMPT_ATTR_MS_LEFT, 0);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = answer();
	nla_put_u8(msg, PROMPT_ATTR_VERDICT, 1);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* A text without its NUL, and one longer than the field. */
	msg = hand_message(PROMPT_MSG_RESULT);
	nla_put_u64(msg, PROMPT_ATTR_ID, 1);
	nla_put_u32(msg, PROMPT_ATTR_STATUS, 0);
	nla_put(msg, PROMPT_ATTR_TEXT, 3, "abc");
	send_raw(msg, 0);
	expect_refused(sv[1]);
	{
		char text[1025];

		fill(text, sizeof(text), 't');
		msg = hand_message(PROMPT_MSG_RESULT);
		nla_put_u64(msg, PROMPT_ATTR_ID, 1);
		nla_put_u32(msg, PROMPT_ATTR_STATUS, 0);
		nla_put_string(msg, PROMPT_ATTR_TEXT, text);
		send_raw(msg, 0);
		expect_refused(sv[1]);
	}
}

static void test_malformed_question(void **state)
{
	char path[PFSEL_QUESTION_PATH_MAX + 1];
	struct nlattr *nest;
	struct nl_msg *msg;

	(void)state;
	/* An ASK without its question, or without the time left. */
	msg = hand_message(PROMPT_MSG_ASK);
	nla_put_u32(msg, PROMPT_ATTR_MS_LEFT, 1);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = hand_message(PROMPT_MSG_ASK);
	nest = nla_nest_start(msg, PROMPT_ATTR_QUESTION);
	nla_put_u64(msg, PFSEL_ATTR_ID, 1);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* A question without its id. */
	msg = hand_message(PROMPT_MSG_ASK);
	nla_put_u32(msg, PROMPT_ATTR_MS_LEFT, 1);
	nest = nla_nest_start(msg, PROMPT_ATTR_QUESTION);
	nla_put_string(msg, PFSEL_ATTR_EXE, "/usr/bin/curl");
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* A path longer than the field (the kernel's are cut by libpfsel
	 * before they get here). */
	fill(path, sizeof(path), 'p');
	msg = ask(&nest);
	nla_put_string(msg, PFSEL_ATTR_EXE, path);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* A string without its NUL; an empty one. */
	msg = ask(&nest);
	nla_put(msg, PFSEL_ATTR_COMM, 4, "curl");
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = ask(&nest);
	nla_put(msg, PFSEL_ATTR_COMM, 0, NULL);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* Wrong lengths: an address of 4 bytes, a port of 4. */
	msg = ask(&nest);
	nla_put(msg, PFSEL_ATTR_RADDR, 4, "\xc0\x00\x02\x01");
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = ask(&nest);
	nla_put_u32(msg, PFSEL_ATTR_RPORT, 80);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* An unanswered verdict that is neither allow nor deny. */
	msg = ask(&nest);
	nla_put_u8(msg, PFSEL_ATTR_UNANSWERED, 2);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	/* Host names that are not a list: a blank, an empty name, a list
	 * longer than the kernel sends. */
	msg = ask(&nest);
	nla_put_string(msg, PFSEL_ATTR_HOSTS, "www.example.org example.org");
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = ask(&nest);
	nla_put_string(msg, PFSEL_ATTR_HOSTS, "www.example.org,");
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	{
		char hosts[PFSEL_HOSTS_TEXT_MAX + PFSEL_HOST_NAME_MAX + 1];

		host_list(hosts, PFSEL_HOSTS_PER_ADDR + 1);
		msg = ask(&nest);
		nla_put_string(msg, PFSEL_ATTR_HOSTS, hosts);
		nla_nest_end(msg, nest);
		send_raw(msg, 0);
		expect_refused(sv[1]);
	}
	/* Attributes a question does not have: an answer's, an unknown
	 * one, the id twice. */
	msg = ask(&nest);
	nla_put_u8(msg, PFSEL_ATTR_VERDICT, 0);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = ask(&nest);
	nla_put_u8(msg, PFSEL_ATTR_MAX + 1, 0);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
	msg = ask(&nest);
	nla_put_u64(msg, PFSEL_ATTR_ID, 2);
	nla_nest_end(msg, nest);
	send_raw(msg, 0);
	expect_refused(sv[1]);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_ask_round_trip),		 T(test_ask_made_up),
		T(test_other_round_trips),	 T(test_result_text_cut),
		T(test_ask_where_none_is_taken), T(test_closed_and_empty),
		T(test_hand_made_well_formed),	 T(test_malformed_framing),
		T(test_malformed_attributes),	 T(test_malformed_question),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
