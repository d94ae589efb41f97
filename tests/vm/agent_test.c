// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the real pfsel-agent (pfsel-tools/agent, pfsel-agent(1))
 * answering the kernel's questions for pfuser1 (1001):
 *
 *   - a --rules file with allow and deny lines: an allowed connect
 *     proceeds (0 with a root-owned listener, ECONNREFUSED without), a
 *     denied one fails with EACCES;
 *   - the scopes once, process and session, seen in ask_stats (questions,
 *     kept_hits);
 *   - "always": the agent adds the rule to ~/.pfw inside its BEGIN/END
 *     section, recompiles with pfwc and loads the policy; the same
 *     request is then allowed with no question, by the rule (also with no
 *     agent at all), and the policy's generation went up;
 *   - a login through PAM after that compiles the changed ~/.pfw, finds
 *     that policy loaded already, and loads nothing;
 *   - a restarted agent registers again and answers;
 *   - an agent killed while it holds a question: the asker gets the
 *     unanswered verdict (deny) at once, not at the timeout;
 *   - the --log file: one line per question, one per answer;
 *   - how it is started: root runs "pfsel-agent --user=1001", which
 *     registers and then runs as pfuser1 (for good, not dumpable); a rule
 *     file pfuser1 could change is refused before anything is registered;
 *     started by pfuser1 itself, with or without --user, it explains that
 *     only root can start it (exit 5).
 *
 * The policy is pfuser1's own ~/.pfw, compiled by pfuser1 (pfwc) and
 * loaded by root (a user cannot load their own; the agent, registered by
 * root, can), with an ask rule per port, a 4 s ask timeout and "ask
 * unanswered deny".  The rule file is root's, in a folder of root's.  The requests are netprobe connects as pfuser1,
 * one per process, but for the process scope, where a child of the test
 * that has become pfuser1 connects twice.
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include <signal.h>

#include "kselftest_harness.h"

#define RUNAS PFSEL_TESTS_DIR "/runas"
#define HOME1 "/home/pfuser1"
#define PFW1 HOME1 "/.pfw"
#define BLOB1 HOME1 "/.pfw.pfsel"
#define RULES_DIR "/run/pfsel-agent-test"
#define RULES1 RULES_DIR "/agent.rules"
#define USER_RULES HOME1 "/agent.rules" /* one pfuser1 could change */
#define LOG1 HOME1 "/agent.log"
#define ERR1 HOME1 "/agent.stderr"

#define PORT_ALLOW 6401 /* rules: allow once; a listener */
#define PORT_DENY 6402 /* rules: deny once */
#define PORT_REFUSED 6403 /* rules: allow once; nobody listens */
#define PORT_PROCESS 6404 /* rules: allow process */
#define PORT_SESSION 6405 /* rules: allow session */
#define PORT_ALWAYS 6406 /* rules: allow always; a listener */
#define PORT_AGAIN 6407 /* rules: allow once, for the restarted agent */
#define PORT_HELD 6408 /* no rule line: the terminal holds it */
#define PORT_DENY6 6409 /* rules: deny always, to ::1 */
#define PORT_SCRIPT 6410 /* rules: allow always, netprobe's probe-script */

#define PROBE_SCRIPT PFSEL_TESTS_DIR "/probe-script"

#define TIMEOUT_MS 4000 /* the policy's ask timeout */
#define PROMPT_MS 1500 /* "at once": well under the timeout */
#define START_MS 5000 /* for the agent to register */
#define RULE_MS 10000 /* for an "always" rule to be compiled and loaded */

#define NETPROBE_RULE_PREFIX "allow " PFSEL_NETPROBE " connect tcp to 127.0.0.1 port "

