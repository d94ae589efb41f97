// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - the answering window.
 *
 * One window for every question: the one being read on the left, every
 * field a labelled value, the answer (allow or deny; once, this process,
 * this session or always; for always, how wide, shown as the very rule
 * rule_text_format() gives, which the agent will add); the questions
 * waiting on the right, oldest first.  A new question is appended to the
 * list and never takes the place of the one being read, and the window is
 * presented (given focus) only the first time it is shown: a question
 * arriving must not turn a keystroke meant for another window into an
 * answer.  For the same reason the Allow and Deny buttons take a moment
 * (ARM_MS) after a question comes into view before they act.
 *
 * An answer is the person's: Allow and Deny answer only when the person's
 * own pointer click or key press on them has just happened (INPUT_MS).
 * The window is on the session's accessibility bus, where any program of
 * the user -- the very programs the policy restrains -- can activate a
 * button (AT-SPI's DoAction) as a screen reader would; such an activation
 * alone answers nothing, unless the administrator let assistive
 * technologies answer (--accept-accessible-actions, from the agent's
 * environment).  Reading the window through that bus is unaffected.
 * Under X11 any client can also make key presses and clicks (XTEST) that
 * the server delivers as a keyboard's and a mouse's: a click or key press
 * that came so (input_source.c) answers nothing either, unless the
 * administrator let XTEST answer (--accept-xtest-input), for a person
 * whose on-screen keyboard or switch access types through it.
 *
 * While the screen is locked (GtkApplication's screensaver-active, or
 * GNOME's screen shield, org.gnome.ScreenSaver) no question can be
 * answered: questions that arrive meanwhile are left to the kernel's
 * unanswered verdict and listed for review afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prompt.h"
#include "prompt_wire.h"
#include "userpolicy.h"

/* gtk.h says which windowing systems this GTK has. */
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* How long a question must be in view before its buttons act. */
#define ARM_MS 1000

/*
 * How recent the person's click or key press on Allow or Deny must be for
 * the button's activation to be their answer.  GTK activates a button on
 * the key press and emits "clicked" at the key's release or 250 ms later,
 * and on a click at the release itself: both well within this.
 */
#define INPUT_MS 1000

/* The scopes, in the order of their buttons. */
static const unsigned int scope_values[] = {
	PFSEL_SCOPE_ONCE,
	PFSEL_SCOPE_PROCESS,
	PFSEL_SCOPE_SESSION,
	PFSEL_SCOPE_ALWAYS,
};
static const char *const scope_labels[] = { "_Once", "This _process",
					    "This _session", "A_lways" };
static const char *const scope_names[] = { "Once", "This process",
					   "This session", "Always" };
#define N_SCOPES G_N_ELEMENTS(scope_values)

struct ask_window;

/**
 * struct answer_button - Allow or Deny, and the person's input on it
 * @w: the window.
 * @button: the GtkButton.
 * @name: "Allow" or "Deny", for messages.
 * @verdict: PFSEL_ANSWER_ALLOW or PFSEL_ANSWER_DENY.
 * @mnemonic: the key (lower case) that activates it with Alt.
 * @pressed_us: g_get_monotonic_time() of the last press of the pointer's
 *              primary button on it; 0 when none since the last answer.
 * @released_us: when that press was released on it (0: not yet, or off
 *               the button, which does not click it).
 * @press_synthetic: that press was made by a program (XTEST), not a device.
 * @release_synthetic: likewise its release.
 */
struct answer_button {
	struct ask_window *w;
	GtkWidget *button;
	const char *name;
	unsigned int verdict;
	guint mnemonic;
	gint64 pressed_us;
	gint64 released_us;
	gboolean press_synthetic;
	gboolean release_synthetic;
};

enum { ANSWER_ALLOW, ANSWER_DENY, N_ANSWERS };

struct ask_window {
	GtkApplication *app;
	GtkWindow *window;
	struct prompt_link *link;
	struct prompt_monitor *monitor;

	GListStore *pending; /* PromptQuestion, oldest first */
	GListStore *locked; /* those that came while the screen was locked */
	PromptQuestion *current; /* the one being read, or NULL */

	gboolean built; /* every widget below exists */
	gboolean shown_once;
	gboolean screen_locked;
	/* GNOME's screen shield, as org.gnome.ScreenSaver last said. */
	gboolean shield_active;
	GDBusConnection *bus;
	guint shield_watch;
	guint shield_signal;
	GCancellable *shield_calls;
	gboolean armed;
	gint64 armed_us; /* when the buttons were armed */
	guint arm_timer;
	guint tick_timer;

	/* What answers besides the person's own input (the administrator's). */
	struct prompt_answer_options allow;
	/* Which input a program made (X11), for the checks below. */
	struct prompt_input_source *input;
	/*
	 * The last key pressed in the window: when, which, with what
	 * modifiers, which widget had the focus then (compared only, never
	 * used), and whether a program made it.  0 when none since the last
	 * answer.
	 */
	gint64 key_us;
	guint key_val;
	GdkModifierType key_state;
	const GtkWidget *key_focus;
	gboolean key_synthetic;
	struct answer_button answers[N_ANSWERS];

	GtkWidget *lock_banner;
	GtkWidget *empty_label;
	GtkWidget *question_box;
	GtkWidget *icon;
	GtkWidget *headline;
	GtkWidget *values[PROMPT_FIELD_COUNT];
	GtkWidget *why_button;
	GtkWidget *rule_text;
	GtkWidget *scope_buttons[N_SCOPES];
	GtkWidget *width_box;
	GtkWidget *width_buttons[RULE_WIDTH_COUNT];
	GtkWidget *rule_box;
	GtkWidget *rule_allow;
	GtkWidget *rule_deny;
	GtkWidget *allow_button;
	GtkWidget *deny_button;
	GtkWidget *refused_notice;
	GtkWidget *status;
	GtkWidget *counter;
	GtkWidget *pending_list;
	GtkWidget *locked_box;
	GtkWidget *locked_list;
};

/* ---- Small helpers ---------------------------------------------------- */

static unsigned int selected_scope(struct ask_window *w)
{
	size_t i;

	for (i = 0; i < N_SCOPES; i++)
		if (gtk_toggle_button_get_active(
			    GTK_TOGGLE_BUTTON(w->scope_buttons[i])))
			return scope_values[i];
	return PFSEL_SCOPE_ONCE;
}

static unsigned int selected_width(struct ask_window *w)
{
	unsigned int i;

	for (i = 0; i < RULE_WIDTH_COUNT; i++)
		if (gtk_toggle_button_get_active(
			    GTK_TOGGLE_BUTTON(w->width_buttons[i])))
			return i;
	return RULE_WIDTH_EXACT;
}

/* Where @id is in @store: TRUE and *@pos. */
static gboolean find_question(GListStore *store, uint64_t id, guint *pos)
{
	guint i, n = g_list_model_get_n_items(G_LIST_MODEL(store));

	for (i = 0; i < n; i++) {
		g_autoptr(PromptQuestion)
			pq = g_list_model_get_item(G_LIST_MODEL(store), i);

		if (pq->q->id == id) {
			*pos = i;
			return TRUE;
		}
	}
	return FALSE;
}

/* Say @text on the status line (the last thing that happened). */
static void set_status(struct ask_window *w, const char *text)
{
	prompt_label_set_text(w->status, text);
	gtk_widget_set_visible(w->status, text[0] != '\0');
}

/* The rule of an "always" answer with @verdict, for the preview. */
static char *rule_text(const PromptQuestion *pq, unsigned int verdict,
		       unsigned int width, gboolean *ok)
{
	char buf[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) * 2 + 512];
	int ret = rule_text_format(pq->request, verdict, width, NULL, 0, buf,
				   sizeof(buf));

	*ok = ret >= 0;
	if (ret == -EINVAL)
		return g_strdup("none: no rule can name this application "
				"(the kernel could not name its executable)");
	if (ret == -ENOENT)
		return g_strdup("none: the kernel knows no host name for "
				"this address that a rule can name");
	if (ret < 0)
		return g_strdup_printf("none: %s", g_strerror(-ret));
	/* The paths in it are escaped already; this is a last guard. */
	return prompt_escape_flags(buf, PFSEL_ESCAPE_CONTROLS);
}

/* ---- What the answer part shows --------------------------------------- */

static void update_answer_part(struct ask_window *w)
{
	const gboolean always = selected_scope(w) == PFSEL_SCOPE_ALWAYS;
	const unsigned int width = selected_width(w);
	gboolean ok_allow = TRUE, ok_deny = TRUE, can_answer;

	/*
	 * The width stays choosable before "Always" is: only the rule
	 * shown, and the answer, depend on the scope.
	 */
	gtk_widget_set_visible(w->rule_box, always);
	if (w->current && always) {
		g_autofree char *a = rule_text(w->current, PFSEL_ANSWER_ALLOW,
					       width, &ok_allow);
		g_autofree char *d = rule_text(w->current, PFSEL_ANSWER_DENY,
					       width, &ok_deny);

		prompt_label_set_text(w->rule_allow, a);
		prompt_label_set_text(w->rule_deny, d);
	}
	can_answer = w->current && w->armed && !w->screen_locked;
	gtk_widget_set_sensitive(w->allow_button, can_answer && ok_allow);
	gtk_widget_set_sensitive(w->deny_button, can_answer && ok_deny);
}

static void on_choice_toggled(GtkToggleButton *button, gpointer data)
{
	struct ask_window *w = data;

	(void)button;
	if (w->built)
		update_answer_part(w);
}

static gboolean on_armed(gpointer data)
{
	struct ask_window *w = data;

	w->arm_timer = 0;
	w->armed = TRUE;
	w->armed_us = g_get_monotonic_time();
	update_answer_part(w);
	return G_SOURCE_REMOVE;
}

/* The buttons act only ARM_MS after a question comes into view. */
static void disarm(struct ask_window *w)
{
	w->armed = FALSE;
	if (w->arm_timer)
		g_source_remove(w->arm_timer);
	w->arm_timer = g_timeout_add(ARM_MS, on_armed, w);
}

/*
 * The window gaining the focus is a question coming into view too: a
 * program of the user's can give the prompt the focus (XSetInputFocus,
 * any X client may) just as the person presses Space in another window,
 * with Allow focused beforehand; the buttons wait ARM_MS again.
 */
static void on_active_changed(GObject *window, GParamSpec *pspec, gpointer data)
{
	struct ask_window *w = data;

	(void)pspec;
	if (w->current && gtk_window_is_active(GTK_WINDOW(window))) {
		disarm(w);
		update_answer_part(w);
	}
}

/* ---- The question being read ------------------------------------------ */

static void update_time_left(struct ask_window *w)
{
	g_autofree char *left = NULL;

	if (!w->current)
		return;
	left = prompt_format_time_left(
		prompt_question_seconds_left(w->current));
	prompt_label_set_text(w->values[PROMPT_FIELD_TIME_LEFT], left);
}

static void select_current_row(struct ask_window *w)
{
	GtkListBox *list = GTK_LIST_BOX(w->pending_list);
	guint pos;

	if (w->current && find_question(w->pending, w->current->q->id, &pos))
		gtk_list_box_select_row(
			list, gtk_list_box_get_row_at_index(list, (int)pos));
	else
		gtk_list_box_unselect_all(list);
}

/* Show @pq (NULL: none) as the question being read, choices reset. */
static void show_question(struct ask_window *w, PromptQuestion *pq)
{
	char *text[PROMPT_FIELD_COUNT];
	size_t i;

	g_set_object(&w->current, pq);
	gtk_widget_set_visible(w->question_box, pq != NULL);
	gtk_widget_set_visible(w->empty_label, pq == NULL);
	if (pq) {
		prompt_question_fields(pq, text);
		for (i = 0; i < PROMPT_FIELD_COUNT; i++) {
			prompt_label_set_text(w->values[i], text[i]);
			g_free(text[i]);
		}
		gtk_image_set_from_gicon(GTK_IMAGE(w->icon), pq->icon);
		prompt_label_set_text(w->headline, pq->headline);
		gtk_widget_set_visible(w->rule_text, FALSE);
		prompt_label_set_text(w->rule_text, "");
		gtk_widget_set_visible(w->refused_notice, FALSE);
		/* Every question starts from once and the exact width. */
		gtk_toggle_button_set_active(
			GTK_TOGGLE_BUTTON(w->scope_buttons[0]), TRUE);
		gtk_toggle_button_set_active(
			GTK_TOGGLE_BUTTON(w->width_buttons[RULE_WIDTH_EXACT]),
			TRUE);
		/* The host widths only when the kernel named the host. */
		for (i = 0; i < RULE_WIDTH_COUNT; i++)
			gtk_widget_set_visible(w->width_buttons[i],
					       rule_width_applies(pq->request,
								  (unsigned)i));
		disarm(w);
	}
	select_current_row(w);
	update_answer_part(w);
}

/* The next question to read when the current one is gone: the oldest. */
static void show_next(struct ask_window *w)
{
	g_autoptr(PromptQuestion)
		first = g_list_model_get_item(G_LIST_MODEL(w->pending), 0);

	show_question(w, first);
}

static void update_counter(struct ask_window *w)
{
	guint n = g_list_model_get_n_items(G_LIST_MODEL(w->pending));
	g_autofree char *text = NULL, *title = NULL;

	if (!n)
		text = g_strdup("No questions waiting");
	else
		text = g_strdup_printf("%u question%s waiting", n,
				       n == 1 ? "" : "s");
	prompt_label_set_text(w->counter, text);
	title = g_strdup_printf("pfsel: %s", text);
	gtk_window_set_title(w->window, title);
}

/* Take @pq out of the queue, and out of view if it was being read. */
static void remove_pending(struct ask_window *w, PromptQuestion *pq)
{
	guint pos;
	gboolean was_current = pq == w->current;

	g_object_ref(pq);
	if (find_question(w->pending, pq->q->id, &pos))
		g_list_store_remove(w->pending, pos);
	if (was_current)
		show_next(w);
	update_counter(w);
	g_object_unref(pq);
}

/* ---- The lists -------------------------------------------------------- */

/* A pending question's row: "curl wants to ... (25 s left)". */
static char *pending_row_text(PromptQuestion *pq)
{
	g_autofree char *left =
		prompt_format_time_left(prompt_question_seconds_left(pq));

	return g_strdup_printf("%s (%s)", pq->headline, left);
}

/* A locked-screen question's row: when, what, what became of it. */
static char *locked_row_text(PromptQuestion *pq)
{
	g_autofree char *when = g_date_time_format(pq->received, "%H:%M:%S");

	return g_strdup_printf("%s %s: %s", when, pq->headline,
			       pq->outcome[0] ?
				       pq->outcome :
				       "waiting for its time to run out");
}

static GtkWidget *make_row(gpointer item, char *(*text)(PromptQuestion *))
{
	PromptQuestion *pq = item;
	g_autofree char *s = text(pq);
	GtkWidget *label = prompt_value_label(NULL);

	prompt_label_set_text(label, s);
	gtk_widget_set_margin_top(label, 4);
	gtk_widget_set_margin_bottom(label, 4);
	gtk_widget_set_margin_start(label, 6);
	gtk_widget_set_margin_end(label, 6);
	g_object_set_data_full(G_OBJECT(label), "question", g_object_ref(pq),
			       g_object_unref);
	return label;
}

static GtkWidget *make_pending_row(gpointer item, gpointer data)
{
	(void)data;
	return make_row(item, pending_row_text);
}

static GtkWidget *make_locked_row(gpointer item, gpointer data)
{
	(void)data;
	return make_row(item, locked_row_text);
}

/* Rewrite every row's text of @list (time left, outcomes). */
static void refresh_rows(GtkWidget *list, char *(*text)(PromptQuestion *))
{
	GtkListBoxRow *row;
	int i;

	for (i = 0;
	     (row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(list), i));
	     i++) {
		GtkWidget *label = gtk_list_box_row_get_child(row);
		PromptQuestion *pq =
			g_object_get_data(G_OBJECT(label), "question");
		g_autofree char *s = NULL;

		if (!pq)
			continue;
		s = text(pq);
		prompt_label_set_text(label, s);
	}
}

