// micro.go owns `zapbench-go micro`: every codec benchmark of package record
// run through testing.Benchmark, repetitions interleaved, written as a
// Google-Benchmark-shaped JSON file (what zapbench's report ingests) and a
// table on stdout.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"text/tabwriter"
	"time"

	"zapbench/go/record"
)

type microContext struct {
	GoVersion  string            `json:"go_version"`
	GOOS       string            `json:"goos"`
	GOARCH     string            `json:"goarch"`
	GOMAXPROCS int               `json:"gomaxprocs"`
	NumCPUs    int               `json:"num_cpus"`
	Date       string            `json:"date"`
	MinTime    string            `json:"min_time"`
	Modules    map[string]string `json:"modules"`
}

// benchEntry follows Google Benchmark's JSON keys; the counters are per op.
type benchEntry struct {
	Name            string  `json:"name"`
	RunName         string  `json:"run_name"`
	RunType         string  `json:"run_type"`
	Repetitions     int     `json:"repetitions"`
	RepetitionIndex int     `json:"repetition_index"`
	Threads         int     `json:"threads"`
	Iterations      int     `json:"iterations"`
	RealTime        float64 `json:"real_time"`
	CPUTime         float64 `json:"cpu_time"`
	TimeUnit        string  `json:"time_unit"`
	AllocsPerOp     float64 `json:"allocs/op"`
	AllocBytesPerOp float64 `json:"alloc_bytes/op"`
	WireBytes       float64 `json:"wire_bytes"`
	ErrorOccurred   bool    `json:"error_occurred,omitempty"`
	ErrorMessage    string  `json:"error_message,omitempty"`
}

type unavailableEntry struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

type microFile struct {
	Context     microContext       `json:"context"`
	Benchmarks  []benchEntry       `json:"benchmarks"`
	Unavailable []unavailableEntry `json:"unavailable"`
}

// parseMinTime takes a Go duration ("0.2s", "200ms") or plain seconds ("0.2").
func parseMinTime(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil {
			return 0, fmt.Errorf("want a duration like 0.2s or 200ms")
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("want a positive duration")
	}
	return d, nil
}

type plannedBench struct {
	name string
	fn   func(*testing.B)
}

