/* typed_events.h - events of every field type, defined once for the test
 * program and its shared library. */
#ifndef TYPED_EVENTS_H
#define TYPED_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include <evtrace/evtrace.h>

struct row {
	uint8_t u8;
	int8_t i8;
	uint16_t u16;
	int16_t i16;
	uint32_t u32;
	int32_t i32;
	uint64_t u64;
	int64_t i64;
	int color;
	bool flag;
	double real;
	char tag[8];
	int32_t trio[3];
	const char *text;
	const uint16_t *seq;
	unsigned long nseq;
};

EVT_ENUM(color, {"red", 0}, {"green", 1}, {"blue", -1})

EVT_EVENT(typed, all,
	EVT_PROTO(const struct row *r, int from_lib),
	EVT_ARGS(r, from_lib),
	EVT_FIELDS(
		evt_integer(uint8_t, u8, r->u8),
		evt_integer(int8_t, i8, r->i8),
		evt_integer(uint16_t, u16, r->u16),
		evt_integer(int16_t, i16, r->i16),
		evt_integer(uint32_t, u32, r->u32),
		evt_integer(int32_t, i32, r->i32),
		evt_integer(uint64_t, u64, r->u64),
		evt_integer(int64_t, i64, r->i64),
		evt_enum(int8_t, color, color, r->color),
		evt_bool(flag, r->flag),
		evt_double(real, r->real),
		evt_array(char, tag, 8, r->tag),
		evt_array(int32_t, trio, 3, r->trio),
		evt_string(text, r->text),
		evt_sequence(uint16_t, seq, r->seq, r->nseq),
		evt_integer(int, from_lib, from_lib)))
EVT_EVENT_FLAGS(typed, all, EVT_FL_CAP_ANY)

/* A stable view: a subset, renamed and narrowed. */
EVT_STABLE_EVENT(typed_small, typed, all,
	EVT_FIELDS(
		evt_integer(uint32_t, number, args->r->u32),
		evt_integer(char, narrow, args->r->i32),
		evt_string(label, args->r->text)))

void typed_lib_emit(const struct row *r);

#endif
