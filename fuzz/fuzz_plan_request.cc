// libFuzzer target: request decoding, conversion, validation and planning.
//
// The first byte chooses how the rest is decoded (binary PlanTrainingRequest,
// binary ReviewPlanRequest, or either as proto3 JSON), so one corpus covers
// both RPCs and both encodings. Whatever decodes goes through the server's
// path, the core (core/planning_core.h): conversion (unknown enum numbers become violations), semantic
// validation, and only when both are clean, Plan or Review.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "accelplan/v1/accelplan.pb.h"
#include "catalog/loader.h"
#include "core/planning_core.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/util/json_util.h"
#include "planner/planner.h"

namespace {

using accelplan::planner::Planner;

// Loaded once per process: the catalog is immutable and Planner is
// thread-safe and const, so sharing it across inputs is what the server does.
const Planner& GetPlanner() {
  static const Planner* planner = [] {
    const char* env = std::getenv("ACCELPLAN_CATALOG");
    const std::string path = env != nullptr ? env : ACCELPLAN_FUZZ_CATALOG;
    absl::StatusOr<accelplan::catalog::CatalogPtr> catalog =
        accelplan::catalog::LoadCatalog(path);
    if (!catalog.ok()) {
      std::fprintf(stderr, "fuzz_plan_request: cannot load catalog %s: %s\n",
                   path.c_str(), catalog.status().ToString().c_str());
      std::abort();
    }
    return new Planner(*std::move(catalog));
  }();
  return *planner;
}

// The same path as the server and the CLI: the transport-neutral core.
void FuzzPlan(const accelplan::v1::PlanTrainingRequest& proto) {
  accelplan::v1::PlanTrainingResponse out;
  (void)accelplan::core::PlanTraining(GetPlanner(), proto, {}, &out);
}

void FuzzReview(const accelplan::v1::ReviewPlanRequest& proto) {
  accelplan::v1::ReviewPlanResponse out;
  (void)accelplan::core::ReviewPlan(GetPlanner(), proto, {}, &out);
}

template <typename Message>
bool Decode(bool json, const uint8_t* data, size_t size, Message* message) {
  if (json) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    return google::protobuf::util::JsonStringToMessage(text, message).ok();
  }
  return message->ParseFromArray(data, static_cast<int>(size));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  // Invalid UTF-8 in string fields is a normal parse failure here; without
  // this, protobuf logs every one and the log buries real findings.
  google::protobuf::SetLogHandler(nullptr);
  GetPlanner();  // load the catalog before the first input is timed
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // Selector byte: bit 0 = review (else plan), bit 1 = JSON (else binary).
  const uint8_t selector = data[0];
  const bool review = (selector & 1) != 0;
  const bool json = (selector & 2) != 0;
  ++data;
  --size;
  if (review) {
    accelplan::v1::ReviewPlanRequest proto;
    if (Decode(json, data, size, &proto)) FuzzReview(proto);
  } else {
    accelplan::v1::PlanTrainingRequest proto;
    if (Decode(json, data, size, &proto)) FuzzPlan(proto);
  }
  return 0;
}
