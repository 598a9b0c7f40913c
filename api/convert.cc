#include "api/convert.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/generated_enum_reflection.h"

namespace accelplan::api {
namespace {

namespace pb = ::google::protobuf;

// Tracks the proto field path of the message being converted; the string is
// only built when a violation is reported, so valid requests pay nothing.
class Path {
 public:
  explicit Path(Violations* violations) : violations_(violations) {}
  Path(const Path& parent, absl::string_view field, int index = -1)
      : violations_(parent.violations_),
        prefix_(index < 0
                    ? absl::StrCat(parent.prefix_, field, ".")
                    : absl::StrCat(parent.prefix_, field, "[", index, "].")) {}

  // Reports `value` when the proto enum P does not define it.
  template <typename P>
  void CheckEnum(int value, absl::string_view field, int index = -1) const {
    const pb::EnumDescriptor* descriptor = pb::GetEnumDescriptor<P>();
    if (descriptor->FindValueByNumber(value) != nullptr) return;
    std::string path = absl::StrCat(prefix_, field);
    if (index >= 0) absl::StrAppend(&path, "[", index, "]");
    violations_->push_back(
        {std::move(path), absl::StrCat("unknown value ", value, " for enum ",
                                       descriptor->full_name())});
  }

 private:
  Violations* violations_;
  std::string prefix_;
};

// Enum numbers are identical on both sides (planner/types.h promises it).
template <typename E, typename P>
E Enum(P value, const Path& path, absl::string_view field) {
  path.CheckEnum<P>(static_cast<int>(value), field);
  return static_cast<E>(static_cast<int>(value));
}

template <typename E, typename P>
std::vector<E> Enums(const pb::RepeatedField<int>& values, const Path& path,
                     absl::string_view field) {
  std::vector<E> out;
  out.reserve(values.size());
  for (int i = 0; i < values.size(); ++i) {
    path.CheckEnum<P>(values.Get(i), field, i);
    out.push_back(static_cast<E>(values.Get(i)));
  }
  return out;
}

template <typename P, typename E>
P ToEnum(E value) {
  return static_cast<P>(static_cast<int>(value));
}

template <typename E>
std::vector<E> FromEnums(const pb::RepeatedField<int>& values) {
  std::vector<E> out;
  out.reserve(values.size());
  for (int v : values) out.push_back(static_cast<E>(v));
  return out;
}

template <typename E>
void AddEnums(const std::vector<E>& values, pb::RepeatedField<int>* out) {
  out->Reserve(static_cast<int>(values.size()));
  for (E v : values) out->Add(static_cast<int>(v));
}

template <typename T>
std::vector<T> Vec(const pb::RepeatedField<T>& values) {
  return std::vector<T>(values.begin(), values.end());
}

std::vector<std::string> Vec(const pb::RepeatedPtrField<std::string>& values) {
  return std::vector<std::string>(values.begin(), values.end());
}

template <typename T>
void AddAll(const std::vector<T>& values, pb::RepeatedField<T>* out) {
  out->Reserve(static_cast<int>(values.size()));
  for (const T& v : values) out->Add(v);
}

void AddAll(const std::vector<std::string>& values,
            pb::RepeatedPtrField<std::string>* out) {
  out->Reserve(static_cast<int>(values.size()));
  for (const std::string& v : values) out->Add()->assign(v);
}

// ------------------------------------------------------------ request parts

planner::TransformerShape FromProto(const v1::TransformerShape& in) {
  planner::TransformerShape out;
  out.layers = in.layers();
  out.hidden_size = in.hidden_size();
  out.attention_heads = in.attention_heads();
  out.sequence_length = in.sequence_length();
  out.vocab_size = in.vocab_size();
  out.ffn_hidden_size = in.ffn_hidden_size();
  out.num_kv_heads = in.num_kv_heads();
  out.gated_ffn = in.gated_ffn();
  out.head_dim = in.head_dim();
  out.sliding_window = in.sliding_window();
  out.global_attention_every = in.global_attention_every();
  return out;
}

void ToProto(const planner::TransformerShape& in, v1::TransformerShape* out) {
  out->set_layers(in.layers);
  out->set_hidden_size(in.hidden_size);
  out->set_attention_heads(in.attention_heads);
  out->set_sequence_length(in.sequence_length);
  out->set_vocab_size(in.vocab_size);
  out->set_ffn_hidden_size(in.ffn_hidden_size);
  out->set_num_kv_heads(in.num_kv_heads);
  out->set_gated_ffn(in.gated_ffn);
  out->set_head_dim(in.head_dim);
  out->set_sliding_window(in.sliding_window);
  out->set_global_attention_every(in.global_attention_every);
}

planner::Workload FromProto(const v1::Workload& in, const Path& path) {
  planner::Workload out;
  out.framework = Enum<planner::Framework>(in.framework(), path, "framework");
  out.framework_version = in.framework_version();
  out.pytorch_xla_ok = in.pytorch_xla_ok();
  out.model_kind =
      Enum<planner::ModelKind>(in.model_kind(), path, "model_kind");
  out.parameter_count = in.parameter_count();
  out.transformer_shape = FromProto(in.transformer_shape());
  out.embedding_table_gib = in.embedding_table_gib();
  out.per_device_memory_gib = in.per_device_memory_gib();
  out.training_method = Enum<planner::TrainingMethod>(in.training_method(),
                                                      path, "training_method");
  out.precision = Enum<planner::Precision>(in.precision(), path, "precision");
  out.optimizer = Enum<planner::Optimizer>(in.optimizer(), path, "optimizer");
  out.recompute = Enum<planner::Recompute>(in.recompute(), path, "recompute");
  out.custom_cuda_kernels = in.custom_cuda_kernels();
  out.tpu_unsuited_ops = Enums<planner::TpuUnsuitedOp, v1::TpuUnsuitedOp>(
      in.tpu_unsuited_ops(), path, "tpu_unsuited_ops");
  out.embedding_lookups_dominate = in.embedding_lookups_dominate();
  out.dataset_tokens = in.dataset_tokens();
  out.dataset_examples = in.dataset_examples();
  out.dataset_gib = in.dataset_gib();
  out.epochs = in.epochs();
  out.steps = in.steps();
  out.global_batch_size = in.global_batch_size();
  out.checkpoints = in.checkpoints();
  out.checkpoint_interval_minutes = in.checkpoint_interval_minutes();
  out.deployment_target = Enum<planner::DeploymentTarget>(
      in.deployment_target(), path, "deployment_target");
  const Path edge(path, "edge");
  out.edge.model_format = Enum<planner::ModelFormat>(in.edge().model_format(),
                                                     edge, "model_format");
  out.edge.quantization = Enum<planner::Quantization>(in.edge().quantization(),
                                                      edge, "quantization");
  out.edge.has_unmapped_ops = in.edge().has_unmapped_ops();
  out.edge.unmapped_op_count = in.edge().unmapped_op_count();
  out.lora_rank = in.lora_rank();
  out.model_name = in.model_name();
  out.micro_batch_size = in.micro_batch_size();
  out.gradient_accumulation_steps = in.gradient_accumulation_steps();
  if (in.has_zero_stage()) out.zero_stage = in.zero_stage();
  out.attention = Enum<planner::Attention>(in.attention(), path, "attention");
  out.active_parameter_count = in.active_parameter_count();
  out.num_experts = in.num_experts();
  out.cpu_only_custom_ops = in.cpu_only_custom_ops();
  out.experts_per_token = in.experts_per_token();
  out.forward_flops_per_example = in.forward_flops_per_example();
  return out;
}

void ToProto(const planner::Workload& in, v1::Workload* out) {
  out->set_framework(ToEnum<v1::Framework>(in.framework));
  out->set_framework_version(in.framework_version);
  out->set_pytorch_xla_ok(in.pytorch_xla_ok);
  out->set_model_kind(ToEnum<v1::ModelKind>(in.model_kind));
  out->set_parameter_count(in.parameter_count);
  ToProto(in.transformer_shape, out->mutable_transformer_shape());
  out->set_embedding_table_gib(in.embedding_table_gib);
  out->set_per_device_memory_gib(in.per_device_memory_gib);
  out->set_training_method(ToEnum<v1::TrainingMethod>(in.training_method));
  out->set_precision(ToEnum<v1::Precision>(in.precision));
  out->set_optimizer(ToEnum<v1::Optimizer>(in.optimizer));
  out->set_recompute(ToEnum<v1::Recompute>(in.recompute));
  out->set_custom_cuda_kernels(in.custom_cuda_kernels);
  AddEnums(in.tpu_unsuited_ops, out->mutable_tpu_unsuited_ops());
  out->set_embedding_lookups_dominate(in.embedding_lookups_dominate);
  out->set_dataset_tokens(in.dataset_tokens);
  out->set_dataset_examples(in.dataset_examples);
  out->set_dataset_gib(in.dataset_gib);
  out->set_epochs(in.epochs);
  out->set_steps(in.steps);
  out->set_global_batch_size(in.global_batch_size);
  out->set_checkpoints(in.checkpoints);
  out->set_checkpoint_interval_minutes(in.checkpoint_interval_minutes);
  out->set_deployment_target(
      ToEnum<v1::DeploymentTarget>(in.deployment_target));
  out->mutable_edge()->set_model_format(
      ToEnum<v1::ModelFormat>(in.edge.model_format));
  out->mutable_edge()->set_quantization(
      ToEnum<v1::Quantization>(in.edge.quantization));
  out->mutable_edge()->set_has_unmapped_ops(in.edge.has_unmapped_ops);
  out->mutable_edge()->set_unmapped_op_count(in.edge.unmapped_op_count);
  out->set_lora_rank(in.lora_rank);
  out->set_model_name(in.model_name);
  out->set_micro_batch_size(in.micro_batch_size);
  out->set_gradient_accumulation_steps(in.gradient_accumulation_steps);
  if (in.zero_stage) out->set_zero_stage(*in.zero_stage);
  out->set_attention(ToEnum<v1::Attention>(in.attention));
  out->set_active_parameter_count(in.active_parameter_count);
  out->set_num_experts(in.num_experts);
  out->set_cpu_only_custom_ops(in.cpu_only_custom_ops);
  out->set_experts_per_token(in.experts_per_token);
  out->set_forward_flops_per_example(in.forward_flops_per_example);
}

planner::Goal FromProto(const v1::Goal& in, const Path& path) {
  planner::Goal out;
  out.objective = Enum<planner::Objective>(in.objective(), path, "objective");
  out.deadline_hours = in.deadline_hours();
  out.hard_deadline = in.hard_deadline();
  out.budget_usd = in.budget_usd();
  return out;
}

void ToProto(const planner::Goal& in, v1::Goal* out) {
  out->set_objective(ToEnum<v1::Objective>(in.objective));
  out->set_deadline_hours(in.deadline_hours);
  out->set_hard_deadline(in.hard_deadline);
  out->set_budget_usd(in.budget_usd);
}

planner::Constraints FromProto(const v1::Constraints& in, const Path& path) {
  planner::Constraints out;
  out.single_host_only = in.single_host_only();
  out.max_accelerators = in.max_accelerators();
  out.allowed_platforms = Enums<planner::Platform, v1::Platform>(
      in.allowed_platforms(), path, "allowed_platforms");
  out.allowed_series = Vec(in.allowed_series());
  out.keep_current_hardware = in.keep_current_hardware();
  out.spot_allowed = in.spot_allowed();
  out.flex_start_allowed = in.flex_start_allowed();
  out.reservation_available = in.reservation_available();
  out.framework_agnostic_distribution = in.framework_agnostic_distribution();
  out.run_platform =
      Enum<planner::RunPlatform>(in.run_platform(), path, "run_platform");
  out.region = in.region();
  return out;
}

void ToProto(const planner::Constraints& in, v1::Constraints* out) {
  out->set_single_host_only(in.single_host_only);
  out->set_max_accelerators(in.max_accelerators);
  AddEnums(in.allowed_platforms, out->mutable_allowed_platforms());
  AddAll(in.allowed_series, out->mutable_allowed_series());
  out->set_keep_current_hardware(in.keep_current_hardware);
  out->set_spot_allowed(in.spot_allowed);
  out->set_flex_start_allowed(in.flex_start_allowed);
  out->set_reservation_available(in.reservation_available);
  out->set_framework_agnostic_distribution(in.framework_agnostic_distribution);
  out->set_run_platform(ToEnum<v1::RunPlatform>(in.run_platform));
  out->set_region(in.region);
}

planner::MultisliceMesh FromProto(const v1::MultisliceMesh& in) {
  planner::MultisliceMesh out;
  out.ici_data_parallelism = in.ici_data_parallelism();
  out.ici_fsdp_parallelism = in.ici_fsdp_parallelism();
  out.ici_tensor_parallelism = in.ici_tensor_parallelism();
  out.dcn_data_parallelism = in.dcn_data_parallelism();
  out.dcn_fsdp_parallelism = in.dcn_fsdp_parallelism();
  out.dcn_tensor_parallelism = in.dcn_tensor_parallelism();
  out.dcn_pipeline_parallelism = in.dcn_pipeline_parallelism();
  return out;
}

void ToProto(const planner::MultisliceMesh& in, v1::MultisliceMesh* out) {
  out->set_ici_data_parallelism(in.ici_data_parallelism);
  out->set_ici_fsdp_parallelism(in.ici_fsdp_parallelism);
  out->set_ici_tensor_parallelism(in.ici_tensor_parallelism);
  out->set_dcn_data_parallelism(in.dcn_data_parallelism);
  out->set_dcn_fsdp_parallelism(in.dcn_fsdp_parallelism);
  out->set_dcn_tensor_parallelism(in.dcn_tensor_parallelism);
  out->set_dcn_pipeline_parallelism(in.dcn_pipeline_parallelism);
}

planner::CurrentSetup FromProto(const v1::CurrentSetup& in, const Path& path) {
  planner::CurrentSetup out;
  out.hardware = in.hardware();
  out.accelerator_count = in.accelerator_count();
  out.node_count = in.node_count();
  out.slice_count = in.slice_count();
  out.tpu_topology = in.tpu_topology();
  out.strategy = Enum<planner::Strategy>(in.strategy(), path, "strategy");
  out.symptoms =
      Enums<planner::Symptom, v1::Symptom>(in.symptoms(), path, "symptoms");
  out.current_global_batch_size = in.current_global_batch_size();
  out.max_tolerated_global_batch_size = in.max_tolerated_global_batch_size();
  out.layer_widths = Vec(in.layer_widths());
  out.uses_nccl = in.uses_nccl();
  out.observed_hours = in.observed_hours();
  out.slice_topologies = Vec(in.slice_topologies());
  if (in.has_mesh()) out.mesh = FromProto(in.mesh());
  return out;
}

void ToProto(const planner::CurrentSetup& in, v1::CurrentSetup* out) {
  out->set_hardware(in.hardware);
  out->set_accelerator_count(in.accelerator_count);
  out->set_node_count(in.node_count);
  out->set_slice_count(in.slice_count);
  out->set_tpu_topology(in.tpu_topology);
  out->set_strategy(ToEnum<v1::Strategy>(in.strategy));
  AddEnums(in.symptoms, out->mutable_symptoms());
  out->set_current_global_batch_size(in.current_global_batch_size);
  out->set_max_tolerated_global_batch_size(in.max_tolerated_global_batch_size);
  AddAll(in.layer_widths, out->mutable_layer_widths());
  out->set_uses_nccl(in.uses_nccl);
  out->set_observed_hours(in.observed_hours);
  AddAll(in.slice_topologies, out->mutable_slice_topologies());
  if (in.mesh) ToProto(*in.mesh, out->mutable_mesh());
}

planner::DistributionProposal FromProto(const v1::DistributionProposal& in,
                                        const Path& path) {
  planner::DistributionProposal out;
  out.strategy = Enum<planner::Strategy>(in.strategy(), path, "strategy");
  out.across_slices =
      Enum<planner::DcnParallelism>(in.across_slices(), path, "across_slices");
  out.slices = in.slices();
  if (in.has_mesh()) out.mesh = FromProto(in.mesh());
  out.data_parallelism = in.data_parallelism();
  out.tensor_parallelism = in.tensor_parallelism();
  out.pipeline_parallelism = in.pipeline_parallelism();
  out.fsdp_parallelism = in.fsdp_parallelism();
  return out;
}

void ToProto(const planner::DistributionProposal& in,
             v1::DistributionProposal* out) {
  out->set_strategy(ToEnum<v1::Strategy>(in.strategy));
  out->set_across_slices(ToEnum<v1::DcnParallelism>(in.across_slices));
  out->set_slices(in.slices);
  if (in.mesh) ToProto(*in.mesh, out->mutable_mesh());
  out->set_data_parallelism(in.data_parallelism);
  out->set_tensor_parallelism(in.tensor_parallelism);
  out->set_pipeline_parallelism(in.pipeline_parallelism);
  out->set_fsdp_parallelism(in.fsdp_parallelism);
}

planner::HardwareProposal FromProto(const v1::HardwareProposal& in,
                                    const Path& path) {
  planner::HardwareProposal out;
  out.platform = Enum<planner::Platform>(in.platform(), path, "platform");
  out.series = in.series();
  out.machine_type = in.machine_type();
  out.accelerator = in.accelerator();
  out.tpu_topology = in.tpu_topology();
  out.slices = in.slices();
  out.count = in.count();
  if (in.has_layout()) {
    out.layout = FromProto(in.layout(), Path(path, "layout"));
  }
  return out;
}

void ToProto(const planner::HardwareProposal& in, v1::HardwareProposal* out) {
  out->set_platform(ToEnum<v1::Platform>(in.platform));
  out->set_series(in.series);
  out->set_machine_type(in.machine_type);
  out->set_accelerator(in.accelerator);
  out->set_tpu_topology(in.tpu_topology);
  out->set_slices(in.slices);
  out->set_count(in.count);
  if (in.layout) ToProto(*in.layout, out->mutable_layout());
}

planner::RemedyProposal FromProto(const v1::RemedyProposal& in,
                                  const Path& path) {
  planner::RemedyProposal out;
  out.kind = Enum<planner::RemedyKind>(in.kind(), path, "kind");
  if (in.has_target())
    out.target = FromProto(in.target(), Path(path, "target"));
  out.global_batch_size = in.global_batch_size();
  out.layer_widths = Vec(in.layer_widths());
  return out;
}

void ToProto(const planner::RemedyProposal& in, v1::RemedyProposal* out) {
  out->set_kind(ToEnum<v1::RemedyKind>(in.kind));
  if (in.target) ToProto(*in.target, out->mutable_target());
  out->set_global_batch_size(in.global_batch_size);
  AddAll(in.layer_widths, out->mutable_layer_widths());
}

planner::Proposal FromProto(const v1::Proposal& in, const Path& path) {
  planner::Proposal out;
  out.label = in.label();
  switch (in.kind_case()) {
    case v1::Proposal::kHardware:
      out.hardware = FromProto(in.hardware(), Path(path, "hardware"));
      break;
    case v1::Proposal::kDistribution:
      out.distribution =
          FromProto(in.distribution(), Path(path, "distribution"));
      break;
    case v1::Proposal::kRemedy:
      out.remedy = FromProto(in.remedy(), Path(path, "remedy"));
      break;
    case v1::Proposal::KIND_NOT_SET:
      break;
  }
  return out;
}

void ToProto(const planner::Proposal& in, v1::Proposal* out) {
  out->set_label(in.label);
  // The proto is a oneof: at most one of them is meant to be set.
  if (in.hardware) ToProto(*in.hardware, out->mutable_hardware());
  if (in.distribution) ToProto(*in.distribution, out->mutable_distribution());
  if (in.remedy) ToProto(*in.remedy, out->mutable_remedy());
}

// ----------------------------------------------------------- response parts

void ToProto(const planner::Hardware& in, v1::Hardware* out) {
  out->set_platform(ToEnum<v1::Platform>(in.platform));
  out->set_series(in.series);
  out->set_machine_type(in.machine_type);
  out->set_accelerator(in.accelerator);
  out->set_accelerator_name(in.accelerator_name);
  out->set_accelerators_per_host(in.accelerators_per_host);
  out->set_hosts(in.hosts);
  out->set_total_accelerators(in.total_accelerators);
  out->set_tpu_topology(in.tpu_topology);
  out->set_slices(in.slices);
  out->set_provisioning(ToEnum<v1::Provisioning>(in.provisioning));
  out->set_run_platform(ToEnum<v1::RunPlatform>(in.run_platform));
  out->set_memory_per_accelerator_gib(in.memory_per_accelerator_gib);
  out->set_vcpus_per_host(in.vcpus_per_host);
}

planner::Hardware FromProto(const v1::Hardware& in) {
  planner::Hardware out;
  out.platform = static_cast<planner::Platform>(in.platform());
  out.series = in.series();
  out.machine_type = in.machine_type();
  out.accelerator = in.accelerator();
  out.accelerator_name = in.accelerator_name();
  out.accelerators_per_host = in.accelerators_per_host();
  out.hosts = in.hosts();
  out.total_accelerators = in.total_accelerators();
  out.tpu_topology = in.tpu_topology();
  out.slices = in.slices();
  out.provisioning = static_cast<planner::Provisioning>(in.provisioning());
  out.run_platform = static_cast<planner::RunPlatform>(in.run_platform());
  out.memory_per_accelerator_gib = in.memory_per_accelerator_gib();
  out.vcpus_per_host = in.vcpus_per_host();
  return out;
}

void ToProto(const planner::ReductionServerPool& in,
             v1::ReductionServerPool* out) {
  out->set_machine_type(in.machine_type);
  out->set_replica_count(in.replica_count);
  out->set_image_uri(in.image_uri);
  out->set_reducer_bandwidth_gbps(in.reducer_bandwidth_gbps);
  out->set_worker_bandwidth_gbps(in.worker_bandwidth_gbps);
}

planner::ReductionServerPool FromProto(const v1::ReductionServerPool& in) {
  planner::ReductionServerPool out;
  out.machine_type = in.machine_type();
  out.replica_count = in.replica_count();
  out.image_uri = in.image_uri();
  out.reducer_bandwidth_gbps = in.reducer_bandwidth_gbps();
  out.worker_bandwidth_gbps = in.worker_bandwidth_gbps();
  return out;
}

void ToProto(const planner::Distribution& in, v1::Distribution* out) {
  out->set_strategy(ToEnum<v1::Strategy>(in.strategy));
  out->set_data_parallelism(in.data_parallelism);
  out->set_fsdp_parallelism(in.fsdp_parallelism);
  out->set_zero_stage(in.zero_stage);
  out->set_tensor_parallelism(in.tensor_parallelism);
  out->set_pipeline_parallelism(in.pipeline_parallelism);
  if (in.multislice) ToProto(*in.multislice, out->mutable_multislice());
  if (in.reduction_server) {
    ToProto(*in.reduction_server, out->mutable_reduction_server());
  }
  out->set_horovod(in.horovod);
  out->set_framework_api(in.framework_api);
  out->set_notes(in.notes);
  out->set_micro_batch_size(in.micro_batch_size);
  out->set_micro_batches(in.micro_batches);
  out->set_virtual_pipeline_stages(in.virtual_pipeline_stages);
  out->set_expert_parallelism(in.expert_parallelism);
  out->set_optimizer_offload(in.optimizer_offload);
}

planner::Distribution FromProto(const v1::Distribution& in) {
  planner::Distribution out;
  out.strategy = static_cast<planner::Strategy>(in.strategy());
  out.data_parallelism = in.data_parallelism();
  out.fsdp_parallelism = in.fsdp_parallelism();
  out.zero_stage = in.zero_stage();
  out.tensor_parallelism = in.tensor_parallelism();
  out.pipeline_parallelism = in.pipeline_parallelism();
  if (in.has_multislice()) out.multislice = FromProto(in.multislice());
  if (in.has_reduction_server()) {
    out.reduction_server = FromProto(in.reduction_server());
  }
  out.horovod = in.horovod();
  out.framework_api = in.framework_api();
  out.notes = in.notes();
  out.micro_batch_size = in.micro_batch_size();
  out.micro_batches = in.micro_batches();
  out.virtual_pipeline_stages = in.virtual_pipeline_stages();
  out.expert_parallelism = in.expert_parallelism();
  out.optimizer_offload = in.optimizer_offload();
  return out;
}

void ToProto(const planner::MemoryBreakdown& in, bool parts_known,
             v1::MemoryBreakdown* out) {
  if (parts_known) {
    out->set_weights_gib(in.weights_gib);
    out->set_gradients_gib(in.gradients_gib);
    out->set_optimizer_gib(in.optimizer_gib);
    out->set_activations_gib(in.activations_gib);
    out->set_embeddings_gib(in.embeddings_gib);
    if (in.host_offload_gib > 0) {
      out->set_host_offload_gib(in.host_offload_gib);
      if (in.host_usable_gib > 0) out->set_host_usable_gib(in.host_usable_gib);
    }
  }
  out->set_total_gib(in.total_gib);
  out->set_device_memory_gib(in.device_memory_gib);
  out->set_headroom_fraction(in.headroom_fraction);
  out->set_usable_gib(in.usable_gib);
}

planner::MemoryBreakdown FromProto(const v1::MemoryBreakdown& in) {
  planner::MemoryBreakdown out;
  out.weights_gib = in.weights_gib();
  out.gradients_gib = in.gradients_gib();
  out.optimizer_gib = in.optimizer_gib();
  out.activations_gib = in.activations_gib();
  out.embeddings_gib = in.embeddings_gib();
  out.host_offload_gib = in.host_offload_gib();
  out.host_usable_gib = in.host_usable_gib();
  out.total_gib = in.total_gib();
  out.device_memory_gib = in.device_memory_gib();
  out.headroom_fraction = in.headroom_fraction();
  out.usable_gib = in.usable_gib();
  return out;
}

void ToProto(const planner::Range& in, v1::Range* out) {
  out->set_low(in.low);
  out->set_expected(in.expected);
  out->set_high(in.high);
}

planner::Range FromProto(const v1::Range& in) {
  return planner::Range{in.low(), in.expected(), in.high()};
}

// Unknown figures stay unset (absent on the wire), never 0, inf or NaN.
void ToProto(const planner::Estimates& in, v1::Estimates* out) {
  if (in.memory_known) {
    ToProto(in.memory_per_device, in.memory_breakdown_known,
            out->mutable_memory_per_device());
  }
  if (in.flops_known) out->set_training_flops(in.training_flops);
  if (in.step_known) {
    out->set_step_time_seconds(in.step_time_seconds);
    out->set_communication_fraction(in.communication_fraction);
  }
  if (in.hours_known) ToProto(in.total_hours, out->mutable_total_hours());
  if (in.on_demand_cost_known) {
    ToProto(in.on_demand_cost_usd, out->mutable_on_demand_cost_usd());
  }
  if (in.spot_cost_known) ToProto(in.spot_cost_usd, out->mutable_spot_cost_usd());
  if (in.price_known) out->set_hourly_usd(in.hourly_usd);
  if (in.on_demand_hourly_usd > 0) {
    out->set_on_demand_hourly_usd(in.on_demand_hourly_usd);
  }
  if (in.spot_hourly_usd > 0) out->set_spot_hourly_usd(in.spot_hourly_usd);
  out->set_price_date(in.price_date);
  out->set_price_region(in.price_region);
  if (in.mfu_known) {
    out->set_mfu_low(in.mfu_low);
    out->set_mfu_high(in.mfu_high);
    out->set_peak_tflops_per_device(in.peak_tflops_per_device);
  }
  if (in.throughput_known) {
    out->set_tokens_per_second(in.tokens_per_second);
    if (in.price_known) {
      out->set_cost_per_million_tokens_usd(in.cost_per_million_tokens_usd);
    }
  }
  out->set_price_known(in.price_known);
}

planner::Estimates FromProto(const v1::Estimates& in) {
  planner::Estimates out;
  out.memory_known = in.has_memory_per_device();
  out.memory_breakdown_known = in.memory_per_device().has_weights_gib();
  out.memory_per_device = FromProto(in.memory_per_device());
  out.flops_known = in.has_training_flops();
  out.training_flops = in.training_flops();
  out.step_known = in.has_step_time_seconds();
  out.step_time_seconds = in.step_time_seconds();
  out.hours_known = in.has_total_hours();
  out.total_hours = FromProto(in.total_hours());
  out.on_demand_cost_known = in.has_on_demand_cost_usd();
  out.on_demand_cost_usd = FromProto(in.on_demand_cost_usd());
  out.spot_cost_known = in.has_spot_cost_usd();
  out.spot_cost_usd = FromProto(in.spot_cost_usd());
  out.hourly_usd = in.hourly_usd();
  out.on_demand_hourly_usd = in.on_demand_hourly_usd();
  out.spot_hourly_usd = in.spot_hourly_usd();
  out.price_date = in.price_date();
  out.price_region = in.price_region();
  out.mfu_known = in.has_mfu_low();
  out.mfu_low = in.mfu_low();
  out.mfu_high = in.mfu_high();
  out.communication_fraction = in.communication_fraction();
  out.peak_tflops_per_device = in.peak_tflops_per_device();
  out.throughput_known = in.has_tokens_per_second();
  out.tokens_per_second = in.tokens_per_second();
  out.cost_per_million_tokens_usd = in.cost_per_million_tokens_usd();
  out.price_known = in.price_known();
  return out;
}

void ToProto(const planner::Savings& in, v1::Savings* out) {
  out->set_current_hardware(in.current_hardware);
  out->set_current_cost_usd(in.current_cost_usd);
  out->set_current_hours(in.current_hours);
  out->set_cost_saved_usd(in.cost_saved_usd);
  out->set_hours_saved(in.hours_saved);
}

planner::Savings FromProto(const v1::Savings& in) {
  planner::Savings out;
  out.current_hardware = in.current_hardware();
  out.current_cost_usd = in.current_cost_usd();
  out.current_hours = in.current_hours();
  out.cost_saved_usd = in.cost_saved_usd();
  out.hours_saved = in.hours_saved();
  return out;
}

void ToProto(const planner::Remedy& in, v1::Remedy* out) {
  out->set_kind(ToEnum<v1::RemedyKind>(in.kind));
  out->set_summary(in.summary);
  out->set_global_batch_size(in.global_batch_size);
  AddAll(in.layer_widths, out->mutable_layer_widths());
  out->set_addresses(ToEnum<v1::Symptom>(in.addresses));
}

planner::Remedy FromProto(const v1::Remedy& in) {
  planner::Remedy out;
  out.kind = static_cast<planner::RemedyKind>(in.kind());
  out.summary = in.summary();
  out.global_batch_size = in.global_batch_size();
  out.layer_widths = Vec(in.layer_widths());
  out.addresses = static_cast<planner::Symptom>(in.addresses());
  return out;
}

void ToProto(const std::vector<planner::Reason>& in,
             pb::RepeatedPtrField<v1::Reason>* out) {
  out->Reserve(static_cast<int>(in.size()));
  for (const planner::Reason& r : in) {
    v1::Reason* p = out->Add();
    p->set_code(ToEnum<v1::ReasonCode>(r.code));
    p->set_message(r.message);
  }
}

std::vector<planner::Reason> FromProto(
    const pb::RepeatedPtrField<v1::Reason>& in) {
  std::vector<planner::Reason> out;
  out.reserve(in.size());
  for (const v1::Reason& r : in) {
    out.push_back({static_cast<planner::ReasonCode>(r.code()), r.message()});
  }
  return out;
}

void ToProto(const std::vector<planner::FactRef>& in,
             pb::RepeatedPtrField<v1::FactRef>* out) {
  out->Reserve(static_cast<int>(in.size()));
  for (const planner::FactRef& f : in) {
    v1::FactRef* p = out->Add();
    p->set_source_id(f.source_id);
    p->set_url(f.url);
    p->set_fact(f.fact);
  }
}

std::vector<planner::FactRef> FromProto(
    const pb::RepeatedPtrField<v1::FactRef>& in) {
  std::vector<planner::FactRef> out;
  out.reserve(in.size());
  for (const v1::FactRef& f : in) {
    out.push_back({f.source_id(), f.url(), f.fact()});
  }
  return out;
}

void ToProto(const planner::JobSpec& in, v1::JobSpec* out) {
  if (in.vertex) {
    v1::VertexJobSpec* vertex = out->mutable_vertex();
    vertex->mutable_worker_pool_specs()->Reserve(
        static_cast<int>(in.vertex->worker_pool_specs.size()));
    for (const planner::WorkerPoolSpec& pool : in.vertex->worker_pool_specs) {
      v1::WorkerPoolSpec* p = vertex->add_worker_pool_specs();
      v1::MachineSpec* m = p->mutable_machine_spec();
      m->set_machine_type(pool.machine_spec.machine_type);
      m->set_accelerator_type(pool.machine_spec.accelerator_type);
      m->set_accelerator_count(pool.machine_spec.accelerator_count);
      m->set_tpu_topology(pool.machine_spec.tpu_topology);
      p->set_replica_count(pool.replica_count);
      p->set_image_uri(pool.image_uri);
      p->set_role(pool.role);
    }
    vertex->set_scheduling_strategy(in.vertex->scheduling_strategy);
    vertex->set_config_json(in.vertex->config_json);
  }
  if (in.gke) {
    v1::GkeJobSpec* gke = out->mutable_gke();
    for (const auto& [key, value] : in.gke->node_selectors) {
      (*gke->mutable_node_selectors())[key] = value;
    }
    gke->set_resource_name(in.gke->resource_name);
    gke->set_resource_per_pod(in.gke->resource_per_pod);
    gke->set_pods_per_job(in.gke->pods_per_job);
    gke->set_jobset_replicas(in.gke->jobset_replicas);
    gke->set_manifest_yaml(in.gke->manifest_yaml);
  }
  out->set_note(in.note);
}

planner::JobSpec FromProto(const v1::JobSpec& in) {
  planner::JobSpec out;
  if (in.has_vertex()) {
    planner::VertexJobSpec vertex;
    vertex.worker_pool_specs.reserve(in.vertex().worker_pool_specs_size());
    for (const v1::WorkerPoolSpec& p : in.vertex().worker_pool_specs()) {
      planner::WorkerPoolSpec pool;
      pool.machine_spec.machine_type = p.machine_spec().machine_type();
      pool.machine_spec.accelerator_type = p.machine_spec().accelerator_type();
      pool.machine_spec.accelerator_count =
          p.machine_spec().accelerator_count();
      pool.machine_spec.tpu_topology = p.machine_spec().tpu_topology();
      pool.replica_count = p.replica_count();
      pool.image_uri = p.image_uri();
      pool.role = p.role();
      vertex.worker_pool_specs.push_back(std::move(pool));
    }
    vertex.scheduling_strategy = in.vertex().scheduling_strategy();
    vertex.config_json = in.vertex().config_json();
    out.vertex = std::move(vertex);
  }
  if (in.has_gke()) {
    planner::GkeJobSpec gke;
    gke.node_selectors.insert(in.gke().node_selectors().begin(),
                              in.gke().node_selectors().end());
    gke.resource_name = in.gke().resource_name();
    gke.resource_per_pod = in.gke().resource_per_pod();
    gke.pods_per_job = in.gke().pods_per_job();
    gke.jobset_replicas = in.gke().jobset_replicas();
    gke.manifest_yaml = in.gke().manifest_yaml();
    out.gke = std::move(gke);
  }
  out.note = in.note();
  return out;
}

void ToProto(const planner::Plan& in, v1::Plan* out) {
  ToProto(in.hardware, out->mutable_hardware());
  ToProto(in.distribution, out->mutable_distribution());
  ToProto(in.estimates, out->mutable_estimates());
  ToProto(in.reasons, out->mutable_reasons());
  ToProto(in.job_spec, out->mutable_job_spec());
  out->set_rank(in.rank);
  if (in.score) out->set_score(*in.score);
}

planner::Plan FromProto(const v1::Plan& in) {
  planner::Plan out;
  out.hardware = FromProto(in.hardware());
  out.distribution = FromProto(in.distribution());
  out.estimates = FromProto(in.estimates());
  out.reasons = FromProto(in.reasons());
  out.job_spec = FromProto(in.job_spec());
  out.rank = in.rank();
  if (in.has_score()) out.score = in.score();
  return out;
}

void ToProto(const planner::Rejection& in, v1::Rejection* out) {
  ToProto(in.hardware, out->mutable_hardware());
  AddEnums(in.codes, out->mutable_codes());
  out->set_reason(in.reason);
  if (in.estimates) ToProto(*in.estimates, out->mutable_estimates());
}

planner::Rejection FromProto(const v1::Rejection& in) {
  planner::Rejection out;
  out.hardware = FromProto(in.hardware());
  out.codes = FromEnums<planner::ReasonCode>(in.codes());
  out.reason = in.reason();
  if (in.has_estimates()) out.estimates = FromProto(in.estimates());
  return out;
}

void ToProto(const planner::AcceleratorInfo& in, v1::AcceleratorInfo* out) {
  out->set_machine_type(in.machine_type);
  out->set_series(in.series);
  out->set_platform(ToEnum<v1::Platform>(in.platform));
  out->set_accelerator(in.accelerator);
  out->set_accelerator_name(in.accelerator_name);
  out->set_accelerators_per_host(in.accelerators_per_host);
  out->set_memory_per_accelerator_gib(in.memory_per_accelerator_gib);
  out->set_peak_bf16_tflops(in.peak_bf16_tflops);
  out->set_peak_fp8_tflops(in.peak_fp8_tflops);
  out->set_peak_fp64_tflops(in.peak_fp64_tflops);
  out->set_peak_fp32_tflops(in.peak_fp32_tflops);
  out->set_sparse_cores(in.sparse_cores);
  out->set_vcpus(in.vcpus);
  out->set_host_memory_gib(in.host_memory_gib);
  out->set_network_gbps(in.network_gbps);
  out->set_on_demand_usd_per_hour(in.on_demand_usd_per_hour);
  out->set_spot_usd_per_hour(in.spot_usd_per_hour);
  out->set_price_known(in.price_known);
  out->set_price_date(in.price_date);
  out->set_price_region(in.price_region);
  AddAll(in.tpu_topologies, out->mutable_tpu_topologies());
  for (const planner::FrameworkSupportInfo& f : in.frameworks) {
    v1::FrameworkSupportInfo* p = out->add_frameworks();
    p->set_framework(ToEnum<v1::Framework>(f.framework));
    p->set_status(f.status);
    p->set_min_version(f.min_version);
    p->set_source_id(f.source_id);
  }
  for (const planner::OfferingInfo& o : in.offerings) {
    v1::OfferingInfo* p = out->add_offerings();
    p->set_run_platform(ToEnum<v1::RunPlatform>(o.run_platform));
    p->set_provisioning(ToEnum<v1::Provisioning>(o.provisioning));
    p->set_available(o.available);
    p->set_status(o.status);
    p->set_source_id(o.source_id);
  }
  out->set_end_of_support(in.end_of_support);
  out->set_legacy(in.legacy);
  AddAll(in.source_ids, out->mutable_source_ids());
  AddAll(in.source_urls, out->mutable_source_urls());
  out->set_maturity(in.maturity);
}

planner::AcceleratorInfo FromProto(const v1::AcceleratorInfo& in) {
  planner::AcceleratorInfo out;
  out.machine_type = in.machine_type();
  out.series = in.series();
  out.platform = static_cast<planner::Platform>(in.platform());
  out.accelerator = in.accelerator();
  out.accelerator_name = in.accelerator_name();
  out.accelerators_per_host = in.accelerators_per_host();
  out.memory_per_accelerator_gib = in.memory_per_accelerator_gib();
  out.peak_bf16_tflops = in.peak_bf16_tflops();
  out.peak_fp8_tflops = in.peak_fp8_tflops();
  out.peak_fp64_tflops = in.peak_fp64_tflops();
  out.peak_fp32_tflops = in.peak_fp32_tflops();
  out.sparse_cores = in.sparse_cores();
  out.vcpus = in.vcpus();
  out.host_memory_gib = in.host_memory_gib();
  out.network_gbps = in.network_gbps();
  out.on_demand_usd_per_hour = in.on_demand_usd_per_hour();
  out.spot_usd_per_hour = in.spot_usd_per_hour();
  out.price_known = in.price_known();
  out.price_date = in.price_date();
  out.price_region = in.price_region();
  out.tpu_topologies = Vec(in.tpu_topologies());
  for (const v1::FrameworkSupportInfo& f : in.frameworks()) {
    out.frameworks.push_back({static_cast<planner::Framework>(f.framework()),
                              f.status(), f.min_version(), f.source_id()});
  }
  for (const v1::OfferingInfo& o : in.offerings()) {
    out.offerings.push_back(
        {static_cast<planner::RunPlatform>(o.run_platform()),
         static_cast<planner::Provisioning>(o.provisioning()), o.available(),
         o.status(), o.source_id()});
  }
  out.end_of_support = in.end_of_support();
  out.legacy = in.legacy();
  out.source_ids = Vec(in.source_ids());
  out.source_urls = Vec(in.source_urls());
  out.maturity = in.maturity();
  return out;
}

}  // namespace

// ------------------------------------------------------------------ requests

planner::PlanRequest FromProto(const v1::PlanTrainingRequest& in,
                               Violations* violations) {
  const Path root(violations);
  planner::PlanRequest out;
  out.workload = FromProto(in.workload(), Path(root, "workload"));
  out.goal = FromProto(in.goal(), Path(root, "goal"));
  out.constraints = FromProto(in.constraints(), Path(root, "constraints"));
  out.current_setup =
      FromProto(in.current_setup(), Path(root, "current_setup"));
  out.as_of = in.as_of();
  out.view = Enum<planner::View>(in.view(), root, "view");
  return out;
}

planner::ReviewRequest FromProto(const v1::ReviewPlanRequest& in,
                                 Violations* violations) {
  const Path root(violations);
  planner::ReviewRequest out;
  out.workload = FromProto(in.workload(), Path(root, "workload"));
  out.goal = FromProto(in.goal(), Path(root, "goal"));
  out.constraints = FromProto(in.constraints(), Path(root, "constraints"));
  out.current_setup =
      FromProto(in.current_setup(), Path(root, "current_setup"));
  out.as_of = in.as_of();
  out.proposals.reserve(in.proposals_size());
  for (int i = 0; i < in.proposals_size(); ++i) {
    out.proposals.push_back(
        FromProto(in.proposals(i), Path(root, "proposals", i)));
  }
  return out;
}

planner::ListRequest FromProto(const v1::ListAcceleratorsRequest& in,
                               Violations* violations) {
  const Path root(violations);
  planner::ListRequest out;
  out.platforms =
      Enums<planner::Platform, v1::Platform>(in.platforms(), root, "platforms");
  out.framework = Enum<planner::Framework>(in.framework(), root, "framework");
  out.min_memory_gib = in.min_memory_gib();
  out.include_legacy = in.include_legacy();
  return out;
}

void ToProto(const planner::PlanRequest& in, v1::PlanTrainingRequest* out) {
  out->Clear();
  ToProto(in.workload, out->mutable_workload());
  ToProto(in.goal, out->mutable_goal());
  ToProto(in.constraints, out->mutable_constraints());
  ToProto(in.current_setup, out->mutable_current_setup());
  out->set_as_of(in.as_of);
  out->set_view(ToEnum<v1::View>(in.view));
}

void ToProto(const planner::ReviewRequest& in, v1::ReviewPlanRequest* out) {
  out->Clear();
  ToProto(in.workload, out->mutable_workload());
  ToProto(in.goal, out->mutable_goal());
  ToProto(in.constraints, out->mutable_constraints());
  ToProto(in.current_setup, out->mutable_current_setup());
  out->set_as_of(in.as_of);
  for (const planner::Proposal& p : in.proposals) {
    ToProto(p, out->add_proposals());
  }
}

void ToProto(const planner::ListRequest& in, v1::ListAcceleratorsRequest* out) {
  out->Clear();
  AddEnums(in.platforms, out->mutable_platforms());
  out->set_framework(ToEnum<v1::Framework>(in.framework));
  out->set_min_memory_gib(in.min_memory_gib);
  out->set_include_legacy(in.include_legacy);
}

// ----------------------------------------------------------------- responses

void ToProto(const planner::PlanResponse& in, v1::PlanTrainingResponse* out) {
  out->Clear();
  if (in.recommendation)
    ToProto(*in.recommendation, out->mutable_recommendation());
  out->mutable_alternatives()->Reserve(
      static_cast<int>(in.alternatives.size()));
  for (const planner::Plan& p : in.alternatives) {
    ToProto(p, out->add_alternatives());
  }
  out->mutable_rejected()->Reserve(static_cast<int>(in.rejected.size()));
  for (const planner::Rejection& r : in.rejected) {
    ToProto(r, out->add_rejected());
  }
  for (const planner::Remedy& r : in.remedies) {
    ToProto(r, out->add_remedies());
  }
  if (in.savings) ToProto(*in.savings, out->mutable_savings());
  ToProto(in.warnings, out->mutable_warnings());
  AddAll(in.assumptions, out->mutable_assumptions());
  ToProto(in.facts_used, out->mutable_facts_used());
  out->set_catalog_version(in.catalog_version);
  out->set_no_plan_reason(in.no_plan_reason);
}

planner::PlanResponse FromProto(const v1::PlanTrainingResponse& in) {
  planner::PlanResponse out;
  if (in.has_recommendation())
    out.recommendation = FromProto(in.recommendation());
  for (const v1::Plan& p : in.alternatives()) {
    out.alternatives.push_back(FromProto(p));
  }
  for (const v1::Rejection& r : in.rejected()) {
    out.rejected.push_back(FromProto(r));
  }
  for (const v1::Remedy& r : in.remedies()) {
    out.remedies.push_back(FromProto(r));
  }
  if (in.has_savings()) out.savings = FromProto(in.savings());
  out.warnings = FromProto(in.warnings());
  out.assumptions = Vec(in.assumptions());
  out.facts_used = FromProto(in.facts_used());
  out.catalog_version = in.catalog_version();
  out.no_plan_reason = in.no_plan_reason();
  return out;
}

void ToProto(const planner::ReviewResponse& in, v1::ReviewPlanResponse* out) {
  out->Clear();
  out->mutable_verdicts()->Reserve(static_cast<int>(in.verdicts.size()));
  for (const planner::ProposalVerdict& v : in.verdicts) {
    v1::ProposalVerdict* p = out->add_verdicts();
    p->set_label(v.label);
    p->set_index(v.index);
    p->set_verdict(ToEnum<v1::Verdict>(v.verdict));
    AddEnums(v.codes, p->mutable_codes());
    p->set_reason(v.reason);
    if (v.plan) ToProto(*v.plan, p->mutable_plan());
  }
  ToProto(in.warnings, out->mutable_warnings());
  ToProto(in.facts_used, out->mutable_facts_used());
  out->set_catalog_version(in.catalog_version);
}

planner::ReviewResponse FromProto(const v1::ReviewPlanResponse& in) {
  planner::ReviewResponse out;
  for (const v1::ProposalVerdict& p : in.verdicts()) {
    planner::ProposalVerdict v;
    v.label = p.label();
    v.index = p.index();
    v.verdict = static_cast<planner::Verdict>(p.verdict());
    v.codes = FromEnums<planner::ReasonCode>(p.codes());
    v.reason = p.reason();
    if (p.has_plan()) v.plan = FromProto(p.plan());
    out.verdicts.push_back(std::move(v));
  }
  out.warnings = FromProto(in.warnings());
  out.facts_used = FromProto(in.facts_used());
  out.catalog_version = in.catalog_version();
  return out;
}

void ToProto(const planner::ModelInfo& in, v1::ModelInfo* out) {
  out->set_id(in.id);
  out->set_name(in.name);
  out->set_family(in.family);
  out->set_architecture(in.architecture);
  out->set_layers(in.layers);
  out->set_hidden_size(in.hidden_size);
  out->set_attention_heads(in.attention_heads);
  out->set_num_kv_heads(in.num_kv_heads);
  out->set_ffn_hidden_size(in.ffn_hidden_size);
  out->set_gated_ffn(in.gated_ffn);
  out->set_head_dim(in.head_dim);
  out->set_sliding_window(in.sliding_window);
  out->set_global_attention_every(in.global_attention_every);
  out->set_vocab_size(in.vocab_size);
  out->set_max_sequence_length(in.max_sequence_length);
  out->set_parameter_count(in.parameter_count);
  out->set_active_parameter_count(in.active_parameter_count);
  out->set_num_experts(in.num_experts);
  out->set_source_id(in.source_id);
  out->set_source_url(in.source_url);
}

planner::ModelInfo FromProto(const v1::ModelInfo& in) {
  planner::ModelInfo out;
  out.id = in.id();
  out.name = in.name();
  out.family = in.family();
  out.architecture = in.architecture();
  out.layers = in.layers();
  out.hidden_size = in.hidden_size();
  out.attention_heads = in.attention_heads();
  out.num_kv_heads = in.num_kv_heads();
  out.ffn_hidden_size = in.ffn_hidden_size();
  out.gated_ffn = in.gated_ffn();
  out.head_dim = in.head_dim();
  out.sliding_window = in.sliding_window();
  out.global_attention_every = in.global_attention_every();
  out.vocab_size = in.vocab_size();
  out.max_sequence_length = in.max_sequence_length();
  out.parameter_count = in.parameter_count();
  out.active_parameter_count = in.active_parameter_count();
  out.num_experts = in.num_experts();
  out.source_id = in.source_id();
  out.source_url = in.source_url();
  return out;
}

void ToProto(const planner::ListResponse& in,
             v1::ListAcceleratorsResponse* out) {
  out->Clear();
  out->mutable_accelerators()->Reserve(
      static_cast<int>(in.accelerators.size()));
  for (const planner::AcceleratorInfo& a : in.accelerators) {
    ToProto(a, out->add_accelerators());
  }
  out->mutable_sources()->Reserve(static_cast<int>(in.sources.size()));
  for (const planner::SourceInfo& s : in.sources) {
    v1::Source* p = out->add_sources();
    p->set_id(s.id);
    p->set_url(s.url);
    p->set_title(s.title);
  }
  out->set_catalog_version(in.catalog_version);
  out->set_data_date(in.data_date);
  out->mutable_models()->Reserve(static_cast<int>(in.models.size()));
  for (const planner::ModelInfo& m : in.models) ToProto(m, out->add_models());
}

planner::ListResponse FromProto(const v1::ListAcceleratorsResponse& in) {
  planner::ListResponse out;
  for (const v1::AcceleratorInfo& a : in.accelerators()) {
    out.accelerators.push_back(FromProto(a));
  }
  for (const v1::Source& s : in.sources()) {
    out.sources.push_back({s.id(), s.url(), s.title()});
  }
  out.catalog_version = in.catalog_version();
  out.data_date = in.data_date();
  for (const v1::ModelInfo& m : in.models()) out.models.push_back(FromProto(m));
  return out;
}

}  // namespace accelplan::api
