// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - the monitor: what happened.  Recent decisions of one uid
 * from the audit log, read by libpfsel's reader (pfsel_audit_read(), as
 * pfsel log reads them), newest first: time, application,
 * destination, verdict and the rule that decided, with "Why?" (the rule's
 * text) and "Make this a rule" (rule_dialog.c).  And a notification for
 * each new denial that a permissive policy let through, so that a person
 * trying rules out sees what they would stop.
 *
 * The monitor answers nothing and loads nothing: it is what the person's
 * own session may run (a systemd user unit, a .desktop file).
 *
 * New records are found by following the log file as it grows: the bytes
 * added since the last look, whole lines only, go to the same reader
 * through a memfd (so only they are parsed again); a log that was rotated
 * or truncated is read again from its start.  Records already shown are
 * told apart by their audit timestamp and serial.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prompt.h"

/* How many decisions the window keeps. */
#define MONITOR_MAX_RECORDS 200
/* How often the log is looked at, in seconds. */
#define MONITOR_POLL_SECONDS 2
/* At most this many new bytes of log are read at each look. */
#define MONITOR_CHUNK_MAX (8 * 1024 * 1024)
/* At most this many notifications at each look; then one summary. */
#define MONITOR_NOTIFY_MAX 3

/*
 * The columns: titles, widths in characters (at least @min, a narrow
 * window wraps more; at most @chars), and whether the room the window
 * has goes to them (the columns of text that wrap).
 */
static const struct {
	const char *title;
	int min, chars;
	bool grow;
} columns[] = {
	{ "Time", 10, 19, false },	 { "Application", 12, 24, true },
	{ "Destination", 12, 24, true }, { "Verdict", 8, 12, false },
	{ "Rule", 12, 24, true },
};
#define N_COLUMNS G_N_ELEMENTS(columns)

#define AUDITD_CONF "/etc/audit/auditd.conf"
#define AUDIT_LOG_DEFAULT "/var/log/audit/audit.log"

struct prompt_monitor {
	GtkApplication *app;
	struct prompt_monitor_options opts;
	char *input; /* opts.audit_input, owned */
	char *follow; /* the file followed for new records */
	GtkWindow *window;
	GtkWidget *status;
	GtkWidget *table; /* a GtkGrid: headings, then two rows a record */
	/* Newest last; struct pfsel_audit_record, g_free()d. */
	GPtrArray *records;
	/* The newest record seen: its timestamp and serial. */
	time_t last_sec;
	unsigned int last_msec;
	unsigned long last_serial;
	/* Where following the file stands. */
	dev_t follow_dev;
	ino_t follow_ino;
	off_t follow_offset;
	gboolean reading;
	gboolean loaded; /* the first read is done */
	char *error; /* the last read's error, or NULL */
	char *warning; /* records a read could not decode, or NULL */
	guint poll_timer;
	time_t started;
	GCancellable *cancel;
};

/* ---- Reading, in a worker thread -------------------------------------- */

struct read_job {
	char *input; /* NULL: the audit daemon's logs */
	int memfd; /* the input when >= 0 */
	uint32_t uid;
	time_t after_sec;
	unsigned int after_msec;
	unsigned long after_serial;
	/* Results. */
	GPtrArray *records;
	char *error;
	int err;
	unsigned long bad;
};

static void read_job_free(gpointer data)
{
	struct read_job *job = data;

	if (job->memfd >= 0)
		close(job->memfd);
	g_free(job->input);
	if (job->records)
		g_ptr_array_unref(job->records);
	g_free(job->error);
	g_free(job);
}

static gboolean newer(time_t sec, unsigned int msec, unsigned long serial,
		      time_t than_sec, unsigned int than_msec,
		      unsigned long than_serial)
{
	if (sec != than_sec)
		return sec > than_sec;
	if (msec != than_msec)
		return msec > than_msec;
	return serial > than_serial;
}

