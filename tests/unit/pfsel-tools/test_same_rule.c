// SPDX-License-Identifier: GPL-2.0-only
/*
 * The same audit record gives the same .pfw rule everywhere: what `pfsel
 * audit2pfw` prints for it (pfsel-tools/pfsel/audit2pfw.c), what the
 * desktop prompt's monitor offers for it ("Make this a rule": the record
 * read by libpfsel's reader, its request written by libuserpolicy's
 * rule_text_format()), and what the agent adds to ~/.pfw for an "always"
 * answer to the kernel's question about that request (agent/pfw.c,
 * pfw_answer_rule()): one writer, from one shape of a request.
 *
 * Every AUDIT_PFSEL_ACCESS record of the audit2pfw fixtures
 * (tests/unit/fixtures/audit2pfw/: every operation and protocol, IPv4 and
 * IPv6, scripts, odd paths, host names) is tried alone, at each width
 * audit2pfw writes: a host name's when the record has one (its default),
 * the exact address and port (--addresses).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pfsel/pfsel.h>

#include "cmd.h"
#include "pfw.h"
#include "userpolicy.h"

static char root[2048];
static char log_path[64];

/* Rules are at most two escaped paths and a short clause. */
#define RULE_MAX (2 * PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) + 512)

static int setup(void **state)
{
	char here[4096];
	int fd;

	(void)state;
	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(root, sizeof(root), "%s/../../..", dirname(here));
	strcpy(log_path, "/tmp/same-rule-test.XXXXXX");
	fd = mkstemp(log_path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(log_path);
	return 0;
}

/* The one rule `pfsel audit2pfw -i LOG [--addresses]` prints, malloc()ed. */
static char *audit2pfw_rule(bool addresses)
{
	char *argv[] = {
		"pfsel",  "audit2pfw",	   "-i",
		log_path, "--verdict=all", addresses ? "--addresses" : NULL,
		NULL
	};
	char *out = NULL, *err = NULL, *line, *save = NULL, *rule = NULL;
	size_t out_size, err_size;
	FILE *o = open_memstream(&out, &out_size);
	FILE *e = open_memstream(&err, &err_size);

	assert_non_null(o);
	assert_non_null(e);
	pfselcmd_getopt_reset();
	assert_int_equal(0, pfselcmd_main(addresses ? 6 : 5, argv, o, e));
	fclose(o);
	fclose(e);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		assert_null(rule); /* one record, one rule */
		rule = strdup(line);
	}
	assert_non_null(rule);
	free(out);
	free(err);
	return rule;
}

static int keep_record(const struct pfsel_audit_record *rec, void *arg)
{
	memcpy(arg, rec, sizeof(*rec));
	return 1;
}

/* The record of LOG as the monitor reads it (pfsel_audit_read()). */
static void monitor_record(struct pfsel_audit_record *rec)
{
	const struct pfsel_audit_filter all = {
		.input = log_path,
		.want_allow = true,
		.want_deny = true,
	};
	unsigned long bad;

	assert_int_equal(1, pfsel_audit_read(&all, keep_record, rec, &bad));
	assert_int_equal(0, bad);
}

/*
 * The question the kernel asks about @req (uapi/linux/pfsel.h: the
 * request's address and port are PFSEL_ATTR_RADDR and _RPORT; an unnamed
 * executable is "?").
 */
static void kernel_question(const struct pfsel_request *req,
			    struct pfsel_question *q)
{
	memset(q, 0, sizeof(*q));
	snprintf(q->exe, sizeof(q->exe), "%s", req->exe[0] ? req->exe : "?");
	snprintf(q->script, sizeof(q->script), "%s", req->script);
	q->op = (uint8_t)req->op;
	q->proto = (uint8_t)req->proto;
	q->family = (uint8_t)req->family;
	memcpy(q->raddr, req->addr, sizeof(q->raddr));
	q->rport = req->port;
	snprintf(q->hosts, sizeof(q->hosts), "%s", req->hosts);
	q->policy = PFSEL_SLOT_USER;
}

/* The three writers agree on LOG's one record. */
static void same_rule_everywhere(const char *record)
{
	struct pfsel_audit_record *rec = malloc(sizeof(*rec));
	struct pfsel_question *q = malloc(sizeof(*q));
	char *monitor = malloc(RULE_MAX), *agent = malloc(RULE_MAX);
	unsigned int width;
	int pass, n;

	assert_non_null(rec);
	assert_non_null(q);
	assert_non_null(monitor);
	assert_non_null(agent);
	monitor_record(rec);
	kernel_question(&rec->request, q);
	for (pass = 0; pass < 2; pass++) {
		char *printed = audit2pfw_rule(pass == 1);

		/* audit2pfw's own choice: the host's name unless --addresses. */
		width = pass == 0 && rule_width_applies(&rec->request,
							RULE_WIDTH_HOST) ?
				RULE_WIDTH_HOST :
				RULE_WIDTH_EXACT;
		n = rule_text_format(&rec->request, PFSEL_ANSWER_ALLOW, width,
				     NULL, 0, monitor, RULE_MAX);
		if (!rec->request.exe[0]) {
			/*
			 * An unnamed application: audit2pfw writes "*" and
			 * says so; the prompt and the agent make no rule that
			 * would let every application out.
			 */
			assert_int_equal(-EINVAL, n);
			assert_int_equal(-EINVAL,
					 pfw_answer_rule(q, PFSEL_ANSWER_ALLOW,
							 width, agent,
							 RULE_MAX));
			assert_non_null(strstr(printed, "allow * "));
			free(printed);
			continue;
		}
		if (n < 0)
			fail_msg("%s: the monitor's rule: %s", record,
				 strerror(-n));
		assert_true(pfw_answer_rule(q, PFSEL_ANSWER_ALLOW, width, agent,
					    RULE_MAX) > 0);
		if (strcmp(printed, monitor) || strcmp(monitor, agent))
			fail_msg("%s\n  audit2pfw: %s\n  monitor:   %s\n"
				 "  agent:     %s",
				 record, printed, monitor, agent);
		free(printed);
	}
	free(agent);
	free(monitor);
	free(q);
	free(rec);
}

/* Each pfsel record of fixture @name, alone in the log. */
static void each_record(const char *name)
{
	char path[4096], *line = NULL;
	size_t size = 0;
	unsigned int records = 0;
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/tests/unit/fixtures/audit2pfw/%s",
		 root, name);
	in = fopen(path, "r");
	assert_non_null(in);
	while (getline(&line, &size, in) > 0) {
		struct pfsel_audit_field fields[64];
		struct pfsel_audit_record *rec;
		char *copy = strdup(line);
		bool ok;

		assert_non_null(copy);
		rec = malloc(sizeof(*rec));
		assert_non_null(rec);
		/* Only the records the readers take (not the malformed one). */
		ok = strstr(line, "type=UNKNOWN[1430]") &&
		     !pfsel_audit_record_decode(
			     fields, pfsel_audit_fields(copy, fields, 64), rec);
		free(rec);
		free(copy);
		if (!ok)
			continue;
		out = fopen(log_path, "w");
		assert_non_null(out);
		fputs(line, out);
		fclose(out);
		same_rule_everywhere(line);
		records++;
	}
	free(line);
	fclose(in);
	assert_true(records > 0);
}

static void test_denials(void **state)
{
	(void)state;
	each_record("denials.log");
}

static void test_hosts(void **state)
{
	(void)state;
	each_record("hosts.log");
}

static void test_odd_names(void **state)
{
	(void)state;
	each_record("escape.log");
	each_record("newline.log");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_denials),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_odd_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
