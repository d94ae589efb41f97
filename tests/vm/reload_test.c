// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - loading and unloading policies: who may load what, the
 * errors, the `policies` list, generations, replacing a policy while
 * connections are being decided, and the AVC's statistics and flush.
 *
 * The tests that act as another user, or as root, need root; run as
 * pfuser1, the tests of what a user may do with their own policy still
 * run, the others are skipped.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* Child actions for pfsel_run_as(): their result is an errno. */
static int load_fn(void *name)
{
	return -pfsel_load(name);
}

static int unload_uid_fn(void *uid)
{
	return -pfsel_unload_uid((uid_t)(uintptr_t)uid);
}

static int unload_system_fn(void *unused)
{
	return -pfsel_unload_system();
}

/* Root without CAP_MAC_ADMIN loads @name. */
static int load_without_cap_fn(void *name)
{
	if (pfsel_drop_mac_admin())
		return 125;
	return -pfsel_load(name);
}

static int permissive_without_cap_fn(void *unused)
{
	if (pfsel_drop_mac_admin())
		return 125;
	return -pfsel_set_enforce(false);
}

/*
 * A user switching the mode (to enforcing, as it is: even a write that
 * got through would change nothing).
 */
static int enforce_fn(void *unused)
{
	return -pfsel_set_enforce(true);
}

/* A user's program that would be the agent of @uid, or answer as one. */
static int register_fn(void *uid)
{
	struct pfsel_agent *agent;
	int err = pfsel_agent_open(&agent);

	if (err)
		return 125;
	err = pfsel_agent_register_for(agent, (uid_t)(uintptr_t)uid);
	pfsel_agent_close(agent);
	return -err;
}

static int answer_fn(void *unused)
{
	struct pfsel_agent *agent;
	int err = pfsel_agent_open(&agent);

	if (err)
		return 125;
	err = pfsel_agent_answer(agent, 1, PFSEL_ANSWER_ALLOW,
				 PFSEL_SCOPE_ALWAYS);
	pfsel_agent_close(agent);
	return -err;
}

static int forget_fn(void *uid)
{
	return -pfsel_forget_uid((uid_t)(uintptr_t)uid);
}

static bool system_loaded(void)
{
	struct pfsel_policy_info info;

	return pfsel_get_policy_info(true, 0, &info) == 1;
}

FIXTURE(load)
{
	bool root;
};

FIXTURE_SETUP(load)
{
	self->root = geteuid() == 0;
	if (self->root)
		pfsel_reset();
	else
		pfsel_unload_uid(PFSEL_UID1);
}

FIXTURE_TEARDOWN_PARENT(load)
{
	if (geteuid() == 0)
		pfsel_reset();
	else
		pfsel_unload_uid(PFSEL_UID1);
}

/* A user loads, replaces and unloads their own policy. */
/*
 * The programs a user's policy restrains run as that user: the user's own
 * uid is no right to load or unload it (docs/THREAT-MODEL.md).  The root
 * side does.
 */
TEST_F(load, user_cannot_load_or_unload_own_policy)
{
	struct pfsel_policy_info info;
	long long first, second;

	if (!self->root)
		SKIP(return, "needs root to load beside 1001's attempts");
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, load_fn, "enforce_1001"));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	first = info.generation;
	EXPECT_LE(1, first);

	/* A user's load replacing it is refused; root's bumps the generation. */
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, load_fn, "reload_a"));
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	EXPECT_EQ(first, info.generation);
	ASSERT_EQ(0, pfsel_load("reload_a"));
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	second = info.generation;
	EXPECT_LT(first, second)
	{
		TH_LOG("generation %lld, then %lld", first, second);
	}

	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, unload_uid_fn,
				      (void *)(uintptr_t)PFSEL_UID1));
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	EXPECT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
	/* Unloading what is not loaded. */
	EXPECT_EQ(-ENOENT, pfsel_unload_uid(PFSEL_UID1));
}

/* A user may neither load nor unload another user's policy. */
TEST_F(load, user_cannot_touch_another_users_policy)
{
	if (!self->root)
		SKIP(return, "needs root to load 1002's policy");
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, load_fn, "enforce_1002"));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID2));

	ASSERT_EQ(0, pfsel_load("enforce_1002"));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, unload_uid_fn,
				      (void *)(uintptr_t)PFSEL_UID2));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, load_fn, "enforce_1002"));
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID2));
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID2, load_fn, "enforce_1001"));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
}

