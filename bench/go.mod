module github.com/hookwire/hookwire/bench

go 1.26

require (
	github.com/hookwire/hookwire/core v0.1.0
	github.com/hookwire/hookwire/sdk-go v0.1.0
)

require github.com/go-json-experiment/json v1.27.2 // indirect
