// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkbadblobs - a corpus of malformed policies for the kernel's loader
 *
 *   mkbadblobs BASE.pfsel OUTDIR
 *
 * Takes a valid compiled policy and breaks it in every way policy/FORMAT.md
 * forbids, one mutation per blob: truncations at every boundary, every
 * header field, the checksum, and then - with the checksum recomputed, so
 * that the structural checks are what reject it - every field of the
 * section table and every index, order and reserved field of every
 * section.  The host-name sections (format version 3) get the same, and
 * their own rules: name classes, name slabs and cells, name patterns and
 * the validity of their strings, and the resolvers, which only a system
 * policy may have: those are broken in a system policy made from the
 * base (its flag, uid 0, resolvers added), checked valid first.
 * Each blob goes through the same reader the kernel runs
 * (security/pfsel/policydb.c, built for user space through compiler/kshim);
 * it is kept only if the reader rejects it, and the errno it gave is the
 * one the kernel must give too.  OUTDIR receives the blobs, a copy of the
 * base as "valid.pfsel", and MANIFEST: one "NAME ERRNO" line per blob,
 * ERRNO by its symbolic name.
 *
 * A mutation meant to be invalid that the reader accepts is a bug in the
 * reader or in this program: the run fails (exit 1).  A few mutations are
 * marked "may be valid" (the edges of a range, a known flag); they are
 * tried and dropped when accepted.  A mutation whose errno is not the one
 * this program expects fails the run as well.  Mutations that give a blob
 * equal to an earlier one, or to the base, are dropped.  A few valid
 * blobs are made only to show that the invalid one beside them fails for
 * the reason meant (the same name string, made valid, the longest label
 * and name): the reader must accept them, or the run fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "policydb.h"

#define HDR_SIZE sizeof(struct pfsel_policy_header)
#define TABLE_END \
	(HDR_SIZE + PFSEL_SEC_COUNT * sizeof(struct pfsel_policy_section))
#define NSEC PFSEL_SEC_COUNT

/* Header field offsets. */
enum {
	H_MAGIC = 0,
	H_VERSION = 4,
	H_TOTAL = 8,
	H_CHECKSUM = 12,
	H_FLAGS = 16,
	H_UID = 20,
	H_NSECTIONS = 24,
	H_RESERVED = 28,
};

/* How a blob is finished before it is tried. */
enum {
	RAW = 0, /* as mutated: the checksum is stale */
	FIX = 1, /* checksum recomputed */
	MAYBE = 2, /* may be valid: dropped when accepted */
};

/* Offset of n_name_classes in SETTINGS; entry sizes of sections 18-21. */
#define SETTINGS_NAME_CLASSES 28
#define SLAB_SIZE sizeof(struct pfsel_policy_slab)
#define RANGE_SIZE sizeof(struct pfsel_policy_range)
#define NAME_SIZE sizeof(struct pfsel_policy_path)
#define RESOLVER_SIZE sizeof(struct pfsel_policy_resolver)

static const char *const sec_names[NSEC] = {
	"settings",  "strings",	   "rules",	 "ports",
	"addrs",     "runs",	   "rows",	 "slabs",
	"cells",     "groups",	   "grouplist",	 "apps",
	"pairs",     "exes",	   "exe_paths",	 "script_paths",
	"protected", "name_slabs", "name_cells", "name_patterns",
	"resolvers",
};

struct blob {
	uint8_t *p;
	size_t len;
};

static struct blob base;
static FILE *manifest;
static const char *outdir;
/* Put before every name: "system-" while the system variant is broken. */
static const char *name_prefix = "";
static struct blob *kept;
static size_t n_kept, n_dropped_dup, n_dropped_valid, n_failed, n_controls;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mkbadblobs: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static void set16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static size_t align_up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

static void swap_bytes(uint8_t *a, uint8_t *b, size_t n)
{
	while (n--) {
		uint8_t t = *a;

		*a++ = *b;
		*b++ = t;
	}
}

/* Section table of a blob laid out like the base. */
static uint8_t *ent(uint8_t *p, unsigned int id)
{
	return p + HDR_SIZE + 16 * (id - PFSEL_SEC_FIRST);
}

static uint32_t sec_count(unsigned int id)
{
	return get32(ent(base.p, id) + 4);
}

static uint32_t sec_off(unsigned int id)
{
	return get32(ent(base.p, id) + 8);
}

static uint32_t sec_size(unsigned int id)
{
	return get32(ent(base.p, id) + 12);
}

static uint32_t sec_end(unsigned int id)
{
	return sec_off(id) + sec_size(id);
}

static const char *sname(unsigned int id)
{
	return sec_names[id - PFSEL_SEC_FIRST];
}

/* Field @field of entry @i (of @esize bytes) of section @id in @p. */
static uint8_t *field(uint8_t *p, unsigned int id, size_t i, size_t esize,
		      size_t field)
{
	return p + sec_off(id) + i * esize + field;
}

static struct blob copy_base(void)
{
	struct blob b = { xmalloc(base.len), base.len };

	memcpy(b.p, base.p, base.len);
	return b;
}

static void fix_checksum(struct blob *b)
{
	if (b->len >= HDR_SIZE)
		set32(b->p + H_CHECKSUM, pfsel_policydb_checksum(b->p, b->len));
}

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL:
		return "EINVAL";
	case EBADMSG:
		return "EBADMSG";
	case EPROTONOSUPPORT:
		return "EPROTONOSUPPORT";
	case E2BIG:
		return "E2BIG";
	case ENOMEM:
		return "ENOMEM";
	}
	return NULL;
}

static void write_file(const char *name, const void *p, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	if (!f || (len && fwrite(p, 1, len, f) != len) || fclose(f))
		die("cannot write %s", path);
}

/*
 * Try @b (taking it over) under @name: finish it as @how says, run it
 * through the reader, keep it if rejected.  @want is the errno this
 * mutation must give (positive).
 */
static void emit(struct blob b, unsigned int how, int want, const char *fmt,
		 ...)
{
	struct pfsel_policydb *db = NULL;
	char name[128];
	const char *ename;
	va_list ap;
	int err;

	va_start(ap, fmt);
	snprintf(name, sizeof(name), "%s", name_prefix);
	vsnprintf(name + strlen(name), sizeof(name) - strlen(name), fmt, ap);
	va_end(ap);
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      *c == '-' || *c == '_' || *c == '.' || *c == '+'))
			die("%s: bad name", name);
	if (how & FIX)
		fix_checksum(&b);
	/*
	 * A "mutation" that changes nothing (the offset of an empty last
	 * section set to the end, where it is) is no mutation.
	 */
	if (b.len == base.len && !memcmp(b.p, base.p, b.len)) {
		n_dropped_dup++;
		free(b.p);
		return;
	}
	for (size_t i = 0; i < n_kept; i++) {
		if (kept[i].len == b.len && !memcmp(kept[i].p, b.p, b.len)) {
			n_dropped_dup++;
			free(b.p);
			return;
		}
	}
	err = -pfsel_policydb_load(b.p, b.len, &db);
	if (!err) {
		pfsel_policydb_free(db);
		if (!(how & MAYBE)) {
			fprintf(stderr,
				"mkbadblobs: %s: accepted, but it is invalid\n",
				name);
			n_failed++;
		} else {
			n_dropped_valid++;
		}
		free(b.p);
		return;
	}
	ename = errno_name(err);
	if (!ename)
		die("%s: unexpected error %d", name, err);
	if (want && err != want) {
		fprintf(stderr, "mkbadblobs: %s: rejected with %s, not %s\n",
			name, ename, errno_name(want));
		n_failed++;
	}
	write_file(name, b.p, b.len);
	fprintf(manifest, "%s %s\n", name, ename);
	kept = realloc(kept, (n_kept + 1) * sizeof(*kept));
	if (!kept)
		die("out of memory");
	kept[n_kept++] = b;
}

/* ---- truncations and extensions ---- */

static void truncate_to(size_t len, const char *why)
{
	struct blob b = { NULL, len };

	if (len >= base.len)
		return;
	b.p = xmalloc(base.len);
	memcpy(b.p, base.p, len);
	emit(b, RAW, EINVAL, "trunc-%zu-%s", len, why);
	if (len < HDR_SIZE)
		return;
	/* The header agrees with the length: the layout is what is wrong. */
	b.p = xmalloc(base.len);
	memcpy(b.p, base.p, len);
	set32(b.p + H_TOTAL, len);
	emit(b, FIX, EINVAL, "trunc-%zu-%s-sized", len, why);
}

static void truncations(void)
{
	char why[64];

	truncate_to(0, "empty");
	truncate_to(1, "one");
	truncate_to(HDR_SIZE - 1, "header-1");
	truncate_to(HDR_SIZE, "header");
	truncate_to(HDR_SIZE + 1, "header+1");
	truncate_to(TABLE_END - 1, "table-1");
	truncate_to(TABLE_END, "table");
	truncate_to(TABLE_END + 1, "table+1");
	for (unsigned int id = PFSEL_SEC_FIRST; id <= PFSEL_SEC_LAST; id++) {
		snprintf(why, sizeof(why), "%s-start-1", sname(id));
		truncate_to(sec_off(id) - 1, why);
		snprintf(why, sizeof(why), "%s-start", sname(id));
		truncate_to(sec_off(id), why);
		snprintf(why, sizeof(why), "%s-start+1", sname(id));
		truncate_to(sec_off(id) + 1, why);
		if (sec_size(id) >= 4) {
			snprintf(why, sizeof(why), "%s-middle", sname(id));
			truncate_to(sec_off(id) + sec_size(id) / 2, why);
		}
		snprintf(why, sizeof(why), "%s-end-1", sname(id));
		truncate_to(sec_end(id) - 1, why);
		snprintf(why, sizeof(why), "%s-end", sname(id));
		truncate_to(sec_end(id), why);
		snprintf(why, sizeof(why), "%s-end+1", sname(id));
		truncate_to(sec_end(id) + 1, why);
	}
	truncate_to(base.len - 1, "last-byte");
}

