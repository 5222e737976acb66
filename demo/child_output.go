package demo

// The behaviours that write output: ticks, floods, streams at a rate, split writes.

import (
	"bufio"
	"fmt"
	"os"
	"time"
)

// ticker [interval] [count]: prints "tick i" every interval, then exits 0.
func ticker(args []string) int {
	every := argDur(args, 0, 100*time.Millisecond)
	n := argInt(args, 1, 10)
	for i := 0; i < n; i++ {
		fmt.Printf("tick %d\n", i)
		time.Sleep(every)
	}
	return 0
}

// flood [bytes]: writes that many bytes of numbered text lines as fast as it can.
func flood(args []string) int {
	total := argInt(args, 0, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for i, n := 0, 0; n < total; i++ {
		line := fmt.Sprintf("%08d the quick brown fox jumps over the lazy dog\n", i)
		if n+len(line) > total {
			line = line[:total-n]
		}
		w.WriteString(line)
		n += len(line)
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// stream [bytes-per-second]: prints coloured log lines (an SGR every word or two, as
// loggers and test runners do) at that rate, 100 KB/s by default, in 10 ms slices,
// until it is stopped. The streaming benchmark runs ten of them.
func stream(args []string) int {
	rate := argInt(args, 0, 100_000)
	const slice = 10 * time.Millisecond
	start := time.Now()
	var buf []byte
	sent := 0
	for i := 0; ; {
		due := int(float64(rate) * time.Since(start).Seconds())
		for buf = buf[:0]; sent+len(buf) < due; i++ {
			buf = fmt.Appendf(buf, "\x1b[2m%s\x1b[0m \x1b[1;3%dm%-5s\x1b[0m \x1b[36mworker-%d\x1b[0m handled \x1b[38;5;%dmGET /api/items/%d\x1b[0m in \x1b[33m%d ms\x1b[0m\n",
				start.Add(time.Duration(i)*time.Millisecond).Format("15:04:05.000"), 1+i%6,
				[]string{"INFO", "WARN", "DEBUG"}[i%3], i%8, 16+i%216, i, i%97)
		}
		if _, err := os.Stdout.Write(buf); err != nil {
			return 1
		}
		sent += len(buf)
		time.Sleep(slice)
	}
}

// streams writes interleaved lines to stdout and stderr, then exits 3.
func streams([]string) int {
	for i := 0; i < 3; i++ {
		fmt.Fprintf(os.Stdout, "out %d\n", i)
		fmt.Fprintf(os.Stderr, "err %d\n", i)
	}
	return 3
}

// SplitPieces is what the split behaviour writes, one piece per write with a pause
// between, so UTF-8 sequences and escape sequences arrive split across reads.
var SplitPieces = []string{
	"caf\xc3", "\xa9 ", "\xe2\x82", "\xac ", "\xf0\x9f", "\x98", "\x80 ",
	"\x1b[3", "1mred\x1b", "[0m ", "\x1b]0;ti", "tle\x07", "end\n",
}

func split([]string) int {
	for _, p := range SplitPieces {
		os.Stdout.WriteString(p)
		time.Sleep(15 * time.Millisecond)
	}
	return 0
}
