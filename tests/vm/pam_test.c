// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - pam_pfsel, the PAM session module, through a real PAM
 * stack: `pamtester -v SERVICE USER open_session close_session` with the
 * services of /etc/pam.d (tests/vm/mkinitramfs puts libpam, pamtester,
 * pam_pfsel.so and the service "pfsel-test" in the image; this test
 * writes the variants "pfsel-test-OPTION" it needs), and libpam itself
 * for two sessions open at once.
 *
 * What is checked: a good ~/.pfw is compiled and loaded for 1001, and
 * what it denies is denied; a stale compiled policy is compiled again
 * (newer source, and a source put back to an older one); a ~/.pfw that
 * does not compile with on_error=keep, none and deny; a missing ~/.pfw
 * with missing=none and keep; a ~/.pfw that is a symlink to, or includes,
 * a file the user may not read is not compiled and nothing of the file
 * reaches the kept policy; the per-uid session counter, and the forget
 * at the last close only.  The confirmed policy (issue 12): the first
 * login records what it loads as confirmed; a tighter ~/.pfw loads at
 * login and is recorded as confirmed too (so a program cannot put the
 * looser text back); a looser one does not -- the confirmed policy stays in force,
 * the person is told once, `pfsel status` says so -- until root confirms
 * it (`pfsel confirm --user`); a ~/.pfw deleted or broken does not unload
 * what was confirmed.  Needs root: as anyone else every test is skipped.
 */

#define _GNU_SOURCE
#include "pfsel_test_util.h"

#include <dirent.h>
#include <security/pam_appl.h>
#include <signal.h>

#include "kselftest_harness.h"

#define CACHE_DIR "/var/lib/pfsel"
#define RUN_DIR "/run/pfsel"
#define HOME1 "/home/pfuser1"
#define HOME2 "/home/pfuser2"
#define PFW1 HOME1 "/.pfw"
#define COUNTER1 RUN_DIR "/1001.sessions"
#define BLOB1 CACHE_DIR "/1001.pfsel"
#define CONFIRMED1 CACHE_DIR "/confirmed/1001.pfsel"
#define PENDING1 RUN_DIR "/1001.pending"
#define SYSLOG PFSEL_SYSLOG

#define PORT_A 5601 /* denied by GOOD_A */
#define PORT_B 5602 /* denied by GOOD_B */
#define PORT_OPEN 5603 /* allowed by both */

#define GOOD_A "default allow;\ndeny * connect to loopback port 5601;\n"
#define GOOD_B "default allow;\ndeny * connect to loopback port 5602;\n"
/* GOOD_A and more: no looser than GOOD_A. */
#define TIGHTER_A                                 \
	"default allow;\n"                        \
	"deny * connect to loopback port 5601;\n" \
	"deny * connect to loopback port 5602;\n"
#define BROKEN "default allow;\nthis is not a rule;\n"
/* What no one but pfuser2 (or root) may read. */
#define MARKER "SECRET-MARKER-4242"
#define SECRET                                                               \
	"default allow;\ndeny \"/opt/" MARKER "\" connect to loopback port " \
	"5609;\n"

static const char *const pam_line =
	"session required pam_pfsel.so pfwc=/usr/bin/pfwc debug";

/* Write @text to @path (mode @mode, owner @uid), with @mtime if not 0. */
static int put_file(const char *path, const char *text, mode_t mode, uid_t uid,
		    time_t mtime)
{
	const struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };

	if (pfsel_put_file(path, text, mode, uid))
		return -1;
	return mtime ? utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) : 0;
}

/* The service pfsel-test-NAME: pam_pfsel with @options. */
static int put_service(const char *name, const char *options)
{
	char path[128], text[512];

	snprintf(path, sizeof(path), "/etc/pam.d/pfsel-test-%s", name);
	snprintf(text, sizeof(text),
		 "auth required pam_permit.so\naccount required pam_permit.so\n"
		 "%s %s\n",
		 pam_line, options);
	return put_file(path, text, 0644, 0, 0);
}

