// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of pfsel_compare() (pfsel-tools/lib/compare.c), the exact
 * "no looser" comparison, on policies compiled by the real pfwc
 * ($BUILD/bin/pfwc).  Each looser case changes one dimension and is built
 * so that a naive comparison gets it wrong: comparing rule lists or
 * verdict counts (the looser policy often has the same rules, or fewer
 * allows), comparing class by class index (the classes are cut
 * differently), or comparing applications by the names the rules write
 * (a glob that names nothing new, an exception that disappears).
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
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "pfwc_compile.h"

static struct blob compile(const char *text)
{
	return compile_for(text, 1001);
}

/* pfsel_compare(old, new), and what it reported. */
static int compare(const char *old_text, const char *new_text, char **out)
{
	struct blob old = compile(old_text), new = compile(new_text);
	size_t size = 0;
	char *text = NULL;
	FILE *report = open_memstream(&text, &size);
	int ret;

	assert_non_null(report);
	ret = pfsel_compare(old.data, old.len, new.data, new.len, report, 5);
	fclose(report);
	free(old.data);
	free(new.data);
	if (out)
		*out = text;
	else
		free(text);
	return ret;
}

static void no_looser(const char *old_text, const char *new_text)
{
	char *out = NULL;
	int ret = compare(old_text, new_text, &out);

	if (ret != 0)
		fail_msg("expected no looser (0), got %d:\n%s", ret, out);
	free(out);
}

/* Looser, and the report names @what. */
static void is_looser(const char *old_text, const char *new_text,
		      const char *what)
{
	char *out = NULL;
	int ret = compare(old_text, new_text, &out);

	if (ret != 1)
		fail_msg("expected looser (1), got %d", ret);
	if (what && !strstr(out, what))
		fail_msg("the report does not say '%s':\n%s", what, out);
	free(out);
}

#define BASE                         \
	"default deny;\n"            \
	"allow * create tcp, udp;\n" \
	"allow * connect udp, tcp to loopback port dns;\n"

static void test_equal(void **state)
{
	(void)state;
	no_looser(BASE "allow /usr/bin/curl connect tcp to any port 443;\n",
		  BASE "allow /usr/bin/curl connect tcp to any port 443;\n");
	/* The same decisions, written otherwise: more classes, same verdicts. */
	no_looser(BASE "allow /usr/bin/curl connect tcp to any port 443;\n",
		  BASE
		  "allow /usr/bin/curl connect tcp to 0.0.0.0/1 port 443;\n"
		  "allow /usr/bin/curl connect tcp to any port 443;\n");
}

static void test_tighter(void **state)
{
	(void)state;
	/* More rules, more allow rules even, and still tighter. */
	no_looser(BASE "allow /usr/bin/* connect tcp port 1-1024;\n",
		  BASE "deny /usr/bin/nc;\n"
		       "allow /usr/bin/curl connect tcp port 80, 443;\n"
		       "allow /usr/bin/wget connect tcp port 80, 443;\n"
		       "allow /usr/bin/* connect tcp to 10.0.0.0/8 port 22;\n");
	/* allow -> ask -> deny */
	no_looser(BASE "allow /usr/bin/ssh connect tcp port 22;\n",
		  BASE "ask /usr/bin/ssh connect tcp port 22;\n");
	no_looser(BASE "ask /usr/bin/ssh connect tcp port 22;\n",
		  BASE "deny /usr/bin/ssh connect tcp port 22;\n");
	/* A narrower glob. */
	no_looser(BASE "allow /opt/app/** connect tcp;\n",
		  BASE "allow /opt/app/* connect tcp;\n");
	/* The default: ask is stricter than allow. */
	no_looser("default allow;\n", "default ask;\n");
	/* Enforcing after permissive. */
	no_looser("mode permissive;\ndefault allow;\n", "default deny;\n");
}

