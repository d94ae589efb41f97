// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - a question of the agent, and what the window tells the
 * person about it beyond the kernel's fields: the application's name and
 * icon (its .desktop file, through GIO), the chain of parents (/proc), the
 * service name of the port (getservbyport()), and the text of the rule
 * that asked (its source file).
 */
#include <errno.h>
#include <fcntl.h>
#include <gio/gdesktopappinfo.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prompt.h"

/* How far up the chain of parents the window goes before it says "...". */
#define PARENT_CHAIN_MAX 32
/* A rule file longer than this is not read for "Why?". */
#define RULE_FILE_MAX (16 * 1024 * 1024)

const char *const prompt_field_titles[PROMPT_FIELD_COUNT] = {
	[PROMPT_FIELD_APPLICATION] = "Application",
	[PROMPT_FIELD_EXECUTABLE] = "Executable",
	[PROMPT_FIELD_SCRIPT] = "Script",
	[PROMPT_FIELD_PID] = "Process",
	[PROMPT_FIELD_PARENTS] = "Parents",
	[PROMPT_FIELD_OPERATION] = "Operation",
	[PROMPT_FIELD_PROTOCOL] = "Protocol",
	[PROMPT_FIELD_ADDRESS] = "Address",
	[PROMPT_FIELD_PORT] = "Port",
	[PROMPT_FIELD_SERVICE] = "Service",
	[PROMPT_FIELD_HOST] = "Host name",
	[PROMPT_FIELD_RULE] = "Rule",
	[PROMPT_FIELD_CONTEXT] = "Security context",
	[PROMPT_FIELD_TIME_LEFT] = "Time left",
	[PROMPT_FIELD_THEN] = "When time runs out",
};

const char *const prompt_width_mnemonics[RULE_WIDTH_COUNT] = {
	[RULE_WIDTH_EXACT] = "This address a_nd port",
	[RULE_WIDTH_ADDRESS] = "This addr_ess",
	[RULE_WIDTH_PORT] = "This port an_ywhere",
	[RULE_WIDTH_HOST] = "This _host name",
	[RULE_WIDTH_DOMAIN] = "Any host in its do_main",
};

char *prompt_escape_flags(const char *text, unsigned int flags)
{
	size_t size = PFSEL_ESCAPE_SIZE(strlen(text));
	char *buf = g_malloc(size);

	if (pfsel_escape(text, buf, size, flags) < 0) {
		g_free(buf);
		return g_strdup("?");
	}
	return buf;
}

/* @path as its sandbox identity (@kind, @id) or, with none, escaped. */
static char *app_text_of(const enum app_sandbox kind, const char *id,
			 const char *path)
{
	if (kind == APP_SANDBOX_NONE)
		return prompt_escape(path);
	/* The ID is one the language's check took: no escaping needed. */
	return g_strdup_printf("%s %s", app_sandbox_keyword(kind), id);
}

char *prompt_app_text(const char *path)
{
	char id[APP_SANDBOX_ID_SIZE];
	const enum app_sandbox kind = app_sandbox_of(path, id);

	return app_text_of(kind, id, path);
}