static void extend_by(size_t extra, uint8_t fill)
{
	struct blob b = { xmalloc(base.len + extra), base.len + extra };

	memcpy(b.p, base.p, base.len);
	memset(b.p + base.len, fill, extra);
	emit(b, RAW, EINVAL, "extend-%zu-%02x", extra, fill);
	b.p = xmalloc(base.len + extra);
	memcpy(b.p, base.p, base.len);
	memset(b.p + base.len, fill, extra);
	set32(b.p + H_TOTAL, base.len + extra);
	emit(b, FIX, EINVAL, "extend-%zu-%02x-sized", extra, fill);
}

/* ---- the header ---- */

/* One header field set to @value: with a stale checksum and a fixed one. */
static void header_field(unsigned int off, uint32_t value, int want,
			 const char *name)
{
	struct blob b = copy_base();

	set32(b.p + off, value);
	emit(b, RAW, want, "hdr-%s", name);
	b = copy_base();
	set32(b.p + off, value);
	emit(b, FIX, want, "hdr-%s-fixed", name);
}

static void header(void)
{
	const uint32_t len = base.len;
	const uint32_t uid = get32(base.p + H_UID);
	char name[64];
	struct blob b;

	if (!uid)
		die("the base must be a user policy for a uid other than 0");
	header_field(H_MAGIC, 0, EINVAL, "magic-zero");
	header_field(H_MAGIC, 0xffffffff, EINVAL, "magic-ones");
	header_field(H_MAGIC, 0x5046534c, EINVAL, "magic-big-endian");
	header_field(H_MAGIC, PFSEL_POLICY_MAGIC + 1, EINVAL, "magic+1");
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "magic-byte%u", i);
		header_field(H_MAGIC, PFSEL_POLICY_MAGIC ^ (0x20u << 8 * i),
			     EINVAL, name);
	}
	header_field(H_VERSION, 0, EPROTONOSUPPORT, "version-0");
	header_field(H_VERSION, PFSEL_POLICY_VERSION + 1, EPROTONOSUPPORT,
		     "version-next");
	header_field(H_VERSION, 0x100 | PFSEL_POLICY_VERSION, EPROTONOSUPPORT,
		     "version-high-byte");
	header_field(H_VERSION, 0xffffffff, EPROTONOSUPPORT, "version-ones");
	header_field(H_TOTAL, 0, EINVAL, "total-zero");
	header_field(H_TOTAL, HDR_SIZE, EINVAL, "total-header");
	header_field(H_TOTAL, TABLE_END, EINVAL, "total-table");
	header_field(H_TOTAL, len - 8, EINVAL, "total-smaller-8");
	header_field(H_TOTAL, len - 1, EINVAL, "total-smaller-1");
	header_field(H_TOTAL, len + 1, EINVAL, "total-larger-1");
	header_field(H_TOTAL, len + 8, EINVAL, "total-larger-8");
	header_field(H_TOTAL, PFSEL_POLICY_MAX_SIZE, EINVAL, "total-max");
	header_field(H_TOTAL, PFSEL_POLICY_MAX_SIZE + 1, EINVAL, "total-max+1");
	header_field(H_TOTAL, 0xffffffff, EINVAL, "total-ones");
	for (unsigned int bit = 0; bit < 32; bit++) {
		if ((1u << bit) & PFSEL_POLICY_F_MASK)
			continue;
		snprintf(name, sizeof(name), "flags-bit%u", bit);
		header_field(H_FLAGS, 1u << bit, EINVAL, name);
	}
	header_field(H_FLAGS, 0xffffffff, EINVAL, "flags-ones");
	header_field(H_FLAGS, ~PFSEL_POLICY_F_MASK, EINVAL,
		     "flags-all-unknown");
	/* The system flag needs uid 0; the base has another uid. */
	header_field(H_FLAGS, PFSEL_POLICY_F_SYSTEM, EINVAL, "system-with-uid");
	header_field(H_FLAGS, PFSEL_POLICY_F_SYSTEM | PFSEL_POLICY_F_PERMISSIVE,
		     EINVAL, "system-permissive-with-uid");
	b = copy_base();
	set32(b.p + H_FLAGS, PFSEL_POLICY_F_SYSTEM);
	set32(b.p + H_UID, 1);
	emit(b, FIX, EINVAL, "hdr-system-with-uid-1");
	b = copy_base();
	set32(b.p + H_FLAGS, PFSEL_POLICY_F_SYSTEM);
	set32(b.p + H_UID, 0xffffffff);
	emit(b, FIX, EINVAL, "hdr-system-with-uid-ones");
	/* Known flags and another uid are fine. */
	b = copy_base();
	set32(b.p + H_FLAGS, PFSEL_POLICY_F_PERMISSIVE);
	emit(b, FIX | MAYBE, 0, "hdr-permissive");
	b = copy_base();
	set32(b.p + H_FLAGS, PFSEL_POLICY_F_SYSTEM);
	set32(b.p + H_UID, 0);
	emit(b, FIX | MAYBE, 0, "hdr-system-uid-0");
	header_field(H_NSECTIONS, 0, EINVAL, "nsections-0");
	header_field(H_NSECTIONS, 1, EINVAL, "nsections-1");
	header_field(H_NSECTIONS, NSEC - 1, EINVAL, "nsections-1-less");
	header_field(H_NSECTIONS, NSEC + 1, EINVAL, "nsections-1-more");
	header_field(H_NSECTIONS, 2 * NSEC, EINVAL, "nsections-double");
	header_field(H_NSECTIONS, 0xffffffff, EINVAL, "nsections-ones");
	header_field(H_RESERVED, 1, EINVAL, "reserved-1");
	header_field(H_RESERVED, 0x80000000, EINVAL, "reserved-high");
	header_field(H_RESERVED, 0xffffffff, EINVAL, "reserved-ones");
	/* Which check comes first: magic, then version, then the rest. */
	b = copy_base();
	set32(b.p + H_MAGIC, 0);
	set32(b.p + H_VERSION, 2);
	emit(b, FIX, EINVAL, "hdr-magic-and-version");
	b = copy_base();
	set32(b.p + H_VERSION, 2);
	set32(b.p + H_RESERVED, 1);
	emit(b, FIX, EPROTONOSUPPORT, "hdr-version-and-reserved");
	b = copy_base();
	set32(b.p + H_VERSION, 2);
	set32(b.p + H_TOTAL, len + 8);
	emit(b, RAW, EPROTONOSUPPORT, "hdr-version-and-total");
}

/* ---- the checksum: stale, and every section's bytes changed under it ---- */

static void checksum(void)
{
	static const uint32_t flips[] = { 1, 0x80000000, 0xffffffff };
	const uint32_t sum = get32(base.p + H_CHECKSUM);
	struct blob b;

	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		b = copy_base();
		set32(b.p + H_CHECKSUM, sum ^ flips[i]);
		emit(b, RAW, EBADMSG, "checksum-xor-%08x", flips[i]);
	}
	b = copy_base();
	set32(b.p + H_CHECKSUM, 0);
	emit(b, RAW, EBADMSG, "checksum-zero");
	b = copy_base();
	set32(b.p + H_CHECKSUM, sum + 1);
	emit(b, RAW, EBADMSG, "checksum+1");
	/* A valid header, another uid: the checksum covers the uid. */
	b = copy_base();
	set32(b.p + H_UID, get32(base.p + H_UID) + 1);
	emit(b, RAW, EBADMSG, "checksum-uid-changed");
	b = copy_base();
	b.p[HDR_SIZE + 4] ^= 1;
	emit(b, RAW, EBADMSG, "checksum-table-changed");
	for (unsigned int id = PFSEL_SEC_FIRST; id <= PFSEL_SEC_LAST; id++) {
		if (!sec_size(id))
			continue;
		b = copy_base();
		b.p[sec_off(id) + sec_size(id) / 2] ^= 0x40;
		emit(b, RAW, EBADMSG, "checksum-%s-changed", sname(id));
	}
	b = copy_base();
	b.p[b.len - 1] ^= 0x01;
	emit(b, RAW, EBADMSG, "checksum-last-byte");
}

/* ---- the section table, checksum recomputed ---- */

static void table_field(unsigned int id, unsigned int off, uint32_t value,
			const char *what)
{
	struct blob b = copy_base();

	set32(ent(b.p, id) + off, value);
	emit(b, FIX, EINVAL, "table-%s-%s", sname(id), what);
}

