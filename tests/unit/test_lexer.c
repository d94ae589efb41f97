// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for compiler/lexer.c: word shapes, addresses, locations.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "frontend_util.h"

struct lexed {
	struct pfw_lexer lexer;
	struct pfw_token token;
	struct pfw_diag diag;
	char *messages;
	size_t messages_len;
	FILE *out;
};

static void lex_start(struct lexed *l, const char *text)
{
	memset(l, 0, sizeof(*l));
	l->out = open_memstream(&l->messages, &l->messages_len);
	pfw_diag_init(&l->diag, l->out);
	pfw_lexer_init(&l->lexer, "t.pfw", text, strlen(text), &l->diag);
}

static void lex_end(struct lexed *l)
{
	pfw_token_fini(&l->token);
	fclose(l->out);
	free(l->messages);
	pfw_diag_fini(&l->diag);
}

static enum pfw_token_kind lex_next(struct lexed *l)
{
	pfw_lexer_next(&l->lexer, &l->token);
	return l->token.kind;
}

static void test_punctuation_and_keywords(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "allow ; , = - * tcp firefox http-alt protect");
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_ALLOW);
	assert_int_equal(lex_next(&l), PFW_TOK_SEMICOLON);
	assert_int_equal(lex_next(&l), PFW_TOK_COMMA);
	assert_int_equal(lex_next(&l), PFW_TOK_EQUALS);
	assert_int_equal(lex_next(&l), PFW_TOK_DASH);
	assert_int_equal(lex_next(&l), PFW_TOK_STAR);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_TCP);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_NONE);
	assert_string_equal(l.token.text, "firefox");
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_string_equal(l.token.text, "http-alt");
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_PROTECT);
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	assert_int_equal(l.diag.errors, 0);
	lex_end(&l);
}

static void test_numbers_and_ranges(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "8000-8999 30s 99999999999999999999999");
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(l.token.number, 8000);
	assert_int_equal(lex_next(&l), PFW_TOK_DASH);
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(l.token.number, 8999);
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(l.token.number, 30);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_string_equal(l.token.text, "s");
	assert_true(l.token.adjacent);
	/* Too large saturates; the parser says "out of range". */
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_true(l.token.number == UINT64_MAX);
	lex_end(&l);
}

static void test_ipv4_is_mapped(void **state)
{
	struct lexed l;
	static const uint8_t mapped[16] = {
		[10] = 0xff, [11] = 0xff, [12] = 10
	};

	(void)state;
	lex_start(&l, "10.0.0.0/8 192.0.2.1");
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	assert_true(l.token.is_ipv4);
	assert_memory_equal(l.token.cidr.addr, mapped, 16);
	assert_int_equal(l.token.cidr.prefix_len, 96 + 8);
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	assert_int_equal(l.token.cidr.prefix_len, 128);
	lex_end(&l);
}

static void test_ipv6_shapes(void **state)
{
	struct lexed l;
	uint8_t expect[16];

	(void)state;
	lex_start(&l, "fe80::/10 ::1 2001:db8::/32 ::ffff:1.2.3.4 cafe");
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	assert_false(l.token.is_ipv4);
	assert_int_equal(l.token.cidr.prefix_len, 10);
	assert_int_equal(l.token.cidr.addr[0], 0xfe);
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	assert_int_equal(l.token.cidr.addr[15], 1);
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	assert_int_equal(l.token.cidr.prefix_len, 32);
	/* An IPv4-mapped IPv6 address is the IPv4 address. */
	assert_int_equal(lex_next(&l), PFW_TOK_ADDRESS);
	address_of("1.2.3.4", expect);
	assert_memory_equal(l.token.cidr.addr, expect, 16);
	/* A hex-looking word not followed by ':' is a name. */
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_string_equal(l.token.text, "cafe");
	assert_int_equal(l.diag.errors, 0);
	lex_end(&l);
}

static void test_bad_addresses(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "10.0.0.1/8 1.2.3/8 10.0.0.0/33 fe80::1::2");
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	assert_int_equal(l.diag.errors, 4);
	fflush(l.out);
	assert_non_null(strstr(l.messages, "did you mean '10.0.0.0/8'?"));
	assert_non_null(strstr(l.messages, "prefix longer than 32 bits"));
	lex_end(&l);
}

static void test_paths_strings_comments(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "/usr/bin/x,/opt/** # comment ; ignored\n"
		      "\"/opt/My App/bin\" \"a\\\"b\"");
	assert_int_equal(lex_next(&l), PFW_TOK_PATH);
	assert_string_equal(l.token.text, "/usr/bin/x");
	assert_int_equal(lex_next(&l), PFW_TOK_COMMA);
	assert_int_equal(lex_next(&l), PFW_TOK_PATH);
	assert_string_equal(l.token.text, "/opt/**");
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_string_equal(l.token.text, "/opt/My App/bin");
	assert_int_equal(l.token.loc.line, 2);
	assert_int_equal(l.token.loc.col, 1);
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_string_equal(l.token.text, "a\"b");
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	lex_end(&l);
}

