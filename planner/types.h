// Plain request and response structs for the planner. They mirror
// proto/accelplan/v1/accelplan.proto field for field (same names, snake_case)
// so that server/ and client/ can convert mechanically; the planner itself
// never sees protobuf, gRPC or SQLite.
#ifndef ACCELPLAN_PLANNER_TYPES_H_
#define ACCELPLAN_PLANNER_TYPES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace accelplan::planner {

// Enum values match the proto enum numbers exactly (converters static_cast).
enum class Framework { kUnspecified = 0, kJax, kTensorflow, kPytorch, kXgboost, kScikitLearn, kLightgbm, kOther };
enum class ModelKind { kUnspecified = 0, kDenseTransformer, kCnn, kRecommender, kTabular, kOther };
enum class TrainingMethod { kUnspecified = 0, kPreTraining, kFullFineTune, kLora, kQlora };
enum class Precision { kUnspecified = 0, kBf16Mixed, kFp16Mixed, kFp32, kFp8, kFp64Required };
enum class Optimizer { kUnspecified = 0, kAdam, kAdamFp32Grads, kAdam8bit, kSgdMomentum, kAdafactor, kAdamBf16 };
enum class Recompute { kUnspecified = 0, kNone, kSelective, kFull, kOffload };
enum class TpuUnsuitedOp { kUnspecified = 0, kFrequentBranching, kElementwiseDominated, kCustomOpsInStep };
enum class Objective { kUnspecified = 0, kMinCost, kMinTime, kBalanced };
enum class Platform { kUnspecified = 0, kCpu, kGpu, kTpu, kEdge };
enum class RunPlatform { kUnspecified = 0, kVertexTraining, kGke, kComputeEngine };
enum class Provisioning { kUnspecified = 0, kOnDemand, kSpot, kFlexStart, kReservation };
enum class DeploymentTarget { kUnspecified = 0, kCloudTraining, kOnDeviceInference };
enum class ModelFormat { kUnspecified = 0, kTflite, kSavedModel, kOnnx, kTorchscript, kOther };
enum class Quantization { kUnspecified = 0, kFullInt8, kDynamicRange, kFloat16, kNone };
enum class Symptom { kUnspecified = 0, kGradientSyncBound, kInputBound, kHeavyPadding, kOutOfMemory, kLowUtilization, kEdgeOpsOnCpu };
enum class Strategy { kUnspecified = 0, kSingleDevice, kDataParallel, kFsdp, kTensorParallel, kPipelineParallel, kHybrid, kMultislice, kHorovod, kParameterServer, kIndependentModels };
enum class DcnParallelism { kUnspecified = 0, kData, kFsdp, kTensor, kPipeline, kNone };
enum class View { kUnspecified = 0, kBasic, kFull };
enum class Verdict { kUnspecified = 0, kRecommended, kViable, kRejected };
enum class RemedyKind { kUnspecified = 0, kAddReductionServer, kFasterInputPipeline, kUseSpot, kAddEvaluatorPool, kAddAccelerators, kFixTensorShapes, kMoveToHardware, kShardOptimizerState, kActivationRecompute, kMoreMemoryPerDevice, kUseHorovod, kQuantizeFullInt8, kReplaceUnsupportedOp };
enum class Attention { kUnspecified = 0, kFlash, kStandard };

