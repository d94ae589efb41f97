// SPDX-License-Identifier: GPL-2.0-only
/*
 * The differential test: three opinions on every request must agree.
 *
 *  1. pfsel's evaluator (security/pfsel/policydb.c) on the compiled blob:
 *     pfwc's lowering into equivalence classes and decision tables.
 *  2. libsepol's sepol_compute_av() on the policy built from the CIL export
 *     (compiler/emit_cil.c): the flattening into types and permissions.
 *     The export cannot express host names and leaves host elements out,
 *     so its answer is held to the reference's for the same request with
 *     no names known.
 *  3. The reference interpreter (reference.c): first match over the rules,
 *     no classes at all.
 *  4. checkpolicy, the SELinux compiler of the kernel policy language, on
 *     the policy.conf export (pfwc --emit=conf): the path an SELinux person
 *     takes, asked through sepol_compute_av() as 2 is.  It is held to 2's
 *     answers, request by request.
 *
 * The reference and pfsel also agree on whether the application of each
 * request is protected ("protect"); the SELinux export has no counterpart
 * for that, so libsepol has no opinion on it.
 *
 * Requests carry 0 to 3 host names the kernel might know for the address;
 * pfsel's side classifies each and takes the first rule over the address
 * and every name, as the kernel does.
 *
 * For each of PFSEL_DIFF_POLICIES random policies (seed PFSEL_DIFF_SEED + i)
 * it asks PFSEL_DIFF_QUERIES random requests.  It prints what disagrees with
 * the seed that reproduces it, and ends with "N passed, M failed" counting
 * requests.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sepol/policydb.h>
#include <sepol/policydb/services.h>
#include <sepol/sepol.h>

#include "backend.h"
#include "diag.h"
#include "emit_sepol.h"
#include "generate.h"
#include "lower.h"
#include "policydb.h"
#include "reference.h"

#define DEFAULT_POLICIES 400
#define DEFAULT_QUERIES 60
#define DEFAULT_SEED 20260101
#define MAX_RULES 12
/* Failures printed in full; the rest are only counted. */
#define MAX_REPORTS 5
/* Requests per policy at most (PFSEL_DIFF_QUERIES). */
#define MAX_QUERIES 4096

extern char **environ;

/* One policy, compiled both ways. */
struct subject {
	struct pfw_policy *policy;
	struct pfw_lowered *lowered;
	struct pfw_serialized compiled; /* its .db: pfsel's evaluator */
	struct pfw_sepol_export export;
};

/* A decision in the form all three can give: see emit_sepol.h. */
struct opinion {
	enum pfw_verdict verdict;
	uint32_t audit; /* only the flags that take effect with @verdict */
	long rule; /* -1: default; -2: this opinion does not know */
	int protected; /* 0 or 1; -1: this opinion does not know */
};

static unsigned int bit_index(uint32_t bit)
{
	return (unsigned int)__builtin_ctz(bit);
}

static unsigned long env_number(const char *name, unsigned long fallback)
{
	const char *text = getenv(name);

	return text && *text ? strtoul(text, NULL, 0) : fallback;
}

/* The classes pfsel puts a request in, as the kernel would. */
static void classify(const struct pfsel_policydb *db,
		     const struct pfw_request *request, uint32_t *app,
		     uint32_t *addr, uint32_t *port)
{
	uint8_t family_addr[16];

	*app = pfsel_policydb_classify_app(db, request->exe, request->script);
	if (request->op == PFW_OP_CREATE) {
		pfsel_policydb_family_addr(request->family == PFW_FAMILY_INET ?
						   PFSEL_FAMILY_INET :
						   PFSEL_FAMILY_INET6,
					   family_addr);
		*addr = pfsel_policydb_classify_addr(db, family_addr);
	} else {
		*addr = pfsel_policydb_classify_addr(db, request->addr);
	}
	*port = pfsel_policydb_classify_port(db, request->port);
}

/*
 * pfsel's answer, as the kernel (decide.c) computes it: the decision by
 * the address, then, when it says names may matter, the first rule each of
 * the address's known names gives through its name class; the smallest
 * rule of all decides.  When the decision says names cannot matter, no name
 * class may give a rule either (or the kernel, trusting the flag, would
 * miss it): that is checked too.
 */
