-- shares_by_family.sql — which parts of the torch API the calls go to: the `family` of
-- op_calls (torch, Tensor, nn, nn.functional, linalg, fft, ...; `teosc` in TEOSC mode),
-- split by call kind.
--
-- Parameter: '{report}', the report directory (see queries/README.md).
--
-- Columns:
--   family      the operator's namespace without `torch.`.
--   calls       calls in that family.
--   operators   distinct operators called in it.
--   share_pct   calls / all calls, in %, 2 decimals.
--   call        calls of kind `call` (functions); construct, apply, method, operator
--               (Python's operators on tensors: `a @ b`, `x[i]`) likewise.
-- Ordered by calls descending, then family.
WITH per AS (
    SELECT family, call_kind, operator FROM read_parquet('{report}/op_calls/*.parquet')
)
SELECT family,
       CAST(COUNT(*) AS BIGINT) AS calls,
       CAST(COUNT(DISTINCT operator) AS BIGINT) AS operators,
       CAST(ROUND(100.0 * COUNT(*) / NULLIF((SELECT COUNT(*) FROM per), 0), 2) AS DECIMAL(5, 2))
           AS share_pct,
       CAST(COUNT(*) FILTER (WHERE call_kind = 'call') AS BIGINT) AS call,
       CAST(COUNT(*) FILTER (WHERE call_kind = 'construct') AS BIGINT) AS construct,
       CAST(COUNT(*) FILTER (WHERE call_kind = 'apply') AS BIGINT) AS apply,
       CAST(COUNT(*) FILTER (WHERE call_kind = 'method') AS BIGINT) AS method,
       CAST(COUNT(*) FILTER (WHERE call_kind = 'operator') AS BIGINT) AS operator
FROM per
GROUP BY family
ORDER BY calls DESC, family ASC;
