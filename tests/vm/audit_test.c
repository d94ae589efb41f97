// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - audit: what pfsel's AUDIT_PFSEL_ACCESS (1430) records
 * say, which decisions make one (denials unless quiet, allows marked
 * log), and permissive mode, global and per policy, which lets denials
 * through and records them with permissive=1.
 *
 * auditd runs in the VM (tests/vm/mkinitramfs starts it); the records are
 * read back with `ausearch -m 1430`.  The requests are made by netprobe,
 * run as pfuser1 or pfuser2, so that each record can be told apart by its
 * pid.  Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* How long auditd is given to write a record down. */
#define AUDIT_WAIT_MS 10000

#define PORT_DENIED 5501
#define PORT_QUIET 5502
#define PORT_LOGGED 5503
#define PORT_ALLOWED 5504
#define PORT_BIND_DENIED 5505
#define PORT_PERMISSIVE 5511

FIXTURE(audit)
{
	int peers[8];
	int npeers;
};

FIXTURE_SETUP(audit)
{
	static const unsigned short ports[] = { PORT_DENIED, PORT_QUIET,
						PORT_LOGGED, PORT_ALLOWED };
	size_t i;

	if (geteuid() != 0)
		SKIP(return,
			   "loading policies and reading the audit log need root");
	ASSERT_TRUE(pfsel_auditd_running())
	{
		TH_LOG("auditd is not running in the VM (tests/vm/mkinitramfs starts it)");
	}
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("audit_1001"));
	self->npeers = 0;
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		self->peers[self->npeers] =
			pfsel_peer(SOCK_STREAM, "127.0.0.1", ports[i]);
		ASSERT_LE(0, self->peers[self->npeers++]);
	}
	self->peers[self->npeers] = pfsel_peer(SOCK_STREAM, "::1", PORT_DENIED);
	ASSERT_LE(0, self->peers[self->npeers++]);
	self->peers[self->npeers] =
		pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_PERMISSIVE);
	ASSERT_LE(0, self->peers[self->npeers++]);
}

FIXTURE_TEARDOWN_PARENT(audit)
{
	pfsel_reset();
}

/* The 1430 record of process @pid (and with @more, if given). */
static bool record_of(pid_t pid, const char *more, char *record, size_t size)
{
	char pid_field[32];
	const char *needles[] = { " pfsel ", pid_field, more, NULL };

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return pfsel_audit_find("1430", needles, record, size, AUDIT_WAIT_MS);
}

/*
 * Whether process @pid has a 1430 record.  To tell "none" from "not yet",
 * a denial by another process is made first and waited for: auditd writes
 * records in order.
 */
static bool has_record(pid_t pid)
{
	char record[4096], pid_field[32];
	const char *needles[] = { " pfsel ", pid_field, NULL };
	pid_t marker = 0;

	pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect", "127.0.0.1",
			  PORT_DENIED, &marker);
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", marker);
	if (!pfsel_audit_find("1430", needles, record, sizeof(record),
			      AUDIT_WAIT_MS))
		return true; /* no marker: cannot say "none" */
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return pfsel_audit_find("1430", needles, record, sizeof(record), 0);
}

/* The pfwc --query oracle: `rule="FILE":LINE:COL` for a request. */
static bool expected_rule(const char *policy, const char *app, const char *op,
			  const char *proto, const char *addr,
			  unsigned short port, char *rule, size_t size)
{
	char command[512], path[256], answer[256], file[128];
	unsigned int line, col;
	FILE *query;
	bool ok;

	snprintf(command, sizeof(command), "pfwc --query %s %s %s %s %s %u",
		 pfsel_policy_path(policy, path, sizeof(path)), app, op, proto,
		 addr, port);
	query = popen(command, "r");
	if (!query)
		return false;
	ok = fgets(answer, sizeof(answer), query) &&
	     sscanf(answer, "%*s %127[^:]:%u:%u", file, &line, &col) == 3;
	pclose(query);
	if (ok)
		snprintf(rule, size, " rule=\"%s\":%u:%u ", file, line, col);
	return ok;
}

