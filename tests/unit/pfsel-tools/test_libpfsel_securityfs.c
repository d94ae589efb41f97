// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for libpfsel's securityfs calls (pfsel-tools/lib/securityfs.c)
 * and lib/check.c against fixture files in a temporary folder, set as the
 * securityfs root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

static char root[64];

static void put_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *get_file(const char *name)
{
	static char buf[4096];
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	char avc[128];

	(void)state;
	strcpy(root, "/tmp/libpfsel-test.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(avc, sizeof(avc), "%s/avc", root);
	mkdir(avc, 0700);
	put_file("status", "version: 1\nmode: enforcing\nsystem: loaded\n"
			   "users: 2\ngeneration: 7\n");
	put_file(
		"policies",
		"system generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n"
		"1001 generation=7 size=2048 rules=3 sha256=01b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d4 mode=permissive\n");
	put_file("enforce", "1\n");
	put_file("load", "");
	put_file("unload", "");
	put_file("hooks", "socket_create 10 2000\nsocket_connect 5 900\n"
			  "inet_conn_request 0 0\n");
	put_file("avc/cache_stats",
		 "lookups hits misses allocations reclaims frees\n"
		 "100 90 10 10 2 1\n");
	put_file("avc/cache_threshold", "512\n");
	put_file("ask_stats",
		 "questions merged answered unanswered no_agent overflow "
		 "kept_hits interrupted agents pending kept\n"
		 "4 1 2 1 0 0 3 0 2 0 18446744073709551615\n");
	put_file("forget", "");
	put_file("hook_timing", "0\n");
	return pfsel_set_securityfs(root);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	pfsel_set_securityfs(NULL);
	return system(cmd);
}

static void test_root_override(void **state)
{
	(void)state;
	assert_string_equal(pfsel_securityfs(), root);
	assert_int_equal(pfsel_set_securityfs(NULL), 0);
	setenv(PFSEL_SECURITYFS_ENV, "/nonexistent/x", 1);
	assert_string_equal(pfsel_securityfs(), "/nonexistent/x");
	setenv(PFSEL_SECURITYFS_ENV, "", 1);
	assert_string_equal(pfsel_securityfs(), PFSEL_SECURITYFS_DEFAULT);
	unsetenv(PFSEL_SECURITYFS_ENV);
	assert_string_equal(pfsel_securityfs(), PFSEL_SECURITYFS_DEFAULT);
	assert_int_equal(pfsel_set_securityfs(root), 0);
}

static void test_status(void **state)
{
	struct pfsel_status st;

	(void)state;
	assert_int_equal(pfsel_get_status(&st), 0);
	assert_int_equal(st.version, 1);
	assert_true(st.enforcing);
	assert_true(st.system_loaded);
	assert_int_equal(st.users, 2);
	assert_int_equal(st.generation, 7);
	assert_string_equal(pfsel_last_error(), "");

	/* A key from a newer kernel is skipped. */
	put_file("status", "version: 2\nmode: permissive\nsystem: none\n"
			   "users: 0\ngeneration: 0\nasking: 3\n");
	assert_int_equal(pfsel_get_status(&st), 0);
	assert_false(st.enforcing);
	assert_false(st.system_loaded);
	assert_int_equal(st.version, 2);
}

static void test_status_malformed(void **state)
{
	struct pfsel_status st;

	(void)state;
	put_file("status", "version: 1\nmode: enforcing\nsystem: loaded\n"
			   "users: 2\n");
	assert_int_equal(pfsel_get_status(&st), -EBADMSG);
	assert_non_null(strstr(pfsel_last_error(), "status"));
	assert_non_null(strstr(pfsel_last_error(), "missing"));

	put_file("status", "version: 1\nmode: sometimes\nsystem: loaded\n"
			   "users: 2\ngeneration: 7\n");
	assert_int_equal(pfsel_get_status(&st), -EBADMSG);
	assert_non_null(strstr(pfsel_last_error(), "line 2"));

	put_file("status", "version 1\n");
	assert_int_equal(pfsel_get_status(&st), -EBADMSG);

	put_file("status", "version: -1\nmode: enforcing\nsystem: loaded\n"
			   "users: 2\ngeneration: 7\n");
	assert_int_equal(pfsel_get_status(&st), -EBADMSG);

	put_file("status", "version: 1\nmode: enforcing\nsystem: loaded\n"
			   "users: 2\ngeneration: 4294967296\n");
	assert_int_equal(pfsel_get_status(&st), -EBADMSG);
}

static void test_missing_file(void **state)
{
	struct pfsel_status st;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/status", root);
	unlink(path);
	assert_int_equal(pfsel_get_status(&st), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), "open("));
	assert_non_null(strstr(pfsel_last_error(), path));
	assert_non_null(strstr(pfsel_last_error(), strerror(ENOENT)));
}

