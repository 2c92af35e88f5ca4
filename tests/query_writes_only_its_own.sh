# evtrace query with real users: a trace another user made is queried
# but never written into (no cache beside it, for root neither: the
# directory is not root's); a user's own trace gets its cache; a cache
# another user planted in a directory they share is not trusted.
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (test users)"; exit 77; }
. "$(dirname "$0")/lib.sh"
make_users

"$EVTRACE" record -e 'span/**' -o "$T/roots" -- "$SPANS" 2 >/dev/null 2>&1 || fail "record"
chmod -R a+rX "$T/roots"
expect_eq "$(as_user evt-alice "$EVTRACE_U" query --csv "$T/roots" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" \
	8 "alice queries root's trace"
[ -z "$(ls -A "$T/roots" | grep evtrace-query)" ] || fail "alice's query wrote into root's trace"

# Alice's own trace: her query makes the cache; root's does not touch it.
mkdir "$T/alice" && chown evt-alice "$T/alice" && chmod 755 "$T/alice"
cp -r "$T/roots" "$T/alice/tr" && chown -R evt-alice "$T/alice/tr" && chmod 755 "$T/alice/tr"
as_user evt-alice "$EVTRACE_U" query "$T/alice/tr" 'SELECT 1' >/dev/null || fail "alice's query of her trace"
cache=$T/alice/tr/.evtrace-query-monotonic.db
[ -f "$cache" ] || fail "no cache beside alice's own trace"
expect_eq "$(stat -c %U "$cache")" evt-alice "the cache is alice's"
ino=$(stat -c %i "$cache")
touch "$T/alice/tr/metadata"	# the cache no longer matches the trace
expect_eq "$("$EVTRACE" query --csv "$T/alice/tr" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 8 \
	"root queries alice's trace"
expect_eq "$(stat -c %i "$cache")" "$ino" "root's query left alice's cache alone"

# A directory alice and bob may both write into (the sticky /tmp kind):
# bob's cache there is not trusted by alice, whose query reads afresh.
mkdir "$T/shared" && chmod 1777 "$T/shared"
as_user evt-bob cp -r "$T/roots" "$T/shared/tr"
as_user evt-bob "$EVTRACE_U" query "$T/shared/tr" 'SELECT 1' >/dev/null || fail "bob's query"
[ -f "$T/shared/tr/.evtrace-query-monotonic.db" ] || fail "no cache beside bob's trace"
as_user evt-bob chmod 777 "$T/shared/tr"	# now anyone may plant files in it
as_user evt-bob sqlite3 "$T/shared/tr/.evtrace-query-monotonic.db" "UPDATE slice SET name = 'planted'"
expect_eq "$(as_user evt-alice "$EVTRACE_U" query --csv "$T/shared/tr" "SELECT count(*) FROM slice WHERE name = 'planted'" | tail -1 | tr -d '\r')" \
	0 "alice does not read bob's cache"
expect_eq "$(as_user evt-alice "$EVTRACE_U" query --csv "$T/shared/tr" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" \
	8 "alice reads the trace itself"

# A trace of root's inside alice's directory: alice could swap it for a
# symlink into one of root's directories between root's checks and its
# writes, so root's query makes no cache there (its answer is the same).
cp -r "$T/roots" "$T/alice/rootstr" && chmod 700 "$T/alice/rootstr"
expect_eq "$("$EVTRACE" query --csv "$T/alice/rootstr" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 8 \
	"root queries its trace in alice's directory"
[ -z "$(ls -A "$T/alice/rootstr" | grep evtrace-query)" ] || fail "root's query wrote a cache where alice could swap the directory"
# Root's own, on a path only root controls: cached.
"$EVTRACE" query "$T/roots" 'SELECT 1' >/dev/null
[ -f "$T/roots/.evtrace-query-monotonic.db" ] || fail "no cache beside root's trace on root's path"

# SQL that would make files with the caller's rights is refused.
expect_status 2 "$EVTRACE" query --no-cache "$T/roots" "ATTACH '$T/attached.db' AS a"
expect_grep "^evtrace: query: not authorized: ATTACH and VACUUM INTO are refused: they would make files with your rights$" "$T/err" "ATTACH refused"
expect_status 2 "$EVTRACE" query --no-cache "$T/roots" "VACUUM INTO '$T/vacuumed.db'"
expect_grep "ATTACH and VACUUM INTO are refused" "$T/err" "VACUUM INTO refused"
[ ! -e "$T/attached.db" ] && [ ! -e "$T/vacuumed.db" ] || fail "a file made through SQL"

# The cache follows a trace's keep/ (record --keep's pinned sites, read
# as part of it): another keep/ there, another answer.
cp -r "$T/roots" "$T/kept" && cp -r "$T/roots" "$T/kept/keep"
expect_eq "$("$EVTRACE" query --csv "$T/kept" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 16 "a trace and its keep/"
[ -f "$T/kept/.evtrace-query-monotonic.db" ] || fail "no cache beside the kept trace"
rm -rf "$T/kept/keep/stream_"*
expect_eq "$("$EVTRACE" query --csv "$T/kept" 'SELECT count(*) FROM slice' | tail -1 | tr -d '\r')" 8 "its keep/ emptied: the cache not used"

# A query's cache, and what a killed query left, are a trace's own: a new
# recording into the directory replaces them with the rest.
: >"$T/roots/.evtrace-query-monotonic.db.99999.tmp"
"$EVTRACE" record -o "$T/roots" -- "$SPANS" 1 >/dev/null 2>"$T/err" || fail "record over a queried trace: $(cat "$T/err")"
[ -z "$(ls -A "$T/roots" | grep evtrace-query)" ] || fail "the old trace's cache stayed: $(ls -A "$T/roots")"
