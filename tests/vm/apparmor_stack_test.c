// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - stacking beside AppArmor enforcing a profile: the boot
 * vm-apparmor-enforcing of tests/check (lsm=landlock,pfsel,apparmor
 * pfsel_stack=apparmor), whose init loads tests/vm/apparmor/
 * pfsel-stack-probe with apparmor_parser.  In every other boot these
 * tests skip.
 *
 * The profile confines stack-probe (a copy of netprobe) and denies it
 * IPv6 sockets (`audit deny network inet6`), which pfsel's policy
 * stack_1001 allows (and logs); pfsel denies it TCP port 5702, which the
 * profile allows; both allow port 5703.  Each denial must happen (EACCES)
 * and be audited by the LSM that made it -- an apparmor="DENIED" record, a
 * pfsel record (1430) -- and the allowed connection must go through.
 *
 * The fixture's tests load a pfsel policy and read the audit log: root
 * only.  unprivileged_probe runs as anyone (as pfuser1 in run-suite).
 */

#define _GNU_SOURCE
#include "stack_test.h"

#define PORT_PFSEL_DENIED 5702
#define PORT_ALLOWED 5703

#define PROFILE "pfsel-stack-probe"
#define STACK_PROBE PFSEL_TESTS_DIR "/stack-probe"
#define AA_PROFILES "/sys/kernel/security/apparmor/profiles"

/*
 * Run `@program OP FAMILY ADDR PORT` as @uid (ADDR the family's
 * loopback): its errno (0: done), as pfsel_exec_as() otherwise; its pid
 * in *@pidp.
 */
static int probe(uid_t uid, const char *program, const char *op,
		 const char *family, unsigned short port, pid_t *pidp)
{
	const char *addr = strcmp(family, "inet6") ? "127.0.0.1" : "::1";

	return pfsel_netprobe_as(uid, program, op, addr, port, pidp);
}

/* Whether the profile is loaded and enforcing. */
static void expect_profile_enforcing(struct __test_metadata *const _metadata)
{
	char profiles[8192];

	ASSERT_LE(0, pfsel_read_file(AA_PROFILES, profiles, sizeof(profiles)))
	{
		TH_LOG("pfsel_stack=apparmor, but " AA_PROFILES
		       " cannot be read: is AppArmor the major LSM?");
	}
	ASSERT_NE(NULL, strstr(profiles, PROFILE " (enforce)\n"))
	{
		TH_LOG("the profile is not loaded (did the init run apparmor_parser?): %s",
		       profiles);
	}
}

/* What this test stacks beside, for stack_test.h's fixture. */
static const struct stack_lsm *stack_lsm(void)
{
	static const struct stack_lsm apparmor = {
		.name = "AppArmor",
		.word = "apparmor",
		.expect_enforcing = expect_profile_enforcing,
		/* The fixture's peers[0] and [1]. */
		.ports = { PORT_PFSEL_DENIED, PORT_ALLOWED },
		.nports = 2,
	};

	return &apparmor;
}

/*
 * AppArmor denies the confined probe an IPv6 socket, which pfsel allows:
 * EACCES, AppArmor's audited denial naming the profile and the family, and
 * pfsel's own record of its allow (the rule says log) for the same
 * process, with the profile as subj.
 */
TEST_F(stack, apparmor_denies_what_pfsel_allows)
{
	char record[4096], pid_field[32];
	pid_t pid = 0;

	ASSERT_EQ(EACCES,
		  probe(PFSEL_UID1, STACK_PROBE, "create", "inet6", 0, &pid));
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	{
		const char *needles[] = {
			"apparmor=\"DENIED\"",	    " operation=\"create\"",
			" profile=\"" PROFILE "\"", pid_field,
			" family=\"inet6\"",	    NULL
		};

		ASSERT_TRUE(stack_audit_log_find(
			needles, record, sizeof(record), STACK_AUDIT_WAIT_MS))
		{
			TH_LOG("no AppArmor denial of pid %d in /var/log/audit/audit.log",
			       pid);
		}
		TH_LOG("AppArmor: %s", record);
	}
	ASSERT_TRUE(stack_pfsel_record(pid, " verdict=allow ", record,
				       sizeof(record)))
	{
		TH_LOG("no pfsel record of the allow for pid %d", pid);
	}
	TH_LOG("pfsel: %s", record);
	EXPECT_NE(NULL, strstr(record, " op=create "));
	EXPECT_NE(NULL, strstr(record, " family=inet6 "));
	EXPECT_NE(NULL, strstr(record, " uid=1001 "));
	EXPECT_NE(NULL, strstr(record, " subj=" PROFILE));
}

/*
 * pfsel denies port 5702, which the profile allows: EACCES and pfsel's
 * deny record (subj: the profile); as root, whom pfsel's policy does not
 * cover, the same confined probe connects.
 */
TEST_F(stack, pfsel_denies_what_apparmor_allows)
{
	char record[4096];
	pid_t pid = 0;

	ASSERT_EQ(EACCES, probe(PFSEL_UID1, STACK_PROBE, "connect", "inet",
				PORT_PFSEL_DENIED, &pid));
	ASSERT_TRUE(stack_pfsel_record(pid, " verdict=deny ", record,
				       sizeof(record)))
	{
		TH_LOG("no pfsel denial of pid %d", pid);
	}
	TH_LOG("pfsel: %s", record);
	EXPECT_NE(NULL, strstr(record, " op=connect "));
	EXPECT_NE(NULL, strstr(record, " rport=5702 "));
	EXPECT_NE(NULL, strstr(record, " permissive=0 "));
	EXPECT_NE(NULL, strstr(record, " subj=" PROFILE));
	EXPECT_EQ(0, pfsel_drain(self->peers[0]));

	/* AppArmor itself lets the profile through. */
	ASSERT_EQ(0, probe(0, STACK_PROBE, "connect", "inet", PORT_PFSEL_DENIED,
			   NULL));
	EXPECT_EQ(1, pfsel_drain(self->peers[0]));
}

/*
 * What both allow goes through: port 5703 from the confined probe, and an
 * IPv6 socket from netprobe, which the profile does not confine.
 */
TEST_F(stack, allowed_path_works)
{
	ASSERT_EQ(0, probe(PFSEL_UID1, STACK_PROBE, "connect", "inet",
			   PORT_ALLOWED, NULL));
	EXPECT_EQ(1, pfsel_drain(self->peers[1]));
	ASSERT_EQ(0, probe(PFSEL_UID1, PFSEL_NETPROBE, "create", "inet6", 0,
			   NULL));
}

/* As anyone (pfuser1 in run-suite): the profile confines stack-probe. */
TEST(unprivileged_probe)
{
	int peer;

	if (!stack_begin(_metadata))
		return;
	/* The list of profiles is root's to read; the denial shows it too. */
	if (geteuid() == 0)
		expect_profile_enforcing(_metadata);
	peer = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_ALLOWED);
	ASSERT_LE(0, peer);
	EXPECT_EQ(EACCES,
		  probe(getuid(), STACK_PROBE, "create", "inet6", 0, NULL));
	EXPECT_EQ(0, probe(getuid(), STACK_PROBE, "connect", "inet",
			   PORT_ALLOWED, NULL));
	EXPECT_EQ(0,
		  probe(getuid(), PFSEL_NETPROBE, "create", "inet6", 0, NULL));
	close(peer);
}

TEST_HARNESS_MAIN
