/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - what the protect_script_* tests share.
 *
 * policies/protect_script_1001.pfw (protect_script_test's) lets bash and
 * perl running the protected scripts of SCRIPT_DIR, for pfuser1, connect
 * to 127.0.0.1:SCRIPT_PORT, and nothing else there: a word heard by the
 * test's listener on that port says who ran with a script's identity.
 * Each test writes its scripts (they connect and say a word), has an
 * attacker's program try to be heard as "evil", and reads what the
 * listener heard.
 */

#ifndef PFSEL_PROTECT_SCRIPT_H
#define PFSEL_PROTECT_SCRIPT_H

#include <poll.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

/* The protected scripts' folder: the policy names the files in it. */
#define SCRIPT_DIR "/tmp/pfsel-scriptenv"
#define BASH "/bin/bash"
#define PERL "/usr/bin/perl"

/* The port only the scripts' identities may connect to. */
#define SCRIPT_PORT 7720
#define SCRIPT_PORT_TEXT "7720"

/* A child's status when it could not set its attack up (it says why). */
#define SETUP_FAILED 124

/* bash's own way to a TCP connection: a redirection, on descriptor @fd. */
#define BASH_CONNECT(fd, word)                                     \
	"exec " fd "<>/dev/tcp/127.0.0.1/" SCRIPT_PORT_TEXT " && echo " \
	word " >&" fd "\n"

/* perl's, with its built-ins only (the VM has no modules). */
#define PERL_CONNECT(word)                                                 \
	"socket(S, 2, 1, 6) or die \"socket: $!\";\n"                      \
	"connect(S, pack(\"S n C4 x8\", 2, " SCRIPT_PORT_TEXT             \
	", 127, 0, 0, 1))"                                                 \
	" or die \"connect: $!\";\n"                                       \
	"print S \"" word "\\n\";\nclose(S);\n"

/* The perl script, protected or plain by its name: it says "perl". */
static const char script_pl[] = "#!" PERL "\n" PERL_CONNECT("perl");

/* The attacker's perl program (on perl's standard input): "evil". */
static const char evil_pl[] = PERL_CONNECT("evil");

/*
 * As the attacker (pfuser1): go to its folder @attacker, made if need be,
 * which holds a folder "-Ia" so that a name "-Ia/../../..." leads through
 * it (and perl takes that name for its -I switch); put its program,
 * evil_pl, in a pipe for a child's standard input, left to read in @in[0].
 * 0, or -1 when a step failed.
 */
static inline int protect_script_dash_folder(const char *attacker, int in[2])
{
	const size_t len = strlen(evil_pl);
	char dash[PATH_MAX];

	snprintf(dash, sizeof(dash), "%s/-Ia", attacker);
	if (mkdir(attacker, 0755) && errno != EEXIST)
		return -1;
	if ((mkdir(dash, 0755) && errno != EEXIST) || chdir(attacker) ||
	    pipe(in))
		return -1;
	if (write(in[1], evil_pl, len) != (ssize_t)len)
		return -1;
	close(in[1]);
	return 0;
}

/*
 * What reached the listener since the last call: the first line of each
 * connection, in the order they came, separated by spaces.
 */
static inline void protect_script_heard(int listener, char *out, size_t size)
{
	char word[64];
	ssize_t len;
	int fd;

	out[0] = '\0';
	while ((fd = accept4(listener, NULL, NULL,
			     SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		poll(&p, 1, 2000);
		len = read(fd, word, sizeof(word) - 1);
		close(fd);
		word[len > 0 ? len : 0] = '\0';
		word[strcspn(word, "\n")] = '\0';
		if (out[0])
			strncat(out, " ", size - strlen(out) - 1);
		strncat(out, word[0] ? word : "(nothing)",
			size - strlen(out) - 1);
	}
}

/*
 * A fixture's setup: skipped but as root, or without one of the
 * NULL-terminated @interpreters; then no policy but 1001's, the test's
 * files (@prepare_files), and in @listener the listener on SCRIPT_PORT,
 * non-blocking so that protect_script_heard() takes what came and
 * returns (-1 until then).  A SKIP or a failed ASSERT here ends the test
 * as it would in the FIXTURE_SETUP.
 */
static inline void protect_script_setup(struct __test_metadata *_metadata,
					const char *const *interpreters,
					int (*prepare_files)(void),
					int *listener)
{
	size_t i;

	*listener = -1;
	if (geteuid() != 0)
		SKIP(return, "loading 1001's policy and the files need root");
	for (i = 0; interpreters[i]; i++)
		if (access(interpreters[i], X_OK))
			SKIP(return, "no %s in this VM", interpreters[i]);
	pfsel_reset();
	ASSERT_EQ(0, prepare_files());
	ASSERT_EQ(0, pfsel_load("protect_script_1001"));
	*listener = pfsel_peer(SOCK_STREAM, "127.0.0.1", SCRIPT_PORT);
	ASSERT_LE(0, *listener);
	ASSERT_EQ(0, fcntl(*listener, F_SETFL, O_NONBLOCK));
}

/*
 * A fixture's teardown: the listener closed, the boot's policies back,
 * and the test's folders removed by the shell command @remove (the setup
 * ran only as root, so nothing else has anything to undo).
 */
static inline void protect_script_teardown(int listener, const char *remove)
{
	if (geteuid() != 0)
		return;
	if (listener >= 0)
		close(listener);
	pfsel_reset();
	system(remove);
}

#endif /* PFSEL_PROTECT_SCRIPT_H */