/* The digests the fake `policies` file gives. */
static const uint8_t d1[PFSEL_DIGEST_SIZE] = { 0x8f, 0x31, 0xc2, 0xa0, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0xc0, 0xff, 0xee, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t d2[PFSEL_DIGEST_SIZE] = { 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4, 0x01, 0xb2, 0xc3, 0xd4 };

static void test_policies(void **state)
{
	struct pfsel_policy_info *p;
	size_t n;

	(void)state;
	assert_int_equal(pfsel_policies(&p, &n), 0);
	assert_int_equal(n, 2);
	assert_true(p[0].system);
	assert_int_equal(p[0].generation, 3);
	assert_int_equal(p[0].size, 5120);
	assert_int_equal(p[0].rules, 14);
	assert_memory_equal(p[0].digest, d1, PFSEL_DIGEST_SIZE);
	assert_false(p[0].permissive);
	assert_false(p[1].system);
	assert_int_equal(p[1].uid, 1001);
	assert_memory_equal(p[1].digest, d2, PFSEL_DIGEST_SIZE);
	assert_true(p[1].permissive);
	free(p);

	put_file("policies", "");
	assert_int_equal(pfsel_policies(&p, &n), 0);
	assert_int_equal(n, 0);
	assert_null(p);

	/* No newline after the last line. */
	put_file(
		"policies",
		"4294967294 generation=1 size=1 rules=0 sha256=0000000000000000000000000000000000000000000000000000000000000000 mode=enforcing");
	assert_int_equal(pfsel_policies(&p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].uid, 4294967294u);
	free(p);
}

static void test_policy_info(void **state)
{
	struct pfsel_policy_info info;

	(void)state;
	assert_int_equal(pfsel_get_policy_info(true, 0, &info), 1);
	assert_true(info.system);
	assert_int_equal(info.generation, 3);
	assert_memory_equal(info.digest, d1, PFSEL_DIGEST_SIZE);
	/* The uid does not matter for the system policy. */
	assert_int_equal(pfsel_get_policy_info(true, 1001, &info), 1);
	assert_true(info.system);
	assert_int_equal(pfsel_get_policy_info(false, 1001, &info), 1);
	assert_false(info.system);
	assert_int_equal(info.uid, 1001);
	assert_int_equal(info.generation, 7);
	assert_int_equal(info.size, 2048);
	assert_int_equal(info.rules, 3);
	assert_true(info.permissive);
	assert_string_equal(pfsel_last_error(), "");

	/* Not loaded: 0, and nothing left in @info. */
	assert_int_equal(pfsel_get_policy_info(false, 1002, &info), 0);
	assert_int_equal(info.uid, 0);
	assert_int_equal(info.generation, 0);
	/* uid 0 is a user's policy, not the system's. */
	assert_int_equal(pfsel_get_policy_info(false, 0, &info), 0);
	put_file("policies", "");
	assert_int_equal(pfsel_get_policy_info(true, 0, &info), 0);

	/* A malformed list is no answer either way. */
	put_file("policies", "1001 generation=7\n");
	assert_int_equal(pfsel_get_policy_info(false, 1001, &info), -EBADMSG);
	assert_int_equal(info.uid, 0);
	assert_non_null(strstr(pfsel_last_error(), "policies line 1"));
}

static void test_policies_malformed(void **state)
{
	static const char *const bad[] = {
		"system generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001\n",
		"system size=5120 generation=3 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n",
		"root generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=lax\n",
		"1001 generation=-3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing x\n",
		"system generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n\n",
		/* The old CRC32C field is no digest. */
		"1001 generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n",
		/* 63 and 65 digits, upper case, not hex. */
		"1001 generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef0000000 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 sha256=8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef000000010 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 sha256=8F31C2A000112233445566778899AABBCCDDEEFFC0FFEE00DEADBEEF00000001 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 sha256=gf31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001 mode=enforcing\n",
	};
	struct pfsel_policy_info *p = (void *)1;
	size_t n = 99, i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_file("policies", bad[i]);
		assert_int_equal(pfsel_policies(&p, &n), -EBADMSG);
		assert_null(p);
		assert_int_equal(n, 0);
		assert_non_null(strstr(pfsel_last_error(), "policies line"));
	}
}

