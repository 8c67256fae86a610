"""What the bench writes: progress lines on stderr, the report's timing rows and lines, and
every goal line met or NOT met (gathered for the summary at the end)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from bench.timing import median, percentile


ROOT = Path(__file__).resolve().parent.parent


RESULTS = ROOT / "bench" / "results"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


GOALS: list[str] = []  # every goal line of this run, for the summary at the end


def goal(part: str, text: str, met: bool, figures: str) -> str:
    """A goal line ("goal: … : met (figures)"), also kept for the summary."""
    GOALS.append(f"{part}: {text}: {'met' if met else 'NOT met'} ({figures})")
    return f"  goal: {text}: {'met' if met else 'NOT met'} ({figures})"


def timing_header() -> str:
    return (f"  {'':<34}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"
            f"{'p50 ×hz':>9}{'p99 ×hz':>9}")


def timing_row(label: str, values: list[float], health: list[float]) -> str:
    if not values:
        return f"  {label:<34}{0:>7}   (none)"
    hz50, hz99 = median(health), percentile(health, 0.99)
    p50, p99 = median(values), percentile(values, 0.99)
    return (f"  {label:<34}{len(values):>7}{p50 * 1000:>9.1f}{percentile(values, 0.95) * 1000:>9.1f}"
            f"{p99 * 1000:>9.1f}{max(values) * 1000:>9.1f}{p50 / hz50:>9.1f}{p99 / hz99:>9.1f}")


def delivery_line(found: dict, grace: float) -> str:
    share = 100 * len(found["reach"]) / found["expected"] if found["expected"] else float("nan")
    return (f"  delivered {len(found['reach'])}/{found['expected']} ({share:.2f} %), lost "
            f"{found['lost']} (not there {grace:g} s after the last tap); {found['folded']} "
            f"arrived folded into a later version (the phone got both changes in one event)")


def propagation_line(reach: list[float], health: list[float]) -> str:
    hz = median(health)
    return ("  as × healthz p50: " + ", ".join(
        f"{name} {percentile(reach, share) / hz:.0f}×" for name, share in
        (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))) + f", max {max(reach, default=0) / hz:.0f}×")


def by_kind(failures: list[str]) -> str:
    """" (poll answered 500: 3, …)" for a list of failures, empty for none."""
    if not failures:
        return ""
    counts: dict[str, int] = {}
    for failure in failures:
        counts[failure] = counts.get(failure, 0) + 1
    return " (" + ", ".join(f"{kind}: {n}" for kind, n in sorted(counts.items(), key=lambda i: -i[1])) + ")"


def mb(value: float) -> str:
    return f"{value / 2**20:.1f} MB"


def health_rows(health: dict[str, list[float]], quiet: list[float]) -> list[str]:
    rows = [timing_row("/healthz before the load (quiet)", quiet, quiet)]
    for base, values in health.items():
        if base != "failed":
            rows.append(timing_row(f"/healthz during (:{base.rsplit(':', 1)[1]})", values, values))
    if health.get("failed"):
        rows.append(f"  /healthz failed {len(health['failed'])} times")
    return rows


def combined_health(health: dict[str, list[float]]) -> list[float]:
    return [v for base, values in health.items() if base != "failed" for v in values]


def seconds_text(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"median {median(values):.1f} s (min {min(values):.1f}, max {max(values):.1f}; "
            f"{len(values)} closed)")
