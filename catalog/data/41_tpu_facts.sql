-- TPU per-chip facts (catalog-facts §1.1). Bytes exactly as the sources
-- state them: GiB = 2^30, GB = 1e9; "GBps" = 1e9 B/s, "Gbps" = 1e9 bit/s.
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  -- TPU v4
  ('tpu-v4', 'tensorcores',      2,           'count',       'TPU-v4', '4 MXU each'),
  ('tpu-v4', 'peak_bf16',        275e12,      'flop_per_s',  'TPU-v4', '"bf16 or int8"; pod 1.1 EFLOPs'),
  ('tpu-v4', 'peak_int8',        275e12,      'op_per_s',    'TPU-v4', NULL),
  ('tpu-v4', 'memory_bytes',     34359738368, 'bytes',       'TPU-v4', '32 GiB HBM2; [SB] gives 32GB'),
  ('tpu-v4', 'memory_bandwidth', 1200e9,      'bytes_per_s', 'TPU-v4', '1200 GBps; [SB] 1.2e12'),
  ('tpu-v4', 'ici_bandwidth',    540e9,       'bytes_per_s', 'SB',     'derived: 6 links ("TPU v4 and TPU v5p are connected to the nearest 6 neighbors (forming a 3D torus)") x 9e10 B/s bidirectional per link [SB]; ICI per chip is not on the Google page. The same product gives Google''s own per-chip figures for v5p (6 x 2e11 = 1200 GBps), v6e (4 x 2e11 = 800 GBps) and v5e (4 x 1e11 = 400 GBps)'),
  ('tpu-v4', 'pod_chips',        4096,        'count',       'TPU-v4', 'SparseCores not found'),
  -- TPU v5e
  ('tpu-v5e', 'tensorcores',      1,        'count',       'TPU-v5e', '4 MXU'),
  ('tpu-v5e', 'peak_bf16',        197e12,   'flop_per_s',  'TPU-v5e', 'pod 50.63 PFLOPs'),
  ('tpu-v5e', 'peak_int8',        393e12,   'op_per_s',    'TPU-v5e', 'pod 100 PetaOps'),
  ('tpu-v5e', 'memory_bytes',     17179869184, 'bytes',    'TPUINF-HBM', '16 GiB: get_device_hbm_limit returns 16 * 2^30 for TPU v5e [TPUINF-HBM]; Google''s v5e page says "16 GB" [TPU-v5e], below the runtime''s own limit (about 15.75 GiB), so it is read as GiB'),
  ('tpu-v5e', 'memory_bandwidth', 819e9,    'bytes_per_s', 'TPU-v5e-old', 'disagreement: 819 GBps [TPU-v5e-old] (chosen, matches [SB] 8.1e11); 800 GiBps [TPU-v5e]; 800 GBps [TPU-v6e]'),
  ('tpu-v5e', 'ici_bandwidth',    400e9,    'bytes_per_s', 'TPU-v5e', '400 GBps bidirectional, 4 ICI ports; older copy "1,600 Gbps" [TPU-v5e-es419]'),
  ('tpu-v5e', 'dcn_bandwidth',    25e9,     'bits_per_s',  'TPU-v5e', 'derived: 2 x 100 Gbps NICs per 8-chip host = 25 Gbps per chip; 6.4 Tbps per pod'),
  ('tpu-v5e', 'pod_chips',        256,      'count',       'TPU-v5e', NULL),
  -- TPU v5p
  ('tpu-v5p', 'tensorcores',      2,            'count',       'TPU-v5p-new', '4 MXU each'),
  ('tpu-v5p', 'sparse_cores',     4,            'count',       'TPU-v5p-new', 'also [TPU7x]'),
  ('tpu-v5p', 'peak_bf16',        459e12,       'flop_per_s',  'TPU-v5p-new', NULL),
  ('tpu-v5p', 'peak_fp8',         459e12,       'flop_per_s',  'TPU-v5p-new', 'equal to peak_bf16 on purpose: Google''s v5p table lists FP8 at the same 459 TFLOPs as bf16 (no faster FP8 path on v5p)'),
  ('tpu-v5p', 'peak_int8',        918e12,       'op_per_s',    'SB', '9.18e14 per the Scaling Book; int8 not in the Google table'),
  ('tpu-v5p', 'memory_bytes',     102005473280, 'bytes',       'TPU-v5p-md', '95 GiB usable (96 GiB physical; 1 GiB reserved by the TPU system and libtpu); [SB] says 96GB'),
  ('tpu-v5p', 'memory_bandwidth', 2765e9,       'bytes_per_s', 'TPU-v5p-new', '"2575 GiBps" [TPU-v5p-alt] is the same value'),
  ('tpu-v5p', 'ici_bandwidth',    1200e9,       'bytes_per_s', 'TPU-v5p-new', 'disagreement: 1200 GBps bidirectional (newer page, chosen); older copy "4800 Gbps" = 600 GB/s [TPU-v5p-old]'),
  ('tpu-v5p', 'dcn_bandwidth',    50e9,         'bits_per_s',  'TPU-v5p-new', '50 Gbps per chip; also [TPU7x]'),
  ('tpu-v5p', 'pod_chips',        8960,         'count',       'TPU-v5p-new', 'largest single slice 6144 chips (16x16x24)'),
  -- TPU v6e (Trillium)
  ('tpu-v6e', 'tensorcores',      1,        'count',       'TPU-v6e-md', '2 x 256x256 MXU'),
  ('tpu-v6e', 'sparse_cores',     2,        'count',       'TPU7x', 'v6e page: "Special features: SparseCore" [TPU-v6e]'),
  ('tpu-v6e', 'peak_bf16',        918e12,   'flop_per_s',  'TPU-v6e-md', '[SB] 9.20e14; pod 234.9 PFLOPs'),
  ('tpu-v6e', 'peak_fp8',         918e12,   'flop_per_s',  'TPU7x', 'equal to peak_bf16 on purpose: the TPU7x comparison table lists v6e FP8 at the same 918 TFLOPs as bf16 (no faster FP8 path on v6e)'),
  ('tpu-v6e', 'peak_int8',        1836e12,  'op_per_s',    'TPU-v6e-md', NULL),
  ('tpu-v6e', 'memory_bytes',     34359738368, 'bytes',    'TPU7x', '32 GiB: the TPU7x page''s table "HBM capacity per chip (GiB)" gives v6e 32; the v6e page says "32 GB" [TPU-v6e-md]; also [TPUINF-HBM]'),
  ('tpu-v6e', 'memory_bandwidth', 1638e9,   'bytes_per_s', 'TPU-v6e-md', 'disagreement: 1638 GBps [TPU-v6e-md][TPU7x] (chosen); 1600 GBps [TPU-v6e]; 1640 GBps [TPU-v6e-devsite]'),
  ('tpu-v6e', 'ici_bandwidth',    800e9,    'bytes_per_s', 'TPU-v6e-md', 'disagreement: 800 GBps bidirectional [TPU-v6e-md][TPU7x] (chosen); "3200 Gbps" [TPU-v6e]; "3584 Gbps" [TPU-v6e-devsite]; 4 ports'),
  ('tpu-v6e', 'dcn_bandwidth',    100e9,    'bits_per_s',  'TPU7x', 'per host 4 x 200 Gbps NICs, 25.6 Tbps per pod [TPU-v6e]'),
  ('tpu-v6e', 'pod_chips',        256,      'count',       'TPU-v6e-md', NULL),
  -- TPU7x (Ironwood)
  ('tpu7x', 'tensorcores',      2,            'count',       'TPU7x', NULL),
  ('tpu7x', 'sparse_cores',     4,            'count',       'TPU7x', NULL),
  ('tpu7x', 'peak_bf16',        2307e12,      'flop_per_s',  'TPU7x', NULL),
  ('tpu7x', 'peak_fp8',         4614e12,      'flop_per_s',  'TPU7x', 'also [IW-perf]'),
  ('tpu7x', 'memory_bytes',     206158430208, 'bytes',       'TPU7x', '192 GiB HBM'),
  ('tpu7x', 'memory_bandwidth', 7380e9,       'bytes_per_s', 'TPU7x', NULL),
  ('tpu7x', 'ici_bandwidth',    1200e9,       'bytes_per_s', 'TPU7x', 'bidirectional'),
  ('tpu7x', 'dcn_bandwidth',    100e9,        'bits_per_s',  'TPU7x', '2 NICs per 4-chip VM [GKE-IW]'),
  ('tpu7x', 'pod_chips',        9216,         'count',       'TPU7x', 'Agent Platform supports slices up to 8x8x16 (1024 chips) [AP-compute]'),
  -- Coral Edge TPU
  ('coral-edge-tpu', 'peak_int8', 4e12, 'op_per_s', 'CORAL-TECH', '4 TOPS fixed-point, 0.5 W per TOPS'),
  -- Parameters beyond the on-chip cache stream from host memory on every
  -- inference (slower, not refused); a model the .tflite FlatBuffer cannot
  -- hold cannot be compiled for the Edge TPU at all.
  ('coral-edge-tpu', 'param_cache_bytes', 8e6, 'bytes', 'CORAL-PIPELINE', '"the Edge TPU cache (~8 MB)" holds a model''s parameters; the compiler reports how much of it a compiled model uses for caching and how much it streams [CORAL-COMPILER]'),
  ('coral-edge-tpu', 'max_model_bytes', 2147483648, 'bytes', 'FLATBUFFERS-MAX', '2^31 B: a .tflite model is one FlatBuffer [TFLITE-CONVERT], and the FlatBuffers format caps a buffer at 2 GiB; at 1 B per int8 parameter about 2.1e9 parameters');
