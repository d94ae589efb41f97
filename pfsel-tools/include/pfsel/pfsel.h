/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libpfsel - the C library for pfsel, the per-user, per-application
 * firewall LSM.
 *
 * The kernel's side of pfsel, and nothing else:
 *
 *  - securityfs (docs/kernel-interface.md): load and unload compiled
 *    policies, read what is loaded, the status, the global mode, the AVC's
 *    statistics and threshold, the hooks' counters and timing, the ask
 *    counters; forget a user's session answers; ask what the policies
 *    would decide (the "check" file).  Each call opens, reads or writes,
 *    and closes the file it needs (but pfsel_load_open(), which hands
 *    "load" to its caller); nothing is cached.
 *
 *  - the agent side of the "pfsel" generic netlink family (<linux/pfsel.h>):
 *    register (as root) the agent of a uid, receive the kernel's
 *    questions, answer them.
 *
 *  - what the kernel writes to the audit log: its AUDIT_PFSEL_ACCESS
 *    records, read (through libauparse) and decoded.
 *
 *  - its vocabulary (the names of operations, protocols, verdicts, ...)
 *    and one shape for a request (struct pfsel_request), with the
 *    conversions from a question and an audit record, and to and from
 *    what the "check" file is asked.
 *
 * Return convention, everywhere: 0 (or a documented non-negative count) on
 * success, a negative errno on failure.  A failing call also leaves a
 * message in pfsel_last_error() naming the syscall, the file and the
 * errno, e.g. "write(/sys/kernel/security/pfsel/load): Permission denied",
 * for the caller to print.  Text read from securityfs that does not have
 * the documented form fails with -EBADMSG ("... line 2: malformed").
 *
 * Thread safety: calls on different agent handles, and every securityfs
 * call, may run on different threads at once; pfsel_last_error() is per
 * thread.  One agent handle is used by one thread at a time.
 *
 * Link with `pkg-config --libs libpfsel` (libpfsel; libnl-genl-3, libnl-3,
 * libcrypto and libauparse for its static form).
 */
#ifndef PFSEL_PFSEL_H
#define PFSEL_PFSEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <linux/pfsel.h>
#include <linux/pfsel_policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */
/* ---------------------------------------------------------------------- */

/**
 * pfsel_last_error - What the last failing libpfsel call of this thread did
 *
 * Return: a message such as "open(/sys/kernel/security/pfsel/status): No
 * such file or directory", or "" if no call has failed.  Valid until the
 * next libpfsel call on this thread.
 */
const char *pfsel_last_error(void);

/* ---------------------------------------------------------------------- */
/* securityfs                                                              */
/* ---------------------------------------------------------------------- */

/* The default securityfs folder of pfsel. */
#define PFSEL_SECURITYFS_DEFAULT "/sys/kernel/security/pfsel"
/* Environment variable that overrides it (tests, chroots). */
#define PFSEL_SECURITYFS_ENV "PFSEL_SECURITYFS"

/**
 * pfsel_set_securityfs - Use another folder in place of pfsel's securityfs
 * @path: a folder laid out as /sys/kernel/security/pfsel/, or NULL to go
 *        back to $PFSEL_SECURITYFS, else PFSEL_SECURITYFS_DEFAULT.
 *
 * For tests, which point the library at fixture files.  Process-wide; not
 * to be called while another thread uses the library.
 *
 * Return: 0, or -ENOMEM, or -ENAMETOOLONG when @path is longer than
 * PATH_MAX.
 */
int pfsel_set_securityfs(const char *path);

/**
 * pfsel_securityfs - The folder the securityfs calls use
 *
 * Return: the path set by pfsel_set_securityfs(), else $PFSEL_SECURITYFS if
 * set and not empty, else PFSEL_SECURITYFS_DEFAULT.
 */
const char *pfsel_securityfs(void);

/**
 * pfsel_load_buffer - Load a compiled policy (what pfwc writes)
 * @blob: the policy.
 * @size: its size in bytes, not 0.
 *
 * The policy goes to the kernel in one write() to "load", as the kernel
 * requires; the policy's own header says whose it is (the system's or a
 * uid's).  A failed load changes nothing.
 *
 * Return: 0, or the kernel's error: -EPERM (not yours to load), -EINVAL
 * (malformed), -EBADMSG (checksum), -EPROTONOSUPPORT (format version),
 * -E2BIG, -ENOMEM; or -EIO for a short write; or the error of open().
 */
int pfsel_load_buffer(const void *blob, size_t size);

/**
 * pfsel_load_file - Load a compiled policy from a file
 * @path: the file pfwc wrote.
 *
 * Reads the whole file (at most PFSEL_POLICY_MAX_SIZE bytes, else -E2BIG),
 * then as pfsel_load_buffer().  An empty file is -EINVAL.
 *
 * Return: 0 or a negative errno.
 */
int pfsel_load_file(const char *path);

/**
 * pfsel_load_open - Open "load" for writing, to load through later
 *
 * The kernel judges a load by the credentials of whoever opened "load",
 * not of whoever writes to it (docs/kernel-interface.md, "Who may do
 * what"): a descriptor the root side opened and passed on (fork(),
 * SCM_RIGHTS) lets its holder load what root may, and one a user opened
 * lends root nothing.  For a privileged helper that opens the file and
 * hands it to the process that has the policy; a program that loads for
 * itself calls pfsel_load_buffer() or pfsel_load_file().
 *
 * Return: a descriptor (O_WRONLY | O_CLOEXEC) for pfsel_load_buffer_fd(),
 * to close() when done; or the error of open().
 */
int pfsel_load_open(void);

/**
 * pfsel_load_buffer_fd - Load a compiled policy through an open "load"
 * @fd: a descriptor of "load" (pfsel_load_open()), opened by this process
 *      or by the one that passed it here.
 * @blob: the policy.
 * @size: its size in bytes, not 0.
 *
 * As pfsel_load_buffer(), with the opener's credentials deciding: one
 * pwrite() at offset 0, so that the descriptor may load again.
 *
 * Return: as pfsel_load_buffer(); -EBADF for a descriptor not open for
 * writing.
 */
int pfsel_load_buffer_fd(int fd, const void *blob, size_t size);

/**
 * pfsel_unload_system - Unload the system policy (needs CAP_MAC_ADMIN)
 *
 * Return: 0, -ENOENT if none is loaded, -EPERM, or the error of open().
 */
int pfsel_unload_system(void);

/**
 * pfsel_unload_uid - Unload the policy of a uid (one's own, or any as root)
 * @uid: the uid.
 *
 * Return: 0, -ENOENT if none is loaded for @uid, -EPERM, -EINVAL.
 */
