// SPDX-License-Identifier: GPL-2.0
/*
 * adv_fpname_test - the adversary review of naming a program by where
 * init's mounts reach it (security/pfsel/mounts.c, exec.c's third step):
 * can pfuser1 run code of its own under a name a rule allows?
 *
 * The frame is mountns_name_test's Flatpak shape: pfuser1, in a user and
 * mount namespace of its own, makes a tmpfs root, binds the VM's runtime
 * and the application's files (root's, under /var/lib/flatpak) into it
 * and pivots into it.  The application has a script, bin/s, whose
 * interpreter is race_interp (script_race_test's: it opens the name the
 * kernel passed it, reads "trusted" or "evil", connects to RACE_PORT and
 * says by its exit status what it read and what the connect got).
 * Policy policies/adv_fpname_1001.pfw: only race_interp running a script
 * under /var/lib/flatpak/app/org.test.App may connect to RACE_PORT.  No
 * one listens there: allowed is ECONNREFUSED, denied EACCES.
 *
 * The attacks, each with a control showing the frame works:
 *
 * - script_repointed_in_sandbox: the child runs /app/bin/s, stopped at
 *   its exec (ptrace, as pfuser1 may trace its own child); its sibling in
 *   the same mount namespace then makes /app a symbolic link to a folder
 *   of the tmpfs with an "evil" bin/s (detach the bind, rmdir, symlink),
 *   so that the interpreter's open of "/app/bin/s" finds the attacker's
 *   file at another absolute path, which hook_file_open() does not
 *   compare with app->seen.  Controls: no change (trusted, allowed); the
 *   attacker's file bound over /app/bin/s itself (refused open).
 * - script_renamed_in_sandbox: the same with no mount change after exec:
 *   the application is bound at /sb/app, and the sibling renames /sb (a
 *   plain folder of its tmpfs: a rename in a folder of its own) and puts
 *   a symbolic link there.
 * - script_repointed_by_init_name: the hole as it was before the third
 *   step: the script run by its own path (init's), the sibling mounts a
 *   tmpfs over a folder on that path, with a link where the next folder
 *   was.
 * - mount_churn_while_named: root changes init's mounts in a loop (each
 *   counted, so each exec copies init's tree again) while pfuser1's
 *   sandbox runs the script repeatedly: every run stays named (and the
 *   kernel's lock checking sees the worker, namespace_sem and exec's
 *   cred_guard_mutex together).
 *
 * Result when written (wt-fpname): the three script attacks GET OUT, each
 * every time: race_interp reads the attacker's "evil" script and its
 * connect is allowed as "race_interp script /var/lib/flatpak/app/
 * org.test.App/.../bin/s" (status RACE_EVIL_ALLOWED); the controls hold
 * (unchanged: allowed; bound over the path itself: refused).  The watch
 * in hook_file_open() compares the opened file's absolute path with the
 * one seen at exec, and a symbolic link put on the way (where a folder of
 * the name was) leads the same name to a file at another absolute path.
 * In the sandbox the folders of app->seen are the attacker's own (its
 * tmpfs root), so a rename suffices; by init's name it takes a mount in a
 * namespace of its own.
 * mount_churn_while_named passed: 20 runs named and allowed, no lock
 * report on the console.
 *
 * The fix (exec.c, name_is_root_s()): a script is named only when the
 * exec'ing task is of the initial user namespace, whose mounts only root
 * changes; in a sandbox of the user's making the process is the
 * interpreter run by hand.  So each script case now shows: by its place
 * from init's namespace, the script is named and allowed (the control);
 * in pfuser1's namespace, unchanged or attacked, race_interp runs
 * without the script and is denied, and the attacker's file never runs
 * as the application's.  The churn runs the application's own program
 * (bin/ri, a copy of race_interp), which is named by its place.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "flatpak_sandbox.h"
#include "pfsel_test_util.h"
#include "race_attack.h"

#include "kselftest_harness.h"

#define WORK "/tmp/pfsel-advfp"
#define SANDBOX WORK "/sandbox"
#define DISK_ROOT WORK "/disk-root"
#define CHURN WORK "/churn"

#define INTERP PFSEL_TESTS_DIR "/race_interp"
#define APP_DIR "/var/lib/flatpak/app/org.test.App"
#define STABLE APP_DIR "/x86_64/stable"
#define COMMIT "0123456789abcdef"
#define FILES STABLE "/" COMMIT "/files"
#define FILES_SCRIPT FILES "/bin/s"

enum change {
	CHANGE_NONE,
	/* The attacker's file bound over the script's own path. */
	CHANGE_BIND_OVER,
	/* /app detached, and made a link to the attacker's folder. */
	CHANGE_APP_TO_LINK,
	/* /sb renamed away, a link to the attacker's folder in its place. */
	CHANGE_RENAME_TO_LINK,
	/* Init's path: a tmpfs over STABLE, COMMIT a link in it. */
	CHANGE_INIT_PATH_LINK,
};

