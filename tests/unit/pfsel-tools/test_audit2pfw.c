// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for `pfsel audit2pfw` and `pfsel log` (pfsel-tools/pfsel/
 * audit2pfw.c, logcmd.c, auditlog.c): audit logs as fixture files
 * (tests/unit/fixtures/audit2pfw/), read through libpfsel's reader
 * (libauparse; its decoding: test_libpfsel_audit.c); every rule
 * set audit2pfw prints is compiled with pfwc, and the compiled policy must
 * allow the requests that were denied (pfwc --query).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

/* The repository, from this file's path (the Makefile compiles it whole). */
static char root[2048];
static char tmpdir[64];

static const char *path_of(const char *rel, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", root, rel);
	return buf;
}

static const char *fixture(const char *name)
{
	static char buf[4][4096];
	static int next;
	char rel[256];

	snprintf(rel, sizeof(rel), "tests/unit/fixtures/audit2pfw/%s", name);
	next = (next + 1) % 4;
	return path_of(rel, buf[next], sizeof(buf[next]));
}

static const char *pfwc(void)
{
	static char buf[4096];
	const char *build = getenv("BUILD");

	if (build && *build)
		snprintf(buf, sizeof(buf), "%s/bin/pfwc", build);
	else
		path_of("build/bin/pfwc", buf, sizeof(buf));
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	int c;

	assert_non_null(f);
	mem = open_memstream(&text, &size);
	assert_non_null(mem);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(mem);
	fclose(f);
	return text;
}

