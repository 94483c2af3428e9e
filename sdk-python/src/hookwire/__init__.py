"""hookwire: write agent hooks in Python.

The typed wire protocol lives in hookwire._protocol, generated from the
protocol schema; the SDK built on it re-exports what hooks use.
"""