static void on_row_activated(GtkListBox *list, GtkListBoxRow *row,
			     gpointer data)
{
	struct ask_window *w = data;
	g_autoptr(PromptQuestion) pq = NULL;

	(void)list;
	pq = g_list_model_get_item(G_LIST_MODEL(w->pending),
				   (guint)gtk_list_box_row_get_index(row));
	if (pq && pq != w->current)
		show_question(w, pq);
}

static void on_locked_items_changed(GListModel *model, guint pos, guint removed,
				    guint added, gpointer data)
{
	struct ask_window *w = data;

	(void)pos;
	(void)removed;
	(void)added;
	gtk_widget_set_visible(w->locked_box,
			       g_list_model_get_n_items(model) > 0);
}

static void on_clear_locked(GtkButton *button, gpointer data)
{
	struct ask_window *w = data;

	(void)button;
	g_list_store_remove_all(w->locked);
}

/* ---- Time ------------------------------------------------------------- */

/* A question whose time ran out here (the agent will withdraw it too). */
static void expire(struct ask_window *w, PromptQuestion *pq)
{
	g_autofree char *msg = NULL;

	pq->state = PROMPT_QUESTION_EXPIRED;
	g_free(pq->outcome);
	pq->outcome = g_strdup_printf("time ran out: %s",
				      prompt_question_unanswered(pq));
	if (pq->locked)
		return;
	msg = g_strdup_printf("Time ran out for \"%s\": the kernel applied %s.",
			      pq->headline, prompt_question_unanswered(pq));
	set_status(w, msg);
	remove_pending(w, pq);
}

