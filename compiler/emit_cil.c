// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the CIL export (see emit_sepol.h for the mapping)
 *
 * Three steps, straight through:
 *
 *  1. Flatten.  For every address class x port class, the column of
 *     decisions over (application class, protocol, addressed operation) is
 *     computed with pfsel's evaluator on the serialised policy (the one
 *     pfwc wrote, loaded by the kernel's reader: pfw_serialize());
 *     equal columns share one endpoint type.  Requests are classified by
 *     the reader's own functions too, never by a second copy here.  Create has no endpoint: its
 *     target is the socket family.
 *  2. Write CIL: the fixed vocabulary (user, role, classes and their
 *     permissions), the types, then per (domain, target, class) one allow,
 *     auditallow and dontaudit statement listing the permissions.
 *  3. Compile it with libsepol.  pfwc wrote it, so a libsepol complaint is
 *     pfwc's bug: it is reported as an internal error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sepol/cil/cil.h>
#include <sepol/policydb.h>

#include "backend.h"
#include "containers.h"
#include "emit_sepol.h"
#include "lower.h"

/*
 * The decisions come from pfsel's own evaluator on the serialised policy, so
 * the export says what the kernel would.  policydb.h is kernel code; the
 * kshim headers (compiler/kshim/kshim.mk) give it the kernel's types.
 */
#include "policydb.h"

#define N_PROTOS 5
#define N_ADDRESSED_OPS 4 /* bind, connect, listen, accept */
#define N_OPS (N_ADDRESSED_OPS + 1)

/* Indexed as enum pfw_proto's bit number, which is enum pfsel_proto. */
static const char *const class_names[N_PROTOS] = {
#define PFSEL_PROTO(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = "pfsel_" name,
#include "pfsel_names.h"
#undef PFSEL_PROTO
};

/* Indexed as enum pfw_op's bit number (enum pfsel_op): create, bind, ... */
static const char *const perm_names[2][N_OPS] = {
	{
#define PFSEL_OP(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_OP
	},
	{
#define PFSEL_OP(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = "ask_" name,
#include "pfsel_names.h"
#undef PFSEL_OP
	},
};

static unsigned int bit_index(uint32_t bit)
{
	return (unsigned int)__builtin_ctz(bit);
}

const char *pfw_sepol_class_name(enum pfw_proto proto)
{
	return class_names[bit_index(proto)];
}

const char *pfw_sepol_perm_name(enum pfw_op op, bool ask)
{
	return perm_names[ask][bit_index(op)];
}

const char *pfw_sepol_family_type(enum pfw_family family)
{
	return family == PFW_FAMILY_INET ? "pfsel_inet_t" : "pfsel_inet6_t";
}

void pfw_sepol_app_type(char *buf, size_t size, uint32_t app_class)
{
	snprintf(buf, size, "pfsel_app%u_t", app_class);
}

void pfw_sepol_endpoint_type(char *buf, size_t size, uint32_t endpoint)
{
	snprintf(buf, size, "pfsel_ep%u_t", endpoint);
}

uint32_t pfw_sepol_effective_audit(enum pfw_verdict verdict, uint32_t audit)
{
	uint32_t effective = 0;

	if (verdict != PFW_VERDICT_DENY)
		effective |= audit & PFW_AUDIT_LOG_ALLOWED;
	if (verdict != PFW_VERDICT_ALLOW)
		effective |= audit & PFW_AUDIT_QUIET_DENIAL;
	return effective;
}

/*
 * A decision packed in a byte: the verdict in bits 0-1, the effective audit
 * flags above.  Columns are compared in this form.
 */
static uint8_t pack_decision(enum pfw_verdict verdict, uint32_t audit)
{
	return (uint8_t)(verdict | pfw_sepol_effective_audit(verdict, audit)
					   << 2);
}

static enum pfw_verdict packed_verdict(uint8_t packed)
{
	return (enum pfw_verdict)(packed & 3);
}

