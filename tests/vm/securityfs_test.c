// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the module is stacked and its securityfs interface is
 * in place with safe permissions.  The files' modes are stat()ed and a
 * write to a file without a write method is tried raw: the test plays a
 * program that writes where nothing should be written.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "pfsel_test_util.h"

static size_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return 0;
	buf[len] = '\0';
	return (size_t)len;
}

TEST(pfsel_stacked_beside_landlock)
{
	char lsm[512];

	ASSERT_LT((size_t)0, read_file("/sys/kernel/security/lsm", lsm, sizeof(lsm)));
	TH_LOG("active LSMs: %s", lsm);
	EXPECT_TRUE(pfsel_list_has(lsm, "pfsel"));
	EXPECT_TRUE(pfsel_list_has(lsm, "landlock"));
	/* A major LSM runs beside pfsel. */
	EXPECT_TRUE(pfsel_list_has(lsm, "selinux") ||
		    pfsel_list_has(lsm, "apparmor"));
}

FIXTURE(securityfs_file)
{
	struct stat st;
};

FIXTURE_VARIANT(securityfs_file)
{
	const char *path;
	mode_t mode;
};

FIXTURE_VARIANT_ADD(securityfs_file, directory)
{
	.path = PFSEL_SECURITYFS_DEFAULT,
	.mode = S_IFDIR | 0755,
};

FIXTURE_VARIANT_ADD(securityfs_file, status)
{
	.path = PFSEL_SECURITYFS_DEFAULT "/status",
	.mode = S_IFREG | 0444,
};

FIXTURE_VARIANT_ADD(securityfs_file, hooks)
{
	.path = PFSEL_SECURITYFS_DEFAULT "/hooks",
	.mode = S_IFREG | 0444,
};

FIXTURE_SETUP(securityfs_file)
{
	ASSERT_EQ(0, stat(variant->path, &self->st))
	{
		TH_LOG("stat(%s): %s", variant->path, strerror(errno));
	}
}

FIXTURE_TEARDOWN(securityfs_file)
{
}

TEST_F(securityfs_file, owned_by_root_and_not_writable_by_others)
{
	EXPECT_EQ(variant->mode, self->st.st_mode);
	EXPECT_EQ(0u, self->st.st_mode & (S_IWGRP | S_IWOTH));
	EXPECT_EQ(0u, self->st.st_uid);
	EXPECT_EQ(0u, self->st.st_gid);
}

TEST_F(securityfs_file, refuses_writes)
{
	int fd;

	if (S_ISDIR(self->st.st_mode))
		SKIP(return, "a directory");
	fd = open(variant->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		/* The mode keeps everyone but a capable root out. */
		EXPECT_EQ(EACCES, errno);
		EXPECT_NE(0u, geteuid());
		return;
	}
	/* Root passes the mode check, but the file has no write method. */
	EXPECT_EQ(0u, geteuid());
	EXPECT_EQ(-1, write(fd, "x", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* Every line of the documented form: libpfsel parses it strictly. */
TEST(status_reports_version_and_mode)
{
	struct pfsel_status status;

	ASSERT_EQ(0, pfsel_get_status(&status))
	{
		TH_LOG("%s", pfsel_last_error());
	}
	EXPECT_LE(1u, status.version);
	TH_LOG("version %u, %s", status.version,
	       status.enforcing ? "enforcing" : "permissive");
}

TEST(hooks_lists_every_hook)
{
	static const char *const hooks[] = {
		"socket_create",
		"socket_bind",
		"socket_connect",
		"socket_listen",
		"socket_accept",
		"socket_sendmsg",
		"inet_conn_request",
		"bprm_creds_for_exec",
		"bprm_creds_from_file",
		"bprm_committing_creds",
		"file_open",
	};
	size_t i;

	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		const int64_t calls = pfsel_hook_calls(hooks[i]);

		if (calls < 0)
			ksft_print_msg("no line for %s\n", hooks[i]);
		EXPECT_LE(0, calls);
	}
}

/* Make @n TCP sockets: @n decided socket_create calls while a policy is loaded. */
static void make_sockets(int n)
{
	while (n-- > 0) {
		const int fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd >= 0)
			close(fd);
	}
}

/*
 * hook_timing: off at boot; while off, hooks count calls and no time at
 * all; on, they add time; only an administrator may switch it.
 */
TEST(hook_timing_times_only_when_on)
{
	int64_t calls0, ns0, calls1, ns1, calls2, ns2;
	long long start;

	if (geteuid() != 0) {
		/* 0644: a user cannot even open it for writing. */
		EXPECT_EQ(-EACCES, pfsel_set_hook_timing(false));
		return;
	}
	EXPECT_EQ(0, pfsel_get_hook_timing());
	/* Hooks decide (and so may be timed) only while a policy is loaded. */
	ASSERT_EQ(0, pfsel_load("enforce_1001"));

	ASSERT_TRUE(pfsel_hook_read("socket_create", &calls0, &ns0));
	make_sockets(20);
	ASSERT_TRUE(pfsel_hook_read("socket_create", &calls1, &ns1));
	EXPECT_LE(calls0 + 20, calls1);
	/* No CPU times anything while timing is off. */
	EXPECT_EQ(ns0, ns1);

	/* Raw: "1" as a shell writes it, with its newline. */
	ASSERT_EQ(0, pfsel_write_raw("hook_timing", "1\n"));
	EXPECT_EQ(1, pfsel_get_hook_timing());
	/*
	 * Should the guest's clock have fallen back to jiffies (a TSC the
	 * watchdog found unstable), calls add time only across a tick: make
	 * sockets until some time is counted, for up to 10 seconds.
	 */
	start = pfsel_now_ms();
	do {
		make_sockets(20);
		ASSERT_TRUE(pfsel_hook_read("socket_create", &calls2, &ns2));
	} while (ns2 == ns1 && pfsel_now_ms() - start < 10000);
	EXPECT_LE(calls1 + 20, calls2);
	EXPECT_LT(ns1, ns2);

	/* Raw: values libpfsel never writes. */
	EXPECT_EQ(-EINVAL, pfsel_write_raw("hook_timing", "2"));
	EXPECT_EQ(-EINVAL, pfsel_write_raw("hook_timing", "on"));
	ASSERT_EQ(0, pfsel_set_hook_timing(false));
	EXPECT_EQ(0, pfsel_get_hook_timing());

	pfsel_reset();

	/* Without CAP_MAC_ADMIN, root switches nothing (this child only). */
	ASSERT_EQ(0, pfsel_drop_mac_admin());
	EXPECT_EQ(-EPERM, pfsel_set_hook_timing(true));
	EXPECT_EQ(0, pfsel_get_hook_timing());
}

TEST_HARNESS_MAIN
