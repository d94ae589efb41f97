/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DNS messages made by hand, for the tests that teach the kernel host
 * names (tests/vm/hostname_test.c) and the benchmark's "named"
 * configuration (tests/bench/pfsel_bench_names.c): a question for a name's
 * A records, and its answer.  Header only, every function static inline.
 */

#ifndef PFSEL_DNS_MESSAGE_H
#define PFSEL_DNS_MESSAGE_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The size of a DNS header, where the question's name begins. */
#define DNS_HEADER_SIZE 12

static inline size_t dns_put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
	return 2;
}

/* @name (dotted, no final dot) in wire form at @p: its length. */
static inline size_t dns_put_name(uint8_t *p, const char *name)
{
	size_t len = 0;

	while (*name) {
		const size_t label = strcspn(name, ".");

		p[len++] = (uint8_t)label;
		memcpy(p + len, name, label);
		len += label;
		name += label;
		if (*name == '.')
			name++;
	}
	p[len++] = 0;
	return len;
}

/* A standard query with id @id for @name's A records: its length. */
static inline size_t dns_query(uint8_t *msg, unsigned int id, const char *name)
{
	size_t len = 0;

	len += dns_put16(msg + len, id);
	len += dns_put16(msg + len, 0x0100); /* recursion desired */
	len += dns_put16(msg + len, 1); /* one question */
	len += dns_put16(msg + len, 0);
	len += dns_put16(msg + len, 0);
	len += dns_put16(msg + len, 0);
	len += dns_put_name(msg + len, name);
	len += dns_put16(msg + len, 1); /* A */
	len += dns_put16(msg + len, 1); /* IN */
	return len;
}

/*
 * The query @msg of @len bytes made its answer in place, "the name is
 * @addr for @ttl seconds": the answer's length.
 */
static inline size_t dns_answer_query(uint8_t *msg, size_t len,
				      struct in_addr addr, uint32_t ttl)
{
	dns_put16(msg + 2, 0x8180); /* a response, recursion available */
	dns_put16(msg + 6, 1); /* one answer */
	/* The answer names the question's name, by a pointer to it. */
	len += dns_put16(msg + len, 0xc000 | DNS_HEADER_SIZE);
	len += dns_put16(msg + len, 1); /* A */
	len += dns_put16(msg + len, 1); /* IN */
	len += dns_put16(msg + len, ttl >> 16);
	len += dns_put16(msg + len, ttl & 0xffff);
	len += dns_put16(msg + len, sizeof(addr));
	memcpy(msg + len, &addr, sizeof(addr));
	return len + sizeof(addr);
}

#endif /* PFSEL_DNS_MESSAGE_H */
