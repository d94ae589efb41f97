// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the parser
 *
 * Grammar (policy/LANGUAGE.md has the prose):
 *
 *   file      := statement*
 *   statement := "include" STRING ";"
 *              | "policy" ("system" | "user" [NUMBER]) ";"
 *              | "default" verdict audit* ";"
 *              | "ask" "timeout" NUMBER ("s" | "ms") ";"
 *              | "ask" "unanswered" ("allow" | "deny") ";"
 *              | "mode" ("permissive" | "enforcing") ";"
 *              | ("apps" | "hosts" | "ports") NAME "=" list ";"
 *              | "resolver" apps ["any" "user"] ";"
 *              | verdict apps clause* ";"
 *   verdict   := "allow" | "deny" | "ask"
 *   apps      := app ("," app)*
 *   app       := pattern ["script" pattern] | NAME
 *   pattern   := "*" | PATH | STRING [GLOB]  (GLOB: slash-star, two stars)
 *              | "flatpak" FLATPAK-ID | "snap" SNAP-NAME  (sandbox_names.h)
 *   clause    := op ("," op)* | proto ("," proto)*
 *              | "family" family ("," family)*
 *              | ("to" | "from" | "on") address-list
 *              | "port" port-list | "log" | "quiet" | "protect"
 *              | "scope" ("once" | "process" | "session" | "always")
 *   address   := "any" | ADDRESS | NAME | "host" HOSTNAME
 *   HOSTNAME  := ["*."] LABEL ("." LABEL)*   (host_names.h checks it)
 *   port      := "any" | NUMBER ["-" NUMBER] | NAME
 *
 * pfsel-agent's rule file (pfw_parse_options.rule_file) is the same
 * grammar with fewer statements: rules, "allow" or "deny" only, and
 * definitions.  Its rules may say "scope" and may not say "log", "quiet"
 * or "protect"; a policy's rules may not say "scope".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_names.h"
#include "lexer.h"
#include "parser.h"
#include "pfsel.h"
#include "sandbox_names.h"

/* The scopes of an agent's answer, which a rule file's "scope" names. */
static const char *const scope_names[] = {
#define PFSEL_SCOPE(id, name, value) [PFSEL_CHECKED_INDEX(id, value)] = name,
#include "pfsel_names.h"
#undef PFSEL_SCOPE
};

/* The files being parsed, innermost last, to find include cycles. */
struct include_frame {
	char *real_path;
	struct include_frame *outer;
};

struct parser {
	struct pfw_policy *policy;
	struct pfw_diag *diag;
	const struct pfw_parse_options *options;
	struct include_frame *includes;
	unsigned int depth;

	/* The file being parsed now. */
	struct pfw_lexer lexer;
	struct pfw_token token;
	/* Just after the previous token: where a missing ';' belongs. */
	struct pfw_loc prev_end;
};

char *pfw_read_source(const char *path, size_t *len)
{
	struct stat st;
	char *text;
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	if ((unsigned long long)st.st_size > PFW_SOURCE_SIZE_MAX) {
		errno = EFBIG;
		goto fail;
	}
	text = pfw_xrealloc(NULL, (size_t)st.st_size + 1);
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, text + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int saved = n < 0 ? errno : EIO;

			free(text);
			close(fd);
			errno = saved;
			return NULL;
		}
		done += (size_t)n;
	}
	text[done] = '\0';
	close(fd);
	*len = done;
	return text;
fail : {
	int saved = errno;

	close(fd);
	errno = saved;
	return NULL;
}
}

/*
 * A path, normalised into @pattern (repeated '/' are one, no trailing
 * '/'): with @literal, every byte is itself and the pattern is EXACT;
 * without, a last component "*" or "**" makes it CHILD or TREE.
 */
static const char *parse_path(const char *text, bool literal,
			      struct pfw_path_pattern *pattern)
{
	size_t len = strlen(text), out = 0;
	char *path;

	memset(pattern, 0, sizeof(*pattern));
	if (!literal && strcmp(text, "*") == 0) {
		pattern->kind = PFW_PATH_ANY;
		return NULL;
	}
	if (text[0] != '/')
		return literal ?
			       "an exact path is absolute: it starts with '/'" :
			       "an application pattern is '*' or an absolute path";
	if (text[len - 1] == '/')
		return literal ?
			       "an exact path names a file, not a directory; write '\"DIR\"/*' or '\"DIR\"/**' for the files in it" :
			       "a path names a file, not a directory; write 'DIR/*' or 'DIR/**' for the files in it";
	path = pfw_xrealloc(NULL, len + 1);
	pattern->kind = PFW_PATH_EXACT;
	for (const char *comp = text; *comp;) {
		const char *end;
		size_t comp_len;

		while (*comp == '/')
			comp++;
		end = strchrnul(comp, '/');
		comp_len = (size_t)(end - comp);
		if ((comp_len == 1 && comp[0] == '.') ||
		    (comp_len == 2 && comp[0] == '.' && comp[1] == '.')) {
			free(path);
			return "a path may not contain '.' or '..' components";
		}
		if (!literal && memchr(comp, '*', comp_len)) {
			bool last = *end == '\0';

			if (!last || (comp_len != 1 && comp_len != 2) ||
			    comp[comp_len - 1] != '*' || comp[0] != '*') {
				free(path);
				return "'*' may only be a whole last component: 'DIR/*' or 'DIR/**'";
			}
			pattern->kind = comp_len == 1 ? PFW_PATH_CHILD :
							PFW_PATH_TREE;
			break;
		}
		path[out++] = '/';
		memcpy(path + out, comp, comp_len);
		out += comp_len;
		comp = end;
	}
	path[out] = '\0';
	pattern->path = path;
	return NULL;
}

