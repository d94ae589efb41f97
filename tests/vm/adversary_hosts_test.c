// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - an attacker's review of host names (docs/THREAT-MODEL.md
 * section 5): a program of pfuser1 that the policy denies tries to make the
 * kernel believe a name that pfuser1's "allow ... to host NAME" rule allows
 * for an address of its choosing, or to keep a name past the load that
 * stops trusting the resolver that taught it.  Every case asserts that the
 * attack fails (the connection is refused), beside a control where the same
 * steps without the trick are allowed.
 *
 * The stage: the resolver, dnsmasq (Debian's, which the system policy names),
 * on 127.0.0.21 without a cache and on 127.0.0.23 with one, forwards
 * names to the zone's server (a copy of dnsmasq at another path, no
 * resolver) on 127.0.0.22, but evil.example to 127.0.0.24, the attacker's
 * own authoritative server (this program, as root: a server on the
 * Internet binds port 53), which answers what the attacker likes about
 * names of its zone.  Both also send svc.example and svc.ok.adv.example to
 * a local service on 127.0.0.25 port 5300, not running, whose port any
 * program may bind.  pfuser1 may reach port 7101 of www.adv.example
 * (127.0.20.1) and of *.ok.adv.example by name, nothing else; it may bind
 * and listen, and send UDP to loopback (the resolvers, and the programs it
 * answers as a DNS server).
 *
 * A name learned stays learned (at least 30 s) for the tests after it:
 * every test uses addresses of its own.  Needs root.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "dns_message.h"
#include "host_names.h"
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define ZONE_DNSMASQ "/tmp/adv-zone-dnsmasq"
#define RESOLVER "127.0.0.21"
#define ZONE_SERVER "127.0.0.22"
#define CACHING_RESOLVER "127.0.0.23"
#define ATTACKER_SERVER "127.0.0.24"
/*
 * Where both resolvers send svc.example and svc.ok.adv.example: a local
 * service on a port above 1023 (as dnsmasq forwards .consul to Consul's
 * agent on 8600), which is not running: any program may bind it.
 */
#define LOCAL_SERVICE "127.0.0.25"
#define LOCAL_SERVICE_PORT 5300
#define PORT 7101

/* The allowed name, its address, and the address the attacker wants. */
#define ALLOWED "www.adv.example"
#define ALLOWED_ADDR "127.0.20.1"

static const char *const zone_args[] = {
	"--host-record=" ALLOWED "," ALLOWED_ADDR ",600",
	"--host-record=race.adv.example,127.0.20.2,600",
	"--host-record=shop.ok.adv.example,127.0.20.3,600",
};

/* The listeners pfuser1's connections would reach: root's, port 7101. */
static const char *const listen_addrs[] = {
	ALLOWED_ADDR,  "127.0.20.2",  "127.0.20.3",  "127.0.20.30",
	"127.0.20.66", "127.0.20.67", "127.0.20.68", "127.0.20.69",
	"127.0.20.70", "127.0.20.72", "127.0.20.73", "127.0.20.74",
};

