// SPDX-License-Identifier: GPL-2.0
/*
 * selinux_load POLICY - load a binary SELinux policy and make SELinux
 * enforce it, as load_policy(8) and setenforce(8) do, through libselinux.
 *
 * The test VM's init runs it when the kernel command line says
 * pfsel_stack=selinux (tests/vm/mkinitramfs), with the policy compiled
 * from tests/vm/selinux/stack.cil.  It mounts selinuxfs on /sys/fs/selinux
 * first when nobody has, and prints the mode and its own context after.
 * Exit status: 0, or 1 with a message.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selinux/selinux.h>

/* Where selinuxfs goes (libselinux keeps its SELINUXMNT private). */
#define SELINUXFS "/sys/fs/selinux"

static int fail(const char *what)
{
	fprintf(stderr, "selinux_load: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct stat st;
	char *data, *context = NULL;
	size_t done = 0;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: selinux_load POLICY\n");
		return 2;
	}
	if (access(SELINUXFS "/enforce", F_OK) &&
	    mount("selinuxfs", SELINUXFS, "selinuxfs", MS_NOSUID | MS_NOEXEC,
		  NULL) &&
	    errno != EBUSY)
		return fail("mount selinuxfs on " SELINUXFS);
	/* libselinux looked for selinuxfs when it was loaded: tell it. */
	set_selinuxmnt(SELINUXFS);

	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return fail(argv[1]);
	data = malloc((size_t)st.st_size + 1);
	if (!data)
		return fail("malloc");
	while (done < (size_t)st.st_size &&
	       (n = read(fd, data + done, (size_t)st.st_size - done)) > 0)
		done += (size_t)n;
	close(fd);
	if (done != (size_t)st.st_size) {
		errno = EIO;
		return fail(argv[1]);
	}

	if (security_load_policy(data, done))
		return fail("security_load_policy");
	free(data);
	if (security_setenforce(1))
		return fail("security_setenforce(1)");
	if (security_getenforce() != 1) {
		errno = EPERM;
		return fail("still not enforcing");
	}
	if (getcon(&context))
		return fail("getcon");
	printf("selinux_load: %s loaded, enforcing; this process runs in %s\n",
	       argv[1], context);
	freecon(context);
	return 0;
}
