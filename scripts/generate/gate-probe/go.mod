module node-check/gate-probe

go 1.24
