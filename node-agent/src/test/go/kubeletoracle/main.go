// Command kubeletoracle runs the kubelet's static CPU manager policy (k8s.io/kubernetes v1.37.2) over
// test cases and prints what it decided, so that podnuma's Java engine can be compared with it. A case
// with a "merge" member instead runs the topology manager policy's hint merge (see merge.go), one with
// a "memory" member the memory manager's Static policy (see memory.go).
//
// Input: one case per line (JSON) on stdin, or in the file named by the first argument. Output: one
// result per line (JSON) on stdout, in input order. The kubelet's code can loop forever on some
// inputs (takeByTopologyNUMADistributed); a case that does not finish within -timeout is reported
// with "hang" set and the program exits with status 3, so that the caller can restart it on the
// cases after that one (a spinning goroutine cannot be stopped any other way).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/kubelet/cm/admission"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager/state"
	"k8s.io/kubernetes/pkg/kubelet/cm/cpumanager/topology"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager"
	"k8s.io/kubernetes/pkg/kubelet/cm/topologymanager/bitmask"
	"k8s.io/kubernetes/pkg/kubelet/lifecycle"
	"k8s.io/utils/cpuset"
)

// exitHang is the status after a case that did not finish in time.
const exitHang = 3

// Case is one machine, one policy configuration and a sequence of operations on it.
type Case struct {
	ID string `json:"id"`
	// CPUs lists every online CPU as [cpu, socket, numaNode, core, uncoreCache]; core is the
	// machine-unique core id (the lowest sibling), as the kubelet derives it from cAdvisor.
	CPUs [][5]int `json:"cpus"`
	// ReservedCount is the number of reserved CPUs; with ReservedList empty the policy picks them.
	ReservedCount int `json:"reservedCount"`
	// ReservedList is an explicit reservation in Linux list syntax ("0,4"); its size must equal
	// ReservedCount, as the kubelet's configuration guarantees.
	ReservedList string `json:"reservedList,omitempty"`
	// Options are the static policy options (cpuManagerPolicyOptions).
	Options map[string]string `json:"options,omitempty"`
	// TopologyManagerPolicy is none, best-effort, restricted or single-numa-node.
	TopologyManagerPolicy string `json:"topologyManagerPolicy,omitempty"`
	Ops                   []Op   `json:"ops"`
	// Merge, when set, makes this a topology manager merge case; the fields above are then unused.
	Merge *MergeCase `json:"merge,omitempty"`
	// Memory, when set, makes this a memory manager Static policy case (see memory.go).
	Memory *MemoryCase `json:"memory,omitempty"`
}

// Op is one admission of a container or one removal.
type Op struct {
	// Op is "add" or "remove".
	Op        string `json:"op"`
	Pod       string `json:"pod"`
	Container string `json:"container"`
	// CPUs is the container's integral CPU request (= limit).
	CPUs int `json:"cpus,omitempty"`
	// Init marks an init container; Sidecar a restartable one (restartPolicy: Always).
	Init    bool `json:"init,omitempty"`
	Sidecar bool `json:"sidecar,omitempty"`
	// Hint is the NUMA affinity the topology manager hands the policy (list syntax); absent means
	// no preference.
	Hint *string `json:"hint,omitempty"`
	// Hints asks for the policy's topology hints for this container before it is allocated.
	Hints bool `json:"hints,omitempty"`
}

// Result is what the kubelet decided for one case.
type Result struct {
	ID string `json:"id"`
	// CreateError is set when NewStaticPolicy or Start refused the configuration.
	CreateError string     `json:"createError,omitempty"`
	Reserved    string     `json:"reserved"`
	Default     string     `json:"default"`
	Ops         []OpResult `json:"ops"`
	// Hang is set when the case did not finish; Ops holds the operations done before.
	Hang bool `json:"hang,omitempty"`
	// Merge is the answer to a merge case.
	Merge *MergeResult `json:"merge,omitempty"`
	// Memory is the answer to a memory case.
	Memory *MemoryResult `json:"memory,omitempty"`
}

// OpResult is the outcome of one operation.
type OpResult struct {
	Hints []Hint `json:"hints,omitempty"`
	CPUs  string `json:"cpus,omitempty"`
	// ErrorReason is the pod admission reason (SMTAlignmentError, UnexpectedAdmissionError, ...).
	ErrorReason  string `json:"errorReason,omitempty"`
	ErrorMessage string `json:"errorMessage,omitempty"`
	// Default is the shared CPU set after the operation.
	Default string `json:"default"`
}

// Hint is one CPU topology hint.
type Hint struct {
	NUMANodes string `json:"numaNodes"`
	Preferred bool   `json:"preferred"`
}

