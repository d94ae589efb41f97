// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - host names: rules by host name, matched through the
 * names the kernel learns from the DNS answers trusted resolvers receive
 * (policy/LANGUAGE.md, "Host names"; docs/kernel-interface.md).
 *
 * Two dnsmasq (Debian's) run on loopback: the test zone's server on
 * 127.0.0.2:53, and the resolver on 127.0.0.1:53, which forwards every
 * question to it and keeps no cache; the system policy names dnsmasq a
 * resolver.  The zone's server is a copy of dnsmasq at another path,
 * another application, which the system policy does not trust: what it
 * serves is learned only where a trusted resolver receives it.  The
 * programs of pfuser1 resolve names with the C library (/etc/resolv.conf
 * names the resolver) and connect to listeners on the addresses the zone
 * gives.  The attacks are played by hand-made answers: this program is a
 * resolver too in the system policy, and sends itself answers from port
 * 53 (and from other ports), as root, the only one that may bind port 53
 * here.
 *
 * Answers over TCP: big.test.example has more addresses than a UDP
 * answer holds, so the zone's server truncates it over UDP, and the C
 * library asks again over TCP (dnsmasq, which forwards over TCP what it
 * is asked over TCP, with TCP Fast Open); and this program plays both
 * ends of hand-made TCP exchanges, as for UDP.
 *
 * Every test uses names and addresses of its own: a name learned stays
 * learned (at least 30 s) for the tests after it.  Needs root.
 */

#define _GNU_SOURCE
#include <netdb.h>

#include "dns_message.h"
#include "host_names.h"
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* The zone servers' dnsmasq: a copy, which no "resolver" names. */
#define ZONE_DNSMASQ "/tmp/hostname-zone-dnsmasq"
#define ZONE_SERVER "127.0.0.2"
#define RESOLVER "127.0.0.1"
/* The port the host rules of hosts_1001.pfw allow. */
#define PORT_NAMED 7001
/* The port its address rule allows (127.0.11.0/24). */
#define PORT_BY_ADDRESS 7002
/* The clamp's floor (PFSEL_HOSTMAP_TTL_MIN), in seconds. */
#define TTL_FLOOR_S 30
/*
 * The name whose answer only TCP carries: BIG_ADDRS addresses,
 * 127.0.30.1 and on (530 bytes: more than UDP's 512 without EDNS, no
 * more records than the kernel reads, 32), in the zone's hosts file;
 * hosts_1001.pfw allows it on PORT_BIG, where a listener on every address
 * waits.
 */
#define BIG_NAME "big.test.example"
#define BIG_HOSTS "/tmp/hostname-big.hosts"
#define BIG_ADDRS 31
#define PORT_BIG 7003

/*
 * The test zone: name, address, TTL; a CNAME; and names under
 * wild.example.  The resolver forwards, so every answer it receives comes
 * from the zone's server, from port 53.
 */
static const char *const zone_args[] = {
	"--host-record=www.test.example,127.0.10.1,600",
	"--host-record=other.test.example,127.0.10.2,600",
	"--host-record=a.wild.example,127.0.10.3,600",
	"--host-record=wild.example,127.0.10.8,600",
	"--host-record=edge.cdn.example,127.0.10.4,600",
	"--cname=alias.test.example,edge.cdn.example,600",
	"--host-record=direct.test.example,127.0.10.5,600",
	"--host-record=short.test.example,127.0.10.6,1",
	"--host-record=bad.test.example,127.0.11.7,600",
	"--host-record=evil.test.example,127.0.11.8,1",
	"--host-record=ask.test.example,127.0.10.9,600",
	"--host-record=root-started.test.example,127.0.12.4,600",
	"--host-record=shell-started.test.example,127.0.12.5,600",
	"--host-record=userns-started.test.example,127.0.12.6,600",
	"--host-record=suid-started.test.example,127.0.12.7,600",
	"--host-record=user.test.example,127.0.12.2,600",
	"--host-record=trust-gone.test.example,127.0.12.10,600",
	"--host-record=uid-policy.test.example,127.0.12.12,600",
	"--addn-hosts=" BIG_HOSTS,
};

/* The transaction id of the hand-made questions and answers. */
#define ANSWER_ID 0x4242

/* The answer "@name has A @ipv4, for @ttl seconds": its length. */
static size_t dns_answer(uint8_t *msg, const char *name, const char *ipv4,
			 uint32_t ttl)
{
	struct in_addr a;

	inet_pton(AF_INET, ipv4, &a);
	return dns_answer_query(msg, dns_query(msg, ANSWER_ID, name), a, ttl);
}

/* A UDP socket bound to @addr:@port (0: any port): the descriptor or -1. */
static int udp_bound(const char *addr, unsigned short port)
{
	union pfsel_addr a;
	const socklen_t len = pfsel_addr(addr, port, &a);
	const int one = 1;
	int fd = socket(a.sa.sa_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, &a.sa, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Ask @server, on @port, for @name's A records from a socket of this
 * process, and wait up to @wait_ms for the answer: true when one came.
 */
static bool ask_server_at(const char *server, unsigned short port,
			  const char *name, int wait_ms)
{
	uint8_t msg[512];
	union pfsel_addr a;
	const socklen_t alen = pfsel_addr(server, port, &a);
	struct pollfd pfd = { .events = POLLIN };
	const size_t len = dns_query(msg, 0x1234, name);
	bool got = false;

	pfd.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (pfd.fd < 0)
		return false;
	if (sendto(pfd.fd, msg, len, 0, &a.sa, alen) == (ssize_t)len &&
	    poll(&pfd, 1, wait_ms) == 1)
		got = recv(pfd.fd, msg, sizeof(msg), 0) > 12;
	close(pfd.fd);
	return got;
}

/* Ask @server, on port 53, for @name: true when an answer came. */
static bool ask_server(const char *server, const char *name)
{
	return ask_server_at(server, 53, name, 5000);
}

/* The dnsmasq of a fixture: the zone's server, and the resolver before it. */
struct dnsmasq_pair {
	pid_t zone, resolver;
};

/*
 * Start the zone's server (ZONE_DNSMASQ, a fresh copy of DNSMASQ) on
 * @zone_at with the @n_zone words of @zone, and the resolver (DNSMASQ,
 * forwarding to it) on @resolver_at with the @n_resolver words of
 * @resolver, which /etc/resolv.conf then names, and wait until the
 * resolver answers for @probe: true then.  What was started is in @pair
 * either way, for the teardown.
 */
static bool start_zone_and_resolver(struct dnsmasq_pair *pair,
				    const char *zone_at,
				    const char *const *zone, size_t n_zone,
				    const char *resolver_at,
				    const char *const *resolver,
				    size_t n_resolver, const char *probe)
{
	char conf[128];
	int tries;

	pair->zone = pair->resolver = -1;
	snprintf(conf, sizeof(conf),
		 "nameserver %s\noptions attempts:2 timeout:2\n", resolver_at);
	if (pfsel_create_file("/etc/resolv.conf", conf, 0644) ||
	    pfsel_create_file("/etc/nsswitch.conf", "hosts: dns\n", 0644))
		return false;
	if (system("rm -f " ZONE_DNSMASQ " && cp " DNSMASQ " " ZONE_DNSMASQ))
		return false;
	pair->zone = dnsmasq_start(ZONE_DNSMASQ, zone_at, zone, n_zone);
	pair->resolver =
		dnsmasq_start(DNSMASQ, resolver_at, resolver, n_resolver);
	if (pair->zone < 0 || pair->resolver < 0)
		return false;
	for (tries = 0; tries < 50; tries++) {
		if (ask_server(resolver_at, probe))
			return true;
		usleep(100 * 1000);
	}
	return false;
}

/* Stop what start_zone_and_resolver() started. */
static void stop_zone_and_resolver(const struct dnsmasq_pair *pair)
{
	if (pair->zone > 0)
		kill(pair->zone, SIGTERM);
	if (pair->resolver > 0)
		kill(pair->resolver, SIGTERM);
	if (pair->zone > 0)
		pfsel_wait_status(pair->zone);
	if (pair->resolver > 0)
		pfsel_wait_status(pair->resolver);
}

/*
 * The socket @to asks @server (a socket bound to port 53) for @name's A
 * records, as a resolver asks its upstream server, and @server reads the
 * question: true when it arrived.  The answer's source is then in @peer.
 */
static bool send_query(int to, int server, const char *name,
		       union pfsel_addr *peer)
{
	union pfsel_addr dest;
	socklen_t dlen = sizeof(dest.storage), plen = sizeof(peer->storage);
	uint8_t msg[512];
	struct pollfd pfd = { .fd = server, .events = POLLIN };
	const size_t len = dns_query(msg, ANSWER_ID, name);

	if (getsockname(server, &dest.sa, &dlen) ||
	    sendto(to, msg, len, 0, &dest.sa, dlen) != (ssize_t)len)
		return false;
	return poll(&pfd, 1, 5000) == 1 &&
	       recvfrom(server, msg, sizeof(msg), 0, &peer->sa, &plen) ==
		       (ssize_t)len;
}

/*
 * Send the hand-made answer "@name is @ipv4" from socket @from to @to (a
 * bound UDP socket), and receive it there: true once it has arrived.
 * Learning happens as it is queued, before it can be read.
 */
static bool send_answer(int from, int to, const char *name, const char *ipv4,
			uint32_t ttl)
{
	union pfsel_addr dest;
	socklen_t dlen = sizeof(dest.storage);
	uint8_t msg[512], got[512];
	struct pollfd pfd = { .fd = to, .events = POLLIN };
	const size_t len = dns_answer(msg, name, ipv4, ttl);

	if (getsockname(to, &dest.sa, &dlen) ||
	    sendto(from, msg, len, 0, &dest.sa, dlen) != (ssize_t)len)
		return false;
	return poll(&pfd, 1, 5000) == 1 &&
	       recv(to, got, sizeof(got), 0) == (ssize_t)len;
}

/* A question, then its answer from @server (port 53): both arrived. */
static bool exchange(int to, int server, const char *name, const char *ipv4)
{
	union pfsel_addr peer;

	return send_query(to, server, name, &peer) &&
	       send_answer(server, to, name, ipv4, 600);
}

/*
 * Where the hand-made answers come from: port 53 (or another) of
 * 127.0.0.3, which no dnsmasq of the tests binds.
 */
#define FORGER "127.0.0.3"

/* How many (address, name) pairs the table holds: lines of "hosts". */
static long table_pairs(void)
{
	char *text = hosts_table_read(1 << 20), *p;
	long n = 0;

	if (!text)
		return -1;
	for (p = text; *p; p = strchr(p, '\n') + 1) {
		if (*p != '#')
			n++;
		if (!strchr(p, '\n'))
			break;
	}
	free(text);
	return n;
}

/* What a program of the user does: resolve a name, connect to it. */
struct resolve_connect {
	const char *name;
	/* the address the zone gives it; NULL: any of its addresses */
	const char *expect;
	unsigned short port;
	bool resolve; /* false: connect to @expect without resolving */
};

/*
 * For pfsel_run_as(): resolve @name with getaddrinfo() (the C library's
 * resolver, through /etc/resolv.conf), then connect to the address it
 * gave: 0 when connected, else the errno of connect(); 124 when the name
 * did not resolve to the expected address.
 */
static int resolve_and_connect(void *arg)
{
	const struct resolve_connect *rc = arg;
	const struct addrinfo hints = { .ai_family = AF_INET,
					.ai_socktype = SOCK_STREAM };
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET,
		.type = SOCK_STREAM,
		.addr = rc->expect,
		.port = rc->port,
	};
	struct addrinfo *res;
	char text[INET_ADDRSTRLEN];

	if (rc->resolve) {
		if (getaddrinfo(rc->name, NULL, &hints, &res))
			return 124;
		inet_ntop(AF_INET,
			  &((struct sockaddr_in *)res->ai_addr)->sin_addr, text,
			  sizeof(text));
		freeaddrinfo(res);
		if (!rc->expect)
			probe.addr = text;
		else if (strcmp(text, rc->expect))
			return 124;
	}
	return pfsel_probe_run(&probe);
}

static int as_user(const char *name, const char *addr, unsigned short port,
		   bool resolve)
{
	struct resolve_connect rc = { name, addr, port, resolve };

	return pfsel_run_as(PFSEL_UID1, resolve_and_connect, &rc);
}

FIXTURE(hostname)
{
	struct dnsmasq_pair dns;
	int peers[16];
	int npeers;
};

FIXTURE_SETUP(hostname)
{
	static const char *const resolver_args[] = {
		"--server=" ZONE_SERVER,
		"--cache-size=0",
		/*
		 * What it asks upstream over UDP fits in 512 bytes, with
		 * EDNS or without: BIG_NAME comes over TCP only.
		 */
		"--edns-packet-max=512",
	};
	static const struct {
		const char *addr;
		unsigned short port;
	} listeners[] = {
		{ "127.0.10.1", PORT_NAMED },	  { "127.0.10.2", PORT_NAMED },
		{ "127.0.10.3", PORT_NAMED },	  { "127.0.10.8", PORT_NAMED },
		{ "127.0.10.4", PORT_NAMED },	  { "127.0.10.5", PORT_NAMED },
		{ "127.0.10.6", PORT_NAMED },	  { "127.0.11.7", PORT_BY_ADDRESS },
		{ "127.0.12.1", PORT_NAMED },	  { "127.0.12.4", PORT_NAMED },
		{ "127.0.12.5", PORT_NAMED },	  { "127.0.11.8", PORT_BY_ADDRESS },
		{ "127.0.12.10", PORT_NAMED },	  { "127.0.12.11", PORT_NAMED },
		{ "0.0.0.0", PORT_BIG },
	};
	FILE *big;
	size_t i;

	self->dns.zone = self->dns.resolver = -1;
	self->npeers = 0;
	if (geteuid() != 0)
		SKIP(return, "loading policies and running dnsmasq need root");
	if (access(DNSMASQ, X_OK))
		SKIP(return, "no " DNSMASQ " in the VM (Debian's dnsmasq-base)");

	pfsel_reset();
	big = fopen(BIG_HOSTS, "we");
	ASSERT_NE(NULL, big);
	for (i = 1; i <= BIG_ADDRS; i++)
		fprintf(big, "127.0.30.%zu %s\n", i, BIG_NAME);
	ASSERT_EQ(0, fclose(big));
	ASSERT_TRUE(start_zone_and_resolver(
		&self->dns, ZONE_SERVER, zone_args,
		sizeof(zone_args) / sizeof(zone_args[0]), RESOLVER,
		resolver_args, sizeof(resolver_args) / sizeof(resolver_args[0]),
		"www.test.example"))
	{
		TH_LOG("the resolver did not answer");
	}

	for (i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		self->peers[self->npeers] = pfsel_peer(
			SOCK_STREAM, listeners[i].addr, listeners[i].port);
		ASSERT_LE(0, self->peers[self->npeers++]);
	}
	ASSERT_EQ(0, pfsel_load("hosts_system"));
	ASSERT_EQ(0, pfsel_load("hosts_1001"));
}

FIXTURE_TEARDOWN(hostname)
{
	int i;

	for (i = 0; i < self->npeers; i++)
		close(self->peers[i]);
	stop_zone_and_resolver(&self->dns);
	unlink(BIG_HOSTS);
	if (geteuid() == 0)
		pfsel_reset();
}

/*
 * Whether `pfsel check` for pfuser1's connect to @addr, port PORT_NAMED, by
 * this program says @needle: what the kernel would decide, names included.
 */
static bool check_says(const char *addr, const char *needle)
{
	char out[4096];

	pfsel_sh(out, sizeof(out),
		 "pfsel check --uid 1001 --exe " PFSEL_TESTS_DIR
		 "/hostname_test connect tcp %s %d",
		 addr, PORT_NAMED);
	if (!strstr(out, needle))
		fprintf(stderr, "# pfsel check said: %s\n", out);
	return strstr(out, needle) != NULL;
}

/*
 * The new user's story: a rule for the name, not the address.  Before
 * the name is resolved, the address has no name and no rule allows it;
 * once resolved, the same connect() is allowed.
 */
TEST_F(hostname, resolved_name_is_allowed)
{
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.10.1", PORT_NAMED, false));
	EXPECT_TRUE(check_says("127.0.10.1", "verdict  deny"));
	EXPECT_EQ(0, as_user("www.test.example", "127.0.10.1", PORT_NAMED,
			     true));
	EXPECT_TRUE(hosts_table_has("127.0.10.1", "www.test.example"));
	/* Another program of the user, later: the name is still known. */
	EXPECT_EQ(0, as_user(NULL, "127.0.10.1", PORT_NAMED, false));
	/* And the check file says so, with the host rule that decides. */
	EXPECT_TRUE(check_says("127.0.10.1", "allow  by rule hosts_1001.pfw:12:1"));
}

/* A name no rule names: the default (deny) decides, and says the name. */
TEST_F(hostname, other_name_is_denied_and_audited_with_it)
{
	const char *const needles[] = { "raddr=127.0.10.2",
					"hosts=\"other.test.example\"", NULL };
	char record[4096];

	EXPECT_EQ(EACCES, as_user("other.test.example", "127.0.10.2",
				  PORT_NAMED, true));
	EXPECT_TRUE(hosts_table_has("127.0.10.2", "other.test.example"));
	ASSERT_TRUE(pfsel_auditd_running());
	EXPECT_TRUE(pfsel_audit_find("1430", needles, record, sizeof(record),
				     10000));
}

/* "*.wild.example" is every name below wild.example, not wild.example. */
TEST_F(hostname, wildcard_matches_names_below_only)
{
	EXPECT_EQ(0, as_user("a.wild.example", "127.0.10.3", PORT_NAMED,
			     true));
	EXPECT_EQ(EACCES, as_user("wild.example", "127.0.10.8", PORT_NAMED,
				  true));
}

/* The name asked for reaches the address through a CNAME. */
TEST_F(hostname, cname_chain_gives_the_asked_name)
{
	EXPECT_EQ(0, as_user("alias.test.example", "127.0.10.4", PORT_NAMED,
			     true));
	EXPECT_TRUE(hosts_table_has("127.0.10.4", "alias.test.example"));
}

/*
 * A host rule before an address rule: once the address is named, the
 * host rule is the first match, even right after the same call was
 * allowed by address (nothing kept the old decision).
 */
TEST_F(hostname, earlier_host_rule_wins_once_named)
{
	EXPECT_EQ(0, as_user(NULL, "127.0.11.7", PORT_BY_ADDRESS, false));
	EXPECT_EQ(0, as_user(NULL, "127.0.11.7", PORT_BY_ADDRESS, false));
	EXPECT_TRUE(ask_server(RESOLVER, "bad.test.example"));
	EXPECT_TRUE(hosts_table_has("127.0.11.7", "bad.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.11.7", PORT_BY_ADDRESS, false));
}

#define AGENT_LOG "/tmp/hostname-agent.log"

/*
 * A host rule that asks: the question the agent gets names the host.
 * pfuser1's agent (root starts it for the user) answers deny by itself
 * and logs the question as it would show it.
 */
TEST_F(hostname, question_names_the_host)
{
	const char *const options[] = { "--auto=deny", NULL };
	struct pfsel_agent_process agent;
	char log[8192];

	unlink(AGENT_LOG);
	EXPECT_TRUE(pfsel_start_agent(&agent, PFSEL_UID1, options, AGENT_LOG,
				      NULL, false, 10000));
	pfsel_read_text(AGENT_LOG, log, sizeof(log));
	EXPECT_NE(NULL, strstr(log, "registered as the agent of uid 1001"));

	EXPECT_EQ(EACCES, as_user("ask.test.example", "127.0.10.9",
				  PORT_NAMED, true));
	pfsel_stop_agent(&agent, SIGTERM);
	pfsel_read_text(AGENT_LOG, log, sizeof(log));
	TH_LOG("agent log: %s", log);
	EXPECT_NE(NULL, strstr(log, "ask.test.example (127.0.10.9"));
}

/* After its TTL (raised to the floor), the name no longer matches. */
TEST_F_TIMEOUT(hostname, expired_name_no_longer_matches, TTL_FLOOR_S + 60)
{
	EXPECT_EQ(0, as_user("short.test.example", "127.0.10.6", PORT_NAMED,
			     true));
	sleep(TTL_FLOOR_S + 2);
	EXPECT_FALSE(hosts_table_has("127.0.10.6", "short.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.10.6", PORT_NAMED, false));
}

/*
 * A deny by host name is advice (LANGUAGE.md, "A deny by name is advice,
 * an allow by name confines"; pfwc -Whost says so): it holds while the
 * kernel knows the name, not for a program that connects by the address
 * when the kernel never learned the name, nor after the name expired.
 * pfuser1's policy allows 127.0.11.0/24 port 7002 by address and denies
 * evil.test.example (127.0.11.8, TTL 1 s: the floor) above that.  This
 * documents the limit: the deny holds in the middle only.
 */
TEST_F_TIMEOUT(hostname, host_deny_holds_only_for_learned_names,
	       TTL_FLOOR_S + 60)
{
	/* Never learned: the address rule decides. */
	EXPECT_FALSE(hosts_table_has("127.0.11.8", "evil.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.11.8", PORT_BY_ADDRESS, false));
	/* Resolved through the system's resolver: denied, even by address. */
	EXPECT_EQ(EACCES, as_user("evil.test.example", "127.0.11.8",
				  PORT_BY_ADDRESS, true));
	EXPECT_TRUE(hosts_table_has("127.0.11.8", "evil.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.11.8", PORT_BY_ADDRESS, false));
	/* Expired: the address rule decides again. */
	sleep(TTL_FLOOR_S + 2);
	EXPECT_FALSE(hosts_table_has("127.0.11.8", "evil.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.11.8", PORT_BY_ADDRESS, false));
}

/* Run busybox's nslookup, which asks @server itself, as @uid, quietly. */
static int nslookup_as(uid_t uid, const char *name, const char *server)
{
	char *const argv[] = { "/bin/busybox", "nslookup", "-type=a",
			       (char *)name, (char *)server, NULL };
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		const int null = open("/dev/null", O_WRONLY);

		if (pfsel_become(uid))
			_exit(126);
		dup2(null, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	return pfsel_wait_status(pid);
}

/*
 * A program that asks the zone's server itself: its answer comes from
 * port 53, but neither is a resolver of the system policy's (the server
 * is a copy of dnsmasq), so nothing is learned; once the system policy
 * trusts every process's answers ("resolver * any user;"), the same
 * answer is (the control).
 */
TEST_F(hostname, answer_to_an_untrusted_process_is_not_learned)
{
	ASSERT_EQ(0, nslookup_as(PFSEL_UID2, "direct.test.example",
				 ZONE_SERVER));
	EXPECT_FALSE(hosts_table_has("127.0.10.5", "direct.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.10.5", PORT_NAMED, false));

	ASSERT_EQ(0, pfsel_load("hosts_any_system"));
	ASSERT_EQ(0, nslookup_as(PFSEL_UID2, "direct.test.example",
				 ZONE_SERVER));
	EXPECT_TRUE(hosts_table_has("127.0.10.5", "direct.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.10.5", PORT_NAMED, false));
}

/*
 * Forged answers to a resolver's question: one from a port other than
 * 53 teaches nothing, nor one from port 53 that answers no question the
 * socket asked; the real answer (the control) does.  The sender on port
 * 53 is this program, a trusted resolver too, so the answers it serves
 * are read as well: the unasked one answers no question that reached it,
 * and teaches nothing that way either.
 */
TEST_F(hostname, forged_answers_are_not_learned)
{
	const int to = udp_bound(RESOLVER, 0), server = udp_bound(FORGER, 53);
	const int other_port = udp_bound(FORGER, 5353);
	union pfsel_addr peer;

	ASSERT_LE(0, to);
	ASSERT_LE(0, server);
	ASSERT_LE(0, other_port);
	ASSERT_TRUE(send_query(to, server, "forged.test.example", &peer));
	ASSERT_TRUE(send_answer(other_port, to, "forged.test.example",
				"127.0.12.1", 600));
	EXPECT_FALSE(hosts_table_has("127.0.12.1", "forged.test.example"));
	/* Unasked: a name the socket never asked about, from port 53. */
	ASSERT_TRUE(send_answer(server, to, "unasked.test.example",
				"127.0.12.1", 600));
	EXPECT_FALSE(hosts_table_has("127.0.12.1", "unasked.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.12.1", PORT_NAMED, false));

	ASSERT_TRUE(send_answer(server, to, "forged.test.example",
				"127.0.12.1", 600));
	EXPECT_TRUE(hosts_table_has("127.0.12.1", "forged.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.12.1", PORT_NAMED, false));
	close(other_port);
	close(server);
	close(to);
}

/*
 * A resolver program run by @uid: a socket it made asks the zone's server
 * (a program no "resolver" names, so what it serves teaches nothing of
 * itself) about @name, and receives the answer.  True when it arrived.
 */
static bool resolver_as(uid_t uid, const char *name)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (pfsel_become(uid))
			_exit(126);
		_exit(ask_server(ZONE_SERVER, name) ? 0 : 1);
	}
	return pid > 0 && pfsel_wait_status(pid) == 0;
}

/*
 * The resolver program (this one is a resolver of the system policy)
 * run by a user who has a policy, is the user's own: its answers teach
 * nothing.  Run by an account without a user policy, they do: root started
 * this program, and the child drops to that account, as a service does
 * (the control).
 */
TEST_F(hostname, resolver_run_by_a_user_is_not_trusted)
{
	ASSERT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	ASSERT_TRUE(resolver_as(PFSEL_UID1, "user.test.example"));
	EXPECT_FALSE(hosts_table_has("127.0.12.2", "user.test.example"));

	ASSERT_FALSE(pfsel_uid_loaded(PFSEL_UID2));
	ASSERT_TRUE(resolver_as(PFSEL_UID2, "user.test.example"));
	EXPECT_TRUE(hosts_table_has("127.0.12.2", "user.test.example"));
}

/* The port the resolvers of resolver_started_by_* listen on. */
#define PORT_OWN_RESOLVER "5300"

/*
 * dnsmasq as uid 1002 (no user policy), forwarding to the zone's server,
 * started through the @n_via words of @via and listening on @listen: ask
 * it for @name, and say whether the kernel learned @name for @addr.
 */
static bool learned_through(struct __test_metadata *const _metadata,
			    const char *const *via, size_t n_via,
			    const char *listen, const char *name,
			    const char *addr)
{
	static const char *const args[] = {
		"--port=" PORT_OWN_RESOLVER,
		"--server=" ZONE_SERVER,
		"--cache-size=0",
		/*
		 * As it is (no change of user or group, which the root of
		 * a user namespace could not make), logging to stderr.
		 */
		"--no-daemon",
	};
	const struct dnsmasq resolver = {
		.program = DNSMASQ,
		.listen = listen,
		.extra = args,
		.n_extra = sizeof(args) / sizeof(args[0]),
		.via = via,
		.n_via = n_via,
	};
	bool answered = false, learned;
	int tries, status;
	pid_t pid;

	EXPECT_FALSE(hosts_table_has(addr, name));
	pid = dnsmasq_start_as(&resolver);
	EXPECT_LT(0, pid);
	if (pid <= 0)
		return false;
	for (tries = 0; tries < 20 && !answered; tries++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			TH_LOG("dnsmasq on %s ended: status %#x", listen,
			       status);
			pid = -1;
			break;
		}
		answered = ask_server_at(listen, atoi(PORT_OWN_RESOLVER), name,
					 500);
	}
	EXPECT_TRUE(answered)
	{
		TH_LOG("dnsmasq on %s did not answer", listen);
	}
	learned = hosts_table_has(addr, name);
	if (pid > 0) {
		kill(pid, SIGTERM);
		pfsel_wait_status(pid);
	}
	return learned;
}

