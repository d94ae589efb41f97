// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - pfsel's decisions read back from the audit log: every
 * AUDIT_PFSEL_ACCESS (1430) record, through libauparse, from the audit
 * daemon's logs, a file or standard input, decoded by audit.c and passed
 * on when it is one the caller wants.
 */
#include <auparse.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define AUDIT_PFSEL_ACCESS 1430

/* The most fields a record has, and the longest record read. */
#define MAX_FIELDS 64
#define RECORD_TEXT_MAX 65536

static bool wanted(const struct pfsel_audit_filter *const src,
		   const struct pfsel_audit_record *const rec)
{
	const struct pfsel_request *const req = &rec->request;

	if (src->has_since && rec->sec < src->since)
		return false;
	if (src->has_uid && (!rec->has_uid || rec->uid != src->uid))
		return false;
	if (rec->verdict == PFSEL_VERDICT_ALLOW ? !src->want_allow :
						  !src->want_deny)
		return false;
	if (rec->refused != PFSEL_REFUSAL_COUNT && !src->want_refusals)
		return false;
	if (src->app) {
		char with_script[8200];

		snprintf(with_script, sizeof(with_script), "%s script %s",
			 req->exe, req->script);
		if (fnmatch(src->app, req->exe, 0) &&
		    (!req->script[0] || (fnmatch(src->app, req->script, 0) &&
					 fnmatch(src->app, with_script, 0))))
			return false;
	}
	return true;
}

/*
 * The fields of the current record of @au, split from its text in @buf
 * (pfsel_audit_fields()).  Not from auparse's own field parser: it drops
 * a trailing ':' from a value, and so turns laddr=:: into laddr=:.
 */
static size_t record_fields(auparse_state_t *const au, char *const buf,
			    const size_t size,
			    struct pfsel_audit_field *const fields)
{
	const char *text = auparse_get_record_text(au);

	if (!text || strlen(text) >= size)
		return 0;
	strcpy(buf, text);
	return pfsel_audit_fields(buf, fields, MAX_FIELDS);
}

PFSEL_EXPORT int pfsel_audit_read(const struct pfsel_audit_filter *const src,
				  const pfsel_audit_record_fn fn,
				  void *const arg, unsigned long *const bad)
{
	struct pfsel_audit_field fields[MAX_FIELDS];
	struct pfsel_audit_record *rec;
	char *text;
	const char *what;
	auparse_state_t *au;
	const au_event_t *ev;
	size_t count;
	int ret = 0, more, err;

	*bad = 0;
	pfsel_clear_error();
	errno = 0;
	if (!src->input) {
		what = "the audit logs";
		au = auparse_init(AUSOURCE_LOGS, NULL);
	} else if (!strcmp(src->input, "-")) {
		what = "standard input";
		au = auparse_init(AUSOURCE_FILE_POINTER, stdin);
	} else {
		what = src->input;
		au = auparse_init(AUSOURCE_FILE, src->input);
	}
	if (!au) {
		err = errno ? errno : EIO;
		return pfsel_fail(-err, "auparse_init(%s): %s", what,
				  strerror(err));
	}
	rec = malloc(sizeof(*rec));
	text = malloc(RECORD_TEXT_MAX);
	if (!rec || !text) {
		free(rec);
		free(text);
		auparse_destroy(au);
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	}
	errno = 0;
	while ((more = auparse_next_event(au)) > 0) {
		do {
			if (auparse_get_type(au) != AUDIT_PFSEL_ACCESS)
				continue;
			count = record_fields(au, text, RECORD_TEXT_MAX,
					      fields);
			if (pfsel_audit_record_decode(fields, count, rec)) {
				++*bad;
				continue;
			}
			ev = auparse_get_timestamp(au);
			if (ev) {
				rec->sec = ev->sec;
				rec->msec = ev->milli;
				rec->serial = ev->serial;
			}
			if (!wanted(src, rec))
				continue;
			ret = fn(rec, arg);
			if (ret)
				goto out;
		} while (auparse_next_record(au) > 0);
		errno = 0;
	}
	if (more < 0) {
		err = errno ? errno : EIO;
		ret = pfsel_fail(-err, "reading %s: %s%s", what, strerror(err),
				 !src->input && err == EACCES ?
					 " (the audit logs need root)" :
					 "");
	}
out:
	free(rec);
	free(text);
	auparse_destroy(au);
	return ret;
}
