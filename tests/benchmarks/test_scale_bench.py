"""The scale benchmark runs end to end at tiny sizes and reuses its cached workspaces."""

import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SENTENCES = [
    "I went hiking in the mountains last weekend with my sister.",
    "The adoption agency called back about the interview on Friday.",
    "We painted the kitchen a pale shade of green and it looks great.",
    "My piano lessons start again in September after the summer break.",
    "The conference in Lisbon was full of people talking about memory.",
    "I finally fixed the flaky test that failed every other night.",
]


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("scale_bench", REPO / "benchmarks" / "scale.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _tiny_locomo(path: Path) -> Path:
    """Two sessions and three questions in LoCoMo's format."""
    conversation = {"speaker_a": "Caroline", "speaker_b": "Melanie"}
    for number in (1, 2):
        conversation[f"session_{number}_date_time"] = f"1:56 pm on {number} May, 2023"
        conversation[f"session_{number}"] = [
            {
                "speaker": ("Caroline", "Melanie")[index % 2],
                "dia_id": f"D{number}:{index + 1}",
                "text": SENTENCES[(index + number) % len(SENTENCES)],
            }
            for index in range(6)
        ]
    questions = ["When did Caroline go hiking?", "What did Melanie paint?", "Where was it?"]
    qa = [
        {"question": text, "answer": "", "evidence": ["D1:1"], "category": 1} for text in questions
    ]
    path.write_text(json.dumps([{"sample_id": "tiny", "conversation": conversation, "qa": qa}]))
    return path


def test_scale_benchmark_times_every_workspace_and_reuses_the_cache(tmp_path, capsys):
    bench = _load_benchmark()
    argv = [
        "--topics", "5,12", "--turns", "30", "--turns-topics", "5", "--journal-days", "3",
        "--queries", "3", "--cold-runs", "1", "--embedder", "hashing", "--seed-embeddings", "none",
        "--locomo", str(_tiny_locomo(tmp_path / "locomo.json")), "--longmemeval", "none",
        "--cache", str(tmp_path / "cache"), "--json",
    ]  # fmt: skip

    assert bench.main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    assert bench.main([*argv, "--cold-runs", "0"]) == 0
    second = json.loads(capsys.readouterr().out)

    rows = {row["name"]: row for row in first["workspaces"]}
    assert list(rows) == ["topics-5", "topics-12", "topics-5-turns-30"]
    assert [rows[name]["build"]["topics"] for name in rows] == [5, 12, 5]
    assert rows["topics-5-turns-30"]["build"]["raw_turns"] == 30
    assert all(row["recall"]["n"] == 3 and row["cold_cli"]["runs"] == 1 for row in rows.values())
    assert all(row["cold_cli"]["peak_rss_mb"] > 0 for row in rows.values())
    assert "raw_search" in rows["topics-5-turns-30"] and "raw_search" not in rows["topics-5"]
    assert rows["topics-5-turns-30"]["session_search"]["n"] == 3
    assert all(row["search"]["n"] == 3 for row in rows.values())
    assert all(row["context"]["n"] == 3 for row in rows.values())
    assert [row["build"] for row in second["workspaces"]] == [
        row["build"] for row in first["workspaces"]
    ]  # built once, then reused
    assert {"nproc", "cpu", "python", "sqlite"} <= set(first["machine"])
