"""Render a benchmark report as a plain-text table, memstrata beside FTS5 with their ratio."""

from __future__ import annotations

from typing import Any

LOCOMO_COLUMNS = ("recall@5", "recall@10", "recall@20", "hit@5", "hit@10", "hit@20")
LONGMEMEVAL_COLUMNS = (
    "session_recall_all@5",
    "session_recall_all@10",
    "session_ndcg_any@10",
    "turn_recall_all@5",
    "turn_recall_all@10",
    "turn_recall_any@10",
    "turn_ndcg_any@10",
)


def render_table(report: dict[str, Any], columns: tuple[str, ...]) -> str:
    """One row per category and method: each metric, and memstrata's ratio to FTS5."""
    ours, theirs = report["memstrata"], report["fts5"]
    categories = [name for name in ours if name != "timings"]
    width = max([8, *(len(name) for name in categories)]) + 2
    head = f"{'category':<{width}}{'method':<11}{'n':>5} " + " ".join(
        f"{_short(column):>10}" for column in columns
    )
    lines = [head, "-" * len(head)]
    for category in categories:
        for label, block in (("memstrata", ours[category]), ("fts5", theirs[category])):
            values = " ".join(f"{block.get(column, 0.0):>10.3f}" for column in columns)
            lines.append(f"{category:<{width}}{label:<11}{int(block['n']):>5} {values}")
        ratios = " ".join(
            f"{_ratio(ours[category].get(c, 0.0), theirs[category].get(c, 0.0)):>10}"
            for c in columns
        )
        lines.append(f"{'':<{width}}{'ratio':<11}{'':>5} {ratios}")
    lines.append("")
    for label in ("memstrata", "fts5"):
        timing = report[label]["timings"]
        lines.append(
            f"{label}: index {timing['index_s']:.1f} s, query p50 {timing['query_ms_p50']:.1f} ms,"
            f" p95 {timing['query_ms_p95']:.1f} ms over {timing['queries']} queries"
        )
    meta = report.get("meta", {})
    lines.append(f"embedder: {meta.get('embedder', '?')}, weights: {meta.get('weights', {})}")
    if "corpora" in report:
        lines += ["", *_corpus_rows(report["corpora"], columns[:2])]
    return "\n".join(lines)


def _corpus_rows(
    corpora: dict[str, dict[str, dict[str, float]]], columns: tuple[str, ...]
) -> list[str]:
    """Each corpus alone: its questions, and the first ``columns`` of both methods."""
    names = [_short(column) for column in columns]
    widths = [max(10, len(name)) for name in names]
    width = max([6, *(len(corpus) for corpus in corpora)]) + 2
    heads = " ".join(f"{name:>{w}}" for name, w in zip(names, widths, strict=True))
    head = f"{'corpus':<{width}}{'n':>5}  memstrata {heads}  fts5 {heads}"
    lines = [head, "-" * len(head)]
    for corpus, blocks in corpora.items():
        ours, theirs = (
            " ".join(
                f"{block.get(column, 0.0):>{w}.3f}"
                for column, w in zip(columns, widths, strict=True)
            )
            for block in (blocks["memstrata"], blocks["fts5"])
        )
        n = int(blocks["memstrata"]["n"])
        lines.append(f"{corpus:<{width}}{n:>5}  {'':9} {ours}  {'':4} {theirs}")
    return lines


def _short(column: str) -> str:
    return column.replace("session_", "s_").replace("turn_", "t_").replace("recall", "rec")


def _ratio(ours: float, theirs: float) -> str:
    return f"×{ours / theirs:.2f}" if theirs else "-"
