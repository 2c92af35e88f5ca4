# bash completion: commands, a command's options (as its --help gives
# them), event paths and pids of running traced processes, values of
# --to and --clock; installed where bash-completion looks.
. "$(dirname "$0")/lib.sh"
SCRIPT=$(dirname "$0")/../completion/evtrace.bash
start_waiter
# complete WORDS...: what completing the last word offers, one a line.
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _evtrace; printf "%s\n" "${COMPREPLY[@]}"' \
		complete "$SCRIPT" "$@"
}
expect_eq "$(complete_words "$EVTRACE" rep)" report "a command"
expect_eq "$(complete_words "$EVTRACE" co | sort | tr '\n' ' ')" "convert count " "two commands"
expect_eq "$(complete_words "$EVTRACE" report --st)" --stats "an option of report"
complete_words "$EVTRACE" record - >"$T/opts"
for o in --event --output --overwrite --quiet --stats --pid --all; do
	grep -qx -- "$o" "$T/opts" || fail "record's $o not offered: $(tr '\n' ' ' <"$T/opts")"
done
expect_eq "$(complete_words "$EVTRACE" convert --to '' | tr '\n' ' ')" "chrome-json perfetto sqlite " "--to"
expect_eq "$(complete_words "$EVTRACE" convert -t p)" perfetto "-t is --to in convert"
expect_eq "$(complete_words "$EVTRACE" q)" query "query"
expect_eq "$(complete_words "$EVTRACE" report --clock re | tr '\n' ' ')" "realtime relative " "--clock"
site=$(tracee_event "seq t=")
complete_words "$EVTRACE" record -e printk/tracee/tests/progs/ >"$T/events"
grep -qx "$site" "$T/events" || { head "$T/events" >&2; fail "the waiter's site $site not offered after -e"; }
grep -qv "^printk/tracee/tests/progs/" "$T/events" && fail "-e offered what does not start with the word"
complete_words "$EVTRACE" enable -p "$WAIT_PID" ftrace/ >"$T/ft"
expect_eq "$(tr '\n' ' ' <"$T/ft")" "ftrace/ ftrace/print " "enable -p PID's paths (directories too)"
complete_words "$EVTRACE" ls -p '' >"$T/pids"
grep -qx "$WAIT_PID" "$T/pids" || fail "the waiter's pid not offered after -p"
complete_words "$EVTRACE" record -o x -- ech >"$T/cmd"
grep -qx echo "$T/cmd" || fail "after --, commands are not offered"
echo "ok: commands, options, $(wc -l <"$T/events") event paths, pids"
