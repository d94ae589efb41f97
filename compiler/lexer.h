/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the lexer: bytes of one .pfw file to tokens
 *
 * The lexer knows the shapes of words (numbers, addresses, paths, names,
 * quoted strings), not the grammar.  Addresses come out already parsed into
 * the one address space of ast.h, so the parser never sees address text.
 */
#ifndef PFWC_LEXER_H
#define PFWC_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"

enum pfw_token_kind {
	PFW_TOK_EOF,
	PFW_TOK_SEMICOLON,
	PFW_TOK_COMMA,
	PFW_TOK_EQUALS,
	PFW_TOK_DASH,
	PFW_TOK_STAR, /* a lone '*' */
	PFW_TOK_NUMBER, /* decimal; .number saturates at UINT64_MAX */
	PFW_TOK_ADDRESS, /* IPv4 or IPv6 with optional /len: .cidr */
	PFW_TOK_PATH, /* starts with '/': .text as written */
	PFW_TOK_STRING, /* "...": .text without quotes, escapes undone */
	PFW_TOK_WORD, /* a name or keyword: .text, and .keyword */
	/*
	 * A word with a '.' or a non-ASCII byte in it, or '*' directly
	 * followed by '.': what "host" takes ("github.com", "*.example.org",
	 * "1password.com").  .text as written; the parser checks it.
	 */
	PFW_TOK_HOST,
	PFW_TOK_ERROR, /* already reported; the parser just recovers */
};

/* Reserved words; a name may not be one of them. */
enum pfw_keyword {
	PFW_KW_NONE = 0, /* a plain name */
	PFW_KW_ALLOW,
	PFW_KW_DENY,
	PFW_KW_ASK,
	PFW_KW_INCLUDE,
	PFW_KW_POLICY,
	PFW_KW_SYSTEM,
	PFW_KW_USER,
	PFW_KW_DEFAULT,
	PFW_KW_TIMEOUT,
	PFW_KW_UNANSWERED,
	PFW_KW_MODE,
	PFW_KW_PERMISSIVE,
	PFW_KW_ENFORCING,
	PFW_KW_APPS,
	PFW_KW_HOSTS,
	PFW_KW_PORTS,
	PFW_KW_SCRIPT,
	PFW_KW_FAMILY,
	PFW_KW_TO,
	PFW_KW_FROM,
	PFW_KW_ON,
	PFW_KW_PORT,
	PFW_KW_LOG,
	PFW_KW_QUIET,
	PFW_KW_PROTECT,
	PFW_KW_SCOPE, /* a rule file's (rule_file.h); an error in a policy */
	PFW_KW_HOST,
	PFW_KW_RESOLVER,
	PFW_KW_FLATPAK, /* "flatpak ID": sandbox_names.h */
	PFW_KW_SNAP, /* "snap NAME" */
	PFW_KW_ANY,
	PFW_KW_CREATE,
	PFW_KW_BIND,
	PFW_KW_CONNECT,
	PFW_KW_LISTEN,
	PFW_KW_ACCEPT,
	PFW_KW_TCP,
	PFW_KW_UDP,
	PFW_KW_ICMP,
	PFW_KW_RAW,
	PFW_KW_PACKET,
	PFW_KW_INET,
	PFW_KW_INET6,
	PFW_KW_COUNT
};

/* The spelling of each keyword, indexed by enum pfw_keyword. */
extern const char *const pfw_keyword_names[PFW_KW_COUNT];

struct pfw_token {
	enum pfw_token_kind kind;
	struct pfw_loc loc;
	/* Set when the token directly follows the previous one (no space). */
	bool adjacent;
	char *text; /* PATH, STRING, WORD, HOST: malloc'd, owned by the token */
	enum pfw_keyword keyword; /* WORD */
	uint64_t number; /* NUMBER */
	struct pfw_cidr cidr; /* ADDRESS */
	bool is_ipv4; /* ADDRESS written as IPv4 */
	/* STRING: the bytes of .text from here on were written unescaped. */
	size_t raw_from;
};

struct pfw_lexer {
	const char *file; /* owned by the policy's file table */
	const char *text;
	size_t len;
	size_t pos;
	uint32_t line;
	uint32_t col;
	struct pfw_diag *diag;
};

/* Start lexing @text (@len bytes, NUL bytes allowed) named @file. */
void pfw_lexer_init(struct pfw_lexer *lexer, const char *file, const char *text,
		    size_t len, struct pfw_diag *diag);

/* Read the next token into @token, freeing what @token held before. */
void pfw_lexer_next(struct pfw_lexer *lexer, struct pfw_token *token);

/*
 * Read the next token as pfw_lexer_next() does, but a word that would
 * start there is read bare: a PFW_TOK_WORD (keyword PFW_KW_NONE) of every
 * byte up to white space or one of ; , # " = (what ends a path), whatever
 * its shape.  For what follows "flatpak" and "snap": an ID or a name that
 * is checked whole ("org.mozilla.firefox", "0ad"), not a host name or a
 * number and a name.
 */
void pfw_lexer_next_bare_word(struct pfw_lexer *lexer, struct pfw_token *token);

/* Free what a token owns; the token may be reused. */
void pfw_token_fini(struct pfw_token *token);

/* A short description of a token for messages: "';'", "'tcp'", "end of file". */
const char *pfw_token_describe(const struct pfw_token *token, char *buf,
			       size_t size);

/*
 * Parse one address with optional "/len" (IPv4 is mapped into the one
 * address space).  Returns NULL on success, else a sentence saying why not.
 * Shared with --query's command line.
 */
const char *pfw_parse_address(const char *text, struct pfw_cidr *cidr,
			      bool *is_ipv4);

#endif /* PFWC_LEXER_H */