enum class ReasonCode {
  kUnspecified = 0,
  kHbmTooSmall = 1,
  kFrameworkUnsupported = 2,
  kFrameworkVersionTooOld = 3,
  kPrecisionUnsupported = 4,
  kCustomKernelsNeedGpu = 5,
  kOpsUnsuitedToTpu = 6,
  kNotForTraining = 7,
  kNotForOnDevice = 8,
  kEndOfSupport = 9,
  kNotRecommendedForWorkload = 10,
  kOversizedForWorkload = 11,
  kHigherCost = 12,
  kSlower = 13,
  kMissesDeadline = 14,
  kOverBudget = 15,
  kExceedsSingleHost = 16,
  kExceedsMaxAccelerators = 17,
  kNotOfferedOnPlatform = 18,
  kNotAvailableOnDemand = 19,
  kCommunicationBound = 20,
  kPreemptionRisk = 21,
  kDoesNotAddressBottleneck = 22,
  kNotApplicable = 23,
  kChangesPinnedHardware = 24,
  kNoSharedModel = 25,
  kPriceUnknown = 26,
  kFrameworkSupportUnverified = 27,
  kFrameworkVersionAssumed = 28,
  kPreviewHardware = 29,
  kCatalogStale = 30,
  kEndOfSupportSoon = 31,
  kNoDatasetSize = 32,
  kNotACandidate = 33,
  kNotInAllowedSet = 34,
  kNeedsIdenticalSlices = 35,
  kAssumption = 36,
  kCheaper = 37,
  kFaster = 38,
  kBatchTooSmall = 39,
  kImplausibleEstimate = 40,
  kCpuOnlyOps = 41,
  kLegacyHardware = 42,
  kPricesStale = 43,
  kNeedsMultiHostSlices = 44,
};
inline constexpr int kMaxReasonCode = 44;
// "HBM_TOO_SMALL" etc., the proto enum value names.
const char* ReasonCodeName(ReasonCode code);

// ---------------------------------------------------------------- request

struct MultisliceMesh {
  int32_t ici_data_parallelism = 0;
  int32_t ici_fsdp_parallelism = 0;
  int32_t ici_tensor_parallelism = 0;
  int32_t dcn_data_parallelism = 0;
  int32_t dcn_fsdp_parallelism = 0;
  int32_t dcn_tensor_parallelism = 0;
  int32_t dcn_pipeline_parallelism = 0;
};

struct TransformerShape {
  int32_t layers = 0;
  int32_t hidden_size = 0;
  int32_t attention_heads = 0;
  int32_t sequence_length = 0;
  int32_t vocab_size = 0;
  int32_t ffn_hidden_size = 0;
  int32_t num_kv_heads = 0;  // 0: attention_heads
  bool gated_ffn = false;
  int32_t head_dim = 0;  // 0: hidden_size / attention_heads
  // Sliding-window attention: a local layer attends to the previous
  // sliding_window positions (0: every layer is global); every
  // global_attention_every-th layer attends globally (0: none does).
  int32_t sliding_window = 0;
  int32_t global_attention_every = 0;
  // Of `layers`, those in an encoder-decoder's decoder stack (0: one stack).
  // Set from an encoder-decoder preset only; the API has no such field.
  int32_t decoder_layers = 0;
};

struct EdgeDeployment {
  ModelFormat model_format = ModelFormat::kUnspecified;
  Quantization quantization = Quantization::kUnspecified;
  bool has_unmapped_ops = false;
  int32_t unmapped_op_count = 0;
};

struct Workload {
  Framework framework = Framework::kUnspecified;
  std::string framework_version;
  bool pytorch_xla_ok = false;
  ModelKind model_kind = ModelKind::kUnspecified;
  double parameter_count = 0;
  TransformerShape transformer_shape;
  double embedding_table_gib = 0;
  double per_device_memory_gib = 0;
  TrainingMethod training_method = TrainingMethod::kUnspecified;
  Precision precision = Precision::kUnspecified;
  Optimizer optimizer = Optimizer::kUnspecified;
  Recompute recompute = Recompute::kUnspecified;
  bool custom_cuda_kernels = false;
  std::vector<TpuUnsuitedOp> tpu_unsuited_ops;
  bool embedding_lookups_dominate = false;
  double dataset_tokens = 0;
  double dataset_examples = 0;
  double dataset_gib = 0;
  double epochs = 0;
  int64_t steps = 0;
  int64_t global_batch_size = 0;
  bool checkpoints = false;
  double checkpoint_interval_minutes = 0;
  DeploymentTarget deployment_target = DeploymentTarget::kUnspecified;
  EdgeDeployment edge;
  double lora_rank = 0;
  std::string model_name;
  int64_t micro_batch_size = 0;
  int64_t gradient_accumulation_steps = 0;
  std::optional<int32_t> zero_stage;
  Attention attention = Attention::kUnspecified;
  double active_parameter_count = 0;
  double forward_flops_per_example = 0;  // 0: 6 x parameters per example
  int32_t num_experts = 0;
  bool cpu_only_custom_ops = false;
  int32_t experts_per_token = 0;  // top-k; 0: the preset's, else 2
};

