// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - the private socket to pfsel-agent: the one way anything
 * reaches the answering window, and the one way its answers leave.
 *
 * The agent made a SOCK_SEQPACKET socketpair() and gave the prompt one end
 * (--agent-fd=N): no name in the file system, nothing another program can
 * connect to.  Messages are prompt_wire.h's, read from the main loop as
 * they come; when the agent closes its end the prompt has no one to answer
 * for, and stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "prompt.h"
#include "prompt_wire.h"

struct prompt_link {
	int fd;
	guint watch;
	const struct prompt_link_ops *ops;
	void *data;
	/* Storage for an ASK's question (about 13 KiB). */
	struct pfsel_question *q;
	struct prompt_message msg;
	gboolean closed;
};

static void link_close(struct prompt_link *link, int err)
{
	if (link->closed)
		return;
	link->closed = TRUE;
	link->watch = 0;
	link->ops->closed(link->data, err);
}

/* Everything readable now; FALSE removes the source. */
static gboolean on_readable(int fd, GIOCondition cond, gpointer data)
{
	struct prompt_link *link = data;
	struct prompt_message *m = &link->msg;
	int ret;

	(void)fd;
	for (;;) {
		memset(m, 0, sizeof(*m));
		m->q = link->q;
		ret = prompt_wire_receive(link->fd, m);
		if (ret == -EAGAIN)
			break;
		if (ret == -EINTR)
			continue;
		if (ret == -EBADMSG) {
			/* Dropped whole by the reader; the next may be fine. */
			fprintf(stderr,
				"pfsel-prompt: a malformed message from the "
				"agent was dropped\n");
			continue;
		}
		if (ret <= 0) {
			if (ret < 0)
				fprintf(stderr,
					"pfsel-prompt: recv(agent socket): "
					"%s\n",
					g_strerror(-ret));
			link_close(link, ret);
			return G_SOURCE_REMOVE;
		}
		switch (m->type) {
		case PROMPT_MSG_ASK:
			link->ops->ask(link->data, m->q, m->ms_left);
			break;
		case PROMPT_MSG_WITHDRAW:
			link->ops->withdraw(link->data, m->id, m->reason);
			break;
		case PROMPT_MSG_RESULT:
			link->ops->result(link->data, m->id, m->status,
					  m->text);
			break;
		default:
			fprintf(stderr,
				"pfsel-prompt: the agent sent message type "
				"%#x, which only the prompt sends; ignored\n",
				m->type);
			break;
		}
		if (link->closed)
			return G_SOURCE_REMOVE;
	}
	/* A hang-up with nothing left to read: the agent is gone. */
	if (cond & (G_IO_HUP | G_IO_ERR)) {
		link_close(link, 0);
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

struct prompt_link *prompt_link_new(int fd, const struct prompt_link_ops *ops,
				    void *data, GError **error)
{
	struct prompt_link *link;
	struct stat st;
	int type = 0, flags;
	socklen_t len = sizeof(type);

	if (fstat(fd, &st)) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err),
			    "fstat(%d): %s (no agent socket on --agent-fd)", fd,
			    g_strerror(err));
		return NULL;
	}
	if (!S_ISSOCK(st.st_mode) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) ||
	    type != SOCK_SEQPACKET) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
			    "descriptor %d is not a SOCK_SEQPACKET socket "
			    "(--agent-fd takes the agent's end of its socket "
			    "pair)",
			    fd);
		return NULL;
	}
	/* Nothing this process starts inherits the way to answer. */
	flags = fcntl(fd, F_GETFD);
	if (flags < 0 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) ||
	    (flags = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, flags | O_NONBLOCK)) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err),
			    "fcntl(%d): %s", fd, g_strerror(err));
		return NULL;
	}
	link = g_new0(struct prompt_link, 1);
	link->fd = fd;
	link->ops = ops;
	link->data = data;
	link->q = g_new0(struct pfsel_question, 1);
	link->watch = g_unix_fd_add(fd, G_IO_IN | G_IO_HUP | G_IO_ERR,
				    on_readable, link);
	return link;
}

int prompt_link_answer(struct prompt_link *link, uint64_t id,
		       unsigned int verdict, unsigned int scope,
		       unsigned int width)
{
	int ret;

	if (link->closed)
		return -ENOTCONN;
	ret = prompt_wire_send_answer(link->fd, id, verdict, scope, width);
	if (ret)
		fprintf(stderr, "pfsel-prompt: send(agent socket): %s\n",
			g_strerror(-ret));
	return ret;
}

void prompt_link_free(struct prompt_link *link)
{
	if (!link)
		return;
	if (link->watch)
		g_source_remove(link->watch);
	g_free(link->q);
	g_free(link);
}