/* The system policy needs CAP_MAC_ADMIN, to load and to unload. */
TEST_F(load, system_policy_needs_cap_mac_admin)
{
	if (!self->root)
		SKIP(return, "needs root");
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, load_fn, "system_floor"));
	EXPECT_EQ(EPERM, pfsel_run_as(0, load_without_cap_fn, "system_floor"));
	EXPECT_FALSE(system_loaded());

	ASSERT_EQ(0, pfsel_load("system_floor"));
	EXPECT_TRUE(system_loaded());
	EXPECT_EQ(EPERM, pfsel_run_as(PFSEL_UID1, unload_system_fn, NULL));
	EXPECT_TRUE(system_loaded());

	/* Root without CAP_MAC_ADMIN is not user 1001 either. */
	EXPECT_EQ(EPERM, pfsel_run_as(0, load_without_cap_fn, "enforce_1001"));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));

	EXPECT_EQ(0, pfsel_unload_system());
	EXPECT_EQ(-ENOENT, pfsel_unload_system());
}

/* Switching the global mode needs CAP_MAC_ADMIN; bad values are refused. */
TEST_F(load, enforce_needs_cap_mac_admin)
{
	struct pfsel_status status;

	if (!self->root)
		SKIP(return, "needs root");
	/* The file's mode keeps users out: open() fails. */
	EXPECT_EQ(EACCES, pfsel_run_as(PFSEL_UID1, enforce_fn, NULL));
	EXPECT_EQ(EPERM, pfsel_run_as(0, permissive_without_cap_fn, NULL));
	/* Raw: values libpfsel never writes, and "0" as a shell writes it. */
	EXPECT_EQ(-EINVAL, pfsel_write_raw("enforce", "2"));
	EXPECT_EQ(-EINVAL, pfsel_write_raw("enforce", "on"));
	ASSERT_EQ(0, pfsel_get_status(&status));
	EXPECT_TRUE(status.enforcing);
	EXPECT_EQ(0, pfsel_write_raw("enforce", "0\n"));
	ASSERT_EQ(0, pfsel_get_status(&status));
	EXPECT_FALSE(status.enforcing);
	EXPECT_EQ(0, pfsel_set_enforce(true));
	ASSERT_EQ(0, pfsel_get_status(&status));
	EXPECT_TRUE(status.enforcing);
}

/* Bad unload targets, loads not at offset 0. */
/*
 * Each change refused to a user's program, or to root without
 * CAP_MAC_ADMIN, is audited: refused=admin, the change (op=) and what it
 * was for (target=), by the calling task.  Root's own changes make no
 * such record (the control).
 */
TEST_F_TIMEOUT(load, refused_changes_are_audited, PFSEL_AUDIT_TEST_TIMEOUT)
{
	static const struct {
		uid_t uid;
		int (*fn)(void *);
		void *arg;
		const char *op, *target;
	} cases[] = {
		{ PFSEL_UID1, load_fn, "enforce_1001", " op=load ",
		  " target=1001 " },
		{ PFSEL_UID1, load_fn, "enforce_1002", " op=load ",
		  " target=1002 " },
		{ PFSEL_UID1, unload_uid_fn, (void *)(uintptr_t)PFSEL_UID1,
		  " op=unload ", " target=1001 " },
		{ PFSEL_UID1, unload_system_fn, NULL, " op=unload ",
		  " target=system " },
		{ PFSEL_UID1, forget_fn, (void *)(uintptr_t)PFSEL_UID1,
		  " op=forget ", " target=1001 " },
		{ PFSEL_UID1, register_fn, (void *)(uintptr_t)PFSEL_UID1,
		  " op=register ", " target=1001 " },
		/* No target: "" is in every record. */
		{ PFSEL_UID1, answer_fn, NULL, " op=answer ", "" },
		{ 0, load_without_cap_fn, "system_floor", " op=load ",
		  " target=system " },
		{ 0, permissive_without_cap_fn, NULL, " op=enforce ", "" },
	};
	const char *const root_needles[] = { " refused=admin ", " uid=0 ",
					     NULL };
	unsigned int i;
	int before;

	if (!self->root)
		SKIP(return, "needs root to read the audit log");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char uid[32];
		const char *const needles[] = { " refused=admin ", cases[i].op,
						cases[i].target, uid, NULL };
		const char *const fields[] = {
			cases[i].op,	  " verdict=deny refused=admin ",
			" policy=? ",	  cases[i].target,
			" app=",	  uid,
			NULL,
		};

		snprintf(uid, sizeof(uid), " uid=%u ", cases[i].uid);
		before = pfsel_audit_records(needles, NULL, 0);
		ASSERT_LE(0, before);
		EXPECT_EQ(EPERM, pfsel_run_as(cases[i].uid, cases[i].fn,
					      cases[i].arg))
		{
			TH_LOG("case %u:%s%s", i, cases[i].op, cases[i].target);
		}
		PFSEL_EXPECT_RECORD(before, needles, fields);
	}

	/* The control: root's own load, unload and switch, no record. */
	before = pfsel_audit_records(root_needles, NULL, 0);
	EXPECT_EQ(0, pfsel_load("enforce_1001"));
	EXPECT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	EXPECT_EQ(0, pfsel_set_enforce(true));
	EXPECT_EQ(before, pfsel_audit_records(root_needles, NULL, 0));
}

