// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target for the kernel's DNS answer parser (security/pfsel/dns.c,
 * built for user space through compiler/kshim): arbitrary bytes go to
 * pfsel_dns_parse_answer().  A crash, a sanitizer report (a read past the
 * message included: libFuzzer's buffer is exactly the input's size), or a
 * result that breaks the function's contract is a bug: a binding whose name
 * is not a lower-case presentation name of 1 to 253 characters, whose
 * family does not fit its address, a callback on a refused message, or a
 * count that is not the number of callbacks.
 *
 * Almost every mutation of the header makes the message something that
 * is not learned from (a query, an error RCODE), so the input is tried
 * twice: as it is, and with its header made that of a successful answer
 * with one question.
 *
 * The seeds (tests/fuzz/corpus/fuzz_dns/) are answers of dnsmasq 2.90 to
 * UDP queries for a test zone: A, AAAA and ANY, a CNAME to another zone,
 * a chain of three CNAMEs, several addresses, EDNS, a name in mixed case
 * and an NXDOMAIN.
 *
 * pfwc-test-sources: security/pfsel/dns.c
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	int calls;
	int refused; /* set while the parser must not call back */
};

static void check_name(const char *name)
{
	size_t len = strlen(name), i;

	if (len < 1 || len > PFSEL_DNS_NAME_MAX || name[0] == '.' ||
	    name[len - 1] == '.')
		abort();
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c <= ' ' || c > '~' || (c >= 'A' && c <= 'Z'))
			abort();
		if (c == '.' && name[i + 1] == '.')
			abort();
	}
}

static void on_binding(const struct pfsel_dns_binding *b, void *arg)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0,    0,
					    0, 0, 0, 0, 0xff, 0xff };
	struct seen *seen = arg;
	int is_mapped = !memcmp(b->addr, mapped, sizeof(mapped));

	seen->calls++;
	check_name(b->name);
	if (b->family != (is_mapped ? PFSEL_FAMILY_INET : PFSEL_FAMILY_INET6))
		abort();
	if (b->ttl & 0x80000000u)
		abort();
}

static void parse(const uint8_t *msg, size_t size)
{
	struct seen seen = { 0 };
	int ret = pfsel_dns_parse_answer(msg, size, on_binding, &seen);

	if (ret < 0) {
		if ((ret != -EINVAL && ret != -ENODATA) || seen.calls)
			abort();
		return;
	}
	/* Every binding is one kept record for one name of the chain. */
	if (ret == 0 || ret != seen.calls ||
	    ret > PFSEL_DNS_MAX_RECORDS * (PFSEL_DNS_MAX_LINKS + 1))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	parse(data, size);
	if (size < 12)
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[2] = 0x81; /* QR, RD; opcode QUERY; not truncated */
	copy[3] = 0x80; /* RA; RCODE NOERROR */
	copy[4] = 0;
	copy[5] = 1; /* one question */
	parse(copy, size);
	free(copy);
	return 0;
}
