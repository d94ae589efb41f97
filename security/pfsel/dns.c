// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - DNS answer parser
 *
 * The bytes come from the network: from a DNS server that anyone may run,
 * and, when the system policy lets any process's answers teach names, from
 * whoever can send a UDP datagram from port 53.  So nothing in them is
 * trusted: every read is checked against the message's length, every loop
 * is bounded by the message's length or a small constant, and nothing is
 * reported until the whole answer section has been read and found sound.
 *
 * The parser runs on the receive path, in softirq, for every answer a
 * trusted resolver receives: it neither allocates nor sleeps, keeps its
 * stack under 1 KiB (names stay offsets into the message; one name at a
 * time is spelled out, to report it), and its work is linear in the
 * message's length (see pfsel_dns_parse_answer()).
 *
 * The message format is RFC 1035 section 4, with the clarifications of
 * RFC 2181 (TTLs) and RFC 6891 (no extended label types).
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "dns.h"

#define DNS_HEADER_SIZE 12
/* TYPE, CLASS, TTL and RDLENGTH: what follows a record's owner name. */
#define DNS_RR_FIXED_SIZE 10
/* TYPE and CLASS after the question's name. */
#define DNS_QUESTION_FIXED_SIZE 4
/* A message's length field over TCP is 16 bits; UDP carries less. */
#define DNS_MSG_MAX 65535

#define DNS_FLAG_QR 0x8000
#define DNS_OPCODE_MASK 0x7800 /* QUERY is 0 */
#define DNS_FLAG_TC 0x0200
#define DNS_RCODE_MASK 0x000f /* NOERROR is 0 */

#define DNS_TYPE_A 1
#define DNS_TYPE_CNAME 5
#define DNS_TYPE_AAAA 28
#define DNS_CLASS_IN 1

/*
 * The top two bits of a label's length byte: 00 a label (so at most 63
 * bytes long), 11 a pointer, 01 and 10 refused.
 */
#define DNS_LABEL_KIND 0xc0
#define DNS_LABEL_POINTER 0xc0
/*
 * Pointers must go strictly backwards, so a name cannot loop forever, but
 * it can still walk back and forth through earlier labels; hops are capped
 * well above what any server's compression needs (one, seldom two).
 */
#define DNS_MAX_HOPS 16

/* A record's owner that is not on the alias chain. */
#define NOT_ON_CHAIN 0xff

static_assert(PFSEL_DNS_MAX_LINKS < NOT_ON_CHAIN);
/* Offsets into a message fit the u16 fields of struct dns_record. */
static_assert(DNS_MSG_MAX <= (u16)~0);

struct dns_msg {
	const u8 *p;
	size_t len;
};