struct Goal {
  Objective objective = Objective::kUnspecified;
  double deadline_hours = 0;
  bool hard_deadline = false;
  double budget_usd = 0;
};

struct Constraints {
  bool single_host_only = false;
  int32_t max_accelerators = 0;
  std::vector<Platform> allowed_platforms;
  std::vector<std::string> allowed_series;
  bool keep_current_hardware = false;
  bool spot_allowed = false;
  bool flex_start_allowed = false;
  bool reservation_available = false;
  bool framework_agnostic_distribution = false;
  RunPlatform run_platform = RunPlatform::kUnspecified;
  std::string region;
};

struct CurrentSetup {
  std::string hardware;
  int32_t accelerator_count = 0;
  int32_t node_count = 0;
  int32_t slice_count = 0;
  std::string tpu_topology;
  Strategy strategy = Strategy::kUnspecified;
  std::vector<Symptom> symptoms;
  int64_t current_global_batch_size = 0;
  int64_t max_tolerated_global_batch_size = 0;
  std::vector<int64_t> layer_widths;
  bool uses_nccl = false;
  double observed_hours = 0;
  std::vector<std::string> slice_topologies;
  std::optional<MultisliceMesh> mesh;
};

struct PlanRequest {
  Workload workload;
  Goal goal;
  Constraints constraints;
  CurrentSetup current_setup;
  std::string as_of;
  View view = View::kUnspecified;
};

// ---------------------------------------------------------------- response

struct Hardware {
  Platform platform = Platform::kUnspecified;
  std::string series;
  std::string machine_type;
  std::string accelerator;
  std::string accelerator_name;
  int32_t accelerators_per_host = 0;
  int32_t hosts = 0;
  int32_t total_accelerators = 0;
  std::string tpu_topology;
  int32_t slices = 0;
  Provisioning provisioning = Provisioning::kUnspecified;
  RunPlatform run_platform = RunPlatform::kUnspecified;
  double memory_per_accelerator_gib = 0;
  int32_t vcpus_per_host = 0;
};

struct ReductionServerPool {
  std::string machine_type;
  int32_t replica_count = 0;
  std::string image_uri;
  double reducer_bandwidth_gbps = 0;
  double worker_bandwidth_gbps = 0;
};

struct Distribution {
  Strategy strategy = Strategy::kUnspecified;
  int32_t data_parallelism = 0;
  int32_t fsdp_parallelism = 0;
  int32_t zero_stage = 0;
  int32_t tensor_parallelism = 0;
  int32_t pipeline_parallelism = 0;
  std::optional<MultisliceMesh> multislice;
  // The micro-batching the estimates assume: sequences per micro-batch per
  // data-parallel rank, micro-batches per rank per step (gradient
  // accumulation steps, or a pipeline's m), and model chunks per pipeline
  // device (1: 1F1B; more: interleaved 1F1B). 0: not applicable.
  int32_t micro_batch_size = 0;
  int32_t micro_batches = 0;
  int32_t virtual_pipeline_stages = 0;
  // Mixture of experts: devices the experts of a layer are split over
  // (1: none; 0: a dense model).
  int32_t expert_parallelism = 0;
  std::optional<ReductionServerPool> reduction_server;
  bool horovod = false;
  // Optimizer states and step on the host (DeepSpeed ZeRO-Offload).
  bool optimizer_offload = false;
  std::string framework_api;
  std::string notes;
};

struct MemoryBreakdown {
  double weights_gib = 0;
  double gradients_gib = 0;
  double optimizer_gib = 0;
  double activations_gib = 0;
  double embeddings_gib = 0;
  double total_gib = 0;
  double device_memory_gib = 0;
  double headroom_fraction = 0;
  double usable_gib = 0;
  // Held in host memory per device (not in total_gib): RECOMPUTE_OFFLOAD's
  // activations, an offloaded optimizer's partition; and the host memory
  // usable per device (0: unknown).
  double host_offload_gib = 0;
  double host_usable_gib = 0;
};

struct Range {
  double low = 0;
  double expected = 0;
  double high = 0;
};