/* pamtester for one open and close: its exit status; its output in @out. */
static int pamtester(const char *service, const char *user, char *out,
		     size_t size)
{
	return pfsel_pam_session(service, user, out, size);
}

/* The last lines of the syslog, for failures. */
static void log_tail(struct __test_metadata *_metadata)
{
	char buf[8192], cmd[64];
	FILE *p;
	size_t len;

	snprintf(cmd, sizeof(cmd), "tail -n 12 %s 2>/dev/null", SYSLOG);
	p = popen(cmd, "r");
	if (!p)
		return;
	len = fread(buf, 1, sizeof(buf) - 1, p);
	buf[len] = '\0';
	pclose(p);
	TH_LOG("syslog:\n%s", buf);
}

/* Lines of the syslog holding @needle (-1 without a syslog). */
static int log_count(const char *needle)
{
	char line[1024];
	FILE *file = fopen(SYSLOG, "re");
	int n = 0;

	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file))
		n += strstr(line, needle) != NULL;
	fclose(file);
	return n;
}

/* Loaded for @uid, and which policy (pfsel_uid_digest()). */
static bool loaded(uid_t uid, long long *which)
{
	if (which)
		*which = pfsel_uid_digest(uid);
	return pfsel_uid_loaded(uid);
}

/* Whether the policy file @path is @which (as loaded() gives it). */
static bool file_is(const char *path, long long which)
{
	return pfsel_file_digest(path) == which;
}