static u16 be16_at(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 be32_at(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/*
 * A walk over the labels of a name, through its compression pointers.
 * @pos is the next length byte to read; @end, once known, the offset just
 * after the name where it is stored (after its first pointer, or after its
 * final zero byte); @total the presentation length read so far, each label
 * counted with one dot.
 */
struct name_walk {
	size_t pos;
	size_t end;
	unsigned int hops;
	unsigned int total;
};

static void walk_start(struct name_walk *w, size_t at)
{
	w->pos = at;
	w->end = 0;
	w->hops = 0;
	w->total = 0;
}

/*
 * Step to the next label of a name.  Returns its length (1..63) and sets
 * *@label to its first byte; returns 0 at the name's end and -EINVAL when
 * the name breaks a rule: a read past the message, a reserved label kind,
 * a pointer that is not strictly backwards or lands in the header, more
 * than DNS_MAX_HOPS pointers, or more than PFSEL_DNS_NAME_MAX characters.
 * Every caller can rely on these bounds, even on a name checked before.
 */
static int next_label(const struct dns_msg *m, struct name_walk *w,
		      const u8 **label)
{
	for (;;) {
		size_t target;
		u8 c;

		if (w->pos >= m->len)
			return -EINVAL;
		c = m->p[w->pos];
		if ((c & DNS_LABEL_KIND) == DNS_LABEL_POINTER) {
			if (m->len - w->pos < 2)
				return -EINVAL;
			target = (size_t)(c & ~DNS_LABEL_KIND) << 8 |
				 m->p[w->pos + 1];
			/*
			 * No name starts in the header; a pointer there
			 * would read the ID and counts as labels.
			 */
			if (target >= w->pos || target < DNS_HEADER_SIZE ||
			    ++w->hops > DNS_MAX_HOPS)
				return -EINVAL;
			if (!w->end)
				w->end = w->pos + 2;
			w->pos = target;
			continue;
		}
		/* 01 and 10: RFC 6891 retired the extended label types. */
		if (c & DNS_LABEL_KIND)
			return -EINVAL;
		if (!c) {
			if (!w->end)
				w->end = w->pos + 1;
			return 0;
		}
		if (m->len - w->pos - 1 < c)
			return -EINVAL;
		w->total += c + 1;
		if (w->total > PFSEL_DNS_NAME_MAX + 1)
			return -EINVAL;
		*label = m->p + w->pos + 1;
		w->pos += 1 + c;
		return c;
	}
}

/*
 * A label we can report: printable ASCII, no space (names go into audit
 * records and log lines as words) and no dot (which would make the label
 * two in the presentation form: "a.b" as one label is not the name a.b).
 */
static bool label_reportable(const u8 *label, int len)
{
	int i;

	for (i = 0; i < len; i++)
		if (label[i] <= ' ' || label[i] > '~' || label[i] == '.')
			return false;
	return true;
}

enum name_kind {
	NAME_HOST, /* at least one label, all reportable */
	NAME_ROOT, /* the root: no label, nothing to name */
	NAME_ODD, /* sound, but a label we do not report */
};

/*
 * Check the whole name at @at, through its pointers.  Returns its kind, or
 * -EINVAL; sets *@end to the offset after the name where it is stored.
 */
static int check_name(const struct dns_msg *m, size_t at, size_t *end)
{
	enum name_kind kind = NAME_ROOT;
	struct name_walk w;
	const u8 *label;
	int n;

	walk_start(&w, at);
	while ((n = next_label(m, &w, &label)) > 0) {
		if (!label_reportable(label, n))
			kind = NAME_ODD;
		else if (kind == NAME_ROOT)
			kind = NAME_HOST;
	}
	if (n < 0)
		return n;
	*end = w.end;
	return kind;
}

/*
 * Find where the name at @at ends, without following its pointer: for the
 * records the parser does not keep, so that its work stays linear in the
 * message's length.  Returns 0 or -EINVAL; sets *@end.
 */
static int skip_name(const struct dns_msg *m, size_t at, size_t *end)
{
	size_t pos = at;

	while (pos < m->len) {
		u8 c = m->p[pos];

		if ((c & DNS_LABEL_KIND) == DNS_LABEL_POINTER) {
			if (m->len - pos < 2)
				return -EINVAL;
			*end = pos + 2;
			return 0;
		}
		if (c & DNS_LABEL_KIND)
			return -EINVAL;
		if (!c) {
			*end = pos + 1;
			return 0;
		}
		pos += 1 + c;
	}
	return -EINVAL;
}

static u8 fold(u8 c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/*
 * Whether the names at @a and @b are the same name, letters compared
 * without case (RFC 4343).  Both must have passed check_name().
 */
static bool names_equal(const struct dns_msg *m, size_t a, size_t b)
{
	struct name_walk wa, wb;
	const u8 *la, *lb;
	int na, nb, i;

	walk_start(&wa, a);
	walk_start(&wb, b);
	for (;;) {
		/*
		 * From the same byte on, both walks read the same labels:
		 * the usual case, an owner that points at the question.
		 */
		if (wa.pos == wb.pos)
			return true;
		na = next_label(m, &wa, &la);
		nb = next_label(m, &wb, &lb);
		if (na < 0 || nb < 0 || na != nb)
			return false;
		if (!na)
			return true;
		for (i = 0; i < na; i++)
			if (fold(la[i]) != fold(lb[i]))
				return false;
	}
}

/*
 * Spell out the name at @at, which passed check_name() as NAME_HOST, in
 * lower case without the final dot.  @buf holds PFSEL_DNS_NAME_MAX + 1
 * bytes, which next_label()'s bound on @total keeps us within whatever
 * the message holds.
 */
static void spell_name(const struct dns_msg *m, size_t at, char *buf)
{
	struct name_walk w;
	const u8 *label;
	size_t n = 0;
	int len, i;

	walk_start(&w, at);
	while ((len = next_label(m, &w, &label)) > 0) {
		if (n)
			buf[n++] = '.';
		for (i = 0; i < len; i++)
			buf[n++] = fold(label[i]);
	}
	buf[n] = '\0';
}

/*
 * An address or alias record of the answer, kept for after the whole
 * section has been read: offsets into the message, not copies, to keep the
 * table small on the stack.
 */
struct dns_record {
	u16 owner; /* offset of the owner name */
	u16 rdata; /* offset of the address, or of the alias's name */
	u8 type; /* enum record_type */
	u8 link; /* for an address, its owner's place on the chain */
};

enum record_type {
	REC_A,
	REC_AAAA,
	REC_CNAME,
};

/*
 * What the answer section says, as offsets: the records kept, and the
 * chain of names from the question's (@chain[0]) through its aliases, where
 * @chain[i + 1] is the alias that record @via[i] gives @chain[i].  Then
 * what is reported: @binding, whose name is spelt out in @name.  One object
 * on the stack, about 500 bytes.
 */
struct dns_answer {
	struct dns_msg m;
	struct dns_record rec[PFSEL_DNS_MAX_RECORDS];
	unsigned int n_rec;
	u16 chain[PFSEL_DNS_MAX_LINKS + 1];
	u8 via[PFSEL_DNS_MAX_LINKS];
	unsigned int n_chain;
	struct pfsel_dns_binding binding;
	char name[PFSEL_DNS_NAME_MAX + 1];
};

static_assert(PFSEL_DNS_MAX_RECORDS <= (u8)~0);

/* RDLENGTH, and before it the TTL, end just where RDATA starts. */
#define DNS_TTL_BEFORE_RDATA 6

/*
 * The TTL of a kept record, read again from the message rather than kept:
 * four bytes less a record.  RFC 2181 section 8 reads a TTL with its top bit
 * set as 0.
 */
static u32 record_ttl(const struct dns_answer *a, unsigned int i)
{
	u32 ttl = be32_at(a->m.p + a->rec[i].rdata - DNS_TTL_BEFORE_RDATA);

	return ttl & 0x80000000u ? 0 : ttl;
}

/*
 * Read the answer section from @pos: check every record's extent and the
 * RDATA of address and alias records, and keep the first
 * PFSEL_DNS_MAX_RECORDS of those whose names can be reported.  Returns 0 or
 * -EINVAL.
 */
static int read_answers(struct dns_answer *a, size_t pos, unsigned int ancount)
{
	const struct dns_msg *m = &a->m;
	unsigned int i;

	/*
	 * ANCOUNT is only a claim: the loop stops at the first record that
	 * does not fit, and each record takes at least 11 bytes, so a huge
	 * count costs no more than the bytes that carry it.
	 */
	for (i = 0; i < ancount; i++) {
		size_t owner = pos, rdata, end;
		u16 type, class, rdlength;
		int kind;

		if (skip_name(m, pos, &end))
			return -EINVAL;
		if (m->len - end < DNS_RR_FIXED_SIZE)
			return -EINVAL;
		type = be16_at(m->p + end);
		class = be16_at(m->p + end + 2);
		rdlength = be16_at(m->p + end + 8);
		rdata = end + DNS_RR_FIXED_SIZE;
		if (m->len - rdata < rdlength)
			return -EINVAL;
		pos = rdata + rdlength;

		/* Other classes give other meanings to the same types. */
		if (class != DNS_CLASS_IN)
			continue;
		/*
		 * An address of the wrong size is a broken record, not a
		 * shorter address: refuse the message rather than guess.
		 * The check costs nothing, so every record gets it.
		 */
		if ((type == DNS_TYPE_A && rdlength != 4) ||
		    (type == DNS_TYPE_AAAA && rdlength != 16))
			return -EINVAL;
		if (type != DNS_TYPE_A && type != DNS_TYPE_AAAA &&
		    type != DNS_TYPE_CNAME)
			continue;
		/*
		 * Past the table, a record is ignored (its extent was
		 * checked above): following a name through its pointers
		 * costs up to DNS_MAX_HOPS jumps and 127 labels, which only
		 * a bounded number of records may spend.
		 */
		if (a->n_rec == PFSEL_DNS_MAX_RECORDS)
			continue;
		if (type == DNS_TYPE_CNAME) {
			/* RDATA is the alias's name, exactly. */
			kind = check_name(m, rdata, &end);
			if (kind < 0 || end != pos)
				return -EINVAL;
			/* An alias we cannot name ends the chain. */
			if (kind != NAME_HOST)
				continue;
		}
		kind = check_name(m, owner, &end);
		if (kind < 0)
			return kind;
		/*
		 * An owner we cannot name is on no chain: the question's
		 * name and every alias kept are NAME_HOST.
		 */
		if (kind != NAME_HOST)
			continue;
		a->rec[a->n_rec++] = (struct dns_record){
			.owner = owner,
			.rdata = rdata,
			.type = type == DNS_TYPE_A    ? REC_A :
				type == DNS_TYPE_AAAA ? REC_AAAA :
							REC_CNAME,
			.link = NOT_ON_CHAIN,
		};
	}
	return 0;
}

/* The place of the name at @at on the chain, or NOT_ON_CHAIN. */
static u8 chain_place(const struct dns_answer *a, size_t at)
{
	unsigned int i;

	for (i = 0; i < a->n_chain; i++)
		if (names_equal(&a->m, a->chain[i], at))
			return i;
	return NOT_ON_CHAIN;
}

/*
 * Follow the aliases from the question's name: from each name, the first
 * alias record it owns, until a name owns none, its alias is already on
 * the chain (a loop), or PFSEL_DNS_MAX_LINKS links were followed.  Then
 * place each address record's owner on the chain.
 */
static void follow_chain(struct dns_answer *a, size_t question)
{
	unsigned int i;
	u8 place;

	a->chain[0] = question;
	a->n_chain = 1;
	while (a->n_chain <= PFSEL_DNS_MAX_LINKS) {
		size_t last = a->chain[a->n_chain - 1];

		for (i = 0; i < a->n_rec; i++)
			if (a->rec[i].type == REC_CNAME &&
			    names_equal(&a->m, a->rec[i].owner, last))
				break;
		if (i == a->n_rec)
			break;
		place = chain_place(a, a->rec[i].rdata);
		if (place != NOT_ON_CHAIN)
			break;
		a->via[a->n_chain - 1] = i;
		a->chain[a->n_chain++] = a->rec[i].rdata;
	}

	for (i = 0; i < a->n_rec; i++)
		if (a->rec[i].type != REC_CNAME)
			a->rec[i].link = chain_place(a, a->rec[i].owner);
}

static bool ipv4_mapped(const u8 addr[16])
{
	static const u8 prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return !memcmp(addr, prefix, sizeof(prefix));
}

/*
 * Report, for each name of the chain in turn, every address record owned
 * by that name or by a later one (an alias of it).  The TTL of a binding
 * is the smallest of the address record's and of the alias records between
 * the name and the address's owner: the binding holds only while every
 * link that made it does.  Returns the number of bindings reported.
 */
static int report(struct dns_answer *a, pfsel_dns_fn fn, void *arg)
{
	struct pfsel_dns_binding *b = &a->binding;
	unsigned int i, j, k;
	int count = 0;

	b->name = a->name;

	for (j = 0; j < a->n_chain; j++) {
		bool spelt = false;

		for (i = 0; i < a->n_rec; i++) {
			const struct dns_record *r = &a->rec[i];

			if (r->type == REC_CNAME || r->link == NOT_ON_CHAIN ||
			    r->link < j)
				continue;
			if (!spelt) {
				spell_name(&a->m, a->chain[j], a->name);
				spelt = true;
			}
			/* The chain starts at the question's name. */
			b->asked = j == 0;
			b->ttl = record_ttl(a, i);
			for (k = j; k < r->link; k++)
				b->ttl = min(b->ttl, record_ttl(a, a->via[k]));
			if (r->type == REC_A) {
				memset(b->addr, 0, 10);
				b->addr[10] = 0xff;
				b->addr[11] = 0xff;
				memcpy(b->addr + 12, a->m.p + r->rdata, 4);
			} else {
				memcpy(b->addr, a->m.p + r->rdata, 16);
			}
			/* As the policy sees it: a mapped address is IPv4. */
			b->family = ipv4_mapped(b->addr) ? PFSEL_FAMILY_INET :
							   PFSEL_FAMILY_INET6;
			fn(b, arg);
			count++;
		}
	}
	return count;
}

/**
 * pfsel_dns_parse_answer - Report the addresses a DNS answer gives names
 * @msg: one DNS message, as carried by UDP (or by TCP, without its length
 *	 prefix)
 * @len: its length in bytes
 * @fn: called once for each binding, before this function returns; the
 *	binding and its name are valid only during the call
 * @arg: passed to @fn
 *
 * The message must be an answer to a standard query that succeeded: a
 * response (QR) with opcode QUERY, RCODE NOERROR, not truncated (a
 * truncated answer may lack records, and the client asks again over TCP),
 * with exactly one question, of class IN.  The question's name must be
 * sound and reportable (see below), else the whole message is refused.
 *
 * Only the answer section is read.  The authority and additional sections
 * are not proof of anything: they hold referrals and glue that the server
 * did not vouch for as an answer, and were the way of classic cache
 * poisoning.  (So an EDNS extended RCODE, which lives there, is not seen
 * either: answer records that come with one are still records the server
 * gave as its answer.)
 *
 * The names learned are the question's name and its aliases: the chain
 * that starts at the question's name and follows, from each name, the
 * first CNAME record of the answer owned by it, for at most
 * PFSEL_DNS_MAX_LINKS links, ending at a name already on the chain (a
 * loop).  Each A or AAAA record owned by a name on the chain gives its
 * address to that name and to every name before it on the chain, so that
 * "www.example.org CNAME cdn.example.net", "cdn.example.net A 192.0.2.1"
 * gives 192.0.2.1 to both names: the program asked for the first and will
 * connect to the address.  Records owned by other names are ignored: the
 * server may only tell us about the name it was asked, and nothing
 * connects to an address for a name nobody asked about.  Only the first
 * PFSEL_DNS_MAX_RECORDS A, AAAA and CNAME records of class IN (with names
 * that can be reported) are considered; later ones are ignored.
 *
 * Names: labels of 1 to 63 bytes, at most PFSEL_DNS_NAME_MAX characters
 * in all, compression pointers only backwards (to an offset strictly
 * before the pointer, and after the header), at most 16 of them in a
 * name.  Letters are folded to lower case.  A label holding a dot, a space
 * or a byte outside printable ASCII makes its record ignored (an owner or
 * alias with such a name cannot be on the chain), and the whole message
 * invalid if it is in the question.
 *
 * Records: each must fit in @len, A records must have an RDLENGTH of 4 and
 * AAAA records of 16, and a CNAME record's RDATA must be exactly one name.
 * A record that breaks any of this makes the whole message invalid, and
 * nothing is reported: the section is read entirely before the first
 * binding is, so a message never teaches half of what it says.
 *
 * TTLs are reported as the answer gives them (the caller clamps them), a
 * TTL with its top bit set as 0 (RFC 2181).
 *
 * Context: any, softirq included; does not sleep, allocate or lock.  The
 * work is linear in @len: at most PFSEL_DNS_MAX_RECORDS records are
 * followed through their pointers, and compared with at most
 * PFSEL_DNS_MAX_LINKS + 1 names.
 *
 * Return: the number of bindings reported (at least 1); -ENODATA for a
 * sound message with nothing to learn (a query, another opcode, an error
 * RCODE, a truncated answer, a question of another class or for the root,
 * no address on the chain); -EINVAL for anything malformed.  @fn is not
 * called unless the return is positive.
 */
int pfsel_dns_parse_answer(const u8 *msg, size_t len, pfsel_dns_fn fn,
			   void *arg)
{
	struct dns_answer a = { .m = { .p = msg, .len = len } };
	size_t qend;
	u16 flags;
	int kind, err, count;

	if (len < DNS_HEADER_SIZE || len > DNS_MSG_MAX)
		return -EINVAL;
	flags = be16_at(msg + 2);
	if (!(flags & DNS_FLAG_QR) || flags & DNS_OPCODE_MASK ||
	    flags & DNS_FLAG_TC || flags & DNS_RCODE_MASK)
		return -ENODATA;
	/* RFC 9619: a QUERY has one question; anything else is broken. */
	if (be16_at(msg + 4) != 1)
		return -EINVAL;

	kind = check_name(&a.m, DNS_HEADER_SIZE, &qend);
	if (kind < 0 || kind == NAME_ODD)
		return -EINVAL;
	if (len - qend < DNS_QUESTION_FIXED_SIZE)
		return -EINVAL;
	if (be16_at(msg + qend + 2) != DNS_CLASS_IN || kind == NAME_ROOT)
		return -ENODATA;

	err = read_answers(&a, qend + DNS_QUESTION_FIXED_SIZE,
			   be16_at(msg + 6));
	if (err)
		return err;
	follow_chain(&a, DNS_HEADER_SIZE);
	count = report(&a, fn, arg);
	return count ? count : -ENODATA;
}
