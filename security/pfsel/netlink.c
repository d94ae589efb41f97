// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The generic netlink family agents talk to
 *
 * The wire format is uapi/linux/pfsel.h's: this file holds the family, the
 * policy its attributes are checked against before any command sees them,
 * and the questions it carries to agents (ask.c puts them).  The commands
 * agents send are agent.c's, which hands them over when it registers the
 * family.  The family lives in the initial network namespace only.
 */

#include <linux/init.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netlink.h>
#include <uapi/linux/pfsel.h>

#include "netlink.h"

static const struct nla_policy pfsel_genl_policy[PFSEL_ATTR_MAX + 1] = {
	[PFSEL_ATTR_ID] = { .type = NLA_U64 },
	[PFSEL_ATTR_UID] = { .type = NLA_U32 },
	[PFSEL_ATTR_VERDICT] = NLA_POLICY_MAX(NLA_U8, PFSEL_ANSWER_DENY),
	[PFSEL_ATTR_SCOPE] = NLA_POLICY_MAX(NLA_U8, PFSEL_SCOPE_ALWAYS),
	/* The kernel's to send, never to take. */
	[PFSEL_ATTR_SECCTX] = { .type = NLA_REJECT },
	[PFSEL_ATTR_UNANSWERED] = { .type = NLA_REJECT },
	[PFSEL_ATTR_HOSTS] = { .type = NLA_REJECT },
};

static struct genl_family pfsel_genl_family __ro_after_init = {
	.name = PFSEL_GENL_NAME,
	.version = PFSEL_GENL_VERSION,
	.maxattr = PFSEL_ATTR_MAX,
	.policy = pfsel_genl_policy,
	.module = THIS_MODULE,
	/* The commands are agent.c's: pfsel_netlink_register() sets them. */
	/* Strict validation for every command: the family is new. */
	.resv_start_op = PFSEL_CMD_UNSPEC + 1,
};

static int put_addr(struct sk_buff *const skb, const int type,
		    const u8 *const addr)
{
	return nla_put(skb, type, 16, addr);
}

/* A string attribute from @len bytes of @s, NUL-terminated. */
static int put_strn(struct sk_buff *const skb, const int type,
		    const char *const s, const u32 len)
{
	struct nlattr *const attr = nla_reserve(skb, type, len + 1);

	if (!attr)
		return -EMSGSIZE;
	memcpy(nla_data(attr), s, len);
	((char *)nla_data(attr))[len] = '\0';
	return 0;
}

/**
 * pfsel_netlink_ask_msg - Build the message of a question
 *
 * @info: the question.
 * @gfp: allocation flags (the caller may be atomic).
 *
 * Return: the message, or NULL if memory is short.
 */
struct sk_buff *pfsel_netlink_ask_msg(const struct pfsel_ask_info *const info,
				      const gfp_t gfp)
{
	const struct pfsel_request *const req = info->request;
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_GOODSIZE, gfp);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, 0, 0, &pfsel_genl_family, 0, PFSEL_CMD_ASK);
	if (!hdr)
		goto err;
	if (nla_put_u64_64bit(skb, PFSEL_ATTR_ID, info->id, PFSEL_ATTR_PAD) ||
	    nla_put_u32(skb, PFSEL_ATTR_PID, info->pid) ||
	    nla_put_u32(skb, PFSEL_ATTR_TGID, info->tgid) ||
	    nla_put_u32(skb, PFSEL_ATTR_UID, info->uid) ||
	    nla_put_string(skb, PFSEL_ATTR_EXE, info->exe ?: "?") ||
	    (info->script &&
	     nla_put_string(skb, PFSEL_ATTR_SCRIPT, info->script)) ||
	    nla_put_string(skb, PFSEL_ATTR_COMM, info->comm) ||
	    nla_put_u8(skb, PFSEL_ATTR_OP, req->op) ||
	    nla_put_u8(skb, PFSEL_ATTR_FAMILY, req->family) ||
	    nla_put_u8(skb, PFSEL_ATTR_PROTO, req->proto) ||
	    put_addr(skb, PFSEL_ATTR_LADDR, req->laddr) ||
	    nla_put_u16(skb, PFSEL_ATTR_LPORT, req->lport) ||
	    put_addr(skb, PFSEL_ATTR_RADDR, req->addr) ||
	    nla_put_u16(skb, PFSEL_ATTR_RPORT, req->port) ||
	    nla_put_u8(skb, PFSEL_ATTR_POLICY, info->policy) ||
	    nla_put_u32(skb, PFSEL_ATTR_RULE_LINE, info->rule_line) ||
	    nla_put_u32(skb, PFSEL_ATTR_RULE_COL, info->rule_col) ||
	    nla_put_u32(skb, PFSEL_ATTR_TIMEOUT_MS, info->timeout_ms) ||
	    nla_put_u8(skb, PFSEL_ATTR_UNANSWERED, info->unanswered))
		goto err;
	/* Neither is NUL-terminated where it comes from. */
	if ((info->rule_file.len &&
	     put_strn(skb, PFSEL_ATTR_RULE_FILE, info->rule_file.s,
		      info->rule_file.len)) ||
	    (info->secctx &&
	     put_strn(skb, PFSEL_ATTR_SECCTX, info->secctx, info->secctx_len)) ||
	    (info->hosts && *info->hosts &&
	     nla_put_string(skb, PFSEL_ATTR_HOSTS, info->hosts)))
		goto err;
	genlmsg_end(skb, hdr);
	return skb;

err:
	nlmsg_free(skb);
	return NULL;
}

/**
 * pfsel_netlink_send - Send a question to an agent
 *
 * @skb: the message, from pfsel_netlink_ask_msg(); consumed.
 * @portid: the agent's socket.
 *
 * Never blocks: an agent that does not read its socket loses questions,
 * which then get the unanswered verdict.
 *
 * Return: 0 or a negative errno.
 */
int pfsel_netlink_send(struct sk_buff *const skb, const u32 portid)
{
	return genlmsg_unicast(&init_net, skb, portid);
}

/**
 * pfsel_netlink_register - Register the family, with its commands
 *
 * @ops: the commands agents send (agent.c).
 * @n_ops: how many.
 *
 * Generic netlink is ready at subsys_initcall; call it later, once.
 *
 * Return: 0 or the errno of genl_register_family().
 */
__init int pfsel_netlink_register(const struct genl_small_ops *const ops,
				  const unsigned int n_ops)
{
	pfsel_genl_family.small_ops = ops;
	pfsel_genl_family.n_small_ops = n_ops;
	return genl_register_family(&pfsel_genl_family);
}
