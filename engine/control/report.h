/*
 * report.h - how the engine tells what went wrong that is not an error of
 * the call at hand: a process it cannot follow, a bad buffer, a file it
 * skipped.  The engine is a library: a front end (the CLI, the daemon, the
 * filesystem view) chooses where these go; by default, standard error as
 * "evtrace: <message>".
 */
#ifndef EVT_ENGINE_REPORT_H
#define EVT_ENGINE_REPORT_H

/* Receives one message, without a trailing newline. */
typedef void (*evt_report_cb)(const char *message, void *ctx);

/* Where messages go from now on; NULL: back to standard error. */
void evt_report_set(evt_report_cb cb, void *ctx);

/* A destination of messages: cb NULL is the process's (evt_report_set). */
struct evt_report_to {
	evt_report_cb cb;
	void *ctx;
};

/* Where this thread's messages go until it says otherwise (a library
 * front end, consumer.h, around each call into the engine); returns where
 * they went before. */
struct evt_report_to evt_report_thread(struct evt_report_to to);
void evt_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
