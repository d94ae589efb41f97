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
 * What an allowed load costs, and the control of the flood: root's write
 * of the same blob, from a memory cgroup of its own (cgroup2, mounted
 * here if the VM has not), is copied whole -- the cgroup's memory.peak
 * grows by 64 MiB -- then refused by the policy reader, and the memory
 * comes back; from a cgroup whose memory.max is 32 MiB the same write
 * fails with ENOMEM, with no OOM kill.  And one load at a time: while
 * root's load of a blob whose second page userfaultfd holds back waits
 * in the kernel's copy, another load of root's waits too (in the
 * kernel, uninterruptibly), and finishes once the first does.
 *
 * Needs root (to run the writers as pfuser1, to make cgroups, and to read
 * the kernel log): as anyone else the test is skipped.
 */

#define _GNU_SOURCE
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
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

/*
 * A blob of @size bytes, untouched but for its header, which names
 * pfuser1 and says @size: the zero pages after it cost nothing until a
 * writer copies them.  NULL when it cannot be mapped.
 */
static void *header_only_blob(size_t size)
{
	struct pfsel_policy_header *hdr;
	void *blob = mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (blob == MAP_FAILED)
		return NULL;
	hdr = blob;
	hdr->magic = htole32(PFSEL_POLICY_MAGIC);
	hdr->version = htole32(PFSEL_POLICY_VERSION);
	hdr->total_size = htole32((uint32_t)size);
	hdr->uid = htole32(PFSEL_UID1);
	return blob;
}

