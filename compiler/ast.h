/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfwc - the abstract syntax tree of a .pfw policy
 *
 * This is the one data structure every phase of pfwc passes along:
 *
 *	lexer -> parser -> AST (with unresolved name references)
 *	      -> sema   -> AST (resolved, normalised: what consumers read)
 *	      -> lower / emit_pfsel / emit_cil / emit_sepolicy / reference
 *	         interpreter
 *
 * Consumers after sema read only the "resolved view" documented below and may
 * rely on its invariants; they never need to know that the language has named
 * sets, includes or services.
 *
 * Matching model (the precise text is policy/LANGUAGE.md):
 *
 *   A request is (application, operation, protocol, address, port), where
 *   application = (executable path, script path or none), and address is the
 *   128-bit address of the one address space below.  The rules are tried in
 *   file order (includes expanded in place); the first rule whose every
 *   dimension contains the request decides.  If none does, the policy's
 *   default verdict decides.
 *
 * One address space.  Every address is stored as 16 bytes in network byte
 * order.  An IPv4 address a.b.c.d is stored IPv4-mapped, ::ffff:a.b.c.d, and
 * an IPv4 prefix of length n becomes an IPv6 prefix of length 96 + n.  So
 * "0.0.0.0/0" is ::ffff:0:0/96, an IPv4-mapped IPv6 address in a request is
 * the same point as the IPv4 address, and "::/0" covers both families.
 *
 * Applications.  Patterns are restricted so that the set of distinct
 * application classes can be enumerated exactly at compile time (no regular
 * expressions): an exact absolute path, DIR followed by slash-star (any file
 * directly in DIR), DIR followed by slash-star-star (any file at any depth
 * below DIR), or a lone star (anything); see enum pfw_path_kind.  Paths are
 * normalised by the parser: absolute, no "." or ".." components, no repeated
 * or trailing '/'.
 *
 * Ownership.  A struct pfw_policy owns everything reachable from it
 * (strings, arrays); free it with pfw_policy_free().  Locations point at
 * file names owned by the policy's file table, so they stay valid as long
 * as the policy does.
 */
#ifndef PFWC_AST_H
#define PFWC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsel_names.h"

/*
 * struct pfw_loc - where something was written
 * @file: path of the source file as given on the command line or resolved
 *	  from an include; owned by the policy (see pfw_policy.files)
 * @line: 1-based line
 * @col:  1-based column, in bytes
 */
struct pfw_loc {
	const char *file;
	uint32_t line;
	uint32_t col;
};

/* What a matching rule (or the default) decides. */
enum pfw_verdict {
	PFW_VERDICT_ALLOW = 0,
	PFW_VERDICT_DENY = 1,
	/* Hold the call and ask the user's agent; see pfw_settings. */
	PFW_VERDICT_ASK = 2,
};

/*
 * Operations, as a bit set.  CONNECT also covers sends that name a
 * destination (unconnected sendto/sendmsg, TCP Fast Open): to the policy
 * these are connects to that destination.
 */
enum pfw_op {
	PFW_OP_CREATE = 1u << 0, /* socket(): no address, no port */
	PFW_OP_BIND = 1u << 1, /* local address and port asked for */
	PFW_OP_CONNECT = 1u << 2, /* remote address and port */
	PFW_OP_LISTEN = 1u << 3, /* local address and port bound */
	PFW_OP_ACCEPT = 1u << 4, /* peer address, local port */
};
#define PFW_OP_ALL                                                      \
	(PFW_OP_CREATE | PFW_OP_BIND | PFW_OP_CONNECT | PFW_OP_LISTEN | \
	 PFW_OP_ACCEPT)
/* Operations that carry an address and a port. */
#define PFW_OP_ADDRESSED (PFW_OP_ALL & ~PFW_OP_CREATE)

