// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - the names of the "named" configuration.  The kernel learns
 * a name only from a DNS answer that a resolver of the system policy
 * receives, on the socket that asked, from the server it asked, with the
 * question's ID and name (security/pfsel/resolver.c).  So this program
 * plays both sides, as root (a uid with no user policy, and the only one
 * that may bind port 53): under a system policy that names it a resolver,
 * one socket asks a "server" socket bound to port 53 of SERVER_ADDR about
 * kK.named.bench.example, and the server answers with 127.x.y.NAMED_HOST
 * (x.y = K), for each K the loops cycle over.  The system policy stays
 * for named's loops: the names a resolver taught go with the policy that
 * trusted it (security/pfsel/reset.c).  It says "default allow;" and has
 * no rule, so its share of each decision is one more policy's lookup.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "../vm/dns_message.h"
#include "pfsel_bench.h"

/* The server's address: no loop uses it, nor any rule's /24 for others. */
#define SERVER_ADDR "127.0.0.3"
#define DNS_PORT 53
/* Our messages: a header, one name of at most 40 bytes, one A record. */
#define DNS_MSG_MAX 128
/* The table of learned names: at most 4096 lines of at most ~300 bytes. */
#define HOSTS_TEXT_MAX (2 << 20)

/* The named configuration's K-th address and its name. */
static struct in_addr named_addr(const int k)
{
	struct sockaddr_in a = loopback(k, 0);

	a.sin_addr.s_addr = htonl(ntohl(a.sin_addr.s_addr) - 1 + NAMED_HOST);
	return a.sin_addr;
}

static void named_name(const int k, char *const buf, const size_t size)
{
	snprintf(buf, size, "k%d." NAMED_DOMAIN, k);
}

/* A UDP socket on @addr:@port that gives up a receive after 5 s. */
static int udp_socket(const char *const addr, const int port)
{
	const struct timeval wait = { .tv_sec = 5 };
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die("socket for the DNS exchange");
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		die("inet_pton %s", addr);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)))
		die("SO_RCVTIMEO");
	if (bind(fd, (const struct sockaddr *)&a, sizeof(a)))
		die("bind %s:%d", addr, port);
	return fd;
}

/*
 * One exchange: @client asks @server about the K-th name, and @server
 * answers the address.  The kernel learns it as the answer is queued.
 */
static void exchange(const int client, const int server, const int k)
{
	struct sockaddr_in to, peer;
	socklen_t to_len = sizeof(to), peer_len = sizeof(peer);
	uint8_t msg[DNS_MSG_MAX], got[DNS_MSG_MAX];
	char name[64];
	size_t len;
	ssize_t n;

	named_name(k, name, sizeof(name));
	len = dns_query(msg, (unsigned int)k & 0xffff, name);
	if (getsockname(server, (struct sockaddr *)&to, &to_len) ||
	    sendto(client, msg, len, 0, (const struct sockaddr *)&to, to_len) !=
		    (ssize_t)len)
		die("send the question about %s", name);
	n = recvfrom(server, got, sizeof(got), 0, (struct sockaddr *)&peer,
		     &peer_len);
	if (n != (ssize_t)len)
		die("receive the question about %s", name);
	len = dns_answer_query(msg, len, named_addr(k), NAMED_TTL);
	if (sendto(server, msg, len, 0, (const struct sockaddr *)&peer,
		   peer_len) != (ssize_t)len)
		die("send the answer about %s", name);
	if (recv(client, got, sizeof(got), 0) != (ssize_t)len)
		die("receive the answer about %s", name);
}

/* The table of learned names ("ADDRESS NAME SECONDS-LEFT UID" lines), whole. */
static char *read_hosts(void)
{
	static const char path[] = PFSEL_SECURITYFS_DEFAULT "/hosts";
	char *text = malloc(HOSTS_TEXT_MAX);
	size_t len = 1;
	ssize_t n = 0;
	int fd;

	if (!text)
		die("malloc");
	/* A leading newline: every line is then "\nADDRESS NAME ". */
	text[0] = '\n';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("open %s", path);
	while (len + 1 < HOSTS_TEXT_MAX &&
	       (n = read(fd, text + len, HOSTS_TEXT_MAX - 1 - len)) > 0)
		len += (size_t)n;
	if (n < 0)
		die("read %s", path);
	text[len] = '\0';
	close(fd);
	return text;
}

void names_learn(const struct policy *const resolver_policy)
{
	char *text, line[128], name[64], addr[INET_ADDRSTRLEN];
	int client, server, k;

	/* The sockets after the policy: their sends are then seen. */
	load_system_policy(resolver_policy);
	client = udp_socket("127.0.0.1", 0);
	server = udp_socket(SERVER_ADDR, DNS_PORT);
	for (k = 1; k <= HOT_SPREAD; k++)
		exchange(client, server, k);
	close(client);
	close(server);

	text = read_hosts();
	for (k = 1; k <= HOT_SPREAD; k++) {
		const struct in_addr a = named_addr(k);

		named_name(k, name, sizeof(name));
		inet_ntop(AF_INET, &a, addr, sizeof(addr));
		snprintf(line, sizeof(line), "\n%s %s ", addr, name);
		if (!strstr(text, line)) {
			fprintf(stderr,
				"pfsel_bench: the kernel did not learn that "
				"%s is %s (answered as a resolver of %s)\n",
				addr, name, resolver_policy->path);
			exit(1);
		}
	}
	free(text);
}