/* An address class split: one policy's class is two of the other's. */
static void test_address_split(void **state)
{
	(void)state;
	/* The exception for 10.1.0.0/16 is dropped: one rule fewer. */
	is_looser(BASE "deny * connect to 10.1.0.0/16;\n"
		       "allow * connect tcp to 10.0.0.0/8;\n",
		  BASE "allow * connect tcp to 10.0.0.0/8;\n", "10.1.0.0/16");
	/* The same prefix count, but the allowed one moved. */
	is_looser(BASE "allow * connect tcp to 10.0.0.0/9;\n",
		  BASE "allow * connect tcp to 10.128.0.0/9;\n",
		  "10.128.0.0/9");
	/* Tighter the other way round. */
	no_looser(BASE "allow * connect tcp to 10.0.0.0/8;\n",
		  BASE "deny * connect to 10.1.0.0/16;\n"
		       "allow * connect tcp to 10.0.0.0/8;\n");
	/* IPv6 too, and an IPv4-mapped class edge. */
	is_looser(BASE "allow * connect tcp to 2001:db8::/33;\n",
		  BASE "allow * connect tcp to 2001:db8::/32;\n",
		  "2001:db8:8000::/33");
}

static void test_port_widened(void **state)
{
	(void)state;
	is_looser(BASE "allow /usr/bin/curl connect tcp port 80-443;\n",
		  BASE "allow /usr/bin/curl connect tcp port 80-444;\n",
		  "port 444;");
	/* One port moved: the same number of ports, the same rule count. */
	is_looser(BASE "allow * bind udp port 5353;\n",
		  BASE "allow * bind udp port 5354;\n", "port 5354");
	no_looser(BASE "allow /usr/bin/curl connect tcp port 80-444;\n",
		  BASE "allow /usr/bin/curl connect tcp port 80-443;\n");
}

static void test_app_glob_widened(void **state)
{
	(void)state;
	is_looser(BASE "allow /usr/bin/curl connect tcp port 443;\n",
		  BASE "allow /usr/bin/* connect tcp port 443;\n",
		  "allow /usr/bin/* connect tcp");
	is_looser(BASE "allow /opt/app/* connect tcp;\n",
		  BASE "allow /opt/app/** connect tcp;\n", "/opt/app/");
	/* An exception on an exact path disappears under the same glob. */
	is_looser(BASE "deny /usr/bin/nc;\nallow /usr/bin/* connect tcp;\n",
		  BASE "allow /usr/bin/* connect tcp;\n", "/usr/bin/nc");
	/*
	 * The exception narrows from a folder to one file in it: the new
	 * policy names no application the old one does not, yet every other
	 * file in /opt/a/b is allowed now.
	 */
	is_looser(BASE "deny /opt/a/b/*;\nallow /opt/a/** connect tcp;\n",
		  BASE "deny /opt/a/b/c;\nallow /opt/a/** connect tcp;\n",
		  "/opt/a/b/*");
	/* A path only the other policy names still counts: a glob of root. */
	is_looser(BASE "allow /usr/bin/ssh connect tcp port 22;\n",
		  BASE "allow /* connect tcp port 22;\n", NULL);
	/* A script exception dropped: the interpreter alone is wider. */
	is_looser(BASE "allow /usr/bin/python3 script /home/u/sync.py "
		       "connect tcp port 443;\n",
		  BASE "allow /usr/bin/python3 connect tcp port 443;\n",
		  "/usr/bin/python3");
	no_looser(BASE "allow /usr/bin/python3 connect tcp port 443;\n",
		  BASE "allow /usr/bin/python3 script /home/u/sync.py "
		       "connect tcp port 443;\n");
}

