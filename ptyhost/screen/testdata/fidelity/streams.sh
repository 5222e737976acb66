# shellcheck shell=bash
# The hand-made streams of fidelity round 3, sourced by record.sh.

# bce writes background colour erase on every sequence that blanks cells (EL 0/1/2,
# ED 0/1, ECH, ICH, DCH, IL, DL, SU, SD, RI at the top margin) with attributes and a
# foreground on that the blanks must not take, ED 1 from the second line (vt10x
# leaves the first), and the line feeds that scroll a region: LF, IND and NEL bring
# in the background colour, an autowrap and a wide character's wrap do not.
bce() {
	local E=$'\e' Z79
	Z79=$(printf '%079d' 0)
	printf '%s' "$E[H$E[2J$E[2;1Hold text$E[2;4H$E[44m$E[1J$E[0m$E[2;3Hj$E[1;9Hi"
	printf '%s' "$E[3;1Hline two text$E[3;6H$E[1;4;31;44m$E[K$E[0m$E[3;30Hx"
	printf '%s' "$E[4;1Hline three text$E[4;6H$E[3;4:3;58;5;9;45m$E[1K$E[0m$E[4;30Hy"
	printf '%s' "$E[5;1Habcdefghijklmnop$E[5;3H$E[7;32;42m$E[4X$E[2@$E[2P$E[0m$E[5;30Hz"
	printf '%s' "$E[6;1Hrev$E[7;33m$E[K$E[0m$E[6;40Hw$E[7;1H$E[7;46m$E[2K$E[0m$E[7;40Hv"
	printf '%s' "$E[8;1H$E[9;46m$E[2L$E[0m$E[8;10Ha$E[9;10Hb"
	printf '%s' "$E[11;1Hkeep$E[12;1Hdel$E[11;1H$E[2;43m$E[M$E[0m$E[11;10Hc"
	printf '%s' "$E[13;16r$E[16;1H$E[45m"$'\n'"$E[0m$E[16;10He$E[5;45m$E[S$E[0m$E[16;12Hf"
	printf '%s' "$E[13;1H$E[41m$E[T$E[0m$E[13;10Hg$E[13;1H$E[42m${E}M$E[0m$E[13;20Hh$E[r"
	printf '%s' "$E[1;20H$E[4;7;33;41mtop$E[K$E[0m$E[1;50Hp"
	printf '%s' "$E[17;1Hed-zero$E[17;4H$E[1;46m$E[J$E[0m$E[18;5Hq"
	printf '%s' "$E[19;24r$E[24;1H$E[43m"$'\n'"$E[0mk$E[4;44m${E}D$E[0ml$E[45m${E}E$E[0mm"
	printf '%s' "$E[46m"$'\r\n'"$Z79"'|'"$E[0mn"
	printf '%s' "$E[47m"$'\r\n'"$Z79"'你'"$E[0mo$E[r"
}

# attrs writes the SGR extras: every underline style (4:0…4:5, 21), the underline
# colour in both forms (58;5, 58;2, 58:5, 58:2::, 59), with blink, italic, dim,
# reverse, strikethrough and each other, on wide characters, marks and blanks,
# saved and restored with the cursor, erased and shifted; colon colours; overline
# (which tmux's capture writes 5:3); and the true colour 0,0,b.
attrs() {
	local E=$'\e'
	printf '%s' "$E[H$E[2J"
	printf '%s\r\n' "$E[4:0mnone$E[0m $E[4:1msingle$E[0m $E[4:2mdouble$E[0m $E[4:3mcurly$E[0m $E[4:4mdotted$E[0m $E[4:5mdashed$E[0m $E[21mdbl21$E[0m"
	printf '%s\r\n' "$E[58;5;196;4mpal$E[0m $E[58;2;10;20;30;4:3mrgb$E[0m $E[58:2::10:20:30;4mcs$E[59mnocol$E[0m $E[58:2:1:2:3;4:4mnocs$E[0m $E[58:5:9;4:5mcolon$E[0m"
	printf '%s\r\n' "$E[5;4:3mblinkcurly$E[0m $E[3;4:2mitaldouble$E[0m $E[5;3;58;5;3;4mall$E[25mnoblink$E[23mnoital$E[24mnoul$E[0m"
	printf '%s\r\n' "$E[4:3;5mcb$E[4mcs$E[4:0mco$E[4:2mcd$E[21;24mnone$E[0m $E[1;4:3;31mbcr$E[22mnb$E[0m $E[6;4:5mrapid$E[25mx$E[0m"
	printf '%s\r\n' "$E[7;4:3;58;5;2mrevcurly$E[27mfwd$E[0m $E[2;4:4mdimdot$E[22mnodim$E[0m $E[1;2mbd$E[22mn$E[0m $E[8mhid$E[28mshow$E[0m"
	printf '%s\r\n' "$E[38;5;1;58;5;2;48;5;3;4mall3$E[0m $E[38:5:200mfc$E[48:2::1:2:3mbc$E[38:2:9:8:7mfr$E[0m $E[9;4:3mstrcurly$E[29mns$E[0m"
	printf '%s\r\n' "$E[4:3;58;5;1m你好e"$'\u0301'"x$E[0m $E[3;5;4:2;58;2;200;0;0mwide😀$E[0m $E[4:3;0;5mreset$E[0m $E[53movr$E[55mno$E[0m"
	printf '%s\r\n' "$E[4:3m$E[58;5;4m   $E[0m|$E[3;4:5m $E[0m|$E[5;4:4;58;5;6m  $E[0m|$E[4:2;7m  $E[0m|$E[9;53m  $E[0m|"
	printf '%s\r\n' "$E[1;3;4:3;5;7;9;58;5;5;38;5;6;48;5;7mevery$E[0m $E[4;4:3mtwo$E[4mone$E[0m $E[4:3m$E[0mz"
	printf '%s\r\n' "$E[3;4:3mab$E[s$E[0mcd$E[ue$E[0m $E[5;4:2m${E}7$E[0mf${E}8g$E[0m"
	printf '%s\r\n' "$E[48;2;0;0;0mblack$E[38;2;0;0;255mblue$E[49mon$E[38;2;0;0;3mdark$E[0m $E[1;38;2;0;1;5mbold$E[0m"
	printf '%s' "$E[4:3;58;5;1;44m"
	printf '%s\r\n' "scroll me"
	printf '%s\r\n' "$E[0m$E[13;1H$E[4:3mlong$E[2Pxy$E[3@z$E[0m $E[3;4:2;58;5;3mlong$E[3Xab$E[0m"
}