static void test_bad_bytes_are_errors(void **state)
{
	struct lexed l;
	static const char text[] = "allow \x01 @ \"open";

	(void)state;
	lex_start(&l, text);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	fflush(l.out);
	assert_non_null(strstr(l.messages, "unexpected byte 0x01"));
	assert_non_null(strstr(l.messages, "unexpected character '@'"));
	assert_non_null(strstr(l.messages, "no closing '\"'"));
	lex_end(&l);
}

static void test_nul_byte_in_source(void **state)
{
	struct lexed l;
	static const char text[] = { 'a', 'l', 'l', 'o', 'w', 0, 'x' };

	(void)state;
	memset(&l, 0, sizeof(l));
	l.out = open_memstream(&l.messages, &l.messages_len);
	pfw_diag_init(&l.diag, l.out);
	pfw_lexer_init(&l.lexer, "t.pfw", text, sizeof(text), &l.diag);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	lex_end(&l);
}

/* The escapes of a string are those pfsel_escape() writes. */
static void test_string_escapes(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "\"/tmp/x\\e[2K\\n\\t\\r\\\\\\\"\\x41\\xfF\" \"/a\"/*");
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_string_equal(l.token.text, "/tmp/x\x1b[2K\n\t\r\\\"A\xff");
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_string_equal(l.token.text, "/a");
	/* A glob suffix directly after a quoted directory. */
	assert_int_equal(lex_next(&l), PFW_TOK_PATH);
	assert_true(l.token.adjacent);
	assert_string_equal(l.token.text, "/*");
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	lex_end(&l);
}

static void test_bad_string_escapes(void **state)
{
	struct lexed l;

	(void)state;
	lex_start(&l, "\"/a\\q\" \"/b\\x4\" \"/c\\x00d\" \"/d\\xg1\" ;");
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	assert_int_equal(lex_next(&l), PFW_TOK_ERROR);
	assert_int_equal(lex_next(&l), PFW_TOK_STRING);
	/* The NUL skipped to the end of its string: nothing else is wrong. */
	assert_int_equal(lex_next(&l), PFW_TOK_SEMICOLON);
	assert_int_equal(lex_next(&l), PFW_TOK_EOF);
	fflush(l.out);
	assert_non_null(strstr(l.messages, "t.pfw:1:4: error: unknown escape"));
	assert_non_null(strstr(l.messages, "t.pfw:1:11: error: '\\x' takes two "
					   "hexadecimal digits"));
	assert_non_null(
		strstr(l.messages, "t.pfw:1:16: error: string contains a NUL"));
	assert_non_null(strstr(l.messages, "t.pfw:1:29: error: '\\x' takes"));
	lex_end(&l);
}

/* Host names are words of their own; addresses and numbers stay what they were. */
static void test_host_names(void **state)
{
	struct lexed l;
	static const struct {
		const char *text;
		enum pfw_token_kind kind;
	} words[] = {
		{ "github.com", PFW_TOK_HOST },
		{ "1password.com", PFW_TOK_HOST },
		{ "xn--bcher-kva.example", PFW_TOK_HOST },
		{ "*.Example.ORG", PFW_TOK_HOST },
		{ "_dmarc.example.org", PFW_TOK_HOST },
		{ "b\xc3\xbc"
		  "cher.example",
		  PFW_TOK_HOST },
		{ "10.0.0.1", PFW_TOK_ADDRESS },
		{ "fe80::1", PFW_TOK_ADDRESS },
		{ "example", PFW_TOK_WORD },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		lex_start(&l, words[i].text);
		assert_int_equal(lex_next(&l), words[i].kind);
		if (words[i].kind == PFW_TOK_HOST)
			assert_string_equal(l.token.text, words[i].text);
		assert_int_equal(lex_next(&l), PFW_TOK_EOF);
		assert_int_equal(l.diag.errors, 0);
		lex_end(&l);
	}
	/* "30s" and port ranges are still a number and what follows. */
	lex_start(&l, "30s 1-5 host resolver *.a.b,");
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(lex_next(&l), PFW_TOK_DASH);
	assert_int_equal(lex_next(&l), PFW_TOK_NUMBER);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_HOST);
	assert_int_equal(lex_next(&l), PFW_TOK_WORD);
	assert_int_equal(l.token.keyword, PFW_KW_RESOLVER);
	assert_int_equal(lex_next(&l), PFW_TOK_HOST);
	assert_string_equal(l.token.text, "*.a.b");
	assert_int_equal(lex_next(&l), PFW_TOK_COMMA);
	lex_end(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_names),
		cmocka_unit_test(test_punctuation_and_keywords),
		cmocka_unit_test(test_numbers_and_ranges),
		cmocka_unit_test(test_ipv4_is_mapped),
		cmocka_unit_test(test_ipv6_shapes),
		cmocka_unit_test(test_bad_addresses),
		cmocka_unit_test(test_paths_strings_comments),
		cmocka_unit_test(test_bad_bytes_are_errors),
		cmocka_unit_test(test_nul_byte_in_source),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_bad_string_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