static void test_ask_to_allow(void **state)
{
	(void)state;
	is_looser(BASE "ask /usr/bin/ssh connect tcp port 22;\n",
		  BASE "allow /usr/bin/ssh connect tcp port 22;\n",
		  "allow /usr/bin/ssh connect tcp");
	/* The unanswered verdict: deny -> allow, the rules unchanged. */
	is_looser(BASE "ask /usr/bin/ssh connect tcp port 22;\n",
		  BASE "ask unanswered allow;\n"
		       "ask /usr/bin/ssh connect tcp port 22;\n",
		  "unanswered allow");
	/* With unanswered allow, a shorter wait allows sooner. */
	is_looser("ask unanswered allow;\nask timeout 30 s;\n" BASE
		  "ask /usr/bin/ssh connect tcp port 22;\n",
		  "ask unanswered allow;\nask timeout 1 s;\n" BASE
		  "ask /usr/bin/ssh connect tcp port 22;\n",
		  "1000 ms");
	no_looser("ask timeout 30 s;\n" BASE
		  "ask /usr/bin/ssh connect tcp port 22;\n",
		  "ask timeout 1 s;\n" BASE
		  "ask /usr/bin/ssh connect tcp port 22;\n");
}

static void test_default_changed(void **state)
{
	(void)state;
	/* Every rule the same: only the default moved. */
	is_looser(BASE "allow /usr/bin/curl connect tcp port 443;\n",
		  "default ask;\nallow * create tcp, udp;\n"
		  "allow * connect udp, tcp to loopback port dns;\n"
		  "allow /usr/bin/curl connect tcp port 443;\n",
		  "by default; confirmed: deny by default");
	is_looser("default ask;\n", "default allow;\n", NULL);
}

static void test_permissive(void **state)
{
	(void)state;
	/* A permissive policy with the very same rules is looser. */
	is_looser(BASE "allow /usr/bin/curl connect tcp port 443;\n",
		  "mode permissive;\n" BASE
		  "allow /usr/bin/curl connect tcp port 443;\n",
		  "permissive");
	/* Unless the old one already allowed everything. */
	no_looser("default allow;\n", "mode permissive;\ndefault deny;\n");
}

/* create is decided per family: a family widened is looser. */
static void test_create_family(void **state)
{
	(void)state;
	is_looser("default deny;\nallow * create tcp family inet;\n",
		  "default deny;\nallow * create tcp;\n", "family inet6");
}

/*
 * "protect" is of the application: a policy that takes it away is looser
 * even when every decision stays the same, and adding it is tighter.
 */
static void test_protect_removed(void **state)
{
	(void)state;
	is_looser(BASE "allow /usr/bin/firefox connect tcp port 443 protect;\n",
		  BASE "allow /usr/bin/firefox connect tcp port 443;\n",
		  "no longer protects /usr/bin/firefox;");
	/*
	 * Through a glob: the files no rule names are no longer protected
	 * (the report names the first kind it meets, a file directly in it).
	 */
	is_looser(BASE "allow /opt/app/** connect tcp protect;\n",
		  BASE "allow /opt/app/bin/run connect tcp protect;\n"
		       "allow /opt/app/** connect tcp;\n",
		  "no longer protects /opt/app/*;");
	/*
	 * The protecting rule decided nothing (the first rule decides all
	 * its requests): dropping it changes no decision, only protection.
	 */
	is_looser(BASE "allow /usr/bin/a, /usr/bin/b;\n"
		       "allow /usr/bin/a protect;\n",
		  BASE "allow /usr/bin/a, /usr/bin/b;\n",
		  "no longer protects /usr/bin/a;");
	/* A script's protection, the interpreter's unchanged. */
	is_looser(
		BASE "allow /usr/bin/python3 script /home/u/sync.py "
		     "connect tcp port 443 protect;\n",
		BASE "allow /usr/bin/python3 script /home/u/sync.py "
		     "connect tcp port 443;\n",
		"no longer protects /usr/bin/python3 script /home/u/sync.py;");
	/* Permissive mode does not lift protection, so it is compared. */
	is_looser("mode permissive;\n" BASE "allow /usr/bin/ssh protect;\n",
		  "mode permissive;\n" BASE "allow /usr/bin/ssh;\n",
		  "no longer protects /usr/bin/ssh;");
}

