-- Sources: keys as in ../shared/reference/catalog-facts.md (§7, §8.3, §9.8,
-- §10.9). A source is a URL, or a repository path with its commit.
-- Keys the reference cites without a URL or commit (e.g. 3P-tf218,
-- OBS-C3, SKY-K8S) are not sources and are only mentioned in notes.

-- Cloud TPU (Google)
INSERT INTO sources (id, url, title, note) VALUES
  ('TPU-v4', 'https://cloud.google.com/tpu/docs/v4', 'Cloud TPU v4', NULL),
  ('NCCL-A3MEGA', 'https://github.com/lessizzmore/create-a3mega-ztan-fork/blob/02dd8f455c43ced1cf442ef29334bda97149264b/ztan-NCCL-test-result', 'nccl-tests all_reduce_perf on 2 x a3-megagpu-8g (16 H100, GPUDirect-TCPXO)', 'a user''s published run, not Google documentation'),
  ('TPU-v4-md', 'https://docs.cloud.google.com/tpu/docs/v4.md.txt', 'Cloud TPU v4 (markdown copy)', NULL),
  ('TPU-v5e', 'https://docs.cloud.google.com/tpu/docs/v5e?authuser=6', 'Cloud TPU v5e (newer table)', NULL),
  ('TPU-v5e-old', 'https://docs.cloud.google.com/tpu/docs/v5e', 'Cloud TPU v5e (older table: 16 GB, 819 GBps)', NULL),
  ('TPU-v5e-es419', 'https://docs.cloud.google.com/tpu/docs/v5e?hl=es-419', 'Cloud TPU v5e (es-419 copy)', NULL),
  ('TPU-v5e-zh', 'https://docs.cloud.google.com/tpu/docs/v5e?hl=zh-cn', 'Cloud TPU v5e (zh-CN copy)', NULL),
  ('TPU-v5p-new', 'https://docs.cloud.google.com/tpu/docs/v5p-training?authuser=1', 'Cloud TPU v5p (newer copy)', NULL),
  ('TPU-v5p-md', 'https://docs.cloud.google.com/tpu/docs/v5p.md.txt', 'Cloud TPU v5p (markdown copy)', NULL),
  ('TPU-v5p-alt', 'https://docs.cloud.google.com/tpu/docs/v5p?authuser=50', 'Cloud TPU v5p (alternate copy)', NULL),
  ('TPU-v5p-old', 'https://cloud.google.com/tpu/docs/v5p-training', 'Cloud TPU v5p (older copy)', NULL),
  ('TPU-v5p-zh', 'https://docs.cloud.google.com/tpu/docs/v5p-training?hl=zh-cn', 'Cloud TPU v5p (zh-CN copy)', 'also https://docs.cloud.google.com/tpu/docs/v5p?hl=ja'),
  ('TPU-v6e', 'https://docs.cloud.google.com/tpu/docs/v6e', 'Cloud TPU v6e (Trillium)', NULL),
  ('TPU-v6e-md', 'https://docs.cloud.google.com/tpu/docs/v6e.md.txt', 'Cloud TPU v6e (markdown copy)', NULL),
  ('TPU-v6e-devsite', 'https://cloud-dot-devsite-v2-prod.appspot.com/tpu/docs/v6e?hl=en', 'Cloud TPU v6e (devsite copy)', NULL),
  ('TPU-v6e-zh', 'https://cloud.google.com/tpu/docs/v6e?authuser=4&hl=zh-cn', 'Cloud TPU v6e (zh-CN copy, last updated 2025-09-04)', NULL),
  ('TPU-v6e-intro-ja', 'https://cloud.google.com/tpu/docs/v6e-intro?hl=ja', 'Cloud TPU v6e introduction (ja)', NULL),
  ('TPU7x', 'https://docs.cloud.google.com/tpu/docs/tpu7x?authuser=2', 'Cloud TPU7x (Ironwood)', 'also ?authuser=0000 and ?authuser=101'),
  ('TPU7x-md', 'https://docs.cloud.google.com/tpu/docs/tpu7x.md.txt', 'Cloud TPU7x (markdown copy)', NULL),
  ('TPU7x-preview', 'http://movatter.jp/mt/?dark=on&url=https%3A%2F%2Fcloud.google.com%2Ftpu%2Fdocs%2Ftpu7x', 'Cloud TPU7x (older preview copy, mirror of https://cloud.google.com/tpu/docs/tpu7x)', NULL),
  ('IW-perf', 'https://docs.cloud.google.com/tpu/docs/ironwood-performance', 'Ironwood performance', NULL),
  ('GKE-IW', 'https://docs.cloud.google.com/kubernetes-engine/docs/concepts/tpu-ironwood', 'GKE: TPU Ironwood', NULL),
  ('CE-TPU', 'https://docs.cloud.google.com/compute/docs/tpus/tpu-machines?authuser=1', 'Compute Engine TPU machine types', NULL),
  ('TPU-topo-zh', 'https://cloud.google.com/tpu/docs/types-topologies?hl=zh-cn', 'TPU types and topologies (zh-CN copy)', NULL),
  ('TPU-supported-ja', 'https://cloud.google.com/tpu/docs/supported-versions?hl=JA', 'Supported TPU versions (ja copy)', NULL),
  ('TPU-runtimes', 'https://cloud.google.com/tpu/docs/runtimes', 'TPU software versions (runtimes)', NULL),
  ('TPU-RAY', 'https://docs.cloud.google.com/tpu/docs/ray-guide?hl=it', 'Cloud TPU Ray guide', NULL),
  ('INTRO', 'https://docs.cloud.google.com/tpu/docs/intro-to-tpu#when_to_use_tpus', 'Introduction to Cloud TPU: when to use TPUs', NULL),
  ('INTRO-md', 'https://docs.cloud.google.com/tpu/docs/intro-to-tpu.md.txt', 'Introduction to Cloud TPU (markdown copy)', NULL),
  ('MS-md', 'https://docs.cloud.google.com/tpu/docs/multislice-introduction.md.txt', 'Cloud TPU Multislice introduction', NULL),
  ('GKE-MS', 'https://cloud.google.com/kubernetes-engine/docs/how-to/tpu-multislice', 'GKE: TPU Multislice', NULL),
  ('GKE-TPU', 'https://cloud.google.com/kubernetes-engine/docs/concepts/tpus', 'GKE: about TPUs', NULL),
  ('TPU-SPOT', 'https://cloud-dot-devsite-v2-prod.appspot.com/tpu/docs/spot?hl=zh-cn', 'Cloud TPU Spot VMs', NULL),
  ('TPU-FLEX', 'https://cloud-dot-devsite-v2-prod.appspot.com/tpu/docs/request-using-flex-start', 'Cloud TPU flex-start', NULL);

