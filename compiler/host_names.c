// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - checking host names, and the IDNA ASCII form that the error about
 * a non-ASCII name suggests
 *
 * A name is what the kernel compares with the question name of a DNS
 * answer (lower case, no final dot): dot-separated labels of 1 to 63
 * letters, digits, '-' and '_', none starting or ending with '-', at most
 * PFSEL_HOST_NAME_MAX characters.  The '_' is allowed because real names
 * carry it ("_dmarc.example.org"), and the kernel reports it as is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_names.h"
#include "pfsel_names.h"

static bool is_label_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* ---- RFC 3492 Punycode, encoding only ---- */

enum {
	PUNY_BASE = 36,
	PUNY_TMIN = 1,
	PUNY_TMAX = 26,
	PUNY_SKEW = 38,
	PUNY_DAMP = 700,
	PUNY_INITIAL_BIAS = 72,
	PUNY_INITIAL_N = 128,
};

static uint32_t puny_adapt(uint32_t delta, uint32_t points, bool first)
{
	uint32_t k = 0;

	delta = first ? delta / PUNY_DAMP : delta / 2;
	delta += delta / points;
	while (delta > ((PUNY_BASE - PUNY_TMIN) * PUNY_TMAX) / 2) {
		delta /= PUNY_BASE - PUNY_TMIN;
		k += PUNY_BASE;
	}
	return k + (PUNY_BASE - PUNY_TMIN + 1) * delta / (delta + PUNY_SKEW);
}

static char puny_digit(uint32_t d)
{
	return (char)(d < 26 ? 'a' + d : '0' + (d - 26));
}

