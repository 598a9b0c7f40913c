// accelplan_loadgen: a closed-loop gRPC load generator on the callback API.
// `--concurrency` calls stay outstanding, spread over `--channels` channels
// (each its own HTTP/2 connection); every completion records its status code
// and latency and starts the next call. Requests are pre-serialized and
// responses kept as bytes (generic stub), so the generator spends its share
// of the CPU on gRPC, not on protobuf, and the same client measures every
// RPC alike. A failed call is counted under its code, never retried or
// hidden; channels reconnect by themselves after GOAWAY.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "accelplan/v1/accelplan.pb.h"
#include "bench/load/mix.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"

ABSL_FLAG(std::string, target, "127.0.0.1:50051", "Server HOST:PORT.");
ABSL_FLAG(std::string, rpc, "",
          "health, plan, review or list: only that RPC (health sends the "
          "readiness Check). Empty: plan with --examples_dir, every entry of "
          "--mix as written.");
ABSL_FLAG(std::string, view, "",
          "basic or full: sets PlanTrainingRequest.view on every plan "
          "request. Empty: full for --examples_dir, as written for --mix.");
ABSL_FLAG(std::string, examples_dir, "",
          "Build the mix from DIR/*_plan*.json: the seeds, then randomised "
          "variants (sizes, deadlines, budgets, objectives) from --seed.");
ABSL_FLAG(std::string, mix, "",
          "Mix file (rpc<TAB>expected_code<TAB>name<TAB>json per line), "
          "instead of --examples_dir.");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the randomised mix.");
ABSL_FLAG(int32_t, mix_size, 2000, "Plan requests in a built mix.");
ABSL_FLAG(double, invalid_fraction, 0,
          "Share of built plan requests made invalid (expect "
          "INVALID_ARGUMENT).");
ABSL_FLAG(double, other_fraction, 0,
          "Share of a built mix that is ReviewPlan, ListAccelerators and "
          "health Check calls.");
ABSL_FLAG(std::string, write_mix, "",
          "Write the mix to FILE (mix file format) and exit.");
ABSL_FLAG(std::string, write_bodies, "",
          "Write each mix request framed as a gRPC message (5-byte prefix + "
          "bytes) to DIR/NAME.grpc, a body for h2load -d, and exit.");
ABSL_FLAG(int32_t, concurrency, 16, "Calls kept outstanding.");
ABSL_FLAG(int32_t, channels, 1,
          "Channels (one HTTP/2 connection each) the calls spread over.");
ABSL_FLAG(double, duration_seconds, 10,
          "Measure for this long (ignored when --requests is set).");
ABSL_FLAG(int64_t, requests, 0, "Measure exactly this many calls.");
ABSL_FLAG(double, time_limit_seconds, 0,
          "With --requests: stop issuing calls after this long even if fewer "
          "were made (0: no limit); the JSON says how many were.");
ABSL_FLAG(double, warmup_seconds, 0,
          "Run, unrecorded, for this long first (connections, caches).");
ABSL_FLAG(int32_t, deadline_ms, 5000, "Per-call deadline.");
ABSL_FLAG(bool, wait_for_ready, false,
          "Calls wait for a connection instead of failing UNAVAILABLE.");
ABSL_FLAG(std::string, json_out, "", "Also write the results as JSON here.");
ABSL_FLAG(bool, expect_ok, false, "Exit 1 if any call is not OK.");
ABSL_FLAG(bool, fail_on_unexpected, false,
          "Exit 1 if any call's code differs from its mix entry's expected "
          "code.");
ABSL_FLAG(bool, digest_responses, false,
          "Add an order-independent digest of every OK response's bytes to "
          "the JSON (response_digest): one pass over a mix (--requests = mix "
          "size) on two servers gives equal digests iff they answered alike.");
ABSL_FLAG(bool, quiet, false, "No text summary on stdout.");