static uint32_t packed_audit(uint8_t packed)
{
	return packed >> 2;
}

/* How many (address, port) class pairs an endpoint's comment lists. */
#define ENDPOINT_COMMENT_PAIRS 3

/*
 * struct endpoint_info - what the CIL says about one endpoint type
 * @n_pairs:       (address class, port class) pairs merged into it
 * @shown:         the first few of them, for its comment
 * @has_zero_port: whether a pair has the class of port 0, the only one
 *		   that requests of protocols without ports can have
 */
struct endpoint_info {
	uint32_t n_pairs;
	uint32_t shown[ENDPOINT_COMMENT_PAIRS][2];
	bool has_zero_port;
};

/*
 * struct flat_table - the flattened decisions
 * @n_apps:     application classes
 * @column_len: bytes of one endpoint column: n_apps x protocols x ops
 * @columns:    @n_endpoints distinct columns
 * @info:       @n_endpoints descriptions
 * @creates:    [app][family][proto] decision of create
 * @slots:      open-addressing hash of column index + 1 (0: empty)
 */
struct flat_table {
	uint32_t n_apps;
	size_t column_len;
	uint8_t *columns;
	struct endpoint_info *info;
	uint32_t n_endpoints;
	size_t columns_cap;
	uint8_t *creates;
	uint32_t *slots;
	size_t n_slots;
};

static uint8_t *column_at(const struct flat_table *t, uint32_t endpoint)
{
	return t->columns + (size_t)endpoint * t->column_len;
}

static size_t column_index(uint32_t app, unsigned int proto, unsigned int op)
{
	return ((size_t)app * N_PROTOS + proto) * N_ADDRESSED_OPS + (op - 1);
}

/*
 * The endpoint type of @column: an existing one if an equal column was seen,
 * else a new one.  Returns the endpoint, or UINT32_MAX when out of memory.
 */
static uint32_t intern_column(struct flat_table *t, const uint8_t *column)
{
	size_t slot;

	if ((size_t)t->n_endpoints * 2 >= t->n_slots) {
		size_t n = t->n_slots ? t->n_slots * 2 : 64;
		uint32_t *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return UINT32_MAX;
		for (uint32_t e = 0; e < t->n_endpoints; e++) {
			slot = pfw_hash_bytes(column_at(t, e), t->column_len) %
			       n;
			while (slots[slot])
				slot = (slot + 1) % n;
			slots[slot] = e + 1;
		}
		free(t->slots);
		t->slots = slots;
		t->n_slots = n;
	}

	slot = pfw_hash_bytes(column, t->column_len) % t->n_slots;
	for (; t->slots[slot]; slot = (slot + 1) % t->n_slots) {
		uint32_t e = t->slots[slot] - 1;

		if (memcmp(column_at(t, e), column, t->column_len) == 0)
			return e;
	}

	if (t->n_endpoints == t->columns_cap) {
		size_t cap = t->columns_cap ? t->columns_cap * 2 : 16;
		uint8_t *grown = realloc(t->columns, cap * t->column_len);
		struct endpoint_info *info;

		if (!grown)
			return UINT32_MAX;
		t->columns = grown;
		info = realloc(t->info, cap * sizeof(*info));
		if (!info)
			return UINT32_MAX;
		t->info = info;
		t->columns_cap = cap;
	}
	memcpy(column_at(t, t->n_endpoints), column, t->column_len);
	memset(&t->info[t->n_endpoints], 0, sizeof(*t->info));
	t->slots[slot] = ++t->n_endpoints;
	return t->n_endpoints - 1;
}

/*
 * The address class a create of @family (enum pfsel_family) is classified
 * by: the kernel's own choice of address, classified by the kernel's code.
 */
static uint32_t family_class(const struct pfsel_policydb *db, uint32_t family)
{
	uint8_t addr[16];

	pfsel_policydb_family_addr(family, addr);
	return pfsel_policydb_classify_addr(db, addr);
}