TEST_F(load, bad_writes)
{
	void *blob = NULL;
	ssize_t len;
	int fd;

	if (!self->root)
		SKIP(return, "needs root");
	EXPECT_EQ(-ENOENT, pfsel_unload_uid(PFSEL_UID1));
	EXPECT_EQ(-ENOENT, pfsel_unload_system());
	/* Raw: targets libpfsel, which takes a uid_t, cannot even write. */
	EXPECT_EQ(-EINVAL, pfsel_write_raw("unload", "alice"));
	EXPECT_EQ(-EINVAL, pfsel_write_raw("unload", "-1"));
	EXPECT_EQ(-EINVAL, pfsel_write_raw("unload", ""));

	len = pfsel_policy_blob("enforce_1001", &blob);
	ASSERT_LT(0, len);
	fd = pfsel_load_open();
	ASSERT_LE(0, fd);
	/* Raw: libpfsel writes at offset 0 only. */
	EXPECT_EQ(-1, pwrite(fd, blob, (size_t)len, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	free(blob);
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
}

/* Load the compiled test policy @name through @fd, a descriptor of load. */
static int load_through(int fd, const char *name)
{
	void *blob = NULL;
	const ssize_t len = pfsel_policy_blob(name, &blob);
	int ret;

	if (len < 0)
		return (int)len;
	ret = pfsel_load_buffer_fd(fd, blob, (size_t)len);
	free(blob);
	return ret;
}

static int load_through_fn(void *arg)
{
	const int fd = *(int *)arg;

	return -load_through(fd, "enforce_1002");
}

static int open_and_send_fn(void *arg)
{
	const int sock = *(int *)arg;
	const int fd = pfsel_load_open();

	if (fd < 0)
		return -fd;
	return pfsel_send_fd(sock, fd) ? 125 : 0;
}

/*
 * The credentials of whoever opened `load` decide, not those of whoever
 * writes: a descriptor root opened loads for anyone, one that 1001 opened
 * loads nothing but 1001's policy, even when root writes to it.
 */
TEST_F(load, opener_credentials_decide)
{
	int sockets[2], fd;

	if (!self->root)
		SKIP(return, "needs root");
	fd = pfsel_load_open();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, load_through_fn, &fd));
	close(fd);
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID2));
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID2));

	ASSERT_EQ(0,
		  socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets));
	ASSERT_EQ(0, pfsel_run_as(PFSEL_UID1, open_and_send_fn, &sockets[1]));
	fd = pfsel_recv_fd(sockets[0]);
	ASSERT_LE(0, fd);
	/* 1001's descriptor lends root nothing, not even 1001's own policy. */
	EXPECT_EQ(-EPERM, load_through(fd, "enforce_1002"));
	EXPECT_EQ(-EPERM, load_through(fd, "system_floor"));
	EXPECT_EQ(-EPERM, load_through(fd, "enforce_1001"));
	close(fd);
	close(sockets[0]);
	close(sockets[1]);
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID2));
	EXPECT_FALSE(system_loaded());
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
}

