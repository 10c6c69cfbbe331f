-- construct_apply.sql — modules built and modules applied: for every torch.nn module class,
-- how often it is constructed (`nn.Linear(4, 8)`) and how often an instance is applied
-- (`self.fc(x)`), which op_counts keeps apart (call_kind).
--
-- Parameter: '{report}', the report directory (see queries/README.md).
--
-- Columns:
--   operator     the module class (e.g. torch.nn.Linear).
--   constructed  calls of kind `construct`.
--   applied      calls of kind `apply`.
--   total        constructed + applied.
-- Ordered by total descending, then operator ascending. Precise mode only (TEOSC mode counts
-- names, not constructions or applications: no rows).
SELECT operator,
       CAST(SUM(count) FILTER (WHERE call_kind = 'construct') AS BIGINT) AS constructed,
       CAST(COALESCE(SUM(count) FILTER (WHERE call_kind = 'apply'), 0) AS BIGINT) AS applied,
       CAST(SUM(count) AS BIGINT) AS total
FROM read_parquet('{report}/op_counts/*.parquet')
WHERE call_kind IN ('construct', 'apply') AND operator LIKE 'torch.nn.%'
GROUP BY operator
HAVING SUM(count) FILTER (WHERE call_kind = 'construct') IS NOT NULL
    OR SUM(count) FILTER (WHERE call_kind = 'apply') IS NOT NULL
ORDER BY total DESC, operator ASC;
