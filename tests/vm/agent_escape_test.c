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
 *     same way.  The control: the name the kernel reports holds the ESC
 *     bytes, in the question (as a libpfsel agent of the test's own
 *     receives it) and in the audit record (as libpfsel decodes it), so
 *     that only the escaping keeps them from the terminal;
 *   - "always" for an executable literally named "/tmp/globdir/ *" (a
 *     file called '*') writes the exact path ("/tmp/globdir/\x2a", in
 *     quotes) into ~/.pfw: its sibling "/tmp/globdir/y", never asked
 *     about, is not allowed by it (with no agent, the unanswered verdict
 *     denies it); the control: the file named '*' itself is, by the rule
 *     (the agent and its kept answers gone, `pfsel check` names it).
 *
 * The agent is started by root with "--user=1001" (it registers, then
 * runs as pfuser1).  The requests are copies of netprobe under those
 * names, run as pfuser1.  pfuser1's ~/.pfw asks about two loopback ports
 * (4 s, unanswered deny).
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include <signal.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

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
	if (pfsel_copy_file(PFSEL_NETPROBE, path, 0755) || chmod(path, 0755))
		return -1;
	return 0;
}

static bool has_esc(const char *text)
{
	return strchr(text, 0x1b) != NULL;
}

/* ---- the agent -------------------------------------------------------------- */

/*
 * Start pfsel-agent as root for pfuser1 ("--user=1001") with "--log=LOG1",
 * @opt1 and @opt2 (an option each, or NULL; @opt2 only after @opt1): it
 * registers, then runs as pfuser1.  With @terminal its standard input is
 * a pipe the test keeps (@ag->input), else /dev/null; its standard error
 * (the prompt) goes to ERR1.  True once it has registered.
 */
static bool agent_start(struct pfsel_agent_process *ag, bool terminal,
			const char *opt1, const char *opt2)
{
	const char *const options[] = { opt1, opt2, NULL };

	return pfsel_start_agent(ag, PFSEL_UID1, options, LOG1, ERR1, terminal,
				 START_MS);
}

/* ---- the asking side --------------------------------------------------------- */

/* @exe (a netprobe copy) connects to 127.0.0.1:@port as pfuser1. */
static pid_t probe_start(const char *exe, unsigned short port)
{
	return pfsel_netprobe_start(PFSEL_UID1, exe, "connect", "127.0.0.1",
				    port);
}

static int probe(const char *exe, unsigned short port)
{
	return pfsel_netprobe_as(PFSEL_UID1, exe, "connect", "127.0.0.1", port,
				 NULL);
}

/*
 * The question of EVIL -> 127.0.0.1:@port as a libpfsel agent of this
 * process (root), registered for pfuser1 while no other agent is,
 * receives it, denied once: true when it came, in @q.
 */
static bool raw_question(unsigned short port, struct pfsel_question *q)
{
	struct pfsel_agent *agent;
	bool got = false;
	pid_t pid;

	if (pfsel_agent_open(&agent))
		return false;
	if (!pfsel_agent_register_for(agent, PFSEL_UID1)) {
		pid = probe_start(EVIL, port);
		got = pid > 0 && pfsel_agent_receive(agent, q, PROMPT_MS) == 1;
		if (got)
			pfsel_agent_answer(agent, q->id, PFSEL_ANSWER_DENY,
					   PFSEL_SCOPE_ONCE);
		if (pid > 0)
			pfsel_wait_status(pid);
	}
	pfsel_agent_close(agent);
	return got;
}

/*
 * The record @text (as ausearch prints it), decoded as `pfsel log`
 * decodes it: its executable in @exe, or false.
 */
