-- simhash 0.1.0 -> 0.2.0: run by ALTER EXTENSION simhash UPDATE.
--
-- Brings a database created with 0.1.0 (src/install/released/simhash--0.1.0.sql)
-- to exactly what CREATE EXTENSION simhash creates from src/install/*.sql at
-- 0.2.0: every object added there is created here, every changed definition
-- is replaced here.  test/t/030_upgrade.pl compares the two catalogs object
-- by object (definitions, markings, operators, opclasses, casts, comments)
-- and fails on any difference, so an object forgotten here cannot ship.
\echo Use "ALTER EXTENSION simhash UPDATE TO '0.2.0'" to load this file. \quit

-- The shared library of 0.2.0 still exports every C symbol 0.1.0's script
-- names, so a database can run the new library before it is updated.