static gboolean on_tick(gpointer data)
{
	struct ask_window *w = data;
	guint i;

	for (i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(w->pending));) {
		g_autoptr(PromptQuestion)
			pq = g_list_model_get_item(G_LIST_MODEL(w->pending), i);

		if (prompt_question_seconds_left(pq))
			i++;
		else
			expire(w, pq);
	}
	for (i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(w->locked));
	     i++) {
		g_autoptr(PromptQuestion)
			pq = g_list_model_get_item(G_LIST_MODEL(w->locked), i);

		if (pq->state == PROMPT_QUESTION_PENDING &&
		    !prompt_question_seconds_left(pq))
			expire(w, pq);
	}
	update_time_left(w);
	refresh_rows(w->pending_list, pending_row_text);
	refresh_rows(w->locked_list, locked_row_text);
	return G_SOURCE_CONTINUE;
}

/* ---- Showing the window ----------------------------------------------- */

/*
 * Make the window visible.  Presented (focused) the first time only;
 * afterwards, if the person closed it, it is mapped again without focus:
 * on X11 with a user time of 0, which tells the window manager not to
 * give it focus.  Under Wayland no client can ask that: the compositor
 * decides, and mutter (GNOME) focuses every window it maps.
 */
static void show_window(struct ask_window *w)
{
	if (!w->shown_once) {
		w->shown_once = TRUE;
		gtk_window_present(w->window);
		return;
	}
	if (gtk_widget_get_visible(GTK_WIDGET(w->window)))
		return;
#ifdef GDK_WINDOWING_X11
	gtk_widget_realize(GTK_WIDGET(w->window));
	{
		GdkSurface *surface =
			gtk_native_get_surface(GTK_NATIVE(w->window));

		if (GDK_IS_X11_SURFACE(surface))
			gdk_x11_surface_set_user_time(surface, 0);
	}
#endif
	gtk_widget_set_visible(GTK_WIDGET(w->window), TRUE);
}

