/* Patterns, the printk rule, the tri-state fold, rules files, quoting and
 * control-file names. */
#include "ctl.h"
#include "pattern.h"
#include "quote.h"
#include "report.h"
#include "rules.h"
#include "tree.h"
#include "unit.h"

static void root_never_names_printk(void)
{
	CHECK(evt_pattern_match("", "ftrace/print"));
	CHECK(evt_pattern_match("/", "sched/switch"));
	CHECK(evt_pattern_match("*", "sched/switch"));
	CHECK(!evt_pattern_match("", "printk/demo/a.c/1"));
	CHECK(!evt_pattern_match("*", "printk/demo/a.c/1"));
	CHECK(!evt_pattern_match("*/a.c/1", "printk/demo/a.c/1"));
	CHECK(evt_pattern_match("printk", "printk/demo/a.c/1"));
	CHECK(evt_pattern_match("printk/", "printk/demo/a.c/1"));
}

static void directories_and_globs(void)
{
	CHECK(evt_pattern_match("printk/demo/src", "printk/demo/src/sched.c/2180"));
	CHECK(!evt_pattern_match("printk/demo/sr", "printk/demo/src/sched.c/2180"));
	CHECK(evt_pattern_match("printk/demo/src/sched.c/2180", "printk/demo/src/sched.c/2180"));
	CHECK(!evt_pattern_match("printk/demo/src/sched.c/2180", "printk/demo/src/sched.c/2180-1"));
	CHECK(evt_pattern_match("printk/*/sched.c", "printk/demo/src/sched.c/2180"));
	CHECK(evt_pattern_match("printk/demo/src/sched.c/21*", "printk/demo/src/sched.c/2180"));
}

/* fn: and fmt: select printk sites by function and format. */
static void selectors_name_sites(void)
{
	const char *path = "printk/demo/src/net.c/88";
	const char *cxx = "int ns::Server::handle_request(int) const";
	const char *fmt = "request timeout after %d ms\n";
	char err[200];

	CHECK(evt_pattern_match_site("fn:handle_request", path, "handle_request", fmt));
	CHECK(evt_pattern_match_site("fn:handle_*", path, "handle_request", fmt));
	CHECK(!evt_pattern_match_site("fn:handle", path, "handle_request", fmt));
	CHECK(evt_pattern_match_site("fn:ns::Server::handle_request", path, cxx, fmt));
	CHECK(evt_pattern_match_site("fn:*::handle_request", path, cxx, fmt));
	CHECK(evt_pattern_match_site("fn:int ns::Server::handle_request(int) const", path, cxx, fmt));
	CHECK(!evt_pattern_match_site("fn:Server", path, cxx, fmt));
	CHECK(evt_pattern_match_site("fmt:*timeout*", path, "f", fmt));
	CHECK(evt_pattern_match_site("fmt:request timeout after*", path, "f", fmt));
	CHECK(!evt_pattern_match_site("fmt:*retry*", path, "f", fmt));
	CHECK(evt_pattern_match_site("printk/demo/fn:f/fmt:*ms*", path, "f", fmt));
	CHECK(!evt_pattern_match_site("printk/other/fn:f", path, "f", fmt));
	CHECK(!evt_pattern_match_site("fn:f", "sched/switch", "f", fmt));	/* printk only */
	CHECK(!evt_pattern_match_site("fn:f", path, NULL, fmt));	/* no function known */
	CHECK(!evt_pattern_match("fn:f", path));	/* a path alone cannot tell */
	CHECK(evt_pattern_match_site("printk/demo", path, NULL, NULL));
	CHECK(evt_pattern_check("fmt:*timed out*", err, sizeof(err)) == 0);
	CHECK(evt_pattern_check("printk/demo/fn:f/fmt:a/b c", err, sizeof(err)) == 0);
	CHECK(evt_pattern_check("fmt:*/fn:f", err, sizeof(err)) == 0);	/* fmt: takes the rest */
	CHECK(evt_pattern_check("fn:f/x", err, sizeof(err)) < 0);
	CHECK_STR(err, "selectors at position 1 are not fn:GLOB, fmt:GLOB or fn:GLOB/fmt:GLOB");
	CHECK(evt_pattern_check("fn:", err, sizeof(err)) < 0);
	CHECK(evt_pattern_check("sched/fn:f", err, sizeof(err)) < 0);
	CHECK_STR(err, "fn: and fmt: select printk sites: the path before them must start with printk");
}