static const char user_pfw[] =
	"# pfuser1's firewall: asks about a few loopback ports\n"
	"default allow;\n"
	"ask timeout 4 s;\n"
	"ask unanswered deny;\n"
	"ask * connect tcp to loopback port 6401;\n"
	"ask * connect tcp to loopback port 6402;\n"
	"ask * connect tcp to loopback port 6403;\n"
	"ask * connect tcp to loopback port 6404;\n"
	"ask * connect tcp to loopback port 6405;\n"
	"ask * connect tcp to loopback port 6406;\n"
	"ask * connect tcp to loopback port 6407;\n"
	"ask * connect tcp to loopback port 6408;\n"
	"ask * connect tcp to loopback port 6409;\n"
	"ask * connect tcp to loopback port 6410;\n";

static const char agent_rules[] =
	"# pfsel-agent --rules: .pfw rules, each an answer (once, unless its\n"
	"# scope says otherwise)\n"
	"allow * connect tcp to 127.0.0.1 port 6401;\n"
	"deny  * connect tcp to 127.0.0.1 port 6402 scope once;\n"
	"allow * connect tcp to 127.0.0.1 port 6403;\n"
	"allow * connect tcp to 127.0.0.1 port 6404 scope process;\n"
	"allow * connect tcp to 127.0.0.1 port 6405 scope session;\n"
	"allow " PFSEL_NETPROBE " connect tcp to 127.0.0.0/8 port 6406\n"
	"\tscope always;\n"
	"allow * connect tcp to 127.0.0.1 port 6407;\n"
	"deny  * connect tcp to ::1 port 6409 scope always;\n"
	"allow " PFSEL_NETPROBE " script " PROBE_SCRIPT "\n"
	"\tconnect tcp to 127.0.0.1 port 6410 scope always;\n";

/* The generation of 1001's policy, or -1 when none is loaded. */
static long long generation(void)
{
	return pfsel_uid_generation(PFSEL_UID1);
}

/* ---- the agent's log ------------------------------------------------------ */

/* Lines of the agent's log holding every string of NULL-terminated @needles. */
static int log_count(const char *const *needles)
{
	return pfsel_count_lines(LOG1, needles);
}

static int log_count1(const char *needle)
{
	const char *needles[] = { needle, NULL };

	return log_count(needles);
}

static void dump_file(struct __test_metadata *_metadata, const char *path)
{
	char buf[16384];

	if (pfsel_read_file(path, buf, sizeof(buf)) >= 0)
		TH_LOG("%s:\n%s", path, buf);
}

/*
 * The log's questions and answers, by question id: every question line
 * ("question ID: /APP (COMM, pid N) ...") and every answer line ("question
 * ID: answered VERDICT SCOPE (by SOURCE)").  Checks that no id has two
 * question lines or two answer lines, that every answer follows its
 * question, and returns the numbers of questions and of answers.
 */
#define MAX_IDS 64

static bool log_tally(int *questions, int *answers)
{
	unsigned long long ids[MAX_IDS];
	int asked[MAX_IDS] = { 0 }, answered[MAX_IDS] = { 0 };
	char line[4096];
	FILE *file = fopen(LOG1, "re");
	size_t n = 0, i;
	bool ok = true;

	*questions = *answers = 0;
	if (!file)
		return false;
	while (fgets(line, sizeof(line), file)) {
		unsigned long long id;
		const char *p = strstr(line, "]: question ");
		char *rest;

		if (!p)
			continue;
		id = strtoull(p + strlen("]: question "), &rest, 10);
		if (strncmp(rest, ": ", 2))
			continue;
		rest += 2;
		for (i = 0; i < n; i++)
			if (ids[i] == id)
				break;
		if (i == n) {
			if (n == MAX_IDS)
				break;
			ids[n] = id;
			n++;
		}
		if (rest[0] == '/' || rest[0] == '?') {
			ok &= asked[i]++ == 0;
			(*questions)++;
		} else if (!strncmp(rest, "answered ", 9)) {
			ok &= asked[i] == 1 && answered[i]++ == 0;
			(*answers)++;
		}
	}
	fclose(file);
	return ok;
}

/* ---- the agent -------------------------------------------------------------- */

