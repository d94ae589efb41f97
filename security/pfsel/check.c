// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The check file: what would the policies in force decide?
 *
 * /sys/kernel/security/pfsel/check is a transaction file, like SELinux's
 * "access": write a request, then read the decision on the same open
 * file.  The request is one "KEY VALUE" pair per line:
 *
 *   uid 1001              the user (default: the opener's real uid)
 *   exe /usr/bin/curl     the executable (default: unnamed)
 *   script /path          the script, if any
 *   op connect            create, bind, connect, listen or accept
 *   proto tcp             tcp, udp, icmp, raw or packet
 *   family inet           inet or inet6: for create only
 *   addr 192.0.2.1        IPv4 or IPv6; not for create
 *   port 443              not for create
 *
 * and the answer is:
 *
 *   verdict deny          what applies: allow, deny or ask
 *   system allow default  each policy: its verdict and the deciding rule
 *   user deny /home/alice/.pfw:3:1
 *
 * with "none" for a policy that is not loaded.  Nothing is cached, asked
 * or audited.  Asking about another user's policy needs CAP_MAC_ADMIN,
 * as loading it does.
 */

#include <linux/ctype.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/nsproxy.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "admin.h"
#include "app.h"
#include "check.h"
#include "common.h"
#include "hostmap.h"
#include "netns.h"
#include "names.h"
#include "policy.h"

/* A request of the check file, as parsed. */
struct pfsel_check_query {
	kuid_t uid;
	char *exe;
	char *script;
	int op;
	int proto;
	int family;
	bool has_addr;
	u8 addr[16];
	bool has_port;
	u16 port;
};

static int parse_addr(const char *const text, u8 addr[16])
{
	if (in4_pton(text, -1, addr + 12, '\0', NULL)) {
		memset(addr, 0, 10);
		addr[10] = 0xff;
		addr[11] = 0xff;
		return 0;
	}
	if (in6_pton(text, -1, addr, '\0', NULL))
		return 0;
	return -EINVAL;
}

static int parse_line(struct pfsel_check_query *const q, char *const line)
{
	char *value = strchr(line, ' ');
	u32 number;

	if (!value)
		return -EINVAL;
	*value++ = '\0';

	if (!strcmp(line, "uid")) {
		if (kstrtou32(value, 10, &number))
			return -EINVAL;
		q->uid = make_kuid(&init_user_ns, number);
		return uid_valid(q->uid) ? 0 : -EINVAL;
	}
	if (!strcmp(line, "exe") || !strcmp(line, "script")) {
		char **const field = line[0] == 'e' ? &q->exe : &q->script;

		if (value[0] != '/' || *field)
			return -EINVAL;
		*field = kstrdup(value, GFP_KERNEL);
		return *field ? 0 : -ENOMEM;
	}
	if (!strcmp(line, "op")) {
		q->op = pfsel_value_of(pfsel_op_names, PFSEL_OP_COUNT, value);
		return q->op < 0 ? q->op : 0;
	}
	if (!strcmp(line, "proto")) {
		q->proto = pfsel_value_of(pfsel_proto_names, PFSEL_PROTO_COUNT,
					  value);
		return q->proto < 0 ? q->proto : 0;
	}
	if (!strcmp(line, "family")) {
		q->family = pfsel_value_of(pfsel_family_names,
					   PFSEL_FAMILY_COUNT, value);
		return q->family < 0 ? q->family : 0;
	}
	if (!strcmp(line, "addr")) {
		q->has_addr = true;
		return parse_addr(value, q->addr);
	}
	if (!strcmp(line, "port")) {
		q->has_port = true;
		return kstrtou16(value, 10, &q->port);
	}
	return -EINVAL;
}

/* Parses @text into @q and checks that the request is complete. */
static int parse_query(struct pfsel_check_query *const q, char *text)
{
	char *line;
	int err;

	while ((line = strsep(&text, "\n"))) {
		if (!*line)
			continue;
		err = parse_line(q, line);
		if (err)
			return err;
	}
	if (q->op < 0 || q->proto < 0)
		return -EINVAL;
	if (q->op == PFSEL_OP_CREATE) {
		if (q->has_addr || q->has_port ||
		    (q->family < 0 && q->proto != PFSEL_PROTO_PACKET))
			return -EINVAL;
		pfsel_policydb_family_addr(q->family, q->addr);
	} else if (!q->has_addr || q->family >= 0 ||
		   q->proto == PFSEL_PROTO_PACKET) {
		return -EINVAL;
	}
	if (q->proto != PFSEL_PROTO_TCP && q->proto != PFSEL_PROTO_UDP)
		q->port = 0;
	return 0;
}

/* The walk over the names the kernel knows for the checked address. */
struct check_names {
	const struct pfsel_policydb *db;
	u32 app, op, proto, port;
	struct pfsel_decision *res;
};

static bool check_one_name(const struct pfsel_hostmap_name *const name,
			   void *const arg)
{
	const struct check_names *const c = arg;

	return !pfsel_policydb_decide_also_by_name(c->db, c->app, c->op,
						   c->proto, c->port,
						   name->name, name->len,
						   c->res);
}

/*
 * The decision as the kernel would make it for a socket of the writer's
 * network namespace: host rules see the names known for the address there.
 */
static int check_decide(const struct pfsel_policydb *const db, const u32 app,
			const struct pfsel_check_query *const q,
			struct pfsel_decision *const res)
{
	struct check_names c = {
		.db = db,
		.app = app,
		.op = q->op,
		.proto = q->proto,
		.port = pfsel_policydb_classify_port(db, q->port),
		.res = res,
	};
	int err;

	err = pfsel_policydb_decide(db, app, q->op, q->proto,
				    pfsel_policydb_classify_addr(db, q->addr),
				    c.port, res);
	if (err || !res->names || q->op == PFSEL_OP_CREATE)
		return err;
	pfsel_hostmap_names(pfsel_net_hosts(current->nsproxy->net_ns), q->addr,
			    q->uid, check_one_name, &c);
	return 0;
}

static int show_policy(char *const buf, const size_t size,
		       const char *const name,
		       const struct pfsel_policy *const policy,
		       struct pfsel_app *const app,
		       const struct pfsel_check_query *const q, u32 *const verdict)
{
	const struct pfsel_policydb *db;
	struct pfsel_decision res;
	struct pfsel_string file;
	u32 line, col;

	if (!policy)
		return scnprintf(buf, size, "%s none\n", name);
	db = policy->db;
	if (check_decide(db, pfsel_app_class(app, policy), q, &res))
		return -EINVAL;
	*verdict = res.verdict;
	if (res.rule == PFSEL_NONE ||
	    pfsel_policydb_rule_source(db, res.rule, &file, &line, &col))
		return scnprintf(buf, size, "%s %s default\n", name,
				 pfsel_verdict_names[res.verdict]);
	return scnprintf(buf, size, "%s %s %.*s:%u:%u\n", name,
			 pfsel_verdict_names[res.verdict], file.len, file.s,
			 line, col);
}

/* deny > ask > allow, as decide.c orders them. */
static u32 stricter(const u32 a, const u32 b)
{
	if (a == PFSEL_VERDICT_DENY || b == PFSEL_VERDICT_DENY)
		return PFSEL_VERDICT_DENY;
	if (a == PFSEL_VERDICT_ASK || b == PFSEL_VERDICT_ASK)
		return PFSEL_VERDICT_ASK;
	return PFSEL_VERDICT_ALLOW;
}

static ssize_t answer(const struct pfsel_check_query *const q, char *const buf,
		      const size_t size)
{
	u32 sys = PFSEL_VERDICT_ALLOW, user = PFSEL_VERDICT_ALLOW;
	struct pfsel_app *app;
	char *lines;
	int a, b;

	app = kzalloc(sizeof(*app), GFP_KERNEL);
	lines = kzalloc(size, GFP_KERNEL);
	if (!app || !lines) {
		kfree(app);
		kfree(lines);
		return -ENOMEM;
	}
	kref_init(&app->usage);
	app->exe = q->exe;
	app->script = q->script;
	app->has_script = !!q->script;

	rcu_read_lock();
	a = show_policy(lines, size, pfsel_slot_names[PFSEL_SLOT_SYSTEM],
			pfsel_policy_system(), app, q, &sys);
	b = a < 0 ? a :
		    show_policy(lines + a, size - a,
				pfsel_slot_names[PFSEL_SLOT_USER],
				pfsel_policy_user(q->uid), app, q, &user);
	rcu_read_unlock();
	kfree(app);

	if (b < 0) {
		kfree(lines);
		return b;
	}
	b = scnprintf(buf, size, "verdict %s\n%s",
		      pfsel_verdict_names[stricter(sys, user)], lines);
	kfree(lines);
	return b;
}

static ssize_t check_write(struct file *const file,
			   const char __user *const ubuf, const size_t count,
			   loff_t *const ppos)
{
	struct pfsel_check_query q = {
		.uid = file->f_cred->uid,
		.op = -1,
		.proto = -1,
		.family = -1,
	};
	char *text;
	ssize_t len;

	text = simple_transaction_get(file, ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);

	len = parse_query(&q, text);
	if (len)
		goto out;
	if (!uid_eq(q.uid, file->f_cred->uid) &&
	    !pfsel_may_admin(file->f_cred)) {
		len = -EPERM;
		goto out;
	}
	/* The answer replaces the request in the transaction buffer. */
	len = answer(&q, text, SIMPLE_TRANSACTION_LIMIT);
	if (len >= 0) {
		simple_transaction_set(file, len);
		len = count;
	}
out:
	kfree(q.exe);
	kfree(q.script);
	return len;
}

const struct file_operations pfsel_check_fops = {
	.write = check_write,
	.read = simple_transaction_read,
	.release = simple_transaction_release,
	.llseek = generic_file_llseek,
};
