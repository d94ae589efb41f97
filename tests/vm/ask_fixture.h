/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfsel VM tests - the fixture "ask" that ask_test and ask_bad_input_test
 * share: up to three agent children (ask_harness.h) a test starts, none
 * registered before it, and all killed after it.
 */

#ifndef PFSEL_ASK_FIXTURE_H
#define PFSEL_ASK_FIXTURE_H

#include "pfsel_test_util.h"
#include "ask_harness.h"

#include "kselftest_harness.h"

FIXTURE(ask)
{
	struct agent agent[3];
};

FIXTURE_SETUP(ask)
{
	long long agents;

	memset(self, 0, sizeof(*self));
	if (geteuid() != 0)
		SKIP(return, "loading policies for 1001 and 1002 needs root");
	ASSERT_TRUE(ask_begin(&agents))
	{
		TH_LOG("ask_stats: %s", pfsel_last_error());
	}
	ASSERT_EQ(0, agents);
}

/*
 * In the harness's own process, so that even a timed-out test cleans up;
 * the agents die with the test's process anyway (pfsel_die_with_parent()).
 */
FIXTURE_TEARDOWN_PARENT(ask)
{
	ask_end(self->agent, 3);
}

#endif /* PFSEL_ASK_FIXTURE_H */