static void section_table(void)
{
	const uint32_t len = base.len;

	for (unsigned int id = PFSEL_SEC_FIRST; id <= PFSEL_SEC_LAST; id++) {
		const uint32_t count = sec_count(id), off = sec_off(id),
			       size = sec_size(id);

		table_field(id, 0, id + 1, "id-next");
		table_field(id, 0, id - 1, "id-previous");
		table_field(id, 0, 0, "id-zero");
		table_field(id, 0, 99, "id-unknown");
		table_field(id, 0, 0xffffffff, "id-ones");
		table_field(id, 4, count + 1, "count+1");
		if (count) {
			table_field(id, 4, count - 1, "count-1");
			table_field(id, 4, 0, "count-zero");
		}
		table_field(id, 4, count + 0x80000000u, "count-high-bit");
		table_field(id, 4, 0xffffffff, "count-ones");
		table_field(id, 4, count * 2 + 1, "count-double");
		table_field(id, 8, off + 1, "offset+1");
		table_field(id, 8, off + 4, "offset+4");
		table_field(id, 8, off + 8, "offset+8");
		table_field(id, 8, off - 8, "offset-8");
		table_field(id, 8, off - 1, "offset-1");
		table_field(id, 8, 0, "offset-zero");
		table_field(id, 8, HDR_SIZE, "offset-in-table");
		table_field(id, 8, len, "offset-end");
		table_field(id, 8, len + 8, "offset-past-end");
		table_field(id, 8, 0xfffffff8, "offset-wraps");
		table_field(id, 12, size + 1, "size+1");
		table_field(id, 12, size + 8, "size+8");
		if (size) {
			table_field(id, 12, size - 1, "size-1");
			table_field(id, 12, 0, "size-zero");
		}
		if (size >= 8)
			table_field(id, 12, size - 8, "size-8");
		table_field(id, 12, len, "size-whole-blob");
		table_field(id, 12, len - off + 8, "size-past-end");
		table_field(id, 12, 0xffffffff, "size-ones");
		table_field(id, 12, 0xfffffff8, "size-wraps");
	}
	/* Entries out of order: two neighbours swapped. */
	for (unsigned int id = PFSEL_SEC_FIRST; id < PFSEL_SEC_LAST; id++) {
		struct blob b = copy_base();

		swap_bytes(ent(b.p, id), ent(b.p, id + 1), 16);
		emit(b, FIX, EINVAL, "table-swap-%s-%s", sname(id),
		     sname(id + 1));
	}
	/* The same section twice, the next one missing. */
	for (unsigned int id = PFSEL_SEC_FIRST; id < PFSEL_SEC_LAST; id++) {
		struct blob b = copy_base();

		memcpy(ent(b.p, id + 1), ent(b.p, id), 16);
		emit(b, FIX, EINVAL, "table-twice-%s", sname(id));
	}
}

/* ---- section contents, checksum recomputed ---- */

/*
 * The base with section @id replaced by @size bytes at @bytes holding
 * @count entries, the later sections moved to keep the layout valid.
 */
static struct blob rebuild(unsigned int id, const void *bytes, uint32_t size,
			   uint32_t count)
{
	size_t total = TABLE_END, pos;
	struct blob b;

	for (unsigned int s = PFSEL_SEC_FIRST; s <= PFSEL_SEC_LAST; s++)
		total = align_up(total, PFSEL_POLICY_ALIGN) +
			(s == id ? size : sec_size(s));
	total = align_up(total, PFSEL_POLICY_ALIGN);
	b.p = xmalloc(total);
	b.len = total;
	memcpy(b.p, base.p, TABLE_END);
	set32(b.p + H_TOTAL, total);
	pos = TABLE_END;
	for (unsigned int s = PFSEL_SEC_FIRST; s <= PFSEL_SEC_LAST; s++) {
		const uint32_t n = s == id ? size : sec_size(s);

		pos = align_up(pos, PFSEL_POLICY_ALIGN);
		set32(ent(b.p, s) + 4, s == id ? count : sec_count(s));
		set32(ent(b.p, s) + 8, pos);
		set32(ent(b.p, s) + 12, n);
		memcpy(b.p + pos, s == id ? bytes : base.p + sec_off(s), n);
		pos += n;
	}
	return b;
}

/* Section @id with @extra bytes appended (@n_entries more entries). */
static struct blob append_to(unsigned int id, const void *extra, uint32_t len,
			     uint32_t n_entries)
{
	uint8_t *bytes = xmalloc(sec_size(id) + len);
	struct blob b;

	memcpy(bytes, base.p + sec_off(id), sec_size(id));
	memcpy(bytes + sec_size(id), extra, len);
	b = rebuild(id, bytes, sec_size(id) + len, sec_count(id) + n_entries);
	free(bytes);
	return b;
}

/* A 32-bit field of entry @i set to @value. */
static void set_field(unsigned int id, size_t i, size_t esize, size_t off,
		      uint32_t value, unsigned int how, const char *what)
{
	struct blob b = copy_base();

	if (i >= sec_count(id))
		die("the base has no %s entry %zu", sname(id), i);
	set32(field(b.p, id, i, esize, off), value);
	emit(b, FIX | how, how & MAYBE ? 0 : EINVAL, "%s-%zu-%s", sname(id), i,
	     what);
}

/* A byte of entry @i set to @value. */
static void set_byte(unsigned int id, size_t i, size_t esize, size_t off,
		     uint8_t value, const char *what)
{
	struct blob b = copy_base();

	if (i >= sec_count(id))
		die("the base has no %s entry %zu", sname(id), i);
	*field(b.p, id, i, esize, off) = value;
	emit(b, FIX, EINVAL, "%s-%zu-%s", sname(id), i, what);
}

/* Section @id emptied (count 0, size 0). */
static void emptied(unsigned int id)
{
	emit(rebuild(id, "", 0, 0), FIX, EINVAL, "%s-empty", sname(id));
}

/* Entries @i and @j (of @esize bytes) swapped. */
static void swapped(unsigned int id, size_t i, size_t j, size_t esize,
		    size_t off, size_t n, const char *what)
{
	struct blob b = copy_base();

	swap_bytes(field(b.p, id, i, esize, off), field(b.p, id, j, esize, off),
		   n);
	emit(b, FIX, EINVAL, "%s-%zu-%zu-%s", sname(id), i, j, what);
}

/* Field bytes of entry @j set equal to those of entry @i. */
static void equalled(unsigned int id, size_t i, size_t j, size_t esize,
		     size_t off, size_t n, const char *what)
{
	struct blob b = copy_base();

	memcpy(field(b.p, id, j, esize, off), field(b.p, id, i, esize, off), n);
	emit(b, FIX, EINVAL, "%s-%zu-%zu-%s", sname(id), i, j, what);
}

/*
 * The first entry of a slice table (@id, entries of 8 bytes: first, count,
 * or the cell/exe layout given by @first_off) with at least two elements.
 */
static size_t find_slice(unsigned int id, size_t esize, size_t first_off)
{
	for (size_t i = 0; i < sec_count(id); i++)
		if (get32(field(base.p, id, i, esize, first_off + 4)) >= 2)
			return i;
	die("the base has no %s entry with two or more elements", sname(id));
	return 0;
}

static uint32_t first_of(unsigned int id, size_t i, size_t esize,
			 size_t first_off)
{
	return get32(field(base.p, id, i, esize, first_off));
}

static uint32_t name_classes(void)
{
	return get32(field(base.p, PFSEL_SEC_SETTINGS, 0, 32,
			   SETTINGS_NAME_CLASSES));
}

static void settings(void)
{
	const unsigned int S = PFSEL_SEC_SETTINGS;
	const uint32_t n_scripts = get32(field(base.p, S, 0, 32, 16));
	const uint32_t n_exes = sec_count(PFSEL_SEC_EXES);
	const uint32_t n_names = name_classes();
	uint8_t two[64];

	set_field(S, 0, 32, 0, PFSEL_VERDICT_COUNT, 0, "verdict-3");
	set_field(S, 0, 32, 0, 0xffffffff, 0, "verdict-ones");
	set_field(S, 0, 32, 4, PFSEL_AUDIT_MASK + 1, 0, "audit-bit2");
	set_field(S, 0, 32, 4, 0x80000000, 0, "audit-high");
	set_field(S, 0, 32, 8, PFSEL_VERDICT_ASK, 0, "no-answer-ask");
	set_field(S, 0, 32, 8, PFSEL_VERDICT_COUNT, 0, "no-answer-3");
	set_field(S, 0, 32, 8, 0xffffffff, 0, "no-answer-ones");
	set_field(S, 0, 32, 12, 0, 0, "timeout-0");
	set_field(S, 0, 32, 12, 600001, 0, "timeout-600001");
	set_field(S, 0, 32, 12, 0xffffffff, 0, "timeout-ones");
	set_field(S, 0, 32, 12, 1, MAYBE, "timeout-1");
	set_field(S, 0, 32, 12, 600000, MAYBE, "timeout-600000");
	set_field(S, 0, 32, 16, 0, 0, "script-classes-0");
	set_field(S, 0, 32, 16, n_scripts - 1, 0, "script-classes-1-less");
	set_field(S, 0, 32, 16, n_scripts + 1, MAYBE, "script-classes-1-more");
	set_field(S, 0, 32, 20, n_exes, 0, "exe-other-out-of-range");
	set_field(S, 0, 32, 20, 0xffffffff, 0, "exe-other-ones");
	set_field(S, 0, 32, 20, 0, MAYBE, "exe-other-0");
	set_field(S, 0, 32, 24, n_scripts, 0, "script-other-out-of-range");
	set_field(S, 0, 32, 24, 0xffffffff, 0, "script-other-ones");
	/*
	 * n_name_classes: at least 1; fewer than the classes the name slabs
	 * and patterns use is wrong, more is harmless.
	 */
	set_field(S, 0, 32, SETTINGS_NAME_CLASSES, 0, 0, "name-classes-0");
	set_field(S, 0, 32, SETTINGS_NAME_CLASSES, 1, 0, "name-classes-1");
	set_field(S, 0, 32, SETTINGS_NAME_CLASSES, n_names - 1, 0,
		  "name-classes-1-less");
	set_field(S, 0, 32, SETTINGS_NAME_CLASSES, n_names + 1, MAYBE,
		  "name-classes-1-more");
	set_field(S, 0, 32, SETTINGS_NAME_CLASSES, 0x80000000, MAYBE,
		  "name-classes-high");
	/* Two settings entries. */
	memcpy(two, base.p + sec_off(S), 32);
	memcpy(two + 32, base.p + sec_off(S), 32);
	emit(rebuild(S, two, 64, 2), FIX, EINVAL, "settings-twice");
	emptied(S);
}

/* A string entry of @len bytes of @c (or of @bytes), padded. */
static uint8_t *string_entry(uint32_t len, uint32_t field_len, uint8_t c,
			     uint32_t *size)
{
	uint8_t *p;

	*size = 4 + align_up(len, 4u);
	p = xmalloc(*size);
	set32(p, field_len);
	memset(p + 4, c, len);
	return p;
}

