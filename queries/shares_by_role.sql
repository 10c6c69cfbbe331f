-- shares_by_role.sql — where the operator calls are: library code, tests, examples, docs or
-- notebooks (the `role` column; the path rules are in reports/README.md).
--
-- Parameter: '{report}', the report directory (see queries/README.md).
--
-- Columns:
--   role        library, test, example, docs or notebook.
--   files       files of that role that were analysed (status ok).
--   calls       operator calls in them.
--   share_pct   calls / all calls, in %, 2 decimals.
--   guessed_pct of those calls, the share resolved only by a Tensor method name on a receiver
--               of unknown type (resolution `method_name`), in %, 2 decimals.
-- Ordered by calls descending, then role.
WITH calls AS (
    SELECT role, CAST(SUM(count) AS BIGINT) AS calls,
           CAST(SUM(count) FILTER (WHERE resolution = 'method_name') AS BIGINT) AS guessed
    FROM read_parquet('{report}/op_counts/*.parquet')
    GROUP BY role
),
files AS (
    SELECT role, COUNT(*) AS files
    FROM read_parquet('{report}/files/*.parquet')
    WHERE status = 'ok'
    GROUP BY role
)
SELECT COALESCE(c.role, f.role) AS role,
       CAST(COALESCE(f.files, 0) AS BIGINT) AS files,
       CAST(COALESCE(c.calls, 0) AS BIGINT) AS calls,
       CAST(ROUND(100.0 * COALESCE(c.calls, 0) / NULLIF((SELECT SUM(calls) FROM calls), 0), 2)
           AS DECIMAL(5, 2)) AS share_pct,
       CAST(ROUND(100.0 * COALESCE(c.guessed, 0) / NULLIF(c.calls, 0), 2) AS DECIMAL(5, 2))
           AS guessed_pct
FROM calls c
FULL OUTER JOIN files f ON c.role = f.role
ORDER BY calls DESC, role ASC;
