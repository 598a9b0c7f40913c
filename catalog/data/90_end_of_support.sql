-- End-of-support dates. K80 has reached end of support [VX-enum] but its
-- date was not found in the sources read, so it has no row (it is legacy).
-- T4, V100 and P4 dates: not found.
INSERT INTO end_of_support (accelerator_id, date, source_id, note) VALUES
  ('nvidia-tesla-p100', '2026-09-15', 'AP-compute', '"NVIDIA P100 GPUs reach end of support on September 15, 2026"; [GPU-MT]: "approaching end of support"');
