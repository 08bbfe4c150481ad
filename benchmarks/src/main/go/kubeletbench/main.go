// Command kubeletbench times the kubelet's own code (k8s.io/kubernetes v1.37.2) on the inputs that
// podnuma's JMH benchmarks use: the static CPU policy's Allocate + RemoveContainer on a loaded
// 384-CPU node, and the best-effort topology manager policy's Merge on the same hint lists.
//
// The inputs file is written by io.podnuma.bench.InputsExport (scripts/bench does both). Every
// benchmark runs in a child process of this program, so that a kubelet call that would take hours
// (the merge visits every combination of hints) or never return can be killed at a deadline. A merge
// too big to finish is then timed on a truncated copy of its hint lists and the full time is
// extrapolated from the cost per visited combination; such figures are marked "extrapolated".
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strings"
	"time"
)

func main() {
	inputs := flag.String("inputs", "", "benchmark inputs written by InputsExport (JSON)")
	out := flag.String("out", "", "where to write the results (JSON); stdout when empty")
	run := flag.String("run", "", "internal: run one benchmark in this process and print its result")
	mode := flag.String("mode", modeBench, "internal: bench, full or capped (with -run)")
	only := flag.String("only", "", "run only the benchmarks whose id contains this text")
	timeout := flag.Duration("timeout", 10*time.Second, "deadline for one full run of a merge the kubelet may never finish")
	capPerms := flag.Float64("cap", 2e6, "combinations a truncated merge visits when the full one did not finish")
	rounds := flag.Int("rounds", 5, "measured rounds per benchmark (after one warm-up round)")
	roundTime := flag.Duration("round-time", time.Second, "length of one round")
	cpuProfile := flag.String("cpuprofile", "", "with -run: write a CPU profile of the benchmark to this file (go tool pprof)")
	flag.Parse()
	if *inputs == "" {
		fail("-inputs is required: the file InputsExport wrote (see scripts/bench)")
	}
	in, err := readInputs(*inputs)
	if err != nil {
		fail(err.Error())
	}
	settings := runSettings{rounds: *rounds, roundTime: *roundTime, capPerms: *capPerms}
	if *run != "" {
		if *cpuProfile != "" {
			stop, err := startProfile(*cpuProfile)
			if err != nil {
				fail(err.Error())
			}
			defer stop()
		}
		res := runOne(in, *run, *mode, settings)
		if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
			fail(err.Error())
		}
		return
	}
	results := runAll(in, *inputs, *only, *timeout, settings)
	data, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		fail(err.Error())
	}
	if *out == "" {
		fmt.Println(string(data))
		return
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
		fail(err.Error())
	}
	fmt.Fprintln(os.Stderr, "kubeletbench: results written to", *out)
}

// startProfile writes a CPU profile until the returned function is called.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cannot create the CPU profile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot start the CPU profile: %v", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "kubeletbench:", msg)
	os.Exit(2)
}

const (
	modeBench  = "bench"
	modeFull   = "full"
	modeCapped = "capped"
	// exhaustiveLimit is the largest merge timed like any other benchmark; bigger ones are first
	// tried once under the deadline.
	exhaustiveLimit = 1e6
	// childGrace is the deadline of a child that is expected to finish (setup, warm-up, rounds).
	childGrace = 120 * time.Second
)

// runSettings are the measurement settings handed to every child.
type runSettings struct {
	rounds    int
	roundTime time.Duration
	capPerms  float64
}

func (s runSettings) args() []string {
	return []string{"-rounds", fmt.Sprint(s.rounds), "-round-time", s.roundTime.String(), "-cap", fmt.Sprint(s.capPerms)}
}

// runAll runs every benchmark in a child process and collects the results in input order.
func runAll(in *Inputs, inputsPath, only string, timeout time.Duration, s runSettings) []Result {
	var results []Result
	for _, a := range in.Allocations {
		if strings.Contains(a.ID, only) {
			results = append(results, report(child(inputsPath, a.ID, modeBench, childGrace, s)))
		}
	}
	if in.Simulate.ID != "" && strings.Contains(in.Simulate.ID, only) {
		results = append(results, report(child(inputsPath, in.Simulate.ID, modeBench, childGrace, s)))
	}
	for _, m := range in.Merges {
		if !strings.Contains(m.ID, only) {
			continue
		}
		if m.Permutations <= exhaustiveLimit {
			results = append(results, report(child(inputsPath, m.ID, modeBench, childGrace, s)))
			continue
		}
		full := child(inputsPath, m.ID, modeFull, timeout, s)
		if full.Status != statusTimeout {
			results = append(results, report(full))
			continue
		}
		capped := child(inputsPath, m.ID, modeCapped, childGrace, s)
		if capped.Status == statusExtrapolated {
			capped.TimeoutSeconds = full.TimeoutSeconds
			capped.Note = fmt.Sprintf("full merge did not finish in %.0f s; %s", full.TimeoutSeconds, capped.Note)
		}
		results = append(results, report(capped))
	}
	return results
}

func report(r Result) Result {
	line := fmt.Sprintf("%-62s %-12s", r.ID, r.Status)
	if r.NsPerOp > 0 {
		line += fmt.Sprintf(" %14.0f ns/op %12.0f B/op", r.NsPerOp, r.BytesPerOp)
	}
	if r.Note != "" {
		line += "  (" + r.Note + ")"
	}
	fmt.Fprintln(os.Stderr, line)
	return r
}

// child runs one benchmark in a fresh process of this program and kills it at the deadline.
func child(inputsPath, id, mode string, deadline time.Duration, s runSettings) Result {
	self, err := os.Executable()
	if err != nil {
		return Result{ID: id, Status: statusError, Note: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	args := append([]string{"-inputs", inputsPath, "-run", id, "-mode", mode}, s.args()...)
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Stderr = os.Stderr
	outBytes, err := cmd.Output()
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Result{
			ID:             id,
			Status:         statusTimeout,
			TimeoutSeconds: deadline.Seconds(),
			Note:           fmt.Sprintf("did not finish in %.0f s (killed)", deadline.Seconds()),
		}
	}
	if err != nil {
		return Result{ID: id, Status: statusError, Note: fmt.Sprintf("child failed: %v", err)}
	}
	var r Result
	if err := json.Unmarshal(outBytes, &r); err != nil {
		return Result{ID: id, Status: statusError, Note: fmt.Sprintf("unreadable child result %q: %v", outBytes, err)}
	}
	return r
}

// runOne runs one benchmark in this process.
func runOne(in *Inputs, id, mode string, s runSettings) Result {
	for i := range in.Allocations {
		if in.Allocations[i].ID == id {
			return benchAllocation(in, &in.Allocations[i], s)
		}
	}
	if in.Simulate.ID == id {
		return benchSimulate(in, s)
	}
	for i := range in.Merges {
		if in.Merges[i].ID == id {
			switch mode {
			case modeBench:
				return benchMerge(&in.Merges[i], s)
			case modeFull:
				return fullMerge(&in.Merges[i])
			case modeCapped:
				return cappedMerge(&in.Merges[i], s)
			}
			return Result{ID: id, Status: statusError, Note: fmt.Sprintf("unknown mode %q: use bench, full or capped", mode)}
		}
	}
	return Result{ID: id, Status: statusError, Note: "no benchmark with this id in the inputs"}
}