/* A UDP socket bound to @addr:@port: the descriptor or -1. */
static int udp_bound(const char *addr, unsigned short port)
{
	union pfsel_addr a;
	const socklen_t len = pfsel_addr(addr, port, &a);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (bind(fd, &a.sa, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- DNS messages -------------------------------------------------------- */

/* Skip the name at @pos of @msg (of @len bytes): the offset after it, or 0. */
static size_t dns_skip_name(const uint8_t *msg, size_t len, size_t pos)
{
	while (pos < len) {
		if ((msg[pos] & 0xc0) == 0xc0)
			return pos + 2 <= len ? pos + 2 : 0;
		if (!msg[pos])
			return pos + 1;
		pos += 1 + msg[pos];
	}
	return 0;
}

/* The question's name of @msg, dotted, into @name: false if none. */
static bool dns_question(const uint8_t *msg, size_t len, char *name,
			 size_t size)
{
	size_t pos = DNS_HEADER_SIZE, n = 0;

	while (pos < len && msg[pos]) {
		const size_t label = msg[pos];

		if (label & 0xc0 || pos + 1 + label > len ||
		    n + label + 2 > size)
			return false;
		if (n)
			name[n++] = '.';
		memcpy(name + n, msg + pos + 1, label);
		n += label;
		pos += 1 + label;
	}
	name[n] = '\0';
	return pos < len;
}

/*
 * The last A record of the answer @msg, as text, into @addr: false when
 * it has none.
 */
static bool dns_last_a(const uint8_t *msg, size_t len, char *addr)
{
	size_t pos = dns_skip_name(msg, len, DNS_HEADER_SIZE);
	unsigned int an, i;
	bool found = false;

	if (len < DNS_HEADER_SIZE || !pos || pos + 4 > len)
		return false;
	an = (unsigned int)(msg[6] << 8 | msg[7]);
	pos += 4;
	for (i = 0; i < an; i++) {
		unsigned int type, rdlen;

		pos = dns_skip_name(msg, len, pos);
		if (!pos || pos + 10 > len)
			return found;
		type = (unsigned int)(msg[pos] << 8 | msg[pos + 1]);
		rdlen = (unsigned int)(msg[pos + 8] << 8 | msg[pos + 9]);
		pos += 10;
		if (pos + rdlen > len)
			return found;
		if (type == 1 && rdlen == 4) {
			inet_ntop(AF_INET, msg + pos, addr, INET_ADDRSTRLEN);
			found = true;
		}
		pos += rdlen;
	}
	return found;
}

/* A record of a hand-made answer: @owner has @type (1 A, 5 CNAME) @data. */
struct dns_rr {
	const char *owner; /* NULL: the question's name */
	unsigned int type;
	const char *data; /* an IPv4 address, or the alias's name */
};

/*
 * The answer to the query @query (@qlen bytes), with the records @rrs,
 * into @msg: its length.  The question is copied as asked.
 */
static size_t dns_reply(const uint8_t *query, size_t qlen, uint8_t *msg,
			const struct dns_rr *rrs, unsigned int n)
{
	const size_t qend = dns_skip_name(query, qlen, DNS_HEADER_SIZE) + 4;
	size_t len, rdlen_at;
	unsigned int i;

	memcpy(msg, query, qend);
	dns_put16(msg + 2, 0x8580); /* response, authoritative, RD, RA */
	dns_put16(msg + 4, 1);
	dns_put16(msg + 6, n);
	dns_put16(msg + 8, 0);
	dns_put16(msg + 10, 0);
	len = qend;
	for (i = 0; i < n; i++) {
		if (rrs[i].owner)
			len += dns_put_name(msg + len, rrs[i].owner);
		else
			len += dns_put16(msg + len, 0xc000 | DNS_HEADER_SIZE);
		len += dns_put16(msg + len, rrs[i].type);
		len += dns_put16(msg + len, 1); /* IN */
		len += dns_put16(msg + len, 0);
		len += dns_put16(msg + len, 600);
		rdlen_at = len;
		len += 2;
		if (rrs[i].type == 1) {
			inet_pton(AF_INET, rrs[i].data, msg + len);
			len += 4;
		} else {
			len += dns_put_name(msg + len, rrs[i].data);
		}
		dns_put16(msg + rdlen_at, (unsigned int)(len - rdlen_at - 2));
	}
	return len;
}

/* ---- The attacker's authoritative server for evil.example ---------------- */

/*
 * What it answers, by the question's name: an alias to an allowed name
 * with an address of the attacker's for it; its own name's address with,
 * beside it, records giving allowed names the attacker's address; names
 * of its zone that start with an allowed name.  Anything else (odd names
 * included, as asked): an address of its own, 127.0.20.70.
 */
static size_t attacker_answer(const uint8_t *query, size_t qlen, uint8_t *msg)
{
	static const struct dns_rr cname[] = {
		{ NULL, 5, ALLOWED },
		{ ALLOWED, 1, "127.0.20.66" },
	};
	static const struct dns_rr beside[] = {
		{ NULL, 1, "127.0.20.67" },
		{ ALLOWED, 1, "127.0.20.67" },
		{ "x.ok.adv.example", 1, "127.0.20.67" },
	};
	static const struct dns_rr inside[] = { { NULL, 1, "127.0.20.68" } };
	static const struct dns_rr cached[] = {
		{ NULL, 5, "cache.ok.adv.example" },
		{ "cache.ok.adv.example", 1, "127.0.20.69" },
	};
	static const struct dns_rr cached_beside[] = {
		{ NULL, 1, "127.0.20.72" },
		{ "side.ok.adv.example", 1, "127.0.20.72" },
	};
	static const struct dns_rr own[] = { { NULL, 1, "127.0.20.70" } };
	static const struct dns_rr probe[] = { { NULL, 1, "127.0.20.71" } };
	char name[256];

	if (!dns_question(query, qlen, name, sizeof(name)))
		return 0;
	if (!strcasecmp(name, "cname.evil.example"))
		return dns_reply(query, qlen, msg, cname, 2);
	if (!strcasecmp(name, "beside.evil.example"))
		return dns_reply(query, qlen, msg, beside, 3);
	if (!strcasecmp(name, ALLOWED ".evil.example") ||
	    !strcasecmp(name, "a.ok.adv.example.evil.example"))
		return dns_reply(query, qlen, msg, inside, 1);
	if (!strcasecmp(name, "poison.evil.example"))
		return dns_reply(query, qlen, msg, cached, 2);
	if (!strcasecmp(name, "poison-beside.evil.example"))
		return dns_reply(query, qlen, msg, cached_beside, 2);
	if (!strcasecmp(name, "probe.evil.example"))
		return dns_reply(query, qlen, msg, probe, 1);
	return dns_reply(query, qlen, msg, own, 1);
}

static volatile bool attacker_stop;

static void *attacker_serve(void *arg)
{
	const int fd = (int)(intptr_t)arg;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t query[512], msg[1024];

	while (!attacker_stop) {
		union pfsel_addr peer;
		socklen_t plen = sizeof(peer.storage);
		ssize_t len;
		size_t out;

		if (poll(&pfd, 1, 100) != 1)
			continue;
		len = recvfrom(fd, query, sizeof(query), 0, &peer.sa, &plen);
		if (len < DNS_HEADER_SIZE)
			continue;
		out = attacker_answer(query, (size_t)len, msg);
		if (out)
			sendto(fd, msg, out, 0, &peer.sa, plen);
	}
	return NULL;
}

/* ---- pfuser1's side --------------------------------------------------- */

/*
 * In a child of pfuser1: ask @server (port 53) for @name's A records and
 * write the last address of the answer (or "") to @out: 0, or an errno.
 */
static int ask_msg(const char *server, const uint8_t *query, size_t len,
		   char *out, int wait_ms)
{
	union pfsel_addr dest;
	const socklen_t dlen = pfsel_addr(server, 53, &dest);
	struct pollfd pfd = { .events = POLLIN };
	uint8_t msg[1024];
	ssize_t got;

	out[0] = '\0';
	pfd.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (pfd.fd < 0)
		return errno;
	if (sendto(pfd.fd, query, len, 0, &dest.sa, dlen) != (ssize_t)len) {
		close(pfd.fd);
		return errno;
	}
	if (poll(&pfd, 1, wait_ms) != 1) {
		close(pfd.fd);
		return ETIMEDOUT;
	}
	got = recv(pfd.fd, msg, sizeof(msg), 0);
	close(pfd.fd);
	if (got > 0)
		dns_last_a(msg, (size_t)got, out);
	return 0;
}

static int ask_for_wait(const char *server, const char *name, char *out,
			int wait_ms)
{
	uint8_t msg[512];
	const size_t len =
		dns_query(msg, (unsigned int)(getpid() & 0xffff), name);

	return ask_msg(server, msg, len, out, wait_ms);
}

static int ask_for(const char *server, const char *name, char *out)
{
	return ask_for_wait(server, name, out, 5000);
}

/*
 * pfuser1's program: asks @server for @name, then connects to port 7101
 * of @addr (the answer's address when NULL).  The connect()'s errno (0:
 * connected); 124 when the lookup failed.  The answer's address is logged.
 */
struct lookup_connect {
	const char *server, *name, *addr;
	char got[INET_ADDRSTRLEN];
};

static int lookup_connect_fn(void *arg)
{
	struct lookup_connect *lc = arg;
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET,
		.type = SOCK_STREAM,
		.port = PORT,
	};

	if (lc->name) {
		if (ask_for(lc->server, lc->name, lc->got))
			return 124;
		fprintf(stderr, "# pfuser1 asked %s for %s: %s\n", lc->server,
			lc->name, lc->got[0] ? lc->got : "no address");
	}
	probe.addr = lc->addr ? lc->addr : lc->got;
	if (!probe.addr[0])
		return 124;
	return pfsel_probe_run(&probe);
}

static int user_lookup_connect(const char *server, const char *name,
			       const char *addr)
{
	struct lookup_connect lc = { server, name, addr, "" };

	return pfsel_run_as(PFSEL_UID1, lookup_connect_fn, &lc);
}

/* pfuser1 connects to @addr port 7101, by address: the errno (0: connected). */
static int user_connect(const char *addr)
{
	return user_lookup_connect(NULL, NULL, addr);
}

/* ---- The fixture -------------------------------------------------------- */

FIXTURE(adv)
{
	pid_t zone, resolver, caching;
	int attacker;
	pthread_t thread;
	bool serving;
	int peers[16];
	int npeers;
};

/* Whether @server answers for @name within 5 s (asked as root). */
static bool answers(const char *server, const char *name)
{
	char addr[INET_ADDRSTRLEN];
	int tries;

	for (tries = 0; tries < 50; tries++) {
		if (!ask_for_wait(server, name, addr, 500) && addr[0])
			return true;
		usleep(100 * 1000);
	}
	return false;
}

FIXTURE_SETUP(adv)
{
	static const char *const resolver_args[] = {
		"--server=/svc.example/" LOCAL_SERVICE "#5300",
		"--server=/svc.ok.adv.example/" LOCAL_SERVICE "#5300",
		"--server=/evil.example/" ATTACKER_SERVER,
		"--server=" ZONE_SERVER,
		"--cache-size=0",
	};
	static const char *const caching_args[] = {
		"--server=/svc.example/" LOCAL_SERVICE "#5300",
		"--server=/svc.ok.adv.example/" LOCAL_SERVICE "#5300",
		"--server=/evil.example/" ATTACKER_SERVER,
		"--server=" ZONE_SERVER,
		"--cache-size=1000",
	};
	size_t i;

	self->zone = self->resolver = self->caching = -1;
	self->attacker = -1;
	self->serving = false;
	self->npeers = 0;
	if (geteuid() != 0)
		SKIP(return, "loading policies and running dnsmasq need root");
	if (access(DNSMASQ, X_OK))
		SKIP(return, "no " DNSMASQ " in the VM (Debian's dnsmasq-base)");

	pfsel_reset();
	ASSERT_EQ(0, pfsel_create_file("/etc/resolv.conf",
				       "nameserver " RESOLVER "\n", 0644));
	ASSERT_EQ(0, system("rm -f " ZONE_DNSMASQ " && cp " DNSMASQ " "
			    ZONE_DNSMASQ));
	self->attacker = udp_bound(ATTACKER_SERVER, 53);
	ASSERT_LE(0, self->attacker);
	attacker_stop = false;
	ASSERT_EQ(0, pthread_create(&self->thread, NULL, attacker_serve,
				    (void *)(intptr_t)self->attacker));
	self->serving = true;
	self->zone = dnsmasq_start(ZONE_DNSMASQ, ZONE_SERVER, zone_args,
				   sizeof(zone_args) / sizeof(zone_args[0]));
	self->resolver =
		dnsmasq_start(DNSMASQ, RESOLVER, resolver_args,
			      sizeof(resolver_args) / sizeof(resolver_args[0]));
	self->caching =
		dnsmasq_start(DNSMASQ, CACHING_RESOLVER, caching_args,
			      sizeof(caching_args) / sizeof(caching_args[0]));
	ASSERT_LT(0, self->zone);
	ASSERT_LT(0, self->resolver);
	ASSERT_LT(0, self->caching);
	/* Probes no test connects to: nothing is learned yet. */
	ASSERT_TRUE(answers(RESOLVER, "probe.evil.example"));
	ASSERT_TRUE(answers(CACHING_RESOLVER, "probe.evil.example"));

	for (i = 0; i < sizeof(listen_addrs) / sizeof(listen_addrs[0]); i++) {
		self->peers[self->npeers] =
			pfsel_peer(SOCK_STREAM, listen_addrs[i], PORT);
		ASSERT_LE(0, self->peers[self->npeers++]);
	}
	ASSERT_EQ(0, pfsel_load("adv_hosts_system"));
	ASSERT_EQ(0, pfsel_load("adv_hosts_1001"));
}

FIXTURE_TEARDOWN(adv)
{
	const pid_t pids[] = { self->zone, self->resolver, self->caching };
	size_t i;
	int p;

	for (p = 0; p < self->npeers; p++)
		close(self->peers[p]);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (i = 0; i < sizeof(pids) / sizeof(pids[0]); i++)
		if (pids[i] > 0)
			pfsel_wait_status(pids[i]);
	if (self->serving) {
		attacker_stop = true;
		pthread_join(self->thread, NULL);
	}
	if (self->attacker >= 0)
		close(self->attacker);
	if (geteuid() == 0)
		pfsel_reset();
}

/*
 * The control for every case: the allowed name, resolved through the
 * system's resolver, connects; the same address before it was resolved
 * did not.
 */
TEST_F(adv, control_allowed_name_connects)
{
	EXPECT_EQ(EACCES, user_connect(ALLOWED_ADDR));
	EXPECT_EQ(0, user_lookup_connect(RESOLVER, ALLOWED, NULL));
	EXPECT_TRUE(hosts_table_has(ALLOWED_ADDR, ALLOWED));
	EXPECT_EQ(0, user_lookup_connect(CACHING_RESOLVER,
					 "shop.ok.adv.example", NULL));
}

/*
 * The attacker's zone answers its own name with an alias to the allowed
 * name, and an address of the attacker's for that: the kernel learns the
 * question's name only.  The connect to the attacker's address is refused.
 */
TEST_F(adv, alias_to_the_allowed_name_names_only_the_question)
{
	EXPECT_EQ(EACCES, user_lookup_connect(RESOLVER, "cname.evil.example",
					      NULL));
	EXPECT_TRUE(hosts_table_has("127.0.20.66", "cname.evil.example"));
	EXPECT_FALSE(hosts_table_has("127.0.20.66", ALLOWED));
	EXPECT_EQ(EACCES, user_connect("127.0.20.66"));
}

/*
 * Records beside the question's own, owned by the allowed name and by a
 * name under *.ok.adv.example, with the attacker's address: ignored.
 */
TEST_F(adv, records_beside_the_answer_name_nothing)
{
	EXPECT_EQ(EACCES, user_lookup_connect(RESOLVER, "beside.evil.example",
					      NULL));
	EXPECT_TRUE(hosts_table_has("127.0.20.67", "beside.evil.example"));
	EXPECT_FALSE(hosts_table_has("127.0.20.67", ALLOWED));
	EXPECT_FALSE(hosts_table_has("127.0.20.67", "x.ok.adv.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.67"));
}

/*
 * Names of the attacker's zone that hold the allowed names: the allowed
 * name as their first labels, a name under *.ok.adv.example likewise.
 * Patterns match whole names only.
 */
TEST_F(adv, allowed_name_inside_the_attackers)
{
	EXPECT_EQ(EACCES, user_lookup_connect(RESOLVER,
					      ALLOWED ".evil.example", NULL));
	EXPECT_EQ(EACCES,
		  user_lookup_connect(RESOLVER, "a.ok.adv.example.evil.example",
				      NULL));
	EXPECT_TRUE(hosts_table_has("127.0.20.68", ALLOWED ".evil.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.68"));
}

/*
 * A caching resolver keeps the alias's target, with the address the
 * attacker's zone gave it, and serves it later to a question for that
 * name: an answer it sends from port 53, to a question pfuser1's program
 * asked, which the kernel learns ("Answers a resolver serves").  So the
 * attacker's zone names a name of another zone, cache.ok.adv.example,
 * which the rule *.ok.adv.example allows.
 */
TEST_F(adv, cached_alias_target_is_served_for_its_own_question)
{
	char addr[INET_ADDRSTRLEN];

	/* The attacker's lookup fills the cache; it names only itself. */
	EXPECT_EQ(EACCES, user_lookup_connect(CACHING_RESOLVER,
					      "poison.evil.example", NULL));
	EXPECT_FALSE(hosts_table_has("127.0.20.69", "cache.ok.adv.example"));
	/* Then the allowed name, asked of the same resolver. */
	ASSERT_EQ(0, ask_for(CACHING_RESOLVER, "cache.ok.adv.example", addr));
	TH_LOG("the caching resolver answers cache.ok.adv.example: %s",
	       addr[0] ? addr : "no address");
	EXPECT_EQ(EACCES, user_lookup_connect(CACHING_RESOLVER,
					      "cache.ok.adv.example", NULL));
	EXPECT_FALSE(hosts_table_has("127.0.20.69", "cache.ok.adv.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.69"));
}

/*
 * The same with records beside the answer: the attacker's zone answers its
 * own name, and gives side.ok.adv.example its address in the same answer.
 * Asked later, the caching resolver must not serve that from its cache.
 */
TEST_F(adv, cached_records_beside_the_answer_are_not_served)
{
	char addr[INET_ADDRSTRLEN];

	EXPECT_EQ(EACCES, user_lookup_connect(CACHING_RESOLVER,
					      "poison-beside.evil.example",
					      NULL));
	ASSERT_EQ(0, ask_for(CACHING_RESOLVER, "side.ok.adv.example", addr));
	TH_LOG("the caching resolver answers side.ok.adv.example: %s",
	       addr[0] ? addr : "no address");
	EXPECT_FALSE(hosts_table_has("127.0.20.72", "side.ok.adv.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.72"));
}

/*
 * Questions whose labels hold bytes a name cannot: a NUL after "example"
 * (x.ok.adv.example, were the name read as a C string, under
 * *.ok.adv.example), a dot inside a label.  The resolver sends them to the
 * attacker's zone, whose answer gives them its address: nothing is learned
 * from either, as asked or as served.  The control: a plain name of the
 * attacker's zone is learned, with the same address.
 */
struct wire_ask {
	const uint8_t *name;
	size_t len;
};

static int wire_ask_fn(void *arg)
{
	const struct wire_ask *wa = arg;
	uint8_t msg[512];
	char got[INET_ADDRSTRLEN];
	size_t len = 0;
	int err;

	len += dns_put16(msg + len, 0x6262);
	len += dns_put16(msg + len, 0x0100);
	len += dns_put16(msg + len, 1);
	len += dns_put16(msg + len, 0);
	len += dns_put16(msg + len, 0);
	len += dns_put16(msg + len, 0);
	memcpy(msg + len, wa->name, wa->len);
	len += wa->len;
	len += dns_put16(msg + len, 1);
	len += dns_put16(msg + len, 1);
	err = ask_msg(RESOLVER, msg, len, got, 5000);
	fprintf(stderr, "# pfuser1's odd question: %s, answer %s\n",
		err ? strerror(err) : "answered", got[0] ? got : "none");
	return err;
}

TEST_F(adv, odd_bytes_in_the_question_teach_nothing)
{
	static const uint8_t nul[] = "\1x\2ok\3adv\10example\0\4evil\7example";
	static const uint8_t dot[] = "\20x.ok.adv.example\4evil\7example";
	const struct wire_ask with_nul = { nul, sizeof(nul) };
	const struct wire_ask with_dot = { dot, sizeof(dot) };

	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, wire_ask_fn, (void *)&with_nul));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, wire_ask_fn, (void *)&with_dot));
	EXPECT_FALSE(hosts_table_has("127.0.20.70", "x.ok.adv.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.70"));
	/* The control: a plain name of the zone, with the same address. */
	EXPECT_EQ(EACCES, user_lookup_connect(RESOLVER, "plain.evil.example",
					      NULL));
	EXPECT_TRUE(hosts_table_has("127.0.20.70", "plain.evil.example"));
	EXPECT_EQ(EACCES, user_connect("127.0.20.70"));
}

