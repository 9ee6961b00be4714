//go:build k8s_merge_skipped

package main

import (
	_ "unsafe"

	"k8s.io/kubernetes/cmd/kubelet/app/options"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
)

// cmd/kubelet/app/server.go mergeKubeletConfigurations(...) ([]string, error), 1.36+ (the
// skipped non-.conf files are only logged).
//
//go:linkname mergeKubeletConfigurations k8s.io/kubernetes/cmd/kubelet/app.mergeKubeletConfigurations
func mergeKubeletConfigurations(kc *kubeletconfiginternal.KubeletConfiguration, dir string) ([]string, error)

func dropinDirectory(f *options.KubeletFlags) string { return f.KubeletDropinConfigDirectory }

func mergeDropins(kc *kubeletconfiginternal.KubeletConfiguration, dir string) error {
	_, err := mergeKubeletConfigurations(kc, dir)
	return err
}
