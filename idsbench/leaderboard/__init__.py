"""Ishigaki-IDS-Bench leaderboard: results files, bootstrap statistics, failure analysis, the leaderboard
page, Hub formats, publishing and outside submissions. Commands: `ids-bench compare|failures|
leaderboard|publish|submission --help`."""
