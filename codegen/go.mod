module github.com/hookwire/hookwire/codegen

go 1.26