/*
 * Protocols, as a bit set.  How a socket() call maps to one of these is in
 * policy/LANGUAGE.md ("Protocols"); in short: tcp = SOCK_STREAM over
 * inet/inet6, udp = SOCK_DGRAM with protocol 0/UDP, icmp = the unprivileged
 * ping sockets (SOCK_DGRAM + ICMP/ICMPv6), raw = SOCK_RAW over inet/inet6,
 * packet = AF_PACKET (any type).
 */
enum pfw_proto {
	PFW_PROTO_TCP = 1u << 0,
	PFW_PROTO_UDP = 1u << 1,
	PFW_PROTO_ICMP = 1u << 2,
	PFW_PROTO_RAW = 1u << 3,
	PFW_PROTO_PACKET = 1u << 4,
};
#define PFW_PROTO_ALL                                                     \
	(PFW_PROTO_TCP | PFW_PROTO_UDP | PFW_PROTO_ICMP | PFW_PROTO_RAW | \
	 PFW_PROTO_PACKET)
/* Protocols whose requests carry a port; the others match with port 0. */
#define PFW_PROTO_PORTED (PFW_PROTO_TCP | PFW_PROTO_UDP)

/*
 * Address families, as a bit set.  The family of a request is: for create,
 * the socket's family (AF_INET or AF_INET6); for every other operation, the
 * family of the request's address after mapping, so an IPv4 or IPv4-mapped
 * address (::ffff:0:0/96) is INET and any other address INET6, whatever the
 * socket's own family.  Requests of protocol PFW_PROTO_PACKET (AF_PACKET
 * sockets) have no INET family and ignore a rule's family set.
 */
enum pfw_family {
	PFW_FAMILY_INET = 1u << 0,
	PFW_FAMILY_INET6 = 1u << 1,
};
#define PFW_FAMILY_ALL (PFW_FAMILY_INET | PFW_FAMILY_INET6)

/* Audit control, as a bit set, per rule and for the default verdict. */
enum pfw_audit {
	/* Also audit when this rule allows (like SELinux auditallow). */
	PFW_AUDIT_LOG_ALLOWED = 1u << 0,
	/* Do not audit when this rule denies (like SELinux dontaudit). */
	PFW_AUDIT_QUIET_DENIAL = 1u << 1,
};

/* The shape of one path pattern (see "Applications" above). */
enum pfw_path_kind {
	PFW_PATH_ANY = 0, /* "*": any path; .path is NULL */
	PFW_PATH_EXACT, /* .path is the whole path */
	PFW_PATH_CHILD, // "DIR/*": .path is DIR; exactly one component below
	PFW_PATH_TREE, // "DIR/**": .path is DIR; one or more components below
};

/*
 * struct pfw_path_pattern - an exact path or a directory glob
 * @kind: which shape
 * @path: the exact path or the DIR of a glob, normalised, without a trailing
 *	  '/' (DIR "/" is stored as ""), or NULL for PFW_PATH_ANY
 */
struct pfw_path_pattern {
	enum pfw_path_kind kind;
	char *path;
};

/*
 * struct pfw_app - one application pattern
 * @exe:       pattern for the executable the process exec'd (for a script,
 *	       this is the interpreter)
 * @is_script: false: the pattern matches on @exe alone, whether or not the
 *	       process runs a script.  true: the process must run a script,
 *	       its interpreter must match @exe and the script must match @script
 * @script:    pattern for the script path; meaningful only if @is_script
 * @loc:       where the pattern was written (for diagnostics)
 *
 * The plain pattern "*" is { .exe.kind = PFW_PATH_ANY, .is_script = false }
 * and matches every process.
 */
struct pfw_app {
	struct pfw_path_pattern exe;
	bool is_script;
	struct pfw_path_pattern script;
	struct pfw_loc loc;
};

/*
 * struct pfw_cidr - an address prefix in the one address space
 * @addr:       16 bytes, network order, host bits beyond @prefix_len zero
 * @prefix_len: 0..128 (an IPv4 /n is stored as 96 + n)
 */
struct pfw_cidr {
	uint8_t addr[16];
	uint8_t prefix_len;
};

