/*
 * unit_syscall_args.c - system call arguments in strace's notation: each
 * way of showing on values with and without names, bits no name covers
 * in hex after the names, ints signed; which way an argument takes from
 * the call's and the argument's names; strace's -e trace= sets.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <string.h>
#include <time.h>

#include "kernel_events.h"
#include "syscall_args.h"
#include "syscall_fields.h"
#include "syscall_memory.h"
#include "syscall_names.h"
#include "syscall_set.h"
#include "unit.h"

static const char *put(enum evt_arg_show how, unsigned bits, uint64_t v)
{
	static char out[256];

	evt_syscall_arg_put(how, bits, v, out, sizeof(out));
	return out;
}

static void mem(char *out, const char *call, unsigned arg, const uint8_t *b,
		uint32_t len, uint32_t flags, uint32_t strsize)
{
	evt_syscall_memory_text(call, arg, b, len, flags, 0x1000, strsize, out, 512);
}

static long nr(const char *name)
{
	for (long n = 0; n < EVT_SYSCALL_NR_MAX; n++)
		if (evt_syscall_name(n) && !strcmp(evt_syscall_name(n), name))
			return n;
	return -1;
}

/* A syscalls/ record's payload as a trace keeps it: its number, its
 * values (8 bytes each), then the memory field holding the first piece
 * of mem (and args).  Its bytes. */
static size_t record_payload(uint8_t *out, int32_t nr, const uint64_t *values,
			     unsigned n, const struct evt_cap_bytes *mem,
			     const uint64_t *args)
{
	size_t at = 4;
	uint32_t count;
	unsigned i;

	memcpy(out, &nr, 4);
	for (i = 0; i < n; i++, at += 8)
		memcpy(out + at, &values[i], 8);
	count = (uint32_t)evt_syscall_memory_pack(mem, 1, args, out + at + 4, 200);
	memcpy(out + at, &count, 4);
	return at + 4 + count;
}

/* A recorded call's memory field: packed and unpacked, cut where it
 * does not fit, refused when its lengths lie; and a record's text with
 * it, through the format a trace keeps. */
