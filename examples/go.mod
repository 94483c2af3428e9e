module github.com/hookwire/hookwire/examples

go 1.24

require github.com/hookwire/hookwire/sdk-go v0.1.0
