// Calibration against published measured runs (issue 14, docs/planner.md
// §"Calibration"): every TEST-half run of tests/planner/calibration/runs.csv
// (its URL on the row) is rebuilt as a ReviewPlan hardware proposal on the
// same accelerator and count, with the run's model shape, batch, precision,
// framework and recompute. The ratio is accelplan's expected step time ÷
// the published one; the one rule for every row is the published step time
// inside accelplan's low–high range. Each row is reported; the aggregate
// target (at least 80% inside, median ratio in 0.9–1.1) is asserted. The
// FIT half set the catalog's measured_efficiency table and is reported by
// the same code for comparison, never asserted.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "planner/planner.h"
#include "planner/policy.h"
#include "planner/types.h"
#include "tests/planner/catalog_planner_test.h"

namespace accelplan::planner {
namespace {

using Row = std::map<std::string, std::string>;

// Issue 14's target on the test half is 80% inside; the model reaches 20
// of 23 (87%) since the Qwen3 row (G26) carries its published shape,
// head_dim included. The misses are mixture-of-experts runs (T13, G28: one
// MoE band per class does not span Mixtral and DeepSeek) and a
// power-limited B200 (G35). Five GB200 NVL72 runs (G36-G40) joined at stop
// 27: four inside; DeepSeek-V3 on 256 GB200 (G36, ratio 1.28) misses because
// the layout ranking (modelled TP and pipeline costs) takes TP 4 x PP 8,
// whose calibrated step is slower than the FSDP + EP 64 it passes over
// (1.15), docs/planner.md §13. Stop 36 added 19 runs (G41-G52, T24-T30:
// gpu-recipes NeMo on A3 Mega/A3 Ultra/A4, OPT-175B, OLMo-core, MaxText
// v5e/v5p/v4 tables, PyTorch/XLA on v6e), 15 inside; the misses are
// Megatron fp8 on H200 (G44, G45: its fp8 class has one torchtitan run)
// and B200 (G47, just outside), and Mixtral on B200 (G48, the MoE band).
// Two more runs of that search (Llama 3.1 405B on 8,192 and 16,384 H100s,
// arXiv:2407.21783 Table 4) are not rows: the memory model does not hold
// their published layout without recompute (docs/planner.md §13, Stop 36).
// Stop 37 added 24 TPU runs (T31-T54): the MaxText v5e and v4 Multislice
// tables at 2-32 slices, Gemma 3 12B and Llama 2 70B on v6e (tpu-recipes);
// 21 inside. The Multislice rows drift from 1.00 to 0.85 expected/published
// as slices grow (DCN data parallelism is modelled as hidden behind the
// compute, docs/planner.md §13 Stop 37). Gemma 3 (T51-T53) missed at
// 1.53-1.75 until stop 38 counted its sliding-window layers at their window
// (1.13 / 1.06 / 0.99 now). Stop 38 added 18 runs (T55-T70, G53-G60:
// tpu-recipes on TPU7x, v5p and v6e, Megatron-Bridge on B200, GB200 and
// H100); T55 joined the fit half as TPU7x's first measured run, 17 are
// test rows, 10 inside. The misses are mixture-of-experts runs again:
// fine-grained top-4/top-8 routing slower than the MoE band (GPT-OSS on
// TPU7x T62/T63 0.49; Qwen3-235B on 256 B200 G56 0.79) and coarse or bf16
// Blackwell runs faster (Llama 4 Scout T68 1.84; GPT-OSS, DeepSeek-V3 and
// Qwen3-235B in bf16 on GB200 G57-G59 1.42-2.08), docs/planner.md §13.
// Asserted: what is reached, so a regression fails (docs/planner.md,
// Calibration).
constexpr double kInsideTarget = 73.0 / 88;
constexpr double kMedianLow = 0.9;
constexpr double kMedianHigh = 1.1;

std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  const size_t end = !line.empty() && line.back() == '\r' ? line.size() - 1
                                                          : line.size();
  for (size_t i = 0; i < end; ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < end && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"' && out.back().empty()) {
      quoted = true;  // a quote opens a field only at its start (RFC 4180)
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

bool IsMemoryRow(const Row& r) {
  return r.at("measured_metric").rfind("peak_mem", 0) == 0;
}

// Every row of the set, step-time and memory alike.
std::vector<Row> LoadRows() {
  std::ifstream in(ACCELPLAN_CALIBRATION_CSV);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = SplitCsvLine(line);
    Row r;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) {
      r[header[i]] = cells[i];
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// Time figures only: memory companions (M..) are not step times.
std::vector<Row> LoadRuns() {
  std::vector<Row> out;
  for (Row& r : LoadRows()) {
    const std::string& m = r["measured_metric"];
    if (m == "mfu" || m == "step_time_s" || m == "tokens_per_s_per_device") {
      out.push_back(std::move(r));
    }
  }
  return out;
}

std::vector<Row> LoadMemoryRows() {
  std::vector<Row> out;
  for (Row& r : LoadRows()) {
    if (IsMemoryRow(r)) out.push_back(std::move(r));
  }
  return out;
}

double Num(const Row& r, const std::string& key) {
  auto it = r.find(key);
  if (it == r.end() || it->second.empty()) return 0;
  return std::atof(it->second.c_str());
}

bool Contains(const Row& r, const std::string& key, const std::string& s) {
  auto it = r.find(key);
  if (it == r.end()) return false;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), ::tolower);
  return v.find(s) != std::string::npos;
}

struct Target {
  Platform platform;
  std::string machine_type;  // GPUs
  std::string accelerator;   // TPUs
  double peak_bf16;          // for MFU rows: the peak the source divided by
};

// The Google Cloud machine type of the run's accelerator.
Target TargetOf(const Row& r) {
  if (Contains(r, "hardware", "tpu7x"))
    return {Platform::kTpu, "", "tpu7x", 2307e12};
  if (Contains(r, "hardware", "v4")) return {Platform::kTpu, "", "tpu-v4", 275e12};
  if (Contains(r, "hardware", "v5e")) return {Platform::kTpu, "", "tpu-v5e", 197e12};
  if (Contains(r, "hardware", "v5p")) return {Platform::kTpu, "", "tpu-v5p", 459e12};
  if (Contains(r, "hardware", "v6e")) return {Platform::kTpu, "", "tpu-v6e", 918e12};
  if (Contains(r, "hardware", "a100 sxm 40"))
    return {Platform::kGpu, "a2-highgpu-8g", "", 312e12};
  if (Contains(r, "hardware", "a100"))
    return {Platform::kGpu, "a2-ultragpu-8g", "", 312e12};
  if (Contains(r, "hardware", "h200"))
    return {Platform::kGpu, "a3-ultragpu-8g", "", 989e12};
  // The published H100 runs spanning VMs ran on 3,200 Gbps-per-node
  // InfiniBand/RoCE fabrics (DGX H100, Grand Teton): the Google Cloud H100
  // machine closest to that is A3 Mega (1,800 Gbps GPUDirect-TCPXO), not
  // A3 High (1,000 Gbps). Inside one VM the network does not enter.
  if (Contains(r, "hardware", "h100")) {
    return {Platform::kGpu,
            Num(r, "device_count") > 8 ? "a3-megagpu-8g" : "a3-highgpu-8g",
            "", 989e12};
  }
  // A DGX GB200 NVL72 is a4x-highgpu-4g's rack: 4 GPUs per tray (VM), 72
  // per NVLink domain.
  if (Contains(r, "hardware", "gb200")) {
    return {Platform::kGpu, "a4x-highgpu-4g", "", 2500e12};
  }
  return {Platform::kGpu, "a4-highgpu-8g", "", 2250e12};  // B200
}

bool Fp8(const Row& r) { return Contains(r, "precision", "fp8"); }

// The run's global step, in seconds, as published (MFU rows through the
// source's own FLOPs basis, 6·N + 12·L·h·s per token, and its peak).
// PaLM (an MFU figure) publishes no per-step batch; an MFU compares at any
// batch, so a nominal 2,048 sequences is used on both sides.
double BatchSeqs(const Row& r) {
  const double b = Num(r, "global_batch_seqs");
  return b > 0 ? b : 2048;
}

double PublishedStepSeconds(const Row& r) {
  const double n = Num(r, "device_count");
  const double tokens = BatchSeqs(r) * Num(r, "seq_len");
  const std::string& m = r.at("measured_metric");
  if (m == "step_time_s") return Num(r, "measured_value");
  if (m == "tokens_per_s_per_device") {
    return tokens / (Num(r, "measured_value") * n);
  }
  const double p = Num(r, "params_active") > 0 ? Num(r, "params_active")
                                               : Num(r, "params_total");
  const double per_token = 6 * p + 12 * Num(r, "layers") * Num(r, "hidden") *
                                       Num(r, "seq_len");
  const double peak = TargetOf(r).peak_bf16 * (Fp8(r) ? 2 : 1);
  return per_token * tokens / (n * peak * Num(r, "measured_value"));
}

// Long enough that the job's start-up (kPolicy.job_startup_hours) is a
// small share of its hours and cost, as on the published runs' clusters:
// with 100 steps a row's proposal would lose to a smaller shape on its
// start-up alone (OVERSIZED_FOR_WORKLOAD).
constexpr int kSteps = 10000;

// The routed experts and top-k the model column states ("MoE 8 experts
// top-2", "MoE 256 routed top-8 + 1 shared"); 0 when it states none.
struct Moe {
  int experts = 0;
  int per_token = 0;
};
Moe MoeOf(const Row& r) {
  Moe out;
  const std::string& m = r.at("model");
  const size_t moe = m.find("MoE ");
  if (moe == std::string::npos) return out;
  out.experts = std::atoi(m.c_str() + moe + 4);
  const size_t top = m.find("top-", moe);
  if (top != std::string::npos) out.per_token = std::atoi(m.c_str() + top + 4);
  return out;
}

// The slices a Multislice run states ("Multislice 8 slices", "2 x
// v4-128", "2 pods"); 0 (the planner's choice) where it states none.
int SlicesOf(const Row& r) {
  const std::string& p = r.at("parallelism");
  if (Contains(r, "parallelism", "2 pods")) return 2;
  int n = 0;
  char tail[16] = {0};
  if (std::sscanf(p.c_str(), "Multislice %d slice%15s", &n, tail) == 2 ||
      std::sscanf(p.c_str(), "Multislice %d x v%15s", &n, tail) == 2 ||
      std::sscanf(p.c_str(), "%d x v%15s", &n, tail) == 2) {
    return n;
  }
  return 0;
}

ReviewRequest RequestOf(const Row& r) {
  ReviewRequest q;
  Workload& w = q.workload;
  w.framework = Contains(r, "framework", "jax") ? Framework::kJax
                                                : Framework::kPytorch;
  w.model_kind = ModelKind::kDenseTransformer;
  w.parameter_count = Num(r, "params_total");
  w.active_parameter_count = Num(r, "params_active");
  const Moe moe = MoeOf(r);
  w.num_experts = moe.experts;
  w.experts_per_token = moe.per_token;
  TransformerShape& s = w.transformer_shape;
  s.layers = static_cast<int>(Num(r, "layers"));
  s.hidden_size = static_cast<int>(Num(r, "hidden"));
  s.attention_heads = static_cast<int>(Num(r, "heads"));
  s.num_kv_heads = static_cast<int>(Num(r, "kv_heads"));
  s.head_dim = static_cast<int>(Num(r, "head_dim"));
  s.ffn_hidden_size = static_cast<int>(Num(r, "ffn_hidden"));
  s.vocab_size = static_cast<int>(Num(r, "vocab"));
  s.sequence_length = static_cast<int>(Num(r, "seq_len"));
  s.gated_ffn = true;
  s.sliding_window = static_cast<int>(Num(r, "sliding_window"));
  s.global_attention_every = static_cast<int>(Num(r, "global_attention_every"));
  if (s.layers <= 0 || s.hidden_size <= 0) s = TransformerShape{};
  if (s.layers == 0) s.sequence_length = static_cast<int>(Num(r, "seq_len"));
  w.precision = Fp8(r) ? Precision::kFp8 : Precision::kBf16Mixed;
  if (Contains(r, "recompute", "full")) w.recompute = Recompute::kFull;
  if (Contains(r, "recompute", "selective")) w.recompute = Recompute::kSelective;
  if (Contains(r, "recompute", "none")) w.recompute = Recompute::kNone;
  // MaxText custom remat with tensors set to offload: the layer inputs (or
  // projections) in host memory, the rest recomputed.
  if (Contains(r, "recompute", "offload")) w.recompute = Recompute::kOffload;
  // bf16 weights keep optax's Adam moments in bf16 too (weight_dtype and
  // its source on the row).
  if (Contains(r, "weight_dtype", "bfloat16")) {
    w.optimizer = Optimizer::kAdamBf16;
  }
  // PyTorch/XLA runs reach TPUs through XLA, and state their optimizer
  // where it is not Adam (Adafactor: the run's train.sh, quoted in notes).
  if (Contains(r, "framework", "pytorch/xla")) w.pytorch_xla_ok = true;
  if (Contains(r, "notes", "adafactor")) w.optimizer = Optimizer::kAdafactor;
  w.global_batch_size = static_cast<int64_t>(BatchSeqs(r));
  w.steps = kSteps;
  q.as_of = "2026-09-26";
  // Capacity does not change a step: A4 is reservation-only.
  q.constraints.reservation_available = true;
  const Target t = TargetOf(r);
  Proposal p;
  p.label = r.at("id");
  p.hardware = HardwareProposal{};
  p.hardware->platform = t.platform;
  p.hardware->machine_type = t.machine_type;
  p.hardware->accelerator = t.accelerator;
  p.hardware->count = static_cast<int>(Num(r, "device_count"));
  p.hardware->slices = SlicesOf(r);
  q.proposals.push_back(p);
  return q;
}

struct Result {
  std::string id, split, url;
  std::string why;  // no estimate: the verdict's reason
  std::string layout;  // the layout accelplan chose
  bool estimated = false;
  double published = 0, low = 0, expected = 0, high = 0;
  double ratio() const { return expected / published; }
  bool inside() const { return estimated && low <= published && published <= high; }
};

class CalibrationTest : public CatalogPlannerTest {
 public:
  static Result Evaluate(const Row& r) {
    Result out;
    out.id = r.at("id");
    out.split = r.at("split");
    out.url = r.at("url");
    out.published = PublishedStepSeconds(r);
    const ReviewResponse resp = planner_->Review(RequestOf(r));
    if (resp.verdicts.empty()) return out;
    out.why = resp.verdicts[0].reason;
    if (!resp.verdicts[0].plan) return out;
    const Estimates& e = resp.verdicts[0].plan->estimates;
    if (!e.hours_known) return out;
    out.estimated = true;
    const Distribution& d = resp.verdicts[0].plan->distribution;
    out.layout = absl::StrFormat(
        "dp %d fsdp %d tp %d pp %d ep %d v %d mb %dx%d, %.0f%% comm",
        d.data_parallelism, d.fsdp_parallelism, d.tensor_parallelism,
        d.pipeline_parallelism, d.expert_parallelism,
        d.virtual_pipeline_stages, d.micro_batch_size,
        d.micro_batches, 100 * e.communication_fraction);
    // Published step times are steady training; the plan's hours also
    // hold the job's start-up, once.
    const double startup = kPolicy.job_startup_hours.value;
    out.low = (e.total_hours.low - startup) * 3600 / kSteps;
    out.expected = (e.total_hours.expected - startup) * 3600 / kSteps;
    out.high = (e.total_hours.high - startup) * 3600 / kSteps;
    return out;
  }
};

struct Summary {
  double inside = 0;
  double median = 0;
  int rows = 0;
};

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t k = values.size() / 2;
  return values.size() % 2 ? values[k] : 0.5 * (values[k - 1] + values[k]);
}

Summary Summarise(const std::vector<Result>& results) {
  Summary s;
  std::vector<double> ratios;
  for (const Result& r : results) {
    ++s.rows;
    s.inside += r.inside();
    if (r.estimated) ratios.push_back(r.ratio());
  }
  if (s.rows > 0) s.inside /= s.rows;
  s.median = Median(ratios);
  return s;
}

std::vector<Result> EvaluateHalf(const std::string& half) {
  std::vector<Result> out;
  for (const Row& r : LoadRuns()) {
    if (r.at("split") == half) out.push_back(CalibrationTest::Evaluate(r));
  }
  return out;
}

void Report(const std::vector<Result>& results) {
  for (const Result& r : results) {
    std::printf("| %s | %s | %.4g | %.4g | %.4g | %.4g | %.2f | %s | %s |\n",
                r.id.c_str(), r.split.c_str(), r.published, r.low, r.expected,
                r.high, r.estimated ? r.ratio() : 0.0,
                r.inside() ? "inside" : "OUTSIDE", r.layout.c_str());
  }
}

// One test per TEST-half run: the run is reviewed and its figures are
// reported; a run accelplan cannot estimate (none fits, say) counts as
// outside in the aggregate below, which is the assertion.
class CalibrationRowTest : public CalibrationTest,
                           public ::testing::WithParamInterface<Row> {};

TEST_P(CalibrationRowTest, EstimatesThePublishedRun) {
  const Result r = Evaluate(GetParam());
  EXPECT_GT(r.published, 0) << r.id;
  if (!r.estimated) {
    std::printf("%s (%s): no estimate: %s\n", r.id.c_str(), r.url.c_str(),
                r.why.c_str());
    return;
  }
  RecordProperty("published_step_s", absl::StrFormat("%.4g", r.published));
  RecordProperty("accelplan_low_expected_high_s",
                 absl::StrFormat("%.4g/%.4g/%.4g", r.low, r.expected, r.high));
  RecordProperty("ratio", absl::StrFormat("%.3f", r.ratio()));
  RecordProperty("inside", r.inside() ? "yes" : "no");
  std::printf("%s ratio %.2f %s (%s)\n", r.id.c_str(), r.ratio(),
              r.inside() ? "inside" : "OUTSIDE", r.url.c_str());
}

std::vector<Row> TestRows() {
  std::vector<Row> out;
  for (const Row& r : LoadRuns()) {
    if (r.at("split") == "test") out.push_back(r);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    TestHalf, CalibrationRowTest, ::testing::ValuesIn(TestRows()),
    [](const ::testing::TestParamInfo<Row>& info) {
      return info.param.at("id");
    });

TEST_F(CalibrationTest, TestHalfMeetsTheTarget) {
  const std::vector<Result> test = EvaluateHalf("test");
  ASSERT_GE(test.size(), 20u);
  Report(test);
  const Summary s = Summarise(test);
  std::printf("test half: %d rows, %.0f%% inside, median ratio %.3f\n", s.rows,
              100 * s.inside, s.median);
  EXPECT_GE(s.inside, kInsideTarget);
  EXPECT_GE(s.median, kMedianLow);
  EXPECT_LE(s.median, kMedianHigh);
}

TEST_F(CalibrationTest, FitHalfIsReported) {
  const std::vector<Result> fit = EvaluateHalf("fit");
  Report(fit);
  const Summary s = Summarise(fit);
  std::printf("fit half: %d rows, %.0f%% inside, median ratio %.3f\n", s.rows,
              100 * s.inside, s.median);
  EXPECT_GT(s.rows, 0);
}

// ---- Memory per device (the M rows)
//
// accelplan's memory per device is one modelled figure, not a range, so
// the one rule for every memory row is a single tolerance: the published
// peak within the headroom the planner reserves. A plan is said to fit
// when the model needs at most (1 − h) of device memory (h =
// kPolicy.headroom_fraction, 10%), so the model may undercount by at most
// that much before a plan it says fits does not, and is held to the same
// margin the other way: modelled ÷ published in [1 − h, 1 ÷ (1 − h)].
// The request states what the figure depends on: the run's per-device
// micro-batch (the row's micro_batch; for a pipelined run that is its
// local batch, which the schedule splits, so none is given), its
// recompute level, and its layout's strategy from the parallelism column
// (FSDP; FSDP + TP: hybrid; + PP: pipeline) with the degrees it states
// (fsdp=, tp=, pp=). Memory per device does not
// depend on the device's capacity, so each run is reviewed on its GPU
// generation's largest-memory machine type (Hopper: a3-ultragpu-8g,
// Blackwell: a4-highgpu-8g): the 96 GB H100s of the torchtitan rows are
// not offered on Google Cloud.
constexpr double kGiBytes = 1024.0 * 1024 * 1024;

struct MemoryResult {
  std::string id, split, url, why, layout;
  bool estimated = false;
  double published_gib = 0, modelled_gib = 0;
  double ratio() const { return modelled_gib / published_gib; }
  bool inside() const {
    const double h = kPolicy.headroom_fraction.value;
    return estimated && ratio() >= 1 - h && ratio() <= 1 / (1 - h);
  }
};

// The degree the parallelism column states for one dimension ("tp=8"),
// 0 when it names none.
int Degree(const Row& r, const std::string& key) {
  const std::string& p = r.at("parallelism");
  for (size_t at = p.find(key); at != std::string::npos;
       at = p.find(key, at + 1)) {
    if (at > 0 && std::isalnum(static_cast<unsigned char>(p[at - 1]))) continue;
    return std::atoi(p.c_str() + at + key.size());
  }
  return 0;
}

ReviewRequest MemoryRequestOf(const Row& r) {
  ReviewRequest q = RequestOf(r);
  const bool pipelined = Contains(r, "parallelism", "pp=");
  if (!pipelined) {
    q.workload.micro_batch_size = static_cast<int64_t>(Num(r, "micro_batch"));
  }
  HardwareProposal& h = *q.proposals[0].hardware;
  h.machine_type =
      Contains(r, "hardware", "b200") ? "a4-highgpu-8g" : "a3-ultragpu-8g";
  h.layout = DistributionProposal{};
  h.layout->strategy = pipelined ? Strategy::kPipelineParallel
                       : Contains(r, "parallelism", "tp=") ? Strategy::kHybrid
                                                           : Strategy::kFsdp;
  h.layout->fsdp_parallelism = Degree(r, "fsdp=");
  h.layout->tensor_parallelism = Degree(r, "tp=");
  h.layout->pipeline_parallelism = Degree(r, "pp=");
  return q;
}

MemoryResult EvaluateMemory(const Row& r) {
  MemoryResult out;
  out.id = r.at("id");
  out.split = r.at("split");
  out.url = r.at("url");
  const double value = Num(r, "measured_value");
  out.published_gib = r.at("measured_metric") == "peak_mem_gb"
                          ? value * 1e9 / kGiBytes
                          : value;
  const ReviewResponse resp =
      CalibrationTest::planner_->Review(MemoryRequestOf(r));
  if (resp.verdicts.empty()) return out;
  out.why = resp.verdicts[0].reason;
  if (!resp.verdicts[0].plan) return out;
  const Plan& plan = *resp.verdicts[0].plan;
  if (!plan.estimates.memory_known) return out;
  out.estimated = true;
  out.modelled_gib = plan.estimates.memory_per_device.total_gib;
  const Distribution& d = plan.distribution;
  out.layout = absl::StrFormat(
      "dp %d fsdp %d tp %d pp %d v %d, micro-batch %d x %d",
      d.data_parallelism, d.fsdp_parallelism, d.tensor_parallelism,
      d.pipeline_parallelism, d.virtual_pipeline_stages, d.micro_batch_size,
      d.micro_batches);
  return out;
}

// What the memory model reaches under that rule: 2 of 6 (docs/planner.md
// §14 says why: M01/M02, torchtitan's December 2024 op-level SAC, match
// the matmul-outputs count; its 2025 rows M05/M06 keep less, 1.3-1.5x;
// full recompute with TP at micro-batch 16, M03, keeps more than the layer
// inputs, one layer's working set and 4·sbv logits, 0.52x; M04 is planned
// at another layout than the run's). Asserted: every row is estimated and
// no fewer rows fall inside than now, so a regression fails.
constexpr int kMemoryInsideReached = 2;

TEST_F(CalibrationTest, MemoryPerDeviceWithinTheHeadroom) {
  const std::vector<Row> rows = LoadMemoryRows();
  ASSERT_GE(rows.size(), 6u);
  int inside = 0;
  for (const Row& row : rows) {
    const MemoryResult r = EvaluateMemory(row);
    std::printf("| %s | %s | %.4g GiB | %.4g GiB | %.2f | %s | %s |\n",
                r.id.c_str(), r.split.c_str(), r.published_gib,
                r.modelled_gib, r.estimated ? r.ratio() : 0.0,
                r.inside() ? "inside" : "OUTSIDE",
                r.estimated ? r.layout.c_str() : r.why.c_str());
    EXPECT_TRUE(r.estimated) << r.id << " (" << r.url << "): " << r.why;
    inside += r.inside();
  }
  std::printf("memory rows: %d of %zu within +-%.0f%% headroom\n", inside,
              rows.size(), 100 * kPolicy.headroom_fraction.value);
  EXPECT_GE(inside, kMemoryInsideReached);
}

// The target over the whole test half: its step-time rows under
// the range rule and its memory rows under the headroom rule, one ratio
// (modelled ÷ published) per row for the median.
constexpr double kInsideTargetWithMemory = 0.8;

TEST_F(CalibrationTest, TestHalfWithItsMemoryRowsMeetsTheTarget) {
  int rows = 0, inside = 0;
  std::vector<double> ratios;
  for (const Result& r : EvaluateHalf("test")) {
    ++rows;
    inside += r.inside();
    if (r.estimated) ratios.push_back(r.ratio());
  }
  for (const Row& row : LoadMemoryRows()) {
    if (row.at("split") != "test") continue;
    const MemoryResult r = EvaluateMemory(row);
    ++rows;
    inside += r.inside();
    if (r.estimated) ratios.push_back(r.ratio());
  }
  ASSERT_FALSE(ratios.empty());
  const double median = Median(ratios);
  std::printf("test half with memory rows: %d of %d inside (%.0f%%), median "
              "ratio %.3f\n",
              inside, rows, 100.0 * inside / rows, median);
  EXPECT_GE(static_cast<double>(inside) / rows, kInsideTargetWithMemory);
  EXPECT_GE(median, kMedianLow);
  EXPECT_LE(median, kMedianHigh);
}

}  // namespace
}  // namespace accelplan::planner
