"""`make bench` and `make soak` (bench/bench.py, bench/soak.py) and the server helper they share
with the real-browser tests (bench/server.py)."""
