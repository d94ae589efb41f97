#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""pfsel-prompt, driven through the accessibility tree.

tests/gui/run starts this inside a display (Xvfb, or weston's headless
backend) and a private D-Bus session; with --backend gnome it starts a
GNOME session of its own in that D-Bus session (gnome_session.py:
gnome-session and gnome-shell, headless).  It must not be run in a
person's own session.  The questions reach the prompt through the agent's own code:
build/tests/gui/seam_driver runs pfsel-prompt with source_prompt_new() and
posts them (see seam_driver.c for its line protocol); what the window shows
is read, and its controls are worked, through AT-SPI, as a screen reader
or a person's keyboard would.

The cases (--backend x11 runs a to j and x, --backend wayland "a" and "g",
--backend gnome "a", "b", "g", "k", "l" and "m"):

  a  a question shows every field: the application's name and icon (from
     a .desktop file, through GIO), executable, script, pid, parents,
     operation, protocol, address, port, service name, the rule's
     file:line, the time left and what happens when it runs out; the
     countdown moves; "Allow" with scope "session" is chosen and the agent
     side receives "allow session".
  b  three questions queue in one window: it lists three, the first stays
     the one shown, and the window does not take the focus from another
     window when the second and third arrive; each is then answered.
  c  "always", as wide as "this address", shows the rule it will add and
     the agent side receives that width.
  d  the decisions window (--monitor --audit-input=FILE) lists a denial
     from an AUDIT_PFSEL_ACCESS record with the rule that decided it.
  e  an executable name with an escape sequence is shown escaped; the
     control: the same question, passed through the same seam to the unit
     tests' stand-in prompt (fake_prompt), reaches it with the raw byte.
  f  a question whose time runs out is withdrawn: it leaves the window and
     the agent side has it unanswered.
  g  the user's programs cannot answer: without
     PFSEL_PROMPT_ACCESSIBLE_ACTIONS, Allow and Deny pressed through the
     accessibility bus (DoAction, what any program of the user can do)
     answer nothing, the question stays and the window says why.  Under
     X11, without PFSEL_PROMPT_XTEST_INPUT, key presses and clicks made
     through XTEST (AT-SPI's generateKeyboardEvent and generateMouseEvent:
     at-spi2-registryd makes them so, as any X client can) answer nothing
     either: Tab to Allow and Space, Alt+D, a click on Allow; the question
     stays and the window says it was XTEST.  The control: the same
     presses and click, given a prompt with the administrator's
     PFSEL_PROMPT_XTEST_INPUT=1, answer (Xvfb has no device a person
     types on: the person's own keyboard under a real X server is
     tests/packaging/debian-image's uinput device).  Under GNOME the keys
     answer without any setting, made by mutter's virtual keyboard (its
     remote desktop interface: the compositor's own input); under weston,
     where no client can make input, the refusal only.
  h  a press in the first second after a question comes into view does
     not answer it; a second later the same press does.
  i  nothing on the session bus answers: the prompt owns no well-known
     name, and its application object's Activate, ActivateAction, Open
     and CommandLine neither answer nor take the focus; the control: the
     same calls, sent the same way to an application that owns a name and
     has those actions (bus_target.py), each reach it, and its Activate
     takes the focus.
  j  a question whose address the kernel knows host names for shows them
     (Host name, and the headline names the first); "always" offers the
     host widths, shows their rules ("to host *.example.org port 443",
     "to host www.example.org port 443"), and the agent side receives
     the host width; the next question, without names, offers neither.
  k  (GNOME) a question comes while the person types in another window:
     the window is shown; mutter gives a newly mapped Wayland window the
     focus, which lands on "Once", and the Space, Enter and letters the
     person goes on typing reach the prompt and answer nothing.
  l  (GNOME) the screen locked through org.gnome.ScreenSaver (the shell's
     screen shield): the window says so, Allow cannot be pressed (not
     even through AT-SPI with accessible actions allowed), a question that
     comes meanwhile is left to its time running out; unlocked, it is
     listed under "While the screen was locked", and the first question
     is answered.
  n  a Flatpak application's question (its executable below
     /var/lib/flatpak/app/ID/): the prompt (its tests' build, which reads
     Flatpak's exported .desktop files from build/tests/gui/flatpak, a
     constant of that build) names it "Name (Flatpak ID)" with the name
     and icon of its exported ID.desktop when root's (as root), else "ID
     (Flatpak)"; the executable is shown as "flatpak ID"; "always" shows
     and sends the rule for "flatpak ID"; an exported file the user's
     programs could write (another ID's, given to nobody) is not
     believed: that one is "ID (Flatpak)" with no icon of its file.
  o  (attacker's review) a Flatpak application of another ID, whose own
     exported ID.desktop (root's, as an installation from a remote makes
     it: the application's author wrote it) calls it by the name and icon
     of case n's application, and one whose Name= holds markup, an escape
     and a bidirectional override.  The window must tell the impostor from
     the application it imitates: the Executable field, the "always" rule,
     the Application field and the headline name its own ID (the name is
     the author's, the ID the installation's folder).  The Name= with markup is shown as text, with no escape byte and no
     override character.
  m  (GNOME) the monitor (--monitor --audit-input=FILE, its .desktop file
     installed as the package does): a permissive denial appended to the
     log reaches the shell's notification list (org.gtk.Notifications,
     served by gnome-shell).
  x  (X11) an attacker's review of the XTEST refusal: an X client of the
     user's (build/tests/gui/xattack, xattack.c) tries each way it has to
     press Allow without the person, each a check that it answers
     nothing: core events sent to the window (XSendEvent), an XInput2
     event sent (the server refuses it), the XTEST keyboard's property
     deleted, the XTEST keyboard floated or attached to a logical pair of
     its own (refused), Alt latched through XKB, XTEST in its XInput 1
     device form (XTestFakeDeviceKeyEvent, XTestFakeDeviceButtonEvent)
     naming the physical keyboard and pointer, "always" chosen then Alt+A
     that way, XKB's MouseKeys, the X focus given to the prompt with Allow
     focused as the person types elsewhere (control: the focus left
     there, the same Space answers nothing), and the "XTEST Device"
     property added to the physical devices so that the person is
     refused.  An attempt that answered fails its check with "ATTACK GOT
     THROUGH" and the answer.  Xvfb has no device a person types on: the
     person's own key is played by the XInput 1 device form of XTEST on
     Xvfb's keyboard, the very event the prompt takes as a device's.

Every case but g runs the prompt with PFSEL_PROMPT_ACCESSIBLE_ACTIONS=1 in
the seam driver's environment (which the driver, as the agent does, gives
the prompt): they work the buttons through AT-SPI actions, as an assistive
technology does when the administrator lets it answer.  Only case g makes
key presses or clicks under X11, and only its control has
PFSEL_PROMPT_XTEST_INPUT=1.

Each state is saved as build/logs/prompt-CASE[-STATE][-wayland|-gnome].png
(under GNOME taken by the shell, org.gnome.Shell.Screenshot).  Under
GNOME, "has the focus" is the compositor's own answer (the shell's
org.gnome.Shell.Introspect GetWindows): GTK 4.8 gives a Wayland window no
AT-SPI ACTIVE state.
One line per check: "PASS: NAME" or "FAIL: NAME" (and why, indented).
Exit status 0 when every check passed.
"""

import argparse
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
import urllib.parse

# The kernel's unanswered verdict, and the rest of the question of case a.
ADDRESS = "192.0.2.10"
PORT = 443
SERVICE = "https"
RULE_LINE = 7
APP_NAME = "Pfsel Test Browser"
# The icon is one colour no theme uses, so that the screenshot can be
# searched for it.
ICON_COLOUR = "#ff00ff"
# Case n's Flatpak application, its exported name and its icon's colour.
FLATPAK_ID = "org.pfsel.FlatBrowser"
FLATPAK_SPOOF_ID = "org.pfsel.Spoofed"
FLATPAK_NAME = "Pfsel Flat Browser"
FLATPAK_ICON_COLOUR = "#00ffff"

# Set to 1 in the agent's environment: AT-SPI actions answer.
ACCESSIBLE_ACTIONS = "PFSEL_PROMPT_ACCESSIBLE_ACTIONS"
# Set to 1 in the agent's environment: under X11, XTEST's input answers.
XTEST_INPUT = "PFSEL_PROMPT_XTEST_INPUT"
# The notice the prompt shows when a program, not the person, pressed.
REFUSED_NOTICE = ("Answer with the mouse or the keyboard: this window takes no answers "
                  "from other programs.")
# ... and when the press or click was made through XTEST.
XTEST_NOTICE = ("That key press or click was made by a program (X11's XTEST), not by a "
                "keyboard or mouse: not an answer.")

passed = 0
failed = 0
# The GNOME session (gnome_session.GnomeShell) under --backend gnome.
shell = None


def check(name, ok, detail=""):
    """Count one check and print its line."""
    global passed, failed
    if ok:
        passed += 1
        print(f"PASS: {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL: {name}", flush=True)
        for line in str(detail).splitlines()[:30]:
            print(f"    {line}", flush=True)
    return ok


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def pump():
    """Handle the accessibility bus's pending signals (windows and
    applications that came or went): libatspi keeps its picture of the
    desktop up to date from them, in the GLib main loop."""
    from gi.repository import GLib

    context = GLib.MainContext.default()
    while context.iteration(False):
        pass


def wait_for(fn, timeout, interval=0.2):
    """fn()'s first true value within timeout seconds, else None."""
    end = time.monotonic() + timeout
    while True:
        pump()
        try:
            value = fn()
        except Exception as e:  # a widget gone between two calls
            log(f"wait_for: {e!r}")
            value = None
        if value:
            return value
        if time.monotonic() >= end:
            return None
        time.sleep(interval)


# --- The agent's side: the seam driver --------------------------------------


class LineProgram:
    """A program whose standard output is read line by line as it comes
    (a thread), for expect(); each line is logged after name."""

    def __init__(self, name, argv, env, stderr, stdin=None):
        self.name = name
        self.lines = queue.Queue()
        self.seen = []
        self.proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=stderr,
                                     env=env, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            log(f"{self.name}: {line.rstrip()}")
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, pattern, timeout=10):
        """The first line (from now on) that matches pattern, or None."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            self.seen.append(line)
            m = re.fullmatch(pattern, line)
            if m:
                return m


class Driver(LineProgram):
    """build/tests/gui/seam_driver running pfsel-prompt (or program, in its
    place, with prompt_args); its lines.

    With accessible_actions, PFSEL_PROMPT_ACCESSIBLE_ACTIONS=1 is in the
    driver's environment, so in the prompt's: AT-SPI actions answer; with
    xtest_input, PFSEL_PROMPT_XTEST_INPUT=1: XTEST's input answers."""

    def __init__(self, ctx, prompt_args=(), accessible_actions=True, program=None,
                 xtest_input=False):
        self.ctx = ctx
        env = dict(ctx.env)
        env.pop(ACCESSIBLE_ACTIONS, None)
        env.pop(XTEST_INPUT, None)
        if accessible_actions:
            env[ACCESSIBLE_ACTIONS] = "1"
        if xtest_input:
            env[XTEST_INPUT] = "1"
        super().__init__("driver", [ctx.driver, program or ctx.prompt, *prompt_args], env,
                         ctx.prompt_log, stdin=subprocess.PIPE)

    def send(self, line):
        log(f"to driver: {line}")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def ask(self, qid, timeout_ms, **fields):
        words = [f"{k}={urllib.parse.quote(str(v), safe='/.:-_')}" for k, v in fields.items()]
        self.send(f"ask {qid} {timeout_ms} " + " ".join(words))
        return self.expect(rf"posted {qid}|error .*", 5)

    def prompt_pid(self):
        """The pid of pfsel-prompt, the driver's child."""
        for task in os.listdir(f"/proc/{self.proc.pid}/task"):
            try:
                with open(f"/proc/{self.proc.pid}/task/{task}/children") as f:
                    kids = f.read().split()
            except OSError:
                continue
            if kids:
                return int(kids[0])
        return None

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --- The accessibility tree ------------------------------------------------


