/*
 * coroutine.cc - a C++20 coroutine whose span suspends on one thread and
 * ends on another: an async span, its id the coroutine's own, for
 * tests/cxx_coroutine_spans.sh.  Prints "begin TID" and "end TID".
 */
#include <evtrace/evtrace.h>
#include <coroutine>
#include <cstdio>
#include <thread>
#include <unistd.h>
#include <sys/syscall.h>

/* An awaitable that resumes the coroutine on a new thread. */
struct on_new_thread {
	std::thread *t;
	bool await_ready() const noexcept { return false; }
	/* Nothing of the awaiter, which lives in the coroutine's frame, is
	 * touched once the thread runs: it may end the coroutine and free
	 * the frame before the assignment is done. */
	void await_suspend(std::coroutine_handle<> h)
	{
		std::thread *out = t;

		*out = std::thread([h] { h.resume(); });
	}
	void await_resume() const noexcept {}
};
struct task {
	struct promise_type {
		task get_return_object() { return {}; }
		std::suspend_never initial_suspend() noexcept { return {}; }
		std::suspend_never final_suspend() noexcept { return {}; }
		void return_void() {}
		void unhandled_exception() {}
	};
};
static task work(std::thread *t, int n)
{
	/* The span's id: this coroutine's, whatever thread it is on. */
	const uint64_t id = reinterpret_cast<uintptr_t>(t);
	trace_async_begin("fetch", id, "n=%d", n);
	std::printf("begin %ld\n", syscall(SYS_gettid));
	co_await on_new_thread{ t };
	std::printf("end %ld\n", syscall(SYS_gettid));
	trace_async_end("fetch", id);
}
int main()
{
	std::thread t;
	work(&t, 3);
	t.join();
	return 0;
}