/*
 * Check that @record holds each of the NULL-terminated " key=value "
 * @fields, in that order.
 */
static void expect_fields(struct __test_metadata *const _metadata,
			  const char *record, const char *const *fields)
{
	const char *const missing = pfsel_record_lacks(record, fields);

	EXPECT_EQ(NULL, missing)
	{
		TH_LOG("'%s' missing (or out of order) in: %s", missing,
		       record);
	}
}

TEST_F(audit, denial_record_has_every_field)
{
	static const struct {
		const char *addr, *family;
	} targets[] = { { "127.0.0.1", "inet" }, { "::1", "inet6" } };
	size_t i;

	for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		char record[4096], rule[256], raddr[64], pid_field[32];
		pid_t pid = 0;

		ASSERT_TRUE(expected_rule("audit_1001", PFSEL_NETPROBE,
					  "connect", "tcp", targets[i].addr,
					  PORT_DENIED, rule, sizeof(rule)));
		ASSERT_EQ(EACCES, pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE,
						    "connect", targets[i].addr,
						    PORT_DENIED, &pid));
		ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)))
		{
			TH_LOG("no 1430 record of pid %d", pid);
		}
		TH_LOG("%s", record);
		snprintf(raddr, sizeof(raddr), " raddr=%s ", targets[i].addr);
		snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
		{
			char family[32];
			const char *const in_order[] = {
				" op=connect ",
				" verdict=deny ",
				" permissive=0 ",
				" policy=user ",
				rule,
				family,
				" protocol=tcp ",
				raddr,
				" rport=5501 ",
				" app=\"" PFSEL_NETPROBE "\" ",
				" script=? ",
				NULL,
			};
			const char *const task[] = {
				pid_field,
				" uid=1001 ",
				" comm=\"netprobe\" ",
				" exe=\"" PFSEL_NETPROBE "\"",
				NULL,
			};

			snprintf(family, sizeof(family), " family=%s ",
				 targets[i].family);
			expect_fields(_metadata, record, in_order);
			expect_fields(_metadata, record, task);
			EXPECT_NE(NULL, strstr(record, " auid="));
			EXPECT_NE(NULL, strstr(record, " ses="));
			EXPECT_NE(NULL, strstr(record, " laddr="));
			EXPECT_NE(NULL, strstr(record, " lport="));
		}
	}
}

/* A script's record names the interpreter as app and the script. */
TEST_F(audit, script_is_recorded)
{
	char record[4096];
	pid_t pid = 0;

	ASSERT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, PFSEL_TESTS_DIR "/probe-script",
				    "connect", "127.0.0.1", PORT_DENIED, &pid));
	ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)));
	TH_LOG("%s", record);
	EXPECT_NE(NULL, strstr(record, " app=\"" PFSEL_NETPROBE "\" "));
	EXPECT_NE(NULL, strstr(record, " script=\"" PFSEL_TESTS_DIR
				       "/probe-script\" "));
}

/* A bind record names the local address and port. */
TEST_F(audit, bind_denial_names_the_local_address)
{
	char record[4096], rule[256];
	pid_t pid = 0;

	ASSERT_TRUE(expected_rule("audit_1001", PFSEL_NETPROBE, "bind", "tcp",
				  "127.0.0.1", PORT_BIND_DENIED, rule,
				  sizeof(rule)));
	ASSERT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "bind",
				    "127.0.0.1", PORT_BIND_DENIED, &pid));
	ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)));
	TH_LOG("%s", record);
	{
		const char *const fields[] = {
			" op=bind ",
			" verdict=deny ",
			rule,
			" family=inet ",
			" protocol=tcp ",
			" laddr=127.0.0.1 ",
			" lport=5505 ",
			NULL,
		};

		expect_fields(_metadata, record, fields);
	}
}

/* A denial by a rule marked quiet is not recorded. */
TEST_F(audit, quiet_denial_is_not_recorded)
{
	pid_t pid = 0;

	ASSERT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				    "127.0.0.1", PORT_QUIET, &pid));
	EXPECT_FALSE(has_record(pid));
}