static void test_enforce(void **state)
{
	(void)state;
	assert_int_equal(pfsel_get_enforce(), 1);
	put_file("enforce", "0\n");
	assert_int_equal(pfsel_get_enforce(), 0);
	put_file("enforce", "2\n");
	assert_int_equal(pfsel_get_enforce(), -EBADMSG);
	put_file("enforce", "");
	assert_int_equal(pfsel_get_enforce(), -EBADMSG);

	put_file("enforce", "");
	assert_int_equal(pfsel_set_enforce(true), 0);
	assert_string_equal(get_file("enforce"), "1");
	put_file("enforce", "");
	assert_int_equal(pfsel_set_enforce(false), 0);
	assert_string_equal(get_file("enforce"), "0");
}

static void test_avc(void **state)
{
	struct pfsel_avc_stats s;
	unsigned int t;

	(void)state;
	assert_int_equal(pfsel_get_avc_stats(&s), 0);
	assert_int_equal(s.lookups, 100);
	assert_int_equal(s.hits, 90);
	assert_int_equal(s.misses, 10);
	assert_int_equal(s.allocations, 10);
	assert_int_equal(s.reclaims, 2);
	assert_int_equal(s.frees, 1);
	put_file("avc/cache_stats",
		 "lookups hits misses allocations reclaims frees\n"
		 "18446744073709551615 0 0 0 0 0\n");
	assert_int_equal(pfsel_get_avc_stats(&s), 0);
	assert_true(s.lookups == UINT64_MAX);

	put_file("avc/cache_stats", "lookups hits misses\n1 2 3\n");
	assert_int_equal(pfsel_get_avc_stats(&s), -EBADMSG);
	put_file("avc/cache_stats",
		 "lookups hits misses allocations reclaims frees\n1 2 3\n");
	assert_int_equal(pfsel_get_avc_stats(&s), -EBADMSG);
	put_file(
		"avc/cache_stats",
		"lookups hits misses allocations reclaims frees\n1 2 3 4 5 x\n");
	assert_int_equal(pfsel_get_avc_stats(&s), -EBADMSG);
	put_file(
		"avc/cache_stats",
		"lookups hits misses allocations reclaims frees\n1 2 3 4 5 6\n7\n");
	assert_int_equal(pfsel_get_avc_stats(&s), -EBADMSG);

	assert_int_equal(pfsel_get_avc_threshold(&t), 0);
	assert_int_equal(t, 512);
	put_file("avc/cache_threshold", "many\n");
	assert_int_equal(pfsel_get_avc_threshold(&t), -EBADMSG);
	assert_int_equal(pfsel_set_avc_threshold(0), -EINVAL);
	assert_int_equal(pfsel_set_avc_threshold(65537), -EINVAL);
	put_file("avc/cache_threshold", "");
	assert_int_equal(pfsel_set_avc_threshold(65536), 0);
	assert_string_equal(get_file("avc/cache_threshold"), "65536");
}

