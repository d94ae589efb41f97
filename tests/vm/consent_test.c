// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - the person's consent, attacked by a program of the
 * user (docs/THREAT-MODEL.md, section 1): a program running as pfuser1
 * (1001), which pfuser1's policy denies (it wants to connect to port
 * 6420 of the loopback), tries to make that policy looser without the
 * person's password.  The policy comes from a real login (pamtester,
 * pam_pfsel), which records it as confirmed; the agent is the real
 * pfsel-agent, started by root for 1001 with a rule file that answers
 * "always" for one request (the person's answer); the attacker is a
 * child process that has become 1001 and watches pfuser1's home folder,
 * as any program of the user may (inotify would do; the test kernel has
 * none, so it polls).
 *
 * agent.*: the attacker acts while the agent makes an "always" answer a
 * rule (pfsel-agent, pfw.c, pfw_add_rule()), which it compiles in its own
 * process from its own copy of the text, parsed once, and loads from
 * memory (issue 27):
 *
 *   - always_without_attacker (the control): the rule is added and
 *     loaded, port 6420 stays denied;
 *   - pfw_swapped_after_rename: ~/.pfw replaced by a looser text once the
 *     agent renamed its file over it: the agent's own policy is loaded,
 *     the looser text waits at the next login;
 *   - temp_swapped_before_compile: the agent's temporary file beside
 *     ~/.pfw replaced by the attacker's text ("allow * connect tcp to
 *     loopback port 6420;" added) before the rename: the same;
 *   - include_swapped_after_judgement: the confirmed ~/.pfw includes a
 *     file; the attacker makes it allow port 6420 once the agent read it:
 *     nothing compiles it again.
 * Before the fix, the agent had pfwc compile its temporary file and then
 * ~/.pfw by name, and the last two got port 6420 out.
 *
 * confirm.*: `pfsel confirm` (root: sudo, or pkexec after the person's
 * password):
 *
 *   - confirm_loads_what_was_pending (the control): the person's looser
 *     ~/.pfw waits after a login; confirmed, it is what is loaded;
 *   - confirm_loads_what_the_attacker_wrote: the same, but between the
 *     login (which noted the person's text as pending, and told them) and
 *     `pfsel confirm`, the attacker adds its rule to ~/.pfw: confirm says
 *     ~/.pfw changed since, and with no terminal to ask on, loads nothing
 *     (before the fix it loaded and recorded the attacker's text).
 *   - note_cleared_by_a_session_of_the_attacker: the same, but first the
 *     attacker puts the confirmed text back and opens a session without
 *     the person (a cron job of its own, say), which clears the note; then
 *     its text: confirm must load nothing (it loads the attacker's text:
 *     with no note, confirm asks nothing).
 *
 * Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include <signal.h>
#include <dirent.h>

#include "kselftest_harness.h"

#define RUNAS PFSEL_TESTS_DIR "/runas"
#define CACHE_DIR "/var/lib/pfsel"
#define RUN_DIR "/run/pfsel"
#define HOME1 "/home/pfuser1"
#define PFW1 HOME1 "/.pfw"
#define EXTRA1 HOME1 "/extra.pfw"
#define CONFIRMED1 CACHE_DIR "/confirmed/1001.pfsel"
#define PENDING1 RUN_DIR "/1001.pending"
#define RULES_DIR "/run/pfsel-consent-test"
#define RULES1 RULES_DIR "/agent.rules"
#define LOG1 HOME1 "/agent.log"
#define ERR1 HOME1 "/agent.stderr"
#define SYSLOG PFSEL_SYSLOG

#define PORT_ALWAYS 6406 /* the person answers "always" */
#define PORT_EVIL 6420 /* what the attacker wants */
#define PORT_A 5601 /* the person's own change allows it */

#define START_MS 20000
#define RULE_MS 30000
#define ATTACK_MS 15000

#define HEAD "default allow;\nask timeout 4 s;\nask unanswered deny;\n"
#define DENY_EVIL "deny * connect tcp to loopback port 6420;\n"
#define ALLOW_EVIL "allow * connect tcp to loopback port 6420;"
#define ASK_ALWAYS "ask * connect tcp to loopback port 6406;\n"

/* The confirmed ~/.pfw: the attacker's port denied, 6406 asked. */
static const char plain_pfw[] = HEAD DENY_EVIL ASK_ALWAYS;
/* The same through an include. */
static const char include_pfw[] = HEAD "include \"extra.pfw\";\n" ASK_ALWAYS;
static const char extra_pfw[] = DENY_EVIL;

static const char agent_rules[] =
	"allow " PFSEL_NETPROBE " connect tcp to 127.0.0.1 port 6406\n"
	"\tscope always;\n";

/* ---- files ---------------------------------------------------------- */

static void dump_file(struct __test_metadata *_metadata, const char *path)
{
	char buf[16384];

	if (pfsel_read_file(path, buf, sizeof(buf)) >= 0)
		TH_LOG("%s:\n%s", path, buf);
}

/* Which policy is in force for 1001 (pfsel_uid_digest()), or 0. */
static long long in_force(void)
{
	return pfsel_uid_digest(PFSEL_UID1);
}

/* A login of pfuser1 through PAM (service pfsel-test): its status. */
static int login(char *out, size_t size)
{
	return pfsel_pam_session("pfsel-test", "pfuser1", out, size);
}

/* netprobe connects as pfuser1 to 127.0.0.1:@port: its errno (0). */
static int probe(unsigned short port)
{
	return pfsel_netprobe_as(PFSEL_UID1, NULL, "connect", "127.0.0.1", port,
				 NULL);
}

/* pfsel-agent for pfuser1, as root starts it: --rules=RULES1 --log=LOG1. */
static bool agent_start(struct pfsel_agent_process *agent)
{
	const char *const options[] = { "--rules=" RULES1, NULL };

	return pfsel_start_agent(agent, PFSEL_UID1, options, LOG1, ERR1, false,
				 START_MS);
}

/* ---- the attacker: a program of pfuser1 ------------------------------- */

enum attack {
	ATTACK_TEMP, /* the agent's temporary file, before pfwc opens it */
	ATTACK_INCLUDE, /* extra.pfw, after the judging compile read it */
	ATTACK_PFW, /* ~/.pfw, after the agent renamed its file over it */
};

/* @text with @line inserted after the agent's BEGIN line (else first). */
static void with_evil(const char *text, char *out, size_t size)
{
	static const char begin[] = "# BEGIN pfsel-agent\n";
	const char *at = strstr(text, begin);
	const size_t head = at ? (size_t)(at - text) + strlen(begin) : 0;

	snprintf(out, size, "%.*s" ALLOW_EVIL "\n%s", (int)head, text,
		 text + head);
}

/* Write @text to a file of our own, then rename it over @path. */
static int swap_in(const char *path, const char *text)
{
	static const char tmp[] = HOME1 "/.attacker";
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd))
		return -1;
	return rename(tmp, path);
}

/*
 * The name of one of the agent's temporary files in the home folder (not
 * its ".check" output) into @name: true when there is one.
 */
static bool agent_temp(char *name, size_t size)
{
	DIR *d = opendir(HOME1);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, ".pfw.pfsel-agent.", 17) ||
		    strstr(de->d_name, ".check"))
			continue;
		snprintf(name, size, HOME1 "/%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/*
 * As 1001: watch the home folder (by polling it: the test kernel has no
 * inotify, which a real attacker would use); act once, as @how says.
 * Exit 0 when it acted, 1 when it never had the chance, 2 on error.
 * Tells @ready (a pipe) once it watches.
 */
static int attacker(enum attack how, int ready)
{
	static char text[65536], pfw[65536], evil[70000];
	const long long deadline = pfsel_now_ms() + ATTACK_MS;
	char path[512], judged[512] = "";
	struct stat st0, st;
	ssize_t plen, len;

	plen = pfsel_read_file(PFW1, pfw, sizeof(pfw));
	if (plen <= 0 || stat(PFW1, &st0))
		return 2;
	if (write(ready, "r", 1) != 1)
		return 2;
	close(ready);
	while (pfsel_now_ms() < deadline) {
		switch (how) {
		case ATTACK_TEMP:
			/*
			 * The agent's file with its rule, whole: its text is
			 * not ~/.pfw's (the one it judges is), and ends with
			 * it, after the agent's section.
			 */
			if (!agent_temp(path, sizeof(path)))
				continue;
			len = pfsel_read_file(path, text, sizeof(text));
			if (len <= plen || strcmp(text + len - plen, pfw) ||
			    !strstr(text, "# END pfsel-agent\n"))
				continue;
			with_evil(text, evil, sizeof(evil));
			return swap_in(path, evil) ? 2 : 0;
		case ATTACK_INCLUDE:
			/*
			 * The judging compile is over when the temporary
			 * file it compiled (with text: not the name-only
			 * one of the baseline) is gone.
			 */
			if (agent_temp(path, sizeof(path))) {
				len = pfsel_read_file(path, text, sizeof(text));
				if (len > 0)
					snprintf(judged, sizeof(judged), "%s",
						 path);
				continue;
			}
			if (!judged[0] || !access(judged, F_OK))
				continue;
			return swap_in(EXTRA1, ALLOW_EVIL "\n") ? 2 : 0;
		case ATTACK_PFW:
			/* ~/.pfw is another file: the agent renamed its own. */
			if (stat(PFW1, &st) || st.st_ino == st0.st_ino)
				continue;
			len = pfsel_read_file(PFW1, text, sizeof(text));
			if (len <= 0)
				return 2;
			with_evil(text, evil, sizeof(evil));
			return swap_in(PFW1, evil) ? 2 : 0;
		}
	}
	return 1;
}

/* What attacker() is given, through pfsel_start_as(). */
struct attack_start {
	enum attack how;
	int ready;
};

static int attacker_main(void *arg)
{
	const struct attack_start *start = arg;

	return attacker(start->how, start->ready);
}

/* Start the attacker as 1001; its pid once its watch is in place. */
static pid_t attacker_start(enum attack how)
{
	struct attack_start start = { .how = how };
	int ready[2];
	pid_t pid;
	char c;

	if (pipe2(ready, O_CLOEXEC))
		return -1;
	start.ready = ready[1];
	pid = pfsel_start_as(PFSEL_UID1, attacker_main, &start);
	close(ready[1]);
	if (pid > 0 && read(ready[0], &c, 1) != 1) {
		pfsel_wait_status(pid);
		pid = -1;
	}
	close(ready[0]);
	return pid;
}

/* ---- the agent fixture ------------------------------------------------ */

FIXTURE(agent)
{
	struct pfsel_agent_process agent;
	int peer_always, peer_evil;
	char out[8192];
};

FIXTURE_SETUP(agent)
{
	self->agent.pid = 0;
	self->agent.input = -1;
	self->peer_always = self->peer_evil = -1;
	if (geteuid() != 0)
		SKIP(return, "pfuser1's logins and agent need root");
	ASSERT_EQ(0, access("/usr/bin/pamtester", X_OK));
	ASSERT_EQ(0, access(PFSEL_AGENT, X_OK));
	if (system("pidof syslogd >/dev/null"))
		system("syslogd -O " SYSLOG " >/dev/null");
	pfsel_reset();
	system("rm -rf " CACHE_DIR " " RUN_DIR " " RULES_DIR);
	ASSERT_EQ(0, mkdir("/var/lib", 0755) && errno != EEXIST);
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	ASSERT_EQ(0, mkdir(RULES_DIR, 0755));
	ASSERT_EQ(0, pfsel_put_file(RULES1, agent_rules, 0644, 0));
	self->peer_always = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_ALWAYS);
	self->peer_evil = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_EVIL);
	ASSERT_LE(0, self->peer_always);
	ASSERT_LE(0, self->peer_evil);
}