#define RUNAS PFSEL_TESTS_DIR "/runas"
#define RUNAS_SUID "/tmp/runas-suid"

/*
 * Before the person's first login since boot no user policy is loaded,
 * so "no policy" cannot tell a person's program from a system account's:
 * a resolver is trusted only if root's code executed it.  dnsmasq run
 * by root as uid 1002 (runas: setresuid(), then exec, as systemd starts
 * a service as its own account) teaches the name: the control.  The same
 * dnsmasq, as the same uid without a policy, executed by a program of
 * that uid (its shell, as a lingering user service or a cron @reboot job
 * runs it), or by the root of a user namespace of its own (`unshare -r`),
 * or by a set-user-ID-root program that runs what its caller names as
 * the caller (a copy of runas, setuid root), teaches nothing.
 */
TEST_F(hostname, resolver_started_by_a_users_program_is_not_trusted)
{
	const char *const by_root[] = { RUNAS, "1002" };
	const char *const by_shell[] = { RUNAS, "1002", "/bin/sh", "-c",
					 "exec \"$0\" \"$@\"" };
	const char *const by_userns[] = { RUNAS, "1002", "/bin/unshare",
					  "-r" };
	const char *const by_suid[] = { RUNAS, "1002", RUNAS_SUID, "1002" };
	char cmd[256];

	ASSERT_FALSE(pfsel_uid_loaded(PFSEL_UID2));
	EXPECT_FALSE(learned_through(_metadata, by_shell, 5, "127.0.0.5",
				     "shell-started.test.example",
				     "127.0.12.5"));
	if (access(by_userns[2], X_OK))
		TH_LOG("no %s in the VM: the user namespace is not tried",
		       by_userns[2]);
	else
		EXPECT_FALSE(learned_through(_metadata, by_userns, 4,
					     "127.0.0.6",
					     "userns-started.test.example",
					     "127.0.12.6"));
	snprintf(cmd, sizeof(cmd), "cp %s %s && chmod 4755 %s", RUNAS,
		 RUNAS_SUID, RUNAS_SUID);
	ASSERT_EQ(0, system(cmd));
	EXPECT_FALSE(learned_through(_metadata, by_suid, 4, "127.0.0.7",
				     "suid-started.test.example",
				     "127.0.12.7"));
	unlink(RUNAS_SUID);
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.12.5", PORT_NAMED, false));

	EXPECT_TRUE(learned_through(_metadata, by_root, 2, "127.0.0.4",
				    "root-started.test.example", "127.0.12.4"));
	EXPECT_EQ(0, as_user(NULL, "127.0.12.4", PORT_NAMED, false));
}

