/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Answers kept for a process or a session
 */

#ifndef _SECURITY_PFSEL_ANSWERS_H
#define _SECURITY_PFSEL_ANSWERS_H

#include <linux/types.h>
#include <linux/uidgid.h>

#include "app.h"
#include "avc.h"
#include "classify.h"

/**
 * struct pfsel_topic - What a question is about, as the person saw it
 *
 * @key: the AVC key of the policy that asked (its generation and classes).
 * @app: the application (a reference), or NULL for a task that never
 *       executed anything.
 * @family: the request's address family.
 * @port: its port.
 * @addr: its address.
 */
struct pfsel_topic {
	struct pfsel_avc_key key;
	struct pfsel_app *app;
	u8 family;
	u16 port;
	u8 addr[16];
};

void pfsel_topic_init(struct pfsel_topic *topic,
		      const struct pfsel_subject *subject,
		      const struct pfsel_request *request,
		      const struct pfsel_avc_key *key);
void pfsel_topic_release(struct pfsel_topic *topic);
bool pfsel_topic_is(const struct pfsel_topic *topic,
		    const struct pfsel_app *app,
		    const struct pfsel_request *request,
		    const struct pfsel_avc_key *key);

struct pfsel_answer;

struct pfsel_answer *pfsel_answer_alloc(void);
void pfsel_answer_free(struct pfsel_answer *answer);
void pfsel_answers_keep(struct pfsel_answer *answer, kuid_t uid,
			const struct pfsel_topic *topic, u32 verdict,
			pid_t tgid, u64 start_time);
bool pfsel_answers_find(const struct pfsel_subject *subject,
			const struct pfsel_request *request,
			const struct pfsel_avc_key *key, u32 *verdict);
void pfsel_answers_forget(kuid_t uid);
void pfsel_answers_flush(kuid_t uid);
void pfsel_answers_stats(s64 *hits, unsigned int *kept);

#endif /* _SECURITY_PFSEL_ANSWERS_H */
