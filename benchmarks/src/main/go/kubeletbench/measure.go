package main

import (
	"flag"
	"runtime"
	"sort"
	"testing"
	"time"
)

// measurement is the median round of repeated testing.Benchmark runs.
type measurement struct {
	nsPerOp, bytesPerOp, allocsPerOp float64
	rounds                           []float64
}

// measure runs op in one warm-up round and s.rounds measured rounds of s.roundTime each, like the
// JMH settings on the Java side.
func measure(s runSettings, op func()) measurement {
	testing.Init()
	if err := flag.Set("test.benchtime", s.roundTime.String()); err != nil {
		panic(err)
	}
	bench := func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			op()
		}
	}
	testing.Benchmark(bench) // warm-up
	var m measurement
	type round struct{ ns, bytes, allocs float64 }
	var all []round
	for i := 0; i < s.rounds; i++ {
		r := testing.Benchmark(bench)
		ns := float64(r.T.Nanoseconds()) / float64(r.N)
		all = append(all, round{ns, float64(r.MemBytes) / float64(r.N), float64(r.MemAllocs) / float64(r.N)})
		m.rounds = append(m.rounds, ns)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ns < all[j].ns })
	mid := all[len(all)/2]
	m.nsPerOp, m.bytesPerOp, m.allocsPerOp = mid.ns, mid.bytes, mid.allocs
	return m
}

// once times a single call and the memory it allocated.
func once(op func()) (elapsed time.Duration, bytes, allocs uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	op()
	elapsed = time.Since(start)
	runtime.ReadMemStats(&after)
	return elapsed, after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
}
