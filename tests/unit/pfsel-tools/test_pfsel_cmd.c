// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the pfsel command's securityfs subcommands (pfsel-tools/
 * pfsel: status, enforce, load, unload, list, check, stats) against
 * fixture files in a temporary folder set as the securityfs root through
 * libpfsel's override; and its usage errors and exit codes.  And compare,
 * on policies the real pfwc compiles ($BUILD/bin/pfwc).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "cmd.h"
#include "pfwc_compile.h"

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

static int run(char **out, char **err, ...)
{
	char *argv[32] = { "pfsel" };
	size_t out_size, err_size;
	FILE *o, *e;
	va_list ap;
	int argc = 1, ret;

	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	o = open_memstream(out, &out_size);
	e = open_memstream(err, &err_size);
	assert_non_null(o);
	assert_non_null(e);
	ret = pfselcmd_main(argc, argv, o, e);
	fclose(o);
	fclose(e);
	return ret;
}

static int setup(void **state)
{
	char avc[128];

	(void)state;
	strcpy(root, "/tmp/pfsel-cmd-test.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(avc, sizeof(avc), "%s/avc", root);
	mkdir(avc, 0700);
	return pfsel_set_securityfs(root);
}

/* Every test starts from the same files. */
static int reset(void **state)
{
	(void)state;
	pfsel_set_securityfs(root);
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
	put_file("ask_stats",
		 "questions merged answered unanswered no_agent overflow "
		 "kept_hits interrupted agents pending kept\n"
		 "4 1 2 1 0 0 3 0 2 0 1\n");
	put_file("avc/cache_stats",
		 "lookups hits misses allocations reclaims frees\n"
		 "100 90 10 10 2 1\n");
	put_file("avc/cache_threshold", "512\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	pfsel_set_securityfs(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_status(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "status", NULL));
	assert_non_null(strstr(out, "pfsel status:           enabled\n"));
	assert_non_null(strstr(out, "Current mode:           enforcing\n"));
	assert_non_null(strstr(out, "Kernel ABI version:     1\n"));
	assert_non_null(strstr(out, "System policy:          loaded\n"));
	assert_non_null(strstr(out, "User policies:          2\n"));
	assert_non_null(strstr(out, "Policy generation:      7\n"));
	assert_non_null(strstr(out, "Agents registered:      2\n"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "status", "--json", NULL));
	assert_string_equal("{\"enabled\":true,\"mode\":\"enforcing\","
			    "\"abi_version\":1,\"system_policy\":true,"
			    "\"user_policies\":2,\"generation\":7,"
			    "\"agents\":2}\n",
			    out);
	free(out);
	free(err);

	/* A kernel without ask_stats: no agents line. */
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/ask_stats"));
	assert_int_equal(0, run(&out, &err, "status", NULL));
	assert_null(strstr(out, "Agents"));
	free(out);
	free(err);

	put_file("status", "version: 1\nmode: sideways\n");
	assert_int_equal(1, run(&out, &err, "status", NULL));
	assert_non_null(strstr(err, "status"));
	free(out);
	free(err);
}

static void test_unavailable(void **state)
{
	char *out, *err;

	(void)state;
	pfsel_set_securityfs("/nonexistent/pfsel");
	assert_int_equal(3, run(&out, &err, "status", NULL));
	assert_string_equal("pfsel status:           disabled\n", out);
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "status", "--json", NULL));
	assert_string_equal("{\"enabled\":false}\n", out);
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "list", NULL));
	assert_non_null(strstr(err, "stat(/nonexistent/pfsel)"));
	assert_non_null(strstr(err, strerror(ENOENT)));
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "enforce", NULL));
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "stats", NULL));
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "unload", "system", NULL));
	free(out);
	free(err);
	assert_int_equal(3, run(&out, &err, "check", "create", "tcp", "inet",
				NULL));
	free(out);
	free(err);
	/* Usage errors come first. */
	assert_int_equal(2, run(&out, &err, "enforce", "yes", NULL));
	free(out);
	free(err);
}

