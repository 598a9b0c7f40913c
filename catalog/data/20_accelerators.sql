-- Accelerators (chips). GPU series_id is the series the GPU ships in; a GPU
-- found in several series (H100 in A3 Mega/High/Edge) names the first.
INSERT INTO accelerators (id, platform, name, series_id, legacy, source_id, note) VALUES
  ('nvidia-gb300', 'GPU', 'NVIDIA GB300 (B300)', 'A4X Max', 0, 'GPU-MT', 'Blackwell Ultra; Google notes its FP64 "is reduced to prioritize FP4 performance"'),
  ('nvidia-gb200', 'GPU', 'NVIDIA GB200 Superchip (B200 GPUs)', 'A4X', 0, 'GPU-MT', 'per GPU figures; each superchip has 2 Grace CPUs + 4 B200 via NVLink-C2C; CC 10.0 [CUDA-GPUS]'),
  ('nvidia-b200', 'GPU', 'NVIDIA B200', 'A4', 0, 'GPU-MT', 'CC 10.0 [CUDA-GPUS]'),
  ('nvidia-h200-141gb', 'GPU', 'NVIDIA H200 141GB', 'A3 Ultra', 0, 'GPU-MT', 'CC 9.0 [CUDA-GPUS]'),
  ('nvidia-h100-mega-80gb', 'GPU', 'NVIDIA H100 80GB (A3 Mega)', 'A3 Mega', 0, 'GPU-MT', 'same H100 SXM GPU as nvidia-h100-80gb; separate id because Vertex and GKE name it separately (NVIDIA_H100_MEGA_80GB, nvidia-h100-mega-80gb)'),
  ('nvidia-h100-80gb', 'GPU', 'NVIDIA H100 80GB', 'A3 High', 0, 'GPU-MT', 'also in A3 Edge; CC 9.0 [CUDA-GPUS]'),
  ('nvidia-a100-80gb', 'GPU', 'NVIDIA A100 80GB', 'A2 Ultra', 0, 'GPU-MT', 'CC 8.0'),
  ('nvidia-a100-40gb', 'GPU', 'NVIDIA A100 40GB', 'A2 Standard', 0, 'GPU-MT', 'CC 8.0; GKE and Vertex call it nvidia-tesla-a100 / NVIDIA_TESLA_A100'),
  ('nvidia-rtx-pro-6000', 'GPU', 'NVIDIA RTX PRO 6000 Blackwell Server Edition', 'G4', 0, 'GPU-MT', 'CC 12.0 [CUDA-GPUS]; 96 GB GDDR7 (ECC)'),
  ('nvidia-l4', 'GPU', 'NVIDIA L4', 'G2', 0, 'GPU-MT', 'CC 8.9'),
  ('nvidia-tesla-t4', 'GPU', 'NVIDIA T4', 'N1', 0, 'GPU-MT', 'CC 7.5; attached to N1 hosts in 1, 2 or 4'),
  ('nvidia-tesla-v100', 'GPU', 'NVIDIA V100', 'N1', 0, 'GPU-MT', 'CC 7.0; attached to N1 hosts in 1, 2, 4 or 8; NVLink Ring @ 300 GBps'),
  ('nvidia-tesla-p100', 'GPU', 'NVIDIA P100', 'N1', 0, 'GPU-MT', 'CC 6.0; attached to N1 hosts in 1, 2 or 4; "approaching end of support"'),
  ('nvidia-tesla-p4', 'GPU', 'NVIDIA P4', 'N1', 0, 'GPU-MT', 'CC 6.1; attached to N1 hosts in 1, 2 or 4'),
  ('nvidia-tesla-k80', 'GPU', 'NVIDIA K80', 'N1', 1, 'VX-enum-rb', 'legacy: NVIDIA_TESLA_K80 has reached end of support [VX-enum]. Google''s notice [K80-EOL] set it for May 2024 (as quoted on 2024-03-12 in [K8S-32242]: jobs "will start failing in GCP in May"); the exact day is not in any source read, so there is no end_of_support row rather than a guessed date'),
  ('tpu-v2', 'TPU', 'TPU v2', 'TPU v2', 1, 'AP-compute', 'legacy; Vertex machineType cloud-tpu with TPU_V2'),
  ('tpu-v3', 'TPU', 'TPU v3', 'TPU v3', 1, 'AP-compute', 'legacy; Vertex machineType cloud-tpu with TPU_V3'),
  ('tpu-v4', 'TPU', 'TPU v4', 'TPU v4', 0, 'TPU-v4', 'accelerator type names count TensorCores (v4-128 = 64 chips) [TPU-topo-zh]'),
  ('tpu-v5e', 'TPU', 'TPU v5e', 'TPU v5e', 0, 'TPU-v5e', 'accelerator type names count chips (v5litepod-8); no SparseCores listed ("-" under Special features) [TPU-v6e]'),
  ('tpu-v5p', 'TPU', 'TPU v5p', 'TPU v5p', 0, 'TPU-v5p-new', 'accelerator type names count TensorCores (v5p-32 = 16 chips) [TPU-supported-ja]'),
  ('tpu-v6e', 'TPU', 'TPU v6e (Trillium)', 'TPU v6e', 0, 'TPU-v6e', 'accelerator type names count chips (v6e-8)'),
  ('tpu7x', 'TPU', 'TPU7x (Ironwood)', 'TPU7x', 0, 'TPU7x', 'two TensorCores exposed as two devices per chip'),
  ('coral-edge-tpu', 'EDGE', 'Coral Edge TPU', 'Coral', 0, 'CORAL-TECH', '"a small ASIC built by Google ... to execute state-of-the-art neural networks at high speed, with a low power cost"; 2 TOPS per watt');

-- NVIDIA architecture per chip, from the compute capability NVIDIA lists
-- [CUDA-GPUS] (12.0 / 10.x Blackwell, 9.0 Hopper, 8.9 Ada Lovelace, 8.0
-- Ampere, 7.5 Turing, 7.0 Volta, 6.x Pascal, 3.7 Kepler). GB300 is
-- Blackwell Ultra [VERDA-GB300].
UPDATE accelerators SET architecture = CASE id
  WHEN 'nvidia-gb300' THEN 'Blackwell Ultra'
  WHEN 'nvidia-gb200' THEN 'Blackwell'
  WHEN 'nvidia-b200' THEN 'Blackwell'
  WHEN 'nvidia-rtx-pro-6000' THEN 'Blackwell'
  WHEN 'nvidia-h200-141gb' THEN 'Hopper'
  WHEN 'nvidia-h100-mega-80gb' THEN 'Hopper'
  WHEN 'nvidia-h100-80gb' THEN 'Hopper'
  WHEN 'nvidia-a100-80gb' THEN 'Ampere'
  WHEN 'nvidia-a100-40gb' THEN 'Ampere'
  WHEN 'nvidia-l4' THEN 'Ada Lovelace'
  WHEN 'nvidia-tesla-t4' THEN 'Turing'
  WHEN 'nvidia-tesla-v100' THEN 'Volta'
  WHEN 'nvidia-tesla-p100' THEN 'Pascal'
  WHEN 'nvidia-tesla-p4' THEN 'Pascal'
  WHEN 'nvidia-tesla-k80' THEN 'Kepler'
END
WHERE platform = 'GPU';
