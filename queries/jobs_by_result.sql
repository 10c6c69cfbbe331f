-- jobs_by_result.sql — constraint jobs by result (sat / unsat / unknown = Z3 timeout /
-- skipped), how many needed Z3, and their solve-time percentiles in microseconds.
--
-- Parameter: the literal '{report}' is the report directory (e.g. reports/sample), substituted
-- by queries/run_queries.py or by sed (see queries/README.md).
--
-- The time columns measure the run: they differ between runs of the same corpus.
SELECT result,
       count(*) AS jobs,
       count(*) FILTER (WHERE used_z3) AS z3_jobs,
       round(quantile_cont(solve_us, 0.5)) AS p50_us,
       round(quantile_cont(solve_us, 0.99)) AS p99_us,
       max(solve_us) AS max_us
FROM read_parquet('{report}/jobs/*.parquet')
GROUP BY result
ORDER BY jobs DESC, result;