def walk(acc, depth=0):
    """acc and every accessible under it (depth first, in order)."""
    yield acc
    if depth > 60:
        return
    try:
        children = list(acc)
    except Exception:
        return
    for child in children:
        if child is not None:
            yield from walk(child, depth + 1)


def states(acc):
    try:
        return acc.getState()
    except Exception:
        return None


def visible(acc):
    s = states(acc)
    return s is not None and s.contains(pyatspi.STATE_VISIBLE)


def walk_shown(acc, depth=0):
    """acc and every accessible under it that is shown.  GTK 4.8 gives
    the window SHOWING, its widgets only VISIBLE (gtk_widget_get_visible()):
    a widget is shown when it and every widget above it are visible, so a
    subtree under a hidden widget is skipped whole."""
    if depth and not visible(acc):
        return
    yield acc
    if depth > 60:
        return
    try:
        children = list(acc)
    except Exception:
        return
    for child in children:
        if child is not None:
            yield from walk_shown(child, depth + 1)


def showing(window):
    """Whether a top-level window is shown."""
    s = states(window)
    return s is not None and s.contains(pyatspi.STATE_SHOWING)


def whole_text(acc):
    """The whole text of acc's Text interface (GTK's labels have one)."""
    t = acc.queryText()
    # Not getText(0, -1): GTK 4.8 answers that with "".
    return t.getText(0, t.characterCount)


def text_of(acc):
    """What acc says: its name, and its text when it has some."""
    out = []
    try:
        if acc.name:
            out.append(acc.name)
    except Exception:
        return out
    try:
        s = whole_text(acc)
        if s and s not in out:
            out.append(s)
    except Exception:
        pass
    return out


def fresh(acc):
    """acc, its cached properties dropped (GTK changes them as it goes)."""
    try:
        acc.clear_cache()
    except Exception:
        pass
    return acc


def texts(window):
    """Every text of the window's widgets that are shown."""
    out = []
    for a in walk_shown(fresh(window)):
        out.extend(text_of(a))
    return out


def field(window, title):
    """The text of the value labelled title (its accessible name), or None.

    pfsel-prompt names each value label after its field's title
    ("Executable", "Time left", ...), as a screen reader reads it; the
    title's own label says just the title.
    """
    for a in walk_shown(fresh(window)):
        try:
            if a.name != title:
                continue
            text = whole_text(a)
        except Exception:
            continue
        if text != title:
            return text
    return None


def role(acc):
    try:
        return acc.getRoleName()
    except Exception:
        return ""


def app_of(pid):
    """The accessible application of process pid, or None.  The desktop's
    list of applications is asked again each time: libatspi keeps it from
    the registry's events, and under gnome-shell (which registers first,
    with a tree of its own) an application that came later may be missing
    from it for good."""
    desktop = fresh(pyatspi.Registry.getDesktop(0))
    for app in desktop:
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def windows(app):
    """The application's top-level windows that are shown."""
    return [w for w in app if w is not None and showing(w)]


def controls(acc, roles, name):
    """The shown controls of the roles whose name is name (any case)."""
    name = name.lower()
    return [
        a
        for a in walk_shown(fresh(acc))
        if role(a) in roles and (a.name or "").strip().lower() == name
    ]


# What GTK 4.8 shows buttons, toggle buttons and radio buttons as.
BUTTONS = ("push button", "toggle button", "radio button", "check box")


def do_action(acc, wanted=("click", "activate", "press", "toggle")):
    """Do acc's action that is a click; the name of it, or None."""
    try:
        action = acc.queryAction()
    except NotImplementedError:
        return None
    for i in range(action.nActions):
        if action.getName(i) in wanted:
            action.doAction(i)
            return action.getName(i)
    return None


def sensitive(acc):
    s = states(acc)
    return s is not None and s.contains(pyatspi.STATE_SENSITIVE)


def is_on(root, label):
    """Whether the toggle or radio button named label is on (pressed or
    checked: GTK 4.8 shows a grouped toggle button as a pressed button)."""
    def on():
        for c in controls(root, BUTTONS, label):
            s = states(c)
            if s is not None and (s.contains(pyatspi.STATE_PRESSED)
                                  or s.contains(pyatspi.STATE_CHECKED)):
                return True
        return False
    return bool(wait_for(on, 3))


def choose(root, label, timeout=5):
    """Works the control named label (a button or a radio button) through
    its AT-SPI action, once it is sensitive (pfsel-prompt's Allow and Deny
    wait a moment after a question comes into view).  True when done."""
    found = wait_for(lambda: [c for c in controls(root, BUTTONS, label) if sensitive(c)],
                     timeout)
    if not found:
        log(f"choose {label!r}: no sensitive control; controls: "
            + repr([(role(c), c.name) for c in walk(root) if role(c) in BUTTONS]))
        return False
    return do_action(found[0]) is not None


# --- Screenshots -------------------------------------------------------------


def screenshot(ctx, name):
    """The whole screen to build/logs/prompt-NAME[-wayland].png; its path."""
    time.sleep(0.7)  # let the last frame be drawn
    suffix = "" if ctx.backend == "x11" else f"-{ctx.backend}"
    out = os.path.join(ctx.logs, f"prompt-{name}{suffix}.png")
    if os.path.exists(out):
        os.unlink(out)  # not last run's
    if ctx.backend == "gnome":
        ctx.gnome.screenshot(out)
    elif ctx.backend == "x11":
        xwd = subprocess.run(["xwd", "-root", "-silent"], capture_output=True, env=ctx.env)
        if xwd.returncode == 0:
            subprocess.run(["convert", "xwd:-", f"png:{out}"], input=xwd.stdout, env=ctx.env)
    else:
        shots = os.path.join(ctx.work, "shots")
        shutil.rmtree(shots, ignore_errors=True)
        os.makedirs(shots)
        subprocess.run(["weston-screenshooter"], cwd=shots, env=ctx.env, capture_output=True)
        made = [f for f in os.listdir(shots) if f.endswith(".png")]
        if made:
            shutil.move(os.path.join(shots, made[0]), out)
    if not os.path.exists(out):
        log(f"screenshot {out}: not made")
        return None
    return out


def colour_pixels(path, colour):
    """How many pixels of the picture are exactly colour."""
    if not path:
        return 0
    r = subprocess.run(
        ["convert", path, "-alpha", "off", "-fill", "black", "+opaque", colour,
         "-fill", "white", "-opaque", colour, "-format", "%[fx:mean*w*h]", "info:"],
        capture_output=True, text=True,
    )
    try:
        return round(float(r.stdout.strip()))
    except ValueError:
        log(f"colour_pixels: {r.stdout!r} {r.stderr!r}")
        return 0


# --- The test's world ----------------------------------------------------------


class Context:
    pass


def make_world(args):
    """The private home, data folders, application and environment."""
    ctx = Context()
    ctx.backend = args.backend
    ctx.top = args.top
    ctx.work = os.path.abspath(args.work)
    ctx.logs = os.path.join(ctx.top, "build", "logs")
    ctx.prompt = args.prompt or os.path.join(ctx.top, "build", "bin", "pfsel-prompt")
    ctx.driver = args.driver or os.path.join(ctx.top, "build", "tests", "gui", "seam_driver")
    ctx.fake_prompt = args.fake_prompt or os.path.join(ctx.top, "build", "tests", "pfsel-tools",
                                                       "fake_prompt")
    os.makedirs(ctx.logs, exist_ok=True)
    w = ctx.work
    for d in ("home", "data/applications", "data/icons", "config", "cache", "state", "bin"):
        os.makedirs(os.path.join(w, d), exist_ok=True)
    env = dict(os.environ)
    env.update(
        HOME=f"{w}/home",
        XDG_DATA_HOME=f"{w}/data",
        XDG_CONFIG_HOME=f"{w}/config",
        XDG_CACHE_HOME=f"{w}/cache",
        XDG_STATE_HOME=f"{w}/state",
        # GTK speaks AT-SPI to the accessibility bus of this D-Bus session.
        GTK_A11Y="atspi",
        NO_AT_BRIDGE="0",
        # No dconf: nothing of the person's settings is read or written.
        GSETTINGS_BACKEND="memory",
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        GDK_BACKEND="x11" if ctx.backend == "x11" else "wayland",
    )
    if ctx.backend == "x11":
        env.pop("WAYLAND_DISPLAY", None)
        runtime = f"{w}/runtime"
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        env["XDG_RUNTIME_DIR"] = runtime
    else:
        env.pop("DISPLAY", None)
    # Applications and icons from this folder only (and the system's).
    env["XDG_DATA_DIRS"] = f"{w}/data:{w}/userdata:" + env.get(
        "XDG_DATA_DIRS", "/usr/local/share:/usr/share")
    ctx.env = env
    os.environ.update(env)
    ctx.prompt_log = open(os.path.join(ctx.logs, f"gui-prompt-{ctx.backend}.log"), "w")

    # The application that asks: a real executable, run by a launcher of
    # a name of its own, so that the question's pid has parents to show.
    ctx.exe = f"{w}/bin/pftbrowser"
    ctx.launcher_exe = f"{w}/bin/pftlauncher"
    shutil.copy("/bin/sleep", ctx.exe)
    shutil.copy("/bin/sh", ctx.launcher_exe)
    ctx.script = f"{w}/bin/fetch-news.py"
    with open(ctx.script, "w") as f:
        f.write("#!/bin/sh\n# the script the question names\n")
    os.chmod(ctx.script, 0o755)
    ctx.icon = f"{w}/data/icons/pftbrowser.png"
    subprocess.run(["convert", "-size", "64x64", f"xc:{ICON_COLOUR}", ctx.icon], check=True)
    with open(f"{w}/data/applications/pftbrowser.desktop", "w") as f:
        f.write(
            "[Desktop Entry]\nType=Application\n"
            f"Name={APP_NAME}\nExec={ctx.script} %u\nIcon={ctx.icon}\n"
            "Categories=Network;\n"
        )
    # A .desktop file in a folder the user's programs can write: what
    # ~/.local/share/applications is.  As root, the folder is given to
    # nobody (65534), so that it is not root's.
    ctx.spoof_exe = f"{w}/bin/pftspoof"
    shutil.copy("/bin/sleep", ctx.spoof_exe)
    spoof_dir = f"{w}/userdata/applications"
    os.makedirs(spoof_dir, exist_ok=True)
    with open(f"{spoof_dir}/pftspoof.desktop", "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=Pfsel Trusted Browser\n"
                f"Exec={ctx.spoof_exe}\nIcon={w}/data/icons/pftbrowser.png\n")
    if os.getuid() == 0:
        for d in (f"{w}/userdata", spoof_dir, f"{spoof_dir}/pftspoof.desktop"):
            os.chown(d, 65534, 65534)
    ctx.rule_file = f"{w}/home/.pfw"
    with open(ctx.rule_file, "w") as f:
        f.write("".join(f"# line {i}\n" for i in range(1, RULE_LINE)))
        f.write(f"ask {ctx.exe} connect tcp to any;\n")
    # (It sleeps no longer than the run may last: nothing outlives it long.)
    ctx.launcher = subprocess.Popen([ctx.launcher_exe, "-c", f"{ctx.exe} 200; :"], env=env)
    ctx.app_pid = wait_for(lambda: child_of(ctx.launcher.pid), 5)
    return ctx