void prompt_set_accessible_name(GtkWidget *widget, const char *name)
{
	gtk_accessible_update_property(GTK_ACCESSIBLE(widget),
				       GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

GtkWidget *prompt_value_label(const char *accessible_name)
{
	GtkWidget *label = gtk_label_new("");
	GtkLabel *l = GTK_LABEL(label);

	/* Names from the kernel must never be read as markup. */
	gtk_label_set_use_markup(l, FALSE);
	gtk_label_set_use_underline(l, FALSE);
	gtk_label_set_wrap(l, TRUE);
	gtk_label_set_wrap_mode(l, PANGO_WRAP_WORD_CHAR);
	gtk_label_set_xalign(l, 0.0f);
	gtk_label_set_max_width_chars(l, 60);
	gtk_widget_set_hexpand(label, TRUE);
	if (accessible_name) {
		g_object_set_data_full(G_OBJECT(label), "pfsel-accessible-name",
				       g_strdup(accessible_name), g_free);
		prompt_set_accessible_name(label, accessible_name);
	}
	return label;
}

void prompt_label_set_text(GtkWidget *label, const char *text)
{
	const char *name =
		g_object_get_data(G_OBJECT(label), "pfsel-accessible-name");

	gtk_label_set_text(GTK_LABEL(label), text);
	/* GTK 4.8 makes a label's new text its accessible name: not ours. */
	if (name)
		prompt_set_accessible_name(label, name);
}

/*
 * The text a mnemonic label shows: "_" dropped, "__" one "_".  GTK 4.8
 * gives a button the raw label (with its underscore) as its accessible
 * name, and adds its child label's name to it.
 */
static char *without_mnemonic(const char *mnemonic)
{
	GString *s = g_string_new(NULL);
	const char *p;

	for (p = mnemonic; *p; p++) {
		if (*p == '_' && p[1])
			p++;
		g_string_append_c(s, *p);
	}
	return g_string_free(s, FALSE);
}

/* Name @button by its label's text alone. */
static void name_button(GtkWidget *button, const char *mnemonic)
{
	g_autofree char *name = without_mnemonic(mnemonic);

	gtk_accessible_reset_relation(GTK_ACCESSIBLE(button),
				      GTK_ACCESSIBLE_RELATION_LABELLED_BY);
	prompt_set_accessible_name(button, name);
}

GtkWidget *prompt_button(const char *mnemonic)
{
	GtkWidget *b = gtk_button_new_with_mnemonic(mnemonic);

	name_button(b, mnemonic);
	return b;
}

GtkWidget *prompt_radio(const char *mnemonic, GtkWidget *group)
{
	GtkWidget *b = gtk_toggle_button_new_with_mnemonic(mnemonic);

	if (group)
		gtk_toggle_button_set_group(GTK_TOGGLE_BUTTON(b),
					    GTK_TOGGLE_BUTTON(group));
	name_button(b, mnemonic);
	return b;
}

GtkWidget *prompt_choice_row(const char *title, const char *name,
			     GtkWidget **choices)
{
	GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);

	gtk_box_append(GTK_BOX(row), gtk_label_new(title));
	*choices = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
	gtk_widget_add_css_class(*choices, "linked");
	prompt_set_accessible_name(*choices, name);
	gtk_box_append(GTK_BOX(row), *choices);
	return row;
}

/* ---- The GObject ----------------------------------------------------- */

G_DEFINE_FINAL_TYPE(PromptQuestion, prompt_question, G_TYPE_OBJECT)

static void prompt_question_finalize(GObject *object)
{
	PromptQuestion *pq = PROMPT_QUESTION(object);

	g_free(pq->q);
	g_free(pq->request);
	g_clear_pointer(&pq->received, g_date_time_unref);
	g_free(pq->outcome);
	g_free(pq->app_name);
	g_clear_object(&pq->icon);
	g_free(pq->headline);
	G_OBJECT_CLASS(prompt_question_parent_class)->finalize(object);
}

static void prompt_question_class_init(PromptQuestionClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = prompt_question_finalize;
}

static void prompt_question_init(PromptQuestion *pq)
{
	pq->state = PROMPT_QUESTION_PENDING;
}

static gboolean has_ports(unsigned int proto)
{
	return proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP;
}

static char *format_addr(const uint8_t addr[16])
{
	char buf[PFSEL_ADDR_STRLEN];

	if (pfsel_format_addr(addr, buf, sizeof(buf)))
		return g_strdup("?");
	return g_strdup(buf);
}

/*
 * The address as the headline names it: "192.0.2.1", or, when the kernel
 * knows names for it, the first (newest) name and the address
 * ("www.example.org (192.0.2.1)"), the name escaped.
 */
static char *named_addr(const struct pfsel_question *q)
{
	g_autofree char *addr = format_addr(q->raddr);
	g_autofree char *first = NULL, *name = NULL;

	if (!q->hosts[0])
		return g_steal_pointer(&addr);
	first = g_strndup(q->hosts, strcspn(q->hosts, ","));
	name = prompt_escape(first);
	return g_strdup_printf("%s (%s)", name, addr);
}

/*
 * The names the kernel knows for the address, escaped, newest first:
 * "www.example.org, example.org"; NULL when none.
 */
static char *host_names(const struct pfsel_question *q)
{
	g_auto(GStrv) names = NULL;
	g_autofree char *joined = NULL;

	if (!q->hosts[0])
		return NULL;
	names = g_strsplit(q->hosts, ",", -1);
	joined = g_strjoinv(", ", names);
	return prompt_escape(joined);
}

/* "connect to 192.0.2.1 port 443 (https)" and the like. */
static char *request_phrase(const struct pfsel_question *q)
{
	g_autofree char *addr = named_addr(q);
	g_autofree char *service = prompt_service_name(q->proto, q->rport);
	g_autofree char *port = NULL;
	const char *proto = pfsel_proto_name(q->proto);

	if (has_ports(q->proto))
		port = service ? g_strdup_printf(" port %u (%s)", q->rport,
						 service) :
				 g_strdup_printf(" port %u", q->rport);
	else
		port = g_strdup("");
	switch (q->op) {
	case PFSEL_OP_CREATE:
		if (q->family == PFSEL_FAMILY_PACKET)
			return g_strdup("create a packet socket");
		return g_strdup_printf("create %s %s socket (%s)",
				       q->proto == PFSEL_PROTO_ICMP ? "an" :
								      "a",
				       proto, pfsel_family_name(q->family));
	case PFSEL_OP_CONNECT:
		return g_strdup_printf("connect to %s%s over %s", addr, port,
				       proto);
	case PFSEL_OP_ACCEPT:
		return g_strdup_printf(
			"accept a %s connection from %s on%s", proto, addr,
			has_ports(q->proto) ? port : " its socket");
	case PFSEL_OP_LISTEN:
		return g_strdup_printf("listen on %s%s over %s", addr, port,
				       proto);
	default:
		return g_strdup_printf("bind to %s%s over %s", addr, port,
				       proto);
	}
}

/*
 * A path for the details: a Flatpak application's or a snap's as its
 * identity, and the file itself after it ("flatpak org.mozilla.firefox
 * (/var/lib/flatpak/app/...)"); any other path escaped.
 */
static char *sandboxed_path_text(const char *path)
{
	char id[APP_SANDBOX_ID_SIZE];
	const enum app_sandbox kind = app_sandbox_of(path, id);
	g_autofree char *shown = NULL, *escaped = prompt_escape(path);

	if (kind == APP_SANDBOX_NONE)
		return g_steal_pointer(&escaped);
	shown = app_text_of(kind, id, path);
	return g_strdup_printf("%s (%s)", shown, escaped);
}

/* The file name of @path, escaped (for an application without .desktop). */
static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return prompt_escape(slash && slash[1] ? slash + 1 : path);
}

