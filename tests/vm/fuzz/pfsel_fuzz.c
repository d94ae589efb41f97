// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_fuzz - hammer pfsel's own interfaces with random but structured
 * input, in the test VM, beside trinity (tests/vm/fuzz/in-vm).
 *
 *   pfsel_fuzz [-t SECONDS] [-n OPS] [-s SEED] [-q]
 *
 * Each operation is one of:
 *   load     a compiled test policy (build/vm-tests/policies) mutated --
 *            bits flipped, bytes and words set to edge values, cut short,
 *            lengthened -- its size and CRC32C mostly made right again,
 *            written to "load" in one write (sometimes at an offset, or in
 *            pieces);
 *   valid    the same policy unmodified, through libpfsel;
 *   unload, forget, mode   uids, garbage and edge numbers written to
 *            "unload", "forget", "enforce", "hook_timing",
 *            "avc/cache_threshold";
 *   read     the stats files, with odd sizes, offsets and seeks;
 *   check    the "check" transaction: random requests through libpfsel,
 *            mutated request text through a raw write;
 *   genl     the generic netlink family "pfsel": registering through
 *            libpfsel, and malformed messages (raw_genl.h): any command,
 *            flags, version, attributes, lengths, truncations, several
 *            messages in one datagram.
 *
 * As root it keeps away from the policies in force: a mutated or valid
 * load is retargeted to a scratch uid (2000-2007, never the system slot),
 * "unload" gets scratch uids and words that name no policy, "enforce" gets
 * "1" and words that are neither 0 nor 1, and registrations are for the
 * scratch uids only.  So at the end the policies loaded before it started
 * must be there still, the same loads (generation, digest), and pfsel
 * still enforcing: a difference is a violation.  As any other user every
 * change it tries must fail: a load, unload, forget, mode switch,
 * registration, a check of another uid's policy or a read of ask_stats
 * that succeeds is a violation.
 *
 * Last line: "pfsel_fuzz: uid U: N ops (...), V violations"; exit status
 * 0 when V is 0, 1 otherwise, 2 when it could not start.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <signal.h>
#include <sys/uio.h>

#include "../pfsel_test_util.h"
#include "../raw_genl.h"
#include "linux/crc32c.h"

#include <linux/pfsel_policy.h>

#define SCRATCH_UID 2000u
#define SCRATCH_UIDS 8u
#define MAX_BLOBS 64
#define MAX_BLOB_SIZE (1u << 20)

enum op {
	OP_LOAD,
	OP_VALID,
	OP_UNLOAD,
	OP_FORGET,
	OP_MODE,
	OP_READ,
	OP_CHECK,
	OP_GENL,
	OP_RAW,
	OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"load", "valid", "unload", "forget", "mode",
	"read", "check", "genl",   "raw",
};

static unsigned long long op_count[OP_COUNT];
static unsigned long long op_ok[OP_COUNT];
static unsigned long long violations;
static bool root;
static bool quiet;
static uid_t me;

static struct blob {
	char name[128];
	uint8_t *data;
	size_t len;
} blobs[MAX_BLOBS];
static size_t nblobs;

/* ---- randomness ------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd64(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* A number in [0, n). */
static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

static void rnd_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rnd64();
}

/* A value that parsers and bounds checks trip on. */
static uint32_t edge32(uint32_t len)
{
	static const uint32_t edges[] = {
		0,
		1,
		2,
		7,
		8,
		15,
		16,
		31,
		32,
		0x7f,
		0x80,
		0xff,
		0x100,
		0xffff,
		0x10000,
		0x7fffffff,
		0x80000000,
		0xfffffffe,
		0xffffffff,
		PFSEL_NONE - 1,
		PFSEL_POLICY_MAX_SIZE,
		PFSEL_POLICY_MAX_SIZE + 1,
	};
	const uint32_t nedges = sizeof(edges) / sizeof(edges[0]);
	const uint32_t pick = rnd(nedges + 6);

	if (pick < nedges)
		return edges[pick];
	switch (pick - nedges) {
	case 0:
		return len;
	case 1:
		return len + 8;
	case 2:
		return len - 8;
	case 3:
		return len / 2;
	case 4:
		return rnd(64);
	default:
		return (uint32_t)rnd64();
	}
}