def child_of(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
    except OSError:
        return None
    return int(kids[0]) if kids else None


def question(ctx, **over):
    """Case a's question, with over's fields instead."""
    q = dict(
        exe=ctx.exe,
        script=ctx.script,
        comm="pftbrowser",
        pid=ctx.app_pid,
        tgid=ctx.app_pid,
        uid=os.getuid(),
        op="connect",
        family="inet",
        proto="tcp",
        laddr="0.0.0.0",
        lport=0,
        raddr=ADDRESS,
        rport=PORT,
        policy=1,
        rule_file=ctx.rule_file,
        rule_line=RULE_LINE,
        rule_col=1,
        unanswered="deny",
    )
    q.update(over)
    return q


class Prompt:
    """A seam driver with its pfsel-prompt, and the prompt's accessibles."""

    def __init__(self, ctx, prompt_args=(), accessible_actions=True, program=None,
                 xtest_input=False):
        self.ctx = ctx
        self.driver = Driver(ctx, prompt_args, accessible_actions, program,
                             xtest_input=xtest_input)
        self.ready = self.driver.expect("ready", 10) is not None
        self.pid = self.driver.prompt_pid() if self.ready else None
        self.app = None

    def application(self, timeout=15):
        """The prompt's accessible application (it registers when up)."""
        if self.app is None and self.pid:
            self.app = wait_for(lambda: app_of(self.pid), timeout)
        return self.app

    def window(self, timeout=10):
        """Its shown window, once it has one."""
        app = self.application()
        if app is None:
            return None
        found = wait_for(lambda: windows(app), timeout)
        return found[0] if found else None

    def window_with(self, needle, timeout=10):
        """Its shown window once it shows needle."""
        def look():
            w = self.window(1)
            return w if w is not None and any(needle in t for t in texts(w)) else None
        return wait_for(look, timeout)

    def close(self):
        self.driver.close()


def all_in(haystack, needles):
    """The needles that no text of haystack contains."""
    return [n for n in needles if not any(n in t for t in haystack)]


def seconds_left(window):
    """The seconds the window's "Time left" says, or None."""
    text = field(window, "Time left") or ""
    m = re.fullmatch(r"(?:(\d+) min )?(\d+) s left", text)
    if not m:
        return None
    return int(m.group(1) or 0) * 60 + int(m.group(2))


# --- The cases ---------------------------------------------------------------------


def backend_tag(ctx):
    """What the checks of a backend but X11's begin with."""
    return "" if ctx.backend == "x11" else f"{ctx.backend}: "


def case_a(ctx):
    tag = backend_tag(ctx)
    p = Prompt(ctx)
    try:
        if not check(f"{tag}a: the seam driver starts pfsel-prompt", p.ready and p.pid,
                     "\n".join(p.driver.seen)):
            return
        posted = p.driver.ask(1, 60000, **question(ctx))
        if not check(f"{tag}a: the question is posted through the seam",
                     posted and posted.group(0) == "posted 1", posted and posted.group(0)):
            return
        w = p.window_with(ctx.exe, 20)
        if not check(f"{tag}a: the question is shown", w is not None,
                     "no window of pfsel-prompt shows " + ctx.exe):
            return
        shot = screenshot(ctx, "a-question")
        log("case a texts:", texts(w))
        # A .desktop file is believed only when the user's programs cannot
        # have written it (root's, in a folder of root's): as root, the
        # test's own is; as anyone else, it must not be.
        trusted = os.getuid() == 0
        expect = {
            "Application": APP_NAME if trusted else os.path.basename(ctx.script),
            "Executable": ctx.exe,
            "Script": ctx.script,
            "Process": f"pid {ctx.app_pid}",
            "Parents": f"pftlauncher ({ctx.launcher.pid})",
            "Operation": "connect",
            "Protocol": "tcp",
            "Address": ADDRESS,
            "Port": str(PORT),
            "Service": SERVICE,
            "Rule": f"{ctx.rule_file}:{RULE_LINE}:",
            "When time runs out": "then: deny",
            "Host name": "unknown",
        }
        for title, needle in expect.items():
            value = field(w, title)
            check(f"{tag}a: the window shows {title}: {needle}",
                  value is not None and needle in value,
                  f"{title}: {value!r}; every text: " + " | ".join(texts(w)))
        pixels = colour_pixels(shot, ICON_COLOUR)
        if trusted:
            check(f"{tag}a: the application's icon (from its .desktop file) is drawn",
                  pixels >= 256, f"{pixels} pixels of {ICON_COLOUR} in {shot}")
        else:
            check(f"{tag}a: the icon of a .desktop file the user could write is not drawn",
                  pixels < 16, f"{pixels} pixels of {ICON_COLOUR} in {shot}")
        first = seconds_left(w)
        time.sleep(2.2)
        second = seconds_left(w)
        check(f"{tag}a: the countdown moves ({first} s, then {second} s left)",
              first is not None and second is not None and 1 <= first - second <= 4
              and 50 <= first <= 60, f"Time left read {first}, then {second}: "
              f"{field(w, 'Time left')!r}")
        ok = choose(w, "This session")
        check(f"{tag}a: scope \"This session\" is chosen through AT-SPI",
              ok and is_on(w, "This session"), "no control named This session, or not on")
        screenshot(ctx, "a-session")
        ok = choose(w, "Allow")
        check(f"{tag}a: \"Allow\" is clicked through AT-SPI", ok, "no control named Allow")
        got = p.driver.expect(r"answer 1 .*", 10)
        check(f"{tag}a: the agent side receives allow session",
              got and got.group(0) == "answer 1 allow session -",
              got.group(0) if got else "nothing; driver said: " + " | ".join(p.driver.seen))
        screenshot(ctx, "a-answered")
    finally:
        p.close()


def case_b(ctx):
    p = Prompt(ctx)
    holder = None
    try:
        if not p.ready:
            check("b: the seam driver starts pfsel-prompt", False, "\n".join(p.driver.seen))
            return
        names = ["pftfirst", "pftsecond", "pftthird"]
        exes = [f"{ctx.work}/bin/{n}" for n in names]
        p.driver.ask(11, 90000, **question(ctx, exe=exes[0], comm=names[0], rport=8001))
        w = p.window_with(exes[0], 20)
        if not check("b: the first question is shown", w is not None):
            return
        # Another window takes the focus, as the person goes on working.
        holder = focus_holder(ctx)
        holder_win = wait_for(lambda: holder_window(holder), 30)
        active = wait_for(lambda: holder_win is not None and is_active(holder_win), 10)
        check("b: another window has the focus before the next questions",
              active and not is_active(w),
              f"holder active {active}, prompt active {is_active(w)}")
        p.driver.ask(12, 90000, **question(ctx, exe=exes[1], comm=names[1], rport=8002))
        p.driver.ask(13, 90000, **question(ctx, exe=exes[2], comm=names[2], rport=8003))
        listed = wait_for(lambda: queue_count(w) == (3, 3), 10)
        shot_texts = texts(w)
        screenshot(ctx, "b-queue")
        check("b: the window lists three questions", listed,
              f"(counter, rows): {queue_count(w)}; shown: " + " | ".join(shot_texts))
        check("b: the first question stays the one shown", shown_exe(w) == exes[0],
              f"shown: {shown_exe(w)}")
        # Watch the focus for a while: a present() may take effect late.
        stolen = wait_for(lambda: is_active(w) or not is_active(holder_win), 2.5)
        check("b: the prompt did not take the focus when questions 2 and 3 came",
              not stolen, f"prompt active {is_active(w)}, holder active {is_active(holder_win)}")
        windows_now = windows(p.application())
        check("b: the three questions share one window", len(windows_now) == 1,
              f"{len(windows_now)} windows")
        for qid, exe in zip((11, 12, 13), exes):
            if shown_exe(w) != exe:
                check(f"b: question {qid} comes up in turn", False, f"shown: {shown_exe(w)}")
                break
            ok = choose(w, "Deny" if qid == 12 else "Allow")
            got = p.driver.expect(rf"answer {qid} .*", 10)
            verdict = "deny" if qid == 12 else "allow"
            check(f"b: question {qid} answered {verdict}", ok and got
                  and got.group(0).startswith(f"answer {qid} {verdict} "),
                  got.group(0) if got else "no answer")
            wait_for(lambda: shown_exe(w) != exe, 5)
    finally:
        if holder is not None:
            holder.terminate()
            holder.wait()
        p.close()


HOLDER_SOURCE = r"""
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import Gtk
def up(app):
    w = Gtk.ApplicationWindow(application=app, title="pfsel test: another window")
    w.set_default_size(300, 120)
    w.set_child(Gtk.Entry())
    w.present()
app = Gtk.Application(application_id="org.pfsel.TestFocusHolder")
app.connect("activate", up)
app.run([])
"""


def focus_holder(ctx):
    """Another small GTK window that takes the focus (a person's editor)."""
    return subprocess.Popen([sys.executable, "-c", HOLDER_SOURCE], env=ctx.env,
                            stderr=ctx.prompt_log)


def holder_window(proc):
    app = app_of(proc.pid)
    if app is None:
        return None
    found = windows(app)
    return found[0] if found else None


def is_active(window):
    """Whether the window has the keyboard focus: under GNOME, as the
    compositor says (GTK 4.8 gives a Wayland window no AT-SPI ACTIVE
    state); else AT-SPI's ACTIVE."""
    if shell is not None:
        return shell.has_focus(fresh(window).name)
    s = states(fresh(window))
    return bool(s is not None and s.contains(pyatspi.STATE_ACTIVE))


def rows(window, list_name):
    """The texts of the rows of the list named list_name."""
    lists = [a for a in walk_shown(fresh(window)) if (a.name or "") == list_name]
    if not lists:
        return []
    out = []
    for row in lists[0]:
        if row is not None and visible(row):
            out.append(" ".join(t for a in walk_shown(row) for t in text_of(a)))
    return out


def queue_count(window):
    """How many questions the window says are waiting, and lists."""
    m = re.fullmatch(r"(\d+) questions? waiting", field(window, "Questions waiting") or "")
    return (int(m.group(1)) if m else None), len(rows(window, "Pending questions"))


def shown_exe(window):
    """The executable of the question being read."""
    return field(window, "Executable")


def case_c(ctx):
    p = Prompt(ctx)
    try:
        # No script: the rule names the executable alone.
        p.driver.ask(21, 60000, **question(ctx, rport=8080, script=""))
        w = p.window_with(ctx.exe, 20)
        if not check("c: the question is shown", w is not None):
            return
        check("c: scope \"Always\" is chosen", choose(w, "Always") and is_on(w, "Always"))
        check("c: width \"This address\" is chosen",
              choose(w, "This address") and is_on(w, "This address"))
        rule = f"allow {ctx.exe} connect tcp to {ADDRESS};"
        found = wait_for(lambda: field(w, "Rule added by Allow") == rule, 5)
        screenshot(ctx, "c-always-address")
        check("c: the rule Allow will add is shown: " + rule, found,
              f"Rule added by Allow: {field(w, 'Rule added by Allow')!r}")
        choose(w, "Allow")
        got = p.driver.expect(r"answer 21 .*", 10)
        check("c: the agent side receives allow always address",
              got and got.group(0) == "answer 21 allow always address",
              got.group(0) if got else "no answer")
    finally:
        p.close()


def make_flatpak_exports(ctx):
    """The folder the tests' build of pfsel-prompt reads Flatpak's
    exported .desktop files from, as a system-wide installation has it:
    root's (when the test is root), with FLATPAK_ID's file; and
    FLATPAK_SPOOF_ID's, given to nobody, as a file the user's programs
    could write would be."""
    apps = os.path.join(ctx.top, "build", "tests", "gui", "flatpak", "exports", "share",
                        "applications")
    shutil.rmtree(os.path.join(ctx.top, "build", "tests", "gui", "flatpak"),
                  ignore_errors=True)
    os.makedirs(apps, mode=0o755)
    icon = os.path.join(ctx.work, "data", "icons", "flatbrowser.png")
    subprocess.run(["convert", "-size", "64x64", f"xc:{FLATPAK_ICON_COLOUR}", icon], check=True)
    for app_id, name in ((FLATPAK_ID, FLATPAK_NAME), (FLATPAK_SPOOF_ID, "Pfsel Trusted Browser")):
        with open(os.path.join(apps, f"{app_id}.desktop"), "w") as f:
            # Flatpak's own say "flatpak run ID"; GLib takes a .desktop
            # file whose program exists, and flatpak need not be here.
            f.write("[Desktop Entry]\nType=Application\n"
                    f"Name={name}\nExec={ctx.exe} {app_id}\nIcon={icon}\n")
    if os.getuid() == 0:
        os.chown(os.path.join(apps, f"{FLATPAK_SPOOF_ID}.desktop"), 65534, 65534)


def flatpak_exe(app_id):
    return f"/var/lib/flatpak/app/{app_id}/x86_64/stable/0a1b2c/files/bin/flatbrowser"


def case_n(ctx):
    make_flatpak_exports(ctx)
    program = os.path.join(ctx.top, "build", "tests", "gui", "pfsel-prompt")
    p = Prompt(ctx, program=program)
    try:
        if not check("n: the seam driver starts the tests' pfsel-prompt", p.ready and p.pid,
                     "\n".join(p.driver.seen)):
            return
        p.driver.ask(41, 60000, **question(ctx, exe=flatpak_exe(FLATPAK_ID), script=""))
        shown = f"flatpak {FLATPAK_ID}"
        w = p.window_with(shown, 20)
        if not check("n: the question is shown", w is not None,
                     f"no window of pfsel-prompt shows {shown}"):
            return
        shot = screenshot(ctx, "n-flatpak")
        log("case n texts:", texts(w))
        trusted = os.getuid() == 0
        name = (f"{FLATPAK_NAME} (Flatpak {FLATPAK_ID})" if trusted
                else f"{FLATPAK_ID} (Flatpak)")
        value = field(w, "Application")
        check(f"n: the window shows Application: {name}", value is not None and name in value,
              f"Application: {value!r}")
        value = field(w, "Executable")
        check(f"n: the window shows Executable: {shown} ({flatpak_exe(FLATPAK_ID)})",
              value == f"{shown} ({flatpak_exe(FLATPAK_ID)})", f"Executable: {value!r}")
        pixels = colour_pixels(shot, FLATPAK_ICON_COLOUR)
        if trusted:
            check("n: the icon of its exported .desktop file is drawn", pixels >= 256,
                  f"{pixels} pixels of {FLATPAK_ICON_COLOUR} in {shot}")
        check("n: scope \"Always\" is chosen", choose(w, "Always") and is_on(w, "Always"))
        check("n: width \"This address\" is chosen",
              choose(w, "This address") and is_on(w, "This address"))
        rule = f"allow flatpak {FLATPAK_ID} connect tcp to {ADDRESS};"
        found = wait_for(lambda: field(w, "Rule added by Allow") == rule, 5)
        screenshot(ctx, "n-always")
        check("n: the rule Allow will add is shown: " + rule, found,
              f"Rule added by Allow: {field(w, 'Rule added by Allow')!r}")
        choose(w, "Allow")
        got = p.driver.expect(r"answer 41 .*", 10)
        check("n: the agent side receives allow always address",
              got and got.group(0) == "answer 41 allow always address",
              got.group(0) if got else "no answer")

        # An exported file the user's programs could have written.
        p.driver.ask(42, 60000, **question(ctx, exe=flatpak_exe(FLATPAK_SPOOF_ID), script=""))
        spoof = f"{FLATPAK_SPOOF_ID} (Flatpak)"
        w = p.window_with(f"flatpak {FLATPAK_SPOOF_ID}", 20)
        value = field(w, "Application") if w is not None else None
        shot = screenshot(ctx, "n-spoofed")
        check(f"n: a .desktop file the user could write is not believed: {spoof}",
              value is not None and spoof in value and "Trusted" not in value,
              f"Application: {value!r}")
        pixels = colour_pixels(shot, FLATPAK_ICON_COLOUR)
        check("n: nor is its icon drawn", pixels < 16,
              f"{pixels} pixels of {FLATPAK_ICON_COLOUR} in {shot}")
        if w is not None:
            choose(w, "Deny")
            p.driver.expect(r"answer 42 .*", 10)
    finally:
        p.close()


FLATPAK_IMPOSTOR_ID = "org.pfsel.Impostor"
FLATPAK_MARKUP_ID = "org.pfsel.Markup"
MARKUP_NAME = "<b>Pfsel</b> &amp; \x1b[2KBrowser\u202eresu"


def case_o(ctx):
    make_flatpak_exports(ctx)
    apps = os.path.join(ctx.top, "build", "tests", "gui", "flatpak", "exports", "share",
                        "applications")
    icon = os.path.join(ctx.work, "data", "icons", "flatbrowser.png")
    for app_id, name in ((FLATPAK_IMPOSTOR_ID, FLATPAK_NAME), (FLATPAK_MARKUP_ID, MARKUP_NAME)):
        with open(os.path.join(apps, f"{app_id}.desktop"), "w", encoding="utf-8") as f:
            f.write("[Desktop Entry]\nType=Application\n"
                    f"Name={name}\nExec={ctx.exe} {app_id}\nIcon={icon}\n")
    program = os.path.join(ctx.top, "build", "tests", "gui", "pfsel-prompt")
    p = Prompt(ctx, program=program)
    try:
        if not check("o: the seam driver starts the tests' pfsel-prompt", p.ready and p.pid,
                     "\n".join(p.driver.seen)):
            return
        trusted = os.getuid() == 0
        # Control: the application imitated, as case n shows it.
        p.driver.ask(51, 60000, **question(ctx, exe=flatpak_exe(FLATPAK_ID), script=""))
        w = p.window_with(f"flatpak {FLATPAK_ID}", 20)
        real = field(w, "Application") if w is not None else None
        check("o: control: the imitated application is shown by its exported name",
              real is not None and (FLATPAK_NAME in real if trusted else FLATPAK_ID in real),
              f"Application: {real!r}")
        if w is not None:
            choose(w, "Deny")
            p.driver.expect(r"answer 51 .*", 10)

        p.driver.ask(52, 60000, **question(ctx, exe=flatpak_exe(FLATPAK_IMPOSTOR_ID), script=""))
        shown = f"flatpak {FLATPAK_IMPOSTOR_ID}"
        w = p.window_with(shown, 20)
        if not check("o: the impostor's question is shown", w is not None,
                     f"no window of pfsel-prompt shows {shown}"):
            return
        screenshot(ctx, "o-impostor")
        log("case o texts:", texts(w))
        value = field(w, "Executable")
        check(f"o: the impostor's Executable names its own ID: {shown}",
              value is not None and value.startswith(shown + " ("), f"Executable: {value!r}")
        check("o: choose Always", choose(w, "Always") and is_on(w, "Always"))
        check("o: choose This address", choose(w, "This address") and is_on(w, "This address"))
        rule = f"allow flatpak {FLATPAK_IMPOSTOR_ID} connect tcp to {ADDRESS};"
        found = wait_for(lambda: field(w, "Rule added by Allow") == rule, 5)
        check("o: the rule Allow would add is the impostor's, not the imitated one's: " + rule,
              found, f"Rule added by Allow: {field(w, 'Rule added by Allow')!r}")
        value = field(w, "Application")
        heads = [t for t in texts(w) if " wants to " in t]
        check("o: the Application field tells the impostor from the application it "
              f"imitates (names {FLATPAK_IMPOSTOR_ID})",
              value is not None and FLATPAK_IMPOSTOR_ID in value and value != real,
              f"Application: {value!r}, the imitated one's: {real!r}")
        check(f"o: the headline names {FLATPAK_IMPOSTOR_ID}",
              bool(heads) and all(FLATPAK_IMPOSTOR_ID in h for h in heads),
              f"headline: {heads!r}")
        choose(w, "Once")
        choose(w, "Deny")
        p.driver.expect(r"answer 52 .*", 10)

        # Markup, an escape and an override in the exported name.
        p.driver.ask(53, 60000, **question(ctx, exe=flatpak_exe(FLATPAK_MARKUP_ID), script=""))
        w = p.window_with(f"flatpak {FLATPAK_MARKUP_ID}", 20)
        if not check("o: the question with markup in its name is shown", w is not None):
            return
        screenshot(ctx, "o-markup")
        all_texts = texts(w)
        value = field(w, "Application")
        check("o: no text of the window holds the escape byte or the override",
              not any("\x1b" in t or "\u202e" in t for t in all_texts), repr(all_texts))
        if trusted:
            check("o: the name's markup is shown as text, not read as markup",
                  value is not None and "<b>Pfsel</b> &amp;" in value, f"Application: {value!r}")
        choose(w, "Deny")
        p.driver.expect(r"answer 53 .*", 10)
    finally:
        p.close()


def audit_record(ctx, permissive=False, when=1718000003, serial=106):
    """One AUDIT_PFSEL_ACCESS record as auditd writes it (raw, as
    "ausearch --raw" prints it; the fields security/pfsel/audit.c logs),
    of this user (the monitor shows the decisions of its own uid): a
    denial, at when (seconds since the epoch), which a permissive policy
    let through if permissive."""
    uid = os.getuid()
    ids = " ".join(f"{k}={uid}" for k in ("uid", "gid", "euid", "suid", "fsuid", "egid",
                                           "sgid", "fsgid"))
    return (
        f"type=UNKNOWN[1430] msg=audit({when}.000:{serial}): pfsel op=connect "
        f"verdict=deny permissive={int(permissive)} policy=user "
        f'rule="{ctx.rule_file}":{RULE_LINE}:1 family=inet protocol=tcp '
        "laddr=0.0.0.0 lport=0 raddr=198.51.100.7 rport=8443 "
        f'app="{ctx.exe}" script=? ppid=900 pid=901 auid={uid} {ids} tty=pts1 '
        f'ses=3 comm="pftbrowser" exe="{ctx.exe}" '
        "subj=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023\n"
    )


def case_d(ctx):
    path = os.path.join(ctx.work, "audit.log")
    with open(path, "w") as f:
        f.write(audit_record(ctx))
    proc = subprocess.Popen([ctx.prompt, "--monitor", f"--audit-input={path}"], env=ctx.env,
                            stdout=ctx.prompt_log, stderr=ctx.prompt_log)
    try:
        app = wait_for(lambda: app_of(proc.pid), 15)
        w = None
        if app is not None:
            w = wait_for(lambda: [x for x in windows(app)
                                  if any("198.51.100.7" in t for t in texts(x))], 15)
        if not check("d: the decisions window lists the denial", w,
                     "no window of pfsel-prompt --monitor shows 198.51.100.7"
                     + ("" if app is None else "; shown: " + " | ".join(
                         t for x in windows(app) for t in texts(x)))):
            return
        w = w[0]
        for title, needle in {
            "Application": ctx.exe,
            "Destination": "connect to 198.51.100.7:8443 (tcp)",
            "Verdict": "deny",
            "Rule": f"{ctx.rule_file}:{RULE_LINE} (user policy)",
        }.items():
            value = field(w, title)
            check(f"d: the denial's {title}: {needle}", value is not None and needle in value,
                  f"{title}: {value!r}; every text: " + " | ".join(texts(w)))
        # "Why?": the text of the rule that decided, from its file.
        ok = choose(w, "Why?")
        why = wait_for(lambda: field(w, "Rule text"), 5)
        screenshot(ctx, "d-decisions")
        check("d: \"Why?\" shows the rule's text", ok and why and
              f"ask {ctx.exe} connect tcp to any;" in why, f"Rule text: {why!r}")
    finally:
        proc.terminate()
        proc.wait()


def case_j(ctx):
    p = Prompt(ctx)
    try:
        hosts = "www.example.org,example.org"
        p.driver.ask(81, 60000, **question(ctx, script="", hosts=hosts))
        w = p.window_with(ctx.exe, 20)
        if not check("j: the question with host names is shown", w is not None):
            return
        names = wait_for(lambda: field(w, "Host name") == "www.example.org, example.org", 5)
        check("j: the window shows Host name: www.example.org, example.org", names,
              f"Host name: {field(w, 'Host name')!r}")
        headline = f"connect to www.example.org ({ADDRESS}) port {PORT}"
        check(f"j: the headline names the host first: {headline}",
              not all_in(texts(w), [headline]), " | ".join(texts(w)))
        check("j: scope \"Always\" is chosen", choose(w, "Always") and is_on(w, "Always"))
        check("j: width \"Any host in its domain\" is offered and chosen",
              choose(w, "Any host in its domain") and is_on(w, "Any host in its domain"))
        rule = f"allow {ctx.exe} connect tcp to host *.example.org port {PORT};"
        found = wait_for(lambda: field(w, "Rule added by Allow") == rule, 5)
        check("j: the rule Allow will add is shown: " + rule, found,
              f"Rule added by Allow: {field(w, 'Rule added by Allow')!r}")
        check("j: width \"This host name\" is offered and chosen",
              choose(w, "This host name") and is_on(w, "This host name"))
        rule = f"allow {ctx.exe} connect tcp to host www.example.org port {PORT};"
        found = wait_for(lambda: field(w, "Rule added by Allow") == rule, 5)
        screenshot(ctx, "j-always-host")
        check("j: the rule Allow will add is shown: " + rule, found,
              f"Rule added by Allow: {field(w, 'Rule added by Allow')!r}")
        choose(w, "Allow")
        got = p.driver.expect(r"answer 81 .*", 10)
        check("j: the agent side receives allow always host",
              got and got.group(0) == "answer 81 allow always host",
              got.group(0) if got else "no answer")
        # A question whose address has no known name: no host widths.
        p.driver.ask(82, 60000, **question(ctx, script="", rport=8082))
        shown = wait_for(lambda: "8082" in (field(w, "Port") or ""), 10)
        check("j: the next question, without host names, is shown", shown)
        check("j: ... its Host name is unknown", field(w, "Host name") == "unknown",
              f"Host name: {field(w, 'Host name')!r}")
        choose(w, "Always")
        offered = [label for label in ("This host name", "Any host in its domain")
                   if controls(w, BUTTONS, label)]
        screenshot(ctx, "j-no-host")
        check("j: ... and no host width is offered", not offered, f"offered: {offered}")
        choose(w, "Deny")
        got = p.driver.expect(r"answer 82 .*", 10)
        check("j: ... and it is answered deny always exact",
              got and got.group(0) == "answer 82 deny always exact",
              got.group(0) if got else "no answer")
    finally:
        p.close()


def passed_on(ctx, qid, q):
    """The question q as the agent's side passes it to its prompt: what the
    tests' stand-in prompt (fake_prompt, run through the same seam in
    pfsel-prompt's place) records of it, "ask ID MS_LEFT EXE" with the
    executable's bytes as they came, or None."""
    record = os.path.join(ctx.work, f"passed-on-{qid}")
    driver = Driver(ctx, (record, "answer", "deny", "once", "exact"), program=ctx.fake_prompt)
    try:
        if driver.expect("ready", 10) is None or driver.ask(qid, 60000, **q) is None:
            return None
        driver.expect(rf"answer {qid} .*", 10)
    finally:
        driver.close()
    with open(record, encoding="utf-8", errors="surrogateescape") as f:
        asked = [line.rstrip("\n") for line in f if line.startswith(f"ask {qid} ")]
    return asked[0] if asked else None


def case_e(ctx):
    evil = f"{ctx.work}/bin/pft\x1b[2Kevil"
    evil_question = question(ctx, exe=evil, comm="pft\x1b[2Kevil", script="")
    # The control: the name the prompt is given holds the escape byte, so
    # that what the window shows without it is the prompt's escaping.
    given = passed_on(ctx, 30, evil_question)
    check("e: control: the agent's side passes the name on with its raw escape byte "
          "(the stand-in prompt's record of the same question)",
          given is not None and given.endswith(" " + evil), repr(given))
    p = Prompt(ctx)
    try:
        p.driver.ask(31, 60000, **evil_question)
        w = p.window_with("evil", 20)
        if not check("e: the question is shown", w is not None):
            return
        shown = texts(w)
        screenshot(ctx, "e-escaped")
        raw = [t for t in shown if "\x1b" in t]
        check("e: no text of the window holds the raw escape byte", not raw, "raw: " + repr(raw))
        want = f"{ctx.work}/bin/pft\\e[2Kevil"
        check("e: the executable is shown escaped: " + want,
              field(w, "Executable") == want, f"Executable: {field(w, 'Executable')!r}")
        # A .desktop file that the user's programs could have written
        # names nothing: the application keeps its file name.
        ok = choose(w, "Deny")
        p.driver.expect(r"answer 31 .*", 10)
        p.driver.ask(32, 60000, **question(ctx, exe=ctx.spoof_exe, comm="pftspoof", script=""))
        shown = wait_for(lambda: field(w, "Executable") == ctx.spoof_exe, 10)
        app = field(w, "Application")
        check("e: a .desktop file the user could write does not name the application",
              ok and shown and app == "pftspoof", f"Application: {app!r}")
    finally:
        p.close()


def case_f(ctx):
    p = Prompt(ctx)
    try:
        # The agent withdraws a question when its time runs out.
        p.driver.ask(41, 5000, **question(ctx, rport=8041))
        w = p.window_with(ctx.exe, 20)
        if not check("f: the question is shown", w is not None):
            return
        got = p.driver.expect(r"unanswered 41|answer 41 .*", 10)
        check("f: the agent side has it unanswered when its time runs out",
              got and got.group(0) == "unanswered 41", got.group(0) if got else "nothing")
        gone = wait_for(lambda: field(w, "Executable") is None
                        and not rows(w, "Pending questions"), 5)
        screenshot(ctx, "f-withdrawn")
        check("f: the withdrawn question leaves the window", gone,
              "shown: " + " | ".join(texts(w)))
        late = p.driver.expect(r"answer 41 .*|late 41", 2)
        check("f: no answer comes for it afterwards", late is None, late and late.group(0))
        # Withdrawn before its time ran out (another source answered):
        # the window's own countdown cannot be what removes it.
        p.driver.ask(42, 60000, **question(ctx, rport=8042))
        shown = wait_for(lambda: field(w, "Executable") == ctx.exe, 10)
        p.driver.send("withdraw 42 answered")
        gone = shown and wait_for(lambda: field(w, "Executable") is None
                                  and not rows(w, "Pending questions"), 5)
        check("f: a question withdrawn before its time leaves the window", gone,
              "shown: " + " | ".join(texts(w)))
    finally:
        p.close()


# --- Real input: key presses through AT-SPI's registry (X11: XTEST) ------------

# X keysyms (X11/keysymdef.h) and the Alt modifier's mask (Mod1Mask).
XK_TAB = 0xFF09
XK_RETURN = 0xFF0D
XK_SPACE = 0x0020
XK_A = 0x0061
XK_D = 0x0064
MOD1_MASK = 1 << 3


def input_kind():
    """How the tests make key presses and clicks, for the checks' names."""
    return "mutter's virtual keyboard" if shell is not None else "XTEST"


def press_key(keysym):
    """A real key press and release.  Under X11 at-spi2-registryd makes it
    with XTEST, so the X server sends it to the focused window as a
    keyboard's own (what any X client could do too: X11 is not defended);
    under GNOME mutter's virtual keyboard (gnome_session.py)."""
    if shell is not None:
        shell.press(keysym)
        return
    pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
    time.sleep(0.15)


def press_with_alt(keysym):
    """keysym pressed with Alt held (locked for the press, then unlocked)."""
    if shell is not None:
        shell.press(keysym, with_alt=True)
        return
    pyatspi.Registry.generateKeyboardEvent(MOD1_MASK, None, pyatspi.KEY_LOCKMODIFIERS)
    time.sleep(0.1)
    try:
        press_key(keysym)
    finally:
        pyatspi.Registry.generateKeyboardEvent(MOD1_MASK, None, pyatspi.KEY_UNLOCKMODIFIERS)
        time.sleep(0.1)


def click_on(acc):
    """A real click of the pointer's first button on the middle of acc
    (XTEST, through the registry).  GTK 4.8 gives no screen coordinates;
    the window is at the screen's corner (Xvfb, no window manager), so
    the window's coordinates are the screen's."""
    x, y, width, height = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    pyatspi.Registry.generateMouseEvent(x + width // 2, y + height // 2, "b1c")
    time.sleep(0.15)
    return x + width // 2, y + height // 2


def focused(acc):
    s = states(fresh(acc))
    return bool(s is not None and s.contains(pyatspi.STATE_FOCUSED))


def tab_to(acc, limit=30):
    """Press Tab, as a keyboard user does, until acc has the focus; how
    many presses it took, or None.  (GTK 4.8 does not take AT-SPI's
    GrabFocus: the focus moves only as the person moves it.)"""
    for n in range(limit + 1):
        if wait_for(lambda: focused(acc), 0.5, 0.1):
            return n
        press_key(XK_TAB)
    return None


def answer_control(window, label, timeout=5):
    """The Allow or Deny button once it can be pressed (armed), or None."""
    found = wait_for(lambda: [c for c in controls(window, BUTTONS, label) if sensitive(c)],
                     timeout)
    return found[0] if found else None


def refused(ctx, p, window, qid, label, tag=""):
    """Press label through AT-SPI (DoAction) without the person: no
    answer within 3 s, the question still there, the notice shown."""
    button = answer_control(window, label)
    if not check(f"{tag}g: {label} can be pressed (armed)", button is not None):
        return False
    action = do_action(button)
    got = p.driver.expect(rf"answer {qid} .*", 3)
    check(f"{tag}g: {label} pressed through the accessibility bus (DoAction "
          f"{action!r}) gives the agent no answer within 3 s", action and got is None,
          got.group(0) if got else f"no click action on {label}")
    check(f"{tag}g: ... and question {qid} is still the one shown, and listed",
          shown_exe(window) == ctx.exe and queue_count(window) == (1, 1),
          f"shown: {shown_exe(window)!r}, (counter, rows): {queue_count(window)}")
    notice = wait_for(lambda: field(window, "Notice") == REFUSED_NOTICE, 3)
    check(f"{tag}g: ... and the window says: {REFUSED_NOTICE}", notice,
          f"Notice: {field(window, 'Notice')!r}")
    return got is None


def case_g(ctx):
    tag = backend_tag(ctx)
    # As the agent runs it by default: nothing in its environment.
    p = Prompt(ctx, accessible_actions=False)
    try:
        if not check(f"{tag}g: the seam driver starts pfsel-prompt without {ACCESSIBLE_ACTIONS} "
                     f"and {XTEST_INPUT}", p.ready and p.pid, "\n".join(p.driver.seen)):
            return
        p.driver.ask(51, 60000, **question(ctx, rport=8051))
        w = p.window_with(ctx.exe, 20)
        if not check(f"{tag}g: the question is shown", w is not None):
            return
        refused(ctx, p, w, 51, "Allow", tag)
        screenshot(ctx, "g-refused")
        refused(ctx, p, w, 51, "Deny", tag)
        if ctx.backend == "wayland":
            # No Wayland client can make another's input: nothing more.
            return
        if shell is not None:
            # mutter's virtual keyboard is the compositor's own input.
            keys_answer(ctx, p, w, 51, tag, answers=True)
            return
        keys_answer(ctx, p, w, 51, tag, answers=False)
        screenshot(ctx, "g-xtest-refused")
    finally:
        p.close()
    # The control: the administrator lets XTEST answer.
    p = Prompt(ctx, accessible_actions=False, xtest_input=True)
    try:
        if not check(f"g: the seam driver starts pfsel-prompt with {XTEST_INPUT}=1 "
                     f"(the administrator's), without {ACCESSIBLE_ACTIONS}",
                     p.ready and p.pid, "\n".join(p.driver.seen)):
            return
        p.driver.ask(54, 60000, **question(ctx, rport=8054))
        w = p.window_with(ctx.exe, 20)
        if not check("g: with XTEST allowed, the question is shown", w is not None):
            return
        refused(ctx, p, w, 54, "Allow", "xtest-allowed: ")
        keys_answer(ctx, p, w, 54, "xtest-allowed: ", answers=True)
    finally:
        p.close()


def keys_answer(ctx, p, w, qid, tag, answers):
    """Key presses and a click on question qid (shown in w), then on two
    more: Tab to Allow and Space, Alt and Deny's mnemonic, a click on
    Allow (not under GNOME: GTK 4.8 tells no window's place on a Wayland
    screen).  Each answers, or (answers False) answers nothing: the
    question stays and the window says XTEST made the press."""
    how = input_kind()
    if not answers:
        how += f", without {XTEST_INPUT}"
    elif shell is None:
        how += f", with {XTEST_INPUT}=1"

    def outcome(what, qid, want):
        got = p.driver.expect(rf"answer {qid} .*", 5 if answers else 3)
        if answers:
            return check(f"{tag}g: {what} ({how}) answers: {want}",
                         got and got.group(0) == f"answer {qid} {want} -",
                         got.group(0) if got else "no answer; driver said: "
                         + " | ".join(p.driver.seen))
        port = f"80{qid}"
        ok = check(f"{tag}g: {what} ({how}) gives the agent no answer within 3 s",
                   got is None, got.group(0) if got else "")
        ok &= check(f"{tag}g: ... and question {qid} is still the one shown",
                    port in (field(w, "Port") or ""), f"Port: {field(w, 'Port')!r}")
        notice = wait_for(lambda: field(w, "Notice") == XTEST_NOTICE, 3)
        ok &= check(f"{tag}g: ... and the window says: {XTEST_NOTICE}", notice,
                    f"Notice: {field(w, 'Notice')!r}")
        return ok

    # Tab until Allow has the focus, Space.
    allow = answer_control(w, "Allow")
    tabs = tab_to(allow) if allow is not None else None
    check(f"{tag}g: Tab moves the focus to Allow ({how})",
          tabs is not None, f"Allow not focused after 30 presses of Tab: {allow}")
    press_key(XK_SPACE)
    outcome(f"Space on the focused Allow (after {tabs} Tab)", qid, "allow once")
    if answers:
        screenshot(ctx, "g-answered")
        qid += 1
        p.driver.ask(qid, 60000, **question(ctx, rport=8000 + qid))
    # Alt and Deny's mnemonic, wherever the focus is.
    shown = wait_for(lambda: str(8000 + qid) in (field(w, "Port") or ""), 10)
    deny = answer_control(w, "Deny") if shown else None
    check(f"{tag}g: question {qid} is shown, its Deny armed", deny is not None)
    if answers:
        notice = field(w, "Notice")
        check(f"{tag}g: the notice is gone with the question it was about", notice is None,
              f"Notice: {notice!r}")
    press_with_alt(XK_D)
    outcome("Alt+D (Deny's mnemonic)", qid, "deny once")
    if shell is not None:
        return
    if answers:
        qid += 1
        p.driver.ask(qid, 60000, **question(ctx, rport=8000 + qid))
    # The pointer: a click on Allow.
    shown = wait_for(lambda: str(8000 + qid) in (field(w, "Port") or ""), 10)
    allow = answer_control(w, "Allow") if shown else None
    where = click_on(allow) if allow is not None else None
    outcome(f"a click on Allow (at {where})", qid, "allow once")


def case_h(ctx):
    p = Prompt(ctx)
    try:
        p.driver.ask(61, 60000, **question(ctx, rport=8061))
        w = p.window_with(ctx.exe, 20)
        if not check("h: the question is shown", w is not None):
            return
        # The next one waits behind it, and comes into view when it is answered.
        p.driver.ask(62, 60000, **question(ctx, rport=8062))
        allow = answer_control(w, "Allow")
        if not check("h: Allow can be pressed (armed) a second after the question came",
                     allow is not None):
            return
        do_action(allow)
        got = p.driver.expect(r"answer 61 .*", 10)
        check("h: pressed through AT-SPI (accessible actions allowed), it answers 61",
              got and got.group(0) == "answer 61 allow once -", got and got.group(0))
        # At once: question 62 has just come into view.
        t0 = time.monotonic()
        try:
            allow.queryAction().doAction(0)
        except Exception as e:  # an insensitive button may refuse the call
            log(f"h: DoAction at once: {e!r}")
        at_once = time.monotonic() - t0
        early = p.driver.expect(r"answer 62 .*", 1.2)
        check(f"h: pressed at once ({at_once:.2f} s after 61's answer), 62 is not answered",
              got is not None and at_once < 0.8 and early is None,
              early.group(0) if early else f"the press took {at_once:.2f} s")
        check("h: ... and 62 is the question shown", "8062" in (field(w, "Port") or ""),
              f"Port: {field(w, 'Port')!r}")
        time.sleep(max(0.0, 1.5 - (time.monotonic() - t0)))
        allow = answer_control(w, "Allow", 3)
        acted = allow is not None and do_action(allow)
        got = p.driver.expect(r"answer 62 .*", 5)
        check("h: pressed 1.5 s after it came, 62 is answered",
              acted and got and got.group(0) == "answer 62 allow once -",
              got.group(0) if got else "no answer")
    finally:
        p.close()


def session_bus():
    from gi.repository import Gio

    return Gio.bus_get_sync(Gio.BusType.SESSION, None)


def bus_call(bus, name, path, iface, method, args=None, reply=None):
    """A method call on the session bus: its reply unpacked, or the error."""
    from gi.repository import Gio, GLib

    try:
        out = bus.call_sync(name, path, iface, method, args,
                            GLib.VariantType(reply) if reply else None,
                            Gio.DBusCallFlags.NONE, 5000, None)
        return out.unpack() if out is not None else ()
    except GLib.Error as e:
        return e


def bus_names(bus):
    return set(bus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                        "org.freedesktop.DBus", "ListNames", None, "(as)")[0])


def bus_pid(bus, name):
    from gi.repository import GLib

    got = bus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                   "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), "(u)")
    return None if isinstance(got, Exception) else got[0]


# The actions case i activates on the prompt's application object, as any
# program of the user can: what an answer or the monitor could be called.
BUS_ACTIONS = ("allow", "deny", "answer", "app.allow", "show-monitor")
# The control's application (bus_target.py): its id, and so its object.
BUS_TARGET_ID = "org.pfsel.TestBusTarget"


def bus_commands():
    """What case i sends an application's object on the session bus, in
    order: (the call's name, interface, method, arguments, reply type,
    what bus_target.py says when the call reaches it)."""
    from gi.repository import GLib

    out = [
        ("org.freedesktop.Application.Activate", "org.freedesktop.Application", "Activate",
         GLib.Variant("(a{sv})", ({},)), None, "activate"),
        ("org.gtk.Application.Activate", "org.gtk.Application", "Activate",
         GLib.Variant("(a{sv})", ({},)), None, "activate"),
        ("org.freedesktop.Application.Open", "org.freedesktop.Application", "Open",
         GLib.Variant("(asa{sv})", (["file:///allow"], {})), None, "open file:///allow"),
        ("org.gtk.Application.CommandLine", "org.gtk.Application", "CommandLine",
         GLib.Variant("(oaaya{sv})", ("/org/pfsel/TestCommandLine",
                                      [b"pfsel-prompt\0", b"--agent-fd=0\0"], {})),
         "(i)", "command-line pfsel-prompt --agent-fd=0"),
    ]
    for action in BUS_ACTIONS:
        out.append((f"org.freedesktop.Application.ActivateAction {action}",
                    "org.freedesktop.Application", "ActivateAction",
                    GLib.Variant("(sava{sv})", (action, [], {})), None, f"action {action}"))
        out.append((f"org.gtk.Actions.Activate {action}", "org.gtk.Actions", "Activate",
                    GLib.Variant("(sava{sv})", (action, [], {})), None, f"action {action}"))
    return out


def bus_connection_of(bus, before, pid):
    """The unique names on the bus that are not in before and belong to
    process pid."""
    return sorted(n for n in bus_names(bus) - before
                  if n.startswith(":") and bus_pid(bus, n) == pid)


def case_i(ctx):
    bus = session_bus()
    before = bus_names(bus)
    p = Prompt(ctx)
    holder = None
    try:
        p.driver.ask(71, 60000, **question(ctx, rport=8071))
        w = p.window_with(ctx.exe, 20)
        if not check("i: the question is shown", w is not None):
            return
        new = bus_names(bus) - before
        known = sorted(n for n in new if not n.startswith(":"))
        check("i: the prompt took no well-known name on the session bus", not known,
              f"new names: {known}")
        mine = bus_connection_of(bus, before, p.pid)
        check("i: it is on the session bus by a unique name only", len(mine) == 1,
              f"the prompt's connections: {mine}; new names: {sorted(new)}")
        if not mine:
            return
        name, path = mine[0], "/org/pfsel/Prompt"
        xml = bus_call(bus, name, path, "org.freedesktop.DBus.Introspectable", "Introspect",
                       None, "(s)")
        log(f"i: {name} {path}: {xml}")
        actions = bus_call(bus, name, path, "org.gtk.Actions", "List", None, "(as)")
        check("i: its application object lists no actions (org.gtk.Actions.List)",
              isinstance(actions, Exception) or not actions[0], repr(actions))
        # Another window has the focus, as the person goes on working.
        holder = focus_holder(ctx)
        holder_win = wait_for(lambda: holder_window(holder), 15)
        active = wait_for(lambda: holder_win is not None and is_active(holder_win), 10)
        check("i: another window has the focus", active and not is_active(w),
              f"holder active {active}, prompt active {is_active(w)}")
        time.sleep(1.2)  # the buttons armed: an answer could now be taken
        for call, iface, method, args, reply, _heard in bus_commands():
            log(f"i: {call}: {bus_call(bus, name, path, iface, method, args, reply)!r}")
        got = p.driver.expect(r"answer 71 .*", 3)
        check("i: Activate, ActivateAction (allow, deny, ...), Open and CommandLine give "
              "the agent no answer",
              got is None, got and got.group(0))
        check("i: ... the question is still shown and listed",
              shown_exe(w) == ctx.exe and queue_count(w) == (1, 1),
              f"shown: {shown_exe(w)!r}, (counter, rows): {queue_count(w)}")
        stolen = wait_for(lambda: is_active(w) or not is_active(holder_win), 2)
        check("i: ... and the prompt did not take the focus", not stolen,
              f"prompt active {is_active(w)}, holder active {is_active(holder_win)}")
        screenshot(ctx, "i-bus")
        bus_control(ctx, bus, holder_win)
    finally:
        if holder is not None:
            holder.terminate()
            holder.wait()
        p.close()


def bus_control(ctx, bus, holder_win):
    """Case i's control: the same calls, sent the same way to an application
    that owns a name and has those actions (bus_target.py), reach it, and
    its Activate takes the focus from the other window."""
    from gi.repository import GLib

    before = bus_names(bus)
    target = LineProgram("bus target",
                         [sys.executable, os.path.join(ctx.top, "tests", "gui", "bus_target.py"),
                          BUS_TARGET_ID, *BUS_ACTIONS],
                         ctx.env, ctx.prompt_log)
    try:
        if not check(f"i: control: an application that owns {BUS_TARGET_ID} starts",
                     target.expect("ready", 15) is not None, " | ".join(target.seen)):
            return
        mine = bus_connection_of(bus, before, target.proc.pid)
        owner = bus_call(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                         "org.freedesktop.DBus", "GetNameOwner",
                         GLib.Variant("(s)", (BUS_TARGET_ID,)), "(s)")
        if not check(f"i: control: ... on the bus by its unique name, which owns {BUS_TARGET_ID}",
                     len(mine) == 1 and not isinstance(owner, Exception) and owner[0] == mine[0],
                     f"its connections: {mine}; owner: {owner!r}"):
            return
        name, path = mine[0], "/" + BUS_TARGET_ID.replace(".", "/")
        actions = bus_call(bus, name, path, "org.gtk.Actions", "List", None, "(as)")
        check("i: control: ... and its object lists the actions (org.gtk.Actions.List)",
              not isinstance(actions, Exception) and sorted(actions[0]) == sorted(BUS_ACTIONS),
              repr(actions))
        missed = []
        for call, iface, method, args, reply, heard in bus_commands():
            result = bus_call(bus, name, path, iface, method, args, reply)
            log(f"i: control: {call}: {result!r}")
            if isinstance(result, Exception) or target.expect(re.escape(heard), 5) is None:
                missed.append(f"{call}: {result!r}, not heard ({heard!r})")
        check("i: control: each of those calls reaches it: Activate, ActivateAction and "
              f"org.gtk.Actions.Activate ({', '.join(BUS_ACTIONS)}), Open, CommandLine",
              not missed, "\n".join(missed))
        app = wait_for(lambda: app_of(target.proc.pid), 10)
        found = app and wait_for(lambda: windows(app), 10)
        taken = found and wait_for(lambda: is_active(found[0]) and not is_active(holder_win), 5)
        screenshot(ctx, "i-bus-control")
        check("i: control: ... and its Activate took the focus from the other window",
              taken, f"its windows: {found}; other window active {is_active(holder_win)}")
    finally:
        target.proc.terminate()
        target.proc.wait()


def case_k(ctx):
    """A question comes while the person types in another window (GNOME).

    mutter gives the focus to every Wayland window it maps for the first
    time (a window with no user time takes it, window_state_on_map()),
    and no Wayland protocol lets the client decline it: what the prompt
    controls is where that focus lands, on "Once", and that the keys the
    person was typing for the other window answer nothing."""
    holder = focus_holder(ctx)
    p = None
    try:
        holder_win = wait_for(lambda: holder_window(holder), 30)
        active = wait_for(lambda: holder_win is not None and is_active(holder_win), 10)
        if not check("k: another window has the focus", active):
            return
        press_key(XK_A)
        typed = wait_for(lambda: [a for a in walk(fresh(holder_win))
                                  if role(a) == "text" and "a" in text_of(a)], 5)
        check(f"k: the person types in it (real key presses, {input_kind()})", typed,
              "its texts: " + repr([text_of(a) for a in walk(fresh(holder_win))]))
        p = Prompt(ctx)
        p.driver.ask(91, 90000, **question(ctx, rport=8091))
        w = p.window_with(ctx.exe, 20)
        if not check("k: the question comes: the prompt's window is shown", w is not None):
            return
        once = controls(w, BUTTONS, "Once")
        check("k: in the window, the focus is on \"Once\"",
              once and wait_for(lambda: focused(once[0]), 5),
              "focused: " + repr([a.name for a in walk_shown(fresh(w)) if focused(a)]))
        # Still typing, as meant for the other window.
        for key in (XK_SPACE, XK_RETURN, XK_A, XK_D, XK_SPACE, XK_RETURN):
            press_key(key)
        screenshot(ctx, "k-typed")
        got = p.driver.expect(r"answer 91 .*", 2)
        check("k: the Space, Enter and letters typed on give the agent no answer", got is None,
              got and got.group(0))
        holder_texts = [t for a in walk(fresh(holder_win)) if role(a) == "text"
                        for t in text_of(a)]
        check("k: ... they went to the prompt's window: mutter gave it the focus (its "
              "shell says so), and the other window's text is still \"a\"",
              is_active(w) and "a" in holder_texts and not [t for t in holder_texts if "d" in t],
              f"prompt active {is_active(w)}; the other window's texts: {holder_texts}")
        choose(w, "Deny")
        got = p.driver.expect(r"answer 91 .*", 10)
        check("k: ... and it is answered deny once", got and got.group(0) == "answer 91 deny once -",
              got and got.group(0))
    finally:
        holder.terminate()
        holder.wait()
        if p is not None:
            p.close()


def case_l(ctx):
    """The locked screen: GNOME's screen shield, through org.gnome.ScreenSaver."""
    p = Prompt(ctx)
    try:
        p.driver.ask(101, 90000, **question(ctx, rport=8101))
        w = p.window_with(ctx.exe, 20)
        if not check("l: the question is shown", w is not None):
            return
        if not check("l: the screen locks (org.gnome.ScreenSaver Lock, then GetActive)",
                     ctx.gnome.lock()):
            return
        banner = wait_for(lambda: any("The screen is locked" in t for t in texts(w)), 10)
        # The shield fades the screen to black: a key brings its lock
        # screen back into view, as the person's would.
        ctx.gnome.nudge()
        screenshot(ctx, "l-locked")
        check("l: the window says the screen is locked", banner, " | ".join(texts(w)))
        allow = controls(w, BUTTONS, "Allow")
        check("l: Allow cannot be pressed while the screen is locked",
              allow and not sensitive(fresh(allow[0])), repr(allow))
        acted = do_action(allow[0]) if allow else None
        got = p.driver.expect(r"answer 101 .*", 3)
        check("l: ... pressed through AT-SPI anyway (accessible actions allowed), it gives "
              "no answer", acted and got is None,
              got.group(0) if got else f"no click action on Allow: {acted!r}")
        # A question that comes while the screen is locked is never answerable.
        p.driver.ask(102, 4000, **question(ctx, rport=8102))
        got = p.driver.expect(r"unanswered 102|answer 102 .*", 10)
        check("l: a question that comes while locked is left unanswered (the kernel's verdict)",
              got and got.group(0) == "unanswered 102", got and got.group(0))
        if not check("l: the screen unlocks (SetActive false, as GDM's unlock does)",
                     ctx.gnome.unlock()):
            return
        listed = wait_for(lambda: "While the screen was locked" in texts(w) and [
            t for t in texts(w) if "port 8102 over tcp: time ran out" in t], 10)
        screenshot(ctx, "l-unlocked")
        check("l: unlocked, the window lists it under \"While the screen was locked\": its "
              "time ran out", listed,
              " | ".join(texts(w)))
        check("l: ... and question 101 is the one shown again",
              "8101" in (field(w, "Port") or ""), f"Port: {field(w, 'Port')!r}")
        ok = choose(w, "Allow")
        got = p.driver.expect(r"answer 101 .*", 10)
        check("l: back from the locked screen, 101 is answered: allow once",
              ok and got and got.group(0) == "answer 101 allow once -", got and got.group(0))
    finally:
        p.close()


def case_m(ctx):
    """The monitor's notifications reach GNOME's notification list."""
    path = os.path.join(ctx.work, "audit-m.log")
    with open(path, "w") as f:
        f.write(audit_record(ctx))
    proc = subprocess.Popen([ctx.prompt, "--monitor", f"--audit-input={path}"], env=ctx.env,
                            stdout=ctx.prompt_log, stderr=ctx.prompt_log)
    try:
        app = wait_for(lambda: app_of(proc.pid), 15)
        w = app and wait_for(lambda: [x for x in windows(app)
                                      if any("198.51.100.7" in t for t in texts(x))], 15)
        if not check("m: the monitor is up, its window lists the log's denial", w):
            return
        with open(path, "a") as f:
            f.write(audit_record(ctx, permissive=True, when=int(time.time()), serial=107))
        title = f"pfsel would deny {ctx.exe}"
        shell_app = app_of(ctx.gnome.shell_pid)
        seen = wait_for(lambda: [t for a in walk(fresh(shell_app)) for t in text_of(a)
                                 if title in t], 15, 0.5)
        screenshot(ctx, "m-notified")
        check(f"m: a permissive denial appended to the log: the shell's notification list "
              f"shows \"{title}\" (a banner)",
              seen, "the shell's texts: " + " | ".join(
                  t for a in walk(fresh(shell_app)) for t in text_of(a))[:3000])
    finally:
        proc.terminate()
        proc.wait()


# --- Case x: an attacker's X client against the XTEST refusal ----------------

# The prefix of a check's detail when the attack it tried answered the
# question: the check fails, and says so.
GOT_THROUGH = "ATTACK GOT THROUGH: "


def xattack(ctx, *args):
    """build/tests/gui/xattack (xattack.c), an X client of the user's like
    any other: its one line (what the server said)."""
    argv = [os.path.join(ctx.top, "build", "tests", "gui", "xattack"), *map(str, args)]
    try:
        r = subprocess.run(argv, env=ctx.env, capture_output=True, text=True, timeout=15)
    except subprocess.TimeoutExpired:
        return "timed out"
    out = (r.stdout + r.stderr).strip()
    log(f"xattack {' '.join(map(str, args))}: {out}")
    return out


def attack_fails(ctx, p, w, qid, what):
    """The attack just made answers nothing: no answer within 3 s, the
    question still shown.  False (and a failing check naming the answer)
    when it got through."""
    got = p.driver.expect(rf"answer {qid} .*", 3)
    ok = check(f"x: {what} gives the agent no answer within 3 s", got is None,
               GOT_THROUGH + got.group(0) if got else "")
    if got is None:
        check(f"x: ... and question {qid} is still the one shown",
              f"80{qid}" in (field(w, "Port") or ""), f"Port: {field(w, 'Port')!r}")
    return ok


def x11_limitation(ctx, p, qid, what):
    """An attack docs/THREAT-MODEL.md lists as undefended under X11 (XTEST's
    device form): what it did, said on its own line, not counted.  True
    when it answered (the next question is then needed)."""
    got = p.driver.expect(rf"answer {qid} .*", 3)
    print(f"X11 LIMITATION (undefended, THREAT-MODEL): {what}: "
          + (got.group(0) if got else "no answer"), flush=True)
    return got is not None


def next_question(ctx, p, w, qid):
    """Ask qid (port 80qid) and wait for it to be shown and armed; its
    Allow, or None."""
    p.driver.ask(qid, 60000, **question(ctx, rport=8000 + qid))
    shown = wait_for(lambda: str(8000 + qid) in (field(w, "Port") or ""), 10)
    return answer_control(w, "Allow") if shown else None


def middle(acc):
    x, y, width, height = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    return x + width // 2, y + height // 2


def case_x(ctx):
    """Each way an X client of the user's might press Allow without the
    person; every check says the attempt answers nothing."""
    p = Prompt(ctx, accessible_actions=False)
    holder = None
    keyboard = None
    try:
        if not check(f"x: the seam driver starts pfsel-prompt without {ACCESSIBLE_ACTIONS} "
                     f"and {XTEST_INPUT}", p.ready and p.pid, "\n".join(p.driver.seen)):
            return
        qid = 71
        p.driver.ask(qid, 60000, **question(ctx, rport=8000 + qid))
        w = p.window_with(ctx.exe, 20)
        allow = answer_control(w, "Allow") if w is not None else None
        if not check("x: the question is shown, Allow armed", allow is not None):
            return
        # Moving the focus answers nothing, and is not refused.
        tabs = tab_to(allow)
        check("x: Tab made through XTEST moves the focus to Allow", tabs is not None)

        # 1. Core events sent to the window (XSendEvent: the synthetic flag).
        out = xattack(ctx, "sendkey", p.pid, "space")
        attack_fails(ctx, p, w, qid, f"a core Space sent to the window (XSendEvent: {out})")
        x, y = middle(allow)
        out = xattack(ctx, "sendclick", p.pid, x, y)
        attack_fails(ctx, p, w, qid, f"a core click on Allow sent to the window "
                     f"(XSendEvent: {out})")
        # 2. An XInput2 event sent: the server takes no GenericEvent.
        out = xattack(ctx, "sendxi2", p.pid)
        check("x: an XInput2 key press sent to the window (XSendEvent of a GenericEvent) "
              "is refused by the server", out.startswith("refused"), out)
        attack_fails(ctx, p, w, qid, "after it,")
        # 3. The XTEST devices: their property, their place.
        out = xattack(ctx, "delprop")
        check("x: deleting the XTEST keyboard's \"XTEST Device\" property is refused, "
              "the property stays", out.startswith("refused") and out.endswith("property 1"),
              out)
        out = xattack(ctx, "float")
        check("x: detaching (floating) the XTEST keyboard is refused",
              out.startswith("refused"), out)
        out = xattack(ctx, "reattach")
        check("x: attaching the XTEST keyboard to a logical pair of the program's own "
              "is refused", out.startswith("refused"), out)
        # 4. Alt latched through XKB, then a key of the physical keyboard:
        #    a mnemonic the person did not mean.
        out = xattack(ctx, "devkey", "a", "latch")
        if not attack_fails(ctx, p, w, qid, "Alt latched (XkbLatchModifiers), then A on "
                            f"the physical keyboard's device ({out})"):
            allow = next_question(ctx, p, w, qid := qid + 1)
        # 5. XTEST in its XInput 1 device form (XTestFakeDeviceKeyEvent),
        #    naming the physical keyboard: the server makes the event on
        #    that device, whose events the prompt takes as the person's.
        if allow is not None and not focused(allow):
            tab_to(allow)
        out = xattack(ctx, "devkey", "space")
        if x11_limitation(ctx, p, qid, "Space on the focused Allow made through XTEST "
                          f"on the physical keyboard's device (XTestFakeDeviceKeyEvent: "
                          f"{out})"):
            screenshot(ctx, "x-devkey-answered")
            allow = next_question(ctx, p, w, qid := qid + 1)
        # ... "always" chosen through the accessibility bus (allowed: it
        # answers nothing), then Alt+A on that device: a rule added.
        chose = choose(w, "Always")
        out = xattack(ctx, "devkey", "a", "alt")
        if x11_limitation(ctx, p, qid, f"\"Always\" chosen through AT-SPI ({chose}), "
                          "then Alt+A made through XTEST on the physical keyboard's "
                          f"device ({out})"):
            allow = next_question(ctx, p, w, qid := qid + 1)
        # ... and a click, on the physical pointer's device.
        if allow is not None:
            x, y = middle(allow)
            out = xattack(ctx, "devclick", x, y)
            if x11_limitation(ctx, p, qid, f"a click on Allow at ({x}, {y}) made "
                              "through XTEST on the physical pointer's device "
                              f"(XTestFakeDeviceButtonEvent: {out})"):
                allow = next_question(ctx, p, w, qid := qid + 1)
        # ... XKB's MouseKeys: a keypad key pressed through XTEST clicks
        #     (the server makes the click on the XTEST pointer).
        if allow is not None:
            x, y = middle(allow)
            out = xattack(ctx, "mousekeys", x, y)
            attack_fails(ctx, p, w, qid, f"a click on Allow at ({x}, {y}) by XKB's MouseKeys, "
                         f"KP_Begin made through XTEST ({out})")
            notice = wait_for(lambda: field(w, "Notice") == XTEST_NOTICE, 3)
            check("x: ... the click came, and the window says it was XTEST's (no check above "
                  "passed for want of a click)", notice, f"Notice: {field(w, 'Notice')!r}")

        # 6. Focus stealing: the person types in another window; a program
        #    moves the prompt's focus to Allow and gives the prompt the X
        #    focus just as the person presses Space.  (The person's Space
        #    is played by the physical keyboard's device, as in 5: Xvfb
        #    has no device a person types on.)
        holder = focus_holder(ctx)
        hw = wait_for(lambda: holder_window(holder), 15)
        typed_away = hw is not None and wait_for(lambda: is_active(hw), 5)
        if not typed_away:
            xattack(ctx, "focus", holder.pid)
            typed_away = hw is not None and wait_for(lambda: is_active(hw), 5)
        check("x: another window has the focus (the person types there)", typed_away)
        out = xattack(ctx, "focus", p.pid)
        if allow is not None and not focused(allow):
            tab_to(allow)
        xattack(ctx, "focus", holder.pid)
        time.sleep(0.5)
        # The control: the same Space, the focus left where the person
        # has it, reaches the other window and answers nothing.
        out = xattack(ctx, "devkey", "space")
        got = p.driver.expect(rf"answer {qid} .*", 2)
        check("x: (control) the person's Space, the focus left on the other window, "
              "answers nothing", got is None, got and got.group(0))
        back = xattack(ctx, "focus", p.pid)
        out = xattack(ctx, "devkey", "space")
        if not attack_fails(ctx, p, w, qid, "the person's Space meant for another window, "
                            "the X focus given to the prompt (XSetInputFocus) with Allow "
                            f"focused long after the question came ({back}; {out})"):
            allow = next_question(ctx, p, w, qid := qid + 1)
        xattack(ctx, "focus", p.pid)

        # 7. Denial of service: "XTEST Device" added to the physical
        #    keyboard and pointer (no handler refuses it there), then a
        #    change of the devices, which makes the prompt read them again.
        if allow is not None and not focused(allow):
            tab_to(allow)
        out = xattack(ctx, "addprop")
        m = re.search(r"keyboard (\d+) property (\d+), pointer (\d+) property (\d+)", out)
        keyboard = (m.group(1), m.group(3)) if m else None
        added = bool(m and m.group(2) == "1" and m.group(4) == "1")
        log("x: the \"XTEST Device\" property added to the physical keyboard and pointer:",
            out)
        if added:
            time.sleep(0.5)
            out = xattack(ctx, "devkey", "space", "-", keyboard[0])
            got = p.driver.expect(rf"answer {qid} .*", 3)
            check("x: ... and then the physical keyboard's Space on the focused Allow "
                  "still answers (the person is not refused)", got is not None,
                  GOT_THROUGH + "denial of service: no answer; the window says: "
                  + repr(field(w, "Notice")) + f" ({out})")
    finally:
        if keyboard:
            xattack(ctx, "unprop", *keyboard)
        if holder is not None:
            holder.terminate()
            holder.wait()
        p.close()


CASES = {"a": case_a, "b": case_b, "c": case_c, "d": case_d, "e": case_e, "f": case_f,
         "g": case_g, "h": case_h, "i": case_i, "j": case_j,
         "k": case_k, "l": case_l, "m": case_m, "n": case_n,
         "o": case_o, "x": case_x}


def install_monitor_desktop(ctx):
    """The monitor's .desktop file as the package installs it (its
    Exec the pfsel-prompt under test), in the session's applications:
    gnome-shell takes a notification (org.gtk.Notifications, where GLib
    sends them when the shell serves it) only from an application it
    knows by the .desktop file of its application id."""
    with open(os.path.join(ctx.top, "packaging", "desktop", "org.pfsel.Monitor.desktop.in")) as f:
        text = f.read().replace("@BINDIR@/pfsel-prompt", ctx.prompt)
    with open(os.path.join(ctx.work, "data", "applications", "org.pfsel.Monitor.desktop"),
              "w") as f:
        f.write(text)


def let_root_banner_go(ctx):
    """As root, the shell greets the session with a banner ("Logged in as
    a privileged user") over the top of the screen, where the prompt's
    headline is: the person's key presses let it go after its time."""
    if os.getuid() != 0:
        return
    text = "Logged in as a privileged user"
    shell_app = wait_for(lambda: app_of(ctx.gnome.shell_pid), 10)
    if shell_app is None:
        return

    def banner():
        return [a for a in walk_shown(fresh(shell_app)) if text in text_of(a)]

    if wait_for(banner, 5, 0.3):
        gone = wait_for(lambda: ctx.gnome.nudge() or not banner(), 15, 0.5)
        log(f"gnome: the shell's banner for root {'went' if gone else 'stays'}")


def start_a11y_bus(ctx):
    """The accessibility bus of this D-Bus session (at-spi2-core), up:
    its launcher owns org.a11y.Bus before anything asks for it, so that
    D-Bus activation does not start a second one."""
    from gi.repository import Gio, GLib

    for path in ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher"):
        if os.access(path, os.X_OK):
            break
    else:
        raise SystemExit("at-spi-bus-launcher: not found (at-spi2-core)")
    launcher = subprocess.Popen([path, "--launch-immediately"], env=ctx.env,
                                stdout=ctx.prompt_log, stderr=ctx.prompt_log)
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)

    def owned():
        reply = session.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus", "NameHasOwner",
                                  GLib.Variant("(s)", ("org.a11y.Bus",)), None,
                                  Gio.DBusCallFlags.NONE, -1, None)
        return reply.unpack()[0]

    if not wait_for(owned, 10, 0.05):
        raise SystemExit("at-spi-bus-launcher did not take org.a11y.Bus in 10 s")
    return launcher