/*
 * Start pfsel-agent as root for pfuser1, "--user=1001 --rules RULES1 --log
 * LOG1" and @extra (NULL or one option): it registers, then becomes
 * pfuser1 (home folder and HOME from the user database).  With @terminal,
 * its standard input is a pipe the test keeps open (and --interactive is
 * given), else /dev/null.  Waits until it is the registered agent of 1001
 * and runs as pfuser1: true then.
 */
static bool agent_start(struct pfsel_agent_process *ag, bool terminal,
			const char *extra)
{
	const char *options[] = { "--rules=" RULES1, extra, NULL, NULL };

	if (terminal) {
		options[1] = "--interactive";
		options[2] = extra;
	}
	return pfsel_start_agent(ag, PFSEL_UID1, options, LOG1, ERR1, terminal,
				 START_MS);
}

/* ---- the asking side --------------------------------------------------------- */

/* As probe(), through @script (NULL: netprobe itself) to @addr. */
static int probe_at(const char *script, const char *addr, unsigned short port)
{
	return pfsel_netprobe_as(PFSEL_UID1, script, "connect", addr, port,
				 NULL);
}

/* One netprobe connect as pfuser1: its errno; its pid and run time. */
static int probe(unsigned short port, pid_t *pidp, long long *elapsed_ms)
{
	const long long t0 = pfsel_now_ms();
	const int status = pfsel_netprobe_as(PFSEL_UID1, NULL, "connect",
					     "127.0.0.1", port, pidp);

	if (elapsed_ms)
		*elapsed_ms = pfsel_now_ms() - t0;
	return status;
}

/* Two connects to 127.0.0.1:@arg from one process (of pfuser1). */
static int connect_twice(void *arg)
{
	const unsigned short port = (unsigned short)(uintptr_t)arg;
	union pfsel_addr addr;
	const socklen_t len = pfsel_addr("127.0.0.1", port, &addr);
	int i, fd, ret = 0;

	for (i = 0; i < 2; i++) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return 100;
		/* Allowed: refused, for nobody listens (or connected). */
		if (connect(fd, &addr.sa, len) && errno != ECONNREFUSED &&
		    !ret)
			ret = 100 + i + 1; /* 101: the first, 102: the second */
		close(fd);
	}
	return ret;
}

/* ---- the fixture ---------------------------------------------------------------- */

FIXTURE(agent)
{
	struct pfsel_agent_process agent;
	int peer_allow, peer_always;
	struct ask_stats start;
};

FIXTURE_SETUP(agent)
{
	char out[4096];

	self->agent.pid = 0;
	self->agent.input = -1;
	self->peer_allow = self->peer_always = -1;
	if (geteuid() != 0)
		SKIP(return, "running pfsel-agent as pfuser1 needs root");
	ASSERT_EQ(0, access(PFSEL_AGENT, X_OK))
	TH_LOG("pfsel-agent is not in the image (build/bin)");
	pfsel_reset();
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_put_file(PFW1, user_pfw, 0644, PFSEL_UID1));
	/* The rule file decides answers: root's alone, as sudoers. */
	system("rm -rf " RULES_DIR);
	ASSERT_EQ(0, mkdir(RULES_DIR, 0755));
	ASSERT_EQ(0, pfsel_put_file(RULES1, agent_rules, 0644, 0));

	/* pfuser1 compiles their policy; root loads it (as pam_pfsel). */
	ASSERT_EQ(0, pfsel_load_home_pfw(HOME1, PFSEL_UID1, out, sizeof(out)))
	{
		TH_LOG("%s", out);
	}
	ASSERT_LT(0, generation());

	self->peer_allow = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_ALLOW);
	ASSERT_LE(0, self->peer_allow);
	self->peer_always = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_ALWAYS);
	ASSERT_LE(0, self->peer_always);

	ASSERT_TRUE(agent_start(&self->agent, false, NULL))
	{
		dump_file(_metadata, ERR1);
		dump_file(_metadata, LOG1);
	}
	ASSERT_TRUE(ask_stats_read(&self->start));
	EXPECT_EQ(1, self->start.agents);
}