static int ask_pfsel(const struct subject *s, const struct pfw_request *request,
		     struct opinion *out)
{
	const struct pfsel_policydb *db = s->compiled.db;
	const uint32_t op = bit_index(request->op);
	const uint32_t proto = bit_index(request->proto);
	struct pfsel_decision decision;
	uint32_t app, addr, port, best;

	classify(db, request, &app, &addr, &port);
	if (pfsel_policydb_decide(db, app, op, proto, addr, port, &decision))
		return -1;
	best = decision.rule;
	for (size_t i = 0; i < request->n_names; i++) {
		const char *name = request->names[i];
		uint32_t class = pfsel_policydb_name_class(db, name,
							   strlen(name));
		uint32_t rule;

		if (pfsel_policydb_decide_name(db, app, op, proto, class, port,
					       &rule))
			return -1;
		if (rule != PFSEL_NONE && !decision.names) {
			fprintf(stderr,
				"  pfsel: name %s gives rule %u, but the decision says names do not matter\n",
				name, rule);
			return -1;
		}
		if (rule < best)
			best = rule;
	}
	if (best == decision.rule) {
		out->verdict = (enum pfw_verdict)decision.verdict;
		out->audit = decision.audit;
	} else {
		out->verdict = (enum pfw_verdict)db->rules[best].verdict;
		out->audit = db->rules[best].audit;
	}
	out->audit = pfw_sepol_effective_audit(out->verdict, out->audit);
	out->rule = best == PFSEL_NONE ? -1 : (long)best;
	out->protected = pfsel_policydb_app_protected(db, app);
	return 0;
}

static int context_sid(const char *type, sepol_security_id_t *sid)
{
	char context[96];

	snprintf(context, sizeof(context),
		 PFW_SEPOL_USER ":" PFW_SEPOL_ROLE ":%s", type);
	return sepol_context_to_sid(context, strlen(context) + 1, sid);
}

/*
 * libsepol's answer.  The domain is the application class pfsel puts the
 * process in, the target the endpoint type of the address and port classes
 * (or the family type, for create): the export promises exactly this
 * mapping, so this is the question an analyst would ask sesearch.
 */
static int ask_sepol(const struct subject *s, const struct pfw_request *request,
		     struct opinion *out)
{
	char domain[32], endpoint[32];
	const char *target = endpoint;
	sepol_security_id_t ssid, tsid;
	sepol_security_class_t tclass;
	sepol_access_vector_t op_perm, ask_perm;
	struct sepol_av_decision avd;
	uint32_t app, addr, port;

	classify(s->compiled.db, request, &app, &addr, &port);
	pfw_sepol_app_type(domain, sizeof(domain), app);
	if (request->op == PFW_OP_CREATE)
		target = pfw_sepol_family_type(request->family);
	else
		pfw_sepol_endpoint_type(
			endpoint, sizeof(endpoint),
			s->export.endpoint_of[(size_t)addr * s->export.n_ports +
					      port]);

	if (context_sid(domain, &ssid) || context_sid(target, &tsid) ||
	    sepol_string_to_security_class(pfw_sepol_class_name(request->proto),
					   &tclass) ||
	    sepol_string_to_av_perm(tclass,
				    pfw_sepol_perm_name(request->op, false),
				    &op_perm) ||
	    sepol_string_to_av_perm(tclass,
				    pfw_sepol_perm_name(request->op, true),
				    &ask_perm) ||
	    sepol_compute_av(ssid, tsid, tclass, op_perm | ask_perm, &avd))
		return -1;

	if (avd.allowed & op_perm)
		out->verdict = PFW_VERDICT_ALLOW;
	else if (avd.allowed & ask_perm)
		out->verdict = PFW_VERDICT_ASK;
	else
		out->verdict = PFW_VERDICT_DENY;
	out->audit = 0;
	if (avd.auditallow &
	    (out->verdict == PFW_VERDICT_ASK ? ask_perm : op_perm) &
	    avd.allowed)
		out->audit |= PFW_AUDIT_LOG_ALLOWED;
	if (out->verdict != PFW_VERDICT_ALLOW && !(avd.auditdeny & op_perm))
		out->audit |= PFW_AUDIT_QUIET_DENIAL;
	out->rule = -2;
	out->protected = -1;
	return 0;
}