static void memory_field(void)
{
	static const char enter_fmt[] =
		"name: sys_enter_write\nID: 700\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:const char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc uint8_t[] evtrace_memory;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\nprint fmt: \"fd: 0x%08lx\", ((unsigned long)(REC->fd))\n";
	static const char exit_fmt[] =
		"name: sys_exit_read\nID: 701\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
		"\tfield:__data_loc uint8_t[] evtrace_memory;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\nprint fmt: \"0x%lx\", REC->ret\n";
	const struct evt_cap_bytes in[2] = {
		{ (const uint8_t *)"hi\n", 3, 0, 0x1000, 1 },
		{ (const uint8_t *)"abcdef", 6, 0, 0x2000, 2 },
	};
	uint64_t args[6] = { 3, 0x1000, 64, 0, 0, 0 }, got_args[6];
	struct evt_cap_bytes out[4];
	struct evt_kernel_event e, x;
	uint8_t packed[256], payload[512];
	char err[300], text[512];
	bool have;
	size_t n, at;
	int k;

	n = evt_syscall_memory_pack(in, 2, args, packed, sizeof(packed));
	CHECK(n == 16 + 48 + 16 + 3 + 16 + 6);
	k = evt_syscall_memory_unpack(packed, n, out, 4, got_args, &have);
	CHECK(k == 2 && have && got_args[2] == 64);
	CHECK(out[0].arg == 1 && out[0].len == 3 && !memcmp(out[0].bytes, "hi\n", 3) &&
	      out[0].addr == 0x1000 && out[1].arg == 2 && out[1].len == 6);
	/* no room for all of the second: cut and flagged; none for a head */
	n = evt_syscall_memory_pack(in, 2, NULL, packed, 16 + 3 + 16 + 2);
	k = evt_syscall_memory_unpack(packed, n, out, 4, got_args, &have);
	CHECK(k == 2 && !have && out[1].len == 2 && (out[1].flags & EVT_CAP_CUT));
	n = evt_syscall_memory_pack(in, 2, NULL, packed, 16 + 3 + 15);
	CHECK(n == 16 + 3);
	/* a length past the field's end, a head cut short */
	n = evt_syscall_memory_pack(in, 1, NULL, packed, sizeof(packed));
	packed[4] = 200;
	CHECK(evt_syscall_memory_unpack(packed, n, out, 4, got_args, &have) == -1);
	CHECK(evt_syscall_memory_unpack(packed, 10, out, 4, got_args, &have) == -1);

	CHECK(evt_kernel_event_parse("kernel/syscalls/sys_enter_write", enter_fmt,
				     strlen(enter_fmt), &e, err, sizeof(err)) == 0);
	CHECK(evt_kernel_event_parse("kernel/syscalls/sys_exit_read", exit_fmt,
				     strlen(exit_fmt), &x, err, sizeof(err)) == 0);
	/* sys_enter_write's payload: nr, fd, buf, count, the field */
	at = record_payload(payload, 1, (const uint64_t[]){ 1, 0x1000, 3 }, 3, in, NULL);
	CHECK(evt_syscall_text_record("sys_enter_write", &e.format, NULL, payload, at,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "write(1, \"hi\\n\", 3)");
	/* sys_exit_read's: nr, ret, the field with the entry's arguments,
	 * shown as copied, or typed by the entry's format when there is one */
	at = record_payload(payload, 0, (const uint64_t[]){ 3 }, 1, in, args);
	CHECK(evt_syscall_text_record("sys_exit_read", &x.format, NULL, payload, at,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed>\"hi\\n\") = 3");
	CHECK(evt_syscall_text_record("sys_exit_read", &x.format, &e.format, payload,
				      at, text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed>\"hi\\n\", 64) = 3");
	/* a field whose lengths lie: the call without its memory */
	payload[12 + 4 + 4] = 0xff;
	CHECK(evt_syscall_text_record("sys_exit_read", &x.format, NULL, payload, at,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed> = 3");
	evt_kernel_event_free(&e);
	evt_kernel_event_free(&x);
}

/* A payload built field by field, as a trace keeps it (packed). */
struct pay {
	uint8_t b[1024];
	size_t n;
};

static void p_int(struct pay *p, uint64_t v, unsigned bytes)
{
	memcpy(p->b + p->n, &v, bytes);
	p->n += bytes;
}

static void p_str(struct pay *p, const char *s)
{
	memcpy(p->b + p->n, s, strlen(s) + 1);
	p->n += strlen(s) + 1;
}

static void p_seq(struct pay *p, const void *bytes, uint32_t len)
{
	memcpy(p->b + p->n, &len, 4);
	memcpy(p->b + p->n + 4, bytes, len);
	p->n += 4 + len;
}

/* The kernel's format text of call's entry or exit (fields: name and
 * C type), parsed; its text in *text. */
static void kernel_text(char *text, size_t size, const char *name,
			const char *const *fields, unsigned n)
{
	size_t at = (size_t)snprintf(text, size, "name: %s\nID: 900\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n", name);
	unsigned i;

	for (i = 0; i < n; i++)
		at += (size_t)snprintf(text + at, size - at,
				       "\tfield:%s;\toffset:%u;\tsize:8;\tsigned:0;\n",
				       fields[i], 16 + 8 * i);
	snprintf(text + at, size - at, "\nprint fmt: \"%%lx\", REC->__syscall_nr\n");
}

/* The format of call's event with its copied memory as fields of their
 * own (syscall_fields.h), from the kernel's. */
static void capture_event(struct evt_kernel_event *out, const char *path,
			  const char *call, bool enter, const char *const *fields,
			  unsigned n, char *const *entry_names, unsigned nargs)
{
	struct evt_kernel_event k;
	char text[4096], err[300], *with;

	kernel_text(text, sizeof(text), strrchr(path, '/') + 1, fields, n);
	CHECK(evt_kernel_event_parse(path, text, strlen(text), &k, err, sizeof(err)) == 0);
	with = evt_capf_format_text(text, call, enter, &k.format, entry_names, nargs);
	CHECK(with != NULL);
	CHECK(evt_kernel_event_parse(path, with, strlen(with), out, err, sizeof(err)) == 0);
	free(with);
	evt_kernel_event_free(&k);
}

static const char *field_names(const struct evt_event_format *f)
{
	static char out[1024];
	size_t at = 0;
	uint32_t i;

	out[0] = '\0';
	for (i = 0; i < f->nfields; i++)
		at += (size_t)snprintf(out + at, sizeof(out) - at, "%s%s%s", i ? " " : "",
				       f->fields[i].name,
				       f->fields[i].kind == EVT_FIELD_STRING ? ":s" :
				       f->fields[i].kind == EVT_FIELD_SEQUENCE ? ":b" : "");
	return out;
}

/* Copied memory as fields a CTF reader reads: the formats made from the
 * kernel's, and records of them read back as strace shows them; a format
 * or a payload that lies is not read as one. */
static void capture_fields(void)
{
	static const char *const write_f[] = {
		"unsigned int fd", "const char * buf", "size_t count" };
	static const char *const read_exit_f[] = { "long ret" };
	static const char *const execve_f[] = {
		"const char * filename", "const char *const * argv",
		"const char *const * envp" };
	char *read_names[] = { "fd", "buf", "count" }, text[512];
	struct evt_kernel_event w, r, x;
	struct evt_capf roles[EVT_CAPF_FIELDS_MAX];
	struct pay p = { .n = 0 };

	capture_event(&w, "kernel/syscalls/sys_enter_write", "write", true, write_f, 3,
		      NULL, 0);
	CHECK_STR(field_names(&w.format),
		  "__syscall_nr fd buf:b count evtrace_capture buf_addr buf_flags");
	CHECK(evt_capf_roles("write", true, &w.format, roles) == 1);
	CHECK(roles[2].role == EVT_CAPF_CONTENT && roles[5].role == EVT_CAPF_ADDR);
	p_int(&p, 1, 4); p_int(&p, 1, 8); p_seq(&p, "hi\n", 3); p_int(&p, 3, 8);
	p_int(&p, 1, 4); p_int(&p, 0x1000, 8); p_int(&p, 0, 4);
	CHECK(evt_syscall_text_record("sys_enter_write", &w.format, NULL, p.b, p.n,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "write(1, \"hi\\n\", 3)");
	/* cut short: not read (report shows its fields instead) */
	CHECK(evt_syscall_text_record("sys_enter_write", &w.format, NULL, p.b, p.n - 1,
				      text, sizeof(text)) == -1);
	/* a format whose fields are not what the call copies */
	CHECK(evt_capf_roles("read", true, &w.format, roles) == -1);
	CHECK(evt_syscall_text_record("sys_enter_read", &w.format, NULL, p.b, p.n,
				      text, sizeof(text)) == -1);

	/* read's exit: its buffer, and the entry's other arguments by name */
	capture_event(&r, "kernel/syscalls/sys_exit_read", "read", false, read_exit_f, 1,
		      read_names, 3);
	CHECK_STR(field_names(&r.format),
		  "__syscall_nr ret evtrace_capture fd buf:b buf_addr buf_flags count");
	p.n = 0;
	p_int(&p, 0, 4); p_int(&p, 3, 8); p_int(&p, 1, 4); p_int(&p, 3, 8);
	p_seq(&p, "hi\n", 3); p_int(&p, 0x1000, 8); p_int(&p, EVT_CAP_CUT, 4); p_int(&p, 64, 8);
	CHECK(evt_syscall_text_record("sys_exit_read", &r.format, NULL, p.b, p.n,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed>\"hi\\n\"...) = 3");
	CHECK(evt_syscall_text_record("sys_exit_read", &r.format, &w.format, p.b, p.n,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed>\"hi\\n\"..., 64) = 3");
	/* its entry not seen: the result alone */
	p.b[12] = 0;
	CHECK(evt_syscall_text_record("sys_exit_read", &r.format, NULL, p.b, p.n,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "<... read resumed> = 3");

	/* execve: the path in its field's place, argv's first elements */
	capture_event(&x, "kernel/syscalls/sys_enter_execve", "execve", true, execve_f, 3,
		      NULL, 0);
	CHECK_STR(field_names(&x.format),
		  "__syscall_nr filename:s argv envp evtrace_capture filename_addr "
		  "filename_flags argv_0:s argv_flags_0 argv_1:s argv_flags_1 argv_2:s "
		  "argv_flags_2 argv_3:s argv_flags_3 argv_count argv_flags");
	p.n = 0;
	p_int(&p, 59, 4); p_str(&p, "/bin/ls"); p_int(&p, 0x2000, 8); p_int(&p, 0x3000, 8);
	p_int(&p, 1, 4); p_int(&p, 0x1000, 8); p_int(&p, 0, 4);
	p_str(&p, "ls"); p_int(&p, 0, 4); p_str(&p, "-l"); p_int(&p, EVT_CAP_MORE, 4);
	p_str(&p, ""); p_int(&p, 0, 4); p_str(&p, ""); p_int(&p, 0, 4);
	p_int(&p, 2, 4); p_int(&p, EVT_CAP_MORE, 4);
	CHECK(evt_syscall_text_record("sys_enter_execve", &x.format, NULL, p.b, p.n,
				      text, sizeof(text)) > 0);
	CHECK_STR(text, "execve(\"/bin/ls\", [\"ls\", \"-l\", ...], 0x3000)");
	evt_kernel_event_free(&w);
	evt_kernel_event_free(&r);
	evt_kernel_event_free(&x);
}

int main(void)
{
	bool want[EVT_SYSCALL_NR_MAX];
	char err[256], text[256];

	CHECK_STR(put(EVT_SHOW_OPEN_FLAGS, 32, O_RDONLY), "O_RDONLY");
	CHECK_STR(put(EVT_SHOW_OPEN_FLAGS, 32, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC),
		  "O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC");
	CHECK_STR(put(EVT_SHOW_OPEN_FLAGS, 32, O_RDWR | O_TMPFILE), "O_RDWR|O_TMPFILE");
	CHECK_STR(put(EVT_SHOW_OPEN_FLAGS, 32, O_RDONLY | O_SYNC), "O_RDONLY|O_SYNC");
	CHECK_STR(put(EVT_SHOW_OPEN_FLAGS, 32, O_RDONLY | 0x40000000), "O_RDONLY|0x40000000");
	CHECK_STR(put(EVT_SHOW_DIRFD, 64, (uint64_t)-100), "AT_FDCWD");
	CHECK_STR(put(EVT_SHOW_DIRFD, 32, 7), "7");
	CHECK_STR(put(EVT_SHOW_FD, 64, 0xffffffffu), "-1");
	CHECK_STR(put(EVT_SHOW_SIGNED, 32, 0xfffffffeu), "-2");
	CHECK_STR(put(EVT_SHOW_UNSIGNED, 64, 42), "42");
	CHECK_STR(put(EVT_SHOW_POINTER, 64, 0), "NULL");
	CHECK_STR(put(EVT_SHOW_POINTER, 64, 0x7f00dead0000), "0x7f00dead0000");
	CHECK_STR(put(EVT_SHOW_OCTAL, 32, 0644), "0644");
	CHECK_STR(put(EVT_SHOW_OCTAL, 32, 0), "0");
	CHECK_STR(put(EVT_SHOW_PROT, 64, 0), "PROT_NONE");
	CHECK_STR(put(EVT_SHOW_PROT, 64, PROT_READ | PROT_EXEC), "PROT_READ|PROT_EXEC");
	CHECK_STR(put(EVT_SHOW_MAP_FLAGS, 64, MAP_SHARED | MAP_FIXED), "MAP_SHARED|MAP_FIXED");
	CHECK_STR(put(EVT_SHOW_AT_FLAGS, 32, 0), "0");
	CHECK_STR(put(EVT_SHOW_AT_FLAGS, 32, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH),
		  "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
	CHECK_STR(put(EVT_SHOW_SIGNAL, 32, SIGKILL), "SIGKILL");
	CHECK_STR(put(EVT_SHOW_SIGNAL, 32, 0), "0");
	CHECK_STR(put(EVT_SHOW_SIGNAL, 32, (uint64_t)SIGRTMIN + 2), "SIGRT_2");
	CHECK_STR(put(EVT_SHOW_SIGMASK_HOW, 32, SIG_SETMASK), "SIG_SETMASK");
	CHECK_STR(put(EVT_SHOW_FAMILY, 32, AF_UNIX), "AF_UNIX");
	CHECK_STR(put(EVT_SHOW_FAMILY, 32, 250), "250");
	CHECK_STR(put(EVT_SHOW_SOCK_TYPE, 32, SOCK_STREAM | SOCK_NONBLOCK),
		  "SOCK_STREAM|SOCK_NONBLOCK");
	CHECK_STR(put(EVT_SHOW_CLONE_FLAGS, 64, CLONE_VM | CLONE_VFORK | SIGCHLD),
		  "CLONE_VM|CLONE_VFORK|SIGCHLD");
	CHECK_STR(put(EVT_SHOW_CLONE_FLAGS, 64, CLONE_THREAD), "CLONE_THREAD");
	CHECK_STR(put(EVT_SHOW_ACCESS_MODE, 32, 0), "F_OK");
	CHECK_STR(put(EVT_SHOW_ACCESS_MODE, 32, 6), "R_OK|W_OK");
	CHECK_STR(put(EVT_SHOW_FUTEX_OP, 32, 128), "FUTEX_WAIT_PRIVATE");
	CHECK_STR(put(EVT_SHOW_FUTEX_OP, 32, 1), "FUTEX_WAKE");
	CHECK_STR(put(EVT_SHOW_CLOCK, 32, 1), "CLOCK_MONOTONIC");
	CHECK_STR(put(EVT_SHOW_WAIT_OPTIONS, 32, 1), "WNOHANG");
	CHECK_STR(put(EVT_SHOW_WHENCE, 32, 2), "SEEK_END");
	CHECK_STR(put(EVT_SHOW_FCNTL_CMD, 32, F_SETFD), "F_SETFD");
	CHECK_STR(put(EVT_SHOW_HEX, 64, 0x5401), "0x5401");

	CHECK(evt_syscall_arg_show("openat", "dfd", false, true, 32) == EVT_SHOW_DIRFD);
	CHECK(evt_syscall_arg_show("openat", "flags", false, true, 32) == EVT_SHOW_OPEN_FLAGS);
	CHECK(evt_syscall_arg_show("openat", "mode", false, false, 32) == EVT_SHOW_OCTAL);
	CHECK(evt_syscall_arg_show("newfstatat", "flag", false, true, 32) == EVT_SHOW_AT_FLAGS);
	CHECK(evt_syscall_arg_show("mmap", "flags", false, false, 64) == EVT_SHOW_MAP_FLAGS);
	CHECK(evt_syscall_arg_show("mmap", "addr", false, false, 64) == EVT_SHOW_POINTER);
	CHECK(evt_syscall_arg_show("close", "fd", false, false, 32) == EVT_SHOW_FD);
	CHECK(evt_syscall_arg_show("kill", "sig", false, true, 32) == EVT_SHOW_SIGNAL);
	CHECK(evt_syscall_arg_show("read", "count", false, false, 64) == EVT_SHOW_UNSIGNED);
	CHECK(evt_syscall_arg_show("read", "buf", true, false, 64) == EVT_SHOW_POINTER);
	CHECK(evt_syscall_arg_show("ioctl", "cmd", false, false, 32) == EVT_SHOW_HEX);
	CHECK(evt_syscall_open_has_mode(O_CREAT) && !evt_syscall_open_has_mode(O_RDWR));
	CHECK(!evt_syscall_fcntl_has_arg(F_GETFL) && evt_syscall_fcntl_has_arg(F_SETFL));

	/* Memory as strace shows it. */
	{
		static const uint8_t bin[] = "a\"b\\\n\t\0017\033[0m\377";
		struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(443),
					  .sin_addr.s_addr = htonl(0x7f000001) };
		struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "\0abs" };
		struct timespec ts = { 3, 25 };
		struct stat st = { .st_mode = S_IFDIR | 0755, .st_size = 4096 };
		const char *elems[] = { "\"ls\"", "\"-l\"" };
		char out[512];

		mem(out, "write", 1, bin, sizeof(bin) - 1, 0, 32);
		CHECK_STR(out, "\"a\\\"b\\\\\\n\\t\\0017\\33[0m\\377\"");
		mem(out, "write", 1, (const uint8_t *)"abcdef", 6, 0, 4);
		CHECK_STR(out, "\"abcd\"...");
		mem(out, "read", 1, (const uint8_t *)"ab", 2, EVT_CAP_CUT, 32);
		CHECK_STR(out, "\"ab\"...");
		{	/* an iovec's element: its iov_len, then its bytes */
			uint8_t iov[8 + 5] = { 5 };

			memcpy(iov + 8, "hello", 5);
			mem(out, "writev", 9, iov, sizeof(iov), 0, 32);
			CHECK_STR(out, "{iov_base=\"hello\", iov_len=5}");
			mem(out, "readv", 17, iov, sizeof(iov), 0, 2);
			CHECK_STR(out, "{iov_base=\"he\"..., iov_len=5}");
			mem(out, "writev", 9, iov, 8, EVT_CAP_FAULT, 32);
			CHECK_STR(out, "{iov_base=0x1000, iov_len=5}");
		}
		mem(out, "openat", 1, (const uint8_t *)"/a/long/path", 12, 0, 4);
		CHECK_STR(out, "\"/a/long/path\"");
		mem(out, "openat", 1, NULL, 0, EVT_CAP_FAULT, 32);
		CHECK_STR(out, "0x1000");
		mem(out, "connect", 1, (const uint8_t *)&in, sizeof(in), 0, 32);
		CHECK_STR(out, "{sa_family=AF_INET, sin_port=htons(443), "
			  "sin_addr=inet_addr(\"127.0.0.1\")}");
		mem(out, "bind", 1, (const uint8_t *)&un, 6, 0, 32);
		CHECK_STR(out, "{sa_family=AF_UNIX, sun_path=@\"abs\"}");
		mem(out, "nanosleep", 0, (const uint8_t *)&ts, sizeof(ts), 0, 32);
		CHECK_STR(out, "{tv_sec=3, tv_nsec=25}");
		mem(out, "nanosleep", 0, (const uint8_t *)&ts, 4, 0, 32);
		CHECK_STR(out, "0x1000");	/* short of its struct */
		mem(out, "stat", 1, (const uint8_t *)&st, sizeof(st), 0, 32);
		CHECK_STR(out, "{st_mode=S_IFDIR|0755, st_size=4096, ...}");
		evt_syscall_memory_argv(elems, 2, 1, out, sizeof(out));
		CHECK_STR(out, "[\"ls\", \"-l\", ...]");
	}

	/* Sets that need no kernel format. */
	CHECK(evt_syscall_set_parse("%network,close", want, err, sizeof(err)) == 0);
	CHECK(want[nr("socket")] && want[nr("connect")] && want[nr("close")]);
	CHECK(!want[nr("read")] && !want[nr("openat")]);
	CHECK(evt_syscall_set_parse("!memory", want, err, sizeof(err)) == 0);
	CHECK(!want[nr("mmap")] && !want[nr("brk")] && want[nr("read")]);
	CHECK(evt_syscall_set_parse("process", want, err, sizeof(err)) == 0);
	CHECK(want[nr("execve")] && want[nr("exit_group")] && !want[nr("write")]);
	CHECK(evt_syscall_set_parse("reed", want, err, sizeof(err)) == -1);
	CHECK_STR(err, "trace=reed: no system call or class of that name (classes: "
		  "file, desc, process, network, memory, signal, ipc)");
	CHECK(evt_syscall_set_parse("%nope", want, err, sizeof(err)) == -1);
	CHECK_STR(err, "trace=%nope: no such class (file, desc, process, network, "
		  "memory, signal, ipc)");
	CHECK(evt_syscall_set_parse("", want, err, sizeof(err)) == -1);
	CHECK_STR(err, "trace=: name a system call or a class");
	CHECK(evt_syscall_set_parse("!", want, err, sizeof(err)) == -1);
	/* A signal's delivery; results, the kernel's restarts too. */
	evt_syscall_signal_put(SIGUSR1, 0, text, sizeof(text));
	CHECK_STR(text, "--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER} ---");
	evt_syscall_signal_put(SIGCHLD, 1, text, sizeof(text));
	CHECK_STR(text, "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED} ---");
	evt_syscall_signal_put(SIGSEGV, 0x80, text, sizeof(text));
	CHECK_STR(text, "--- SIGSEGV {si_signo=SIGSEGV, si_code=SI_KERNEL} ---");
	evt_syscall_signal_put(SIGSYS, 1, text, sizeof(text));
	CHECK_STR(text, "--- SIGSYS {si_signo=SIGSYS, si_code=SYS_SECCOMP} ---");
	evt_syscall_signal_put(SIGTERM, -6, text, sizeof(text));
	CHECK_STR(text, "--- SIGTERM {si_signo=SIGTERM, si_code=SI_TKILL} ---");
	evt_syscall_signal_put(SIGUSR2, 42, text, sizeof(text));
	CHECK_STR(text, "--- SIGUSR2 {si_signo=SIGUSR2, si_code=42} ---");
	evt_syscall_ret_put("pause", -514, text, sizeof(text));
	CHECK_STR(text, "? ERESTARTNOHAND (To be restarted if no handler)");
	evt_syscall_ret_put("read", -512, text, sizeof(text));
	CHECK_STR(text, "? ERESTARTSYS (To be restarted if SA_RESTART is set)");
	evt_syscall_ret_put("read", -4, text, sizeof(text));
	CHECK_STR(text, "-1 EINTR (Interrupted system call)");
	evt_syscall_ret_put("mmap", 0, text, sizeof(text));
	CHECK_STR(text, "0x0");
	evt_syscall_ret_put("getppid", 110, text, sizeof(text));
	CHECK_STR(text, "110");
	memory_field();
	capture_fields();
	UNIT_DONE();
}