static void test_protect_added(void **state)
{
	(void)state;
	no_looser(BASE "allow /usr/bin/firefox connect tcp port 443;\n", BASE
		  "allow /usr/bin/firefox connect tcp port 443 protect;\n");
	/* More protected than before, by a wider rule. */
	no_looser(BASE "allow /usr/bin/ssh connect tcp protect;\n",
		  BASE "deny /usr/bin/* connect udp protect;\n"
		       "allow /usr/bin/ssh connect tcp;\n");
	/* Unchanged: the same protection, written otherwise. */
	no_looser(BASE "allow /usr/bin/firefox connect tcp port 443 protect;\n",
		  BASE "allow /usr/bin/firefox connect tcp port 443;\n"
		       "deny /usr/bin/firefox protect;\n");
	no_looser(BASE "allow /usr/bin/firefox connect tcp port 443 protect;\n",
		  BASE
		  "allow /usr/bin/firefox connect tcp port 443 protect;\n");
}

/*
 * Host names: a rule by host name decides a request when the kernel knows
 * a matching name for its address.  A comparison that looks at addresses
 * and ports alone sees the same decisions on both sides of each of these.
 */
static void test_host_allow_added(void **state)
{
	(void)state;
	/* A wildcard: the report names the names below it. */
	is_looser(BASE,
		  BASE "allow * connect tcp to host *.evil.example port 443;\n",
		  "allow /* connect tcp to :: port 443 with host name "
		  "*.evil.example;  # now allow by");
	/* One name, and mixed with an address the old policy allowed. */
	is_looser(BASE "allow * connect tcp to 198.51.100.7 port 443;\n",
		  BASE "allow * connect tcp to host a.evil.example, "
		       "198.51.100.7 port 443;\n",
		  "with host name a.evil.example;");
	/* A host rule for another operation changes nothing here. */
	no_looser(BASE "allow * connect tcp to host a.example port 443;\n",
		  BASE "allow * connect tcp to host a.example port 443;\n"
		       "deny * bind tcp on host a.example;\n");
}

static void test_host_deny_added(void **state)
{
	(void)state;
	no_looser(BASE "allow * connect tcp port 443;\n",
		  BASE "deny * connect tcp to host *.evil.example;\n"
		       "allow * connect tcp port 443;\n");
	/* Dropping that deny is looser: the names it stopped are allowed. */
	is_looser(BASE "deny * connect tcp to host *.evil.example;\n"
		       "allow * connect tcp port 443;\n",
		  BASE "allow * connect tcp port 443;\n",
		  "port 443 with host name *.evil.example;");
	/* A host allow moved above an address deny. */
	is_looser(BASE "deny * connect tcp to 198.51.100.0/24;\n"
		       "allow * connect tcp to host *.example.org;\n",
		  BASE "allow * connect tcp to host *.example.org;\n"
		       "deny * connect tcp to 198.51.100.0/24;\n",
		  "to 198.51.100.0/24 with host name *.example.org;");
}

/*
 * Two names on one address: old "deny a; allow b", new "allow b; deny a".
 * Each name alone is decided the same by both (a denied, b allowed); an
 * address named both a and b was denied and is allowed now.
 */
static void test_host_pair_reordered(void **state)
{
	static const char a_then_b[] = BASE
		"deny * connect tcp to host a.example;\n"
		"allow * connect tcp to host b.example;\n";
	static const char b_then_a[] = BASE
		"allow * connect tcp to host b.example;\n"
		"deny * connect tcp to host a.example;\n";
	char *out = NULL;

	(void)state;
	is_looser(a_then_b, b_then_a,
		  "with host names a.example, b.example;  # now allow by");
	/* Only the pair: no line of the report has one name alone. */
	assert_int_equal(compare(a_then_b, b_then_a, &out), 1);
	assert_null(strstr(out, "with host name "));
	free(out);
	/* The other way round the pair is denied: tighter. */
	no_looser(b_then_a, a_then_b);
	/* A wildcard and a name below it: the same, by one name. */
	is_looser(BASE "deny * connect tcp to host www.example.org;\n"
		       "allow * connect tcp to host *.example.org;\n",
		  BASE "allow * connect tcp to host *.example.org;\n"
		       "deny * connect tcp to host www.example.org;\n",
		  "with host name www.example.org;");
}

