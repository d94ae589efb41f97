// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the log: one line per event, local time to the
 * millisecond, so that a question and its answer can be lined up with the
 * kernel's audit records.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"

long long agent_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void agent_log(FILE *const log, const char *const fmt, ...)
{
	char stamp[40];
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (!log)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(log, "%s.%03ld pfsel-agent[%d]: ", stamp, ts.tv_nsec / 1000000,
		(int)getpid());
	va_start(ap, fmt);
	vfprintf(log, fmt, ap);
	va_end(ap);
	fputc('\n', log);
	fflush(log);
}
