/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - raw messages to the generic netlink family "pfsel"
 * (uapi/linux/pfsel.h), for the tests that play an attacker or a
 * misbehaving agent: any command with any attributes and flags, a header
 * of any content, any bytes at all.  libpfsel, which the tests use for
 * everything else, sends none of that: it builds only well-formed
 * requests and refuses out-of-range answers before the kernel sees them.
 *
 * Plain netlink sockets and sendto(): each request carries a sequence
 * number of its own and its acknowledgement is read back by it, so the
 * same calls serve a socket of their own (raw_genl_open()) and the socket
 * of a libpfsel agent (pfsel_agent_fd()), whose other messages -- the
 * kernel's questions -- are handed to a callback.
 */

#ifndef PFSEL_RAW_GENL_H
#define PFSEL_RAW_GENL_H

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <pfsel/pfsel.h>

/* How long a request waits for the kernel's ack. */
#define RAW_GENL_ACK_MS 2000
/* The largest message read back (a question holds three paths). */
#define RAW_GENL_RECV_MAX 32768

/* One attribute of a request: its type and its payload. */
struct raw_attr {
	uint16_t type;
	uint16_t len;
	const void *data;
};

/* A socket of its own, and the family's id. */
struct raw_genl {
	int fd;
	int family;
};

/* Every message read that is not the awaited ack (a question, say). */
typedef void (*raw_genl_other_fn)(const struct nlmsghdr *nlh, void *arg);

static inline long long raw_genl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A sequence number no other request of this process has. */
static inline uint32_t raw_genl_seq(void)
{
	static uint32_t next = 0x70000000;

	return __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
}

/*
 * The family's id, through the kernel's nlctrl (libnl's
 * genl_ctrl_resolve()): the id, or -ENOENT when the kernel has no family
 * "pfsel", or another negative errno.
 */
static inline int raw_genl_family(void)
{
	struct nl_sock *sock = nl_socket_alloc();
	int family;

	if (!sock)
		return -ENOMEM;
	if (genl_connect(sock)) {
		nl_socket_free(sock);
		return -EIO;
	}
	family = genl_ctrl_resolve(sock, PFSEL_GENL_NAME);
	nl_socket_free(sock);
	return family < 0 ? -ENOENT : family;
}

/* Open a generic netlink socket of its own: 0 or a negative errno. */
static inline int raw_genl_open(struct raw_genl *r)
{
	r->family = -1;
	r->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (r->fd < 0)
		return -errno;
	r->family = raw_genl_family();
	if (r->family < 0) {
		close(r->fd);
		r->fd = -1;
		return r->family;
	}
	return 0;
}

static inline void raw_genl_close(struct raw_genl *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

/*
 * A message by hand in @buf: netlink header (@type, @flags, a sequence
 * number of its own), generic netlink header (@cmd, @version, @reserved),
 * then @plen bytes of @payload.  Its length, or 0 when @size is too small.
 */
static inline size_t raw_genl_msg(uint8_t *buf, size_t size, uint16_t type,
				  uint16_t flags, uint8_t cmd, uint8_t version,
				  uint16_t reserved, const void *payload,
				  size_t plen)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)NLMSG_DATA(nlh);
	const size_t len = NLMSG_LENGTH(GENL_HDRLEN + plen);

	if (len > size)
		return 0;
	memset(buf, 0, len);
	nlh->nlmsg_len = (uint32_t)len;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = raw_genl_seq();
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	if (plen)
		memcpy((uint8_t *)g + GENL_HDRLEN, payload, plen);
	return len;
}

/*
 * Wait up to @ms for the kernel's ack of sequence number @seq (of any
 * request when @any): its error, 0 or a negative errno; -ETIMEDOUT when
 * none came.  Every other message read meanwhile goes to @other.
 */
static inline int raw_genl_wait_ack(int fd, uint32_t seq, bool any, int ms,
				    raw_genl_other_fn other, void *arg)
{
	static _Thread_local uint8_t buf[RAW_GENL_RECV_MAX];
	const long long deadline = raw_genl_now_ms() + ms;
	const struct nlmsghdr *nlh;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long left;
	int len, ret;

	for (;;) {
		left = deadline - raw_genl_now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1, (int)left);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
		len = (int)recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (len < 0)
			return -errno;
		for (nlh = (const struct nlmsghdr *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				if (other)
					other(nlh, arg);
				continue;
			}
			if (any || e->msg.nlmsg_seq == seq)
				return e->error;
		}
	}
}

