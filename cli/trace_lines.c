/*
 * trace_lines.c - the ordered, strace-like output of evtrace trace (see
 * trace_lines.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "syscall_set.h"
#include "syscall_text.h"
#include "trace_lines.h"

enum kind { TEXT, GONE, ENTER, EXIT, LET_GO };

/* A call's text: six arguments' memory, each a path of up to 4096 bytes
 * escaped, fit. */
#define CALL_BYTES (128u << 10)

struct line {
	struct trace_when w;
	char comm[17];
	uint64_t seq;		/* ties keep arrival order */
	enum kind kind;
	long nr;
	uint64_t args[6];
	int64_t ret;
	char *text;
	size_t len;
	char *mem[6];		/* an argument's memory as text, or NULL */
};

static void free_mem(struct line *x)
{
	unsigned i;

	for (i = 0; i < 6; i++) {
		free(x->mem[i]);
		x->mem[i] = NULL;
	}
}

static void take_mem(struct line *x, const char *const *mem)
{
	unsigned i;

	for (i = 0; mem && i < 6; i++)
		x->mem[i] = mem[i] ? strdup(mem[i]) : NULL;
}

/* The texts of a call whose exit copied some (out) over those of its
 * entry. */
static void merge_mem(const char **to, const struct line *enter,
		      const struct line *exit)
{
	unsigned i;

	for (i = 0; i < 6; i++)
		to[i] = exit && exit->mem[i] ? exit->mem[i] : enter->mem[i];
}

/* A call of a thread whose result is still to come. */
#define TASKS_SEEN 1024

struct pending {
	struct line enter;
	bool shown;		/* printed as <unfinished ...> */
};

/* v[head .. n) are the lines held back, v[head .. sorted) in order. */
struct trace_lines {
	struct line *v;
	size_t head, sorted, n, cap;
	uint64_t seq;
	struct pending *p;
	size_t np, pcap;
	struct evt_syscall_text *text;
	uint64_t syscalls;
	FILE *out;
	size_t unflushed;	/* bytes in out's buffer, about */
	const bool *want;	/* by nr; NULL: all */
	bool quiet;
	bool for_client;
	int64_t last_ns;	/* of the last line shown */
	/* Tasks seen entering a call, by tid modulo TASKS_SEEN (a collision
	 * forgets one): an exit without its entry is then a call whose
	 * entry the kernel never reported (a seccomp filter stopped it),
	 * not one that began before trace looked. */
	uint32_t entered[TASKS_SEEN];
	struct call_stats {
		uint64_t calls, errors;
		int64_t ns;
	} stats[EVT_SYSCALL_NR_MAX];
};

struct trace_lines *trace_lines_new(FILE *out)
{
	struct trace_lines *l = calloc(1, sizeof(*l));

	if (l && !(l->text = evt_syscall_text_new())) {
		free(l);
		l = NULL;
	}
	if (l)
		l->out = out;
	return l;
}

void trace_lines_only(struct trace_lines *l, const bool *want)
{
	l->want = want;
}

void trace_lines_for_client(struct trace_lines *l)
{
	l->for_client = true;
}

void trace_lines_quiet(struct trace_lines *l, bool quiet)
{
	l->quiet = quiet;
}

static bool wanted(const struct trace_lines *l, long nr)
{
	return nr >= 0 && nr < EVT_SYSCALL_NR_MAX && (!l->want || l->want[nr]);
}

/* A call seen whole or in part: ns < 0 when its start was not. */
static void count_call(struct trace_lines *l, long nr, int64_t ret, int64_t ns)
{
	struct call_stats *c = &l->stats[nr];

	c->calls++;
	if (ret < 0 && ret >= -4095)
		c->errors++;
	if (ns > 0)
		c->ns += ns;
}

struct summary_row {
	long nr;
	const struct call_stats *c;
};

static int by_time_spent(const void *a, const void *b)
{
	const struct summary_row *x = a, *y = b;

	if (x->c->ns != y->c->ns)
		return x->c->ns > y->c->ns ? -1 : 1;
	if (x->c->calls != y->c->calls)
		return x->c->calls > y->c->calls ? -1 : 1;
	return x->nr < y->nr ? -1 : 1;
}