int pfsel_unload_uid(uid_t uid);

/* A policy's identity: the SHA-256 of its bytes, and its hex form's size. */
#define PFSEL_DIGEST_SIZE 32
#define PFSEL_DIGEST_HEX_SIZE (2 * PFSEL_DIGEST_SIZE + 1)

/**
 * pfsel_policy_digest - Which policy a compiled blob is
 * @blob: the compiled policy.
 * @len: its size.
 * @digest: set to its SHA-256, as the kernel shows a loaded policy's in
 *          `policies` (struct pfsel_policy_info's @digest).
 *
 * Two blobs with one digest are the same policy: a program that writes
 * ~/.pfw cannot make it compile to another policy's digest (the header's
 * CRC32C, which it can, only tells corruption).
 *
 * Return: 0, or -EIO when libcrypto fails (@digest is then all zero).
 */
int pfsel_policy_digest(const void *blob, size_t len,
			uint8_t digest[PFSEL_DIGEST_SIZE]);

/**
 * pfsel_digest_hex - A digest in lower-case hex, as `policies` writes it
 * @digest: the digest.
 * @hex: where to write it (64 digits and a NUL).
 *
 * Return: @hex.
 */
const char *pfsel_digest_hex(const uint8_t digest[PFSEL_DIGEST_SIZE],
			     char hex[PFSEL_DIGEST_HEX_SIZE]);

/**
 * pfsel_digest_parse - Read a digest written by pfsel_digest_hex()
 * @hex: 64 lower-case hex digits.
 * @digest: set to the digest.
 *
 * Return: 0, or -EINVAL for anything else.
 */
int pfsel_digest_parse(const char *hex, uint8_t digest[PFSEL_DIGEST_SIZE]);

/**
 * struct pfsel_policy_info - One line of "policies"
 * @system: the system policy (then @uid is 0).
 * @uid: the uid of a user policy.
 * @generation: load generation.
 * @size: size of the blob in bytes.
 * @rules: number of rules.
 * @digest: the blob's SHA-256, which tells one policy from another
 *          (pfsel_policy_digest() of a blob in hand is comparable).
 * @permissive: compiled with "mode permissive;".
 */
struct pfsel_policy_info {
	bool system;
	uint32_t uid;
	uint32_t generation;
	uint32_t size;
	uint32_t rules;
	uint8_t digest[PFSEL_DIGEST_SIZE];
	bool permissive;
};

/**
 * pfsel_policies - List the loaded policies
 * @out: set to a malloc()ed array (free() it), NULL when there are none.
 * @count: set to its length.
 *
 * Return: 0, -EBADMSG for a line not of the documented form, -ENOMEM, or
 * the error of open()/read().
 */
int pfsel_policies(struct pfsel_policy_info **out, size_t *count);

/**
 * pfsel_get_policy_info - The "policies" line of one policy
 * @system: the system policy; false: the policy of @uid.
 * @uid: the user (ignored for the system policy).
 * @info: filled in when the policy is loaded; all zero when not.
 *
 * Whether it is loaded, and which load it is (generation, checksum): what
 * a program that loads a user's policy asks before and after.
 *
 * Return: 1 loaded, 0 not loaded, or a negative errno as pfsel_policies().
 */
int pfsel_get_policy_info(bool system, uid_t uid,
			  struct pfsel_policy_info *info);

/**
 * struct pfsel_status - The "status" file
 * @version: PFSEL_ABI_VERSION of the running kernel.
 * @enforcing: the global switch.
 * @system_loaded: a system policy is loaded.
 * @users: number of user policies loaded.
 * @generation: generation of the newest load.
 */
struct pfsel_status {
	unsigned int version;
	bool enforcing;
	bool system_loaded;
	unsigned long users;
	uint32_t generation;
};

/**
 * pfsel_get_status - Read "status"
 * @status: filled in.
 *
 * Every documented line must be there; lines this library does not know
 * (from a newer kernel) are skipped.
 *
 * Return: 0, -EBADMSG, or the error of open()/read().
 */
int pfsel_get_status(struct pfsel_status *status);

/**
 * pfsel_get_enforce - Read the global switch
 *
 * Return: 1 enforcing, 0 permissive, or a negative errno.
 */
int pfsel_get_enforce(void);

/**
 * pfsel_set_enforce - Switch the global mode (needs CAP_MAC_ADMIN)
 * @enforcing: true for enforcing, false for permissive.
 *
 * Return: 0, -EPERM, or the error of open() (-EACCES for non-root).
 */
int pfsel_set_enforce(bool enforcing);

/**
 * struct pfsel_avc_stats - "avc/cache_stats", summed over CPUs
 */
struct pfsel_avc_stats {
	uint64_t lookups;
	uint64_t hits;
	uint64_t misses;
	uint64_t allocations;
	uint64_t reclaims;
	uint64_t frees;
};

/**
 * pfsel_get_avc_stats - Read "avc/cache_stats"
 * @stats: filled in.
 *
 * Return: 0, -EBADMSG (header or totals line not as documented), or the
 * error of open()/read().
 */
int pfsel_get_avc_stats(struct pfsel_avc_stats *stats);

/**
 * pfsel_get_avc_threshold - Read "avc/cache_threshold"
 * @threshold: set to the number of decisions kept before reclaim.
 *
 * Return: 0, -EBADMSG, or the error of open()/read().
 */
int pfsel_get_avc_threshold(unsigned int *threshold);

/**
 * pfsel_set_avc_threshold - Write "avc/cache_threshold" (CAP_MAC_ADMIN)
 * @threshold: 1 to 65536.
 *
 * Return: 0, -EINVAL (out of range; checked here too), -EPERM, or the
 * error of open().
 */
int pfsel_set_avc_threshold(unsigned int threshold);

/* Longest hook name this library keeps, with its NUL. */
#define PFSEL_HOOK_NAME_MAX 48

/**
 * struct pfsel_hook_stat - One line of "hooks"
 * @name: the hook, as the LSM framework calls it ("socket_connect").
 * @calls: checked calls since boot.
 * @ns: time spent in them, in nanoseconds.
 */
struct pfsel_hook_stat {
	char name[PFSEL_HOOK_NAME_MAX];
	uint64_t calls;
	uint64_t ns;
};

/**
 * pfsel_get_hook_stats - Read "hooks"
 * @out: set to a malloc()ed array (free() it), NULL when empty.
 * @count: set to its length.
 *
 * Return: 0, -EBADMSG, -ENOMEM, or the error of open()/read().
 */