/*
 * Send @len bytes of @buf as one datagram to the kernel on @fd; then, with
 * @ms > 0, wait that long for the ack (of the message's own sequence
 * number; of anything, when @len holds no whole header): 0 or the ack's
 * negative errno, -ETIMEDOUT when none came (the kernel drops some
 * malformed messages silently).
 */
static inline int raw_genl_send(int fd, const void *buf, size_t len, int ms,
				raw_genl_other_fn other, void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	const bool whole = len >= sizeof(struct nlmsghdr);
	uint32_t seq = 0;

	if (whole)
		memcpy(&seq,
		       (const uint8_t *)buf +
			       offsetof(struct nlmsghdr, nlmsg_seq),
		       sizeof(seq));
	if (sendto(fd, buf, len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	return ms > 0 ? raw_genl_wait_ack(fd, seq, !whole, ms, other, arg) : 0;
}

/*
 * Command @cmd of family @family with @n attributes and NLM_F_REQUEST |
 * NLM_F_ACK | @flags, into @buf: its length, or 0 when it does not fit.
 */
static inline size_t raw_genl_build(uint8_t *buf, size_t size, int family,
				    uint8_t cmd, int flags,
				    const struct raw_attr *attrs, size_t n)
{
	uint8_t payload[512];
	size_t plen = 0, i;

	for (i = 0; i < n; i++) {
		struct nlattr *nla = (struct nlattr *)(payload + plen);
		const size_t alen = NLA_HDRLEN + attrs[i].len;

		if (plen + NLA_ALIGN(alen) > sizeof(payload))
			return 0;
		memset(nla, 0, NLA_ALIGN(alen));
		nla->nla_type = attrs[i].type;
		nla->nla_len = (uint16_t)alen;
		memcpy((uint8_t *)nla + NLA_HDRLEN, attrs[i].data,
		       attrs[i].len);
		plen += NLA_ALIGN(alen);
	}
	return raw_genl_msg(buf, size, (uint16_t)family,
			    (uint16_t)(NLM_F_REQUEST | NLM_F_ACK | flags), cmd,
			    PFSEL_GENL_VERSION, 0, payload, plen);
}

/*
 * Send command @cmd of family @family with @n attributes and
 * NLM_F_REQUEST | NLM_F_ACK | @flags on @fd: the kernel's ack, 0 or a
 * negative errno (-ETIMEDOUT if none came).
 */
static inline int raw_genl_request(int fd, int family, uint8_t cmd, int flags,
				   const struct raw_attr *attrs, size_t n,
				   raw_genl_other_fn other, void *arg)
{
	uint8_t buf[1024];
	const size_t len =
		raw_genl_build(buf, sizeof(buf), family, cmd, flags, attrs, n);

	if (!len)
		return -EMSGSIZE;
	return raw_genl_send(fd, buf, len, RAW_GENL_ACK_MS, other, arg);
}

/*
 * The same request written with write(), naming no destination (an
 * unconnected netlink socket's is the kernel): as a program writes to a
 * descriptor it was handed, its output say.  The kernel then asks the
 * socket's opener too, where a message sent to an address it names
 * (raw_genl_request()) is the sender's own choice (NETLINK_SKB_DST).
 */
static inline int raw_genl_request_written(int fd, int family, uint8_t cmd,
					   int flags,
					   const struct raw_attr *attrs,
					   size_t n)
{
	uint8_t buf[1024];
	const size_t len =
		raw_genl_build(buf, sizeof(buf), family, cmd, flags, attrs, n);
	uint32_t seq;

	if (!len)
		return -EMSGSIZE;
	memcpy(&seq, buf + offsetof(struct nlmsghdr, nlmsg_seq), sizeof(seq));
	if (write(fd, buf, len) != (ssize_t)len)
		return -errno;
	return raw_genl_wait_ack(fd, seq, false, RAW_GENL_ACK_MS, NULL, NULL);
}

#endif /* PFSEL_RAW_GENL_H */