/* Run `pfsel ARGS...` (NULL-terminated): exit code, outputs malloc()ed. */
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
	char here[4096];

	(void)state;
	snprintf(here, sizeof(here), "%s", __FILE__);
	/* .../tests/unit/pfsel-tools/test_audit2pfw.c -> ... */
	snprintf(root, sizeof(root), "%s/../../..", dirname(here));
	strcpy(tmpdir, "/tmp/audit2pfw-test.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Run a program (argv[0] a path) and capture its stdout: exit status. */
static int spawn(char *const argv[], char *out, size_t size)
{
	int pipefd[2], status;
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	assert_int_equal(0, pipe(pipefd));
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	while (len < size - 1 &&
	       (n = read(pipefd[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(pipefd[0]);
	assert_int_equal(pid, waitpid(pid, &status, 0));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * Compile "policy user 1001; default deny;" followed by @rules with
 * pfwc -Werror into @compiled.
 */
static void compile(const char *rules, char *compiled, size_t size)
{
	char source[256], out[4096];
	char *argv[] = {
		(char *)pfwc(), "-Werror", "-o", compiled, source, NULL
	};
	FILE *f;

	snprintf(source, sizeof(source), "%s/rules.pfw", tmpdir);
	snprintf(compiled, size, "%s/rules.pfsel", tmpdir);
	f = fopen(source, "w");
	assert_non_null(f);
	fputs("policy user 1001;\ndefault deny;\n", f);
	fputs(rules, f);
	fclose(f);
	assert_int_equal(0, spawn(argv, out, sizeof(out)));
}

/* pfwc --query: the verdict word for one request. */
static void expect_query(const char *compiled, const char *app, const char *op,
			 const char *proto, const char *addr, const char *port,
			 const char *verdict)
{
	char out[4096];
	char *argv[] = { (char *)pfwc(), "--query",    (char *)compiled,
			 (char *)app,	 (char *)op,   (char *)proto,
			 (char *)addr,	 (char *)port, NULL };

	assert_int_equal(0, spawn(argv, out, sizeof(out)));
	if (strncmp(out, verdict, strlen(verdict))) {
		print_error("%s %s %s %s %s: got '%s', want %s\n", app, op,
			    proto, addr, port, out, verdict);
		fail();
	}
}

/* pfwc --query --host @host: the verdict word for one request. */
static void expect_query_host(const char *compiled, const char *app,
			      const char *op, const char *host,
			      const char *addr, const char *port,
			      const char *verdict)
{
	char out[4096], opt[512];
	char *argv[] = { (char *)pfwc(), "--query",  opt,   (char *)compiled,
			 (char *)app,	 (char *)op, "tcp", (char *)addr,
			 (char *)port,	 NULL };

	snprintf(opt, sizeof(opt), "--host=%s", host);
	assert_int_equal(0, spawn(argv, out, sizeof(out)));
	if (strncmp(out, verdict, strlen(verdict))) {
		print_error("%s %s %s (%s) %s: got '%s', want %s\n", app, op,
			    addr, host, port, out, verdict);
		fail();
	}
}

static void test_golden(void **state)
{
	char *out, *err, *expected;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("denials.log"), NULL));
	expected = slurp(fixture("denials.expected"));
	assert_string_equal(expected, out);
	/* The record with the address 1.2.3 is skipped, and said so. */
	assert_non_null(strstr(err, "1 pfsel record could not be read"));
	free(expected);
	free(out);
	free(err);
}

/* The rules compile, and allow each request that was denied. */
static void test_rules_compile_and_allow(void **state)
{
	char compiled[256], *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("denials.log"), "--verdict=all", NULL));
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.1",
		     "443", "allow");
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.1",
		     "80", "allow");
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "2001:db8::1",
		     "443", "allow");
	expect_query(compiled, "/usr/bin/curl", "bind", "tcp",
		     "2001:db8::", "0", "allow");
	expect_query(compiled, "/usr/bin/python3:/home/alice/bin/sync.py",
		     "connect", "udp", "198.51.100.53", "53", "allow");
	expect_query(compiled, "/usr/bin/python3:/home/alice/bin/m\"dns.py",
		     "connect", "udp", "ff02::fb", "5353", "allow");
	expect_query(compiled, "/usr/sbin/avahi-daemon", "bind", "udp",
		     "0.0.0.0", "5353", "allow");
	expect_query(compiled, "/home/alice/my apps/server", "listen", "tcp",
		     "::", "8080", "allow");
	expect_query(compiled, "/usr/sbin/sshd", "accept", "tcp", "10.0.0.9",
		     "22", "allow");
	expect_query(compiled, "/usr/bin/ping", "connect", "icmp", "192.0.2.7",
		     "0", "allow");
	expect_query(compiled, "/usr/sbin/tcpdump", "create", "packet",
		     "0.0.0.0", "0", "allow");
	expect_query(compiled, "/usr/bin/firefox", "connect", "tcp",
		     "192.0.2.50", "443", "allow");
	/* No more than that: other ports, addresses, apps stay denied. */
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.1",
		     "8080", "deny");
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.2",
		     "443", "deny");
	expect_query(compiled, "/usr/bin/python3", "connect", "udp",
		     "198.51.100.53", "53", "deny");
	expect_query(compiled, "/usr/sbin/sshd", "accept", "tcp", "10.0.0.8",
		     "22", "deny");
	expect_query(compiled, "/usr/bin/ping", "connect", "icmp", "192.0.2.8",
		     "0", "deny");
	free(out);
	free(err);
}

/*
 * A Flatpak application's records are the application's: one group and
 * one rule for every executable of it ("flatpak ID"), as executable and
 * as script; a user's own installation is its path.  A snap's are its
 * application's only where its revision's metadata says it is one
 * (app_sandbox_of()): no snap is installed here, so its record is its
 * path, that file only (test_rule_text and test_adv_fplang show "snap
 * NAME" with the metadata).  The rules compile and allow what was denied, for any
 * executable of the application, and nothing of another.
 */
