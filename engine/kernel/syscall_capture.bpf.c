/*
 * syscall_capture.bpf.c - the eBPF program of evtrace trace: at each
 * system call of a traced process, the user memory its arguments point
 * to, copied at the moment of the call (see syscall_capture.h).  Built
 * with clang -target bpf, loaded by syscall_bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "syscall_capture.h"

/* bpf_probe_read_user() and bpf_probe_read_user_str() are GPL-only. */
/* Every program returns 1: a tracepoint program's 0 would drop the
 * event for every perf user of that tracepoint (another tool's, and
 * trace -w's own raw_syscalls records). */
char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EVT_CAP_TASKS_MAX);
	__type(key, __u32);		/* a process traced (its pid), or a
					 * thread of one while it lives; 0:
					 * every process */
	__type(value, __u8);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EVT_CAP_NR_MAX);
	__type(key, __u32);
	__type(value, struct evt_cap_spec);
} spec SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct evt_cap_config);
} config SEC(".maps");

/* With config's filter, the calls wanted (EVT_CAP_WANT_*), by number. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, EVT_CAP_NR_MAX);
	__type(key, __u32);
	__type(value, __u8);
} wanted SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 32 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, EVT_CAP_LOST_KINDS);
	__type(key, __u32);
	__type(value, __u64);		/* EVT_CAP_LOST_*: records the ring
					 * had no room for, and children the
					 * map "tasks" had none for */
} lost SEC(".maps");

/* A call whose output arguments are copied at its exit. */
struct pending {
	__u64 args[EVT_CAP_NARGS];
	__s64 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);		/* tid */
	__type(value, struct pending);
} pending SEC(".maps");

/* Twice the bytes ever copied: a length is masked with 2 * max - 1 in a
 * way the compiler cannot drop as redundant, so that the verifier sees
 * the bound, which it loses across a comparison's branches. */
static __always_inline __u64 BOUND(__u64 n)
{
	asm volatile("%[n] &= 0x1fff" : [n] "+r"(n));
	return n;
}

/* The same for bytes after an 8-byte head (an iovec element's iov_len):
 * less than EVT_CAP_BYTES_MAX of them. */
static __always_inline __u64 BOUND_AFTER_HEAD(__u64 n)
{
	asm volatile("%[n] &= 0xfff" : [n] "+r"(n));
	return n;
}

struct scratch {
	struct evt_cap_head h;
	char data[2 * EVT_CAP_BYTES_MAX];
	__u64 vec[2 * EVT_CAP_VEC_MAX];	/* an iovec array read */
	__u64 left;			/* of what its call filled */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

/* Which sides of the call are wanted (EVT_CAP_WANT_*): both without a
 * filter, none of a call beyond the table with one.  An entry is shown
 * for its exit too, whose arguments it gives. */
static __always_inline __u8 wanted_sides(const struct evt_cap_config *cfg,
					  __u32 *nr)
{
	__u8 *w;

	if (!cfg->filter)
		return EVT_CAP_WANT_ENTER | EVT_CAP_WANT_EXIT;
	w = *nr < EVT_CAP_NR_MAX ? bpf_map_lookup_elem(&wanted, nr) : 0;
	return w ? *w : 0;
}

/* The raw_syscalls tracepoints' records, after the 8 common bytes. */
struct sys_enter_ctx {
	__u64 common;
	long id;
	unsigned long args[EVT_CAP_NARGS];
};

struct sys_exit_ctx {
	__u64 common;
	long id;
	long ret;
};

static __always_inline void count_lost(__u32 which)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &which);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* The kernel's, as far as the owner check reads them: their offsets
 * come from the kernel's BTF when the program is loaded (CO-RE). */
typedef struct {
	unsigned int val;
} kuid_t;

typedef struct {
	unsigned int val;
} kgid_t;

struct cred {
	kuid_t uid, suid, euid;
	kgid_t gid, sgid, egid;
} __attribute__((preserve_access_index));

/* mm_struct's flags, whose low two bits say whether the process is
 * dumpable: a word before 6.18, a bitmap in a struct since. */
struct mm_struct___word {
	unsigned long flags;
} __attribute__((preserve_access_index));

