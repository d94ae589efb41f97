// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc --dump: print a compiled policy readably, as the kernel's reader
 * (security/pfsel/policydb.c) sees it after validation.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "backend.h"
#include "pfsel.h"
#include "policydb.h"

/* @len bytes of @s, escaped: a blob's strings may hold any byte. */
static void print_escaped(FILE *out, const char *s, u32 len)
{
	char esc[5];

	for (u32 i = 0; i < len; i++)
		fputs(pfw_escape_byte((unsigned char)s[i], esc), out);
}

static void print_str(FILE *out, const struct pfsel_policydb *db, u32 idx)
{
	fputc('"', out);
	print_escaped(out, db->strings[idx].s, db->strings[idx].len);
	fputc('"', out);
}

static void print_rule(FILE *out, const struct pfsel_policydb *db, u32 rule)
{
	struct pfsel_string file;
	u32 line, col;

	if (pfsel_policydb_rule_source(db, rule, &file, &line, &col)) {
		fprintf(out, "-");
		return;
	}
	fprintf(out, "#%u %s (", rule,
		pfw_verdict_name(db->rules[rule].verdict));
	print_escaped(out, file.s, file.len);
	fprintf(out, ":%u)", line);
}

static void print_addr(FILE *out, const u8 addr[16])
{
	static const u8 v4[12] = { [10] = 0xff, [11] = 0xff };
	char text[INET6_ADDRSTRLEN];

	if (!memcmp(addr, v4, sizeof(v4)))
		inet_ntop(AF_INET, addr + 12, text, sizeof(text));
	else
		inet_ntop(AF_INET6, addr, text, sizeof(text));
	fputs(text, out);
}

static void print_row(FILE *out, const struct pfsel_policydb *db, u32 row)
{
	const struct pfsel_policy_run *run;

	if (row == PFSEL_NONE) {
		fprintf(out, "none");
		return;
	}
	run = db->runs + le32_to_cpu(db->rows[row].first);
	fprintf(out, "row %u:", row);
	for (u32 i = 0; i < le32_to_cpu(db->rows[row].count); i++) {
		fprintf(out, " [port class %u..] ", le32_to_cpu(run[i].start));
		print_rule(out, db, le32_to_cpu(run[i].rule));
	}
}

static void print_paths(FILE *out, const struct pfsel_policydb *db,
			const char *what, const struct pfsel_policy_path *path,
			u32 n)
{
	for (u32 i = 0; i < n; i++) {
		u32 flags = le32_to_cpu(path[i].flags);

		fprintf(out, "  %s ", what);
		print_str(out, db, le32_to_cpu(path[i].str));
		if (flags & PFSEL_PATH_EXACT)
			fprintf(out, " exact->%u", le32_to_cpu(path[i].exact));
		if (flags & PFSEL_PATH_CHILD)
			fprintf(out, " /*->%u", le32_to_cpu(path[i].child));
		if (flags & PFSEL_PATH_TREE)
			fprintf(out, " /**->%u", le32_to_cpu(path[i].tree));
		fprintf(out, "\n");
	}
}

static void dump_classes(FILE *out, const struct pfsel_policydb *db)
{
	fprintf(out, "\naddress classes: %u\n", db->n_addrs);
	for (u32 i = 0; i < db->n_addrs; i++) {
		fprintf(out, "  a%u: ", i);
		print_addr(out, db->addrs[i].start);
		fprintf(out, " ..\n");
	}
	fprintf(out, "\nport classes: %u\n", db->n_ports);
	for (u32 i = 0; i < db->n_ports; i++) {
		u32 first = le16_to_cpu(db->ports[i].start);
		u32 last = i + 1 < db->n_ports ?
				   le16_to_cpu(db->ports[i + 1].start) - 1u :
				   65535u;

		fprintf(out, "  p%u: %u-%u\n", i, first, last);
	}
	fprintf(out, "\nexecutables: %u classes, unnamed -> %u\n", db->n_exes,
		db->exe_other);
	print_paths(out, db, "exe", db->exe_paths, db->n_exe_paths);
	for (u32 i = 0; i < db->n_exes; i++) {
		const struct pfsel_policy_exe *e = &db->exes[i];
		const struct pfsel_policy_pair *pair =
			db->pairs + le32_to_cpu(e->pair_first);

		fprintf(out, "  exe class %u: app %u", i, le32_to_cpu(e->app));
		for (u32 j = 0; j < le32_to_cpu(e->pair_count); j++)
			fprintf(out, ", with script class %u: app %u",
				le32_to_cpu(pair[j].script_class),
				le32_to_cpu(pair[j].app));
		fprintf(out, "\n");
	}
	fprintf(out, "\nscripts: %u classes, unnamed -> %u\n",
		db->n_script_classes, db->script_other);
	print_paths(out, db, "script", db->script_paths, db->n_script_paths);
	fprintf(out, "\nhost names: %u classes, unnamed -> 0\n",
		db->n_name_classes);
	for (u32 i = 0; i < db->n_name_patterns; i++) {
		const struct pfsel_policy_path *p = &db->name_patterns[i];
		u32 flags = le32_to_cpu(p->flags);

		fprintf(out, "  name ");
		print_str(out, db, le32_to_cpu(p->str));
		if (flags & PFSEL_NAME_EXACT)
			fprintf(out, " exact->%u", le32_to_cpu(p->exact));
		if (flags & PFSEL_NAME_TREE)
			fprintf(out, " *.->%u", le32_to_cpu(p->tree));
		fprintf(out, "\n");
	}
}