FIXTURE_TEARDOWN(agent)
{
	if (geteuid() != 0)
		return;
	pfsel_stop_agent(&self->agent, SIGKILL);
	if (self->peer_always >= 0)
		close(self->peer_always);
	if (self->peer_evil >= 0)
		close(self->peer_evil);
	pfsel_reset();
	system("rm -rf " RULES_DIR);
}

#define DUMP                               \
	{                                  \
		dump_file(_metadata, LOG1); \
		dump_file(_metadata, ERR1); \
		dump_file(_metadata, PFW1); \
	}

/*
 * The scene: ~/.pfw (@pfw; @extra as extra.pfw when not NULL) logged in
 * (loaded, recorded as confirmed), port 6420 denied, the agent started.
 */
static void scene(struct __test_metadata *_metadata,
		  FIXTURE_DATA(agent) *self, const char *pfw, const char *extra)
{
	ASSERT_EQ(0, pfsel_put_file(PFW1, pfw, 0644, PFSEL_UID1));
	if (extra)
		ASSERT_EQ(0, pfsel_put_file(EXTRA1, extra, 0644, PFSEL_UID1));
	ASSERT_EQ(0, login(self->out, sizeof(self->out)))
	TH_LOG("%s", self->out);
	ASSERT_NE(0, in_force());
	ASSERT_EQ(in_force(), pfsel_file_digest(CONFIRMED1));
	ASSERT_EQ(EACCES, probe(PORT_EVIL));
	ASSERT_TRUE(agent_start(&self->agent)) DUMP;
}

