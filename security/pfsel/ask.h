/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Asking the user's agent
 */

#ifndef _SECURITY_PFSEL_ASK_H
#define _SECURITY_PFSEL_ASK_H

#include <linux/seq_file.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "app.h"
#include "avc.h"
#include "classify.h"

/* Longest security context a question carries, with its NUL. */
#define PFSEL_SECCTX_MAX 256

struct pfsel_policy;
struct pfsel_question;
struct pid;

struct pfsel_question *pfsel_ask_prepare(const struct pfsel_subject *subject,
					 const struct pfsel_request *request,
					 const struct pfsel_policy *policy,
					 const struct pfsel_avc_key *key,
					 u32 rule);
int pfsel_ask_wait(struct pfsel_question *question, u32 timeout_ms,
		   u32 no_answer, u32 *verdict);
void pfsel_ask_show_stats(struct seq_file *m);

struct sock;

int pfsel_ask_register(kuid_t uid, u32 portid, u64 cookie, struct sock *sk,
		       struct pid *process);
int pfsel_ask_unregister(u32 portid, u64 cookie);
int pfsel_ask_answer(u32 portid, u64 cookie, u64 id, u32 verdict,
		     u32 scope);
bool pfsel_ask_is_agent_process(kuid_t uid);
void pfsel_ask_socket_gone(u32 portid);

#endif /* _SECURITY_PFSEL_ASK_H */