int pfsel_get_hook_stats(struct pfsel_hook_stat **out, size_t *count);

/**
 * pfsel_get_hook_timing - Read "hook_timing"
 *
 * Return: 1 when the hooks are timed, 0 when they are not (the default),
 * or a negative errno: -EBADMSG, or the error of open()/read().
 */
int pfsel_get_hook_timing(void);

/**
 * pfsel_set_hook_timing - Time the hooks, or stop (needs CAP_MAC_ADMIN)
 * @on: true: every decided hook call reads the clock twice and adds its
 *      time to the nanoseconds of "hooks" (for benchmarks: the reads cost
 *      time themselves); false: calls are only counted.
 *
 * Return: 0, -EPERM, or the error of open() (-EACCES for non-root).
 */
int pfsel_set_hook_timing(bool on);

/*
 * PFSEL_ASK_STATS_FIELDS - The counters of "ask_stats", in the kernel's order
 * @X: a macro taking one field name.
 *
 * Each name is a field of struct pfsel_ask_stats and a column of the file:
 * for a program that prints them all, e.g.
 *   #define SHOW(f) printf("%s %llu\n", #f, (unsigned long long)st.f);
 *   PFSEL_ASK_STATS_FIELDS(SHOW)
 */
#define PFSEL_ASK_STATS_FIELDS(X)                                        \
	X(questions) X(merged) X(answered) X(unanswered) X(no_agent)     \
	X(overflow) X(kept_hits) X(interrupted) X(agents) X(pending)     \
	X(kept)

/**
 * struct pfsel_ask_stats - "ask_stats": questions to agents since boot
 * @questions: questions sent to an agent.
 * @merged: asks merged into an identical question already in flight.
 * @answered: questions the agent answered in time.
 * @unanswered: questions that ended without an answer (time-out, the
 *              agent went away, the caller was killed): the policy's
 *              unanswered verdict.
 * @no_agent: asks with no agent registered for the uid.
 * @overflow: asks refused because the uid had too many pending.
 * @kept_hits: asks decided by an answer kept for the process or session.
 * @interrupted: waits ended by a fatal signal.
 * @agents: agents registered now.
 * @pending: questions waiting for an answer now.
 * @kept: answers kept now (process and session scopes).
 */
struct pfsel_ask_stats {
	uint64_t questions;
	uint64_t merged;
	uint64_t answered;
	uint64_t unanswered;
	uint64_t no_agent;
	uint64_t overflow;
	uint64_t kept_hits;
	uint64_t interrupted;
	uint64_t agents;
	uint64_t pending;
	uint64_t kept;
};

/**
 * pfsel_get_ask_stats - Read "ask_stats" (needs CAP_MAC_ADMIN)
 * @stats: filled in; all zero when the call fails.
 *
 * The file is a line of names and a line of values.  Every counter of
 * PFSEL_ASK_STATS_FIELDS must be there, once; columns this library does
 * not know (from a newer kernel) are skipped.
 *
 * Return: 0; -EBADMSG (names and values do not pair up, a value is not a
 * number, a counter is missing or twice); -EPERM from open() without
 * CAP_MAC_ADMIN; -ENOENT from a kernel without the ask upcall; or the
 * error of open()/read().
 */
int pfsel_get_ask_stats(struct pfsel_ask_stats *stats);

/**
 * pfsel_forget_uid - Forget the answers a uid's agent gave for the session
 * @uid: the user (at the end of the user's last session).
 *
 * Writes @uid to "forget": the kernel drops the session (and always)
 * answers it keeps for @uid; answers for a process stay until it exits,
 * and so do the agent and the policy.
 * Needs CAP_MAC_ADMIN: a user's program must not wipe what restrains it.
 *
 * Return: 0, -EPERM, -EINVAL, or the error of open() (-ENOENT from a
 * kernel without "forget").
 */
int pfsel_forget_uid(uid_t uid);

/**
 * struct pfsel_check_request - A request to ask the "check" file about
 * @has_uid: @uid is set; false: the caller's real uid.
 * @uid: whose policy decides (another uid than one's own needs
 *       CAP_MAC_ADMIN).
 * @exe: the application's executable, an absolute path; NULL for an
 *       unnamed application.
 * @script: the script @exe runs, an absolute path; NULL for none.
 * @op: enum pfsel_op.
 * @proto: enum pfsel_proto; PFSEL_PROTO_PACKET with PFSEL_OP_CREATE only.
 * @family: PFSEL_OP_CREATE only: PFSEL_FAMILY_INET or PFSEL_FAMILY_INET6,
 *          or, for a packet socket, PFSEL_FAMILY_PACKET (no family).
 *          Ignored for the other operations: the address says it.
 * @addr: every operation but create: the address, network order, IPv4 as
 *        IPv4-mapped (pfsel_parse_addr()).
 * @port: every operation but create: the port, host order (tcp and udp
 *        only; the others have none and it is not sent).
 *
 * The same request a question of the agent describes (struct
 * pfsel_question: @op, @proto, @raddr, @rport).
 */
struct pfsel_check_request {
	bool has_uid;
	uint32_t uid;
	const char *exe;
	const char *script;
	unsigned int op;
	unsigned int proto;
	unsigned int family;
	uint8_t addr[16];
	uint16_t port;
};

/**
 * struct pfsel_check_decision - What one policy decides, in a "check" answer
 * @loaded: the policy is loaded; when false, every other field is 0.
 * @verdict: enum pfsel_verdict (allow, deny, ask).
 * @rule_file: source file of the deciding rule; "" when the policy's
 *             default verdict decided.
 * @rule_line: its line; 0 when the default decided.
 * @rule_col: its column.
 */
struct pfsel_check_decision {
	bool loaded;
	unsigned int verdict;
	char rule_file[PFSEL_POLICY_MAX_STRING];
	uint32_t rule_line;
	uint32_t rule_col;
};

/**
 * struct pfsel_check_answer - The "check" file's answer
 * @verdict: enum pfsel_verdict: what applies, the stricter of the two
 *           (deny over ask over allow; allow when neither is loaded).
 * @system: the system policy's decision.
 * @user: the user policy's decision (of the request's uid).
 *
 * About 8 KiB: allocate it, or keep one around.
 */
struct pfsel_check_answer {
	unsigned int verdict;
	struct pfsel_check_decision system;
	struct pfsel_check_decision user;
};