static void test_enforce(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "enforce", NULL));
	assert_string_equal("enforcing\n", out);
	free(out);
	free(err);
	/* The library writes without O_TRUNC, as the kernel's file wants. */
	put_file("enforce", "");
	assert_int_equal(0, run(&out, &err, "enforce", "0", NULL));
	assert_string_equal("0", get_file("enforce"));
	free(out);
	free(err);
	put_file("enforce", "");
	assert_int_equal(0, run(&out, &err, "enforce", "Enforcing", NULL));
	assert_string_equal("1", get_file("enforce"));
	free(out);
	free(err);
	put_file("enforce", "0\n");
	assert_int_equal(0, run(&out, &err, "enforce", NULL));
	assert_string_equal("permissive\n", out);
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "enforce", "2", NULL));
	assert_non_null(strstr(err, "'2' is not a mode"));
	assert_non_null(strstr(err, "Try 'pfsel enforce --help'"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "enforce", "1", "0", NULL));
	free(out);
	free(err);
	/* A file that cannot be written: the syscall, file and errno. */
	chmod(strcat(strcpy((char[128]){ 0 }, root), "/enforce"), 0444);
	if (geteuid() != 0) {
		assert_int_equal(1, run(&out, &err, "enforce", "1", NULL));
		assert_non_null(strstr(err, "/enforce): "));
		assert_non_null(strstr(err, strerror(EACCES)));
		free(out);
		free(err);
	}
}

static void test_load_unload(void **state)
{
	char policy[128], *out, *err;

	(void)state;
	snprintf(policy, sizeof(policy), "%s/alice.pfsel", root);
	put_file("alice.pfsel", "PFSELBLOB");
	assert_int_equal(0, run(&out, &err, "load", policy, NULL));
	assert_string_equal("PFSELBLOB", get_file("load"));
	assert_string_equal("", err);
	free(out);
	free(err);

	assert_int_equal(1,
			 run(&out, &err, "load", "/nonexistent/x.pfsel", NULL));
	assert_non_null(strstr(err, "access(/nonexistent/x.pfsel): "));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "load", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "load", policy, policy, NULL));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "unload", "system", NULL));
	assert_string_equal("system", get_file("unload"));
	free(out);
	free(err);
	put_file("unload", "");
	assert_int_equal(0, run(&out, &err, "unload", "1002", NULL));
	assert_string_equal("1002", get_file("unload"));
	free(out);
	free(err);
	{
		char own[16];

		snprintf(own, sizeof(own), "%u", (unsigned int)getuid());
		put_file("unload", "");
		assert_int_equal(0, run(&out, &err, "unload", NULL));
		assert_string_equal(own, get_file("unload"));
		free(out);
		free(err);
	}
	assert_int_equal(2, run(&out, &err, "unload", "alice", NULL));
	assert_non_null(strstr(err, "neither 'system' nor a uid"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "unload", "4294967295", NULL));
	free(out);
	free(err);
}

static void test_list(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "list", NULL));
	assert_string_equal(
		"POLICY     GENERATION     SIZE  RULES MODE       SHA256\n"
		"system              3     5120     14 enforcing  "
		"8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001\n"
		"1001                7     2048      3 permissive "
		"01b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d4\n",
		out);
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "list", "--json", NULL));
	assert_string_equal(
		"[{\"policy\":\"system\",\"uid\":null,\"generation\":3,"
		"\"size\":5120,\"rules\":14,\"sha256\":"
		"\"8f31c2a000112233445566778899aabbccddeeffc0ffee00deadbeef00000001\","
		"\"mode\":\"enforcing\"},{\"policy\":\"user\",\"uid\":1001,"
		"\"generation\":7,\"size\":2048,\"rules\":3,\"sha256\":"
		"\"01b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d401b2c3d4\",\"mode\":\"permissive\"}]\n",
		out);
	free(out);
	free(err);
	put_file("policies", "");
	assert_int_equal(0, run(&out, &err, "list", NULL));
	assert_string_equal("no policy is loaded\n", out);
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "list", "--json", NULL));
	assert_string_equal("[]\n", out);
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "list", "--bogus", NULL));
	free(out);
	free(err);
}

