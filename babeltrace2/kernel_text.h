/*
 * kernel_text.h - a kernel event's text as evtrace report prints it: by
 * the print fmt of its format file, which rides in the event class's
 * model.emf.uri, through the engine's printer (kernel_print.h).
 */
#ifndef EVT_BT2_KERNEL_TEXT_H
#define EVT_BT2_KERNEL_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include <babeltrace2/babeltrace.h>

/* The printers of the event classes seen so far. */
struct evt_bt2_kernels;

void evt_bt2_kernels_free(struct evt_bt2_kernels *k);
/*
 * The text of a kernel event of class cls (named name, its format file
 * format) with this payload, of task tid on cpu, into out: its length,
 * or -1 to leave it to the fields as name=value.  *k is made on first use.
 */
int evt_bt2_kernel_text(struct evt_bt2_kernels **k, const bt_event_class *cls,
			const char *name, const char *format,
			const bt_field *payload, uint32_t tid, uint16_t cpu,
			char *out, size_t out_size);

#endif
