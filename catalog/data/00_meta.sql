-- Catalog metadata. data_date is the newest source date used (the
-- third-party price check [SILY] of 2026-09-26).
INSERT INTO catalog_meta (key, value) VALUES
  ('schema_version', '1'),
  ('data_date', '2026-09-26');
