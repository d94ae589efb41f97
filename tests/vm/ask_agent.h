/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - a minimal agent for the generic netlink family "pfsel"
 * (uapi/linux/pfsel.h), over libnl-genl-3.
 *
 * It is independent of libpfsel and pfsel-agent on purpose: it checks the
 * kernel's side of the interface, not theirs.  One socket, one request at a
 * time: a request is sent with NLM_F_ACK and the kernel's ack (0 or a
 * negative errno) is its result; questions (PFSEL_CMD_ASK, unicast, with
 * sequence number 0) that arrive while an ack is awaited are queued.
 * Registering needs root (CAP_MAC_ADMIN) and names the user; the process
 * may then become the user and go on answering on the same socket.
 * Besides registering, answering and reading questions, it sends whatever
 * it is given -- any command with any attributes, or raw bytes -- for the
 * tests of bad input.
 */

#ifndef PFSEL_ASK_AGENT_H
#define PFSEL_ASK_AGENT_H

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "pfsel.h"

/* How long a request waits for the kernel's ack. */
#define ASK_AGENT_ACK_MS 2000
/* Questions kept while an ack is awaited. */
#define ASK_AGENT_QUEUE 128

/**
 * struct ask_question - A question, as the agent received it
 *
 * @seen: bit N set when attribute N was present.
 * The other fields are the attributes of the same names; strings are
 * truncated to fit and always NUL-terminated.
 */
struct ask_question {
	uint64_t seen;
	uint64_t id;
	uint32_t pid, tgid, uid;
	char exe[256], script[256], comm[32], rule_file[256];
	uint8_t op, family, proto, policy;
	uint8_t laddr[16], raddr[16];
	uint16_t lport, rport;
	uint32_t rule_line, rule_col, timeout_ms;
};

/**
 * struct ask_agent - One netlink socket of the family
 *
 * @sock: the libnl socket.
 * @family: the family's id, resolved through nlctrl.
 * @queue: questions received and not yet taken by ask_agent_next().
 * @head: the first of them.
 * @count: how many.
 * @lost: questions dropped because @queue was full.
 * @acked: the awaited ack came.
 * @ack_err: its errno (negative) or 0.
 */
struct ask_agent {
	struct nl_sock *sock;
	int family;
	struct ask_question queue[ASK_AGENT_QUEUE];
	unsigned int head, count, lost;
	bool acked;
	int ack_err;
};

/* One attribute of a request: its type and its payload. */
struct ask_attr {
	uint16_t type;
	uint16_t len;
	const void *data;
};

static inline long long ask_agent_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void ask_agent_str(char *dst, size_t size,
				 const struct nlattr *attr)
{
	size_t len = (size_t)nla_len(attr);

	if (len >= size)
		len = size - 1;
	memcpy(dst, nla_data(attr), len);
	dst[len] = '\0';
}

