// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfwc - the driver: options, then each phase in a straight line
 *
 *	read services -> parse -> sema [-> parse+sema system, compare]
 *	-> lower -> serialise (and load back with the kernel's reader)
 *	-> emit to a temporary file -> rename over the output
 *
 * Each happens once: every --emit starts from the one lowered and
 * serialised policy.
 *
 * Nothing is written unless every phase succeeded, so a failed compile
 * leaves an older compiled policy in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "against.h"
#include "ast.h"
#include "backend.h"
#include "diag.h"
#include "emit_sepol.h"
#include "lower.h"
#include "parser.h"
#include "sema.h"
#include "services.h"

#ifndef PFWC_VERSION
#define PFWC_VERSION "unknown"
#endif

/* Exit statuses; the man page and --help list them too. */
enum pfwc_exit {
	EXIT_OK = 0,
	EXIT_COMPILE_ERRORS = 1,
	EXIT_USAGE = 2,
	EXIT_IO = 3,
};

enum emit_kind { EMIT_PFSEL, EMIT_CIL, EMIT_SEPOLICY, EMIT_CONF, N_EMIT };

static const char *const emit_names[] = {
	[EMIT_PFSEL] = "pfsel",
	[EMIT_CIL] = "cil",
	[EMIT_SEPOLICY] = "sepolicy",
	[EMIT_CONF] = "conf",
};

struct options {
	enum { MODE_COMPILE, MODE_QUERY, MODE_DUMP } mode;
	enum emit_kind emit;
	const char *output;
	const char *input;
	const char *against;
	const char *services;
	bool system;
	bool has_uid;
	uint32_t uid;
	char **query_args; /* POLICY APP OP PROTO ADDR PORT */
	const char **query_hosts; /* --host NAME..., for --query */
	size_t n_query_hosts;
};

static const char usage_text[] =
	"Usage: pfwc [OPTION]... FILE\n"
	"       pfwc --query [--host NAME]... POLICY APP OP PROTO ADDR PORT\n"
	"       pfwc --dump POLICY\n"
	"Compile a .pfw firewall policy for pfsel.\n"
	"\n"
	"  -o, --output=OUT     write to OUT ('-' for standard output); default:\n"
	"                       FILE without .pfw, plus .pfsel, .cil, .sepolicy\n"
	"                       or .conf\n"
	"      --emit=KIND      pfsel (the kernel's binary policy, default), cil\n"
	"                       (SELinux CIL), sepolicy (SELinux binary policy)\n"
	"                       or conf (SELinux policy language, checkpolicy's)\n"
	"      --system         compile the system policy\n"
	"      --uid=UID        the user a user policy is for (default: yours)\n"
	"      --against=SYSTEM report the rules of FILE that the system policy\n"
	"                       SYSTEM overrides\n"
	"      --services=PATH  the named-service vocabulary (default:\n"
	"                       $PFWC_SERVICES, else ../share/pfsel/services\n"
	"                       beside pfwc, else " PFWC_SERVICES_PATH ")\n"
	"  -Wall, -WNAME, -Wno-NAME\n"
	"                       warnings: shadow, overlap, unused, override, audit,\n"
	"                       exact, protect, host (all on by default)\n"
	"  -Werror              treat warnings as errors\n"
	"      --query          print the verdict for one request and the rule\n"
	"                       (file:line) that decided it; APP is EXE or\n"
	"                       EXE:SCRIPT, OP create|bind|connect|listen|accept,\n"
	"                       PROTO tcp|udp|icmp|raw|packet\n"
	"      --host=NAME      with --query: a host name the kernel knows for\n"
	"                       ADDR (learned from DNS); repeat for several;\n"
	"                       the first rule matching the address or any of\n"
	"                       the names decides\n"
	"      --dump           print a compiled policy readably\n"
	"  -h, --help           show this help and exit\n"
	"  -V, --version        show the version and exit\n"
	"\n"
	"Exit status: 0 success, 1 errors in the policy (or warnings with\n"
	"-Werror), 2 wrong usage, 3 a file could not be read or written.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fputs("pfwc: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pfwc --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static bool parse_uid(const char *text, uint32_t *uid)
{
	char *end;
	unsigned long long value;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	value = strtoull(text, &end, 10);
	/* (uid_t)-1 is "no uid" everywhere in the kernel. */
	if (errno || *end || value >= UINT32_MAX)
		return false;
	*uid = (uint32_t)value;
	return true;
}

/* Returns -1 when the options are fine, else the exit status. */
static int parse_options(int argc, char **argv, struct options *opts,
			 struct pfw_diag *diag)
{
	enum {
		OPT_EMIT = 256,
		OPT_SYSTEM,
		OPT_UID,
		OPT_AGAINST,
		OPT_SERVICES,
		OPT_QUERY,
		OPT_HOST,
		OPT_DUMP
	};
	static const struct option long_options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "emit", required_argument, NULL, OPT_EMIT },
		{ "system", no_argument, NULL, OPT_SYSTEM },
		{ "uid", required_argument, NULL, OPT_UID },
		{ "against", required_argument, NULL, OPT_AGAINST },
		{ "services", required_argument, NULL, OPT_SERVICES },
		{ "query", no_argument, NULL, OPT_QUERY },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "dump", no_argument, NULL, OPT_DUMP },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char w_option[128];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:W:hV", long_options, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			opts->output = optarg;
			break;
		case 'W':
			snprintf(w_option, sizeof(w_option), "-W%s", optarg);
			if (!pfw_diag_option(diag, w_option))
				return usage_error(
					"unknown warning option '%s'",
					w_option);
			break;
		case OPT_EMIT: {
			size_t k;

			for (k = 0; k < N_EMIT; k++)
				if (strcmp(optarg, emit_names[k]) == 0)
					break;
			if (k == N_EMIT)
				return usage_error(
					"--emit takes pfsel, cil, sepolicy or conf, not '%s'",
					optarg);
			opts->emit = (enum emit_kind)k;
			break;
		}
		case OPT_SYSTEM:
			opts->system = true;
			break;
		case OPT_UID:
			if (!parse_uid(optarg, &opts->uid))
				return usage_error(
					"--uid takes a number below 4294967295, not '%s'",
					optarg);
			opts->has_uid = true;
			break;
		case OPT_AGAINST:
			opts->against = optarg;
			break;
		case OPT_SERVICES:
			opts->services = optarg;
			break;
		case OPT_QUERY:
			opts->mode = MODE_QUERY;
			break;
		case OPT_HOST:
			*(const char **)pfw_push((void **)&opts->query_hosts,
						 &opts->n_query_hosts,
						 sizeof(char *)) = optarg;
			break;
		case OPT_DUMP:
			opts->mode = MODE_DUMP;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case 'V':
			printf("pfwc %s\n", PFWC_VERSION);
			return EXIT_OK;
		default:
			if (optopt && strchr("oW", optopt))
				return usage_error(
					"option '-%s' needs an argument",
					optopt == 'o' ? "o" : "W");
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	switch (opts->mode) {
	case MODE_QUERY:
		if (argc != 6)
			return usage_error(
				"%s",
				"--query takes POLICY APP OP PROTO ADDR PORT");
		opts->query_args = argv;
		return -1;
	default:
		break;
	}
	if (opts->n_query_hosts)
		return usage_error("%s", "--host is for --query");
	if (opts->mode == MODE_DUMP) {
		if (argc != 1)
			return usage_error("%s",
					   "--dump takes one compiled policy");
		opts->input = argv[0];
		return -1;
	}
	if (argc != 1)
		return usage_error("%s",
				   argc ? "give one policy file to compile" :
					  "no policy file given");
	if (opts->system && opts->has_uid)
		return usage_error(
			"%s", "--uid is for user policies, not with --system");
	if (opts->system && opts->against)
		return usage_error(
			"%s",
			"--against compares a user policy, not with --system");
	opts->input = argv[0];
	return -1;
}

