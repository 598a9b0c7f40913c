-- End-of-support dates. K80 reached end of support in May 2024 [K80-EOL]
-- [K8S-32242], but no source read gives the day, so it has no row (it is
-- legacy and never a candidate anyway).
-- T4, V100 and P4 dates: not found.
INSERT INTO end_of_support (accelerator_id, date, source_id, note) VALUES
  ('nvidia-tesla-p100', '2026-09-15', 'AP-compute', '"NVIDIA P100 GPUs reach end of support on September 15, 2026"; [GPU-MT]: "approaching end of support"');

-- P100 offerings end with its end of support [AP-compute]. The rows keep
-- available=1 and carry the date, so a plan dated before 2026-09-15 still
-- sees them and one dated after does not.
UPDATE offerings
   SET available_until = '2026-09-15',
       note = COALESCE(note || '; ', '') || 'ends 2026-09-15 with P100 end of support [AP-compute]'
 WHERE subject LIKE '%xnvidia-tesla-p100' AND available = 1;