static long counter(void)
{
	char buf[32];

	if (pfsel_read_file(COUNTER1, buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

static int connect_as_1001(unsigned short port)
{
	struct pfsel_probe probe = {
		.op = PFSEL_PROBE_CONNECT,
		.family = AF_INET,
		.type = SOCK_STREAM,
		.addr = "127.0.0.1",
		.port = port,
	};

	return pfsel_probe_as(PFSEL_UID1, &probe);
}

/* Whether any file of @dir holds @needle. */
static bool dir_holds(const char *dir, const char *needle)
{
	char path[512], buf[1 << 16];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(dir);
	ssize_t len;

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.' &&
		    (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		len = pfsel_read_file(path, buf, sizeof(buf));
		found = len > 0 &&
			memmem(buf, (size_t)len, needle, strlen(needle));
	}
	closedir(d);
	return found;
}

FIXTURE(pam)
{
	int peers[3];
	char out[4096];
};

FIXTURE_SETUP(pam)
{
	static const unsigned short ports[] = { PORT_A, PORT_B, PORT_OPEN };
	size_t i;

	if (geteuid() != 0)
		SKIP(return, "PAM sessions for pfuser1 need root");
	ASSERT_EQ(0, access("/usr/bin/pamtester", X_OK))
	TH_LOG("pamtester is not in the image (tests/vm/mkinitramfs)");
	ASSERT_EQ(0, access("/etc/pam.d/pfsel-test", R_OK))
	TH_LOG("no /etc/pam.d/pfsel-test in the image (tests/vm/mkinitramfs)");
	/* A syslog, to see pam_pfsel's messages (and its forget). */
	if (system("pidof syslogd >/dev/null"))
		system("syslogd -O " SYSLOG " >/dev/null");
	pfsel_reset();
	system("rm -rf " CACHE_DIR " " RUN_DIR " /etc/pfsel-secret.pfw");
	ASSERT_EQ(0, mkdir("/var/lib", 0755) && errno != EEXIST);
	ASSERT_EQ(0, pfsel_new_home(HOME1, PFSEL_UID1));
	ASSERT_EQ(0, pfsel_new_home(HOME2, PFSEL_UID2));
	ASSERT_EQ(0, put_service("keep", "on_error=keep"));
	ASSERT_EQ(0, put_service("none", "on_error=none"));
	ASSERT_EQ(0, put_service("deny", "on_error=deny"));
	ASSERT_EQ(0, put_service("missing-keep", "missing=keep"));
	for (i = 0; i < 3; i++) {
		self->peers[i] = pfsel_peer(SOCK_STREAM, "127.0.0.1", ports[i]);
		ASSERT_LE(0, self->peers[i]);
	}
}

FIXTURE_TEARDOWN(pam)
{
	size_t i;

	if (geteuid() != 0)
		return;
	for (i = 0; i < 3; i++)
		if (self->peers[i] >= 0)
			close(self->peers[i]);
	pfsel_reset();
}

#define SESSION_OK(service)                                                    \
	ASSERT_EQ(0,                                                           \
		  pamtester(service, "pfuser1", self->out, sizeof(self->out))) \
	{                                                                      \
		TH_LOG("pamtester %s:\n%s", service, self->out);               \
		log_tail(_metadata);                                           \
	}

/*
 * pfuser1's ~/.pfw is @text; a login through @service loads a policy,
 * which one in *@which (NULL: not kept).
 */
#define LOGIN_LOADS(text, service, which)                                \
	do {                                                             \
		ASSERT_EQ(0, put_file(PFW1, text, 0644, PFSEL_UID1, 0)); \
		SESSION_OK(service);                                     \
		ASSERT_TRUE(loaded(PFSEL_UID1, which));                  \
	} while (0)

/* A good ~/.pfw: compiled as 1001, kept by root, loaded and enforced. */
TEST_F(pam, good_policy)
{
	struct stat st;
	char header[32];
	long long sum1, sum2, gen;
	int fd;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &sum1);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	EXPECT_EQ(0, connect_as_1001(PORT_OPEN));
	EXPECT_FALSE(loaded(PFSEL_UID2, NULL));

	/* The compiled policy: root's, 0600, for uid 1001. */
	ASSERT_EQ(0, lstat(BLOB1, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0u, st.st_uid);
	EXPECT_EQ(0600u, st.st_mode & 07777);
	ASSERT_EQ(0, lstat(CACHE_DIR, &st));
	EXPECT_EQ(0700u, st.st_mode & 07777);
	fd = open(BLOB1, O_RDONLY);
	ASSERT_EQ(32, read(fd, header, 32));
	close(fd);
	EXPECT_EQ(1001u, *(uint32_t *)(header + 20));
	EXPECT_TRUE(file_is(BLOB1, sum1));
	EXPECT_EQ(0, access(CACHE_DIR "/1001.stamp", R_OK));
	EXPECT_EQ(0, counter());

	/* Again, unchanged: not compiled, not even loaded again. */
	gen = pfsel_uid_generation(PFSEL_UID1);
	SESSION_OK("pfsel-test");
	ASSERT_TRUE(loaded(PFSEL_UID1, &sum2));
	EXPECT_EQ(sum1, sum2);
	EXPECT_EQ(gen, pfsel_uid_generation(PFSEL_UID1));
}

/*
 * A stale compiled policy is compiled again: newer, or put back older.
 * The older text, looser than the tighter one now confirmed, waits for
 * confirmation; what the cache and the note hold shows it was compiled.
 */
TEST_F(pam, stale_policy)
{
	long long a, b, c;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &a);
	LOGIN_LOADS(TIGHTER_A, "pfsel-test", &b);
	EXPECT_NE(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));
	EXPECT_TRUE(file_is(CONFIRMED1, b));

	/* The old file restored from a backup: its mtime is long ago. */
	ASSERT_EQ(0, put_file(PFW1, GOOD_A, 0644, PFSEL_UID1, 1000000000));
	SESSION_OK("pfsel-test");
	EXPECT_TRUE(file_is(BLOB1, a));
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_EQ(b, c);
	EXPECT_EQ(0, access(PENDING1, F_OK));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));

	/* Root confirms it: now it is in force. */
	ASSERT_EQ(0, pfsel_sh(self->out, sizeof(self->out),
			      "pfsel confirm --user pfuser1"))
	TH_LOG("%s", self->out);
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_EQ(a, c);
	EXPECT_EQ(0, connect_as_1001(PORT_B));
}