/* Closing hides: the agent still runs, and the next question shows it. */
static gboolean on_close_request(GtkWindow *window, gpointer data)
{
	(void)data;
	gtk_widget_set_visible(GTK_WIDGET(window), FALSE);
	return TRUE;
}

/* ---- The agent's messages --------------------------------------------- */

static void on_ask(void *data, const struct pfsel_question *q, uint32_t ms_left)
{
	struct ask_window *w = data;
	g_autoptr(PromptQuestion) pq = NULL;
	guint pos;

	if (find_question(w->pending, q->id, &pos) ||
	    find_question(w->locked, q->id, &pos))
		return; /* asked again: it is already here */
	pq = prompt_question_new(q, ms_left);
	if (w->screen_locked) {
		/* Nobody can see it: the kernel's unanswered verdict. */
		pq->locked = TRUE;
		g_list_store_append(w->locked, pq);
		return;
	}
	g_list_store_append(w->pending, pq);
	update_counter(w);
	/* Appended: the question being read stays in view. */
	if (!w->current)
		show_question(w, pq);
	else
		select_current_row(w);
	show_window(w);
}

static const char *withdraw_reason(unsigned int reason)
{
	switch (reason) {
	case PROMPT_WITHDRAW_EXPIRED:
		return "its time ran out";
	case PROMPT_WITHDRAW_ANSWERED:
		return "it was answered elsewhere";
	case PROMPT_WITHDRAW_STOPPING:
		return "the agent is stopping";
	default:
		return "the agent took it back";
	}
}

static void on_withdraw(void *data, uint64_t id, unsigned int reason)
{
	struct ask_window *w = data;
	g_autoptr(PromptQuestion) pq = NULL;
	g_autofree char *msg = NULL;
	guint pos;

	if (find_question(w->locked, id, &pos)) {
		pq = g_list_model_get_item(G_LIST_MODEL(w->locked), pos);
		if (pq->state == PROMPT_QUESTION_PENDING) {
			pq->state = PROMPT_QUESTION_WITHDRAWN;
			g_free(pq->outcome);
			pq->outcome =
				reason == PROMPT_WITHDRAW_EXPIRED ?
					g_strdup_printf(
						"time ran out: %s",
						prompt_question_unanswered(
							pq)) :
					g_strdup(withdraw_reason(reason));
			refresh_rows(w->locked_list, locked_row_text);
		}
		return;
	}
	if (!find_question(w->pending, id, &pos))
		return; /* already answered or expired here */
	pq = g_list_model_get_item(G_LIST_MODEL(w->pending), pos);
	pq->state = PROMPT_QUESTION_WITHDRAWN;
	if (reason == PROMPT_WITHDRAW_EXPIRED)
		msg = g_strdup_printf("Withdrawn: \"%s\": %s; the kernel "
				      "applied %s.",
				      pq->headline, withdraw_reason(reason),
				      prompt_question_unanswered(pq));
	else
		msg = g_strdup_printf("Withdrawn: \"%s\": %s.", pq->headline,
				      withdraw_reason(reason));
	set_status(w, msg);
	remove_pending(w, pq);
}

static void on_result(void *data, uint64_t id, int status, const char *text)
{
	struct ask_window *w = data;
	g_autofree char *shown =
		prompt_escape_flags(text, PFSEL_ESCAPE_CONTROLS);
	g_autofree char *msg = NULL;

	(void)id;
	if (status < 0)
		msg = g_strdup_printf("The answer could not be kept: %s%s%s",
				      shown, shown[0] ? ": " : "",
				      g_strerror(-status));
	else
		msg = g_strdup(shown[0] ? shown : "The answer was taken.");
	set_status(w, msg);
}

static void on_closed(void *data, int err)
{
	struct ask_window *w = data;

	/* No agent, nothing to answer for: exit, 0 unless the socket broke. */
	prompt_exit_status = err ? PROMPT_EXIT_RUNTIME : PROMPT_EXIT_OK;
	g_application_quit(G_APPLICATION(w->app));
}

static const struct prompt_link_ops link_ops = {
	.ask = on_ask,
	.withdraw = on_withdraw,
	.result = on_result,
	.closed = on_closed,
};

/* ---- Answering -------------------------------------------------------- */

static void answer(struct ask_window *w, unsigned int verdict)
{
	g_autoptr(PromptQuestion) pq = NULL;
	const unsigned int scope = selected_scope(w);
	const unsigned int width =
		scope == PFSEL_SCOPE_ALWAYS ? selected_width(w) : 0;
	g_autofree char *msg = NULL;
	int ret;

	if (!w->current || !w->armed || w->screen_locked)
		return;
	pq = g_object_ref(w->current);
	ret = prompt_link_answer(w->link, pq->q->id, verdict, scope, width);
	if (ret) {
		msg = g_strdup_printf("The answer could not be sent to the "
				      "agent: send: %s",
				      g_strerror(-ret));
		set_status(w, msg);
		return;
	}
	pq->state = PROMPT_QUESTION_ANSWERED;
	if (scope == PFSEL_SCOPE_ALWAYS)
		msg = g_strdup_printf("Answered %s always (%s): \"%s\".",
				      pfsel_answer_name(verdict),
				      rule_width_name(width), pq->headline);
	else
		msg = g_strdup_printf("Answered %s (%s): \"%s\".",
				      pfsel_answer_name(verdict),
				      scope_names[scope < N_SCOPES ? scope : 0],
				      pq->headline);
	set_status(w, msg);
	remove_pending(w, pq);
}

/* ---- Whose answer: the person's input --------------------------------- */

/* The primary button pressed on Allow or Deny: a click may follow. */
static void on_answer_pressed(GtkGestureClick *click, int n_press, double x,
			      double y, gpointer data)
{
	struct answer_button *b = data;

	(void)n_press;
	(void)x;
	(void)y;
	b->pressed_us = g_get_monotonic_time();
	b->released_us = 0;
	b->release_synthetic = FALSE;
	b->press_synthetic = prompt_input_synthetic(
		b->w->input, gtk_event_controller_get_current_event(
				     GTK_EVENT_CONTROLLER(click)));
}

