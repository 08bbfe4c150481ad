package main

// Status values of a Result.
const (
	statusMeasured     = "measured"
	statusExtrapolated = "extrapolated"
	statusTimeout      = "timeout"
	statusError        = "error"
)

// Result is what one benchmark measured on the kubelet's code.
type Result struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	// NsPerOp and BytesPerOp are per operation (allocate + remove, or one merge); for an
	// extrapolated merge they are the measured cost per combination times the combinations.
	NsPerOp     float64 `json:"nsPerOp,omitempty"`
	BytesPerOp  float64 `json:"bytesPerOp,omitempty"`
	AllocsPerOp float64 `json:"allocsPerOp,omitempty"`
	// Rounds holds the ns/op of each measured round.
	Rounds []float64 `json:"rounds,omitempty"`
	// Answer is the kubelet's result (CPUs, or merged NUMA nodes and whether preferred);
	// SameAnswer compares it with podnuma's, nil when there was nothing to compare.
	Answer     string `json:"answer,omitempty"`
	SameAnswer *bool  `json:"sameAnswer,omitempty"`
	// MeasuredPermutations is how many combinations a truncated merge visited.
	MeasuredPermutations float64 `json:"measuredPermutations,omitempty"`
	TimeoutSeconds       float64 `json:"timeoutSeconds,omitempty"`
	Note                 string  `json:"note,omitempty"`
}
