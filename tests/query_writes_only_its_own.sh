# evtrace query with real users: a query writes nothing beside any trace
# (another user's, root's, the user's own), and a file another user
# planted where an older evtrace kept its cache is never read.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users)"; exit 77; }
. "$(dirname "$0")/lib.sh"
make_users

"$EVTRACE" record -e 'span/**' -o "$T/roots" -- "$SPANS" 2 >/dev/null 2>&1 || fail "record"
chmod -R a+rX "$T/roots"
ls -A "$T/roots" >"$T/roots.ls"
expect_eq "$(as_user evt-alice "$EVTRACE_U" query --csv "$T/roots" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" \
	8 "alice queries root's trace"
"$EVTRACE" query "$T/roots" 'SELECT count(*) FROM event' >/dev/null || fail "root's query"
ls -A "$T/roots" | diff -u "$T/roots.ls" - >&2 || fail "a query wrote into root's trace"

# Alice's own trace: her query writes nothing beside it either.
mkdir "$T/alice" && chown evt-alice "$T/alice" && chmod 755 "$T/alice"
cp -r "$T/roots" "$T/alice/tr" && chown -R evt-alice "$T/alice/tr" && chmod 755 "$T/alice/tr"
as_user evt-alice "$EVTRACE_U" query "$T/alice/tr" 'SELECT count(*) FROM event' >/dev/null ||
	fail "alice's query of her trace"
ls -A "$T/alice/tr" | diff -u "$T/roots.ls" - >&2 || fail "alice's query wrote beside her trace"

# A directory alice and bob may both write into (the sticky /tmp kind):
# the cache an older evtrace would have read, planted by bob, is not.
mkdir "$T/shared" && chmod 1777 "$T/shared"
as_user evt-bob cp -r "$T/roots" "$T/shared/tr"
as_user evt-bob chmod 777 "$T/shared/tr"
as_user evt-bob sqlite3 "$T/shared/tr/.evtrace-query-monotonic.db" \
	"CREATE TABLE slice(name TEXT); INSERT INTO slice VALUES('planted')"
expect_eq "$(as_user evt-alice "$EVTRACE_U" query --csv "$T/shared/tr" "SELECT count(*), sum(name = 'planted') FROM slice" | tail -1 | tr -d '\r')" \
	8,0 "alice reads the trace, not bob's planted file"

# SQL that would make files with the caller's rights is refused.
expect_status 2 "$EVTRACE" query --no-cache "$T/roots" "ATTACH '$T/attached.db' AS a"
expect_grep "^evtrace: query: not authorized: ATTACH and VACUUM INTO are refused: they would make files with your rights$" "$T/err" "ATTACH refused"
expect_status 2 "$EVTRACE" query --no-cache "$T/roots" "VACUUM INTO '$T/vacuumed.db'"
expect_grep "ATTACH and VACUUM INTO are refused" "$T/err" "VACUUM INTO refused"
[ ! -e "$T/attached.db" ] && [ ! -e "$T/vacuumed.db" ] || fail "a file made through SQL"

# A trace's keep/ (record --keep's pinned sites) is read as part of it,
# as it is at each query.
cp -r "$T/roots" "$T/kept" && cp -r "$T/roots" "$T/kept/keep"
expect_eq "$("$EVTRACE" query --csv "$T/kept" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 16 "a trace and its keep/"
rm -rf "$T/kept/keep/stream_"*
expect_eq "$("$EVTRACE" query --csv "$T/kept" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 8 "its keep/ emptied"

# The cache of an older evtrace's query, and what a killed one left, are
# a trace's own: a new recording into the directory replaces them with
# the rest.
: >"$T/roots/.evtrace-query-monotonic.db"
: >"$T/roots/.evtrace-query-monotonic.db.99999.tmp"
"$EVTRACE" record -o "$T/roots" -- "$SPANS" 1 >/dev/null 2>"$T/err" || fail "record over a queried trace: $(cat "$T/err")"
[ -z "$(ls -A "$T/roots" | grep evtrace-query)" ] || fail "the old trace's cache stayed: $(ls -A "$T/roots")"
