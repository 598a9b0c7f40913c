-- accelplan catalog schema. Facts about hardware only: no table maps a
-- workload to an answer. Every fact row names a source; unknown is NULL or
-- an absent row, never a guess. Units are SI base units unless the column
-- name says otherwise (bytes, FLOP/s, bytes/s, bits/s for networks, USD).
PRAGMA foreign_keys = ON;

CREATE TABLE catalog_meta (
  key   TEXT PRIMARY KEY,   -- 'schema_version', 'data_date' (YYYY-MM-DD)
  value TEXT NOT NULL
);

-- A URL, or a repository path with its commit.
CREATE TABLE sources (
  id         TEXT PRIMARY KEY,  -- e.g. 'TPU-v5p-new'
  url        TEXT,
  repo       TEXT,
  path       TEXT,
  commit_sha TEXT,
  title      TEXT,
  note       TEXT,
  CHECK (url IS NOT NULL OR (repo IS NOT NULL AND path IS NOT NULL AND commit_sha IS NOT NULL))
);

-- Machine series: 'A4', 'A3 Ultra', 'G4', 'N1', 'TPU v5p', 'N2', 'Coral'.
CREATE TABLE series (
  id          TEXT PRIMARY KEY,
  platform    TEXT NOT NULL CHECK (platform IN ('CPU','GPU','TPU','EDGE')),
  family      TEXT,            -- 'accelerator-optimized', 'general-purpose', ...
  maturity    TEXT NOT NULL CHECK (maturity IN ('GA','PREVIEW','LEGACY')),
  positioning TEXT,            -- Google's own words, quoted
  source_id   TEXT NOT NULL REFERENCES sources(id),
  note        TEXT
);

-- A chip: GPU model, TPU version, edge ASIC. CPUs have none.
CREATE TABLE accelerators (
  id        TEXT PRIMARY KEY,  -- 'nvidia-h100-80gb', 'tpu-v5p', 'coral-edge-tpu'
  platform  TEXT NOT NULL CHECK (platform IN ('GPU','TPU','EDGE')),
  name      TEXT NOT NULL,     -- 'NVIDIA H100 80GB', 'TPU v5p'
  series_id TEXT REFERENCES series(id),  -- TPUs and edge: their own series
  legacy    INTEGER NOT NULL DEFAULT 0 CHECK (legacy IN (0,1)),
  source_id TEXT NOT NULL REFERENCES sources(id),
  note      TEXT,
  -- GPU architecture ('Hopper', 'Ada Lovelace', ...) as NVIDIA names it for
  -- the chip's compute capability [CUDA-GPUS]; NULL for TPUs and unknown.
  -- The build-time invariants use it (INT8 >= FP8 on Ada and Hopper).
  architecture TEXT
);

-- Which numeric facts exist and their units; the loader checks every fact
-- row against this table.
CREATE TABLE fact_kinds (
  name       TEXT PRIMARY KEY,
  applies_to TEXT NOT NULL CHECK (applies_to IN ('accelerator','series','machine_type')),
  unit       TEXT NOT NULL,
  description TEXT NOT NULL
);

-- One numeric fact per row, each with its source.
CREATE TABLE facts (
  subject   TEXT NOT NULL,  -- accelerator, series or machine type id per fact_kinds.applies_to
  fact      TEXT NOT NULL REFERENCES fact_kinds(name),
  value     REAL NOT NULL,
  unit      TEXT NOT NULL,
  source_id TEXT NOT NULL REFERENCES sources(id),
  note      TEXT,            -- other sources' values when they disagree
  PRIMARY KEY (subject, fact)
);

-- Numeric formats per accelerator (bf16, fp16, fp8, fp64, int8, tf32).
CREATE TABLE numeric_formats (
  accelerator_id TEXT NOT NULL REFERENCES accelerators(id),
  format    TEXT NOT NULL CHECK (format IN ('bf16','fp16','fp8','fp64','int8','tf32','fp4')),
  supported INTEGER NOT NULL CHECK (supported IN (0,1)),
  source_id TEXT NOT NULL REFERENCES sources(id),
  note      TEXT,
  PRIMARY KEY (accelerator_id, format)
);

