// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the lexer
 *
 * Word shapes, decided by the first byte:
 *   digit       a number, an IPv4 address, or an IPv6 address (has ':')
 *   ':'         an IPv6 address ("::1")
 *   letter, _   a name or keyword; a hex-only word followed by ':' is an
 *               IPv6 address ("fe80::1"); a word with a '.' or a byte
 *               >= 0x80 in it is a host name ("github.com")
 *   digit       ... also a host name when the word has a '.' and
 *               something no address has: a letter, '_' or '-'
 *               ("1password.com"; "10.0.0.1" stays an address)
 *   '*'         alone, or "*." and a host name ("*.example.org")
 *   '/'         a path, up to white space or one of ; , # " =
 *   '"'         a quoted string: an exact path, or an include's file name;
 *               escapes \" \\ \n \t \r \e and \xNN (not \x00)
 *   '#'         a comment to the end of the line
 * An address may be followed directly by "/len".
 */
#include <arpa/inet.h>
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"
#include "pfsel_policy.h"
#include "pfsel.h"

/*
 * The runs of keywords that are pfsel's vocabulary (verdicts, policies,
 * modes, operations, protocols, families) are in the order of its tables
 * (pfsel_names.h), which name them; the parser counts on it too.
 */
static_assert(PFW_KW_ASK - PFW_KW_ALLOW + 1 == PFSEL_VERDICT_COUNT,
	      "verdict keywords");
static_assert(PFW_KW_USER - PFW_KW_SYSTEM + 1 == PFSEL_SLOT_COUNT,
	      "policy keywords");
static_assert(PFW_KW_ENFORCING - PFW_KW_PERMISSIVE == PFSEL_MODE_ENFORCING,
	      "mode keywords");
static_assert(PFW_KW_ACCEPT - PFW_KW_CREATE + 1 == PFSEL_OP_COUNT,
	      "operation keywords");
static_assert(PFW_KW_PACKET - PFW_KW_TCP + 1 == PFSEL_PROTO_COUNT,
	      "protocol keywords");
static_assert(PFW_KW_INET6 - PFW_KW_INET + 1 == PFSEL_FAMILY_COUNT,
	      "family keywords");

