"""Stage 2, the paper's facet scorer: blocks (specifications -> normalized facet blocks), pairing
(gold with predicted specifications) and counts (matched blocks, precision, recall, F1;
`counts.score_documents` is the entry point). docs/facet-scorer.md states the method."""
