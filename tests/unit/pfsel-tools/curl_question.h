/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The question the agent's unit tests ask about, unless they need another:
 * /usr/bin/curl connecting over TCP to 192.0.2.1, port 80, asked by the
 * user's policy.  Each test adds what it needs (an id, a script, a time
 * left).
 */
#ifndef PFSEL_TESTS_CURL_QUESTION_H
#define PFSEL_TESTS_CURL_QUESTION_H

#include <string.h>

#include <pfsel/pfsel.h>

/* Fills @q, all of it: the rest of its fields are zero. */
static inline void curl_question(struct pfsel_question *q)
{
	memset(q, 0, sizeof(*q));
	strcpy(q->exe, "/usr/bin/curl");
	q->op = PFSEL_OP_CONNECT;
	q->proto = PFSEL_PROTO_TCP;
	q->family = PFSEL_FAMILY_INET;
	pfsel_parse_addr("192.0.2.1", q->raddr);
	q->rport = 80;
	q->policy = 1;
}

#endif /* PFSEL_TESTS_CURL_QUESTION_H */
