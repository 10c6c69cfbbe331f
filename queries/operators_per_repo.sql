-- operators_per_repo.sql — operator usage per repository.
--
-- Parameter: the literal '{report}' is the report directory (e.g. reports/sample), substituted
-- by queries/run_queries.py or by sed (see queries/README.md).
--
-- Columns:
--   repo                repository name as written by the scanner.
--   distinct_operators  number of distinct canonical operators called in the repo.
--   total_calls         all counted calls in the repo.
--   top_operator        the repo's most frequent operator (ties: operator name ascending).
--   top_count           its count.
-- Ordered by total_calls descending, then repo ascending.
-- Only repos with at least one op_counts row appear.
WITH per_op AS (
    SELECT repo, operator, CAST(SUM(count) AS BIGINT) AS count
    FROM read_parquet('{report}/op_counts/*.parquet')
    GROUP BY repo, operator
),
ranked AS (
    SELECT repo, operator, count,
           ROW_NUMBER() OVER (PARTITION BY repo ORDER BY count DESC, operator ASC) AS rn
    FROM per_op
)
SELECT repo,
       COUNT(*)                                 AS distinct_operators,
       CAST(SUM(count) AS BIGINT)               AS total_calls,
       MAX(operator) FILTER (WHERE rn = 1)      AS top_operator,
       MAX(count) FILTER (WHERE rn = 1)         AS top_count
FROM ranked
GROUP BY repo
ORDER BY total_calls DESC, repo ASC;
