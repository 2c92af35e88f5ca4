/*
 * consumer_served.h - what evtraced's consumer sessions call besides
 * consumer.h: a flight consumer's window and triggers written into
 * directories the client handed over as fds (/proc/self/fd/N), named in
 * messages as the client names them.  Not exported by libevtrace-consumer.
 */
#ifndef EVT_CONSUMER_SERVED_H
#define EVT_CONSUMER_SERVED_H

#include <evtrace/consumer.h>

/* evt_consumer_window() into dir, an empty directory that exists (the
 * client made it). */
int evt_served_consumer_window(struct evt_consumer *c, const char *dir,
			       uint64_t before_ns, char *err, size_t err_size);

/* evt_consumer_arm(), its windows' directory named dir_name in what the
 * consumer says. */
int evt_served_consumer_arm(struct evt_consumer *c,
			    const struct evt_consumer_triggers *t,
			    const char *dir_name, char *err, size_t err_size);

#endif
