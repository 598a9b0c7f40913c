// server/status.h: INVALID_ARGUMENT answers stay small whatever the request
// (at most ~20 violations, truncated values, a few KiB of trailers), and
// small answers are left exactly as they were.
#include "server/status.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace accelplan::server {
namespace {

using planner::FieldViolation;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<FieldViolation> Many(
    size_t n,
    const std::string& description = "must not be negative (got -1)") {
  std::vector<FieldViolation> out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(
        {absl::StrCat("current_setup.layer_widths[", i, "]"), description});
  }
  return out;
}

google::rpc::BadRequest Unpack(const grpc::Status& status) {
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(status.error_details()));
  EXPECT_EQ(details.code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(details.message(), status.error_message());
  google::rpc::BadRequest bad_request;
  EXPECT_EQ(details.details_size(), 1);
  if (details.details_size() == 1) {
    EXPECT_TRUE(details.details(0).UnpackTo(&bad_request));
  }
  return bad_request;
}

// True when `s` is well-formed UTF-8 (no sequence cut short).
bool ValidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80           ? 1
                       : (c >> 5) == 0x6  ? 2
                       : (c >> 4) == 0xE  ? 3
                       : (c >> 3) == 0x1E ? 4
                                          : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

size_t Chars(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TEST(InvalidArgument, ListsEveryViolationUpToTheCap) {
  const auto v = Many(kMaxReportedViolations);
  const grpc::Status status = InvalidArgument(v);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_EQ(bad.field_violations_size(), kMaxReportedViolations);
  for (int i = 0; i < kMaxReportedViolations; ++i) {
    EXPECT_EQ(bad.field_violations(i).field(), v[i].field);
    EXPECT_EQ(bad.field_violations(i).description(), v[i].description);
  }
  EXPECT_THAT(status.error_message(), Not(HasSubstr("more violation")));
  EXPECT_THAT(status.error_message(),
              HasSubstr("current_setup.layer_widths[0]: must not be negative"));
}

TEST(InvalidArgument, SmallAnswerUnchanged) {
  const grpc::Status status =
      InvalidArgument({{"workload.parameter_count", "must not be negative"}});
  EXPECT_EQ(status.error_message(),
            "invalid request: workload.parameter_count: must not be negative");
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "workload.parameter_count");
}

TEST(InvalidArgument, OneOverTheCapBecomesAMoreEntry) {
  const grpc::Status status = InvalidArgument(Many(kMaxReportedViolations + 1));
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_EQ(bad.field_violations_size(), kMaxReportedViolations + 1);
  EXPECT_EQ(bad.field_violations(kMaxReportedViolations).field(), "");
  EXPECT_EQ(bad.field_violations(kMaxReportedViolations).description(),
            "and 1 more violation");
}

TEST(InvalidArgument, TenThousandViolationsStayBounded) {
  const grpc::Status status = InvalidArgument(Many(10000));
  EXPECT_LE(status.error_message().size(), kMaxInvalidArgumentMessageBytes);
  EXPECT_LE(status.error_details().size(), kMaxInvalidArgumentDetailsBytes);
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_EQ(bad.field_violations_size(), kMaxReportedViolations + 1);
  EXPECT_EQ(bad.field_violations(0).field(), "current_setup.layer_widths[0]");
  EXPECT_EQ(bad.field_violations(kMaxReportedViolations).description(),
            "and 9980 more violations");
}

TEST(InvalidArgument, LongValuesAreTruncatedOnCharacterBoundaries) {
  std::string euros;
  for (int i = 0; i < 3000; ++i) euros += "\xe2\x82\xac";  // €
  const grpc::Status status = InvalidArgument(
      {{"as_of", absl::StrCat("must be a date (got \"", euros, "\")")},
       {absl::StrCat("proposals[0].", euros), "bad"}});
  EXPECT_LE(status.error_message().size(), kMaxInvalidArgumentMessageBytes);
  EXPECT_TRUE(ValidUtf8(status.error_message()));
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_EQ(bad.field_violations_size(), 2);
  const std::string& description = bad.field_violations(0).description();
  EXPECT_TRUE(ValidUtf8(description));
  EXPECT_EQ(Chars(description),
            static_cast<size_t>(kMaxViolationDescriptionChars));
  EXPECT_THAT(description, EndsWith("..."));
  EXPECT_THAT(description, HasSubstr("must be a date"));
  const std::string& field = bad.field_violations(1).field();
  EXPECT_TRUE(ValidUtf8(field));
  EXPECT_EQ(Chars(field), static_cast<size_t>(kMaxViolationFieldChars));
}

TEST(InvalidArgument, FourByteCharactersEverywhereStillFit) {
  std::string emoji;
  for (int i = 0; i < 200; ++i) emoji += "\xf0\x9f\x98\x80";  // U+1F600
  std::vector<FieldViolation> v;
  for (int i = 0; i < 1000; ++i) v.push_back({emoji, emoji});
  const grpc::Status status = InvalidArgument(v);
  EXPECT_LE(status.error_message().size(), kMaxInvalidArgumentMessageBytes);
  EXPECT_TRUE(ValidUtf8(status.error_message()));
  EXPECT_LE(status.error_details().size(), kMaxInvalidArgumentDetailsBytes);
  const google::rpc::BadRequest bad = Unpack(status);
  ASSERT_GE(bad.field_violations_size(), 2);
  // Listed + "more" account for every violation.
  const int listed = bad.field_violations_size() - 1;
  EXPECT_EQ(bad.field_violations(listed).description(),
            absl::StrCat("and ", 1000 - listed, " more violations"));
}

TEST(TruncateUtf8, KeepsShortTextAndCutsLongText) {
  EXPECT_EQ(TruncateUtf8("2x2", 64), "2x2");
  EXPECT_EQ(TruncateUtf8("abcdefgh", 8), "abcdefgh");
  EXPECT_EQ(TruncateUtf8("abcdefghi", 8), "abcde...");
  // Two-byte characters: never half of one.
  EXPECT_EQ(TruncateUtf8("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4),
            "\xc3\xa9...");
}

TEST(DescribeViolations, IsBoundedLikeTheAnswer) {
  const std::string text = DescribeViolations(Many(10000));
  EXPECT_THAT(text, EndsWith("and 9980 more violations"));
  EXPECT_LT(text.size(), 2000u);
}

}  // namespace
}  // namespace accelplan::server