/*
 * The person answers "always" (the rule file, for netprobe to 6406); with
 * @how >= 0 the attacker acts meanwhile.  Returns the attacker's exit
 * status (0: it acted), or -1 without one.  Waits for the agent to say
 * what it did with the rule.
 */
static int answer_always(struct __test_metadata *_metadata,
			 FIXTURE_DATA(agent) *self, int how)
{
	pid_t pid = -1;
	int status = -1;

	(void)self;
	if (how >= 0) {
		pid = attacker_start((enum attack)how);
		if (pid < 0)
			return -2;
	}
	EXPECT_EQ(0, probe(PORT_ALWAYS)) DUMP;
	/* Added (and loaded), or refused: either way a line naming it. */
	EXPECT_TRUE(pfsel_file_wait(LOG1, "6406;", RULE_MS)) DUMP;
	usleep(300 * 1000);
	if (pid > 0) {
		kill(pid, SIGTERM);
		status = pfsel_wait_status(pid);
		TH_LOG("the attacker %s", status == 0 ? "acted" :
					  status == 1 ? "found no chance" :
							"failed");
	}
	return status;
}

/* Control: no attacker; the rule is loaded, 6420 stays denied. */
TEST_F_TIMEOUT(agent, always_without_attacker, 90)
{
	long long before;

	scene(_metadata, self, plain_pfw, NULL);
	before = in_force();
	answer_always(_metadata, self, -1);
	EXPECT_TRUE(pfsel_file_has(LOG1, "added '")) DUMP;
	EXPECT_NE(before, in_force());
	EXPECT_EQ(0, probe(PORT_ALWAYS));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	/* The next login keeps what the agent loaded, 6420 still denied. */
	EXPECT_EQ(0, login(self->out, sizeof(self->out)));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	pfsel_drain(self->peer_always);
}

