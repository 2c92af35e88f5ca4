# A thin wrapper: every target calls meson or ninja.  `make demo` and
# `make check` install missing Debian build dependencies when run as root.
BUILD      ?= build
ASAN_BUILD ?= build-asan
DEB_DEPS   := meson ninja-build pkg-config gcc g++ clang libc6-dev babeltrace2 python3 python3-bt2 python3-pandas \
              libtracefs-dev libtraceevent-dev fuse3 libfuse3-dev \
              libbabeltrace2-dev lttng-tools abigail-tools libsqlite3-dev sqlite3 \
              protobuf-compiler trace-cmd libbpf-dev libelf-dev systemtap-sdt-dev xz-utils

.PHONY: all deps demo check check-load check-fast check-loop check-release check-tsan bench fuzz clean install abi-baseline

all: $(BUILD)/build.ninja
	ninja -C $(BUILD)

deps:
	@missing=""; for p in $(DEB_DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "missing Debian packages:$$missing (run 'make deps' as root)"; exit 1; \
		fi; \
	fi

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD)

$(ASAN_BUILD)/build.ninja: | deps
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all -Dbuildtype=debug

demo: all
	cd $(BUILD) && ./cli/evtrace record -o demo-trace -- ./examples/demo 5 && \
		./cli/evtrace report demo-trace
	cd $(BUILD) && ./cli/evtrace record -e sched -e stable -o sched-trace -- ./examples/sched 2 && \
		./cli/evtrace report sched-trace && \
		./cli/evtrace abi-check ../abi/stable sched-trace

# Every test once; then, under ASan+UBSan, all but the timing and scale
# ones (the suite 'slow') and those of the machine's rules (the suite
# 'once', tests/meson.build).  The parallel suite mostly
# waits on processes: two tests a CPU (the serial and slow ones run alone
# whatever this says).
TEST_JOBS ?= $(shell echo $$((2 * $$(nproc))))
check: all $(ASAN_BUILD)/build.ninja
	meson test -C $(BUILD) --print-errorlogs --num-processes $(TEST_JOBS)
	ninja -C $(ASAN_BUILD)
	@# (a sanitized build runs 2 to 5 times slower: its hang bound, the
	@# tests' 120 s, 3 times longer)
	meson test -C $(ASAN_BUILD) --print-errorlogs --no-suite slow --no-suite once \
		--num-processes $(TEST_JOBS) --timeout-multiplier 3

# make check with both CPUs kept busy by two loops at nice 5, as a
# developer's build or CI's other jobs keep them: what the suite must
# pass too.
check-load: all $(ASAN_BUILD)/build.ninja
	@nice -n 5 sh -c 'while :; do :; done' & a=$$!; \
	nice -n 5 sh -c 'while :; do :; done' & b=$$!; \
	$(MAKE) check; s=$$?; kill $$a $$b; exit $$s

# The suite LOOPS times (default 10), stopping at the first failure: for
# flakes.
LOOPS ?= 10
check-loop: all
	for i in $$(seq $(LOOPS)); do \
		echo "check-loop: run $$i of $(LOOPS)"; \
		meson test -C $(BUILD) --print-errorlogs -q --num-processes $(TEST_JOBS) || exit 1; \
	done

# What packagers build first, with the project's -Werror: meson's release
# build, and Debian's flags (-O2, LTO, hardening).  Built, not tested.
DEB_CFLAGS := -g -O2 -flto=auto -ffat-lto-objects -fstack-protector-strong \
              -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2
check-release: | deps
	[ -f build-release/build.ninja ] || meson setup build-release -Dbuildtype=release
	ninja -C build-release
	[ -f build-debian/build.ninja ] || CFLAGS="$(DEB_CFLAGS)" \
		LDFLAGS="-flto=auto -Wl,-z,relro -Wl,-z,now" meson setup build-debian -Dbuildtype=plain
	ninja -C build-debian

# ThreadSanitizer on the tests the ASan+UBSan pass runs (not the timing
# and scale ones, nor those run once); a few that count a program's exact
# system calls skip there, saying why.  Not part of make check (its
# 3.5 minutes); CI runs it after.
check-tsan: | deps
	[ -f build-tsan/build.ninja ] || meson setup build-tsan -Db_sanitize=thread \
		-Db_lundef=false -Dbuildtype=debug
	ninja -C build-tsan
	meson test -C build-tsan --print-errorlogs --no-suite slow --no-suite once \
		--num-processes $(TEST_JOBS) --timeout-multiplier 3

check-fast: all
	meson test -C $(BUILD) --print-errorlogs

