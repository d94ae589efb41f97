// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - the securityfs files libpfsel does not read yet: "ask_stats"
 * and the "check" transaction file (docs/kernel-interface.md).  Kept here,
 * private, until the library has them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "cmd.h"

#define SFS_TEXT_MAX 16384

static int sfs_path(const char *name, char *path, size_t size, char *msg,
		    size_t msg_size)
{
	int n = snprintf(path, size, "%s/%s", pfsel_securityfs(), name);

	if (n < 0 || (size_t)n >= size) {
		snprintf(msg, msg_size, "%s/%s: %s", pfsel_securityfs(), name,
			 strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Read from @fd at offset 0 until EOF into @buf (NUL-terminated). */
static int read_all(int fd, const char *path, char *buf, size_t size, char *msg,
		    size_t msg_size)
{
	size_t len = 0;
	ssize_t n;

	while (len < size - 1) {
		n = pread(fd, buf + len, size - 1 - len, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			snprintf(msg, msg_size, "read(%s): %s", path,
				 strerror(err));
			return -err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	return 0;
}

int pfselcmd_read_ask_stats(struct pfselcmd_ask_stats *stats, char *msg,
			    size_t msg_size)
{
	char path[PATH_MAX], text[4096];
	char *header, *values, *save1, *save2, *name, *value, *end;
	int fd, err;

	memset(stats, 0, sizeof(*stats));
	err = sfs_path("ask_stats", path, sizeof(path), msg, msg_size);
	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		snprintf(msg, msg_size, "open(%s): %s", path, strerror(err));
		return -err;
	}
	err = read_all(fd, path, text, sizeof(text), msg, msg_size);
	close(fd);
	if (err)
		return err;
	header = text;
	values = strchr(text, '\n');
	if (!values)
		goto malformed;
	*values++ = '\0';
	values[strcspn(values, "\n")] = '\0';
	name = strtok_r(header, " ", &save1);
	value = strtok_r(values, " ", &save2);
	while (name && value) {
		if (stats->count == PFSELCMD_ASK_STATS_MAX ||
		    strlen(name) >= sizeof(stats->names[0]))
			goto malformed;
		errno = 0;
		stats->values[stats->count] = strtoull(value, &end, 10);
		if (errno || *end || *value < '0' || *value > '9')
			goto malformed;
		strcpy(stats->names[stats->count++], name);
		name = strtok_r(NULL, " ", &save1);
		value = strtok_r(NULL, " ", &save2);
	}
	if (name || value || !stats->count)
		goto malformed;
	return 0;
malformed:
	snprintf(msg, msg_size, "%s: %s", path, strerror(EBADMSG));
	return -EBADMSG;
}

int64_t pfselcmd_ask_stat(const struct pfselcmd_ask_stats *stats,
			  const char *name)
{
	size_t i;

	for (i = 0; i < stats->count; i++)
		if (!strcmp(stats->names[i], name))
			return (int64_t)stats->values[i];
	return -1;
}

static bool one_of(const char *word, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(word, *list))
			return true;
	return false;
}

int pfselcmd_check_format(const struct pfselcmd_check_request *req, char *buf,
			  size_t size, char *msg, size_t msg_size)
{
	static const char *const ops[] = { "create", "bind",   "connect",
					   "listen", "accept", NULL };
	static const char *const protos[] = { "tcp", "udp",    "icmp",
					      "raw", "packet", NULL };
	static const char *const families[] = { "inet", "inet6", NULL };
	const bool create = req->op && !strcmp(req->op, "create");
	uint8_t addr[16];
	size_t len = 0;
	int n;

	if (!req->op || !one_of(req->op, ops)) {
		snprintf(msg, msg_size,
			 "'%s' is not an operation (create, bind, connect, "
			 "listen, accept)",
			 req->op ? req->op : "");
		return -EINVAL;
	}
	if (!req->proto || !one_of(req->proto, protos)) {
		snprintf(msg, msg_size,
			 "'%s' is not a protocol (tcp, udp, icmp, raw, packet)",
			 req->proto ? req->proto : "");
		return -EINVAL;
	}
	if ((req->exe && req->exe[0] != '/') ||
	    (req->script && req->script[0] != '/')) {
		snprintf(msg, msg_size, "'%s' is not an absolute path",
			 req->exe && req->exe[0] != '/' ? req->exe :
							  req->script);
		return -EINVAL;
	}
	if (req->script && !req->exe) {
		snprintf(msg, msg_size,
			 "a script needs its interpreter (--exe)");
		return -EINVAL;
	}
	if (create) {
		if (req->addr || req->has_port) {
			snprintf(msg, msg_size,
				 "create has no address or port: "
				 "create PROTO FAMILY");
			return -EINVAL;
		}
		if (strcmp(req->proto, "packet") &&
		    (!req->family || !one_of(req->family, families))) {
			snprintf(msg, msg_size,
				 "'%s' is not a family (inet, inet6)",
				 req->family ? req->family : "");
			return -EINVAL;
		}
	} else {
		if (!strcmp(req->proto, "packet")) {
			snprintf(msg, msg_size,
				 "packet sockets are decided at create only");
			return -EINVAL;
		}
		if (!req->addr || pfsel_parse_addr(req->addr, addr)) {
			snprintf(msg, msg_size,
				 "'%s' is not an IPv4 or IPv6 address",
				 req->addr ? req->addr : "");
			return -EINVAL;
		}
		if (req->family) {
			snprintf(msg, msg_size,
				 "the family comes from the address");
			return -EINVAL;
		}
		if (req->has_port && req->port > 65535) {
			snprintf(msg, msg_size, "%u is not a port", req->port);
			return -EINVAL;
		}
	}

#define ADD(...)                                                            \
	do {                                                                \
		n = snprintf(buf + len, size - len, __VA_ARGS__);           \
		if (n < 0 || (size_t)n >= size - len) {                     \
			snprintf(msg, msg_size, "the request is too long"); \
			return -ENOSPC;                                     \
		}                                                           \
		len += (size_t)n;                                           \
	} while (0)

	if (req->has_uid)
		ADD("uid %u\n", req->uid);
	if (req->exe)
		ADD("exe %s\n", req->exe);
	if (req->script)
		ADD("script %s\n", req->script);
	ADD("op %s\nproto %s\n", req->op, req->proto);
	if (create) {
		if (req->family)
			ADD("family %s\n", req->family);
	} else {
		ADD("addr %s\n", req->addr);
		if (req->has_port)
			ADD("port %u\n", req->port);
	}
#undef ADD
	return (int)len;
}

static int parse_policy_line(char *rest, struct pfselcmd_check_policy *pol)
{
	char *verdict = rest, *rule;

	if (!strcmp(rest, "none")) {
		pol->loaded = false;
		return 0;
	}
	rule = strchr(rest, ' ');
	if (!rule)
		return -EBADMSG;
	*rule++ = '\0';
	if (strcmp(verdict, "allow") && strcmp(verdict, "deny") &&
	    strcmp(verdict, "ask"))
		return -EBADMSG;
	if (!*rule || strlen(rule) >= sizeof(pol->rule))
		return -EBADMSG;
	pol->loaded = true;
	strcpy(pol->verdict, verdict);
	strcpy(pol->rule, rule);
	return 0;
}

int pfselcmd_check_parse(const char *text, struct pfselcmd_check_answer *ans)
{
	char *copy, *line, *save, *rest;
	unsigned int seen = 0;
	int err = 0;

	memset(ans, 0, sizeof(*ans));
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		rest = strchr(line, ' ');
		if (!rest) {
			err = -EBADMSG;
			break;
		}
		*rest++ = '\0';
		if (!strcmp(line, "verdict")) {
			if (strcmp(rest, "allow") && strcmp(rest, "deny") &&
			    strcmp(rest, "ask"))
				err = -EBADMSG;
			else
				strcpy(ans->verdict, rest);
			seen |= 1;
		} else if (!strcmp(line, "system")) {
			err = parse_policy_line(rest, &ans->system);
			seen |= 2;
		} else if (!strcmp(line, "user")) {
			err = parse_policy_line(rest, &ans->user);
			seen |= 4;
		}
		/* Lines of a newer kernel are skipped. */
	}
	free(copy);
	if (!err && seen != 7)
		err = -EBADMSG;
	return err;
}

int pfselcmd_check_ask(const struct pfselcmd_check_request *req,
		       struct pfselcmd_check_answer *ans, char *msg,
		       size_t msg_size)
{
	char path[PATH_MAX], request[8192], *answer;
	ssize_t n;
	int fd, err, len;

	len = pfselcmd_check_format(req, request, sizeof(request), msg,
				    msg_size);
	if (len < 0)
		return len;
	err = sfs_path("check", path, sizeof(path), msg, msg_size);
	if (err)
		return err;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		snprintf(msg, msg_size, "open(%s): %s", path, strerror(err));
		return -err;
	}
	/* One write: the kernel takes the request whole. */
	do
		n = write(fd, request, (size_t)len);
	while (n < 0 && errno == EINTR);
	if (n != len) {
		err = n < 0 ? errno : EIO;
		snprintf(msg, msg_size, "write(%s): %s", path, strerror(err));
		close(fd);
		return -err;
	}
	answer = malloc(SFS_TEXT_MAX);
	if (!answer) {
		close(fd);
		snprintf(msg, msg_size, "malloc: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	err = read_all(fd, path, answer, SFS_TEXT_MAX, msg, msg_size);
	close(fd);
	if (!err) {
		err = pfselcmd_check_parse(answer, ans);
		if (err)
			snprintf(msg, msg_size, "%s: %s", path, strerror(-err));
	}
	free(answer);
	return err;
}
