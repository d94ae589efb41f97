/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - a FUSE file system of one file, served raw on
 * /dev/fuse (no libfuse in the VM) by a child of a process of the user's
 * in a user and mount namespace of its own: the file system an attacker
 * mounts for itself.  userns_test serves the denied program under
 * netprobe's name; adv_scriptfix2_test a file whose page reads wait for
 * the attacker's word.  The server answers what a lookup, an open, an
 * exec or a mapping, and their page reads, ask; anything else ENOSYS.
 */
#ifndef PFSEL_FUSE_SERVER_H
#define PFSEL_FUSE_SERVER_H

#include <linux/fuse.h>
#include <sys/uio.h>

#include "pfsel_test_util.h"

/* The file's node; the root, a folder, is FUSE_ROOT_ID. */
#define FUSE_FILE_NODE 2
/* The most a read asks (max_write, and a bound on the kernel's reads). */
#define FUSE_SERVER_MAX_WRITE 65536

/* The one file, in the root of the file system. */
struct fuse_file {
	const char *name;
	mode_t mode; /* its permission bits; owner the mounter's root */
	size_t size;
	/* The file's bytes, which a read gets when @read is NULL. */
	const void *data;
	/*
	 * Else, in the server, the answer to a read of @len bytes at
	 * @offset: points *@reply at its bytes and returns their count; or
	 * returns -1 to stop serving, the read left unanswered.
	 */
	ssize_t (*read)(const struct fuse_file *file, uint64_t offset,
			size_t len, const void **reply);
	/* No read-ahead (max_readahead 0): a page faulted, one read. */
	bool no_readahead;
};

static inline void fuse_server_reply(int fd, uint64_t unique, int error,
				     const void *arg, size_t len)
{
	struct fuse_out_header out = {
		.len = (uint32_t)(sizeof(out) + len),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = { { &out, sizeof(out) }, { (void *)arg, len } };

	if (writev(fd, iov, len ? 2 : 1) < 0)
		fprintf(stderr, "fuse_server: reply: %s\n", strerror(errno));
}

static inline void fuse_server_attr(const struct fuse_file *file, uint64_t node,
				    struct fuse_attr *attr)
{
	const bool root = node == FUSE_ROOT_ID;

	memset(attr, 0, sizeof(*attr));
	attr->ino = node;
	attr->mode = root ? S_IFDIR | 0755 : S_IFREG | file->mode;
	attr->nlink = root ? 2 : 1;
	attr->size = root ? 0 : file->size;
	attr->blocks = (attr->size + 511) / 512;
	attr->blksize = 4096;
	/* uid and gid 0 of the mounter's user namespace: the user. */
}

/* @file's bytes from @offset, at most @len of them. */
static inline ssize_t fuse_server_data(const struct fuse_file *file,
				       uint64_t offset, size_t len,
				       const void **reply)
{
	const size_t from = offset < file->size ? offset : file->size;
	const size_t n = file->size - from;

	*reply = (const char *)file->data + from;
	return (ssize_t)(n < len ? n : len);
}

/* Serves @file on the /dev/fuse descriptor @fd until the connection goes. */
static inline void fuse_serve(int fd, const struct fuse_file *file)
{
	static char buf[FUSE_SERVER_MAX_WRITE + 64 * 1024];
	const struct fuse_in_header *in = (void *)buf;
	const void *arg = in + 1;
	ssize_t len;

	for (;;) {
		len = read(fd, buf, sizeof(buf));
		if (len < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (len < (ssize_t)sizeof(*in))
			return;
		switch (in->opcode) {
		case FUSE_INIT: {
			const struct fuse_init_in *init = arg;
			struct fuse_init_out out = {
				.major = FUSE_KERNEL_VERSION,
				.minor = 31,
				.max_readahead = file->no_readahead ?
							 0 :
							 init->max_readahead,
				.max_background = 16,
				.congestion_threshold = 12,
				.max_write = FUSE_SERVER_MAX_WRITE,
				.time_gran = 1,
			};

			fuse_server_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out out = {
				.nodeid = FUSE_FILE_NODE,
				.generation = 1,
			};

			if (in->nodeid != FUSE_ROOT_ID ||
			    strcmp(arg, file->name) != 0) {
				fuse_server_reply(fd, in->unique, -ENOENT, NULL,
						  0);
				break;
			}
			fuse_server_attr(file, FUSE_FILE_NODE, &out.attr);
			fuse_server_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out out = { 0 };

			fuse_server_attr(file, in->nodeid, &out.attr);
			fuse_server_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_OPEN:
		case FUSE_OPENDIR: {
			struct fuse_open_out out = { 0 };

			fuse_server_reply(fd, in->unique, 0, &out, sizeof(out));
			break;
		}
		case FUSE_READ: {
			const struct fuse_read_in *read_in = arg;
			const void *reply;
			ssize_t n;

			if (file->read)
				n = file->read(file, read_in->offset,
					       read_in->size, &reply);
			else
				n = fuse_server_data(file, read_in->offset,
						     read_in->size, &reply);
			if (n < 0)
				return;
			fuse_server_reply(fd, in->unique, 0, reply, (size_t)n);
			break;
		}
		case FUSE_FLUSH:
		case FUSE_RELEASE:
		case FUSE_RELEASEDIR:
			fuse_server_reply(fd, in->unique, 0, NULL, 0);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break; /* no reply */
		default:
			fuse_server_reply(fd, in->unique, -ENOSYS, NULL, 0);
		}
	}
}

/*
 * Mounts a FUSE file system of @file on @dir (named @source), in the
 * caller's mount namespace, whose user namespace's root is its owner,
 * and serves it from a child: the child's pid, or -1 (errno set).
 */
static inline pid_t fuse_server_start(const char *source, const char *dir,
				      const struct fuse_file *file)
{
	char options[128];
	pid_t server = -1;
	int fd, err;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(options, sizeof(options),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0", fd);
	if (!mount(source, dir, "fuse", MS_NOSUID | MS_NODEV, options)) {
		server = fork();
		if (server == 0) {
			fuse_serve(fd, file);
			_exit(0);
		}
	}
	err = errno;
	close(fd);
	errno = err;
	return server;
}

/* Stops the server @server started by fuse_server_start(). */
static inline void fuse_server_stop(pid_t server)
{
	kill(server, SIGKILL);
	pfsel_wait_status(server);
}

#endif /* PFSEL_FUSE_SERVER_H */
