// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - One reset path for every cache of decisions
 *
 * Decisions are cached in several places, each for its own reason (see
 * docs/kernel-interface.md, "Caches"), and what the kernel learned of
 * host names is kept by the trust of the system policy that named the
 * resolvers.  When a policy or the mode changes, every one of them must
 * stop answering from the old state, and a cache added later must not be
 * forgotten in one of the places that change state.  So, as SELinux
 * resets its caches through avc_ss_reset(), every change goes through
 * pfsel_reset_caches() (change.c), and every cache is in the table below:
 * a reader sees all of them, and what each does, in one place.
 *
 * Three need no call: the per-CPU address and port classes (classcache.c)
 * and each application identity's classes (app.c) are keyed by the
 * generation of the policy they were computed in, and a generation is
 * never reused, so a new policy is their reset; and the DNS queries the
 * resolvers await (queries.c) teach nothing of themselves: an answer to
 * one is learned only if the resolver is trusted when it comes.
 */

#include "answers.h"
#include "avc.h"
#include "recent.h"
#include "reset.h"
#include "resolver.h"

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
 * Kept answers (answers.c): those of the user whose policy changed, all
 * of them when the system policy did.  An answer stays an answer whatever
 * the mode.
 */
static void reset_answers(const struct pfsel_change *const change)
{
	if (change->kind != PFSEL_CHANGE_POLICY)
		return;
	pfsel_answers_flush(change->slot == PFSEL_SLOT_USER ? change->uid :
							      INVALID_UID);
}

/*
 * The resolver list (resolver.c): the hooks that learn host names run
 * only while the system policy names resolvers.
 */
static void reset_resolvers(const struct pfsel_change *const change)
{
	if (change->kind == PFSEL_CHANGE_POLICY &&
	    change->slot == PFSEL_SLOT_SYSTEM)
		pfsel_resolver_follow_policy();
}

/*
 * Host names (hostmap.c): what a resolver taught goes with the load that
 * stops trusting it.  A system policy judges every resolver again; a
 * user's policy those run as that user (whose programs it now makes the
 * user's, or no longer).  Host rules match the names of the new state
 * only: the AVC keeps decisions by name class, never by name.
 */
static void reset_hosts(const struct pfsel_change *const change)
{
	if (change->kind != PFSEL_CHANGE_POLICY)
		return;
	pfsel_resolver_forget_untrusted(change->slot == PFSEL_SLOT_USER ?
						change->uid :
						INVALID_UID);
}

static void (*const pfsel_cache_resets[])(const struct pfsel_change *) = {
	reset_avc,
	reset_answers,
	reset_resolvers,
	reset_hosts,
	/* Last: a decision remembered meanwhile is of the new state. */
	reset_recent,
};

/**
 * pfsel_reset_caches - Make every cache forget what a change made stale
 *
 * @change: what changed; call it once the change is published.
 *
 * Process context: turning the learning hooks on or off patches code,
 * and sleeps.  Each cache takes its own locks.
 */
void pfsel_reset_caches(const struct pfsel_change *const change)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pfsel_cache_resets); i++)
		pfsel_cache_resets[i](change);
}
