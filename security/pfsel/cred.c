// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Credential hooks
 *
 * A credential carries a reference to the application identity of the
 * program it was created for (app.c, set by exec.c).  Copies of a
 * credential share the identity.
 *
 * It also remembers whether the task has been root since it last executed
 * a program: a credential prepared from root's (a root daemon's child
 * that drops to a service account with setresuid(), say) keeps that, so
 * that the program it executes next is known to be root's choice
 * (exec.c, resolver.c).  Every credential of a task is prepared from the
 * one before, so the mark reaches each of them; exec clears it.
 */

#include <linux/cred.h>
#include <linux/lsm_hooks.h>

#include "app.h"
#include "common.h"
#include "cred.h"
#include "setup.h"

/*
 * @old is the task's own credential: for a session keyring that a child
 * gives its parent (keyctl's KEYCTL_SESSION_TO_PARENT), the parent's, so
 * nothing of the child's passes to the parent.
 */
static void hook_cred_transfer(struct cred *const new,
			       const struct cred *const old)
{
	pfsel_cred(new)->app = pfsel_app_get(pfsel_cred(old)->app);
	pfsel_cred(new)->was_root = pfsel_cred_root_since_exec(old);
}

static int hook_cred_prepare(struct cred *const new,
			     const struct cred *const old, const gfp_t gfp)
{
	hook_cred_transfer(new, old);
	return 0;
}

static void hook_cred_free(struct cred *const cred)
{
	pfsel_app_put(pfsel_cred(cred)->app);
}

static struct security_hook_list pfsel_cred_hooks[] __ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, hook_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, hook_cred_transfer),
	LSM_HOOK_INIT(cred_free, hook_cred_free),
};

__init void pfsel_add_cred_hooks(void)
{
	security_add_hooks(pfsel_cred_hooks, ARRAY_SIZE(pfsel_cred_hooks),
			   &pfsel_lsmid);
}

#ifdef CONFIG_SECURITY_PFSEL_KUNIT_TEST

#include <kunit/test.h>

/* Sets every uid of @cred to @uid, as setresuid() and setfsuid() do. */
static void test_set_uids(struct cred *const cred, const kuid_t uid)
{
	cred->uid = uid;
	cred->euid = uid;
	cred->suid = uid;
	cred->fsuid = uid;
}

/* A credential prepared from @from, as setresuid() or fork() make one. */
static struct cred *test_prepare_from(struct kunit *const test,
				      const struct cred *const from)
{
	const struct cred *const old = override_creds(from);
	struct cred *const new = prepare_creds();

	revert_creds(old);
	KUNIT_ASSERT_NOT_NULL(test, new);
	return new;
}

/* The test runs as root: its credentials are the kernel's. */
static struct cred *test_root_cred(struct kunit *const test)
{
	struct cred *const cred = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, cred);
	if (!pfsel_cred_root(current_cred())) {
		abort_creds(cred);
		kunit_skip(test, "the test does not run as root");
	}
	return cred;
}

/*
 * systemd's shape: root's process drops to a service account, and the
 * credentials it prepares after that (a later setresuid(), a fork())
 * still say it was root.
 */
static void test_cred_root_survives_setuid_and_fork(struct kunit *const test)
{
	struct cred *const dropped = test_root_cred(test);
	struct cred *later;

	test_set_uids(dropped, KUIDT_INIT(1002));
	KUNIT_EXPECT_FALSE(test, pfsel_cred_root(dropped));
	KUNIT_EXPECT_TRUE(test, pfsel_cred_root_since_exec(dropped));
	later = test_prepare_from(test, dropped);
	KUNIT_EXPECT_TRUE(test, pfsel_cred_root_since_exec(later));
	abort_creds(later);
	abort_creds(dropped);
}

/*
 * A user's program, as exec leaves it (the mark cleared): nothing it
 * prepares says root; nor does a set-user-ID-root program's borrowed
 * effective uid, until it makes itself root in full.
 */
static void test_cred_users_program_never_was_root(struct kunit *const test)
{
	struct cred *const user = test_root_cred(test);
	struct cred *suid, *dropped, *full;

	test_set_uids(user, KUIDT_INIT(1002));
	pfsel_cred(user)->was_root = false;
	KUNIT_EXPECT_FALSE(test, pfsel_cred_root_since_exec(user));

	suid = test_prepare_from(test, user);
	suid->euid = GLOBAL_ROOT_UID;
	suid->suid = GLOBAL_ROOT_UID;
	KUNIT_EXPECT_FALSE(test, pfsel_cred_root_since_exec(suid));
	dropped = test_prepare_from(test, suid);
	test_set_uids(dropped, KUIDT_INIT(1002));
	KUNIT_EXPECT_FALSE(test, pfsel_cred_root_since_exec(dropped));
	abort_creds(dropped);

	test_set_uids(suid, GLOBAL_ROOT_UID);
	full = test_prepare_from(test, suid);
	test_set_uids(full, KUIDT_INIT(1002));
	KUNIT_EXPECT_TRUE(test, pfsel_cred_root_since_exec(full));
	abort_creds(full);
	abort_creds(suid);
	abort_creds(user);
}

/*
 * keyctl's session to parent: the parent's new credential takes the mark
 * of the credential the kernel hands the hook, the parent's own.
 */
static void test_cred_transfer_takes_the_old_mark(struct kunit *const test)
{
	struct cred *const parent = test_root_cred(test);
	struct cred *blank;

	test_set_uids(parent, KUIDT_INIT(1002));
	pfsel_cred(parent)->was_root = false;
	blank = cred_alloc_blank();
	KUNIT_ASSERT_NOT_NULL(test, blank);
	pfsel_cred(blank)->was_root = true;
	security_transfer_creds(blank, parent);
	KUNIT_EXPECT_FALSE(test, pfsel_cred(blank)->was_root);
	put_cred(blank);
	abort_creds(parent);
}

static struct kunit_case test_cases[] = {
	/* clang-format off */
	KUNIT_CASE(test_cred_root_survives_setuid_and_fork),
	KUNIT_CASE(test_cred_users_program_never_was_root),
	KUNIT_CASE(test_cred_transfer_takes_the_old_mark),
	{}
	/* clang-format on */
};

static struct kunit_suite test_suite = {
	.name = "pfsel_cred",
	.test_cases = test_cases,
};

kunit_test_suite(test_suite);

#endif /* CONFIG_SECURITY_PFSEL_KUNIT_TEST */