static uint32_t le32_at(const void *blob, size_t offset)
{
	const unsigned char *p = (const unsigned char *)blob + offset;

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The `policies` line of @target ("system" or a uid) against the compiled
 * policy @name: size and number of rules from the blob's header and
 * section table (policy/FORMAT.md), its SHA-256, the mode given.
 */
static void check_policy_line(struct __test_metadata *const _metadata,
			      const char *target, const char *name,
			      const char *mode)
{
	const bool is_system = strcmp(target, "system") == 0;
	char text[4096], path[PATH_MAX], expected[96];
	char hex[PFSEL_DIGEST_HEX_SIZE];
	uint8_t digest[PFSEL_DIGEST_SIZE];
	struct pfsel_policy_info info;
	void *blob = NULL;
	const ssize_t len = pfsel_policy_blob(name, &blob);
	uint32_t i, nsections, rules = 0;

	ASSERT_LT(32, len);
	ASSERT_EQ(1, pfsel_get_policy_info(is_system,
					   is_system ? 0 : (uid_t)atoi(target),
					   &info))
	{
		TH_LOG("no line for %s: %s", target, pfsel_last_error());
	}
	TH_LOG("%s generation=%u size=%u rules=%u sha256=%s mode=%s", target,
	       info.generation, info.size, info.rules,
	       pfsel_digest_hex(info.digest, hex),
	       info.permissive ? "permissive" : "enforcing");
	nsections = le32_at(blob, 24);
	for (i = 0; i < nsections && 32 + 16 * (i + 1) <= (size_t)len; i++)
		if (le32_at(blob, 32 + 16 * i) == 3 /* PFSEL_SEC_RULES */)
			rules = le32_at(blob, 32 + 16 * i + 4);
	EXPECT_LT(0u, info.generation);
	EXPECT_EQ(len, info.size);
	EXPECT_EQ(rules, info.rules);
	ASSERT_EQ(0, pfsel_policy_digest(blob, (size_t)len, digest));
	EXPECT_EQ(0, memcmp(digest, info.digest, sizeof(digest)));
	EXPECT_STREQ(mode, info.permissive ? "permissive" : "enforcing");
	/* The digest's form, as docs/kernel-interface.md gives it: raw. */
	ASSERT_LT(0, pfsel_read_file(pfsel_raw_path("policies", path,
						    sizeof(path)),
				     text, sizeof(text)));
	snprintf(expected, sizeof(expected), " sha256=%s ",
		 pfsel_digest_hex(digest, hex));
	EXPECT_NE(NULL, strstr(text, expected))
	{
		TH_LOG("no '%s' in:\n%s", expected, text);
	}
	free(blob);
}

TEST_F(load, policies_lists_every_policy)
{
	struct pfsel_policy_info *list, user1, sys;
	struct pfsel_status status;
	size_t n, i, at1001 = 0, at1002 = 0;

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("enforce_1002"));
	ASSERT_EQ(0, pfsel_load("system_floor"));
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	check_policy_line(_metadata, "system", "system_floor", "enforcing");
	check_policy_line(_metadata, "1001", "enforce_1001", "enforcing");
	check_policy_line(_metadata, "1002", "enforce_1002", "enforcing");

	/* The system policy first, then users by uid. */
	ASSERT_EQ(0, pfsel_policies(&list, &n));
	ASSERT_LE((size_t)3, n);
	EXPECT_TRUE(list[0].system);
	for (i = 1; i < n; i++) {
		if (!list[i].system && list[i].uid == PFSEL_UID1)
			at1001 = i;
		if (!list[i].system && list[i].uid == PFSEL_UID2)
			at1002 = i;
	}
	free(list);
	ASSERT_LT((size_t)0, at1001);
	EXPECT_LT(at1001, at1002);

	/* The status file counts them and names the newest generation. */
	ASSERT_EQ(0, pfsel_get_status(&status));
	EXPECT_EQ(2ul, status.users);
	EXPECT_TRUE(status.system_loaded);
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &user1));
	ASSERT_EQ(1, pfsel_get_policy_info(true, 0, &sys));
	EXPECT_LT(sys.generation, user1.generation);
	EXPECT_EQ(user1.generation, status.generation)
	{
		TH_LOG("status: generation %u; 1001's policy: %u",
		       status.generation, user1.generation);
	}

	/* The per-policy mode. */
	ASSERT_EQ(0, pfsel_load("permissive_1002"));
	check_policy_line(_metadata, "1002", "permissive_1002", "permissive");
}

