// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - stacking beside SELinux enforcing a policy: the boot
 * vm-selinux of tests/check (lsm=landlock,pfsel,selinux pfsel_stack=selinux),
 * whose init loads tests/vm/selinux/stack.cil with selinux_load and
 * switches SELinux to enforcing.  In every other boot these tests skip.
 *
 * The probe, netprobe, runs as uid 1001 in the SELinux domain
 * stack_probe_t (setexeccon(), then exec).  SELinux denies it TCP port
 * 5601, which pfsel's policy stack_1001 allows (and logs); pfsel denies
 * it port 5602, which SELinux allows; both allow 5603.  Each denial must
 * happen (EACCES) and be audited by the LSM that made it -- an AVC record,
 * a pfsel record (1430) -- and the allowed connection must go through:
 * a denial by either LSM is final, and neither hides the other's.
 *
 * The fixture's tests load a pfsel policy and read the audit log: root
 * only.  unprivileged_probe runs as anyone (as pfuser1 in run-suite).
 */

#define _GNU_SOURCE
#include <selinux/selinux.h>

#include "stack_test.h"

#define PORT_SELINUX_DENIED 5601
#define PORT_PFSEL_DENIED 5602
#define PORT_ALLOWED 5603

/* The probe's domain, and the types of stack.cil the records name. */
#define PROBE_CONTEXT "system_u:system_r:stack_probe_t"
#define DENIED_PORT_CONTEXT "system_u:object_r:stack_denied_port_t"
#define INIT_CONTEXT "system_u:system_r:kernel_t"

/*
 * Run `netprobe connect inet 127.0.0.1 @port` as @uid, in SELinux context
 * @context (NULL: the caller's): its errno (0: connected), 124 when the
 * context could not be set, as pfsel_exec_as() otherwise.  Its pid in
 * *@pidp.  The context is set for this process's next exec, which the
 * probe's child inherits with the rest of its credentials, and unset
 * once the probe is done.
 */
static int probe(uid_t uid, const char *context, unsigned short port,
		 pid_t *pidp)
{
	int status;

	if (context && setexeccon(context))
		return 124;
	status = pfsel_netprobe_as(uid, NULL, "connect", "127.0.0.1", port,
				   pidp);
	if (context && setexeccon(NULL))
		return 124;
	return status;
}

/*
 * That SELinux enforces stack.cil: enforcing, and this process in the
 * policy's kernel_t (without a policy its context is "kernel").  Not
 * is_selinux_enabled(): libselinux also wants /etc/selinux/config, which
 * the VM has no use for.
 */
static void expect_selinux_enforcing(struct __test_metadata *const _metadata)
{
	char *context = NULL;

	ASSERT_EQ(1, security_getenforce())
	{
		TH_LOG("pfsel_stack=selinux, but SELinux does not enforce: did the init run selinux_load?");
	}
	ASSERT_EQ(0, getcon(&context));
	EXPECT_STREQ(INIT_CONTEXT, context);
	freecon(context);
}

/* What this test stacks beside, for stack_test.h's fixture. */
static const struct stack_lsm *stack_lsm(void)
{
	static const struct stack_lsm selinux = {
		.name = "SELinux",
		.word = "selinux",
		.expect_enforcing = expect_selinux_enforcing,
		/* The fixture's peers[0], [1] and [2]. */
		.ports = { PORT_SELINUX_DENIED, PORT_PFSEL_DENIED,
			   PORT_ALLOWED },
		.nports = 3,
	};

	return &selinux;
}

/*
 * SELinux denies the probe's domain port 5601, which pfsel allows: EACCES,
 * an AVC record naming the domain and the port's type, and pfsel's own
 * record of its allow (the rule says log) for the same process, with the
 * SELinux context as subj.
 */
TEST_F(stack, selinux_denies_what_pfsel_allows)
{
	char record[4096], pid_field[32];
	pid_t pid = 0;

	ASSERT_EQ(EACCES,
		  probe(PFSEL_UID1, PROBE_CONTEXT, PORT_SELINUX_DENIED, &pid));
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	{
		const char *needles[] = { " denied ",
					  "{ name_connect }",
					  pid_field,
					  " scontext=" PROBE_CONTEXT " ",
					  " tcontext=" DENIED_PORT_CONTEXT " ",
					  " tclass=tcp_socket ",
					  "permissive=0",
					  NULL };

		ASSERT_TRUE(pfsel_audit_find("AVC", needles, record,
					     sizeof(record),
					     STACK_AUDIT_WAIT_MS))
		{
			TH_LOG("no AVC denial of pid %d", pid);
		}
		TH_LOG("SELinux: %s", record);
	}
	ASSERT_TRUE(stack_pfsel_record(pid, " verdict=allow ", record,
				       sizeof(record)))
	{
		TH_LOG("no pfsel record of the allow for pid %d", pid);
	}
	TH_LOG("pfsel: %s", record);
	EXPECT_NE(NULL, strstr(record, " op=connect "));
	EXPECT_NE(NULL, strstr(record, " rport=5601 "));
	EXPECT_NE(NULL, strstr(record, " uid=1001 "));
	EXPECT_NE(NULL, strstr(record, " subj=" PROBE_CONTEXT));
	/* Nothing reached the listener. */
	EXPECT_EQ(0, pfsel_drain(self->peers[0]));
}

