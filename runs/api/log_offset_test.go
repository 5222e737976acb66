package api

import (
	"context"
	"math"
	"strings"
	"testing"

	"corral/runs"
)

// logCore is a Core with one run whose output is out.
type logCore struct {
	runsCore
	out string
}

func (c logCore) Log(string) (runs.Output, error) {
	return runs.Output{Chunks: []runs.Chunk{{Data: []byte(c.out)}}}, nil
}

// log's offset and limit are checked: one past the end is refused naming the run's
// line count, a negative offset counts from the end, and no sum of them overflows.
// Before: a huge offset or limit gave "internal error: slice bounds out of range".
func TestLogOffsetsChecked(t *testing.T) {
	c := logCore{runsCore: runsCore{runs: []runs.Info{{ID: "r1", Name: "five"}}}, out: "a\nb\nc\nd\ne\n"}
	for _, tc := range []struct {
		args  LogArgs
		lines string // joined with ","; "!" + text: an error saying it
	}{
		{LogArgs{Offset: 1, Limit: 2}, "b,c"},
		{LogArgs{Offset: 5}, ""},
		{LogArgs{Offset: 6}, "!past the end"},
		{LogArgs{Offset: math.MaxInt}, "!has 5 lines"},
		{LogArgs{Offset: 1, Limit: math.MaxInt}, "b,c,d,e"},
		{LogArgs{Offset: math.MaxInt - 1, Limit: math.MaxInt}, "!past the end"},
		{LogArgs{Offset: -2}, "d,e"},
		{LogArgs{Offset: math.MinInt}, "a,b,c,d,e"},
		{LogArgs{Limit: -1}, "!limit -1"},
		{LogArgs{Tail: true, Limit: math.MaxInt}, "a,b,c,d,e"},
		{LogArgs{Tail: true, Limit: 2}, "d,e"},
	} {
		tc.args.ID = "five"
		rep, err := Log.Apply(context.Background(), c, tc.args)
		if want, ok := strings.CutPrefix(tc.lines, "!"); ok {
			if err == nil || !isCode(err, CodeBadRequest) || !strings.Contains(err.Error(), want) {
				t.Errorf("%+v: %v %v, want a bad request saying %q", tc.args, rep, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.args, err)
			continue
		}
		if got := strings.Join(rep.(LogReply).Lines, ","); got != tc.lines {
			t.Errorf("%+v: lines %q, want %q", tc.args, got, tc.lines)
		}
	}
}