/*
 * Names no rule can name (a ',' or a '"' in a label, upper case is folded)
 * are not learned: in the comma-separated list of names a question or an
 * audit record carries, they would read as other names.  A well-formed
 * name in the same exchange is (the control).
 */
TEST_F(hostname, names_no_rule_can_name_are_not_learned)
{
	const int to = udp_bound(RESOLVER, 0), server = udp_bound(FORGER, 53);

	ASSERT_LE(0, to);
	ASSERT_LE(0, server);
	ASSERT_TRUE(exchange(to, server, "x,www.test.example", "127.0.12.3"));
	ASSERT_TRUE(exchange(to, server, "q\"uote.test.example", "127.0.12.3"));
	EXPECT_FALSE(hosts_table_has("127.0.12.3", "x,www.test.example"));
	EXPECT_FALSE(hosts_table_has("127.0.12.3", "www.test.example"));
	EXPECT_FALSE(hosts_table_has("127.0.12.3", "q\"uote.test.example"));
	ASSERT_TRUE(exchange(to, server, "Plain.Test.Example", "127.0.12.3"));
	EXPECT_TRUE(hosts_table_has("127.0.12.3", "plain.test.example"));
	close(server);
	close(to);
}

/* How many answers the flood sends: more than the table holds. */
#define FLOOD 6000

