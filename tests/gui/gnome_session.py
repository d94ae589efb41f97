# SPDX-License-Identifier: GPL-2.0-only
"""GNOME for the prompt's tests: gnome-session and gnome-shell, headless.

prompt_test.py --backend gnome runs the prompt in a GNOME session of its
own, as a person's GNOME on Wayland runs it, but with no display and no
GPU: gnome-session (its built-in session management) starts gnome-shell
as the session's display server, and gnome-shell runs as GNOME's own
tests run it (--headless --virtual-monitor, mutter's surfaceless
renderer), inside the test's private D-Bus session.  The session manager
is there because GTK follows the screen shield through it: a
GtkApplication that registers with org.gnome.SessionManager watches
org.gnome.ScreenSaver (screensaver-active).

The shell gets what a person's session has from the system:

  a system bus of the run's own (a private dbus-daemon, given as
  DBUS_SYSTEM_BUS_ADDRESS), so that nothing of the machine's is asked;
  on it, GDM's manager object (org.gnome.DisplayManager, its Version,
  and RegisterSession), because gnome-shell has a lock screen only in a
  session that GDM started (loginManager.js, canLock()): the only part
  of GDM the shell reads before it locks.  Nothing else of GDM, logind
  or polkit is there; the shell says so in its log and goes on.

What the tests use of the shell, each through the shell's own interface:

  screenshot()      org.gnome.Shell.Screenshot, which answers only the
                    names it trusts: the test's connection owns one of
                    them, org.gnome.Screenshot (the screenshot tool's);
  has_focus()       org.gnome.Shell.Introspect's GetWindows, the
                    compositor's own word on which window has the focus
                    (trusted names only too: the test's connection owns
                    the GNOME desktop portal's, which no portal takes in
                    this session);
  lock(), unlock()  org.gnome.ScreenSaver (Lock; SetActive(false), what
                    GDM's unlock does once the person is back), and
                    locked(), its GetActive;
  press()           a key pressed and released on mutter's virtual
                    keyboard (org.gnome.Mutter.RemoteDesktop, what GNOME's
                    remote desktop types with): the compositor sends it to
                    the focused window as the person's own.

What the shell shows (its banners, its notification list) the tests read
through the accessibility bus, where the shell registers as any
application does (shell_pid).  The session starts in the overview, as
GNOME's does; it is left for the desktop (the shell's OverviewActive).
"""

import ctypes
import os
import signal
import subprocess
import sys
import time

# X keysyms (X11/keysymdef.h) of the modifiers the keyboard holds.
KEY_SHIFT = 0xFFE1
KEY_ALT = 0xFFE9

# The virtual monitor, and the Wayland socket the shell makes.
MONITOR = "1024x768"
SOCKET = "wayland-pfsel-gnome"
SESSION = "pfsel-test"

# The session's settings (GLib's key file format): no animations, so that
# a screenshot shows a window whole once it is mapped; no welcome tour.
SETTINGS = """[org/gnome/desktop/interface]
enable-animations=false

[org/gnome/shell]
welcome-dialog-last-shown-version='999'
"""

# GDM's manager object on the system bus, as gnome-shell reads it.
GDM_SOURCE = r"""
import sys
from gi.repository import Gio, GLib

XML = '''<node><interface name="org.gnome.DisplayManager.Manager">
  <method name="RegisterSession"><arg name="details" type="a{sv}" direction="in"/></method>
  <property name="Version" type="s" access="read"/>
</interface></node>'''

def call(conn, sender, path, iface, method, params, invocation):
    invocation.return_value(None)

def get(conn, sender, path, iface, prop):
    return GLib.Variant("s", sys.argv[1])

bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
bus.register_object("/org/gnome/DisplayManager/Manager",
                    Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0], call, get, None)
reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                      "RequestName", GLib.Variant("(su)", ("org.gnome.DisplayManager", 4)),
                      GLib.VariantType("(u)"), Gio.DBusCallFlags.NONE, -1, None)
print("owned" if reply.unpack()[0] == 1 else "not owned", flush=True)
GLib.MainLoop().run()
"""


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def _call(bus, name, path, iface, method, args=None, reply=None, timeout_ms=25000):
    """A method call on bus: its reply unpacked (raises GLib.Error)."""
    from gi.repository import Gio, GLib

    out = bus.call_sync(name, path, iface, method, args,
                        GLib.VariantType(reply) if reply else None,
                        Gio.DBusCallFlags.NONE, timeout_ms, None)
    return out.unpack() if out is not None else ()


def _has_owner(bus, name):
    from gi.repository import GLib

    return _call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                 "NameHasOwner", GLib.Variant("(s)", (name,)), "(b)")[0]