/*
 * struct pfw_host - one "host PATTERN" element of an address list
 * @name: the name, lower case, without a final dot and without the "*."
 *	  of a wildcard (policy/LANGUAGE.md, "Host names"); owned
 * @below: true for "*.NAME": any name strictly below NAME (at least one
 *	   more label), not NAME itself; false: NAME exactly
 * @loc:   where it was written (for diagnostics)
 *
 * An address matches the element when a name the kernel learned for it
 * (pfw_request.names) matches; pfw_host_matches() says when a name does.
 */
struct pfw_host {
	char *name;
	bool below;
	struct pfw_loc loc;
};

/* struct pfw_port_range - inclusive range of ports, @first <= @last */
struct pfw_port_range {
	uint16_t first;
	uint16_t last;
};

/* The kinds of name a policy can define (see struct pfw_def). */
enum pfw_def_kind {
	PFW_DEF_APPS, /* "apps NAME = ..." */
	PFW_DEF_HOSTS, /* "hosts NAME = ..." */
	PFW_DEF_PORTS, /* "ports NAME = ..." */
};

/*
 * struct pfw_ref - a use of a defined name or a named service, as written
 * @name: the name
 * @loc:  where it was used
 *
 * Front end only: the parser records references, sema expands them into the
 * resolved arrays of the rule.  Consumers ignore refs.
 */
struct pfw_ref {
	char *name;
	struct pfw_loc loc;
};

/*
 * struct pfw_rule - one rule, in file order
 *
 * Resolved view (valid after sema; this is what consumers read):
 * @loc:       where the rule's verdict keyword was written; --query prints
 *	       this as the deciding rule
 * @index:     position of the rule in pfw_policy.rules (0-based)
 * @verdict:   what the rule decides when it is the first to match
 * @audit:     set of enum pfw_audit
 * @protect:   the rule says "protect": every application it names is
 *	       protected (LANGUAGE.md), whatever it decides.  Unlike
 *	       @audit this is about the application, not the request, so
 *	       it holds even for a rule that never decides anything
 * @scope:     in pfsel-agent's rule file (rule_file.h), how long the
 *	       answer the rule gives holds: an enum pfsel_scope value
 *	       (pfsel.h), PFSEL_SCOPE_ONCE unless its "scope" clause says;
 *	       0 in a policy, which has no such clause
 * @ops:       set of enum pfw_op, never empty
 * @protos:    set of enum pfw_proto, never empty
 * @families:  set of enum pfw_family, never empty; consulted for every
 *	       request except packet ones (see enum pfw_family)
 * @apps:      @n_apps >= 1 application patterns; the rule matches if any
 *	       does.  Sema removes a pattern contained in another of the same
 *	       rule; the order is the source order otherwise
 * @any_addr:  true: the rule matches every address and @addrs and @hosts
 *	       are empty
 * @addrs:     otherwise @n_addrs prefixes, sorted ascending by address,
 *	       pairwise disjoint (a prefix inside another is dropped by sema);
 *	       @n_addrs + @n_hosts >= 1
 * @hosts:     otherwise @n_hosts host elements ("host example.org"),
 *	       sorted by name ("NAME" before "*.NAME"), none inside another (sema drops
 *	       them with a warning); an address matches the rule when it is
 *	       in @addrs or one of its known names matches one of @hosts.
 *	       A rule with hosts has @families == PFW_FAMILY_ALL and no
 *	       create (sema and the parser see to it)
 * @any_port:  true: the rule matches every port 0..65535 and @ports is empty
 * @ports:     otherwise @n_ports >= 1 ranges, sorted, disjoint and not
 *	       adjacent (sema merges 1-5,6-9 into 1-9)
 *
 * Invariants after sema, so that a rule is a plain product of its sets and
 * a request either has a value in every dimension or the rule is "any" there:
 *  - @ops contains PFW_OP_CREATE  =>  @any_addr && @any_port
 *    (create requests carry no address and no port);
 *  - !@any_port  =>  @protos is a subset of PFW_PROTO_PORTED
 *    (icmp/raw/packet requests carry port 0, and only "any" ports match it
 *    in a rule that names them);
 *  - !@any_addr  =>  PFW_PROTO_PACKET is not in @protos.
 * The language gets there by narrowing an implicit "any" (a rule with an
 * address clause and no operation list does not cover create) and by
 * rejecting an explicit contradiction (see policy/LANGUAGE.md).
 *
 * Front-end only (consumers ignore these):
 * @app_refs, @addr_refs, @port_refs: names used in the rule, expanded by
 *	       sema into @apps, @addrs, @ports
 * @shadowed_by: index of an earlier rule that makes this one never match,
 *	       or -1; set by sema for its warning
 * @addr_loc, @port_loc: where the address and port clauses were written
 *	       (line 0: not written), for diagnostics about those lists
 * @protect_loc: where "protect" was written (line 0: not written)
 */