static void test_hooks(void **state)
{
	struct pfsel_hook_stat *h;
	size_t n;

	(void)state;
	assert_int_equal(pfsel_get_hook_stats(&h, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(h[0].name, "socket_create");
	assert_int_equal(h[0].calls, 10);
	assert_int_equal(h[0].ns, 2000);
	assert_string_equal(h[2].name, "inet_conn_request");
	free(h);

	put_file("hooks", "socket_create 10\n");
	assert_int_equal(pfsel_get_hook_stats(&h, &n), -EBADMSG);
	assert_null(h);
	put_file("hooks", "socket_create 10 2000\nsocket_bind ten 5\n");
	assert_int_equal(pfsel_get_hook_stats(&h, &n), -EBADMSG);
	assert_non_null(strstr(pfsel_last_error(), "hooks line 2"));
	put_file(
		"hooks",
		"a_very_long_hook_name_that_no_kernel_would_ever_use_at_all 1 1\n");
	assert_int_equal(pfsel_get_hook_stats(&h, &n), -EBADMSG);
}

static void test_hook_timing(void **state)
{
	char path[128];

	(void)state;
	assert_int_equal(pfsel_get_hook_timing(), 0);
	put_file("hook_timing", "1\n");
	assert_int_equal(pfsel_get_hook_timing(), 1);
	put_file("hook_timing", "2\n");
	assert_int_equal(pfsel_get_hook_timing(), -EBADMSG);
	assert_non_null(strstr(pfsel_last_error(), "hook_timing line 1"));
	put_file("hook_timing", "on\n");
	assert_int_equal(pfsel_get_hook_timing(), -EBADMSG);

	put_file("hook_timing", "");
	assert_int_equal(pfsel_set_hook_timing(true), 0);
	assert_string_equal(get_file("hook_timing"), "1");
	put_file("hook_timing", "");
	assert_int_equal(pfsel_set_hook_timing(false), 0);
	assert_string_equal(get_file("hook_timing"), "0");
	assert_string_equal(pfsel_last_error(), "");

	/* A kernel without the file: the error names open() and it. */
	snprintf(path, sizeof(path), "%s/hook_timing", root);
	unlink(path);
	assert_int_equal(pfsel_get_hook_timing(), -ENOENT);
	assert_int_equal(pfsel_set_hook_timing(true), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), path));
}

static void test_load_fd(void **state)
{
	static const unsigned char blob[] = { 'P', 'F', 'S', 'L', 0, 1, 2, 3 };
	static const unsigned char other[] = { 'X', 'Y' };
	char path[128];
	int fd, ro;

	(void)state;
	fd = pfsel_load_open();
	assert_true(fd >= 0);
	assert_string_equal(pfsel_last_error(), "");
	assert_int_equal(pfsel_load_buffer_fd(fd, blob, sizeof(blob)), 0);
	assert_memory_equal(get_file("load"), blob, sizeof(blob));
	/* Again through the same descriptor: at offset 0 again. */
	assert_int_equal(pfsel_load_buffer_fd(fd, other, sizeof(other)), 0);
	assert_memory_equal(get_file("load"), "XYSL", 4);
	/* What the kernel would refuse of any blob is refused here too. */
	assert_int_equal(pfsel_load_buffer_fd(fd, blob, 0), -EINVAL);
	assert_int_equal(pfsel_load_buffer_fd(fd, NULL, 8), -EINVAL);
	assert_int_equal(pfsel_load_buffer_fd(
				 fd, blob, (size_t)PFSEL_POLICY_MAX_SIZE + 1),
			 -E2BIG);
	assert_memory_equal(get_file("load"), "XYSL", 4);
	assert_int_equal(close(fd), 0);

	/* A descriptor not open for writing; one that is closed. */
	snprintf(path, sizeof(path), "%s/load", root);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(ro >= 0);
	assert_int_equal(pfsel_load_buffer_fd(ro, blob, sizeof(blob)), -EBADF);
	assert_non_null(strstr(pfsel_last_error(), "write(load"));
	close(ro);
	assert_int_equal(pfsel_load_buffer_fd(ro, blob, sizeof(blob)), -EBADF);

	/* A securityfs without the file: the error names open() and it. */
	unlink(path);
	assert_int_equal(pfsel_load_open(), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), path));
}