const char *pfw_parse_path_pattern(const char *text,
				   struct pfw_path_pattern *pattern)
{
	return parse_path(text, false, pattern);
}

const char *pfw_parse_exact_path(const char *text,
				 struct pfw_path_pattern *pattern)
{
	return parse_path(text, true, pattern);
}

/* ---- Tokens ---- */

static void next(struct parser *p)
{
	p->prev_end =
		(struct pfw_loc){ p->lexer.file, p->lexer.line, p->lexer.col };
	pfw_lexer_next(&p->lexer, &p->token);
}

/*
 * A ';' is missing if the statement ended and the next one starts on a
 * later line: say so where the ';' belongs, not at the next statement.
 */
static bool missing_semicolon(struct parser *p, const char *after)
{
	if (p->token.kind == PFW_TOK_ERROR ||
	    p->token.loc.line <= p->prev_end.line)
		return false;
	pfw_error(p->diag, &p->prev_end, "expected ';' after %s", after);
	return true;
}

static bool is_keyword(const struct parser *p, enum pfw_keyword keyword)
{
	return p->token.kind == PFW_TOK_WORD && p->token.keyword == keyword;
}

static bool is_name(const struct parser *p)
{
	return p->token.kind == PFW_TOK_WORD && p->token.keyword == PFW_KW_NONE;
}

/*
 * The word at the token is the policy language's and not a rule file's
 * (@why says what a rule file is instead): an error there.
 */
static bool policy_only(struct parser *p, const char *why)
{
	pfw_error(p->diag, &p->token.loc,
		  "'%s' is for a policy, not a rule file: %s", p->token.text,
		  why);
	return false;
}

/* "expected X, but found Y": the standard syntax error at the token. */
static void expected(struct parser *p, const char *what)
{
	char buf[80];

	/* The lexer already reported a bad token; one message is enough. */
	if (p->token.kind == PFW_TOK_ERROR)
		return;
	pfw_error(p->diag, &p->token.loc, "expected %s, but found %s", what,
		  pfw_token_describe(&p->token, buf, sizeof(buf)));
}

/* Consume the token if it has @kind. */
static bool accept(struct parser *p, enum pfw_token_kind kind)
{
	if (p->token.kind != kind)
		return false;
	next(p);
	return true;
}

static bool accept_keyword(struct parser *p, enum pfw_keyword keyword)
{
	if (!is_keyword(p, keyword))
		return false;
	next(p);
	return true;
}

/* True at a statement keyword that begins a line: a likely restart. */
static bool at_line_start_statement(const struct parser *p)
{
	if (p->token.kind != PFW_TOK_WORD ||
	    p->token.loc.line <= p->prev_end.line)
		return false;
	switch (p->token.keyword) {
	case PFW_KW_ALLOW:
	case PFW_KW_DENY:
	case PFW_KW_ASK:
	case PFW_KW_INCLUDE:
	case PFW_KW_POLICY:
	case PFW_KW_DEFAULT:
	case PFW_KW_APPS:
	case PFW_KW_HOSTS:
	case PFW_KW_PORTS:
	case PFW_KW_RESOLVER:
		return true;
	default:
		return false;
	}
}

/*
 * After an error: skip past the next ';', or up to a statement keyword at
 * the start of a line (a forgotten ';' should cost one statement, not two).
 */
static void recover(struct parser *p, const struct pfw_loc *statement_start)
{
	while (p->token.kind != PFW_TOK_EOF &&
	       p->token.kind != PFW_TOK_SEMICOLON) {
		/* The failed statement's own first word never restarts. */
		bool moved = p->token.loc.line != statement_start->line ||
			     p->token.loc.col != statement_start->col;

		if (moved && at_line_start_statement(p))
			return;
		next(p);
	}
	accept(p, PFW_TOK_SEMICOLON);
}

static bool expect_semicolon(struct parser *p, const char *after)
{
	char what[96];

	if (accept(p, PFW_TOK_SEMICOLON))
		return true;
	if (missing_semicolon(p, after))
		return false;
	snprintf(what, sizeof(what), "';' after %s", after);
	expected(p, what);
	return false;
}

static struct pfw_ref *add_ref(struct pfw_ref **refs, size_t *n,
			       const struct pfw_token *token)
{
	struct pfw_ref *ref = pfw_push((void **)refs, n, sizeof(*ref));

	ref->name = pfw_xstrdup(token->text);
	ref->loc = token->loc;
	return ref;
}

/* ---- Lists ---- */

/*
 * A quoted path: exact, every byte itself (the quoted "/tmp/dir/" + "*" is
 * the file named '*').  Directly followed by a PATH token "/" + "*" or
 * "/" + "**" (no blank between), it is the directory of a glob, as in
 * "/opt/My App" + "/" + "*".
 */
static bool parse_quoted_pattern(struct parser *p,
				 struct pfw_path_pattern *pattern)
{
	struct pfw_loc loc = p->token.loc;
	char *dir = pfw_xstrdup(p->token.text);
	size_t len = strlen(dir), raw_from = p->token.raw_from;
	const char *problem;

