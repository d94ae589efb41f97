// SPDX-License-Identifier: GPL-2.0-only
/*
 * xattack - what a program of the user, an X client like any other, can
 * do to the desktop prompt under X11 (tests/gui case x: each attempt is
 * a check that it answers nothing).  One command a run; each prints what
 * the X server said, one line, for the test to read.
 *
 *   devkey KEYSYM [alt|latch|-] [ID]  a key press and release made through XTEST
 *                        on the X server's own physical keyboard device
 *                        (XTestFakeDeviceKeyEvent: XInput 1's device
 *                        form of XTEST, which names the device), with
 *                        Alt held on that device too, or Alt latched
 *                        through XKB (XkbLatchModifiers); on device ID
 *                        if given
 *   devclick X Y         the pointer moved there (XWarpPointer) and its
 *                        first button pressed and released through XTEST
 *                        on the physical pointer device
 *   sendkey PID KEYSYM   a core KeyPress and KeyRelease sent (XSendEvent)
 *                        to the window of process PID
 *   sendclick PID X Y    a core ButtonPress and ButtonRelease sent there
 *   sendxi2 PID          an XInput2 key press (a GenericEvent) sent there
 *   addprop              the "XTEST Device" property added to the
 *                        physical keyboard and pointer
 *                        (XIChangeProperty), then a logical device pair
 *                        made and removed (XIChangeHierarchy), so that a
 *                        client reads the devices again
 *   unprop ID...         the property deleted from those devices again
 *   delprop              the property deleted from the XTEST keyboard
 *   float                the XTEST keyboard detached (made floating)
 *   reattach             a logical pair of its own made, the XTEST
 *                        keyboard attached to it
 *   mousekeys X Y        the pointer moved there, XKB's MouseKeys turned
 *                        on (XkbChangeEnabledControls) and KP_Begin
 *                        pressed through XTEST: a click of button 1
 *   focus PID            the X input focus given to the window of PID
 *                        (XSetInputFocus, as any client may)
 *
 * Needs libX11, libXi (XInput 1 and 2) and libXtst.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XInput.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/XTest.h>

static int last_error;

static int on_error(Display *d, XErrorEvent *e)
{
	(void)d;
	last_error = e->error_code ? e->error_code : -1;
	return 0;
}

/* The server's word on what was just asked: 0 or an X error code. */
static int synced(Display *d)
{
	last_error = 0;
	XSync(d, False);
	return last_error;
}

static int has_xtest_property(Display *d, int id)
{
	Atom prop = XInternAtom(d, "XTEST Device", False), type = None;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;

	if (XIGetProperty(d, id, prop, 0, 1, False, AnyPropertyType, &type,
			  &format, &n, &after, &data) != Success)
		return -1;
	if (data)
		XFree(data);
	return type != None;
}

/*
 * The first slave device of @use (XISlaveKeyboard, XISlavePointer) with
 * (@xtest 1) or without (0) the "XTEST Device" property; -1 if none.
 */
static int device(Display *d, int use, int xtest)
{
	XIDeviceInfo *info;
	int i, n, id = -1;

	info = XIQueryDevice(d, XIAllDevices, &n);
	for (i = 0; info && i < n && id < 0; i++)
		if (info[i].use == use &&
		    has_xtest_property(d, info[i].deviceid) == xtest)
			id = info[i].deviceid;
	if (info)
		XIFreeDeviceInfo(info);
	return id;
}

static Window window_of_pid_under(Display *d, Window w, long pid)
{
	Atom prop = XInternAtom(d, "_NET_WM_PID", False), type;
	Window root, parent, *kids = NULL, found = None;
	unsigned int i, nkids;
	unsigned long n, after;
	unsigned char *data = NULL;
	int format;

	if (XGetWindowProperty(d, w, prop, 0, 1, False, XA_CARDINAL, &type,
			       &format, &n, &after, &data) == Success &&
	    data) {
		long got = n ? (long)*(unsigned long *)data : -1;

		XFree(data);
		if (got == pid) {
			XWindowAttributes a;

			if (XGetWindowAttributes(d, w, &a) &&
			    a.map_state == IsViewable)
				return w;
		}
	}
	if (!XQueryTree(d, w, &root, &parent, &kids, &nkids))
		return None;
	for (i = 0; i < nkids && !found; i++)
		found = window_of_pid_under(d, kids[i], pid);
	if (kids)
		XFree(kids);
	return found;
}

