// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - the agent side of the "pfsel" generic netlink family
 * (<linux/pfsel.h>), over libnl-genl-3.
 *
 * One socket per handle.  The kernel's questions arrive unsolicited
 * (sequence number 0) on the same socket that sends answers and waits for
 * their acknowledgements, so every message goes through one receive path:
 * a question is parsed and queued, an acknowledgement (or error) that
 * matches the sequence number being waited for is recorded.  Questions
 * that arrive while an answer is acknowledged are thereby kept, in order.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "internal.h"

/* How long an answer's or a registration's acknowledgement may take. */
#define ACK_TIMEOUT_MS 5000
/* Questions kept when the caller does not take them (the kernel bounds
 * pending questions per uid far below this). */
#define QUEUE_MAX 4096

struct pfsel_agent {
	struct nl_sock *sock;
	int family;
	/* FIFO of received questions: queue[head .. head + len) mod cap. */
	struct pfsel_question *queue;
	size_t head, len, cap;
	size_t dropped;
	/* The acknowledgement awaited, if any. */
	uint32_t wait_seq;
	bool waiting;
	bool acked;
	int ack_err;
};

/* A libnl error code (positive or negative) as a negative errno. */
static int nl_to_errno(int nlerr)
{
	static const int map[] = {
		[NLE_FAILURE] = EIO,
		[NLE_INTR] = EINTR,
		[NLE_BAD_SOCK] = EBADF,
		[NLE_AGAIN] = EAGAIN,
		[NLE_NOMEM] = ENOMEM,
		[NLE_EXIST] = EEXIST,
		[NLE_INVAL] = EINVAL,
		[NLE_RANGE] = ERANGE,
		[NLE_MSGSIZE] = EMSGSIZE,
		[NLE_OPNOTSUPP] = EOPNOTSUPP,
		[NLE_AF_NOSUPPORT] = EAFNOSUPPORT,
		[NLE_OBJ_NOTFOUND] = ENOENT,
		[NLE_NOATTR] = ENOENT,
		[NLE_MISSING_ATTR] = EINVAL,
		[NLE_AF_MISMATCH] = EPROTO,
		[NLE_SEQ_MISMATCH] = EPROTO,
		[NLE_MSG_OVERFLOW] = EMSGSIZE,
		[NLE_MSG_TRUNC] = EMSGSIZE,
		[NLE_NOADDR] = EADDRNOTAVAIL,
		[NLE_MSG_TOOSHORT] = EPROTO,
		[NLE_MSGTYPE_NOSUPPORT] = EPROTO,
		[NLE_BUSY] = EBUSY,
		[NLE_PROTO_MISMATCH] = EPROTO,
		[NLE_NOACCESS] = EACCES,
		[NLE_PERM] = EPERM,
		[NLE_NODEV] = ENODEV,
		[NLE_DUMP_INTR] = EINTR,
		[NLE_ATTRSIZE] = EPROTO,
	};

	if (nlerr < 0)
		nlerr = -nlerr;
	if (nlerr > 0 && (size_t)nlerr < sizeof(map) / sizeof(map[0]) &&
	    map[nlerr])
		return -map[nlerr];
	return -EIO;
}

static int fail_nl(const int nlerr, const char *const what)
{
	return pfsel_fail(nl_to_errno(nlerr), "%s: %s", what,
			  strerror(-nl_to_errno(nlerr)));
}

/* Whether a string attribute ends with its NUL. */
static bool nul_terminated(const struct nlattr *const a)
{
	const char *s = nla_data(a);
	int len = nla_len(a);

	return len >= 1 && s[len - 1] == '\0';
}

/* Copies a string attribute, NUL-terminated, cut to @size. */
static int get_string(const struct nlattr *const a, char *const dst,
		      const size_t size)
{
	const char *s = nla_data(a);

	if (!nul_terminated(a))
		return -EPROTO;
	snprintf(dst, size, "%s", s);
	return 0;
}

/*
 * PFSEL_ATTR_HOSTS: unlike the other strings never cut (half a name would
 * be another name), and checked whole (pfsel_hosts_check()): the names
 * come from DNS answers, and the agent may write the first into a rule.
 * @a is NUL-terminated (nul_terminated()).  0 or -EPROTO, said.
 */
static int get_hosts(const struct nlattr *const a, char *const dst,
		     const size_t size)
{
	const char *s = nla_data(a);
	int len = nla_len(a), err;

	if ((size_t)len > size)
		return pfsel_fail(
			-EPROTO,
			"pfsel ASK: host names are %d bytes with the NUL, more than %zu",
			len, size);
	err = pfsel_hosts_check(s);
	if (err)
		return pfsel_fail(
			-EPROTO,
			"pfsel ASK: host names are not a list of names (%s)",
			strerror(-err));
	memcpy(dst, s, (size_t)len);
	return 0;
}