# xterm writes where Corral follows xterm rather than tmux 3.3a (the table in
# ../../doc.go): CHT, which tmux ignores, with and without tab stops; a ZWJ
# sequence and combining marks beyond the 21 bytes a tmux cell stores; ZWJs alone.
xterm() {
	local E=$'\e'
	printf '%s' "$E[H$E[2J"
	printf '%s\r\n' "a👨‍👩‍👧‍👦b|c👩🏽‍❤️‍💋‍👨🏻d|"
	printf '%s\r\n' "x"$'\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a\u030b\u030c\u030d'"y|"
	printf '%s\r\n' "e"$'\u200d\u200d\u200d\u200d\u200d\u200d\u200d\u200d'"f|"
	printf '%s\r\n' "$E[5G$E[Ia|$E[2Ib"
	printf '%s\r\n' "$E[3g$E[10G$E[Zcbt|$E[20G${E}H$E[30G$E[2Zq|"
	printf '%s\r\n' "$E[3g$E[10G$E[I|t"
	printf '%s\r\n' "$E[3g$E[10G"$'\t'"|u"
}

# lines writes 3,000 lines of coloured output as a build or test log prints them:
# 16, 256 and true colours, a background to the line's end (EL), tabs, lines wider
# than the screen, wide characters and emoji, curly underlines, bare LFs.
lines() {
	local E=$'\e' i c pad
	local words=(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu)
	for ((i = 1; i <= 3000; i++)); do
		c=$((31 + i % 7))
		case $((i % 10)) in
		0) printf '%s%05d%s %s\r\n' "$E[1;${c}m" "$i" "$E[0m" "${words[i % 12]} done" ;;
		1) printf '%s%05d FAIL %s%s\r\n' "$E[41;97m" "$i" "${words[i % 12]}" "$E[K$E[0m" ;;
		2) printf '%s%05d\t%s\t%s%s\r\n' "$E[38;5;$((i % 256))m" "$i" "${words[i % 12]}" "${words[(i + 3) % 12]}" "$E[0m" ;;
		3)
			pad=$(printf '%*s' $((i % 150)) '' | tr ' ' '=')
			printf '%s%05d %s%s|\r\n' "$E[38;2;$((i % 256));100;200m" "$i" "$pad" "$E[0m"
			;;
		4) printf '%05d 你好 %s 😀 %s\r\n' "$i" "${words[i % 12]}" "$E[4:3;58;5;2mcurly$E[0m" ;;
		5) printf '%s%05d warn %s\r\n' "$E[33;44m" "$i" "${words[i % 12]}$E[0m" ;;
		6) printf '%05d %s\n' "$i" "${words[i % 12]}" ;;
		*) printf '%05d %s %s %s\r\n' "$i" "$E[${c}m${words[i % 12]}$E[0m" "${words[(i * 7) % 12]}" "${words[(i * 5) % 12]}" ;;
		esac
	done
}

# progress writes progress bars rewritten with CR between log lines: coloured,
# erased to the end (EL) and as a whole line (EL 2), a spinner of braille
# characters, a bar wider than the screen (its CR goes back to its last line).
progress() {
	local E=$'\e' i j bar
	for ((j = 1; j <= 6; j++)); do
		printf 'step %d: fetching\r\n' "$j"
		for ((i = 0; i <= 100; i += 5)); do
			bar=$(printf '%*s' $((i / 5)) '' | tr ' ' '#')
			printf '\r%s[%-20s]%s %3d%%' "$E[32m" "$bar" "$E[0m" "$i"
		done
		printf '\r\n'
		for ((i = 0; i <= 30; i += 3)); do
			printf '\r%s %s%d/30 files%s' "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏" "$E[1;34m" "$i" "$E[0m$E[K"
		done
		printf '\r%sdone%s\r\n' "$E[42;30m" "$E[K$E[0m"
		for ((i = 0; i <= 100; i += 25)); do
			bar=$(printf '%*s' $((i)) '' | tr ' ' '=')
			printf '\r%s%s>%s' "$E[36m" "$bar" "$E[0m"
		done
		printf '\r\n'
	done
	for ((i = 1; i <= 60; i++)); do
		printf 'log line %d\r\n' "$i"
		printf '%s %d%%' "$E[7mprogress$E[0m" $((i * 100 / 60))
		printf '\r%s' "$E[2K"
	done
	printf 'finished\r\n'
}
