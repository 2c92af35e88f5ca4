/*
 * trace_remote.c - evtrace trace through evtraced, for a user the kernel
 * refuses the system call events: the command, held before its exec, is
 * released once evtraced's worker has attached to it, and the worker's
 * lines (records "<ns> <tid> <cpu> <comm>\t<text>", "#" for -c's table,
 * "W <ns>" watermarks) are merged with the command's own events.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cli.h"
#include "trace.h"

/*
 * Whether the kernel refuses this user the system call events (Debian's
 * default kernel.perf_event_paranoid 2 without CAP_PERFMON): then
 * evtraced traces the user's own processes for them.
 */
bool trace_kernel_refuses_syscalls(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2];
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int paranoid = 2;

	if (geteuid() == 0)
		return false;
	if (f) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	if (paranoid < 2)
		return false;
	if (!syscall(SYS_capget, &head, caps) &&
	    (caps[CAP_PERFMON / 32].effective & (1u << (CAP_PERFMON % 32)) ||
	     caps[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32))))
		return false;
	return true;
}

/* A worker's record line: "<ns> <tid> <cpu> <comm>\t<text>", or a table
 * line after "#". */
static void remote_line(struct trace *t, char *line)
{
	struct trace_when w = { 0 };
	char *tab = strchr(line, '\t'), comm[17] = "?";
	long long ns;
	unsigned tid, cpu;

	if (line[0] == 'W' && sscanf(line, "W %lld", &ns) == 1) {
		t->remote_upto = evt_clock_from_monotonic_ns(t->clock, ns);
		return;
	}
	if (line[0] == '#') {
		size_t n = strlen(line + 1);
		char *grown = realloc(t->table, t->ntable + n + 2);

		if (grown) {
			t->table = grown;
			memcpy(t->table + t->ntable, line + 1, n);
			t->ntable += n;
			t->table[t->ntable++] = '\n';
			t->table[t->ntable] = '\0';
		}
		return;
	}
	if (!tab || sscanf(line, "%lld %u %u %16s", &ns, &tid, &cpu, comm) != 4)
		return;
	w.ns = ns;
	w.ts = evt_clock_from_monotonic_ns(t->clock, ns);
	w.tid = tid;
	w.cpu = (uint16_t)cpu;
	w.comm = comm;
	trace_lines_text(t->lines, &w, tab + 1, strlen(tab + 1));
}

/* One frame from evtraced: lines ('o'), messages ('e', but the one that
 * says the worker attached, which *attached notes), the end ('x').
 * -1 when the connection ended. */
int trace_remote_frame(struct trace *t, int timeout_ms, bool *attached)
{
	static char buf[EVT_PROTO_MAX_BODY + 1];
	char err[200], *line, *nl;
	long n;

	n = evt_proto_recv(t->sock, buf, NULL, timeout_ms, err, sizeof(err));
	if (n < 1) {
		cli_error("trace", "evtraced ended the connection (%s)",
			  n == -2 ? "did it stop?" : err);
		return -1;
	}
	buf[n] = '\0';
	switch (buf[0]) {
	case 'o': {
		char *all = malloc(t->npartial + (size_t)n);

		if (!all)
			return 0;
		if (t->npartial)
			memcpy(all, t->partial, t->npartial);
		memcpy(all + t->npartial, buf + 1, (size_t)n);	/* with the NUL */
		for (line = all; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			remote_line(t, line);
		}
		free(t->partial);
		t->npartial = strlen(line);
		t->partial = strdup(line);
		free(all);
		break;
	}
	case 'e':
		if (attached && strstr(buf + 1, " attached\n"))
			*attached = true;
		else
			fputs(buf + 1, stderr);
		break;
	case 'x':
		t->remote_status = atoi(buf + 1);
		break;
	}
	return 0;
}

/* cli_spawn's hook through evtraced: asks it to trace the command held
 * before its exec, and releases it once evtraced says it is attached. */
int trace_remote_command(pid_t child, void *ctx)
{
	static char body[EVT_PROTO_MAX_BODY + 1];
	struct trace *t = ctx;
	bool attached = false;
	int len;

	t->req->pids[0] = child;
	t->req->npids = 1;
	len = evt_proto_format(t->req, body, sizeof(body));
	if (len < 0)
		return cli_error("trace", "the request is too long for evtraced"), -1;
	if (evt_proto_send(t->sock, body, (size_t)len, -1))
		return cli_error("trace", "evtraced: %s", strerror(errno)), -1;
	while (!attached && t->remote_status < 0)
		if (trace_remote_frame(t, 10000, &attached))
			return -1;
	return attached ? 0 : -1;
}
