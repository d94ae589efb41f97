/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * pfsel - the binary policy format (written by pfwc, read by the kernel)
 *
 * policy/FORMAT.md is the normative description; this header gives its
 * constants and on-disk structures.  Every multi-byte integer is
 * little-endian; addresses are 16 bytes in network byte order.  The
 * structures have no implicit padding and their sizes are fixed by the
 * format (see the PFSEL_POLICY_*_SIZE checks in policydb.c).
 */
#ifndef _UAPI_LINUX_PFSEL_POLICY_H
#define _UAPI_LINUX_PFSEL_POLICY_H

#include <linux/types.h>

#include "pfsel_names.h"

/* "PFSL" read as a little-endian 32-bit number. */
#define PFSEL_POLICY_MAGIC 0x4c534650u
#define PFSEL_POLICY_VERSION 3u
/* Largest blob a reader accepts, in bytes. */
#define PFSEL_POLICY_MAX_SIZE (64u << 20)
/* Every section starts at a multiple of this, padding is zero. */
#define PFSEL_POLICY_ALIGN 8u
/* "No such thing": no rule, no row. */
#define PFSEL_NONE 0xffffffffu

/* Header flags. */
#define PFSEL_POLICY_F_SYSTEM 0x1u /* the system policy; uid must be 0 */
/* Audit what the policy denies, and allow it ("mode permissive;"). */
#define PFSEL_POLICY_F_PERMISSIVE 0x2u
#define PFSEL_POLICY_F_MASK (PFSEL_POLICY_F_SYSTEM | PFSEL_POLICY_F_PERMISSIVE)

/*
 * The vocabulary of the format: its enums are made from the tables of
 * pfsel_names.h, which give each value and name.  PFSEL_POLICY_MAX_STRING
 * and the ask timeout's bounds are there too.
 */

/* Verdicts (same values as pfwc's enum pfw_verdict). */
enum pfsel_verdict {
#define PFSEL_VERDICT(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_VERDICT
	PFSEL_VERDICT_COUNT
};

/* Audit flags of a rule or of the default decision. */
#define PFSEL_AUDIT_LOG_ALLOWED 0x1u /* audit even when allowed */
#define PFSEL_AUDIT_QUIET_DENIAL 0x2u /* do not audit when denied */
#define PFSEL_AUDIT_MASK (PFSEL_AUDIT_LOG_ALLOWED | PFSEL_AUDIT_QUIET_DENIAL)

/* Operations (indexes, not bits). */
enum pfsel_op {
#define PFSEL_OP(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_OP
	PFSEL_OP_COUNT
};

/* Protocols (indexes, not bits). */
enum pfsel_proto {
#define PFSEL_PROTO(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_PROTO
	PFSEL_PROTO_COUNT
};

/*
 * Socket families of a create request.  A create request is classified by a
 * representative address of its family (FORMAT.md, "Requests"):
 * INET -> ::ffff:0.0.0.0, INET6 -> ::.
 */
enum pfsel_family {
#define PFSEL_FAMILY(id, ...) id,
#include "pfsel_names.h"
#undef PFSEL_FAMILY
	PFSEL_FAMILY_COUNT
};

/* Section ids: sections appear in this order, each exactly once. */
enum pfsel_section_id {
	PFSEL_SEC_SETTINGS = 1,
	PFSEL_SEC_STRINGS = 2,
	PFSEL_SEC_RULES = 3,
	PFSEL_SEC_PORTS = 4,
	PFSEL_SEC_ADDRS = 5,
	PFSEL_SEC_RUNS = 6,
	PFSEL_SEC_ROWS = 7,
	PFSEL_SEC_SLABS = 8,
	PFSEL_SEC_CELLS = 9,
	PFSEL_SEC_GROUPS = 10,
	PFSEL_SEC_GROUPLIST = 11,
	PFSEL_SEC_APPS = 12,
	PFSEL_SEC_PAIRS = 13,
	PFSEL_SEC_EXES = 14,
	PFSEL_SEC_EXE_PATHS = 15,
	PFSEL_SEC_SCRIPT_PATHS = 16,
	PFSEL_SEC_PROTECTED = 17,
	PFSEL_SEC_NAME_SLABS = 18,
	PFSEL_SEC_NAME_CELLS = 19,
	PFSEL_SEC_NAME_PATTERNS = 20,
	PFSEL_SEC_RESOLVERS = 21,
};