/*
 * ~/.pfw swapped for a looser text after the agent's rename: the agent
 * loads what it compiled from its own text, in its own process, and the
 * looser ~/.pfw waits at the next login.  (The control:
 * always_without_attacker.)
 */
TEST_F_TIMEOUT(agent, pfw_swapped_after_rename, 90)
{
	long long before;

	scene(_metadata, self, plain_pfw, NULL);
	before = in_force();
	if (answer_always(_metadata, self, ATTACK_PFW) != 0)
		SKIP(return, "the attacker was too late to swap ~/.pfw");
	EXPECT_TRUE(pfsel_file_has(LOG1, "added '")) DUMP;
	EXPECT_NE(before, in_force());
	EXPECT_EQ(0, probe(PORT_ALWAYS));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	/* The looser ~/.pfw waits at the next login. */
	EXPECT_EQ(0, login(self->out, sizeof(self->out)));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	EXPECT_EQ(0, access(PENDING1, F_OK));
}

/*
 * The agent's temporary file beside ~/.pfw swapped for the attacker's
 * text before the agent renames it: the agent loads what it compiled
 * from its own text (it compiled it before writing the file), and the
 * attacker's ~/.pfw waits at the next login.  (Before issue 27's fix the
 * agent had pfwc compile that file by name, and loaded the attacker's
 * text.)
 */
TEST_F_TIMEOUT(agent, temp_swapped_before_compile, 90)
{
	int acted;

	scene(_metadata, self, plain_pfw, NULL);
	acted = answer_always(_metadata, self, ATTACK_TEMP);
	TH_LOG("~/.pfw now:");
	dump_file(_metadata, PFW1);
	dump_file(_metadata, LOG1);
	/*
	 * The file now lives for the instant between the agent's write and
	 * its rename, after the compile: the attacker may or may not catch
	 * it, and either way what is loaded is the agent's own.
	 */
	TH_LOG("the attacker %s", acted == 0 ? "swapped the file" :
						"never saw the file with the rule");
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	EXPECT_EQ(0, probe(PORT_ALWAYS));
	/* ... and a login does not take it for the policy in force. */
	EXPECT_EQ(0, login(self->out, sizeof(self->out)));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
}