/* How many pairs one uid keeps (PFSEL_HOSTMAP_UID_ENTRIES). */
#define UID_PAIRS 2048
/* How many pairs the namespace keeps (PFSEL_HOSTMAP_MAX_ENTRIES). */
#define ALL_PAIRS 8192

static long table_pairs_of(long uid);

/*
 * A flood of answers, each with a name and address of its own, received
 * by this program (a resolver, run by root): the table keeps at most
 * PFSEL_HOSTMAP_UID_ENTRIES pairs for root, the newest, and at most
 * PFSEL_HOSTMAP_MAX_ENTRIES in all.  In the debug kernel on a busy 2-core
 * host the flood takes about 40 s.
 */
TEST_F_TIMEOUT(hostname, flood_of_answers_stays_bounded, 180)
{
	const int to = udp_bound(RESOLVER, 0), server = udp_bound(FORGER, 53);
	char name[64], addr[32];
	long pairs;
	int i;

	ASSERT_LE(0, to);
	ASSERT_LE(0, server);
	for (i = 0; i < FLOOD; i++) {
		snprintf(name, sizeof(name), "flood-%d.test.example", i);
		snprintf(addr, sizeof(addr), "127.1.%d.%d", i / 250, i % 250 + 1);
		ASSERT_TRUE(exchange(to, server, name, addr));
	}
	close(server);
	close(to);
	pairs = table_pairs_of(0);
	TH_LOG("%ld pairs of uid 0 after %d answers, %ld in all", pairs, FLOOD,
	       table_pairs());
	EXPECT_GE(UID_PAIRS, pairs);
	EXPECT_LE(UID_PAIRS - 50, pairs);
	EXPECT_GE(ALL_PAIRS, table_pairs());
	EXPECT_FALSE(hosts_table_has("127.1.0.1", "flood-0.test.example"));
	snprintf(name, sizeof(name), "flood-%d.test.example", FLOOD - 1);
	snprintf(addr, sizeof(addr), "127.1.%d.%d", (FLOOD - 1) / 250,
		 (FLOOD - 1) % 250 + 1);
	EXPECT_TRUE(hosts_table_has(addr, name));
}

/*
 * Another user takes a user's host names away (issue 32): uid 1002 floods
 * the resolver that uid 1001 uses with names of its own, or with names of
 * 1001's address.  Here the resolver caches (dnsmasq on 127.0.0.4, which
 * asks a zone server of its own on 127.0.0.5), so 1001's second lookup of
 * its name is answered from the cache and nothing arrives from upstream
 * to learn.  The answer the resolver serves is learned as it is sent, for
 * the uid it is sent to, within that uid's own budget: 1001's name stays.
 */
#define CACHE "127.0.0.4"
#define SHOP_ZONE "127.0.0.5"
#define SHOP_HOSTS "/tmp/hostname-shop.hosts"
/*
 * www.shop.test and two.shop.test, which hosts_1001.pfw allows by
 * "*.shop.test": one for each test.
 */
#define SHOP_ADDR "127.0.20.1"
#define TWO_ADDR "127.0.20.2"
/* Names uid 1002 gives 1001's address: more than an address keeps. */
#define SAME_NAMES (8 + 4)

/*
 * The zone (a hosts file, 600 s TTL) and the caching resolver before
 * it, which /etc/resolv.conf names, and listeners on 1001's addresses.
 */
FIXTURE(hostshare)
{
	struct dnsmasq_pair dns;
	int peer, peer2;
};

FIXTURE_SETUP(hostshare)
{
	static const char *const zone_extra[] = {
		"--addn-hosts=" SHOP_HOSTS,
		"--local-ttl=600",
	};
	static const char *const cache_extra[] = {
		"--server=" SHOP_ZONE,
		"--cache-size=10000",
	};
	FILE *hosts;
	int i;

	self->dns.zone = self->dns.resolver = -1;
	self->peer = self->peer2 = -1;
	if (geteuid() != 0)
		SKIP(return, "loading policies and running dnsmasq need root");
	if (access(DNSMASQ, X_OK))
		SKIP(return, "no " DNSMASQ " in the VM (Debian's dnsmasq-base)");

	pfsel_reset();
	hosts = fopen(SHOP_HOSTS, "we");
	ASSERT_NE(NULL, hosts);
	fprintf(hosts, "%s www.shop.test\n%s two.shop.test\n", SHOP_ADDR,
		TWO_ADDR);
	for (i = 0; i < SAME_NAMES; i++)
		fprintf(hosts, "%s same-%d.other.test\n", TWO_ADDR, i);
	for (i = 0; i < FLOOD; i++)
		fprintf(hosts, "127.2.%d.%d flood-%d.other.test\n", i / 250,
			i % 250 + 1, i);
	ASSERT_EQ(0, fclose(hosts));
	ASSERT_TRUE(start_zone_and_resolver(
		&self->dns, SHOP_ZONE, zone_extra,
		sizeof(zone_extra) / sizeof(zone_extra[0]), CACHE, cache_extra,
		sizeof(cache_extra) / sizeof(cache_extra[0]),
		"same-0.other.test"))
	{
		TH_LOG("the caching resolver did not answer");
	}
	self->peer = pfsel_peer(SOCK_STREAM, SHOP_ADDR, PORT_NAMED);
	ASSERT_LE(0, self->peer);
	self->peer2 = pfsel_peer(SOCK_STREAM, TWO_ADDR, PORT_NAMED);
	ASSERT_LE(0, self->peer2);
	ASSERT_EQ(0, pfsel_load("hosts_system"));
	ASSERT_EQ(0, pfsel_load("hosts_1001"));
}

FIXTURE_TEARDOWN(hostshare)
{
	if (self->peer >= 0)
		close(self->peer);
	if (self->peer2 >= 0)
		close(self->peer2);
	stop_zone_and_resolver(&self->dns);
	unlink(SHOP_HOSTS);
	if (geteuid() == 0)
		pfsel_reset();
}

/*
 * The pairs of the table ("hosts": ADDRESS NAME SECONDS-LEFT UID) charged
 * to @uid, or all of them for -1; of @addr and @name only, when given.
 */
static long table_count(long uid, const char *addr, const char *name)
{
	char a[64], n[256];
	char *text = hosts_table_read(4 << 20), *line, *save;
	unsigned long left;
	long owner, count = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %255s %lu %ld", a, n, &left, &owner) != 4)
			continue;
		if ((uid < 0 || owner == uid) && (!addr || !strcmp(a, addr)) &&
		    (!name || !strcmp(n, name)))
			count++;
	}
	free(text);
	return count;
}

static long table_pairs_of(long uid)
{
	return table_count(uid, NULL, NULL);
}

/* One of the counters of "hosts_stats", by its name: -1 if missing. */
static long hosts_stat(const char *what)
{
	char path[PATH_MAX], text[1024], *names, *values, *n, *v, *sn, *sv;

	if (pfsel_read_file(pfsel_raw_path("hosts_stats", path, sizeof(path)),
			    text, sizeof(text)) < 0)
		return -1;
	names = text;
	values = strchr(text, '\n');
	if (!values)
		return -1;
	*values++ = '\0';
	for (n = strtok_r(names, " ", &sn), v = strtok_r(values, " \n", &sv);
	     n && v; n = strtok_r(NULL, " ", &sn), v = strtok_r(NULL, " \n", &sv))
		if (!strcmp(n, what))
			return atol(v);
	return -1;
}

/*
 * For pfsel_run_as(): ask the caching resolver, from one socket, for the
 * names @arg says (a printf format with one %d, and how many), each
 * answer awaited: 0 when every one came, else how many did not.
 */
struct lookups {
	const char *format;
	int count;
};

static int lookup_many(void *arg)
{
	const struct lookups *l = arg;
	union pfsel_addr dest;
	const socklen_t dlen = pfsel_addr(CACHE, 53, &dest);
	struct pollfd pfd = { .events = POLLIN };
	uint8_t msg[512];
	char name[128];
	int i, missing = 0;

	pfd.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (pfd.fd < 0 || connect(pfd.fd, &dest.sa, dlen))
		return 126;
	for (i = 0; i < l->count; i++) {
		size_t len;

		snprintf(name, sizeof(name), l->format, i);
		len = dns_query(msg, i & 0xffff, name);
		if (send(pfd.fd, msg, len, 0) != (ssize_t)len ||
		    poll(&pfd, 1, 5000) != 1 ||
		    recv(pfd.fd, msg, sizeof(msg), 0) <= 12)
			missing++;
	}
	close(pfd.fd);
	return missing > 125 ? 125 : missing;
}

/* uid 1002 asks the caching resolver for @count names of @format. */
static int flood_as_other(const char *format, int count)
{
	struct lookups l = { format, count };

	return pfsel_run_as(PFSEL_UID2, lookup_many, &l);
}

/*
 * 1001 looks its name up again and connects: the resolver answers from
 * its cache (nothing upstream answers), and the answer it serves 1001
 * is learned for 1001.
 */
static void again_from_cache(struct __test_metadata *const _metadata,
			     const char *name, const char *addr)
{
	const long upstream = hosts_stat("answers");
	const long served = hosts_stat("served");

	EXPECT_EQ(0, as_user(name, addr, PORT_NAMED, true));
	EXPECT_EQ(upstream, hosts_stat("answers"));
	EXPECT_LT(served, hosts_stat("served"));
}

/*
 * 6,000 other names by uid 1002: its own pairs and the resolver's (what
 * the resolver receives from upstream) churn, 1001's stay.
 */
