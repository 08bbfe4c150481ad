package main

import (
	"fmt"
	"sort"

	"github.com/go-logr/logr"
	cadvisorapi "github.com/google/cadvisor/lib/model"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask"
)

// MergeCase asks the kubelet's topology manager policy to merge the hints of several providers.
type MergeCase struct {
	// Nodes are the machine's NUMA node ids (not necessarily contiguous).
	Nodes []int `json:"nodes"`
	// Distances is indexed by node id on both axes (rows of absent ids are never read); it becomes
	// each node's cAdvisor distance list. Required with prefer-closest-numa-nodes=true.
	Distances [][]uint64 `json:"distances,omitempty"`
	// Policy is none, best-effort, restricted or single-numa-node.
	Policy string `json:"policy"`
	// Options are topologyManagerPolicyOptions, parsed by the kubelet's own NewPolicyOptions.
	Options map[string]string `json:"options,omitempty"`
	// Providers hold, per resource name, the hint list. A null or empty provider map means "no
	// preference"; a null list means no preference for that resource; an empty list means the
	// resource cannot be placed anywhere. JSON null and [] decode to exactly those Go values.
	Providers []map[string][]MergeHint `json:"providers"`
}

// MergeHint is one provider hint; a null mask stands for "any node" (nil NUMANodeAffinity) and [] for
// an empty, non-nil mask.
type MergeHint struct {
	Mask      []int `json:"mask"`
	Preferred bool  `json:"preferred"`
}

// MergeResult is the merged hint and the admission decision.
type MergeResult struct {
	// Mask is null when the merged affinity is nil ("any"), else the node ids in ascending order.
	Mask      []int `json:"mask"`
	Preferred bool  `json:"preferred"`
	Admit     bool  `json:"admit"`
	// Error is set when the kubelet refused the options or the machine; the rest is then unset.
	Error string `json:"error,omitempty"`
}

func runMerge(logger logr.Logger, m *MergeCase) (out MergeResult) {
	defer func() {
		if r := recover(); r != nil {
			out = MergeResult{Error: fmt.Sprint("panic: ", r)}
		}
	}()
	// As NewManager: the none policy reads neither options nor the machine, and never merges.
	if m.Policy == topologymanager.PolicyNone {
		hint, admit := topologymanager.NewNonePolicy().Merge(logger, nil)
		return MergeResult{Preferred: hint.Preferred, Admit: admit}
	}
	opts, err := topologymanager.NewPolicyOptions(logger, m.Options)
	if err != nil {
		return MergeResult{Error: err.Error()}
	}
	var machine []cadvisorapi.Node
	for _, id := range m.Nodes {
		node := cadvisorapi.Node{Id: id}
		if id < len(m.Distances) {
			node.Distances = m.Distances[id]
		}
		machine = append(machine, node)
	}
	numaInfo, err := topologymanager.NewNUMAInfo(machine, opts)
	if err != nil {
		return MergeResult{Error: err.Error()}
	}
	if len(numaInfo.Nodes) > opts.MaxAllowableNUMANodes {
		return MergeResult{Error: fmt.Sprintf("unsupported on machines with more than %v NUMA Nodes", opts.MaxAllowableNUMANodes)}
	}
	var policy topologymanager.Policy
	switch m.Policy {
	case topologymanager.PolicyBestEffort:
		policy = topologymanager.NewBestEffortPolicy(numaInfo, opts)
	case topologymanager.PolicyRestricted:
		policy = topologymanager.NewRestrictedPolicy(numaInfo, opts)
	case topologymanager.PolicySingleNumaNode:
		policy = topologymanager.NewSingleNumaNodePolicy(numaInfo, opts)
	default:
		return MergeResult{Error: fmt.Sprintf("unknown topology manager policy %q", m.Policy)}
	}
	providers := make([]map[string][]topologymanager.TopologyHint, len(m.Providers))
	for i, p := range m.Providers {
		if p == nil {
			continue
		}
		providers[i] = map[string][]topologymanager.TopologyHint{}
		for resource, list := range p {
			if list == nil {
				providers[i][resource] = nil
				continue
			}
			hints := make([]topologymanager.TopologyHint, len(list))
			for j, h := range list {
				hints[j].Preferred = h.Preferred
				if h.Mask != nil {
					mask, err := bitmask.NewBitMask(h.Mask...)
					if err != nil {
						panic(fmt.Sprintf("bad mask %v of resource %s: %v", h.Mask, resource, err))
					}
					hints[j].NUMANodeAffinity = mask
				}
			}
			providers[i][resource] = hints
		}
	}
	hint, admit := policy.Merge(logger, providers)
	out = MergeResult{Preferred: hint.Preferred, Admit: admit}
	if hint.NUMANodeAffinity != nil {
		out.Mask = append([]int{}, hint.NUMANodeAffinity.GetBits()...)
		sort.Ints(out.Mask)
	}
	return out
}
