-- Text input and output of every accepted and rejected spelling.

-- Canonical form: 16 lowercase hex digits.
SELECT '0123456789abcdef'::simhash, 'ffffffffffffffff'::simhash, '0000000000000000'::simhash;
-- Upper and mixed case, 0x / 0X prefix, surrounding white space.
SELECT '0123456789ABCDEF'::simhash, '0x0123456789AbCdEf'::simhash, '0XFFFFFFFFFFFFFFFF'::simhash;
SELECT E'  \t0123456789abcdef\n '::simhash AS spaces;
-- 64 binary digits, with or without 0b / 0B.
SELECT '0000000100100011010001010110011110001001101010111100110111101111'::simhash AS binary;
SELECT '0b1111111111111111111111111111111111111111111111111111111111111111'::simhash AS binary_prefixed;
SELECT ' 0B0000000000000000000000000000000000000000000000000000000000000001 '::simhash AS binary_prefixed;
-- The length decides the form: 16 characters of 0 and 1 are hex digits,
-- and 16 hex digits that begin with 0b or 0B are hex, not a 0b prefix.
SELECT '0101010101010101'::simhash AS hex_not_binary,
       '0b1725f20eb2e674'::simhash AS hex_starting_0b,
       '0B1725F20EB2E674'::simhash AS hex_starting_0B;

-- Output is canonical whatever the input spelling.
SELECT count(DISTINCT s::simhash) AS one_value
  FROM unnest(ARRAY['00000000000000ff', '0x00000000000000FF', ' 00000000000000Ff ',
                    '0000000000000000000000000000000000000000000000000000000011111111']) s;

-- Rejected spellings: each must raise 22P02 with the core wording.
\set VERBOSITY default
SELECT ''::simhash;
SELECT '   '::simhash;
SELECT '0123456789abcde'::simhash;        -- 15 digits
SELECT '0123456789abcdef0'::simhash;      -- 17 digits
SELECT '0123456789abcdeg'::simhash;       -- not hex
SELECT '0x'::simhash;
SELECT '0x0123456789abcde'::simhash;
SELECT '0b0123456789abcdef'::simhash;     -- 0b with hex digits
SELECT '0x0000000000000000000000000000000000000000000000000000000000000001'::simhash; -- 0x with 64 bits
SELECT '00000000000000000000000000000000000000000000000000000000000000012'::simhash;  -- 65 digits
SELECT '000000000000000000000000000000000000000000000000000000000000002'::simhash;    -- not binary
SELECT '0123 456789abcdef'::simhash;      -- inner space
SELECT '-123456789abcdef'::simhash;       -- sign
SELECT '+0123456789abcdef'::simhash;
SELECT '12345'::simhash;                  -- decimal (use a bigint cast)
SELECT '０１２３４５６７８９ａｂｃｄｅｆ'::simhash; -- full-width digits
SELECT E'0123456789abcdef\u00e9'::simhash;
\set VERBOSITY terse

-- Random strings never crash the input function: every one either parses
-- or fails with SQLSTATE 22P02 (expect no other outcome).
DO $$
DECLARE
    s text;
    parsed int := 0;
    rejected int := 0;
BEGIN
    PERFORM setseed(0.42);
    FOR i IN 1..20000 LOOP
        SELECT string_agg(
                 CASE WHEN random() < 0.6 THEN substr('0123456789abcdefABCDEFxXbB ', 1 + floor(random() * 27)::int, 1)
                      ELSE chr(1 + floor(random() * 1000)::int) END, '')
          INTO s
          FROM generate_series(1, 1 + floor(random() * 70)::int);
        IF random() < 0.3 THEN
            s := lpad(to_hex(floor(random() * 2147483647)::bigint), 16, '0');
        END IF;
        BEGIN
            PERFORM s::simhash;
            parsed := parsed + 1;
        EXCEPTION WHEN invalid_text_representation THEN
            rejected := rejected + 1;
        END;
    END LOOP;
    IF parsed + rejected <> 20000 OR parsed < 1000 OR rejected < 1000 THEN
        RAISE EXCEPTION 'unexpected outcome: % parsed, % rejected', parsed, rejected;
    END IF;
END
$$;

-- Binary send/receive: 8 bytes, network byte order.
SELECT simhash_send('0123456789abcdef') AS wire;
SELECT length(simhash_send('ffffffffffffffff')) AS wire_length;
-- Binary COPY round trip goes through simhash_send and simhash_recv.
CREATE TEMP TABLE bin_src AS
SELECT g AS id, (hashint8(g)::bigint << 32 | (hashint8(-g)::bigint & 4294967295))::simhash AS fp
  FROM generate_series(1, 1000) g;
\copy bin_src TO 'results/simhash.bin' WITH (FORMAT binary)
CREATE TEMP TABLE bin_dst (id int, fp simhash);
\copy bin_dst FROM 'results/simhash.bin' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE s.fp IS DISTINCT FROM d.fp) AS binary_copy_mismatches
  FROM bin_src s FULL JOIN bin_dst d USING (id);
-- A bigint column's binary form reads as the same bits.
CREATE TEMP TABLE bin_int AS SELECT fp::bigint AS i FROM bin_src;
\copy bin_int TO 'results/simhash_int.bin' WITH (FORMAT binary)
CREATE TEMP TABLE bin_int_dst (fp simhash);
\copy bin_int_dst FROM 'results/simhash_int.bin' WITH (FORMAT binary)
SELECT count(*) AS bigint_wire_mismatches FROM bin_int_dst WHERE fp NOT IN (SELECT fp FROM bin_src);

-- Text round trip of random values through every spelling.
SELECT count(*) AS round_trip_failures
  FROM (SELECT (floor(random() * 4294967296)::bigint << 32 | floor(random() * 4294967296)::bigint)::simhash AS v
          FROM generate_series(1, 5000)) r
 WHERE v::text::simhash <> v
    OR upper(v::text)::simhash <> v
    OR ('0x' || v::text)::simhash <> v
    OR (v::bit(64)::text)::simhash <> v
    OR length(v::text) <> 16;