/* ---- the policy blobs ------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define HDR_TOTAL offsetof(struct pfsel_policy_header, total_size)
#define HDR_CSUM offsetof(struct pfsel_policy_header, checksum)
#define HDR_FLAGS offsetof(struct pfsel_policy_header, flags)
#define HDR_UID offsetof(struct pfsel_policy_header, uid)

static void fix_checksum(uint8_t *b, size_t len)
{
	if (len < sizeof(struct pfsel_policy_header))
		return;
	put32(b + HDR_CSUM, 0);
	put32(b + HDR_CSUM, ~crc32c(~0u, b, len));
}

/*
 * As root, a blob loads for a scratch uid only, never as the system
 * policy; as anyone else, for whatever it names or for the caller.
 */
static void retarget(uint8_t *b, size_t len)
{
	if (len < sizeof(struct pfsel_policy_header))
		return;
	if (root) {
		put32(b + HDR_FLAGS,
		      get32(b + HDR_FLAGS) & ~PFSEL_POLICY_F_SYSTEM);
		put32(b + HDR_UID, SCRATCH_UID + rnd(SCRATCH_UIDS));
	} else if (chance(50)) {
		put32(b + HDR_FLAGS,
		      get32(b + HDR_FLAGS) & ~PFSEL_POLICY_F_SYSTEM);
		put32(b + HDR_UID, chance(70) ? me : rnd(2) ? 0 : 1002);
	}
}

static void read_blobs(void)
{
	DIR *dir = opendir(PFSEL_POLICY_DIR);
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir)) && nblobs < MAX_BLOBS) {
		const size_t n = strlen(de->d_name);
		struct blob *b = &blobs[nblobs];
		void *data = NULL;
		ssize_t len;
		char name[128];

		if (n < 7 || n >= sizeof(name) ||
		    strcmp(de->d_name + n - 6, ".pfsel"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 6), de->d_name);
		len = pfsel_policy_blob(name, &data);
		if (len <= 0 || (size_t)len > MAX_BLOB_SIZE / 2)
			continue;
		snprintf(b->name, sizeof(b->name), "%s", name);
		b->data = data;
		b->len = (size_t)len;
		nblobs++;
	}
	closedir(dir);
}

/* A mutated copy of a random blob in @buf: its length. */
static size_t mutate(uint8_t *buf)
{
	const struct blob *b = &blobs[rnd((uint32_t)nblobs)];
	size_t len = b->len, off;
	unsigned int n = 1 + rnd(8), i;

	memcpy(buf, b->data, len);
	for (i = 0; i < n; i++) {
		switch (rnd(9)) {
		case 0: /* a bit */
			off = rnd((uint32_t)len);
			buf[off] ^= (uint8_t)(1u << rnd(8));
			break;
		case 1: /* a byte */
			buf[rnd((uint32_t)len)] = (uint8_t)rnd64();
			break;
		case 2: /* an aligned word of the header or section table */
			off = 4 * rnd((uint32_t)(len < 256 ? len / 4 : 64));
			if (off + 4 <= len)
				put32(buf + off, edge32((uint32_t)len));
			break;
		case 3: /* any aligned word */
			off = 4 * rnd((uint32_t)(len / 4));
			if (off + 4 <= len)
				put32(buf + off, edge32((uint32_t)len));
			break;
		case 4: /* cut short */
			len = rnd((uint32_t)len + 1);
			break;
		case 5: /* lengthened with random bytes */
			off = 1 + rnd(256);
			if (len + off < MAX_BLOB_SIZE) {
				rnd_bytes(buf + len, off);
				len += off;
			}
			break;
		case 6: /* a chunk copied elsewhere */
			if (len >= 16) {
				size_t from = rnd((uint32_t)len - 8);
				size_t to = rnd((uint32_t)len - 8);
				size_t cnt = 1 + rnd(8);

				memmove(buf + to, buf + from, cnt);
			}
			break;
		case 7: /* a run of zeroes or 0xff */
			off = rnd((uint32_t)len);
			memset(buf + off, rnd(2) ? 0xff : 0,
			       len - off < 16 ? len - off : 1 + rnd(16));
			break;
		default: /* a byte +-1 */
			off = rnd((uint32_t)len);
			buf[off] = (uint8_t)(buf[off] + (rnd(2) ? 1 : -1));
			break;
		}
	}
	retarget(buf, len);
	if (len >= sizeof(struct pfsel_policy_header) && chance(80))
		put32(buf + HDR_TOTAL, (uint32_t)len);
	if (chance(85))
		fix_checksum(buf, len);
	return len;
}

