package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/go-logr/logr"
	cadvisorapi "github.com/google/cadvisor/lib/model"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/kubelet/cm/memorymanager"
	memstate "k8s.io/kubernetes/pkg/kubelet/cm/memorymanager/state"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
)

// MemoryCase drives the kubelet's memory manager Static policy over one machine and a sequence of
// container admissions and removals.
type MemoryCase struct {
	Nodes []MemoryNode `json:"nodes"`
	// Reserved is the reservedMemory setting: node id to resource name to bytes.
	Reserved map[int]map[string]uint64 `json:"reserved"`
	Ops      []MemoryOp                `json:"ops"`
}

// MemoryNode is one NUMA node as cAdvisor reports it.
type MemoryNode struct {
	ID int `json:"id"`
	// Memory is the node's total memory in bytes, huge pages included.
	Memory uint64 `json:"memory"`
	// Hugepages maps the page size in KiB (cAdvisor's unit) to the number of pages.
	Hugepages map[uint64]uint64 `json:"hugepages,omitempty"`
}

// MemoryOp admits a Guaranteed container ("add") or removes one ("remove").
type MemoryOp struct {
	Op        string `json:"op"`
	Pod       string `json:"pod"`
	Container string `json:"container"`
	// Request maps memory and hugepages-<size> to bytes (request = limit).
	Request map[string]int64 `json:"request,omitempty"`
	// Hints asks for GetTopologyHints before the allocation.
	Hints bool `json:"hints,omitempty"`
	// Mask is the affinity the topology manager hands the policy; null means "any node".
	Mask      []int `json:"mask"`
	Preferred bool  `json:"preferred"`
}

// MemoryResult is what the kubelet did in a memory case.
type MemoryResult struct {
	// CreateError is set when NewPolicyStatic or Start refused the configuration.
	CreateError string `json:"createError,omitempty"`
	// Table is the machine state right after Start.
	Table []MemoryNodeState `json:"table,omitempty"`
	Ops   []MemoryOpResult  `json:"ops"`
}

// MemoryOpResult is the outcome of one operation and the machine state after it.
type MemoryOpResult struct {
	// Hints, when asked for, per resource; a resource without an entry has none (nothing fits).
	Hints *map[string][]MergeHint `json:"hints,omitempty"`
	// Blocks are the container's memory blocks after a successful admission, per resource.
	Blocks map[string]MemoryBlockResult `json:"blocks,omitempty"`
	Error  string                       `json:"error,omitempty"`
	Table  []MemoryNodeState            `json:"table"`
}

// MemoryBlockResult is one block: the NUMA nodes and the size pinned there.
type MemoryBlockResult struct {
	Mask []int  `json:"mask"`
	Size uint64 `json:"size"`
}

// MemoryNodeState is one node's books, by node id.
type MemoryNodeState struct {
	Node        int                         `json:"node"`
	Assignments int                         `json:"assignments"`
	Cells       []int                       `json:"cells"`
	Memory      map[string]MemoryTableState `json:"memory"`
}

// MemoryTableState mirrors the kubelet's MemoryTable.
type MemoryTableState struct {
	Total          uint64 `json:"total"`
	SystemReserved uint64 `json:"systemReserved"`
	Allocatable    uint64 `json:"allocatable"`
	Reserved       uint64 `json:"reserved"`
	Free           uint64 `json:"free"`
}

func runMemory(logger logr.Logger, m *MemoryCase) (out MemoryResult) {
	defer func() {
		if r := recover(); r != nil {
			out.CreateError = fmt.Sprint("panic: ", r)
		}
	}()
	machine := &cadvisorapi.MachineInfo{}
	for _, n := range m.Nodes {
		node := cadvisorapi.Node{Id: n.ID, Memory: n.Memory}
		sizes := make([]uint64, 0, len(n.Hugepages))
		for size := range n.Hugepages {
			sizes = append(sizes, size)
		}
		sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
		for _, size := range sizes {
			node.HugePages = append(node.HugePages, cadvisorapi.HugePagesInfo{PageSize: size, NumPages: n.Hugepages[size]})
		}
		machine.Topology = append(machine.Topology, node)
	}
	reserved := map[int]map[v1.ResourceName]uint64{}
	for node, resources := range m.Reserved {
		reserved[node] = map[v1.ResourceName]uint64{}
		for name, bytes := range resources {
			reserved[node][v1.ResourceName(name)] = bytes
		}
	}
	store := &affinityStore{policy: topologymanager.NewNonePolicy(), affinity: map[string]topologymanager.TopologyHint{}}
	policy, err := memorymanager.NewPolicyStatic(logger, machine, reserved, store)
	if err != nil {
		return MemoryResult{CreateError: err.Error()}
	}
	s := memstate.NewMemoryState(logger)
	if err := policy.Start(logger, s); err != nil {
		return MemoryResult{CreateError: err.Error()}
	}
	out.Table = memoryTable(s)
	for _, op := range m.Ops {
		out.Ops = append(out.Ops, runMemoryOp(logger, policy, s, store, op))
	}
	return out
}

