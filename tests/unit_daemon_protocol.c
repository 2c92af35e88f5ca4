/* evtraced's request parser and permission table, without a daemon. */
#include "layout.h"
#include "permission.h"
#include "protocol.h"
#include "unit.h"

static int parse(const char *text, struct evt_request *r, char *err)
{
	static char body[EVT_PROTO_MAX_BODY + 1];
	size_t len = strlen(text);

	memcpy(body, text, len);
	return evt_proto_parse(body, len, r, err, 300);
}

static void requests_round_trip(void)
{
	struct evt_request r, back;
	char buf[1024], err[300];
	int n;

	CHECK(parse("verb record\npid 12\npid 13\nevent typed\nevent sched/\n"
		    "overwrite 1\npacket-size 65536\npackets 4\n", &r, err) == 0);
	CHECK(r.verb == EVT_VERB_RECORD && r.npids == 2 && r.pids[1] == 13);
	CHECK(r.nevents == 2 && !strcmp(r.events[1], "sched/"));
	CHECK(r.overwrite && r.packet_size == 65536 && r.packet_count == 4);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0);
	CHECK(parse(buf, &back, err) == 0);
	CHECK(back.verb == r.verb && back.npids == 2 && back.nevents == 2);
	CHECK(evt_proto_format(&r, buf, 20) == -1);
	/* --block through the daemon: record and consume, a bound or inf. */
	CHECK(parse("verb record\npid 7\nevent typed\nblock-us 4294967295\n", &r, err) == 0 &&
	      r.block_us == EVT_BLOCK_INF);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "block-us 4294967295\n") != NULL);
	CHECK(parse("verb consume\npid 7\nblock-us 5000\n", &r, err) == 0 && r.block_us == 5000);
	CHECK(parse("verb record\npid 7\nblock-us 1000001\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: not 1 to 1000000, or 4294967295");
	CHECK(parse("verb stream\npid 7\nevent typed\nblock-us 5000\n", &r, err) < 0);
	CHECK_STR(err, "stream: block-us is for record and consume, not with overwrite or count");
	CHECK(parse("verb consume\npid 7\ncount 1\nblock-us 5000\n", &r, err) < 0);
	/* stream -F: a filter whole, its pattern checked as an event's. */
	CHECK(parse("verb stream\npid 7\nfilter typed/all if u32 >= 9\n", &r, err) == 0);
	CHECK(r.nfilters == 1 && !strcmp(r.filters[0], "typed/all if u32 >= 9"));
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "filter typed/all if u32 >= 9\n") != NULL);
	{
		char pattern[64];

		CHECK(evt_proto_filter_pattern(r.filters[0], pattern, sizeof(pattern)) &&
		      !strcmp(pattern, "typed/all"));
		CHECK(!evt_proto_filter_pattern(r.filters[0], pattern, 4));
	}
	CHECK(parse("verb record\npid 7\nfilter typed/all if u32 >= 9\n", &r, err) < 0);
	CHECK_STR(err, "record: filter is for stream");
	CHECK(parse("verb stream\npid 7\nfilter kernel/sched/sched_switch if prev_pid == 0\n",
		    &r, err) < 0);
	CHECK(strstr(err, "evtraced does not open them for anyone") != NULL);
	CHECK(parse("verb ls\npid 7\nformats 1\nids 1\n", &r, err) == 0);
	CHECK(r.verb == EVT_VERB_LS && r.formats && r.ids && !r.path);
	CHECK(parse("verb count\npid 7\nids 1\n", &r, err) < 0);
	CHECK(parse("verb consume\npid 7\ncount 1\n", &r, err) == 0 && r.count);
	CHECK(parse("verb consume\npid 7\npid 8\n", &r, err) < 0);
	CHECK_STR(err, "consume: one pid, and count, relay, block-us, overwrite or nothing");
	CHECK(parse("verb add\nid 12\n", &r, err) == 0 && r.has_id && r.id == 12);
	CHECK(parse("verb add\nid 12\nevent x\n", &r, err) < 0);
	CHECK_STR(err, "add: one event or one id");
	CHECK(parse("verb read\npid 1\n", &r, err) < 0);
	CHECK_STR(err, "read takes nothing");
	/* trace: one pid, CAP_ANY kernel events only, its own options; a
	 * request formatted is parsed back the same. */
	CHECK(parse("verb trace\npid 7\nevent printk\nevent kernel/syscalls/sys_enter_openat\n"
		    "syscalls !close,%file\nsyscalls kill\nstrsize 0\nsummary 2\nheld 1\n",
		    &r, err) == 0);
	CHECK(r.verb == EVT_VERB_TRACE && r.npids == 1 && r.nevents == 2 &&
	      r.nsyscalls == 2 && !strcmp(r.syscalls[0], "!close,%file") &&
	      r.has_strsize && r.strsize == 0 && r.summary == 2 && r.held);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && parse(buf, &back, err) == 0 && back.nsyscalls == 2 &&
	      back.has_strsize && back.strsize == 0 && back.summary == 2 && back.held);
	CHECK(parse("verb trace\npid 7\nevent kernel/sched/sched_switch\n", &r, err) < 0);
	CHECK(strstr(err, "kernel/sched/sched_switch: evtraced opens for you only the "
		      "kernel events flagged CAP_ANY") == err);
	/* usdt/ probes, with the files they are in, absolute. */
	CHECK(parse("verb trace\npid 7\nevent usdt/libstdcxx/throw\n"
		    "probe-file /usr/lib/libstdc++.so.6\nprobe-file /bin/x\n", &r, err) == 0);
	CHECK(r.nprobe_files == 2 && !strcmp(r.probe_files[1], "/bin/x"));
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && parse(buf, &back, err) == 0 && back.nprobe_files == 2 &&
	      !strcmp(back.probe_files[0], "/usr/lib/libstdc++.so.6"));
	CHECK(parse("verb trace\npid 7\nprobe-file lib.so\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: not an absolute path, or more than 64");
	CHECK(parse("verb record\npid 7\nprobe-file /bin/x\n", &r, err) < 0);
	CHECK_STR(err, "record: syscalls, strsize, summary and probe files are for trace");
	CHECK(parse("verb trace\npid 7\npid 8\n", &r, err) < 0);
	CHECK_STR(err, "trace: one pid, events, syscalls, strsize, summary and probe files");
	CHECK(parse("verb trace\npid 7\nstrsize 4097\n", &r, err) < 0);
	CHECK(parse("verb trace\npid 7\nsyscalls open;rm\n", &r, err) < 0);
	CHECK(parse("verb trace\npid 7\nsummary 3\n", &r, err) < 0);
	CHECK(parse("verb stream\npid 7\nevent typed\nheld 1\n", &r, err) < 0);
	CHECK_STR(err, "stream: syscalls, strsize, summary and probe files are for trace");
	/* The kernel's events are the machine's: no pid. */
	CHECK(parse("verb ls\npath kernel/sched\nids 1\n", &r, err) == 0);
	CHECK(parse("verb format\npath kernel/sched/sched_switch\n", &r, err) == 0);
	/* evtraced opens no kernel event for anyone. */
	CHECK(parse("verb record\npid 7\nevent kernel/sched/sched_switch\n", &r, err) < 0);
	CHECK(strstr(err, "evtraced does not open them for anyone") != NULL);
	CHECK(parse("verb count\npid 7\nevent printk\nevent kernel/syscalls\n", &r, err) < 0);
	CHECK(parse("verb add\nevent kernel\n", &r, err) < 0);
	/* A kernel event's own format file, for format only. */
	CHECK(parse("verb format\npath kernel/sched/sched_switch\ntracefs 1\n", &r, err) == 0);
	CHECK(r.tracefs);
	CHECK(parse("verb ls\npath kernel/sched\ntracefs 1\n", &r, err) < 0);
	CHECK_STR(err, "ls: tracefs is for a kernel event's format");
	CHECK(parse("verb format\npid 7\npath printk\ntracefs 1\n", &r, err) < 0);
	CHECK(parse("verb format\npath kernel/sched/sched_switch\ntracefs 2\n", &r, err) < 0);
	CHECK(parse("verb ls\npid 1\npath kernel/\n", &r, err) < 0);
	CHECK_STR(err, "ls: kernel events take no pid");
	CHECK(parse("verb enable\npath kernel/sched\n", &r, err) < 0);
	CHECK_STR(err, "enable: no pid");
	CHECK(parse("verb ls\npath printk/x\n", &r, err) < 0);
	CHECK_STR(err, "ls: no pid");
	CHECK(parse("verb stop\n", &r, err) == 0 && r.verb == EVT_VERB_STOP);
}