static int decide_packed(const struct pfsel_policydb *db, uint32_t app,
			 enum pfw_op op, enum pfw_proto proto, uint32_t addr,
			 uint32_t port, uint8_t *out)
{
	struct pfsel_decision decision;

	if (pfsel_policydb_decide(db, app, bit_index(op), bit_index(proto),
				  addr, port, &decision))
		return -1;
	*out = pack_decision((enum pfw_verdict)decision.verdict,
			     decision.audit);
	return 0;
}

/*
 * Fill one column: the decisions at (@addr, @port) for every application,
 * protocol and addressed operation.  Protocols without ports are asked at
 * the class of port 0, which is the only port their requests carry, so that
 * port classes they can never see do not split endpoints.
 */
static int fill_column(const struct pfsel_policydb *db, uint32_t n_apps,
		       uint32_t addr, uint32_t port, uint32_t zero_port,
		       uint8_t *column)
{
	for (uint32_t app = 0; app < n_apps; app++) {
		for (unsigned int p = 0; p < N_PROTOS; p++) {
			enum pfw_proto proto = (enum pfw_proto)(1u << p);
			uint32_t asked_port =
				proto & PFW_PROTO_PORTED ? port : zero_port;

			for (unsigned int o = 1; o < N_OPS; o++) {
				if (decide_packed(
					    db, app, (enum pfw_op)(1u << o),
					    proto, addr, asked_port,
					    &column[column_index(app, p, o)]))
					return -1;
			}
		}
	}
	return 0;
}

static void note_pair(struct endpoint_info *info, uint32_t addr, uint32_t port,
		      uint32_t zero_port)
{
	if (info->n_pairs < ENDPOINT_COMMENT_PAIRS) {
		info->shown[info->n_pairs][0] = addr;
		info->shown[info->n_pairs][1] = port;
	}
	info->n_pairs++;
	info->has_zero_port |= port == zero_port;
}

static int flatten(const struct pfw_lowered *low,
		   const struct pfsel_policydb *db, struct flat_table *t,
		   struct pfw_sepol_export *out, struct pfw_diag *diag)
{
	uint32_t n_apps = (uint32_t)low->n_apps;
	uint32_t zero_port = pfsel_policydb_classify_port(db, 0);
	uint64_t cells = (uint64_t)n_apps * low->n_addrs * low->n_ports *
			 N_PROTOS * N_OPS;
	uint8_t *column;

	if (cells > PFW_SEPOL_MAX_CELLS) {
		pfw_error(
			diag, NULL,
			"policy too large to export to SELinux: %u application, %zu address and %zu port classes make %llu decisions to flatten, more than %llu",
			n_apps, low->n_addrs, low->n_ports,
			(unsigned long long)cells,
			(unsigned long long)PFW_SEPOL_MAX_CELLS);
		return -1;
	}

	t->n_apps = n_apps;
	t->column_len = (size_t)n_apps * N_PROTOS * N_ADDRESSED_OPS;
	out->n_apps = n_apps;
	out->n_addrs = (uint32_t)low->n_addrs;
	out->n_ports = (uint32_t)low->n_ports;
	out->endpoint_of =
		calloc(low->n_addrs * low->n_ports, sizeof(*out->endpoint_of));
	t->creates = calloc((size_t)n_apps * 2 * N_PROTOS, 1);
	column = malloc(t->column_len ? t->column_len : 1);
	if (!out->endpoint_of || !t->creates || !column)
		goto nomem;

	for (uint32_t a = 0; a < low->n_addrs; a++) {
		for (uint32_t p = 0; p < low->n_ports; p++) {
			uint32_t e;

			if (fill_column(db, n_apps, a, p, zero_port, column))
				goto internal;
			e = intern_column(t, column);
			if (e == UINT32_MAX)
				goto nomem;
			out->endpoint_of[(size_t)a * low->n_ports + p] = e;
			note_pair(&t->info[e], a, p, zero_port);
		}
	}
	out->n_endpoints = t->n_endpoints;