void trace_lines_summary(const struct trace_lines *l, FILE *out)
{
	static const char rule[] = "------ ----------- ----------- --------- "
				   "--------- ----------------\n";
	struct summary_row rows[EVT_SYSCALL_NR_MAX];
	uint64_t calls = 0, errors = 0;
	int64_t ns = 0;
	size_t n = 0, i;
	char name[64];

	for (long nr = 0; nr < EVT_SYSCALL_NR_MAX; nr++)
		if (l->stats[nr].calls) {
			rows[n++] = (struct summary_row){ nr, &l->stats[nr] };
			calls += l->stats[nr].calls;
			errors += l->stats[nr].errors;
			ns += l->stats[nr].ns;
		}
	qsort(rows, n, sizeof(*rows), by_time_spent);
	const char *mark = l->for_client ? "#" : "";

	fprintf(out, "%s%% time     seconds  usecs/call     calls    errors syscall\n%s%s",
		mark, mark, rule);
	for (i = 0; i < n; i++) {
		const struct call_stats *c = rows[i].c;

		fprintf(out, "%s%6.2f %11.6f %11" PRIu64 " %9" PRIu64 " ", mark,
			ns ? 100.0 * (double)c->ns / (double)ns : 0.0, c->ns / 1e9,
			(uint64_t)(c->ns / 1000) / c->calls, c->calls);
		if (c->errors)
			fprintf(out, "%9" PRIu64, c->errors);
		else
			fprintf(out, "%9s", "");
		fprintf(out, " %s\n", evt_syscall_text_name(rows[i].nr, name, sizeof(name)));
	}
	fprintf(out, "%s%s%s%6.2f %11.6f %11" PRIu64 " %9" PRIu64 " ", mark, rule,
		mark, n ? 100.0 : 0.0, ns / 1e9,
		calls ? (uint64_t)(ns / 1000) / calls : 0, calls);
	if (errors)
		fprintf(out, "%9" PRIu64, errors);
	else
		fprintf(out, "%9s", "");
	fprintf(out, " total\n");
	fflush(out);
}

void trace_lines_free(struct trace_lines *l)
{
	size_t i;

	if (!l)
		return;
	for (i = l->head; i < l->n; i++) {
		free(l->v[i].text);
		free_mem(&l->v[i]);
	}
	for (i = 0; i < l->np; i++)
		free_mem(&l->p[i].enter);
	free(l->v);
	free(l->p);
	evt_syscall_text_free(l->text);
	free(l);
}

static struct line *add(struct trace_lines *l, const struct trace_when *w,
			enum kind kind)
{
	struct line *x;

	if (l->n == l->cap && l->head) {	/* room at the front */
		memmove(l->v, l->v + l->head, (l->n - l->head) * sizeof(*l->v));
		l->n -= l->head;
		l->sorted -= l->head;
		l->head = 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 1024;
		struct line *grown = realloc(l->v, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		l->v = grown;
		l->cap = cap;
	}
	x = &l->v[l->n++];
	memset(x, 0, sizeof(*x));
	x->w = *w;
	snprintf(x->comm, sizeof(x->comm), "%s", w->comm ? w->comm : "?");
	x->w.comm = NULL;
	x->seq = l->seq++;
	x->kind = kind;
	return x;
}

static void add_text(struct trace_lines *l, const struct trace_when *w,
		     enum kind kind, const char *text, size_t len)
{
	struct line *x = add(l, w, kind);

