// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - names chosen by the attacker (issue 13, item 6).  An
 * executable's path is whatever its maker wrote, and the maker may be the
 * very program a policy restrains:
 *
 *   - an executable named "/tmp/x\e[2K\e[Gpfsel: /usr/bin/firefox" asks:
 *     the real pfsel-agent's terminal prompt and its log show the name
 *     escaped ("/tmp/x\e[2K\e[Gpfsel: ...", quoted), with no ESC byte
 *     at all, so the terminal cannot be made to show a question from
 *     firefox; `pfsel log` and `pfsel audit2pfw` print the denial the
 *     same way;
 *   - "always" for an executable literally named "/tmp/globdir/ *" (a
 *     file called '*') writes the exact path ("/tmp/globdir/\x2a", in
 *     quotes) into ~/.pfw: that file is then allowed by the rule with no
 *     agent at all, and its sibling "/tmp/globdir/y", never asked about,
 *     is not.
 *
 * The agent is started by root with "--user=1001" when it has that option
 * (it registers, then runs as pfuser1), else as pfuser1 itself.  The
 * requests are copies of netprobe under those names, run as pfuser1.
 * pfuser1's ~/.pfw asks about two loopback ports (4 s, unanswered deny).
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#define AGENT "/usr/bin/pfsel-agent"
#define RUNAS PFSEL_TESTS_DIR "/runas"
#define HOME1 "/home/pfuser1"
#define PFW1 HOME1 "/.pfw"
#define LOG1 HOME1 "/agent.log"
#define ERR1 HOME1 "/agent.stderr"

/* The attack of issue 13: erase the line, go to its start, write on. */
#define EVIL_DIR "/tmp/x\x1b[2K\x1b[Gpfsel: "
#define EVIL EVIL_DIR "/usr/bin/firefox"
/* How every tool must show it (pfsel_escape() with PFSEL_ESCAPE_QUOTE). */
#define EVIL_SHOWN "\"/tmp/x\\e[2K\\e[Gpfsel: /usr/bin/firefox\""

#define GLOB_DIR "/tmp/globdir"
#define STAR GLOB_DIR "/*" /* a file named '*' */
#define SIBLING GLOB_DIR "/y"
#define STAR_RULE \
	"allow \"" GLOB_DIR "/\\x2a\" connect tcp to 127.0.0.1 port 6502;"

#define PORT_PROMPT 6501 /* asked; the terminal answers deny */
#define PORT_ALWAYS 6502 /* asked; --auto allow always */

#define START_MS 5000 /* for the agent to register */
#define PROMPT_MS 3000 /* for the question to reach the terminal */
#define RULE_MS 10000 /* for an "always" rule to be compiled and loaded */
#define AUDIT_WAIT_MS 5000

static const char user_pfw[] = "# pfuser1: asks about two loopback ports\n"
			       "default allow;\n"
			       "ask timeout 4 s;\n"
			       "ask unanswered deny;\n"
			       "ask * connect tcp to loopback port 6501;\n"
			       "ask * connect tcp to loopback port 6502;\n";

/* ---- files -------------------------------------------------------------- */