	for (uint32_t app = 0; app < n_apps; app++) {
		for (unsigned int f = 0; f < 2; f++) {
			/* f is enum pfsel_family: inet, inet6. */
			uint32_t addr = family_class(db, f);

			for (unsigned int p = 0; p < N_PROTOS; p++) {
				if (decide_packed(db, app, PFW_OP_CREATE,
						  (enum pfw_proto)(1u << p),
						  addr, zero_port,
						  &t->creates[(app * 2 + f) *
								      N_PROTOS +
							      p]))
					goto internal;
			}
		}
	}
	free(column);
	return 0;

nomem:
	free(column);
	pfw_error(diag, NULL, "out of memory exporting to SELinux");
	return -1;
internal:
	free(column);
	pfw_error(
		diag, NULL,
		"internal error: the compiled policy has no decision for one of its own classes");
	return -1;
}

static void free_flat_table(struct flat_table *t)
{
	free(t->columns);
	free(t->info);
	free(t->creates);
	free(t->slots);
}

/* The fixed part: who, which classes, which permissions. */
static void write_vocabulary(FILE *out)
{
	fputs("; The SELinux vocabulary of pfsel: one user and role for every context,\n"
	      "; a class per protocol with a permission per operation and its ask_\n"
	      "; counterpart.  MLS is off; CIL still wants one sensitivity declared.\n"
	      "(handleunknown deny)\n"
	      "(mls false)\n"
	      "(sensitivity s0)\n"
	      "(sensitivityorder (s0))\n"
	      "(category c0)\n"
	      "(categoryorder (c0))\n"
	      "(sensitivitycategory s0 (c0))\n"
	      "(user " PFW_SEPOL_USER ")\n"
	      "(role " PFW_SEPOL_ROLE ")\n"
	      "(userrole " PFW_SEPOL_USER " " PFW_SEPOL_ROLE ")\n"
	      "(userlevel " PFW_SEPOL_USER " (s0))\n"
	      "(userrange " PFW_SEPOL_USER " ((s0) (s0)))\n"
	      "(type pfsel_kernel_t)\n"
	      "(roletype " PFW_SEPOL_ROLE " pfsel_kernel_t)\n"
	      "(sid kernel)\n"
	      "(sidorder (kernel))\n"
	      "(sidcontext kernel (" PFW_SEPOL_USER " " PFW_SEPOL_ROLE
	      " pfsel_kernel_t ((s0) (s0))))\n"
	      "; libsepol wants at least one allow rule, and a policy that denies\n"
	      "; everything has none.  No request ever has this type.\n"
	      "(allow pfsel_kernel_t pfsel_kernel_t (pfsel_packet (create)))\n",
	      out);
	for (unsigned int p = 0; p < N_PROTOS; p++) {
		fprintf(out, "(class %s (", class_names[p]);
		for (unsigned int ask = 0; ask < 2; ask++)
			for (unsigned int o = 0; o < N_OPS; o++)
				fprintf(out, "%s%s", ask || o ? " " : "",
					perm_names[ask][o]);
		fputs("))\n", out);
	}
	fputs("(classorder (", out);
	for (unsigned int p = 0; p < N_PROTOS; p++)
		fprintf(out, "%s%s", p ? " " : "", class_names[p]);
	fputs("))\n", out);
}

static void write_addr(FILE *out, const uint8_t addr[16])
{
	char text[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, addr, text, sizeof(text));
	fputs(text, out);
}

