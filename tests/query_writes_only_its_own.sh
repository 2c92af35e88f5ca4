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