/*
 * The question's attributes, wherever they came from: the kernel's
 * PFSEL_CMD_ASK (pfsel_question_parse()) or the agent's message to its
 * desktop prompt, which carries them as they are.
 */
PFSEL_EXPORT int pfsel_question_from_attrs(struct nlattr *const *const tb,
					   const int maxtype,
					   struct pfsel_question *const q)
{
	int err, type;

	memset(q, 0, sizeof(*q));
	/* A caller built with an older header has a shorter @tb. */
	for (type = 1; type <= PFSEL_ATTR_MAX && type <= maxtype; type++) {
		const struct nlattr *a = tb[type];
		int want = 0;

		if (!a)
			continue;
		switch (type) {
		case PFSEL_ATTR_ID:
			want = 8;
			break;
		case PFSEL_ATTR_PID:
		case PFSEL_ATTR_TGID:
		case PFSEL_ATTR_UID:
		case PFSEL_ATTR_RULE_LINE:
		case PFSEL_ATTR_RULE_COL:
		case PFSEL_ATTR_TIMEOUT_MS:
			want = 4;
			break;
		case PFSEL_ATTR_OP:
		case PFSEL_ATTR_FAMILY:
		case PFSEL_ATTR_PROTO:
		case PFSEL_ATTR_POLICY:
		case PFSEL_ATTR_VERDICT:
		case PFSEL_ATTR_SCOPE:
		case PFSEL_ATTR_UNANSWERED:
			want = 1;
			break;
		case PFSEL_ATTR_LPORT:
		case PFSEL_ATTR_RPORT:
			want = 2;
			break;
		case PFSEL_ATTR_LADDR:
		case PFSEL_ATTR_RADDR:
			want = 16;
			break;
		default: /* strings, PAD */
			break;
		}
		if (want && nla_len(a) != want)
			return pfsel_fail(
				-EPROTO,
				"pfsel ASK: attribute %d has %d bytes, not %d",
				type, nla_len(a), want);
		err = 0;
		switch (type) {
		case PFSEL_ATTR_ID:
			q->id = nla_get_u64((struct nlattr *)a);
			break;
		case PFSEL_ATTR_PID:
			q->pid = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_TGID:
			q->tgid = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_UID:
			q->uid = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_EXE:
			err = get_string(a, q->exe, sizeof(q->exe));
			break;
		case PFSEL_ATTR_SCRIPT:
			err = get_string(a, q->script, sizeof(q->script));
			break;
		case PFSEL_ATTR_COMM:
			err = get_string(a, q->comm, sizeof(q->comm));
			break;
		case PFSEL_ATTR_OP:
			q->op = nla_get_u8((struct nlattr *)a);
			break;
		case PFSEL_ATTR_FAMILY:
			q->family = nla_get_u8((struct nlattr *)a);
			break;
		case PFSEL_ATTR_PROTO:
			q->proto = nla_get_u8((struct nlattr *)a);
			break;
		case PFSEL_ATTR_LADDR:
			memcpy(q->laddr, nla_data(a), 16);
			break;
		case PFSEL_ATTR_LPORT:
			q->lport = nla_get_u16((struct nlattr *)a);
			break;
		case PFSEL_ATTR_RADDR:
			memcpy(q->raddr, nla_data(a), 16);
			break;
		case PFSEL_ATTR_RPORT:
			q->rport = nla_get_u16((struct nlattr *)a);
			break;
		case PFSEL_ATTR_POLICY:
			q->policy = nla_get_u8((struct nlattr *)a);
			break;
		case PFSEL_ATTR_RULE_FILE:
			err = get_string(a, q->rule_file, sizeof(q->rule_file));
			break;
		case PFSEL_ATTR_RULE_LINE:
			q->rule_line = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_RULE_COL:
			q->rule_col = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_TIMEOUT_MS:
			q->timeout_ms = nla_get_u32((struct nlattr *)a);
			break;
		case PFSEL_ATTR_SECCTX:
			err = get_string(a, q->secctx, sizeof(q->secctx));
			break;
		case PFSEL_ATTR_UNANSWERED:
			q->unanswered = nla_get_u8((struct nlattr *)a);
			if (q->unanswered > PFSEL_ANSWER_DENY)
				return pfsel_fail(
					-EPROTO,
					"pfsel ASK: unanswered verdict %u is neither allow nor deny",
					q->unanswered);
			break;
		case PFSEL_ATTR_HOSTS:
			if (!nul_terminated(a)) {
				err = -EPROTO;
				break;
			}
			err = get_hosts(a, q->hosts, sizeof(q->hosts));
			if (err)
				return err; /* said why */
			break;
		default:
			break;
		}
		if (err)
			return pfsel_fail(
				err,
				"pfsel ASK: string attribute %d is not NUL-terminated",
				type);
		if (type < 32)
			q->present |= PFSEL_Q_HAS(type);
	}
	if (!(q->present & PFSEL_Q_HAS(PFSEL_ATTR_ID)))
		return pfsel_fail(-EBADMSG, "pfsel ASK: no question id");
	return 0;
}