static int put_file(const char *path, const char *text, mode_t mode, uid_t uid)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      mode);
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)len) != len || fchown(fd, uid, uid) ||
	    fchmod(fd, mode)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* mkdir -p @path (each component, mode 0755, root's). */
static int make_dirs(const char *path)
{
	char buf[512];
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path);
	for (i = 1; buf[i]; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		buf[i] = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

/* A copy of netprobe at @path (any bytes but NUL), root's, mode 0755. */
static int copy_netprobe(const char *path)
{
	char buf[65536];
	int in = open(PFSEL_NETPROBE, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	close(in);
	if (close(out) || n < 0 || chmod(path, 0755))
		return -1;
	return 0;
}

/* The whole file, or "" (@buf of @size). */
static const char *slurp(const char *path, char *buf, size_t size)
{
	if (pfsel_read_file(path, buf, size) < 0)
		buf[0] = '\0';
	return buf;
}

static bool has_esc(const char *text)
{
	return strchr(text, 0x1b) != NULL;
}

/* Wait up to @ms for @path to hold @needle. */
static bool file_wait(const char *path, const char *needle, int ms)
{
	const long long deadline = pfsel_now_ms() + ms;
	char buf[16384];

	do {
		if (strstr(slurp(path, buf, sizeof(buf)), needle))
			return true;
		usleep(50 * 1000);
	} while (pfsel_now_ms() < deadline);
	return false;
}

/* ---- the agent -------------------------------------------------------------- */

struct agent {
	pid_t pid;
	int input; /* its standard input's write end, or -1 */
};

/* Whether this pfsel-agent has --user (root starts it for the user). */
static bool agent_has_user_option(void)
{
	char out[8192];

	pfsel_sh(out, sizeof(out), AGENT " --help");
	return strstr(out, "--user") != NULL;
}

/*
 * Start pfsel-agent for pfuser1 with "--log=LOG1" and @opt1,
 * @opt2 (or NULL): as root with --user=1001 when it has that option, else
 * as pfuser1.  With @terminal its standard input is a pipe the test keeps
 * (@ag->input), else /dev/null; its standard error (the prompt) goes to
 * ERR1.  True once it has registered.
 */
static bool agent_start(struct agent *ag, bool terminal, const char *opt1,
			const char *opt2)
{
	const bool as_root = agent_has_user_option();
	const pid_t parent = getpid();
	char *argv[8], err[16384];
	int in[2] = { -1, -1 }, fd, i = 0;
	long long deadline;

	argv[i++] = AGENT;
	if (as_root)
		argv[i++] = "--user=1001";
	argv[i++] = "--log=" LOG1;
	if (opt1)
		argv[i++] = (char *)opt1;
	if (opt2)
		argv[i++] = (char *)opt2;
	argv[i] = NULL;
	ag->input = -1;
	if (terminal && pipe2(in, O_CLOEXEC))
		return false;
	ag->pid = fork();
	if (ag->pid < 0)
		return false;
	if (ag->pid == 0) {
		fd = terminal ? in[0] : open("/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
			_exit(125);
		fd = open(ERR1, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
		    fchown(fd, PFSEL_UID1, PFSEL_UID1))
			_exit(125);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		if (chdir("/") || setenv("PATH", "/usr/bin:/bin", 1))
			_exit(125);
		if (!as_root &&
		    (setenv("HOME", HOME1, 1) || pfsel_become(PFSEL_UID1)))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (terminal) {
		close(in[0]);
		ag->input = in[1];
	}
	deadline = pfsel_now_ms() + START_MS;
	do {
		if (waitpid(ag->pid, NULL, WNOHANG) != 0)
			return false;
		if (strstr(slurp(LOG1, err, sizeof(err)),
			   "registered as the agent of uid 1001"))
			return true;
		usleep(20 * 1000);
	} while (pfsel_now_ms() < deadline);
	return false;
}

static int agent_stop(struct agent *ag, int sig)
{
	int status;

	if (ag->pid <= 0)
		return -1;
	kill(ag->pid, sig);
	status = pfsel_wait_status(ag->pid);
	ag->pid = 0;
	if (ag->input >= 0)
		close(ag->input);
	ag->input = -1;
	return status;
}

/* ---- the asking side --------------------------------------------------------- */

/* @exe (a netprobe copy) connects to 127.0.0.1:@port as pfuser1. */
static pid_t probe_start(const char *exe, unsigned short port)
{
	char port_text[8];
	char *argv[] = { (char *)exe, "connect", "inet",
			 "127.0.0.1", port_text, NULL };
	const pid_t parent = getpid();
	pid_t pid;

	snprintf(port_text, sizeof(port_text), "%u", port);
	pid = fork();
	if (pid == 0) {
		if (pfsel_become(PFSEL_UID1))
			_exit(126);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int probe(const char *exe, unsigned short port)
{
	const pid_t pid = probe_start(exe, port);

	return pid < 0 ? -1 : pfsel_wait_status(pid);
}

/* The hex form audit records give a path with odd bytes. */
static void hex_of(const char *text, char *out, size_t size)
{
	size_t i;

	for (i = 0; text[i] && 2 * i + 2 < size; i++)
		snprintf(out + 2 * i, 3, "%02X", (unsigned char)text[i]);
	out[2 * i] = '\0';
}

/* ---- the fixture ---------------------------------------------------------------- */

FIXTURE(escape)
{
	struct agent agent;
	int peer;
	time_t start;
};

FIXTURE_SETUP(escape)
{
	char out[4096];

	self->agent.pid = 0;
	self->agent.input = -1;
	self->peer = -1;
	self->start = time(NULL);
	if (geteuid() != 0)
		SKIP(return,
			   "starting pfsel-agent and loading policies need root");
	ASSERT_EQ(0, access(AGENT, X_OK))
	TH_LOG("pfsel-agent is not in the image (build/bin)");
	pfsel_reset();
	system("rm -rf " HOME1 " /tmp/x* " GLOB_DIR);
	ASSERT_EQ(0, mkdir(HOME1, 0755));
	ASSERT_EQ(0, chown(HOME1, PFSEL_UID1, PFSEL_UID1));
	ASSERT_EQ(0, put_file(PFW1, user_pfw, 0644, PFSEL_UID1));
	ASSERT_EQ(0, put_file(LOG1, "", 0644, PFSEL_UID1));
	ASSERT_EQ(0, put_file(ERR1, "", 0644, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out),
			      "cd " HOME1 " && " RUNAS
			      " 1001 pfwc -o .pfw.pfsel .pfw && "
			      "pfsel load .pfw.pfsel"))
	{
		TH_LOG("%s", out);
	}

	/* The attacker's executables: copies of netprobe. */
	ASSERT_EQ(0, make_dirs(EVIL_DIR "/usr/bin"));
	ASSERT_EQ(0, copy_netprobe(EVIL));
	ASSERT_EQ(0, make_dirs(GLOB_DIR));
	ASSERT_EQ(0, copy_netprobe(STAR));
	ASSERT_EQ(0, copy_netprobe(SIBLING));
}

FIXTURE_TEARDOWN(escape)
{
	if (geteuid() != 0)
		return;
	if (self->agent.pid > 0)
		agent_stop(&self->agent, SIGKILL);
	if (self->peer >= 0)
		close(self->peer);
	pfsel_reset();
	system("rm -rf /tmp/x* " GLOB_DIR);
}

#define DUMP_ON_FAIL                                                    \
	{                                                               \
		char dump[16384];                                       \
		TH_LOG("log:\n%s", slurp(LOG1, dump, sizeof(dump)));    \
		TH_LOG("stderr:\n%s", slurp(ERR1, dump, sizeof(dump))); \
	}

/*
 * The question of an executable whose name holds escape sequences: the
 * prompt and the log show the name escaped and hold no ESC byte; the
 * terminal's answer (deny) holds; `pfsel log` and `pfsel audit2pfw` show
 * the audited denial escaped too.
 */
TEST_F_TIMEOUT(escape, prompt_log_and_pfsel_log, 90)
{
	char err[16384], log[16384], out[16384], hex[512], record[4096];
	const char *needles[3];
	pid_t pid;

	ASSERT_TRUE(agent_start(&self->agent, true, "--interactive", NULL))
	DUMP_ON_FAIL;
	pid = probe_start(EVIL, PORT_PROMPT);
	ASSERT_LT(0, pid);
	ASSERT_TRUE(file_wait(ERR1, "answer within", PROMPT_MS)) DUMP_ON_FAIL;
	ASSERT_EQ(5, write(self->agent.input, "deny\n", 5));
	EXPECT_EQ(EACCES, pfsel_wait_status(pid)) DUMP_ON_FAIL;
	ASSERT_TRUE(file_wait(LOG1, ": answered deny once (by terminal)",
			      PROMPT_MS))
	DUMP_ON_FAIL;

	/* The prompt: escaped, quoted, no ESC; no line starts as firefox's. */
	slurp(ERR1, err, sizeof(err));
	TH_LOG("prompt:\n%s", err);
	EXPECT_NE(NULL, strstr(err, "\npfsel: " EVIL_SHOWN " (firefox, pid "));
	EXPECT_NE(NULL, strstr(err, " connect tcp to 127.0.0.1:6501, "));
	EXPECT_FALSE(has_esc(err));
	EXPECT_EQ(NULL, strstr(err, "\npfsel: /usr/bin/firefox"));

	/* The log: the same. */
	slurp(LOG1, log, sizeof(log));
	TH_LOG("log:\n%s", log);
	EXPECT_NE(NULL, strstr(log, ": " EVIL_SHOWN " (firefox, pid "));
	EXPECT_FALSE(has_esc(log));

	/* The audit log, read back by pfsel log and audit2pfw. */
	if (!pfsel_auditd_running()) {
		TH_LOG("auditd is not running in the VM: no pfsel log");
		return;
	}
	hex_of(EVIL, hex, sizeof(hex));
	needles[0] = "app=";
	needles[1] = hex;
	needles[2] = NULL;
	ASSERT_TRUE(pfsel_audit_find("1430", needles, record, sizeof(record),
				     AUDIT_WAIT_MS))
	TH_LOG("no 1430 record of app=%s", hex);
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			      "pfsel log --uid 1001 --since @%lld",
			      (long long)self->start));
	TH_LOG("pfsel log:\n%s", out);
	EXPECT_NE(NULL, strstr(out, " deny  uid=1001 " EVIL_SHOWN
				    " connect tcp to 127.0.0.1:6501 user "));
	EXPECT_FALSE(has_esc(out));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			      "pfsel audit2pfw --uid 1001 --since @%lld",
			      (long long)self->start));
	TH_LOG("pfsel audit2pfw:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "allow " EVIL_SHOWN
				    " connect tcp to 127.0.0.1 port 6501;\n"));
	EXPECT_FALSE(has_esc(out));
}

/*
 * "always" for a file named '*': the rule names that file exactly; once
 * the agent is gone (and its kept answers with it), the file is allowed
 * by the rule and its sibling, never asked about, is not.
 */
TEST_F_TIMEOUT(escape, always_for_a_file_named_star, 90)
{
	const char added[] = "added '" STAR_RULE "' to " PFW1;
	char pfw[8192], out[4096];

	self->peer = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_ALWAYS);
	ASSERT_LE(0, self->peer);
	ASSERT_TRUE(agent_start(&self->agent, false, "--auto=allow",
				"--scope=always"))
	DUMP_ON_FAIL;
	EXPECT_EQ(0, probe(STAR, PORT_ALWAYS)) DUMP_ON_FAIL;
	ASSERT_TRUE(file_wait(LOG1, added, RULE_MS)) DUMP_ON_FAIL;
	slurp(PFW1, pfw, sizeof(pfw));
	TH_LOG("~/.pfw after 'always':\n%s", pfw);
	EXPECT_NE(NULL, strstr(pfw, "\n" STAR_RULE "\n"));
	/* Not the glob that once let the whole directory out. */
	EXPECT_EQ(NULL, strstr(pfw, "allow " GLOB_DIR "/*"));
	EXPECT_EQ(NULL, strstr(pfw, "allow \"" GLOB_DIR "/*\""));

	/* No agent: the rule decides, or the unanswered verdict (deny). */
	EXPECT_EQ(0, agent_stop(&self->agent, SIGTERM));
	EXPECT_EQ(0, probe(STAR, PORT_ALWAYS)) DUMP_ON_FAIL;
	EXPECT_EQ(EACCES, probe(SIBLING, PORT_ALWAYS)) DUMP_ON_FAIL;
	pfsel_sh(out, sizeof(out),
		 "pfsel check --uid 1001 --exe " SIBLING
		 " connect tcp 127.0.0.1 6502");
	TH_LOG("pfsel check %s:\n%s", SIBLING, out);
	EXPECT_EQ(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_EQ(2, pfsel_drain(self->peer));
}

TEST_HARNESS_MAIN