struct pfw_rule {
	struct pfw_loc loc;
	uint32_t index;
	enum pfw_verdict verdict;
	uint32_t audit;
	bool protect;
	uint32_t scope;
	uint32_t ops;
	uint32_t protos;
	uint32_t families;

	struct pfw_app *apps;
	size_t n_apps;

	bool any_addr;
	struct pfw_cidr *addrs;
	size_t n_addrs;
	struct pfw_host *hosts;
	size_t n_hosts;

	bool any_port;
	struct pfw_port_range *ports;
	size_t n_ports;

	struct pfw_ref *app_refs;
	size_t n_app_refs;
	struct pfw_ref *addr_refs;
	size_t n_addr_refs;
	struct pfw_ref *port_refs;
	size_t n_port_refs;
	long shadowed_by;
	struct pfw_loc addr_loc;
	struct pfw_loc port_loc;
	struct pfw_loc protect_loc;
};

/*
 * struct pfw_def - a named set ("apps browsers = ...;")
 * @kind, @name, @loc: what, called what, defined where
 * @apps/@addrs/@hosts/@ports: the members, as for a rule (only the array of @kind
 *	is used); references to earlier names are expanded by sema
 * @refs:  names used in the definition, front end only
 * @used:  set by sema when a rule or another definition uses the name
 *
 * Consumers do not need definitions: rules carry their resolved sets.  They
 * are kept for diagnostics and for --dump of the source.
 */
struct pfw_def {
	enum pfw_def_kind kind;
	char *name;
	struct pfw_loc loc;

	struct pfw_app *apps;
	size_t n_apps;
	bool any_addr;
	struct pfw_cidr *addrs;
	size_t n_addrs;
	struct pfw_host *hosts;
	size_t n_hosts;
	bool any_port;
	struct pfw_port_range *ports;
	size_t n_ports;

	struct pfw_ref *refs;
	size_t n_refs;
	bool used;
};

/*
 * struct pfw_settings - policy-wide settings
 * @default_verdict: verdict when no rule matches (default: ask for a user
 *	policy, allow for the system policy)
 * @default_audit:   audit flags of that default decision
 * @ask_timeout_ms:  how long the kernel holds an asked call (default 30000;
 *	PFSEL_ASK_TIMEOUT_MIN_MS..PFSEL_ASK_TIMEOUT_MAX_MS)
 * @no_answer:       verdict when no agent answers in time, or none is
 *	registered: ALLOW or DENY, never ASK (default: deny)
 * @is_system:       true: the system policy (pfwc --system, or "policy
 *	system;" in the file); false: a user policy
 * @uid:             the target uid of a user policy ("policy user UID;" or
 *	--uid, the option winning); meaningless if @is_system
 * @has_uid:         false when a user policy names no uid (pfwc then uses
 *	its own real uid)
 * @permissive:      "mode permissive;": the kernel audits what the policy
 *	denies and lets it proceed (default: enforcing)
 * @*_loc:           where each was set, line 0 if not set in the source
 */
struct pfw_settings {
	enum pfw_verdict default_verdict;
	uint32_t default_audit;
	uint32_t ask_timeout_ms;
	enum pfw_verdict no_answer;
	bool is_system;
	bool has_uid;
	uint32_t uid;
	bool permissive;