TEST_F_TIMEOUT(hostshare, other_users_flood_leaves_the_name, 600)
{
	ASSERT_EQ(0, as_user("www.shop.test", SHOP_ADDR, PORT_NAMED, true));
	EXPECT_EQ(1, table_count(PFSEL_UID1, SHOP_ADDR, "www.shop.test"));
	/* What the resolver received from upstream, for its own uid. */
	EXPECT_EQ(1, table_count(0, SHOP_ADDR, "www.shop.test"));

	ASSERT_EQ(0, flood_as_other("flood-%d.other.test", FLOOD));
	TH_LOG("after the flood: %ld pairs of 1002, %ld of the resolver, %ld of 1001, %ld in all",
	       table_pairs_of(PFSEL_UID2), table_pairs_of(0),
	       table_pairs_of(PFSEL_UID1), table_pairs_of(-1));
	EXPECT_GE(UID_PAIRS, table_pairs_of(PFSEL_UID2));
	EXPECT_LE(UID_PAIRS - 50, table_pairs_of(PFSEL_UID2));
	EXPECT_GE(UID_PAIRS, table_pairs_of(0));
	EXPECT_GE(ALL_PAIRS, table_pairs_of(-1));
	/*
	 * The flood did push out what the resolver had received: all that
	 * the kernel knew of the name before answers served were learned.
	 */
	EXPECT_EQ(0, table_count(0, SHOP_ADDR, "www.shop.test"));
	EXPECT_EQ(1, table_count(PFSEL_UID1, SHOP_ADDR, "www.shop.test"));

	/* Without a lookup: the name is still known. */
	EXPECT_EQ(0, as_user(NULL, SHOP_ADDR, PORT_NAMED, false));
	again_from_cache(_metadata, "www.shop.test", SHOP_ADDR);
}

/*
 * Names of 1001's address by uid 1002, more than an address keeps: they
 * replace only 1002's own, and 1001's requests see 1001's name first.
 */
TEST_F_TIMEOUT(hostshare, other_users_names_of_the_address_leave_the_name,
	       120)
{
	ASSERT_EQ(0, as_user("two.shop.test", TWO_ADDR, PORT_NAMED, true));
	ASSERT_EQ(0, flood_as_other("same-%d.other.test", SAME_NAMES));
	TH_LOG("names of %s: %ld of 1002, %ld in all", TWO_ADDR,
	       table_count(PFSEL_UID2, TWO_ADDR, NULL),
	       table_count(-1, TWO_ADDR, NULL));
	EXPECT_EQ(8, table_count(PFSEL_UID2, TWO_ADDR, NULL));
	/* The resolver's own copies: 8 names, two.shop.test replaced. */
	EXPECT_EQ(0, table_count(0, TWO_ADDR, "two.shop.test"));
	EXPECT_EQ(1, table_count(PFSEL_UID1, TWO_ADDR, "two.shop.test"));

	EXPECT_EQ(0, as_user(NULL, TWO_ADDR, PORT_NAMED, false));
	again_from_cache(_metadata, "two.shop.test", TWO_ADDR);
	/* And pfsel check, for 1001, decides by 1001's name. */
	EXPECT_TRUE(check_says(TWO_ADDR, "verdict  allow"));
}

/*
 * Answers a trusted resolver serves (this program, on port 53) to a
 * program of uid 1001 that asked it for served.test.example: only the
 * answer to that question, from the socket it was sent to, with its ID,
 * once, is learned for 1001 (the last is the control).  So a resolver
 * cannot be made to plant a name for a user by serving what nobody asked.
 */
TEST_F(hostname, served_answer_counts_only_for_its_query)
{
	const int server = udp_bound(FORGER, 53);
	const int other = udp_bound("127.0.0.6", 53);
	const char *const name = "served.test.example", *const addr =
		"127.0.12.8";
	union pfsel_addr peer;
	socklen_t plen = sizeof(peer.storage);
	struct pollfd pfd = { .fd = server, .events = POLLIN };
	uint8_t msg[512];
	int hold[2], upstream, to;
	long unasked;
	size_t len;
	pid_t pid;

	ASSERT_LE(0, server);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, pipe2(hold, O_CLOEXEC));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* 1001's program: ask, and keep the socket until told. */
		union pfsel_addr dest;
		const socklen_t dlen = pfsel_addr(FORGER, 53, &dest);
		int fd;

		close(hold[1]);
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		len = dns_query(msg, ANSWER_ID, name);
		if (fd < 0 ||
		    sendto(fd, msg, len, 0, &dest.sa, dlen) != (ssize_t)len)
			_exit(125);
		_exit(read(hold[0], msg, 1) == 0 ? 0 : 1);
	}
	close(hold[0]);
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	ASSERT_LT(0, recvfrom(server, msg, sizeof(msg), 0, &peer.sa, &plen));

	unasked = hosts_stat("unasked");
	/* Another name than the question's. */
	len = dns_answer(msg, "planted.test.example", addr, 600);
	ASSERT_EQ((ssize_t)len, sendto(server, msg, len, 0, &peer.sa, plen));
	EXPECT_FALSE(hosts_table_has(addr, "planted.test.example"));
	/* Another ID. */
	len = dns_answer(msg, name, addr, 600);
	msg[1] ^= 1;
	ASSERT_EQ((ssize_t)len, sendto(server, msg, len, 0, &peer.sa, plen));
	/* From another port-53 socket of the resolver's than the one asked. */
	msg[1] ^= 1;
	ASSERT_EQ((ssize_t)len, sendto(other, msg, len, 0, &peer.sa, plen));
	EXPECT_FALSE(hosts_table_has(addr, name));
	EXPECT_EQ(unasked + 3, hosts_stat("unasked"));

	/*
	 * The answer: learned for 1001, as it is sent; once.  A served
	 * answer only repeats a pair the table holds: the resolver learns it
	 * first from its upstream's answer (port 53), as a caching resolver
	 * does before it serves from its cache.
	 */
	upstream = udp_bound("127.0.0.8", 53);
	to = udp_bound(RESOLVER, 0);
	ASSERT_LE(0, upstream);
	ASSERT_LE(0, to);
	ASSERT_TRUE(exchange(to, upstream, name, addr));
	close(upstream);
	close(to);
	ASSERT_EQ((ssize_t)len, sendto(server, msg, len, 0, &peer.sa, plen));
	EXPECT_EQ(1, table_count(PFSEL_UID1, addr, name));
	EXPECT_EQ(unasked + 3, hosts_stat("unasked"));
	ASSERT_EQ((ssize_t)len, sendto(server, msg, len, 0, &peer.sa, plen));
	EXPECT_EQ(unasked + 4, hosts_stat("unasked"));

	close(hold[1]);
	EXPECT_EQ(0, pfsel_wait_status(pid));
	close(other);
	close(server);
}

/*
 * A load that stops trusting a resolver takes what it taught (issue 28):
 * a name learned through dnsmasq goes with the system policy that no
 * longer names dnsmasq a resolver, and the host rule that allowed it by
 * that name no longer does; what this program, a resolver still, taught
 * stays.  The control: the same system policy loaded again keeps both.
 */
