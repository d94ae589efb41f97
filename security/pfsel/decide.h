/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Deciding a request
 */

#ifndef _SECURITY_PFSEL_DECIDE_H
#define _SECURITY_PFSEL_DECIDE_H

#include <linux/types.h>
#include <linux/uidgid.h>

#include "app.h"
#include "classify.h"

/**
 * struct pfsel_subject - Who makes a request
 *
 * @app: the application identity, or NULL.
 * @uid: the real uid, which chooses the user policy.
 * @task: the request is made by the current task, in process context (a
 *        syscall); false for an inbound connection, decided in softirq for
 *        the process that created the listening socket.
 */
struct pfsel_subject {
	struct pfsel_app *app;
	kuid_t uid;
	bool task;
};

int pfsel_decide(const struct pfsel_subject *subject,
		 const struct pfsel_request *request);
int pfsel_decide_current(const struct pfsel_request *request);

bool pfsel_enforcing(void);
void pfsel_set_enforcing(bool enforcing);

#endif /* _SECURITY_PFSEL_DECIDE_H */
