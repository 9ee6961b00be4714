// Command config-validation runs, for each input line, the steps kubelet's start command takes with
// its --config file, in the order RunE of NewKubeletCommand (cmd/kubelet/app/server.go at the tag)
// takes them, calling kubelet's own functions:
//
//  1. the command line parsed into a clean flag set built as NewKubeletCommand builds it
//     (options.NewKubeletFlags / NewKubeletConfiguration / AddFlags / AddKubeletConfigFlags /
//     AddGlobalFlags), then SetFromMap of the flags' featureGates ("failed to set feature gates
//     from initial flags-based config: %w") and options.ValidateKubeletFlags;
//  2. loadConfigFile (server.go, unexported: linked by name, see linkname_*.go), wrapped as RunE
//     wraps it at the tag (load-config format, read from server.go by the driver);
//  3. mergeKubeletConfigurations for --config-dir (1.28+), "failed to merge kubelet configs: %w";
//  4. kubeletConfigFlagPrecedence and SetFromMap of the merged featureGates;
//  5. logsapi.Validate of the logging section (1.25+: what ValidateAndApplyAsField checks before
//     it applies; applying is process-global and is not done);
//  6. ValidateKubeletConfiguration with the gate, "failed to validate kubelet configuration,
//     error: %w, path: %s".
//
// The wrapping formats are not written here: the driver reads them from server.go at the tag and
// passes them in (-formats). Each input gets a fresh copy of the feature gate as registered by
// kubelet's packages (utilfeature.DefaultMutableFeatureGate before any Set) and its files under a
// fresh temporary root; that root's prefix is removed from the error text. Input and output are
// JSON lines: {id, files: {path: content}, args: [...], env: {...}} -> {id, ok, step, error}.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	cliflag "k8s.io/component-base/cli/flag"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	_ "k8s.io/component-base/logs/json/register" // as cmd/kubelet/kubelet.go
	_ "k8s.io/kubernetes/cmd/kubelet/app"        // every gate kubelet's binary registers, and the functions linked by name
	"k8s.io/kubernetes/cmd/kubelet/app/options"
)

type input struct {
	ID    string            `json:"id"`
	Files map[string]string `json:"files"`
	Args  []string          `json:"args"`
	Env   map[string]string `json:"env"`
}

type output struct {
	ID    string `json:"id"`
	OK    bool   `json:"ok"`
	Step  string `json:"step,omitempty"`
	Error string `json:"error,omitempty"`
}

// formats: the step -> Go format kubelet wraps the step's error in, from server.go at the tag.
type formats struct {
	LoadConfig      string `json:"load-config"`
	LoadConfigOrder string `json:"load-config-order"` // "path,err" or "err,path"
	GatesFromFlags  string `json:"gates-from-flags"`
	ValidateFlags   string `json:"validate-flags"`
	MergeDropins    string `json:"merge-dropins"`
	FlagPrecedence  string `json:"flag-precedence"`
	GatesFromConfig string `json:"gates-from-config"`
	InitLogging     string `json:"init-logging"`
	ValidateConfig  string `json:"validate-config"`
	ParseFlags      string `json:"parse-flags"`
	DropinEnv       string `json:"dropin-env"`
}

var pristine = utilfeature.DefaultMutableFeatureGate.DeepCopy()

func freshGate() {
	utilfeature.DefaultMutableFeatureGate = pristine.DeepCopy()
	utilfeature.DefaultFeatureGate = utilfeature.DefaultMutableFeatureGate
}