static void pattern_errors_name_position(void)
{
	char err[100];

	CHECK(evt_pattern_check("printk/demo", err, sizeof(err)) == 0);
	CHECK(evt_pattern_check("a//b", err, sizeof(err)) < 0);
	CHECK_STR(err, "empty path component at position 3");
	CHECK(evt_pattern_check("ab\tc", err, sizeof(err)) < 0);
	CHECK_STR(err, "invalid character 0x09 at position 3");
}

/* A name in quotes: its spaces and glob characters its own. */
static void quoted_names(void)
{
	char err[100], out[200];

	CHECK(evt_pattern_check("span/\"L0 slowdown\"", err, sizeof(err)) == 0);
	CHECK(evt_pattern_match("span/\"L0 slowdown\"", "span/L0 slowdown"));
	CHECK(!evt_pattern_match("span/\"L0 slowdown\"", "span/L0 slowdownx"));
	CHECK(evt_pattern_match("span/\"L0 slow\"*", "span/L0 slowdown"));
	CHECK(evt_pattern_match("counter/\"queue*\"", "counter/queue*"));
	CHECK(!evt_pattern_match("counter/\"queue*\"", "counter/queue1"));
	CHECK(evt_pattern_match("\"span\"", "span/L0 slowdown"));	/* a directory */
	CHECK(!evt_pattern_match("\"printk\"*", "span/x") &&
	      !evt_pattern_match("\"x\"", "printk/x"));
	CHECK(evt_pattern_check("span/\"L0", err, sizeof(err)) < 0);
	CHECK_STR(err, "the quote at position 6 is not closed");
	CHECK(evt_pattern_check("span/\"\"", err, sizeof(err)) < 0);
	CHECK_STR(err, "an empty quoted name at position 6");
	CHECK(evt_pattern_check("span/\"a\tb\"", err, sizeof(err)) < 0);
	CHECK_STR(err, "invalid character 0x09 at position 8");
	CHECK(evt_pattern_literal("span/\"L0 slowdown\"", out, sizeof(out)) &&
	      !strcmp(out, "span/L0 slowdown"));
	CHECK(!evt_pattern_literal("span/\"L0\"*", out, sizeof(out)));
	CHECK(evt_pattern_of_path("span/L0 slowdown", out, sizeof(out)) &&
	      !strcmp(out, "span/\"L0 slowdown\""));
	CHECK(evt_pattern_of_path("counter/queue*", out, sizeof(out)) &&
	      !strcmp(out, "counter/\"queue*\""));
	CHECK(evt_pattern_of_path("printk/demo/a.c/12", out, sizeof(out)) &&
	      !strcmp(out, "printk/demo/a.c/12"));
	CHECK(!evt_pattern_of_path("span/a\"b", out, sizeof(out)));
}

static void tristate_folds(void)
{
	enum evt_tristate s = EVT_STATE_EMPTY;

	CHECK(s == '?');
	s = evt_tristate_add(s, true);
	CHECK(s == EVT_STATE_ON);
	s = evt_tristate_add(s, true);
	CHECK(s == EVT_STATE_ON);
	s = evt_tristate_add(s, false);
	CHECK(s == EVT_STATE_MIXED);
	CHECK(evt_tristate_add(EVT_STATE_EMPTY, false) == '0');
}

