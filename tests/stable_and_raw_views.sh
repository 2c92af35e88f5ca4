# A stable event is written from its raw event's call site: with only the
# view enabled no raw record is written, and the other way round; formats
# and flags show in format and ls -f.
. "$(dirname "$0")/lib.sh"
# views WANT PATTERN...: records the program with those patterns and
# checks the event paths recorded, with counts, against WANT (not in a
# command substitution, whose failures would be lost).
views() {
	want=$1; shift
	args=""
	for p in "$@"; do args="$args -e $p"; done
	# shellcheck disable=SC2086
	"$EVTRACE" record -o "$T/v" $args -- "$TYPED" rows >/dev/null 2>"$T/v.err" ||
		fail "record $args: $(cat "$T/v.err")"
	"$EVTRACE" report "$T/v" >"$T/v.txt"
	grep -q '^# [0-9]* events, 0 lost' "$T/v.txt" || fail "report $args: $(tail -1 "$T/v.txt")"
	bt_agrees "$T/v"
	expect_eq "$(sed -n 's/^.*\] [0-9.]*: \([^:]*\): .*/\1/p' "$T/v.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
		"$want" "events recorded with$args"
	rm -rf "$T/v"
}
views " 4 stable/typed_small;" 'stable/*'
views " 4 typed/all;" typed/all
views " 4 stable/typed_small; 4 typed/all;" typed/all stable/typed_small
views "" 'printk/*'

"$EVTRACE" record -o "$T/s" -e stable/typed_small -- "$TYPED" rows >/dev/null 2>&1
"$EVTRACE" report "$T/s" | sed -n 's/^.*stable\/typed_small: //p' >"$T/got"
l=$(printf 'l%.0s' $(seq 252))
m=$(printf 'm%.0s' $(seq 255))
cat >"$T/want" <<WANT
number=0 narrow=0 label=""
number=4294967295 narrow=0 label="$m"
number=0 narrow=-1 label="$l..."
number=42 narrow=44 label="from the library"
WANT
diff -u "$T/want" "$T/got" || fail "stable view values"

# format and ls -f on a running process.
mkfifo "$T/fifo"
"$TYPED" wait <"$T/fifo" >"$T/w.out" &
BG_PIDS="$BG_PIDS $!"
exec 3>"$T/fifo"
wait_for 'the program to say ready in w.out' 'grep -q ready "$T/w.out"'
"$EVTRACE" format stable/typed_small >"$T/fmt"
printf '\tfield:number\ttype:uint32_t\tsize:32\talign:4\tsigned:0;\n\tfield:narrow\ttype:char\tsize:8\talign:1\tsigned:1;\n\tstring:label\ttype:char\tsize:8\talign:1\tsigned:1;\n' >"$T/fmt.want"
diff -u "$T/fmt.want" "$T/fmt" || fail "format of the stable event"
"$EVTRACE" format typed/all >"$T/fmt"
expect_grep '^	flags:CAP_ANY;$' "$T/fmt" "flags in format"
expect_grep '^	field:color	type:int8_t	size:8	align:1	signed:1	enum:red=0,green=1,blue=-1;$' "$T/fmt" "enum in format"
expect_grep '^	array:trio	type:int32_t	size:32	count:3	align:4	signed:1;$' "$T/fmt" "array in format"
expect_grep '^	sequence:seq	type:uint16_t	size:16	length:32	align:2	signed:0;$' "$T/fmt" "sequence in format"
"$EVTRACE" ls -f typed >"$T/ls"
expect_grep '^	flags: CAP_ANY$' "$T/ls" "flags in ls -f"
"$EVTRACE" ls stable >"$T/ls"
expect_grep '^0 stable/typed_small$' "$T/ls" "stable events listed flat"

# Enabling the view alone through the default collection.
"$EVTRACE" enable stable/typed_small
"$EVTRACE" ls typed/all >"$T/ls"
expect_grep '^0 typed/all$' "$T/ls" "the raw event stays off"
"$EVTRACE" ls stable/typed_small >"$T/ls"
expect_grep '^1 stable/typed_small$' "$T/ls" "the view is on"
"$EVTRACE" disable stable/typed_small
exec 3>&-