PFSEL_EXPORT int pfsel_question_parse(struct nl_msg *const msg,
				      struct pfsel_question *const q)
{
	struct nlattr *tb[PFSEL_ATTR_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh;
	int err;

	memset(q, 0, sizeof(*q));
	if (!genlmsg_valid_hdr(nlh, 0))
		return pfsel_fail(-EPROTO, "pfsel ASK: short message");
	gnlh = nlmsg_data(nlh);
	if (gnlh->cmd != PFSEL_CMD_ASK)
		return pfsel_fail(-EPROTO, "pfsel: command %u is not ASK",
				  gnlh->cmd);
	err = genlmsg_parse(nlh, 0, tb, PFSEL_ATTR_MAX, NULL);
	if (err < 0)
		return fail_nl(err, "pfsel ASK: attributes");
	return pfsel_question_from_attrs(tb, PFSEL_ATTR_MAX, q);
}

PFSEL_EXPORT int pfsel_answer_build(struct nl_msg *const msg, const int family,
				    const uint64_t id,
				    const unsigned int verdict,
				    const unsigned int scope)
{
	if (verdict > PFSEL_ANSWER_DENY || scope > PFSEL_SCOPE_ALWAYS)
		return pfsel_fail(
			-EINVAL,
			"pfsel ANSWER: verdict %u or scope %u out of range",
			verdict, scope);
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK,
			 PFSEL_CMD_ANSWER, PFSEL_GENL_VERSION) ||
	    nla_put_u64(msg, PFSEL_ATTR_ID, id) ||
	    nla_put_u8(msg, PFSEL_ATTR_VERDICT, (uint8_t)verdict) ||
	    nla_put_u8(msg, PFSEL_ATTR_SCOPE, (uint8_t)scope))
		return pfsel_fail(-EMSGSIZE, "pfsel ANSWER: message too small");
	return 0;
}

