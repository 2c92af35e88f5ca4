/*
 * syscall_memory.c - system call arguments' user memory as strace shows
 * it (see syscall_memory.h).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>

#include "syscall_args.h"
#include "syscall_memory.h"

/* How the bytes of an argument read. */
enum decode {
	AS_PATH = 1,		/* a whole string */
	AS_BUFFER,		/* bytes, cut at -s */
	AS_STAT,
	AS_TIMESPEC,
	AS_SOCKADDR,
	AS_ARGV,
	AS_IOVEC,		/* elements: iov_len, then the bytes */
};

struct rule {
	const char *call;
	unsigned char arg, kind, len_arg, decode;
	unsigned short size;
};

/* Arguments by their place in the call (the kernel's order). */
static const struct rule rules[] = {
	{ "open", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "openat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "openat2", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "creat", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "access", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "faccessat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "faccessat2", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "stat", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "stat", 1, EVT_CAP_STRUCT_OUT, 0, AS_STAT, sizeof(struct stat) },
	{ "lstat", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "lstat", 1, EVT_CAP_STRUCT_OUT, 0, AS_STAT, sizeof(struct stat) },
	{ "fstat", 1, EVT_CAP_STRUCT_OUT, 0, AS_STAT, sizeof(struct stat) },
	{ "newfstatat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "newfstatat", 2, EVT_CAP_STRUCT_OUT, 0, AS_STAT, sizeof(struct stat) },
	{ "statx", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "statfs", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "execve", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "execve", 1, EVT_CAP_ARGV, 0, AS_ARGV, 0 },
	{ "execveat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "execveat", 2, EVT_CAP_ARGV, 0, AS_ARGV, 0 },
	{ "chdir", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "chroot", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mkdir", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mkdirat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mknod", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mknodat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "rmdir", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "unlink", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "unlinkat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "rename", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "rename", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "renameat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "renameat", 3, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "renameat2", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "renameat2", 3, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "link", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "link", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "linkat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "linkat", 3, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "symlink", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "symlink", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "symlinkat", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "symlinkat", 2, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "readlink", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "readlink", 1, EVT_CAP_BUF_OUT, 0, AS_BUFFER, 0 },
	{ "readlinkat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "readlinkat", 2, EVT_CAP_BUF_OUT, 0, AS_BUFFER, 0 },
	{ "chmod", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "fchmodat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "chown", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "lchown", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "fchownat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "truncate", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "utimensat", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mount", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mount", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "mount", 2, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "umount2", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "inotify_add_watch", 1, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "memfd_create", 0, EVT_CAP_STRING, 0, AS_PATH, 0 },
	{ "getcwd", 0, EVT_CAP_STRING_OUT, 0, AS_PATH, 0 },
	{ "write", 1, EVT_CAP_BUF_IN, 2, AS_BUFFER, 0 },
	{ "pwrite64", 1, EVT_CAP_BUF_IN, 2, AS_BUFFER, 0 },
	{ "read", 1, EVT_CAP_BUF_OUT, 0, AS_BUFFER, 0 },
	{ "pread64", 1, EVT_CAP_BUF_OUT, 0, AS_BUFFER, 0 },
	{ "sendto", 1, EVT_CAP_BUF_IN, 2, AS_BUFFER, 0 },
	{ "sendto", 4, EVT_CAP_STRUCT_IN, 5, AS_SOCKADDR, 0 },
	{ "recvfrom", 1, EVT_CAP_BUF_OUT, 0, AS_BUFFER, 0 },
	{ "connect", 1, EVT_CAP_STRUCT_IN, 2, AS_SOCKADDR, 0 },
	{ "bind", 1, EVT_CAP_STRUCT_IN, 2, AS_SOCKADDR, 0 },
	{ "writev", 1, EVT_CAP_IOVEC_IN, 2, AS_IOVEC, 0 },
	{ "pwritev", 1, EVT_CAP_IOVEC_IN, 2, AS_IOVEC, 0 },
	{ "pwritev2", 1, EVT_CAP_IOVEC_IN, 2, AS_IOVEC, 0 },
	{ "readv", 1, EVT_CAP_IOVEC_OUT, 2, AS_IOVEC, 0 },
	{ "preadv", 1, EVT_CAP_IOVEC_OUT, 2, AS_IOVEC, 0 },
	{ "preadv2", 1, EVT_CAP_IOVEC_OUT, 2, AS_IOVEC, 0 },
	{ "nanosleep", 0, EVT_CAP_STRUCT_IN, 0, AS_TIMESPEC, sizeof(struct timespec) },
	{ "clock_nanosleep", 2, EVT_CAP_STRUCT_IN, 0, AS_TIMESPEC, sizeof(struct timespec) },
};

static const struct rule *rule_of(const char *call, unsigned arg)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (rules[i].arg == arg && !strcmp(rules[i].call, call))
			return &rules[i];
	return NULL;
}

void evt_syscall_memory_spec(const char *call, struct evt_cap_spec *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(rules) / sizeof(*rules); i++)
		if (!strcmp(rules[i].call, call) && rules[i].arg < EVT_CAP_NARGS) {
			out->kind[rules[i].arg] = rules[i].kind;
			out->len_arg[rules[i].arg] = rules[i].len_arg;
			out->size[rules[i].arg] = rules[i].size;
		}
}

/* Appends to out (n used of size); the new length. */
static size_t put(char *out, size_t size, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *out, size_t size, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n >= size)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(out + n, size - n, fmt, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k < size ? n + (size_t)k : size - 1;
}

/* len bytes of s appended to out (n used of size), cut to fit; the new
 * length. */
static size_t add(char *out, size_t size, size_t n, const char *s, size_t len)
{
	if (n >= size)
		return n;
	if (len > size - 1 - n)
		len = size - 1 - n;
	memcpy(out + n, s, len);
	out[n + len] = '\0';
	return n + len;
}

/* Bytes quoted as strace quotes them: escapes for the C ones, octal for
 * other bytes that are not printable ASCII (three digits before a
 * digit), never a terminal's control sequence as it stands.  Built a
 * byte at a time without printf: a trace quotes millions of bytes. */
static size_t quote(const uint8_t *b, uint32_t len, int cut, char *out,
		    size_t size, size_t n)
{
	static const char escaped[256] = {
		['"'] = '"', ['\\'] = '\\', ['\t'] = 't', ['\n'] = 'n',
		['\v'] = 'v', ['\f'] = 'f', ['\r'] = 'r',
	};
	char e[4];
	uint32_t i;

	n = add(out, size, n, "\"", 1);
	for (i = 0; i < len && n + 5 < size; i++) {
		uint8_t c = b[i];
		size_t k = 0;

		if (escaped[c]) {
			e[k++] = '\\';
			e[k++] = escaped[c];
		} else if (c >= 0x20 && c < 0x7f) {
			e[k++] = (char)c;
		} else {
			bool digit_next = i + 1 < len && b[i + 1] >= '0' && b[i + 1] <= '7';

			e[k++] = '\\';
			if (c >= 0100 || digit_next)
				e[k++] = (char)('0' + (c >> 6));
			if (c >= 010 || digit_next)
				e[k++] = (char)('0' + ((c >> 3) & 7));
			e[k++] = (char)('0' + (c & 7));
		}
		n = add(out, size, n, e, k);
	}
	n = add(out, size, n, "\"", 1);
	if (cut || i < len)
		n = add(out, size, n, "...", 3);
	return n;
}

static const char *file_type(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return "S_IFREG";
	case S_IFDIR: return "S_IFDIR";
	case S_IFLNK: return "S_IFLNK";
	case S_IFCHR: return "S_IFCHR";
	case S_IFBLK: return "S_IFBLK";
	case S_IFIFO: return "S_IFIFO";
	case S_IFSOCK: return "S_IFSOCK";
	}
	return NULL;
}

static size_t stat_text(const uint8_t *b, uint32_t len, char *out, size_t size)
{
	struct stat st;
	const char *type;
	size_t n = 0;

	if (len < sizeof(st))
		return 0;
	memcpy(&st, b, sizeof(st));
	type = file_type(st.st_mode);
	n = put(out, size, n, "{st_mode=");
	n = type ? put(out, size, n, "%s|%#o", type, (unsigned)(st.st_mode & 07777)) :
		   put(out, size, n, "%#o", (unsigned)st.st_mode);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		n = put(out, size, n, ", st_rdev=makedev(%#x, %#x)",
			major(st.st_rdev), minor(st.st_rdev));
	else
		n = put(out, size, n, ", st_size=%" PRId64, (int64_t)st.st_size);
	return put(out, size, n, ", ...}");
}

static size_t timespec_text(const uint8_t *b, uint32_t len, char *out, size_t size)
{
	struct timespec ts;

	if (len < sizeof(ts))
		return 0;
	memcpy(&ts, b, sizeof(ts));
	return put(out, size, 0, "{tv_sec=%" PRId64 ", tv_nsec=%ld}",
		   (int64_t)ts.tv_sec, (long)ts.tv_nsec);
}

static size_t sockaddr_text(const uint8_t *b, uint32_t len, char *out, size_t size)
{
	sa_family_t family;
	char addr[INET6_ADDRSTRLEN], fam[32];
	size_t n;

	if (len < sizeof(family))
		return 0;
	memcpy(&family, b, sizeof(family));
	evt_syscall_arg_put(EVT_SHOW_FAMILY, 32, family, fam, sizeof(fam));
	n = put(out, size, 0, "{sa_family=%s", fam);
	if (family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		struct sockaddr_in in;

		memcpy(&in, b, sizeof(in));
		inet_ntop(AF_INET, &in.sin_addr, addr, sizeof(addr));
		n = put(out, size, n, ", sin_port=htons(%u), sin_addr=inet_addr(\"%s\")",
			ntohs(in.sin_port), addr);
	} else if (family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
		struct sockaddr_in6 in6;

		memcpy(&in6, b, sizeof(in6));
		inet_ntop(AF_INET6, &in6.sin6_addr, addr, sizeof(addr));
		n = put(out, size, n, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), "
			"inet_pton(AF_INET6, \"%s\", &sin6_addr), sin6_scope_id=%u",
			ntohs(in6.sin6_port), ntohl(in6.sin6_flowinfo), addr,
			in6.sin6_scope_id);
	} else if (family == AF_UNIX && len > sizeof(family)) {
		const uint8_t *path = b + sizeof(family);
		uint32_t plen = len - (uint32_t)sizeof(family);
		const uint8_t *nul = memchr(path, '\0', plen);

		n = put(out, size, n, ", sun_path=");
		if (plen && !path[0]) {	/* the abstract namespace */
			n = put(out, size, n, "@");
			path++;
			plen--;
			nul = NULL;
		}
		n = quote(path, nul ? (uint32_t)(nul - path) : plen, 0, out, size, n);
	} else if (len > sizeof(family)) {
		n = put(out, size, n, ", sa_data=");
		n = quote(b + sizeof(family), len - (uint32_t)sizeof(family), 0, out,
			  size, n);
	}
	return put(out, size, n, "}");
}