/* The default output: FILE without ".pfw", plus the emitter's suffix. */
static char *default_output(const char *input, enum emit_kind emit)
{
	static const char *const suffix[] = {
		[EMIT_PFSEL] = ".pfsel",
		[EMIT_CIL] = ".cil",
		[EMIT_SEPOLICY] = ".sepolicy",
		[EMIT_CONF] = ".conf",
	};
	size_t len = strlen(input);
	const char *base = strrchr(input, '/');
	char *out;

	base = base ? base + 1 : input;
	/* "x.pfw" -> "x.pfsel", but "~/.pfw" -> "~/.pfw.pfsel". */
	if (len > 4 && strcmp(input + len - 4, ".pfw") == 0 &&
	    input + len - 4 > base)
		len -= 4;
	out = pfw_xrealloc(NULL, len + strlen(suffix[emit]) + 1);
	memcpy(out, input, len);
	strcpy(out + len, suffix[emit]);
	return out;
}

/* Write all of @buf to @out. */
static int write_all(FILE *out, const uint8_t *buf, size_t len)
{
	return fwrite(buf, 1, len, out) == len ? 0 : -1;
}

/*
 * Why @lowered could not be serialised, as the emitter of @kind says it;
 * returns the exit status.
 */
static int serialize_failed(enum emit_kind kind, int err,
			    const struct pfw_lowered *lowered,
			    struct pfw_diag *diag)
{
	if (kind == EMIT_PFSEL) {
		pfw_error(diag, NULL, "cannot build the binary policy: %s",
			  err == -E2BIG ? "it is too large for the format" :
					  strerror(-err));
		return err == -E2BIG ? EXIT_COMPILE_ERRORS : EXIT_IO;
	}
	/* The SELinux export notes what it leaves out before anything. */
	pfw_sepol_note_unexported(lowered, diag);
	if (err == -EPROTO)
		pfw_error(
			diag, NULL,
			"internal error: pfsel's reader rejects the compiled policy");
	else
		pfw_error(diag, NULL,
			  "cannot serialise the policy for export: %s",
			  strerror(-err));
	return EXIT_COMPILE_ERRORS;
}