/*
 * The included file changed once the agent has read it: the agent parsed
 * it once and compiled what it judged; nothing is compiled later.
 * (Before issue 27's fix the agent compiled three times, and loaded what
 * the include held at the second.)
 */
TEST_F_TIMEOUT(agent, include_swapped_after_judgement, 90)
{
	int acted;

	scene(_metadata, self, include_pfw, extra_pfw);
	acted = answer_always(_metadata, self, ATTACK_INCLUDE);
	dump_file(_metadata, LOG1);
	/*
	 * It waits for a judging compile of a temporary file, which no longer
	 * exists (the agent parses its text once, in memory): whether it
	 * acted or not, what is loaded is what the agent judged.
	 */
	TH_LOG("the attacker %s", acted == 0 ? "changed the include" :
						"never saw a judging compile");
	EXPECT_TRUE(pfsel_file_has(LOG1, "added '")) DUMP;
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
}

/* ---- pfsel confirm ------------------------------------------------------ */

/* The person's looser change: allows 5601, still denies the attacker. */
#define CONFIRMED_TEXT "default allow;\ndeny * connect tcp to loopback port 5601;\n" DENY_EVIL
#define PERSONS_TEXT "default allow;\n" DENY_EVIL
#define ATTACKERS_TEXT "default allow;\n" ALLOW_EVIL "\n" DENY_EVIL

FIXTURE(confirm)
{
	int peers[2];
	char out[8192];
};

FIXTURE_SETUP(confirm)
{
	self->peers[0] = self->peers[1] = -1;
	if (geteuid() != 0)
		SKIP(return, "pfuser1's logins need root");
	ASSERT_EQ(0, access("/usr/bin/pamtester", X_OK));
	if (system("pidof syslogd >/dev/null"))
		system("syslogd -O " SYSLOG " >/dev/null");
	pfsel_reset();
	system("rm -rf " CACHE_DIR " " RUN_DIR);
	ASSERT_EQ(0, mkdir("/var/lib", 0755) && errno != EEXIST);
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	self->peers[0] = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_A);
	self->peers[1] = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_EVIL);
	ASSERT_LE(0, self->peers[0]);
	ASSERT_LE(0, self->peers[1]);

	/* Confirmed at a login; then the person's looser text waits. */
	ASSERT_EQ(0, pfsel_put_file(PFW1, CONFIRMED_TEXT, 0644, PFSEL_UID1));
	ASSERT_EQ(0, login(self->out, sizeof(self->out)));
	ASSERT_EQ(EACCES, probe(PORT_A));
	ASSERT_EQ(0, pfsel_put_file(PFW1, PERSONS_TEXT, 0644, PFSEL_UID1));
	ASSERT_EQ(0, login(self->out, sizeof(self->out)));
	ASSERT_NE(NULL, strstr(self->out, "pfsel confirm"))
	TH_LOG("%s", self->out);
	ASSERT_EQ(0, access(PENDING1, F_OK));
	ASSERT_EQ(EACCES, probe(PORT_A));
	ASSERT_EQ(EACCES, probe(PORT_EVIL));
}

FIXTURE_TEARDOWN(confirm)
{
	if (geteuid() != 0)
		return;
	if (self->peers[0] >= 0)
		close(self->peers[0]);
	if (self->peers[1] >= 0)
		close(self->peers[1]);
	pfsel_reset();
}

/* The digest the pending note names ("looser HEX"; 8 bytes), or 0. */
static long long pending_digest(void)
{
	uint8_t digest[PFSEL_DIGEST_SIZE];
	char text[128], hex[PFSEL_DIGEST_HEX_SIZE];
	long long which = 0;

	if (pfsel_read_file(PENDING1, text, sizeof(text)) > 0 &&
	    sscanf(text, "looser %64[0-9a-f]", hex) == 1 &&
	    !pfsel_digest_parse(hex, digest))
		memcpy(&which, digest, sizeof(which));
	return which;
}

/* As pfuser1: the person's text with the attacker's rule, as ~/.pfw. */
static int write_attackers_text(void *arg)
{
	(void)arg;
	return swap_in(PFW1, ATTACKERS_TEXT) ? 1 : 0;
}

