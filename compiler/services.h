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
 * Look @name up.  Returns the number of entries with that name or alias and
 * points *@first at the first; entries with one name are consecutive.
 */
size_t pfw_services_find(const struct pfw_services *services, const char *name,
			 const struct pfw_service **first);

#endif /* PFWC_SERVICES_H */