FIXTURE_TEARDOWN(agent)
{
	if (geteuid() != 0)
		return;
	pfsel_stop_agent(&self->agent, SIGKILL);
	if (self->peer_allow >= 0)
		close(self->peer_allow);
	if (self->peer_always >= 0)
		close(self->peer_always);
	pfsel_reset();
	system("rm -rf " RULES_DIR);
}

#define DUMP_ON_FAIL                         \
	{                                    \
		dump_file(_metadata, LOG1);  \
		dump_file(_metadata, ERR1);  \
	}

/*
 * The rule file decides: allow proceeds (0 to a listener, ECONNREFUSED
 * with nobody listening), deny is EACCES; each is a question (scope once:
 * asked again each time), and the log holds one line for each question
 * (naming the request and netprobe's pid) and one for each answer.
 */
TEST_F_TIMEOUT(agent, rules_allow_and_deny, 60)
{
	const char *needles[4];
	char pid_text[48], context[256];
	struct ask_stats s;
	int questions, answers, i;
	bool has_context;
	pid_t pid;

	/* Under SELinux or AppArmor the line shows the asker's context. */
	has_context = pfsel_read_file("/proc/self/attr/current", context,
				      sizeof(context)) > 0;
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, probe(PORT_ALLOW, &pid, NULL)) DUMP_ON_FAIL;
		snprintf(pid_text, sizeof(pid_text),
			 has_context ? "(netprobe, pid %d, context " :
				       "(netprobe, pid %d) ",
			 pid);
		needles[0] = PFSEL_NETPROBE " (netprobe";
		needles[1] = pid_text;
		needles[2] = "connect tcp to 127.0.0.1:6401, user policy rule ";
		needles[3] = NULL;
		EXPECT_EQ(1, log_count(needles)) DUMP_ON_FAIL;
		EXPECT_EQ(EACCES, probe(PORT_DENY, NULL, NULL)) DUMP_ON_FAIL;
	}
	EXPECT_EQ(ECONNREFUSED, probe(PORT_REFUSED, NULL, NULL)) DUMP_ON_FAIL;
	EXPECT_EQ(2, pfsel_drain(self->peer_allow));

	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(5, s.questions - self->start.questions);
	EXPECT_EQ(5, s.answered - self->start.answered);
	EXPECT_EQ(0, s.kept_hits - self->start.kept_hits);
	EXPECT_EQ(0, s.unanswered - self->start.unanswered);
	EXPECT_EQ(0, s.kept);

	/* The log: a question line and an answer line for each question. */
	EXPECT_TRUE(log_tally(&questions, &answers)) DUMP_ON_FAIL;
	EXPECT_EQ(5, questions) DUMP_ON_FAIL;
	EXPECT_EQ(5, answers) DUMP_ON_FAIL;
	EXPECT_EQ(3, log_count1(": answered allow once (by rules)"));
	EXPECT_EQ(2, log_count1(": answered deny once (by rules)"));
	EXPECT_EQ(2, log_count1("connect tcp to 127.0.0.1:6402, user policy rule "));
	EXPECT_EQ(1, log_count1("connect tcp to 127.0.0.1:6403, user policy rule "));
	EXPECT_EQ(0, log_count1("not answered"));

	/* SIGTERM: a clean stop, logged. */
	EXPECT_EQ(0, pfsel_stop_agent(&self->agent, SIGTERM));
	EXPECT_EQ(1, log_count1("stopping after 5 questions")) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(0, s.agents);
}

/*
 * Scopes, seen through ask_stats: once is asked every time; process is
 * kept for the process that asked (a second connect of it is a kept hit)
 * but not for another process; session is kept for every process of the
 * user that runs the same application.
 */