static int on_record(const struct pfsel_audit_record *rec, void *arg)
{
	struct read_job *job = arg;

	if (!newer(rec->sec, rec->msec, rec->serial, job->after_sec,
		   job->after_msec, job->after_serial))
		return 0;
	if (job->records->len == MONITOR_MAX_RECORDS)
		g_ptr_array_remove_index(job->records, 0);
	g_ptr_array_add(job->records, g_memdup2(rec, sizeof(*rec)));
	return 0;
}

static void read_thread(GTask *task, gpointer source, gpointer data,
			GCancellable *cancel)
{
	struct read_job *job = data;
	char memfd_path[64];
	struct pfsel_audit_filter src = {
		.input = job->input,
		.has_uid = true,
		.uid = job->uid,
		.want_allow = true,
		.want_deny = true,
	};

	(void)source;
	(void)cancel;
	if (job->memfd >= 0) {
		snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d",
			 job->memfd);
		src.input = memfd_path;
	}
	job->records = g_ptr_array_new_with_free_func(g_free);
	job->err = pfsel_audit_read(&src, on_record, job, &job->bad);
	/* What failed, or the records it could not decode, for the window. */
	if (job->err < 0 && pfsel_last_error()[0])
		job->error = prompt_escape_flags(pfsel_last_error(),
						 PFSEL_ESCAPE_CONTROLS);
	else if (job->bad)
		job->error = g_strdup_printf(
			"%lu pfsel record%s could not be read and %s skipped",
			job->bad, job->bad == 1 ? "" : "s",
			job->bad == 1 ? "was" : "were");
	g_task_return_boolean(task, TRUE);
}

/* ---- The log file followed -------------------------------------------- */

/*
 * The audit daemon's log file: auditd.conf's log_file (root may keep
 * that file unreadable to others: then the default).
 */
static char *audit_log_path(void)
{
	g_autofree char *conf = NULL;
	g_auto(GStrv) lines = NULL;
	char **l;

	if (!g_file_get_contents(AUDITD_CONF, &conf, NULL, NULL))
		return g_strdup(AUDIT_LOG_DEFAULT);
	lines = g_strsplit(conf, "\n", -1);
	for (l = lines; *l; l++) {
		char *line = g_strstrip(*l), *eq = strchr(line, '=');

		if (line[0] == '#' || !eq)
			continue;
		*eq = '\0';
		if (!strcmp(g_strstrip(line), "log_file") &&
		    g_path_is_absolute(g_strstrip(eq + 1)))
			return g_strdup(g_strstrip(eq + 1));
	}
	return g_strdup(AUDIT_LOG_DEFAULT);
}

/* Where following the file starts: its end, now (before the first read). */
static void follow_from_end(struct prompt_monitor *mon)
{
	struct stat st;

	if (stat(mon->follow, &st))
		return;
	mon->follow_dev = st.st_dev;
	mon->follow_ino = st.st_ino;
	mon->follow_offset = st.st_size;
}

/*
 * The whole lines added to the followed file since the last look, in a
 * memfd; -1 when there are none (or the file cannot be read: the first
 * read said why).
 */
