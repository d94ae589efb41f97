// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - diagnostics: "file:line:col: error: ...", the line, a caret
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

const char *const pfw_warning_names[PFW_W_COUNT] = {
	[PFW_W_SHADOW] = "shadow",   [PFW_W_OVERLAP] = "overlap",
	[PFW_W_UNUSED] = "unused",   [PFW_W_OVERRIDE] = "override",
	[PFW_W_AUDIT] = "audit",     [PFW_W_EXACT] = "exact",
	[PFW_W_PROTECT] = "protect", [PFW_W_HOST] = "host",
};

/* Longest source line quoted in full; longer ones are cut with "...". */
#define QUOTE_MAX 240

void pfw_diag_init(struct pfw_diag *diag, FILE *out)
{
	memset(diag, 0, sizeof(*diag));
	diag->out = out;
	diag->program = "pfwc";
	for (int i = 0; i < PFW_W_COUNT; i++)
		diag->enabled[i] = true;
}

void pfw_diag_fini(struct pfw_diag *diag)
{
	for (size_t i = 0; i < diag->n_sources; i++) {
		free(diag->sources[i].name);
		free(diag->sources[i].text);
		free(diag->sources[i].line_starts);
	}
	free(diag->sources);
	diag->sources = NULL;
	diag->n_sources = 0;
}

void pfw_diag_adopt_source(struct pfw_diag *diag, const char *name, char *text,
			   size_t len)
{
	struct pfw_diag_source *source = pfw_push(
		(void **)&diag->sources, &diag->n_sources, sizeof(*source));

	*source = (struct pfw_diag_source){ .name = pfw_xstrdup(name),
					    .text = text,
					    .len = len };
}

bool pfw_diag_option(struct pfw_diag *diag, const char *option)
{
	bool enable = true;
	const char *name;

	if (strncmp(option, "-W", 2) != 0)
		return false;
	name = option + 2;
	if (strcmp(name, "all") == 0) {
		for (int i = 0; i < PFW_W_COUNT; i++)
			diag->enabled[i] = true;
		return true;
	}
	if (strncmp(name, "no-", 3) == 0) {
		enable = false;
		name += 3;
	}
	if (strcmp(name, "error") == 0) {
		diag->werror = enable;
		return true;
	}
	for (int i = 0; i < PFW_W_COUNT; i++) {
		if (strcmp(name, pfw_warning_names[i]) == 0) {
			diag->enabled[i] = enable;
			return true;
		}
	}
	return false;
}

static struct pfw_diag_source *find_source(const struct pfw_diag *diag,
					   const char *name)
{
	/* The latest adoption wins: a file may be loaded more than once. */
	for (size_t i = diag->n_sources; i-- > 0;)
		if (strcmp(diag->sources[i].name, name) == 0)
			return &diag->sources[i];
	return NULL;
}

static void index_lines(struct pfw_diag_source *src)
{
	void **starts = (void **)&src->line_starts;

	*(size_t *)pfw_push(starts, &src->n_lines, sizeof(size_t)) = 0;
	for (size_t pos = 0; pos < src->len; pos++)
		if (src->text[pos] == '\n')
			*(size_t *)pfw_push(starts, &src->n_lines,
					    sizeof(size_t)) = pos + 1;
}

/* Print the line @loc points into, and a caret under its column. */
static void quote_line(const struct pfw_diag *diag, const struct pfw_loc *loc)
{
	struct pfw_diag_source *src = find_source(diag, loc->file);
	size_t pos, line_len, shown;

	if (!src || loc->line == 0)
		return;
	if (!src->line_starts)
		index_lines(src);
	if (loc->line > src->n_lines)
		return;
	pos = src->line_starts[loc->line - 1];
	/* Only look as far as we may show: a line may be the whole file. */
	for (line_len = 0; pos + line_len < src->len && line_len <= QUOTE_MAX;
	     line_len++)
		if (src->text[pos + line_len] == '\n')
			break;
	shown = line_len > QUOTE_MAX ? QUOTE_MAX : line_len;
	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)src->text[pos + i];

		/* Keep the terminal sane whatever bytes the file holds. */
		fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?',
		      diag->out);
	}
	fputs(shown < line_len ? "...\n" : "\n", diag->out);
	if (loc->col == 0 || loc->col - 1 > shown)
		return;
	/* Tabs in the caret line keep it aligned however tabs are shown. */
	for (size_t i = 0; i + 1 < loc->col; i++)
		fputc(src->text[pos + i] == '\t' ? '\t' : ' ', diag->out);
	fputs("^\n", diag->out);
}

static void report(struct pfw_diag *diag, const struct pfw_loc *loc,
		   const char *kind, const char *suffix, const char *fmt,
		   va_list args)
{
	if (loc && loc->file)
		fprintf(diag->out, "%s:%u:%u: %s: ", loc->file, loc->line,
			loc->col, kind);
	else
		fprintf(diag->out, "%s: %s: ", diag->program, kind);
	vfprintf(diag->out, fmt, args);
	fprintf(diag->out, "%s\n", suffix);
	if (loc && loc->file)
		quote_line(diag, loc);
}

void pfw_error(struct pfw_diag *diag, const struct pfw_loc *loc,
	       const char *fmt, ...)
{
	va_list args;

	diag->errors++;
	diag->last_printed = diag->errors <= PFW_DIAG_MAX_ERRORS;
	if (!diag->last_printed)
		return;
	va_start(args, fmt);
	report(diag, loc, "error", "", fmt, args);
	va_end(args);
	if (diag->errors == PFW_DIAG_MAX_ERRORS)
		fprintf(diag->out, "%s: error: too many errors, stopping\n",
			diag->program);
}

void pfw_warn(struct pfw_diag *diag, enum pfw_warning which,
	      const struct pfw_loc *loc, const char *fmt, ...)
{
	char suffix[64];
	va_list args;

	diag->last_printed = diag->enabled[which] && !pfw_diag_gave_up(diag);
	if (!diag->last_printed)
		return;
	if (diag->werror) {
		diag->errors++;
		snprintf(suffix, sizeof(suffix), " [-Werror=%s]",
			 pfw_warning_names[which]);
	} else {
		diag->warnings++;
		snprintf(suffix, sizeof(suffix), " [-W%s]",
			 pfw_warning_names[which]);
	}
	va_start(args, fmt);
	report(diag, loc, diag->werror ? "error" : "warning", suffix, fmt,
	       args);
	va_end(args);
}

void pfw_note(struct pfw_diag *diag, const struct pfw_loc *loc, const char *fmt,
	      ...)
{
	va_list args;

	if (!diag->last_printed)
		return;
	va_start(args, fmt);
	report(diag, loc, "note", "", fmt, args);
	va_end(args);
}

void pfw_notice(struct pfw_diag *diag, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	report(diag, NULL, "note", "", fmt, args);
	va_end(args);
}

bool pfw_diag_gave_up(const struct pfw_diag *diag)
{
	return diag->errors >= PFW_DIAG_MAX_ERRORS;
}