PromptQuestion *prompt_question_new(const struct pfsel_question *q,
				    uint32_t ms_left)
{
	PromptQuestion *pq = g_object_new(PROMPT_TYPE_QUESTION, NULL);
	g_autofree char *phrase = NULL;

	pq->q = g_memdup2(q, sizeof(*q));
	pq->request = g_new(struct pfsel_request, 1);
	pfsel_request_from_question(q, pq->request);
	pq->deadline_us = g_get_monotonic_time() + (gint64)ms_left * 1000;
	pq->received = g_date_time_new_now_local();
	pq->outcome = g_strdup("");
	prompt_app_lookup(q->exe, q->script, &pq->app_name, &pq->icon);
	phrase = request_phrase(q);
	pq->headline = g_strdup_printf("%s wants to %s", pq->app_name, phrase);
	return pq;
}

unsigned int prompt_question_seconds_left(const PromptQuestion *pq)
{
	gint64 left = pq->deadline_us - g_get_monotonic_time();

	if (left <= 0)
		return 0;
	return (unsigned int)((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

const char *prompt_question_unanswered(const PromptQuestion *pq)
{
	if (!(pq->q->present & PFSEL_Q_HAS(PFSEL_ATTR_UNANSWERED)))
		return "the policy's unanswered verdict";
	return pfsel_answer_name(pq->q->unanswered);
}

char *prompt_format_time_left(unsigned int seconds)
{
	if (!seconds)
		return g_strdup("time ran out");
	if (seconds < 60)
		return g_strdup_printf("%u s left", seconds);
	return g_strdup_printf("%u min %02u s left", seconds / 60,
			       seconds % 60);
}

void prompt_question_fields(const PromptQuestion *pq,
			    char *text[PROMPT_FIELD_COUNT])
{
	const struct pfsel_question *q = pq->q;
	const char *policy = pfsel_policy_name(q->policy);
	g_autofree char *comm = prompt_escape(q->comm[0] ? q->comm : "?");
	g_autofree char *service = NULL;

	text[PROMPT_FIELD_APPLICATION] = g_strdup(pq->app_name);
	text[PROMPT_FIELD_EXECUTABLE] =
		q->exe[0] && strcmp(q->exe, "?") ?
			sandboxed_path_text(q->exe) :
			g_strdup("unnamed (the kernel could not name it)");
	text[PROMPT_FIELD_SCRIPT] = q->script[0] ?
					    sandboxed_path_text(q->script) :
					    g_strdup("none");
	text[PROMPT_FIELD_PID] =
		q->pid && q->pid != q->tgid ?
			g_strdup_printf("%s, pid %u (thread %u)", comm, q->tgid,
					q->pid) :
			g_strdup_printf("%s, pid %u", comm, q->tgid);
	text[PROMPT_FIELD_PARENTS] = prompt_parent_chain((pid_t)q->tgid);
	text[PROMPT_FIELD_OPERATION] = g_strdup(pfsel_op_name(q->op));
	text[PROMPT_FIELD_PROTOCOL] = g_strdup(pfsel_proto_name(q->proto));
	if (q->op == PFSEL_OP_CREATE)
		text[PROMPT_FIELD_ADDRESS] =
			g_strdup("none (a new socket has none yet)");
	else
		text[PROMPT_FIELD_ADDRESS] = format_addr(q->raddr);
	if (q->op == PFSEL_OP_CREATE || !has_ports(q->proto)) {
		text[PROMPT_FIELD_PORT] = g_strdup("none");
		text[PROMPT_FIELD_SERVICE] = g_strdup("none");
	} else {
		service = prompt_service_name(q->proto, q->rport);
		text[PROMPT_FIELD_PORT] = g_strdup_printf("%u", q->rport);
		text[PROMPT_FIELD_SERVICE] =
			g_strdup(service ? service : "unknown");
	}
	/* Learned by the kernel from DNS answers (PFSEL_ATTR_HOSTS). */
	text[PROMPT_FIELD_HOST] = host_names(q);
	if (!text[PROMPT_FIELD_HOST])
		text[PROMPT_FIELD_HOST] = g_strdup("unknown");
	if (q->rule_line) {
		g_autofree char *file =
			prompt_escape(q->rule_file[0] ? q->rule_file : "?");

		text[PROMPT_FIELD_RULE] =
			g_strdup_printf("%s:%u:%u (%s policy)", file,
					q->rule_line, q->rule_col, policy);
	} else {
		text[PROMPT_FIELD_RULE] =
			g_strdup_printf("the %s policy's default", policy);
	}
	text[PROMPT_FIELD_CONTEXT] = q->secctx[0] ? prompt_escape(q->secctx) :
						    g_strdup("none");
	text[PROMPT_FIELD_TIME_LEFT] =
		prompt_format_time_left(prompt_question_seconds_left(pq));
	text[PROMPT_FIELD_THEN] =
		g_strdup_printf("then: %s", prompt_question_unanswered(pq));
}

/* ---- /proc ------------------------------------------------------------ */

/* The parent of @pid from /proc/PID/stat: 0 and *@ppid, or -errno. */
static int read_ppid(pid_t pid, pid_t *ppid)
{
	char path[64], buf[1024];
	const char *close_paren;
	ssize_t n;
	int fd, saved, parent;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	saved = errno;
	close(fd);
	if (n < 0)
		return -saved;
	buf[n] = '\0';
	/* The comm is in parentheses and may itself hold ')' and blanks. */
	close_paren = strrchr(buf, ')');
	if (!close_paren || sscanf(close_paren + 1, " %*c %d", &parent) != 1)
		return -EBADMSG;
	*ppid = parent;
	return 0;
}

/* /proc/PID/comm, escaped; "?" when it cannot be read. */
static char *read_comm(pid_t pid)
{
	char path[64], buf[PFSEL_QUESTION_COMM_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return g_strdup("?");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return g_strdup("?");
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return prompt_escape(buf);
}

char *prompt_parent_chain(pid_t pid)
{
	GString *chain = g_string_new(NULL);
	pid_t ppid;
	int depth, err;

	err = read_ppid(pid, &ppid);
	if (err == -ENOENT || err == -ESRCH) {
		g_string_free(chain, TRUE);
		return g_strdup("unknown (the process has exited)");
	}
	if (err) {
		g_string_free(chain, TRUE);
		return g_strdup_printf("unknown (/proc/%d/stat: %s)", (int)pid,
				       g_strerror(-err));
	}
	if (ppid <= 0) {
		g_string_free(chain, TRUE);
		return g_strdup("none");
	}
	for (depth = 0; ppid > 0; depth++) {
		g_autofree char *comm = NULL;

		if (depth == PARENT_CHAIN_MAX) {
			g_string_append(chain, " < ...");
			break;
		}
		comm = read_comm(ppid);
		g_string_append_printf(chain, "%s%s (%d)", depth ? " < " : "",
				       comm, (int)ppid);
		pid = ppid;
		if (pid == 1 || read_ppid(pid, &ppid))
			break;
	}
	return g_string_free(chain, FALSE);
}

/* ---- The rule's text -------------------------------------------------- */

char *prompt_rule_line(const char *path, unsigned int line, GError **error)
{
	g_autofree char *shown = prompt_escape(path);
	char *text = NULL, *start;
	size_t cap = 0;
	unsigned int at;
	struct stat st;
	ssize_t len = -1;
	FILE *f;
	int fd, err;

	/*
	 * Not blocking on a FIFO or a device someone left at the rule's
	 * path: only a regular file is read, of a bounded size.
	 */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "open(%s): %s", shown, g_strerror(err));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > RULE_FILE_MAX) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s is not a regular file of at most %d bytes",
			    shown, RULE_FILE_MAX);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		err = errno;
		close(fd);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "fdopen(%s): %s", shown, g_strerror(err));
		return NULL;
	}
	for (at = 1; at <= line; at++) {
		len = getline(&text, &cap, f);
		if (len < 0)
			break;
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (len < 0) {
		free(text);
		if (err)
			g_set_error(error, G_FILE_ERROR,
				    g_file_error_from_errno(err),
				    "read(%s): %s", shown, g_strerror(err));
		else
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s has no line %u (it changed since the "
				    "policy was compiled)",
				    shown, line);
		return NULL;
	}
	text[strcspn(text, "\r\n")] = '\0';
	for (start = text; *start == ' ' || *start == '\t'; start++)
		;
	{
		char *escaped = prompt_escape(start);

		free(text);
		return escaped;
	}
}