/* Parse a PFSEL_CMD_ASK message into @q: 0, or -EINVAL if it is not one. */
static inline int ask_agent_parse(struct nl_msg *msg, struct ask_question *q)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = genlmsg_hdr(nlh);
	struct nlattr *attrs[PFSEL_ATTR_MAX + 1];
	int i;

	if (gnlh->cmd != PFSEL_CMD_ASK ||
	    genlmsg_parse(nlh, 0, attrs, PFSEL_ATTR_MAX, NULL))
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	for (i = 1; i <= PFSEL_ATTR_MAX; i++)
		if (attrs[i])
			q->seen |= 1ULL << i;
	if (attrs[PFSEL_ATTR_ID])
		q->id = nla_get_u64(attrs[PFSEL_ATTR_ID]);
	if (attrs[PFSEL_ATTR_PID])
		q->pid = nla_get_u32(attrs[PFSEL_ATTR_PID]);
	if (attrs[PFSEL_ATTR_TGID])
		q->tgid = nla_get_u32(attrs[PFSEL_ATTR_TGID]);
	if (attrs[PFSEL_ATTR_UID])
		q->uid = nla_get_u32(attrs[PFSEL_ATTR_UID]);
	if (attrs[PFSEL_ATTR_EXE])
		ask_agent_str(q->exe, sizeof(q->exe), attrs[PFSEL_ATTR_EXE]);
	if (attrs[PFSEL_ATTR_SCRIPT])
		ask_agent_str(q->script, sizeof(q->script),
			      attrs[PFSEL_ATTR_SCRIPT]);
	if (attrs[PFSEL_ATTR_COMM])
		ask_agent_str(q->comm, sizeof(q->comm), attrs[PFSEL_ATTR_COMM]);
	if (attrs[PFSEL_ATTR_OP])
		q->op = nla_get_u8(attrs[PFSEL_ATTR_OP]);
	if (attrs[PFSEL_ATTR_FAMILY])
		q->family = nla_get_u8(attrs[PFSEL_ATTR_FAMILY]);
	if (attrs[PFSEL_ATTR_PROTO])
		q->proto = nla_get_u8(attrs[PFSEL_ATTR_PROTO]);
	if (attrs[PFSEL_ATTR_LADDR] && nla_len(attrs[PFSEL_ATTR_LADDR]) == 16)
		memcpy(q->laddr, nla_data(attrs[PFSEL_ATTR_LADDR]), 16);
	if (attrs[PFSEL_ATTR_LPORT])
		q->lport = nla_get_u16(attrs[PFSEL_ATTR_LPORT]);
	if (attrs[PFSEL_ATTR_RADDR] && nla_len(attrs[PFSEL_ATTR_RADDR]) == 16)
		memcpy(q->raddr, nla_data(attrs[PFSEL_ATTR_RADDR]), 16);
	if (attrs[PFSEL_ATTR_RPORT])
		q->rport = nla_get_u16(attrs[PFSEL_ATTR_RPORT]);
	if (attrs[PFSEL_ATTR_POLICY])
		q->policy = nla_get_u8(attrs[PFSEL_ATTR_POLICY]);
	if (attrs[PFSEL_ATTR_RULE_FILE])
		ask_agent_str(q->rule_file, sizeof(q->rule_file),
			      attrs[PFSEL_ATTR_RULE_FILE]);
	if (attrs[PFSEL_ATTR_RULE_LINE])
		q->rule_line = nla_get_u32(attrs[PFSEL_ATTR_RULE_LINE]);
	if (attrs[PFSEL_ATTR_RULE_COL])
		q->rule_col = nla_get_u32(attrs[PFSEL_ATTR_RULE_COL]);
	if (attrs[PFSEL_ATTR_TIMEOUT_MS])
		q->timeout_ms = nla_get_u32(attrs[PFSEL_ATTR_TIMEOUT_MS]);
	return 0;
}

/* NL_CB_VALID: a question is queued; anything else is ignored. */
static inline int ask_agent_on_valid(struct nl_msg *msg, void *arg)
{
	struct ask_agent *a = arg;
	struct ask_question q;

	if (ask_agent_parse(msg, &q))
		return NL_SKIP;
	if (a->count == ASK_AGENT_QUEUE) {
		a->lost++;
		return NL_SKIP;
	}
	a->queue[(a->head + a->count++) % ASK_AGENT_QUEUE] = q;
	return NL_OK;
}

static inline int ask_agent_on_ack(struct nl_msg *msg, void *arg)
{
	struct ask_agent *a = arg;

	a->acked = true;
	a->ack_err = 0;
	return NL_STOP;
}

static inline int ask_agent_on_error(struct sockaddr_nl *nla,
				     struct nlmsgerr *err, void *arg)
{
	struct ask_agent *a = arg;

	a->acked = true;
	a->ack_err = err->error;
	/* NL_STOP would make nl_recvmsgs() fail with the errno. */
	return NL_SKIP;
}

/*
 * Open a socket and resolve the family: 0, or a negative errno (-ENOENT
 * when the kernel has no family "pfsel").
 */
static inline int ask_agent_open(struct ask_agent *a)
{
	memset(a, 0, sizeof(*a));
	a->sock = nl_socket_alloc();
	if (!a->sock)
		return -ENOMEM;
	/* Questions carry sequence number 0: no sequence checks. */
	nl_socket_disable_seq_check(a->sock);
	if (genl_connect(a->sock))
		goto fail;
	a->family = genl_ctrl_resolve(a->sock, PFSEL_GENL_NAME);
	if (a->family < 0) {
		nl_socket_free(a->sock);
		a->sock = NULL;
		return -ENOENT;
	}
	if (nl_socket_modify_cb(a->sock, NL_CB_VALID, NL_CB_CUSTOM,
				ask_agent_on_valid, a) ||
	    nl_socket_modify_cb(a->sock, NL_CB_ACK, NL_CB_CUSTOM,
				ask_agent_on_ack, a) ||
	    nl_socket_modify_err_cb(a->sock, NL_CB_CUSTOM, ask_agent_on_error,
				    a))
		goto fail;
	return 0;
fail:
	nl_socket_free(a->sock);
	a->sock = NULL;
	return -EIO;
}

static inline void ask_agent_close(struct ask_agent *a)
{
	if (a->sock)
		nl_socket_free(a->sock);
	a->sock = NULL;
}

static inline int ask_agent_fd(const struct ask_agent *a)
{
	return nl_socket_get_fd(a->sock);
}

/* The socket's port id, as the kernel knows it (its snd_portid). */
static inline uint32_t ask_agent_portid(const struct ask_agent *a)
{
	return nl_socket_get_local_port(a->sock);
}