static void test_stats(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "stats", NULL));
	assert_non_null(strstr(out, "  hits         90 (90.0%)\n"));
	assert_non_null(strstr(out, "  threshold    512\n"));
	assert_non_null(strstr(out, "  agents       2\n"));
	assert_non_null(strstr(out, "  socket_create                  10 "
				    "            2000        200\n"));
	assert_non_null(strstr(out, "  inet_conn_request               0 "
				    "               0          -\n"));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "stats", "--json", NULL));
	assert_string_equal(
		"{\"avc\":{\"lookups\":100,\"hits\":90,\"misses\":10,"
		"\"allocations\":10,\"reclaims\":2,\"frees\":1,"
		"\"threshold\":512},\"ask\":{\"questions\":4,\"merged\":1,"
		"\"answered\":2,\"unanswered\":1,\"no_agent\":0,"
		"\"overflow\":0,\"kept_hits\":3,\"interrupted\":0,"
		"\"agents\":2,\"pending\":0,\"kept\":1},\"hooks\":["
		"{\"name\":\"socket_create\",\"calls\":10,\"ns\":2000},"
		"{\"name\":\"socket_connect\",\"calls\":5,\"ns\":900},"
		"{\"name\":\"inet_conn_request\",\"calls\":0,\"ns\":0}]}\n",
		out);
	free(out);
	free(err);
	put_file("avc/cache_stats", "lookups hits\n1\n");
	assert_int_equal(1, run(&out, &err, "stats", NULL));
	assert_non_null(strstr(err, "cache_stats"));
	free(out);
	free(err);
}

/*
 * The check file: a plain file in the fixture reads back the request
 * written over it (lines an answer's parser skips), then the answer.
 */
static void put_check_answer(const char *request, const char *answer)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s%s", request, answer);
	put_file("check", text);
}

static void test_check(void **state)
{
	static const char request[] = "uid 1001\nexe /usr/bin/curl\n"
				      "op connect\nproto tcp\n"
				      "addr 2001:db8::1\nport 443\n";
	char *out, *err;

	(void)state;
	put_check_answer(request, "verdict deny\nsystem allow default\n"
				  "user deny /home/a/.pfw:3:1\n");
	assert_int_equal(0, run(&out, &err, "check", "--uid=1001",
				"--exe=/usr/bin/curl", "connect", "tcp",
				"2001:db8::1", "443", NULL));
	assert_string_equal("verdict  deny\n"
			    "system   allow  by its default verdict\n"
			    "user     deny   by rule /home/a/.pfw:3:1\n",
			    out);
	assert_string_equal("", err);
	assert_memory_equal(get_file("check"), request, strlen(request));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "check", "--uid=1001",
				"--exe=/usr/bin/curl", "--json", "connect",
				"tcp", "2001:db8::1", "443", NULL));
	assert_string_equal("{\"verdict\":\"deny\",\"system\":{\"verdict\":"
			    "\"allow\",\"rule\":null},\"user\":{\"verdict\":"
			    "\"deny\",\"rule\":\"/home/a/.pfw:3:1\"}}\n",
			    out);
	free(out);
	free(err);
	assert_int_equal(10, run(&out, &err, "check", "--uid=1001",
				 "--exe=/usr/bin/curl", "-q", "connect", "tcp",
				 "2001:db8::1", "443", NULL));
	assert_string_equal("", out);
	free(out);
	free(err);

	put_check_answer("op create\nproto packet\n",
			 "verdict ask\nsystem none\nuser ask /p.pfw:1:2\n");
	assert_int_equal(11, run(&out, &err, "check", "--quiet", "create",
				 "packet", NULL));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "check", "create", "packet", NULL));
	assert_string_equal("verdict  ask\nsystem   none loaded\n"
			    "user     ask    by rule /p.pfw:1:2\n",
			    out);
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "check", "--json", "create",
				"packet", NULL));
	assert_string_equal("{\"verdict\":\"ask\",\"system\":null,\"user\":{"
			    "\"verdict\":\"ask\",\"rule\":\"/p.pfw:1:2\"}}\n",
			    out);
	free(out);
	free(err);

	/* An answer the library cannot read: the file named, exit 1. */
	put_file("check", "");
	assert_int_equal(1, run(&out, &err, "check", "create", "udp", "inet",
				NULL));
	assert_non_null(strstr(err, "pfsel check: "));
	assert_non_null(strstr(err, "/check line"));
	free(out);
	free(err);
	unlink(strcat(strcpy((char[128]){ 0 }, root), "/check"));
}

