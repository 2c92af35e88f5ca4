/*
 * unit_ring.c - lib/'s writer (tests/progs/ring_writer.c) against the
 * engine's ring reader (engine/control/ring.c), with no recorder: this
 * test claims a slot, switches the writer's events on and reads its
 * buffer itself.  Every event read must be the next one written, none
 * twice, and every event not read counted as lost.
 *
 *   wrap     block mode, a buffer of two packets read while written:
 *            200,000 events through it, none lost;
 *   loss     discard mode, written with nobody reading: what fit is
 *            read, the rest counted exactly, and the next packet says so;
 *   crash    a writer killed inside a record: everything before it is
 *            read, nothing of it;
 *   hostile  the dead writer's buffer damaged four ways: each is refused
 *            with its reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "live.h"
#include "record.h"
#include "ring.h"
#include "slots.h"
#include "unit.h"

extern char **environ;

#define PACKET (16u << 10)
#define COUNT 2u

struct writer {
	pid_t pid;
	FILE *to, *from;
	char dir[64];
	struct evt_rundir rd;
	struct evt_ctl *c;
	int lock_fd;
	unsigned number, slot;
};

/* What the reader took from the buffer so far. */
struct reader {
	uint64_t seq;		/* packet being read */
	uint32_t off;		/* in it; 0 before its header */
	struct evt_hdr_state hs;
	long next;		/* the value the next event must carry */
	uint64_t discarded;	/* the last packet header's count */
	uint64_t named;		/* lost events evtrace/lost records named */
	uint32_t named_site;	/* the site of the last one */
	uint8_t named_cause;	/* and its cause */
	uint64_t packets;
	const char *why;	/* the buffer was refused */
	struct evt_ring_packet open;	/* the open packet, as last read */
};

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void say(struct writer *w, const char *cmd)
{
	fprintf(w->to, "%s\n", cmd);
	fflush(w->to);
}

static bool answer(struct writer *w, const char *want)
{
	char line[64];

	if (!fgets(line, sizeof(line), w->from))
		return false;
	line[strcspn(line, "\n")] = '\0';
	CHECK_STR(line, want);
	return !strcmp(line, want);
}

static int stop(struct writer *w);

/* Starts the writer in a run directory of its own, and makes slot mode
 * ours in it with every event on. */
