// Sanity invariants over a built catalog database, checked by the build
// tool before it publishes catalog.db. Each catches a class of wrong fact
// that the schema's CHECKs cannot see because it spans several rows.
#ifndef ACCELPLAN_CATALOG_INVARIANTS_H_
#define ACCELPLAN_CATALOG_INVARIANTS_H_

#include <string>
#include <vector>

#include "SQLiteCpp/SQLiteCpp.h"

namespace accelplan::catalog {

// Returns one message per violating row, each naming the table and row;
// empty when every invariant holds:
//  - peak_fp8 >= peak_bf16 (equality only with a note saying "equal ...");
//  - peak_int8 >= peak_fp8 on NVIDIA Ada Lovelace and Hopper GPUs;
//  - peak_fp32 == peak_fp64 only with a note saying "equal ...";
//  - per-chip host vCPUs and memory of a TPU series' VM shapes within 20%
//    of the series median;
//  - every price row has a positive price and a calendar price_date no
//    later than the catalog's data_date;
//  - every TPU topology's chips equal the product of its dimensions.
std::vector<std::string> CheckInvariants(SQLite::Database& db);

}  // namespace accelplan::catalog

#endif  // ACCELPLAN_CATALOG_INVARIANTS_H_
