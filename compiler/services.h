/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the named-service vocabulary (policy/services)
 *
 * The file has the shape of /etc/services: one "NAME PORT/PROTO [ALIAS...]"
 * per line, '#' starts a comment.  A service name in a rule's port list
 * stands for its port numbers (under every protocol it is listed with); the
 * rule's protocols are still the rule's own.
 */
#ifndef PFWC_SERVICES_H
#define PFWC_SERVICES_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/*
 * Where the vocabulary is when no --services says: $PFWC_SERVICES; beside
 * the running binary, in ../share/pfsel/services (so that both an installed
 * pfwc and build/bin/pfwc find theirs, and pfsel-agent beside them); else
 * PFWC_SERVICES_PATH, which the Makefile sets.
 */
#ifndef PFWC_SERVICES_PATH
#define PFWC_SERVICES_PATH "/usr/share/pfsel/services"
#endif
#define PFWC_SERVICES_RELATIVE "/../share/pfsel/services"

struct pfw_service {
	char *name; /* the name or one of its aliases */
	uint16_t port;
	uint32_t protos; /* set of enum pfw_proto (tcp or udp) */
	struct pfw_loc loc;
};

struct pfw_services {
	struct pfw_service *entries;
	size_t n_entries;
	char *file; /* for the entries' locations */
};

/*
 * Read a services file.  Malformed lines are reported as errors at their
 * place.  Returns NULL (with an error) if the file cannot be read.
 */
struct pfw_services *pfw_services_load(const char *path, struct pfw_diag *diag);

/* Parse services from text (for tests and the fuzzer); never NULL. */
struct pfw_services *pfw_services_parse(const char *name, const char *text,
					size_t len, struct pfw_diag *diag);

void pfw_services_free(struct pfw_services *services);

/*
 * The services file to read when none is named, as above: $PFWC_SERVICES,
 * the one beside the binary if it exists (written into @buf), else
 * PFWC_SERVICES_PATH.  The file need not exist.
 */
const char *pfw_services_default_path(char *buf, size_t size);

/*
 * Look @name up.  Returns the number of entries with that name or alias and
 * points *@first at the first; entries with one name are consecutive.
 */
size_t pfw_services_find(const struct pfw_services *services, const char *name,
			 const struct pfw_service **first);

#endif /* PFWC_SERVICES_H */
