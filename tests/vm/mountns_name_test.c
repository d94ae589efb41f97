// SPDX-License-Identifier: GPL-2.0
/*
 * A program that a mount namespace runs at a path init does not know is
 * named by where init's own mounts reach that very file (policy/
 * LANGUAGE.md, section 5; security/pfsel/mounts.c), built here in the
 * shapes Flatpak and snap give it, without their packages:
 *
 * - Flatpak: the application's files under
 *   /var/lib/flatpak/app/ID/ARCH/BRANCH/COMMIT/files, which bubblewrap,
 *   as the user, in a user and mount namespace of the user's own, binds
 *   at /app of a new root (a tmpfs with the runtime's /usr) before
 *   pivot_root; the application runs as /app/bin/x.
 * - Snap: a squashfs image, made by mksquashfs and mounted by root at
 *   /snap/NAME/REV in init's namespace (through squashfuse, as snapd
 *   mounts it where the kernel has no squashfs: the test kernel has no
 *   block devices), and run from another mount namespace at another
 *   path.  The kernel's squashfs on a loop device, snapd's usual mount,
 *   is a file system as this one is to the naming (mounts.c works by
 *   device and folder), and is not built into the test kernel.
 *
 * And the attacker's tries, which keep the refusals that held before: a
 * copy of the application is its own application; the user's own program
 * bound over /app/bin/x is named by its own place, or unnamed when init
 * reaches it nowhere (a tmpfs of the user's namespace); a file that init
 * reaches only under another name (a hard link of the application, in a
 * folder init's tree hides) is unnamed.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "flatpak_sandbox.h"
#include "kselftest_harness.h"
#include "pfsel_test_util.h"

#define WORK "/tmp/pfsel-mountns"
/* bubblewrap's new root, in the namespace that mounts a tmpfs on it. */
#define SANDBOX WORK "/sandbox"
/* pfuser1's folder and copy of the application (5612). */
#define HOME WORK "/home"
#define HOME_X HOME "/x"
/* init's other bind of the application's folder (5615). */
#define OPT_APP WORK "/opt-app"
/*
 * The root a system booted from a disk has: the VM's root is the
 * initramfs (rootfs), which pivot_root() cannot move away, and a
 * system's root is a file system mounted over it (switch_root).  The
 * sandbox's namespace binds init's tree here, moves it over its "/" and
 * enters it first, as switch_root does.
 */
#define DISK_ROOT WORK "/disk-root"
/* Where a mount namespace of root's shows a folder: empty in init's. */
#define VIEW WORK "/view"

#define APP_ID "org.test.App"
#define APP_DIR "/var/lib/flatpak/app/" APP_ID
#define COMMIT \
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define FILES APP_DIR "/x86_64/stable/" COMMIT "/files"
#define FILES_X FILES "/bin/x"
/* A script of the application's, netprobe its interpreter. */
#define FILES_SCRIPT FILES "/bin/s"

/* A folder of root's with a hard link of the application (rootfs). */
#define HIDDEN "/var/lib/pfsel-hidden"

#define SNAP_SRC WORK "/snap-src"
#define SNAP_IMAGE WORK "/pfseltest.squashfs"
#define SNAP_DIR "/snap/pfseltest/1"

#define PORT_FLATPAK 5611
#define PORT_HOME 5612
#define PORT_SNAP 5613
#define PORT_NAMED 5614
#define PORT_OPT 5615
#define PORT_SCRIPT 5616
#define PORTS 6

#define SETUP_FAILED 124

FIXTURE(mountns)
{
	int peer[PORTS];
};

FIXTURE_SETUP(mountns)
{
	int i;

	for (i = 0; i < PORTS; i++)
		self->peer[i] = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and mounting need root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " WORK " " APP_DIR " " HIDDEN));
	ASSERT_EQ(0,
		  system("mkdir -p " FILES "/bin " SANDBOX " " VIEW
			 " " DISK_ROOT " " OPT_APP " " HOME " " HIDDEN "/bin"));
	/* The application, and its hard link in HIDDEN. */
	ASSERT_EQ(0, pfsel_copy_file(PFSEL_NETPROBE, FILES_X, 0755));
	ASSERT_EQ(0, link(FILES_X, HIDDEN "/bin/x"));
	ASSERT_EQ(0, pfsel_create_file(FILES_SCRIPT, "#!" PFSEL_NETPROBE "\n",
				       0755));
	/* pfuser1's copies. */
	ASSERT_EQ(0, pfsel_copy_file(PFSEL_NETPROBE, HOME_X, 0755));
	ASSERT_EQ(0, pfsel_copy_file(FILES_SCRIPT, HOME "/s", 0755));
	ASSERT_EQ(0, system("chown -R 1001:1001 " HOME));
	ASSERT_EQ(0, pfsel_load("mountns_1001"));
	for (i = 0; i < PORTS; i++) {
		self->peer[i] =
			pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_FLATPAK + i);
		ASSERT_LE(0, self->peer[i]);
	}
}