	next(p);
	if (p->token.kind == PFW_TOK_PATH && p->token.adjacent) {
		enum pfw_path_kind kind =
			strcmp(p->token.text, "/*") == 0  ? PFW_PATH_CHILD :
			strcmp(p->token.text, "/**") == 0 ? PFW_PATH_TREE :
							    PFW_PATH_ANY;

		if (kind == PFW_PATH_ANY) {
			pfw_error(
				p->diag, &p->token.loc,
				"only '/*' or '/**' may follow a quoted directory directly");
			free(dir);
			return false;
		}
		next(p);
		if (strcmp(dir, "/") == 0) { /* the root is stored as "" */
			free(dir);
			*pattern = (struct pfw_path_pattern){ kind,
							      pfw_xstrdup("") };
			return true;
		}
		problem = pfw_parse_exact_path(dir, pattern);
		if (!problem)
			pattern->kind = kind;
	} else {
		const char *last = strrchr(dir, '/');
		size_t stars = last ? strlen(last + 1) : 0;

		problem = pfw_parse_exact_path(dir, pattern);
		/*
		 * Before quoted paths were exact, a last "*" or "**" in one
		 * was a glob.  Written as "\x2a", it plainly means the file.
		 */
		if (!problem && (stars == 1 || stars == 2) &&
		    strspn(last + 1, "*") == stars && len - stars >= raw_from)
			pfw_warn(
				p->diag, PFW_W_EXACT, &loc,
				"a quoted path is exact: this names the file '%s' itself (write '\\x2a' for '*' to say so); for the files in the directory write '\"DIR\"%s'",
				last + 1, last);
	}
	free(dir);
	if (problem) {
		pfw_error(p->diag, &loc, "%s", problem);
		return false;
	}
	return true;
}

/*
 * "flatpak ID" or "snap NAME", at the keyword: the identity, read bare
 * and checked as Flatpak and snapd check it (an error points at the
 * character that is wrong), becomes the tree pattern of its folder
 * (sandbox_names.h).
 */
static bool parse_sandbox_pattern(struct parser *p, enum pfw_sandbox kind,
				  struct pfw_path_pattern *pattern)
{
	char buf[200];
	const char *problem;
	size_t bad;

	p->prev_end =
		(struct pfw_loc){ p->lexer.file, p->lexer.line, p->lexer.col };
	pfw_lexer_next_bare_word(&p->lexer, &p->token);
	if (p->token.kind != PFW_TOK_WORD) {
		expected(
			p,
			kind == PFW_SANDBOX_FLATPAK ?
				"a Flatpak application ID such as 'org.mozilla.firefox'" :
				"a snap name such as 'firefox'");
		return false;
	}
	problem =
		pfw_sandbox_check(kind, p->token.text, &bad, buf, sizeof(buf));
	if (problem) {
		struct pfw_loc at = p->token.loc;

		at.col += (uint32_t)bad;
		pfw_error(p->diag, &at, "%s", problem);
		return false;
	}
	pfw_sandbox_pattern(kind, p->token.text, pattern);
	next(p);
	return true;
}

static bool parse_pattern(struct parser *p, struct pfw_path_pattern *pattern)
{
	const char *problem;

	if (is_keyword(p, PFW_KW_FLATPAK))
		return parse_sandbox_pattern(p, PFW_SANDBOX_FLATPAK, pattern);
	if (is_keyword(p, PFW_KW_SNAP))
		return parse_sandbox_pattern(p, PFW_SANDBOX_SNAP, pattern);
	if (accept(p, PFW_TOK_STAR)) {
		pattern->kind = PFW_PATH_ANY;
		return true;
	}
	if (p->token.kind == PFW_TOK_STRING)
		return parse_quoted_pattern(p, pattern);
	if (p->token.kind != PFW_TOK_PATH) {
		expected(p,
			 "'*', an absolute path, 'flatpak ID' or 'snap NAME'");
		return false;
	}
	problem = pfw_parse_path_pattern(p->token.text, pattern);
	if (problem) {
		pfw_error(p->diag, &p->token.loc, "%s", problem);
		return false;
	}
	next(p);
	return true;
}

/* One application: a pattern, a script form, or a name. */
static bool parse_app(struct parser *p, struct pfw_app **apps, size_t *n_apps,
		      struct pfw_ref **refs, size_t *n_refs)
{
	struct pfw_app app = { .loc = p->token.loc };

	if (is_name(p)) {
		add_ref(refs, n_refs, &p->token);
		next(p);
		return true;
	}
	if (p->token.kind != PFW_TOK_STAR && p->token.kind != PFW_TOK_PATH &&
	    p->token.kind != PFW_TOK_STRING && !is_keyword(p, PFW_KW_FLATPAK) &&
	    !is_keyword(p, PFW_KW_SNAP)) {
		expected(
			p,
			"an application ('*', an absolute path, 'flatpak ID', 'snap NAME' or a name)");
		return false;
	}
	if (!parse_pattern(p, &app.exe))
		return false;
	if (accept_keyword(p, PFW_KW_SCRIPT)) {
		app.is_script = true;
		if (!parse_pattern(p, &app.script)) {
			free(app.exe.path);
			return false;
		}
	}
	*(struct pfw_app *)pfw_push((void **)apps, n_apps, sizeof(app)) = app;
	return true;
}

static bool parse_app_list(struct parser *p, struct pfw_app **apps,
			   size_t *n_apps, struct pfw_ref **refs,
			   size_t *n_refs)
{
	do {
		if (!parse_app(p, apps, n_apps, refs, n_refs))
			return false;
	} while (accept(p, PFW_TOK_COMMA));
	return true;
}

/*
 * The pattern after "host": checked, lower-cased, into @hosts.  Errors
 * point at the character that is wrong.
 */
static bool parse_host(struct parser *p, struct pfw_host **hosts,
		       size_t *n_hosts)
{
	struct pfw_host host = { .loc = p->token.loc };
	const char *problem;
	char buf[PFSEL_HOST_NAME_MAX * 2 + 200];
	size_t bad;

	if (p->token.kind == PFW_TOK_ADDRESS) {
		pfw_error(
			p->diag, &p->token.loc,
			"an address is written as it is, without 'host' before it");
		return false;
	}
	if (p->token.kind == PFW_TOK_STAR) {
		pfw_error(
			p->diag, &p->token.loc,
			"'host *' would be every name; write '*.' and a domain ('host *.example.org'), or 'any' for every address");
		return false;
	}
	if (p->token.kind != PFW_TOK_HOST && !is_name(p)) {
		expected(
			p,
			"a host name such as 'example.org' or '*.example.org'");
		return false;
	}
	problem = pfw_host_parse(p->token.text, &host, &bad, buf, sizeof(buf));
	if (problem) {
		struct pfw_loc at = p->token.loc;

		at.col += (uint32_t)bad;
		pfw_error(p->diag, &at, "%s", problem);
		return false;
	}
	*(struct pfw_host *)pfw_push((void **)hosts, n_hosts, sizeof(host)) =
		host;
	next(p);
	return true;
}