func runMemoryOp(logger logr.Logger, policy memorymanager.Policy, s memstate.State, store *affinityStore, op MemoryOp) (out MemoryOpResult) {
	defer func() {
		if r := recover(); r != nil {
			out.Error = fmt.Sprint("panic: ", r)
			out.Table = memoryTable(s)
		}
	}()
	switch op.Op {
	case "add":
		pod, container := guaranteedPod(op)
		if op.Hints {
			hints := map[string][]MergeHint{}
			for name, list := range policy.GetTopologyHints(logger, s, pod, container, lifecycle.AddOperation) {
				hints[name] = []MergeHint{}
				for _, h := range list {
					hints[name] = append(hints[name], MergeHint{Mask: sortedBits(h.NUMANodeAffinity), Preferred: h.Preferred})
				}
			}
			out.Hints = &hints
		}
		hint := topologymanager.TopologyHint{Preferred: op.Preferred}
		if op.Mask != nil {
			mask, err := bitmask.NewBitMask(op.Mask...)
			if err != nil {
				panic(fmt.Sprintf("bad mask %v: %v", op.Mask, err))
			}
			hint.NUMANodeAffinity = mask
		}
		store.affinity[op.Pod+"/"+op.Container] = hint
		ctx := klog.NewContext(context.Background(), logger)
		if err := policy.Allocate(ctx, s, pod, container, lifecycle.AddOperation); err != nil {
			out.Error = err.Error()
		} else {
			blocks := s.GetMemoryBlocks(op.Pod, op.Container)
			out.Blocks = map[string]MemoryBlockResult{}
			for _, b := range blocks {
				bits := append([]int{}, b.NUMAAffinity...)
				sort.Ints(bits)
				out.Blocks[string(b.Type)] = MemoryBlockResult{Mask: bits, Size: b.Size}
			}
		}
	case "remove":
		policy.RemoveContainer(logger, s, op.Pod, op.Container)
	default:
		panic(fmt.Sprintf("unknown memory op %q", op.Op))
	}
	out.Table = memoryTable(s)
	return out
}

// guaranteedPod is a one-container Guaranteed pod: one CPU and the case's memory, requests = limits.
func guaranteedPod(op MemoryOp) (*v1.Pod, *v1.Container) {
	list := v1.ResourceList{v1.ResourceCPU: *resource.NewQuantity(1, resource.DecimalSI)}
	for name, bytes := range op.Request {
		list[v1.ResourceName(name)] = *resource.NewQuantity(bytes, resource.BinarySI)
	}
	container := v1.Container{Name: op.Container, Resources: v1.ResourceRequirements{Requests: list, Limits: list.DeepCopy()}}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: op.Pod, Namespace: "default", UID: types.UID(op.Pod)}}
	pod.Spec.Containers = []v1.Container{container}
	return pod, &pod.Spec.Containers[0]
}

func memoryTable(s memstate.State) []MemoryNodeState {
	machine := s.GetMachineState()
	ids := make([]int, 0, len(machine))
	for id := range machine {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var out []MemoryNodeState
	for _, id := range ids {
		n := machine[id]
		cells := append([]int{}, n.Cells...)
		sort.Ints(cells)
		row := MemoryNodeState{Node: id, Assignments: n.NumberOfAssignments, Cells: cells, Memory: map[string]MemoryTableState{}}
		for name, t := range n.MemoryMap {
			row.Memory[string(name)] = MemoryTableState{
				Total: t.TotalMemSize, SystemReserved: t.SystemReserved, Allocatable: t.Allocatable, Reserved: t.Reserved, Free: t.Free,
			}
		}
		out = append(out, row)
	}
	return out
}

func sortedBits(m bitmask.BitMask) []int {
	if m == nil {
		return nil
	}
	bits := m.GetBits()
	sort.Ints(bits)
	return bits
}
