// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the confirmed policy (pfsel-tools/userpolicy/trust.c,
 * confirmed.c): what a login may load unconfirmed (trust_judge()), the
 * store of confirmed policies and its folder's checks, and the note that
 * a policy waits for confirmation (told once).  Policies are compiled by the real
 * pfwc ($BUILD/bin/pfwc) for the uid running the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pam_pfsel.h"

#include "pfwc_compile.h"

static char dir[64];

static int dir_setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pam-confirm-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int dir_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static struct blob compile(const char *text)
{
	return compile_for(text, (unsigned int)getuid());
}

static const uint8_t *digest(const struct blob *b)
{
	static uint8_t d[4][PFSEL_DIGEST_SIZE];
	static unsigned int next;
	uint8_t *const out = d[next++ % 4];

	assert_int_equal(0, policy_blob_check(b->data, b->len, getuid(), out));
	return out;
}

/* The CRC32C a blob's header holds. */
static uint32_t header_crc(const struct blob *b)
{
	const unsigned char *p = (const unsigned char *)b->data +
				 offsetof(struct pfsel_policy_header, checksum);

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define FORGE_LETTERS 64

/* "default allow;" and a deny for a path whose letters' case @bits picks. */
static struct blob forge_compile(uint64_t bits)
{
	char text[256], path[FORGE_LETTERS + 1], src[64];
	int i;

	for (i = 0; i < FORGE_LETTERS; i++)
		path[i] = (char)((bits >> i & 1 ? 'A' : 'a') + i % 26);
	path[FORGE_LETTERS] = '\0';
	snprintf(text, sizeof(text),
		 "default allow;\ndeny \"/nonexistent/%s\" connect;\n", path);
	snprintf(src, sizeof(src), "/tmp/pfsel-unit-forge-%d.pfw",
		 (int)getpid());
	return compile_at(src, text, (unsigned int)getuid(), false);
}

/*
 * The attack of issue 27: a looser policy whose header CRC32C equals
 * @target, the CRC of the policy in force, which anyone reads in
 * `policies` (as it was).  CRC32C is affine in the blob's bits and the
 * case of a letter is one bit, so the 64 letters' case solves for any
 * CRC over GF(2): one compile per letter, then elimination.
 */
static struct blob forge(uint32_t target)
{
	struct blob base = forge_compile(0), b;
	uint64_t row[32] = { 0 }, sol = 0;
	uint32_t rhs = target ^ header_crc(&base), col;
	int i, r, k, pivot[32], rank = 0;

	for (i = 0; i < FORGE_LETTERS; i++) {
		b = forge_compile(1ULL << i);
		assert_int_equal(b.len, base.len);
		col = header_crc(&b) ^ header_crc(&base);
		free(b.data);
		for (r = 0; r < 32; r++)
			if (col >> r & 1)
				row[r] |= 1ULL << i;
	}
	free(base.data);
	/* Rows are equations (a CRC bit); the right sides ride in @rhs. */
	for (k = 0; k < FORGE_LETTERS && rank < 32; k++) {
		for (r = rank; r < 32 && !(row[r] >> k & 1); r++)
			;
		if (r == 32)
			continue;
		if (r != rank) {
			uint64_t t = row[r];
			uint32_t bit_r = rhs >> r & 1, bit_k = rhs >> rank & 1;

			row[r] = row[rank];
			row[rank] = t;
			rhs = (rhs & ~(1U << r) & ~(1U << rank)) | bit_k << r |
			      bit_r << rank;
		}
		for (r = 0; r < 32; r++) {
			if (r != rank && row[r] >> k & 1) {
				row[r] ^= row[rank];
				rhs ^= (rhs >> rank & 1) << r;
			}
		}
		pivot[rank++] = k;
	}
	for (r = rank; r < 32; r++)
		assert_int_equal(0, rhs >> r & 1);
	for (r = 0; r < rank; r++)
		if (rhs >> r & 1)
			sol |= 1ULL << pivot[r];
	b = forge_compile(sol);
	assert_int_equal(target, header_crc(&b));
	return b;
}

#define A "default allow;\ndeny * connect to loopback port 5601;\n"
#define TIGHTER "default allow;\ndeny * connect to loopback port 5601-5602;\n"
#define LOOSER "default allow;\ndeny * connect to loopback port 5602;\n"

static void test_judge(void **state)
{
	struct blob a = compile(A), t = compile(TIGHTER), l = compile(LOOSER);
	const uid_t uid = getuid();
	char junk[64] = "junk";

	(void)state;
	assert_int_equal(TRUST_FIRST,
			 trust_judge(NULL, 0, a.data, a.len, uid, NULL, NULL));
	assert_int_equal(TRUST_CONFIRMED_SAME,
			 trust_judge(a.data, a.len, a.data, a.len, uid, NULL,
				     NULL));
	assert_int_equal(TRUST_NO_LOOSER, trust_judge(a.data, a.len, t.data,
						      t.len, uid, NULL, NULL));
	assert_int_equal(TRUST_LOOSER, trust_judge(a.data, a.len, l.data, l.len,
						   uid, digest(&a), NULL));
	/* In force already (the agent, or root): confirmed by that. */
	assert_int_equal(TRUST_IN_FORCE,
			 trust_judge(a.data, a.len, l.data, l.len, uid,
				     digest(&l), NULL));
	/* A confirmed policy that is no policy: cannot prove no looser. */
	assert_int_equal(TRUST_UNCOMPARABLE,
			 trust_judge(junk, sizeof(junk), l.data, l.len, uid,
				     NULL, NULL));
	assert_false(trust_judgement_loads(TRUST_LOOSER));
	assert_false(trust_judgement_loads(TRUST_UNCOMPARABLE));
	assert_true(trust_judgement_loads(TRUST_NO_LOOSER));
	assert_true(trust_judgement_loads(TRUST_FIRST));
	assert_non_null(strstr(trust_judgement_name(TRUST_LOOSER), "looser"));
	free(a.data);
	free(t.data);
	free(l.data);
}

/* The store: a folder of the caller's alone; policies for the uid only. */
static void test_store(void **state)
{
	struct blob a = compile(A);
	void *back = NULL;
	size_t len = 0;
	char path[128];
	int cache, conf;

	(void)state;
	cache = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(cache >= 0);
	conf = confirmed_open(cache);
	assert_true(conf >= 0);
	assert_int_equal(-ENOENT, confirmed_read(conf, getuid(), &back, &len));
	assert_int_equal(0, confirmed_write(conf, getuid(), a.data, a.len));
	assert_int_equal(0, confirmed_read(conf, getuid(), &back, &len));
	assert_int_equal(a.len, len);
	assert_memory_equal(a.data, back, len);
	free(back);
	/* Another uid's policy is not recorded for this one. */
	assert_int_equal(-EBADMSG,
			 confirmed_write(conf, getuid() + 1, a.data, a.len));
	assert_int_equal(0, confirmed_forget(conf, getuid()));
	assert_int_equal(0, confirmed_forget(conf, getuid()));
	assert_int_equal(-ENOENT, confirmed_read(conf, getuid(), &back, &len));
	close(conf);

	/* A folder others may read is refused. */
	snprintf(path, sizeof(path), "%s/%s", dir, POLICY_CONFIRMED_DIR);
	assert_int_equal(0, chmod(path, 0755));
	assert_int_equal(-EPERM, confirmed_open(cache));
	assert_int_equal(0, chmod(path, 0700));
	/* So is a symlink in its place. */
	assert_int_equal(0, rmdir(path));
	assert_int_equal(0, symlink("/tmp", path));
	assert_int_equal(-ENOTDIR, confirmed_open(cache));
	close(cache);
	free(a.data);
}

/* The note: told once per policy; readable; cleared. */
/*
 * A looser ~/.pfw forged to the CRC32C of the policy in force is not "in
 * force already": identity is SHA-256.  The control: the forged blob's
 * header CRC is the loaded one's, which is what the judgement used to
 * compare.
 */
static void test_judge_forged_checksum(void **state)
{
	struct blob a = compile(A), f;
	const uid_t uid = getuid();

	(void)state;
	f = forge(header_crc(&a));
	assert_int_equal(header_crc(&a), header_crc(&f));
	assert_true(f.len != a.len || memcmp(f.data, a.data, a.len));
	assert_int_equal(TRUST_LOOSER, trust_judge(a.data, a.len, f.data, f.len,
						   uid, digest(&a), NULL));
	free(a.data);
	free(f.data);
}

static void test_pending(void **state)
{
	uint8_t sum[PFSEL_DIGEST_SIZE];
	uint8_t one[PFSEL_DIGEST_SIZE], other[PFSEL_DIGEST_SIZE];
	struct stat st;
	char path[128];
	int run;

	(void)state;
	memset(one, 0x12, sizeof(one));
	memset(other, 0x99, sizeof(other));
	run = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(run >= 0);
	assert_int_equal(-ENOENT, confirmed_pending_read(dir, getuid(), sum));
	assert_int_equal(1, confirmed_pending_set(run, getuid(), one));
	assert_int_equal(0, confirmed_pending_set(run, getuid(), one));
	assert_int_equal(0, confirmed_pending_read(dir, getuid(), sum));
	assert_memory_equal(one, sum, sizeof(sum));
	snprintf(path, sizeof(path), "%s/%u.pending", dir,
		 (unsigned int)getuid());
	assert_int_equal(0, stat(path, &st));
	assert_int_equal(0644, st.st_mode & 07777);
	/* Another policy waiting: told again. */
	assert_int_equal(1, confirmed_pending_set(run, getuid(), other));
	assert_int_equal(0, confirmed_pending_clear(run, getuid()));
	assert_int_equal(0, confirmed_pending_clear(run, getuid()));
	assert_int_equal(-ENOENT, confirmed_pending_read(dir, getuid(), sum));
	close(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_judge_forged_checksum),
		cmocka_unit_test_setup_teardown(test_store, dir_setup,
						dir_teardown),
		cmocka_unit_test_setup_teardown(test_pending, dir_setup,
						dir_teardown),
	};

	return cmocka_run_group_tests(tests, find_pfwc, NULL);
}