/*
 * pfuser1's own DNS server, on the local service's free port: it answers
 * db.svc.ok.adv.example with 127.0.20.74, and db.svc.example with an alias
 * to squat.ok.adv.example, 127.0.20.73.  The parent kills it.
 */
static int squatter_fn(void *arg)
{
	static const struct dns_rr direct[] = { { NULL, 1, "127.0.20.74" } };
	static const struct dns_rr alias[] = {
		{ NULL, 5, "squat.ok.adv.example" },
		{ "squat.ok.adv.example", 1, "127.0.20.73" },
	};
	const int fd = udp_bound(LOCAL_SERVICE, LOCAL_SERVICE_PORT);
	const int ready = (int)(intptr_t)arg;
	uint8_t query[512], msg[1024];

	if (fd < 0)
		return errno;
	if (write(ready, "r", 1) != 1)
		return EIO;
	for (;;) {
		union pfsel_addr peer;
		socklen_t plen = sizeof(peer.storage);
		const ssize_t len =
			recvfrom(fd, query, sizeof(query), 0, &peer.sa, &plen);
		char name[256];
		size_t out;

		if (len < DNS_HEADER_SIZE ||
		    !dns_question(query, (size_t)len, name, sizeof(name)))
			continue;
		if (!strcasecmp(name, "db.svc.ok.adv.example"))
			out = dns_reply(query, (size_t)len, msg, direct, 1);
		else
			out = dns_reply(query, (size_t)len, msg, alias, 2);
		if (sendto(fd, msg, out, 0, &peer.sa, plen) < 0)
			fprintf(stderr, "# the squatter's answer: %s\n",
				strerror(errno));
	}
	return 0;
}