func run(in input, f formats, root string) output {
	out := output{ID: in.ID}
	fail := func(step, text string) output {
		out.Step = step
		out.Error = strings.ReplaceAll(text, root, "")
		return out
	}
	freshGate()
	for k := range in.Env {
		os.Unsetenv(k)
	}
	for k, v := range in.Env {
		os.Setenv(k, v)
	}
	defer func() {
		for k := range in.Env {
			os.Unsetenv(k)
		}
	}()
	// Files under the root; a path ending in "/" is a directory.
	paths := make([]string, 0, len(in.Files))
	for p := range in.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(root, p)
		if strings.HasSuffix(p, "/") {
			os.MkdirAll(full, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(in.Files[p]), 0o644); err != nil {
			return fail("probe", err.Error())
		}
	}
	args := make([]string, len(in.Args))
	for i, a := range in.Args {
		args[i] = strings.ReplaceAll(a, "{root}", root)
	}

	cleanFlagSet := pflag.NewFlagSet("kubelet", pflag.ContinueOnError)
	cleanFlagSet.SetNormalizeFunc(cliflag.WordSepNormalizeFunc)
	kubeletFlags := options.NewKubeletFlags()
	kubeletConfig, err := options.NewKubeletConfiguration()
	if err != nil {
		return fail("probe", err.Error())
	}
	kubeletFlags.AddFlags(cleanFlagSet)
	options.AddKubeletConfigFlags(cleanFlagSet, kubeletConfig)
	options.AddGlobalFlags(cleanFlagSet)
	cleanFlagSet.BoolP("help", "h", false, "help for kubelet")
	cleanFlagSet.SetOutput(discard{})
	if err := cleanFlagSet.Parse(args); err != nil {
		return fail("parse-flags", fmt.Sprintf(f.ParseFlags, err))
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(kubeletConfig.FeatureGates); err != nil {
		return fail("gates-from-flags", fmt.Sprintf(f.GatesFromFlags, err))
	}
	if err := options.ValidateKubeletFlags(kubeletFlags); err != nil {
		return fail("validate-flags", fmt.Sprintf(f.ValidateFlags, err))
	}
	if len(kubeletFlags.KubeletConfigFile) > 0 {
		kubeletConfig, err = loadConfig(kubeletFlags.KubeletConfigFile)
		if err != nil {
			if f.LoadConfigOrder == "path,err" {
				return fail("load-config", fmt.Sprintf(f.LoadConfig, kubeletFlags.KubeletConfigFile, err))
			}
			return fail("load-config", fmt.Sprintf(f.LoadConfig, err, kubeletFlags.KubeletConfigFile))
		}
	}
	dropinDir := dropinDirectory(kubeletFlags)
	if len(dropinDir) > 0 {
		if err := mergeDropins(kubeletConfig, dropinDir); err != nil {
			return fail("merge-dropins", fmt.Sprintf(f.MergeDropins, err))
		}
	}
	if len(kubeletFlags.KubeletConfigFile) > 0 || len(dropinDir) > 0 {
		if err := kubeletConfigFlagPrecedence(kubeletConfig, args); err != nil {
			return fail("flag-precedence", fmt.Sprintf(f.FlagPrecedence, err))
		}
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(kubeletConfig.FeatureGates); err != nil {
			return fail("gates-from-config", fmt.Sprintf(f.GatesFromConfig, err))
		}
	}
	if err := validateLogging(kubeletConfig); err != nil {
		return fail("init-logging", fmt.Sprintf(f.InitLogging, err))
	}
	if err := validateConfig(kubeletConfig); err != nil {
		return fail("validate-config", fmt.Sprintf(f.ValidateConfig, err, kubeletConfig))
	}
	out.OK = true
	return out
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func main() {
	var f formats
	if len(os.Args) < 2 || json.Unmarshal([]byte(os.Args[1]), &f) != nil {
		fmt.Fprintln(os.Stderr, "usage: config-validation '<formats JSON>' < inputs.jsonl")
		os.Exit(2)
	}
	dropinEnvFormat = f.DropinEnv
	base, err := os.MkdirTemp("", "ncprobe")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(base)
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 1<<20), 64<<20)
	enc := json.NewEncoder(os.Stdout)
	n := 0
	for scanner.Scan() {
		var in input
		if err := json.Unmarshal(scanner.Bytes(), &in); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n++
		root := filepath.Join(base, fmt.Sprintf("c%d", n))
		os.MkdirAll(root, 0o755)
		out := run(in, f, root)
		os.RemoveAll(root)
		enc.Encode(out)
	}
}
