// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - a new user's first day with pfsel, end to end, each
 * step an assertion:
 *
 *   1. pfuser1 writes ~/.pfw: default allow, a deny of one loopback port,
 *      no ask rule; nothing is loaded for 1001 yet;
 *   2. logs in through PAM (pamtester, service pfsel-test: pam_pfsel
 *      compiles ~/.pfw as the user and loads it);
 *   3. the policy is loaded for 1001 (pfsel list, the policies file);
 *   4. a connect of pfuser1's to the denied port fails with EACCES (and
 *      another port still works);
 *   5. the denial is audited: ausearch -m 1430 finds it, pfsel log --uid
 *      1001 shows it, with the rule of ~/.pfw that denied it;
 *   6. pfsel audit2pfw suggests the rule that allows it, and says where it
 *      belongs: before the rule that denied it;
 *   7. pfuser1 puts the suggested rule into ~/.pfw there;
 *   8. logs in again: pam_pfsel sees ~/.pfw changed and compiles it, but
 *      it allows more than the policy the first login confirmed: the
 *      confirmed policy stays in force, the login says how to confirm,
 *      and `pfsel status` (as pfuser1) says ~/.pfw waits for it;
 *      pfuser1 confirms (as root: `pfsel confirm`, which sudo or pkexec
 *      runs after their password): ~/.pfw is loaded (a new digest and
 *      generation), and the next login keeps it;
 *   9. the same call now succeeds, and only it (another application is
 *      still denied the port);
 *  10. every login's close_session (the logout) works: the session count
 *      is back to 0, and the policy stays loaded.
 *
 * The requests are netprobe connects as pfuser1; auditd runs in the VM.
 * Needs root: as anyone else the test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define HOME1 "/home/pfuser1"
#define PFW1 HOME1 "/.pfw"
#define CACHE_DIR "/var/lib/pfsel"
#define RUN_DIR "/run/pfsel"
#define COUNTER1 RUN_DIR "/1001.sessions"
#define BLOB1 CACHE_DIR "/1001.pfsel"

#define PORT_DENIED 5711 /* denied by ~/.pfw */
#define PORT_OPEN 5712 /* allowed by its default */
#define AUDIT_WAIT_MS 10000

/* What pfuser1 writes first: default allow, one port denied, no ask. */
static const char first_pfw[] = "# My firewall.\n"
				"default allow;\n"
				"deny * connect to loopback port 5711;\n";