static void strings(void)
{
	const unsigned int S = PFSEL_SEC_STRINGS;
	const uint32_t off = sec_off(S), size = sec_size(S);
	uint32_t pos = 0, odd = 0, n = 0;
	uint8_t *e;
	uint32_t esize;
	struct blob b;

	/* Find a string whose length is not a multiple of 4: it has padding. */
	for (uint32_t i = 0; i < sec_count(S); i++) {
		uint32_t len = get32(base.p + off + pos);

		if (len % 4 && !odd)
			odd = pos;
		pos += 4 + align_up(len, 4u);
		n++;
	}
	if (!odd || n < 2)
		die("the base needs strings, one with padding");
	/* Over-long strings, each appended as a new last string. */
	e = string_entry(PFSEL_POLICY_MAX_STRING + 1,
			 PFSEL_POLICY_MAX_STRING + 1, 'a', &esize);
	emit(append_to(S, e, esize, 1), FIX, EINVAL, "strings-too-long-4097");
	free(e);
	e = string_entry(3 * PFSEL_POLICY_MAX_STRING,
			 3 * PFSEL_POLICY_MAX_STRING, '/', &esize);
	emit(append_to(S, e, esize, 1), FIX, EINVAL, "strings-too-long-12288");
	free(e);
	e = string_entry(PFSEL_POLICY_MAX_STRING, PFSEL_POLICY_MAX_STRING, 'a',
			 &esize);
	emit(append_to(S, e, esize, 1), FIX | MAYBE, 0, "strings-longest");
	free(e);
	e = string_entry(0, 0, 0, &esize);
	emit(append_to(S, e, esize, 1), FIX | MAYBE, 0, "strings-empty-string");
	free(e);
	/* A length field past the end of the section, its bytes missing. */
	e = string_entry(8, 8, 'a', &esize);
	emit(append_to(S, e, 4, 1), FIX, EINVAL, "strings-last-cut");
	free(e);
	e = string_entry(8, 0xffffffff, 'a', &esize);
	emit(append_to(S, e, esize, 1), FIX, EINVAL, "strings-len-ones");
	free(e);
	/* A trailing length field alone, or stray bytes, after the last. */
	e = string_entry(0, 0, 0, &esize);
	emit(append_to(S, e, 4, 0), FIX, EINVAL, "strings-stray-bytes");
	free(e);
	/* A NUL inside a string. */
	e = string_entry(8, 8, 'a', &esize);
	e[6] = 0;
	emit(append_to(S, e, esize, 1), FIX, EINVAL, "strings-nul-inside");
	free(e);
	/* Nonzero padding after a string. */
	e = string_entry(5, 5, 'a', &esize);
	e[4 + 6] = 'a';
	emit(append_to(S, e, esize, 1), FIX, EINVAL, "strings-padding-nonzero");
	free(e);
	b = copy_base();
	b.p[off + odd + 4 + align_up(get32(base.p + off + odd), 4u) - 1] = 'x';
	emit(b, FIX, EINVAL, "strings-base-padding-nonzero");
	/* The first string's length in place: too long, into the next. */
	b = copy_base();
	set32(b.p + off, PFSEL_POLICY_MAX_STRING + 1);
	emit(b, FIX, EINVAL, "strings-0-len-4097");
	b = copy_base();
	set32(b.p + off, size);
	emit(b, FIX, EINVAL, "strings-0-len-section");
	b = copy_base();
	set32(b.p + off, get32(base.p + off) + 1);
	emit(b, FIX, EINVAL, "strings-0-len+1");
	b = copy_base();
	set32(b.p + off + odd, get32(base.p + off + odd) + 1);
	emit(b, FIX, EINVAL, "strings-odd-len+1");
	b = copy_base();
	set32(b.p + off + odd, get32(base.p + off + odd) - 1);
	emit(b, FIX, EINVAL, "strings-odd-len-1");
	/* More strings counted than there are. */
	b = copy_base();
	set32(ent(b.p, S) + 4, n + 1);
	emit(b, FIX, EINVAL, "strings-count-more");
	b = copy_base();
	set32(ent(b.p, S) + 4, size / 4 + 1);
	emit(b, FIX, EINVAL, "strings-count-over-size");
	emptied(S);
}

static void rules(void)
{
	const unsigned int R = PFSEL_SEC_RULES;
	const uint32_t last = sec_count(R) - 1;
	const uint32_t n_strings = sec_count(PFSEL_SEC_STRINGS);

	for (uint32_t i = 0; i <= last; i += last) {
		set_byte(R, i, 16, 0, PFSEL_VERDICT_COUNT, "verdict-3");
		set_byte(R, i, 16, 0, 0xff, "verdict-ff");
		set_byte(R, i, 16, 1, PFSEL_AUDIT_MASK + 1, "audit-bit2");
		set_byte(R, i, 16, 1, 0x80, "audit-bit7");
		set_byte(R, i, 16, 2, 1, "reserved-low");
		set_byte(R, i, 16, 3, 0x80, "reserved-high");
		set_field(R, i, 16, 4, n_strings, 0, "file-out-of-range");
		set_field(R, i, 16, 4, 0xffffffff, 0, "file-ones");
		if (!last)
			break;
	}
}

static void ports(void)
{
	const unsigned int P = PFSEL_SEC_PORTS;
	const uint32_t n = sec_count(P);
	struct blob b;

	if (n < 3)
		die("the base needs three port classes");
	b = copy_base();
	set16(field(b.p, P, 0, 2, 0), 1);
	emit(b, FIX, EINVAL, "ports-first-not-0");
	b = copy_base();
	set16(field(b.p, P, 1, 2, 0), 0);
	emit(b, FIX, EINVAL, "ports-1-equal-0");
	b = copy_base();
	set16(field(b.p, P, n - 1, 2, 0), get16(field(base.p, P, n - 2, 2, 0)));
	emit(b, FIX, EINVAL, "ports-last-equal");
	b = copy_base();
	set16(field(b.p, P, n - 1, 2, 0),
	      get16(field(base.p, P, n - 2, 2, 0)) - 1);
	emit(b, FIX, EINVAL, "ports-last-decreasing");
	swapped(P, 1, 2, 2, 0, 2, "unsorted");
	b = copy_base();
	set16(field(b.p, P, 1, 2, 0), 0xffff);
	emit(b, FIX, EINVAL, "ports-1-ffff");
	emptied(P);
}

static void addrs(void)
{
	const unsigned int A = PFSEL_SEC_ADDRS;
	const uint32_t n = sec_count(A);
	struct blob b;

	if (n < 3)
		die("the base needs three address classes");
	b = copy_base();
	field(b.p, A, 0, 16, 15)[0] = 1;
	emit(b, FIX, EINVAL, "addrs-first-not-zero");
	b = copy_base();
	field(b.p, A, 0, 16, 0)[0] = 0x20;
	emit(b, FIX, EINVAL, "addrs-first-high");
	equalled(A, 0, 1, 16, 0, 16, "equal");
	equalled(A, n - 2, n - 1, 16, 0, 16, "equal");
	swapped(A, 1, 2, 16, 0, 16, "unsorted");
	swapped(A, n - 2, n - 1, 16, 0, 16, "unsorted");
	b = copy_base();
	memset(field(b.p, A, 1, 16, 0), 0xff, 16);
	emit(b, FIX, EINVAL, "addrs-1-all-ones");
	emptied(A);
}

static void runs_and_rows(void)
{
	const unsigned int RU = PFSEL_SEC_RUNS, RO = PFSEL_SEC_ROWS;
	const uint32_t n_ports = sec_count(PFSEL_SEC_PORTS);
	const uint32_t n_rules = sec_count(PFSEL_SEC_RULES);
	const uint32_t last_run = sec_count(RU) - 1,
		       last_row = sec_count(RO) - 1;
	const size_t row = find_slice(RO, 8, 0);
	const uint32_t first = first_of(RO, row, 8, 0);

	set_field(RU, 0, 8, 0, n_ports, 0, "start-out-of-range");
	set_field(RU, last_run, 8, 0, 0xffffffff, 0, "start-ones");
	set_field(RU, 0, 8, 4, n_rules, 0, "rule-out-of-range");
	set_field(RU, last_run, 8, 4, PFSEL_NONE - 1, 0, "rule-none-1");
	set_field(RU, first + 1, 8, 4, PFSEL_NONE, MAYBE, "rule-none");
	/* Inside a row: the first start is 0, starts strictly increase. */
	set_field(RU, first, 8, 0, 1, 0, "first-start-1");
	set_field(RU, first + 1, 8, 0, 0, 0, "second-start-0");
	swapped(RU, first, first + 1, 8, 0, 4, "starts-swapped");

	set_field(RO, 0, 8, 0, 1, 0, "first-1");
	set_field(RO, 0, 8, 4, 0, 0, "empty");
	set_field(RO, 0, 8, 4, first_of(RO, 0, 8, 4) + 1, 0, "count+1");
	set_field(RO, last_row, 8, 4, first_of(RO, last_row, 8, 4) - 1, 0,
		  "count-1-gap-at-end");
	set_field(RO, last_row, 8, 4, first_of(RO, last_row, 8, 4) + 1, 0,
		  "count+1-past-end");
	set_field(RO, last_row, 8, 0, first_of(RO, last_row, 8, 0) + 1, 0,
		  "first+1-gap");
	set_field(RO, row, 8, 4, 0xffffffff, 0, "count-ones");
	set_field(RO, row, 8, 0, 0xffffffff, 0, "first-ones");
	swapped(RO, 0, 1, 8, 0, 8, "swapped");
	emptied(RO);
}