/* Make the binary policy in @image libsepol's global policy. */
static int set_sepol_policy(void *image, size_t len)
{
	FILE *file = fmemopen(image, len, "r");
	int rc = file ? sepol_set_policydb_from_file(file) : -1;

	if (file)
		fclose(file);
	return rc;
}

/* Hand the CIL export to libsepol's global policy, for sepol_compute_av(). */
static int load_sepol(const struct subject *s, struct pfw_diag *diag)
{
	struct sepol_policydb *compiled;
	void *image;
	size_t len;
	int rc;

	if (pfw_sepol_compile(s->export.cil, s->export.cil_len, &compiled,
			      diag))
		return -1;
	rc = sepol_policydb_to_image(NULL, compiled, &image, &len);
	sepol_policydb_free(compiled);
	if (rc)
		return -1;
	rc = set_sepol_policy(image, len);
	free(image);
	return rc;
}

/* Run checkpolicy -o @bin @conf, its output to @log; 0 when it succeeds. */
static int run_checkpolicy(const char *conf, const char *bin, const char *log)
{
	char *const argv[] = { "checkpolicy", "-o", (char *)bin, (char *)conf,
			       NULL };
	posix_spawn_file_actions_t actions;
	int status, rc;
	pid_t pid;

	if (posix_spawn_file_actions_init(&actions))
		return -1;
	rc = posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log,
					      O_WRONLY | O_CREAT | O_TRUNC,
					      0600) ||
	     posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO,
					      STDERR_FILENO) ||
	     posix_spawnp(&pid, "checkpolicy", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (rc)
		return -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Print @path to stderr, for a failure report. */
static void print_file(const char *path)
{
	char line[512];
	FILE *file = fopen(path, "r");

	if (!file)
		return;
	while (fgets(line, sizeof(line), file))
		fprintf(stderr, "    %s", line);
	fclose(file);
}

/*
 * The policy.conf export of @s, compiled by checkpolicy in @dir, made
 * libsepol's global policy.  What pfwc notes about the export goes
 * nowhere (the same for every policy); what fails is printed.
 */
static int load_checkpolicy(const struct subject *s, const char *dir)
{
	char conf[256], bin[256], log[256];
	struct pfw_diag quiet;
	void *image = NULL;
	FILE *out, *sink;
	size_t len = 0;
	int rc = -1;

	snprintf(conf, sizeof(conf), "%s/policy.conf", dir);
	snprintf(bin, sizeof(bin), "%s/policy.bin", dir);
	snprintf(log, sizeof(log), "%s/checkpolicy.log", dir);
	sink = fopen("/dev/null", "w");
	out = fopen(conf, "w");
	if (!sink || !out) {
		perror("differential: the policy.conf export");
		goto out;
	}
	pfw_diag_init(&quiet, sink);
	rc = pfw_emit_conf(out, s->policy, s->lowered, s->compiled.db, &quiet);
	pfw_diag_fini(&quiet);
	if (fclose(out) || rc) {
		out = NULL;
		fprintf(stderr, "  pfwc --emit=conf failed\n");
		rc = -1;
		goto out;
	}
	out = NULL;
	rc = run_checkpolicy(conf, bin, log);
	if (rc) {
		fprintf(stderr, "  checkpolicy does not compile the export:\n");
		print_file(log);
		goto out;
	}
	out = fopen(bin, "r");
	if (!out || fseek(out, 0, SEEK_END) || (len = (size_t)ftell(out)) == 0 ||
	    fseek(out, 0, SEEK_SET) || !(image = malloc(len)) ||
	    fread(image, 1, len, out) != len) {
		fprintf(stderr, "  cannot read checkpolicy's %s\n", bin);
		rc = -1;
		goto out;
	}
	rc = set_sepol_policy(image, len);
out:
	free(image);
	if (out)
		fclose(out);
	if (sink)
		fclose(sink);
	return rc;
}

static void free_subject(struct subject *s)
{
	pfw_sepol_export_free(&s->export);
	pfw_serialized_free(&s->compiled);
	pfw_lowered_free(s->lowered);
	pfw_policy_free(s->policy);
}

static int build_subject(struct subject *s, struct gen_rng *rng,
			 struct pfw_diag *diag)
{
	memset(s, 0, sizeof(*s));
	s->policy = gen_policy(rng, MAX_RULES);
	if (!s->policy || pfw_lower(s->policy, &s->lowered))
		return -1;
	/* Serialised once: the evaluator and the export read the same. */
	if (pfw_serialize(s->lowered, &s->compiled))
		return -1;
	if (pfw_sepol_export(s->policy, s->lowered, s->compiled.db, &s->export,
			     diag))
		return -1;
	return load_sepol(s, diag);
}

static void print_opinion(const char *who, const struct opinion *o)
{
	fprintf(stderr, "  %-9s %s%s%s", who, pfw_verdict_name(o->verdict),
		o->audit & PFW_AUDIT_LOG_ALLOWED ? " log" : "",
		o->audit & PFW_AUDIT_QUIET_DENIAL ? " quiet" : "");
	if (o->rule == -1)
		fputs(" (default)", stderr);
	else if (o->rule >= 0)
		fprintf(stderr, " (rule %ld)", o->rule);
	if (o->protected == 1)
		fputs(" protected", stderr);
	fputc('\n', stderr);
}

static bool same(const struct opinion *a, const struct opinion *b)
{
	return a->verdict == b->verdict && a->audit == b->audit &&
	       (a->rule == b->rule || a->rule == -2 || b->rule == -2) &&
	       (a->protected == b->protected || a->protected == -1 ||
		b->protected == -1);
}

/* Remove what load_checkpolicy() made in @dir, and @dir. */
static void remove_work(const char *dir)
{
	static const char *const files[] = { "policy.conf", "policy.bin",
					     "checkpolicy.log" };
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

/*
 * The answers of libsepol's global policy to every request of a policy:
 * @ok[q] false where it had none.
 */
static void ask_sepol_all(const struct subject *s,
			  const struct gen_request *requests, unsigned long n,
			  bool loaded, struct opinion *out, bool *ok)
{
	for (unsigned long q = 0; q < n; q++)
		ok[q] = loaded && !ask_sepol(s, &requests[q].request, &out[q]);
}

int main(void)
{
	unsigned long n_policies =
		env_number("PFSEL_DIFF_POLICIES", DEFAULT_POLICIES);
	unsigned long n_queries =
		env_number("PFSEL_DIFF_QUERIES", DEFAULT_QUERIES);
	unsigned long base_seed = env_number("PFSEL_DIFF_SEED", DEFAULT_SEED);
	unsigned long passed = 0, failed = 0, reports = 0, by_rule = 0;
	unsigned long by_protect = 0, by_name = 0;
	struct gen_request *requests;
	struct opinion *sepol, *checkpolicy;
	bool *sepol_ok, *checkpolicy_ok;
	char work[] = "/tmp/pfsel-differential.XXXXXX";
	struct pfw_diag diag;
	clock_t start = clock();

	if (n_queries > MAX_QUERIES)
		n_queries = MAX_QUERIES;
	requests = calloc(n_queries + 1, sizeof(*requests));
	sepol = calloc(n_queries + 1, sizeof(*sepol));
	checkpolicy = calloc(n_queries + 1, sizeof(*checkpolicy));
	sepol_ok = calloc(n_queries + 1, sizeof(*sepol_ok));
	checkpolicy_ok = calloc(n_queries + 1, sizeof(*checkpolicy_ok));
	if (!requests || !sepol || !checkpolicy || !sepol_ok ||
	    !checkpolicy_ok || !mkdtemp(work)) {
		perror("differential");
		printf("0 passed, 1 failed\n");
		return 1;
	}
	pfw_diag_init(&diag, stderr);
	for (unsigned long i = 0; i < n_policies; i++) {
		unsigned long seed = base_seed + i;
		bool reported_policy = false, compiled;
		struct gen_rng rng;
		struct subject s;

		gen_seed(&rng, seed);
		if (build_subject(&s, &rng, &diag)) {
			fprintf(stderr,
				"seed %lu: the policy does not compile both ways\n",
				seed);
			if (s.policy)
				gen_print_policy(stderr, s.policy);
			free_subject(&s);
			failed += n_queries;
			continue;
		}
		/*
		 * libsepol answers from one global policy: every request is
		 * drawn first (as before: nothing else draws), asked of the
		 * CIL export's policy, then of checkpolicy's.
		 */
		for (unsigned long q = 0; q < n_queries; q++)
			gen_request(&rng, s.policy, &requests[q]);
		ask_sepol_all(&s, requests, n_queries, true, sepol, sepol_ok);
		compiled = !load_checkpolicy(&s, work);
		if (!compiled)
			fprintf(stderr, "seed %lu: no policy from checkpolicy\n",
				seed);
		ask_sepol_all(&s, requests, n_queries, compiled, checkpolicy,
			      checkpolicy_ok);
		for (unsigned long q = 0; q < n_queries; q++) {
			const struct gen_request *const request = &requests[q];
			struct opinion pfsel, ref, ref_unnamed;
			struct ref_decision decision, unnamed;
			struct pfw_request no_names;
			const struct pfw_rule *first;
			long agent_rule;
			bool ok;

			ref_decide(s.policy, &request->request, &decision);
			first = pfw_first_match(s.policy, &request->request);
			agent_rule = first ? first - s.policy->rules : -1;
			ref.verdict = decision.verdict;
			ref.audit = pfw_sepol_effective_audit(decision.verdict,
							      decision.audit);
			ref.rule = decision.rule;
			ref.protected = ref_protected(s.policy,
						      request->request.exe,
						      request->request.script);
			by_rule += decision.rule >= 0;
			by_protect += ref.protected;

			/* What the export, without host elements, must say. */
			no_names = request->request;
			no_names.names = NULL;
			no_names.n_names = 0;
			ref_decide(s.policy, &no_names, &unnamed);
			ref_unnamed = ref;
			ref_unnamed.verdict = unnamed.verdict;
			ref_unnamed.audit = pfw_sepol_effective_audit(
				unnamed.verdict, unnamed.audit);
			ref_unnamed.rule = unnamed.rule;
			by_name += unnamed.rule != decision.rule;

			/*
			 * pfsel-agent's rule file matches with the compiler's
			 * pfw_first_match(): the same rule as the reference.
			 */
			ok = agent_rule == decision.rule &&
			     !ask_pfsel(&s, &request->request, &pfsel) &&
			     sepol_ok[q] && checkpolicy_ok[q] &&
			     same(&pfsel, &ref) &&
			     same(&sepol[q], &ref_unnamed) &&
			     same(&checkpolicy[q], &ref_unnamed);
			if (ok) {
				passed++;
				continue;
			}
			failed++;
			if (reports >= MAX_REPORTS)
				continue;
			reports++;
			fprintf(stderr,
				"MISMATCH: seed %lu (rerun: PFSEL_DIFF_SEED=%lu PFSEL_DIFF_POLICIES=1 PFSEL_DIFF_QUERIES=%lu), request %lu\n",
				seed, seed, n_queries, q);
			if (!reported_policy)
				gen_print_policy(stderr, s.policy);
			reported_policy = true;
			fputs("  request   ", stderr);
			gen_print_request(stderr, &request->request);
			print_opinion("reference", &ref);
			print_opinion("pfsel", &pfsel);
			if (sepol_ok[q])
				print_opinion("sepol", &sepol[q]);
			if (checkpolicy_ok[q])
				print_opinion("checkpol", &checkpolicy[q]);
			if (request->request.n_names)
				print_opinion("unnamed", &ref_unnamed);
			fprintf(stderr, "  pfw_first_match rule %ld\n",
				agent_rule);
		}
		free_subject(&s);
	}
	pfw_diag_fini(&diag);
	remove_work(work);
	free(requests);
	free(sepol);
	free(checkpolicy);
	free(sepol_ok);
	free(checkpolicy_ok);

	printf("differential: %lu policies x %lu requests from seed %lu, %lu%% decided by a rule, %lu%% changed by host names, %lu%% of protected applications, %.1f s CPU\n",
	       n_policies, n_queries, base_seed,
	       passed + failed ? by_rule * 100 / (passed + failed) : 0,
	       passed + failed ? by_name * 100 / (passed + failed) : 0,
	       passed + failed ? by_protect * 100 / (passed + failed) : 0,
	       (double)(clock() - start) / CLOCKS_PER_SEC);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}