	struct pfw_loc default_loc;
	struct pfw_loc timeout_loc;
	struct pfw_loc no_answer_loc;
	struct pfw_loc kind_loc;
	struct pfw_loc mode_loc;
};

#define PFW_ASK_TIMEOUT_DEFAULT_MS 30000u

/*
 * struct pfw_resolver - "resolver APPS [any user];" (system policy only)
 * @loc:      where "resolver" was written
 * @apps:     @n_apps >= 1 application patterns, resolved as a rule's
 * @any_user: "any user": also learn from processes whose uid has a user
 *	      policy, or whose program root's code did not start
 *	      (PFSEL_RESOLVER_ANY_USER)
 * @app_refs: names used, front end only (sema expands them into @apps)
 *
 * The kernel learns host names from the DNS answers that processes of
 * these applications receive (policy/LANGUAGE.md, "Host names").
 */
struct pfw_resolver {
	struct pfw_loc loc;
	struct pfw_app *apps;
	size_t n_apps;
	bool any_user;
	struct pfw_ref *app_refs;
	size_t n_app_refs;
};

/*
 * struct pfw_policy - a whole policy: settings and ordered rules
 * @settings: see struct pfw_settings
 * @rules:    @n_rules rules in file order, includes expanded in place
 * @defs:     @n_defs named sets in definition order
 * @resolvers: @n_resolvers resolver statements in file order
 * @files:    @n_files source file names, [0] is the main file; every
 *	      pfw_loc.file points into this table
 */
struct pfw_policy {
	struct pfw_settings settings;

	struct pfw_rule *rules;
	size_t n_rules;

	struct pfw_def *defs;
	size_t n_defs;

	struct pfw_resolver *resolvers;
	size_t n_resolvers;

	char **files;
	size_t n_files;
};

/* Free a policy and everything it owns; NULL is a no-op.  (ast.c) */
void pfw_policy_free(struct pfw_policy *policy);
/* Free what one rule owns (not the rule itself). */
void pfw_rule_fini(struct pfw_rule *rule);

/*
 * Helpers on the resolved view, for consumers that would otherwise each
 * write their own (ast.c).
 */

/* True if @path matches @pattern (exact, child, tree or any). */
bool pfw_path_matches(const struct pfw_path_pattern *pattern, const char *path);

/*
 * True if the application (@exe, @script or NULL) matches @app.  This is the
 * normative definition of application matching.
 */
bool pfw_app_matches(const struct pfw_app *app, const char *exe,
		     const char *script);

/*
 * Set relations between patterns: true if every path matching @inner also
 * matches @outer; true if some path matches both.  Exact, not approximate,
 * because the pattern shapes are so restricted.
 */
bool pfw_path_contains(const struct pfw_path_pattern *outer,
		       const struct pfw_path_pattern *inner);
bool pfw_path_intersects(const struct pfw_path_pattern *a,
			 const struct pfw_path_pattern *b);

/* The same relations on application patterns (exe and script together). */
bool pfw_app_contains(const struct pfw_app *outer, const struct pfw_app *inner);
bool pfw_app_intersects(const struct pfw_app *a, const struct pfw_app *b);

/*
 * True if the host name @name (lower case, no final dot) matches @host:
 * equal to its name, or, for "*.NAME", ending in "." NAME with at least one
 * character before.
 */
bool pfw_host_matches(const struct pfw_host *host, const char *name);

/* True if every name matching @inner matches @outer too. */
bool pfw_host_contains(const struct pfw_host *outer,
		       const struct pfw_host *inner);

/* "example.org" or "*.example.org"; truncates to @size, returns @buf. */
char *pfw_host_format(const struct pfw_host *host, char *buf, size_t size);

/* True if @addr (16 bytes, network order) lies in @cidr. */
bool pfw_cidr_contains(const struct pfw_cidr *cidr, const uint8_t addr[16]);