static void slabs_and_cells(void)
{
	const unsigned int SL = PFSEL_SEC_SLABS, C = PFSEL_SEC_CELLS;
	const uint32_t n_addrs = sec_count(PFSEL_SEC_ADDRS);
	const uint32_t n_rows = sec_count(PFSEL_SEC_ROWS);
	const uint32_t n_slabs = sec_count(SL), last_cell = sec_count(C) - 1;
	const size_t cell = find_slice(C, 16, 8);
	const uint32_t first = first_of(C, cell, 16, 8);

	set_field(SL, 0, 8, 0, n_addrs, 0, "start-out-of-range");
	set_field(SL, n_slabs - 1, 8, 0, 0xffffffff, 0, "start-ones");
	set_field(SL, 0, 8, 4, n_rows, 0, "row-out-of-range");
	set_field(SL, n_slabs - 1, 8, 4, PFSEL_NONE - 1, 0, "row-none-1");
	/* Inside a cell: the first slab starts at 0, starts increase. */
	set_field(SL, first, 8, 0, 1, 0, "first-start-1");
	set_field(SL, first + 1, 8, 0, 0, 0, "second-start-0");
	swapped(SL, first, first + 1, 8, 0, 4, "starts-swapped");

	for (uint32_t i = 0; i <= last_cell; i += last_cell) {
		set_byte(C, i, 16, 0, PFSEL_OP_COUNT, "op-5");
		set_byte(C, i, 16, 0, 0xff, "op-ff");
		set_byte(C, i, 16, 1, PFSEL_PROTO_COUNT, "proto-5");
		set_byte(C, i, 16, 1, 0xff, "proto-ff");
		set_byte(C, i, 16, 2, 1, "reserved-low");
		set_byte(C, i, 16, 3, 0x80, "reserved-high");
		set_field(C, i, 16, 4, n_rows, 0, "wild-row-out-of-range");
		set_field(C, i, 16, 4, PFSEL_NONE - 1, 0, "wild-row-none-1");
		if (!last_cell)
			break;
	}
	set_field(C, cell, 16, 8, first + 1, 0, "slab-first+1");
	set_field(C, cell, 16, 8, 0xffffffff, 0, "slab-first-ones");
	set_field(C, cell, 16, 12, first_of(C, cell, 16, 12) + 1, 0,
		  "slab-count+1");
	set_field(C, cell, 16, 12, first_of(C, cell, 16, 12) - 1, 0,
		  "slab-count-1");
	set_field(C, cell, 16, 12, n_slabs + 1, 0, "slab-count-past-end");
	set_field(C, cell, 16, 12, 0xffffffff, 0, "slab-count-ones");
	emptied(C);
}

static void groups_and_lists(void)
{
	const unsigned int G = PFSEL_SEC_GROUPS, GL = PFSEL_SEC_GROUPLIST;
	const unsigned int AP = PFSEL_SEC_APPS, C = PFSEL_SEC_CELLS;
	const uint32_t n_groups = sec_count(G), n_gl = sec_count(GL);
	const uint32_t last_group = n_groups - 1, last_app = sec_count(AP) - 1;
	const size_t group = find_slice(G, 8, 0);
	const size_t app = find_slice(AP, 8, 0);
	const uint32_t cell = first_of(G, group, 8, 0);
	const uint32_t gl = first_of(AP, app, 8, 0);

	set_field(G, 0, 8, 0, 1, 0, "first-1");
	set_field(G, group, 8, 4, first_of(G, group, 8, 4) + 1, 0, "count+1");
	set_field(G, last_group, 8, 4, first_of(G, last_group, 8, 4) - 1, 0,
		  "count-1-gap-at-end");
	set_field(G, last_group, 8, 4, first_of(G, last_group, 8, 4) + 1, 0,
		  "count+1-past-end");
	set_field(G, group, 8, 4, 0xffffffff, 0, "count-ones");
	set_field(G, group, 8, 0, 0xffffffff, 0, "first-ones");
	/* Inside a group, (op, proto) strictly increase. */
	swapped(C, cell, cell + 1, 16, 0, 2, "op-proto-swapped");
	equalled(C, cell, cell + 1, 16, 0, 2, "op-proto-equal");

	set_field(GL, 0, 4, 0, n_groups, 0, "out-of-range");
	set_field(GL, n_gl - 1, 4, 0, 0xffffffff, 0, "ones");
	/* Inside an application, group indexes strictly increase. */
	swapped(GL, gl, gl + 1, 4, 0, 4, "swapped");
	equalled(GL, gl, gl + 1, 4, 0, 4, "equal");

	set_field(AP, 0, 8, 0, 1, 0, "first-1");
	set_field(AP, app, 8, 4, first_of(AP, app, 8, 4) + 1, 0, "count+1");
	set_field(AP, last_app, 8, 4, first_of(AP, last_app, 8, 4) - 1, 0,
		  "count-1-gap-at-end");
	set_field(AP, last_app, 8, 4, first_of(AP, last_app, 8, 4) + 1, 0,
		  "count+1-past-end");
	set_field(AP, app, 8, 4, 0xffffffff, 0, "count-ones");
	set_field(AP, app, 8, 0, 0xffffffff, 0, "first-ones");
	emptied(G);
	emptied(GL);
	emptied(AP);
}

static void pairs_and_exes(void)
{
	const unsigned int P = PFSEL_SEC_PAIRS, E = PFSEL_SEC_EXES;
	const uint32_t n_scripts =
		get32(field(base.p, PFSEL_SEC_SETTINGS, 0, 32, 16));
	const uint32_t n_apps = sec_count(PFSEL_SEC_APPS);
	const uint32_t n_pairs = sec_count(P), last_exe = sec_count(E) - 1;
	const size_t exe = find_slice(E, 16, 4);
	const uint32_t pair = first_of(E, exe, 16, 4);

	set_field(P, 0, 8, 0, n_scripts, 0, "script-class-out-of-range");
	set_field(P, n_pairs - 1, 8, 0, 0xffffffff, 0, "script-class-ones");
	set_field(P, 0, 8, 4, n_apps, 0, "app-out-of-range");
	set_field(P, n_pairs - 1, 8, 4, 0xffffffff, 0, "app-ones");
	/* Inside an exe class, script classes strictly increase. */
	swapped(P, pair, pair + 1, 8, 0, 4, "script-classes-swapped");
	equalled(P, pair, pair + 1, 8, 0, 4, "script-classes-equal");

	for (uint32_t i = 0; i <= last_exe; i += last_exe) {
		set_field(E, i, 16, 0, n_apps, 0, "app-out-of-range");
		set_field(E, i, 16, 0, 0xffffffff, 0, "app-ones");
		set_field(E, i, 16, 12, 1, 0, "reserved-1");
		set_field(E, i, 16, 12, 0x80000000, 0, "reserved-high");
		if (!last_exe)
			break;
	}
	set_field(E, exe, 16, 4, pair + 1, 0, "pair-first+1");
	set_field(E, exe, 16, 4, 0xffffffff, 0, "pair-first-ones");
	set_field(E, exe, 16, 8, first_of(E, exe, 16, 8) + 1, 0,
		  "pair-count+1");
	set_field(E, exe, 16, 8, first_of(E, exe, 16, 8) - 1, 0,
		  "pair-count-1");
	set_field(E, exe, 16, 8, n_pairs + 1, 0, "pair-count-past-end");
	set_field(E, exe, 16, 8, 0xffffffff, 0, "pair-count-ones");
	emptied(P);
	emptied(E);
}

/* The first entry of path table @id with flag @flag, or without it. */
static size_t find_path(unsigned int id, uint32_t flag, bool with)
{
	for (size_t i = 0; i < sec_count(id); i++)
		if (!!(get32(field(base.p, id, i, 24, 4)) & flag) == with)
			return i;
	die("the base has no %s entry %s flag %u", sname(id),
	    with ? "with" : "without", flag);
	return 0;
}

static void paths(unsigned int id, uint32_t n_classes)
{
	static const struct {
		uint32_t flag;
		size_t off;
		const char *name;
	} kinds[] = {
		{ PFSEL_PATH_EXACT, 8, "exact" },
		{ PFSEL_PATH_CHILD, 12, "child" },
		{ PFSEL_PATH_TREE, 16, "tree" },
	};
	const uint32_t n = sec_count(id);
	const uint32_t n_strings = sec_count(PFSEL_SEC_STRINGS);
	char what[64];

	if (n < 2)
		die("the base needs two %s entries", sname(id));
	set_field(id, 0, 24, 0, n_strings, 0, "str-out-of-range");
	set_field(id, n - 1, 24, 0, 0xffffffff, 0, "str-ones");
	set_field(id, 0, 24, 4, 0, 0, "flags-0");
	set_field(id, 0, 24, 4, PFSEL_PATH_MASK + 1, 0, "flags-bit3");
	set_field(id, 0, 24, 4, 0xffffffff, 0, "flags-ones");
	set_field(id, n - 1, 24, 20, 1, 0, "reserved-1");
	set_field(id, 0, 24, 20, 0x80000000, 0, "reserved-high");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t with = find_path(id, kinds[k].flag, true);
		size_t without = find_path(id, kinds[k].flag, false);
		uint32_t flags = get32(field(base.p, id, with, 24, 4));

		snprintf(what, sizeof(what), "%s-out-of-range", kinds[k].name);
		set_field(id, with, 24, kinds[k].off, n_classes, 0, what);
		snprintf(what, sizeof(what), "%s-none-with-flag",
			 kinds[k].name);
		set_field(id, with, 24, kinds[k].off, PFSEL_NONE, 0, what);
		snprintf(what, sizeof(what), "%s-class-without-flag",
			 kinds[k].name);
		set_field(id, without, 24, kinds[k].off, 0, 0, what);
		/* The flag dropped, its class left behind. */
		snprintf(what, sizeof(what), "%s-flag-dropped", kinds[k].name);
		if (flags != kinds[k].flag)
			set_field(id, with, 24, 4, flags & ~kinds[k].flag, 0,
				  what);
	}
	/* Sorted strictly by string. */
	swapped(id, 0, 1, 24, 0, 24, "unsorted");
	swapped(id, n - 2, n - 1, 24, 0, 24, "unsorted");
	equalled(id, 0, 1, 24, 0, 4, "same-string");
	equalled(id, n - 2, n - 1, 24, 0, 24, "duplicate");
}