FIXTURE_TEARDOWN(mountns)
{
	int i;

	for (i = 0; i < PORTS; i++)
		if (self->peer[i] >= 0)
			close(self->peer[i]);
	if (geteuid() == 0) {
		pfsel_reset();
		umount2(OPT_APP, MNT_DETACH);
		umount2(HIDDEN, MNT_DETACH);
		system("umount " SNAP_DIR " 2>/dev/null; rm -rf " WORK
		       " " APP_DIR " " HIDDEN " /snap/pfseltest");
	}
}

/* netprobe's connect, as the process calling it: its errno (0: done). */
static int exec_connect(const char *exe, unsigned short port)
{
	char port_text[8];
	char *const argv[] = {
		(char *)exe, "connect", "inet", "127.0.0.1", port_text, NULL,
	};

	snprintf(port_text, sizeof(port_text), "%u", port);
	execv(exe, argv);
	return 127;
}

/* ---- Flatpak's shape ---------------------------------------------------- */

enum over_app {
	OVER_NOTHING,
	/* pfuser1's copy, from a folder init reaches, over /app/bin/x. */
	OVER_HOME_COPY,
	/* A copy in a tmpfs of pfuser1's namespace, over /app/bin/x. */
	OVER_OWN_TMPFS,
};

struct flatpak_run {
	enum over_app over;
	const char *exe; /* the path run, in the sandbox */
	unsigned short port;
};

/*
 * As pfuser1, what bubblewrap does for `flatpak run` (flatpak_sandbox.h)
 * in a user and mount namespace of the user's own, the application's
 * files at /app; then run the application.  Its errno, or SETUP_FAILED.
 */
static int flatpak_child(void *arg)
{
	const struct flatpak_run *const run = arg;

	if (pfsel_enter_userns(CLONE_NEWNS) ||
	    flatpak_sandbox_begin(DISK_ROOT, SANDBOX) ||
	    mkdir(SANDBOX "/app", 0755) || mkdir(SANDBOX "/home", 0755) ||
	    mkdir(SANDBOX "/tmp", 0755))
		return SETUP_FAILED;
	if (mount(FILES, SANDBOX "/app", NULL, MS_BIND | MS_REC, NULL) ||
	    mount(HOME, SANDBOX "/home", NULL, MS_BIND, NULL))
		return SETUP_FAILED;
	if (run->over == OVER_HOME_COPY &&
	    mount(HOME_X, SANDBOX "/app/bin/x", NULL, MS_BIND, NULL))
		return SETUP_FAILED;
	if (run->over == OVER_OWN_TMPFS &&
	    (mount("tmpfs", SANDBOX "/tmp", "tmpfs", 0, NULL) ||
	     pfsel_copy_file(PFSEL_NETPROBE, SANDBOX "/tmp/x", 0755) ||
	     mount(SANDBOX "/tmp/x", SANDBOX "/app/bin/x", NULL, MS_BIND,
		   NULL)))
		return SETUP_FAILED;
	if (flatpak_sandbox_pivot(SANDBOX))
		return SETUP_FAILED;
	return exec_connect(run->exe, run->port);
}

static int flatpak_run(enum over_app over, const char *exe, unsigned short port)
{
	struct flatpak_run run = { over, exe, port };

	return pfsel_run_as(PFSEL_UID1, flatpak_child, &run);
}

/*
 * /app/bin/x is named by the application's place under /var/lib/flatpak:
 * its rule allows it, and it is a named program (5614); pfuser1's copy's
 * rule does not.
 */
