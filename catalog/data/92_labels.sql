-- Names other systems use (catalog-facts §9.1, §9.3).
-- Vertex AI / Agent Platform machineSpec.acceleratorType enum [VX-enum-rb].
INSERT INTO labels (subject, system, value, source_id) VALUES
  ('nvidia-tesla-k80', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_K80', 'VX-enum-rb'),
  ('nvidia-tesla-p100', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_P100', 'VX-enum-rb'),
  ('nvidia-tesla-v100', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_V100', 'VX-enum-rb'),
  ('nvidia-tesla-p4', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_P4', 'VX-enum-rb'),
  ('nvidia-tesla-t4', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_T4', 'VX-enum-rb'),
  ('nvidia-a100-40gb', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_TESLA_A100', 'VX-enum-rb'),
  ('nvidia-a100-80gb', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_A100_80GB', 'VX-enum-rb'),
  ('nvidia-l4', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_L4', 'VX-enum-rb'),
  ('nvidia-h100-80gb', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_H100_80GB', 'VX-enum-rb'),
  ('nvidia-h100-mega-80gb', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_H100_MEGA_80GB', 'VX-enum-rb'),
  ('nvidia-h200-141gb', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_H200_141GB', 'VX-enum-rb'),
  ('nvidia-b200', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_B200', 'VX-enum-rb'),
  ('nvidia-gb200', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_GB200', 'VX-enum-rb'),
  ('nvidia-rtx-pro-6000', 'VERTEX_ACCELERATOR_TYPE', 'NVIDIA_RTX_PRO_6000', 'VX-enum-rb'),
  ('tpu-v2', 'VERTEX_ACCELERATOR_TYPE', 'TPU_V2', 'VX-enum-rb'),
  ('tpu-v3', 'VERTEX_ACCELERATOR_TYPE', 'TPU_V3', 'VX-enum-rb'),
  ('tpu-v4', 'VERTEX_ACCELERATOR_TYPE', 'TPU_V4_POD', 'VX-enum-rb'),
  ('tpu-v5e', 'VERTEX_ACCELERATOR_TYPE', 'TPU_V5_LITEPOD', 'VX-enum-rb');

-- GKE node labels: cloud.google.com/gke-accelerator (GPUs) and
-- cloud.google.com/gke-tpu-accelerator (TPUs).
INSERT INTO labels (subject, system, value, source_id) VALUES
  ('nvidia-tesla-t4', 'GKE_ACCELERATOR', 'nvidia-tesla-t4', 'GPU-PLAT-old'),
  ('nvidia-tesla-v100', 'GKE_ACCELERATOR', 'nvidia-tesla-v100', 'GPU-PLAT-old'),
  ('nvidia-tesla-p100', 'GKE_ACCELERATOR', 'nvidia-tesla-p100', 'GPU-PLAT-old'),
  ('nvidia-tesla-p4', 'GKE_ACCELERATOR', 'nvidia-tesla-p4', 'GPU-PLAT-old'),
  ('nvidia-a100-40gb', 'GKE_ACCELERATOR', 'nvidia-tesla-a100', 'GPU-PLAT-old'),
  ('nvidia-a100-80gb', 'GKE_ACCELERATOR', 'nvidia-a100-80gb', 'XPK2'),
  ('nvidia-l4', 'GKE_ACCELERATOR', 'nvidia-l4', 'XPK2'),
  ('nvidia-h100-80gb', 'GKE_ACCELERATOR', 'nvidia-h100-80gb', 'XPK2'),
  ('nvidia-h100-mega-80gb', 'GKE_ACCELERATOR', 'nvidia-h100-mega-80gb', 'XPK2'),
  ('nvidia-h200-141gb', 'GKE_ACCELERATOR', 'nvidia-h200-141gb', 'ACC-OPT-2604'),
  ('nvidia-b200', 'GKE_ACCELERATOR', 'nvidia-b200', 'ACC-OPT-2604'),
  ('nvidia-gb200', 'GKE_ACCELERATOR', 'nvidia-gb200', 'ACC-OPT-2604'),
  ('nvidia-gb300', 'GKE_ACCELERATOR', 'nvidia-gb300', 'ACC-OPT-2604'),
  ('nvidia-rtx-pro-6000', 'GKE_ACCELERATOR', 'nvidia-rtx-pro-6000', 'ACC-OPT-2604'),
  ('tpu-v4', 'GKE_TPU_ACCELERATOR', 'tpu-v4-podslice', 'XPK2'),
  ('tpu-v5e', 'GKE_TPU_ACCELERATOR', 'tpu-v5-lite-podslice', 'XPK2'),
  ('tpu-v5p', 'GKE_TPU_ACCELERATOR', 'tpu-v5p-slice', 'XPK2'),
  ('tpu-v6e', 'GKE_TPU_ACCELERATOR', 'tpu-v6e-slice', 'XPK2'),
  ('tpu7x', 'GKE_TPU_ACCELERATOR', 'tpu7x', 'XPK2');

-- Kubernetes extended resource names [XPK2].
INSERT INTO labels (subject, system, value, source_id) VALUES
  ('nvidia-gb300', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-gb200', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-b200', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-h200-141gb', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-h100-80gb', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-h100-mega-80gb', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-a100-80gb', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-a100-40gb', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-rtx-pro-6000', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-l4', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-tesla-t4', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-tesla-v100', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-tesla-p100', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('nvidia-tesla-p4', 'GKE_RESOURCE', 'nvidia.com/gpu', 'XPK2'),
  ('tpu-v4', 'GKE_RESOURCE', 'google.com/tpu', 'XPK2'),
  ('tpu-v5e', 'GKE_RESOURCE', 'google.com/tpu', 'XPK2'),
  ('tpu-v5p', 'GKE_RESOURCE', 'google.com/tpu', 'XPK2'),
  ('tpu-v6e', 'GKE_RESOURCE', 'google.com/tpu', 'XPK2'),
  ('tpu7x', 'GKE_RESOURCE', 'google.com/tpu', 'XPK2');
