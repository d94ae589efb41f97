/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kshim - <linux/slab.h>: kmalloc and kvmalloc families on top of malloc.
 * The GFP flags are accepted and ignored, except __GFP_ZERO.
 */
#ifndef PFSEL_KSHIM_LINUX_SLAB_H
#define PFSEL_KSHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/types.h>

#define __GFP_ZERO 0x100u
#define GFP_KERNEL 0x1u
#define GFP_KERNEL_ACCOUNT 0x2u
#define GFP_ATOMIC 0x4u

static inline void *kmalloc(size_t size, gfp_t flags)
{
	if (flags & __GFP_ZERO)
		return calloc(1, size ? size : 1);
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kmalloc(n * size, flags);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvmalloc kmalloc
#define kvzalloc kzalloc
#define kvmalloc_array kmalloc_array
#define kvcalloc kcalloc
#define kvfree kfree

#endif /* PFSEL_KSHIM_LINUX_SLAB_H */