-- What you rent: a VM shape. N1 GPU shapes are host + attached GPUs; their
-- id is '<host>+<count>x<gpu>' and gce_machine_type names the host.
CREATE TABLE machine_types (
  id                TEXT PRIMARY KEY,
  gce_machine_type  TEXT NOT NULL,
  series_id         TEXT NOT NULL REFERENCES series(id),
  accelerator_id    TEXT REFERENCES accelerators(id),  -- NULL for CPU
  accelerator_count INTEGER NOT NULL DEFAULT 0 CHECK (accelerator_count >= 0),
  vcpus             INTEGER CHECK (vcpus IS NULL OR vcpus > 0),
  memory_bytes      REAL CHECK (memory_bytes IS NULL OR memory_bytes > 0),
  network_bits_per_s REAL CHECK (network_bits_per_s IS NULL OR network_bits_per_s > 0),
  source_id         TEXT NOT NULL REFERENCES sources(id),
  note              TEXT
);

-- TPU slice shapes.
CREATE TABLE tpu_topologies (
  accelerator_id  TEXT NOT NULL REFERENCES accelerators(id),
  topology        TEXT NOT NULL,    -- '2x2x1', '16x16'
  chips           INTEGER NOT NULL CHECK (chips > 0),
  vms             INTEGER NOT NULL CHECK (vms > 0),
  machine_type_id TEXT NOT NULL REFERENCES machine_types(id),
  source_id       TEXT NOT NULL REFERENCES sources(id),
  note            TEXT,
  PRIMARY KEY (accelerator_id, topology)
);

-- Prices: per VM-hour for machine types, per chip-hour for TPUs.
CREATE TABLE prices (
  subject        TEXT NOT NULL,    -- machine type id (per_vm_hour) or TPU accelerator id (per_chip_hour)
  unit           TEXT NOT NULL CHECK (unit IN ('usd_per_vm_hour','usd_per_chip_hour')),
  region         TEXT NOT NULL,
  on_demand_usd  REAL CHECK (on_demand_usd IS NULL OR on_demand_usd > 0),
  spot_usd       REAL CHECK (spot_usd IS NULL OR spot_usd > 0),
  price_date     TEXT NOT NULL,    -- YYYY-MM-DD of the snapshot
  source_id      TEXT NOT NULL REFERENCES sources(id),
  note           TEXT,             -- derivation (host + GPUs), disagreements
  PRIMARY KEY (subject, region)
);

-- Framework support. subject: an accelerator id, or 'CPU' for CPU machines.
CREATE TABLE framework_support (
  subject     TEXT NOT NULL,
  framework   TEXT NOT NULL CHECK (framework IN ('JAX','TENSORFLOW','PYTORCH','PYTORCH_XLA','XGBOOST','SCIKIT_LEARN','LIGHTGBM')),
  status      TEXT NOT NULL CHECK (status IN ('SUPPORTED','UNSUPPORTED','UNVERIFIED')),
  min_version TEXT,
  source_id   TEXT NOT NULL REFERENCES sources(id),
  note        TEXT,
  PRIMARY KEY (subject, framework)
);