/*
 * pfsel denies port 5602, which SELinux allows the same domain: EACCES
 * and pfsel's deny record (subj: the domain); as root, whom pfsel's policy
 * does not cover, the same probe in the same domain connects.
 */
TEST_F(stack, pfsel_denies_what_selinux_allows)
{
	char record[4096];
	pid_t pid = 0;

	ASSERT_EQ(EACCES,
		  probe(PFSEL_UID1, PROBE_CONTEXT, PORT_PFSEL_DENIED, &pid));
	ASSERT_TRUE(stack_pfsel_record(pid, " verdict=deny ", record,
				       sizeof(record)))
	{
		TH_LOG("no pfsel denial of pid %d", pid);
	}
	TH_LOG("pfsel: %s", record);
	EXPECT_NE(NULL, strstr(record, " op=connect "));
	EXPECT_NE(NULL, strstr(record, " rport=5602 "));
	EXPECT_NE(NULL, strstr(record, " permissive=0 "));
	EXPECT_NE(NULL, strstr(record, " subj=" PROBE_CONTEXT));
	EXPECT_EQ(0, pfsel_drain(self->peers[1]));

	/* SELinux itself lets the domain through. */
	ASSERT_EQ(0, probe(0, PROBE_CONTEXT, PORT_PFSEL_DENIED, NULL));
	EXPECT_EQ(1, pfsel_drain(self->peers[1]));
}

/*
 * What both allow goes through: port 5603 from the probe's domain, and
 * port 5601 from the init's domain, which SELinux lets connect anywhere
 * (the denial is the domain's, not the port's).
 */
TEST_F(stack, allowed_path_works)
{
	ASSERT_EQ(0, probe(PFSEL_UID1, PROBE_CONTEXT, PORT_ALLOWED, NULL));
	EXPECT_EQ(1, pfsel_drain(self->peers[2]));
	ASSERT_EQ(0, probe(PFSEL_UID1, NULL, PORT_SELINUX_DENIED, NULL));
	EXPECT_EQ(1, pfsel_drain(self->peers[0]));
}

/*
 * pfsel status shows SELinux's mode and the caller's context, pfsel log
 * the subject's context of each decision, in text and in JSON.
 */
TEST_F(stack, pfsel_command_shows_contexts)
{
	char out[65536];
	pid_t pid = 0;

	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status"));
	EXPECT_NE(NULL, strstr(out, "SELinux mode:           enforcing\n"))
	{
		TH_LOG("%s", out);
	}
	EXPECT_NE(NULL,
		  strstr(out, "SELinux context:        " INIT_CONTEXT "\n"));
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel status --json"));
	EXPECT_NE(NULL, strstr(out, "\"selinux\":{\"mode\":\"enforcing\","
				    "\"context\":\"" INIT_CONTEXT "\"}"))
	{
		TH_LOG("%s", out);
	}

	ASSERT_EQ(EACCES,
		  probe(PFSEL_UID1, PROBE_CONTEXT, PORT_PFSEL_DENIED, &pid));
	{
		char record[4096];

		ASSERT_TRUE(
			stack_pfsel_record(pid, NULL, record, sizeof(record)));
	}
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel log --uid=1001 -n 1"));
	EXPECT_NE(NULL, strstr(out, " subj=" PROBE_CONTEXT "\n"))
	{
		TH_LOG("%s", out);
	}
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out),
			      "pfsel log --uid=1001 -n 1 --json"));
	EXPECT_NE(NULL, strstr(out, "\"subj\":\"" PROBE_CONTEXT "\""))
	{
		TH_LOG("%s", out);
	}
}

/*
 * As anyone (pfuser1 in run-suite): SELinux confines the domain the
 * caller asks for with setexeccon(), and only that domain.
 */
TEST(unprivileged_probe)
{
	static const unsigned short ports[] = { PORT_SELINUX_DENIED,
						PORT_ALLOWED };
	int peers[2] = { -1, -1 };

	if (!stack_begin(_metadata))
		return;
	expect_selinux_enforcing(_metadata);
	ASSERT_TRUE(stack_listen(ports, peers, 2));
	EXPECT_EQ(EACCES,
		  probe(getuid(), PROBE_CONTEXT, PORT_SELINUX_DENIED, NULL));
	EXPECT_EQ(0, probe(getuid(), PROBE_CONTEXT, PORT_ALLOWED, NULL));
	EXPECT_EQ(0, probe(getuid(), NULL, PORT_SELINUX_DENIED, NULL));
	close(peers[0]);
	close(peers[1]);
}

TEST_HARNESS_MAIN
