// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel VM tests - loads cannot exhaust memory (issue 13, "Loads cannot
 * exhaust memory"; docs/kernel-interface.md, "load").
 *
 * 16 threads of pfuser1, each with a descriptor of `load` it opened
 * itself, each pwrite() 64 MiB (PFSEL_POLICY_MAX_SIZE) at once: a blob
 * whose header names pfuser1 and says 64 MiB, the rest zero (the buffer
 * costs the writer nothing: untouched pages read as the zero page).  A
 * kernel that copies the whole blob before it checks anything holds 16
 * (or 32) copies of 64 MiB in a 2 GiB VM.
 *
 * Every write must fail, at once, with EPERM (the writer may not load) or
 * E2BIG; no process may be killed by the OOM killer (/proc/vmstat's
 * oom_kill, the kernel log); and the memory must come back.
 *
 * Needs root (to run the writers as pfuser1 and read the kernel log): as
 * anyone else the test is skipped.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>

#include "pfsel_test_util.h"

#include "kselftest_harness.h"

#define WRITERS 16
#define BLOB_SIZE (64u << 20)
/* "At once", for a check of a header on a debug kernel under TCG. */
#define QUICK_MS 1000
/* How much less memory may be available after than before. */
#define SLACK_KB (48 << 10)

struct writer {
	int err; /* the write's errno; 0 if it succeeded */
	long long elapsed_ms;
};

struct flood {
	pthread_barrier_t barrier;
	const void *blob;
	struct writer w[WRITERS];
};

struct thread_arg {
	struct flood *f;
	int i;
};

static void *writer_main(void *arg)
{
	const struct thread_arg *ta = arg;
	struct writer *w = &ta->f->w[ta->i];
	long long start;
	int fd, ret;

	/* Opened first, written at once: each write() is the load itself. */
	fd = pfsel_load_open();
	pthread_barrier_wait(&ta->f->barrier);
	if (fd < 0) {
		w->err = -fd;
		return NULL;
	}
	start = pfsel_now_ms();
	ret = pfsel_load_buffer_fd(fd, ta->f->blob, BLOB_SIZE);
	w->elapsed_ms = pfsel_now_ms() - start;
	w->err = -ret;
	close(fd);
	return NULL;
}

/* pfuser1's process: WRITERS threads writing at once.  Its exit status. */
static int flood_main(void *arg)
{
	struct flood *f = arg;
	struct pfsel_policy_header *hdr;
	struct thread_arg args[WRITERS];
	pthread_t tids[WRITERS];
	void *blob;
	int i;

	blob = mmap(NULL, BLOB_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (blob == MAP_FAILED)
		return 2;
	hdr = blob;
	hdr->magic = htole32(PFSEL_POLICY_MAGIC);
	hdr->version = htole32(PFSEL_POLICY_VERSION);
	hdr->total_size = htole32(BLOB_SIZE);
	hdr->uid = htole32(PFSEL_UID1);
	f->blob = blob;
	for (i = 0; i < WRITERS; i++) {
		args[i] = (struct thread_arg){ .f = f, .i = i };
		if (pthread_create(&tids[i], NULL, writer_main, &args[i]))
			return 3;
	}
	for (i = 0; i < WRITERS; i++)
		pthread_join(tids[i], NULL);
	return 0;
}

/* A number from a "NAME VALUE" file (/proc/vmstat) or "NAME: VALUE kB". */
static long long proc_value(const char *path, const char *name)
{
	char line[256];
	const size_t len = strlen(name);
	long long value = -1;
	FILE *file = fopen(path, "re");

	if (!file)
		return -1;
	while (fgets(line, sizeof(line), file)) {
		if (strncmp(line, name, len) == 0 &&
		    (line[len] == ' ' || line[len] == ':')) {
			value = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(file);
	return value;
}

/* Lines of the kernel log that speak of the OOM killer. */
static int oom_lines(char *out, size_t size)
{
	int status = pfsel_sh(out, size,
			      "dmesg | grep -iE 'out of memory|oom-kill|invoked oom-killer'");

	return status == 0 ? 1 : 0;
}

FIXTURE(load_flood) {};

FIXTURE_SETUP(load_flood)
{
	if (geteuid() != 0)
		SKIP(return, "running the writers as pfuser1 and reading the kernel log need root");
	pfsel_reset();
}

FIXTURE_TEARDOWN(load_flood)
{
	if (geteuid() == 0)
		pfsel_reset();
}

TEST_F_TIMEOUT(load_flood, concurrent_64mib_loads_of_a_user, 600)
{
	pthread_barrierattr_t attr;
	long long oom_before, oom_after, avail_before, avail_after, slowest = 0;
	char log[4096], line[512];
	struct flood *f;
	int i, status, failed_ok = 0;
	pid_t pid;

	ASSERT_EQ(0, oom_lines(log, sizeof(log)))
	{
		TH_LOG("the OOM killer ran before this test: %s", log);
	}
	oom_before = proc_value("/proc/vmstat", "oom_kill");
	pfsel_sh(log, sizeof(log), "sync; echo 3 >/proc/sys/vm/drop_caches");
	avail_before = proc_value("/proc/meminfo", "MemAvailable");
	ASSERT_LE(0, avail_before);

	f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, f);
	memset(f, 0, sizeof(*f));
	for (i = 0; i < WRITERS; i++)
		f->w[i].err = -1;
	pthread_barrierattr_init(&attr);
	pthread_barrierattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&f->barrier, &attr, WRITERS);

	pid = pfsel_start_as(PFSEL_UID1, flood_main, f);
	ASSERT_LE(0, pid);
	status = pfsel_wait_status(pid);

	for (i = 0; i < WRITERS; i++) {
		const struct writer *w = &f->w[i];

		if (w->elapsed_ms > slowest)
			slowest = w->elapsed_ms;
		if (w->err == EPERM || w->err == E2BIG)
			failed_ok++;
		else
			TH_LOG("writer %d: %s after %lld ms", i,
			       w->err < 0  ? "did not write" :
			       w->err == 0 ? "loaded 64 MiB" :
					     strerror(w->err),
			       w->elapsed_ms);
	}
	TH_LOG("%d of %d writes failed with EPERM or E2BIG; the slowest took %lld ms",
	       failed_ok, WRITERS, slowest);
	EXPECT_EQ(0, status)
	{
		TH_LOG("the writers' process ended with status %d%s", status,
		       status == 128 + SIGKILL ? " (SIGKILL: the OOM killer?)" :
						 "");
	}
	EXPECT_EQ(WRITERS, failed_ok);
	EXPECT_GT(QUICK_MS, slowest);

	oom_after = proc_value("/proc/vmstat", "oom_kill");
	EXPECT_EQ(oom_before, oom_after)
	{
		TH_LOG("the OOM killer killed %lld processes",
		       oom_after - oom_before);
	}
	EXPECT_EQ(0, oom_lines(log, sizeof(log)))
	{
		snprintf(line, sizeof(line), "%.400s", log);
		TH_LOG("kernel log: %s", line);
	}

	/* The memory comes back. */
	usleep(500 * 1000);
	pfsel_sh(log, sizeof(log), "sync; echo 3 >/proc/sys/vm/drop_caches");
	avail_after = proc_value("/proc/meminfo", "MemAvailable");
	TH_LOG("MemAvailable: %lld kB before, %lld kB after", avail_before,
	       avail_after);
	EXPECT_LE(avail_before - SLACK_KB, avail_after);
	/* No policy was loaded for pfuser1. */
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
	munmap(f, sizeof(*f));
}

TEST_HARNESS_MAIN
