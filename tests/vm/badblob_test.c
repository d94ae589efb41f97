// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - malformed policies are refused with the reader's errno
 * and change nothing.
 *
 * The corpus in badblobs/ beside this program comes from mkbadblobs, which
 * ran every blob through the same reader (security/pfsel/policydb.c, built
 * for user space) and wrote down the errno it gave: the kernel must give
 * exactly that one, when the root side writes it.  Anyone else may load
 * no policy (only root and a user's agent process may, and the corpus is
 * for uid 1002): they get EPERM from the header alone, before the kernel
 * copies the rest, whatever is wrong further on; only a write too short to
 * hold a header is EINVAL for them.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "linux/crc32c.h"
#include "pfsel_test_util.h"

/* The uid the corpus and valid.pfsel are compiled for. */
#define CORPUS_UID 1002u

struct blob {
	char name[128];
	int want; /* errno */
	uint8_t *data;
	size_t len;
};

static int errno_of(const char *name)
{
	static const struct {
		const char *name;
		int value;
	} names[] = {
		{ "EINVAL", EINVAL }, { "EBADMSG", EBADMSG },
		{ "E2BIG", E2BIG },   { "EPROTONOSUPPORT", EPROTONOSUPPORT },
		{ "ENOMEM", ENOMEM },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			return names[i].value;
	return 0;
}

/*
 * The corpus folder: $PFSEL_BADBLOBS; else badblobs/ beside this program
 * (build/vm-tests/badblobs in the image); else /add, for a run with
 * "tests/vm/run --add build/vm-tests/badblobs".
 */
static void corpus_dir(char *buf, size_t size)
{
	const char *env = getenv("PFSEL_BADBLOBS");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		len = 0;
	exe[len] = '\0';
	snprintf(buf, size, "%s/badblobs", dirname(exe));
	if (access(buf, F_OK) && !access("/add/MANIFEST", F_OK))
		snprintf(buf, size, "/add");
}

/* A whole file into a malloc()ed buffer; NULL when it cannot be read. */
static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *data;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		close(fd);
		return NULL;
	}
	/* One byte more, so that an empty blob is a real buffer too. */
	data = malloc((size_t)st.st_size + 1);
	if (data && read(fd, data, st.st_size) != st.st_size) {
		free(data);
		data = NULL;
	}
	close(fd);
	*len = st.st_size;
	return data;
}

/*
 * One write() of @len bytes to the load file: 0, or the errno.  Raw: the
 * test plays a writer of bad policies, some of which libpfsel refuses
 * before the kernel sees them (the corpus's empty blob, oversized_blob's
 * one byte too many); the valid policy goes through libpfsel.
 */
