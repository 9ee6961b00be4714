//go:build !k8s_124

package main

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/apimachinery/pkg/util/validation/field"
	logsapi "k8s.io/component-base/logs/api/v1"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"
	"k8s.io/kubernetes/pkg/kubelet/apis/config/validation"
)

// RunE (1.25+): logsapi.ValidateAndApplyAsField(&kc.Logging, gate, field.NewPath("logging")),
// whose first half is Validate(...).ToAggregate(); the apply half changes process-global state.
func validateLogging(kc *kubeletconfiginternal.KubeletConfiguration) error {
	if errs := logsapi.Validate(&kc.Logging, utilfeature.DefaultFeatureGate, field.NewPath("logging")); len(errs) > 0 {
		return errs.ToAggregate()
	}
	return nil
}

func validateConfig(kc *kubeletconfiginternal.KubeletConfiguration) error {
	return validation.ValidateKubeletConfiguration(kc, utilfeature.DefaultFeatureGate)
}