static void test_load_unload(void **state)
{
	static const unsigned char blob[] = { 'P', 'F', 'S', 'L', 0, 1, 2, 3 };
	char path[128];
	FILE *f;

	(void)state;
	assert_int_equal(pfsel_load_buffer(blob, sizeof(blob)), 0);
	assert_memory_equal(get_file("load"), blob, 4);
	assert_int_equal(pfsel_load_buffer(blob, 0), -EINVAL);

	snprintf(path, sizeof(path), "%s/policy.pfsel", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite("PFSLfile", 1, 8, f);
	fclose(f);
	put_file("load", "");
	assert_int_equal(pfsel_load_file(path), 0);
	assert_string_equal(get_file("load"), "PFSLfile");

	put_file("policy.pfsel", "");
	assert_int_equal(pfsel_load_file(path), -EINVAL);
	assert_non_null(strstr(pfsel_last_error(), "empty"));
	snprintf(path, sizeof(path), "%s/missing.pfsel", root);
	assert_int_equal(pfsel_load_file(path), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), "open("));
	assert_int_equal(pfsel_load_file(root), -EINVAL);

	assert_int_equal(pfsel_unload_uid(1001), 0);
	assert_string_equal(get_file("unload"), "1001");
	put_file("unload", "");
	assert_int_equal(pfsel_unload_system(), 0);
	assert_string_equal(get_file("unload"), "system");

	/* A securityfs without the file: the error names open() and it. */
	snprintf(path, sizeof(path), "%s/load", root);
	unlink(path);
	assert_int_equal(pfsel_load_buffer(blob, sizeof(blob)), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), path));
}

static void test_ask_stats(void **state)
{
	struct pfsel_ask_stats s;

	(void)state;
	assert_int_equal(pfsel_get_ask_stats(&s), 0);
	assert_string_equal(pfsel_last_error(), "");
	assert_int_equal(s.questions, 4);
	assert_int_equal(s.merged, 1);
	assert_int_equal(s.answered, 2);
	assert_int_equal(s.unanswered, 1);
	assert_int_equal(s.kept_hits, 3);
	assert_int_equal(s.agents, 2);
	assert_true(s.kept == UINT64_MAX);

	/* Columns of a newer kernel are skipped, in any order. */
	put_file("ask_stats",
		 "kept pending agents future interrupted kept_hits overflow "
		 "no_agent unanswered answered merged questions\n"
		 "11 10 9 99 8 7 6 5 4 3 2 1\n");
	assert_int_equal(pfsel_get_ask_stats(&s), 0);
	assert_int_equal(s.questions, 1);
	assert_int_equal(s.agents, 9);
	assert_int_equal(s.kept, 11);
}

/* Each malformed file: -EBADMSG, a message naming it, nothing filled in. */
static void ask_stats_bad(const char *text, const char *why)
{
	static const struct pfsel_ask_stats zero;
	struct pfsel_ask_stats s;

	put_file("ask_stats", text);
	memset(&s, 0x5a, sizeof(s));
	assert_int_equal(pfsel_get_ask_stats(&s), -EBADMSG);
	assert_memory_equal(&s, &zero, sizeof(s));
	assert_non_null(strstr(pfsel_last_error(), "ask_stats line"));
	assert_non_null(strstr(pfsel_last_error(), why));
}