static int load(const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd = open(pfsel_raw_path("load", path, sizeof(path)),
		      O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return errno;
	n = write(fd, data, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1; /* a short write: never right */
	close(fd);
	return err;
}

/* The loaded policies, as pfsel_policies() lists them. */
struct policies {
	struct pfsel_policy_info *list;
	size_t n;
};

static bool same_policies(const struct policies *a, const struct policies *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++) {
		const struct pfsel_policy_info *x = &a->list[i];
		const struct pfsel_policy_info *y = &b->list[i];

		if (x->system != y->system || x->uid != y->uid ||
		    x->generation != y->generation || x->size != y->size ||
		    x->rules != y->rules ||
		    memcmp(x->digest, y->digest, sizeof(x->digest)) ||
		    x->permissive != y->permissive)
			return false;
	}
	return true;
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

/*
 * CRC32C of a blob with its checksum field (bytes 12 to 15) read as zero
 * (FORMAT.md), with the kernel's crc32c() as the shim gives it.
 */
static uint32_t checksum(const uint8_t *p, size_t len)
{
	static const uint8_t zero[4];
	uint32_t crc;

	crc = crc32c(~0u, p, 12);
	crc = crc32c(crc, zero, sizeof(zero));
	crc = crc32c(crc, p + 16, len - 16);
	return ~crc;
}

FIXTURE(corpus)
{
	struct blob *blobs;
	size_t n;
	uint8_t *valid;
	size_t valid_len;
	bool loaded; /* we loaded valid.pfsel, and unload it after */
	struct policies before; /* the policies list before the corpus */
};

FIXTURE_SETUP(corpus)
{
	char dir[PATH_MAX], path[PATH_MAX + 256], name[128], err[32];
	FILE *manifest;

	corpus_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/valid.pfsel", dir);
	self->valid = slurp(path, &self->valid_len);
	ASSERT_NE(NULL, self->valid)
	{
		TH_LOG("%s: %s", path, strerror(errno));
	}
	ASSERT_EQ(CORPUS_UID, get32(self->valid + 20));
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	manifest = fopen(path, "re");
	ASSERT_NE(NULL, manifest)
	{
		TH_LOG("%s: %s", path, strerror(errno));
	}
	while (fscanf(manifest, "%127s %31s", name, err) == 2) {
		struct blob *b;

		self->blobs = realloc(self->blobs,
				      (self->n + 1) * sizeof(*self->blobs));
		ASSERT_NE(NULL, self->blobs);
		b = &self->blobs[self->n++];
		snprintf(b->name, sizeof(b->name), "%s", name);
		b->want = errno_of(err);
		ASSERT_NE(0, b->want)
		{
			TH_LOG("%s: unknown errno %s", name, err);
		}
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		b->data = slurp(path, &b->len);
		ASSERT_NE(NULL, b->data)
		{
			TH_LOG("%s: %s", path, strerror(errno));
		}
	}
	fclose(manifest);
	/* mkbadblobs writes a few hundred; fewer means a broken build. */
	ASSERT_LE((size_t)200, self->n);

	if (geteuid() == 0) {
		/* A policy in force, to show that nothing touches it. */
		ASSERT_EQ(0, pfsel_load_buffer(self->valid, self->valid_len))
		{
			TH_LOG("%s", pfsel_last_error());
		}
		self->loaded = true;
	}
	ASSERT_EQ(0, pfsel_policies(&self->before.list, &self->before.n));
}

FIXTURE_TEARDOWN(corpus)
{
	if (self->loaded)
		EXPECT_EQ(0, pfsel_unload_uid(CORPUS_UID));
	for (size_t i = 0; i < self->n; i++)
		free(self->blobs[i].data);
	free(self->blobs);
	free(self->valid);
	free(self->before.list);
}

/*
 * What a writer who may not load gets for a blob of @len bytes: EPERM, from
 * the header, unless there is no whole header to read.
 */
static int refused_errno(const size_t len)
{
	return len < sizeof(struct pfsel_policy_header) ? EINVAL : EPERM;
}

/*
 * Every blob of the corpus, in one write() each, fails with the errno the
 * reader gave it in user space (for root; others get EPERM); afterwards
 * the policies are as they were.
 */
TEST_F_TIMEOUT(corpus, every_blob_fails_with_its_errno,
	       PFSEL_AUDIT_TEST_TIMEOUT)
{
	struct policies after;
	size_t wrong = 0;

	for (size_t i = 0; i < self->n; i++) {
		const struct blob *b = &self->blobs[i];
		const int want = geteuid() == 0 ? b->want :
						  refused_errno(b->len);
		int got = load(b->data, b->len);

		if (got != want) {
			wrong++;
			TH_LOG("%s (%zu bytes): %s, want %s", b->name, b->len,
			       got ? strerror(got) : "accepted",
			       strerror(want));
		}
	}
	EXPECT_EQ((size_t)0, wrong)
	{
		TH_LOG("%zu of %zu blobs got the wrong answer", wrong, self->n);
	}
	ASSERT_EQ(0, pfsel_policies(&after.list, &after.n));
	EXPECT_TRUE(same_policies(&self->before, &after));
	free(after.list);
}

/* The valid policy loaded before the corpus is still the one in force. */
TEST_F_TIMEOUT(corpus, policy_in_force_is_untouched, PFSEL_AUDIT_TEST_TIMEOUT)
{
	const struct pfsel_policy_info *p = NULL;
	struct policies after;

	if (!self->loaded)
		SKIP(return, "only root loads the policy of uid %u",
			   CORPUS_UID);
	for (size_t i = 0; i < self->before.n; i++)
		if (!self->before.list[i].system &&
		    self->before.list[i].uid == CORPUS_UID)
			p = &self->before.list[i];
	ASSERT_NE(NULL, p)
	{
		TH_LOG("no line for uid %u", CORPUS_UID);
	}
	{
		uint8_t digest[PFSEL_DIGEST_SIZE];

		ASSERT_EQ(0, pfsel_policy_digest(self->valid, self->valid_len,
						 digest));
		EXPECT_EQ(0, memcmp(digest, p->digest, sizeof(digest)));
	}
	EXPECT_FALSE(p->permissive);
	for (size_t i = 0; i < self->n; i++)
		load(self->blobs[i].data, self->blobs[i].len);
	ASSERT_EQ(0, pfsel_policies(&after.list, &after.n));
	/* The same line: same generation, size and checksum. */
	EXPECT_TRUE(same_policies(&self->before, &after));
	free(after.list);
}

/*
 * A user may load no policy, valid or not: the permission is checked from
 * the header, before the kernel reads (or copies) the rest.
 */
TEST_F(corpus, permission_comes_before_validation)
{
	if (geteuid() == 0)
		SKIP(return, "for a user");
	EXPECT_EQ(EPERM, load(self->valid, self->valid_len));
	ASSERT_LT((size_t)0, self->n);
	EXPECT_EQ(refused_errno(self->blobs[0].len),
		  load(self->blobs[0].data, self->blobs[0].len));
}

/*
 * The caller's own policy, malformed: the reader's errno for root; EPERM
 * for a user, who may not load even their own.  Nothing here is valid, so
 * nothing is loaded, whoever runs it.
 */
TEST(own_policy_malformed)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	size_t len;
	uint8_t *blob;

	corpus_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/valid.pfsel", dir);
	blob = slurp(path, &len);
	ASSERT_NE(NULL, blob);
	const bool user = geteuid() != 0;

	set32(blob + 20, getuid());
	/* Checksum not updated for the new uid. */
	EXPECT_EQ(user ? EPERM : EBADMSG, load(blob, len));
	/* Reserved field set, checksum right. */
	set32(blob + 28, 1);
	set32(blob + 12, checksum(blob, len));
	EXPECT_EQ(user ? EPERM : EINVAL, load(blob, len));
	/* Another format version. */
	set32(blob + 28, 0);
	set32(blob + 4, PFSEL_POLICY_VERSION + 1);
	set32(blob + 12, checksum(blob, len));
	EXPECT_EQ(user ? EPERM : EPROTONOSUPPORT, load(blob, len));
	/* Shorter than its header says. */
	set32(blob + 4, PFSEL_POLICY_VERSION);
	set32(blob + 12, checksum(blob, len));
	EXPECT_EQ(user ? EPERM : EINVAL, load(blob, len - 8));
	free(blob);
}

/* Larger than any policy may be: refused before it is read. */
TEST(oversized_blob)
{
	const size_t len = (size_t)PFSEL_POLICY_MAX_SIZE + 1;
	uint8_t *blob = mmap(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, blob);
	set32(blob, PFSEL_POLICY_MAGIC);
	set32(blob + 4, PFSEL_POLICY_VERSION);
	set32(blob + 8, (uint32_t)len);
	EXPECT_EQ(E2BIG, load(blob, len));
	munmap(blob, len);
}

/* A load is one write() at offset 0. */
TEST(write_past_offset_0)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	size_t len;
	uint8_t *blob;
	int fd;

	corpus_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/valid.pfsel", dir);
	blob = slurp(path, &len);
	ASSERT_NE(NULL, blob);
	fd = pfsel_load_open();
	ASSERT_LE(0, fd);
	/* Raw: libpfsel writes at offset 0 only. */
	EXPECT_EQ(-1, pwrite(fd, blob, len, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	free(blob);
}

TEST_HARNESS_MAIN