/* The same text compiled twice, and a policy with every kind of name. */
static void test_host_equal(void **state)
{
	static const char text[] = BASE
		"hosts cdn = host *.cdn.example, host static.example;\n"
		"deny /usr/bin/curl connect tcp to host ads.cdn.example;\n"
		"allow /usr/bin/curl connect tcp to cdn port 443;\n"
		"ask * connect tcp to host *.example, 10.0.0.0/8 "
		"port 80, 443;\n"
		"allow * accept tcp from host peer.example port 22;\n"
		"deny * connect udp to host *.example;\n";

	(void)state;
	no_looser(text, text);
	/* Written otherwise, the same decisions. */
	no_looser(BASE "allow * connect tcp to host a.example, host b.example "
		       "port 443;\n",
		  BASE "allow * connect tcp to host b.example port 443;\n"
		       "allow * connect tcp to host a.example port 443;\n");
}

/* A wildcard against the exact names it covers, both ways. */
static void test_host_wildcard_vs_exact(void **state)
{
	(void)state;
	is_looser(BASE "allow * connect tcp to host www.example.org "
		       "port 443;\n",
		  BASE "allow * connect tcp to host *.example.org port 443;\n",
		  "port 443 with host name *.example.org;");
	no_looser(BASE "allow * connect tcp to host *.example.org port 443;\n",
		  BASE "allow * connect tcp to host www.example.org "
		       "port 443;\n");
	/* "*.example.org" is strictly below: example.org itself was not. */
	is_looser(BASE "allow * connect tcp to host *.example.org;\n",
		  BASE "allow * connect tcp to host *.example.org, "
		       "host example.org;\n",
		  "with host name example.org;");
	/* A deeper wildcard's exception kept, a wider one's dropped. */
	no_looser(BASE "deny * connect tcp to host *.ads.example.org;\n"
		       "allow * connect tcp to host *.example.org;\n",
		  BASE "deny * connect tcp to host *.ads.example.org, "
		       "host x.example.org;\n"
		       "allow * connect tcp to host *.example.org;\n");
	is_looser(BASE "deny * connect tcp to host *.ads.example.org;\n"
		       "allow * connect tcp to host *.example.org;\n",
		  BASE "deny * connect tcp to host x.ads.example.org;\n"
		       "allow * connect tcp to host *.example.org;\n",
		  "with host name *.ads.example.org;");
}

/*
 * Issue 27: the unnamed application ("?": memfd and fexecve, a program
 * run through a mount of the user's own) is a class of its own, which
 * "*" rules reach and "/" with two stars does not.  Old and new are the
 * issue's: the new one denies port 7022 to every named application and
 * lets the unnamed one create sockets and connect there.
 */
#define ISSUE27_OLD           \
	"default deny;\n"     \
	"allow /** create;\n" \
	"allow /** connect tcp to loopback port 7443;\n"
#define ISSUE27_NEW                                     \
	ISSUE27_OLD                                     \
	"deny /** connect tcp to loopback port 7022;\n" \
	"allow * create;\n"                             \
	"allow * connect tcp to loopback port 7022;\n"