/* ... and released on it (GTK clicks a button only then). */
static void on_answer_released(GtkGestureClick *click, int n_press, double x,
			       double y, gpointer data)
{
	struct answer_button *b = data;

	(void)n_press;
	if (!b->pressed_us || !gtk_widget_contains(b->button, x, y))
		return;
	b->released_us = g_get_monotonic_time();
	b->release_synthetic = prompt_input_synthetic(
		b->w->input, gtk_event_controller_get_current_event(
				     GTK_EVENT_CONTROLLER(click)));
}

/* Any key the person presses in the window, before any widget sees it. */
static gboolean on_key_pressed(GtkEventControllerKey *keys, guint keyval,
			       guint keycode, GdkModifierType state,
			       gpointer data)
{
	struct ask_window *w = data;

	(void)keycode;
	w->key_us = g_get_monotonic_time();
	w->key_val = keyval;
	w->key_state = state;
	w->key_focus = gtk_root_get_focus(GTK_ROOT(w->window));
	w->key_synthetic = prompt_input_synthetic(
		w->input, gtk_event_controller_get_current_event(
				  GTK_EVENT_CONTROLLER(keys)));
	return GDK_EVENT_PROPAGATE;
}

/* The keys a focused GtkButton is activated by. */
static gboolean activates_button(guint keyval)
{
	switch (keyval) {
	case GDK_KEY_space:
	case GDK_KEY_KP_Space:
	case GDK_KEY_Return:
	case GDK_KEY_ISO_Enter:
	case GDK_KEY_KP_Enter:
		return TRUE;
	default:
		return FALSE;
	}
}

/* @when (a g_get_monotonic_time()) is input to count now. */
static gboolean recent_input(const struct ask_window *w, gint64 when,
			     gint64 now)
{
	return when && when >= w->armed_us && now - when <= INPUT_MS * 1000;
}

/* What made an activation of Allow or Deny. */
enum activation_input {
	ACTIVATED_BY_DEVICE, /* the person's click or key press */
	ACTIVATED_BY_XTEST, /* a click or key press a program made (X11) */
	ACTIVATED_BY_NOTHING, /* no input: an AT-SPI action, say */
};

/*
 * What input @b's activation now comes from: a press of the pointer on
 * it, since the buttons were armed, released on it just now; or a key
 * pressed just now, since the buttons were armed, that activates it:
 * Space or Enter while it had the focus, or Alt and its mnemonic.  Such
 * input is the person's when a device made it, a program's when made
 * through XTEST.  An AT-SPI action, or gtk_widget_activate(), comes with
 * none of it.
 */
static enum activation_input activation_input(const struct ask_window *w,
					      const struct answer_button *b)
{
	const gint64 now = g_get_monotonic_time();
	const enum activation_input key =
		w->key_synthetic ? ACTIVATED_BY_XTEST : ACTIVATED_BY_DEVICE;

	if (b->pressed_us >= w->armed_us &&
	    recent_input(w, b->released_us, now))
		return b->press_synthetic || b->release_synthetic ?
			       ACTIVATED_BY_XTEST :
			       ACTIVATED_BY_DEVICE;
	if (!recent_input(w, w->key_us, now))
		return ACTIVATED_BY_NOTHING;
	/* GTK activates a focused button on these keys without modifiers. */
	if (w->key_focus == b->button && activates_button(w->key_val) &&
	    !(w->key_state & gtk_accelerator_get_default_mod_mask()))
		return key;
	if ((w->key_state & GDK_ALT_MASK) &&
	    gdk_keyval_to_lower(w->key_val) == b->mnemonic)
		return key;
	return ACTIVATED_BY_NOTHING;
}

/*
 * Whether an activation by @input answers; if not, the window says why
 * (*@notice) and standard error what came.
 */
static gboolean input_answers(const struct ask_window *w,
			      enum activation_input input, const char **notice,
			      const char **said)
{
	switch (input) {
	case ACTIVATED_BY_DEVICE:
		return TRUE;
	case ACTIVATED_BY_XTEST:
		*notice = "That key press or click was made by a program "
			  "(X11's XTEST), not by a keyboard or mouse: not an "
			  "answer.";
		*said = "by a key press or click another program made "
			"(XTEST)";
		return w->allow.xtest_input;
	case ACTIVATED_BY_NOTHING:
	default:
		*notice = "Answer with the mouse or the keyboard: this window "
			  "takes no answers from other programs.";
		*said = "without a click or key press on it (another program, "
			"through the accessibility bus?)";
		return w->allow.accessible_actions;
	}
}

/* One input, one answer: what answered cannot answer the next question. */
static void forget_input(struct ask_window *w)
{
	size_t i;

	w->key_us = 0;
	for (i = 0; i < N_ANSWERS; i++)
		w->answers[i].pressed_us = w->answers[i].released_us = 0;
}

static void on_answer_clicked(GtkButton *button, gpointer data)
{
	struct answer_button *b = data;
	struct ask_window *w = b->w;
	const char *notice = "", *said = "";

	(void)button;
	if (!w->current || !w->armed || w->screen_locked)
		return;
	if (!input_answers(w, activation_input(w, b), &notice, &said)) {
		/*
		 * Said once a question and way: a program may try again
		 * and again.
		 */
		if (!gtk_widget_get_visible(w->refused_notice) ||
		    strcmp(gtk_label_get_text(GTK_LABEL(w->refused_notice)),
			   notice))
			fprintf(stderr,
				"pfsel-prompt: %s was activated %s: not an "
				"answer\n",
				b->name, said);
		prompt_label_set_text(w->refused_notice, notice);
		gtk_widget_set_visible(w->refused_notice, TRUE);
		return;
	}
	forget_input(w);
	answer(w, b->verdict);
}

/*
 * Watch the person's input on Allow or Deny.  In the capture phase, so
 * that the press and release are seen before the button's own gesture
 * takes them; the gesture claims nothing, and the button works as ever.
 */