static void test_sandbox_identities(void **state)
{
	char compiled[256], *out, *err, *expected;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("sandbox.log"), NULL));
	expected = slurp(fixture("sandbox.expected"));
	assert_string_equal(expected, out);
	free(expected);
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled,
		     "/var/lib/flatpak/app/org.mozilla.firefox/x86_64/stable/"
		     "4a1f2c/files/lib/firefox/firefox",
		     "connect", "tcp", "192.0.2.1", "443", "allow");
	/* Another executable, another commit: the same application. */
	expect_query(compiled,
		     "/var/lib/flatpak/app/org.mozilla.firefox/aarch64/beta/"
		     "ffee/files/bin/other",
		     "connect", "tcp", "192.0.2.1", "80", "allow");
	expect_query(compiled,
		     "/snap/chromium/2873/usr/lib/chromium-browser/chrome",
		     "connect", "tcp", "192.0.2.7", "443", "allow");
	expect_query(compiled, "/snap/chromium/2900/usr/lib/chromium/chrome",
		     "connect", "tcp", "192.0.2.7", "443", "deny");
	expect_query(compiled,
		     "/usr/bin/python3:/var/lib/flatpak/app/org.example.Tool/"
		     "x86_64/master/9e/files/bin/tool.py",
		     "connect", "tcp", "192.0.2.8", "22", "allow");
	/* Not another application, nor a user's installation of one. */
	expect_query(compiled,
		     "/var/lib/flatpak/app/org.mozilla.firefox.Locale/x86_64/"
		     "stable/1/files/x",
		     "connect", "tcp", "192.0.2.1", "443", "deny");
	expect_query(compiled,
		     "/home/bob/.local/share/flatpak/app/org.mozilla.firefox/"
		     "x86_64/stable/4a1f2c/files/lib/firefox/firefox",
		     "connect", "tcp", "192.0.2.9", "443", "deny");
	expect_query(compiled, "/usr/bin/python3", "connect", "tcp",
		     "192.0.2.8", "22", "deny");
	free(out);
	free(err);

	/* pfsel log names them the same way. */
	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("sandbox.log"),
				NULL));
	expected = slurp(fixture("sandbox-log.expected"));
	assert_string_equal(expected, out);
	free(expected);
	free(out);
	free(err);
}

/* create: the family clause (pfwc --query takes it from the address). */
static void test_create_family(void **state)
{
	char compiled[256], *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("denials.log"), "--app=/usr/bin/dig",
				NULL));
	assert_non_null(
		strstr(out, "allow /usr/bin/dig create udp family inet6;\n"));
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled, "/usr/bin/dig", "create", "udp", "::", "0",
		     "allow");
	expect_query(compiled, "/usr/bin/dig", "create", "udp", "0.0.0.0", "0",
		     "deny");
	free(out);
	free(err);
}

static void test_filters(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("denials.log"), "--uid", "1002", NULL));
	assert_non_null(strstr(out, "allow /usr/bin/wget connect tcp to "
				    "192.0.2.60 port 8443;"));
	assert_null(strstr(out, "curl"));
	free(out);
	free(err);

	assert_int_equal(0,
			 run(&out, &err, "audit2pfw", "-i",
			     fixture("denials.log"), "--verdict=allow", NULL));
	assert_string_equal(
		"# /usr/bin/firefox (uid 1001): 1 allowed\n"
		"#   allowed by the user policy's rule /home/alice/.pfw:3:1\n"
		"allow /usr/bin/firefox connect tcp to 192.0.2.50 port 443;\n"
		"\n",
		out);
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "audit2pfw", "-p", "-i",
				fixture("denials.log"), NULL));
	assert_non_null(strstr(out, "/usr/bin/wget"));
	assert_non_null(strstr(out, "(1 in permissive mode)"));
	assert_null(strstr(out, "curl"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "audit2pfw", "--policy=system",
				"-i", fixture("denials.log"), NULL));
	assert_string_equal(
		"# /usr/sbin/tcpdump (uid 1001): 1 denied\n"
		"#   denied by rule /etc/pfsel/system.pfw:20:1 of the system "
		"policy: put these rules before it\n"
		"allow /usr/sbin/tcpdump create packet;\n\n",
		out);
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("denials.log"), "--since=@1718000012",
				NULL));
	assert_non_null(strstr(out, "wget"));
	assert_non_null(strstr(out, "ff02::fb"));
	assert_null(strstr(out, "ping"));
	assert_null(strstr(out, "192.0.2.1 "));
	free(out);
	free(err);
}

static void test_stdin(void **state)
{
	char *out, *err, *expected;
	int saved = dup(0), fd;

	(void)state;
	fd = open(fixture("denials.log"), O_RDONLY);
	assert_true(fd >= 0);
	dup2(fd, 0);
	close(fd);
	clearerr(stdin);
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i", "-", NULL));
	dup2(saved, 0);
	close(saved);
	clearerr(stdin);
	expected = slurp(fixture("denials.expected"));
	assert_string_equal(expected, out);
	free(expected);
	free(out);
	free(err);
}