TEST_F_TIMEOUT(agent, scopes_in_ask_stats, 60)
{
	struct ask_stats a, b;
	int questions, answers;

	/* once: two processes, two questions, nothing kept. */
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(0, probe(PORT_ALLOW, NULL, NULL)) DUMP_ON_FAIL;
	EXPECT_EQ(0, probe(PORT_ALLOW, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(2, b.questions - a.questions);
	EXPECT_EQ(0, b.kept_hits - a.kept_hits);
	EXPECT_EQ(0, b.kept);

	/* process: one question for two connects of one process ... */
	a = b;
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, connect_twice,
				  (void *)(uintptr_t)PORT_PROCESS))
	DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(1, b.kept_hits - a.kept_hits);
	/* ... and another process is asked again. */
	a = b;
	EXPECT_EQ(ECONNREFUSED, probe(PORT_PROCESS, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(0, b.kept_hits - a.kept_hits);

	/*
	 * session: asked once, then kept for every process of the user that
	 * runs the same application; another application (this test
	 * program) is asked for itself, then kept for it.
	 */
	a = b;
	EXPECT_EQ(ECONNREFUSED, probe(PORT_SESSION, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(0, b.kept_hits - a.kept_hits);
	a = b;
	EXPECT_EQ(ECONNREFUSED, probe(PORT_SESSION, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(0, b.questions - a.questions);
	EXPECT_EQ(1, b.kept_hits - a.kept_hits);
	a = b;
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, connect_twice,
				  (void *)(uintptr_t)PORT_SESSION));
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(1, b.kept_hits - a.kept_hits);
	EXPECT_LE(2, b.kept);

	EXPECT_TRUE(log_tally(&questions, &answers)) DUMP_ON_FAIL;
	EXPECT_EQ(6, questions);
	EXPECT_EQ(6, answers);
	EXPECT_EQ(2, log_count1(": answered allow process (by rules)"));
	EXPECT_EQ(2, log_count1(": answered allow session (by rules)"));
}

/*
 * "always": the agent writes the rule into ~/.pfw's pfsel-agent section,
 * compiles and loads it; the same request is then allowed by the rule,
 * with no question: while the agent runs, after a PAM login (which loads
 * nothing: the policy it compiles is the one loaded), after the agent
 * stops, and after a restart, which registers again and answers.
 */
TEST_F_TIMEOUT(agent, always_becomes_a_rule_and_restart, 90)
{
	const char *added[] = { "added '" NETPROBE_RULE_PREFIX "6406;' to " PFW1,
				NULL };
	char pfw[8192], out[4096], *begin, *rule, *end, *old;
	struct ask_stats a, b;
	long long gen0, gen1;
	int questions, answers;
	struct stat st;

	gen0 = generation();
	ASSERT_LT(0, gen0);
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(0, probe(PORT_ALWAYS, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);

	/* The agent adds the rule, compiles and loads. */
	ASSERT_TRUE(pfsel_wait_lines(LOG1, added, RULE_MS)) DUMP_ON_FAIL;
	EXPECT_EQ(1, log_count1(": answered allow always (by rules)"));
	gen1 = generation();
	EXPECT_LT(gen0, gen1);
	ASSERT_LT(0, pfsel_read_file(PFW1, pfw, sizeof(pfw)));
	TH_LOG("~/.pfw after 'always':\n%s", pfw);
	begin = strstr(pfw, "# BEGIN pfsel-agent\n");
	rule = strstr(pfw, NETPROBE_RULE_PREFIX "6406;\n");
	end = strstr(pfw, "# END pfsel-agent\n");
	old = strstr(pfw, user_pfw);
	ASSERT_NE(NULL, begin);
	ASSERT_NE(NULL, rule);
	ASSERT_NE(NULL, end);
	EXPECT_TRUE(begin < rule && rule < end);
	/* The user's own text is all there, after the section. */
	ASSERT_NE(NULL, old);
	EXPECT_TRUE(end < old);
	/* Still the user's file, and what is loaded is its compiled form. */
	ASSERT_EQ(0, stat(PFW1, &st));
	EXPECT_EQ((uid_t)PFSEL_UID1, st.st_uid);
	ASSERT_EQ(0, stat(BLOB1, &st));
	EXPECT_LT(0, st.st_size);
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			"pfsel check --uid 1001 --exe " PFSEL_NETPROBE
			" connect tcp 127.0.0.1 %d",
			PORT_ALWAYS));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_NE(NULL, strstr(out, "by rule "));

	/* The same request: allowed, no question. */
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(0, probe(PORT_ALWAYS, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(0, b.questions - a.questions);

	/*
	 * A login through PAM now: pam_pfsel sees ~/.pfw changed, compiles
	 * it, and finds the very policy the agent loaded already loaded: no
	 * load, so nothing the agent was told is forgotten.
	 */
	if (access("/usr/bin/pamtester", X_OK) == 0) {
		EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
				"pamtester pfsel-test pfuser1 open_session "
				"close_session"))
		TH_LOG("pamtester: %s", out);
		EXPECT_EQ(gen1, generation());
		ASSERT_TRUE(ask_stats_read(&b));
		EXPECT_EQ(0, b.questions - a.questions);
	} else {
		TH_LOG("no pamtester in the image: no login after 'always'");
	}

	/* The agent stops: the rule holds with no agent at all. */
	EXPECT_EQ(0, pfsel_stop_agent(&self->agent, SIGTERM));
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(0, a.agents);
	EXPECT_EQ(0, a.kept);
	EXPECT_EQ(0, probe(PORT_ALWAYS, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(0, b.questions - a.questions);
	EXPECT_EQ(0, b.no_agent - a.no_agent);
	/* An ask port with no agent: denied at once. */
	EXPECT_EQ(EACCES, probe(PORT_AGAIN, NULL, NULL));

	/* Restarted: registers again, and answers. */
	ASSERT_TRUE(agent_start(&self->agent, false, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(1, a.agents);
	EXPECT_EQ(ECONNREFUSED, probe(PORT_AGAIN, NULL, NULL)) DUMP_ON_FAIL;
	EXPECT_EQ(0, probe(PORT_ALWAYS, NULL, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(1, b.answered - a.answered);
	EXPECT_EQ(2, log_count1("registered as the agent of uid 1001"));

	/* The generation is the agent's load: nothing loaded since. */
	EXPECT_EQ(gen1, generation());
	EXPECT_TRUE(log_tally(&questions, &answers)) DUMP_ON_FAIL;
	EXPECT_EQ(2, questions);
	EXPECT_EQ(2, answers);
	pfsel_drain(self->peer_always);
}

/*
 * The agent killed while it holds a question (no rule line matches it;
 * the terminal, which never answers, has it): the asker gets the
 * unanswered verdict, deny, at once rather than at the 4 s timeout.
 */
TEST_F_TIMEOUT(agent, killed_mid_question, 60)
{
	const char *asked[] = { "connect tcp to 127.0.0.1:6408, user policy rule ",
				NULL };
	struct ask_stats a, b;
	long long t0, elapsed;
	int questions, answers;
	pid_t pid;

	/* An agent that also asks the terminal, whose input never comes. */
	EXPECT_EQ(0, pfsel_stop_agent(&self->agent, SIGTERM));
	ASSERT_TRUE(agent_start(&self->agent, true, NULL)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&a));

	pid = pfsel_netprobe_start(PFSEL_UID1, NULL, "connect", "127.0.0.1",
				   PORT_HELD);
	ASSERT_LT(0, pid);
	ASSERT_TRUE(pfsel_wait_lines(LOG1, asked, 3000)) DUMP_ON_FAIL;
	usleep(200 * 1000); /* the question goes on to the terminal */
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(1, b.pending);
	t0 = pfsel_now_ms();
	EXPECT_EQ(128 + SIGKILL, pfsel_stop_agent(&self->agent, SIGKILL));
	EXPECT_EQ(EACCES, pfsel_wait_status(pid));
	elapsed = pfsel_now_ms() - t0;
	TH_LOG("agent killed: netprobe returned %lld ms later (timeout %d ms)",
	       elapsed, TIMEOUT_MS);
	EXPECT_GT(PROMPT_MS, elapsed);
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(0, b.agents);
	EXPECT_EQ(0, b.pending);
	EXPECT_EQ(1, b.questions - a.questions);
	EXPECT_EQ(0, b.answered - a.answered);
	TH_LOG("unanswered +%lld, no_agent +%lld", b.unanswered - a.unanswered,
	       b.no_agent - a.no_agent);

	/* The log has the question, and no answer to it. */
	EXPECT_TRUE(log_tally(&questions, &answers)) DUMP_ON_FAIL;
	EXPECT_EQ(1, questions);
	EXPECT_EQ(0, answers);

	/* Without an agent, the same: denied at once. */
	EXPECT_EQ(EACCES, probe(PORT_HELD, NULL, &elapsed));
	EXPECT_GT(PROMPT_MS, elapsed);
}

/*
 * Two more "always" answers: a deny, of a connect to ::1, and an allow for
 * an application that runs a script (netprobe as the #! interpreter of
 * probe-script).  Both rules go into the one pfsel-agent section, in the
 * order given, and decide those requests from then on, with no question;
 * the deny only for ::1 and the allow only for the script.
 */
TEST_F_TIMEOUT(agent, always_deny_and_script, 90)
{
	const char *added_deny[] = {
		"added 'deny " PFSEL_NETPROBE " connect tcp to ::1 port 6409;' to " PFW1,
		NULL
	};
	const char *added_script[] = {
		"added 'allow " PFSEL_NETPROBE " script " PROBE_SCRIPT
		" connect tcp to 127.0.0.1 port 6410;' to " PFW1,
		NULL
	};
	char pfw[8192], *first, *second, *end;
	struct ask_stats a, b;
	int peer = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_SCRIPT);
	int questions, answers;

	ASSERT_LE(0, peer);
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(EACCES, probe_at(NULL, "::1", PORT_DENY6)) DUMP_ON_FAIL;
	ASSERT_TRUE(pfsel_wait_lines(LOG1, added_deny, RULE_MS)) DUMP_ON_FAIL;
	EXPECT_EQ(0, probe_at(PROBE_SCRIPT, "127.0.0.1", PORT_SCRIPT))
	DUMP_ON_FAIL;
	ASSERT_TRUE(pfsel_wait_lines(LOG1, added_script, RULE_MS)) DUMP_ON_FAIL;
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(2, b.questions - a.questions);

	ASSERT_LT(0, pfsel_read_file(PFW1, pfw, sizeof(pfw)));
	TH_LOG("~/.pfw:\n%s", pfw);
	first = strstr(pfw, "# BEGIN pfsel-agent\ndeny " PFSEL_NETPROBE
			    " connect tcp to ::1 port 6409;\n");
	second = strstr(pfw, "\nallow " PFSEL_NETPROBE " script " PROBE_SCRIPT
			     " connect tcp to 127.0.0.1 port 6410;\n# END pfsel-agent\n");
	end = strstr(pfw, "# END pfsel-agent");
	EXPECT_NE(NULL, first);
	EXPECT_NE(NULL, second);
	EXPECT_TRUE(first < second);
	/* One section: a second BEGIN would be a second one. */
	ASSERT_NE(NULL, end);
	EXPECT_EQ(NULL, strstr(end + 1, "# END pfsel-agent"));
	EXPECT_EQ(NULL, strstr(strstr(pfw, "# BEGIN pfsel-agent") + 1,
			       "# BEGIN pfsel-agent"));

	/* From now on, no question: with the agent, and without one. */
	EXPECT_EQ(0, pfsel_stop_agent(&self->agent, SIGTERM));
	ASSERT_TRUE(ask_stats_read(&a));
	EXPECT_EQ(EACCES, probe_at(NULL, "::1", PORT_DENY6));
	EXPECT_EQ(0, probe_at(PROBE_SCRIPT, "127.0.0.1", PORT_SCRIPT));
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(0, b.questions - a.questions);
	EXPECT_EQ(0, b.no_agent - a.no_agent);
	/*
	 * What the rules do not name is still asked, and with no agent
	 * denied: 6409 over IPv4, and 6410 for netprobe without the script.
	 */
	EXPECT_EQ(EACCES, probe_at(NULL, "127.0.0.1", PORT_DENY6));
	EXPECT_EQ(EACCES, probe_at(NULL, "127.0.0.1", PORT_SCRIPT));
	ASSERT_TRUE(ask_stats_read(&b));
	EXPECT_EQ(2, b.no_agent - a.no_agent);

	EXPECT_TRUE(log_tally(&questions, &answers)) DUMP_ON_FAIL;
	EXPECT_EQ(2, questions);
	EXPECT_EQ(2, answers);
	EXPECT_EQ(2, pfsel_drain(peer));
	close(peer);
}

/*
 * Only root starts an agent, and only with a rule file the user cannot
 * change.  Each refusal says why and how to start it, and registers
 * nothing: the fixture's agent stays the one asked.
 */
TEST_F_TIMEOUT(agent, started_by_root_with_root_rules, 60)
{
	char out[4096];
	struct ask_stats s;

	/* By pfuser1, for itself: the kernel's EPERM, and how to start it. */
	EXPECT_EQ(5, pfsel_sh(out, sizeof(out),
			      RUNAS " 1001 " PFSEL_AGENT
				    " --auto=deny --pfw=" PFW1));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Operation not permitted"));
	EXPECT_NE(NULL, strstr(out, "sudo pfsel-agent --user"));
	EXPECT_NE(NULL, strstr(out, "pfsel-agent@"));
	/* By pfuser1, with --user: the same advice, before any socket. */
	EXPECT_EQ(5, pfsel_sh(out, sizeof(out),
			      RUNAS " 1001 " PFSEL_AGENT
				    " --user=pfuser1 --auto=deny"));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "start the agent as root"));

	/* A rule file pfuser1 owns, or may write: refused, naming it. */
	ASSERT_EQ(0, pfsel_put_file(USER_RULES, agent_rules, 0644, PFSEL_UID1));
	EXPECT_EQ(3,
		  pfsel_sh(out, sizeof(out),
			   PFSEL_AGENT " --user=1001 --rules=" USER_RULES ""));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, USER_RULES ": refused"));
	ASSERT_EQ(0, chmod(RULES1, 0666));
	EXPECT_EQ(3, pfsel_sh(out, sizeof(out),
			      PFSEL_AGENT " --user=1001 --rules=" RULES1 ""));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, RULES1 ": refused"));
	ASSERT_EQ(0, chmod(RULES1, 0644));
	/* Root's file in a folder pfuser1 may write: it could swap it. */
	ASSERT_EQ(0, pfsel_put_file(USER_RULES, agent_rules, 0644, 0));
	EXPECT_EQ(3,
		  pfsel_sh(out, sizeof(out),
			   PFSEL_AGENT " --user=1001 --rules=" USER_RULES ""));
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "its folder " HOME1));
	/* An unknown user. */
	EXPECT_EQ(2, pfsel_sh(out, sizeof(out),
			      PFSEL_AGENT " --user=nosuchuser --auto=deny"));
	EXPECT_NE(NULL, strstr(out, "no user 'nosuchuser'"));

	/* None of them registered: the fixture's agent still answers. */
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(1, s.agents);
	EXPECT_EQ(0, probe(PORT_ALLOW, NULL, NULL)) DUMP_ON_FAIL;
	EXPECT_EQ(EACCES, probe(PORT_DENY, NULL, NULL)) DUMP_ON_FAIL;
	EXPECT_EQ(1, pfsel_drain(self->peer_allow));
}

TEST_HARNESS_MAIN