static void protected_apps(void)
{
	const unsigned int P = PFSEL_SEC_PROTECTED;
	const uint32_t n = sec_count(P), n_apps = sec_count(PFSEL_SEC_APPS);

	if (n < 2)
		die("the base needs two protected application classes");
	set_field(P, 0, 4, 0, n_apps, 0, "app-out-of-range");
	set_field(P, n - 1, 4, 0, 0xffffffff, 0, "app-ones");
	/* Strictly increasing. */
	swapped(P, 0, 1, 4, 0, 4, "unsorted");
	equalled(P, 0, 1, 4, 0, 4, "duplicate");
}

/* ---- host names (format version 3) ---- */

/* Offset of section @id in @b, which may be laid out unlike the base. */
static uint32_t blob_off(const struct blob *b, unsigned int id)
{
	return get32(ent(b->p, id) + 8);
}

/*
 * A valid blob (taking it over), made to show that the invalid one beside
 * it fails for the reason meant: the reader must accept it.  Not kept.
 */
static void must_accept(struct blob b, const char *fmt, ...)
{
	struct pfsel_policydb *db = NULL;
	char name[128];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	fix_checksum(&b);
	err = pfsel_policydb_load(b.p, b.len, &db);
	if (err) {
		fprintf(stderr,
			"mkbadblobs: %s%s: rejected (%d), but it is valid\n",
			name_prefix, name, err);
		n_failed++;
	} else {
		pfsel_policydb_free(db);
	}
	n_controls++;
	free(b.p);
}

/* The NAME_CELLS entry with the longest slice. */
static size_t longest_name_cell(void)
{
	const unsigned int NC = PFSEL_SEC_NAME_CELLS;
	size_t best = 0;

	for (size_t i = 1; i < sec_count(NC); i++)
		if (first_of(NC, i, RANGE_SIZE, 4) >
		    first_of(NC, best, RANGE_SIZE, 4))
			best = i;
	if (first_of(NC, best, RANGE_SIZE, 4) < 4 ||
	    !first_of(NC, best, RANGE_SIZE, 0))
		die("the base needs a cell with four name slabs, not the first");
	return best;
}

/*
 * The base without host names, as pfwc writes a policy without them
 * (FORMAT.md, "Host names"): NAME_SLABS and NAME_PATTERNS empty, every
 * NAME_CELLS slice empty, @n_names name classes.
 */
static struct blob without_names(uint32_t n_names)
{
	const unsigned int NC = PFSEL_SEC_NAME_CELLS;
	const struct blob with = base;
	uint8_t *empty_slices = xmalloc(sec_size(NC));
	struct blob b;

	b = rebuild(PFSEL_SEC_NAME_PATTERNS, "", 0, 0);
	base = b;
	b = rebuild(NC, empty_slices, sec_size(NC), sec_count(NC));
	free(base.p);
	base = b;
	b = rebuild(PFSEL_SEC_NAME_SLABS, "", 0, 0);
	free(base.p);
	base = with;
	free(empty_slices);
	set32(b.p + blob_off(&b, PFSEL_SEC_SETTINGS) + SETTINGS_NAME_CLASSES,
	      n_names);
	return b;
}

static void name_slabs_and_cells(void)
{
	const unsigned int SL = PFSEL_SEC_NAME_SLABS, NC = PFSEL_SEC_NAME_CELLS;
	const uint32_t n_names = name_classes();
	const uint32_t n_rows = sec_count(PFSEL_SEC_ROWS);
	const uint32_t n_slabs = sec_count(SL), n_cells = sec_count(NC);
	const size_t cell = longest_name_cell();
	const uint32_t first = first_of(NC, cell, RANGE_SIZE, 0);
	const uint32_t len = first_of(NC, cell, RANGE_SIZE, 4);
	const uint32_t last = first + len - 1;
	size_t empty = n_cells, last_full = n_cells, n_full = 0;
	uint8_t extra[RANGE_SIZE];

	if (n_cells != sec_count(PFSEL_SEC_CELLS))
		die("the base has %u name cells for %u cells", n_cells,
		    sec_count(PFSEL_SEC_CELLS));
	/*
	 * No class at all, where nothing else refers to one: only the rule
	 * "n_name_classes >= 1" rejects it.
	 */
	must_accept(without_names(1), "no-names");
	emit(without_names(0), FIX, EINVAL, "no-names-name-classes-0");
	/* A slab's fields: start < n_name_classes, row < row count or NONE. */
	set_field(SL, last, SLAB_SIZE, 0, n_names, 0, "start-out-of-range");
	set_field(SL, last, SLAB_SIZE, 0, 0xffffffff, 0, "start-ones");
	set_field(SL, first + 1, SLAB_SIZE, 4, n_rows, 0, "row-out-of-range");
	set_field(SL, last, SLAB_SIZE, 4, PFSEL_NONE - 1, 0, "row-none-1");
	set_field(SL, first + 1, SLAB_SIZE, 4, PFSEL_NONE, MAYBE, "row-none");
	set_field(SL, last, SLAB_SIZE, 4, n_rows - 1, MAYBE, "row-last");
	/* Inside a slice, starts strictly increase. */
	equalled(SL, first + 1, first + 2, SLAB_SIZE, 0, 4, "starts-equal");
	swapped(SL, first + 1, first + 2, SLAB_SIZE, 0, 4, "starts-swapped");
	equalled(SL, last - 1, last, SLAB_SIZE, 0, 4, "starts-equal");
	swapped(SL, last - 1, last, SLAB_SIZE, 0, SLAB_SIZE, "swapped");
	/*
	 * Every non-empty slice starts at name class 0, whose row is NONE:
	 * a name no pattern matches matches no host element.
	 */
	for (size_t i = 0; i < n_cells; i++) {
		const uint32_t f = first_of(NC, i, RANGE_SIZE, 0);
		const uint32_t count = first_of(NC, i, RANGE_SIZE, 4);

		if (!count) {
			/* An empty slice whose first is not 0 (or its end). */
			if (empty == n_cells && f && f < n_slabs)
				empty = i;
			continue;
		}
		if (count < 2)
			die("name cell %zu has a slice of one slab", i);
		last_full = i;
		n_full++;
		set_field(SL, f, SLAB_SIZE, 0, 1, 0, "first-start-1");
		set_field(SL, f, SLAB_SIZE, 0, n_names - 1, 0,
			  "first-start-last-class");
		set_field(SL, f, SLAB_SIZE, 4, 0, 0, "class-0-row-0");
		set_field(SL, f, SLAB_SIZE, 4, n_rows - 1, 0,
			  "class-0-row-last");
		set_field(SL, f + 1, SLAB_SIZE, 0, 0, 0, "second-start-0");
		swapped(SL, f, f + 1, SLAB_SIZE, 0, 4, "starts-swapped");
		swapped(SL, f, f + 1, SLAB_SIZE, 0, SLAB_SIZE, "swapped");
	}
	if (n_full < 2 || empty == n_cells)
		die("the base needs two cells with name slabs and an empty one after them");
	emptied(SL);

	/* Exactly one slice per cell: one more (empty, at the end), one less. */
	set32(extra, n_slabs);
	set32(extra + 4, 0);
	emit(append_to(NC, extra, RANGE_SIZE, 1), FIX, EINVAL,
	     "name_cells-one-more");
	if (first_of(NC, n_cells - 1, RANGE_SIZE, 4))
		die("the base's last cell must have no name slabs");
	emit(rebuild(NC, base.p + sec_off(NC), sec_size(NC) - RANGE_SIZE,
		     n_cells - 1),
	     FIX, EINVAL, "name_cells-one-less");
	emptied(NC);
	/* The slices tile NAME_SLABS: no gap, no overlap, nothing past it. */
	set_field(NC, cell, RANGE_SIZE, 0, first + 1, 0, "first+1");
	set_field(NC, cell, RANGE_SIZE, 0, first - 1, 0, "first-1");
	set_field(NC, cell, RANGE_SIZE, 0, 0xffffffff, 0, "first-ones");
	set_field(NC, cell, RANGE_SIZE, 4, len + 1, 0, "count+1");
	set_field(NC, cell, RANGE_SIZE, 4, len - 1, 0, "count-1");
	set_field(NC, cell, RANGE_SIZE, 4, 0, 0, "count-0");
	set_field(NC, cell, RANGE_SIZE, 4, n_slabs + 1, 0, "count-past-end");
	set_field(NC, cell, RANGE_SIZE, 4, 0xffffffff, 0, "count-ones");
	set_field(NC, last_full, RANGE_SIZE, 4,
		  first_of(NC, last_full, RANGE_SIZE, 4) - 1, 0,
		  "count-1-gap-at-end");
	set_field(NC, last_full, RANGE_SIZE, 4,
		  first_of(NC, last_full, RANGE_SIZE, 4) + 1, 0,
		  "count+1-past-end");
	/* An empty slice's first is where the previous one ended. */
	set_field(NC, empty, RANGE_SIZE, 0, 0, 0, "empty-first-0");
	set_field(NC, empty, RANGE_SIZE, 0,
		  first_of(NC, empty, RANGE_SIZE, 0) + 1, 0, "empty-first+1");
	set_field(NC, empty, RANGE_SIZE, 0, 0xffffffff, 0, "empty-first-ones");
	set_field(NC, empty, RANGE_SIZE, 4, 1, 0, "empty-count-1");
	swapped(NC, cell - 1, cell, RANGE_SIZE, 0, RANGE_SIZE, "swapped");
}