/* Start pfuser1's squatter: its pid, once it is bound, or -1. */
static pid_t start_squatter(void)
{
	int ready[2];
	char c;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		_exit(squatter_fn((void *)(intptr_t)ready[1]));
	}
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) != 1) {
		pfsel_wait_status(pid);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/*
 * A resolver sends a zone to a local service on a port above 1023 that
 * is not running (Consul's agent, say, for .consul on 8600): pfuser1's
 * program binds that port and answers.  The resolver does not receive
 * the answer from port 53, so the kernel does not learn it there; but it
 * serves it from its port 53 to pfuser1's question, and the kernel learns
 * what a resolver serves.  So a local program's answer, from a port any
 * program may bind, names db.svc.ok.adv.example (under *.ok.adv.example)
 * 127.0.20.74, and through the caching resolver, by an alias, any name:
 * squat.ok.adv.example.  The control: the squatter's answers do reach the
 * programs that asked (the resolver passes them on).
 */
TEST_F(adv, squatted_local_upstream_is_served_and_learned)
{
	const pid_t squatter = start_squatter();

	ASSERT_LT(0, squatter);
	/* Without a cache: a name of the forwarded zone. */
	EXPECT_EQ(EACCES, user_lookup_connect(RESOLVER,
					      "db.svc.ok.adv.example", NULL));
	EXPECT_FALSE(hosts_table_has("127.0.20.74", "db.svc.ok.adv.example"));
	/* With a cache: the alias's target, asked for afterwards. */
	EXPECT_EQ(EACCES, user_lookup_connect(CACHING_RESOLVER,
					      "db.svc.example", NULL));
	EXPECT_EQ(EACCES, user_lookup_connect(CACHING_RESOLVER,
					      "squat.ok.adv.example", NULL));
	EXPECT_FALSE(hosts_table_has("127.0.20.73", "squat.ok.adv.example"));
	kill(squatter, SIGKILL);
	pfsel_wait_status(squatter);
}

/* ---- A load against the lookups that would keep a name ----------------- */

/*
 * pfuser1's program asks the resolver for race.adv.example over and over
 * (a query in flight at every moment), while root loads a system policy
 * that no longer trusts dnsmasq, or unloads the system policy: once the
 * load returns, the name is gone from the table and the connect to its
 * address is refused, whatever was in flight.  The control, each round:
 * before the load the name is learned, and connects.
 */
static int hammer_fn(void *arg)
{
	union pfsel_addr dest;
	const socklen_t dlen = pfsel_addr(RESOLVER, 53, &dest);
	uint8_t msg[512];
	unsigned int id = 1;

	(void)arg;
	for (;;) {
		const size_t len = dns_query(msg, id++, "race.adv.example");
		const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (fd < 0)
			return 1;
		sendto(fd, msg, len, 0, &dest.sa, dlen);
		poll(&pfd, 1, 50);
		close(fd);
	}
	return 0;
}

TEST_F_TIMEOUT(adv, untrusting_load_races_lookups, 600)
{
	const int rounds = 12;
	int round;

	for (round = 0; round < rounds; round++) {
		long long deadline;
		bool learned = false;
		pid_t hammer;

		ASSERT_EQ(0, pfsel_load("adv_hosts_system"));
		hammer = fork();
		ASSERT_LE(0, hammer);
		if (hammer == 0) {
			if (pfsel_become(PFSEL_UID1))
				_exit(126);
			_exit(hammer_fn(NULL));
		}
		deadline = pfsel_now_ms() + 5000;
		while (!(learned = hosts_table_has("127.0.20.2",
						   "race.adv.example")) &&
		       pfsel_now_ms() < deadline)
			usleep(10 * 1000);
		EXPECT_TRUE(learned);
		if (round == 0)
			EXPECT_EQ(0, user_connect("127.0.20.2"));
		usleep((useconds_t)(round * 3000));

		if (round % 3 == 2) {
			ASSERT_EQ(0, pfsel_unload_system());
		} else {
			ASSERT_EQ(0, pfsel_load("adv_hosts_untrust_system"));
		}
		EXPECT_FALSE(hosts_table_has("127.0.20.2", "race.adv.example"))
		{
			TH_LOG("round %d: the name outlived the load", round);
		}
		EXPECT_EQ(EACCES, user_connect("127.0.20.2"));
		/* What was in flight then is no better for arriving later. */
		usleep(300 * 1000);
		EXPECT_FALSE(hosts_table_has("127.0.20.2", "race.adv.example"));
		EXPECT_EQ(EACCES, user_connect("127.0.20.2"));

		kill(hammer, SIGKILL);
		pfsel_wait_status(hammer);
	}
}

/* ---- A network namespace of the user's own ---------------------------- */

/* connect() of @fd (TCP, IPv4) to @addr port 7101: the errno, 0 connected. */
static int connect_fd(int fd, const char *addr)
{
	union pfsel_addr a;
	const socklen_t len = pfsel_addr(addr, PORT, &a);

	return connect(fd, &a.sa, len) ? errno : 0;
}

/* A new TCP socket's connect() to @addr port 7101, in this namespace. */
static int connect_new(const char *addr)
{
	const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int err;

	if (fd < 0)
		return ENOTRECOVERABLE;
	err = connect_fd(fd, addr);
	close(fd);
	return err;
}

/*
 * In pfuser1's own network namespace, its own DNS server on 127.0.0.1:53
 * (where the namespace lets it bind) answers its own question: one
 * exchange, 0 when the answer arrived.
 */
static int own_server_exchange(const char *name, const char *addr)
{
	const int server = udp_bound("127.0.0.1", 53);
	union pfsel_addr dest, peer;
	const socklen_t dlen = pfsel_addr("127.0.0.1", 53, &dest);
	socklen_t plen = sizeof(peer.storage);
	const int client = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct pollfd pfd = { .events = POLLIN };
	uint8_t msg[512], got[512];
	size_t len;
	int err = 0;

	if (server < 0 || client < 0)
		return server < 0 ? EADDRNOTAVAIL : ENOTRECOVERABLE;
	len = dns_query(msg, 0x5151, name);
	pfd.fd = server;
	if (sendto(client, msg, len, 0, &dest.sa, dlen) != (ssize_t)len ||
	    poll(&pfd, 1, 2000) != 1 ||
	    recvfrom(server, got, sizeof(got), 0, &peer.sa, &plen) !=
		    (ssize_t)len) {
		err = EPROTO;
		goto out;
	}
	{
		struct in_addr a;

		inet_pton(AF_INET, addr, &a);
		len = dns_answer_query(msg, len, a, 600);
	}
	pfd.fd = client;
	if (sendto(server, msg, len, 0, &peer.sa, plen) != (ssize_t)len ||
	    poll(&pfd, 1, 2000) != 1 ||
	    recv(client, got, sizeof(got), 0) != (ssize_t)len)
		err = ETIMEDOUT;
out:
	close(server);
	close(client);
	return err;
}

/* What pfuser1's program in its own network namespace saw, step by step. */
struct netns_steps {
	int enter; /* entering the namespaces, bringing up lo */
	int before; /* connect in the namespace before the answer */
	int exchange; /* its own server's answer */
	int inside; /* connect in the namespace after it */
	int outside; /* connect of the socket made before unshare() */
	int after_load; /* connect in the namespace after root's load */
};

/*
 * The stage of a test with a network namespace of pfuser1's: no policy
 * but @system_policy and pfuser1's; root's listener on @addr port 7101 of
 * the initial namespace (its descriptor, or -1); the pipes between root
 * and pfuser1's child, @results and @go.
 */
static int ns_stage(const char *system_policy, const char *addr,
		    int results[2], int go[2])
{
	int peer;

	pfsel_reset();
	if (pfsel_load(system_policy) || pfsel_load("adv_hosts_1001") ||
	    pipe2(results, O_CLOEXEC))
		return -1;
	if (pipe2(go, O_CLOEXEC)) {
		close(results[0]);
		close(results[1]);
		return -1;
	}
	peer = pfsel_peer(SOCK_STREAM, addr, PORT);
	return peer < 0 ? -1 : peer;
}

/*
 * In pfuser1's child of ns_stage(): become pfuser1, make a TCP socket in
 * the initial namespace (@outer), then take a user and network namespace
 * of its own, loopback up.  0, or the errno of the step that failed.
 */
static int ns_enter(int results[2], int go[2], int *outer)
{
	close(results[0]);
	close(go[1]);
	if (pfsel_become(PFSEL_UID1))
		_exit(126);
	*outer = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*outer < 0)
		return ENOTRECOVERABLE;
	return pfsel_enter_userns(CLONE_NEWNET) ?: pfsel_loopback_up();
}

