/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - The generic netlink family agents talk to
 */

#ifndef _SECURITY_PFSEL_NETLINK_H
#define _SECURITY_PFSEL_NETLINK_H

#include <linux/gfp_types.h>
#include <linux/init.h>
#include <linux/types.h>

#include "classify.h"
#include "policydb.h"

struct genl_small_ops;
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
 * @secctx_len: its length, below PFSEL_SECCTX_MAX.
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

struct sk_buff *pfsel_netlink_ask_msg(const struct pfsel_ask_info *info,
				      gfp_t gfp);
int pfsel_netlink_send(struct sk_buff *skb, u32 portid);
__init int pfsel_netlink_register(const struct genl_small_ops *ops,
				  unsigned int n_ops);

#endif /* _SECURITY_PFSEL_NETLINK_H */
