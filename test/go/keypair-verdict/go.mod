module nodecheck/keypairverdict

go 1.26
