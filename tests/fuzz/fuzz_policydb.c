// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the kernel's policy reader (security/pfsel/policydb.c,
 * built for user space through compiler/kshim): arbitrary bytes go to
 * pfsel_policydb_load(); when it accepts them, requests derived from the
 * input go to the classifiers, pfsel_policydb_decide() and the host name
 * lookups (pfsel_policydb_name_class() on names from a pool and on raw
 * input bytes, pfsel_policydb_decide_name(), pfsel_policydb_resolver()).
 * A crash, leak,
 * sanitizer report or an accepted blob that answers out of range is a bug.
 *
 * The checksum would stop almost every mutation at the header, so the input
 * is tried twice: as it is, and with its checksum recomputed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "policydb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Host name lookups for one 24-byte slice @q of the input. */
static void ask_names(const struct pfsel_policydb *db, uint32_t app,
		      const uint8_t *q)
{
	static const char *const names[] = {
		"www.example.org", "example.org", "a.b.example.org", "org",
		"x", "a.x", "b.a.x", "xn--bcher-kva.example", "_dmarc.a.x",
		"Example.org", "a..x", "a.x.", "",
	};
	const size_t n_names = sizeof(names) / sizeof(names[0]);
	const char *name = names[q[9] % n_names];
	uint32_t class, rule;

	class = pfsel_policydb_name_class(db, name, strlen(name));
	if (class >= db->n_name_classes)
		abort();
	/* Eight raw bytes of the input as a name. */
	if (pfsel_policydb_name_class(db, (const char *)q + 16, 8) >=
	    db->n_name_classes)
		abort();
	if (!pfsel_policydb_decide_name(db, app, q[3] % PFSEL_OP_COUNT,
					q[4] % PFSEL_PROTO_COUNT, class,
					pfsel_policydb_classify_port(db, q[6]),
					&rule) &&
	    rule != PFSEL_NONE && rule >= db->n_rules)
		abort();
	/* Raw classes, possibly out of range. */
	pfsel_policydb_decide_name(db, q[1], q[3], q[4], q[10], q[6], &rule);
	pfsel_policydb_resolver(db, q[11]);
	pfsel_policydb_has_names(db);
}

static void ask(const struct pfsel_policydb *db, const uint8_t *data,
		size_t size)
{
	static const char *const paths[] = {
		"/usr/bin/firefox", "/usr/bin/python3", "/usr/lib/x/y",
		"/home/u/bin/a.py", "/", "", "x", "/usr/bin/", "//a//b",
	};
	const size_t n_paths = sizeof(paths) / sizeof(paths[0]);

	for (size_t i = 0; i + 24 <= size && i < 24 * 16; i += 24) {
		const uint8_t *q = data + i;
		struct pfsel_decision d;
		uint32_t app;

		app = pfsel_policydb_classify_app(db, paths[q[0] % n_paths],
						  q[1] & 1 ? NULL :
							     paths[q[2] % n_paths]);
		if (app >= db->n_apps)
			abort();
		/* Any class, even one out of range, has an answer. */
		pfsel_policydb_app_protected(db, app);
		pfsel_policydb_app_protected(db, q[1] | q[2] << 8);
		pfw_policydb_request(db, paths[q[0] % n_paths], NULL,
				     q[3] % PFSEL_OP_COUNT,
				     q[4] % PFSEL_PROTO_COUNT, q[5] & 1, q + 8,
				     q[6] | q[7] << 8, &d);
		if (d.rule != PFSEL_NONE && d.rule >= db->n_rules)
			abort();
		/* Raw classes, possibly out of range: -EINVAL or an answer. */
		if (!pfsel_policydb_decide(db, q[1], q[3], q[4], q[5], q[6],
					   &d) &&
		    d.verdict >= PFSEL_VERDICT_COUNT)
			abort();
		ask_names(db, app, q);
	}
	/* The whole input as a name: any bytes, any length. */
	if (pfsel_policydb_name_class(db, (const char *)data, size) >=
	    db->n_name_classes)
		abort();
}

static void try_load(const uint8_t *blob, size_t size, const uint8_t *data,
		     size_t data_size)
{
	struct pfsel_policydb *db;

	if (pfsel_policydb_load(blob, size, &db))
		return;
	ask(db, data, data_size);
	pfsel_policydb_free(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	uint32_t crc;

	try_load(data, size, data, size);
	if (size < sizeof(struct pfsel_policy_header))
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	crc = pfsel_policydb_checksum(copy, size);
	copy[12] = crc;
	copy[13] = crc >> 8;
	copy[14] = crc >> 16;
	copy[15] = crc >> 24;
	try_load(copy, size, data, size);
	free(copy);
	return 0;
}