-- Where and how a machine type (or TPU accelerator) can be obtained.
-- available=0 records a documented absence; no row means unknown.
CREATE TABLE offerings (
  subject      TEXT NOT NULL,    -- machine type id, or TPU accelerator id
  run_platform TEXT NOT NULL CHECK (run_platform IN ('VERTEX_TRAINING','GKE','COMPUTE_ENGINE')),
  provisioning TEXT NOT NULL CHECK (provisioning IN ('ON_DEMAND','SPOT','FLEX_START','RESERVATION','ANY')),
  available    INTEGER NOT NULL CHECK (available IN (0,1)),
  status       TEXT NOT NULL DEFAULT 'GA' CHECK (status IN ('GA','PREVIEW')),
  source_id    TEXT NOT NULL REFERENCES sources(id),
  note         TEXT,
  -- YYYY-MM-DD after which the offering ends (end of support); NULL: no
  -- documented end. Kept as a date, not available=0, so plans dated before
  -- it still see the offering.
  available_until TEXT,
  PRIMARY KEY (subject, run_platform, provisioning)
);

CREATE TABLE end_of_support (
  accelerator_id TEXT PRIMARY KEY REFERENCES accelerators(id),
  date      TEXT NOT NULL,       -- YYYY-MM-DD
  source_id TEXT NOT NULL REFERENCES sources(id),
  note      TEXT
);

-- Google's per-workload GPU series lists (a published hardware fact).
CREATE TABLE series_workload_lists (
  series_id TEXT NOT NULL REFERENCES series(id),
  list      TEXT NOT NULL CHECK (list IN ('PRE_TRAINING','FINE_TUNING','INFERENCE')),
  source_id TEXT NOT NULL REFERENCES sources(id),
  PRIMARY KEY (series_id, list)
);

-- Names other systems use: Vertex acceleratorType enum names, GKE labels.
CREATE TABLE labels (
  subject   TEXT NOT NULL,   -- accelerator id
  system    TEXT NOT NULL CHECK (system IN ('VERTEX_ACCELERATOR_TYPE','GKE_ACCELERATOR','GKE_TPU_ACCELERATOR','GKE_RESOURCE')),
  value     TEXT NOT NULL,
  source_id TEXT NOT NULL REFERENCES sources(id),
  PRIMARY KEY (subject, system)
);

-- Named service artefacts (Reduction Server image, recommended reducer).
CREATE TABLE service_facts (
  name      TEXT PRIMARY KEY,  -- 'reduction_server_image', 'reduction_server_machine_type'
  value     TEXT NOT NULL,
  source_id TEXT NOT NULL REFERENCES sources(id),
  note      TEXT
);