/* An iovec element: "{iov_base="...", iov_len=5}", its bytes cut at
 * strsize; the address where they could not be read. */
static size_t iovec_text(const uint8_t *b, uint32_t len, uint32_t flags,
			 uint64_t addr, uint32_t strsize, char *out, size_t size)
{
	unsigned long long iov_len;
	size_t n = put(out, size, 0, "{iov_base=");

	memcpy(&iov_len, b, 8);
	b += 8;
	len -= 8;
	if (flags & EVT_CAP_FAULT) {
		n = put(out, size, n, "%#" PRIx64, addr);
	} else {
		if (len > strsize) {
			len = strsize;
			flags |= EVT_CAP_CUT;
		}
		n = quote(b, len, flags & EVT_CAP_CUT, out, size, n);
	}
	return put(out, size, n, ", iov_len=%llu}", iov_len);
}

int evt_syscall_memory_text(const char *call, unsigned arg,
			    const uint8_t *bytes, uint32_t len, uint32_t flags,
			    uint64_t addr, uint32_t strsize, char *out, size_t size)
{
	const struct rule *r = rule_of(call, arg % 8);
	size_t n = 0;

	if (!size)
		return 0;
	out[0] = '\0';
	if (arg >= 8 && r && r->decode == AS_IOVEC && len >= 8)
		return (int)iovec_text(bytes, len, flags, addr, strsize, out, size);
	if ((flags & EVT_CAP_FAULT) || !r)
		return (int)put(out, size, 0, "%#" PRIx64, addr);
	if (arg >= 8 || r->decode == AS_BUFFER) {	/* strings, not paths: -s */
		if (len > strsize) {
			len = strsize;
			flags |= EVT_CAP_CUT;
		}
		return (int)quote(bytes, len, flags & EVT_CAP_CUT, out, size, 0);
	}
	switch (r->decode) {
	case AS_STAT:
		n = stat_text(bytes, len, out, size);
		break;
	case AS_TIMESPEC:
		n = timespec_text(bytes, len, out, size);
		break;
	case AS_SOCKADDR:
		n = sockaddr_text(bytes, len, out, size);
		break;
	default:
		n = quote(bytes, len, flags & EVT_CAP_CUT, out, size, 0);
	}
	if (!n)		/* too short for its struct */
		n = put(out, size, 0, "%#" PRIx64, addr);
	return (int)n;
}