# The peers are installed from Debian when missing (as root), then rebuilt in.
BENCH_DEPS := valgrind bc time g++ liblttng-ust-dev lttng-tools systemtap-sdt-dev strace linux-perf
bench: | deps
	@missing=""; for p in $(BENCH_DEPS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing && \
		{ [ ! -f $(BUILD)/build.ninja ] || meson setup --reconfigure $(BUILD); }; \
	fi
	@# A build set up before sys/sdt.h was there keeps meson's cached "no"
	@# (a reconfigure does not ask again): set it up anew, or the USDT
	@# rows are missing.
	@if echo '#include <sys/sdt.h>' | $(CC) -E -x c - >/dev/null 2>&1 && \
	    [ -f $(BUILD)/build.ninja ] && ! grep -q HAVE_SDT $(BUILD)/build.ninja; then \
		meson setup --wipe $(BUILD); \
	fi
	$(MAKE) all
	ninja -C $(BUILD) bench/w4_traced bench/w4_plain bench/w4d_traced bench/w4d_plain \
		$$(ninja -C $(BUILD) -t targets all | grep -o '^bench/w4d\?_usdt' | sort -u)
	NANOLOG="$(NANOLOG)" sh bench/run.sh $(BUILD)

# Each libFuzzer harness for FUZZ_SECONDS (not part of make check).  All
# the code is built with coverage for libFuzzer (fuzzer-no-link), not the
# harnesses alone: else it fuzzes blind.
FUZZ_SECONDS ?= 60
fuzz: | deps
	[ -f build-fuzz/build.ninja ] || CC=clang meson setup build-fuzz -Dfuzz=true
	meson configure build-fuzz -Db_lundef=false -Db_sanitize=address,undefined \
		-Dc_args="['-fsanitize=fuzzer-no-link','-fno-sanitize-recover=all']"
	# (the harnesses and what makes their seeds: C sites test their
	# bytes with gcc only, so some test programs build with gcc alone)
	ninja -C build-fuzz $$(for f in fuzz_rules fuzz_printk_format fuzz_trace_index \
		fuzz_span_pairs fuzz_protocol fuzz_relay_reply; do echo engine/$$f; done) \
		cli/fuzz_trace_readers engine/fuzz_trigger_expr cli/evtrace tests/spans tests/tracee
	for f in fuzz_rules fuzz_printk_format fuzz_trace_index fuzz_span_pairs fuzz_protocol fuzz_relay_reply; do \
		./build-fuzz/engine/$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 || exit 1; \
	done
	# record's --trigger expressions, from one of each kind.
	rm -rf build-fuzz/triggers && mkdir -p build-fuzz/triggers
	printf 'span request > 150ms' >build-fuzz/triggers/span
	printf 'svc/failure if code == 28' >build-fuzz/triggers/field
	printf 'printk/app/** if arg0 != "x"' >build-fuzz/triggers/string
	printf 'kernel/sched/sched_switch if prev_pid > 3' >build-fuzz/triggers/kernel
	printf 'lost' >build-fuzz/triggers/lost
	./build-fuzz/engine/fuzz_trigger_expr -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		build-fuzz/triggers
	# The whole-trace readers start from a real trace's index and stream
	# (spans, async messages for --align, counters, printk, typed fields).
	rm -rf build-fuzz/seeds && mkdir -p build-fuzz/seeds build-fuzz/corpus
	./build-fuzz/cli/evtrace record -o build-fuzz/seeds/spans -- ./build-fuzz/tests/spans 2 >/dev/null
	./build-fuzz/cli/evtrace record -o build-fuzz/seeds/types -- ./build-fuzz/tests/tracee types >/dev/null
	for t in spans types; do \
		{ cat build-fuzz/seeds/$$t/evtrace/index; printf '\0'; \
		  cat build-fuzz/seeds/$$t/stream_*; } >build-fuzz/corpus/$$t; \
	done
	./build-fuzz/cli/fuzz_trace_readers -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-close_fd_mask=2 build-fuzz/corpus

# The shared libraries' ABI as shared_library_abi_is_unchanged compares
# it: made again only when a change of it is meant (then bump the version).
abi-baseline: all
	abidw --no-show-locs --no-corpus-path --drop-private-types --headers-dir include/evtrace \
		$(BUILD)/libevtrace.so.0 >abi/libs/libevtrace.abi
	abidw --no-show-locs --no-corpus-path --drop-private-types --headers-dir include/evtrace \
		$(BUILD)/engine/libevtrace-consumer.so.0 >abi/libs/libevtrace-consumer.abi

# PREFIX=DIR installs there, libraries in DIR/lib (default: meson's,
# /usr/local, and the machine's multiarch directory); build/ keeps it.
install: all
	$(if $(PREFIX),meson configure $(BUILD) -Dprefix=$(abspath $(PREFIX)) -Dlibdir=lib && ninja -C $(BUILD) &&) \
		meson install -C $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz build-tsan build-release build-debian
