// SPDX-License-Identifier: GPL-2.0-only
/*
 * libpromptwire - pfsel-agent <-> pfsel-prompt: the messages on their
 * socket pair (prompt_wire.h), with libnl-3's message and attribute
 * helpers.
 *
 * Both ends are ours, built from the same sources, so the decoder is
 * strict: whatever does not have exactly the form the encoder writes is
 * refused whole (-EBADMSG) and leaves the caller's message untouched.
 * The agent trusts nothing the prompt sends but an answer to a question
 * it asked; the prompt shows what the agent sends, escaped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "prompt_wire.h"
#include "userpolicy.h"

/* A bit per attribute type, for the sets below. */
#define BIT(type) (UINT64_C(1) << (type))

/* Fixed-size attributes: the length is exact. */
#define FIXED(t, len)                                         \
	{                                                     \
		.type = (t), .minlen = (len), .maxlen = (len) \
	}
/* Strings: NUL-terminated, and fitting their field with the NUL. */
#define STRING(size)                                              \
	{                                                         \
		.type = NLA_STRING, .minlen = 1, .maxlen = (size) \
	}

static const struct nla_policy prompt_policy[PROMPT_ATTR_MAX + 1] = {
	[PROMPT_ATTR_ID] = FIXED(NLA_U64, 8),
	[PROMPT_ATTR_VERDICT] = FIXED(NLA_U8, 1),
	[PROMPT_ATTR_SCOPE] = FIXED(NLA_U8, 1),
	[PROMPT_ATTR_WIDTH] = FIXED(NLA_U8, 1),
	[PROMPT_ATTR_REASON] = FIXED(NLA_U8, 1),
	[PROMPT_ATTR_STATUS] = FIXED(NLA_U32, 4),
	[PROMPT_ATTR_TEXT] = STRING(sizeof(((struct prompt_message *)0)->text)),
	[PROMPT_ATTR_MS_LEFT] = FIXED(NLA_U32, 4),
	[PROMPT_ATTR_QUESTION] = { .type = NLA_NESTED },
};

/* The question's attributes, as the kernel sends them (uapi/linux/pfsel.h). */
static const struct nla_policy question_policy[PFSEL_ATTR_MAX + 1] = {
	[PFSEL_ATTR_ID] = FIXED(NLA_U64, 8),
	[PFSEL_ATTR_PID] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_TGID] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_UID] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_EXE] = STRING(PFSEL_QUESTION_PATH_MAX),
	[PFSEL_ATTR_SCRIPT] = STRING(PFSEL_QUESTION_PATH_MAX),
	[PFSEL_ATTR_COMM] = STRING(PFSEL_QUESTION_COMM_MAX),
	[PFSEL_ATTR_OP] = FIXED(NLA_U8, 1),
	[PFSEL_ATTR_FAMILY] = FIXED(NLA_U8, 1),
	[PFSEL_ATTR_PROTO] = FIXED(NLA_U8, 1),
	[PFSEL_ATTR_LADDR] = FIXED(NLA_UNSPEC, 16),
	[PFSEL_ATTR_LPORT] = FIXED(NLA_U16, 2),
	[PFSEL_ATTR_RADDR] = FIXED(NLA_UNSPEC, 16),
	[PFSEL_ATTR_RPORT] = FIXED(NLA_U16, 2),
	[PFSEL_ATTR_POLICY] = FIXED(NLA_U8, 1),
	[PFSEL_ATTR_RULE_FILE] = STRING(PFSEL_QUESTION_PATH_MAX),
	[PFSEL_ATTR_RULE_LINE] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_RULE_COL] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_TIMEOUT_MS] = FIXED(NLA_U32, 4),
	[PFSEL_ATTR_SECCTX] = STRING(PFSEL_QUESTION_SECCTX_MAX),
	[PFSEL_ATTR_UNANSWERED] = FIXED(NLA_U8, 1),
	[PFSEL_ATTR_HOSTS] = STRING(PFSEL_HOSTS_TEXT_MAX),
};

