module github.com/hookwire/hookwire/examples

go 1.24

require github.com/hookwire/hookwire/sdk-go v0.0.0

// Outside the repository's go.work, the SDK is the one next door.
replace github.com/hookwire/hookwire/sdk-go => ../sdk-go
