-- Numeric fact kinds and their units. The loader rejects a fact whose unit
-- differs from its kind's unit.
INSERT INTO fact_kinds (name, applies_to, unit, description) VALUES
  ('memory_bytes',     'accelerator', 'bytes',       'Device memory per chip/GPU, usable where the source says so'),
  ('memory_bandwidth', 'accelerator', 'bytes_per_s', 'Device memory bandwidth per chip/GPU'),
  ('peak_bf16',        'accelerator', 'flop_per_s',  'Dense peak bf16 (GPUs: Google''s Mixed FP16/32 tensor figure, Ampere and newer only)'),
  ('peak_fp16',        'accelerator', 'flop_per_s',  'Dense peak fp16 (GPUs: Mixed FP16/32 tensor figure)'),
  ('peak_fp32',        'accelerator', 'flop_per_s',  'Peak fp32 on CUDA cores (non-tensor)'),
  ('peak_tf32',        'accelerator', 'flop_per_s',  'Dense peak TF32 tensor'),
  ('peak_fp8',         'accelerator', 'flop_per_s',  'Dense peak fp8'),
  ('peak_int8',        'accelerator', 'op_per_s',    'Dense peak int8 operations'),
  ('peak_fp64',        'accelerator', 'flop_per_s',  'Peak fp64: the larger of the tensor and CUDA-core figures'),
  ('sparse_cores',     'accelerator', 'count',       'SparseCores per TPU chip'),
  ('tensorcores',      'accelerator', 'count',       'TensorCores per TPU chip'),
  ('pod_chips',        'accelerator', 'count',       'Chips in a full TPU pod'),
  ('ici_bandwidth',    'accelerator', 'bytes_per_s', 'TPU inter-chip interconnect bandwidth per chip, bidirectional'),
  ('dcn_bandwidth',    'accelerator', 'bits_per_s',  'Data-center network bandwidth per TPU chip'),
  ('nvlink_bandwidth', 'series',      'bytes_per_s', 'NVLink GPU-to-GPU bandwidth per GPU inside one VM'),
  ('host_nic_bandwidth', 'series',    'bits_per_s',  'Host (gVNIC/Titanium) NIC bandwidth per VM where the GPU NICs carry GPU-to-GPU traffic only; what a CPU VM such as a Reduction Server reducer can exchange with the VM'),
  ('network_hop_latency', 'series',   's',           'Latency one hop between two VMs adds to a GPU collective beyond NCCL''s own network figure (src/graph/tuning.cc): the GPU network transport''s, derived from a published small-message nccl-tests run'),
  ('fp32_flops_per_vcpu', 'series',   'flop_per_s',  'Theoretical peak fp32 per vCPU (derived: FLOPs/cycle x all-core turbo / 2 threads per core)'),
  ('fp64_flops_per_vcpu', 'series',   'flop_per_s',  'Theoretical peak fp64 per vCPU (derived like fp32_flops_per_vcpu)'),
  ('param_cache_bytes', 'accelerator', 'bytes',      'On-chip memory that caches a compiled model''s parameters (edge); parameters beyond it stream from host memory each inference'),
  ('max_model_bytes',  'accelerator', 'bytes',       'Largest model file the device''s toolchain accepts (edge: the .tflite FlatBuffer)');