/* pfuser1 writes @arg to ~/.pfw (in place, as an editor saves it). */
static int write_pfw(void *arg)
{
	const char *text = arg;
	const size_t len = strlen(text);
	int fd = open(PFW1, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return 1;
	if (write(fd, text, len) != (ssize_t)len)
		return 2;
	return close(fd) ? 3 : 0;
}

/* A login and logout of pfuser1: pamtester's exit status, its output. */
static int login(char *out, size_t size)
{
	return pfsel_pam_session("pfsel-test", "pfuser1", out, size);
}

/* pfuser1's netprobe connects to 127.0.0.1:@port: its errno, its pid. */
static int netprobe(unsigned short port, pid_t *pid)
{
	return pfsel_netprobe_as(PFSEL_UID1, NULL, "connect", "127.0.0.1", port,
				 pid);
}

/* The same connect from another application: this test, as pfuser1. */
static int plain_connect(void *arg)
{
	union pfsel_addr addr;
	const socklen_t len =
		pfsel_addr("127.0.0.1", (unsigned short)(uintptr_t)arg, &addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return ENOTRECOVERABLE;
	ret = connect(fd, &addr.sa, len) ? errno : 0;
	close(fd);
	return ret;
}

/* How many times @needle occurs in @text. */
static int count_of(const char *text, const char *needle)
{
	int n = 0;

	while ((text = strstr(text, needle))) {
		n++;
		text += strlen(needle);
	}
	return n;
}

static long sessions(void)
{
	char buf[32];

	if (pfsel_read_file(COUNTER1, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * Put the lines of @rules that are rules (not comments, not blank) into
 * @text before its line number @line (from 1): the new text, malloc()ed.
 */
static char *insert_before(const char *text, int line, const char *rules)
{
	char *out = NULL, *copy, *save = NULL, *l;
	size_t size = 0;
	const char *p = text;
	FILE *f = open_memstream(&out, &size);
	int n;

	if (!f)
		return NULL;
	for (n = 1; n < line && *p; n++) {
		const char *nl = strchrnul(p, '\n');

		fprintf(f, "%.*s\n", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
	fputs("# Allowed after pfsel audit2pfw showed the denial.\n", f);
	copy = strdup(rules);
	for (l = copy ? strtok_r(copy, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save))
		if (l[0] != '#' && l[0] != '\0')
			fprintf(f, "%s\n", l);
	free(copy);
	fputs(p, f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

FIXTURE(newuser)
{
	int peer_denied, peer_open;
};

FIXTURE_SETUP(newuser)
{
	self->peer_denied = self->peer_open = -1;
	if (geteuid() != 0)
		SKIP(return, "PAM sessions and the audit log need root");
	ASSERT_EQ(0, access("/usr/bin/pamtester", X_OK))
	TH_LOG("pamtester is not in the image (tests/vm/mkinitramfs)");
	ASSERT_EQ(0, access("/etc/pam.d/pfsel-test", R_OK))
	TH_LOG("no /etc/pam.d/pfsel-test in the image (tests/vm/mkinitramfs)");
	ASSERT_TRUE(pfsel_auditd_running())
	TH_LOG("auditd is not running in the VM");
	pfsel_reset();
	/* A new user: no home yet, nothing kept for them. */
	system("rm -rf " CACHE_DIR " " RUN_DIR);
	ASSERT_EQ(0, mkdir("/var/lib", 0755) && errno != EEXIST);
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	self->peer_denied = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_DENIED);
	ASSERT_LE(0, self->peer_denied);
	self->peer_open = pfsel_peer(SOCK_STREAM, "127.0.0.1", PORT_OPEN);
	ASSERT_LE(0, self->peer_open);
}

FIXTURE_TEARDOWN(newuser)
{
	if (geteuid() != 0)
		return;
	if (self->peer_denied >= 0)
		close(self->peer_denied);
	if (self->peer_open >= 0)
		close(self->peer_open);
	pfsel_reset();
}

TEST_F_TIMEOUT(newuser, first_day, 120)
{
	char out[8192], rules[4096], needle[256], pid_field[32], record[4096],
		pfw[4096], *updated;
	const char *needles[] = { " pfsel ", pid_field, NULL };
	const time_t start = time(NULL);
	struct pfsel_policy_info info;
	long long sum1, sum2, gen1, gen2;
	const char *p, *colon;
	struct stat st;
	int deny_line;
	pid_t pid;

	/* 1. pfuser1 writes ~/.pfw; nothing is loaded for them yet. */
	ASSERT_EQ(0, pfsel_run_as(PFSEL_UID1, write_pfw, (void *)first_pfw));
	ASSERT_EQ(0, stat(PFW1, &st));
	EXPECT_EQ((uid_t)PFSEL_UID1, st.st_uid);
	ASSERT_LT(0, pfsel_read_file(PFW1, pfw, sizeof(pfw)));
	EXPECT_EQ(NULL, strstr(pfw, "ask"));
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
	EXPECT_EQ(0, netprobe(PORT_DENIED, NULL));

	/* 2. Logs in through PAM (and out: pamtester closes the session). */
	ASSERT_EQ(0, login(out, sizeof(out)))
	TH_LOG("pamtester:\n%s", out);
	TH_LOG("first login:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "successfully opened a session"));
	EXPECT_NE(NULL, strstr(out, "session has successfully been closed"))
	TH_LOG("%s", out);
	EXPECT_EQ(0, sessions());

	/* 3. The policy is loaded for 1001, and compiled from ~/.pfw. */
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	memcpy(&sum1, info.digest, sizeof(sum1));
	gen1 = info.generation;
	TH_LOG("policies: generation %lld sha256 %016llx...", gen1, sum1);
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel list"));
	TH_LOG("pfsel list:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "\n1001 "));
	EXPECT_EQ(0, access(BLOB1, R_OK));

	/* 4. pfuser1's call to the denied port: EACCES; another port: fine. */
	ASSERT_EQ(EACCES, netprobe(PORT_DENIED, &pid));
	EXPECT_EQ(0, netprobe(PORT_OPEN, NULL));

	/* 5. Audited: ausearch finds the record, pfsel log shows it. */
	snprintf(pid_field, sizeof(pid_field), " pid=%d ", pid);
	ASSERT_TRUE(pfsel_audit_find("1430", needles, record, sizeof(record),
				     AUDIT_WAIT_MS))
	TH_LOG("no 1430 record of netprobe's pid %d", pid);
	TH_LOG("audit: %s", record);
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out),
			      "pfsel log --uid 1001 --since @%lld",
			      (long long)start));
	TH_LOG("pfsel log:\n%s", out);
	snprintf(needle, sizeof(needle),
		 " deny  uid=1001 " PFSEL_NETPROBE
		 " connect tcp to 127.0.0.1:%d user ",
		 PORT_DENIED);
	p = strstr(out, needle);
	ASSERT_NE(NULL, p);
	EXPECT_NE(NULL, strstr(p, ".pfw:3:")); /* the deny rule, line 3 */
	/* (The line ends there, or with the subject's context, subj=.) */
	snprintf(needle, sizeof(needle), " pid=%d", pid);
	p = strstr(p, needle);
	ASSERT_NE(NULL, p);
	p += strlen(needle);
	EXPECT_TRUE(*p == '\n' || !strncmp(p, " subj=", 6));

	/* 6. audit2pfw suggests the allow, and says where it belongs. */
	ASSERT_EQ(0, pfsel_sh(rules, sizeof(rules),
			      "pfsel audit2pfw --uid 1001 --since @%lld",
			      (long long)start));
	TH_LOG("pfsel audit2pfw:\n%s", rules);
	snprintf(needle, sizeof(needle),
		 "\nallow " PFSEL_NETPROBE
		 " connect tcp to 127.0.0.1 port %d;\n",
		 PORT_DENIED);
	EXPECT_NE(NULL, strstr(rules, needle));
	/* That one rule only: nothing else of 1001's was denied. */
	EXPECT_EQ(1, count_of(rules, "\nallow "));
	p = strstr(rules, "#   denied by rule ");
	ASSERT_NE(NULL, p);
	p += strlen("#   denied by rule ");
	ASSERT_NE(NULL,
		  strstr(p, " of the user policy: put these rules before it"));
	/* FILE:LINE:COLUMN: the line is between the last two colons. */
	colon = strstr(p, " of the user policy");
	while (colon > p && colon[-1] != ':')
		colon--; /* past the column */
	colon--;
	while (colon > p && colon[-1] != ':')
		colon--;
	deny_line = atoi(colon);
	EXPECT_EQ(3, deny_line);
	ASSERT_LT(0, deny_line);

	/* 7. pfuser1 puts it into ~/.pfw, before the rule that denied it. */
	updated = insert_before(pfw, deny_line, rules);
	ASSERT_NE(NULL, updated);
	TH_LOG("~/.pfw now:\n%s", updated);
	sleep(1); /* a new modification time, whatever the clock's grain */
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, write_pfw, updated));
	free(updated);

	/*
	 * 8. Logs in again: ~/.pfw changed and allows more than what the
	 * first login confirmed, so it waits for pfuser1 to confirm it.
	 */
	ASSERT_EQ(0, login(out, sizeof(out)))
	TH_LOG("pamtester:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "session has successfully been closed"))
	TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "pfsel confirm")) TH_LOG("%s", out);
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	EXPECT_EQ(0, memcmp(&sum1, info.digest, sizeof(sum1)));
	EXPECT_EQ(EACCES, netprobe(PORT_DENIED, NULL));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			      PFSEL_TESTS_DIR "/runas 1001 pfsel status"));
	TH_LOG("pfsel status:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "waits for 'pfsel confirm'"));

	/* pfuser1 confirms it (sudo pfsel confirm, or pkexec). */
	ASSERT_EQ(0, pfsel_sh(out, sizeof(out), "pfsel confirm --user pfuser1"))
	TH_LOG("pfsel confirm:\n%s", out);
	TH_LOG("pfsel confirm:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "allows more than the policy confirmed"));
	EXPECT_NE(NULL, strstr(out, "loaded and confirmed"));
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	memcpy(&sum2, info.digest, sizeof(sum2));
	gen2 = info.generation;
	TH_LOG("policies: generation %lld sha256 %016llx...", gen2, sum2);
	EXPECT_NE(sum1, sum2);
	EXPECT_LT(gen1, gen2);

	/* And logs in again: the confirmed ~/.pfw stays, silently. */
	ASSERT_EQ(0, login(out, sizeof(out)))
	TH_LOG("pamtester:\n%s", out);
	EXPECT_EQ(NULL, strstr(out, "pfsel confirm")) TH_LOG("%s", out);
	ASSERT_EQ(1, pfsel_get_policy_info(false, PFSEL_UID1, &info));
	EXPECT_EQ(0, memcmp(&sum2, info.digest, sizeof(sum2)));
	EXPECT_EQ(gen2, info.generation);

	/* 9. The same call now succeeds; only netprobe's. */
	EXPECT_EQ(0, netprobe(PORT_DENIED, &pid));
	EXPECT_EQ(0, netprobe(PORT_OPEN, NULL));
	EXPECT_EQ(EACCES, pfsel_run_as(PFSEL_UID1, plain_connect,
				       (void *)(uintptr_t)PORT_DENIED));
	EXPECT_EQ(0, pfsel_sh(out, sizeof(out),
			      "pfsel check --uid 1001 --exe " PFSEL_NETPROBE
			      " connect tcp 127.0.0.1 %d",
			      PORT_DENIED));
	TH_LOG("pfsel check:\n%s", out);
	EXPECT_NE(NULL, strstr(out, "verdict  allow\n"));
	EXPECT_NE(NULL, strstr(out, ".pfw:4:")); /* the rule put in */

	/* 10. Logged out: no session counted, the policy stays loaded. */
	EXPECT_EQ(0, sessions());
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	EXPECT_EQ(2, pfsel_drain(self->peer_denied));
}

TEST_HARNESS_MAIN