static int start_writer(struct writer *w, const char *prog, uint32_t mode,
			uint32_t block_us)
{
	int in[2], out[2];
	char env_dir[96], err[512];
	char *argv[] = { (char *)prog, NULL };
	/* (under a sanitizer, the crash case's SIGSEGV must kill it as it
	 * would) */
	char *envp[] = { env_dir, "ASAN_OPTIONS=handle_segv=0",
			 "TSAN_OPTIONS=handle_segv=0", NULL };
	posix_spawn_file_actions_t fa;
	struct evt_ctl **ctls;
	int n, slot;
	uint32_t id;

	memset(w, 0, sizeof(*w));
	w->lock_fd = -1;
	snprintf(w->dir, sizeof(w->dir), "/dev/shm/evt-unit-ring-XXXXXX");
	if (!mkdtemp(w->dir) || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		return perror("setup"), -1;
	snprintf(env_dir, sizeof(env_dir), "EVTRACE_RUNDIR=%s", w->dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (posix_spawn(&w->pid, prog, &fa, NULL, argv, envp))
		return perror(prog), -1;
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	w->to = fdopen(in[1], "w");
	w->from = fdopen(out[0], "r");
	if (!answer(w, "ready"))
		return -1;
	if (evt_rundir_open(&w->rd, w->dir, 0, err, sizeof(err)))
		return fprintf(stderr, "%s\n", err), -1;
	n = evt_rundir_open_live(&w->rd, w->pid, NULL, NULL, &ctls);
	CHECK(n == 1);
	if (n != 1)
		return -1;
	w->c = ctls[0];
	free(ctls);
	slot = evt_slot_claim(&w->rd, 0x5eed, "unit_ring", &w->lock_fd, err,
			      sizeof(err));
	if (slot < 0)
		return fprintf(stderr, "%s\n", err), -1;
	w->number = (unsigned)slot;
	slot = evt_slot_take(&w->rd, w->c, 0x5eed, NULL, NULL, 0);
	if (slot < 0)
		return fprintf(stderr, "no slot free in the writer\n"), -1;
	w->slot = (unsigned)slot;
	evt_slot_attach(w->c, w->slot, w->number, 0x5eed, block_us, mode,
			PACKET, COUNT);
	for (id = 0; id < w->c->nevents; id++)
		evt_ctl_set_enable(w->c, id, w->slot, true);
	CHECK(w->c->nevents == 3);	/* ftrace/print and its two sites */
	return 0;
}

/* start_writer(), or a failed check and nothing left behind. */
static int start(struct writer *w, const char *prog, uint32_t mode,
		 uint32_t block_us)
{
	if (!start_writer(w, prog, mode, block_us))
		return 0;
	CHECK(!"writer started");
	stop(w);
	return -1;
}

static int stop(struct writer *w)
{
	int status = -1;
	DIR *d;
	struct dirent *e;

	if (w->to)
		fclose(w->to);
	if (w->from)
		fclose(w->from);
	if (w->pid > 0)
		waitpid(w->pid, &status, 0);
	if (w->c)
		evt_ctl_close(w->c);
	if (w->lock_fd >= 0)
		close(w->lock_fd);
	evt_rundir_close(&w->rd);
	if ((d = opendir(w->dir))) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(w->dir);
	return status;
}

/* The buffer of w's thread for our slot, geometry checked. */
static bool ring_of(struct writer *w, struct evt_ring *r)
{
	uint32_t i, found = 0, gen = w->c->slots[w->slot].gen;
	struct evt_ring any;

	for (i = 0; i < w->c->h.max_tbufs; i++)
		if (evt_ring_open(&any, w->c, i, w->slot, &gen, false) &&
		    found++ == 0)
			*r = any;
	if (found == 0)
		return false;
	CHECK(found == 1);	/* one thread writes */
	CHECK(evt_ring_map(r, w->c));
	return true;
}

/* One record: it must be event "n=<x->next> pad=<n % 23 letters>". */
static bool check_record(struct writer *w, struct reader *x,
			 const struct evt_record *rec)
{
	const struct evt_ctl_event *ev = &w->c->events[rec->id];
	char text[256], want[128];
	int len = evt_record_render(rec, &ev->layout, ev->format, text,
				    sizeof(text));

	snprintf(want, sizeof(want), "n=%ld pad=%.*s\n", x->next,
		 (int)(x->next % 23), "abcdefghijklmnopqrstuvw");
	if (len < 0 || strcmp(text, want)) {
		fprintf(stderr, "event read: \"%s\", written next: \"%s\"\n",
			len < 0 ? "(unreadable)" : text, want);
		return false;
	}
	x->next++;
	return true;
}

/*
 * Reads w's buffer from where x stopped to what is committed, handing
 * closed packets back.  false when a record is not the one written next,
 * or the buffer was refused (x->why).
 */
static bool read_ring(struct writer *w, struct reader *x)
{
	struct evt_ring r;
	struct evt_ring_packet p;
	struct evt_record rec;
	uint64_t produced;

	if (!ring_of(w, &r))
		return true;	/* no buffer yet */
	for (;;) {
		produced = evt_ring_produced(&r);
		if (x->seq > produced)
			return x->why = "reader ahead of produced", false;
		switch (evt_ring_packet(&r, x->seq, produced, &p, &x->why)) {
		case EVT_RING_BROKEN:
			return false;
		case EVT_RING_MOVED:
			continue;
		case EVT_RING_EMPTY:
			return true;
		case EVT_RING_PACKET:
			break;
		}
		if (x->off == 0) {
			/* Events lost since the last packet: the values
			 * skip as many. */
			if (p.h.events_discarded > x->discarded)
				x->next += (long)(p.h.events_discarded - x->discarded);
			x->discarded = p.h.events_discarded;
			x->off = sizeof(p.h);
			evt_hdr_reset(&x->hs);
			x->packets++;
		}
		while (x->off < p.end) {
			struct evt_lost_entry lost;

			if (evt_record_header(p.data + x->off, p.end - x->off,
					      &x->hs, &rec))
				return x->why = "record unreadable", false;
			if (rec.id == EVT_LOST_EVENT_ID) {
				if (evt_record_lost(&rec, p.end - x->off, &lost) ||
				    (lost.cause != EVT_LOSS_FULL &&
				     lost.cause != EVT_LOSS_BLOCK_TIMEOUT))
					return x->why = "lost record unreadable", false;
				x->named += lost.count;
				x->named_site = lost.site;
				x->named_cause = (uint8_t)lost.cause;
				x->off += rec.header_bytes + rec.payload_size;
				continue;
			}
			if (rec.id >= w->c->nevents ||
			    evt_record_payload(&rec, &w->c->events[rec.id].layout,
					       p.end - x->off))
				return x->why = "record unreadable", false;
			if (!check_record(w, x, &rec))
				return false;
			x->off += rec.header_bytes + rec.payload_size;
		}
		if (p.open) {
			x->open = p;
			return true;
		}
		x->seq++;
		x->off = 0;
		evt_ring_hand_back(&r, x->seq);
	}
}

static void test_wrap(const char *prog)
{
	struct writer w;
	struct reader x = { 0 };
	struct evt_ring r;
	struct timespec t0;
	const long total = 200000;

	if (start(&w, prog, EVT_MODE_DISCARD, EVT_BLOCK_MAX_US))
		return;
	say(&w, "write 0 200000");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (x.next < total && elapsed_ms(&t0) < 20000)
		if (!read_ring(&w, &x))
			break;
	CHECK(x.why == NULL);
	CHECK(x.next == total);
	CHECK(answer(&w, "ok"));
	/* Wrapped round the two packets many times, losing nothing. */
	CHECK(x.packets > 50 * COUNT);
	CHECK(ring_of(&w, &r) && evt_ring_lost(&r) == 0 && x.discarded == 0);
	CHECK(stop(&w) == 0);
}

static void test_loss(const char *prog)
{
	struct writer w;
	struct reader x = { 0 };
	struct evt_ring r;
	long fit;
	uint64_t lost;

	if (start(&w, prog, EVT_MODE_DISCARD, 0))
		return;
	say(&w, "write 0 100000");
	CHECK(answer(&w, "ok"));
	CHECK(read_ring(&w, &x));
	fit = x.next;
	CHECK(ring_of(&w, &r));
	lost = evt_ring_lost(&r);
	/* Two packets' worth was kept, every other event counted. */
	CHECK(fit > 100 && fit < 10000);
	CHECK(lost == (uint64_t)(100000 - fit));
	/* Room again: the next packet says how many were lost, and the
	 * values go on after the gap. */
	say(&w, "write 100000 1000");
	CHECK(answer(&w, "ok"));
	CHECK(read_ring(&w, &x));
	CHECK(x.why == NULL);
	CHECK(x.discarded == lost);
	CHECK(x.next == 101000);
	/* ... and whose they were: the one site the writer writes. */
	CHECK(x.named == lost);
	CHECK(x.named_site < w.c->nevents &&
	      !strcmp(w.c->events[x.named_site].format, "n=%ld pad=%.*s\n"));
	CHECK(stop(&w) == 0);
}

/* Bumps the slot's heartbeat, as a live recorder does, until told. */
struct beating {
	struct writer *w;
	bool stop;			/* atomic: set by the test */
};

/* (3 s at most: a writer that waits when it must not is then let go,
 * and the test fails instead of hanging.) */
static void *beat(void *arg)
{
	struct beating *b = arg;
	struct timespec tick = { 0, 10 * 1000 * 1000 }, t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!__atomic_load_n(&b->stop, __ATOMIC_RELAXED) && elapsed_ms(&t0) < 3000) {
		__atomic_fetch_add(&b->w->c->slots[b->w->slot].heartbeat, 1,
				   __ATOMIC_RELAXED);
		nanosleep(&tick, NULL);
	}
	return NULL;
}

/*
 * --block=inf: a writer whose buffer is full waits as long as its
 * recorder's heartbeat moves, past the stall bound; once it stops moving,
 * the writer waits the bound, then drops and counts (block timeout); a
 * write in a signal handler never waits, and drops (buffer full).
 */
static void test_block_inf(const char *prog)
{
	struct writer w;
	struct reader x = { 0 };
	struct beating b = { .w = &w };
	struct timespec t0;
	pthread_t beater;
	long ms, fit;
	uint64_t lost;

	if (start(&w, prog, EVT_MODE_DISCARD, EVT_BLOCK_INF))
		return;
	/* A recorder that lives and reads nothing for 1.5 s (past the
	 * 1 s bound): the writer waits all of it, loses nothing. */
	CHECK(pthread_create(&beater, NULL, beat, &b) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	say(&w, "write 0 20000");
	while (elapsed_ms(&t0) < 1500)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	while (x.next < 20000 && elapsed_ms(&t0) < 20000)
		if (!read_ring(&w, &x))
			break;
	CHECK(answer(&w, "ok"));
	ms = elapsed_ms(&t0);
	CHECK(x.why == NULL && x.next == 20000 && x.discarded == 0);
	CHECK(ms >= 1500);
	__atomic_store_n(&b.stop, true, __ATOMIC_RELAXED);
	pthread_join(beater, NULL);
	/* It stops: the writer waits the bound once, then drops. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	say(&w, "write 20000 20000");
	CHECK(answer(&w, "ok"));
	ms = elapsed_ms(&t0);
	CHECK(ms >= (long)EVT_BLOCK_STALL_MS && ms < 5 * (long)EVT_BLOCK_STALL_MS);
	CHECK(read_ring(&w, &x));
	fit = x.next - 20000;
	CHECK(fit > 100 && fit < 10000);
	/* Room again: the next packet names what was dropped, and why. */
	say(&w, "write 40000 10");
	CHECK(answer(&w, "ok"));
	CHECK(read_ring(&w, &x) && x.why == NULL);
	CHECK(x.discarded == (uint64_t)(20000 - fit) && x.next == 40010);
	CHECK(x.named == x.discarded && x.named_cause == EVT_LOSS_BLOCK_TIMEOUT);
	lost = x.discarded;
	/* A signal handler's writes, a live recorder reading nothing: no
	 * wait at all, the rest dropped as a full buffer's. */
	b.stop = false;
	CHECK(pthread_create(&beater, NULL, beat, &b) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	say(&w, "handler 40010 20000");
	CHECK(answer(&w, "ok"));
	ms = elapsed_ms(&t0);
	__atomic_store_n(&b.stop, true, __ATOMIC_RELAXED);
	pthread_join(beater, NULL);
	CHECK(ms < (long)EVT_BLOCK_STALL_MS / 2);
	CHECK(read_ring(&w, &x));
	fit = x.next - 40010;
	say(&w, "write 60010 10");
	CHECK(answer(&w, "ok"));
	CHECK(read_ring(&w, &x) && x.why == NULL && x.next == 60020);
	CHECK(x.discarded == lost + (uint64_t)(20000 - fit));
	CHECK(x.named == x.discarded && x.named_cause == EVT_LOSS_FULL);
	CHECK(stop(&w) == 0);
}

/* Damages one field of the dead writer's buffer, reads it anew, puts the
 * field back; the read must be refused for why. */
static void refused(struct writer *w, void *field, size_t size,
		    uint64_t bad, const char *why)
{
	struct reader x = { 0 };
	uint8_t saved[8];

	memcpy(saved, field, size);
	memcpy(field, &bad, size);
	CHECK(!read_ring(w, &x));
	CHECK_STR(x.why ? x.why : "(read)", why);
	memcpy(field, saved, size);
}

static void test_crash_and_hostile(const char *prog)
{
	struct writer w;
	struct reader x = { 0 };
	struct evt_record rec;
	struct evt_hdr_state hs;
	struct evt_ring r;
	struct evt_packet_header *h0;
	int status;

	if (start(&w, prog, EVT_MODE_DISCARD, 0))
		return;
	say(&w, "write 0 1000");
	CHECK(answer(&w, "ok"));
	say(&w, "crash");
	waitpid(w.pid, &status, 0);
	w.pid = 0;
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	CHECK(read_ring(&w, &x));
	CHECK(x.why == NULL);
	CHECK(x.next == 1000);
	CHECK(x.packets == 2);	/* one closed, the open one */
	/* It died inside a record: one was begun past the commit (its
	 * header, of the crashing site), and not read. */
	CHECK(x.open.open && x.open.end < PACKET);
	hs = x.hs;
	CHECK(evt_record_header(x.open.data + x.open.end, PACKET - x.open.end,
				&hs, &rec) == 0);
	CHECK(rec.id < w.c->nevents &&
	      strstr(w.c->events[rec.id].format, "pad=%s"));

	CHECK(ring_of(&w, &r));
	h0 = (struct evt_packet_header *)(void *)r.packets;
	refused(&w, &h0->magic, sizeof(h0->magic), 0xdead, "bad packet header");
	refused(&w, &h0->content_size, sizeof(h0->content_size),
		(uint64_t)(PACKET + 8) * 8, "content size out of bounds");
	refused(&w, &r.d->commit, sizeof(r.d->commit), PACKET + 1,
		"commit out of bounds");
	refused(&w, &r.d->produced, sizeof(r.d->produced), 1 + 5 * COUNT,
		"impossible produced count");
	/* A geometry past the arena: the buffer is not mapped at all. */
	{
		uint32_t count = r.d->packet_count;

		r.d->packet_count = EVT_PACKETS_MAX * 2;
		CHECK(!evt_ring_map(&r, w.c));
		r.d->packet_count = count;
		CHECK(evt_ring_map(&r, w.c));
	}
	/* Put back, it reads whole again. */
	memset(&x, 0, sizeof(x));
	CHECK(read_ring(&w, &x) && x.next == 1000);
	stop(&w);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: unit_ring RING_WRITER\n"), 2;
	signal(SIGPIPE, SIG_IGN);
	test_wrap(argv[1]);
	test_loss(argv[1]);
	test_block_inf(argv[1]);
	test_crash_and_hostile(argv[1]);
	UNIT_DONE();
}