/* record --trigger, --keep, --guard and --fail-on-loss through evtraced:
 * each with what it goes with, and back as it came. */
static void flight_requests(void)
{
	struct evt_request r, back;
	char buf[2048], err[300];
	int n;

	CHECK(parse("verb record\npid 7\nevent typed\noverwrite 1\n"
		    "trigger span req > 25ms\ntrigger lost\nafter-ns 0\n"
		    "before-ns 5000000\nmax-windows 9\nkeep printk/init.c\n", &r, err) == 0);
	CHECK(r.ntriggers == 2 && !strcmp(r.triggers[0], "span req > 25ms"));
	CHECK(r.has_after && r.after_ns == 0 && r.has_before && r.before_ns == 5000000);
	CHECK(r.max_windows == 9 && r.nkeep == 1 && !strcmp(r.keep[0], "printk/init.c"));
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0);
	CHECK(parse(buf, &back, err) == 0);
	CHECK(back.ntriggers == 2 && !strcmp(back.triggers[1], "lost"));
	CHECK(back.has_after && back.after_ns == 0 && back.before_ns == 5000000);
	CHECK(back.max_windows == 9 && back.nkeep == 1);
	CHECK(parse("verb record\npid 7\nevent typed\nguard 10\nfail-on-loss 1\n", &r, err) == 0);
	CHECK(r.guard_percent == 10 && r.fail_on_loss);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "guard 10\nfail-on-loss 1\n") != NULL);

	CHECK(parse("verb record\npid 7\nevent typed\ntrigger lost\n", &r, err) < 0);
	CHECK_STR(err, "record: trigger and keep go with overwrite");
	CHECK(parse("verb record\npid 7\nevent typed\noverwrite 1\nmax-windows 3\n", &r, err) < 0);
	CHECK_STR(err, "record: after-ns, before-ns and max-windows go with trigger");
	CHECK(parse("verb record\npid 7\nevent typed\noverwrite 1\nguard 5\n", &r, err) < 0);
	CHECK_STR(err, "record: guard and fail-on-loss exclude overwrite");
	CHECK(parse("verb stream\npid 7\nevent typed\nfail-on-loss 1\n", &r, err) < 0);
	CHECK_STR(err, "stream: trigger, after-ns, before-ns, max-windows, keep, guard and fail-on-loss are for record");
	CHECK(parse("verb record\npid 7\nevent typed\noverwrite 1\ntrigger a\tb\n", &r, err) < 0);
	CHECK_STR(err, "request line 5: a control character in a trigger");
	CHECK(parse("verb record\npid 7\nevent typed\noverwrite 1\nkeep kernel/sched\n", &r, err) < 0);
	CHECK(strstr(err, "kernel/sched: kernel events of another user's process") == err);
	CHECK(parse("verb snapshot\npid 7\nbefore-ns 1000\n", &r, err) == 0);
	CHECK(r.verb == EVT_VERB_SNAPSHOT && r.has_before && r.before_ns == 1000);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && !strcmp(buf, "verb snapshot\npid 7\nbefore-ns 1000\n"));
	CHECK(parse("verb snapshot\npid 7\nevent typed\n", &r, err) < 0);
	CHECK_STR(err, "snapshot: one pid, and before-ns, collection or nothing");
	CHECK(parse("verb snapshot\npid 7\ncollection 230\n", &r, err) == 0 && r.collection == 230);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "collection 230\n") != NULL);
	CHECK(parse("verb snapshot\npid 7\ncollection 256\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\nevent typed\ncollection 3\n", &r, err) < 0);
	CHECK_STR(err, "record: collection is for snapshot");
	CHECK(parse("verb snapshot\n", &r, err) < 0);
	CHECK(parse("verb enable\npid 7\npath typed/all\nrate 0\n", &r, err) == 0);
	CHECK(r.has_rate && r.rate == 0);
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && strstr(buf, "rate 0\n") != NULL);
	CHECK(parse("verb disable\npid 7\npath typed/all\nrate 5\n", &r, err) < 0);
	CHECK_STR(err, "disable: rate is for enable, with a pid");
	CHECK(parse("verb enable\npid 7\npath typed/all\nrate 100000001\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\nguard 101\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: not one percentage of 1 to 100");
	CHECK(parse("verb record\npid 7\noverwrite 1\ntrigger lost\nafter-ns 3600000000001\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\noverwrite 1\ntrigger lost\nbefore-ns 0\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\noverwrite 1\ntrigger lost\nmax-windows 1\nmax-windows 2\n",
		    &r, err) < 0);
}

