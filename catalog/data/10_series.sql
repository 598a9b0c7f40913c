-- Machine series. positioning quotes Google's own words.
-- GPU series: [GPU-MT] (positioning and "Best used for" column).
INSERT INTO series (id, platform, family, maturity, positioning, source_id, note) VALUES
  ('A4X Max', 'GPU', 'accelerator-optimized', 'GA', 'Large-scale distributed training and inference of MoE LLMs, Recommenders, HPC', 'GPU-MT', 'bare metal (a4x-maxgpu-4g-metal); Arm (Grace) host; outside the Compute Engine SLA [ACC-OPT-2604]; GA status UNVERIFIED: no page or release note read (Compute Engine, AI Hypercomputer and Cloud TPU release notes to 2026-08-22 [CE-CHANGELOG]) states A4X Max''s launch stage, so GA here is not a sourced fact'),
  ('A4X', 'GPU', 'accelerator-optimized', 'GA', 'ideal for foundation model training and serving; Large-scale distributed training and inference of LLMs, Recommenders, HPC', 'GPU-MT', 'GB200 NVL72 based, Arm (Grace) host; outside the Compute Engine SLA [ACC-OPT-2604]; xpk labels the topology 1x72 [XPK]'),
  ('A4', 'GPU', 'accelerator-optimized', 'GA', 'ideal for foundation model training and serving; Large-scale distributed training and inference of LLMs, Recommenders, HPC', 'GPU-MT', 'GPUDirect RDMA (RoCE)'),
  ('A3 Ultra', 'GPU', 'accelerator-optimized', 'GA', 'ideal for foundation model training and serving; Large models with massive data tables for ML Training, Inference, HPC, BERT, DLRM', 'GPU-MT', 'GPUDirect RDMA (RoCE)'),
  ('A3 Mega', 'GPU', 'accelerator-optimized', 'GA', 'ideal for large-scale training and serving workloads', 'GPU-MT', 'GPUDirect-TCPXO'),
  ('A3 High', 'GPU', 'accelerator-optimized', 'GA', 'well-suited for both training and serving', 'GPU-MT', 'GPUDirect-TCPX'),
  ('A3 Edge', 'GPU', 'accelerator-optimized', 'GA', 'designed specifically for serving', 'GPU-MT', 'available only in a limited set of regions; GPUDirect-TCPX'),
  ('A2 Ultra', 'GPU', 'accelerator-optimized', 'GA', 'ideal for model fine tuning, large model and cost optimized inference; can be used for training smaller models and single host inference', 'GPU-MT', NULL),
  ('A2 Standard', 'GPU', 'accelerator-optimized', 'GA', 'ideal for model fine tuning, large model and cost optimized inference; can be used for training smaller models and single host inference', 'GPU-MT', NULL),
  ('G4', 'GPU', 'accelerator-optimized', 'GA', 'a low-cost solution for performing single host inference and model tuning compared with A series', 'GPU-MT', 'no NVLink; PCIe peer-to-peer on g4-standard-96/192/384'),
  ('G2', 'GPU', 'accelerator-optimized', 'GA', 'ideal for cost-optimized inference, graphics-intensive and high performance computing workloads', 'GPU-MT', 'no NVLink'),
  ('N1', 'CPU', 'general-purpose', 'GA', NULL, 'GPU-MT', 'General-purpose CPU series; GPUs (T4, V100, P100, P4) attach to N1 hosts. N1+V100 has NVLink Ring @ 300 GBps per [GPU-MT] (not a series-wide fact, so not stored as nvlink_bandwidth); T4/P4/P100 have no NVLink. CPU platforms Skylake, Broadwell, Haswell, Ivy Bridge, Sandy Bridge [CYC-SERIES]');