/*
 * The attack of issue 27 (item 5): the person tightened ~/.pfw and logged
 * in; a program of theirs puts the older, looser text back and waits for
 * the next login.  The tighter policy was recorded as confirmed when it
 * loaded, so the older one is looser than it and waits for the person's
 * password.  (Before, the confirmed policy stayed the older one, and the
 * older text, "no looser" than it, loaded silently: the control is the
 * same steps with the tighter policy never loaded, where GOOD_A is the
 * confirmed policy itself.)
 */
TEST_F(pam, tightening_is_not_undone)
{
	long long a, b, c;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &a);
	LOGIN_LOADS(TIGHTER_A, "pfsel-test", &b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));

	/* The program of 1001 writes the older text back. */
	ASSERT_EQ(0, pfsel_sh(self->out, sizeof(self->out),
			      PFSEL_TESTS_DIR "/runas 1001 sh -c "
					      "'printf \"%%s\" \"$0\" > %s' "
					      "'" GOOD_A "'",
			      PFW1));
	SESSION_OK("pfsel-test");
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_EQ(b, c);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));
	EXPECT_NE(NULL, strstr(self->out, "pfsel confirm"))
	TH_LOG("%s", self->out);

	/* The control: with nothing tightened, GOOD_A loads as it is. */
	ASSERT_EQ(0, pfsel_sh(self->out, sizeof(self->out),
			      "pfsel confirm --user pfuser1"));
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_EQ(a, c);
	SESSION_OK("pfsel-test");
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_EQ(a, c);
	EXPECT_EQ(0, connect_as_1001(PORT_B));
}