/* An allow marked log is recorded; a plain allow is not. */
TEST_F(audit, logged_allow_is_recorded)
{
	char record[4096], rule[256];
	pid_t logged = 0, plain = 0;

	ASSERT_TRUE(expected_rule("audit_1001", PFSEL_NETPROBE, "connect",
				  "tcp", "127.0.0.1", PORT_LOGGED, rule,
				  sizeof(rule)));
	ASSERT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				       "127.0.0.1", PORT_LOGGED, &logged));
	ASSERT_TRUE(record_of(logged, NULL, record, sizeof(record)));
	TH_LOG("%s", record);
	{
		const char *const fields[] = {
			" op=connect ", " verdict=allow ", " permissive=0 ",
			rule,		" rport=5503 ",	   NULL,
		};

		expect_fields(_metadata, record, fields);
	}

	ASSERT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				       "127.0.0.1", PORT_ALLOWED, &plain));
	EXPECT_FALSE(has_record(plain));
}

/*
 * The global switch: in permissive mode a denied call succeeds and is
 * recorded with permissive=1; the switch itself makes a MAC_STATUS record.
 */
TEST_F(audit, global_permissive_lets_denials_through)
{
	const char *const switched[] = { "lsm=pfsel", "enforcing=0", NULL };
	struct pfsel_status status;
	char record[4096];
	pid_t pid = 0;

	ASSERT_EQ(0, pfsel_set_enforce(false));
	ASSERT_EQ(0, pfsel_get_status(&status));
	EXPECT_FALSE(status.enforcing);
	EXPECT_TRUE(pfsel_audit_find("MAC_STATUS", switched, record,
				     sizeof(record), AUDIT_WAIT_MS));

	EXPECT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				       "127.0.0.1", PORT_DENIED, &pid));
	ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)));
	TH_LOG("%s", record);
	EXPECT_NE(NULL, strstr(record, " verdict=deny "));
	EXPECT_NE(NULL, strstr(record, " permissive=1 "));

	ASSERT_EQ(0, pfsel_set_enforce(true));
	EXPECT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				    "127.0.0.1", PORT_DENIED, &pid));
	ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)));
	EXPECT_NE(NULL, strstr(record, " permissive=0 "));
}

/*
 * A policy compiled with "mode permissive;" denies nothing but records
 * what it would deny, with permissive=1; other policies still enforce.
 */
TEST_F(audit, policy_permissive_lets_its_denials_through)
{
	struct pfsel_policy_info info;
	char record[4096];
	pid_t pid = 0;

	ASSERT_EQ(0, pfsel_load("permissive_1002"));
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID2, &info));
	EXPECT_TRUE(info.permissive);

	EXPECT_EQ(0, pfsel_netprobe_as(PFSEL_UID2, PFSEL_NETPROBE, "connect",
				       "127.0.0.1", PORT_PERMISSIVE, &pid));
	ASSERT_TRUE(record_of(pid, NULL, record, sizeof(record)));
	TH_LOG("%s", record);
	EXPECT_NE(NULL, strstr(record, " verdict=deny "));
	EXPECT_NE(NULL, strstr(record, " permissive=1 "));
	EXPECT_NE(NULL, strstr(record, " uid=1002 "));

	/* 1001's policy is not permissive. */
	EXPECT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, PFSEL_NETPROBE, "connect",
				    "127.0.0.1", PORT_DENIED, &pid));
}

/* Loads and unloads make MAC_POLICY_LOAD records. */
TEST_F(audit, load_and_unload_are_recorded)
{
	char record[4096];
	const char *const loaded[] = { "lsm=pfsel", "op=load", NULL };
	const char *const unloaded[] = { "lsm=pfsel", "op=unload", NULL };

	EXPECT_TRUE(pfsel_audit_find("MAC_POLICY_LOAD", loaded, record,
				     sizeof(record), AUDIT_WAIT_MS));
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	EXPECT_TRUE(pfsel_audit_find("MAC_POLICY_LOAD", unloaded, record,
				     sizeof(record), AUDIT_WAIT_MS));
}

TEST_HARNESS_MAIN