def main():
    global pyatspi, shell
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("x11", "wayland", "gnome"), required=True)
    parser.add_argument("--top", required=True, help="the source tree")
    parser.add_argument("--work", required=True, help="a folder for the run's files")
    parser.add_argument("--cases", default=None,
                        help="which cases, e.g. ab (default: all of the backend's)")
    parser.add_argument("--prompt", help="the pfsel-prompt to test (default: build/bin's)")
    parser.add_argument("--driver", help="the seam driver (default: build/tests/gui's)")
    parser.add_argument("--fake-prompt", help="the tests' stand-in prompt "
                        "(default: build/tests/pfsel-tools's fake_prompt)")
    args = parser.parse_args()
    cases = args.cases or {"x11": "abcdefghijnox", "wayland": "ag", "gnome": "abgklm"}[args.backend]
    if any(c not in CASES for c in cases):
        parser.error(f"--cases: not cases of this test: {cases}")
    # Its own accessibility bus would take the place of a person's.
    if os.environ.get("PFSEL_GUI_SESSION") != "private":
        raise SystemExit("prompt_test.py: run through tests/gui/run, in a display and "
                         "D-Bus session of its own")
    ctx = make_world(args)
    log(f"{ctx.backend}: DISPLAY={os.environ.get('DISPLAY')} "
        f"WAYLAND_DISPLAY={os.environ.get('WAYLAND_DISPLAY')}")
    bus = start_a11y_bus(ctx)
    import pyatspi as _pyatspi  # after the bus is up: it connects on import

    pyatspi = _pyatspi
    ctx.gnome = None
    try:
        if ctx.backend == "gnome":
            import gnome_session

            install_monitor_desktop(ctx)
            ctx.gnome = shell = gnome_session.GnomeShell(ctx, wait_for)
            if not check("gnome: gnome-session starts gnome-shell (headless, a virtual "
                         f"monitor of {gnome_session.MONITOR})", ctx.gnome.start(),
                         "see build/logs/gui-gnome.log and gui-gnome-shell.log"):
                return 1
            let_root_banner_go(ctx)
        for c in cases:
            t0 = time.monotonic()
            try:
                CASES[c](ctx)
            except Exception:
                check(f"{c}: ran to its end", False, traceback.format_exc())
            log(f"case {c}: {time.monotonic() - t0:.1f} s")
    finally:
        ctx.launcher.send_signal(signal.SIGTERM)
        if ctx.app_pid:
            try:
                os.kill(ctx.app_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        ctx.launcher.wait()
        if ctx.gnome:
            ctx.gnome.stop()
        bus.terminate()
        bus.wait()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