/* The first NAME_PATTERNS entry whose flags are exactly @flags. */
static size_t find_name(uint32_t flags)
{
	const unsigned int NP = PFSEL_SEC_NAME_PATTERNS;

	for (size_t i = 0; i < sec_count(NP); i++)
		if (get32(field(base.p, NP, i, NAME_SIZE, 4)) == flags)
			return i;
	die("the base has no name pattern with flags %u", flags);
	return 0;
}

/* String @idx of the base's STRINGS. */
static const uint8_t *base_string(uint32_t idx, uint32_t *len)
{
	uint32_t pos = sec_off(PFSEL_SEC_STRINGS);

	for (uint32_t i = 0; i < idx; i++)
		pos += 4 + align_up(get32(base.p + pos), 4u);
	*len = get32(base.p + pos);
	return base.p + pos + 4;
}

/* Bytewise, a prefix first: the order of a path or name table. */
static int str_cmp(const uint8_t *a, uint32_t alen, const uint8_t *b,
		   uint32_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

/* The string of NAME_PATTERNS entry @i of the base. */
static const uint8_t *name_of(size_t i, uint32_t *len)
{
	return base_string(
		get32(field(base.p, PFSEL_SEC_NAME_PATTERNS, i, NAME_SIZE, 0)),
		len);
}

/*
 * The base with the string of one NAME_PATTERNS entry replaced by @name,
 * appended to STRINGS: the entry is one whose neighbours keep the table
 * strictly sorted with @name in its place, so that only @name itself can
 * be wrong.  *@entry is set to it.
 */
static struct blob with_name(const char *name, size_t *entry)
{
	const unsigned int NP = PFSEL_SEC_NAME_PATTERNS, S = PFSEL_SEC_STRINGS;
	const uint32_t n = sec_count(NP), len = strlen(name);
	const uint8_t *nb = (const uint8_t *)name;

	for (size_t i = 0; i < n; i++) {
		const uint8_t *other;
		uint32_t olen, esize;
		uint8_t *e;
		struct blob b;

		other = i ? name_of(i - 1, &olen) : NULL;
		if (other && str_cmp(other, olen, nb, len) >= 0)
			continue;
		other = i + 1 < n ? name_of(i + 1, &olen) : NULL;
		if (other && str_cmp(nb, len, other, olen) >= 0)
			continue;
		e = string_entry(len, len, 0, &esize);
		memcpy(e + 4, name, len);
		b = append_to(S, e, esize, 1);
		free(e);
		set32(b.p + blob_off(&b, NP) + i * NAME_SIZE, sec_count(S));
		*entry = i;
		return b;
	}
	die("no name pattern can take \"%s\" and stay in order", name);
	return base;
}

/* "zz.aaa...": @total characters, labels of at most @label. */
static char *long_name(size_t total, size_t label)
{
	char *name = xmalloc(total + 1);
	size_t len = 2;

	memcpy(name, "zz", 2);
	while (len < total) {
		size_t n = total - len - 1 < label ? total - len - 1 : label;

		name[len++] = '.';
		memset(name + len, 'a', n);
		len += n;
	}
	return name;
}

/*
 * Each name string that is not a host name in normal form, and beside it
 * (when there is one) the nearest that is, which the reader must accept.
 */
static void name_strings(void)
{
	static const struct {
		const char *bad, *good, *what;
	} cases[] = {
		{ "zz.Example", "zz.example", "upper-case" },
		{ "ZZ.example", "zz.example", "upper-case-first" },
		{ "", NULL, "empty" },
		{ ".", NULL, "dot" },
		{ "zz..example", "zz.x.example", "empty-label" },
		{ ".zz.example", "zz.example", "leading-dot" },
		{ "zz.example.", "zz.example", "final-dot" },
		{ "-zz.example", "z-z.example", "dash-first" },
		{ "zz-.example", "z-z.example", "dash-ending-label" },
		{ "zz.-example", "zz.e-xample", "dash-starting-label" },
		{ "zz.example-", "zz.exampl-e", "dash-last" },
		{ "zz.exa mple", "zz.exa_mple", "space" },
		{ "zz.exa\tmple", "zz.exa_mple", "tab" },
		{ "*.zz.example", "zz.example", "star" },
		{ "zz.\xc3\xa9.example", "zz.xn--9ca.example", "non-ascii" },
		{ "zz.example:80", "zz.example", "colon" },
		{ "zz/example", "zz.example", "slash" },
		{ "zz.ex@mple", "zz.example", "at" },
	};
	static const struct {
		size_t total, label;
		bool ok;
		const char *what;
	} lengths[] = {
		{ 2 + 1 + 64, 64, false, "label-64" },
		{ 2 + 1 + 63, 63, true, "label-63" },
		{ PFSEL_HOST_NAME_MAX + 1, 63, false, "name-254" },
		{ PFSEL_HOST_NAME_MAX, 63, true, "name-253" },
		{ PFSEL_HOST_NAME_MAX + 2, 63, false, "name-255" },
		{ 1024, 63, false, "name-1024" },
	};
	size_t i;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct blob b = with_name(cases[k].bad, &i);

		emit(b, FIX, EINVAL, "name_patterns-%zu-name-%s", i,
		     cases[k].what);
		if (cases[k].good) {
			b = with_name(cases[k].good, &i);
			must_accept(b, "name_patterns-%zu-name-%s-control", i,
				    cases[k].what);
		}
	}
	for (size_t k = 0; k < sizeof(lengths) / sizeof(lengths[0]); k++) {
		char *name = long_name(lengths[k].total, lengths[k].label);
		struct blob b = with_name(name, &i);

		if (strlen(name) != lengths[k].total)
			die("%s: a name of %zu", lengths[k].what, strlen(name));
		if (lengths[k].ok)
			must_accept(b, "name_patterns-%zu-name-%s", i,
				    lengths[k].what);
		else
			emit(b, FIX, EINVAL, "name_patterns-%zu-name-%s", i,
			     lengths[k].what);
		free(name);
	}
}

static void name_patterns(void)
{
	static const struct {
		uint32_t flag;
		size_t off;
		const char *name;
	} kinds[] = {
		{ PFSEL_NAME_EXACT, 8, "exact" },
		{ PFSEL_NAME_TREE, 16, "tree" },
	};
	const unsigned int NP = PFSEL_SEC_NAME_PATTERNS;
	const uint32_t n = sec_count(NP), n_names = name_classes();
	const uint32_t n_strings = sec_count(PFSEL_SEC_STRINGS);
	const size_t exact = find_name(PFSEL_NAME_EXACT);
	const size_t tree = find_name(PFSEL_NAME_TREE);
	const size_t both = find_name(PFSEL_NAME_EXACT | PFSEL_NAME_TREE);
	char what[64];
	struct blob b;

	if (n < 3)
		die("the base needs three name patterns");
	set_field(NP, 0, NAME_SIZE, 0, n_strings, 0, "str-out-of-range");
	set_field(NP, n - 1, NAME_SIZE, 0, 0xffffffff, 0, "str-ones");
	/* Flags: EXACT and TREE, at least one; a name has no CHILD. */
	set_field(NP, exact, NAME_SIZE, 4, 0, 0, "flags-0");
	set_field(NP, tree, NAME_SIZE, 4, PFSEL_PATH_CHILD, 0, "flags-child");
	set_field(NP, exact, NAME_SIZE, 4, PFSEL_NAME_EXACT | PFSEL_PATH_CHILD,
		  0, "flags-exact-child");
	set_field(NP, both, NAME_SIZE, 4, PFSEL_PATH_MASK, 0,
		  "flags-every-path-flag");
	set_field(NP, tree, NAME_SIZE, 4, PFSEL_PATH_MASK + 1, 0, "flags-bit3");
	set_field(NP, exact, NAME_SIZE, 4, 0x80000000, 0, "flags-high");
	set_field(NP, both, NAME_SIZE, 4, 0xffffffff, 0, "flags-ones");
	/* CHILD with a class, as a path table may have it. */
	b = copy_base();
	set32(field(b.p, NP, exact, NAME_SIZE, 4),
	      PFSEL_NAME_EXACT | PFSEL_PATH_CHILD);
	set32(field(b.p, NP, exact, NAME_SIZE, 12), 0);
	emit(b, FIX, EINVAL, "name_patterns-%zu-child-flag-and-class", exact);
	/* child is always NONE. */
	set_field(NP, exact, NAME_SIZE, 12, 0, 0, "child-0");
	set_field(NP, tree, NAME_SIZE, 12, 1, 0, "child-1");
	set_field(NP, both, NAME_SIZE, 12, n_names - 1, 0, "child-last-class");
	set_field(NP, both, NAME_SIZE, 12, n_names, 0, "child-out-of-range");
	/* exact and tree: a class when the flag is set, NONE when not. */
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const size_t with = kinds[k].flag == PFSEL_NAME_EXACT ? exact :
									tree;
		const size_t without =
			kinds[k].flag == PFSEL_NAME_EXACT ? tree : exact;
		const size_t off = kinds[k].off;

		snprintf(what, sizeof(what), "%s-out-of-range", kinds[k].name);
		set_field(NP, with, NAME_SIZE, off, n_names, 0, what);
		snprintf(what, sizeof(what), "%s-ones-with-flag",
			 kinds[k].name);
		set_field(NP, with, NAME_SIZE, off, PFSEL_NONE - 1, 0, what);
		snprintf(what, sizeof(what), "%s-none-with-flag",
			 kinds[k].name);
		set_field(NP, with, NAME_SIZE, off, PFSEL_NONE, 0, what);
		snprintf(what, sizeof(what), "%s-last-class", kinds[k].name);
		set_field(NP, with, NAME_SIZE, off, n_names - 1, MAYBE, what);
		snprintf(what, sizeof(what), "%s-class-0", kinds[k].name);
		set_field(NP, with, NAME_SIZE, off, 0, MAYBE, what);
		snprintf(what, sizeof(what), "%s-class-without-flag",
			 kinds[k].name);
		set_field(NP, without, NAME_SIZE, off, 0, 0, what);
		/* The flag added, its class still NONE. */
		snprintf(what, sizeof(what), "%s-flag-added", kinds[k].name);
		set_field(NP, without, NAME_SIZE, 4,
			  PFSEL_NAME_EXACT | PFSEL_NAME_TREE, 0, what);
		/* The flag dropped, its class left behind. */
		snprintf(what, sizeof(what), "%s-flag-dropped", kinds[k].name);
		set_field(NP, both, NAME_SIZE, 4,
			  (PFSEL_NAME_EXACT | PFSEL_NAME_TREE) & ~kinds[k].flag,
			  0, what);
	}
	set_field(NP, 0, NAME_SIZE, 20, 1, 0, "reserved-1");
	set_field(NP, n - 1, NAME_SIZE, 20, 0x80000000, 0, "reserved-high");
	/* Sorted strictly by string. */
	swapped(NP, 0, 1, NAME_SIZE, 0, NAME_SIZE, "unsorted");
	swapped(NP, n - 2, n - 1, NAME_SIZE, 0, NAME_SIZE, "unsorted");
	swapped(NP, 0, n - 1, NAME_SIZE, 0, 4, "strings-swapped");
	equalled(NP, 0, 1, NAME_SIZE, 0, 4, "same-string");
	equalled(NP, n - 2, n - 1, NAME_SIZE, 0, NAME_SIZE, "duplicate");
	name_strings();
}