/* A newline in a path is written as an exact path with \n, and compiles. */
static void test_newline_path(void **state)
{
	char compiled[256], *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("newline.log"), NULL));
	assert_non_null(strstr(out, "# \"/tmp/a\\nb\" (uid 1001): 1 denied\n"));
	assert_non_null(strstr(
		out, "allow \"/tmp/a\\nb\" connect tcp to 192.0.2.9 port 80;"));
	assert_non_null(strstr(
		out, "allow /usr/bin/ok connect tcp to 192.0.2.9 port 80;"));
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled, "/tmp/a\nb", "connect", "tcp", "192.0.2.9", "80",
		     "allow");
	free(out);
	free(err);
}

/*
 * Names chosen by an attacker: terminal escape sequences in the
 * application and the rule file, an application literally named '*'.
 * Nothing is printed raw, and the rule for '*' allows that file only.
 */
static void test_escaped_names(void **state)
{
	char compiled[256], *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("escape.log"), NULL));
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	assert_non_null(strstr(out,
			       "# \"/tmp/x\\e[2K\\e[Gpfsel: "
			       "/usr/bin/firefox\" (uid 1001): 1 denied\n"));
	assert_non_null(strstr(out, "#   denied by rule /tmp/r\\e]0;t\\x07.pfw"
				    ":2:1 of the user policy"));
	assert_non_null(strstr(out,
			       "allow \"/tmp/globdir/\\x2a\" connect tcp to "
			       "192.0.2.9 port 81;\n"));
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled, "/tmp/globdir/*", "connect", "tcp", "192.0.2.9",
		     "81", "allow");
	expect_query(compiled, "/tmp/globdir/y", "connect", "tcp", "192.0.2.9",
		     "81", "deny");
	/* (--query cannot name the other: a ':' in APP starts a script.) */
	expect_query(compiled, "/usr/bin/firefox", "connect", "tcp",
		     "192.0.2.9", "80", "deny");
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("escape.log"),
				NULL));
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	assert_string_equal(
		"2024-06-10 06:16:40 deny  uid=1001 \"/tmp/x\\e[2K\\e[Gpfsel: "
		"/usr/bin/firefox\" connect tcp to 192.0.2.9:80 user default "
		"pid=2 subj=kernel\n"
		"2024-06-10 06:16:41 deny  uid=1001 \"/tmp/globdir/\\x2a\" connect "
		"tcp to 192.0.2.9:81 user \"/tmp/r\\e]0;t\\x07.pfw\":2:1 "
		"pid=3 subj=kernel\n",
		out);
	free(out);
	free(err);
}

static void test_nothing_and_errors(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("none.log"), NULL));
	assert_string_equal("", out);
	assert_non_null(strstr(err, "no matching pfsel records"));
	free(out);
	free(err);

	assert_int_equal(1, run(&out, &err, "audit2pfw", "-i",
				"/nonexistent/audit.log", NULL));
	assert_non_null(strstr(err, "/nonexistent/audit.log"));
	assert_non_null(strstr(err, strerror(ENOENT)));
	free(out);
	free(err);

	assert_int_equal(2, run(&out, &err, "audit2pfw", "--uid", "x", NULL));
	assert_non_null(strstr(err, "'x' is not a uid"));
	free(out);
	free(err);
	assert_int_equal(2,
			 run(&out, &err, "audit2pfw", "--verdict=maybe", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "audit2pfw", "extra", NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "audit2pfw", "--since=yesterdayish",
				NULL));
	free(out);
	free(err);
	assert_int_equal(2, run(&out, &err, "audit2pfw", "-i", NULL));
	assert_non_null(strstr(err, "needs an argument"));
	free(out);
	free(err);
	assert_int_equal(0, run(&out, &err, "audit2pfw", "--help", NULL));
	assert_non_null(strstr(out, "Usage: pfsel audit2pfw"));
	free(out);
	free(err);
}

static void test_log_golden(void **state)
{
	char *out, *err, *expected;

	(void)state;
	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				NULL));
	expected = slurp(fixture("log.expected"));
	assert_string_equal(expected, out);
	free(expected);
	free(out);
	free(err);
}

