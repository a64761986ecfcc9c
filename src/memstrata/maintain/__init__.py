"""The gardener and zero-resident upkeep (DESIGN.md §2 Garden).

One garden run: survey → dedup → decay → split → invalidate → reconnect → summarise → report.
Every phase plans pure :class:`~memstrata.maintain.steps.Step` values from what it read; each step
is applied under the workspace lock only if its topics still hash as planned, is crash-safe (a
write-ahead intent rolled forward by the next run), and becomes one line of
``memory/ledger.jsonl`` with the before states that make it undoable. Nothing is hard-deleted.

    survey.py      what the workspace holds, what is new since the last run, how cold each topic is
    pairs.py       candidate pairs and the budgeted judge that compares them
    dedup.py       merges of unambiguous duplicates          decay.py   importance steps, archives
    split.py       deterministic splits of bloated entries   invalidate.py   supersession
    reconnect.py   links for orphans                         summarise.py    the journal lines
    steps.py       the step values and fingerprints          apply.py   guarded, crash-safe apply
    ledger.py      memory/ledger.jsonl and undo              snapshot.py     .memstrata/snapshots
    proposing.py   steps as proposals, and accepted ones back as steps
    state.py       memory/.garden/state.json: scope marker, resume point, notes still owed
    report.py      the report values and their Markdown      gardener.py     run_garden
    tick.py        run_tick: due checks for idle flush, distill and garden
"""
