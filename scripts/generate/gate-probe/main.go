// Command gate-probe prints the feature gates kubelet's binary registers, as kubelet's own code
// builds them: it links k8s.io/kubernetes/cmd/kubelet/app (whose package init()s, and those of
// everything it imports, Add every gate to utilfeature.DefaultMutableFeatureGate) and prints each
// known gate with its default, pre-release stage and lock at the gate's emulation version
// (component-base featuregate: the binary's minor from 1.31 on). Output: one JSON object per line.
//
// Built per minor with go.<minor>.mod / go.<minor>.sum (scripts/generate/gate-probe.mjs writes
// them from the tag's own go.mod); no source of kubelet is committed.
package main

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"

	utilfeature "k8s.io/apiserver/pkg/util/feature"

	_ "k8s.io/kubernetes/cmd/kubelet/app"
)

type gate struct {
	Name       string `json:"name"`
	Default    bool   `json:"default"`
	PreRelease string `json:"preRelease"`
	Lock       bool   `json:"lockToDefault"`
}

// specAt mirrors featuregate.featureSpecAtEmulationVersion (component-base v0.31-v0.34) and
// featureSpecAtEmulationAndMinCompatVersion (v0.35+): the last spec whose Version is not after the
// emulation version and whose MinCompatibilityVersion the gate meets, else PreAlpha.
func specAt(specs reflect.Value, emulation, minCompatibility reflect.Value) (reflect.Value, bool) {
	for i := specs.Len() - 1; i >= 0; i-- {
		spec := specs.Index(i)
		if spec.FieldByName("Version").MethodByName("GreaterThan").Call([]reflect.Value{emulation})[0].Bool() {
			continue
		}
		if min := spec.FieldByName("MinCompatibilityVersion"); min.IsValid() && !min.IsNil() && minCompatibility.IsValid() &&
			!minCompatibility.MethodByName("AtLeast").Call([]reflect.Value{min})[0].Bool() {
			continue
		}
		return spec, true
	}
	return reflect.Value{}, false
}

func main() {
	fg := reflect.ValueOf(utilfeature.DefaultMutableFeatureGate)
	var gates []gate
	if versioned := fg.MethodByName("GetAllVersioned"); versioned.IsValid() {
		emulation := fg.MethodByName("EmulationVersion").Call(nil)[0]
		var minCompatibility reflect.Value
		if method := fg.MethodByName("MinCompatibilityVersion"); method.IsValid() {
			minCompatibility = method.Call(nil)[0]
		}
		all := versioned.Call(nil)[0]
		for _, key := range all.MapKeys() {
			spec, ok := specAt(all.MapIndex(key), emulation, minCompatibility)
			if !ok {
				gates = append(gates, gate{Name: key.String(), PreRelease: "PreAlpha"})
				continue
			}
			gates = append(gates, gate{key.String(), spec.FieldByName("Default").Bool(), spec.FieldByName("PreRelease").String(), spec.FieldByName("LockToDefault").Bool()})
		}
	} else {
		all := fg.MethodByName("GetAll").Call(nil)[0]
		for _, key := range all.MapKeys() {
			spec := all.MapIndex(key)
			gates = append(gates, gate{key.String(), spec.FieldByName("Default").Bool(), spec.FieldByName("PreRelease").String(), spec.FieldByName("LockToDefault").Bool()})
		}
	}
	sort.Slice(gates, func(i, j int) bool { return gates[i].Name < gates[j].Name })
	out := json.NewEncoder(os.Stdout)
	for _, g := range gates {
		if err := out.Encode(g); err != nil {
			os.Exit(1)
		}
	}
}
