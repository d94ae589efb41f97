/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pfsel-agent - where the desktop prompt's window goes: the display of the
 * user's graphical login session, as logind records it.
 */
#ifndef PFSEL_AGENT_SESSION_DISPLAY_H
#define PFSEL_AGENT_SESSION_DISPLAY_H

#include <stddef.h>
#include <sys/types.h>

/**
 * struct session_display - A graphical session's display
 * @session: logind's session id.
 * @type: "x11" or "wayland".
 * @env: the environment the prompt needs to reach it, NULL-terminated
 *       "NAME=value" strings: DISPLAY (x11) or WAYLAND_DISPLAY (wayland),
 *       XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, and for x11 XAUTHORITY
 *       when a cookie file is found.
 * @storage: where @env's strings live.
 */
struct session_display {
	char session[64];
	char type[16];
	char *env[6];
	char storage[4][320];
};

/**
 * session_display_find - The display of @uid's graphical session
 * @uid: the user.
 * @out: filled in.
 * @err: on failure, why, for the log.
 * @errlen: its size.
 *
 * Asks logind (sd_uid_get_display(): the user's primary graphical
 * session) for an active, local session of type x11 or wayland.  What
 * logind records the display manager gave it, as root, at login; the
 * user's programs cannot change it, which the environment the agent was
 * started with (or the user's systemd manager's) they could.
 *
 * Return: 0; -ENXIO when the user has no such session (none, not active,
 * remote, or of another type); another negative errno from sd-login.
 */
int session_display_find(uid_t uid, struct session_display *out, char *err,
			 size_t errlen);

#endif /* PFSEL_AGENT_SESSION_DISPLAY_H */
