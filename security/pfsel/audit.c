// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Audit records of decisions and changes
 *
 * One AUDIT_PFSEL_ACCESS record per audited decision, with every field an
 * administrator needs to understand it and audit2pfw needs to turn it into
 * a rule: who (pid, uids, session, comm, exe, application), what (the
 * operation, protocol and addresses), and why (the policy and the rule, by
 * file and line).  docs/kernel-interface.md lists the fields.
 *
 * A refusal that no rule decides (a source route, a family that reaches
 * IP peers unseen, the execve() of a protected application under a
 * tracer) gets the same record, as a denial, with refused= saying what
 * was refused instead of the rule: the person who meets the EACCES or
 * EPERM, pfsel log and audit2pfw see why.
 *
 * Records are rate limited: a process looping on a denied call must not
 * flood the audit log, nor the kernel log when auditd is not running.
 *
 * A change of what is in force (change.c) gets a record too: a switch of
 * the global mode, a policy loaded or unloaded.
 */

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "audit.h"
#include "common.h"
#include "hostmap.h"
#include "netns.h"
#include "names.h"

/* At most 500 records per 5 seconds, in bursts. */
static DEFINE_RATELIMIT_STATE(pfsel_audit_ratelimit, 5 * HZ, 500);

static void log_addr(struct audit_buffer *const ab, const char *const key,
		     const u8 *const addr, const u16 port,
		     const char *const port_key)
{
	if (pfsel_addr_is_inet(addr))
		audit_log_format(ab, " %s=%pI4 %s=%u", key, addr + 12,
				 port_key, port);
	else
		audit_log_format(ab, " %s=%pI6c %s=%u", key, addr, port_key,
				 port);
}

static void log_path(struct audit_buffer *const ab, const char *const key,
		     const char *const path)
{
	audit_log_format(ab, " %s=", key);
	if (path)
		audit_log_untrustedstring(ab, path);
	else
		audit_log_format(ab, "?");
}

static void log_rule(struct audit_buffer *const ab,
		     const struct pfsel_policy *const policy, const u32 rule)
{
	struct pfsel_string file;
	u32 line, col;

	if (rule == PFSEL_NONE ||
	    pfsel_policydb_rule_source(policy->db, rule, &file, &line, &col)) {
		audit_log_format(ab, " rule=default");
		return;
	}
	audit_log_format(ab, " rule=");
	audit_log_n_untrustedstring(ab, file.s, file.len);
	audit_log_format(ab, ":%u:%u", line, col);
}

/*
 * The host names the kernel knows for the request's address: what made
 * a host rule match, or what a person reading the record would look for.
 * Absent when it knows none.
 */
static void log_hosts(struct audit_buffer *const ab,
		      const struct pfsel_request *const request,
		      const kuid_t uid)
{
	const struct pfsel_hostmap *const names = pfsel_net_hosts(request->net);
	char *hosts;

	if (request->op == PFSEL_OP_CREATE ||
	    !pfsel_hostmap_known(names, request->addr))
		return;
	hosts = kmalloc(PFSEL_HOSTS_TEXT_MAX, GFP_ATOMIC | __GFP_NOWARN);
	if (!hosts)
		return;
	if (pfsel_hostmap_format(names, request->addr, uid, hosts,
				 PFSEL_HOSTS_TEXT_MAX)) {
		audit_log_format(ab, " hosts=");
		audit_log_untrustedstring(ab, hosts);
	}
	kfree(hosts);
}

/* An AUDIT_PFSEL_ACCESS record, unless audit is off or over its rate. */
static struct audit_buffer *access_record_start(void)
{
	if (!audit_enabled || !__ratelimit(&pfsel_audit_ratelimit))
		return NULL;
	return audit_log_start(audit_context(), GFP_ATOMIC | __GFP_NOWARN,
			       AUDIT_PFSEL_ACCESS);
}

/* The request's family, protocol and the addresses its operation has. */
static void log_request(struct audit_buffer *const ab,
			const struct pfsel_request *const request)
{
	const char *family;

	/* A packet socket has no family: it is named as its protocol. */
	if (request->proto == PFSEL_PROTO_PACKET)
		family = pfsel_proto_names[PFSEL_PROTO_PACKET];
	else if (request->family == PFSEL_FAMILY_INET6)
		family = pfsel_family_names[PFSEL_FAMILY_INET6];
	else
		family = pfsel_family_names[PFSEL_FAMILY_INET];
	audit_log_format(ab, " family=%s", family);
	audit_log_format(ab, " protocol=%s",
			 pfsel_name_of(pfsel_proto_names, PFSEL_PROTO_COUNT,
				       request->proto));
	if (request->op == PFSEL_OP_CREATE) {
		audit_log_format(ab, " laddr=? lport=? raddr=? rport=?");
	} else if (request->op == PFSEL_OP_BIND ||
		   request->op == PFSEL_OP_LISTEN) {
		log_addr(ab, "laddr", request->addr, request->port, "lport");
		audit_log_format(ab, " raddr=? rport=?");
	} else if (request->op == PFSEL_OP_ACCEPT) {
		/* The peer's port is not part of the request. */
		log_addr(ab, "laddr", request->laddr, request->port, "lport");
		audit_log_format(ab, " raddr=");
		if (pfsel_addr_is_inet(request->addr))
			audit_log_format(ab, "%pI4", request->addr + 12);
		else
			audit_log_format(ab, "%pI6c", request->addr);
		audit_log_format(ab, " rport=?");
	} else {
		log_addr(ab, "laddr", request->laddr, request->lport, "lport");
		log_addr(ab, "raddr", request->addr, request->port, "rport");
	}
}

