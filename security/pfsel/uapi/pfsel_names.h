/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * pfsel - the vocabulary and the limits that the kernel and user space share
 *
 * Every set of names pfsel reads or writes (operations, protocols, verdicts,
 * families, an agent's answers and their scopes, the two policies, the
 * modes, what is refused with no rule deciding) is one table here, as
 * SELinux keeps its classes in one classmap: each entry gives an
 * enumerator, its name (as the policy language, the audit record, the
 * check file and the tools write it) and its value, once.
 *
 * The tables are read the way the LSM hooks are read from
 * <linux/lsm_hook_defs.h>: define the entry macro, include this file, undefine
 * it.  The enums of pfsel_policy.h (the binary format) and pfsel.h (the
 * netlink family, securityfs) are made so; a table of names is made so:
 *
 *	static const char *const op_names[PFSEL_OP_COUNT] = {
 *	#define PFSEL_OP(id, name, value) \
 *		[PFSEL_CHECKED_INDEX(id, value)] = (name),
 *	#include <linux/pfsel_names.h>
 *	#undef PFSEL_OP
 *	};
 *
 * Values are ABI (the policy format, the netlink attributes): an entry is
 * never renumbered or reordered.  Each table is dense from 0 and in order
 * of value, so the enums count them; PFSEL_CHECKED_INDEX() asserts it, entry
 * by entry, wherever a table of names is made.
 *
 * The table part has no include guard: only the limits are guarded.  The
 * kernel's own cache sizes are in security/pfsel/cache_limits.h.
 */
#ifndef _UAPI_LINUX_PFSEL_NAMES_H
#define _UAPI_LINUX_PFSEL_NAMES_H

/*
 * PFSEL_ATTR_FAMILY, and the family of a check request, of a packet socket:
 * it has no family.  Named as its protocol is, "packet".
 */
#define PFSEL_FAMILY_PACKET 0xff

/*
 * An entry's enumerator as an array index, checked against its value: for
 * an entry out of order the index is void, and the table fails to build.
 * Every table of names is indexed so.
 */
#define PFSEL_CHECKED_INDEX(id, value) \
	__builtin_choose_expr((id) == (value), (id), (void)0)

/* Longest string (a path) in a policy's string table, in bytes. */
#define PFSEL_POLICY_MAX_STRING 4096u

/*
 * Host names (policy/LANGUAGE.md, "Host names"): a name is at most
 * PFSEL_HOST_NAME_MAX characters (the presentation form without the final
 * dot); the kernel keeps at most PFSEL_HOSTS_PER_ADDR names per address, so
 * the list of them in a question or an audit record ("a.example,b.example")
 * fits in PFSEL_HOSTS_TEXT_MAX bytes with its NUL.
 */
#define PFSEL_HOST_NAME_MAX 253u
#define PFSEL_HOSTS_PER_ADDR 8u
#define PFSEL_HOSTS_TEXT_MAX (PFSEL_HOSTS_PER_ADDR * (PFSEL_HOST_NAME_MAX + 1))

/* Bounds of a policy's ask timeout ("ask timeout ...;"), in milliseconds. */
#define PFSEL_ASK_TIMEOUT_MIN_MS 1u
#define PFSEL_ASK_TIMEOUT_MAX_MS 600000u

/* Questions a uid may have waiting for its agent at once. */
#define PFSEL_ASK_MAX_PENDING 64
/* Process and session answers the kernel keeps for one uid. */
#define PFSEL_ASK_MAX_ANSWERS_PER_UID 256

/* The AVC's threshold (avc/cache_threshold): its default and bounds. */
#define PFSEL_AVC_THRESHOLD_DEFAULT 512
#define PFSEL_AVC_THRESHOLD_MIN 1
#define PFSEL_AVC_THRESHOLD_MAX 65536

#endif /* _UAPI_LINUX_PFSEL_NAMES_H */

/* Operations: enum pfsel_op (indexes, not bits). */
#ifdef PFSEL_OP
PFSEL_OP(PFSEL_OP_CREATE, "create", 0)
PFSEL_OP(PFSEL_OP_BIND, "bind", 1)
PFSEL_OP(PFSEL_OP_CONNECT, "connect", 2) /* also sends naming a destination */
PFSEL_OP(PFSEL_OP_LISTEN, "listen", 3)
PFSEL_OP(PFSEL_OP_ACCEPT, "accept", 4)
#endif

