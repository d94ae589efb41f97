/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libpromptwire - pfsel-agent <-> pfsel-prompt: the messages on their
 * private socket pair, a library of their own that both programs link
 * (and the tests' stand-in prompt, and the GUI tests' seam driver).
 *
 * The agent keeps the kernel's channel; the desktop prompt is its child
 * and hears of questions, and answers them, only through one end of a
 * SOCK_SEQPACKET socketpair() the agent made and passed it (no name in the
 * file system, no other program can connect).  One datagram is one
 * message: a struct nlmsghdr whose type is enum prompt_msg_type, then
 * netlink attributes of enum prompt_attr.  An ASK carries the question in
 * the kernel's own attributes (PFSEL_ATTR_*, uapi/linux/pfsel.h), nested
 * in PROMPT_ATTR_QUESTION (the two sets of numbers overlap, and the
 * kernel's may grow), parsed by the same code as the kernel's
 * PFSEL_CMD_ASK (pfsel_question_from_attrs()).  Malformed messages (an
 * unknown type or attribute, a missing or repeated attribute, a wrong
 * length, a string without its NUL or longer than its field) are refused
 * (-EBADMSG), never half read.
 */
#ifndef PFSEL_PROMPTWIRE_PROMPT_WIRE_H
#define PFSEL_PROMPTWIRE_PROMPT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <pfsel/pfsel.h>

/* The size of the largest message; receive buffers are this big. */
#define PROMPT_WIRE_MAX 32768

/**
 * enum prompt_msg_type - The messages
 * @PROMPT_MSG_ASK: agent -> prompt: a question to show: PROMPT_ATTR_MS_LEFT
 *                  and PROMPT_ATTR_QUESTION (its id is the question's).
 * @PROMPT_MSG_WITHDRAW: agent -> prompt: stop showing question
 *                       PROMPT_ATTR_ID; PROMPT_ATTR_REASON says why.
 * @PROMPT_MSG_RESULT: agent -> prompt: what became of an answer it gave
 *                     (PROMPT_ATTR_ID, PROMPT_ATTR_STATUS: 0 or a negative
 *                     errno, PROMPT_ATTR_TEXT: one line for the person,
 *                     e.g. the rule added to ~/.pfw, or why it was not).
 * @PROMPT_MSG_ANSWER: prompt -> agent: PROMPT_ATTR_ID, _VERDICT, _SCOPE
 *                     and, for scope always, _WIDTH.
 */
enum prompt_msg_type {
	PROMPT_MSG_ASK = 0x100, /* above NLMSG_MIN_TYPE */
	PROMPT_MSG_WITHDRAW,
	PROMPT_MSG_RESULT,
	PROMPT_MSG_ANSWER,
};

/* The attributes of the messages (ASK's question nests the kernel's). */
enum prompt_attr {
	PROMPT_ATTR_UNSPEC,
	PROMPT_ATTR_ID, /* u64 */
	PROMPT_ATTR_VERDICT, /* u8, enum pfsel_answer_verdict */
	PROMPT_ATTR_SCOPE, /* u8, enum pfsel_scope */
	PROMPT_ATTR_WIDTH, /* u8, enum rule_width (userpolicy.h) */
	PROMPT_ATTR_REASON, /* u8, enum prompt_withdraw_reason */
	PROMPT_ATTR_STATUS, /* s32 */
	PROMPT_ATTR_TEXT, /* string */
	PROMPT_ATTR_MS_LEFT, /* u32: ms until the question's time runs out */
	PROMPT_ATTR_QUESTION, /* nested: the question's PFSEL_ATTR_* */
	__PROMPT_ATTR_MAX,
};
#define PROMPT_ATTR_MAX (__PROMPT_ATTR_MAX - 1)

/* Why a question was withdrawn. */
enum prompt_withdraw_reason {
	PROMPT_WITHDRAW_EXPIRED, /* its time ran out: the unanswered verdict */
	PROMPT_WITHDRAW_ANSWERED, /* another source answered it */
	PROMPT_WITHDRAW_STOPPING, /* the agent is stopping */
};

/**
 * struct prompt_message - One message, decoded
 * @type: enum prompt_msg_type.
 * @q: ASK: the question (about 13 KiB; the caller owns the storage, see
 *     prompt_wire_receive()).
 * @ms_left: ASK: ms until the question's time runs out.
 * @id: the question's id (all types).
 * @verdict: ANSWER: PFSEL_ANSWER_*.
 * @scope: ANSWER: PFSEL_SCOPE_*.
 * @width: ANSWER with scope always: enum rule_width.
 * @reason: WITHDRAW: enum prompt_withdraw_reason.
 * @status: RESULT: 0 or a negative errno.
 * @text: RESULT: a line for the person ("" when none).
 */
struct prompt_message {
	unsigned int type;
	struct pfsel_question *q;
	uint32_t ms_left;
	uint64_t id;
	unsigned int verdict;
	unsigned int scope;
	unsigned int width;
	unsigned int reason;
	int status;
	char text[1024];
};

/* Each sends one message on @fd: 0, or a negative errno. */
int prompt_wire_send_ask(int fd, const struct pfsel_question *q,
			 uint32_t ms_left);
int prompt_wire_send_withdraw(int fd, uint64_t id, unsigned int reason);
int prompt_wire_send_result(int fd, uint64_t id, int status, const char *text);
int prompt_wire_send_answer(int fd, uint64_t id, unsigned int verdict,
			    unsigned int scope, unsigned int width);

/**
 * prompt_wire_receive - Read and decode one message
 * @fd: the socket (blocking or not).
 * @m: filled in; @m->q must point at storage for an ASK's question (NULL:
 *     this end takes no questions, and an ASK is -EBADMSG).
 *
 * Returns 1 for a message, 0 when the peer has closed its end, -EAGAIN when
 * a non-blocking @fd has none, -EBADMSG for a message that is not one of
 * the above with its attributes (it is dropped whole, and @m and @m->q are
 * left as they were), -ENOMEM, or another negative errno from recv().
 */
int prompt_wire_receive(int fd, struct prompt_message *m);

#endif /* PFSEL_PROMPTWIRE_PROMPT_WIRE_H */
