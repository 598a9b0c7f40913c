// Stage 4: the sizes a family is searched at, and one point per size.
#include "planner/sizing.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "planner/engine_common.h"
#include "planner/estimates.h"
#include "planner/job_spec.h"
#include "planner/layout_memo.h"
#include "planner/layouts.h"
#include "planner/provisioning.h"
#include "planner/rules.h"

namespace accelplan::planner::internal {

// Across GPU VMs a step needs the network between them: without a figure
// for the shape's machine or the family (Family::inter_vm_bytes_per_s) it
// cannot be timed, and the policy's sequences skip such families.
bool UntimedAcrossVms(const Family& f, const Shape& s) {
  return f.platform == Platform::kGpu && f.inter_vm_bytes_per_s <= 0 &&
         s.machine->network_bits_per_s.value_or(0) <= 0;
}

// " Sizes across VMs are not timed: ..." when the family's fastest point
// is one VM because more cannot be timed (UntimedAcrossVms): "at best"
// is then the best of one VM, not of the family.
std::string UntimedBeyond(const Candidate& cand, const Config& fastest) {
  if (fastest.shape == nullptr || fastest.shape->machine == nullptr ||
      fastest.units > 1 || !UntimedAcrossVms(*cand.family, *fastest.shape)) {
    return "";
  }
  return absl::StrFormat(
      " Sizes across VMs are not timed: the catalog has no network bandwidth "
      "for %s, so more than one VM was not considered.",
      fastest.shape->machine->id);
}

namespace {

// scikit-learn trains on one machine: AddPolicySequences searches it on one
// VM, and a pinned count of VMs is no size of it.
bool TrainsOnOneMachine(const Job& job) {
  return job.classical && job.framework == Framework::kScikitLearn;
}
constexpr const char* kOneMachineOnly =
    "scikit-learn trains on one machine (n_jobs uses that machine's cores): "
    "it has no size of several VMs.";

// Collects the sizes of one family: single units first, then multi-unit
// sequences (VMs of one shape, or identical TPU slices) whose unit count
// is searched over [2, max units].
class SizeCollector {
 public:
  SizeCollector(const Job& job, const Family& f, const Pins& pins,
                SizeSearch& out)
      : job_(job), f_(f), pins_(pins), out_(out) {}

  // One size, unless the pins or constraints exclude it.
  void Consider(const Shape* s, int units) {
    const Constraints& k = job_.constraints;
    const int devices = s->devices * units;
    if (pins_.devices > 0 && devices != pins_.devices) return;
    if (!pins_.topology.empty() &&
        (s->topology == nullptr || s->topology->topology != pins_.topology)) {
      return;
    }
    if (pins_.slices > 0 && f_.platform == Platform::kTpu &&
        units != pins_.slices) {
      return;
    }
    if (k.single_host_only && s->vms * units > 1) {
      out_.excluded_host.push_back({s, units});
      return;
    }
    if (TrainsOnOneMachine(job_) && s->vms * units > 1) {
      out_.excluded_one_machine = true;
      return;
    }
    if (k.max_accelerators > 0 && f_.platform != Platform::kCpu &&
        devices > k.max_accelerators) {
      out_.excluded_max.push_back({s, units});
      return;
    }
    out_.options.push_back({s, units});
  }

  // A sequence of up to `max_units` units of one shape, clipped to the
  // request's constraints; the first count they exclude is kept to explain
  // a rejection.
  void AddSequence(const Shape* s, int max_units) {
    const Constraints& k = job_.constraints;
    if (pins_.sizes()) {
      for (int u = 2; u <= max_units; ++u) Consider(s, u);
      return;
    }
    out_.policy_cap_devices =
        std::max(out_.policy_cap_devices, s->devices * max_units);
    int allowed = max_units;
    // The first count excluded and the last: the last alone can hold more
    // data-parallel ranks than the batch has sequences.
    if (k.single_host_only) {  // two or more units always span hosts
      out_.excluded_host.push_back({s, 2});
      out_.excluded_host.push_back({s, max_units});
      return;
    }
    if (k.max_accelerators > 0 && f_.platform != Platform::kCpu) {
      allowed = std::min(allowed, k.max_accelerators / std::max(1, s->devices));
      if (allowed < max_units) {
        out_.excluded_max.push_back({s, std::max(2, allowed + 1)});
        out_.excluded_max.push_back({s, max_units});
      }
    }
    if (allowed >= 2) {
      sequences_.push_back({s, allowed});
      out_.sequences.push_back({s, allowed});
    }
  }

