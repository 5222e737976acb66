#!/bin/bash
# record.sh regenerates the fidelity test data (TestFidelity): for each
# program, the raw bytes it writes to an 80×24 terminal (NAME.raw), and tmux's
# rendering of exactly those bytes at the same size (NAME.tmux, from
# capture-pane -e -N -p). TestFidelity replays NAME.raw into screen.Screen and
# compares every cell with NAME.tmux, so CI needs neither tmux nor the programs.
#
# It also regenerates ../scrollback (fidelity round 3): streams whose history
# matters, and tmux's history and screen after them at a given size
# (NAME-WxH.tmux, from capture-pane -e -N -p -S - with a history-limit of
# HL lines, TestScrollbackFidelity's scrollbackLimit). The Claude Code, Gemini
# and codex streams are those of the agent-state corpus
# (runs/agentstate/testdata/corpus/NAME.cast), read from there, not copied.
#
# Usage: ptyhost/screen/testdata/fidelity/record.sh [name ...]   (default: all)
# Needs tmux, jq, and the programs: apt-get install -y vim less nano htop mc dialog tig
# Recording uses a private tmux server (-L) that it ends by its own socket
# name (kill-server), never by a process name.
set -eu
cd "$(dirname "$0")"
W=80 H=24 HL=10000
SOCK=corral-fidelity-$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT

# sample.txt is the file the pagers and editors show: CJK with tabs, combining
# marks, emoji ("你好 with tab").
printf '%b' 'plain ascii line
你好	with	tab
cafe\u0301 e\u0301te\u0301 — combining
emoji 😀 flag 🇩🇪 family 👨‍👩‍👧 end
a wide 宽字符在这里 line that is long enough to wrap at the eighty column margin 你好世界
\tindented with a tab\n' >/tmp/corral-fidelity-sample.txt

# record NAME 'COMMAND' KEYS... : runs COMMAND in an 80×24 pane, sends each
# KEYS argument (tmux send-keys syntax) half a second apart, then saves what the
# pane's program wrote while the program is still showing its screen.
record() {
	name=$1 cmd=$2
	shift 2
	SOCK=corral-fidelity-$$-rec-$name # one server per step: a new one never races the last one's exit
	tm start-server \; set -g status off \; set -g default-terminal tmux-256color \;\
		new-session -d -x $W -y $H "sleep 0.5; TERM=xterm-256color COLORTERM=truecolor exec $cmd" \;\
		pipe-pane -o "cat >$PWD/$name.raw"
	sleep 1.5
	for k in "$@"; do
		tm send-keys "$k"
		sleep 0.5
	done
	sleep 1
	tm pipe-pane
	tm kill-server
	capture "$name"
}

# capture NAME : feeds NAME.raw into a fresh W×H tmux pane and saves its
# rendering. Echo is off so that tmux's answers to the stream's queries (DA,
# DSR) do not land on the screen, and output processing too, so that a bare LF
# reaches tmux as it is (not as CR LF). The pane's command signals once the bytes
# are written, so the capture waits on that, not on a delay.
capture() {
	feed "$PWD/$1.raw" "$1.tmux"
}

# feed FILE OUT [capture-pane args] : tmux's capture of FILE's bytes in a W×H pane
# with a history of HL lines.
feed() {
	local in=$1 out=$2
	shift 2
	SOCK=corral-fidelity-$$-cap-$(basename "$out")
	tm start-server \; set -g status off \; set -g history-limit $HL \;\
		new-session -d -x $W -y $H "stty -echo -opost; cat $in; tmux -L $SOCK wait-for -S fed; exec sleep 3600"
	tm wait-for fed
	tm capture-pane -e -N -p "$@" >"$out"
	tm kill-server
}

# probe writes the hand-made stream: every SGR attribute, 16/256/truecolour
# (semicolon and colon forms), bold without brightening, wide, combining,
# emoji, flags, a wide character at the right margin, DEC line drawing,
# IRM/ICH/DCH/ECH/REP, a scroll region, insert/delete line.
probe() {
	local E=$'\e' N=$'\r\n'
	printf '%s' "$E[H$E[2J"
	printf '%s\r\n' "$E[1mbold$E[0m $E[2mdim$E[0m $E[3mital$E[0m $E[4munder$E[0m $E[5mblink$E[0m $E[7mrev$E[0m $E[8mhid$E[0m $E[9mstrike$E[0m"
	printf '%s\r\n' "$E[31mred$E[1mboldred$E[0m $E[1;34mboldblue$E[0m $E[91mbright$E[0m $E[42mbg$E[0m $E[102mbrbg$E[0m"
	printf '%s\r\n' "$E[38;5;208m256fg$E[48;5;22m256bg$E[0m $E[38;2;10;200;30mtrue$E[48;2;90;0;120mtruebg$E[0m $E[38:2::200:100:50mcolon$E[0m $E[4:3mcurly$E[0m"
	printf '%s\r\n' "wide 你好 end|e"$'\u0301'"|😀|🇩🇪|👨‍👩‍👧|x"
	printf '%s' "$(printf '%079d' 0)你"
	printf '\r\n%s\r\n' "$E(0lqqk$E(B box $E(0x$E(B"
	printf '%s' "abcdef$E[4D$E[4hXY$E[4l"
	printf '\r\n%s' "abcdef$E[4D$E[2@$E[3P$E[2X"
	printf '\r\n%s\r\n' "z$E[5b"
	printf '%s' "$E[12;16r$E[12Hline1${N}line2${N}line3${N}line4${N}line5${N}line6${N}line7$E[r"
	printf '%s' "$E[18H$E[2Linserted$E[20H$E[1M$E[22Hlast$E[7mrevEL$E[K$E[0m"
}