/* A flight consumer's session through evtraced: consume with overwrite,
 * then window, arm and set-rate, each with its own keys only. */
static void flight_session_requests(void)
{
	struct evt_request r;
	char err[300], buf[1024];
	int n;

	CHECK(parse("verb consume\npid 7\noverwrite 1\n", &r, err) == 0 && r.overwrite);
	CHECK(parse("verb consume\npid 7\noverwrite 1\ncount 1\n", &r, err) < 0);
	CHECK_STR(err, "consume: one pid, and count, relay, block-us, overwrite or nothing");
	CHECK(parse("verb consume\npid 7\noverwrite 1\nblock-us 5\n", &r, err) < 0);
	CHECK(evt_verb_in_session(EVT_VERB_WINDOW) && evt_verb_in_session(EVT_VERB_ARM) &&
	      evt_verb_in_session(EVT_VERB_SET_RATE) && evt_verb_in_session(EVT_VERB_READ) &&
	      !evt_verb_in_session(EVT_VERB_CONSUME) && !evt_verb_in_session(EVT_VERB_SNAPSHOT));
	CHECK(parse("verb window\n", &r, err) == 0 && r.verb == EVT_VERB_WINDOW);
	CHECK(parse("verb window\nbefore-ns 5000\n", &r, err) == 0 && r.before_ns == 5000);
	CHECK(parse("verb window\npid 7\n", &r, err) < 0);
	CHECK_STR(err, "window: an option it does not take");
	CHECK(parse("verb window\ntrigger lost\n", &r, err) < 0);
	CHECK_STR(err, "window: before-ns or nothing");
	CHECK(parse("verb arm\ntrigger span req > 1ms\ntrigger lost\nafter-ns 0\n"
		    "max-windows 3\nwindow-frames 1\ndir /home/bob/w ins\n", &r, err) == 0);
	CHECK(r.verb == EVT_VERB_ARM && r.ntriggers == 2 && r.has_after && r.max_windows == 3 &&
	      r.window_frames && !strcmp(r.dir, "/home/bob/w ins"));
	n = evt_proto_format(&r, buf, sizeof(buf));
	CHECK(n > 0 && !strcmp(buf, "verb arm\ntrigger span req > 1ms\ntrigger lost\n"
			       "after-ns 0\nmax-windows 3\nwindow-frames 1\ndir /home/bob/w ins\n"));
	CHECK(parse("verb arm\nmax-windows 3\n", &r, err) < 0);
	CHECK_STR(err, "arm: no trigger");
	CHECK(parse("verb arm\ntrigger lost\nevent typed\n", &r, err) < 0);
	CHECK_STR(err, "arm: an option it does not take");
	CHECK(parse("verb record\npid 7\nevent typed\ndir /x\n", &r, err) < 0);
	CHECK_STR(err, "record: window-frames and dir are for arm");
	CHECK(parse("verb arm\ntrigger lost\ndir a\ndir b\n", &r, err) < 0);
	CHECK(parse("verb set-rate\nevent typed/all\nrate 10\n", &r, err) == 0 &&
	      r.has_rate && r.rate == 10 && r.nevents == 1);
	CHECK(parse("verb set-rate\nevent typed/all\n", &r, err) < 0);
	CHECK_STR(err, "set-rate: one event and a rate");
	CHECK(parse("verb set-rate\nevent kernel/sched/sched_switch\nrate 1\n", &r, err) < 0);
}