TEST_F_TIMEOUT(mountns, flatpak_app_is_named_by_its_place, 120)
{
	EXPECT_EQ(0, flatpak_run(OVER_NOTHING, "/app/bin/x", PORT_FLATPAK));
	EXPECT_EQ(0, flatpak_run(OVER_NOTHING, "/app/bin/x", PORT_NAMED));
	EXPECT_EQ(EACCES, flatpak_run(OVER_NOTHING, "/app/bin/x", PORT_HOME));
}

/* As pfuser1 in init's namespace: @arg's program, its connect. */
static int init_ns_child(void *arg)
{
	const struct flatpak_run *const run = arg;

	return exec_connect(run->exe, run->port);
}

/*
 * A script of the application's, run as /app/bin/s in the sandbox: a
 * user namespace of pfuser1's, where pfuser1 could make the name lead
 * elsewhere before the interpreter opens it (adv_fpname_test), so it
 * gives no script identity: netprobe run by hand, which the script's
 * rule does not allow.  Control: the same script run by its place from
 * init's namespace is netprobe with the script, allowed; pfuser1's copy
 * of the script is not it either way.
 */
TEST_F_TIMEOUT(mountns, flatpak_script_is_its_interpreter_in_the_sandbox, 120)
{
	struct flatpak_run by_place = { OVER_NOTHING, FILES_SCRIPT,
					PORT_SCRIPT };

	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, init_ns_child, &by_place));
	EXPECT_EQ(EACCES, flatpak_run(OVER_NOTHING, "/app/bin/s", PORT_SCRIPT));
	EXPECT_EQ(EACCES, flatpak_run(OVER_NOTHING, "/home/s", PORT_SCRIPT));
	EXPECT_EQ(EACCES,
		  flatpak_run(OVER_NOTHING, PFSEL_NETPROBE, PORT_SCRIPT));
}

/*
 * The control: pfuser1's copy of the application is its own application,
 * whether run in init's namespace or from the sandbox (at /home/x there,
 * which init does not know): named by its own place, never the
 * application's.
 */
TEST_F_TIMEOUT(mountns, a_copy_is_named_by_its_own_place, 120)
{
	EXPECT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, HOME_X, "connect",
				       "127.0.0.1", PORT_HOME, NULL));
	EXPECT_EQ(EACCES, pfsel_netprobe_as(PFSEL_UID1, HOME_X, "connect",
					    "127.0.0.1", PORT_FLATPAK, NULL));
	EXPECT_EQ(0, flatpak_run(OVER_NOTHING, "/home/x", PORT_HOME));
	EXPECT_EQ(EACCES, flatpak_run(OVER_NOTHING, "/home/x", PORT_FLATPAK));
}

/*
 * The attacker binds a program of its own over /app/bin/x in its own
 * namespace: one from a folder init reaches is named by that folder (the
 * name it has when run there), never the application's; one from a
 * tmpfs of its namespace, which init reaches nowhere, is unnamed.
 */
TEST_F_TIMEOUT(mountns, own_program_over_app_is_not_the_app, 120)
{
	EXPECT_EQ(EACCES,
		  flatpak_run(OVER_HOME_COPY, "/app/bin/x", PORT_FLATPAK));
	EXPECT_EQ(0, flatpak_run(OVER_HOME_COPY, "/app/bin/x", PORT_HOME));

	EXPECT_EQ(EACCES,
		  flatpak_run(OVER_OWN_TMPFS, "/app/bin/x", PORT_FLATPAK));
	EXPECT_EQ(EACCES,
		  flatpak_run(OVER_OWN_TMPFS, "/app/bin/x", PORT_NAMED));
}

/*
 * Init binds the application's folder elsewhere too: in init's namespace
 * that path names the file (its own path, as ever), but from the sandbox
 * the name is the bind's source, under /var/lib/flatpak, whatever order
 * the mounts were made in.
 */
TEST_F_TIMEOUT(mountns, the_bind_source_is_the_name, 120)
{
	ASSERT_EQ(0, mount(FILES, OPT_APP, NULL, MS_BIND, NULL));
	EXPECT_EQ(0, flatpak_run(OVER_NOTHING, "/app/bin/x", PORT_FLATPAK));
	EXPECT_EQ(EACCES, flatpak_run(OVER_NOTHING, "/app/bin/x", PORT_OPT));
	EXPECT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, OPT_APP "/bin/x", "connect",
				       "127.0.0.1", PORT_OPT, NULL));
	EXPECT_EQ(EACCES,
		  pfsel_netprobe_as(PFSEL_UID1, OPT_APP "/bin/x", "connect",
				    "127.0.0.1", PORT_FLATPAK, NULL));
	EXPECT_EQ(0, umount2(OPT_APP, 0));
}

