// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc --query: load a compiled policy with the kernel's reader
 * (security/pfsel/policydb.c) and ask its lookups (policydb_lookup.c) what
 * the kernel would ask.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "host_names.h"
#include "policydb.h"

int pfw_read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (n == cap) {
			uint8_t *bigger;

			cap = cap ? cap * 2 : 65536;
			/* One byte more than the format allows is enough. */
			if (cap > (size_t)PFSEL_POLICY_MAX_SIZE + 1)
				cap = (size_t)PFSEL_POLICY_MAX_SIZE + 1;
			if (n == cap) {
				err = -E2BIG;
				break;
			}
			bigger = realloc(data, cap);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			data = bigger;
		}
		got = fread(data + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				err = -EIO;
			break;
		}
	}
	fclose(f);
	if (err) {
		free(data);
		return err;
	}
	*buf = data;
	*len = n;
	return 0;
}

struct pfsel_policydb *pfw_load_policy(const char *path, FILE *err)
{
	struct pfsel_policydb *db;
	uint8_t *blob;
	size_t len;
	int rc = pfw_read_file(path, &blob, &len);

	if (rc) {
		fprintf(err, "pfwc: %s: %s\n", path, strerror(-rc));
		return NULL;
	}
	rc = pfsel_policydb_load(blob, len, &db);
	free(blob);
	if (rc) {
		fprintf(err, "pfwc: %s: not a valid pfsel policy: %s\n", path,
			strerror(-rc));
		return NULL;
	}
	return db;
}

int pfw_policydb_request(const struct pfsel_policydb *db, const char *exe,
			 const char *script, uint32_t op, uint32_t proto,
			 uint32_t family, const uint8_t addr[16], uint16_t port,
			 struct pfsel_decision *res)
{
	uint8_t family_addr[16];
	uint32_t app = pfsel_policydb_classify_app(db, exe, script);

	if (op == PFSEL_OP_CREATE) {
		pfsel_policydb_family_addr(family, family_addr);
		addr = family_addr;
		port = 0;
	}
	return pfsel_policydb_decide(db, app, op, proto,
				     pfsel_policydb_classify_addr(db, addr),
				     pfsel_policydb_classify_port(db, port),
				     res);
}

static const char *const op_names[PFSEL_OP_COUNT] = {
#define PFSEL_OP(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_OP
};
static const char *const proto_names[PFSEL_PROTO_COUNT] = {
#define PFSEL_PROTO(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_PROTO
};
static const char *const verdict_names[PFSEL_VERDICT_COUNT] = {
#define PFSEL_VERDICT(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_VERDICT
};
static const char *const family_names[PFSEL_FAMILY_COUNT] = {
#define PFSEL_FAMILY(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_FAMILY
};

const char *pfw_op_name(uint32_t op)
{
	return op < PFSEL_OP_COUNT ? op_names[op] : "?";
}

const char *pfw_proto_name(uint32_t proto)
{
	return proto < PFSEL_PROTO_COUNT ? proto_names[proto] : "?";
}

const char *pfw_verdict_name(uint32_t verdict)
{
	return verdict < PFSEL_VERDICT_COUNT ? verdict_names[verdict] : "?";
}

static int lookup_name(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* An address as 16 bytes, IPv4 mapped; false if it is not one. */
bool pfw_parse_addr(const char *s, uint8_t addr[16])
{
	struct in_addr v4;

	if (inet_pton(AF_INET, s, &v4) == 1) {
		memset(addr, 0, 10);
		addr[10] = 0xff;
		addr[11] = 0xff;
		memcpy(addr + 12, &v4, 4);
		return true;
	}
	return inet_pton(AF_INET6, s, addr) == 1;
}

static bool parse_port(const char *s, uint16_t *port)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > 65535)
		return false;
	*port = v;
	return true;
}

static const uint8_t v4_prefix[12] = { [10] = 0xff, [11] = 0xff };

/*
 * Fold the host names into @res: the first rule over the address and
 * every name decides (pfsel_policydb_decide_also_by_name()).
 */
static void decide_names(const struct pfsel_policydb *db, uint32_t app,
			 uint32_t op, uint32_t proto, uint16_t port,
			 const char *const *names, size_t n_names,
			 struct pfsel_decision *res)
{
	uint32_t port_class = pfsel_policydb_classify_port(db, port);

	for (size_t i = 0; i < n_names; i++)
		pfsel_policydb_decide_also_by_name(db, app, op, proto,
						   port_class, names[i],
						   strlen(names[i]), res);
}

int pfw_policydb_request_names(const struct pfsel_policydb *db, const char *exe,
			       const char *script, uint32_t op, uint32_t proto,
			       uint32_t family, const uint8_t addr[16],
			       uint16_t port, const char *const *names,
			       size_t n_names, struct pfsel_decision *res)
{
	int err = pfw_policydb_request(db, exe, script, op, proto, family, addr,
				       port, res);

	if (!err && op != PFSEL_OP_CREATE)
		decide_names(db, pfsel_policydb_classify_app(db, exe, script),
			     op, proto, port, names, n_names, res);
	return err;
}