int evt_syscall_memory_argv(const char *const *elems, unsigned n, int cut,
			    char *out, size_t size)
{
	size_t used = put(out, size, 0, "[");
	unsigned i;

	for (i = 0; i < n; i++)
		used = put(out, size, used, "%s%s", i ? ", " : "", elems[i]);
	if (cut)
		used = put(out, size, used, "%s...", n ? ", " : "");
	return (int)put(out, size, used, "]");
}

void evt_syscall_memory_texts(const char *call, const struct evt_cap_bytes *mem,
			      unsigned n, uint32_t strsize, char *texts[6])
{
	const char *elems[EVT_CAP_VEC_MAX];
	char one[20000];
	unsigned i, nelems[6] = { 0 }, cut[6] = { 0 };
	char *elem_text[6][EVT_CAP_VEC_MAX] = { { 0 } };

	memset(texts, 0, 6 * sizeof(*texts));
	for (i = 0; call && i < n; i++) {
		const struct evt_cap_bytes *m = &mem[i];
		unsigned arg = m->arg % 8, elem = m->arg / 8;

		if (arg >= 6)
			continue;
		evt_syscall_memory_text(call, m->arg, m->bytes, m->len, m->flags,
					m->addr, strsize, one, sizeof(one));
		if (!elem) {
			free(texts[arg]);
			texts[arg] = strdup(one);
		} else if (elem <= EVT_CAP_VEC_MAX && nelems[arg] == elem - 1) {
			/* (an element's own cut is in its text; the
			 * argv's, after the last element shown) */
			elem_text[arg][nelems[arg]++] = strdup(one);
			cut[arg] = (m->flags & EVT_CAP_MORE) != 0;
		}
	}
	for (i = 0; i < 6; i++) {
		unsigned k;

		if (!nelems[i])
			continue;
		for (k = 0; k < nelems[i]; k++)
			elems[k] = elem_text[i][k] ? elem_text[i][k] : "?";
		evt_syscall_memory_argv(elems, nelems[i], (int)cut[i], one, sizeof(one));
		free(texts[i]);
		texts[i] = strdup(one);
		for (k = 0; k < nelems[i]; k++)
			free(elem_text[i][k]);
	}
}

