/*
 * live_kernel.h - the kernel half of a live stream: the kernel events its
 * patterns name (kernel/...), sampled (kernel_sampler.h) in the process
 * the stream watches and the children it forks, or on every CPU for a
 * stream of every process, and handed over as the stream's own events:
 * the kernel's print fmt as text (kernel_print.h), the fields in
 * evtrace's layout.
 *
 * The sampler of a running perf session cannot take more events, so each
 * add that names events not sampled yet starts a sampler of its own for
 * them; a remove stops handing an event over (the stream drains what came
 * before it first), and a sampler left with no event wanted is drained no
 * more and closed by evt_live_kernel_release(), once the stream has
 * handed over its events.
 */
#ifndef EVT_ENGINE_LIVE_KERNEL_H
#define EVT_ENGINE_LIVE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "clock.h"
#include "live_stream.h"

struct evt_live_kernel;

/* For the threads of pid and its children (0: every CPU), on clock
 * (which must outlive it); NULL without memory. */
struct evt_live_kernel *evt_live_kernel_new(int pid,
					    const struct evt_clock_calibration *clock);
/*
 * Adds or removes the kernel events pattern names.  After an add, how
 * many it names (the kernel's refusal, explained, is -1 with err set);
 * after a remove, 0, or -1 with err set when none of them was added.
 */
int evt_live_kernel_select(struct evt_live_kernel *k, bool add,
			   const char *pattern, char *err, size_t err_size);
/* Wants exactly the events the rules decide on (default.rules' kernel
 * lines, evt_default_rules_kernel()) for its pid.  0, or -1 with err set
 * (the kernel's refusal of those not sampled before). */
struct evt_rules;
int evt_live_kernel_want_rules(struct evt_live_kernel *k,
			       const struct evt_rules *r, char *err,
			       size_t err_size);
/* Whether any kernel event is wanted. */
bool evt_live_kernel_any(const struct evt_live_kernel *k);
/* Hands what the rings hold to cb as events (and each loss as a line
 * without path), valid until the next drain, each sampler's in its time
 * order; how many samplers handed some (sources for the caller's sort). */
size_t evt_live_kernel_drain(struct evt_live_kernel *k, evt_live_cb cb,
			     void *ctx);
/* Closes the samplers left with no event wanted: their events (their
 * paths, formats and layouts) are gone. */
void evt_live_kernel_release(struct evt_live_kernel *k);
/* Calls cb for each kernel event wanted: its path and its format in
 * evtrace's syntax, with EVT_NO_ID (kernel events have no global id). */
int evt_live_kernel_events(struct evt_live_kernel *k,
			   void (*cb)(uint32_t id, const char *path,
				      const char *format, void *ctx),
			   void *ctx);
void evt_live_kernel_free(struct evt_live_kernel *k);

#endif
