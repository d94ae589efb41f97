// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel - JSON strings for --json output (RFC 8259).
 */
#include "cmd.h"

void pfselcmd_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void pfselcmd_json_int(FILE *out, const bool known, const long long v)
{
	if (known)
		fprintf(out, "%lld", v);
	else
		fputs("null", out);
}
