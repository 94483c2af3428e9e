module github.com/hookwire/hookwire/sdk-go

go 1.24