/* ---- Reloading under load -------------------------------------------- */

#define STRESS_THREADS 16
/*
 * At least this long and this many reloads (the software-emulated VM
 * gives the reloading thread little time beside 16 busy ones), but no
 * longer than STRESS_MAX_SECONDS.
 */
#define STRESS_SECONDS 4
#define STRESS_MIN_LOADS 50
#define STRESS_MAX_SECONDS 60
#define STRESS_ALLOWED 5401
#define STRESS_DENIED 5402

struct stress {
	atomic_int stop;
	atomic_long connects;
	atomic_long wrong;
	atomic_long loads;
	atomic_long load_errors;
	int last_wrong_errno;
	int last_wrong_port;
	int last_load_error;
	void *blob[2];
	ssize_t len[2];
};

struct stress_thread {
	struct stress *stress;
	int index;
};

/* Connect to the allowed and the denied port in turn, checking each. */
static void *stress_connect(void *arg)
{
	const struct stress_thread *thread = arg;
	struct stress *stress = thread->stress;
	const int family = thread->index & 2 ? AF_INET6 : AF_INET;
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = family,
		.type = thread->index & 1 ? SOCK_DGRAM : SOCK_STREAM,
		.addr = pfsel_loopback(family),
	};
	unsigned long i;

	for (i = thread->index; !atomic_load(&stress->stop); i++) {
		int result, expected;

		probe.port = i & 1 ? STRESS_DENIED : STRESS_ALLOWED;
		expected = i & 1 ? EACCES : 0;
		result = pfsel_probe_run(&probe);
		atomic_fetch_add(&stress->connects, 1);
		if (result != expected) {
			stress->last_wrong_errno = result;
			stress->last_wrong_port = probe.port;
			atomic_fetch_add(&stress->wrong, 1);
		}
	}
	return NULL;
}

/* Replace the policy, alternating reload_a and reload_b. */
static void *stress_reload(void *arg)
{
	struct stress *stress = arg;
	unsigned long i;

	for (i = 0; !atomic_load(&stress->stop); i++) {
		const int ret = pfsel_load_buffer(stress->blob[i & 1],
						  (size_t)stress->len[i & 1]);

		if (ret) {
			stress->last_load_error = -ret;
			atomic_fetch_add(&stress->load_errors, 1);
		} else {
			atomic_fetch_add(&stress->loads, 1);
		}
	}
	return NULL;
}

/*
 * As 1001: 16 connecting threads, while root (the test) reloads 1001's
 * policy.
 */
static int stress_fn(void *arg)
{
	struct stress *stress = arg;
	struct stress_thread threads[STRESS_THREADS];
	pthread_t ids[STRESS_THREADS];
	int i;

	for (i = 0; i < STRESS_THREADS; i++) {
		threads[i].stress = stress;
		threads[i].index = i;
		if (pthread_create(&ids[i], NULL, stress_connect, &threads[i]))
			return 125;
	}
	for (i = 0; i < STRESS_MAX_SECONDS * 10; i++) {
		usleep(100 * 1000);
		if (i >= STRESS_SECONDS * 10 &&
		    atomic_load(&stress->loads) >= STRESS_MIN_LOADS)
			break;
	}
	atomic_store(&stress->stop, 1);
	for (i = 0; i < STRESS_THREADS; i++)
		pthread_join(ids[i], NULL);
	return 0;
}

struct drain {
	int fds[2];
	atomic_int stop;
};