static void test_log_filters(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				"-n", "2", NULL));
	assert_string_equal(
		"2024-06-10 06:13:35 deny  uid=1001 /usr/bin/python3 script "
		"\"/home/alice/bin/m\\\"dns.py\" connect udp from [fe80::1]:5353 "
		"to [ff02::fb]:5353 user \"/home/alice/my rules.pfw\":4:1 "
		"pid=950 subj=unconfined_u:unconfined_r:unconfined_t:s0-s0:"
		"c0.c1023\n"
		"2024-06-10 06:13:36 deny  uid=1001 /usr/bin/curl bind tcp on "
		"[2001:db8::]:0 user default pid=813 "
		"subj=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023\n",
		out);
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				"--app=/usr/bin/c*", "--verdict=deny", NULL));
	assert_non_null(strstr(out, "/usr/bin/curl"));
	assert_null(strstr(out, "firefox"));
	assert_null(strstr(out, "ping"));
	free(out);
	free(err);

	/* --app matches a script too. */
	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				"--app=*/sync.py", NULL));
	assert_non_null(strstr(out, "sync.py"));
	assert_null(strstr(out, "curl"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				"--verdict=allow", "--json", NULL));
	assert_string_equal(
		"[{\"time\":1718000011.000,\"serial\":114,\"verdict\":"
		"\"allow\",\"asked\":null,\"permissive\":false,\"policy\":"
		"\"user\",\"rule\":\"/home/alice/.pfw:3:1\",\"uid\":1001,"
		"\"pid\":812,\"app\":\"/usr/bin/firefox\",\"script\":null,"
		"\"op\":\"connect\",\"protocol\":\"tcp\",\"family\":\"inet\","
		"\"laddr\":\"0.0.0.0\",\"lport\":0,\"raddr\":\"192.0.2.50\","
		"\"rport\":443,\"hosts\":null,\"subj\":\"unconfined_u:unconfined_r:"
		"unconfined_t:s0-s0:c0.c1023\"}]\n",
		out);
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("denials.log"),
				"--uid=1001", "--since=2024-06-10 06:13:35",
				"--json", NULL));
	assert_non_null(
		strstr(out, "\"script\":\"/home/alice/bin/m\\\"dns.py\""));
	assert_non_null(strstr(out, "},\n{"));
	assert_null(strstr(out, "wget"));
	free(out);
	free(err);

	assert_int_equal(2, run(&out, &err, "log", "-n", "0", NULL));
	free(out);
	free(err);
}

/*
 * The subject's context: an SELinux context as it is, AppArmor's label
 * with its mode (the one value with a blank), none when the record has no
 * subj=.
 */
static void test_log_subj(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0,
			 run(&out, &err, "log", "-i", fixture("subj.log"), NULL));
	assert_string_equal("", err);
	assert_non_null(strstr(
		out, " pid=301 subj=system_u:system_r:stack_probe_t\n"));
	assert_non_null(
		strstr(out, " pid=302 subj=\"pfsel-stack-probe (enforce)\"\n"));
	assert_non_null(strstr(out, " pid=303\n"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("subj.log"),
				"--json", NULL));
	assert_non_null(
		strstr(out, "\"subj\":\"system_u:system_r:stack_probe_t\"}"));
	assert_non_null(
		strstr(out, "\"subj\":\"pfsel-stack-probe (enforce)\"}"));
	assert_non_null(strstr(out, "\"subj\":null}]"));
	free(out);
	free(err);
}

/*
 * hosts=: audit2pfw writes "to host NAME" with the first name a rule can
 * write, one rule per name whatever the address (ports joined); the
 * address when no name can be written or the record has none, and always
 * with --addresses.  A list that is not one makes the record unreadable.
 */
