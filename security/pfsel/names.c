// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - Names of the vocabulary
 *
 * The tables of uapi/pfsel_names.h made into arrays of names, for the audit
 * record, the check file, the policies and status files: the kernel spells
 * no operation, protocol, verdict, family, policy, mode or refusal itself.  Each
 * array is indexed with PFSEL_CHECKED_INDEX(): an entry of a table out of
 * order, which would change the ABI, fails to build.
 */

#include <linux/errno.h>
#include <linux/string.h>

#include "names.h"

const char *const pfsel_op_names[PFSEL_OP_COUNT] = {
#define PFSEL_OP(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_OP
};

const char *const pfsel_proto_names[PFSEL_PROTO_COUNT] = {
#define PFSEL_PROTO(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_PROTO
};

const char *const pfsel_verdict_names[PFSEL_VERDICT_COUNT] = {
#define PFSEL_VERDICT(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_VERDICT
};

const char *const pfsel_family_names[PFSEL_FAMILY_COUNT] = {
#define PFSEL_FAMILY(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_FAMILY
};

const char *const pfsel_slot_names[PFSEL_SLOT_COUNT] = {
#define PFSEL_SLOT(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_SLOT
};

const char *const pfsel_mode_names[PFSEL_MODE_ENFORCING + 1] = {
#define PFSEL_MODE(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_MODE
};

const char *const pfsel_refusal_names[PFSEL_REFUSAL_COUNT] = {
#define PFSEL_REFUSAL(id, name, value) \
	[PFSEL_CHECKED_INDEX(id, value)] = (name),
#include "uapi/pfsel_names.h"
#undef PFSEL_REFUSAL
};

/**
 * pfsel_name_of - The name of a value
 * @names: one of the arrays above.
 * @count: its size.
 * @value: the value.
 *
 * Return: its name, or "?" for a value without one.
 */
const char *pfsel_name_of(const char *const *const names, const u32 count,
			  const u32 value)
{
	return value < count && names[value] ? names[value] : "?";
}

/**
 * pfsel_value_of - The value of a name
 * @names: one of the arrays above.
 * @count: its size.
 * @name: the name.
 *
 * Return: its value, or -EINVAL for a name not in @names.
 */
int pfsel_value_of(const char *const *const names, const u32 count,
		   const char *const name)
{
	u32 i;

	for (i = 0; i < count; i++)
		if (names[i] && !strcmp(names[i], name))
			return i;
	return -EINVAL;
}
