module github.com/hookwire/hookwire/bench

go 1.26

require (
	github.com/hookwire/hookwire/core v0.1.0
	github.com/hookwire/hookwire/sdk-go v0.1.0
)

require (
	github.com/bahlo/generic-list-go v0.2.0 // indirect
	github.com/buger/jsonparser v1.1.2 // indirect
	github.com/invopop/jsonschema v0.14.0 // indirect
	github.com/pb33f/ordered-map/v2 v2.3.1 // indirect
	go.yaml.in/yaml/v4 v4.0.0-rc.2 // indirect
)