/* "a-b" for address class @a: from its start to just before the next. */
static void write_addr_class(FILE *out, const struct pfw_lowered *low,
			     uint32_t a)
{
	uint8_t last[16];

	write_addr(out, low->addrs[a]);
	if (a + 1 < low->n_addrs) {
		memcpy(last, low->addrs[a + 1], 16);
		for (int i = 15; i >= 0 && last[i]-- == 0; i--)
			;
	} else {
		memset(last, 0xff, 16);
	}
	if (memcmp(last, low->addrs[a], 16) != 0) {
		fputc('-', out);
		write_addr(out, last);
	}
}

static void write_port_class(FILE *out, const struct pfw_lowered *low,
			     uint32_t p)
{
	unsigned int last = p + 1 < low->n_ports ? low->ports[p + 1] - 1u :
						   65535u;

	if (last == low->ports[p])
		fprintf(out, "%u", last);
	else
		fprintf(out, "%u-%u", low->ports[p], last);
}

static void write_types(FILE *out, const struct pfw_lowered *low,
			const struct flat_table *t)
{
	char name[32];

	fputs("\n; Application classes, numbered as pfwc --dump numbers them.\n"
	      "(typeattribute pfsel_domain)\n"
	      "(roletype " PFW_SEPOL_ROLE " pfsel_domain)\n",
	      out);
	if (low->flags & PFSEL_POLICY_F_PERMISSIVE)
		fputs("; mode permissive: every domain is permissive.\n", out);
	for (uint32_t k = 0; k < t->n_apps; k++) {
		pfw_sepol_app_type(name, sizeof(name), k);
		fprintf(out,
			"(type %s)\n(typeattributeset pfsel_domain (%s))\n",
			name, name);
		if (low->flags & PFSEL_POLICY_F_PERMISSIVE)
			fprintf(out, "(typepermissive %s)\n", name);
	}
	/* Classes and protected list are both increasing. */
	for (size_t i = 0; i < low->n_protected; i++) {
		pfw_sepol_app_type(name, sizeof(name), low->protected[i]);
		fprintf(out,
			"; %s is protected ('protect'): pfsel runs its processes in\n"
			"; secure-execution mode, not dumpable; nothing here says so.\n",
			name);
	}

	fputs("\n; Targets of create: the socket's family.\n"
	      "(typeattribute pfsel_target)\n"
	      "(roletype " PFW_SEPOL_ROLE " pfsel_target)\n",
	      out);
	for (unsigned int f = 0; f < 2; f++) {
		const char *type =
			pfw_sepol_family_type((enum pfw_family)(1u << f));

		fprintf(out,
			"(type %s)\n(typeattributeset pfsel_target (%s))\n",
			type, type);
	}

	fputs("\n; Endpoints: (address class, port class) pairs that every rule treats\n"
	      "; alike.  Protocols without ports have rules only on endpoints that\n"
	      "; hold port 0, the only port their requests carry.\n",
	      out);
	for (uint32_t e = 0; e < t->n_endpoints; e++) {
		const struct endpoint_info *info = &t->info[e];

		for (uint32_t i = 0;
		     i < info->n_pairs && i < ENDPOINT_COMMENT_PAIRS; i++) {
			fputs("; ", out);
			write_addr_class(out, low, info->shown[i][0]);
			fputs(" port ", out);
			write_port_class(out, low, info->shown[i][1]);
			fputc('\n', out);
		}
		if (info->n_pairs > ENDPOINT_COMMENT_PAIRS)
			fprintf(out, "; and %u more\n",
				info->n_pairs - ENDPOINT_COMMENT_PAIRS);
		pfw_sepol_endpoint_type(name, sizeof(name), e);
		fprintf(out,
			"(type %s)\n(typeattributeset pfsel_target (%s))\n",
			name, name);
	}
}

/*
 * struct perm_lists - the permissions one (domain, target, class) gets
 * @allow, @auditallow, @dontaudit: "perm perm ...", empty if none
 */
struct perm_lists {
	char allow[160];
	char auditallow[160];
	char dontaudit[160];
};