static void test_check_usage(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(2, run(&out, &err, "check", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "connect", "tcp",
				"192.0.2.1", NULL));
	assert_non_null(strstr(err, "needs a port"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "connect", "tcp",
				"192.0.2.1", "65536", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "--uid=-1", "connect",
				"icmp", "192.0.2.1", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "create", "tcp", "inet",
				"80", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "--script=/x.py", "create",
				"tcp", "inet", NULL));
	assert_non_null(strstr(err, "--exe"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "--exe", NULL));
	assert_non_null(strstr(err, "needs an argument"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "bind", "tcp",
				"10.0.0.300", "80", NULL));
	assert_non_null(strstr(err, "'10.0.0.300' is not an IPv4 or IPv6"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "--exe=curl", "bind",
				"tcp", "10.0.0.1", "80", NULL));
	assert_non_null(strstr(err, "'curl' is not an absolute path"));
	assert_non_null(strstr(err, "Try 'pfsel check --help'"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "shutdown", "tcp",
				"10.0.0.1", "80", NULL));
	assert_non_null(strstr(err, "'shutdown' is not an operation"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "connect", "sctp",
				"10.0.0.1", NULL));
	assert_non_null(strstr(err, "'sctp' is not a protocol"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "connect", "packet",
				"10.0.0.1", NULL));
	assert_non_null(strstr(err, "decided at create only"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "create", "udp", NULL));
	assert_non_null(strstr(err, "'' is not a family (inet, inet6)"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "check", "create", "udp", "ipx",
				NULL));
	assert_non_null(strstr(err, "'ipx' is not a family"));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "check", "--help", NULL));
	assert_non_null(strstr(out, "10 deny, 11 ask"));
	free(out);
	free(err);
	/* No check file in the fixture: open() fails, named. */
	assert_int_equal(3, run(&out, &err, "check", "connect", "icmp",
				"192.0.2.1", NULL));
	assert_non_null(strstr(err, "/check): "));
	free(out);
	free(err);
}

static void test_main(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(2, run(&out, &err, NULL));
	assert_non_null(strstr(err, "Usage: pfsel COMMAND"));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "frobnicate", NULL));
	assert_non_null(strstr(err, "'frobnicate' is not a command"));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "--help", NULL));
	assert_non_null(strstr(out, "audit2pfw"));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "--version", NULL));
	assert_non_null(strstr(out, "pfsel "));
	free(out);
	free(err);
	{
		static const char *const cmds[] = {
			"status", "enforce", "load", "unload",	 "list",
			"check",  "stats",   "log",  "audit2pfw"
		};
		size_t i;

		for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			assert_int_equal(0,
					 run(&out, &err, cmds[i], "-h", NULL));
			assert_non_null(strstr(out, "Usage: pfsel "));
			assert_non_null(strstr(out, "Exit status"));
			free(out);
			free(err);
		}
	}
}

static void test_json_str(void **state)
{
	char *text;
	size_t size;
	FILE *f = open_memstream(&text, &size);

	(void)state;
	pfselcmd_json_str(f, "a\"b\\c\nd\x01");
	fputc(' ', f);
	pfselcmd_json_str(f, NULL);
	fclose(f);
	assert_string_equal("\"a\\\"b\\\\c\\nd\\u0001\" null", text);
	free(text);
}

/*
 * pfsel status's SELinux part: the mode from selinuxfs's enforce, the
 * caller's context from /proc/self/attr/current (its NUL and newline
 * dropped); nothing where SELinux is not enabled.  And not beside a
 * test's securityfs folder, so that the status above stays the same.
 */