/* Who: the application, and the task, or only the uid without one. */
static void log_subject(struct audit_buffer *const ab,
			const struct pfsel_subject *const subject)
{
	log_path(ab, "app", subject->app ? subject->app->exe : NULL);
	log_path(ab, "script",
		 subject->app && subject->app->has_script ?
			 subject->app->script :
			 NULL);
	if (subject->task)
		audit_log_task_info(ab);
	else
		audit_log_format(ab, " uid=%u",
				 from_kuid(&init_user_ns, subject->uid));
}

/**
 * pfsel_audit_decision - Emit the audit record of one decision
 *
 * @subject: who made the request.
 * @request: the request.
 * @policy: the policy whose decision this is; the caller holds
 *          rcu_read_lock().
 * @decision: the policy's decision (its rule and audit flags).
 * @verdict: the verdict applied: allow or deny (an unanswered ask is
 *           already resolved).
 * @permissive: a denial that was let through.
 * @asked: for a decision the policy left to the agent, what became of the
 *         question ("answered", "kept", "unanswered"); NULL otherwise.
 *
 * Safe in any context: softirq for inbound connections.
 */
void pfsel_audit_decision(const struct pfsel_subject *const subject,
			  const struct pfsel_request *const request,
			  const struct pfsel_policy *const policy,
			  const struct pfsel_avc_decision *const decision,
			  const u32 verdict, const bool permissive,
			  const char *const asked)
{
	struct audit_buffer *const ab = access_record_start();

	if (!ab)
		return;
	audit_log_format(ab, "%s op=%s verdict=%s", PFSEL_NAME,
			 pfsel_name_of(pfsel_op_names, PFSEL_OP_COUNT,
				       request->op),
			 pfsel_name_of(pfsel_verdict_names, PFSEL_VERDICT_COUNT,
				       verdict));
	if (asked)
		audit_log_format(ab, " asked=%s", asked);
	audit_log_format(ab, " permissive=%d policy=%s", permissive,
			 pfsel_slot_names[policy->slot]);
	log_rule(ab, policy, decision->rule);
	log_request(ab, request);
	log_hosts(ab, request, subject->uid);
	log_subject(ab, subject);
	audit_log_end(ab);
}

/**
 * pfsel_audit_refusal - Emit the audit record of a refusal no rule decided
 *
 * @subject: who made the call.
 * @refused: what was refused, and on what.
 *
 * A denial's record, with refused= where a decision has its rule, and
 * only the fields the call has (docs/kernel-interface.md, "Audit").
 * Rate limited with the decisions' records.  Safe in any context.
 */
void pfsel_audit_refusal(const struct pfsel_subject *const subject,
			 const struct pfsel_refused *const refused)
{
	struct audit_buffer *const ab = access_record_start();

	if (!ab)
		return;
	audit_log_format(ab, "%s op=%s verdict=%s refused=%s", PFSEL_NAME,
			 refused->op,
			 pfsel_verdict_names[PFSEL_VERDICT_DENY],
			 pfsel_name_of(pfsel_refusal_names,
				       PFSEL_REFUSAL_COUNT, refused->what));
	audit_log_format(ab, " permissive=%d policy=%s", refused->permissive,
			 pfsel_name_of(pfsel_slot_names, PFSEL_SLOT_COUNT,
				       refused->slot));
	if (refused->family)
		audit_log_format(ab, " family=%s", refused->family);
	if (refused->request)
		log_request(ab, refused->request);
	if (refused->what == PFSEL_REFUSED_SCRIPT_ENVIRONMENT)
		log_path(ab, "variable", refused->variable);
	if (refused->has_target && refused->target_slot == PFSEL_SLOT_USER)
		audit_log_format(ab, " target=%u",
				 from_kuid(&init_user_ns, refused->target_uid));
	else if (refused->has_target)
		audit_log_format(ab, " target=%s",
				 pfsel_slot_names[PFSEL_SLOT_SYSTEM]);
	log_subject(ab, subject);
	audit_log_end(ab);
}

/**
 * pfsel_audit_mode - Emit the audit record of a switch of the global mode
 *
 * @enforcing: the new mode.
 * @old_enforcing: the mode before.
 */
void pfsel_audit_mode(const bool enforcing, const bool old_enforcing)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_MAC_STATUS);
	if (!ab)
		return;
	audit_log_format(ab, "enforcing=%d old_enforcing=%d auid=%u ses=%u",
			 enforcing, old_enforcing,
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current));
	audit_log_format(ab, " lsm=%s res=1", PFSEL_NAME);
	audit_log_end(ab);
}

/**
 * pfsel_audit_policy_change - Emit the audit record of a load or unload
 *
 * @what: "load" or "unload".
 * @slot: the system policy or a user's.
 * @uid: the user, for PFSEL_SLOT_USER.
 * @generation: the generation of the policy loaded or unloaded.
 */
void pfsel_audit_policy_change(const char *const what,
			       const enum pfsel_policy_slot slot,
			       const kuid_t uid, const u32 generation)
{
	struct audit_buffer *ab;

	ab = audit_log_start(audit_context(), GFP_KERNEL,
			     AUDIT_MAC_POLICY_LOAD);
	if (!ab)
		return;
	audit_log_format(ab, "auid=%u ses=%u lsm=%s op=%s",
			 from_kuid(&init_user_ns, audit_get_loginuid(current)),
			 audit_get_sessionid(current), PFSEL_NAME, what);
	if (slot == PFSEL_SLOT_SYSTEM)
		audit_log_format(ab, " policy=system");
	else
		audit_log_format(ab, " policy=user target=%u",
				 from_kuid(&init_user_ns, uid));
	audit_log_format(ab, " generation=%u res=1", generation);
	audit_log_end(ab);
}