-- Vertex AI / Agent Platform (Google)
INSERT INTO sources (id, url, title, note) VALUES
  ('AP-compute', 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/machine-learning/training/configure-compute', 'Agent Platform serverless training: configure compute', 'read via an indexed public copy of the page'),
  ('AP-dist', 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/machine-learning/training/distributed-training', 'Agent Platform serverless training: distributed training', 'indexed copy'),
  ('AP-spot', 'https://docs.cloud.google.com/gemini-enterprise-agent-platform/machine-learning/training/use-spot-vms', 'Agent Platform serverless training: Spot VMs', 'indexed copy'),
  ('VX-TPU', 'https://cloud.google.com/vertex-ai/docs/training/training-with-tpu-vm', 'Vertex AI: training with TPU VMs', NULL),
  ('VX-DWS', 'http://movatter.jp/mt/?dark=on&url=https%3A%2F%2Fcloud.google.com%2Fvertex-ai%2Fdocs%2Ftraining%2Fschedule-jobs-dws', 'Vertex AI: schedule jobs with DWS (mirror)', NULL),
  ('VX-enum', 'https://docs.cloud.google.com/dotnet/docs/reference/Google.Cloud.AIPlatform.V1Beta1/latest/Google.Cloud.AIPlatform.V1Beta1.AcceleratorType', 'Vertex AI AcceleratorType enum (.NET v1beta1)', NULL),
  ('VX-enum-rb', 'https://docs.cloud.google.com/ruby/docs/reference/google-cloud-ai_platform-v1/latest/Google-Cloud-AIPlatform-V1-AcceleratorType', 'Vertex AI AcceleratorType enum (Ruby v1, values 0-18)', NULL);

-- Compute Engine / GPUs (Google)
INSERT INTO sources (id, url, title, note) VALUES
  ('GPU-MT', 'https://documentation.s3ns.fr/compute/docs/gpus', 'GPU machine types (S3NS mirror of https://cloud.google.com/compute/docs/gpus, last updated 2026-08-26)', NULL),
  ('ACC-OPT', 'https://docs.cloud.google.com/compute/docs/accelerator-optimized-machines?authuser=8&hl=en', 'Accelerator-optimized machine family', NULL),
  ('ACC-OPT-2604', 'https://docs.cloud.google.com/compute/docs/accelerator-optimized-machines', 'Accelerator-optimized machine family (indexed copy, last updated 2026-04-13)', NULL),
  ('NET-table', 'http://movatter.jp/mt/?dark=on&url=https%3A%2F%2Fcloud.google.com%2Fcompute%2Fdocs%2Fgpus%2Fgpu-network-bandwidth', 'GPU network bandwidth (mirror)', NULL),
  ('NET-duda', 'http://mobile.dudasite.com/site/google108/default?dm_device=mobile&url=http%3A%2F%2Fdeveloper.google.com%2Fcompute%2Fdocs%2Fgpus%2Fgpu-network-bandwidth%23multi-layer-arch', 'GPU network bandwidth (mirror)', NULL),
  ('NET-old', 'https://cloud.google.com/compute/docs/gpus/gpu-network-bandwidth?authuser=0', 'GPU network bandwidth (older copy)', NULL),
  ('NET-mov', 'http://movatter.jp/mt/?dark=on&url=https%3A%2F%2Fdocs.cloud.google.com%2Fcompute%2Fdocs%2Fgpus%2Fgpu-network-bandwidth', 'GPU network bandwidth (mirror)', NULL),
  ('GPU-PLAT-old', 'https://cloud.google.com/compute/docs/gpus?authuser=2', 'GPU platforms (older page)', NULL),
  ('CE-price', 'https://cloud.google.com/compute/vm-instance-pricing', 'VM instance pricing', NULL),
  ('RB-VM', 'https://documentation.s3ns.fr/compute/docs/instances/about-reservation-bound-instances', 'About reservation-bound instances', 'also https://docs.cloud.google.com/compute/docs/instances/about-reservation-bound-instances?authuser=1&hl=en'),
  ('FLEX-VM', 'https://cloud.google.com/compute/docs/instances/about-flex-start-vms?authuser=8', 'About Flex-start VMs', NULL),
  ('CPU-PLAT', 'https://docs.cloud.google.com/compute/docs/cpu-platforms', 'CPU platforms', 'read via mirror http://movatter.jp/mt/?dark=on&url=https%3A%2F%2Fdocs.cloud.google.com%2Fcompute%2Fdocs%2Fcpu-platforms%23accelerator');

-- Repositories (repo + path + commit)
INSERT INTO sources (id, repo, path, commit_sha, title, note) VALUES
  ('XPK', 'AI-Hypercomputer/xpk', 'src/xpk/core/system_characteristics.py', '02b0c0928aeee28beee4b90f853073488d3893fb', 'xpk system characteristics', NULL),
  ('XPK2', 'AI-Hypercomputer/xpk', 'src/xpk/core/system_characteristics.py', '367c838253bea41e7d7716145ad6513f44c1a21e', 'xpk system characteristics (2026-06-25)', 'also src/xpk/commands/workload.py and src/xpk/templates/pathways_workload_create.yaml.j2 at the same commit'),
  ('SB', 'jax-ml/scaling-book', 'tpus.md', '0819a7d8c55ddc113f5cba0285a5f97380cac1e3', 'How to Scale Your Model: TPUs (2025-02-18)', NULL),
  ('CYC-PRICE', 'Cyclenerd/google-cloud-pricing-cost-calculator', 'pricing.yml', 'fd66b26ff84fee5cdd94f341ea89206e76c06b99', 'Cloud Billing Catalog export (generated 2026-07-30)', '1y/3y = month_1y / month_3y divided by 730'),
  ('SKY', 'skypilot-org/skypilot-catalog', 'catalogs/v8/gcp/vms.csv', '006059e0f18acb1341e22a27751e9f80df6ba92f', 'SkyPilot GCP catalog (older commit)', '"700.0" = placeholder for unavailable'),
  ('SKY8', 'skypilot-org/skypilot-catalog', 'catalogs/v8/gcp/vms.csv', '8427bbff988abdd050a9f51addd314ef31cb4e85', 'SkyPilot GCP catalog (newest indexed commit)', 'built from the Cloud Billing Catalog API; commit date not shown by the index'),
  ('SILY', 'tgarg01/silybench-data', 'derived/csv/gpu_prices.csv', '045df3bf56b8d62c58f108fc43cb397306b83331', 'silybench GPU prices (checked 2026-09-26)', NULL),
  ('GH-TPU', 'dstackai/gpuhunt', 'src/gpuhunt/resources/tpu_pricing.json', 'b707e743b2c27d7ec9be17e87e689997cbcbbeaf', 'gpuhunt TPU pricing table (2024-12-23)', NULL),
  ('GH-ODFILTER', 'dstackai/gpuhunt', 'src/gpuhunt/providers/gcp.py', '35841515de3792fe6be73b0422ac8901b6b929c8', 'gpuhunt: filter out on-demand offers not available on demand (2026-08-19)', NULL),
  ('CE-CHANGELOG', 'multani/gcp-changelog', 'content/compute-engine/index.md', '84028d37dfda80cb55bef21073759e06dac3da32', 'Compute Engine release notes (transcription, 2026-08-22)', NULL),
  ('TPU-CHANGELOG', 'multani/gcp-changelog', 'content/cloud-tpu/index.md', '84028d37dfda80cb55bef21073759e06dac3da32', 'Cloud TPU release notes (transcription, 2026-08-22)', NULL),
  ('GKE-CHANGELOG', 'multani/gcp-changelog', 'content/google-kubernetes-engine/index.md', '84028d37dfda80cb55bef21073759e06dac3da32', 'GKE release notes (transcription, 2026-08-22)', NULL),
  ('CYC-FREQ', 'Cyclenerd/google-cloud-compute-machine-types', 'instances/series/cpu/frequency.sql', '6df0dc708acd757a325024ea0508e1b32850533d', 'CPU clocks per platform (transcription of Google CPU platforms table, 2026-03-22)', NULL),
  ('CYC-SERIES', 'Cyclenerd/google-cloud-compute-machine-types', 'instances/series', '6df0dc708acd757a325024ea0508e1b32850533d', 'CPU platform per machine series', 'files n1.sql, e2.sql, n2.sql, n2d.sql, c2.sql, m1.sql, c3.sql, c3d.sql, c4.sql, c4d.sql, n4.sql'),
  ('CYC-CM', 'Cyclenerd/google-cloud-compute-machine-types', 'instances/series/cpu/coremark.csv', '6df0dc708acd757a325024ea0508e1b32850533d', 'CoreMark per machine type (copied from Google benchmarks-linux page)', NULL),
  ('SK-FAQ', 'scikit-learn/scikit-learn', 'doc/faq.rst', '005664499cd83c9a74539a6056e75881143b4850', 'scikit-learn FAQ: Will you add GPU support?', NULL),
  ('LGBM-PARAM', 'microsoft/LightGBM', 'docs/Parameters.rst', 'bae0b7ba953341a32b2a9c5c5c437a1b976f576f', 'LightGBM parameters (device_type)', NULL),
  ('PTXLA', 'pytorch/xla', 'README.md', '41398bfff334fc8d3b1c00be6ea8cc5411f6d6bf', 'PyTorch/XLA README (2026-04-23)', NULL);

-- Third parties (used only where marked)
INSERT INTO sources (id, url, title, note) VALUES
  ('NV-L4', 'https://www.nvidia.com/en-us/data-center/l4/', 'NVIDIA L4 Tensor Core GPU', 'FP8 and INT8 Tensor Core 485 (with sparsity); the NVIDIA page itself is not in the search index, read via indexed copies that quote it (https://grokipedia.com/page/NVIDIA_L4_vs_L40S, https://store.sourcecode.com/en-us/bg-bucket-compare/125/9820)'),
  ('VERDA-GB300', 'https://verda.com/blog/gb300-nvl72-architecture', 'Verda: NVIDIA GB300 NVL72 per-GPU specifications (dense)', 'third party; per-GPU dense table (INT8 0.165 POPS for GB300). NVIDIA''s own GB300 NVL72 page is not in the search index'),
  ('K80-EOL', 'https://cloud.google.com/compute/docs/eol/k80-eol', 'Compute Engine: NVIDIA K80 end of support', 'linked as the K80 end-of-life notice by https://github.com/GoogleCloudPlatform/java-docs-samples/pull/9342; the page text (and its date) is not in the search index'),
  ('K8S-32242', 'https://github.com/kubernetes/test-infra/issues/32242', 'kubernetes/test-infra #32242: NVIDIA K80 end of support (2024-03-12)', 'quotes https://cloud.google.com/compute/docs/eol/k80-eol: GCE K80 jobs start failing in May 2024; a 2024-05-20 PR (#32635) calls K80s completely EOL'),
  ('NEOWIN', 'https://neowin.net/amp/google-takes-on-nvidia-blackwell-gpus-with-the-new-trillium-tpus', 'Neowin: Trillium GA pricing', 'quotes Google''s Trillium GA announcement'),
  ('DSTACK-3100', 'https://github.com/dstackai/dstack/pull/3100', 'dstack PR 3100 (B200 not on-demand, 2025-09-29)', NULL),
  ('DSTACK-3162', 'https://github.com/dstackai/dstack/issues/3162', 'dstack issue 3162 (2025-10-08)', NULL),
  ('CT-6279', 'https://github.com/GoogleCloudPlatform/cluster-toolkit/pull/6279', 'cluster-toolkit PR 6279 (2026-09-11)', NULL),
  ('CUDA-GPUS', 'https://developer.nvidia.com/cuda-gpus', 'NVIDIA CUDA GPUs: compute capability', NULL),
  ('TE-MATRIX', 'https://nvidia.github.io/TransformerEngine/support_matrix.html', 'Transformer Engine support matrix', NULL),
  ('TRT-old', 'https://docs.nvidia.com/deeplearning/tensorrt/support-matrix/index.html#hardware-precision-matrix', 'TensorRT 8.x hardware precision matrix', 'read via https://blog.csdn.net/HaoZiHuang/article/details/125830864'),
  ('GCP-TABLE-old', 'https://huggingface.co/spaces/Elfsong/gcp_allocator/commit/3a1a5af88c8fd7c36675800b52069eaf40fed2b4', 'Transcription of an older Google GPU table', NULL),
  ('XGB-GPU', 'https://xgboost.readthedocs.io/en/latest/gpu/index.html.md', 'XGBoost GPU support', 'also https://xgboost.readthedocs.io/en/release_3.3.0/_sources/gpu/index.rst.txt'),
  ('XGB-200', 'https://github.com/dmlc/xgboost/releases/tag/v2.0.0', 'XGBoost 2.0.0 release notes', NULL),
  ('XGB-DEV', 'https://xgboost.readthedocs.io/en/latest/dev/structxgboost_1_1DeviceOrd.html', 'XGBoost DeviceOrd (device types)', NULL),
  ('MW-CLX', 'https://www.microway.com/knowledge-center-articles/detailed-specifications-of-the-cascade-lake-sp-intel-xeon-processor-scalable-family-cpus/', 'Microway: Cascade Lake-SP specifications', NULL),
  ('MW-MILAN', 'https://www.microway.com/knowledge-center-articles/detailed-specifications-of-the-amd-epyc-milan-cpus/', 'Microway: EPYC Milan specifications', NULL),
  ('MW-ROME', 'https://www.microway.com/knowledge-center-articles/detailed-specifications-of-the-amd-epyc-rome-cpus/?action=history', 'Microway: EPYC Rome specifications', NULL),
  ('SO-FLOPS', 'https://stackoverflow.com/questions/15655835/flops-per-cycle-for-sandy-bridge-and-haswell-sse2-avx-avx2', 'FLOPs per cycle (Stack Overflow)', NULL),
  ('CNC-SPR', 'https://chipsandcheese.com/p/a-peek-at-sapphire-rapids', 'Chips and Cheese: Sapphire Rapids', NULL),
  ('NW-ZEN5', 'http://numberworld.org/blogs/2024_8_7_zen5_avx512_teardown', 'Zen 5 AVX-512 teardown (Zen 4 double-pumping)', NULL),
  ('PT-AMX', 'https://pytorch.org/tutorials/_sources/recipes/amx.rst.txt', 'PyTorch AMX recipe', NULL),
  ('HWT-EMR', 'https://www.hardwaretimes.com/intel-xeon-emerald-rapids-sp-to-offer-40-more-performance-than-sapphire-rapids-in-ai/', 'Emerald Rapids architecturally identical to Sapphire Rapids', NULL),
  ('CORAL-TECH', 'https://coral.ai/technology', 'Coral: Edge TPU technology', NULL),
  ('CORAL-FAQ', 'https://coral.ai/docs/edgetpu/faq', 'Coral Edge TPU FAQ', NULL),
  ('CORAL-MODELS', 'https://coral.ai/docs/edgetpu/models-intro/#compatibility-overview', 'Coral: TensorFlow models on the Edge TPU', NULL),
  ('CORAL-IMPRINT', 'https://coral.ai/docs/edgetpu/retrain-classification-ondevice', 'Coral: on-device retraining (weight imprinting)', NULL),
  ('CORAL-COMPILE', 'https://coral.ai/docs/edgetpu/models-intro/#compiling', 'Coral: TensorFlow models on the Edge TPU, Compiling (graph partitioned at the first unsupported op; it and everything after it run on the CPU)', NULL),
  ('CORAL-COMPILER', 'https://coral.ai/docs/edgetpu/compiler/#parameter-data-caching', 'Coral: Edge TPU Compiler, parameter data caching', 'the compiler reports "On-chip memory used for caching model parameters" and "Off-chip memory used for streaming uncached model parameters" (e.g. 7.04 MiB cached + 1.25 KiB remaining, 15.06 MiB streamed for a 22.7 MiB FaceNet)'),
  ('CORAL-PIPELINE', 'https://coral.ai/docs/edgetpu/pipeline/', 'Coral: Pipeline a model with multiple Edge TPUs', 'data parallelism "typically works best only if your model fits in the Edge TPU cache (~8 MB)"; larger models "otherwise cannot fit into the cache of a single Edge TPU"'),
  ('TFLITE-CONVERT', 'https://www.tensorflow.org/lite/r1/convert', 'TensorFlow Lite converter: models are converted to the FlatBuffer format (.tflite)', NULL),
  ('FLATBUFFERS-MAX', 'https://docs.rs/flatbuffers/2.0.0/flatbuffers/constant.FLATBUFFERS_MAX_BUFFER_SIZE.html', 'FlatBuffers: FLATBUFFERS_MAX_BUFFER_SIZE = 1 << 31 (the 2 GiB limit set by the format)', NULL),
  -- Device memory as the driver reports it (nvidia-smi's total): NVIDIA's
  -- "80GB" is 80 GiB less the driver's reserve, not 80e9 bytes.
  ('SMI-MODAL', 'https://github.com/modal-labs/modal-client/pull/2797', 'modal-client PR 2797: nvidia-smi totals per GPU (H100 81559MiB, A100 80GB 81920MiB, A100 40GB 40960MiB, L4 23034MiB, T4 15360MiB)', 'a user''s published nvidia-smi readings; the PR''s point: "NVIDIA quotes GB on their GPUs, not GiB" is an overquote the other way'),
  ('SMI-H100', 'https://github.com/NVIDIA/nccl/issues/1264', 'NVIDIA/nccl #1264: nvidia-smi on 8 x NVIDIA H100 80GB HBM3 (0MiB / 81559MiB, driver 550.54.15)', NULL),
  ('SMI-H200', 'https://github.com/sgl-project/sglang/issues/3196', 'sglang #3196: nvidia-smi on NVIDIA H200 (143771MiB, driver 550.144.03)', NULL),
  ('SMI-B200', 'https://github.com/NVIDIA/TensorRT-LLM/issues/10278', 'TensorRT-LLM #10278: nvidia-smi on NVIDIA B200 (183359MiB, driver 580.95.05)', NULL),
  ('SMI-A100-40', 'https://github.com/bottlerocket-os/bottlerocket-core-kit/pull/834', 'bottlerocket-core-kit PR 834: nvidia-smi on NVIDIA A100-SXM4-40GB (40960MiB, driver 580.126.09)', 'CUDA deviceQuery on the same card reports 42298834944 bytes (https://github.com/bottlerocket-os/bottlerocket/pull/3873)'),
  ('SMI-V100', 'https://github.com/1CatAI/1Cat-vLLM/issues/85', '1Cat-vLLM #85: nvidia-smi on Tesla V100-SXM2-16GB (16384MiB, driver 570.211.01)', 'older drivers report 16160MiB'),
  ('SMI-P100', 'https://github.com/googlecolab/colabtools/issues/1406', 'colabtools #1406: TensorFlow log on Tesla P100-PCIE-16GB, deviceMemorySize 15.90GiB (16280MiB)', NULL);

-- Model presets (95_models.sql): each model's published config or paper.
-- Where a config is gated, the shape was read through the indexed copies
-- named in the model row's note.
INSERT INTO sources (id, url, title, note) VALUES
  ('HF-LLAMA-3.2-1B', 'https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json', 'Llama 3.2 1B config.json', NULL),
  ('HF-LLAMA-3.2-3B', 'https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json', 'Llama 3.2 3B config.json', NULL),
  ('HF-LLAMA-3.1-8B', 'https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json', 'Llama 3.1 8B config.json', NULL),
  ('HF-LLAMA-3.1-70B', 'https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json', 'Llama 3.1 70B config.json', NULL),
  ('HF-LLAMA-3-8B', 'https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json', 'Meta Llama 3 8B config.json', NULL),
  ('HF-LLAMA-3-70B', 'https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json', 'Meta Llama 3 70B config.json', NULL),
  ('HF-LLAMA-2-7B', 'https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json', 'Llama 2 7B config.json', NULL),
  ('HF-LLAMA-2-13B', 'https://huggingface.co/meta-llama/Llama-2-13b-hf/blob/main/config.json', 'Llama 2 13B config.json', NULL),
  ('HF-LLAMA-2-70B', 'https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json', 'Llama 2 70B config.json', NULL),
  ('LLAMA2-PAPER', 'https://arxiv.org/abs/2307.09288', 'Llama 2: Open Foundation and Fine-Tuned Chat Models (Table 1: 7B/13B/70B, 4k context, GQA for 70B)', NULL),
  ('LLAMA3-PAPER', 'https://arxiv.org/abs/2407.21783', 'The Llama 3 Herd of Models (Table 3: 8B/70B/405B shapes)', NULL),
  ('HF-GEMMA-2-2B', 'https://huggingface.co/google/gemma-2-2b/blob/main/config.json', 'Gemma 2 2B config.json', NULL),
  ('HF-GEMMA-2-9B', 'https://huggingface.co/google/gemma-2-9b/blob/main/config.json', 'Gemma 2 9B config.json', NULL),
  ('HF-GEMMA-2-27B', 'https://huggingface.co/google/gemma-2-27b/blob/main/config.json', 'Gemma 2 27B config.json', NULL),
  ('HF-GEMMA-3-1B', 'https://huggingface.co/google/gemma-3-1b-pt/blob/main/config.json', 'Gemma 3 1B config.json', NULL),
  ('HF-GEMMA-3-12B', 'https://huggingface.co/google/gemma-3-12b-pt/blob/main/config.json', 'Gemma 3 12B config.json (text_config)', NULL),
  ('HF-MISTRAL-7B', 'https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json', 'Mistral 7B v0.1 config.json', NULL),
  ('MISTRAL-BLOG', 'https://mistral.ai/news/announcing-mistral-7b', 'Mistral AI: Announcing Mistral 7B (7.3B parameters)', 'read via the copy quoted at https://ollama.ai/library/mistral'),
  ('HF-MIXTRAL-8X7B', 'https://huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json', 'Mixtral 8x7B v0.1 config.json', NULL),
  ('HF-QWEN2.5-7B', 'https://huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json', 'Qwen2.5 7B config.json', 'model card: 7.61B parameters'),
  ('HF-QWEN2.5-72B', 'https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json', 'Qwen2.5 72B config.json', 'model card: 72.7B parameters'),
  ('HF-BERT-LARGE', 'https://huggingface.co/google-bert/bert-large-uncased/blob/main/config.json', 'BERT-large uncased config.json', NULL),
  ('BERT-PAPER', 'https://arxiv.org/abs/1810.04805', 'BERT paper (BERT-large: L=24, H=1024, A=16, 340M parameters)', NULL),
  ('HF-T5-BASE', 'https://huggingface.co/google-t5/t5-base/blob/main/config.json', 'T5-base config.json', NULL),
  ('T5-PAPER', 'https://arxiv.org/abs/1910.10683', 'T5 paper (Base: about 220 million parameters)', NULL),
  ('VIT-PAPER', 'https://arxiv.org/abs/2010.11929', 'ViT paper (Table 1: ViT-Large 24 layers, 1024 hidden, MLP 4096, 16 heads, 307M)', NULL),
  ('TV-RESNET50', 'https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html', 'torchvision ResNet-50 weights (num_params 25,557,032)', NULL);

INSERT INTO sources (id, repo, path, commit_sha, title, note) VALUES
  ('KH-GEMMA3', 'keras-team/keras-hub', 'keras_hub/src/models/gemma3/gemma3_presets.py', '46f3b4a000be58c092fe2f1acf87d2fb620aefd0', 'KerasHub Gemma 3 presets (exact parameter counts)', NULL),
  ('KH-MIXTRAL', 'keras-team/keras-hub', 'keras_hub/src/models/mixtral/README.md', 'b9bc2e3008f55c067b88b1b06b0a710ab9243699', 'KerasHub Mixtral module dump (layer shapes)', NULL),
  ('OUMI-LLAMA31', 'vulkomilev/oumi', 'configs/recipes/llama3_1/README.md', '4d8296fb70dac07a8489398080fd740dab7b3814', 'oumi Llama 3.1 recipes: 8B/70B shapes', 'fork of oumi-ai/oumi'),
  ('MQ-LLAMA', 'thamada/modelQuery', 'README.md', 'd567602fc87f937def2e14e9cfceb87653e576ee', 'Exact Llama 3.x parameter counts from the released checkpoints', NULL);
