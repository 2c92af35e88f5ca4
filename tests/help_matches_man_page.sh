# Every command and option that --help shows is in evtrace(1), the
# version is the project's, and every man page closes the indents it opens.
. "$(dirname "$0")/lib.sh"
man=$(dirname "$0")/../doc/evtrace.1
"$EVTRACE" --help >"$T/help"
# The loop below must see the commands (not none, if --help changed shape).
cmds=$(sed -n 's/^  evtrace \([a-z-]*\).*/\1/p' "$T/help" | tr '\n' ' ')
for want in record report convert ls enable disable format stream count trace recover snapshot mount daemon abi-check; do
	case " $cmds " in *" $want "*) ;; *) fail "evtrace --help lists no '$want' (it lists: $cmds)";; esac
done
options=0
for cmd in $cmds; do
	grep -q "^\.B evtrace $cmd" "$man" || fail "evtrace $cmd is not in the man page synopsis"
	"$EVTRACE" "$cmd" --help >"$T/cmd" || fail "evtrace $cmd --help failed"
	for opt in $(grep -o -- '--[a-z-]*' "$T/cmd" | sort -u); do
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$man" || fail "evtrace $cmd $opt is not in the man page"
		options=$((options + 1))
	done
done
[ "$options" -ge 45 ] || fail "only $options options found in the commands' --help"
"$EVTRACE" --version | grep -q "^evtrace $(sed -n "s/^  version : '\(.*\)',/\1/p" "$(dirname "$0")/../meson.build")$" || fail "version"
for page in "$(dirname "$0")"/../doc/*.[13]; do
	expect_eq "$(grep -c '^\.RE' "$page" || true)" "$(grep -c '^\.RS' "$page" || true)" "$(basename "$page"): .RE for each .RS"
done
