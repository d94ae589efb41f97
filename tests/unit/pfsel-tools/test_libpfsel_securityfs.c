// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for libpfsel's securityfs calls (pfsel-tools/lib/securityfs.c)
 * against fixture files in a temporary folder, set as the securityfs root.
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
		"system generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n"
		"1001 generation=7 size=2048 rules=3 checksum=0x01b2c3d4 mode=permissive\n");
	put_file("enforce", "1\n");
	put_file("load", "");
	put_file("unload", "");
	put_file("hooks", "socket_create 10 2000\nsocket_connect 5 900\n"
			  "inet_conn_request 0 0\n");
	put_file("avc/cache_stats",
		 "lookups hits misses allocations reclaims frees\n"
		 "100 90 10 10 2 1\n");
	put_file("avc/cache_threshold", "512\n");
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
	assert_int_equal(p[0].checksum, 0x8f31c2a0);
	assert_false(p[0].permissive);
	assert_false(p[1].system);
	assert_int_equal(p[1].uid, 1001);
	assert_int_equal(p[1].checksum, 0x01b2c3d4);
	assert_true(p[1].permissive);
	free(p);

	put_file("policies", "");
	assert_int_equal(pfsel_policies(&p, &n), 0);
	assert_int_equal(n, 0);
	assert_null(p);

	/* No newline after the last line. */
	put_file(
		"policies",
		"4294967294 generation=1 size=1 rules=0 checksum=0x0 mode=enforcing");
	assert_int_equal(pfsel_policies(&p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].uid, 4294967294u);
	free(p);
}

static void test_policies_malformed(void **state)
{
	static const char *const bad[] = {
		"system generation=3 size=5120 rules=14 checksum=0x8f31c2a0\n",
		"system size=5120 generation=3 rules=14 checksum=0x8f31c2a0 mode=enforcing\n",
		"root generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 checksum=8f31c2a0 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=lax\n",
		"1001 generation=-3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n",
		"1001 generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing x\n",
		"1001 generation=3 size=5120 rules=14 checksum=0x18f31c2a0 mode=enforcing\n",
		"system generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n\n",
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
		cmocka_unit_test_setup_teardown(test_policies_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_enforce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_avc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hooks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_unload, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