-- Well-known open models: published shape facts, so a request can name a
-- model instead of spelling out its shape. Facts about models, never
-- answers: no column says what hardware a model should use. Shape columns
-- are NULL where they do not apply (ResNet-50 carries only its total).
CREATE TABLE models (
  id                TEXT PRIMARY KEY,  -- lowercase, e.g. 'llama-3.1-8b'
  name              TEXT NOT NULL,     -- 'Llama 3.1 8B'
  family            TEXT NOT NULL,     -- 'Llama 3.1', 'Gemma 2', 'BERT'
  architecture      TEXT NOT NULL CHECK (architecture IN
                      ('decoder','encoder','encoder-decoder','vision-transformer','cnn')),
  layers            INTEGER CHECK (layers IS NULL OR layers > 0),  -- encoder layers for encoder-decoder
  decoder_layers    INTEGER CHECK (decoder_layers IS NULL OR decoder_layers > 0),  -- encoder-decoder only
  hidden_size       INTEGER CHECK (hidden_size IS NULL OR hidden_size > 0),
  attention_heads   INTEGER CHECK (attention_heads IS NULL OR attention_heads > 0),
  kv_heads          INTEGER CHECK (kv_heads IS NULL OR kv_heads > 0),
  head_dim          INTEGER CHECK (head_dim IS NULL OR head_dim > 0),  -- NULL: hidden_size / attention_heads
  ffn_size          INTEGER CHECK (ffn_size IS NULL OR ffn_size > 0),  -- per expert for MoE
  gated_ffn         INTEGER CHECK (gated_ffn IS NULL OR gated_ffn IN (0,1)),  -- 3 FFN matrices (SwiGLU/GeGLU) instead of 2
  vocab_size        INTEGER CHECK (vocab_size IS NULL OR vocab_size > 0),
  max_sequence      INTEGER CHECK (max_sequence IS NULL OR max_sequence > 0),  -- tokens (patches + class token for ViT)
  tied_embeddings   INTEGER CHECK (tied_embeddings IS NULL OR tied_embeddings IN (0,1)),
  learned_positions INTEGER CHECK (learned_positions IS NULL OR learned_positions IN (0,1)),  -- a max_sequence x hidden table
  patch_size        INTEGER CHECK (patch_size IS NULL OR patch_size > 0),  -- vision transformers, RGB input
  experts           INTEGER CHECK (experts IS NULL OR experts > 0),  -- mixture of experts
  experts_per_token INTEGER CHECK (experts_per_token IS NULL OR experts_per_token > 0),
  total_params      REAL NOT NULL CHECK (total_params > 0),  -- as published
  active_params     REAL CHECK (active_params IS NULL OR active_params > 0),  -- MoE, as published
  source_id         TEXT NOT NULL REFERENCES sources(id),  -- the published config.json or paper
  note              TEXT,
  -- Sliding-window (local) attention: the keys a local layer's query sees.
  -- NULL: every layer attends over the whole sequence.
  sliding_window    INTEGER CHECK (sliding_window IS NULL OR sliding_window > 0),
  -- With sliding_window: every Nth layer attends globally (Gemma 2: 2,
  -- Gemma 3: 6); NULL: every layer is local (Mistral 7B v0.1).
  global_attention_every INTEGER CHECK (global_attention_every IS NULL OR
                                        (global_attention_every > 0 AND sliding_window IS NOT NULL)),
  window_source_id  TEXT REFERENCES sources(id),  -- where the window and pattern are stated
  CHECK ((sliding_window IS NULL) = (window_source_id IS NULL))
);

-- Measured training efficiencies of published runs (issue 14): the
-- planner's MFU band of an accelerator x precision x software stack class is
-- the min-max of its rows. mfu is model-FLOPs utilisation on accelplan's
-- basis: (6·P_active + 12·L·h·s) FLOPs per token (PaLM arXiv:2204.02311
-- appendix B; recompute FLOPs excluded, so a run's recompute cost is inside
-- its figure) x tokens/s per device / the dense peak of `precision` (FP8
-- runs against the FP8 peak). mfu_6pd is the same run on the bare 6·P·D
-- basis, for readers. Derived by scripts/calibration/derive_efficiency.py
-- from tests/planner/calibration/runs.csv (the fit half).
CREATE TABLE measured_efficiency (
  run_id      TEXT PRIMARY KEY,  -- 'T01', as in tests/planner/calibration/runs.csv
  accelerator TEXT NOT NULL REFERENCES accelerators(id),
  precision   TEXT NOT NULL CHECK (precision IN ('BF16','FP8')),
  stack       TEXT NOT NULL CHECK (stack IN ('JAX_XLA','PYTORCH_FSDP','PYTORCH_MEGATRON','TENSORFLOW')),
  moe         INTEGER NOT NULL CHECK (moe IN (0,1)),  -- mixture of experts (FLOPs of the active parameters)
  recompute   TEXT CHECK (recompute IS NULL OR recompute IN ('NONE','SELECTIVE','FULL')),  -- NULL: not published
  tensor_parallel INTEGER CHECK (tensor_parallel IS NULL OR tensor_parallel >= 1),  -- the run's TP degree; 1: none; NULL: used, degree not published
  devices     INTEGER NOT NULL CHECK (devices > 0),
  model       TEXT NOT NULL,
  mfu         REAL NOT NULL CHECK (mfu > 0 AND mfu < 1),
  mfu_6pd     REAL NOT NULL CHECK (mfu_6pd > 0 AND mfu_6pd < 1),
  source_id   TEXT NOT NULL REFERENCES sources(id),  -- the published run
  note        TEXT
);
