// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - "Make this a rule": the rule for a decision's request,
 * written by rule_text_format() as the agent writes an "always" answer's
 * and `pfsel audit2pfw` a denial's, with the verdict and width to choose
 * and a Copy button.
 * The monitor loads no policy: the dialog says how to add the rule.
 */
#include <errno.h>
#include <string.h>

#include "prompt.h"

struct rule_dialog {
	GtkWindow *window;
	struct pfsel_request req;
	GtkWidget *verdicts[2];
	GtkWidget *widths[RULE_WIDTH_COUNT];
	GtkWidget *rule;
	GtkWidget *copy;
	char text[PFSEL_ESCAPE_SIZE(PFSEL_QUESTION_PATH_MAX) * 2 + 512];
};

static void update(struct rule_dialog *d)
{
	unsigned int verdict = gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(
				       d->verdicts[PFSEL_ANSWER_DENY])) ?
				       PFSEL_ANSWER_DENY :
				       PFSEL_ANSWER_ALLOW;
	unsigned int width = RULE_WIDTH_EXACT, i;
	int ret;

	for (i = 0; i < RULE_WIDTH_COUNT; i++)
		if (gtk_toggle_button_get_active(
			    GTK_TOGGLE_BUTTON(d->widths[i])))
			width = i;
	ret = rule_text_format(&d->req, verdict, width, NULL, 0, d->text,
			       sizeof(d->text));
	if (ret < 0) {
		d->text[0] = '\0';
		prompt_label_set_text(
			d->rule,
			ret == -EINVAL ? "No rule can name this application "
					 "(the kernel could not name its "
					 "executable)." :
			ret == -ENOENT ? "The record names no host for this "
					 "address that a rule can name." :
					 g_strerror(-ret));
	} else {
		g_autofree char *shown =
			prompt_escape_flags(d->text, PFSEL_ESCAPE_CONTROLS);

		prompt_label_set_text(d->rule, shown);
	}
	gtk_widget_set_sensitive(d->copy, ret >= 0);
}

static void on_toggled(GtkToggleButton *button, gpointer data)
{
	(void)button;
	update(data);
}

static void on_copy(GtkButton *button, gpointer data)
{
	struct rule_dialog *d = data;

	gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(button)),
			       d->text);
}

static void on_close(GtkButton *button, gpointer data)
{
	struct rule_dialog *d = data;

	(void)button;
	gtk_window_destroy(d->window);
}

static gboolean on_escape(GtkWidget *widget, GVariant *args, gpointer data)
{
	(void)args;
	(void)data;
	gtk_window_destroy(GTK_WINDOW(widget));
	return TRUE;
}

static GtkWidget *radio(const char *mnemonic, GtkWidget *group,
			struct rule_dialog *d)
{
	GtkWidget *b = prompt_radio(mnemonic, group);

	g_signal_connect(b, "toggled", G_CALLBACK(on_toggled), d);
	return b;
}

void prompt_rule_dialog_show(GtkWindow *parent, const struct pfsel_request *req,
			     unsigned int verdict)
{
	struct rule_dialog *d = g_new0(struct rule_dialog, 1);
	GtkWidget *window = gtk_window_new();
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
	GtkWidget *row, *choices, *label, *buttons, *close;
	GtkEventController *keys;
	unsigned int i;

	d->window = GTK_WINDOW(window);
	d->req = *req;
	g_object_set_data_full(G_OBJECT(window), "pfsel-rule-dialog", d,
			       g_free);
	gtk_window_set_title(d->window, "pfsel: make this a rule");
	gtk_window_set_transient_for(d->window, parent);
	gtk_window_set_modal(d->window, TRUE);
	gtk_window_set_default_size(d->window, 640, -1);
	gtk_widget_set_margin_top(box, 12);
	gtk_widget_set_margin_bottom(box, 12);
	gtk_widget_set_margin_start(box, 12);
	gtk_widget_set_margin_end(box, 12);

	row = prompt_choice_row("Verdict:", "Verdict", &choices);
	d->verdicts[PFSEL_ANSWER_ALLOW] = radio("_Allow", NULL, d);
	d->verdicts[PFSEL_ANSWER_DENY] =
		radio("_Deny", d->verdicts[PFSEL_ANSWER_ALLOW], d);
	gtk_box_append(GTK_BOX(choices), d->verdicts[PFSEL_ANSWER_ALLOW]);
	gtk_box_append(GTK_BOX(choices), d->verdicts[PFSEL_ANSWER_DENY]);
	gtk_box_append(GTK_BOX(box), row);

	row = prompt_choice_row("The rule covers:", "Width", &choices);
	for (i = 0; i < RULE_WIDTH_COUNT; i++) {
		d->widths[i] = radio(prompt_width_mnemonics[i],
				     i ? d->widths[0] : NULL, d);
		/* The host widths only when the record names the host. */
		gtk_widget_set_visible(d->widths[i],
				       rule_width_applies(&d->req, i));
		gtk_box_append(GTK_BOX(choices), d->widths[i]);
	}
	gtk_box_append(GTK_BOX(box), row);

	d->rule = prompt_value_label("Rule");
	gtk_widget_add_css_class(d->rule, "monospace");
	gtk_label_set_selectable(GTK_LABEL(d->rule), TRUE);
	gtk_box_append(GTK_BOX(box), d->rule);

	label = gtk_label_new(
		"To keep it, add this line to ~/.pfw, then run \"pfsel "
		"confirm\" to put the policy in force (it asks for your "
		"password). Your next login loads it too, unless it allows "
		"more than the policy you last confirmed.");
	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_xalign(GTK_LABEL(label), 0.0f);
	gtk_box_append(GTK_BOX(box), label);

	buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	gtk_widget_set_halign(buttons, GTK_ALIGN_END);
	d->copy = prompt_button("_Copy");
	g_signal_connect(d->copy, "clicked", G_CALLBACK(on_copy), d);
	close = prompt_button("C_lose");
	g_signal_connect(close, "clicked", G_CALLBACK(on_close), d);
	gtk_box_append(GTK_BOX(buttons), d->copy);
	gtk_box_append(GTK_BOX(buttons), close);
	gtk_box_append(GTK_BOX(box), buttons);
	gtk_window_set_child(d->window, box);

	/* Escape closes the dialog: it changes nothing. */
	keys = gtk_shortcut_controller_new();
	gtk_shortcut_controller_add_shortcut(
		GTK_SHORTCUT_CONTROLLER(keys),
		gtk_shortcut_new(gtk_keyval_trigger_new(GDK_KEY_Escape, 0),
				 gtk_callback_action_new(on_escape, NULL,
							 NULL)));
	gtk_widget_add_controller(window, keys);

	gtk_toggle_button_set_active(
		GTK_TOGGLE_BUTTON(d->verdicts[verdict == PFSEL_ANSWER_DENY ?
						      PFSEL_ANSWER_DENY :
						      PFSEL_ANSWER_ALLOW]),
		TRUE);
	gtk_toggle_button_set_active(
		GTK_TOGGLE_BUTTON(d->widths[RULE_WIDTH_EXACT]), TRUE);
	update(d);
	gtk_window_present(d->window);
}
