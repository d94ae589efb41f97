/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Asking the user's agent
 */

#ifndef _SECURITY_PFSEL_ASK_H
#define _SECURITY_PFSEL_ASK_H

#include <linux/seq_file.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include "avc.h"
#include "classify.h"
#include "policydb.h"

/* Longest security context a question carries, with its NUL. */
#define PFSEL_SECCTX_MAX 256

struct pfsel_policy;
struct pid;
struct pfsel_question;
struct pfsel_subject;
struct sk_buff;

/**
 * struct pfsel_ask_info - What a question tells the agent
 *
 * @id: the question's id.
 * @pid: thread id of the asking task.
 * @tgid: its process id.
 * @uid: its real uid.
 * @exe: the application's executable, or NULL if unnamed.
 * @script: its script, or NULL.
 * @comm: the task's comm.
 * @request: the request.
 * @policy: PFSEL_SLOT_SYSTEM or PFSEL_SLOT_USER.
 * @rule_file: source file of the rule that asked (empty for a default).
 * @rule_line: its line, 0 for a default.
 * @rule_col: its column.
 * @timeout_ms: how long the caller waits.
 * @unanswered: what the caller gets if no answer comes: PFSEL_ANSWER_*.
 * @secctx: the task's security context as the LSMs name it, or NULL; not
 *          NUL-terminated.
 * @secctx_len: its length, at most PFSEL_SECCTX_MAX - 1.
 * @hosts: the host names known for the request's address, separated by
 *	   ',' (pfsel_hostmap_format()), or NULL or "" for none.
 */
struct pfsel_ask_info {
	u64 id;
	pid_t pid;
	pid_t tgid;
	u32 uid;
	const char *exe;
	const char *script;
	const char *comm;
	const struct pfsel_request *request;
	u8 policy;
	struct pfsel_string rule_file;
	u32 rule_line;
	u32 rule_col;
	u32 timeout_ms;
	u8 unanswered;
	const char *secctx;
	u32 secctx_len;
	const char *hosts;
};

bool pfsel_ask_cached(const struct pfsel_subject *subject,
		      const struct pfsel_request *request,
		      const struct pfsel_avc_key *key, u32 *verdict);
struct pfsel_question *pfsel_ask_prepare(const struct pfsel_subject *subject,
					 const struct pfsel_request *request,
					 const struct pfsel_policy *policy,
					 const struct pfsel_avc_key *key,
					 u32 rule);
int pfsel_ask_wait(struct pfsel_question *question, u32 timeout_ms,
		   u32 no_answer, u32 *verdict);
void pfsel_ask_flush(kuid_t uid);
void pfsel_ask_forget(kuid_t uid);
void pfsel_ask_show_stats(struct seq_file *m);

int pfsel_ask_register(kuid_t uid, u32 portid, struct pid *process);
int pfsel_ask_unregister(u32 portid);
int pfsel_ask_answer(u32 portid, u64 id, u32 verdict, u32 scope);
bool pfsel_ask_is_agent_process(kuid_t uid);
void pfsel_ask_socket_gone(u32 portid);

struct sk_buff *pfsel_netlink_ask_msg(const struct pfsel_ask_info *info,
				      gfp_t gfp);
int pfsel_netlink_send(struct sk_buff *skb, u32 portid);

#endif /* _SECURITY_PFSEL_ASK_H */
