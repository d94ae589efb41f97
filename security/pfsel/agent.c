// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - What agents send: who may register, and answers
 *
 * The commands of the generic netlink family (netlink.c), and the end of
 * a socket; what they change (agents, questions, kept answers) is
 * ask.c's.  Commands run in the sending task's context, with attributes
 * already checked against the family's policy.
 *
 * The adversary is a program of the very user whose agent this is, so a
 * user cannot make an agent: registering needs CAP_MAC_ADMIN in the
 * initial user namespace, of the sender and of whoever opened the socket,
 * and names the uid.  The root side (pam_pfsel, a system unit, sudo)
 * registers, and the agent then drops to the user and goes on answering
 * on that socket: answers are taken from the registered socket, not from
 * a uid.
 */

#include <linux/capability.h>
#include <linux/init.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/sock_diag.h>
#include <linux/user_namespace.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <uapi/linux/pfsel.h>

#include "admin.h"
#include "ask.h"
#include "common.h"
#include "netlink.h"
#include "setup.h"

/*
 * The sender and whoever opened its socket.  netlink_ns_capable() asks
 * the opener only of a message that names no destination (a write() to a
 * descriptor handed down, as a set-user-ID program's output); but the
 * agent is the socket, read and answered by whoever holds it, so a
 * socket a user opened and lent to the root side, which sends REGISTER
 * on it with sendto(), must not become that user's agent either.
 */
static bool may_register(const struct sk_buff *const skb)
{
	const struct socket *const sock = NETLINK_CB(skb).sk->sk_socket;

	return netlink_ns_capable(skb, &init_user_ns, CAP_MAC_ADMIN) &&
	       sock && sock->file &&
	       file_ns_capable(sock->file, &init_user_ns, CAP_MAC_ADMIN);
}

/*
 * The sender's socket, as the agent it is: its port is not enough, since
 * another socket may bind a port between its socket's release and the
 * notice of it (ask.c).
 */
static u64 sender_cookie(const struct sk_buff *const skb)
{
	return sock_gen_cookie(NETLINK_CB(skb).sk);
}

static int agent_register(struct sk_buff *const skb,
			  struct genl_info *const info)
{
	kuid_t uid;

	if (GENL_REQ_ATTR_CHECK(info, PFSEL_ATTR_UID))
		return -EINVAL;
	uid = make_kuid(&init_user_ns,
			nla_get_u32(info->attrs[PFSEL_ATTR_UID]));
	if (!may_register(skb))
		return pfsel_admin_refuse("register",
					  uid_valid(uid) ? PFSEL_SLOT_USER :
							   PFSEL_SLOT_COUNT,
					  uid);
	if (!uid_valid(uid))
		return -EINVAL;
	return pfsel_ask_register(uid, info->snd_portid, sender_cookie(skb),
				  NETLINK_CB(skb).sk, task_tgid(current));
}

static int agent_unregister(struct sk_buff *const skb,
			    struct genl_info *const info)
{
	return pfsel_ask_unregister(info->snd_portid, sender_cookie(skb));
}

/* Only the registered socket answers; another's try is audited. */
static int agent_answer(struct sk_buff *const skb,
			struct genl_info *const info)
{
	int err;

	if (GENL_REQ_ATTR_CHECK(info, PFSEL_ATTR_ID) ||
	    GENL_REQ_ATTR_CHECK(info, PFSEL_ATTR_VERDICT) ||
	    GENL_REQ_ATTR_CHECK(info, PFSEL_ATTR_SCOPE))
		return -EINVAL;
	err = pfsel_ask_answer(info->snd_portid, sender_cookie(skb),
			       nla_get_u64(info->attrs[PFSEL_ATTR_ID]),
			       nla_get_u8(info->attrs[PFSEL_ATTR_VERDICT]),
			       nla_get_u8(info->attrs[PFSEL_ATTR_SCOPE]));
	if (err == -EPERM)
		return pfsel_admin_refuse("answer", PFSEL_SLOT_COUNT,
					  GLOBAL_ROOT_UID);
	return err;
}

static const struct genl_small_ops pfsel_agent_ops[] = {
	{
		.cmd = PFSEL_CMD_REGISTER,
		.doit = agent_register,
	},
	{
		.cmd = PFSEL_CMD_UNREGISTER,
		.doit = agent_unregister,
	},
	{
		.cmd = PFSEL_CMD_ANSWER,
		.doit = agent_answer,
	},
};

static int agent_socket_released(struct notifier_block *const nb,
				 const unsigned long event, void *const ptr)
{
	const struct netlink_notify *const n = ptr;

	if (event == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net) && n->portid)
		pfsel_ask_socket_gone(n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block pfsel_agent_notifier = {
	.notifier_call = agent_socket_released,
};

static int __init pfsel_agent_init(void)
{
	int err;

	if (!pfsel_initialized)
		return 0;
	err = netlink_register_notifier(&pfsel_agent_notifier);
	if (err)
		goto err;
	err = pfsel_netlink_register(pfsel_agent_ops,
				     ARRAY_SIZE(pfsel_agent_ops));
	if (err) {
		netlink_unregister_notifier(&pfsel_agent_notifier);
		goto err;
	}
	return 0;

err:
	pr_err("Failed to register the generic netlink family: %d\n", err);
	return 0;
}

/* Generic netlink is ready at subsys_initcall. */
device_initcall(pfsel_agent_init);
