#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""An application that the session bus's commands reach: the control of
prompt_test.py's case i.

    bus_target.py APP_ID ACTION...

A GtkApplication as most desktop applications are, and as pfsel-prompt is
not: unique, so that it owns APP_ID on the session bus; it opens files
(Open), takes command lines from other processes (CommandLine) and has the
actions named (each ACTION an action of its own, on org.gtk.Actions).
Case i sends it the calls it sends the prompt; this program says on
standard output, a line each, what reached it:

    ready                 it owns APP_ID, its object is on the bus
    activate              Activate: its window is presented, and takes
                          the focus
    open URI...           Open
    command-line ARG...   CommandLine, from another process
    action NAME           the action NAME was activated

It runs until SIGTERM.
"""

import signal
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402 (after require_version)


def say(line):
    print(line, flush=True)


def main():
    if len(sys.argv) < 2:
        print("usage: bus_target.py APP_ID ACTION...", file=sys.stderr)
        return 2
    app_id, actions = sys.argv[1], sys.argv[2:]
    app = Gtk.Application(application_id=app_id,
                          flags=Gio.ApplicationFlags.HANDLES_OPEN
                          | Gio.ApplicationFlags.HANDLES_COMMAND_LINE)
    window = None

    def activate(app):
        nonlocal window
        say("activate")
        if window is None:
            window = Gtk.ApplicationWindow(application=app, title="pfsel test: the bus's target")
            window.set_default_size(300, 120)
        window.present()

    def open_files(_app, files, _n, _hint):
        say("open " + " ".join(f.get_uri() for f in files))

    def command_line(_app, cmdline):
        if cmdline.get_is_remote():
            say("command-line " + " ".join(cmdline.get_arguments()))
        else:
            # Its own start: it stays, and is on the bus by now.
            app.hold()
            say("ready")
        return 0

    for name in actions:
        action = Gio.SimpleAction.new(name, None)
        action.connect("activate", lambda _a, _p, name=name: say(f"action {name}"))
        app.add_action(action)
    app.connect("activate", activate)
    app.connect("open", open_files)
    app.connect("command-line", command_line)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: app.quit() or False)
    return app.run(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