func cmdMicro(args []string) int {
	cmd := newCommand("micro", "micro --json-out FILE [flags]",
		"Runs the codec benchmarks Decode, Encode, Serde and Handler on every\n"+
			"available codec — go/zap (zap-proto/go, a fresh builder per message, the\n"+
			"reference's way), go/zap-reset (one builder, Reset per message) and the\n"+
			"JSON codecs (names <Op>/go/<codec>) — and the logs record's reads on\n"+
			"zap-proto/go (Logs/DecodeAll|AccessOne|ScanField/go/zap/N, N = 1, 10,\n"+
			"100, 1000, 10000) with testing.Benchmark, each\n"+
			"repetition at least --min-time, repetitions interleaved. Writes Google-\n"+
			"Benchmark-shaped JSON (ns/op as real_time and cpu_time, allocs/op,\n"+
			"alloc_bytes/op, wire_bytes) with the unavailable codecs and why, and\n"+
			"prints a table.")
	out := cmd.fs.String("json-out", "", "write the results to `FILE` (required)")
	filter := cmd.fs.String("filter", "", "run only benchmarks whose name matches `REGEX`")
	minTimeText := cmd.fs.String("min-time", "0.2s", "each repetition runs at least this `duration`")
	reps := cmd.fs.Int("repetitions", 3, "repetitions of every benchmark (`N` >= 1)")
	if code := cmd.parse(args); code >= 0 {
		return code
	}
	if *out == "" {
		return cmd.fail("give --json-out FILE")
	}
	minTime, err := parseMinTime(*minTimeText)
	if err != nil {
		return cmd.fail("--min-time %q: %v", *minTimeText, err)
	}
	if *reps < 1 {
		return cmd.fail("--repetitions %d: want >= 1", *reps)
	}
	re, err := regexp.Compile(*filter)
	if err != nil {
		return cmd.fail("--filter %q: %v", *filter, err)
	}

	// testing.Benchmark reads -test.benchtime: it grows b.N until one run
	// lasts at least that long, and reports that last run, so every
	// repetition measures >= min-time.
	testing.Init()
	if err := flag.Set("test.benchtime", minTime.String()); err != nil {
		return cmd.die("setting the benchtime: %v", err)
	}

	var plan []plannedBench
	file := microFile{Context: microContext{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPUs:    runtime.NumCPU(),
		Date:       time.Now().Format(time.RFC3339),
		MinTime:    minTime.String(),
		Modules:    record.Modules(),
	}, Benchmarks: []benchEntry{}, Unavailable: []unavailableEntry{}}
	// The codecs in table order: go/zap, go/zap-reset, then the JSON codecs.
	for _, c := range record.Codecs() {
		if !c.Available {
			file.Unavailable = append(file.Unavailable, unavailableEntry{"go/" + c.Name, c.Reason})
		}
	}
	for _, op := range record.Ops {
		for _, c := range record.Codecs() {
			if name := record.Name(op, c); c.Available && re.MatchString(name) {
				plan = append(plan, plannedBench{name, record.Benchmark(op, c)})
			}
		}
	}
	// The logs record's reads on zap-proto/go (the only Go access to our layout).
	for _, op := range record.LogsOps {
		for _, n := range record.LogCounts {
			if name := record.LogsName(op, n); re.MatchString(name) {
				plan = append(plan, plannedBench{name, record.BenchLogs(op, n)})
			}
		}
	}
	if len(plan) == 0 {
		// Not an error: zapbench passes its own --filter on, which may name
		// C++ benchmarks only. The file still says what is unavailable.
		fmt.Fprintf(os.Stderr, "zapbench-go micro: --filter %q matches no benchmark\n", *filter)
	}

	failed := 0
	for rep := 0; rep < *reps; rep++ {
		for _, p := range plan {
			r := testing.Benchmark(p.fn)
			e := benchEntry{Name: p.name, RunName: p.name, RunType: "iteration", Repetitions: *reps,
				RepetitionIndex: rep, Threads: 1, TimeUnit: "ns"}
			if r.N == 0 {
				// The benchmark stopped at its own check (b.Fatal before the timer).
				e.ErrorOccurred = true
				e.ErrorMessage = "the codec does not give the sample / computed response back"
				failed++
				fmt.Fprintf(os.Stderr, "zapbench-go micro: %s: %s\n", p.name, e.ErrorMessage)
			} else {
				n := float64(r.N)
				e.Iterations = r.N
				e.RealTime = float64(r.T.Nanoseconds()) / n
				e.CPUTime = e.RealTime
				e.AllocsPerOp = float64(r.MemAllocs) / n
				e.AllocBytesPerOp = float64(r.MemBytes) / n
				e.WireBytes = r.Extra["wire_bytes"]
			}
			file.Benchmarks = append(file.Benchmarks, e)
		}
	}

	data, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return cmd.die("%v", err)
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		return cmd.die("--json-out: %v", err)
	}
	printTable(file)
	if failed > 0 {
		return cmd.die("%d benchmark run(s) failed their result check (see %s)", failed, *out)
	}
	return 0
}

func printTable(f microFile) {
	fmt.Printf("%s %s/%s GOMAXPROCS=%d, each repetition >= %s\n", f.Context.GoVersion, f.Context.GOOS,
		f.Context.GOARCH, f.Context.GOMAXPROCS, f.Context.MinTime)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\trep\titerations\tns/op\tallocs/op\tB/op\twire bytes\t")
	for _, b := range f.Benchmarks {
		if b.ErrorOccurred {
			fmt.Fprintf(tw, "%s\t%d\tFAILED: %s\t\t\t\t\t\n", b.Name, b.RepetitionIndex, b.ErrorMessage)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f\t%.0f\t%.0f\t\n", b.Name, b.RepetitionIndex, b.Iterations,
			b.RealTime, b.AllocsPerOp, b.AllocBytesPerOp, b.WireBytes)
	}
	tw.Flush()
	for _, u := range f.Unavailable {
		fmt.Printf("unavailable: %s: %s\n", u.Name, u.Reason)
	}
}
