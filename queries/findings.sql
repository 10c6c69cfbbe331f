-- findings.sql — every shape bug the scan found: where, what kind, which operation and unit,
-- the message, the witness, and how many secondary spans explain it.
--
-- Parameter: the literal '{report}' is the report directory (e.g. reports/sample), substituted
-- by queries/run_queries.py or by sed (see queries/README.md).
--
-- Identical copies of a buggy file each have their row (same line, kind and message).
-- `severity` is `error`, or `warning` (a condition on hyperparameters, an unused suppression):
-- run.findings counts the errors not suppressed.
SELECT repo, path, line, "column", kind, severity, operator, unit, unit_kind, message, witness,
       len(related) AS related_spans, solver
FROM read_parquet('{report}/findings/*.parquet')
ORDER BY kind, repo, path, line, "column";
