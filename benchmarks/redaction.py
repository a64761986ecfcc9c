"""Secret redaction benchmark: precision and recall per kind on the labelled set, and throughput.

    .venv/bin/python benchmarks/redaction.py [--json] [--repeats N]

The labelled set is ``tests/gate/secret_cases.py`` (seeded: ≥ 400 synthetic secrets in realistic
text, ≥ 400 hard negatives). A secret counts as found when findings cover its whole span, and as
leaked when its value is still anywhere in the redacted text; a finding is false when it overlaps
no labelled secret. Throughput is wall clock on one core: the labelled set, a 1 MB document of
this repository's own code and docs (what redaction mostly sees: no secrets), and the slowest
pathological 1 MB input we know of.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from memstrata.bench.machine import cpu_name

REPO = Path(__file__).resolve().parents[1]
MB = 1_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--repeats", type=int, default=5, help="timing repeats (best is kept)")
    args = parser.parse_args(argv)
    redact_secrets, cases_module = _load()
    cases = cases_module.build_cases()
    scores = cases_module.score(cases, redact_secrets)
    rows = [_row(k) for k in scores.kinds]
    rows += [_row(scores.total(cases_module.PREFIXED_KINDS)), _row(scores.total())]
    result = {
        "rows": rows,
        "cases": len(cases),
        "negatives": scores.negatives,
        "flagged_negatives": scores.flagged_negatives,
        "typed_right": scores.typed_right,
        "throughput_mb_s": _throughput(redact_secrets, cases, args.repeats),
        "machine": _machine(),
    }
    print(json.dumps(result, indent=2) if args.json else _render(result))
    return 0


def _load() -> tuple[Any, ModuleType]:
    # This file is named like the stdlib `secrets`; keep its folder off the path before importing.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    from memstrata.redaction import redact_secrets

    spec = importlib.util.spec_from_file_location(
        "secret_cases", REPO / "tests" / "gate" / "secret_cases.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return redact_secrets, module


def _row(k: Any) -> dict[str, Any]:
    return {
        "kind": k.kind,
        "secrets": k.secrets,
        "found": k.found,
        "recall": k.found / k.secrets if k.secrets else None,
        "findings": k.findings,
        "false": k.false_findings,
        "precision": 1 - k.false_findings / k.findings if k.findings else None,
        "leaked": k.leaked,
    }


def _best_seconds(work: Any, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _throughput(redact: Any, cases: Any, repeats: int) -> dict[str, float]:
    """MB/s on three inputs; short texts pay a fixed cost per call, so µs per case too."""
    texts = [case.text for case in cases]
    labelled_mb = sum(len(t.encode()) for t in texts) / MB
    labelled_s = _best_seconds(lambda: [redact(t) for t in texts], repeats)
    sources = sorted([*(REPO / "src").rglob("*.py"), *(REPO / "docs").rglob("*.md")])
    own = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    document = (own * (MB // max(1, len(own)) + 1))[:MB]
    document_s = _best_seconds(lambda: redact(document), repeats)
    pathological = ("token: " * (MB // 7 + 1))[:MB]
    pathological_s = _best_seconds(lambda: redact(pathological), 1)
    return {
        "labelled_set": labelled_mb / labelled_s,
        "labelled_us_per_case": labelled_s / len(texts) * 1e6,
        "labelled_bytes_per_case": labelled_mb * MB / len(texts),
        "own_code_and_docs_1mb": len(document.encode()) / MB / document_s,
        "worst_pathological_1mb": len(pathological) / MB / pathological_s,
    }


def _machine() -> dict[str, Any]:
    return {"nproc": os.cpu_count(), "cpu": cpu_name(), "python": platform.python_version()}


def _render(result: dict[str, Any]) -> str:
    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.1f}%"

    lines = [
        "| kind | secrets | found | recall | findings | false | precision | leaked |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        name = f"**{row['kind']}**" if row["kind"] in ("prefixed", "overall") else row["kind"]
        lines.append(
            f"| {name} | {row['secrets']} | {row['found']} | {pct(row['recall'])} "
            f"| {row['findings']} | {row['false']} | {pct(row['precision'])} | {row['leaked']} |"
        )
    speed = result["throughput_mb_s"]
    machine = result["machine"]
    lines += [
        "",
        f"{result['cases']} cases; {result['negatives']} hard negatives, "
        f"{result['flagged_negatives']} with anything redacted; "
        f"{result['typed_right']} found secrets typed with their labelled kind.",
        "",
        "| throughput (one core) | MB/s |",
        "|---|---:|",
        f"| labelled set ({speed['labelled_bytes_per_case']:.0f} bytes a case on average, "
        f"{speed['labelled_us_per_case']:.0f} µs a case) | {speed['labelled_set']:.1f} |",
        f"| 1 MB of this repo's code and docs | {speed['own_code_and_docs_1mb']:.1f} |",
        f"| worst pathological 1 MB ('token: ' repeated) | {speed['worst_pathological_1mb']:.2f} |",
        "",
        f"machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
