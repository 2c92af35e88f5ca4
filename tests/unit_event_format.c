/*
 * unit_event_format.c - typed event format text: what is generated parses
 * back to the same text; bad text is refused naming the line; records are
 * sized and rendered from the parsed form, short ones refused.
 */
#include <stdlib.h>

#include "event_format.h"
#include "unit.h"

static const char *const good[] = {
	"\tfield:a\ttype:uint64_t\tsize:64\talign:8\tsigned:0;\n",
	"\tflags:CAP_ANY;\n\tfield:prev_pid\ttype:pid_t\tsize:32\talign:4\tsigned:1;\n"
	"\tfield:st\ttype:long\tsize:64\talign:8\tsigned:1\tenum:R=0,S=1,X=-9223372036854775808;\n"
	"\tfield:ok\ttype:bool\tsize:8\talign:1\tsigned:0;\n"
	"\tfield:d\ttype:double\tsize:64\talign:8\tsigned:1;\n"
	"\tarray:comm\ttype:char\tsize:8\tcount:16\talign:1\tsigned:1;\n"
	"\tstring:s\ttype:char\tsize:8\talign:1\tsigned:1;\n"
	"\tsequence:v\ttype:unsigned short\tsize:16\tlength:32\talign:2\tsigned:0;\n",
};

static void expect_error(const char *text, const char *want)
{
	struct evt_event_format f;
	char err[256];

	CHECK(evt_event_format_parse(text, &f, err, sizeof(err)) == -1);
	CHECK_STR(err, want);
}

int main(void)
{
	struct evt_event_format f;
	char err[256], out[256];
	unsigned i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char *again;

		CHECK(evt_event_format_parse(good[i], &f, err, sizeof(err)) == 0);
		again = evt_event_format_text(&f);
		CHECK(again != NULL);
		if (again)
			CHECK_STR(again, good[i]);
		free(again);
		evt_event_format_free(&f);
	}

	expect_error("\tfield:a\ttype:int\tsize:32\talign:4\tsigned:1;\n\tfield:b\ttype:int\tsize:33\talign:4\tsigned:1;\n",
		     "line 2: field b: size 33 is not 8, 16, 32 or 64 bits");
	expect_error("\tfield:a\ttype:int\tsize:32\talign:4\tsigned:1\n",
		     "line 1: does not end in ';'");
	expect_error("\n\tbogus:a\ttype:int;\n", "line 2: unknown line kind \"bogus\"");
	expect_error("\tfield:a\ttype:int\tsize:32\tsigned:1;\n",
		     "line 1: type, size, align and signed are needed");
	expect_error("\tarray:a\ttype:int\tsize:32\talign:4\tsigned:1;\n",
		     "line 1: type, size, align and signed are needed, and count");
	expect_error("\tfield:a\ttype:int\tsize:32\talign:4\tsigned:1;\n\tfield:a\ttype:int\tsize:32\talign:4\tsigned:1;\n",
		     "field a defined twice");
	expect_error("\tfield:1a\ttype:int\tsize:32\talign:4\tsigned:1;\n",
		     "line 1: field name \"1a\" is not a C identifier of at most 63 characters");
	expect_error("\tfield:e\ttype:uint8_t\tsize:8\talign:1\tsigned:0\tenum:A=256;\n",
		     "line 1: field e: enum value A=256 does not fit the type");
	expect_error("\tfield:a\ttype:int\tsize:32\talign:4\tsigned:1\tcount:3;\n",
		     "line 1: unexpected or bad \"count:3\"");

	/* Sizing and rendering: u16, string, sequence of u8. */
	CHECK(evt_event_format_parse("\tfield:n\ttype:uint16_t\tsize:16\talign:2\tsigned:0;\n"
				     "\tstring:s\ttype:char\tsize:8\talign:1\tsigned:1;\n"
				     "\tsequence:v\ttype:int8_t\tsize:8\tlength:32\talign:1\tsigned:1;\n",
				     &f, err, sizeof(err)) == 0);
	{
		static const uint8_t rec[] = { 0x34, 0x12, 'h', 'i', '"', 0,
					       2, 0, 0, 0, 0xff, 7 };

		CHECK(evt_event_format_payload_size(&f, rec, sizeof(rec)) == sizeof(rec));
		CHECK(evt_event_format_payload_size(&f, rec, sizeof(rec) - 1) == -1);
		CHECK(evt_event_format_payload_size(&f, rec, 4) == -1);	/* no NUL */
		CHECK(evt_event_format_render(&f, rec, sizeof(rec), out, sizeof(out)) ==
		      (long)sizeof(rec));
		CHECK_STR(out, "n=4660 s=\"hi\\\"\" v=[-1, 7]");
		CHECK(evt_event_format_render(&f, rec, 9, out, sizeof(out)) == -1);
	}
	evt_event_format_free(&f);
	UNIT_DONE();
}
