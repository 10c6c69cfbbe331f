-- parse_failures.sql — every scanned file whose status is not 'ok'. That covers parse_error,
-- not_utf8, skipped_too_large, unreadable, notebook_not_json and internal_error.
--
-- Parameter: the literal '{report}' is the report directory (e.g. reports/sample), substituted
-- by queries/run_queries.py or by sed (see queries/README.md).
--
-- error_line and error_column are set only where the scanner knows a position (mostly parse_error).
SELECT repo, path, status, error_line, error_column, message
FROM read_parquet('{report}/files/*.parquet')
WHERE status IS DISTINCT FROM 'ok'
ORDER BY repo, path;
