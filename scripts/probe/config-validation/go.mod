module node-check.invalid/probe/config-validation

go 1.24