namespace accelplan::load {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kCodes = 17;

struct Stats {
  std::vector<uint32_t> latency_us;
  std::array<int64_t, kCodes> codes{};
  std::array<int64_t, kCodes> unexpected{};
  int64_t ok_response_bytes = 0;
  uint64_t digest = 0;      // sum of FNV-1a of each OK response
  std::string first_error;  // one example, for the summary
};

struct Request {
  Rpc rpc;
  const char* method;
  grpc::ByteBuffer bytes;
  grpc::StatusCode expected;
  const std::string* name;
};

class LoadGenerator;

// One outstanding call at a time; owns everything that call touches.
struct Slot {
  LoadGenerator* gen = nullptr;
  grpc::GenericStub* stub = nullptr;
  std::unique_ptr<grpc::ClientContext> context;
  grpc::ByteBuffer request;
  grpc::ByteBuffer response;
  const Request* current = nullptr;
  Clock::time_point start;
  Stats stats;
};

class LoadGenerator {
 public:
  LoadGenerator(std::vector<Request> requests, int concurrency, int channels,
                const std::string& target, int deadline_ms, bool wait_for_ready)
      : requests_(std::move(requests)),
        deadline_(std::chrono::milliseconds(deadline_ms)),
        wait_for_ready_(wait_for_ready) {
    for (int i = 0; i < channels; ++i) {
      grpc::ChannelArguments args;
      // Separate subchannels, so each channel is its own connection.
      args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
      args.SetInt("accelplan.loadgen.channel", i);
      args.SetMaxReceiveMessageSize(64 << 20);
      stubs_.push_back(
          std::make_unique<grpc::GenericStub>(grpc::CreateCustomChannel(
              target, grpc::InsecureChannelCredentials(), args)));
    }
    slots_.resize(concurrency);
    for (int i = 0; i < concurrency; ++i) {
      slots_[i].gen = this;
      slots_[i].stub = stubs_[i % channels].get();
    }
  }

  // Runs until `requests` calls were issued (> 0) or `duration` passed
  // (with `requests` > 0, only a duration > 0 limits); then waits for the
  // outstanding ones. Returns the wall time.
  double Run(int64_t requests, double duration_seconds, bool record) {
    limit_ = requests;
    timed_ = requests <= 0 || duration_seconds > 0;
    issued_.store(0);
    record_ = record;
    start_ = Clock::now();
    end_ = start_ + std::chrono::microseconds(
                        static_cast<int64_t>(duration_seconds * 1e6));
    {
      std::lock_guard<std::mutex> lock(mu_);
      active_ = static_cast<int>(slots_.size());
    }
    for (Slot& s : slots_) Issue(&s);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return active_ == 0; });
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  Stats Merge() const {
    Stats all;
    for (const Slot& s : slots_) {
      all.latency_us.insert(all.latency_us.end(), s.stats.latency_us.begin(),
                            s.stats.latency_us.end());
      for (int c = 0; c < kCodes; ++c) {
        all.codes[c] += s.stats.codes[c];
        all.unexpected[c] += s.stats.unexpected[c];
      }
      all.ok_response_bytes += s.stats.ok_response_bytes;
      all.digest += s.stats.digest;
      if (all.first_error.empty()) all.first_error = s.stats.first_error;
    }
    return all;
  }

  void set_digest_responses(bool on) { digest_ = on; }

 private:
  void Issue(Slot* s) {
    const int64_t n = issued_.fetch_add(1, std::memory_order_relaxed);
    if ((limit_ > 0 && n >= limit_) ||
        ((limit_ <= 0 || timed_) && Clock::now() >= end_)) {
      std::lock_guard<std::mutex> lock(mu_);
      if (--active_ == 0) done_.notify_all();
      return;
    }
    s->current = &requests_[static_cast<size_t>(n) % requests_.size()];
    s->context = std::make_unique<grpc::ClientContext>();
    s->context->set_deadline(std::chrono::system_clock::now() + deadline_);
    s->context->set_wait_for_ready(wait_for_ready_);
    s->request = s->current->bytes;  // shares the slices, no copy
    s->response.Clear();
    s->start = Clock::now();
    s->stub->UnaryCall(s->context.get(), s->current->method,
                       grpc::StubOptions(), &s->request, &s->response,
                       [this, s](grpc::Status status) { Done(s, status); });
  }