/* Accept and close whatever the allowed connects bring. */
static void *drain_listeners(void *arg)
{
	struct drain *drain = arg;
	struct pollfd pfds[2] = {
		{ .fd = drain->fds[0], .events = POLLIN },
		{ .fd = drain->fds[1], .events = POLLIN },
	};

	while (!atomic_load(&drain->stop)) {
		if (poll(pfds, 2, 100) > 0) {
			pfsel_drain(drain->fds[0]);
			pfsel_drain(drain->fds[1]);
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(load, reload_while_connecting, STRESS_MAX_SECONDS + 60)
{
	struct stress *stress;
	struct drain drain = {};
	pthread_t drainer, reloader;
	int peers[4], i, status;

	if (!self->root)
		SKIP(return,
			   "needs root to run 1001's threads beside listeners");
	stress = mmap(NULL, sizeof(*stress), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, stress);
	memset(stress, 0, sizeof(*stress));
	stress->len[0] = pfsel_policy_blob("reload_a", &stress->blob[0]);
	stress->len[1] = pfsel_policy_blob("reload_b", &stress->blob[1]);
	ASSERT_LT(0, stress->len[0]);
	ASSERT_LT(0, stress->len[1]);
	ASSERT_EQ(0, pfsel_load("reload_a"));

	/* Peers on both ports: a wrong "allow" succeeds, it is not refused. */
	peers[0] = pfsel_peer(SOCK_STREAM, "127.0.0.1", STRESS_ALLOWED);
	peers[1] = pfsel_peer(SOCK_STREAM, "::1", STRESS_ALLOWED);
	peers[2] = pfsel_peer(SOCK_STREAM, "127.0.0.1", STRESS_DENIED);
	peers[3] = pfsel_peer(SOCK_STREAM, "::1", STRESS_DENIED);
	for (i = 0; i < 4; i++)
		ASSERT_LE(0, peers[i]);

	drain.fds[0] = peers[0];
	drain.fds[1] = peers[1];
	ASSERT_EQ(0, pthread_create(&drainer, NULL, drain_listeners, &drain));
	ASSERT_EQ(0, pthread_create(&reloader, NULL, stress_reload, stress));
	status = pfsel_run_as(PFSEL_UID1, stress_fn, stress);
	atomic_store(&stress->stop, 1);
	pthread_join(reloader, NULL);
	atomic_store(&drain.stop, 1);
	pthread_join(drainer, NULL);
	EXPECT_EQ(0, status);

	TH_LOG("%ld connects, %ld reloads, %ld wrong verdicts, %ld failed loads",
	       atomic_load(&stress->connects), atomic_load(&stress->loads),
	       atomic_load(&stress->wrong), atomic_load(&stress->load_errors));
	EXPECT_EQ(0, atomic_load(&stress->wrong))
	{
		TH_LOG("last wrong result: %s on port %d",
		       strerror(stress->last_wrong_errno),
		       stress->last_wrong_port);
	}
	EXPECT_EQ(0, atomic_load(&stress->load_errors))
	{
		TH_LOG("last load error: %s",
		       strerror(stress->last_load_error));
	}
	EXPECT_LE(STRESS_MIN_LOADS, atomic_load(&stress->loads));
	EXPECT_LE(STRESS_MIN_LOADS * 10, atomic_load(&stress->connects));
	for (i = 0; i < 4; i++)
		close(peers[i]);
	free(stress->blob[0]);
	free(stress->blob[1]);
	munmap(stress, sizeof(*stress));
}

/* ---- The AVC ---------------------------------------------------------- */

#define AVC_LOOPS 50

/*
 * AVC_LOOPS allowed UDP connects in one process, each to another loopback
 * address (127.@net.1.1 to 127.@net.50.1): one address class of the
 * policy, so one AVC entry, but never the same request twice in a row,
 * nor twice to one /24 (whose entry the recent allows keep when one class
 * covers it), so that the per-CPU cache of recent allows in front of the
 * AVC does not answer them.
 */
static int avc_loop_fn(void *net)
{
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET,
		.type = SOCK_DGRAM,
		.port = 5001,
	};
	char addr[INET_ADDRSTRLEN];
	int i, result;

	probe.addr = addr;
	for (i = 0; i < AVC_LOOPS; i++) {
		snprintf(addr, sizeof(addr), "127.%d.%d.1", *(int *)net, i + 1);
		result = pfsel_probe_run(&probe);
		if (result)
			return result;
	}
	return 0;
}

TEST_F(load, avc_hits_grow_and_a_load_flushes)
{
	struct pfsel_avc_stats before, after;
	int nets[] = { 1, 2, 3 };

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	/* Warm the cache. */
	ASSERT_EQ(0, pfsel_run_as(PFSEL_UID1, avc_loop_fn, &nets[0]));

	ASSERT_EQ(0, pfsel_get_avc_stats(&before));
	ASSERT_EQ(0, pfsel_run_as(PFSEL_UID1, avc_loop_fn, &nets[1]));
	ASSERT_EQ(0, pfsel_get_avc_stats(&after));
	TH_LOG("before: lookups %llu hits %llu misses %llu; after: lookups %llu hits %llu misses %llu",
	       (unsigned long long)before.lookups,
	       (unsigned long long)before.hits,
	       (unsigned long long)before.misses,
	       (unsigned long long)after.lookups,
	       (unsigned long long)after.hits,
	       (unsigned long long)after.misses);
	/*
	 * Each loop creates a socket and connects it: at least the connect
	 * (new address each time) is looked up.
	 */
	EXPECT_LE(before.hits + AVC_LOOPS, after.hits);
	EXPECT_LE(before.lookups + AVC_LOOPS, after.lookups);
	EXPECT_EQ(after.lookups - before.lookups,
		  (after.hits - before.hits) + (after.misses - before.misses));

	/* A load (even of the same policy) makes the cached decisions stale. */
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	ASSERT_EQ(0, pfsel_get_avc_stats(&before));
	ASSERT_EQ(0, pfsel_run_as(PFSEL_UID1, avc_loop_fn, &nets[2]));
	ASSERT_EQ(0, pfsel_get_avc_stats(&after));
	TH_LOG("after the load: misses %llu -> %llu",
	       (unsigned long long)before.misses,
	       (unsigned long long)after.misses);
	EXPECT_LT(before.misses, after.misses);
}

/* ---- The recent allows of a whole prefix ------------------------------ */

#define PREFIX_PORT 5001
#define PREFIX_SENDS 50

/* A send and what sendto() must give: 0, or the errno. */
struct prefix_send {
	const char *addr;
	int err;
};

struct prefix_sends {
	const struct prefix_send *sends;
	size_t n;
};

/*
 * For pfsel_run_as(): on CPU 0, whose recent allows the test fills, the
 * sends of @arg (struct prefix_sends) from one UDP socket to port
 * PREFIX_PORT.  0 when each gave what it must, 1 + its index for the
 * first that did not, 120 and up when a step around them failed.
 */
static int prefix_sends_fn(void *arg)
{
	const struct prefix_sends *const sends = arg;
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(PREFIX_PORT),
	};
	cpu_set_t cpus;
	size_t i;
	int fd, err;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return 120;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 121;
	for (i = 0; i < sends->n; i++) {
		if (inet_pton(AF_INET, sends->sends[i].addr, &sin.sin_addr) !=
		    1)
			return 122;
		err = sendto(fd, "x", 1, 0, (struct sockaddr *)&sin,
			     sizeof(sin)) < 0 ?
			      errno :
			      0;
		if (err != sends->sends[i].err) {
			close(fd);
			return 1 + (int)i;
		}
	}
	close(fd);
	return 0;
}

/* PREFIX_SENDS allowed sends, to 127.0.31.1 to 127.0.31.50. */
static int prefix_many_fn(void *unused)
{
	struct prefix_send sends[PREFIX_SENDS];
	static char addrs[PREFIX_SENDS][INET_ADDRSTRLEN];
	struct prefix_sends all = { .sends = sends, .n = PREFIX_SENDS };
	int i;

	for (i = 0; i < PREFIX_SENDS; i++) {
		snprintf(addrs[i], sizeof(addrs[i]), "127.0.31.%d", i + 1);
		sends[i] = (struct prefix_send){ .addr = addrs[i] };
	}
	return prefix_sends_fn(&all);
}

/*
 * An allow is kept for a whole /24 only where the policy gives the whole
 * /24 one class (security/pfsel/decide.c), and only until the next load:
 * 127.0.30.1 is allowed, 127.0.30.200 of the same /24 still denied (the
 * policy divides that /24); 127.0.31.1 allowed, and then the sends to the
 * rest of 127.0.31.0/24 need the AVC no more; once a policy that divides
 * 127.0.31.0/24 is loaded, 127.0.31.200 is denied.
 */
TEST_F(load, recent_allows_of_a_prefix_are_exact)
{
	static const struct prefix_send first[] = {
		{ "127.0.30.1", 0 },
		{ "127.0.30.200", EACCES },
		{ "127.0.31.1", 0 },
		{ "127.0.31.200", 0 },
	};
	static const struct prefix_send after_load[] = {
		{ "127.0.31.200", EACCES },
		{ "127.0.31.1", 0 },
	};
	struct prefix_sends sends = { .sends = first, .n = ARRAY_SIZE(first) };
	struct pfsel_avc_stats before, after;

	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("prefix_1001"));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, prefix_sends_fn, &sends));

	/*
	 * The /24's entry answers for its other addresses: the AVC sees
	 * the socket's creation at most, not PREFIX_SENDS lookups (other
	 * processes' calls in between are few).
	 */
	ASSERT_EQ(0, pfsel_get_avc_stats(&before));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, prefix_many_fn, NULL));
	ASSERT_EQ(0, pfsel_get_avc_stats(&after));
	TH_LOG("AVC lookups for %d sends to one /24: %llu", PREFIX_SENDS,
	       (unsigned long long)(after.lookups - before.lookups));
	EXPECT_GT((uint64_t)PREFIX_SENDS / 2, after.lookups - before.lookups);

	/* A load starts a new epoch: the /24's entry answers no more. */
	ASSERT_EQ(0, pfsel_load("prefix_b_1001"));
	sends = (struct prefix_sends){ .sends = after_load,
				       .n = ARRAY_SIZE(after_load) };
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, prefix_sends_fn, &sends));
}