static bool parse_address_list(struct parser *p, bool *any,
			       struct pfw_cidr **addrs, size_t *n_addrs,
			       struct pfw_host **hosts, size_t *n_hosts,
			       struct pfw_ref **refs, size_t *n_refs)
{
	do {
		if (accept_keyword(p, PFW_KW_ANY)) {
			*any = true;
		} else if (accept_keyword(p, PFW_KW_HOST)) {
			if (!parse_host(p, hosts, n_hosts))
				return false;
		} else if (p->token.kind == PFW_TOK_HOST) {
			pfw_error(p->diag, &p->token.loc,
				  "a host name follows 'host': write 'host %s'",
				  p->token.text);
			return false;
		} else if (p->token.kind == PFW_TOK_ADDRESS) {
			*(struct pfw_cidr *)pfw_push((void **)addrs, n_addrs,
						     sizeof(**addrs)) =
				p->token.cidr;
			next(p);
		} else if (is_name(p)) {
			add_ref(refs, n_refs, &p->token);
			next(p);
		} else {
			expected(
				p,
				"an address, 'host' and a host name, a name or 'any'");
			return false;
		}
	} while (accept(p, PFW_TOK_COMMA));
	return true;
}

static bool parse_port_number(struct parser *p, uint16_t *port)
{
	if (p->token.kind != PFW_TOK_NUMBER) {
		expected(p, "a port number");
		return false;
	}
	if (p->token.number > 65535) {
		pfw_error(p->diag, &p->token.loc,
			  "port %llu is out of range; ports are 0 to 65535",
			  (unsigned long long)p->token.number);
		return false;
	}
	*port = (uint16_t)p->token.number;
	next(p);
	return true;
}

static bool parse_port_list(struct parser *p, bool *any,
			    struct pfw_port_range **ports, size_t *n_ports,
			    struct pfw_ref **refs, size_t *n_refs)
{
	do {
		struct pfw_port_range range;
		struct pfw_loc loc = p->token.loc;

		if (accept_keyword(p, PFW_KW_ANY)) {
			*any = true;
			continue;
		}
		if (is_name(p)) {
			add_ref(refs, n_refs, &p->token);
			next(p);
			continue;
		}
		if (p->token.kind != PFW_TOK_NUMBER) {
			expected(p, "a port, a port range, a name or 'any'");
			return false;
		}
		if (!parse_port_number(p, &range.first))
			return false;
		range.last = range.first;
		if (accept(p, PFW_TOK_DASH) &&
		    !parse_port_number(p, &range.last))
			return false;
		if (range.last < range.first) {
			pfw_error(
				p->diag, &loc,
				"port range %u-%u is empty; write the lower port first",
				range.first, range.last);
			return false;
		}
		*(struct pfw_port_range *)pfw_push((void **)ports, n_ports,
						   sizeof(range)) = range;
	} while (accept(p, PFW_TOK_COMMA));
	return true;
}

/*
 * A comma-separated list of keywords from @first..@last, mapped to bits
 * 1 << (keyword - @first).
 */
static uint32_t parse_keyword_set(struct parser *p, enum pfw_keyword first,
				  enum pfw_keyword last, const char *what)
{
	uint32_t set = 0;

	do {
		if (p->token.kind != PFW_TOK_WORD || p->token.keyword < first ||
		    p->token.keyword > last) {
			expected(p, what);
			return 0;
		}
		set |= 1u << (p->token.keyword - first);
		next(p);
	} while (accept(p, PFW_TOK_COMMA));
	return set;
}

/* ---- Statements ---- */

static bool parse_verdict(struct parser *p, bool allow_ask,
			  enum pfw_verdict *verdict)
{
	if (accept_keyword(p, PFW_KW_ALLOW)) {
		*verdict = PFW_VERDICT_ALLOW;
	} else if (accept_keyword(p, PFW_KW_DENY)) {
		*verdict = PFW_VERDICT_DENY;
	} else if (allow_ask && accept_keyword(p, PFW_KW_ASK)) {
		*verdict = PFW_VERDICT_ASK;
	} else {
		expected(p, allow_ask ? "'allow', 'deny' or 'ask'" :
					"'allow' or 'deny'");
		return false;
	}
	return true;
}

static bool parse_audit_flag(struct parser *p, uint32_t *audit)
{
	uint32_t flag;

	if (is_keyword(p, PFW_KW_LOG))
		flag = PFW_AUDIT_LOG_ALLOWED;
	else if (is_keyword(p, PFW_KW_QUIET))
		flag = PFW_AUDIT_QUIET_DENIAL;
	else
		return false;
	if (*audit & flag)
		pfw_error(p->diag, &p->token.loc, "'%s' is given twice",
			  p->token.text);
	*audit |= flag;
	next(p);
	return true;
}

/*
 * A setting: its keyword, a value that @value parses (into the settings),
 * a semicolon.  A setting may be given once: @loc says where it was (line
 * 0: not yet), and is set to where this one starts once its value parsed.
 * @what names it in messages.
 */
static bool parse_setting(struct parser *p, struct pfw_loc *loc,
			  const char *what, bool (*value)(struct parser *p))
{
	struct pfw_loc at = p->token.loc;

	if (loc->line) {
		pfw_error(p->diag, &p->token.loc, "%s is already set", what);
		pfw_note(p->diag, loc, "it was set here");
		return false;
	}
	next(p);
	if (!value(p))
		return false;
	*loc = at;
	return expect_semicolon(p, what);
}