/*
 * Emit @kind into @out; returns an exit status.  The policy is serialised
 * here, once, whatever the kind: the binary policy is written as is, and
 * the SELinux exports ask the kernel's reader, loaded with it, for their
 * decisions.
 */
static int emit(FILE *out, enum emit_kind kind, const struct pfw_policy *policy,
		const struct pfw_lowered *lowered, struct pfw_diag *diag)
{
	struct pfw_serialized compiled;
	int status = EXIT_IO, err;

	err = pfw_serialize(lowered, &compiled);
	if (err)
		return serialize_failed(kind, err, lowered, diag);
	switch (kind) {
	case EMIT_PFSEL:
		status = write_all(out, compiled.blob, compiled.len) ? EXIT_IO :
								       EXIT_OK;
		break;
	case EMIT_CIL:
		status = pfw_emit_cil(out, policy, lowered, compiled.db, diag) ?
				 EXIT_COMPILE_ERRORS :
				 EXIT_OK;
		break;
	case EMIT_SEPOLICY:
		status = pfw_emit_sepolicy(out, policy, lowered, compiled.db,
					   diag) ?
				 EXIT_COMPILE_ERRORS :
				 EXIT_OK;
		break;
	case EMIT_CONF:
		status = pfw_emit_conf(out, policy, lowered, compiled.db,
				       diag) ?
				 EXIT_COMPILE_ERRORS :
				 EXIT_OK;
		break;
	case N_EMIT:
		break;
	}
	pfw_serialized_free(&compiled);
	return status;
}

/* Emit to an open stream that is not ours to replace (stdout, a device). */
static int write_stream(FILE *out, const char *name, enum emit_kind kind,
			const struct pfw_policy *policy,
			const struct pfw_lowered *lowered,
			struct pfw_diag *diag)
{
	int status = emit(out, kind, policy, lowered, diag);

	if (fflush(out) != 0 || ferror(out)) {
		pfw_error(diag, NULL, "cannot write %s: %s", name,
			  strerror(errno));
		return EXIT_IO;
	}
	return status;
}

/*
 * An output that exists and is no regular file (/dev/null, a FIFO, a
 * terminal) is written in place: renaming a file over it would replace
 * the device node itself (as root, /dev/null would become a file).
 */
static int write_in_place(const char *path, enum emit_kind kind,
			  const struct pfw_policy *policy,
			  const struct pfw_lowered *lowered,
			  struct pfw_diag *diag)
{
	char name[PATH_MAX + 2];
	FILE *out;
	int fd, status;

	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || !(out = fdopen(fd, "wb"))) {
		pfw_error(diag, NULL, "cannot write '%s': %s", path,
			  strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_IO;
	}
	snprintf(name, sizeof(name), "'%s'", path);
	status = write_stream(out, name, kind, policy, lowered, diag);
	if (fclose(out) != 0 && status == EXIT_OK) {
		pfw_error(diag, NULL, "cannot write '%s': %s", path,
			  strerror(errno));
		status = EXIT_IO;
	}
	return status;
}

/*
 * Emit into a temporary file next to @path and rename it over @path, so
 * the output is either the whole new policy or untouched.
 */
static int write_output(const char *path, enum emit_kind kind,
			const struct pfw_policy *policy,
			const struct pfw_lowered *lowered,
			struct pfw_diag *diag)
{
	size_t len = strlen(path);
	struct stat st;
	char *temp;
	FILE *out;
	int fd, status;

	if (strcmp(path, "-") == 0)
		return write_stream(stdout, "standard output", kind, policy,
				    lowered, diag);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode))
		return write_in_place(path, kind, policy, lowered, diag);
	temp = pfw_xrealloc(NULL, len + sizeof(".XXXXXX"));
	memcpy(temp, path, len);
	strcpy(temp + len, ".XXXXXX");
	fd = mkstemp(temp);
	if (fd < 0 || !(out = fdopen(fd, "wb"))) {
		/* Name the output the user gave, not our temporary file. */
		pfw_error(diag, NULL, "cannot write '%s': %s", path,
			  strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(temp);
		}
		free(temp);
		return EXIT_IO;
	}
	status = emit(out, kind, policy, lowered, diag);
	if (status == EXIT_OK &&
	    (fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0)) {
		pfw_error(diag, NULL, "cannot write '%s': %s", temp,
			  strerror(errno));
		status = EXIT_IO;
	}
	if (fclose(out) != 0 && status == EXIT_OK) {
		pfw_error(diag, NULL, "cannot write '%s': %s", temp,
			  strerror(errno));
		status = EXIT_IO;
	}
	/* mkstemp makes 0600; a compiled policy is not secret. */
	if (status == EXIT_OK && chmod(temp, 0644) != 0)
		status = EXIT_IO;
	if (status == EXIT_OK && rename(temp, path) != 0) {
		pfw_error(diag, NULL, "cannot rename '%s' to '%s': %s", temp,
			  path, strerror(errno));
		status = EXIT_IO;
	}
	if (status != EXIT_OK)
		unlink(temp);
	free(temp);
	return status;
}

