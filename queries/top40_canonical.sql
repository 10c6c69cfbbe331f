-- top40_canonical.sql — TEOSC Table 2.2 by documented operation: the 40 most frequent
-- operators when the names PyTorch documents as one operation count together (the `canonical`
-- column: torch.concat and torch.concatenate are torch.cat, x.relu() and torch.relu_ are
-- torch.relu). In a TEOSC-mode report `canonical` is the list key, so this is teosc_top40.
--
-- Parameter: '{report}', the report directory (see queries/README.md).
--
-- Columns:
--   rank             1..40; ties on count broken by canonical name ascending.
--   canonical        the operation's documented name.
--   count            calls summed over all repos, call kinds, resolutions and roles.
--   names            how many distinct operator names were merged into it.
--   share_all_pct    count / all counted calls, in %, 2 decimals.
WITH totals AS (
    SELECT canonical, CAST(SUM(count) AS BIGINT) AS count, COUNT(DISTINCT operator) AS names
    FROM read_parquet('{report}/op_counts/*.parquet')
    GROUP BY canonical
),
ranked AS (
    SELECT canonical, count, names,
           ROW_NUMBER() OVER (ORDER BY count DESC, canonical ASC) AS rank
    FROM totals
)
SELECT rank, canonical, count, names,
       CAST(ROUND(100.0 * count / NULLIF((SELECT SUM(count) FROM totals), 0), 2) AS DECIMAL(5, 2))
           AS share_all_pct
FROM ranked
WHERE rank <= 40
ORDER BY rank;
