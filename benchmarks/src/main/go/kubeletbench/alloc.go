package main

import (
	"fmt"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager/state"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager/topology"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/utils/cpuset"
)

// hintStore plays the topology manager for the CPU manager: the policy name and, per container, the
// NUMA affinity the scenario prescribes.
type hintStore struct {
	policy   topologymanager.Policy
	affinity map[string]topologymanager.TopologyHint
}

func (h *hintStore) GetAffinity(_ klog.Logger, podUID, containerName string) topologymanager.TopologyHint {
	return h.affinity[podUID+"/"+containerName]
}

func (h *hintStore) GetPolicy() topologymanager.Policy { return h.policy }

func (h *hintStore) Name() string { return "podnuma-bench" }

func cpuTopology(in *Inputs) *topology.CPUTopology {
	details := topology.CPUDetails{}
	for _, row := range in.Machine.CPUs {
		details[row[0]] = topology.CPUInfo{SocketID: row[1], NUMANodeID: row[2], CoreID: row[3], UncoreCacheID: row[4]}
	}
	return &topology.CPUTopology{
		NumCPUs:        len(details),
		NumCores:       details.Cores().Size(),
		NumUncoreCache: details.UncoreCaches().Size(),
		NumSockets:     details.Sockets().Size(),
		NumNUMANodes:   details.NUMANodes().Size(),
		CPUDetails:     details,
	}
}

// guaranteedPod is a pod with one container whose CPU request equals its limit.
func guaranteedPod(name, container string, cpus int) (*v1.Pod, *v1.Container) {
	cpu := *resource.NewQuantity(int64(cpus), resource.DecimalSI)
	memory := resource.MustParse("1Gi")
	list := v1.ResourceList{v1.ResourceCPU: cpu, v1.ResourceMemory: memory}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name)},
		Spec: v1.PodSpec{Containers: []v1.Container{{
			Name:      container,
			Resources: v1.ResourceRequirements{Requests: list, Limits: list},
		}}},
	}
	return pod, &pod.Spec.Containers[0]
}

func affinity(nodes ...int) topologymanager.TopologyHint {
	mask, err := bitmask.NewBitMask(nodes...)
	if err != nil {
		panic(err)
	}
	return topologymanager.TopologyHint{NUMANodeAffinity: mask, Preferred: true}
}

// benchAllocation loads the node like NodeLoad.standard() and times Allocate + RemoveContainer of
// the scenario's container.
func benchAllocation(in *Inputs, a *Allocation, s runSettings) Result {
	res := Result{ID: a.ID}
	// Options that are alpha or beta must be enabled as on a kubelet that uses them.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{
		"CPUManagerPolicyAlphaOptions": true,
		"CPUManagerPolicyBetaOptions":  true,
	}); err != nil {
		return errorResult(res, "feature gates: %v", err)
	}
	logger := logr.Discard()
	tmPolicy := topologymanager.NewBestEffortPolicy(nil, topologymanager.PolicyOptions{})
	if in.TopologyManagerPolicy != tmPolicy.Name() {
		return errorResult(res, "inputs ask for topology manager policy %q; this program models %q", in.TopologyManagerPolicy, tmPolicy.Name())
	}
	store := &hintStore{policy: tmPolicy, affinity: map[string]topologymanager.TopologyHint{}}
	policy, err := cpumanager.NewStaticPolicy(logger, cpuTopology(in), in.ReservedCount, cpuset.New(), store, a.Options)
	if err != nil {
		return errorResult(res, "NewStaticPolicy: %v", err)
	}
	st := state.NewMemoryState(logger)
	if err := policy.Start(logger, st); err != nil {
		return errorResult(res, "Start: %v", err)
	}
	for _, op := range in.Load {
		if op.CPUs == 0 {
			if err := policy.RemoveContainer(logger, st, op.Pod, in.Container); err != nil {
				return errorResult(res, "load: remove %s: %v", op.Pod, err)
			}
			continue
		}
		pod, container := guaranteedPod(op.Pod, in.Container, op.CPUs)
		store.affinity[op.Pod+"/"+in.Container] = affinity(op.NUMANode)
		if err := policy.Allocate(logger, st, pod, container, lifecycle.AddOperation); err != nil {
			return errorResult(res, "load: admit %s (%d CPUs on node %d): %v", op.Pod, op.CPUs, op.NUMANode, err)
		}
	}
	var notes []string
	if got := st.GetDefaultCPUSet().String(); got != a.ExpectDefaultAfterLoad {
		notes = append(notes, fmt.Sprintf("loaded node differs: kubelet shared %s, podnuma %s", got, a.ExpectDefaultAfterLoad))
	}

	hintNodes, err := cpuset.Parse(a.Hint)
	if err != nil {
		return errorResult(res, "hint %q: %v", a.Hint, err)
	}
	pod, container := guaranteedPod(in.BenchPod, in.Container, a.Request)
	store.affinity[in.BenchPod+"/"+in.Container] = affinity(hintNodes.List()...)
	allocateAndRemove := func() {
		if err := policy.Allocate(logger, st, pod, container, lifecycle.AddOperation); err != nil {
			panic(fmt.Sprintf("Allocate: %v", err))
		}
		if err := policy.RemoveContainer(logger, st, in.BenchPod, in.Container); err != nil {
			panic(fmt.Sprintf("RemoveContainer: %v", err))
		}
	}
	if err := policy.Allocate(logger, st, pod, container, lifecycle.AddOperation); err != nil {
		return errorResult(res, "Allocate %d CPUs on %s: %v", a.Request, a.Hint, err)
	}
	got, _ := st.GetCPUSet(in.BenchPod, in.Container)
	res.Answer = got.String()
	same := res.Answer == a.ExpectCPUs
	res.SameAnswer = &same
	if !same {
		notes = append(notes, "podnuma chose "+a.ExpectCPUs)
	}
	if err := policy.RemoveContainer(logger, st, in.BenchPod, in.Container); err != nil {
		return errorResult(res, "RemoveContainer: %v", err)
	}
	m := measure(s, allocateAndRemove)
	res.Status = statusMeasured
	res.NsPerOp, res.BytesPerOp, res.AllocsPerOp, res.Rounds = m.nsPerOp, m.bytesPerOp, m.allocsPerOp, m.rounds
	res.Note = joinNotes(notes)
	return res
}

func errorResult(r Result, format string, args ...any) Result {
	r.Status = statusError
	r.Note = fmt.Sprintf(format, args...)
	return r
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes []string) string {
	out := ""
	for _, n := range notes {
		if n == "" {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += n
	}
	return out
}