struct mm_struct___bitmap {
	struct {
		unsigned long __mm_flags[1];
	} flags;
} __attribute__((preserve_access_index));

struct task_struct {
	const struct cred *cred;
	void *mm;
	int exit_code;
} __attribute__((preserve_access_index));

#define SUID_DUMP_USER 1	/* the kernel's: dumpable, as its user */
#define MMF_DUMPABLE_MASK 3

/*
 * Whether the owner could ptrace the task, as the kernel decides for
 * perf_event_open and /proc/PID/mem (ptrace_may_access with the caller's
 * real ids): its real, effective and saved ids all the owner's, and its
 * memory dumpable as its user's.  A program that gained privilege at an
 * exec (setuid, setgid, file capabilities) or said PR_SET_DUMPABLE 0
 * fails it.  0 when it passes, else EVT_CAP_UNTRACED_IDS or _DUMPABLE.
 */
static __always_inline unsigned int not_owners(const struct evt_cap_config *cfg)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	const struct cred *cred = BPF_CORE_READ(task, cred);
	unsigned int uid, suid, euid, gid, sgid, egid;
	unsigned long flags = SUID_DUMP_USER;
	void *mm;

	if (!cred || bpf_core_read(&uid, sizeof(uid), &cred->uid.val) ||
	    bpf_core_read(&suid, sizeof(suid), &cred->suid.val) ||
	    bpf_core_read(&euid, sizeof(euid), &cred->euid.val) ||
	    bpf_core_read(&gid, sizeof(gid), &cred->gid.val) ||
	    bpf_core_read(&sgid, sizeof(sgid), &cred->sgid.val) ||
	    bpf_core_read(&egid, sizeof(egid), &cred->egid.val))
		return EVT_CAP_UNTRACED_IDS;
	if (uid != cfg->owner || suid != cfg->owner || euid != cfg->owner ||
	    gid != cfg->owner_gid || sgid != cfg->owner_gid || egid != cfg->owner_gid)
		return EVT_CAP_UNTRACED_IDS;
	mm = BPF_CORE_READ(task, mm);
	if (!mm)	/* (ending: its memory is gone, as the kernel sees it) */
		return 0;
	if (bpf_core_field_exists(((struct mm_struct___bitmap *)mm)->flags.__mm_flags))
		bpf_core_read(&flags, sizeof(flags),
			      &((struct mm_struct___bitmap *)mm)->flags.__mm_flags[0]);
	else
		bpf_core_read(&flags, sizeof(flags),
			      &((struct mm_struct___word *)mm)->flags);
	return (flags & MMF_DUMPABLE_MASK) == SUID_DUMP_USER ? 0 :
	       EVT_CAP_UNTRACED_DUMPABLE;
}

static __always_inline void head(struct evt_cap_head *h, __u8 type, long nr,
				 __u64 ktime)
{
	__u64 id = bpf_get_current_pid_tgid();

	h->ktime = ktime;
	h->pid = id >> 32;
	h->tid = (__u32)id;
	bpf_get_current_comm(h->comm, sizeof(h->comm));
	h->cpu = (__u16)bpf_get_smp_processor_id();
	h->type = type;
	h->arg = 0;
	h->flags = 0;
	h->len = 0;
	h->nr = nr;
	h->ret = 0;
}

/* The record in s, len bytes after its head, into the ring; a call's
 * own record, wanted for itself (not only for its exit's arguments),
 * is counted among the calls' when the ring has no room for it. */
static __always_inline void output_call(struct scratch *s, __u32 len, int wanted)
{
	if (len > EVT_CAP_BYTES_MAX)
		len = EVT_CAP_BYTES_MAX;
	s->h.len = len;
	if (bpf_ringbuf_output(&events, s, sizeof(s->h) + BOUND(len), 0)) {
		count_lost(EVT_CAP_LOST_ALL);
		if (wanted)
			count_lost(EVT_CAP_LOST_CALLS);
	}
}

static __always_inline void output(struct scratch *s, __u32 len)
{
	output_call(s, len, 0);
}