static Window window_of_pid(Display *d, const char *pid)
{
	return window_of_pid_under(d, DefaultRootWindow(d), atol(pid));
}

static KeyCode keycode(Display *d, const char *keysym)
{
	return XKeysymToKeycode(d, XStringToKeysym(keysym));
}

static int devkey(Display *d, const char *keysym, const char *how, int id)
{
	XDevice *dev;
	KeyCode alt = keycode(d, "Alt_L"), key = keycode(d, keysym);
	int err;

	if (id < 0) {
		puts("no physical keyboard");
		return 1;
	}
	dev = XOpenDevice(d, (XID)id);
	if (!dev || synced(d)) {
		printf("XOpenDevice %d refused\n", id);
		return 1;
	}
	if (how && !strcmp(how, "latch")) {
		XkbLatchModifiers(d, XkbUseCoreKbd, Mod1Mask, Mod1Mask);
		synced(d);
	}
	if (how && !strcmp(how, "alt"))
		XTestFakeDeviceKeyEvent(d, dev, alt, True, NULL, 0, 0);
	XTestFakeDeviceKeyEvent(d, dev, key, True, NULL, 0, 0);
	XTestFakeDeviceKeyEvent(d, dev, key, False, NULL, 0, 0);
	if (how && !strcmp(how, "alt"))
		XTestFakeDeviceKeyEvent(d, dev, alt, False, NULL, 0, 0);
	err = synced(d);
	if (how && !strcmp(how, "latch")) {
		XkbLatchModifiers(d, XkbUseCoreKbd, Mod1Mask, 0);
		synced(d);
	}
	printf("device %d: %s\n", id, err ? "refused" : "accepted");
	return err != 0;
}

static int devclick(Display *d, int x, int y)
{
	int id = device(d, XISlavePointer, 0);
	XDevice *dev;
	int err;

	if (id < 0) {
		puts("no physical pointer");
		return 1;
	}
	dev = XOpenDevice(d, (XID)id);
	if (!dev || synced(d)) {
		printf("XOpenDevice %d refused\n", id);
		return 1;
	}
	XWarpPointer(d, None, DefaultRootWindow(d), 0, 0, 0, 0, x, y);
	synced(d);
	XTestFakeDeviceButtonEvent(d, dev, 1, True, NULL, 0, 0);
	XTestFakeDeviceButtonEvent(d, dev, 1, False, NULL, 0, 0);
	err = synced(d);
	printf("device %d: %s\n", id, err ? "refused" : "accepted");
	return err != 0;
}

/* A core key or button event, as the server would have sent it. */
static int send_core(Display *d, Window w, int key, int type, unsigned int detail,
		     int x, int y)
{
	XEvent e;
	int err;

	memset(&e, 0, sizeof(e));
	e.type = type;
	if (key) {
		e.xkey.display = d;
		e.xkey.window = w;
		e.xkey.root = DefaultRootWindow(d);
		e.xkey.time = CurrentTime;
		e.xkey.keycode = detail;
		e.xkey.same_screen = True;
		e.xkey.x = x;
		e.xkey.y = y;
	} else {
		e.xbutton.display = d;
		e.xbutton.window = w;
		e.xbutton.root = DefaultRootWindow(d);
		e.xbutton.time = CurrentTime;
		e.xbutton.button = detail;
		e.xbutton.same_screen = True;
		e.xbutton.x = x;
		e.xbutton.y = y;
		e.xbutton.x_root = x;
		e.xbutton.y_root = y;
		if (type == ButtonRelease)
			e.xbutton.state = Button1Mask;
	}
	XSendEvent(d, w, True,
		   key ? KeyPressMask | KeyReleaseMask :
			 ButtonPressMask | ButtonReleaseMask,
		   &e);
	err = synced(d);
	return err;
}

