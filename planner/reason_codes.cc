#include "planner/types.h"

namespace accelplan::planner {

const char* ReasonCodeName(ReasonCode code) {
  // Same spelling as the proto enum value names.
  static constexpr const char* kNames[] = {
      "REASON_CODE_UNSPECIFIED",
      "HBM_TOO_SMALL",
      "FRAMEWORK_UNSUPPORTED",
      "FRAMEWORK_VERSION_TOO_OLD",
      "PRECISION_UNSUPPORTED",
      "CUSTOM_KERNELS_NEED_GPU",
      "OPS_UNSUITED_TO_TPU",
      "NOT_FOR_TRAINING",
      "NOT_FOR_ON_DEVICE",
      "END_OF_SUPPORT",
      "NOT_RECOMMENDED_FOR_WORKLOAD",
      "OVERSIZED_FOR_WORKLOAD",
      "HIGHER_COST",
      "SLOWER",
      "MISSES_DEADLINE",
      "OVER_BUDGET",
      "EXCEEDS_SINGLE_HOST",
      "EXCEEDS_MAX_ACCELERATORS",
      "NOT_OFFERED_ON_PLATFORM",
      "NOT_AVAILABLE_ON_DEMAND",
      "COMMUNICATION_BOUND",
      "PREEMPTION_RISK",
      "DOES_NOT_ADDRESS_BOTTLENECK",
      "NOT_APPLICABLE",
      "CHANGES_PINNED_HARDWARE",
      "NO_SHARED_MODEL",
      "PRICE_UNKNOWN",
      "FRAMEWORK_SUPPORT_UNVERIFIED",
      "FRAMEWORK_VERSION_ASSUMED",
      "PREVIEW_HARDWARE",
      "CATALOG_STALE",
      "END_OF_SUPPORT_SOON",
      "NO_DATASET_SIZE",
      "NOT_A_CANDIDATE",
      "NOT_IN_ALLOWED_SET",
      "NEEDS_IDENTICAL_SLICES",
      "ASSUMPTION",
      "CHEAPER",
      "FASTER",
      "BATCH_TOO_SMALL",
      "IMPLAUSIBLE_ESTIMATE",
      "CPU_ONLY_OPS",
      "LEGACY_HARDWARE",
      "PRICES_STALE",
      "NEEDS_MULTI_HOST_SLICES",
  };
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == kMaxReasonCode + 1,
                "one name per ReasonCode");
  const int i = static_cast<int>(code);
  if (i < 0 || i > kMaxReasonCode) return "REASON_CODE_UNSPECIFIED";
  return kNames[i];
}

}  // namespace accelplan::planner