/*
 * A task of a followed process, and one the owner could ptrace when
 * there is an owner: checked at every call, so that a process that gains
 * privilege is let go of at the first call after (its exec's return),
 * with a record saying so, and never followed again.
 */
static __always_inline int traced(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, zero = 0;
	const struct evt_cap_config *cfg;
	struct scratch *s;
	unsigned int why;

	/* (a second lookup, not a setting read first: that made the
	 * verifier follow the rest of each program twice) */
	if (!bpf_map_lookup_elem(&tasks, &tgid) &&
	    !bpf_map_lookup_elem(&tasks, &zero))
		return 0;
	cfg = bpf_map_lookup_elem(&config, &zero);
	if (!cfg || cfg->owner == EVT_CAP_ANY_OWNER)
		return 1;
	why = not_owners(cfg);
	if (!why)
		return 1;
	/* Followed by its pid, let go of once (the delete that succeeds
	 * says so); with key 0 (every process) only left out. */
	if (bpf_map_delete_elem(&tasks, &tgid) == 0 &&
	    (s = bpf_map_lookup_elem(&scratch, &zero))) {
		head(&s->h, EVT_CAP_UNTRACED, -1, bpf_ktime_get_ns());
		s->h.ret = why;
		output(s, 0);
	}
	return 0;
}

/* A NUL-ended string at p, as argument record arg; its bytes without the
 * NUL, cut (flagged) at max. */
static __always_inline void put_string(struct scratch *s, __u8 arg, __u64 p,
				       __u32 extra_flags)
{
	long n = bpf_probe_read_user_str(s->data, EVT_CAP_BYTES_MAX,
					 (const void *)p);

	s->h.type = EVT_CAP_ARG;
	s->h.arg = arg;
	s->h.flags = extra_flags;
	s->h.ret = (long long)p;
	if (n <= 0) {
		s->h.flags |= EVT_CAP_FAULT;
		output(s, 0);
		return;
	}
	if (n >= EVT_CAP_BYTES_MAX)
		s->h.flags |= EVT_CAP_CUT;
	output(s, (__u32)(n - 1));
}

/* want bytes at p, at most max of them (flagged cut beyond). */
static __always_inline void put_bytes(struct scratch *s, __u8 arg, __u64 p,
				      __u64 want, __u32 max)
{
	__u32 n = want > max ? max : (__u32)want;

	if (n > EVT_CAP_BYTES_MAX)
		n = EVT_CAP_BYTES_MAX;
	s->h.type = EVT_CAP_ARG;
	s->h.arg = arg;
	s->h.flags = want > n ? EVT_CAP_CUT : 0;
	s->h.ret = (long long)p;
	if (bpf_probe_read_user(s->data, BOUND(n), (const void *)p)) {
		s->h.flags = EVT_CAP_FAULT;
		n = 0;
	}
	output(s, n);
}

/* Argument arg's memory at p could not be read: its address only. */
static __always_inline void put_fault(struct scratch *s, __u8 arg, __u64 p)
{
	s->h.type = EVT_CAP_ARG;
	s->h.arg = arg;
	s->h.flags = EVT_CAP_FAULT;
	s->h.ret = (long long)p;
	output(s, 0);
}

/* The first EVT_CAP_VEC_MAX strings of a NULL-ended array of them. */
static __always_inline void put_argv(struct scratch *s, __u8 arg, __u64 p)
{
	__u64 elem[EVT_CAP_VEC_MAX + 1] = { 0 };
	int i;

	if (bpf_probe_read_user(elem, sizeof(elem), (const void *)p)) {
		put_fault(s, arg, p);
		return;
	}
#pragma unroll
	for (i = 0; i < EVT_CAP_VEC_MAX; i++) {
		if (!elem[i])
			break;
		put_string(s, (__u8)(8 * (i + 1) + arg), elem[i],
			   i == EVT_CAP_VEC_MAX - 1 && elem[i + 1] ? EVT_CAP_MORE : 0);
	}
}

/* What the step of an iovec's element sees (bpf_loop: verified once). */
struct iov_step {
	struct scratch *s;
	__u32 max;
	__u8 arg;
	__u64 count;
};