/*
 * The loosest trust (resolver * any user): every process's answers from
 * port 53 teach names.  In a network namespace of its own pfuser1 may
 * bind port 53, so its own server can teach its own program any name:
 * into that namespace's table only.  A TCP socket it made before
 * unshare() stays in the initial namespace, whose table has no such
 * name: its connect to the same address, where root's listener waits, is
 * refused (the attack).  Inside, the name is learned (the control: the
 * connect is allowed, and refused by nobody but the empty namespace:
 * ECONNREFUSED); and a system policy that no longer trusts every process
 * takes the name from that namespace's table too.
 */
TEST(own_network_namespace_teaches_only_itself)
{
	const char *const name = "ns.ok.adv.example", *const addr =
		"127.0.20.30";
	struct netns_steps steps = { -1, -1, -1, -1, -1, -1 };
	int results[2], go[2], peer;
	char c;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "loading policies needs root");
	peer = ns_stage("adv_hosts_any_system", addr, results, go);
	ASSERT_LE(0, peer);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int outer;

		steps.enter = ns_enter(results, go, &outer);
		if (!steps.enter) {
			steps.before = connect_new(addr);
			steps.exchange = own_server_exchange(name, addr);
			steps.inside = connect_new(addr);
			steps.outside = connect_fd(outer, addr);
			/* Root loads; then once more, inside. */
			if (write(results[1], "l", 1) == 1 &&
			    read(go[0], &c, 1) == 1)
				steps.after_load = connect_new(addr);
		}
		if (write(results[1], &steps, sizeof(steps)) !=
		    (ssize_t)sizeof(steps))
			_exit(1);
		_exit(0);
	}
	close(results[1]);
	close(go[0]);
	if (read(results[0], &c, 1) == 1) {
		ASSERT_EQ(0, pfsel_load("adv_hosts_system"));
		ASSERT_EQ(1, write(go[1], "g", 1));
	}
	close(go[1]);
	ASSERT_EQ((ssize_t)sizeof(steps),
		  read(results[0], &steps, sizeof(steps)));
	EXPECT_EQ(0, pfsel_wait_status(pid));
	close(results[0]);
	ASSERT_EQ(0, steps.enter);
	EXPECT_EQ(EACCES, steps.before);
	ASSERT_EQ(0, steps.exchange);
	/* The control: learned in its namespace, allowed there. */
	EXPECT_EQ(ECONNREFUSED, steps.inside);
	/* The attack: the socket of the initial namespace is refused. */
	EXPECT_EQ(EACCES, steps.outside);
	EXPECT_FALSE(hosts_table_has(addr, name));
	/* The trust gone, the name is gone in that namespace too. */
	EXPECT_EQ(EACCES, steps.after_load);
	close(peer);
	pfsel_reset();
}