/* pfuser1's process: WRITERS threads writing at once.  Its exit status. */
static int flood_main(void *arg)
{
	struct flood *f = arg;
	struct thread_arg args[WRITERS];
	pthread_t tids[WRITERS];
	void *blob;
	int i;

	blob = header_only_blob(BLOB_SIZE);
	if (!blob)
		return 2;
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

/* MemAvailable (kB) once the caches are dropped: what the kernel could give. */
static long long mem_available(void)
{
	char out[256];

	pfsel_sh(out, sizeof(out), "sync; echo 3 >/proc/sys/vm/drop_caches");
	return proc_value("/proc/meminfo", "MemAvailable");
}

/*
 * What a test's writes took came back (MemAvailable within SLACK_KB of
 * @avail_before), and no policy was loaded for pfuser1.
 */
static void expect_memory_back(struct __test_metadata *const _metadata,
			       long long avail_before)
{
	long long avail_after;

	usleep(500 * 1000);
	avail_after = mem_available();
	TH_LOG("MemAvailable: %lld kB before, %lld kB after", avail_before,
	       avail_after);
	EXPECT_LE(avail_before - SLACK_KB, avail_after);
	EXPECT_FALSE(pfsel_uid_loaded(PFSEL_UID1));
}

/* Lines of the kernel log that speak of the OOM killer. */
static int oom_lines(char *out, size_t size)
{
	int status = pfsel_sh(out, size,
			      "dmesg | grep -iE 'out of memory|oom-kill|invoked oom-killer'");

	return status == 0 ? 1 : 0;
}

/* What the policy reader says of a blob that is all zero after its header. */
static bool reader_refusal(int err)
{
	return err == EINVAL || err == EBADMSG;
}

/* ---- a memory cgroup of the writer's own ---------------------------------- */

#define CGROUP_ROOT "/sys/fs/cgroup"

/*
 * The cgroup2 hierarchy with its memory controller given to the root's
 * children, cgroup2 mounted first if the VM has not: 0, or why not.
 */
static const char *memory_controller_ready(void)
{
	char text[512];

	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
		return "cgroup2 cannot be mounted on " CGROUP_ROOT;
	if (pfsel_read_file(CGROUP_ROOT "/cgroup.controllers", text,
			    sizeof(text)) < 0 ||
	    !strstr(text, "memory"))
		return "no memory controller (a kernel without CONFIG_MEMCG)";
	if (pfsel_write_file(CGROUP_ROOT "/cgroup.subtree_control", "+memory"))
		return "the memory controller cannot be enabled";
	return NULL;
}

/* A new cgroup @path whose memory.max is @max (bytes): 0, or errno. */
static int cgroup_make(const char *path, unsigned long long max)
{
	char file[PATH_MAX], value[32];

	rmdir(path);
	if (mkdir(path, 0755))
		return errno;
	snprintf(file, sizeof(file), "%s/memory.max", path);
	snprintf(value, sizeof(value), "%llu", max);
	return pfsel_write_file(file, value);
}

/*
 * A number of cgroup @path's file @name: the file's first number
 * ("memory.peak"), or that of the line "@key N" ("memory.events"); -1.
 */
static long long cgroup_value(const char *path, const char *name,
			      const char *key)
{
	char file[PATH_MAX];

	snprintf(file, sizeof(file), "%s/%s", path, name);
	if (!key) {
		char text[64];

		return pfsel_read_file(file, text, sizeof(text)) > 0 ?
			       strtoll(text, NULL, 10) :
			       -1;
	}
	return proc_value(file, key);
}

/* A root writer's load of the 64 MiB blob, from inside cgroup @arg. */
static int cgroup_load_main(void *arg)
{
	char procs[PATH_MAX];
	void *blob;
	int fd, err;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", (const char *)arg);
	if (pfsel_write_file(procs, "0"))
		return 124;
	blob = header_only_blob(BLOB_SIZE);
	fd = pfsel_load_open();
	if (!blob || fd < 0)
		return 125;
	err = -pfsel_load_buffer_fd(fd, blob, BLOB_SIZE);
	close(fd);
	return err;
}

/*
 * Root's write of the 64 MiB blob from a new cgroup @path whose
 * memory.max is @max: the write's errno (0: loaded), its cgroup's
 * memory.peak in @peak (bytes), how often it hit memory.max, and how
 * many processes the OOM killer killed in it (memory.events).
 */
static int load_in_cgroup(struct __test_metadata *const _metadata,
			  const char *path, unsigned long long max,
			  long long *peak, long long *max_events,
			  long long *oom_kills)
{
	int err;

	EXPECT_EQ(0, cgroup_make(path, max));
	err = pfsel_run_as(0, cgroup_load_main, (void *)path);
	*peak = cgroup_value(path, "memory.peak", NULL);
	*max_events = cgroup_value(path, "memory.events", "max");
	*oom_kills = cgroup_value(path, "memory.events", "oom_kill");
	TH_LOG("in %s (memory.max %llu MiB): %s; memory.peak %lld KiB, max events %lld, OOM kills %lld",
	       path, max >> 20, err ? strerror(err) : "loaded", *peak >> 10,
	       *max_events, *oom_kills);
	EXPECT_EQ(0, rmdir(path));
	return err;
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
	long long oom_before, oom_after, avail_before, slowest = 0;
	char log[4096], line[512];
	struct flood *f;
	int i, status, failed_ok = 0;
	pid_t pid;

	ASSERT_EQ(0, oom_lines(log, sizeof(log)))
	{
		TH_LOG("the OOM killer ran before this test: %s", log);
	}
	oom_before = proc_value("/proc/vmstat", "oom_kill");
	avail_before = mem_available();
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

	expect_memory_back(_metadata, avail_before);
	munmap(f, sizeof(*f));
}

/*
 * The control of the flood: a write that may load is copied whole before
 * the reader refuses it -- root's write of the same blob, charged to its
 * memory cgroup, whose memory.peak grows by the 64 MiB -- and the memory
 * comes back.  From a cgroup whose memory.max is below the blob, the same
 * write fails with ENOMEM, and nothing is killed.
 */
TEST_F_TIMEOUT(load_flood, root_load_is_copied_and_charged, 300)
{
	const char *const why = memory_controller_ready();
	long long peak, max_events, oom_kills, avail_before;
	char log[4096];
	int err;

	ASSERT_EQ(NULL, why)
	{
		TH_LOG("%s", why);
	}
	avail_before = mem_available();

	err = load_in_cgroup(_metadata, CGROUP_ROOT "/pfsel-load-room",
			     256ull << 20, &peak, &max_events, &oom_kills);
	EXPECT_TRUE(reader_refusal(err))
	{
		TH_LOG("root's 64 MiB write: %s, not the reader's refusal",
		       err ? strerror(err) : "loaded");
	}
	EXPECT_LE((long long)BLOB_SIZE, peak);
	EXPECT_EQ(0, max_events);
	EXPECT_EQ(0, oom_kills);

	err = load_in_cgroup(_metadata, CGROUP_ROOT "/pfsel-load-small",
			     32ull << 20, &peak, &max_events, &oom_kills);
	EXPECT_EQ(ENOMEM, err);
	EXPECT_GT((long long)BLOB_SIZE, peak);
	EXPECT_LT(0, max_events);
	EXPECT_EQ(0, oom_kills);

	expect_memory_back(_metadata, avail_before);
	EXPECT_EQ(0, oom_lines(log, sizeof(log)));
}

/* ---- one load at a time ---------------------------------------------------- */

/* How long the second load is watched while the first is held. */
#define HELD_MS 1500
/* "At once", for a small policy's load on a debug kernel under TCG. */
#define LOAD_MS 3000

/* A load in a thread of its own, timed. */
struct timed_load {
	const void *blob;
	size_t size;
	pid_t tid;
	long long start_ms, end_ms;
	int done; /* set (atomic) once err is */
	int err;
};

static void *timed_load_main(void *arg)
{
	struct timed_load *t = arg;
	const int fd = pfsel_load_open();

	t->tid = (pid_t)syscall(SYS_gettid);
	t->start_ms = pfsel_now_ms();
	t->err = fd < 0 ? -fd : -pfsel_load_buffer_fd(fd, t->blob, t->size);
	t->end_ms = pfsel_now_ms();
	if (fd >= 0)
		close(fd);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool load_done(struct timed_load *t)
{
	return __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);
}

/* The state letter of thread @tid of this process (/proc's stat), or '?'. */
static char thread_state(pid_t tid)
{
	char path[64], stat[512];
	const char *end;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	if (pfsel_read_file(path, stat, sizeof(stat)) < 0)
		return '?';
	end = strrchr(stat, ')');
	return end && end[1] == ' ' ? end[2] : '?';
}

/*
 * A userfaultfd that holds back the second page of the 2-page @area
 * (registered for missing pages): its descriptor, or -errno.
 */
static int hold_second_page(void *area, long page)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (unsigned long)area + page, .len = page },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	const int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	int err;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, UFFDIO_API, &api) || ioctl(fd, UFFDIO_REGISTER, &reg)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* Wait up to @ms for a fault on @uffd: its address, or 0. */
static unsigned long long fault_address(int uffd, int ms)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, ms) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return 0;
	return msg.arg.pagefault.address;
}

