// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - bad input to the netlink family from unprivileged users
 * (docs/kernel-interface.md, "The agent interface"): answers without their
 * attributes, out of range, of the wrong size, with attributes the family
 * does not take, forged for another user's question; commands the family
 * does not have; truncated and malformed messages; random payloads.  None
 * changes anything: the question pending meanwhile is still there, and
 * its agent's answer decides it.
 *
 * The attacker writes raw netlink (raw_genl.h), since libpfsel sends none
 * of this; so does the registered agent when it answers badly
 * (AGENT_REQUEST).  The harness -- the agent child, the askers -- is
 * ask_harness.h.
 *
 * Needs root: as anyone else the test is skipped.
 */

#define _GNU_SOURCE
#include <signal.h>

#include "pfsel_test_util.h"
#include "raw_genl.h"
#include "ask_fixture.h"

/* ---- 11. bad input from unprivileged users ------------------------------ */

#define BAD(cond, ...)                                                      \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "  uid %u: ", getuid());            \
			fprintf(stderr, __VA_ARGS__);                       \
			fprintf(stderr, "\n");                              \
			failures++;                                         \
		}                                                           \
	} while (0)

/* A request of @cmd with @n attributes on the attacker's socket: its ack. */
static int request(const struct raw_genl *a, uint8_t cmd, int flags,
		   const struct raw_attr *attrs, size_t n)
{
	return raw_genl_request(a->fd, a->family, cmd, flags, attrs, n, NULL,
				NULL);
}

/* A well-formed answer, from a socket that is no agent: its ack. */
static int forged_answer(const struct raw_genl *a, uint64_t id, uint8_t verdict,
			 uint8_t scope)
{
	const struct raw_attr attrs[] = {
		{ PFSEL_ATTR_ID, sizeof(id), &id },
		{ PFSEL_ATTR_VERDICT, sizeof(verdict), &verdict },
		{ PFSEL_ATTR_SCOPE, sizeof(scope), &scope },
	};

	return request(a, PFSEL_CMD_ANSWER, 0, attrs, 3);
}

struct garbage_arg {
	uint64_t live_id; /* a question pending for 1001 */
};

