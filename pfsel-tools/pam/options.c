// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam_pfsel - the module's arguments (pam_pfsel(8), OPTIONS).
 *
 * An argument the module does not know is reported and ignored, as
 * Linux-PAM modules do; a known one with a bad value fails the parse, for
 * an administrator who wrote "on_error=dney" meant something stricter
 * than the default.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pam_pfsel.h"

static const char *const on_error_names[] = {
	[PFSEL_PAM_ON_ERROR_KEEP] = "keep",
	[PFSEL_PAM_ON_ERROR_NONE] = "none",
	[PFSEL_PAM_ON_ERROR_DENY] = "deny",
};

static const char *const missing_names[] = {
	[PFSEL_PAM_MISSING_NONE] = "none",
	[PFSEL_PAM_MISSING_KEEP] = "keep",
};

const char *pfsel_pam_on_error_name(const enum pfsel_pam_on_error value)
{
	if ((size_t)value >= sizeof(on_error_names) / sizeof(on_error_names[0]))
		return "?";
	return on_error_names[value];
}

const char *pfsel_pam_missing_name(const enum pfsel_pam_missing value)
{
	if ((size_t)value >= sizeof(missing_names) / sizeof(missing_names[0]))
		return "?";
	return missing_names[value];
}

/* An absolute path that fits in PATH_MAX. */
static int parse_path(const char *const key, const char *const value,
		      const char **const out, char *const err,
		      const size_t errlen)
{
	if (value[0] != '/' || strlen(value) >= PATH_MAX) {
		snprintf(err, errlen, "%s=%s: not an absolute path", key,
			 value);
		return -EINVAL;
	}
	*out = value;
	return 0;
}

static int parse_timeout(const char *const value, unsigned int *const out,
			 char *const err, const size_t errlen)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || n < 1 ||
	    n > PFSEL_PAM_TIMEOUT_MAX) {
		snprintf(err, errlen,
			 "timeout=%s: not a number of seconds from 1 to %u",
			 value, PFSEL_PAM_TIMEOUT_MAX);
		return -EINVAL;
	}
	*out = (unsigned int)n;
	return 0;
}

static int parse_one(struct pfsel_pam_options *const opts,
		     const char *const arg, const pfsel_pam_warn_fn warn,
		     void *const ctx, char *const err, const size_t errlen)
{
	const char *const eq = strchr(arg, '=');
	const size_t keylen = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *const value = eq ? eq + 1 : NULL;
	char key[32];
	size_t i;

	if (keylen >= sizeof(key)) {
		if (warn)
			warn(ctx, arg);
		return 0;
	}
	memcpy(key, arg, keylen);
	key[keylen] = '\0';

	if (!strcmp(key, "debug") || !strcmp(key, "always")) {
		if (value) {
			snprintf(err, errlen, "%s takes no value", key);
			return -EINVAL;
		}
		if (key[0] == 'd')
			opts->debug = true;
		else
			opts->always = true;
		return 0;
	}
	if (!strcmp(key, "on_error") && value) {
		for (i = 0;
		     i < sizeof(on_error_names) / sizeof(*on_error_names);
		     i++) {
			if (!strcmp(value, on_error_names[i])) {
				opts->on_error = (enum pfsel_pam_on_error)i;
				return 0;
			}
		}
		snprintf(err, errlen, "on_error=%s: not keep, none or deny",
			 value);
		return -EINVAL;
	}
	if (!strcmp(key, "missing") && value) {
		for (i = 0; i < sizeof(missing_names) / sizeof(*missing_names);
		     i++) {
			if (!strcmp(value, missing_names[i])) {
				opts->missing = (enum pfsel_pam_missing)i;
				return 0;
			}
		}
		snprintf(err, errlen, "missing=%s: not none or keep", value);
		return -EINVAL;
	}
	if (!strcmp(key, "timeout") && value)
		return parse_timeout(value, &opts->timeout, err, errlen);
	if (!strcmp(key, "pfwc") && value)
		return parse_path(key, value, &opts->pfwc, err, errlen);
	if (!strcmp(key, "cache_dir") && value)
		return parse_path(key, value, &opts->cache_dir, err, errlen);
	if (!strcmp(key, "run_dir") && value)
		return parse_path(key, value, &opts->run_dir, err, errlen);
	if (!value && (!strcmp(key, "on_error") || !strcmp(key, "missing") ||
		       !strcmp(key, "timeout") || !strcmp(key, "pfwc") ||
		       !strcmp(key, "cache_dir") || !strcmp(key, "run_dir"))) {
		snprintf(err, errlen, "%s needs a value (%s=...)", key, key);
		return -EINVAL;
	}
	if (warn)
		warn(ctx, arg);
	return 0;
}

int pfsel_pam_parse_options(struct pfsel_pam_options *const opts,
			    const int argc, const char **const argv,
			    const pfsel_pam_warn_fn warn, void *const ctx,
			    char *const err, const size_t errlen)
{
	int i, ret;

	*opts = (struct pfsel_pam_options){
		.on_error = PFSEL_PAM_ON_ERROR_KEEP,
		.missing = PFSEL_PAM_MISSING_NONE,
		.timeout = POLICY_COMPILE_TIMEOUT,
		.pfwc = POLICY_PFWC,
		.cache_dir = POLICY_CACHE_DIR,
		.run_dir = POLICY_RUN_DIR,
	};
	if (errlen)
		err[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (!argv[i])
			continue;
		ret = parse_one(opts, argv[i], warn, ctx, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