/* ---- results ---------------------------------------------------------- */

static void violation(const char *fmt, ...)
{
	va_list ap;

	violations++;
	fprintf(stderr, "pfsel_fuzz: uid %u: VIOLATION: ", me);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A change that @me may not make succeeded (0 is success). */
static void must_fail(int err, const char *what, const char *detail)
{
	if (err == 0)
		violation("%s %s succeeded without CAP_MAC_ADMIN", what,
			  detail);
}

/* Write @len bytes to pfsel's file @name: 0 or -errno (of open or write). */
static int write_file(const char *name, const void *buf, size_t len,
		      off_t offset)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret = 0;

	fd = open(pfsel_raw_path(name, path, sizeof(path)),
		  O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = offset ? pwrite(fd, buf, len, offset) : write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if (len == 0)
		ret = 1; /* writing nothing changes nothing */
	close(fd);
	return ret;
}

/* ---- the operations --------------------------------------------------- */

static uint8_t blobbuf[MAX_BLOB_SIZE];

static void op_load(void)
{
	size_t len;
	int err;

	if (!nblobs)
		return;
	len = mutate(blobbuf);
	switch (rnd(10)) {
	case 0: /* at an offset */
		err = write_file("load", blobbuf, len, 1 + rnd(4096));
		break;
	case 1: { /* in two pieces on one descriptor */
		char path[PATH_MAX];
		const size_t cut = rnd((uint32_t)len + 1);
		int fd = open(pfsel_raw_path("load", path, sizeof(path)),
			      O_WRONLY | O_CLOEXEC);

		if (fd < 0) {
			err = -errno;
			break;
		}
		err = write(fd, blobbuf, cut) < 0 ? -errno : 0;
		if (write(fd, blobbuf + cut, len - cut) < 0 && !err)
			err = -errno;
		close(fd);
		break;
	}
	case 2: { /* writev, several pieces, one call */
		char path[PATH_MAX];
		struct iovec iov[3];
		size_t a = rnd((uint32_t)len + 1), b2;
		int fd;

		b2 = a + rnd((uint32_t)(len - a) + 1);
		iov[0] = (struct iovec){ blobbuf, a };
		iov[1] = (struct iovec){ blobbuf + a, b2 - a };
		iov[2] = (struct iovec){ blobbuf + b2, len - b2 };
		fd = open(pfsel_raw_path("load", path, sizeof(path)),
			  O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			break;
		}
		err = writev(fd, iov, 3) < 0 ? -errno : 0;
		close(fd);
		break;
	}
	default:
		err = write_file("load", blobbuf, len, 0);
		break;
	}
	if (len == 0 && err == 0)
		err = 1; /* writing nothing changes nothing */
	if (err == 0)
		op_ok[OP_LOAD]++;
	if (!root)
		must_fail(err, "load of a mutated policy", "");
}

static void op_valid(void)
{
	const struct blob *b;
	int err;

	if (!nblobs)
		return;
	b = &blobs[rnd((uint32_t)nblobs)];
	memcpy(blobbuf, b->data, b->len);
	retarget(blobbuf, b->len);
	if (root || chance(50))
		fix_checksum(blobbuf, b->len);
	err = pfsel_load_buffer(blobbuf, b->len);
	if (err == 0)
		op_ok[OP_VALID]++;
	if (root && err && err != -ENOMEM && err != -EINTR && err != -EBADMSG)
		fprintf(stderr, "pfsel_fuzz: note: valid load of %s: %s\n",
			b->name, strerror(-err));
	if (!root)
		must_fail(err, "load of", b->name);
}

/*
 * A word for "unload", "forget" or "enforce" that names no policy and no
 * mode: no digits, no 's' (system), no letters kstrtobool reads.
 */
static size_t garbage_word(char *buf, size_t size)
{
	static const char *const words[] = {
		"",
		"\n",
		" ",
		"\t\n",
		"-",
		"+",
		"x",
		"-x",
		"uid",
		"user",
		"all",
		"*",
		"\xff\xfe",
		"\n\n",
		"ab\ncd",
		"?",
		"4294967295",
		"4294967296",
		"-4294967296",
		"18446744073709551615",
		"99999999999999999999999999",
		"x0",
		"--",
	};
	size_t len, i;

	if (chance(70)) {
		snprintf(buf, size, "%s",
			 words[rnd(sizeof(words) / sizeof(words[0]))]);
		return strlen(buf);
	}
	len = rnd((uint32_t)size);
	for (i = 0; i < len; i++) {
		uint8_t c = (uint8_t)rnd64();

		if ((c >= '0' && c <= '9') || c == 's' || c == 'S' ||
		    c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 'o' ||
		    c == 'O' || c == 'f' || c == 'F' || c == 't' || c == 'T')
			c = '.';
		buf[i] = (char)c;
	}
	return len;
}

/* A uid word: scratch as root, anything otherwise; with decoration. */
static size_t uid_word(char *buf, size_t size, bool any)
{
	static const char *const fmt[] = { "%u",  "%u\n", " %u",   "+%u",
					   "%u ", "0%u",  "%u\n\n" };
	uint32_t uid;

	if (any) {
		static const uint32_t uids[] = { 0, 1001, 1002, 65534 };

		uid = chance(60) ? uids[rnd(4)] : (uint32_t)rnd64();
	} else {
		uid = SCRATCH_UID + rnd(SCRATCH_UIDS);
	}
	if (!any && uid == 0)
		uid = SCRATCH_UID;
	snprintf(buf, size, fmt[rnd(7)], uid);
	return strlen(buf);
}

static void op_unload(void)
{
	char word[64];
	size_t len;
	int err;

	if (root)
		len = chance(60) ? uid_word(word, sizeof(word), false) :
				   garbage_word(word, sizeof(word));
	else if (chance(30))
		len = (size_t)snprintf(word, sizeof(word), "%s",
				       rnd(2) ? "system" : "system\n");
	else
		len = chance(70) ? uid_word(word, sizeof(word), true) :
				   garbage_word(word, sizeof(word));
	err = write_file("unload", word, len, chance(5) ? 1 : 0);
	if (err == 0)
		op_ok[OP_UNLOAD]++;
	if (!root)
		must_fail(err, "unload of", word);
}

static void op_forget(void)
{
	char word[64];
	size_t len;
	int err;

	len = chance(70) ? uid_word(word, sizeof(word), true) :
			   garbage_word(word, sizeof(word));
	err = write_file("forget", word, len, 0);
	if (err == 0)
		op_ok[OP_FORGET]++;
	if (!root)
		must_fail(err, "forget of", word);
}

static unsigned int saved_threshold;
static int saved_timing = -1;

static void op_mode(void)
{
	static const char *const enforce_ok[] = { "1", "1\n" };
	char word[64];
	size_t len;
	int err;
	const char *file;

	switch (rnd(3)) {
	case 0:
		file = "enforce";
		if (!root && chance(50)) {
			len = (size_t)snprintf(word, sizeof(word), "%s",
					       rnd(2) ? "0" : "0\n");
		} else if (chance(40)) {
			len = (size_t)snprintf(word, sizeof(word), "%s",
					       enforce_ok[rnd(2)]);
		} else {
			len = garbage_word(word, sizeof(word));
			if (chance(30))
				len = (size_t)snprintf(word, sizeof(word), "%s",
						       rnd(2) ? "2" : "11");
		}
		break;
	case 1:
		file = "hook_timing";
		if (chance(60))
			len = (size_t)snprintf(word, sizeof(word), "%u",
					       rnd(2));
		else
			len = garbage_word(word, sizeof(word));
		break;
	default:
		file = "avc/cache_threshold";
		if (chance(70))
			len = (size_t)snprintf(word, sizeof(word), "%u%s",
					       chance(50) ? 1 + rnd(65536) :
							    edge32(65536),
					       rnd(2) ? "\n" : "");
		else
			len = garbage_word(word, sizeof(word));
		break;
	}
	err = write_file(file, word, len, 0);
	if (err == 0)
		op_ok[OP_MODE]++;
	if (!root)
		must_fail(err, file, word);
}

static void op_read(void)
{
	static const char *const files[] = {
		"status",    "policies",	"hooks",
		"ask_stats", "avc/cache_stats", "avc/cache_threshold",
		"enforce",   "hook_timing",	"load",
		"unload",    "forget",		"check",
	};
	static char buf[65536];
	const char *name = files[rnd(12)];
	char path[PATH_MAX];
	int fd, i, n;
	ssize_t got;

	fd = open(pfsel_raw_path(name, path, sizeof(path)),
		  (chance(20) ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* ask_stats without CAP_MAC_ADMIN: EPERM, as it must */
	if (!root && !strcmp(name, "ask_stats"))
		violation("ask_stats opened without CAP_MAC_ADMIN");
	n = 1 + (int)rnd(6);
	for (i = 0; i < n; i++) {
		const size_t size = chance(50) ? 1 + rnd(64) :
						 1 + rnd(sizeof(buf));

		switch (rnd(5)) {
		case 0:
			got = pread(fd, buf, size,
				    chance(50) ? (off_t)rnd(8192) :
						 (off_t)(rnd64() >> 2));
			break;
		case 1:
			lseek(fd, chance(50) ? (off_t)rnd(4096) : 0,
			      rnd(2) ? SEEK_SET : SEEK_END);
			got = read(fd, buf, size);
			break;
		default:
			got = read(fd, buf, size);
			break;
		}
		if (got < 0)
			break;
	}
	op_ok[OP_READ]++;
	close(fd);
}

static void op_check(void)
{
	struct pfsel_check_request req = { 0 };
	static struct pfsel_check_answer ans;
	static const uint32_t uids[] = { 0, 1001, 1002, 2000 };
	int err;

	if (chance(60)) {
		req.has_uid = chance(70);
		req.uid = chance(80) ? uids[rnd(4)] : (uint32_t)rnd64();
		req.exe = chance(50) ? "/usr/lib/pfsel/tests/netprobe" :
				       (chance(50) ? NULL : "/x/../y//z");
		req.script = chance(20) ? "/tmp/s.py" : NULL;
		req.op = rnd(PFSEL_OP_COUNT + 1);
		req.proto = rnd(PFSEL_PROTO_COUNT + 2);
		req.family = rnd(4);
		if (chance(50)) {
			memset(req.addr, 0, 16);
			req.addr[10] = req.addr[11] = 0xff;
			req.addr[12] = 127;
			req.addr[15] = (uint8_t)rnd(3);
		} else {
			rnd_bytes(req.addr, 16);
		}
		req.port = chance(50) ? (uint16_t)(7000 + rnd(30)) :
					(uint16_t)rnd64();
		err = pfsel_check(&req, &ans);
		if (err == 0)
			op_ok[OP_CHECK]++;
		if (!root && err == 0 && req.has_uid && req.uid != me)
			violation("check of uid %u's policy answered", req.uid);
	} else {
		char text[1024], path[PATH_MAX];
		size_t len;
		int fd;

		len = (size_t)snprintf(
			text, sizeof(text),
			"uid %u\nexe %s\nop %s\nproto %s\nfamily %s\naddr %s\nport %u\n",
			chance(50) ? me : uids[rnd(4)], rnd(2) ? "/bin/sh" : "",
			rnd(2) ? "connect" : (rnd(2) ? "create" : "bogus"),
			rnd(2) ? "tcp" : (rnd(2) ? "packet" : "udp"),
			rnd(2) ? "inet" : "inet6", rnd(2) ? "127.0.0.1" : "::1",
			(unsigned int)rnd(70000));
		/* Mutate the text: cut, bytes replaced, lines doubled. */
		if (chance(50))
			len = rnd((uint32_t)len + 1);
		if (chance(50) && len)
			text[rnd((uint32_t)len)] = (char)rnd64();
		if (chance(20)) {
			memset(text, 'A', sizeof(text));
			len = sizeof(text);
		}
		fd = open(pfsel_raw_path("check", path, sizeof(path)),
			  O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return;
		if (write(fd, text, len) >= 0) {
			if (chance(30) && write(fd, text, len) < 0) {
				/* a second request on the same file */
			}
			if (read(fd, text, sizeof(text)) >= 0)
				op_ok[OP_CHECK]++;
		}
		close(fd);
	}
}

/* A registration through libpfsel. */
static struct pfsel_agent *scratch_agent;

static void op_genl(void)
{
	struct pfsel_agent *agent;
	uid_t uid = root ? SCRATCH_UID + rnd(SCRATCH_UIDS) :
			   (chance(50) ? me : 1001);
	int err;

	if (root && scratch_agent && chance(50)) {
		/* Junk answers on a registered agent's own socket. */
		uint8_t payload[64];
		const struct raw_attr attrs[] = {
			{ PFSEL_ATTR_ID, 8, payload },
			{ PFSEL_ATTR_VERDICT, (uint16_t)(1 + rnd(2)),
			  payload + 8 },
			{ PFSEL_ATTR_SCOPE, (uint16_t)rnd(3), payload + 16 },
			{ (uint16_t)rnd(40), (uint16_t)rnd(32), payload + 24 },
		};

		rnd_bytes(payload, sizeof(payload));
		err = raw_genl_request(pfsel_agent_fd(scratch_agent),
				       raw_genl_family(), PFSEL_CMD_ANSWER, 0,
				       attrs, 2 + rnd(3), NULL, NULL);
		if (err == 0)
			op_ok[OP_GENL]++;
		return;
	}
	err = pfsel_agent_open(&agent);
	if (err)
		return;
	err = chance(50) ? pfsel_agent_register_for(agent, uid) :
			   (root ? pfsel_agent_register_for(agent, uid) :
				   pfsel_agent_register(agent));
	if (err == 0)
		op_ok[OP_GENL]++;
	if (!root)
		must_fail(err, "agent registration for",
			  uid == me ? "self" : "1001");
	if (root && err == 0 && chance(30)) {
		pfsel_agent_close(scratch_agent);
		scratch_agent = agent;
		return;
	}
	if (chance(50))
		pfsel_agent_unregister(agent);
	pfsel_agent_close(agent);
}

static struct raw_genl raw = { .fd = -1 };

/* Read whatever the kernel sent back, without waiting. */
static void drain(int fd)
{
	static uint8_t buf[RAW_GENL_RECV_MAX];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void op_raw(void)
{
	static const uint16_t flag_set[] = {
		NLM_F_REQUEST | NLM_F_ACK,
		NLM_F_REQUEST,
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO,
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_MULTI,
		0,
	};
	uint8_t buf[2048], payload[1024];
	size_t plen = 0, len = 0, nmsg, m;
	uint16_t type;
	uint8_t cmd;
	int i, nattr;

	if (raw.fd < 0 || chance(2)) {
		raw_genl_close(&raw);
		if (raw_genl_open(&raw))
			return;
	}
	nmsg = chance(85) ? 1 : 2 + rnd(3);
	for (m = 0; m < nmsg; m++) {
		size_t one;

		type = (uint16_t)raw.family;
		if (!root && chance(5))
			type = (uint16_t)rnd(64); /* another family */
		else if (chance(3))
			type = GENL_ID_CTRL;
		cmd = chance(80) ? (uint8_t)rnd(PFSEL_CMD_MAX + 3) :
				   (uint8_t)rnd64();
		/* Root registers for scratch uids only, through op_genl. */
		if (root && cmd == PFSEL_CMD_REGISTER)
			cmd = PFSEL_CMD_ANSWER;
		plen = 0;
		nattr = (int)rnd(7);
		for (i = 0; i < nattr; i++) {
			struct nlattr *nla = (struct nlattr *)(payload + plen);
			const uint16_t alen =
				(uint16_t)(chance(70) ? rnd(17) : rnd(300));

			if (plen + NLA_HDRLEN + NLA_ALIGN(alen) >
			    sizeof(payload))
				break;
			nla->nla_type =
				(uint16_t)(chance(85) ?
						   rnd(__PFSEL_ATTR_MAX + 2) :
						   rnd64());
			if (chance(10))
				nla->nla_type |= NLA_F_NESTED;
			nla->nla_len = (uint16_t)(NLA_HDRLEN + alen);
			if (chance(5))
				nla->nla_len = (uint16_t)rnd64();
			rnd_bytes(payload + plen + NLA_HDRLEN, NLA_ALIGN(alen));
			if (alen == 8 &&
			    chance(50)) /* a small id, maybe live */
				memset(payload + plen + NLA_HDRLEN + 1, 0, 7);
			plen += NLA_HDRLEN + NLA_ALIGN(alen);
		}
		one = raw_genl_msg(
			buf + len, sizeof(buf) - len, type,
			flag_set[rnd(6)] | (chance(5) ? (uint16_t)rnd64() : 0),
			cmd, chance(90) ? PFSEL_GENL_VERSION : (uint8_t)rnd64(),
			chance(95) ? 0 : (uint16_t)rnd64(), payload, plen);
		if (!one)
			break;
		if (chance(5)) /* a lying length */
			((struct nlmsghdr *)(buf + len))->nlmsg_len =
				chance(50) ? (uint32_t)rnd(64) :
					     (uint32_t)rnd64();
		if (root && type != raw.family && type != GENL_ID_CTRL)
			((struct nlmsghdr *)(buf + len))->nlmsg_type =
				(uint16_t)raw.family;
		len += NLMSG_ALIGN(one);
	}
	if (!len)
		return;
	if (chance(10))
		len = rnd((uint32_t)len + 1); /* cut short */
	if (raw_genl_send(raw.fd, buf, len, chance(20) ? 50 : 0, NULL, NULL) ==
	    0)
		op_ok[OP_RAW]++;
	drain(raw.fd);
}

/* ---- the run ---------------------------------------------------------- */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The policies loaded now, but the scratch uids'. */
static size_t snapshot(struct pfsel_policy_info **out)
{
	struct pfsel_policy_info *all;
	size_t n, i, kept = 0;

	*out = NULL;
	if (pfsel_policies(&all, &n))
		return 0;
	for (i = 0; i < n; i++)
		if (all[i].system || all[i].uid < SCRATCH_UID ||
		    all[i].uid >= SCRATCH_UID + SCRATCH_UIDS)
			all[kept++] = all[i];
	*out = all;
	return kept;
}

static void compare(const struct pfsel_policy_info *before, size_t nb,
		    const struct pfsel_policy_info *after, size_t na)
{
	size_t i, j;

	for (i = 0; i < nb; i++) {
		for (j = 0; j < na; j++)
			if (before[i].system == after[j].system &&
			    before[i].uid == after[j].uid)
				break;
		if (j == na) {
			violation("the policy %s%u is no longer loaded",
				  before[i].system ? "system/" : "uid ",
				  before[i].uid);
		} else if (before[i].generation != after[j].generation ||
			   memcmp(before[i].digest, after[j].digest,
				  sizeof(before[i].digest))) {
			violation(
				"the policy %s%u was replaced (generation %u -> %u)",
				before[i].system ? "system/" : "uid ",
				before[i].uid, before[i].generation,
				after[j].generation);
		}
	}
	for (j = 0; j < na; j++) {
		for (i = 0; i < nb; i++)
			if (before[i].system == after[j].system &&
			    before[i].uid == after[j].uid)
				break;
		if (i == nb)
			violation("a policy appeared: %s%u",
				  after[j].system ? "system/" : "uid ",
				  after[j].uid);
	}
}

int main(int argc, char **argv)
{
	unsigned long long seconds = 60, max_ops = 0, total = 0;
	unsigned long long seed = (unsigned long long)time(NULL) ^
				  ((unsigned long long)getpid() << 20);
	struct pfsel_policy_info *before = NULL, *after = NULL;
	size_t nbefore = 0, nafter = 0;
	long long deadline;
	int opt, i;
	char summary[512];
	size_t off = 0;

	while ((opt = getopt(argc, argv, "t:n:s:q")) != -1) {
		switch (opt) {
		case 't':
			seconds = strtoull(optarg, NULL, 10);
			break;
		case 'n':
			max_ops = strtoull(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'q':
			quiet = true;
			break;
		default:
			fprintf(stderr,
				"usage: pfsel_fuzz [-t SECONDS] [-n OPS] [-s SEED] [-q]\n");
			return 2;
		}
	}
	me = getuid();
	root = geteuid() == 0;
	rng_state = seed ? seed : 1;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	read_blobs();
	printf("pfsel_fuzz: uid %u, seed %llu, %zu policies, %llu s\n", me,
	       seed, nblobs, seconds);
	fflush(stdout);

	if (root) {
		pfsel_get_avc_threshold(&saved_threshold);
		saved_timing = pfsel_get_hook_timing();
		nbefore = snapshot(&before);
	}

	deadline = pfsel_now_ms() + (long long)seconds * 1000;
	while (!stop && (!max_ops || total < max_ops)) {
		enum op op = (enum op)rnd(OP_COUNT);

		if ((total & 63) == 0 && pfsel_now_ms() >= deadline)
			break;
		op_count[op]++;
		total++;
		switch (op) {
		case OP_LOAD:
			op_load();
			break;
		case OP_VALID:
			op_valid();
			break;
		case OP_UNLOAD:
			op_unload();
			break;
		case OP_FORGET:
			op_forget();
			break;
		case OP_MODE:
			op_mode();
			break;
		case OP_READ:
			op_read();
			break;
		case OP_CHECK:
			op_check();
			break;
		case OP_GENL:
			op_genl();
			break;
		default:
			op_raw();
			break;
		}
	}
	raw_genl_close(&raw);
	pfsel_agent_close(scratch_agent);

	if (root) {
		unsigned int u;
		int enforcing;

		for (u = 0; u < SCRATCH_UIDS; u++)
			pfsel_unload_uid(SCRATCH_UID + u);
		if (saved_threshold)
			pfsel_set_avc_threshold(saved_threshold);
		if (saved_timing >= 0)
			pfsel_set_hook_timing(saved_timing == 1);
		nafter = snapshot(&after);
		compare(before, nbefore, after, nafter);
		enforcing = pfsel_get_enforce();
		if (enforcing != 1)
			violation("pfsel is not enforcing any more (%d)",
				  enforcing);
		free(before);
		free(after);
	}

	for (i = 0; i < OP_COUNT; i++)
		off += (size_t)snprintf(summary + off, sizeof(summary) - off,
					"%s%s %llu/%llu", i ? ", " : "",
					op_names[i], op_ok[i], op_count[i]);
	printf("pfsel_fuzz: uid %u: %llu ops (accepted/tried: %s), %llu violations\n",
	       me, total, summary, violations);
	return violations ? 1 : 0;
}
