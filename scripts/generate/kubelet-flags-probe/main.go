// Prints every flag kubelet's command registers, one JSON object a line, by building the flag set
// exactly as NewKubeletCommand does (cmd/kubelet/app/server.go), with the same blank import of the
// JSON log format as cmd/kubelet/kubelet.go. A cross-check of scripts/generate/kubelet-flags.mjs,
// which reads the same code as text: see README.md here.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"github.com/spf13/pflag"
	cliflag "k8s.io/component-base/cli/flag"
	_ "k8s.io/component-base/logs/json/register" // as cmd/kubelet/kubelet.go: registers the json format, hence --log-json-* flags
	"k8s.io/kubernetes/cmd/kubelet/app/options"
)

type row struct {
	Name                string `json:"name"`
	Shorthand           string `json:"shorthand,omitempty"`
	Type                string `json:"type"`
	GoType              string `json:"goType"`
	Default             string `json:"default"`
	NoOptDefVal         string `json:"noOptDefVal,omitempty"`
	Deprecated          string `json:"deprecated,omitempty"`
	ShorthandDeprecated string `json:"shorthandDeprecated,omitempty"`
	Hidden              bool   `json:"hidden,omitempty"`
}

func main() {
	fs := pflag.NewFlagSet("kubelet", pflag.ContinueOnError)
	fs.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	kubeletFlags := options.NewKubeletFlags()
	kubeletConfig, err := options.NewKubeletConfiguration()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kubeletFlags.AddFlags(fs)
	options.AddKubeletConfigFlags(fs, kubeletConfig)
	options.AddGlobalFlags(fs)
	fs.BoolP("help", "h", false, "help for kubelet")
	enc := json.NewEncoder(os.Stdout)
	fs.VisitAll(func(f *pflag.Flag) {
		goType := fmt.Sprintf("%T", f.Value)
		if v := reflect.ValueOf(f.Value); v.Kind() == reflect.Ptr && v.Elem().Kind() == reflect.Struct {
			// A Go flag wrapped by pflag.PFlagFromGoFlag: name the wrapped type.
			if inner := v.Elem().FieldByName("inner"); inner.IsValid() && inner.Kind() == reflect.Interface && !inner.IsNil() {
				goType += "(" + inner.Elem().Type().String() + ")"
			}
			// cliflag.NewMapStringStringNoSplit: one pair per occurrence.
			if noSplit := v.Elem().FieldByName("NoSplit"); noSplit.IsValid() && noSplit.Kind() == reflect.Bool && noSplit.Bool() {
				goType += "(NoSplit)"
			}
		}
		enc.Encode(row{f.Name, f.Shorthand, f.Value.Type(), goType, f.DefValue, f.NoOptDefVal, f.Deprecated, f.ShorthandDeprecated, f.Hidden})
	})
}