static long iov_elem(__u32 i, struct iov_step *c)
{
	struct scratch *s = c->s;
	__u64 base, len, want, j = i;
	__u32 k;

	if (i >= EVT_CAP_VEC_MAX)
		return 1;
	/* (masked where the verifier sees it: the compiler may index from
	 * a copy of i the comparison above did not bound) */
	asm volatile("%[j] &= 3" : [j] "+r"(j));
	base = s->vec[2 * j];
	len = s->vec[2 * j + 1];
	/* (what is left is kept in the map, whose values the verifier
	 * does not follow: a counter of its own in the loop's state made
	 * it walk every combination, a quarter second at each start) */
	want = len < s->left ? len : s->left;
	s->left -= want;
	k = want > c->max ? c->max : (__u32)want;
	if (k > EVT_CAP_BYTES_MAX - 8)
		k = EVT_CAP_BYTES_MAX - 8;
	s->h.type = EVT_CAP_ARG;
	s->h.arg = (__u8)(8 * (i + 1) + c->arg);
	s->h.flags = (want > k ? EVT_CAP_CUT : 0) |
		     (i == EVT_CAP_VEC_MAX - 1 && c->count > EVT_CAP_VEC_MAX ?
		      EVT_CAP_MORE : 0);
	s->h.ret = (long long)base;
	__builtin_memcpy(s->data, &len, 8);
	if (bpf_probe_read_user(s->data + 8, BOUND_AFTER_HEAD(k), (const void *)base)) {
		s->h.flags |= EVT_CAP_FAULT;
		k = 0;
	}
	output(s, 8 + k);
	return 0;
}

/*
 * The first EVT_CAP_VEC_MAX buffers of an iovec array of count elements:
 * each its iov_len, then its bytes, at most max, and for a call's output
 * (total >= 0) no more than the total it says it filled, in order.
 */
static __always_inline void put_iovec(struct scratch *s, __u8 arg, __u64 p,
				      __u64 count, __u32 max, long total)
{
	struct iov_step c = { s, max, arg, count };
	__u32 n = count > EVT_CAP_VEC_MAX ? EVT_CAP_VEC_MAX : (__u32)count;

	if (!n || bpf_probe_read_user(s->vec, (n * 16) & 0x7f, (const void *)p)) {
		put_fault(s, arg, p);
		return;
	}
	s->left = total < 0 ? ~0ULL : (__u64)total;
	bpf_loop(n, iov_elem, &c, 0);
}

/* Argument i (a value from the table): a switch, since the verifier
 * refuses a stack slot at a computed index. */
static __always_inline __u64 arg_at(const __u64 *args, __u8 i)
{
	switch (i) {
	case 0: return args[0];
	case 1: return args[1];
	case 2: return args[2];
	case 3: return args[3];
	case 4: return args[4];
	default: return args[5];
	}
}

/* What the per-argument step of a call sees (bpf_loop's callback is
 * verified once, not once per argument and kind). */
struct step {
	struct scratch *s;
	const struct evt_cap_spec *sp;
	const struct evt_cap_config *cfg;
	__u64 args[EVT_CAP_NARGS];
	long ret;
	int outputs;		/* enter: some argument is copied at exit */
};

static long enter_arg(__u32 i, struct step *c)
{
	__u8 k, len_arg;
	__u64 p;

	if (i >= EVT_CAP_NARGS)
		return 1;
	k = c->sp->kind[i];
	len_arg = c->sp->len_arg[i];
	p = arg_at(c->args, (__u8)i);
	if (k == EVT_CAP_NONE || !p)
		return 0;
	if (k == EVT_CAP_STRING)
		put_string(c->s, (__u8)i, p, 0);
	else if (k == EVT_CAP_BUF_IN)
		put_bytes(c->s, (__u8)i, p, arg_at(c->args, len_arg), c->cfg->buf_bytes);
	else if (k == EVT_CAP_STRUCT_IN)
		put_bytes(c->s, (__u8)i, p, c->sp->size[i] ? c->sp->size[i] :
			  arg_at(c->args, len_arg), c->sp->size[i] ? c->sp->size[i] : 128);
	else if (k == EVT_CAP_ARGV)
		put_argv(c->s, (__u8)i, p);
	else if (k != EVT_CAP_IOVEC_IN)	/* (the call's own step) */
		c->outputs = 1;
	return 0;
}

