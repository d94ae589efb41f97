// SPDX-License-Identifier: GPL-2.0
/*
 * pfsel_bench - the statistics: median, quartiles and range of a
 * measurement over the rounds (pfsel_bench.h).
 */

#include <stdlib.h>

#include "pfsel_bench.h"

static int cmp_double(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quartiles by linear interpolation between order statistics. */
static double quantile(const double *sorted, int n, double q)
{
	const double pos = q * (n - 1);
	const int lo = (int)pos;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

struct spread_stats summarize(double *v, int n)
{
	struct spread_stats s = { 0 };

	if (n <= 0)
		return s;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	s.median = quantile(v, n, 0.5);
	s.q1 = quantile(v, n, 0.25);
	s.q3 = quantile(v, n, 0.75);
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}
