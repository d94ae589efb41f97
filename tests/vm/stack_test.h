/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - what selinux_stack_test and apparmor_stack_test share:
 * which stacking boot this is, their fixture "stack" (skips, pfsel's
 * policy stack_1001, listeners for the probes), and reading audit records
 * that ausearch does not parse (AppArmor's).  Each test defines
 * stack_lsm(): the LSM it stacks beside, how it is seen to enforce, and
 * the ports its fixture listens on.
 *
 * A stacking boot says which major LSM enforces a policy beside pfsel with
 * a word on the kernel command line, pfsel_stack=selinux or
 * pfsel_stack=apparmor (tests/check); the VM's init then loads that
 * policy (tests/vm/mkinitramfs).  In every other boot the stacking tests
 * skip.
 */

#ifndef PFSEL_STACK_TEST_H
#define PFSEL_STACK_TEST_H

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* How long auditd is given to write a record down. */
#define STACK_AUDIT_WAIT_MS 10000

/* Whether the kernel command line holds pfsel_stack=@lsm. */
static inline bool stack_boot(const char *lsm)
{
	char cmdline[4096], word[64];
	const char *at;
	size_t len;

	if (pfsel_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return false;
	len = (size_t)snprintf(word, sizeof(word), "pfsel_stack=%s", lsm);
	for (at = strstr(cmdline, word); at; at = strstr(at + 1, word))
		if ((at == cmdline || at[-1] == ' ') &&
		    (at[len] == ' ' || at[len] == '\n' || at[len] == '\0'))
			return true;
	return false;
}

/*
 * Wait up to @ms for a line of the audit daemon's log that holds every
 * string of the NULL-terminated @needles; copy it to @out.  The log is
 * read as it is, for records that `ausearch -m` does not find by type.
 */
static inline bool stack_audit_log_find(const char *const *needles, char *out,
					size_t size, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;
	char line[8192];
	size_t i;

	do {
		FILE *log = fopen("/var/log/audit/audit.log", "r");

		while (log && fgets(line, sizeof(line), log)) {
			for (i = 0; needles[i]; i++)
				if (!strstr(line, needles[i]))
					break;
			if (!needles[i]) {
				const size_t n = strcspn(line, "\n");

				memcpy(out, line, n < size ? n : size - 1);
				out[n < size ? n : size - 1] = '\0';
				fclose(log);
				return true;
			}
		}
		if (log)
			fclose(log);
		usleep(200 * 1000);
	} while (pfsel_now_ms() < deadline);
	return false;
}

/*
 * pfsel's record (1430) of process @pid, holding @more too if given.
 * Read from the log itself: beside AppArmor, pfsel's record and
 * AppArmor's of the same call make one event, and ausearch drops events
 * with AppArmor's records in them.
 */
static inline bool stack_pfsel_record(pid_t pid, const char *more, char *record,
				      size_t size)
{
	char pid_field[32];
	const char *needles[] = { " pfsel op=", pid_field, more, NULL };

	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	return stack_audit_log_find(needles, record, size, STACK_AUDIT_WAIT_MS);
}

/* Listeners on 127.0.0.1 for the probes: @n ports into @fds. */
static inline bool stack_listen(const unsigned short *ports, int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fds[i] = pfsel_peer(SOCK_STREAM, "127.0.0.1", ports[i]);
		if (fds[i] < 0)
			return false;
	}
	return true;
}

/* The most listeners a stacking test's fixture opens. */
#define STACK_MAX_PORTS 3

/* The major LSM a stacking test runs beside, and its fixture's ports. */
struct stack_lsm {
	const char *name; /* as the skips say it: "SELinux" */
	const char *word; /* of the boot's pfsel_stack=WORD: "selinux" */
	/* Asserts that the LSM enforces the policy the boot loaded. */
	void (*expect_enforcing)(struct __test_metadata *_metadata);
	unsigned short ports[STACK_MAX_PORTS]; /* the fixture's listeners' */
	size_t nports;
};

/* Each stacking test says what it stacks beside. */
static const struct stack_lsm *stack_lsm(void);

/*
 * Whether this is the stacking test's boot; a test that is skipped if
 * not (and its caller returns).
 */
static inline bool stack_begin(struct __test_metadata *_metadata)
{
	const struct stack_lsm *lsm = stack_lsm();

	if (!stack_boot(lsm->word))
		SKIP(return false, "not the %s stacking boot (pfsel_stack=%s)",
			    lsm->name, lsm->word);
	return true;
}

/*
 * The tests that load pfsel's policy and read the audit log: in the
 * stacking boot, as root, with the LSM enforcing and auditd running,
 * pfsel's policy stack_1001 alone is loaded and a listener on 127.0.0.1
 * waits on each of the LSM's ports (@self->peers, in their order).
 */
FIXTURE(stack)
{
	int peers[STACK_MAX_PORTS];
};

FIXTURE_SETUP(stack)
{
	const struct stack_lsm *lsm = stack_lsm();
	size_t i;

	for (i = 0; i < STACK_MAX_PORTS; i++)
		self->peers[i] = -1;
	if (!stack_begin(_metadata))
		return;
	if (geteuid() != 0)
		SKIP(return,
			   "loading pfsel's policy and reading the audit log need root");
	lsm->expect_enforcing(_metadata);
	ASSERT_TRUE(pfsel_auditd_running());
	pfsel_reset();
	ASSERT_EQ(0, pfsel_load("stack_1001"));
	ASSERT_TRUE(stack_listen(lsm->ports, self->peers, lsm->nports));
}

FIXTURE_TEARDOWN(stack)
{
	size_t i;

	for (i = 0; i < STACK_MAX_PORTS; i++)
		if (self->peers[i] >= 0)
			close(self->peers[i]);
	if (geteuid() == 0)
		pfsel_reset();
}

#endif /* PFSEL_STACK_TEST_H */
