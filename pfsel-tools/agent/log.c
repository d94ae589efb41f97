// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the log: one line per event, local time to the
 * millisecond, so that a question and its answer can be lined up with the
 * kernel's audit records.
 *
 * What goes in a line should already be escaped where it came from the
 * kernel (pfsel_question_format(), pfsel_escape()); the line is escaped
 * once more with PFSEL_ESCAPE_CONTROLS on its way out, so that a name
 * that reached a message raw still cannot act on the terminal or the
 * file's reader, nor start a line of its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
	char stamp[40], *line = NULL, *esc = NULL;
	struct timespec ts;
	struct tm tm;
	va_list ap;
	size_t size;
	int n;

	if (!log)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size = PFSEL_ESCAPE_SIZE(n);
	esc = malloc(size);
	if (!esc || pfsel_escape(line, esc, size, PFSEL_ESCAPE_CONTROLS) < 0) {
		free(esc);
		free(line);
		return;
	}
	free(line);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(log, "%s.%03ld pfsel-agent[%d]: ", stamp, ts.tv_nsec / 1000000,
		(int)getpid());
	fprintf(log, "%s\n", esc);
	fflush(log);
	free(esc);
}
