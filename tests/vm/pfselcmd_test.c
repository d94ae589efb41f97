// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the pfsel command (pfsel-tools/pfsel, pfsel(8)) against
 * the running kernel: status and enforce, load, list and unload, check,
 * stats, and the chain an auditor follows: a user policy denies a call,
 * `pfsel log` shows it, `pfsel audit2pfw` turns the audit log into rules,
 * pfwc compiles them appended to the policy, `pfsel load` loads it, and
 * the same call succeeds.  Since issue 12 only root loads and unloads a
 * user's policy: a user's own `pfsel load` and `pfsel unload` fail with
 * EPERM, and the load says how to confirm; root's load records the policy
 * as the one the user confirmed, root's unload forgets it; `pfsel
 * compare` tells a tighter policy from a looser one.
 *
 * The requests are made by netprobe as pfuser1 (1001).  auditd runs in the
 * VM (tests/vm/mkinitramfs starts it).  Needs root: as anyone else every
 * test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define AUDIT_WAIT_MS 10000
#define PORT_CHAIN 5611
#define PORT_CHECK 5612
#define CONFIRMED1 "/var/lib/pfsel/confirmed/1001.pfsel"

/* Write @text to @path. */
static bool put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

static int probe(const char *addr, unsigned short port, pid_t *pid)
{
	return pfsel_netprobe_as(PFSEL_UID1, NULL, "connect", addr, port, pid);
}

/* The policy 1001 starts with: creates allowed, everything else denied. */
static const char base_policy[] = "policy user 1001;\n"
				  "default deny;\n"
				  "allow * create;\n";

FIXTURE(pfselcmd)
{
	char dir[64];
	int peer, peer2;
};

FIXTURE_SETUP(pfselcmd)
{
	char path[128], out[4096];

	self->peer = self->peer2 = -1;
	if (geteuid() != 0)
		SKIP(return, "loading policies and reading the audit log need root");
	ASSERT_TRUE(pfsel_auditd_running())
	{
		TH_LOG("auditd is not running in the VM");
	}
	pfsel_reset();
	strcpy(self->dir, "/tmp/pfselcmd.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, chmod(self->dir, 0755));
	snprintf(path, sizeof(path), "%s/base.pfw", self->dir);
	ASSERT_TRUE(put(path, base_policy));
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "cd %s && pfwc -o base.pfsel base.pfw",
			self->dir))
	{
		TH_LOG("pfwc: %s", out);
	}
	self->peer = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_CHAIN);
	ASSERT_LE(0, self->peer);
	self->peer2 = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_CHECK);
	ASSERT_LE(0, self->peer2);
}

FIXTURE_TEARDOWN(pfselcmd)
{
	char out[256];

	if (self->peer >= 0)
		close(self->peer);
	if (self->peer2 >= 0)
		close(self->peer2);
	if (geteuid() == 0) {
		pfsel_reset();
		pfsel_sh(out, sizeof(out), "rm -rf %s", self->dir);
	}
}

TEST_F(pfselcmd, status_and_enforce)
{
	char out[4096];

	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status"));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "enabled"));
	EXPECT_NE(NULL, strstr(out, "enforcing"));
	EXPECT_NE(NULL, strstr(out, "System policy:"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status --json"));
	EXPECT_NE(NULL, strstr(out, "{\"enabled\":true,\"mode\":\"enforcing\""));

	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel enforce"));
	EXPECT_STREQ("enforcing\n", out);
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel enforce 0"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel enforce"));
	EXPECT_STREQ("permissive\n", out);
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status"));
	EXPECT_NE(NULL, strstr(out, "permissive"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel enforce enforcing"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel enforce"));
	EXPECT_STREQ("enforcing\n", out);

	/* Not root: the kernel refuses, and the message says why. */
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), PFSEL_TESTS_DIR "/runas 1001 pfsel enforce 0"));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "enforce"));
	EXPECT_NE(NULL, strstr(out, strerror(EACCES)));
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out), "pfsel enforce 2"));
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out), "pfsel frobnicate"));
	EXPECT_EQ(3, pfsel_sh(out, sizeof(out),
			"PFSEL_SECURITYFS=/nonexistent pfsel status"));
	EXPECT_NE(NULL, strstr(out, "disabled"));
}

TEST_F(pfselcmd, load_list_unload)
{
	char out[4096];

	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel list"));
	EXPECT_NE(NULL, strstr(out, "no policy is loaded"));
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel load %s/base.pfsel", self->dir))
	{
		TH_LOG("%s", out);
	}
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel list"));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n1001 "));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel list --json"));
	EXPECT_NE(NULL, strstr(out, "\"policy\":\"user\",\"uid\":1001"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status"));
	EXPECT_NE(NULL, strstr(out, "User policies:          1"));

	/* Root's load is what 1001 confirmed. */
	EXPECT_EQ(0, access(CONFIRMED1, F_OK));

	/* A user may not unload their own policy (the default is one's own uid) ... */
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), PFSEL_TESTS_DIR "/runas 1001 pfsel unload"))
	{
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, strerror(EPERM)));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel list"));
	EXPECT_NE(NULL, strstr(out, "\n1001 "));
	/* ... nor load it: the message says how to confirm it. */
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), PFSEL_TESTS_DIR "/runas 1001 pfsel load %s/base.pfsel",
			self->dir));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, strerror(EPERM)));
	EXPECT_NE(NULL, strstr(out, "pfsel confirm"));
	/* Root unloads it, and forgets what 1001 confirmed. */
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel unload 1001"));
	EXPECT_NE(0, access(CONFIRMED1, F_OK));
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), "pfsel unload 1001"));
	EXPECT_NE(NULL, strstr(out, "ENOENT"));
	/* ... and may not load another's. */
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), PFSEL_TESTS_DIR "/runas 1002 pfsel load %s/base.pfsel",
			self->dir));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, strerror(EPERM)));
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), "pfsel load %s/base.pfw", self->dir));
	EXPECT_NE(NULL, strstr(out, "write("));
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), "pfsel load %s/none.pfsel", self->dir));
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out), "pfsel unload nobody"));
}

TEST_F(pfselcmd, check_and_stats)
{
	char out[4096];

	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel load %s/base.pfsel", self->dir));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			"pfsel check --uid 1001 --exe " PFSEL_NETPROBE
			" connect tcp 127.0.0.1 %d", PORT_CHECK));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "verdict  deny\n"));
	EXPECT_NE(NULL, strstr(out, "system   none loaded\n"));
	EXPECT_NE(NULL, strstr(out, "user     deny   by its default verdict\n"));
	EXPECT_EQ(10, pfsel_sh(out, sizeof(out),
			 "pfsel check -q --uid 1001 connect tcp ::1 %d", PORT_CHECK));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel check -q --uid 1001 create udp inet6"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel check --json --uid 1001 create udp inet"));
	EXPECT_NE(NULL, strstr(out, "{\"verdict\":\"allow\",\"system\":null,"
				    "\"user\":{\"verdict\":\"allow\",\"rule\":\"base.pfw:3:1\"}}"));
	/* Root's own policy: none. */
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel check -q connect tcp 127.0.0.1 1"));
	/* Another's policy needs CAP_MAC_ADMIN. */
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out), PFSEL_TESTS_DIR "/runas 1002 pfsel check --uid 1001 "
			"connect tcp 127.0.0.1 1"));
	EXPECT_NE(NULL, strstr(out, strerror(EPERM)));
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out), "pfsel check connect tcp 127.0.0.1"));
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out), "pfsel check connect tcp 300.0.0.1 80"));

	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel stats"));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "lookups"));
	EXPECT_NE(NULL, strstr(out, "socket_connect"));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel stats --json"));
	EXPECT_NE(NULL, strstr(out, "\"hooks\":[{\"name\":"));
}

/*
 * Issue 6, done when: a denied call shows in `pfsel log`; `pfsel
 * audit2pfw` makes rules of it; appended to the policy, compiled and
 * loaded, they let the same call through.
 */
TEST_F(pfselcmd, denial_to_rule_to_allowed)
{
	char out[8192], rules[4096], needle[128], record[4096], pid_field[32];
	const char *needles[] = { " pfsel ", pid_field, NULL };
	const time_t start = time(NULL);
	pid_t pid = 0;

	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel load %s/base.pfsel", self->dir));
	ASSERT_EQ(EACCES, probe("127.0.0.1", PORT_CHAIN, &pid));
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	ASSERT_TRUE(pfsel_audit_find("1430", needles, record, sizeof(record),
				     AUDIT_WAIT_MS))
	{
		TH_LOG("no 1430 record of pid %d", pid);
	}

	/* pfsel log shows it. */
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel log --uid 1001 --since @%lld",
			(long long)start));
	TH_LOG("%s", out);
	/* (The line ends there, or with the subject's context, subj=.) */
	snprintf(needle, sizeof(needle),
		 " deny  uid=1001 " PFSEL_NETPROBE
		 " connect tcp to 127.0.0.1:%d user default pid=%d",
		 PORT_CHAIN, pid);
	{
		const char *line = strstr(out, needle);

		EXPECT_NE(NULL, line);
		if (line)
			EXPECT_TRUE(line[strlen(needle)] == '\n' ||
				    !strncmp(line + strlen(needle), " subj=", 6));
	}
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel log --json --uid 1001 -n 1"));
	snprintf(needle, sizeof(needle), "\"pid\":%d,\"app\":\"" PFSEL_NETPROBE "\"", pid);
	EXPECT_NE(NULL, strstr(out, needle));

	/* audit2pfw makes a rule of it. */
	ASSERT_EQ(0, pfsel_sh(rules, sizeof(rules),
			"pfsel audit2pfw --uid 1001 --since @%lld >%s/rules.pfw && cat %s/rules.pfw",
			(long long)start, self->dir, self->dir));
	TH_LOG("%s", rules);
	snprintf(needle, sizeof(needle),
		 "allow " PFSEL_NETPROBE " connect tcp to 127.0.0.1 port %d;\n",
		 PORT_CHAIN);
	EXPECT_NE(NULL, strstr(rules, needle));

	/* Appended to the policy, compiled, loaded: the call goes through. */
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out),
			"cd %s && cat base.pfw rules.pfw >new.pfw && pfwc -o new.pfsel new.pfw",
			self->dir))
	{
		TH_LOG("pfwc: %s", out);
	}
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel load %s/new.pfsel", self->dir))
	{
		TH_LOG("%s", out);
	}
	EXPECT_EQ(0, probe("127.0.0.1", PORT_CHAIN, &pid));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			"pfsel check --uid 1001 --exe " PFSEL_NETPROBE
			" connect tcp 127.0.0.1 %d", PORT_CHAIN));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_NE(NULL, strstr(out, "by rule new.pfw:"));
	/* Only that: another port stays denied. */
	EXPECT_EQ(EACCES, probe("127.0.0.1", PORT_CHECK, &pid));
}

/* pfsel compare: tighter is no looser (0), looser is 1 with the cells. */
TEST_F(pfselcmd, compare)
{
	char out[4096];

	ASSERT_EQ(0, pfsel_sh(out, sizeof(out),
			      "cd %s && printf '%%s' 'allow * connect tcp to "
			      "127.0.0.1 port 5611;' >rule.pfw && cat base.pfw "
			      "rule.pfw >looser.pfw && pfwc -o looser.pfsel "
			      "looser.pfw",
			      self->dir))
	{
		TH_LOG("pfwc: %s", out);
	}
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			      "cd %s && pfsel compare looser.pfsel base.pfsel",
			      self->dir))
	{
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "no looser"));
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out),
			      "cd %s && pfsel compare base.pfsel looser.pfsel",
			      self->dir));
	TH_LOG("%s", out);
	EXPECT_NE(NULL,
		  strstr(out, " connect tcp to 127.0.0.1 port 5611;"));
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out),
			      "cd %s && pfsel compare --quiet base.pfsel "
			      "looser.pfsel",
			      self->dir));
	EXPECT_STREQ("", out);
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out),
			      "cd %s && pfsel compare base.pfsel base.pfw",
			      self->dir));
}

TEST_HARNESS_MAIN