	if (!x)
		return;
	x->text = malloc(len ? len : 1);
	if (x->text)
		memcpy(x->text, text, len);
	x->len = x->text ? len : 0;
}

void trace_lines_text(struct trace_lines *l, const struct trace_when *w,
		      const char *text, size_t len)
{
	add_text(l, w, TEXT, text, len);
}

void trace_lines_let_go(struct trace_lines *l, uint32_t pid, uint64_t ts)
{
	size_t i;

	for (i = l->head; i < l->n; i++)
		if (l->v[i].kind == TEXT && l->v[i].w.pid == pid && l->v[i].w.ts >= ts)
			l->v[i].kind = LET_GO;
}

void trace_lines_gone(struct trace_lines *l, const struct trace_when *w,
		      const char *text, size_t len)
{
	add_text(l, w, GONE, text, len);
}

void trace_lines_enter(struct trace_lines *l, const struct trace_when *w,
		       long nr, const uint64_t args[6], const char *const *mem)
{
	struct line *x = wanted(l, nr) ? add(l, w, ENTER) : NULL;

	if (x) {
		x->nr = nr;
		memcpy(x->args, args, sizeof(x->args));
		take_mem(x, mem);
	}
}

void trace_lines_exit(struct trace_lines *l, const struct trace_when *w,
		      long nr, int64_t ret, const char *const *mem)
{
	/* (-1: rt_sigreturn's, whose registers it restored) */
	struct line *x = wanted(l, nr) || nr == -1 ? add(l, w, EXIT) : NULL;

	if (x) {
		x->nr = nr;
		x->ret = ret;
		take_mem(x, mem);
	}
}

uint64_t trace_lines_syscalls(const struct trace_lines *l)
{
	return l->syscalls;
}

/*
 * The output may be shared with the command (stderr, as strace's), whose
 * output lands between what write(2) puts out; its buffer
 * (TRACE_OUTPUT_BUFFER) is written out before it is half full, so always
 * at the end of a line.
 */
static void line_out(struct trace_lines *l, const char *comm, uint32_t tid,
		     uint16_t cpu, int64_t ns, const char *text, size_t len)
{
	if (ns > l->last_ns)
		l->last_ns = ns;
	if (l->quiet)
		return;
	if (l->for_client)
		fprintf(l->out, "%" PRId64 " %u %u %s\t%.*s\n", ns, tid, cpu, comm,
			(int)len, text);
	else
		cli_fprint_line(l->out, comm, tid, cpu, ns, text, len);
	l->unflushed += len + 64;
	if (l->unflushed >= TRACE_OUTPUT_BUFFER / 2) {
		fflush(l->out);
		l->unflushed = 0;
	}
}

static void put(struct trace_lines *l, const struct line *x, int64_t ns,
		const char *text)
{
	line_out(l, x->comm, x->w.tid, x->w.cpu, ns, text, strlen(text));
}

static void show_unfinished(struct trace_lines *l, struct pending *p)
{
	char call[CALL_BYTES], text[CALL_BYTES + 100];

	evt_syscall_text_call(l->text, p->enter.nr, p->enter.args,
			      (const char *const *)p->enter.mem, call, sizeof(call));
	snprintf(text, sizeof(text), "%s <unfinished ...>", call);
	put(l, &p->enter, p->enter.w.ns, text);
	p->shown = true;
}

static struct pending *pending_of(struct trace_lines *l, uint32_t tid)
{
	size_t i;