/* Decode @len bytes of UTF-8 into @cps (at most @max); -1 if not UTF-8. */
static long utf8_decode(const unsigned char *s, size_t len, uint32_t *cps,
			size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < len; n++) {
		uint32_t cp;
		int more;

		if (n == max)
			return -1;
		if (s[i] < 0x80) {
			cp = s[i], more = 0;
		} else if ((s[i] & 0xe0) == 0xc0 && s[i] >= 0xc2) {
			cp = s[i] & 0x1f, more = 1;
		} else if ((s[i] & 0xf0) == 0xe0) {
			cp = s[i] & 0x0f, more = 2;
		} else if ((s[i] & 0xf8) == 0xf0 && s[i] <= 0xf4) {
			cp = s[i] & 0x07, more = 3;
		} else {
			return -1;
		}
		if (len - i <= (size_t)more)
			return -1;
		for (int k = 1; k <= more; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return -1;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates and past U+10FFFF are not UTF-8. */
		if ((more == 2 && cp < 0x800) || (more == 3 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return -1;
		cps[n] = cp;
		i += (size_t)more + 1;
	}
	return (long)n;
}

/* Append one label's Punycode ("xn--...") to @out; false if too long. */
static bool puny_label(const uint32_t *cps, size_t n, char *out, size_t *pos,
		       size_t size)
{
	uint32_t code = PUNY_INITIAL_N, delta = 0, bias = PUNY_INITIAL_BIAS;
	size_t basic = 0, handled;

#define EMIT(c)                       \
	do {                          \
		if (*pos + 1 >= size) \
			return false; \
		out[(*pos)++] = (c);  \
	} while (0)
	for (const char *p = "xn--"; *p; p++)
		EMIT(*p);
	for (size_t i = 0; i < n; i++)
		if (cps[i] < 0x80) {
			EMIT((char)(cps[i] >= 'A' && cps[i] <= 'Z' ?
					    cps[i] + 32 :
					    cps[i]));
			basic++;
		}
	if (basic)
		EMIT('-');
	for (handled = basic; handled < n;) {
		uint32_t next = UINT32_MAX;

		for (size_t i = 0; i < n; i++)
			if (cps[i] >= code && cps[i] < next)
				next = cps[i];
		/* Labels are at most 63 characters: no overflow here. */
		delta += (next - code) * (uint32_t)(handled + 1);
		code = next;
		for (size_t i = 0; i < n; i++) {
			if (cps[i] < code)
				delta++;
			if (cps[i] != code)
				continue;
			for (uint32_t q = delta, k = PUNY_BASE;;
			     k += PUNY_BASE) {
				uint32_t t = k <= bias		   ? PUNY_TMIN :
					     k >= bias + PUNY_TMAX ? PUNY_TMAX :
								     k - bias;

				if (q < t) {
					EMIT(puny_digit(q));
					break;
				}
				EMIT(puny_digit(t + (q - t) % (PUNY_BASE - t)));
				q = (q - t) / (PUNY_BASE - t);
			}
			bias = puny_adapt(delta, (uint32_t)handled + 1,
					  handled == basic);
			delta = 0;
			handled++;
		}
		delta++;
		code++;
	}
#undef EMIT
	return true;
}

bool pfw_host_to_ascii(const char *text, char *buf, size_t size)
{
	uint32_t cps[PFSEL_HOST_NAME_MAX + 1];
	size_t pos = 0;

	if (!size)
		return false;
	for (const char *label = text;;) {
		const char *end = strchrnul(label, '.');
		size_t len = (size_t)(end - label);
		bool ascii = true;

		for (size_t i = 0; i < len; i++)
			ascii &= (unsigned char)label[i] < 0x80;
		if (ascii) {
			if (pos + len >= size)
				return false;
			for (size_t i = 0; i < len; i++)
				buf[pos++] = (char)((label[i] >= 'A' &&
						     label[i] <= 'Z') ?
							    label[i] + 32 :
							    label[i]);
		} else {
			long n = utf8_decode((const unsigned char *)label, len,
					     cps, PFW_HOST_LABEL_MAX + 1);

			if (n < 0 ||
			    !puny_label(cps, (size_t)n, buf, &pos, size))
				return false;
		}
		if (!*end)
			break;
		if (pos + 1 >= size)
			return false;
		buf[pos++] = '.';
		label = end + 1;
	}
	buf[pos] = '\0';
	return true;
}

/* ---- The check ---- */

static const char *problem_at(size_t *bad, size_t at, const char *why)
{
	*bad = at;
	return why;
}

const char *pfw_host_parse(const char *text, struct pfw_host *host, size_t *bad,
			   char *buf, size_t size)
{
	size_t skip = 0, len, label_start;
	char *name;

	if (text[0] == '*') {
		if (text[1] != '.')
			return problem_at(
				bad, 0,
				"'*' may only be the whole first label of a host name, as in '*.example.org'");
		skip = 2;
	}
	len = strlen(text + skip);
	for (size_t i = skip; text[i]; i++) {
		if ((unsigned char)text[i] >= 0x80) {
			char ascii[PFSEL_HOST_NAME_MAX * 2];

			if (pfw_host_to_ascii(text, ascii, sizeof(ascii)))
				snprintf(
					buf, size,
					"host names are written in ASCII: for an international name write its IDNA form, '%s' (if it is written here in lower case)",
					ascii);
			else
				snprintf(
					buf, size,
					"host names are written in ASCII (an international name in its IDNA form, 'xn--...'), and this is not even UTF-8");
			return problem_at(bad, i, buf);
		}
	}
	if (len == 0)
		return problem_at(bad, skip, "the host name is empty");
	label_start = skip;
	for (size_t i = skip;; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '.' || c == '\0') {
			size_t label_len = i - label_start;

			if (label_len == 0 && c == '\0')
				return problem_at(
					bad, i - 1,
					"a host name has no final '.'; leave it out");
			if (label_len == 0)
				return problem_at(
					bad, i,
					"a host name has no empty labels: '.' at its start or twice in a row");
			if (label_len > PFW_HOST_LABEL_MAX)
				return problem_at(
					bad, label_start,
					"a label of a host name is at most 63 characters long");
			if (text[label_start] == '-' || text[i - 1] == '-')
				return problem_at(
					bad,
					text[label_start] == '-' ? label_start :
								   i - 1,
					"a label of a host name does not start or end with '-'");
			if (c == '\0')
				break;
			label_start = i + 1;
			continue;
		}
		if (c == '*')
			return problem_at(
				bad, i,
				"'*' may only be the whole first label of a host name, as in '*.example.org'");
		if (!is_label_char(c))
			return problem_at(
				bad, i,
				"a host name is made of letters, digits, '-', '_' and the '.' between labels");
	}
	if (len > PFSEL_HOST_NAME_MAX) {
		snprintf(
			buf, size,
			"a host name is at most %u characters long, and this one has %zu",
			PFSEL_HOST_NAME_MAX, len);
		return problem_at(bad, skip + PFSEL_HOST_NAME_MAX, buf);
	}
	name = pfw_xstrdup(text + skip);
	for (char *c = name; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	host->name = name;
	host->below = skip != 0;
	return NULL;
}
