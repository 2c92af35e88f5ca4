/*
 * demo.c - a small program instrumented with trace_printk(): four worker
 * threads, a forked child, and a plugin library opened with dlopen().
 *
 *   evtrace record -o trace -- ./demo 1000
 *   evtrace report trace
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <evtrace/evtrace.h>

#define NTHREADS 4

static int iterations = 10;

static void *worker(void *arg)
{
	int id = (int)(long)arg, i;
	char comm[16];

	snprintf(comm, sizeof(comm), "kworker/%d", id);
	for (i = 0; i < iterations; i++)
		trace_printk("migrate task %s:%d\n", comm, 1000 * id + i);
	return NULL;
}

static void run_plugin(const char *self)
{
	char path[PATH_MAX];
	const char *slash = strrchr(self, '/');
	void (*plugin_run)(int);
	void *h;

	snprintf(path, sizeof(path), "%.*slibdemo_plugin.so",
		 slash ? (int)(slash - self + 1) : 0, self);
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "demo: %s\n", dlerror());
		return;
	}
	plugin_run = (void (*)(int))dlsym(h, "plugin_run");
	if (plugin_run)
		plugin_run(iterations);
	dlclose(h);
}

int main(int argc, char **argv)
{
	pthread_t threads[NTHREADS];
	char self[PATH_MAX];
	ssize_t n;
	pid_t child;
	long i;

	if (argc > 1)
		iterations = atoi(argv[1]);
	ftrace_printk("demo starts: %d threads, %d iterations\n", NTHREADS,
		      iterations);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&threads[i], NULL, worker, (void *)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(threads[i], NULL);

	child = fork();
	if (child == 0) {
		trace_printk("child %d of %d says hello\n", (int)getpid(),
			     (int)getppid());
		_exit(0);
	}
	waitpid(child, NULL, 0);

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	run_plugin(self);
	trace_printk("demo done, pi is %.5f\n", 3.14159265);
	return 0;
}
