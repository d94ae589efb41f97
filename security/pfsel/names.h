/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel LSM - Names of the vocabulary, from uapi/pfsel_names.h
 */

#ifndef _SECURITY_PFSEL_NAMES_H
#define _SECURITY_PFSEL_NAMES_H

#include <linux/types.h>
#include <uapi/linux/pfsel.h>

#include "uapi/pfsel_policy.h"

extern const char *const pfsel_op_names[PFSEL_OP_COUNT];
extern const char *const pfsel_proto_names[PFSEL_PROTO_COUNT];
extern const char *const pfsel_verdict_names[PFSEL_VERDICT_COUNT];
extern const char *const pfsel_family_names[PFSEL_FAMILY_COUNT];
extern const char *const pfsel_slot_names[PFSEL_SLOT_COUNT];
extern const char *const pfsel_mode_names[PFSEL_MODE_ENFORCING + 1];
extern const char *const pfsel_refusal_names[PFSEL_REFUSAL_COUNT];

const char *pfsel_name_of(const char *const *names, u32 count, u32 value);
int pfsel_value_of(const char *const *names, u32 count, const char *name);

#endif /* _SECURITY_PFSEL_NAMES_H */