int pfw_query(const char *const argv[6], FILE *out, FILE *err)
{
	return pfw_query_names(argv, NULL, 0, out, err);
}

/* Check and lower-case the --host names into *@out (malloc'd). */
static int parse_names(const char *const *names, size_t n_names, char ***out,
		       FILE *err)
{
	char **lower = calloc(n_names + 1, sizeof(*lower));

	if (!lower) {
		fprintf(err, "pfwc: out of memory\n");
		return PFW_EXIT_INPUT;
	}
	for (size_t i = 0; i < n_names; i++) {
		struct pfw_host host;
		char buf[PFSEL_HOST_NAME_MAX * 2 + 200];
		size_t bad;
		const char *problem =
			pfw_host_parse(names[i], &host, &bad, buf, sizeof(buf));

		if (!problem && host.below) {
			free(host.name);
			problem =
				"a request's name is one name, not a '*.' pattern";
		}
		if (problem) {
			fprintf(err, "pfwc: --host '%s': %s\n", names[i],
				problem);
			for (size_t j = 0; j < i; j++)
				free(lower[j]);
			free(lower);
			return PFW_EXIT_USAGE;
		}
		lower[i] = host.name;
	}
	*out = lower;
	return PFW_EXIT_OK;
}

int pfw_query_names(const char *const argv[6], const char *const *names,
		    size_t n_names, FILE *out, FILE *err)
{
	const char *path = argv[0];
	int op = lookup_name(op_names, PFSEL_OP_COUNT, argv[2]);
	int proto = lookup_name(proto_names, PFSEL_PROTO_COUNT, argv[3]);
	uint32_t family = PFSEL_FAMILY_INET6;
	int named;
	struct pfsel_policydb *db;
	struct pfsel_decision res;
	struct pfsel_string file;
	char *exe, *script, esc[5];
	uint8_t addr[16];
	uint16_t port;
	uint32_t line, col;
	char **lower_names = NULL;
	int status;

	if (op < 0 || proto < 0) {
		fprintf(err, "pfwc: --query: unknown %s '%s'\n",
			op < 0 ? "operation" : "protocol",
			op < 0 ? argv[2] : argv[3]);
		return PFW_EXIT_USAGE;
	}
	named = lookup_name(family_names, PFSEL_FAMILY_COUNT, argv[4]);
	if (named >= 0 && op == PFSEL_OP_CREATE) {
		pfsel_policydb_family_addr(named, addr);
	} else if (!pfw_parse_addr(argv[4], addr)) {
		fprintf(err, "pfwc: --query: '%s' is not an address\n",
			argv[4]);
		return PFW_EXIT_USAGE;
	}
	if (!memcmp(addr, v4_prefix, sizeof(v4_prefix)))
		family = PFSEL_FAMILY_INET;
	if (!parse_port(argv[5], &port)) {
		fprintf(err, "pfwc: --query: '%s' is not a port (0-65535)\n",
			argv[5]);
		return PFW_EXIT_USAGE;
	}
	if (n_names && op == PFSEL_OP_CREATE) {
		fprintf(err,
			"pfwc: --query: a create has no address, so no host names\n");
		return PFW_EXIT_USAGE;
	}
	status = parse_names(names, n_names, &lower_names, err);
	if (status != PFW_EXIT_OK)
		return status;
	db = pfw_load_policy(path, err);
	exe = db ? strdup(argv[1]) : NULL;
	if (!exe) {
		if (db)
			fprintf(err, "pfwc: out of memory\n");
		for (size_t i = 0; i < n_names; i++)
			free(lower_names[i]);
		free(lower_names);
		pfsel_policydb_free(db);
		return PFW_EXIT_INPUT;
	}
	/* EXE:SCRIPT - the script is what follows the first ':'. */
	script = strchr(exe, ':');
	if (script)
		*script++ = '\0';
	pfw_policydb_request_names(db, exe, script, op, proto, family, addr,
				   port, (const char *const *)lower_names,
				   n_names, &res);
	fprintf(out, "%s", pfw_verdict_name(res.verdict));
	if (!pfsel_policydb_rule_source(db, res.rule, &file, &line, &col)) {
		/* The blob's file name may hold any byte. */
		fputc(' ', out);
		for (u32 i = 0; i < file.len; i++)
			fputs(pfw_escape_byte((unsigned char)file.s[i], esc),
			      out);
		fprintf(out, ":%u:%u", line, col);
	} else {
		fprintf(out, " default");
	}
	if (res.audit & PFSEL_AUDIT_LOG_ALLOWED)
		fprintf(out, " log-allowed");
	if (res.audit & PFSEL_AUDIT_QUIET_DENIAL)
		fprintf(out, " quiet-denial");
	/* Of the application, whatever the request: last, so that readers
	 * of the verdict and the rule are not disturbed. */
	if (pfsel_policydb_app_protected(
		    db, pfsel_policydb_classify_app(db, exe, script)))
		fprintf(out, " protected");
	fprintf(out, "\n");
	free(exe);
	for (size_t i = 0; i < n_names; i++)
		free(lower_names[i]);
	free(lower_names);
	pfsel_policydb_free(db);
	return PFW_EXIT_OK;
}
