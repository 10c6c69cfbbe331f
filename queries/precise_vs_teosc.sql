-- precise_vs_teosc.sql — the same corpus counted both ways: which TEOSC operators get another
-- count in precise mode, and why. Needs two reports of one corpus: '{report}' in precise mode
-- and '{teosc_report}' in TEOSC mode (run_queries.py --teosc-report DIR).
--
-- A precise operator is compared under the TEOSC key it corresponds to: a torch.nn module
-- class as `nn.<Class>`, anything else by its last name (torch.cat, torch.Tensor.view and
-- torch.nn.functional.relu are `cat`, `view`, `relu`). Only keys the TEOSC report counted
-- appear (the list decides what TEOSC counts).
--
-- Columns:
--   key           the TEOSC list key.
--   teosc         calls TEOSC counted.
--   precise       calls precise mode counted under that key.
--   difference    precise - teosc.
--   applied       of the precise calls, module applications (`self.fc(x)`).
--   operators     of the precise calls, Python operators on tensors (`a * b`, `x[i]`).
--   guessed       of the precise calls, those resolved by a method name on an unknown receiver.
--   why           the likeliest reason for the difference (see queries/README.md).
-- Ordered by |difference| descending, then key.
WITH precise AS (
    SELECT CASE WHEN operator LIKE 'torch.nn.%' AND call_kind IN ('construct', 'apply')
                THEN 'nn.' || regexp_extract(operator, '[^.]+$')
                ELSE regexp_extract(operator, '[^.]+$') END AS key,
           call_kind, resolution, count
    FROM read_parquet('{report}/op_counts/*.parquet')
),
p AS (
    SELECT key,
           SUM(count) AS precise,
           COALESCE(SUM(count) FILTER (WHERE call_kind = 'apply'), 0) AS applied,
           COALESCE(SUM(count) FILTER (WHERE call_kind = 'operator'), 0) AS operators,
           COALESCE(SUM(count) FILTER (WHERE resolution = 'method_name'), 0) AS guessed
    FROM precise GROUP BY key
),
t AS (
    SELECT operator AS key, SUM(count) AS teosc
    FROM read_parquet('{teosc_report}/op_counts/*.parquet')
    GROUP BY operator
)
SELECT t.key,
       CAST(t.teosc AS BIGINT) AS teosc,
       CAST(COALESCE(p.precise, 0) AS BIGINT) AS precise,
       CAST(COALESCE(p.precise, 0) - t.teosc AS BIGINT) AS difference,
       CAST(COALESCE(p.applied, 0) AS BIGINT) AS applied,
       CAST(COALESCE(p.operators, 0) AS BIGINT) AS operators,
       CAST(COALESCE(p.guessed, 0) AS BIGINT) AS guessed,
       CASE
           WHEN COALESCE(p.precise, 0) = t.teosc THEN 'same'
           WHEN COALESCE(p.precise, 0) > t.teosc AND COALESCE(p.precise, 0) - COALESCE(p.applied, 0) <= t.teosc
               THEN 'module applications are counted in precise mode only'
           WHEN COALESCE(p.precise, 0) > t.teosc AND COALESCE(p.precise, 0) - COALESCE(p.operators, 0) <= t.teosc
               THEN 'Python operators on tensors are counted in precise mode only'
           WHEN COALESCE(p.precise, 0) > t.teosc
               THEN 'precise resolves calls the name match misses (aliases, attributes, values followed)'
           ELSE 'TEOSC matches the name on calls that are not this torch operator'
       END AS why
FROM t
LEFT JOIN p ON p.key = t.key
ORDER BY ABS(COALESCE(p.precise, 0) - t.teosc) DESC, t.key ASC;