static bool parse_policy_kind_value(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;

	if (accept_keyword(p, PFW_KW_SYSTEM)) {
		settings->is_system = true;
	} else if (accept_keyword(p, PFW_KW_USER)) {
		settings->is_system = false;
		if (p->token.kind == PFW_TOK_NUMBER) {
			/* (uid_t)-1 means "no uid" to the kernel. */
			if (p->token.number >= UINT32_MAX) {
				pfw_error(p->diag, &p->token.loc,
					  "uid %llu is out of range",
					  (unsigned long long)p->token.number);
				return false;
			}
			settings->has_uid = true;
			settings->uid = (uint32_t)p->token.number;
			next(p);
		}
	} else {
		expected(p, "'system' or 'user'");
		return false;
	}
	return true;
}

static bool parse_default_value(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;

	if (!parse_verdict(p, true, &settings->default_verdict))
		return false;
	while (parse_audit_flag(p, &settings->default_audit))
		;
	return true;
}

static bool parse_ask_timeout_value(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;
	uint64_t ms;
	struct pfw_loc loc;

	loc = p->token.loc;
	if (p->token.kind != PFW_TOK_NUMBER) {
		expected(p, "a duration such as '30s' or '500ms'");
		return false;
	}
	ms = p->token.number;
	next(p);
	if (p->token.kind == PFW_TOK_WORD && strcmp(p->token.text, "s") == 0) {
		ms = ms > UINT64_MAX / 1000 ? UINT64_MAX : ms * 1000;
	} else if (p->token.kind != PFW_TOK_WORD ||
		   strcmp(p->token.text, "ms") != 0) {
		expected(p, "a unit, 's' or 'ms'");
		return false;
	}
	next(p);
	if (ms < PFSEL_ASK_TIMEOUT_MIN_MS || ms > PFSEL_ASK_TIMEOUT_MAX_MS) {
		pfw_error(p->diag, &loc,
			  "the ask timeout must be from %ums to %us",
			  PFSEL_ASK_TIMEOUT_MIN_MS,
			  PFSEL_ASK_TIMEOUT_MAX_MS / 1000);
		return false;
	}
	settings->ask_timeout_ms = (uint32_t)ms;
	return true;
}

static bool parse_ask_unanswered_value(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;

	if (is_keyword(p, PFW_KW_ASK)) {
		pfw_error(
			p->diag, &p->token.loc,
			"an unanswered question cannot be asked again; use 'allow' or 'deny'");
		return false;
	}
	return parse_verdict(p, false, &settings->no_answer);
}

static bool parse_mode_value(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;

	if (accept_keyword(p, PFW_KW_PERMISSIVE)) {
		settings->permissive = true;
	} else if (accept_keyword(p, PFW_KW_ENFORCING)) {
		settings->permissive = false;
	} else {
		expected(p, "'permissive' or 'enforcing'");
		return false;
	}
	return true;
}

static bool parse_definition(struct parser *p)
{
	struct pfw_def def = { .loc = p->token.loc };
	bool ok;

	def.kind = p->token.keyword == PFW_KW_APPS  ? PFW_DEF_APPS :
		   p->token.keyword == PFW_KW_HOSTS ? PFW_DEF_HOSTS :
						      PFW_DEF_PORTS;
	next(p);
	if (p->token.kind == PFW_TOK_WORD && p->token.keyword != PFW_KW_NONE) {
		pfw_error(p->diag, &p->token.loc,
			  "'%s' is a keyword and cannot be a name",
			  p->token.text);
		return false;
	}
	if (!is_name(p)) {
		expected(p, "a name");
		return false;
	}
	def.name = pfw_xstrdup(p->token.text);
	def.loc = p->token.loc;
	next(p);
	if (!accept(p, PFW_TOK_EQUALS)) {
		expected(p, "'='");
		free(def.name);
		return false;
	}
	switch (def.kind) {
	case PFW_DEF_APPS:
		ok = parse_app_list(p, &def.apps, &def.n_apps, &def.refs,
				    &def.n_refs);
		break;
	case PFW_DEF_HOSTS:
		ok = parse_address_list(p, &def.any_addr, &def.addrs,
					&def.n_addrs, &def.hosts, &def.n_hosts,
					&def.refs, &def.n_refs);
		break;
	default:
		ok = parse_port_list(p, &def.any_port, &def.ports, &def.n_ports,
				     &def.refs, &def.n_refs);
		break;
	}
	/* Keep even a broken definition: uses of it then resolve quietly. */
	*(struct pfw_def *)pfw_push((void **)&p->policy->defs,
				    &p->policy->n_defs, sizeof(def)) = def;
	return ok && expect_semicolon(p, "the definition");
}

/* What one rule wrote explicitly, to narrow or check its implicit parts. */
struct rule_clauses {
	struct pfw_loc ops_loc, protos_loc, families_loc, addr_loc, port_loc;
	struct pfw_loc scope_loc;
};

/*
 * Decide what the rule's implicit lists mean, and reject the explicit
 * contradictions (see the invariants in ast.h).
 */