/* First and last address of @cidr, 16 bytes each, network order. */
void pfw_cidr_bounds(const struct pfw_cidr *cidr, uint8_t first[16],
		     uint8_t last[16]);

/*
 * True if the request matches @rule in every dimension (the first-match
 * semantics of one rule; the reference interpreter may use it or not).
 * @op and @proto are single bits; @family is used only for create (for the
 * other operations it is derived from @addr); @addr and @port are ignored
 * for create.  The address knows no names here: a rule's host elements
 * match nothing (pfw_rule_matches_names() takes the names).
 */
bool pfw_rule_matches(const struct pfw_rule *rule, const char *exe,
		      const char *script, enum pfw_op op, enum pfw_proto proto,
		      enum pfw_family family, const uint8_t addr[16],
		      uint16_t port);

/*
 * struct pfw_request - one request (LANGUAGE.md section 1)
 * @exe:    the executable's path
 * @script: the script's path, or NULL when the process runs none
 * @op:     one bit of enum pfw_op
 * @proto:  one bit of enum pfw_proto
 * @family: one bit of enum pfw_family, the socket's; looked at for create
 *	    only (the other operations take it from @addr)
 * @addr:   16 bytes, network order, IPv4 mapped; ignored for create
 * @port:   ignored for create
 * @names:  the @n_names host names the kernel knows for @addr (lower case,
 *	    no final dot), or none; ignored for create
 */
struct pfw_request {
	const char *exe;
	const char *script;
	enum pfw_op op;
	enum pfw_proto proto;
	enum pfw_family family;
	uint8_t addr[16];
	uint16_t port;
	const char *const *names;
	size_t n_names;
};

/*
 * pfw_rule_matches() for a request whose address has the host names
 * @names: the address matches when it lies in the rule's addresses or one
 * of @names matches one of its host elements.
 */
bool pfw_rule_matches_names(const struct pfw_rule *rule, const char *exe,
			    const char *script, enum pfw_op op,
			    enum pfw_proto proto, enum pfw_family family,
			    const uint8_t addr[16], uint16_t port,
			    const char *const *names, size_t n_names);

/*
 * The rule that decides @request: the first of @policy's rules that
 * matches it (pfw_rule_matches_names() with the request's names), or NULL
 * when none does and the default decides.
 */
const struct pfw_rule *pfw_first_match(const struct pfw_policy *policy,
				       const struct pfw_request *request);

/*
 * One byte as a quoted .pfw string writes it (LANGUAGE.md, "Exact paths"):
 * \" \\ \n \t \r \e, \xNN for other control bytes and bytes >= 0x7f,
 * any other byte as itself.  Returns @buf.
 */
const char *pfw_escape_byte(unsigned char c, char buf[5]);

/*
 * Text forms as the language writes them, for messages and --dump: a
 * pattern ("*", "/usr/bin/ssh", "/opt" + slash-star...), an application
 * ("PATTERN" or "PATTERN script PATTERN") and a prefix (IPv4 for mapped
 * prefixes of length 96 or more: "10.0.0.0/8"; otherwise IPv6).  They
 * truncate to @size and return @buf.
 */
char *pfw_path_format(const struct pfw_path_pattern *pattern, char *buf,
		      size_t size);
char *pfw_app_format(const struct pfw_app *app, char *buf, size_t size);
char *pfw_cidr_format(const struct pfw_cidr *cidr, char *buf, size_t size);

/*
 * Allocation helpers for building an AST (ast.c).  pfwc treats running out
 * of memory as fatal: they print "pfwc: out of memory" and exit with status
 * 3, so callers need no failure paths.
 */
void *pfw_xrealloc(void *ptr, size_t size);
char *pfw_xstrdup(const char *text);
/*
 * Append one zeroed element of @elem_size bytes to the array *@array of
 * *@count elements and return it.  Capacity is implicit (the next power of
 * two), so only arrays grown with this function may be passed to it.
 */
void *pfw_push(void **array, size_t *count, size_t elem_size);

#endif /* PFWC_AST_H */