/* record --relay through evtraced: the address and names are checked
 * here, before a worker runs as root on them. */
static void relay_requests(void)
{
	struct evt_request r, back;
	char buf[1024], err[300];

	CHECK(parse("verb record\npid 7\nevent typed\nrelay [::1]:6000:6001\n"
		    "session s-1\nhostname web.2\nrelay-buffer 8\n", &r, err) == 0);
	CHECK_STR(r.relay, "[::1]:6000:6001");
	CHECK_STR(r.session, "s-1");
	CHECK_STR(r.hostname, "web.2");
	CHECK(r.relay_buffer_mib == 8);
	CHECK(evt_proto_format(&r, buf, sizeof(buf)) > 0);
	CHECK(parse(buf, &back, err) == 0);
	CHECK_STR(back.relay, "[::1]:6000:6001");
	CHECK_STR(back.session, "s-1");
	CHECK_STR(back.hostname, "web.2");
	CHECK(back.relay_buffer_mib == 8);
	CHECK(parse("verb record\npid 7\nrelay host:0\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: not one HOST, HOST:PORT or HOST:PORT:DATA_PORT "
		  "(ports 1 to 65535; [ADDRESS] for IPv6)");
	CHECK(parse("verb record\npid 7\nrelay a b\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\nrelay a\nrelay b\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\nrelay a\nsession ../x\n", &r, err) < 0);
	CHECK_STR(err, "request line 4: not one name of 1 to 64 letters, digits, "
		  "'.', '_' or '-', not starting with '.'");
	CHECK(parse("verb record\npid 7\nrelay a\nhostname a/b\n", &r, err) < 0);
	CHECK(parse("verb record\npid 7\nrelay a\nrelay-buffer 4097\n", &r, err) < 0);
	CHECK_STR(err, "request line 4: not 1 to 4096 MiB");
	CHECK(parse("verb record\npid 7\nsession s\n", &r, err) < 0);
	CHECK_STR(err, "record: session, hostname and relay-buffer go with relay");
	CHECK(parse("verb consume\npid 7\nrelay a:1\nsession s\n", &r, err) == 0);
	CHECK(parse("verb consume\npid 7\nrelay a:1\ncount 1\n", &r, err) < 0);
	CHECK_STR(err, "consume: an option it does not take");
	CHECK(parse("verb relay-stats\n", &r, err) == 0 && r.verb == EVT_VERB_RELAY_STATS);
	CHECK(parse("verb relay-stats\nrelay a\n", &r, err) < 0);
	CHECK(parse("verb stream\npid 7\nevent x\nrelay a\n", &r, err) < 0);
	CHECK_STR(err, "stream: an option it does not take");
	CHECK(parse("verb record\npid 7\nrelay a\noverwrite 1\n", &r, err) < 0);
	CHECK_STR(err, "record: relay and overwrite exclude each other");
}

static void bad_requests_say_why(void)
{
	struct evt_request r;
	char err[300];

	CHECK(parse("", &r, err) < 0);
	CHECK_STR(err, "an empty request");
	CHECK(parse("pid 1\nverb ls\n", &r, err) < 0);
	CHECK_STR(err, "request line 1: not a verb this daemon knows");
	CHECK(parse("verb ls\npid -1\n", &r, err) < 0);
	CHECK_STR(err, "request line 2: not a process id");
	CHECK(parse("verb ls\npid 01\n", &r, err) < 0);
	CHECK(parse("verb ls\npid 99999999999\n", &r, err) < 0);
	CHECK(parse("verb ls\npid 1\npath a//b\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: pattern: empty path component at position 3");
	CHECK(parse("verb ls\npid 1\noutput /etc\n", &r, err) < 0);
	CHECK_STR(err, "request line 3: unknown key 'output'");
	CHECK(parse("verb ls\npid 1\npid 2\n", &r, err) < 0);
	CHECK_STR(err, "ls: one pid only");
	CHECK(parse("verb format\npid 1\n", &r, err) < 0);
	CHECK_STR(err, "format: path missing");
	CHECK(parse("verb count\npid 1\npath x\n", &r, err) < 0);
	CHECK_STR(err, "count: path not taken");
	CHECK(parse("verb ls\npid 1\ninterval 100\n", &r, err) < 0);
	CHECK_STR(err, "ls: an option it does not take");
	CHECK(parse("verb count\npid 1\ninterval 5\n", &r, err) < 0);
	CHECK(parse("verb stream\n", &r, err) < 0);
	CHECK_STR(err, "stream: no pid");
	CHECK(parse("verb ls\npid 1", &r, err) < 0);
	CHECK_STR(err, "the request's last line does not end");
	CHECK(parse("verb ls\npid 1\nformats 2\n", &r, err) < 0);
	CHECK(parse("verb ls\n\n", &r, err) < 0);
	CHECK_STR(err, "request line 2: not 'key value'");
}

static void frame_headers(void)
{
	uint8_t h[EVT_PROTO_HEADER] = { 'E', 'V', 'T', 'D', 0, 0, 1, 0 };
	uint32_t len;
	char err[300];

	CHECK(evt_proto_header(h, &len, err, sizeof(err)) == 0 && len == 65536);
	h[4] = 1;
	CHECK(evt_proto_header(h, &len, err, sizeof(err)) < 0);
	CHECK_STR(err, "message of 65537 bytes, more than 65536");
	h[0] = 'X';
	CHECK(evt_proto_header(h, &len, err, sizeof(err)) < 0);
}

static void permission_table(void)
{
	struct evt_peer p = { .uid = 1001, .gid = 100, .groups = { 50, 60 }, .ngroups = 2 };
	struct evt_process_info t = { .euid = 1000, .user = "alice" };
	char who[400];

	CHECK(!evt_peer_privileged(&p, 1000, EVT_NO_GROUP));
	CHECK(evt_peer_privileged(&p, 1001, EVT_NO_GROUP));	/* own */
	CHECK(evt_peer_privileged(&p, 1000, 60));		/* opted-in group */
	CHECK(evt_peer_privileged(&p, 1000, 100));		/* primary group */
	CHECK(!evt_peer_privileged(&p, 1000, 70));
	p.uid = 0;
	CHECK(evt_peer_privileged(&p, 1000, EVT_NO_GROUP));	/* root */
	evt_privileged_who(&t, EVT_NO_GROUP, who, sizeof(who));
	CHECK_STR(who, "root or user alice (it opted into no group)");
	evt_privileged_who(&t, 4000000, who, sizeof(who));
	CHECK_STR(who, "root, user alice, or a member of group 4000000, which it opted into");
}

int main(void)
{
	requests_round_trip();
	relay_requests();
	flight_session_requests();
	flight_requests();
	bad_requests_say_why();
	frame_headers();
	permission_table();
	UNIT_DONE();
}