/* The resolvers: none in a user policy; in a system policy, in order. */
static void resolvers(void)
{
	const unsigned int R = PFSEL_SEC_RESOLVERS;
	const uint32_t n_apps = sec_count(PFSEL_SEC_APPS);
	const struct blob user = base;
	uint8_t res[3 * RESOLVER_SIZE];
	struct pfsel_policydb *db;
	struct blob sys, b;
	int err;

	if (sec_count(R))
		die("the base is a user policy: it has no resolvers");
	if (n_apps < 3)
		die("the base needs three application classes");
	set32(res, 0);
	set32(res + 4, 0);
	emit(append_to(R, res, RESOLVER_SIZE, 1), FIX, EINVAL,
	     "resolvers-in-user-policy");
	set32(res + 4, PFSEL_RESOLVER_ANY_USER);
	emit(append_to(R, res, RESOLVER_SIZE, 1), FIX, EINVAL,
	     "resolvers-in-user-policy-any-user");

	/*
	 * The base made the system policy, with three resolvers: the rest
	 * breaks that one.  The last is the last application class, which
	 * the range check must allow.
	 */
	set32(res, 1);
	set32(res + 4, 0);
	set32(res + 8, 2);
	set32(res + 12, PFSEL_RESOLVER_ANY_USER);
	set32(res + 16, n_apps - 1);
	set32(res + 20, 0);
	sys = rebuild(R, res, sizeof(res), 3);
	set32(sys.p + H_FLAGS, PFSEL_POLICY_F_SYSTEM);
	set32(sys.p + H_UID, 0);
	fix_checksum(&sys);
	err = pfsel_policydb_load(sys.p, sys.len, &db);
	if (err)
		die("the base made the system policy is not valid (%d)", err);
	pfsel_policydb_free(db);
	base = sys;
	name_prefix = "system-";

	set_field(R, 0, RESOLVER_SIZE, 0, n_apps, 0, "app-out-of-range");
	set_field(R, 2, RESOLVER_SIZE, 0, n_apps, 0, "app-out-of-range");
	set_field(R, 2, RESOLVER_SIZE, 0, 0xffffffff, 0, "app-ones");
	set_field(R, 0, RESOLVER_SIZE, 0, 0, MAYBE, "app-0");
	/* Strictly increasing. */
	swapped(R, 0, 1, RESOLVER_SIZE, 0, RESOLVER_SIZE, "unsorted");
	swapped(R, 1, 2, RESOLVER_SIZE, 0, 4, "apps-swapped");
	equalled(R, 0, 1, RESOLVER_SIZE, 0, 4, "same-app");
	equalled(R, 1, 2, RESOLVER_SIZE, 0, RESOLVER_SIZE, "duplicate");
	/* Flags: ANY_USER only. */
	set_field(R, 0, RESOLVER_SIZE, 4, PFSEL_RESOLVER_MASK + 1, 0,
		  "flags-bit1");
	set_field(R, 1, RESOLVER_SIZE, 4,
		  PFSEL_RESOLVER_MASK | (PFSEL_RESOLVER_MASK + 1), 0,
		  "flags-any-user-bit1");
	set_field(R, 2, RESOLVER_SIZE, 4, 0x80000000, 0, "flags-high");
	set_field(R, 2, RESOLVER_SIZE, 4, 0xffffffff, 0, "flags-ones");
	set_field(R, 0, RESOLVER_SIZE, 4, PFSEL_RESOLVER_ANY_USER, MAYBE,
		  "flags-any-user");
	set_field(R, 1, RESOLVER_SIZE, 4, 0, MAYBE, "flags-0");
	/* Its resolvers, with the flag of a user policy and a uid again. */
	b = copy_base();
	set32(b.p + H_FLAGS, 0);
	set32(b.p + H_UID, get32(user.p + H_UID));
	emit(b, FIX, EINVAL, "resolvers-user-flag");
	/* The section's layout, now that it has entries. */
	truncate_to(sec_off(R) + RESOLVER_SIZE, "resolvers-middle");
	truncate_to(sec_end(R) - 1, "resolvers-end-1");
	table_field(R, 4, sec_count(R) - 1, "count-1");
	table_field(R, 4, sec_count(R) + 1, "count+1");
	table_field(R, 12, sec_size(R) - RESOLVER_SIZE, "size-8");
	table_field(R, 12, sec_size(R) - 1, "size-1");
	table_field(R, 12, sec_size(R) + RESOLVER_SIZE, "size+8");
	b = copy_base();
	b.p[sec_off(R)] ^= 1;
	emit(b, RAW, EBADMSG, "checksum-resolvers-changed");

	name_prefix = "";
	base = user;
	free(sys.p);
}

static void padding(void)
{
	bool found = false;

	for (unsigned int id = PFSEL_SEC_FIRST; id <= PFSEL_SEC_LAST; id++) {
		uint32_t end = sec_end(id);
		uint32_t next = id < PFSEL_SEC_LAST ? sec_off(id + 1) :
						      base.len;
		struct blob b;

		if (end == next)
			continue;
		found = true;
		b = copy_base();
		b.p[end] = 1;
		emit(b, FIX, EINVAL, "padding-after-%s-first", sname(id));
		b = copy_base();
		b.p[next - 1] = 0x80;
		emit(b, FIX, EINVAL, "padding-after-%s-last", sname(id));
		b = copy_base();
		b.p[end] = 1;
		emit(b, RAW, EBADMSG, "padding-after-%s-stale", sname(id));
	}
	if (!found)
		die("the base has no padding between sections");
}

static void read_base(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct pfsel_policydb *db;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read %s", path);
	base.len = len;
	base.p = xmalloc(base.len);
	if (fread(base.p, 1, base.len, f) != base.len)
		die("cannot read %s", path);
	fclose(f);
	if (pfsel_policydb_load(base.p, base.len, &db))
		die("%s: not a valid policy", path);
	pfsel_policydb_free(db);
	/* RESOLVERS is empty in a user policy; resolvers() fills it. */
	for (unsigned int id = PFSEL_SEC_FIRST; id < PFSEL_SEC_RESOLVERS; id++)
		if (!sec_count(id))
			die("%s: section %s is empty; every one must have entries",
			    path, sname(id));
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc != 3) {
		fprintf(stderr, "usage: mkbadblobs BASE.pfsel OUTDIR\n");
		return 2;
	}
	outdir = argv[2];
	read_base(argv[1]);
	if (mkdir(outdir, 0755) && errno != EEXIST)
		die("cannot create %s", outdir);
	write_file("valid.pfsel", base.p, base.len);
	snprintf(path, sizeof(path), "%s/MANIFEST", outdir);
	manifest = fopen(path, "w");
	if (!manifest)
		die("cannot write %s", path);

	truncations();
	extend_by(1, 0);
	extend_by(8, 0);
	extend_by(8, 0xff);
	extend_by(4096, 0);
	header();
	checksum();
	section_table();
	settings();
	strings();
	rules();
	ports();
	addrs();
	runs_and_rows();
	slabs_and_cells();
	groups_and_lists();
	pairs_and_exes();
	paths(PFSEL_SEC_EXE_PATHS, sec_count(PFSEL_SEC_EXES));
	paths(PFSEL_SEC_SCRIPT_PATHS,
	      get32(field(base.p, PFSEL_SEC_SETTINGS, 0, 32, 16)));
	protected_apps();
	name_slabs_and_cells();
	name_patterns();
	resolvers();
	padding();

	if (fclose(manifest))
		die("cannot write %s", path);
	printf("mkbadblobs: %zu blobs in %s (%zu duplicates and %zu valid mutations dropped, %zu valid controls checked)\n",
	       n_kept, outdir, n_dropped_dup, n_dropped_valid, n_controls);
	for (size_t i = 0; i < n_kept; i++)
		free(kept[i].p);
	free(kept);
	free(base.p);
	if (n_failed) {
		fprintf(stderr, "mkbadblobs: %zu mutations went wrong\n",
			n_failed);
		return 1;
	}
	return 0;
}