static int garbage_fn(void *arg)
{
	const struct garbage_arg *ga = arg;
	const uint64_t id = ga->live_id;
	const uint8_t allow = PFSEL_ANSWER_ALLOW, once = PFSEL_SCOPE_ONCE;
	const uint8_t two = 2, four = 4, big = 255;
	const uint32_t wide = 0, pid = 1;
	const uint16_t short_id = 1;
	uint8_t buf[1024], payload[512];
	struct raw_genl a;
	unsigned int seed = 1;
	int failures = 0, ret, i;
	size_t len, plen;

	ret = raw_genl_open(&a);
	if (ret) {
		fprintf(stderr, "  uid %u: open: %s\n", getuid(),
			strerror(-ret));
		return 100;
	}

	/* ANSWER without its attributes, or with some missing. */
	ret = request(&a, PFSEL_CMD_ANSWER, 0, NULL, 0);
	BAD(ret == -EINVAL, "ANSWER without attributes: %d", ret);
	{
		const struct raw_attr only_id[] = { { PFSEL_ATTR_ID, 8, &id } };
		const struct raw_attr no_scope[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
		};

		ret = request(&a, PFSEL_CMD_ANSWER, 0, only_id, 1);
		BAD(ret == -EINVAL, "ANSWER with only an id: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, no_scope, 2);
		BAD(ret == -EINVAL, "ANSWER without a scope: %d", ret);
	}
	/* Out of range, by the family's attribute policy. */
	{
		const struct raw_attr verdict2[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &two },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct raw_attr verdict255[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &big },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct raw_attr scope4[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_SCOPE, 1, &four },
		};

		ret = request(&a, PFSEL_CMD_ANSWER, 0, verdict2, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "verdict 2: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, verdict255, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "verdict 255: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, scope4, 3);
		BAD(ret == -ERANGE || ret == -EINVAL, "scope 4: %d", ret);
	}
	/* Wrong sizes, attributes the family does not take. */
	{
		const struct raw_attr wide_verdict[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 4, &wide },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct raw_attr narrow_id[] = {
			{ PFSEL_ATTR_ID, 2, &short_id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_SCOPE, 1, &once },
		};
		const struct raw_attr with_pid[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ PFSEL_ATTR_PID, 4, &pid },
		};
		const struct raw_attr unknown[] = {
			{ PFSEL_ATTR_ID, 8, &id },
			{ PFSEL_ATTR_VERDICT, 1, &allow },
			{ 200, 4, &pid },
		};

		ret = request(&a, PFSEL_CMD_ANSWER, 0, wide_verdict, 3);
		BAD(ret == -EINVAL || ret == -ERANGE, "u32 verdict: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, narrow_id, 3);
		BAD(ret == -EINVAL || ret == -ERANGE, "u16 id: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, with_pid, 3);
		BAD(ret == -EINVAL, "ANSWER with a PID attribute: %d", ret);
		ret = request(&a, PFSEL_CMD_ANSWER, 0, unknown, 3);
		BAD(ret == -EINVAL, "ANSWER with attribute 200: %d", ret);
	}
	/* A well-formed answer to 1001's live question, from a stranger. */
	ret = forged_answer(&a, id, PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ALWAYS);
	BAD(ret == -EPERM, "forged answer to question %llu: %d",
	    (unsigned long long)id, ret);
	/* Commands the family does not have, or not from user space. */
	ret = request(&a, PFSEL_CMD_ASK, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "ASK from user space: %d", ret);
	ret = request(&a, PFSEL_CMD_UNSPEC, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "command 0: %d", ret);
	ret = request(&a, 99, 0, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "command 99: %d", ret);
	ret = request(&a, PFSEL_CMD_REGISTER, NLM_F_DUMP, NULL, 0);
	BAD(ret == -EOPNOTSUPP, "REGISTER as a dump: %d", ret);
	/* UNREGISTER from a socket that is no agent. */
	ret = request(&a, PFSEL_CMD_UNREGISTER, 0, NULL, 0);
	BAD(ret == -ENOENT, "UNREGISTER by a stranger: %d", ret);

	/* Truncated and malformed messages, by hand. */
	len = raw_genl_msg(buf, sizeof(buf), (uint16_t)a.family,
			   NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_UNREGISTER, 1,
			   0, NULL, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_HDRLEN + 2;
	ret = raw_genl_send(a.fd, buf, NLMSG_HDRLEN + 2, 200, NULL, NULL);
	BAD(ret == -EINVAL, "genl header cut short: %d", ret);
	len = raw_genl_msg(buf, sizeof(buf), (uint16_t)a.family,
			   NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_UNREGISTER, 1,
			   7, NULL, 0);
	ret = raw_genl_send(a.fd, buf, len, 200, NULL, NULL);
	BAD(ret == -EINVAL, "genl reserved field set: %d", ret);
	/* An attribute that claims more than the message holds. */
	{
		struct nlattr *nla = (struct nlattr *)payload;

		nla->nla_type = PFSEL_ATTR_ID;
		nla->nla_len = 200;
		memcpy(payload + NLA_HDRLEN, &id, 8);
		len = raw_genl_msg(buf, sizeof(buf), (uint16_t)a.family,
				   NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_ANSWER,
				   1, 0, payload, NLA_HDRLEN + 8);
		ret = raw_genl_send(a.fd, buf, len, 200, NULL, NULL);
		BAD(ret < 0 && ret != -ETIMEDOUT,
		    "attribute longer than the message: %d", ret);
	}
	/* A message that claims more than was sent: dropped, or refused. */
	len = raw_genl_msg(buf, sizeof(buf), (uint16_t)a.family,
			   NLM_F_REQUEST | NLM_F_ACK, PFSEL_CMD_REGISTER, 1, 0,
			   NULL, 0);
	((struct nlmsghdr *)buf)->nlmsg_len = 512;
	ret = raw_genl_send(a.fd, buf, len, 300, NULL, NULL);
	BAD(ret != 0, "a message longer than sent was taken: %d", ret);
	/* Shorter than a netlink header. */
	ret = raw_genl_send(a.fd, buf, 7, 300, NULL, NULL);
	BAD(ret != 0, "7 bytes were taken: %d", ret);

	/*
	 * Random payloads to the family: any command but REGISTER (which
	 * would make this socket the agent of 1001 in place of the test's),
	 * any attributes.  Only that nothing breaks is checked.
	 */
	for (i = 0; i < 500; i++) {
		uint8_t cmd = (uint8_t)rand_r(&seed);
		size_t k;

		if (i % 2)
			cmd %= 6;
		if (cmd == PFSEL_CMD_REGISTER)
			cmd = PFSEL_CMD_ANSWER;
		plen = (size_t)rand_r(&seed) % sizeof(payload);
		for (k = 0; k < plen; k++)
			payload[k] = (uint8_t)rand_r(&seed);
		/* Often a plausible attribute header first. */
		if (plen >= 4 && rand_r(&seed) % 2) {
			struct nlattr *nla = (struct nlattr *)payload;

			nla->nla_type = (uint16_t)(rand_r(&seed) % 24);
			nla->nla_len = (uint16_t)(rand_r(&seed) % (plen + 8));
		}
		len = raw_genl_msg(buf, sizeof(buf), (uint16_t)a.family,
				   NLM_F_REQUEST | NLM_F_ACK, cmd,
				   (uint8_t)rand_r(&seed) % 3, 0, payload,
				   plen);
		/* Sometimes cut the datagram short of its header's length. */
		if (rand_r(&seed) % 4 == 0)
			len = (size_t)rand_r(&seed) % (len + 1);
		/* The kernel answers while sendto() runs, if at all. */
		raw_genl_send(a.fd, buf, len, 20, NULL, NULL);
	}
	/* The socket and the family still work. */
	ret = request(&a, PFSEL_CMD_UNREGISTER, 0, NULL, 0);
	BAD(ret == -ENOENT, "UNREGISTER after the garbage: %d", ret);
	ret = forged_answer(&a, id, PFSEL_ANSWER_ALLOW, PFSEL_SCOPE_ONCE);
	BAD(ret == -EPERM, "forged answer after the garbage: %d", ret);
	raw_genl_close(&a);
	return failures > 99 ? 99 : failures;
}

TEST_F_TIMEOUT(ask, bad_messages_change_nothing, 120)
{
	struct agent_cmd c = {
		.op = AGENT_REQUEST,
		.cmd = PFSEL_CMD_ANSWER,
		.nattrs = 3,
		.attrs = { { PFSEL_ATTR_ID, 8, { 0 } },
			   { PFSEL_ATTR_VERDICT, 1, { 5 } },
			   { PFSEL_ATTR_SCOPE, 1, { 0 } } },
	};
	struct agent *ag = &self->agent[0];
	struct garbage_arg ga;
	struct agent_report r;
	struct ask_stats s;
	struct asker as;

	ASSERT_EQ(0, pfsel_load("ask_long_1001"));
	ASSERT_EQ(0, agent_start(ag, PFSEL_UID1, true));
	as = probe_start(PFSEL_UID1, "127.0.0.1", PORT_B);
	ASSERT_TRUE(agent_question(ag, &r, QUESTION_MS));
	ga.live_id = r.q.id;

	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID1, garbage_fn, &ga));
	EXPECT_EQ(0, pfsel_run_as(PFSEL_UID2, garbage_fn, &ga));

	/* The agent's own bad answers to it change nothing either. */
	memcpy(c.attrs[0].data, &r.q.id, 8);
	EXPECT_EQ(ERANGE, agent_call(ag, &c));
	c.attrs[1].data[0] = PFSEL_ANSWER_DENY;
	c.attrs[2].data[0] = 9;
	EXPECT_EQ(ERANGE, agent_call(ag, &c));
	c.nattrs = 2;
	EXPECT_EQ(EINVAL, agent_call(ag, &c));
	ASSERT_TRUE(ask_stats_read(&s));
	EXPECT_EQ(1, s.agents);
	EXPECT_EQ(1, s.pending);
	/* The question is still there, and its agent's answer decides it. */
	EXPECT_EQ(0, waitpid(as.pid, NULL, WNOHANG));
	EXPECT_EQ(0, agent_answer(ag, r.q.id, PFSEL_ANSWER_ALLOW,
				  PFSEL_SCOPE_ONCE));
	EXPECT_EQ(ALLOWED, asker_wait(&as, NULL));
	EXPECT_EQ(0, agent_drain(ag, QUIET_MS));
}

TEST_HARNESS_MAIN
