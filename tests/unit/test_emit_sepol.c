// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SELinux export as the SELinux tools see it: a small policy goes
 * through --emit=cil and --emit=sepolicy, and libsepol, seinfo and sesearch
 * must read back what it says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sepol/policydb.h>

#include "backend.h"
#include "diag.h"
#include "emit_sepol.h"
#include "lower.h"
#include "parser.h"
#include "sema.h"

/*
 * Default deny; ssh may reach 10/8 on port 22 (logged); anyone is asked
 * about TCP to port 80; UDP connects are denied quietly; ICMP sockets are
 * allowed.
 */
static const char policy_text[] =
	"policy user 1000;\n"
	"default deny;\n"
	"allow /usr/bin/ssh connect tcp to 10.0.0.0/8 port 22 log;\n"
	"ask * connect tcp to any port 80;\n"
	"deny * connect udp to any quiet;\n"
	"allow * create icmp;\n";

struct fixture {
	struct pfw_policy *policy;
	struct pfw_lowered *lowered;
	struct pfw_serialized compiled;
	struct pfw_diag diag;
	char path[64];
};

static int setup(void **state)
{
	struct pfw_parse_options parse = { .allow_includes = false };
	struct pfw_sema_options sema = { 0 };
	struct fixture *f = calloc(1, sizeof(*f));
	FILE *out;
	int fd;

	if (!f)
		return -1;
	pfw_diag_init(&f->diag, stderr);
	f->policy = pfw_parse_buffer("test.pfw", policy_text,
				     sizeof(policy_text) - 1, &parse, &f->diag);
	if (!f->policy || f->diag.errors ||
	    !pfw_sema(f->policy, &sema, &f->diag) ||
	    pfw_lower(f->policy, &f->lowered) ||
	    pfw_serialize(f->lowered, &f->compiled))
		return -1;

	strcpy(f->path, "/tmp/pfsel-test-sepol-XXXXXX");
	fd = mkstemp(f->path);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out || pfw_emit_sepolicy(out, f->policy, f->lowered, f->compiled.db,
				       &f->diag) ||
	    fclose(out))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	pfw_serialized_free(&f->compiled);
	pfw_lowered_free(f->lowered);
	pfw_policy_free(f->policy);
	pfw_diag_fini(&f->diag);
	free(f);
	return 0;
}

/*
 * Run a setools command, with the exported policy in place of the word
 * POLICY; its output, malloc'd.
 */
static char *run_tool(const struct fixture *f, const char *args)
{
	const char *policy_word = strstr(args, "POLICY");
	char command[256], *text;
	size_t len = 0, cap = 4096, n;
	FILE *pipe;

	assert_non_null(policy_word);
	snprintf(command, sizeof(command), "%.*s%s%s 2>&1",
		 (int)(policy_word - args), args, f->path,
		 policy_word + strlen("POLICY"));
	pipe = popen(command, "r");
	assert_non_null(pipe);
	text = malloc(cap);
	assert_non_null(text);
	while ((n = fread(text + len, 1, cap - len - 1, pipe)) > 0) {
		len += n;
		if (len + 1 == cap) {
			text = realloc(text, cap *= 2);
			assert_non_null(text);
		}
	}
	text[len] = '\0';
	assert_int_equal(pclose(pipe), 0);
	return text;
}

static unsigned int count_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void test_cil_compiles(void **state)
{
	struct fixture *f = *state;
	struct pfw_sepol_export export;
	struct sepol_policydb *compiled;

	assert_int_equal(
		pfw_sepol_export(f->policy, f->lowered, f->compiled.db, &export,
				 &f->diag),
		0);
	assert_non_null(strstr(
		export.cil,
		"(class pfsel_tcp (create bind connect listen accept ask_create ask_bind ask_connect ask_listen ask_accept))"));
	assert_int_equal(pfw_sepol_compile(export.cil, export.cil_len,
					   &compiled, &f->diag),
			 0);
	sepol_policydb_free(compiled);
	pfw_sepol_export_free(&export);
}

static void test_seinfo_statistics(void **state)
{
	char *out = run_tool(*state, "seinfo POLICY");

	assert_non_null(strstr(out, "MLS disabled"));
	assert_non_null(strstr(out, "Classes:               5"));
	assert_non_null(strstr(out, "Permissions:          50"));
	assert_non_null(strstr(out, "Users:                 1"));
	assert_non_null(strstr(out, "Auditallow:            1"));
	free(out);
}

static void test_seinfo_vocabulary(void **state)
{
	char *out = run_tool(*state, "seinfo POLICY -x --class pfsel_udp");

	assert_non_null(strstr(out, "class pfsel_udp"));
	assert_non_null(strstr(out, "ask_connect"));
	free(out);
	out = run_tool(*state, "seinfo POLICY -t");
	assert_non_null(strstr(out, "pfsel_app0_t"));
	assert_non_null(strstr(out, "pfsel_inet6_t"));
	assert_non_null(strstr(out, "pfsel_ep0_t"));
	free(out);
}

/* Only ssh may connect over TCP, and only to one endpoint type. */
static void test_sesearch_allow(void **state)
{
	char *out =
		run_tool(*state, "sesearch -A -c pfsel_tcp -p connect POLICY");

	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(out, ":pfsel_tcp connect;"));
	free(out);
	/* Everyone is asked about port 80, including ssh. */
	out = run_tool(*state,
		       "sesearch -A -c pfsel_tcp -p ask_connect POLICY");
	assert_int_equal(count_lines(out), 2);
	free(out);
	out = run_tool(
		*state,
		"sesearch -A -c pfsel_icmp -p create -t pfsel_inet_t POLICY");
	assert_int_equal(count_lines(out), 2);
	free(out);
}

static void test_sesearch_audit(void **state)
{
	char *out = run_tool(*state, "sesearch --auditallow POLICY");

	assert_int_equal(count_lines(out), 1);
	assert_non_null(strstr(out, "auditallow "));
	assert_non_null(strstr(out, ":pfsel_tcp connect;"));
	free(out);
	out = run_tool(*state, "sesearch --dontaudit -c pfsel_udp POLICY");
	assert_true(count_lines(out) >= 1);
	assert_non_null(strstr(out, "connect"));
	assert_null(strstr(out, "bind"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cil_compiles),
		cmocka_unit_test(test_seinfo_statistics),
		cmocka_unit_test(test_seinfo_vocabulary),
		cmocka_unit_test(test_sesearch_allow),
		cmocka_unit_test(test_sesearch_audit),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
