// SPDX-License-Identifier: GPL-2.0
/*
 * The application a process is judged as (policy/LANGUAGE.md, section 5):
 * the file it executed, named by path, and only when the path names that
 * same file as the init process sees it.  A bind mount in a mount
 * namespace of one's own must not let another program pose as one the
 * policy names.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "pfsel_test_util.h"

#define COPY "/tmp/pfsel-netprobe-copy"

FIXTURE(identity)
{
	int peer[2];
};

FIXTURE_SETUP(identity)
{
	self->peer[0] = self->peer[1] = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and mounting need root");
	pfsel_reset();
	ASSERT_EQ(0, system("cp " PFSEL_NETPROBE " " COPY
			    " && chmod 755 " COPY));
	ASSERT_EQ(0, pfsel_load("identity_1001"));
	self->peer[0] = pfsel_peer(SOCK_STREAM, "127.0.0.1", 5601);
	ASSERT_LE(0, self->peer[0]);
	self->peer[1] = pfsel_peer(SOCK_STREAM, "127.0.0.1", 5602);
	ASSERT_LE(0, self->peer[1]);
}

FIXTURE_TEARDOWN(identity)
{
	if (self->peer[0] >= 0)
		close(self->peer[0]);
	if (self->peer[1] >= 0)
		close(self->peer[1]);
	if (geteuid() == 0) {
		pfsel_reset();
		unlink(COPY);
	}
}

/* Exit status of @exe connecting to 127.0.0.1:@port as pfuser1. */
static int connect_as_user(const char *exe, unsigned short port)
{
	return pfsel_netprobe_as(PFSEL_UID1, exe, "connect", "127.0.0.1", port,
				 NULL);
}

TEST_F(identity, named_executable_is_judged_by_its_path)
{
	EXPECT_EQ(0, connect_as_user(PFSEL_NETPROBE, 5601));
	EXPECT_EQ(EACCES, connect_as_user(PFSEL_NETPROBE, 5602));
}

TEST_F(identity, a_copy_is_another_application)
{
	EXPECT_EQ(EACCES, connect_as_user(COPY, 5601));
	EXPECT_EQ(0, connect_as_user(COPY, 5602));
}

/*
 * In a mount namespace of its own, a child either leaves netprobe where it
 * is or bind-mounts the copy over it, then runs netprobe's path as pfuser1.
 */
static int run_in_own_mount_ns(bool spoof, unsigned short port)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			_exit(124);
		if (spoof && mount(COPY, PFSEL_NETPROBE, NULL, MS_BIND, NULL))
			_exit(124);
		_exit(connect_as_user(PFSEL_NETPROBE, port));
	}
	return pfsel_wait_status(pid);
}

TEST_F(identity, own_mount_namespace_keeps_the_name)
{
	EXPECT_EQ(0, run_in_own_mount_ns(false, 5601));
}

TEST_F(identity, bind_mount_over_a_named_path_is_unnamed)
{
	/* Not netprobe, though its path says so; not the copy either. */
	EXPECT_EQ(EACCES, run_in_own_mount_ns(true, 5601));
	EXPECT_EQ(EACCES, run_in_own_mount_ns(true, 5602));
}

TEST_HARNESS_MAIN
