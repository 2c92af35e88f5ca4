/*
 * kernel_print.h - kernel events printed as the kernel prints them: by
 * the "print fmt" of their format file, through libtraceevent, as
 * trace-cmd report shows them (sched_switch's prev_state=D, __print_flags,
 * __print_symbolic, pointers in hex); the syscalls/ events in strace's
 * notation (syscall_text.h) instead of their print fmt's hex.
 *
 * A trace keeps each kernel event's format file (the index's
 * kernel-format lines); a record is rebuilt from evtrace's payload into
 * the kernel's layout (the common fields: its type, and the task as pid)
 * and printed.  A record that does not fit its format is left to the
 * field=value text.
 */
#ifndef EVT_ENGINE_KERNEL_PRINT_H
#define EVT_ENGINE_KERNEL_PRINT_H

#include "trace_reader.h"

/* What evt_trace_reader_kernel_printer() takes: a program that reads
 * traces registers it once. */
extern const struct evt_kernel_printer_ops evt_kernel_print_ops;

struct evt_kernel_print;

/* A printer of the events whose format files are texts[i] (NULL: none,
 * printed as field=value), of paths[i]; NULL when none can be. */
struct evt_kernel_print *evt_kernel_print_new(char *const *paths,
					      char *const *texts, unsigned n);
void evt_kernel_print_free(struct evt_kernel_print *p);
/* Event i's record in evtrace's layout (a trace's payload) of task tid:
 * its text's length, or -1 when it cannot be printed. */
int evt_kernel_print_payload(struct evt_kernel_print *p, unsigned i,
			     const uint8_t *payload, size_t size, uint32_t tid,
			     uint16_t cpu, char *out, size_t out_size);
/* Event i's format in evtrace's terms (what a payload holds), or NULL. */
const struct evt_event_format *evt_kernel_print_format(const struct evt_kernel_print *p,
						      unsigned i);
/* Event i's record from the kernel's raw bytes (perf's PERF_SAMPLE_RAW):
 * its text's length, or -1 when it cannot be printed. */
int evt_kernel_print_raw(struct evt_kernel_print *p, unsigned i,
			 const uint8_t *raw, size_t raw_size, uint16_t cpu,
			 char *out, size_t out_size);

#endif
