# bash completion for evtrace: commands, each command's options (read
# from its --help, so they never drift), event paths of the running traced
# processes (from `evtrace ls`) after -e and for ls/enable/disable/format,
# pids of traced processes after -p, and directories and files where a
# command takes them.

_evtrace_commands()
{
	"$1" --help 2>/dev/null | sed -n 's/^  evtrace \([a-z-]*\).*/\1/p'
}

_evtrace_options()
{
	"$1" "$2" --help 2>/dev/null |
		grep -o -- '^ *\(-[a-zA-Z], \)\?--[a-z-]*' | grep -o -- '--[a-z-]*'
}

_evtrace_events()
{
	local pid=$2
	if [[ -n $pid ]]; then
		"$1" ls -p "$pid" 2>/dev/null
	else
		"$1" ls 2>/dev/null
	fi | awk '$1 ~ /^[01X?]$/ && $2 != "/" { print $2 }' | sort -u
}

_evtrace_pids()
{
	"$1" ls 2>/dev/null | sed -n 's/^# pid \([0-9]*\) .*/\1/p'
}

_evtrace()
{
	local cur prev cmd i pid=""
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=${COMP_WORDS[1]}
	local evtrace=${COMP_WORDS[0]}

	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$(_evtrace_commands "$evtrace") --help --version" -- "$cur"))
		return
	fi
	# After "--", the command to run.
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return
		fi
		if [[ ${COMP_WORDS[i]} == -p || ${COMP_WORDS[i]} == --pid ]]; then
			pid=${COMP_WORDS[i + 1]}
		fi
	done
	if [[ $prev == --to || ($prev == -t && $cmd == convert) ]]; then
		COMPREPLY=($(compgen -W "chrome-json perfetto sqlite" -- "$cur"))
		return
	fi
	case $prev in
	-e|--event)
		COMPREPLY=($(compgen -W "$(_evtrace_events "$evtrace" "$pid")" -- "$cur"))
		return;;
	-p|--pid|-t|--tid)
		COMPREPLY=($(compgen -W "$(_evtrace_pids "$evtrace")" -- "$cur"))
		return;;
	-o|--output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return;;
	--clock)
		COMPREPLY=($(compgen -W "monotonic realtime relative" -- "$cur"))
		return;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_evtrace_options "$evtrace" "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	ls|enable|disable|format)
		COMPREPLY=($(compgen -W "$(_evtrace_events "$evtrace" "$pid")" -- "$cur"));;
	report|convert|query|diff|abi-check|mount)
		COMPREPLY=($(compgen -d -- "$cur"));;
	esac
}
complete -F _evtrace evtrace