static void test_unnamed_application(void **state)
{
	(void)state;
	is_looser(ISSUE27_OLD, ISSUE27_NEW, "allow ? create tcp family inet;");
	/* With the create rules alike, the connect is what is looser. */
	is_looser(ISSUE27_OLD "allow * create;\n", ISSUE27_NEW,
		  "allow ? connect tcp to ::1 port 7022;");
	/* The other way round it is tighter. */
	no_looser(ISSUE27_NEW, ISSUE27_OLD);
	/* Only the default changed, and only "?" reaches it. */
	is_looser("default deny;\nask /**;\n", "default allow;\nask /**;\n",
		  "allow ? create tcp family inet;");
	/* "*" and every named path differ only by the unnamed one. */
	is_looser("default deny;\nallow /** connect;\n",
		  "default deny;\nallow * connect;\n", "allow ? connect");
	no_looser("default deny;\nallow * connect;\n",
		  "default deny;\nallow /** connect;\n");
	/* Its protection, too. */
	is_looser(BASE "allow * connect tcp port 443 protect;\n",
		  BASE "allow /** connect tcp port 443 protect;\n"
		       "allow * connect tcp port 443;\n",
		  "no longer protects ?;");
}

/*
 * A named interpreter running a script the kernel could not name, and an
 * unnamed interpreter running a named script: "script *" reaches them,
 * "script" with "/" and two stars does not.
 */
static void test_unnamed_script(void **state)
{
	(void)state;
	is_looser(BASE "deny /usr/bin/python3 script /** connect tcp;\n",
		  BASE "deny /usr/bin/python3 script /** connect tcp;\n"
		       "allow /usr/bin/python3 script * connect tcp;\n",
		  "allow /usr/bin/python3 script ? connect tcp");
	/* An unnamed interpreter, a named script: every named exe alike. */
	is_looser(BASE "allow /** connect tcp port 22;\n",
		  BASE "allow * script /** connect tcp port 22;\n"
		       "allow /** connect tcp port 22;\n",
		  "allow ? script /* connect tcp to ");
	is_looser(BASE "allow * script /** connect tcp port 22;\n",
		  BASE "allow * script * connect tcp port 22;\n",
		  "script ? connect tcp");
	no_looser(BASE "allow * script * connect tcp port 22;\n",
		  BASE "allow * script /** connect tcp port 22;\n");
}

/*
 * A packet socket's create is asked at no family's address; an inet
 * socket's at its family's, so each family is compared.
 */
static void test_create_packet(void **state)
{
	(void)state;
	is_looser("default deny;\nallow * create tcp, udp, icmp, raw;\n",
		  "default deny;\nallow * create;\n", "create packet;");
	is_looser("default deny;\nallow * create raw family inet6;\n",
		  "default deny;\nallow * create raw;\n",
		  "create raw family inet;");
}

static void test_bad_blob(void **state)
{
	struct blob good = compile("default deny;\n");
	char junk[64] = "not a policy";

	(void)state;
	assert_true(pfsel_compare(good.data, good.len, junk, sizeof(junk), NULL,
				  0) < 0);
	assert_non_null(strstr(pfsel_last_error(), "new"));
	assert_true(pfsel_compare(junk, sizeof(junk), good.data, good.len, NULL,
				  0) < 0);
	assert_int_equal(pfsel_compare(good.data, good.len, good.data, good.len,
				       NULL, 0),
			 0);
	free(good.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_tighter),
		cmocka_unit_test(test_address_split),
		cmocka_unit_test(test_port_widened),
		cmocka_unit_test(test_app_glob_widened),
		cmocka_unit_test(test_ask_to_allow),
		cmocka_unit_test(test_default_changed),
		cmocka_unit_test(test_permissive),
		cmocka_unit_test(test_create_family),
		cmocka_unit_test(test_protect_removed),
		cmocka_unit_test(test_protect_added),
		cmocka_unit_test(test_host_allow_added),
		cmocka_unit_test(test_host_deny_added),
		cmocka_unit_test(test_host_pair_reordered),
		cmocka_unit_test(test_host_equal),
		cmocka_unit_test(test_host_wildcard_vs_exact),
		cmocka_unit_test(test_unnamed_application),
		cmocka_unit_test(test_unnamed_script),
		cmocka_unit_test(test_create_packet),
		cmocka_unit_test(test_bad_blob),
	};

	return cmocka_run_group_tests(tests, find_pfwc, NULL);
}