#define PFSEL_SEC_FIRST PFSEL_SEC_SETTINGS
#define PFSEL_SEC_LAST PFSEL_SEC_RESOLVERS
#define PFSEL_SEC_COUNT (PFSEL_SEC_LAST - PFSEL_SEC_FIRST + 1)

/**
 * struct pfsel_policy_header - start of every blob (32 bytes)
 * @magic: PFSEL_POLICY_MAGIC
 * @version: PFSEL_POLICY_VERSION
 * @total_size: size of the whole blob in bytes
 * @checksum: CRC32C of the whole blob, computed with this field zero
 * @flags: PFSEL_POLICY_F_*
 * @uid: target uid of a user policy; 0 for the system policy
 * @nsections: PFSEL_SEC_COUNT
 * @reserved: zero
 */
struct pfsel_policy_header {
	__le32 magic;
	__le32 version;
	__le32 total_size;
	__le32 checksum;
	__le32 flags;
	__le32 uid;
	__le32 nsections;
	__le32 reserved;
};

/**
 * struct pfsel_policy_section - one entry of the section table (16 bytes)
 * @id: enum pfsel_section_id
 * @count: number of entries (of strings, for PFSEL_SEC_STRINGS)
 * @offset: from the start of the blob, a multiple of PFSEL_POLICY_ALIGN
 * @size: in bytes
 */
struct pfsel_policy_section {
	__le32 id;
	__le32 count;
	__le32 offset;
	__le32 size;
};

/**
 * struct pfsel_policy_settings - PFSEL_SEC_SETTINGS, exactly one (32 bytes)
 * @default_verdict: verdict when no rule matches
 * @default_audit: audit flags of the default decision
 * @no_answer: ALLOW or DENY: verdict when nobody answers an ask in time
 * @ask_timeout_ms: PFSEL_ASK_TIMEOUT_MIN_MS..PFSEL_ASK_TIMEOUT_MAX_MS
 * @n_script_classes: number of script classes
 * @exe_other: exe class of a path no exe pattern names
 * @script_other: script class of a script no script pattern names
 * @n_name_classes: number of host name classes, at least 1; class 0 is
 *		    that of the names no "host" pattern matches
 */
struct pfsel_policy_settings {
	__le32 default_verdict;
	__le32 default_audit;
	__le32 no_answer;
	__le32 ask_timeout_ms;
	__le32 n_script_classes;
	__le32 exe_other;
	__le32 script_other;
	__le32 n_name_classes;
};

/**
 * struct pfsel_policy_rule - PFSEL_SEC_RULES entry (16 bytes)
 * @verdict: enum pfsel_verdict
 * @audit: PFSEL_AUDIT_*
 * @reserved: zero
 * @file: string index of the source file
 * @line: source line (1-based)
 * @col: source column (1-based)
 */
struct pfsel_policy_rule {
	__u8 verdict;
	__u8 audit;
	__le16 reserved;
	__le32 file;
	__le32 line;
	__le32 col;
};

/* PFSEL_SEC_PORTS entry: first port of a port class (2 bytes). */
struct pfsel_policy_port {
	__le16 start;
};

/* PFSEL_SEC_ADDRS entry: first address of an address class (16 bytes). */
struct pfsel_policy_addr {
	__u8 start[16];
};

/**
 * struct pfsel_policy_run - PFSEL_SEC_RUNS entry (8 bytes)
 * @start: first port class of the run
 * @rule: deciding rule index, or PFSEL_NONE
 */
struct pfsel_policy_run {
	__le32 start;
	__le32 rule;
};

/**
 * struct pfsel_policy_range - a slice [first, first + count) of a later table
 * @first: index of the first element
 * @count: number of elements
 *
 * Used by PFSEL_SEC_ROWS (slices of RUNS), PFSEL_SEC_GROUPS (of CELLS) and
 * PFSEL_SEC_APPS (of GROUPLIST) (8 bytes).
 */
struct pfsel_policy_range {
	__le32 first;
	__le32 count;
};

/**
 * struct pfsel_policy_slab - PFSEL_SEC_SLABS entry (8 bytes)
 * @start: first address class of the slab
 * @row: row (PFSEL_SEC_ROWS index) for the slab, or PFSEL_NONE
 */
struct pfsel_policy_slab {
	__le32 start;
	__le32 row;
};