/**
 * pfsel_check - What the policies in force would decide for a request
 * @req: the request.
 * @ans: filled in; all zero when the call fails.
 *
 * Like SELinux's security_compute_av(): writes @req to "check" and reads
 * the answer on the same open file.  Nothing is cached, asked or audited.
 *
 * Return: 0; -EINVAL for a request pfsel_check_request_format() refuses,
 * or that the kernel refuses; -EPERM (another uid without
 * CAP_MAC_ADMIN); -EBADMSG (an answer not of the documented form);
 * -ENOMEM; or the error of open()/write()/read() (-ENOENT from a kernel
 * without "check").
 */
int pfsel_check(const struct pfsel_check_request *req,
		struct pfsel_check_answer *ans);

/*
 * Text level, for tests and for programs that check a request before
 * they ask.
 */

/**
 * pfsel_check_request_format - A request as the "check" file reads it
 * @req: the request.
 * @buf: where to write: "KEY VALUE" lines (docs/kernel-interface.md).
 * @size: size of @buf; 256 bytes and the lengths of @exe and @script
 *        are enough.
 *
 * Checks what the kernel would refuse, with a message in
 * pfsel_last_error(): an operation, protocol or family out of range, a
 * relative path, a script without its executable, a packet socket but at
 * create, a create of tcp, udp, icmp or raw without inet or inet6.
 *
 * Return: the length written (without NUL), -EINVAL, or -ENOSPC when @buf
 * is too small.
 */
int pfsel_check_request_format(const struct pfsel_check_request *req,
			       char *buf, size_t size);

/**
 * pfsel_check_answer_parse - Parse the "check" file's answer
 * @text: what the kernel wrote: "verdict V", "system ...", "user ..."
 *        lines, each policy's "none" or "VERDICT default" or
 *        "VERDICT FILE:LINE:COL".
 * @ans: filled in; all zero when the call fails.
 *
 * Lines this library does not know (from a newer kernel) are skipped.
 *
 * Return: 0, or -EBADMSG (a line missing or not of that form, a rule
 * file longer than the field), with the line in the message.
 */
int pfsel_check_answer_parse(const char *text, struct pfsel_check_answer *ans);

/* ---------------------------------------------------------------------- */
/* Names and text                                                          */
/* ---------------------------------------------------------------------- */

/*
 * PFSEL_FAMILY_PACKET, the family of a packet socket, and the names below
 * come from <linux/pfsel_names.h>: its tables give every name once.
 *
 * Names as the policy language writes them: "connect", "tcp", "inet",
 * "packet" (family 0xff), "allow" (an agent's answer), "session",
 * "system"/"user", a mode "permissive" or "enforcing" (enum pfsel_mode),
 * and a policy's verdict "allow", "deny" or "ask" (enum pfsel_verdict);
 * and what the kernel refuses with no rule deciding, as an audit record's
 * refused= names it: "routing-header", "family", ... (enum pfsel_refusal).
 * A value with no name gives "?".
 */
const char *pfsel_op_name(unsigned int op);
const char *pfsel_proto_name(unsigned int proto);
const char *pfsel_family_name(unsigned int family);
const char *pfsel_answer_name(unsigned int verdict);
const char *pfsel_scope_name(unsigned int scope);
const char *pfsel_policy_name(unsigned int policy);
const char *pfsel_mode_name(unsigned int mode);
const char *pfsel_verdict_name(unsigned int verdict);
const char *pfsel_refusal_name(unsigned int refusal);

/*
 * The reverse: the value for a name, or -EINVAL.  pfsel_answer_from_name
 * also takes "a"/"d", pfsel_scope_from_name the first letter of a scope.
 */
int pfsel_op_from_name(const char *name);
int pfsel_proto_from_name(const char *name);
int pfsel_family_from_name(const char *name);
int pfsel_answer_from_name(const char *name);
int pfsel_scope_from_name(const char *name);
int pfsel_mode_from_name(const char *name);
int pfsel_refusal_from_name(const char *name);

/* Enough for any address pfsel_format_addr() writes, with its NUL. */
#define PFSEL_ADDR_STRLEN 46

/**
 * pfsel_format_addr - An address as text
 * @addr: 16 bytes, network order; IPv4 as IPv4-mapped IPv6.
 * @buf: at least PFSEL_ADDR_STRLEN bytes for any address.
 * @size: size of @buf.
 *
 * An IPv4-mapped address is written as IPv4 ("192.0.2.1"), any other as
 * inet_ntop(AF_INET6) writes it.
 *
 * Return: 0, or -ENOSPC when @buf is too small.
 */
int pfsel_format_addr(const uint8_t addr[16], char *buf, size_t size);

/**
 * pfsel_parse_addr - Text to a 16-byte address
 * @text: "192.0.2.1" or an IPv6 address.
 * @addr: set to the address, IPv4 as IPv4-mapped.
 *
 * Return: 0 or -EINVAL.
 */
int pfsel_parse_addr(const char *text, uint8_t addr[16]);

/* pfsel_escape() flags. */
#define PFSEL_ESCAPE_QUOTE 0x1u
#define PFSEL_ESCAPE_CONTROLS 0x2u

/* Enough for pfsel_escape() of @len bytes, with quotes and NUL. */
#define PFSEL_ESCAPE_SIZE(len) (4 * (size_t)(len) + 3)

/**
 * pfsel_escape - Text from the kernel or a log, made safe to print
 * @text: a NUL-terminated string: a path, a comm, a rule file, any bytes.
 * @buf: where to write.
 * @size: size of @buf; PFSEL_ESCAPE_SIZE(strlen(@text)) is always enough.
 * @flags: 0, PFSEL_ESCAPE_QUOTE or PFSEL_ESCAPE_CONTROLS.
 *
 * Executable names, scripts, comms and file names are chosen by whoever
 * made them, which may be the very program a policy restrains: written
 * raw, an escape sequence in a name can rewrite what a terminal shows
 * (erase the line, move the cursor, show another application's name).
 * pfsel_escape() writes @text so that every byte of it is visible and
 * none acts on a terminal, in C style:
 *
 *   \\  a backslash     \e  ESC (0x1b)     \n \t \r  newline, tab, CR
 *   \xNN any other control byte, DEL, a byte that is not part of valid
 *        UTF-8, and each byte of a C1 control (U+0080-U+009F) or of a
 *        character that changes how text is shown (bidirectional
 *        overrides and isolates, zero-width characters, U+2028, U+2029,
 *        U+FEFF).
 *
 * Other printable ASCII and valid UTF-8 are written as they are.  With
 * %PFSEL_ESCAPE_QUOTE the result is also a word of the policy language
 * (policy/LANGUAGE.md, "Exact paths"): a non-empty text made only of
 * letters, digits and "/._-+@~%:" is written bare, anything else in
 * double quotes with '"' written \" and '*' written \x2a (so that no
 * quoted name looks like a glob) -- for an absolute path, the
 * exact-path form, which pfwc reads back as this very path (a bare path
 * holds no glob character); and a reader sees that it was quoted.
 * %PFSEL_ESCAPE_CONTROLS escapes only control bytes, DEL, invalid UTF-8
 * and the characters above, leaving backslashes as they are: for a line
 * whose parts were already escaped, as a last guard before a terminal.
 *
 * Like snprintf(), @buf is always NUL-terminated (if @size > 0) and the
 * return value is the length of the whole escaped text; when it is
 * @size or more, @buf holds as much as fitted, never half an escape.
 *
 * Return: the escaped length without NUL, or -EINVAL (unknown or
 * conflicting @flags, NULL @text), -EOVERFLOW (longer than INT_MAX).
 */