static int take_new_lines(struct prompt_monitor *mon)
{
	g_autofree char *buf = NULL;
	struct stat st;
	off_t start;
	ssize_t n;
	size_t want, len;
	char *last_nl;
	int fd, memfd;

	fd = open(mon->follow, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	/* Rotated (another file now) or truncated: from its start. */
	if (st.st_dev != mon->follow_dev || st.st_ino != mon->follow_ino ||
	    st.st_size < mon->follow_offset) {
		mon->follow_dev = st.st_dev;
		mon->follow_ino = st.st_ino;
		mon->follow_offset = 0;
	}
	start = mon->follow_offset;
	if (st.st_size == start) {
		close(fd);
		return -1;
	}
	want = (size_t)MIN((off_t)MONITOR_CHUNK_MAX, st.st_size - start);
	buf = g_malloc(want);
	n = pread(fd, buf, want, start);
	close(fd);
	if (n <= 0)
		return -1;
	len = (size_t)n;
	last_nl = memrchr(buf, '\n', len);
	if (!last_nl)
		return -1; /* half a line: the rest comes later */
	len = (size_t)(last_nl - buf) + 1;
	memfd = memfd_create("pfsel-monitor", MFD_CLOEXEC);
	if (memfd < 0)
		return -1;
	if (write(memfd, buf, len) != (ssize_t)len) {
		close(memfd);
		return -1;
	}
	mon->follow_offset = start + (off_t)len;
	return memfd;
}

/* ---- What the window shows -------------------------------------------- */

static gboolean proto_has_ports(unsigned int proto)
{
	return proto == PFSEL_PROTO_TCP || proto == PFSEL_PROTO_UDP;
}

static char *endpoint(const char *addr, int port, unsigned int proto)
{
	if (!proto_has_ports(proto) || port < 0)
		return g_strdup(addr);
	if (strchr(addr, ':'))
		return g_strdup_printf("[%s]:%d", addr, port);
	return g_strdup_printf("%s:%d", addr, port);
}

/* The request alone: "connect to 192.0.2.1:443 (tcp)" and the like. */
static char *request_text(const struct pfsel_audit_record *rec)
{
	const struct pfsel_request *req = &rec->request;
	const char *op = pfsel_op_name(req->op);
	const char *proto = pfsel_proto_name(req->proto);
	g_autofree char *local = endpoint(rec->laddr, rec->lport, req->proto);
	g_autofree char *remote = endpoint(rec->raddr, rec->rport, req->proto);

	switch (req->op) {
	case PFSEL_OP_CREATE:
		return g_strdup_printf("create a %s socket (%s)", proto,
				       pfsel_family_name(req->family));
	case PFSEL_OP_BIND:
	case PFSEL_OP_LISTEN:
		return g_strdup_printf("%s on %s (%s)", op, local, proto);
	case PFSEL_OP_ACCEPT:
		return g_strdup_printf("accept from %s on port %d (%s)",
				       rec->raddr, rec->lport, proto);
	default:
		return g_strdup_printf("%s to %s (%s)", op, remote, proto);
	}
}

/*
 * "connect to 192.0.2.1:443 (tcp)" and the like; with the host names the
 * record gives (hosts=), "connect to 192.0.2.1:443 (tcp, host
 * www.example.org)", the names escaped.
 */
static char *destination_text(const struct pfsel_audit_record *rec)
{
	g_autofree char *text = request_text(rec);
	g_auto(GStrv) names = NULL;
	g_autofree char *joined = NULL, *shown = NULL;

	if (!rec->request.hosts[0] || rec->request.op == PFSEL_OP_CREATE)
		return g_steal_pointer(&text);
	names = g_strsplit(rec->request.hosts, ",", -1);
	joined = g_strjoinv(", ", names);
	shown = prompt_escape(joined);
	/* The text ends with ")". */
	text[strlen(text) - 1] = '\0';
	return g_strdup_printf("%s, host %s)", text, shown);
}

static char *verdict_text(const struct pfsel_audit_record *rec)
{
	GString *s = g_string_new(pfsel_verdict_name(rec->verdict));

	if (rec->asked[0])
		g_string_append_printf(s, " (asked: %s)", rec->asked);
	if (rec->permissive)
		g_string_append(s, ", let through: permissive");
	return g_string_free(s, FALSE);
}

/* Split "FILE:LINE:COL": TRUE with the file and the line. */
static gboolean split_rule(const char *rule, char **file, unsigned int *line)
{
	const char *col = strrchr(rule, ':'), *l;
	unsigned long n;
	char *end;

	if (!col || col == rule)
		return FALSE;
	for (l = col - 1; l > rule && *l != ':'; l--)
		;
	if (l == rule)
		return FALSE;
	n = strtoul(l + 1, &end, 10);
	if (end != col || !n || n > UINT_MAX)
		return FALSE;
	*file = g_strndup(rule, (gsize)(l - rule));
	*line = (unsigned int)n;
	return TRUE;
}

static char *rule_field_text(const struct pfsel_audit_record *rec)
{
	g_autofree char *file = NULL;
	unsigned int line;

	if (rec->rule_default)
		return g_strdup_printf("the %s policy's default",
				       pfsel_policy_name(rec->policy));
	if (!split_rule(rec->rule, &file, &line))
		return prompt_escape(rec->rule);
	{
		g_autofree char *shown = prompt_escape(file);

		return g_strdup_printf("%s:%u (%s policy)", shown, line,
				       pfsel_policy_name(rec->policy));
	}
}

static char *app_text(const struct pfsel_audit_record *rec)
{
	g_autofree char *app = NULL, *script = NULL;

	if (!rec->request.exe[0])
		return g_strdup("unnamed");
	app = prompt_app_text(rec->request.exe);
	if (!rec->request.script[0])
		return g_steal_pointer(&app);
	script = prompt_app_text(rec->request.script);
	return g_strdup_printf("%s script %s", app, script);
}

static char *time_text(const struct pfsel_audit_record *rec)
{
	g_autoptr(GDateTime)
		t = g_date_time_new_from_unix_local((gint64)rec->sec);

	return t ? g_date_time_format(t, "%Y-%m-%d %H:%M:%S") : g_strdup("?");
}

/* What a row's buttons need: its record, and its "Why?" label. */
struct row_data {
	struct prompt_monitor *mon;
	struct pfsel_audit_record *rec;
	GtkWidget *why_text;
};

static void on_row_why(GtkButton *button, gpointer data)
{
	struct row_data *rd = data;
	g_autofree char *file = NULL, *line_text = NULL, *text = NULL;
	g_autoptr(GError) error = NULL;
	unsigned int line;

	(void)button;
	if (rd->rec->rule_default)
		text = g_strdup_printf("No rule of the %s policy matched: its "
				       "default decided.",
				       pfsel_policy_name(rd->rec->policy));
	else if (!split_rule(rd->rec->rule, &file, &line))
		text = g_strdup("The record names no rule line.");
	else if (!(line_text = prompt_rule_line(file, line, &error)))
		text = g_strdup_printf("The rule's text cannot be read: %s",
				       error->message);
	else
		text = g_strdup_printf("Line %u: %s", line, line_text);
	prompt_label_set_text(rd->why_text, text);
	gtk_widget_set_visible(rd->why_text, TRUE);
}

static void on_row_rule(GtkButton *button, gpointer data)
{
	struct row_data *rd = data;

	(void)button;
	prompt_rule_dialog_show(rd->mon->window, &rd->rec->request,
				rd->rec->verdict == PFSEL_VERDICT_DENY ?
					PFSEL_ANSWER_DENY :
					PFSEL_ANSWER_ALLOW);
}

/*
 * A cell: wrapped, never cut short (a path with a part left out could be
 * another path).  Named after its column (@title; NULL for a heading).
 */
static GtkWidget *cell(size_t col, const char *title, const char *text)
{
	GtkWidget *label = prompt_value_label(title);

	gtk_widget_set_hexpand(label, columns[col].grow);
	gtk_widget_set_valign(label, GTK_ALIGN_CENTER);
	gtk_label_set_width_chars(GTK_LABEL(label), columns[col].min);
	gtk_label_set_max_width_chars(GTK_LABEL(label), columns[col].chars);
	prompt_label_set_text(label, text);
	return label;
}

/*
 * The rows @row (the decision) and @row + 1 (its rule's text, shown by
 * "Why?") of the table.
 */
static void add_record(struct prompt_monitor *mon, int row,
		       struct pfsel_audit_record *rec)
{
	GtkGrid *grid = GTK_GRID(mon->table);
	struct row_data *rd = g_new0(struct row_data, 1);
	GtkWidget *why, *rule;
	char *text[N_COLUMNS];
	size_t i;

	text[0] = time_text(rec);
	text[1] = app_text(rec);
	text[2] = destination_text(rec);
	text[3] = verdict_text(rec);
	text[4] = rule_field_text(rec);
	for (i = 0; i < N_COLUMNS; i++) {
		gtk_grid_attach(grid, cell(i, columns[i].title, text[i]),
				(int)i, row, 1, 1);
		g_free(text[i]);
	}
	rd->mon = mon;
	rd->rec = rec;
	why = prompt_button("_Why?");
	rule = prompt_button("_Make this a rule");
	gtk_widget_set_valign(why, GTK_ALIGN_CENTER);
	gtk_widget_set_valign(rule, GTK_ALIGN_CENTER);
	g_object_set_data_full(G_OBJECT(why), "pfsel-row", rd, g_free);
	g_signal_connect(why, "clicked", G_CALLBACK(on_row_why), rd);
	g_signal_connect(rule, "clicked", G_CALLBACK(on_row_rule), rd);
	gtk_grid_attach(grid, why, (int)N_COLUMNS, row, 1, 1);
	gtk_grid_attach(grid, rule, (int)N_COLUMNS + 1, row, 1, 1);
	rd->why_text = prompt_value_label("Rule text");
	gtk_widget_add_css_class(rd->why_text, "monospace");
	gtk_widget_set_visible(rd->why_text, FALSE);
	gtk_grid_attach(grid, rd->why_text, 0, row + 1, (int)N_COLUMNS + 2, 1);
}

/* The table: its headings, then every record, newest first. */
static void fill_list(struct prompt_monitor *mon)
{
	GtkWidget *child;
	guint i;
	int row = 1;

	if (!mon->window)
		return;
	while ((child = gtk_widget_get_first_child(mon->table)))
		gtk_grid_remove(GTK_GRID(mon->table), child);
	for (i = 0; i < N_COLUMNS; i++) {
		GtkWidget *title = cell(i, NULL, columns[i].title);

		gtk_widget_add_css_class(title, "heading");
		gtk_grid_attach(GTK_GRID(mon->table), title, (int)i, 0, 1, 1);
	}
	for (i = mon->records->len; i > 0; i--, row += 2)
		add_record(mon, row, mon->records->pdata[i - 1]);
}

static void update_status(struct prompt_monitor *mon)
{
	g_autofree char *text = NULL;
	const char *from = mon->input ? mon->input : "the audit logs";
	g_autofree char *shown = prompt_escape(from);

	if (!mon->window)
		return;
	if (!mon->loaded)
		text = g_strdup_printf("Reading %s...", shown);
	else if (mon->error)
		text = g_strdup(mon->error);
	else if (!mon->records->len)
		text = g_strdup_printf("No decisions of uid %u in %s.",
				       mon->opts.uid, shown);
	else
		text = g_strdup_printf(
			"The last %u decision%s of uid %u in %s, newest first.",
			mon->records->len, mon->records->len == 1 ? "" : "s",
			mon->opts.uid, shown);
	if (mon->loaded && !mon->error && mon->warning) {
		char *both = g_strdup_printf("%s\n%s", text, mon->warning);

		g_free(text);
		text = both;
	}
	prompt_label_set_text(mon->status, text);
}

/* ---- Notifications ---------------------------------------------------- */

static void notify_denial(struct prompt_monitor *mon,
			  const struct pfsel_audit_record *rec)
{
	g_autoptr(GNotification) n = NULL;
	g_autofree char *app = app_text(rec), *dest = destination_text(rec),
			*rule = rule_field_text(rec), *title = NULL,
			*body = NULL, *id = NULL;

	title = g_strdup_printf("pfsel would deny %s", app);
	body = g_strdup_printf("%s, by %s. It was let through: the policy "
			       "is permissive.",
			       dest, rule);
	n = g_notification_new(title);
	g_notification_set_body(n, body);
	g_notification_set_default_action(n, "app.show-monitor");
	id = g_strdup_printf("pfsel-denial-%lu", rec->serial);
	g_application_send_notification(G_APPLICATION(mon->app), id, n);
}

static void notify_more(struct prompt_monitor *mon, guint more)
{
	g_autoptr(GNotification) n = NULL;
	g_autofree char *title =
		g_strdup_printf("pfsel would deny %u more request%s", more,
				more == 1 ? "" : "s");

	n = g_notification_new(title);
	g_notification_set_body(n, "A permissive policy let them through; "
				   "the monitor lists them.");
	g_notification_set_default_action(n, "app.show-monitor");
	g_application_send_notification(G_APPLICATION(mon->app),
					"pfsel-denial-more", n);
}

/* ---- Taking a read's results ------------------------------------------ */

static void start_read(struct prompt_monitor *mon);

static void on_read_done(GObject *source, GAsyncResult *result, gpointer data)
{
	struct prompt_monitor *mon = data;
	struct read_job *job = g_task_get_task_data(G_TASK(result));
	guint i, notified = 0, more = 0, added = 0;

	(void)source;
	/* The task holds the cancellable: @mon may be gone when it is set. */
	if (g_cancellable_is_cancelled(g_task_get_cancellable(G_TASK(result))))
		return;
	mon->reading = FALSE;
	g_clear_pointer(&mon->error, g_free);
	if (job->err < 0) {
		mon->error = g_strdup_printf(
			"%s%s", job->error ? job->error : g_strerror(-job->err),
			job->err == -EACCES ?
				". To read it, add yourself to the group "
				"that auditd.conf's log_group names, then "
				"log in again." :
				"");
	} else if (job->error) {
		/* Records it could not decode: said, and the rest shown. */
		g_free(mon->warning);
		mon->warning = g_strdup(job->error);
	}
	for (i = 0; job->records && i < job->records->len; i++) {
		struct pfsel_audit_record *rec = job->records->pdata[i];

		if (!newer(rec->sec, rec->msec, rec->serial, mon->last_sec,
			   mon->last_msec, mon->last_serial))
			continue;
		mon->last_sec = rec->sec;
		mon->last_msec = rec->msec;
		mon->last_serial = rec->serial;
		/* Denials made since the monitor started, let through. */
		if (mon->opts.notify && mon->loaded && rec->permissive &&
		    rec->verdict == PFSEL_VERDICT_DENY &&
		    rec->sec >= mon->started) {
			if (notified < MONITOR_NOTIFY_MAX) {
				notify_denial(mon, rec);
				notified++;
			} else {
				more++;
			}
		}
		if (mon->records->len == MONITOR_MAX_RECORDS)
			g_ptr_array_remove_index(mon->records, 0);
		job->records->pdata[i] = NULL;
		g_ptr_array_add(mon->records, rec);
		added++;
	}
	if (more)
		notify_more(mon, more);
	/* Rebuilt only when something came: an open "Why?" stays open. */
	if (added || !mon->loaded) {
		mon->loaded = TRUE;
		fill_list(mon);
	}
	update_status(mon);
}

static void start_read(struct prompt_monitor *mon)
{
	struct read_job *job;
	GTask *task;
	int memfd = -1;

	if (mon->reading)
		return;
	if (mon->loaded) {
		memfd = take_new_lines(mon);
		if (memfd < 0)
			return; /* nothing new */
	}
	job = g_new0(struct read_job, 1);
	job->memfd = memfd;
	job->input = memfd < 0 ? g_strdup(mon->input) : NULL;
	job->uid = mon->opts.uid;
	job->after_sec = mon->last_sec;
	job->after_msec = mon->last_msec;
	job->after_serial = mon->last_serial;
	mon->reading = TRUE;
	task = g_task_new(NULL, mon->cancel, on_read_done, mon);
	g_task_set_task_data(task, job, read_job_free);
	g_task_run_in_thread(task, read_thread);
	g_object_unref(task);
}

static gboolean on_poll(gpointer data)
{
	start_read(data);
	return G_SOURCE_CONTINUE;
}

/* ---- The window ------------------------------------------------------- */

static gboolean on_window_close(GtkWindow *window, gpointer data)
{
	struct prompt_monitor *mon = data;

	(void)window;
	/* Rebuilt when shown again; the reading goes on. */
	mon->window = NULL;
	return FALSE;
}

static void build_window(struct prompt_monitor *mon)
{
	GtkWidget *window = gtk_window_new();
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	GtkWidget *scroll = gtk_scrolled_window_new();

	mon->window = GTK_WINDOW(window);
	gtk_window_set_application(mon->window, mon->app);
	gtk_window_set_title(mon->window, "pfsel: recent decisions");
	gtk_window_set_default_size(mon->window, 1150, 600);
	gtk_window_set_icon_name(mon->window, "security-high");
	g_signal_connect(window, "close-request", G_CALLBACK(on_window_close),
			 mon);
	gtk_widget_set_margin_top(box, 12);
	gtk_widget_set_margin_bottom(box, 12);
	gtk_widget_set_margin_start(box, 12);
	gtk_widget_set_margin_end(box, 12);

	mon->status = prompt_value_label(NULL);
	gtk_box_append(GTK_BOX(box), mon->status);

	mon->table = gtk_grid_new();
	gtk_grid_set_column_spacing(GTK_GRID(mon->table), 12);
	gtk_grid_set_row_spacing(GTK_GRID(mon->table), 4);
	prompt_set_accessible_name(mon->table, "Recent decisions");
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll),
				       GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), mon->table);
	gtk_widget_set_vexpand(scroll, TRUE);
	gtk_box_append(GTK_BOX(box), scroll);
	gtk_window_set_child(mon->window, box);
	fill_list(mon);
	update_status(mon);
}

