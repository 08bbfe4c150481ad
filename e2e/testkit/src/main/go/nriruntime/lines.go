package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// lineWriter writes one compact JSON object per line; safe for concurrent use (the stub prints events from the
// ttrpc handlers' goroutines).
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) write(fields map[string]any) {
	body, err := json.Marshal(fields)
	if err != nil {
		body, _ = json.Marshal(map[string]any{"ok": false, "error": "cannot encode the answer: " + err.Error()})
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := fmt.Fprintf(l.w, "%s\n", body); err != nil {
		fmt.Fprintln(os.Stderr, "nriruntime: cannot write to stdout:", err)
	}
}

// protoJSON is m as protobuf JSON; json.Marshal compacts it onto one line (protojson's own spacing is unstable
// on purpose).
func protoJSON(m proto.Message) json.RawMessage {
	body, err := protojson.MarshalOptions{UseProtoNames: false}.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("protojson of %T: %v", m, err))
	}
	return json.RawMessage(body)
}

// protoJSONList is each message of ms as protobuf JSON.
func protoJSONList[M proto.Message](ms []M) []json.RawMessage {
	list := make([]json.RawMessage, 0, len(ms))
	for _, m := range ms {
		list = append(list, protoJSON(m))
	}
	return list
}

// fromJSON fills m from the protobuf JSON raw; absent (nil) raw leaves m empty.
func fromJSON(raw json.RawMessage, m proto.Message) error {
	if len(raw) == 0 {
		return nil
	}
	return protojson.Unmarshal(raw, m)
}
