"""Python's own cost of a payload: json.loads then json.dumps of the file's
content, repeated; prints the time of each repetition in nanoseconds, one
a line."""

import json
import sys
import time

data = open(sys.argv[1], "rb").read()
for _ in range(int(sys.argv[2])):
    start = time.perf_counter_ns()
    json.dumps(json.loads(data)).encode()
    print(time.perf_counter_ns() - start)