/*
 * Root's first load stops inside the kernel's copy of its blob (its
 * second page not there yet: userfaultfd); root's second load, of a small
 * valid policy, which alone finishes at once (the control), then waits --
 * in the kernel, uninterruptibly ('D') -- until the first has finished:
 * one load at a time, so at most one blob's copy in memory.
 */
TEST_F_TIMEOUT(load_flood, loads_are_one_at_a_time, 120)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct timed_load first = { 0 }, second = { 0 };
	struct uffdio_zeropage zero = { 0 };
	unsigned long long fault;
	pthread_t first_thread, second_thread;
	char wchan[128], path[64];
	void *valid = NULL;
	ssize_t valid_size;
	int uffd;

	valid_size = pfsel_policy_blob("trust_1001", &valid);
	ASSERT_LT(0, valid_size);
	second.blob = valid;
	second.size = (size_t)valid_size;

	/* The control: alone, the second load finishes at once. */
	timed_load_main(&second);
	EXPECT_EQ(0, second.err);
	EXPECT_GT(LOAD_MS, second.end_ms - second.start_ms);
	ASSERT_EQ(0, pfsel_unload_uid(PFSEL_UID1));
	second.done = 0;

	first.size = 2 * (size_t)page;
	first.blob = header_only_blob(first.size);
	ASSERT_NE(NULL, first.blob);
	uffd = hold_second_page((void *)first.blob, page);
	ASSERT_LE(0, uffd)
	{
		TH_LOG("userfaultfd: %s", strerror(-uffd));
	}
	ASSERT_EQ(0, pthread_create(&first_thread, NULL, timed_load_main,
				    &first));
	fault = fault_address(uffd, LOAD_MS);
	EXPECT_EQ((unsigned long long)first.blob + page, fault & ~(page - 1ull))
	{
		TH_LOG("the first load did not stop in its copy (fault at %#llx)",
		       fault);
	}

	ASSERT_EQ(0, pthread_create(&second_thread, NULL, timed_load_main,
				    &second));
	usleep(HELD_MS * 1000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan",
		 (int)second.tid);
	TH_LOG("the second load after %d ms: %s, state %c, in %s", HELD_MS,
	       load_done(&second) ? "done" : "waiting",
	       thread_state(second.tid),
	       pfsel_read_text(path, wchan, sizeof(wchan)));
	EXPECT_FALSE(load_done(&second));
	EXPECT_EQ('D', thread_state(second.tid));

	/* The page arrives: the first load goes on, and then the second. */
	zero.range.start = (unsigned long)first.blob + page;
	zero.range.len = page;
	EXPECT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	pthread_join(first_thread, NULL);
	pthread_join(second_thread, NULL);
	close(uffd);
	TH_LOG("first: %s after %lld ms; second: %s after %lld ms",
	       strerror(first.err), first.end_ms - first.start_ms,
	       second.err ? strerror(second.err) : "loaded",
	       second.end_ms - second.start_ms);
	EXPECT_TRUE(reader_refusal(first.err));
	EXPECT_EQ(0, second.err);
	EXPECT_LE(HELD_MS, second.end_ms - second.start_ms);
	EXPECT_LE(first.end_ms, second.end_ms);
	EXPECT_TRUE(pfsel_uid_loaded(PFSEL_UID1));
	munmap((void *)first.blob, first.size);
	free(valid);
}

TEST_HARNESS_MAIN
