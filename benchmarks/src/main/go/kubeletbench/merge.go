package main

import (
	"fmt"
	"math/bits"

	"github.com/go-logr/logr"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask"
	"k8s.io/utils/cpuset"
)

// mergeInput is a shape turned into the kubelet's types: a best-effort policy for the machine and one
// map per provider with a single resource.
type mergeInput struct {
	policy    topologymanager.Policy
	providers []map[string][]topologymanager.TopologyHint
}

func newMergeInput(m *Merge, lists [][][2]uint64) mergeInput {
	nodes := make([]int, m.NUMANodes)
	for i := range nodes {
		nodes[i] = i
	}
	opts := topologymanager.PolicyOptions{MaxAllowableNUMANodes: max(8, m.NUMANodes)}
	policy := topologymanager.NewBestEffortPolicy(&topologymanager.NUMAInfo{Nodes: nodes}, opts)
	providers := make([]map[string][]topologymanager.TopologyHint, len(lists))
	for p, list := range lists {
		hints := make([]topologymanager.TopologyHint, len(list))
		for i, h := range list {
			mask, err := bitmask.NewBitMask(nodesOf(h[0])...)
			if err != nil {
				panic(err)
			}
			hints[i] = topologymanager.TopologyHint{NUMANodeAffinity: mask, Preferred: h[1] == 1}
		}
		providers[p] = map[string][]topologymanager.TopologyHint{fmt.Sprintf("r%d", p): hints}
	}
	return mergeInput{policy: policy, providers: providers}
}

func nodesOf(word uint64) []int {
	var out []int
	for rest := word; rest != 0; rest &= rest - 1 {
		out = append(out, bits.TrailingZeros64(rest))
	}
	return out
}

func (in mergeInput) merge() topologymanager.TopologyHint {
	hint, _ := in.policy.Merge(logr.Discard(), in.providers)
	return hint
}

func describe(h topologymanager.TopologyHint) (nodes string, preferred bool) {
	if h.NUMANodeAffinity == nil {
		return "", h.Preferred
	}
	return cpuset.New(h.NUMANodeAffinity.GetBits()...).String(), h.Preferred
}

func withAnswer(r Result, m *Merge, h topologymanager.TopologyHint) Result {
	nodes, preferred := describe(h)
	r.Answer = fmt.Sprintf("%s preferred=%t", nodes, preferred)
	same := nodes == m.Expect.NUMANodes && preferred == m.Expect.Preferred
	r.SameAnswer = &same
	if !same {
		r.Note = fmt.Sprintf("podnuma merged %s preferred=%t", m.Expect.NUMANodes, m.Expect.Preferred)
	}
	return r
}

// benchMerge times the kubelet's merge on a shape small enough to finish many times.
func benchMerge(m *Merge, s runSettings) Result {
	in := newMergeInput(m, m.Providers)
	res := withAnswer(Result{ID: m.ID}, m, in.merge())
	meas := measure(s, func() { in.merge() })
	res.Status = statusMeasured
	res.NsPerOp, res.BytesPerOp, res.AllocsPerOp, res.Rounds = meas.nsPerOp, meas.bytesPerOp, meas.allocsPerOp, meas.rounds
	return res
}

// fullMerge runs the kubelet's merge once on the whole shape; the parent kills it at its deadline.
func fullMerge(m *Merge) Result {
	in := newMergeInput(m, m.Providers)
	var hint topologymanager.TopologyHint
	elapsed, bytes, allocs := once(func() { hint = in.merge() })
	res := withAnswer(Result{ID: m.ID, Status: statusMeasured}, m, hint)
	res.NsPerOp, res.BytesPerOp, res.AllocsPerOp = float64(elapsed.Nanoseconds()), float64(bytes), float64(allocs)
	res.Note = joinNotes([]string{"one run", res.Note})
	return res
}

// cappedMerge times the merge on the shape with its last lists cut short so that about s.capPerms
// combinations remain, and extrapolates time and memory linearly to all combinations (the kubelet
// does the same work for each combination: AND the masks, compare with the best so far).
func cappedMerge(m *Merge, s runSettings) Result {
	lists, perms := truncate(m.Providers, s.capPerms)
	in := newMergeInput(m, lists)
	in.merge() // warm-up
	best := Result{}
	for i := 0; i < 3; i++ {
		elapsed, bytes, allocs := once(func() { in.merge() })
		ns := float64(elapsed.Nanoseconds())
		if i == 0 || ns < best.NsPerOp {
			best.NsPerOp, best.BytesPerOp, best.AllocsPerOp = ns, float64(bytes), float64(allocs)
		}
	}
	scale := m.Permutations / perms
	return Result{
		ID:                   m.ID,
		Status:               statusExtrapolated,
		NsPerOp:              best.NsPerOp * scale,
		BytesPerOp:           best.BytesPerOp * scale,
		AllocsPerOp:          best.AllocsPerOp * scale,
		MeasuredPermutations: perms,
		Note: fmt.Sprintf("extrapolated x%.3g from %.3g of %.3g combinations (%.0f ns, %.0f B each)",
			scale, perms, m.Permutations, best.NsPerOp/perms, best.BytesPerOp/perms),
	}
}

// truncate shortens lists from the last one backwards until at most limit combinations remain.
func truncate(lists [][][2]uint64, limit float64) ([][][2]uint64, float64) {
	out := make([][][2]uint64, len(lists))
	copy(out, lists)
	product := 1.0
	for _, l := range out {
		product *= float64(len(l))
	}
	for i := len(out) - 1; i >= 0 && product > limit; i-- {
		others := product / float64(len(out[i]))
		keep := max(1, int(limit/others))
		if keep < len(out[i]) {
			out[i] = out[i][:keep]
			product = others * float64(keep)
		}
	}
	return out, product
}