static void dump_decisions(FILE *out, const struct pfsel_policydb *db)
{
	fprintf(out, "\napplication classes: %u, %u protected\n", db->n_apps,
		db->n_protected);
	for (u32 i = 0; i < db->n_apps; i++) {
		const __le32 *g =
			db->grouplist + le32_to_cpu(db->apps[i].first);

		fprintf(out, "  app %u: groups", i);
		for (u32 j = 0; j < le32_to_cpu(db->apps[i].count); j++)
			fprintf(out, " %u", le32_to_cpu(g[j]));
		if (pfsel_policydb_app_protected(db, i))
			fprintf(out, "; protected");
		switch (pfsel_policydb_resolver(db, i)) {
		case 0:
			fprintf(out, "; resolver");
			break;
		case PFSEL_RESOLVER_ANY_USER:
			fprintf(out, "; resolver any user");
			break;
		}
		fprintf(out, "\n");
	}
	fprintf(out, "\ngroups: %u\n", db->n_groups);
	for (u32 i = 0; i < db->n_groups; i++) {
		const struct pfsel_policy_cell *cell =
			db->cells + le32_to_cpu(db->groups[i].first);

		fprintf(out, "  group %u:\n", i);
		for (u32 j = 0; j < le32_to_cpu(db->groups[i].count); j++) {
			const struct pfsel_policy_slab *slab =
				db->slabs + le32_to_cpu(cell[j].slab_first);

			fprintf(out, "    %s %s: any address: ",
				pfw_op_name(cell[j].op),
				pfw_proto_name(cell[j].proto));
			print_row(out, db, le32_to_cpu(cell[j].wild_row));
			fprintf(out, "\n");
			const struct pfsel_policy_range *names =
				&db->name_cells[&cell[j] - db->cells];
			const struct pfsel_policy_slab *name_slab =
				db->name_slabs + le32_to_cpu(names->first);

			for (u32 k = 0; k < le32_to_cpu(cell[j].slab_count);
			     k++) {
				fprintf(out, "      address class %u..: ",
					le32_to_cpu(slab[k].start));
				print_row(out, db, le32_to_cpu(slab[k].row));
				fprintf(out, "\n");
			}
			for (u32 k = 0; k < le32_to_cpu(names->count); k++) {
				fprintf(out, "      name class %u..: ",
					le32_to_cpu(name_slab[k].start));
				print_row(out, db,
					  le32_to_cpu(name_slab[k].row));
				fprintf(out, "\n");
			}
		}
	}
}

static const char *const slot_names[PFSEL_SLOT_COUNT] = {
#define PFSEL_SLOT(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_SLOT
};

static const char *const mode_names[PFSEL_MODE_ENFORCING + 1] = {
#define PFSEL_MODE(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_MODE
};

int pfw_dump(const char *path, FILE *out, FILE *err)
{
	static const char *const audit_names[4] = {
		"", " log-allowed", " quiet-denial", " log-allowed quiet-denial"
	};
	struct pfsel_policydb *db = pfw_load_policy(path, err);

	if (!db)
		return PFW_EXIT_INPUT;
	fprintf(out, "pfsel policy version %u, %zu bytes, %s",
		PFSEL_POLICY_VERSION, db->size,
		slot_names[db->flags & PFSEL_POLICY_F_SYSTEM ?
				   PFSEL_SLOT_SYSTEM :
				   PFSEL_SLOT_USER]);
	if (!(db->flags & PFSEL_POLICY_F_SYSTEM))
		fprintf(out, " uid %u", db->uid);
	fprintf(out,
		"\ndefault %s%s; ask timeout %u ms; no answer %s; mode %s\n",
		pfw_verdict_name(db->default_verdict),
		audit_names[db->default_audit & 3], db->ask_timeout_ms,
		pfw_verdict_name(db->no_answer),
		mode_names[db->flags & PFSEL_POLICY_F_PERMISSIVE ?
				   PFSEL_MODE_PERMISSIVE :
				   PFSEL_MODE_ENFORCING]);
	fprintf(out, "\nrules: %u\n", db->n_rules);
	for (u32 i = 0; i < db->n_rules; i++) {
		fprintf(out, "  ");
		print_rule(out, db, i);
		fprintf(out, "%s\n", audit_names[db->rules[i].audit & 3]);
	}
	dump_classes(out, db);
	dump_decisions(out, db);
	pfsel_policydb_free(db);
	return PFW_EXIT_OK;
}