static void test_selinux_status(void **state)
{
	struct pfselcmd_selinux se = { .enforcing = true, .context = "x" };
	char enforce[128], current[128], *out, *err;
	FILE *f;

	(void)state;
	snprintf(enforce, sizeof(enforce), "%s/enforce", root);
	snprintf(current, sizeof(current), "%s/current", root);
	assert_false(pfselcmd_selinux_read("/nonexistent/enforce", current,
					   &se));
	assert_true(se.enforcing);
	assert_string_equal("x", se.context);

	put_file("current", "system_u:system_r:kernel_t");
	f = fopen(current, "a");
	assert_non_null(f);
	fputc('\0', f);
	fclose(f);
	assert_true(pfselcmd_selinux_read(enforce, current, &se));
	assert_true(se.enforcing); /* "1\n" */
	assert_string_equal("system_u:system_r:kernel_t", se.context);

	put_file("enforce", "0");
	put_file("current", "unconfined_u:unconfined_r:unconfined_t:s0\n");
	assert_true(pfselcmd_selinux_read(enforce, current, &se));
	assert_false(se.enforcing);
	assert_string_equal("unconfined_u:unconfined_r:unconfined_t:s0",
			    se.context);

	/* Enabled, but the context unreadable. */
	assert_true(pfselcmd_selinux_read(enforce, "/nonexistent/current",
					  &se));
	assert_string_equal("", se.context);

	assert_int_equal(0, run(&out, &err, "status", NULL));
	assert_null(strstr(out, "SELinux"));
	free(out);
	free(err);
}

/* Compile @text with pfwc into @name, in the test's folder. */
static void put_policy(const char *name, const char *text)
{
	struct blob b = compile_for(text, 1001);
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b.data, 1, b.len, f), b.len);
	fclose(f);
	free(b.data);
}

/*
 * Issue 27's pair: the new policy lets the unnamed application ("?")
 * create sockets and connect to port 7022, and pfsel compare says so.
 */
static void test_compare_unnamed(void **state)
{
	static const char old[] =
		"default deny;\n"
		"allow /** create;\n"
		"allow /** connect tcp to loopback port 7443;\n";
	char old_path[256], new_path[256];
	char *out, *err;

	(void)state;
	assert_int_equal(find_pfwc(NULL), 0);
	put_policy("old.pfsel", old);
	put_policy("new.pfsel", "default deny;\n"
				"allow /** create;\n"
				"allow /** connect tcp to loopback port 7443;\n"
				"deny /** connect tcp to loopback port 7022;\n"
				"allow * create;\n"
				"allow * connect tcp to loopback port 7022;\n");
	snprintf(old_path, sizeof(old_path), "%s/old.pfsel", root);
	snprintf(new_path, sizeof(new_path), "%s/new.pfsel", root);

	assert_int_equal(1, run(&out, &err, "compare", "--max", "20", old_path,
				new_path, NULL));
	assert_non_null(strstr(out, "allow ? create tcp family inet;"));
	assert_non_null(strstr(out, "allow ? create packet;"));
	assert_non_null(strstr(out, "allow ? connect tcp to 127.0.0.0/8 "
				    "port 7022;  # now allow by "));
	/* Every named application is denied there, as before. */
	assert_null(strstr(out, "allow /"));
	assert_non_null(strstr(err, "is looser than"));
	free(out);
	free(err);

	assert_int_equal(0,
			 run(&out, &err, "compare", new_path, old_path, NULL));
	assert_non_null(strstr(out, "no looser"));
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_status, reset),
		cmocka_unit_test_setup(test_unavailable, reset),
		cmocka_unit_test_setup(test_enforce, reset),
		cmocka_unit_test_setup(test_load_unload, reset),
		cmocka_unit_test_setup(test_list, reset),
		cmocka_unit_test_setup(test_stats, reset),
		cmocka_unit_test_setup(test_check, reset),
		cmocka_unit_test_setup(test_check_usage, reset),
		cmocka_unit_test(test_main),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test_setup(test_selinux_status, reset),
		cmocka_unit_test(test_compare_unnamed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