/* Protocols: enum pfsel_proto (indexes, not bits). */
#ifdef PFSEL_PROTO
PFSEL_PROTO(PFSEL_PROTO_TCP, "tcp", 0)
PFSEL_PROTO(PFSEL_PROTO_UDP, "udp", 1)
PFSEL_PROTO(PFSEL_PROTO_ICMP, "icmp", 2)
PFSEL_PROTO(PFSEL_PROTO_RAW, "raw", 3)
PFSEL_PROTO(PFSEL_PROTO_PACKET, "packet", 4)
#endif

/* A policy's verdicts: enum pfsel_verdict. */
#ifdef PFSEL_VERDICT
PFSEL_VERDICT(PFSEL_VERDICT_ALLOW, "allow", 0)
PFSEL_VERDICT(PFSEL_VERDICT_DENY, "deny", 1)
PFSEL_VERDICT(PFSEL_VERDICT_ASK, "ask", 2)
#endif

/* Socket families: enum pfsel_family (and PFSEL_FAMILY_PACKET above). */
#ifdef PFSEL_FAMILY
PFSEL_FAMILY(PFSEL_FAMILY_INET, "inet", 0)
PFSEL_FAMILY(PFSEL_FAMILY_INET6, "inet6", 1)
#endif

/* What an agent answers: enum pfsel_answer_verdict. */
#ifdef PFSEL_ANSWER
PFSEL_ANSWER(PFSEL_ANSWER_ALLOW, "allow", 0)
PFSEL_ANSWER(PFSEL_ANSWER_DENY, "deny", 1)
#endif

/* How long an answer holds: enum pfsel_scope. */
#ifdef PFSEL_SCOPE
PFSEL_SCOPE(PFSEL_SCOPE_ONCE, "once", 0)
PFSEL_SCOPE(PFSEL_SCOPE_PROCESS, "process", 1)
PFSEL_SCOPE(PFSEL_SCOPE_SESSION, "session", 2)
PFSEL_SCOPE(PFSEL_SCOPE_ALWAYS, "always", 3)
#endif

/* Which of a request's two policies: enum pfsel_policy_slot. */
#ifdef PFSEL_SLOT
PFSEL_SLOT(PFSEL_SLOT_SYSTEM, "system", 0)
PFSEL_SLOT(PFSEL_SLOT_USER, "user", 1)
#endif

/* The enforcement mode, of pfsel or of one policy: enum pfsel_mode. */
#ifdef PFSEL_MODE
PFSEL_MODE(PFSEL_MODE_PERMISSIVE, "permissive", 0)
PFSEL_MODE(PFSEL_MODE_ENFORCING, "enforcing", 1)
#endif

/*
 * What pfsel refuses with no rule deciding, named by the refused= field of
 * its audit record (docs/kernel-interface.md, "Audit"): enum pfsel_refusal.
 */
#ifdef PFSEL_REFUSAL
/* socket() of a family that reaches IP peers through the kernel's sockets */
PFSEL_REFUSAL(PFSEL_REFUSED_FAMILY, "family", 0)
/* an IPv6 routing header, set on a socket or sent with a message */
PFSEL_REFUSAL(PFSEL_REFUSED_ROUTING_HEADER, "routing-header", 1)
/* IPv4 options (a loose or strict source route among them) */
PFSEL_REFUSAL(PFSEL_REFUSED_IP_OPTIONS, "ip-options", 2)
/* control messages a send left where the hook cannot read them */
PFSEL_REFUSAL(PFSEL_REFUSED_UNREAD_CONTROL, "unread-control", 3)
/* an MPTCP subflow the kernel's path manager would open later */
PFSEL_REFUSAL(PFSEL_REFUSED_MPTCP_SUBFLOW, "mptcp-subflow", 4)
/* execve() of a protected application: traced */
PFSEL_REFUSAL(PFSEL_REFUSED_TRACED, "traced", 5)
/* ... under a seccomp filter */
PFSEL_REFUSAL(PFSEL_REFUSED_SECCOMP, "seccomp", 6)
/* ... sharing its filesystem context with another process or thread */
PFSEL_REFUSAL(PFSEL_REFUSED_SHARED_FS, "shared-fs", 7)
/* ... from a root directory other than init's */
PFSEL_REFUSAL(PFSEL_REFUSED_PRIVATE_ROOT, "private-root", 8)
/* ... a protected script, with a variable its interpreter runs code from */
PFSEL_REFUSAL(PFSEL_REFUSED_SCRIPT_ENVIRONMENT, "script-environment", 9)
/* an open of another file at a script's path, before the script's own */
PFSEL_REFUSAL(PFSEL_REFUSED_SCRIPT_PATH, "script-path", 10)
/* a change of what is in force, by a process that may not make it */
PFSEL_REFUSAL(PFSEL_REFUSED_ADMIN, "admin", 11)
#endif