  void Done(Slot* s, const grpc::Status& status) {
    if (record_) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                          Clock::now() - s->start)
                          .count();
      s->stats.latency_us.push_back(static_cast<uint32_t>(
          std::min<int64_t>(us, std::numeric_limits<uint32_t>::max())));
      const int code =
          std::clamp(static_cast<int>(status.error_code()), 0, kCodes - 1);
      ++s->stats.codes[code];
      if (status.error_code() != s->current->expected) {
        ++s->stats.unexpected[code];
        if (s->stats.first_error.empty()) {
          s->stats.first_error = absl::StrCat(
              *s->current->name, ": got ", CodeName(status.error_code()),
              " want ", CodeName(s->current->expected), ": ",
              status.error_message().substr(0, 300));
        }
      }
      if (status.ok()) {
        s->stats.ok_response_bytes += s->response.Length();
        if (digest_) s->stats.digest += Digest(s->current->rpc, s->response);
      }
    }
    Issue(s);
  }

  static uint64_t Fnv1a(absl::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    return h;
  }

  // A PlanTrainingResponse holds maps (job spec node selectors) whose wire
  // order is not fixed, so it is digested in deterministic serialization
  // (map keys sorted); other responses as received.
  static uint64_t Digest(Rpc rpc, const grpc::ByteBuffer& buffer) {
    std::vector<grpc::Slice> slices;
    if (!buffer.Dump(&slices).ok()) return 0;
    std::string bytes;
    for (const grpc::Slice& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
    if (rpc != Rpc::kPlan) return Fnv1a(bytes);
    v1::PlanTrainingResponse response;
    if (!response.ParseFromString(bytes)) return Fnv1a(bytes);
    std::string canonical;
    {
      google::protobuf::io::StringOutputStream stream(&canonical);
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      response.SerializeToCodedStream(&coded);
    }
    return Fnv1a(canonical);
  }

  std::vector<Request> requests_;
  std::vector<std::unique_ptr<grpc::GenericStub>> stubs_;
  std::vector<Slot> slots_;
  const std::chrono::milliseconds deadline_;
  const bool wait_for_ready_;
  bool digest_ = false;
  int64_t limit_ = 0;
  bool timed_ = true;
  std::atomic<int64_t> issued_{0};
  bool record_ = true;
  Clock::time_point start_, end_;
  std::mutex mu_;
  std::condition_variable done_;
  int active_ = 0;
};

