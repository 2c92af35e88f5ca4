/*
 * usdt_notes.h - the USDT probes an ELF file carries (SystemTap's
 * .note.stapsdt notes, as <sys/sdt.h> writes them): where each is in the
 * file, its semaphore, and its arguments as the note describes them
 * ("-4@%edi", "8@-80(%rbx)"), turned into what a uprobe fetches.
 *
 * A note's desc holds three addresses (the probe's, the .stapsdt.base
 * section's as linked, the semaphore's or 0), then provider, name and
 * arguments as NUL-ended strings.  A prelinked file's sections moved: the
 * addresses move by what .stapsdt.base did.  The file offsets a uprobe
 * takes come from the PT_LOAD segment holding each address.
 */
#ifndef EVT_ENGINE_USDT_NOTES_H
#define EVT_ENGINE_USDT_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EVT_USDT_MAX_ARGS 12
#define EVT_USDT_NAME_MAX 64

enum evt_usdt_arg_kind {
	EVT_USDT_ARG_UNSUPPORTED = 0,	/* an operand a uprobe cannot fetch
					 * (an index register) */
	EVT_USDT_ARG_REG,		/* a register's value */
	EVT_USDT_ARG_MEM,		/* the memory at a register + disp */
	EVT_USDT_ARG_CONST,		/* an immediate */
};

struct evt_usdt_arg {
	uint8_t kind;			/* enum evt_usdt_arg_kind */
	int8_t size;			/* bytes; negative: signed */
	char reg[8];			/* the uprobe's name of it: "ax", "r12" */
	int64_t value;			/* MEM: the displacement; CONST: it */
	char spec[48];			/* as the note says it */
};

struct evt_usdt_probe {
	char provider[EVT_USDT_NAME_MAX];
	char name[EVT_USDT_NAME_MAX];
	uint64_t addr;			/* as the file is linked, moved */
	uint64_t offset;		/* in the file */
	uint64_t sema_addr;		/* 0: no semaphore */
	uint64_t sema_offset;		/* in the file */
	unsigned nargs;
	struct evt_usdt_arg args[EVT_USDT_MAX_ARGS];
};

/*
 * The probes of the ELF file at path, in the order of its notes, into
 * *out (free it), *n of them (0 and NULL: none).  0, or -1 with err set
 * (not a file it can read, not ELF, a note that does not read).
 */
int evt_usdt_probes(const char *path, struct evt_usdt_probe **out, unsigned *n,
		    char *err, size_t err_size);

/* A probe as `evtrace ls --probes` shows it, on one line of f: its path,
 * its arguments' types, the file and offset, "semaphore" when it has one. */
void evt_usdt_probe_write(FILE *f, const char *file, const struct evt_usdt_probe *p);

/* One argument of a note ("-4@%edi") into a; 0, or -1 when it is not
 * one. */
int evt_usdt_arg_parse(const char *spec, struct evt_usdt_arg *a);

/* Whether argument i (from 0) of provider's probe name is a C string, as
 * the programs that carry it document (Python's file and function names):
 * a note says only its size. */
bool evt_usdt_arg_is_string(const char *provider, const char *name, unsigned i);

/* The type an argument is recorded as: "string", "u64", "s32"... or
 * NULL when it cannot be fetched. */
const char *evt_usdt_arg_type(const struct evt_usdt_probe *p, unsigned i);

/*
 * What a uprobe fetches for a (tracefs's uprobe_events syntax: "%ax:s32",
 * "+112(%sp):u64"), as a C string when as_string: into out.  0, or -1
 * when it cannot be fetched.
 */
int evt_usdt_fetcharg(const struct evt_usdt_arg *a, bool as_string, char *out,
		      size_t size);

#endif