/* on_error=keep: the policy loaded stays; with none, the one kept. */
TEST_F(pam, broken_keep)
{
	long long a, b;

	LOGIN_LOADS(GOOD_A, "pfsel-test-keep", &a);
	LOGIN_LOADS(BROKEN, "pfsel-test-keep", &b);
	EXPECT_EQ(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	EXPECT_EQ(1, log_count("does not compile")) log_tail(_metadata);

	/* Nothing loaded: the policy last confirmed comes back. */
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	SESSION_OK("pfsel-test-keep");
	ASSERT_TRUE(loaded(PFSEL_UID1, &b));
	EXPECT_EQ(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
}

/*
 * on_error=none: a policy nobody confirmed is unloaded; a confirmed one
 * stays -- a program that breaks ~/.pfw does not turn the firewall off.
 */
TEST_F(pam, broken_none)
{
	long long a, b;

	ASSERT_EQ(0, put_file(PFW1, BROKEN, 0644, PFSEL_UID1, 0));
	ASSERT_EQ(0, pfsel_load("enforce_1001"));
	SESSION_OK("pfsel-test-none");
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(0, connect_as_1001(PORT_A));

	LOGIN_LOADS(GOOD_A, "pfsel-test-none", &a);
	LOGIN_LOADS(BROKEN, "pfsel-test-none", &b);
	EXPECT_EQ(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
}

/* on_error=deny: the session is refused, and not counted. */
TEST_F(pam, broken_deny)
{
	ASSERT_EQ(0, put_file(PFW1, BROKEN, 0644, PFSEL_UID1, 0));
	EXPECT_NE(0, pamtester("pfsel-test-deny", "pfuser1", self->out,
			       sizeof(self->out)));
	EXPECT_NE(NULL, strstr(self->out, "open_session"))
	TH_LOG("%s", self->out);
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	EXPECT_TRUE(counter() <= 0);
	/* Fixed: the session opens. */
	ASSERT_EQ(0, put_file(PFW1, GOOD_A, 0644, PFSEL_UID1, 0));
	SESSION_OK("pfsel-test-deny");
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(0, counter());
}

/*
 * No ~/.pfw: nothing loaded (default) when nothing was confirmed; the
 * previous policy kept with missing=keep, and also whenever a policy was
 * confirmed: deleting ~/.pfw does not unload it.
 */
TEST_F(pam, missing)
{
	SESSION_OK("pfsel-test");
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	LOGIN_LOADS(GOOD_A, "pfsel-test", NULL);
	ASSERT_EQ(0, unlink(PFW1));
	SESSION_OK("pfsel-test-missing-keep");
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	SESSION_OK("pfsel-test");
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	/* Unloaded by root, nothing in force: the confirmed one again. */
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	SESSION_OK("pfsel-test");
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	/* No home folder at all: the same. */
	ASSERT_EQ(0, rmdir(HOME1));
	SESSION_OK("pfsel-test");
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	/* Root forgets what was confirmed (pfsel unload): then nothing. */
	ASSERT_EQ(0, system("pfsel unload 1001"));
	EXPECT_NE(0, access(CONFIRMED1, F_OK));
	SESSION_OK("pfsel-test");
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
}

/* The first login records what it loads as confirmed: root's, 0600. */
TEST_F(pam, first_login_confirms)
{
	struct stat st;
	long long sum;
	int fd;
	char header[32];

	LOGIN_LOADS(GOOD_A, "pfsel-test", &sum);
	ASSERT_EQ(0, lstat(CACHE_DIR "/confirmed", &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(0u, st.st_uid);
	EXPECT_EQ(0700u, st.st_mode & 07777);
	ASSERT_EQ(0, lstat(CONFIRMED1, &st));
	EXPECT_EQ(0u, st.st_uid);
	EXPECT_EQ(0600u, st.st_mode & 07777);
	fd = open(CONFIRMED1, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(32, read(fd, header, 32));
	close(fd);
	EXPECT_TRUE(file_is(CONFIRMED1, sum));
	EXPECT_NE(0, access(PENDING1, F_OK));
}

/* A tighter ~/.pfw loads at login, silently, and is confirmed by that. */
TEST_F(pam, tighter_loads)
{
	const int logged = log_count("no looser than the confirmed policy");
	long long a, b;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &a);
	LOGIN_LOADS(TIGHTER_A, "pfsel-test", &b);
	EXPECT_NE(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));
	EXPECT_EQ(NULL, strstr(self->out, "pfsel confirm"))
	TH_LOG("%s", self->out);
	EXPECT_NE(0, access(PENDING1, F_OK));
	EXPECT_TRUE(file_is(CONFIRMED1, b));
	if (logged >= 0) {
		usleep(300 * 1000); /* syslogd writes it down */
		EXPECT_EQ(logged + 1,
			  log_count("no looser than the confirmed policy"))
		log_tail(_metadata);
	}
}

/* `pfsel status` as pfuser1: its output in @out; its exit status. */
static int status_as_1001(char *out, size_t size)
{
	return pfsel_sh(out, size, PFSEL_TESTS_DIR "/runas 1001 pfsel status");
}

/*
 * A looser ~/.pfw: the confirmed policy stays in force, the person is
 * told once, status says so; root confirms it, then it is in force and
 * stays at the next login.
 */
TEST_F_TIMEOUT(pam, looser_waits_for_confirmation, 300)
{
	char status[4096];
	long long a, b, c;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &a);

	/* GOOD_B allows what GOOD_A denies (PORT_A): looser. */
	LOGIN_LOADS(GOOD_B, "pfsel-test", &b);
	EXPECT_EQ(a, b);
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	EXPECT_EQ(0, connect_as_1001(PORT_B));
	EXPECT_NE(NULL, strstr(self->out, "pfsel confirm"))
	TH_LOG("pamtester:\n%s", self->out);
	EXPECT_EQ(0, access(PENDING1, R_OK));
	EXPECT_EQ(0, status_as_1001(status, sizeof(status)));
	EXPECT_NE(NULL, strstr(status, "DIFFERS from the policy in force"))
	TH_LOG("%s", status);
	EXPECT_NE(NULL, strstr(status, "waits for 'pfsel confirm'"))
	TH_LOG("%s", status);

	/* Told once: the next login says nothing more. */
	SESSION_OK("pfsel-test");
	EXPECT_EQ(NULL, strstr(self->out, "pfsel confirm"))
	TH_LOG("pamtester:\n%s", self->out);
	ASSERT_TRUE(loaded(PFSEL_UID1, &b));
	EXPECT_EQ(a, b);

	/* As root, status shows the looser cells as rules. */
	EXPECT_EQ(0, pfsel_sh(status, sizeof(status),
			      "pfsel status --user pfuser1"));
	EXPECT_NE(NULL, strstr(status, "LOOSER")) TH_LOG("%s", status);
	EXPECT_NE(NULL, strstr(status, "port 5601")) TH_LOG("%s", status);

	/* The person confirms (as root: sudo or pkexec). */
	EXPECT_EQ(0, pfsel_sh(status, sizeof(status),
			      "pfsel confirm --user pfuser1"))
	TH_LOG("%s", status);
	ASSERT_TRUE(loaded(PFSEL_UID1, &c));
	EXPECT_NE(a, c);
	EXPECT_EQ(0, connect_as_1001(PORT_A));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_B));
	EXPECT_NE(0, access(PENDING1, F_OK));
	EXPECT_EQ(0, status_as_1001(status, sizeof(status)));
	EXPECT_NE(NULL, strstr(status, "the policy in force"))
	TH_LOG("%s", status);

	/* The next login keeps it. */
	SESSION_OK("pfsel-test");
	ASSERT_TRUE(loaded(PFSEL_UID1, &b));
	EXPECT_EQ(c, b);
}

/* pfsel confirm as the user, without pkexec: says how, changes nothing. */
TEST_F(pam, confirm_needs_root)
{
	char out[2048];
	long long a, b;

	LOGIN_LOADS(GOOD_A, "pfsel-test", &a);
	ASSERT_EQ(0, put_file(PFW1, GOOD_B, 0644, PFSEL_UID1, 0));
	if (access("/usr/bin/pkexec", X_OK) == 0)
		SKIP(return,
			   "pkexec in the image: it would ask for a password");
	EXPECT_EQ(1, pfsel_sh(out, sizeof(out),
			      PFSEL_TESTS_DIR "/runas 1001 pfsel confirm"));
	EXPECT_NE(NULL, strstr(out, "sudo pfsel confirm")) TH_LOG("%s", out);
	ASSERT_TRUE(loaded(PFSEL_UID1, &b));
	EXPECT_EQ(a, b);
}

/*
 * ~/.pfw a symlink to pfuser2's private policy, or including a file only
 * root may read: compiled as pfuser1, it fails; nothing of it is kept.
 */
TEST_F(pam, unreadable_source)
{
	char cmd[256];

	ASSERT_EQ(0,
		  put_file(HOME2 "/secret.pfw", SECRET, 0600, PFSEL_UID2, 0));
	ASSERT_EQ(0, put_file("/etc/pfsel-secret.pfw", SECRET, 0600, 0, 0));
	/* As root it compiles, and the blob would hold the marker. */
	snprintf(cmd, sizeof(cmd),
		 "pfwc --uid=1001 -o /tmp/pam_test_secret.pfsel %s/secret.pfw",
		 HOME2);
	ASSERT_EQ(0, system(cmd));
	ASSERT_TRUE(dir_holds("/tmp", MARKER));
	unlink("/tmp/pam_test_secret.pfsel");

	ASSERT_EQ(0, symlink(HOME2 "/secret.pfw", PFW1));
	SESSION_OK("pfsel-test-none");
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	EXPECT_FALSE(dir_holds(CACHE_DIR, MARKER));
	EXPECT_NE(EACCES, connect_as_1001(5609)); /* refused: no peer */
	EXPECT_NE(0, pamtester("pfsel-test-deny", "pfuser1", self->out,
			       sizeof(self->out)));

	ASSERT_EQ(0, unlink(PFW1));
	ASSERT_EQ(0, put_file(PFW1, "include \"/etc/pfsel-secret.pfw\";\n",
			      0644, PFSEL_UID1, 0));
	SESSION_OK("pfsel-test-none");
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	EXPECT_FALSE(dir_holds(CACHE_DIR, MARKER));
	EXPECT_NE(0, pamtester("pfsel-test-deny", "pfuser1", self->out,
			       sizeof(self->out)));
	/* pfuser2 compiles their own, and it is theirs only. */
	ASSERT_EQ(0, put_file(HOME2 "/.pfw", SECRET, 0600, PFSEL_UID2, 0));
	ASSERT_EQ(0, pamtester("pfsel-test", "pfuser2", self->out,
			       sizeof(self->out)));
	EXPECT_TRUE(loaded(PFSEL_UID2, NULL));
	EXPECT_FALSE(loaded(PFSEL_UID1, NULL));
	EXPECT_TRUE(dir_holds(CACHE_DIR, MARKER));
}

static int no_conv(int n, const struct pam_message **msg,
		   struct pam_response **resp, void *data)
{
	(void)n;
	(void)msg;
	(void)resp;
	(void)data;
	return PAM_CONV_ERR;
}

/*
 * A session of pfuser1 in a child, through libpam: it opens, says so on
 * @ready, waits for a byte on @go, closes.  Exit status 0 if both worked.
 */
static pid_t session_child(int *ready, int *go)
{
	int r[2], g[2];
	pid_t pid;

	if (pipe(r) || pipe(g))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct pam_conv conv = { no_conv, NULL };
		pam_handle_t *h = NULL;
		char c;
		int ret;

		close(r[0]);
		close(g[1]);
		ret = pam_start("pfsel-test", "pfuser1", &conv, &h);
		if (ret == PAM_SUCCESS)
			ret = pam_open_session(h, 0);
		c = ret == PAM_SUCCESS ? 'o' : 'x';
		if (write(r[1], &c, 1) != 1 || ret != PAM_SUCCESS)
			_exit(1);
		if (read(g[0], &c, 1) != 1)
			_exit(2);
		ret = pam_close_session(h, 0);
		pam_end(h, ret);
		_exit(ret == PAM_SUCCESS ? 0 : 3);
	}
	close(r[1]);
	close(g[0]);
	*ready = r[0];
	*go = g[1];
	return pid;
}