/**
 * struct pfsel_policy_cell - PFSEL_SEC_CELLS entry (16 bytes)
 * @op: enum pfsel_op
 * @proto: enum pfsel_proto
 * @reserved: zero
 * @wild_row: row of the rules that match every address, or PFSEL_NONE
 * @slab_first: first PFSEL_SEC_SLABS entry of the cell
 * @slab_count: number of slabs (0: no address-specific rules)
 */
struct pfsel_policy_cell {
	__u8 op;
	__u8 proto;
	__le16 reserved;
	__le32 wild_row;
	__le32 slab_first;
	__le32 slab_count;
};

/**
 * struct pfsel_policy_pair - PFSEL_SEC_PAIRS entry (8 bytes)
 * @script_class: script class
 * @app: application class of (the owning exe class, @script_class)
 */
struct pfsel_policy_pair {
	__le32 script_class;
	__le32 app;
};

/**
 * struct pfsel_policy_exe - PFSEL_SEC_EXES entry (16 bytes)
 * @app: application class when no pair of this exe class applies
 * @pair_first: first PFSEL_SEC_PAIRS entry of the exe class
 * @pair_count: number of pairs
 * @reserved: zero
 */
struct pfsel_policy_exe {
	__le32 app;
	__le32 pair_first;
	__le32 pair_count;
	__le32 reserved;
};

/* Path entry flags: what the path names in patterns. */
#define PFSEL_PATH_EXACT 0x1u /* the path itself */
#define PFSEL_PATH_CHILD 0x2u /* files directly in the directory */
#define PFSEL_PATH_TREE 0x4u /* files at any depth below it */
#define PFSEL_PATH_MASK (PFSEL_PATH_EXACT | PFSEL_PATH_CHILD | PFSEL_PATH_TREE)

/**
 * struct pfsel_policy_path - PFSEL_SEC_EXE_PATHS/SCRIPT_PATHS entry (24 bytes)
 * @str: string index of the path (a directory without its trailing '/',
 *	 the root directory as the empty string)
 * @flags: PFSEL_PATH_*, not zero
 * @exact: class of the path itself, PFSEL_NONE without PFSEL_PATH_EXACT
 * @child: class of a path directly in the directory that no exact entry
 *	   names, PFSEL_NONE without PFSEL_PATH_CHILD
 * @tree: class of a path whose deepest tree directory is this one and that
 *	  neither an exact nor a child entry classifies, PFSEL_NONE without
 *	  PFSEL_PATH_TREE
 * @reserved: zero
 */
struct pfsel_policy_path {
	__le32 str;
	__le32 flags;
	__le32 exact;
	__le32 child;
	__le32 tree;
	__le32 reserved;
};

/**
 * struct pfsel_policy_protected - PFSEL_SEC_PROTECTED entry (4 bytes)
 * @app: an application class that a rule marks "protect": its processes
 *	 run in secure-execution mode, cannot be traced, read or written by
 *	 the user's other programs, and dump no core.  Strictly increasing.
 */
struct pfsel_policy_protected {
	__le32 app;
};

/*
 * PFSEL_SEC_NAME_SLABS entries are struct pfsel_policy_slab over name
 * classes; PFSEL_SEC_NAME_CELLS has one struct pfsel_policy_range per
 * entry of PFSEL_SEC_CELLS, its name slabs.
 */

/* Name pattern flags (PFSEL_SEC_NAME_PATTERNS), in struct pfsel_policy_path. */
#define PFSEL_NAME_EXACT PFSEL_PATH_EXACT /* the name itself */
#define PFSEL_NAME_TREE PFSEL_PATH_TREE /* any name below it ("*.NAME") */
#define PFSEL_NAME_MASK (PFSEL_NAME_EXACT | PFSEL_NAME_TREE)

/* Resolver flags (PFSEL_SEC_RESOLVERS). */
/* Also when the process's uid has a user policy ("resolver ... any user;"). */
#define PFSEL_RESOLVER_ANY_USER 0x1u
#define PFSEL_RESOLVER_MASK PFSEL_RESOLVER_ANY_USER

/**
 * struct pfsel_policy_resolver - PFSEL_SEC_RESOLVERS entry (8 bytes)
 * @app: an application class of the system policy whose processes' DNS
 *	 answers the kernel learns host names from.  Strictly increasing.
 * @flags: PFSEL_RESOLVER_*
 */
struct pfsel_policy_resolver {
	__le32 app;
	__le32 flags;
};

#endif /* _UAPI_LINUX_PFSEL_POLICY_H */