struct prompt_monitor *
prompt_monitor_new(GtkApplication *app,
		   const struct prompt_monitor_options *opts)
{
	struct prompt_monitor *mon = g_new0(struct prompt_monitor, 1);

	mon->app = app;
	mon->opts = *opts;
	mon->input = g_strdup(opts->audit_input);
	mon->opts.audit_input = mon->input;
	mon->follow = mon->input ? g_strdup(mon->input) : audit_log_path();
	mon->records = g_ptr_array_new_with_free_func(g_free);
	mon->started = time(NULL);
	mon->cancel = g_cancellable_new();
	/* Records written from now on are followed in the file... */
	follow_from_end(mon);
	/* ...and those before are read whole, once. */
	start_read(mon);
	mon->poll_timer =
		g_timeout_add_seconds(MONITOR_POLL_SECONDS, on_poll, mon);
	return mon;
}

void prompt_monitor_present(struct prompt_monitor *mon)
{
	if (!mon->window)
		build_window(mon);
	gtk_window_present(mon->window);
}

void prompt_monitor_free(struct prompt_monitor *mon)
{
	if (!mon)
		return;
	/*
	 * A read still running finishes in its thread and frees its own
	 * job; its callback sees the cancellation and touches nothing.
	 */
	g_cancellable_cancel(mon->cancel);
	if (mon->poll_timer)
		g_source_remove(mon->poll_timer);
	if (mon->window)
		gtk_window_destroy(mon->window);
	g_object_unref(mon->cancel);
	g_ptr_array_unref(mon->records);
	g_free(mon->input);
	g_free(mon->follow);
	g_free(mon->error);
	g_free(mon->warning);
	g_free(mon);
}