static void rules_round_trip_and_errors(void)
{
	struct evt_rules r = { .number = 3, .collection_id = 77, .mode = EVT_MODE_OVERWRITE,
			       .packet_size = 32768, .packet_count = 8, .npatterns = 2 };
	struct evt_rules back;
	char *text = NULL, err[200];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	strcpy(r.patterns[0], "printk/demo");
	strcpy(r.patterns[1], "ftrace/print");
	CHECK(evt_rules_write(f, &r) == 0);
	fclose(f);
	CHECK(evt_rules_parse(text, len, &back, err, sizeof(err)) == 0);
	CHECK(back.number == 3 && back.collection_id == 77 &&
	      back.mode == EVT_MODE_OVERWRITE && back.packet_size == 32768 &&
	      back.packet_count == 8 && back.npatterns == 2);
	CHECK_STR(back.patterns[1], "ftrace/print");
	free(text);
	CHECK(evt_rules_parse("evtrace-rules 1\nnumber 256\n", 26, &back, err, sizeof(err)) < 0);
	CHECK_STR(err, "line 2: bad 'number' value '256'");
	/* Files written before 0.1.7 say "slot". */
	CHECK(evt_rules_parse("evtrace-rules 1\nslot 2\ncollection 5\n", 36, &back,
			      err, sizeof(err)) == 0 && back.number == 2);
	CHECK(evt_rules_parse("nope\n", 5, &back, err, sizeof(err)) < 0);
	CHECK_STR(err, "line 1: not an evtrace-rules 1 file");
	CHECK(evt_rules_parse("evtrace-rules 1\nnumber 1\ncollection 5\npacket-size 12345\n",
			      53, &back, err, sizeof(err)) < 0);
}

/* Lines in order, the last one naming an event decides; pid lines; what a
 * new line makes moot is dropped; round trip of every directive. */