class GnomeShell:
    """The session: its processes, and the shell's interfaces."""

    def __init__(self, ctx, wait_for):
        self.ctx = ctx
        self.wait_for = wait_for
        self.procs = []
        self.shell_pid = None
        self.log_file = open(os.path.join(ctx.logs, "gui-gnome-shell.log"), "w")

    # --- Starting and stopping ------------------------------------------------

    def _spawn(self, argv, env=None, **kw):
        """Start argv; it is stopped with the test, even one that was killed."""
        proc = subprocess.Popen(argv, env=env or self.ctx.env, preexec_fn=_die_with_parent,
                                stdout=kw.pop("stdout", self.log_file), stderr=self.log_file, **kw)
        self.procs.append(proc)
        return proc

    def _system_bus(self):
        """A dbus-daemon of the run's own, as the session's system bus."""
        path = os.path.join(self.ctx.work, "system_bus_socket")
        self._spawn(["dbus-daemon", "--session", f"--address=unix:path={path}", "--nofork",
                     "--nopidfile"])
        if not self.wait_for(lambda: os.path.exists(path), 10, 0.05):
            raise SystemExit("gnome: the private system bus did not start in 10 s")
        self.ctx.env["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={path}"
        os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = f"unix:path={path}"

    def _gdm(self):
        """GDM's manager object (see the module's comment)."""
        version = subprocess.run(["gnome-shell", "--version"], capture_output=True,
                                 text=True).stdout.split()[-1]
        gdm = self._spawn([sys.executable, "-c", GDM_SOURCE, version], stdout=subprocess.PIPE,
                          text=True)
        line = gdm.stdout.readline().strip()
        if line != "owned":
            raise SystemExit(f"gnome: the GDM manager object did not start ({line!r})")

    def _session_files(self):
        """gnome-session's session of one component: the shell, headless."""
        env = self.ctx.env
        sessions = os.path.join(env["XDG_CONFIG_HOME"], "gnome-session", "sessions")
        os.makedirs(sessions, exist_ok=True)
        with open(os.path.join(sessions, f"{SESSION}.session"), "w") as f:
            f.write("[GNOME Session]\nName=pfsel test\n"
                    "RequiredComponents=pfsel-test-shell;\n")
        apps = os.path.join(env["XDG_DATA_HOME"], "applications")
        os.makedirs(apps, exist_ok=True)
        # As the shell's own org.gnome.Shell.desktop, with the options of
        # GNOME's tests: no display, a virtual monitor, no X11.
        with open(os.path.join(apps, "pfsel-test-shell.desktop"), "w") as f:
            f.write("[Desktop Entry]\nType=Application\nName=GNOME Shell (headless)\n"
                    f"Exec=gnome-shell --headless --virtual-monitor {MONITOR} --wayland "
                    f"--no-x11 --wayland-display={SOCKET}\n"
                    "NoDisplay=true\nX-GNOME-Autostart-Phase=DisplayServer\n"
                    "X-GNOME-Provides=panel;windowmanager;\n"
                    "X-GNOME-Autostart-Notify=true\nX-GNOME-AutoRestart=false\n")
        # No autostart folder of the machine's: the session is the shell.
        autostart = os.path.join(self.ctx.work, "autostart")
        os.makedirs(autostart, exist_ok=True)
        return autostart

    def _settings_env(self):
        """The session's environment: its settings from a key file of the
        run's own (GLib's keyfile backend, not the person's dconf)."""
        env = dict(self.ctx.env)
        folder = os.path.join(env["XDG_CONFIG_HOME"], "glib-2.0", "settings")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "keyfile"), "w") as f:
            f.write(SETTINGS)
        env["GSETTINGS_BACKEND"] = "keyfile"
        return env

    def start(self):
        """Start the session; True once the shell serves its interfaces and
        its Wayland socket is there."""
        ctx = self.ctx
        t0 = time.monotonic()
        runtime = ctx.env["XDG_RUNTIME_DIR"]
        self._system_bus()
        self._gdm()
        autostart = self._session_files()
        self._spawn(["/usr/libexec/gnome-session-binary", "--builtin",
                     "--disable-acceleration-check", f"--session={SESSION}",
                     f"--autostart={autostart}"], env=self._settings_env())
        self.bus = _session_bus()
        # The shell's screen shield needs GDM (above) and systemd's
        # /run/systemd/seats (loginManager.js, haveSystemd()).
        awaited = {
            "org.gnome.SessionManager": lambda: _has_owner(self.bus, "org.gnome.SessionManager"),
            "org.gnome.Shell": lambda: _has_owner(self.bus, "org.gnome.Shell"),
            "org.gnome.Shell.ScreenShield (needs /run/systemd/seats)":
                lambda: _has_owner(self.bus, "org.gnome.Shell.ScreenShield"),
            f"the Wayland socket {SOCKET}": lambda: os.path.exists(os.path.join(runtime, SOCKET)),
        }
        if not self.wait_for(lambda: all(up() for up in awaited.values()), 60, 0.1):
            log("gnome: not there after 60 s: "
                + ", ".join(name for name, up in awaited.items() if not up()))
            return False
        from gi.repository import GLib

        self.shell_pid = _call(self.bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                               "org.freedesktop.DBus", "GetConnectionUnixProcessID",
                               GLib.Variant("(s)", ("org.gnome.Shell",)), "(u)")[0]
        ctx.env["WAYLAND_DISPLAY"] = SOCKET
        os.environ["WAYLAND_DISPLAY"] = SOCKET
        # The names the shell answers for: the screenshot tool's, and the
        # desktop portal's (its list of windows, GetWindows).  No portal
        # runs in the session, so the name is free.
        for name in ("org.gnome.Screenshot", "org.freedesktop.impl.portal.desktop.gnome"):
            _call(self.bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                  "org.freedesktop.DBus", "RequestName", GLib.Variant("(su)", (name, 4)), "(u)")
        # The shell starts in the overview, where no window has the focus:
        # the desktop, as the person leaves the overview for their work.
        self.wait_for(lambda: self._overview_active(), 5, 0.1)
        self._set_overview_active(False)
        if not self.wait_for(lambda: not self._overview_active(), 10, 0.1):
            log("gnome: the overview stays")
            return False
        self._start_keyboard()
        log(f"gnome: session up in {time.monotonic() - t0:.1f} s (shell pid {self.shell_pid})")
        return True

    def stop(self):
        """Stop the session (the manager first: it stops the shell)."""
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.log_file.close()

    def screenshot(self, out):
        """The whole screen to out (PNG), taken by the shell; True when made."""
        try:
            ok, _ = _call(self.bus, "org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                          "org.gnome.Shell.Screenshot", "Screenshot",
                          _variant("(bbs)", (False, False, out)), "(bs)")
        except Exception as e:
            log(f"gnome: Screenshot: {e!r}")
            return False
        return ok and os.path.exists(out)

    # --- The keyboard ---------------------------------------------------------

    def _remote_desktop(self, method, args=None):
        _call(self.bus, "org.gnome.Mutter.RemoteDesktop", self.keyboard,
              "org.gnome.Mutter.RemoteDesktop.Session", method, args)

    def _start_keyboard(self):
        """A remote desktop session of mutter's: its virtual keyboard."""
        self.keyboard = _call(self.bus, "org.gnome.Mutter.RemoteDesktop",
                              "/org/gnome/Mutter/RemoteDesktop",
                              "org.gnome.Mutter.RemoteDesktop", "CreateSession", None, "(o)")[0]
        self._remote_desktop("Start")
        # The virtual device comes a moment after Start: keys sent before
        # are lost.
        self.nudge()
        time.sleep(1)

    def nudge(self):
        """Shift pressed alone: the person is there, and nothing is typed."""
        self.press(KEY_SHIFT)

    def press(self, keysym, with_alt=False):
        """keysym pressed and released (with Alt held, if with_alt)."""
        keys = ([KEY_ALT] if with_alt else []) + [keysym]
        for key in keys:
            self._remote_desktop("NotifyKeyboardKeysym", _variant("(ub)", (key, True)))
        for key in reversed(keys):
            self._remote_desktop("NotifyKeyboardKeysym", _variant("(ub)", (key, False)))
        time.sleep(0.15)

    # --- The shell's interfaces --------------------------------------------------

    def windows(self):
        """The shell's windows: {title: {"has-focus": ..., "is-hidden": ...}},
        as the compositor has them (org.gnome.Shell.Introspect)."""
        got = _call(self.bus, "org.gnome.Shell", "/org/gnome/Shell/Introspect",
                    "org.gnome.Shell.Introspect", "GetWindows", None, "(a{ta{sv}})")[0]
        return {props.get("title", ""): props for props in got.values()}

    def has_focus(self, title):
        """Whether the window titled title has the keyboard focus."""
        return bool(self.windows().get(title, {}).get("has-focus"))

    def _overview_active(self):
        return _call(self.bus, "org.gnome.Shell", "/org/gnome/Shell",
                     "org.freedesktop.DBus.Properties", "Get",
                     _variant("(ss)", ("org.gnome.Shell", "OverviewActive")), "(v)")[0]

    def _set_overview_active(self, active):
        _call(self.bus, "org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties",
              "Set", _variant("(ssv)", ("org.gnome.Shell", "OverviewActive",
                                        _variant("b", active))))

    def _screensaver(self, method, args=None, reply=None):
        return _call(self.bus, "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver",
                     "org.gnome.ScreenSaver", method, args, reply)

    def locked(self):
        return self._screensaver("GetActive", None, "(b)")[0]

    def lock(self):
        """Lock the screen, as the person's Super+L does; True once the
        screen shield says it is active."""
        self._screensaver("Lock")
        return bool(self.wait_for(self.locked, 20))

    def unlock(self):
        """What GDM's unlock does once the person is back."""
        self._screensaver("SetActive", _variant("(b)", (False,)))
        return bool(self.wait_for(lambda: not self.locked(), 20))


def _die_with_parent():
    """In the child: SIGTERM when the test's process ends (PR_SET_PDEATHSIG)."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def _variant(sig, value):
    from gi.repository import GLib

    return GLib.Variant(sig, value)


def _session_bus():
    from gi.repository import Gio

    return Gio.bus_get_sync(Gio.BusType.SESSION, None)

