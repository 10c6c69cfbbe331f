-- teosc_top40.sql — same shape as TEOSC thesis Table 2.2: the 40 most frequent tensor operators
-- over all repositories of one report.
--
-- Parameter: the literal '{report}' is the report directory (e.g. reports/sample). It is
-- substituted by queries/run_queries.py, or by hand:
--   duckdb -c "$(sed "s#{report}#reports/sample#g" queries/teosc_top40.sql)"
--
-- Columns:
--   rank             1..40. Ties on count are broken by operator name ascending, so ranks are unique.
--   operator         canonical operator name (e.g. torch.cat, torch.nn.Conv2d).
--   count            calls of the operator summed over all repos.
--   share_all_pct    count / all counted calls (every operator, not only the top 40), in %, 2 decimals.
--   share_top40_pct  count / sum of the top-40 counts, in %, 2 decimals (the column sums to ~100).
WITH totals AS (
    SELECT operator, CAST(SUM(count) AS BIGINT) AS count
    FROM read_parquet('{report}/op_counts/*.parquet')
    GROUP BY operator
),
ranked AS (
    SELECT operator, count,
           ROW_NUMBER() OVER (ORDER BY count DESC, operator ASC) AS rank
    FROM totals
),
top40 AS (
    SELECT rank, operator, count,
           SUM(count) OVER () AS top40_calls
    FROM ranked
    WHERE rank <= 40
)
SELECT top40.rank,
       top40.operator,
       top40.count,
       CAST(ROUND(100.0 * top40.count / NULLIF(g.all_calls, 0), 2) AS DECIMAL(5, 2)) AS share_all_pct,
       CAST(ROUND(100.0 * top40.count / NULLIF(top40.top40_calls, 0), 2) AS DECIMAL(5, 2)) AS share_top40_pct
FROM top40
CROSS JOIN (SELECT SUM(count) AS all_calls FROM totals) AS g
ORDER BY top40.rank;