static void rules_decide_and_compact(void)
{
	struct evt_rules r, back;
	char *text = NULL, err[200];
	size_t len = 0;
	FILE *f;

	memset(&r, 0, sizeof(r));
	r.packet_size = 65536;
	r.packet_count = 16;
	CHECK(evt_rules_decide(&r, "printk/a/b.c/1", NULL, NULL, 7) == -1);
	CHECK(evt_rules_add(&r, false, 0, "printk/", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 0);		/* nothing on to switch off */
	CHECK(evt_rules_add(&r, true, 0, "printk/a", err, sizeof(err)) == 0);
	CHECK(evt_rules_add(&r, false, 0, "printk/a/b.c/2", err, sizeof(err)) == 0);
	CHECK(evt_rules_add(&r, true, 42, "printk/c", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 3);
	CHECK(evt_rules_decide(&r, "printk/a/b.c/1", NULL, NULL, 7) == 1);
	CHECK(evt_rules_decide(&r, "printk/a/b.c/2", NULL, NULL, 7) == 0);
	CHECK(evt_rules_decide(&r, "printk/c/d.c/9", NULL, NULL, 7) == -1);
	CHECK(evt_rules_decide(&r, "printk/c/d.c/9", NULL, NULL, 42) == 1);
	CHECK(evt_rules_decide(&r, "printk/ab/x.c/1", NULL, NULL, 7) == -1);	/* not below a/ */
	/* Enabling a directory again makes the lines below it moot. */
	CHECK(evt_rules_add(&r, true, 0, "printk/a/", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 2);
	CHECK(evt_rules_decide(&r, "printk/a/b.c/2", NULL, NULL, 7) == 1);
	/* The root does not cover printk/ lines; a pid line covers only its pid. */
	CHECK(evt_rules_add(&r, false, 0, "/", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 3);
	CHECK(evt_rules_add(&r, false, 9, "printk/", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 4);
	CHECK(evt_rules_decide(&r, "printk/c/d.c/9", NULL, NULL, 42) == 1);
	CHECK(evt_rules_decide(&r, "printk/a/x", NULL, NULL, 9) == 0);
	CHECK(evt_rules_add(&r, false, 0, "printk/", err, sizeof(err)) == 0);
	CHECK(evt_rules_decide(&r, "printk/c/d.c/9", NULL, NULL, 42) == -1 ||
	      evt_rules_decide(&r, "printk/c/d.c/9", NULL, NULL, 42) == 0);
	CHECK(evt_rules_decide(&r, "printk/a/b.c/1", NULL, NULL, 7) != 1);
	/* A glob is moot only under the same glob. */
	CHECK(evt_rules_add(&r, true, 0, "printk/*/x.c/*", err, sizeof(err)) == 0);
	CHECK(evt_rules_add(&r, true, 0, "printk/q", err, sizeof(err)) == 0);
	CHECK(evt_rules_decide(&r, "printk/z/x.c/3", NULL, NULL, 1) == 1);
	r.scope = EVT_SCOPE_ALL;
	f = open_memstream(&text, &len);
	CHECK(evt_rules_write(f, &r) == 0);
	fclose(f);
	CHECK(strstr(text, "number 0\nscope all\n") != NULL);
	CHECK(strstr(text, "collection") == NULL);
	CHECK(evt_rules_parse(text, len, &back, err, sizeof(err)) == 0);
	CHECK(back.npatterns == r.npatterns && back.scope == EVT_SCOPE_ALL);
	CHECK(!memcmp(back.pid, r.pid, r.npatterns * sizeof(r.pid[0])) &&
	      !memcmp(back.disable, r.disable, r.npatterns));
	free(text);
	CHECK(evt_rules_parse("evtrace-rules 1\nnumber 0\nenable:x printk\n", strlen("evtrace-rules 1\nnumber 0\nenable:x printk\n"),
			      &back, err, sizeof(err)) < 0);
	CHECK_STR(err, "line 3: bad 'enable:x' value 'printk'");
	CHECK(evt_rules_parse("evtrace-rules 1\nnumber 0\nenables printk\n", strlen("evtrace-rules 1\nnumber 0\nenables printk\n"),
			      &back, err, sizeof(err)) < 0);
	CHECK_STR(err, "line 3: unknown directive 'enables'");
	CHECK(evt_rules_parse("evtrace-rules 1\nnumber 2\nenable printk\n", strlen("evtrace-rules 1\nnumber 2\nenable printk\n"),
			      &back, err, sizeof(err)) < 0);
	CHECK_STR(err, "no collection given for number 2");
	/* Full: refused with what to do. */
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < EVT_RULES_MAX_PATTERNS; i++) {
		char pat[32];

		snprintf(pat, sizeof(pat), "printk/m%d", i);
		CHECK(evt_rules_add(&r, true, 0, pat, err, sizeof(err)) == 0);
	}
	CHECK(evt_rules_add(&r, true, 0, "printk/one-more", err, sizeof(err)) < 0);
	CHECK_STR(err, "more than 64 rules; disable / and printk/ to start again");
	CHECK(evt_rules_add(&r, true, 0, "printk/", err, sizeof(err)) == 0);
	CHECK(r.npatterns == 1);
}

static void keep_message(const char *message, void *ctx)
{
	snprintf(ctx, 200, "%s", message);
}

/* The engine's diagnostics go where its front end says. */
static void reports_go_to_the_callback(void)
{
	char got[200] = "";

	evt_report_set(keep_message, got);
	evt_report("pid %d: %s", 42, "gone");
	evt_report_set(NULL, NULL);
	CHECK_STR(got, "pid 42: gone");
}

static void quote_round_trips(void)
{
	const char *in = "tab\there \"q\" back\\slash\nnl \x01";
	char *text = NULL, out[100];
	const char *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	evt_quote(f, in);
	fclose(f);
	CHECK_STR(text, "\"tab\\there \\\"q\\\" back\\\\slash\\nnl \\x01\"");
	p = text;
	CHECK(evt_unquote(&p, out, sizeof(out)) == 0);
	CHECK_STR(out, in);
	CHECK(*p == '\0');
	p = "\"unterminated";
	CHECK(evt_unquote(&p, out, sizeof(out)) < 0);
	p = "\"\\x00\"";
	CHECK(evt_unquote(&p, out, sizeof(out)) < 0);
	free(text);
}

static void control_file_names(void)
{
	CHECK(evt_ctl_name_pid("4242-0.ctl") == 4242);
	CHECK(evt_ctl_name_pid("4242-17.ctl") == 4242);
	CHECK(evt_ctl_name_pid("4242-0.ctl.tmp") == -1);
	CHECK(evt_ctl_name_pid("4242.ctl") == -1);
	CHECK(evt_ctl_name_pid("4242-.ctl") == -1);
	CHECK(evt_ctl_name_pid("4242--1.ctl") == -1);
	CHECK(evt_ctl_name_pid("0-1.ctl") == -1);
	CHECK(evt_ctl_name_pid("slot-1.lock") == -1);
	CHECK(evt_ctl_name_pid("99999999999-0.ctl") == -1);
}

/* Trees of several processes: one path twice is one node whose states
 * join; states read again without a rebuild; lookups in version order. */
static void trees_join_refold_and_find(void)
{
	const char *paths[] = { "printk/a.c/10", "printk/a.c/8", "printk/a.c/8-1",
				"ftrace/print", "printk/a.c/10", "ftrace/print" };
	enum evt_tristate st[] = { '1', '0', '0', '1', '0', '1' };
	unsigned first[6];
	struct evt_tree_node *root = evt_tree_build_states(paths, st, 6, first);
	const struct evt_tree_node *n;
	enum evt_tristate joined[6];
	unsigned i;

	CHECK(root != NULL);
	CHECK(first[4] == 0 && first[5] == 3 && first[1] == 1);
	n = evt_tree_find(root, "printk/a.c/10");
	CHECK(n && n->event == 0 && n->state == 'X');
	CHECK(evt_tree_find(root, "printk/a.c")->state == 'X');
	CHECK(root->state == '1');	/* printk/ left out */
	n = evt_tree_find(root, "printk/a.c");
	CHECK(n->nchildren == 3 && !strcmp(n->children[0]->name, "8") &&
	      !strcmp(n->children[1]->name, "8-1") &&
	      !strcmp(n->children[2]->name, "10"));
	CHECK(evt_tree_find(root, "printk/a.c/8-1") == n->children[1]);
	CHECK(evt_tree_find(root, "/printk//a.c/8/") == n->children[0]);
	CHECK(evt_tree_find(root, "printk/a.c/9") == NULL);
	CHECK(evt_tree_find(root, "ftrace/print/below") == NULL);	/* a leaf */
	CHECK(evt_tree_find(root, "printk/b.c") == NULL);
	CHECK(evt_tree_find(root, "") == root);
	/* Everything on now: joined by node, then folded again. */
	for (i = 0; i < 6; i++)
		joined[i] = EVT_STATE_EMPTY;
	for (i = 0; i < 6; i++)
		joined[first[i]] = '1';
	evt_tree_refold(root, joined);
	CHECK(evt_tree_find(root, "printk/a.c/10")->state == '1');
	CHECK(evt_tree_find(root, "printk")->state == '1');
	evt_tree_free(root);
}

int main(void)
{
	trees_join_refold_and_find();
	rules_decide_and_compact();
	reports_go_to_the_callback();
	control_file_names();
	root_never_names_printk();
	directories_and_globs();
	selectors_name_sites();
	pattern_errors_name_position();
	tristate_folds();
	rules_round_trip_and_errors();
	quote_round_trips();
	quoted_names();
	UNIT_DONE();
}