static void watch_answer_button(struct ask_window *w, size_t which,
				GtkWidget *button, const char *name,
				unsigned int verdict)
{
	struct answer_button *b = &w->answers[which];
	GtkGesture *click = gtk_gesture_click_new();
	GtkWidget *label = gtk_button_get_child(GTK_BUTTON(button));

	b->w = w;
	b->button = button;
	b->name = name;
	b->verdict = verdict;
	b->mnemonic = GTK_IS_LABEL(label) ?
			      gtk_label_get_mnemonic_keyval(GTK_LABEL(label)) :
			      GDK_KEY_VoidSymbol;
	b->mnemonic = gdk_keyval_to_lower(b->mnemonic);
	gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click),
				      GDK_BUTTON_PRIMARY);
	gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(click),
						   GTK_PHASE_CAPTURE);
	g_signal_connect(click, "pressed", G_CALLBACK(on_answer_pressed), b);
	g_signal_connect(click, "released", G_CALLBACK(on_answer_released), b);
	gtk_widget_add_controller(button, GTK_EVENT_CONTROLLER(click));
	g_signal_connect(button, "clicked", G_CALLBACK(on_answer_clicked), b);
}

static void on_why(GtkButton *button, gpointer data)
{
	struct ask_window *w = data;
	const struct pfsel_question *q;
	g_autoptr(GError) error = NULL;
	g_autofree char *line = NULL, *text = NULL;

	(void)button;
	if (!w->current)
		return;
	q = w->current->q;
	if (!q->rule_line)
		text = g_strdup_printf(
			"No rule of the %s policy matched: the policy's "
			"default says ask.",
			pfsel_policy_name(q->policy));
	else if (!(line = prompt_rule_line(q->rule_file, q->rule_line, &error)))
		text = g_strdup_printf("The rule's text cannot be read: %s",
				       error->message);
	else
		text = g_strdup_printf("Line %u: %s", q->rule_line, line);
	prompt_label_set_text(w->rule_text, text);
	gtk_widget_set_visible(w->rule_text, TRUE);
}

static void on_recent(GtkButton *button, gpointer data)
{
	struct ask_window *w = data;

	(void)button;
	if (!w->monitor) {
		const struct prompt_monitor_options opts = {
			.uid = (uint32_t)getuid(),
			.notify = FALSE,
		};

		w->monitor = prompt_monitor_new(w->app, &opts);
	}
	prompt_monitor_present(w->monitor);
}

/* ---- The locked screen ------------------------------------------------ */

/*
 * Two sources, either of which locks.  GtkApplication's
 * screensaver-active: GTK follows org.gnome.ScreenSaver only when the
 * session manager took the application's registration and the screen
 * saver already had an owner at the application's startup.  GNOME starts
 * that service on demand (a small proxy of the shell's screen shield), so
 * a prompt the agent started before anything asked for it would never
 * learn of a lock: the shield is also followed here, starting the service
 * if it is not running (its ActiveChanged, and GetActive whenever it gets
 * an owner).
 */
#define SCREENSAVER_NAME "org.gnome.ScreenSaver"
#define SCREENSAVER_PATH "/org/gnome/ScreenSaver"

static void update_lock_state(struct ask_window *w)
{
	gboolean active = FALSE;

	g_object_get(w->app, "screensaver-active", &active, NULL);
	active = active || w->shield_active;
	if (active == w->screen_locked)
		return;
	w->screen_locked = active;
	gtk_widget_set_visible(w->lock_banner, active);
	gtk_widget_set_sensitive(w->question_box, !active);
	if (!active && w->current)
		disarm(w); /* the person has only just come back */
	update_answer_part(w);
}

static void on_screensaver(GObject *app, GParamSpec *pspec, gpointer data)
{
	(void)app;
	(void)pspec;
	update_lock_state(data);
}

static void on_shield_changed(GDBusConnection *bus, const char *sender,
			      const char *path, const char *iface,
			      const char *signal, GVariant *params,
			      gpointer data)
{
	struct ask_window *w = data;

	(void)bus;
	(void)sender;
	(void)path;
	(void)iface;
	(void)signal;
	if (!g_variant_is_of_type(params, G_VARIANT_TYPE("(b)")))
		return;
	g_variant_get(params, "(b)", &w->shield_active);
	update_lock_state(w);
}

static void on_shield_state(GObject *bus, GAsyncResult *result, gpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_finish(
		G_DBUS_CONNECTION(bus), result, &error);
	struct ask_window *w = data;

	/* Cancelled: the window is gone.  Failed: the shield says nothing. */
	if (!reply)
		return;
	g_variant_get(reply, "(b)", &w->shield_active);
	update_lock_state(w);
}

static void on_shield_owner(GDBusConnection *bus, const char *name,
			    const char *owner, gpointer data)
{
	struct ask_window *w = data;

	(void)name;
	(void)owner;
	g_dbus_connection_call(bus, SCREENSAVER_NAME, SCREENSAVER_PATH,
			       SCREENSAVER_NAME, "GetActive", NULL,
			       G_VARIANT_TYPE("(b)"), G_DBUS_CALL_FLAGS_NONE,
			       -1, w->shield_calls, on_shield_state, w);
}

/* Follow the shield on the application's session bus, if it has one. */
static void follow_screen_shield(struct ask_window *w)
{
	GDBusConnection *bus =
		g_application_get_dbus_connection(G_APPLICATION(w->app));

	if (!bus)
		return;
	w->bus = g_object_ref(bus);
	w->shield_calls = g_cancellable_new();
	w->shield_signal = g_dbus_connection_signal_subscribe(
		bus, SCREENSAVER_NAME, SCREENSAVER_NAME, "ActiveChanged",
		SCREENSAVER_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
		on_shield_changed, w, NULL);
	w->shield_watch = g_bus_watch_name_on_connection(
		bus, SCREENSAVER_NAME, G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
		on_shield_owner, NULL, w, NULL);
}

static void stop_following_screen_shield(struct ask_window *w)
{
	if (!w->bus)
		return;
	g_cancellable_cancel(w->shield_calls);
	g_clear_object(&w->shield_calls);
	g_bus_unwatch_name(w->shield_watch);
	g_dbus_connection_signal_unsubscribe(w->bus, w->shield_signal);
	g_clear_object(&w->bus);
}

/* ---- Building the window ---------------------------------------------- */

static GtkWidget *title_label(const char *text)
{
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(label), 1.0f);
	gtk_label_set_yalign(GTK_LABEL(label), 0.0f);
	gtk_widget_add_css_class(label, "dim-label");
	return label;
}

