# Events from a signal handler are recorded between the events around it.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" signal 50 >/dev/null
"$EVTRACE" report "$T/tr" | sed -n 's/^.*: printk\/[^:]*: //p' >"$T/got"
for i in $(seq 0 49); do echo "before raise $i"; echo "in handler sig=10 n=$i"; done >"$T/want"
diff -u "$T/want" "$T/got" || fail "handler events missing or out of order"
bt_agrees "$T/tr"