// What a plan does not know is absent on the wire, never a zero, inf or
// NaN: each `*_known` flag below says whether its figures were estimated
// (api/convert.cc leaves unknown fields unset; proto3 `optional`).
struct Estimates {
  bool memory_known = false;            // memory_per_device
  bool memory_breakdown_known = false;  // its weights/gradients/... parts
  bool flops_known = false;             // training_flops (needs D)
  bool step_known = false;              // step_time_seconds, communication
  bool hours_known = false;             // total_hours (needs D)
  bool on_demand_cost_known = false;    // on_demand_cost_usd
  bool spot_cost_known = false;         // spot_cost_usd
  bool throughput_known = false;        // tokens_per_second (sequence models)
  bool mfu_known = false;               // mfu_low/high, peak_tflops_per_device
  MemoryBreakdown memory_per_device;
  double training_flops = 0;
  double step_time_seconds = 0;
  Range total_hours;
  Range on_demand_cost_usd;
  Range spot_cost_usd;
  double hourly_usd = 0;            // when price_known
  double on_demand_hourly_usd = 0;  // when > 0
  double spot_hourly_usd = 0;       // when > 0
  std::string price_date;
  std::string price_region;
  double mfu_low = 0;
  double mfu_high = 0;
  double communication_fraction = 0;
  double peak_tflops_per_device = 0;
  double tokens_per_second = 0;
  double cost_per_million_tokens_usd = 0;  // when throughput and price known
  bool price_known = false;
};

struct Savings {
  std::string current_hardware;
  double current_cost_usd = 0;
  double current_hours = 0;
  double cost_saved_usd = 0;
  double hours_saved = 0;
};

struct Remedy {
  RemedyKind kind = RemedyKind::kUnspecified;
  std::string summary;
  int64_t global_batch_size = 0;
  std::vector<int64_t> layer_widths;
  Symptom addresses = Symptom::kUnspecified;
};

struct Reason {
  ReasonCode code = ReasonCode::kUnspecified;
  std::string message;
};

struct FactRef {
  std::string source_id;
  std::string url;
  std::string fact;
};

struct MachineSpec {
  std::string machine_type;
  std::string accelerator_type;
  int32_t accelerator_count = 0;
  std::string tpu_topology;
};

struct WorkerPoolSpec {
  MachineSpec machine_spec;
  int32_t replica_count = 0;
  std::string image_uri;
  std::string role;
};

struct VertexJobSpec {
  std::vector<WorkerPoolSpec> worker_pool_specs;
  std::string scheduling_strategy;
  std::string config_json;
};

struct GkeJobSpec {
  std::map<std::string, std::string> node_selectors;
  std::string resource_name;
  int32_t resource_per_pod = 0;
  int32_t pods_per_job = 0;
  int32_t jobset_replicas = 0;
  std::string manifest_yaml;
};

struct JobSpec {
  std::optional<VertexJobSpec> vertex;
  std::optional<GkeJobSpec> gke;
  std::string note;
};

struct Plan {
  Hardware hardware;
  Distribution distribution;
  Estimates estimates;
  std::vector<Reason> reasons;
  JobSpec job_spec;
  int32_t rank = 0;
  // The objective's value (lower is better); absent when it is not a finite
  // number (no price, no throughput, on-device inference).
  std::optional<double> score;
};

struct Rejection {
  Hardware hardware;
  std::vector<ReasonCode> codes;
  std::string reason;
  std::optional<Estimates> estimates;
};

struct PlanResponse {
  std::optional<Plan> recommendation;
  std::vector<Plan> alternatives;
  std::vector<Rejection> rejected;
  std::vector<Remedy> remedies;
  std::optional<Savings> savings;
  std::vector<Reason> warnings;
  std::vector<std::string> assumptions;
  std::vector<FactRef> facts_used;
  std::string catalog_version;
  std::string no_plan_reason;
};

// ---------------------------------------------------------------- review

struct DistributionProposal {
  Strategy strategy = Strategy::kUnspecified;
  DcnParallelism across_slices = DcnParallelism::kUnspecified;
  int32_t slices = 0;
  std::optional<MultisliceMesh> mesh;
  int32_t data_parallelism = 0;
  int32_t tensor_parallelism = 0;
  int32_t pipeline_parallelism = 0;
  int32_t fsdp_parallelism = 0;
};

