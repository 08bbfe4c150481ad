package main

import (
	"fmt"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager/state"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/utils/cpuset"
)

// benchSimulate admits the 110 pods of the simulate workload on a fresh node per operation, the way
// the kubelet's container-scope topology manager does for the CPU manager alone: the static policy's
// hints, the best-effort merge of them, then Allocate with the merged affinity.
func benchSimulate(in *Inputs, s runSettings) Result {
	res := Result{ID: in.Simulate.ID}
	logger := logr.Discard()
	topo := cpuTopology(in)
	nodes := make([]int, topo.NumNUMANodes)
	for i := range nodes {
		nodes[i] = i
	}
	tm := topologymanager.NewBestEffortPolicy(&topologymanager.NUMAInfo{Nodes: nodes}, topologymanager.PolicyOptions{MaxAllowableNUMANodes: 8})
	type podAndContainer struct {
		pod       *v1.Pod
		container *v1.Container
	}
	var pods []podAndContainer
	for _, p := range in.Simulate.Pods {
		var pod *v1.Pod
		var container *v1.Container
		if p.Guaranteed {
			pod, container = guaranteedPod(p.Name, in.Container, p.CPUs)
		} else {
			pod, container = guaranteedPod(p.Name, in.Container, 1)
			container.Resources = v1.ResourceRequirements{Requests: v1.ResourceList{
				v1.ResourceCPU:    resource.MustParse("500m"),
				v1.ResourceMemory: resource.MustParse("256Mi"),
			}}
		}
		pods = append(pods, podAndContainer{pod, container})
	}
	var final cpuset.CPUSet
	admitAll := func() {
		store := &hintStore{policy: tm, affinity: map[string]topologymanager.TopologyHint{}}
		policy, err := cpumanager.NewStaticPolicy(logger, topo, in.ReservedCount, cpuset.New(), store, nil)
		if err != nil {
			panic(fmt.Sprintf("NewStaticPolicy: %v", err))
		}
		st := state.NewMemoryState(logger)
		if err := policy.Start(logger, st); err != nil {
			panic(fmt.Sprintf("Start: %v", err))
		}
		for _, pc := range pods {
			hints := policy.GetTopologyHints(logger, st, pc.pod, pc.container, lifecycle.AddOperation)
			merged, _ := tm.Merge(logger, []map[string][]topologymanager.TopologyHint{hints})
			store.affinity[string(pc.pod.UID)+"/"+pc.container.Name] = merged
			if err := policy.Allocate(logger, st, pc.pod, pc.container, lifecycle.AddOperation); err != nil {
				panic(fmt.Sprintf("Allocate %s: %v", pc.pod.Name, err))
			}
		}
		final = st.GetDefaultCPUSet()
	}
	admitAll()
	res.Answer = final.String()
	same := res.Answer == in.Simulate.ExpectDefault
	res.SameAnswer = &same
	if !same {
		res.Note = "podnuma's shared pool: " + in.Simulate.ExpectDefault
	}
	m := measure(s, admitAll)
	res.Status = statusMeasured
	res.NsPerOp, res.BytesPerOp, res.AllocsPerOp, res.Rounds = m.nsPerOp, m.bytesPerOp, m.allocsPerOp, m.rounds
	return res
}