int pfsel_escape(const char *text, char *buf, size_t size, unsigned int flags);

/* ---------------------------------------------------------------------- */
/* The agent: generic netlink                                              */
/* ---------------------------------------------------------------------- */

/* Longest path or name kept from a question, with its NUL (PATH_MAX). */
#define PFSEL_QUESTION_PATH_MAX 4096
#define PFSEL_QUESTION_COMM_MAX 64
/* Longest security context a question carries, with its NUL. */
#define PFSEL_QUESTION_SECCTX_MAX 256

/* Bits of pfsel_question.present: which attributes the message carried. */
#define PFSEL_Q_HAS(attr) (UINT32_C(1) << (attr))

/**
 * struct pfsel_question - A PFSEL_CMD_ASK message, parsed
 * @id: PFSEL_ATTR_ID, the id to answer.
 * @pid: thread id of the asking task.
 * @tgid: its process id.
 * @uid: its real uid.
 * @exe: the application's executable ("?" if unnamed).
 * @script: its script, "" when it has none.
 * @comm: the task's comm.
 * @op: enum pfsel_op.
 * @family: enum pfsel_family, or PFSEL_FAMILY_PACKET.
 * @proto: enum pfsel_proto.
 * @laddr: local address (IPv4-mapped for IPv4), network order.
 * @lport: local port, host order.
 * @raddr: the request's address.
 * @rport: the request's port.
 * @policy: which policy asked: 0 system, 1 user.
 * @rule_file: source file of the rule that asked ("" if none was sent).
 * @rule_line: its line (0: the policy's default asked).
 * @rule_col: its column.
 * @timeout_ms: how long the caller waits; after that an answer is -ENOENT.
 * @present: PFSEL_Q_HAS(PFSEL_ATTR_...) for every attribute received.
 * @secctx: the asking task's security context as the kernel's major LSM
 *          names it ("system_u:system_r:unconfined_t:s0" under SELinux,
 *          "unconfined" under AppArmor), "" when none was sent.  Added
 *          after @present: the fields before it kept their offsets.
 * @unanswered: PFSEL_ANSWER_ALLOW or _DENY, what the asking call gets when
 *              no answer comes in time (with
 *              PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED) in @present; kernels
 *              before it do not say).  Added after @secctx.
 * @hosts: the host names the kernel knows for the request's address
 *         (PFSEL_ATTR_HOSTS: learned from DNS answers, newest first,
 *         separated by ',', e.g. "www.example.org,example.org"); "" when
 *         it knows none (or is too old to say).  Checked as
 *         pfsel_hosts_check() checks, never cut: a list that is not one
 *         rejects the whole message.  Added after @unanswered.
 *
 * Other strings longer than their field are cut (and still
 * NUL-terminated).  About 15 KiB: allocate it, or keep one around, rather
 * than put many on a small stack.
 */
struct pfsel_question {
	uint64_t id;
	uint32_t pid;
	uint32_t tgid;
	uint32_t uid;
	char exe[PFSEL_QUESTION_PATH_MAX];
	char script[PFSEL_QUESTION_PATH_MAX];
	char comm[PFSEL_QUESTION_COMM_MAX];
	uint8_t op;
	uint8_t family;
	uint8_t proto;
	uint8_t laddr[16];
	uint16_t lport;
	uint8_t raddr[16];
	uint16_t rport;
	uint8_t policy;
	char rule_file[PFSEL_QUESTION_PATH_MAX];
	uint32_t rule_line;
	uint32_t rule_col;
	uint32_t timeout_ms;
	uint32_t present;
	char secctx[PFSEL_QUESTION_SECCTX_MAX];
	uint8_t unanswered;
	char hosts[PFSEL_HOSTS_TEXT_MAX];
};

/**
 * pfsel_question_format - A question as one line of text
 * @q: the question.
 * @buf: where to write.
 * @size: size of @buf (512 is enough but for long paths and host
 *        names).
 *
 * For example:
 *   /usr/bin/curl (curl, pid 812) connect tcp to 192.0.2.1:80,
 *   user policy rule /home/alice/.pfw:3:1, timeout 30.0s, then deny
 * (", then deny": what an unanswered question gets, when the kernel says.)
 * When the kernel knows host names for the address, the first (newest)
 * comes before it and the others after it: "connect tcp to
 * www.example.org (93.184.216.34:443)", "... to www.example.org
 * (93.184.216.34:443, also example.org, example.net)"; "accept tcp from
 * client.example.org (192.0.2.7) on port 22".
 * With a security context: "(curl, pid 812, context
 * system_u:system_r:unconfined_t:s0)".
 * "create" has no address; "bind" and "listen" say "on", "accept" "from";
 * an IPv6 endpoint is written [ADDR]:PORT; icmp, raw and packet have no
 * port.  The script, if any, follows the executable ("/usr/bin/python3
 * script /home/a/x.py").  The executable, script, comm, security context
 * and rule file are written as pfsel_escape() with %PFSEL_ESCAPE_QUOTE
 * writes them: bare when plain, else quoted with every control byte
 * escaped, so that no name can make the line say something else.
 *
 * Return: the length written (without NUL), or -ENOSPC when @buf is too
 * small (it then holds the line cut short).
 */
int pfsel_question_format(const struct pfsel_question *q, char *buf,
			  size_t size);

