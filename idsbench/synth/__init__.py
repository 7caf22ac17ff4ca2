"""Generated requirement -> IDS tasks with verified golds (`ids-bench synth`).

    from idsbench.synth.sample import sample_task          # a task's plan: sample_task(seed, index, "hard")
    from idsbench.synth.records import record              # its dataset record in one language
    from idsbench.synth.generate import generate           # a whole folder (idsbench.synth.config.Options)

A plan (plan.py) is drawn from the trade-word lexicon (lexicon/, lexicon.py) and the IFC vocabulary
(vocab.py); the gold (gold.py) and the requests (compose.py, render_en.py, render_ja.py) are written from
it. Every gold is audited, and proven with --prove (prove.py); no task makes the same scored choices as a
benchmark gold (overlap.py). See the README's "Generated tasks".
"""
