// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - a request, the one shape user space gives what the kernel
 * decides (struct pfsel_request), and its conversions: from an agent's
 * question, to and from the "check" file's request.  An audit record is
 * decoded into one too (audit.c).
 *
 * A request has one address and one port, the ones the policy language
 * names (policy/LANGUAGE.md, section 1): the peer's for connect and
 * accept, the socket's own for bind and listen, and for accept the port
 * it was accepted on.  The kernel's question already carries them so
 * (PFSEL_ATTR_RADDR, _RPORT); an audit record names both ends of the
 * socket, and audit.c picks them there, once.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

PFSEL_EXPORT void
pfsel_request_from_question(const struct pfsel_question *const q,
			    struct pfsel_request *const req)
{
	memset(req, 0, sizeof(*req));
	/* The kernel names an application it cannot name "?". */
	if (q->exe[0] == '/')
		memcpy(req->exe, q->exe, sizeof(req->exe));
	memcpy(req->script, q->script, sizeof(req->script));
	req->op = q->op;
	req->proto = q->proto;
	req->family = q->family;
	if (q->op != PFSEL_OP_CREATE) {
		memcpy(req->addr, q->raddr, sizeof(req->addr));
		req->port = q->rport;
	}
	memcpy(req->hosts, q->hosts, sizeof(req->hosts));
}

PFSEL_EXPORT void
pfsel_request_to_check(const struct pfsel_request *const req,
		       struct pfsel_check_request *const check)
{
	memset(check, 0, sizeof(*check));
	check->exe = req->exe[0] ? req->exe : NULL;
	check->script = req->script[0] ? req->script : NULL;
	check->op = req->op;
	check->proto = req->proto;
	check->family = req->family;
	memcpy(check->addr, req->addr, sizeof(check->addr));
	check->port = req->port;
}

/* @dst from @src (NULL: ""), or false when it does not fit. */
static bool copy_path(char *const dst, const size_t size, const char *const src)
{
	const size_t len = src ? strlen(src) : 0;

	if (len >= size)
		return false;
	memcpy(dst, src ? src : "", len + 1);
	return true;
}

PFSEL_EXPORT int
pfsel_request_from_check(const struct pfsel_check_request *const check,
			 struct pfsel_request *const req)
{
	memset(req, 0, sizeof(*req));
	if (!copy_path(req->exe, sizeof(req->exe), check->exe) ||
	    !copy_path(req->script, sizeof(req->script), check->script)) {
		memset(req, 0, sizeof(*req));
		return pfsel_fail(-ENAMETOOLONG,
				  "pfsel_request_from_check: a path is "
				  "longer than %zu bytes",
				  sizeof(req->exe) - 1);
	}
	req->op = check->op;
	req->proto = check->proto;
	req->family = check->family;
	if (check->op != PFSEL_OP_CREATE) {
		memcpy(req->addr, check->addr, sizeof(req->addr));
		req->port = check->port;
	}
	pfsel_clear_error();
	return 0;
}