static long exit_arg(__u32 i, struct step *c)
{
	__u8 k;
	__u64 p;

	if (i >= EVT_CAP_NARGS)
		return 1;
	k = c->sp->kind[i];
	p = arg_at(c->args, (__u8)i);
	if (!p)
		return 0;
	if (k == EVT_CAP_BUF_OUT)
		put_bytes(c->s, (__u8)i, p, (__u64)c->ret, c->cfg->buf_bytes);
	else if (k == EVT_CAP_STRUCT_OUT && c->ret == 0)
		put_bytes(c->s, (__u8)i, p, c->sp->size[i], c->sp->size[i]);
	else if (k == EVT_CAP_STRING_OUT && c->ret > 0)
		put_string(c->s, (__u8)i, p, 0);

	return 0;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct sys_enter_ctx *ctx)
{
	__u32 zero = 0, nr, tid;
	struct step c = { 0 };
	struct pending saved;
	__u64 now;
	__u8 sides;
	int i;

	if (!traced())
		return 1;
	/* The tracepoint's record only at constant offsets (the verifier
	 * refuses a moved context pointer). */
	c.args[0] = ctx->args[0];
	c.args[1] = ctx->args[1];
	c.args[2] = ctx->args[2];
	c.args[3] = ctx->args[3];
	c.args[4] = ctx->args[4];
	c.args[5] = ctx->args[5];
	c.s = bpf_map_lookup_elem(&scratch, &zero);
	c.cfg = bpf_map_lookup_elem(&config, &zero);
	nr = (__u32)ctx->id;
	if (!c.s || !c.cfg || !(sides = wanted_sides(c.cfg, &nr)))
		return 1;
	now = bpf_ktime_get_ns();
	c.sp = nr < EVT_CAP_NR_MAX ? bpf_map_lookup_elem(&spec, &nr) : 0;
	head(&c.s->h, EVT_CAP_ENTER, ctx->id, now);
	if (c.sp) {
		bpf_loop(EVT_CAP_NARGS, enter_arg, &c, 0);
		/* An iovec is always argument 1, its count argument 2: seen
		 * here, not in the step above, whose verification it would
		 * multiply (a quarter second at each start). */
		if (c.sp->kind[1] == EVT_CAP_IOVEC_IN)
			put_iovec(c.s, 1, c.args[1], c.args[2], c.cfg->buf_bytes, -1);
	}
	if (c.outputs && (sides & EVT_CAP_WANT_EXIT)) {
		tid = (__u32)bpf_get_current_pid_tgid();
		for (i = 0; i < EVT_CAP_NARGS; i++)
			saved.args[i] = c.args[i];
		saved.nr = ctx->id;
		bpf_map_update_elem(&pending, &tid, &saved, BPF_ANY);
	}
	head(&c.s->h, EVT_CAP_ENTER, ctx->id, now);
	__builtin_memcpy(c.s->data, c.args, sizeof(c.args));
	output_call(c.s, sizeof(c.args), sides & EVT_CAP_WANT_ENTER);
	return 1;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct sys_exit_ctx *ctx)
{
	__u32 zero = 0, tid, nr;
	struct step c = { 0 };
	struct pending *saved;
	__u64 now;
	int i;

	if (!traced())
		return 1;
	c.s = bpf_map_lookup_elem(&scratch, &zero);
	c.cfg = bpf_map_lookup_elem(&config, &zero);
	nr = (__u32)ctx->id;
	if (!c.s || !c.cfg || !(wanted_sides(c.cfg, &nr) & EVT_CAP_WANT_EXIT))
		return 1;
	now = bpf_ktime_get_ns();
	tid = (__u32)bpf_get_current_pid_tgid();
	c.ret = ctx->ret;
	saved = bpf_map_lookup_elem(&pending, &tid);
	c.sp = nr < EVT_CAP_NR_MAX ? bpf_map_lookup_elem(&spec, &nr) : 0;
	head(&c.s->h, EVT_CAP_EXIT, ctx->id, now);
	if (saved && c.sp && saved->nr == ctx->id && c.ret >= 0) {
		for (i = 0; i < EVT_CAP_NARGS; i++)
			c.args[i] = saved->args[i];
		bpf_loop(EVT_CAP_NARGS, exit_arg, &c, 0);
		if (c.sp->kind[1] == EVT_CAP_IOVEC_OUT)
			put_iovec(c.s, 1, c.args[1], c.args[2], c.cfg->buf_bytes, c.ret);
	}
	if (saved)
		bpf_map_delete_elem(&pending, &tid);
	head(&c.s->h, EVT_CAP_EXIT, ctx->id, now);
	c.s->h.ret = ctx->ret;
	output_call(c.s, 0, 1);
	return 1;
}

