/*
 * usdt_notes.c - the USDT probes of an ELF file (see usdt_notes.h), read
 * with libelf.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "usdt_notes.h"

#define NT_STAPSDT 3

/* x86-64's registers by every name an operand gives them, and the name
 * a uprobe knows them by (pt_regs's). */
static const char *uprobe_reg(const char *r)
{
	static const struct { const char *uprobe, *names[4]; } regs[] = {
		{ "ax", { "rax", "eax", "ax", "al" } },
		{ "bx", { "rbx", "ebx", "bx", "bl" } },
		{ "cx", { "rcx", "ecx", "cx", "cl" } },
		{ "dx", { "rdx", "edx", "dx", "dl" } },
		{ "si", { "rsi", "esi", "si", "sil" } },
		{ "di", { "rdi", "edi", "di", "dil" } },
		{ "bp", { "rbp", "ebp", "bp", "bpl" } },
		{ "sp", { "rsp", "esp", "sp", "spl" } },
		{ "ip", { "rip", "eip", "ip", NULL } },
	};
	static const char *const rn[] = { "r8", "r9", "r10", "r11", "r12", "r13",
					   "r14", "r15" };
	size_t i, j, len;

	for (i = 0; i < sizeof(regs) / sizeof(*regs); i++)
		for (j = 0; j < 4; j++)
			if (regs[i].names[j] && !strcmp(r, regs[i].names[j]))
				return regs[i].uprobe;
	for (i = 0; i < sizeof(rn) / sizeof(*rn); i++) {
		len = strlen(rn[i]);
		if (!strncmp(r, rn[i], len) &&
		    (!r[len] || ((r[len] == 'd' || r[len] == 'w' || r[len] == 'b') &&
				 !r[len + 1])))
			return rn[i];
	}
	return NULL;
}