/* ---- Services --------------------------------------------------------- */

char *prompt_service_name(unsigned int proto, unsigned int port)
{
	struct servent *s;

	if (!has_ports(proto) || !port || port > 65535)
		return NULL;
	s = getservbyport(htons((uint16_t)port), pfsel_proto_name(proto));
	return s && s->s_name ? prompt_escape(s->s_name) : NULL;
}

/* ---- The application's .desktop file ---------------------------------- */

/*
 * Whether @path and its folder are root's and writable by no one else:
 * the user's own programs can write ~/.local/share/applications, and a
 * .desktop file there could give any executable Firefox's name and icon.
 */
static gboolean trusted_file(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);
	struct stat st;

	if (stat(path, &st) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return FALSE;
	if (stat(dir, &st) || st.st_uid != 0 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		return FALSE;
	return TRUE;
}

/* The real path of an AppInfo's executable, found in $PATH if need be. */
static char *resolve_executable(const char *exec)
{
	g_autofree char *found = NULL;
	char *real;

	if (!exec || !exec[0])
		return NULL;
	found = g_path_is_absolute(exec) ? g_strdup(exec) :
					   g_find_program_in_path(exec);
	if (!found)
		return NULL;
	real = realpath(found, NULL);
	if (!real)
		return NULL;
	{
		char *copy = g_strdup(real);

		free(real);
		return copy;
	}
}

/* The trusted AppInfo whose executable is @target, or NULL (a new ref). */
static GAppInfo *find_app_info(const char *target)
{
	GList *all = g_app_info_get_all(), *l;
	GAppInfo *found = NULL;

	for (l = all; l && !found; l = l->next) {
		GAppInfo *info = l->data;
		const char *file;
		g_autofree char *exe = NULL;

		if (!G_IS_DESKTOP_APP_INFO(info))
			continue;
		file = g_desktop_app_info_get_filename(
			G_DESKTOP_APP_INFO(info));
		if (!file || !trusted_file(file))
			continue;
		exe = resolve_executable(g_app_info_get_executable(info));
		if (exe && !strcmp(exe, target))
			found = g_object_ref(info);
	}
	g_list_free_full(all, g_object_unref);
	return found;
}

/*
 * Where a system-wide Flatpak installation exports its applications'
 * .desktop files, ID.desktop, root's.  A constant of the build: the GUI
 * tests' own build of the prompt (pfsel-tools/Makefile) points it at a
 * folder the test makes; nothing the user's programs set moves it.
 */
#ifndef PROMPT_FLATPAK_APPLICATIONS
#define PROMPT_FLATPAK_APPLICATIONS \
	"/var/lib/flatpak/exports/share/applications"
#endif

/*
 * The .desktop file Flatpak exported for the application @id, when the
 * user's programs cannot have written it (trusted_file()), or NULL (a
 * new ref).  An ID holds no '/' (the language's check): the name stays
 * in the folder.
 */
static GAppInfo *flatpak_app_info(const char *id)
{
	g_autofree char *file = g_strdup_printf(
		"%s/%s.desktop", PROMPT_FLATPAK_APPLICATIONS, id);
	GDesktopAppInfo *info;

	if (!trusted_file(file))
		return NULL;
	info = g_desktop_app_info_new_from_filename(file);
	return info ? G_APP_INFO(info) : NULL;
}

struct app_entry {
	char *name;
	GIcon *icon;
};

/*
 * @e's name and icon for the sandbox identity of @path, a Flatpak
 * application's or a snap's: "Name (Flatpak ID)" from the .desktop file
 * the installation exports (its icon too), else "ID (Flatpak)", "NAME
 * (Snap)".  False when @path is no sandbox identity's.
 */
static bool sandbox_app_entry(const char *path, struct app_entry *e)
{
	char id[APP_SANDBOX_ID_SIZE];
	const enum app_sandbox kind = app_sandbox_of(path, id);
	g_autofree char *name = NULL;
	GAppInfo *info = NULL;

	if (kind == APP_SANDBOX_NONE)
		return false;
	if (kind == APP_SANDBOX_FLATPAK)
		info = flatpak_app_info(id);
	if (info) {
		/*
		 * The name and icon are the application author's (Flatpak
		 * keeps Name= and Icon=): another application may ship the
		 * same.  Its ID, which the installation's folder and the
		 * rule name, goes with the name wherever the name is shown.
		 */
		name = g_strdup_printf("%s (%s %s)",
				       g_app_info_get_display_name(info),
				       app_sandbox_label(kind), id);
		e->icon = g_app_info_get_icon(info);
		if (e->icon)
			g_object_ref(e->icon);
		g_object_unref(info);
	} else {
		name = g_strdup_printf("%s (%s)", id, app_sandbox_label(kind));
	}
	e->name = prompt_escape(name);
	return true;
}

static void app_entry_free(gpointer data)
{
	struct app_entry *e = data;

	g_free(e->name);
	g_clear_object(&e->icon);
	g_free(e);
}

void prompt_app_lookup(const char *exe, const char *script, char **name,
		       GIcon **icon)
{
	static GHashTable *cache;
	g_autofree char *key = g_strdup_printf("%s%c%s", exe, '\n', script);
	const char *target = script[0] ? script : exe;
	struct app_entry *e;
	GAppInfo *info;

	if (!cache)
		cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      app_entry_free);
	e = g_hash_table_lookup(cache, key);
	if (!e) {
		e = g_new0(struct app_entry, 1);
		/*
		 * A script is the application, not its interpreter: a
		 * python3 .desktop file does not name every Python script.
		 * A Flatpak application or a snap is named by its identity.
		 */
		info = NULL;
		if (!sandbox_app_entry(target, e))
			info = find_app_info(target);
		if (info) {
			e->name = prompt_escape(
				g_app_info_get_display_name(info));
			e->icon = g_app_info_get_icon(info);
			if (e->icon)
				g_object_ref(e->icon);
			g_object_unref(info);
		} else if (e->name) {
			/* A Flatpak application or a snap: named above. */
		} else if (script[0] || strcmp(exe, "?")) {
			e->name = base_name(target);
		} else {
			e->name = g_strdup("An unnamed application");
		}
		if (!e->icon)
			e->icon = g_themed_icon_new("application-x-executable");
		g_hash_table_insert(cache, g_steal_pointer(&key), e);
	}
	*name = g_strdup(e->name);
	*icon = g_object_ref(e->icon);
}