	for (i = 0; i < l->np; i++)
		if (l->p[i].enter.w.tid == tid)
			return &l->p[i];
	return NULL;
}

static void drop_pending(struct trace_lines *l, struct pending *p)
{
	free_mem(&p->enter);
	*p = l->p[--l->np];
}

/* A call that never returned (its thread ended, it called another, or
 * the trace's end came first), at time ns. */
static void show_unreturned(struct trace_lines *l, struct pending *p, int64_t ns)
{
	char call[CALL_BYTES], name[64], text[CALL_BYTES + 100];

	count_call(l, p->enter.nr, 0, -1);
	if (p->shown) {
		snprintf(text, sizeof(text), "<... %s resumed> = ?",
			 evt_syscall_text_name(p->enter.nr, name, sizeof(name)));
	} else {
		evt_syscall_text_call(l->text, p->enter.nr, p->enter.args,
				      (const char *const *)p->enter.mem, call, sizeof(call));
		snprintf(text, sizeof(text), "%s = ?", call);
	}
	put(l, &p->enter, ns, text);
	drop_pending(l, p);
}

/* The strings up to NULL, one after the other, cut to fit out. */
static void join(char *out, size_t size, ...)
{
	const char *s;
	size_t n = 0, len;
	va_list ap;

	va_start(ap, size);
	while ((s = va_arg(ap, const char *)) && n + 1 < size) {
		len = strlen(s);
		if (len > size - 1 - n)
			len = size - 1 - n;
		memcpy(out + n, s, len);
		n += len;
	}
	va_end(ap);
	out[n] = '\0';
}

/* A call's duration as strace's -T shows it, "%.6f" of its seconds,
 * without floating point (a line's most costly part otherwise). */
static const char *seconds(char out[32], int64_t ns)
{
	uint64_t us = ns < 0 ? 0 : ((uint64_t)ns + 500) / 1000, s = us / 1000000;
	char *at = out + 31;
	int i;

	*at = '\0';
	for (i = 0; i < 6; i++, us /= 10)
		*--at = (char)('0' + us % 10);
	*--at = '.';
	do {
		*--at = (char)('0' + s % 10);
		s /= 10;
	} while (s);
	return at;
}

static void show_exit(struct trace_lines *l, const struct line *x)
{
	struct pending *p = pending_of(l, x->w.tid);
	char call[CALL_BYTES], ret[128], text[CALL_BYTES + 200], dur[32];
	const char *mem[6];

	evt_syscall_text_ret(x->nr, x->ret, ret, sizeof(ret));
	count_call(l, x->nr, x->ret, p && p->enter.nr == x->nr ?
				    x->w.ns - p->enter.w.ns : -1);
	if ((!p || p->enter.nr != x->nr) &&
	    l->entered[x->w.tid % TASKS_SEEN] == x->w.tid) {
		/* never entered: strace's "getppid() = 110", the arguments
		 * unknown ("?") */
		static const char *const unknown[6] = { "?", "?", "?", "?", "?", "?" };

		evt_syscall_text_call(l->text, x->nr, x->args, unknown, call, sizeof(call));
		join(text, sizeof(text), call, " = ", ret, NULL);
		put(l, x, x->w.ns, text);
		return;
	}
	if (!p || p->enter.nr != x->nr) {	/* entered before we looked */
		evt_syscall_text_resumed(l->text, x->nr, x->args,
					 (const char *const *)x->mem, call, sizeof(call));
		join(text, sizeof(text), call, " = ", ret, NULL);
		put(l, x, x->w.ns, text);
		return;
	}
	if (p->shown) {
		evt_syscall_text_resumed(l->text, x->nr, p->enter.args,
					 (const char *const *)x->mem, call, sizeof(call));
		join(text, sizeof(text), call, " = ", ret, " <",
		     seconds(dur, x->w.ns - p->enter.w.ns), ">", NULL);
		put(l, x, x->w.ns, text);
	} else {
		merge_mem(mem, &p->enter, x);
		evt_syscall_text_call(l->text, x->nr, p->enter.args, mem, call,
				      sizeof(call));
		join(text, sizeof(text), call, " = ", ret, " <",
		     seconds(dur, x->w.ns - p->enter.w.ns), ">", NULL);
		put(l, &p->enter, p->enter.w.ns, text);
	}
	drop_pending(l, p);
}

static bool never_returns(long nr)
{
	char name[64];

	evt_syscall_text_name(nr, name, sizeof(name));
	return !strcmp(name, "exit") || !strcmp(name, "exit_group");
}

static void show(struct trace_lines *l, struct line *x)
{
	struct pending *p;
	size_t i;

	if (x->kind == LET_GO)	/* (not shown, not even as interrupting) */
		return;
	/* Calls begun before this line and not over are shown unfinished,
	 * so that lines stay in time order. */
	for (i = 0; i < l->np; i++)
		if (!l->p[i].shown && !(x->kind == EXIT && l->p[i].enter.w.tid == x->w.tid))
			show_unfinished(l, &l->p[i]);
	switch (x->kind) {
	case LET_GO:
		break;
	case GONE:	/* a thread that died in a call: strace's "= ?" */
		if ((p = pending_of(l, x->w.tid)))
			show_unreturned(l, p, x->w.ns);
		/* fall through */
	case TEXT:
		line_out(l, x->comm, x->w.tid, x->w.cpu, x->w.ns, x->text, x->len);
		break;
	case ENTER:
		if ((p = pending_of(l, x->w.tid)))
			show_unreturned(l, p, x->w.ns);
		l->syscalls++;
		l->entered[x->w.tid % TASKS_SEEN] = x->w.tid;
		if (never_returns(x->nr)) {
			char call[CALL_BYTES], text[CALL_BYTES + 100];

			count_call(l, x->nr, 0, -1);
			evt_syscall_text_call(l->text, x->nr, x->args,
					      (const char *const *)x->mem, call, sizeof(call));
			snprintf(text, sizeof(text), "%s = ?", call);
			put(l, x, x->w.ns, text);
			break;
		}
		if (l->np == l->pcap) {
			size_t cap = l->pcap ? l->pcap * 2 : 16;
			struct pending *grown = realloc(l->p, cap * sizeof(*grown));

			if (!grown)
				return;
			l->p = grown;
			l->pcap = cap;
		}
		l->p[l->np++] = (struct pending){ .enter = *x };
		l->p[l->np - 1].enter.text = NULL;
		memset(x->mem, 0, sizeof(x->mem));	/* the pending's now */
		break;
	case EXIT:
		/* rt_sigreturn restores the registers, its number too: the
		 * kernel's exit record of it says -1. */
		if (x->nr == -1 && (p = pending_of(l, x->w.tid)) &&
		    p->enter.nr == SYS_rt_sigreturn)
			x->nr = p->enter.nr;
		if (x->nr >= 0)
			show_exit(l, x);
		break;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->w.ts != y->w.ts)
		return x->w.ts < y->w.ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Puts the lines added since the last call in order among those held:
 * sorted by themselves, then, when some are earlier than what was held
 * (one source ran behind the other), merged with the held lines they
 * overtake, which are few.
 */
static void order(struct trace_lines *l)
{
	size_t lo = l->head, hi = l->sorted, k, a, b, o;
	struct line *tmp;

	if (l->n > l->sorted)
		qsort(l->v + l->sorted, l->n - l->sorted, sizeof(*l->v), by_time);
	if (l->sorted == l->head || l->n == l->sorted ||
	    by_time(&l->v[l->sorted - 1], &l->v[l->sorted]) <= 0) {
		l->sorted = l->n;
		return;
	}
	while (lo < hi) {	/* the first held line after the first new one */
		size_t mid = (lo + hi) / 2;

		if (by_time(&l->v[mid], &l->v[l->sorted]) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	k = lo;
	tmp = malloc((l->n - k) * sizeof(*tmp));
	if (!tmp) {		/* the slow way */
		qsort(l->v + l->head, l->n - l->head, sizeof(*l->v), by_time);
		l->sorted = l->n;
		return;
	}
	for (a = k, b = l->sorted, o = 0; a < l->sorted || b < l->n; o++)
		tmp[o] = b == l->n || (a < l->sorted && by_time(&l->v[a], &l->v[b]) <= 0) ?
			 l->v[a++] : l->v[b++];
	memcpy(l->v + k, tmp, (l->n - k) * sizeof(*tmp));
	free(tmp);
	l->sorted = l->n;
}

void trace_lines_print(struct trace_lines *l, uint64_t ts, bool final)
{
	order(l);
	while (l->head < l->n && (final || l->v[l->head].w.ts <= ts) &&
	       !ferror(l->out)) {
		show(l, &l->v[l->head]);
		free(l->v[l->head].text);
		free_mem(&l->v[l->head]);
		l->head++;
	}
	if (l->head == l->n)
		l->head = l->sorted = l->n = 0;
	while (final && l->np)
		show_unreturned(l, &l->p[0], l->last_ns);
	fflush(l->out);
	l->unflushed = 0;
}