/* A number as an operand writes it (decimal, 0x hex, a sign): 0, or -1. */
static int number(const char *s, size_t len, int64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

int evt_usdt_arg_parse(const char *spec, struct evt_usdt_arg *a)
{
	const char *at = strchr(spec, '@'), *op = at ? at + 1 : spec, *open, *reg;
	int64_t size = 8;

	memset(a, 0, sizeof(*a));
	snprintf(a->spec, sizeof(a->spec), "%s", spec);
	if (at && (number(spec, (size_t)(at - spec), &size) ||
		   (llabs(size) != 1 && llabs(size) != 2 && llabs(size) != 4 &&
		    llabs(size) != 8)))
		return -1;
	a->size = (int8_t)size;
	if (op[0] == '%') {
		if (!(reg = uprobe_reg(op + 1)))
			return -1;
		snprintf(a->reg, sizeof(a->reg), "%s", reg);
		a->kind = EVT_USDT_ARG_REG;
		return 0;
	}
	if (op[0] == '$') {
		if (number(op + 1, strlen(op + 1), &a->value))
			return -1;
		a->kind = EVT_USDT_ARG_CONST;
		return 0;
	}
	if (!(open = strchr(op, '(')) || op[strlen(op) - 1] != ')')
		return -1;
	if (open > op && number(op, (size_t)(open - op), &a->value)) {
		a->kind = EVT_USDT_ARG_UNSUPPORTED;	/* sym(%rip) */
		return 0;
	}
	if (open[1] != '%' || strchr(open, ',')) {
		a->kind = EVT_USDT_ARG_UNSUPPORTED;	/* an index register */
		return 0;
	}
	{
		char name[8];
		size_t len = strlen(open + 2) - 1;

		if (len >= sizeof(name))
			return -1;
		memcpy(name, open + 2, len);
		name[len] = '\0';
		if (!(reg = uprobe_reg(name)))
			return -1;
		snprintf(a->reg, sizeof(a->reg), "%s", reg);
	}
	a->kind = EVT_USDT_ARG_MEM;
	return 0;
}

int evt_usdt_fetcharg(const struct evt_usdt_arg *a, bool as_string, char *out,
		      size_t size)
{
	char type[8];
	int n;

	snprintf(type, sizeof(type), "%c%d", a->size < 0 ? 's' : 'u',
		 8 * (a->size < 0 ? -a->size : a->size));
	switch (a->kind) {
	case EVT_USDT_ARG_REG:
		n = as_string ? snprintf(out, size, "+0(%%%s):string", a->reg) :
		    snprintf(out, size, "%%%s:%s", a->reg, type);
		break;
	case EVT_USDT_ARG_MEM:
		n = as_string ? snprintf(out, size, "+0(%+" PRId64 "(%%%s)):string",
					 a->value, a->reg) :
		    snprintf(out, size, "%+" PRId64 "(%%%s):%s", a->value, a->reg, type);
		break;
	case EVT_USDT_ARG_CONST:
		if (as_string)
			return -1;
		n = snprintf(out, size, "\\%" PRId64 ":%s", a->value, type);
		break;
	default:
		return -1;
	}
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

bool evt_usdt_arg_is_string(const char *provider, const char *name, unsigned i)
{
	/* CPython's Doc/howto/instrumentation: (filename, funcname, lineno)
	 * and the module's name of an import. */
	static const struct { const char *provider, *name; unsigned strings; } known[] = {
		{ "python", "function__entry", 1 | 2 },
		{ "python", "function__return", 1 | 2 },
		{ "python", "line", 1 | 2 },
		{ "python", "import__find__load__start", 1 },
		{ "python", "import__find__load__done", 1 },
		{ "python", "audit", 1 },
	};
	size_t k;

	for (k = 0; k < sizeof(known) / sizeof(*known); k++)
		if (!strcmp(known[k].provider, provider) && !strcmp(known[k].name, name))
			return i < 8 && (known[k].strings >> i & 1);
	return false;
}

const char *evt_usdt_arg_type(const struct evt_usdt_probe *p, unsigned i)
{
	static const char *const types[2][4] = {
		{ "u8", "u16", "u32", "u64" }, { "s8", "s16", "s32", "s64" },
	};
	const struct evt_usdt_arg *a = &p->args[i];
	int size = a->size < 0 ? -a->size : a->size;

	if (a->kind == EVT_USDT_ARG_UNSUPPORTED)
		return NULL;
	if (a->kind != EVT_USDT_ARG_CONST && size == 8 &&
	    evt_usdt_arg_is_string(p->provider, p->name, i))
		return "string";
	return types[a->size < 0][size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3];
}

/* The file offset of address addr in a PT_LOAD segment, or -1. */
static int64_t file_offset(Elf *e, size_t nph, uint64_t addr, bool exec)
{
	GElf_Phdr ph;
	size_t i;

	for (i = 0; i < nph; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    (!exec || (ph.p_flags & PF_X)) &&
		    addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz)
			return (int64_t)(addr - ph.p_vaddr + ph.p_offset);
	return -1;
}

/* The note's probe from its desc (len bytes, addresses of asize). */
static int note_probe(const uint8_t *desc, size_t len, unsigned asize,
		      uint64_t base_now, struct evt_usdt_probe *p, char *why,
		      size_t why_size)
{
	uint64_t addr = 0, base = 0, sema = 0;
	const char *s = (const char *)desc + 3 * asize, *end = (const char *)desc + len;
	const char *provider, *name, *args;
	char one[64];

	memset(p, 0, sizeof(*p));
	if (len < 3 * asize + 3)
		return snprintf(why, why_size, "a note of %zu bytes", len), -1;
	memcpy(&addr, desc, asize);
	memcpy(&base, desc + asize, asize);
	memcpy(&sema, desc + 2 * asize, asize);
	provider = s;
	if (!(s = memchr(s, '\0', (size_t)(end - s))))
		goto cut;
	name = ++s;
	if (s >= end || !(s = memchr(s, '\0', (size_t)(end - s))))
		goto cut;
	args = ++s;
	if (s >= end || !memchr(s, '\0', (size_t)(end - s)))
		goto cut;
	if (strlen(provider) >= sizeof(p->provider) || strlen(name) >= sizeof(p->name) ||
	    !provider[0] || !name[0])
		return snprintf(why, why_size, "a probe named \"%.40s\" \"%.40s\"",
				provider, name), -1;
	strcpy(p->provider, provider);
	strcpy(p->name, name);
	if (base && base_now) {	/* prelinked: everything moved alike */
		addr += base_now - base;
		if (sema)
			sema += base_now - base;
	}
	p->addr = addr;
	p->sema_addr = sema;
	while (*args) {
		size_t n = strcspn(args, " ");

		if (n && p->nargs < EVT_USDT_MAX_ARGS) {
			snprintf(one, sizeof(one), "%.*s", (int)n, args);
			if (evt_usdt_arg_parse(one, &p->args[p->nargs]))
				p->args[p->nargs].kind = EVT_USDT_ARG_UNSUPPORTED;
			p->nargs++;
		}
		args += n;
		args += strspn(args, " ");
	}
	return 0;
cut:
	return snprintf(why, why_size, "a note whose strings run past it"), -1;
}

int evt_usdt_probes(const char *path, struct evt_usdt_probe **out, unsigned *n,
		    char *err, size_t err_size)
{
	struct evt_usdt_probe *probes = NULL, *grown;
	uint64_t base_now = 0;
	size_t shstrndx, nph = 0;
	Elf_Scn *scn = NULL;
	char why[200];
	struct stat st;
	Elf *e = NULL;
	int fd, ret = -1;

	*out = NULL;
	*n = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return snprintf(err, err_size, "libelf: %s", elf_errmsg(-1)), -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return snprintf(err, err_size, "%s: %s", path, strerror(errno)), -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, err_size, "%s: not a regular file", path);
		goto out;
	}
	if (!(e = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(e) != ELF_K_ELF ||
	    elf_getshdrstrndx(e, &shstrndx) || elf_getphdrnum(e, &nph)) {
		snprintf(err, err_size, "%s: not an ELF file", path);
		goto out;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".stapsdt.base"))
			base_now = sh.sh_addr;
	}
	while ((scn = elf_nextscn(e, scn))) {
		unsigned asize = gelf_getclass(e) == ELFCLASS32 ? 4 : 8;
		Elf_Data *data = NULL;
		size_t off, name_off, desc_off;
		GElf_Nhdr nh;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		while ((data = elf_getdata(scn, data))) {
			for (off = 0; (off = gelf_getnote(data, off, &nh, &name_off,
							  &desc_off)) > 0; ) {
				struct evt_usdt_probe p;
				int64_t at;

				if (nh.n_type != NT_STAPSDT || nh.n_namesz != 8 ||
				    memcmp((const char *)data->d_buf + name_off, "stapsdt", 8))
					continue;
				if (note_probe((const uint8_t *)data->d_buf + desc_off,
					       nh.n_descsz, asize, base_now, &p, why,
					       sizeof(why))) {
					snprintf(err, err_size, "%s: %s", path, why);
					goto out;
				}
				if ((at = file_offset(e, nph, p.addr, true)) < 0) {
					snprintf(err, err_size, "%s: probe %s:%s at 0x%" PRIx64
						 " is in no segment of code", path,
						 p.provider, p.name, p.addr);
					goto out;
				}
				p.offset = (uint64_t)at;
				if (p.sema_addr &&
				    (at = file_offset(e, nph, p.sema_addr, false)) < 0) {
					snprintf(err, err_size, "%s: probe %s:%s: its semaphore "
						 "at 0x%" PRIx64 " is in no segment", path,
						 p.provider, p.name, p.sema_addr);
					goto out;
				}
				p.sema_offset = p.sema_addr ? (uint64_t)at : 0;
				if (!(grown = realloc(probes, (*n + 1) * sizeof(*grown)))) {
					snprintf(err, err_size, "out of memory");
					goto out;
				}
				probes = grown;
				probes[(*n)++] = p;
			}
		}
	}
	*out = probes;
	probes = NULL;
	ret = 0;
out:
	if (ret)
		*n = 0;
	free(probes);
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

void evt_usdt_probe_write(FILE *f, const char *file, const struct evt_usdt_probe *p)
{
	unsigned a;

	fprintf(f, "usdt/%s/%s", p->provider, p->name);
	for (a = 0; a < p->nargs; a++) {
		const char *type = evt_usdt_arg_type(p, a);

		if (type)
			fprintf(f, " arg%u:%s", a + 1, type);
		else
			fprintf(f, " arg%u:(not fetched: %s)", a + 1, p->args[a].spec);
	}
	fprintf(f, "  (%s+0x%" PRIx64 "%s)\n", file, p->offset,
		p->sema_addr ? ", semaphore" : "");
}
