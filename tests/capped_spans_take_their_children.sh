# A rate cap on a span holds back what happens inside each span it holds
# back: a line and a nested span, each counted against its own site as
# held back by the rate limit, so that no child is recorded without its
# parent and read + lost is what each site wrote; the end of a span whose
# begin was written is always written; what follows a capped span is
# recorded again.
. "$(dirname "$0")/lib.sh"
N=3000
"$SPANS" capped "$N" >"$T/out" 2>&1 &
p=$!
BG_PIDS="$BG_PIDS $p"
wait_for "the program" "grep -q '^ready' '$T/out'"
"$EVTRACE" enable --rate 100 -p "$p" span/parent || fail "enable --rate"
"$EVTRACE" record -p "$p" -o "$T/t" >/dev/null 2>"$T/rec.err" &
r=$!
BG_PIDS="$BG_PIDS $r"
wait_for "the recording's collection" "collection_in $p $r"
kill -USR1 "$p"
wait "$p" || fail "the program: $(cat "$T/out")"
expect_grep '^capped done$' "$T/out" "the program ran to its end"
# (record -p ends by itself once its process has)
wait "$r" || fail "record: $(cat "$T/rec.err")"

q() { "$EVTRACE" query --no-cache --csv "$T/t" "$1" | tail -n +2 | tr -d '\r'; }
parents=$(q "SELECT count(*) FROM slice WHERE name = 'parent'")
# (100 a second: twice that if the burst crossed into the next second)
[ "$parents" -ge 1 ] && [ "$parents" -le 200 ] || fail "$parents parent spans recorded under a cap of 100/s"
expect_eq "$(q "SELECT count(*) FROM slice WHERE state != 'complete'")" 0 "spans not whole"
expect_eq "$(q "SELECT count(*) FROM slice WHERE name = 'kid' AND depth = 1")" "$parents" "kids inside their parents"
expect_eq "$(q "SELECT count(*) FROM slice WHERE name = 'kid' AND depth != 1")" 0 "kids without their parent"
"$EVTRACE" report "$T/t" >"$T/report"
expect_eq "$(grep -c ': child [0-9]*$' "$T/report")" "$parents" "the lines inside recorded parents"
expect_eq "$(grep -c ': outside [0-9]*$' "$T/report")" "$N" "the lines after each span, capped or not"
# What was held back, by site: each capped parent's begin and end, its
# kid's begin and end, its line.
capped=$((N - parents))
expect_eq "$(q "SELECT s.name || '=' || sum(l.count) FROM loss l JOIN site s ON s.id = l.site_id
	WHERE l.cause = 'rate_limit' GROUP BY s.name ORDER BY s.name" | sed 's/^printk\/.*=/child=/' | paste -sd' ')" \
	"child=$capped span/kid=$((2 * capped)) span/parent=$((2 * capped))" "held back, by site"
expect_eq "$(q "SELECT count(*) FROM loss WHERE cause != 'rate_limit'")" 0 "nothing lost otherwise"
echo "ok: $parents of $N parents recorded, $capped held back with their children"