struct HardwareProposal {
  Platform platform = Platform::kUnspecified;
  std::string series;
  std::string machine_type;
  std::string accelerator;
  std::string tpu_topology;
  int32_t slices = 0;
  int32_t count = 0;
  std::optional<DistributionProposal> layout;
};

struct RemedyProposal {
  RemedyKind kind = RemedyKind::kUnspecified;
  std::optional<HardwareProposal> target;
  int64_t global_batch_size = 0;
  std::vector<int64_t> layer_widths;
};

struct Proposal {
  std::string label;
  std::optional<HardwareProposal> hardware;
  std::optional<DistributionProposal> distribution;
  std::optional<RemedyProposal> remedy;
};

struct ReviewRequest {
  Workload workload;
  Goal goal;
  Constraints constraints;
  CurrentSetup current_setup;
  std::string as_of;
  std::vector<Proposal> proposals;
};

struct ProposalVerdict {
  std::string label;
  int32_t index = 0;
  Verdict verdict = Verdict::kUnspecified;
  std::vector<ReasonCode> codes;
  std::string reason;
  std::optional<Plan> plan;
};

struct ReviewResponse {
  std::vector<ProposalVerdict> verdicts;
  std::vector<Reason> warnings;
  std::vector<FactRef> facts_used;
  std::string catalog_version;
};

// ---------------------------------------------------------------- catalog

struct ListRequest {
  std::vector<Platform> platforms;
  Framework framework = Framework::kUnspecified;
  double min_memory_gib = 0;
  bool include_legacy = false;
};

struct FrameworkSupportInfo {
  Framework framework = Framework::kUnspecified;
  std::string status;
  std::string min_version;
  std::string source_id;
};

struct OfferingInfo {
  RunPlatform run_platform = RunPlatform::kUnspecified;
  Provisioning provisioning = Provisioning::kUnspecified;
  bool available = false;
  std::string status;
  std::string source_id;
};

struct AcceleratorInfo {
  std::string machine_type;
  std::string series;
  Platform platform = Platform::kUnspecified;
  std::string accelerator;
  std::string accelerator_name;
  int32_t accelerators_per_host = 0;
  double memory_per_accelerator_gib = 0;
  double peak_bf16_tflops = 0;
  double peak_fp8_tflops = 0;
  double peak_fp64_tflops = 0;
  double peak_fp32_tflops = 0;
  int32_t sparse_cores = 0;
  int32_t vcpus = 0;
  double host_memory_gib = 0;
  double network_gbps = 0;
  double on_demand_usd_per_hour = 0;
  double spot_usd_per_hour = 0;
  bool price_known = false;
  std::string price_date;
  std::string price_region;
  std::vector<std::string> tpu_topologies;
  std::vector<FrameworkSupportInfo> frameworks;
  std::vector<OfferingInfo> offerings;
  std::string end_of_support;
  bool legacy = false;
  std::vector<std::string> source_ids;
  std::vector<std::string> source_urls;
  std::string maturity;
};

struct SourceInfo {
  std::string id;
  std::string url;
  std::string title;
};

struct ModelInfo {
  std::string id;
  std::string name;
  std::string family;
  std::string architecture;
  int32_t layers = 0;
  int32_t hidden_size = 0;
  int32_t attention_heads = 0;
  int32_t num_kv_heads = 0;
  int32_t ffn_hidden_size = 0;
  bool gated_ffn = false;
  int32_t head_dim = 0;
  int32_t sliding_window = 0;
  int32_t global_attention_every = 0;
  int32_t vocab_size = 0;
  int32_t max_sequence_length = 0;
  double parameter_count = 0;
  double active_parameter_count = 0;
  int32_t num_experts = 0;
  std::string source_id;
  std::string source_url;
};

struct ListResponse {
  std::vector<AcceleratorInfo> accelerators;
  std::vector<SourceInfo> sources;
  std::string catalog_version;
  std::string data_date;
  std::vector<ModelInfo> models;
};

// ---------------------------------------------------------------- validation

struct FieldViolation {
  std::string field;  // proto field path, e.g. "workload.parameter_count"
  std::string description;
};

}  // namespace accelplan::planner

#endif  // ACCELPLAN_PLANNER_TYPES_H_