/* ---- The recent allows and a namespace that goes ---------------------- */

/* Fresh namespaces made after the first one goes, each tried once. */
#define NS_REUSE_TRIES 64

/*
 * pfuser1's child on CPU 0, in a user and network namespace of its own:
 * with @name, its own server teaches the name for @addr first.  The exit
 * status: connect()'s errno (0 connected), 120 + the step that failed.
 */
static pid_t fresh_namespace_connect(const char *name, const char *addr)
{
	const pid_t pid = fork();

	if (pid)
		return pid;
	if (pfsel_on_cpu0())
		_exit(121);
	if (pfsel_become(PFSEL_UID1))
		_exit(126);
	if (pfsel_enter_userns(CLONE_NEWNET) || pfsel_loopback_up())
		_exit(122);
	if (name && own_server_exchange(name, addr))
		_exit(123);
	_exit(connect_new(addr));
}

/*
 * The recent allows keep an allow that looked at a name until the name
 * expires, keyed by the namespace's address; the namespace's names go
 * with it, and no new epoch begins.  A namespace made later at the same
 * address (the kernel reuses a freed struct net) knows no names: its
 * program's connect to the address must be refused, but the allow of the
 * namespace that went answers for it, on the CPU that kept it, as long as
 * no name is learned anywhere.  The control: in the first namespace, the
 * name learned, the connect is allowed (ECONNREFUSED: nobody listens).
 * A kernel with KASAN's quarantine (the debug kernel) seldom hands a freed
 * namespace's memory out again soon: the attack is for the release kernel.
 * Found by the cache adversary read of wt-perf.
 */
