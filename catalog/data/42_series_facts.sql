-- Series facts. NVLink bandwidth per GPU inside one VM [GPU-MT] §2.2.
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  ('A4X Max',     'nvlink_bandwidth', 1800e9, 'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 1,800 GBps'),
  ('A4X',         'nvlink_bandwidth', 1800e9, 'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 1,800 GBps (per GPU; the 72-GPU domain is nvlink_domain_gpus)'),
  ('A4',          'nvlink_bandwidth', 1800e9, 'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 1,800 GBps'),
  ('A3 Ultra',    'nvlink_bandwidth', 900e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 900 GBps'),
  ('A3 Mega',     'nvlink_bandwidth', 900e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 900 GBps'),
  ('A3 High',     'nvlink_bandwidth', 900e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 900 GBps'),
  ('A3 Edge',     'nvlink_bandwidth', 900e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 900 GBps'),
  ('A2 Ultra',    'nvlink_bandwidth', 600e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 600 GBps'),
  ('A2 Standard', 'nvlink_bandwidth', 600e9,  'bytes_per_s', 'GPU-MT', 'NVLink Full Mesh @ 600 GBps');

-- NVLink domains that span VMs: an A4X (or A4X Max) sub-block of 18
-- four-GPU instances is one 72-GPU NVLink domain, created by a workload
-- policy with a 1x72 topology.
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  ('A4X',     'nvlink_domain_gpus', 72, 'count', 'A4X-MIG', '"a sub-block consists of 18 A4X instances (72 GPUs); these instances form an NVLink domain"'),
  ('A4X Max', 'nvlink_domain_gpus', 72, 'count', 'A4X-MIG', 'the A4X Max page (create-a4xmax-mig) says the same of 18 A4X Max instances');

-- Host NICs of the GPUDirect series: the GPU NICs (RDMA / TCPX / TCPXO)
-- carry GPU-to-GPU traffic on their own networks, so a CPU VM (a Reduction
-- Server reducer) reaches a worker over the host NICs only
-- (catalog-facts §2.3).
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  ('A4X',      'host_nic_bandwidth', 400e9, 'bits_per_s', 'AP-compute', '4 CX-7 NICs = 1,600 Gbps (GPU-GPU only) + 2 Titanium NICs = 400 Gbps; "2 host NICs 400 Gbps"'),
  ('A4',       'host_nic_bandwidth', 400e9, 'bits_per_s', 'AP-compute', '8 CX-7 NICs = 3,200 Gbps (1 per GPU) + 2 gVNIC = 400 Gbps'),
  ('A3 Ultra', 'host_nic_bandwidth', 400e9, 'bits_per_s', 'AP-compute', 'same NICs as A4: 8 CX-7 GPU NICs + 2 gVNIC = 400 Gbps'),
  ('A3 Mega',  'host_nic_bandwidth', 200e9, 'bits_per_s', 'AP-compute', 'primary NIC up to 200 Gbps + 8 secondary (GPUDirect-TCPXO) NICs up to 200 Gbps each'),
  ('A3 High',  'host_nic_bandwidth', 200e9, 'bits_per_s', 'GPU-MT', 'derived: a3-highgpu-8g has 5 NICs and 1,000 Gbps; GPUDirect-TCPX uses 4 of them for GPU traffic (4 x 200 Gbps), leaving the primary NIC 200 Gbps; the smaller A3 High shapes have one NIC (their full bandwidth)');

-- Latency a hop between VMs adds to a GPU collective beyond NCCL's own
-- network figure (NCCL's tuning model adds a transport's latency to every
-- network hop; the planner models the LL protocol). Derived from a published
-- small-message all-reduce: measured time less NCCL's tree/LL prediction
-- 6.8 + 2 x (7 x 0.6 + 5.0 + x) us for 2 hosts of 8 GPUs. The other series
-- have no published small-message run on these machines (NULL: NCCL's own
-- figure, an InfiniBand-class network).
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  ('A3 Mega',  'network_hop_latency', 49.2e-6, 's', 'NCCL-A3MEGA', 'derived: 8 B all_reduce_perf on 2 x a3-megagpu-8g, 123.5 us in place (135.8 out of place), less NCCL tree/LL 25.2 us with x = 0, over 2 network hops');

-- CPU peak FLOP/s per vCPU, derived per catalog-facts §10.3:
-- FLOPs/cycle/core (§10.2) x Google's all-core turbo [CYC-FREQ] / 2 (two
-- vCPUs are the two hyperthreads of one core [CPU-PLAT]). Theoretical
-- ceilings; where a series runs on several platforms the lowest is stored.
INSERT INTO facts (subject, fact, value, unit, source_id, note) VALUES
  ('N1',  'fp32_flops_per_vcpu', 24.8e9,  'flop_per_s', 'CYC-FREQ', 'derived for the lowest platform N1 still lists (Skylake, Broadwell, Haswell, Sandy Bridge, Ivy Bridge [CYC-SERIES]): Ivy Bridge AVX add + mul without FMA = 16 FP32 FLOPs/cycle [SO-FLOPS] x 3.1 GHz all-core turbo / 2; Sandy Bridge 25.6e9 (3.2 GHz); Haswell/Broadwell 44.8e9; Skylake 86.4e9 with two AVX-512 FMA units (SKU-dependent [MW-CLX]). Was 44.8e9 (Haswell), which broke the lowest-platform rule'),
  ('N1',  'fp64_flops_per_vcpu', 12.4e9,  'flop_per_s', 'CYC-FREQ', 'derived: Ivy Bridge 8 FP64 FLOPs/cycle [SO-FLOPS] x 3.1 GHz / 2 (lowest listed platform); Haswell/Broadwell 22.4e9; Skylake 43.2e9 with two FMA units'),
  ('C2',  'fp32_flops_per_vcpu', 121.6e9, 'flop_per_s', 'CYC-FREQ', 'derived: Cascade Lake [CYC-SERIES] AVX-512 with two FMA units = 64 FP32 FLOPs/cycle [MW-CLX] x 3.8 GHz all-core turbo / 2; the FMA-unit count is SKU-dependent and Google does not name the SKU (one unit would give 60.8e9)'),
  ('C2',  'fp64_flops_per_vcpu', 60.8e9,  'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 3.8 GHz / 2 (two FMA units assumed, see fp32 row)'),
  ('M1',  'fp32_flops_per_vcpu', 41.6e9,  'flop_per_s', 'CYC-FREQ', 'derived for the lowest M1 platform: Broadwell E7 (ultramem [CYC-SERIES]) 2x256-bit FMA = 32 FP32 FLOPs/cycle [SO-FLOPS] x 2.6 GHz all-core turbo / 2; Skylake (megamem) 86.4e9 with two AVX-512 FMA units'),
  ('M1',  'fp64_flops_per_vcpu', 20.8e9,  'flop_per_s', 'CYC-FREQ', 'derived: Broadwell E7 16 FP64 FLOPs/cycle x 2.6 GHz / 2'),
  ('C4D', 'fp32_flops_per_vcpu', 112e9,   'flop_per_s', 'CYC-FREQ', 'derived: AMD EPYC Turin (Zen 5) [CYC-SERIES] with native 512-bit FP units [NW-ZEN5], assumed two 512-bit FMA pipes = 64 FP32 FLOPs/cycle x 3.5 GHz all-core turbo / 2; the pipe count is from the Zen 5 desktop teardown, not verified for Turin'),
  ('C4D', 'fp64_flops_per_vcpu', 56e9,    'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 3.5 GHz / 2 (same assumption as the fp32 row)'),
  ('E2',  'fp32_flops_per_vcpu', 43.2e9,  'flop_per_s', 'CYC-FREQ', 'derived: EPYC Rome 32 FP32 FLOPs/cycle [MW-ROME] x 2.7 GHz / 2 (lowest E2 platform); Haswell/Broadwell 44.8e9; Skylake 86.4e9 (two FMA units assumed)'),
  ('E2',  'fp64_flops_per_vcpu', 21.6e9,  'flop_per_s', 'CYC-FREQ', 'derived: Rome 16 FP64 FLOPs/cycle x 2.7 GHz / 2'),
  ('N2',  'fp32_flops_per_vcpu', 108.8e9, 'flop_per_s', 'CYC-FREQ', 'derived: AVX-512 2 FMA units = 64 FP32 FLOPs/cycle [MW-CLX][PT-AMX] x 3.4 GHz all-core turbo (Cascade Lake and Ice Lake) / 2; Cascade Lake FMA-unit count is SKU-dependent'),
  ('N2',  'fp64_flops_per_vcpu', 54.4e9,  'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 3.4 GHz / 2'),
  ('N2D', 'fp32_flops_per_vcpu', 43.2e9,  'flop_per_s', 'CYC-FREQ', 'derived: Zen 2 Rome 32 FP32 FLOPs/cycle [MW-ROME] x 2.7 GHz / 2; Milan 44.8e9 (2.8 GHz) [MW-MILAN]'),
  ('N2D', 'fp64_flops_per_vcpu', 21.6e9,  'flop_per_s', 'CYC-FREQ', 'derived: 16 FP64 FLOPs/cycle x 2.7 GHz / 2 (Rome); Milan 22.4e9'),
  ('C3',  'fp32_flops_per_vcpu', 96e9,    'flop_per_s', 'CYC-FREQ', 'derived: Sapphire Rapids 2x512-bit FMA = 64 FP32 FLOPs/cycle [CNC-SPR] x 3.0 GHz / 2; AMX BF16 about 1,536e9 ops/s per vCPU for AMX-using libraries only [PT-AMX]'),
  ('C3',  'fp64_flops_per_vcpu', 48e9,    'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 3.0 GHz / 2'),
  ('C3D', 'fp32_flops_per_vcpu', 55.2e9,  'flop_per_s', 'CYC-FREQ', 'derived: Zen 4 Genoa double-pumped 256-bit = 32 FP32 FLOPs/cycle [NW-ZEN5] x 3.45 GHz / 2 (3.45 GHz seen only in the transcription)'),
  ('C3D', 'fp64_flops_per_vcpu', 27.6e9,  'flop_per_s', 'CYC-FREQ', 'derived: 16 FP64 FLOPs/cycle x 3.45 GHz / 2'),
  ('C4',  'fp32_flops_per_vcpu', 99.2e9,  'flop_per_s', 'CYC-FREQ', 'derived: Emerald Rapids, assumed identical to Sapphire Rapids [HWT-EMR]: 64 FP32 FLOPs/cycle x 3.1 GHz / 2; Granite Rapids 124.8e9 (assumed 2 FMA units)'),
  ('C4',  'fp64_flops_per_vcpu', 49.6e9,  'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 3.1 GHz / 2 (Emerald Rapids)'),
  ('N4',  'fp32_flops_per_vcpu', 92.8e9,  'flop_per_s', 'CYC-FREQ', 'derived: Emerald Rapids (assumed as Sapphire Rapids [HWT-EMR]) 64 FP32 FLOPs/cycle x 2.9 GHz / 2'),
  ('N4',  'fp64_flops_per_vcpu', 46.4e9,  'flop_per_s', 'CYC-FREQ', 'derived: 32 FP64 FLOPs/cycle x 2.9 GHz / 2');