TEST_F(hostname, names_go_with_the_trust_in_their_resolver)
{
	const int to = udp_bound(RESOLVER, 0), server = udp_bound(FORGER, 53);
	long untrusted;

	ASSERT_LE(0, to);
	ASSERT_LE(0, server);
	ASSERT_EQ(0, as_user("trust-gone.test.example", "127.0.12.10",
			     PORT_NAMED, true));
	ASSERT_TRUE(exchange(to, server, "trust-kept.test.example",
			     "127.0.12.11"));
	close(server);
	close(to);
	ASSERT_TRUE(hosts_table_has("127.0.12.10", "trust-gone.test.example"));
	ASSERT_TRUE(hosts_table_has("127.0.12.11", "trust-kept.test.example"));
	untrusted = hosts_stat("untrusted");
	ASSERT_LE(0, untrusted);

	/* The control: a load that keeps both resolvers keeps both names. */
	ASSERT_EQ(0, pfsel_load("hosts_system"));
	EXPECT_TRUE(hosts_table_has("127.0.12.10", "trust-gone.test.example"));
	EXPECT_TRUE(hosts_table_has("127.0.12.11", "trust-kept.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.12.10", PORT_NAMED, false));
	EXPECT_EQ(untrusted, hosts_stat("untrusted"));

	ASSERT_EQ(0, pfsel_load("hosts_self_system"));
	EXPECT_FALSE(hosts_table_has("127.0.12.10", "trust-gone.test.example"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.12.10", PORT_NAMED, false));
	EXPECT_LT(untrusted, hosts_stat("untrusted"));
	EXPECT_TRUE(hosts_table_has("127.0.12.11", "trust-kept.test.example"));
	EXPECT_EQ(0, as_user(NULL, "127.0.12.11", PORT_NAMED, false));
}

/*
 * A resolver run by a uid without a policy of its own is trusted until
 * that uid gets one: the load of that policy makes the resolver the
 * user's program, and takes what it taught.  The control: the load of
 * another user's policy keeps it.
 */
TEST_F(hostname, names_go_when_their_resolvers_uid_gets_a_policy)
{
	ASSERT_FALSE(pfsel_uid_loaded(PFSEL_UID2));
	ASSERT_TRUE(resolver_as(PFSEL_UID2, "uid-policy.test.example"));
	ASSERT_TRUE(hosts_table_has("127.0.12.12", "uid-policy.test.example"));

	ASSERT_EQ(0, pfsel_load("hosts_1001"));
	EXPECT_TRUE(hosts_table_has("127.0.12.12", "uid-policy.test.example"));

	ASSERT_EQ(0, pfsel_load("permissive_1002"));
	EXPECT_FALSE(hosts_table_has("127.0.12.12", "uid-policy.test.example"));
}

/*
 * DNS over TCP (docs/THREAT-MODEL.md section 5).  An answer set too large
 * for UDP: the zone's server truncates it over UDP, and the C library
 * asks the resolver again over TCP, which asks the zone's server over TCP
 * (dnsmasq sends the query with TCP Fast Open).  The answer teaches the
 * name, and pfuser1's rule by that name allows the connection.  The
 * control: before the lookup, and after a lookup over UDP alone (whose
 * truncated answer teaches nothing), the same connection is denied.
 */
TEST_F(hostname, tcp_answer_set_is_learned)
{
	const long tcp = hosts_stat("tcp");

	EXPECT_EQ(EACCES, as_user(NULL, "127.0.30.1", PORT_BIG, false));
	EXPECT_TRUE(ask_server(RESOLVER, BIG_NAME));
	EXPECT_EQ(0, table_count(-1, NULL, BIG_NAME));
	EXPECT_EQ(tcp, hosts_stat("tcp"));
	EXPECT_EQ(EACCES, as_user(NULL, "127.0.30.1", PORT_BIG, false));

	EXPECT_EQ(0, as_user(BIG_NAME, NULL, PORT_BIG, true));
	EXPECT_LT(tcp, hosts_stat("tcp"));
	EXPECT_EQ(BIG_ADDRS, table_count(0, NULL, BIG_NAME));
	EXPECT_TRUE(hosts_table_has("127.0.30.1", BIG_NAME));
	EXPECT_EQ(0, as_user(NULL, "127.0.30.1", PORT_BIG, false));
}

/*
 * Hand-made DNS over TCP: this program (a resolver of the system policy,
 * run by root) opens a connection to a listener of its own, which plays
 * the server.  Where the answers come from: FORGER, port 53 or another.
 */

/* A TCP listener on FORGER:@port: the descriptor, or -errno. */
static int tcp_server(unsigned short port)
{
	return pfsel_peer(SOCK_STREAM, FORGER, port);
}

/*
 * A connection from a new socket of this program to @listener: the
 * socket, with the accepted end in *@server (Nagle off, so that each
 * send is a segment of its own); -1 when it failed.
 */
static int tcp_connect(int listener, int *server)
{
	const struct timeval wait = { .tv_sec = 5 };
	const int one = 1;
	union pfsel_addr a;
	socklen_t len = sizeof(a.storage);
	int fd;

	*server = -1;
	if (getsockname(listener, &a.sa, &len))
		return -1;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, &a.sa, len) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait))) {
		close(fd);
		return -1;
	}
	*server = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
	if (*server < 0 ||
	    setsockopt(*server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(*server, SOL_SOCKET, SO_RCVTIMEO, &wait,
		       sizeof(wait))) {
		if (*server >= 0)
			close(*server);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send the DNS message @msg of @len bytes over TCP: its length in two
 * bytes, then it; in one send, or in three segments, the length split
 * between the first two.
 */
static bool tcp_send(int fd, const uint8_t *msg, size_t len, bool split)
{
	uint8_t buf[2 + 512];
	const size_t total = 2 + len;
	const size_t cut[] = { 0, 1, 2 + len / 2, total };
	size_t i;

	if (len > 512)
		return false;
	buf[0] = len >> 8;
	buf[1] = len & 0xff;
	memcpy(buf + 2, msg, len);
	if (!split)
		return send(fd, buf, total, 0) == (ssize_t)total;
	for (i = 0; i + 1 < sizeof(cut) / sizeof(cut[0]); i++) {
		const size_t n = cut[i + 1] - cut[i];

		if (send(fd, buf + cut[i], n, 0) != (ssize_t)n)
			return false;
		/* Each piece its own segment, seen before the next. */
		usleep(20 * 1000);
	}
	return true;
}

/* Receive one DNS message over TCP into @msg: true when it came whole. */
static bool tcp_recv(int fd, uint8_t *msg, size_t size)
{
	uint8_t l[2];
	size_t len;

	if (recv(fd, l, 2, MSG_WAITALL) != 2)
		return false;
	len = (size_t)l[0] << 8 | l[1];
	return len && len <= size &&
	       recv(fd, msg, len, MSG_WAITALL) == (ssize_t)len;
}

/* The query for @name's A records, sent from @fd over TCP. */
static bool tcp_ask(int fd, const char *name)
{
	uint8_t msg[512];

	return tcp_send(fd, msg, dns_query(msg, ANSWER_ID, name), false);
}

/*
 * The server's end @server reads a query, and sends the answer "@name is
 * @ipv4", in three segments; the client's end @fd receives it whole:
 * true then.
 */
static bool tcp_answer(int server, int fd, const char *name, const char *ipv4)
{
	uint8_t msg[512];

	return tcp_recv(server, msg, sizeof(msg)) &&
	       tcp_send(server, msg, dns_answer(msg, name, ipv4, 600), true) &&
	       tcp_recv(fd, msg, sizeof(msg));
}

/*
 * The exchange every hand-made case departs from, on a new connection to
 * @listener: this program asks for @name, the server answers "@name is
 * @ipv4": true when the answer arrived.
 */
static bool tcp_exchange(int listener, const char *name, const char *ipv4)
{
	int server, fd = tcp_connect(listener, &server);
	bool ok;

	if (fd < 0)
		return false;
	ok = tcp_ask(fd, name) && tcp_answer(server, fd, name, ipv4);
	close(server);
	close(fd);
	return ok;
}

/*
 * An answer from port 53, to the question this program's connection sent
 * there first, is learned, once whole from its three segments; the same
 * exchange with a server on another port (one any program may take, a
 * local upstream's) teaches nothing: no stream of a connection to a port
 * other than 53 is read.
 */
TEST_F(hostname, tcp_answer_counts_only_from_port_53)
{
	const int dns = tcp_server(53), other = tcp_server(5353);
	const long tcp = hosts_stat("tcp");

	ASSERT_LE(0, dns);
	ASSERT_LE(0, other);
	ASSERT_TRUE(tcp_exchange(other, "tcp-port.test.example",
				 "127.0.31.1"));
	EXPECT_FALSE(hosts_table_has("127.0.31.1", "tcp-port.test.example"));
	EXPECT_EQ(tcp, hosts_stat("tcp"));

	ASSERT_TRUE(tcp_exchange(dns, "tcp-port.test.example", "127.0.31.1"));
	EXPECT_TRUE(hosts_table_has("127.0.31.1", "tcp-port.test.example"));
	EXPECT_EQ(tcp + 1, hosts_stat("tcp"));
	close(other);
	close(dns);
}

/*
 * A program connects to the resolver's own TCP port 53 (as any client
 * may) and sends it an answer, and answers a question the resolver sends
 * back on that connection: neither is learned, since the resolver did not
 * open the connection to port 53.  The control: the same answer from port
 * 53 on a connection the resolver opened.
 */
static int client_sends_answer(void *arg)
{
	const int listener = *(const int *)arg;
	uint8_t msg[512];
	union pfsel_addr a;
	socklen_t len = sizeof(a.storage);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || getsockname(listener, &a.sa, &len) ||
	    connect(fd, &a.sa, len))
		return 125;
	if (!tcp_send(fd, msg,
		      dns_answer(msg, "tcp-client.test.example", "127.0.31.2",
				 600),
		      true))
		return 124;
	/* The resolver's question, then this program's answer to it. */
	if (!tcp_recv(fd, msg, sizeof(msg)) ||
	    !tcp_send(fd, msg,
		      dns_answer(msg, "tcp-client.test.example", "127.0.31.2",
				 600),
		      true))
		return 123;
	shutdown(fd, SHUT_WR);
	return recv(fd, msg, 1, 0) == 0 ? 0 : 122;
}

TEST_F(hostname, tcp_answer_from_a_client_is_not_learned)
{
	const struct timeval wait = { .tv_sec = 5 };
	const int dns = tcp_server(53);
	const long tcp = hosts_stat("tcp");
	uint8_t msg[512];
	pid_t pid;
	int fd;

	ASSERT_LE(0, dns);
	pid = pfsel_start_as(PFSEL_UID2, client_sends_answer, (void *)&dns);
	ASSERT_LT(0, pid);
	fd = accept4(dns, NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait,
				sizeof(wait)));
	EXPECT_TRUE(tcp_recv(fd, msg, sizeof(msg)));
	EXPECT_TRUE(tcp_ask(fd, "tcp-client.test.example"));
	EXPECT_TRUE(tcp_recv(fd, msg, sizeof(msg)));
	close(fd);
	EXPECT_EQ(0, pfsel_wait_status(pid));
	EXPECT_FALSE(hosts_table_has("127.0.31.2", "tcp-client.test.example"));
	EXPECT_EQ(tcp, hosts_stat("tcp"));

	ASSERT_TRUE(tcp_exchange(dns, "tcp-client.test.example",
				 "127.0.31.2"));
	EXPECT_TRUE(hosts_table_has("127.0.31.2", "tcp-client.test.example"));
	close(dns);
}

/*
 * The answer must answer the question asked first on the connection: one
 * for another name, or with another ID, teaches nothing (it is read, and
 * counted unasked).  The control: the answer to the question.
 */
TEST_F(hostname, tcp_answer_to_another_question_is_not_learned)
{
	const int dns = tcp_server(53);
	const long unasked = hosts_stat("unasked");
	uint8_t msg[512];
	int server, fd;
	size_t len;

	ASSERT_LE(0, dns);
	fd = tcp_connect(dns, &server);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(tcp_ask(fd, "tcp-asked.test.example"));
	ASSERT_TRUE(tcp_answer(server, fd, "tcp-planted.test.example",
			       "127.0.31.3"));
	close(server);
	close(fd);
	EXPECT_FALSE(hosts_table_has("127.0.31.3", "tcp-planted.test.example"));

	fd = tcp_connect(dns, &server);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(tcp_ask(fd, "tcp-asked.test.example"));
	ASSERT_TRUE(tcp_recv(server, msg, sizeof(msg)));
	len = dns_answer(msg, "tcp-asked.test.example", "127.0.31.3", 600);
	msg[1] ^= 1;
	ASSERT_TRUE(tcp_send(server, msg, len, true));
	ASSERT_TRUE(tcp_recv(fd, msg, sizeof(msg)));
	close(server);
	close(fd);
	EXPECT_FALSE(hosts_table_has("127.0.31.3", "tcp-asked.test.example"));
	EXPECT_EQ(unasked + 2, hosts_stat("unasked"));

	ASSERT_TRUE(tcp_exchange(dns, "tcp-asked.test.example", "127.0.31.3"));
	EXPECT_TRUE(hosts_table_has("127.0.31.3", "tcp-asked.test.example"));
	close(dns);
}

/*
 * Only the first message of the stream is read: a second question on the
 * same connection, and its answer, teach nothing; the first answer, the
 * control, does.
 */
TEST_F(hostname, tcp_second_message_is_not_learned)
{
	const int dns = tcp_server(53);
	int server, fd;

	ASSERT_LE(0, dns);
	fd = tcp_connect(dns, &server);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(tcp_ask(fd, "tcp-first.test.example"));
	ASSERT_TRUE(tcp_answer(server, fd, "tcp-first.test.example",
			       "127.0.31.4"));
	ASSERT_TRUE(tcp_ask(fd, "tcp-second.test.example"));
	ASSERT_TRUE(tcp_answer(server, fd, "tcp-second.test.example",
			       "127.0.31.5"));
	close(server);
	close(fd);
	EXPECT_TRUE(hosts_table_has("127.0.31.4", "tcp-first.test.example"));
	EXPECT_FALSE(hosts_table_has("127.0.31.5", "tcp-second.test.example"));
	close(dns);
}

/*
 * The server sends its answer before the question: the connection had
 * received data when the question was sent, so no answer on it is read,
 * not that one nor the same answer sent again after the question.  The
 * control: the answer after the question, on a new connection.
 */