/* A fixture only for its time-out: 64 namespaces made and gone. */
FIXTURE(gone) {};
FIXTURE_SETUP(gone)
{
}
FIXTURE_TEARDOWN(gone)
{
}

TEST_F_TIMEOUT(gone, namespaces_allows_do_not_answer_for_the_next, 300)
{
	const char *const name = "gone.ok.adv.example", *const addr =
		"127.0.20.32";
	int first, stale = 0, refused = 0, other = 0, i, status;

	if (geteuid() != 0)
		SKIP(return, "loading policies needs root");
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("adv_hosts_any_system"));
	ASSERT_EQ(0, pfsel_load("adv_hosts_1001"));

	first = pfsel_wait_status(fresh_namespace_connect(name, addr));
	ASSERT_EQ(ECONNREFUSED, first);
	for (i = 0; i < NS_REUSE_TRIES; i++) {
		/* Time for the namespace that went to be freed. */
		usleep(100 * 1000);
		status = pfsel_wait_status(fresh_namespace_connect(NULL, addr));
		if (status == ECONNREFUSED) {
			stale++;
			TH_LOG("try %d: allowed in a namespace knowing no name",
			       i);
		} else if (status == EACCES) {
			refused++;
		} else {
			other++;
			TH_LOG("try %d: status %d", i, status);
		}
	}
	TH_LOG("%d refused, %d allowed, %d other", refused, stale, other);
	EXPECT_EQ(0, stale);
	EXPECT_EQ(0, other);
	pfsel_reset();
}

/*
 * With the system's trust (dnsmasq, started by root's code, run by an
 * account without a policy): pfuser1 runs dnsmasq itself in its own user
 * and network namespace, where it is root and binds port 53, with an
 * address of its choosing for the allowed name.  Its answer arrives
 * (the control), and teaches nothing, not even in that namespace: the
 * program it served is refused there.
 */
TEST(own_dnsmasq_in_own_network_namespace)
{
	const char *const name = "nsdns.ok.adv.example", *const addr =
		"127.0.20.30";
	char address_arg[128];
	const char *const extra[] = { address_arg };
	/* In pfuser1's user namespace, which refuses setgroups(). */
	const struct dnsmasq resolver = {
		.program = DNSMASQ,
		.listen = "127.0.0.1",
		.extra = extra,
		.n_extra = 1,
		.mode = "--no-daemon",
	};
	struct netns_steps steps = { -1, -1, -1, -1, -1, -1 };
	int results[2];
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "loading policies needs root");
	if (access(DNSMASQ, X_OK))
		SKIP(return, "no " DNSMASQ " in the VM");
	snprintf(address_arg, sizeof(address_arg), "--address=/%s/%s", name,
		 addr);
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("adv_hosts_system"));
	ASSERT_EQ(0, pfsel_load("adv_hosts_1001"));
	ASSERT_EQ(0, pipe2(results, O_CLOEXEC));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char got[INET_ADDRSTRLEN] = "";
		pid_t dns = -1;
		int tries;

		close(results[0]);
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		steps.enter = pfsel_enter_userns(CLONE_NEWNET);
		if (!steps.enter)
			steps.enter = pfsel_loopback_up();
		if (!steps.enter)
			dns = dnsmasq_start_as(&resolver);
		if (dns > 0) {
			steps.exchange = ETIMEDOUT;
			for (tries = 0; tries < 50 && steps.exchange; tries++) {
				if (!ask_for_wait("127.0.0.1", name, got, 200) &&
				    !strcmp(got, addr))
					steps.exchange = 0;
				else
					usleep(100 * 1000);
			}
			steps.inside = connect_new(addr);
			kill(dns, SIGTERM);
			pfsel_wait_status(dns);
		}
		if (write(results[1], &steps, sizeof(steps)) !=
		    (ssize_t)sizeof(steps))
			_exit(1);
		_exit(0);
	}
	close(results[1]);
	ASSERT_EQ((ssize_t)sizeof(steps),
		  read(results[0], &steps, sizeof(steps)));
	EXPECT_EQ(0, pfsel_wait_status(pid));
	close(results[0]);
	ASSERT_EQ(0, steps.enter);
	ASSERT_EQ(0, steps.exchange);
	EXPECT_EQ(EACCES, steps.inside);
	pfsel_reset();
}

/* Where root's dnsmasq listens in pfuser1's namespace (53 is pfuser1's). */
#define NS_RESOLVER_PORT 5300

/*
 * In pfuser1's namespace: ask root's dnsmasq there for @name, and answer,
 * from @server (pfuser1's own, bound to 127.0.0.1:53, dnsmasq's upstream),
 * the query dnsmasq forwards with @addr.  0 once dnsmasq's answer to the
 * question arrived with @addr; else an errno.
 */
