/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-prompt - the desktop side of pfsel-agent: internal interface
 * between its parts, one job a file:
 *
 *   main.c         options, the process's protection, the GtkApplication
 *   question.c     a question as a GObject, and what the window tells of
 *                  it beyond the kernel's fields: the application's name
 *                  and icon (.desktop files, through GIO), the chain of
 *                  parents (/proc), the service name, the rule's text
 *   agent_link.c   the private socket to the agent (libpromptwire)
 *   ask_window.c   the answering window: the question being read, the
 *                  queue, the answers
 *   input_source.c whether an input event came from a device of the
 *                  machine or from a program (X11's XTEST)
 *   monitor.c      the "what happened" window: recent decisions from the
 *                  audit log (libpfsel's reader, as pfsel log reads them),
 *                  and notifications of denials a permissive policy let
 *                  through
 *   rule_dialog.c  "Make this a rule": the rule for a decision of the
 *                  audit log, as the agent writes an "always" answer's
 *                  (libuserpolicy's rule_text_format())
 *
 * Everything the kernel (or the audit log) names -- executables, scripts,
 * comms, rule files, contexts -- is chosen by whoever made the file or the
 * process, which may be the very program the policy restrains: it is shown
 * only as pfsel_escape() writes it (prompt_escape()), in labels that take
 * no markup.
 */
#ifndef PFSEL_PROMPT_H
#define PFSEL_PROMPT_H

#include <gtk/gtk.h>
#include <stdint.h>

#include <pfsel/pfsel.h>

#include "userpolicy.h"

/* Exit statuses (pfsel-prompt(1)). */
enum {
	PROMPT_EXIT_OK = 0,
	PROMPT_EXIT_RUNTIME = 1,
	PROMPT_EXIT_USAGE = 2,
};

/* The status main() returns; set by whoever stops the application. */
extern int prompt_exit_status;

/* ---- Text (question.c) ------------------------------------------------ */

/*
 * @text as pfsel_escape() writes it with @flags (0: every control byte,
 * backslash and display-changing character visible), newly allocated.
 */
char *prompt_escape_flags(const char *text, unsigned int flags);
#define prompt_escape(text) prompt_escape_flags((text), 0)

/*
 * An executable's or a script's path as the window shows it: a Flatpak
 * application's or a snap's as the rule names it ("flatpak ID", "snap
 * NAME": libuserpolicy's app_path_text()), any other escaped
 * (prompt_escape()); newly allocated.
 */
char *prompt_app_text(const char *path);

/*
 * A label for a value from the kernel: no markup, wraps.  Its accessible
 * name is @accessible_name (the field's title, as a screen reader reads
 * it, and what the tests find it by), its text the value; NULL: the name
 * is the text.
 */
GtkWidget *prompt_value_label(const char *accessible_name);

/* Set a label's text, keeping prompt_value_label()'s accessible name. */
void prompt_label_set_text(GtkWidget *label, const char *text);

/*
 * Set @widget's accessible name (GTK_ACCESSIBLE_PROPERTY_LABEL), which
 * screen readers read and the AT-SPI tests find it by.
 */
void prompt_set_accessible_name(GtkWidget *widget, const char *name);

/*
 * A button labelled @mnemonic, whose accessible name is what the label
 * shows (without the underscore).
 */
GtkWidget *prompt_button(const char *mnemonic);

/*
 * One choice of several: a toggle button as prompt_button(), in the group
 * of @group (NULL: the first of its group), so that one of the group is
 * active.  Toggle buttons, not check buttons: GTK 4.8 gives a check
 * button no AT-SPI action, so that neither an assistive technology nor
 * the tests could choose it.  Their box has the "linked" style class.
 */
GtkWidget *prompt_radio(const char *mnemonic, GtkWidget *group);

/*
 * A row of choices: the label @title, then a linked box, named @name for
 * assistive technologies, for the prompt_radio() buttons (*@choices).
 */
GtkWidget *prompt_choice_row(const char *title, const char *name,
			     GtkWidget **choices);

/* The widths of an "always" rule, as radio buttons say them. */
extern const char *const prompt_width_mnemonics[RULE_WIDTH_COUNT];

/* ---- A question (question.c) ------------------------------------------ */

/* What became of a question. */
enum prompt_question_state {
	PROMPT_QUESTION_PENDING,
	PROMPT_QUESTION_ANSWERED, /* by the person, here */
	PROMPT_QUESTION_WITHDRAWN, /* the agent took it back */
	PROMPT_QUESTION_EXPIRED, /* its time ran out here */
};

#define PROMPT_TYPE_QUESTION (prompt_question_get_type())
G_DECLARE_FINAL_TYPE(PromptQuestion, prompt_question, PROMPT, QUESTION, GObject)

/**
 * struct _PromptQuestion - One question of the agent, with what is shown
 * @q: the kernel's question (a copy; about 13 KiB).
 * @request: the request it asks about (pfsel_request_from_question()),
 *           what an "always" rule is written for.
 * @deadline_us: g_get_monotonic_time() after which the kernel no longer
 *               waits (ASK's ms left, from when it was received).
 * @received: wall-clock time it came, for the list of locked-screen ones.
 * @locked: it came while the screen was locked: never answerable.
 * @state: enum prompt_question_state.
 * @outcome: for the locked-screen list: what became of it ("" pending).
 * @app_name: the application's name (escaped): its .desktop file's, else
 *            the executable's (or script's) file name.
 * @icon: its icon, or a generic one.
 * @headline: one sentence: "curl wants to connect to 192.0.2.1 port 443",
 *            "... to www.example.org (192.0.2.1) port 443" when the
 *            kernel knows the address's host names.
 */
struct _PromptQuestion {
	GObject parent;
	struct pfsel_question *q;
	struct pfsel_request *request;
	gint64 deadline_us;
	GDateTime *received;
	gboolean locked;
	enum prompt_question_state state;
	char *outcome;
	char *app_name;
	GIcon *icon;
	char *headline;
};

/* A question received with @ms_left ms to go; @q is copied. */
PromptQuestion *prompt_question_new(const struct pfsel_question *q,
				    uint32_t ms_left);

/* Whole seconds left (rounded up), 0 when the time has run out. */
unsigned int prompt_question_seconds_left(const PromptQuestion *pq);

/* "deny", "allow", or "the policy's unanswered verdict" (older kernels). */
const char *prompt_question_unanswered(const PromptQuestion *pq);

/*
 * The fields the window shows, as text (newly allocated, escaped):
 * PROMPT_FIELD_* index the array prompt_question_fields() fills.
 */
enum prompt_field {
	PROMPT_FIELD_APPLICATION,
	PROMPT_FIELD_EXECUTABLE,
	PROMPT_FIELD_SCRIPT,
	PROMPT_FIELD_PID,
	PROMPT_FIELD_PARENTS,
	PROMPT_FIELD_OPERATION,
	PROMPT_FIELD_PROTOCOL,
	PROMPT_FIELD_ADDRESS,
	PROMPT_FIELD_PORT,
	PROMPT_FIELD_SERVICE,
	PROMPT_FIELD_HOST,
	PROMPT_FIELD_RULE,
	PROMPT_FIELD_CONTEXT,
	PROMPT_FIELD_TIME_LEFT,
	PROMPT_FIELD_THEN,
	PROMPT_FIELD_COUNT,
};

/* Each field's title, which is also its value label's accessible name. */
extern const char *const prompt_field_titles[PROMPT_FIELD_COUNT];

/* Fill @text[PROMPT_FIELD_COUNT] (g_free each). */
void prompt_question_fields(const PromptQuestion *pq,
			    char *text[PROMPT_FIELD_COUNT]);

/* "N s left" / "1 min 5 s left" / "time ran out", for @seconds. */
char *prompt_format_time_left(unsigned int seconds);

/*
 * The chain of parents of process @pid from /proc: "bash (812) <
 * gnome-terminal-server (700) < systemd (1)", comms escaped; "unknown
 * (the process has exited)" when /proc has no @pid.
 */
char *prompt_parent_chain(pid_t pid);

/*
 * Line @line of the rule file @path, its leading blanks dropped, escaped,
 * for "Why?".  NULL with @error set when the file cannot be read (a
 * message naming the call, the file and the errno) or is shorter.
 */
char *prompt_rule_line(const char *path, unsigned int line, GError **error);

/*
 * The application's name and icon for @exe (and @script, "" for none):
 * from the .desktop file whose executable resolves to the script or the
 * executable (g_app_info_get_all()); only .desktop files that the user's
 * programs cannot write (owned by root, writable by no one else) are
 * believed.  Else the file name and a generic icon.  A Flatpak
 * application (app_sandbox_of() of the script or the executable) is
 * named by the .desktop file its system-wide installation exports for
 * its ID, "Name (Flatpak)", believed on the same terms, else "ID
 * (Flatpak)"; a snap is "NAME (Snap)".  @name is escaped.
 */
void prompt_app_lookup(const char *exe, const char *script, char **name,
		       GIcon **icon);

/*
 * The service name of @port for @proto (getservbyport(), newly
 * allocated), or NULL for none or a protocol without ports.
 */
char *prompt_service_name(unsigned int proto, unsigned int port);

/* ---- The agent's socket (agent_link.c) --------------------------------- */

/* What the window does with each message of the agent. */
struct prompt_link_ops {
	void (*ask)(void *data, const struct pfsel_question *q,
		    uint32_t ms_left);
	void (*withdraw)(void *data, uint64_t id, unsigned int reason);
	void (*result)(void *data, uint64_t id, int status, const char *text);
	/* The agent closed its end (0) or the socket failed (-errno). */
	void (*closed)(void *data, int err);
};

struct prompt_link;

/*
 * Check that @fd is a SOCK_SEQPACKET socket, make it non-blocking and
 * close-on-exec, and read it from the main loop.  NULL with a message in
 * @error (the call and errno) when @fd is not such a socket.
 */
struct prompt_link *prompt_link_new(int fd, const struct prompt_link_ops *ops,
				    void *data, GError **error);

/* Send an answer: 0 or a negative errno (said on standard error). */
int prompt_link_answer(struct prompt_link *link, uint64_t id,
		       unsigned int verdict, unsigned int scope,
		       unsigned int width);

void prompt_link_free(struct prompt_link *link);

/* ---- Where input came from (input_source.c) ---------------------------- */

/*
 * What tells, on @display, which input a device of the machine made and
 * which a program made.  NULL on a display that is not X11 (no client of
 * a Wayland compositor can make another's input); the functions below
 * take NULL.
 */
struct prompt_input_source *prompt_input_source_new(GdkDisplay *display);

/*
 * Whether @event (a key, button or touch event being handled) was made by
 * a program: under X11, made through XTEST, sent by another client, or
 * not traced to a physical device of the X server's; a key pressed while
 * a program holds a key down or has Alt latched or locked.  FALSE for
 * every event under Wayland.
 */
gboolean prompt_input_synthetic(const struct prompt_input_source *src,
				GdkEvent *event);

void prompt_input_source_free(struct prompt_input_source *src);

/* ---- The windows -------------------------------------------------------- */

/*
 * What the administrator let answer besides the person's own input on a
 * device, from the agent's environment (pfsel-prompt(1), ENVIRONMENT):
 * any program of the user can answer so too.
 */
struct prompt_answer_options {
	/* An assistive technology's AT-SPI action on Allow or Deny. */
	gboolean accessible_actions;
	/* Under X11, key presses and clicks made through XTEST. */
	gboolean xtest_input;
};

/*
 * The answering window, reading the agent's socket @fd (ask_window.c).
 * Allow and Deny answer on the person's own click or key press on them,
 * and as @allow lets other input answer.  NULL with @error when @fd is
 * not the agent's socket.
 */
GtkWindow *prompt_ask_window_new(GtkApplication *app, int fd,
				 const struct prompt_answer_options *allow,
				 GError **error);

/* What the monitor reads and whose decisions it shows (monitor.c). */
struct prompt_monitor_options {
	const char *audit_input; /* NULL: the audit daemon's logs */
	uint32_t uid;
	gboolean notify; /* send notifications of permissive denials */
};

/*
 * The monitor: a window (show_window) or none yet (the session's
 * background instance, which only notifies until it is activated).
 * The options are copied.
 */
struct prompt_monitor;
struct prompt_monitor *
prompt_monitor_new(GtkApplication *app,
		   const struct prompt_monitor_options *opts);
/* Show its window (made on first use) and present it. */
void prompt_monitor_present(struct prompt_monitor *mon);
void prompt_monitor_free(struct prompt_monitor *mon);

/*
 * "Make this a rule": a dialog over @parent with the rule that decides
 * @req for good (rule_text_format(), as the agent writes an "always"
 * answer's and audit2pfw a denial's), starting from @verdict; a verdict
 * and width to choose, the text, and a Copy button (rule_dialog.c).
 */
void prompt_rule_dialog_show(GtkWindow *parent, const struct pfsel_request *req,
			     unsigned int verdict);

#endif /* PFSEL_PROMPT_H */