/* What a question may carry: what struct pfsel_question keeps. */
static const uint64_t question_allowed =
	BIT(PFSEL_ATTR_ID) | BIT(PFSEL_ATTR_PID) | BIT(PFSEL_ATTR_TGID) |
	BIT(PFSEL_ATTR_UID) | BIT(PFSEL_ATTR_EXE) | BIT(PFSEL_ATTR_SCRIPT) |
	BIT(PFSEL_ATTR_COMM) | BIT(PFSEL_ATTR_OP) | BIT(PFSEL_ATTR_FAMILY) |
	BIT(PFSEL_ATTR_PROTO) | BIT(PFSEL_ATTR_LADDR) | BIT(PFSEL_ATTR_LPORT) |
	BIT(PFSEL_ATTR_RADDR) | BIT(PFSEL_ATTR_RPORT) | BIT(PFSEL_ATTR_POLICY) |
	BIT(PFSEL_ATTR_RULE_FILE) | BIT(PFSEL_ATTR_RULE_LINE) |
	BIT(PFSEL_ATTR_RULE_COL) | BIT(PFSEL_ATTR_TIMEOUT_MS) |
	BIT(PFSEL_ATTR_SECCTX) | BIT(PFSEL_ATTR_UNANSWERED) |
	BIT(PFSEL_ATTR_HOSTS);

/**
 * struct message_form - The attributes a message type has
 * @required: each must be there.
 * @optional: each may be there.
 */
struct message_form {
	uint64_t required;
	uint64_t optional;
};

static const struct message_form forms[] = {
	[PROMPT_MSG_ASK - PROMPT_MSG_ASK] = {
		.required = BIT(PROMPT_ATTR_MS_LEFT) | BIT(PROMPT_ATTR_QUESTION),
	},
	[PROMPT_MSG_WITHDRAW - PROMPT_MSG_ASK] = {
		.required = BIT(PROMPT_ATTR_ID) | BIT(PROMPT_ATTR_REASON),
	},
	[PROMPT_MSG_RESULT - PROMPT_MSG_ASK] = {
		.required = BIT(PROMPT_ATTR_ID) | BIT(PROMPT_ATTR_STATUS),
		.optional = BIT(PROMPT_ATTR_TEXT),
	},
	[PROMPT_MSG_ANSWER - PROMPT_MSG_ASK] = {
		.required = BIT(PROMPT_ATTR_ID) | BIT(PROMPT_ATTR_VERDICT) |
			    BIT(PROMPT_ATTR_SCOPE),
		.optional = BIT(PROMPT_ATTR_WIDTH),
	},
};

/* ---------------------------------------------------------------------- */
/* Sending                                                                 */
/* ---------------------------------------------------------------------- */

/* A message of @type with room for the largest one; NULL when out of memory. */
static struct nl_msg *new_message(const unsigned int type)
{
	struct nl_msg *msg = nlmsg_alloc_size(PROMPT_WIRE_MAX);

