module stax

go 1.26.8
