// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the pfsel command's securityfs subcommands (pfsel-tools/
 * pfsel: status, enforce, load, unload, list, check, stats) against
 * fixture files in a temporary folder set as the securityfs root through
 * libpfsel's override; and its usage errors and exit codes.
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
		"system generation=3 size=5120 rules=14 checksum=0x8f31c2a0 mode=enforcing\n"
		"1001 generation=7 size=2048 rules=3 checksum=0x01b2c3d4 mode=permissive\n");
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
		"POLICY     GENERATION     SIZE  RULES CHECKSUM   MODE\n"
		"system              3     5120     14 0x8f31c2a0 enforcing\n"
		"1001                7     2048      3 0x01b2c3d4 permissive\n",
		out);
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "list", "--json", NULL));
	assert_string_equal(
		"[{\"policy\":\"system\",\"uid\":null,\"generation\":3,"
		"\"size\":5120,\"rules\":14,\"checksum\":\"0x8f31c2a0\","
		"\"mode\":\"enforcing\"},{\"policy\":\"user\",\"uid\":1001,"
		"\"generation\":7,\"size\":2048,\"rules\":3,\"checksum\":"
		"\"0x01b2c3d4\",\"mode\":\"permissive\"}]\n",
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

static void test_check_format(void **state)
{
	struct pfselcmd_check_request req = {
		.has_uid = true,
		.uid = 1001,
		.exe = "/usr/bin/python3",
		.script = "/home/a/x.py",
		.op = "connect",
		.proto = "tcp",
		.addr = "2001:db8::1",
		.has_port = true,
		.port = 443,
	};
	char buf[512], msg[256];

	(void)state;
	assert_int_equal(97, pfselcmd_check_format(&req, buf, sizeof(buf), msg,
						   sizeof(msg)));
	assert_string_equal("uid 1001\nexe /usr/bin/python3\n"
			    "script /home/a/x.py\nop connect\nproto tcp\n"
			    "addr 2001:db8::1\nport 443\n",
			    buf);
	req = (struct pfselcmd_check_request){ .op = "create",
					       .proto = "udp",
					       .family = "inet6" };
	assert_true(pfselcmd_check_format(&req, buf, sizeof(buf), msg,
					  sizeof(msg)) > 0);
	assert_string_equal("op create\nproto udp\nfamily inet6\n", buf);
	req.proto = "packet";
	req.family = NULL;
	assert_true(pfselcmd_check_format(&req, buf, sizeof(buf), msg,
					  sizeof(msg)) > 0);
	req.proto = "udp"; /* create udp needs its family */
	assert_int_equal(-EINVAL, pfselcmd_check_format(&req, buf, sizeof(buf),
							msg, sizeof(msg)));
	req = (struct pfselcmd_check_request){ .op = "bind",
					       .proto = "tcp",
					       .addr = "10.0.0.300" };
	assert_int_equal(-EINVAL, pfselcmd_check_format(&req, buf, sizeof(buf),
							msg, sizeof(msg)));
	assert_non_null(strstr(msg, "10.0.0.300"));
	req.addr = "10.0.0.1";
	req.exe = "curl";
	assert_int_equal(-EINVAL, pfselcmd_check_format(&req, buf, sizeof(buf),
							msg, sizeof(msg)));
	req.exe = NULL;
	req.op = "shutdown";
	assert_int_equal(-EINVAL, pfselcmd_check_format(&req, buf, sizeof(buf),
							msg, sizeof(msg)));
	req.op = "connect";
	req.proto = "packet";
	assert_int_equal(-EINVAL, pfselcmd_check_format(&req, buf, sizeof(buf),
							msg, sizeof(msg)));
	/* Too small a buffer. */
	req.proto = "tcp";
	assert_int_equal(-ENOSPC,
			 pfselcmd_check_format(&req, buf, 8, msg, sizeof(msg)));
}

static void test_check_parse(void **state)
{
	struct pfselcmd_check_answer ans;

	(void)state;
	assert_int_equal(
		0, pfselcmd_check_parse("verdict deny\nsystem allow default\n"
					"user deny /home/a/.pfw:3:1\n",
					&ans));
	assert_string_equal("deny", ans.verdict);
	assert_true(ans.system.loaded);
	assert_string_equal("allow", ans.system.verdict);
	assert_string_equal("default", ans.system.rule);
	assert_string_equal("/home/a/.pfw:3:1", ans.user.rule);
	assert_int_equal(0, pfselcmd_check_parse("verdict allow\nsystem none\n"
						 "user none\nfuture yes\n",
						 &ans));
	assert_false(ans.system.loaded);
	assert_false(ans.user.loaded);
	assert_int_equal(-EBADMSG,
			 pfselcmd_check_parse("verdict allow\nsystem none\n",
					      &ans));
	assert_int_equal(-EBADMSG,
			 pfselcmd_check_parse("verdict maybe\nsystem none\n"
					      "user none\n",
					      &ans));
	assert_int_equal(-EBADMSG,
			 pfselcmd_check_parse("verdict allow\nsystem allow\n"
					      "user none\n",
					      &ans));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_status, reset),
		cmocka_unit_test_setup(test_unavailable, reset),
		cmocka_unit_test_setup(test_enforce, reset),
		cmocka_unit_test_setup(test_load_unload, reset),
		cmocka_unit_test_setup(test_list, reset),
		cmocka_unit_test_setup(test_stats, reset),
		cmocka_unit_test(test_check_format),
		cmocka_unit_test(test_check_parse),
		cmocka_unit_test_setup(test_check_usage, reset),
		cmocka_unit_test(test_main),
		cmocka_unit_test(test_json_str),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