/**
 * pfsel_hosts_check - Whether @hosts is a list of host names as the kernel
 *                     sends them
 * @hosts: the text of PFSEL_ATTR_HOSTS (or of an audit record's hosts=).
 *
 * A list is 1 to PFSEL_HOSTS_PER_ADDR names separated by single ',', each
 * of 1 to PFSEL_HOST_NAME_MAX printable ASCII characters other than ' '
 * and ',', the whole shorter than PFSEL_HOSTS_TEXT_MAX.  What a name
 * holds beyond that is the DNS server's choice: show it escaped
 * (pfsel_escape()), and put it in a rule only through
 * pfsel_hosts_rule_name().
 *
 * Return: 0; -ENAMETOOLONG when the list or a name is too long; -EINVAL
 * otherwise (empty, an empty name, a byte that is not printable, too many
 * names).
 */
int pfsel_hosts_check(const char *hosts);

/**
 * pfsel_hosts_rule_name - The first name of a host list that a rule can name
 * @hosts: a list as pfsel_hosts_check() accepts it ("" for none).
 * @buf: receives the name, in lower case, NUL-terminated.
 * @size: size of @buf (PFSEL_HOST_NAME_MAX + 1 is enough).
 *
 * The first (so the newest) name that the policy language can write after
 * "host" and that then names that very name (policy/LANGUAGE.md, "Host
 * names"): labels of 1 to 63 letters, digits, '-' and '_', not starting
 * or ending with '-', at most PFSEL_HOST_NAME_MAX characters in all.  A
 * name the DNS let through but the language cannot write ("*.example",
 * "a\"b.example") is skipped.
 *
 * Return: the name's length; -ENOENT when no name of @hosts is one;
 * -ENOSPC when @buf is too small (it then holds "").
 */
int pfsel_hosts_rule_name(const char *hosts, char *buf, size_t size);

struct pfsel_agent;
struct nl_msg;

/**
 * pfsel_agent_open - Connect to the kernel's "pfsel" generic netlink family
 * @out: set to the new handle.
 *
 * Opens a generic netlink socket (genl_connect), resolves the family
 * (genl_ctrl_resolve) and makes the socket non-blocking.  Does not
 * register: call pfsel_agent_register().
 *
 * Return: 0, -ENOENT when the kernel has no "pfsel" family (pfsel is not
 * active, or too old to ask), -ENOMEM, or the socket's error.
 */
int pfsel_agent_open(struct pfsel_agent **out);

/**
 * pfsel_agent_close - Close the socket (the kernel unregisters it) and free
 * @agent: the handle, or NULL.
 */
void pfsel_agent_close(struct pfsel_agent *agent);

/**
 * pfsel_agent_register_for - Make this socket the agent of user @uid
 * @agent: the handle.
 * @uid: the user whose questions this socket answers.
 *
 * Sends PFSEL_CMD_REGISTER with PFSEL_ATTR_UID and waits for the kernel's
 * acknowledgement.  Only the root side may register (CAP_MAC_ADMIN in the
 * initial user namespace, for the caller and the socket's opener): a
 * user's own programs cannot register, replace the agent, or answer.  The
 * calling process becomes @uid's agent process: it may then drop its
 * privileges to @uid for good and keep answering on this socket, and may
 * load @uid's policy (pfsel_load_file()).  A newer registration of the
 * same uid, with the same capability, replaces the older one.
 *
 * Return: 0; -EPERM without CAP_MAC_ADMIN; or the kernel's error.
 */
int pfsel_agent_register_for(struct pfsel_agent *agent, uid_t uid);

/**
 * pfsel_agent_register - pfsel_agent_register_for() the caller's real uid
 * @agent: the handle.
 *
 * Needs CAP_MAC_ADMIN as pfsel_agent_register_for() does: a root process
 * registering for root, or for itself before it changes uid.
 *
 * Return: as pfsel_agent_register_for().
 */
int pfsel_agent_register(struct pfsel_agent *agent);

/**
 * pfsel_agent_unregister - Stop being the agent (closing does it too)
 * @agent: the handle.
 *
 * Return: 0 or the kernel's error (-EPERM if this socket is not the agent).
 */
int pfsel_agent_unregister(struct pfsel_agent *agent);

/**
 * pfsel_agent_fd - The socket, for poll()/epoll (readable: call receive)
 * @agent: the handle.
 *
 * Questions may already be queued inside the handle (they arrived while
 * an answer's acknowledgement was awaited): call pfsel_agent_pending()
 * before sleeping on the fd.
 *
 * Return: the file descriptor; not to be read or closed by the caller.
 */
int pfsel_agent_fd(const struct pfsel_agent *agent);

/**
 * pfsel_agent_pending - Number of questions already received and queued
 * @agent: the handle.
 */
size_t pfsel_agent_pending(const struct pfsel_agent *agent);

/**
 * pfsel_agent_receive - Take the next question
 * @agent: the handle.
 * @q: filled in with the question.
 * @timeout_ms: how long to wait: 0 not at all, -1 for ever.
 *
 * Return: 1 with a question in @q; 0 when none came in time; -EINTR when a
 * signal interrupted the wait; -ENOBUFS when the socket overran (questions
 * were lost: the kernel gives them their default verdict); another
 * negative errno when the socket failed.
 */
int pfsel_agent_receive(struct pfsel_agent *agent, struct pfsel_question *q,
			int timeout_ms);

/**
 * typedef pfsel_question_fn - Callback of pfsel_agent_dispatch()
 * @q: the question, valid during the call only.
 * @arg: the caller's pointer.
 *
 * Return: 0 to go on, non-zero to stop dispatching (returned as is).
 */
typedef int (*pfsel_question_fn)(const struct pfsel_question *q, void *arg);

/**
 * pfsel_agent_dispatch - Hand every question available now to a callback
 * @agent: the handle.
 * @fn: the callback; it may call pfsel_agent_answer().
 * @arg: passed to @fn.
 *
 * For event loops: call it when the fd is readable.  Does not wait.
 *
 * Return: 0 when nothing more is available, @fn's non-zero value, or a
 * negative errno as for pfsel_agent_receive().
 */
int pfsel_agent_dispatch(struct pfsel_agent *agent, pfsel_question_fn fn,
			 void *arg);

/**
 * pfsel_agent_answer - Answer a question
 * @agent: the handle.
 * @id: the question's id.
 * @verdict: PFSEL_ANSWER_ALLOW or PFSEL_ANSWER_DENY.
 * @scope: enum pfsel_scope.
 *
 * Sends PFSEL_CMD_ANSWER and waits (at most 5 s) for the kernel's
 * acknowledgement; questions that arrive meanwhile are queued.
 *
 * Return: 0; -ENOENT when the id is unknown or has expired (the caller
 * already got its default verdict); -EPERM when this socket is not the
 * registered agent of the question's uid; -EINVAL for a verdict or scope
 * out of range; -ETIMEDOUT with no acknowledgement.
 */
