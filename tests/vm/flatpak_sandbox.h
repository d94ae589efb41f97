/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - what bubblewrap does for `flatpak run`, as a process
 * of pfuser1's in a user and mount namespace of its own
 * (pfsel_enter_userns(CLONE_NEWNS)) does it: a tmpfs as the new root, the
 * runtime (the VM's /usr and libraries) bound into it, the application's
 * files bound at /app by the test, pivot_root() into it and the old root
 * detached.  mountns_name_test and adv_fpname_test name Flatpak's
 * applications, and attack their names, in this shape.
 */
#ifndef PFSEL_FLATPAK_SANDBOX_H
#define PFSEL_FLATPAK_SANDBOX_H

#include "pfsel_test_util.h"

/* Binds @from at @sandbox's @to when @from is a folder: 0 or -1. */
static inline int flatpak_sandbox_bind_dir(const char *sandbox,
					   const char *from, const char *to)
{
	char at[PATH_MAX];
	struct stat st;

	if (lstat(from, &st) || !S_ISDIR(st.st_mode))
		return 0;
	snprintf(at, sizeof(at), "%s%s", sandbox, to);
	if (mkdir(at, 0755) && errno != EEXIST)
		return -1;
	return mount(from, at, NULL, MS_BIND | MS_REC, NULL);
}

/*
 * The namespace enters @disk_root first, a root pivot_root() can move,
 * as a booted system's is; then a tmpfs at @sandbox with the runtime
 * bound into it and a folder for the old root: 0 or -1.  The test then
 * binds what the application has, and calls flatpak_sandbox_pivot().
 */
static inline int flatpak_sandbox_begin(const char *disk_root,
					const char *sandbox)
{
	static const char *const runtime[] = { "/usr", "/lib", "/lib64",
					       "/bin" };
	char oldroot[PATH_MAX];
	size_t i;

	snprintf(oldroot, sizeof(oldroot), "%s/oldroot", sandbox);
	if (mount("/", disk_root, NULL, MS_BIND | MS_REC, NULL) ||
	    chdir(disk_root) || mount(disk_root, "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || chdir("/") ||
	    mount("tmpfs", sandbox, "tmpfs", 0, "mode=0755") ||
	    mkdir(oldroot, 0755))
		return -1;
	for (i = 0; i < sizeof(runtime) / sizeof(runtime[0]); i++)
		if (flatpak_sandbox_bind_dir(sandbox, runtime[i], runtime[i]))
			return -1;
	return 0;
}

/* pivot_root() into @sandbox, the old root detached: 0 or -1. */
static inline int flatpak_sandbox_pivot(const char *sandbox)
{
	char oldroot[PATH_MAX];

	snprintf(oldroot, sizeof(oldroot), "%s/oldroot", sandbox);
	if (syscall(SYS_pivot_root, sandbox, oldroot) || chdir("/") ||
	    umount2("/oldroot", MNT_DETACH))
		return -1;
	return 0;
}

#endif /* PFSEL_FLATPAK_SANDBOX_H */
