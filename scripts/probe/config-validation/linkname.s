// Empty: lets the linkname_*.go files declare kubelet's unexported functions without bodies.
