// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - the desktop prompt of pfsel-agent, and the monitor of
 * what pfsel decided.  See pfsel-prompt(1).
 *
 *   pfsel-prompt --agent-fd=N    the answering window: pfsel-agent runs it
 *                                as its child and speaks to it only over
 *                                descriptor N, its end of a private
 *                                socket pair
 *   pfsel-prompt --monitor       recent decisions from the audit log and
 *                                notifications of permissive denials;
 *                                answers nothing (the user's session
 *                                starts it)
 *
 * The answering window trusts nothing but descriptor N: it is not a
 * unique application (nothing on the session bus can command it, and no
 * action it exports answers), and it makes itself non-dumpable before
 * anything else, so that the user's other programs can neither ptrace it
 * nor write its memory.  Its Allow and Deny answer the person's own click
 * or key press only, not a program acting on them through the
 * accessibility bus nor, under X11, a program's key presses and clicks
 * made through XTEST, unless the administrator allowed that
 * (--accept-accessible-actions, --accept-xtest-input, or
 * PFSEL_PROMPT_ACCESSIBLE_ACTIONS=1, PFSEL_PROMPT_XTEST_INPUT=1 in the
 * agent's environment, which the agent passes on).
 */
#include <errno.h>
#include <getopt.h>
#include <glib-unix.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "prompt.h"

/*
 * Set to 1 in the agent's environment (root's: the unit's
 * /etc/pfsel/agent/USER.conf), which the agent gives its prompt: as
 * --accept-accessible-actions and --accept-xtest-input.
 */
#define ACCESSIBLE_ACTIONS_ENV "PFSEL_PROMPT_ACCESSIBLE_ACTIONS"
#define XTEST_INPUT_ENV "PFSEL_PROMPT_XTEST_INPUT"

#ifndef PFSEL_TOOLS_VERSION
#define PFSEL_TOOLS_VERSION "unknown"
#endif

int prompt_exit_status = PROMPT_EXIT_OK;

struct options {
	int agent_fd; /* -1: not the answering window */
	struct prompt_answer_options allow;
	gboolean monitor;
	gboolean background;
	const char *audit_input;
	gboolean has_uid;
	uint32_t uid;
};

/* What runs in the application, set up at its startup. */
struct state {
	struct options opts;
	GtkWindow *ask_window;
	struct prompt_monitor *monitor;
	gboolean activated;
};

static void usage(FILE *out)
{
	fputs("Usage: pfsel-prompt --agent-fd=N [--accept-accessible-actions]\n"
	      "                    [--accept-xtest-input]\n"
	      "       pfsel-prompt --monitor [--background] "
	      "[--audit-input=FILE] [--uid=UID]\n"
	      "The desktop prompt of pfsel-agent, and a view of what pfsel "
	      "decided.\n"
	      "\n"
	      "  --agent-fd=N        answer pfsel-agent's questions: N is the "
	      "agent's\n"
	      "                      socket (pfsel-agent --prompt starts the "
	      "prompt so;\n"
	      "                      no other program can answer through it)\n"
	      "  --accept-accessible-actions\n"
	      "                      let assistive technologies answer: "
	      "Allow and Deny\n"
	      "                      pressed through the accessibility bus "
	      "(which any\n"
	      "                      program of yours can do) answer too; "
	      "else only your\n"
	      "                      own click or key press on them does "
	      "(also:\n"
	      "                      PFSEL_PROMPT_ACCESSIBLE_ACTIONS=1 in the "
	      "environment)\n"
	      "  --accept-xtest-input  under X11, let key presses and clicks "
	      "made through\n"
	      "                      XTEST answer (on-screen keyboards; any "
	      "program of\n"
	      "                      yours can make them); else only a "
	      "keyboard's or\n"
	      "                      mouse's own do (also: "
	      "PFSEL_PROMPT_XTEST_INPUT=1)\n"
	      "  --monitor           show recent decisions from the audit log, "
	      "and notify\n"
	      "                      denials that a permissive policy let "
	      "through\n"
	      "  --background        (--monitor) notify only; the window opens "
	      "when the\n"
	      "                      monitor is started again (its .desktop "
	      "file)\n"
	      "  --audit-input=FILE  (--monitor) read FILE (raw records, as "
	      "'ausearch --raw'\n"
	      "                      prints them) instead of the audit logs\n"
	      "  --uid=UID           (--monitor) this user's decisions "
	      "(default: yours)\n"
	      "  -h, --help          show this help and exit\n"
	      "  -V, --version       show the version and exit\n"
	      "\n"
	      "Exit status: 0 the agent closed its socket (or the monitor was "
	      "closed),\n"
	      "1 a runtime error (no display, no agent socket on N, the "
	      "socket failed),\n"
	      "2 wrong usage.\n",
	      out);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("pfsel-prompt: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pfsel-prompt --help'.\n", stderr);
	return PROMPT_EXIT_USAGE;
}

/* A decimal number from 0 to @max: TRUE and *@value. */
static gboolean parse_number(const char *text, unsigned long max,
			     unsigned long *value)
{
	char *end;

	if (!text || text[0] < '0' || text[0] > '9')
		return FALSE;
	errno = 0;
	*value = strtoul(text, &end, 10);
	return !errno && !*end && *value <= max;
}

/* 0, or the exit status of a usage error (said on standard error). */
static int parse_options(int argc, char **argv, struct options *o,
			 gboolean *done)
{
	enum {
		OPT_AGENT_FD = 256,
		OPT_ACCESSIBLE_ACTIONS,
		OPT_XTEST_INPUT,
		OPT_MONITOR,
		OPT_BACKGROUND,
		OPT_INPUT,
		OPT_UID
	};
	static const struct option options[] = {
		{ "agent-fd", required_argument, NULL, OPT_AGENT_FD },
		{ "accept-accessible-actions", no_argument, NULL,
		  OPT_ACCESSIBLE_ACTIONS },
		{ "accept-xtest-input", no_argument, NULL, OPT_XTEST_INPUT },
		{ "monitor", no_argument, NULL, OPT_MONITOR },
		{ "background", no_argument, NULL, OPT_BACKGROUND },
		{ "audit-input", required_argument, NULL, OPT_INPUT },
		{ "uid", required_argument, NULL, OPT_UID },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n;
	int opt;

	o->agent_fd = -1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hV", options, NULL)) != -1) {
		switch (opt) {
		case OPT_AGENT_FD:
			if (!parse_number(optarg, INT_MAX, &n))
				return usage_error("'%s' is not a descriptor "
						   "number",
						   optarg);
			o->agent_fd = (int)n;
			break;
		case OPT_ACCESSIBLE_ACTIONS:
			o->allow.accessible_actions = TRUE;
			break;
		case OPT_XTEST_INPUT:
			o->allow.xtest_input = TRUE;
			break;
		case OPT_MONITOR:
			o->monitor = TRUE;
			break;
		case OPT_BACKGROUND:
			o->background = TRUE;
			break;
		case OPT_INPUT:
			if (!optarg[0])
				return usage_error("%s--audit-input needs a "
						   "file name",
						   "");
			o->audit_input = optarg;
			break;
		case OPT_UID:
			if (!parse_number(optarg, 4294967294UL, &n))
				return usage_error("'%s' is not a uid", optarg);
			o->has_uid = TRUE;
			o->uid = (uint32_t)n;
			break;
		case 'h':
			usage(stdout);
			*done = TRUE;
			return 0;
		case 'V':
			printf("pfsel-prompt %s\n", PFSEL_TOOLS_VERSION);
			*done = TRUE;
			return 0;
		case ':':
			return usage_error("'%s' needs an argument",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if ((o->agent_fd >= 0) == o->monitor)
		return usage_error("%sgive either --agent-fd=N or --monitor",
				   "");
	if (!o->monitor && (o->background || o->audit_input || o->has_uid))
		return usage_error("%s--background, --audit-input and --uid "
				   "go with --monitor",
				   "");
	if (o->monitor && (o->allow.accessible_actions || o->allow.xtest_input))
		return usage_error("%s--accept-accessible-actions and "
				   "--accept-xtest-input go with --agent-fd",
				   "");
	return 0;
}

/*
 * The administrator's setting @name from the environment the agent gave:
 * "1" lets @what answer; unset, empty or "0" does not.  Anything else is
 * a mistake in the administrator's file: said, and taken as "0" (the
 * safe side).
 */
static gboolean allowed_by_env(const char *name, const char *what)
{
	const char *value = g_getenv(name);

	if (!value || !value[0] || !strcmp(value, "0"))
		return FALSE;
	if (!strcmp(value, "1"))
		return TRUE;
	fprintf(stderr,
		"pfsel-prompt: %s='%s' is neither 1 nor 0: %s do not answer\n",
		name, value, what);
	return FALSE;
}

/* ---- The answering window ---------------------------------------------- */

static void ask_startup(GApplication *app, gpointer data)
{
	struct state *st = data;
	g_autoptr(GError) error = NULL;

	/* No window is visible until a question comes: stay meanwhile. */
	g_application_hold(app);
	st->ask_window = prompt_ask_window_new(GTK_APPLICATION(app),
					       st->opts.agent_fd,
					       &st->opts.allow, &error);
	if (!st->ask_window) {
		fprintf(stderr, "pfsel-prompt: %s\n", error->message);
		prompt_exit_status = PROMPT_EXIT_RUNTIME;
		g_application_quit(app);
	}
}

/*
 * Nothing: the window shows itself when a question comes.  Anyone on the
 * session bus can call Activate on the application's object path, and a
 * window brought forward at a moment of another program's choosing could
 * catch a click meant for something else.
 */
static void ask_activate(GApplication *app, gpointer data)
{
	(void)app;
	(void)data;
}

/* ---- The monitor -------------------------------------------------------- */

static void on_show_monitor(GSimpleAction *action, GVariant *param,
			    gpointer data)
{
	struct state *st = data;

	(void)action;
	(void)param;
	prompt_monitor_present(st->monitor);
}

static void monitor_startup(GApplication *app, gpointer data)
{
	struct state *st = data;
	struct prompt_monitor_options mo = {
		.audit_input = st->opts.audit_input,
		.uid = st->opts.has_uid ? st->opts.uid : (uint32_t)getuid(),
		.notify = TRUE,
	};
	GSimpleAction *show = g_simple_action_new("show-monitor", NULL);

	/* What a notification's click does: the monitor answers nothing. */
	g_signal_connect(show, "activate", G_CALLBACK(on_show_monitor), st);
	g_action_map_add_action(G_ACTION_MAP(app), G_ACTION(show));
	g_object_unref(show);
	st->monitor = prompt_monitor_new(GTK_APPLICATION(app), &mo);
	/* The session's instance runs without a window. */
	if (st->opts.background)
		g_application_hold(app);
}

static void monitor_activate(GApplication *app, gpointer data)
{
	struct state *st = data;

	(void)app;
	/* Started in the background: the first activation is the start. */
	if (!st->activated && st->opts.background) {
		st->activated = TRUE;
		return;
	}
	st->activated = TRUE;
	prompt_monitor_present(st->monitor);
}

/* SIGTERM (systemd, the agent) and SIGINT: a clean stop, status 0. */
static gboolean on_stop_signal(gpointer data)
{
	g_application_quit(G_APPLICATION(data));
	return G_SOURCE_CONTINUE;
}

static void on_shutdown(GApplication *app, gpointer data)
{
	struct state *st = data;

	(void)app;
	prompt_monitor_free(st->monitor);
	st->monitor = NULL;
}

int main(int argc, char **argv)
{
	struct state st = { 0 };
	GtkApplication *app;
	gboolean done = FALSE;
	char *run_argv[] = { argv[0], NULL };
	int ret;

	/*
	 * First: the user's other programs (same uid) must not ptrace this
	 * process or write its memory, or they could answer through it.
	 */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
		fprintf(stderr, "pfsel-prompt: prctl(PR_SET_DUMPABLE, 0): %s\n",
			strerror(errno));
		return PROMPT_EXIT_RUNTIME;
	}
	ret = parse_options(argc, argv, &st.opts, &done);
	if (ret || done)
		return ret;
	if (!st.opts.monitor &&
	    allowed_by_env(ACCESSIBLE_ACTIONS_ENV, "assistive technologies"))
		st.opts.allow.accessible_actions = TRUE;
	if (!st.opts.monitor &&
	    allowed_by_env(XTEST_INPUT_ENV, "key presses and clicks made "
					    "through XTEST"))
		st.opts.allow.xtest_input = TRUE;
	/*
	 * Drawn by the CPU, never OpenGL: the agent's unit forbids writable
	 * and executable memory (MemoryDenyWriteExecute=) and devices, under
	 * which Mesa's shader compiler crashes the program; and a dialog this
	 * small needs no GPU, nor the code that drives one in the window that
	 * decides what the network sees.
	 */
	g_setenv("GSK_RENDERER", "cairo", TRUE);
	if (!gtk_init_check()) {
		const char *x = g_getenv("DISPLAY"),
			   *w = g_getenv("WAYLAND_DISPLAY");

		fprintf(stderr,
			"pfsel-prompt: cannot open a display (DISPLAY=%s, "
			"WAYLAND_DISPLAY=%s)\n",
			x ? x : "unset", w ? w : "unset");
		return PROMPT_EXIT_RUNTIME;
	}
	if (st.opts.monitor) {
		/*
		 * One monitor a session: started again (its .desktop file),
		 * it shows the running one's window.  Reading a file given
		 * for a test is a monitor of its own.
		 */
		app = gtk_application_new("org.pfsel.Monitor",
					  st.opts.audit_input ?
						  G_APPLICATION_NON_UNIQUE :
						  G_APPLICATION_DEFAULT_FLAGS);
		g_signal_connect(app, "startup", G_CALLBACK(monitor_startup),
				 &st);
		g_signal_connect(app, "activate", G_CALLBACK(monitor_activate),
				 &st);
	} else {
		/*
		 * Not unique: no name on the session bus to call, nothing to
		 * command.  The session registration gives GTK the screen
		 * saver's state (screensaver-active).
		 */
		app = gtk_application_new("org.pfsel.Prompt",
					  G_APPLICATION_NON_UNIQUE);
		g_object_set(app, "register-session", TRUE, NULL);
		g_signal_connect(app, "startup", G_CALLBACK(ask_startup), &st);
		g_signal_connect(app, "activate", G_CALLBACK(ask_activate),
				 &st);
	}
	g_signal_connect(app, "shutdown", G_CALLBACK(on_shutdown), &st);
	g_unix_signal_add(SIGTERM, on_stop_signal, app);
	g_unix_signal_add(SIGINT, on_stop_signal, app);
	/* The options are ours, parsed above: GApplication sees none. */
	ret = g_application_run(G_APPLICATION(app), 1, run_argv);
	g_object_unref(app);
	if (prompt_exit_status != PROMPT_EXIT_OK)
		return prompt_exit_status;
	return ret ? PROMPT_EXIT_RUNTIME : PROMPT_EXIT_OK;
}