static bool record_exe(const char *text, char *exe, size_t size)
{
	struct pfsel_audit_field fields[64];
	struct pfsel_audit_record *rec = calloc(1, sizeof(*rec));
	char *copy = strdup(text);
	size_t n;
	bool ok;

	n = copy ? pfsel_audit_fields(copy, fields, 64) : 0;
	ok = rec && n && !pfsel_audit_record_decode(fields, n, rec);
	if (ok)
		snprintf(exe, size, "%s", rec->request.exe);
	free(copy);
	free(rec);
	return ok;
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
	struct pfsel_agent_process agent;
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
	ASSERT_EQ(0, access(PFSEL_AGENT, X_OK))
	TH_LOG("pfsel-agent is not in the image (build/bin)");
	pfsel_reset();
	system("rm -rf /tmp/x* " GLOB_DIR);
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_put_file(PFW1, user_pfw, 0644, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_put_file(LOG1, "", 0644, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_put_file(ERR1, "", 0644, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_load_home_pfw(HOME1, PFSEL_UID1, out, sizeof(out)))
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
	pfsel_stop_agent(&self->agent, SIGKILL);
	if (self->peer >= 0)
		close(self->peer);
	pfsel_reset();
	system("rm -rf /tmp/x* " GLOB_DIR);
}

#define DUMP_ON_FAIL                                                           \
	{                                                                      \
		char dump[16384];                                              \
		TH_LOG("log:\n%s", pfsel_read_text(LOG1, dump, sizeof(dump))); \
		TH_LOG("stderr:\n%s",                                          \
		       pfsel_read_text(ERR1, dump, sizeof(dump)));             \
	}

/*
 * The question of an executable whose name holds escape sequences: the
 * prompt and the log show the name escaped and hold no ESC byte; the
 * terminal's answer (deny) holds; `pfsel log` and `pfsel audit2pfw` show
 * the audited denial escaped too.
 */
TEST_F_TIMEOUT(escape, prompt_log_and_pfsel_log, 90)
{
	char err[16384], log[16384], out[16384], hex[512], record[4096],
		exe[PFSEL_QUESTION_PATH_MAX];
	struct pfsel_question *q = calloc(1, sizeof(*q));
	const char *needles[3];
	pid_t pid;

	/* The control: the kernel's question names EVIL, ESC bytes and all. */
	ASSERT_NE(NULL, q);
	ASSERT_TRUE(raw_question(PORT_PROMPT, q));
	EXPECT_STREQ(EVIL, q->exe);
	EXPECT_TRUE(has_esc(q->exe));
	free(q);

	ASSERT_TRUE(agent_start(&self->agent, true, "--interactive", NULL))
	DUMP_ON_FAIL;
	pid = probe_start(EVIL, PORT_PROMPT);
	ASSERT_LT(0, pid);
	ASSERT_TRUE(pfsel_file_wait(ERR1, "answer within", PROMPT_MS))
	DUMP_ON_FAIL;
	ASSERT_EQ(5, write(self->agent.input, "deny\n", 5));
	EXPECT_EQ(EACCES, pfsel_wait_status(pid)) DUMP_ON_FAIL;
	ASSERT_TRUE(pfsel_file_wait(LOG1, ": answered deny once (by terminal)",
				    PROMPT_MS))
	DUMP_ON_FAIL;

	/* The prompt: escaped, quoted, no ESC; no line starts as firefox's. */
	pfsel_read_text(ERR1, err, sizeof(err));
	TH_LOG("prompt:\n%s", err);
	EXPECT_NE(NULL, strstr(err, "\npfsel: " EVIL_SHOWN " (firefox, pid "));
	EXPECT_NE(NULL, strstr(err, " connect tcp to 127.0.0.1:6501, "));
	EXPECT_FALSE(has_esc(err));
	EXPECT_EQ(NULL, strstr(err, "\npfsel: /usr/bin/firefox"));

	/* The log: the same. */
	pfsel_read_text(LOG1, log, sizeof(log));
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
	/* The control: decoded, the record's executable holds the ESCs. */
	ASSERT_TRUE(record_exe(record, exe, sizeof(exe)))
	TH_LOG("could not decode: %s", record);
	EXPECT_STREQ(EVIL, exe);
	EXPECT_TRUE(has_esc(exe));
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
	ASSERT_TRUE(pfsel_file_wait(LOG1, added, RULE_MS)) DUMP_ON_FAIL;
	pfsel_read_text(PFW1, pfw, sizeof(pfw));
	TH_LOG("~/.pfw after 'always':\n%s", pfw);
	EXPECT_NE(NULL, strstr(pfw, "\n" STAR_RULE "\n"));
	/* Not the glob that once let the whole directory out. */
	EXPECT_EQ(NULL, strstr(pfw, "allow " GLOB_DIR "/*"));
	EXPECT_EQ(NULL, strstr(pfw, "allow \"" GLOB_DIR "/*\""));

	/*
	 * No agent (its socket gone, its session answers with it; forgotten
	 * again here all the same): the rule decides, or the unanswered
	 * verdict (deny).  The control: the file named '*' is allowed.
	 */
	EXPECT_EQ(0, pfsel_stop_agent(&self->agent, SIGTERM));
	EXPECT_EQ(0, pfsel_forget_uid(PFSEL_UID1));
	EXPECT_EQ(0, probe(STAR, PORT_ALWAYS)) DUMP_ON_FAIL;
	pfsel_sh(out, sizeof(out),
		 "pfsel check --uid 1001 --exe '" STAR
		 "' connect tcp 127.0.0.1 6502");
	TH_LOG("pfsel check %s:\n%s", STAR, out);
	EXPECT_NE(NULL, strstr(out, "\nuser     allow  by rule "));
	EXPECT_NE(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_EQ(EACCES, probe(SIBLING, PORT_ALWAYS)) DUMP_ON_FAIL;
	pfsel_sh(out, sizeof(out),
		 "pfsel check --uid 1001 --exe " SIBLING
		 " connect tcp 127.0.0.1 6502");
	TH_LOG("pfsel check %s:\n%s", SIBLING, out);
	EXPECT_EQ(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_EQ(2, pfsel_drain(self->peer));
}

TEST_HARNESS_MAIN