#define UNSPEC_PORT 5011

/* bind() of a new UDP socket of @family, free to bind any address: errno. */
static int freebind(int family, const char *addr)
{
	struct sockaddr_in6 sin6 = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(UNSPEC_PORT),
	};
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(UNSPEC_PORT),
	};
	const int one = 1;
	int fd, err;

	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (family == AF_INET6 ?
		    setsockopt(fd, SOL_IPV6, IPV6_FREEBIND, &one, sizeof(one)) ||
			    inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1 :
		    setsockopt(fd, SOL_IP, IP_FREEBIND, &one, sizeof(one)) ||
			    inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		close(fd);
		return -1;
	}
	err = (family == AF_INET6 ?
		       bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
		       bind(fd, (struct sockaddr *)&sin, sizeof(sin))) ?
		      errno :
		      0;
	close(fd);
	return err;
}

/*
 * For pfsel_run_as(), on CPU 0: the binds of
 * unspecified_is_not_its_slash24, one new socket each.  0 when each gave
 * what it must, 1 + its index for the first that did not, 120 and up when
 * a step around them failed.
 */
static int unspec_binds_fn(void *unused)
{
	static const struct {
		int family;
		const char *addr;
		int err;
	} binds[] = {
		/*
		 * Control: an AF_INET6 socket's socket() carries ::, so
		 * nothing has looked at 0.0.0.0 yet in this policy: denied.
		 */
		{ AF_INET6, "::ffff:0.0.0.200", EACCES },
		/* An AF_INET socket() carries 0.0.0.0; its bind too. */
		{ AF_INET, "0.0.0.0", 0 },
		/* The attack: the same port, 0.0.0.0's /24. */
		{ AF_INET, "0.0.0.200", EACCES },
		{ AF_INET6, "::ffff:0.0.0.200", EACCES },
		{ AF_INET, "0.0.0.1", EACCES },
	};
	cpu_set_t cpus;
	size_t i;
	int err;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		return 120;
	for (i = 0; i < ARRAY_SIZE(binds); i++) {
		err = freebind(binds[i].family, binds[i].addr);
		if (err < 0)
			return 121;
		if (err != binds[i].err) {
			fprintf(stderr, "bind %s: %d, not %d\n", binds[i].addr,
				err, binds[i].err);
			return 1 + (int)i;
		}
	}
	return 0;
}

/*
 * Adversary read of the recent allows of a prefix (and the class cache):
 * 0.0.0.0 is a network of one, so the keys of its entries, in the class
 * cache and in the recent allows, are ::ffff:0.0.0.0 marked whole, as are
 * those of 0.0.0.0/24, which every 0.0.0.x looks for.  A policy that
 * lets pfuser1 bind on "unspecified" port 5011 denies a bind to
 * 0.0.0.200 port 5011 (IP_FREEBIND makes the bind itself possible to an
 * unprivileged user), before and after a socket() and a bind of 0.0.0.0.
 */
TEST_F(load, unspecified_is_not_its_slash24)
{
	if (!self->root)
		SKIP(return, "needs root");
	ASSERT_EQ(0, pfsel_load("adv_unspec_1001"));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, unspec_binds_fn, NULL));
}

TEST_HARNESS_MAIN