static bool complete_rule(struct parser *p, struct pfw_rule *rule,
			  const struct rule_clauses *clauses)
{
	bool addr_limited = clauses->addr_loc.line && !rule->any_addr;
	bool port_limited = clauses->port_loc.line && !rule->any_port;

	if (!clauses->addr_loc.line)
		rule->any_addr = true;
	if (!clauses->port_loc.line)
		rule->any_port = true;
	if (!clauses->families_loc.line)
		rule->families = PFW_FAMILY_ALL;

	if (!clauses->ops_loc.line) {
		rule->ops = PFW_OP_ALL;
		if (addr_limited || port_limited)
			rule->ops &= ~PFW_OP_CREATE;
	} else if ((rule->ops & PFW_OP_CREATE) &&
		   (addr_limited || port_limited)) {
		pfw_error(
			p->diag, &clauses->ops_loc,
			"'create' has no address or port to match; put it in a rule of its own");
		return false;
	}

	if (!clauses->protos_loc.line) {
		rule->protos = PFW_PROTO_ALL;
		if (port_limited)
			rule->protos &= PFW_PROTO_PORTED;
		/* Packet sockets are only ever checked at create. */
		if (addr_limited || !(rule->ops & PFW_OP_CREATE))
			rule->protos &= ~PFW_PROTO_PACKET;
		return true;
	}
	if (port_limited && (rule->protos & ~PFW_PROTO_PORTED)) {
		pfw_error(
			p->diag, &clauses->port_loc,
			"only tcp and udp have ports; give icmp, raw and packet a rule without 'port'");
		return false;
	}
	if ((rule->protos & PFW_PROTO_PACKET) &&
	    (addr_limited || !(rule->ops & PFW_OP_CREATE))) {
		pfw_error(
			p->diag, &clauses->protos_loc,
			"packet sockets have no IP address and are only checked at 'create'");
		return false;
	}
	return true;
}

/* Note a clause's place, or complain that it was already given. */
static bool first_clause(struct parser *p, struct pfw_loc *loc,
			 const char *what)
{
	if (loc->line) {
		pfw_error(p->diag, &p->token.loc, "the rule already has %s",
			  what);
		pfw_note(p->diag, loc, "given here");
		return false;
	}
	*loc = p->token.loc;
	return true;
}

/* "scope" and its value: how long a rule file's answer holds. */
static bool parse_scope(struct parser *p, struct pfw_rule *rule,
			struct rule_clauses *clauses)
{
	if (!p->options->rule_file) {
		pfw_error(
			p->diag, &p->token.loc,
			"'scope' is for pfsel-agent's rule file, not a policy: it says how long the agent's answer holds");
		return false;
	}
	if (!first_clause(p, &clauses->scope_loc, "a scope"))
		return false;
	next(p);
	for (unsigned int i = 0;
	     i < sizeof(scope_names) / sizeof(scope_names[0]); i++) {
		if (is_name(p) && strcmp(p->token.text, scope_names[i]) == 0) {
			rule->scope = i;
			next(p);
			return true;
		}
	}
	expected(p, "a scope: 'once', 'process', 'session' or 'always'");
	return false;
}

static bool parse_rule_clause(struct parser *p, struct pfw_rule *rule,
			      struct rule_clauses *clauses)
{
	enum pfw_keyword kw = p->token.keyword;

	if (p->token.kind != PFW_TOK_WORD)
		kw = PFW_KW_NONE;
	if (kw >= PFW_KW_CREATE && kw <= PFW_KW_ACCEPT) {
		if (!first_clause(p, &clauses->ops_loc, "a list of operations"))
			return false;
		rule->ops = parse_keyword_set(p, PFW_KW_CREATE, PFW_KW_ACCEPT,
					      "an operation");
		return rule->ops != 0;
	}
	if (kw >= PFW_KW_TCP && kw <= PFW_KW_PACKET) {
		if (!first_clause(p, &clauses->protos_loc,
				  "a list of protocols"))
			return false;
		rule->protos = parse_keyword_set(p, PFW_KW_TCP, PFW_KW_PACKET,
						 "a protocol");
		return rule->protos != 0;
	}
	switch (kw) {
	case PFW_KW_FAMILY:
		if (!first_clause(p, &clauses->families_loc, "a 'family'"))
			return false;
		next(p);
		rule->families = parse_keyword_set(p, PFW_KW_INET, PFW_KW_INET6,
						   "'inet' or 'inet6'");
		return rule->families != 0;
	case PFW_KW_TO:
	case PFW_KW_FROM:
	case PFW_KW_ON:
		if (!first_clause(p, &clauses->addr_loc, "an address list"))
			return false;
		next(p);
		return parse_address_list(p, &rule->any_addr, &rule->addrs,
					  &rule->n_addrs, &rule->hosts,
					  &rule->n_hosts, &rule->addr_refs,
					  &rule->n_addr_refs);
	case PFW_KW_PORT:
		if (!first_clause(p, &clauses->port_loc, "a port list"))
			return false;
		next(p);
		return parse_port_list(p, &rule->any_port, &rule->ports,
				       &rule->n_ports, &rule->port_refs,
				       &rule->n_port_refs);
	case PFW_KW_LOG:
	case PFW_KW_QUIET:
		if (p->options->rule_file)
			return policy_only(
				p,
				"a rule there is an answer, and the policy's rule that asked says what is audited");
		return parse_audit_flag(p, &rule->audit);
	case PFW_KW_PROTECT:
		if (p->options->rule_file)
			return policy_only(
				p,
				"a rule there is an answer, which protects no application");
		/* A flag like log and quiet, so it says so the way they do. */
		if (rule->protect)
			pfw_error(p->diag, &p->token.loc,
				  "'protect' is given twice");
		else
			rule->protect_loc = p->token.loc;
		rule->protect = true;
		next(p);
		return true;
	case PFW_KW_SCOPE:
		return parse_scope(p, rule, clauses);
	default:
		if (missing_semicolon(p, "the rule"))
			return false;
		expected(
			p,
			p->options->rule_file ?
				"an operation, a protocol, 'family', 'to', 'from', 'on', 'port', 'scope' or ';'" :
				"an operation, a protocol, 'family', 'to', 'from', 'on', 'port', 'log', 'quiet', 'protect' or ';'");
		return false;
	}
}

