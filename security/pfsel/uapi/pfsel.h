/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pfsel LSM - User space API
 *
 * pfsel is a per-user, per-application network firewall.  Its control
 * interface lives in securityfs, under /sys/kernel/security/pfsel/.
 */

#ifndef _UAPI_LINUX_PFSEL_H
#define _UAPI_LINUX_PFSEL_H

/**
 * PFSEL_ABI_VERSION - Version of the pfsel user space interface
 *
 * Reported on the "version" line of /sys/kernel/security/pfsel/status.
 * It grows by one whenever a file, a line format or a message of this
 * interface changes in a way that user space can observe.
 */
#define PFSEL_ABI_VERSION 1

/* The enums below are made from the tables of pfsel_names.h. */
#include "pfsel_names.h"

/**
 * enum pfsel_mode - Enforcement mode
 *
 * @PFSEL_MODE_PERMISSIVE: decisions are computed, counted and audited, but
 *                         every access is allowed.
 * @PFSEL_MODE_ENFORCING: denials are returned to the caller.
 *
 * The mode is printed by name on the "mode" line of the status file.
 */
enum pfsel_mode {
#define PFSEL_MODE(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_MODE
};

/*
 * The generic netlink family "pfsel" (PFSEL_GENL_NAME, version
 * PFSEL_GENL_VERSION), in the initial network namespace: how the kernel
 * asks a user's agent about a request that a policy rule says to "ask".
 *
 * The root side makes an agent: a process with CAP_MAC_ADMIN in the
 * initial user namespace (that opened the socket too) sends
 * PFSEL_CMD_REGISTER with PFSEL_ATTR_UID; from then on that socket is the
 * agent of that uid (one per uid; a newer registration of the same uid
 * replaces the older), whoever holds it, and the registering process may
 * load that uid's policy.  The process may drop to the uid: the user's
 * other programs can neither register, nor answer, nor load.  Without
 * PFSEL_ATTR_UID: EINVAL; without the capability: EPERM.  The kernel sends it
 * PFSEL_CMD_ASK, unicast, for every question of that uid, and the agent
 * replies with PFSEL_CMD_ANSWER.  Only the registered socket can answer its
 * uid's questions; an answer to an unknown or expired id fails with ENOENT,
 * one from another socket with EPERM.  Closing the socket unregisters it:
 * its pending questions get the policy's unanswered verdict at once.
 */
#define PFSEL_GENL_NAME "pfsel"
#define PFSEL_GENL_VERSION 1

/**
 * enum pfsel_cmd - Commands of the pfsel generic netlink family
 *
 * @PFSEL_CMD_UNSPEC: unused.
 * @PFSEL_CMD_REGISTER: root side to kernel: make the sending socket the
 *                      agent of uid UID.  Attributes: UID.
 * @PFSEL_CMD_UNREGISTER: agent to kernel: stop being the agent.
 * @PFSEL_CMD_ASK: kernel to agent: a question.  Attributes: ID, PID, TGID,
 *                 UID, EXE, SCRIPT (when there is one), COMM, OP, FAMILY,
 *                 PROTO, LADDR, LPORT, RADDR, RPORT, POLICY, RULE_FILE,
 *                 RULE_LINE, RULE_COL, TIMEOUT_MS.
 * @PFSEL_CMD_ANSWER: agent to kernel: the answer to question ID.
 *                    Attributes: ID, VERDICT, SCOPE.
 * @__PFSEL_CMD_MAX: number of commands.
 */
enum pfsel_cmd {
	PFSEL_CMD_UNSPEC,
	PFSEL_CMD_REGISTER,
	PFSEL_CMD_UNREGISTER,
	PFSEL_CMD_ASK,
	PFSEL_CMD_ANSWER,
	__PFSEL_CMD_MAX,
};

#define PFSEL_CMD_MAX (__PFSEL_CMD_MAX - 1)

