// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the module is stacked and its securityfs interface is
 * in place with safe permissions.
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
	.path = PFSEL_SECURITYFS,
	.mode = S_IFDIR | 0755,
};

FIXTURE_VARIANT_ADD(securityfs_file, status)
{
	.path = PFSEL_SECURITYFS "/status",
	.mode = S_IFREG | 0444,
};

FIXTURE_VARIANT_ADD(securityfs_file, hooks)
{
	.path = PFSEL_SECURITYFS "/hooks",
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

TEST(status_reports_version_and_mode)
{
	char status[256];
	int version = 0;
	char mode[32] = "";

	ASSERT_LT((size_t)0, read_file(PFSEL_SECURITYFS "/status", status,
			       sizeof(status)));
	EXPECT_EQ(1, sscanf(status, "version: %d", &version));
	EXPECT_LE(1, version);
	ASSERT_NE(NULL, strstr(status, "mode: "));
	EXPECT_EQ(1, sscanf(strstr(status, "mode: "), "mode: %31s", mode));
	EXPECT_TRUE(strcmp(mode, "enforcing") == 0 ||
		    strcmp(mode, "permissive") == 0);
}

TEST(hooks_lists_every_hook)
{
	static const char *const hooks[] = {
		"socket_create", "socket_bind",	  "socket_connect",
		"socket_listen", "socket_accept", "socket_sendmsg",
		"inet_conn_request",
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
	char value[8];

	if (geteuid() != 0) {
		/* 0644: a user cannot even open it for writing. */
		EXPECT_EQ(-EACCES, pfsel_open_w("hook_timing"));
		return;
	}
	ASSERT_EQ(2, pfsel_read_file(PFSEL_SECURITYFS "/hook_timing", value,
				     sizeof(value)));
	EXPECT_STREQ("0\n", value);
	/* Hooks decide (and so may be timed) only while a policy is loaded. */
	ASSERT_EQ(0, pfsel_load("enforce_1001"));

	ASSERT_TRUE(pfsel_hook_read("socket_create", &calls0, &ns0));
	make_sockets(20);
	ASSERT_TRUE(pfsel_hook_read("socket_create", &calls1, &ns1));
	EXPECT_LE(calls0 + 20, calls1);
	/* No CPU times anything while timing is off. */
	EXPECT_EQ(ns0, ns1);

	ASSERT_EQ(0, pfsel_write_str("hook_timing", "1\n"));
	ASSERT_EQ(2, pfsel_read_file(PFSEL_SECURITYFS "/hook_timing", value,
				     sizeof(value)));
	EXPECT_STREQ("1\n", value);
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

	EXPECT_EQ(-EINVAL, pfsel_write_str("hook_timing", "2"));
	EXPECT_EQ(-EINVAL, pfsel_write_str("hook_timing", "on"));
	ASSERT_EQ(0, pfsel_write_str("hook_timing", "0"));
	ASSERT_EQ(2, pfsel_read_file(PFSEL_SECURITYFS "/hook_timing", value,
				     sizeof(value)));
	EXPECT_STREQ("0\n", value);

	pfsel_reset();

	/* Without CAP_MAC_ADMIN, root switches nothing (this child only). */
	ASSERT_EQ(0, pfsel_drop_mac_admin());
	EXPECT_EQ(-EPERM, pfsel_write_str("hook_timing", "1"));
	ASSERT_EQ(2, pfsel_read_file(PFSEL_SECURITYFS "/hook_timing", value,
				     sizeof(value)));
	EXPECT_STREQ("0\n", value);
}

TEST_HARNESS_MAIN