TEST_F(hostname, tcp_data_before_the_question_is_not_learned)
{
	const int dns = tcp_server(53);
	const long tcp = hosts_stat("tcp");
	struct pollfd pfd = { .events = POLLIN };
	uint8_t msg[512];
	int server;
	size_t len;

	ASSERT_LE(0, dns);
	pfd.fd = tcp_connect(dns, &server);
	ASSERT_LE(0, pfd.fd);
	len = dns_answer(msg, "tcp-early.test.example", "127.0.31.6", 600);
	ASSERT_TRUE(tcp_send(server, msg, len, false));
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	ASSERT_TRUE(tcp_ask(pfd.fd, "tcp-early.test.example"));
	ASSERT_TRUE(tcp_answer(server, pfd.fd, "tcp-early.test.example",
			       "127.0.31.6"));
	ASSERT_TRUE(tcp_recv(pfd.fd, msg, sizeof(msg)));
	close(server);
	close(pfd.fd);
	EXPECT_FALSE(hosts_table_has("127.0.31.6", "tcp-early.test.example"));
	EXPECT_EQ(tcp, hosts_stat("tcp"));

	ASSERT_TRUE(tcp_exchange(dns, "tcp-early.test.example", "127.0.31.6"));
	EXPECT_TRUE(hosts_table_has("127.0.31.6", "tcp-early.test.example"));
	close(dns);
}

/*
 * Adversary read of DNS over TCP: urgent data.  The server sends its
 * answer with one byte of it urgent (MSG_OOB), which the resolver, not
 * reading urgent data in line, never sees in the stream: what it reads is
 * not the message the segments carry, so the kernel must not learn that
 * message; tcp_lost counts it.  The control: the same answer without the
 * urgent byte, on a new connection, is learned.
 */
TEST_F(hostname, tcp_urgent_data_gives_the_answer_up)
{
	const int dns = tcp_server(53);
	const long lost = hosts_stat("tcp_lost");
	uint8_t msg[512], buf[2 + 512];
	int server, fd;
	size_t len, mid;

	ASSERT_LE(0, dns);
	fd = tcp_connect(dns, &server);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(tcp_ask(fd, "tcp-urgent.test.example"));
	ASSERT_TRUE(tcp_recv(server, msg, sizeof(msg)));
	len = dns_answer(msg, "tcp-urgent.test.example", "127.0.31.7", 600);
	buf[0] = len >> 8;
	buf[1] = len & 0xff;
	memcpy(buf + 2, msg, len);
	mid = 2 + len / 2;
	/* The byte at mid - 1 goes urgent: the resolver skips it. */
	ASSERT_EQ((ssize_t)(mid - 1), send(server, buf, mid - 1, 0));
	usleep(20 * 1000);
	ASSERT_EQ(1, send(server, buf + mid - 1, 1, MSG_OOB));
	usleep(20 * 1000);
	ASSERT_EQ((ssize_t)(2 + len - mid),
		  send(server, buf + mid, 2 + len - mid, 0));
	usleep(100 * 1000);
	close(server);
	close(fd);
	EXPECT_FALSE(hosts_table_has("127.0.31.7", "tcp-urgent.test.example"));
	EXPECT_LT(lost, hosts_stat("tcp_lost"));

	ASSERT_TRUE(tcp_exchange(dns, "tcp-urgent.test.example", "127.0.31.7"));
	EXPECT_TRUE(hosts_table_has("127.0.31.7", "tcp-urgent.test.example"));
	close(dns);
}

/*
 * Adversary read of DNS over TCP: the buffers' bound, held past the
 * query's wait.  A port-53 server the resolver asks over TCP (an
 * authoritative server of the attacker's, that a recursor asks; a slow
 * upstream) sends the length of the largest answer, 65535, and nothing
 * more, on 16 connections that the resolver keeps open while it waits
 * (resolvers wait longer than 10 s): their buffers fill
 * PFSEL_DNS_STREAM_BYTES, for every namespace.  THREAT-MODEL section 5
 * says such a buffer lives "at most 10 s (the query's wait)"; but the
 * wait is checked only when a segment arrives, so a stream that receives
 * nothing more keeps its buffer as long as its socket lives.  The test:
 * while the stalled answers are awaited, another connection's answer is
 * refused (the control: the bound is what they fill); once their time ran
 * out, with their sockets still open, an answer must be learned again.
 */
#define STALLED_STREAMS 16
TEST_F_TIMEOUT(hostname, tcp_stalled_answers_do_not_outlast_their_wait, 90)
{
	const uint8_t longest[2] = { 0xff, 0xff };
	const int dns = tcp_server(53);
	int fds[STALLED_STREAMS], servers[STALLED_STREAMS];
	char name[64];
	long lost;
	int i;

	ASSERT_LE(0, dns);
	for (i = 0; i < STALLED_STREAMS; i++) {
		fds[i] = tcp_connect(dns, &servers[i]);
		ASSERT_LE(0, fds[i]);
		snprintf(name, sizeof(name), "tcp-stall%d.test.example", i);
		ASSERT_TRUE(tcp_ask(fds[i], name));
		ASSERT_EQ(2, send(servers[i], longest, 2, 0));
	}
	usleep(200 * 1000);

	lost = hosts_stat("tcp_lost");
	ASSERT_TRUE(tcp_exchange(dns, "tcp-stall-during.test.example",
				 "127.0.31.8"));
	EXPECT_FALSE(
		hosts_table_has("127.0.31.8", "tcp-stall-during.test.example"));
	EXPECT_LT(lost, hosts_stat("tcp_lost"));

	/* PFSEL_RESOLVER_QUERY_WAIT, and a second more. */
	sleep(11);
	ASSERT_TRUE(tcp_exchange(dns, "tcp-stall-after.test.example",
				 "127.0.31.9"));
	EXPECT_TRUE(
		hosts_table_has("127.0.31.9", "tcp-stall-after.test.example"));

	for (i = 0; i < STALLED_STREAMS; i++) {
		close(servers[i]);
		close(fds[i]);
	}
	close(dns);
}

/*
 * Adversary read of DNS over TCP: an urgent mark before the question.
 * read_stream_segment() gives the answer up at a segment with URG set,
 * but TCP also takes an urgent pointer from a segment that carries no
 * data (or from the server's SYN-ACK), before the question is sent:
 * stream_untouched() does not look at it, and the answer's segments
 * carry no URG.  The resolver then never reads the byte the pointer
 * names, while the kernel reads the message with it: what it learns is
 * not what the resolver read (here, the ID's low byte is taken out of
 * the resolver's stream, whose message is then another).  The segment is
 * made by hand as the server (root, raw socket), from the server's own
 * sequence numbers (TCP_REPAIR): as the port-53 server, or someone who
 * can write into the connection, would send it.
 */

/* The one's complement sum of @len bytes at @p, added to @sum. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

/* The sequence number TCP_QUEUE_SEQ gives for @queue of @fd. */
static bool queue_seq(int fd, int queue, uint32_t *seq)
{
	socklen_t len = sizeof(*seq);

	return !setsockopt(fd, IPPROTO_TCP, TCP_REPAIR_QUEUE, &queue,
			   sizeof(queue)) &&
	       !getsockopt(fd, IPPROTO_TCP, TCP_QUEUE_SEQ, seq, &len);
}

/*
 * Sends, as the server end @server of a connection, a segment without
 * data, ACK and URG set, whose urgent pointer is @urg_ptr: true when
 * sent.
 */
static bool send_urgent_mark(int server, uint16_t urg_ptr)
{
	const int on = 1, off = 0;
	struct sockaddr_in self, peer;
	socklen_t slen = sizeof(self), plen = sizeof(peer);
	uint8_t pkt[40] = { 0 }, pseudo[12];
	uint32_t seq, ack, sum;
	uint8_t *const th = pkt + 20;
	bool ok;
	int raw;

	if (getsockname(server, (struct sockaddr *)&self, &slen) ||
	    getpeername(server, (struct sockaddr *)&peer, &plen) ||
	    setsockopt(server, IPPROTO_TCP, TCP_REPAIR, &on, sizeof(on)))
		return false;
	ok = queue_seq(server, TCP_SEND_QUEUE, &seq) &&
	     queue_seq(server, TCP_RECV_QUEUE, &ack);
	/* Repair mode's end takes SO_REUSEADDR away: given back. */
	if (setsockopt(server, IPPROTO_TCP, TCP_REPAIR, &off, sizeof(off)) ||
	    setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) ||
	    !ok)
		return false;
	pkt[0] = 0x45;
	pkt[3] = sizeof(pkt);
	pkt[8] = 64;
	pkt[9] = IPPROTO_TCP;
	memcpy(pkt + 12, &self.sin_addr, 4);
	memcpy(pkt + 16, &peer.sin_addr, 4);
	memcpy(th, &self.sin_port, 2);
	memcpy(th + 2, &peer.sin_port, 2);
	seq = htonl(seq);
	ack = htonl(ack);
	memcpy(th + 4, &seq, 4);
	memcpy(th + 8, &ack, 4);
	th[12] = 5 << 4;
	th[13] = 0x20 | 0x10; /* URG, ACK */
	th[14] = 0xff;
	th[15] = 0xff;
	th[18] = urg_ptr >> 8;
	th[19] = urg_ptr & 0xff;
	memcpy(pseudo, pkt + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = IPPROTO_TCP;
	pseudo[10] = 0;
	pseudo[11] = 20;
	sum = csum_add(csum_add(0, pseudo, sizeof(pseudo)), th, 20);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	th[16] = ~sum >> 8;
	th[17] = ~sum & 0xff;
	raw = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (raw < 0)
		return false;
	ok = sendto(raw, pkt, sizeof(pkt), 0, (struct sockaddr *)&peer,
		    sizeof(peer)) == (ssize_t)sizeof(pkt);
	close(raw);
	return ok;
}

