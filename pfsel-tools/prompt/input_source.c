// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel-prompt - whether an input event came from a device of the
 * machine, or was made by a program (X11's XTEST).
 *
 * Any client of an X server can make input with XTEST, which the server
 * then delivers as a keyboard's or a mouse's own: a program of the user
 * could press Allow.  GTK 4's events name only the logical devices
 * ("Virtual core pointer"), but the XInput2 events under them carry the
 * device that made them (sourceid).  The X server gives each logical
 * pointer and keyboard a pair of XTEST devices, named after it ("NAME
 * XTEST keyboard", "NAME XTEST pointer"), and each of those the device
 * property "XTEST Device", which no client can change or delete on them
 * (the server's handler refuses).  Either alone does not tell: a
 * uinput device, root's, can call itself "Virtual core XTEST keyboard",
 * and a client can add the property to any other device; together they
 * do, and a client cannot make a device of any other kind (adding a
 * logical device pair brings XTEST devices with it).
 *
 * What this does not catch: XTEST's older device form
 * (XTestFakeDeviceKeyEvent after XOpenDevice) makes input as the named
 * device itself, the physical keyboard or mouse, indistinguishable from
 * the person's (docs/THREAT-MODEL.md: under X11 a program can still
 * answer so).
 *
 * So each XInput2 key, button and touch event is noted as it arrives
 * (GdkX11Display's "xevent" signal, before GDK translates it): its type,
 * key or button, time, and whether the device that made it is a physical
 * one of the X server's (a slave or floating device without the
 * property).  The window then asks of the GDK event it is handling: the
 * XInput2 event with the same type, key or button and time must have been
 * noted, and only from such a device.  Anything else is synthetic: an
 * XTEST device's event, a core event another client sent (XSendEvent,
 * which GDK may take), an event not traced to a device.
 *
 * A key's meaning depends on the modifiers held with it, which the
 * logical keyboard shares between its devices: a letter the person types
 * while a program holds Alt down through XTEST, or has latched or locked
 * Alt (XKB lets any client), would be Alt and a mnemonic.  A key press
 * while a key is held down through XTEST, or with Alt latched or locked,
 * is synthetic too.  Which keys are held, and by what device, the raw
 * key events tell (selected on the root window: they come whichever
 * window has the focus); a key already down when the prompt starts is
 * taken as a program's until it is released.
 *
 * Under Wayland no client makes another's input: every event is the
 * compositor's, and none is synthetic here.
 */
#include <string.h>

#include "prompt.h"

#ifdef GDK_WINDOWING_X11
#include <X11/extensions/XInput2.h>
#include <gdk/x11/gdkx.h>

/*
 * How many key, button and touch events are remembered.  GDK translates
 * one X event and hands its GDK event to the widgets before it reads the
 * next; a few more in between would be a lot.
 */
#define NOTED_EVENTS 64

/* XInput2 device ids: the X server has far fewer devices than this. */
#define DEVICE_IDS 256

/* What a device id is. */
enum device_kind {
	DEVICE_NONE, /* none now, or one that could not be asked */
	DEVICE_LOGICAL, /* a master: its events are its slaves' */
	DEVICE_PHYSICAL, /* a slave or floating device without the property */
	DEVICE_XTEST, /* a slave or floating device with it */
};

/* One XInput2 (or core) key, button or touch event, as it arrived. */
struct noted_event {
	int evtype; /* XI_KeyPress, ... (a core event: its XI2 type) */
	unsigned int detail; /* key code, button, touch id */
	guint32 time; /* the server's, in ms: what GDK's event carries */
	gboolean from_device;
};

struct prompt_input_source {
	GdkDisplay *display;
	Display *xdisplay;
	gulong handler;
	int xi_opcode;
	Atom xtest_property;
	/* What each device id is (enum device_kind). */
	unsigned char kind[DEVICE_IDS];
	/*
	 * The key codes held down by other than a physical device, or
	 * already down at the start (by whom, unknown).
	 */
	unsigned char synthetic_keys[256 / 8];
	struct noted_event noted[NOTED_EVENTS];
	unsigned int next;
};

/*
 * Whether device @id carries the "XTEST Device" property.  A device that
 * cannot be asked (gone since) counts as carrying it.
 */
static gboolean has_xtest_property(struct prompt_input_source *src, int id)
{
	Atom type = None;
	int format = 0, status, error;
	unsigned long items = 0, after = 0;
	unsigned char *data = NULL;

	gdk_x11_display_error_trap_push(src->display);
	status = XIGetProperty(src->xdisplay, id, src->xtest_property, 0, 1,
			       False, AnyPropertyType, &type, &format, &items,
			       &after, &data);
	error = gdk_x11_display_error_trap_pop(src->display);
	if (status == Success && data)
		XFree(data);
	return error || status != Success || type != None;
}

/*
 * Whether @name is an XTEST device's: the server names those after their
 * logical device, "NAME XTEST keyboard" and "NAME XTEST pointer".  The
 * property alone does not tell: a client may add "XTEST Device" to any
 * other device (the server's handler guards it on the XTEST devices
 * only), and the person's own keyboard would then be refused.  A device
 * of another kind with such a name is root's making (uinput).
 */
static gboolean is_xtest_name(const char *name)
{
	return name && (g_str_has_suffix(name, " XTEST keyboard") ||
			g_str_has_suffix(name, " XTEST pointer"));
}

/*
 * What each device is; the physical ones: slave and floating devices
 * without the XTEST property.  Asked again whenever the server says its
 * devices changed.
 */
static void read_devices(struct prompt_input_source *src)
{
	XIDeviceInfo *info;
	int i, n = 0;

	memset(src->kind, DEVICE_NONE, sizeof(src->kind));
	gdk_x11_display_error_trap_push(src->display);
	info = XIQueryDevice(src->xdisplay, XIAllDevices, &n);
	gdk_x11_display_error_trap_pop_ignored(src->display);
	for (i = 0; info && i < n; i++) {
		const XIDeviceInfo *dev = &info[i];

		if (dev->deviceid < 0 || dev->deviceid >= DEVICE_IDS)
			continue;
		if (dev->use == XIMasterPointer || dev->use == XIMasterKeyboard)
			src->kind[dev->deviceid] = DEVICE_LOGICAL;
		else if (is_xtest_name(dev->name) &&
			 has_xtest_property(src, dev->deviceid))
			src->kind[dev->deviceid] = DEVICE_XTEST;
		else
			src->kind[dev->deviceid] = DEVICE_PHYSICAL;
	}
	if (info)
		XIFreeDeviceInfo(info);
}

static void note(struct prompt_input_source *src, int evtype,
		 unsigned int detail, Time time, gboolean from_device)
{
	struct noted_event *e = &src->noted[src->next];

	src->next = (src->next + 1) % NOTED_EVENTS;
	e->evtype = evtype;
	e->detail = detail;
	e->time = (guint32)time;
	e->from_device = from_device;
}

static gboolean synthetic_key_held(const struct prompt_input_source *src)
{
	size_t i;

	for (i = 0; i < sizeof(src->synthetic_keys); i++)
		if (src->synthetic_keys[i])
			return TRUE;
	return FALSE;
}

static enum device_kind kind_of(const struct prompt_input_source *src, int id)
{
	return id >= 0 && id < DEVICE_IDS ? src->kind[id] : DEVICE_NONE;
}

/*
 * A key pressed or released anywhere: which are held, and by what.  A
 * raw event names its device in deviceid (its sourceid is 0 on some
 * servers); the logical keyboard's own raw events repeat its slaves'.
 */
static void note_raw_key(struct prompt_input_source *src, const XIRawEvent *ev)
{
	const unsigned int key = (unsigned int)ev->detail & 0xff;
	const unsigned char bit = 1u << (key % 8);
	const enum device_kind kind = kind_of(src, ev->deviceid);

	if (kind == DEVICE_LOGICAL)
		return;
	if (ev->evtype == XI_RawKeyRelease)
		src->synthetic_keys[key / 8] &= ~bit;
	else if (kind != DEVICE_PHYSICAL)
		src->synthetic_keys[key / 8] |= bit;
}

static void note_device_event(struct prompt_input_source *src,
			      const XIDeviceEvent *ev)
{
	gboolean from_device = kind_of(src, ev->sourceid) == DEVICE_PHYSICAL;

	/* Its modifiers may be a program's. */
	if (ev->evtype == XI_KeyPress &&
	    (synthetic_key_held(src) ||
	     ((ev->mods.latched | ev->mods.locked) & Mod1Mask)))
		from_device = FALSE;
	note(src, ev->evtype, (unsigned int)ev->detail, ev->time, from_device);
}

/* Every X event, before GDK translates it: note what it will need. */
static gboolean on_xevent(GdkX11Display *display, gpointer xevent,
			  gpointer data)
{
	struct prompt_input_source *src = data;
	const XEvent *ev = xevent;

	(void)display;
	switch (ev->type) {
	case GenericEvent:
		/* GDK fetched the cookie's data before emitting. */
		if (ev->xcookie.extension != src->xi_opcode ||
		    !ev->xcookie.data)
			break;
		switch (ev->xcookie.evtype) {
		case XI_HierarchyChanged:
			read_devices(src);
			break;
		case XI_RawKeyPress:
		case XI_RawKeyRelease:
			note_raw_key(src, ev->xcookie.data);
			break;
		case XI_KeyPress:
		case XI_KeyRelease:
		case XI_ButtonPress:
		case XI_ButtonRelease:
		case XI_TouchBegin:
		case XI_TouchEnd:
			note_device_event(src, ev->xcookie.data);
			break;
		}
		break;
	/* Core input: another client's XSendEvent, never a device's. */
	case KeyPress:
		note(src, XI_KeyPress, ev->xkey.keycode, ev->xkey.time, FALSE);
		break;
	case KeyRelease:
		note(src, XI_KeyRelease, ev->xkey.keycode, ev->xkey.time,
		     FALSE);
		break;
	case ButtonPress:
		note(src, XI_ButtonPress, ev->xbutton.button, ev->xbutton.time,
		     FALSE);
		break;
	case ButtonRelease:
		note(src, XI_ButtonRelease, ev->xbutton.button,
		     ev->xbutton.time, FALSE);
		break;
	}
	return GDK_EVENT_PROPAGATE;
}

/*
 * Hear of every change of the server's devices (XI_HierarchyChanged) and
 * of every key pressed and released (the raw events) on the root window,
 * for all devices, added to what the display's client selected there
 * already (GDK selects the first too; a selection replaces the client's
 * last one).
 */
static void select_root_events(struct prompt_input_source *src)
{
	Window root = DefaultRootWindow(src->xdisplay);
	unsigned char bits[XIMaskLen(XI_LASTEVENT)] = { 0 };
	XIEventMask mask = {
		.deviceid = XIAllDevices,
		.mask_len = sizeof(bits),
		.mask = bits,
	};
	XIEventMask *selected;
	int i, j, n = 0;

	selected = XIGetSelectedEvents(src->xdisplay, root, &n);
	for (i = 0; selected && i < n; i++) {
		if (selected[i].deviceid != XIAllDevices)
			continue;
		for (j = 0; j < selected[i].mask_len && j < mask.mask_len; j++)
			bits[j] |= selected[i].mask[j];
	}
	if (selected)
		XFree(selected);
	XISetMask(bits, XI_HierarchyChanged);
	XISetMask(bits, XI_RawKeyPress);
	XISetMask(bits, XI_RawKeyRelease);
	XISelectEvents(src->xdisplay, root, &mask, 1);
}

struct prompt_input_source *prompt_input_source_new(GdkDisplay *display)
{
	struct prompt_input_source *src;
	int event, error;

	if (!GDK_IS_X11_DISPLAY(display))
		return NULL;
	src = g_new0(struct prompt_input_source, 1);
	src->display = g_object_ref(display);
	src->xdisplay = gdk_x11_display_get_xdisplay(display);
	/*
	 * GDK asked for XInput2 already (GTK 4 needs it on X11; a second,
	 * different version asked would be an error).  Without it every
	 * event is untraced, so synthetic.
	 */
	if (!XQueryExtension(src->xdisplay, "XInputExtension", &src->xi_opcode,
			     &event, &error))
		src->xi_opcode = -1;
	src->xtest_property = XInternAtom(src->xdisplay, "XTEST Device", False);
	if (src->xi_opcode >= 0) {
		select_root_events(src);
		read_devices(src);
	}
	/* Keys down already: pressed by whom, no event says. */
	XQueryKeymap(src->xdisplay, (char *)src->synthetic_keys);
	src->handler =
		g_signal_connect(display, "xevent", G_CALLBACK(on_xevent), src);
	return src;
}

/* The XInput2 event type and detail @event was translated from. */
static gboolean xi_event_of(GdkEvent *event, int *evtype, unsigned int *detail)
{
	switch (gdk_event_get_event_type(event)) {
	case GDK_KEY_PRESS:
		*evtype = XI_KeyPress;
		*detail = gdk_key_event_get_keycode(event);
		return TRUE;
	case GDK_KEY_RELEASE:
		*evtype = XI_KeyRelease;
		*detail = gdk_key_event_get_keycode(event);
		return TRUE;
	case GDK_BUTTON_PRESS:
		*evtype = XI_ButtonPress;
		*detail = gdk_button_event_get_button(event);
		return TRUE;
	case GDK_BUTTON_RELEASE:
		*evtype = XI_ButtonRelease;
		*detail = gdk_button_event_get_button(event);
		return TRUE;
	/* GDK's sequence is the XInput2 touch id. */
	case GDK_TOUCH_BEGIN:
		*evtype = XI_TouchBegin;
		*detail = GPOINTER_TO_UINT(gdk_event_get_event_sequence(event));
		return TRUE;
	case GDK_TOUCH_END:
		*evtype = XI_TouchEnd;
		*detail = GPOINTER_TO_UINT(gdk_event_get_event_sequence(event));
		return TRUE;
	default:
		return FALSE;
	}
}

gboolean prompt_input_synthetic(const struct prompt_input_source *src,
				GdkEvent *event)
{
	gboolean traced = FALSE;
	unsigned int detail, i;
	int evtype;
	guint32 time;

	if (!src)
		return FALSE;
	if (!event || !xi_event_of(event, &evtype, &detail))
		return TRUE;
	time = gdk_event_get_time(event);
	for (i = 0; i < NOTED_EVENTS; i++) {
		const struct noted_event *e = &src->noted[i];

		if (e->evtype != evtype || e->detail != detail ||
		    e->time != time)
			continue;
		/* Two alike at the same millisecond: both must be a device's. */
		if (!e->from_device)
			return TRUE;
		traced = TRUE;
	}
	return !traced;
}

void prompt_input_source_free(struct prompt_input_source *src)
{
	if (!src)
		return;
	g_signal_handler_disconnect(src->display, src->handler);
	g_object_unref(src->display);
	g_free(src);
}

#else /* !GDK_WINDOWING_X11: no client makes another's input */

struct prompt_input_source *prompt_input_source_new(GdkDisplay *display)
{
	(void)display;
	return NULL;
}

gboolean prompt_input_synthetic(const struct prompt_input_source *src,
				GdkEvent *event)
{
	(void)src;
	(void)event;
	return FALSE;
}

void prompt_input_source_free(struct prompt_input_source *src)
{
	(void)src;
}

#endif