static void test_hosts(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("hosts.log"), NULL));
	assert_non_null(strstr(err, "1 pfsel record could not be read"));
	assert_non_null(strstr(
		out,
		"# /usr/bin/curl (uid 1001): 4 denied\n"
		"#   denied by the user policy's default verdict\n"
		"#   a host rule matches the addresses the kernel learns "
		"for the name from\n"
		"#   DNS answers (--addresses: the addresses the records "
		"name)\n"
		"allow /usr/bin/curl connect tcp to host www.example.org "
		"port 80, 443;\n"
		"allow /usr/bin/curl connect tcp to 192.0.2.9 port 443;\n"));
	/* "*.cdn.example" is a pattern in the language: the next name. */
	assert_non_null(strstr(out, "allow /usr/bin/firefox connect tcp to "
				    "host cdn.example.net port 443;\n"));
	assert_non_null(strstr(out, "allow /usr/sbin/sshd accept tcp from "
				    "host client.example.org port 22;\n"));
	/* No name a rule can write: the address, and no word of hosts. */
	assert_non_null(strstr(out, "# /usr/bin/ping (uid 1001): 1 denied\n"
				    "#   denied by the user policy's default "
				    "verdict\n"
				    "allow /usr/bin/ping connect icmp to "
				    "192.0.2.7;\n"));
	assert_null(strstr(out, "93.184.216"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("hosts.log"), "--addresses", NULL));
	assert_non_null(strstr(out, "allow /usr/bin/curl connect tcp to "
				    "93.184.216.34 port 80, 443;\n"
				    "allow /usr/bin/curl connect tcp to "
				    "93.184.216.35 port 443;\n"));
	assert_non_null(strstr(out, "allow /usr/bin/firefox connect tcp to "
				    "2001:db8::443 port 443;\n"));
	assert_null(strstr(out, "host"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "audit2pfw", "--help", NULL));
	assert_non_null(strstr(out, "--addresses"));
	free(out);
	free(err);
}

/* The host rules audit2pfw writes are what pfwc reads. */
static void test_hosts_compile(void **state)
{
	char compiled[256], *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("hosts.log"), NULL));
	compile(out, compiled, sizeof(compiled));
	/* The name, at any address, on the ports denied. */
	expect_query_host(compiled, "/usr/bin/curl", "connect",
			  "www.example.org", "93.184.216.34", "443", "allow");
	expect_query_host(compiled, "/usr/bin/curl", "connect",
			  "www.example.org", "203.0.113.5", "80", "allow");
	expect_query_host(compiled, "/usr/bin/curl", "connect",
			  "www.example.org", "93.184.216.34", "8080", "deny");
	expect_query_host(compiled, "/usr/bin/curl", "connect", "example.org",
			  "93.184.216.34", "443", "deny");
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp",
		     "93.184.216.34", "443", "deny");
	expect_query_host(compiled, "/usr/bin/firefox", "connect",
			  "cdn.example.net", "2001:db8::1", "443", "allow");
	expect_query_host(compiled, "/usr/sbin/sshd", "accept",
			  "client.example.org", "10.0.0.7", "22", "allow");
	/* The address rule beside them still does what it says. */
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.9",
		     "443", "allow");
	expect_query(compiled, "/usr/bin/curl", "connect", "tcp", "192.0.2.10",
		     "443", "deny");
	free(out);
	free(err);
}

/* pfsel log: hosts= after the pid, each name escaped; JSON: an array. */
static void test_log_hosts(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("hosts.log"),
				NULL));
	assert_non_null(strstr(err, "1 pfsel record could not be read"));
	assert_non_null(strstr(out,
			       " to 93.184.216.34:443 user default pid=401 "
			       "hosts=www.example.org,example.org\n"));
	assert_non_null(strstr(out, " pid=402 hosts=www.example.org\n"));
	assert_non_null(strstr(
		out, " pid=404 hosts=\"\\x2a.cdn.example\",cdn.example.net\n"));
	assert_non_null(strstr(out, " pid=407 hosts=\"a\\\"b.example\"\n"));
	/* None known: no hosts=. */
	assert_non_null(strstr(out, " pid=409\n"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i", fixture("hosts.log"),
				"--json", NULL));
	assert_non_null(strstr(out,
			       "\"rport\":443,\"hosts\":[\"www.example.org\","
			       "\"example.org\"],\"subj\":null}"));
	assert_non_null(strstr(
		out, "\"hosts\":[\"*.cdn.example\",\"cdn.example.net\"],"));
	assert_non_null(strstr(out, "\"hosts\":null,\"subj\":null}]"));
	free(out);
	free(err);
}

/*
 * Refusals no rule decided (refused=): audit2pfw writes no rule for them
 * and says why in the group's comment; the denial beside them still gets
 * its rule, which compiles and allows it.  A refusal of a name the
 * library does not know is skipped, and said so.
 */
