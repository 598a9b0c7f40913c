// ReviewPlan: judges proposals against the same rules and numbers that
// PlanTraining uses. Remedies are judged against the symptoms first, then
// the objective; at most one proposal is RECOMMENDED.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "planner/defaults.h"
#include "planner/engine.h"
#include "planner/model_presets.h"
#include "planner/planner.h"
#include "planner/remedies.h"
#include "planner/util.h"

namespace accelplan::planner {

using internal::Candidate;
using internal::Family;
using internal::Job;

namespace {

// Device memory left after the default headroom (planner/defaults.h).
constexpr double kUsableFraction = 1 - kDefaults.headroom_fraction.value;

struct Judged {
  std::vector<ReasonCode> codes;
  std::vector<std::string> why;
  bool rejected = false;
  // False: never RECOMMENDED though not rejected (an unpriced hardware
  // under a budget).
  bool recommendable = true;
  // Lower is better among non-rejected proposals.
  int tier = 9;
  double secondary = 0;
  const Candidate* candidate = nullptr;
  std::optional<Candidate> own;  // a pinned evaluation this proposal owns

  void Reject(ReasonCode code, std::string line) {
    rejected = true;
    Add(code, std::move(line));
  }
  void Add(ReasonCode code, std::string line) {
    if (std::find(codes.begin(), codes.end(), code) == codes.end()) {
      codes.push_back(code);
    }
    if (!line.empty()) why.push_back(std::move(line));
  }
};

const char* SymptomLabel(Symptom s) {
  switch (s) {
    case Symptom::kGradientSyncBound: return "waiting on gradient synchronization";
    case Symptom::kInputBound: return "input-bound";
    case Symptom::kHeavyPadding: return "losing throughput to padding";
    case Symptom::kOutOfMemory: return "running out of memory";
    case Symptom::kLowUtilization: return "under-utilising its accelerators";
    default: return "unspecified";
  }
}

std::string SymptomsText(const Job& job) {
  std::vector<std::string> parts;
  for (Symptom s : job.current.symptoms) {
    if (s != Symptom::kUnspecified) parts.push_back(SymptomLabel(s));
  }
  return absl::StrJoin(parts, " and ");
}

const char* RemedyLabel(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer: return "A Reduction Server pool";
    case RemedyKind::kFasterInputPipeline: return "Faster storage / input pipeline";
    case RemedyKind::kUseSpot: return "Spot VMs";
    case RemedyKind::kAddEvaluatorPool: return "An evaluator pool";
    case RemedyKind::kAddAccelerators: return "More accelerators with the same shapes";
    case RemedyKind::kFixTensorShapes: return "TPU-friendly tensor shapes";
    case RemedyKind::kMoveToHardware: return "Moving to other hardware";
    case RemedyKind::kShardOptimizerState: return "Sharding optimizer state (FSDP/ZeRO)";
    case RemedyKind::kActivationRecompute: return "Activation recompute";
    case RemedyKind::kMoreMemoryPerDevice: return "More memory per device";
    case RemedyKind::kUseHorovod: return "Horovod";
    default: return "The remedy";
  }
}

// Symptoms a remedy acts on, most direct first (the order ranks remedies
// that address the same symptom).
std::vector<Symptom> Addresses(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer: return {Symptom::kGradientSyncBound};
    case RemedyKind::kFasterInputPipeline:
      return {Symptom::kInputBound, Symptom::kLowUtilization};
    case RemedyKind::kFixTensorShapes:
      return {Symptom::kHeavyPadding, Symptom::kLowUtilization};
    case RemedyKind::kShardOptimizerState:
    case RemedyKind::kActivationRecompute:
    case RemedyKind::kMoreMemoryPerDevice:
    case RemedyKind::kAddAccelerators:
      return {Symptom::kOutOfMemory};
    default:
      return {};
  }
}

int Directness(RemedyKind k) {
  switch (k) {
    case RemedyKind::kAddReductionServer:
    case RemedyKind::kFasterInputPipeline:
    case RemedyKind::kFixTensorShapes:
    case RemedyKind::kShardOptimizerState:
      return 0;
    case RemedyKind::kActivationRecompute: return 1;
    case RemedyKind::kMoreMemoryPerDevice: return 2;
    case RemedyKind::kAddAccelerators: return 3;
    default: return 4;
  }
}

