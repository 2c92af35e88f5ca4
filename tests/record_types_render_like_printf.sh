# Every storage type and conversion renders as printf would have.
. "$(dirname "$0")/lib.sh"
"$EVTRACE" record -o "$T/tr" -- "$TRACEE" types >/dev/null
"$EVTRACE" report "$T/tr" | sed -n 's/^.*: printk\/tracee\/[^:]*: //p' >"$T/got"
big=$(printf 'a%.0s' $(seq 252))
cat >"$T/want" <<WANT
ints -128 255 -32768 65535 -2147483648 4294967295
wide -9223372036854775808 18446744073709551615 -1 42 9223372036854775807 ff
misc Z beef 010  3.14 -1.500000e-300 0x1234 %
strings [] [(null)] [ab    ] [abc]
star [    42] [xy] [   2.500]
long ${big}...
no arguments at all
WANT
diff -u "$T/want" "$T/got" || fail "rendered text differs"
bt_agrees "$T/tr"
bt "$T/tr" >"$T/bt"
expect_grep 'arg0 = -9223372036854775808, arg1 = 18446744073709551615' "$T/bt" "babeltrace2 64-bit extremes"
expect_grep 'arg0 = -128, arg1 = 255, arg2 = -32768, arg3 = 65535, arg4 = -2147483648, arg5 = 4294967295' "$T/bt" "babeltrace2 small ints"
expect_grep 'arg0_width = 6, arg0 = 42' "$T/bt" "babeltrace2 star width"