/* The rest of a rule, after its verdict (written at @loc). */
static bool parse_rule(struct parser *p, enum pfw_verdict verdict,
		       const struct pfw_loc *loc)
{
	struct pfw_policy *policy = p->policy;
	struct pfw_rule rule = {
		.loc = *loc,
		.verdict = verdict,
		.shadowed_by = -1,
	};
	struct rule_clauses clauses = { 0 };
	bool ok = parse_app_list(p, &rule.apps, &rule.n_apps, &rule.app_refs,
				 &rule.n_app_refs);

	while (ok && p->token.kind != PFW_TOK_SEMICOLON)
		ok = parse_rule_clause(p, &rule, &clauses);
	if (ok)
		ok = complete_rule(p, &rule, &clauses);
	rule.addr_loc = clauses.addr_loc;
	rule.port_loc = clauses.port_loc;
	if (!ok) {
		/* Later phases see only whole rules. */
		pfw_rule_fini(&rule);
		return false;
	}
	next(p);
	rule.index = (uint32_t)policy->n_rules;
	*(struct pfw_rule *)pfw_push((void **)&policy->rules, &policy->n_rules,
				     sizeof(rule)) = rule;
	return true;
}

/*
 * "resolver APPS [any user];": whether it may be here (the system policy
 * only) is sema's to say, since "policy system;" or --system may come later.
 */
static bool parse_resolver(struct parser *p)
{
	struct pfw_resolver resolver = { .loc = p->token.loc };
	bool ok;

	next(p);
	ok = parse_app_list(p, &resolver.apps, &resolver.n_apps,
			    &resolver.app_refs, &resolver.n_app_refs);
	if (ok && accept_keyword(p, PFW_KW_ANY)) {
		resolver.any_user = true;
		if (!accept_keyword(p, PFW_KW_USER)) {
			expected(p, "'user' after 'any'");
			ok = false;
		}
	}
	if (ok && p->token.kind != PFW_TOK_SEMICOLON) {
		if (!missing_semicolon(p, "the resolver statement"))
			expected(p, "',', 'any user' or ';'");
		ok = false;
	}
	if (!ok) {
		/* Only whole statements reach sema; free this one. */
		for (size_t i = 0; i < resolver.n_apps; i++) {
			free(resolver.apps[i].exe.path);
			free(resolver.apps[i].script.path);
		}
		free(resolver.apps);
		for (size_t i = 0; i < resolver.n_app_refs; i++)
			free(resolver.app_refs[i].name);
		free(resolver.app_refs);
		return false;
	}
	next(p);
	*(struct pfw_resolver *)pfw_push((void **)&p->policy->resolvers,
					 &p->policy->n_resolvers,
					 sizeof(resolver)) = resolver;
	return true;
}

static void parse_file_at(struct parser *p, const char *path,
			  const struct pfw_loc *included_at);

static bool parse_include(struct parser *p)
{
	struct pfw_loc include_loc = p->token.loc;
	char *target, *slash;
	const char *including = p->lexer.file;

	next(p);
	if (p->token.kind != PFW_TOK_STRING && p->token.kind != PFW_TOK_PATH) {
		expected(p, "a quoted file name");
		return false;
	}
	if (!p->options->allow_includes) {
		pfw_error(p->diag, &include_loc, "include is not allowed here");
		return false;
	}
	if (p->token.text[0] == '/' || !(slash = strrchr(including, '/'))) {
		target = pfw_xstrdup(p->token.text);
	} else {
		/* Relative to the directory of the including file. */
		size_t dir_len = (size_t)(slash - including) + 1;

		target =
			pfw_xrealloc(NULL, dir_len + strlen(p->token.text) + 1);
		memcpy(target, including, dir_len);
		strcpy(target + dir_len, p->token.text);
	}
	next(p);
	if (!expect_semicolon(p, "the included file name")) {
		free(target);
		return false;
	}
	parse_file_at(p, target, &include_loc);
	free(target);
	return true;
}

/*
 * What a rule file may not say at the start of a statement: include,
 * settings, and "ask" (the file is the answer).  False, with an error, for
 * those; true for the rest.
 */
static bool rule_file_statement(struct parser *p)
{
	struct pfw_loc at = p->token.loc;

	switch (p->token.keyword) {
	case PFW_KW_INCLUDE:
		return policy_only(
			p,
			"the agent reads its rule file alone, as it checked it");
	case PFW_KW_POLICY:
	case PFW_KW_DEFAULT:
	case PFW_KW_MODE:
		return policy_only(
			p,
			"a rule file holds rules and definitions, no settings");
	case PFW_KW_RESOLVER:
		return policy_only(
			p,
			"which programs' DNS answers the kernel learns from is the system policy's to say");
	case PFW_KW_ASK:
		/* "ask timeout" and "ask unanswered": settings too. */
		next(p);
		if (is_keyword(p, PFW_KW_TIMEOUT) ||
		    is_keyword(p, PFW_KW_UNANSWERED)) {
			pfw_error(
				p->diag, &at,
				"'ask %s' is for a policy, not a rule file: a rule file holds rules and definitions, no settings",
				p->token.text);
			return false;
		}
		pfw_error(
			p->diag, &at,
			"'ask' is for a policy, not a rule file: a rule file is the agent's answer, and its rules say 'allow' or 'deny'");
		return false;
	default:
		return true;
	}
}

