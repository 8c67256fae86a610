"""The server's figures for an operator, counted where they happen (the tables' changes, the
live streams, the imports, the requests) and shown by ``web.metrics`` at /metrics."""

from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter("companion_requests_total", "Requests answered, by route kind and status.",
                   ["kind", "status"])
STREAMS = Gauge("companion_open_streams", "Live streams open to phones.",
                multiprocess_mode="livesum")
CHANGES = Counter("companion_changes_total", "Changes written to tables (moves, undos, seats).")
IMPORTS = Histogram("companion_import_seconds", "How long an import of plays took.",
                    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
