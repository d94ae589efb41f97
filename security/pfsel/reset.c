// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - One reset path for every cache of decisions
 *
 * Decisions are cached in several places, each for its own reason (see
 * docs/kernel-interface.md, "Caches").  When a policy or the mode changes,
 * every one of them must stop answering from the old state, and a cache
 * added later must not be forgotten in one of the places that change
 * state.  So, as SELinux resets its caches through avc_ss_reset(), every
 * change goes through pfsel_reset_caches(), and every cache is in the
 * table below: a reader sees all of them, and what each does, in one place.
 *
 * Two caches need no call: the per-CPU address and port classes
 * (classcache.c) and each application identity's classes (app.c) are keyed
 * by the generation of the policy they were computed in, and a generation
 * is never reused, so a new policy is their reset.
 */

#include "ask.h"
#include "avc.h"
#include "recent.h"
#include "reset.h"

/* Recent allows (recent.c): any change starts a new epoch. */
static void reset_recent(const struct pfsel_change *const change)
{
	pfsel_recent_invalidate();
}

/*
 * The access vector cache (avc.c): its entries carry the generation and
 * could not match again, but flushing returns their memory at once.  It
 * keeps policy decisions only, which the mode does not change.
 */
static void reset_avc(const struct pfsel_change *const change)
{
	if (change->kind == PFSEL_CHANGE_POLICY)
		pfsel_avc_flush();
}

/*
 * Kept answers (ask.c): those of the user whose policy changed, all of
 * them when the system policy did.  An answer stays an answer whatever
 * the mode.
 */
static void reset_answers(const struct pfsel_change *const change)
{
	if (change->kind != PFSEL_CHANGE_POLICY)
		return;
	pfsel_ask_flush(change->slot == PFSEL_SLOT_USER ? change->uid :
							  INVALID_UID);
}

static void (*const pfsel_cache_resets[])(const struct pfsel_change *) = {
	reset_avc,
	reset_answers,
	/* Last: a decision remembered meanwhile is of the new state. */
	reset_recent,
};

/**
 * pfsel_reset_caches - Make every cache forget what a change made stale
 *
 * @change: what changed; call it once the change is published.
 *
 * Never sleeps: callers may hold their own locks (the policy mutex, the
 * mode lock's successor).
 */
void pfsel_reset_caches(const struct pfsel_change *const change)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfsel_cache_resets); i++)
		pfsel_cache_resets[i](change);
}
