/*
 * syscall_loop.c - W5, the command under a system call tracer: N rounds
 * of getppid(2) and a 16-byte write(2) to /dev/null, then the time per
 * system call: "ns <ns per call> calls <2N>".  Not linked with evtrace.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, i;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	static const char buf[16] = "evtrace bench  ";
	struct timespec a, b;

	if (fd < 0 || n <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		syscall(SYS_getppid);
		if (write(fd, buf, sizeof(buf)) != sizeof(buf))
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("ns %.1f calls %ld\n",
	       ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (2.0 * n),
	       2 * n);
	return 0;
}