static void test_ask_stats_malformed(void **state)
{
	static const char names[] = "questions merged answered unanswered "
				    "no_agent overflow kept_hits interrupted "
				    "agents pending kept\n";
	char text[512];
	struct pfsel_ask_stats s;

	(void)state;
	ask_stats_bad("", "line 1");
	ask_stats_bad(names, "line 2");
	snprintf(text, sizeof(text), "%s1 2 3\n", names);
	ask_stats_bad(text, "as many values");
	snprintf(text, sizeof(text), "%s1 2 3 4 5 6 7 8 9 10 11 12\n", names);
	ask_stats_bad(text, "as many values");
	snprintf(text, sizeof(text), "%s1 2 3 4 5 6 7 8 nine 10 11\n", names);
	ask_stats_bad(text, "bad number");
	snprintf(text, sizeof(text), "%s1 2 3 4 5 6 7 8 -9 10 11\n", names);
	ask_stats_bad(text, "bad number");
	snprintf(text, sizeof(text), "%s1 2 3 4 5 6 7 8 9 10 11\n12\n", names);
	ask_stats_bad(text, "line 3");
	ask_stats_bad("questions merged answered unanswered no_agent overflow "
		      "kept_hits interrupted pending kept\n"
		      "1 2 3 4 5 6 7 8 9 10\n",
		      "no 'agents'");
	ask_stats_bad("questions questions merged answered unanswered no_agent "
		      "overflow kept_hits interrupted agents pending kept\n"
		      "1 1 2 3 4 5 6 7 8 9 10 11\n",
		      "twice");

	/* Without CAP_MAC_ADMIN, or an older kernel: open()'s error. */
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/ask_stats"));
	assert_int_equal(pfsel_get_ask_stats(&s), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), "open("));
	assert_non_null(strstr(pfsel_last_error(), "/ask_stats"));
}

static void test_forget(void **state)
{
	char path[128];

	(void)state;
	assert_int_equal(pfsel_forget_uid(1001), 0);
	assert_string_equal(get_file("forget"), "1001");
	assert_string_equal(pfsel_last_error(), "");
	snprintf(path, sizeof(path), "%s/forget", root);
	unlink(path);
	assert_int_equal(pfsel_forget_uid(1001), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), path));
	if (geteuid() != 0) {
		put_file("forget", "");
		chmod(path, 0444);
		assert_int_equal(pfsel_forget_uid(1001), -EACCES);
		assert_non_null(strstr(pfsel_last_error(), "open("));
	}
}

static void test_check_format(void **state)
{
	struct pfsel_check_request req = {
		.has_uid = true,
		.uid = 1001,
		.exe = "/usr/bin/python3",
		.script = "/home/a/x.py",
		.op = PFSEL_OP_CONNECT,
		.proto = PFSEL_PROTO_TCP,
		.port = 443,
	};
	char buf[512];

	(void)state;
	assert_int_equal(pfsel_parse_addr("2001:db8::1", req.addr), 0);
	assert_int_equal(97, pfsel_check_request_format(&req, buf,
							 sizeof(buf)));
	assert_string_equal("uid 1001\nexe /usr/bin/python3\n"
			    "script /home/a/x.py\nop connect\nproto tcp\n"
			    "addr 2001:db8::1\nport 443\n",
			    buf);
	/* Only tcp and udp have a port; IPv4 is written as IPv4. */
	req = (struct pfsel_check_request){ .op = PFSEL_OP_BIND,
					    .proto = PFSEL_PROTO_ICMP,
					    .port = 7 };
	assert_int_equal(pfsel_parse_addr("192.0.2.1", req.addr), 0);
	assert_true(pfsel_check_request_format(&req, buf, sizeof(buf)) > 0);
	assert_string_equal("op bind\nproto icmp\naddr 192.0.2.1\n", buf);

	req = (struct pfsel_check_request){ .op = PFSEL_OP_CREATE,
					    .proto = PFSEL_PROTO_UDP,
					    .family = PFSEL_FAMILY_INET6 };
	assert_true(pfsel_check_request_format(&req, buf, sizeof(buf)) > 0);
	assert_string_equal("op create\nproto udp\nfamily inet6\n", buf);
	req.proto = PFSEL_PROTO_PACKET;
	req.family = PFSEL_FAMILY_PACKET;
	assert_true(pfsel_check_request_format(&req, buf, sizeof(buf)) > 0);
	assert_string_equal("op create\nproto packet\n", buf);
	assert_string_equal(pfsel_last_error(), "");
}