# edges writes the corner cases of wide characters, insert mode and the
# attributes vt10x has no bits for, each on its own line: a wide character
# at the margin (wrapping, and dropped without autowrap), either half of one
# overwritten or erased, ICH/DCH through one, IRM at the margin, attributes
# saved and restored with the cursor, REP (tmux repeats only an ASCII
# character just written, once), emoji sequences, a mark after a control
# (dropped), strikethrough on blanks, underline styles and colours. It leaves
# out what tmux's own grid gets wrong, which its capture cannot show: the left
# half of a wide character kept when EL or ECH erases only its right half, and
# one pushed half off the margin by ICH.
edges() {
	local E=$'\e' Z79 Z77
	Z79=$(printf '%079d' 0) Z77=$(printf '%077d' 0)
	printf '%s' "$E[H$E[2J"
	printf '%s\r\n' "$Z79你|"
	printf '%s\r\n' "$E[?7l$Z79你|$E[?7h"
	printf '%s\r\n' "ab你cd$E[4GZ|ab你cd$E[8GY"
	printf '%s\r\n' "ab你cd$E[3G$E[2X|$E[20Gab你cd$E[22G$E[P|"
	printf '%s\r\n' "$Z77你$E[1G$E[@"
	printf '%s\r\n' "$Z79$E[4hX你$E[4l|"
	printf '%s\r\n' "ab你cd$E[3G$E[4h好$E[4l|"
	printf '%s\r\n' "$E[2;9mA$E""7$E[0mB$E""8C$E[0m $E[3;4:3mD$E[sE$E[0m$E[uF$E[0m"
	printf '%s\r\n' "x$E[2m$E[3b$E[0m 你$E[2b y$E[2b$E[2b z\r$E[2b"
	printf '%s\r\n' "👍🏽|❤️|🏳️‍🌈|🇯🇵|á|x"$'\u0301\u0302\u0303'"|"
	printf '%s\r\n' "e"$'\r\u0301'"x|"
	printf '%s\r\n' "$E[9m   $E[0m|$E[2m$E[41m  $E[0m|$E[8mhidden$E[0m|"
	printf '%s\r\n' "$E[58:5:196;4mU$E[4:4mD$E[4:5mD$E[58;2;1;2;3mC$E[59mN$E[21mW$E[24mX$E[0m"
	printf '%s\r\n' "$E(0$E[2mlqk$E(B$E[0m|$E[1;2mbd$E[22mn$E[0m"
	printf '%s' "$E[17;1H你好世界$E[17;3H$E[1K|"
}

. ./streams.sh # bce, attrs, xterm, lines, progress

# scrollback NAME W H : tmux's history and screen after NAME's stream at W×H, in
# ../scrollback/NAME-WxH.tmux; the stream is ../scrollback/NAME.raw, or the
# corpus cast of that name.
scrollback() {
	local name=$1 in=../scrollback/$1.raw cast=../../../../runs/agentstate/testdata/corpus/$1.cast
	if [ ! -f "$in" ]; then
		in=$(mktemp)
		jq -j 'select(type == "array" and .[1] == "o") | .[2]' "$cast" >"$in"
	fi
	W=$2 H=$3 feed "$(realpath "$in")" "../scrollback/$1-$2x$3.tmux" -S -
	case $in in /tmp/*) rm -f "$in" ;; esac
}

all="probe edges bce attrs xterm vim less top git-log ls nano htop mc dialog tig scrollback"
for name in ${@:-$all}; do
	case $name in
	probe) probe >probe.raw && capture probe ;;
	edges) edges >edges.raw && capture edges ;;
	bce) bce >bce.raw && capture bce ;;
	attrs) attrs >attrs.raw && capture attrs ;;
	xterm) xterm >xterm.raw && capture xterm ;;
	scrollback)
		lines >../scrollback/lines.raw
		progress >../scrollback/progress.raw
		scrollback lines 80 24 && scrollback progress 80 24
		scrollback claude 120 40 && scrollback claude 120 15 && scrollback claude-interrupt 100 12
		scrollback gemini 120 40 && scrollback codex 120 40
		;;
	vim) record vim "vim -u NONE -N -c 'syntax on' -c 'set number' /tmp/corral-fidelity-sample.txt" ;;
	less) record less "less -R /tmp/corral-fidelity-sample.txt" ;;
	top) record top "top -b -n1 -w 80 | head -20 | sed 's/[0-9]/0/g'; sleep 3600" ;;
	git-log) record git-log "git -C ../../../.. log --graph --color=always --oneline -n 20 | cat; sleep 3600" ;;
	ls) record ls "ls --color=always -la /usr/bin | head -22; sleep 3600" ;;
	nano) record nano "nano /tmp/corral-fidelity-sample.txt" ;;
	htop) record htop "htop" ;;
	mc) record mc "mc -x /tmp" ;;
	dialog) record dialog "dialog --checklist 'Pick 你好' 15 50 5 1 '你好 with CJK' on 2 'plain item' off 3 'emoji 😀 item' on" ;;
	tig) record tig "tig -C ../../../.." ;;
	*) echo "record.sh: unknown stream $name" >&2 && exit 2 ;;
	esac
done
