"""The generator's version: part of every task's random seed and of every record's `generator` field.

Bump it whenever a change can alter any generated task for a given seed (lexicon, sampling, rendering,
gold writing): synth-eval-v1 pins the version it was made with, and its test regenerates a slice.
"""
GENERATOR = "ids-synth-8"