	if (msg && !nlmsg_put(msg, 0, 0, (int)type, 0, 0)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Sends @msg whole as one datagram, and frees it: 0 or a negative errno. */
static int send_message(const int fd, struct nl_msg *const msg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const size_t len = nlh->nlmsg_len;
	ssize_t n;
	int err;

	do
		/* MSG_NOSIGNAL: a prompt that went away is an error, not a
		 * SIGPIPE that ends the agent. */
		n = send(fd, nlh, len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	err = n < 0 ? -errno : 0;
	nlmsg_free(msg);
	if (err)
		return err;
	/* A seqpacket datagram goes whole or not at all. */
	return (size_t)n == len ? 0 : -EIO;
}

/*
 * A string field of the question, if it is set (or was received): 0, or
 * -EINVAL for a field without its NUL, -EMSGSIZE when the message is full.
 */
static int put_string(struct nl_msg *const msg, const int type,
		      const char *const field, const size_t size,
		      const uint32_t present)
{
	if (strnlen(field, size) == size)
		return -EINVAL;
	if (!field[0] && !(present & PFSEL_Q_HAS(type)))
		return 0;
	return nla_put_string(msg, type, field) ? -EMSGSIZE : 0;
}

/*
 * The question's PFSEL_ATTR_* into @msg.  An attribute goes when the
 * kernel sent it (@q->present) or its field is set, so that a question
 * the kernel sent arrives as it was, and one made up (tests) arrives
 * with what it says.
 */
static int put_question(struct nl_msg *const msg,
			const struct pfsel_question *const q)
{
	static const uint8_t zero[16];
	const uint32_t has = q->present;
	int err = 0;

#define PUT_INT(kind, type, value)                                    \
	do {                                                          \
		if (!err && ((value) || (has & PFSEL_Q_HAS(type))) && \
		    nla_put_##kind(msg, type, value))                 \
			err = -EMSGSIZE;                              \
	} while (0)
#define PUT_ADDR(type, value)                                                 \
	do {                                                                  \
		if (!err &&                                                   \
		    (memcmp(value, zero, 16) || (has & PFSEL_Q_HAS(type))) && \
		    nla_put(msg, type, 16, value))                            \
			err = -EMSGSIZE;                                      \
	} while (0)
#define PUT_STRING(type, field)                                           \
	do {                                                              \
		if (!err)                                                 \
			err = put_string(msg, type, field, sizeof(field), \
					 has);                            \
	} while (0)

	if (nla_put_u64(msg, PFSEL_ATTR_ID, q->id))
		return -EMSGSIZE;
	PUT_INT(u32, PFSEL_ATTR_PID, q->pid);
	PUT_INT(u32, PFSEL_ATTR_TGID, q->tgid);
	PUT_INT(u32, PFSEL_ATTR_UID, q->uid);
	PUT_STRING(PFSEL_ATTR_EXE, q->exe);
	PUT_STRING(PFSEL_ATTR_SCRIPT, q->script);
	PUT_STRING(PFSEL_ATTR_COMM, q->comm);
	PUT_INT(u8, PFSEL_ATTR_OP, q->op);
	PUT_INT(u8, PFSEL_ATTR_FAMILY, q->family);
	PUT_INT(u8, PFSEL_ATTR_PROTO, q->proto);
	PUT_ADDR(PFSEL_ATTR_LADDR, q->laddr);
	PUT_INT(u16, PFSEL_ATTR_LPORT, q->lport);
	PUT_ADDR(PFSEL_ATTR_RADDR, q->raddr);
	PUT_INT(u16, PFSEL_ATTR_RPORT, q->rport);
	PUT_INT(u8, PFSEL_ATTR_POLICY, q->policy);
	PUT_STRING(PFSEL_ATTR_RULE_FILE, q->rule_file);
	PUT_INT(u32, PFSEL_ATTR_RULE_LINE, q->rule_line);
	PUT_INT(u32, PFSEL_ATTR_RULE_COL, q->rule_col);
	PUT_INT(u32, PFSEL_ATTR_TIMEOUT_MS, q->timeout_ms);
	PUT_STRING(PFSEL_ATTR_SECCTX, q->secctx);
	PUT_INT(u8, PFSEL_ATTR_UNANSWERED, q->unanswered);
	PUT_STRING(PFSEL_ATTR_HOSTS, q->hosts);
#undef PUT_INT
#undef PUT_ADDR
#undef PUT_STRING
	return err;
}

int prompt_wire_send_ask(const int fd, const struct pfsel_question *const q,
			 const uint32_t ms_left)
{
	struct nl_msg *msg;
	struct nlattr *nest;
	int err;

	if (q->unanswered > PFSEL_ANSWER_DENY)
		return -EINVAL;
	msg = new_message(PROMPT_MSG_ASK);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u32(msg, PROMPT_ATTR_MS_LEFT, ms_left)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	nest = nla_nest_start(msg, PROMPT_ATTR_QUESTION);
	err = nest ? put_question(msg, q) : -EMSGSIZE;
	if (!err && nla_nest_end(msg, nest))
		err = -EMSGSIZE;
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return send_message(fd, msg);
}

int prompt_wire_send_withdraw(const int fd, const uint64_t id,
			      const unsigned int reason)
{
	struct nl_msg *msg;

	if (reason > PROMPT_WITHDRAW_STOPPING)
		return -EINVAL;
	msg = new_message(PROMPT_MSG_WITHDRAW);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64(msg, PROMPT_ATTR_ID, id) ||
	    nla_put_u8(msg, PROMPT_ATTR_REASON, (uint8_t)reason)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return send_message(fd, msg);
}

int prompt_wire_send_result(const int fd, const uint64_t id, const int status,
			    const char *const text)
{
	char line[sizeof(((struct prompt_message *)0)->text)];
	size_t len = text ? strlen(text) : 0;
	struct nl_msg *msg;

	if (status > 0)
		return -EINVAL;
	/*
	 * A line for a person: one longer than the receiver keeps (a rule
	 * with long paths) is cut, at a character's start, and says so.
	 */
	if (len >= sizeof(line)) {
		len = sizeof(line) - sizeof("...");
		while (len && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;
	}
	snprintf(line, sizeof(line), "%.*s%s", (int)len, text ? text : "",
		 text && len < strlen(text) ? "..." : "");
	msg = new_message(PROMPT_MSG_RESULT);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64(msg, PROMPT_ATTR_ID, id) ||
	    nla_put_u32(msg, PROMPT_ATTR_STATUS, (uint32_t)status) ||
	    nla_put_string(msg, PROMPT_ATTR_TEXT, line)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return send_message(fd, msg);
}

int prompt_wire_send_answer(const int fd, const uint64_t id,
			    const unsigned int verdict,
			    const unsigned int scope, const unsigned int width)
{
	struct nl_msg *msg;

	if (verdict > PFSEL_ANSWER_DENY || scope > PFSEL_SCOPE_ALWAYS ||
	    width >= RULE_WIDTH_COUNT)
		return -EINVAL;
	msg = new_message(PROMPT_MSG_ANSWER);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u64(msg, PROMPT_ATTR_ID, id) ||
	    nla_put_u8(msg, PROMPT_ATTR_VERDICT, (uint8_t)verdict) ||
	    nla_put_u8(msg, PROMPT_ATTR_SCOPE, (uint8_t)scope) ||
	    (scope == PFSEL_SCOPE_ALWAYS &&
	     nla_put_u8(msg, PROMPT_ATTR_WIDTH, (uint8_t)width))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return send_message(fd, msg);
}

/* ---------------------------------------------------------------------- */
/* Receiving                                                               */
/* ---------------------------------------------------------------------- */

/*
 * The set of attribute types in @len bytes at @head, when each is known
 * (1 to @maxtype, and in @allowed), none comes twice and they fill the
 * bytes exactly; else -EBADMSG.  nla_parse() would drop unknown and
 * repeated attributes and trailing bytes without a word.
 */
static int attr_set(struct nlattr *const head, const int len, const int maxtype,
		    const uint64_t allowed, uint64_t *set)
{
	struct nlattr *pos;
	int rem, type;

	*set = 0;
	nla_for_each_attr(pos, head, len, rem) {
		type = nla_type(pos);
		if (type < 1 || type > maxtype || !(allowed & BIT(type)) ||
		    (*set & BIT(type)))
			return -EBADMSG;
		*set |= BIT(type);
	}
	return rem ? -EBADMSG : 0;
}

/* The question nested in @nest, into @q (storage of the caller's). */
static int get_question(struct nlattr *const nest,
			struct pfsel_question *const q)
{
	struct nlattr *tb[PFSEL_ATTR_MAX + 1];
	uint64_t set;

	if (attr_set(nla_data(nest), nla_len(nest), PFSEL_ATTR_MAX,
		     question_allowed, &set) ||
	    !(set & BIT(PFSEL_ATTR_ID)) ||
	    nla_parse_nested(tb, PFSEL_ATTR_MAX, nest, question_policy) < 0)
		return -EBADMSG;
	/* libpfsel's own reader of the kernel's question. */
	return pfsel_question_from_attrs(tb, PFSEL_ATTR_MAX, q) ? -EBADMSG : 0;
}

/* Decodes the datagram @nlh of @len bytes into @m, or -EBADMSG. */
static int decode(struct nlmsghdr *const nlh, const size_t len,
		  struct prompt_message *const m)
{
	struct nlattr *tb[PROMPT_ATTR_MAX + 1];
	struct pfsel_question *q = NULL;
	const struct message_form *form;
	struct prompt_message out;
	uint64_t set;
	int err;

	if (len < NLMSG_HDRLEN || nlh->nlmsg_len != len ||
	    nlh->nlmsg_type < PROMPT_MSG_ASK ||
	    nlh->nlmsg_type > PROMPT_MSG_ANSWER)
		return -EBADMSG;
	form = &forms[nlh->nlmsg_type - PROMPT_MSG_ASK];
	if (attr_set(nlmsg_attrdata(nlh, 0), nlmsg_attrlen(nlh, 0),
		     PROMPT_ATTR_MAX, form->required | form->optional, &set) ||
	    (set & form->required) != form->required ||
	    nlmsg_parse(nlh, 0, tb, PROMPT_ATTR_MAX, prompt_policy) < 0)
		return -EBADMSG;

	memset(&out, 0, sizeof(out));
	out.type = nlh->nlmsg_type;
	out.q = m->q;
	if (tb[PROMPT_ATTR_ID])
		out.id = nla_get_u64(tb[PROMPT_ATTR_ID]);
	if (tb[PROMPT_ATTR_VERDICT])
		out.verdict = nla_get_u8(tb[PROMPT_ATTR_VERDICT]);
	if (tb[PROMPT_ATTR_SCOPE])
		out.scope = nla_get_u8(tb[PROMPT_ATTR_SCOPE]);
	if (tb[PROMPT_ATTR_WIDTH])
		out.width = nla_get_u8(tb[PROMPT_ATTR_WIDTH]);
	if (tb[PROMPT_ATTR_REASON])
		out.reason = nla_get_u8(tb[PROMPT_ATTR_REASON]);
	if (tb[PROMPT_ATTR_STATUS])
		out.status = (int)nla_get_u32(tb[PROMPT_ATTR_STATUS]);
	if (tb[PROMPT_ATTR_TEXT])
		nla_strlcpy(out.text, tb[PROMPT_ATTR_TEXT], sizeof(out.text));
	if (tb[PROMPT_ATTR_MS_LEFT])
		out.ms_left = nla_get_u32(tb[PROMPT_ATTR_MS_LEFT]);
	if (out.verdict > PFSEL_ANSWER_DENY || out.scope > PFSEL_SCOPE_ALWAYS ||
	    out.width >= RULE_WIDTH_COUNT ||
	    out.reason > PROMPT_WITHDRAW_STOPPING || out.status > 0)
		return -EBADMSG;

	if (out.type == PROMPT_MSG_ASK) {
		/* An end that gave no storage takes no questions. */
		if (!m->q)
			return -EBADMSG;
		q = malloc(sizeof(*q));
		if (!q)
			return -ENOMEM;
		err = get_question(tb[PROMPT_ATTR_QUESTION], q);
		if (err) {
			free(q);
			return err;
		}
		out.id = q->id;
		memcpy(m->q, q, sizeof(*q));
		free(q);
	}
	*m = out;
	return 1;
}

int prompt_wire_receive(const int fd, struct prompt_message *const m)
{
	/* Aligned as a netlink header, and as big as the largest message. */
	union {
		struct nlmsghdr nlh;
		char bytes[PROMPT_WIRE_MAX];
	} buf;
	ssize_t n;

	do
		/*
		 * MSG_TRUNC: the datagram's real length, so that one longer
		 * than the buffer is refused rather than read cut short.
		 */
		n = recv(fd, &buf, sizeof(buf), MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	if ((size_t)n > sizeof(buf))
		return -EBADMSG;
	return decode(&buf.nlh, (size_t)n, m);
}