/* A traced process's child is traced from its first instruction (a
 * thread's entry is taken out at its end); one the map has no room for
 * is counted. */
SEC("tracepoint/sched/sched_process_fork")
int on_fork(void *ctx)
{
	__u32 zero = 0, child = 0;
	const struct evt_cap_config *cfg;
	__u8 one = 1;

	if (!traced() || !(cfg = bpf_map_lookup_elem(&config, &zero)) ||
	    bpf_map_lookup_elem(&tasks, &zero))
		return 1;
	if (bpf_probe_read_kernel(&child, sizeof(child),
				  (const char *)ctx + (cfg->fork_child_off & 0xfff)))
		return 1;
	if (bpf_map_update_elem(&tasks, &child, &one, BPF_ANY))
		count_lost(EVT_CAP_LOST_TASKS);
	return 1;
}

/* A followed task's end, as strace's "+++ exited with 0 +++": each
 * thread's, then its process's. */
SEC("tracepoint/sched/sched_process_exit")
int on_process_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id, zero = 0;
	const struct evt_cap_config *cfg;
	struct task_struct *task;
	struct scratch *s;
	int code = 0, shown;
	__u8 last = 0;	/* the process's last task */

	/* A thread's entry, made at its clone (the fork tracepoint does not
	 * tell a thread from a process): gone with it, so that the map does
	 * not fill with threads, nor a later process of its number count as
	 * followed. */
	if (tid != tgid)
		bpf_map_delete_elem(&tasks, &tid);
	if (!bpf_map_lookup_elem(&tasks, &tgid) ||
	    !(cfg = bpf_map_lookup_elem(&config, &zero)))
		return 1;
	shown = traced();
	if (cfg->exit_group_dead_off)
		bpf_probe_read_kernel(&last, sizeof(last),
				      (const char *)ctx + (cfg->exit_group_dead_off & 0xfff));
	else
		last = (__u32)id == tgid;
	if (last)
		bpf_map_delete_elem(&tasks, &tgid);
	if (!shown)
		return 1;
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 1;
	task = (struct task_struct *)bpf_get_current_task();
	if (bpf_core_read(&code, sizeof(code), &task->exit_code))
		return 1;
	head(&s->h, EVT_CAP_GONE, -1, bpf_ktime_get_ns());
	s->h.ret = code;
	output(s, 0);
	return 1;
}

/* A signal delivered to a followed task, as strace's "--- SIGUSR1 ...
 * ---" (SIGKILL, which strace never sees, is left to the task's end). */
SEC("tracepoint/signal/signal_deliver")
int on_signal(void *ctx)
{
	const struct evt_cap_config *cfg;
	__u32 zero = 0;
	struct scratch *s;
	int sig = 0, code = 0;

	if (!traced() || !(cfg = bpf_map_lookup_elem(&config, &zero)) ||
	    !(s = bpf_map_lookup_elem(&scratch, &zero)))
		return 1;
	if (bpf_probe_read_kernel(&sig, sizeof(sig),
				  (const char *)ctx + (cfg->signal_sig_off & 0xfff)) ||
	    bpf_probe_read_kernel(&code, sizeof(code),
				  (const char *)ctx + (cfg->signal_code_off & 0xfff)) ||
	    sig == 9)
		return 1;
	head(&s->h, EVT_CAP_SIGNAL, sig, bpf_ktime_get_ns());
	s->h.ret = code;
	output(s, 0);
	return 1;
}