/**
 * enum pfsel_attr - Attributes of the pfsel generic netlink family
 *
 * @PFSEL_ATTR_UNSPEC: unused.
 * @PFSEL_ATTR_ID: u64, the question's id, unique since boot.
 * @PFSEL_ATTR_PID: u32, thread id of the asking task (initial pid ns).
 * @PFSEL_ATTR_TGID: u32, its process id.
 * @PFSEL_ATTR_UID: u32, its real uid (in ASK); the agent's user (in
 *                  REGISTER).
 * @PFSEL_ATTR_EXE: string, the application's executable ("?" if unnamed).
 * @PFSEL_ATTR_SCRIPT: string, the application's script, when it has one.
 * @PFSEL_ATTR_COMM: string, the task's comm.
 * @PFSEL_ATTR_OP: u8, enum pfsel_op (uapi/linux/pfsel_policy.h).
 * @PFSEL_ATTR_FAMILY: u8, enum pfsel_family, or PFSEL_FAMILY_PACKET.
 * @PFSEL_ATTR_PROTO: u8, enum pfsel_proto.
 * @PFSEL_ATTR_LADDR: 16 bytes, local address (IPv4 as IPv4-mapped IPv6).
 * @PFSEL_ATTR_LPORT: u16, local port, host order.
 * @PFSEL_ATTR_RADDR: 16 bytes, remote address (the request's address).
 * @PFSEL_ATTR_RPORT: u16, the request's port, host order.
 * @PFSEL_ATTR_POLICY: u8, which policy asked: enum pfsel_policy_slot.
 * @PFSEL_ATTR_RULE_FILE: string, source file of the rule that asked.
 * @PFSEL_ATTR_RULE_LINE: u32, its line.
 * @PFSEL_ATTR_RULE_COL: u32, its column.
 * @PFSEL_ATTR_TIMEOUT_MS: u32, how long the caller waits.
 * @PFSEL_ATTR_VERDICT: u8, enum pfsel_answer_verdict.
 * @PFSEL_ATTR_SCOPE: u8, enum pfsel_scope.
 * @PFSEL_ATTR_PAD: padding of the 64-bit attributes.
 * @PFSEL_ATTR_SECCTX: string, the asking task's security context as the
 *                     major LSM names it (an SELinux context, an AppArmor
 *                     label), at most 255 bytes; absent without such an
 *                     LSM, or when the context is longer.
 * @PFSEL_ATTR_UNANSWERED: u8, enum pfsel_answer_verdict: what the asking
 *                         call gets when no answer comes in time (the
 *                         policy's "unanswered" setting), so that the
 *                         agent can tell the person.
 * @PFSEL_ATTR_HOSTS: string, the host names the kernel knows for the
 *                    request's address (learned from DNS answers, newest
 *                    first), separated by ','; absent when it knows none.
 *                    At most PFSEL_HOSTS_TEXT_MAX bytes with the NUL.
 * @__PFSEL_ATTR_MAX: number of attributes.
 */
enum pfsel_attr {
	PFSEL_ATTR_UNSPEC,
	PFSEL_ATTR_ID,
	PFSEL_ATTR_PID,
	PFSEL_ATTR_TGID,
	PFSEL_ATTR_UID,
	PFSEL_ATTR_EXE,
	PFSEL_ATTR_SCRIPT,
	PFSEL_ATTR_COMM,
	PFSEL_ATTR_OP,
	PFSEL_ATTR_FAMILY,
	PFSEL_ATTR_PROTO,
	PFSEL_ATTR_LADDR,
	PFSEL_ATTR_LPORT,
	PFSEL_ATTR_RADDR,
	PFSEL_ATTR_RPORT,
	PFSEL_ATTR_POLICY,
	PFSEL_ATTR_RULE_FILE,
	PFSEL_ATTR_RULE_LINE,
	PFSEL_ATTR_RULE_COL,
	PFSEL_ATTR_TIMEOUT_MS,
	PFSEL_ATTR_VERDICT,
	PFSEL_ATTR_SCOPE,
	PFSEL_ATTR_PAD,
	PFSEL_ATTR_SECCTX,
	PFSEL_ATTR_UNANSWERED,
	PFSEL_ATTR_HOSTS,
	__PFSEL_ATTR_MAX,
};

#define PFSEL_ATTR_MAX (__PFSEL_ATTR_MAX - 1)

/**
 * enum pfsel_answer_verdict - What an agent answers
 *
 * @PFSEL_ANSWER_ALLOW: let the call proceed.
 * @PFSEL_ANSWER_DENY: fail it with EACCES.
 */
enum pfsel_answer_verdict {
#define PFSEL_ANSWER(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_ANSWER
};

/**
 * enum pfsel_scope - How long an answer holds
 *
 * @PFSEL_SCOPE_ONCE: this call only.
 * @PFSEL_SCOPE_PROCESS: the same question from the same process (tgid),
 *                       until it exits or the next policy load.
 * @PFSEL_SCOPE_SESSION: the same question from any process of the uid,
 *                       until the agent unregisters or the next policy
 *                       load.
 * @PFSEL_SCOPE_ALWAYS: as SESSION in the kernel; the agent makes it
 *                      permanent by adding a rule to the user's policy.
 *
 * "The same question" is the same uid, application, operation, protocol
 * and endpoint class of the policy that asked.
 */
enum pfsel_scope {
#define PFSEL_SCOPE(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_SCOPE
};

/**
 * enum pfsel_policy_slot - Which of a request's two policies
 *
 * @PFSEL_SLOT_SYSTEM: the administrator's system policy.
 * @PFSEL_SLOT_USER: the policy of the process's real uid.
 * @PFSEL_SLOT_COUNT: number of slots.
 *
 * The value of PFSEL_ATTR_POLICY.
 */
enum pfsel_policy_slot {
#define PFSEL_SLOT(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_SLOT
	PFSEL_SLOT_COUNT
};

/**
 * enum pfsel_refusal - What pfsel refuses with no rule deciding
 *
 * Calls that no rule can allow (LANGUAGE.md, sections 6 and 7: families
 * that reach IP peers unseen, source routes, the path manager's MPTCP
 * subflows), the refusals that keep a protected application's identity
 * its own (LANGUAGE.md, section 4, "Protected applications"; section 5),
 * and a change of what is in force by a process that may not make it
 * (docs/kernel-interface.md, "Who may do what").  Each is audited as a
 * denial, its name in the record's refused= field.
 *
 * @PFSEL_REFUSAL_COUNT: number of refusals.
 */
enum pfsel_refusal {
#define PFSEL_REFUSAL(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_REFUSAL
	PFSEL_REFUSAL_COUNT
};

#endif /* _UAPI_LINUX_PFSEL_H */
