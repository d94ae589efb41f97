// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel: the per-uid session counter (pfsel-tools/pam/counter.c,
 * opened and locked by libuserpolicy's confirmed_lock()), the private
 * folders and the cache files (pfsel-tools/userpolicy/store.c, blob.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/pfsel_policy.h>

#include "pam_pfsel.h"

struct fixture {
	char dir[64];
	char run[96];
	int run_fd;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/pam_pfsel_counter.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	chmod(f->dir, 0755);
	snprintf(f->run, sizeof(f->run), "%s/run", f->dir);
	f->run_fd = store_open_dir(f->run, 0755);
	if (f->run_fd < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[160];

	close(f->run_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static unsigned long read_count(struct fixture *f, uid_t uid)
{
	char path[160], buf[32] = "";
	FILE *file;

	snprintf(path, sizeof(path), "%s/%u.sessions", f->run, uid);
	file = fopen(path, "r");
	assert_non_null(file);
	assert_non_null(fgets(buf, sizeof(buf), file));
	fclose(file);
	return strtoul(buf, NULL, 10);
}

static void test_open_close_counts(void **state)
{
	struct fixture *f = *state;
	unsigned long before, after;
	int fd;

	fd = confirmed_lock(f->run_fd, 1001);
	assert_true(fd >= 0);
	assert_int_equal(0, pfsel_pam_counter_add(fd, +1, &before, &after));
	assert_int_equal(0, before);
	assert_int_equal(1, after);
	assert_int_equal(0, pfsel_pam_counter_add(fd, +1, &before, &after));
	assert_int_equal(2, after);
	close(fd);
	assert_int_equal(2, read_count(f, 1001));

	fd = confirmed_lock(f->run_fd, 1001);
	assert_int_equal(0, pfsel_pam_counter_add(fd, -1, &before, &after));
	assert_int_equal(2, before);
	assert_int_equal(1, after);
	assert_int_equal(0, pfsel_pam_counter_add(fd, -1, &before, &after));
	assert_int_equal(1, before);
	assert_int_equal(0, after);
	close(fd);
	assert_int_equal(0, read_count(f, 1001));
}

/* A close with no open counted: stays 0, -ERANGE (no forget). */
static void test_underflow(void **state)
{
	struct fixture *f = *state;
	unsigned long before = 9, after = 9;
	int fd;

	fd = confirmed_lock(f->run_fd, 1002);
	assert_true(fd >= 0);
	assert_int_equal(-ERANGE,
			 pfsel_pam_counter_add(fd, -1, &before, &after));
	assert_int_equal(0, before);
	assert_int_equal(0, after);
	close(fd);
	assert_int_equal(0, read_count(f, 1002));
}

/* Each uid has its own. */
static void test_per_uid(void **state)
{
	struct fixture *f = *state;
	unsigned long before, after;
	int a, b;

	a = confirmed_lock(f->run_fd, 1001);
	b = confirmed_lock(f->run_fd, 1002);
	assert_true(a >= 0 && b >= 0);
	assert_int_equal(0, pfsel_pam_counter_add(a, +1, &before, &after));
	assert_int_equal(0, pfsel_pam_counter_add(b, +1, &before, &after));
	assert_int_equal(0, pfsel_pam_counter_add(b, +1, &before, &after));
	close(a);
	close(b);
	assert_int_equal(1, read_count(f, 1001));
	assert_int_equal(2, read_count(f, 1002));
}

/* Garbage in the file counts as 0 and is rewritten. */
static void test_garbage(void **state)
{
	struct fixture *f = *state;
	unsigned long before, after, n;
	int fd;

	fd = confirmed_lock(f->run_fd, 1003);
	assert_int_equal(3, pwrite(fd, "x7\n", 3, 0));
	assert_int_equal(-EBADMSG, pfsel_pam_counter_read(fd, &n));
	assert_int_equal(0, pfsel_pam_counter_add(fd, +1, &before, &after));
	assert_int_equal(0, before);
	assert_int_equal(1, after);
	assert_int_equal(0, pfsel_pam_counter_read(fd, &n));
	assert_int_equal(1, n);
	assert_int_equal(0, ftruncate(fd, 0));
	assert_int_equal(0, pfsel_pam_counter_read(fd, &n));
	assert_int_equal(0, n);
	close(fd);
}

/*
 * The lock: while one holds it, another cannot take it; 100 children
 * counting up and down at once end at 0 with none lost.
 */
static void test_lock_serialises(void **state)
{
	struct fixture *f = *state;
	unsigned long before, after;
	int fd, other, i, status;
	pid_t pids[100];

	fd = confirmed_lock(f->run_fd, 1004);
	assert_true(fd >= 0);
	other = openat(f->run_fd, "1004.sessions", O_RDWR | O_CLOEXEC);
	assert_true(other >= 0);
	assert_int_equal(-1, flock(other, LOCK_EX | LOCK_NB));
	assert_int_equal(EWOULDBLOCK, errno);
	close(fd);
	assert_int_equal(0, flock(other, LOCK_EX | LOCK_NB));
	close(other);

	for (i = 0; i < 100; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			int c = confirmed_lock(f->run_fd, 1004);

			if (c < 0 ||
			    pfsel_pam_counter_add(c, +1, &before, &after))
				_exit(1);
			close(c);
			c = confirmed_lock(f->run_fd, 1004);
			if (c < 0 ||
			    pfsel_pam_counter_add(c, +1, &before, &after))
				_exit(1);
			close(c);
			c = confirmed_lock(f->run_fd, 1004);
			if (c < 0 ||
			    pfsel_pam_counter_add(c, -1, &before, &after))
				_exit(1);
			close(c);
			_exit(0);
		}
	}
	for (i = 0; i < 100; i++) {
		assert_int_equal(pids[i], waitpid(pids[i], &status, 0));
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(100, read_count(f, 1004));
}

/* The counter is never followed through a symlink. */
static void test_counter_symlink(void **state)
{
	struct fixture *f = *state;
	char target[160];

	snprintf(target, sizeof(target), "%s/elsewhere", f->dir);
	assert_int_equal(0, symlinkat(target, f->run_fd, "1005.sessions"));
	assert_int_equal(-ELOOP, confirmed_lock(f->run_fd, 1005));
	assert_int_equal(-1, access(target, F_OK));
}

/* Folders: created 0700/0755, refused when group/world-writable or a link. */
static void test_open_dir(void **state)
{
	struct fixture *f = *state;
	char path[160], link[160];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/cache", f->dir);
	fd = store_open_dir(path, 0700);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(0, stat(path, &st));
	assert_int_equal(0700, st.st_mode & 07777);
	/* Opening again is fine. */
	fd = store_open_dir(path, 0700);
	assert_true(fd >= 0);
	close(fd);

	assert_int_equal(0, chmod(path, 0777));
	assert_int_equal(-EPERM, store_open_dir(path, 0700));
	assert_int_equal(0, chmod(path, 0720));
	assert_int_equal(-EPERM, store_open_dir(path, 0700));
	assert_int_equal(0, chmod(path, 0700));

	snprintf(link, sizeof(link), "%s/link", f->dir);
	assert_int_equal(0, symlink(path, link));
	assert_int_equal(-ENOTDIR, store_open_dir(link, 0700));

	snprintf(path, sizeof(path), "%s/file", f->dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));
	assert_true(store_open_dir(path, 0700) < 0);

	/* Only the last component is created. */
	snprintf(path, sizeof(path), "%s/a/b", f->dir);
	assert_int_equal(-ENOENT, store_open_dir(path, 0700));
}

/* Atomic writes: the whole new content, 0600, no temporary left. */
static void test_write_atomic(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	void *data = NULL;
	size_t len = 0;

	assert_int_equal(0,
			 store_write_atomic(f->run_fd, "x.pfsel", "first", 5));
	assert_int_equal(0,
			 store_write_atomic(f->run_fd, "x.pfsel", "second", 6));
	assert_int_equal(0,
			 store_read_at(f->run_fd, "x.pfsel", 100, &data, &len));
	assert_int_equal(6, len);
	assert_string_equal("second", data);
	free(data);
	assert_int_equal(0, fstatat(f->run_fd, "x.pfsel", &st, 0));
	assert_int_equal(0600, st.st_mode & 07777);
	assert_int_equal(-1, fstatat(f->run_fd, ".x.pfsel.tmp", &st, 0));
	assert_int_equal(-E2BIG,
			 store_read_at(f->run_fd, "x.pfsel", 5, &data, &len));
	assert_int_equal(-ENOENT,
			 store_read_at(f->run_fd, "none", 5, &data, &len));
	/* A symlink in the cache is not followed. */
	assert_int_equal(0, symlinkat("x.pfsel", f->run_fd, "y.pfsel"));
	assert_int_equal(-ELOOP,
			 store_read_at(f->run_fd, "y.pfsel", 100, &data, &len));
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* The header: magic, size, the uid, not the system policy. */
static void test_blob_check(void **state)
{
	unsigned char blob[64];
	uint8_t sum[PFSEL_DIGEST_SIZE], want[PFSEL_DIGEST_SIZE];

	(void)state;
	memset(blob, 0, sizeof(blob));
	put32(blob + offsetof(struct pfsel_policy_header, magic),
	      PFSEL_POLICY_MAGIC);
	put32(blob + offsetof(struct pfsel_policy_header, total_size), 64);
	put32(blob + offsetof(struct pfsel_policy_header, checksum),
	      0x8f31c2a0);
	put32(blob + offsetof(struct pfsel_policy_header, uid), 1001);
	assert_int_equal(0, policy_blob_check(blob, 64, 1001, sum));
	/* The digest is the SHA-256 of the bytes, not the header's CRC. */
	assert_int_equal(0, pfsel_policy_digest(blob, 64, want));
	assert_memory_equal(want, sum, sizeof(sum));
	assert_int_equal(-EPERM, policy_blob_check(blob, 64, 1002, NULL));
	assert_int_equal(-EBADMSG, policy_blob_check(blob, 63, 1001, NULL));
	assert_int_equal(-EBADMSG, policy_blob_check(blob, 16, 1001, NULL));
	put32(blob + offsetof(struct pfsel_policy_header, flags),
	      PFSEL_POLICY_F_SYSTEM);
	assert_int_equal(-EPERM, policy_blob_check(blob, 64, 1001, NULL));
	put32(blob + offsetof(struct pfsel_policy_header, flags), 0);
	blob[0] ^= 1;
	assert_int_equal(-EBADMSG, policy_blob_check(blob, 64, 1001, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_close_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_underflow, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_per_uid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_serialises, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_counter_symlink, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_atomic, setup,
						teardown),
		cmocka_unit_test(test_blob_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