// affinityStore is the topology manager as the policy sees it: a fixed policy name and, per
// container, the affinity the case prescribes.
type affinityStore struct {
	policy   topologymanager.Policy
	affinity map[string]topologymanager.TopologyHint
}

func (a *affinityStore) GetAffinity(_ logr.Logger, podUID, containerName string) topologymanager.TopologyHint {
	return a.affinity[podUID+"/"+containerName]
}

func (a *affinityStore) GetPolicy() topologymanager.Policy { return a.policy }

func (a *affinityStore) Name() string { return "podnuma-oracle" }

func topologyPolicy(name string) (topologymanager.Policy, error) {
	// Only the name is read by the CPU manager; the merge is not exercised here.
	switch name {
	case "", topologymanager.PolicyNone:
		return topologymanager.NewNonePolicy(), nil
	case topologymanager.PolicyBestEffort:
		return topologymanager.NewBestEffortPolicy(nil, topologymanager.PolicyOptions{}), nil
	case topologymanager.PolicyRestricted:
		return topologymanager.NewRestrictedPolicy(nil, topologymanager.PolicyOptions{}), nil
	case topologymanager.PolicySingleNumaNode:
		return topologymanager.NewSingleNumaNodePolicy(nil, topologymanager.PolicyOptions{}), nil
	}
	return nil, fmt.Errorf("unknown topology manager policy %q", name)
}

func buildTopology(c *Case) (*topology.CPUTopology, error) {
	details := topology.CPUDetails{}
	for _, row := range c.CPUs {
		if _, dup := details[row[0]]; dup {
			return nil, fmt.Errorf("CPU %d listed twice", row[0])
		}
		details[row[0]] = topology.CPUInfo{SocketID: row[1], NUMANodeID: row[2], CoreID: row[3], UncoreCacheID: row[4]}
	}
	return &topology.CPUTopology{
		NumCPUs:        len(details),
		NumCores:       details.Cores().Size(),
		NumUncoreCache: details.UncoreCaches().Size(),
		NumSockets:     details.Sockets().Size(),
		NumNUMANodes:   details.NUMANodes().Size(),
		CPUDetails:     details,
	}, nil
}

func newPod(op Op) (*v1.Pod, *v1.Container) {
	quantity := func(s string) resource.Quantity { return resource.MustParse(s) }
	res := v1.ResourceRequirements{
		Requests: v1.ResourceList{v1.ResourceCPU: *resource.NewQuantity(int64(op.CPUs), resource.DecimalSI), v1.ResourceMemory: quantity("1Gi")},
		Limits:   v1.ResourceList{v1.ResourceCPU: *resource.NewQuantity(int64(op.CPUs), resource.DecimalSI), v1.ResourceMemory: quantity("1Gi")},
	}
	container := v1.Container{Name: op.Container, Resources: res}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: op.Pod, Namespace: "default", UID: types.UID(op.Pod)}}
	if op.Init || op.Sidecar {
		if op.Sidecar {
			always := v1.ContainerRestartPolicyAlways
			container.RestartPolicy = &always
		}
		pod.Spec.InitContainers = []v1.Container{container}
		return pod, &pod.Spec.InitContainers[0]
	}
	pod.Spec.Containers = []v1.Container{container}
	return pod, &pod.Spec.Containers[0]
}

// progress holds a case's result while it runs, so that a hang can still report what was done.
type progress struct {
	mu  sync.Mutex
	res Result
}

func (p *progress) snapshot() Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.res
	r.Ops = append([]OpResult(nil), p.res.Ops...)
	return r
}

func runCase(logger logr.Logger, c *Case, p *progress) {
	setResult := func(f func(r *Result)) {
		p.mu.Lock()
		defer p.mu.Unlock()
		f(&p.res)
	}
	if c.Merge != nil {
		merged := runMerge(logger, c.Merge)
		setResult(func(r *Result) { r.Merge = &merged })
		return
	}
	if c.Memory != nil {
		answer := runMemory(logger, c.Memory)
		setResult(func(r *Result) { r.Memory = &answer })
		return
	}
	topo, err := buildTopology(c)
	if err != nil {
		setResult(func(r *Result) { r.CreateError = err.Error() })
		return
	}
	tmPolicy, err := topologyPolicy(c.TopologyManagerPolicy)
	if err != nil {
		setResult(func(r *Result) { r.CreateError = err.Error() })
		return
	}
	store := &affinityStore{policy: tmPolicy, affinity: map[string]topologymanager.TopologyHint{}}
	reservedList, err := cpuset.Parse(c.ReservedList)
	if err != nil {
		setResult(func(r *Result) { r.CreateError = err.Error() })
		return
	}
	policy, err := cpumanager.NewStaticPolicy(logger, topo, c.ReservedCount, reservedList, store, c.Options)
	if err != nil {
		setResult(func(r *Result) { r.CreateError = err.Error() })
		return
	}
	s := state.NewMemoryState(logger)
	if err := policy.Start(logger, s); err != nil {
		setResult(func(r *Result) { r.CreateError = err.Error() })
		return
	}
	all := topo.CPUDetails.CPUs()
	setResult(func(r *Result) {
		r.Reserved = all.Difference(policy.GetAllocatableCPUs(s)).String()
		r.Default = s.GetDefaultCPUSet().String()
	})
	for _, op := range c.Ops {
		out := runOp(logger, policy, s, store, op)
		setResult(func(r *Result) { r.Ops = append(r.Ops, out) })
	}
}