static void test_refusals(void **state)
{
	char compiled[256], *out, *err, *expected;

	(void)state;
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("refusals.log"), NULL));
	expected = slurp(fixture("refusals.expected"));
	assert_string_equal(expected, out);
	assert_non_null(strstr(err, "1 pfsel record could not be read"));
	/* One rule, the denial's: none for what was refused. */
	assert_null(strstr(out, "allow /usr/bin/curl"));
	assert_null(strstr(out, "allow /usr/bin/firefox"));
	assert_null(strstr(out, "allow /usr/bin/bash"));
	assert_null(strstr(out, "2001:db8:1::a"));
	compile(out, compiled, sizeof(compiled));
	expect_query(compiled, "/usr/bin/netprobe", "connect", "udp",
		     "2001:db8:1::d", "7600", "allow");
	expect_query(compiled, "/usr/bin/netprobe", "connect", "udp",
		     "2001:db8:1::a", "7600", "deny");
	free(expected);
	free(out);
	free(err);

	/* --permissive: only the options let through in permissive mode. */
	assert_int_equal(0, run(&out, &err, "audit2pfw", "-i",
				fixture("refusals.log"), "--permissive", NULL));
	assert_string_equal(
		"# /usr/bin/netprobe (uid 1001): 1 refused (1 in permissive "
		"mode)\n"
		"#   refused IPv4 options: they may hold a source route, which "
		"sends packets past the address a rule decided; no rule "
		"allows one (LANGUAGE.md, section 7)\n\n",
		out);
	free(out);
	free(err);
}

/*
 * pfsel log: a refusal's call and what it had (a family, the socket's
 * ends), the policy that restrains, refused= where a rule would be; the
 * JSON object has "refused" and "variable", a decision's has neither.
 */
static void test_log_refusals(void **state)
{
	static const char *const lines[] = {
		"deny  uid=1001 /usr/bin/netprobe connect udp to "
		"[2001:db8:1::d]:7600 user default pid=1501\n",
		"deny  uid=1001 /usr/bin/netprobe setsockopt udp user "
		"refused=routing-header pid=1502\n",
		"deny  uid=1001 /usr/bin/netprobe sendmsg udp to "
		"[2001:db8:1::a]:7600 user refused=routing-header pid=1503\n",
		"deny  uid=1001 /usr/bin/netprobe setsockopt udp from "
		"198.18.0.1:40000 to 198.18.0.10:7600 system "
		"refused=ip-options permissive pid=1504\n",
		"deny  uid=1001 /usr/bin/netprobe create rds user "
		"refused=family pid=1505\n",
		"deny  uid=1001 /usr/bin/curl connect tcp from "
		"127.0.0.1:41000 to 127.0.0.1:7701 user "
		"refused=mptcp-subflow\n",
		"deny  uid=1001 /usr/bin/firefox exec user refused=traced "
		"pid=1507\n",
		"deny  uid=1001 /usr/bin/bash script /usr/local/bin/sync.sh "
		"exec system refused=script-environment variable=BASH_ENV "
		"pid=1508\n",
		"deny  uid=1001 /usr/bin/bash script /usr/local/bin/sync.sh "
		"open refused=script-path pid=1509\n",
		"deny  uid=1001 /usr/sbin/pfsel unload refused=admin "
		"target=1001 pid=1511\n",
		"deny  uid=0 /usr/bin/dash hook_timing refused=admin "
		"pid=1512\n",
	};
	char *out, *err;
	size_t i;

	(void)state;
	assert_int_equal(0, run(&out, &err, "log", "-i",
				fixture("refusals.log"), NULL));
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(out, lines[i])) {
			print_error("missing: %s in:\n%s", lines[i], out);
			fail();
		}
	assert_null(strstr(out, "teleport"));
	assert_non_null(strstr(err, "1 pfsel record could not be read"));
	free(out);
	free(err);

	assert_int_equal(0, run(&out, &err, "log", "-i",
				fixture("refusals.log"), "--json", NULL));
	assert_non_null(strstr(
		out, "\"policy\":\"user\",\"rule\":null,\"refused\":\"family\","
		     "\"variable\":null,\"target\":null,\"target_uid\":null,"
		     "\"uid\":1001,\"pid\":1505,\"app\":"
		     "\"/usr/bin/netprobe\",\"script\":null,\"op\":\"create\","
		     "\"protocol\":null,\"family\":\"rds\",\"laddr\":null,"
		     "\"lport\":null,\"raddr\":null,\"rport\":null,"));
	assert_non_null(strstr(out, "\"policy\":null,\"rule\":null,"
				    "\"refused\":\"script-path\","));
	assert_non_null(strstr(out, "\"refused\":\"script-environment\","
				    "\"variable\":\"BASH_ENV\","));
	assert_non_null(strstr(out,
			       "\"refused\":\"admin\",\"variable\":null,"
			       "\"target\":\"user\",\"target_uid\":1001,"));
	/* The denial's object is a decision's, as it was. */
	assert_non_null(
		strstr(out, "\"rule\":null,\"uid\":1001,\"pid\":1501,"));
	free(out);
	free(err);
}