static void append_perm(char *list, size_t size, const char *perm)
{
	size_t len = strlen(list);

	snprintf(list + len, size - len, "%s%s", len ? " " : "", perm);
}

/* Add the permissions that say @packed for operation @op. */
static void add_decision(struct perm_lists *lists, unsigned int op,
			 uint8_t packed)
{
	enum pfw_verdict verdict = packed_verdict(packed);
	uint32_t audit = packed_audit(packed);
	bool ask = verdict == PFW_VERDICT_ASK;

	if (verdict != PFW_VERDICT_DENY)
		append_perm(lists->allow, sizeof(lists->allow),
			    perm_names[ask][op]);
	if (audit & PFW_AUDIT_LOG_ALLOWED)
		append_perm(lists->auditallow, sizeof(lists->auditallow),
			    perm_names[ask][op]);
	if (audit & PFW_AUDIT_QUIET_DENIAL)
		append_perm(lists->dontaudit, sizeof(lists->dontaudit),
			    perm_names[0][op]);
}

static void write_lists(FILE *out, const char *domain, const char *target,
			unsigned int proto, const struct perm_lists *lists)
{
	static const char *const kinds[] = { "allow", "auditallow",
					     "dontaudit" };
	const char *const perms[] = { lists->allow, lists->auditallow,
				      lists->dontaudit };

	for (unsigned int i = 0; i < 3; i++) {
		if (perms[i][0])
			fprintf(out, "(%s %s %s (%s (%s)))\n", kinds[i], domain,
				target, class_names[proto], perms[i]);
	}
}

static void write_rules(FILE *out, const struct flat_table *t)
{
	char domain[32], target[32];

	fputs("\n; The decisions, flattened: a permission for allow, its ask_ twin\n"
	      "; for ask, nothing for deny.\n",
	      out);
	for (uint32_t k = 0; k < t->n_apps; k++) {
		pfw_sepol_app_type(domain, sizeof(domain), k);
		for (unsigned int f = 0; f < 2; f++) {
			for (unsigned int p = 0; p < N_PROTOS; p++) {
				struct perm_lists lists = { 0 };

				add_decision(
					&lists, 0,
					t->creates[(k * 2 + f) * N_PROTOS + p]);
				write_lists(out, domain,
					    pfw_sepol_family_type(
						    (enum pfw_family)(1u << f)),
					    p, &lists);
			}
		}
		for (uint32_t e = 0; e < t->n_endpoints; e++) {
			const uint8_t *column = column_at(t, e);

			pfw_sepol_endpoint_type(target, sizeof(target), e);
			for (unsigned int p = 0; p < N_PROTOS; p++) {
				struct perm_lists lists = { 0 };

				if (!((1u << p) & PFW_PROTO_PORTED) &&
				    !t->info[e].has_zero_port)
					continue;

				for (unsigned int o = 1; o < N_OPS; o++)
					add_decision(
						&lists, o,
						column[column_index(k, p, o)]);
				write_lists(out, domain, target, p, &lists);
			}
		}
	}
}

int pfw_sepol_export(const struct pfw_policy *policy,
		     const struct pfw_lowered *lowered,
		     const struct pfsel_policydb *db,
		     struct pfw_sepol_export *out, struct pfw_diag *diag)
{
	struct flat_table table = { 0 };
	FILE *cil;

	memset(out, 0, sizeof(*out));
	if (flatten(lowered, db, &table, out, diag))
		goto fail;

	cil = open_memstream(&out->cil, &out->cil_len);
	if (!cil) {
		pfw_error(diag, NULL, "out of memory exporting to SELinux");
		goto fail;
	}
	fprintf(cil,
		"; %s as SELinux CIL, written by pfwc for analysis with secilc,\n"
		"; seinfo and sesearch.  Not a policy to load into SELinux.\n",
		policy->n_files ? policy->files[0] : "policy");
	write_vocabulary(cil);
	write_types(cil, lowered, &table);
	write_rules(cil, &table);
	if (fclose(cil) != 0) {
		pfw_error(diag, NULL, "out of memory exporting to SELinux");
		goto fail;
	}
	free_flat_table(&table);
	return 0;

fail:
	free_flat_table(&table);
	pfw_sepol_export_free(out);
	return -1;
}