static GtkWidget *build_fields(struct ask_window *w)
{
	GtkWidget *grid = gtk_grid_new();
	GtkWidget *title;
	int i, row = 0;

	gtk_grid_set_row_spacing(GTK_GRID(grid), 4);
	gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
	for (i = 0; i < PROMPT_FIELD_COUNT; i++, row++) {
		title = title_label(prompt_field_titles[i]);
		w->values[i] = prompt_value_label(prompt_field_titles[i]);
		gtk_grid_attach(GTK_GRID(grid), title, 0, row, 1, 1);
		gtk_grid_attach(GTK_GRID(grid), w->values[i], 1, row, 1, 1);
		if (i != PROMPT_FIELD_RULE)
			continue;
		/* "Why?" beside the rule, its text on the next row. */
		w->why_button = prompt_button("_Why?");
		gtk_widget_set_valign(w->why_button, GTK_ALIGN_START);
		g_signal_connect(w->why_button, "clicked", G_CALLBACK(on_why),
				 w);
		gtk_grid_attach(GTK_GRID(grid), w->why_button, 2, row, 1, 1);
		row++;
		w->rule_text = prompt_value_label("Rule text");
		gtk_widget_add_css_class(w->rule_text, "monospace");
		gtk_widget_set_visible(w->rule_text, FALSE);
		gtk_grid_attach(GTK_GRID(grid), w->rule_text, 1, row, 2, 1);
	}
	return grid;
}

static GtkWidget *build_answer(struct ask_window *w)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	GtkWidget *label, *grid, *scopes, *widths, *row;
	size_t i;

	row = prompt_choice_row("Answer for:", "Scope", &scopes);
	for (i = 0; i < N_SCOPES; i++) {
		w->scope_buttons[i] = prompt_radio(
			scope_labels[i], i ? w->scope_buttons[0] : NULL);
		g_signal_connect(w->scope_buttons[i], "toggled",
				 G_CALLBACK(on_choice_toggled), w);
		gtk_box_append(GTK_BOX(scopes), w->scope_buttons[i]);
	}
	gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(w->scope_buttons[0]),
				     TRUE);
	gtk_box_append(GTK_BOX(box), row);

	w->width_box = prompt_choice_row(
		"For always, the rule covers:", "Width", &widths);
	for (i = 0; i < RULE_WIDTH_COUNT; i++) {
		w->width_buttons[i] =
			prompt_radio(prompt_width_mnemonics[i],
				     i ? w->width_buttons[0] : NULL);
		g_signal_connect(w->width_buttons[i], "toggled",
				 G_CALLBACK(on_choice_toggled), w);
		gtk_box_append(GTK_BOX(widths), w->width_buttons[i]);
	}
	gtk_toggle_button_set_active(
		GTK_TOGGLE_BUTTON(w->width_buttons[RULE_WIDTH_EXACT]), TRUE);
	gtk_box_append(GTK_BOX(box), w->width_box);

	/* The rule "always" adds, for each button: what the agent writes. */
	w->rule_box = grid = gtk_grid_new();
	gtk_grid_set_row_spacing(GTK_GRID(grid), 2);
	gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
	w->rule_allow = prompt_value_label("Rule added by Allow");
	w->rule_deny = prompt_value_label("Rule added by Deny");
	gtk_widget_add_css_class(w->rule_allow, "monospace");
	gtk_widget_add_css_class(w->rule_deny, "monospace");
	label = title_label("Allow adds to ~/.pfw:");
	gtk_grid_attach(GTK_GRID(grid), label, 0, 0, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), w->rule_allow, 1, 0, 1, 1);
	label = title_label("Deny adds to ~/.pfw:");
	gtk_grid_attach(GTK_GRID(grid), label, 0, 1, 1, 1);
	gtk_grid_attach(GTK_GRID(grid), w->rule_deny, 1, 1, 1, 1);
	gtk_box_append(GTK_BOX(box), grid);

	gtk_widget_set_halign(buttons, GTK_ALIGN_END);
	w->deny_button = prompt_button("_Deny");
	w->allow_button = prompt_button("_Allow");
	gtk_widget_add_css_class(w->deny_button, "destructive-action");
	watch_answer_button(w, ANSWER_DENY, w->deny_button, "Deny",
			    PFSEL_ANSWER_DENY);
	watch_answer_button(w, ANSWER_ALLOW, w->allow_button, "Allow",
			    PFSEL_ANSWER_ALLOW);
	/* Shown when a program, not the person, pressed Allow or Deny. */
	w->refused_notice = prompt_value_label("Notice");
	gtk_widget_add_css_class(w->refused_notice, "warning");
	gtk_widget_set_visible(w->refused_notice, FALSE);
	gtk_box_append(GTK_BOX(box), w->refused_notice);
	gtk_box_append(GTK_BOX(buttons), w->deny_button);
	gtk_box_append(GTK_BOX(buttons), w->allow_button);
	gtk_box_append(GTK_BOX(box), buttons);
	return box;
}

static GtkWidget *build_question_pane(struct ask_window *w)
{
	GtkWidget *pane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
	GtkWidget *header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	PangoAttrList *attrs = pango_attr_list_new();

	w->lock_banner = gtk_label_new(
		"The screen is locked: questions cannot be answered now, and "
		"those that come get the policy's unanswered verdict.");
	gtk_label_set_wrap(GTK_LABEL(w->lock_banner), TRUE);
	gtk_widget_set_visible(w->lock_banner, FALSE);
	gtk_box_append(GTK_BOX(pane), w->lock_banner);

	w->empty_label = gtk_label_new("No questions waiting.");
	gtk_widget_set_vexpand(w->empty_label, TRUE);
	gtk_box_append(GTK_BOX(pane), w->empty_label);

	w->question_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
	w->icon = gtk_image_new();
	gtk_image_set_pixel_size(GTK_IMAGE(w->icon), 48);
	gtk_widget_set_valign(w->icon, GTK_ALIGN_START);
	prompt_set_accessible_name(w->icon, "Application icon");
	w->headline = prompt_value_label(NULL);
	pango_attr_list_insert(attrs, pango_attr_weight_new(PANGO_WEIGHT_BOLD));
	pango_attr_list_insert(attrs, pango_attr_scale_new(1.2));
	gtk_label_set_attributes(GTK_LABEL(w->headline), attrs);
	pango_attr_list_unref(attrs);
	gtk_box_append(GTK_BOX(header), w->icon);
	gtk_box_append(GTK_BOX(header), w->headline);
	gtk_box_append(GTK_BOX(w->question_box), header);
	gtk_box_append(GTK_BOX(w->question_box), build_fields(w));
	gtk_box_append(GTK_BOX(w->question_box), build_answer(w));
	gtk_widget_set_visible(w->question_box, FALSE);
	gtk_box_append(GTK_BOX(pane), w->question_box);

	w->status = prompt_value_label(NULL);
	gtk_widget_set_valign(w->status, GTK_ALIGN_END);
	gtk_widget_set_visible(w->status, FALSE); /* until there is news */
	gtk_box_append(GTK_BOX(pane), w->status);
	gtk_widget_set_hexpand(pane, TRUE);
	return pane;
}

