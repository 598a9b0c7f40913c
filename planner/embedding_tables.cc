// The optimizer state of embedding tables (recommenders' sparse tables),
// as TorchRec's planner sizes it; declared in planner/memory_model.h.
#include "planner/memory_model.h"

namespace accelplan::planner {

namespace {
bool TrainsTables(TrainingMethod method) {
  return method != TrainingMethod::kLora && method != TrainingMethod::kQlora;
}
}  // namespace

double TableOptimizerBytesPerTableByte(TrainingMethod method,
                                       Optimizer optimizer) {
  if (!TrainsTables(method)) return 0;
  switch (optimizer) {
    case Optimizer::kAdam:
    case Optimizer::kAdamFp32Grads:
    case Optimizer::kAdamBf16:
      return 2;
    case Optimizer::kSgdMomentum:
      return 1;
    case Optimizer::kAdam8bit:
      return 0.5;
    case Optimizer::kAdafactor:
    case Optimizer::kUnspecified:
      return 0;
  }
  return 0;
}

const char* TableOptimizerAssumption(TrainingMethod method,
                                     Optimizer optimizer) {
  if (!TrainsTables(method)) {
    return "Embedding tables: held frozen under LoRA, with no optimizer "
           "state.";
  }
  switch (optimizer) {
    case Optimizer::kUnspecified:
      return "Embedding tables: optimizer not given, so row-wise Adagrad "
             "assumed for them (one value per row, TorchRec's DLRM "
             "default): no state beyond the tables. State the optimizer if "
             "the tables train with Adam, which keeps two moments per "
             "element (3x the tables' memory, TorchRec's planner).";
    case Optimizer::kAdafactor:
      return "Embedding tables: Adafactor's factored moments (a row and a "
             "column vector per table) add no state beyond the tables.";
    case Optimizer::kSgdMomentum:
      return "Embedding tables: SGD with momentum keeps one buffer per "
             "element: 2x the tables' memory.";
    case Optimizer::kAdam8bit:
      return "Embedding tables: 8-bit Adam keeps two 1-byte moments per "
             "fp32 element: 1.5x the tables' memory.";
    default:
      return "Embedding tables: Adam keeps two moments per element in the "
             "tables' dtype: 3x the tables' memory (TorchRec's planner "
             "sizes tables so).";
  }
}

}  // namespace accelplan::planner