double Percentile(const std::vector<uint32_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t i = std::min(
      sorted.size() - 1,
      static_cast<size_t>(std::ceil(p / 100.0 * sorted.size())) - (p > 0));
  return sorted[i] / 1000.0;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Closed-loop gRPC load generator for accelplan-server; see the Load "
      "section of docs/performance.md.");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    std::fprintf(stderr, "unexpected arguments: %s\n", rest[1]);
    return 2;
  }
  const std::string mix_file = absl::GetFlag(FLAGS_mix);
  const std::string examples = absl::GetFlag(FLAGS_examples_dir);
  const std::string rpc_flag = absl::GetFlag(FLAGS_rpc);
  std::vector<MixEntry> mix;
  if (rpc_flag == "health") {
    MixEntry e;
    e.rpc = Rpc::kHealth;
    e.name = "health";
    e.request = HealthCheckRequestBytes();
    mix.push_back(std::move(e));
  } else {
    MixOptions o;
    o.examples_dir = examples;
    o.seed = absl::GetFlag(FLAGS_seed);
    o.size = absl::GetFlag(FLAGS_mix_size);
    o.invalid_fraction = absl::GetFlag(FLAGS_invalid_fraction);
    o.other_fraction = absl::GetFlag(FLAGS_other_fraction);
    absl::StatusOr<std::vector<MixEntry>> built = LoadMix(mix_file, o);
    if (!built.ok()) {
      std::fprintf(stderr, "accelplan_loadgen: %s\n",
                   built.status().ToString().c_str());
      return 2;
    }
    mix = *std::move(built);
    std::string view = absl::GetFlag(FLAGS_view);
    if (view.empty() && mix_file.empty()) view = "full";
    if (absl::Status s = ApplyView(view, &mix); !s.ok()) {
      std::fprintf(stderr, "accelplan_loadgen: %s\n", s.ToString().c_str());
      return 2;
    }
    if (!rpc_flag.empty()) {
      absl::StatusOr<Rpc> only = ParseRpc(rpc_flag);
      if (!only.ok()) {
        std::fprintf(stderr, "accelplan_loadgen: --rpc: %s\n",
                     only.status().ToString().c_str());
        return 2;
      }
      mix.erase(
          std::remove_if(mix.begin(), mix.end(),
                         [&](const MixEntry& e) { return e.rpc != *only; }),
          mix.end());
      if (mix.empty()) {
        std::fprintf(stderr, "accelplan_loadgen: no %s requests in the mix\n",
                     rpc_flag.c_str());
        return 2;
      }
    }
  }
  if (const std::string out = absl::GetFlag(FLAGS_write_mix); !out.empty()) {
    if (absl::Status s = WriteMixFile(mix, out); !s.ok()) {
      std::fprintf(stderr, "accelplan_loadgen: %s\n", s.ToString().c_str());
      return 2;
    }
    std::printf("wrote %zu requests to %s\n", mix.size(), out.c_str());
    return 0;
  }

  if (const std::string dir = absl::GetFlag(FLAGS_write_bodies); !dir.empty()) {
    for (const MixEntry& e : mix) {
      std::string name = e.name;
      for (char& c : name) {
        if (!absl::ascii_isalnum(c) && c != '_' && c != '-') c = '_';
      }
      // gRPC framing: uncompressed flag, 4-byte big-endian length.
      const uint32_t n = static_cast<uint32_t>(e.request.size());
      const char prefix[5] = {0, static_cast<char>(n >> 24),
                              static_cast<char>(n >> 16),
                              static_cast<char>(n >> 8), static_cast<char>(n)};
      std::ofstream f(absl::StrCat(dir, "/", name, ".grpc"),
                      std::ios::binary | std::ios::trunc);
      f.write(prefix, 5);
      f << e.request;
      if (!f) {
        std::fprintf(stderr, "accelplan_loadgen: cannot write in %s\n",
                     dir.c_str());
        return 2;
      }
    }
    std::printf("wrote %zu bodies to %s\n", mix.size(), dir.c_str());
    return 0;
  }

  const int concurrency = absl::GetFlag(FLAGS_concurrency);
  const int channels = absl::GetFlag(FLAGS_channels);
  if (concurrency < 1 || channels < 1 || channels > concurrency) {
    std::fprintf(stderr,
                 "accelplan_loadgen: need 1 <= --channels <= --concurrency\n");
    return 2;
  }
  std::vector<Request> requests;
  int64_t request_bytes = 0;
  for (const MixEntry& e : mix) {
    grpc::Slice slice(e.request);
    requests.push_back(Request{e.rpc, RpcMethod(e.rpc),
                               grpc::ByteBuffer(&slice, 1), e.expected,
                               &e.name});
    request_bytes += static_cast<int64_t>(e.request.size());
  }
  LoadGenerator gen(
      std::move(requests), concurrency, channels, absl::GetFlag(FLAGS_target),
      absl::GetFlag(FLAGS_deadline_ms), absl::GetFlag(FLAGS_wait_for_ready));
  gen.set_digest_responses(absl::GetFlag(FLAGS_digest_responses));
  if (const double w = absl::GetFlag(FLAGS_warmup_seconds); w > 0) {
    gen.Run(0, w, /*record=*/false);
  }
  const int64_t limit = absl::GetFlag(FLAGS_requests);
  const double wall =
      gen.Run(limit,
              limit > 0 ? absl::GetFlag(FLAGS_time_limit_seconds)
                        : absl::GetFlag(FLAGS_duration_seconds),
              /*record=*/true);
  Stats st = gen.Merge();
  std::sort(st.latency_us.begin(), st.latency_us.end());
  const int64_t calls = static_cast<int64_t>(st.latency_us.size());
  int64_t unexpected = 0;
  for (int64_t u : st.unexpected) unexpected += u;
  const int64_t ok = st.codes[0];
  const double rps = wall > 0 ? calls / wall : 0;
  const double mean_bytes =
      ok > 0 ? static_cast<double>(st.ok_response_bytes) / ok : 0;
  double mean_ms = 0;
  for (uint32_t v : st.latency_us) mean_ms += v / 1000.0;
  if (calls > 0) mean_ms /= calls;

  std::vector<std::string> code_json, code_text, unexpected_json;
  for (int c = 0; c < kCodes; ++c) {
    const auto name = CodeName(static_cast<grpc::StatusCode>(c));
    if (st.codes[c] > 0) {
      code_json.push_back(absl::StrFormat("\"%s\": %d", name, st.codes[c]));
      code_text.push_back(absl::StrFormat("%s=%d", name, st.codes[c]));
    }
    if (st.unexpected[c] > 0) {
      unexpected_json.push_back(
          absl::StrFormat("\"%s\": %d", name, st.unexpected[c]));
    }
  }
  const std::string target = absl::GetFlag(FLAGS_target);
  if (!absl::GetFlag(FLAGS_quiet)) {
    absl::PrintF(
        "target %s rpc=%s view=%s mix=%zu requests (mean %.0f B) "
        "concurrency=%d channels=%d\n"
        "calls %lld in %.2f s: %.1f req/s\n"
        "codes: %s; unexpected: %lld\n"
        "latency ms: p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  mean %.3f\n"
        "mean OK response bytes: %.0f\n",
        target, rpc_flag.empty() ? "mix" : rpc_flag,
        absl::GetFlag(FLAGS_view).empty() ? "-" : absl::GetFlag(FLAGS_view),
        mix.size(), static_cast<double>(request_bytes) / mix.size(),
        concurrency, channels, static_cast<long long>(calls), wall, rps,
        code_text.empty() ? "-" : absl::StrJoin(code_text, " "),
        static_cast<long long>(unexpected), Percentile(st.latency_us, 50),
        Percentile(st.latency_us, 90), Percentile(st.latency_us, 99),
        Percentile(st.latency_us, 100), mean_ms, mean_bytes);
    if (!st.first_error.empty()) {
      absl::PrintF("first unexpected: %s\n", st.first_error);
    }
  }
  if (const std::string out = absl::GetFlag(FLAGS_json_out); !out.empty()) {
    std::ofstream f(out, std::ios::trunc);
    f << absl::StrFormat(
        "{\"target\": \"%s\", \"rpc\": \"%s\", \"view\": \"%s\", "
        "\"mix_requests\": %d, \"concurrency\": %d, \"channels\": %d, "
        "\"calls\": %d, \"seconds\": %.3f, \"rps\": %.1f, "
        "\"codes\": {%s}, \"unexpected\": {%s}, \"unexpected_total\": %d, "
        "\"latency_ms\": {\"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, "
        "\"max\": %.3f, \"mean\": %.3f}, \"mean_response_bytes\": %.1f, "
        "\"ok_response_bytes_total\": %d, \"response_digest\": \"%016x\", "
        "\"mean_request_bytes\": %.1f}\n",
        target, rpc_flag.empty() ? "mix" : rpc_flag, absl::GetFlag(FLAGS_view),
        mix.size(), concurrency, channels, calls, wall, rps,
        absl::StrJoin(code_json, ", "), absl::StrJoin(unexpected_json, ", "),
        unexpected, Percentile(st.latency_us, 50),
        Percentile(st.latency_us, 90), Percentile(st.latency_us, 99),
        Percentile(st.latency_us, 100), mean_ms, mean_bytes,
        st.ok_response_bytes, st.digest,
        static_cast<double>(request_bytes) / mix.size());
    if (!f) {
      std::fprintf(stderr, "accelplan_loadgen: cannot write %s\n", out.c_str());
      return 2;
    }
  }
  if (calls == 0) {
    std::fprintf(stderr, "accelplan_loadgen: no call completed\n");
    return 1;
  }
  if (absl::GetFlag(FLAGS_expect_ok) && ok != calls) return 1;
  if (absl::GetFlag(FLAGS_fail_on_unexpected) && unexpected > 0) return 1;
  return 0;
}

}  // namespace
}  // namespace accelplan::load

int main(int argc, char** argv) { return accelplan::load::Main(argc, argv); }