/* Each request the kernel would refuse: -EINVAL, and @why says why. */
static void check_bad(const struct pfsel_check_request *req, const char *why)
{
	char buf[512];

	assert_int_equal(-EINVAL,
			 pfsel_check_request_format(req, buf, sizeof(buf)));
	assert_non_null(strstr(pfsel_last_error(), why));
}

static void test_check_format_invalid(void **state)
{
	struct pfsel_check_request req = { .op = PFSEL_OP_CREATE,
					   .proto = PFSEL_PROTO_UDP,
					   .family = PFSEL_FAMILY_PACKET };
	char buf[512];

	(void)state;
	check_bad(&req, "needs the family inet or inet6");
	req.family = 7;
	check_bad(&req, "needs the family");
	req = (struct pfsel_check_request){ .op = PFSEL_OP_CONNECT,
					    .proto = PFSEL_PROTO_PACKET };
	check_bad(&req, "packet sockets are decided at create only");
	req.proto = PFSEL_PROTO_COUNT;
	check_bad(&req, "not a protocol");
	req.proto = PFSEL_PROTO_TCP;
	req.op = PFSEL_OP_COUNT;
	check_bad(&req, "not an operation");
	req.op = PFSEL_OP_CONNECT;
	req.exe = "curl";
	check_bad(&req, "'curl' is not an absolute path");
	req.exe = "/usr/bin/python3";
	req.script = "x.py";
	check_bad(&req, "'x.py' is not an absolute path");
	/* A newline would be a line of its own in the request. */
	req.script = "/x.py\nuid 0";
	check_bad(&req, "is not an absolute path");
	req.exe = NULL;
	req.script = "/x.py";
	check_bad(&req, "needs its interpreter");
	/* Too small a buffer. */
	req.script = NULL;
	assert_int_equal(-ENOSPC, pfsel_check_request_format(&req, buf, 8));
	assert_int_equal(-ENOSPC, pfsel_check_request_format(&req, NULL, 0));
}

static void test_check_parse(void **state)
{
	struct pfsel_check_answer *ans = malloc(sizeof(*ans));

	(void)state;
	assert_non_null(ans);
	assert_int_equal(0, pfsel_check_answer_parse(
				    "verdict deny\nsystem allow default\n"
				    "user ask /home/a b/.pfw:x:3:1\n",
				    ans));
	assert_int_equal(ans->verdict, PFSEL_VERDICT_DENY);
	assert_true(ans->system.loaded);
	assert_int_equal(ans->system.verdict, PFSEL_VERDICT_ALLOW);
	assert_string_equal(ans->system.rule_file, "");
	assert_int_equal(ans->system.rule_line, 0);
	assert_true(ans->user.loaded);
	assert_int_equal(ans->user.verdict, PFSEL_VERDICT_ASK);
	assert_string_equal(ans->user.rule_file, "/home/a b/.pfw:x");
	assert_int_equal(ans->user.rule_line, 3);
	assert_int_equal(ans->user.rule_col, 1);
	/* Lines of a newer kernel are skipped. */
	assert_int_equal(0, pfsel_check_answer_parse(
				    "verdict allow\nsystem none\nuser none\n"
				    "future yes\n",
				    ans));
	assert_int_equal(ans->verdict, PFSEL_VERDICT_ALLOW);
	assert_false(ans->system.loaded);
	assert_false(ans->user.loaded);
	free(ans);
}

/* Each malformed answer: -EBADMSG, @why in the message, all zero. */
static void answer_bad(const char *text, const char *why)
{
	struct pfsel_check_answer *ans = malloc(sizeof(*ans)),
				  *zero = calloc(1, sizeof(*zero));

	assert_non_null(ans);
	assert_non_null(zero);
	memset(ans, 0x5a, sizeof(*ans));
	assert_int_equal(-EBADMSG, pfsel_check_answer_parse(text, ans));
	assert_memory_equal(ans, zero, sizeof(*ans));
	assert_non_null(strstr(pfsel_last_error(), "check line"));
	assert_non_null(strstr(pfsel_last_error(), why));
	free(ans);
	free(zero);
}