static int count_record(const struct pfsel_audit_record *rec, void *arg)
{
	(void)rec;
	++*(unsigned long *)arg;
	return 0;
}

/*
 * libpfsel's reader hands refusals only to a reader that asks for them
 * (pfsel log, audit2pfw); another (the prompt's monitor, which offers to
 * make a rule of each record) gets the decisions alone, and does not
 * count the refusals as records it could not read.
 */
static void test_reader_wants_refusals(void **state)
{
	struct pfsel_audit_filter src = { .input = fixture("refusals.log"),
					  .want_allow = true,
					  .want_deny = true };
	unsigned long n = 0, bad;

	(void)state;
	assert_int_equal(0, pfsel_audit_read(&src, count_record, &n, &bad));
	assert_int_equal(1, n);
	assert_int_equal(1, bad); /* refused=teleport */
	n = 0;
	src.want_refusals = true;
	assert_int_equal(0, pfsel_audit_read(&src, count_record, &n, &bad));
	assert_int_equal(11, n);
	assert_int_equal(1, bad);
}

static void test_since(void **state)
{
	const time_t now = 1718000000;
	time_t t;

	(void)state;
	assert_true(pfselcmd_parse_since("@1700000000", now, &t));
	assert_int_equal(1700000000, t);
	assert_true(pfselcmd_parse_since("10m", now, &t));
	assert_int_equal(now - 600, t);
	assert_true(pfselcmd_parse_since("2h", now, &t));
	assert_int_equal(now - 7200, t);
	assert_true(pfselcmd_parse_since("1d", now, &t));
	assert_int_equal(now - 86400, t);
	assert_true(pfselcmd_parse_since("30s", now, &t));
	assert_int_equal(now - 30, t);
	assert_true(pfselcmd_parse_since("recent", now, &t));
	assert_int_equal(now - 600, t);
	assert_true(pfselcmd_parse_since("today", now, &t));
	assert_int_equal(1717977600, t); /* 2024-06-10 00:00 UTC */
	assert_true(pfselcmd_parse_since("2024-06-10", now, &t));
	assert_int_equal(1717977600, t);
	assert_true(pfselcmd_parse_since("2024-06-10 06:13:20", now, &t));
	assert_int_equal(1718000000, t);
	assert_true(pfselcmd_parse_since("2024-06-10T06:13", now, &t));
	assert_int_equal(1717999980, t);
	assert_false(pfselcmd_parse_since("10y", now, &t));
	assert_false(pfselcmd_parse_since("@x", now, &t));
	assert_false(pfselcmd_parse_since("2024-06-10 junk", now, &t));
	assert_false(pfselcmd_parse_since("", now, &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_rules_compile_and_allow),
		cmocka_unit_test(test_sandbox_identities),
		cmocka_unit_test(test_create_family),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_newline_path),
		cmocka_unit_test(test_escaped_names),
		cmocka_unit_test(test_nothing_and_errors),
		cmocka_unit_test(test_log_golden),
		cmocka_unit_test(test_log_filters),
		cmocka_unit_test(test_log_subj),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_hosts_compile),
		cmocka_unit_test(test_log_hosts),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_log_refusals),
		cmocka_unit_test(test_reader_wants_refusals),
		cmocka_unit_test(test_since),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
