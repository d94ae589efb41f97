// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libpfsel - pfsel's securityfs files (docs/kernel-interface.md).
 *
 * Each call opens the file it needs, reads or writes it whole, and closes
 * it (but pfsel_load_open(), whose caller loads through the descriptor
 * later).  Writes go in one write() at offset 0, as the kernel requires;
 * reads loop until end of file, as seq_file hands out a page at a time.
 * The parsers are strict about the documented forms: a line that does not
 * parse is -EBADMSG with its number in the message, so that a kernel and
 * a library that disagree say so instead of guessing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Set by pfsel_set_securityfs(); NULL: the environment or the default. */
static char *root_override;

/* Largest securityfs text file we read: "hooks", "policies" for many uids. */
#define SFS_TEXT_MAX (16u << 20)

PFSEL_EXPORT int pfsel_set_securityfs(const char *const path)
{
	char *copy = NULL;

	if (path) {
		if (strlen(path) >= PATH_MAX)
			return pfsel_fail(
				-ENAMETOOLONG,
				"pfsel_set_securityfs: path too long");
		copy = strdup(path);
		if (!copy)
			return pfsel_fail(-ENOMEM, "strdup: %s",
					  strerror(ENOMEM));
	}
	free(root_override);
	root_override = copy;
	return 0;
}

PFSEL_EXPORT const char *pfsel_securityfs(void)
{
	const char *env;

	if (root_override)
		return root_override;
	env = getenv(PFSEL_SECURITYFS_ENV);
	if (env && *env)
		return env;
	return PFSEL_SECURITYFS_DEFAULT;
}

static int sfs_path(const char *const name, char *const path, const size_t size)
{
	int n = snprintf(path, size, "%s/%s", pfsel_securityfs(), name);

	if (n < 0 || (size_t)n >= size)
		return pfsel_fail(-ENAMETOOLONG, "%s/%s: path too long",
				  pfsel_securityfs(), name);
	return 0;
}

/* Opens securityfs file @name (into @path, PATH_MAX bytes): fd or <0. */
static int sfs_open(const char *const name, const int flags, char *const path)
{
	int fd, err = sfs_path(name, path, PATH_MAX);

	if (err)
		return err;
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		return pfsel_fail(-errno, "open(%s): %s", path,
				  strerror(errno));
	return fd;
}

/* One write() of @buf whole, as the kernel takes it: 0 or pfsel_fail(). */
static int write_whole(const int fd, const void *const buf, const size_t len,
		       const char *const path)
{
	ssize_t n;

	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return pfsel_fail(-errno, "write(%s): %s", path,
				  strerror(errno));
	if ((size_t)n != len)
		return pfsel_fail(-EIO, "write(%s): wrote %zd of %zu bytes",
				  path, n, len);
	return 0;
}

/*
 * @len bytes read from @path into @buf (one byte more allocated), as a C
 * string in @text; @buf is freed if it holds a NUL byte.
 */
static int take_text(char *const buf, const size_t len, const char *const path,
		     char **const text)
{
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return pfsel_fail(-EBADMSG, "%s: a NUL byte in the text", path);
	}
	*text = buf;
	return 0;
}