/* Control: the person confirms; what waited is what is loaded. */
TEST_F_TIMEOUT(confirm, confirm_loads_what_was_pending, 180)
{
	const long long pending = pending_digest();

	ASSERT_NE(0, pending);
	EXPECT_EQ(0, pfsel_sh(self->out, sizeof(self->out),
			      "pfsel confirm --user pfuser1"))
	TH_LOG("%s", self->out);
	EXPECT_EQ(pending, in_force());
	EXPECT_EQ(0, probe(PORT_A));
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
}

/*
 * After the login told the person that their text waits (and noted its
 * digest), the attacker adds its rule to ~/.pfw; the person confirms, as
 * they were told to, with no terminal to be asked on.  Nothing is loaded:
 * ~/.pfw is not what waited (before issue 27's fix, confirm loaded and
 * recorded the attacker's text).  The control is
 * confirm_loads_what_was_pending: the same confirm of what waited loads.
 */
TEST_F_TIMEOUT(confirm, confirm_loads_what_the_attacker_wrote, 180)
{
	const long long pending = pending_digest();
	const long long before = in_force();
	char status[4096];

	ASSERT_NE(0, pending);
	/* What the person sees as themselves: their text waits. */
	EXPECT_EQ(0, pfsel_sh(status, sizeof(status),
			      RUNAS " 1001 pfsel status"));
	TH_LOG("pfsel status, before:\n%s", status);
	/* The attacker, as pfuser1: its rule in ~/.pfw. */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, write_attackers_text, NULL));
	dump_file(_metadata, PFW1);
	EXPECT_NE(0, pfsel_sh(self->out, sizeof(self->out),
			      "pfsel confirm --user pfuser1 </dev/null"));
	TH_LOG("pfsel confirm:\n%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "changed since"));
	/* What is in force is what was, and the attacker's port is denied. */
	EXPECT_EQ(before, in_force());
	EXPECT_NE(pending, in_force());
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
	EXPECT_EQ(EACCES, probe(PORT_A));
}

/* As pfuser1: the confirmed text back, no looser than what is confirmed. */
static int write_confirmed_text(void *arg)
{
	(void)arg;
	return swap_in(PFW1, CONFIRMED_TEXT) ? 1 : 0;
}

/*
 * The note of what waits is all that makes confirm ask, and any login
 * that loads ~/.pfw clears it.  The attacker needs no password for a
 * session: a job in its own crontab (crond opens a PAM session for it), a
 * key of its own in ~/.ssh/authorized_keys and ssh to the machine, a
 * lingering systemd --user: any service whose session stack has
 * pam_pfsel, which takes every session for "the person has just
 * authenticated".  So, after the login that told the person their text
 * waits: the attacker puts the confirmed text back in ~/.pfw and opens
 * such a session (pamtester stands in for crond: open_session, no
 * authentication), which loads what is in force already and clears the
 * note; then it writes its own text.  The person runs `pfsel confirm` as
 * they were told, with no terminal to ask on: it must not load the
 * attacker's text (the same as confirm_loads_what_the_attacker_wrote,
 * the note gone).  The control: confirm_loads_what_was_pending.
 */
TEST_F_TIMEOUT(confirm, note_cleared_by_a_session_of_the_attacker, 180)
{
	const long long pending = pending_digest();
	const long long before = in_force();

	ASSERT_NE(0, pending);
	/* The attacker, as pfuser1: the confirmed text, then a session. */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, write_confirmed_text, NULL));
	ASSERT_EQ(0, login(self->out, sizeof(self->out)));
	TH_LOG("the attacker's session:\n%s", self->out);
	EXPECT_EQ(before, in_force());
	TH_LOG("the note after the attacker's session: %s",
	       access(PENDING1, F_OK) ? "gone" : "still there");
	/* Its own text, the person's change and its rule. */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, write_attackers_text, NULL));
	dump_file(_metadata, PFW1);
	EXPECT_NE(0, pfsel_sh(self->out, sizeof(self->out),
			      "pfsel confirm --user pfuser1 </dev/null"));
	TH_LOG("pfsel confirm:\n%s", self->out);
	EXPECT_EQ(before, in_force());
	EXPECT_EQ(EACCES, probe(PORT_EVIL));
}

TEST_HARNESS_MAIN