static void test_check_parse_malformed(void **state)
{
	char *text;
	size_t n = sizeof(((struct pfsel_check_decision *)0)->rule_file);

	(void)state;
	answer_bad("verdict allow\nsystem none\n", "no user line");
	answer_bad("system none\nuser none\n", "no verdict line");
	answer_bad("", "no verdict line");
	answer_bad("verdict maybe\nsystem none\nuser none\n", "bad verdict");
	answer_bad("verdict allow\nsystem allow\nuser none\n",
		   "a verdict and a rule");
	answer_bad("verdict allow\nsystem sure default\nuser none\n",
		   "bad verdict");
	answer_bad("verdict allow\nsystem allow /a.pfw:3\nuser none\n",
		   "bad rule");
	answer_bad("verdict allow\nsystem allow /a.pfw:0:1\nuser none\n",
		   "bad rule");
	answer_bad("verdict allow\nsystem allow :3:1\nuser none\n", "bad rule");
	answer_bad("verdict allow\nsystem allow /a.pfw:3:-1\nuser none\n",
		   "bad rule");
	answer_bad("verdict allow\nsystem none\nsystem none\nuser none\n",
		   "twice");
	answer_bad("verdict allow\nsystem none\nuser\n", "key value");
	/* A rule file longer than the field. */
	text = malloc(n + 64);
	assert_non_null(text);
	strcpy(text, "verdict deny\nsystem none\nuser deny /");
	memset(text + strlen(text), 'a', n);
	strcpy(text + strlen(text) - 1, ":1:1\n");
	answer_bad(text, "bad rule");
	free(text);
}

static void test_check_file(void **state)
{
	static const char answer[] = "verdict deny\nsystem allow default\n"
				     "user deny /home/a/.pfw:3:1\n";
	struct pfsel_check_request req = { .op = PFSEL_OP_CREATE,
					   .proto = PFSEL_PROTO_TCP,
					   .family = PFSEL_FAMILY_INET };
	struct pfsel_check_answer *ans = malloc(sizeof(*ans));
	char text[512];

	(void)state;
	assert_non_null(ans);
	/* No such file: open() and the file named. */
	assert_int_equal(pfsel_check(&req, ans), -ENOENT);
	assert_non_null(strstr(pfsel_last_error(), "open("));
	assert_non_null(strstr(pfsel_last_error(), "/check)"));

	/*
	 * A plain file reads back what was written over it: the request
	 * (lines the answer's parser skips), then the answer left behind.
	 */
	snprintf(text, sizeof(text), "op create\nproto tcp\nfamily inet\n%s",
		 answer);
	put_file("check", text);
	assert_int_equal(pfsel_check(&req, ans), 0);
	assert_string_equal(get_file("check"), text);
	assert_int_equal(ans->verdict, PFSEL_VERDICT_DENY);
	assert_int_equal(ans->system.verdict, PFSEL_VERDICT_ALLOW);
	assert_int_equal(ans->user.rule_line, 3);

	/* Only the request, no answer: malformed, nothing filled in. */
	put_file("check", "");
	assert_int_equal(pfsel_check(&req, ans), -EBADMSG);
	assert_string_equal(get_file("check"),
			    "op create\nproto tcp\nfamily inet\n");
	assert_false(ans->system.loaded);
	assert_int_equal(ans->verdict, 0);

	/* A request the kernel would refuse is not written. */
	put_file("check", "");
	req.family = PFSEL_FAMILY_PACKET;
	assert_int_equal(pfsel_check(&req, ans), -EINVAL);
	assert_string_equal(get_file("check"), "");
	free(ans);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_root_override, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_policy_info, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policies_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_enforce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_avc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hooks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hook_timing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_load_fd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_unload, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ask_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ask_stats_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_format_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_parse_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