void pfw_sepol_export_free(struct pfw_sepol_export *export)
{
	free(export->cil);
	free(export->endpoint_of);
	memset(export, 0, sizeof(*export));
}

/*
 * libsepol reports through a global log handler; the compile below
 * collects its messages here so that they can be quoted in one error.
 */
static char sepol_log[1024];

static void collect_sepol_log(int level, const char *message)
{
	size_t len = strlen(sepol_log);

	(void)level;
	snprintf(sepol_log + len, sizeof(sepol_log) - len, "%s", message);
}

int pfw_sepol_compile(const char *cil, size_t len, struct sepol_policydb **out,
		      struct pfw_diag *diag)
{
	cil_db_t *db = NULL;
	int rc;

	sepol_log[0] = '\0';
	cil_set_log_level(CIL_ERR);
	cil_set_log_handler(collect_sepol_log);
	cil_db_init(&db);
	rc = cil_add_file(db, "pfwc-export.cil", cil, len);
	if (!rc)
		rc = cil_compile(db);
	if (!rc)
		rc = cil_build_policydb(db, out);
	cil_db_destroy(&db);
	if (rc) {
		size_t n = strlen(sepol_log);

		while (n && sepol_log[n - 1] == '\n')
			sepol_log[--n] = '\0';
		pfw_error(
			diag, NULL,
			"internal error: libsepol rejected the CIL export: %s",
			sepol_log[0] ? sepol_log : "no message");
		return -1;
	}
	return 0;
}

void pfw_sepol_note_unexported(const struct pfw_lowered *lowered,
			       struct pfw_diag *diag)
{
	if (lowered->n_protected)
		pfw_notice(
			diag,
			"the SELinux export has no counterpart for 'protect': pfsel protects %zu of its %zu application types, which the export names only in comments",
			lowered->n_protected, lowered->n_apps);
}

void pfw_sepol_warn_hosts(const struct pfw_policy *policy,
			  struct pfw_diag *diag)
{
	for (size_t r = 0; r < policy->n_rules; r++) {
		const struct pfw_rule *rule = &policy->rules[r];
		char text[PFSEL_HOST_NAME_MAX + 3];

		if (!rule->n_hosts)
			continue;
		pfw_warn(
			diag, PFW_W_HOST, &rule->loc,
			"the SELinux export cannot express host names: it leaves out this rule's %zu host element%s ('host %s'%s) and keeps its addresses",
			rule->n_hosts, rule->n_hosts == 1 ? "" : "s",
			pfw_host_format(&rule->hosts[0], text, sizeof(text)),
			rule->n_hosts == 1 ? "" : ", ...");
	}
}

int pfw_emit_cil(FILE *out, const struct pfw_policy *policy,
		 const struct pfw_lowered *lowered,
		 const struct pfsel_policydb *db, struct pfw_diag *diag)
{
	struct pfw_sepol_export export;
	struct sepol_policydb *compiled;
	int rc = -1;

	pfw_sepol_note_unexported(lowered, diag);
	pfw_sepol_warn_hosts(policy, diag);
	if (pfw_sepol_export(policy, lowered, db, &export, diag))
		return -1;
	if (pfw_sepol_compile(export.cil, export.cil_len, &compiled, diag))
		goto out;
	sepol_policydb_free(compiled);
	if (fwrite(export.cil, 1, export.cil_len, out) != export.cil_len) {
		pfw_error(diag, NULL, "cannot write the CIL export: %s",
			  strerror(errno));
		goto out;
	}
	rc = 0;
out:
	pfw_sepol_export_free(&export);
	return rc;
}