/*
 * Receive what the kernel sent, waiting up to @ms for something to come:
 * 1 when something was read, 0 when nothing came, a negative errno.
 */
static inline int ask_agent_receive(struct ask_agent *a, int ms)
{
	struct pollfd pfd = { .fd = ask_agent_fd(a), .events = POLLIN };
	int ret;

	ret = poll(&pfd, 1, ms);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (ret == 0)
		return 0;
	ret = nl_recvmsgs_default(a->sock);
	/* NL_STOP from a callback is not an error. */
	if (ret < 0 && ret != -NLE_AGAIN)
		return -EIO;
	return 1;
}

/* Wait up to @ms for the ack of the last request: 0 or a negative errno. */
static inline int ask_agent_wait_ack(struct ask_agent *a, int ms)
{
	const long long deadline = ask_agent_now_ms() + ms;
	long long left;
	int ret;

	while (!a->acked) {
		left = deadline - ask_agent_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = ask_agent_receive(a, (int)left);
		if (ret < 0)
			return ret;
	}
	return a->ack_err;
}

/*
 * Send command @cmd with @n attributes and NLM_F_REQUEST | NLM_F_ACK |
 * @flags: the kernel's ack, 0 or a negative errno (-ETIMEDOUT if none came).
 */
static inline int ask_agent_request(struct ask_agent *a, uint8_t cmd,
				    int flags, const struct ask_attr *attrs,
				    size_t n)
{
	struct nl_msg *msg = nlmsg_alloc();
	size_t i;
	int ret;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, a->family, 0, flags,
			 cmd, PFSEL_GENL_VERSION)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	for (i = 0; i < n; i++) {
		if (nla_put(msg, attrs[i].type, attrs[i].len, attrs[i].data)) {
			nlmsg_free(msg);
			return -EMSGSIZE;
		}
	}
	a->acked = false;
	ret = nl_send_auto(a->sock, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return -EIO;
	return ask_agent_wait_ack(a, ASK_AGENT_ACK_MS);
}

/*
 * Make this socket the agent of @uid (PFSEL_ATTR_UID): 0 or -errno.  The
 * kernel takes it from the root side only (CAP_MAC_ADMIN): -EPERM for
 * anyone else, the user included.  The registering process may then drop
 * to @uid (pfsel_become()) and go on answering on this socket.
 */
static inline int ask_agent_register(struct ask_agent *a, uint32_t uid)
{
	const struct ask_attr attr = { PFSEL_ATTR_UID, sizeof(uid), &uid };

	return ask_agent_request(a, PFSEL_CMD_REGISTER, 0, &attr, 1);
}

static inline int ask_agent_unregister(struct ask_agent *a)
{
	return ask_agent_request(a, PFSEL_CMD_UNREGISTER, 0, NULL, 0);
}

/* Answer question @id: the kernel's ack, 0 or a negative errno. */
static inline int ask_agent_answer(struct ask_agent *a, uint64_t id,
				   uint8_t verdict, uint8_t scope)
{
	const struct ask_attr attrs[] = {
		{ PFSEL_ATTR_ID, sizeof(id), &id },
		{ PFSEL_ATTR_VERDICT, sizeof(verdict), &verdict },
		{ PFSEL_ATTR_SCOPE, sizeof(scope), &scope },
	};

	return ask_agent_request(a, PFSEL_CMD_ANSWER, 0, attrs, 3);
}

/*
 * Send @len raw bytes as one datagram to the kernel; then, with @ms > 0,
 * wait that long for an ack: 0 or the ack's negative errno, -ETIMEDOUT
 * when none came (the kernel drops some malformed messages silently).
 */
static inline int ask_agent_send_raw(struct ask_agent *a, const void *buf,
				     size_t len, int ms)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	a->acked = false;
	if (sendto(ask_agent_fd(a), buf, len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	return ms > 0 ? ask_agent_wait_ack(a, ms) : 0;
}

/*
 * The next question, waiting up to @ms for one: 0, -ETIMEDOUT when none
 * came, or a negative errno.
 */
static inline int ask_agent_next(struct ask_agent *a, struct ask_question *q,
				 int ms)
{
	const long long deadline = ask_agent_now_ms() + ms;
	long long left;
	int ret;

	for (;;) {
		if (a->count) {
			*q = a->queue[a->head];
			a->head = (a->head + 1) % ASK_AGENT_QUEUE;
			a->count--;
			return 0;
		}
		left = deadline - ask_agent_now_ms();
		ret = ask_agent_receive(a, left > 0 ? (int)left : 0);
		if (ret < 0)
			return ret;
		if (ret == 0 && !a->count)
			return -ETIMEDOUT;
	}
}

#endif /* PFSEL_ASK_AGENT_H */
