module nodecheck/x509verdict

go 1.26
