module github.com/hookwire/hookwire/bench

go 1.26

require (
	github.com/hookwire/hookwire/core v0.0.0
	github.com/hookwire/hookwire/sdk-go v0.0.0
)

require github.com/go-json-experiment/json v1.27.2 // indirect

// Outside the repository's go.work, the modules are the ones next door.
replace (
	github.com/hookwire/hookwire/core => ../core
	github.com/hookwire/hookwire/sdk-go => ../sdk-go
)