static int upstream_exchange(int server, const char *name, const char *addr)
{
	const struct dns_rr rr = { NULL, 1, addr };
	union pfsel_addr dest, peer;
	const socklen_t dlen = pfsel_addr("127.0.0.1", NS_RESOLVER_PORT, &dest);
	socklen_t plen = sizeof(peer.storage);
	const int client = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct pollfd pfd = { .fd = server, .events = POLLIN };
	uint8_t query[512], msg[1024];
	char got[INET_ADDRSTRLEN] = "";
	const size_t qlen = dns_query(query, 0x5353, name);
	ssize_t n = -1;
	size_t len;
	int tries, err = ETIMEDOUT;

	if (client < 0)
		return ENOTRECOVERABLE;
	/* Until dnsmasq listens: ask again until its query comes. */
	for (tries = 0; tries < 50 && n < DNS_HEADER_SIZE; tries++) {
		if (sendto(client, query, qlen, 0, &dest.sa, dlen) !=
		    (ssize_t)qlen) {
			usleep(200 * 1000);
			continue;
		}
		if (poll(&pfd, 1, 200) == 1)
			n = recvfrom(server, msg, sizeof(msg), 0, &peer.sa,
				     &plen);
	}
	if (n < DNS_HEADER_SIZE)
		goto out;
	memcpy(query, msg, (size_t)n);
	len = dns_reply(query, (size_t)n, msg, &rr, 1);
	if (sendto(server, msg, len, 0, &peer.sa, plen) != (ssize_t)len) {
		err = errno;
		goto out;
	}
	/* dnsmasq's answer to the client (after any earlier tries' own). */
	pfd.fd = client;
	while (poll(&pfd, 1, 2000) == 1) {
		n = recv(client, msg, sizeof(msg), 0);
		if (n > 0 && dns_last_a(msg, (size_t)n, got) &&
		    !strcmp(got, addr)) {
			err = 0;
			break;
		}
	}
out:
	close(client);
	return err;
}

/* Whether the table of the network namespace @netns has @name for @addr. */
static bool netns_table_has(int netns, const char *addr, const char *name)
{
	const pid_t pid = fork();

	if (pid == 0)
		_exit(setns(netns, CLONE_NEWNET)  ? 2 :
		      hosts_table_has(addr, name) ? 0 :
						    1);
	return pid > 0 && pfsel_wait_status(pid) == 0;
}

/*
 * The system's trust (dnsmasq, started by root's code, run by root) in a
 * network namespace of pfuser1's own user namespace, where pfuser1 may
 * bind port 53: root runs dnsmasq there (as a service a person starts in
 * their namespace through the system would be), and its upstream,
 * 127.0.0.1:53, is pfuser1's own server, which answers the allowed name
 * with an address of pfuser1's choosing.  dnsmasq is a trusted resolver
 * asking port 53: that namespace's table learns the name (the control:
 * pfuser1's connect there is allowed, refused by nobody but the empty
 * namespace: ECONNREFUSED).  The initial namespace's table does not: a
 * TCP socket pfuser1 made before unshare() is refused the same address,
 * where root's listener waits (the attack).
 */
TEST(trusted_resolver_in_own_network_namespace)
{
	const char *const name = "nsres.ok.adv.example", *const addr =
		"127.0.20.31";
	char port_arg[32], path[64];
	const char *const extra[] = { "--server=127.0.0.1", port_arg,
				      "--cache-size=0" };
	int results[2], go[2], peer, netns = -1;
	/* Root's, in pfuser1's network namespace (@netns, once open). */
	const struct dnsmasq resolver = {
		.program = DNSMASQ,
		.listen = "127.0.0.1",
		.extra = extra,
		.n_extra = 3,
		.netns = &netns,
	};
	struct netns_steps steps = { -1, -1, -1, -1, -1, -1 };
	bool learned_there = false, learned_here = true;
	pid_t pid, dns = -1;
	char c;

	if (geteuid() != 0)
		SKIP(return, "loading policies and running dnsmasq need root");
	if (access(DNSMASQ, X_OK))
		SKIP(return, "no " DNSMASQ " in the VM");
	snprintf(port_arg, sizeof(port_arg), "--port=%d", NS_RESOLVER_PORT);
	peer = ns_stage("adv_hosts_system", addr, results, go);
	ASSERT_LE(0, peer);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int outer, server = -1;

		steps.enter = ns_enter(results, go, &outer);
		if (!steps.enter) {
			server = udp_bound("127.0.0.1", 53);
			steps.enter = server < 0 ? EADDRNOTAVAIL : 0;
		}
		/* Ready: root starts dnsmasq in this namespace. */
		if (write(results[1], "r", 1) != 1)
			_exit(1);
		if (!steps.enter) {
			steps.before = connect_new(addr);
			steps.exchange = upstream_exchange(server, name, addr);
			steps.inside = connect_new(addr);
			steps.outside = connect_fd(outer, addr);
		}
		if (write(results[1], &steps, sizeof(steps)) !=
		    (ssize_t)sizeof(steps))
			_exit(1);
		/* The namespace lives until root has read its table. */
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(results[1]);
	close(go[0]);
	if (read(results[0], &c, 1) == 1) {
		snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
		netns = open(path, O_RDONLY | O_CLOEXEC);
		if (netns >= 0)
			dns = dnsmasq_start_as(&resolver);
	}
	if (read(results[0], &steps, sizeof(steps)) == (ssize_t)sizeof(steps) &&
	    netns >= 0) {
		learned_there = netns_table_has(netns, addr, name);
		learned_here = hosts_table_has(addr, name);
	}
	EXPECT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	EXPECT_EQ(0, pfsel_wait_status(pid));
	close(results[0]);
	if (dns > 0) {
		kill(dns, SIGTERM);
		pfsel_wait_status(dns);
	}
	if (netns >= 0)
		close(netns);
	ASSERT_LE(0, netns);
	ASSERT_LT(0, dns);
	ASSERT_EQ(0, steps.enter);
	EXPECT_EQ(EACCES, steps.before);
	ASSERT_EQ(0, steps.exchange);
	/* The control: learned in that namespace, allowed there. */
	EXPECT_TRUE(learned_there);
	EXPECT_EQ(ECONNREFUSED, steps.inside);
	/* The attack: nothing learned here; the same address is refused. */
	EXPECT_FALSE(learned_here);
	EXPECT_EQ(EACCES, steps.outside);
	close(peer);
	pfsel_reset();
}

TEST_HARNESS_MAIN