int pfsel_agent_answer(struct pfsel_agent *agent, uint64_t id,
		       unsigned int verdict, unsigned int scope);

/*
 * Message level, for tests and for programs with their own libnl loop.
 */

/**
 * pfsel_question_parse - Parse a PFSEL_CMD_ASK message
 * @msg: a generic netlink message (nlmsghdr, genlmsghdr, attributes).
 * @q: filled in.
 *
 * Return: 0; -EPROTO when it is not a PFSEL_CMD_ASK or an attribute has
 * the wrong size; -EBADMSG when the ID attribute is missing.
 */
int pfsel_question_parse(struct nl_msg *msg, struct pfsel_question *q);

struct nlattr;

/**
 * pfsel_question_from_attrs - A question from its attributes alone
 * @tb: @maxtype + 1 entries, indexed by attribute type, NULL for an
 *      absent one (what nla_parse() or nlmsg_parse() fill in).
 * @maxtype: the highest type @tb has room for: PFSEL_ATTR_MAX (types
 *           beyond what this library knows are not read).
 * @q: filled in (zeroed first).
 *
 * What pfsel_question_parse() does after the generic netlink header, for
 * a program that carries a question's PFSEL_ATTR_* attributes in a
 * message of its own (pfsel-agent to its desktop prompt).
 *
 * Return: 0; -EPROTO when an attribute has the wrong size, a string is
 * not NUL-terminated, a value is out of range or the host names are not
 * a list (pfsel_hosts_check(), or longer than @hosts); -EBADMSG when the
 * ID attribute is missing.
 */
int pfsel_question_from_attrs(struct nlattr *const *tb, int maxtype,
			      struct pfsel_question *q);

/**
 * pfsel_answer_build - Fill a message with a PFSEL_CMD_ANSWER
 * @msg: an empty message from nlmsg_alloc().
 * @family: the resolved family id.
 * @id: @verdict: @scope: as for pfsel_agent_answer().
 *
 * Return: 0, -EINVAL (verdict or scope out of range), -EMSGSIZE.
 */
int pfsel_answer_build(struct nl_msg *msg, int family, uint64_t id,
		       unsigned int verdict, unsigned int scope);

/* ---------------------------------------------------------------------- */
/* Requests                                                                */
/* ---------------------------------------------------------------------- */

/**
 * struct pfsel_request - One request, as the kernel decides it
 * @exe: the application's executable, an absolute path; "" for an
 *       application the kernel cannot name (only "*" matches it in a
 *       rule).
 * @script: the script it runs, an absolute path; "" when it runs none.
 * @op: enum pfsel_op.
 * @proto: enum pfsel_proto.
 * @family: PFSEL_FAMILY_INET or PFSEL_FAMILY_INET6, or
 *          PFSEL_FAMILY_PACKET for a packet socket; what decides is the
 *          family of create, the address's for the other operations.
 * @addr: the request's address (policy/LANGUAGE.md, section 1): the
 *        peer's for connect and accept, the socket's own for bind and
 *        listen; all zero for create.  16 bytes, network order, IPv4 as
 *        IPv4-mapped.
 * @port: the request's port, host order: the peer's for connect, the
 *        socket's own for bind and listen, the one it was accepted on
 *        for accept; 0 for create and for protocols without ports (icmp,
 *        raw).
 * @hosts: the host names the kernel knows for @addr, newest first,
 *         separated by ',' (as pfsel_hosts_check() accepts them); "" for
 *         none.
 *
 * The one shape user space gives a request: what an agent's question asks
 * about (pfsel_request_from_question()), what an audit record says was
 * decided (struct pfsel_audit_record), what the "check" file is asked
 * (pfsel_request_to_check()).  About 9 KiB.
 */
struct pfsel_request {
	char exe[PFSEL_QUESTION_PATH_MAX];
	char script[PFSEL_QUESTION_PATH_MAX];
	unsigned int op;
	unsigned int proto;
	unsigned int family;
	uint8_t addr[16];
	uint16_t port;
	char hosts[PFSEL_HOSTS_TEXT_MAX];
};

/**
 * pfsel_request_from_question - The request a question asks about
 * @q: the question (its PFSEL_ATTR_RADDR and _RPORT are the request's).
 * @req: filled in; an executable the kernel names "?" becomes "".
 */
void pfsel_request_from_question(const struct pfsel_question *q,
				 struct pfsel_request *req);

/**
 * pfsel_request_to_check - A request as pfsel_check() asks it
 * @req: the request.
 * @check: filled in, its paths pointing into @req (NULL for ""); whose
 *         policy (@has_uid, @uid) is the caller's to set.  The "check"
 *         file takes no host names.
 */
void pfsel_request_to_check(const struct pfsel_request *req,
			    struct pfsel_check_request *check);

/**
 * pfsel_request_from_check - The request of a "check" request
 * @check: the check request (its uid is not the request's).
 * @req: filled in; @hosts "".
 *
 * Return: 0, or -ENAMETOOLONG when a path does not fit (@req is then all
 * zero).
 */
int pfsel_request_from_check(const struct pfsel_check_request *check,
			     struct pfsel_request *req);

/* ---------------------------------------------------------------------- */
/* The audit log                                                           */
/* ---------------------------------------------------------------------- */