func runOp(logger logr.Logger, policy cpumanager.Policy, s state.State, store *affinityStore, op Op) (out OpResult) {
	defer func() {
		if r := recover(); r != nil {
			out.ErrorReason = "panic"
			out.ErrorMessage = fmt.Sprint(r)
			out.Default = s.GetDefaultCPUSet().String()
		}
	}()
	switch op.Op {
	case "add":
		pod, container := newPod(op)
		if op.Hints {
			for _, h := range policy.GetTopologyHints(logger, s, pod, container, lifecycle.AddOperation)[string(v1.ResourceCPU)] {
				out.Hints = append(out.Hints, Hint{NUMANodes: maskString(h.NUMANodeAffinity), Preferred: h.Preferred})
			}
		}
		hint := topologymanager.TopologyHint{Preferred: true}
		if op.Hint != nil {
			nodes, err := cpuset.Parse(*op.Hint)
			if err != nil {
				panic(fmt.Sprintf("bad hint %q: %v", *op.Hint, err))
			}
			mask, err := bitmask.NewBitMask(nodes.List()...)
			if err != nil {
				panic(fmt.Sprintf("bad hint %q: %v", *op.Hint, err))
			}
			hint.NUMANodeAffinity = mask
		}
		store.affinity[op.Pod+"/"+op.Container] = hint
		if err := policy.Allocate(logger, s, pod, container, lifecycle.AddOperation); err != nil {
			result := admission.GetPodAdmitResult(err)
			out.ErrorReason = result.Reason
			out.ErrorMessage = err.Error()
		} else if cpus, ok := s.GetCPUSet(op.Pod, op.Container); ok {
			out.CPUs = cpus.String()
		}
	case "remove":
		if err := policy.RemoveContainer(logger, s, op.Pod, op.Container); err != nil {
			out.ErrorReason = "RemoveError"
			out.ErrorMessage = err.Error()
		}
	default:
		panic(fmt.Sprintf("unknown op %q", op.Op))
	}
	out.Default = s.GetDefaultCPUSet().String()
	return out
}

func maskString(m bitmask.BitMask) string {
	if m == nil {
		return ""
	}
	bits := m.GetBits()
	sort.Ints(bits)
	return cpuset.New(bits...).String()
}

func main() {
	timeout := flag.Duration("timeout", 5*time.Second, "longest time one case may take before it counts as a hang")
	flag.Parse()
	// Alpha and beta options must be enabled like on a kubelet that uses them.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{
		"CPUManagerPolicyAlphaOptions": true,
		"CPUManagerPolicyBetaOptions":  true,
	}); err != nil {
		fmt.Fprintln(os.Stderr, "kubeletoracle: cannot enable feature gates:", err)
		os.Exit(2)
	}
	var in io.Reader = os.Stdin
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "kubeletoracle:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	logger := logr.Discard()
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	line := 0
	for scanner.Scan() {
		line++
		if len(scanner.Bytes()) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(scanner.Bytes(), &c); err != nil {
			fmt.Fprintf(os.Stderr, "kubeletoracle: line %d is not a case: %v\n", line, err)
			os.Exit(2)
		}
		p := &progress{res: Result{ID: c.ID}}
		done := make(chan struct{})
		go func() {
			defer close(done)
			runCase(logger, &c, p)
		}()
		select {
		case <-done:
			if err := enc.Encode(p.snapshot()); err != nil {
				fmt.Fprintln(os.Stderr, "kubeletoracle:", err)
				os.Exit(2)
			}
		case <-time.After(*timeout):
			r := p.snapshot()
			r.Hang = true
			_ = enc.Encode(r)
			out.Flush()
			os.Exit(exitHang)
		}
	}
	if err := scanner.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "kubeletoracle:", err)
		os.Exit(2)
	}
}
