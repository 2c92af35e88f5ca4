/* Parsing trace_printk() formats into storage types, and rendering stored
 * arguments back exactly as printf would. */
#include <stdint.h>
#include <sys/resource.h>

#include "printk_format.h"
#include "unit.h"

static void put(uint8_t **p, const void *v, size_t n)
{
	memcpy(*p, v, n);
	*p += n;
}

static void types_follow_promotions(void)
{
	struct evt_printk_format f;
	char err[200];
	static const uint8_t want[] = { EVT_ARG_I8, EVT_ARG_U16, EVT_ARG_I32,
		EVT_ARG_U64, EVT_ARG_I64, EVT_ARG_U64, EVT_ARG_I8, EVT_ARG_STRING,
		EVT_ARG_PTR, EVT_ARG_DOUBLE, EVT_ARG_DOUBLE };

	CHECK(evt_printk_parse("%hhd %hx %i %lu %lld %zx %c %s %p %f %lg %%",
			       &f, err, sizeof(err)) == 0);
	CHECK(f.nargs == sizeof(want));
	CHECK(memcmp(f.arg_types, want, sizeof(want)) == 0);
	CHECK(f.nspecs == sizeof(want));
}

static void star_adds_int_arguments(void)
{
	struct evt_printk_format f;
	char err[200];

	CHECK(evt_printk_parse("[%*.*f]", &f, err, sizeof(err)) == 0);
	CHECK(f.nargs == 3 && f.arg_types[0] == EVT_ARG_I32 &&
	      f.arg_types[1] == EVT_ARG_I32 && f.arg_types[2] == EVT_ARG_DOUBLE);
}

static void refusals_name_the_conversion(void)
{
	struct evt_printk_format f;
	char err[200];

	CHECK(evt_printk_parse("abc %n", &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "conversion '%n' at offset 4: %n writes through a pointer and is refused");
	CHECK(evt_printk_parse("%m", &f, err, sizeof(err)) < 0);
	CHECK(evt_printk_parse("x %Lf", &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "conversion '%Lf' at offset 2: length modifier not supported for this conversion");
	CHECK(evt_printk_parse("%ls", &f, err, sizeof(err)) < 0);
	CHECK(evt_printk_parse("%1$d", &f, err, sizeof(err)) < 0);
	CHECK(evt_printk_parse("%", &f, err, sizeof(err)) < 0);
	CHECK_STR(err, "conversion '%' at offset 0: format ends inside a conversion");
	CHECK(evt_printk_parse("%y", &f, err, sizeof(err)) < 0);
}

static void render_matches_printf(void)
{
	struct evt_printk_format f;
	uint8_t args[128], *p = args;
	char err[200], out[256], want[256];
	int8_t c = 'q';
	int32_t i = -7, w = 5;
	uint64_t u = UINT64_MAX;
	double d = 2.5;
	const char *fmt = "c=%c i=%d u=%llu [%*s] d=%.2f 100%%\n";

	CHECK(evt_printk_parse(fmt, &f, err, sizeof(err)) == 0);
	put(&p, &c, 1);
	put(&p, &i, 4);
	put(&p, &u, 8);
	put(&p, &w, 4);
	put(&p, "ab", 3);
	put(&p, &d, 8);
	CHECK(evt_printk_render(fmt, &f, args, p - args, out, sizeof(out), NULL) ==
	      p - args);
	snprintf(want, sizeof(want), fmt, 'q', -7, (unsigned long long)UINT64_MAX,
		 5, "ab", 2.5);
	CHECK_STR(out, want);
}

static void render_refuses_short_arguments(void)
{
	struct evt_printk_format f;
	uint8_t args[8] = { 1, 2 };
	char err[200], out[64];

	CHECK(evt_printk_parse("%d %s", &f, err, sizeof(err)) == 0);
	CHECK(evt_printk_render("%d %s", &f, args, 2, out, sizeof(out), NULL) == -1);
	/* A string without its NUL inside the bounds. */
	memset(args, 'x', sizeof(args));
	CHECK(evt_printk_render("%d %s", &f, args, sizeof(args), out,
				sizeof(out), NULL) == -1);
}

static void render_never_overflows_output(void)
{
	struct evt_printk_format f;
	char err[200], out[8];
	uint8_t args[] = "a long string argument";

	CHECK(evt_printk_parse("%s", &f, err, sizeof(err)) == 0);
	CHECK(evt_printk_render("%s", &f, args, sizeof(args), out, sizeof(out), NULL) > 0);
	CHECK_STR(out, "a long ");
}

/*
 * A format or a stored width from a trace is not trusted: printf would
 * allocate about 1 GB for "%.999999999e" (found by fuzz_printk_format once
 * it saw the code's coverage).  Rendered within 256 MB of address space
 * (not under ASan, which reserves more), and the same as printf's up to
 * the 1023 bytes a value keeps.
 */
static void huge_widths_are_bounded(void)
{
	struct evt_printk_format f;
	char err[200], out[2048], want[1100];
	uint8_t args[16];
	int32_t w = INT32_MAX;
	double d = 3.25;

#ifndef __SANITIZE_ADDRESS__
	struct rlimit rl = { 256u << 20, 256u << 20 };

	CHECK(setrlimit(RLIMIT_AS, &rl) == 0);
#endif
	memcpy(args, &d, 8);
	CHECK(evt_printk_parse("[%.999999999e]", &f, err, sizeof(err)) == 0);
	CHECK(evt_printk_render("[%.999999999e]", &f, args, 8, out, sizeof(out),
				NULL) > 0);
	snprintf(want, sizeof(want), "[%.1100e", d);
	CHECK(strlen(out) == 1025 && !strncmp(out, want, 1024) && out[1024] == ']');
	memcpy(args, &w, 4);
	memcpy(args + 4, &w, 4);
	CHECK(evt_printk_parse("[%*d]", &f, err, sizeof(err)) == 0);
	CHECK(evt_printk_render("[%*d]", &f, args, 8, out, sizeof(out), NULL) > 0);
	CHECK(strlen(out) == 1025 && out[1] == ' ' && out[1023] == ' ');
	CHECK(evt_printk_parse("[%-5000s]", &f, err, sizeof(err)) == 0);
	CHECK(evt_printk_render("[%-5000s]", &f, (const uint8_t *)"hi", 3, out,
				sizeof(out), NULL) > 0);
	CHECK(!strncmp(out, "[hi   ", 6) && strlen(out) == 1025);
}

/* A real as the fewest characters that read back as it: no exponent
 * where plain digits are shorter. */
static void reals_read_back_in_fewest_characters(void)
{
	static const struct { double v; const char *text; } cases[] = {
		{ 10, "10" }, { 20, "20" }, { 100, "100" }, { -40, "-40" },
		{ 0.5, "0.5" }, { 1.25, "1.25" }, { 0.1, "0.1" },
		{ 123456789, "123456789" }, { 1e20, "1e+20" }, { 1e-5, "1e-05" },
		{ 1e16, "1e+16" }, { 0, "0" }, { 1.0 / 3, "0.3333333333333333" },
	};
	char out[64];
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		evt_real_text(out, sizeof(out), cases[i].v);
		CHECK(!strcmp(out, cases[i].text));
		CHECK(strtod(out, NULL) == cases[i].v);
	}
}

int main(void)
{
	reals_read_back_in_fewest_characters();
	types_follow_promotions();
	star_adds_int_arguments();
	refusals_name_the_conversion();
	render_matches_printf();
	render_refuses_short_arguments();
	render_never_overflows_output();
	huge_widths_are_bounded();
	UNIT_DONE();
}
