/*
 * trace_pipe.c - the default collection's events as consumed text (see
 * trace_pipe.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_pipe.h"

#define QUEUE_MAX (1u << 20)
#define POLL_NS (20 * 1000 * 1000)

struct evt_pipe {
	char rundir[4096];
	int pid;
	evt_pipe_line_fn line;
	pthread_t thread;
	bool started;

	pthread_mutex_t stream_mu;	/* the stream: made, read, let go of */
	struct evt_live_stream *stream;

	pthread_mutex_t mu;		/* what follows */
	pthread_cond_t arrived;
	char *queue;			/* whole lines from head to len */
	size_t head, len, cap;
	unsigned readers;
	bool closing;
};

int evt_pipe_create(const char *rundir, int pid, evt_pipe_line_fn line,
		    struct evt_pipe **out)
{
	struct evt_pipe *p = calloc(1, sizeof(*p));
	pthread_condattr_t attr;

	if (!p)
		return -1;
	snprintf(p->rundir, sizeof(p->rundir), "%s", rundir);
	p->pid = pid;
	p->line = line;
	pthread_mutex_init(&p->stream_mu, NULL);
	pthread_mutex_init(&p->mu, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->arrived, &attr);
	pthread_condattr_destroy(&attr);
	*out = p;
	return 0;
}

/* Appends text to the queue, moving what is left to the front first. */
static void enqueue(struct evt_pipe *p, const char *text, size_t n)
{
	if (p->head) {
		memmove(p->queue, p->queue + p->head, p->len - p->head);
		p->len -= p->head;
		p->head = 0;
	}
	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap : 65536;
		char *grown;

		while (cap < p->len + n)
			cap *= 2;
		grown = realloc(p->queue, cap);
		if (!grown)
			return;	/* the lines are dropped: out of memory */
		p->queue = grown;
		p->cap = cap;
	}
	memcpy(p->queue + p->len, text, n);
	p->len += n;
}

struct text {
	struct evt_pipe *p;
	FILE *f;
};

static void to_text(const struct evt_live_event *e, void *ctx)
{
	struct text *t = ctx;

	t->p->line(t->f, e);
}

/* One round: reads what the processes committed since the last one.
 * Whether more was left in the buffers than a round takes. */
static bool fill(struct evt_pipe *p)
{
	bool more = false;
	bool want;
	char *text = NULL;
	size_t n = 0;
	struct text t = { .p = p };

	pthread_mutex_lock(&p->stream_mu);
	pthread_mutex_lock(&p->mu);
	want = p->readers > 0 && p->len - p->head < QUEUE_MAX;
	if (!p->readers && p->stream) {
		evt_live_stream_destroy(p->stream);
		p->stream = NULL;
	}
	pthread_mutex_unlock(&p->mu);
	if (want && p->stream && (t.f = open_memstream(&text, &n))) {
		evt_live_stream_poll(p->stream, to_text, &t);
		more = evt_live_stream_more(p->stream);
		fclose(t.f);
	}
	pthread_mutex_unlock(&p->stream_mu);
	if (n) {
		pthread_mutex_lock(&p->mu);
		enqueue(p, text, n);
		pthread_cond_broadcast(&p->arrived);
		pthread_mutex_unlock(&p->mu);
	}
	free(text);
	return more;
}

static void *run(void *arg)
{
	struct evt_pipe *p = arg;
	struct timespec tick = { 0, POLL_NS };

	for (;;) {
		bool closing;

		pthread_mutex_lock(&p->mu);
		closing = p->closing;
		pthread_mutex_unlock(&p->mu);
		if (closing)
			break;
		if (!fill(p))	/* (more waiting: the next round at once) */
			nanosleep(&tick, NULL);
	}
	return NULL;
}

int evt_pipe_start(struct evt_pipe *p)
{
	int ret = pthread_create(&p->thread, NULL, run, p);

	if (ret) {
		errno = ret;
		return -1;
	}
	p->started = true;
	return 0;
}

int evt_pipe_open(struct evt_pipe *p, char *err, size_t err_size)
{
	int ret = 0;

	pthread_mutex_lock(&p->stream_mu);
	pthread_mutex_lock(&p->mu);
	if (p->readers >= EVT_PIPE_MAX_READERS) {
		snprintf(err, err_size, "%d readers have it open already",
			 EVT_PIPE_MAX_READERS);
		ret = -EBUSY;
	}
	pthread_mutex_unlock(&p->mu);
	if (!ret && !p->stream &&
	    evt_live_stream_create(p->rundir, p->pid, NULL, 0, &p->stream, err,
				   err_size))
		ret = errno == EWOULDBLOCK || errno == EAGAIN || errno == EBUSY ?
		      -EBUSY : -(errno ? errno : EIO);
	if (!ret) {
		pthread_mutex_lock(&p->mu);
		p->readers++;
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_unlock(&p->stream_mu);
	return ret;
}

void evt_pipe_release(struct evt_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	if (p->readers)
		p->readers--;
	pthread_mutex_unlock(&p->mu);
}

/* Where the lines that fit in size end (a longer first line: size). */
static size_t take(const struct evt_pipe *p, size_t size)
{
	size_t avail = p->len - p->head, n;
	const char *q = p->queue + p->head;

	if (avail <= size)
		return avail;
	for (n = size; n > 0 && q[n - 1] != '\n'; n--)
		;
	return n ? n : size;
}

static void unlock(void *mu)
{
	pthread_mutex_unlock(mu);
}

ssize_t evt_pipe_read(struct evt_pipe *p, char *buf, size_t size,
		      bool nonblock, bool (*interrupted)(void))
{
	volatile ssize_t ret = 0;	/* kept across the cancellation point */
	size_t n;

	pthread_mutex_lock(&p->mu);
	/* The filesystem's loop may cancel a waiting thread at its end. */
	pthread_cleanup_push(unlock, &p->mu);
	while (p->head == p->len && !p->closing) {
		struct timespec until;

		if (nonblock) {
			ret = -EAGAIN;
			break;
		}
		if (interrupted && interrupted()) {
			ret = -EINTR;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->arrived, &p->mu, &until);
	}
	if (!ret && p->head < p->len) {
		n = take(p, size);
		memcpy(buf, p->queue + p->head, n);
		p->head += n;
		ret = (ssize_t)n;
	}
	pthread_cleanup_pop(1);
	return ret;
}

void evt_pipe_shutdown(struct evt_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->closing = true;
	pthread_cond_broadcast(&p->arrived);
	pthread_mutex_unlock(&p->mu);
}

void evt_pipe_destroy(struct evt_pipe *p)
{
	if (!p)
		return;
	evt_pipe_shutdown(p);
	if (p->started)
		pthread_join(p->thread, NULL);
	evt_live_stream_destroy(p->stream);
	pthread_cond_destroy(&p->arrived);
	pthread_mutex_destroy(&p->mu);
	pthread_mutex_destroy(&p->stream_mu);
	free(p->queue);
	free(p);
}
