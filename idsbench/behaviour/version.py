"""The witness generator's version: it names the cache and the signature part (behaviour:witness-v1).
Any change to what witnesses are generated, or how verdicts are compared, bumps it."""
GENERATOR = "witness-v1"