/* Two sessions at once: counted; forget only when the second closes. */
TEST_F(pam, two_sessions)
{
	int ready_a, go_a, ready_b, go_b, forgets;
	pid_t a, b;
	char c = 0;

	ASSERT_EQ(0, put_file(PFW1, GOOD_A, 0644, PFSEL_UID1, 0));
	forgets = log_count("last session closed");
	a = session_child(&ready_a, &go_a);
	ASSERT_LT(0, a);
	ASSERT_EQ(1, read(ready_a, &c, 1));
	ASSERT_EQ('o', c) log_tail(_metadata);
	EXPECT_EQ(1, counter());
	b = session_child(&ready_b, &go_b);
	ASSERT_LT(0, b);
	ASSERT_EQ(1, read(ready_b, &c, 1));
	ASSERT_EQ('o', c);
	EXPECT_EQ(2, counter());
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));

	ASSERT_EQ(1, write(go_a, "c", 1));
	ASSERT_EQ(0, pfsel_wait_status(a));
	EXPECT_EQ(1, counter());
	if (forgets >= 0)
		EXPECT_EQ(forgets, log_count("last session closed"));
	/* Between sessions and after, the policy stays loaded. */
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));

	ASSERT_EQ(1, write(go_b, "c", 1));
	ASSERT_EQ(0, pfsel_wait_status(b));
	EXPECT_EQ(0, counter());
	if (forgets >= 0) {
		usleep(300 * 1000); /* syslogd writes it down */
		EXPECT_EQ(forgets + 1, log_count("last session closed"))
		log_tail(_metadata);
	}
	EXPECT_TRUE(loaded(PFSEL_UID1, NULL));
	EXPECT_EQ(EACCES, connect_as_1001(PORT_A));
	close(ready_a);
	close(go_a);
	close(ready_b);
	close(go_b);
}

TEST_HARNESS_MAIN