int pfsel_sfs_read(const char *const name, char **const text)
{
	char path[PATH_MAX];
	size_t len = 0, cap = 4096;
	char *buf, *grown;
	ssize_t n;
	int fd, err;

	*text = NULL;
	fd = sfs_open(name, O_RDONLY, path);
	if (fd < 0)
		return fd;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	}
	for (;;) {
		if (cap - len < 2) {
			if (cap >= SFS_TEXT_MAX) {
				err = pfsel_fail(-EFBIG, "read(%s): %s", path,
						 strerror(EFBIG));
				goto fail;
			}
			grown = realloc(buf, cap * 2);
			if (!grown) {
				err = pfsel_fail(-ENOMEM, "realloc: %s",
						 strerror(ENOMEM));
				goto fail;
			}
			buf = grown;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = pfsel_fail(-errno, "read(%s): %s", path,
					 strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return take_text(buf, len, path, text);

fail:
	close(fd);
	free(buf);
	return err;
}

int pfsel_sfs_write(const char *const name, const void *const buf,
		    const size_t len)
{
	char path[PATH_MAX];
	int fd, err;

	fd = sfs_open(name, O_WRONLY, path);
	if (fd < 0)
		return fd;
	err = write_whole(fd, buf, len, path);
	if (close(fd) && !err)
		err = pfsel_fail(-errno, "close(%s): %s", path,
				 strerror(errno));
	return err;
}

int pfsel_sfs_transact(const char *const name, const void *const request,
		       const size_t len, char **const answer)
{
	char path[PATH_MAX];
	size_t got = 0, cap = 4096;
	char *buf;
	ssize_t n;
	int fd, err;

	*answer = NULL;
	fd = sfs_open(name, O_RDWR, path);
	if (fd < 0)
		return fd;
	/* One write: the kernel takes the request whole. */
	err = write_whole(fd, request, len, path);
	if (err) {
		close(fd);
		return err;
	}
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	}
	/* The answer is read from offset 0 of the same open file. */
	while (got < cap - 1) {
		n = pread(fd, buf + got, cap - 1 - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = pfsel_fail(-errno, "read(%s): %s", path,
					 strerror(errno));
			close(fd);
			free(buf);
			return err;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return take_text(buf, got, path, answer);
}

/* What the kernel would refuse of any blob, said before it is written. */
static int check_blob(const char *const caller, const void *const blob,
		      const size_t size)
{
	if (!blob || size == 0)
		return pfsel_fail(-EINVAL, "%s: empty policy", caller);
	if (size > PFSEL_POLICY_MAX_SIZE)
		return pfsel_fail(-E2BIG, "%s: %zu bytes: %s", caller, size,
				  strerror(E2BIG));
	return 0;
}

PFSEL_EXPORT int pfsel_load_buffer(const void *const blob, const size_t size)
{
	int err = check_blob("pfsel_load_buffer", blob, size);

	if (!err)
		err = pfsel_sfs_write("load", blob, size);
	if (!err)
		pfsel_clear_error();
	return err;
}

PFSEL_EXPORT int pfsel_load_open(void)
{
	char path[PATH_MAX];
	int fd = sfs_open("load", O_WRONLY, path);

	if (fd >= 0)
		pfsel_clear_error();
	return fd;
}

PFSEL_EXPORT int pfsel_load_buffer_fd(const int fd, const void *const blob,
				      const size_t size)
{
	ssize_t n;
	int err = check_blob("pfsel_load_buffer_fd", blob, size);

	if (err)
		return err;
	/* At offset 0 whatever was written before: the descriptor is reused. */
	do
		n = pwrite(fd, blob, size, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return pfsel_fail(-errno, "write(load, descriptor %d): %s", fd,
				  strerror(errno));
	if ((size_t)n != size)
		return pfsel_fail(
			-EIO,
			"write(load, descriptor %d): wrote %zd of %zu bytes",
			fd, n, size);
	pfsel_clear_error();
	return 0;
}

PFSEL_EXPORT int pfsel_load_file(const char *const path)
{
	struct stat st;
	size_t len = 0;
	char *blob;
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pfsel_fail(-errno, "open(%s): %s", path,
				  strerror(errno));
	if (fstat(fd, &st)) {
		err = pfsel_fail(-errno, "fstat(%s): %s", path,
				 strerror(errno));
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0 ||
	    (uintmax_t)st.st_size > PFSEL_POLICY_MAX_SIZE) {
		err = !S_ISREG(st.st_mode) || st.st_size == 0 ? -EINVAL :
								-E2BIG;
		close(fd);
		return pfsel_fail(err, "%s: %s", path,
				  !S_ISREG(st.st_mode) ? "not a regular file" :
				  st.st_size == 0      ? "empty" :
							 strerror(E2BIG));
	}
	blob = malloc((size_t)st.st_size);
	if (!blob) {
		close(fd);
		return pfsel_fail(-ENOMEM, "malloc: %s", strerror(ENOMEM));
	}
	while (len < (size_t)st.st_size) {
		n = read(fd, blob + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? pfsel_fail(-errno, "read(%s): %s", path,
						 strerror(errno)) :
				      pfsel_fail(-EIO, "read(%s): file shrank",
						 path);
			free(blob);
			close(fd);
			return err;
		}
		len += (size_t)n;
	}
	close(fd);
	err = pfsel_load_buffer(blob, len);
	free(blob);
	return err;
}

static int write_word(const char *const name, const char *const word)
{
	int err = pfsel_sfs_write(name, word, strlen(word));

	if (!err)
		pfsel_clear_error();
	return err;
}

PFSEL_EXPORT int pfsel_unload_system(void)
{
	return write_word("unload", pfsel_policy_name(PFSEL_SLOT_SYSTEM));
}

PFSEL_EXPORT int pfsel_unload_uid(const uid_t uid)
{
	char word[16];

	snprintf(word, sizeof(word), "%u", (unsigned int)uid);
	return write_word("unload", word);
}

bool pfsel_parse_u64(const char *const s, const int base, const uint64_t max,
		     uint64_t *const out)
{
	const char *digits = s;
	unsigned long long v;
	char *end;

	if (base == 16) {
		if (strncmp(s, "0x", 2))
			return false;
		digits = s + 2;
	}
	if (!*digits ||
	    !(base == 16 ? strchr("0123456789abcdefABCDEF", *digits) != NULL :
			   (*digits >= '0' && *digits <= '9')))
		return false;
	errno = 0;
	v = strtoull(digits, &end, base);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_u32(const char *const s, uint32_t *const out)
{
	uint64_t v;

	if (!pfsel_parse_u64(s, 10, UINT32_MAX, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Splits @line at blanks into at most @max words; returns how many. */
static size_t split(char *line, char **const words, const size_t max)
{
	size_t n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		words[n++] = w;
	}
	return n;
}

char *pfsel_next_line(char **const cursor)
{
	char *line = *cursor, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}

int pfsel_malformed(const char *const name, const unsigned int lineno,
		    const char *const why)
{
	return pfsel_fail(-EBADMSG, "%s/%s line %u: %s", pfsel_securityfs(),
			  name, lineno, why);
}

/* "key=VALUE" word: the value if the key is @key, else NULL. */
static const char *keyed(const char *const word, const char *const key)
{
	size_t len = strlen(key);

	if (strncmp(word, key, len) || word[len] != '=')
		return NULL;
	return word + len + 1;
}

static int policy_item(char *const line, const unsigned int lineno,
		       void *const item)
{
	struct pfsel_policy_info *const p = item;
	static const char *const keys[] = { "generation", "size", "rules",
					    "sha256", "mode" };
	char *words[8];
	const char *v;
	uint64_t value;
	size_t n, i;
	int mode;

	n = split(line, words, 7);
	if (n != 6)
		return pfsel_malformed("policies", lineno, "expected 6 fields");
	memset(p, 0, sizeof(*p));
	if (!strcmp(words[0], pfsel_policy_name(PFSEL_SLOT_SYSTEM))) {
		p->system = true;
	} else if (!parse_u32(words[0], &p->uid)) {
		return pfsel_malformed("policies", lineno,
				 "expected 'system' or a uid");
	}
	for (i = 0; i < 5; i++) {
		v = keyed(words[i + 1], keys[i]);
		if (!v)
			return pfsel_malformed("policies", lineno,
					 "fields out of order");
		if (i == 3) {
			if (pfsel_digest_parse(v, p->digest))
				return pfsel_malformed("policies", lineno,
						       "bad sha256");
			continue;
		}
		if (i == 4) {
			mode = pfsel_mode_from_name(v);
			if (mode < 0)
				return pfsel_malformed("policies", lineno,
						       "bad mode");
			p->permissive = mode == PFSEL_MODE_PERMISSIVE;
			continue;
		}
		if (!pfsel_parse_u64(v, 10, UINT32_MAX, &value))
			return pfsel_malformed("policies", lineno, "bad number");
		switch (i) {
		case 0:
			p->generation = (uint32_t)value;
			break;
		case 1:
			p->size = (uint32_t)value;
			break;
		default:
			p->rules = (uint32_t)value;
			break;
		}
	}
	return 0;
}

/* Counts the lines of @text (a last line without '\n' counts). */
static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		if (*text == '\n' || text[1] == '\0')
			n++;
	return n;
}

/* Parses one line of a list file into @item; 0 or pfsel_malformed(). */
typedef int (*line_parser)(char *line, unsigned int lineno, void *item);

/*
 * Reads securityfs file @name, one item of @size bytes a line, into a
 * malloc()ed array: all of it, or (on any error) nothing.
 */
static int read_list(const char *const name, const size_t size,
		     const line_parser parse, void **const out,
		     size_t *const count)
{
	char *list = NULL, *text, *cursor, *line;
	unsigned int lineno = 0;
	size_t n = 0, max;
	int err;

	*out = NULL;
	*count = 0;
	err = pfsel_sfs_read(name, &text);
	if (err)
		return err;
	max = count_lines(text);
	if (max) {
		list = calloc(max, size);
		if (!list) {
			free(text);
			return pfsel_fail(-ENOMEM, "calloc: %s",
					  strerror(ENOMEM));
		}
	}
	cursor = text;
	while (!err && (line = pfsel_next_line(&cursor))) {
		lineno++;
		err = parse(line, lineno, list + n * size);
		n++;
	}
	free(text);
	if (err || !n) {
		free(list);
		return err;
	}
	*out = list;
	*count = n;
	pfsel_clear_error();
	return 0;
}

PFSEL_EXPORT int pfsel_policies(struct pfsel_policy_info **const out,
				size_t *const count)
{
	void *list;
	int err = read_list("policies", sizeof(**out), policy_item, &list,
			    count);

	*out = list;
	return err;
}

PFSEL_EXPORT int pfsel_get_policy_info(const bool system, const uid_t uid,
				       struct pfsel_policy_info *const info)
{
	struct pfsel_policy_info *list;
	size_t count, i;
	int err = pfsel_policies(&list, &count);

	memset(info, 0, sizeof(*info));
	if (err)
		return err;
	for (i = 0; i < count; i++) {
		if (list[i].system == system &&
		    (system || list[i].uid == (uint32_t)uid)) {
			*info = list[i];
			break;
		}
	}
	free(list);
	return i < count;
}

PFSEL_EXPORT int pfsel_get_status(struct pfsel_status *const status)
{
	enum { VERSION = 1, MODE = 2, SYSTEM = 4, USERS = 8, GENERATION = 16 };
	char *text, *cursor, *line, *value;
	unsigned int lineno = 0, seen = 0;
	uint64_t v = 0;
	int err, mode;

	memset(status, 0, sizeof(*status));
	err = pfsel_sfs_read("status", &text);
	if (err)
		return err;
	cursor = text;
	err = 0;
	while (!err && (line = pfsel_next_line(&cursor))) {
		lineno++;
		value = strstr(line, ": ");
		if (!value) {
			err = pfsel_malformed("status", lineno,
					"expected 'key: value'");
			break;
		}
		*value = '\0';
		value += 2;
		if (!strcmp(line, "version")) {
			if (!pfsel_parse_u64(value, 10, UINT_MAX, &v))
				err = pfsel_malformed("status", lineno,
						"bad version");
			status->version = (unsigned int)v;
			seen |= VERSION;
		} else if (!strcmp(line, "mode")) {
			mode = pfsel_mode_from_name(value);
			if (mode < 0)
				err = pfsel_malformed("status", lineno,
						      "bad mode");
			status->enforcing = mode == PFSEL_MODE_ENFORCING;
			seen |= MODE;
		} else if (!strcmp(line, "system")) {
			if (!strcmp(value, "loaded"))
				status->system_loaded = true;
			else if (strcmp(value, "none"))
				err = pfsel_malformed("status", lineno,
						"bad system state");
			seen |= SYSTEM;
		} else if (!strcmp(line, "users")) {
			if (!pfsel_parse_u64(value, 10, ULONG_MAX, &v))
				err = pfsel_malformed("status", lineno,
						"bad user count");
			status->users = (unsigned long)v;
			seen |= USERS;
		} else if (!strcmp(line, "generation")) {
			if (!pfsel_parse_u64(value, 10, UINT32_MAX, &v))
				err = pfsel_malformed("status", lineno,
						"bad generation");
			status->generation = (uint32_t)v;
			seen |= GENERATION;
		}
		/* Unknown keys come from a newer kernel: skipped. */
	}
	free(text);
	if (err)
		return err;
	if (seen != (VERSION | MODE | SYSTEM | USERS | GENERATION))
		return pfsel_malformed("status", lineno, "a line is missing");
	pfsel_clear_error();
	return 0;
}

/* Reads a file holding one unsigned number and a newline. */
static int read_number(const char *const name, const uint64_t max,
		       uint64_t *const out)
{
	char *text;
	size_t len;
	int err;

	err = pfsel_sfs_read(name, &text);
	if (err)
		return err;
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	if (!pfsel_parse_u64(text, 10, max, out))
		err = pfsel_malformed(name, 1, "expected a number");
	free(text);
	if (!err)
		pfsel_clear_error();
	return err;
}

/* Reads a file holding 0 or 1: that, or a negative errno. */
static int read_switch(const char *const name)
{
	uint64_t v;
	int err = read_number(name, 1, &v);

	return err ? err : (int)v;
}

PFSEL_EXPORT int pfsel_get_enforce(void)
{
	return read_switch("enforce");
}

PFSEL_EXPORT int pfsel_set_enforce(const bool enforcing)
{
	return write_word("enforce", enforcing ? "1" : "0");
}

PFSEL_EXPORT int pfsel_get_avc_stats(struct pfsel_avc_stats *const stats)
{
	static const char header[] =
		"lookups hits misses allocations reclaims frees";
	char *text, *cursor, *line, *words[7];
	uint64_t *fields[6] = { &stats->lookups,  &stats->hits,
				&stats->misses,	  &stats->allocations,
				&stats->reclaims, &stats->frees };
	size_t i;
	int err = 0;

	memset(stats, 0, sizeof(*stats));
	err = pfsel_sfs_read("avc/cache_stats", &text);
	if (err)
		return err;
	cursor = text;
	line = pfsel_next_line(&cursor);
	if (!line || strcmp(line, header)) {
		err = pfsel_malformed("avc/cache_stats", 1, "unexpected header");
		goto out;
	}
	line = pfsel_next_line(&cursor);
	if (!line || split(line, words, 6) != 6) {
		err = pfsel_malformed("avc/cache_stats", 2, "expected 6 numbers");
		goto out;
	}
	for (i = 0; i < 6; i++) {
		if (!pfsel_parse_u64(words[i], 10, UINT64_MAX, fields[i])) {
			err = pfsel_malformed("avc/cache_stats", 2, "bad number");
			goto out;
		}
	}
	if (pfsel_next_line(&cursor))
		err = pfsel_malformed("avc/cache_stats", 3, "unexpected line");
out:
	free(text);
	if (!err)
		pfsel_clear_error();
	return err;
}

PFSEL_EXPORT int pfsel_get_avc_threshold(unsigned int *const threshold)
{
	uint64_t v;
	int err = read_number("avc/cache_threshold", UINT_MAX, &v);

	if (!err)
		*threshold = (unsigned int)v;
	return err;
}

PFSEL_EXPORT int pfsel_set_avc_threshold(const unsigned int threshold)
{
	char word[16];

	if (threshold < PFSEL_AVC_THRESHOLD_MIN ||
	    threshold > PFSEL_AVC_THRESHOLD_MAX)
		return pfsel_fail(
			-EINVAL,
			"pfsel_set_avc_threshold: %u is not in %d..%d",
			threshold, PFSEL_AVC_THRESHOLD_MIN,
			PFSEL_AVC_THRESHOLD_MAX);
	snprintf(word, sizeof(word), "%u", threshold);
	return write_word("avc/cache_threshold", word);
}

static int hook_item(char *const line, const unsigned int lineno,
		     void *const item)
{
	struct pfsel_hook_stat *const h = item;
	char *words[4];

	if (split(line, words, 3) != 3)
		return pfsel_malformed("hooks", lineno, "expected 3 fields");
	if (strlen(words[0]) >= PFSEL_HOOK_NAME_MAX)
		return pfsel_malformed("hooks", lineno, "name too long");
	strcpy(h->name, words[0]);
	if (!pfsel_parse_u64(words[1], 10, UINT64_MAX, &h->calls) ||
	    !pfsel_parse_u64(words[2], 10, UINT64_MAX, &h->ns))
		return pfsel_malformed("hooks", lineno, "bad number");
	return 0;
}

PFSEL_EXPORT int pfsel_get_hook_stats(struct pfsel_hook_stat **const out,
				      size_t *const count)
{
	void *list;
	int err = read_list("hooks", sizeof(**out), hook_item, &list, count);

	*out = list;
	return err;
}

PFSEL_EXPORT int pfsel_get_hook_timing(void)
{
	return read_switch("hook_timing");
}

PFSEL_EXPORT int pfsel_set_hook_timing(const bool on)
{
	return write_word("hook_timing", on ? "1" : "0");
}

PFSEL_EXPORT int pfsel_forget_uid(const uid_t uid)
{
	char word[16];

	snprintf(word, sizeof(word), "%u", (unsigned int)uid);
	return write_word("forget", word);
}

/* Where each counter of "ask_stats" goes, by its column's name. */
static const struct {
	const char *name;
	size_t offset;
} ask_fields[] = {
#define ASK_FIELD(f) { #f, offsetof(struct pfsel_ask_stats, f) },
	PFSEL_ASK_STATS_FIELDS(ASK_FIELD)
#undef ASK_FIELD
};

_Static_assert(sizeof(ask_fields) / sizeof(ask_fields[0]) *
			       sizeof(uint64_t) ==
		       sizeof(struct pfsel_ask_stats),
	       "PFSEL_ASK_STATS_FIELDS names every field of pfsel_ask_stats");

#define ASK_FIELDS_COUNT (sizeof(ask_fields) / sizeof(ask_fields[0]))

/* Parses the two lines of "ask_stats" into @stats (zeroed first). */
static int parse_ask_stats(char *const text,
			   struct pfsel_ask_stats *const stats)
{
	char *cursor = text, *header, *values, *hsave = NULL, *vsave = NULL;
	char *name, *value;
	uint64_t seen = 0, v;
	size_t i;

	_Static_assert(ASK_FIELDS_COUNT <= 64, "seen is a 64-bit mask");
	memset(stats, 0, sizeof(*stats));
	header = pfsel_next_line(&cursor);
	values = pfsel_next_line(&cursor);
	if (!header || !values)
		return pfsel_malformed("ask_stats", header ? 2 : 1,
				 "expected a line of names and one of values");
	if (pfsel_next_line(&cursor))
		return pfsel_malformed("ask_stats", 3, "unexpected line");
	name = strtok_r(header, " \t", &hsave);
	value = strtok_r(values, " \t", &vsave);
	for (; name && value; name = strtok_r(NULL, " \t", &hsave),
			      value = strtok_r(NULL, " \t", &vsave)) {
		if (!pfsel_parse_u64(value, 10, UINT64_MAX, &v))
			return pfsel_malformed("ask_stats", 2, "bad number");
		for (i = 0; i < ASK_FIELDS_COUNT; i++)
			if (!strcmp(name, ask_fields[i].name))
				break;
		if (i == ASK_FIELDS_COUNT)
			continue; /* a newer kernel's counter */
		if (seen & (UINT64_C(1) << i))
			return pfsel_malformed("ask_stats", 1, "a counter twice");
		seen |= UINT64_C(1) << i;
		memcpy((char *)stats + ask_fields[i].offset, &v, sizeof(v));
	}
	if (name || value)
		return pfsel_malformed("ask_stats", 2,
				 "not as many values as names");
	for (i = 0; i < ASK_FIELDS_COUNT; i++)
		if (!(seen & (UINT64_C(1) << i)))
			return pfsel_fail(-EBADMSG,
					  "%s/ask_stats line 1: no '%s'",
					  pfsel_securityfs(),
					  ask_fields[i].name);
	return 0;
}

PFSEL_EXPORT int pfsel_get_ask_stats(struct pfsel_ask_stats *const stats)
{
	char *text;
	int err;

	memset(stats, 0, sizeof(*stats));
	err = pfsel_sfs_read("ask_stats", &text);
	if (err)
		return err;
	err = parse_ask_stats(text, stats);
	free(text);
	if (err)
		memset(stats, 0, sizeof(*stats));
	else
		pfsel_clear_error();
	return err;
}