/* Every message but acknowledgements and errors. */
static int on_valid(struct nl_msg *const msg, void *const arg)
{
	struct pfsel_agent *agent = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh;
	struct pfsel_question *slot, *grown;
	size_t i;

	if (nlh->nlmsg_type != agent->family || !genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	gnlh = nlmsg_data(nlh);
	if (gnlh->cmd != PFSEL_CMD_ASK)
		return NL_SKIP;
	if (agent->len == agent->cap) {
		if (agent->cap >= QUEUE_MAX) {
			agent->dropped++;
			return NL_SKIP;
		}
		/* Grow and unwrap the ring. */
		grown = malloc((agent->cap ? agent->cap * 2 : 4) *
			       sizeof(*grown));
		if (!grown) {
			agent->dropped++;
			return NL_SKIP;
		}
		for (i = 0; i < agent->len; i++)
			grown[i] = agent->queue[(agent->head + i) % agent->cap];
		free(agent->queue);
		agent->queue = grown;
		agent->head = 0;
		agent->cap = agent->cap ? agent->cap * 2 : 4;
	}
	slot = &agent->queue[(agent->head + agent->len) % agent->cap];
	/* A malformed question cannot be answered (no id): dropped. */
	if (pfsel_question_parse(msg, slot)) {
		agent->dropped++;
		return NL_SKIP;
	}
	agent->len++;
	return NL_OK;
}

static int on_ack(struct nl_msg *const msg, void *const arg)
{
	struct pfsel_agent *agent = arg;

	if (agent->waiting && nlmsg_hdr(msg)->nlmsg_seq == agent->wait_seq) {
		agent->acked = true;
		agent->ack_err = 0;
	}
	return NL_OK;
}

static int on_error(struct sockaddr_nl *const nla, struct nlmsgerr *const e,
		    void *const arg)
{
	struct pfsel_agent *agent = arg;

	(void)nla;
	if (agent->waiting && e->msg.nlmsg_seq == agent->wait_seq) {
		agent->acked = true;
		agent->ack_err = e->error < 0 ? e->error : -e->error;
	}
	return NL_SKIP;
}

/* The kernel's questions carry sequence number 0: take every message. */
static int on_seq_check(struct nl_msg *const msg, void *const arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

PFSEL_EXPORT int pfsel_agent_open(struct pfsel_agent **const out)
{
	struct pfsel_agent *agent;
	int err;

	*out = NULL;
	agent = calloc(1, sizeof(*agent));
	if (!agent)
		return pfsel_fail(-ENOMEM, "calloc: %s", strerror(ENOMEM));
	agent->sock = nl_socket_alloc();
	if (!agent->sock) {
		free(agent);
		return pfsel_fail(-ENOMEM, "nl_socket_alloc: %s",
				  strerror(ENOMEM));
	}
	err = genl_connect(agent->sock);
	if (err < 0) {
		err = fail_nl(err, "socket(AF_NETLINK, NETLINK_GENERIC)");
		goto fail;
	}
	agent->family = genl_ctrl_resolve(agent->sock, PFSEL_GENL_NAME);
	if (agent->family < 0) {
		err = agent->family == -NLE_OBJ_NOTFOUND ?
			      pfsel_fail(
				      -ENOENT,
				      "genl_ctrl_resolve(\"%s\"): no such generic netlink family (is pfsel active, with ask support?)",
				      PFSEL_GENL_NAME) :
			      fail_nl(agent->family,
				      "genl_ctrl_resolve(\"" PFSEL_GENL_NAME
				      "\")");
		goto fail;
	}
	nl_socket_modify_cb(agent->sock, NL_CB_VALID, NL_CB_CUSTOM, on_valid,
			    agent);
	nl_socket_modify_cb(agent->sock, NL_CB_ACK, NL_CB_CUSTOM, on_ack,
			    agent);
	nl_socket_modify_cb(agent->sock, NL_CB_SEQ_CHECK, NL_CB_CUSTOM,
			    on_seq_check, agent);
	nl_socket_modify_err_cb(agent->sock, NL_CB_CUSTOM, on_error, agent);
	/* Room for a burst of questions before the socket overruns. */
	nl_socket_set_buffer_size(agent->sock, 1 << 20, 0);
	err = nl_socket_set_nonblocking(agent->sock);
	if (err < 0) {
		err = fail_nl(err, "fcntl(O_NONBLOCK)");
		goto fail;
	}
	*out = agent;
	pfsel_clear_error();
	return 0;

fail:
	nl_socket_free(agent->sock);
	free(agent);
	return err;
}

PFSEL_EXPORT void pfsel_agent_close(struct pfsel_agent *const agent)
{
	if (!agent)
		return;
	nl_socket_free(agent->sock);
	free(agent->queue);
	free(agent);
}

PFSEL_EXPORT int pfsel_agent_fd(const struct pfsel_agent *const agent)
{
	return nl_socket_get_fd(agent->sock);
}

PFSEL_EXPORT size_t pfsel_agent_pending(const struct pfsel_agent *const agent)
{
	return agent->len;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Waits up to @timeout_ms (-1: for ever) for the socket to be readable and
 * reads what is there through the callbacks.  Returns 1 if something was
 * read, 0 on time-out, or a negative errno.
 */
static int read_some(struct pfsel_agent *const agent, const int timeout_ms)
{
	struct pollfd pfd = { .fd = pfsel_agent_fd(agent), .events = POLLIN };
	int n, err;

	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return pfsel_fail(-errno, "poll(netlink socket): %s",
				  strerror(errno));
	if (n == 0)
		return 0;
	err = nl_recvmsgs_default(agent->sock);
	if (err == -NLE_AGAIN)
		return 1;
	if (err == -NLE_NOMEM)
		/* recvmsg()'s ENOBUFS: libnl reports the overrun so. */
		return pfsel_fail(
			-ENOBUFS,
			"recvmsg(netlink socket): %s (questions were lost)",
			strerror(ENOBUFS));
	if (err < 0)
		return fail_nl(err, "recvmsg(netlink socket)");
	return 1;
}

/* Sends @msg (freed here) and waits for its acknowledgement. */
static int send_and_wait(struct pfsel_agent *const agent,
			 struct nl_msg *const msg, const char *const what)
{
	long long deadline;
	int err, left;

	err = nl_send_auto(agent->sock, msg);
	if (err < 0) {
		nlmsg_free(msg);
		return fail_nl(err, what);
	}
	agent->wait_seq = nlmsg_hdr(msg)->nlmsg_seq;
	nlmsg_free(msg);
	agent->waiting = true;
	agent->acked = false;
	deadline = now_ms() + ACK_TIMEOUT_MS;
	while (!agent->acked) {
		left = (int)(deadline - now_ms());
		if (left <= 0) {
			agent->waiting = false;
			return pfsel_fail(
				-ETIMEDOUT,
				"%s: no acknowledgement from the kernel", what);
		}
		err = read_some(agent, left);
		if (err == -EINTR)
			continue;
		if (err < 0 && err != -ENOBUFS) {
			agent->waiting = false;
			return err;
		}
	}
	agent->waiting = false;
	if (agent->ack_err)
		return pfsel_fail(agent->ack_err, "%s: %s", what,
				  strerror(-agent->ack_err));
	pfsel_clear_error();
	return 0;
}

static int simple_command(struct pfsel_agent *const agent, const uint8_t cmd,
			  const char *const what)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return pfsel_fail(-ENOMEM, "nlmsg_alloc: %s", strerror(ENOMEM));
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, agent->family, 0,
			 NLM_F_ACK, cmd, PFSEL_GENL_VERSION)) {
		nlmsg_free(msg);
		return pfsel_fail(-EMSGSIZE, "%s: message too small", what);
	}
	return send_and_wait(agent, msg, what);
}