/* Parse and check one policy; NULL (reported) if it has errors. */
static struct pfw_policy *load_policy(const char *path,
				      const struct pfw_sema_options *sema_opts,
				      struct pfw_diag *diag, int *status)
{
	static const struct pfw_parse_options parse_opts = {
		.allow_includes = true,
	};
	unsigned int errors_before = diag->errors;
	struct pfw_policy *policy = pfw_parse_file(path, &parse_opts, diag);

	if (!policy) {
		*status = EXIT_IO;
		return NULL;
	}
	if (diag->errors == errors_before)
		pfw_sema(policy, sema_opts, diag);
	if (diag->errors != errors_before) {
		pfw_policy_free(policy);
		*status = EXIT_COMPILE_ERRORS;
		return NULL;
	}
	return policy;
}

static int compile(const struct options *opts, struct pfw_diag *diag)
{
	char default_path[PATH_MAX];
	const char *services_path =
		opts->services ?
			opts->services :
			pfw_services_default_path(default_path,
						  sizeof(default_path));
	struct pfw_sema_options sema_opts = {
		.force_system = opts->system,
		.force_uid = opts->has_uid,
		.uid = opts->uid,
	};
	struct pfw_services *services = NULL;
	struct pfw_policy *policy = NULL, *system = NULL;
	struct pfw_lowered *lowered = NULL;
	char *output = NULL;
	int status = EXIT_OK, lower_error;

	/* An explicit services file must be readable; the default may be
	 * missing, and then service names are simply unknown. */
	if (opts->services || access(services_path, F_OK) == 0) {
		services = pfw_services_load(services_path, diag);
		if (!services)
			return EXIT_IO;
		if (diag->errors)
			goto out_errors;
	}
	sema_opts.services = services;

	policy = load_policy(opts->input, &sema_opts, diag, &status);
	if (!policy)
		goto out;
	if (opts->against) {
		struct pfw_sema_options system_opts = {
			.services = services,
			.force_system = true,
		};

		system =
			load_policy(opts->against, &system_opts, diag, &status);
		if (!system)
			goto out;
		pfw_against_system(policy, system, diag);
	}
	if (diag->errors)
		goto out_errors;
	if (!policy->settings.is_system && !policy->settings.has_uid) {
		policy->settings.has_uid = true;
		policy->settings.uid = (uint32_t)getuid();
	}

	lower_error = pfw_lower(policy, &lowered);
	if (lower_error) {
		pfw_error(
			diag, NULL, "%s",
			lower_error == -E2BIG ?
				"the policy is too large for the binary format" :
				"out of memory while lowering the policy");
		status = lower_error == -E2BIG ? EXIT_COMPILE_ERRORS : EXIT_IO;
		goto out;
	}
	output = opts->output ? pfw_xstrdup(opts->output) :
				default_output(opts->input, opts->emit);
	status = write_output(output, opts->emit, policy, lowered, diag);
	goto out;

out_errors:
	status = EXIT_COMPILE_ERRORS;
out:
	free(output);
	pfw_lowered_free(lowered);
	pfw_policy_free(system);
	pfw_policy_free(policy);
	pfw_services_free(services);
	return status;
}

int main(int argc, char **argv)
{
	struct options opts = { 0 };
	struct pfw_diag diag;
	int status;

	pfw_diag_init(&diag, stderr);
	status = parse_options(argc, argv, &opts, &diag);
	if (status >= 0)
		return status;

	switch (opts.mode) {
	case MODE_QUERY:
		status = pfw_query_names((const char *const *)opts.query_args,
					 opts.query_hosts, opts.n_query_hosts,
					 stdout, stderr);
		break;
	case MODE_DUMP:
		status = pfw_dump(opts.input, stdout, stderr);
		break;
	case MODE_COMPILE:
		status = compile(&opts, &diag);
		break;
	}
	if (diag.errors && status == EXIT_OK)
		status = EXIT_COMPILE_ERRORS;
	free(opts.query_hosts);
	pfw_diag_fini(&diag);
	return status;
}
