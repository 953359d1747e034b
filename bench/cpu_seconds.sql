-- Timing in SQL for the speed benchmarks (scripts/bench-speed.sh,
-- scripts/bench-ab.sh), loaded with \i into the benchmark's database.

-- The CPU time of this backend in seconds, from Linux's /proc/self/schedstat
-- (other processes on a busy machine inflate wall-clock time much more);
-- wall-clock time where that file does not exist.
CREATE FUNCTION cpu_now() RETURNS float8 LANGUAGE plpgsql AS $$
BEGIN
  RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 / 1e9;
EXCEPTION WHEN OTHERS THEN
  RETURN extract(epoch FROM clock_timestamp());
END $$;

-- Seconds of one scan count(expr) of table tab: scans are repeated until
-- at_least seconds of CPU time have passed (the CPU clock of some virtual
-- machines ticks every 4 ms, a large share of a fast scan), and the time is
-- divided by the number of scans.
CREATE FUNCTION seconds(expr text, tab text, at_least float8 DEFAULT 0.4)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 float8; t float8; n bigint; scans int := 0;
BEGIN
  t0 := cpu_now();
  LOOP
    EXECUTE format('SELECT count(%s) FROM %I', expr, tab) INTO n;
    scans := scans + 1;
    t := cpu_now() - t0;
    EXIT WHEN t >= at_least;
  END LOOP;
  RETURN t / scans;
END $$;