void evt_syscall_memory_texts_free(char *texts[6])
{
	unsigned i;

	for (i = 0; i < 6; i++) {
		free(texts[i]);
		texts[i] = NULL;
	}
}

/* A piece's head into out. */
static void pack_head(uint8_t *out, uint8_t arg, uint32_t flags, uint32_t len,
		      uint64_t addr)
{
	out[0] = arg;
	out[1] = (uint8_t)flags;
	out[2] = out[3] = 0;
	memcpy(out + 4, &len, 4);
	memcpy(out + 8, &addr, 8);
}

size_t evt_syscall_memory_pack(const struct evt_cap_bytes *mem, unsigned n,
			       const uint64_t *args, uint8_t *out, size_t size)
{
	const size_t head = EVT_SYSCALL_MEMORY_HEAD;
	size_t used = 0, room;
	unsigned i;

	if (args && size >= head + 6 * 8) {
		pack_head(out, EVT_SYSCALL_MEMORY_ARGS, 0, 6 * 8, 0);
		memcpy(out + head, args, 6 * 8);
		used = head + 6 * 8;
	}
	for (i = 0; i < n; i++) {
		uint32_t len = mem[i].len, flags = mem[i].flags;

		if (size - used < head)
			break;
		room = size - used - head;
		if (len > room) {
			len = (uint32_t)room;
			flags |= EVT_CAP_CUT;
		}
		pack_head(out + used, mem[i].arg, flags, len, mem[i].addr);
		memcpy(out + used + head, mem[i].bytes, len);
		used += head + len;
	}
	return used;
}

int evt_syscall_memory_unpack(const uint8_t *in, size_t len,
			      struct evt_cap_bytes *mem, unsigned max,
			      uint64_t args[6], bool *have_args)
{
	const size_t head = EVT_SYSCALL_MEMORY_HEAD;
	size_t at = 0;
	unsigned n = 0;
	uint32_t size;

	*have_args = false;
	while (at < len) {
		if (len - at < head)
			return -1;
		memcpy(&size, in + at + 4, 4);
		if (size > len - at - head)
			return -1;
		if (in[at] == EVT_SYSCALL_MEMORY_ARGS) {
			if (size != 6 * 8)
				return -1;
			memcpy(args, in + at + head, 6 * 8);
			*have_args = true;
		} else if (n < max) {
			mem[n] = (struct evt_cap_bytes){ .bytes = in + at + head,
							 .len = size,
							 .flags = in[at + 1],
							 .arg = in[at] };
			memcpy(&mem[n].addr, in + at + 8, 8);
			n++;
		}
		at += head + size;
	}
	return (int)n;
}