static int sendxi2(Display *d, Window w)
{
	XEvent e;
	int err, op, ev, er;

	if (!XQueryExtension(d, "XInputExtension", &op, &ev, &er)) {
		puts("no XInput");
		return 1;
	}
	memset(&e, 0, sizeof(e));
	e.xgeneric.type = GenericEvent;
	e.xgeneric.extension = op;
	e.xgeneric.evtype = XI_KeyPress;
	e.xgeneric.display = d;
	XSendEvent(d, w, True, 0, &e);
	err = synced(d);
	printf("%s (error %d)\n", err ? "refused" : "accepted", err);
	return 0;
}

/* A logical pair of our own: its keyboard's id, or -1. */
static int add_master(Display *d, const char *name)
{
	XIAddMasterInfo add = { .type = XIAddMaster, .name = (char *)name,
				.send_core = True, .enable = True };
	XIDeviceInfo *info;
	int i, n, id = -1;
	char want[128];

	XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&add, 1);
	if (synced(d))
		return -1;
	snprintf(want, sizeof(want), "%s keyboard", name);
	info = XIQueryDevice(d, XIAllDevices, &n);
	for (i = 0; info && i < n; i++)
		if (info[i].use == XIMasterKeyboard &&
		    !strcmp(info[i].name, want))
			id = info[i].deviceid;
	if (info)
		XIFreeDeviceInfo(info);
	return id;
}

static void remove_master(Display *d, int id)
{
	XIRemoveMasterInfo rm = { .type = XIRemoveMaster, .deviceid = id,
				  .return_mode = XIFloating };

	XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&rm, 1);
	synced(d);
}

static int addprop(Display *d)
{
	Atom prop = XInternAtom(d, "XTEST Device", False);
	int ids[2] = { device(d, XISlaveKeyboard, 0),
		       device(d, XISlavePointer, 0) };
	unsigned char one = 1;
	int i, err = 0, master;

	for (i = 0; i < 2; i++) {
		if (ids[i] < 0)
			continue;
		XIChangeProperty(d, ids[i], prop, XA_INTEGER, 8,
				 XIPropModeReplace, &one, 1);
		err |= synced(d);
	}
	master = add_master(d, "pfsel adv");
	if (master >= 0)
		remove_master(d, master);
	printf("%s: keyboard %d property %d, pointer %d property %d\n",
	       err ? "refused" : "accepted", ids[0],
	       has_xtest_property(d, ids[0]), ids[1],
	       has_xtest_property(d, ids[1]));
	return 0;
}

static int mousekeys(Display *d, int x, int y)
{
	KeyCode k = keycode(d, "KP_Begin");
	int err;

	XWarpPointer(d, None, DefaultRootWindow(d), 0, 0, 0, 0, x, y);
	XkbChangeEnabledControls(d, XkbUseCoreKbd, XkbMouseKeysMask,
				 XkbMouseKeysMask);
	synced(d);
	XTestFakeKeyEvent(d, k, True, 0);
	XTestFakeKeyEvent(d, k, False, 0);
	err = synced(d);
	XkbChangeEnabledControls(d, XkbUseCoreKbd, XkbMouseKeysMask, 0);
	synced(d);
	printf("KP_Begin %d: %s\n", k, err ? "refused" : "accepted");
	return 0;
}

static int unprop(Display *d, int argc, char **argv)
{
	Atom prop = XInternAtom(d, "XTEST Device", False);
	int i, err = 0;

	for (i = 0; i < argc; i++) {
		XIDeleteProperty(d, atoi(argv[i]), prop);
		err |= synced(d);
	}
	printf("%s\n", err ? "refused" : "deleted");
	return 0;
}