  // Unit counts of each sequence: every count up to the policy's dense
  // range and its multiples beyond, so that every pipeline depth up to it
  // divides the unit count evenly. All of them are evaluated: a grid
  // refined by bisection missed optima on random jobs (cost and time are
  // not monotone in the count once pipeline bubbles and layout switches
  // enter).
  void ExpandSequences() {
    const int dense = static_cast<int>(kPolicy.dense_units.value);
    for (const Sequence& seq : sequences_) {
      for (int u = 2; u <= std::min(dense, seq.max_units); ++u) {
        out_.options.push_back({seq.shape, u});
      }
      for (int m = 2; m <= seq.max_units / dense; ++m) {
        out_.options.push_back({seq.shape, m * dense});
      }
    }
    // Ascending in devices, as a scan that stops at the first size that
    // holds the job needs: a TPU's second Multislice unit (the largest
    // power-of-two slice) interleaves with the largest slice's counts.
    std::stable_sort(out_.options.begin(), out_.options.end(),
                     [](const SizeOption& a, const SizeOption& b) {
                       return a.shape->devices * a.units <
                              b.shape->devices * b.units;
                     });
  }

 private:
  struct Sequence {
    const Shape* shape;
    int max_units;
  };
  const Job& job_;
  const Family& f_;
  const Pins& pins_;
  SizeSearch& out_;
  std::vector<Sequence> sequences_;
};

// The multi-unit sequences the policy searches for a family.
void AddPolicySequences(const Job& job, const Family& f,
                        const std::vector<const Shape*>& obtainable,
                        SizeCollector& sizes) {
  if (obtainable.empty()) return;
  if (f.platform == Platform::kGpu && f.inter_vm_bytes_per_s > 0) {
    const Shape* big = obtainable.back();
    sizes.AddSequence(
        big, std::min(static_cast<int>(kPolicy.max_gpu_vms.value),
                      static_cast<int>(kPolicy.max_gpus.value) /
                          std::max(1, big->devices)));
  }
  // XGBoost and LightGBM train across CPU VMs (Dask / Spark); scikit-learn
  // does not. (On GPUs LightGBM takes one: KeepOneGpuForLightgbm.)
  const bool distributable_classical =
      job.classical && (job.framework == Framework::kXgboost ||
                        job.framework == Framework::kLightgbm);
  if (f.platform == Platform::kCpu && distributable_classical) {
    const Shape* big = obtainable.front();
    for (const Shape* s : obtainable) {
      if (s->machine->memory_bytes.value_or(0) >
          big->machine->memory_bytes.value_or(0)) {
        big = s;
      }
    }
    sizes.AddSequence(big, static_cast<int>(kPolicy.max_cpu_vms.value));
  }
  const bool serverless =
      ToCatalogRunPlatform(job.constraints.run_platform) ==
      catalog::RunPlatform::kVertexTraining;
  if (f.platform == Platform::kTpu && f.dcn_bytes_per_s_per_chip > 0 &&
      f.largest_multi_host_slice != nullptr && !serverless &&
      MultisliceFrameworkReason(job.framework).empty()) {
    const Shape* p2 = f.power_of_two_multi_host_slice;
    for (const Shape* slice :
         {f.largest_multi_host_slice,
          p2 != f.largest_multi_host_slice ? p2 : nullptr}) {
      if (slice != nullptr && std::find(obtainable.begin(), obtainable.end(),
                                        slice) != obtainable.end()) {
        sizes.AddSequence(slice, static_cast<int>(kPolicy.max_slices.value));
      }
    }
  }
}

// Pinned current hardware that the catalog shapes do not reproduce
// exactly: the nearest shape count. False when that size spans VMs whose
// network the catalog lacks (rejected NOT_APPLICABLE: untimed, its
// collectives would cost nothing).
bool NearestShapeCount(const Job& job, const Family& f,
                       const std::vector<const Shape*>& obtainable,
                       const Pins& pins, Candidate& cand, SizeSearch& out) {
  for (const Shape* s : obtainable) {
    if (s->devices < pins.devices && s != obtainable.back()) continue;
    const int units = std::max(1, (pins.devices + s->devices - 1) / s->devices);
    const bool spans_vms = units * s->vms > 1;
    if (spans_vms && job.constraints.single_host_only) return true;
    // The request's cap holds for a stated count too (Consider applies it
    // to the exact count; this is the count the shapes round it to).
    const int max = job.constraints.max_accelerators;
    if (max > 0 && f.platform != Platform::kCpu && units * s->devices > max) {
      out.excluded_max.push_back({s, units});
      return true;
    }
    if (spans_vms && TrainsOnOneMachine(job)) {
      cand.Reject(ReasonCode::kNotApplicable, kOneMachineOnly);
      return false;
    }
    if (f.platform == Platform::kTpu && units > 1 &&
        ToCatalogRunPlatform(job.constraints.run_platform) ==
            catalog::RunPlatform::kVertexTraining) {
      // More chips than one slice holds: slices, which Vertex does not run.
      cand.Reject(ReasonCode::kNotOfferedOnPlatform,
                  absl::StrCat(f.name, ": ", VertexHasNoMultislice(units), "."));
      return false;
    }
    if (spans_vms && UntimedAcrossVms(f, *s)) {
      cand.Reject(
          ReasonCode::kNotApplicable,
          absl::StrFormat(
              "%s has no network bandwidth in the catalog for %s, so %d of "
              "its VMs (%d accelerators) cannot be timed: their gradient "
              "traffic would look free. One VM holds up to %d.",
              f.name, s->machine->id, units, units * s->devices,
              obtainable.back()->devices));
      return false;
    }
    out.options.push_back({s, units});
    return true;
  }
  return true;
}

// Multislice over single-host slices is not offered (SPEC §4): rejects it,
// naming the one multi-host slice with the same chips instead.
bool RejectSingleHostMultislice(const Family& f, const Pins& pins,
                                Candidate& cand) {
  const Shape* pinned_shape = nullptr;
  for (const Shape& s : f.shapes) {
    if (s.topology != nullptr && s.topology->topology == pins.topology) {
      pinned_shape = &s;
    }
  }
  if (pinned_shape == nullptr || pinned_shape->vms != 1) return false;
  const int chips = pinned_shape->devices * pins.slices;
  const Shape* same = nullptr;
  for (const Shape& s : f.shapes) {
    if (s.topology != nullptr && s.vms > 1 && s.devices >= chips &&
        (same == nullptr || s.devices < same->devices)) {
      same = &s;
    }
  }
  cand.Reject(
      ReasonCode::kNeedsMultiHostSlices,
      same != nullptr
          ? absl::StrFormat(
                "Multislice needs multi-host slices; %d x %s %s (%d chips) "
                "are single-host. One %s slice (%d chips) gives the same "
                "chips over ICI instead of DCN.",
                pins.slices, f.name, pins.topology, chips,
                same->topology->topology, same->devices)
          : absl::StrFormat(
                "Multislice needs multi-host slices; %d x %s %s are "
                "single-host.",
                pins.slices, f.name, pins.topology));
  return true;
}

// The point's layout, memory and step (planner/layouts.h), or the ones a
// rejection's earlier what-if chose at this size (planner/layout_memo.h).
void ChooseOrReuseLayout(const Job& job, const Family& f, const LayoutPin& pin,
                         Config& c) {
  LayoutMemo* memo = job.layout_memo;
  const double cap = job.assumed_batch_rank_cap;
  if (memo != nullptr) {
    if (const Config* known = memo->Find(f, pin, c.shape, c.units, cap)) {
      const Provisioning p = c.provisioning;
      c = *known;  // it did not read the provisioning
      c.provisioning = p;
      return;
    }
  }
  ChooseLayout(job, f, c, pin);
  if (memo != nullptr) memo->Keep(f, pin, cap, c);
}

}  // namespace

// LightGBM's GPU builds train on one GPU ("Currently cuda version only
// supports training on a single GPU", its fatal error for num_gpu > 1;
// https://github.com/lightgbm-org/LightGBM/issues/6045, still so in
// issue 6928, 2025): larger sizes are no LightGBM layout. False (rejected)
// when the family has no one-GPU size.
bool KeepOneGpuForLightgbm(const Job& job, const Family& f, Candidate& cand,
                           SizeSearch& out) {
  if (job.framework != Framework::kLightgbm || f.platform != Platform::kGpu) {
    return true;
  }
  auto several = [](const SizeOption& o) {
    return o.shape->devices * o.units > 1;
  };
  out.options.erase(
      std::remove_if(out.options.begin(), out.options.end(), several),
      out.options.end());
  out.sequences.clear();
  if (!out.options.empty()) return true;
  cand.Reject(ReasonCode::kNotApplicable,
              absl::StrCat("LightGBM trains on one GPU (its CUDA build "
                           "supports no multi-GPU training), and ",
                           f.name, " has no one-GPU VM the request allows."));
  return false;
}

bool EnumerateSizes(const Job& job, const Family& f,
                    const std::vector<const Shape*>& obtainable,
                    const Pins& given_pins, Candidate& cand, SizeSearch& out) {
  Pins pins = given_pins;
  if (f.platform == Platform::kTpu &&
      ToCatalogRunPlatform(job.constraints.run_platform) ==
          catalog::RunPlatform::kVertexTraining) {
    // Serverless training documents no Multislice: a pinned one is not
    // offered where the request runs.
    if (pins.slices > 1) {
      cand.Reject(ReasonCode::kNotOfferedOnPlatform,
                  absl::StrCat(f.name, ": ", VertexHasNoMultislice(pins.slices),
                               "; GKE and Compute Engine run it."));
      return false;
    }
    pins.slices = 0;
  }
  out.options.reserve(f.shapes.size() + 20);
  SizeCollector sizes(job, f, pins, out);
  for (const Shape* s : obtainable) sizes.Consider(s, 1);
  if (f.platform == Platform::kTpu && pins.slices > 1) {
    // A pinned Multislice setup (today's, which runs, or a proposal's,
    // whose framework review_hardware.cc checks): that many identical
    // multi-host slices.
    for (const Shape* s : obtainable) {
      if (s->vms > 1) sizes.Consider(s, pins.slices);
    }
    if (RejectSingleHostMultislice(f, pins, cand)) return false;
  } else {
    AddPolicySequences(job, f, obtainable, sizes);
  }
  sizes.ExpandSequences();
  if (out.options.empty() && out.excluded_one_machine) {
    cand.Reject(ReasonCode::kNotApplicable, kOneMachineOnly);
    return false;
  }
  // A stated count the request's cap excluded is not rounded to a shape.
  if (out.options.empty() && out.excluded_max.empty() && pins.devices > 0 &&
      pins.topology.empty() &&
      !NearestShapeCount(job, f, obtainable, pins, cand, out)) {
    return false;
  }
  if (!KeepOneGpuForLightgbm(job, f, cand, out)) return false;
  if (pins.min_devices > 0) {
    auto fewer = [&](const SizeOption& o) {
      return o.shape->devices * o.units < pins.min_devices;
    };
    out.options.erase(
        std::remove_if(out.options.begin(), out.options.end(), fewer),
        out.options.end());
  }
  // Once per shape: a family has a few shapes and up to hundreds of sizes.
  std::vector<int> by_shape(f.shapes.size(), -1);
  const auto in_family = [&](const Shape* s) {
    return std::less_equal<>()(f.shapes.data(), s) &&
           std::less<>()(s, f.shapes.data() + f.shapes.size());
  };
  for (SizeOption& o : out.options) {
    if (!in_family(o.shape)) {  // not one of f.shapes: no slot to keep it in
      o.provisioning =
          ProvisioningFor(job, f, *o.shape).value_or(Provisioning::kOnDemand);
      continue;
    }
    int& known = by_shape[static_cast<size_t>(o.shape - f.shapes.data())];
    if (known < 0) {
      known = static_cast<int>(
          ProvisioningFor(job, f, *o.shape).value_or(Provisioning::kOnDemand));
    }
    o.provisioning = static_cast<Provisioning>(known);
  }
  return true;
}

Config BuildPoint(const Job& job, const Family& f, const SizeOption& o,
                  const LayoutPin& only_layout) {
  Config c;
  c.shape = o.shape;
  c.units = o.units;
  c.devices = o.shape->devices * o.units;
  c.hosts = o.shape->vms * o.units;
  c.slices = f.platform == Platform::kTpu ? o.units : 1;
  std::string note;
  c.peak_flops = PeakFlops(f, *o.shape, job.precision,
                           Fp32RunsAsTf32(job.workload), nullptr, &note);
  // Before the layout: whether a Reduction Server runs depends on it.
  c.provisioning = o.provisioning;
  ChooseOrReuseLayout(job, f, only_layout, c);
  Price(job, c, c.provisioning);
  JudgePointProvisioning(job, f, c);  // planner/provisioning.h
  return c;
}

}  // namespace accelplan::planner::internal
