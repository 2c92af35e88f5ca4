/*
 * shm_guard.c - a SIGBUS handler for shared mappings that may shrink (see
 * shm_guard.h).
 *
 * The handler reads a table of ranges without a lock: the table only ever
 * grows by being copied into a bigger one, published with a release
 * store, and an old table is never freed, so a handler running on any
 * thread sees a whole table.  Ranges are added and removed under a mutex.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shm_guard.h"

struct range {
	uintptr_t base;			/* 0: a free entry */
	size_t size;
	volatile int *flag;
	void (*on_fault)(void);
};

struct table {
	unsigned cap;
	struct table *older;		/* kept: a handler may be reading it */
	struct range r[];
};

static struct table *current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous;
static int installed;

/* What the process would have done without us. */
static void chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction dfl;

	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, si, uc);
		return;
	}
	if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
		return;
	}
	/* Default: a fault retried after return is fatal as it was; a
	 * signal sent by kill() is raised again to take effect. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGBUS, &dfl, NULL);
	if (si->si_code <= 0)
		raise(SIGBUS);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct table *t = __atomic_load_n(&current, __ATOMIC_ACQUIRE);
	uintptr_t a = (uintptr_t)si->si_addr;
	unsigned i;

	if (t && si->si_code == BUS_ADRERR) {
		for (i = 0; i < t->cap; i++) {
			struct range *r = &t->r[i];
			uintptr_t base = __atomic_load_n(&r->base, __ATOMIC_ACQUIRE);
			int saved;

			if (!base || a < base || a - base >= r->size)
				continue;
			saved = errno;
			if (mmap((void *)base, r->size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
			    MAP_FAILED)
				break;
			*r->flag = 1;
			if (r->on_fault)
				r->on_fault();
			errno = saved;
			return;
		}
	}
	chain(sig, si, uc);
}

static int install_locked(void)
{
	struct sigaction sa;

	if (installed)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &previous))
		return -1;
	installed = 1;
	return 0;
}

int evt_shm_guard_add(void *base, size_t size, volatile int *flag,
		      void (*on_fault)(void))
{
	struct table *t, *grown;
	unsigned i, cap;
	int ret = -1;

	pthread_mutex_lock(&lock);
	if (install_locked())
		goto out;
	t = current;
	for (i = 0; t && i < t->cap; i++)
		if (!t->r[i].base)
			break;
	if (!t || i == t->cap) {
		cap = t ? 2 * t->cap : 16;
		grown = calloc(1, sizeof(*grown) + cap * sizeof(grown->r[0]));
		if (!grown)
			goto out;
		grown->cap = cap;
		grown->older = t;
		if (t)
			memcpy(grown->r, t->r, t->cap * sizeof(t->r[0]));
		__atomic_store_n(&current, grown, __ATOMIC_RELEASE);
		t = grown;
	}
	t->r[i].size = size;
	t->r[i].flag = flag;
	t->r[i].on_fault = on_fault;
	__atomic_store_n(&t->r[i].base, (uintptr_t)base, __ATOMIC_RELEASE);
	ret = 0;
out:
	pthread_mutex_unlock(&lock);
	return ret;
}

void evt_shm_guard_remove(void *base)
{
	struct table *t;
	unsigned i;

	pthread_mutex_lock(&lock);
	t = current;
	for (i = 0; t && i < t->cap; i++)
		if (t->r[i].base == (uintptr_t)base)
			__atomic_store_n(&t->r[i].base, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
}