struct attack {
	enum change change;
	bool sandbox; /* the Flatpak shape; else init's paths, own ns */
	bool at_sb; /* the application bound at /sb/app, not /app */
	int runs; /* mount_churn: runs, each must be trusted + allowed */
};

FIXTURE(advfp)
{
	int unused;
};

FIXTURE_SETUP(advfp)
{
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and mounting need root");
	pfsel_reset();
	ASSERT_EQ(0, system("rm -rf " WORK " " APP_DIR));
	ASSERT_EQ(0, system("mkdir -p " FILES "/bin " SANDBOX " " DISK_ROOT
			    " " CHURN));
	ASSERT_EQ(0, pfsel_create_file(FILES_SCRIPT,
				       "#!" INTERP "\ntrusted\n", 0755));
	ASSERT_EQ(0, pfsel_copy_file(INTERP, FILES "/bin/ri", 0755));
	ASSERT_EQ(0, pfsel_load("adv_fpname_1001"));
}

FIXTURE_TEARDOWN(advfp)
{
	if (geteuid() == 0) {
		pfsel_reset();
		umount2(CHURN, MNT_DETACH);
		system("rm -rf " WORK " " APP_DIR);
	}
}

/* The attacker's script, "evil", at @path (folders made). */
static int evil_at(const char *path)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	if (system(cmd))
		return -1;
	return pfsel_create_file(path, "#!" INTERP "\nevil\n", 0755);
}

/* bubblewrap's steps (flatpak_sandbox.h), the app at @at. */
static int enter_sandbox(const char *at)
{
	char where[256];

	if (flatpak_sandbox_begin(DISK_ROOT, SANDBOX))
		return -1;
	snprintf(where, sizeof(where), SANDBOX "%s", at);
	if (system("mkdir -p " SANDBOX "/sb") || mkdir(where, 0755) ||
	    mount(FILES, where, NULL, MS_BIND | MS_REC, NULL))
		return -1;
	/* The attacker's folder in the sandbox: /evil/app/bin/s. */
	if (evil_at(SANDBOX "/evil/app/bin/s"))
		return -1;
	return flatpak_sandbox_pivot(SANDBOX);
}

/* What the attacker does while the child is stopped at @arg's exec. */
static int make_change(void *arg)
{
	switch (*(const enum change *)arg) {
	case CHANGE_NONE:
		return 0;
	case CHANGE_BIND_OVER:
		return mount("/evil/app/bin/s", "/app/bin/s", NULL, MS_BIND,
			     NULL);
	case CHANGE_APP_TO_LINK:
		if (umount2("/app", MNT_DETACH) || rmdir("/app"))
			return -1;
		return symlink("/evil/app", "/app");
	case CHANGE_RENAME_TO_LINK:
		/* No mount: a rename in a folder of the attacker's own. */
		if (rename("/sb", "/sb-old") || mkdir("/sb", 0755))
			return -1;
		return symlink("/evil/app", "/sb/app");
	case CHANGE_INIT_PATH_LINK:
		if (mount("tmpfs", STABLE, "tmpfs", 0, "mode=0755") ||
		    evil_at(STABLE "/evil/files/bin/s"))
			return -1;
		return symlink("evil", STABLE "/" COMMIT);
	}
	return -1;
}

/* Runs @script stopped at its exec, @change made meanwhile: its status. */
static int run_stopped(const char *script, enum change change)
{
	char *argv[] = { (char *)script, NULL };

	return race_run_stopped(pfsel_exec_fn, argv, make_change, &change);
}

/*
 * Runs the application's own program, bin/ri (race_interp's copy), on
 * @script, beside it: its status.
 */
static int run_program(const char *script)
{
	char ri[256];
	pid_t pid;

	snprintf(ri, sizeof(ri), "%.*s/ri", (int)(strrchr(script, '/') - script),
		 script);
	pid = fork();
	if (pid < 0)
		return ATTACK_FRAME_FAILED;
	if (pid == 0) {
		char *argv[] = { ri, (char *)script, NULL };

		execv(ri, argv);
		_exit(ATTACK_EXEC_FAILED);
	}
	return pfsel_wait_status(pid);
}