PFSEL_EXPORT int pfsel_agent_register_for(struct pfsel_agent *const agent,
					  const uid_t uid)
{
	struct nl_msg *msg = nlmsg_alloc();
	char what[64];
	int err;

	snprintf(what, sizeof(what), "pfsel REGISTER for uid %u",
		 (unsigned int)uid);
	if (!msg)
		return pfsel_fail(-ENOMEM, "nlmsg_alloc: %s", strerror(ENOMEM));
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, agent->family, 0,
			 NLM_F_ACK, PFSEL_CMD_REGISTER, PFSEL_GENL_VERSION) ||
	    nla_put_u32(msg, PFSEL_ATTR_UID, (uint32_t)uid)) {
		nlmsg_free(msg);
		return pfsel_fail(-EMSGSIZE, "%s: message too small", what);
	}
	err = send_and_wait(agent, msg, what);
	if (err == -EPERM)
		/* The kernel's rule, said where the error is read. */
		return pfsel_fail(
			err,
			"%s: %s (only the root side, with CAP_MAC_ADMIN, registers an agent)",
			what, strerror(EPERM));
	return err;
}

PFSEL_EXPORT int pfsel_agent_register(struct pfsel_agent *const agent)
{
	return pfsel_agent_register_for(agent, getuid());
}

PFSEL_EXPORT int pfsel_agent_unregister(struct pfsel_agent *const agent)
{
	return simple_command(agent, PFSEL_CMD_UNREGISTER, "pfsel UNREGISTER");
}

PFSEL_EXPORT int pfsel_agent_answer(struct pfsel_agent *const agent,
				    const uint64_t id,
				    const unsigned int verdict,
				    const unsigned int scope)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err;

	if (!msg)
		return pfsel_fail(-ENOMEM, "nlmsg_alloc: %s", strerror(ENOMEM));
	err = pfsel_answer_build(msg, agent->family, id, verdict, scope);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return send_and_wait(agent, msg, "pfsel ANSWER");
}

static void take(struct pfsel_agent *const agent, struct pfsel_question *q)
{
	*q = agent->queue[agent->head];
	agent->head = (agent->head + 1) % agent->cap;
	agent->len--;
}

PFSEL_EXPORT int pfsel_agent_receive(struct pfsel_agent *const agent,
				     struct pfsel_question *const q,
				     const int timeout_ms)
{
	long long deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;
	int err, left;

	for (;;) {
		if (agent->len) {
			take(agent, q);
			pfsel_clear_error();
			return 1;
		}
		left = timeout_ms < 0 ? -1 : (int)(deadline - now_ms());
		if (timeout_ms >= 0 && left < 0)
			left = 0;
		err = read_some(agent, left);
		if (err < 0)
			return err;
		if (err == 0 && !agent->len)
			return 0;
	}
}

PFSEL_EXPORT int pfsel_agent_dispatch(struct pfsel_agent *const agent,
				      const pfsel_question_fn fn,
				      void *const arg)
{
	struct pfsel_question *q;
	int ret;

	q = malloc(sizeof(*q));
	if (!q)
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	for (;;) {
		ret = pfsel_agent_receive(agent, q, 0);
		if (ret <= 0)
			break;
		ret = fn(q, arg);
		if (ret)
			break;
	}
	free(q);
	return ret;
}