-- CPU series [CYC-SERIES][CYC-FREQ]; vCPU = hardware thread, 2 per core [CPU-PLAT].
INSERT INTO series (id, platform, family, maturity, positioning, source_id, note) VALUES
  ('E2', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'Intel Skylake, Broadwell, Haswell or AMD EPYC Rome'),
  ('N2', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'Intel Cascade Lake or Ice Lake; AVX-512 (+VNNI)'),
  ('N2D', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'AMD EPYC Rome or Milan; AVX2 + FMA, no AVX-512'),
  ('C3', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'Intel Sapphire Rapids (Xeon Platinum 8481C seen in a guest); AVX-512 (+BF16, VNNI) and AMX'),
  ('C3D', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'AMD EPYC Genoa; AVX-512 on 256-bit units'),
  ('C4', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'Intel Emerald Rapids or Granite Rapids; AVX-512 and AMX'),
  ('N4', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'Intel Emerald Rapids; AVX-512 and AMX'),
  ('C4D', 'CPU', 'general-purpose', 'GA', NULL, 'CYC-SERIES', 'AMD EPYC Turin (5th Gen); AVX-512 on native 512-bit units [NW-ZEN5]'),
  ('C2', 'CPU', 'compute-optimized', 'GA', NULL, 'CYC-SERIES', 'Intel Cascade Lake; AVX-512; listed by serverless training [AP-compute]'),
  ('M1', 'CPU', 'memory-optimized', 'GA', NULL, 'CYC-SERIES', 'Intel Skylake (megamem) or Broadwell E7 (ultramem); listed by serverless training [AP-compute]');

-- TPU series: each TPU version is its own series.
INSERT INTO series (id, platform, family, maturity, positioning, source_id, note) VALUES
  ('TPU v2', 'TPU', 'Cloud TPU', 'LEGACY', NULL, 'AP-compute', 'legacy: named so current setups can be described; never a candidate'),
  ('TPU v3', 'TPU', 'Cloud TPU', 'LEGACY', NULL, 'AP-compute', 'legacy: named so current setups can be described; never a candidate'),
  ('TPU v4', 'TPU', 'Cloud TPU', 'GA', NULL, 'TPU-v4-md', '"The Cloud TPU API is no longer under active development ... We recommend using GKE to manage TPU v4 ... or migrating to a newer TPU version"; zone us-central2-b only, quota needs manual approval'),
  ('TPU v5e', 'TPU', 'Cloud TPU', 'GA', '<= 8 chips: small to medium scale training; >= 16 chips: large-scale training', 'AP-compute', '2D torus; perf/TCO 0.65x vs v6e = 1 [TPU-v5e]'),
  ('TPU v5p', 'TPU', 'Cloud TPU', 'GA', NULL, 'TPU-v5p-new', '3D torus (full 3D torus from 4x4x4 up) [TPU-v5p-md]; Multislice up to 18,432 chips [TPU-v5p-zh]'),
  ('TPU v6e', 'TPU', 'Cloud TPU', 'GA', 'v6e-8 on a single VM is optimized for inference', 'TPU-v6e-zh', 'Trillium; 2D torus [TPU-v6e-md]'),
  ('TPU7x', 'TPU', 'Cloud TPU', 'GA', NULL, 'TPU-CHANGELOG', 'Ironwood. Preview 2025-11-24, GA 2026-03-31 per Cloud TPU release notes; GKE Preview 2025-11-27 [GKE-CHANGELOG]; dual-chiplet chip exposing two devices per chip [TPU7x]');

-- Edge
INSERT INTO series (id, platform, family, maturity, positioning, source_id, note) VALUES
  ('Coral', 'EDGE', 'edge', 'GA', 'designed for small, low-power devices, and is primarily intended for model inferencing (although it can accelerate some types of transfer learning)', 'CORAL-FAQ', 'runs only fully 8-bit quantized TensorFlow Lite models compiled for the Edge TPU [CORAL-MODELS]; weights are locked once compiled, last-layer retraining runs on the host CPU [CORAL-IMPRINT]');