static GtkWidget *scrolled_list(GtkWidget *list, int min_height)
{
	GtkWidget *scroll = gtk_scrolled_window_new();

	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll),
				       GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_min_content_height(GTK_SCROLLED_WINDOW(scroll),
						   min_height);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), list);
	return scroll;
}

static GtkWidget *build_queue_pane(struct ask_window *w)
{
	GtkWidget *pane = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	GtkWidget *scroll, *label, *clear, *recent;

	w->counter = prompt_value_label("Questions waiting");
	gtk_box_append(GTK_BOX(pane), w->counter);

	w->pending_list = gtk_list_box_new();
	prompt_set_accessible_name(w->pending_list, "Pending questions");
	gtk_list_box_set_selection_mode(GTK_LIST_BOX(w->pending_list),
					GTK_SELECTION_SINGLE);
	gtk_list_box_bind_model(GTK_LIST_BOX(w->pending_list),
				G_LIST_MODEL(w->pending), make_pending_row, w,
				NULL);
	g_signal_connect(w->pending_list, "row-activated",
			 G_CALLBACK(on_row_activated), w);
	scroll = scrolled_list(w->pending_list, 200);
	gtk_widget_set_vexpand(scroll, TRUE);
	gtk_box_append(GTK_BOX(pane), scroll);

	w->locked_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	label = gtk_label_new("While the screen was locked");
	gtk_label_set_xalign(GTK_LABEL(label), 0.0f);
	gtk_box_append(GTK_BOX(w->locked_box), label);
	w->locked_list = gtk_list_box_new();
	prompt_set_accessible_name(w->locked_list,
				   "While the screen was locked");
	gtk_list_box_set_selection_mode(GTK_LIST_BOX(w->locked_list),
					GTK_SELECTION_NONE);
	gtk_list_box_bind_model(GTK_LIST_BOX(w->locked_list),
				G_LIST_MODEL(w->locked), make_locked_row, w,
				NULL);
	gtk_box_append(GTK_BOX(w->locked_box),
		       scrolled_list(w->locked_list, 120));
	clear = prompt_button("Clear this lis_t");
	g_signal_connect(clear, "clicked", G_CALLBACK(on_clear_locked), w);
	gtk_box_append(GTK_BOX(w->locked_box), clear);
	gtk_widget_set_visible(w->locked_box, FALSE);
	g_signal_connect(w->locked, "items-changed",
			 G_CALLBACK(on_locked_items_changed), w);
	gtk_box_append(GTK_BOX(pane), w->locked_box);

	recent = prompt_button("Re_cent decisions...");
	g_signal_connect(recent, "clicked", G_CALLBACK(on_recent), w);
	gtk_box_append(GTK_BOX(pane), recent);
	gtk_widget_set_size_request(pane, 300, -1);
	return pane;
}

static void ask_window_free(gpointer data)
{
	struct ask_window *w = data;

	g_signal_handlers_disconnect_by_data(w->app, w);
	stop_following_screen_shield(w);
	prompt_input_source_free(w->input);
	prompt_link_free(w->link);
	if (w->arm_timer)
		g_source_remove(w->arm_timer);
	if (w->tick_timer)
		g_source_remove(w->tick_timer);
	g_clear_object(&w->current);
	g_clear_object(&w->pending);
	g_clear_object(&w->locked);
	prompt_monitor_free(w->monitor);
	g_free(w);
}

GtkWindow *prompt_ask_window_new(GtkApplication *app, int fd,
				 const struct prompt_answer_options *allow,
				 GError **error)
{
	struct ask_window *w = g_new0(struct ask_window, 1);
	GtkWidget *window, *hbox, *sep;
	GtkEventController *keys;

	w->app = app;
	w->allow = *allow;
	w->link = prompt_link_new(fd, &link_ops, w, error);
	if (!w->link) {
		g_free(w);
		return NULL;
	}
	w->pending = g_list_store_new(PROMPT_TYPE_QUESTION);
	w->locked = g_list_store_new(PROMPT_TYPE_QUESTION);

	/*
	 * A plain GtkWindow, not a GtkApplicationWindow: those export
	 * their actions on the session bus.  Nothing here is an action.
	 */
	window = gtk_window_new();
	w->window = GTK_WINDOW(window);
	w->input = prompt_input_source_new(gtk_widget_get_display(window));
	gtk_window_set_application(w->window, app);
	gtk_window_set_default_size(w->window, 960, 640);
	gtk_window_set_icon_name(w->window, "security-high");
	g_signal_connect(window, "close-request", G_CALLBACK(on_close_request),
			 w);
	g_signal_connect(window, "notify::is-active",
			 G_CALLBACK(on_active_changed), w);
	g_object_set_data_full(G_OBJECT(window), "pfsel-ask-window", w,
			       ask_window_free);
	/* Before any widget: which key, on which focus, answers. */
	keys = gtk_event_controller_key_new();
	gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
	g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key_pressed), w);
	gtk_widget_add_controller(window, keys);

	hbox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	gtk_widget_set_margin_top(hbox, 12);
	gtk_widget_set_margin_bottom(hbox, 12);
	gtk_widget_set_margin_start(hbox, 12);
	gtk_widget_set_margin_end(hbox, 12);
	gtk_box_append(GTK_BOX(hbox), build_question_pane(w));
	sep = gtk_separator_new(GTK_ORIENTATION_VERTICAL);
	gtk_box_append(GTK_BOX(hbox), sep);
	gtk_box_append(GTK_BOX(hbox), build_queue_pane(w));
	gtk_window_set_child(w->window, hbox);
	/* Focus starts on "once", where Space or Enter answers nothing. */
	gtk_window_set_focus(w->window, w->scope_buttons[0]);

	w->built = TRUE;
	update_counter(w);
	update_answer_part(w);
	w->tick_timer = g_timeout_add_seconds(1, on_tick, w);
	g_signal_connect(app, "notify::screensaver-active",
			 G_CALLBACK(on_screensaver), w);
	update_lock_state(w);
	follow_screen_shield(w);
	return w->window;
}
