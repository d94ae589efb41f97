// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-agent - the display of the user's graphical session, from logind.
 *
 * The desktop prompt is the agent's child; when the agent runs as a system
 * service (pfsel-agent@USER) it has no display of its own, and it must not
 * take one from anything the user's programs can set: a program that could
 * point the prompt at a display server of its own could answer it there.
 * logind's record of the session was made by the display manager, as
 * root, when the person logged in.
 *
 * X11's DISPLAY is in that record.  Wayland's socket name is not: the
 * compositor's default, wayland-0, in the session's runtime folder, which
 * belongs to the user (docs/THREAT-MODEL.md says what that leaves open).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-login.h>

#include "session_display.h"

static int fail(char *err, size_t errlen, int ret, const char *fmt,
		const char *arg)
{
	snprintf(err, errlen, fmt, arg);
	return ret;
}

/* @path when it is a regular file, for XAUTHORITY. */
static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int session_display_find(const uid_t uid, struct session_display *const out,
			 char *const err, const size_t errlen)
{
	char *session = NULL, *type = NULL, *state = NULL, *display = NULL;
	char runtime[64], home_xauth[300] = "";
	size_t n = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sd_uid_get_display(uid, &session);
	if (ret == -ENODATA || ret == -ENOENT || ret == -ENXIO)
		return fail(err, errlen, -ENXIO,
			    "the user has no graphical session%s", "");
	if (ret < 0)
		return fail(err, errlen, ret, "sd_uid_get_display: %s",
			    strerror(-ret));
	ret = sd_session_get_type(session, &type);
	if (!ret)
		ret = sd_session_get_state(session, &state);
	if (ret < 0) {
		ret = fail(err, errlen, ret, "sd-login: session %s: gone",
			   session);
		goto out;
	}
	if (strcmp(type, "x11") && strcmp(type, "wayland")) {
		ret = fail(err, errlen, -ENXIO,
			   "session %s is not graphical (x11 or wayland)",
			   session);
		goto out;
	}
	if (strcmp(state, "active") || sd_session_is_remote(session) > 0) {
		ret = fail(err, errlen, -ENXIO,
			   "session %s is not an active local one", session);
		goto out;
	}
	if (!strcmp(type, "x11") &&
	    (sd_session_get_display(session, &display) < 0 || !display ||
	     !*display)) {
		ret = fail(err, errlen, -ENXIO,
			   "session %s (x11) has no display", session);
		goto out;
	}

	snprintf(out->session, sizeof(out->session), "%s", session);
	snprintf(out->type, sizeof(out->type), "%s", type);
	snprintf(runtime, sizeof(runtime), "/run/user/%u", (unsigned int)uid);
	if (display)
		snprintf(out->storage[n], sizeof(out->storage[n]), "DISPLAY=%s",
			 display);
	else
		snprintf(out->storage[n], sizeof(out->storage[n]),
			 "WAYLAND_DISPLAY=wayland-0");
	out->env[n] = out->storage[n];
	n++;
	snprintf(out->storage[n], sizeof(out->storage[n]), "XDG_RUNTIME_DIR=%s",
		 runtime);
	out->env[n] = out->storage[n];
	n++;
	snprintf(out->storage[n], sizeof(out->storage[n]),
		 "DBUS_SESSION_BUS_ADDRESS=unix:path=%s/bus", runtime);
	out->env[n] = out->storage[n];
	n++;
	if (display) {
		/* Where display managers keep the cookie: GDM, then ~. */
		const char *home = getenv("HOME");

		snprintf(home_xauth, sizeof(home_xauth), "%s/gdm/Xauthority",
			 runtime);
		if (!is_file(home_xauth) && home)
			snprintf(home_xauth, sizeof(home_xauth),
				 "%s/.Xauthority", home);
		if (is_file(home_xauth)) {
			snprintf(out->storage[n], sizeof(out->storage[n]),
				 "XAUTHORITY=%s", home_xauth);
			out->env[n] = out->storage[n];
			n++;
		}
	}
	out->env[n] = NULL;
	ret = 0;
out:
	free(session);
	free(type);
	free(state);
	free(display);
	return ret;
}