static int delprop(Display *d)
{
	Atom prop = XInternAtom(d, "XTEST Device", False);
	int id = device(d, XISlaveKeyboard, 1), err;

	XIDeleteProperty(d, id, prop);
	err = synced(d);
	printf("%s (error %d): device %d property %d\n",
	       err ? "refused" : "accepted", err, id, has_xtest_property(d, id));
	return 0;
}

static int float_xtest(Display *d)
{
	int id = device(d, XISlaveKeyboard, 1), err;
	XIDetachSlaveInfo det = { .type = XIDetachSlave, .deviceid = id };

	XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&det, 1);
	err = synced(d);
	printf("%s (error %d): device %d\n", err ? "refused" : "accepted", err,
	       id);
	return 0;
}

static int reattach(Display *d)
{
	int id = device(d, XISlaveKeyboard, 1), master, err;
	XIAttachSlaveInfo att = { .type = XIAttachSlave, .deviceid = id };

	master = add_master(d, "pfsel adv");
	if (master < 0) {
		puts("XIAddMaster refused");
		return 0;
	}
	att.new_master = master;
	XIChangeHierarchy(d, (XIAnyHierarchyChangeInfo *)&att, 1);
	err = synced(d);
	remove_master(d, master);
	printf("%s (error %d): device %d to master %d\n",
	       err ? "refused" : "accepted", err, id, master);
	return 0;
}

int main(int argc, char **argv)
{
	Display *d = XOpenDisplay(NULL);
	int maj = 2, min = 2;
	Window w;

	if (!d || argc < 2) {
		fputs("usage: xattack COMMAND ARGS (see xattack.c)\n", stderr);
		return 2;
	}
	XSetErrorHandler(on_error);
	XIQueryVersion(d, &maj, &min);
	if (!strcmp(argv[1], "devkey") && argc >= 3)
		return devkey(d, argv[2], argc > 3 ? argv[3] : NULL,
			      argc > 4 ? atoi(argv[4]) :
					 device(d, XISlaveKeyboard, 0));
	if (!strcmp(argv[1], "devclick") && argc == 4)
		return devclick(d, atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "addprop"))
		return addprop(d);
	if (!strcmp(argv[1], "mousekeys") && argc == 4)
		return mousekeys(d, atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(argv[1], "unprop"))
		return unprop(d, argc - 2, argv + 2);
	if (!strcmp(argv[1], "delprop"))
		return delprop(d);
	if (!strcmp(argv[1], "float"))
		return float_xtest(d);
	if (!strcmp(argv[1], "reattach"))
		return reattach(d);
	if (argc < 3)
		return 2;
	w = window_of_pid(d, argv[2]);
	if (w == None) {
		printf("no window of process %s\n", argv[2]);
		return 1;
	}
	if (!strcmp(argv[1], "focus")) {
		XSetInputFocus(d, w, RevertToParent, CurrentTime);
		printf("focus %s\n", synced(d) ? "refused" : "given");
		return 0;
	}
	if (!strcmp(argv[1], "sendkey") && argc == 4) {
		KeyCode k = keycode(d, argv[3]);
		int err = send_core(d, w, 1, KeyPress, k, 1, 1) |
			  send_core(d, w, 1, KeyRelease, k, 1, 1);

		printf("%s\n", err ? "refused" : "sent");
		return 0;
	}
	if (!strcmp(argv[1], "sendclick") && argc == 5) {
		int x = atoi(argv[3]), y = atoi(argv[4]);
		int err = send_core(d, w, 0, ButtonPress, 1, x, y) |
			  send_core(d, w, 0, ButtonRelease, 1, x, y);

		printf("%s\n", err ? "refused" : "sent");
		return 0;
	}
	if (!strcmp(argv[1], "sendxi2"))
		return sendxi2(d, w);
	return 2;
}