const char *const pfw_keyword_names[PFW_KW_COUNT] = {
	[PFW_KW_NONE] = "",
#define PFSEL_VERDICT(id, name, value) \
	[PFW_KW_ALLOW + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_VERDICT
	[PFW_KW_INCLUDE] = "include",
	[PFW_KW_POLICY] = "policy",
#define PFSEL_SLOT(id, name, value) \
	[PFW_KW_SYSTEM + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_SLOT
	[PFW_KW_DEFAULT] = "default",
	[PFW_KW_TIMEOUT] = "timeout",
	[PFW_KW_UNANSWERED] = "unanswered",
	[PFW_KW_MODE] = "mode",
#define PFSEL_MODE(id, name, value) \
	[PFW_KW_PERMISSIVE + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_MODE
	[PFW_KW_APPS] = "apps",
	[PFW_KW_HOSTS] = "hosts",
	[PFW_KW_PORTS] = "ports",
	[PFW_KW_SCRIPT] = "script",
	[PFW_KW_FAMILY] = "family",
	[PFW_KW_TO] = "to",
	[PFW_KW_FROM] = "from",
	[PFW_KW_ON] = "on",
	[PFW_KW_PORT] = "port",
	[PFW_KW_LOG] = "log",
	[PFW_KW_QUIET] = "quiet",
	[PFW_KW_PROTECT] = "protect",
	[PFW_KW_SCOPE] = "scope",
	[PFW_KW_HOST] = "host",
	[PFW_KW_RESOLVER] = "resolver",
	[PFW_KW_FLATPAK] = "flatpak",
	[PFW_KW_SNAP] = "snap",
	[PFW_KW_ANY] = "any",
#define PFSEL_OP(id, name, value) \
	[PFW_KW_CREATE + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_OP
#define PFSEL_PROTO(id, name, value) \
	[PFW_KW_TCP + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_PROTO
#define PFSEL_FAMILY(id, name, value) \
	[PFW_KW_INET + PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_FAMILY
};

/* Longest word, path or string; longer input is an error, not a crash. */
#define TOKEN_MAX 4096
/* Longest address text we hand to inet_pton (with "/128"). */
#define ADDRESS_TEXT_MAX 64

void pfw_lexer_init(struct pfw_lexer *lexer, const char *file, const char *text,
		    size_t len, struct pfw_diag *diag)
{
	*lexer = (struct pfw_lexer){
		.file = file,
		.text = text,
		.len = len,
		.line = 1,
		.col = 1,
		.diag = diag,
	};
}

void pfw_token_fini(struct pfw_token *token)
{
	free(token->text);
	token->text = NULL;
}

static int peek_at(const struct pfw_lexer *lexer, size_t ahead)
{
	size_t pos = lexer->pos + ahead;

	return pos < lexer->len ? (unsigned char)lexer->text[pos] : -1;
}

static void advance(struct pfw_lexer *lexer)
{
	if (lexer->pos >= lexer->len)
		return;
	if (lexer->text[lexer->pos++] == '\n') {
		lexer->line++;
		lexer->col = 1;
	} else {
		lexer->col++;
	}
}

static bool is_name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(int c)
{
	return is_name_start(c) || (c >= '0' && c <= '9') || c == '-';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex_digit(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

/* Characters that end an unquoted path. */
static bool ends_path(int c)
{
	return c < 0 || is_space(c) || c == ';' || c == ',' || c == '#' ||
	       c == '"' || c == '=';
}

/* Length of the run at the cursor whose bytes satisfy @accept. */
static size_t run_length(const struct pfw_lexer *lexer, bool (*accept)(int))
{
	size_t n = 0;

	while (accept(peek_at(lexer, n)))
		n++;
	return n;
}

static bool take_text(struct pfw_lexer *lexer, struct pfw_token *token,
		      size_t n, enum pfw_token_kind kind, const char *what);

/* What a host name's word is made of (checked later, by the parser). */
static bool is_host_char(int c)
{
	return is_name_char(c) || c == '.' || c == '*' || c >= 0x80;
}

/*
 * A host name at the cursor: the run of host characters after @skip bytes
 * ("*." of a wildcard), as a HOST token.
 */
static void lex_host(struct pfw_lexer *lexer, struct pfw_token *token,
		     size_t skip)
{
	size_t n = skip;

	while (is_host_char(peek_at(lexer, n)))
		n++;
	take_text(lexer, token, n, PFW_TOK_HOST, "host name");
}

/*
 * Whether the word at the cursor (@n bytes of host characters) is a host
 * name rather than a number, an address or a name.  With @digit_start it
 * must have a '.' and a character no IPv4 address has.
 */
static bool word_is_host(const struct pfw_lexer *lexer, size_t n,
			 bool digit_start)
{
	bool dot = false, other = false;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)lexer->text[lexer->pos + i];

		dot |= c == '.';
		other |= !is_digit(c) && c != '.';
		/* "a.*.com" is a host name, but "a*" a name and a '*'. */
		if (!digit_start && c >= 0x80)
			return true;
	}
	return dot && (!digit_start || other);
}

static bool is_ipv6_char(int c)
{
	return is_hex_digit(c) || c == ':' || c == '.';
}

static bool is_ipv4_char(int c)
{
	return is_digit(c) || c == '.';
}

static char *copy_text(const struct pfw_lexer *lexer, size_t n)
{
	char *text = pfw_xrealloc(NULL, n + 1);

	memcpy(text, lexer->text + lexer->pos, n);
	text[n] = '\0';
	return text;
}

static void skip(struct pfw_lexer *lexer, size_t n)
{
	while (n--)
		advance(lexer);
}

const char *pfw_parse_address(const char *text, struct pfw_cidr *cidr,
			      bool *is_ipv4)
{
	char addr_text[ADDRESS_TEXT_MAX];
	const char *slash = strchr(text, '/');
	size_t addr_len = slash ? (size_t)(slash - text) : strlen(text);
	unsigned long prefix_len;
	struct in6_addr in6;
	struct in_addr in4;

	if (addr_len >= sizeof(addr_text))
		return "is too long to be an address";
	memcpy(addr_text, text, addr_len);
	addr_text[addr_len] = '\0';
	memset(cidr, 0, sizeof(*cidr));
	if (inet_pton(AF_INET, addr_text, &in4) == 1) {
		*is_ipv4 = true;
		cidr->addr[10] = 0xff;
		cidr->addr[11] = 0xff;
		memcpy(&cidr->addr[12], &in4, 4);
	} else if (inet_pton(AF_INET6, addr_text, &in6) == 1) {
		*is_ipv4 = false;
		memcpy(cidr->addr, &in6, 16);
	} else {
		return strchr(addr_text, ':') ? "is not a valid IPv6 address" :
						"is not a valid IPv4 address";
	}
	prefix_len = *is_ipv4 ? 32 : 128;
	if (slash) {
		char *end;

		if (!is_digit((unsigned char)slash[1]) || strlen(slash + 1) > 3)
			return "has a prefix length that is not a number";
		prefix_len = strtoul(slash + 1, &end, 10);
		if (*end)
			return "has a prefix length that is not a number";
		if (prefix_len > (*is_ipv4 ? 32ul : 128ul))
			return *is_ipv4 ? "has a prefix longer than 32 bits" :
					  "has a prefix longer than 128 bits";
	}
	cidr->prefix_len = (uint8_t)(prefix_len + (*is_ipv4 ? 96 : 0));
	{
		uint8_t first[16], last[16];

		pfw_cidr_bounds(cidr, first, last);
		if (memcmp(first, cidr->addr, 16) != 0) {
			memcpy(cidr->addr, first, 16);
			return "has bits set beyond its prefix length";
		}
	}
	return NULL;
}

static void lex_address(struct pfw_lexer *lexer, struct pfw_token *token,
			size_t n)
{
	char *text;
	const char *problem;

	/* An address may carry "/len" directly after it. */
	if (peek_at(lexer, n) == '/' && is_digit(peek_at(lexer, n + 1))) {
		n++;
		while (is_digit(peek_at(lexer, n)))
			n++;
	}
	text = copy_text(lexer, n);
	skip(lexer, n);
	token->kind = PFW_TOK_ADDRESS;
	problem = pfw_parse_address(text, &token->cidr, &token->is_ipv4);
	if (problem && strstr(problem, "beyond")) {
		char suggestion[ADDRESS_TEXT_MAX];

		pfw_cidr_format(&token->cidr, suggestion, sizeof(suggestion));
		pfw_error(lexer->diag, &token->loc,
			  "address '%s' %s; did you mean '%s'?", text, problem,
			  suggestion);
		token->kind = PFW_TOK_ERROR;
	} else if (problem) {
		pfw_error(lexer->diag, &token->loc, "'%s' %s", text, problem);
		token->kind = PFW_TOK_ERROR;
	}
	free(text);
}

static void lex_number_or_address(struct pfw_lexer *lexer,
				  struct pfw_token *token)
{
	size_t n = run_length(lexer, is_ipv6_char);

	if (memchr(lexer->text + lexer->pos, ':', n)) {
		lex_address(lexer, token, n);
		return;
	}
	if (word_is_host(lexer, run_length(lexer, is_host_char), true)) {
		lex_host(lexer, token, 0);
		return;
	}
	/* No colon: hex letters belong to what follows ("30s", "500ms"). */
	n = run_length(lexer, is_ipv4_char);
	if (memchr(lexer->text + lexer->pos, '.', n)) {
		lex_address(lexer, token, n);
		return;
	}
	token->kind = PFW_TOK_NUMBER;
	token->number = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned int digit =
			(unsigned char)lexer->text[lexer->pos + i] - '0';

		if (token->number > (UINT64_MAX - digit) / 10)
			token->number = UINT64_MAX;
		else
			token->number = token->number * 10 + digit;
	}
	skip(lexer, n);
}

/*
 * Make the next @n bytes a token of @kind with that text, or an error if
 * they are too long to be a @what.  Returns true for a good token.
 */
static bool take_text(struct pfw_lexer *lexer, struct pfw_token *token,
		      size_t n, enum pfw_token_kind kind, const char *what)
{
	if (n > TOKEN_MAX) {
		pfw_error(lexer->diag, &token->loc,
			  "%s is longer than %d characters", what, TOKEN_MAX);
		skip(lexer, n);
		token->kind = PFW_TOK_ERROR;
		return false;
	}
	token->kind = kind;
	token->text = copy_text(lexer, n);
	skip(lexer, n);
	return true;
}

static void lex_word(struct pfw_lexer *lexer, struct pfw_token *token)
{
	size_t n = run_length(lexer, is_name_char);
	bool all_hex = true;

	for (size_t i = 0; i < n; i++)
		all_hex &= is_hex_digit(
			(unsigned char)lexer->text[lexer->pos + i]);
	if (all_hex && peek_at(lexer, n) == ':') {
		lex_address(lexer, token, run_length(lexer, is_ipv6_char));
		return;
	}
	if (word_is_host(lexer, run_length(lexer, is_host_char), false)) {
		lex_host(lexer, token, 0);
		return;
	}
	if (!take_text(lexer, token, n, PFW_TOK_WORD, "name"))
		return;
	token->keyword = PFW_KW_NONE;
	for (int kw = 1; kw < PFW_KW_COUNT; kw++)
		if (strcmp(token->text, pfw_keyword_names[kw]) == 0)
			token->keyword = kw;
}

static void lex_path(struct pfw_lexer *lexer, struct pfw_token *token)
{
	size_t n = 0;

	while (!ends_path(peek_at(lexer, n)))
		n++;
	take_text(lexer, token, n, PFW_TOK_PATH, "path");
}

static int hex_value(int c)
{
	return is_digit(c)	    ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 :
				      -1;
}

/*
 * The byte an escape in a string stands for, the cursor just past its
 * backslash: \" \\ \n \t \r \e, or \xNN with two hexadecimal digits.
 * These are the escapes libpfsel's pfsel_escape() writes, so that what
 * the agent and audit2pfw quote reads back as the very same bytes.  On a
 * bad escape, reports it and returns the backslash (read on as itself).
 */
static int lex_escape(struct pfw_lexer *lexer)
{
	struct pfw_loc at = { lexer->file, lexer->line, lexer->col - 1 };
	int c = peek_at(lexer, 0), hi, lo;

	switch (c) {
	case '"':
	case '\\':
		advance(lexer);
		return c;
	case 'n':
		advance(lexer);
		return '\n';
	case 't':
		advance(lexer);
		return '\t';
	case 'r':
		advance(lexer);
		return '\r';
	case 'e':
		advance(lexer);
		return 0x1b;
	case 'x':
		hi = hex_value(peek_at(lexer, 1));
		lo = hi < 0 ? -1 : hex_value(peek_at(lexer, 2));
		if (lo < 0) {
			pfw_error(
				lexer->diag, &at,
				"'\\x' takes two hexadecimal digits, as in '\\x1b'");
			return '\\';
		}
		advance(lexer);
		advance(lexer);
		advance(lexer);
		return hi << 4 | lo;
	}
	pfw_error(
		lexer->diag, &at,
		"unknown escape in a string; the escapes are \\\" \\\\ \\n \\t \\r \\e \\xNN");
	return '\\';
}

static void lex_string(struct pfw_lexer *lexer, struct pfw_token *token)
{
	char *text = pfw_xrealloc(NULL, TOKEN_MAX + 1);
	size_t n = 0;

	token->kind = PFW_TOK_ERROR;
	advance(lexer); /* the opening quote */
	for (;;) {
		int c = peek_at(lexer, 0);

		if (c < 0 || c == '\n') {
			pfw_error(lexer->diag, &token->loc,
				  "string has no closing '\"' on its line");
			free(text);
			return;
		}
		advance(lexer);
		if (c == '"')
			break;
		if (c == '\\') {
			c = lex_escape(lexer);
			token->raw_from = n + 1;
		}
		if (c == '\0') {
			pfw_error(lexer->diag, &token->loc,
				  "string contains a NUL byte");
			free(text);
			while (peek_at(lexer, 0) >= 0 &&
			       peek_at(lexer, 0) != '\n' &&
			       peek_at(lexer, 0) != '"')
				advance(lexer);
			if (peek_at(lexer, 0) == '"')
				advance(lexer);
			return;
		}
		if (n == TOKEN_MAX) {
			pfw_error(lexer->diag, &token->loc,
				  "string is longer than %d characters",
				  TOKEN_MAX);
			free(text);
			while (peek_at(lexer, 0) >= 0 &&
			       peek_at(lexer, 0) != '\n')
				advance(lexer);
			return;
		}
		text[n++] = (char)c;
	}
	text[n] = '\0';
	token->kind = PFW_TOK_STRING;
	token->text = text;
}

/* Skip white space and comments; true if any was skipped. */
static bool skip_blanks(struct pfw_lexer *lexer)
{
	size_t start = lexer->pos;

	for (;;) {
		int c = peek_at(lexer, 0);

		if (is_space(c)) {
			advance(lexer);
		} else if (c == '#') {
			while (peek_at(lexer, 0) >= 0 &&
			       peek_at(lexer, 0) != '\n')
				advance(lexer);
		} else {
			break;
		}
	}
	return lexer->pos != start;
}

static void lex_one(struct pfw_lexer *lexer, struct pfw_token *token)
{
	int c = peek_at(lexer, 0);

	switch (c) {
	case -1:
		token->kind = PFW_TOK_EOF;
		return;
	case ';':
		token->kind = PFW_TOK_SEMICOLON;
		advance(lexer);
		return;
	case ',':
		token->kind = PFW_TOK_COMMA;
		advance(lexer);
		return;
	case '=':
		token->kind = PFW_TOK_EQUALS;
		advance(lexer);
		return;
	case '-':
		/* "-a.example": a host name with a bad label, said later. */
		if (is_name_char(peek_at(lexer, 1)) &&
		    word_is_host(lexer, run_length(lexer, is_host_char),
				 false)) {
			lex_host(lexer, token, 0);
			return;
		}
		token->kind = PFW_TOK_DASH;
		advance(lexer);
		return;
	case '/':
		lex_path(lexer, token);
		return;
	case '"':
		lex_string(lexer, token);
		return;
	case ':':
		lex_address(lexer, token, run_length(lexer, is_ipv6_char));
		return;
	case '*':
		if (peek_at(lexer, 1) == '.') {
			lex_host(lexer, token, 2);
			return;
		}
		/* "*x.com": a host name with a bad '*', said by the parser. */
		if (is_name_char(peek_at(lexer, 1))) {
			size_t n = 1;

			while (is_host_char(peek_at(lexer, n)))
				n++;
			if (memchr(lexer->text + lexer->pos, '.', n)) {
				lex_host(lexer, token, 1);
				return;
			}
		}
		if (ends_path(peek_at(lexer, 1))) {
			token->kind = PFW_TOK_STAR;
			advance(lexer);
			return;
		}
		pfw_error(lexer->diag, &token->loc,
			  "an application pattern is '*' or an absolute path");
		while (!ends_path(peek_at(lexer, 0)))
			advance(lexer);
		token->kind = PFW_TOK_ERROR;
		return;
	}
	if (is_digit(c)) {
		lex_number_or_address(lexer, token);
	} else if (is_name_start(c)) {
		lex_word(lexer, token);
	} else if (c >= 0x80) {
		/* An international name: the parser suggests its ASCII form. */
		lex_host(lexer, token, 0);
	} else {
		if (c >= 0x21 && c < 0x7f)
			pfw_error(lexer->diag, &token->loc,
				  "unexpected character '%c'", c);
		else
			pfw_error(lexer->diag, &token->loc,
				  "unexpected byte 0x%02x", (unsigned int)c);
		advance(lexer);
		token->kind = PFW_TOK_ERROR;
	}
}

/* Free @token's text, skip blanks and comments, and place it at the cursor. */
static void start_token(struct pfw_lexer *lexer, struct pfw_token *token)
{
	bool spaced;

	pfw_token_fini(token);
	memset(token, 0, sizeof(*token));
	spaced = skip_blanks(lexer);
	token->adjacent = !spaced && lexer->pos > 0;
	token->loc = (struct pfw_loc){ lexer->file, lexer->line, lexer->col };
}

void pfw_lexer_next(struct pfw_lexer *lexer, struct pfw_token *token)
{
	start_token(lexer, token);
	lex_one(lexer, token);
}

void pfw_lexer_next_bare_word(struct pfw_lexer *lexer, struct pfw_token *token)
{
	size_t n = 0;

	start_token(lexer, token);
	/* A NUL byte ends it too, and is then an error of its own. */
	while (!ends_path(peek_at(lexer, n)) && peek_at(lexer, n) != 0)
		n++;
	if (!n) {
		lex_one(lexer, token);
		return;
	}
	if (take_text(lexer, token, n, PFW_TOK_WORD, "word"))
		token->keyword = PFW_KW_NONE;
}

const char *pfw_token_describe(const struct pfw_token *token, char *buf,
			       size_t size)
{
	switch (token->kind) {
	case PFW_TOK_EOF:
		return "end of file";
	case PFW_TOK_SEMICOLON:
		return "';'";
	case PFW_TOK_COMMA:
		return "','";
	case PFW_TOK_EQUALS:
		return "'='";
	case PFW_TOK_DASH:
		return "'-'";
	case PFW_TOK_STAR:
		return "'*'";
	case PFW_TOK_NUMBER:
		snprintf(buf, size, "number %llu",
			 (unsigned long long)token->number);
		return buf;
	case PFW_TOK_ADDRESS:
		return "an address";
	case PFW_TOK_PATH:
	case PFW_TOK_STRING:
	case PFW_TOK_WORD:
	case PFW_TOK_HOST:
		snprintf(buf, size, "'%.40s%s'", token->text,
			 strlen(token->text) > 40 ? "..." : "");
		return buf;
	case PFW_TOK_ERROR:
		break;
	}
	return "a bad token";
}