TEST_F(hostname, tcp_urgent_mark_before_the_question_gives_the_answer_up)
{
	const int dns = tcp_server(53);
	uint8_t msg[512], got[2 + 512];
	size_t len, read_in_line = 0;
	int server, fd;
	ssize_t n;

	ASSERT_LE(0, dns);
	fd = tcp_connect(dns, &server);
	ASSERT_LE(0, fd);
	/* The stream's fourth byte (net.ipv4.tcp_stdurg 0): the ID's low. */
	ASSERT_TRUE(send_urgent_mark(server, 4));
	usleep(50 * 1000);
	ASSERT_TRUE(tcp_ask(fd, "tcp-urgmark.test.example"));
	ASSERT_TRUE(tcp_recv(server, msg, sizeof(msg)));
	len = dns_answer(msg, "tcp-urgmark.test.example", "127.0.31.10", 600);
	ASSERT_TRUE(tcp_send(server, msg, len, true));
	usleep(100 * 1000);
	/* What the resolver reads in line: one byte short. */
	while ((n = recv(fd, got, sizeof(got), MSG_DONTWAIT)) > 0)
		read_in_line += n;
	EXPECT_EQ(2 + len - 1, read_in_line);
	close(server);
	close(fd);
	EXPECT_FALSE(
		hosts_table_has("127.0.31.10", "tcp-urgmark.test.example"));

	ASSERT_TRUE(
		tcp_exchange(dns, "tcp-urgmark.test.example", "127.0.31.10"));
	EXPECT_TRUE(hosts_table_has("127.0.31.10", "tcp-urgmark.test.example"));
	close(dns);
}

/*
 * Adversary read of DNS over TCP, the second: data in the server's
 * SYN-ACK.  A client's TCP Fast Open send without a cookie (dnsmasq's
 * first to a server) sends a SYN that asks for one, and the query only
 * once the connection is established; the server's SYN-ACK may carry
 * data (RFC 7413), which tcp_rcv_fastopen_synack() queues for the
 * program.  tcp_finish_connect() has begun the stream just before, at the
 * sequence number after the SYN-ACK's SYN, where that data starts; the
 * receive hook takes no segment with SYN set, so the stream never takes
 * it.  A segment from that same sequence number on, with other bytes, is
 * then taken whole by the stream, while TCP keeps the SYN-ACK's copy:
 * the kernel learns a message the resolver never reads, and data that
 * arrived before the question was sent is not the connection "not read
 * at all" THREAT-MODEL section 5 says.
 *
 * The server is played by hand, as no Linux server puts data in a
 * SYN-ACK: 198.18.53.2, reached through dummy0 (whose packets go
 * nowhere), where a packet socket sees the resolver's SYN, and a raw
 * socket sends the server's segments back.
 */
#define SYN_IFNAME "dummy0"
#define SYN_CLIENT "198.18.53.1"
#define SYN_SERVER "198.18.53.2"
/* The server's initial sequence number. */
#define SYN_SERVER_ISN 0x10000000U

/* Whether dummy0 is up, with SYN_CLIENT/24. */
static bool syn_dummy_has_address(void)
{
	char out[4096];

	return pfsel_sh(out, sizeof(out), "ip addr show dev " SYN_IFNAME) ==
		       0 &&
	       strstr(out, SYN_CLIENT "/24") && strstr(out, ",UP");
}

/* dummy0 up, with SYN_CLIENT/24 (it stays for the rest of the boot). */
static bool syn_dummy_ready(void)
{
	char out[4096];

	if (syn_dummy_has_address())
		return true;
	pfsel_sh(out, sizeof(out), "ip link set " SYN_IFNAME " up");
	pfsel_sh(out, sizeof(out),
		 "ip addr add " SYN_CLIENT "/24 dev " SYN_IFNAME);
	return syn_dummy_has_address();
}

/*
 * Sends, as SYN_SERVER port 53, a segment to SYN_CLIENT port @dport with
 * @flags, @seq, @ack, and @len bytes of @data: true when sent.
 */
static bool syn_server_sends(uint16_t dport, uint8_t flags, uint32_t seq,
			     uint32_t ack, const uint8_t *data, size_t len)
{
	uint8_t pkt[40 + 2 + 512] = { 0 }, pseudo[12];
	uint8_t *const th = pkt + 20;
	const size_t total = 40 + len;
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint32_t sum;
	bool ok;
	int raw;

	if (len > sizeof(pkt) - 40)
		return false;
	pkt[0] = 0x45;
	pkt[2] = total >> 8;
	pkt[3] = total & 0xff;
	pkt[8] = 64;
	pkt[9] = IPPROTO_TCP;
	inet_pton(AF_INET, SYN_SERVER, pkt + 12);
	inet_pton(AF_INET, SYN_CLIENT, pkt + 16);
	th[1] = 53;
	th[2] = dport >> 8;
	th[3] = dport & 0xff;
	seq = htonl(seq);
	ack = htonl(ack);
	memcpy(th + 4, &seq, 4);
	memcpy(th + 8, &ack, 4);
	th[12] = 5 << 4;
	th[13] = flags;
	th[14] = 0xff;
	th[15] = 0xff;
	memcpy(th + 20, data, len);
	memcpy(pseudo, pkt + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = IPPROTO_TCP;
	pseudo[10] = (20 + len) >> 8;
	pseudo[11] = (20 + len) & 0xff;
	sum = csum_add(csum_add(0, pseudo, sizeof(pseudo)), th, 20 + len);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	th[16] = ~sum >> 8;
	th[17] = ~sum & 0xff;
	memcpy(&to.sin_addr, pkt + 16, 4);
	raw = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (raw < 0)
		return false;
	ok = sendto(raw, pkt, total, 0, (struct sockaddr *)&to, sizeof(to)) ==
	     (ssize_t)total;
	close(raw);
	return ok;
}

/*
 * The SYN this program's socket sent to SYN_SERVER port 53, as the packet
 * socket @cap saw it leave: its source port and sequence number.
 */
static bool syn_seen(int cap, uint16_t *sport, uint32_t *seq)
{
	struct pollfd pfd = { .fd = cap, .events = POLLIN };
	uint8_t pkt[2048], server[4];
	ssize_t n;

	inet_pton(AF_INET, SYN_SERVER, server);
	while (poll(&pfd, 1, 5000) == 1) {
		n = recv(cap, pkt, sizeof(pkt), 0);
		if (n < 40 || pkt[0] != 0x45 || pkt[9] != IPPROTO_TCP ||
		    memcmp(pkt + 16, server, 4) || pkt[23] != 53 ||
		    !(pkt[33] & 0x02) || pkt[33] & 0x10)
			continue;
		*sport = (uint16_t)(pkt[20] << 8 | pkt[21]);
		*seq = (uint32_t)pkt[24] << 24 | (uint32_t)pkt[25] << 16 |
		       (uint32_t)pkt[26] << 8 | pkt[27];
		return true;
	}
	return false;
}

/* A DNS message over TCP: its length in two bytes, then it. */
static size_t tcp_framed(uint8_t *out, const uint8_t *msg, size_t len)
{
	out[0] = len >> 8;
	out[1] = len & 0xff;
	memcpy(out + 2, msg, len);
	return 2 + len;
}

/*
 * This program asks SYN_SERVER port 53 for @name with a TCP Fast Open
 * send; the hand-played server answers the SYN with a SYN-ACK that
 * carries "@name is @early" when @early is not NULL (none when it is),
 * then sends "@name is @ipv4" from the stream's first byte on.  What the
 * resolver's end reads in line goes to @got, its length to *@got_len.
 */
static bool syn_ack_exchange(const char *name, const char *early,
			     const char *ipv4, uint8_t *got, size_t *got_len)
{
	const struct sockaddr_in server = {
		.sin_family = AF_INET,
		.sin_port = htons(53),
		.sin_addr.s_addr = inet_addr(SYN_SERVER),
	};
	uint8_t query[2 + 512], msg[512], data[2 + 512], early_data[2 + 512];
	size_t qlen, dlen, elen = 0;
	struct pollfd pfd = { .events = POLLOUT };
	const int cap = pfsel_capture_open(SYN_IFNAME);
	uint16_t sport = 0;
	uint32_t cseq = 0;
	bool ok = false;
	ssize_t n;

	*got_len = 0;
	if (cap < 0)
		return false;
	pfd.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (pfd.fd < 0)
		goto out_cap;
	qlen = tcp_framed(query, msg, dns_query(msg, ANSWER_ID, name));
	/* No cookie yet: the SYN asks for one, and carries no data. */
	if (sendto(pfd.fd, query, qlen, MSG_FASTOPEN,
		   (const struct sockaddr *)&server, sizeof(server)) >= 0 ||
	    errno != EINPROGRESS || !syn_seen(cap, &sport, &cseq))
		goto out;
	if (early)
		elen = tcp_framed(early_data, msg,
				  dns_answer(msg, name, early, 600));
	if (!syn_server_sends(sport, 0x12, SYN_SERVER_ISN, cseq + 1, early_data,
			      elen) ||
	    poll(&pfd, 1, 5000) != 1 || !(pfd.revents & POLLOUT))
		goto out;
	/* Established: the query goes now (SYN_SERVER never reads it). */
	if (send(pfd.fd, query, qlen, 0) != (ssize_t)qlen)
		goto out;
	dlen = tcp_framed(data, msg, dns_answer(msg, name, ipv4, 600));
	if (!syn_server_sends(sport, 0x18, SYN_SERVER_ISN + 1, cseq + 1, data,
			      dlen))
		goto out;
	usleep(100 * 1000);
	while ((n = recv(pfd.fd, got + *got_len, 2 + 512 - *got_len,
			 MSG_DONTWAIT)) > 0)
		*got_len += n;
	ok = true;
out:
	close(pfd.fd);
out_cap:
	close(cap);
	return ok;
}

TEST_F(hostname, tcp_syn_ack_data_is_what_the_resolver_reads)
{
	const char *const name = "tcp-synack.test.example";
	uint8_t got[2 + 512], msg[512], want[2 + 512];
	size_t got_len, want_len;

	ASSERT_TRUE(syn_dummy_ready());
	/* The resolver reads the SYN-ACK's answer, 127.0.31.12. */
	ASSERT_TRUE(syn_ack_exchange(name, "127.0.31.12", "127.0.31.11", got,
				     &got_len));
	want_len = tcp_framed(want, msg,
			      dns_answer(msg, name, "127.0.31.12", 600));
	ASSERT_EQ(want_len, got_len);
	EXPECT_EQ(0, memcmp(want, got, want_len));
	/* The kernel must not learn what it did not read. */
	EXPECT_FALSE(hosts_table_has("127.0.31.11", name));

	/*
	 * Control, a name of its own (the attack's may be learned): no data
	 * in the SYN-ACK, and the answer from the stream's first byte on is
	 * learned.
	 */
	ASSERT_TRUE(syn_ack_exchange("tcp-synack-control.test.example", NULL,
				     "127.0.31.13", got, &got_len));
	EXPECT_TRUE(hosts_table_has("127.0.31.13",
				    "tcp-synack-control.test.example"));
}

TEST_HARNESS_MAIN