/* ---- A namespace of root's that shows a folder at VIEW ------------------ */

struct view_run {
	const char *shown; /* the folder bound at VIEW */
	const char *hide; /* a folder init covers with a tmpfs once bound */
	const char *exe; /* the path run */
	unsigned short port;
};

/*
 * A child in a mount namespace of root's (snap-confine's, or a container
 * manager's) binds @run->shown at VIEW; then init's namespace covers
 * @run->hide, if any, and the child runs @run->exe as pfuser1.  The
 * program's errno, or SETUP_FAILED.
 */
static int view_run(const struct view_run *run)
{
	int ready[2], go[2], status;
	char byte = 0;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return SETUP_FAILED;
	pid = fork();
	if (pid < 0)
		return SETUP_FAILED;
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(run->shown, VIEW, NULL, MS_BIND, NULL))
			_exit(SETUP_FAILED);
		if (write(ready[1], &byte, 1) != 1 ||
		    read(go[0], &byte, 1) != 1)
			_exit(SETUP_FAILED);
		_exit(pfsel_netprobe_as(PFSEL_UID1, run->exe, "connect",
					"127.0.0.1", run->port, NULL));
	}
	if (read(ready[0], &byte, 1) != 1 ||
	    (run->hide && mount("tmpfs", run->hide, "tmpfs", 0, NULL)))
		byte = 1;
	if (write(go[1], &byte, 1) != 1)
		kill(pid, SIGKILL);
	status = pfsel_wait_status(pid);
	if (run->hide)
		umount2(run->hide, MNT_DETACH);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	return byte ? SETUP_FAILED : status;
}

/*
 * A hard link of the application in a folder of root's, shown at VIEW by
 * another namespace: named by the folder's place while init reaches it;
 * once init's tree covers the folder, init reaches that file only under
 * another name (the application's, a link of the same inode): unnamed.
 */
TEST_F_TIMEOUT(mountns, reached_only_under_another_name_is_unnamed, 120)
{
	const struct view_run seen = { HIDDEN, NULL, VIEW "/bin/x",
				       PORT_NAMED };
	const struct view_run hidden = { HIDDEN, HIDDEN, VIEW "/bin/x",
					 PORT_NAMED };
	const struct view_run hidden_app = { HIDDEN, HIDDEN, VIEW "/bin/x",
					     PORT_FLATPAK };

	EXPECT_EQ(0, view_run(&seen));
	EXPECT_EQ(EACCES, view_run(&hidden));
	EXPECT_EQ(EACCES, view_run(&hidden_app));
}

/*
 * A snap: a squashfs image that root mounts at /snap/pfseltest/1 (FUSE's
 * allow_other: for every user, as snapd's mounts are), run in init's
 * namespace at that path (its own path) and from another mount namespace
 * at VIEW (named by its place under /snap).
 */
TEST_F_TIMEOUT(mountns, snap_is_named_by_its_place, 120)
{
	const struct view_run from_view = { SNAP_DIR, NULL, VIEW "/bin/x",
					    PORT_SNAP };
	const struct view_run not_the_app = { SNAP_DIR, NULL, VIEW "/bin/x",
					      PORT_FLATPAK };

	ASSERT_EQ(0, system("mkdir -p " SNAP_SRC "/bin " SNAP_DIR
			    " && cp " PFSEL_NETPROBE " " SNAP_SRC "/bin/x"
			    " && mksquashfs " SNAP_SRC " " SNAP_IMAGE
			    " -all-root -noappend -quiet >/dev/null"
			    " && squashfuse -o allow_other " SNAP_IMAGE
			    " " SNAP_DIR));
	EXPECT_EQ(0, pfsel_netprobe_as(PFSEL_UID1, SNAP_DIR "/bin/x", "connect",
				       "127.0.0.1", PORT_SNAP, NULL));
	EXPECT_EQ(0, view_run(&from_view));
	EXPECT_EQ(EACCES, view_run(&not_the_app));
}

TEST_HARNESS_MAIN