static bool parse_statement(struct parser *p)
{
	struct pfw_settings *settings = &p->policy->settings;

	if (p->token.kind != PFW_TOK_WORD) {
		expected(p, "a statement");
		return false;
	}
	if (p->options->rule_file && !rule_file_statement(p))
		return false;
	switch (p->token.keyword) {
	case PFW_KW_INCLUDE:
		return parse_include(p);
	case PFW_KW_POLICY:
		return parse_setting(p, &settings->kind_loc, "the policy kind",
				     parse_policy_kind_value);
	case PFW_KW_DEFAULT:
		return parse_setting(p, &settings->default_loc,
				     "the default verdict",
				     parse_default_value);
	case PFW_KW_MODE:
		return parse_setting(p, &settings->mode_loc, "the mode",
				     parse_mode_value);
	case PFW_KW_APPS:
	case PFW_KW_HOSTS:
	case PFW_KW_PORTS:
		return parse_definition(p);
	case PFW_KW_RESOLVER:
		return parse_resolver(p);
	case PFW_KW_ASK:
	case PFW_KW_ALLOW:
	case PFW_KW_DENY: {
		struct pfw_loc loc = p->token.loc;
		enum pfw_verdict verdict;

		parse_verdict(p, true, &verdict);
		/* "ask timeout" and "ask unanswered" are settings. */
		if (verdict == PFW_VERDICT_ASK && is_keyword(p, PFW_KW_TIMEOUT))
			return parse_setting(p, &settings->timeout_loc,
					     "the ask timeout",
					     parse_ask_timeout_value);
		if (verdict == PFW_VERDICT_ASK &&
		    is_keyword(p, PFW_KW_UNANSWERED))
			return parse_setting(p, &settings->no_answer_loc,
					     "the unanswered verdict",
					     parse_ask_unanswered_value);
		return parse_rule(p, verdict, &loc);
	}
	default:
		expected(p, "a statement");
		return false;
	}
}

static void parse_text(struct parser *p, const char *file, const char *text,
		       size_t len)
{
	struct pfw_lexer outer_lexer = p->lexer;
	struct pfw_token outer_token = p->token;
	struct pfw_loc outer_prev_end = p->prev_end;

	memset(&p->token, 0, sizeof(p->token));
	pfw_lexer_init(&p->lexer, file, text, len, p->diag);
	next(p);
	while (p->token.kind != PFW_TOK_EOF && !pfw_diag_gave_up(p->diag)) {
		struct pfw_loc start = p->token.loc;

		if (!parse_statement(p))
			recover(p, &start);
	}
	pfw_token_fini(&p->token);
	p->lexer = outer_lexer;
	p->token = outer_token;
	p->prev_end = outer_prev_end;
}

/* Record a file name in the policy's table; locations point at the copy. */
static const char *add_file(struct pfw_policy *policy, const char *name)
{
	char **slot = pfw_push((void **)&policy->files, &policy->n_files,
			       sizeof(*slot));

	*slot = pfw_xstrdup(name);
	return *slot;
}

static void parse_file_at(struct parser *p, const char *path,
			  const struct pfw_loc *included_at)
{
	struct include_frame frame;
	const char *file;
	char *text;
	size_t len;

	if (p->depth >= PFW_INCLUDE_DEPTH_MAX) {
		pfw_error(p->diag, included_at,
			  "includes are nested more than %d deep",
			  PFW_INCLUDE_DEPTH_MAX);
		return;
	}
	frame.real_path = realpath(path, NULL);
	text = frame.real_path ? pfw_read_source(path, &len) : NULL;
	if (!text) {
		int err = errno;

		if (included_at)
			pfw_error(p->diag, included_at, "cannot read '%s': %s",
				  path,
				  err == EFBIG ? "file is too large" :
						 strerror(err));
		else
			pfw_error(p->diag, NULL, "cannot read '%s': %s", path,
				  err == EFBIG ? "file is too large" :
						 strerror(err));
		free(frame.real_path);
		return;
	}
	for (struct include_frame *f = p->includes; f; f = f->outer) {
		if (strcmp(f->real_path, frame.real_path) == 0) {
			pfw_error(p->diag, included_at,
				  "'%s' includes itself (an include cycle)",
				  path);
			free(text);
			free(frame.real_path);
			return;
		}
	}
	file = add_file(p->policy, path);
	pfw_diag_adopt_source(p->diag, file, text, len);
	frame.outer = p->includes;
	p->includes = &frame;
	p->depth++;
	parse_text(p, file, text, len);
	p->depth--;
	p->includes = frame.outer;
	free(frame.real_path);
}

static struct pfw_policy *new_policy(void)
{
	struct pfw_policy *policy = pfw_xrealloc(NULL, sizeof(*policy));

	memset(policy, 0, sizeof(*policy));
	policy->settings.ask_timeout_ms = PFW_ASK_TIMEOUT_DEFAULT_MS;
	policy->settings.no_answer = PFW_VERDICT_DENY;
	policy->settings.default_verdict = PFW_VERDICT_ASK;
	return policy;
}

/* A parser filling a new policy. */
static struct parser new_parser(const struct pfw_parse_options *options,
				struct pfw_diag *diag)
{
	return (struct parser){
		.policy = new_policy(),
		.diag = diag,
		.options = options,
	};
}

struct pfw_policy *pfw_parse_file(const char *path,
				  const struct pfw_parse_options *options,
				  struct pfw_diag *diag)
{
	struct parser p = new_parser(options, diag);
	unsigned int errors_before = diag->errors;

	parse_file_at(&p, path, NULL);
	if (p.policy->n_files == 0 && diag->errors > errors_before) {
		pfw_policy_free(p.policy);
		return NULL;
	}
	return p.policy;
}

struct pfw_policy *pfw_parse_buffer(const char *name, const char *text,
				    size_t len,
				    const struct pfw_parse_options *options,
				    struct pfw_diag *diag)
{
	struct parser p = new_parser(options, diag);
	char *copy = pfw_xrealloc(NULL, len + 1);
	const char *file;

	memcpy(copy, text, len);
	copy[len] = '\0';
	file = add_file(p.policy, name);
	pfw_diag_adopt_source(diag, file, copy, len);
	p.depth = 1;
	parse_text(&p, file, copy, len);
	return p.policy;
}