/* As pfuser1 (pfsel_run_as): the attack; the interpreter's status. */
static int attacker(void *arg)
{
	const struct attack *const a = arg;
	const char *script = FILES_SCRIPT;
	int i, status = 0;

	if (pfsel_enter_userns(CLONE_NEWNS))
		return ATTACK_SETUP_FAILED;
	if (a->sandbox) {
		if (enter_sandbox(a->at_sb ? "/sb/app" : "/app"))
			return ATTACK_SETUP_FAILED;
		script = a->at_sb ? "/sb/app/bin/s" : "/app/bin/s";
	}
	for (i = 0; i < (a->runs ? a->runs : 1); i++) {
		status = a->runs ? run_program(script) :
				   run_stopped(script, a->change);
		if (status != RACE_TRUSTED_ALLOWED)
			break;
	}
	return status;
}

static int attack(enum change change, bool sandbox)
{
	struct attack a = { change, sandbox,
			    change == CHANGE_RENAME_TO_LINK, 0 };

	return pfsel_run_as(PFSEL_UID1, attacker, &a);
}

/*
 * The control of every script case: the application's script run by its
 * place from init's namespace (no namespace of pfuser1's) is
 * race_interp with the script, allowed.
 */
static void control_by_place(struct __test_metadata *_metadata)
{
	char *argv[] = { FILES_SCRIPT, NULL };
	int result = pfsel_run_as(PFSEL_UID1, pfsel_exec_fn, argv);

	TH_LOG("control, by its place from init's namespace: %s (%d)",
	       race_attack_outcome(result), result);
	ASSERT_EQ(RACE_TRUSTED_ALLOWED, result);
}

/*
 * In the sandbox (a user namespace of pfuser1's) the script gives no
 * identity: race_interp run by hand, denied, unchanged or not (exec.c,
 * name_is_root_s()).  Before, the unchanged run was allowed and the
 * attack (/app made a link to the attacker's folder after the exec) ran
 * the attacker's file as the application's, allowed.
 */
TEST_F_TIMEOUT(advfp, script_repointed_in_sandbox, 240)
{
	int result;

	control_by_place(_metadata);
	result = attack(CHANGE_NONE, true);
	TH_LOG("in the sandbox, unchanged: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);
	result = attack(CHANGE_BIND_OVER, true);
	TH_LOG("the attacker's file bound over its path: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_EVIL_DENIED, result);

	result = attack(CHANGE_APP_TO_LINK, true);
	TH_LOG("attack, /app made a link after exec: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_EVIL_DENIED, result);
}

/* The same with a rename in the attacker's own folder, no mount change. */
TEST_F_TIMEOUT(advfp, script_renamed_in_sandbox, 240)
{
	struct attack unchanged = { CHANGE_NONE, true, true, 0 };
	int result;

	control_by_place(_metadata);
	result = pfsel_run_as(PFSEL_UID1, attacker, &unchanged);
	TH_LOG("/sb/app/bin/s unchanged: %s (%d)", race_attack_outcome(result),
	       result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);
	result = attack(CHANGE_RENAME_TO_LINK, true);
	TH_LOG("attack, /sb renamed, a link in its place: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_EVIL_DENIED, result);
}

/*
 * The script by its own path (init's), a tmpfs over a folder on it in
 * the attacker's namespace, a link in it: in that namespace, too, no
 * script identity.
 */
TEST_F_TIMEOUT(advfp, script_repointed_by_init_name, 240)
{
	int result;

	control_by_place(_metadata);
	result = attack(CHANGE_NONE, false);
	TH_LOG("by init's path in its namespace: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_DENIED, result);
	result = attack(CHANGE_INIT_PATH_LINK, false);
	TH_LOG("attack, a link over a folder of init's path: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_EVIL_DENIED, result);
}

/*
 * Root changes init's mounts without pause (each change counted: every
 * exec named through the table copies init's tree again) while the
 * sandbox runs the application's program, /app/bin/ri (a copy of
 * race_interp, reading the script by its name), 20 times: each run is
 * named by its place under /var/lib/flatpak and allowed.
 */
TEST_F_TIMEOUT(advfp, mount_churn_while_named, 400)
{
	struct attack a = { CHANGE_NONE, true, false, 20 };
	pid_t churner, runner;
	int result;

	churner = fork();
	ASSERT_LE(0, churner);
	if (churner == 0) {
		for (;;) {
			if (mount("tmpfs", CHURN, "tmpfs", 0, NULL))
				_exit(1);
			umount2(CHURN, 0);
		}
	}
	runner = pfsel_start_as(PFSEL_UID1, attacker, &a);
	ASSERT_LE(0, runner);
	result = pfsel_wait_status(runner);
	kill(churner, SIGKILL);
	waitpid(churner, NULL, 0);
	TH_LOG("20 runs during init's mount churn: %s (%d)",
	       race_attack_outcome(result), result);
	EXPECT_EQ(RACE_TRUSTED_ALLOWED, result);
}

TEST_HARNESS_MAIN