/**
 * struct pfsel_audit_record - One AUDIT_PFSEL_ACCESS record, decoded
 * @sec: @msec: @serial: its audit timestamp and serial (0 when it was
 *       decoded from its fields alone).
 * @request: the request it decided: the executable and script (app=,
 *           script=, decoded), operation, protocol, family, the address
 *           and port picked from the two ends below as section 1 of
 *           policy/LANGUAGE.md names them, and the host names (hosts=).
 * @verdict: PFSEL_VERDICT_ALLOW or PFSEL_VERDICT_DENY.
 * @asked: for a decision the policy left to the agent, what became of it
 *         ("answered", "kept", "unanswered", ...); "" when none was asked.
 * @permissive: a denial a permissive policy let through.
 * @policy: whose rule decided: PFSEL_SLOT_SYSTEM or PFSEL_SLOT_USER.
 * @rule: the deciding rule, "FILE:LINE:COL" with FILE decoded, or
 *        "default".
 * @rule_default: the policy's default verdict decided.
 * @has_laddr: @laddr: the socket's own address, as the record writes it.
 * @has_raddr: @raddr: the peer's address, as the record writes it.
 * @lport: @rport: the two ports; -1 when the record has none.
 * @has_uid: @uid: the process's real uid.
 * @pid: its pid; -1 when the record has none (accept).
 * @comm: its comm, decoded.
 * @subj: its security context (subj=: an SELinux context, an AppArmor
 *        label and its mode), "" when the record has none.
 * @refused: for a refusal that no rule decided (refused=;
 *           docs/kernel-interface.md, "Refusals no rule decides"), what
 *           was refused: enum pfsel_refusal; PFSEL_REFUSAL_COUNT for a
 *           decision.  A refusal is a denial with no rule (@rule "") by
 *           @policy, if a policy made it (else PFSEL_SLOT_COUNT); its
 *           call is @call; its @request has the executable and script,
 *           and, where the call had a socket, the socket's protocol and
 *           family (@has_socket) and its ends (@laddr, @raddr); its
 *           operation is PFSEL_OP_COUNT unless @call is one.
 * @call: a refusal's call (op=): an operation ("create", "connect"), or
 *        "setsockopt", "sendmsg", "exec", "open", or a change of what is
 *        in force ("load", "unload", "forget", "enforce", "hook_timing",
 *        "cache_threshold", "register", "answer"); "" for a decision.
 * @has_socket: a refusal's call had a socket, whose protocol and family
 *              @request has.
 * @refused_family: the name of a family refused (refused=family): "smc",
 *                  "rds", "rxrpc", "tipc"; "" otherwise.
 * @variable: the variable a protected script's environment was refused
 *            for (refused=script-environment); "" otherwise.
 * @has_target: a change refused (refused=admin) was for a policy (a
 *              user's also for a user's answers or agent; target=):
 * @target_policy: @target_uid: that policy, PFSEL_SLOT_SYSTEM or
 *                 PFSEL_SLOT_USER and its user.
 *
 * About 14 KiB: allocate it.
 */
struct pfsel_audit_record {
	time_t sec;
	unsigned int msec;
	unsigned long serial;
	struct pfsel_request request;
	unsigned int verdict;
	char asked[16];
	bool permissive;
	unsigned int policy;
	char rule[4200];
	bool rule_default;
	bool has_laddr, has_raddr;
	char laddr[64], raddr[64];
	int lport, rport;
	bool has_uid;
	uint32_t uid;
	long pid;
	char comm[PFSEL_QUESTION_COMM_MAX];
	char subj[PFSEL_QUESTION_SECCTX_MAX];
	unsigned int refused;
	char call[16];
	bool has_socket;
	char refused_family[16];
	char variable[64];
	bool has_target;
	unsigned int target_policy;
	uint32_t target_uid;
};

/* One NAME=VALUE field of a record, as the kernel writes it. */
struct pfsel_audit_field {
	const char *name;
	const char *value;
};

/**
 * pfsel_audit_fields - Split a record's text into its fields
 * @text: one record as auditd logs it ("type=... msg=audit(SEC.MS:N):
 *        pfsel op=connect ..."); cut up in place.
 * @fields: where the fields go, pointing into @text.
 * @max: room in @fields.
 *
 * Blanks separate the fields (the kernel writes none inside a value but
 * in AppArmor's "subj=LABEL (MODE)"); what an enriched log adds after
 * 0x1d is left out.
 *
 * Return: the number of fields, 0 for a text that is not a record.
 */
size_t pfsel_audit_fields(char *text, struct pfsel_audit_field *fields,
			  size_t max);

/**
 * pfsel_audit_record_decode - Decode a record's fields
 * @fields: @count: its fields (pfsel_audit_fields()).
 * @rec: filled in (its timestamp left 0).
 *
 * Every field is checked: the vocabulary's words, the addresses, ports
 * and numbers, the untrusted strings (pfsel_audit_string()), the host
 * names (pfsel_hosts_check()), and that each operation has the ends it
 * must have (docs/kernel-interface.md, "Audit").  A refusal that no rule
 * decided (refused=) is a denial with the fields its call has.
 *
 * Return: 0 or -EBADMSG.
 */
int pfsel_audit_record_decode(const struct pfsel_audit_field *fields,
			      size_t count, struct pfsel_audit_record *rec);

/**
 * pfsel_audit_string - Decode an audit "untrusted string"
 * @value: "QUOTED", HEX (each byte as two digits) or "?" (empty).
 * @out: @size: where it goes, NUL-terminated.
 *
 * Return: 0; -EBADMSG (not of either form, or a NUL byte in the hex);
 * -ENAMETOOLONG (longer than @out).
 */
int pfsel_audit_string(const char *value, char *out, size_t size);

/**
 * struct pfsel_audit_filter - Where records come from, and which are wanted
 * @input: NULL: the audit daemon's logs; "-": standard input; else a file
 *         (raw records, as "ausearch --raw" prints them).
 * @has_uid: @uid: only this uid's records.
 * @app: NULL, or a glob (fnmatch()) that the executable, the script or
 *       "EXE script SCRIPT" must match.
 * @has_since: @since: only records since this time.
 * @want_allow: @want_deny: which verdicts.
 * @want_refusals: refusals that no rule decided too (denials with
 *                 refused=); without it, only decisions, each of a
 *                 request a rule could be written for.
 */
struct pfsel_audit_filter {
	const char *input;
	bool has_uid;
	uint32_t uid;
	const char *app;
	bool has_since;
	time_t since;
	bool want_allow, want_deny;
	bool want_refusals;
};

/* Called for each wanted record; non-zero stops the reading. */
typedef int (*pfsel_audit_record_fn)(const struct pfsel_audit_record *rec,
				     void *arg);

/**
 * pfsel_audit_read - Read pfsel's records from the audit log
 * @src: where from, and which (struct pfsel_audit_filter).
 * @fn: called for each record @src wants, in the log's order.
 * @arg: passed to @fn.
 * @bad: set to the number of records that could not be decoded (skipped).
 *
 * Through libauparse: every AUDIT_PFSEL_ACCESS (1430) record, decoded as
 * pfsel_audit_record_decode() decodes it.  The audit daemon's logs are
 * root's unless auditd.conf's log_group says otherwise.
 *
 * Return: 0; @fn's non-zero value (pfsel_last_error() is then ""); or a
 * negative errno, the failing step in pfsel_last_error()
 * ("auparse_init(FILE): ...", "reading the audit logs: Permission denied
 * (the audit logs need root)").
 */
int pfsel_audit_read(const struct pfsel_audit_filter *src,
		     pfsel_audit_record_fn fn, void *arg, unsigned long *bad);

#ifdef __cplusplus
}
#endif

#endif /* PFSEL_PFSEL_H */