bool CurrentIsTpu(const Job& job) {
  return (job.current_accelerator != nullptr &&
          job.current_accelerator->platform == catalog::Platform::kTpu) ||
         !job.current.tpu_topology.empty() || job.current.slice_count > 0;
}

}  // namespace

ReviewResponse Planner::Review(const ReviewRequest& request,
                               const CallContext& context) const {
  const catalog::Catalog& cat = *catalog_;
  ReviewRequest resolved;
  std::string preset_assumption;
  const ReviewRequest& r =
      WithModelPreset(cat, request, &resolved, &preset_assumption);
  Job job = internal::MakeJob(cat, r.workload, r.goal, r.constraints,
                              r.current_setup, context.AsOf(r.as_of));
  ReviewResponse out;
  out.catalog_version = cat.version;
  out.warnings = job.warnings;
  if (!preset_assumption.empty()) {
    out.warnings.push_back({ReasonCode::kAssumption, preset_assumption});
  }
  // The same defaults as PlanTraining (MakeJob), stated the same way.
  for (const std::string& a : job.assumptions) {
    out.warnings.push_back({ReasonCode::kAssumption, a});
  }

  // The field: every family as PlanTraining ranks it.
  std::vector<Candidate> field;
  field.reserve(index_->families.size());
  for (const Family& f : index_->families) {
    if (context.Cancelled()) return out;
    field.push_back(internal::Evaluate(cat, job, f));
  }
  internal::RankCandidates(job, field);
  std::map<const Family*, size_t> position;
  for (size_t i = 0; i < field.size(); ++i) position[field[i].family] = i;

  std::vector<Judged> judged(r.proposals.size());
  std::vector<std::string> fact_ids;

  // Judges a hardware description; `pinned` evaluations re-rank the field
  // with the pinned candidate in place of the family's own.
  auto judge_hardware = [&](const HardwareProposal& h, Judged& j) {
    std::vector<const Family*> fams = internal::MatchFamilies(
        *index_, h.platform, h.series, h.accelerator, h.machine_type);
    if (h.platform == Platform::kUnspecified) {
      // "N1" in a hardware question means its GPUs, not its CPU-only shapes.
      bool any_accel = false;
      for (const Family* f : fams) any_accel |= f->platform != Platform::kCpu;
      if (any_accel) {
        fams.erase(std::remove_if(fams.begin(), fams.end(),
                                  [](const Family* f) {
                                    return f->platform == Platform::kCpu;
                                  }),
                   fams.end());
      }
    }
    if (fams.empty()) {
      const std::string want = NormalizeName(
          !h.accelerator.empty() ? h.accelerator
                                 : (!h.series.empty() ? h.series : h.machine_type));
      for (const catalog::Accelerator& a : cat.accelerators) {
        if (a.legacy && (NormalizeName(a.id) == want || NormalizeName(a.name) == want)) {
          j.Reject(ReasonCode::kNotACandidate,
                   absl::StrCat(a.name, " is legacy hardware: it can be named "
                                        "as a current setup but is never "
                                        "planned."));
          if (a.end_of_support) {
            j.Add(ReasonCode::kEndOfSupport,
                  absl::StrCat("End of support: ", *a.end_of_support, "."));
          }
          return;
        }
      }
      j.Reject(ReasonCode::kNotApplicable,
               "The proposal names no hardware in the catalog.");
      return;
    }
    const bool pinned = h.count > 0 || !h.tpu_topology.empty() || h.slices > 0;
    const Candidate* best = nullptr;
    if (pinned) {
      std::vector<Candidate> copy = field;
      for (const Family* f : fams) {
        Candidate c = internal::Evaluate(cat, job, *f, h.count, h.tpu_topology, h.slices);
        copy[position[f]] = std::move(c);
      }
      internal::RankCandidates(job, copy);
      for (const Candidate& c : copy) {
        if (std::find(fams.begin(), fams.end(), c.family) == fams.end()) continue;
        if (c.viable() && c.config) {
          j.own = c;
          j.secondary = static_cast<double>(&c - copy.data());
          break;
        }
      }
      if (j.own) {
        best = &*j.own;
      } else {
        for (const Candidate& c : copy) {
          if (std::find(fams.begin(), fams.end(), c.family) == fams.end()) continue;
          for (size_t i = 0; i < c.codes.size(); ++i) j.Reject(c.codes[i], c.why[i]);
        }
        return;
      }
    } else {
      for (const Family* f : fams) {
        const Candidate& c = field[position[f]];
        if (c.viable() && c.config &&
            (best == nullptr || position[f] < position[best->family])) {
          best = &c;
        }
      }
      if (best == nullptr) {
        for (const Family* f : fams) {
          const Candidate& c = field[position[f]];
          for (size_t i = 0; i < c.codes.size(); ++i) j.Reject(c.codes[i], c.why[i]);
        }
        return;
      }
      j.secondary = static_cast<double>(position[best->family]);
    }
    j.candidate = best;
    j.tier = 1;
    if (best->price_unknown && job.goal.budget_usd > 0) {
      j.recommendable = false;
      j.Add(ReasonCode::kPriceUnknown,
            absl::StrCat(best->family->name, " has no price in the catalog, "
                         "so it cannot be checked against the ",
                         internal::FormatUsd(job.goal.budget_usd),
                         " budget; it is never recommended under one."));
    }
    for (const std::string& id : best->family->fact_sources) fact_ids.push_back(id);
  };

  for (size_t i = 0; i < r.proposals.size(); ++i) {
    const Proposal& p = r.proposals[i];
    Judged& j = judged[i];
    if (p.hardware) {
      // A layout stated with the hardware: its mesh's DCN degrees must
      // multiply to the proposal's slice count (else the current one).
      if (p.hardware->layout && p.hardware->layout->mesh) {
        const int slices = p.hardware->slices > 0 ? p.hardware->slices
                           : p.hardware->layout->slices > 0
                               ? p.hardware->layout->slices
                               : job.current_slices;
        if (auto why = internal::DcnProductMismatch(*p.hardware->layout->mesh,
                                                    slices)) {
          j.Reject(ReasonCode::kNotApplicable, *why);
          continue;
        }
      }
      judge_hardware(*p.hardware, j);
      if (!j.rejected && internal::AnySymptom(job)) {
        // Hardware choices do not fix a symptom by themselves; they stay
        // comparable to each other but rank after remedies.
        j.tier = 2;
      }
      continue;
    }
    if (p.distribution) {
      const DistributionProposal& d = *p.distribution;
      int slices = d.slices > 0 ? d.slices : job.current_slices;
      if (d.mesh) {
        const MultisliceMesh& m = *d.mesh;
        if (auto why = internal::DcnProductMismatch(m, slices)) {
          j.Reject(ReasonCode::kNotApplicable, *why);
          continue;
        }
        if (slices <= 0) {
          slices = std::max(1, m.dcn_data_parallelism) *
                   std::max(1, m.dcn_fsdp_parallelism) *
                   std::max(1, m.dcn_tensor_parallelism) *
                   std::max(1, m.dcn_pipeline_parallelism);
        }
        if (!job.current.tpu_topology.empty()) {
          const int ici = std::max(1, m.ici_data_parallelism) *
                          std::max(1, m.ici_fsdp_parallelism) *
                          std::max(1, m.ici_tensor_parallelism);
          const int chips = TopologyChips(job.current.tpu_topology);
          if (ici != chips && (m.ici_data_parallelism > 0 ||
                               m.ici_fsdp_parallelism > 0 ||
                               m.ici_tensor_parallelism > 0)) {
            j.Reject(ReasonCode::kNotApplicable,
                     absl::StrFormat("The product of the ici_* axes (%d) must "
                                     "equal the chips per slice (%d).",
                                     ici, chips));
            continue;
          }
        }
      }
      DcnParallelism across = d.across_slices;
      if (across == DcnParallelism::kUnspecified && d.mesh) {
        if (d.mesh->dcn_tensor_parallelism > 1) across = DcnParallelism::kTensor;
        else if (d.mesh->dcn_pipeline_parallelism > 1) across = DcnParallelism::kPipeline;
        else if (d.mesh->dcn_fsdp_parallelism > 1) across = DcnParallelism::kFsdp;
        else if (d.mesh->dcn_data_parallelism > 1) across = DcnParallelism::kData;
      }
      if (d.strategy == Strategy::kIndependentModels || across == DcnParallelism::kNone) {
        j.Reject(ReasonCode::kNoSharedModel,
                 "Independent models per slice never combine into one trained "
                 "model; slices must share the model through data "
                 "parallelism.");
        continue;
      }
      // DCN and ICI bandwidth for the numbers in the reasons.
      const catalog::Accelerator* tpu =
          job.current_accelerator && job.current_accelerator->platform == catalog::Platform::kTpu
              ? job.current_accelerator
              : nullptr;
      double dcn_gbs = 0, ici_gbs = 0;
      for (const Family& f : index_->families) {
        if (f.platform != Platform::kTpu) continue;
        if (tpu != nullptr && f.accelerator != tpu) continue;
        dcn_gbs = f.dcn_bytes_per_s_per_chip / 1e9;
        ici_gbs = f.ici_bytes_per_s / 1e9;
        if (tpu != nullptr || dcn_gbs > 0) break;
      }
      const bool multislice = slices > 1 || across != DcnParallelism::kUnspecified;
      if (multislice && job.mixed_current_slices) {
        j.Reject(ReasonCode::kNeedsIdenticalSlices,
                 absl::StrCat("Multislice needs identical slices; the current "
                              "ones have different topologies (",
                              absl::StrJoin(job.current.slice_topologies, ", "),
                              ")."));
        continue;
      }
      if (multislice) {
        if (across == DcnParallelism::kTensor) {
          j.Reject(ReasonCode::kCommunicationBound,
                   absl::StrFormat(
                       "Tensor parallelism all-reduces activations inside every "
                       "layer; over DCN (%.1f GB/s per chip, against %.0f GB/s "
                       "of ICI) it is communication-bound. Keep it inside a "
                       "slice.", dcn_gbs, ici_gbs));
        } else if (across == DcnParallelism::kPipeline) {
          j.Add(ReasonCode::kSlower,
                "Pipeline stages over DCN work but add pipeline bubbles; XLA "
                "already generates and overlaps the DCN collectives, and data "
                "parallelism across slices is the usual choice.");
          j.tier = 3;
        } else if (across == DcnParallelism::kFsdp) {
          j.Add(ReasonCode::kSlower,
                absl::StrFormat("FSDP across slices re-gathers weights over "
                                "DCN (%.1f GB/s per chip) every step; data "
                                "parallelism across slices sends only the "
                                "gradient once.", dcn_gbs));
          j.tier = 3;
        } else {
          // Data parallel across slices replicates the model in each slice:
          // one slice must hold a replica (FSDP inside it, full recompute).
          const int chips = job.current.tpu_topology.empty()
                                ? 0
                                : TopologyChips(job.current.tpu_topology);
          const double usable =
              tpu != nullptr && tpu->memory_bytes
                  ? tpu->memory_bytes->value * kUsableFraction
                  : 0;
          const double need =
              chips > 0 && job.workload.per_device_memory_gib <= 0
                  ? internal::ReplicaPerSliceBytes(job, chips, std::max(1, slices))
                  : 0;
          if (need > 0 && usable > 0 && need > usable) {
            j.Reject(ReasonCode::kHbmTooSmall,
                     absl::StrFormat(
                         "Data parallelism across slices keeps a whole "
                         "replica in each %s slice: %.1f GiB per chip even "
                         "with FSDP over its %d chips and full recompute, "
                         "over the %.1f GiB usable. Shard across slices "
                         "too: FSDP over DCN (dcn_fsdp_parallelism = %d).",
                         job.current.tpu_topology, need / kGiB, chips,
                         usable / kGiB, std::max(1, slices)));
            continue;
          }
          j.tier = 1;
          j.secondary = 0;
          j.why.push_back(absl::StrFormat(
              "Data parallelism across the %d slices: only the gradient "
              "crosses DCN, once per step (dcn_data_parallelism = %d), while "
              "FSDP/tensor traffic stays on ICI.", slices, slices));
        }
        continue;
      }
      // Single-slice / single-cluster strategies.
      int replicas = d.data_parallelism;
      if (replicas <= 0) replicas = job.current_devices;
      const double need = internal::JobBytesPerReplica(job, replicas);
      double usable = 0;
      if (job.current_accelerator && job.current_accelerator->memory_bytes) {
        usable = job.current_accelerator->memory_bytes->value * kUsableFraction;
      } else if (!field.empty() && field.front().config) {
        usable = field.front().config->usable_bytes;
      }
      const bool fits = need <= 0 || usable <= 0 || need <= usable;
      switch (d.strategy) {
        case Strategy::kDataParallel:
        case Strategy::kSingleDevice:
          if (!fits) {
            j.Reject(ReasonCode::kHbmTooSmall,
                     absl::StrFormat("A full replica needs %.1f GiB per device, "
                                     "more than the %.1f GiB usable: shard the "
                                     "model instead.", need / kGiB, usable / kGiB));
          } else {
            j.tier = 1;
            j.secondary = 0;
            j.why.push_back("The model fits one device: data parallelism "
                            "scales near-linearly.");
          }
          break;
        case Strategy::kHorovod:
          if (CurrentIsTpu(job)) {
            j.Reject(ReasonCode::kNotApplicable,
                     "Horovod runs over MPI/NCCL/Gloo on GPUs and CPUs, not TPUs.");
          } else if (!fits) {
            j.Reject(ReasonCode::kHbmTooSmall,
                     "Horovod is data parallel; a replica does not fit one device.");
          } else {
            j.tier = 1;
            j.secondary = job.constraints.framework_agnostic_distribution ? -1 : 2;
          }
          break;
        case Strategy::kFsdp:
          j.tier = 1;
          j.secondary = fits ? 1 : 0;
          if (fits) {
            j.Add(ReasonCode::kSlower,
                  "The model fits one device; sharding adds all-gather traffic "
                  "that plain data parallelism avoids.");
          }
          break;
        case Strategy::kTensorParallel:
        case Strategy::kPipelineParallel:
        case Strategy::kHybrid:
          j.tier = 1;
          j.secondary = fits ? 2 : 1;
          if (fits) {
            j.Add(ReasonCode::kSlower,
                  "The model fits one device; model parallelism only adds "
                  "communication and bubbles.");
          }
          break;
        default:
          j.tier = 2;
          break;
      }
      continue;
    }
    if (p.remedy) {
      const RemedyProposal& m = *p.remedy;
      const std::vector<Symptom> acts_on = Addresses(m.kind);
      // Applicability first.
      if (m.kind == RemedyKind::kAddReductionServer &&
          !internal::CurrentIsMultiHostNcclGpu(job)) {
        j.Reject(ReasonCode::kNotApplicable,
                 CurrentIsTpu(job)
                     ? "Reduction Server speeds up NCCL all-reduce between GPU "
                       "workers; TPUs synchronise over ICI/DCN."
                     : (job.current.node_count <= 1
                            ? "Reduction Server needs multi-host data-parallel "
                              "training; a single node all-reduces over NVLink."
                            : "Reduction Server needs TensorFlow or PyTorch "
                              "with NCCL all-reduce."));
      }
      if (m.kind == RemedyKind::kMoveToHardware && job.constraints.keep_current_hardware) {
        j.Reject(ReasonCode::kChangesPinnedHardware,
                 absl::StrCat("The team keeps its current hardware (",
                              job.current.hardware, ")."));
      }
      if (m.kind == RemedyKind::kFixTensorShapes &&
          (m.global_batch_size > 0 || !m.layer_widths.empty())) {
        // What the proposal leaves out stays as it is now.
        const int64_t batch = m.global_batch_size > 0
                                  ? m.global_batch_size
                                  : job.current.current_global_batch_size;
        const std::vector<int64_t>& widths =
            !m.layer_widths.empty() ? m.layer_widths : job.current.layer_widths;
        if (!internal::MeetsTpuTiling(batch, widths)) {
          const internal::ShapeRule rule = internal::TpuShapeRule(job.current);
          j.Reject(ReasonCode::kDoesNotAddressBottleneck,
                   absl::StrFormat(
                       "Those sizes still pad: batch %s with widths %s meets "
                       "neither TPU tiling (batch a multiple of %d with "
                       "feature dimensions multiples of %d, or batch a "
                       "multiple of %d with feature dimensions multiples of "
                       "%d); batch %d with widths %s would.",
                       batch > 0 ? absl::StrCat(batch) : "(not given)",
                       widths.empty() ? "(not given)" : absl::StrJoin(widths, ", "),
                       internal::kSmallBatchMultiple,
                       internal::kSmallWidthMultiple,
                       internal::kLargeBatchMultiple,
                       internal::kLargeWidthMultiple, rule.batch,
                       rule.widths.empty() ? "(not given)"
                                           : absl::StrJoin(rule.widths, ", ")));
        }
      }
      if (m.kind == RemedyKind::kUseSpot && job.goal.hard_deadline &&
          !job.workload.checkpoints) {
        j.Reject(ReasonCode::kPreemptionRisk,
                 "Spot VMs can be preempted before the hard deadline and the "
                 "job does not checkpoint.");
      }
      // Out of memory: judge each memory remedy by what it leaves per device
      // on the current hardware (or the target), when the numbers are known.
      if (internal::HasSymptom(job, Symptom::kOutOfMemory) &&
          job.model_size_known && !j.rejected) {
        const int n = std::max(1, job.current_devices);
        const catalog::Accelerator* device = job.current_accelerator;
        if (m.kind == RemedyKind::kMoveToHardware && m.target) {
          const catalog::MachineType* mt =
              m.target->machine_type.empty()
                  ? nullptr
                  : cat.FindMachineType(m.target->machine_type);
          device = mt && !mt->accelerator_id.empty()
                       ? cat.FindAccelerator(mt->accelerator_id)
                       : (!m.target->accelerator.empty()
                              ? cat.FindAccelerator(m.target->accelerator)
                              : nullptr);
        }
        const double usable = device && device->memory_bytes
                                  ? device->memory_bytes->value * kUsableFraction
                                  : 0;
        double need = 0;
        switch (m.kind) {
          case RemedyKind::kShardOptimizerState:
            if (n <= 1) {
              j.Reject(ReasonCode::kNotApplicable,
                       "The job runs on one device: there is nothing to shard "
                       "the optimizer state across.");
            } else {
              need = internal::JobBytesWith(job, n, 3, Recompute::kUnspecified);
            }
            break;
          case RemedyKind::kActivationRecompute:
            need = internal::JobBytesWith(job, n, 0, Recompute::kFull);
            break;
          case RemedyKind::kMoveToHardware:
          case RemedyKind::kMoreMemoryPerDevice:
            need = std::min(internal::JobBytesWith(job, n, 0, Recompute::kUnspecified),
                            n > 1 ? internal::JobBytesWith(job, n, 3, Recompute::kUnspecified)
                                  : std::numeric_limits<double>::infinity());
            break;
          default:
            break;
        }
        if (need > 0 && usable > 0 && need > usable) {
          j.Reject(ReasonCode::kHbmTooSmall,
                   absl::StrFormat("%s still needs %.1f GiB per device; %.1f "
                                   "GiB is usable on %s.",
                                   RemedyLabel(m.kind), need / kGiB,
                                   usable / kGiB, device->name));
        }
      }
      if (internal::AnySymptom(job)) {
        bool addresses = false;
        for (Symptom s : acts_on) addresses |= internal::HasSymptom(job, s);
        if (m.kind == RemedyKind::kMoveToHardware && m.target &&
            internal::HasSymptom(job, Symptom::kOutOfMemory)) {
          addresses = true;  // more memory per device can fix OOM
        }
        if (!addresses) {
          j.Reject(ReasonCode::kDoesNotAddressBottleneck,
                   absl::StrCat(RemedyLabel(m.kind), " does not act on the "
                                "problem: the job is ", SymptomsText(job), "."));
        } else if (!j.rejected) {
          j.tier = 0;
          j.secondary = Directness(m.kind);
          std::string line = absl::StrCat(RemedyLabel(m.kind),
                                          " acts directly on the problem: the "
                                          "job is ", SymptomsText(job), ".");
          if (m.kind == RemedyKind::kFixTensorShapes) {
            const internal::ShapeRule rule = internal::TpuShapeRule(job.current);
            absl::StrAppend(&line, absl::StrFormat(
                " Batch a multiple of %d, feature dimensions multiples of %d "
                "(batch %d -> %d).", rule.batch_multiple, rule.width_multiple,
                job.current.current_global_batch_size, rule.batch));
          }
          j.why.push_back(std::move(line));
        }
      } else if (!j.rejected) {
        j.tier = 2;
        j.secondary = m.kind == RemedyKind::kUseSpot &&
                              job.objective == Objective::kMinCost
                          ? 0
                          : 1 + Directness(m.kind);
        if (m.kind == RemedyKind::kUseHorovod &&
            job.constraints.framework_agnostic_distribution) {
          j.tier = 1;
          j.secondary = -1;
        }
      }
      if (m.kind == RemedyKind::kMoveToHardware && m.target) {
        // The target must itself pass the hard rules (pinning aside, which
        // is judged above): report the codes of its least-rejected family.
        Job relaxed = job;
        relaxed.constraints.keep_current_hardware = false;
        const HardwareProposal& t = *m.target;
        const Candidate* fewest = nullptr;
        std::vector<Candidate> evaluated;
        for (const Family* f : internal::MatchFamilies(
                 *index_, t.platform, t.series, t.accelerator, t.machine_type)) {
          evaluated.push_back(internal::Evaluate(cat, relaxed, *f));
        }
        for (const Candidate& c : evaluated) {
          if (fewest == nullptr || c.codes.size() < fewest->codes.size()) fewest = &c;
        }
        if (fewest != nullptr) {
          for (size_t k = 0; k < fewest->codes.size(); ++k) {
            j.Reject(fewest->codes[k], fewest->why[k]);
          }
        }
      }
      continue;
    }
  }

  // At most one RECOMMENDED: the best non-rejected proposal.
  int best = -1;
  for (size_t i = 0; i < judged.size(); ++i) {
    const Judged& j = judged[i];
    if (j.rejected || !j.recommendable) continue;
    if (best < 0 || j.tier < judged[best].tier ||
        (j.tier == judged[best].tier && j.secondary < judged[best].secondary)) {
      best = static_cast<int>(i);
    }
  }
  const internal::Candidate* best_hw =
      best >= 0 ? (judged[best].own ? &*judged[best].own : judged[best].candidate)
                : nullptr;
  for (size_t i = 0; i < judged.size(); ++i) {
    Judged& j = judged[i];
    ProposalVerdict v;
    v.label = r.proposals[i].label;
    v.index = static_cast<int32_t>(i);
    const Candidate* hw = j.own ? &*j.own : j.candidate;
    if (j.rejected) {
      v.verdict = Verdict::kRejected;
    } else if (static_cast<int>(i) == best) {
      v.verdict = Verdict::kRecommended;
    } else {
      v.verdict = Verdict::kViable;
      if (hw != nullptr && best_hw != nullptr && hw->config && best_hw->config) {
        const internal::Config& a = *hw->config;
        const internal::Config& b = *best_hw->config;
        if (a.price_known && b.price_known && a.hourly > 0 &&
            (job.has_dataset ? a.cost.expected > b.cost.expected
                             : a.hourly / std::max(a.tokens_per_second, 1e-9) >
                                   b.hourly / std::max(b.tokens_per_second, 1e-9))) {
          j.Add(ReasonCode::kHigherCost,
                absl::StrFormat("Costs more than %s.", best_hw->family->name));
        }
        if (job.has_dataset && a.hours.expected > b.hours.expected * 1.0001) {
          j.Add(ReasonCode::kSlower,
                absl::StrFormat("Takes %s vs %s.", internal::FormatHours(a.hours.expected),
                                internal::FormatHours(b.hours.expected)));
        }
        // Communication is a cost: named when, without its exposed
        // communication, this hardware would beat the recommended one.
        if (hw->price_unknown == best_hw->price_unknown &&
            hw->misses_assumed_deadline == best_hw->misses_assumed_deadline &&
            a.step.communication_fraction > 0 &&
            std::isfinite(hw->score_without_comm) &&
            std::isfinite(best_hw->score) &&
            hw->score_without_comm < best_hw->score * (1 - 1e-9)) {
          j.Add(ReasonCode::kCommunicationBound,
                absl::StrCat(internal::CommunicationDetail(job, *hw),
                             "; without that exposed communication it would "
                             "beat ", best_hw->family->name, "."));
        }
        if (job.sparsecore_ranking && hw->family->sparse_cores <= 0) {
          j.Add(ReasonCode::kSlower,
                absl::StrCat(hw->family->name, " has no SparseCores for the "
                             "embedding lookups that dominate the step."));
        }
      }
      if (j.codes.empty() && best >= 0) {
        j.why.push_back(absl::StrCat("Works, but proposal ",
                                     r.proposals[best].label.empty()
                                         ? absl::StrCat("#", best)
                                         : r.proposals[best].label,
                                     " is better for this job."));
      }
    }
    v.codes = j.codes;
    v.reason = absl::StrJoin(j.why, " ");
    if (hw != nullptr && !j.rejected) {
      v.plan = internal::MakePlan(cat, job, *hw, /*with_job_spec=*/false);
      if (v.reason.empty()) {
        v.reason = absl::StrCat(hw->family->name, " meets every hard rule.");
      }
    }
    out.verdicts.push_back(std::move(v));
  }
  out.facts_used = internal::MakeFactRefs(cat, fact_ids);
  return out;
}

}  // namespace accelplan::planner
